//! Every validation of a loaded catalog. Each check adds diagnostics and carries on, so that one run reports all
//! problems; [`check`] sorts them by file and position at the end.

mod bibliography;
mod item;
mod links;
mod rules;
mod value;

use std::collections::HashSet;

pub use links::{UncataloguedName, uncatalogued_names};

use ludotheca_engine::record::Record;

use crate::archive::rules::Rules;
use crate::catalog::Catalog;
use crate::diagnostic::Diagnostics;

/// The catalog as checked: what every later step (resolve, render, the preview server) takes, so that nothing
/// after the check reads a file, parses a record again or compiles a ruleset again.
pub struct Checked {
    pub catalog: Catalog,
    /// One slot per item of `catalog.items` (same index): a game's rules and records as checked.
    games: Vec<Option<CheckedGame>>,
}

/// A game's rules as compiled (each ruleset once) and its records as parsed and replayed.
pub struct CheckedGame {
    pub rules: Rules,
    /// Each of the item's `game_records`, in the same order: `None` where the record does not parse.
    pub records: Vec<Option<Record>>,
}

impl Checked {
    /// The checked rules and records of the item at `index` of `catalog.items`, if it is a game with rules.
    pub fn game(&self, index: usize) -> Option<&CheckedGame> {
        self.games.get(index).and_then(Option::as_ref)
    }
}

/// Run every check over the catalog, adding to `diagnostics` (which may already hold the reader's), then sort.
/// Returns the catalog as checked: with errors in `diagnostics` it is complete as far as it could be read.
pub fn check(catalog: Catalog, diagnostics: &mut Diagnostics) -> Checked {
    let ids = links::Identifiers::new(&catalog);
    for item in &catalog.items {
        item::check_item(&catalog, &ids, item, diagnostics);
    }
    links::check_identifiers(&catalog, diagnostics);
    let mut cited: HashSet<String> = catalog
        .items
        .iter()
        .flat_map(|i| &i.values)
        .filter_map(|v| v.cite.as_ref())
        .map(|c| c.value.to_ascii_lowercase())
        .collect();
    let rules = rules::check_rules(&catalog, diagnostics);
    cited.extend(rules.cited);
    bibliography::check_bibliography(&catalog, &cited, diagnostics);
    diagnostics.sort();
    let mut games: Vec<Option<CheckedGame>> = catalog.items.iter().map(|_| None).collect();
    for (i, game) in rules.games {
        games[i] = Some(game);
    }
    Checked { catalog, games }
}
