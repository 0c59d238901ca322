//! Placeholders left to fill (E043). `ludotheca new` writes an item whose every missing value starts with
//! `TODO`, so that `check` leads the archivist through them one by one, each at its line and column with what
//! to write. A placeholder is reported as a placeholder only: whatever else it fails to be at the same place (a
//! `source TODO` that names no bibliography entry, a `game="TODO"` that names no item, a confidence that is not
//! a number) would only repeat the same news less clearly, so those diagnostics are dropped.
//!
//! What counts as a placeholder: in a record, a value or attribute starting with `TODO`; in a rules file, a word
//! or a quoted string starting with `TODO` outside comments (comments are the author's to keep); in a game
//! record, a tag value or a comment starting with `TODO`.

use std::path::PathBuf;

use rayon::prelude::*;

use crate::catalog::{Catalog, Item, PLACEHOLDER as MARK, Spanned};
use crate::diagnostic::Diagnostics;
use crate::fingerprint::Hash;
use crate::source::{FileId, Span};

/// A placeholder found: its file and span, what holds it (for the message), and what to write there.
type Found = Vec<(FileId, Span, String, &'static str)>;

/// Where a placeholder is: diagnostics of other codes starting there are covered by it.
struct Place {
    file: PathBuf,
    start: (usize, usize),
    end: (usize, usize),
}

/// Which of an item's files a placeholder is in: kept by item rather than by file id, which a new load numbers
/// anew.
#[derive(Clone, Copy)]
enum InItem {
    Record,
    Rules,
    GameRecord(usize),
}

type ItemFound = Vec<(InItem, Span, String, &'static str)>;

/// The placeholders found in each item's files, by the hash of those files: a long-running process reads
/// through only the items an edit changed.
#[derive(Default)]
pub struct PlaceholderCache(foldhash::HashMap<Hash, ItemFound>);

fn item_placeholders(catalog: &Catalog, item: &Item) -> ItemFound {
    let mut found = Vec::new();
    record_placeholders(item, &mut found);
    if item.files_without_placeholder {
        return found;
    }
    if let Some(file) = item.rules_file {
        rules_placeholders(&catalog.files.get(file).text(), &mut found);
    }
    for (i, &file) in item.game_records.iter().enumerate() {
        game_record_placeholders(i, &catalog.files.get(file).text(), &mut found);
    }
    found
}

pub(super) fn check_placeholders(
    catalog: &Catalog,
    diagnostics: &mut Diagnostics,
    cache: Option<&mut PlaceholderCache>,
) {
    let known = cache.as_deref().map(|c| &c.0);
    // Every file of every item is read through: in parallel, gathered in catalog order.
    let each: Vec<ItemFound> = catalog
        .items
        .par_iter()
        .map(|item| match known.and_then(|k| k.get(&item.files_hash)) {
            Some(hit) => hit.clone(),
            None => item_placeholders(catalog, item),
        })
        .collect();
    let mut found: Found = Vec::new();
    for (item, item_found) in catalog.items.iter().zip(&each) {
        for (place, span, what, help) in item_found {
            let file = match *place {
                InItem::Record => item.file,
                InItem::Rules => item.rules_file.unwrap_or(item.file),
                InItem::GameRecord(i) => item.game_records[i],
            };
            found.push((file, span.clone(), what.clone(), help));
        }
    }
    if let Some(cache) = cache {
        // Only this run's items, so that the cache never outgrows the catalog.
        cache.0 = catalog
            .items
            .iter()
            .map(|i| i.files_hash)
            .zip(each)
            .collect();
    }
    if found.is_empty() {
        return;
    }
    let mut places = Vec::with_capacity(found.len());
    for (file, span, what, help) in found {
        let source = catalog.files.get(file);
        let start = source.position(span.start);
        let end = source.position(span.end);
        places.push(Place {
            file: source.path.to_path_buf(),
            start: (start.line, start.column),
            end: (end.line, end.column),
        });
        diagnostics
            .error_at(
                &catalog.files,
                file,
                span,
                "E043",
                format!("{what} still holds a placeholder"),
            )
            .help = Some(help.to_string());
    }
    diagnostics.retain(|d| {
        d.code == "E043"
            || !d.location.as_ref().is_some_and(|l| {
                places.iter().any(|p| {
                    p.file == l.file && p.start <= (l.line, l.column) && (l.line, l.column) <= p.end
                })
            })
    });
}

fn starts_with_mark(text: &str) -> bool {
    text.trim_start().starts_with(MARK)
}

fn record_placeholders(item: &Item, found: &mut ItemFound) {
    let file = InItem::Record;
    for value in &item.values {
        // Named only for a placeholder found: a rebuild looks through every value of the catalog.
        let name = || value.qualified_name();
        if starts_with_mark(&value.text) {
            found.push((
                file,
                value.text_span(),
                format!("`{}`", name()),
                term_help(value.term.name),
            ));
        }
        for (attribute, help) in [
            (
                &value.ref_(),
                "write the identifier of a catalogued item (its folder name)",
            ),
            (&value.cite(), CITE_HELP),
            (&value.pages(), "write the pages cited, such as `110-111`"),
        ] {
            if let Some(attribute) = attribute.as_deref()
                && starts_with_mark(&attribute.value)
            {
                found.push((file, attribute.span.clone(), format!("`{}`", name()), help));
            }
        }
    }
    let links = item
        .played_with
        .iter()
        .map(|l| ("playedWith", l))
        .chain(item.attests.iter().map(|l| ("attests", l)));
    for (element, link) in links {
        let attributes: [(&Option<Spanned<String>>, &str, &'static str); 2] = [
            (
                &link.game,
                "game",
                "write the identifier of the game (the name of its folder in the catalog)",
            ),
            (
                &link.ruleset,
                "ruleset",
                "write the name of one of the game's rulesets, or remove the attribute",
            ),
        ];
        for (attribute, name, help) in attributes {
            if let Some(attribute) = attribute
                && starts_with_mark(&attribute.value)
            {
                found.push((
                    file,
                    attribute.span.clone(),
                    format!("`{name}` of `{element}`"),
                    help,
                ));
            }
        }
    }
    for confidence in &item.confidence {
        if starts_with_mark(&confidence.value) {
            found.push((
                file,
                confidence.span.clone(),
                "`confidence`".to_string(),
                "write how sure the attestation is, a whole number from 0 (doubtful) to 100 (certain)",
            ));
        }
    }
}

const CITE_HELP: &str =
    "write the key of an entry of sources.bib (add the entry there if it is missing)";

/// What to write in place of a placeholder value of a term.
fn term_help(term: &str) -> &'static str {
    match term {
        "title" => {
            "write the name the item is best known by; other names go in `dcterms:alternative`"
        }
        "description" => {
            "write what the item is, for a reader of its page (Markdown): where, when and by whom it is \
             known, and what the sources say"
        }
        "instructionalMethod" => {
            "write the rules in words, as a reader should understand them (rules.txt states them for the \
             engine)"
        }
        "source" => {
            "cite the work the record follows: `<dcterms:source cite=\"KEY\" pages=\"...\"/>`, with KEY an \
             entry of sources.bib"
        }
        "spatial" => {
            "write where: a place name, or coordinates as `east=..; north=..; name=..` with \
             `xsi:type=\"dcterms:Point\"`"
        }
        "medium" => "write what the board is made of, such as `Rock, carved`",
        "extent" => "write the board's size, such as `40 x 40 cm`, or `Not recorded`",
        "date" | "created" | "temporal" => {
            "write when: a year such as `1921`, or a range with `xsi:type=\"dcterms:EDTF\"` such as \
             `1898/1912` or `-0500/0300`"
        }
        "type" => "write the kind of attestation: Ethnography, Artefact, Text, Art...",
        _ => "write the value in place of the placeholder, or remove the element",
    }
}

/// `# comment` removed, strings kept: the part of a rules line the compiler reads.
fn without_comment(line: &str) -> &str {
    let mut in_string = false;
    for (i, c) in line.char_indices() {
        match c {
            '"' => in_string = !in_string,
            '#' if !in_string => return &line[..i],
            _ => {}
        }
    }
    line
}

fn rules_placeholders(text: &str, found: &mut ItemFound) {
    // Most files hold none: one fast search instead of a walk through every line.
    if !text.contains(MARK) {
        return;
    }
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let code = without_comment(line);
        let mut from = 0;
        while let Some(at) = code[from..].find(MARK).map(|i| i + from) {
            let before = code[..at].chars().next_back();
            from = at + MARK.len();
            let (end, help) = match before {
                Some('"') => (
                    code[at..]
                        .find('"')
                        .map_or(code.trim_end().len(), |i| at + i),
                    "write the name shown to readers in place of the placeholder",
                ),
                None | Some(' ' | '\t') => {
                    let end = code[at..]
                        .find(char::is_whitespace)
                        .map_or(code.len(), |i| at + i);
                    let help = if code[..at].trim_start().starts_with("source") {
                        "write the key of the sources.bib entry this ruleset follows (add the entry there if it \
                         is missing)"
                    } else {
                        "write the statement's value in place of the placeholder (docs/rules-format.md)"
                    };
                    (end, help)
                }
                // Inside a word (`NOTODO`): not a placeholder.
                _ => continue,
            };
            found.push((
                InItem::Rules,
                offset + at..offset + end,
                "the rules file".to_string(),
                help,
            ));
            from = end.max(from);
        }
        offset += line.len();
    }
}

fn game_record_placeholders(index: usize, text: &str, found: &mut ItemFound) {
    let mut from = 0;
    while let Some(at) = text[from..].find(MARK).map(|i| i + from) {
        from = at + MARK.len();
        let (close, help) = match text[..at].chars().next_back() {
            Some('"') => (
                '"',
                "write the tag's value: for `Event`, what the record is (`Recorded game: ...`, \
                 `Demonstration: ...`, `Puzzle: ...`)",
            ),
            Some('{') => (
                '}',
                "write the comment, or remove it; the moves follow in the notation of docs/notation.md",
            ),
            _ => continue,
        };
        let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i);
        let end = text[at..line_end].find(close).map_or(line_end, |i| at + i);
        found.push((
            InItem::GameRecord(index),
            at..end,
            "the game record".to_string(),
            help,
        ));
        from = end.max(from);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans(text: &str, scan: fn(&str, &mut ItemFound)) -> Vec<String> {
        let mut found = Vec::new();
        scan(text, &mut found);
        found
            .into_iter()
            .map(|(_, s, _, _)| text[s].to_string())
            .collect()
    }

    #[test]
    fn rules_placeholders_outside_comments() {
        let text =
            "# TODO: not this\ngame \"TODO: the name\"\n  source TODO\n  source NOTODO # TODO\n";
        assert_eq!(spans(text, rules_placeholders), ["TODO: the name", "TODO"]);
    }

    #[test]
    fn game_record_placeholders_in_tags_and_comments() {
        let text = "[Event \"TODO: what\"]\n[Kind \"demonstration\"]\n\n{TODO: moves} 1. a1-a2 {fine TODO}\n";
        assert_eq!(
            spans(text, |t, f| game_record_placeholders(0, t, f)),
            ["TODO: what", "TODO: moves"]
        );
    }
}
