//! `import --update` as a three-way merge. The import keeps, beside each record it writes, the values it took
//! from the source (`.ludotheca-source.xml`, hidden, so the catalog never reads it). The next update compares
//! three sets of values: that earlier import, the record as the archivist left it, and the source now.
//!
//! - A value the source dropped since the earlier import is removed from the record.
//! - A value new in the source is added, unless the archivist had already removed it.
//! - Everything else the record holds stays: values added by hand (a citation in place of a plain source, a
//!   tag), and every element the import does not write (pictures, comments, the game a board is played with).
//!
//! The record is edited where the values are, not written again, so its layout, comments and order survive and a
//! version-control diff shows only what changed. An item imported before the import kept its values has no
//! earlier import to compare with: its record then takes the source's values, as an update always did.

use std::collections::HashSet;

use super::draft::{Draft, DraftValue};
use crate::catalog::terms::{DCTERMS_NS, XSI_NS};
use crate::catalog::{Item, Value};

/// The values an item's last import took from its source, beside its `record.xml`.
pub const BASE_FILE: &str = ".ludotheca-source.xml";

/// A record after the merge.
pub struct Merged {
    pub record: String,
    /// Keys of the values added to the record, and of those removed from it.
    pub added: Vec<usize>,
    pub removed: Vec<usize>,
    /// Values the record holds that the source does not give (the archivist's), kept.
    pub kept: usize,
    /// Values of the source the archivist removed from the record, left out again.
    pub declined: usize,
}

/// A draft value's attributes, in the order a record writes them: `xml:lang`, `xsi:type`, `ref`, `cite`, `pages`.
pub fn draft_attributes(v: &DraftValue) -> [Option<&str>; 5] {
    [
        v.lang.as_deref(),
        v.scheme.as_deref(),
        v.ref_.as_deref(),
        v.cite.as_deref(),
        v.pages.as_deref(),
    ]
}

/// A record's value's attributes, in the same order.
pub fn value_attributes(v: &Value) -> [Option<&str>; 5] {
    fn attr(a: Option<&crate::catalog::Spanned<String>>) -> Option<&str> {
        a.map(|a| a.value.as_str())
    }
    [
        attr(v.lang()),
        attr(v.scheme()),
        attr(v.ref_()),
        attr(v.cite()),
        attr(v.pages()),
    ]
}

/// A value as one string, all of it: what tells two values apart.
pub fn draft_key(v: &DraftValue) -> String {
    key(v.term.name, &v.text, draft_attributes(v))
}

pub fn value_key(v: &Value) -> String {
    key(v.term.name, &v.text, value_attributes(v))
}

fn key(term: &str, text: &str, attributes: [Option<&str>; 5]) -> String {
    let mut key = format!("{term}\u{0}{text}");
    for a in attributes {
        key.push('\u{0}');
        if let Some(a) = a {
            key.push('=');
            key.push_str(a);
        }
    }
    key
}

/// Merge the source's values (`incoming`) into the record `text` of `current`, against the values of the last
/// import (`base`; `None` when there is none). `added` indexes `incoming.values`, `removed` indexes
/// `current.values`. Fails when the record is not one the edit can be made in safely (it was not read whole).
pub fn merge(
    text: &str,
    current: &Item,
    base: Option<&[Value]>,
    incoming: &Draft,
) -> Result<Merged, String> {
    if !current.well_formed || !current.root_ok {
        return Err("its record.xml is not a well-formed record; mend it (`ludotheca check` says where) and import again".into());
    }
    let current_keys: Vec<String> = current.values.iter().map(value_key).collect();
    let base_keys: HashSet<String> = match base {
        Some(values) => values.iter().map(value_key).collect(),
        // No earlier import: every value of the record counts as the source's.
        None => current_keys.iter().cloned().collect(),
    };
    let incoming_keys: Vec<String> = incoming.values.iter().map(draft_key).collect();
    let incoming_set: HashSet<&str> = incoming_keys.iter().map(String::as_str).collect();
    let current_set: HashSet<&str> = current_keys.iter().map(String::as_str).collect();

    let removed: Vec<usize> = (0..current.values.len())
        .filter(|&i| {
            base_keys.contains(&current_keys[i]) && !incoming_set.contains(current_keys[i].as_str())
        })
        .collect();
    let mut seen = HashSet::new();
    let added: Vec<usize> = (0..incoming.values.len())
        .filter(|&i| {
            let k = incoming_keys[i].as_str();
            !current_set.contains(k) && !base_keys.contains(k) && seen.insert(k)
        })
        .collect();
    let kept = (0..current.values.len())
        .filter(|&i| {
            !base_keys.contains(&current_keys[i])
                && !incoming_set.contains(current_keys[i].as_str())
        })
        .count();
    let declined = incoming_keys
        .iter()
        .filter(|k| base_keys.contains(*k) && !current_set.contains(k.as_str()))
        .count();

    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    let close = text
        .rfind("</")
        .filter(|&at| text[at..].trim_end().ends_with('>'))
        .ok_or("its record.xml has no closing tag")?;
    let close_line = text[..close].rfind('\n').map_or(0, |n| n + 1);
    let line_after = |end: usize| text[end..].find('\n').map_or(text.len(), |n| end + n + 1);
    let indent_of = |v: &Value| {
        let at = v.span().start.saturating_sub(1);
        let line = text[..at].rfind('\n').map_or(0, |n| n + 1);
        Some(text[line..at].to_string()).filter(|i| i.trim().is_empty())
    };
    let indent = current
        .values
        .last()
        .and_then(indent_of)
        .unwrap_or_else(|| "  ".to_string());
    let mut anchor = close_line;
    if let Some(last) = current.values.iter().map(|v| element_end(text, v)).max() {
        anchor = line_after(last?);
    }
    // A value the source changed takes the place of the one it replaces (the first removed value of its term),
    // so that a changed title stays where the title was; another new value goes after the last of its term
    // that stays, or after the record's last value.
    let mut slots: Vec<usize> = removed.clone();
    let mut inserts: std::collections::BTreeMap<usize, String> = std::collections::BTreeMap::new();
    for &i in &added {
        let value = &incoming.values[i];
        let xml = super::draft::value_xml(value);
        if let Some(at) = slots
            .iter()
            .position(|&r| current.values[r].term.name == value.term.name)
        {
            let r = slots.remove(at);
            let old = &current.values[r];
            edits.push((old.span().start - 1, element_end(text, old)?, xml));
            continue;
        }
        let same_term = current
            .values
            .iter()
            .enumerate()
            .rev()
            .find(|(j, v)| v.term.name == value.term.name && !removed.contains(j))
            .map(|(_, v)| v);
        let (at, indent) = match same_term {
            Some(v) => (
                line_after(element_end(text, v)?),
                indent_of(v).unwrap_or(indent.clone()),
            ),
            None => (anchor, indent.clone()),
        };
        let entry = inserts.entry(at).or_default();
        entry.push_str(&indent);
        entry.push_str(&xml);
        entry.push('\n');
    }
    for r in slots {
        let (start, end) = element_lines(text, &current.values[r])?;
        edits.push((start, end, String::new()));
    }
    edits.extend(inserts.into_iter().map(|(at, xml)| (at, at, xml)));
    // What only the catalog holds: kept as the archivist wrote it, given from the source only when missing.
    let mut links = String::new();
    if current.played_with.is_empty() {
        for (game, ruleset) in &incoming.played_with {
            links.push_str(&indent);
            links.push_str(&super::draft::played_with_xml(game, ruleset.as_deref()));
            links.push('\n');
        }
    }
    if current.attests.is_empty() {
        for game in &incoming.attests {
            links.push_str(&indent);
            links.push_str(&super::draft::attests_xml(game));
            links.push('\n');
        }
    }
    if current.confidence.is_empty()
        && let Some(c) = &incoming.confidence
    {
        links.push_str(&indent);
        links.push_str(&super::draft::confidence_xml(c));
        links.push('\n');
    }
    if !links.is_empty() {
        edits.push((close_line, close_line, links));
    }
    // The prefixes the added values are written with, declared on the root when it does not yet declare them.
    let root_end = text[current.root_span.end..]
        .find('>')
        .map(|n| current.root_span.end + n)
        .ok_or("its record.xml has no root element")?;
    let root_tag = &text[current.root_span.start..root_end];
    let mut declare = String::new();
    if !added.is_empty() && !root_tag.contains("xmlns:dcterms=") {
        declare.push_str(&format!(" xmlns:dcterms=\"{DCTERMS_NS}\""));
    }
    if added.iter().any(|&i| incoming.values[i].scheme.is_some())
        && !root_tag.contains("xmlns:xsi=")
    {
        declare.push_str(&format!(" xmlns:xsi=\"{XSI_NS}\""));
    }
    if !declare.is_empty() {
        let at = if text[..root_end].ends_with('/') {
            root_end - 1
        } else {
            root_end
        };
        edits.push((at, at, declare));
    }

    // From the end, so that every position still means what it meant in the original text; an insertion at
    // the end of a removed stretch goes in before the stretch is removed.
    edits.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)));
    let mut record = text.to_string();
    for (start, end, replacement) in edits {
        record.replace_range(start..end, &replacement);
    }
    Ok(Merged {
        record,
        added,
        removed,
        kept,
        declined,
    })
}

/// Where a value's element ends: after its end tag, or after an empty element's `/>`.
fn element_end(text: &str, v: &Value) -> Result<usize, String> {
    let name = &text[v.span()];
    let after = v.text_span().end;
    let tag_end = text[v.span().end..].find('>').map(|n| v.span().end + n);
    if v.text.is_empty() && tag_end.is_some_and(|e| text[..e].ends_with('/') && e < after) {
        return Ok(tag_end.unwrap_or(after) + 1);
    }
    let close = format!("</{name}");
    let at = text[after..]
        .find(&close)
        .map(|n| after + n)
        .ok_or_else(|| format!("the end of `{name}` was not found"))?;
    text[at..]
        .find('>')
        .map(|n| at + n + 1)
        .ok_or_else(|| format!("the end of `{name}` was not found"))
}

/// The stretch a removed value takes: its element, and its whole line when nothing else is on it.
fn element_lines(text: &str, v: &Value) -> Result<(usize, usize), String> {
    let start = v.span().start.saturating_sub(1);
    let end = element_end(text, v)?;
    let line_start = text[..start].rfind('\n').map_or(0, |n| n + 1);
    let line_end = text[end..].find('\n').map_or(text.len(), |n| end + n + 1);
    let alone = text[line_start..start].trim().is_empty() && text[end..line_end].trim().is_empty();
    Ok(if alone {
        (line_start, line_end)
    } else {
        (start, end)
    })
}
