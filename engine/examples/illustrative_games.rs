//! Writes one illustrative game per ruleset of the catalogued games: the engine's computer player against
//! itself, labelled as such in the record. Points-and-lines and sowing games alike, through the `Game` trait.
//!
//! `cargo run --release -p ludotheca-engine --example illustrative_games -- CATALOG-GAMES-DIR [NODES] [GAMES]`
//!
//! `GAMES` is a comma-separated list of game identifiers (default: every game below), so that regenerating one
//! game's records leaves the others' files alone.

use ludotheca_engine::player::{Limits, choose_fresh, same_placement};
use ludotheca_engine::record::write_moves;
use ludotheca_engine::{AnyPosition, Compiled, Game, Outcome, RulesFile};

const GAMES: [&str; 8] = [
    "terhuchu",
    "sumi-naga-hunt",
    "mogol-putthan",
    "bagh-chal",
    "permainan-tabal",
    "dam-pursi",
    "tchouba",
    "shimunana",
];

/// The player against itself from the start; `any` wraps a position so that earlier positions can be recognised
/// (the player does not go back to one when it can do better, as in the page).
fn play<G: Game>(
    game: &G,
    nodes: u64,
    seed: u64,
    any: impl Fn(&G::Position) -> AnyPosition,
) -> (Vec<G::Move>, Option<Outcome>) {
    let mut pos = game.start();
    let mut moves = Vec::new();
    let mut history = Vec::new();
    // Rules without a move cap still end here; every catalogued ruleset has one at or below this.
    for ply in 0..2000u64 {
        history.push(any(&pos));
        let seen = |p: &G::Position| {
            let p = any(p);
            history.iter().any(|q| same_placement(q, &p))
        };
        let Ok(Some(choice)) = choose_fresh(
            game,
            &pos,
            &Limits::nodes(nodes),
            seed.wrapping_mul(1_000_003).wrapping_add(ply),
            &seen,
        ) else {
            break;
        };
        game.play(&mut pos, &choice.best);
        moves.push(choice.best);
    }
    (moves, game.outcome(&pos))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(dir) = args.first() else {
        eprintln!("usage: illustrative_games CATALOG-GAMES-DIR [NODES] [GAMES]");
        std::process::exit(2);
    };
    let nodes: u64 = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(4000);
    let only: Vec<&str> = args
        .get(2)
        .map(|g| g.split(',').collect())
        .unwrap_or_else(|| GAMES.to_vec());
    for id in GAMES.iter().filter(|id| only.contains(id)) {
        let path = format!("{dir}/{id}/rules.txt");
        let src = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let file = RulesFile::parse(&src).unwrap_or_else(|e| panic!("{path}:{e}"));
        let sides: Vec<String> = file.info().sides.into_iter().map(|(_, t)| t).collect();
        for (i, r) in file.rulesets.iter().enumerate() {
            let Ok(game) = file.compile(Some(&r.info.name)) else {
                continue;
            };
            let seed = 1 + i as u64;
            // On the family's own type: the player's inner loop then needs no dispatch.
            let (text, plies, outcome) = match &game {
                Compiled::Lines(g) => {
                    let (moves, outcome) =
                        play(g.as_ref(), nodes, seed, |p| AnyPosition::Lines(p.clone()));
                    (
                        write_moves(g.as_ref(), &g.start(), &moves),
                        moves.len(),
                        outcome,
                    )
                }
                Compiled::Sowing(g) => {
                    let (moves, outcome) =
                        play(g.as_ref(), nodes, seed, |p| AnyPosition::Sowing(p.clone()));
                    (
                        write_moves(g.as_ref(), &g.start(), &moves),
                        moves.len(),
                        outcome,
                    )
                }
            };
            let result = match outcome {
                Some(Outcome::Win(0)) => "1-0",
                Some(Outcome::Win(_)) => "0-1",
                Some(Outcome::Draw) => "1/2-1/2",
                None => "*",
            };
            let how = match outcome {
                Some(Outcome::Win(s)) => format!(
                    "{} win",
                    sides.get(s as usize).map_or("side", String::as_str)
                ),
                Some(Outcome::Draw) => "a draw".to_string(),
                None => "unfinished".to_string(),
            };
            let record = format!(
                "[Event \"Illustrative game: {}\"]\n[Kind \"illustrative\"]\n[Ruleset \"{}\"]\n\
                 [Players \"ludotheca computer player against itself (alpha-beta, {nodes} nodes a move, no return to an earlier position, seed {seed})\"]\n\
                 [Result \"{result}\"]\n\n\
                 {{Played by the engine's computer player, not by people: it shows the rules of this ruleset at work \
                 from start to end ({plies} plies, {how}), not how the game was played.}}\n{text} {result}\n",
                r.info.title, r.info.name,
            );
            let out = format!("{dir}/{id}/games/illustrative-{}.game", r.info.name);
            std::fs::create_dir_all(format!("{dir}/{id}/games"))
                .unwrap_or_else(|e| panic!("{out}: {e}"));
            std::fs::write(&out, record).unwrap_or_else(|e| panic!("{out}: {e}"));
            println!("{out}: {plies} plies, {result}");
        }
    }
}
