//! The computer player by Monte Carlo tree search (UCT): it grows a tree of the positions it has tried, choosing
//! at each level the move whose results went best so far plus a bonus for moves tried rarely, and scores a new
//! leaf by a random game of at most `cap` plies from it, then by the material (the game's `evaluate`) gained or
//! lost since the position searched. Gained, not ahead: in hunt games one side always has more pieces. Random
//! games to the end say little in the Alquerque family, where random play rarely ends a game, and measured
//! matches (docs/performance.md, "The computer player") found shorter caps stronger for the same time, down to
//! none at all: `PLAYOUT_CAP` is 0, so a leaf is scored by its material alone, and the search is a best-first
//! search by visit counts. Deterministic for a seed; stops on an iteration budget and on a deadline when the
//! caller has a clock.

use crate::game::{Game, Outcome, Side, TooManyMoves};
use crate::player::{Choice, Limits};
use crate::rng::Rng;

/// How far each random game runs before material decides it (0: no random game, the leaf's material).
pub const PLAYOUT_CAP: u32 = 0;
/// The exploration constant of UCT, for rewards between 0 and 1.
const EXPLORATION: f32 = 0.35;
/// A leaf grows children only after this many visits: the tree then stores the move lists of fewer positions.
const EXPAND_AFTER: u32 = 4;
/// The tree stops growing at this many nodes (tens of megabytes); the search then goes on scoring its leaves.
const MAX_TREE: usize = 600_000;

struct Node<M> {
    /// The move from the parent (the root's is never read).
    mv: Option<M>,
    /// The side that played `mv`: the rewards below are its.
    mover: Side,
    first: u32,
    children: u32,
    /// Children visited at least once; they come first, so the next untried child is `first + tried`.
    tried: u32,
    expanded: bool,
    visits: u32,
    reward: f32,
}

impl<M> Node<M> {
    /// A node not yet visited nor expanded.
    fn new(mv: Option<M>, mover: Side) -> Node<M> {
        Node {
            mv,
            mover,
            first: 0,
            children: 0,
            tried: 0,
            expanded: false,
            visits: 0,
            reward: 0.0,
        }
    }
}

/// The material balance at the searched position, from its mover's side: leaves are scored against it.
struct Balance {
    side: Side,
    score: i32,
    /// The mean size of the changes seen so far, the scale of a reward: one piece in the Alquerque family, some
    /// seeds in sowing games, without knowing which.
    change_sum: f32,
    changes: f32,
}

/// What a leaf is worth to `base.side` after a random game of at most `cap` plies from it: 1 for a win, 0 for a
/// loss, one half for a draw; when the game goes on past the cap, more than one half as material was gained.
fn playout<G: Game>(
    game: &G,
    pos: &mut G::Position,
    rng: &mut Rng,
    moves: &mut Vec<G::Move>,
    base: &mut Balance,
    cap: u32,
) -> f32 {
    for _ in 0..cap {
        moves.clear();
        if game.legal_moves(pos, moves).is_err() {
            break;
        }
        if moves.is_empty() {
            return match game.outcome(pos) {
                Some(Outcome::Win(s)) if s == base.side => 1.0,
                Some(Outcome::Win(_)) => 0.0,
                _ => 0.5,
            };
        }
        let mv = &moves[rng.below(moves.len())];
        game.advance(pos, mv);
    }
    let e = game.evaluate(pos);
    let e = if game.side_to_move(pos) == base.side {
        e
    } else {
        -e
    };
    let d = (e - base.score) as f32;
    if d == 0.0 {
        return 0.5;
    }
    base.change_sum += d.abs();
    base.changes += 1.0;
    0.5 + 0.5 * d / (d.abs() + base.change_sum / base.changes)
}

/// The move the player chooses, or `None` when the game is over. `limits.max_nodes` counts iterations (one leaf
/// scored each); `max_depth` is not used. `score` is the chosen move's mean result in thousandths (1000: every
/// line won), and `depth` the deepest line of the tree.
pub fn choose<G: Game>(
    game: &G,
    pos: &G::Position,
    limits: &Limits<'_>,
    seed: u64,
) -> Result<Option<Choice<G::Move>>, TooManyMoves> {
    choose_capped(game, pos, limits, seed, PLAYOUT_CAP)
}

/// `choose` with random games of at most `cap` plies, for measuring other caps.
pub fn choose_capped<G: Game>(
    game: &G,
    pos: &G::Position,
    limits: &Limits<'_>,
    seed: u64,
    cap: u32,
) -> Result<Option<Choice<G::Move>>, TooManyMoves> {
    let mut moves = Vec::new();
    game.legal_moves(pos, &mut moves)?;
    if moves.is_empty() {
        return Ok(None);
    }
    let mut rng = Rng::new(seed);
    let mut base = Balance {
        side: game.side_to_move(pos),
        score: game.evaluate(pos),
        change_sum: 0.0,
        changes: 0.0,
    };
    let mut tree: Vec<Node<G::Move>> = vec![Node::new(None, 1 - game.side_to_move(pos))];
    expand(game, pos, &mut tree, 0, &mut moves, &mut rng);
    // One move: nothing to think about.
    let budget = if tree[0].children == 1 {
        0
    } else {
        limits.max_nodes
    };
    let start_ms = limits.deadline.map(|(_, clock)| clock()).unwrap_or(0);
    let mut path = Vec::with_capacity(64);
    let mut depth = 0;
    let mut iterations = 0;
    let mut work = pos.clone();
    while iterations < budget {
        if let Some((ms, clock)) = limits.deadline
            && iterations % 4 == 0
            && clock().saturating_sub(start_ms) >= ms
        {
            break;
        }
        iterations += 1;
        work.clone_from(pos);
        path.clear();
        let mut at = 0usize;
        path.push(at);
        loop {
            let node = &tree[at];
            if !node.expanded {
                if node.visits < EXPAND_AFTER || tree.len() >= MAX_TREE {
                    break;
                }
                expand(game, &work, &mut tree, at, &mut moves, &mut rng);
                continue;
            }
            if node.children == 0 {
                break;
            }
            at = select(&mut tree, at);
            if let Some(mv) = &tree[at].mv {
                game.advance(&mut work, mv);
            }
            path.push(at);
        }
        depth = depth.max(path.len() - 1);
        let r = playout(game, &mut work, &mut rng, &mut moves, &mut base, cap);
        for &i in &path {
            let n = &mut tree[i];
            n.visits += 1;
            n.reward += if n.mover == base.side { r } else { 1.0 - r };
        }
    }
    let root = &tree[0];
    let kids = &tree[root.first as usize..(root.first + root.children) as usize];
    let best = kids
        .iter()
        .max_by(|a, b| a.visits.cmp(&b.visits).then(a.reward.total_cmp(&b.reward)))
        .expect("the root has children");
    Ok(Some(Choice {
        best: best.mv.clone().expect("a child has a move"),
        score: (1000.0 * best.reward / best.visits.max(1) as f32) as i32,
        depth: depth as u32,
        nodes: iterations,
    }))
}

/// Lists the moves at `pos` as children of node `at`, in a shuffled order so that untried moves are tried in an
/// order that depends on the seed. A position with too many moves to list stays a leaf.
fn expand<G: Game>(
    game: &G,
    pos: &G::Position,
    tree: &mut Vec<Node<G::Move>>,
    at: usize,
    moves: &mut Vec<G::Move>,
    rng: &mut Rng,
) {
    moves.clear();
    tree[at].expanded = true;
    if game.legal_moves(pos, moves).is_err() {
        return;
    }
    for i in (1..moves.len()).rev() {
        moves.swap(i, rng.below(i + 1));
    }
    let mover = game.side_to_move(pos);
    tree[at].first = tree.len() as u32;
    tree[at].children = moves.len() as u32;
    tree.extend(moves.drain(..).map(|mv| Node::new(Some(mv), mover)));
}

/// The child of `at` to follow: the next untried one, else the best by UCT.
fn select<M>(tree: &mut [Node<M>], at: usize) -> usize {
    let node = &tree[at];
    let first = node.first as usize;
    if node.tried < node.children {
        let next = first + node.tried as usize;
        tree[at].tried += 1;
        return next;
    }
    let log_n = (node.visits.max(1) as f32).ln();
    let mut best = first;
    let mut best_value = f32::MIN;
    for (i, child) in tree[first..first + node.children as usize]
        .iter()
        .enumerate()
    {
        let n = child.visits.max(1) as f32;
        let value = child.reward / n + EXPLORATION * (log_n / n).sqrt();
        if value > best_value {
            best_value = value;
            best = first + i;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::tests::bagh_chal;

    #[test]
    fn same_seed_same_choice_and_budget_respected() {
        let game = bagh_chal();
        let pos = game.start();
        let a = choose(&game, &pos, &Limits::nodes(500), 7)
            .unwrap()
            .unwrap();
        let b = choose(&game, &pos, &Limits::nodes(500), 7)
            .unwrap()
            .unwrap();
        assert_eq!(a, b);
        assert_eq!(a.nodes, 500);
        assert!((0..=1000).contains(&a.score));
    }

    #[test]
    fn takes_a_winning_capture_when_one_is_there() {
        // A position reached by random play where one move ends the game for the mover and another does not.
        let game = bagh_chal();
        let mut pos = game.start();
        let mut moves = Vec::new();
        // Random play until a position where the side to move has a move that ends the game in its favour.
        let mut rng = Rng::new(3);
        for _ in 0..400 {
            moves.clear();
            game.legal_moves(&pos, &mut moves).unwrap();
            if moves.is_empty() {
                break;
            }
            let me = game.side_to_move(&pos);
            let wins: Vec<_> = moves
                .iter()
                .filter(|m| {
                    let mut p = pos.clone();
                    game.advance(&mut p, m);
                    game.outcome(&p) == Some(Outcome::Win(me))
                })
                .cloned()
                .collect();
            if !wins.is_empty() && wins.len() < moves.len() {
                let c = choose(&game, &pos, &Limits::nodes(2000), 1)
                    .unwrap()
                    .unwrap();
                assert!(wins.contains(&c.best), "{c:?} does not win at once");
                return;
            }
            let mv = moves[rng.below(moves.len())].clone();
            game.advance(&mut pos, &mv);
        }
        panic!("no position with a winning move was reached");
    }

    #[test]
    fn no_move_when_the_game_is_over() {
        let game = bagh_chal();
        let mut pos = game.start();
        let mut rng = Rng::new(5);
        let mut moves = Vec::new();
        while game.outcome(&pos).is_none() {
            moves.clear();
            game.legal_moves(&pos, &mut moves).unwrap();
            let mv = moves[rng.below(moves.len())].clone();
            game.advance(&mut pos, &mv);
        }
        assert_eq!(choose(&game, &pos, &Limits::nodes(100), 1).unwrap(), None);
    }
}
