//! Identifiers and the links between items: unique, URL-safe identifiers, `ref`s that resolve, and the plain
//! names that are not catalogued yet.

use crate::catalog::{Catalog, Item, Kind};
use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::suggest;

/// The catalogued identifiers and their kinds, for resolving `ref` and `game`.
pub struct Identifiers<'a> {
    kinds: foldhash::HashMap<&'a str, Option<Kind>>,
}

/// The code of the error for a link to an identifier no item has.
pub(super) const UNKNOWN_ITEM: &str = "E017";
/// The code of the error for a `playedWith` or `attests` whose `game` names an item that is not a game.
pub(super) const NOT_A_GAME: &str = "E028";

impl<'a> Identifiers<'a> {
    /// Whether every item `item`'s record links to is there, and every game it names (`playedWith`,
    /// `attests`) is a game or an item of no kind: all that a record's checks read of the other items.
    pub fn links_hold(&self, item: &Item) -> bool {
        item.values
            .iter()
            .filter_map(|value| value.ref_())
            .all(|r| self.kind(&r.value).is_some())
            && item
                .played_with
                .iter()
                .chain(&item.attests)
                .filter_map(|link| link.game.as_ref())
                .all(|game| matches!(self.kind(&game.value), Some(Some(Kind::Game) | None)))
    }

    pub fn new(catalog: &'a Catalog) -> Self {
        let mut kinds: foldhash::HashMap<&str, Option<Kind>> =
            foldhash::HashMap::with_capacity_and_hasher(catalog.items.len(), Default::default());
        kinds.extend(catalog.items.iter().map(|i| (i.id.as_str(), i.kind)));
        Identifiers { kinds }
    }

    /// `Some(kind)` when the identifier is catalogued (the kind itself may be unknown).
    pub fn kind(&self, id: &str) -> Option<Option<Kind>> {
        self.kinds.get(id).copied()
    }

    pub fn closest(&self, id: &str) -> Option<&'a str> {
        // In any order: of equally close candidates, `closest` takes the first in text order. (A sorted copy,
        // made for it at every build, sorted 10,000 identifiers that nearly every build never asks for.)
        suggest::closest(id, self.kinds.keys().copied())
    }

    /// The diagnostic for an identifier that names no item.
    pub fn unknown(&self, id: &str) -> (String, String) {
        if id.trim().is_empty() {
            return (
                "the identifier is empty".to_string(),
                "write the identifier (the folder name) of a catalogued item".to_string(),
            );
        }
        let message = format!("no item has the identifier `{id}`");
        let help = match self.closest(id) {
            Some(best) => format!("did you mean `{best}`?"),
            None => "use the folder name of a catalogued item; for an item not catalogued yet, write its name \
                     as the element's text instead of a `ref`"
                .to_string(),
        };
        (message, help)
    }
}

/// Lowercase ASCII letters, digits and single hyphens, starting with a letter and not ending with a hyphen.
pub fn is_url_safe(id: &str) -> bool {
    id.starts_with(|c: char| c.is_ascii_lowercase())
        && !id.ends_with('-')
        && !id.contains("--")
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// A URL-safe spelling of a folder name, to suggest.
fn slug(id: &str) -> String {
    let mut out = String::new();
    for c in id.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

fn item_location(catalog: &Catalog, item: &Item, diagnostic: Diagnostic) -> Diagnostic {
    if item.root_span.is_empty() {
        diagnostic.in_file(catalog.files.path(item.file))
    } else {
        diagnostic.at(&catalog.files, item.file, item.root_span.clone())
    }
}

pub fn check_identifiers(catalog: &Catalog, diagnostics: &mut Diagnostics) {
    let mut first_seen: foldhash::HashMap<std::borrow::Cow<str>, &Item> =
        foldhash::HashMap::default();
    for item in &catalog.items {
        let url_safe = is_url_safe(&item.id);
        if !url_safe {
            let suggestion = slug(&item.id);
            let help = if suggestion.is_empty()
                || !suggestion.starts_with(|c: char| c.is_ascii_lowercase())
            {
                "rename the folder with lowercase ASCII letters, digits and single hyphens, starting with a letter"
                    .to_string()
            } else {
                format!("rename the folder to `{suggestion}`")
            };
            diagnostics.push(
                item_location(
                    catalog,
                    item,
                    Diagnostic::error(
                        "E016",
                        format!("the identifier `{}` (the folder name) is not URL-safe", item.id),
                    ),
                )
                .with_note("identifiers are lowercase ASCII letters, digits and single hyphens, starting with a letter")
                .with_help(help),
            );
        }
        // A URL-safe identifier is its own lower case: no copy for nearly every item.
        let key = if url_safe {
            std::borrow::Cow::Borrowed(item.id.as_str())
        } else {
            std::borrow::Cow::Owned(item.id.to_lowercase())
        };
        match first_seen.get(&key) {
            Some(first) => {
                let message = if first.id == item.id {
                    format!("the identifier `{}` is used by two items", item.id)
                } else {
                    format!(
                        "the identifier `{}` differs only in case from `{}`",
                        item.id, first.id
                    )
                };
                diagnostics.push(
                    item_location(catalog, item, Diagnostic::error("E015", message))
                        .with_note(format!("the other item is `{}`", first.folder.display()))
                        .with_help("identifiers are unique across the whole catalog: rename one of the folders"),
                );
            }
            None => {
                first_seen.insert(key, item);
            }
        }
    }
}

/// A relation written as a plain name: an item that is not catalogued yet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UncataloguedName {
    /// The item whose record names it.
    pub item: String,
    /// The relation term (`isVersionOf`).
    pub term: &'static str,
    pub name: String,
}

/// Every plain-name relation in the catalog, in item order: the list of items to catalogue next.
pub fn uncatalogued_names(catalog: &Catalog) -> Vec<UncataloguedName> {
    catalog
        .items
        .iter()
        .flat_map(|item| {
            item.values
                .iter()
                .filter(|v| {
                    v.term.relation
                        && v.ref_().is_none()
                        && v.cite().is_none()
                        && !v.text.is_empty()
                })
                .map(|v| UncataloguedName {
                    item: item.id.clone(),
                    term: v.term.name,
                    name: v.text.to_string(),
                })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn url_safe_identifiers() {
        for ok in ["terhuchu", "bagh-chal", "board-pataleshwar-2", "a"] {
            assert!(is_url_safe(ok), "{ok}");
        }
        for bad in [
            "Bagh-Chal",
            "bagh_chal",
            "bagh--chal",
            "-bagh",
            "bagh-",
            "2bagh",
            "bāgh",
            "bagh chal",
            "",
        ] {
            assert!(!is_url_safe(bad), "{bad}");
        }
        assert_eq!(slug("Bagh Chal_2"), "bagh-chal-2");
    }
}
