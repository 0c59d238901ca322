//! Matches between computer players on one ruleset, colours alternated, for the strength figures of
//! docs/performance.md ("The computer player").
//!
//! `cargo run --release -p ludotheca-engine --example match -- RULES-FILE RULESET A B GAMES [SEED] [THREADS]`
//!
//! A and B are `random`, `ab:NODES` (alpha-beta within NODES nodes a move), `page:NODES` (the page's player: the
//! same alpha-beta scoring a move back to a position already seen in the game as a draw) or
//! `mcts:ITERATIONS[/CAP]` (tree search within ITERATIONS random games a move, each of at most CAP plies). RULESET `-` means the first. Game `i` gives A the first side when `i`
//! is even. Prints A's wins, draws and losses, how many games ended at the move cap (counted as draws by the
//! rules), the median game length and the CPU time.
//!
//! `match RULES-FILE RULESET rate PLAYER BUDGET [PLIES]` instead prints the player's nodes or iterations per CPU
//! second over the first plies of a game against itself, the positions tests/board/think_budget.js measures the
//! page's engine on.

use std::sync::atomic::{AtomicU64, Ordering};

use ludotheca_engine::player::{self, Limits};
use ludotheca_engine::rng::Rng;
use ludotheca_engine::{Compiled, Game, Outcome, RulesFile, mcts};

#[derive(Clone, Copy, Debug)]
enum Player {
    Random,
    AlphaBeta(u64),
    /// Alpha-beta as the page runs it, avoiding the positions of the game so far.
    Page(u64),
    /// Iterations and the random games' cap in plies.
    Mcts(u64, u32),
}

fn parse_player(s: &str) -> Player {
    let (kind, n) = s.split_once(':').unwrap_or((s, "0"));
    match kind {
        "random" => Player::Random,
        "ab" => Player::AlphaBeta(n.parse().unwrap_or_else(|_| panic!("bad budget in {s}"))),
        "page" => Player::Page(n.parse().unwrap_or_else(|_| panic!("bad budget in {s}"))),
        "mcts" => {
            let (n, cap) = n.split_once('/').unwrap_or((n, ""));
            Player::Mcts(
                n.parse().unwrap_or_else(|_| panic!("bad budget in {s}")),
                cap.parse().unwrap_or(mcts::PLAYOUT_CAP),
            )
        }
        _ => panic!("unknown player {s}: random, ab:NODES, page:NODES or mcts:ITERATIONS"),
    }
}

/// Whether two positions count as the same for the page's player (`player::same_placement` on the family's own
/// type).
type Same<P> = fn(&P, &P) -> bool;

fn pick<G: Game>(
    game: &G,
    pos: &G::Position,
    p: Player,
    seed: u64,
    (line, same): (&[G::Position], Same<G::Position>),
) -> Option<G::Move> {
    match p {
        Player::Random => {
            let mut moves = Vec::new();
            game.legal_moves(pos, &mut moves).ok()?;
            (!moves.is_empty()).then(|| moves.swap_remove(Rng::new(seed).below(moves.len())))
        }
        Player::AlphaBeta(n) => player::choose(game, pos, &Limits::nodes(n), seed)
            .ok()
            .flatten()
            .map(|c| c.best),
        Player::Page(n) => {
            let seen = |q: &G::Position| line.iter().any(|earlier| same(earlier, q));
            player::choose_fresh(game, pos, &Limits::nodes(n), seed, &seen)
                .ok()
                .flatten()
                .map(|c| c.best)
        }
        Player::Mcts(n, cap) => mcts::choose_capped(game, pos, &Limits::nodes(n), seed, cap)
            .ok()
            .flatten()
            .map(|c| c.best),
    }
}

/// Nanoseconds this thread has run on a CPU (the scheduler's count, so a busy machine does not inflate it).
fn thread_cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// One game; `players[s]` plays side `s`. The outcome (`None`: no move given before the game ended), the plies,
/// and each side's thinking: moves made and CPU nanoseconds.
fn play<G: Game>(
    game: &G,
    players: [Player; 2],
    seed: u64,
    same: Same<G::Position>,
) -> (Option<Outcome>, u32, [(u64, u64); 2]) {
    let mut thinking = [(0u64, 0u64); 2];
    let mut pos = game.start();
    let mut plies = 0u32;
    // The positions played so far, as the page passes them to its player.
    let mut line = vec![pos.clone()];
    // Every catalogued ruleset has a move cap below this.
    while plies < 5000 {
        let side = game.side_to_move(&pos) as usize;
        let s = seed
            .wrapping_mul(0x9E37_79B9)
            .wrapping_add(u64::from(plies));
        let t0 = thread_cpu_ns();
        let Some(mv) = pick(game, &pos, players[side], s, (&line, same)) else {
            break;
        };
        thinking[side].0 += 1;
        thinking[side].1 += thread_cpu_ns() - t0;
        game.play(&mut pos, &mv);
        if players.iter().any(|p| matches!(p, Player::Page(_))) {
            line.push(pos.clone());
        }
        plies += 1;
    }
    (game.outcome(&pos), plies, thinking)
}

fn cpu_seconds() -> f64 {
    // utime + stime of this process, in clock ticks (100 a second on Linux).
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after = stat.rsplit(')').next().unwrap_or("");
    let f: Vec<&str> = after.split_whitespace().collect();
    let t = |i: usize| f.get(i).and_then(|x| x.parse::<f64>().ok()).unwrap_or(0.0);
    (t(11) + t(12)) / 100.0
}

fn run<G: Game + Sync>(
    game: &G,
    (a, b): (Player, Player),
    (games, seed, threads): (u64, u64, u64),
    same: Same<G::Position>,
) {
    // A's wins, draws, losses; games at the cap; plies of each game.
    let next = AtomicU64::new(0);
    let results = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= games {
                        break;
                    }
                    let a_side = (i % 2) as u8;
                    let players = if a_side == 0 { [a, b] } else { [b, a] };
                    let (outcome, plies, thinking) =
                        play(game, players, seed.wrapping_add(i), same);
                    // As A's and B's, whichever side each played.
                    let t = if a_side == 0 {
                        thinking
                    } else {
                        [thinking[1], thinking[0]]
                    };
                    results.lock().unwrap().push((i, a_side, outcome, plies, t));
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|r| r.0);
    let (mut w, mut d, mut l, mut unfinished) = (0, 0, 0, 0);
    let mut lengths = Vec::new();
    let mut capped = 0;
    let mut thought = [(0u64, 0u64); 2];
    for &(_, a_side, outcome, plies, t) in &results {
        for k in 0..2 {
            thought[k].0 += t[k].0;
            thought[k].1 += t[k].1;
        }
        lengths.push(plies);
        match outcome {
            Some(Outcome::Win(s)) if s == a_side => w += 1,
            Some(Outcome::Win(_)) => l += 1,
            Some(Outcome::Draw) => d += 1,
            None => unfinished += 1,
        }
        if matches!(outcome, Some(Outcome::Draw)) && plies >= 300 {
            capped += 1;
        }
    }
    lengths.sort_unstable();
    let median = lengths.get(lengths.len() / 2).copied().unwrap_or(0);
    println!(
        "{a:?} vs {b:?}: {games} games: A wins {w}, draws {d}, A losses {l}, unfinished {unfinished}; \
         draws of 300 plies or more {capped}; median length {median} plies; {:.1} CPU s; \
         CPU ms a move: A {:.2}, B {:.2}",
        cpu_seconds(),
        thought[0].1 as f64 / 1e6 / thought[0].0.max(1) as f64,
        thought[1].1 as f64 / 1e6 / thought[1].0.max(1) as f64,
    );
}

/// The player's speed over the first `plies` plies of a game against itself: nodes (alpha-beta) or iterations
/// (tree search) per CPU second, to compare with the page's engine (tests/board/think_budget.js) on the same
/// positions.
fn rate<G: Game>(game: &G, p: Player, budget: u64, plies: u32) {
    let mut pos = game.start();
    let mut rates = Vec::new();
    for ply in 0..plies {
        let seed = 7 + u64::from(ply);
        let t0 = thread_cpu_ns();
        let choice = match p {
            Player::AlphaBeta(_) | Player::Page(_) => {
                player::choose(game, &pos, &Limits::nodes(budget), seed)
            }
            Player::Mcts(_, cap) => {
                mcts::choose_capped(game, &pos, &Limits::nodes(budget), seed, cap)
            }
            Player::Random => panic!("random play has no speed to measure"),
        };
        let ns = thread_cpu_ns() - t0;
        let Ok(Some(c)) = choice else { break };
        rates.push(c.nodes as f64 / (ns as f64 / 1e9));
        game.play(&mut pos, &c.best);
    }
    rates.sort_by(f64::total_cmp);
    let median = rates
        .get(rates.len().saturating_sub(1) / 2)
        .copied()
        .unwrap_or(0.0);
    println!(
        "{p:?}: {budget} a move; median {median:.0} a CPU second over {} plies",
        rates.len()
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 5 {
        eprintln!(
            "usage: match RULES-FILE RULESET A B GAMES [SEED] [THREADS]\n       \
             match RULES-FILE RULESET rate PLAYER BUDGET [PLIES]"
        );
        std::process::exit(2);
    }
    let src = std::fs::read_to_string(&args[0]).unwrap_or_else(|e| panic!("{}: {e}", args[0]));
    let file = RulesFile::parse(&src).unwrap_or_else(|e| panic!("{}:{e}", args[0]));
    let game = file
        .compile((args[1] != "-").then_some(args[1].as_str()))
        .unwrap_or_else(|e| panic!("{}:{e}", args[0]));
    if args[2] == "rate" {
        let p = parse_player(&args[3]);
        let budget = args[4].parse().expect("BUDGET is a number");
        let plies = args.get(5).and_then(|s| s.parse().ok()).unwrap_or(6);
        match &game {
            Compiled::Lines(g) => rate(g.as_ref(), p, budget, plies),
            Compiled::Sowing(g) => rate(g.as_ref(), p, budget, plies),
        }
        return;
    }
    let a = parse_player(&args[2]);
    let b = parse_player(&args[3]);
    let games: u64 = args[4].parse().expect("GAMES is a number");
    let seed: u64 = args.get(5).and_then(|s| s.parse().ok()).unwrap_or(1);
    let threads: u64 = args.get(6).and_then(|s| s.parse().ok()).unwrap_or(1);
    // On the family's own type: no dispatch in the players' inner loops.
    match &game {
        Compiled::Lines(g) => run(g.as_ref(), (a, b), (games, seed, threads), |p, q| {
            player::same_placement(
                &ludotheca_engine::AnyPosition::Lines(p.clone()),
                &ludotheca_engine::AnyPosition::Lines(q.clone()),
            )
        }),
        // Sowing games capture as they go; the page's player compares no sowing positions.
        Compiled::Sowing(g) => run(g.as_ref(), (a, b), (games, seed, threads), |_, _| false),
    }
}
