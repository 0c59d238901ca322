//! `cargo run --release -p ludotheca-engine --example bench -- RULES-FILE [RULESET] [SECONDS]`: random playouts
//! per second and moves per second, on the family's own game type (no dispatch through `Compiled`).

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

fn run<G: Game>(game: &G, seconds: f64) -> (f64, f64, Option<(f64, f64)>) {
    let cpu0 = cpu_seconds();
    let start = game.start();
    let mut rng = Rng::new(1);
    let mut moves = Vec::with_capacity(64);
    let t = Instant::now();
    let (mut games, mut plies) = (0u64, 0u64);
    while t.elapsed().as_secs_f64() < seconds {
        for _ in 0..16 {
            let p = random_playout(game, &start, &mut rng, 100_000, &mut moves);
            games += 1;
            plies += p.plies as u64;
        }
    }
    let s = t.elapsed().as_secs_f64();
    let cpu = match (cpu0, cpu_seconds()) {
        (Some(a), Some(b)) if b > a => Some((games as f64 / (b - a), plies as f64 / (b - a))),
        _ => None,
    };
    (games as f64 / s, plies as f64 / s, cpu)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(file) = args.first() else {
        eprintln!("usage: bench RULES-FILE [RULESET] [SECONDS]");
        std::process::exit(2);
    };
    let ruleset = args
        .get(1)
        .filter(|a| a.parse::<f64>().is_err())
        .map(String::as_str);
    let seconds: f64 = args
        .iter()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(3.0);
    let src = std::fs::read_to_string(file).unwrap_or_else(|e| {
        eprintln!("{file}: {e}");
        std::process::exit(2)
    });
    let game = ludotheca_engine::compile(&src, ruleset).unwrap_or_else(|e| {
        eprintln!("{file}:{e}");
        std::process::exit(1)
    });
    let (gps, mps, cpu) = match &game {
        Compiled::Lines(g) => run(g.as_ref(), seconds),
        Compiled::Sowing(g) => run(g.as_ref(), seconds),
    };
    let cpu = cpu
        .map(|(g, m)| format!(" (per CPU second: {g:.0} playouts, {m:.0} moves)"))
        .unwrap_or_default();
    println!(
        "{file} {}: {gps:.0} playouts/s, {mps:.0} moves/s{cpu}",
        ruleset.unwrap_or("(default)")
    );
}
