//! The compiled rules of a points-and-lines game: what the rules language says, in the shape the move generator
//! wants. Built by `crate::rules` from a rules file; tables are derived from it in `LinesGame::new`.

use crate::board::Board;

/// At most this many piece kinds (man, king, tiger, goat...).
pub const MAX_KINDS: usize = 4;

/// Directions relative to a side's forward direction, as a bit set.
pub mod dirs {
    pub const FORWARD: u8 = 1;
    pub const SIDEWAYS: u8 = 2;
    pub const BACKWARD: u8 = 4;
    pub const ALL: u8 = 7;
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct SideDef {
    pub name: String,
    pub title: String,
    /// The unit vector this side calls forward.
    pub forward: (f64, f64),
}

/// One way a piece kind may move.
#[derive(Clone, Debug, PartialEq)]
pub enum MoveRule {
    /// To a neighbouring empty point along a line; `into`: only to a point of that region.
    Step {
        dirs: u8,
        within: Option<u128>,
        into: Option<u128>,
    },
    /// Along a line over empty points, at most `max` points (0: no limit); `into`: it may pass any empty
    /// point, but only stop on a point of that region.
    Slide {
        max: u8,
        dirs: u8,
        within: Option<u128>,
        into: Option<u128>,
    },
    /// Over an adjacent enemy piece to the empty point just beyond, capturing it; `into`: only landing on a
    /// point of that region.
    Jump { dirs: u8, into: Option<u128> },
    /// Flying capture: along a line over any number of empty points, over one enemy piece, landing on any empty
    /// point beyond before the next piece.
    LongJump { dirs: u8 },
}

#[derive(Clone, Debug, PartialEq)]
pub struct KindDef {
    pub name: String,
    pub title: String,
    pub moves: Vec<MoveRule>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Promotion {
    pub from: u8,
    pub to: u8,
    pub side: u8,
    pub region: u128,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CapturePolicy {
    /// A side that can capture must.
    Compulsory,
    /// Capturing is a choice.
    Optional,
    /// Capturing is compulsory, but enforced by huffing: a player may make a quiet move although a capture was
    /// possible, and the opponent may then remove one of the pieces that could have captured before moving.
    Huffing,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chain {
    /// Once a chain starts it goes on while the capturing piece can jump again.
    MustContinue,
    /// The player may end the chain after any jump.
    MayStop,
    /// One jump per turn.
    Single,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoMove {
    Loses,
    Wins,
    Draws,
    /// The side passes; two passes in a row end the game drawn.
    Passes,
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct Setup {
    /// (side, kind, point)
    pub pieces: Vec<(u8, u8, u8)>,
    pub hand: [[u16; MAX_KINDS]; 2],
    pub first: u8,
}

#[derive(Clone, Debug, PartialEq)]
pub struct LinesRules {
    pub name: String,
    pub board: Board,
    pub sides: [SideDef; 2],
    pub kinds: Vec<KindDef>,
    pub setup: Setup,
    pub capture: CapturePolicy,
    pub chain: Chain,
    /// May a chain change direction between jumps?
    pub turns: bool,
    /// Must the player choose a chain that captures the most pieces?
    pub maximum: bool,
    /// Does reaching the promotion region end a capture chain?
    pub promotion_ends_chain: bool,
    pub promotions: Vec<Promotion>,
    /// Whether a side left with no piece loses, indexed by that side.
    pub no_pieces_loses: [bool; 2],
    /// What befalls each side left without a move, indexed by side: it may differ (the crows win by trapping
    /// the vulture, while blocked crows pass).
    pub no_move: [NoMove; 2],
    /// A side that has captured this many pieces wins, indexed by the capturing side.
    pub capture_goal: [Option<u16>; 2],
    /// After this many plies the game is drawn.
    pub move_cap: Option<u32>,
    /// After this many plies without a capture, placement or promotion the game is drawn.
    pub no_progress: Option<u16>,
    /// The game is drawn when one position (board, hands, side to move) occurs for this many times.
    pub repetition: Option<u16>,
    /// Whether each side is forbidden a move that brings back a position seen earlier in the game.
    pub no_repeat: [bool; 2],
}
