//! The engine's commands as a person runs them on the shipped catalog: `perft`, `moves`, `bench` and `show`.

mod common;

use common::{ludotheca, stderr, stdout};

#[test]
fn perft_of_a_catalogued_game_prints_one_line_per_depth() {
    let out = ludotheca(&["perft", "bagh-chal", "--depth", "3"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "1 21\n2 252\n3 5052\n");
}

#[test]
fn perft_of_a_rules_file_and_of_a_named_ruleset() {
    let out = ludotheca(&[
        "perft",
        "--rules",
        "catalog/games/bagh-chal/rules.txt",
        "--depth",
        "2",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "1 21\n2 252\n");
    // Shimunana, the 4x4 sowing game: 28 openings (cross-checked by the engine's brute-force test).
    let out = ludotheca(&["perft", "shimunana", "--depth", "1"]);
    assert_eq!(stdout(&out), "1 28\n");
}

#[test]
fn moves_after_some_moves_lists_captures_and_steps() {
    let out = ludotheca(&["moves", "bagh-chal", "--after", "1. @c3 a1-b2 2. @b3"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let moves: Vec<String> = stdout(&out).lines().map(str::to_string).collect();
    // The tiger on b2 may jump the goat on b3 (to b4) or the goat on c3 (to d4); Bagh-Chal captures are optional.
    assert!(moves.contains(&"b2xb4".to_string()), "{moves:?}");
    assert!(moves.contains(&"b2xd4".to_string()), "{moves:?}");
    assert!(moves.contains(&"e5-e4".to_string()), "{moves:?}");
    assert!(
        !moves.iter().any(|m| m.starts_with('@')),
        "tigers do not place: {moves:?}"
    );
}

#[test]
fn moves_as_json_describe_points() {
    let out = ludotheca(&[
        "moves",
        "bagh-chal",
        "--after",
        "1. @c3 a1-b2 2. @b3",
        "--format",
        "json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let list: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("JSON output");
    let jump = list
        .as_array()
        .expect("an array")
        .iter()
        .find(|m| m["notation"] == "b2xb4")
        .expect("the jump is listed");
    assert_eq!(jump["from"], "b2");
    assert_eq!(jump["to"], "b4");
    assert_eq!(jump["path"], serde_json::json!(["b2", "b4"]));
    assert_eq!(jump["captured"], serde_json::json!(["b3"]));
    // A point holds one piece: the seed count is a sowing game's alone.
    assert!(jump.get("captured_seeds").is_none(), "{jump}");
}

#[test]
fn an_illegal_move_in_after_is_refused_with_the_legal_moves() {
    let out = ludotheca(&["moves", "bagh-chal", "--after", "1. a1-b2"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("--after:1:4"), "{err}");
    assert!(err.contains("legal moves here: @a2"), "{err}");
}

#[test]
fn an_unknown_game_suggests_the_closest() {
    let out = ludotheca(&["perft", "baghchal", "--depth", "1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("did you mean `bagh-chal`?"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn bench_reports_playouts_and_moves_per_second() {
    let out = ludotheca(&["bench", "bagh-chal", "--seconds", "0.2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("playouts/s") && text.contains("moves/s"),
        "{text}"
    );
    // The report says which rules it ran, then the count.
    let (rules, measured) = text.split_once(": ").expect("the rules, then the figures");
    assert_eq!(rules, "Bagh-Chal, ruleset common (\"Common modern rules\")");
    let games: u64 = measured
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .expect("the count of playouts comes first");
    assert!(games > 0, "{text}");
}

#[test]
fn an_unknown_ruleset_is_reported_against_the_rules_file_with_a_suggestion() {
    for command in [
        vec!["moves", "tchouba", "--ruleset", "4x61"],
        vec!["perft", "tchouba", "--ruleset", "4x61", "--depth", "1"],
        vec!["bench", "tchouba", "--ruleset", "4x61"],
    ] {
        let out = ludotheca(&command);
        assert_eq!(out.status.code(), Some(2));
        let err = stderr(&out);
        assert!(
            err.starts_with("error[E107]: the rules declare no ruleset named `4x61`\n"),
            "{err}"
        );
        assert!(
            err.contains("--> catalog/games/tchouba/rules.txt:"),
            "{err}"
        );
        assert!(err.contains("= help: did you mean `4x16`?"), "{err}");
    }
}

#[test]
fn rules_errors_are_rendered_as_check_renders_them_every_one() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let rules = dir.path().join("rules.txt");
    let text = std::fs::read_to_string("catalog/games/bagh-chal/rules.txt")
        .expect("the shipped rules")
        .replace("outcome captures 5 wins", "outcome capture 5 wins")
        .replace("piece goat \"Goat\": step", "piece goat \"Goat\": hop");
    std::fs::write(&rules, text).expect("the rules can be written");
    let out = ludotheca(&[
        "perft",
        "--rules",
        &rules.display().to_string(),
        "--depth",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert_eq!(err.matches("error[E100]").count(), 2, "{err}");
    assert!(err.contains("did you mean `captures`?"), "{err}");
    assert!(err.contains("^^^"), "the whole word is underlined: {err}");
    assert!(err.contains("2 errors, 0 warnings"), "{err}");
}

#[test]
fn show_prints_a_record_at_a_ply() {
    let out = ludotheca(&["show", "bagh-chal", "demo-placement", "--ply", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("ply 1 of 4: @c3"), "{text}");
    // The board is drawn with its point names, each followed by the piece on it.
    assert!(text.contains("\na5T b5. c5. d5. e5T\n"), "{text}");
    assert!(text.contains("\na3. b3. c3g d3. e3.\n"), "{text}");
    assert!(text.contains("Tigers to move"), "{text}");
    let end = stdout(&ludotheca(&["show", "bagh-chal", "demo-placement"]));
    assert!(end.contains("tigers captured 1"), "{end}");
    let past = ludotheca(&["show", "bagh-chal", "demo-placement", "--ply", "99"]);
    assert_eq!(past.status.code(), Some(2));
    let missing = ludotheca(&["show", "bagh-chal", "no-such-record"]);
    assert!(
        stderr(&missing).contains("demo-placement"),
        "lists the records"
    );
}

#[test]
fn bench_refuses_a_time_that_is_not_a_sane_number_of_seconds() {
    for seconds in ["1e30", "inf", "-inf", "NaN", "0", "-1", "3601", "soon"] {
        // `--seconds=-1`: a separate `-1` would read as a flag.
        let flag = format!("--seconds={seconds}");
        let out = ludotheca(&["bench", "bagh-chal", &flag]);
        assert_eq!(out.status.code(), Some(2), "--seconds {seconds}");
        let err = stderr(&out);
        assert!(
            err.contains("--seconds")
                && (err.contains("0.01 to 3600") || err.contains("not a number")),
            "--seconds {seconds}: {err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn perft_depth_is_capped() {
    for depth in ["0", "21", "4294967295", "-3"] {
        let flag = format!("--depth={depth}");
        let out = ludotheca(&["perft", "bagh-chal", &flag]);
        assert_eq!(out.status.code(), Some(2), "--depth {depth}");
        assert!(stderr(&out).contains("--depth"), "{}", stderr(&out));
    }
    let out = ludotheca(&["perft", "shimunana", "--depth", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn show_reports_a_record_that_does_not_replay_as_check_does() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let record = dir.path().join("bad.game");
    let text = std::fs::read_to_string("catalog/games/bagh-chal/games/demo-placement.game")
        .expect("the shipped record")
        .replacen("@c3", "@c9", 1);
    std::fs::write(&record, text).expect("the record can be written");
    let out = ludotheca(&["show", "bagh-chal", &record.display().to_string()]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.starts_with("error[E103]: illegal move"), "{err}");
    assert!(err.contains("bad.game:"), "{err}");
    assert!(err.contains("^^^"), "the whole move is underlined: {err}");
    assert!(err.contains("= note: legal moves here:"), "{err}");
}
