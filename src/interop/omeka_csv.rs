//! Omeka's CSV layouts, read with the csv crate: Omeka Classic's CSV Import (`Dublin Core:Title`,
//! `Item Type Metadata:...`, `tags`, `file`) and Omeka S CSV Import's (`dcterms:title`, with a language suffix
//! `@en` and a data type suffix `^^uri` or `^^resource:item` where present); and the checked catalog written in
//! the Omeka S layout.
//!
//! A cell may hold several values joined by a separator (`--separator`; by default `|` in the Omeka S layout
//! and none in the Classic one, where tags are joined by commas as Classic's importer expects). A `^^uri` cell
//! is an address, optionally followed by a label after a space; a `^^resource:item` cell is the other item's
//! id (its `o:id`, or a ludotheca identifier), optionally followed by the name to show. ludotheca's export adds
//! columns Omeka ignores: `ludotheca:id`, `ludotheca:kind`, encoding schemes as `^^dcterms:<scheme>`, citations
//! as `^^ludotheca:cite` (a bibliography key, then pages), and a board's or an evidence item's games.

use std::collections::HashSet;

use super::draft::{Draft, DraftValue, Link, clean_text, term};
use super::{E_ROW, E_SYNTAX, E_TERM, Input};
use crate::archive::Archive;
use crate::catalog::Kind;
use crate::catalog::terms::{self, Namespace, Term, omeka_label};
use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::source::{FileId, SourceMap};
use crate::suggest;

/// How a column's cells are read.
#[derive(Clone, Debug)]
enum Column {
    Term {
        term: &'static Term,
        lang: Option<String>,
        data: Data,
    },
    Tags,
    Files,
    ItemType,
    Collection,
    Id,
    SourceId,
    Kind,
    PlayedWith,
    Attests,
    Confidence,
    ResourceClass,
    ResourceTemplate,
    /// A column with no Dublin Core term: kept as a description under this name.
    Unplaced(String),
    /// A column that says nothing about the item (Classic's `public`, `featured`): named in the report.
    Ignored(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Data {
    Literal,
    Uri,
    Resource,
    Scheme(String),
    Cite,
}

/// Read one CSV file into `input`.
pub fn read(
    files: &SourceMap,
    file: FileId,
    separator: Option<&str>,
    input: &mut Input,
    diagnostics: &mut Diagnostics,
) {
    let text = files.get(file).text();
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .has_headers(true)
        .from_reader(text.as_bytes());
    let headers = match reader.headers() {
        Ok(h) => h.clone(),
        Err(err) => {
            syntax_error(files, file, &err, diagnostics);
            return;
        }
    };
    let classic = headers
        .iter()
        .any(|h| h.starts_with("Dublin Core:") || h.starts_with("Item Type Metadata:"));
    let separator = separator
        .map(str::to_string)
        .or_else(|| (!classic).then(|| "|".to_string()));
    let mut columns = Vec::new();
    let mut failed = false;
    for (i, header) in headers.iter().enumerate() {
        match column(header, classic) {
            Ok(c) => columns.push(c),
            Err((message, help)) => {
                let at = field_offset(&text, 0, i);
                let mut d =
                    Diagnostic::error(E_TERM, message).at(files, file, at..at + header.len());
                if let Some(help) = help {
                    d = d.with_help(help);
                }
                diagnostics.push(d);
                failed = true;
                columns.push(Column::Ignored(header.to_string()));
            }
        }
    }
    if failed {
        return;
    }
    for c in &columns {
        if let Column::Ignored(name) = c {
            input.count_not_carried(&format!("column `{name}`"));
        }
    }
    let mut record = csv::StringRecord::new();
    let mut row = 0;
    loop {
        match reader.read_record(&mut record) {
            Ok(false) => break,
            Ok(true) => {}
            Err(err) => {
                syntax_error(files, file, &err, diagnostics);
                return;
            }
        }
        // The csv crate counts a row from the end of the previous one, line break included.
        let mut start = record.position().map_or(0, |p| p.byte() as usize);
        while text
            .as_bytes()
            .get(start)
            .is_some_and(|b| matches!(b, b'\r' | b'\n'))
        {
            start += 1;
        }
        row += 1;
        if record.len() != headers.len() {
            let line = files.get(file).position(start).line;
            diagnostics.push(
                Diagnostic::error(
                    E_ROW,
                    format!(
                        "row at line {line} has {} fields, but the header names {} columns",
                        record.len(),
                        headers.len()
                    ),
                )
                .at(files, file, {
                    // Point at the first field too many, or at the row when fields are missing.
                    let at = if record.len() > headers.len() {
                        field_offset(&text, start, headers.len())
                    } else {
                        start
                    };
                    at..at + 1
                })
                .with_help("a value holding the delimiter, a quote or a line break must be quoted: \"a, b\""),
            );
            continue;
        }
        if record.iter().all(|c| c.trim().is_empty()) {
            continue;
        }
        let mut draft = Draft::new(file, start..start + 1);
        for (i, (cell, column)) in record.iter().zip(&columns).enumerate() {
            let at = field_offset(&text, start, i);
            read_cell(&mut draft, column, cell, separator.as_deref(), at..at + 1);
        }
        if draft.source_id.is_none() {
            draft.source_id = Some(format!("row {row}"));
        }
        input.drafts.push(draft);
    }
}

fn syntax_error(files: &SourceMap, file: FileId, err: &csv::Error, diagnostics: &mut Diagnostics) {
    let at = err.position().map_or(0, |p| p.byte() as usize);
    let message = match err.kind() {
        csv::ErrorKind::Utf8 { .. } => "the CSV file is not UTF-8".to_string(),
        _ => format!("the CSV file cannot be read: {err}"),
    };
    diagnostics.push(Diagnostic::error(E_SYNTAX, message).at(files, file, at..at + 1));
}

/// Where field `index` of the row starting at byte `start` begins: the csv crate gives a row's position, and
/// this counts delimiters outside quotes from there.
fn field_offset(text: &str, start: usize, index: usize) -> usize {
    let bytes = text.as_bytes();
    let mut at = start.min(bytes.len());
    let mut field = 0;
    let mut quoted = false;
    while at < bytes.len() && field < index {
        match bytes[at] {
            b'"' => quoted = !quoted,
            b',' if !quoted => field += 1,
            b'\n' if !quoted => break,
            _ => {}
        }
        at += 1;
    }
    at
}

/// A term by its Omeka Classic element name (`Title`, `Alternative Title`, `Instructional Method`), or by the
/// label a site gave it.
fn term_by_label(name: &str) -> Option<&'static Term> {
    terms::TERMS
        .iter()
        .find(|t| omeka_label(t).eq_ignore_ascii_case(name) || t.label.eq_ignore_ascii_case(name))
}

type HeaderError = (String, Option<String>);

fn column(header: &str, classic: bool) -> Result<Column, HeaderError> {
    let header = header.trim();
    if let Some(name) = header.strip_prefix("Dublin Core:") {
        return match term_by_label(name.trim()) {
            Some(term) => Ok(Column::Term {
                term,
                lang: None,
                data: Data::Literal,
            }),
            None => Err((
                format!("`{header}` names no Dublin Core element"),
                suggest::closest(name, terms::TERMS.iter().map(omeka_label))
                    .map(|best| format!("did you mean `Dublin Core:{best}`?")),
            )),
        };
    }
    if let Some(name) = header.strip_prefix("Item Type Metadata:") {
        return Ok(Column::Unplaced(name.trim().to_string()));
    }
    let mut words = header.split_whitespace();
    let name = words.next().unwrap_or("");
    match name.to_ascii_lowercase().as_str() {
        "tags" => return Ok(Column::Tags),
        "file" | "files" | "o:media" | "media" => return Ok(Column::Files),
        "itemtype" | "item type" => return Ok(Column::ItemType),
        "collection" | "o:item_set" | "item set" => return Ok(Column::Collection),
        "ludotheca:id" => return Ok(Column::Id),
        "o:id" | "id" => return Ok(Column::SourceId),
        "ludotheca:kind" => return Ok(Column::Kind),
        "ludotheca:playedwith" => return Ok(Column::PlayedWith),
        "ludotheca:attests" => return Ok(Column::Attests),
        "ludotheca:confidence" => return Ok(Column::Confidence),
        "o:resource_class" => return Ok(Column::ResourceClass),
        "o:resource_template" => return Ok(Column::ResourceTemplate),
        _ => {}
    }
    if header.eq_ignore_ascii_case("item type") {
        return Ok(Column::ItemType);
    }
    let Some((prefix, local)) = name.split_once(':') else {
        return Ok(if classic {
            Column::Ignored(header.to_string())
        } else {
            Column::Unplaced(header.to_string())
        });
    };
    let ns = match prefix {
        "dcterms" => Namespace::Dcterms,
        "dc" => Namespace::Dc,
        _ => return Ok(Column::Unplaced(header.to_string())),
    };
    let Some(term) = terms::lookup(ns, local) else {
        return Err((
            format!("`{name}` is not a Dublin Core term"),
            suggest::closest(local, terms::names(ns))
                .map(|best| format!("did you mean `{prefix}:{best}`?")),
        ));
    };
    let mut lang = None;
    let mut data = Data::Literal;
    for word in words {
        if let Some(l) = word.strip_prefix('@') {
            lang = Some(l.to_string());
        } else if let Some(t) = word.strip_prefix("^^") {
            data = match t {
                "uri" => Data::Uri,
                "ludotheca:cite" => Data::Cite,
                t if t.starts_with("resource") => Data::Resource,
                t if t.starts_with("dcterms:") => Data::Scheme(t.to_string()),
                _ => Data::Literal,
            };
        }
    }
    Ok(Column::Term { term, lang, data })
}

fn split<'a>(cell: &'a str, separator: Option<&str>) -> Vec<&'a str> {
    match separator {
        Some(sep) if !sep.is_empty() => cell.split(sep).collect(),
        _ => vec![cell],
    }
    .into_iter()
    .map(str::trim)
    .filter(|p| !p.is_empty())
    .collect()
}

fn read_cell(
    draft: &mut Draft,
    column: &Column,
    cell: &str,
    separator: Option<&str>,
    at: crate::source::Span,
) {
    if cell.trim().is_empty() {
        return;
    }
    match column {
        Column::Term {
            term: t,
            lang,
            data,
        } => {
            for part in split(cell, separator) {
                let mut value = DraftValue::new(t, String::new(), at.clone());
                value.lang = lang.clone();
                match data {
                    Data::Literal => value.text = clean_text(part),
                    Data::Scheme(s) => {
                        value.text = clean_text(part);
                        value.scheme = Some(s.clone());
                    }
                    Data::Uri => match part.split_once(char::is_whitespace) {
                        Some((uri, label)) => value.text = format!("{} <{uri}>", clean_text(label)),
                        None => {
                            value.text = part.to_string();
                            value.scheme = Some("dcterms:URI".to_string());
                        }
                    },
                    Data::Resource => {
                        let (target, name) = match part.split_once(char::is_whitespace) {
                            Some((t, n)) => (t, Some(clean_text(n))),
                            None => (part, None),
                        };
                        value.text = name.clone().unwrap_or_default();
                        value.link = Some(Link {
                            target: target.to_string(),
                            fallback: name,
                        });
                    }
                    Data::Cite => {
                        let (key, pages) = match part.split_once(char::is_whitespace) {
                            Some((k, p)) => (k, Some(p.trim().to_string())),
                            None => (part, None),
                        };
                        value.cite = Some(key.to_string());
                        value.pages = pages;
                    }
                }
                draft.values.push(value);
            }
        }
        Column::Tags => {
            // Omeka Classic joins tags with commas.
            for tag in split(cell, Some(",")) {
                draft.push(term("subject"), tag, at.clone());
            }
            draft.notes.push("tags kept as dcterms:subject".to_string());
        }
        // A ludotheca export's pictures, given by where the site publishes them.
        Column::Files if draft.wanted_id.is_some() => {
            for f in split(cell, Some(separator.unwrap_or(","))) {
                draft.pictures.push(f.to_string());
            }
        }
        Column::Files => {
            for f in split(cell, Some(separator.unwrap_or(","))) {
                let is_uri = crate::scheme::uri::parse_uri(f).is_ok();
                if let Some(v) = draft.push(term("hasFormat"), f, at.clone()) {
                    v.scheme = is_uri.then(|| "dcterms:URI".to_string());
                }
                draft.notes.push(format!(
                    "file `{f}` kept as a reference, dcterms:hasFormat (the file itself is not copied)"
                ));
            }
        }
        Column::ItemType => {
            let name = cell.trim();
            if draft.kind.is_none() {
                draft.kind = kind_named(name);
            }
            draft.push(term("type"), name, at);
            draft
                .notes
                .push(format!("item type `{name}` kept as dcterms:type"));
        }
        Column::ResourceClass => {
            let class = cell.trim();
            if draft.kind.is_none() && class.eq_ignore_ascii_case("dctype:PhysicalObject") {
                draft.kind = Some(Kind::Board);
            }
            let (text, scheme) = match class.strip_prefix("dctype:") {
                Some(n) => (n, Some("dcterms:DCMIType")),
                None => (class, None),
            };
            if let Some(v) = draft.push(term("type"), text, at) {
                v.scheme = scheme.map(str::to_string);
            }
            draft
                .notes
                .push(format!("resource class `{class}` kept as dcterms:type"));
        }
        Column::ResourceTemplate => {
            if draft.kind.is_none() {
                draft.kind = kind_named(cell);
            }
        }
        Column::Collection => {
            for set in split(cell, separator) {
                draft.push(term("isPartOf"), set, at.clone());
                draft
                    .notes
                    .push(format!("collection `{set}` kept as dcterms:isPartOf"));
            }
        }
        Column::Id => draft.wanted_id = Some(cell.trim().to_string()),
        Column::SourceId => draft.source_id = Some(cell.trim().to_string()),
        Column::Kind => draft.kind = Kind::parse(cell.trim()),
        Column::Confidence => draft.confidence = Some(cell.trim().to_string()),
        Column::Attests => {
            draft.attests = split(cell, separator)
                .into_iter()
                .map(str::to_string)
                .collect();
        }
        Column::PlayedWith => {
            for link in split(cell, separator) {
                let (game, ruleset) = match link.split_once(char::is_whitespace) {
                    Some((g, r)) => (g, Some(r.trim().to_string())),
                    None => (link, None),
                };
                draft.played_with.push((game.to_string(), ruleset));
            }
        }
        Column::Unplaced(name) => {
            for part in split(cell, separator) {
                draft.keep_unplaced(name, part, at.clone());
            }
        }
        Column::Ignored(_) => {}
    }
}

fn kind_named(name: &str) -> Option<Kind> {
    match name.trim().to_ascii_lowercase().as_str() {
        "game" | "games" | "board game" => Some(Kind::Game),
        "board" | "physical object" => Some(Kind::Board),
        "evidence" => Some(Kind::Evidence),
        _ => None,
    }
}

/// A column of the export: the header, and which values go in it.
#[derive(Clone, PartialEq, Eq, Hash)]
struct ExportColumn {
    term: &'static str,
    lang: Option<String>,
    data: String,
}

impl ExportColumn {
    fn header(&self) -> String {
        let mut h = format!("dcterms:{}", self.term);
        if !self.data.is_empty() {
            h.push_str(&format!(" ^^{}", self.data));
        }
        if let Some(l) = &self.lang {
            h.push_str(&format!(" @{l}"));
        }
        h
    }
}

fn export_column(v: &crate::catalog::Value) -> ExportColumn {
    let data = if v.ref_().is_some() {
        "resource:item".to_string()
    } else if v.cite().is_some() {
        "ludotheca:cite".to_string()
    } else if let Some(s) = &v.scheme() {
        format!("dcterms:{}", s.value.rsplit(':').next().unwrap_or(&s.value))
    } else {
        String::new()
    };
    ExportColumn {
        term: v.term.name,
        lang: v.lang().map(|l| l.value.clone()),
        data,
    }
}

fn export_cell(v: &crate::catalog::Value) -> String {
    if let Some(r) = &v.ref_() {
        return if v.text.is_empty() {
            r.value.clone()
        } else {
            format!("{} {}", r.value, v.text)
        };
    }
    if let Some(c) = &v.cite() {
        return match v.pages() {
            Some(p) => format!("{} {}", c.value, p.value),
            None => c.value.clone(),
        };
    }
    v.text.to_string()
}

/// The separators an export may join values with, in order of preference: the first that no value holds.
const SEPARATORS: [&str; 4] = ["|", "¦", "||", "␞"];

/// The checked catalog in the Omeka S CSV Import layout, one row per item, one column per term, language and
/// data type in use (in the configured order of terms). Returns the separator that joins repeated values.
/// The column of pictures' addresses in an export.
pub const MEDIA_COLUMN: &str = "media";

pub fn write(
    archive: &Archive,
    base: Option<&str>,
    sink: &mut dyn std::io::Write,
) -> std::io::Result<&'static str> {
    let config = &archive.catalog.config;
    let mut seen = HashSet::new();
    let mut columns: Vec<ExportColumn> = Vec::new();
    for label in &config.labels {
        for entry in &archive.entries {
            for v in entry.item.values_of(label.term.name) {
                let c = export_column(v);
                if seen.insert(c.clone()) {
                    columns.push(c);
                }
            }
        }
    }
    let separator = SEPARATORS
        .iter()
        .copied()
        .find(|sep| {
            !archive.entries.iter().any(|e| {
                e.item.values.iter().any(|v| export_cell(v).contains(sep))
                    || e.item
                        .played_with
                        .iter()
                        .any(|l| l.ruleset.as_ref().is_some_and(|r| r.value.contains(sep)))
            })
        })
        .unwrap_or("␞");
    let mut writer = csv::Writer::from_writer(sink);
    let mut header = vec!["ludotheca:id".to_string(), "ludotheca:kind".to_string()];
    header.extend(columns.iter().map(ExportColumn::header));
    header.extend(
        [
            "ludotheca:playedWith",
            "ludotheca:attests",
            "ludotheca:confidence",
        ]
        .map(String::from),
    );
    // The pictures' addresses, for CSV Import's media source "URL", which fetches each from the published site.
    let media = base.filter(|_| {
        archive
            .entries
            .iter()
            .any(|e| super::export::picture_count(e) > 0)
    });
    if media.is_some() {
        header.push(MEDIA_COLUMN.to_string());
    }
    writer.write_record(&header)?;
    for entry in &archive.entries {
        let item = entry.item;
        let mut row = vec![item.id.clone(), entry.kind.as_str().to_string()];
        for c in &columns {
            let cells: Vec<String> = item
                .values_of(c.term)
                .filter(|v| export_column(v) == *c)
                .map(export_cell)
                .collect();
            row.push(cells.join(separator));
        }
        let played: Vec<String> = item
            .played_with
            .iter()
            .filter_map(|l| {
                let game = &l.game.as_ref()?.value;
                Some(match &l.ruleset {
                    Some(r) => format!("{game} {}", r.value),
                    None => game.clone(),
                })
            })
            .collect();
        row.push(played.join(separator));
        let attests: Vec<&str> = item
            .attests
            .iter()
            .filter_map(|l| l.game.as_ref().map(|g| g.value.as_str()))
            .collect();
        row.push(attests.join(separator));
        row.push(
            item.confidence
                .first()
                .map(|c| c.value.clone())
                .unwrap_or_default(),
        );
        if let Some(base) = media {
            let urls: Vec<String> = super::export::pictures(entry, base)
                .into_iter()
                .map(|p| p.url)
                .collect();
            row.push(urls.join(separator));
        }
        writer.write_record(&row)?;
    }
    writer.flush()?;
    Ok(separator)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_of_both_layouts() {
        assert!(matches!(
            column("Dublin Core:Instructional Method", true),
            Ok(Column::Term { term, .. }) if term.name == "instructionalMethod"
        ));
        assert!(matches!(
            column("Dublin Core:Entered by", true),
            Ok(Column::Term { term, .. }) if term.name == "accrualMethod"
        ));
        match column("dcterms:alternative ^^dcterms:Point @njm", false) {
            Ok(Column::Term { term, lang, data }) => {
                assert_eq!(term.name, "alternative");
                assert_eq!(lang.as_deref(), Some("njm"));
                assert_eq!(data, Data::Scheme("dcterms:Point".into()));
            }
            other => panic!("{other:?}"),
        }
        let err = column("dcterms:titel", false).unwrap_err();
        assert_eq!(err.1.as_deref(), Some("did you mean `dcterms:title`?"));
        assert!(matches!(
            column("foaf:name", false),
            Ok(Column::Unplaced(_))
        ));
    }

    #[test]
    fn fields_are_found_past_quoted_commas() {
        let text = "a,b\n\"x, \"\"y\"\"\",z\n";
        assert_eq!(field_offset(text, 4, 1), 15);
        assert_eq!(&text[15..16], "z");
    }
}
