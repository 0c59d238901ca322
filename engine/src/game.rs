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

/// The most legal moves the engine lists in one position. Rules nobody plays can multiply capture chains
/// without end (a long line of flying captures where the chain may stop after any of them), so move generation
/// stops here and the position is refused instead of filling memory. Real games stay well below it: the
/// largest, Tchouba on 4 x 40 with two extra holes per capture, offers at most 246,480 moves, and the sowing
/// rules refuse settings that could offer more (docs/rules-format.md).
pub const MAX_MOVES: usize = 1 << 18;

/// A position has more than `MAX_MOVES` legal moves: the engine refuses to list them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooManyMoves;

impl std::fmt::Display for TooManyMoves {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "this position has more than {MAX_MOVES} legal moves, more than the engine lists"
        )
    }
}

impl std::error::Error for TooManyMoves {}

/// One family's rules, compiled and ready to play.
pub trait Game {
    type Position: Clone + PartialEq + Eq + std::hash::Hash + std::fmt::Debug;
    type Move: Clone + PartialEq + Eq + std::fmt::Debug;
    /// What `play` returns so that `undo` can restore the position exactly.
    type Undo;

    fn start(&self) -> Self::Position;
    fn side_to_move(&self, pos: &Self::Position) -> Side;
    /// Appends every legal move (each a whole turn) to `out`; none when the game is over. A position with more
    /// than `MAX_MOVES` is refused with `out` left as it was.
    fn legal_moves(
        &self,
        pos: &Self::Position,
        out: &mut Vec<Self::Move>,
    ) -> Result<(), TooManyMoves>;
    /// A uniformly random legal move, or `None` when the game is over: the move `moves[rng.below(moves.len())]`
    /// picks over `legal_moves`, for the same generator state, so seeded playouts do not depend on how a family
    /// draws it. By default it lists the moves into `moves`; a family may count them instead and build only the
    /// one drawn.
    fn random_move(
        &self,
        pos: &Self::Position,
        rng: &mut crate::rng::Rng,
        moves: &mut Vec<Self::Move>,
    ) -> Result<Option<Self::Move>, TooManyMoves> {
        moves.clear();
        self.legal_moves(pos, moves)?;
        Ok((!moves.is_empty()).then(|| moves[rng.below(moves.len())].clone()))
    }
    fn play(&self, pos: &mut Self::Position, mv: &Self::Move) -> Self::Undo;
    /// Plays `mv` in `pos` for good, as `play` does but making nothing to take it back with: a replay, a
    /// playout or a search's path forward never undoes, and would otherwise copy the whole position at every
    /// ply only to drop the copy (with the history of earlier positions, for a game that forbids repeating one).
    fn advance(&self, pos: &mut Self::Position, mv: &Self::Move) {
        let _ = self.play(pos, mv);
    }
    fn undo(&self, pos: &mut Self::Position, mv: &Self::Move, undo: Self::Undo);
    /// `Some` once the game is over in this position, which is exactly when `legal_moves` lists none. Cheap:
    /// it asks whether any move exists without listing them, so replays use it to tell a finished game from a
    /// wrong move.
    fn outcome(&self, pos: &Self::Position) -> Option<Outcome>;
    fn format_move(&self, pos: &Self::Position, mv: &Self::Move) -> String;
    /// Reads a move and checks that it is legal in `pos`, by following what is written (the start point, the
    /// landings, the hole) rather than listing every legal move: it accepts exactly the moves `legal_moves`
    /// lists, and when two listed moves read the same, it gives the first.
    fn parse_move(&self, pos: &Self::Position, text: &str) -> Result<Self::Move, MoveError>;

    /// Reads a move as `parse_move` does and plays it (as `advance`), leaving `pos` as it was when the move is
    /// refused: a replay's step, which a family may take more cheaply than reading and playing apart.
    fn parse_and_advance(
        &self,
        pos: &mut Self::Position,
        text: &str,
    ) -> Result<Self::Move, MoveError> {
        let mv = self.parse_move(pos, text)?;
        self.advance(pos, &mv);
        Ok(mv)
    }

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
