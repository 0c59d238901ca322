//! The preview server's builds keep what the previous build of the catalog read, checked and made
//! (`ludotheca::site::Kept`), told of each changed path as the file watcher tells it. Whatever it keeps, it must
//! keep rightly: after every kind of edit, the site it builds is byte for byte the site a build without memory
//! gives into an empty folder, and its diagnostics are the same.
//!
//! One test in this file, alone in its process: it sets the page size for the whole process so that lists run
//! to several pages (the paths a list page is keyed by).

use std::fs;
use std::path::{Path, PathBuf};

use ludotheca::site::{self, BuildError, BuildOptions, Kept, Scope};

mod common;
use common::{Scratch, copy_tree, snapshot};

const CATALOG: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/catalog");

fn options(catalog: &Path, out: &Path) -> BuildOptions {
    common::build_options(catalog, out)
}

/// What a build said: its diagnostics as text, or the error's.
fn said(outcome: &Result<site::Built, BuildError>) -> String {
    match outcome {
        Ok(built) => format!("{:?}", built.diagnostics),
        Err(BuildError::CatalogErrors(d)) => format!("errors {d:?}"),
        Err(other) => format!("error {other}"),
    }
}

fn assert_same_site(kept: &Path, fresh: &Path, after: &str) {
    let (a, b) = (snapshot(kept), snapshot(fresh));
    let names = |s: &std::collections::BTreeMap<String, Vec<u8>>| {
        s.keys()
            .filter(|k| !k.starts_with(".ludotheca"))
            .cloned()
            .collect::<Vec<_>>()
    };
    assert_eq!(names(&a), names(&b), "after {after}: the same files");
    for (path, bytes) in &b {
        if path.starts_with(".ludotheca") {
            continue;
        }
        assert!(
            a[path] == *bytes,
            "after {after}: {path} differs from a build without memory"
        );
    }
}

/// Every item's folder (its page and downloads) is as a fresh build makes it; the other files may lag.
fn assert_same_item_pages(kept: &Path, fresh: &Path, after: &str) {
    let (a, b) = (snapshot(kept), snapshot(fresh));
    let mut compared = 0;
    for (path, bytes) in &b {
        if ["games/", "boards/", "evidence/"]
            .iter()
            .any(|kind| path.starts_with(kind))
        {
            assert!(
                a.get(path) == Some(bytes),
                "after {after}: {path} differs from a build without memory after the items' pages"
            );
            compared += 1;
        }
    }
    assert!(compared > 10, "after {after}: only {compared} item files");
    // The rest of the previous site is still there, whole.
    for path in [
        "index.html",
        "browse/index.html",
        "catalog.json",
        "sitemap.xml",
    ] {
        assert!(a.contains_key(path), "after {after}: {path} is gone");
    }
}

/// Where a kept build finds the items' parts of the site-wide files (catalog.json, catalog.csv, oai-pmh.xml,
/// the search index) that no edit changed.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Parts {
    /// In the memory kept from the build before.
    Held,
    /// In the previous site's files, as a new process reads them: a catalog whose memory is short.
    Read,
}

#[test]
fn builds_that_keep_what_they_made_give_the_site_a_fresh_build_gives() {
    // SAFETY: the only test of this process, and no other thread runs yet.
    unsafe { std::env::set_var("LUDOTHECA_PAGE_SIZE", "3") };
    edits_give_the_site_a_fresh_build_gives("kept", Parts::Held);
    // Every catalog is past the mark at 0: its texts are held packed, and the parts are not held.
    // SAFETY: no build runs while it is set, and the pool's threads, idle, read no environment.
    unsafe { std::env::set_var("LUDOTHECA_PACK_ABOVE", "0") };
    edits_give_the_site_a_fresh_build_gives("kept-short", Parts::Read);
}

fn edits_give_the_site_a_fresh_build_gives(name: &str, parts: Parts) {
    let scratch = Scratch::new(name);
    let catalog = scratch.0.join("catalog");
    copy_tree(Path::new(CATALOG), &catalog);
    let out = scratch.0.join("site");
    let mut kept = Kept::default();
    let first = site::build_with(&options(&catalog, &out), Some(&mut kept));
    assert!(first.is_ok(), "{}", said(&first));

    let at = |file: &str| catalog.join(file);
    let edit = |file: &str, from: &str, to: &str| -> Vec<PathBuf> {
        let path = at(file);
        let text = fs::read_to_string(&path).unwrap();
        assert!(text.contains(from), "{file} holds {from}");
        fs::write(&path, text.replacen(from, to, 1)).unwrap();
        vec![path]
    };
    type Step<'a> = (&'a str, Box<dyn Fn() -> Vec<PathBuf> + 'a>);
    let steps: Vec<Step> = vec![
        (
            "a title other pages show",
            Box::new(|| {
                edit(
                    "games/sumi-naga-hunt/record.xml",
                    "<dcterms:title>Sümi Naga Game (Hunt)</dcterms:title>",
                    "<dcterms:title>Sümi Naga Hunt</dcterms:title>",
                )
            }),
        ),
        (
            "a tag renamed",
            Box::new(|| {
                edit(
                    "games/sumi-naga-hunt/record.xml",
                    "<dcterms:subject>Hunt game</dcterms:subject>",
                    "<dcterms:subject>Hunting game</dcterms:subject>",
                )
            }),
        ),
        (
            "a rules file",
            Box::new(|| edit("games/terhuchu/rules.txt", "game \"", "# edited\ngame \"")),
        ),
        (
            "a broken record",
            Box::new(|| {
                edit(
                    "games/bagh-chal/record.xml",
                    "</dcterms:title>",
                    "</dcterms:titel>",
                )
            }),
        ),
        (
            "the record fixed",
            Box::new(|| {
                edit(
                    "games/bagh-chal/record.xml",
                    "</dcterms:titel>",
                    "</dcterms:title>",
                )
            }),
        ),
        (
            "a placeholder left in a record and a rules file",
            Box::new(|| {
                let mut changed = edit(
                    "games/bagh-chal/record.xml",
                    "<dcterms:subject>",
                    "<dcterms:subject>TODO ",
                );
                changed.extend(edit(
                    "games/terhuchu/rules.txt",
                    "# edited\n",
                    "# edited\nsource TODO\n",
                ));
                changed
            }),
        ),
        (
            "the placeholders filled",
            Box::new(|| {
                let mut changed = edit(
                    "games/bagh-chal/record.xml",
                    "<dcterms:subject>TODO ",
                    "<dcterms:subject>",
                );
                changed.extend(edit("games/terhuchu/rules.txt", "source TODO\n", ""));
                changed
            }),
        ),
        (
            "a game record removed",
            Box::new(|| {
                let games = at("games/bagh-chal/games");
                let first = fs::read_dir(&games)
                    .unwrap()
                    .map(|e| e.unwrap().path())
                    .filter(|p| p.extension().is_some_and(|e| e == "game"))
                    .min()
                    .unwrap();
                fs::remove_file(&first).unwrap();
                vec![first]
            }),
        ),
        (
            "an item copied in",
            Box::new(|| {
                let to = at("games/bagh-chal-copy");
                copy_tree(&at("games/bagh-chal"), &to);
                let record = to.join("record.xml");
                let text = fs::read_to_string(&record).unwrap();
                fs::write(
                    &record,
                    text.replacen("</dcterms:title>", " (copy)</dcterms:title>", 1),
                )
                .unwrap();
                vec![to]
            }),
        ),
        (
            "an item removed",
            Box::new(|| {
                let gone = at("games/shimunana");
                fs::remove_dir_all(&gone).unwrap();
                vec![gone]
            }),
        ),
        (
            "the record that makes a folder an item removed",
            Box::new(|| {
                let record = at("games/dam-pursi/record.xml");
                fs::rename(&record, scratch.0.join("dam-pursi.xml")).unwrap();
                vec![record]
            }),
        ),
        (
            "the record put back",
            Box::new(|| {
                let record = at("games/dam-pursi/record.xml");
                fs::rename(scratch.0.join("dam-pursi.xml"), &record).unwrap();
                vec![record]
            }),
        ),
        (
            "a label of the configuration",
            Box::new(|| {
                edit(
                    "ludotheca.toml",
                    "label = \"Alternative Title\"",
                    "label = \"Other names\"",
                )
            }),
        ),
        (
            "the bibliography",
            Box::new(|| edit("sources.bib", "@", "% edited\n@")),
        ),
        (
            "a template of the catalog's own",
            Box::new(|| {
                let dir = at("templates");
                fs::create_dir_all(&dir).unwrap();
                let file = dir.join("about.html");
                fs::write(
                    &file,
                    fs::read_to_string(concat!(
                        env!("CARGO_MANIFEST_DIR"),
                        "/templates/about.html"
                    ))
                    .unwrap()
                    .replacen("</h1>", " (ours)</h1>", 1),
                )
                .unwrap();
                vec![file]
            }),
        ),
    ];
    let mut read_back = 0;
    for (n, (what, step)) in steps.iter().enumerate() {
        for path in step() {
            kept.changed(&path);
        }
        let fresh = scratch.0.join(format!("fresh-{n}"));
        let without = site::build(&options(&catalog, &fresh));
        // As the preview server does: the items' pages first, then the whole site.
        let items = site::build_scoped(&options(&catalog, &out), Some(&mut kept), Scope::Items);
        assert_eq!(
            said(&items),
            said(&without),
            "after {what}: the same diagnostics from the items' pages"
        );
        if items.is_ok() {
            assert_same_item_pages(&out, &fresh, what);
        }
        let with = site::build_with(&options(&catalog, &out), Some(&mut kept));
        assert_eq!(
            said(&with),
            said(&without),
            "after {what}: the same diagnostics"
        );
        if let Ok(built) = &with {
            assert_same_site(&out, &fresh, what);
            if parts == Parts::Held {
                assert_eq!(
                    built.parts_taken, 0,
                    "after {what}: parts read from the previous site, though held"
                );
            }
            read_back += built.parts_taken;
        }
    }
    if parts == Parts::Read {
        assert!(read_back > 0, "no part read from the previous site");
    }
}
