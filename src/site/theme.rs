//! The theme: tera templates and static files. The default theme (`templates/`) is compiled into the binary, so
//! `ludotheca build` works wherever it runs; a catalog may carry `templates/` and `static/` folders of its own,
//! whose files take precedence over the defaults of the same name (and may add new ones).

use std::fs;
use std::path::Path;

use tera::Tera;

/// The default templates, by name.
const TEMPLATES: [(&str, &str); 14] = [
    ("base.html", include_str!("../../templates/base.html")),
    ("macros.html", include_str!("../../templates/macros.html")),
    ("home.html", include_str!("../../templates/home.html")),
    ("browse.html", include_str!("../../templates/browse.html")),
    ("item.html", include_str!("../../templates/item.html")),
    ("facet.html", include_str!("../../templates/facet.html")),
    ("person.html", include_str!("../../templates/person.html")),
    ("source.html", include_str!("../../templates/source.html")),
    ("list.html", include_str!("../../templates/list.html")),
    (
        "variants.html",
        include_str!("../../templates/variants.html"),
    ),
    ("rules.html", include_str!("../../templates/rules.html")),
    ("about.html", include_str!("../../templates/about.html")),
    ("search.html", include_str!("../../templates/search.html")),
    (
        "uncatalogued.html",
        include_str!("../../templates/uncatalogued.html"),
    ),
];

/// The default static files, by path under `static/`.
const STATIC: [(&str, &[u8]); 3] = [
    (
        "style.css",
        include_bytes!("../../templates/static/style.css"),
    ),
    (
        "search.js",
        include_bytes!("../../templates/static/search.js"),
    ),
    (
        "browse.js",
        include_bytes!("../../templates/static/browse.js"),
    ),
];

pub struct Theme {
    pub tera: Tera,
    /// Static files: path under `static/` and contents.
    pub statics: Vec<(String, Vec<u8>)>,
}

impl Theme {
    /// The default theme with the catalog's own templates and static files laid over it.
    pub fn load(catalog: &Path) -> Result<Theme, String> {
        let mut templates: Vec<(String, String)> = TEMPLATES
            .iter()
            .map(|(name, text)| (name.to_string(), text.to_string()))
            .collect();
        for (name, bytes) in read_tree(&catalog.join("templates"))? {
            let text = String::from_utf8(bytes)
                .map_err(|_| format!("catalog template `{name}` is not UTF-8"))?;
            match templates.iter_mut().find(|(n, _)| *n == name) {
                Some(slot) => slot.1 = text,
                None => templates.push((name, text)),
            }
        }
        let mut tera = Tera::default();
        // Escape what HTML needs and nothing more, so that relative URLs stay readable in the output.
        tera.set_escape_fn(escape_html);
        tera.autoescape_on(vec![".html"]);
        tera.add_raw_templates(templates)
            .map_err(|e| describe(&e))?;

        let mut statics: Vec<(String, Vec<u8>)> = STATIC
            .iter()
            .map(|(name, bytes)| (name.to_string(), bytes.to_vec()))
            .collect();
        for (name, bytes) in read_tree(&catalog.join("static"))? {
            match statics.iter_mut().find(|(n, _)| *n == name) {
                Some(slot) => slot.1 = bytes,
                None => statics.push((name, bytes)),
            }
        }
        Ok(Theme { tera, statics })
    }

    pub fn render(&self, template: &str, context: &tera::Context) -> Result<String, String> {
        self.tera
            .render(template, context)
            .map_err(|e| describe(&e))
    }
}

/// A tera error with its causes, which hold the useful part (the template line and what was undefined).
pub fn describe(err: &tera::Error) -> String {
    let mut message = err.to_string();
    let mut source = std::error::Error::source(err);
    while let Some(cause) = source {
        message.push_str(": ");
        message.push_str(&cause.to_string());
        source = cause.source();
    }
    message
}

/// Escape text for HTML content and quoted attribute values.
pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// Every plain file under `dir` (recursively), by its path relative to `dir` with `/` separators. Hidden files
/// and symbolic links are skipped: a theme is plain files, and a link could reach outside the catalog.
fn read_tree(dir: &Path) -> Result<Vec<(String, Vec<u8>)>, String> {
    let mut out = Vec::new();
    if fs::symlink_metadata(dir).is_ok_and(|m| m.is_dir()) {
        walk(dir, "", &mut out)?;
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

fn walk(dir: &Path, prefix: &str, out: &mut Vec<(String, Vec<u8>)>) -> Result<(), String> {
    let entries = fs::read_dir(dir).map_err(|e| format!("cannot read `{}`: {e}", dir.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("cannot read `{}`: {e}", dir.display()))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        let path = entry.path();
        let kind = entry
            .file_type()
            .map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
        let relative = format!("{prefix}{name}");
        if kind.is_dir() {
            walk(&path, &format!("{relative}/"), out)?;
        } else if kind.is_file() {
            let bytes =
                fs::read(&path).map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
            out.push((relative, bytes));
        }
    }
    Ok(())
}
