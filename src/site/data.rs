//! The catalog as data: `catalog.json` (every value with its term, language, scheme, reference and citation,
//! plus the relations computed from other records and the facts derived from the rules), `catalog.csv` (one row
//! per item, one column per term), `sitemap.xml`, and `oai-pmh.xml`, an OAI-PMH static repository in `oai_dc`.

use std::io::{self, Write};

use serde_json::{Value as Json, json};

use super::memo::Items;
use super::meta::value_text;
use super::reuse::{Counted, Export};
use super::sink::Sink;
use super::theme::escape_html;
use crate::archive::{Archive, Day, Entry, Target};
use crate::catalog::terms::TERMS;

pub fn catalog_json(archive: &Archive, items: &Items, sink: &mut dyn Sink) -> io::Result<()> {
    let config = &archive.catalog.config;
    let mut sink = Counted::new(sink);
    // Written item by item rather than built as one document first: at 100,000 items the whole document as a
    // JSON tree would take gigabytes. Keys are in the order serde_json sorts an object's keys.
    let mut out = String::from("{\"description\":");
    out.push_str(&Json::from(config.description.as_str()).to_string());
    out.push_str(",\"items\":[");
    sink.write_all(out.as_bytes())?;
    out.clear();
    // Compact: the file is for programs, and at 10,000 items indentation alone is megabytes to write.
    let entries = &archive.entries;
    items.write_all(
        Export::Json,
        entries.len(),
        &[],
        |n| item_json(archive, &entries[n]),
        ",",
        &mut sink,
    )?;
    out.push_str("],\"title\":");
    out.push_str(&Json::from(config.title.as_str()).to_string());
    out.push_str("}\n");
    sink.write_all(out.as_bytes())
}

/// One item's object in catalog.json.
fn item_json(archive: &Archive, entry: &Entry) -> String {
    let config = &archive.catalog.config;
    let item = {
        let values: Vec<Json> = entry
            .item
            .values
            .iter()
            .map(|v| {
                let mut o = json!({
                    "term": format!("dcterms:{}", v.term.name),
                    "label": config.label(v.term),
                    "text": v.text,
                });
                if let Some(l) = &v.lang() {
                    o["lang"] = json!(l.value);
                }
                if let Some(s) = &v.scheme() {
                    o["scheme"] = json!(s.value);
                }
                if let Some(r) = &v.ref_() {
                    o["ref"] = json!(r.value);
                }
                if let Some(c) = &v.cite() {
                    o["cite"] = json!(c.value);
                }
                if let Some(p) = &v.pages() {
                    o["pages"] = json!(p.value);
                }
                o
            })
            .collect();
        let computed: Vec<Json> = entry
            .inverse
            .iter()
            .filter_map(|r| match r.target {
                Target::Item(i, _) => Some(json!({
                    "term": format!("dcterms:{}", r.term),
                    "ref": archive.entries[i].item.id,
                })),
                Target::Name(_) => None,
            })
            .collect();
        let mut o = json!({
            "id": entry.item.id,
            "kind": entry.kind.as_str(),
            "title": entry.title,
            "page": entry.url,
            "values": values,
            "computed": computed,
        });
        if !entry.played_with.is_empty() {
            o["playedWith"] = entry
                .played_with
                .iter()
                .map(|(g, r)| json!({ "game": archive.entries[*g].item.id, "ruleset": r }))
                .collect();
        }
        if !entry.attests.is_empty() {
            o["attests"] = entry
                .attests
                .iter()
                .map(|g| json!(archive.entries[*g].item.id))
                .collect();
        }
        if !entry.images.is_empty() {
            o["images"] = super::media::exported(entry).into();
        }
        if let Some(c) = entry.item.confidence_value() {
            o["confidence"] = json!(c);
        }
        if let Some(rules) = entry.rules() {
            o["rulesets"] = rules
                .rulesets
                .iter()
                .map(|r| {
                    let mut rs = json!({
                        "name": r.name,
                        "title": r.title,
                        "type": r.kind.map(|k| k.as_str()),
                        "source": r.source,
                        "pages": r.pages,
                    });
                    if let Some(f) = &r.facts {
                        rs["facts"] = json!({
                            "players": f.players,
                            "points": f.points,
                            "piecesPerSide": f.pieces_per_side,
                            "moves": f.move_kinds,
                            "captures": f.capture_rules,
                            "ends": f.end_conditions,
                        });
                    }
                    rs
                })
                .collect();
        }
        o
    };
    item.to_string()
}

fn csv_field(text: &str) -> String {
    // A spreadsheet opening the file reads a cell starting with one of these as a formula (which can fetch
    // addresses or run commands); a leading single quote makes it plain text there and is easy to strip
    // for any other reader.
    let neutral;
    let text = if text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        neutral = format!("'{text}");
        neutral.as_str()
    } else {
        text
    };
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// One row per item; one column per term any record uses, in the configured order; repeated values joined by
/// ` | `. References and citations are written as the text a reader sees.
pub fn catalog_csv(archive: &Archive, items: &Items, sink: &mut dyn Sink) -> io::Result<()> {
    catalog_csv_with(archive, &CsvColumns::of(archive), items, sink)
}

/// The columns of catalog.csv, which depend on every record: found once for a build that writes the file after
/// a dry run of it (see `super::memo::Items::recipe`).
pub struct CsvColumns {
    /// The terms any record uses, in the configured order.
    used: Vec<&'static str>,
    /// Whether any record has a picture, which gives the pictures' addresses a column.
    images: bool,
}

impl CsvColumns {
    pub fn of(archive: &Archive) -> CsvColumns {
        let config = &archive.catalog.config;
        use crate::catalog::terms::{TERMS, Term};
        // Every term in use found in one pass over the values, not one pass per label: a catalog's labels are
        // fifty or more, and most terms are used by no record or by few. Marked by the term's place in the
        // table rather than hashed by name (200,000 values at 10,000 items); a term found outside the table
        // would be told by its name.
        let place = |term: &'static Term| {
            term.index()
                .or_else(|| TERMS.iter().position(|t| t.name == term.name))
        };
        let mut present = [false; TERMS.len()];
        let mut elsewhere: foldhash::HashSet<&str> = foldhash::HashSet::default();
        for value in archive.entries.iter().flat_map(|e| &e.item.values) {
            match place(value.term) {
                Some(index) => present[index] = true,
                None => {
                    elsewhere.insert(value.term.name);
                }
            }
        }
        let used = |term: &'static Term| match place(term) {
            Some(index) => present[index],
            None => elsewhere.contains(term.name),
        };
        CsvColumns {
            used: config
                .labels
                .iter()
                .filter(|l| used(l.term))
                .map(|l| l.term.name)
                .collect(),
            images: archive.entries.iter().any(|e| !e.images.is_empty()),
        }
    }
}

/// [`catalog_csv`] with its columns found.
pub fn catalog_csv_with(
    archive: &Archive,
    columns: &CsvColumns,
    items: &Items,
    sink: &mut dyn Sink,
) -> io::Result<()> {
    let CsvColumns { used, images } = columns;
    let images = *images;
    let mut out = String::from(if images {
        "id,kind,page,images"
    } else {
        "id,kind,page"
    });
    for name in used {
        out.push(',');
        out.push_str(&csv_field(&format!("dcterms:{name}")));
    }
    out.push_str("\r\n");
    // A row has a cell for each column in use, which depends on every record.
    let columns = format!("{images},{}", used.join(","));
    let mut sink = Counted::new(sink);
    sink.write_all(out.as_bytes())?;
    let entries = &archive.entries;
    items.write_all(
        Export::Csv,
        entries.len(),
        columns.as_bytes(),
        |n| csv_row(archive, &entries[n], images, used),
        "",
        &mut sink,
    )
}

/// One item's row in catalog.csv, with its line ending.
fn csv_row(archive: &Archive, entry: &Entry, images: bool, used: &[&str]) -> String {
    let mut out = csv_field(&entry.item.id);
    out.push(',');
    out.push_str(entry.kind.as_str());
    out.push(',');
    out.push_str(&csv_field(&entry.url));
    if images {
        out.push(',');
        out.push_str(&csv_field(&super::media::addresses(entry).join(" | ")));
    }
    for name in used {
        let values: Vec<String> = entry
            .item
            .values_of(name)
            .map(|v| value_text(archive, v))
            .collect();
        out.push(',');
        out.push_str(&csv_field(&values.join(" | ")));
    }
    out.push_str("\r\n");
    out
}

pub fn sitemap(pages: &[&str], base_url: Option<&str>) -> String {
    let mut out = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for page in pages {
        out.push_str(&format!(
            "  <url><loc>{}{}</loc></url>\n",
            escape_html(base_url.unwrap_or("")),
            escape_html(page)
        ));
    }
    out.push_str("</urlset>\n");
    out
}

/// The oai_dc element a term is written as, and a label to put before the value when the term has no element
/// of its own (so that it is not silently dropped).
fn oai_element(name: &str) -> (&'static str, Option<&'static str>) {
    match name {
        "instructionalMethod" => ("description", Some("Rules")),
        "accrualMethod" => ("description", Some("Accrual method")),
        "accrualPeriodicity" => ("description", Some("Accrual periodicity")),
        "accrualPolicy" => ("description", Some("Accrual policy")),
        "audience" | "educationLevel" | "mediator" => ("description", Some("Audience")),
        "provenance" => ("description", Some("Provenance")),
        "rightsHolder" => ("rights", Some("Rights holder")),
        // Tags: conformsTo names a standard, but the seed site used it for tags, which are subjects.
        "conformsTo" => ("subject", None),
        _ => {
            let mut term = TERMS.iter().find(|t| t.name == name);
            // Walk up the refinements to one of the fifteen elements.
            for _ in 0..4 {
                match term {
                    Some(t) if t.in_dc => return (t.name, None),
                    Some(t) => term = t.refines.and_then(|p| TERMS.iter().find(|u| u.name == p)),
                    None => break,
                }
            }
            ("description", None)
        }
    }
}

/// Text for the OAI-PMH file: escaped, and without the characters XML 1.0 cannot hold at all (control characters
/// other than tab and line breaks, U+FFFE, U+FFFF), which a `\u0001` in the configuration's title would otherwise
/// bring in, leaving a file no harvester can parse.
fn xml_text(text: &str) -> String {
    let allowed = |c: &char| {
        matches!(c, '\t' | '\n' | '\r') || (*c >= ' ' && !matches!(c, '\u{FFFE}' | '\u{FFFF}'))
    };
    if text.chars().all(|c| allowed(&c)) {
        escape_html(text)
    } else {
        escape_html(&text.chars().filter(allowed).collect::<String>())
    }
}

/// A record's OAI datestamp: its own date when it has one; otherwise the day of `SOURCE_DATE_EPOCH` when that is
/// set, else 1970-01-01. Never a file time or the clock, so that the same catalog gives the same file.
fn datestamp(day: Option<Day>) -> String {
    let (y, m, d) = match day {
        // The schema's dates (xs:date) have no year 0000, which W3CDTF allows: such a record has no datestamp
        // of its own.
        Some((y, m, d)) if (1..=9999).contains(&y) => (y, u32::from(m), u32::from(d)),
        _ => {
            let secs = std::env::var("SOURCE_DATE_EPOCH")
                .ok()
                .and_then(|s| s.trim().parse::<i64>().ok())
                .unwrap_or(0);
            super::cite::civil_from_days(secs.div_euclid(86_400))
        }
    };
    format!("{y:04}-{m:02}-{d:02}")
}

/// The `baseURL` of the static repository at `file` (its own address): as the static repository specification
/// has it, the gateway's address followed by the file's address without its scheme
/// (`http://gateway.example.org/oai/archive.example.org/oai-pmh.xml`). Without a gateway, the file's own
/// address, which is what a gateway is given to take the repository in.
pub fn oai_base_url(gateway: Option<&str>, file: &str) -> String {
    match gateway {
        Some(gateway) => {
            let bare = file.split_once("://").map_or(file, |(_, rest)| rest);
            format!("{gateway}{bare}")
        }
        None => file.to_string(),
    }
}

/// A record's part of the file. Everything it depends on besides the item's key (which covers the
/// configuration file, hence the gateway and repository identifier, and the base URL) is an argument.
fn oai_record(
    archive: &Archive,
    entry: &Entry,
    base_url: Option<&str>,
    repository: &str,
) -> String {
    let mut out = String::with_capacity(4096);
    out.push_str("    <oai:record>\n      <oai:header>\n");
    // `oai:<domain>:<local>`, the OAI identifier syntax; item ids are already URL-safe (E016).
    out.push_str(&format!(
        "        <oai:identifier>oai:{}:{}</oai:identifier>\n        <oai:datestamp>{}</oai:datestamp>\n",
        xml_text(repository),
        xml_text(&entry.item.id),
        datestamp(entry.added)
    ));
    // No setSpec: the static repository specification has no sets.
    out.push_str("      </oai:header>\n      <oai:metadata>\n");
    out.push_str(
        "        <oai_dc:dc xmlns:oai_dc=\"http://www.openarchives.org/OAI/2.0/oai_dc/\" \
         xmlns:dc=\"http://purl.org/dc/elements/1.1/\" \
         xsi:schemaLocation=\"http://www.openarchives.org/OAI/2.0/oai_dc/ http://www.openarchives.org/OAI/2.0/oai_dc.xsd\">\n",
    );
    let mut element = |name: &str, text: &str, lang: Option<&str>| {
        let lang = lang
            .map(|l| format!(" xml:lang=\"{}\"", xml_text(l)))
            .unwrap_or_default();
        out.push_str(&format!(
            "          <dc:{name}{lang}>{}</dc:{name}>\n",
            xml_text(text)
        ));
    };
    for v in &entry.item.values {
        let (name, label) = oai_element(v.term.name);
        let text = value_text(archive, v);
        let text = match label {
            Some(label) => format!("{label}: {text}"),
            None => text,
        };
        element(name, &text, v.lang().map(|l| l.value.as_str()));
    }
    for r in &entry.inverse {
        if let Target::Item(i, _) = r.target {
            element("relation", &archive.entries[i].title, None);
        }
    }
    for (g, _) in entry.played_with.iter() {
        element("relation", &archive.entries[*g].title, None);
    }
    for g in &entry.attests {
        element("relation", &archive.entries[*g].title, None);
    }
    if let Some(base) = base_url {
        element("identifier", &format!("{base}{}", entry.url), None);
        // A picture is a resource of its own that the record's item relates to (oai_dc has no element for an
        // image, and dc:identifier must name the item itself); given only by an absolute address, since a
        // harvester has no page to resolve a relative one against.
        for address in super::media::addresses(entry) {
            element("relation", &format!("{base}{address}"), None);
        }
    }
    out.push_str("        </oai_dc:dc>\n      </oai:metadata>\n    </oai:record>\n");
    out
}

pub fn oai_pmh(
    archive: &Archive,
    base_url: Option<&str>,
    items: &Items,
    sink: &mut dyn Sink,
) -> io::Result<()> {
    let config = &archive.catalog.config;
    let mut sink = Counted::new(sink);
    // The earliest of the records' datestamps: each record's own day when it has one the schema allows, the
    // undated one (from SOURCE_DATE_EPOCH) otherwise. Compared as days and written once, not written for each
    // of 10,000 records (which read the environment each time) to find the least of the texts.
    let dated = |e: &&crate::archive::Entry| e.added.is_some_and(|(y, ..)| (1..=9999).contains(&y));
    let earliest_day = archive
        .entries
        .iter()
        .filter(dated)
        .filter_map(|e| e.added)
        .min();
    let undated = archive.entries.iter().any(|e| !dated(&e)) || archive.entries.is_empty();
    let earliest = [
        earliest_day.map(|day| datestamp(Some(day))),
        undated.then(|| datestamp(None)),
    ]
    .into_iter()
    .flatten()
    .min()
    .expect("a datestamp, dated or not");
    let mut out = String::with_capacity(8192);
    out.push_str(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <Repository xmlns=\"http://www.openarchives.org/OAI/2.0/static-repository\"\n\
         \x20           xmlns:oai=\"http://www.openarchives.org/OAI/2.0/\"\n\
         \x20           xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"\n\
         \x20           xsi:schemaLocation=\"http://www.openarchives.org/OAI/2.0/static-repository \
         http://www.openarchives.org/OAI/2.0/static-repository.xsd\">\n  <Identify>\n",
    );
    out.push_str(&format!(
        "    <oai:repositoryName>{}</oai:repositoryName>\n",
        xml_text(&config.title)
    ));
    let file = format!("{}oai-pmh.xml", base_url.unwrap_or(""));
    out.push_str(&format!(
        "    <oai:baseURL>{}</oai:baseURL>\n",
        xml_text(&oai_base_url(config.oai_gateway.as_deref(), &file))
    ));
    out.push_str("    <oai:protocolVersion>2.0</oai:protocolVersion>\n");
    // The catalog configuration has no contact address; the static-repository schema requires one.
    // OAI-PMH requires an adminEmail; without a `contact` in the configuration, a reserved address that can
    // never reach anyone says so plainly rather than inventing one.
    let contact = archive
        .catalog
        .config
        .contact
        .as_deref()
        .unwrap_or("editors@example.invalid");
    out.push_str(&format!(
        "    <oai:adminEmail>{}</oai:adminEmail>\n",
        xml_text(contact)
    ));
    out.push_str(&format!(
        "    <oai:earliestDatestamp>{earliest}</oai:earliestDatestamp>\n"
    ));
    out.push_str("    <oai:deletedRecord>no</oai:deletedRecord>\n    <oai:granularity>YYYY-MM-DD</oai:granularity>\n");
    // The identifiers follow the oai-identifier scheme, which the Identify response declares in this description.
    let repository = crate::catalog::config::repository_identifier(config, base_url);
    let sample = archive
        .entries
        .first()
        .map_or("item", |e| e.item.id.as_str());
    out.push_str(&format!(
        "    <oai:description>\n\
         \x20     <oai-identifier xmlns=\"http://www.openarchives.org/OAI/2.0/oai-identifier\"\n\
         \x20                     xsi:schemaLocation=\"http://www.openarchives.org/OAI/2.0/oai-identifier \
         http://www.openarchives.org/OAI/2.0/oai-identifier.xsd\">\n\
         \x20       <scheme>oai</scheme>\n\
         \x20       <repositoryIdentifier>{repo}</repositoryIdentifier>\n\
         \x20       <delimiter>:</delimiter>\n\
         \x20       <sampleIdentifier>oai:{repo}:{sample}</sampleIdentifier>\n\
         \x20     </oai-identifier>\n    </oai:description>\n  </Identify>\n",
        repo = xml_text(&repository),
        sample = xml_text(sample),
    ));
    out.push_str(
        "  <ListMetadataFormats>\n    <oai:metadataFormat>\n      <oai:metadataPrefix>oai_dc</oai:metadataPrefix>\n\
         \x20     <oai:schema>http://www.openarchives.org/OAI/2.0/oai_dc.xsd</oai:schema>\n\
         \x20     <oai:metadataNamespace>http://www.openarchives.org/OAI/2.0/oai_dc/</oai:metadataNamespace>\n\
         \x20   </oai:metadataFormat>\n  </ListMetadataFormats>\n  <ListRecords metadataPrefix=\"oai_dc\">\n",
    );
    sink.write_all(out.as_bytes())?;
    out.clear();
    // The datestamp of an undated record comes from SOURCE_DATE_EPOCH, which no item key covers.
    let undated = datestamp(None);
    // The repository identifier comes from the configuration file and the base URL, both in the item key.
    let entries = &archive.entries;
    items.write_all(
        Export::Oai,
        entries.len(),
        undated.as_bytes(),
        |n| oai_record(archive, &entries[n], base_url, &repository),
        "",
        &mut sink,
    )?;
    out.push_str("  </ListRecords>\n</Repository>\n");
    sink.write_all(out.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_cells_cannot_become_formulas() {
        assert_eq!(csv_field("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
        assert_eq!(csv_field("+1"), "'+1");
        assert_eq!(csv_field("-1, 2"), "\"'-1, 2\"");
        assert_eq!(csv_field("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(csv_field("\tx"), "'\tx");
        assert_eq!(csv_field("\rx"), "\"'\rx\"");
        assert_eq!(csv_field("a=b"), "a=b");
        assert_eq!(csv_field("plain"), "plain");
    }

    #[test]
    fn terms_dumb_down_without_loss() {
        assert_eq!(oai_element("alternative"), ("title", None));
        assert_eq!(oai_element("isVersionOf"), ("relation", None));
        assert_eq!(oai_element("spatial"), ("coverage", None));
        assert_eq!(oai_element("creator"), ("creator", None));
        assert_eq!(oai_element("source"), ("source", None));
        assert_eq!(
            oai_element("instructionalMethod"),
            ("description", Some("Rules"))
        );
        assert_eq!(oai_element("accrualMethod").0, "description");
        assert_eq!(oai_element("bibliographicCitation"), ("identifier", None));
        assert_eq!(oai_element("license"), ("rights", None));
    }

    #[test]
    fn oai_text_and_datestamps_stay_valid() {
        assert_eq!(
            xml_text("a\u{1}b <c> & \u{FFFF}\td"),
            "ab &lt;c&gt; &amp; \td"
        );
        assert_eq!(datestamp(Some((2021, 3, 4))), "2021-03-04");
        // Year 0000 is a W3CDTF date but not an xs:date: the default datestamp instead.
        assert_eq!(datestamp(Some((0, 1, 1))), datestamp(None));
    }

    #[test]
    fn the_base_url_goes_through_the_gateway() {
        assert_eq!(
            oai_base_url(
                Some("http://gateway.example.org/oai/"),
                "https://archive.example.org/games/oai-pmh.xml"
            ),
            "http://gateway.example.org/oai/archive.example.org/games/oai-pmh.xml"
        );
        assert_eq!(
            oai_base_url(None, "https://archive.example.org/oai-pmh.xml"),
            "https://archive.example.org/oai-pmh.xml"
        );
    }

    #[test]
    fn csv_quotes() {
        assert_eq!(csv_field("a"), "a");
        assert_eq!(csv_field("a, \"b\""), "\"a, \"\"b\"\"\"");
    }
}
