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
}

/// The text a value stands for outside the page: a referenced item's title, a cited work, or the text.
pub fn value_text(archive: &Archive, value: &crate::catalog::Value) -> String {
    if let Some(key) = &value.cite {
        let mut text = archive
            .source(&key.value)
            .map(|s| super::cite::full(s.entry))
            .unwrap_or_else(|| key.value.clone());
        if let Some(pages) = &value.pages {
            text.push_str(&format!(" {}", super::cite::pages(&pages.value)));
        }
        return text;
    }
    if let Some(r) = &value.ref_
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

/// `DC.*` for the fifteen elements, `DCTERMS.*` for the refinements.
pub fn dc_meta(archive: &Archive, entry: &Entry) -> Vec<MetaTag> {
    entry
        .item
        .values
        .iter()
        .map(|v| MetaTag {
            name: if v.term.in_dc {
                format!("DC.{}", v.term.name)
            } else {
                format!("DCTERMS.{}", v.term.name)
            },
            content: value_text(archive, v),
            lang: v.lang.as_ref().map(|l| l.value.clone()),
        })
        .filter(|m| !m.content.is_empty())
        .collect()
}

/// JSON for a `<script type="application/ld+json">`: `<`, `>` and `&` are written as escapes, so no value can
/// close the script element.
pub fn script_json(value: &Json) -> String {
    serde_json::to_string(value)
        .unwrap_or_default()
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
}

/// schema.org description of an item.
pub fn json_ld(archive: &Archive, entry: &Entry, base_url: Option<&str>) -> Json {
    let item = entry.item;
    let texts = |name: &str| -> Vec<String> {
        item.values_of(name)
            .map(|v| value_text(archive, v))
            .filter(|t| !t.is_empty())
            .collect()
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
    if let Some(base) = base_url {
        ld["url"] = json!(format!("{base}{}", entry.url));
    }
    let mut put = |key: &str, values: Vec<String>| {
        if !values.is_empty() {
            ld[key] = json!(values);
        }
    };
    put("alternateName", texts("alternative"));
    put("keywords", texts("subject"));
    put("creator", texts("creator"));
    put("contributor", texts("contributor"));
    put("citation", {
        let mut c = texts("source");
        c.extend(texts("references"));
        c.extend(texts("bibliographicCitation"));
        c.dedup();
        c
    });
    put("temporalCoverage", texts("temporal"));
    put("inLanguage", texts("language"));
    put("copyrightNotice", texts("rights"));
    put("license", texts("license"));
    if let Some(d) = item.values_of("description").next() {
        ld["description"] = json!(strip_markdown(&d.text));
    }
    let places: Vec<Json> = item
        .values_of("spatial")
        .map(|v| {
            let point = v
                .scheme
                .as_ref()
                .filter(|s| Scheme::from_xsi_type(&s.value) == Some(Scheme::Point))
                .and_then(|_| place::parse_point(&v.text).ok());
            match point {
                Some(p) => json!({
                    "@type": "Place",
                    "name": p.name.unwrap_or_default(),
                    "geo": { "@type": "GeoCoordinates", "latitude": p.north, "longitude": p.east },
                }),
                None => json!({ "@type": "Place", "name": one_line(&v.text) }),
            }
        })
        .collect();
    if !places.is_empty() {
        ld["spatialCoverage"] = json!(places);
    }
    let based_on: Vec<Json> = entry
        .relations
        .iter()
        .filter(|r| r.term == "isVersionOf")
        .map(|r| match &r.target {
            Target::Item(i, _) => json!({ "@type": "Game", "name": archive.entries[*i].title }),
            Target::Name(n) => json!({ "@type": "Game", "name": n }),
        })
        .collect();
    if !based_on.is_empty() {
        ld["isBasedOn"] = json!(based_on);
    }
    if entry.kind == Kind::Game
        && let Some(players) = entry
            .rules
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
            .map(|&g| json!({ "@type": "Game", "name": archive.entries[g].title }))
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
