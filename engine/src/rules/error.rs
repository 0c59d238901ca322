//! The one error type of the rules language: every problem names a 1-based line and column, how much of the line
//! it concerns, and says how to fix it.

use std::fmt;

/// What sort of problem a rules error is, so that a checker can give each its own code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum ErrorKind {
    /// A statement the language does not accept: an unknown word, a bad value, rules that cannot be played.
    #[default]
    Invalid,
    /// A name that names nothing declared: a point, a region, a side, a piece kind, a ruleset.
    UnknownName,
    /// A statement the rules need is not there (the game's name, a board, the sides, a setup, `first`, a
    /// ruleset's type or source, a sowing board's holes).
    Missing,
    /// A point that lies on no line: a piece that stands there can never move.
    PointOnNoLine,
    /// Part of the board that no line joins to the rest: pieces never cross between the parts.
    Disconnected,
}

/// A problem in a rules file, at a position, with a message and a hint for the person writing the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesError {
    /// 1-based line.
    pub line: u32,
    /// 1-based column, counted in characters (not bytes), so it matches what an editor shows.
    pub column: u32,
    /// How many characters the problem spans from there (the whole word or name); 0 for a place between
    /// characters, such as the end of a line where something is missing.
    pub length: u32,
    pub message: String,
    pub help: String,
    pub kind: ErrorKind,
}

impl RulesError {
    pub fn new(pos: Pos, message: impl Into<String>, help: impl Into<String>) -> RulesError {
        RulesError {
            line: pos.line,
            column: pos.column,
            length: pos.len,
            message: message.into(),
            help: help.into(),
            kind: ErrorKind::Invalid,
        }
    }

    pub fn of_kind(mut self, kind: ErrorKind) -> RulesError {
        self.kind = kind;
        self
    }
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: {} (help: {})",
            self.line, self.column, self.message, self.help
        )
    }
}

impl std::error::Error for RulesError {}

/// A 1-based line and column in a source text, and how many characters the word there spans (0 for a place
/// between characters).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Pos {
    pub line: u32,
    pub column: u32,
    pub len: u32,
}

impl Pos {
    /// A place between characters (where something is missing).
    pub fn at(line: u32, column: u32) -> Pos {
        Pos {
            line,
            column,
            len: 0,
        }
    }

    /// The place where this position starts, spanning nothing.
    pub fn start(self) -> Pos {
        Pos { len: 0, ..self }
    }
}

/// Converts a byte offset of `src` into a 1-based line and column (columns in characters). Offsets past the end
/// point just after the last character.
pub fn line_column(src: &str, offset: usize) -> Pos {
    let mut line = 1;
    let mut column = 1;
    for (i, c) in src.char_indices() {
        if i >= offset {
            break;
        }
        if c == '\n' {
            line += 1;
            column = 1;
        } else {
            column += 1;
        }
    }
    Pos::at(line, column)
}
