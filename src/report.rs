//! Writing out for people: diagnostics as the human report (rustc-like, then a summary line) or JSON Lines,
//! and counts in words.

use std::collections::HashMap;
use std::io::{self, Write};

use crate::diagnostic::{Diagnostic, Diagnostics};

/// Above this many diagnostics, too many to read one by one (an import of thousands of items citing works the
/// bibliography lacks gives tens of thousands), the human report ends with them counted by code.
const COUNTED_ABOVE: usize = 20;

/// How many codes the count names, the commonest first.
const CODES_COUNTED: usize = 10;

/// `n` and the noun that goes with it: "1 file", "0 files", "2 files".
pub fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The closing line of a human report: `2 errors, 1 warning`.
pub fn summary(diagnostics: &Diagnostics) -> String {
    format!(
        "{}, {}",
        counted(diagnostics.error_count(), "error", "errors"),
        counted(diagnostics.warning_count(), "warning", "warnings")
    )
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Human,
    Json,
}

/// Write every diagnostic in `format`; `color` adds ANSI styling to the human report (for a terminal).
pub fn write(
    diagnostics: &Diagnostics,
    format: Format,
    color: bool,
    out: &mut impl Write,
) -> io::Result<()> {
    match format {
        Format::Human => {
            for diagnostic in diagnostics.iter() {
                writeln!(out, "{}", diagnostic.render_human(color))?;
            }
            writeln!(out, "{}", summary(diagnostics))?;
            if diagnostics.len() > COUNTED_ABOVE {
                for line in by_code(diagnostics) {
                    writeln!(out, "{line}")?;
                }
            }
        }
        Format::Json => {
            for diagnostic in diagnostics.iter() {
                writeln!(out, "{}", diagnostic.render_json())?;
            }
        }
    }
    out.flush()
}

/// The diagnostics counted by code, the commonest first (a tie in code order), each with the first of its
/// messages in the report's order as an example: the shape of a long report, under its closing line.
fn by_code(diagnostics: &Diagnostics) -> Vec<String> {
    let mut codes: HashMap<&str, (usize, &Diagnostic)> = HashMap::new();
    for diagnostic in diagnostics.iter() {
        codes.entry(diagnostic.code).or_insert((0, diagnostic)).0 += 1;
    }
    let mut codes: Vec<(&str, (usize, &Diagnostic))> = codes.into_iter().collect();
    codes.sort_by(|(a, (m, _)), (b, (n, _))| n.cmp(m).then(a.cmp(b)));
    let mut lines = vec![format!("by code ({} codes):", codes.len())];
    for (code, (count, first)) in codes.iter().take(CODES_COUNTED) {
        lines.push(format!("  {count:>7} {code}  first: {}", first.message));
    }
    if codes.len() > CODES_COUNTED {
        let rest: usize = codes[CODES_COUNTED..].iter().map(|(_, (n, _))| n).sum();
        lines.push(format!(
            "  {rest:>7} of {} other codes",
            codes.len() - CODES_COUNTED
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Severity;

    fn report(diagnostics: &Diagnostics) -> String {
        let mut out = Vec::new();
        write(diagnostics, Format::Human, false, &mut out).expect("writing to memory");
        String::from_utf8(out).expect("the report is text")
    }

    fn many(codes: &[(&'static str, usize)]) -> Diagnostics {
        let mut diagnostics = Diagnostics::new();
        for (code, count) in codes {
            for i in 0..*count {
                let severity = if code.starts_with('W') {
                    Severity::Warning
                } else {
                    Severity::Error
                };
                diagnostics.push(Diagnostic::new(
                    severity,
                    code,
                    format!("{code} number {i}"),
                ));
            }
        }
        diagnostics
    }

    #[test]
    fn a_long_report_ends_with_its_diagnostics_counted_by_code() {
        let text = report(&many(&[("W003", 4), ("E018", 15), ("E012", 4)]));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[lines.len() - 5..],
            [
                "19 errors, 4 warnings",
                "by code (3 codes):",
                "       15 E018  first: E018 number 0",
                "        4 E012  first: E012 number 0",
                "        4 W003  first: W003 number 0",
            ]
        );
    }

    #[test]
    fn a_short_report_ends_with_its_closing_line() {
        let text = report(&many(&[("E018", 12), ("E012", 8)]));
        assert_eq!(text.lines().last(), Some("20 errors, 0 warnings"));
        assert!(!text.contains("by code"));
    }

    #[test]
    fn past_ten_codes_the_rest_are_counted_together() {
        let codes: Vec<(&'static str, usize)> = [
            "E001", "E002", "E003", "E004", "E005", "E006", "E007", "E008", "E009", "E010", "E011",
            "E012",
        ]
        .into_iter()
        .zip([9, 8, 7, 6, 5, 4, 3, 3, 3, 3, 2, 1])
        .collect();
        let text = report(&many(&codes));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[lines.len() - 12], "by code (12 codes):");
        assert_eq!(
            lines[lines.len() - 11],
            "        9 E001  first: E001 number 0"
        );
        assert_eq!(
            lines[lines.len() - 2],
            "        3 E010  first: E010 number 0"
        );
        assert_eq!(lines[lines.len() - 1], "        3 of 2 other codes");
    }

    #[test]
    fn json_lines_stay_one_diagnostic_a_line() {
        let diagnostics = many(&[("E018", 30)]);
        let mut out = Vec::new();
        write(&diagnostics, Format::Json, false, &mut out).expect("writing to memory");
        let text = String::from_utf8(out).expect("the report is text");
        assert_eq!(text.lines().count(), 30);
        assert!(text.lines().all(|l| l.starts_with('{')));
    }

    #[test]
    fn a_count_takes_the_noun_its_number_needs() {
        assert_eq!(counted(0, "file", "files"), "0 files");
        assert_eq!(counted(1, "file", "files"), "1 file");
        assert_eq!(counted(2, "page", "pages"), "2 pages");
    }

    #[test]
    fn summary_uses_plurals() {
        let mut d = Diagnostics::new();
        assert_eq!(summary(&d), "0 errors, 0 warnings");
        d.push(Diagnostic::error("E001", "x"));
        d.push(Diagnostic::warning("W001", "y"));
        assert_eq!(summary(&d), "1 error, 1 warning");
    }
}
