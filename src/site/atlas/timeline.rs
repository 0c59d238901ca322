//! The timeline: which years an item's dates cover, from the values the record dates it by (`date` and its
//! refinements, `temporal`), read by their schemes (W3CDTF, EDTF, DCMI Period). Free text is not placed: a
//! year guessed from words could put an item where its record does not.

use crate::catalog::{Item, Value};
use crate::scheme::Scheme;
use crate::scheme::date::{self, Bound, Date, Edtf};

/// Terms that date the record rather than what it describes: not on the timeline.
const RECORD_TERMS: [&str; 3] = ["dateSubmitted", "dateAccepted", "modified"];

/// The years a date covers, first and last (EDTF years: 0 is 1 BCE), and whether it is uncertain or
/// approximate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    pub from: i64,
    pub to: i64,
    pub approximate: bool,
}

impl Span {
    fn join(self, other: Span) -> Span {
        Span {
            from: self.from.min(other.from),
            to: self.to.max(other.to),
            approximate: self.approximate || other.approximate,
        }
    }
}

fn of_date(d: &Date) -> Span {
    // `192X` was read as 1920 with one unspecified digit: the decade.
    let width = 10_i64.pow(u32::from(d.year_unspecified_digits.min(6)));
    Span {
        from: d.year,
        to: d.year + width - 1,
        approximate: d.qualifier.is_some(),
    }
}

fn of_edtf(e: &Edtf) -> Option<Span> {
    match e {
        Edtf::Date(d) => Some(of_date(d)),
        Edtf::Interval(a, b) => match (a, b) {
            (Bound::Date(a), Bound::Date(b)) => Some(of_date(a).join(of_date(b))),
            // An open or unknown end: the known one alone, marked as not exact.
            (Bound::Date(d), _) | (_, Bound::Date(d)) => Some(Span {
                approximate: true,
                ..of_date(d)
            }),
            _ => None,
        },
    }
}

/// The span of one value, when its scheme says how to read it.
pub fn of_value(value: &Value) -> Option<Span> {
    let scheme = value
        .scheme()
        .as_ref()
        .and_then(|s| Scheme::from_xsi_type(&s.value));
    let text = value.text.trim();
    match scheme {
        Some(Scheme::W3cdtf) => date::parse_w3cdtf(text).ok().map(|d| of_date(&d)),
        Some(Scheme::Edtf) => of_edtf(&date::parse_edtf(text).ok()?),
        Some(Scheme::Period) => {
            let p = date::parse_period(text).ok()?;
            match (p.start, p.end) {
                (Some(a), Some(b)) => Some(of_date(&a).join(of_date(&b))),
                (Some(d), None) | (None, Some(d)) => Some(Span {
                    approximate: true,
                    ..of_date(&d)
                }),
                (None, None) => None,
            }
        }
        _ => None,
    }
}

/// Does this value date what the record describes?
pub fn dates_the_item(value: &Value) -> bool {
    (value.term.is_date() && !RECORD_TERMS.contains(&value.term.name))
        || value.term.name == "temporal"
}

/// The years an item's dates cover together, and the values that gave them (to show in words).
pub fn of_item(item: &Item) -> Option<(Span, Vec<&Value>)> {
    let mut span: Option<Span> = None;
    let mut used = Vec::new();
    for value in item.values.iter().filter(|v| dates_the_item(v)) {
        if let Some(s) = of_value(value) {
            span = Some(span.map_or(s, |t| t.join(s)));
            used.push(value);
        }
    }
    span.map(|s| (s, used))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edtf(text: &str) -> Option<Span> {
        of_edtf(&date::parse_edtf(text).unwrap())
    }

    #[test]
    fn spans_of_edtf() {
        let exact = |from, to| {
            Some(Span {
                from,
                to,
                approximate: false,
            })
        };
        assert_eq!(edtf("1921"), exact(1921, 1921));
        assert_eq!(edtf("1921-01-01/1921-12-31"), exact(1921, 1921));
        assert_eq!(edtf("1898/2010"), exact(1898, 2010));
        assert_eq!(edtf("192X"), exact(1920, 1929));
        assert_eq!(edtf("-0500/0300"), exact(-500, 300));
        assert!(edtf("1950~").unwrap().approximate);
        let open = edtf("1921/..").unwrap();
        assert_eq!((open.from, open.to, open.approximate), (1921, 1921, true));
    }
}
