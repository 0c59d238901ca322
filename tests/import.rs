//! `ludotheca import` and `ludotheca export` as an archivist runs them: the seed record 000 (an Omeka S item of
//! the "Ancient Indian Boardgames" site) arriving whole from Omeka S JSON, Omeka Classic CSV and OAI-PMH; the
//! shipped catalog surviving export and import; bad input refused at its place with nothing written; items
//! never overwritten without `--update`; the report naming what `check` then reports.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use common::{Scratch, ludotheca, snapshot, stderr, stdout};
use ludotheca::catalog::{self, Catalog, Item};
use ludotheca::diagnostic::Diagnostics;

const FIXTURES: &str = "tests/fixtures/import";

fn load(dir: &Path) -> Catalog {
    let mut ignored = Diagnostics::new();
    catalog::load(dir, &mut ignored).expect("the catalog loads")
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The values of seed record 000: (term, text).
fn seed() -> Vec<(String, String)> {
    fs::read_to_string(Path::new(FIXTURES).join("seed-000.tsv"))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let (term, text) = l.split_once('\t').unwrap();
            (
                term.trim_start_matches("dcterms:").to_string(),
                text.to_string(),
            )
        })
        .collect()
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Import `inputs` into `catalog` with `extra` options; the run's output.
fn import(format: &str, inputs: &[&str], catalog: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["import", format];
    let inputs: Vec<String> = inputs.iter().map(|i| format!("{FIXTURES}/{i}")).collect();
    args.extend(inputs.iter().map(String::as_str));
    args.extend(["--catalog", path(catalog)]);
    args.extend(extra);
    ludotheca(&args)
}

/// Import one Omeka S API file, written from `json`, into a new catalog in `scratch`: the run and the catalog.
fn import_omeka_s(scratch: &Scratch, json: &str) -> (std::process::Output, PathBuf) {
    let input = scratch.0.join("items.json");
    fs::write(&input, json).unwrap();
    let target = scratch.0.join("catalog");
    let out = ludotheca(&[
        "import",
        "omeka-s",
        path(&input),
        "--catalog",
        path(&target),
    ]);
    (out, target)
}

/// The seed in each format, with the options that format needs.
fn seed_imports() -> Vec<(&'static str, Vec<&'static str>, Vec<&'static str>)> {
    vec![
        (
            "omeka-s",
            vec![
                "omeka-s/items.json",
                "omeka-s/resource-template.json",
                "omeka-s/item-sets.json",
            ],
            vec!["--labels"],
        ),
        (
            "omeka-csv",
            vec!["omeka-csv/classic.csv"],
            vec!["--separator", "~"],
        ),
        (
            "oai-pmh",
            vec!["oai-pmh/page-1.xml", "oai-pmh/page-2.xml"],
            vec![],
        ),
    ]
}

#[test]
fn every_value_of_the_seed_record_arrives_from_each_format() {
    for (format, inputs, extra) in seed_imports() {
        let scratch = Scratch::new(&format!("seed-{format}"));
        let target = scratch.0.join("catalog");
        let out = import(format, &inputs, &target, &extra);
        assert!(out.status.success(), "{format}: {}", stderr(&out));
        let catalog = load(&target);
        let item = catalog
            .item("terhuchu")
            .unwrap_or_else(|| panic!("{format}: no terhuchu"));
        for (term, text) in seed() {
            // The site used conformsTo for tags; they arrive as subjects (and the report says so).
            let wanted = if term == "conformsTo" {
                "subject"
            } else {
                term.as_str()
            };
            // A link to another imported item arrives as a `ref` to it, showing its title.
            let shown = |v: &ludotheca::catalog::Value| match &v.ref_() {
                Some(r) if v.text.is_empty() => catalog
                    .item(&r.value)
                    .and_then(|i| i.title())
                    .unwrap_or("")
                    .to_string(),
                _ => v.text.to_string(),
            };
            assert!(
                item.values.iter().any(
                    |v| v.term.name == wanted && one_line(&shown(v)).contains(&one_line(&text))
                ),
                "{format}: dcterms:{term} \"{text}\" did not arrive as dcterms:{wanted}"
            );
        }
        assert!(
            item.values_of("accrualMethod")
                .any(|v| &*v.text == "Adrija Mukherjee"),
            "{format}: the cataloguer's credit stays in accrualMethod"
        );
        let report = stdout(&out);
        assert!(
            report.contains(
                "dcterms:conformsTo held tags, not standards: 8 values moved to dcterms:subject"
            ),
            "{format}: {report}"
        );
        assert!(
            report.contains("a source that is not in the bibliography"),
            "{report}"
        );
        assert!(report.contains("rules.txt"), "{report}");
    }
}

#[test]
fn omeka_s_specifics_arrive_links_languages_uris_sets_media_and_labels() {
    let scratch = Scratch::new("omeka-s-shape");
    let target = scratch.0.join("catalog");
    let (_, inputs, extra) = seed_imports().remove(0);
    let out = import("omeka-s", &inputs, &target, &extra);
    assert!(out.status.success(), "{}", stderr(&out));
    let catalog = load(&target);
    let terhuchu = catalog.item("terhuchu").unwrap();
    // The link to item 8, imported too, is a `ref`; the link to item 41, not in the input, its plain name.
    assert!(terhuchu.values_of("isVersionOf").any(|v| {
        v.ref_()
            .as_ref()
            .is_some_and(|r| r.value == "mughal-pathan")
    }));
    assert!(
        terhuchu
            .values_of("isVersionOf")
            .any(|v| &*v.text == "Bagh Chal, Kamakhya" && v.ref_().is_none())
    );
    let warning = stderr(&out);
    assert!(
        warning.contains("warning[W201]") && warning.contains("items.json:257:7"),
        "{warning}"
    );
    let description = terhuchu.values_of("description").next().unwrap();
    assert_eq!(description.lang().as_ref().unwrap().value, "en");
    assert!(terhuchu.values_of("references").any(|v| &*v.text
        == "Terhuchu by The Digital Ludeme Project <https://example.org/ancient-boardgames/dlp/terhuchu>"));
    assert!(
        terhuchu
            .values_of("isPartOf")
            .any(|v| &*v.text == "Games of Nagaland")
    );
    assert!(
        terhuchu
            .values_of("hasFormat")
            .any(|v| v.text.ends_with("/api/media/31"))
    );
    assert!(
        terhuchu
            .values_of("dateSubmitted")
            .any(|v| v.text.starts_with("2021-03-05"))
    );
    let mughal = catalog.item("mughal-pathan").unwrap();
    assert!(
        mughal
            .values_of("alternative")
            .any(|v| v.lang().as_ref().is_some_and(|l| l.value == "hi"))
    );
    assert!(
        mughal
            .values_of("type")
            .any(|v| &*v.text == "InteractiveResource")
    );
    // The template's "Tags" went with the tags, to dcterms:subject; its other labels are the defaults already.
    let config = fs::read_to_string(target.join("ludotheca.toml")).unwrap();
    assert!(
        config.contains("term = \"dcterms:subject\"\nlabel = \"Tags\""),
        "{config}"
    );
    assert_eq!(
        catalog
            .config
            .label(ludotheca::catalog::terms::lookup_prefixed("dcterms:subject").unwrap()),
        "Tags"
    );
}

#[test]
fn oai_pmh_skips_deleted_records_and_reads_every_page() {
    let scratch = Scratch::new("oai-pages");
    let target = scratch.0.join("catalog");
    let out = import(
        "oai-pmh",
        &["oai-pmh/page-1.xml", "oai-pmh/page-2.xml"],
        &target,
        &[],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("record `oai:example.org:12` is marked deleted"));
    let catalog = load(&target);
    assert_eq!(catalog.items.len(), 2);
    let mughal = catalog.item("mughal-pathan").unwrap();
    assert!(
        mughal
            .values_of("title")
            .any(|v| v.lang().as_ref().is_some_and(|l| l.value == "hi"))
    );
    // Only the first page: the token says more follow.
    let out = import(
        "oai-pmh",
        &["oai-pmh/page-1.xml"],
        &scratch.0.join("first"),
        &[],
    );
    assert!(out.status.success());
    assert!(stderr(&out).contains("warning[W202]"), "{}", stderr(&out));
}

/// Every error `check` reports in an imported catalog, as (identifier, code).
fn check_errors(catalog: &Path) -> BTreeSet<(String, String)> {
    let out = ludotheca(&["check", "--catalog", path(catalog), "--format", "json"]);
    stdout(&out)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|d| d["severity"] == "error")
        .map(|d| {
            let file = PathBuf::from(d["file"].as_str().unwrap());
            let id = file
                .parent()
                .unwrap()
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned();
            (id, d["code"].as_str().unwrap().to_string())
        })
        .collect()
}

/// What the report says an archivist must supply, as (identifier, code).
fn report_needs(report: &str) -> BTreeSet<(String, String)> {
    let mut out = BTreeSet::new();
    let mut item = String::new();
    for line in report.lines() {
        if let Some(rest) = line.split_once('`').map(|(_, r)| r)
            && !line.starts_with(' ')
        {
            item = rest.split('`').next().unwrap().to_string();
        }
        if let Some(code) = line.split("(check: ").nth(1) {
            out.insert((item.clone(), code.trim_end_matches(')').to_string()));
        }
    }
    out
}

#[test]
fn the_report_names_exactly_what_check_then_reports() {
    for (format, inputs, extra) in seed_imports() {
        let scratch = Scratch::new(&format!("needs-{format}"));
        let target = scratch.0.join("catalog");
        let out = import(format, &inputs, &target, &extra);
        assert!(out.status.success(), "{}", stderr(&out));
        let errors = check_errors(&target);
        assert!(!errors.is_empty());
        assert_eq!(
            report_needs(&stdout(&out)),
            errors,
            "{format}: {}",
            stdout(&out)
        );
    }
}

/// A value as text, to compare catalogs: its term (whichever namespace), text and attributes.
fn value_keys(item: &Item) -> Vec<String> {
    let mut keys: Vec<String> = item
        .values
        .iter()
        .map(|v| {
            let attr = |a: Option<&catalog::Spanned<String>>| a.map(|a| a.value.clone());
            format!(
                "{} {:?} lang={:?} type={:?} ref={:?} cite={:?} pages={:?}",
                v.term.name,
                v.text,
                attr(v.lang()),
                attr(v.scheme()).map(|s| s.rsplit(':').next().unwrap().to_string()),
                attr(v.ref_()),
                attr(v.cite()),
                attr(v.pages())
            )
        })
        .collect();
    keys.sort();
    keys
}

/// A board's games and rulesets, an evidence item's games, its confidence.
type Links = (Vec<(String, Option<String>)>, Vec<String>, Vec<String>);

fn links(item: &Item) -> Links {
    (
        item.played_with
            .iter()
            .map(|l| {
                (
                    l.game.as_ref().unwrap().value.clone(),
                    l.ruleset.as_ref().map(|r| r.value.clone()),
                )
            })
            .collect(),
        item.attests
            .iter()
            .map(|l| l.game.as_ref().unwrap().value.clone())
            .collect(),
        item.confidence.iter().map(|c| c.value.clone()).collect(),
    )
}

/// Export the shipped catalog in `format`, import it into an empty catalog holding only the bibliography.
fn round_trip(format: &str, scratch: &Scratch) -> (Catalog, Catalog, String) {
    let file = scratch.0.join(format!("export.{format}"));
    let out = ludotheca(&["export", format, "--out", path(&file)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let target = scratch.0.join("catalog");
    fs::create_dir_all(&target).unwrap();
    fs::copy("catalog/sources.bib", target.join("sources.bib")).unwrap();
    let out = ludotheca(&["import", format, path(&file), "--catalog", path(&target)]);
    assert!(out.status.success(), "{}", stderr(&out));
    (load(Path::new("catalog")), load(&target), stdout(&out))
}

#[test]
fn omeka_s_and_omeka_csv_round_trips_keep_every_value() {
    for format in ["omeka-s", "omeka-csv"] {
        let scratch = Scratch::new(&format!("round-{format}"));
        let (shipped, imported, _) = round_trip(format, &scratch);
        assert_eq!(shipped.items.len(), imported.items.len(), "{format}");
        for item in &shipped.items {
            let back = imported
                .item(&item.id)
                .unwrap_or_else(|| panic!("{format}: `{}` did not come back", item.id));
            assert_eq!(back.kind, item.kind, "{format}: {}", item.id);
            assert_eq!(value_keys(back), value_keys(item), "{format}: {}", item.id);
            assert_eq!(links(back), links(item), "{format}: {}", item.id);
        }
        // Only the rules, which are no Dublin Core values, are left for an archivist to bring over.
        let codes: BTreeSet<String> = check_errors(&scratch.0.join("catalog"))
            .into_iter()
            .map(|(_, c)| c)
            .collect();
        assert_eq!(codes, BTreeSet::from(["E013".to_string()]), "{format}");
    }
}

/// Text as oai_dc carries it: one line, without Markdown emphasis or quotation marks (`> `).
fn plain(text: &str) -> String {
    let unquoted: Vec<&str> = text
        .lines()
        .map(|l| l.trim_start().trim_start_matches('>'))
        .collect();
    one_line(&unquoted.join("\n").replace(['*', '_'], ""))
}

#[test]
fn an_oai_pmh_round_trip_keeps_every_text_under_its_oai_dc_element() {
    let scratch = Scratch::new("round-oai");
    let (shipped, imported, _) = round_trip("oai-pmh", &scratch);
    for item in &shipped.items {
        let back = imported.item(&item.id).unwrap();
        let texts: Vec<String> = back.values.iter().map(|v| plain(&v.text)).collect();
        for v in item.values.iter().filter(|v| !v.text.is_empty()) {
            assert!(
                texts.iter().any(|t| t.contains(&plain(&v.text))),
                "{}: dcterms:{} \"{}\" did not arrive",
                item.id,
                v.term.name,
                v.text
            );
        }
    }
}

#[test]
fn bad_input_is_refused_at_its_place_and_nothing_is_written() {
    let scratch = Scratch::new("bad");
    let target = scratch.0.join("catalog");
    let out = import("omeka-s", &["omeka-s/items.json"], &target, &[]);
    assert!(out.status.success());
    let before = snapshot(&target);
    let cases = [
        (
            "omeka-s",
            "bad/truncated.json",
            "E201",
            "bad/truncated.json:63:157",
        ),
        (
            "omeka-s",
            "bad/unknown-term.json",
            "E204",
            "bad/unknown-term.json:9:5",
        ),
        (
            "omeka-s",
            "bad/duplicate.json",
            "E205",
            "bad/duplicate.json:7:3",
        ),
        (
            "omeka-s",
            "bad/dangling-link.json",
            "E206",
            "bad/dangling-link.json:7:7",
        ),
        (
            "omeka-csv",
            "bad/too-many-fields.csv",
            "E202",
            "bad/too-many-fields.csv:3:27",
        ),
        (
            "oai-pmh",
            "bad/oai-error.xml",
            "E203",
            "bad/oai-error.xml:5:3",
        ),
    ];
    for (format, file, code, place) in cases {
        let out = import(format, &[file], &target, &[]);
        assert_eq!(out.status.code(), Some(1), "{file}");
        let err = stderr(&out);
        assert!(err.contains(&format!("error[{code}]")), "{file}: {err}");
        assert!(err.contains(place), "{file}: {err}");
        assert!(err.contains("nothing was written"), "{file}: {err}");
        assert_eq!(snapshot(&target), before, "{file} changed the catalog");
    }
    // Into a catalog that does not exist yet: not even the folder is made.
    let fresh = scratch.0.join("fresh");
    let out = import("omeka-s", &["bad/unknown-term.json"], &fresh, &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(!fresh.exists());
    // A missing input is a usage error.
    let out = import("omeka-s", &["no-such-file.json"], &fresh, &[]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn items_are_never_overwritten_without_update_and_dry_run_writes_nothing() {
    let scratch = Scratch::new("update");
    let target = scratch.0.join("catalog");
    let out = import(
        "omeka-s",
        &["omeka-s/items.json"],
        &scratch.0.join("dry"),
        &["--dry-run"],
    );
    assert!(out.status.success());
    assert!(
        stdout(&out).starts_with("would import 2 items"),
        "{}",
        stdout(&out)
    );
    assert!(!scratch.0.join("dry").exists());

    assert!(
        import("omeka-s", &["omeka-s/items.json"], &target, &[])
            .status
            .success()
    );
    fs::write(target.join("games/terhuchu/rules.txt"), "kept\n").unwrap();
    let before = snapshot(&target);
    let again = import("omeka-s", &["omeka-s/items.json"], &target, &[]);
    assert_eq!(again.status.code(), Some(1));
    assert!(
        stderr(&again).contains("error[E207]: item `terhuchu` exists"),
        "{}",
        stderr(&again)
    );
    assert_eq!(snapshot(&target), before);

    let same = import("omeka-s", &["omeka-s/items.json"], &target, &["--update"]);
    assert!(same.status.success(), "{}", stderr(&same));
    assert!(stdout(&same).contains("2 unchanged"), "{}", stdout(&same));
    assert_eq!(snapshot(&target), before);

    // A changed value: the record is replaced, the rules beside it are kept, and the report shows the change.
    let changed = scratch.0.join("changed.json");
    let text = fs::read_to_string(Path::new(FIXTURES).join("omeka-s/items.json"))
        .unwrap()
        .replace("\"Creative Common\"", "\"CC BY 4.0\"");
    fs::write(&changed, text).unwrap();
    let out = ludotheca(&[
        "import",
        "omeka-s",
        path(&changed),
        "--catalog",
        path(&target),
        "--update",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let report = stdout(&out);
    assert!(
        report.contains("update (+1 -1 values) game `terhuchu`"),
        "{report}"
    );
    assert!(
        report.contains("+ dcterms:rights \"CC BY 4.0\""),
        "{report}"
    );
    assert!(
        report.contains("- dcterms:rights \"Creative Common\""),
        "{report}"
    );
    assert_eq!(
        fs::read_to_string(target.join("games/terhuchu/rules.txt")).unwrap(),
        "kept\n"
    );
    assert!(
        load(&target)
            .item("terhuchu")
            .unwrap()
            .values_of("rights")
            .any(|v| &*v.text == "CC BY 4.0")
    );
    // No temporary folder or file is left beside the items.
    let leftovers: Vec<String> = snapshot(&target)
        .into_keys()
        .filter(|k| k.contains("ludotheca-import"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn every_export_format_is_written() {
    let scratch = Scratch::new("exports");
    let mut sizes = BTreeMap::new();
    for format in [
        "omeka-s",
        "omeka-csv",
        "oai-pmh",
        "json",
        "csv",
        "bibtex",
        "ris",
        "csl-json",
    ] {
        let file = scratch.0.join(format);
        let out = ludotheca(&[
            "export",
            format,
            "--out",
            path(&file),
            "--base-url",
            "https://example.org/games/",
        ]);
        assert!(out.status.success(), "{format}: {}", stderr(&out));
        sizes.insert(format, fs::read_to_string(&file).unwrap());
    }
    // The items' citations, under --items.
    let mut items = BTreeMap::new();
    for format in ["bibtex", "ris", "csl-json"] {
        let out = ludotheca(&[
            "export",
            format,
            "--items",
            "--base-url",
            "https://example.org/games/",
        ]);
        assert!(out.status.success(), "{format}: {}", stderr(&out));
        items.insert(format, stdout(&out));
    }
    assert_eq!(items["bibtex"].matches("@misc{ludotheca-").count(), 10);
    assert_eq!(items["ris"].matches("TY  - ELEC").count(), 10);
    let csl: serde_json::Value = serde_json::from_str(&items["csl-json"]).unwrap();
    assert_eq!(csl.as_array().unwrap().len(), 10);
    assert!(
        items["bibtex"]
            .contains("url          = {https://example.org/games/games/terhuchu/index.html}")
    );
    // Without it, the bibliography.
    assert_eq!(sizes["bibtex"].matches("\n@").count() + 1, 14);
    assert_eq!(sizes["ris"].matches("ER  - ").count(), 14);
    let out = ludotheca(&["export", "json", "--items"]);
    assert_eq!(out.status.code(), Some(2));
    let omeka: serde_json::Value = serde_json::from_str(&sizes["omeka-s"]).unwrap();
    assert_eq!(omeka.as_array().unwrap().len(), 10);
    // The site's own data files, byte for byte.
    let site = scratch.0.join("site");
    let out = ludotheca(&[
        "build",
        "--out",
        path(&site),
        "--quiet",
        "--base-url",
        "https://example.org/games/",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        fs::read_to_string(site.join("catalog.json")).unwrap(),
        sizes["json"]
    );
    assert_eq!(
        fs::read_to_string(site.join("catalog.csv")).unwrap(),
        sizes["csv"]
    );
    assert_eq!(
        fs::read_to_string(site.join("oai-pmh.xml")).unwrap(),
        sizes["oai-pmh"]
    );
}

/// The shipped `sources.bib`, every entry with its fields.
fn shipped_bibliography() -> Vec<ludotheca::catalog::BibEntry> {
    let (entries, errors) =
        catalog::bibtex::parse_str(&fs::read_to_string("catalog/sources.bib").unwrap());
    assert!(errors.is_empty(), "{errors:?}");
    entries
}

fn export_stdout(format: &str) -> String {
    let out = ludotheca(&["export", format]);
    assert!(out.status.success(), "{format}: {}", stderr(&out));
    stdout(&out)
}

#[test]
fn the_bibliography_is_exported_as_bibtex_and_reads_back_the_same() {
    let shipped = shipped_bibliography();
    let text = export_stdout("bibtex");
    assert!(text.contains(
        "@article{junod-1898,\n  author  = {Junod, Henri Alexandre},\n  title   = {Les Ba-Ronga: {\\'e}tude \
         ethnographique sur les indig{\\`e}nes de la baie de Delagoa},\n"
    ));
    assert!(text.contains("  author       = {{Digital Ludeme Project}},\n"));
    assert!(text.contains("  pages   = {109--111},\n"));
    // Read back with the catalog's own reader: the same entries, types, keys, fields and names.
    let (read, errors) = catalog::bibtex::parse_str(&text);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(read.len(), shipped.len());
    for (a, b) in shipped.iter().zip(&read) {
        assert_eq!((&a.kind, &a.key.value), (&b.kind, &b.key.value));
        let fields = |e: &ludotheca::catalog::BibEntry| {
            e.fields
                .iter()
                .map(|f| (f.name.clone(), f.value.clone()))
                .collect::<Vec<_>>()
        };
        assert_eq!(fields(a), fields(b), "{}", a.key.value);
        assert_eq!(a.authors, b.authors);
        assert_eq!(a.editors, b.editors);
    }
    // And a catalog whose sources.bib is the export checks as the shipped one does.
    let scratch = Scratch::new("bib-round-trip");
    let copy = scratch.0.join("catalog");
    copy_dir(Path::new("catalog"), &copy);
    fs::write(copy.join("sources.bib"), &text).unwrap();
    let out = ludotheca(&["check", "--catalog", path(&copy)]);
    assert!(out.status.success(), "{}", stderr(&out));
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), &target).unwrap();
        }
    }
}

#[test]
fn the_bibliography_is_exported_as_ris() {
    let text = export_stdout("ris");
    let records: Vec<&str> = text
        .split("ER  - \n")
        .filter(|r| !r.trim().is_empty())
        .collect();
    assert_eq!(records.len(), shipped_bibliography().len());
    let record = |key: &str| {
        records
            .iter()
            .find(|r| r.contains(&format!("\nID  - {key}\n")))
            .unwrap_or_else(|| panic!("no record {key}"))
            .trim_start()
            .to_string()
    };
    assert_eq!(
        record("junod-1898").trim(),
        "TY  - JOUR\nID  - junod-1898\nAU  - Junod, Henri Alexandre\n\
         TI  - Les Ba-Ronga: étude ethnographique sur les indigènes de la baie de Delagoa\n\
         JO  - Bulletin de la Société Neuchâteloise de Géographie\nPY  - 1898\nVL  - 10\nIS  - 5\n\
         SP  - 109\nEP  - 111"
    );
    let santos = record("santos-silva-1995");
    assert!(santos.starts_with("TY  - BOOK\n"));
    assert!(santos.contains("AU  - Santos Silva, Elísio Romariz\n"));
    assert!(santos.contains("PB  - Instituto de Investigação Científica Tropical\n"));
    assert!(santos.contains("CY  - Lisbon\n"));
    let dlp = record("dlp-terhuchu");
    assert!(dlp.starts_with("TY  - GEN\n"));
    // An organisation is one name, without a comma.
    assert!(dlp.contains("AU  - Digital Ludeme Project\n"));
    assert!(dlp.contains("PY  - 2022\n"));
    // Every line is a tag, two spaces, a hyphen and a space.
    for line in text.lines().filter(|l| !l.is_empty()) {
        assert!(
            line.len() >= 6 && line.as_bytes()[2..6] == *b"  - ",
            "{line:?}"
        );
    }
}

#[test]
fn the_bibliography_is_exported_as_csl_json() {
    let items: Vec<serde_json::Value> = serde_json::from_str(&export_stdout("csl-json")).unwrap();
    let shipped = shipped_bibliography();
    assert_eq!(
        items
            .iter()
            .map(|i| i["id"].as_str().unwrap())
            .collect::<Vec<_>>(),
        shipped
            .iter()
            .map(|e| e.key.value.as_str())
            .collect::<Vec<_>>()
    );
    let item = |key: &str| items.iter().find(|i| i["id"] == key).unwrap().clone();
    let junod = item("junod-1898");
    assert_eq!(junod["type"], "article-journal");
    assert_eq!(
        junod["author"],
        serde_json::json!([{"family": "Junod", "given": "Henri Alexandre"}])
    );
    assert_eq!(
        junod["container-title"],
        "Bulletin de la Société Neuchâteloise de Géographie"
    );
    assert_eq!(junod["volume"], "10");
    assert_eq!(junod["issue"], "5");
    assert_eq!(junod["page"], "109-111");
    assert_eq!(junod["issued"], serde_json::json!({"date-parts": [[1898]]}));
    let book = item("hutton-1921-sema");
    assert_eq!(book["type"], "book");
    assert_eq!(book["publisher"], "Macmillan");
    assert_eq!(book["publisher-place"], "London");
    assert_eq!(book["title"], "The Sema Nagas");
    let dlp = item("dlp-sumi-naga-hunt");
    assert_eq!(dlp["type"], "document");
    assert_eq!(dlp["title"], "Sümi Naga Game (Hunt)");
    assert_eq!(
        dlp["author"],
        serde_json::json!([{"literal": "Digital Ludeme Project"}])
    );
    // Only CSL variables, each of its kind: names as objects, dates as date-parts, the rest strings.
    for i in &items {
        for (key, value) in i.as_object().unwrap() {
            match key.as_str() {
                "author" | "editor" | "translator" => assert!(value.is_array()),
                "issued" | "accessed" => assert!(value.get("date-parts").is_some()),
                _ => assert!(value.is_string(), "{key}: {value}"),
            }
        }
    }
}

#[test]
fn a_catalog_with_errors_is_not_exported() {
    let scratch = Scratch::new("export-errors");
    let target = scratch.0.join("catalog");
    assert!(
        import("omeka-s", &["omeka-s/items.json"], &target, &[])
            .status
            .success()
    );
    let file = scratch.0.join("out.json");
    let out = ludotheca(&[
        "export",
        "omeka-s",
        "--catalog",
        path(&target),
        "--out",
        path(&file),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("error[E013]"));
    assert!(!file.exists());
}

/// The static repository the site ships, checked for what the static repository specification and the OAI-PMH
/// and oai_dc schemas require: the Repository element with Identify, ListMetadataFormats and ListRecords in that
/// order, Identify's elements in schema order, record headers of an identifier and a datestamp only (a static
/// repository has no sets), and oai_dc metadata holding only the fifteen elements. scripts/oai-validate validates
/// the file against the schemas themselves (the published static-repository.xsd is in no package; docs/import.md).
#[test]
fn the_oai_pmh_static_repository_has_the_schemas_structure() {
    use quick_xml::NsReader;
    use quick_xml::events::Event;
    use quick_xml::name::ResolveResult;
    const SR: &[u8] = b"http://www.openarchives.org/OAI/2.0/static-repository";
    const OAI: &[u8] = b"http://www.openarchives.org/OAI/2.0/";
    const OAI_DC: &[u8] = b"http://www.openarchives.org/OAI/2.0/oai_dc/";
    const DC: &[u8] = b"http://purl.org/dc/elements/1.1/";
    const FIFTEEN: [&str; 15] = [
        "title",
        "creator",
        "subject",
        "description",
        "publisher",
        "contributor",
        "date",
        "type",
        "format",
        "identifier",
        "source",
        "language",
        "relation",
        "coverage",
        "rights",
    ];
    let scratch = Scratch::new("oai-structure");
    let file = scratch.0.join("oai.xml");
    let out = ludotheca(&[
        "export",
        "oai-pmh",
        "--out",
        path(&file),
        "--base-url",
        "https://example.org/games/",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = fs::read_to_string(&file).unwrap();
    let mut reader = NsReader::from_str(&text);
    // Each element's children, by the path of local names to it, and the namespace of every element there.
    let mut stack: Vec<String> = Vec::new();
    let mut children: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut namespaces: BTreeMap<String, BTreeSet<Vec<u8>>> = BTreeMap::new();
    loop {
        let (ns, event) = reader.read_resolved_event().unwrap();
        let ns = match ns {
            ResolveResult::Bound(n) => n.as_ref().to_vec(),
            _ => Vec::new(),
        };
        match event {
            Event::Start(ref e) | Event::Empty(ref e) => {
                let local = String::from_utf8_lossy(e.local_name().as_ref()).into_owned();
                let parent = stack.join("/");
                children
                    .entry(parent.clone())
                    .or_default()
                    .push(local.clone());
                namespaces
                    .entry(format!("{parent}/{local}"))
                    .or_default()
                    .insert(ns);
                if matches!(event, Event::Start(_)) {
                    stack.push(local);
                }
            }
            Event::End(_) => {
                stack.pop();
            }
            Event::Eof => break,
            _ => {}
        }
    }
    let list = |path: &str| children.get(path).cloned().unwrap_or_default();
    let ns = |path: &str| namespaces.get(path).cloned().unwrap_or_default();
    assert_eq!(list(""), ["Repository"]);
    assert_eq!(ns("/Repository"), BTreeSet::from([SR.to_vec()]));
    assert_eq!(
        list("Repository"),
        ["Identify", "ListMetadataFormats", "ListRecords"]
    );
    assert_eq!(
        list("Repository/Identify"),
        [
            "repositoryName",
            "baseURL",
            "protocolVersion",
            "adminEmail",
            "earliestDatestamp",
            "deletedRecord",
            "granularity",
            "description"
        ]
    );
    assert_eq!(
        ns("Repository/Identify/baseURL"),
        BTreeSet::from([OAI.to_vec()])
    );
    // The identifiers' scheme, declared as the oai-identifier guidelines describe.
    assert_eq!(
        list("Repository/Identify/description/oai-identifier"),
        [
            "scheme",
            "repositoryIdentifier",
            "delimiter",
            "sampleIdentifier"
        ]
    );
    let records = list("Repository/ListRecords").len();
    assert_eq!(records, 10);
    assert_eq!(list("Repository/ListRecords/record").len(), 2 * records);
    let header: Vec<String> = list("Repository/ListRecords/record/header");
    assert_eq!(header.len(), 2 * records, "{header:?}");
    assert!(
        header.iter().all(|h| h == "identifier" || h == "datestamp"),
        "{header:?}"
    );
    assert_eq!(
        ns("Repository/ListRecords/record/header/identifier"),
        BTreeSet::from([OAI.to_vec()])
    );
    assert_eq!(
        list("Repository/ListRecords/record/metadata"),
        vec!["dc".to_string(); records]
    );
    assert_eq!(
        ns("Repository/ListRecords/record/metadata/dc"),
        BTreeSet::from([OAI_DC.to_vec()])
    );
    for element in list("Repository/ListRecords/record/metadata/dc") {
        assert!(FIFTEEN.contains(&element.as_str()), "dc:{element}");
        assert_eq!(
            ns(&format!(
                "Repository/ListRecords/record/metadata/dc/{element}"
            )),
            BTreeSet::from([DC.to_vec()])
        );
    }
    assert!(!text.contains("setSpec"));
}

#[test]
fn the_omeka_s_csv_layout_keeps_languages_uris_links_and_other_vocabularies() {
    let scratch = Scratch::new("omeka-s-csv");
    let target = scratch.0.join("catalog");
    let out = import("omeka-csv", &["omeka-csv/omeka-s-layout.csv"], &target, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    // The link to item 41 is warned about at its cell, on the line after a quoted line break.
    assert!(
        stderr(&out).contains("omeka-s-layout.csv:3:123"),
        "{}",
        stderr(&out)
    );
    let catalog = load(&target);
    let terhuchu = catalog.item("terhuchu").unwrap();
    assert!(
        terhuchu
            .values_of("alternative")
            .any(|v| v.lang().as_ref().is_some_and(|l| l.value == "njm"))
    );
    assert!(
        terhuchu
            .values_of("description")
            .any(|v| v.text.contains("Nagas,\ndrawn"))
    );
    assert!(terhuchu.values_of("references").any(|v| &*v.text
        == "Terhuchu by The Digital Ludeme Project <https://example.org/ancient-boardgames/dlp/terhuchu>"));
    assert!(terhuchu.values_of("isVersionOf").any(|v| {
        v.ref_()
            .as_ref()
            .is_some_and(|r| r.value == "mughal-pathan")
    }));
    assert!(
        terhuchu
            .values_of("subject")
            .any(|v| &*v.text == "Hunt game")
    );
    assert!(
        terhuchu
            .values_of("description")
            .any(|v| &*v.text == "foaf:based_near: Kohima")
    );
    // The template column names the kind.
    assert_eq!(
        catalog.item("mughal-pathan").unwrap().kind,
        Some(ludotheca::catalog::Kind::Board)
    );
}

#[test]
fn a_language_named_rather_than_tagged_arrives_as_its_tag() {
    let scratch = Scratch::new("language-names");
    let (out, target) = import_omeka_s(
        &scratch,
        r#"[{"o:id": 7, "o:title": "Pallanguzhi",
            "dcterms:title": [{"type": "literal", "@value": "Pallanguzhi", "@language": "English"}],
            "dcterms:language": [{"type": "literal", "@value": "Tamil"},
                                 {"type": "literal", "@value": "Tamil Nadu dialect"}]}]"#,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let report = stdout(&out);
    assert!(
        report.contains("language `English` of a dcterms:title value written as its tag `en`"),
        "{report}"
    );
    assert!(
        report.contains("dcterms:language \"Tamil\" written as its tag `ta`"),
        "{report}"
    );
    let catalog = load(&target);
    let item = &catalog.items[0];
    let title = item.values_of("title").next().unwrap();
    assert_eq!(title.lang().as_ref().unwrap().value, "en");
    let languages: Vec<&str> = item.values_of("language").map(|v| &*v.text).collect();
    assert_eq!(languages, ["ta"]);
    // What names no language the site knows is kept as a description, as before.
    assert!(
        item.values_of("description")
            .any(|v| v.text.contains("Tamil Nadu dialect")),
        "{:?}",
        item.values_of("description")
            .map(|v| &*v.text)
            .collect::<Vec<_>>()
    );
}

#[test]
fn html_from_an_editor_arrives_as_markdown_in_descriptions_and_as_text_elsewhere() {
    let scratch = Scratch::new("html-values");
    let (out, target) = import_omeka_s(
        &scratch,
        r#"[{"o:id": 12, "o:title": "Chaupar",
            "dcterms:title": [{"type": "literal", "@value": "<em>Chaupar</em> &amp; Pachisi"}],
            "dcterms:description": [
              {"type": "rdf:HTML", "@value": "<p>Played by <strong>four</strong> on a cross.</p><ul><li>cowries</li><li>a cloth</li></ul>"},
              {"type": "literal", "@value": "<p>See <a href=\"https://example.org/survey\">the survey</a>.</p>"},
              {"type": "literal", "@value": "Fewer than 3 <4 seeds> stay in plain text"}],
            "dcterms:subject": [{"type": "literal", "@value": "race<br>game"}]}]"#,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let report = stdout(&out);
    assert!(
        report.contains("held HTML: written as Markdown"),
        "{report}"
    );
    assert!(
        report.contains("held HTML: kept as its text, without the tags"),
        "{report}"
    );
    assert!(!report.contains("data type `rdf:HTML`"), "{report}");
    let catalog = load(&target);
    let item = &catalog.items[0];
    assert_eq!(item.id, "chaupar-pachisi");
    let texts =
        |term: &str| -> Vec<String> { item.values_of(term).map(|v| v.text.to_string()).collect() };
    assert_eq!(texts("title"), ["Chaupar & Pachisi"]);
    assert_eq!(
        texts("description"),
        [
            "Played by **four** on a cross.\n\n- cowries\n- a cloth",
            "See [the survey](https://example.org/survey).",
            "Fewer than 3 <4 seeds> stay in plain text",
        ]
    );
    assert_eq!(texts("subject"), ["race game"]);
}

/// An Omeka S item as the API gives it, with the values that change between two harvests.
fn omeka_item(title: &str, description: &str, rights: &str) -> String {
    format!(
        r#"[{{"@id": "https://omeka.example/api/items/31", "o:id": 31, "o:title": "{title}",
            "dcterms:title": [{{"type": "literal", "@value": "{title}"}}],
            "dcterms:description": [{{"type": "literal", "@value": "{description}"}}],
            "dcterms:source": [{{"type": "literal", "@value": "Hutton 1921, The Angami Nagas"}}],
            "dcterms:rights": [{{"type": "literal", "@value": "{rights}"}}]}}]"#
    )
}

#[test]
fn an_update_finds_the_item_by_its_source_address_and_keeps_what_the_archivist_did() {
    let scratch = Scratch::new("update-merge");
    let input = scratch.0.join("items.json");
    let target = scratch.0.join("catalog");
    let run = |extra: &[&str]| {
        let mut args = vec![
            "import",
            "omeka-s",
            path(&input),
            "--catalog",
            path(&target),
        ];
        args.extend(extra);
        ludotheca(&args)
    };
    fs::write(&input, omeka_item("Terhuchu", "A hunt game.", "CC BY")).unwrap();
    let out = run(&[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let record_path = target.join("games/terhuchu/record.xml");
    let record = fs::read_to_string(&record_path).unwrap();
    assert!(
        record.contains(
            "<dcterms:identifier xsi:type=\"dcterms:URI\">https://omeka.example/api/items/31</dcterms:identifier>"
        ),
        "{record}"
    );
    assert!(
        target
            .join("games/terhuchu/.ludotheca-source.xml")
            .is_file()
    );

    // The archivist cites the source from the bibliography instead of the plain text, adds a tag and a comment.
    let edited = record
        .replace(
            "<dcterms:source>Hutton 1921, The Angami Nagas</dcterms:source>",
            "<!-- cited from the bibliography -->\n  <dcterms:source cite=\"hutton-1921\" pages=\"102\"/>",
        )
        .replace(
            "</record>",
            "  <dcterms:subject>hunt game</dcterms:subject>\n  <image file=\"images/board.jpg\" alt=\"The board\"/>\n</record>",
        );
    assert_ne!(edited, record);
    fs::write(&record_path, &edited).unwrap();

    // In Omeka, the title and the description change.
    fs::write(
        &input,
        omeka_item(
            "Terhüchü of the Angami",
            "A hunt game of Nagaland.",
            "CC BY",
        ),
    )
    .unwrap();
    let out = run(&["--update"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let report = stdout(&out);
    assert!(
        report.contains("update (+2 -2 values) game `terhuchu`"),
        "{report}"
    );
    assert!(
        report.contains("found as `terhuchu` by its dcterms:identifier"),
        "{report}"
    );
    assert!(
        report.contains("2 values added in the catalog kept"),
        "{report}"
    );
    assert!(
        report.contains("1 value of the source removed in the catalog left out again"),
        "{report}"
    );
    let games: Vec<_> = fs::read_dir(target.join("games")).unwrap().collect();
    assert_eq!(games.len(), 1, "a second item was made");
    let merged = fs::read_to_string(&record_path).unwrap();
    assert!(
        merged.contains("<!-- cited from the bibliography -->"),
        "{merged}"
    );
    assert!(
        merged.contains("<image file=\"images/board.jpg\" alt=\"The board\"/>"),
        "{merged}"
    );
    // The changed title is where the title was.
    assert!(
        merged
            .lines()
            .nth(2)
            .is_some_and(|l| l.contains("<dcterms:title>Terhüchü of the Angami</dcterms:title>")),
        "{merged}"
    );
    let catalog = load(&target);
    let item = catalog.item("terhuchu").unwrap();
    let texts =
        |term: &str| -> Vec<String> { item.values_of(term).map(|v| v.text.to_string()).collect() };
    assert_eq!(texts("title"), ["Terhüchü of the Angami"]);
    assert_eq!(texts("description"), ["A hunt game of Nagaland."]);
    assert_eq!(texts("subject"), ["hunt game"]);
    assert_eq!(texts("rights"), ["CC BY"]);
    let sources: Vec<_> = item
        .values_of("source")
        .map(|v| (v.text.to_string(), v.cite().map(|c| c.value.clone())))
        .collect();
    assert_eq!(sources, [(String::new(), Some("hutton-1921".to_string()))]);

    // Nothing changed since: the record is left as it is.
    let out = run(&["--update"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("1 unchanged"), "{}", stdout(&out));
    assert_eq!(fs::read_to_string(&record_path).unwrap(), merged);
}

#[test]
fn pictures_go_to_omeka_by_the_site_s_address_and_are_named_when_they_cannot() {
    const PICTURE: &str =
        "https://ludotheca.example.org/boards/kherjarala-rock-board/images/board-shape.png";
    let scratch = Scratch::new("export-pictures");
    // The shipped catalog gives its site's address in ludotheca.toml.
    let items: serde_json::Value = serde_json::from_str(&export_stdout("omeka-s")).unwrap();
    let board = items
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["ludotheca:id"] == "kherjarala-rock-board")
        .unwrap();
    let media = &board["o:media"][0];
    assert_eq!(media["o:ingester"], "url");
    assert_eq!(media["ingest_url"], PICTURE);
    assert!(
        media["o:alt_text"].as_str().unwrap().starts_with(
            "A square grid of 5 by 5 points joined by lines along the rows, the columns"
        ),
        "{media}"
    );
    assert!(
        media["dcterms:title"][0]["@value"]
            .as_str()
            .unwrap()
            .starts_with(
                "The shape of the board as Mogol Putt'han is played on it: a drawing made for"
            ),
        "{media}"
    );
    let csv_file = scratch.0.join("items.csv");
    let out = ludotheca(&["export", "omeka-csv", "--out", path(&csv_file)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let mut rows = csv::Reader::from_path(&csv_file).unwrap();
    let column = rows
        .headers()
        .unwrap()
        .iter()
        .position(|h| h == "media")
        .unwrap();
    let cells: Vec<String> = rows
        .records()
        .map(|r| r.unwrap()[column].to_string())
        .filter(|c| !c.is_empty())
        .collect();
    assert_eq!(cells, [PICTURE]);

    // Without the site's address there is nothing Omeka can fetch from, and the command says so.
    let unaddressed = scratch.0.join("catalog");
    copy_dir(Path::new("catalog"), &unaddressed);
    let config = fs::read_to_string(unaddressed.join("ludotheca.toml")).unwrap();
    let config: String = config
        .lines()
        .filter(|l| !l.starts_with("base_url"))
        .map(|l| format!("{l}\n"))
        .collect();
    fs::write(unaddressed.join("ludotheca.toml"), config).unwrap();
    let file = scratch.0.join("unaddressed.json");
    let out = ludotheca(&[
        "export",
        "omeka-s",
        "--catalog",
        path(&unaddressed),
        "--out",
        path(&file),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let said = format!("{}{}", stdout(&out), stderr(&out));
    assert!(said.contains("1 picture left out"), "{said}");
    assert!(!fs::read_to_string(&file).unwrap().contains("ingest_url"));

    // Imported again, the picture is named among what the archivist must supply, not made a value.
    let exported = scratch.0.join("items.json");
    fs::write(&exported, export_stdout("omeka-s")).unwrap();
    let target = scratch.0.join("imported");
    let out = ludotheca(&[
        "import",
        "omeka-s",
        path(&exported),
        "--catalog",
        path(&target),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let report = stdout(&out);
    assert!(
        report.contains(&format!(
            "a picture at {PICTURE}: save it as `images/board-shape.png` in the item's folder"
        )),
        "{report}"
    );
    assert!(
        !load(&target)
            .item("kherjarala-rock-board")
            .unwrap()
            .values
            .iter()
            .any(|v| v.text.contains("board-shape.png"))
    );
}
