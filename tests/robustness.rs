//! No panic on user input: damaged copies of a valid record and bibliography (cut short at every few
//! characters, or with markup characters pushed in) must load and check into diagnostics, never a crash.

use std::fs;
use std::path::PathBuf;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ludotheca-robust-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(dir.join("games/bagh-chal")).expect("a scratch catalog");
    fs::write(dir.join("ludotheca.toml"), "title = \"T\"\n").expect("config written");
    fs::write(dir.join("games/bagh-chal/rules.txt"), "#\n").expect("rules written");
    dir
}

fn fixture(path: &str) -> String {
    fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/valid")
            .join(path),
    )
    .expect("the valid fixture exists")
}

/// Variants of `text`: every prefix at a step of a few characters, and copies with a markup character inserted.
fn damaged(text: &str) -> Vec<String> {
    let boundaries: Vec<usize> = text
        .char_indices()
        .map(|(i, _)| i)
        .chain([text.len()])
        .collect();
    let mut out = Vec::new();
    for (n, &at) in boundaries.iter().enumerate() {
        if n % 3 == 0 {
            out.push(text[..at].to_string());
        }
        if n % 7 == 0 {
            for insert in ["<", "&", "\"", "{", "}", "@", "/>", "é"] {
                out.push(format!("{}{insert}{}", &text[..at], &text[at..]));
            }
        }
    }
    out
}

#[test]
fn damaged_records_never_panic() {
    let dir = scratch("record");
    fs::write(dir.join("sources.bib"), fixture("sources.bib")).expect("bibliography written");
    let record = fixture("games/bagh-chal/record.xml");
    let variants = damaged(&record);
    assert!(variants.len() > 500);
    let mut with_errors = 0;
    for variant in &variants {
        fs::write(dir.join("games/bagh-chal/record.xml"), variant).expect("record written");
        let (_, diagnostics) =
            ludotheca::load_and_check(&dir).expect("the catalog folder is readable");
        with_errors += usize::from(diagnostics.has_errors());
        for d in diagnostics.iter() {
            let _ = d.render_human(false);
            let _ = d.render_json();
        }
    }
    let _ = fs::remove_dir_all(&dir);
    // Most damage is an error; a few cuts (after the end tag) or insertions inside text are harmless.
    assert!(
        with_errors * 10 > variants.len() * 8,
        "{with_errors} of {}",
        variants.len()
    );
}

#[test]
fn damaged_bibliographies_never_panic() {
    let dir = scratch("bib");
    fs::write(
        dir.join("games/bagh-chal/record.xml"),
        fixture("games/bagh-chal/record.xml"),
    )
    .expect("record");
    for variant in damaged(&fixture("sources.bib")) {
        fs::write(dir.join("sources.bib"), &variant).expect("bibliography written");
        let (_, diagnostics) =
            ludotheca::load_and_check(&dir).expect("the catalog folder is readable");
        for d in diagnostics.iter() {
            let _ = d.render_human(false);
        }
    }
    let _ = fs::remove_dir_all(&dir);
}

/// Copies the valid fixture catalog into a scratch folder.
fn copy_valid(name: &str) -> PathBuf {
    fn copy(from: &std::path::Path, to: &std::path::Path) {
        fs::create_dir_all(to).expect("a scratch folder");
        for entry in fs::read_dir(from).expect("the fixture is readable") {
            let entry = entry.expect("an entry");
            let target = to.join(entry.file_name());
            if entry.path().is_dir() {
                copy(&entry.path(), &target);
            } else {
                fs::copy(entry.path(), &target).expect("a fixture file copied");
            }
        }
    }
    let dir = std::env::temp_dir().join(format!("ludotheca-robust-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    copy(
        &PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/valid"),
        &dir,
    );
    dir
}

/// Rules whose capture chains multiply without end: one line of a hundred points, flying captures, chains that
/// may stop after any capture, an enemy on every fourth point. The first move alone offers about 3^24 chains,
/// so nothing may list them: `check` reports the rules as unplayable, with the record of one illegal chain
/// beside them, and returns.
#[test]
fn check_refuses_rules_whose_capture_chains_multiply_without_end() {
    let dir = copy_valid("chains");
    let points: String = (0..100)
        .map(|i| format!("  point q{i} at {i} 0\n"))
        .collect();
    let line: Vec<String> = (0..100).map(|i| format!("q{i}")).collect();
    let enemies: Vec<String> = (3..100).step_by(4).map(|i| format!("q{i}")).collect();
    let rules = format!(
        "game \"Long line\"\nboard\n{points}  line {}\nend\nside white \"White\"\nside black \"Black\"\n\
         piece man \"Man\": slide, long-jump\nsetup\n  white: man on q0\n  black: man on {}\n  first white\nend\n\
         chain may-stop\n",
        line.join(" "),
        enemies.join(" ")
    );
    let game = dir.join("games/bagh-chal");
    fs::write(game.join("rules.txt"), rules).expect("rules written");
    fs::write(
        game.join("games/demo.game"),
        "[Event \"Chains\"]\n[Kind \"demonstration\"]\n\n1. q0xq3 *\n",
    )
    .expect("record written");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ludotheca"))
        .args(["check", "--catalog"])
        .arg(&dir)
        .output()
        .expect("the ludotheca binary runs");
    let report = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{report}");
    assert!(
        report.contains("E100") && report.contains("cannot be played"),
        "{report}"
    );
    assert!(report.len() < 10_000, "a short report: {report}");
    let _ = fs::remove_dir_all(&dir);
}
