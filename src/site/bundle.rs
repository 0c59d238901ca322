//! An item's catalog folder as one download: `<id>.zip` holding `<id>/record.xml`, `<id>/rules.txt` and
//! `<id>/games/*.game`, exactly as the catalog has them, so a visitor gets a game's rules and every recorded
//! game in one file, and a site has a handful of files per item however many records an item holds.
//!
//! The archive is reproducible: the same files give the same bytes (every entry dated 1980-01-01, the earliest
//! date a zip can hold, with the same permissions), because a build of an unchanged catalog must give an
//! identical site.

use std::io::{Cursor, Write};

use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, DateTime, ZipWriter};

use crate::archive::Entry;
use crate::catalog::{Catalog, Item};
use crate::fingerprint::{self, Hash};

/// What an item's archive is made from: the program and the item's files (names and texts).
pub fn inputs(entry: &Entry, program: &Hash) -> Hash {
    fingerprint::bytes(program, [&entry.files_hash[..]])
}

/// The zip of an item's record, rules and game records, from the text the catalog reader loaded.
pub fn item_zip(catalog: &Catalog, item: &Item) -> Result<Vec<u8>, String> {
    let mut files: Vec<(String, &str)> = vec![(
        "record.xml".to_string(),
        catalog.files.get(item.file).text.as_ref(),
    )];
    if let Some(rules) = item.rules_file {
        files.push(("rules.txt".to_string(), &catalog.files.get(rules).text));
    }
    for &record in &item.game_records {
        let source = catalog.files.get(record);
        let name = source
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        files.push((format!("games/{name}"), &source.text));
    }
    let options = SimpleFileOptions::default()
        .compression_method(CompressionMethod::Deflated)
        .last_modified_time(DateTime::DEFAULT)
        .unix_permissions(0o644);
    let mut zip = ZipWriter::new(Cursor::new(Vec::new()));
    for (name, text) in files {
        zip.start_file(format!("{}/{name}", item.id), options)
            .and_then(|()| zip.write_all(text.as_bytes()).map_err(Into::into))
            .map_err(|e| format!("cannot bundle {} of `{}`: {e}", name, item.id))?;
    }
    let cursor = zip
        .finish()
        .map_err(|e| format!("cannot bundle `{}`: {e}", item.id))?;
    Ok(cursor.into_inner())
}
