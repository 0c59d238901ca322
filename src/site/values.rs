//! Values as people read them. A record keeps dates, places and languages in the forms archives exchange
//! (`1950~`, `east=94.11; north=25.67; name=Kohima`, `njm`); the pages show them in words: "about 1950",
//! "Kohima (25.67° N, 94.11° E)" with a link to a map, "Angami Naga". The data files (catalog.json, catalog.csv,
//! the exports) keep the values as written: this module is only for what a visitor reads.

use serde::Serialize;

use crate::catalog::{Item, Value};
use crate::scheme::date::{self, Bound, Date, Edtf, Period};
use crate::scheme::language::LANGUAGES;
use crate::scheme::place::{self, GeoBox, Point};
use crate::scheme::{Scheme, parse_dcmi_type};

/// A value ready to show: its text in words, and where it names a place, a link to a map.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Shown {
    pub text: String,
    /// A `geo:` address (RFC 5870) that a phone or a desktop map application opens: the site itself stays
    /// offline, with no tile server behind it.
    pub map: Option<MapLink>,
    /// An address the value is, for a `dcterms:URI`.
    pub href: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MapLink {
    pub href: String,
    /// Says which place the link opens, for tooltips.
    pub label: String,
    /// The place's name, so that links to several places on one page are told apart by screen readers too.
    pub place: String,
}

/// How a value of a record reads on a page, when its scheme (or its term, for `language`) gives it a form of
/// its own; `None` for free text, which is shown as written.
pub fn show(value: &Value) -> Option<Shown> {
    let scheme = value
        .scheme()
        .as_ref()
        .and_then(|s| Scheme::from_xsi_type(&s.value));
    let text = value.text.trim();
    let plain = |text: String| Shown {
        text,
        map: None,
        href: None,
    };
    match scheme {
        Some(Scheme::Point) => place::parse_point(text).ok().map(|p| point(&p)),
        Some(Scheme::Box) => place::parse_box(text).ok().map(|b| geo_box(&b)),
        Some(Scheme::W3cdtf) => date::parse_w3cdtf(text).ok().map(|d| {
            let mut words = date_words(&d);
            if let Some((_, time)) = text.split_once('T') {
                words.push_str(&format!(", {}", time_words(time)));
            }
            plain(words)
        }),
        Some(Scheme::Edtf) => date::parse_edtf(text).ok().map(|e| plain(edtf_words(&e))),
        Some(Scheme::Period) => date::parse_period(text)
            .ok()
            .map(|p| plain(period_words(&p))),
        Some(Scheme::Rfc5646) => Some(plain(language_name(text))),
        Some(Scheme::DcmiType) => parse_dcmi_type(text).ok().map(|t| plain(split_camel(t))),
        Some(Scheme::Uri) => Some(Shown {
            text: text.to_string(),
            map: None,
            href: (text.starts_with("https://") || text.starts_with("http://"))
                .then(|| text.to_string()),
        }),
        Some(Scheme::Imt) => None,
        None if value.term.name == "language"
            && crate::scheme::language::parse_language_tag(text).is_ok() =>
        {
            Some(plain(language_name(text)))
        }
        None => None,
    }
}

/// The text of a value as people read it: in words where its scheme allows, else as written.
pub fn text(value: &Value) -> String {
    show(value).map_or_else(|| crate::archive::text::one_line(&value.text), |s| s.text)
}

/// An item's dates in words, for the browse table: `date`, its refinements and `temporal`, in record order.
pub fn date_label(item: &Item) -> String {
    item.values
        .iter()
        .filter(|v| v.term.is_date() || v.term.name == "temporal")
        .map(text)
        .collect::<Vec<_>>()
        .join("; ")
}

/// Degrees with their hemisphere: `25.67° N, 94.11° E`, `23.87° S, 35.38° E`.
pub fn coordinates(east: f64, north: f64) -> String {
    format!("{}, {}", degrees(north, 'N', 'S'), degrees(east, 'E', 'W'))
}

fn degrees(value: f64, positive: char, negative: char) -> String {
    let hemisphere = if value < 0.0 { negative } else { positive };
    // Up to the two decimals records give (about a kilometre), without trailing zeros.
    let mut number = format!("{:.2}", value.abs());
    while number.ends_with('0') {
        number.pop();
    }
    if number.ends_with('.') {
        number.pop();
    }
    format!("{number}° {hemisphere}")
}

/// A `geo:` link to a point, latitude first as RFC 5870 writes it.
pub fn map_link(east: f64, north: f64, name: &str) -> MapLink {
    MapLink {
        href: format!("geo:{north},{east}"),
        label: format!("{name} on a map"),
        place: name.to_string(),
    }
}

fn point(p: &Point) -> Shown {
    let at = coordinates(p.east, p.north);
    let (text, name) = match p.name.as_deref().filter(|n| !n.trim().is_empty()) {
        Some(name) => (format!("{name} ({at})"), name.to_string()),
        None => (at.clone(), at),
    };
    Shown {
        text,
        map: Some(map_link(p.east, p.north, &name)),
        href: None,
    }
}

fn geo_box(b: &GeoBox) -> Shown {
    let extent = format!(
        "{} to {}, {} to {}",
        degrees(b.south, 'N', 'S'),
        degrees(b.north, 'N', 'S'),
        degrees(b.west, 'E', 'W'),
        degrees(b.east, 'E', 'W'),
    );
    let (text, name) = match b.name.as_deref().filter(|n| !n.trim().is_empty()) {
        Some(name) => (format!("{name} ({extent})"), name.to_string()),
        None => (format!("the area {extent}"), format!("the area {extent}")),
    };
    let (east, north) = b.centre();
    // The link opens the box's centre, with its half-diagonal as the uncertainty (in metres), so that a map
    // application shows roughly the whole area.
    let half = ((b.north - b.south).powi(2) + b.width().powi(2)).sqrt() / 2.0 * 111_000.0;
    let mut map = map_link(round(east), round(north), &name);
    map.href.push_str(&format!(";u={}", half.round() as i64));
    Shown {
        text,
        map: Some(map),
        href: None,
    }
}

fn round(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

const SEASONS: [&str; 4] = ["spring", "summer", "autumn", "winter"];

/// A year: `1921`; before the common era `501 BCE` (EDTF counts astronomically: year 0 is 1 BCE).
fn year_words(year: i64, era: bool) -> String {
    if year <= 0 {
        format!("{} BCE", 1 - year)
    } else if era {
        format!("{year} CE")
    } else {
        year.to_string()
    }
}

/// A date without its qualifier: `1921`, `March 1921`, `9 March 1921`, `spring 1921`, `the 1920s`.
fn plain_date(d: &Date, era: bool) -> String {
    if d.year > 0 && d.year_unspecified_digits > 0 {
        // `192X` is the 1920s and `19XX` the 1900s (the year was read with X as 0); a wider span is a range.
        let span = 10_i64.pow(u32::from(d.year_unspecified_digits));
        return if span <= 100 {
            format!("the {}s", d.year)
        } else {
            format!("{}–{}", d.year, d.year + span - 1)
        };
    }
    let year = year_words(d.year, era);
    match (d.month, d.day) {
        (Some(m @ 21..=24), _) => format!("{} {year}", SEASONS[(m - 21) as usize]),
        (Some(m @ 1..=12), Some(day)) => format!("{day} {} {year}", MONTHS[(m - 1) as usize]),
        (Some(m @ 1..=12), None) => format!("{} {year}", MONTHS[(m - 1) as usize]),
        _ => year,
    }
}

/// A date in words, with its qualifier: `about 1950` (`~`), `1950, uncertain` (`?`), `about 1950, uncertain`
/// (`%`).
fn date_in_words(d: &Date, era: bool) -> String {
    let words = plain_date(d, era);
    match d.qualifier {
        Some('~') => format!("about {words}"),
        Some('?') => format!("{words}, uncertain"),
        Some('%') => format!("about {words}, uncertain"),
        _ => words,
    }
}

/// A W3CDTF or EDTF date in words.
pub fn date_words(d: &Date) -> String {
    date_in_words(d, false)
}

/// The clock time of a W3CDTF date, with its zone: `19:20 UTC`, `19:20:30 (UTC+01:00)`.
fn time_words(time: &str) -> String {
    if let Some(clock) = time.strip_suffix('Z') {
        return format!("{clock} UTC");
    }
    match time.rfind(['+', '-']) {
        Some(at) => format!("{} (UTC{})", &time[..at], &time[at..]),
        None => time.to_string(),
    }
}

/// Does an interval run over whole years: from 1 January of one to 31 December of another?
fn whole_years(a: &Date, b: &Date) -> bool {
    a.month == Some(1)
        && a.day == Some(1)
        && b.month == Some(12)
        && b.day == Some(31)
        && a.qualifier.is_none()
        && b.qualifier.is_none()
        && !a.unspecified
        && !b.unspecified
}

fn range_words(start: Option<&Date>, end: Option<&Date>) -> String {
    match (start, end) {
        (Some(a), Some(b)) => {
            let era = a.year <= 0 && b.year > 0;
            if whole_years(a, b) {
                let (a, b) = (year_words(a.year, era), year_words(b.year, era));
                return if a == b { a } else { format!("{a}–{b}") };
            }
            let (x, y) = (date_in_words(a, era), date_in_words(b, era));
            if x == y {
                x
            } else if x.contains(' ') || y.contains(' ') {
                format!("{x} – {y}")
            } else {
                format!("{x}–{y}")
            }
        }
        (Some(a), None) => format!("from {}", date_words(a)),
        (None, Some(b)) => format!("until {}", date_words(b)),
        (None, None) => String::new(),
    }
}

/// An EDTF date or interval in words: `1921`, `about 1950`, `1898–1912`, `from 1921 onwards`.
pub fn edtf_words(e: &Edtf) -> String {
    match e {
        Edtf::Date(d) => date_words(d),
        Edtf::Interval(start, end) => match (start, end) {
            (Bound::Date(a), Bound::Date(b)) => range_words(Some(a), Some(b)),
            (Bound::Date(a), Bound::Open) => format!("from {} onwards", date_words(a)),
            (Bound::Date(a), Bound::Unknown) => {
                format!("from {} (end unknown)", date_words(a))
            }
            (Bound::Open, Bound::Date(b)) => format!("until {}", date_words(b)),
            (Bound::Unknown, Bound::Date(b)) => {
                format!("until {} (start unknown)", date_words(b))
            }
            // The parser refuses an interval with no date at either end.
            _ => String::new(),
        },
    }
}

/// A DCMI Period: its name with its range, `Hutton's fieldwork (1918–1921)`, or the range alone.
pub fn period_words(p: &Period) -> String {
    let range = range_words(p.start.as_ref(), p.end.as_ref());
    match (
        p.name.as_deref().filter(|n| !n.trim().is_empty()),
        range.is_empty(),
    ) {
        (Some(name), false) => format!("{name} ({range})"),
        (Some(name), true) => name.to_string(),
        (None, _) => range,
    }
}

/// `PhysicalObject` as `Physical object`.
fn split_camel(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push(' ');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

const SCRIPTS: &[(&str, &str)] = &[
    ("Arab", "Arabic script"),
    ("Beng", "Bengali script"),
    ("Cyrl", "Cyrillic script"),
    ("Deva", "Devanagari script"),
    ("Hans", "simplified Chinese script"),
    ("Hant", "traditional Chinese script"),
    ("Latn", "Latin script"),
    ("Orya", "Odia script"),
    ("Sinh", "Sinhala script"),
    ("Taml", "Tamil script"),
    ("Tibt", "Tibetan script"),
];

const REGIONS: &[(&str, &str)] = &[
    ("BD", "Bangladesh"),
    ("BT", "Bhutan"),
    ("CN", "China"),
    ("DE", "Germany"),
    ("FR", "France"),
    ("GB", "the United Kingdom"),
    ("ID", "Indonesia"),
    ("IN", "India"),
    ("IR", "Iran"),
    ("LK", "Sri Lanka"),
    ("MM", "Myanmar"),
    ("MY", "Malaysia"),
    ("MZ", "Mozambique"),
    ("NL", "the Netherlands"),
    ("NP", "Nepal"),
    ("PK", "Pakistan"),
    ("PT", "Portugal"),
    ("US", "the United States"),
    ("ZA", "South Africa"),
];

fn lookup(table: &[(&str, &'static str)], code: &str) -> Option<&'static str> {
    table
        .iter()
        .find(|(c, _)| c.eq_ignore_ascii_case(code))
        .map(|(_, name)| *name)
}

/// A language tag by name: `njm` is "Angami Naga", `ne-Latn` "Nepali in Latin script", `pt-MZ` "Portuguese as
/// used in Mozambique". Pages put the name of a value's language in parentheses, so the name has none of its
/// own. A tag whose language is not in the table is shown as written, so nothing is guessed; a subtag not in
/// the tables follows the name as written.
pub fn language_name(tag: &str) -> String {
    let subtags: Vec<&str> = tag.split('-').collect();
    let Some(language) = lookup(LANGUAGES, subtags[0]) else {
        return tag.to_string();
    };
    let mut name = language.to_string();
    for (i, subtag) in subtags.iter().enumerate().skip(1) {
        if subtag.len() == 1 {
            // An extension or private use: the rest is not a script or a region.
            name.push_str(&format!(", {}", subtags[i..].join("-")));
            break;
        }
        match (
            subtag.len(),
            lookup(SCRIPTS, subtag),
            lookup(REGIONS, subtag),
        ) {
            (4, Some(script), _) => name.push_str(&format!(" in {script}")),
            (2 | 3, _, Some(region)) => name.push_str(&format!(" as used in {region}")),
            _ => name.push_str(&format!(", {subtag}")),
        }
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edtf(text: &str) -> String {
        edtf_words(&date::parse_edtf(text).unwrap())
    }

    fn w3c(text: &str) -> String {
        date_words(&date::parse_w3cdtf(text).unwrap())
    }

    #[test]
    fn dates_in_words() {
        assert_eq!(edtf("1921"), "1921");
        assert_eq!(edtf("1950~"), "about 1950");
        assert_eq!(edtf("1950?"), "1950, uncertain");
        assert_eq!(edtf("1950%"), "about 1950, uncertain");
        assert_eq!(edtf("1898/1912"), "1898–1912");
        assert_eq!(edtf("1921-01-01/1921-12-31"), "1921");
        assert_eq!(edtf("1918-01-01/1921-12-31"), "1918–1921");
        assert_eq!(edtf("1921-03/1921-06"), "March 1921 – June 1921");
        assert_eq!(edtf("1921/.."), "from 1921 onwards");
        assert_eq!(edtf("1921/"), "from 1921 (end unknown)");
        assert_eq!(edtf("/1921"), "until 1921 (start unknown)");
        assert_eq!(edtf("../1921"), "until 1921");
        assert_eq!(edtf("-0500/0300"), "501 BCE – 300 CE");
        assert_eq!(edtf("-0499"), "500 BCE");
        assert_eq!(edtf("0000"), "1 BCE");
        assert_eq!(edtf("1921-21"), "spring 1921");
        assert_eq!(edtf("1921-24"), "winter 1921");
        assert_eq!(edtf("1921-03"), "March 1921");
        assert_eq!(edtf("1921-03-09"), "9 March 1921");
        assert_eq!(edtf("192X"), "the 1920s");
        assert_eq!(edtf("19XX"), "the 1900s");
        assert_eq!(edtf("1921-XX"), "1921");
        assert_eq!(edtf("1920-XX"), "1920");
        assert_eq!(edtf("1XXX"), "1000–1999");
        assert_eq!(w3c("2024-03-09"), "9 March 2024");
        assert_eq!(w3c("1921"), "1921");
        assert_eq!(w3c("1921-11"), "November 1921");
    }

    #[test]
    fn periods_as_ranges() {
        let p = |t: &str| period_words(&date::parse_period(t).unwrap());
        assert_eq!(p("start=1918; end=1921; name=Hutton"), "Hutton (1918–1921)");
        assert_eq!(p("start=1898; end=1912"), "1898–1912");
        assert_eq!(p("start=1898"), "from 1898");
        assert_eq!(
            p("end=1912; name=Before the war"),
            "Before the war (until 1912)"
        );
        assert_eq!(p("name=Colonial period"), "Colonial period");
        assert_eq!(p("start=-0300; end=0200"), "301 BCE – 200 CE");
    }

    #[test]
    fn points_with_coordinates_and_a_map() {
        let shown =
            point(&place::parse_point("east=94.11; north=25.67; name=Kohima, Nagaland").unwrap());
        assert_eq!(shown.text, "Kohima, Nagaland (25.67° N, 94.11° E)");
        let map = shown.map.unwrap();
        assert_eq!(map.href, "geo:25.67,94.11");
        assert_eq!(map.label, "Kohima, Nagaland on a map");
        let south = point(&place::parse_point("east=35.38; north=-23.87; name=Inhambane").unwrap());
        assert_eq!(south.text, "Inhambane (23.87° S, 35.38° E)");
        assert_eq!(south.map.unwrap().href, "geo:-23.87,35.38");
        let bare = point(&place::parse_point("east=-73.5; north=-12").unwrap());
        assert_eq!(bare.text, "12° S, 73.5° W");
    }

    #[test]
    fn boxes_with_extent_and_a_map() {
        let b = place::parse_box(
            "northlimit=28; eastlimit=97; southlimit=24; westlimit=88; name=North-east India",
        )
        .unwrap();
        let shown = geo_box(&b);
        assert_eq!(
            shown.text,
            "North-east India (24° N to 28° N, 88° E to 97° E)"
        );
        assert!(shown.map.unwrap().href.starts_with("geo:26,92.5;u="));
        // Across the date line: the middle is in the Pacific and the uncertainty is of a box 5 degrees wide,
        // not 355.
        let fiji =
            place::parse_box("northlimit=-12; eastlimit=-178; southlimit=-21; westlimit=177")
                .unwrap();
        assert_eq!(geo_box(&fiji).map.unwrap().href, "geo:-16.5,179.5;u=571407");
    }

    #[test]
    fn languages_by_name() {
        assert_eq!(language_name("njm"), "Angami Naga");
        assert_eq!(language_name("ts"), "Tsonga");
        assert_eq!(language_name("ne-Latn"), "Nepali in Latin script");
        assert_eq!(language_name("bn-Latn"), "Bengali in Latin script");
        assert_eq!(language_name("pt-MZ"), "Portuguese as used in Mozambique");
        assert_eq!(
            language_name("EN-gb"),
            "English as used in the United Kingdom"
        );
        assert_eq!(
            language_name("hi-Deva-IN"),
            "Hindi in Devanagari script as used in India"
        );
        // Unknown codes are shown as written, never guessed.
        assert_eq!(language_name("qaa"), "qaa");
        assert_eq!(language_name("en-x-hutton"), "English, x-hutton");
        assert_eq!(language_name("de-CH-1901"), "German, CH, 1901");
    }

    #[test]
    fn coordinates_in_degrees() {
        assert_eq!(coordinates(94.11, 25.67), "25.67° N, 94.11° E");
        assert_eq!(coordinates(-0.5, 0.0), "0° N, 0.5° W");
        assert_eq!(coordinates(35.0, -24.10), "24.1° S, 35° E");
    }
}
