//! Checks of one item: its root and kind, the terms its kind requires, each value against its term and
//! scheme, and the ludotheca elements.

use std::collections::HashMap;

use super::links::Identifiers;
use crate::catalog::terms::{self, DC_NS, DCTERMS_NS, RECORD_NS};
use crate::catalog::{Catalog, GameLink, Item, Kind, Stray, Value, parse_confidence};
use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::scheme::{Scheme, language, uri};
use crate::source::Span;
use crate::suggest;

/// What each kind must have: alternatives of terms, any one of which satisfies the requirement.
const GAME: &[&[&str]] = &[
    &["title"],
    &["description"],
    &["instructionalMethod"],
    &["source"],
];
const BOARD: &[&[&str]] = &[
    &["title"],
    &["description"],
    &["spatial"],
    &["medium"],
    &["extent"],
    &["date", "created", "temporal"],
];
const EVIDENCE: &[&[&str]] = &[
    &["title"],
    &["type"],
    &["spatial"],
    &["temporal", "date"],
    &["description"],
    &["source"],
];

struct Context<'a> {
    catalog: &'a Catalog,
    ids: &'a Identifiers<'a>,
    item: &'a Item,
    diagnostics: &'a mut Diagnostics,
}

impl Context<'_> {
    fn push(&mut self, diagnostic: Diagnostic, span: Span) {
        self.diagnostics
            .push(diagnostic.at(&self.catalog.files, self.item.file, span));
    }
}

pub fn check_item(
    catalog: &Catalog,
    ids: &Identifiers<'_>,
    item: &Item,
    diagnostics: &mut Diagnostics,
) {
    let mut cx = Context {
        catalog,
        ids,
        item,
        diagnostics,
    };
    if item.root_span.is_empty() {
        // The record could not be read far enough to find its root; the reader reported why.
        return;
    }
    if !item.root_ok {
        let name = catalog.files.get(item.file).text[item.root_span.clone()].to_string();
        cx.push(
            Diagnostic::error("E006", format!("the root element is `{name}`, not a ludotheca `record`"))
                .with_help(
                    "the root must be `<record xmlns=\"urn:ludotheca:record:1\" kind=\"...\">`, with the Dublin \
                     Core terms inside it",
                ),
            item.root_span.clone(),
        );
        return;
    }
    check_kind(&mut cx);
    check_elements(&mut cx);
    for value in &item.values {
        check_value(&mut cx, value);
    }
    check_duplicates(&mut cx);
    check_game_links(&mut cx);
    check_confidence(&mut cx);
    if item.well_formed {
        check_required(&mut cx);
    }
}

fn check_kind(cx: &mut Context<'_>) {
    let item = cx.item;
    match (&item.kind_attr, item.kind) {
        // A start tag the reader could not finish may hold the kind; it reported that.
        (None, _) if !item.well_formed => {}
        (None, _) => cx.push(
            Diagnostic::error("E007", format!("the record of `{}` has no `kind`", item.id))
                .with_help(
                    "add `kind=\"game\"`, `kind=\"board\"` or `kind=\"evidence\"` to `<record>`",
                ),
            item.root_span.clone(),
        ),
        (Some(attr), None) => {
            let mut d = Diagnostic::error("E008", format!("unknown kind `{}`", attr.value))
                .with_note("the kinds are `game`, `board` and `evidence`");
            if let Some(best) = suggest::closest(&attr.value, ["game", "board", "evidence"]) {
                d = d.with_help(format!("did you mean `{best}`?"));
            }
            cx.push(d, attr.span.clone());
        }
        _ => {}
    }
}

fn check_elements(cx: &mut Context<'_>) {
    let item = cx.item;
    for unknown in &item.unknown_elements {
        let local = unknown.name.rsplit(':').next().unwrap_or(&unknown.name);
        let d = match unknown.ns.as_deref() {
            Some(ns @ (DC_NS | DCTERMS_NS)) => {
                let (namespace, prefix) = if ns == DC_NS {
                    (terms::Namespace::Dc, "dc")
                } else {
                    (terms::Namespace::Dcterms, "dcterms")
                };
                let mut d = Diagnostic::error(
                    "E009",
                    format!(
                        "`{}` is not a term of the `{prefix}` namespace",
                        unknown.name
                    ),
                );
                let written_prefix = unknown.name.split_once(':').map_or("", |(p, _)| p);
                let shown = |name: &str| {
                    if written_prefix.is_empty() {
                        name.to_string()
                    } else {
                        format!("{written_prefix}:{name}")
                    }
                };
                if namespace == terms::Namespace::Dc
                    && terms::lookup(terms::Namespace::Dcterms, local).is_some()
                {
                    d = d.with_help(format!(
                        "`{local}` is a refinement defined only in `http://purl.org/dc/terms/`: use the dcterms \
                         namespace"
                    ));
                } else if let Some(best) = suggest::closest(local, terms::names(namespace)) {
                    d = d.with_help(format!("did you mean `{}`?", shown(best)));
                }
                d
            }
            Some(RECORD_NS) => {
                let mut d = Diagnostic::error(
                    "E011",
                    format!("`{}` is not a ludotheca element", unknown.name),
                )
                .with_note("the ludotheca elements are `playedWith`, `attests` and `confidence`");
                if let Some(best) = suggest::closest(local, ["playedWith", "attests", "confidence"])
                {
                    d = d.with_help(format!("did you mean `{best}`?"));
                } else if terms::lookup(terms::Namespace::Dcterms, local).is_some() {
                    d = d.with_help(format!(
                        "Dublin Core terms need their prefix: `dcterms:{local}`"
                    ));
                }
                d
            }
            other => {
                let message = if unknown.undeclared_prefix {
                    let prefix = unknown.name.split(':').next().unwrap_or("");
                    format!(
                        "the prefix `{prefix}` of `{}` is not declared",
                        unknown.name
                    )
                } else {
                    match other {
                        Some(ns) => format!(
                            "`{}` is in the namespace `{ns}`, which a record does not use",
                            unknown.name
                        ),
                        None => format!("`{}` is in no namespace", unknown.name),
                    }
                };
                let mut d = Diagnostic::error("E010", message).with_note(
                    "a record holds terms of `http://purl.org/dc/elements/1.1/` and `http://purl.org/dc/terms/`, \
                     and the ludotheca elements",
                );
                if terms::lookup(terms::Namespace::Dcterms, local).is_some() {
                    d = d.with_help(format!(
                        "declare `xmlns:dcterms=\"{DCTERMS_NS}\"` on `<record>` and write `dcterms:{local}`"
                    ));
                }
                d
            }
        };
        cx.push(d, unknown.span.clone());
    }
    for stray in &item.stray_content {
        let (d, span) = match stray {
            Stray::Element(span) => {
                let name = &cx.catalog.files.get(item.file).text[span.clone()];
                let d = Diagnostic::error("E036", format!("element `{name}` inside a value"))
                    .with_help(
                        "a value is plain text; write Markdown in the text instead of markup",
                    );
                (d, span)
            }
            Stray::Text(span) => {
                let d = Diagnostic::error("E036", "text outside any term").with_help(
                    "put the text inside a Dublin Core element, or in a comment `<!-- ... -->`",
                );
                (d, span)
            }
        };
        cx.push(d, span.clone());
    }
    for attr in &item.unknown_attributes {
        let message = if attr.undeclared_prefix {
            format!(
                "the prefix of attribute `{}` is not declared; the attribute is ignored",
                attr.name
            )
        } else {
            format!("unknown attribute `{}` is ignored", attr.name)
        };
        cx.push(
            Diagnostic::warning("W006", message).with_help(
                "values take `xml:lang`, `xsi:type`, and `ref`, `cite` or `pages` where allowed; see \
                 docs/record-format.md",
            ),
            attr.span.clone(),
        );
    }
}

fn check_value(cx: &mut Context<'_>, value: &Value) {
    let name = value.qualified_name();
    if value.text.is_empty() && value.ref_.is_none() && value.cite.is_none() {
        cx.push(
            Diagnostic::error("E014", format!("`{name}` is empty"))
                .with_help("give it a value, or remove the element"),
            value.span.clone(),
        );
    }

    if let Some(r) = &value.ref_ {
        if !value.term.relation {
            cx.push(
                Diagnostic::error("E035", format!("`ref` is not allowed on `{name}`"))
                    .with_note("`ref` points at a catalogued item from a relation term, such as `dcterms:isVersionOf`"),
                r.span.clone(),
            );
        } else if cx.ids.kind(&r.value).is_none() {
            let (message, help) = cx.ids.unknown(&r.value);
            cx.push(
                Diagnostic::error("E017", message).with_help(help),
                r.span.clone(),
            );
        }
    }
    if let Some(c) = &value.cite {
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
                Some(best) => format!("did you mean `{best}`?"),
                None => "add an entry with this key to sources.bib".to_string(),
            };
            cx.push(
                Diagnostic::error(
                    "E018",
                    format!("the bibliography has no entry `{}`", c.value),
                )
                .with_help(help),
                c.span.clone(),
            );
        }
    }
    if let Some(p) = &value.pages
        && value.cite.is_none()
    {
        cx.push(
            Diagnostic::error("E035", "`pages` without `cite`").with_help(
                "give the bibliography key the pages belong to: `cite=\"key\" pages=\"...\"`",
            ),
            p.span.clone(),
        );
    }

    let scheme = match &value.scheme {
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
            value.text_span.clone(),
        );
    }

    if let Some(lang) = &value.lang {
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
        && value.ref_.is_none()
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
            value.text_span.clone(),
        );
    }
    if value.term.is_accrual() {
        cx.push(
            Diagnostic::warning(
                "W002",
                format!("`{name}` describes a collection, not an item"),
            )
            .with_help("to record who entered the item, use `dcterms:contributor`"),
            value.span.clone(),
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

fn check_duplicates(cx: &mut Context<'_>) {
    type Key<'a> = (
        &'a str,
        &'a str,
        Option<&'a str>,
        Option<&'a str>,
        Option<&'a str>,
        Option<&'a str>,
    );
    let mut seen: HashMap<Key<'_>, &Value> = HashMap::new();
    for value in &cx.item.values {
        if value.text.is_empty() && value.ref_.is_none() && value.cite.is_none() {
            continue;
        }
        let key = (
            value.term.name,
            value.text.as_str(),
            value.lang.as_ref().map(|l| l.value.as_str()),
            value.ref_.as_ref().map(|r| r.value.as_str()),
            value.cite.as_ref().map(|c| c.value.as_str()),
            value.pages.as_ref().map(|p| p.value.as_str()),
        );
        if let Some(first) = seen.get(&key) {
            let line = cx
                .catalog
                .files
                .get(cx.item.file)
                .position(first.span.start)
                .line;
            cx.push(
                Diagnostic::warning(
                    "W003",
                    format!("`{}` gives the same value twice", value.qualified_name()),
                )
                .with_note(format!("first given on line {line}"))
                .with_help("remove one of them"),
                value.span.clone(),
            );
        } else {
            seen.insert(key, value);
        }
    }
}

fn check_game_links(cx: &mut Context<'_>) {
    let item = cx.item;
    let kind = item.kind;
    for (links, element, on) in [
        (&item.played_with, "playedWith", Kind::Board),
        (&item.attests, "attests", Kind::Evidence),
    ] {
        for link in links {
            if kind.is_some() && kind != Some(on) {
                cx.push(
                    Diagnostic::error(
                        "E037",
                        format!(
                            "`{element}` belongs on {}, and this item is {}",
                            on.with_article(),
                            kind.map_or("", Kind::with_article)
                        ),
                    )
                    .with_help(format!(
                        "remove it, or make this item {}",
                        on.with_article()
                    )),
                    link.span.clone(),
                );
            }
            check_game_link(cx, link, element);
        }
    }
    if !item.confidence.is_empty() && kind.is_some() && kind != Some(Kind::Evidence) {
        cx.push(
            Diagnostic::error(
                "E037",
                format!(
                    "`confidence` belongs on an evidence item, and this item is {}",
                    kind.map_or("", Kind::with_article)
                ),
            )
            .with_help("remove it, or make this item evidence"),
            item.confidence[0].span.clone(),
        );
    }
}

fn check_game_link(cx: &mut Context<'_>, link: &GameLink, element: &str) {
    let Some(game) = &link.game else {
        cx.push(
            Diagnostic::error("E038", format!("`{element}` has no `game` attribute")).with_help(
                format!("name the game by its identifier: `<{element} game=\"bagh-chal\"/>`"),
            ),
            link.span.clone(),
        );
        return;
    };
    match cx.ids.kind(&game.value) {
        None => {
            let (message, help) = cx.ids.unknown(&game.value);
            cx.push(
                Diagnostic::error("E017", message).with_help(help),
                game.span.clone(),
            );
        }
        Some(Some(Kind::Game)) | Some(None) => {}
        Some(Some(other)) => cx.push(
            Diagnostic::error(
                "E028",
                format!("`{}` is {}, not a game", game.value, other.with_article()),
            )
            .with_help(format!(
                "`{element}` names a game; point it at the game item"
            )),
            game.span.clone(),
        ),
    }
}

fn check_confidence(cx: &mut Context<'_>) {
    for (i, confidence) in cx.item.confidence.iter().enumerate() {
        if i > 0 {
            cx.push(
                Diagnostic::error("E027", "`confidence` is given twice")
                    .with_help("keep one confidence per evidence item"),
                confidence.span.clone(),
            );
        } else if parse_confidence(&confidence.value).is_none() {
            let message = if confidence.value.is_empty() {
                "`confidence` is empty".to_string()
            } else {
                format!(
                    "confidence `{}` is not an integer from 0 to 100",
                    confidence.value
                )
            };
            cx.push(
                Diagnostic::error("E027", message)
                    .with_help("write a whole number from 0 (doubtful) to 100 (certain)"),
                confidence.span.clone(),
            );
        }
    }
}

fn check_required(cx: &mut Context<'_>) {
    let item = cx.item;
    let Some(kind) = item.kind else { return };
    let required = match kind {
        Kind::Game => GAME,
        Kind::Board => BOARD,
        Kind::Evidence => EVIDENCE,
    };
    for alternatives in required {
        if !alternatives
            .iter()
            .any(|name| item.values_of(name).next().is_some())
        {
            let wanted = alternatives
                .iter()
                .map(|n| format!("`dcterms:{n}`"))
                .collect::<Vec<_>>()
                .join(" or ");
            let example = example(alternatives[0]);
            cx.push(
                Diagnostic::error("E012", format!("{kind} `{}` has no {wanted}", item.id))
                    .with_help(format!("add {example}")),
                item.root_span.clone(),
            );
        }
    }
    let mut missing_element = |present: bool, element: &str, example: &str| {
        if !present {
            cx.push(
                Diagnostic::error("E012", format!("{kind} `{}` has no `{element}`", item.id))
                    .with_help(format!("add {example}")),
                item.root_span.clone(),
            );
        }
    };
    match kind {
        Kind::Board => missing_element(
            !item.played_with.is_empty(),
            "playedWith",
            "`<playedWith game=\"ID\"/>` naming the game played on this board",
        ),
        Kind::Evidence => {
            missing_element(
                !item.attests.is_empty(),
                "attests",
                "`<attests game=\"ID\"/>` naming the game attested",
            );
            missing_element(
                !item.confidence.is_empty(),
                "confidence",
                "`<confidence>80</confidence>` (0-100)",
            );
        }
        Kind::Game => {}
    }
    if kind == Kind::Game && !item.has_rules_file {
        cx.push(
            Diagnostic::error("E013", format!("game `{}` has no rules.txt", item.id))
                .with_note(format!(
                    "expected `{}`",
                    item.folder.join("rules.txt").display()
                ))
                .with_help(
                    "write the executable rules beside the record; see docs/rules-format.md",
                ),
            item.root_span.clone(),
        );
    }
}

fn example(term: &str) -> String {
    match term {
        "source" => "`<dcterms:source cite=\"key\" pages=\"...\"/>` citing sources.bib".into(),
        "date" | "created" | "temporal" => {
            format!("`<dcterms:{term} xsi:type=\"dcterms:EDTF\">1898/1912</dcterms:{term}>`")
        }
        "spatial" => "`<dcterms:spatial>Kohima, Nagaland</dcterms:spatial>`".into(),
        _ => format!("`<dcterms:{term}>...</dcterms:{term}>`"),
    }
}
