//! The page's API, natively: the JSON it answers, and that bad input gives errors, never panics.

use super::Session;

const TERHUCHU: &str = include_str!("../../../catalog/games/terhuchu/rules.txt");
const SHIMUNANA: &str = include_str!("../../../catalog/games/shimunana/rules.txt");

#[test]
fn compiles_and_reports_errors_with_line_and_column() {
    let s = Session::new(TERHUCHU, "").unwrap();
    let info = s.info_json();
    assert!(
        info.starts_with(r#"{"game":"Terhuchu","family":"lines","ruleset":"ten""#),
        "{info}"
    );
    assert!(info.contains(r#"{"name":"a1","x":0,"y":0}"#), "{info}");
    let broken = format!("{TERHUCHU}\nnonsense here\n");
    let e = Session::new(&broken, "").err().unwrap();
    let line = TERHUCHU.lines().count() + 2;
    assert!(e.contains(&format!(r#""line":{line},"column":1"#)), "{e}");
    assert!(Session::new(TERHUCHU, "no-such").is_err());
}

#[test]
fn plays_undoes_and_redoes_along_one_line() {
    let mut s = Session::new(TERHUCHU, "ten").unwrap();
    assert!(
        s.legal_json()
            .unwrap()
            .contains(r#""n":"a2-a3","a":"move","f":"a2","t":"a3""#)
    );
    s.play("a2-a3").unwrap();
    s.play("b4-b3").unwrap();
    assert!(s.state_json().contains(r#""ply":2,"length":2"#));
    s.goto(1);
    assert!(s.state_json().contains(r#""ply":1,"length":2"#));
    // Replaying the same move keeps the line; another move cuts it.
    s.play("b4-b3").unwrap();
    assert!(s.state_json().contains(r#""ply":2,"length":2"#));
    s.goto(1);
    s.play("c4-c3").unwrap();
    assert!(s.state_json().contains(r#""line":["a2-a3","c4-c3"]"#));
    assert!(s.play("e1-e5").is_err());
    assert!(!s.explain("e1-e5").is_empty());
    assert_eq!(s.explain("d2-d3"), "");
}

#[test]
fn builds_a_chain_click_by_click() {
    let mut s = Session::new(TERHUCHU, "ten").unwrap();
    s.set_position("white man a1; black man a2 a4 b2 e5; to-move white")
        .unwrap();
    assert_eq!(
        s.continuations_json("").unwrap(),
        r#"{"next":["a1"],"complete":[]}"#
    );
    let after_one = s.continuations_json("a1 a3").unwrap();
    assert!(after_one.contains(r#""complete":["a1xa3"]"#), "{after_one}");
    assert!(after_one.contains("c1"), "{after_one}");
    assert!(s.continuations_json("zz").unwrap().contains("error"));
}

#[test]
fn replays_a_record_with_comments() {
    let mut s = Session::new(TERHUCHU, "ten").unwrap();
    let rec = include_str!("../../../catalog/games/terhuchu/games/demo-chain-turns.game");
    let out = s.load_record(rec).unwrap();
    assert!(out.contains(r#""n":"a1xa3xc1""#), "{out}");
    assert!(out.contains(r#""intro":"After taking a2"#), "{out}");
    s.goto(1);
    assert!(s.state_json().contains(r#""captured":[2,0]"#));
    assert!(
        s.load_record("[Event \"x\"]\n[Kind \"demonstration\"]\n1. e5-e4")
            .is_err()
    );
}

#[test]
fn sowing_holes_steps_and_choices() {
    let s = Session::new(SHIMUNANA, "").unwrap();
    let holes = s.continuations_json("").unwrap();
    assert_eq!(
        holes,
        r#"{"next":["S1","S2","S3","S4","S5","S6","S7","S8"],"complete":[]}"#
    );
    let steps = s.sow_steps_json("1");
    assert!(
        steps.starts_with(r#"[["-","S1"],["+","S2"],["+","S3"],["-","S3"]"#),
        "{steps}"
    );
    // Find a first move that offers a choice of extra holes, and complete it by clicks.
    for h in 1..=8 {
        let start = format!("S{h}");
        let c = s.continuations_json(&start).unwrap();
        if c.contains(r#""complete":[]"#) {
            let first_extra = c.split('"').nth(5).unwrap().to_string();
            let done = s
                .continuations_json(&format!("{start} {first_extra}"))
                .unwrap();
            assert!(done.contains("(x"), "{done}");
            return;
        }
    }
    panic!("no capturing first move on 4x4");
}

#[test]
fn the_computer_answers_within_its_budget() {
    let s = Session::new(TERHUCHU, "ten").unwrap();
    let a = s.think_json(2000, 0, 1, None).unwrap();
    assert!(a.contains(r#""n":"#), "{a}");
    assert_eq!(a, s.think_json(2000, 0, 1, None).unwrap());
}

#[test]
fn hostile_input_gives_errors_never_panics() {
    let junk = [
        "",
        " ",
        "x",
        "~",
        "~/",
        "@",
        "a1x",
        "xx",
        "99999999999999999999",
        "S0",
        "N999",
        "S1 S1 S1",
        "(x2+pit)",
        "1(x9+pit1&1&1&1)",
        "a1-a1",
        "pass pass",
        "\u{0}",
        "é",
        "[Event \"x\"",
        "{",
        "1.",
    ];
    for rules in [TERHUCHU, SHIMUNANA] {
        let mut s = Session::new(rules, "").unwrap();
        for text in junk {
            let _ = s.play(text);
            let _ = s.explain(text);
            let _ = s.continuations_json(text).unwrap();
            let _ = s.sow_steps_json(text);
            let _ = s.set_position(text);
            let _ = s.load_record(text);
            s.goto(usize::MAX);
            let _ = s.state_json();
            let _ = s.legal_json().unwrap();
        }
        assert!(Session::new(rules, "\u{0}").is_err());
    }
}
