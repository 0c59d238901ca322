//! Random playouts per second for the sowing games, for comparison with a general game system (about 380/s on
//! Tchouba 4x4 and 440/s on 4x22 on one core of these machines, see `reference/toolchain-facts.md`).
//!
//! Run: `cargo run --release -p ludotheca-engine --example sowing_bench [seconds-per-run] [runs] [name filter]`.
//! Each run plays whole random games from the start for the given time on one thread; the median run is
//! reported, with the plies per second and how games ended, so a fast figure cannot hide short or capped games.
//! Two loops are timed: "listed", the generic loop every game family shares (list the legal moves, index one at
//! random, play it), and "playout", the sowing module's own, which draws the same move without listing every
//! choice of extra holes.

use ludotheca_engine::game::{Game, Outcome};
use ludotheca_engine::rng::Rng;
use ludotheca_engine::sowing::{SowingGame, SowingMove, SowingPosition, SowingRules};
use std::time::{Duration, Instant};

struct Run {
    games: u64,
    plies: u64,
    draws: u64,
    secs: f64,
}

fn listed_playout(
    game: &SowingGame,
    pos: &mut SowingPosition,
    rng: &mut Rng,
    moves: &mut Vec<SowingMove>,
) -> Outcome {
    loop {
        moves.clear();
        game.legal_moves(pos, moves).unwrap();
        if moves.is_empty() {
            return game.outcome(pos).unwrap_or(Outcome::Draw);
        }
        let mv = moves[rng.below(moves.len())];
        game.play(pos, &mv);
    }
}

fn run(game: &SowingGame, seed: u64, budget: Duration, listed: bool) -> Run {
    let mut rng = Rng::new(seed);
    let mut moves = Vec::with_capacity(4096);
    let start = Instant::now();
    let mut r = Run {
        games: 0,
        plies: 0,
        draws: 0,
        secs: 0.0,
    };
    // Check the clock every few games only, so timing does not weigh on short games.
    while start.elapsed() < budget {
        for _ in 0..16 {
            let mut pos = game.start();
            let outcome = if listed {
                listed_playout(game, &mut pos, &mut rng, &mut moves)
            } else {
                game.random_playout(&mut pos, &mut rng)
            };
            r.games += 1;
            r.plies += u64::from(pos.ply());
            r.draws += u64::from(outcome == Outcome::Draw);
        }
    }
    r.secs = start.elapsed().as_secs_f64();
    r
}

fn main() {
    let mut args = std::env::args().skip(1);
    let secs: f64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(2.0);
    let runs: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(5);
    let filter = args.next().unwrap_or_default();
    let budget = Duration::from_secs_f64(secs);
    for (name, rules, baseline) in [
        ("Shimunana 4x4", SowingRules::shimunana(), Some(380.0)),
        ("Tchouba 4x22", SowingRules::tchouba(22), Some(440.0)),
        ("Tchouba 4x40", SowingRules::tchouba(40), None),
        (
            "reconstruction 4x4",
            SowingRules::tchouba_reconstruction(4),
            None,
        ),
    ] {
        if !name.contains(&filter) {
            continue;
        }
        let game = match SowingGame::new(rules) {
            Ok(g) => g,
            Err(e) => {
                eprintln!("{name}: {e}");
                continue;
            }
        };
        for (how, listed) in [("playout", false), ("listed", true)] {
            let mut results: Vec<Run> = (0..runs)
                .map(|i| run(&game, 0xbe9c_0000 + i as u64, budget, listed))
                .collect();
            let rate = |r: &Run| r.games as f64 / r.secs;
            results.sort_by(|a, b| rate(a).total_cmp(&rate(b)));
            let all: Vec<String> = results.iter().map(|r| format!("{:.0}", rate(r))).collect();
            let Some(m) = results.get(results.len() / 2) else {
                continue;
            };
            let versus = baseline
                .map(|b| format!(", {:.0}x the general system's {b}/s", rate(m) / b))
                .unwrap_or_default();
            println!(
                "{name} ({how}): median {:.0} playouts/s{versus} (runs: {}); {:.0} plies/s, \
                 {:.1} plies/game, {:.1}% draws",
                rate(m),
                all.join(" "),
                m.plies as f64 / m.secs,
                m.plies as f64 / m.games.max(1) as f64,
                100.0 * m.draws as f64 / m.games.max(1) as f64,
            );
        }
    }
}
