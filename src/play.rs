//! The engine's commands for people who write rules: `perft`, `moves`, `bench` and `show`. Each finds a game's
//! rules (by catalog identifier, or a rules file given directly), compiles the chosen ruleset and prints plain
//! text (or JSON) that scripts can read.

use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use ludotheca_engine::game::TooManyMoves;
use ludotheca_engine::record::{self, Record, RecordError};
use ludotheca_engine::rules::CompiledRuleset;
use ludotheca_engine::ruleset::Family;
use ludotheca_engine::{AnyPosition, Compiled, Game, Outcome, RulesError, RulesFile};

use crate::catalog::{self, Kind};
use crate::check::rules::{record_diagnostic, rules_diagnostic};
use crate::diagnostic::Diagnostics;
use crate::source::{FileId, SourceMap};

/// Where a game's rules come from.
pub enum RulesSource {
    /// A game of the catalog, by identifier.
    Catalog { catalog: PathBuf, game: String },
    /// A rules file, for trying rules out before they are catalogued.
    File(PathBuf),
}

/// A game's rules, read and compiled for one ruleset.
pub struct LoadedRules {
    pub game: Compiled,
    /// The ruleset played (`None`: the base rules of a file that declares none).
    pub ruleset: Option<String>,
    /// The whole rules file, and every ruleset compiled, for records that name another ruleset.
    pub rules: RulesFile,
    pub compiled: Vec<CompiledRuleset>,
    /// The file as read, for diagnostics that quote it.
    pub files: SourceMap,
    pub file: FileId,
    /// Where it was read from, for messages.
    pub path: PathBuf,
    /// The game's folder, when it came from the catalog: its `games/` hold the records `show` reads.
    pub folder: Option<PathBuf>,
    /// The sides' titles, the first side first.
    pub sides: Vec<String>,
}

impl LoadedRules {
    /// Which rules were played, for a report: `ruleset common ("Common modern rules")`, or the base rules.
    pub fn describe_ruleset(&self) -> String {
        let info = self.rules.info();
        match self
            .ruleset
            .as_deref()
            .and_then(|name| info.rulesets.iter().find(|r| r.name == name))
        {
            Some(r) => format!("{}, ruleset {} (\"{}\")", info.game, r.name, r.title),
            None => format!("{}, base rules", info.game),
        }
    }
}

/// Why a command could not run. All of these are the user's to fix (a wrong name, an unreadable file, a move
/// that is not legal), so the CLI reports them and exits with 2.
#[derive(Debug)]
pub enum PlayError {
    Io(PathBuf, io::Error),
    NoSuchGame {
        game: String,
        catalog: PathBuf,
        suggestion: Option<String>,
    },
    /// Problems in a file, as `check` reports them (rules errors, a record that does not read or replay).
    Diagnostics(Diagnostics),
    Record(String, RecordError),
    NoSuchRecord {
        record: String,
        available: Vec<String>,
    },
    NoSuchPly {
        ply: usize,
        plies: usize,
    },
    /// A position of the rules has more moves than the engine lists.
    TooManyMoves(TooManyMoves),
    Output(io::Error),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::Io(path, err) => write!(f, "{}: {err}", path.display()),
            PlayError::NoSuchGame {
                game,
                catalog,
                suggestion,
            } => {
                write!(f, "no game `{game}` in {}", catalog.display())?;
                if let Some(s) = suggestion {
                    write!(f, " (did you mean `{s}`?)")?;
                }
                Ok(())
            }
            PlayError::Diagnostics(diagnostics) => {
                for d in diagnostics.iter() {
                    write!(f, "{}", d.render_human(false))?;
                }
                Ok(())
            }
            PlayError::Record(what, err) => {
                write!(
                    f,
                    "{what}:{}:{}: {} (help: {})",
                    err.line, err.column, err.message, err.help
                )?;
                if !err.legal.is_empty() {
                    write!(f, "\nlegal moves here: {}", err.legal_note())?;
                }
                Ok(())
            }
            PlayError::NoSuchRecord { record, available } => write!(
                f,
                "no game record `{record}`; this game has: {}",
                if available.is_empty() {
                    "none".to_string()
                } else {
                    available.join(", ")
                }
            ),
            PlayError::NoSuchPly { ply, plies } => {
                write!(f, "ply {ply} is past the end of the record ({plies} plies)")
            }
            PlayError::TooManyMoves(err) => write!(f, "the rules cannot be played here: {err}"),
            PlayError::Output(err) => write!(f, "cannot write the output: {err}"),
        }
    }
}

impl std::error::Error for PlayError {}

impl From<io::Error> for PlayError {
    fn from(err: io::Error) -> Self {
        PlayError::Output(err)
    }
}

/// Read and compile a game's rules for `ruleset` (`None`: the first ruleset the file declares).
pub fn load_rules(source: &RulesSource, ruleset: Option<&str>) -> Result<LoadedRules, PlayError> {
    let (path, folder) = match source {
        RulesSource::File(path) => (path.clone(), None),
        RulesSource::Catalog { catalog, game } => {
            let folder = find_game(catalog, game)?;
            (folder.join("rules.txt"), Some(folder))
        }
    };
    let text = std::fs::read_to_string(&path).map_err(|e| PlayError::Io(path.clone(), e))?;
    let mut files = SourceMap::default();
    let file = files.add(path.clone(), text);
    let rules_errors = |files: &SourceMap, errors: Vec<RulesError>| {
        let mut diagnostics = Diagnostics::new();
        for err in errors {
            diagnostics.push(rules_diagnostic(files, file, err));
        }
        PlayError::Diagnostics(diagnostics)
    };
    // Every ruleset is compiled, as `check` does, so a file is refused here exactly when `check` refuses it.
    let (rules, compiled) =
        RulesFile::parse_all(&files.get(file).text()).map_err(|e| rules_errors(&files, e))?;
    let (ruleset, game) = match ruleset {
        None => compiled.first(),
        Some(name) => compiled.iter().find(|(n, _)| n.as_deref() == Some(name)),
    }
    .cloned()
    .ok_or_else(|| {
        rules_errors(
            &files,
            vec![rules.unknown_ruleset(ruleset.unwrap_or_default())],
        )
    })?;
    let mut sides: Vec<String> = rules
        .info()
        .sides
        .into_iter()
        .map(|(_, title)| title)
        .collect();
    if sides.is_empty() && game.family() == Family::Sowing {
        // Sowing rules need not name their sides; docs/sowing.md calls them South (first) and North.
        sides = vec!["South".to_string(), "North".to_string()];
    }
    Ok(LoadedRules {
        game,
        ruleset,
        rules,
        compiled,
        files,
        file,
        path,
        folder,
        sides,
    })
}

/// The folder of a catalogued game. The catalog is loaded as `check` loads it, but its diagnostics are not this
/// command's business: a game with a sound rules file can be explored while a record elsewhere is being fixed.
fn find_game(catalog: &Path, game: &str) -> Result<PathBuf, PlayError> {
    let mut ignored = Diagnostics::new();
    let loaded = catalog::load(catalog, &mut ignored)
        .map_err(|e| PlayError::Io(catalog.to_path_buf(), io::Error::other(e.to_string())))?;
    let games = || {
        loaded
            .items
            .iter()
            .filter(|i| i.kind == Some(Kind::Game) && i.has_rules_file)
    };
    match games().find(|i| i.id == game) {
        Some(item) => Ok(item.folder.clone()),
        None => Err(PlayError::NoSuchGame {
            game: game.to_string(),
            catalog: catalog.to_path_buf(),
            suggestion: crate::suggest::closest(game, games().map(|i| i.id.as_str()))
                .map(str::to_string),
        }),
    }
}

/// The deepest `perft` the command line counts. Counts grow about tenfold per ply, so depths past a dozen never
/// finish on a real game; the cap keeps a typing slip from starting one.
pub const MAX_PERFT_DEPTH: u32 = 20;

/// `perft`: the number of move sequences of each length from the start, one line per depth.
pub fn perft(game: &Compiled, depth: u32, out: &mut impl Write) -> Result<(), PlayError> {
    for d in 1..=depth.min(MAX_PERFT_DEPTH) {
        let n = game.perft(d).map_err(PlayError::TooManyMoves)?;
        writeln!(out, "{d} {n}")?;
    }
    Ok(())
}

/// The position after `after` (move text, numbers and comments allowed), from the start.
pub fn position_after(game: &Compiled, after: Option<&str>) -> Result<AnyPosition, PlayError> {
    let Some(text) = after else {
        return Ok(game.start());
    };
    let what = "--after".to_string();
    let record = Record::parse_moves(text).map_err(|e| PlayError::Record(what.clone(), e))?;
    let checked = record::check(game, &record).map_err(|e| PlayError::Record(what, e))?;
    Ok(checked.end)
}

/// `moves`: the legal moves of a position, one per line, or as JSON objects for programs.
pub fn moves(
    loaded: &LoadedRules,
    pos: &AnyPosition,
    json: bool,
    out: &mut impl Write,
) -> Result<(), PlayError> {
    let game = &loaded.game;
    let mut legal = Vec::new();
    game.legal_moves(pos, &mut legal)
        .map_err(PlayError::TooManyMoves)?;
    if json {
        let list: Vec<serde_json::Value> = legal
            .iter()
            .map(|mv| {
                let info = game.describe_move(pos, mv);
                let mut object = serde_json::json!({
                    "notation": info.notation,
                    "from": info.from,
                    "to": info.to,
                    "path": info.path,
                    "captured": info.captured,
                });
                // A sowing's holes hold any number of seeds: the count is said, where a point is one piece.
                if let Some(seeds) = info.captured_seeds {
                    object["captured_seeds"] = seeds.into();
                }
                object
            })
            .collect();
        let text = serde_json::to_string_pretty(&list).map_err(io::Error::other)?;
        writeln!(out, "{text}")?;
    } else {
        for mv in &legal {
            writeln!(out, "{}", game.format_move(pos, mv))?;
        }
        if legal.is_empty() {
            writeln!(
                out,
                "no legal moves: {}",
                describe_outcome(loaded, game, pos)
            )?;
        }
    }
    Ok(())
}

/// What `bench` measured.
pub struct BenchResult {
    pub games: u64,
    pub plies: u64,
    pub elapsed: Duration,
}

impl BenchResult {
    pub fn games_per_second(&self) -> f64 {
        self.games as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    pub fn plies_per_second(&self) -> f64 {
        self.plies as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Plies after which a benchmark playout is abandoned, for rules without a move cap.
const BENCH_MAX_PLIES: u32 = 10_000;

/// The shortest and longest `bench` runs, in seconds: shorter runs measure the clock more than the engine, and
/// a longer one is more likely a slip than a plan.
pub const BENCH_SECONDS: (f64, f64) = (0.01, 3600.0);

/// Reads `bench --seconds`: a number of seconds within `BENCH_SECONDS` (not infinite, not NaN).
pub fn parse_bench_seconds(text: &str) -> Result<f64, String> {
    let (least, most) = BENCH_SECONDS;
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if seconds.is_finite() && (least..=most).contains(&seconds) {
        Ok(seconds)
    } else {
        Err(format!(
            "{text} seconds is out of range: give a number from {least} to {most}"
        ))
    }
}

/// `bench`: random playouts from the start for about `seconds` (clamped to `BENCH_SECONDS`), deterministic in
/// the games it plays.
pub fn bench(game: &Compiled, seconds: f64, seed: u64) -> BenchResult {
    let (least, most) = BENCH_SECONDS;
    // NaN compares false with everything, so it falls to the shortest run rather than to a panic.
    let seconds = if seconds >= least {
        seconds.min(most)
    } else {
        least
    };
    let budget = Duration::from_secs_f64(seconds);
    let start = Instant::now();
    let (mut games, mut plies, mut batch, mut round) = (0, 0, 16u64, 0u64);
    // Batches grow until one takes a noticeable time, so the clock is read rarely and the overshoot stays small.
    while start.elapsed() < budget {
        let t = Instant::now();
        let stats = game.playouts(batch, seed.wrapping_add(round), BENCH_MAX_PLIES);
        games += stats.games;
        plies += stats.plies;
        round += 1;
        if t.elapsed() < budget / 20 {
            batch *= 2;
        }
    }
    BenchResult {
        games,
        plies,
        elapsed: start.elapsed(),
    }
}

/// `show`: a game record's position at a ply (default: the end), as a diagram with the moves that led there.
pub fn show(
    loaded: &LoadedRules,
    record_name: &str,
    ply: Option<usize>,
    out: &mut impl Write,
) -> Result<(), PlayError> {
    let path = find_record(loaded.folder.as_deref(), record_name)?;
    let text = std::fs::read_to_string(&path).map_err(|e| PlayError::Io(path.clone(), e))?;
    // The record's problems read as `check` reports them, quoting the file.
    let mut files = SourceMap::default();
    let file = files.add(path.clone(), text);
    let report = |err, record: Option<&Record>| {
        let mut diagnostics = Diagnostics::new();
        diagnostics.push(record_diagnostic(&files, file, err, record));
        PlayError::Diagnostics(diagnostics)
    };
    let record = Record::parse(&files.get(file).text()).map_err(|e| report(e, None))?;
    // A record is replayed under the ruleset it names, as `check` replays it.
    let game = match record.tag("Ruleset") {
        Some(ruleset) => loaded
            .compiled
            .iter()
            .find(|(n, _)| n.as_deref() == Some(ruleset))
            .map(|(_, g)| g)
            .ok_or_else(|| {
                let err = loaded.rules.unknown_ruleset(ruleset);
                let mut diagnostics = Diagnostics::new();
                diagnostics.push(rules_diagnostic(&loaded.files, loaded.file, err));
                PlayError::Diagnostics(diagnostics)
            })?,
        None => &loaded.game,
    };
    let replay = record::replay(game, &record).map_err(|e| report(e, Some(&record)))?;
    let plies = replay.moves.len();
    let at = ply.unwrap_or(plies);
    if at > plies {
        return Err(PlayError::NoSuchPly { ply: at, plies });
    }
    let pos = &replay.positions[at];
    if let Some(event) = record.tag("Event") {
        writeln!(out, "{event}")?;
    }
    let played: Vec<String> = replay.moves[..at]
        .iter()
        .zip(&replay.positions)
        .map(|(mv, before)| game.format_move(before, mv))
        .collect();
    writeln!(
        out,
        "ply {at} of {plies}{}",
        if played.is_empty() {
            String::new()
        } else {
            format!(": {}", played.join(" "))
        }
    )?;
    writeln!(out)?;
    // Point names on the board, so the moves above and the notation can be read against it.
    write!(
        out,
        "{}",
        ludotheca_engine::drawing::labelled(game, Some(pos), false)
    )?;
    writeln!(out, "{}", game.format_position(pos))?;
    writeln!(out, "{}", describe_outcome(loaded, game, pos))?;
    Ok(())
}

/// A record by file name (with or without `.game`) in the game's `games/` folder, or a path to any record.
fn find_record(folder: Option<&Path>, name: &str) -> Result<PathBuf, PlayError> {
    let direct = PathBuf::from(name);
    if direct.is_file() {
        return Ok(direct);
    }
    let Some(folder) = folder else {
        return Err(PlayError::NoSuchRecord {
            record: name.to_string(),
            available: vec![],
        });
    };
    let games = folder.join("games");
    let file = if name.ends_with(".game") {
        name.to_string()
    } else {
        format!("{name}.game")
    };
    let path = games.join(&file);
    if path.is_file() {
        return Ok(path);
    }
    let mut available: Vec<String> = std::fs::read_dir(&games)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok())
                .filter_map(|e| {
                    e.file_name()
                        .to_str()
                        .and_then(|n| n.strip_suffix(".game"))
                        .map(str::to_string)
                })
                .collect()
        })
        .unwrap_or_default();
    available.sort();
    Err(PlayError::NoSuchRecord {
        record: name.to_string(),
        available,
    })
}

/// How the game stands in `pos` under `game` (the ruleset the position was reached under), with side titles.
fn describe_outcome(loaded: &LoadedRules, game: &Compiled, pos: &AnyPosition) -> String {
    let name = |s: u8| {
        loaded
            .sides
            .get(s as usize)
            .cloned()
            .unwrap_or_else(|| format!("side {s}"))
    };
    match game.outcome(pos) {
        Some(Outcome::Win(s)) => format!("game over: {} win", name(s)),
        Some(Outcome::Draw) => "game over: drawn".to_string(),
        None => format!("{} to move", name(game.side_to_move(pos))),
    }
}
