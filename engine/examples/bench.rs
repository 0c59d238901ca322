//! `cargo run --release -p ludotheca-engine --example bench -- RULES-FILE [RULESET] [SECONDS] [RUNS]`: random
//! playouts per second and moves per second, on the family's own game type (no dispatch through `Compiled`),
//! as the median of several runs (default 3 runs of 3 seconds).
//!
//! Every family is timed with the generic loop (`random_playout`, which asks the family for a random move).
//! Points-and-lines games are also timed with `LinesGame::playouts`, the loop `ludotheca bench` runs (the same
//! games, compiled for the processor's bit-count instruction where it has one). Sowing games are also timed
//! with the sowing module's own playout loop, which draws the same uniform move without listing every choice
//! of extra holes, and are compared with a general game system measured on these machines (about 380 Tchouba
//! 4x4 playouts a second and 440 on 4x22, one core).

use ludotheca_engine::sowing::SowingGame;
use ludotheca_engine::{Compiled, Game, playout::random_playout, rng::Rng};
use std::time::Instant;

/// CPU seconds this process has used (user + system), from /proc on Linux: the machine is shared, so rates per
/// CPU second are steadier than rates per wall-clock second. `None` elsewhere.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let after = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// One timed run: playouts and plies per wall-clock second, and per CPU second when /proc tells.
struct Run {
    games_per_s: f64,
    plies_per_s: f64,
    cpu: Option<(f64, f64)>,
}

/// Plays whole games with `playout` (which returns the plies it played) for about `seconds`.
fn timed(seconds: f64, mut playout: impl FnMut() -> u64) -> Run {
    let cpu0 = cpu_seconds();
    let t = Instant::now();
    let (mut games, mut plies) = (0u64, 0u64);
    // Read the clock every 16 games only, so timing does not weigh on short games.
    while t.elapsed().as_secs_f64() < seconds {
        for _ in 0..16 {
            plies += playout();
            games += 1;
        }
    }
    let s = t.elapsed().as_secs_f64();
    let cpu = match (cpu0, cpu_seconds()) {
        (Some(a), Some(b)) if b > a => Some((games as f64 / (b - a), plies as f64 / (b - a))),
        _ => None,
    };
    Run {
        games_per_s: games as f64 / s,
        plies_per_s: plies as f64 / s,
        cpu,
    }
}

/// The generic loop every family shares.
fn listed<G: Game>(game: &G, seconds: f64, seed: u64) -> Run {
    let start = game.start();
    let mut rng = Rng::new(seed);
    let mut moves = Vec::with_capacity(64);
    timed(seconds, || {
        random_playout(game, &start, &mut rng, 100_000, &mut moves).plies as u64
    })
}

/// The sowing module's own loop.
fn sowing_playouts(game: &SowingGame, seconds: f64, seed: u64) -> Run {
    let mut rng = Rng::new(seed);
    timed(seconds, || {
        let mut pos = game.start();
        game.random_playout(&mut pos, &mut rng);
        u64::from(pos.ply())
    })
}

/// The general game system's playouts per second on the same Tchouba boards (see the module comment).
fn reference(game: &Compiled) -> Option<f64> {
    match game {
        Compiled::Sowing(g) => match g.holes_per_row() {
            4 => Some(380.0),
            22 => Some(440.0),
            _ => None,
        },
        Compiled::Lines(_) => None,
    }
}

/// Prints the median run (by playouts per CPU second when known, else per wall-clock second) and every run.
fn report(label: &str, mut runs: Vec<Run>, versus: Option<f64>) {
    let key = |r: &Run| r.cpu.map_or(r.games_per_s, |c| c.0);
    runs.sort_by(|a, b| key(a).total_cmp(&key(b)));
    let all: Vec<String> = runs.iter().map(|r| format!("{:.0}", key(r))).collect();
    let Some(m) = runs.get(runs.len() / 2) else {
        return;
    };
    let cpu = m
        .cpu
        .map(|(g, p)| format!(" (per CPU second: {g:.0} playouts, {p:.0} moves)"))
        .unwrap_or_default();
    let ratio = versus
        .map(|v| format!("; {:.0}x the general system's {v:.0}/s", key(m) / v))
        .unwrap_or_default();
    println!(
        "{label}: median of {} runs {:.0} playouts/s, {:.0} moves/s{cpu}{ratio}; runs: {}",
        runs.len(),
        m.games_per_s,
        m.plies_per_s,
        all.join(" ")
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(file) = args.first() else {
        eprintln!("usage: bench RULES-FILE [RULESET] [SECONDS] [RUNS]");
        std::process::exit(2);
    };
    let ruleset = args
        .get(1)
        .filter(|a| a.parse::<f64>().is_err())
        .map(String::as_str);
    let mut numbers = args.iter().skip(1).filter_map(|a| a.parse::<f64>().ok());
    let seconds = numbers.next().unwrap_or(3.0);
    let runs = numbers.next().map_or(3, |r| r.max(1.0) as u64);
    let src = std::fs::read_to_string(file).unwrap_or_else(|e| {
        eprintln!("{file}: {e}");
        std::process::exit(2)
    });
    let game = ludotheca_engine::compile(&src, ruleset).unwrap_or_else(|e| {
        eprintln!("{file}:{e}");
        std::process::exit(1)
    });
    let name = format!("{file} {}", ruleset.unwrap_or("(default)"));
    let versus = reference(&game);
    // Each run plays other games (its own seed), so the median is over different samples too.
    let listed_runs = (0..runs)
        .map(|i| match &game {
            Compiled::Lines(g) => listed(g.as_ref(), seconds, 1 + i),
            Compiled::Sowing(g) => listed(g.as_ref(), seconds, 1 + i),
        })
        .collect();
    report(&format!("{name} generic"), listed_runs, versus);
    if let Compiled::Lines(g) = &game {
        let own = (0..runs)
            .map(|i| {
                let mut round = 0;
                timed(seconds, || {
                    round += 1;
                    g.playouts(1, (1 + i) << 32 | round, 100_000).plies
                })
            })
            .collect();
        report(&format!("{name} playouts"), own, versus);
    }
    if let Compiled::Sowing(g) = &game {
        let own = (0..runs)
            .map(|i| sowing_playouts(g, seconds, 1 + i))
            .collect();
        report(&format!("{name} playout"), own, versus);
    }
}
