//! The rules language: a rules file is parsed (`RulesFile::parse`), its rulesets listed (`RulesFile::info`), and
//! any ruleset compiled into a playable game (`RulesFile::compile`). The language is described in
//! docs/rules-format.md.

mod compile;
pub mod error;
pub mod syntax;

pub use error::{Pos, RulesError, line_column};

use crate::ruleset::{Family, RulesInfo, RulesetInfo, RulesetType};
use syntax::{Item, Line, TokenKind};

/// A compiled ruleset and its name (`None` for the base rules of a file that declares no ruleset).
pub type CompiledRuleset = (Option<String>, crate::Compiled);

/// A ruleset as written: its declaration and the statements that differ from the base rules.
#[derive(Clone, Debug, PartialEq)]
pub struct RulesetDecl {
    pub info: RulesetInfo,
    items: Vec<Item>,
}

/// A parsed rules file: the base statements and the rulesets.
#[derive(Clone, Debug, PartialEq)]
pub struct RulesFile {
    pub game: String,
    base: Vec<Item>,
    pub rulesets: Vec<RulesetDecl>,
}

/// A statement together with the key a ruleset uses to replace it.
#[derive(Clone, Debug)]
struct Entry {
    key: String,
    item: Item,
}

fn word_at(line: &Line, i: usize) -> String {
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
        "side" | "piece" | "region" | "outcome" => format!("{kw} {}", word_at(head, 1)),
        // promote KIND to KIND for SIDE ...
        "promote" => format!("promote {} {}", word_at(head, 1), word_at(head, 5)),
        _ => kw.to_string(),
    }
}

/// Flattens items into keyed entries; a sowing block's statements are keyed one by one so a ruleset can
/// change one setting of it.
fn entries(items: &[Item]) -> Vec<Entry> {
    let mut out = Vec::new();
    for item in items {
        match item {
            Item::Block { head, items } if head.keyword() == "sowing" => {
                for inner in items {
                    out.push(Entry {
                        key: format!("sowing.{}", key_of(inner)),
                        item: inner.clone(),
                    });
                }
                if items.is_empty() {
                    out.push(Entry {
                        key: "sowing".into(),
                        item: item.clone(),
                    });
                }
            }
            _ => out.push(Entry {
                key: key_of(item),
                item: item.clone(),
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

impl RulesFile {
    /// Reads a rules file. Errors carry the line and column of the problem.
    pub fn parse(src: &str) -> Result<RulesFile, RulesError> {
        Self::parse_compiled(src).map(|(file, _)| file)
    }

    /// Reads a rules file and compiles each of its rulesets (the base rules alone when it declares none): the
    /// compiled games come back in declaration order, named (`None` for the base rules), so that a caller who
    /// needs them does not compile them a second time.
    pub fn parse_compiled(src: &str) -> Result<(RulesFile, Vec<CompiledRuleset>), RulesError> {
        let items = syntax::parse(src)?;
        let mut game = None;
        let mut base = Vec::new();
        let mut rulesets: Vec<RulesetDecl> = Vec::new();
        for item in items {
            match &item {
                Item::Stmt(line) if line.keyword() == "game" => {
                    game = Some(expect_str(line, 1, "the game's name")?);
                }
                Item::Block { head, items } if head.keyword() == "ruleset" => {
                    let decl = parse_ruleset(head, items)?;
                    if let Some(prev) = rulesets.iter().find(|r| r.info.name == decl.info.name) {
                        return Err(RulesError::new(
                            head.pos(),
                            format!("ruleset `{}` is declared twice", decl.info.name),
                            format!(
                                "the first declaration is at line {}; give each ruleset its own name",
                                prev.info.line
                            ),
                        ));
                    }
                    rulesets.push(decl);
                }
                _ => base.push(item),
            }
        }
        let game = game.ok_or_else(|| {
            RulesError::new(
                Pos { line: 1, column: 1 },
                "the file does not name its game",
                "start the file with a line like `game \"Terhuchu\"`",
            )
        })?;
        let file = RulesFile {
            game,
            base,
            rulesets,
        };
        // Compile every ruleset now, so that a file either is wholly playable or reports where it is not.
        let mut compiled = Vec::new();
        if file.rulesets.is_empty() {
            compiled.push((None, file.compile(None)?));
        }
        for r in &file.rulesets {
            compiled.push((Some(r.info.name.clone()), file.compile(Some(&r.info.name))?));
        }
        Ok((file, compiled))
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

    /// The statements in force for a ruleset: the base, with each of the ruleset's statements replacing the base
    /// statement with the same key in place (or added at the end).
    fn effective(&self, ruleset: Option<&str>) -> Result<Vec<Entry>, RulesError> {
        let mut all = entries(&self.base);
        let chosen = match ruleset {
            Some(name) => Some(
                self.rulesets
                    .iter()
                    .find(|r| r.info.name == name)
                    .ok_or_else(|| {
                        let names: Vec<&str> =
                            self.rulesets.iter().map(|r| r.info.name.as_str()).collect();
                        RulesError::new(
                            Pos { line: 1, column: 1 },
                            format!("no ruleset named `{name}`"),
                            format!(
                                "the rulesets are: {}",
                                if names.is_empty() {
                                    "(none)".into()
                                } else {
                                    names.join(", ")
                                }
                            ),
                        )
                    })?,
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

    /// Compiles a ruleset (`None`: the first ruleset, or the base rules when there is none).
    pub fn compile(&self, ruleset: Option<&str>) -> Result<crate::Compiled, RulesError> {
        let all = self.effective(ruleset)?;
        let items: Vec<(String, Item)> = all.into_iter().map(|e| (e.key, e.item)).collect();
        compile::compile(&self.game, &items)
    }
}

fn parse_ruleset(head: &Line, items: &[Item]) -> Result<RulesetDecl, RulesError> {
    let name_tok = head.tokens.get(1).ok_or_else(|| {
        RulesError::new(
            head.end,
            "the ruleset has no name",
            "write `ruleset NAME \"Title\"`, e.g. `ruleset nine \"Nine counters each\"`",
        )
    })?;
    let name = name_tok.word().ok_or_else(|| {
        RulesError::new(
            name_tok.pos,
            "a ruleset name is a word",
            "use letters, digits and hyphens, e.g. `large-board`",
        )
    })?;
    let title = if head.tokens.len() > 2 {
        expect_str(head, 2, "the ruleset's title")?
    } else {
        name.to_string()
    };
    if let Some(t) = head.tokens.get(3) {
        return Err(RulesError::new(
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
        match (h.keyword(), item) {
            ("type", Item::Stmt(line)) => {
                let t = line.tokens.get(1).ok_or_else(|| {
                    RulesError::new(line.end, "the ruleset type is missing", TYPE_HELP)
                })?;
                kind = Some(t.word().and_then(RulesetType::parse).ok_or_else(|| {
                    RulesError::new(
                        t.pos,
                        format!("{} is not a ruleset type", t.show()),
                        TYPE_HELP,
                    )
                })?);
            }
            ("source", Item::Stmt(line)) => {
                let t = line.tokens.get(1).ok_or_else(|| {
                    RulesError::new(line.end, "the source key is missing", SOURCE_HELP)
                })?;
                let key = t
                    .word()
                    .ok_or_else(|| RulesError::new(t.pos, "a source key is a word", SOURCE_HELP))?;
                let pages = match (line.tokens.get(2), line.tokens.get(3)) {
                    (None, _) => None,
                    (Some(p), Some(v)) if p.is_word("pages") && v.word().is_some() => {
                        v.word().map(str::to_string)
                    }
                    (Some(p), _) => {
                        return Err(RulesError::new(
                            p.pos,
                            format!("unexpected {}", p.show()),
                            SOURCE_HELP,
                        ));
                    }
                };
                source = Some((key.to_string(), pages, t.pos));
            }
            ("ruleset", _) => {
                return Err(RulesError::new(
                    h.pos(),
                    "a ruleset cannot hold another ruleset",
                    "close this ruleset with `end` first",
                ));
            }
            ("game", _) => {
                return Err(RulesError::new(
                    h.pos(),
                    "a ruleset cannot rename the game",
                    "move the `game` line out of the ruleset",
                ));
            }
            _ => rest.push(item.clone()),
        }
    }
    let kind = kind.ok_or_else(|| {
        RulesError::new(
            head.pos(),
            format!("ruleset `{name}` has no type"),
            TYPE_HELP,
        )
    })?;
    let (source, pages, spos) = source.ok_or_else(|| {
        RulesError::new(
            head.pos(),
            format!("ruleset `{name}` cites no source"),
            SOURCE_HELP,
        )
    })?;
    let pos = head.pos();
    Ok(RulesetDecl {
        info: RulesetInfo {
            name: name.to_string(),
            title,
            kind,
            source,
            pages,
            line: pos.line,
            column: pos.column,
            source_line: spos.line,
            source_column: spos.column,
        },
        items: rest,
    })
}

const TYPE_HELP: &str =
    "add a line `type described` (or observed, reconstructed, suggested, incomplete)";
const SOURCE_HELP: &str = "add a line `source KEY pages PAGES`, where KEY is a key of the catalog's sources.bib, e.g. `source murray-1952 pages 66`";
