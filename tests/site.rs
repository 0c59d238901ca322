//! `ludotheca build` end to end: the shipped catalog builds into a complete, self-contained site whose every
//! internal link and anchor resolves; every Dublin Core value of every record is on its page; hostile values
//! cannot inject markup or script; and the output folder is handled safely (a failed build changes nothing, a
//! folder of someone else's files is refused).

use std::collections::{BTreeMap, HashSet};
use std::fs;
use std::path::Path;
use std::process::Command;

mod common;
use common::{
    Scratch, assert_no_script_from_data, copy_tree, html_files, leftovers, parse_html, snapshot,
};

use ludotheca::catalog::Kind;
use ludotheca::diagnostic::Diagnostics;
use ludotheca::site::{BuildError, BuildOptions, build};

const CATALOG: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/catalog");

fn options(catalog: &Path, out: &Path) -> BuildOptions {
    common::build_options(catalog, out)
}

fn squash(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Resolve `href` (relative, without fragment) against the page at `page`.
fn resolve(page: &str, href: &str) -> Option<String> {
    let mut parts: Vec<&str> = page.split('/').collect();
    parts.pop();
    for segment in href.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    Some(parts.join("/"))
}

fn is_external(url: &str) -> bool {
    let lower = url.trim().to_ascii_lowercase();
    lower.starts_with("http:")
        || lower.starts_with("https:")
        || lower.starts_with("mailto:")
        || lower.starts_with("//")
        || lower.starts_with("data:")
        || lower.starts_with("javascript:")
        // A place's link to a map application.
        || lower.starts_with("geo:")
}

// ---------------------------------------------------------------------------------------------------------------

fn build_shipped() -> (Scratch, BTreeMap<String, Vec<u8>>) {
    let scratch = Scratch::new("shipped");
    let out = scratch.0.join("site");
    let built = build(&options(Path::new(CATALOG), &out)).expect("the shipped catalog builds");
    assert!(built.pages > 20);
    let site = snapshot(&out);
    (scratch, site)
}

#[test]
fn every_item_has_a_page_and_every_link_resolves() {
    let (_scratch, site) = build_shipped();
    let mut diagnostics = Diagnostics::new();
    let catalog = ludotheca::catalog::load(Path::new(CATALOG), &mut diagnostics).unwrap();
    for item in &catalog.items {
        let folder = match item.kind.unwrap() {
            Kind::Game => "games",
            Kind::Board => "boards",
            Kind::Evidence => "evidence",
        };
        let page = format!("{folder}/{}/index.html", item.id);
        assert!(site.contains_key(&page), "no page for {}", item.id);
        assert!(site.contains_key(&format!("{folder}/{}/record.xml", item.id)));
    }
    for required in [
        "index.html",
        "browse/index.html",
        "search/index.html",
        "about/index.html",
        "variants/index.html",
        "rules/index.html",
        "search-index.js",
        "sitemap.xml",
        "catalog.json",
        "catalog.csv",
        "oai-pmh.xml",
        "static/style.css",
        ".ludotheca-site",
        "sources/hutton-1921-sema/index.html",
        ".ludotheca-manifest",
        "games/terhuchu/terhuchu.zip",
    ] {
        assert!(site.contains_key(required), "missing {required}");
    }

    let checked = check_links(&site);
    assert!(checked > 500, "only {checked} links checked");
}

/// Every internal link and fragment of every page of `site` resolves; external ones are never fetched. Returns
/// how many links were checked.
fn check_links(site: &BTreeMap<String, Vec<u8>>) -> usize {
    let pages = html_files(site);
    let ids: BTreeMap<&str, HashSet<String>> = pages
        .iter()
        .map(|(p, html)| {
            let (tags, _) = parse_html(html);
            let ids = tags
                .iter()
                .filter_map(|t| t.attr("id").map(str::to_string))
                .collect();
            (p.as_str(), ids)
        })
        .collect();
    let mut checked = 0;
    for (page, html) in &pages {
        let (tags, _) = parse_html(html);
        for tag in &tags {
            for attr in ["href", "src"] {
                let Some(url) = tag.attr(attr) else { continue };
                // `<link rel="schema.DC">` names a vocabulary; only links the browser fetches count.
                let fetched = match tag.name.as_str() {
                    "script" | "img" | "iframe" | "source" | "video" | "audio" | "embed" => true,
                    "link" => tag.attr("rel").is_some_and(|r| {
                        r.split_whitespace().any(|r| {
                            matches!(
                                r,
                                "stylesheet"
                                    | "icon"
                                    | "preload"
                                    | "modulepreload"
                                    | "manifest"
                                    | "prefetch"
                            )
                        })
                    }),
                    _ => false,
                };
                if is_external(url) {
                    assert!(
                        !fetched,
                        "{page}: <{}> loads {url} from elsewhere",
                        tag.name
                    );
                    assert!(
                        !url.to_ascii_lowercase().starts_with("javascript:"),
                        "{page}: a javascript: link"
                    );
                    continue;
                }
                assert!(!url.is_empty(), "{page}: an empty {attr} on <{}>", tag.name);
                assert!(!url.starts_with('/'), "{page}: {url} is not relative");
                let (path, fragment) = url.split_once('#').unwrap_or((url, ""));
                let path = path.split('?').next().unwrap();
                let target = if path.is_empty() {
                    page.to_string()
                } else {
                    assert!(!path.ends_with('/'), "{page}: {url} links to a folder");
                    let target = resolve(page, path)
                        .unwrap_or_else(|| panic!("{page}: {url} leaves the site"));
                    assert!(
                        site.contains_key(&target),
                        "{page}: {url} -> {target} does not exist"
                    );
                    target
                };
                // Fragments with `=` are filter states of the browse page, not anchors.
                if !fragment.is_empty() && !fragment.contains('=') && target.ends_with(".html") {
                    assert!(
                        ids[target.as_str()].contains(fragment),
                        "{page}: {url}: no id {fragment} in {target}"
                    );
                }
                checked += 1;
            }
        }
    }
    checked
}

#[test]
fn pages_have_one_title_heading_landmarks_and_a_skip_link() {
    let (_scratch, site) = build_shipped();
    for (page, html) in html_files(&site) {
        let (tags, _) = parse_html(&html);
        let count = |name: &str| tags.iter().filter(|t| t.name == name).count();
        assert_eq!(count("h1"), 1, "{page}: one h1");
        assert_eq!(count("main"), 1, "{page}: one main");
        assert!(
            count("header") >= 1 && count("footer") == 1,
            "{page}: header and footer"
        );
        assert!(
            tags.iter()
                .any(|t| t.name == "nav" && t.attr("aria-label") == Some("Main")),
            "{page}: the main navigation is labelled"
        );
        assert_eq!(
            tags.iter()
                .find(|t| t.name == "html")
                .and_then(|t| t.attr("lang")),
            Some("en"),
            "{page}: the document language"
        );
        let skip = tags
            .iter()
            .find(|t| t.name == "a")
            .and_then(|t| t.attr("href"));
        assert_eq!(
            skip,
            Some("#main"),
            "{page}: the first link skips to the content"
        );
        // Headings never skip a level going down (h2 -> h4).
        let mut last = 1;
        for tag in &tags {
            if let Some(level) = tag
                .name
                .strip_prefix('h')
                .and_then(|n| n.parse::<usize>().ok())
                .filter(|n| (1..=6).contains(n))
            {
                assert!(level <= last + 1, "{page}: h{level} after h{last}");
                last = level;
            }
        }
    }
}

#[test]
fn every_dublin_core_value_is_on_its_page() {
    let (_scratch, site) = build_shipped();
    let mut diagnostics = Diagnostics::new();
    let catalog = ludotheca::catalog::load(Path::new(CATALOG), &mut diagnostics).unwrap();
    let bib_titles: BTreeMap<String, String> = catalog
        .sources
        .entries
        .iter()
        .map(|e| {
            (
                e.key.value.clone(),
                e.get("title").unwrap_or_default().to_string(),
            )
        })
        .collect();
    let mut values = 0;
    for item in &catalog.items {
        let folder = match item.kind.unwrap() {
            Kind::Game => "games",
            Kind::Board => "boards",
            Kind::Evidence => "evidence",
        };
        let html =
            String::from_utf8(site[&format!("{folder}/{}/index.html", item.id)].clone()).unwrap();
        // Only the record section: the value must be shown there with its label, not merely somewhere.
        let start = html.find("id=\"record\"").expect("a record section");
        let end = html[start..]
            .find("</section>")
            .map_or(html.len(), |n| start + n);
        let (_, text) = parse_html(&html[start..end]);
        let text = squash(&text).replace('*', "");
        for value in &item.values {
            let label = catalog.config.label(value.term);
            assert!(text.contains(label), "{}: label {label} missing", item.id);
            let expected = if let Some(cite) = &value.cite() {
                bib_titles[&cite.value].clone()
            } else if let Some(r) = value.ref_().as_ref().filter(|_| value.text.is_empty()) {
                catalog.item(&r.value).unwrap().title().unwrap().to_string()
            } else if value.scheme().is_some() || value.term.name == "language" {
                // Dates, places and languages are shown in words ("1921", "Kohima (25.67° N, 94.11° E)",
                // "Angami Naga"), not in the form the record keeps.
                ludotheca::site::values::text(value)
            } else {
                // Markdown's quotation marks (`> `) and emphasis are not text.
                let unquoted: Vec<&str> = value
                    .text
                    .lines()
                    .map(|l| l.trim_start().trim_start_matches('>'))
                    .collect();
                squash(&unquoted.join("\n")).replace('*', "")
            };
            assert!(
                text.contains(&squash(&expected)),
                "{}: {} value {expected:?} is not on the page",
                item.id,
                value.qualified_name()
            );
            if let Some(pages) = &value.pages() {
                let shown = pages.value.replace('-', "–");
                assert!(text.contains(&shown), "{}: pages {shown} missing", item.id);
            }
            if let Some(lang) = &value.lang() {
                assert!(html[start..end].contains(&format!("lang=\"{}\"", lang.value)));
            }
            values += 1;
        }
        // Inverse relations are computed: a game that others call their original lists them.
        if item.id == "mogol-putthan" {
            for version in ["Terhuchu", "Dam pursi", "Permainan-Tabal"] {
                assert!(
                    text.contains(version),
                    "mogol-putthan does not list {version}"
                );
            }
        }
    }
    assert!(values > 150, "only {values} values checked");
}

#[test]
fn the_search_index_is_the_same_bytes_in_every_build() {
    let index = |site: &BTreeMap<String, Vec<u8>>| -> BTreeMap<String, Vec<u8>> {
        site.iter()
            .filter(|(path, _)| path.starts_with("search-index"))
            .map(|(path, bytes)| (path.clone(), bytes.clone()))
            .collect()
    };
    let (_first, a) = build_shipped();
    let (_second, b) = build_shipped();
    assert!(index(&a).len() > 3);
    assert_eq!(index(&a), index(&b));
}

#[test]
fn pages_carry_data_for_machines_and_search() {
    let (_scratch, site) = build_shipped();
    let page = String::from_utf8(site["games/terhuchu/index.html"].clone()).unwrap();
    assert!(page.contains("<meta name=\"DC.title\" content=\"Terhuchu\">"));
    assert!(page.contains("<meta name=\"DCTERMS.alternative\" content=\"Terhüchü\" lang=\"njm\">"));
    assert!(page.contains("<script type=\"application/ld+json\">"));
    assert!(page.contains("data-widget-slot=\"board\""));
    // The board section shows the start as the picture file of its ruleset's diagram, not a copy of it.
    let board_picture = |page: &str| -> String {
        let figure = page
            .split("<div class=\"board-figure\"><img class=\"board\" src=\"../../diagrams/")
            .nth(1)
            .expect("the board section's picture");
        figure[..figure.find('"').unwrap()].to_string()
    };
    let file = board_picture(&page);
    assert_eq!(
        page.matches(&format!("src=\"../../diagrams/{file}\""))
            .count(),
        2,
        "the board section and the first ruleset show one file"
    );
    let drawn = String::from_utf8(site[&format!("diagrams/{file}")].clone()).unwrap();
    assert!(drawn.contains("<g class=\"lines\">"), "{drawn}");
    assert!(!page.contains("<svg class=\"board"), "no drawing inline");
    assert!(page.contains("@misc{ludotheca-terhuchu,"));
    assert!(page.contains("TY  - ELEC"));
    let sowing = String::from_utf8(site["games/tchouba/index.html"].clone()).unwrap();
    let drawn =
        String::from_utf8(site[&format!("diagrams/{}", board_picture(&sowing))].clone()).unwrap();
    assert!(
        drawn.contains("class=\"hole side-0\""),
        "tchouba has no sowing diagram"
    );

    let index = String::from_utf8(site["search-index.js"].clone()).unwrap();
    assert!(index.starts_with("/*") && index.contains("window.LUDOTHECA_SEARCH = {"));
    // The words and documents are in shards beside the manifest, each a script that registers itself.
    let shards: Vec<(&String, String)> = site
        .iter()
        .filter(|(path, _)| path.starts_with("search-index/"))
        .map(|(path, bytes)| (path, String::from_utf8(bytes.clone()).unwrap()))
        .collect();
    assert!(shards.len() > 3, "the index is split");
    for (path, script) in &shards {
        assert!(path.ends_with(".js"));
        assert!(
            script.starts_with("window.LUDOTHECA_SEARCH_SHARD(\""),
            "{path}"
        );
    }
    let has = |text: &str| shards.iter().any(|(_, s)| s.contains(text));
    assert!(has("[\"terhuchu\""), "folded names are indexed");
    assert!(has("Terhüchü"), "alternative titles are shown as written");

    let json: serde_json::Value = serde_json::from_slice(&site["catalog.json"]).unwrap();
    assert_eq!(json["items"].as_array().unwrap().len(), 10);
    let csv = String::from_utf8(site["catalog.csv"].clone()).unwrap();
    assert_eq!(csv.lines().count(), 11);

    let oai = String::from_utf8(site["oai-pmh.xml"].clone()).unwrap();
    assert!(oai.contains("<oai_dc:dc"));
    assert!(oai.contains("<dc:description>Rules: Two players each set out"));
    assert!(!oai.contains("<dc:alternative") && !oai.contains("<dcterms:"));
    let sitemap = String::from_utf8(site["sitemap.xml"].clone()).unwrap();
    // The shipped catalog sets its intended address, so the sitemap's addresses are absolute.
    assert!(sitemap.contains("<loc>https://ludotheca.example.org/games/terhuchu/index.html</loc>"));
}

// ---------------------------------------------------------------------------------------------------------------
// Escaping.

const HOSTILE_RECORD: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<record xmlns="urn:ludotheca:record:1" xmlns:dcterms="http://purl.org/dc/terms/" kind="game">
  <dcterms:title>&lt;script&gt;alert("title")&lt;/script&gt; Evil "game" &amp; co</dcterms:title>
  <dcterms:alternative>"&gt;&lt;img src=x onerror=alert(1)&gt;</dcterms:alternative>
  <dcterms:description>Intro &lt;script&gt;alert(2)&lt;/script&gt; and [a link](javascript:alert(3)) and
[another](  JaVaScRiPt:alert(3)) and &lt;a href="javascript:alert(4)"&gt;raw&lt;/a&gt; ![img](javascript:alert(5))

&lt;div onclick="alert(14)"&gt;block html&lt;/div&gt;</dcterms:description>
  <dcterms:instructionalMethod>Rules &lt;/script&gt;&lt;script&gt;alert(6)&lt;/script&gt;</dcterms:instructionalMethod>
  <dcterms:source cite="evil"/>
  <dcterms:subject>&lt;script&gt;tag&lt;/script&gt;</dcterms:subject>
  <dcterms:audience>=HYPERLINK("http://evil.example/","x")</dcterms:audience>
  <dcterms:spatial>javascript:alert(7)</dcterms:spatial>
  <dcterms:relation>&lt;/script&gt;&lt;script&gt;alert(8)&lt;/script&gt;</dcterms:relation>
  <dcterms:contributor>&lt;/textarea&gt;&lt;svg onload=alert(15)&gt;</dcterms:contributor>
</record>
"#;

const HOSTILE_BIB: &str = r#"@book{evil,
  author = {<script>alert(9)</script>},
  title = {</script><script>alert(10)</script>},
  year = {2020},
  url = {javascript:alert(11)},
}
"#;

fn hostile_catalog(root: &Path) {
    fs::create_dir_all(root.join("games/evil")).unwrap();
    fs::write(
        root.join("ludotheca.toml"),
        "title = \"<script>alert('site')</script>\"\ndescription = \"[x](javascript:alert(16)) <script>alert(17)</script>\"\n",
    )
    .unwrap();
    fs::write(root.join("sources.bib"), HOSTILE_BIB).unwrap();
    fs::write(
        root.join("about.md"),
        "# About <script>alert(12)</script>\n\n[x](javascript:alert(13)) <img src=x onerror=alert(18)>\n",
    )
    .unwrap();
    fs::write(root.join("games/evil/record.xml"), HOSTILE_RECORD).unwrap();
    // Real rules, citing the hostile bibliography entry so that the catalog passes check.
    let rules = fs::read_to_string(Path::new(CATALOG).join("games/bagh-chal/rules.txt")).unwrap();
    let rules: String = rules
        .lines()
        .map(|line| match line.trim_start().strip_prefix("source ") {
            Some(_) => "  source evil".to_string(),
            None => line.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n");
    fs::write(root.join("games/evil/rules.txt"), rules).unwrap();
}

#[test]
fn hostile_values_produce_no_script() {
    let scratch = Scratch::new("hostile");
    let catalog = scratch.0.join("catalog");
    hostile_catalog(&catalog);
    let out = scratch.0.join("site");
    match build(&options(&catalog, &out)) {
        Ok(_) => {}
        Err(BuildError::CatalogErrors(d)) => panic!("the hostile catalog must pass check: {d:?}"),
        Err(e) => panic!("{e}"),
    }
    let site = snapshot(&out);
    assert!(assert_no_script_from_data(&site) > 0);
    // A spreadsheet must not read a value as a formula.
    let csv = String::from_utf8(site["catalog.csv"].clone()).unwrap();
    assert!(
        csv.contains("\"'=HYPERLINK(\"\"http://evil.example/\"\",\"\"x\"\")"),
        "{csv}"
    );
    assert!(!csv.contains(",=") && !csv.contains(",\"="), "{csv}");
    let page = String::from_utf8(site["games/evil/index.html"].clone()).unwrap();
    assert!(
        page.contains("&lt;script&gt;alert(&quot;title&quot;)&lt;/script&gt;"),
        "the title is shown, escaped"
    );
    // The search index is scripts: values in them must not be able to close one or start another.
    for (path, bytes) in &site {
        if path == "search-index.js" || path.starts_with("search-index/") {
            let index = String::from_utf8(bytes.clone()).unwrap();
            assert!(
                !index.contains("</script") && !index.contains('<'),
                "{path}"
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------------------------
// The output folder.

#[test]
fn a_failed_build_leaves_the_previous_site_untouched() {
    let scratch = Scratch::new("failed");
    let out = scratch.0.join("site");
    build(&options(Path::new(CATALOG), &out)).unwrap();
    let before = snapshot(&out);

    // A catalog with errors: check refuses it, through the command line with exit code 1.
    let broken = scratch.0.join("broken");
    copy_tree(Path::new(CATALOG), &broken);
    let record = broken.join("games/terhuchu/record.xml");
    let text = fs::read_to_string(&record)
        .unwrap()
        .replace("ref=\"mogol-putthan\"", "ref=\"mogol-puthan\"");
    fs::write(&record, text).unwrap();
    let status = Command::new(env!("CARGO_BIN_EXE_ludotheca"))
        .args(["build", "--quiet", "--catalog"])
        .arg(&broken)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(
        status.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    assert!(String::from_utf8_lossy(&status.stderr).contains("mogol-puthan"));
    assert_eq!(snapshot(&out), before);

    // A template that fails to render: the build fails after loading and checking, still changing nothing.
    let themed = scratch.0.join("themed");
    copy_tree(Path::new(CATALOG), &themed);
    fs::create_dir_all(themed.join("templates")).unwrap();
    fs::write(themed.join("templates/item.html"), "{% extends \"base.html\" %}{% block content %}{{ page.nope.deeper }}{% endblock content %}").unwrap();
    match build(&options(&themed, &out)) {
        Err(BuildError::Template(_)) => {}
        other => panic!("expected a template error, got {other:?}"),
    }
    assert_eq!(snapshot(&out), before);

    // Nothing is left beside the output but the standby of an earlier build.
    let left = leftovers(&scratch.0);
    assert!(left.is_empty(), "{left:?}");

    // A catalog's own templates take precedence.
    fs::write(themed.join("templates/item.html"), "{% extends \"base.html\" %}{% block content %}<p>custom {{ page.title }}</p>{% endblock content %}").unwrap();
    build(&options(&themed, &out)).unwrap();
    let page = fs::read_to_string(out.join("games/terhuchu/index.html")).unwrap();
    assert!(page.contains("<p>custom Terhuchu</p>"));
    // The previous site is the standby now, and nothing else was left beside the new one.
    let left = leftovers(&scratch.0);
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn a_folder_of_other_files_is_refused_unless_forced() {
    let scratch = Scratch::new("foreign");
    let out = scratch.0.join("mine");
    fs::create_dir_all(&out).unwrap();
    fs::write(out.join("thesis.tex"), "precious").unwrap();
    let err = build(&options(Path::new(CATALOG), &out)).unwrap_err();
    assert!(matches!(err, BuildError::Output(_)), "{err:?}");
    assert!(err.to_string().contains("--force"));
    assert_eq!(
        fs::read_to_string(out.join("thesis.tex")).unwrap(),
        "precious"
    );

    let status = Command::new(env!("CARGO_BIN_EXE_ludotheca"))
        .args(["build", "--quiet", "--catalog", CATALOG, "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(status.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&status.stderr).contains(".ludotheca-site"));

    // An empty folder is fine, and so is one ludotheca wrote before.
    let empty = scratch.0.join("empty");
    fs::create_dir_all(&empty).unwrap();
    build(&options(Path::new(CATALOG), &empty)).unwrap();
    build(&options(Path::new(CATALOG), &empty)).unwrap();

    let mut forced = options(Path::new(CATALOG), &out);
    forced.force = true;
    build(&forced).unwrap();
    assert!(!out.join("thesis.tex").exists());
    assert!(out.join("index.html").exists());
}

#[test]
fn a_marker_file_with_other_content_does_not_make_a_folder_ours() {
    let scratch = Scratch::new("marker");
    let out = scratch.0.join("mine");
    fs::create_dir_all(&out).unwrap();
    fs::write(out.join("thesis.tex"), "precious").unwrap();
    for fake in [
        "",
        "written by hand\n",
        "This folder was written by `ludotheca build`.",
    ] {
        fs::write(out.join(".ludotheca-site"), fake).unwrap();
        let err = build(&options(Path::new(CATALOG), &out)).unwrap_err();
        assert!(matches!(err, BuildError::Output(_)), "{err:?}");
        let message = err.to_string();
        assert!(
            message.contains("--force") && message.contains("is not the file ludotheca writes"),
            "{message}"
        );
        assert_eq!(
            fs::read_to_string(out.join("thesis.tex")).unwrap(),
            "precious"
        );
    }
    // A folder under the marker's name is not a marker either.
    fs::remove_file(out.join(".ludotheca-site")).unwrap();
    fs::create_dir(out.join(".ludotheca-site")).unwrap();
    assert!(build(&options(Path::new(CATALOG), &out)).is_err());
    assert!(out.join("thesis.tex").exists());

    // The marker of a site ludotheca built is recognised, and the site is rebuilt in place.
    let site = scratch.0.join("site");
    build(&options(Path::new(CATALOG), &site)).unwrap();
    build(&options(Path::new(CATALOG), &site)).unwrap();
    assert!(site.join("index.html").exists());
}

#[test]
fn a_base_url_other_than_http_is_a_usage_error() {
    let scratch = Scratch::new("base-url");
    let out = scratch.0.join("site");
    let out_arg = out.to_str().unwrap();
    for bad in [
        "javascript:alert(1)",
        "JavaScript://example.org/%0Aalert(1)",
        "data:text/html,<script>alert(1)</script>",
        "file:///etc/",
        "games/",
        "https://",
    ] {
        let run = common::ludotheca(&["build", "--quiet", "--out", out_arg, "--base-url", bad]);
        assert_eq!(run.status.code(), Some(2), "{bad}");
        let message = common::stderr(&run);
        assert!(message.contains("--base-url"), "{bad}: {message}");
        assert!(
            message.contains("is not an http or https address"),
            "{bad}: {message}"
        );
        assert!(!out.exists(), "{bad}: nothing is built");
    }
    let run = common::ludotheca(&[
        "build",
        "--quiet",
        "--out",
        out_arg,
        "--base-url",
        "HTTPS://example.org/games",
    ]);
    assert_eq!(run.status.code(), Some(0), "{}", common::stderr(&run));
    let sitemap = fs::read_to_string(out.join("sitemap.xml")).unwrap();
    assert!(
        sitemap.contains("<loc>HTTPS://example.org/games/index.html</loc>"),
        "{sitemap}"
    );
}

#[cfg(unix)]
#[test]
fn symbolic_links_and_the_catalog_itself_are_refused() {
    let scratch = Scratch::new("links");
    let real = scratch.0.join("real");
    fs::create_dir_all(&real).unwrap();
    fs::write(real.join("keep.txt"), "keep").unwrap();
    let link = scratch.0.join("link");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let mut forced = options(Path::new(CATALOG), &link);
    forced.force = true;
    assert!(build(&forced).is_err());
    assert!(real.join("keep.txt").exists());

    let catalog = scratch.0.join("catalog");
    copy_tree(Path::new(CATALOG), &catalog);
    let mut over = options(&catalog, &catalog);
    over.force = true;
    assert!(build(&over).is_err());
    let mut parent = options(&catalog, &scratch.0);
    parent.force = true;
    assert!(build(&parent).is_err());
    let inside = options(&catalog, &catalog.join("site"));
    assert!(build(&inside).is_err());
    assert!(!catalog.join("site").exists());
    assert!(catalog.join("ludotheca.toml").exists());
}

/// The first item the home page lists under "Recently added".
fn first_recent(site: &BTreeMap<String, Vec<u8>>) -> String {
    let home = String::from_utf8_lossy(&site["index.html"]).into_owned();
    let recent = &home[home.find("id=\"recent\"").expect("a recent section")..];
    let href = &recent[recent.find("href=\"").expect("a link") + 6..];
    href[..href.find('"').unwrap()].to_string()
}

#[test]
fn recently_added_follows_record_dates_and_never_file_times() {
    let scratch = Scratch::new("recent");
    let catalog = scratch.0.join("catalog");
    copy_tree(Path::new(CATALOG), &catalog);
    let record = catalog.join("games/terhuchu/record.xml");
    let text = fs::read_to_string(&record).unwrap().replace(
        "</record>",
        "  <dcterms:dateSubmitted xsi:type=\"dcterms:W3CDTF\">2026-03-01</dcterms:dateSubmitted>\n</record>",
    );
    fs::write(&record, text).unwrap();
    let out = scratch.0.join("site");
    build(&options(&catalog, &out)).unwrap();
    let first = snapshot(&out);
    assert_eq!(first_recent(&first), "games/terhuchu/index.html");
    let oai = String::from_utf8_lossy(&first["oai-pmh.xml"]).into_owned();
    assert!(
        oai.contains("<oai:identifier>oai:ludotheca.example.org:terhuchu</oai:identifier>\n        <oai:datestamp>2026-03-01</oai:datestamp>"),
        "{oai}"
    );

    // Another record touched long after: the same catalog, the same site, byte for byte.
    let touched = Command::new("touch")
        .args(["-d", "2030-01-01"])
        .arg(catalog.join("games/bagh-chal/record.xml"))
        .status()
        .unwrap();
    assert!(touched.success());
    let again = scratch.0.join("again");
    build(&options(&catalog, &again)).unwrap();
    let mut first = first;
    first.remove(".ludotheca-manifest");
    assert!(
        common::site_snapshot(&again) == first,
        "file times changed the site"
    );
}

#[test]
fn long_and_clashing_tag_names_each_get_their_own_page() {
    let scratch = Scratch::new("names");
    let catalog = scratch.0.join("catalog");
    copy_tree(Path::new(CATALOG), &catalog);
    let record = catalog.join("games/bagh-chal/record.xml");
    let long = "A very long subject ".repeat(30);
    let text = fs::read_to_string(&record).unwrap().replace(
        "</record>",
        &format!(
            "  <dcterms:subject>{long}</dcterms:subject>\n  <dcterms:subject>hunt-game</dcterms:subject>\n  <dcterms:subject>Hunt game 2</dcterms:subject>\n</record>"
        ),
    );
    fs::write(&record, text).unwrap();
    let out = scratch.0.join("site");
    build(&options(&catalog, &out)).expect("a 600-character subject builds");
    let site = snapshot(&out);
    // One page per tag name, each showing its own name.
    for name in ["Hunt game", "hunt-game", "Hunt game 2", long.trim()] {
        let pages: Vec<&String> = site
            .iter()
            .filter(|(path, bytes)| {
                path.starts_with("tags/")
                    && path.matches('/').count() == 2
                    && String::from_utf8_lossy(bytes).contains(&format!("<h1>{name}</h1>"))
            })
            .map(|(path, _)| path)
            .collect();
        assert_eq!(pages.len(), 1, "{name}: {pages:?}");
        assert!(pages[0].len() < 120, "{}", pages[0]);
    }
}

#[test]
fn the_configured_address_and_contact_reach_the_sitemap_and_oai_file() {
    let scratch = Scratch::new("configured");
    let catalog = scratch.0.join("catalog");
    copy_tree(Path::new(CATALOG), &catalog);
    // The shipped catalog's own address and contact give way to the test's.
    common::configure(
        &catalog,
        "base_url = \"https://archive.example.org/games\"\ncontact = \"editors@archive.example.org\"\n",
    );
    let out = scratch.0.join("site");
    build(&options(&catalog, &out)).expect("the catalog builds");
    let sitemap = fs::read_to_string(out.join("sitemap.xml")).unwrap();
    assert!(
        sitemap.contains("<loc>https://archive.example.org/games/games/terhuchu/index.html</loc>"),
        "{sitemap}"
    );
    let oai = fs::read_to_string(out.join("oai-pmh.xml")).unwrap();
    assert!(oai.contains("<oai:adminEmail>editors@archive.example.org</oai:adminEmail>"));
    assert!(
        oai.contains("<oai:baseURL>https://archive.example.org/games/oai-pmh.xml</oai:baseURL>"),
        "{oai}"
    );

    // The command line's address wins over the configuration's.
    let out2 = scratch.0.join("site2");
    let mut opts = options(&catalog, &out2);
    opts.base_url = Some("https://mirror.example.net/".into());
    build(&opts).expect("the catalog builds");
    let sitemap = fs::read_to_string(out2.join("sitemap.xml")).unwrap();
    assert!(
        sitemap.contains("<loc>https://mirror.example.net/index.html</loc>"),
        "{sitemap}"
    );
}

// ---------------------------------------------------------------------------------------------------------------
// Long lists are paged: no list page grows with the catalog.

/// A catalog of `copies` copies of the shipped one: copy k of an item is `<id>-<k>`, titled `... (copy k)`,
/// and its references point at the items of its own copy, so every copy is as linked as the original.
fn copied_catalog(root: &Path, copies: usize) {
    let mut items = Vec::new();
    for group in ["games", "boards", "evidence"] {
        for entry in fs::read_dir(Path::new(CATALOG).join(group)).unwrap() {
            let entry = entry.unwrap();
            if entry.path().join("record.xml").is_file() {
                items.push((group, entry.file_name().to_string_lossy().to_string()));
            }
        }
    }
    items.sort();
    fs::create_dir_all(root).unwrap();
    for name in ["ludotheca.toml", "sources.bib", "about.md"] {
        fs::copy(Path::new(CATALOG).join(name), root.join(name)).unwrap();
    }
    for k in 0..copies {
        for (group, id) in &items {
            let from = Path::new(CATALOG).join(group).join(id);
            let to = root.join(group).join(format!("{id}-{k}"));
            copy_tree(&from, &to);
            let mut xml = fs::read_to_string(from.join("record.xml")).unwrap();
            for (_, other) in &items {
                for attr in ["ref", "game"] {
                    xml = xml.replace(
                        &format!("{attr}=\"{other}\""),
                        &format!("{attr}=\"{other}-{k}\""),
                    );
                }
            }
            let title_end = xml.find("</dcterms:title>").unwrap();
            xml.insert_str(title_end, &format!(" (copy {k})"));
            fs::write(to.join("record.xml"), xml).unwrap();
        }
    }
}

/// Build `catalog` with the command-line program and pages of `page_size` rows or links.
fn build_paged(catalog: &Path, out: &Path, page_size: usize) -> BTreeMap<String, Vec<u8>> {
    let status = Command::new(env!("CARGO_BIN_EXE_ludotheca"))
        .args(["build", "--quiet", "--catalog"])
        .arg(catalog)
        .arg("--out")
        .arg(out)
        .env("LUDOTHECA_PAGE_SIZE", page_size.to_string())
        .status()
        .unwrap();
    assert!(status.success(), "the copied catalog builds");
    snapshot(out)
}

/// The site path an `href` on `page` leads to, without its fragment.
fn target_of(page: &str, href: &str) -> String {
    resolve(page, href.split('#').next().unwrap()).unwrap()
}

/// The hrefs of the `<a>` elements between `start` and the next `end` of `html` (empty when `start` is absent).
fn links_between(html: &str, start: &str, end: &str) -> Vec<String> {
    let Some(from) = html.find(start) else {
        return Vec::new();
    };
    let rest = &html[from..];
    let part = &rest[..rest.find(end).unwrap_or(rest.len())];
    let (tags, _) = parse_html(part);
    tags.iter()
        .filter(|t| t.name == "a")
        .filter_map(|t| t.attr("href").map(str::to_string))
        .collect()
}

/// The pages of the paged list whose first page is `<folder>/index.html`, in order; checks that each names
/// itself as current, links to its neighbours, and that there are no others.
fn list_pages<'s>(site: &'s BTreeMap<String, Vec<u8>>, folder: &str) -> Vec<(String, &'s str)> {
    let mut pages = Vec::new();
    let mut n = 1;
    loop {
        let path = if n == 1 {
            format!("{folder}/index.html")
        } else {
            format!("{folder}/page/{n}/index.html")
        };
        let Some(bytes) = site.get(&path) else { break };
        pages.push((path, std::str::from_utf8(bytes).unwrap()));
        n += 1;
    }
    let count = pages.len();
    assert!(count >= 1, "no first page of {folder}");
    let prefix = format!("{folder}/page/");
    let extra = site
        .keys()
        .filter(|k| {
            k.starts_with(&prefix) && k.matches('/').count() == folder.matches('/').count() + 3
        })
        .count();
    assert_eq!(
        extra,
        count - 1,
        "{folder}: pages beyond the last linked one"
    );
    for (n, (path, html)) in pages.iter().enumerate() {
        let (tags, _) = parse_html(html);
        let nav = tags
            .iter()
            .any(|t| t.name == "nav" && t.attr("aria-label") == Some("Pages"));
        assert_eq!(
            nav,
            count > 1,
            "{path}: page navigation only on a list of several pages"
        );
        if count == 1 {
            continue;
        }
        let current: Vec<String> = tags
            .iter()
            .filter(|t| t.name == "a" && t.attr("aria-current") == Some("page"))
            .filter_map(|t| t.attr("href"))
            .map(|h| target_of(path, h))
            .collect();
        assert!(current.contains(path), "{path}: the current page is marked");
        for (rel, want) in [
            ("prev", n.checked_sub(1)),
            ("next", Some(n + 1).filter(|&m| m < count)),
        ] {
            let found: Vec<String> = tags
                .iter()
                .filter(|t| t.attr("rel") == Some(rel))
                .filter_map(|t| t.attr("href"))
                .map(|h| target_of(path, h))
                .collect();
            match want {
                Some(m) => {
                    assert!(!found.is_empty(), "{path}: no rel={rel}");
                    assert!(
                        found.iter().all(|f| *f == pages[m].0),
                        "{path}: rel={rel} -> {found:?}"
                    );
                }
                None => assert!(found.is_empty(), "{path}: rel={rel} on an end page"),
            }
        }
    }
    pages
}

/// Every target of `links` (resolved from `page`), counted.
fn count_targets(counts: &mut BTreeMap<String, usize>, page: &str, links: &[String]) {
    for href in links {
        *counts.entry(target_of(page, href)).or_default() += 1;
    }
}

#[test]
fn long_lists_are_paged_bounded_and_complete() {
    const SIZE: usize = 7;
    let scratch = Scratch::new("paged");
    let catalog = scratch.0.join("catalog");
    copied_catalog(&catalog, 30);
    let site = build_paged(&catalog, &scratch.0.join("site"), SIZE);
    let items: Vec<String> = site
        .keys()
        .filter(|k| {
            (k.starts_with("games/") || k.starts_with("boards/") || k.starts_with("evidence/"))
                && k.ends_with("/index.html")
                && k.matches('/').count() == 2
        })
        .cloned()
        .collect();
    assert!(items.len() >= 300, "{} items", items.len());
    let games: Vec<&String> = items.iter().filter(|k| k.starts_with("games/")).collect();

    // Every list page is small, whatever the size of the catalog: with 7 rows or links a page, a few tens of
    // kilobytes (a single page of this catalog's browse table would be several hundred).
    for (page, html) in html_files(&site) {
        if items.contains(page) {
            continue;
        }
        assert!(html.len() < 48_000, "{page} is {} bytes", html.len());
    }

    // Browse: every item exactly once over its pages, at most SIZE a page.
    let mut counts = BTreeMap::new();
    let pages = list_pages(&site, "browse");
    assert!(pages.len() >= items.len() / SIZE);
    for (path, html) in &pages {
        let links = links_between(html, "<tbody>", "</tbody>");
        assert!(links.len() <= SIZE, "{path}: {} rows", links.len());
        count_targets(&mut counts, path, &links);
    }
    assert_eq!(counts.keys().cloned().collect::<Vec<_>>(), items);
    assert!(
        counts.values().all(|&n| n == 1),
        "an item on two browse pages"
    );

    // Every facet value of browse has a paged list of its own: the kinds together hold every item once.
    let mut counts = BTreeMap::new();
    for (kind, folder) in [
        ("game", "games/"),
        ("board", "boards/"),
        ("evidence", "evidence/"),
    ] {
        for (path, html) in list_pages(&site, &format!("browse/kind/{kind}")) {
            let links = links_between(html, "<tbody>", "</tbody>");
            assert!(links.len() <= SIZE);
            assert!(
                links
                    .iter()
                    .all(|l| target_of(&path, l).starts_with(folder))
            );
            count_targets(&mut counts, &path, &links);
        }
    }
    assert_eq!(counts.keys().cloned().collect::<Vec<_>>(), items);
    assert!(counts.values().all(|&n| n == 1));

    // Rules at a glance: every ruleset exactly once, every game with rules on it.
    let mut rulesets = BTreeMap::new();
    let mut rule_games = BTreeMap::new();
    for (path, html) in list_pages(&site, "rules") {
        let links = links_between(html, "<tbody>", "</tbody>");
        // A row links its game, then its ruleset.
        for pair in links.chunks(2) {
            *rulesets
                .entry(format!(
                    "{}#{}",
                    target_of(&path, &pair[1]),
                    pair[1].split('#').nth(1).unwrap()
                ))
                .or_insert(0) += 1;
            *rule_games.entry(target_of(&path, &pair[0])).or_insert(0) += 1;
        }
    }
    assert!(rulesets.values().all(|&n| n == 1), "a ruleset listed twice");
    assert_eq!(rule_games.keys().collect::<Vec<_>>(), games);

    // Variants: every game once in the list; the graph on the first page only, and bounded.
    let mut counts = BTreeMap::new();
    for (path, html) in list_pages(&site, "variants") {
        let list = links_between(html, "<ul class=\"plain variants-list\">", "</ul>");
        let (tags, _) = parse_html(html);
        let nodes = tags.iter().filter(|t| t.name == "rect").count();
        if path == "variants/index.html" {
            assert!(nodes > 0 && nodes <= SIZE, "{nodes} games in the graph");
        } else {
            assert_eq!(nodes, 0, "{path}: a graph beyond the first page");
        }
        // Each entry starts with its game; the rest of an entry links the games it relates to.
        let (list_tags, _) = parse_html(&html[html.find("variants-list").unwrap()..]);
        let mut firsts = Vec::new();
        let mut at_start = false;
        for t in list_tags {
            match t.name.as_str() {
                "li" => at_start = true,
                "a" if at_start => {
                    firsts.push(t.attr("href").unwrap().to_string());
                    at_start = false;
                }
                "ul" | "nav" => break,
                _ => {}
            }
        }
        assert!(firsts.len() <= SIZE && firsts.len() <= list.len());
        count_targets(&mut counts, &path, &firsts);
    }
    assert_eq!(counts.keys().collect::<Vec<_>>(), games);
    assert!(counts.values().all(|&n| n == 1));

    // Tags, places, people, sources: every index lists every page once, and every page lists each of its
    // items once, at most SIZE a page; the sizes agree with the counts of the index.
    for folder in ["tags", "places", "people", "sources"] {
        let mut listed = BTreeMap::new();
        for (path, html) in list_pages(&site, folder) {
            let links = links_between(html, "<ul class=\"index-list\">", "</ul>");
            assert!(links.len() <= SIZE);
            count_targets(&mut listed, &path, &links);
        }
        assert!(
            listed.values().all(|&n| n == 1),
            "{folder}: a page listed twice"
        );
        let depth = folder.matches('/').count() + 2;
        let own: Vec<&String> = site
            .keys()
            .filter(|k| k.starts_with(&format!("{folder}/")) && k.matches('/').count() == depth)
            .filter(|k| k.ends_with("/index.html") && !k.starts_with(&format!("{folder}/page/")))
            .collect();
        assert_eq!(
            listed.keys().collect::<Vec<_>>(),
            own,
            "{folder}: index and pages differ"
        );
        let mut paged_somewhere = false;
        for page in own {
            let list_folder = page.trim_end_matches("/index.html");
            let mut cited = BTreeMap::new();
            let pages = list_pages(&site, list_folder);
            paged_somewhere |= pages.len() > 1;
            for (path, html) in &pages {
                let main = &html[html.find("<main").unwrap()..html.find("</main>").unwrap()];
                // One entry a list item: its link and note (a work may be cited by one item for two terms).
                let mut on_page = 0;
                for li in main.split("<li>").skip(1) {
                    let li = &li[..li.find("</li>").unwrap_or(li.len())];
                    let links = links_between(li, "<a", "\n");
                    let Some(href) = links.first() else { continue };
                    if !items.contains(&target_of(path, href)) {
                        continue;
                    }
                    on_page += 1;
                    *cited.entry(li.replace("../", "")).or_insert(0) += 1;
                }
                assert!(on_page <= SIZE, "{path}: {on_page} items");
            }
            assert!(
                cited.values().all(|&n| n == 1),
                "{list_folder}: an item on two of its pages"
            );
        }
        if folder != "sources" {
            assert!(
                paged_somewhere,
                "{folder}: no page of this catalog runs to several pages"
            );
        }
    }

    // Names not yet catalogued: every mention once.
    let mut mentions = 0;
    for (_, html) in list_pages(&site, "uncatalogued") {
        let links = links_between(html, "<dl class=\"uncatalogued\">", "</dl>");
        assert!(links.len() <= SIZE);
        mentions += links.len();
    }
    assert!(mentions > SIZE, "{mentions} mentions");

    let checked = check_links(&site);
    assert!(checked > 1000, "only {checked} links checked");

    // The same catalog gives the same pages (item pages carry the day of the build in their citations).
    let again = build_paged(&catalog, &scratch.0.join("again"), SIZE);
    for (path, bytes) in &site {
        if path.ends_with(".html") && !items.contains(path) {
            assert!(
                again.get(path) == Some(bytes),
                "{path} differs between two builds"
            );
        }
    }
}

#[test]
fn the_shipped_catalog_fits_on_single_pages() {
    let (_scratch, site) = build_shipped();
    for (page, html) in html_files(&site) {
        assert!(!page.contains("/page/"), "{page}: a second page");
        assert!(
            !html.contains("aria-label=\"Pages\""),
            "{page}: page navigation"
        );
        assert!(
            !html.contains("data-facet-lists"),
            "{page}: lists of browse facet values"
        );
    }
    assert!(!site.keys().any(|k| k.starts_with("browse/kind/")));
}

/// A work one item cites twice for the same term lists the item once on the work's page; cited for another
/// term too, the item is listed again, under that term's label.
#[test]
fn a_source_page_lists_each_citing_link_once() {
    let scratch = Scratch::new("cited-twice");
    let catalog = scratch.0.join("catalog");
    copy_tree(Path::new(CATALOG), &catalog);
    let record = catalog.join("games/bagh-chal/record.xml");
    let text = fs::read_to_string(&record).unwrap();
    let line = "  <dcterms:source cite=\"baghchal-common\"/>\n";
    assert!(text.contains(line));
    let listed = |name: &str| {
        let out = scratch.0.join(name);
        build(&options(&catalog, &out)).expect("the catalog builds");
        let page = fs::read_to_string(out.join("sources/baghchal-common/index.html")).unwrap();
        let item = "href=\"../../games/bagh-chal/index.html\"";
        (page.matches(item).count(), squash(&page))
    };
    let (once, _) = listed("once");
    assert_eq!(once, 1);
    let twice = format!("{line}{line}");
    fs::write(&record, text.replacen(line, &twice, 1)).unwrap();
    assert_eq!(listed("twice").0, 1, "the same citation again adds no link");
    let more = format!("{line}  <dcterms:references cite=\"baghchal-common\"/>\n");
    fs::write(&record, text.replacen(line, &more, 1)).unwrap();
    let (count, page) = listed("another-term");
    assert_eq!(count, 2, "cited for another term: listed again");
    assert!(page.contains("References"), "{page}");
}
