//! Writes one illustrative game per ruleset of the catalogued points-and-lines games: the engine's computer
//! player against itself, labelled as such in the record.
//!
//! `cargo run --release -p ludotheca-engine --example illustrative_games -- CATALOG-GAMES-DIR [NODES]`

use ludotheca_engine::lines::LinesGame;
use ludotheca_engine::player::{Limits, choose};
use ludotheca_engine::record::write_moves;
use ludotheca_engine::{Compiled, Game, Outcome, RulesFile};

const GAMES: [&str; 6] = [
    "terhuchu",
    "sumi-naga-hunt",
    "mogol-putthan",
    "bagh-chal",
    "permainan-tabal",
    "dam-pursi",
];

fn play(
    game: &LinesGame,
    nodes: u64,
    seed: u64,
) -> (Vec<<LinesGame as Game>::Move>, Option<Outcome>) {
    let mut pos = game.start();
    let mut moves = Vec::new();
    // Rules without a move cap still end here; every catalogued ruleset has one well below this.
    for ply in 0..2000u64 {
        let Some(choice) = choose(
            game,
            &pos,
            &Limits::nodes(nodes),
            seed.wrapping_mul(1_000_003).wrapping_add(ply),
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
        eprintln!("usage: illustrative_games CATALOG-GAMES-DIR [NODES]");
        std::process::exit(2);
    };
    let nodes: u64 = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(4000);
    for id in GAMES {
        let path = format!("{dir}/{id}/rules.txt");
        let src = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let file = RulesFile::parse(&src).unwrap_or_else(|e| panic!("{path}:{e}"));
        for (i, r) in file.rulesets.iter().enumerate() {
            let Ok(Compiled::Lines(game)) = file.compile(Some(&r.info.name)) else {
                continue;
            };
            let seed = 1 + i as u64;
            let (moves, outcome) = play(&game, nodes, seed);
            let result = match outcome {
                Some(Outcome::Win(0)) => "1-0",
                Some(Outcome::Win(_)) => "0-1",
                Some(Outcome::Draw) => "1/2-1/2",
                None => "*",
            };
            let how = match outcome {
                Some(Outcome::Win(s)) => format!("{} win", game.rules.sides[s as usize].title),
                Some(Outcome::Draw) => "a draw".to_string(),
                None => "unfinished".to_string(),
            };
            let text = format!(
                "[Event \"Illustrative game: {}\"]\n[Kind \"illustrative\"]\n[Ruleset \"{}\"]\n\
                 [Players \"ludotheca computer player against itself (alpha-beta, {nodes} nodes a move, seed {seed})\"]\n\
                 [Result \"{result}\"]\n\n\
                 {{Played by the engine's computer player, not by people: it shows the rules of this ruleset at work \
                 from start to end ({} plies, {how}), not how the game was played.}}\n{} {result}\n",
                r.info.title,
                r.info.name,
                moves.len(),
                write_moves(game.as_ref(), &game.start(), &moves),
            );
            let out = format!("{dir}/{id}/games/illustrative-{}.game", r.info.name);
            std::fs::create_dir_all(format!("{dir}/{id}/games"))
                .unwrap_or_else(|e| panic!("{out}: {e}"));
            std::fs::write(&out, text).unwrap_or_else(|e| panic!("{out}: {e}"));
            println!("{out}: {} plies, {result}", moves.len());
        }
    }
}
