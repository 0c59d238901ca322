//! The rules engine of ludotheca: a rules language for traditional board games (`rules`), compiled into
//! playable games of two families, points and lines (`lines`) and sowing (`sowing`), with what every game
//! shares written once over the `Game` trait: notation, game records (`record`), perft, random playouts and a
//! computer player. No file or network I/O: the same code runs in the CLI and as WebAssembly in the page.

pub mod any;
pub mod board;
pub mod drawing;
pub mod game;
pub mod lines;
pub mod mcts;
pub mod perft;
pub mod player;
pub mod playout;
pub mod record;
pub mod rng;
pub mod rules;
pub mod ruleset;
pub mod sowing;
pub mod suggest;
pub mod wasm;

pub use any::{AnyMove, AnyPosition, Compiled};
pub use game::{Game, MoveError, Outcome, Side};
pub use rules::{RulesError, RulesFile};

/// Parses a rules file and compiles one ruleset (`None`: the first declared, or the base rules).
pub fn compile(src: &str, ruleset: Option<&str>) -> Result<Compiled, RulesError> {
    RulesFile::parse(src)?.compile(ruleset)
}
