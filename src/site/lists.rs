//! The site-wide lists as a build leaves them, for the next build (`.ludotheca-lists` in the site): the key of
//! all they were made from, and the paths of the pages and files they made. The lists (browse, rules at a
//! glance, puzzles, variants, tags, places, the map, the timeline, people, sources, the home page) read every
//! item, so each is made again, or at least keyed again page by page, at every build: at 10,000 items about a
//! tenth of a second of one core. Most edits change nothing any list shows (a description, a picture), and then
//! the next build finds the same key here and keeps every one of those files as it was, without making or
//! keying any.
//!
//! Sealed with the program that wrote it ([`crate::fingerprint::seal`]): a file of another version, damaged or
//! cut short is not read, and the lists are made.

use crate::fingerprint::{self, Hash};

/// The file's path in the site.
pub const FILE: &str = ".ludotheca-lists";

/// The file's first line: its format.
const FORMAT: &[u8] = b"ludotheca-lists 1\n";

/// What the lists of a build made.
#[derive(Debug, Default, PartialEq)]
pub struct Made {
    /// The pages, which the sitemap lists.
    pub pages: Vec<String>,
    /// The other files (the map's outlines).
    pub files: Vec<String>,
}

/// The file: the lists' key and what they made, its `pages` and other `files`.
pub fn encode(key: &Hash, pages: &[String], files: &[String]) -> Vec<u8> {
    let mut body = Vec::with_capacity(
        32 + pages
            .iter()
            .chain(files)
            .map(|p| p.len() + 1)
            .sum::<usize>(),
    );
    body.extend_from_slice(key);
    for (n, list) in [pages, files].into_iter().enumerate() {
        if n > 0 {
            body.push(b'\n');
        }
        for path in list {
            // A path of the site holds no line break (`super::output::checked_path`).
            body.extend_from_slice(path.as_bytes());
            body.push(b'\n');
        }
    }
    fingerprint::seal(FORMAT, &body)
}

/// What the lists of the build that wrote `file` made, when it made them from `key`; `None` when it made them
/// from anything else, or the file is not one [`encode`] wrote by this program.
pub fn made_from(file: &[u8], key: &Hash) -> Option<Made> {
    let body = fingerprint::unseal(FORMAT, file)?;
    let rest = body.strip_prefix(&key[..])?;
    let text = std::str::from_utf8(rest).ok()?;
    // The pages, a blank line, the files: each list's paths end in a line break.
    let (pages, files) = match text.split_once("\n\n") {
        Some((pages, files)) => (format!("{pages}\n"), files.to_string()),
        None => (String::new(), text.strip_prefix('\n')?.to_string()),
    };
    let lines = |list: &str| -> Option<Vec<String>> {
        if list.is_empty() {
            return Some(Vec::new());
        }
        let list = list.strip_suffix('\n')?;
        Some(list.split('\n').map(str::to_string).collect())
    };
    Some(Made {
        pages: lines(&pages)?,
        files: lines(&files)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_the_lists_made_reads_back_only_under_their_key() {
        let key = [3u8; 32];
        for made in [
            Made {
                pages: vec!["index.html".into(), "browse/index.html".into()],
                files: vec!["map/outlines-0.svg".into()],
            },
            Made {
                pages: vec!["index.html".into()],
                files: Vec::new(),
            },
            Made::default(),
        ] {
            let file = encode(&key, &made.pages, &made.files);
            assert_eq!(made_from(&file, &key), Some(made));
            assert_eq!(made_from(&file, &[4u8; 32]), None);
            assert_eq!(made_from(&file[..file.len() - 1], &key), None);
        }
        assert_eq!(made_from(b"", &key), None);
    }
}
