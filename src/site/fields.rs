//! The record section of an item page: every value of the record, grouped by term in the configured order.
//!
//! The fields go to the template twice: as data (`page.fields`), for a theme that lays them out itself, and
//! as the default theme's markup ready-made (`page.fields_html`). An item's page holds a couple of dozen
//! values, and the template engine's loop over them, with a lookup per attribute of every value, was a third of
//! the item template's work (and a twentieth of a whole build's instructions); written here, the same markup
//! costs a fraction of that.

use serde::Serialize;

use super::meta::{given, start_tag};
use super::pages::Link;
use super::theme::push_escaped;
use super::values::MapLink;

/// The values of one term.
#[derive(Debug, Serialize)]
pub struct Field {
    /// The term as the record names it, e.g. `dcterms:spatial`.
    pub term: String,
    /// The term's local name, e.g. `spatial`.
    pub name: &'static str,
    /// The configured label, e.g. "Place".
    pub label: String,
    pub values: Vec<FieldValue>,
}

/// One value as the page shows it.
#[derive(Debug, Default, Serialize)]
pub struct FieldValue {
    /// The value in words (a date, a place with its coordinates, a language by name), or as written.
    pub text: String,
    pub lang: Option<String>,
    /// The language's name, shown after a value in another language.
    pub lang_name: Option<String>,
    /// The value's `xsi:type`, kept for machines (`data-scheme`).
    pub scheme: Option<String>,
    pub map: Option<MapLink>,
    /// An address the value is.
    pub href: Option<String>,
    /// Markdown made safe, for descriptions.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub html: Option<String>,
    /// A catalogued item or source the value names.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub link: Option<Link>,
    /// A relation to an item that is not in the catalog.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub uncatalogued: bool,
    /// A relation another record makes about this one, shown under its inverse term.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub computed: bool,
}

/// The fields as the items of a `<dl>`: a `div` per term holding its `dt` and a `dd` per value.
pub fn html(fields: &[Field]) -> String {
    let mut html = String::new();
    for field in fields {
        html.push_str("<div class=\"field field-");
        push_escaped(&mut html, field.name);
        html.push_str("\" data-term=\"");
        push_escaped(&mut html, &field.term);
        html.push_str("\">\n<dt>");
        push_escaped(&mut html, &field.label);
        html.push_str("</dt>\n");
        for value in &field.values {
            push_value(&mut html, value);
        }
        html.push_str("</div>\n");
    }
    html
}

fn push_value(html: &mut String, value: &FieldValue) {
    let lang = given(&value.lang);
    start_tag(
        html,
        "dd",
        &[("lang", lang), ("data-scheme", given(&value.scheme))],
    );
    if let Some(prose) = given(&value.html) {
        // Made safe by the Markdown renderer, so written as it is.
        html.push_str("<div class=\"prose\">");
        html.push_str(prose);
        html.push_str("</div>");
    } else if let Some(link) = &value.link {
        push_link(html, link);
        if value.computed {
            html.push_str(" <span class=\"note\">(from that record)</span>");
        }
    } else if let Some(href) = given(&value.href) {
        start_tag(html, "a", &[("href", Some(href))]);
        push_escaped(html, &value.text);
        html.push_str("</a>");
    } else {
        push_escaped(html, &value.text);
        if value.uncatalogued {
            html.push_str(" <span class=\"note\">not yet catalogued</span>");
        }
    }
    if let Some(map) = &value.map {
        html.push(' ');
        start_tag(
            html,
            "a",
            &[
                ("class", Some("map-link")),
                ("href", Some(&map.href)),
                ("title", Some(&map.label)),
                ("lang", Some("en")),
            ],
        );
        html.push_str("open in a map app<span class=\"visually-hidden\">: ");
        push_escaped(html, &map.place);
        html.push_str("</span></a>");
    }
    if lang.is_some() {
        html.push_str(" <span class=\"lang\" lang=\"en\">(");
        push_escaped(html, value.lang_name.as_deref().unwrap_or_default());
        html.push_str(")</span>");
    }
    html.push_str("</dd>\n");
}

/// A link as the theme's `link` macro writes it: an anchor when it has an address, else the text in a span,
/// then its note.
fn push_link(html: &mut String, link: &Link) {
    let href = Some(link.href.as_str()).filter(|h| !h.is_empty());
    let element = if href.is_some() { "a" } else { "span" };
    start_tag(
        html,
        element,
        &[("href", href), ("lang", given(&link.lang))],
    );
    push_escaped(html, &link.text);
    html.push_str("</");
    html.push_str(element);
    html.push('>');
    if let Some(note) = given(&link.note) {
        html.push_str(" <span class=\"note\">");
        push_escaped(html, note);
        html.push_str("</span>");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(values: Vec<FieldValue>) -> Field {
        Field {
            term: "dcterms:title".to_string(),
            name: "title",
            label: "Title".to_string(),
            values,
        }
    }

    #[test]
    fn every_text_is_escaped_and_only_the_rendered_markdown_is_not() {
        let hostile = "<script>alert('x')</script>";
        let html = html(&[field(vec![
            FieldValue {
                text: hostile.to_string(),
                lang: Some("\"><script>".to_string()),
                lang_name: Some(hostile.to_string()),
                scheme: Some(hostile.to_string()),
                ..FieldValue::default()
            },
            FieldValue {
                text: "ignored".to_string(),
                link: Some(Link {
                    href: "javascript:\"x\"".to_string(),
                    text: hostile.to_string(),
                    note: Some(hostile.to_string()),
                    lang: None,
                }),
                ..FieldValue::default()
            },
            FieldValue {
                html: Some("<p>made <em>safe</em></p>".to_string()),
                ..FieldValue::default()
            },
        ])]);
        assert!(!html.contains("<script"), "{html}");
        assert!(
            html.contains("<dd lang=\"&quot;&gt;&lt;script&gt;\" data-scheme=\"&lt;script&gt;")
        );
        assert!(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"));
        assert!(html.contains("<div class=\"prose\"><p>made <em>safe</em></p></div>"));
    }

    #[test]
    fn empty_values_count_as_absent_as_the_template_engine_tests_them() {
        let html = html(&[field(vec![
            FieldValue {
                text: "Bagh-Chal".to_string(),
                lang: Some(String::new()),
                scheme: Some(String::new()),
                html: Some(String::new()),
                href: Some(String::new()),
                ..FieldValue::default()
            },
            FieldValue {
                text: "Bāgh Chāl".to_string(),
                lang: Some("ne-Latn".to_string()),
                lang_name: Some("Nepali (Latin script)".to_string()),
                uncatalogued: true,
                ..FieldValue::default()
            },
        ])]);
        assert_eq!(
            html,
            "<div class=\"field field-title\" data-term=\"dcterms:title\">\n<dt>Title</dt>\n\
             <dd>Bagh-Chal</dd>\n\
             <dd lang=\"ne-Latn\">Bāgh Chāl <span class=\"note\">not yet catalogued</span> \
             <span class=\"lang\" lang=\"en\">(Nepali (Latin script))</span></dd>\n</div>\n"
        );
    }

    #[test]
    fn links_are_anchors_with_their_note_and_a_link_without_address_is_a_span() {
        let link = |href: &str| FieldValue {
            link: Some(Link {
                href: href.to_string(),
                text: "Tchouba".to_string(),
                note: Some("as “Tsoro”".to_string()),
                lang: Some("pt".to_string()),
            }),
            computed: true,
            ..FieldValue::default()
        };
        let html = html(&[field(vec![
            link("../../games/tchouba/index.html"),
            link(""),
        ])]);
        assert!(html.contains(
            "<dd><a href=\"../../games/tchouba/index.html\" lang=\"pt\">Tchouba</a> \
             <span class=\"note\">as “Tsoro”</span> <span class=\"note\">(from that record)</span></dd>"
        ));
        assert!(html.contains("<dd><span lang=\"pt\">Tchouba</span> <span class=\"note\">"));
    }
}
