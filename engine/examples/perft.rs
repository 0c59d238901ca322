//! `cargo run --release -p ludotheca-engine --example perft -- RULES-FILE [RULESET] DEPTH`: perft of a rules file,
//! one line per depth with its time.

use ludotheca_engine::{Compiled, Game, perft::perft};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (file, ruleset, depth) = match args.len() {
        2 => (&args[0], None, &args[1]),
        3 => (&args[0], Some(args[1].as_str()), &args[2]),
        _ => {
            eprintln!("usage: perft RULES-FILE [RULESET] DEPTH");
            std::process::exit(2);
        }
    };
    let src = std::fs::read_to_string(file).unwrap_or_else(|e| {
        eprintln!("{file}: {e}");
        std::process::exit(2)
    });
    let game = ludotheca_engine::compile(&src, ruleset).unwrap_or_else(|e| {
        eprintln!("{file}:{e}");
        std::process::exit(1)
    });
    let depth: u32 = depth.parse().unwrap_or(4);
    for d in 1..=depth {
        let t = std::time::Instant::now();
        let n = match &game {
            Compiled::Lines(g) => perft(g.as_ref(), &mut g.start(), d).unwrap_or(0),
            Compiled::Sowing(g) => perft(g.as_ref(), &mut g.start(), d).unwrap_or(0),
        };
        println!("{d} {n} ({:.3} s)", t.elapsed().as_secs_f64());
    }
}
