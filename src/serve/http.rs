//! Answering one request: a file of the site, the live-reload script or its event stream, or 404. How the
//! request is read and the answer sent is the connection's business (`server.rs`).
//!
//! Only files inside the output folder are ever sent. A request path is decoded first and then taken apart, so
//! an encoded `%2e%2e` or `%2f` is judged like the plain one; any `..`, `.`, empty or hidden segment, a
//! backslash or a NUL is refused; and the file found must still lie inside the site once symbolic links are
//! resolved. Every refusal is a plain 404, which says nothing of what lies outside. Folders are never listed:
//! a folder's address serves its `index.html` or nothing.

use std::fs::{self, File};
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use percent_encoding::percent_decode_str;

use super::live::{Live, SCRIPT, Stream};

/// Addresses the server answers itself; the site has no folder of this name (it would be hidden behind them).
const EVENTS: &str = "/__ludotheca/events";
const LIVE_SCRIPT: &str = "/__ludotheca/live.js";

/// What is served: the output folder, found again at every request (each build swaps a new folder in under the
/// same name), and the state of the builds that pages follow.
#[derive(Clone)]
pub struct Site {
    root: Arc<PathBuf>,
    live: Arc<Live>,
}

/// What a request is answered with.
pub enum Reply {
    Response(Response),
    /// The event stream: its head, then the versions for as long as the page stays open.
    Events(Stream),
}

/// A whole response; the connection adds the framing (length, date, connection) when it sends it.
pub struct Response {
    pub status: u16,
    pub headers: Vec<(&'static str, String)>,
    pub body: Vec<u8>,
}

impl Response {
    fn new(status: u16, body: Vec<u8>) -> Response {
        Response {
            status,
            headers: Vec::new(),
            body,
        }
    }

    /// A short message as plain text, for what is refused.
    pub fn text(status: u16, message: &str) -> Response {
        Response::new(status, message.as_bytes().to_vec())
            .with("Content-Type", "text/plain; charset=utf-8")
    }

    fn with(mut self, name: &'static str, value: &str) -> Response {
        self.headers.push((name, value.to_string()));
        self
    }

    /// This response, or a bodiless 304 when the client already holds it (`If-None-Match` names its ETag), so
    /// that a page reloading after a build fetches again only what the build changed.
    pub fn unless_held(mut self, if_none_match: Option<&str>) -> Response {
        let Some(held) = if_none_match else {
            return self;
        };
        let Some((_, tag)) = self.headers.iter().find(|(name, _)| *name == "ETag") else {
            return self;
        };
        let matches = held
            .split(',')
            .map(|t| t.trim().trim_start_matches("W/"))
            .any(|t| t == "*" || t == tag);
        if self.status == 200 && matches {
            self.status = 304;
            self.body = Vec::new();
            self.headers.retain(|(name, _)| *name != "Content-Type");
        }
        self
    }
}

/// What a request path names in the site.
#[derive(Debug, PartialEq, Eq)]
enum Found {
    File(PathBuf),
    /// A folder asked for without its final `/`: its relative links would resolve one level up.
    Folder(String),
    Missing,
}

impl Site {
    pub fn new(out: &Path, live: Arc<Live>) -> Site {
        Site {
            root: Arc::new(out.to_path_buf()),
            live,
        }
    }

    /// The answer to a request whose head was read whole; `target` is the request target as sent.
    pub fn answer(&self, method: &str, target: &str) -> Reply {
        let live = &self.live;
        if method != "GET" && method != "HEAD" {
            return Reply::Response(
                Response::text(405, "Only GET and HEAD are served.\n").with("Allow", "GET, HEAD"),
            );
        }
        let (path, query) = match target.find(['?', '#']) {
            Some(at) => target.split_at(at),
            None => (target, ""),
        };
        if path == EVENTS && method == "GET" {
            return match live.open_stream() {
                Some(stream) => Reply::Events(stream),
                None => Reply::Response(Response::text(503, "Too many open pages.\n")),
            };
        }
        if path == LIVE_SCRIPT {
            return Reply::Response(
                Response::new(200, SCRIPT.as_bytes().to_vec())
                    .with("Content-Type", "text/javascript; charset=utf-8")
                    .with("Cache-Control", "no-cache"),
            );
        }
        let response = match find(&self.root, path) {
            Found::File(file) => file_response(&file, live),
            Found::Folder(_) => {
                Some(Response::new(301, Vec::new()).with("Location", &format!("{path}/{query}")))
            }
            Found::Missing => None,
        };
        Reply::Response(response.unwrap_or_else(|| not_found(live)))
    }
}

fn file_response(file: &Path, live: &Live) -> Option<Response> {
    let kind = content_type(file);
    let bytes = fs::read(file).ok()?;
    let bytes = if kind.starts_with("text/html") {
        inject(bytes, live)
    } else {
        bytes
    };
    // The version of what is sent (a page with its script and overlay), for the browser to ask again with.
    let tag = crate::fingerprint::to_hex(blake3::hash(&bytes).as_bytes());
    Some(
        Response::new(200, bytes)
            .with("Content-Type", kind)
            .with("Cache-Control", "no-cache")
            .with("ETag", &format!("\"{}\"", &tag[..32]))
            .with("X-Content-Type-Options", "nosniff"),
    )
}

fn not_found(live: &Live) -> Response {
    let page = b"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Not found</title></head>\n\
<body><h1>Not found</h1><p>The site has no page at this address.</p></body></html>\n";
    Response::new(404, inject(page.to_vec(), live))
        .with("Content-Type", "text/html; charset=utf-8")
        .with("Cache-Control", "no-cache")
}

/// The page with the live-reload script added before its `</body>`, and the diagnostics overlay when the last
/// build failed.
fn inject(mut page: Vec<u8>, live: &Live) -> Vec<u8> {
    let (version, errors) = live.snapshot();
    let mut added = String::new();
    if let Some(errors) = errors {
        added.push_str(&overlay(&errors));
    }
    added.push_str(&format!(
        "<script src=\"{LIVE_SCRIPT}\" data-version=\"{version}\"></script>\n"
    ));
    let at = rfind_ignore_case(&page, b"</body>").unwrap_or(page.len());
    page.splice(at..at, added.into_bytes());
    page
}

/// The diagnostics over the page, as `check` prints them (without colours), in a `<pre>`.
fn overlay(errors: &str) -> String {
    format!(
        "<div id=\"ludotheca-overlay\" role=\"alert\" style=\"position:fixed;inset:0;z-index:2147483647;\
         overflow:auto;margin:0;padding:1.5rem;background:#1d1a16f2;color:#fdf6e3;\
         font:14px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace\">\
         <p style=\"margin:0 0 1rem;font-weight:bold\">The site was not rebuilt: the catalog has errors. \
         This is the last good site; the page reloads by itself when the files are fixed.</p>\
         <pre style=\"margin:0;white-space:pre-wrap\">{}</pre></div>\n",
        escape(errors)
    )
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

fn rfind_ignore_case(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .rposition(|w| w.eq_ignore_ascii_case(needle))
}

/// The file a request path names, refusing everything that is not plainly inside the site.
fn find(root: &Path, path: &str) -> Found {
    let Some(relative) = path.strip_prefix('/') else {
        return Found::Missing;
    };
    let Ok(decoded) = percent_decode_str(relative).decode_utf8() else {
        return Found::Missing;
    };
    if decoded.contains(['\\', '\0']) {
        return Found::Missing;
    }
    let (folder_asked, relative) = match decoded.strip_suffix('/') {
        Some(inner) => (true, inner),
        None => (false, decoded.as_ref()),
    };
    let mut file = root.to_path_buf();
    if !relative.is_empty() {
        for segment in relative.split('/') {
            let plain = !segment.starts_with('.')
                && matches!(
                    Path::new(segment)
                        .components()
                        .collect::<Vec<_>>()
                        .as_slice(),
                    [Component::Normal(_)]
                );
            if !plain {
                return Found::Missing;
            }
            file.push(segment);
        }
    }
    let Ok(site) = fs::canonicalize(root) else {
        return Found::Missing;
    };
    let inside = |file: &Path| -> Option<PathBuf> {
        let real = fs::canonicalize(file).ok()?;
        real.starts_with(&site).then_some(real)
    };
    let Some(real) = inside(&file) else {
        return Found::Missing;
    };
    let Ok(meta) = fs::metadata(&real) else {
        return Found::Missing;
    };
    if meta.is_dir() {
        if !folder_asked && !relative.is_empty() {
            return Found::Folder(path.to_string());
        }
        return match inside(&real.join("index.html")) {
            Some(index) if fs::metadata(&index).is_ok_and(|m| m.is_file()) => Found::File(index),
            _ => Found::Missing,
        };
    }
    if folder_asked || !meta.is_file() {
        return Found::Missing;
    }
    // Opened by name again when sent; a build swapping the site in between gives the new site's file.
    match File::open(&real) {
        Ok(_) => Found::File(real),
        Err(_) => Found::Missing,
    }
}

/// The media type of a site file, by its extension.
fn content_type(file: &Path) -> &'static str {
    let extension = file
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    match extension.as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "xml" => "application/xml",
        "csv" => "text/csv; charset=utf-8",
        "zip" => "application/zip",
        "txt" | "game" | "md" | "bib" => "text/plain; charset=utf-8",
        "wasm" => "application/wasm",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "ico" => "image/x-icon",
        "woff2" => "font/woff2",
        "woff" => "font/woff",
        "pdf" => "application/pdf",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("site");
        fs::create_dir_all(root.join("games/a")).unwrap();
        fs::write(root.join("index.html"), "<html><body>home</body></html>").unwrap();
        fs::write(root.join("games/a/index.html"), "a").unwrap();
        fs::write(root.join(".ludotheca-manifest"), "m").unwrap();
        fs::write(dir.path().join("secret.txt"), "secret").unwrap();
        dir
    }

    #[test]
    fn paths_inside_the_site_are_found() {
        let dir = site();
        let root = dir.path().join("site");
        let real = fs::canonicalize(&root).unwrap();
        assert_eq!(find(&root, "/"), Found::File(real.join("index.html")));
        assert_eq!(
            find(&root, "/index.html"),
            Found::File(real.join("index.html"))
        );
        assert_eq!(
            find(&root, "/games/a/"),
            Found::File(real.join("games/a/index.html"))
        );
        assert_eq!(
            find(&root, "/games/%61/index.html"),
            Found::File(real.join("games/a/index.html"))
        );
        assert_eq!(
            find(&root, "/games/a"),
            Found::Folder("/games/a".to_string())
        );
        assert_eq!(find(&root, "/games/"), Found::Missing, "no listing");
        assert_eq!(find(&root, "/index.html/"), Found::Missing);
        assert_eq!(find(&root, "/nothing.html"), Found::Missing);
    }

    #[test]
    fn everything_outside_is_missing() {
        let dir = site();
        let root = dir.path().join("site");
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(dir.path().join("secret.txt"), root.join("link.txt"))
                .unwrap();
            std::os::unix::fs::symlink(dir.path(), root.join("up")).unwrap();
        }
        for path in [
            "/../secret.txt",
            "/games/../../secret.txt",
            "/%2e%2e/secret.txt",
            "/%2E%2E%2Fsecret.txt",
            "/games/%2e%2e/%2e%2e/secret.txt",
            "/..%5csecret.txt",
            "/games\\..\\..\\secret.txt",
            "//etc/passwd",
            "/%2fetc/passwd",
            "/./index.html",
            "/.ludotheca-manifest",
            "/link.txt",
            "/up/secret.txt",
            "/up/",
            "http://example.org/index.html",
            "/%ff",
            "/index.html%00",
        ] {
            assert_eq!(find(&root, path), Found::Missing, "{path}");
        }
    }

    #[test]
    fn the_script_goes_before_the_end_of_the_body() {
        let live = Live::new();
        let page = String::from_utf8(inject(b"<p>x</p></BODY></html>".to_vec(), &live)).unwrap();
        assert!(
            page.starts_with("<p>x</p><script src=\"/__ludotheca/live.js\""),
            "{page}"
        );
        assert!(page.ends_with("</script>\n</BODY></html>"));
        live.failed("error[E014]: `<b>` is empty".to_string());
        let page = String::from_utf8(inject(b"no body".to_vec(), &live)).unwrap();
        assert!(page.contains(
            "<pre style=\"margin:0;white-space:pre-wrap\">error[E014]: `&lt;b&gt;` is empty</pre>"
        ));
    }

    #[test]
    fn types_by_extension() {
        for (name, kind) in [
            ("a.html", "text/html; charset=utf-8"),
            ("a.css", "text/css; charset=utf-8"),
            ("a.js", "text/javascript; charset=utf-8"),
            ("a.json", "application/json"),
            ("a.svg", "image/svg+xml"),
            ("a.xml", "application/xml"),
            ("a.csv", "text/csv; charset=utf-8"),
            ("a.zip", "application/zip"),
            ("a.txt", "text/plain; charset=utf-8"),
            ("a.wasm", "application/wasm"),
            ("a", "application/octet-stream"),
        ] {
            assert_eq!(content_type(Path::new(name)), kind);
        }
    }
}
