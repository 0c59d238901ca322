//! Sowing games through the machinery every family shares: game records parsed by `Record::parse` and replayed by
//! `record::replay`, positions through the `Game` trait, and the catalogued Tchouba and Shimunana rulesets and
//! records (every width has its ruleset, every ruleset its illustrative game, the constructed puzzle is sound).

use ludotheca_engine::game::{Game, Outcome};
use ludotheca_engine::record::{LEGAL_LISTED, Record, RecordKind, replay, write_moves};
use ludotheca_engine::ruleset::RulesetType;
use ludotheca_engine::sowing::{NORTH, SOUTH, SowingGame, SowingPosition, SowingRules};
use ludotheca_engine::{AnyPosition, Compiled, RulesFile};

const TCHOUBA: &str = include_str!("../../catalog/games/tchouba/rules.txt");
const SHIMUNANA: &str = include_str!("../../catalog/games/shimunana/rules.txt");
const GAMES_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../catalog/games");

fn sowing(src: &str, ruleset: &str) -> SowingGame {
    match ludotheca_engine::compile(src, Some(ruleset)) {
        Ok(Compiled::Sowing(g)) => *g,
        Ok(_) => panic!("{ruleset}: not a sowing game"),
        Err(e) => panic!("{ruleset}: {e}"),
    }
}

/// A constructed 4x40 position on which the whole solution line of the seed's first puzzle is legal (the seed
/// does not give the puzzle's position). North: 2 seeds in hole 21, 2 in 24, 1 in 25, 13 in 28. South: 2 in
/// hole 1, 2 in 5, 1 in 6, 2 in 80. Written out through the game's own geometry.
fn seed_line_position(g: &SowingGame) -> String {
    let n = usize::from(g.holes_per_row());
    let mut rows = vec![vec![0u16; n]; 4];
    for (side, hole, seeds) in [
        (NORTH, 21, 2),
        (NORTH, 24, 2),
        (NORTH, 25, 1),
        (NORTH, 28, 13),
        (SOUTH, 1, 2),
        (SOUTH, 5, 2),
        (SOUTH, 6, 1),
        (SOUTH, 80, 2),
    ] {
        let h = g.hole(side, hole).expect("a hole of the 4x40 board");
        rows[3 - usize::from(h.row)][usize::from(h.column)] = seeds;
    }
    let rows: Vec<String> = rows
        .iter()
        .map(|r| r.iter().map(u16::to_string).collect::<Vec<_>>().join(","))
        .collect();
    format!("{} N", rows.join("/"))
}

#[test]
fn the_seed_solution_line_parses_and_replays_as_a_record() {
    let g = sowing(TCHOUBA, "4x40");
    let position = seed_line_position(&g);
    let text = format!(
        "[Event \"The seed's notation\"]\n[Kind \"demonstration\"]\n[Ruleset \"4x40\"]\n\
         [Position \"{position}\"]\n\n1. 21! 5  2. 24 6  3. 25 7  4. 28(x2+pit8&9)\n"
    );
    let record = Record::parse(&text).expect("the record parses");
    let written: Vec<&str> = record.moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(written, ["21", "5", "24", "6", "25", "7", "28(x2+pit8&9)"]);
    assert_eq!(record.moves[0].annotation, "!");
    assert_eq!(record.moves[6].number, Some(4));
    // On the sowing game itself and through `Compiled`, as `check` and the CLI replay it.
    let replayed = replay(&g, &record).expect("every move is legal");
    assert_eq!(replayed.moves.len(), 7);
    assert_eq!(replayed.outcome, Some(Outcome::Win(NORTH)));
    let end = replayed.positions.last().expect("a replay holds positions");
    // North's capture: South's 80 and 1 (the file) and the chosen 8 and 9, seven seeds.
    assert_eq!(end.captured(NORTH), 7);
    assert_eq!(end.seeds_on_side(SOUTH), 0);
    let extras: Vec<u16> = replayed.moves[6].extra_holes().collect();
    assert_eq!(extras, [8, 9]);
    // Printed back, the line is the seed's without its commentary mark.
    let start = g.position_from_setup(&position).unwrap();
    assert_eq!(
        write_moves(&g, &start, &replayed.moves),
        "1. 21 5 2. 24 6 3. 25 7 4. 28(x2+pit8&9)"
    );
    let any = ludotheca_engine::compile(TCHOUBA, Some("4x40")).unwrap();
    let through_any = replay(&any, &record).expect("replays through Compiled");
    assert_eq!(through_any.outcome, Some(Outcome::Win(NORTH)));
    // The catalogued record of the same line replays the same way.
    let file =
        std::fs::read_to_string(format!("{GAMES_DIR}/tchouba/games/demo-seed-notation.game"))
            .unwrap();
    let catalogued = Record::parse(&file).unwrap();
    assert_eq!(catalogued.tag("Position"), Some(position.as_str()));
    let again = replay(&g, &catalogued).unwrap();
    assert_eq!(again.moves, replayed.moves);
}

#[test]
fn a_record_with_a_wrong_extra_hole_is_refused_at_the_move() {
    let g = sowing(TCHOUBA, "4x40");
    let text = format!(
        "[Event \"x\"]\n[Kind \"demonstration\"]\n[Position \"{}\"]\n\n1. 21 5 2. 24 6 3. 25 7\n4. 28(x2+pit8&10)\n",
        seed_line_position(&g)
    );
    let record = Record::parse(&text).unwrap();
    let err = replay(&g, &record).unwrap_err();
    assert_eq!((err.line, err.column), (6, 4));
    assert_eq!(err.legal, ["26", "28(x2+pit8&9)"]);
    assert_eq!(err.legal_count, 2);
}

#[test]
fn a_refused_move_lists_the_first_legal_moves_and_counts_the_rest() {
    // 4 x 40 Tchouba offers 120,160 moves at the start: writing each in notation would cost far more than the
    // replay, so the error writes out the first few and counts the others.
    let g = sowing(TCHOUBA, "4x40");
    let record = Record::parse("[Event \"x\"]\n[Kind \"demonstration\"]\n\n1. 99\n").unwrap();
    let err = replay(&g, &record).unwrap_err();
    assert_eq!(err.legal_count, 120_160);
    assert_eq!(err.legal.len(), LEGAL_LISTED);
    let start = g.start();
    let mut moves = Vec::new();
    g.legal_moves(&start, &mut moves).unwrap();
    let first: Vec<String> = moves[..LEGAL_LISTED]
        .iter()
        .map(|mv| g.format_move(&start, mv))
        .collect();
    assert_eq!(err.legal, first);
    assert!(err.to_string().ends_with(" (and 120120 more)"), "{err}");
}

#[test]
fn sowing_positions_go_through_the_game_trait() {
    let g = SowingGame::new(SowingRules::tchouba(8)).unwrap();
    let text =
        "0,0,0,0,1,0,1,0/0,2,0,0,2,0,0,0/0,1,0,0,0,0,2,2/0,2,0,0,5,0,0,0 S captured=3,1 ply=7";
    let pos: SowingPosition = Game::parse_position(&g, text).unwrap();
    assert_eq!(Game::format_position(&g, &pos), text);
    assert_eq!(pos, g.position_from_setup(text).unwrap());
    let err = Game::parse_position(&g, "1,2/3 S").unwrap_err();
    assert!(err.contains("rows given"), "{err}");
    let any = ludotheca_engine::compile(TCHOUBA, Some("4x8")).unwrap();
    let pos = any.parse_position(text).unwrap();
    assert!(matches!(pos, AnyPosition::Sowing(_)));
    assert_eq!(any.format_position(&pos), text);
}

/// +1: the side to move wins within `depth` plies whatever the other does; -1: it loses so; 0: not decided.
fn solve(g: &SowingGame, pos: &SowingPosition, depth: u32) -> i32 {
    if let Some(o) = g.outcome(pos) {
        return match o {
            Outcome::Win(s) if s == pos.side_to_move() => 1,
            Outcome::Win(_) => -1,
            Outcome::Draw => 0,
        };
    }
    if depth == 0 {
        return 0;
    }
    let mut moves = Vec::new();
    g.legal_moves(pos, &mut moves).unwrap();
    let mut best = -1;
    for mv in &moves {
        let mut next = pos.clone();
        g.play(&mut next, mv);
        best = best.max(-solve(g, &next, depth - 1));
        if best == 1 {
            break;
        }
    }
    best
}

#[test]
fn the_constructed_puzzle_has_one_winning_move() {
    let text = std::fs::read_to_string(format!(
        "{GAMES_DIR}/tchouba/games/puzzle-4x8-constructed.game"
    ))
    .unwrap();
    let record = Record::parse(&text).unwrap();
    assert_eq!(record.kind(), Some(RecordKind::Puzzle));
    assert!(
        record.tag("Event").unwrap().contains("constructed")
            && record.tag("Players").unwrap().contains("Constructed"),
        "the puzzle is labelled as constructed"
    );
    let g = sowing(TCHOUBA, record.tag("Ruleset").unwrap());
    assert_eq!(g.holes_per_row(), 8);
    let replayed = replay(&g, &record).unwrap();
    assert_eq!(replayed.outcome, Some(Outcome::Win(SOUTH)));
    let start = &replayed.positions[0];
    // South wins within three plies after the key move and after no other first move; nor sooner.
    assert_eq!(solve(&g, start, 1), 0);
    assert_eq!(solve(&g, start, 3), 1);
    let mut moves = Vec::new();
    g.legal_moves(start, &mut moves).unwrap();
    assert_eq!(moves.len(), 5);
    let winners: Vec<String> = moves
        .iter()
        .filter(|mv| {
            let mut next = start.clone();
            g.play(&mut next, mv);
            solve(&g, &next, 2) == -1
        })
        .map(|mv| g.format_move(start, mv))
        .collect();
    assert_eq!(winners, ["10(x2+pit2)"]);
    assert_eq!(replayed.moves[0], moves[3]);
}

#[test]
fn tchouba_has_a_ruleset_for_every_even_width_with_the_readings_documented() {
    let file = RulesFile::parse(TCHOUBA).unwrap();
    let info = file.info();
    let allowed = [
        "junod-1898",
        "junod-1912",
        "santos-silva-1995",
        "mancala-world-tchouba",
        "wagner-1917",
    ];
    for r in &info.rulesets {
        assert!(allowed.contains(&r.source.as_str()), "{}", r.name);
    }
    assert_eq!(info.rulesets[0].name, "4x40", "the full board comes first");
    for width in (6..=40).step_by(2) {
        let name = format!("4x{width}");
        let r = info
            .rulesets
            .iter()
            .find(|r| r.name == name)
            .unwrap_or_else(|| panic!("no ruleset {name}"));
        let g = sowing(TCHOUBA, &name);
        assert_eq!(g.holes_per_row(), width);
        // The small-board rule up to 22, the general rule above: the presets' reading.
        assert_eq!(g.rules(), &SowingRules::tchouba(width), "{name}");
        let named = matches!(width, 8 | 10 | 16 | 22) || width > 22;
        let expected = if named {
            RulesetType::Described
        } else {
            RulesetType::Incomplete
        };
        assert_eq!(r.kind, expected, "{name}");
    }
    // The overlap 16..22 in the general rule's reading too.
    for width in [16, 18, 20, 22] {
        let g = sowing(TCHOUBA, &format!("4x{width}-two"));
        assert_eq!(g.holes_per_row(), width);
        assert_eq!(g.rules().capture.map(|c| c.extra_holes), Some(2));
    }
    // 4x4 is Shimunana, catalogued as its own game with the same rules.
    assert!(!info.rulesets.iter().any(|r| r.name == "4x4"));
    assert_eq!(
        sowing(SHIMUNANA, "shimunana").rules(),
        &SowingRules::tchouba(4)
    );
}

#[test]
fn every_sowing_record_replays_and_every_ruleset_has_an_illustrative_game() {
    let mut kinds = Vec::new();
    for (id, src) in [("tchouba", TCHOUBA), ("shimunana", SHIMUNANA)] {
        let file = RulesFile::parse(src).unwrap();
        let dir = format!("{GAMES_DIR}/{id}/games");
        let mut paths: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "game"))
            .collect();
        paths.sort();
        let mut illustrated = Vec::new();
        for path in &paths {
            let text = std::fs::read_to_string(path).unwrap();
            let record = Record::parse(&text).unwrap_or_else(|e| panic!("{}:{e}", path.display()));
            let ruleset = record
                .tag("Ruleset")
                .expect("sowing records name their board");
            let game = file.compile(Some(ruleset)).unwrap();
            let replayed =
                replay(&game, &record).unwrap_or_else(|e| panic!("{}:{e}", path.display()));
            let kind = record.kind().unwrap();
            if kind == RecordKind::Illustrative {
                assert!(replayed.outcome.is_some(), "{}", path.display());
                assert!(
                    record
                        .intro
                        .as_deref()
                        .is_some_and(|c| c.contains("computer player")),
                    "{}: says it is computer play",
                    path.display()
                );
                illustrated.push(ruleset.to_string());
            }
            kinds.push((id, kind, record.tag("Event").unwrap_or("").to_string()));
        }
        for r in &file.rulesets {
            assert!(
                illustrated.contains(&r.info.name),
                "{id}: no illustrative game for {}",
                r.info.name
            );
        }
    }
    for topic in ["relay", "capture", "singleton", "never ends", "notation"] {
        assert!(
            kinds
                .iter()
                .any(|(_, k, e)| *k == RecordKind::Demonstration && e.contains(topic)),
            "no demonstration: {topic}"
        );
    }
}
