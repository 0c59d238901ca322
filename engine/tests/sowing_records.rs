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

/// The Tchouba article's two problems as it prints them: the catalog record, the title, the wrong line and the
/// correct line.
const ARTICLE: [(&str, &str, &str, &str); 2] = [
    (
        "puzzle-capturing-race",
        "Capturing Race",
        "1. 23? 5 2. 24 6 3. 25 7 4. 26 8(x2+pit21&28) 5. 27 9(x1+pit29)",
        "1. 21! 5 2. 24 6 3. 25 7 4. 28(x2+pit8&9)",
    ),
    (
        "puzzle-protraction-strategy",
        "Protraction Strategy",
        "1. 21? 6 2. 24 12(x1+pit22&24) 3. 30 7(x1+pit28&31)",
        "1. 23! 6 2. 24 4 3. 21 7 4. 30(x1+pit5&8) 12 5. 25(x1+pit6&13)",
    ),
];

/// The moves of the article's wrong lines that the reconstructed positions play otherwise, each with the reason
/// in docs/sowing.md; any other difference fails the test.
const WRONG_LINE_STAND_INS: &[(&str, &str)] = &[("12(x1+pit22&24)", "12(x1+pit22&31)")];

fn moves_of(line: &str) -> Vec<&str> {
    line.split_whitespace()
        .filter(|t| !t.ends_with('.'))
        .collect()
}

fn catalogued(id: &str) -> Record {
    let text = std::fs::read_to_string(format!("{GAMES_DIR}/tchouba/games/{id}.game"))
        .unwrap_or_else(|e| panic!("{id}: {e}"));
    Record::parse(&text).unwrap_or_else(|e| panic!("{id}: {e:?}"))
}

#[test]
fn the_article_problems_are_puzzles_solved_by_its_own_lines() {
    for (id, title, wrong, correct) in ARTICLE {
        let record = catalogued(id);
        assert_eq!(record.kind(), Some(RecordKind::Puzzle), "{id}");
        let event = record.tag("Event").unwrap();
        assert!(
            event.contains(title) && event.contains("reconstructed"),
            "{event}"
        );
        let question = record.tag("Question").unwrap();
        assert!(
            question.contains(title) && question.contains("pit 21 or 23"),
            "{question}"
        );
        let g = sowing(TCHOUBA, record.tag("Ruleset").unwrap());
        assert_eq!(g.holes_per_row(), 40);
        // The record's solution is the article's correct line, move for move and mark for mark.
        let written: Vec<String> = record
            .moves
            .iter()
            .map(|m| format!("{}{}", record.text_of(m), record.annotation_of(m)))
            .collect();
        assert_eq!(written, moves_of(correct), "{id}");
        let replayed = replay(&g, &record).expect("the article's line is legal here");
        assert_eq!(replayed.outcome, Some(Outcome::Win(NORTH)), "{id}");
        // Printed back by the engine, captures counted from the position, it is still the article's.
        let start = &replayed.positions[0];
        assert_eq!(
            write_moves(&g, start, &replayed.moves),
            correct.replace(['!', '?'], ""),
            "{id}"
        );
        // North has the article's choice of 21 or 23.
        let mut moves = Vec::new();
        g.legal_moves(start, &mut moves).unwrap();
        assert!(moves.iter().any(|m| m.hole() == 21) && moves.iter().any(|m| m.hole() == 23));
        // The wrong line is the article's but for the documented stand-ins, and replays from the position.
        let ours = record.tag("Wrong").expect("a Wrong line");
        let (article, ours) = (moves_of(wrong), moves_of(ours));
        assert_eq!(article.len(), ours.len(), "{id}");
        for (a, o) in article.iter().zip(&ours) {
            assert!(
                a == o || WRONG_LINE_STAND_INS.contains(&(a, o)),
                "{id}: the article's {a} is played as {o}"
            );
        }
        let wrong_record = Record::parse(&format!(
            "[Event \"x\"]\n[Kind \"demonstration\"]\n[Position \"{}\"]\n\n{}\n",
            record.tag("Position").unwrap(),
            record.tag("Wrong").unwrap()
        ))
        .unwrap();
        replay(&g, &wrong_record).expect("the wrong line replays");
        // A sound puzzle: searched to the end, the article's first move wins for North whatever either side
        // plays, and the wrong one loses.
        for (line, side_to_move_wins) in [(moves_of(correct), false), (article, true)] {
            let (first, depth) = (line[0], 2 * line.len() as u32 + 2);
            let mut after = start.clone();
            let mv = g.parse_move(&after, first).unwrap();
            g.play(&mut after, &mv);
            let expected = if side_to_move_wins { 1 } else { -1 };
            assert_eq!(solve(&g, &after, depth), expected, "{id}: after {first}");
        }
    }
}

#[test]
fn a_record_with_a_wrong_extra_hole_is_refused_at_the_move() {
    let g = sowing(TCHOUBA, "4x40");
    let puzzle = catalogued("puzzle-capturing-race");
    let text = format!(
        "[Event \"x\"]\n[Kind \"demonstration\"]\n[Position \"{}\"]\n\n1. 21 5 2. 24 6 3. 25 7\n4. 28(x2+pit8&10)\n",
        puzzle.tag("Position").unwrap()
    );
    let record = Record::parse(&text).unwrap();
    let err = replay(&g, &record).unwrap_err();
    assert_eq!((err.line, err.column), (6, 4));
    assert!(
        err.legal.contains(&"28(x2+pit8&9)".to_string()),
        "{:?}",
        err.legal
    );
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
    let record = catalogued("puzzle-4x8-constructed");
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
    assert_eq!(winners, ["2(x2+pit10)"]);
    assert_eq!(g.format_move(start, &replayed.moves[0]), winners[0]);
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
    // The seed's notation is shown by the article's puzzles (above), not by a demonstration of its own.
    for topic in ["relay", "capture", "singleton", "never ends"] {
        assert!(
            kinds
                .iter()
                .any(|(_, k, e)| *k == RecordKind::Demonstration && e.contains(topic)),
            "no demonstration: {topic}"
        );
    }
}

/// Games played at random to their end, then written with one move more: the record is refused at that move,
/// and without it replays to the end the game reached.
#[test]
fn a_move_after_the_end_is_refused_where_it_is_written() {
    let mut rng = ludotheca_engine::rng::Rng::new(11);
    for (src, ruleset) in [(TCHOUBA, "4x6"), (SHIMUNANA, "shimunana")] {
        let g = sowing(src, ruleset);
        let start = g.start();
        let mut ended = 0;
        for _ in 0..20 {
            let (mut pos, mut played, mut moves) = (start.clone(), Vec::new(), Vec::new());
            let first = {
                g.legal_moves(&start, &mut moves).unwrap();
                g.format_move(&start, &moves[0])
            };
            while let Some(mv) = Game::random_move(&g, &pos, &mut rng, &mut moves).unwrap() {
                g.play(&mut pos, &mv);
                played.push(mv);
            }
            let Some(outcome) = g.outcome(&pos) else {
                panic!("{ruleset}: no move is left but the game has no outcome");
            };
            ended += 1;
            let moves = write_moves(&g, &start, &played);
            let text = format!("[Event \"x\"]\n[Kind \"illustrative\"]\n\n{moves} {first}\n");
            let record = Record::parse(&text).unwrap_or_else(|e| panic!("{e}"));
            let err = ludotheca_engine::record::check(&g, &record)
                .err()
                .unwrap_or_else(|| panic!("{ruleset}: a move after the end was accepted"));
            let last_line = text.lines().count() as u32;
            let column = text.lines().last().unwrap().len() - first.len() + 1;
            assert_eq!(
                (err.line, err.column as usize),
                (last_line, column),
                "{}",
                err.message
            );
            assert!(
                err.message.contains("played after the game has ended"),
                "{}",
                err.message
            );
            let record = Record::parse(&format!(
                "[Event \"x\"]\n[Kind \"illustrative\"]\n\n{moves}\n"
            ))
            .unwrap();
            let checked = ludotheca_engine::record::check(&g, &record).unwrap();
            assert_eq!(checked.outcome, Some(outcome));
        }
        assert_eq!(ended, 20, "{ruleset}");
    }
}
