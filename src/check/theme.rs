//! The catalog's theme: its templates are compiled here, as the build would compile them, so that `check`
//! reports a broken template (at its line and column where tera gives them) instead of leaving it to `build`.

use crate::catalog::Catalog;
use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::site::theme::{Theme, describe};

const HELP: &str = "fix the template; docs/site.md describes the theme and its templates";

/// What the theme is made from, hashed: every template's name and text, every static file's name and bytes.
pub fn theme_key(catalog: &Catalog) -> crate::fingerprint::Hash {
    let texts: Vec<_> = catalog
        .theme
        .templates
        .iter()
        .map(|t| catalog.files.get(t.file).text())
        .collect();
    let templates = catalog
        .theme
        .templates
        .iter()
        .zip(&texts)
        .flat_map(|(t, text)| {
            [
                t.name.as_bytes(),
                text.as_bytes(),
                if t.utf8 { b"1" } else { b"0" },
            ]
        });
    let statics = catalog
        .theme
        .statics
        .iter()
        .flat_map(|(name, bytes)| [name.as_bytes(), &bytes[..]]);
    // The count first, so that no template can pass for a static file.
    let count = (catalog.theme.templates.len() as u64).to_le_bytes();
    let parts = std::iter::once(&count[..]).chain(templates).chain(statics);
    crate::fingerprint::bytes(&crate::fingerprint::program(), parts)
}

/// The theme, compiled, or `None` when it does not compile (and the diagnostics say why).
pub fn check_theme(catalog: &Catalog, diagnostics: &mut Diagnostics) -> Option<Theme> {
    let templates = &catalog.theme.templates;
    // Each template alone first, so that every syntax error is reported, not only the first one tera meets.
    let mut broken = false;
    for template in templates.iter().filter(|t| t.utf8) {
        let source = catalog.files.get(template.file);
        if let Err(err) = tera::Template::new(&template.name, None, &source.text()) {
            broken = true;
            let message = format!("template `{}` does not compile", template.name);
            let detail = describe(&err);
            let diagnostic = match position(&detail) {
                Some((line, column)) => {
                    let span = source.span_at(line, column, 1);
                    Diagnostic::error("E041", message).at(&catalog.files, template.file, span)
                }
                None => Diagnostic::error("E041", message).in_file(&source.path),
            };
            diagnostics.push(
                diagnostic
                    .with_note(first_line_of_detail(&detail))
                    .with_help(HELP),
            );
        }
    }
    // A template that is not UTF-8 has been reported by the reader.
    if broken || templates.iter().any(|t| !t.utf8) {
        return None;
    }
    // Then the whole theme together: inheritance and macro imports across templates, the defaults included.
    match Theme::new(catalog) {
        Ok(theme) => Some(theme),
        Err(detail) => {
            let named = templates.iter().find(|t| {
                detail.contains(&format!("'{}'", t.name))
                    || detail.contains(&format!("`{}`", t.name))
            });
            let diagnostic =
                Diagnostic::error("E041", "the catalog's templates do not compile together");
            let diagnostic = match named {
                Some(t) => diagnostic.in_file(catalog.files.path(t.file)),
                None => diagnostic,
            };
            diagnostics.push(diagnostic.with_note(detail).with_help(HELP));
            None
        }
    }
}

/// The `line:column` of a parse error, from the ` --> 3:12` line of tera's message.
fn position(detail: &str) -> Option<(usize, usize)> {
    let at = detail.find("--> ")? + 4;
    let rest = &detail[at..];
    let end = rest
        .find(|c: char| !(c.is_ascii_digit() || c == ':'))
        .unwrap_or(rest.len());
    let (line, column) = rest[..end].split_once(':')?;
    Some((line.parse().ok()?, column.parse().ok()?))
}

/// What tera expected, without its own rendering of the source line (the report quotes the line itself).
fn first_line_of_detail(detail: &str) -> String {
    let expected = detail
        .lines()
        .map(|l| l.trim_start_matches([' ', '=']).trim())
        .find(|l| l.starts_with("expected") || l.starts_with("unexpected"));
    match expected {
        Some(line) => line.to_string(),
        None => detail.lines().next().unwrap_or_default().trim().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_position_is_read_from_the_arrow_line() {
        assert_eq!(
            position("Failed to parse 'x':  --> 3:12\n  |\n3 | {{ x\n"),
            Some((3, 12))
        );
        assert_eq!(position("no position here"), None);
    }
}
