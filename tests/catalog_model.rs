//! The model the catalog reader builds from the valid fixture: what later stages (the archive, the site, the
//! rules engine's diagnostics) rely on.

use std::path::Path;

use ludotheca::catalog::{Kind, terms};
use ludotheca::check::uncatalogued_names;
use ludotheca::diagnostic::{Diagnostic, Diagnostics};

fn load() -> ludotheca::catalog::Catalog {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/valid");
    let (checked, diagnostics) = ludotheca::load_and_check(&root).expect("the valid fixture loads");
    assert!(diagnostics.is_empty(), "{:?}", diagnostics.into_vec());
    checked.catalog
}

#[test]
fn items_kinds_and_files() {
    let catalog = load();
    let ids: Vec<(&str, Option<Kind>)> = catalog
        .items
        .iter()
        .map(|i| (i.id.as_str(), i.kind))
        .collect();
    assert_eq!(
        ids,
        [
            ("board-pataleshwar-2", Some(Kind::Board)),
            ("hutton-sema-hunt", Some(Kind::Evidence)),
            ("bagh-chal", Some(Kind::Game)),
            ("sumi-naga-hunt", Some(Kind::Game)),
        ]
    );
    let bagh = catalog.item("bagh-chal").expect("bagh-chal is catalogued");
    assert!(bagh.has_rules_file && bagh.rules_file.is_some());
    assert_eq!(bagh.game_record_files.len(), 1);
    assert!(
        catalog
            .files
            .path(bagh.game_record_files[0])
            .ends_with("games/demo.game")
    );
    // The record is also read, so that replaying it can report into it.
    assert_eq!(bagh.game_records.len(), 1);
    assert!(
        catalog
            .files
            .get(bagh.game_records[0])
            .text()
            .contains("[Kind \"demonstration\"]")
    );
    let evidence = catalog
        .item("hutton-sema-hunt")
        .expect("evidence is catalogued");
    assert_eq!(evidence.confidence_value(), Some(80));
    assert_eq!(
        evidence.attests[0].game.as_ref().map(|g| g.value.as_str()),
        Some("sumi-naga-hunt")
    );
    let board = catalog
        .item("board-pataleshwar-2")
        .expect("board is catalogued");
    assert_eq!(
        board.played_with[0]
            .ruleset
            .as_ref()
            .map(|r| r.value.as_str()),
        Some("hutton")
    );
}

#[test]
fn values_keep_language_scheme_reference_citation_and_position() {
    let catalog = load();
    let bagh = catalog.item("bagh-chal").expect("bagh-chal is catalogued");
    let alternative = bagh
        .values_of("alternative")
        .next()
        .expect("an alternative title");
    assert_eq!(&*alternative.text, "Bāgh Chāl");
    assert_eq!(
        alternative.lang().as_ref().map(|l| l.value.as_str()),
        Some("ne-Latn")
    );
    let file = catalog.files.get(bagh.file);
    let at = file.position(alternative.text_span().start);
    assert_eq!((at.line, at.column), (9, 43));
    assert_eq!(&file.text()[alternative.text_span().clone()], "Bāgh Chāl");

    let description = bagh.values_of("description").next().expect("a description");
    assert!(description.text.contains("twenty goats & their herders"));
    let source = bagh.values_of("source").next().expect("a source");
    assert_eq!(
        source.cite().as_ref().map(|c| c.value.as_str()),
        Some("hutton-1921-sema")
    );
    assert_eq!(
        source.pages().as_ref().map(|p| p.value.as_str()),
        Some("110-111")
    );
    let version = bagh.values_of("isVersionOf").next().expect("a version");
    assert_eq!(
        version.ref_().as_ref().map(|r| r.value.as_str()),
        Some("sumi-naga-hunt")
    );
    assert_eq!(&*version.text, "Sümi Naga hunt");
    let point = bagh.values_of("spatial").next().expect("a place");
    assert_eq!(
        point.scheme().as_ref().map(|s| s.value.as_str()),
        Some("dcterms:Point")
    );
    // dc:language and dcterms:language are one term.
    assert_eq!(
        bagh.values_of("language").next().map(|v| v.ns),
        Some(terms::Namespace::Dc)
    );
    // CDATA is text.
    let sumi = catalog
        .item("sumi-naga-hunt")
        .expect("sumi-naga-hunt is catalogued");
    assert_eq!(
        sumi.values_of("description").next().map(|v| &*v.text),
        Some("A hunt game <of> the Sümi Nagas.")
    );
}

#[test]
fn bibliography_and_configuration() {
    let catalog = load();
    let finkel = catalog
        .sources
        .get("FINKEL-2007-TERH")
        .expect("keys ignore case");
    assert_eq!(
        finkel.get("title"),
        Some("Terhüchü and the hunt games of Nagaland")
    );
    assert_eq!(finkel.authors, ["Finkel, Irving L.", "Mackenzie, Colin"]);
    assert_eq!(finkel.get("pages"), Some("1–20"));
    assert_eq!(
        catalog
            .sources
            .get("hutton-1921-sema")
            .and_then(|e| e.get("publisher")),
        Some("Macmillan")
    );
    assert_eq!(
        catalog.config.title,
        "Traditional Board Games of South Asia and Beyond"
    );
    assert_eq!(catalog.config.labels.len(), 55);
    assert_eq!(catalog.config.labels[1].term.name, "instructionalMethod");
    let is_version_of = terms::lookup_prefixed("dcterms:isVersionOf").expect("a term");
    assert_eq!(catalog.config.label(is_version_of), "Variants");
}

#[test]
fn plain_relation_names_are_not_yet_catalogued() {
    let catalog = load();
    let names: Vec<(String, &str, String)> = uncatalogued_names(&catalog)
        .into_iter()
        .map(|n| (n.item, n.term, n.name))
        .collect();
    assert_eq!(
        names,
        [(
            "bagh-chal".to_string(),
            "relation",
            "Bagha Chheli".to_string()
        )]
    );
}

#[test]
fn other_code_can_report_into_loaded_files() {
    let catalog = load();
    let bagh = catalog.item("bagh-chal").expect("bagh-chal is catalogued");
    let rules = bagh.rules_file.expect("rules.txt was read");
    let mut diagnostics = Diagnostics::new();
    diagnostics.push(
        Diagnostic::error("E100", "unknown directive")
            .at_line_column(&catalog.files, rules, 1, 3, 5)
            .with_help("h"),
    );
    diagnostics.error_at(&catalog.files, bagh.file, 0..5, "E101", "by byte span");
    diagnostics.sort();
    let rendered: Vec<String> = diagnostics.iter().map(|d| d.render_human(false)).collect();
    assert!(
        rendered[1].contains("valid/games/bagh-chal/rules.txt:1:3"),
        "{}",
        rendered[1]
    );
    assert!(rendered[1].contains("  |   ^^^^^\n"), "{}", rendered[1]);
    assert!(
        rendered[0].contains("valid/games/bagh-chal/record.xml:1:1"),
        "{}",
        rendered[0]
    );
}

#[test]
fn the_about_page_is_read_with_the_catalog_and_bad_bytes_are_reported() {
    let root = std::env::temp_dir().join(format!("ludotheca-about-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(root.join("ludotheca.toml"), "title = \"About test\"\n").unwrap();
    std::fs::write(root.join("about.md"), "# About\n\nAn archive.\n").unwrap();
    let (checked, diagnostics) = ludotheca::load_and_check(&root).expect("the catalog loads");
    assert!(diagnostics.is_empty(), "{:?}", diagnostics.into_vec());
    let catalog = checked.catalog;
    let about = catalog.about.expect("about.md is read");
    assert!(catalog.files.get(about).text().contains("An archive."));

    std::fs::write(root.join("about.md"), b"# About\n\nCaf\xe9\n").unwrap();
    let (checked, diagnostics) = ludotheca::load_and_check(&root).expect("the catalog loads");
    let _ = std::fs::remove_dir_all(&root);
    assert_eq!(checked.catalog.about, None);
    let d = diagnostics.into_vec();
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].code, "E004");
    let location = d[0].location.as_ref().expect("a place in about.md");
    assert!(location.file.ends_with("about.md"));
    assert_eq!((location.line, location.column), (3, 4));
}
