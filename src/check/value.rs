//! Checks of one Dublin Core value: empty, `ref` and `cite` where allowed and resolving, the encoding scheme,
//! language tags, terms used against their definition; and values given twice.

use super::item::Context;
use crate::catalog::Value;
use crate::catalog::bibtex::Bibliography;
use crate::diagnostic::Diagnostic;
use crate::scheme::{Scheme, language, uri};
use crate::suggest;

/// The code of the error for a work cited that the bibliography does not hold (or an empty `cite`).
pub(super) const UNKNOWN_WORK: &str = "E018";

pub(super) fn check_value(cx: &mut Context<'_>, value: &Value) {
    let name = value.qualified_name();
    if value.text.is_empty() && value.ref_().is_none() && value.cite().is_none() {
        cx.push(
            Diagnostic::error("E014", format!("`{name}` is empty"))
                .with_help("give it a value, or remove the element"),
            value.span(),
        );
    }

    if let Some(r) = &value.ref_() {
        if !value.term.relation {
            cx.push(
                Diagnostic::error("E035", format!("`ref` is not allowed on `{name}`"))
                    .with_note("`ref` points at a catalogued item from a relation term, such as `dcterms:isVersionOf`"),
                r.span.clone(),
            );
        } else if cx.ids.kind(&r.value).is_none() {
            let (message, help) = cx.ids.unknown(&r.value);
            cx.push(
                Diagnostic::error(super::links::UNKNOWN_ITEM, message).with_help(help),
                r.span.clone(),
            );
        }
    }
    if let Some(c) = &value.cite() {
        if !value.term.citable() {
            cx.push(
                Diagnostic::error("E035", format!("`cite` is not allowed on `{name}`")).with_note(
                    "`cite` is for `dcterms:source`, `dcterms:references` and `dcterms:bibliographicCitation`",
                ),
                c.span.clone(),
            );
        } else if cx.catalog.sources.get(&c.value).is_none() {
            let keys = cx
                .catalog
                .sources
                .entries
                .iter()
                .map(|e| e.key.value.as_str());
            let help = match suggest::closest(&c.value, keys) {
                _ if c.value.trim().is_empty() => {
                    "write the key of an entry of sources.bib".to_string()
                }
                Some(best) => format!("did you mean `{best}`?"),
                None => "add an entry with this key to sources.bib".to_string(),
            };
            let mut diagnostic = Diagnostic::error(
                UNKNOWN_WORK,
                if c.value.trim().is_empty() {
                    "`cite` is empty".to_string()
                } else {
                    format!("the bibliography has no entry `{}`", c.value)
                },
            );
            if cx.catalog.sources.unread {
                diagnostic = diagnostic
                    .with_note(Bibliography::UNREAD_NOTE)
                    .with_help("fix sources.bib first; this may then go away");
            } else {
                diagnostic = diagnostic.with_help(help);
            }
            cx.push(diagnostic, c.span.clone());
        }
    }
    if let Some(p) = &value.pages()
        && value.cite().is_none()
    {
        cx.push(
            Diagnostic::error("E035", "`pages` without `cite`").with_help(
                "give the bibliography key the pages belong to: `cite=\"key\" pages=\"...\"`",
            ),
            p.span.clone(),
        );
    }

    let scheme = match value.scheme() {
        Some(s) => match Scheme::from_xsi_type(&s.value) {
            Some(scheme) => Some(scheme),
            None => {
                let names = Scheme::ALL.iter().map(|(n, _)| *n);
                let local = s.value.rsplit(':').next().unwrap_or(&s.value);
                let help = match suggest::closest(local, names) {
                    Some(best) => format!("did you mean `dcterms:{best}`?"),
                    None => "the schemes are dcterms:W3CDTF, EDTF, Period, Point, Box, URI, DCMIType, RFC5646 and IMT"
                        .to_string(),
                };
                cx.push(
                    Diagnostic::error("E032", format!("unknown encoding scheme `{}`", s.value))
                        .with_help(help),
                    s.span.clone(),
                );
                None
            }
        },
        None => None,
    };
    // dcterms:language always holds language tags.
    let scheme = scheme.or((value.term.name == "language").then_some(Scheme::Rfc5646));
    if let Some(scheme) = scheme
        && !value.text.is_empty()
        && let Err(message) = scheme.validate(&value.text)
    {
        let help = scheme_help(scheme);
        cx.push(
            Diagnostic::error(scheme.error_code(), message).with_help(help),
            value.text_span(),
        );
    }

    if let Some(lang) = &value.lang() {
        if let Err(message) = language::parse_language_tag(&lang.value) {
            cx.push(
                Diagnostic::error("E026", message)
                    .with_help("use a BCP 47 tag such as `en`, `hi`, `bn-Latn`"),
                lang.span.clone(),
            );
        }
        if value.term.is_date() || scheme.is_some_and(Scheme::is_language_neutral) {
            cx.push(
                Diagnostic::warning("W005", format!("`xml:lang` on `{name}`, whose value has no language"))
                    .with_help("remove `xml:lang`: dates, URIs, codes and numbers read the same in every language"),
                lang.span.clone(),
            );
        }
    }

    if value.term.name == "conformsTo"
        && value.ref_().is_none()
        && uri::parse_uri(&value.text).is_err()
        && !value.text.is_empty()
    {
        cx.push(
            Diagnostic::warning(
                "W001",
                format!("`{name}` holds `{}`, which is not a standard", value.text),
            )
            .with_note("`conformsTo` names a standard the item conforms to, as a URI")
            .with_help("for tags, use `dcterms:subject`"),
            value.text_span(),
        );
    }
    if value.term.is_accrual() {
        cx.push(
            Diagnostic::warning(
                "W002",
                format!("`{name}` describes a collection, not an item"),
            )
            .with_help("to record who entered the item, use `dcterms:contributor`"),
            value.span(),
        );
    }
}

fn scheme_help(scheme: Scheme) -> &'static str {
    match scheme {
        Scheme::W3cdtf => "write YYYY, YYYY-MM or YYYY-MM-DD",
        Scheme::Edtf => {
            "write a year (`1921`, `-0500` for 501 BCE), a date, or an interval `start/end`"
        }
        Scheme::Period => "write `start=1921; end=1930; name=...`",
        Scheme::Point => "write `east=94.11; north=25.67; name=...` in decimal degrees",
        Scheme::Box => {
            "write `northlimit=..; eastlimit=..; southlimit=..; westlimit=..` in decimal degrees"
        }
        Scheme::Uri => "write an absolute URI such as `https://example.org/item/12`",
        Scheme::DcmiType => {
            "use one of Collection, Dataset, Event, Image, InteractiveResource, MovingImage, PhysicalObject, \
             Service, Software, Sound, StillImage, Text"
        }
        Scheme::Rfc5646 => "use a BCP 47 tag such as `en`, `hi`, `bn-Latn`, `pt-MZ`",
        Scheme::Imt => "write a media type such as `image/png`",
    }
}

pub(super) fn check_duplicates(cx: &mut Context<'_>) {
    type Key<'a> = (
        &'a str,
        &'a str,
        Option<&'a str>,
        Option<&'a str>,
        Option<&'a str>,
        Option<&'a str>,
    );
    let mut seen: foldhash::HashMap<Key<'_>, &Value> = foldhash::HashMap::default();
    for value in &cx.item.values {
        if value.text.is_empty() && value.ref_().is_none() && value.cite().is_none() {
            continue;
        }
        let key = (
            value.term.name,
            &*value.text,
            value.lang().map(|l| l.value.as_str()),
            value.ref_().map(|r| r.value.as_str()),
            value.cite().map(|c| c.value.as_str()),
            value.pages().map(|p| p.value.as_str()),
        );
        if let Some(first) = seen.get(&key) {
            let line = cx
                .catalog
                .files
                .get(cx.item.file)
                .position(first.span().start)
                .line;
            cx.push(
                Diagnostic::warning(
                    "W003",
                    format!("`{}` gives the same value twice", value.qualified_name()),
                )
                .with_note(format!("first given on line {line}"))
                .with_help("remove one of them"),
                value.span(),
            );
        } else {
            seen.insert(key, value);
        }
    }
}
