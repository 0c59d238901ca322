//! An item's catalog folder as one download: `<id>.zip` holding `<id>/record.xml`, `<id>/rules.txt`,
//! `<id>/games/*.game` and `<id>/images/*`, exactly as the catalog has them, so a visitor gets a game's rules,
//! every recorded game and every picture in one file, and a site has a handful of files per item however many
//! records an item holds.
//!
//! The archive is reproducible: the same files give the same bytes (every entry dated 1980-01-01, the earliest
//! date a zip can hold, with the same permissions), because a build of an unchanged catalog must give an
//! identical site.

use std::cell::RefCell;
use std::io::Write;

use flate2::{Compress, Compression, FlushCompress, Status};
use rawzip::time::UtcDateTime;
use rawzip::{CompressionMethod, ZipArchiveWriter};

use crate::archive::Entry;
use crate::catalog::{Catalog, Item};
use crate::check::CheckedImage;
use crate::fingerprint::{self, Hash};

thread_local! {
    /// One compressor a thread, reset between files. Setting a compressor up clears some 300 KB of tables,
    /// which costs more than deflating a record of a kilobyte or two, and a large archive's build bundles tens of
    /// thousands of them; a reset clears only the hash table.
    ///
    /// The fastest level: a catalog's files are small and compressed one by one, so higher levels saved 4% of
    /// the bytes for twice the time.
    static DEFLATER: RefCell<Compress> = RefCell::new(Compress::new(Compression::fast(), false));
}

/// `bytes` as a raw deflate stream (the form a zip entry holds) in `out`.
fn deflate(bytes: &[u8], out: &mut Vec<u8>) -> Result<(), String> {
    DEFLATER.with_borrow_mut(|deflater| {
        deflater.reset();
        out.clear();
        out.reserve(bytes.len() / 2 + 64);
        loop {
            let read = usize::try_from(deflater.total_in()).unwrap_or(bytes.len());
            let status = deflater
                .compress_vec(&bytes[read.min(bytes.len())..], out, FlushCompress::Finish)
                .map_err(|e| e.to_string())?;
            if status == Status::StreamEnd {
                return Ok(());
            }
            // The output is full: give it room and go on.
            out.reserve(out.capacity().max(64));
        }
    })
}

/// Files shorter than this are stored as they are. Deflating one costs a fixed set-up (the compressor clears a
/// 128 KiB table for each file), more than the work on its bytes, and saves a fifth of a few hundred bytes:
/// three in seven of the records, rules files and game records of the shipped catalog (and of the synthetic
/// ones) are that short, and storing them made the archives 4% larger (docs/performance.md, "Less copying
/// while loading").
const DEFLATE_FROM: usize = 1024;

/// How a text file goes into the archive.
fn text_method(bytes: &[u8]) -> CompressionMethod {
    if bytes.len() < DEFLATE_FROM {
        CompressionMethod::Store
    } else {
        CompressionMethod::Deflate
    }
}

/// What an item's archive is made from: the program and the item's files (names and texts, and the pictures'
/// hashes, which `files_hash` covers).
pub fn inputs(entry: &Entry, program: &Hash) -> Hash {
    fingerprint::key(program, [&entry.files_hash[..]])
}

/// The zip of an item's record, rules, game records and pictures, from what the catalog reader loaded (the
/// pictures' bytes as the check examined them: nothing is read again from the catalog).
pub fn item_zip(
    catalog: &Catalog,
    item: &Item,
    images: &[CheckedImage],
) -> Result<Vec<u8>, String> {
    let mut texts = vec![(
        "record.xml".to_string(),
        catalog.files.get(item.file).text(),
    )];
    if let Some(rules) = item.rules_file {
        texts.push(("rules.txt".to_string(), catalog.files.get(rules).text()));
    }
    for &record in &item.game_records {
        let source = catalog.files.get(record);
        let name = source
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        texts.push((format!("games/{name}"), source.text()));
    }
    let files = texts
        .iter()
        .map(|(name, text)| (name.clone(), text.as_bytes()));
    // 1980-01-01, the earliest date a zip can hold, so that the same files give the same bytes.
    let epoch = UtcDateTime::from_unix(315_532_800);
    let mut zip = ZipArchiveWriter::new(Vec::new());
    let mut deflated = Vec::new();
    // A record may show one picture twice (two captions); a zip holds each name once.
    let mut seen = std::collections::HashSet::new();
    // PNG, JPEG and WebP are compressed already: deflating them again costs time and saves nothing.
    let all = files
        .map(|(name, bytes)| (name, bytes, text_method(bytes)))
        .chain(images.iter().filter(|i| seen.insert(&i.name)).map(|image| {
            (
                format!("images/{}", image.name),
                &image.bytes[..],
                CompressionMethod::Store,
            )
        }));
    for (name, bytes, method) in all {
        let fail =
            |e: &dyn std::fmt::Display| format!("cannot bundle {name} of `{}`: {e}", item.id);
        let path = format!("{}/{name}", item.id);
        let (mut entry, config) = zip
            .new_file(&path)
            .compression_method(method)
            .last_modified(epoch)
            .unix_permissions(0o100_644)
            .start()
            .map_err(|e| fail(&e))?;
        // The checksum and length are of the file as it is; what goes into the archive may be deflated.
        let mut data = config.wrap(std::io::sink());
        data.write_all(bytes).map_err(|e| fail(&e))?;
        let (_, descriptor) = data.finish().map_err(|e| fail(&e))?;
        let stored = if method == CompressionMethod::Deflate {
            deflate(bytes, &mut deflated).map_err(|e| fail(&e))?;
            &deflated[..]
        } else {
            bytes
        };
        entry.write_all(stored).map_err(|e| fail(&e))?;
        entry.finish(descriptor).map_err(|e| fail(&e))?;
    }
    zip.finish()
        .map_err(|e| format!("cannot bundle `{}`: {e}", item.id))
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::{Decompress, FlushDecompress};

    fn inflate(deflated: &[u8], length: usize) -> Vec<u8> {
        let mut out = Vec::with_capacity(length);
        let status = Decompress::new(false)
            .decompress_vec(deflated, &mut out, FlushDecompress::Finish)
            .expect("a whole deflate stream");
        assert_eq!(status, Status::StreamEnd);
        out
    }

    #[test]
    fn each_file_is_a_whole_stream_of_its_own_though_the_compressor_is_shared() {
        // Text that does not compress much, long enough to fill the first guess at the output's size several
        // times over, between two short files: each must come back alone, with nothing of the one before.
        let mut noisy = String::new();
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        while noisy.len() < 300_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            noisy.push_str(&format!("{x:x} "));
        }
        let files: [&[u8]; 4] = [
            b"[Event \"first\"]\n1. a1-b2 b3-c4\n",
            noisy.as_bytes(),
            b"",
            b"[Event \"first\"]\n1. a1-b2 b3-c4\n",
        ];
        let mut outputs = Vec::new();
        for file in files {
            let mut out = Vec::new();
            deflate(file, &mut out).unwrap();
            assert_eq!(inflate(&out, file.len()), file);
            outputs.push(out);
        }
        assert_eq!(outputs[0], outputs[3], "the same file gives the same bytes");
    }
}
