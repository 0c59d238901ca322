//! The catalog's bibliography (`sources.bib`, as loaded and checked) in the three formats reference managers
//! read: normalised BibTeX, RIS and CSL-JSON. Names are split as BibTeX splits them ([`bibtex::Name`]); a name
//! in one brace group is an organisation.

use std::io::{self, Write};

use serde_json::{Value as Json, json};

use crate::catalog::bibtex::{self, BibEntry, Bibliography, Name};
use crate::site::cite::ris_value;

/// Every entry, in file order, separated by a blank line.
pub fn write_bibtex(bib: &Bibliography, sink: &mut dyn Write) -> io::Result<()> {
    for (i, entry) in bib.entries.iter().enumerate() {
        if i > 0 {
            sink.write_all(b"\n")?;
        }
        sink.write_all(bibtex::write_entry(entry).as_bytes())?;
    }
    Ok(())
}

pub fn write_ris(bib: &Bibliography, sink: &mut dyn Write) -> io::Result<()> {
    for (i, entry) in bib.entries.iter().enumerate() {
        if i > 0 {
            sink.write_all(b"\n")?;
        }
        sink.write_all(ris_record(entry).as_bytes())?;
    }
    Ok(())
}

pub fn write_csl_json(bib: &Bibliography, sink: &mut dyn Write) -> io::Result<()> {
    let items: Vec<Json> = bib.entries.iter().map(csl_item).collect();
    let text = serde_json::to_string_pretty(&items).map_err(io::Error::other)?;
    sink.write_all(text.as_bytes())?;
    sink.write_all(b"\n")
}

/// The CSL type of a BibTeX (or biblatex) entry type, as the usual mappings give it; `document`, CSL's type for
/// a work of no other type, for `misc` and anything unknown.
pub fn csl_type(kind: &str) -> &'static str {
    match kind {
        "article" => "article-journal",
        "book" | "mvbook" | "collection" | "mvcollection" | "proceedings" | "mvproceedings"
        | "reference" | "mvreference" => "book",
        "booklet" => "pamphlet",
        "inbook" | "bookinbook" | "suppbook" | "incollection" | "suppcollection" => "chapter",
        "inproceedings" | "conference" => "paper-conference",
        "inreference" => "entry",
        "manual" | "techreport" | "report" => "report",
        "mastersthesis" | "phdthesis" | "thesis" => "thesis",
        "unpublished" => "manuscript",
        "online" | "electronic" | "www" | "webpage" => "webpage",
        "patent" => "patent",
        "periodical" => "periodical",
        "dataset" => "dataset",
        "software" => "software",
        _ => "document",
    }
}

/// The RIS reference type of a BibTeX entry type; `GEN` (generic) for `misc` and anything unknown.
pub fn ris_type(kind: &str) -> &'static str {
    match kind {
        "article" => "JOUR",
        "book" | "mvbook" | "reference" | "mvreference" => "BOOK",
        "collection" | "mvcollection" => "EDBOOK",
        "booklet" => "PAMP",
        "inbook" | "bookinbook" | "suppbook" | "incollection" | "suppcollection"
        | "inreference" => "CHAP",
        "inproceedings" | "conference" => "CPAPER",
        "proceedings" | "mvproceedings" => "CONF",
        "techreport" | "report" => "RPRT",
        "mastersthesis" | "phdthesis" | "thesis" => "THES",
        "unpublished" => "UNPB",
        "online" | "electronic" | "www" | "webpage" => "ELEC",
        "patent" => "PAT",
        "periodical" => "JFULL",
        "dataset" => "DATA",
        "software" => "COMP",
        _ => "GEN",
    }
}

/// A field's text: the Unicode value, or for a verbatim field (`url`, `doi`) the text as written.
fn text(entry: &BibEntry, name: &str) -> Option<String> {
    let field = entry.field(name)?;
    let text = if bibtex::is_verbatim(name) {
        bibtex::verbatim_text(&field.raw)
    } else {
        field.value.clone()
    };
    (!text.trim().is_empty()).then_some(text)
}

fn names_of(entry: &BibEntry, field: &str) -> Vec<Name> {
    entry
        .field(field)
        .map(|f| bibtex::names(&f.raw))
        .unwrap_or_default()
        .into_iter()
        .filter(|n| !n.is_others())
        .collect()
}

/// The publisher-like field of an entry: a thesis's school, a report's institution, a manual's organisation.
fn publisher(entry: &BibEntry) -> Option<String> {
    ["publisher", "school", "institution", "organization"]
        .iter()
        .find_map(|f| text(entry, f))
}

/// The field naming the journal or book the work is in.
fn container(entry: &BibEntry) -> Option<String> {
    ["journal", "journaltitle", "booktitle"]
        .iter()
        .find_map(|f| text(entry, f))
}

/// `howpublished`: `Ok` with the address when it is one (`\\url{https://…}`), `Err` with its text otherwise.
fn howpublished(entry: &BibEntry) -> Option<Result<String, String>> {
    let field = entry.field("howpublished")?;
    let raw = field.raw.trim();
    let address = bibtex::verbatim_text(raw.strip_prefix("\\url").unwrap_or(raw));
    if address.starts_with("http://") || address.starts_with("https://") {
        Some(Ok(address))
    } else {
        text(entry, "howpublished").map(Err)
    }
}

/// A thesis's kind, for CSL's `genre`: the `type` field, else what the entry type says.
fn genre(entry: &BibEntry) -> Option<String> {
    text(entry, "type").or_else(|| match entry.kind.as_str() {
        "phdthesis" => Some("PhD thesis".to_string()),
        "mastersthesis" => Some("Master's thesis".to_string()),
        _ => None,
    })
}

/// First and last page of a single range (`109–111`), or the whole text as the first page otherwise.
fn page_range(pages: &str) -> (String, Option<String>) {
    if !pages.contains(',')
        && let Some((start, end)) = pages.split_once(['–', '—', '-'])
    {
        let end = end.trim_start_matches(['–', '—', '-']).trim();
        if !end.is_empty() {
            return (start.trim().to_string(), Some(end.to_string()));
        }
    }
    (pages.trim().to_string(), None)
}

fn month_number(text: &str) -> Option<u32> {
    let t = text.trim().trim_end_matches('.').to_ascii_lowercase();
    if let Ok(n) = t.parse::<u32>() {
        return (1..=12).contains(&n).then_some(n);
    }
    const MONTHS: [&str; 12] = [
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    ];
    if t.len() < 3 {
        return None;
    }
    MONTHS
        .iter()
        .position(|m| m.starts_with(&t))
        .map(|i| i as u32 + 1)
}

/// `1898`, `1898-05`, `1898-05-03`: year, month, day.
fn one_date(text: &str) -> Option<Vec<i64>> {
    let mut parts = Vec::new();
    for (i, piece) in text.trim().split('-').enumerate() {
        if piece.is_empty() || !piece.bytes().all(|b| b.is_ascii_digit()) || piece.len() > 4 {
            return None;
        }
        let n: i64 = piece.parse().ok()?;
        let valid = match i {
            0 => true,
            1 => (1..=12).contains(&n),
            2 => (1..=31).contains(&n),
            _ => false,
        };
        if !valid {
            return None;
        }
        parts.push(n);
    }
    Some(parts)
}

/// When the work was issued: the `date` field (biblatex: a date or a range `A/B`), else `year` (a range
/// `1898--1899` too) and `month`. `Err` with the text when it is not a date (`c. 1900`, `forthcoming`).
fn issued(entry: &BibEntry) -> Option<Result<Vec<Vec<i64>>, String>> {
    let (text, month) = match text(entry, "date") {
        Some(date) => (date, None),
        None => (
            text(entry, "year")?,
            text(entry, "month").and_then(|m| month_number(&m)),
        ),
    };
    let range: Vec<&str> = text.split(['/', '–']).collect();
    let dates: Option<Vec<Vec<i64>>> = range.iter().map(|d| one_date(d)).collect();
    match dates {
        Some(mut dates) if !dates.is_empty() && dates.len() <= 2 => {
            if let (Some(m), [only]) = (month, dates.as_mut_slice())
                && only.len() == 1
            {
                only.push(i64::from(m));
            }
            Some(Ok(dates))
        }
        _ => Some(Err(text)),
    }
}

/// A CSL name object: an organisation as a literal, a person by family and given name, with the von part as a
/// particle kept with the family name and the Jr part as a suffix.
fn csl_name(name: &Name) -> Json {
    if name.is_corporate() {
        return json!({ "literal": name.family() });
    }
    let mut o = json!({ "family": name.family() });
    for (key, value) in [
        ("given", name.given()),
        ("non-dropping-particle", name.particle()),
        ("suffix", name.suffix()),
    ] {
        if !value.is_empty() {
            o[key] = json!(value);
        }
    }
    o
}

/// One entry as a CSL-JSON item, `id` its key.
pub fn csl_item(entry: &BibEntry) -> Json {
    let mut item = json!({
        "id": entry.key.value,
        "type": csl_type(&entry.kind),
    });
    for (field, key) in [
        ("author", "author"),
        ("editor", "editor"),
        ("translator", "translator"),
    ] {
        let names = names_of(entry, field);
        if !names.is_empty() {
            item[key] = names.iter().map(csl_name).collect();
        }
    }
    let mut put = |key: &str, value: Option<String>| {
        if let Some(v) = value {
            item[key] = json!(v);
        }
    };
    put("title", text(entry, "title"));
    put("container-title", container(entry));
    put("collection-title", text(entry, "series"));
    put("volume", text(entry, "volume"));
    // An article's number is its issue; a report's is the report's own number.
    match entry.kind.as_str() {
        "techreport" | "report" | "manual" | "patent" => put("number", text(entry, "number")),
        _ => put(
            "issue",
            text(entry, "number").or_else(|| text(entry, "issue")),
        ),
    }
    put(
        "page",
        text(entry, "pages").map(|p| p.replace(['–', '—'], "-")),
    );
    put("chapter-number", text(entry, "chapter"));
    put("edition", text(entry, "edition"));
    // howpublished says how a work without a publisher came out: its address when it is one, else kept as its
    // publisher, where BibTeX's styles print it.
    let how = howpublished(entry);
    put(
        "publisher",
        publisher(entry).or_else(|| how.clone().and_then(|h| h.err())),
    );
    put(
        "publisher-place",
        text(entry, "address").or_else(|| text(entry, "location")),
    );
    put("genre", genre(entry));
    put("DOI", text(entry, "doi"));
    put(
        "URL",
        text(entry, "url").or_else(|| how.clone().and_then(|h| h.ok())),
    );
    put("ISBN", text(entry, "isbn"));
    put("ISSN", text(entry, "issn"));
    put(
        "language",
        text(entry, "language").or_else(|| text(entry, "langid")),
    );
    put("abstract", text(entry, "abstract"));
    let mut notes: Vec<String> = ["note", "annote"]
        .iter()
        .filter_map(|f| text(entry, f))
        .collect();
    if publisher(entry).is_some()
        && let Some(Err(how)) = &how
    {
        notes.insert(0, how.clone());
    }
    if !notes.is_empty() {
        item["note"] = json!(notes.join(". "));
    }
    match issued(entry) {
        Some(Ok(parts)) => item["issued"] = json!({ "date-parts": parts }),
        Some(Err(literal)) => item["issued"] = json!({ "literal": literal }),
        None => {}
    }
    if let Some(Some(date)) = text(entry, "urldate").map(|d| one_date(&d)) {
        item["accessed"] = json!({ "date-parts": [date] });
    }
    item
}

/// A RIS name: "Last, First, Suffix", the von part with the last name; an organisation as it is, with no comma,
/// which reference managers read as one name.
fn ris_name(name: &Name) -> String {
    let mut family = name.particle();
    if !family.is_empty() {
        family.push(' ');
    }
    family.push_str(&name.family());
    if name.is_corporate() {
        return family;
    }
    let mut out = family;
    let given = name.given();
    let suffix = name.suffix();
    if !given.is_empty() || !suffix.is_empty() {
        out.push_str(", ");
        out.push_str(&given);
    }
    if !suffix.is_empty() {
        out.push_str(", ");
        out.push_str(&suffix);
    }
    out
}

/// One entry as a RIS record, from `TY` to `ER`.
pub fn ris_record(entry: &BibEntry) -> String {
    let mut out = String::new();
    let mut line = |tag: &str, value: &str| {
        let value = ris_value(value);
        if !value.is_empty() {
            out.push_str(&format!("{tag}  - {value}\n"));
        }
    };
    line("TY", ris_type(&entry.kind));
    line("ID", &entry.key.value);
    for name in names_of(entry, "author") {
        line("AU", &ris_name(&name));
    }
    for name in names_of(entry, "editor") {
        line("ED", &ris_name(&name));
    }
    for name in names_of(entry, "translator") {
        line("A4", &ris_name(&name));
    }
    if let Some(title) = text(entry, "title") {
        line("TI", &title);
    }
    if entry.kind == "article" {
        if let Some(journal) = container(entry) {
            line("JO", &journal);
        }
    } else if let Some(book) = container(entry) {
        line("T2", &book);
    }
    if let Some(series) = text(entry, "series") {
        line("T3", &series);
    }
    match issued(entry) {
        Some(Ok(parts)) => {
            let first = &parts[0];
            line("PY", &format!("{:04}", first[0]));
            if first.len() > 1 {
                let rest: Vec<String> = first[1..].iter().map(|n| format!("{n:02}")).collect();
                line("DA", &format!("{:04}/{}", first[0], rest.join("/")));
            }
        }
        Some(Err(literal)) => line("PY", &literal),
        None => {}
    }
    for (field, tag) in [("volume", "VL"), ("number", "IS"), ("issue", "IS")] {
        if let Some(v) = text(entry, field) {
            line(tag, &v);
        }
    }
    if let Some(pages) = text(entry, "pages") {
        let (start, end) = page_range(&pages);
        line("SP", &start);
        if let Some(end) = end {
            line("EP", &end);
        }
    }
    if let Some(edition) = text(entry, "edition") {
        line("ET", &edition);
    }
    let how = howpublished(entry);
    match (publisher(entry), &how) {
        (Some(p), how) => {
            line("PB", &p);
            if let Some(Err(how)) = how {
                line("N1", how);
            }
        }
        (None, Some(Err(how))) => line("PB", how),
        _ => {}
    }
    if let Some(place) = text(entry, "address").or_else(|| text(entry, "location")) {
        line("CY", &place);
    }
    if let Some(genre) = genre(entry) {
        line("M3", &genre);
    }
    for field in ["isbn", "issn"] {
        if let Some(v) = text(entry, field) {
            line("SN", &v);
        }
    }
    if let Some(url) = text(entry, "url").or_else(|| how.and_then(|h| h.ok())) {
        line("UR", &url);
    }
    if let Some(doi) = text(entry, "doi") {
        line("DO", &doi);
    }
    if let Some(date) = text(entry, "urldate") {
        line("Y2", &date.replace('-', "/"));
    }
    if let Some(language) = text(entry, "language") {
        line("LA", &language);
    }
    if let Some(abstract_) = text(entry, "abstract") {
        line("AB", &abstract_);
    }
    for field in ["note", "annote"] {
        if let Some(note) = text(entry, field) {
            line("N1", &note);
        }
    }
    if let Some(keywords) = text(entry, "keywords") {
        for k in keywords
            .split([',', ';'])
            .map(str::trim)
            .filter(|k| !k.is_empty())
        {
            line("KW", k);
        }
    }
    out.push_str("ER  - \n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(text: &str) -> BibEntry {
        let (mut entries, errors) = bibtex::parse_str(text);
        assert!(errors.is_empty(), "{errors:?}");
        entries.remove(0)
    }

    #[test]
    fn an_article_in_each_format() {
        let e = entry(
            r"@article{junod-1898,
              author  = {Junod, Henri Alexandre and Ludwig van Beethoven and {Royal Society} and others},
              title   = {Les Ba-Ronga: {\'e}tude},
              journal = {Bulletin de la Soci{\'e}t{\'e}},
              year    = {1898}, month = may, volume = {10}, number = {5}, pages = {109--111},
              doi = {10.1000/x_y}, url = {https://example.org/a~b_c},
            }",
        );
        let csl = csl_item(&e);
        assert_eq!(csl["id"], "junod-1898");
        assert_eq!(csl["type"], "article-journal");
        assert_eq!(
            csl["author"],
            json!([
                {"family": "Junod", "given": "Henri Alexandre"},
                {"family": "Beethoven", "given": "Ludwig", "non-dropping-particle": "van"},
                {"literal": "Royal Society"},
            ])
        );
        assert_eq!(csl["title"], "Les Ba-Ronga: étude");
        assert_eq!(csl["container-title"], "Bulletin de la Société");
        assert_eq!(csl["issued"], json!({"date-parts": [[1898, 5]]}));
        assert_eq!(csl["page"], "109-111");
        assert_eq!(csl["issue"], "5");
        assert_eq!(csl["DOI"], "10.1000/x_y");
        assert_eq!(csl["URL"], "https://example.org/a~b_c");

        let ris = ris_record(&e);
        for line in [
            "TY  - JOUR\n",
            "ID  - junod-1898\n",
            "AU  - Junod, Henri Alexandre\n",
            "AU  - van Beethoven, Ludwig\n",
            "AU  - Royal Society\n",
            "TI  - Les Ba-Ronga: étude\n",
            "JO  - Bulletin de la Société\n",
            "PY  - 1898\n",
            "DA  - 1898/05\n",
            "VL  - 10\n",
            "IS  - 5\n",
            "SP  - 109\n",
            "EP  - 111\n",
            "DO  - 10.1000/x_y\n",
        ] {
            assert!(ris.contains(line), "{line:?} in\n{ris}");
        }
        assert!(ris.ends_with("ER  - \n"));
    }

    #[test]
    fn types_dates_and_publishers() {
        let e = entry(
            "@phdthesis{t, author = {Last, Jr, A. B.}, title = {T}, school = {Uni}, date = {1990-02/1991}}",
        );
        let csl = csl_item(&e);
        assert_eq!(csl["type"], "thesis");
        assert_eq!(csl["genre"], "PhD thesis");
        assert_eq!(csl["publisher"], "Uni");
        assert_eq!(csl["issued"], json!({"date-parts": [[1990, 2], [1991]]}));
        assert_eq!(ris_type("phdthesis"), "THES");
        let e = entry("@misc{m, title = {M}, howpublished = {A database}, year = {c. 1900}}");
        let csl = csl_item(&e);
        assert_eq!(csl["type"], "document");
        assert_eq!(csl["publisher"], "A database");
        assert_eq!(csl["issued"], json!({"literal": "c. 1900"}));
        let ris = ris_record(&e);
        assert!(ris.starts_with("TY  - GEN\n"));
        assert!(ris.contains("PY  - c. 1900\n"));
        assert!(ris.contains("PB  - A database\n"));
    }
}
