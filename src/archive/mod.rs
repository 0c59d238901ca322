//! The resolved archive: a checked catalog with every relation followed both ways (a record that says it
//! `isVersionOf` another makes the other list it among its versions), the plain names not catalogued yet, the
//! facets (tags, places, people), each source with everything citing it, and each game's rules compiled into
//! facts and board diagrams.
//!
//! This is the "resolve" step of a build: it reads only the loaded catalog, never a file, and rendering reads
//! only this model.

pub mod indic;
pub mod rules;
pub mod text;

// Built over every item, citation and name at every build (the preview server's too): foldhash, not SipHash.
use foldhash::{HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;

use rayon::prelude::*;

use crate::catalog::bibtex::BibEntry;
use crate::catalog::{Catalog, Item, Kind, Value};
use crate::check::{Checked, CheckedGame, HeldGame};
use crate::scheme::{Scheme, date, place};
use crate::source::FileId;

pub use rules::{Diagram, DiagramPoint, Rules, Ruleset};

/// A checked catalog, resolved.
pub struct Archive<'c> {
    pub catalog: &'c Catalog,
    /// One entry per item with a known kind, in catalog order.
    pub entries: Vec<Entry<'c>>,
    pub tags: Vec<Facet>,
    pub places: Vec<Facet>,
    pub people: Vec<Person>,
    pub sources: Vec<Source<'c>>,
    /// `about.md` of the catalog (empty when there is none), for the About page.
    pub about: String,
    /// The copies of pictures the check made while it had them decoded, for the render to write.
    pub made_copies: &'c crate::check::media::MadeCopies,
    by_id: foldhash::HashMap<&'c str, usize>,
    /// Lowercase bibliography key to its index in `sources`: pages look a source up for every citation.
    source_index: HashMap<String, usize>,
}

/// One catalogued item.
pub struct Entry<'c> {
    pub item: &'c Item,
    pub kind: Kind,
    pub title: String,
    /// The page, relative to the site root: `games/terhuchu/index.html`.
    pub url: String,
    /// The folder of the page and its downloads: `games/terhuchu/`.
    pub dir: String,
    /// Relations written in this record: to catalogued items or plain names.
    pub relations: Vec<Relation>,
    /// Relations written in other records about this one, turned around (`isVersionOf` becomes `hasVersion`).
    pub inverse: Vec<Relation>,
    pub tags: Vec<usize>,
    pub places: Vec<usize>,
    pub people: Vec<usize>,
    /// Games: the rules and records as `check` compiled, parsed and replayed them (see [`Entry::game`]).
    held: Option<&'c HeldGame>,
    /// Games: the boards played with these rules, and which ruleset.
    pub boards: Vec<(usize, Option<String>)>,
    /// Games: the evidence attesting it.
    pub evidence: Vec<usize>,
    /// Boards: the games (and rulesets) played on it.
    pub played_with: Vec<(usize, Option<String>)>,
    /// Evidence: the games it attests.
    pub attests: Vec<usize>,
    /// The earliest year the item's dates mention, for sorting by date.
    pub year: Option<i64>,
    /// When the record was added or last changed, by its own dates (the latest of [`RECORD_DATE_TERMS`]), for
    /// "recently added". File times are never read: the same catalog must give the same site.
    pub added: Option<Day>,
    /// The catalog's files, which the game records are listed from (see [`Entry::game_records`]).
    files: &'c crate::source::SourceMap,
    /// A hash of the item's files as read (record, rules, game records: names and texts), taken once so that
    /// the build's keys for pages and downloads combine it instead of hashing the texts again.
    pub files_hash: crate::fingerprint::Hash,
    /// The pictures the record shows, as checked.
    pub images: &'c [crate::check::CheckedImage],
}

impl<'c> Entry<'c> {
    /// Games: the rules and records as `check` compiled, parsed and replayed them. A game taken from an
    /// earlier build is read in full here, the first time it is asked for: what every build reads of every
    /// game is in [`Entry::sums`] instead.
    pub fn game(&self) -> Option<&'c CheckedGame> {
        self.held.map(HeldGame::get)
    }

    /// Games: the rules as the site shows them (see [`Entry::game`]).
    pub fn rules(&self) -> Option<&'c Rules> {
        self.game().map(|g| &g.rules)
    }

    /// Whether the item is a game with rules, without reading them.
    pub fn has_rules(&self) -> bool {
        self.held.is_some()
    }

    /// Games: what every build reads of every game, without reading the game in full.
    pub fn sums(&self) -> Option<&'c crate::check::GameSums> {
        self.held.map(|g| &g.sums)
    }

    /// `games/*.game` beside the record, with the tags their listings show. Listed when asked for, each time:
    /// a build of the items' pages after an edit shows the records of the edited items only, and listing all
    /// of them with every entry (66,000 at 10,000 items) was a third of its resolve step.
    pub fn game_records(&self) -> Vec<GameRecord<'c>> {
        (0..self.item.game_records.len())
            .filter_map(|i| self.game_record(i))
            .collect()
    }

    /// Whether the `n`th of [`Entry::game_records`] is a puzzle (its first `Kind` tag, as there), without
    /// listing it.
    pub fn is_puzzle(&self, n: usize) -> bool {
        self.parsed_record(n)
            .and_then(|r| r.tags().find(|(name, _)| *name == "Kind"))
            .is_some_and(|(_, kind)| kind == "puzzle")
    }

    /// The `n`th of [`Entry::game_records`].
    pub fn game_record(&self, n: usize) -> Option<GameRecord<'c>> {
        let file = *self.item.game_records.get(n)?;
        Some(game_record(
            file,
            &self.files.get(file).path,
            self.parsed_record(n),
        ))
    }

    /// The `n`th game record as `check` parsed it, if it parsed.
    fn parsed_record(&self, n: usize) -> Option<&'c crate::check::RecordSummary> {
        self.game()
            .and_then(|g| g.records.get(n))
            .and_then(Option::as_ref)
    }

    /// A game's rules file as written, from the catalog as loaded.
    pub fn rules_text(&self, archive: &Archive) -> Option<crate::source::Text> {
        if !self.has_rules() {
            return None;
        }
        let file = self.item.rules_file?;
        Some(archive.catalog.files.get(file).text())
    }
}

/// A relation from one item to another item or to a name.
#[derive(Clone, Debug)]
pub struct Relation {
    /// The term's local name as it reads from this item (`isVersionOf`, or `hasVersion` for an inverse).
    pub term: &'static str,
    pub target: Target,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// A catalogued item: its index in [`Archive::entries`], and the name the record shows, if any.
    Item(usize, Option<String>),
    /// A name not catalogued yet.
    Name(String),
}

/// A recorded game, demonstration or puzzle shipped with a game.
#[derive(Clone, Debug)]
pub struct GameRecord<'c> {
    pub file: &'c Path,
    /// The text as read at load, in the catalog's source map.
    pub source: FileId,
    pub file_name: std::borrow::Cow<'c, str>,
    pub kind: Option<&'c str>,
    pub title: Option<&'c str>,
    pub ruleset: Option<&'c str>,
    pub moves: usize,
}

/// A tag or a place: a value many items share, with its own page.
#[derive(Clone, Debug)]
pub struct Facet {
    pub name: String,
    pub slug: String,
    pub items: Vec<usize>,
    /// Places: coordinates, when a record gives them.
    pub point: Option<(f64, f64)>,
}

/// A person or body named by records (creator, contributor, publisher...) or by the bibliography.
#[derive(Clone, Debug)]
pub struct Person {
    pub name: String,
    pub slug: String,
    /// (item, the term naming them: `creator`, `contributor`...)
    pub items: Vec<(usize, &'static str)>,
    /// Bibliography keys of works they wrote or edited.
    pub works: Vec<String>,
}

/// A bibliography entry and everything citing it.
pub struct Source<'c> {
    pub entry: &'c BibEntry,
    pub slug: String,
    pub citations: Vec<Citation<'c>>,
}

/// One citation of a source, borrowed from the catalog as checked: a source may be cited by every item.
#[derive(Clone, Debug)]
pub struct Citation<'c> {
    pub item: usize,
    /// `source`, `references`, `bibliographicCitation`, or `ruleset` for a ruleset's source.
    pub term: &'static str,
    pub pages: Option<&'c str>,
    /// For a ruleset citation: the ruleset's title.
    pub ruleset: Option<&'c str>,
}

/// A calendar day: year, month (1-12), day (1-31); a date without a month or day counts from its first.
pub type Day = (i64, u8, u8);

/// Terms that date the record itself (its entry into the archive, its acceptance, its last change) rather than
/// the game or object it describes.
pub const RECORD_DATE_TERMS: [&str; 4] = ["dateSubmitted", "dateAccepted", "modified", "created"];

/// Terms naming people or bodies.
const PEOPLE_TERMS: [&str; 5] = [
    "creator",
    "contributor",
    "publisher",
    "rightsHolder",
    "mediator",
];

/// Terms whose values are tags. The seed site kept tags in `conformsTo`; this archive keeps them in `subject`.
const TAG_TERMS: [&str; 2] = ["subject", "conformsTo"];

/// The relation read from the other end.
pub fn inverse_term(term: &str) -> &'static str {
    match term {
        "isVersionOf" => "hasVersion",
        "hasVersion" => "isVersionOf",
        "isReplacedBy" => "replaces",
        "replaces" => "isReplacedBy",
        "isRequiredBy" => "requires",
        "requires" => "isRequiredBy",
        "isPartOf" => "hasPart",
        "hasPart" => "isPartOf",
        "isReferencedBy" => "references",
        "references" => "isReferencedBy",
        "isFormatOf" => "hasFormat",
        "hasFormat" => "isFormatOf",
        _ => "relation",
    }
}

/// The folder of an item kind in the site.
pub fn kind_folder(kind: Kind) -> &'static str {
    match kind {
        Kind::Game => "games",
        Kind::Board => "boards",
        Kind::Evidence => "evidence",
    }
}

/// A tag or place as an item names it: folded (how names are compared), as written, and its point (a tag has
/// none).
type Named = (String, String, Option<(f64, f64)>);

/// What resolve gathers from an item's own record: its title and dates, and the tags, places and people it
/// names, each with the folded form names are compared by. It depends on the record alone, so a long-running
/// process keeps it by the item's files and works it out again only for an item that changed.
pub struct ItemNames {
    title: Option<String>,
    year: Option<i64>,
    added: Option<Day>,
    tags: Vec<Named>,
    places: Vec<Named>,
    /// (folded, as written, the term naming them).
    people: Vec<(String, String, &'static str)>,
}

impl ItemNames {
    fn of(item: &Item) -> ItemNames {
        let folded = |(name, point): (String, Option<(f64, f64)>)| (text::fold(&name), name, point);
        ItemNames {
            title: item.title().map(text::one_line),
            year: earliest_year(item),
            added: record_date(item),
            tags: item
                .values
                .iter()
                .filter(|v| TAG_TERMS.contains(&v.term.name) && v.ref_().is_none())
                .map(|v| folded((text::one_line(&v.text), None)))
                .collect(),
            places: item
                .values_of("spatial")
                .filter_map(place_of)
                .map(folded)
                .collect(),
            people: item
                .values
                .iter()
                .filter(|v| PEOPLE_TERMS.contains(&v.term.name))
                .map(|v| (text::one_line(&v.text), v.term.name))
                .filter(|(name, _)| !name.is_empty())
                .map(|(name, term)| (text::fold(&name), name, term))
                .collect(),
        }
    }
}

/// Each item's [`ItemNames`] by the hash of its files, kept by a long-running process between builds.
#[derive(Default)]
pub struct NamesCache(HashMap<crate::fingerprint::Hash, Arc<ItemNames>>);

impl<'c> Archive<'c> {
    /// Resolve a checked catalog (a catalog with errors resolves too, as far as it can).
    pub fn resolve(checked: &'c Checked) -> Archive<'c> {
        Archive::resolve_with(checked, None)
    }

    /// [`Archive::resolve`], taking from `cache` what each unchanged item's record names (see [`ItemNames`])
    /// and leaving in it this run's.
    pub fn resolve_with(checked: &'c Checked, cache: Option<&mut NamesCache>) -> Archive<'c> {
        let catalog = &checked.catalog;
        let known = cache.as_deref();
        // The items with a kind are numbered first, so that the entries are made straight into their places:
        // filtered in parallel, they would be gathered in pieces and copied once more.
        let kinded: Vec<(usize, Kind)> = catalog
            .items
            .iter()
            .enumerate()
            .filter_map(|(i, item)| Some((i, item.kind?)))
            .collect();
        let (mut entries, names): (Vec<Entry<'c>>, Vec<Arc<ItemNames>>) = kinded
            .into_par_iter()
            .map(|(i, kind)| {
                let item = &catalog.items[i];
                let names = known
                    .and_then(|k| k.0.get(&item.files_hash))
                    .map_or_else(|| Arc::new(ItemNames::of(item)), Arc::clone);
                let mut entry = new_entry(catalog, item, kind, checked.held_game(i), &names);
                entry.images = checked.images(i);
                (entry, names)
            })
            .unzip();
        if let Some(cache) = cache {
            // Only this run's items, so that the cache never outgrows the catalog.
            cache.0 = entries
                .iter()
                .zip(&names)
                .map(|(e, n)| (e.files_hash, Arc::clone(n)))
                .collect();
        }
        let mut by_id = foldhash::HashMap::default();
        for (i, entry) in entries.iter().enumerate() {
            by_id.entry(entry.item.id.as_str()).or_insert(i);
        }
        link_relations(&mut entries, &by_id);
        let tags = collect_facets(names.iter().map(|n| n.tags.as_slice()));
        for (i, facet) in tags.iter().enumerate() {
            for &e in &facet.items {
                entries[e].tags.push(i);
            }
        }
        let places = collect_facets(names.iter().map(|n| n.places.as_slice()));
        for (i, facet) in places.iter().enumerate() {
            for &e in &facet.items {
                entries[e].places.push(i);
            }
        }
        let people = collect_people(catalog, &mut entries, &names);
        // Not needed past here: the sources and what comes after them are made without it. Let go of beside them
        // (10,000 items' names at 10,000 items, about 3 ms of one core that the rest of the resolve waited for),
        // or left to the end of a process that ends after this build.
        crate::resident::let_go(names);
        let sources = collect_sources(catalog, &entries);
        let source_index = sources
            .iter()
            .enumerate()
            .map(|(i, s)| (s.entry.key.value.to_ascii_lowercase(), i))
            .collect();
        let about = catalog
            .about
            .map(|file| catalog.files.get(file).text().to_string())
            .unwrap_or_default();
        Archive {
            about,
            made_copies: checked.made_copies(),
            source_index,
            catalog,
            entries,
            tags,
            places,
            people,
            sources,
            by_id,
        }
    }

    pub fn entry(&self, id: &str) -> Option<&Entry<'c>> {
        self.by_id.get(id).map(|&i| &self.entries[i])
    }

    pub fn index_of(&self, id: &str) -> Option<usize> {
        self.by_id.get(id).copied()
    }

    /// A bibliography entry by key, ignoring case as BibTeX does.
    pub fn source(&self, key: &str) -> Option<&Source<'c>> {
        self.source_number(key).map(|i| &self.sources[i])
    }

    /// The place in [`Archive::sources`] of the source a citation names.
    pub fn source_number(&self, key: &str) -> Option<usize> {
        match self.source_index.get(key) {
            Some(&i) => Some(i),
            None => self.source_index.get(&key.to_ascii_lowercase()).copied(),
        }
    }

    /// Every plain name used in a relation, with the items naming it: the list of what to catalogue next.
    pub fn uncatalogued(&self) -> Vec<(String, Vec<usize>)> {
        let mut names: Vec<(String, Vec<usize>)> = Vec::new();
        let mut index: HashMap<String, usize> = HashMap::default();
        for (i, entry) in self.entries.iter().enumerate() {
            for relation in &entry.relations {
                if let Target::Name(name) = &relation.target {
                    let key = text::fold(name);
                    let at = *index.entry(key).or_insert_with(|| {
                        names.push((name.clone(), Vec::new()));
                        names.len() - 1
                    });
                    // Entries are visited in order, so a repeat can only be the last one pushed.
                    if names[at].1.last() != Some(&i) {
                        names[at].1.push(i);
                    }
                }
            }
        }
        names.sort_by_key(|(name, _)| text::fold(name));
        names
    }
}

fn new_entry<'c>(
    catalog: &'c Catalog,
    item: &'c Item,
    kind: Kind,
    game: Option<&'c HeldGame>,
    names: &ItemNames,
) -> Entry<'c> {
    let title = names.title.clone().unwrap_or_else(|| item.id.clone());
    let dir = format!("{}/{}/", kind_folder(kind), item.id);
    let held = game.filter(|_| kind == Kind::Game);
    let (year, added) = (names.year, names.added);
    Entry {
        item,
        kind,
        title,
        url: format!("{dir}index.html"),
        dir,
        relations: Vec::new(),
        inverse: Vec::new(),
        tags: Vec::new(),
        places: Vec::new(),
        people: Vec::new(),
        held,
        files_hash: item.files_hash,
        images: &[],
        boards: Vec::new(),
        evidence: Vec::new(),
        played_with: Vec::new(),
        attests: Vec::new(),
        year,
        added,
        files: &catalog.files,
    }
}

/// A game record's tags for its listing, from the record as `check` parsed it; a record that does not parse is
/// still offered for download.
fn game_record<'c>(
    source: FileId,
    path: &'c Path,
    parsed: Option<&'c crate::check::RecordSummary>,
) -> GameRecord<'c> {
    // Borrowed unless the name is not UTF-8, which the catalog allows (it is shown with replacement marks).
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    // The record's tags read once for the four wanted, the first of each name as `tag` finds it: every build
    // lists every game record of the catalog (66,000 at 10,000 items), and four searches through the tags
    // were a fifth of resolve.
    let (mut kind, mut title, mut event, mut ruleset) = (None, None, None, None);
    for (name, value) in parsed.into_iter().flat_map(|r| r.tags()) {
        let slot = match name {
            "Kind" => &mut kind,
            "Title" => &mut title,
            "Event" => &mut event,
            "Ruleset" => &mut ruleset,
            _ => continue,
        };
        slot.get_or_insert(value);
    }
    GameRecord {
        source,
        file: path,
        file_name,
        kind,
        title: title.or(event),
        ruleset,
        moves: parsed.map_or(0, |r| r.move_count),
    }
}

/// The latest W3CDTF date among the terms dating the record itself.
fn record_date(item: &Item) -> Option<Day> {
    item.values
        .iter()
        .filter(|v| RECORD_DATE_TERMS.contains(&v.term.name))
        .filter_map(|v| date::parse_w3cdtf(&v.text).ok())
        .map(|d| (d.year, d.month.unwrap_or(1), d.day.unwrap_or(1)))
        .max()
}

/// The earliest year among an item's dates. (Pages show the dates themselves in words: `site::values`.)
fn earliest_year(item: &Item) -> Option<i64> {
    item.values
        .iter()
        .filter(|v| v.term.is_date() || v.term.name == "temporal")
        .filter_map(first_year)
        .min()
}

fn first_year(value: &Value) -> Option<i64> {
    let scheme = value
        .scheme()
        .as_ref()
        .and_then(|s| Scheme::from_xsi_type(&s.value));
    let text = &*value.text;
    let parsed = match scheme {
        Some(Scheme::W3cdtf) => date::parse_w3cdtf(text).ok().map(|d| d.year),
        Some(Scheme::Edtf) => match date::parse_edtf(text).ok()? {
            date::Edtf::Date(d) => Some(d.year),
            date::Edtf::Interval(start, end) => match (start, end) {
                (date::Bound::Date(d), _) | (_, date::Bound::Date(d)) => Some(d.year),
                _ => None,
            },
        },
        Some(Scheme::Period) => date::parse_period(text)
            .ok()
            .and_then(|p| p.start.or(p.end))
            .map(|d| d.year),
        _ => None,
    };
    parsed.or_else(|| {
        // An unqualified date: the first number of three or four digits reads as a year.
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i].is_ascii_digit() {
                let start = i;
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
                if (3..=4).contains(&(i - start)) {
                    return text[start..i].parse().ok();
                }
            } else {
                i += 1;
            }
        }
        None
    })
}

/// A place's display name and coordinates: the `name` of a Point or Box, or the plain text.
fn place_of(value: &Value) -> Option<(String, Option<(f64, f64)>)> {
    let scheme = value
        .scheme()
        .as_ref()
        .and_then(|s| Scheme::from_xsi_type(&s.value));
    match scheme {
        Some(Scheme::Point) => {
            let p = place::parse_point(&value.text).ok()?;
            let name = p
                .name
                .clone()
                .unwrap_or_else(|| format!("{:.2} E, {:.2} N", p.east, p.north));
            Some((name, Some((p.east, p.north))))
        }
        Some(Scheme::Box) => {
            let b = place::parse_box(&value.text).ok()?;
            let name = b.name.clone().unwrap_or_else(|| {
                format!(
                    "{:.2}-{:.2} E, {:.2}-{:.2} N",
                    b.west, b.east, b.south, b.north
                )
            });
            Some((name, None))
        }
        _ => Some((text::one_line(&value.text), None)),
    }
    .filter(|(name, _)| !name.is_empty())
}

/// Group the values `of` each entry gives by their folded form into facets, sorted by name.
fn collect_facets<'a>(named: impl Iterator<Item = &'a [Named]>) -> Vec<Facet> {
    let mut facets: Vec<Facet> = Vec::new();
    let mut index: HashMap<&str, usize> = HashMap::default();
    for (i, names) in named.enumerate() {
        for (key, name, point) in names {
            let at = *index.entry(key.as_str()).or_insert_with(|| {
                facets.push(Facet {
                    slug: String::new(),
                    name: name.clone(),
                    items: Vec::new(),
                    point: None,
                });
                facets.len() - 1
            });
            let facet = &mut facets[at];
            if facet.point.is_none() {
                facet.point = *point;
            }
            // Entries are visited in order, so a repeat can only be the last one pushed.
            if facet.items.last() != Some(&i) {
                facet.items.push(i);
            }
        }
    }
    facets.sort_by_cached_key(|f| text::fold(&f.name));
    let slugs = unique_slugs(facets.iter().map(|f| f.name.as_str()));
    for (facet, slug) in facets.iter_mut().zip(slugs) {
        facet.slug = slug;
    }
    facets
}

/// Slugs for names, unique by construction. The first name (in the order given) with a slug keeps it; a later
/// name with the same slug gets `--` and a hash of the name. A slug never holds `--` (hyphens come single, and a
/// cut slug ends in its hash after a single one), so the suffixed form can never be the slug of another name, as
/// a numeric `-2` could ("Hunt game 2"); a hash that is taken already is drawn again from the name and a count.
fn unique_slugs<'a>(names: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut used: HashSet<String> = HashSet::default();
    names
        .map(|name| {
            let base = text::slug(name);
            if used.insert(base.clone()) {
                return base;
            }
            (0u64..)
                .map(|round| {
                    let mut key = name.as_bytes().to_vec();
                    key.extend_from_slice(&round.to_le_bytes());
                    format!("{base}--{:08x}", text::fnv1a(&key) as u32)
                })
                .find(|candidate| used.insert(candidate.clone()))
                .expect("an unbounded range of counts always finds an unused hash")
        })
        .collect()
}

/// Follow every `ref`, `playedWith` and `attests`, and record each relation at both ends.
fn link_relations(entries: &mut [Entry<'_>], by_id: &foldhash::HashMap<&str, usize>) {
    // Each item's own links are found on every core; what they add to the items they point at is gathered
    // after, in the items' order. At every build of the preview server, one thread walking every relation of
    // 10,000 items was a third of resolve.
    let found: Vec<Links> = entries
        .par_iter_mut()
        .enumerate()
        .map(|(i, entry)| own_links(i, entry, by_id))
        .collect();
    for links in found {
        for (target, relation) in links.inverse {
            entries[target].inverse.push(relation);
        }
        for (game, board, ruleset) in links.boards {
            entries[game].boards.push((board, ruleset));
        }
        for (game, item) in links.evidence {
            entries[game].evidence.push(item);
        }
    }
}

/// What one item's links add to the items they point at: relations the other way, boards, evidence.
#[derive(Default)]
struct Links {
    inverse: Vec<(usize, Relation)>,
    boards: Vec<(usize, usize, Option<String>)>,
    evidence: Vec<(usize, usize)>,
}

/// Entry `i`'s relations, boards played with and games attested, found by identifier in `by_id`.
fn own_links(i: usize, entry: &mut Entry<'_>, by_id: &foldhash::HashMap<&str, usize>) -> Links {
    let mut links = Links::default();
    let item = entry.item;
    for value in item.values.iter().filter(|v| v.term.relation) {
        let target = match value.ref_() {
            Some(r) => match by_id.get(r.value.as_str()) {
                Some(&t) => Target::Item(
                    t,
                    Some(text::one_line(&value.text)).filter(|s| !s.is_empty()),
                ),
                // A dangling ref fails check; if it got here anyway, show the name as written.
                None => Target::Name(r.value.clone()),
            },
            None if value.cite().is_some() => continue,
            None if value.text.trim().is_empty() => continue,
            None => Target::Name(text::one_line(&value.text)),
        };
        if let Target::Item(t, _) = target {
            links.inverse.push((
                t,
                Relation {
                    term: inverse_term(value.term.name),
                    target: Target::Item(i, None),
                },
            ));
        }
        entry.relations.push(Relation {
            term: value.term.name,
            target,
        });
    }
    for link in &item.played_with {
        if let Some(game) = link.game.as_ref().and_then(|g| by_id.get(g.value.as_str())) {
            let ruleset = link.ruleset.as_ref().map(|r| r.value.clone());
            entry.played_with.push((*game, ruleset.clone()));
            links.boards.push((*game, i, ruleset));
        }
    }
    for link in &item.attests {
        if let Some(game) = link.game.as_ref().and_then(|g| by_id.get(g.value.as_str())) {
            entry.attests.push(*game);
            links.evidence.push((*game, i));
        }
    }
    links
}

fn collect_people(
    catalog: &Catalog,
    entries: &mut [Entry<'_>],
    names: &[Arc<ItemNames>],
) -> Vec<Person> {
    let mut people: Vec<Person> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::default();
    let mut find = |key: &str, name: &str, people: &mut Vec<Person>| -> usize {
        if let Some(&p) = index.get(key) {
            return p;
        }
        people.push(Person {
            name: name.to_string(),
            slug: String::new(),
            items: Vec::new(),
            works: Vec::new(),
        });
        index.insert(key.to_string(), people.len() - 1);
        people.len() - 1
    };
    for (i, names) in names.iter().enumerate() {
        for (key, name, term) in &names.people {
            let p = find(key, name, &mut people);
            if people[p].items.last().is_none_or(|(e, _)| *e != i) {
                people[p].items.push((i, term));
            }
        }
    }
    for entry in &catalog.sources.entries {
        for name in entry.authors.iter().chain(&entry.editors) {
            let name = text::reading_order(name);
            if name.is_empty() || name.eq_ignore_ascii_case("others") {
                continue;
            }
            let p = find(&text::fold(&name), &name, &mut people);
            if !people[p].works.contains(&entry.key.value) {
                people[p].works.push(entry.key.value.clone());
            }
        }
    }
    // Sort by family name, as a reader of a bibliography expects.
    let mut order: Vec<usize> = (0..people.len()).collect();
    order.sort_by_cached_key(|&p| {
        let name = &people[p].name;
        let last = name.rsplit(' ').next().unwrap_or(name);
        (text::fold(last), text::fold(name))
    });
    let mut sorted: Vec<Person> = order.into_iter().map(|p| people[p].clone()).collect();
    let slugs = unique_slugs(sorted.iter().map(|p| p.name.as_str()));
    for (person, slug) in sorted.iter_mut().zip(slugs) {
        person.slug = slug;
    }
    for (p, person) in sorted.iter().enumerate() {
        for &(e, _) in &person.items {
            entries[e].people.push(p);
        }
    }
    sorted
}

fn collect_sources<'c>(catalog: &'c Catalog, entries: &[Entry<'c>]) -> Vec<Source<'c>> {
    let mut index: HashMap<String, usize> = HashMap::default();
    let slugs = unique_slugs(catalog.sources.entries.iter().map(|e| e.key.value.as_str()));
    let mut sources: Vec<Source<'c>> = Vec::new();
    for (entry, slug) in catalog.sources.entries.iter().zip(slugs) {
        let key = entry.key.value.to_ascii_lowercase();
        if index.contains_key(&key) {
            continue;
        }
        index.insert(key, sources.len());
        sources.push(Source {
            entry,
            slug,
            citations: Vec::new(),
        });
    }
    // Keys are compared ignoring case, as BibTeX does; most are written in lower case already.
    let find = |key: &str| match key.bytes().any(|b| b.is_ascii_uppercase()) {
        true => index.get(&key.to_ascii_lowercase()).copied(),
        false => index.get(key).copied(),
    };
    // Each entry's citations are found on every core, then filed in entry order.
    let found: Vec<Vec<(usize, Citation<'c>)>> = entries
        .par_iter()
        .enumerate()
        .map(|(i, entry)| {
            let mut found = Vec::new();
            for value in &entry.item.values {
                if let Some(cite) = &value.cite()
                    && let Some(s) = find(&cite.value)
                {
                    let citation = Citation {
                        item: i,
                        term: value.term.name,
                        pages: value.pages().map(|p| p.value.as_str()),
                        ruleset: None,
                    };
                    found.push((s, citation));
                }
            }
            // From the game's sums: the citations of every game are listed at every build, and only a page
            // made again reads its game in full.
            for ruleset in entry.sums().iter().flat_map(|s| &s.citations) {
                if let Some(s) = find(&ruleset.source) {
                    let citation = Citation {
                        item: i,
                        term: "ruleset",
                        pages: ruleset.pages.as_deref(),
                        ruleset: Some(&*ruleset.title),
                    };
                    found.push((s, citation));
                }
            }
            found
        })
        .collect();
    for (s, citation) in found.into_iter().flatten() {
        sources[s].citations.push(citation);
    }
    sources
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clashing_slugs_never_take_the_slug_of_another_name() {
        let names = ["hunt-game", "Hunt game", "Hunt game 2", "HUNT GAME"];
        let slugs = unique_slugs(names.iter().copied());
        assert_eq!(slugs[0], "hunt-game");
        assert_eq!(slugs[2], "hunt-game-2");
        assert!(slugs[1].starts_with("hunt-game--"), "{}", slugs[1]);
        let distinct: HashSet<&String> = slugs.iter().collect();
        assert_eq!(distinct.len(), names.len(), "{slugs:?}");
        // The same names give the same slugs on every run.
        assert_eq!(slugs, unique_slugs(names.iter().copied()));
    }

    #[test]
    fn long_names_get_bounded_distinct_slugs() {
        let long = "x".repeat(600);
        let names = [long.clone(), format!("{long}y"), long.to_uppercase()];
        let slugs = unique_slugs(names.iter().map(String::as_str));
        let distinct: HashSet<&String> = slugs.iter().collect();
        assert_eq!(distinct.len(), 3, "{slugs:?}");
        assert!(slugs.iter().all(|s| s.len() < 100), "{slugs:?}");
    }
}
