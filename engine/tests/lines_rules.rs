//! Points-and-lines games: perft, one fixture per rule feature with the exact legal moves, property tests over
//! random playouts of every catalogued ruleset, and rules files that must fail at a given line and column.

use ludotheca_engine::lines::{LinesGame, LinesPosition};
use ludotheca_engine::perft::perft;
use ludotheca_engine::player::{Limits, choose};
use ludotheca_engine::playout::playouts;
use ludotheca_engine::record::{Record, replay, write_moves};
use ludotheca_engine::rng::Rng;
use ludotheca_engine::rules::ErrorKind;
use ludotheca_engine::{Compiled, Game, MoveError, Outcome, RulesFile, compile};

const BAGH_CHAL: &str = include_str!("../../catalog/games/bagh-chal/rules.txt");
const CATALOG: [(&str, &str); 6] = [
    (
        "bagh-chal",
        include_str!("../../catalog/games/bagh-chal/rules.txt"),
    ),
    (
        "terhuchu",
        include_str!("../../catalog/games/terhuchu/rules.txt"),
    ),
    (
        "sumi-naga-hunt",
        include_str!("../../catalog/games/sumi-naga-hunt/rules.txt"),
    ),
    (
        "mogol-putthan",
        include_str!("../../catalog/games/mogol-putthan/rules.txt"),
    ),
    (
        "dam-pursi",
        include_str!("../../catalog/games/dam-pursi/rules.txt"),
    ),
    (
        "permainan-tabal",
        include_str!("../../catalog/games/permainan-tabal/rules.txt"),
    ),
];

fn lines_game(src: &str, ruleset: Option<&str>) -> LinesGame {
    match compile(src, ruleset) {
        Ok(Compiled::Lines(g)) => *g,
        Ok(_) => panic!("not a points-and-lines game"),
        Err(e) => panic!("{e}"),
    }
}

fn sorted_moves(game: &LinesGame, pos: &LinesPosition) -> Vec<String> {
    let mut v = Vec::new();
    game.legal_moves(pos, &mut v).unwrap();
    let mut s: Vec<String> = v.iter().map(|m| game.format_move(pos, m)).collect();
    s.sort();
    s
}

fn position(game: &LinesGame, text: &str) -> LinesPosition {
    game.parse_position(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// A small 5x5 Alquerque game whose capture settings each test sets.
fn alquerque(settings: &str) -> LinesGame {
    let src = format!(
        "game \"Fixture\"\nboard\n  grid 5 x 5 diagonals alquerque\n  region far: a5 b5 c5 d5 e5\nend\n\
         side white forward north\nside black forward south\n\
         piece man: step, jump\npiece king: slide, long-jump\n\
         setup\n  white: man on a1\n  black: man on e5\n  first white\nend\n{settings}\n"
    );
    lines_game(&src, None)
}

#[test]
fn bagh_chal_perft_matches_the_published_counts() {
    let g = lines_game(BAGH_CHAL, None);
    let mut pos = g.start();
    let expected = [21u64, 252, 5_052, 68_204, 1_304_788];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&g, &mut pos, d as u32 + 1), Ok(n), "depth {}", d + 1);
    }
    assert_eq!(pos, g.start(), "perft leaves the position as it found it");
}

#[test]
#[ignore = "about a second in release; run with --ignored"]
fn bagh_chal_perft_depth_6() {
    let g = lines_game(BAGH_CHAL, None);
    assert_eq!(perft(&g, &mut g.start(), 6), Ok(18_592_000));
}

#[test]
fn compulsory_capture_removes_quiet_moves() {
    let g = alquerque("capture compulsory");
    let pos = position(&g, "white man c3; black man c4 a5; to-move white");
    assert_eq!(sorted_moves(&g, &pos), ["c3xc5"]);
    let optional = alquerque("capture optional");
    assert_eq!(
        sorted_moves(&optional, &pos),
        [
            "c3-b2", "c3-b3", "c3-b4", "c3-c2", "c3-d2", "c3-d3", "c3-d4", "c3xc5"
        ]
    );
}

#[test]
fn huffing_lets_the_opponent_remove_the_piece_that_failed_to_capture() {
    let g = alquerque("capture huffing");
    let mut pos = position(&g, "white man c3; black man c4 a5; to-move white");
    // With huffing every move is legal: the capture is enforced by the penalty, not by the move list.
    assert_eq!(
        sorted_moves(&g, &pos),
        [
            "c3-b2", "c3-b3", "c3-b4", "c3-c2", "c3-d2", "c3-d3", "c3-d4", "c3xc5"
        ]
    );
    let quiet = g.parse_move(&pos, "c3-d3").unwrap();
    g.play(&mut pos, &quiet);
    let plain = [
        "a5-a4", "a5-b4", "a5-b5", "c4-b4", "c4-c3", "c4-c5", "c4-d4",
    ];
    let mut expected: Vec<String> = plain.iter().map(|m| m.to_string()).collect();
    expected.extend(plain.iter().map(|m| format!("~d3/{m}")));
    expected.sort();
    assert_eq!(sorted_moves(&g, &pos), expected);
    // Huffing the last white piece wins.
    let huff = g.parse_move(&pos, "~d3/a5-a4").unwrap();
    g.play(&mut pos, &huff);
    assert_eq!(g.outcome(&pos), Some(Outcome::Win(1)));
    // A capture made leaves nothing to huff.
    let mut pos = position(&g, "white man c3; black man c4 a5; to-move white");
    let cap = g.parse_move(&pos, "c3xc5").unwrap();
    g.play(&mut pos, &cap);
    assert!(sorted_moves(&g, &pos).iter().all(|m| !m.starts_with('~')));
}

const CHAIN_POSITION: &str = "white man a1; black man a2 a4 b2; to-move white";

#[test]
fn chains_may_change_direction_and_must_continue() {
    let g = alquerque("chain must-continue");
    assert_eq!(
        sorted_moves(&g, &position(&g, CHAIN_POSITION)),
        ["a1xa3xa5", "a1xa3xc1", "a1xc3"]
    );
}

#[test]
fn chains_that_may_stop_give_every_prefix() {
    let g = alquerque("chain may-stop");
    assert_eq!(
        sorted_moves(&g, &position(&g, CHAIN_POSITION)),
        ["a1xa3", "a1xa3xa5", "a1xa3xc1", "a1xc3"]
    );
}

#[test]
fn chains_that_may_not_turn_keep_their_direction() {
    let g = alquerque("chain-turns forbidden");
    assert_eq!(
        sorted_moves(&g, &position(&g, CHAIN_POSITION)),
        ["a1xa3xa5", "a1xc3"]
    );
}

#[test]
fn maximum_capture_keeps_only_the_longest_chains() {
    let g = alquerque("capture-choice maximum");
    assert_eq!(
        sorted_moves(&g, &position(&g, CHAIN_POSITION)),
        ["a1xa3xa5", "a1xa3xc1"]
    );
}

#[test]
fn single_capture_per_turn() {
    let g = alquerque("chain single");
    assert_eq!(
        sorted_moves(&g, &position(&g, CHAIN_POSITION)),
        ["a1xa3", "a1xc3"]
    );
}

#[test]
fn the_steps_of_a_chain_are_exposed() {
    let g = alquerque("");
    let pos = position(&g, CHAIN_POSITION);
    let mv = g.parse_move(&pos, "a1xa3xc1").unwrap();
    let name = |p: u8| g.rules.board.points[p as usize].name.clone();
    let jumps: Vec<(String, String, String)> = mv
        .jumps()
        .map(|j| (name(j.from), name(j.over), name(j.to)))
        .collect();
    assert_eq!(
        jumps,
        [
            ("a1".into(), "a2".into(), "a3".into()),
            ("a3".into(), "b2".into(), "c1".into())
        ]
    );
}

#[test]
fn flying_king_jumps_from_afar_and_lands_anywhere_beyond() {
    let g = alquerque("");
    let pos = position(&g, "white king a1; black man c3; to-move white");
    assert_eq!(sorted_moves(&g, &pos), ["a1xd4", "a1xe5"]);
    // Without a capture the king slides any distance.
    let pos = position(&g, "white king a1; black man e4; to-move white");
    assert_eq!(
        sorted_moves(&g, &pos),
        [
            "a1-a2", "a1-a3", "a1-a4", "a1-a5", "a1-b1", "a1-b2", "a1-c1", "a1-c3", "a1-d1",
            "a1-d4", "a1-e1", "a1-e5"
        ]
    );
}

#[test]
fn moves_limited_by_where_they_land() {
    // A runner steps only onto the far row or jumps only onto it; a stepper steps anywhere.
    let src = "game \"F\"\nboard\n  grid 5 x 5 diagonals alquerque\n  region far: a5 b5 c5 d5 e5\nend\n\
               side white forward north\nside black forward south\n\
               piece runner: step into far, jump into far\npiece stepper: step\n\
               setup\n  white: runner on c4\n  black: stepper on e1\n  first white\nend\ncapture optional\n";
    let g = lines_game(src, None);
    let pos = position(&g, "white runner c4; black stepper c3 a1; to-move white");
    // c4 has no diagonals on this board: its one step onto the far row is c5.
    assert_eq!(sorted_moves(&g, &pos), ["c4-c5"]);
    // The jump from c2 over c3 lands on c4, outside the region: refused, as are c5's steps off the far row.
    let pos = position(&g, "white runner c2 c5; black stepper c3; to-move white");
    assert_eq!(sorted_moves(&g, &pos), ["c5-b5", "c5-d5"]);
    let pos = position(&g, "white runner c3; black stepper c4 a1; to-move white");
    assert_eq!(sorted_moves(&g, &pos), ["c3xc5"]);
    let bad = src.replace("jump into far", "long-jump into far");
    let e =
        RulesFile::parse_all(&bad).expect_err("a flying capture cannot be limited by its landing");
    assert_eq!(
        e[0].message,
        "a flying capture cannot be limited by where it lands"
    );
    assert_eq!((e[0].line, e[0].column), (8, 30));
}

#[test]
fn slides_limited_by_where_they_stop() {
    // A rook slides anywhere but stops only on the far row; a short rook slides at most two points there.
    let src = "game \"F\"\nboard\n  grid 5 x 5 diagonals alquerque\n  region far: a5 b5 c5 d5 e5\nend\n\
               side white forward north\nside black forward south\n\
               piece rook: slide into far\npiece short: slide 2 into far\npiece stepper: step\n\
               setup\n  white: rook on c1\n  black: stepper on e1\n  first white\nend\n";
    let g = lines_game(src, None);
    // From c1 the column is the only line that reaches the far row: the rook passes c2 c3 c4 to stop on c5.
    let pos = position(&g, "white rook c1; black stepper e1; to-move white");
    assert_eq!(sorted_moves(&g, &pos), ["c1-c5"]);
    assert!(
        g.parse_move(&pos, "c1-c3").is_err(),
        "a slide may not stop short of the region"
    );
    // A piece in the way stops the slide before the region: no move at all.
    let blocked = position(&g, "white rook c1; black stepper c4; to-move white");
    assert!(sorted_moves(&g, &blocked).is_empty());
    assert_eq!(g.outcome(&blocked), Some(Outcome::Win(1)));
    // From d4 three lines reach the far row, one point away each; along the far row the rook slides on.
    let pos = position(&g, "white rook d4; black stepper a1; to-move white");
    assert_eq!(sorted_moves(&g, &pos), ["d4-c5", "d4-d5", "d4-e5"]);
    let pos = position(&g, "white rook c5; black stepper a1; to-move white");
    assert_eq!(sorted_moves(&g, &pos), ["c5-a5", "c5-b5", "c5-d5", "c5-e5"]);
    // Two points at most: from c3 the far row is in reach, from c2 it is not.
    let pos = position(&g, "white short c3; black stepper a1; to-move white");
    assert_eq!(sorted_moves(&g, &pos), ["c3-a5", "c3-c5", "c3-e5"]);
    let pos = position(&g, "white short c2; black stepper a1; to-move white");
    assert!(sorted_moves(&g, &pos).is_empty());
}

#[test]
fn men_limited_to_forward_and_sideways() {
    let src = "game \"F\"\nboard\n grid 5 x 5 diagonals alquerque\nend\nside white forward north\nside black\n\
               piece man: step forward sideways, jump\nsetup\n white: man on c3\n black: man on a5\n first white\nend\n";
    let g = lines_game(src, None);
    assert_eq!(
        sorted_moves(&g, &g.start()),
        ["c3-b3", "c3-b4", "c3-c4", "c3-d3", "c3-d4"]
    );
    // Captures go in any direction, backwards too.
    let pos = position(&g, "white man c3; black man c2; to-move white");
    assert_eq!(sorted_moves(&g, &pos), ["c3xc1"]);
}

#[test]
fn promotion_on_reaching_the_region() {
    let g = alquerque("promote man to king for white on far");
    let mut pos = position(&g, "white man c4; black man a1; to-move white");
    assert_eq!(sorted_moves(&g, &pos), ["c4-b4", "c4-c3", "c4-c5", "c4-d4"]);
    let mv = g.parse_move(&pos, "c4-c5").unwrap();
    assert!(mv.promotes);
    g.play(&mut pos, &mv);
    assert_eq!(
        g.format_position(&pos),
        "white king c5; black man a1; ply 1; to-move black"
    );
}

#[test]
fn promotion_ends_a_chain_or_not() {
    // c3 jumps d4 to e5 (the promotion row) and could then jump e4 to e3 as a man.
    let pos = "white man c3; black man d4 e4; to-move white";
    let ends = alquerque("promote man to king for white on far\npromotion ends-chain");
    assert_eq!(sorted_moves(&ends, &position(&ends, pos)), ["c3xe5"]);
    let goes_on = alquerque("promote man to king for white on far\npromotion continues-chain");
    assert_eq!(
        sorted_moves(&goes_on, &position(&goes_on, pos)),
        ["c3xe5xe3"]
    );
}

#[test]
fn region_limited_moves_inside_a_triangle() {
    let src = include_str!("../../catalog/games/terhuchu/rules.txt");
    let g = lines_game(src, Some("large"));
    assert_eq!(g.rules.board.points.len(), 73);
    let pos = position(&g, "white man S4; black man a5; to-move white");
    assert_eq!(sorted_moves(&g, &pos), ["S4-S1", "S4-S5", "S4-S6"]);
    // A jump runs straight from a triangle into the board.
    let pos = position(&g, "white man S5; black man S2; to-move white");
    assert_eq!(sorted_moves(&g, &pos), ["S5xc1"]);
}

#[test]
fn placement_phase_then_the_other_side_moves() {
    let g = lines_game(BAGH_CHAL, None);
    let mut pos = g.start();
    let placements = sorted_moves(&g, &pos);
    assert_eq!(placements.len(), 21);
    assert!(placements.iter().all(|m| m.starts_with('@')));
    assert!(placements.contains(&"@c3".to_string()) && !placements.contains(&"@a1".to_string()));
    let mv = g.parse_move(&pos, "@c3").unwrap();
    g.play(&mut pos, &mv);
    assert_eq!(
        sorted_moves(&g, &pos),
        [
            "a1-a2", "a1-b1", "a1-b2", "a5-a4", "a5-b4", "a5-b5", "e1-d1", "e1-d2", "e1-e2",
            "e5-d4", "e5-d5", "e5-e4"
        ]
    );
}

#[test]
fn goats_win_by_blocking_the_tigers() {
    let src = include_str!("../../catalog/games/sumi-naga-hunt/rules.txt");
    let g = lines_game(src, None);
    let pos = position(
        &g,
        "tigers tiger a1; goats goat a2 b1 b2 a3 c1 c3; to-move tigers",
    );
    assert!(sorted_moves(&g, &pos).is_empty());
    assert_eq!(g.outcome(&pos), Some(Outcome::Win(1)));
}

/// A hunt where the hunters win by trapping the lone beast, while hunters with no move pass: the crows'
/// win over the vulture, written with an outcome for one side.
fn vulture_hunt(outcomes: &str) -> LinesGame {
    let src = format!(
        "game \"Fixture\"\nboard\n  grid 3 x 3\nend\n\
         side vulture\nside crows\npiece bird: step, jump\n\
         setup\n  vulture: bird on a1\n  crows: bird on b2\n  first vulture\nend\n\
         capture optional\n{outcomes}\n"
    );
    lines_game(&src, None)
}

#[test]
fn an_outcome_for_one_side_leaves_the_other_sides_rule() {
    let g = vulture_hunt("outcome no-move loses for vulture\noutcome no-move passes for crows");
    // The trapped vulture loses.
    let trapped = position(
        &g,
        "vulture bird a1; crows bird a2 b1 b2 a3 c1 c3; to-move vulture",
    );
    assert!(sorted_moves(&g, &trapped).is_empty());
    assert_eq!(g.outcome(&trapped), Some(Outcome::Win(1)));
    // Crows with no move pass instead of losing; the vulture then moves again.
    let mut blocked = position(&g, "vulture bird a2 b1 a3 c1; crows bird a1; to-move crows");
    assert_eq!(g.outcome(&blocked), None);
    assert_eq!(sorted_moves(&g, &blocked), ["pass"]);
    let pass = g.parse_move(&blocked, "pass").unwrap();
    g.play(&mut blocked, &pass);
    assert_eq!(
        sorted_moves(&g, &blocked),
        ["a2-b2", "a3-b3", "b1-b2", "c1-c2"]
    );
    // Without the qualifier the rule holds for both sides: blocked crows lose.
    let both = vulture_hunt("outcome no-move loses");
    let blocked = position(
        &both,
        "vulture bird a2 b1 a3 c1; crows bird a1; to-move crows",
    );
    assert_eq!(both.outcome(&blocked), Some(Outcome::Win(0)));
    // A ruleset's outcome for one side replaces that side's only.
    let src = "game \"F\"\nboard\n  grid 3 x 3\nend\nside vulture\nside crows\npiece bird: step\n\
               setup\n  vulture: bird on a1\n  crows: bird on c3\n  first vulture\nend\n\
               outcome no-move passes for crows\noutcome no-move loses for vulture\n\
               ruleset r\n  type suggested\n  source s\n  outcome no-move draws for vulture\nend\n";
    let g = lines_game(src, Some("r"));
    let trapped = position(&g, "vulture bird a1; crows bird a2 b1 b2; to-move vulture");
    assert_eq!(g.outcome(&trapped), Some(Outcome::Draw));
    let trapped = position(
        &g,
        "vulture bird b2 c2 c3 b3 a2 a3 b1 c1; crows bird a1; to-move crows",
    );
    assert_eq!(g.outcome(&trapped), None);
}

/// `outcome no-move passes`: the docs promise that two passes in a row draw, so a record writes both passes
/// and ends drawn; a third is a move after the end.
#[test]
fn two_passes_in_a_row_are_played_and_draw() {
    let g = vulture_hunt("outcome no-move passes");
    // A full board: neither side can step or jump.
    let full = "vulture bird a1 a2 a3 b1 b2; crows bird b3 c1 c2 c3; to-move vulture";
    let mut pos = position(&g, full);
    assert_eq!(sorted_moves(&g, &pos), ["pass"]);
    let pass = g.parse_move(&pos, "pass").unwrap();
    g.play(&mut pos, &pass);
    assert_eq!(g.outcome(&pos), None, "one pass does not end the game");
    assert_eq!(sorted_moves(&g, &pos), ["pass"]);
    let pass = g.parse_move(&pos, "pass").unwrap();
    g.play(&mut pos, &pass);
    assert_eq!(g.outcome(&pos), Some(Outcome::Draw));
    assert!(sorted_moves(&g, &pos).is_empty());

    let record = |moves: &str| {
        format!(
            "[Event \"x\"]\n[Kind \"demonstration\"]\n[Result \"1/2-1/2\"]\n[Position \"{full}\"]\n\n\
             {moves} 1/2-1/2\n"
        )
    };
    let checked = Record::parse(&record("1. pass pass"))
        .and_then(|r| ludotheca_engine::record::check(&g, &r))
        .unwrap_or_else(|e| panic!("two passes: {e}"));
    assert_eq!(checked.outcome, Some(Outcome::Draw));
    let err = Record::parse(&record("1. pass pass 2. pass"))
        .and_then(|r| ludotheca_engine::record::check(&g, &r))
        .unwrap_err();
    assert!(
        err.message.contains("played after the game has ended"),
        "{}",
        err.message
    );
    // Perft counts the same game: from the full board, one pass, then one more, then nothing.
    for (depth, nodes) in [(1, 1), (2, 1), (3, 0)] {
        assert_eq!(
            perft(&g, &mut position(&g, full), depth),
            Ok(nodes),
            "depth {depth}"
        );
    }
}

#[test]
fn an_outcome_names_a_known_side() {
    let src = "game \"F\"\nboard\n  grid 3 x 3\nend\nside vulture\nside crows\npiece bird: step\n\
               setup\n  vulture: bird on a1\n  crows: bird on c3\n  first vulture\nend\n\
               outcome no-move loses for vultures\noutcome move-cap 9 draws for crows\n";
    let errors = RulesFile::parse_all(src).expect_err("two mistakes");
    let found: Vec<(u32, u32, u32)> = errors
        .iter()
        .map(|e| (e.line, e.column, e.length))
        .collect();
    assert_eq!(found, [(13, 27, 8), (14, 26, 3)], "{errors:#?}");
    assert_eq!(errors[0].message, "no side named `vultures`");
    assert!(
        errors[0].help.starts_with("did you mean `vulture`?"),
        "{}",
        errors[0].help
    );
    // The caps end the game for both sides: they take no side.
    assert_eq!(errors[1].message, "unexpected `for`");
}

#[test]
fn tigers_win_on_the_fifth_capture() {
    let g = lines_game(BAGH_CHAL, None);
    let mut pos = position(
        &g,
        "tigers tiger a1 e1 a5 e5; goats goat a2 c3; tigers captured 4; to-move tigers",
    );
    assert!(sorted_moves(&g, &pos).contains(&"a1xa3".to_string()));
    let mv = g.parse_move(&pos, "a1xa3").unwrap();
    g.play(&mut pos, &mv);
    assert_eq!(g.outcome(&pos), Some(Outcome::Win(0)));
    assert!(sorted_moves(&g, &pos).is_empty());
}

#[test]
fn the_move_cap_draws() {
    let g = lines_game(BAGH_CHAL, None);
    let mut pos = position(
        &g,
        "tigers tiger a1 e1 a5 e5; goats goat c3; ply 299; to-move goats",
    );
    assert_eq!(
        sorted_moves(&g, &pos),
        [
            "c3-b2", "c3-b3", "c3-b4", "c3-c2", "c3-c4", "c3-d2", "c3-d3", "c3-d4"
        ]
    );
    let mv = g.parse_move(&pos, "c3-c4").unwrap();
    g.play(&mut pos, &mv);
    assert_eq!(g.outcome(&pos), Some(Outcome::Draw));
    assert!(sorted_moves(&g, &pos).is_empty());
}

/// A record that plays on after the game has ended is refused at the first move too many, both where the side
/// to move could still move on the board (the tigers' fifth capture, the move cap) and where it could not.
#[test]
fn a_move_after_the_end_is_refused_where_it_is_written() {
    let g = lines_game(BAGH_CHAL, None);
    for (position, moves, ended) in [
        (
            "tigers tiger a1 e1 a5 e5; goats goat a2 c3; tigers captured 4; to-move tigers",
            "1. a1xa3 c3-c4",
            "(1-0)",
        ),
        (
            "tigers tiger a1 e1 a5 e5; goats goat c3; ply 299; to-move goats",
            "1... c3-c4 2. a1-a2",
            "(1/2-1/2)",
        ),
    ] {
        let text = format!(
            "[Event \"x\"]\n[Kind \"demonstration\"]\n[Position \"{position}\"]\n\n{moves} *\n"
        );
        let record = Record::parse(&text).unwrap_or_else(|e| panic!("{e}"));
        let err = ludotheca_engine::record::check(&g, &record)
            .err()
            .unwrap_or_else(|| panic!("{moves}: accepted"));
        let last = moves.rsplit(' ').next().unwrap();
        assert_eq!(
            (err.line, err.column as usize),
            (5, moves.len() - last.len() + 1),
            "{moves}: {}",
            err.message
        );
        assert!(
            err.message.contains("played after the game has ended"),
            "{moves}: {}",
            err.message
        );
        assert!(err.message.ends_with(ended), "{}", err.message);
        // Without the move too many, the record replays to the end it reached.
        let played = text.replace(&format!(" {last} "), " ");
        let record = Record::parse(&played).unwrap_or_else(|e| panic!("{e}"));
        let checked = ludotheca_engine::record::check(&g, &record)
            .unwrap_or_else(|e| panic!("{played}: {e}"));
        assert!(checked.outcome.is_some(), "{played}");
    }
}

#[test]
fn a_result_is_checked_where_it_is_written_and_two_must_agree() {
    let g = lines_game(BAGH_CHAL, None);
    // The tigers take their fifth goat: the game ends 1-0.
    let record_with = |tag: &str, end: &str| {
        format!(
            "[Event \"x\"]\n[Kind \"demonstration\"]\n{tag}[Position \"tigers tiger a1 e1 a5 e5; goats goat a2 \
             c3; tigers captured 4; to-move tigers\"]\n\n1. a1xa3 {end}\n"
        )
    };
    let tag = "[Result \"1-0\"]\n";
    // Both agree with the end, or only one is written: accepted.
    // `*`, on either side, claims nothing.
    for (t, end) in [
        (tag, "1-0"),
        ("", "1-0"),
        (tag, ""),
        (tag, "*"),
        ("[Result \"*\"]\n", "1-0"),
    ] {
        let text = record_with(t, end);
        let checked = Record::parse(&text)
            .and_then(|r| ludotheca_engine::record::check(&g, &r))
            .unwrap_or_else(|e| panic!("{t}{end}: {e}"));
        assert!(checked.outcome.is_some());
    }
    // The tag and the moves disagree: refused where the moves end, naming the tag's line.
    let err = Record::parse(&record_with(tag, "0-1")).unwrap_err();
    assert_eq!(
        (err.line, err.column, err.length),
        (6, 10, 3),
        "{}",
        err.message
    );
    assert!(
        err.message.contains("the Result tag (line 3) says 1-0"),
        "{}",
        err.message
    );
    let err = Record::parse(&record_with("[Result \"1/2-1/2\"]\n", "1-0")).unwrap_err();
    assert_eq!(
        (err.line, err.column, err.length),
        (6, 10, 3),
        "{}",
        err.message
    );
    // One result, wrong for how the game ended: refused where it is written, the moves' or the tag's.
    let err = Record::parse(&record_with("", "0-1"))
        .and_then(|r| ludotheca_engine::record::check(&g, &r))
        .unwrap_err();
    assert_eq!(
        (err.line, err.column, err.length),
        (5, 10, 3),
        "{}",
        err.message
    );
    assert!(
        err.message.contains("says 0-1 but the game ended 1-0"),
        "{}",
        err.message
    );
    // The whole of the wrong result is underlined.
    for end in ["", "*"] {
        let err = Record::parse(&record_with("[Result \"1/2-1/2\"]\n", end))
            .and_then(|r| ludotheca_engine::record::check(&g, &r))
            .unwrap_err();
        assert_eq!(
            (err.line, err.column, err.length),
            (3, 10, 7),
            "{end}: {}",
            err.message
        );
    }
}

/// Plays seeded random games and checks at every ply: undo restores the position, every move's notation parses
/// back to it, and the whole game replays from its record text.
fn check_random_games<G: Game>(game: &G, games: u64, seed: u64) {
    let mut rng = Rng::new(seed);
    for _ in 0..games {
        let start = game.start();
        let mut pos = start.clone();
        let mut played = Vec::new();
        let mut moves = Vec::new();
        for _ in 0..600 {
            moves.clear();
            game.legal_moves(&pos, &mut moves).unwrap();
            if moves.is_empty() {
                assert!(game.outcome(&pos).is_some(), "no moves but no outcome");
                break;
            }
            for mv in &moves {
                let text = game.format_move(&pos, mv);
                assert_eq!(
                    game.parse_move(&pos, &text).as_ref(),
                    Ok(mv),
                    "{text} does not parse back"
                );
                let before = pos.clone();
                let undo = game.play(&mut pos, mv);
                game.undo(&mut pos, mv, undo);
                assert_eq!(pos, before, "undo of {text}");
            }
            let mv = moves[rng.below(moves.len())].clone();
            game.play(&mut pos, &mv);
            played.push(mv);
        }
        let text = format!(
            "[Event \"property test\"]\n[Kind \"illustrative\"]\n\n{}\n",
            write_moves(game, &start, &played)
        );
        let record = Record::parse(&text).unwrap_or_else(|e| panic!("{e}"));
        let replayed = replay(game, &record).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(replayed.positions.last(), Some(&pos));
    }
}

#[test]
fn random_playouts_of_every_catalogued_ruleset_keep_the_invariants() {
    for (id, src) in CATALOG {
        let file = RulesFile::parse(src).unwrap_or_else(|e| panic!("{id}: {e}"));
        for r in &file.rulesets {
            let g = lines_game(src, Some(&r.info.name));
            check_random_games(&g, 6, 7);
            // Positions written in the setup syntax read back.
            let mut rng = Rng::new(3);
            let mut pos = g.start();
            let mut moves = Vec::new();
            for _ in 0..40 {
                moves.clear();
                g.legal_moves(&pos, &mut moves).unwrap();
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.below(moves.len())];
                g.play(&mut pos, &mv);
                let mut back = g.parse_position(&g.format_position(&pos)).unwrap();
                back.passes = pos.passes;
                assert_eq!(back, pos, "{id} {}", r.info.name);
            }
        }
    }
}

#[test]
fn the_uniform_compiled_game_plays_like_the_family_game() {
    let any = compile(BAGH_CHAL, None).unwrap();
    assert_eq!(perft(&any, &mut any.start(), 3), Ok(5_052));
    check_random_games(&any, 2, 11);
}

#[test]
fn playouts_are_deterministic_for_a_seed_and_terminate() {
    let g = lines_game(BAGH_CHAL, None);
    let a = playouts(&g, 50, 42, 10_000);
    let b = playouts(&g, 50, 42, 10_000);
    assert_eq!(a, b);
    assert_eq!(a.unfinished, 0);
    assert_eq!(a.wins[0] + a.wins[1] + a.draws, 50);
}

#[test]
fn the_player_takes_a_winning_capture_and_is_deterministic() {
    let g = lines_game(BAGH_CHAL, None);
    let pos = position(
        &g,
        "tigers tiger a1 e1 a5 e5; goats goat a2 c4 d4; tigers captured 4; to-move tigers",
    );
    let c = choose(&g, &pos, &Limits::nodes(20_000), 5)
        .unwrap()
        .unwrap();
    let mut after = pos.clone();
    g.play(&mut after, &c.best);
    assert_eq!(
        g.outcome(&after),
        Some(Outcome::Win(0)),
        "{}",
        g.format_move(&pos, &c.best)
    );
    let again = choose(&g, &g.start(), &Limits::nodes(5_000), 9)
        .unwrap()
        .unwrap();
    assert_eq!(
        Ok(Some(again)),
        choose(&g, &g.start(), &Limits::nodes(5_000), 9)
    );
}

#[test]
fn metadata_lists_rulesets_facts_and_geometry() {
    let file = RulesFile::parse(include_str!("../../catalog/games/terhuchu/rules.txt")).unwrap();
    let info = file.info();
    assert_eq!(info.game, "Terhuchu");
    let names: Vec<&str> = info.rulesets.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["ten", "eight", "nine", "large"]);
    assert_eq!(info.rulesets[0].source, "hutton-1921-angami");
    let large = file.compile(Some("large")).unwrap();
    assert_eq!(large.geometry().points.len(), 73);
    let facts = large.facts();
    assert_eq!(facts.points, 73);
    assert_eq!(facts.pieces_per_side, [28, 28]);
    assert!(facts.move_kinds.contains(&"slide".to_string()));
    let eight = file.compile(Some("eight")).unwrap();
    assert_eq!(eight.facts().pieces_per_side, [8, 8]);
}

/// Checks that `src` fails at `line:column` with a message containing `needle` (among its other errors).
fn fails_at(src: &str, line: u32, column: u32, needle: &str) {
    let errors = RulesFile::parse_all(src).expect_err("the rules should not compile");
    let e = errors
        .iter()
        .find(|e| e.message.contains(needle))
        .unwrap_or_else(|| panic!("no error says {needle}: {errors:#?}"));
    assert_eq!((e.line, e.column), (line, column), "{e}");
    assert!(!e.help.is_empty());
}

#[test]
fn bad_rules_files_are_reported_where_they_go_wrong() {
    let good = BAGH_CHAL;
    fails_at(
        &good.replace("piece goat \"Goat\": step", "piece goat \"Goat\": hop"),
        14,
        20,
        "`hop` is not a kind of move",
    );
    fails_at(
        &good.replace("tiger on a1 e1 a5 e5", "tiger on a1 e1 a5 f5"),
        17,
        29,
        "no point named `f5`",
    );
    fails_at(
        &good.replace(
            "  grid 5 x 5 diagonals alquerque\nend",
            "  grid 5 x 5 diagonals alquerque",
        ),
        6,
        1,
        "never closed",
    );
    fails_at(
        &good.replace("type described", "type legendary"),
        32,
        8,
        "`legendary` is not a ruleset type",
    );
    fails_at(
        &good.replace("game \"Bagh-Chal\"", "game \"Bagh-Chal"),
        4,
        6,
        "not closed",
    );
    fails_at(
        &good.replace("capture optional", "capture sometimes"),
        23,
        9,
        "`sometimes` is not a choice",
    );
    fails_at(
        &good.replace("outcome captures 5 wins", "outcome captures five wins"),
        26,
        18,
        "a number of captures",
    );
    fails_at(
        &good.replace("source baghchal-common", ""),
        34,
        1,
        "cites no source",
    );
    fails_at(
        &good.replace(
            "  goats: 20 goat in hand",
            "  goats: 20 goat in hand\n  tigers: tiger on a1",
        ),
        19,
        20,
        "already holds a piece",
    );
    fails_at(
        &good.replace("first goats", "first wolves"),
        19,
        9,
        "no side named `wolves`",
    );
    fails_at(
        "game \"X\"\nboard\n  grid 5 x 5\n  frobnicate\nend\n",
        4,
        3,
        "not a board statement",
    );
    fails_at("game \"X\"\nend\n", 2, 1, "closes no block");
    fails_at("board\nend\n", 1, 1, "does not name its game");
}

#[test]
fn every_error_of_a_file_is_reported_with_its_span() {
    let bad = BAGH_CHAL
        .replace("piece goat \"Goat\": step", "piece goat \"Goat\": hop")
        .replace("tiger on a1 e1 a5 e5", "tiger on a1 e1 a5 f5")
        .replace("outcome captures 5 wins", "outcome capture 5 wins");
    let errors = RulesFile::parse_all(&bad).expect_err("three mistakes");
    let found: Vec<(u32, u32, u32)> = errors
        .iter()
        .map(|e| (e.line, e.column, e.length))
        .collect();
    assert_eq!(found, [(14, 20, 3), (17, 29, 2), (26, 9, 7)], "{errors:#?}");
    assert!(
        errors[1].help.starts_with("did you mean `"),
        "{}",
        errors[1].help
    );
    assert!(
        errors[2].help.starts_with("did you mean `captures`?"),
        "{}",
        errors[2].help
    );

    // Every ruleset is compiled, each error said once even when two rulesets meet it.
    let two = format!(
        "{}\nruleset other \"Other\"\n  type described\n  source x\n  capture sometimes\nend\n",
        BAGH_CHAL.replace("piece goat \"Goat\": step", "piece goat \"Goat\": hop")
    );
    let errors = RulesFile::parse_all(&two).expect_err("one mistake in each ruleset");
    let lines: Vec<u32> = errors.iter().map(|e| e.line).collect();
    assert_eq!(lines, [14, 39], "{errors:#?}");
}

#[test]
fn missing_statements_are_reported_where_they_belong() {
    let no_first = BAGH_CHAL.replace("  first goats\n", "");
    let e = RulesFile::parse(&no_first).expect_err("no first");
    assert_eq!(
        (e.line, e.column, e.kind),
        (19, 1, ErrorKind::Missing),
        "{e}"
    );
    let no_setup = "game \"X\"\nboard\n  grid 3 x 3\nend\nside a\nside b\npiece m: step\n";
    let e = RulesFile::parse(no_setup).expect_err("no setup");
    assert_eq!((e.line, e.column, e.length), (1, 1, 4), "{e}");
    assert!(e.message.contains("no setup"), "{e}");
}

#[test]
fn geometry_problems_are_found() {
    let star = "game \"K\"\nboard\n  star\n  point centre at 0 0\nend\nside a\nside b\npiece m: step\n\
                setup\n  a: m on k1\n  first a\nend\n";
    let e = RulesFile::parse(star).expect_err("a point on no line");
    assert_eq!(
        (e.line, e.column, e.length, e.kind),
        (4, 9, 6, ErrorKind::PointOnNoLine),
        "{e}"
    );
    let cut = star.replace(
        "  point centre at 0 0\n",
        "  point p at 5 5\n  point q at 6 5\n  line p q\n",
    );
    let e = RulesFile::parse(&cut).expect_err("a part cut off");
    assert_eq!((e.line, e.kind), (4, ErrorKind::Disconnected), "{e}");
    assert!(e.message.contains("`p` `q` are cut off"), "{e}");
    // A coordinate out of reach (`inf` reads as a number) is refused where it is written, before the board is
    // drawn at a scale that would crowd every other point into one spot.
    for (at, column) in [
        ("inf 0", 19),
        ("0 NaN", 21),
        ("1e400 1", 19),
        ("2 -1000.5", 21),
    ] {
        let far = star.replace(
            "  point centre at 0 0\n",
            &format!("  point centre at {at}\n"),
        );
        let e = RulesFile::parse(&far).expect_err(at);
        assert_eq!((e.line, e.column), (4, column), "{at}: {e}");
        assert!(
            e.message
                .contains("a coordinate is a number from -1000 to 1000"),
            "{e}"
        );
    }
    let unknown = star.replace("  point centre at 0 0\n", "  line k1 k99\n");
    let e = RulesFile::parse(&unknown).expect_err("no k99");
    assert!(e.help.contains("the star's tips `k1`..`k5`"), "{e}");
    assert!(!e.help.contains("grid"), "{e}");
}

#[test]
fn records_report_illegal_moves_with_position_and_legal_moves() {
    let g = lines_game(BAGH_CHAL, None);
    let text = "[Event \"Test\"]\n[Kind \"demonstration\"]\n\n1. @c3 a1-b2 2. @b3 {fine so far}\n   b2-c3 *\n";
    let record = Record::parse(text).unwrap();
    let e = replay(&g, &record).expect_err("b2-c3 is illegal");
    assert_eq!((e.line, e.column), (5, 4));
    assert!(e.legal.contains(&"b2xb4".to_string()), "{:?}", e.legal);
    let ok =
        Record::parse("[Event \"T\"]\n[Kind \"demonstration\"]\n1. @c3! a1-b2? 2. @b3 b2xb4 *\n")
            .unwrap();
    assert_eq!(ok.annotation_of(&ok.moves[0]), "!");
    assert_eq!(replay(&g, &ok).unwrap().moves.len(), 4);
    let bad = Record::parse("[Event \"T\"]\n[Kind \"lecture\"]\n").unwrap_err();
    assert_eq!((bad.line, bad.column), (2, 8));
}

#[test]
fn sowing_sections_compile_to_the_sowing_rules_of_the_sources() {
    use ludotheca_engine::sowing::SowingRules;
    let tchouba = include_str!("../../catalog/games/tchouba/rules.txt");
    let shimunana = include_str!("../../catalog/games/shimunana/rules.txt");
    let rules = |src: &str, r: &str| match compile(src, Some(r)) {
        Ok(Compiled::Sowing(g)) => g.rules().clone(),
        Ok(_) => panic!("not a sowing game"),
        Err(e) => panic!("{e}"),
    };
    assert_eq!(rules(tchouba, "4x40"), SowingRules::tchouba(40));
    assert_eq!(rules(tchouba, "4x16"), SowingRules::tchouba(16));
    assert_eq!(rules(tchouba, "4x8"), SowingRules::tchouba(8));
    assert_eq!(
        rules(tchouba, "reconstruction"),
        SowingRules::tchouba_reconstruction(16)
    );
    assert_eq!(rules(shimunana, "shimunana"), SowingRules::shimunana());
    assert_eq!(
        rules(shimunana, "reconstruction"),
        SowingRules::tchouba_reconstruction(4)
    );
    // An odd width is refused where it is written.
    let e = RulesFile::parse(&shimunana.replace("holes 4", "holes 5")).unwrap_err();
    assert_eq!((e.line, e.column), (11, 9));
    // So is a count of 0, each in the language's own words, and all of them in one run.
    let zeros = ["seeds 2", "start 2", "move-cap 2000", "lap-cap 2000"]
        .iter()
        .fold(shimunana.to_string(), |text, said| {
            let keyword = said.split(' ').next().unwrap();
            text.replace(said, &format!("{keyword} 0"))
        });
    let errors = RulesFile::parse_all(&zeros).unwrap_err();
    let found: Vec<(u32, u32)> = errors.iter().map(|e| (e.line, e.column)).collect();
    assert_eq!(found, [(12, 9), (13, 9), (20, 12), (21, 11)], "{errors:#?}");
    assert!(
        errors
            .iter()
            .all(|e| e.message.starts_with("0 is too few: ")),
        "{errors:#?}"
    );
}

const SHIMUNANA: &str = include_str!("../../catalog/games/shimunana/rules.txt");

/// Every error of a rules file, as (line, column, message).
fn all_errors(src: &str) -> Vec<(u32, u32, String)> {
    RulesFile::parse_all(src)
        .expect_err("the rules should not compile")
        .into_iter()
        .map(|e| (e.line, e.column, e.message))
        .collect()
}

#[test]
fn a_wrong_number_of_holes_is_one_error_not_also_a_missing_one() {
    for wrong in ["holes 7", "holes 42", "holes 0", "holes seven", "holes"] {
        let errors = all_errors(&SHIMUNANA.replace("holes 4", wrong));
        assert_eq!(errors.len(), 1, "{wrong}: {errors:#?}");
        assert_eq!(errors[0].0, 11, "{wrong}: {errors:#?}");
    }
    // A block with no `holes` line at all still says so, at its end.
    let errors = all_errors(&SHIMUNANA.replace("  holes 4\n", ""));
    assert_eq!(errors[0].0, 21, "{errors:#?}");
    assert!(
        errors
            .iter()
            .all(|e| e.2.contains("does not say how many holes")),
        "{errors:#?}"
    );
}

#[test]
fn too_many_extra_holes_or_seeds_are_refused_where_they_are_written() {
    // Three extra holes fit boards up to 4 x 18: on 4 x 40 the count is refused at the capture line.
    let wide = SHIMUNANA
        .replace("holes 4", "holes 40")
        .replace("extra 1", "extra 3");
    let e = RulesFile::parse(&wide).expect_err("3 extra holes on 4 x 40");
    assert_eq!((e.line, e.column), (17, 34), "{e}");
    assert!(
        e.message
            .starts_with("`extra 3` on a board of 40 holes per row"),
        "{e}"
    );
    assert_eq!(
        e.help,
        "write `extra 2` for this board, or keep `extra 3` on a board of at most `holes 18`"
    );
    // Each suggestion fits: the two changes it offers compile.
    for fix in [
        wide.replace("extra 3", "extra 2"),
        wide.replace("holes 40", "holes 18"),
    ] {
        RulesFile::parse(&fix).unwrap_or_else(|e| panic!("{e}"));
    }
    // A hole holds at most 65,535 seeds, so the whole stock must fit: refused at the seeds count.
    let heavy = SHIMUNANA
        .replace("holes 4", "holes 40")
        .replace("seeds 2", "seeds 500");
    let e = RulesFile::parse(&heavy).expect_err("80,000 seeds");
    assert_eq!((e.line, e.column), (12, 9), "{e}");
    assert!(e.message.contains("more than the 65535"), "{e}");
    assert_eq!(e.help, "write `seeds 409` or fewer on this board");
    RulesFile::parse(&heavy.replace("seeds 500", "seeds 409")).unwrap_or_else(|e| panic!("{e}"));
    RulesFile::parse(&heavy.replace("seeds 500", "seeds 410")).expect_err("410 is one too many");
}

#[test]
fn extra_holes_that_can_never_be_taken_are_refused() {
    // Without `outer` a capture takes one hole of the file, and without `always` extra holes need two.
    let dead = SHIMUNANA.replace(
        "capture opposite, outer, extra 1, always",
        "capture opposite, extra 2",
    );
    let e = RulesFile::parse(&dead).expect_err("extra without outer or always");
    assert_eq!((e.line, e.column), (17, 21), "{e}");
    assert!(e.message.starts_with("`extra 2` never applies"), "{e}");
    assert!(
        e.help.contains("`capture opposite, extra 2, always`"),
        "{e}"
    );
    assert!(e.help.contains("`capture opposite, outer, extra 2`"), "{e}");
    // Either word gives the extra holes a use; no extra hole needs neither.
    for fine in [
        "capture opposite, extra 2, always",
        "capture opposite, outer, extra 2",
        "capture opposite, extra 0",
        "capture opposite",
    ] {
        let src = SHIMUNANA.replace("capture opposite, outer, extra 1, always", fine);
        RulesFile::parse(&src).unwrap_or_else(|e| panic!("{fine}: {e}"));
    }
}

/// The help of a refusal says what the language really accepts, and what would fix this statement.
#[test]
fn helps_say_what_the_language_accepts() {
    let rules = |board: &str, sides: &str, piece: &str| {
        format!(
            "game \"F\"\nboard\n{board}\n  region far: a3 b3\nend\n{sides}\npiece man: {piece}\n\
             setup\n  white: man on a1\n  black: man on b2\n  first white\nend\n"
        )
    };
    let sides = "side white\nside black";
    let grid = "  grid 3 x 3";
    // `within` limits steps and slides; a capture limited so is refused, and the help does not offer it.
    let e =
        RulesFile::parse(&rules(grid, sides, "step, jump within far")).expect_err("jump within");
    assert!(
        e.message.contains("captures cannot be limited to a region"),
        "{e}"
    );
    assert!(
        e.help.contains("`within REGION` (steps and slides only)"),
        "{e}"
    );
    RulesFile::parse(&rules(grid, sides, "step within far, jump into far"))
        .unwrap_or_else(|e| panic!("{e}"));
    // `forward` takes any of the eight directions, and the help says so.
    RulesFile::parse(&rules(
        grid,
        "side white forward north-east\nside black forward south-west",
        "step forward",
    ))
    .unwrap_or_else(|e| panic!("{e}"));
    let e = RulesFile::parse(&rules(grid, "side white forward up\nside black", "step"))
        .expect_err("forward up");
    assert!(e.help.contains("north-east"), "{e}");
    // A point's name or place taken: the help says what to change, not how to write a point.
    let e = RulesFile::parse(&rules(&format!("{grid}\n  point a1 at 5 5"), sides, "step"))
        .expect_err("a1 twice");
    assert_eq!((e.line, e.column), (4, 9), "{e}");
    assert_eq!(
        e.help,
        "give the point a name that no other point or region has"
    );
    let e = RulesFile::parse(&rules(&format!("{grid}\n  point z at 1 1"), sides, "step"))
        .expect_err("z on b2");
    assert!(
        e.help.starts_with("two points cannot stand on one spot"),
        "{e}"
    );
    let e = RulesFile::parse(&rules(
        &format!("{grid}\n  triangle at b1 toward south names a"),
        sides,
        "step",
    ))
    .expect_err("a triangle naming a1 again");
    assert!(e.help.contains("`names P`"), "{e}");
    // A grid over the 128 points: the grids the help offers do fit.
    let e = RulesFile::parse(&rules("  grid 12 x 11", sides, "step")).expect_err("132 points");
    assert!(e.message.contains("132 points"), "{e}");
    let offered: Vec<&str> = e
        .help
        .split('`')
        .filter(|w| w.starts_with("grid "))
        .collect();
    assert_eq!(offered, ["grid 12 x 10", "grid 11 x 11"], "{e}");
    for grid in offered {
        RulesFile::parse(&rules(&format!("  {grid}"), sides, "step"))
            .unwrap_or_else(|e| panic!("{grid}: {e}"));
    }
}

#[test]
fn every_catalogued_record_replays_under_its_ruleset() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../catalog/games");
    let mut count = 0;
    for (id, src) in CATALOG {
        let file = RulesFile::parse(src).unwrap();
        let dir = format!("{root}/{id}/games");
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut paths: Vec<_> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
        paths.sort();
        for path in paths
            .iter()
            .filter(|p| p.extension().is_some_and(|e| e == "game"))
        {
            let text = std::fs::read_to_string(path).unwrap();
            let record = Record::parse(&text).unwrap_or_else(|e| panic!("{}:{e}", path.display()));
            let ruleset = record.tag("Ruleset");
            let game = file
                .compile(ruleset)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let replayed =
                replay(&game, &record).unwrap_or_else(|e| panic!("{}:{e}", path.display()));
            if record.tag("Kind") == Some("illustrative") {
                assert!(
                    replayed.outcome.is_some(),
                    "{}: an illustrative game is played to its end",
                    path.display()
                );
            }
            count += 1;
        }
    }
    assert!(count >= 30, "only {count} records found");
}

#[test]
fn moves_are_described_for_programs_and_positions_drawn() {
    let any = compile(BAGH_CHAL, None).unwrap();
    let pos = any
        .parse_position(
            "tigers tiger a1 e1 a5 e5; goats goat a2; goats hand goat 19; to-move tigers",
        )
        .unwrap();
    let mut moves = Vec::new();
    any.legal_moves(&pos, &mut moves).unwrap();
    let jump = moves
        .iter()
        .map(|m| any.describe_move(&pos, m))
        .find(|i| i.notation == "a1xa3")
        .unwrap();
    assert_eq!(jump.from.as_deref(), Some("a1"));
    assert_eq!(jump.to.as_deref(), Some("a3"));
    assert_eq!(jump.path, ["a1", "a3"]);
    assert_eq!(jump.captured, ["a2"]);
    let diagram = any.diagram(&pos);
    assert!(diagram.starts_with("T   .   .   .   T\n"), "{diagram}");
    assert!(diagram.contains("\ng   .   .   .   .\n"), "{diagram}");
    assert_eq!(any.perft(3), Ok(5_052));
}

#[test]
fn damaged_rules_files_and_records_give_errors_never_panics() {
    let mut rng = Rng::new(99);
    let noise = ['x', '"', ':', ',', '#', '\n', ' ', '9', '-', 'é', '@', 'e'];
    for (_, src) in CATALOG {
        let chars: Vec<char> = src.chars().collect();
        for _ in 0..300 {
            let mut c = chars.clone();
            for _ in 0..1 + rng.below(3) {
                let i = rng.below(c.len());
                match rng.below(3) {
                    0 => {
                        c.remove(i);
                    }
                    1 => c.insert(i, noise[rng.below(noise.len())]),
                    _ => c[i] = noise[rng.below(noise.len())],
                }
            }
            let text: String = c.into_iter().collect();
            if let Err(e) = RulesFile::parse(&text) {
                assert!(e.line >= 1 && e.column >= 1);
            }
        }
    }
    let g = lines_game(BAGH_CHAL, None);
    let record: Vec<char> = "[Event \"T\"]\n[Kind \"demonstration\"]\n[Position \"tigers tiger a1 e1 a5 e5; goats hand goat 3\"]\n1. @c3! a1-b2 {x} 2. @b3 b2xb4 *\n".chars().collect();
    for _ in 0..2000 {
        let mut c = record.clone();
        let i = rng.below(c.len());
        c[i] = noise[rng.below(noise.len())];
        let text: String = c.into_iter().collect();
        if let Ok(r) = Record::parse(&text) {
            let _ = replay(&g, &r);
        }
    }
}

#[test]
fn a_chain_can_be_built_click_by_click() {
    let g = alquerque("chain may-stop");
    let pos = position(&g, CHAIN_POSITION);
    let p = |n: &str| g.rules.board.find(n).unwrap();
    let names = |v: Vec<u8>| {
        v.into_iter()
            .map(|q| g.rules.board.points[q as usize].name.clone())
            .collect::<Vec<_>>()
    };
    let (next, done) = g.continuations(&pos, &[]).unwrap();
    assert_eq!(names(next), ["a1"]);
    assert!(done.is_empty());
    let (next, done) = g.continuations(&pos, &[p("a1")]).unwrap();
    assert_eq!(names(next), ["a3", "c3"]);
    assert!(done.is_empty());
    let (next, done) = g.continuations(&pos, &[p("a1"), p("a3")]).unwrap();
    assert_eq!(names(next), ["a5", "c1"]);
    assert_eq!(done.len(), 1, "the chain may stop at a3");
    let (next, done) = g.continuations(&pos, &[p("a1"), p("a3"), p("c1")]).unwrap();
    assert!(next.is_empty());
    assert_eq!(g.format_move(&pos, &done[0]), "a1xa3xc1");
}

#[test]
fn no_progress_draws_after_quiet_plies() {
    let g = alquerque("outcome no-progress 3 draws");
    let mut pos = position(&g, "white man a1; black man e5; quiet 1; to-move white");
    for text in ["a1-a2", "e5-e4"] {
        assert_eq!(g.outcome(&pos), None);
        let mv = g.parse_move(&pos, text).unwrap();
        g.play(&mut pos, &mv);
    }
    assert_eq!(g.outcome(&pos), Some(Outcome::Draw));
    assert!(sorted_moves(&g, &pos).is_empty());
}

/// Perft of every catalogued ruleset. Only Bagh-Chal's counts are checked against other programs; these are the
/// engine's own counts, kept so that a change in move generation cannot pass unnoticed.
#[test]
fn perft_regression_table_of_the_catalogued_rulesets() {
    let table: [(&str, &str, &[u64]); 11] = [
        ("terhuchu", "ten", &[9, 69, 1_407, 33_181]),
        ("terhuchu", "eight", &[11, 115, 2_165, 45_021]),
        ("terhuchu", "nine", &[11, 115, 2_328, 50_400]),
        ("terhuchu", "large", &[9, 11, 57, 377, 2_784]),
        ("sumi-naga-hunt", "hutton", &[21, 252, 5_052, 68_204]),
        ("sumi-naga-hunt", "sequences", &[21, 252, 5_052, 69_084]),
        ("mogol-putthan", "murray", &[9, 69, 1_407, 33_181]),
        ("mogol-putthan", "strict", &[9, 21, 65, 323, 1_804]),
        ("dam-pursi", "murray", &[4, 8, 49, 739, 16_297]),
        ("permainan-tabal", "dlp", &[9, 21, 61, 263, 1_320]),
        ("permainan-tabal", "huffing", &[9, 69, 1_297, 27_963]),
    ];
    for (id, ruleset, counts) in table {
        let src = CATALOG.iter().find(|(i, _)| *i == id).unwrap().1;
        let g = lines_game(src, Some(ruleset));
        for (d, &n) in counts.iter().enumerate() {
            assert_eq!(
                perft(&g, &mut g.start(), d as u32 + 1),
                Ok(n),
                "{id} {ruleset} depth {}",
                d + 1
            );
        }
    }
}

#[test]
fn the_player_stops_at_its_deadline_with_a_callers_clock() {
    use std::cell::Cell;
    let g = lines_game(
        include_str!("../../catalog/games/terhuchu/rules.txt"),
        Some("large"),
    );
    // A fake clock that advances one millisecond per reading: deterministic, unlike a real one.
    let now = Cell::new(0u64);
    let clock = || {
        now.set(now.get() + 1);
        now.get()
    };
    let limits = Limits {
        max_depth: 64,
        max_nodes: u64::MAX,
        deadline: Some((50, &clock)),
    };
    let c = choose(&g, &g.start(), &limits, 1).unwrap().unwrap();
    assert!(c.depth >= 1);
    assert!(now.get() <= 52, "read the clock {} times", now.get());
    let shallow = Limits {
        max_depth: 2,
        max_nodes: u64::MAX,
        deadline: None,
    };
    assert_eq!(
        choose(&g, &g.start(), &shallow, 1).unwrap().unwrap().depth,
        2
    );
}

#[test]
fn boards_and_records_are_bounded() {
    // 23 x 6 = 138 points, over the 128 a position can hold.
    let big = BAGH_CHAL.replace("grid 5 x 5 diagonals alquerque", "grid 23 x 6");
    let Err(e) = compile(&big, None) else {
        panic!("a board of 138 points compiles")
    };
    assert!(e.to_string().contains("at most 128 points"), "{e}");

    use ludotheca_engine::record::MAX_RECORD_MOVES;
    let head = "[Event \"T\"]\n[Kind \"demonstration\"]\n";
    let at_cap = format!("{head}{}*\n", "a1-b2 ".repeat(MAX_RECORD_MOVES));
    assert_eq!(
        Record::parse(&at_cap).unwrap().moves.len(),
        MAX_RECORD_MOVES
    );
    let over = format!("{head}{}*\n", "a1-b2 ".repeat(MAX_RECORD_MOVES + 1));
    let e = Record::parse(&over).unwrap_err();
    assert!(e.message.contains("more than 10000 moves"), "{e}");
    assert_eq!((e.line, e.column), (3, 6 * MAX_RECORD_MOVES as u32 + 1));
}

/// Two lone steppers on a 3 x 3 board, white on a1 and black on c3: neither can ever capture, so the game goes
/// on until a rule about repetition ends it.
fn shuffle(rules: &str) -> LinesGame {
    let src = format!(
        "game \"F\"\nboard\n  grid 3 x 3\nend\nside white\nside black\npiece man: step\n\
         setup\n  white: man on a1\n  black: man on c3\n  first white\nend\n{rules}\n"
    );
    lines_game(&src, None)
}

/// Plays `moves` from the start, each checked as a record's move is.
fn after(game: &LinesGame, moves: &[&str]) -> LinesPosition {
    let mut pos = game.start();
    for text in moves {
        let mv = game
            .parse_move(&pos, text)
            .unwrap_or_else(|e| panic!("{text}: {e:?}"));
        game.play(&mut pos, &mv);
    }
    pos
}

/// The start position comes back after the black man's fourth move here.
const ROUND: [&str; 3] = ["a1-a2", "c3-c2", "a2-a1"];

#[test]
fn a_side_may_be_forbidden_to_bring_back_a_position() {
    let free = shuffle("");
    assert_eq!(
        sorted_moves(&free, &after(&free, &ROUND)),
        ["c2-b2", "c2-c1", "c2-c3"]
    );
    // c2-c3 would bring back the start position: not a legal move for black, listed or written.
    let g = shuffle("repetition forbidden for black");
    let pos = after(&g, &ROUND);
    assert_eq!(sorted_moves(&g, &pos), ["c2-b2", "c2-c1"]);
    let refused = |text| match g.parse_move(&pos, text) {
        Err(MoveError::Illegal(m)) => m,
        other => panic!("{text}: {other:?}"),
    };
    assert!(refused("c2-c3").contains("brings back a position"));
    // A move that is illegal anyway is not blamed on the rule.
    assert!(refused("c2-a2").contains("not a legal move"));
    let choice = choose(&g, &pos, &Limits::nodes(2000), 1).unwrap().unwrap();
    assert_ne!(g.format_move(&pos, &choice.best), "c2-c3");
    // Forbidden to white only, black's c2-c3 is legal; back at the start, white's a1-a2 would bring back the
    // position after white's first move.
    let g = shuffle("repetition forbidden for white");
    let mut round_trip = ROUND.to_vec();
    round_trip.push("c2-c3");
    let pos = after(&g, &round_trip);
    // Rules without a repetition statement keep no history; these keep one key per ply.
    assert!(after(&free, &round_trip).history.is_empty());
    assert_eq!(pos.history.len(), 4);
    // Played for good (nothing kept to undo it), or read and played at once, as a replay plays: the same
    // position, its history included.
    let (mut advanced, mut at_once) = (g.start(), g.start());
    for text in &round_trip {
        let mv = g.parse_move(&advanced, text).unwrap();
        g.advance(&mut advanced, &mv);
        g.parse_and_advance(&mut at_once, text).unwrap();
    }
    assert_eq!(advanced, pos);
    assert_eq!(at_once, pos);
    assert_eq!(sorted_moves(&g, &pos), ["a1-b1"]);
    assert_eq!(
        sorted_moves(&free, &after(&free, &round_trip)),
        ["a1-a2", "a1-b1"]
    );
    // Without `for`, both sides; a ruleset's `repetition allowed for black` lifts it for black alone.
    let g = shuffle("repetition forbidden");
    assert_eq!(sorted_moves(&g, &after(&g, &ROUND)), ["c2-b2", "c2-c1"]);
    let src = "game \"F\"\nboard\n  grid 3 x 3\nend\nside white\nside black\npiece man: step\n\
               setup\n  white: man on a1\n  black: man on c3\n  first white\nend\nrepetition forbidden\n\
               ruleset r\n  type suggested\n  source s\n  repetition allowed for black\nend\n";
    let g = lines_game(src, Some("r"));
    assert_eq!(
        sorted_moves(&g, &after(&g, &ROUND)),
        ["c2-b2", "c2-c1", "c2-c3"]
    );
    let pos = after(&g, &round_trip);
    assert_eq!(sorted_moves(&g, &pos), ["a1-b1"]);
}

#[test]
fn a_side_whose_every_move_repeats_is_blocked() {
    // The white man in the corner has one step, a1-a2; black's man on b1 shuts the other.
    let src = "game \"F\"\nboard\n  grid 3 x 3\nend\nside white\nside black\npiece man: step\n\
               setup\n  white: man on a1\n  black: man on b1 c3\n  first white\nend\n\
               repetition forbidden for white\n";
    let g = lines_game(src, None);
    let round = ["a1-a2", "c3-c2", "a2-a1", "c2-c3"];
    // Black brought the start back (black may); white's one step would now repeat the position after it.
    let pos = after(&g, &round);
    assert!(sorted_moves(&g, &pos).is_empty());
    assert_eq!(g.outcome(&pos), Some(Outcome::Win(1)));
    let free = lines_game(&src.replace("repetition forbidden for white", ""), None);
    let pos = after(&free, &round);
    assert_eq!(sorted_moves(&free, &pos), ["a1-a2"]);
    assert_eq!(free.outcome(&pos), None);
}

#[test]
fn a_position_occurring_the_nth_time_draws() {
    let g = shuffle("outcome repetition 3 draws");
    let mut moves: Vec<&str> = Vec::new();
    for _ in 0..2 {
        moves.extend(ROUND);
        moves.push("c2-c3");
    }
    // The start position, a second time after four plies and a third after eight.
    assert_eq!(g.outcome(&after(&g, &moves[..4])), None);
    assert_eq!(g.outcome(&after(&g, &moves[..7])), None);
    let third = after(&g, &moves);
    assert_eq!(g.outcome(&third), Some(Outcome::Draw));
    assert!(sorted_moves(&g, &third).is_empty());
    let free = shuffle("");
    assert_eq!(free.outcome(&after(&free, &moves)), None);
    // Random play ends every game by repetition; without the rule none ends.
    let stats = playouts(&g, 20, 7, 10_000);
    assert_eq!((stats.draws, stats.unfinished), (20, 0));
    assert_eq!(playouts(&free, 20, 7, 500).unfinished, 20);
}

/// The position as the repetition rules see it: the setup line without its counters.
fn board_of(game: &LinesGame, pos: &LinesPosition) -> String {
    game.format_position(pos)
        .split("; ")
        .filter(|c| !c.starts_with("ply") && !c.starts_with("quiet"))
        .collect::<Vec<_>>()
        .join("; ")
}

/// Perft by another road: the moves of the game without the rule, filtered by positions written out as text
/// and remembered in a plain list (`forbid`: drop moves back to one; `draw_at`: stop where one occurs that
/// many times).
fn perft_by_text(
    free: &LinesGame,
    pos: &mut LinesPosition,
    seen: &mut Vec<String>,
    depth: u32,
    forbid: bool,
    draw_at: usize,
) -> u64 {
    if depth == 0 {
        return 1;
    }
    let here = board_of(free, pos);
    if seen.iter().filter(|s| **s == here).count() + 1 >= draw_at {
        return 0;
    }
    let mut moves = Vec::new();
    free.legal_moves(pos, &mut moves).unwrap();
    seen.push(here);
    let mut total = 0;
    for mv in &moves {
        let undo = free.play(pos, mv);
        if !(forbid && seen.contains(&board_of(free, pos))) {
            total += perft_by_text(free, pos, seen, depth - 1, forbid, draw_at);
        }
        free.undo(pos, mv, undo);
    }
    seen.pop();
    total
}

#[test]
fn perft_counts_only_the_games_the_repetition_rules_allow() {
    let free = shuffle("");
    for (rules, forbid, draw_at) in [
        ("repetition forbidden", true, usize::MAX),
        ("outcome repetition 2 draws", false, 2),
        ("outcome repetition 3 draws", false, 3),
    ] {
        let g = shuffle(rules);
        for depth in 1..=9 {
            let expected = perft_by_text(
                &free,
                &mut free.start(),
                &mut Vec::new(),
                depth,
                forbid,
                draw_at,
            );
            assert_eq!(
                perft(&g, &mut g.start(), depth),
                Ok(expected),
                "{rules}, depth {depth}"
            );
        }
    }
    // Undoing a move gives the history back as it was.
    let g = shuffle("repetition forbidden");
    let mut pos = after(&g, &ROUND);
    let before = pos.clone();
    assert_eq!(pos.history.len(), 3);
    perft(&g, &mut pos, 6).unwrap();
    assert_eq!(pos, before);
    // The rules make a difference at these depths.
    assert_ne!(
        perft(&free, &mut free.start(), 9),
        perft(&shuffle("repetition forbidden"), &mut free.start(), 9)
    );
}

#[test]
fn outcomes_for_one_side() {
    // Only white wins by captures; black's captures count for nothing.
    let g = alquerque("outcome captures 1 wins for white");
    let pos = position(
        &g,
        "white man a1; black man e5; white captured 1; to-move black",
    );
    assert_eq!(g.outcome(&pos), Some(Outcome::Win(0)));
    let pos = position(
        &g,
        "white man a1; black man e5; black captured 1; to-move white",
    );
    assert_eq!(g.outcome(&pos), None);
    // A white side with no pieces does not lose by it: the end of a blocked side, here a draw, applies.
    let g = alquerque("outcome no-pieces ignored for white\noutcome no-move draws");
    let pos = position(&g, "black man e5; to-move white");
    assert_eq!(g.outcome(&pos), Some(Outcome::Draw));
    let pos = position(&g, "white man a1; to-move black");
    assert_eq!(g.outcome(&pos), Some(Outcome::Win(0)));
    let both = alquerque("outcome no-pieces ignored\noutcome no-move draws");
    let pos = position(&both, "white man a1; to-move black");
    assert_eq!(both.outcome(&pos), Some(Outcome::Draw));
    let facts = Compiled::Lines(Box::new(alquerque("outcome captures 3 wins for black"))).facts();
    assert!(
        facts
            .end_conditions
            .contains(&"black that captures 3 pieces wins".to_string()),
        "{:?}",
        facts.end_conditions
    );
}

#[test]
fn a_statement_said_twice_in_one_scope_is_refused_at_the_second() {
    let base = "game \"F\"\nboard\n  grid 3 x 3\nend\nside white\nside black\npiece man: step\n\
                setup\n  white: man on a1\n  black: man on c3\n  first white\nend\n";
    RulesFile::parse(base).unwrap_or_else(|e| panic!("{e}"));
    for (extra, what) in [
        (
            "piece man: jump\n",
            "`piece man` is stated twice; the first is at line 7",
        ),
        (
            "board\n  grid 4 x 4\nend\n",
            "`board` is stated twice; the first is at line 2",
        ),
        (
            "setup\n  white: man on b1\n  first white\nend\n",
            "`setup` is stated twice; the first is at line 8",
        ),
        (
            "outcome move-cap 9 draws\noutcome move-cap 20 draws\n",
            "`outcome move-cap` is stated twice; the first is at line 13",
        ),
    ] {
        let errors = RulesFile::parse_all(&format!("{base}{extra}")).expect_err(extra);
        assert!(
            errors.iter().any(|e| e.message == what),
            "{extra}: {errors:#?}"
        );
    }
    // A ruleset restates what the base says, once: that is what a ruleset is for.
    let ruleset = "ruleset big \"Big\"\n  type described\n  source s\n  board\n    grid 4 x 4\n  end\n\
                   piece man: jump\nend\n";
    RulesFile::parse(&format!("{base}{ruleset}")).unwrap_or_else(|e| panic!("{e}"));
    // Twice within the ruleset is refused like twice in the base.
    let twice = ruleset.replace("piece man: jump\n", "piece man: jump\n  piece man: step\n");
    let errors = RulesFile::parse_all(&format!("{base}{twice}")).expect_err("twice in the ruleset");
    assert!(
        errors
            .iter()
            .any(|e| e.line == 20 && e.message.starts_with("`piece man` is stated twice")),
        "{errors:#?}"
    );
}

#[test]
fn a_region_names_no_point_and_no_other_region() {
    let rules = |board: &str| {
        format!(
            "game \"F\"\nboard\n  grid 3 x 3\n{board}end\nside white\nside black\npiece man: step\n\
             setup\n  white: man on b2\n  black: man on c3\n  first white\nend\n"
        )
    };
    RulesFile::parse(&rules("  region far: a1 a2\n")).unwrap_or_else(|e| panic!("{e}"));
    // A region `b2` would have put the white man on a1 and a2, the point b2 hidden behind it.
    let e = RulesFile::parse(&rules("  region b2: a1 a2\n")).expect_err("a region named b2");
    assert_eq!((e.line, e.column), (4, 10), "{e}");
    assert!(e.message.contains("`b2` names a point"), "{e}");
    let e =
        RulesFile::parse(&rules("  region far: a1\n  region far: a2\n")).expect_err("far twice");
    assert_eq!((e.line, e.column), (5, 10), "{e}");
    // A triangle's own region, named after its direction, is not replaced either.
    let e = RulesFile::parse(&rules("  triangle at b3 toward north\n  region N: a1\n"))
        .expect_err("N twice");
    assert!(
        e.message.contains("a region named `N` already exists"),
        "{e}"
    );
    // The other order is refused alike: a point `far` declared after the region `far` would be hidden by it.
    let e = RulesFile::parse(&rules(
        "  region far: a1 a2\n  point far at 5 5\n  line c3 far\n",
    ))
    .expect_err("a point named after a region");
    assert_eq!((e.line, e.column), (5, 9), "{e}");
    assert_eq!(
        e.message, "`far` names a region; a point needs a name of its own",
        "{e}"
    );
    // So are the points a generator names, at the statement that makes them.
    let e = RulesFile::parse(&rules("  region N1: a1\n  triangle at b3 toward north\n"))
        .expect_err("a triangle point named after a region");
    assert_eq!((e.line, e.column), (5, 3), "{e}");
    assert!(e.message.contains("`N1` names a region"), "{e}");
}

#[test]
fn repetition_and_side_outcomes_are_checked_where_written() {
    let base = "game \"F\"\nboard\n  grid 3 x 3\nend\nside white\nside black\npiece man: step\n\
                setup\n  white: man on a1\n  black: man on c3\n  first white\nend\n";
    let src = format!(
        "{base}outcome captures 2 wins for whit\noutcome no-pieces loses for blacks\n\
         repetition forbidden for wite\nrepetition sometimes\noutcome repetition 1 draws\n\
         outcome repetition 3 draws for white\nrepetition forbidden white\n"
    );
    let errors = RulesFile::parse_all(&src).expect_err("eight mistakes");
    let found: Vec<(u32, u32, &str)> = errors
        .iter()
        .map(|e| (e.line, e.column, e.message.as_str()))
        .collect();
    assert_eq!(
        found,
        [
            (13, 29, "no side named `whit`"),
            (14, 29, "no side named `blacks`"),
            (15, 26, "no side named `wite`"),
            (16, 12, "`sometimes` is not a choice here"),
            (
                17,
                20,
                "every position occurs once: a repetition is its second occurrence or a later one"
            ),
            (18, 28, "unexpected `for`"),
            (
                19,
                1,
                "`repetition forbidden` is stated twice; the first is at line 16"
            ),
            (19, 22, "unexpected `white`"),
        ],
        "{errors:#?}"
    );
    assert!(
        errors[0].help.starts_with("did you mean `white`?"),
        "{}",
        errors[0].help
    );
    assert!(
        errors[1].help.starts_with("did you mean `black`?"),
        "{}",
        errors[1].help
    );
    assert!(
        errors[2].help.starts_with("did you mean `white`?"),
        "{}",
        errors[2].help
    );
}
