//! Every validation of a loaded catalog. Each check adds diagnostics and carries on, so that one run reports all
//! problems; [`check`] sorts them by file and position at the end.

mod bibliography;
mod item;
pub mod kept;
mod links;
pub mod media;
mod placeholder;
pub mod rules;
mod tags;
mod theme;
mod value;

use std::collections::HashSet;
use std::sync::Arc;

use rayon::prelude::*;

pub use item::required_terms;
pub use links::{UncataloguedName, is_url_safe, uncatalogued_names};
pub use media::CheckedImage;

use ludotheca_engine::record::Record;

use crate::archive::rules::Rules;
use crate::catalog::Catalog;
use crate::diagnostic::Diagnostics;
use crate::fingerprint::Hash;
use crate::site::theme::Theme;
pub use media::ImageCache;
pub use rules::GameCache;

/// The catalog as checked: what every later step (resolve, render, the preview server) takes, so that nothing
/// after the check reads a file, parses a record again or compiles a ruleset again.
pub struct Checked {
    pub catalog: Catalog,
    /// One slot per item of `catalog.items` (same index): a game's rules and records as checked.
    games: Vec<Option<Arc<HeldGame>>>,
    /// One list per item of `catalog.items` (same index): the pictures its record shows, as checked.
    images: Vec<Vec<CheckedImage>>,
    /// The copies of pictures made while the check had them decoded, for the render to write.
    made: media::MadeCopies,
    /// The theme (the default templates with the catalog's laid over them), compiled; `None` when it does not
    /// compile, which the diagnostics report.
    pub theme: Option<Arc<Theme>>,
    /// The keys of the records whose own checks found nothing, sorted: the next run's [`FoundClean::records`].
    clean_records: Vec<Hash>,
    /// How many records' checks were taken as an earlier run made them rather than made again.
    records_taken: usize,
}

/// What an earlier run found clean, each by a key of everything its check read, so that a later run need not
/// check it again: the games whose records replayed without a diagnostic ([`Checked::clean_games`]) and the
/// records whose own checks found nothing ([`Checked::clean_records`]). A build in a new process reads them
/// from the previous site; the keys hold the program, so another version's are never taken.
#[derive(Clone, Debug, Default)]
pub struct FoundClean {
    pub games: HashSet<Hash>,
    pub records: HashSet<Hash>,
}

/// What a long-running process (the preview server) keeps of each check for the next one: the theme as
/// compiled, each record's diagnostics and placeholders, each by what it was made from, so that an edit of one
/// record checks nothing else. (The games and pictures a build also keeps in the site it writes are passed on
/// their own: see [`check_with`].)
#[derive(Default)]
pub struct CheckCache {
    /// The theme's templates and static files, hashed, and the theme they compiled to without a diagnostic.
    theme: Option<(Hash, Arc<Theme>)>,
    /// Each record's own diagnostics, by its files and the program, taken while what else its checks read is
    /// unchanged (see [`reads_unchanged`]).
    records: foldhash::HashMap<Hash, Vec<crate::diagnostic::Diagnostic>>,
    /// The placeholders left in each item's files, by the files' hash.
    placeholders: placeholder::PlaceholderCache,
}

/// A game's rules as compiled (each ruleset once) and its records as parsed and replayed.
#[derive(serde::Serialize, serde::Deserialize)]
pub struct CheckedGame {
    pub rules: Rules,
    /// Each of the item's `game_records`, in the same order: `None` where the record does not parse.
    pub records: Vec<Option<RecordSummary>>,
}

/// A game as checked: made by this check, or taken as an earlier build wrote it and read in full only when
/// first asked for ([`HeldGame::get`]). A rebuild after one edit takes thousands of games and shows one or two
/// of them on pages made again; what every build reads of every game is in its [`GameSums`].
pub struct HeldGame {
    /// A hash of the program, the rules and the records: a later run that finds it among the games known to
    /// replay cleanly need not replay them again.
    pub key: Hash,
    /// The rules compiled and every record replayed without a diagnostic.
    pub clean: bool,
    pub sums: GameSums,
    game: std::sync::OnceLock<CheckedGame>,
    /// Where the game lies in the file it was taken from, for a game not read yet.
    written: Option<kept::Body>,
}

/// What the site reads of every game at every build, beside the game itself: the sources' pages, the home
/// page's families and the board diagrams list every game.
#[derive(Default, serde::Serialize, serde::Deserialize)]
pub struct GameSums {
    pub family: Option<ludotheca_engine::ruleset::Family>,
    /// The rulesets that cite a work, in order.
    pub citations: Vec<RulesetCitation>,
    /// Every diagram the game's pages draw, in order: its rulesets' boards, then its puzzles' starting
    /// positions.
    #[serde(with = "kept::shared_list")]
    pub diagrams: Vec<Arc<crate::archive::Diagram>>,
}

/// A ruleset that cites a work: the work's key, the pages, and the ruleset's title.
#[derive(serde::Serialize, serde::Deserialize)]
pub struct RulesetCitation {
    pub source: Box<str>,
    pub pages: Option<Box<str>>,
    pub title: Box<str>,
}

impl GameSums {
    fn of(game: &CheckedGame) -> GameSums {
        let rulesets = &game.rules.rulesets;
        let starts = game
            .records
            .iter()
            .flatten()
            .filter_map(|r| r.start.as_ref())
            .map(|s| &s.diagram);
        GameSums {
            family: game.rules.family,
            citations: rulesets
                .iter()
                .filter_map(|r| {
                    Some(RulesetCitation {
                        source: r.source.clone()?,
                        pages: r.pages.clone(),
                        title: r.title.clone(),
                    })
                })
                .collect(),
            diagrams: rulesets
                .iter()
                .filter_map(|r| r.diagram.as_ref())
                .chain(starts)
                .cloned()
                .collect(),
        }
    }
}

impl HeldGame {
    /// A game this check made.
    pub fn made(game: CheckedGame, key: Hash, clean: bool) -> HeldGame {
        HeldGame {
            key,
            clean,
            sums: GameSums::of(&game),
            game: std::sync::OnceLock::from(game),
            written: None,
        }
    }

    /// A game an earlier build checked cleanly and wrote at `written`.
    pub(crate) fn written(key: Hash, sums: GameSums, written: kept::Body) -> HeldGame {
        HeldGame {
            key,
            clean: true,
            sums,
            game: std::sync::OnceLock::new(),
            written: Some(written),
        }
    }

    /// The game's rules and records, read from where an earlier build wrote them if this is the first time
    /// they are asked for.
    pub fn get(&self) -> &CheckedGame {
        self.game.get_or_init(|| {
            self.written
                .as_ref()
                .and_then(kept::Body::read)
                .expect("a game in a file this very program wrote and sealed reads back")
        })
    }

    /// Whether the game's rules and records have been read (or were made by this check).
    pub fn is_read(&self) -> bool {
        self.game.get().is_some()
    }
}

/// What the site shows of a parsed game record besides its text: its tags and how many moves it has. Kept
/// instead of the parsed record, whose per-move fields take many times the record's text; a large catalog's
/// records are most of it. Pages show and play a record from its text, so the catalog's games are not held
/// twice.
#[derive(serde::Serialize, serde::Deserialize)]
pub struct RecordSummary {
    /// The tags the site reads ([`SHOWN_TAGS`]), in order: (name, value).
    tags: tags::Tags,
    pub move_count: usize,
    /// A puzzle's position as set by its `Position` tag, for the puzzles page's diagram; `None` for other
    /// records and for a position that does not parse (which the replay reports).
    pub start: Option<PuzzleStart>,
}

/// Where a puzzle starts: the board with its pieces or seeds, and the side to move.
#[derive(serde::Serialize, serde::Deserialize)]
pub struct PuzzleStart {
    #[serde(with = "kept::shared")]
    pub diagram: Arc<crate::archive::Diagram>,
    pub to_move: u8,
}

/// The tags a page, the board or the puzzles list reads from a record's summary. The others (players, dates,
/// results, ...) are shown with the record's text, never from the summary: a large catalog holds a summary of
/// each of its records from check to the end of the build, and those tags were most of it.
pub const SHOWN_TAGS: [&str; 6] = ["Event", "Title", "Kind", "Ruleset", "Source", "Question"];

impl RecordSummary {
    /// The summary of `record`, which has `move_count` moves (its moves may not have been kept).
    pub fn of(record: &Record, move_count: usize) -> RecordSummary {
        RecordSummary {
            tags: tags::Tags::new(
                record
                    .tags
                    .iter()
                    .filter(|t| SHOWN_TAGS.contains(&t.name.as_str()))
                    .map(|t| (t.name.as_str(), t.value.as_str())),
            ),
            move_count,
            start: None,
        }
    }

    /// The first tag of this name, one of [`SHOWN_TAGS`].
    pub fn tag(&self, name: &str) -> Option<&str> {
        debug_assert!(SHOWN_TAGS.contains(&name), "`{name}` is not kept");
        self.tags.get(name)
    }

    /// Every tag kept, in order: (name, value).
    pub fn tags(&self) -> impl Iterator<Item = (&str, &str)> {
        self.tags.iter()
    }
}

impl Checked {
    /// The checked rules and records of the item at `index` of `catalog.items`, if it is a game with rules:
    /// not read yet if it was taken from an earlier build and nothing has asked for it ([`HeldGame::get`]).
    pub fn held_game(&self, index: usize) -> Option<&HeldGame> {
        self.games.get(index).and_then(Option::as_deref)
    }

    /// How many games were read from where an earlier build wrote them, and how many were taken from there:
    /// the rest of those were never asked for.
    pub fn games_read(&self) -> (usize, usize) {
        let taken = self.games.iter().flatten().filter(|g| g.written.is_some());
        taken.fold((0, 0), |(read, all), g| {
            (read + usize::from(g.is_read()), all + 1)
        })
    }

    /// The pictures of the item at `index` of `catalog.items` that passed the check, in record order.
    pub fn images(&self, index: usize) -> &[CheckedImage] {
        self.images.get(index).map_or(&[], Vec::as_slice)
    }

    /// The copies of pictures made while the check had them decoded (see [`media::ImageCache::scale_while_decoding`]).
    pub fn made_copies(&self) -> &media::MadeCopies {
        &self.made
    }

    /// The keys of the games that checked cleanly, for the next run's [`check_with`].
    pub fn clean_games(&self) -> impl Iterator<Item = &Hash> {
        self.games
            .iter()
            .flatten()
            .filter(|g| g.clean)
            .map(|g| &g.key)
    }

    /// The keys of the records whose own checks found nothing, for the next run's [`check_with`].
    pub fn clean_records(&self) -> &[Hash] {
        &self.clean_records
    }

    /// How many records' checks were taken as an earlier run made them, and how many records there are.
    pub fn records_taken(&self) -> (usize, usize) {
        (self.records_taken, self.catalog.items.len())
    }
}

/// Run every check over the catalog; see [`check_with`].
pub fn check(catalog: Catalog, diagnostics: &mut Diagnostics) -> Checked {
    check_with(
        catalog,
        diagnostics,
        &FoundClean::default(),
        &mut GameCache::default(),
        &mut ImageCache::default(),
        None,
    )
}

/// The checks of the records alone, the first that [`check_with`] runs: each item's root and kind, its
/// elements, every value (empty, schemes, language tags, `ref` and `cite`), values given twice, the links to
/// games, the confidence and the terms its kind requires; then the identifiers (unique, URL-safe). Needs
/// nothing of the catalog but its items and bibliography (for `cite`). Diagnostics are left unsorted.
pub fn check_records(catalog: &Catalog, diagnostics: &mut Diagnostics) {
    check_records_with(catalog, diagnostics, None, &HashSet::new());
}

/// Whether what a record's checks read beyond its own files is as it was when they found what they found: every
/// item it links to is there, each game it names is a game (see [`links::Identifiers::links_hold`]), and the
/// bibliography holds every work it cites. An outcome that holds an error of a missing item, a link to something
/// other than a game or a missing work is never taken: those errors suggest the nearest identifier or key, which
/// reads all of them.
fn reads_unchanged(
    catalog: &Catalog,
    ids: &links::Identifiers,
    item: &crate::catalog::Item,
    found: &[crate::diagnostic::Diagnostic],
) -> bool {
    let reads_others = [links::UNKNOWN_ITEM, links::NOT_A_GAME, value::UNKNOWN_WORK];
    !found.iter().any(|d| reads_others.contains(&d.code))
        && ids.links_hold(item)
        && cites_found(catalog, item)
}

/// Whether the bibliography holds every work `item`'s record cites: all that a record's checks read of it, so a
/// record checked while its works were all there gives the same diagnostics while they still are, whatever else
/// of the bibliography changed.
fn cites_found(catalog: &Catalog, item: &crate::catalog::Item) -> bool {
    item.values
        .iter()
        .filter_map(|value| value.cite())
        .all(|cite| catalog.sources.get(&cite.value).is_some())
}

/// [`check_records`], taking each record's diagnostics from `cache` when its files and the program are the same
/// and what else its checks read still holds ([`reads_unchanged`]), and leaving in it this run's; a record whose
/// key is in `clean` (an earlier run found nothing) is not checked either. Returns the keys of the records that
/// gave no diagnostic, sorted, and how many records' checks were taken rather than made.
fn check_records_with(
    catalog: &Catalog,
    diagnostics: &mut Diagnostics,
    cache: Option<&mut foldhash::HashMap<Hash, Vec<crate::diagnostic::Diagnostic>>>,
    clean: &HashSet<Hash>,
) -> (Vec<Hash>, usize) {
    let ids = links::Identifiers::new(catalog);
    // A record's own diagnostics depend on its files and the program, and on what [`reads_unchanged`] looks at.
    let context = crate::fingerprint::bytes(&crate::fingerprint::program(), [&b"records"[..]]);
    let known = cache.as_deref();
    // Items are checked in parallel, each into its own diagnostics, gathered in catalog order; the identifiers,
    // one thread's look at every item, beside them.
    let (each, identified) = rayon::join(
        || -> Vec<(Hash, Vec<crate::diagnostic::Diagnostic>, bool)> {
            catalog
                .items
                .par_iter()
                .map(|item| {
                    let key = crate::fingerprint::bytes(&context, [&item.files_hash[..]]);
                    let hit = known
                        .and_then(|k| k.get(&key))
                        .filter(|hit| reads_unchanged(catalog, &ids, item, hit));
                    if let Some(hit) = hit {
                        return (key, hit.clone(), true);
                    }
                    if clean.contains(&key) && reads_unchanged(catalog, &ids, item, &[]) {
                        return (key, Vec::new(), true);
                    }
                    let mut own = Diagnostics::new();
                    item::check_item(catalog, &ids, item, &mut own);
                    (key, own.into_vec(), false)
                })
                .collect()
        },
        || {
            let mut identified = Diagnostics::new();
            links::check_identifiers(catalog, &mut identified);
            identified
        },
    );
    let taken = each.iter().filter(|(.., taken)| *taken).count();
    let mut kept = foldhash::HashMap::default();
    let mut found_clean = Vec::new();
    for (key, own, _) in each {
        if own.is_empty() {
            found_clean.push(key);
        }
        if cache.is_some() {
            // Kept for the next run as well: a copy goes to this run's diagnostics.
            for diagnostic in &own {
                diagnostics.push(diagnostic.clone());
            }
            kept.insert(key, own);
        } else {
            for diagnostic in own {
                diagnostics.push(diagnostic);
            }
        }
    }
    if let Some(cache) = cache {
        // Only this run's records: an edited record's old diagnostics are never asked for again.
        *cache = kept;
    }
    for diagnostic in identified.into_vec() {
        diagnostics.push(diagnostic);
    }
    found_clean.sort_unstable();
    (found_clean, taken)
}

/// The catalog's theme compiled, or `None` when it does not compile; taken from `cache` (kept by a long-running
/// process) when its templates and static files are unchanged.
fn compiled_theme(
    catalog: &Catalog,
    cache: Option<&mut Option<(Hash, Arc<Theme>)>>,
    diagnostics: &mut Diagnostics,
) -> Option<Arc<Theme>> {
    let Some(cache) = cache else {
        return theme::check_theme(catalog, diagnostics).map(Arc::new);
    };
    let key = theme::theme_key(catalog);
    if let Some((known, theme)) = cache.as_ref()
        && *known == key
    {
        return Some(Arc::clone(theme));
    }
    let before = diagnostics.len();
    let theme = theme::check_theme(catalog, diagnostics).map(Arc::new);
    // Only a theme that compiled without a word is kept: a warning must be given again.
    *cache = theme
        .as_ref()
        .filter(|_| diagnostics.len() == before)
        .map(|t| (key, Arc::clone(t)));
    theme
}

/// The bibliography keys the catalog's records cite, lowercase. A key is cited by many items: each is lowered
/// into one buffer and kept once, rather than allocated for every citation of the catalog (tens of thousands
/// at 10,000 items, at every build of the server). The items are looked at on every core.
fn cited_keys(catalog: &Catalog) -> foldhash::HashSet<String> {
    catalog
        .items
        .par_iter()
        .fold(
            || (foldhash::HashSet::<String>::default(), String::new()),
            |(mut cited, mut lower), item| {
                for key in item.values.iter().filter_map(|v| v.cite()) {
                    lower.clear();
                    lower.push_str(&key.value);
                    lower.make_ascii_lowercase();
                    if !cited.contains(&lower) {
                        cited.insert(lower.clone());
                    }
                }
                (cited, lower)
            },
        )
        .map(|(cited, _)| cited)
        .reduce(foldhash::HashSet::default, |mut all, some| {
            all.extend(some);
            all
        })
}

/// Run every check over the catalog, adding to `diagnostics` (which may already hold the reader's), then sort.
/// Returns the catalog as checked: with errors in `diagnostics` it is complete as far as it could be read.
///
/// `clean` holds the keys of games an earlier run found clean (see [`Checked::clean_games`]): their records
/// are not replayed again, as the same program replays the same records the same way. Everything else about
/// them (citations, ruleset names) is still checked, since it depends on more than the game's own files. It
/// also holds the keys of records whose own checks found nothing (see [`Checked::clean_records`]): those are
/// not checked again.
///
/// `games` gives the games that did not change since the previous run (kept in memory by a long-running
/// process, or read from the previous build's output) without checking them again, and is left holding this
/// run's; `images` does the same for the pictures' examinations. `cache`, kept by a long-running process
/// between runs, does the same for the records and theme.
pub fn check_with(
    catalog: Catalog,
    diagnostics: &mut Diagnostics,
    clean: &FoundClean,
    games: &mut GameCache,
    images: &mut ImageCache,
    cache: Option<&mut CheckCache>,
) -> Checked {
    let (records_cache, theme_cache, placeholders_cache) = match cache {
        Some(cache) => (
            Some(&mut cache.records),
            Some(&mut cache.theme),
            Some(&mut cache.placeholders),
        ),
        None => (None, None, None),
    };
    // Compiling the theme is one thread's work (tens of milliseconds of tera's parser in a new process), done
    // beside the rest of the check, which a rebuild mostly takes as the previous build made it.
    let mut theme_diagnostics = Diagnostics::new();
    let mut image_diagnostics = Diagnostics::new();
    let (theme, ((images, made), (rules, (clean_records, records_taken)))) = rayon::join(
        || compiled_theme(&catalog, theme_cache, &mut theme_diagnostics),
        || {
            // A picture new to the build is decoded and its copies scaled and encoded by one thread, tens of
            // milliseconds for a large one: begun first, beside the records and games, rather than after
            // them, where it kept one core busy at the end of the check while the other waited (most of a
            // small catalog's check).
            rayon::join(
                || media::check_images(&catalog, &mut image_diagnostics, images),
                || {
                    // Gathering the keys the records cite looks at every value of the catalog: done beside
                    // the records' check, which takes most of what it checks as the previous build found it.
                    let (records, mut cited) = rayon::join(
                        || check_records_with(&catalog, diagnostics, records_cache, &clean.records),
                        || cited_keys(&catalog),
                    );
                    let mut rules = rules::check_rules(&catalog, &clean.games, games, diagnostics);
                    cited.extend(std::mem::take(&mut rules.cited));
                    bibliography::check_bibliography(&catalog, &cited, diagnostics);
                    (rules, records)
                },
            )
        },
    );
    // In the order they were given before the pictures were examined beside the rest: after the bibliography's.
    for diagnostic in image_diagnostics.into_vec() {
        diagnostics.push(diagnostic);
    }
    placeholder::check_placeholders(&catalog, diagnostics, placeholders_cache);
    for diagnostic in theme_diagnostics.into_vec() {
        diagnostics.push(diagnostic);
    }
    diagnostics.sort();
    let mut games: Vec<Option<Arc<HeldGame>>> = catalog.items.iter().map(|_| None).collect();
    for (i, game) in rules.games {
        games[i] = Some(game);
    }
    Checked {
        catalog,
        games,
        images,
        made,
        theme,
        clean_records,
        records_taken,
    }
}
