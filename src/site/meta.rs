//! Data for machines inside each page: Dublin Core `<meta>` tags (the DC-HTML convention: `DC.title`,
//! `DCTERMS.alternative`) and schema.org JSON-LD.

use serde::Serialize;
use serde_json::{Value as Json, json};

use crate::archive::text::{one_line, strip_markdown};
use crate::archive::{Archive, Entry, Target};
use crate::catalog::Kind;
use crate::scheme::{Scheme, place};

#[derive(Clone, Debug, Serialize)]
pub struct MetaTag {
    pub name: String,
    pub content: String,
    pub lang: Option<String>,
    /// The encoding scheme of the value, as DC-HTML names it (`DCTERMS.W3CDTF`), for a value written in one.
    pub scheme: Option<&'static str>,
}

/// A Dublin Core property whose value is a resource with an address (DC-HTML's `<link rel="DCTERMS.isVersionOf"
/// href="...">`): a catalogued item a record links to, and the page's own address (`DC.identifier`).
#[derive(Clone, Debug, Serialize)]
pub struct MetaLink {
    pub rel: String,
    pub href: String,
    pub title: Option<String>,
}

/// A value the template would have written: present and not empty.
pub(super) fn given(value: &Option<String>) -> Option<&str> {
    value.as_deref().filter(|s| !s.is_empty())
}

/// A page's Dublin Core in its head (DC-HTML): the schema links, then `links` and `tags`, one element a line;
/// nothing when there are neither. Written here rather than by a loop in the page's frame, since an item page has
/// dozens of these and the template engine's loop cost more than the rest of the head.
pub fn dc_html(tags: &[MetaTag], links: &[MetaLink]) -> String {
    let mut html = String::new();
    if tags.is_empty() && links.is_empty() {
        return html;
    }
    html.push_str("<link rel=\"schema.DC\" href=\"http://purl.org/dc/elements/1.1/\">\n");
    html.push_str("<link rel=\"schema.DCTERMS\" href=\"http://purl.org/dc/terms/\">\n");
    for l in links {
        element(
            &mut html,
            "link",
            &[
                ("rel", Some(&l.rel)),
                ("href", Some(&l.href)),
                ("title", given(&l.title)),
            ],
        );
    }
    for m in tags {
        element(
            &mut html,
            "meta",
            &[
                ("name", Some(&m.name)),
                ("content", Some(&m.content)),
                ("lang", given(&m.lang)),
                ("scheme", m.scheme.filter(|s| !s.is_empty())),
            ],
        );
    }
    html
}

/// An empty element on a line of its own, with the attributes that have a value, escaped.
fn element(html: &mut String, name: &str, attributes: &[(&str, Option<&str>)]) {
    start_tag(html, name, attributes);
    html.push('\n');
}

/// The start tag of `name` with the attributes that have a value, escaped.
pub(super) fn start_tag(html: &mut String, name: &str, attributes: &[(&str, Option<&str>)]) {
    html.push('<');
    html.push_str(name);
    for (attribute, value) in attributes {
        if let Some(value) = value {
            html.push(' ');
            html.push_str(attribute);
            html.push_str("=\"");
            super::theme::push_escaped(html, value);
            html.push('"');
        }
    }
    html.push('>');
}

/// The terms whose values are dates.
const DATE_TERMS: [&str; 9] = [
    "date",
    "created",
    "valid",
    "available",
    "issued",
    "modified",
    "dateAccepted",
    "dateCopyrighted",
    "dateSubmitted",
];

/// The DC-HTML `scheme` of a value: the DCMI encoding scheme its `xsi:type` names (EDTF, which DCMI does not
/// define, has none), or the one its term always uses: RFC 5646 tags in `language`, DCMI types in `type`
/// (when the value is one) and W3CDTF dates in the date terms (when the value is one).
pub fn dc_scheme(value: &crate::catalog::Value) -> Option<&'static str> {
    let named = value
        .scheme()
        .as_ref()
        .and_then(|s| Scheme::from_xsi_type(&s.value));
    let scheme = match named {
        Some(scheme) => Some(scheme),
        None if value.term.name == "language" => Some(Scheme::Rfc5646),
        None if value.term.name == "type"
            && crate::scheme::parse_dcmi_type(&value.text).is_ok() =>
        {
            Some(Scheme::DcmiType)
        }
        None if DATE_TERMS.contains(&value.term.name)
            && Scheme::W3cdtf.validate(value.text.trim()).is_ok() =>
        {
            Some(Scheme::W3cdtf)
        }
        None => None,
    }?;
    match scheme {
        Scheme::W3cdtf => Some("DCTERMS.W3CDTF"),
        Scheme::Edtf => None,
        Scheme::Period => Some("DCTERMS.Period"),
        Scheme::Point => Some("DCTERMS.Point"),
        Scheme::Box => Some("DCTERMS.Box"),
        Scheme::Uri => Some("DCTERMS.URI"),
        Scheme::DcmiType => Some("DCTERMS.DCMIType"),
        Scheme::Rfc5646 => Some("DCTERMS.RFC5646"),
        Scheme::Imt => Some("DCTERMS.IMT"),
    }
}

/// The text a value stands for outside the page: a referenced item's title, a cited work, or the text.
pub fn value_text(archive: &Archive, value: &crate::catalog::Value) -> String {
    if let Some(key) = &value.cite() {
        let mut text = archive
            .source(&key.value)
            .map(|s| super::cite::full(s.entry))
            .unwrap_or_else(|| key.value.clone());
        if let Some(pages) = &value.pages() {
            text.push_str(&format!(" {}", super::cite::pages(&pages.value)));
        }
        return text;
    }
    if let Some(r) = &value.ref_()
        && value.text.trim().is_empty()
    {
        return archive
            .entry(&r.value)
            .map_or_else(|| r.value.clone(), |e| e.title.clone());
    }
    if matches!(
        value.term.name,
        "description" | "instructionalMethod" | "abstract"
    ) {
        strip_markdown(&value.text)
    } else {
        one_line(&value.text)
    }
}

/// `DC.*` for the fifteen elements, `DCTERMS.*` for the refinements: a `<meta>` for each value, with its
/// encoding scheme, except a link to a catalogued item, which is a `<link>` to its page (absolute with a base
/// URL, else relative to this page).
pub fn dc_meta(
    archive: &Archive,
    entry: &Entry,
    base_url: Option<&str>,
) -> (Vec<MetaTag>, Vec<MetaLink>) {
    let name = |v: &crate::catalog::Value| {
        if v.term.in_dc {
            format!("DC.{}", v.term.name)
        } else {
            format!("DCTERMS.{}", v.term.name)
        }
    };
    let mut tags = Vec::new();
    let mut links = Vec::new();
    for v in &entry.item.values {
        let linked = v
            .ref_()
            .as_ref()
            .filter(|_| v.cite().is_none())
            .and_then(|r| archive.entry(&r.value));
        if let Some(to) = linked {
            links.push(MetaLink {
                rel: name(v),
                href: match base_url {
                    Some(base) => format!("{base}{}", to.url),
                    None => format!("{}{}", super::pages::root_of(&entry.url), to.url),
                },
                title: Some(value_text(archive, v)).filter(|t| !t.is_empty()),
            });
            continue;
        }
        let content = value_text(archive, v);
        if content.is_empty() {
            continue;
        }
        tags.push(MetaTag {
            name: name(v),
            content,
            lang: v.lang().map(|l| l.value.clone()),
            scheme: dc_scheme(v),
        });
    }
    (tags, links)
}

/// JSON for a `<script type="application/ld+json">`: `<`, `>` and `&` are written as escapes, so no value can
/// close the script element.
pub fn script_json<T: Serialize + ?Sized>(value: &T) -> String {
    let json = serde_json::to_string(value).unwrap_or_default();
    // One pass, copying the runs between the three characters whole: a game page's data is mostly game text.
    let mut out = String::new();
    let mut from = 0;
    for (i, b) in json.bytes().enumerate() {
        let escaped = match b {
            b'<' => "\\u003c",
            b'>' => "\\u003e",
            b'&' => "\\u0026",
            _ => continue,
        };
        if from == 0 {
            out.reserve(json.len() + 64);
        }
        out.push_str(&json[from..i]);
        out.push_str(escaped);
        from = i + 1;
    }
    if from == 0 {
        return json;
    }
    out.push_str(&json[from..]);
    out
}

/// The linked data of a page that lists items (browse, map, timeline): a schema.org `CollectionPage` named by
/// its title.
pub fn collection_page(name: &str) -> serde_json::Value {
    serde_json::json!({
        "@context": "https://schema.org",
        "@type": "CollectionPage",
        "name": name,
    })
}

/// Whether a value only says that something is not known ("Not recorded", "unknown"): shown on the page as the
/// record has it, but not published as data, where a client would take it for the value.
pub fn means_unknown(text: &str) -> bool {
    let text = text.trim().trim_end_matches('.').trim().to_lowercase();
    matches!(
        text.as_str(),
        "" | "not recorded"
            | "unrecorded"
            | "none recorded"
            | "not known"
            | "unknown"
            | "n/a"
            | "na"
            | "none"
            | "-"
            | "?"
    )
}

/// The address of another item's description from the page of `from`: absolute with a base URL, else relative
/// to the page (JSON-LD resolves a relative `@id` against the page's address).
pub fn item_id(from: &Entry, to: &Entry, base_url: Option<&str>) -> String {
    match base_url {
        Some(base) => format!("{base}{}#item", to.url),
        None => format!("{}{}#item", super::pages::root_of(&from.url), to.url),
    }
}

/// The works an item cites, each once: a bibliography entry named by `dcterms:source` and by
/// `dcterms:references` (with or without pages) is one work, given by its full reference; other texts once each.
fn citations(archive: &Archive, entry: &Entry) -> Vec<String> {
    let mut keys: Vec<String> = Vec::new();
    let mut out: Vec<String> = Vec::new();
    for term in ["source", "references", "bibliographicCitation"] {
        for v in entry.item.values_of(term) {
            let text = match (&v.cite(), v.cite().and_then(|k| archive.source(&k.value))) {
                (Some(key), Some(source)) => {
                    let folded = key.value.to_ascii_lowercase();
                    if keys.contains(&folded) {
                        continue;
                    }
                    keys.push(folded);
                    super::cite::full(source.entry)
                }
                _ => value_text(archive, v),
            };
            if !text.is_empty() && !means_unknown(&text) && !out.contains(&text) {
                out.push(text);
            }
        }
    }
    out
}

/// schema.org description of an item. Its `@id` and `url` are added with every page's (`pages::Site::job`).
pub fn json_ld(archive: &Archive, entry: &Entry, base_url: Option<&str>) -> Json {
    let item = entry.item;
    let texts = |name: &str| -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for text in item.values_of(name).map(|v| value_text(archive, v)) {
            if !means_unknown(&text) && !out.contains(&text) {
                out.push(text);
            }
        }
        out
    };
    let kind = match entry.kind {
        Kind::Game => "Game",
        Kind::Board | Kind::Evidence => "CreativeWork",
    };
    let mut ld = json!({
        "@context": "https://schema.org",
        "@type": kind,
        "name": entry.title,
        "identifier": item.id,
    });
    let mut put = |key: &str, values: Vec<String>| {
        if !values.is_empty() {
            ld[key] = json!(values);
        }
    };
    put("alternateName", texts("alternative"));
    put("keywords", texts("subject"));
    put("creator", texts("creator"));
    put("contributor", texts("contributor"));
    put("citation", citations(archive, entry));
    put("temporalCoverage", texts("temporal"));
    put("inLanguage", texts("language"));
    put("copyrightNotice", texts("rights"));
    put("license", texts("license"));
    if let Some(d) = item
        .values_of("description")
        .map(|d| strip_markdown(&d.text))
        .find(|d| !means_unknown(d))
    {
        ld["description"] = json!(d);
    }
    let places: Vec<Json> = item
        .values_of("spatial")
        .map(|v| {
            let point = v
                .scheme()
                .as_ref()
                .filter(|s| Scheme::from_xsi_type(&s.value) == Some(Scheme::Point))
                .and_then(|_| place::parse_point(&v.text).ok());
            match point {
                Some(p) => {
                    let mut place = json!({
                        "@type": "Place",
                        "geo": { "@type": "GeoCoordinates", "latitude": p.north, "longitude": p.east },
                    });
                    if let Some(name) = p.name.filter(|n| !n.trim().is_empty()) {
                        place["name"] = json!(name);
                    }
                    place
                }
                None => json!({ "@type": "Place", "name": one_line(&v.text) }),
            }
        })
        .filter(|place| place.get("geo").is_some() || !place["name"].as_str().is_some_and(means_unknown))
        .collect();
    if !places.is_empty() {
        ld["spatialCoverage"] = json!(places);
    }
    if !entry.images.is_empty() {
        ld["image"] = super::media::json_ld(entry, base_url);
    }
    let based_on: Vec<Json> = entry
        .relations
        .iter()
        .filter(|r| r.term == "isVersionOf")
        .map(|r| match &r.target {
            Target::Item(i, _) => json!({
                "@type": "Game",
                "@id": item_id(entry, &archive.entries[*i], base_url),
                "name": archive.entries[*i].title,
            }),
            Target::Name(n) => json!({ "@type": "Game", "name": n }),
        })
        .collect();
    if !based_on.is_empty() {
        ld["isBasedOn"] = json!(based_on);
    }
    if entry.kind == Kind::Game
        && let Some(players) = entry
            .rules()
            .iter()
            .flat_map(|r| &r.rulesets)
            .filter_map(|r| r.facts.as_ref())
            .map(|f| f.players)
            .max()
    {
        ld["numberOfPlayers"] = json!({ "@type": "QuantitativeValue", "value": players });
    }
    if entry.kind == Kind::Board {
        put_first(&mut ld, "material", texts("medium"));
        put_first(&mut ld, "size", texts("extent"));
    }
    if entry.kind == Kind::Evidence {
        let about: Vec<Json> = entry
            .attests
            .iter()
            .map(|&g| {
                json!({
                    "@type": "Game",
                    "@id": item_id(entry, &archive.entries[g], base_url),
                    "name": archive.entries[g].title,
                })
            })
            .collect();
        if !about.is_empty() {
            ld["about"] = json!(about);
        }
    }
    ld
}

fn put_first(ld: &mut Json, key: &str, values: Vec<String>) {
    if let Some(v) = values.into_iter().next() {
        ld[key] = json!(v);
    }
}
