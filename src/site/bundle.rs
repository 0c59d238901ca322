//! An item's catalog folder as one download: `<id>.zip` holding `<id>/record.xml`, `<id>/rules.txt`,
//! `<id>/games/*.game` and `<id>/images/*`, exactly as the catalog has them, so a visitor gets a game's rules,
//! every recorded game and every picture in one file, and a site has a handful of files per item however many
//! records an item holds.
//!
//! The archive is reproducible: the same files give the same bytes (every entry dated 1980-01-01, the earliest
//! date a zip can hold, with the same permissions), because a build of an unchanged catalog must give an
//! identical site.

use std::io::{Cursor, Write};

use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, DateTime, ZipWriter};

use crate::archive::Entry;
use crate::catalog::{Catalog, Item};
use crate::check::CheckedImage;
use crate::fingerprint::{self, Hash};

/// What an item's archive is made from: the program and the item's files (names and texts, and the pictures'
/// hashes, which `files_hash` covers).
pub fn inputs(entry: &Entry, program: &Hash) -> Hash {
    fingerprint::bytes(program, [&entry.files_hash[..]])
}

/// The zip of an item's record, rules, game records and pictures, from what the catalog reader loaded (the
/// pictures' bytes as the check examined them: nothing is read again from the catalog).
pub fn item_zip(
    catalog: &Catalog,
    item: &Item,
    images: &[CheckedImage],
) -> Result<Vec<u8>, String> {
    let mut files: Vec<(String, &[u8])> = vec![(
        "record.xml".to_string(),
        catalog.files.get(item.file).text.as_bytes(),
    )];
    if let Some(rules) = item.rules_file {
        files.push((
            "rules.txt".to_string(),
            catalog.files.get(rules).text.as_bytes(),
        ));
    }
    for &record in &item.game_records {
        let source = catalog.files.get(record);
        let name = source
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        files.push((format!("games/{name}"), source.text.as_bytes()));
    }
    // The fastest level: a catalog's files are small and compressed one by one, so higher levels saved 4% of
    // the bytes for twice the time, and a large archive's build makes thousands of these.
    let text = SimpleFileOptions::default()
        .compression_method(CompressionMethod::Deflated)
        .compression_level(Some(1))
        .last_modified_time(DateTime::DEFAULT)
        .unix_permissions(0o644);
    // PNG, JPEG and WebP are compressed already: deflating them again costs time and saves nothing.
    let picture = text
        .compression_method(CompressionMethod::Stored)
        .compression_level(None);
    let mut zip = ZipWriter::new(Cursor::new(Vec::new()));
    // A record may show one picture twice (two captions); a zip holds each name once.
    let mut seen = std::collections::HashSet::new();
    let all = files
        .into_iter()
        .map(|(name, bytes)| (name, bytes, text))
        .chain(
            images
                .iter()
                .filter(|i| seen.insert(&i.name))
                .map(|image| (format!("images/{}", image.name), &image.bytes[..], picture)),
        );
    for (name, bytes, options) in all {
        zip.start_file(format!("{}/{name}", item.id), options)
            .and_then(|()| zip.write_all(bytes).map_err(Into::into))
            .map_err(|e| format!("cannot bundle {} of `{}`: {e}", name, item.id))?;
    }
    let cursor = zip
        .finish()
        .map_err(|e| format!("cannot bundle `{}`: {e}", item.id))?;
    Ok(cursor.into_inner())
}
