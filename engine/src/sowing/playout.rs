//! Random playouts without move lists. A capture on a big board offers one move per choice of extra holes (a
//! thousand and more on 4x40), and a uniform random move only needs to know how many moves each starting hole
//! offers, not to write them all down. The moves are counted per hole, an index is drawn over the total, and the
//! move with that index is rebuilt, in the same order as `legal_moves` lists them: a playout from the same
//! generator state makes exactly the choices that picking `moves[rng.below(moves.len())]` would.

use super::{MAX_EXTRA_HOLES, MAX_TRACK, SowingEnding, SowingGame, SowingMove, SowingPosition};
use crate::game::Outcome;
use crate::rng::Rng;

/// Ways to choose `k` (at most 3) of `m` items.
pub(super) fn choose(m: usize, k: usize) -> u64 {
    let m = m as u64;
    match k {
        0 => 1,
        1 => m,
        2 => m * m.saturating_sub(1) / 2,
        _ => m * m.saturating_sub(1) * m.saturating_sub(2) / 6,
    }
}

impl SowingGame {
    /// Plays uniformly random legal moves from `pos` until the game ends, and returns the outcome.
    pub fn random_playout(&self, pos: &mut SowingPosition, rng: &mut Rng) -> Outcome {
        loop {
            match self.random_move(pos, rng) {
                Some(mv) => self.play_move(pos, &mv),
                // No move exactly when the game is over (see `legal_moves`).
                None => return self.ended(pos).unwrap_or(Outcome::Draw),
            }
        }
    }

    /// A uniformly random legal move, or `None` when the game is over; the same move as
    /// `moves[rng.below(moves.len())]` over `legal_moves`, for the same generator state.
    pub fn random_move(&self, pos: &SowingPosition, rng: &mut Rng) -> Option<SowingMove> {
        if pos.lap_capped || pos.ply >= self.rules.move_cap {
            return None;
        }
        let me = usize::from(pos.side & 1);
        let opp = &pos.board[1 - me][..self.len];
        // The opponent's occupied holes are counted on the first capture only: most turns capture nothing.
        let mut occupied_len = usize::MAX;
        // Per starting hole, in order: how many moves it offers (1, or the choices of extra holes).
        // At most C(78, 3) moves per hole, so u32 suffices and halves the array set up on every ply.
        let mut offers = [0u32; MAX_TRACK];
        // Where each sowing ended: the hole, with bit 7 set when it was empty. Kept so the chosen hole need not
        // be sown again here (on 4x4 a turn sows only two or three holes, so one more sowing shows).
        let mut endings = [0u8; MAX_TRACK];
        let mut total = 0u64;
        let mut starts = self.start_mask(&pos.board[me]);
        while starts != 0 {
            let i = starts.trailing_zeros() as usize;
            starts &= starts - 1;
            let mut scratch = pos.board[me];
            let ending = self.sow(&mut scratch[..self.len], i);
            let count = match self.file_capture(&ending, opp) {
                None => 1,
                Some(fc) => {
                    if occupied_len == usize::MAX {
                        occupied_len = opp.iter().filter(|&&s| s > 0).count();
                    }
                    // The inner hole is occupied by definition; the outer is counted only when taken.
                    let left = occupied_len - 1 - usize::from(fc.outer.is_some());
                    choose(left, usize::from(fc.extras).min(left))
                }
            };
            offers[i] = count as u32;
            endings[i] = ending.last as u8 | (u8::from(ending.into_empty) << 7);
            total += count;
        }
        if total == 0 {
            return None;
        }
        let mut r = (rng.below(total as usize)) as u64;
        let i = offers[..self.len].iter().position(|&c| {
            let c = u64::from(c);
            if r < c {
                true
            } else {
                r -= c;
                false
            }
        })?;
        let mut mv = SowingMove {
            hole: i as u8,
            extras: [0; MAX_EXTRA_HOLES as usize],
            extra_count: 0,
        };
        // A sowing stopped by the lap cap ended in an occupied hole, so it reads as "not empty": no capture.
        let ending = SowingEnding {
            last: usize::from(endings[i] & 0x7f),
            into_empty: endings[i] & 0x80 != 0,
            capped: false,
        };
        if let Some(fc) = self.file_capture(&ending, opp) {
            let outer = fc.outer.unwrap_or(usize::MAX);
            let mut candidates = [0u8; MAX_TRACK];
            let mut m = 0;
            for (h, &seeds) in opp.iter().enumerate() {
                candidates[m] = h as u8;
                m += usize::from(seeds > 0 && h != fc.inner && h != outer);
            }
            let k = usize::from(fc.extras).min(m);
            // Unrank `r` among the k-subsets in lexicographic order, the order `legal_moves` uses.
            let mut from = 0;
            for j in 0..k {
                let mut c = from;
                loop {
                    let after = choose(m.saturating_sub(c + 1), k - j - 1);
                    // `r` is below the count by construction; the bound only keeps a bug from indexing off.
                    if r < after || c + 1 >= m {
                        break;
                    }
                    r -= after;
                    c += 1;
                }
                mv.extras[j] = candidates[c];
                from = c + 1;
            }
            mv.extra_count = k as u8;
        }
        Some(mv)
    }
}
