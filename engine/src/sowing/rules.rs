//! The knobs of a sowing game, the presets for the games the sources describe, and their validation.

use crate::game::MAX_MOVES;

/// The largest board we support: 4 rows of 40 holes, the 4x40 Tchouba of the seed. Positions are fixed-size
/// arrays of this many holes per side, so nothing in the hot paths allocates.
pub const MAX_HOLES_PER_ROW: u16 = 40;
/// Holes on one side's track at most (two rows).
pub const MAX_TRACK: usize = 2 * MAX_HOLES_PER_ROW as usize;
/// The most extra holes a capture may take. The sources need 1 or 2; every extra hole multiplies the number of
/// distinct capturing moves (a choice of k holes among up to 78), so the bound keeps move lists sane.
pub const MAX_EXTRA_HOLES: u8 = 3;

/// The rules of one sowing game on a four-row board.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SowingRules {
    /// Rows of holes. Only 4 is supported (two per side); 2-row boards are not implemented yet.
    pub rows: u8,
    /// Holes in each row: even, 4..=40.
    pub holes_per_row: u16,
    /// Seeds in every hole at the start.
    pub seeds_per_hole: u16,
    /// Seeds a hole needs to start a turn (a *gula* holds at least this many).
    pub min_seeds_to_start: u16,
    /// Tchouba's *tchonga* rule: a hole holding exactly one seed may start a turn only when no hole of the mover
    /// holds `min_seeds_to_start` or more, and only if the next hole on the track is empty. Without the rule,
    /// holes below `min_seeds_to_start` never start a turn.
    pub singleton_rule: bool,
    /// Relay sowing: when the last seed lands in an occupied hole, that hole's contents are lifted and sown on.
    pub relay: bool,
    /// The capture rule, or `None` for a game without captures.
    pub capture: Option<SowingCapture>,
    /// Plies after which the game is drawn (relay sowing can make games endless).
    pub move_cap: u32,
    /// Laps one sowing may take (the first lap counts); a sowing that would start one more lap stops there and
    /// the game ends drawn. A lap is one lift-and-sow: the opening sowing, then each relay.
    pub lap_cap: u32,
    /// How the game ends besides the caps.
    pub end: SowingEnd,
}

/// What a capture takes. It is triggered when the last seed of a turn lands in an empty hole of the mover's
/// inner row while the opponent's inner hole in the same file is occupied; that hole is always taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SowingCapture {
    /// Also take the opponent's outer hole in the same file.
    pub take_outer: bool,
    /// How many other opponent holes the mover takes, choosing which (0..=3). Only non-empty holes may be
    /// chosen; when fewer remain, all of them are taken.
    pub extra_holes: u8,
    /// `true`: the extra holes come with every capture, even when the outer hole of the file was empty (the
    /// capture then took one hole of the file). `false`: the extra holes come only when the capture took both
    /// holes of the file (inner and outer), which needs `take_outer`.
    pub extra_always: bool,
}

/// How a game ends apart from the move and lap caps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SowingEnd {
    /// The player to move who has no legal move loses (whether or not seeds remain: singletons may be stuck).
    NoMoveLoses,
    /// The player whose side is empty at their turn loses; a player who still has seeds but no legal move ends
    /// the game as a draw, since nobody emptied the other's side.
    OpponentEmptyWins,
}

/// The caps the presets use. Random games average under three laps a sowing and under 400 plies a game even on
/// 4x40 (see docs/sowing.md), so 2,000 laps and 2,000 plies only stop what are in practice loops.
const DEFAULT_MOVE_CAP: u32 = 2_000;
const DEFAULT_LAP_CAP: u32 = 2_000;

impl SowingRules {
    /// Tchouba as the seed (004) describes it, on a board of `holes_per_row` (even, 4..=40): two seeds per hole,
    /// relay sowing, the tchonga rule, captures of the file plus two other holes on boards of more than 22
    /// holes per row and one other hole on 4x4 to 4x22, the player who cannot move loses.
    ///
    /// `extra_always` is `true`: the seed's text grants the other holes with every capture, and its puzzle
    /// solutions write captures such as `(x1+pit22&24)`, which we read as one hole of the file plus two others.
    pub fn tchouba(holes_per_row: u16) -> SowingRules {
        SowingRules {
            rows: 4,
            holes_per_row,
            seeds_per_hole: 2,
            min_seeds_to_start: 2,
            singleton_rule: true,
            relay: true,
            capture: Some(SowingCapture {
                take_outer: true,
                extra_holes: if holes_per_row > 22 { 2 } else { 1 },
                extra_always: true,
            }),
            move_cap: DEFAULT_MOVE_CAP,
            lap_cap: DEFAULT_LAP_CAP,
            end: SowingEnd::NoMoveLoses,
        }
    }

    /// Shimunana: Tchouba on the 4x4 board (seed 004, "Variants").
    pub fn shimunana() -> SowingRules {
        SowingRules::tchouba(4)
    }

    /// The published reconstruction (rules-sources.md, Tchouba): the extra capture always granted, no tchonga
    /// rule, and the game ends when the opponent's side is empty. We read "no singleton rule" as "singletons
    /// are not special": any occupied hole may start a turn (`min_seeds_to_start` 1). That is the reading under
    /// which "the opponent's side is empty" is the only way to run out of moves, as the reconstruction's end
    /// rule assumes; its relay loops on 4x4 also need singletons that move.
    pub fn tchouba_reconstruction(holes_per_row: u16) -> SowingRules {
        SowingRules {
            min_seeds_to_start: 1,
            singleton_rule: false,
            end: SowingEnd::OpponentEmptyWins,
            ..SowingRules::tchouba(holes_per_row)
        }
    }

    /// Holes on one side's track.
    pub fn track_len(&self) -> usize {
        2 * self.holes_per_row as usize
    }

    /// Seeds on the board at the start.
    pub fn total_seeds(&self) -> u32 {
        u32::from(self.rows) * u32::from(self.holes_per_row) * u32::from(self.seeds_per_hole)
    }

    /// Checks the rules, saying what to change when they cannot be played.
    pub fn validate(&self) -> Result<(), String> {
        if self.rows != 4 {
            return Err(format!(
                "`rows {}`: only 4-row boards (two rows per side) are supported",
                self.rows
            ));
        }
        let n = self.holes_per_row;
        if !(4..=MAX_HOLES_PER_ROW).contains(&n) || n & 1 == 1 {
            return Err(format!(
                "`holes {n}`: the holes per row must be even, from 4 to {MAX_HOLES_PER_ROW}"
            ));
        }
        if self.seeds_per_hole == 0 {
            return Err("`seeds 0`: a game needs seeds".to_string());
        }
        // Every count lives in a u16 hole; the whole stock must fit so that one hole can hold it all.
        if self.total_seeds() > u32::from(u16::MAX) {
            return Err(format!(
                "{} seeds in all is too many: at most {} fit",
                self.total_seeds(),
                u16::MAX
            ));
        }
        if self.min_seeds_to_start == 0 {
            return Err("`start 0`: use 1 to let any non-empty hole start".to_string());
        }
        if self.move_cap == 0 {
            return Err("`move-cap 0`: it must allow at least one ply".to_string());
        }
        if self.lap_cap == 0 {
            return Err("`lap-cap 0`: a sowing has at least one lap".to_string());
        }
        if let Some(c) = self.capture
            && c.extra_holes > MAX_EXTRA_HOLES
        {
            return Err(format!(
                "`extra {}`: at most {MAX_EXTRA_HOLES} extra holes are supported",
                c.extra_holes
            ));
        }
        let most = self.most_moves();
        if most > MAX_MOVES as u64 {
            return Err(format!(
                "a capture with {} extra holes on a board of {n} holes per row could offer up to {most} \
                 moves in one position, more than the engine lists ({MAX_MOVES}): take fewer extra holes \
                 or play on a smaller board",
                self.capture.map_or(0, |c| c.extra_holes)
            ));
        }
        Ok(())
    }

    /// A bound on the legal moves of any position: every hole of the track may start a turn that captures,
    /// each offering every choice of extra holes among the opponent's other holes.
    pub fn most_moves(&self) -> u64 {
        let len = self.track_len();
        let extras = self.capture.map_or(0, |c| usize::from(c.extra_holes));
        len as u64 * super::playout::choose(len.saturating_sub(1), extras)
    }
}
