//! The site's data as the clients that read it: harvesters and crawlers (`oai-pmh.xml` and `sitemap.xml`
//! against the official schemas kept in `tests/schemas/`, with xmllint), linked-data readers (the JSON-LD of
//! every page) and reference managers (the citations of the item pages).
//!
//! xmllint comes from Debian's libxml2-utils, which `scripts/test` installs; without it the schema checks are
//! skipped with a note, unless `LUDOTHECA_REQUIRE_XMLLINT` is set (as `scripts/test` sets it), when they fail.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::process::Command;

mod common;
use common::{Scratch, copy_tree, html_files, snapshot};

use ludotheca::site::build;
use serde_json::Value as Json;

const CATALOG: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/catalog");
const SCHEMAS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/schemas");
const BASE: &str = "https://archive.example.org/games/";
const GATEWAY: &str = "http://gateway.example.org/oai/";

/// The day Terhuchu's record says it was last changed, in the copies of the catalog built here (the shipped
/// records carry no dates of their own).
const CHANGED: &str = "2025-06-14";

/// The shipped catalog with `extra` top-level keys in its configuration, and Terhuchu's record dated.
fn configured_catalog(scratch: &Scratch, extra: &str) -> std::path::PathBuf {
    let catalog = scratch.0.join("catalog");
    copy_tree(Path::new(CATALOG), &catalog);
    let record = catalog.join("games/terhuchu/record.xml");
    let text = fs::read_to_string(&record).unwrap();
    fs::write(
        &record,
        text.replacen(
            "<dcterms:title>",
            &format!("<dcterms:modified xsi:type=\"dcterms:W3CDTF\">{CHANGED}</dcterms:modified>\n  <dcterms:title>"),
            1,
        ),
    )
    .unwrap();
    // The shipped address and mailbox give way to each test's own (or none).
    common::configure(&catalog, extra);
    catalog
}

fn build_site(name: &str, extra: &str) -> (Scratch, BTreeMap<String, Vec<u8>>) {
    let scratch = Scratch::new(name);
    let catalog = configured_catalog(&scratch, extra);
    let out = scratch.0.join("site");
    build(&common::build_options(&catalog, &out)).expect("the catalog builds");
    let site = snapshot(&out);
    (scratch, site)
}

fn text(site: &BTreeMap<String, Vec<u8>>, path: &str) -> String {
    String::from_utf8(site[path].clone()).unwrap()
}

/// `xmllint --schema`: None when xmllint is missing (and may be), else the validation's outcome and messages.
fn xmllint(schema: &str, file: &Path) -> Option<(bool, String)> {
    let output = match Command::new("xmllint")
        .args(["--noout", "--nonet", "--schema", schema])
        .arg(file)
        .current_dir(SCHEMAS)
        .output()
    {
        Ok(output) => output,
        Err(_) if std::env::var_os("LUDOTHECA_REQUIRE_XMLLINT").is_none() => {
            eprintln!(
                "note: xmllint is missing (Debian's libxml2-utils): the schema checks are skipped"
            );
            return None;
        }
        Err(err) => panic!("xmllint does not run: {err}"),
    };
    Some((
        output.status.success(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    ))
}

/// The OAI identifier syntax: `oai:<domain name>:<local identifier>`.
fn is_oai_identifier(id: &str) -> bool {
    let Some(rest) = id.strip_prefix("oai:") else {
        return false;
    };
    let Some((domain, local)) = rest.split_once(':') else {
        return false;
    };
    let labels: Vec<&str> = domain.split('.').collect();
    labels.len() >= 2
        && labels.iter().all(|l| {
            l.starts_with(|c: char| c.is_ascii_alphabetic())
                && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        })
        && !local.is_empty()
        && local
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.!~*'();/?:@&=+$,%".contains(c))
}

fn between<'a>(text: &'a str, open: &str, close: &str) -> Vec<&'a str> {
    text.split(open)
        .skip(1)
        .filter_map(|part| part.split_once(close).map(|(inside, _)| inside))
        .collect()
}

#[test]
fn the_oai_file_and_sitemap_validate_against_the_official_schemas() {
    let (scratch, site) = build_site(
        "schemas",
        &format!(
            "base_url = \"{BASE}\"\noai_gateway = \"{GATEWAY}\"\ncontact = \"editors@archive.example.org\"\n"
        ),
    );
    let oai = text(&site, "oai-pmh.xml");
    // The static repository specification: the gateway's address, then the file's without its scheme.
    assert!(
        oai.contains(
            "<oai:baseURL>http://gateway.example.org/oai/archive.example.org/games/oai-pmh.xml</oai:baseURL>"
        ),
        "{oai}"
    );
    assert!(!oai.contains("setSpec"));
    let identifiers = between(&oai, "<oai:identifier>", "</oai:identifier>");
    assert_eq!(identifiers.len(), 10);
    for id in &identifiers {
        assert!(is_oai_identifier(id), "{id}");
        assert!(id.starts_with("oai:archive.example.org:"), "{id}");
    }
    // Datestamps are the records' own dates, never the day of the build.
    let terhuchu = oai
        .split("<oai:record>")
        .find(|r| r.contains("oai:archive.example.org:terhuchu<"))
        .expect("terhuchu's record");
    assert_eq!(
        between(terhuchu, "<oai:datestamp>", "</oai:datestamp>"),
        [CHANGED]
    );

    let out = scratch.0.join("site");
    for (file, schema) in [
        ("oai-pmh.xml", "driver.xsd"),
        ("sitemap.xml", "sitemap.xsd"),
    ] {
        let Some((valid, messages)) = xmllint(schema, &out.join(file)) else {
            return;
        };
        assert!(
            valid,
            "{file} does not validate against {schema}:\n{messages}"
        );
    }
    // The schemas do reject what they should: a static repository's ListRecords names its metadataPrefix.
    let broken = scratch.0.join("broken.xml");
    fs::write(
        &broken,
        oai.replace("<ListRecords metadataPrefix=\"oai_dc\">", "<ListRecords>"),
    )
    .unwrap();
    let (valid, _) = xmllint("driver.xsd", &broken).unwrap();
    assert!(
        !valid,
        "the static repository schema takes a ListRecords without metadataPrefix"
    );
}

#[test]
fn without_a_base_url_the_build_warns_and_the_sitemap_is_not_one_a_crawler_takes() {
    let scratch = Scratch::new("no-address");
    let catalog = configured_catalog(&scratch, "");
    let build_into = |out: &Path, more: &[&str]| {
        let mut args = vec![
            "build",
            "--catalog",
            catalog.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend(more);
        let output = common::ludotheca(&args);
        assert!(output.status.success());
        output
    };
    let out = scratch.0.join("site");
    let output = build_into(&out, &[]);
    let stderr = common::stderr(&output);
    assert!(
        stderr.starts_with(
            "warning[W007]: the site has no base URL: sitemap.xml and oai-pmh.xml hold relative addresses, \
             which crawlers and OAI-PMH harvesters reject\n"
        ),
        "{stderr}"
    );
    // With an address, no warning.
    let output = build_into(&scratch.0.join("site2"), &["--base-url", BASE]);
    assert!(!common::stderr(&output).contains("W007"));
    // Still written, for a look at them, but not valid: which is what the warning says.
    if let Some((valid, _)) = xmllint("sitemap.xsd", &out.join("sitemap.xml")) {
        assert!(!valid);
    }
}

/// Every `@type` the site writes, and every property: schema.org's, checked here so that a misspelt one fails.
const TYPES: [&str; 15] = [
    "WebSite",
    "WebPage",
    "CollectionPage",
    "Game",
    "CreativeWork",
    "Book",
    "ScholarlyArticle",
    "Thesis",
    "Person",
    "Organization",
    "Place",
    "DefinedTerm",
    "GeoCoordinates",
    "QuantitativeValue",
    "ImageObject",
];
const PROPERTIES: [&str; 38] = [
    "@context",
    "@id",
    "@type",
    "name",
    "url",
    "identifier",
    "description",
    "alternateName",
    "keywords",
    "creator",
    "contributor",
    "citation",
    "temporalCoverage",
    "inLanguage",
    "copyrightNotice",
    "license",
    "spatialCoverage",
    "geo",
    "latitude",
    "longitude",
    "isBasedOn",
    "numberOfPlayers",
    "value",
    "material",
    "size",
    "about",
    "author",
    "datePublished",
    "publisher",
    "isPartOf",
    "sameAs",
    "image",
    "contentUrl",
    "encodingFormat",
    "width",
    "height",
    "unitCode",
    "caption",
];

fn json_ld_of(page: &str) -> Option<Json> {
    let script = between(page, "<script type=\"application/ld+json\">", "</script>");
    script
        .first()
        .map(|s| serde_json::from_str(s).expect("the JSON-LD parses"))
}

fn check_node(page: &str, node: &Json) {
    match node {
        Json::Object(map) => {
            for (key, value) in map {
                assert!(PROPERTIES.contains(&key.as_str()), "{page}: property {key}");
                check_node(page, value);
            }
            if let Some(kind) = map.get("@type") {
                let kind = kind.as_str().unwrap_or_default();
                assert!(TYPES.contains(&kind), "{page}: type {kind}");
            }
        }
        Json::Array(values) => values.iter().for_each(|v| check_node(page, v)),
        Json::String(text) => assert!(
            !ludotheca::site::meta::means_unknown(text) || text.is_empty(),
            "{page}: `{text}` only says that something is unknown"
        ),
        _ => {}
    }
}

#[test]
fn every_page_describes_itself_in_json_ld() {
    for base in [Some(BASE), None] {
        let extra = base
            .map(|b| format!("base_url = \"{b}\"\n"))
            .unwrap_or_default();
        let (_scratch, site) = build_site("json-ld", &extra);
        let mut pages = 0;
        for (path, html) in html_files(&site) {
            let ld = json_ld_of(&html).unwrap_or_else(|| panic!("{path} has no JSON-LD"));
            pages += 1;
            check_node(path, &ld);
            let id = ld["@id"]
                .as_str()
                .unwrap_or_else(|| panic!("{path} has no @id"));
            let (address, fragment) = id.split_once('#').expect("the @id has a fragment");
            assert!(!fragment.is_empty());
            match base {
                Some(base) => {
                    assert_eq!(address, format!("{base}{path}"), "{path}");
                    assert_eq!(ld["url"].as_str(), Some(address), "{path}");
                }
                None => {
                    assert_eq!(address, "", "{path}: {id}");
                    assert!(ld.get("url").is_none(), "{path}");
                }
            }
            let item_page = ["games/", "boards/", "evidence/"]
                .iter()
                .any(|folder| path.starts_with(folder))
                && path.matches('/').count() == 2;
            if item_page {
                assert_eq!(fragment, "item", "{path}");
            }
            if let Some(citations) = ld["citation"].as_array() {
                let mut seen = Vec::new();
                for c in citations {
                    assert!(!seen.contains(&c), "{path}: {c} is cited twice");
                    seen.push(c);
                }
            }
        }
        assert!(pages > 50, "{pages} pages");

        // Terhuchu names three of its sources by both dcterms:source and dcterms:references: each is cited
        // once (the loop above), and every source its record cites is there.
        let terhuchu = json_ld_of(&text(&site, "games/terhuchu/index.html")).unwrap();
        let record =
            fs::read_to_string(Path::new(CATALOG).join("games/terhuchu/record.xml")).unwrap();
        let keys: std::collections::BTreeSet<&str> = record
            .split("cite=\"")
            .skip(1)
            .filter_map(|rest| rest.split('"').next())
            .collect();
        assert!(keys.len() >= 3, "{keys:?}");
        assert!(terhuchu["citation"].as_array().unwrap().len() >= keys.len());
        // A body in double braces in the bibliography is an organisation, on its source page and its own.
        let dlp = json_ld_of(&text(&site, "people/digital-ludeme-project/index.html")).unwrap();
        assert_eq!(dlp["@type"], "Organization");
        let source = json_ld_of(&text(&site, "sources/dlp-mogol-putthan/index.html")).unwrap();
        assert_eq!(source["author"][0]["@type"], "Organization");
        let hutton = site
            .keys()
            .find(|p| p.starts_with("people/") && p.contains("hutton"))
            .expect("Hutton's page");
        assert_eq!(json_ld_of(&text(&site, hutton)).unwrap()["@type"], "Person");
        // "Not recorded" is shown on the page, not published as the board's size.
        let board = json_ld_of(&text(&site, "boards/kherjarala-rock-board/index.html")).unwrap();
        assert!(board.get("size").is_none(), "{board}");
    }
}

#[test]
fn dublin_core_in_html_carries_schemes_links_and_the_page_identifier() {
    let (_scratch, site) = build_site("dc", &format!("base_url = \"{BASE}\"\n"));
    let page = text(&site, "games/terhuchu/index.html");
    assert!(page.contains(&format!(
        "<link rel=\"DC.identifier\" href=\"{BASE}games/terhuchu/index.html\">"
    )));
    assert!(page.contains(&format!(
        "<link rel=\"DCTERMS.isVersionOf\" href=\"{BASE}games/mogol-putthan/index.html\""
    )));
    assert!(page.contains("scheme=\"DCTERMS.Point\""));
    assert!(
        page.contains("<meta name=\"DC.language\" content=\"njm\" scheme=\"DCTERMS.RFC5646\">")
    );
    // A link to a catalogued item is not also a text.
    assert!(!page.contains("<meta name=\"DCTERMS.isVersionOf\" content=\"Mughal Pathan\""));
    let all: String = html_files(&site).into_iter().map(|(_, h)| h).collect();
    assert!(all.contains("scheme=\"DCTERMS.W3CDTF\""));
    assert!(all.contains("scheme=\"DCTERMS.DCMIType\""));
}

#[test]
fn citations_give_the_page_address_and_the_records_date() {
    let (_scratch, site) = build_site("cite", &format!("base_url = \"{BASE}\"\n"));
    let page = common::decode(&text(&site, "games/terhuchu/index.html"));
    let url = format!("{BASE}games/terhuchu/index.html");
    assert!(
        page.contains(&format!("url          = {{{url}}},")),
        "BibTeX url"
    );
    assert!(page.contains(&format!("UR  - {url}")), "RIS UR");
    assert!(page.contains(&format!("\"URL\": \"{url}\"")), "CSL URL");
    // The access date is the reader's to give; the date is the record's last change.
    assert!(!page.contains("urldate") && !page.contains("Y2  -") && !page.contains("\"accessed\""));
    assert!(page.contains(&format!("date         = {{{CHANGED}}},")));
    assert!(page.contains(&format!("DA  - {}", CHANGED.replace('-', "/"))));
}
