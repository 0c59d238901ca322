//! The playable side of a catalog: every rules file compiles, every ruleset cites a source the bibliography
//! has, every game record replays move by move under the ruleset it names, and every board names a ruleset
//! its game really has. The rules engine reports positions as line:column; they are turned into spans of the
//! loaded files here, so these diagnostics look like every other.

use std::collections::{HashMap, HashSet};

use rayon::prelude::*;

use ludotheca_engine::record::{self, Record};
use ludotheca_engine::ruleset::RulesInfo;
use ludotheca_engine::{Compiled, RulesFile};

use crate::catalog::{Catalog, Item, Kind};
use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::source::FileId;
use crate::suggest;

/// How many legal moves a diagnostic lists before it says "and N more": enough to see the position's options,
/// short enough to read.
const LEGAL_MOVES_SHOWN: usize = 40;

/// What checking one game gives: its diagnostics, the bibliography keys it cites, and its identifier with what
/// its rules declare (none when they do not compile).
type GameChecked<'a> = (Diagnostics, HashSet<String>, Option<(&'a str, RulesInfo)>);

/// Check the rules and game records of every game, and the rulesets boards name. Returns the bibliography
/// keys cited from rules files and game records (lowercase), so the bibliography check does not call them
/// uncited.
pub fn check_rules(catalog: &Catalog, diagnostics: &mut Diagnostics) -> HashSet<String> {
    // Games are independent, and replaying long records is most of the check's time on a large catalog, so
    // games are checked in parallel, each into its own diagnostics, then gathered in catalog order (the caller
    // sorts them, so the output never depends on scheduling).
    let checked: Vec<GameChecked> = catalog
        .items
        .par_iter()
        .filter(|item| item.kind == Some(Kind::Game))
        .filter_map(|item| item.rules_file.map(|file| (item, file)))
        .map(|(item, rules_file)| {
            let mut diagnostics = Diagnostics::new();
            let mut cited = HashSet::new();
            let info = check_game(catalog, item, rules_file, &mut cited, &mut diagnostics);
            (
                diagnostics,
                cited,
                info.map(|info| (item.id.as_str(), info)),
            )
        })
        .collect();
    let mut cited = HashSet::new();
    let mut rulesets: HashMap<&str, RulesInfo> = HashMap::new();
    for (own, own_cited, info) in checked {
        for diagnostic in own.into_vec() {
            diagnostics.push(diagnostic);
        }
        cited.extend(own_cited);
        if let Some((id, info)) = info {
            rulesets.insert(id, info);
        }
    }
    for item in &catalog.items {
        if item.kind == Some(Kind::Board) {
            check_played_with(catalog, item, &rulesets, diagnostics);
        }
    }
    cited
}

/// One game: its rules compile, its rulesets cite known sources, its records replay. Returns what the rules
/// declare, for the boards that name a ruleset, or `None` when the rules do not compile.
fn check_game(
    catalog: &Catalog,
    item: &Item,
    rules_file: FileId,
    cited: &mut HashSet<String>,
    diagnostics: &mut Diagnostics,
) -> Option<RulesInfo> {
    let text = &catalog.files.get(rules_file).text;
    let rules = match RulesFile::parse(text) {
        Ok(rules) => rules,
        Err(err) => {
            diagnostics.push(
                Diagnostic::error("E100", format!("the rules do not compile: {}", err.message))
                    .at_line_column(
                        &catalog.files,
                        rules_file,
                        err.line as usize,
                        err.column as usize,
                        1,
                    )
                    .with_help(err.help),
            );
            return None;
        }
    };
    let info = rules.info();
    for ruleset in &info.rulesets {
        cite(
            catalog,
            rules_file,
            (ruleset.source_line, ruleset.source_column),
            &ruleset.source,
            &format!("ruleset `{}`", ruleset.name),
            cited,
            diagnostics,
        );
    }
    replay_records(catalog, item, &rules, &info, cited, diagnostics);
    Some(info)
}

/// A bibliography key cited from a rules file or a game record must exist.
fn cite(
    catalog: &Catalog,
    file: FileId,
    (line, column): (u32, u32),
    key: &str,
    what: &str,
    cited: &mut HashSet<String>,
    diagnostics: &mut Diagnostics,
) {
    cited.insert(key.to_ascii_lowercase());
    if catalog.sources.get(key).is_some() {
        return;
    }
    let keys = catalog.sources.entries.iter().map(|e| e.key.value.as_str());
    let help = match suggest::closest(key, keys) {
        Some(close) => format!("did you mean `{close}`?"),
        None => "add an entry with this key to sources.bib, or cite one it has".to_string(),
    };
    diagnostics.push(
        Diagnostic::error(
            "E101",
            format!("{what} cites `{key}`, which is not in the bibliography"),
        )
        .at_line_column(
            &catalog.files,
            file,
            line as usize,
            column as usize,
            key.chars().count().max(1),
        )
        .with_help(help),
    );
}

fn replay_records(
    catalog: &Catalog,
    item: &Item,
    rules: &RulesFile,
    info: &RulesInfo,
    cited: &mut HashSet<String>,
    diagnostics: &mut Diagnostics,
) {
    // Records of one game mostly share a few rulesets: compile each once.
    let mut compiled: HashMap<Option<String>, Option<Compiled>> = HashMap::new();
    for &file in &item.game_records {
        let text = &catalog.files.get(file).text;
        let at = |line: u32, column: u32, length: usize, d: Diagnostic| {
            d.at_line_column(&catalog.files, file, line as usize, column as usize, length)
        };
        let record = match Record::parse(text) {
            Ok(record) => record,
            Err(err) => {
                diagnostics.push(
                    at(
                        err.line,
                        err.column,
                        1,
                        Diagnostic::error(
                            "E102",
                            format!("unreadable game record: {}", err.message),
                        ),
                    )
                    .with_help(err.help),
                );
                continue;
            }
        };
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
            continue;
        }
        let name = ruleset_tag.map(|t| t.value.clone());
        let game = compiled
            .entry(name.clone())
            .or_insert_with(|| rules.compile(name.as_deref()).ok());
        // `RulesFile::parse` compiled every ruleset already, so this only fails for a ruleset it did not know,
        // which the check just above has reported.
        let Some(game) = game else { continue };
        // Only success or the error matters here: `check` keeps no copy of the positions.
        if let Err(err) = record::check(game, &record) {
            let illegal = !err.legal.is_empty();
            // Underline the whole move when the error is at one.
            let length = record
                .moves
                .iter()
                .find(|m| m.line == err.line && m.column == err.column)
                .map_or(1, |m| m.text.chars().count().max(1));
            let mut d = at(
                err.line,
                err.column,
                length,
                Diagnostic::error(
                    if illegal { "E103" } else { "E105" },
                    if illegal {
                        format!("illegal move: {}", err.message)
                    } else {
                        format!("the game record does not replay: {}", err.message)
                    },
                ),
            )
            .with_help(err.help);
            if illegal {
                d = d.with_note(legal_moves_note(&err.legal));
            }
            diagnostics.push(d);
        }
    }
}

fn legal_moves_note(legal: &[String]) -> String {
    let shown = &legal[..legal.len().min(LEGAL_MOVES_SHOWN)];
    let mut note = format!("legal moves here: {}", shown.join(" "));
    if legal.len() > shown.len() {
        note.push_str(&format!(" (and {} more)", legal.len() - shown.len()));
    }
    note
}

/// A board's `playedWith ruleset="..."` must name a ruleset of that game.
fn check_played_with(
    catalog: &Catalog,
    item: &Item,
    rulesets: &HashMap<&str, RulesInfo>,
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
