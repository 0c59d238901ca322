//! Citations: "cite this page" in BibTeX, RIS and CSL-JSON, and the way a bibliography entry is written on a
//! page (short form in lists, full form on its source page).

use serde_json::json;

use crate::archive::text::reading_order;
use crate::catalog::bibtex::BibEntry;

/// What a page citation needs.
pub struct PageCitation<'a> {
    pub key: &'a str,
    pub title: &'a str,
    /// Authors in reading order; for a record, its creators of the record text (contributors).
    pub authors: &'a [String],
    pub site_title: &'a str,
    /// The page's address, when the site's address is known.
    pub url: Option<String>,
    /// When the record was last changed, by its own dates: the date of the page's content. The date the reader
    /// accessed the page is theirs to give (their reference manager fills it in); the build's date would be
    /// wrong for anyone who copies the citation later.
    pub updated: Option<(i64, u32, u32)>,
}

/// Year, month and day of a count of days since 1970-01-01 (Howard Hinnant's algorithm).
pub(super) fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// BibTeX braces protect a value; braces inside it would unbalance the entry, so they are dropped.
fn bib_value(text: &str) -> String {
    text.chars().filter(|c| !matches!(c, '{' | '}')).collect()
}

pub fn bibtex(c: &PageCitation) -> String {
    let mut out = format!("@misc{{{},\n", c.key);
    out.push_str(&format!("  title        = {{{}}},\n", bib_value(c.title)));
    if !c.authors.is_empty() {
        let names: Vec<String> = c
            .authors
            .iter()
            .map(|a| format!("{{{}}}", bib_value(a)))
            .collect();
        out.push_str(&format!("  author       = {{{}}},\n", names.join(" and ")));
    }
    out.push_str(&format!(
        "  howpublished = {{{}}},\n",
        bib_value(c.site_title)
    ));
    if let Some((y, m, d)) = c.updated {
        out.push_str(&format!("  year         = {{{y}}},\n"));
        // biblatex reads the full date; BibTeX styles, which do not know the field, keep the year.
        out.push_str(&format!("  date         = {{{y:04}-{m:02}-{d:02}}},\n"));
    }
    if let Some(url) = &c.url {
        out.push_str(&format!("  url          = {{{}}},\n", bib_value(url)));
    }
    out.push_str("}\n");
    out
}

/// RIS lines may not span lines: values are put on one.
pub fn ris_value(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

pub fn ris(c: &PageCitation) -> String {
    let mut out = String::from("TY  - ELEC\n");
    out.push_str(&format!("TI  - {}\n", ris_value(c.title)));
    for a in c.authors {
        out.push_str(&format!("AU  - {}\n", ris_value(a)));
    }
    out.push_str(&format!("T2  - {}\n", ris_value(c.site_title)));
    if let Some((y, m, d)) = c.updated {
        out.push_str(&format!("PY  - {y}\n"));
        out.push_str(&format!("DA  - {y:04}/{m:02}/{d:02}\n"));
    }
    if let Some(url) = &c.url {
        out.push_str(&format!("UR  - {}\n", ris_value(url)));
    }
    out.push_str("ER  - \n");
    out
}

pub fn csl_json(c: &PageCitation) -> String {
    serde_json::to_string_pretty(&json!([csl_item(c)])).unwrap_or_default() + "\n"
}

/// One CSL-JSON item; a page gives an array of one, `export csl-json` an array of every item's.
pub fn csl_item(c: &PageCitation) -> serde_json::Value {
    let mut item = json!({
        "id": c.key,
        "type": "webpage",
        "title": c.title,
        "container-title": c.site_title,
    });
    if let Some((y, m, d)) = c.updated {
        item["issued"] = json!({ "date-parts": [[y, m, d]] });
    }
    if !c.authors.is_empty() {
        item["author"] = c.authors.iter().map(|a| json!({ "literal": a })).collect();
    }
    if let Some(url) = &c.url {
        item["URL"] = json!(url);
    }
    item
}

/// What an item's page citation is made of besides the page itself: its key, its authors (the people who wrote
/// the record, its contributors) and its address when the site's is known. Shared by the page's "cite this page"
/// and by `export bibtex|ris|csl-json`, so that both cite an item alike.
pub struct ItemCitation {
    pub key: String,
    pub authors: Vec<String>,
    pub url: Option<String>,
    pub updated: Option<(i64, u32, u32)>,
}

impl ItemCitation {
    pub fn of(entry: &crate::archive::Entry, base_url: Option<&str>) -> ItemCitation {
        ItemCitation {
            key: format!("ludotheca-{}", entry.item.id),
            authors: entry
                .item
                .values_of("contributor")
                .map(|v| crate::archive::text::one_line(&v.text))
                .collect(),
            url: base_url.map(|b| format!("{b}{}", entry.url)),
            // Year 0000 (which W3CDTF allows) is no year a reference manager takes.
            updated: entry
                .added
                .filter(|(y, _, _)| *y >= 1)
                .map(|(y, m, d)| (y, u32::from(m), u32::from(d))),
        }
    }

    pub fn page<'a>(&'a self, title: &'a str, site_title: &'a str) -> PageCitation<'a> {
        PageCitation {
            key: &self.key,
            title,
            authors: &self.authors,
            site_title,
            url: self.url.clone(),
            updated: self.updated,
        }
    }
}

/// Authors (or editors) of an entry in reading order, joined for a line of text.
pub fn entry_authors(entry: &BibEntry) -> String {
    let names: Vec<String> = if entry.authors.is_empty() {
        entry.editors.iter().map(|n| reading_order(n)).collect()
    } else {
        entry.authors.iter().map(|n| reading_order(n)).collect()
    };
    match names.len() {
        0 => String::new(),
        1 => names[0].clone(),
        2 => format!("{} and {}", names[0], names[1]),
        _ => format!("{} et al.", names[0]),
    }
}

/// "Hutton 1921, The Angami Nagas": how a citing list names a work.
pub fn short(entry: &BibEntry) -> String {
    let family = entry
        .authors
        .first()
        .or(entry.editors.first())
        .map(|n| n.split(',').next().unwrap_or(n).trim().to_string())
        .unwrap_or_default();
    let year = entry.get("year").unwrap_or("n.d.");
    let title = entry.get("title").unwrap_or(&entry.key.value);
    if family.is_empty() {
        format!("{title} ({year})")
    } else {
        format!("{family} {year}, {title}")
    }
}

/// The full reference, as a reader expects it in a bibliography.
pub fn full(entry: &BibEntry) -> String {
    let mut parts = Vec::new();
    let authors = entry_authors(entry);
    if !authors.is_empty() {
        parts.push(authors);
    }
    if let Some(year) = entry.get("year") {
        parts.push(format!("({year})"));
    }
    let mut line = parts.join(" ");
    // Join sentences without doubling a full stop a value already ends with ("Co.").
    let sentence = |line: &mut String, text: &str| {
        if !line.is_empty() {
            line.push_str(if line.ends_with('.') { " " } else { ". " });
        }
        line.push_str(text.trim());
    };
    if let Some(title) = entry.get("title") {
        sentence(&mut line, title);
    }
    for field in ["journal", "booktitle", "howpublished"] {
        if let Some(v) = entry.get(field) {
            sentence(&mut line, v);
        }
    }
    if let Some(volume) = entry.get("volume") {
        line.push_str(&format!(" {volume}"));
        if let Some(number) = entry.get("number") {
            line.push_str(&format!("({number})"));
        }
    }
    let place: Vec<&str> = ["address", "publisher"]
        .iter()
        .filter_map(|f| entry.get(f))
        .collect();
    if !place.is_empty() {
        sentence(&mut line, &place.join(": "));
    }
    if let Some(pages) = entry.get("pages") {
        line.push_str(&format!(", pp. {}", pages.replace("--", "–")));
    }
    if !line.ends_with('.') {
        line.push('.');
    }
    line
}

/// "p. 140" or "pp. 110–111".
pub fn pages(pages: &str) -> String {
    let pages = pages.replace("--", "–").replace('-', "–");
    if pages.contains(['–', ',']) {
        format!("pp. {pages}")
    } else {
        format!("p. {pages}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_from_days() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_786), (2026, 11, 29));
    }

    #[test]
    fn page_citations() {
        let authors = vec!["ludotheca editors".to_string()];
        let c = PageCitation {
            key: "ludotheca-terhuchu",
            title: "Terhuchu {x}",
            authors: &authors,
            site_title: "Ludotheca",
            url: Some("https://example.org/games/terhuchu/index.html".into()),
            updated: Some((2026, 11, 29)),
        };
        let bib = bibtex(&c);
        assert!(bib.starts_with("@misc{ludotheca-terhuchu,"));
        assert!(bib.contains("title        = {Terhuchu x},"));
        assert!(bib.contains("url          = {https://example.org/games/terhuchu/index.html},"));
        assert!(bib.contains("date         = {2026-11-29},"));
        assert!(!bib.contains("urldate"));
        assert!(ris(&c).contains("AU  - ludotheca editors\n"));
        assert!(ris(&c).contains("UR  - https://example.org/games/terhuchu/index.html\n"));
        assert!(!ris(&c).contains("Y2  -"));
        assert!(
            csl_json(&c).contains("\"URL\": \"https://example.org/games/terhuchu/index.html\"")
        );
        assert!(!csl_json(&c).contains("accessed"));
        assert!(csl_json(&c).contains("\"type\": \"webpage\""));
        assert_eq!(pages("110-111"), "pp. 110–111");
        assert_eq!(pages("140"), "p. 140");
    }
}
