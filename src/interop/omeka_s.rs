//! Omeka S: the JSON of its REST API (`/api/items`: an array of items, a page of them, or one item per file),
//! read into drafts; and the checked catalog written back in that shape.
//!
//! A value is an object keyed by its term: `type` (`literal`, `uri`, `resource:item`, a module's data type),
//! `@value` and `@language`, `@id` and `o:label` for a URI, `value_resource_id` for a link to another resource.
//! Resource templates (`/api/resource_templates`) and item sets may be given among the inputs: a template's
//! alternate labels become the collection's labels, its label may name the kind, and an item set's title names
//! the set its items are part of.
//!
//! ludotheca's own export adds what Omeka S has no field for, under the `ludotheca:` prefix its `@context`
//! declares: the identifier and kind of each item, a value's bibliography key and pages, a board's games, an
//! evidence item's game and confidence; and a value's encoding scheme as its JSON-LD `@type`. Omeka S ignores
//! them; an import reads them back, so that a catalog survives the trip.

use std::collections::HashMap;

use serde_json::value::RawValue;
use serde_json::{Value as Json, json};

use super::draft::{Draft, DraftValue, Link, clean_text, term};
use super::json::{self, Object};
use super::{E_SHAPE, E_SYNTAX, E_TERM, Input};
use crate::archive::Archive;
use crate::catalog::Kind;
use crate::catalog::terms::{self, DCTERMS_NS, Namespace};
use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::source::{FileId, SourceMap};
use crate::suggest;

/// JSON-LD prefixes of the export's `@context`.
const CONTEXT: [(&str, &str); 5] = [
    ("o", "http://omeka.org/s/vocabs/o#"),
    ("dcterms", DCTERMS_NS),
    ("dctype", "http://purl.org/dc/dcmitype/"),
    ("xsd", "http://www.w3.org/2001/XMLSchema#"),
    ("ludotheca", "urn:ludotheca:record:1#"),
];

/// Item fields of Omeka S that describe its place in that installation rather than the item: not carried into
/// records, and counted in the report.
const SYSTEM_FIELDS: [&str; 5] = [
    "o:owner",
    "o:site",
    "o:thumbnail",
    "o:primary_media",
    "o:resource_template",
];

/// Fields made from others (the title from `dcterms:title`, thumbnails from media, the JSON-LD context): nothing
/// is lost by leaving them out.
const DERIVED_FIELDS: [&str; 3] = ["@context", "o:title", "thumbnail_display_urls"];

/// What the resources given besides the items say: templates by id (label, alternate labels) and item sets by
/// id (title).
#[derive(Default)]
struct Context {
    templates: HashMap<String, String>,
    sets: HashMap<String, String>,
}

/// Read files of Omeka S JSON into `input`: first what every file says about templates and item sets, then the
/// items.
pub fn read(files: &SourceMap, read: &[FileId], input: &mut Input, diagnostics: &mut Diagnostics) {
    let mut context = Context::default();
    let mut items = Vec::new();
    // Held for the whole reading: the items found borrow from them until the second pass below.
    let texts: Vec<_> = read.iter().map(|&file| files.get(file).text()).collect();
    for (&file, text) in read.iter().zip(&texts) {
        let root: &RawValue = match serde_json::from_str(text) {
            Ok(root) => root,
            Err(err) => {
                diagnostics.push(
                    Diagnostic::error(E_SYNTAX, format!("not valid JSON: {}", strip_position(&err)))
                        .at_line_column(files, file, err.line(), err.column().max(1), 1)
                        .with_help(
                            "the file must be the JSON of Omeka S's API: an array of items, or one item",
                        ),
                );
                continue;
            }
        };
        let resources: Vec<&RawValue> = match json::array(root) {
            Some(list) => list,
            None => vec![root],
        };
        for raw in resources {
            let Some(object) = json::object(raw) else {
                diagnostics.push(
                    Diagnostic::error(E_SHAPE, "expected an Omeka S resource (a JSON object) here")
                        .at(files, file, json::span(text, raw)),
                );
                continue;
            };
            let types = object.get("@type").map(type_names).unwrap_or_default();
            let id = object.get("o:id").and_then(json::text);
            if object.get("o:resource_template_property").is_some() {
                read_template(&object, id, input, &mut context);
            } else if types.iter().any(|t| t == "o:ItemSet") {
                if let (Some(id), Some(title)) = (id, object.get("o:title").and_then(json::text)) {
                    context.sets.insert(id, title);
                }
            } else if types.iter().any(|t| t == "o:Media") {
                input.count_not_carried("a media resource (files are not imported)");
            } else {
                items.push((file, raw, object));
            }
        }
    }
    for (file, raw, object) in items {
        let text = files.get(file).text();
        let draft = read_item(
            files,
            file,
            &text,
            raw,
            &object,
            &context,
            input,
            diagnostics,
        );
        input.drafts.push(draft);
    }
}

/// serde_json's message ends with its own "at line L column C"; the diagnostic gives the position itself.
fn strip_position(err: &serde_json::Error) -> String {
    let message = err.to_string();
    match message.rfind(" at line ") {
        Some(at) => message[..at].to_string(),
        None => message,
    }
}

/// `@type` as a list of names, whether written as one string or an array.
fn type_names(raw: &RawValue) -> Vec<String> {
    match json::array(raw) {
        Some(list) => list.into_iter().filter_map(json::text).collect(),
        None => json::text(raw).into_iter().collect(),
    }
}

fn read_template(object: &Object, id: Option<String>, input: &mut Input, context: &mut Context) {
    let label = object
        .get("o:label")
        .and_then(json::text)
        .unwrap_or_default();
    if let Some(id) = id {
        context.templates.insert(id, label);
    }
    let Some(properties) = object
        .get("o:resource_template_property")
        .and_then(json::array)
    else {
        return;
    };
    for property in properties {
        let Some(p) = json::object(property) else {
            continue;
        };
        let Some(alternate) = p.get("o:alternate_label").and_then(json::text) else {
            continue;
        };
        // The property is named by its term when the template was exported with it, else only by an id.
        let term = p
            .get("o:property")
            .and_then(json::object)
            .and_then(|o| o.get("o:term").and_then(json::text))
            .or_else(|| p.get("o:term").and_then(json::text));
        if let Some(term) = term.as_deref().and_then(terms::lookup_prefixed) {
            let alternate = clean_text(&alternate);
            if !alternate.is_empty() && !input.labels.iter().any(|(t, _)| t.name == term.name) {
                input.labels.push((term, alternate));
            }
        }
    }
}

/// The kind a template's label or a class names, if it names one.
fn kind_named(name: &str) -> Option<Kind> {
    let lower = name.trim().to_ascii_lowercase();
    match lower.as_str() {
        "game" | "games" | "board game" => Some(Kind::Game),
        "board" | "boards" | "dctype:physicalobject" => Some(Kind::Board),
        "evidence" => Some(Kind::Evidence),
        _ => None,
    }
}

#[allow(clippy::too_many_arguments)]
fn read_item(
    files: &SourceMap,
    file: FileId,
    text: &str,
    raw: &RawValue,
    object: &Object,
    context: &Context,
    input: &mut Input,
    diagnostics: &mut Diagnostics,
) -> Draft {
    let mut draft = Draft::new(file, json::span(text, raw));
    draft.source_id = object.get("o:id").and_then(json::text);
    for (key, value) in &object.0 {
        let key = key.as_ref();
        let at = json::span(text, value);
        match key {
            "o:id" | "@type" => {}
            "@id" => draft.origin = json::text(value).map(|address| (address, at.clone())),
            _ if DERIVED_FIELDS.contains(&key) => {}
            "ludotheca:id" => draft.wanted_id = json::text(value),
            "ludotheca:kind" => draft.kind = json::text(value).as_deref().and_then(Kind::parse),
            "ludotheca:confidence" => draft.confidence = json::text(value),
            "ludotheca:attests" => {
                draft.attests = json::array(value)
                    .unwrap_or_default()
                    .into_iter()
                    .filter_map(json::text)
                    .collect();
            }
            "ludotheca:playedWith" => {
                for link in json::array(value).unwrap_or_default() {
                    if let Some(o) = json::object(link)
                        && let Some(game) = o.get("game").and_then(json::text)
                    {
                        draft
                            .played_with
                            .push((game, o.get("ruleset").and_then(json::text)));
                    }
                }
            }
            "o:resource_class" => {
                // The class's term is in `@type` (the class object holds only its id); kept as a type.
                let types = object.get("@type").map(type_names).unwrap_or_default();
                for class in types.iter().filter(|t| t.as_str() != "o:Item") {
                    if draft.kind.is_none() {
                        draft.kind = kind_named(class);
                    }
                    let (text, scheme) = match class.strip_prefix("dctype:") {
                        Some(name) => (name.to_string(), Some("dcterms:DCMIType")),
                        None => (class.clone(), None),
                    };
                    if let Some(v) = draft.push(term("type"), &text, at.clone()) {
                        v.scheme = scheme.map(str::to_string);
                        draft
                            .notes
                            .push(format!("resource class `{class}` kept as dcterms:type"));
                    }
                }
            }
            "o:item_set" => {
                for set in json::array(value).unwrap_or_default() {
                    let Some(o) = json::object(set) else { continue };
                    let id = o.get("o:id").and_then(json::text).unwrap_or_default();
                    let (name, scheme) =
                        match (context.sets.get(&id), o.get("@id").and_then(json::text)) {
                            (Some(title), _) => (title.clone(), None),
                            (None, Some(url)) => (url, Some("dcterms:URI")),
                            (None, None) => (format!("Omeka item set {id}"), None),
                        };
                    if let Some(v) = draft.push(term("isPartOf"), &name, json::span(text, set)) {
                        v.scheme = scheme
                            .filter(|_| crate::scheme::uri::parse_uri(&name).is_ok())
                            .map(str::to_string);
                        draft
                            .notes
                            .push(format!("item set {id} kept as dcterms:isPartOf \"{name}\""));
                    }
                }
            }
            "o:media" => {
                for media in json::array(value).unwrap_or_default() {
                    let Some(o) = json::object(media) else {
                        continue;
                    };
                    // A picture to fetch (a ludotheca export's), rather than a media Omeka holds.
                    if let Some(url) = o.get("ingest_url").and_then(json::text) {
                        draft.pictures.push(url);
                        continue;
                    }
                    let name = o
                        .get("@id")
                        .and_then(json::text)
                        .or_else(|| {
                            o.get("o:id")
                                .and_then(json::text)
                                .map(|id| format!("Omeka media {id}"))
                        })
                        .unwrap_or_default();
                    let is_uri = crate::scheme::uri::parse_uri(&name).is_ok();
                    if let Some(v) = draft.push(term("hasFormat"), &name, json::span(text, media)) {
                        v.scheme = is_uri.then(|| "dcterms:URI".to_string());
                        draft.notes.push(format!(
                            "media kept as a reference, dcterms:hasFormat \"{name}\" (the file itself is not copied)"
                        ));
                    }
                }
            }
            "o:created" | "o:modified" => {
                let stamp = json::object(value)
                    .and_then(|o| o.get("@value").and_then(json::text))
                    .or_else(|| json::text(value));
                if let Some(stamp) = stamp {
                    let name = if key == "o:created" {
                        "dateSubmitted"
                    } else {
                        "modified"
                    };
                    let valid = crate::scheme::date::parse_w3cdtf(&stamp).is_ok();
                    if let Some(v) = draft.push(term(name), &stamp, at.clone()) {
                        v.scheme = valid.then(|| "dcterms:W3CDTF".to_string());
                        draft.notes.push(format!("`{key}` kept as dcterms:{name}"));
                    }
                }
            }
            "o:is_public" => {
                if json::text(value).as_deref() == Some("false") {
                    draft.push(
                        term("accessRights"),
                        "Private in the source collection",
                        at.clone(),
                    );
                    draft
                        .notes
                        .push("`o:is_public: false` kept as dcterms:accessRights".to_string());
                }
            }
            _ if SYSTEM_FIELDS.contains(&key) => {
                if key == "o:resource_template"
                    && draft.kind.is_none()
                    && let Some(id) =
                        json::object(value).and_then(|o| o.get("o:id").and_then(json::text))
                {
                    draft.kind = context.templates.get(&id).and_then(|l| kind_named(l));
                }
                input.count_not_carried(key);
            }
            _ => match key.split_once(':') {
                Some((prefix, local)) if json::array(value).is_some() => {
                    read_property(
                        files,
                        file,
                        text,
                        &mut draft,
                        key,
                        prefix,
                        local,
                        value,
                        diagnostics,
                    );
                }
                _ => input.count_not_carried(key),
            },
        }
    }
    draft
}

#[allow(clippy::too_many_arguments)]
fn read_property(
    files: &SourceMap,
    file: FileId,
    text: &str,
    draft: &mut Draft,
    key: &str,
    prefix: &str,
    local: &str,
    raw: &RawValue,
    diagnostics: &mut Diagnostics,
) {
    let values = json::array(raw).unwrap_or_default();
    let dc = match prefix {
        "dcterms" => Some(Namespace::Dcterms),
        "dc" => Some(Namespace::Dc),
        _ => None,
    };
    let term = match dc {
        Some(ns) => match terms::lookup(ns, local) {
            Some(term) => Some(term),
            None => {
                let mut d = Diagnostic::error(E_TERM, format!("`{key}` is not a Dublin Core term"))
                    .at(files, file, json::key_span(text, raw));
                d = match suggest::closest(local, terms::names(ns)) {
                    Some(best) => d.with_help(format!("did you mean `{prefix}:{best}`?")),
                    None => d.with_help("Dublin Core terms are listed in docs/record-format.md"),
                };
                diagnostics.push(d);
                return;
            }
        },
        None => None,
    };
    for raw_value in values {
        let at = json::span(text, raw_value);
        let Some(v) = json::object(raw_value) else {
            diagnostics.push(
                Diagnostic::error(
                    E_SHAPE,
                    format!("a value of `{key}` is not an Omeka S value object"),
                )
                .at(files, file, at)
                .with_help(
                    "each value is an object such as {\"type\": \"literal\", \"@value\": \"...\"}",
                ),
            );
            continue;
        };
        let get = |name: &str| v.get(name).and_then(json::text);
        let kind = get("type").unwrap_or_else(|| "literal".to_string());
        let Some(term) = term else {
            // Another vocabulary: kept, under the label the site gave it when the value says it.
            let name = get("property_label")
                .map(|l| format!("{l} ({key})"))
                .unwrap_or_else(|| key.to_string());
            let shown = get("@value")
                .or_else(|| match (get("o:label"), get("@id")) {
                    (Some(l), Some(u)) => Some(format!("{l} <{u}>")),
                    (None, Some(u)) => Some(u),
                    _ => None,
                })
                .or_else(|| get("display_title"))
                .unwrap_or_default();
            draft.keep_unplaced(&name, &shown, at);
            continue;
        };
        let mut value = DraftValue::new(term, String::new(), at.clone());
        if let Some(cite) = get("ludotheca:cite") {
            value.cite = Some(cite);
            value.pages = get("ludotheca:pages");
        } else if kind == "uri" {
            let uri = get("@id").unwrap_or_default();
            match get("o:label")
                .map(|l| clean_text(&l))
                .filter(|l| !l.is_empty())
            {
                // A label and an address: both kept, in the form text conventionally gives a URI.
                Some(label) => value.text = format!("{label} <{uri}>"),
                None => {
                    value.text = clean_text(&uri);
                    if crate::scheme::uri::parse_uri(&value.text).is_ok() {
                        value.scheme = Some("dcterms:URI".to_string());
                    }
                }
            }
        } else if kind.starts_with("resource") {
            let target = get("value_resource_id").unwrap_or_default();
            let shown = get("o:label")
                .map(|l| clean_text(&l))
                .filter(|l| !l.is_empty());
            value.text = shown.clone().unwrap_or_default();
            value.link = Some(Link {
                target,
                fallback: shown.or_else(|| get("display_title").map(|t| clean_text(&t))),
            });
        } else {
            value.text = clean_text(&get("@value").or_else(|| get("@id")).unwrap_or_default());
            value.lang = get("@language");
            if kind == "numeric:timestamp" {
                value.scheme = Some("dcterms:W3CDTF".to_string());
            } else if let Some(datatype) = get("@type") {
                value.scheme = scheme_of_datatype(&datatype);
            }
            // The HTML data type of Omeka S's RDF module (named `html` in its first versions).
            value.html = matches!(kind.as_str(), "rdf:HTML" | "html");
            if !value.html
                && !matches!(
                    kind.as_str(),
                    "literal" | "numeric:timestamp" | "numeric:integer"
                )
                && !kind.starts_with("customvocab")
            {
                draft
                    .notes
                    .push(format!("data type `{kind}` of `{key}` kept as text"));
            }
        }
        if v.get("@annotation").is_some() {
            draft.notes.push(format!(
                "an annotation on a value of `{key}` is not carried (records have no annotations)"
            ));
        }
        if value.text.is_empty() && value.cite.is_none() && value.link.is_none() {
            continue;
        }
        draft.values.push(value);
    }
}

/// The encoding scheme a JSON-LD datatype IRI names (`http://purl.org/dc/terms/W3CDTF` or `dcterms:W3CDTF`).
fn scheme_of_datatype(datatype: &str) -> Option<String> {
    let local = datatype
        .strip_prefix(DCTERMS_NS)
        .or_else(|| datatype.strip_prefix("dcterms:"))?;
    crate::scheme::Scheme::from_xsi_type(local).map(|_| format!("dcterms:{local}"))
}

/// The checked catalog as Omeka S API JSON: an array of items numbered from 1, in catalog order, with links
/// between them as `resource:item` values. Every value of every record is written; what Omeka S has no field
/// for is under the `ludotheca:` prefix (see the module comment).
pub fn write(
    archive: &Archive,
    base: Option<&str>,
    sink: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let config = &archive.catalog.config;
    let context: serde_json::Map<String, Json> = CONTEXT
        .iter()
        .map(|(k, v)| (k.to_string(), json!(v)))
        .collect();
    let number: HashMap<&str, usize> = archive
        .entries
        .iter()
        .enumerate()
        .map(|(i, e)| (e.item.id.as_str(), i + 1))
        .collect();
    sink.write_all(b"[\n")?;
    for (i, entry) in archive.entries.iter().enumerate() {
        // Keys in the order written (a serde_json map would sort them, and the terms would lose the record's
        // order): values of one term are gathered under its first place.
        let mut item = Ordered::default();
        item.insert("@context", json!(context));
        item.insert("@type", json!(["o:Item"]));
        item.insert("o:id", json!(i + 1));
        item.insert("o:title", json!(entry.title));
        item.insert("o:is_public", json!(true));
        item.insert("o:item_set", json!([]));
        // Each picture for Omeka's URL ingester, which fetches it from the published site; without the site's
        // address there is nothing to fetch from, and the command says how many were left out.
        let media: Vec<Json> = base
            .map(|base| super::export::pictures(entry, base))
            .unwrap_or_default()
            .into_iter()
            .map(|p| {
                let mut media = serde_json::Map::new();
                media.insert("o:ingester".into(), json!("url"));
                media.insert("ingest_url".into(), json!(p.url));
                if let Some(alt) = p.alt {
                    media.insert("o:alt_text".into(), json!(alt));
                }
                if !p.caption.is_empty() {
                    media.insert(
                        "dcterms:title".into(),
                        json!([{"type": "literal", "property_id": "auto", "@value": p.caption}]),
                    );
                }
                Json::Object(media)
            })
            .collect();
        item.insert("o:media", json!(media));
        item.insert("ludotheca:id", json!(entry.item.id));
        item.insert("ludotheca:kind", json!(entry.kind.as_str()));
        for v in &entry.item.values {
            let mut value = serde_json::Map::new();
            value.insert("property_id".into(), json!("auto"));
            value.insert("property_label".into(), json!(config.label(v.term)));
            value.insert("is_public".into(), json!(true));
            let target = v.ref_().and_then(|r| number.get(r.value.as_str()));
            if let (Some(r), Some(n)) = (&v.ref_(), target) {
                value.insert("type".into(), json!("resource:item"));
                value.insert("value_resource_id".into(), json!(n));
                value.insert("value_resource_name".into(), json!("items"));
                let title = archive
                    .entry(&r.value)
                    .map(|e| e.title.clone())
                    .unwrap_or_default();
                value.insert("display_title".into(), json!(title));
                if !v.text.is_empty() {
                    value.insert("o:label".into(), json!(v.text));
                }
            } else if let Some(c) = &v.cite() {
                value.insert("type".into(), json!("literal"));
                value.insert(
                    "@value".into(),
                    json!(super::export::cited_text(archive, v)),
                );
                value.insert("ludotheca:cite".into(), json!(c.value));
                if let Some(p) = &v.pages() {
                    value.insert("ludotheca:pages".into(), json!(p.value));
                }
            } else if v.scheme().is_some_and(|s| s.value.ends_with(":URI")) && v.lang().is_none() {
                value.insert("type".into(), json!("uri"));
                value.insert("@id".into(), json!(v.text));
            } else {
                value.insert("type".into(), json!("literal"));
                value.insert("@value".into(), json!(v.text));
                if let Some(l) = &v.lang() {
                    value.insert("@language".into(), json!(l.value));
                }
                if let Some(s) = &v.scheme() {
                    let local = s.value.rsplit(':').next().unwrap_or(&s.value);
                    value.insert("@type".into(), json!(format!("{DCTERMS_NS}{local}")));
                }
            }
            let key = format!("dcterms:{}", v.term.name);
            match item.get_mut(&key) {
                Some(Json::Array(list)) => list.push(Json::Object(value)),
                _ => item.insert(key, json!([Json::Object(value)])),
            }
        }
        if !entry.item.played_with.is_empty() {
            let links: Vec<Json> = entry
                .item
                .played_with
                .iter()
                .filter_map(|l| {
                    let game = l.game.as_ref()?;
                    Some(json!({ "game": game.value, "ruleset": l.ruleset.as_ref().map(|r| &r.value) }))
                })
                .collect();
            item.insert("ludotheca:playedWith", json!(links));
        }
        if !entry.item.attests.is_empty() {
            let games: Vec<&str> = entry
                .item
                .attests
                .iter()
                .filter_map(|l| l.game.as_ref().map(|g| g.value.as_str()))
                .collect();
            item.insert("ludotheca:attests", json!(games));
        }
        if let Some(c) = entry.item.confidence.first() {
            item.insert("ludotheca:confidence", json!(c.value));
        }
        // Relations other records state about this one are not values of this record (Omeka S shows them
        // as its own reverse links), so `entry.inverse` is not written.
        sink.write_all(item.to_json().as_bytes())?;
        sink.write_all(if i + 1 < archive.entries.len() {
            b",\n"
        } else {
            b"\n"
        })?;
    }
    sink.write_all(b"]\n")
}

/// A JSON object that keeps its keys in the order they were inserted.
#[derive(Default)]
struct Ordered(Vec<(String, Json)>);

impl Ordered {
    fn insert(&mut self, key: impl Into<String>, value: Json) {
        self.0.push((key.into(), value));
    }

    fn get_mut(&mut self, key: &str) -> Option<&mut Json> {
        self.0.iter_mut().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    fn to_json(&self) -> String {
        let fields: Vec<String> = self
            .0
            .iter()
            .map(|(k, v)| format!("{}:{v}", Json::from(k.as_str())))
            .collect();
        format!("{{{}}}", fields.join(","))
    }
}
