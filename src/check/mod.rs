//! Every validation of a loaded catalog. Each check adds diagnostics and carries on, so that one run reports all
//! problems; [`check`] sorts them by file and position at the end.

mod bibliography;
mod item;
mod links;
mod rules;
mod theme;
mod value;

use std::collections::HashSet;

pub use links::{UncataloguedName, uncatalogued_names};

use crate::catalog::Catalog;
use crate::diagnostic::Diagnostics;

/// Run every check over the catalog, adding to `diagnostics` (which may already hold the reader's), then sort.
pub fn check(catalog: &Catalog, diagnostics: &mut Diagnostics) {
    let ids = links::Identifiers::new(catalog);
    for item in &catalog.items {
        item::check_item(catalog, &ids, item, diagnostics);
    }
    links::check_identifiers(catalog, diagnostics);
    let mut cited: HashSet<String> = catalog
        .items
        .iter()
        .flat_map(|i| &i.values)
        .filter_map(|v| v.cite.as_ref())
        .map(|c| c.value.to_ascii_lowercase())
        .collect();
    cited.extend(rules::check_rules(catalog, diagnostics));
    bibliography::check_bibliography(catalog, &cited, diagnostics);
    theme::check_theme(catalog, diagnostics);
    diagnostics.sort();
}
