//! Checks of `sources.bib`: required fields, unique keys, and entries that nothing cites.

use std::collections::HashMap;

use crate::catalog::Catalog;
use crate::diagnostic::{Diagnostic, Diagnostics};

/// A year as a source page shows and sorts it: one to four digits, or a range of two (`1921--1923`, with one or
/// two hyphens or a slash). `n.d.`, `forthcoming` or `c. 1900` are not: the docs require a year, and the pages
/// sort and cite by it.
fn is_year(value: &str) -> bool {
    let digits = |s: &str| (1..=4).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit());
    let value = value.trim();
    match value
        .split_once("--")
        .or_else(|| value.split_once(['-', '/']))
    {
        Some((from, to)) => digits(from) && digits(to),
        None => digits(value),
    }
}

pub fn check_bibliography(
    catalog: &Catalog,
    cited: &foldhash::HashSet<String>,
    diagnostics: &mut Diagnostics,
) {
    let Some(file) = catalog.sources.file else {
        return;
    };
    let files = &catalog.files;
    // A record that could not be read may cite entries we cannot see; then "nothing cites it" would be a guess.
    let all_records_read = catalog.items.iter().all(|i| i.well_formed);
    let mut first: HashMap<String, usize> = HashMap::new();
    for entry in &catalog.sources.entries {
        let key = &entry.key;
        let mut missing = Vec::new();
        if entry.get("author").is_none_or(str::is_empty)
            && entry.get("editor").is_none_or(str::is_empty)
        {
            missing.push("`author` (or `editor`)");
        }
        for field in ["title", "year"] {
            if entry.get(field).is_none_or(str::is_empty) {
                missing.push(if field == "title" {
                    "`title`"
                } else {
                    "`year`"
                });
            }
        }
        if !missing.is_empty() {
            diagnostics.push(
                Diagnostic::error(
                    "E030",
                    format!("entry `{}` has no {}", key.value, missing.join(", no ")),
                )
                .at(files, file, key.span.clone())
                .with_help("a source page needs who wrote it, its title and its year"),
            );
        }
        if let Some(year) = entry.field("year").filter(|f| !f.value.is_empty())
            && !is_year(&year.value)
        {
            diagnostics.push(
                Diagnostic::error(
                    "E044",
                    format!("the year of `{}` is not a year: `{}`", key.value, year.value),
                )
                .at(files, file, year.value_span.clone())
                .with_help(
                    "write the year of publication as digits (`1921`, or `1921--1923` for a work published over \
                     years); for an undated work give the year it is known by, with a `note` saying so",
                ),
            );
        }
        let lower = key.value.to_ascii_lowercase();
        if let Some(&at) = first.get(&lower) {
            let line = files.get(file).position(at).line;
            diagnostics.push(
                Diagnostic::error("E031", format!("the key `{}` is used twice", key.value))
                    .at(files, file, key.span.clone())
                    .with_note(format!("first used on line {line}"))
                    .with_help("give each work its own key (keys are compared ignoring case)"),
            );
        } else {
            first.insert(lower.clone(), key.span.start);
            if all_records_read && !cited.contains(&lower) {
                diagnostics.push(
                    Diagnostic::warning("W004", format!("no record cites `{}`", key.value))
                        .at(files, file, key.span.clone())
                        .with_help(
                            "cite it with `<dcterms:source cite=\"...\"/>`, or remove the entry",
                        ),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::is_year;

    #[test]
    fn years_are_digits_or_ranges() {
        for good in ["1921", "476", "1921--1923", "1921-1923", "1921/1922"] {
            assert!(is_year(good), "{good}");
        }
        for bad in [
            "n.d.",
            "forthcoming",
            "c. 1900",
            "19211",
            "1921--",
            "MCMXXI",
        ] {
            assert!(!is_year(bad), "{bad}");
        }
    }
}
