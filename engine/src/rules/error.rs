//! The one error type of the rules language: every problem names a 1-based line and column and says how to fix it.

use std::fmt;

/// A problem in a rules file, at a position, with a message and a hint for the person writing the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesError {
    /// 1-based line.
    pub line: u32,
    /// 1-based column, counted in characters (not bytes), so it matches what an editor shows.
    pub column: u32,
    pub message: String,
    pub help: String,
}

impl RulesError {
    pub fn new(pos: Pos, message: impl Into<String>, help: impl Into<String>) -> RulesError {
        RulesError {
            line: pos.line,
            column: pos.column,
            message: message.into(),
            help: help.into(),
        }
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

/// A 1-based line and column in a source text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Pos {
    pub line: u32,
    pub column: u32,
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
    Pos { line, column }
}
