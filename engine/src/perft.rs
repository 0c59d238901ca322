//! Perft: the number of move sequences of a given length from a position. Equal counts from two independent
//! implementations are strong evidence that both generate exactly the legal moves.

use crate::game::{Game, TooManyMoves};

/// Leaf count at `depth` plies from `pos`. The last ply is counted without being played ("bulk counting").
/// A position on the way with more than `MAX_MOVES` moves stops the count.
pub fn perft<G: Game>(game: &G, pos: &mut G::Position, depth: u32) -> Result<u64, TooManyMoves> {
    // One move list per ply, made as the search first reaches it: a depth far beyond any game's length costs
    // nothing until it is reached.
    let mut buffers: Vec<Vec<G::Move>> = Vec::new();
    count(game, pos, depth, 0, &mut buffers)
}

fn count<G: Game>(
    game: &G,
    pos: &mut G::Position,
    depth: u32,
    ply: usize,
    buffers: &mut Vec<Vec<G::Move>>,
) -> Result<u64, TooManyMoves> {
    if depth == 0 {
        return Ok(1);
    }
    if buffers.len() <= ply {
        buffers.push(Vec::with_capacity(64));
    }
    let mut moves = std::mem::take(&mut buffers[ply]);
    moves.clear();
    let result = game.legal_moves(pos, &mut moves).and_then(|()| {
        if depth == 1 {
            return Ok(moves.len() as u64);
        }
        let mut total = 0;
        for mv in moves.iter() {
            let undo = game.play(pos, mv);
            let n = count(game, pos, depth - 1, ply + 1, buffers);
            game.undo(pos, mv, undo);
            total += n?;
        }
        Ok(total)
    });
    buffers[ply] = moves;
    result
}

/// Perft split by first move, each with its notation: for finding where two implementations disagree.
pub fn divide<G: Game>(
    game: &G,
    pos: &mut G::Position,
    depth: u32,
) -> Result<Vec<(String, u64)>, TooManyMoves> {
    let mut moves = Vec::new();
    game.legal_moves(pos, &mut moves)?;
    moves
        .iter()
        .map(|mv| {
            let text = game.format_move(pos, mv);
            let undo = game.play(pos, mv);
            let n = if depth <= 1 {
                Ok(1)
            } else {
                perft(game, pos, depth - 1)
            };
            game.undo(pos, mv, undo);
            Ok((text, n?))
        })
        .collect()
}
