//! Checks of `sources.bib`: required fields, unique keys, and entries that nothing cites.

use std::collections::{HashMap, HashSet};

use crate::catalog::Catalog;
use crate::diagnostic::{Diagnostic, Diagnostics};

pub fn check_bibliography(
    catalog: &Catalog,
    cited: &HashSet<String>,
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
