//! The engine's commands on the sowing games of the shipped catalog: `moves`, `perft` and `show` on Tchouba and
//! Shimunana, as a person runs them.

mod common;

use common::{ludotheca, stderr, stdout};

#[test]
fn moves_of_tchouba_on_the_4x8_board() {
    let out = ludotheca(&["moves", "tchouba", "--ruleset", "4x8"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let moves: Vec<&str> = text.lines().collect();
    // Perft 1 of 4x8, cross-checked by the engine's brute-force test: 8 openings capture nothing and 8 capture,
    // each with 14 choices of the extra hole (North's 16 holes less the two of the file): 8 + 8 x 14.
    assert_eq!(moves.len(), 120, "{text}");
    // The openings from holes 1 to 3 and 12 to 16 end their relay in an empty inner hole and capture; those
    // from 4 to 11 do not.
    assert_eq!(&moves[..3], ["1(x2+pit1)", "1(x2+pit2)", "1(x2+pit4)"]);
    assert_eq!(
        moves
            .iter()
            .filter(|m| !m.contains('('))
            .copied()
            .collect::<Vec<&str>>(),
        ["4", "5", "6", "7", "8", "9", "10", "11"]
    );
    assert!(moves.contains(&"12(x2+pit10)"), "{text}");
    assert!(moves.contains(&"13(x2+pit8)"), "{text}");
    // Every capture on this board names exactly one extra hole.
    assert!(
        moves
            .iter()
            .filter(|m| m.contains('('))
            .all(|m| m.matches("pit").count() == 1 && !m.contains('&')),
        "{text}"
    );
    // After a move, the other side's moves, read back in the same notation.
    let after = ludotheca(&["moves", "tchouba", "--ruleset", "4x8", "--after", "1. 9"]);
    assert!(after.status.success(), "{}", stderr(&after));
    assert!(!stdout(&after).is_empty());
    // Naming a hole of the captured file as the extra hole is refused, with the reason and the legal moves.
    let bad = ludotheca(&[
        "moves",
        "tchouba",
        "--ruleset",
        "4x8",
        "--after",
        "1. 12(x2+pit9)",
    ]);
    assert_eq!(bad.status.code(), Some(2));
    let err = stderr(&bad);
    assert!(err.contains("extra hole"), "{err}");
    assert!(
        err.contains("legal moves here: 1(x2+pit1) 1(x2+pit2)"),
        "{err}"
    );
}

/// `moves --format json` on a sowing game: each move names the holes it empties and counts their seeds.
#[test]
fn moves_as_json_tell_what_a_sowing_captures() {
    let out = ludotheca(&["moves", "tchouba", "--ruleset", "4x8", "--format", "json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let list: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("JSON output");
    let list = list.as_array().expect("an array");
    assert_eq!(list.len(), 120);
    let n = 8;
    let mut captures = 0;
    for mv in list {
        let notation = mv["notation"].as_str().expect("notation");
        let captured: Vec<u64> = mv["captured"]
            .as_array()
            .expect("captured")
            .iter()
            .map(|h| {
                h.as_str()
                    .and_then(|h| h.parse().ok())
                    .expect("a hole number")
            })
            .collect();
        let seeds = mv["captured_seeds"].as_u64().expect("captured_seeds");
        let Some((_, annotation)) = notation.split_once('(') else {
            assert!(captured.is_empty(), "{notation}: {captured:?}");
            assert_eq!(seeds, 0, "{notation}");
            continue;
        };
        captures += 1;
        // `(x2+pit7)`: the inner and outer hole of the file, then the extra hole, in North's numbering.
        let file: usize = annotation[1..2].parse().expect("the count of file holes");
        let extras: Vec<u64> = annotation
            .trim_end_matches(')')
            .split("+pit")
            .skip(1)
            .flat_map(|e| e.split('&'))
            .map(|e| e.parse().expect("an extra hole"))
            .collect();
        assert_eq!(
            captured.len(),
            file + extras.len(),
            "{notation}: {captured:?}"
        );
        assert!(
            (1..=n).contains(&captured[0]),
            "{notation}: the file's inner hole first"
        );
        if file == 2 {
            // The outer hole of the file of inner hole j is 2n + 1 - j (docs/sowing.md).
            assert_eq!(captured[1], 2 * n + 1 - captured[0], "{notation}");
        }
        assert_eq!(captured[file..], extras[..], "{notation}");
        // North's holes hold their two starting seeds each: an opening sows only the mover's own.
        assert_eq!(seeds, 2 * captured.len() as u64, "{notation}");
    }
    assert_eq!(captures, 112);
}

#[test]
fn perft_of_shimunana_to_depth_4() {
    let out = ludotheca(&["perft", "shimunana", "--depth", "4"]);
    assert!(out.status.success(), "{}", stderr(&out));
    // Cross-checked against the brute-force mover of engine/tests/sowing.rs.
    assert_eq!(stdout(&out), "1 28\n2 374\n3 2646\n4 14140\n");
}

#[test]
fn show_replays_a_sowing_record() {
    let out = ludotheca(&["show", "shimunana", "demo-capture", "--ply", "0"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("ply 0 of 1"), "{text}");
    // Rows of holes, each with its number and seeds, North's outer row on top.
    assert!(
        text.contains("\nN outer  N8:0  N7:0  N6:1  N5:2\n"),
        "{text}"
    );
    assert!(
        text.contains("\nS outer  S5:0  S6:0  S7:2  S8:0\n"),
        "{text}"
    );
    assert!(text.contains("0,0,1,2/0,4,0,3/0,0,0,0/0,0,2,0 S"), "{text}");
    assert!(text.contains("South to move"), "{text}");
    let end = stdout(&ludotheca(&["show", "shimunana", "demo-capture"]));
    assert!(end.contains("ply 1 of 1: 7(x2+pit2)"), "{end}");
    assert!(end.contains("captured=9,0"), "{end}");
    assert!(end.contains("North to move"), "{end}");
    // A record under another ruleset of its game (4x8) is replayed under that ruleset.
    let puzzle = stdout(&ludotheca(&["show", "tchouba", "puzzle-4x8-constructed"]));
    assert!(
        puzzle.contains("ply 3 of 3: 2(x2+pit10) 2 1(x1+pit3)"),
        "{puzzle}"
    );
    assert!(puzzle.contains("game over: South win"), "{puzzle}");
    let lap_cap = stdout(&ludotheca(&["show", "shimunana", "demo-lap-cap"]));
    assert!(lap_cap.contains(" capped\n"), "{lap_cap}");
    assert!(lap_cap.contains("game over: drawn"), "{lap_cap}");
}
