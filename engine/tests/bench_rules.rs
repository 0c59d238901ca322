//! The benchmark rules in `benches/rules`: every file compiles in every ruleset it declares, and the perft
//! counts its README gives are the engine's.

use ludotheca_engine::{RulesFile, compile};

fn bench_file(name: &str) -> String {
    let path = format!("{}/../benches/rules/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn every_benchmark_file_compiles_in_every_ruleset() {
    let folder = format!("{}/../benches/rules", env!("CARGO_MANIFEST_DIR"));
    let mut names: Vec<String> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".rules.txt"))
        .collect();
    names.sort();
    assert_eq!(names.len(), 8, "{names:?}");
    for name in names {
        let rules = RulesFile::parse(&bench_file(&name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(!rules.rulesets.is_empty(), "{name} names its rulesets");
        for r in &rules.rulesets {
            let game = rules
                .compile(Some(&r.info.name))
                .unwrap_or_else(|e| panic!("{name} {}: {e}", r.info.name));
            // Random games end within the turn limit: every playout finishes.
            let stats = game.playouts(20, 7, 10_000);
            assert_eq!(stats.unfinished, 0, "{name} {}", r.info.name);
        }
    }
}

fn perft_counts(name: &str, ruleset: &str, counts: &[u64]) {
    let game = compile(&bench_file(name), Some(ruleset)).unwrap();
    for (depth, &n) in counts.iter().enumerate() {
        assert_eq!(
            game.perft(depth as u32 + 1),
            Ok(n),
            "{name} {ruleset} depth {}",
            depth + 1
        );
    }
}

#[test]
fn bagh_chal_perft_to_depth_5() {
    perft_counts(
        "bagh-chal.rules.txt",
        "all",
        &[21, 252, 5_052, 68_204, 1_304_788],
    );
}

#[test]
fn terhuchu_small_board_perft_to_depth_5() {
    perft_counts(
        "terhuchu-small.rules.txt",
        "ten",
        &[9, 69, 783, 8_685, 102_390],
    );
}
