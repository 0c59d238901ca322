//! Seeded random playouts: uniform random legal moves until the game ends. Used for benchmarks, for property
//! tests over many positions, and as a sanity check that every game terminates.

use crate::game::{Game, Outcome};
use crate::rng::Rng;

/// How one playout ended: its outcome (`None` when `max_plies` stopped it first, or a position with more than
/// `MAX_MOVES` moves) and its length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Playout {
    pub outcome: Option<Outcome>,
    pub plies: u32,
}

/// Plays one random game from `start`. `moves` is a reusable buffer, so a run of playouts allocates nothing
/// after the first.
// Always inlined, so that a caller compiled for particular processor features compiles the loop that way too.
#[inline(always)]
pub fn random_playout<G: Game>(
    game: &G,
    start: &G::Position,
    rng: &mut Rng,
    max_plies: u32,
    moves: &mut Vec<G::Move>,
) -> Playout {
    let mut pos = start.clone();
    let mut plies = 0;
    loop {
        if plies >= max_plies {
            // `outcome` is `Some` exactly when no move is left, so a game that ends on the last ply counts.
            return Playout {
                outcome: game.outcome(&pos),
                plies,
            };
        }
        match game.random_move(&pos, rng, moves) {
            // Too many moves to choose among: the playout stops unfinished, as at `max_plies`.
            Err(_) => {
                return Playout {
                    outcome: None,
                    plies,
                };
            }
            Ok(None) => {
                return Playout {
                    outcome: game.outcome(&pos),
                    plies,
                };
            }
            Ok(Some(mv)) => {
                game.advance(&mut pos, &mv);
                plies += 1;
            }
        }
    }
}

/// Totals over many playouts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlayoutStats {
    pub games: u64,
    pub plies: u64,
    pub wins: [u64; 2],
    pub draws: u64,
    /// Stopped by `max_plies` (or a position with too many moves) before the game ended.
    pub unfinished: u64,
}

impl PlayoutStats {
    /// Count one finished playout of `plies` plies.
    #[inline(always)]
    pub fn count(&mut self, plies: u64, outcome: Option<Outcome>) {
        self.games += 1;
        self.plies += plies;
        match outcome {
            Some(Outcome::Win(s)) => self.wins[(s & 1) as usize] += 1,
            Some(Outcome::Draw) => self.draws += 1,
            None => self.unfinished += 1,
        }
    }
}

/// `n` playouts from the start position, deterministic for `seed`.
#[inline(always)]
pub fn playouts<G: Game>(game: &G, n: u64, seed: u64, max_plies: u32) -> PlayoutStats {
    let start = game.start();
    let mut rng = Rng::new(seed);
    let mut moves = Vec::with_capacity(64);
    let mut stats = PlayoutStats::default();
    for _ in 0..n {
        let p = random_playout(game, &start, &mut rng, max_plies, &mut moves);
        stats.count(p.plies as u64, p.outcome);
    }
    stats
}
