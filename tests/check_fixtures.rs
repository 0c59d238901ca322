//! Runs `ludotheca check` on every fixture catalog and compares its output with a snapshot.
//!
//! Each folder of `tests/fixtures/invalid/` is a tiny catalog named after the diagnostic it demonstrates
//! (`E017-unknown-reference`); its `expected.txt` holds the exact human report followed by the exit code.
//! `UPDATE_SNAPSHOTS=1 cargo test` rewrites the snapshots after an intended change.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const FIXTURES: &str = "tests/fixtures/invalid";

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Run the binary from the package folder, so the paths it prints are relative and stable.
fn ludotheca(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ludotheca"))
        .args(args)
        .current_dir(manifest_dir())
        .env_remove("NO_COLOR")
        .output()
        .expect("the ludotheca binary runs")
}

fn report(output: &Output) -> String {
    format!(
        "{}exit code: {}\n",
        String::from_utf8_lossy(&output.stdout),
        output
            .status
            .code()
            .map_or("none".to_string(), |c| c.to_string())
    )
}

fn fixture_names() -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(manifest_dir().join(FIXTURES))
        .expect("the fixtures folder exists")
        .map(|e| {
            e.expect("a readable entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|n| !n.starts_with('.'))
        .collect();
    names.sort();
    names
}

/// The E005 fixture needs a record over 1 MiB; it is made here rather than kept in the repository.
struct LargeRecord(PathBuf);

impl LargeRecord {
    fn create(fixture: &Path) -> Option<LargeRecord> {
        if !fixture.ends_with("E005-record-too-large") {
            return None;
        }
        let path = fixture.join("games/bagh-chal/record.xml");
        fs::create_dir_all(path.parent()?).ok()?;
        let filler = "x".repeat(1024 * 1024);
        let text = format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<record xmlns=\"urn:ludotheca:record:1\" kind=\"game\">\n<!-- {filler} -->\n</record>\n"
        );
        fs::write(&path, text).expect("the large record can be written");
        Some(LargeRecord(path))
    }
}

impl Drop for LargeRecord {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.0);
    }
}

#[test]
fn every_invalid_fixture_matches_its_snapshot() {
    let update = std::env::var_os("UPDATE_SNAPSHOTS").is_some();
    let mut failures = Vec::new();
    let names = fixture_names();
    assert!(
        names.len() >= 40,
        "expected a fixture per diagnostic, found {}",
        names.len()
    );
    for name in &names {
        let relative = format!("{FIXTURES}/{name}");
        let fixture = manifest_dir().join(&relative);
        let _large = LargeRecord::create(&fixture);
        let output = ludotheca(&["check", "--catalog", &relative]);
        let actual = report(&output);

        // The fixture must show the diagnostic it is named after.
        let code = name.split('-').next().unwrap_or_default();
        if !actual.contains(&format!("[{code}]")) {
            failures.push(format!(
                "{name}: the output does not contain {code}:\n{actual}"
            ));
        }
        let expected_exit = if code.starts_with('E') { 1 } else { 0 };
        if output.status.code() != Some(expected_exit) {
            failures.push(format!(
                "{name}: exit code {:?}, expected {expected_exit}",
                output.status.code()
            ));
        }

        let snapshot = fixture.join("expected.txt");
        if update {
            fs::write(&snapshot, &actual).expect("the snapshot can be written");
            continue;
        }
        match fs::read_to_string(&snapshot) {
            Ok(expected) if expected == actual => {}
            Ok(expected) => failures.push(format!(
                "{name}: output differs from expected.txt\n--- expected\n{expected}\n--- actual\n{actual}"
            )),
            Err(_) => failures.push(format!("{name}: no expected.txt (run with UPDATE_SNAPSHOTS=1)")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} fixture(s) failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn every_documented_code_has_a_fixture_and_back() {
    let docs = fs::read_to_string(manifest_dir().join("docs/diagnostics.md"))
        .expect("docs/diagnostics.md exists");
    let documented: Vec<String> = docs
        .lines()
        .filter_map(|l| l.strip_prefix("### "))
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect();
    assert!(
        documented.len() >= 40,
        "found only {} documented codes",
        documented.len()
    );
    let names = fixture_names();
    for code in &documented {
        assert!(
            names
                .iter()
                .any(|n| n.split('-').next() == Some(code.as_str())),
            "{code} is documented but has no fixture"
        );
    }
    for name in &names {
        let code = name.split('-').next().unwrap_or_default();
        assert!(
            documented.iter().any(|c| c == code),
            "fixture {name} is for {code}, which is not documented"
        );
    }
}

#[test]
fn the_valid_catalog_passes() {
    let output = ludotheca(&["check", "--catalog", "tests/fixtures/valid"]);
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        "0 errors, 0 warnings\n"
    );
    assert_eq!(output.status.code(), Some(0));
}

#[test]
fn json_lines_carry_code_and_position() {
    let output = ludotheca(&[
        "check",
        "--catalog",
        "tests/fixtures/invalid/E017-unknown-reference",
        "--format",
        "json",
    ]);
    assert_eq!(output.status.code(), Some(1));
    let stdout = String::from_utf8(output.stdout).expect("JSON output is UTF-8");
    let lines: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is one JSON object"))
        .collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    let first = &lines[0];
    assert_eq!(first["severity"], "error");
    assert_eq!(first["code"], "E017");
    assert_eq!(
        first["file"],
        "tests/fixtures/invalid/E017-unknown-reference/boards/board-pune/record.xml"
    );
    assert_eq!(first["line"], 9);
    assert_eq!(first["column"], 21);
    assert_eq!(first["length"], 10);
    assert_eq!(lines[1]["help"], "did you mean `bagh-chal`?");
    assert!(first["notes"].is_array());
}

#[test]
fn a_missing_catalog_is_an_io_error() {
    let output = ludotheca(&["check", "--catalog", "tests/fixtures/no-such-catalog"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("no-such-catalog"));
}

#[test]
fn usage_errors_exit_with_2() {
    assert_eq!(
        ludotheca(&["check", "--format", "xml"]).status.code(),
        Some(2)
    );
    assert_eq!(ludotheca(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(ludotheca(&[]).status.code(), Some(2));
}

#[test]
fn version_and_help() {
    let version = ludotheca(&["--version"]);
    assert_eq!(version.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&version.stdout).starts_with("ludotheca "));
    let help = ludotheca(&["--help"]);
    assert_eq!(help.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&help.stdout).contains("check"));
}

#[test]
fn the_default_catalog_is_the_catalog_folder() {
    // Run from an empty temporary folder: `./catalog` does not exist there, and the message names it.
    let dir = std::env::temp_dir().join(format!("ludotheca-default-{}", std::process::id()));
    fs::create_dir_all(&dir).expect("a temporary folder");
    let output = Command::new(env!("CARGO_BIN_EXE_ludotheca"))
        .arg("check")
        .current_dir(&dir)
        .output()
        .expect("the binary runs");
    let _ = fs::remove_dir_all(&dir);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("`catalog`"));
}
