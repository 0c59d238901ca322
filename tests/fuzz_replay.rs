//! The fuzz targets' inputs, replayed on the stable toolchain without libFuzzer: every seed
//! (`fuzz/seeds/<target>/`) and every input that once made a target fail (`fuzz/regressions/<target>/`) goes
//! through the targets' own code, `fuzz/src/lib.rs`, compiled here as a module. A fixed bug that comes back
//! fails `cargo test`, whether or not anyone runs the fuzzer.

#[path = "../fuzz/src/lib.rs"]
mod targets;

use std::fs;
use std::panic;
use std::path::{Path, PathBuf};

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz")
}

/// The files of a folder, sorted; none when the folder does not exist.
fn inputs(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .map(|e| e.expect("a readable folder").path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

/// Runs every seed and regression input of `target` through it; fails listing each input that panics.
fn replay(target: &str) {
    let (_, body) = targets::TARGETS
        .iter()
        .find(|(name, _)| *name == target)
        .expect("a target of that name");
    let seeds = inputs(&fuzz_dir().join("seeds").join(target));
    assert!(!seeds.is_empty(), "`{target}` has no seeds");
    let regressions = inputs(&fuzz_dir().join("regressions").join(target));
    let mut failed = Vec::new();
    for path in seeds.iter().chain(&regressions) {
        let data = fs::read(path).expect("a readable input");
        if panic::catch_unwind(|| body(&data)).is_err() {
            failed.push(path.display().to_string());
        }
    }
    assert!(failed.is_empty(), "`{target}` fails on: {failed:?}");
}

#[test]
fn import_omeka_s() {
    replay("import_omeka_s");
}

#[test]
fn import_omeka_csv() {
    replay("import_omeka_csv");
}

#[test]
fn import_oai_pmh() {
    replay("import_oai_pmh");
}

#[test]
fn record() {
    replay("record");
}

#[test]
fn rules() {
    replay("rules");
}

#[test]
fn game_record() {
    replay("game_record");
}

#[test]
fn bibliography() {
    replay("bibliography");
}

#[test]
fn config() {
    replay("config");
}

#[test]
fn markdown() {
    replay("markdown");
}

/// Every target the fuzz crate builds is replayed here, and every target replayed here is built.
#[test]
fn every_target_is_replayed() {
    let manifest = fs::read_to_string(fuzz_dir().join("Cargo.toml")).expect("fuzz/Cargo.toml");
    let mut built: Vec<&str> = manifest
        .split("[[bin]]")
        .skip(1)
        .filter_map(|bin| bin.split("name = \"").nth(1)?.split('"').next())
        .collect();
    built.sort_unstable();
    let mut listed: Vec<&str> = targets::TARGETS.iter().map(|(name, _)| *name).collect();
    listed.sort_unstable();
    assert_eq!(built, listed);
    let this =
        fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(file!())).expect("this file");
    for name in listed {
        assert!(
            this.contains(&format!("replay(\"{name}\")")),
            "no test replays `{name}`"
        );
    }
}
