//! Identifiers for imported items: derived from the title with the site's slug (diacritics folded, URL-safe),
//! stable from one import of the same input to the next, and unique.

use std::collections::HashSet;

use crate::archive::text;
use crate::catalog::Kind;
use crate::check::is_url_safe;

/// What an identifier is made from.
pub struct Wanted<'a> {
    /// A ludotheca identifier the input carries; used as it is when URL-safe.
    pub carried: Option<&'a str>,
    pub title: Option<&'a str>,
    /// The item's key in the source system: the clash suffix, and the base when there is no title.
    pub source_id: Option<&'a str>,
    pub kind: Kind,
}

/// The identifier a title reads as: its slug, starting with a letter as identifiers must (a title starting with
/// a digit is prefixed with the kind: `16 Soldiers` -> `game-16-soldiers`).
pub fn from_title(title: &str, kind: Kind) -> String {
    let slug = text::slug(title);
    if slug.starts_with(|c: char| c.is_ascii_lowercase()) {
        slug
    } else {
        format!("{}-{slug}", kind.as_str())
    }
}

fn base(wanted: &Wanted) -> String {
    if let Some(id) = wanted.carried.filter(|id| is_url_safe(id)) {
        return id.to_string();
    }
    match (wanted.title, wanted.source_id) {
        (Some(title), _) => from_title(title, wanted.kind),
        (None, Some(id)) => from_title(&format!("{} {id}", wanted.kind.as_str()), wanted.kind),
        (None, None) => wanted.kind.as_str().to_string(),
    }
}

/// One identifier per item, in order. The first item (in input order) whose base is a given identifier keeps
/// it; a later one gets a suffix made from its own source id (`bagh-chal-42`), or from a hash of that id and a
/// round count when the id makes no short suffix or the result is taken. Every candidate is checked against the
/// bases of all the items, not only those seen so far, so a suffixed identifier is never the natural identifier
/// of another item of the input, whatever their order; and since suffixes come from the items' own ids, the same
/// input gives the same identifiers on every run.
pub fn assign(wanted: &[Wanted]) -> Vec<String> {
    let bases: Vec<String> = wanted.iter().map(base).collect();
    let natural: HashSet<&str> = bases.iter().map(String::as_str).collect();
    let mut taken: HashSet<String> = HashSet::new();
    let mut out = Vec::with_capacity(bases.len());
    for (w, base) in wanted.iter().zip(&bases) {
        if taken.insert(base.clone()) {
            out.push(base.clone());
            continue;
        }
        let own = w
            .source_id
            .map(text::slug)
            .filter(|s| s.len() <= 16 && !s.is_empty());
        let key = w.source_id.or(w.title).unwrap_or("");
        let mut candidates = own
            .map(|s| format!("{base}-{s}"))
            .into_iter()
            .chain((0u64..).map(|round| {
                let mut bytes = key.as_bytes().to_vec();
                bytes.extend_from_slice(&round.to_le_bytes());
                format!("{base}-{:08x}", text::fnv1a(&bytes) as u32)
            }));
        let chosen = candidates
            .find(|c| is_url_safe(c) && !natural.contains(c.as_str()) && !taken.contains(c))
            .expect("an unbounded run of hashes always finds a free identifier");
        taken.insert(chosen.clone());
        out.push(chosen);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w<'a>(title: &'a str, id: &'a str) -> Wanted<'a> {
        Wanted {
            carried: None,
            title: Some(title),
            source_id: Some(id),
            kind: Kind::Game,
        }
    }

    #[test]
    fn titles_fold_to_url_safe_identifiers() {
        assert_eq!(from_title("Terhüchü", Kind::Game), "terhuchu");
        assert_eq!(from_title("Mogol Putt'han", Kind::Game), "mogol-putt-han");
        assert_eq!(from_title("16 Soldiers", Kind::Game), "game-16-soldiers");
        assert!(is_url_safe(&from_title("बाघ चाल", Kind::Board)));
    }

    #[test]
    fn clashes_get_suffixes_that_are_nobody_else_s_identifier() {
        let items = [
            w("Bagh Chal", "7"),
            w("Bāgh Chāl", "9"),
            // Its natural identifier is what a numeric suffix of the second would be.
            w("Bagh Chal 9", "12"),
            w("Bagh Chal", "a very long source identifier indeed"),
        ];
        let ids = assign(&items);
        assert_eq!(ids[0], "bagh-chal");
        assert_eq!(ids[2], "bagh-chal-9");
        assert!(
            ids[1].starts_with("bagh-chal-") && ids[1] != "bagh-chal-9",
            "{ids:?}"
        );
        assert!(ids[3].starts_with("bagh-chal-"), "{ids:?}");
        let distinct: HashSet<&String> = ids.iter().collect();
        assert_eq!(distinct.len(), 4);
        assert!(ids.iter().all(|id| is_url_safe(id)));
        assert_eq!(
            ids,
            assign(&items),
            "the same input gives the same identifiers"
        );
    }

    #[test]
    fn a_carried_identifier_is_kept() {
        let items = [Wanted {
            carried: Some("sumi-naga-hunt"),
            title: Some("Sümi Naga Game (Hunt)"),
            source_id: None,
            kind: Kind::Game,
        }];
        assert_eq!(assign(&items), ["sumi-naga-hunt"]);
    }
}
