//! Each site's folders as the build that made it left them ([`FOLDERS`]), so that the build that takes the
//! site up again as its standby finds what was put into it since: a file or folder no manifest lists, added by
//! hand or by another program while the site was live. Without it such a file went out with the site at one
//! swap and came back with the standby at the next, in the site at every other build.
//!
//! A folder's time of last change moves whenever a name in it is added, removed or renamed, and writing a file
//! in place leaves it alone (the look at each file catches that, see [`Seen`]). So a folder whose stamp is
//! the one recorded holds the names it held, and only the others are listed: at 10,000 items, 12,000 looks
//! rather than 12,000 listings. The site's top folder, which every build writes its own files into after the
//! record is made, is always listed.

use std::collections::HashSet;
use std::fs;
use std::io;
use std::path::Path;

use rayon::prelude::*;

use super::{MANIFEST, MARKER, Manifest, Seen, partial_of, remove_tree};

/// The record of a site's folders, in the site's top folder.
pub const FOLDERS: &str = ".ludotheca-folders";

/// The record's first line: its format.
const HEADER: &str = "ludotheca-folders 1\n";

/// Each folder of a site but its top one, by path within the site (`games/terhuchu`), with its stamp as the
/// build that wrote the record left it; none for a folder that build did not look at, which the next lists.
pub type Record = foldhash::HashMap<String, Option<Seen>>;

impl Seen {
    /// What `meta` says of a folder; none for anything else, or where the system gives no time.
    fn of_folder(meta: &fs::Metadata) -> Option<Seen> {
        Seen::of_any(meta).filter(|_| meta.is_dir())
    }

    /// The folder at `path`, without following a link.
    pub(super) fn folder_at(path: &Path) -> Option<Seen> {
        Seen::of_folder(&fs::symlink_metadata(path).ok()?)
    }
}

/// The record in the site at `root`; none when there is none, or it is another version's or damaged.
pub fn read(root: &Path) -> Option<Record> {
    let text = fs::read_to_string(root.join(FOLDERS)).ok()?;
    let body = text.strip_prefix(HEADER)?;
    let mut record = Record::with_capacity_and_hasher(
        body.bytes().filter(|&b| b == b'\n').count(),
        Default::default(),
    );
    for line in body.lines() {
        let (seen, path) = line.split_once(' ')?;
        let seen = match seen {
            "-" => None,
            seen => Some(Seen::parse(seen)?),
        };
        record.insert(path.to_string(), seen);
    }
    Some(record)
}

/// The record of `folders` (paths within the site, each with its stamp), as [`read`] reads it.
pub fn text<'a>(folders: impl IntoIterator<Item = (&'a str, Option<Seen>)>) -> String {
    let mut text = HEADER.to_string();
    for (path, seen) in folders {
        Seen::push(seen, &mut text);
        text.push(' ');
        text.push_str(path);
        text.push('\n');
    }
    text
}

/// Every folder the files at `paths` (within a site) lie in, and the folders above those, but the top one:
/// each once, in order.
pub fn of_files<'a>(paths: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut folders: foldhash::HashSet<&str> = foldhash::HashSet::default();
    // Files of one folder mostly come one after another: its folders are known already.
    let mut last = "";
    for path in paths {
        let folder = path.rsplit_once('/').map_or("", |(folder, _)| folder);
        if folder == last {
            continue;
        }
        last = folder;
        let mut at = path;
        while let Some((folder, _)) = at.rsplit_once('/') {
            if !folders.insert(folder) {
                break;
            }
            at = folder;
        }
    }
    let mut folders: Vec<&str> = folders.into_iter().collect();
    folders.sort_unstable();
    folders
}

/// The stamp of each of `folders` (paths within the site at `root`), looked at on every core.
pub fn look(root: &Path, folders: &[&str]) -> Vec<Option<Seen>> {
    folders
        .par_iter()
        .map(|folder| Seen::folder_at(&root.join(folder)))
        .collect()
}

/// The record of the folders of the site staged at `root`, whose files are `files`, once nothing but the
/// build's own files in the top folder will change: a folder's stamp as `standby` (the record of the standby
/// the site was staged in) has it, where the sweep found it so and nothing was put into it since (nor made
/// in it: `touched`, by full path); taken again otherwise where the sweep looked (`swept`); none where it did
/// not, so that the next build lists it.
pub fn record<'a>(
    root: &Path,
    files: impl Iterator<Item = &'a str>,
    standby: Option<&Record>,
    swept: bool,
    touched: &HashSet<std::path::PathBuf>,
) -> String {
    let all = of_files(files);
    let touched: HashSet<&str> = touched
        .iter()
        .filter_map(|dir| dir.strip_prefix(root).ok()?.to_str())
        .collect();
    // Each folder's stamp as the standby's record has it, where nothing was put into it since; on every core,
    // as the commit waits for it (12,000 folders at 10,000 items).
    let mut stamps: Vec<Option<Seen>> = all
        .par_iter()
        .map(|folder| {
            standby
                .and_then(|record| record.get(*folder).copied().flatten())
                .filter(|_| !touched.contains(folder))
        })
        .collect();
    if swept {
        let again: Vec<usize> = (0..all.len()).filter(|&n| stamps[n].is_none()).collect();
        let folders: Vec<&str> = again.iter().map(|&n| all[n]).collect();
        for (n, seen) in again.into_iter().zip(look(root, &folders)) {
            stamps[n] = seen;
        }
    }
    text(all.into_iter().zip(stamps))
}

/// What a site's folders hold that its manifest does not list.
pub struct Listed<'a> {
    /// The site's manifest: its files.
    pub files: &'a Manifest,
    /// The site's folders.
    pub folders: &'a HashSet<&'a str>,
}

impl Listed<'_> {
    /// Remove from the folder `folder` (within the site at `root`; `""` for the top one) every name that is
    /// neither a file nor a folder of the site, and give their paths. Names a build keeps in the top folder
    /// beside the manifest's files (the manifest, set aside while the site is staged, the marker and this
    /// record) stay. Nothing is followed: a link is removed as the name it is.
    pub fn clear(&self, root: &Path, folder: &str) -> io::Result<Vec<String>> {
        let mut removed = Vec::new();
        let Ok(entries) = fs::read_dir(root.join(folder)) else {
            return Ok(removed);
        };
        for entry in entries {
            let entry = entry?;
            let name = entry.file_name();
            let shown = name.to_string_lossy();
            let path = match folder {
                "" => shown.to_string(),
                folder => format!("{folder}/{shown}"),
            };
            // A name that is not UTF-8 is in no manifest (its lossy form, which may be, is not the name).
            let plain = name.to_str().is_some();
            let is_dir = entry.file_type()?.is_dir();
            let ours = plain
                && if is_dir {
                    self.folders.contains(path.as_str())
                } else {
                    self.files.contains_key(&path) || (folder.is_empty() && own_name(&path))
                };
            if ours {
                continue;
            }
            if is_dir {
                remove_tree(&entry.path())?;
            } else {
                fs::remove_file(entry.path())?;
            }
            removed.push(path);
        }
        Ok(removed)
    }
}

/// The names a build keeps in a site's top folder besides the files its manifest lists.
fn own_name(name: &str) -> bool {
    let set_aside = partial_of(Path::new(MANIFEST));
    name == MANIFEST || name == MARKER || name == FOLDERS || Path::new(name) == set_aside
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_are_every_one_above_a_file_each_once() {
        let paths = [
            "index.html",
            "games/a/index.html",
            "games/a/record.xml",
            "games/b/index.html",
            "static/style.css",
            "tags/x/y/index.html",
        ];
        assert_eq!(
            of_files(paths.into_iter()),
            [
                "games", "games/a", "games/b", "static", "tags", "tags/x", "tags/x/y"
            ]
        );
        assert!(of_files(["index.html"].into_iter()).is_empty());
    }

    #[test]
    fn a_record_reads_back_as_written() {
        let dir = std::env::temp_dir().join(format!("ludotheca-folders-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("games/a")).unwrap();
        let seen = Seen::folder_at(&dir.join("games/a"));
        assert!(seen.is_some());
        assert_eq!(Seen::folder_at(&dir.join("games/b")), None);
        fs::write(
            dir.join(FOLDERS),
            text([("games/a", seen), ("games", None)]),
        )
        .unwrap();
        let record = read(&dir).unwrap();
        assert_eq!(record.len(), 2);
        assert_eq!(record["games/a"], seen);
        assert_eq!(record["games"], None);
        // Another version's record, or a damaged one, is none.
        fs::write(dir.join(FOLDERS), "ludotheca-folders 0\n- games\n").unwrap();
        assert!(read(&dir).is_none());
        fs::write(dir.join(FOLDERS), format!("{HEADER}12.x.3 games\n")).unwrap();
        assert!(read(&dir).is_none());
        fs::remove_dir_all(&dir).unwrap();
    }
}
