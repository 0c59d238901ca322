//! The search index's words as a build leaves them, for the next build (`.ludotheca-words` in the site). The
//! index is made from every document's words; after an edit of one description, all but a few words have the
//! same postings as before, and all but a few of its files the same bytes. With this file, the next build (a
//! new process, too) starts from the previous postings, takes out and puts back only the documents whose part
//! changed, and makes again only the files those words and documents are in; every other file of the index is
//! kept as it was. At 10,000 items, that is most of the search index's share of a rebuild.
//!
//! It holds what the postings were made from (what numbers the documents, and a checksum of each one's part)
//! and every word with its postings and its entry in its shard. Sealed with the program that wrote it
//! ([`crate::fingerprint::seal`]): a file of another version, damaged or cut short is not read, and the index
//! is made in full.

use crate::fingerprint::{self, Digest};

/// The file's path in the site.
pub const FILE: &str = ".ludotheca-words";

/// The file's first line: its format.
const FORMAT: &[u8] = b"ludotheca-words 1\n";

/// One word as the previous build filed it.
pub struct KeptWord {
    pub word: String,
    /// Its postings as [`super::Postings`] holds them, and the last document they name.
    pub bytes: Vec<u8>,
    pub last: u32,
    /// Its entry in its word shard.
    pub entry: String,
}

/// The previous build's index, as the next build takes it.
pub struct Kept {
    /// Each document's checksum of its part (its summary, alternative titles and words), by number.
    pub checks: Vec<Digest>,
    /// Every word, sorted.
    pub words: Vec<KeptWord>,
}

/// One word as this build files it: the word, its postings' bytes, the last document they name, and its entry.
pub type FiledWord<'a> = (&'a str, &'a [u8], u32, &'a str);

/// The file, sealed.
pub fn encode<'a>(
    identity: &Digest,
    checks: &[Digest],
    words: impl ExactSizeIterator<Item = FiledWord<'a>>,
) -> Vec<u8> {
    let mut body = Vec::new();
    body.extend_from_slice(identity);
    push_len(&mut body, checks.len());
    for check in checks {
        body.extend_from_slice(check);
    }
    push_len(&mut body, words.len());
    for (word, bytes, last, entry) in words {
        push_text(&mut body, word.as_bytes());
        body.extend_from_slice(&last.to_le_bytes());
        push_text(&mut body, bytes);
        push_text(&mut body, entry.as_bytes());
    }
    fingerprint::seal(FORMAT, &body)
}

/// The file [`encode`] wrote, by this program, for documents of this `identity`; `None` for anything else.
/// The identity is looked at first: after an edit that renumbers the documents (a title), the rest of the
/// file is of no use and is not read.
pub fn decode(file: &[u8], identity: &Digest) -> Option<Kept> {
    let at = FORMAT.len() + 32;
    if file.get(at..at + 16) != Some(&identity[..]) {
        return None;
    }
    let mut body = Reader(fingerprint::unseal(FORMAT, file)?);
    if body.take(16)? != identity {
        return None;
    }
    let docs = body.len()?;
    let checks = body
        .take(docs.checked_mul(16)?)?
        .chunks_exact(16)
        .map(|check| check.try_into().expect("16 bytes"))
        .collect();
    let count = body.len()?;
    let mut words = Vec::with_capacity(count.min(file.len()));
    for _ in 0..count {
        let word = std::str::from_utf8(body.text()?).ok()?.to_string();
        let last = u32::from_le_bytes(body.take(4)?.try_into().ok()?);
        let bytes = body.text()?.to_vec();
        let entry = std::str::from_utf8(body.text()?).ok()?.to_string();
        words.push(KeptWord {
            word,
            bytes,
            last,
            entry,
        });
    }
    body.0.is_empty().then_some(Kept { checks, words })
}

fn push_len(out: &mut Vec<u8>, len: usize) {
    let len = u32::try_from(len)
        .expect("fewer than 2^32 words, documents and bytes of a word's postings");
    out.extend_from_slice(&len.to_le_bytes());
}

fn push_text(out: &mut Vec<u8>, text: &[u8]) {
    push_len(out, text.len());
    out.extend_from_slice(text);
}

/// The unread rest of the file's body.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if n > self.0.len() {
            return None;
        }
        let (taken, rest) = self.0.split_at(n);
        self.0 = rest;
        Some(taken)
    }

    fn len(&mut self) -> Option<usize> {
        let bytes = self.take(4)?;
        usize::try_from(u32::from_le_bytes(bytes.try_into().ok()?)).ok()
    }

    fn text(&mut self) -> Option<&'a [u8]> {
        let len = self.len()?;
        self.take(len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_reads_back_as_written_and_nothing_else_reads() {
        let identity = [7u8; 16];
        let checks = [[1u8; 16], [2u8; 16]];
        let words: Vec<FiledWord> = vec![
            ("aa", &[4, 9][..], 3, "[\"aa\",\"C\"]"),
            ("chü", &[1][..], 0, "[\"chü\",\"A\"]"),
        ];
        let file = encode(&identity, &checks, words.clone().into_iter());
        let kept = decode(&file, &identity).expect("reads back");
        assert!(decode(&file, &[8u8; 16]).is_none(), "another identity's");
        assert_eq!(kept.checks, checks);
        let read: Vec<FiledWord> = kept
            .words
            .iter()
            .map(|w| (w.word.as_str(), &w.bytes[..], w.last, w.entry.as_str()))
            .collect();
        assert_eq!(read, words);
        // Cut short, changed, or of another format: not read.
        assert!(decode(&file[..file.len() - 1], &identity).is_none());
        let mut changed = file.clone();
        changed[FORMAT.len() + 60] ^= 1;
        assert!(decode(&changed, &identity).is_none());
        assert!(decode(b"ludotheca-words 0\n", &identity).is_none());
        assert!(decode(&[], &identity).is_none());
    }
}
