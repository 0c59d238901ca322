//! What every family of games has in common: a start position, legal moves, playing and undoing a move, an
//! outcome, and a notation. Perft, random playouts, the computer player and game-record replay are written once
//! against this trait, so points-and-lines games and sowing games share them.

/// A side, by its order in the rules: 0 moves first in the base setup unless the rules say otherwise.
pub type Side = u8;

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win(Side),
    Draw,
}

/// Why a move written in notation was not accepted in a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not a move in this game's notation at all.
    Syntax(String),
    /// The text is well formed but names no legal move here.
    Illegal(String),
}

/// One family's rules, compiled and ready to play.
pub trait Game {
    type Position: Clone + PartialEq + Eq + std::hash::Hash + std::fmt::Debug;
    type Move: Clone + PartialEq + Eq + std::fmt::Debug;
    /// What `play` returns so that `undo` can restore the position exactly.
    type Undo;

    fn start(&self) -> Self::Position;
    fn side_to_move(&self, pos: &Self::Position) -> Side;
    /// Appends every legal move (each a whole turn) to `out`; empty when the game is over.
    fn legal_moves(&self, pos: &Self::Position, out: &mut Vec<Self::Move>);
    fn play(&self, pos: &mut Self::Position, mv: &Self::Move) -> Self::Undo;
    fn undo(&self, pos: &mut Self::Position, mv: &Self::Move, undo: Self::Undo);
    /// `Some` once the game is over in this position.
    fn outcome(&self, pos: &Self::Position) -> Option<Outcome>;
    fn format_move(&self, pos: &Self::Position, mv: &Self::Move) -> String;
    fn parse_move(&self, pos: &Self::Position, text: &str) -> Result<Self::Move, MoveError>;

    /// A static score of the position from the side to move's point of view (positive: good for it), for the
    /// computer player. Zero by default: the player then relies on mobility and game ends alone.
    fn evaluate(&self, _pos: &Self::Position) -> i32 {
        0
    }

    /// Reads a position written in this family's setup syntax (puzzles and demonstrations start from one).
    fn parse_position(&self, _text: &str) -> Result<Self::Position, String> {
        Err("this game has no setup-position syntax".to_string())
    }

    /// Writes a position in this family's setup syntax, so that `parse_position` reads it back.
    fn format_position(&self, pos: &Self::Position) -> String {
        format!("{pos:?}")
    }
}
