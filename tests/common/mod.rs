//! What the integration tests share: running the `ludotheca` binary as a person would (from the package folder,
//! so that printed paths are stable), scratch folders, and whole-tree copies and snapshots.

// Each test file uses its own part of this module.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

/// What `ludotheca build --catalog CATALOG --out OUT` asks the library for.
pub fn build_options(catalog: &Path, out: &Path) -> ludotheca::site::BuildOptions {
    ludotheca::site::BuildOptions {
        catalog: catalog.to_path_buf(),
        out: out.to_path_buf(),
        force: false,
        progress: false,
        base_url: None,
    }
}

/// Give a copied catalog's `ludotheca.toml` these top-level keys (`base_url = "..."` lines) in place of the
/// shipped address and mailbox.
pub fn configure(catalog: &Path, keys: &str) {
    let config = catalog.join("ludotheca.toml");
    let text: String = fs::read_to_string(&config)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with("base_url") && !l.starts_with("contact"))
        .map(|l| format!("{l}\n"))
        .collect();
    // Top-level keys go before the first table of labels.
    fs::write(
        &config,
        text.replacen("\n[[labels]]", &format!("\n{keys}\n[[labels]]"), 1),
    )
    .unwrap();
}

pub fn ludotheca(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ludotheca"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the ludotheca binary runs")
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A fresh folder under the system temp dir, removed when dropped.
pub struct Scratch(pub PathBuf);

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let path = std::env::temp_dir().join(format!(
            "ludotheca-test-{}-{name}-{}",
            std::process::id(),
            COUNT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = fs::remove_dir_all(&path);
        fs::create_dir_all(&path).unwrap();
        Scratch(path)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// Every file under `dir`, by relative path with `/`, and its bytes (but a site's record of its folders).
pub fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                let rel = path
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                // A site's record of its folders holds their inodes and times, which differ from one folder to
                // another like the manifest's record of each file: the build's own, never published, and
                // checked where a test asks whether a site is whole.
                if rel == ".ludotheca-folders" {
                    continue;
                }
                let mut bytes = fs::read(&path).unwrap();
                if rel.ends_with(".ludotheca-manifest") {
                    bytes = without_choice_of_pages(bytes);
                }
                out.insert(rel, bytes);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// A site's manifest with what its first line records for the next build's choice of pages (`ludotheca-manifest
/// 5 289406976 1796000000:6930`: the peak of memory, the last large page found slow to supply) read as unknown
/// (`- -`): the figures differ from one build to the next as the process's memory does, like a timing, while
/// the rest of the manifest must stay as it was when nothing changed.
fn without_choice_of_pages(manifest: Vec<u8>) -> Vec<u8> {
    const HEADER: &[u8] = b"ludotheca-manifest 5 ";
    let Some(rest) = manifest.strip_prefix(HEADER) else {
        return manifest;
    };
    let end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
    [HEADER, b"- -", &rest[end..]].concat()
}

/// [`snapshot`] of a site, without its manifest: besides the files' hashes, the manifest records each file's
/// inode and time of writing, so two builds of the same catalog into two folders differ there and only there.
pub fn site_snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut files = snapshot(dir);
    files.remove(".ludotheca-manifest");
    files
}

pub fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), target).unwrap();
        }
    }
}

// A small HTML reader: enough to list tags with their attributes and the text, for pages this crate writes.

#[derive(Debug)]
pub struct Tag {
    pub name: String,
    pub attrs: Vec<(String, String)>,
}

impl Tag {
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

pub fn decode(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&amp;", "&")
}

/// Start tags (with decoded attribute values) and the text outside tags. The contents of `<script>` elements
/// are skipped to their end tag, as a browser does.
pub fn parse_html(html: &str) -> (Vec<Tag>, String) {
    let bytes = html.as_bytes();
    let mut tags = Vec::new();
    let mut text = String::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'<' {
            let next = html[i..].find('<').map_or(html.len(), |n| i + n);
            text.push_str(&html[i..next]);
            i = next;
            continue;
        }
        if html[i..].starts_with("<!--") {
            i = html[i..].find("-->").map_or(html.len(), |n| i + n + 3);
            continue;
        }
        if html[i..].starts_with("</") || html[i..].starts_with("<!") {
            let end = html[i..].find('>').map_or(html.len(), |n| i + n + 1);
            if !is_inline(&html[(i + 2).min(end)..end.saturating_sub(1)]) {
                text.push(' ');
            }
            i = end;
            continue;
        }
        // A start tag: name, then attributes until `>`.
        let mut j = i + 1;
        while j < bytes.len() && (bytes[j].is_ascii_alphanumeric() || bytes[j] == b'-') {
            j += 1;
        }
        let name = html[i + 1..j].to_ascii_lowercase();
        let mut attrs = Vec::new();
        loop {
            while j < bytes.len() && (bytes[j].is_ascii_whitespace() || bytes[j] == b'/') {
                j += 1;
            }
            if j >= bytes.len() || bytes[j] == b'>' {
                j += 1;
                break;
            }
            let start = j;
            while j < bytes.len() && !b" \t\n=>/".contains(&bytes[j]) {
                j += 1;
            }
            let attr = html[start..j].to_ascii_lowercase();
            let mut value = String::new();
            if j < bytes.len() && bytes[j] == b'=' {
                j += 1;
                let quote = bytes[j];
                if quote == b'"' || quote == b'\'' {
                    let end = html[j + 1..]
                        .find(quote as char)
                        .map_or(html.len(), |n| j + 1 + n);
                    value = decode(&html[j + 1..end]);
                    j = end + 1;
                } else {
                    let start = j;
                    while j < bytes.len() && !bytes[j].is_ascii_whitespace() && bytes[j] != b'>' {
                        j += 1;
                    }
                    value = decode(&html[start..j]);
                }
            }
            attrs.push((attr, value));
        }
        i = j.min(html.len());
        if name == "script" {
            let end = html[i..].find("</script").map_or(html.len(), |n| i + n);
            i = end;
        }
        if !is_inline(&name) {
            text.push(' ');
        }
        tags.push(Tag { name, attrs });
    }
    (tags, decode(&text))
}

/// Inline elements join their text to what surrounds it; everything else separates words.
pub fn is_inline(name: &str) -> bool {
    matches!(
        name.trim().to_ascii_lowercase().as_str(),
        "a" | "em" | "strong" | "span" | "code" | "i" | "b" | "del" | "abbr"
    )
}

pub fn html_files(site: &BTreeMap<String, Vec<u8>>) -> Vec<(&String, String)> {
    site.iter()
        .filter(|(p, _)| p.ends_with(".html"))
        .map(|(p, b)| (p, String::from_utf8(b.clone()).unwrap()))
        .collect()
}

/// Every page of a built site, read as a browser would, holds no script that came from the data: no
/// `<script>` element but the site's own files under `static/` and JSON data blocks (which must parse and
/// cannot close their element), no `on*=` handler, no `javascript:`, `vbscript:` or `data:` address, none of
/// the elements that load or run content (`iframe`, `object`, `embed`, `textarea`), and no image but the
/// site's own diagram files (which hold no script or link). Returns how many script elements were seen.
pub fn assert_no_script_from_data(site: &BTreeMap<String, Vec<u8>>) -> usize {
    let mut scripts = 0;
    for (page, html) in html_files(site) {
        let (tags, _) = parse_html(&html);
        for tag in &tags {
            for (name, value) in &tag.attrs {
                assert!(
                    !name.starts_with("on"),
                    "{page}: event handler attribute {name} on <{}>",
                    tag.name
                );
                if !matches!(
                    name.as_str(),
                    "href" | "src" | "action" | "formaction" | "xlink:href"
                ) {
                    continue;
                }
                // Browsers drop tabs, newlines and leading spaces from a URL before reading its scheme.
                let url: String = value
                    .trim()
                    .to_ascii_lowercase()
                    .chars()
                    .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
                    .collect();
                assert!(
                    !url.starts_with("javascript:")
                        && !url.starts_with("vbscript:")
                        && !url.starts_with("data:"),
                    "{page}: {name}={value:?}"
                );
            }
            assert!(
                !matches!(
                    tag.name.as_str(),
                    "iframe" | "object" | "embed" | "textarea"
                ),
                "{page}: <{}>",
                tag.name
            );
            // Images: only the site's own diagram files, which the site draws itself.
            if tag.name == "img" {
                let src = tag.attr("src").unwrap_or_default();
                let file = src.trim_start_matches("../");
                assert!(
                    file.starts_with("diagrams/")
                        && file.ends_with(".svg")
                        && file[9..file.len() - 4]
                            .bytes()
                            .all(|b| b.is_ascii_hexdigit()),
                    "{page}: an image that is not one of the site's diagrams: {tag:?}"
                );
                let resolved = resolve(page, src);
                let svg = site
                    .get(&resolved)
                    .unwrap_or_else(|| panic!("{page}: {src} is not in the site"));
                let svg = String::from_utf8_lossy(svg);
                assert!(
                    !svg.contains("<script") && !svg.contains(" on") && !svg.contains("href"),
                    "{resolved}: a diagram with script or links"
                );
            }
            if tag.name == "script" {
                scripts += 1;
                // Allowed: the site's own script files under static/, and JSON data blocks (checked below).
                let src = tag.attr("src");
                let data = matches!(
                    tag.attr("type"),
                    Some("application/ld+json" | "application/json")
                );
                let ours = src.is_some_and(|s| {
                    s.trim_start_matches("../").starts_with("static/") && s.ends_with(".js")
                });
                assert!(
                    data != src.is_some() && (data || ours),
                    "{page}: unexpected script {tag:?}"
                );
            }
        }
        assert!(
            !html.contains("alert(") || !html.contains("<script>alert"),
            "{page}"
        );
        // A JSON data block must not be able to end its element: no raw `<` in it, and it must parse.
        for opening in [
            "<script type=\"application/ld+json\"",
            "<script type=\"application/json\"",
        ] {
            for block in html.split(opening).skip(1) {
                let body = &block[block.find('>').unwrap() + 1..block.find("</script>").unwrap()];
                assert!(!body.contains('<'), "{page}: a JSON script holds a raw `<`");
                serde_json::from_str::<serde_json::Value>(body).expect("JSON data parses");
            }
        }
    }
    scripts
}

/// The hidden entries of a folder: what a build may have left beside its output.
pub fn hidden_entries(dir: &Path) -> Vec<String> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect()
}

/// What builds left beside their output folders in `dir`, other than each output's standby (the site the last
/// build replaced, kept for the next one to bring up to date).
pub fn leftovers(dir: &Path) -> Vec<String> {
    hidden_entries(dir)
        .into_iter()
        .filter(|n| !n.ends_with(".ludotheca-standby"))
        .collect()
}

/// The site path a relative link on `page` leads to (`games/x/index.html` + `../../a/b` = `a/b`).
pub fn resolve(page: &str, link: &str) -> String {
    let mut parts: Vec<&str> = page.split('/').collect();
    parts.pop();
    for part in link.split('/') {
        match part {
            ".." => {
                parts.pop();
            }
            "." | "" => {}
            _ => parts.push(part),
        }
    }
    parts.join("/")
}
