//! Dates: W3CDTF (the W3C profile of ISO 8601), EDTF (years that may be BCE, uncertain, approximate or partly
//! unknown, and intervals), and DCMI Period.

use std::cmp::Ordering;

/// A calendar date with optional month and day; `year` may be negative (astronomical numbering in EDTF: year 0
/// is 1 BCE, -0500 is 501 BCE).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Date {
    pub year: i64,
    pub month: Option<u8>,
    pub day: Option<u8>,
    /// Some digits were `X` (unspecified), so the date cannot be compared exactly.
    pub unspecified: bool,
    /// How many digits of the year were `X` (`192X` has one, `19XX` two), so that a page can say "the 1920s".
    pub year_unspecified_digits: u8,
    /// `?` uncertain, `~` approximate, `%` both.
    pub qualifier: Option<char>,
}

impl Date {
    /// Order by the earliest moment each date could mean; `None` when either has unspecified digits.
    pub fn compare(&self, other: &Date) -> Option<Ordering> {
        if self.unspecified || other.unspecified {
            return None;
        }
        let key = |d: &Date| {
            (
                d.year,
                d.month.filter(|m| *m <= 12).unwrap_or(1),
                d.day.unwrap_or(1),
            )
        };
        Some(key(self).cmp(&key(other)))
    }
}

/// One end of an EDTF interval.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Date(Date),
    /// `..`
    Open,
    /// empty
    Unknown,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edtf {
    Date(Date),
    Interval(Bound, Bound),
}

fn days_in_month(year: i64, month: u8) -> u8 {
    match month {
        4 | 6 | 9 | 11 => 30,
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        _ => 31,
    }
}

fn all_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

fn two_digits(s: &str, what: &str, min: u8, max: u8) -> Result<u8, String> {
    if s.len() != 2 || !all_digits(s) {
        return Err(format!("the {what} must be two digits, not `{s}`"));
    }
    let n: u8 = s.parse().map_err(|_| format!("bad {what} `{s}`"))?;
    if n < min || n > max {
        return Err(format!("{what} {s} is out of range ({min:02}-{max:02})"));
    }
    Ok(n)
}

/// `YYYY`, `YYYY-MM`, `YYYY-MM-DD`, or a full date with `Thh:mm`, `Thh:mm:ss` or `Thh:mm:ss.s` and a time zone.
pub fn parse_w3cdtf(text: &str) -> Result<Date, String> {
    let (date, time) = match text.split_once('T') {
        Some((d, t)) => (d, Some(t)),
        None => (text, None),
    };
    let parts: Vec<&str> = date.split('-').collect();
    if parts[0].len() != 4 || !all_digits(parts[0]) {
        return Err(format!(
            "`{text}` is not a W3CDTF date: the year must be four digits (YYYY, YYYY-MM or YYYY-MM-DD); \
             for BCE or uncertain dates use dcterms:EDTF"
        ));
    }
    let year: i64 = parts[0]
        .parse()
        .map_err(|_| format!("bad year in `{text}`"))?;
    let mut result = Date {
        year,
        month: None,
        day: None,
        unspecified: false,
        year_unspecified_digits: 0,
        qualifier: None,
    };
    if parts.len() > 3 {
        return Err(format!("`{text}` is not a W3CDTF date: too many parts"));
    }
    if let Some(month) = parts.get(1) {
        result.month = Some(two_digits(month, "month", 1, 12)?);
    }
    if let Some(day) = parts.get(2) {
        let month = result.month.unwrap_or(1);
        result.day = Some(two_digits(day, "day", 1, days_in_month(year, month))?);
    }
    if let Some(time) = time {
        if result.day.is_none() {
            return Err(format!("`{text}`: a time needs a full date before it"));
        }
        parse_time(time).map_err(|e| format!("`{text}`: {e}"))?;
    }
    Ok(result)
}

/// `hh:mm[:ss[.s+]]` followed by `Z` or `+hh:mm` / `-hh:mm`.
fn parse_time(time: &str) -> Result<(), String> {
    let (clock, zone) = if let Some(clock) = time.strip_suffix('Z') {
        (clock, None)
    } else if let Some(at) = time.rfind(['+', '-']) {
        (&time[..at], Some(&time[at + 1..]))
    } else {
        return Err("a time needs a time zone (`Z` or `+hh:mm`)".into());
    };
    let fields: Vec<&str> = clock.split(':').collect();
    if !(2..=3).contains(&fields.len()) {
        return Err("the time must be hh:mm or hh:mm:ss".into());
    }
    two_digits(fields[0], "hour", 0, 23)?;
    two_digits(fields[1], "minute", 0, 59)?;
    if let Some(seconds) = fields.get(2) {
        let (whole, fraction) = match seconds.split_once('.') {
            Some((w, f)) => (w, Some(f)),
            None => (*seconds, None),
        };
        two_digits(whole, "second", 0, 60)?;
        if fraction.is_some_and(|f| !all_digits(f)) {
            return Err("the fraction of a second must be digits".into());
        }
    }
    if let Some(zone) = zone {
        let Some((h, m)) = zone.split_once(':') else {
            return Err("the time zone must be `+hh:mm`".into());
        };
        two_digits(h, "time zone hour", 0, 23)?;
        two_digits(m, "time zone minute", 0, 59)?;
    }
    Ok(())
}

/// An EDTF date (`1921`, `-0500`, `1921-03`, `1921-03-09`, `19XX`, `1921?`, `1921~`, `Y-12000`) or interval
/// (`-0500/0300`, `1898/1912`, `1921/..`, `/1921`).
pub fn parse_edtf(text: &str) -> Result<Edtf, String> {
    if let Some((start, end)) = text.split_once('/') {
        let start = parse_bound(start)?;
        let end = parse_bound(end)?;
        if matches!(start, Bound::Open | Bound::Unknown)
            && matches!(end, Bound::Open | Bound::Unknown)
        {
            return Err(format!("`{text}`: an interval needs at least one date"));
        }
        if let (Bound::Date(a), Bound::Date(b)) = (start, end)
            && a.compare(&b) == Some(Ordering::Greater)
        {
            return Err(format!("`{text}`: the interval ends before it starts"));
        }
        Ok(Edtf::Interval(start, end))
    } else {
        parse_edtf_date(text).map(Edtf::Date)
    }
}

fn parse_bound(text: &str) -> Result<Bound, String> {
    match text {
        "" => Ok(Bound::Unknown),
        ".." => Ok(Bound::Open),
        _ => parse_edtf_date(text).map(Bound::Date),
    }
}

/// Digits where some may be `X`; returns the value with `X` read as 0 and whether any `X` was seen.
fn digits_or_x(s: &str) -> Option<(i64, bool)> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit() || b == b'X') {
        return None;
    }
    let unspecified = s.contains('X');
    let value = s.replace('X', "0").parse().ok()?;
    Some((value, unspecified))
}

pub fn parse_edtf_date(text: &str) -> Result<Date, String> {
    let bad = |why: &str| format!("`{text}` is not an EDTF date: {why}");
    let (body, qualifier) = match text.chars().last() {
        Some(q @ ('?' | '~' | '%')) => (&text[..text.len() - 1], Some(q)),
        _ => (text, None),
    };
    // A year of more than four digits is written with a leading `Y`.
    if let Some(long) = body.strip_prefix('Y') {
        let digits = long.strip_prefix('-').unwrap_or(long);
        if digits.len() < 5 || !all_digits(digits) {
            return Err(bad("a `Y` year needs more than four digits"));
        }
        let year: i64 = digits.parse().map_err(|_| bad("the year is too large"))?;
        return Ok(Date {
            year: if long.starts_with('-') { -year } else { year },
            month: None,
            day: None,
            unspecified: false,
            year_unspecified_digits: 0,
            qualifier,
        });
    }
    let (negative, unsigned) = match body.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, body),
    };
    let parts: Vec<&str> = unsigned.split('-').collect();
    if parts.len() > 3 {
        return Err(bad("too many parts"));
    }
    let year_text = parts[0];
    if year_text.len() != 4 {
        return Err(bad(
            "the year must be four digits, with `-` before it for BCE (`-0500`)",
        ));
    }
    let Some((year, mut unspecified)) = digits_or_x(year_text) else {
        return Err(bad("the year must be digits (or `X` for an unknown digit)"));
    };
    if negative && year == 0 && !unspecified {
        return Err(bad("`-0000` is not a year; year 0 is written `0000`"));
    }
    let year = if negative { -year } else { year };
    let mut date = Date {
        year,
        month: None,
        day: None,
        unspecified,
        year_unspecified_digits: year_text.bytes().filter(|b| *b == b'X').count() as u8,
        qualifier,
    };
    if let Some(month) = parts.get(1) {
        if *month == "XX" {
            unspecified = true;
        } else {
            let m = two_digits(month, "month", 1, 24).map_err(|e| bad(&e))?;
            if (13..=20).contains(&m) {
                return Err(bad(&format!(
                    "month {month} is out of range (01-12, or 21-24 for seasons)"
                )));
            }
            date.month = Some(m);
        }
    }
    if let Some(day) = parts.get(2) {
        if *day == "XX" {
            unspecified = true;
        } else {
            let month = date.month.unwrap_or(1);
            if month > 12 {
                return Err(bad("a season has no days"));
            }
            let max = if date.month.is_some() {
                days_in_month(year, month)
            } else {
                31
            };
            date.day = Some(two_digits(day, "day", 1, max).map_err(|e| bad(&e))?);
        }
    }
    date.unspecified = unspecified;
    Ok(date)
}

/// A DCMI Period: `start`, `end`, `name` and `scheme` components. Dates are read as W3CDTF when
/// `scheme=W3C-DTF` is given, and as EDTF dates otherwise (so BCE years are allowed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Period {
    pub start: Option<Date>,
    pub end: Option<Date>,
    pub name: Option<String>,
}

pub fn parse_period(text: &str) -> Result<Period, String> {
    let parts = super::components(text, &["start", "end", "name", "scheme"])?;
    let get = |key: &str| parts.iter().find(|(k, _)| *k == key).map(|(_, v)| *v);
    let strict = match get("scheme") {
        None => false,
        Some("W3C-DTF") => true,
        Some(other) => {
            return Err(format!(
                "unknown period scheme `{other}` (use `W3C-DTF` or leave it out)"
            ));
        }
    };
    let date = |key: &str| -> Result<Option<Date>, String> {
        match get(key) {
            None => Ok(None),
            Some(value) if strict => parse_w3cdtf(value).map(Some),
            Some(value) => parse_edtf_date(value).map(Some),
        }
    };
    let period = Period {
        start: date("start")?,
        end: date("end")?,
        name: get("name").map(str::to_string),
    };
    if period.start.is_none() && period.end.is_none() && period.name.is_none() {
        return Err("a period needs a start, an end or a name".into());
    }
    if let (Some(a), Some(b)) = (&period.start, &period.end)
        && a.compare(b) == Some(Ordering::Greater)
    {
        return Err("the period ends before it starts".into());
    }
    Ok(period)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn w3cdtf_accepts_the_six_forms() {
        for ok in [
            "1921",
            "1921-03",
            "2024-03-09",
            "2024-02-29",
            "1997-07-16T19:20+01:00",
            "1997-07-16T19:20:30Z",
            "1997-07-16T19:20:30.45+01:00",
        ] {
            assert!(parse_w3cdtf(ok).is_ok(), "{ok}");
        }
    }

    #[test]
    fn w3cdtf_rejects_bad_dates() {
        for bad in [
            "192",
            "1921-13",
            "2023-02-29",
            "1921-3",
            "c. 1921",
            "-0500",
            "1921-03-09T10:00",
            "21-03-1921",
            "1921-03-09-01",
            "",
        ] {
            assert!(parse_w3cdtf(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn edtf_dates_and_intervals() {
        assert!(
            matches!(parse_edtf("-0500/0300"), Ok(Edtf::Interval(Bound::Date(a), Bound::Date(b)))
            if a.year == -500 && b.year == 300)
        );
        for ok in [
            "1921",
            "1921?",
            "1921~",
            "1921-03-09%",
            "19XX",
            "1921-21",
            "1898/1912",
            "1921/..",
            "/1921",
            "Y-12000",
            "0000",
            "-0001-12-31",
        ] {
            assert!(parse_edtf(ok).is_ok(), "{ok}");
        }
        for bad in [
            "1912/1898",
            "0300/-0500",
            "921",
            "1921-13",
            "1921-02-30",
            "/",
            "../..",
            "-0000",
            "1921-21-01",
            "c1921",
            "1921??",
            "Y123",
        ] {
            assert!(parse_edtf(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn periods() {
        let p = parse_period("start=1921; end=1921; name=Hutton").unwrap();
        assert_eq!(p.name.as_deref(), Some("Hutton"));
        assert!(parse_period("start=-0300; end=0200").is_ok());
        assert!(parse_period("start=1921; end=1900").is_err());
        assert!(parse_period("start=-0300; scheme=W3C-DTF").is_err());
        assert!(parse_period("begin=1921").is_err());
        assert!(parse_period("").is_err());
    }
}
