//! Perft: the number of move sequences of a given length from a position. Equal counts from two independent
//! implementations are strong evidence that both generate exactly the legal moves.

use crate::game::Game;

/// Leaf count at `depth` plies from `pos`. The last ply is counted without being played ("bulk counting").
pub fn perft<G: Game>(game: &G, pos: &mut G::Position, depth: u32) -> u64 {
    let mut buffers: Vec<Vec<G::Move>> =
        (0..depth.max(1)).map(|_| Vec::with_capacity(64)).collect();
    count(game, pos, depth, &mut buffers)
}

fn count<G: Game>(
    game: &G,
    pos: &mut G::Position,
    depth: u32,
    buffers: &mut [Vec<G::Move>],
) -> u64 {
    if depth == 0 {
        return 1;
    }
    let Some((moves, rest)) = buffers.split_first_mut() else {
        return 1;
    };
    moves.clear();
    game.legal_moves(pos, moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for mv in moves.iter() {
        let undo = game.play(pos, mv);
        total += count(game, pos, depth - 1, rest);
        game.undo(pos, mv, undo);
    }
    total
}

/// Perft split by first move, each with its notation: for finding where two implementations disagree.
pub fn divide<G: Game>(game: &G, pos: &mut G::Position, depth: u32) -> Vec<(String, u64)> {
    let mut moves = Vec::new();
    game.legal_moves(pos, &mut moves);
    moves
        .iter()
        .map(|mv| {
            let text = game.format_move(pos, mv);
            let undo = game.play(pos, mv);
            let n = if depth <= 1 {
                1
            } else {
                perft(game, pos, depth - 1)
            };
            game.undo(pos, mv, undo);
            (text, n)
        })
        .collect()
}
