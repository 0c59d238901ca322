//! The playable side of a catalog: every rules file compiles, every ruleset cites a source the bibliography
//! has, every game record replays move by move under the ruleset it names, and every board names a ruleset
//! its game really has. The rules engine reports positions as line:column; they are turned into spans of the
//! loaded files here, so these diagnostics look like every other.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use rayon::prelude::*;

use ludotheca_engine::record::{self, Record, RecordError};
use ludotheca_engine::rules::ErrorKind;
use ludotheca_engine::ruleset::{Facts, RulesInfo};
use ludotheca_engine::{Compiled, RulesError, RulesFile};

use super::{CheckedGame, GameSums, HeldGame, PuzzleStart, RecordSummary, kept};
use crate::archive::Diagram;
use crate::archive::rules::{Shared, diagram_at, from_compiled};
use crate::catalog::bibtex::Bibliography;
use crate::catalog::{Catalog, Item, Kind};
use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::fingerprint::{self, Hash};
use crate::source::{FileId, SourceMap};
use crate::suggest;

/// Sets and maps built or searched once per item or citation at every build (the preview server's too): hashed
/// with foldhash, as SipHash was a fifth of the check of a rebuild after an edit.
type FastMap<K, V> = foldhash::HashMap<K, V>;
type FastSet<T> = foldhash::HashSet<T>;

/// What checking one game gives: its diagnostics, the bibliography keys it cites, what its rules declare (none
/// when they do not compile), and the game as checked.
struct GameOutcome {
    diagnostics: Diagnostics,
    cited: FastSet<String>,
    info: Option<RulesInfo>,
    game: Arc<HeldGame>,
}

/// Every game as checked by the previous run, by what its check depends on: the program, its rules and
/// records. A game found here is not compiled or replayed again while the bibliography still holds every work
/// its rulesets and records cite. A long-running process (the preview server) keeps it in memory; a build
/// leaves the games that checked without a diagnostic in the output folder for the next one
/// ([`GameCache::write`]).
#[derive(Default)]
pub struct GameCache {
    games: FastMap<Hash, Arc<GameOutcome>>,
    /// How many games the last check took from here.
    taken: usize,
}

/// A game as written for the next build. Only games without a diagnostic are written, so none has diagnostics
/// to keep, and every one is clean. The game's rules and records are bytes of their own, read back only when
/// asked for (see [`kept`]).
#[derive(serde::Serialize)]
struct KeptRef<'a> {
    key: &'a Hash,
    cited: Vec<&'a str>,
    info: &'a Option<RulesInfo>,
    sums: &'a GameSums,
    game: kept::BodyRef<'a, CheckedGame>,
}

/// [`KeptRef`] as read back, its game's bytes borrowed from the file.
#[derive(serde::Deserialize)]
struct KeptGame<'a> {
    key: Hash,
    cited: Vec<String>,
    info: Option<RulesInfo>,
    sums: GameSums,
    #[serde(borrow)]
    game: &'a [u8],
}

impl GameCache {
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// How many games the last check took from here, and how many games it checked in all.
    pub fn taken(&self) -> (usize, usize) {
        (self.taken, self.games.len())
    }

    /// The games that checked without a diagnostic, sorted by key: only these are written for the next build.
    fn keepable(&self) -> Vec<(&Hash, &GameOutcome)> {
        let mut games: Vec<(&Hash, &GameOutcome)> = self
            .games
            .iter()
            .filter(|(_, outcome)| outcome.diagnostics.is_empty() && outcome.game.clean)
            .map(|(key, outcome)| (key, &**outcome))
            .collect();
        games.sort_unstable_by_key(|(key, _)| *key);
        games
    }

    /// A hash of what [`GameCache::write`] writes, without writing it.
    pub fn digest(&self) -> Hash {
        kept::digest(self.keepable().into_iter().map(|(key, _)| key))
    }

    /// Writes the games that checked without a diagnostic, for a build in another process
    /// ([`GameCache::from_bytes`]).
    pub fn write(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        let keepable = self.keepable();
        // Every game read in full before the table below is in use: reading one uses a table of its own.
        let games: Vec<&CheckedGame> = keepable.iter().map(|(_, o)| o.game.get()).collect();
        // Every diagram and every ruleset's facts once, numbered in the order the games first hold them. Equal
        // values may be two copies (one read from the previous build, one made by this check): both get the
        // number of the first, so that the file is the same whichever way its games came.
        let shared = Shared::default();
        let mut numbers = kept::Numbers::default();
        let mut diagrams: Vec<&Diagram> = Vec::new();
        let mut facts: Vec<&Facts> = Vec::new();
        for game in &games {
            let drawn = game
                .rules
                .rulesets
                .iter()
                .filter_map(|r| r.diagram.as_ref());
            let started = game
                .records
                .iter()
                .flatten()
                .filter_map(|r| r.start.as_ref());
            for diagram in drawn.chain(started.map(|s| &s.diagram)) {
                number_once(diagram, &mut numbers.diagrams, &mut diagrams, |d| {
                    shared.share_arc(d)
                });
            }
            for stated in game.rules.rulesets.iter().filter_map(|r| r.facts.as_ref()) {
                number_once(stated, &mut numbers.facts, &mut facts, |f| {
                    shared.facts_arc(f)
                });
            }
        }
        let games: Vec<KeptRef<'_>> = keepable
            .into_iter()
            .zip(games)
            .map(|((key, outcome), game)| {
                let mut cited: Vec<&str> = outcome.cited.iter().map(String::as_str).collect();
                cited.sort_unstable();
                KeptRef {
                    key,
                    cited,
                    info: &outcome.info,
                    sums: &outcome.game.sums,
                    game: kept::BodyRef(game),
                }
            })
            .collect();
        kept::write(out, (&diagrams, &facts), numbers, &games)
    }

    /// The games an earlier build wrote with [`GameCache::write`]; none when another program wrote them or
    /// they are damaged. Each game's rules and records are read when first asked for.
    pub fn from_bytes(bytes: Vec<u8>) -> GameCache {
        let Some(file) = kept::File::open(bytes) else {
            return GameCache::default();
        };
        let games = file
            .games::<KeptGame>()
            .unwrap_or_default()
            .into_iter()
            .map(|kept| {
                let game = HeldGame::written(kept.key, kept.sums, file.body(kept.game));
                let outcome = GameOutcome {
                    diagnostics: Diagnostics::new(),
                    cited: kept.cited.into_iter().collect(),
                    info: kept.info,
                    game: Arc::new(game),
                };
                (kept.key, Arc::new(outcome))
            })
            .collect();
        GameCache { games, taken: 0 }
    }
}

/// Numbers `value` (by its address) in `numbers`: as the equal value `first` finds was numbered, or, when it is
/// the first of its kind, as the next in `table`, where it is added.
fn number_once<'a, T>(
    value: &'a Arc<T>,
    numbers: &mut HashMap<*const T, u32>,
    table: &mut Vec<&'a T>,
    first: impl FnOnce(&Arc<T>) -> Arc<T>,
) {
    if numbers.contains_key(&Arc::as_ptr(value)) {
        return;
    }
    let number = match numbers.get(&Arc::as_ptr(&first(value))) {
        Some(&number) => number,
        None => {
            table.push(value);
            table.len() as u32 - 1
        }
    };
    numbers.insert(Arc::as_ptr(value), number);
}

/// What checking every game gives: the bibliography keys cited from rules files and game records (lowercase),
/// so the bibliography check does not call them uncited, and each game as checked, by item index.
pub struct RulesChecked {
    pub cited: FastSet<String>,
    pub games: Vec<(usize, Arc<HeldGame>)>,
}

/// The most items one job of [`check_rules`] takes (see there). A game taken as an earlier run checked it costs
/// microseconds: a rebuild, which takes nearly all of them, measured the same with the small pieces as without.
const GAMES_A_PIECE: usize = 4;

/// Check the rules and game records of every game, and the rulesets boards name. Games `cache` holds are
/// taken from it; it is left holding every game of this catalog.
pub fn check_rules(
    catalog: &Catalog,
    replayed: &HashSet<Hash>,
    cache: &mut GameCache,
    diagnostics: &mut Diagnostics,
) -> RulesChecked {
    let program = fingerprint::program();
    let shared = Shared::default();
    let known = &cache.games;
    // A game's check reads the bibliography only to find the works it cites (each missing one is an error that
    // suggests the nearest key): a game checked when every work it cited was there still stands while they all
    // are, whatever else of the bibliography changed.
    let still_cited = |outcome: &GameOutcome| {
        !outcome.diagnostics.iter().any(|d| d.code == UNKNOWN_WORK)
            && outcome
                .cited
                .iter()
                .all(|key| catalog.sources.get(key).is_some())
    };
    // Games are independent, and replaying long records is most of the check's time on a large catalog, so
    // games are checked in parallel, each into its own diagnostics, then gathered in catalog order (the caller
    // sorts them, so the output never depends on scheduling).
    let checked: Vec<(usize, Hash, Arc<GameOutcome>, bool)> = catalog
        .items
        .par_iter()
        .enumerate()
        // A game's replay takes from microseconds to milliseconds (a sowing game's long relays), and a catalog
        // may hold many heavy games side by side: in pieces of a few items, a core that runs out of work always
        // finds some left to take. Split only when taken, one piece of a 1,000-item catalog held a run of heavy
        // games, replayed on one core for a fifth of a second while the other waited.
        .with_max_len(GAMES_A_PIECE)
        .filter(|(_, item)| item.kind == Some(Kind::Game))
        .filter_map(|(i, item)| item.rules_file.map(|file| (i, item, file)))
        .map(|(i, item, rules_file)| {
            // Diagnostics name the files, so equal files in two folders must be two entries: they are, as the
            // item's hash covers each file's path (within the catalog folder, so that naming the catalog
            // another way keeps the games).
            let key = game_key(item, &program);
            if let Some(outcome) = known.get(&key).filter(|outcome| still_cited(outcome)) {
                return (i, key, Arc::clone(outcome), true);
            }
            let replay = !replayed.contains(&key);
            let outcome = check_game(catalog, item, rules_file, (key, replay), &shared);
            (i, key, Arc::new(outcome), false)
        })
        .collect();
    let mut cited = FastSet::default();
    let mut rulesets: FastMap<&str, &RulesInfo> = FastMap::default();
    let mut games = Vec::with_capacity(checked.len());
    for (i, _, outcome, _) in &checked {
        for diagnostic in outcome.diagnostics.iter() {
            diagnostics.push(diagnostic.clone());
        }
        // Most games cite keys another game cited already: no copy of those.
        for key in &outcome.cited {
            if !cited.contains(key) {
                cited.insert(key.clone());
            }
        }
        if let Some(info) = &outcome.info {
            rulesets.insert(catalog.items[*i].id.as_str(), info);
        }
        games.push((*i, Arc::clone(&outcome.game)));
    }
    for item in &catalog.items {
        if item.kind == Some(Kind::Board) {
            check_played_with(catalog, item, &rulesets, diagnostics);
        }
    }
    cache.taken = checked.iter().filter(|(.., taken)| *taken).count();
    // Only this catalog's games: the cache never grows past the catalog. When every game was taken from it and
    // it holds no more than them, it holds just them already: the preview server's pass after an edit of a
    // record leaves 8,000 games at 10,000 items to file again otherwise.
    if cache.taken < checked.len() || cache.games.len() != checked.len() {
        cache.games = checked
            .into_iter()
            .map(|(_, key, outcome, _)| (key, outcome))
            .collect();
    }
    RulesChecked { cited, games }
}

/// What a game's replay depends on: the program, its rules and its game records (their paths and bytes, hashed
/// as they were read). Not the item's record: the check of a game reads nothing of it, and an archivist edits
/// records' values far more often than rules.
fn game_key(item: &Item, program: &Hash) -> Hash {
    fingerprint::bytes(program, [&item.game_files_hash[..]])
}

/// The code of the error for a work cited that the bibliography does not hold.
const UNKNOWN_WORK: &str = "E101";

/// One game: its rules compile (each ruleset once), its rulesets cite known sources, its records replay (unless
/// `replay` is false: an earlier run replayed these very files cleanly).
fn check_game(
    catalog: &Catalog,
    item: &Item,
    rules_file: FileId,
    (key, replay): (Hash, bool),
    shared: &Shared,
) -> GameOutcome {
    let mut diagnostics = Diagnostics::new();
    let mut cited = FastSet::default();
    let text = &catalog.files.get(rules_file).text();
    // Check replays and draws; it plays no random games.
    let (info, compiled) = match RulesFile::parse_all_for_replay(text) {
        Ok((file, compiled)) => (file.info(), compiled),
        Err(errors) => {
            let rules = from_compiled(Err(&errors[0]), shared);
            for err in errors {
                diagnostics.push(rules_diagnostic(&catalog.files, rules_file, err));
            }
            cited.extend(sources_written(text));
            // The records are still read, so that pages can list them; they cannot be replayed.
            let records = item
                .game_records
                .iter()
                .map(|&f| {
                    Record::parse_counting(&catalog.files.get(f).text())
                        .ok()
                        .map(|(r, count)| RecordSummary::of(&r, count))
                })
                .collect();
            return GameOutcome {
                diagnostics,
                cited,
                info: None,
                game: Arc::new(HeldGame::made(CheckedGame { rules, records }, key, false)),
            };
        }
    };
    let rules = from_compiled(Ok((&info, &compiled)), shared);
    for ruleset in &info.rulesets {
        cite(
            catalog,
            rules_file,
            (ruleset.source_line, ruleset.source_column),
            &ruleset.source,
            &format!("ruleset `{}`", ruleset.name),
            &mut cited,
            &mut diagnostics,
        );
    }
    let mut own = Diagnostics::new();
    let records = replay_records(
        catalog,
        item,
        (&compiled, &info, replay),
        shared,
        &mut cited,
        &mut own,
    );
    let clean = diagnostics.is_empty() && own.is_empty();
    for d in own.into_vec() {
        diagnostics.push(d);
    }
    GameOutcome {
        diagnostics,
        cited,
        info: Some(info),
        game: Arc::new(HeldGame::made(CheckedGame { rules, records }, key, clean)),
    }
}

/// A rules error as a diagnostic of the loaded rules file, under the code of its kind (docs/diagnostics.md). The
/// CLI's engine commands report rules errors through this too, so they read as `check`'s do.
pub fn rules_diagnostic(files: &SourceMap, file: FileId, err: RulesError) -> Diagnostic {
    let (code, message) = match err.kind {
        ErrorKind::Invalid => ("E100", format!("the rules do not compile: {}", err.message)),
        ErrorKind::UnknownName => ("E107", err.message),
        ErrorKind::Missing => ("E108", err.message),
        ErrorKind::PointOnNoLine => ("E109", err.message),
        ErrorKind::Disconnected => ("E110", err.message),
    };
    Diagnostic::error(code, message)
        .at_line_column(
            files,
            file,
            err.line as usize,
            err.column as usize,
            err.length as usize,
        )
        .with_help(err.help)
}

/// The keys a rules file that does not compile names after `source`, lowercase. Its rulesets are not known, but
/// the works they cite are still cited: the bibliography must not call them uncited (W004) on top of the
/// error that stopped the compiler.
fn sources_written(text: &str) -> impl Iterator<Item = String> + '_ {
    text.lines().filter_map(|line| {
        let mut words = line.split('#').next().unwrap_or("").split_whitespace();
        (words.next() == Some("source"))
            .then(|| words.next())
            .flatten()
            .map(|key| key.trim_matches('"').to_ascii_lowercase())
    })
}

/// A bibliography key cited from a rules file or a game record must exist.
fn cite(
    catalog: &Catalog,
    file: FileId,
    (line, column): (u32, u32),
    key: &str,
    what: &str,
    cited: &mut FastSet<String>,
    diagnostics: &mut Diagnostics,
) {
    cited.insert(key.to_ascii_lowercase());
    if catalog.sources.get(key).is_some() {
        return;
    }
    let keys = catalog.sources.entries.iter().map(|e| e.key.value.as_str());
    let help = match suggest::closest(key, keys) {
        _ if catalog.sources.unread => "fix sources.bib first; this may then go away".to_string(),
        Some(close) => format!("did you mean `{close}`?"),
        None => "add an entry with this key to sources.bib, or cite one it has".to_string(),
    };
    let mut diagnostic = Diagnostic::error(
        UNKNOWN_WORK,
        format!("{what} cites `{key}`, which is not in the bibliography"),
    )
    .at_line_column(
        &catalog.files,
        file,
        line as usize,
        column as usize,
        key.chars().count().max(1),
    )
    .with_help(help);
    if catalog.sources.unread {
        diagnostic = diagnostic.with_note(Bibliography::UNREAD_NOTE);
    }
    diagnostics.push(diagnostic);
}

/// Replay every record of a game under the ruleset it names; returns each record as parsed (`None` where it
/// does not parse), in the order of `item.game_records`.
fn replay_records(
    catalog: &Catalog,
    item: &Item,
    (compiled, info, replay): (&[(Option<String>, Compiled)], &RulesInfo, bool),
    shared: &Shared,
    cited: &mut FastSet<String>,
    diagnostics: &mut Diagnostics,
) -> Vec<Option<RecordSummary>> {
    let mut parsed = Vec::with_capacity(item.game_records.len());
    for &file in &item.game_records {
        let text = &catalog.files.get(file).text();
        // A game replayed cleanly before needs only each record's tags and length, not its moves.
        let parsed_record = if replay {
            Record::parse(text).map(|record| {
                let count = record.moves.len();
                (record, count)
            })
        } else {
            Record::parse_counting(text)
        };
        let (record, move_count) = match parsed_record {
            Ok(parsed) => parsed,
            Err(err) => {
                diagnostics.push(record_diagnostic(&catalog.files, file, err, None));
                parsed.push(None);
                continue;
            }
        };
        check_record(
            catalog,
            file,
            (compiled, info, replay),
            &record,
            cited,
            diagnostics,
        );
        let mut summary = RecordSummary::of(&record, move_count);
        summary.start = puzzle_start(compiled, &record, shared);
        parsed.push(Some(summary));
    }
    parsed
}

/// A puzzle's starting position drawn, with the side to move, for the list of puzzles: reading a position is
/// cheap beside the replay, and only puzzles are drawn (a demonstration's position is not listed anywhere).
fn puzzle_start(
    compiled: &[(Option<String>, Compiled)],
    record: &Record,
    shared: &Shared,
) -> Option<PuzzleStart> {
    let tag = |name: &str| {
        record
            .tags
            .iter()
            .find(|t| t.name == name)
            .map(|t| t.value.as_str())
    };
    if tag("Kind") != Some("puzzle") {
        return None;
    }
    let game = match tag("Ruleset") {
        Some(name) => compiled.iter().find(|(n, _)| n.as_deref() == Some(name)),
        None => compiled.first(),
    };
    let (_, game) = game?;
    let position = game.parse_position(tag("Position")?).ok()?;
    let to_move = ludotheca_engine::Game::side_to_move(game, &position);
    Some(PuzzleStart {
        diagram: shared.share(diagram_at(game, &position)),
        to_move,
    })
}

/// One parsed record: its source is known, its ruleset exists, and it replays.
fn check_record(
    catalog: &Catalog,
    file: FileId,
    (compiled, info, replay): (&[(Option<String>, Compiled)], &RulesInfo, bool),
    record: &Record,
    cited: &mut FastSet<String>,
    diagnostics: &mut Diagnostics,
) {
    let at = |line: u32, column: u32, length: usize, d: Diagnostic| {
        d.at_line_column(&catalog.files, file, line as usize, column as usize, length)
    };
    {
        if let Some(tag) = record.tags.iter().find(|t| t.name == "Source") {
            cite(
                catalog,
                file,
                (tag.line, tag.column),
                &tag.value,
                "the game record",
                cited,
                diagnostics,
            );
        }
        let ruleset_tag = record.tags.iter().find(|t| t.name == "Ruleset");
        if let Some(tag) = ruleset_tag
            && !info.rulesets.iter().any(|r| r.name == tag.value)
        {
            let names: Vec<&str> = info.rulesets.iter().map(|r| r.name.as_str()).collect();
            let help = match suggest::closest(&tag.value, names.iter().copied()) {
                Some(close) => format!("did you mean `{close}`?"),
                None if names.is_empty() => {
                    "this game's rules declare no rulesets: remove the tag".to_string()
                }
                None => format!("the rulesets of this game are: {}", names.join(", ")),
            };
            diagnostics.push(
                at(
                    tag.line,
                    tag.column,
                    tag.value.chars().count().max(1),
                    Diagnostic::error(
                        "E104",
                        format!(
                            "the game record names ruleset `{}`, which the rules do not declare",
                            tag.value
                        ),
                    ),
                )
                .with_help(help),
            );
            return;
        }
        // A record without a ruleset plays the first one (or the base rules): the first compiled.
        let game = match ruleset_tag {
            Some(tag) => compiled
                .iter()
                .find(|(n, _)| n.as_deref() == Some(tag.value.as_str())),
            None => compiled.first(),
        };
        let Some((_, game)) = game else { return };
        if !replay {
            return;
        }
        // Only success or the error matters here: `check` keeps no copy of the positions.
        if let Err(err) = record::check(game, record) {
            diagnostics.push(record_diagnostic(&catalog.files, file, err, Some(record)));
        }
        check_wrong_lines(game, record, &at, diagnostics);
    }
}

/// A puzzle's `Wrong` tag holds wrong lines (joined by `;`) that the board plays out to their refutation
/// when a visitor chooses one: each must replay from the puzzle's position, as the board will replay it.
fn check_wrong_lines(
    game: &Compiled,
    record: &Record,
    at: &dyn Fn(u32, u32, usize, Diagnostic) -> Diagnostic,
    diagnostics: &mut Diagnostics,
) {
    let (Some(tag), Some(position)) = (
        record.tags.iter().find(|t| t.name == "Wrong"),
        record.tag("Position"),
    ) else {
        return;
    };
    for line in tag.value.split(';').filter(|l| !l.trim().is_empty()) {
        let text = format!(
            "[Event \"wrong line\"]\n[Kind \"demonstration\"]\n[Position \"{position}\"]\n\n{line}\n"
        );
        let result = Record::parse(&text).and_then(|r| record::check(game, &r).map(|_| ()));
        if let Err(err) = result {
            diagnostics.push(
                at(
                    tag.line,
                    tag.column,
                    tag.value.chars().count().max(1),
                    Diagnostic::error(
                        "E105",
                        format!(
                            "the wrong line `{}` does not replay from the puzzle's position: {}",
                            line.trim(),
                            err.message
                        ),
                    ),
                )
                .with_help(
                    "write each wrong line from the puzzle's position, in the notation of the moves, and \
                     join lines with `;`",
                ),
            );
        }
    }
}

/// A game record's error as a diagnostic of its file: unreadable (E102, `record` is `None`), an illegal move
/// (E103, with the legal moves), or a record that does not replay (E105). `ludotheca show` reports through this
/// too.
pub fn record_diagnostic(
    files: &SourceMap,
    file: FileId,
    err: RecordError,
    record: Option<&Record>,
) -> Diagnostic {
    let Some(record) = record else {
        return Diagnostic::error("E102", format!("unreadable game record: {}", err.message))
            .at_line_column(
                files,
                file,
                err.line as usize,
                err.column as usize,
                err.length.max(1) as usize,
            )
            .with_help(err.help);
    };
    let illegal = !err.legal.is_empty();
    // Underline the whole move when the error is at one.
    let length = record
        .moves
        .iter()
        .find(|m| m.line == err.line && m.column == err.column)
        .map_or(err.length.max(1) as usize, |m| {
            record.text_of(m).chars().count().max(1)
        });
    let mut d = Diagnostic::error(
        if illegal { "E103" } else { "E105" },
        if illegal {
            format!("illegal move: {}", err.message)
        } else {
            format!("the game record does not replay: {}", err.message)
        },
    )
    .at_line_column(files, file, err.line as usize, err.column as usize, length)
    .with_help(&err.help);
    if illegal {
        d = d.with_note(format!("legal moves here: {}", err.legal_note()));
    }
    d
}

/// A board's `playedWith ruleset="..."` must name a ruleset of that game.
fn check_played_with(
    catalog: &Catalog,
    item: &Item,
    rulesets: &FastMap<&str, &RulesInfo>,
    diagnostics: &mut Diagnostics,
) {
    for link in &item.played_with {
        let (Some(game), Some(ruleset)) = (&link.game, &link.ruleset) else {
            continue;
        };
        // An unknown game is reported by the identifier checks; a game whose rules do not compile, by E100.
        let Some(info) = rulesets.get(game.value.as_str()) else {
            continue;
        };
        if info.rulesets.iter().any(|r| r.name == ruleset.value) {
            continue;
        }
        let names: Vec<&str> = info.rulesets.iter().map(|r| r.name.as_str()).collect();
        let help = match suggest::closest(&ruleset.value, names.iter().copied()) {
            Some(close) => format!("did you mean `{close}`?"),
            None => format!(
                "the rulesets of `{}` are: {}",
                game.value,
                if names.is_empty() {
                    "(none)".to_string()
                } else {
                    names.join(", ")
                }
            ),
        };
        diagnostics.push(
            Diagnostic::error(
                "E106",
                format!("`{}` has no ruleset named `{}`", game.value, ruleset.value),
            )
            .at(&catalog.files, item.file, ruleset.span.clone())
            .with_help(help),
        );
    }
}
