//! Checks of one item: its root and kind, elements it does not know, the ludotheca elements, and the terms its
//! kind requires. Its values are checked in [`super::value`].

use super::links::Identifiers;
use super::value;
use crate::catalog::terms::{self, DC_NS, DCTERMS_NS, RECORD_NS};
use crate::catalog::{Catalog, GameLink, Item, Kind, Stray, parse_confidence};
use crate::diagnostic::{Diagnostic, Diagnostics};
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

/// What a check of one item needs: the catalog, its identifiers, the item, and where to report.
pub(super) struct Context<'a> {
    pub(super) catalog: &'a Catalog,
    pub(super) ids: &'a Identifiers<'a>,
    pub(super) item: &'a Item,
    diagnostics: &'a mut Diagnostics,
}

impl Context<'_> {
    /// Report a diagnostic at a span of the item's record.
    pub(super) fn push(&mut self, diagnostic: Diagnostic, span: Span) {
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
        let name = catalog.files.get(item.file).text()[item.root_span.clone()].to_string();
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
        value::check_value(&mut cx, value);
    }
    value::check_duplicates(&mut cx);
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

/// Names people reach for that Dublin Core spells otherwise, too far from the term for an edit distance to find:
/// a place is `spatial` coverage, an author a `creator`, keywords and tags a `subject`, a year a `date`.
fn mistaken_term(namespace: terms::Namespace, local: &str) -> Option<&'static str> {
    let dcterms = namespace == terms::Namespace::Dcterms;
    Some(match local.to_ascii_lowercase().as_str() {
        "place" | "location" | "country" | "region" | "geography" if dcterms => "spatial",
        "place" | "location" | "country" | "region" | "geography" => "coverage",
        "period" | "era" if dcterms => "temporal",
        "period" | "era" => "coverage",
        "author" | "authors" | "writer" | "maker" => "creator",
        "keyword" | "keywords" | "tag" | "tags" | "topic" | "topics" => "subject",
        "year" | "when" => "date",
        "url" | "link" => "identifier",
        "summary" if dcterms => "abstract",
        "summary" => "description",
        "lang" => "language",
        _ => return None,
    })
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
                } else if let Some(meant) = mistaken_term(namespace, local) {
                    d = d.with_help(format!("did you mean `{}`?", shown(meant)));
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
                .with_note(
                    "the ludotheca elements are `playedWith`, `attests`, `confidence` and `image`",
                );
                if let Some(best) =
                    suggest::closest(local, ["playedWith", "attests", "confidence", "image"])
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
                let name = &cx.catalog.files.get(item.file).text()[span.clone()];
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
                Diagnostic::error(super::links::UNKNOWN_ITEM, message).with_help(help),
                game.span.clone(),
            );
        }
        Some(Some(Kind::Game)) | Some(None) => {}
        Some(Some(other)) => cx.push(
            Diagnostic::error(
                super::links::NOT_A_GAME,
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

/// The terms a kind requires: each entry lists alternatives, any one of which satisfies it. The import names
/// what an imported record still lacks from this same table, so that its report and `check` agree.
pub fn required_terms(kind: Kind) -> &'static [&'static [&'static str]] {
    match kind {
        Kind::Game => GAME,
        Kind::Board => BOARD,
        Kind::Evidence => EVIDENCE,
    }
}

fn check_required(cx: &mut Context<'_>) {
    let item = cx.item;
    let Some(kind) = item.kind else { return };
    let required = required_terms(kind);
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
