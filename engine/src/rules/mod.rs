//! The rules language: a rules file is parsed (`RulesFile::parse`), its rulesets listed (`RulesFile::info`), and
//! any ruleset compiled into a playable game (`RulesFile::compile`). The language is described in
//! docs/rules-format.md.

mod compile;
pub mod error;
pub mod syntax;

pub use error::{ErrorKind, Pos, RulesError, line_column};

use crate::ruleset::{Family, RulesInfo, RulesetInfo, RulesetType};
use crate::suggest::help_with;
use syntax::{Item, Line, TokenKind};

/// A compiled ruleset and its name (`None` for the base rules of a file that declares no ruleset).
pub type CompiledRuleset = (Option<String>, crate::Compiled);

/// A ruleset as written: its declaration and the statements that differ from the base rules.
#[derive(Clone, Debug, PartialEq)]
pub struct RulesetDecl {
    pub info: RulesetInfo,
    items: Vec<Item>,
    /// Where its name is written, for errors about the list of rulesets.
    name_pos: Pos,
}

/// A parsed rules file: the base statements and the rulesets.
#[derive(Clone, Debug, PartialEq)]
pub struct RulesFile {
    pub game: String,
    /// Where the `game` line stands (or the first statement, when there is none): the file's header, where a
    /// missing board, side, piece kind or setup is reported.
    header: Pos,
    base: Vec<Item>,
    pub rulesets: Vec<RulesetDecl>,
}

/// A statement together with the key a ruleset uses to replace it.
#[derive(Clone, Debug)]
struct Entry<'a> {
    key: String,
    /// Borrowed from the parsed file, but for a sowing block's head, made anew without its statements.
    item: std::borrow::Cow<'a, Item>,
}

/// The word at token `i` of a line, or "" where there is none.
pub(super) fn word_at(line: &Line, i: usize) -> String {
    line.tokens
        .get(i)
        .and_then(|t| t.word())
        .unwrap_or("")
        .to_string()
}

/// The key under which a statement is replaced by a ruleset: statements about the same thing share a key.
fn key_of(item: &Item) -> String {
    let head = item.head();
    let kw = head.keyword();
    match kw {
        // An outcome for one side (`... for vulture`) replaces that side's outcome only.
        "side" | "piece" | "region" | "outcome" => {
            let side = head.tokens.iter().position(|t| t.is_word("for"));
            format!(
                "{kw} {} {}",
                word_at(head, 1),
                word_at(head, side.map_or(0, |i| i + 1))
            )
        }
        // `repetition forbidden for goats` replaces the goats' rule only, whichever word it has.
        "repetition" => {
            let side = head.tokens.iter().position(|t| t.is_word("for"));
            format!(
                "repetition {}",
                side.map_or(String::new(), |i| word_at(head, i + 1))
            )
        }
        // promote KIND to KIND for SIDE ...
        "promote" => format!("promote {} {}", word_at(head, 1), word_at(head, 5)),
        _ => kw.to_string(),
    }
}

/// Reports each statement of `items` (one scope: the base rules, or one ruleset) that states again what an
/// earlier one of the same scope states: a second `piece man`, `setup`, `board`, a sowing block's second
/// `holes`. Compiled, one of the two would be dropped without a word (the first or the last, by statement),
/// whereas the language says the order of statements does not matter.
fn said_twice(items: &[Item], errors: &mut Vec<RulesError>) {
    // A list, not a map: a scope holds tens of statements, and a map's hashing would grow the page's
    // WebAssembly by kilobytes.
    let mut first: Vec<(String, u32)> = Vec::new();
    for entry in entries(items) {
        let head = entry.item.head();
        match first.iter().find(|(key, _)| *key == entry.key) {
            Some(&(_, line)) => {
                // Named as the statement names itself: its keyword, its name, and the side it is for.
                let mut what = head.keyword().to_string();
                if let Some(name) = head.tokens.get(1).and_then(|t| t.word()) {
                    what = format!("{what} {name}");
                }
                if let Some(i) = head.tokens.iter().position(|t| t.is_word("for")) {
                    what = format!("{what} for {}", word_at(head, i + 1));
                }
                errors.push(RulesError::new(
                    head.pos(),
                    format!("`{what}` is stated twice; the first is at line {line}"),
                    "keep one: a variant of the rules states its own in a `ruleset` block",
                ));
            }
            None => first.push((entry.key, head.pos().line)),
        }
    }
}

/// Flattens items into keyed entries; a sowing block's statements are keyed one by one so a ruleset can
/// change one setting of it. The block itself comes first, keyed `sowing`, for where it ends.
fn entries(items: &[Item]) -> Vec<Entry<'_>> {
    let mut out = Vec::new();
    for item in items {
        match item {
            Item::Block { head, items, close } if head.keyword() == "sowing" => {
                out.push(Entry {
                    key: "sowing".into(),
                    item: std::borrow::Cow::Owned(Item::Block {
                        head: head.clone(),
                        items: Vec::new(),
                        close: *close,
                    }),
                });
                for inner in items {
                    out.push(Entry {
                        key: format!("sowing.{}", key_of(inner)),
                        item: std::borrow::Cow::Borrowed(inner),
                    });
                }
            }
            _ => out.push(Entry {
                key: key_of(item),
                item: std::borrow::Cow::Borrowed(item),
            }),
        }
    }
    out
}

fn expect_str(line: &Line, i: usize, what: &str) -> Result<String, RulesError> {
    match line.tokens.get(i) {
        Some(t) => match &t.kind {
            TokenKind::Str(s) => Ok(s.clone()),
            _ => Err(RulesError::new(
                t.pos,
                format!("expected {what} in double quotes, found {}", t.show()),
                format!("write {what} like \"...\""),
            )),
        },
        None => Err(RulesError::new(
            line.end,
            format!("{what} is missing"),
            format!("write {what} in double quotes"),
        )),
    }
}

/// Errors in the order of the file, each once (a base statement in error is met again by every ruleset).
fn tidy(mut errors: Vec<RulesError>) -> Vec<RulesError> {
    errors.sort_by(|a, b| (a.line, a.column, &a.message).cmp(&(b.line, b.column, &b.message)));
    errors.dedup_by(|a, b| a.line == b.line && a.column == b.column && a.message == b.message);
    errors
}

impl RulesFile {
    /// Reads a rules file and compiles every ruleset; errors carry the line and column of the problem. The
    /// first error of the file, for callers that show one; `parse_all` gives them all.
    pub fn parse(src: &str) -> Result<RulesFile, RulesError> {
        Self::parse_compiled(src).map(|(file, _)| file)
    }

    /// `parse_all` with the first error only.
    pub fn parse_compiled(src: &str) -> Result<(RulesFile, Vec<CompiledRuleset>), RulesError> {
        Self::parse_all(src).map_err(|mut errors| errors.swap_remove(0))
    }

    /// Reads a rules file and compiles each of its rulesets (the base rules alone when it declares none): the
    /// compiled games come back in declaration order, named (`None` for the base rules), so that a caller who
    /// needs them does not compile them a second time. On failure, every problem of the file, in the order of
    /// the file (never an empty list): reading goes on after each, and every ruleset is compiled even when an
    /// earlier one fails.
    pub fn parse_all(src: &str) -> Result<(RulesFile, Vec<CompiledRuleset>), Vec<RulesError>> {
        RulesFile::parse_all_with(src, true)
    }

    /// [`RulesFile::parse_all`] for a caller that replays records and draws positions but plays few random
    /// games: the games are compiled without the tables that make random games fast
    /// (`LinesGame::for_replay`), which were most of the time compiling took.
    pub fn parse_all_for_replay(
        src: &str,
    ) -> Result<(RulesFile, Vec<CompiledRuleset>), Vec<RulesError>> {
        RulesFile::parse_all_with(src, false)
    }

    fn parse_all_with(
        src: &str,
        playout_tables: bool,
    ) -> Result<(RulesFile, Vec<CompiledRuleset>), Vec<RulesError>> {
        let mut errors = Vec::new();
        let items = syntax::parse(src, &mut errors);
        // A block never closed swallows the statements after it, which would each read as misplaced: its own
        // error says it all.
        if errors
            .iter()
            .any(|e| e.message.ends_with("is never closed"))
        {
            return Err(tidy(errors));
        }
        // Lines the tokenizer could not read whole are not compiled again into errors of their own.
        let unreadable: Vec<u32> = errors.iter().map(|e| e.line).collect();
        let header = items
            .iter()
            .find(|i| i.head().keyword() == "game")
            .or(items.first())
            .map_or(Pos::at(1, 1), |i| i.head().pos());
        let mut game = None;
        let mut base = Vec::new();
        let mut rulesets: Vec<RulesetDecl> = Vec::new();
        for item in items {
            match &item {
                Item::Stmt(line) if line.keyword() == "game" => {
                    if game.is_some() {
                        errors.push(RulesError::new(
                            line.pos(),
                            "the game is named twice",
                            "keep one `game` line",
                        ));
                    }
                    match expect_str(line, 1, "the game's name") {
                        Ok(name) => game = Some(name),
                        Err(e) => errors.push(e),
                    }
                }
                Item::Block { head, items, close } if head.keyword() == "ruleset" => {
                    let Some(decl) = parse_ruleset(head, items, *close, &mut errors) else {
                        continue;
                    };
                    if let Some(prev) = rulesets.iter().find(|r| r.info.name == decl.info.name) {
                        errors.push(RulesError::new(
                            decl.name_pos,
                            format!("ruleset `{}` is declared twice", decl.info.name),
                            format!(
                                "the first declaration is at line {}; give each ruleset its own name",
                                prev.info.line
                            ),
                        ));
                        continue;
                    }
                    rulesets.push(decl);
                }
                _ => base.push(item),
            }
        }
        said_twice(&base, &mut errors);
        for ruleset in &rulesets {
            said_twice(&ruleset.items, &mut errors);
        }
        if game.is_none() && !errors.iter().any(|e| e.line == header.line) {
            errors.push(
                RulesError::new(
                    header.start(),
                    "the file does not name its game",
                    "start the file with a line like `game \"Terhuchu\"`",
                )
                .of_kind(ErrorKind::Missing),
            );
        }
        let file = RulesFile {
            game: game.unwrap_or_default(),
            header,
            base,
            rulesets,
        };
        // Compile every ruleset now, so that a file either is wholly playable or reports where it is not.
        let mut compiled = Vec::new();
        let names: Vec<Option<String>> = if file.rulesets.is_empty() {
            vec![None]
        } else {
            file.rulesets
                .iter()
                .map(|r| Some(r.info.name.clone()))
                .collect()
        };
        for name in names {
            match file.compile_with(name.as_deref(), playout_tables) {
                Ok(game) => compiled.push((name, game)),
                Err(e) => errors.extend(e.into_iter().filter(|e| !unreadable.contains(&e.line))),
            }
        }
        if errors.is_empty() {
            Ok((file, compiled))
        } else {
            Err(tidy(errors))
        }
    }

    /// The game's name, family, sides and rulesets.
    pub fn info(&self) -> RulesInfo {
        let all = entries(&self.base);
        let family = if all.iter().any(|e| e.key.starts_with("sowing")) {
            Family::Sowing
        } else {
            Family::PointsAndLines
        };
        let sides = all
            .iter()
            .filter(|e| e.key.starts_with("side "))
            .map(|e| {
                let h = e.item.head();
                let name = word_at(h, 1);
                let title = match h.tokens.get(2).map(|t| &t.kind) {
                    Some(TokenKind::Str(s)) => s.clone(),
                    _ => name.clone(),
                };
                (name, title)
            })
            .collect();
        RulesInfo {
            game: self.game.clone(),
            family,
            sides,
            rulesets: self.rulesets.iter().map(|r| r.info.clone()).collect(),
        }
    }

    /// The error for a ruleset name the file does not declare: at the file's list of rulesets (the first
    /// declared), with the closest name.
    pub fn unknown_ruleset(&self, name: &str) -> RulesError {
        let names: Vec<&str> = self.rulesets.iter().map(|r| r.info.name.as_str()).collect();
        let (at, help) = match self.rulesets.first() {
            Some(first) => (
                first.name_pos,
                help_with(
                    name,
                    names.iter().copied(),
                    &format!("the rulesets are: {}", names.join(", ")),
                ),
            ),
            None => (
                self.header,
                "this file declares no ruleset: its base rules are played".to_string(),
            ),
        };
        RulesError::new(
            at,
            format!("the rules declare no ruleset named `{name}`"),
            help,
        )
        .of_kind(ErrorKind::UnknownName)
    }

    /// The statements in force for a ruleset: the base, with each of the ruleset's statements replacing the base
    /// statement with the same key in place (or added at the end).
    fn effective(&self, ruleset: Option<&str>) -> Result<Vec<Entry<'_>>, RulesError> {
        let mut all = entries(&self.base);
        let chosen = match ruleset {
            Some(name) => Some(
                self.rulesets
                    .iter()
                    .find(|r| r.info.name == name)
                    .ok_or_else(|| self.unknown_ruleset(name))?,
            ),
            None => self.rulesets.first(),
        };
        if let Some(r) = chosen {
            for e in entries(&r.items) {
                if let Some(slot) = all.iter_mut().find(|a| a.key == e.key) {
                    *slot = e;
                } else {
                    all.push(e);
                }
            }
        }
        Ok(all)
    }

    /// Compiles a ruleset (`None`: the first ruleset, or the base rules when there is none); the first error.
    pub fn compile(&self, ruleset: Option<&str>) -> Result<crate::Compiled, RulesError> {
        self.compile_all(ruleset)
            .map_err(|mut errors| errors.swap_remove(0))
    }

    /// Compiles a ruleset, or says every problem found in it, in the order of the file.
    pub fn compile_all(&self, ruleset: Option<&str>) -> Result<crate::Compiled, Vec<RulesError>> {
        self.compile_with(ruleset, true)
    }

    fn compile_with(
        &self,
        ruleset: Option<&str>,
        playout_tables: bool,
    ) -> Result<crate::Compiled, Vec<RulesError>> {
        let all = self.effective(ruleset).map_err(|e| vec![e])?;
        let items: Vec<(String, &Item)> = all.iter().map(|e| (e.key.clone(), &*e.item)).collect();
        let mut errors = Vec::new();
        let mut cx = compile::Ctx {
            header: self.header,
            errors: &mut errors,
            playout_tables,
        };
        match compile::compile(&self.game, &items, &mut cx) {
            Some(game) if errors.is_empty() => Ok(game),
            _ if errors.is_empty() => Err(vec![RulesError::new(
                self.header,
                "the rules cannot be compiled",
                "see docs/rules-format.md",
            )]),
            _ => Err(tidy(errors)),
        }
    }
}

/// A ruleset block; `None` when it has no name to know it by. Its problems go to `errors`.
fn parse_ruleset(
    head: &Line,
    items: &[Item],
    close: Pos,
    errors: &mut Vec<RulesError>,
) -> Option<RulesetDecl> {
    let Some(name_tok) = head.tokens.get(1) else {
        errors.push(RulesError::new(
            head.end,
            "the ruleset has no name",
            "write `ruleset NAME \"Title\"`, e.g. `ruleset nine \"Nine counters each\"`",
        ));
        return None;
    };
    let Some(name) = name_tok.word() else {
        errors.push(RulesError::new(
            name_tok.pos,
            "a ruleset name is a word",
            "use letters, digits and hyphens, e.g. `large-board`",
        ));
        return None;
    };
    let title = if head.tokens.len() > 2 {
        expect_str(head, 2, "the ruleset's title").unwrap_or_else(|e| {
            errors.push(e);
            name.to_string()
        })
    } else {
        name.to_string()
    };
    if let Some(t) = head.tokens.get(3) {
        errors.push(RulesError::new(
            t.pos,
            format!("unexpected {} after the ruleset's title", t.show()),
            "a ruleset line is `ruleset NAME \"Title\"`",
        ));
    }
    let mut kind = None;
    let mut source = None;
    let mut rest = Vec::new();
    for item in items {
        let h = item.head();
        let r = match (h.keyword(), item) {
            ("type", Item::Stmt(line)) => ruleset_type(line).map(|t| kind = Some(t)),
            ("source", Item::Stmt(line)) => ruleset_source(line).map(|s| source = Some(s)),
            ("ruleset", _) => Err(RulesError::new(
                h.pos(),
                "a ruleset cannot hold another ruleset",
                "close this ruleset with `end` first",
            )),
            ("game", _) => Err(RulesError::new(
                h.pos(),
                "a ruleset cannot rename the game",
                "move the `game` line out of the ruleset",
            )),
            _ => {
                rest.push(item.clone());
                Ok(())
            }
        };
        if let Err(e) = r {
            // Said, even if wrongly: the error is about the value, not a missing statement.
            match h.keyword() {
                "type" => kind = kind.or(Some(RulesetType::Incomplete)),
                "source" => source = source.or(Some((String::new(), None, h.pos()))),
                _ => {}
            }
            errors.push(e);
        }
    }
    if kind.is_none() {
        errors.push(
            RulesError::new(close, format!("ruleset `{name}` has no type"), TYPE_HELP)
                .of_kind(ErrorKind::Missing),
        );
    }
    if source.is_none() {
        errors.push(
            RulesError::new(
                close,
                format!("ruleset `{name}` cites no source"),
                SOURCE_HELP,
            )
            .of_kind(ErrorKind::Missing),
        );
    }
    let (source, pages, spos) = source.unwrap_or((String::new(), None, close));
    let pos = head.pos();
    Some(RulesetDecl {
        info: RulesetInfo {
            name: name.to_string(),
            title,
            kind: kind.unwrap_or(RulesetType::Incomplete),
            source,
            pages,
            line: pos.line,
            column: pos.column,
            source_line: spos.line,
            source_column: spos.column,
        },
        items: rest,
        name_pos: name_tok.pos,
    })
}

const RULESET_TYPES: [&str; 5] = [
    "described",
    "observed",
    "reconstructed",
    "suggested",
    "incomplete",
];

fn ruleset_type(line: &Line) -> Result<RulesetType, RulesError> {
    let t = line
        .tokens
        .get(1)
        .ok_or_else(|| RulesError::new(line.end, "the ruleset type is missing", TYPE_HELP))?;
    t.word().and_then(RulesetType::parse).ok_or_else(|| {
        let w = t.word().unwrap_or_default();
        RulesError::new(
            t.pos,
            format!("{} is not a ruleset type", t.show()),
            help_with(w, RULESET_TYPES, TYPE_HELP),
        )
    })
}

fn ruleset_source(line: &Line) -> Result<(String, Option<String>, Pos), RulesError> {
    let t = line
        .tokens
        .get(1)
        .ok_or_else(|| RulesError::new(line.end, "the source key is missing", SOURCE_HELP))?;
    let key = t
        .word()
        .ok_or_else(|| RulesError::new(t.pos, "a source key is a word", SOURCE_HELP))?;
    let pages = match (line.tokens.get(2), line.tokens.get(3)) {
        (None, _) => None,
        (Some(p), Some(v)) if p.is_word("pages") && v.word().is_some() => {
            if let Some(extra) = line.tokens.get(4) {
                return Err(RulesError::new(
                    extra.pos,
                    format!("unexpected {}", extra.show()),
                    SOURCE_HELP,
                ));
            }
            v.word().map(str::to_string)
        }
        (Some(p), _) => {
            let w = p.word().unwrap_or_default();
            return Err(RulesError::new(
                p.pos,
                format!("unexpected {}", p.show()),
                help_with(w, ["pages"], SOURCE_HELP),
            ));
        }
    };
    Ok((key.to_string(), pages, t.pos))
}

const TYPE_HELP: &str = "add a line `type described` (or observed, reconstructed, suggested, incomplete) before the ruleset's `end`";
const SOURCE_HELP: &str = "add a line `source KEY pages PAGES`, where KEY is a key of the catalog's sources.bib, e.g. `source murray-1952 pages 66`; PAGES is one word, so a range is written `110-111`";
