//! Mancala sowing games on four rows: Tchouba (Mozambique), Shimunana (its 4x4 form) and relatives.
//!
//! Conventions (also in `docs/sowing.md`):
//! - Side 0 is South and moves first from the start position; side 1 is North.
//! - Rows are numbered 0..=3 from South's edge: South owns rows 0 (outer) and 1 (inner), North owns rows 2
//!   (inner) and 3 (outer). Columns are numbered 0..n-1 from South's left.
//! - Each side numbers its own holes 1..=2n along its anti-clockwise sowing track, starting with the hole of its
//!   inner row at that player's right: 1..=n run along the inner row (right to left as the player sees it),
//!   n+1..=2n back along the outer row. Sowing goes from hole k to k+1, and from 2n to 1. The action of the
//!   game (captures, single-seed moves) is in the inner rows, so it is written in numbers up to n; the
//!   Tchouba article's puzzle solutions read this way (`docs/sowing.md`).
//!
//! Internally a side's holes are stored in track order, `board[side][number - 1]`, so a sowing is a walk along
//! one contiguous array with a wrap, and both sides share the same code. With this layout, the opponent's inner
//! hole facing the mover's inner hole `i` (0-based) is `n - 1 - i`, and the outer hole in the file of an inner
//! hole `j` is `2n - 1 - j`, for either side.

mod notation;
mod playout;
mod rules;
mod setup;

pub use rules::{
    MAX_EXTRA_HOLES, MAX_HOLES_PER_ROW, MAX_TRACK, SowingCapture, SowingEnd, SowingRules,
};
pub use setup::SetupError;

use crate::game::{Game, MAX_MOVES, MoveError, Outcome, Side, TooManyMoves};

/// South, the side that moves first from the start.
pub const SOUTH: Side = 0;
/// North.
pub const NORTH: Side = 1;

/// A position: the seeds in every hole, the seeds each side has captured, the side to move, the plies played,
/// and whether a sowing hit the lap cap (which ends the game drawn).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct SowingPosition {
    /// `board[side][number - 1]`, in track order; entries past the track length stay 0.
    board: [[u16; MAX_TRACK]; 2],
    captured: [u16; 2],
    side: Side,
    ply: u32,
    lap_capped: bool,
}

impl SowingPosition {
    /// The side to move.
    pub fn side_to_move(&self) -> Side {
        self.side
    }
    /// Seeds `side` has captured (they have left the board).
    pub fn captured(&self, side: Side) -> u16 {
        self.captured[usize::from(side & 1)]
    }
    /// Plies played since the start (or as set up).
    pub fn ply(&self) -> u32 {
        self.ply
    }
    /// Whether the last sowing was stopped by the lap cap (the game is then drawn).
    pub fn lap_capped(&self) -> bool {
        self.lap_capped
    }
    /// Seeds in hole `number` (1-based, in `side`'s own numbering); 0 for numbers off the board.
    pub fn seeds(&self, side: Side, number: u16) -> u16 {
        let i = usize::from(number).wrapping_sub(1);
        self.board[usize::from(side & 1)]
            .get(i)
            .copied()
            .unwrap_or(0)
    }
    /// Seeds on `side`'s holes.
    pub fn seeds_on_side(&self, side: Side) -> u32 {
        self.board[usize::from(side & 1)]
            .iter()
            .map(|&s| u32::from(s))
            .sum()
    }
    /// Seeds on the board plus those captured: constant through a game.
    pub fn total_seeds(&self) -> u32 {
        self.seeds_on_side(SOUTH)
            + self.seeds_on_side(NORTH)
            + u32::from(self.captured[0])
            + u32::from(self.captured[1])
    }
}

/// A turn: the hole it starts from and, when it captures, the extra opponent holes the mover chose.
///
/// Moves from the same hole differ only in the chosen holes; the file capture itself follows from the position.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct SowingMove {
    /// 0-based index on the mover's track (hole number - 1).
    hole: u8,
    /// 0-based indices on the opponent's track, ascending; only the first `extra_count` are meaningful.
    extras: [u8; MAX_EXTRA_HOLES as usize],
    extra_count: u8,
}

impl SowingMove {
    /// The starting hole, in the mover's numbering (1-based).
    pub fn hole(&self) -> u16 {
        u16::from(self.hole) + 1
    }
    /// The chosen extra holes, in the opponent's numbering (1-based), ascending.
    pub fn extra_holes(&self) -> impl Iterator<Item = u16> + '_ {
        self.extras[..usize::from(self.extra_count).min(self.extras.len())]
            .iter()
            .map(|&h| u16::from(h) + 1)
    }
}

/// Where a hole is, for drawing the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct HoleInfo {
    /// 0..=3 from South's edge.
    pub row: u8,
    /// 0..n-1 from South's left.
    pub column: u16,
    pub owner: Side,
    pub inner: bool,
    /// The hole's number in its owner's numbering (1..=2n), as written in move notation.
    pub number: u16,
}

/// What a sowing did to the mover's track, found without touching the position.
#[derive(Clone, Copy, Debug)]
struct SowingEnding {
    /// 0-based index of the hole where the last seed fell.
    last: usize,
    /// The last seed fell into an empty hole (so the turn ended normally and may capture).
    into_empty: bool,
    /// The lap cap stopped the sowing.
    capped: bool,
}

/// What a capture takes from the opponent's file; the extra holes are chosen by the move.
#[derive(Clone, Copy, Debug)]
struct FileCapture {
    /// Opponent's inner hole (0-based).
    inner: usize,
    /// Opponent's outer hole in the same file, when it is taken and not empty.
    outer: Option<usize>,
    /// Extra holes allowed with this capture.
    extras: u8,
}

/// A compiled sowing game.
#[derive(Clone, Debug)]
pub struct SowingGame {
    rules: SowingRules,
    /// Holes per row.
    n: usize,
    /// Holes per track (2n).
    len: usize,
}

impl SowingGame {
    /// Compiles `rules`, or says what is wrong with them.
    pub fn new(rules: SowingRules) -> Result<SowingGame, String> {
        rules.validate()?;
        let n = usize::from(rules.holes_per_row);
        Ok(SowingGame {
            rules,
            n,
            len: 2 * n,
        })
    }

    pub fn rules(&self) -> &SowingRules {
        &self.rules
    }

    /// Holes per row.
    pub fn holes_per_row(&self) -> u16 {
        self.rules.holes_per_row
    }

    /// Holes on one side (2n): hole numbers run 1..=this.
    pub fn holes_per_side(&self) -> u16 {
        self.len as u16
    }

    /// Where hole `number` (1-based) of `side` lies, or `None` if there is no such hole.
    pub fn hole(&self, side: Side, number: u16) -> Option<HoleInfo> {
        if side > 1 || number == 0 || usize::from(number) > self.len {
            return None;
        }
        let n = self.n as u16;
        let i = number - 1;
        let inner = i < n;
        // See the module comment: South runs right to left on row 1 and back on row 0; North is the same turned
        // half a circle, so its inner row runs left to right in South's view.
        let (row, column) = match (side, inner) {
            (SOUTH, true) => (1, n - 1 - i),
            (SOUTH, false) => (0, i - n),
            (_, true) => (2, i),
            (_, false) => (3, 2 * n - 1 - i),
        };
        Some(HoleInfo {
            row,
            column,
            owner: side,
            inner,
            number,
        })
    }

    /// The hole at `row` (0..=3 from South's edge) and `column` (0..n-1 from South's left).
    pub fn hole_at(&self, row: u8, column: u16) -> Option<HoleInfo> {
        let n = self.n as u16;
        if column >= n {
            return None;
        }
        let (side, i) = match row {
            0 => (SOUTH, n + column),
            1 => (SOUTH, n - 1 - column),
            2 => (NORTH, column),
            3 => (NORTH, 2 * n - 1 - column),
            _ => return None,
        };
        self.hole(side, i + 1)
    }

    /// Every hole, South's then North's, each in track order.
    pub fn holes(&self) -> impl Iterator<Item = HoleInfo> + '_ {
        (0..2u8).flat_map(move |side| (1..=self.len as u16).filter_map(move |k| self.hole(side, k)))
    }

    /// An empty board with `side` to move: the base of the start position and of set-up positions.
    fn empty_position(&self, side: Side) -> SowingPosition {
        SowingPosition {
            board: [[0; MAX_TRACK]; 2],
            captured: [0; 2],
            side,
            ply: 0,
            lap_capped: false,
        }
    }

    #[inline]
    fn has_gula(&self, track: &[u16]) -> bool {
        let min = self.rules.min_seeds_to_start;
        track.iter().any(|&s| s >= min)
    }

    /// The holes of `track` (a side's whole array, zero past the track's end) that satisfy `test`, as a bit set:
    /// bit `i` for hole `i + 1`. Built without a branch per hole, since seed counts are random in play; blocks
    /// of 16 holes of fixed length let the compiler test a block at once, and only the blocks the track covers
    /// are read (one on 4x4, five on 4x40). Bits past the track are cleared.
    #[inline]
    fn hole_set(&self, track: &[u16; MAX_TRACK], test: impl Fn(u16) -> bool) -> u128 {
        let blocks = self.len.div_ceil(16);
        let mut set = 0u128;
        for (b, block) in track.chunks_exact(16).take(blocks).enumerate() {
            let mut bits = 0u16;
            for (i, &s) in block.iter().enumerate() {
                bits |= u16::from(test(s)) << i;
            }
            set |= u128::from(bits) << (16 * b);
        }
        set & self.track_bits()
    }

    /// The bits of the holes on a track.
    #[inline]
    fn track_bits(&self) -> u128 {
        // `len` is at most 80, so the shift is in range.
        (1u128 << self.len) - 1
    }

    /// The holes of `track` that may start a turn, as a bit set (see `hole_set`).
    #[inline]
    fn start_mask(&self, track: &[u16; MAX_TRACK]) -> u128 {
        let min = self.rules.min_seeds_to_start;
        let gula = self.hole_set(track, |s| s >= min);
        if gula != 0 || !self.rules.singleton_rule {
            return gula;
        }
        // The tchonga: a lone seed, only when nothing bigger can move, and only onto an empty hole. Such
        // positions fill long endgames, so they get the same block treatment: hole `i` qualifies when it holds
        // one seed and hole `i + 1` (round the track) is empty, i.e. the empty set turned back by one hole.
        let ones = self.hole_set(track, |s| s == 1);
        let empty = self.hole_set(track, |s| s == 0);
        let next_empty = (empty >> 1) | ((empty & 1) << (self.len - 1));
        ones & next_empty
    }

    /// Whether the side to move may start a turn from `hole` (1-based, its own numbering) in `pos`.
    pub fn may_start(&self, pos: &SowingPosition, hole: u16) -> bool {
        let i = usize::from(hole).wrapping_sub(1);
        self.ended(pos).is_none()
            && i < self.len
            && self.start_mask(&pos.board[usize::from(pos.side & 1)]) & (1u128 << i) != 0
    }

    /// Whether `side` has a legal start anywhere (ignoring the end of the game).
    fn can_move(&self, pos: &SowingPosition, side: Side) -> bool {
        self.start_mask(&pos.board[usize::from(side & 1)]) != 0
    }

    /// Sows from `start` on `track` (the mover's holes, in track order), relaying as the rules say.
    ///
    /// A lap of `s` seeds fills whole rounds at once (`s / len` seeds into every hole, the starting hole
    /// included: the rules do not skip it) and then drops the rest one by one, so huge relays stay cheap.
    #[inline]
    fn sow(&self, track: &mut [u16], start: usize) -> SowingEnding {
        let len = track.len();
        let mut pos = start;
        let mut hand = track[start];
        track[start] = 0;
        let mut laps = 1u32;
        loop {
            // Laps shorter than a round are the common case: test before paying for a division.
            if usize::from(hand) >= len {
                let rounds = hand / len as u16;
                for h in track.iter_mut() {
                    *h += rounds;
                }
                hand -= rounds * len as u16;
                // With no remainder the last seed of the last round fell back into `pos` itself.
            }
            // The rest (fewer than a round, usually two or three seeds) goes one each into the next holes.
            for _ in 0..hand {
                pos += 1;
                if pos == len {
                    pos = 0;
                }
                track[pos] += 1;
            }
            let into_empty = track[pos] == 1;
            if into_empty || !self.rules.relay {
                return SowingEnding {
                    last: pos,
                    into_empty,
                    capped: false,
                };
            }
            if laps >= self.rules.lap_cap {
                // Stop with every seed on the board, so seeds stay conserved, and let the outcome say draw.
                return SowingEnding {
                    last: pos,
                    into_empty: false,
                    capped: true,
                };
            }
            laps += 1;
            hand = track[pos];
            track[pos] = 0;
        }
    }

    /// The file capture a sowing ending at `ending` makes against `opp` (the opponent's track), if any.
    #[inline]
    fn file_capture(&self, ending: &SowingEnding, opp: &[u16]) -> Option<FileCapture> {
        let cap = self.rules.capture?;
        if ending.capped || !ending.into_empty || ending.last >= self.n {
            return None;
        }
        let inner = self.n - 1 - ending.last;
        if opp[inner] == 0 {
            return None;
        }
        let outer_index = 2 * self.n - 1 - inner;
        let outer = (cap.take_outer && opp[outer_index] > 0).then_some(outer_index);
        let extras = if cap.extra_always || outer.is_some() {
            cap.extra_holes
        } else {
            0
        };
        Some(FileCapture {
            inner,
            outer,
            extras,
        })
    }

    /// What `mv` captures: the opponent's holes it empties, in the opponent's numbering (the file's inner hole,
    /// its outer hole when taken, then the chosen extra holes), and the seeds they held.
    pub fn captures(&self, pos: &SowingPosition, mv: &SowingMove) -> (Vec<u16>, u32) {
        let Some((fc, _)) = self.file_holes_taken(pos, usize::from(mv.hole) % self.len) else {
            return (Vec::new(), 0);
        };
        let mut holes = vec![fc.inner as u16 + 1];
        holes.extend(fc.outer.map(|o| o as u16 + 1));
        holes.extend(mv.extra_holes());
        let me = usize::from(pos.side & 1);
        let mut after = pos.clone();
        self.play_move(&mut after, mv);
        let seeds = u32::from(after.captured[me]) - u32::from(pos.captured[me]);
        (holes, seeds)
    }

    /// How many holes of the file the move from `hole` would capture (0 when it does not capture), for notation.
    fn file_holes_taken(&self, pos: &SowingPosition, hole: usize) -> Option<(FileCapture, usize)> {
        let me = usize::from(pos.side);
        let (_, ending) = self.sown(pos, hole);
        let fc = self.file_capture(&ending, &pos.board[1 - me][..self.len])?;
        let count = 1 + usize::from(fc.outer.is_some());
        Some((fc, count))
    }

    /// Pushes every choice of extra holes for a capture from `hole`: all `k`-subsets, ascending, of the
    /// opponent's non-empty holes left after the file is taken, with `k` the allowed count or all that remain.
    /// `occupied` lists the opponent's non-empty holes in track order (sowing never touches them, so one list
    /// serves every capture of a turn).
    /// `end` is the length `out` may reach (see `MAX_MOVES`).
    fn push_capture_moves(
        &self,
        hole: u8,
        occupied: &[u8],
        fc: &FileCapture,
        out: &mut Vec<SowingMove>,
        end: usize,
    ) -> Result<(), TooManyMoves> {
        let mut candidates = [0u8; MAX_TRACK];
        let mut m = 0;
        let outer = fc.outer.unwrap_or(usize::MAX);
        for &i in occupied {
            // Write always, keep conditionally: no branch on the (random) file position.
            let i_us = usize::from(i);
            candidates[m] = i;
            m += usize::from(i_us != fc.inner && i_us != outer);
        }
        let k = usize::from(fc.extras).min(m);
        if out.len() as u64 + playout::choose(m, k) > end as u64 {
            return Err(TooManyMoves);
        }
        let mut mv = SowingMove {
            hole,
            extras: [0; MAX_EXTRA_HOLES as usize],
            extra_count: k as u8,
        };
        if k == 0 {
            out.push(mv);
            return Ok(());
        }
        if k == 1 {
            // The small boards' rule, and the common case: one move per candidate.
            out.reserve(m);
            for &h in &candidates[..m] {
                mv.extras[0] = h;
                out.push(mv);
            }
            return Ok(());
        }
        // Odometer over index tuples c[0] < c[1] < ... < c[k-1] into `candidates`.
        let mut c = [0usize; MAX_EXTRA_HOLES as usize];
        for (j, slot) in c.iter_mut().enumerate().take(k) {
            *slot = j;
        }
        loop {
            for j in 0..k {
                mv.extras[j] = candidates[c[j]];
            }
            out.push(mv);
            // Advance the rightmost index that still has room, then reset the ones after it.
            let mut j = k;
            loop {
                if j == 0 {
                    return Ok(());
                }
                j -= 1;
                if c[j] < m - k + j {
                    break;
                }
            }
            c[j] += 1;
            for t in j + 1..k {
                c[t] = c[t - 1] + 1;
            }
        }
    }

    /// The end check behind `outcome`, also used by `legal_moves` so that both always agree.
    fn ended(&self, pos: &SowingPosition) -> Option<Outcome> {
        if pos.lap_capped {
            return Some(Outcome::Draw);
        }
        let side = pos.side;
        if !self.can_move(pos, side) {
            let winner = 1 - side;
            return Some(match self.rules.end {
                SowingEnd::NoMoveLoses => Outcome::Win(winner),
                SowingEnd::OpponentEmptyWins if pos.seeds_on_side(side) == 0 => {
                    Outcome::Win(winner)
                }
                SowingEnd::OpponentEmptyWins => Outcome::Draw,
            });
        }
        if pos.ply >= self.rules.move_cap {
            return Some(Outcome::Draw);
        }
        None
    }

    /// The mover's track after sowing from `hole` in `pos`, and how the sowing ended, the position untouched.
    fn sown(&self, pos: &SowingPosition, hole: usize) -> ([u16; MAX_TRACK], SowingEnding) {
        let mut track = pos.board[usize::from(pos.side & 1)];
        let ending = self.sow(&mut track[..self.len], hole);
        (track, ending)
    }

    /// Plays `mv`, trusting it to be legal (as `Game::play` does); a stray move cannot panic, it only produces
    /// a position the rules would not reach.
    fn play_move(&self, pos: &mut SowingPosition, mv: &SowingMove) {
        let me = usize::from(pos.side & 1);
        let hole = usize::from(mv.hole) % self.len;
        let ending = self.sow(&mut pos.board[me][..self.len], hole);
        self.settle(pos, mv, &ending);
    }

    /// Plays `mv`, whose sowing `sown` (see [`SowingGame::sown`]) already made: what a replay that read the move
    /// by sowing it does, rather than sowing again.
    fn play_sown(
        &self,
        pos: &mut SowingPosition,
        mv: &SowingMove,
        sown: ([u16; MAX_TRACK], SowingEnding),
    ) {
        let (track, ending) = sown;
        pos.board[usize::from(pos.side & 1)] = track;
        self.settle(pos, mv, &ending);
    }

    /// The rest of a turn once the mover's track is sown, the sowing having ended at `ending`: the capture it
    /// makes, and the turn passed.
    fn settle(&self, pos: &mut SowingPosition, mv: &SowingMove, ending: &SowingEnding) {
        let me = usize::from(pos.side & 1);
        let theirs = &mut pos.board[1 - me];
        if ending.capped {
            pos.lap_capped = true;
        } else if let Some(fc) = self.file_capture(ending, &theirs[..self.len]) {
            let mut taken = u32::from(theirs[fc.inner]);
            theirs[fc.inner] = 0;
            if let Some(o) = fc.outer {
                taken += u32::from(theirs[o]);
                theirs[o] = 0;
            }
            for &e in &mv.extras[..usize::from(mv.extra_count).min(MAX_EXTRA_HOLES as usize)] {
                if let Some(h) = theirs.get_mut(usize::from(e)) {
                    taken += u32::from(*h);
                    *h = 0;
                }
            }
            // The whole stock fits in a u16 (checked by `validate`), so the sum does too.
            pos.captured[me] = pos.captured[me].saturating_add(taken as u16);
        }
        pos.side = 1 - pos.side;
        pos.ply = pos.ply.saturating_add(1);
    }
}

impl Game for SowingGame {
    type Position = SowingPosition;
    type Move = SowingMove;
    /// The whole previous position: a relay sowing rewrites a side's track in ways that are cheaper to copy
    /// (at most 320 bytes of counts) than to replay backwards.
    type Undo = SowingPosition;

    fn start(&self) -> SowingPosition {
        let mut pos = self.empty_position(SOUTH);
        for side in 0..2 {
            for h in &mut pos.board[side][..self.len] {
                *h = self.rules.seeds_per_hole;
            }
        }
        pos
    }

    fn side_to_move(&self, pos: &SowingPosition) -> Side {
        pos.side
    }

    fn legal_moves(
        &self,
        pos: &SowingPosition,
        out: &mut Vec<SowingMove>,
    ) -> Result<(), TooManyMoves> {
        // The same conditions as `ended`, with the start set computed once for both uses.
        if pos.lap_capped || pos.ply >= self.rules.move_cap {
            return Ok(());
        }
        // `SowingRules::validate` refuses rules that could offer more than `MAX_MOVES`; the bound is kept here
        // too, so that no rules built another way can fill memory.
        let start = out.len();
        let end = start + MAX_MOVES;
        let me = usize::from(pos.side & 1);
        let opp = &pos.board[1 - me][..self.len];
        // The opponent's occupied holes, listed on the first capture only: most turns capture nothing.
        let mut occupied = [0u8; MAX_TRACK];
        let mut occupied_len = usize::MAX;
        let mut starts = self.start_mask(&pos.board[me]);
        while starts != 0 {
            let i = starts.trailing_zeros() as usize;
            starts &= starts - 1;
            // A whole-array copy is one fixed-size block move, cheaper than zeroing plus a sized copy.
            let mut scratch = pos.board[me];
            let ending = self.sow(&mut scratch[..self.len], i);
            match self.file_capture(&ending, opp) {
                None => {
                    if out.len() >= end {
                        out.truncate(start);
                        return Err(TooManyMoves);
                    }
                    out.push(SowingMove {
                        hole: i as u8,
                        extras: [0; MAX_EXTRA_HOLES as usize],
                        extra_count: 0,
                    })
                }
                Some(fc) => {
                    if occupied_len == usize::MAX {
                        occupied_len = 0;
                        for (j, &seeds) in opp.iter().enumerate() {
                            if seeds > 0 {
                                occupied[occupied_len] = j as u8;
                                occupied_len += 1;
                            }
                        }
                    }
                    if let Err(e) =
                        self.push_capture_moves(i as u8, &occupied[..occupied_len], &fc, out, end)
                    {
                        out.truncate(start);
                        return Err(e);
                    }
                }
            }
        }
        Ok(())
    }

    fn play(&self, pos: &mut SowingPosition, mv: &SowingMove) -> SowingPosition {
        let before = pos.clone();
        self.play_move(pos, mv);
        before
    }

    fn advance(&self, pos: &mut SowingPosition, mv: &SowingMove) {
        self.play_move(pos, mv);
    }

    fn undo(&self, pos: &mut SowingPosition, _mv: &SowingMove, undo: SowingPosition) {
        *pos = undo;
    }

    fn outcome(&self, pos: &SowingPosition) -> Option<Outcome> {
        self.ended(pos)
    }

    fn format_move(&self, pos: &SowingPosition, mv: &SowingMove) -> String {
        notation::format_move(self, pos, mv)
    }

    fn parse_move(&self, pos: &SowingPosition, text: &str) -> Result<SowingMove, MoveError> {
        notation::parse_move(self, pos, text).map(|(mv, _)| mv)
    }

    fn parse_and_advance(
        &self,
        pos: &mut SowingPosition,
        text: &str,
    ) -> Result<SowingMove, MoveError> {
        // Reading a move sows it once, to see what it captures: that sowing is the move's.
        let (mv, sown) = notation::parse_move(self, pos, text)?;
        self.play_sown(pos, &mv, sown);
        Ok(mv)
    }

    /// Seeds on the mover's side minus seeds on the opponent's: a side's seeds are its material and its
    /// mobility, and the player left without them loses.
    fn evaluate(&self, pos: &SowingPosition) -> i32 {
        let me = pos.side;
        pos.seeds_on_side(me) as i32 - pos.seeds_on_side(1 - me) as i32
    }

    fn parse_position(&self, text: &str) -> Result<SowingPosition, String> {
        self.position_from_setup(text).map_err(|e| e.message)
    }

    fn format_position(&self, pos: &SowingPosition) -> String {
        self.setup_to_string(pos)
    }
}

#[cfg(test)]
mod tests;
