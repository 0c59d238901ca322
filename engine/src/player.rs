//! The computer player: negamax alpha-beta with iterative deepening over any `Game`. It scores leaves with the
//! game's `evaluate` plus the mover's mobility, stops on a node budget (and on a deadline when the caller has a
//! clock: wasm has none of its own), and is deterministic for a seed, which only shuffles the root moves so that
//! equally good moves are chosen differently from game to game.

use crate::any::AnyPosition;
use crate::game::{Game, Outcome, TooManyMoves};
use crate::rng::Rng;

const WIN: i32 = 1_000_000;

/// How much the player may think.
pub struct Limits<'a> {
    pub max_depth: u32,
    pub max_nodes: u64,
    /// Milliseconds allowed, with a clock returning milliseconds; `None` for node budgets only.
    pub deadline: Option<(u64, &'a dyn Fn() -> u64)>,
}

impl Limits<'_> {
    pub fn nodes(max_nodes: u64) -> Limits<'static> {
        Limits {
            max_depth: 64,
            max_nodes,
            deadline: None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice<M> {
    pub best: M,
    /// From the mover's point of view.
    pub score: i32,
    /// The deepest search completed.
    pub depth: u32,
    pub nodes: u64,
}

struct Search<'a, 'b, G: Game> {
    game: &'a G,
    nodes: u64,
    limits: &'a Limits<'b>,
    start_ms: u64,
    stopped: bool,
    /// A position of the search had more moves than the engine lists: the search stops and gives no move.
    refused: bool,
    buffers: Vec<Vec<G::Move>>,
}

impl<G: Game> Search<'_, '_, G> {
    fn out_of_budget(&mut self) -> bool {
        if self.nodes >= self.limits.max_nodes {
            self.stopped = true;
        } else if let Some((ms, clock)) = self.limits.deadline
            && self.nodes % 1024 == 0
            && clock().saturating_sub(self.start_ms) >= ms
        {
            self.stopped = true;
        }
        self.stopped
    }

    fn negamax(
        &mut self,
        pos: &mut G::Position,
        depth: u32,
        ply: u32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        let level = ply as usize;
        while self.buffers.len() <= level {
            self.buffers.push(Vec::with_capacity(64));
        }
        let mut moves = std::mem::take(&mut self.buffers[level]);
        moves.clear();
        if self.game.legal_moves(pos, &mut moves).is_err() {
            self.refused = true;
            self.stopped = true;
            self.buffers[level] = moves;
            return 0;
        }
        let score = if moves.is_empty() {
            let me = self.game.side_to_move(pos);
            match self.game.outcome(pos) {
                Some(Outcome::Win(s)) if s == me => WIN - ply as i32,
                Some(Outcome::Win(_)) => -WIN + ply as i32,
                _ => 0,
            }
        } else if depth == 0 {
            self.game.evaluate(pos) + 2 * moves.len() as i32
        } else {
            let mut best = -WIN - 1;
            for mv in moves.iter() {
                let undo = self.game.play(pos, mv);
                let v = -self.negamax(pos, depth - 1, ply + 1, -beta, -alpha);
                self.game.undo(pos, mv, undo);
                if self.stopped {
                    break;
                }
                if v > best {
                    best = v;
                }
                if v > alpha {
                    alpha = v;
                }
                if alpha >= beta {
                    break;
                }
            }
            best
        };
        self.buffers[level] = moves;
        score
    }
}

/// The move the player chooses, or `None` when the game is over. Refused when a position it would search has
/// more than `MAX_MOVES` moves: searching around one would take more than any budget allows.
pub fn choose<G: Game>(
    game: &G,
    pos: &G::Position,
    limits: &Limits<'_>,
    seed: u64,
) -> Result<Option<Choice<G::Move>>, TooManyMoves> {
    choose_fresh(game, pos, limits, seed, &|_| false)
}

/// Whether two positions are the same to the players: the same pieces on the same points and the same side to
/// move, whatever the counters (plies played, quiet plies), so coming back to one is a repetition. Pieces in hand
/// are not compared, which keeps the page's engine within its size: the same board with other pieces in hand
/// needs as many captures as placements between, which does not happen while a side shuffles. Only
/// points-and-lines positions compare: sowing games capture seeds as they go and end by the rules without it.
pub fn same_placement(a: &AnyPosition, b: &AnyPosition) -> bool {
    matches!((a, b), (AnyPosition::Lines(a), AnyPosition::Lines(b))
        if a.side == b.side && a.kind == b.kind && a.to_move == b.to_move)
}

/// `choose` in a game whose earlier positions `seen` recognises: a move back to one of them scores as a draw.
/// Without it a side ahead in material with no capture in sight shuffles one piece to and fro until the move
/// cap draws the game; with it, it must keep finding new positions, which sooner or later means going forward.
pub fn choose_fresh<G: Game>(
    game: &G,
    pos: &G::Position,
    limits: &Limits<'_>,
    seed: u64,
    seen: &dyn Fn(&G::Position) -> bool,
) -> Result<Option<Choice<G::Move>>, TooManyMoves> {
    let mut moves = Vec::new();
    game.legal_moves(pos, &mut moves)?;
    if moves.is_empty() {
        return Ok(None);
    }
    let mut rng = Rng::new(seed);
    for i in (1..moves.len()).rev() {
        moves.swap(i, rng.below(i + 1));
    }
    let start_ms = limits.deadline.map(|(_, clock)| clock()).unwrap_or(0);
    let mut search = Search {
        game,
        nodes: 0,
        limits,
        start_ms,
        stopped: false,
        refused: false,
        buffers: Vec::new(),
    };
    let mut pos = pos.clone();
    let mut best = Choice {
        best: moves[0].clone(),
        score: 0,
        depth: 0,
        nodes: 0,
    };
    for depth in 1..=limits.max_depth {
        let mut alpha = -WIN - 1;
        let mut iteration_best = None;
        for (i, mv) in moves.iter().enumerate() {
            let undo = game.play(&mut pos, mv);
            let v = if seen(&pos) {
                0
            } else {
                -search.negamax(&mut pos, depth - 1, 1, -WIN - 1, -alpha)
            };
            game.undo(&mut pos, mv, undo);
            if search.stopped {
                break;
            }
            if v > alpha {
                alpha = v;
                iteration_best = Some(i);
            }
        }
        if search.stopped {
            break;
        }
        if let Some(i) = iteration_best {
            // Search the best move first next time: better cut-offs, same result.
            let mv = moves.remove(i);
            moves.insert(0, mv);
            best = Choice {
                best: moves[0].clone(),
                score: alpha,
                depth,
                nodes: search.nodes,
            };
            if alpha.abs() >= WIN - 1000 {
                break;
            }
        }
    }
    if search.refused {
        return Err(TooManyMoves);
    }
    best.nodes = search.nodes;
    Ok(Some(best))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The catalog's Bagh-Chal rules, compiled: the search tests' game.
    pub(crate) fn bagh_chal() -> crate::Compiled {
        let src = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../catalog/games/bagh-chal/rules.txt"
        ))
        .unwrap();
        crate::compile(&src, None).unwrap()
    }

    #[test]
    fn a_move_back_to_a_seen_position_scores_as_a_draw() {
        let game = bagh_chal();
        let pos = game.start();
        let free = choose(&game, &pos, &Limits::nodes(3000), 1)
            .unwrap()
            .unwrap();
        // The goats' placement scores in their favour by mobility alone.
        assert_ne!(free.score, 0);
        let all_seen = choose_fresh(&game, &pos, &Limits::nodes(3000), 1, &|_| true)
            .unwrap()
            .unwrap();
        assert_eq!(all_seen.score, 0);
    }

    #[test]
    fn the_same_placement_ignores_the_counters() {
        let game = bagh_chal();
        let start = game.start();
        let mut moves = Vec::new();
        game.legal_moves(&start, &mut moves).unwrap();
        let mut later = start.clone();
        game.advance(&mut later, &moves[0]);
        let AnyPosition::Lines(mut counted) = start.clone() else {
            panic!("Bagh-Chal is a points-and-lines game");
        };
        counted.ply += 7;
        counted.quiet += 3;
        assert!(same_placement(&start, &AnyPosition::Lines(counted)));
        assert!(!same_placement(&start, &later));
    }
}
