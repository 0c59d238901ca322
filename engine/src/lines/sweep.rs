//! Random play that counts the moves of all pieces of a kind at once. A step from `p` to `p + d` is the same
//! shift for every piece that has it, so the pieces of a kind with an empty point at offset `d` are the kind's
//! set ANDed with the empty set rotated by `d` and with the points that have such a step; a jump is the same with
//! two offsets, over an enemy and onto an empty point. Grouping a kind's steps and jumps by their offsets
//! (a regular grid has one group per direction, irregular points like a triangle's add a few small groups)
//! counts every move with a handful of word operations, whatever the position, where a walk over pieces or
//! empty points branches on each. The sets are 64-bit words, half the work of the 128 bits a position holds.
//!
//! The moves are still counted in the order `legal_moves` lists them, and only the drawn one is built, so
//! seeded games are the ones the list gives (see `playout`). Rules this does not cover (flying captures,
//! slides of more than two points, huffing, repetition, the longest-chain rule) keep the per-piece counter.

use super::playout::{Nth, quiet_moves};
use super::rules::{CapturePolicy, Chain, MAX_KINDS, NoMove};
use super::{Action, LinesGame, LinesMove, LinesPosition, MAX_CHAIN, NO_DIR, NO_POINT};
use super::{bit, mask, points};
use crate::game::{MAX_MOVES, TooManyMoves};
use crate::rng::Rng;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};

/// A set of points as a machine word: 64 bits where the board fits, else 128.
pub(super) trait Set:
    Copy
    + Eq
    + Default
    + std::fmt::Debug
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + Not<Output = Self>
{
    const ZERO: Self;
    /// The low bits of a 128-bit set.
    fn narrow(x: u128) -> Self;
    fn wide(self) -> u128;
    fn ones(self) -> usize;
    fn lowest(self) -> u8;
    fn without_lowest(self) -> Self;
    /// Bit `p` of the result is bit `p + r` (modulo the width) of `self`.
    /// The points below 64, where the groups count.
    fn low(self) -> u64;
    fn from_low(x: u64) -> Self;
    fn unit(p: u8) -> Self;
    /// Every bit when `b`, else none.
    fn all_if(b: bool) -> Self;
    /// Every bit when `b` is 1, none when 0. A two-point slide is open when both its points are empty, told
    /// by the count of its empty points shifted down a place: arithmetic the compiler keeps, where the
    /// test "path & empty == path" in the loop over a piece's slides was made into a branch (on a 128-bit
    /// set), mispredicted about as often as taken.
    fn splat(b: u64) -> Self;
}

impl Set for u64 {
    const ZERO: u64 = 0;
    #[inline(always)]
    fn narrow(x: u128) -> u64 {
        x as u64
    }
    #[inline(always)]
    fn wide(self) -> u128 {
        self as u128
    }
    #[inline(always)]
    fn ones(self) -> usize {
        self.count_ones() as usize
    }
    #[inline(always)]
    fn lowest(self) -> u8 {
        self.trailing_zeros() as u8
    }
    #[inline(always)]
    fn without_lowest(self) -> u64 {
        self & self.wrapping_sub(1)
    }
    #[inline(always)]
    fn low(self) -> u64 {
        self
    }
    #[inline(always)]
    fn from_low(x: u64) -> u64 {
        x
    }
    #[inline(always)]
    fn unit(p: u8) -> u64 {
        1 << (p & 63)
    }
    #[inline(always)]
    fn all_if(b: bool) -> u64 {
        (b as u64).wrapping_neg()
    }
    #[inline(always)]
    fn splat(b: u64) -> u64 {
        b.wrapping_neg()
    }
}

impl Set for u128 {
    const ZERO: u128 = 0;
    #[inline(always)]
    fn narrow(x: u128) -> u128 {
        x
    }
    #[inline(always)]
    fn wide(self) -> u128 {
        self
    }
    #[inline(always)]
    fn ones(self) -> usize {
        self.count_ones() as usize
    }
    #[inline(always)]
    fn lowest(self) -> u8 {
        self.trailing_zeros() as u8
    }
    #[inline(always)]
    fn without_lowest(self) -> u128 {
        self & self.wrapping_sub(1)
    }
    #[inline(always)]
    fn low(self) -> u64 {
        self as u64
    }
    #[inline(always)]
    fn from_low(x: u64) -> u128 {
        x as u128
    }
    #[inline(always)]
    fn unit(p: u8) -> u128 {
        bit(p)
    }
    #[inline(always)]
    fn all_if(b: bool) -> u128 {
        (b as u128).wrapping_neg()
    }
    #[inline(always)]
    fn splat(b: u64) -> u128 {
        (b as u128).wrapping_neg()
    }
}

/// The points of a set, lowest first.
#[inline(always)]
fn each<W: Set>(mut set: W) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if set == W::ZERO {
            None
        } else {
            let p = set.lowest();
            set = set.without_lowest();
            Some(p)
        }
    })
}

/// The `i`-th point of `set`, lowest first (`i` below its size).
#[inline(always)]
fn nth<W: Set>(mut set: W, i: usize) -> u8 {
    for _ in 0..i {
        set = set.without_lowest();
    }
    set.lowest()
}

/// A two-point slide in 128-bit sets: (target's bit, the bits of both points).
type Stop = (u128, u128);

/// Moves that need one point empty: the pieces on `from` reach the point `r` further on.
#[derive(Clone, Copy, Debug)]
struct Shift {
    r: u32,
    from: u64,
}

/// Moves through two points: the pieces on `from` need the point `a` further on to hold what the move
/// passes (an enemy for a jump, nothing for a two-point slide) and the point `b` further on empty.
#[derive(Clone, Copy, Debug)]
struct Shift2 {
    a: u32,
    b: u32,
    /// A jump's direction (for chains that may not turn), `NO_DIR` for a slide.
    dir: u8,
    from: u64,
}

/// A short jump with its points' bits.
#[derive(Clone, Copy, Debug)]
struct Jump<W> {
    over_bit: W,
    land_bit: W,
    /// The points the piece's jumps from the landing point pass over: a chain may go on only with an enemy
    /// there, told without looking up the landing point.
    next: W,
    /// The chain ends where this jump lands (`stops_at`).
    stops: bool,
    over: u8,
    land: u8,
    dir: u8,
}

/// What a piece may do from a point: one-point moves (steps, and the first point of slides), the points its
/// jumps pass over, where its jumps and two-point slides start and end in their pools.
#[derive(Clone, Copy, Debug, Default)]
struct At<W> {
    step: W,
    jump_over: W,
    jumps: (u32, u32),
    hops: (u32, u32),
    /// The moves of no group (see `SHARED_STEPS`): step targets, and two-point slides and jumps in their pools.
    odd_step: W,
    odd_stops: (u32, u32),
    odd_jumps: (u32, u32),
    /// The points the odd jumps pass over: no enemy there, no odd jump.
    odd_over: W,
}

/// The groups of one kind of one side, as ranges of the pools, and the points with moves of no group.
#[derive(Clone, Copy, Debug, Default)]
struct Groups<W> {
    steps: (u32, u32),
    hops: (u32, u32),
    jumps: (u32, u32),
    odd_quiet: W,
    odd_capture: W,
    /// With at most this many pieces of the kind on the board, their steps and slides are counted piece by
    /// piece and their targets kept for the draw (see `FEW`).
    few: usize,
    /// The kind's first jumps are counted piece by piece when its pieces times the enemy's are at most this: a
    /// piece costs a walk over its jumps only where an enemy stands next to it, and the groups leave the odd
    /// jumps to a walk over the pieces anyway.
    few_jumps: usize,
}

/// The fewest points a group of steps (or two-point slides) and a group of jumps with the same offsets must
/// have: a group costs a few word operations whether or not pieces stand on its points, a move counted piece
/// by piece only when one does. Measured: Kaooa's star played 6% faster with six than with four, the other
/// boards alike with anything from two to six.
const SHARED_STEPS: usize = 6;
const SHARED_JUMPS: usize = 4;

/// The most pieces whose targets the random player keeps in one position. Groups cost the same whatever the
/// number of pieces, a piece counted alone a few operations and a walk over its slides; and a piece counted
/// alone keeps its targets, so the drawn move needs no second walk over the pieces. Piece by piece pays for
/// up to about half as many pieces as the kind has groups, more where many points have odd moves (which
/// groups leave to a walk anyway): measured in instructions per playout on every benchmark board. Terhuchu's
/// large board, with odd moves at 56 of its 73 points, keeps up to 12.
const FEW: usize = 12;

/// The tables of the whole-set counter for one set width.
#[derive(Clone, Debug)]
pub(super) struct Sweep<W> {
    n: usize,
    full: W,
    groups: [[Groups<W>; 2]; MAX_KINDS],
    steps: Vec<Shift>,
    hops: Vec<Shift2>,
    jump_groups: Vec<Shift2>,
    /// By kind, side and point.
    at: Vec<At<W>>,
    jumps: Vec<Jump<W>>,
    /// Two-point slides: (target's bit, the bits of both points, which must be empty).
    stops: Vec<(W, W)>,
    /// Some kind has a two-point slide: without, the loops over them are skipped.
    slides: bool,
    /// The moves of no group: two-point slides as in `stops`, jumps as in `jumps`.
    odd_stops: Vec<(W, W)>,
    odd_jumps: Vec<Jump<W>>,
    promo: [[W; 2]; MAX_KINDS],
    /// By side: the kinds that can capture.
    capturing: [u8; 2],
    /// Thresholds of the end of the game that needs no move (`u32::MAX`: no such rule).
    goal: [u32; 2],
    no_progress: u32,
    move_cap: u32,
}

/// The whole-set counter, when the rules allow one, with the board's width. The groups always count on the
/// low 64 points: rotating a 128-bit set takes several instructions and a conditional move, and on Terhuchu's
/// 73 points counting every move by groups of 128 bits was 30% slower than piece by piece. Points above 64
/// (there, triangle points numbered after the grid) are the odd points of a wide board.
#[derive(Clone, Debug)]
pub(super) enum Sweeps {
    Narrow(Box<Sweep<u64>>),
    Wide(Box<Sweep<u128>>),
}

impl Sweeps {
    pub(super) fn new(game: &LinesGame) -> Option<Sweeps> {
        let r = &game.rules;
        if r.capture == CapturePolicy::Huffing || r.maximum || game.tracks || game.n > 128 {
            return None;
        }
        if game.n <= 64 {
            Sweep::new(game).map(|sw| Sweeps::Narrow(Box::new(sw)))
        } else {
            Sweep::new(game).map(|sw| Sweeps::Wide(Box::new(sw)))
        }
    }
}

impl<W: Set> Sweep<W> {
    fn new(game: &LinesGame) -> Option<Sweep<W>> {
        let n = game.n;
        // The offset from `p` to `q` as a rotation of the low 64 bits; none (`u32::MAX`) when either point
        // is above them, and the move is then always counted piece by piece.
        let rot = |p: usize, q: u8| {
            if p < 64 && q < 64 {
                (q as i32 - p as i32).rem_euclid(64) as u32
            } else {
                u32::MAX
            }
        };
        let mut sw = Sweep {
            n,
            full: W::narrow(mask(n)),
            groups: [[Groups::default(); 2]; MAX_KINDS],
            steps: Vec::new(),
            hops: Vec::new(),
            jump_groups: Vec::new(),
            at: Vec::new(),
            jumps: Vec::new(),
            stops: Vec::new(),
            slides: false,
            odd_stops: Vec::new(),
            odd_jumps: Vec::new(),
            promo: [[W::ZERO; 2]; MAX_KINDS],
            capturing: [game.capturing[0] as u8, game.capturing[1] as u8],
            goal: game
                .rules
                .capture_goal
                .map(|g| g.map_or(u32::MAX, u32::from)),
            no_progress: game.rules.no_progress.map_or(u32::MAX, u32::from),
            move_cap: game.rules.move_cap.unwrap_or(u32::MAX),
        };
        for (k, row) in game.promo.iter().enumerate() {
            sw.promo[k] = row.map(|(region, _)| W::narrow(region));
        }
        let dir_matters = game.rules.chain != Chain::Single && !game.rules.turns;
        for k in 0..MAX_KINDS {
            for s in 0..2 {
                let base = (k * 2 + s) * n;
                // Every move of the kind from every point, with its offsets: (point, first offset, second
                // offset or none, the move's bits).
                let mut steps: Vec<(usize, u32, u128)> = Vec::new();
                let mut hops: Vec<(usize, (u32, u32), Stop)> = Vec::new();
                let mut jumps: Vec<(usize, (u32, u32))> = Vec::new();
                let mut kept_by_point = Vec::new();
                for p in 0..n {
                    let m = &game.tables[base + p];
                    if !m.long.is_empty() || m.jumps.len() > 64 {
                        return None;
                    }
                    // The slides as `DrawTables` keeps them: a first point is a step, and a stop is kept only
                    // when no step or shorter stop reaches it. Only two-point stops with distinct targets have
                    // a fixed pair of offsets.
                    let (step, kept) = quiet_moves(game, k, s, p);
                    let mut targets = step;
                    for &(target, path) in &kept {
                        let mid = path & !target;
                        if mid.count_ones() != 1 || targets & target != 0 {
                            return None;
                        }
                        targets |= target;
                        let q = target.trailing_zeros() as u8;
                        let offsets = (rot(p, mid.trailing_zeros() as u8), rot(p, q));
                        hops.push((p, offsets, (target, path)));
                    }
                    steps.extend(points(step).map(|q| (p, rot(p, q), bit(q))));
                    for &(over, land, dir) in &m.jumps {
                        if over as usize == p || land as usize == p {
                            return None;
                        }
                        // The direction is part of the key only where a chain that may not turn needs it:
                        // elsewhere the jumps of one offset make one group whatever lines they follow.
                        let dir = if dir_matters { dir } else { NO_DIR };
                        jumps.push((p, (rot(p, over) | (dir as u32) << 8, rot(p, land))));
                    }
                    kept_by_point.push((step, kept));
                }
                // A group of moves with the same offsets pays when enough points share it; the moves of
                // smaller groups (the irregular points) are counted piece by piece.
                let shared =
                    |offsets: &dyn Fn(usize) -> (u32, u32), len: usize, i: usize, least: usize| {
                        let key = offsets(i);
                        key.0 != u32::MAX
                            && key.1 != u32::MAX
                            && (0..len).filter(|&j| offsets(j) == key).count() >= least
                    };
                let step_key = |j: usize| (steps[j].1, 0);
                let hop_key = |j: usize| hops[j].1;
                let jump_key = |j: usize| jumps[j].1;
                let mut odd_step = vec![0u128; n];
                let mut odd_hops: Vec<Vec<(u128, u128)>> = vec![Vec::new(); n];
                let mut odd_jumps: Vec<Vec<usize>> = vec![Vec::new(); n];
                let (mut step_groups, mut hop_groups, mut jump_groups) = (
                    Vec::<Shift>::new(),
                    Vec::<Shift2>::new(),
                    Vec::<Shift2>::new(),
                );
                for (i, &(p, r, q)) in steps.iter().enumerate() {
                    if !shared(&step_key, steps.len(), i, SHARED_STEPS) {
                        odd_step[p] |= q;
                    } else if let Some(g) = step_groups.iter_mut().find(|g| g.r == r) {
                        g.from |= 1 << p;
                    } else {
                        step_groups.push(Shift { r, from: 1 << p });
                    }
                }
                for (i, &(p, (a, b), stop)) in hops.iter().enumerate() {
                    if !shared(&hop_key, hops.len(), i, SHARED_STEPS) {
                        odd_hops[p].push(stop);
                    } else if let Some(g) = hop_groups.iter_mut().find(|g| (g.a, g.b) == (a, b)) {
                        g.from |= 1 << p;
                    } else {
                        hop_groups.push(Shift2 {
                            a,
                            b,
                            dir: NO_DIR,
                            from: 1 << p,
                        });
                    }
                }
                // The jumps in table order, point by point, each either in a group or odd.
                let mut j = 0;
                for (p, odd) in odd_jumps.iter_mut().enumerate() {
                    for local in 0..game.tables[base + p].jumps.len() {
                        let (key, b) = jumps[j].1;
                        let (a, dir) = (key & 0xff, (key >> 8) as u8);
                        let twice = jump_groups
                            .iter()
                            .any(|g| (g.a, g.b, g.dir) == (a, b, dir) && g.from & 1 << p != 0);
                        if twice || !shared(&jump_key, jumps.len(), j, SHARED_JUMPS) {
                            odd.push(local);
                        } else if let Some(g) = jump_groups
                            .iter_mut()
                            .find(|g| (g.a, g.b, g.dir) == (a, b, dir))
                        {
                            g.from |= 1 << p;
                        } else {
                            jump_groups.push(Shift2 {
                                a,
                                b,
                                dir,
                                from: 1 << p,
                            });
                        }
                        j += 1;
                    }
                }
                let (mut odd_quiet, mut odd_capture) = (W::ZERO, W::ZERO);
                for (p, (step, kept)) in kept_by_point.into_iter().enumerate() {
                    let m = &game.tables[base + p];
                    let first_jump = sw.jumps.len() as u32;
                    sw.jumps
                        .extend(m.jumps.iter().map(|&(over, land, dir)| Jump {
                            over_bit: W::unit(over),
                            land_bit: W::unit(land),
                            next: W::narrow(game.tables[base + land as usize].jump_over),
                            stops: game.stops_at(k as u8, s as u8, land),
                            over,
                            land,
                            dir,
                        }));
                    let first_stop = sw.stops.len() as u32;
                    sw.stops.extend(
                        kept.iter()
                            .map(|&(t, path)| (W::narrow(t), W::narrow(path))),
                    );
                    let first_odd_stop = sw.odd_stops.len() as u32;
                    sw.odd_stops.extend(
                        odd_hops[p]
                            .iter()
                            .map(|&(t, path)| (W::narrow(t), W::narrow(path))),
                    );
                    let first_odd_jump = sw.odd_jumps.len() as u32;
                    let mut odd_over = W::ZERO;
                    for &i in &odd_jumps[p] {
                        let j = sw.jumps[first_jump as usize + i];
                        odd_over |= j.over_bit;
                        sw.odd_jumps.push(j);
                    }
                    if odd_step[p] != 0 || !odd_hops[p].is_empty() {
                        odd_quiet |= W::unit(p as u8);
                    }
                    if !odd_jumps[p].is_empty() {
                        odd_capture |= W::unit(p as u8);
                    }
                    sw.at.push(At {
                        step: W::narrow(step),
                        jump_over: W::narrow(m.jump_over),
                        jumps: (first_jump, sw.jumps.len() as u32),
                        hops: (first_stop, sw.stops.len() as u32),
                        odd_step: W::narrow(odd_step[p]),
                        odd_stops: (first_odd_stop, sw.odd_stops.len() as u32),
                        odd_jumps: (first_odd_jump, sw.odd_jumps.len() as u32),
                        odd_over,
                    });
                }
                let range = |pool: usize, len: usize| (pool as u32, (pool + len) as u32);
                sw.groups[k][s] = Groups {
                    steps: range(sw.steps.len(), step_groups.len()),
                    hops: range(sw.hops.len(), hop_groups.len()),
                    jumps: range(sw.jump_groups.len(), jump_groups.len()),
                    odd_quiet,
                    odd_capture,
                    few: FEW
                        .min((step_groups.len() + hop_groups.len()) / 2 + odd_quiet.ones() * 8 / n),
                    // The same measure for jumps, by the share of points with odd jumps: none on a plain grid,
                    // where the groups' few operations beat a walk that branches on every piece next to an
                    // enemy; 50 on Terhuchu's large board.
                    few_jumps: odd_capture.ones() * 64 / n,
                };
                if jump_groups.len() > 64 {
                    return None;
                }
                sw.steps.extend(step_groups);
                sw.hops.extend(hop_groups);
                sw.jump_groups.extend(jump_groups);
            }
        }
        sw.slides = !sw.stops.is_empty();
        // Every point's slide stops padded to the most any point has, with stops that add nothing (no target,
        // an empty path): the walk over a piece's stops then always has the same length, which the processor
        // predicts, where a length that changes from piece to piece was mispredicted.
        let most = sw.at.iter().map(|a| a.hops.1 - a.hops.0).max().unwrap_or(0);
        let mut stops = Vec::with_capacity(sw.at.len() * most as usize);
        for a in &mut sw.at {
            let start = stops.len() as u32;
            stops.extend_from_slice(&sw.stops[a.hops.0 as usize..a.hops.1 as usize]);
            stops.resize((start + most) as usize, (W::ZERO, W::ZERO));
            a.hops = (start, start + most);
        }
        sw.stops = stops;
        Some(sw)
    }

    #[inline(always)]
    fn at(&self, k: u8, s: u8, p: u8) -> &At<W> {
        &self.at[(k as usize * 2 + s as usize) * self.n + p as usize]
    }

    /// The pieces of `mine` with a jump, over `enemy` onto `empty`, and how many jumps they have.
    /// (Where a chain may go on, `LinesGame::first_jumps` counts the chains.)
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn jumpers(&self, g: &Groups<W>, k: u8, s: u8, mine: W, enemy: W, empty: W) -> (W, usize) {
        let (mut set, mut count) = (W::ZERO, 0);
        for p in each(mine & g.odd_capture) {
            let a = self.at(k, s, p);
            if a.odd_over & enemy == W::ZERO {
                continue;
            }
            let c: usize = self.odd_jumps[a.odd_jumps.0 as usize..a.odd_jumps.1 as usize]
                .iter()
                .map(|j| {
                    ((enemy & j.over_bit != W::ZERO) & (empty & j.land_bit != W::ZERO)) as usize
                })
                .sum();
            set |= W::unit(p) & W::all_if(c > 0);
            count += c;
        }
        for j in &self.jump_groups[g.jumps.0 as usize..g.jumps.1 as usize] {
            let can =
                mine.low() & j.from & enemy.low().rotate_right(j.a) & empty.low().rotate_right(j.b);
            set |= W::from_low(can);
            count += can.count_ones() as usize;
        }
        (set, count)
    }

    /// `jumpers` piece by piece, for a kind with few pieces on the board.
    #[inline(always)]
    fn jumpers_few(&self, k: u8, s: u8, mine: W, enemy: W, empty: W) -> (W, usize) {
        let (mut set, mut count) = (W::ZERO, 0);
        for p in each(mine) {
            let a = self.at(k, s, p);
            if a.jump_over & enemy == W::ZERO {
                continue;
            }
            let c = self.single_jumps(k, s, p, enemy, empty);
            set |= W::unit(p) & W::all_if(c > 0);
            count += c;
        }
        (set, count)
    }

    /// The pieces of `mine` that can step or slide, and how many such moves they have.
    #[inline(always)]
    fn movers(&self, g: &Groups<W>, k: u8, s: u8, mine: W, empty: W) -> (W, usize) {
        let (mut set, mut count) = (W::ZERO, 0);
        for p in each(mine & g.odd_quiet) {
            let a = self.at(k, s, p);
            let mut t = a.odd_step & empty;
            if self.slides {
                for &(target, path) in
                    &self.odd_stops[a.odd_stops.0 as usize..a.odd_stops.1 as usize]
                {
                    t |= target & W::splat(((path & empty).ones() >> 1) as u64);
                }
            }
            set |= W::unit(p) & W::all_if(t != W::ZERO);
            count += t.ones();
        }
        let (mine, empty) = (mine.low(), empty.low());
        for st in &self.steps[g.steps.0 as usize..g.steps.1 as usize] {
            let can = mine & st.from & empty.rotate_right(st.r);
            set |= W::from_low(can);
            count += can.count_ones() as usize;
        }
        for h in &self.hops[g.hops.0 as usize..g.hops.1 as usize] {
            let can = mine & h.from & empty.rotate_right(h.a) & empty.rotate_right(h.b);
            set |= W::from_low(can);
            count += can.count_ones() as usize;
        }
        (set, count)
    }

    /// The points a piece on `p` may step or slide to.
    #[inline(always)]
    fn targets(&self, k: u8, s: u8, p: u8, empty: W) -> W {
        let a = self.at(k, s, p);
        let mut t = a.step & empty;
        if self.slides {
            for &(target, path) in &self.stops[a.hops.0 as usize..a.hops.1 as usize] {
                t |= target & W::splat(((path & empty).ones() >> 1) as u64);
            }
        }
        t
    }

    /// The short jumps of a piece on `p`: over an enemy, onto an empty point.
    #[inline(always)]
    fn single_jumps(&self, k: u8, s: u8, p: u8, enemy: W, empty: W) -> usize {
        let a = self.at(k, s, p);
        self.jumps[a.jumps.0 as usize..a.jumps.1 as usize]
            .iter()
            .map(|j| ((enemy & j.over_bit != W::ZERO) & (empty & j.land_bit != W::ZERO)) as usize)
            .sum()
    }
}

impl LinesMove {
    /// Makes this a move without a chain, as `LinesMove::new` would (with `promotes`), leaving the chain's
    /// points as they were: a move without a chain does not read them, and the random player reuses one
    /// move from ply to ply rather than filling them every time. A move that must equal a listed one starts
    /// from a fresh move.
    #[inline(always)]
    fn set(&mut self, action: Action, kind: u8, from: u8, to: u8, promotes: bool) {
        self.action = action;
        self.kind = kind;
        self.from = from;
        self.to = to;
        self.huff = NO_POINT;
        self.len = 0;
        self.promotes = promotes;
    }
}

/// A position as random play needs it: the board in sets of the counter's width, and the counters the end of
/// the game looks at. No history: the rules this plays look at no repetition.
#[derive(Clone, Copy, Debug)]
pub(super) struct Board<W> {
    side: [W; 2],
    kind: [W; MAX_KINDS],
    hand: [[u16; MAX_KINDS]; 2],
    /// Pieces in hand, by side.
    in_hand: [u16; 2],
    captured: [u16; 2],
    to_move: u8,
    ply: u32,
    passes: u8,
    quiet: u16,
}

impl<W: Set> Board<W> {
    fn new(pos: &LinesPosition) -> Board<W> {
        Board {
            side: pos.side.map(W::narrow),
            kind: pos.kind.map(W::narrow),
            hand: pos.hand,
            in_hand: pos.hand.map(|h| h.iter().sum()),
            captured: pos.captured,
            to_move: pos.to_move,
            ply: pos.ply,
            passes: pos.passes,
            quiet: pos.quiet,
        }
    }

    fn position(&self) -> LinesPosition {
        LinesPosition {
            side: self.side.map(W::wide),
            kind: self.kind.map(W::wide),
            hand: self.hand,
            captured: self.captured,
            to_move: self.to_move,
            ply: self.ply,
            huffable: 0,
            passes: self.passes,
            quiet: self.quiet,
            history: Vec::new(),
        }
    }

    #[inline(always)]
    fn remove(&mut self, p: u8) {
        let m = !W::unit(p);
        self.side[0] &= m;
        self.side[1] &= m;
        for k in &mut self.kind {
            *k &= m;
        }
    }
}

impl LinesGame {
    /// `n` random playouts from the start with the whole-set counter: the games `run_playouts` plays. Each
    /// width is compiled on its own, with the bit-count instruction where the processor has it.
    pub(super) fn sweep_playouts<W: Set>(
        &self,
        sw: &Sweep<W>,
        n: u64,
        seed: u64,
        max_plies: u32,
    ) -> crate::playout::PlayoutStats {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the processor has the instruction, as just checked.
            return unsafe { self.sweep_popcnt(sw, n, seed, max_plies) };
        }
        self.run_sweep::<W, false>(sw, n, seed, max_plies)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    unsafe fn sweep_popcnt<W: Set>(
        &self,
        sw: &Sweep<W>,
        n: u64,
        seed: u64,
        max_plies: u32,
    ) -> crate::playout::PlayoutStats {
        self.run_sweep::<W, true>(sw, n, seed, max_plies)
    }

    /// With `POPCNT` (only under `sweep_popcnt`) the chain counter, a function of its own, is compiled with
    /// the bit-count instruction too.
    #[inline(always)]
    fn run_sweep<W: Set, const POPCNT: bool>(
        &self,
        sw: &Sweep<W>,
        n: u64,
        seed: u64,
        max_plies: u32,
    ) -> crate::playout::PlayoutStats {
        use crate::game::Game;
        let start = Board::<W>::new(&self.start());
        let mut rng = Rng::new(seed);
        let mut stats = crate::playout::PlayoutStats::default();
        let mut mv = LinesMove::pass();
        for _ in 0..n {
            let mut b = start;
            let mut plies = 0;
            let outcome = loop {
                if plies >= max_plies {
                    break self.outcome(&b.position());
                }
                match self.sweep_draw::<W, true, POPCNT>(sw, &mut b, &mut rng, &mut mv) {
                    Err(_) => break None,
                    Ok(false) => break self.outcome(&b.position()),
                    Ok(true) => plies += 1,
                }
            };
            stats.count(plies as u64, outcome);
        }
        stats
    }

    /// `draw_move` for a position given as `LinesPosition`.
    #[inline(never)]
    pub(super) fn sweep_draw_at<W: Set>(
        &self,
        sw: &Sweep<W>,
        pos: &LinesPosition,
        rng: &mut Rng,
    ) -> Result<Option<LinesMove>, TooManyMoves> {
        let mut mv = LinesMove::pass();
        Ok(self
            .sweep_draw::<W, false, false>(sw, &mut Board::new(pos), rng, &mut mv)?
            .then_some(mv))
    }

    /// `apply` on the random player's board (no huffing under the rules it plays).
    #[inline(always)]
    fn sweep_apply<W: Set>(&self, b: &mut Board<W>, mv: &LinesMove) {
        let s = b.to_move as usize;
        let k = if mv.promotes {
            self.promo[mv.kind as usize][s].1
        } else {
            mv.kind
        };
        let to = W::unit(mv.to);
        match mv.action {
            Action::Place => {
                b.hand[s][mv.kind as usize] -= 1;
                b.in_hand[s] -= 1;
            }
            Action::Move => {
                let from = !W::unit(mv.from);
                b.side[s] &= from;
                b.kind[mv.kind as usize] &= from;
            }
            Action::Capture => {
                let from = !W::unit(mv.from);
                b.side[s] &= from;
                b.kind[mv.kind as usize] &= from;
                for &q in mv.captured() {
                    b.remove(q);
                }
                b.captured[s] += mv.len as u16;
            }
            Action::Pass => {}
        }
        if mv.action != Action::Pass {
            b.side[s] |= to;
            b.kind[k as usize] |= to;
        }
        b.passes = if mv.action == Action::Pass {
            b.passes.saturating_add(1)
        } else {
            0
        };
        let progress = matches!(mv.action, Action::Place | Action::Capture) || mv.promotes;
        b.quiet = if progress {
            0
        } else {
            b.quiet.saturating_add(1)
        };
        b.ply += 1;
        b.to_move = 1 - b.to_move;
    }

    /// Whether `static_outcome` ends the game here.
    #[inline(always)]
    fn sweep_over<W: Set>(&self, sw: &Sweep<W>, b: &Board<W>) -> bool {
        let gone =
            |s: usize| self.rules.no_pieces_loses[s] && b.side[s] == W::ZERO && b.in_hand[s] == 0;
        b.captured[0] as u32 >= sw.goal[0]
            || b.captured[1] as u32 >= sw.goal[1]
            || gone(0)
            || gone(1)
            || b.quiet as u32 >= sw.no_progress
            || b.ply >= sw.move_cap
            || b.passes >= 2
    }

    /// A step or slide of a piece of kind `k` from `from` to `to` on the random player's board, as
    /// `sweep_apply` makes it.
    #[inline(always)]
    fn sweep_step<W: Set>(&self, b: &mut Board<W>, k: u8, from: u8, to: u8, promotes: bool) {
        let s = b.to_move as usize;
        let (from, to) = (!W::unit(from), W::unit(to));
        b.side[s] = b.side[s] & from | to;
        b.kind[k as usize] &= from;
        let k = if promotes {
            self.promo[k as usize][s].1
        } else {
            k
        };
        b.kind[k as usize] |= to;
        b.passes = 0;
        b.quiet = if promotes {
            0
        } else {
            b.quiet.saturating_add(1)
        };
        b.ply += 1;
        b.to_move = 1 - b.to_move;
    }

    /// A piece of kind `k` placed on `to` from the hand, as `sweep_apply` places it.
    #[inline(always)]
    fn sweep_place<W: Set>(&self, b: &mut Board<W>, k: u8, to: u8) {
        let s = b.to_move as usize;
        let to = W::unit(to);
        b.hand[s][k as usize] -= 1;
        b.in_hand[s] -= 1;
        b.side[s] |= to;
        b.kind[k as usize] |= to;
        b.passes = 0;
        b.quiet = 0;
        b.ply += 1;
        b.to_move = 1 - b.to_move;
    }

    /// `draw_move` with the whole-set counter. With `MAKE` the drawn move is made on `b` where it is drawn,
    /// where what kind of move it is is known, instead of being told again from the move (the random
    /// player's loop); `out` then holds it only for captures and passes. Without, `b` is left as it was and
    /// `out` holds the move.
    #[inline(always)]
    fn sweep_draw<W: Set, const MAKE: bool, const POPCNT: bool>(
        &self,
        sw: &Sweep<W>,
        b: &mut Board<W>,
        rng: &mut Rng,
        out: &mut LinesMove,
    ) -> Result<bool, TooManyMoves> {
        if self.sweep_over(sw, b) {
            return Ok(false);
        }
        let s = b.to_move;
        let occ = b.side[0] | b.side[1];
        let empty = !occ & sw.full;
        let hand = &b.hand[s as usize];
        if b.in_hand[s as usize] > 0 {
            let per_kind = empty.ones();
            if per_kind == 0 {
                return Ok(self.sweep_pass::<W, MAKE>(b, rng, out));
            }
            let kinds = hand.iter().filter(|&&h| h > 0).count();
            let i = rng.below(per_kind * kinds);
            // One kind in hand, the usual case, needs no division.
            let (nk, i) = if kinds == 1 {
                (0, i)
            } else {
                (i / per_kind, i % per_kind)
            };
            let k = (0..MAX_KINDS as u8)
                .filter(|&k| hand[k as usize] > 0)
                .nth(nk)
                .unwrap_or(0);
            let q = nth(empty, i);
            if MAKE {
                self.sweep_place(b, k, q);
            } else {
                out.set(Action::Place, k, NO_POINT, q, false);
            }
            return Ok(true);
        }
        let own = b.side[s as usize];
        let enemy = b.side[1 - s as usize];
        let kinds = self.rules.kinds.len();
        let single = self.rules.chain == Chain::Single;
        let groups = |k: u8| &sw.groups[k as usize][s as usize];
        // Capture chains, counted by kind and found again piece by piece when a capture is drawn.
        let mut jumpers = [(W::ZERO, 0usize); MAX_KINDS];
        let mut total = 0;
        for k in 0..kinds as u8 {
            let mine = own & b.kind[k as usize];
            if mine == W::ZERO || sw.capturing[s as usize] & (1 << k) == 0 {
                continue;
            }
            jumpers[k as usize] = if single && mine.ones() * enemy.ones() <= groups(k).few_jumps {
                sw.jumpers_few(k, s, mine, enemy, empty)
            } else if single {
                sw.jumpers(groups(k), k, s, mine, enemy, empty)
            } else {
                let before = total;
                let set = self.first_jumps::<W, POPCNT>(
                    sw,
                    groups(k),
                    k,
                    s,
                    mine,
                    enemy,
                    empty,
                    &mut total,
                )?;
                (set, total - before)
            };
            if single {
                total += jumpers[k as usize].1;
            }
            if total > MAX_MOVES {
                return Err(TooManyMoves);
            }
        }
        let captures = total;
        let mut movers = [(W::ZERO, 0usize); MAX_KINDS];
        // A kind with few pieces on the board has its pieces' targets found one by one and kept in `few`, from
        // `few_at` on, so the drawn move is read from them instead of found again. The array is left unset
        // (each entry is written before it is read): clearing it every ply cost 1-3% on the boards that do
        // not use it.
        let mut few = [const { std::mem::MaybeUninit::<W>::uninit() }; FEW];
        let mut few_at = [u8::MAX; MAX_KINDS];
        let mut used = 0;
        if captures == 0 || self.rules.capture != CapturePolicy::Compulsory {
            for k in 0..kinds as u8 {
                let mine = own & b.kind[k as usize];
                if mine != W::ZERO {
                    let c = mine.ones();
                    if c <= groups(k).few && used + c <= FEW {
                        few_at[k as usize] = used as u8;
                        let mut count = 0;
                        for p in each(mine) {
                            let t = sw.targets(k, s, p, empty);
                            few[used].write(t);
                            used += 1;
                            count += t.ones();
                        }
                        movers[k as usize] = (mine, count);
                    } else {
                        movers[k as usize] = sw.movers(groups(k), k, s, mine, empty);
                    }
                    total += movers[k as usize].1;
                }
            }
            if total > MAX_MOVES {
                return Err(TooManyMoves);
            }
        }
        if total == 0 {
            return Ok(self.sweep_pass::<W, MAKE>(b, rng, out));
        }
        let mut i = rng.below(total);
        if i < captures {
            let mut from = None;
            'kinds: for k in 0..kinds as u8 {
                let (set, count) = jumpers[k as usize];
                if i >= count {
                    i -= count;
                    continue;
                }
                // The chains of the kind's last piece are what is left of its count: they need no counting.
                let mut left = set;
                while left != W::ZERO {
                    let p = left.lowest();
                    left = left.without_lowest();
                    if left == W::ZERO {
                        from = Some((k, p));
                        break 'kinds;
                    }
                    let n = if single {
                        sw.single_jumps(k, s, p, enemy, empty)
                    } else {
                        let mut n = 0;
                        let occ = occ & !W::unit(p);
                        self.sweep_chains::<W, POPCNT>(sw, k, s, p, occ, enemy, NO_DIR, 0, &mut n)?;
                        n
                    };
                    if i < n {
                        from = Some((k, p));
                        break 'kinds;
                    }
                    i -= n;
                }
            }
            let Some((k, p)) = from else {
                return Ok(false);
            };
            let mut nth = Nth {
                left: i,
                found: None,
            };
            let mut mv = LinesMove::new(Action::Capture, k, p, p, NO_POINT);
            let (own, enemy) = (own.wide(), enemy.wide());
            // `Nth` stops the walk once it holds its chain: the error is that stop, not a refusal.
            let _ = self.chain(
                k,
                s,
                p,
                (own | enemy) & !bit(p),
                enemy,
                NO_DIR,
                &mut mv,
                &mut nth,
            );
            let Some(m) = nth.found else {
                return Ok(false);
            };
            *out = m;
            if MAKE {
                self.sweep_apply(b, out);
            }
            return Ok(true);
        }
        i -= captures;
        for k in 0..kinds as u8 {
            let (set, count) = movers[k as usize];
            if i >= count {
                i -= count;
                continue;
            }
            // A kind with few pieces kept each piece's targets when it counted them; the others' are found again.
            let at = few_at[k as usize];
            for (j, p) in each(set).enumerate() {
                let targets = if at == u8::MAX {
                    sw.targets(k, s, p, empty)
                } else {
                    // SAFETY: the kind's pieces' targets were written from `at` on, one a piece in this order.
                    unsafe { few[at as usize + j].assume_init() }
                };
                let n = targets.ones();
                if i >= n {
                    i -= n;
                    continue;
                }
                let q = nth(targets, i);
                let promotes = sw.promo[k as usize][s as usize] & W::unit(q) != W::ZERO;
                if MAKE {
                    self.sweep_step(b, k, p, q, promotes);
                } else {
                    out.set(Action::Move, k, p, q, promotes);
                }
                return Ok(true);
            }
            // The kind's count said the move was among its pieces' targets.
            return Ok(false);
        }
        Ok(false)
    }

    /// `draw_pass` on the random player's board.
    #[inline(always)]
    fn sweep_pass<W: Set, const MAKE: bool>(
        &self,
        b: &mut Board<W>,
        rng: &mut Rng,
        out: &mut LinesMove,
    ) -> bool {
        let pass = self.rules.no_move[b.to_move as usize] == NoMove::Passes && b.passes < 2;
        if pass {
            rng.below(1);
            out.set(Action::Pass, 0, NO_POINT, NO_POINT, false);
            if MAKE {
                self.sweep_apply(b, out);
            }
        }
        pass
    }

    /// The pieces of `mine` with a capture where a chain may go on after a jump, adding their chains to
    /// `total`. Every first jump is one chain, unless a second jump may follow: only then is the chain walked
    /// on from where it lands.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn first_jumps<W: Set, const POPCNT: bool>(
        &self,
        sw: &Sweep<W>,
        g: &Groups<W>,
        k: u8,
        s: u8,
        mine: W,
        enemy: W,
        empty: W,
        total: &mut usize,
    ) -> Result<W, TooManyMoves> {
        let must = self.rules.chain == Chain::MustContinue;
        let occ = !empty;
        let on = |p: u8, over: u8, land: u8, dir: u8, total: &mut usize| {
            let enemy = enemy & !W::unit(over);
            if sw.at(k, s, land).jump_over & enemy == W::ZERO || self.stops_at(k, s, land) {
                *total += 1;
                return Ok(());
            }
            // As `sweep_chains` counts a jump: one chain that may stop here, or (where it must go on) one
            // only when no jump follows.
            let occ = occ & !W::unit(p) & !W::unit(over);
            let more = self.sweep_chains::<W, POPCNT>(sw, k, s, land, occ, enemy, dir, 1, total)?;
            if !must || !more {
                *total += 1;
            }
            Ok::<(), TooManyMoves>(())
        };
        // A piece's open jumps among `jumps`, found without a branch (whether one is open is a coin toss), then
        // walked; whether it has one.
        let walk = |p: u8, jumps: &[Jump<W>], total: &mut usize| {
            let mut open = 0u64;
            for (i, j) in jumps.iter().enumerate() {
                let ok = (enemy & j.over_bit != W::ZERO) & (empty & j.land_bit != W::ZERO);
                open |= (ok as u64) << i;
            }
            let found = open != 0;
            while open != 0 {
                let j = &jumps[open.trailing_zeros() as usize];
                open &= open - 1;
                on(p, j.over, j.land, j.dir, total)?;
            }
            Ok::<bool, TooManyMoves>(found)
        };
        let mut set = W::ZERO;
        // Few pieces among few enemies: every jump of each piece, as the odd ones below, and no groups.
        if mine.ones() * enemy.ones() <= g.few_jumps {
            for p in each(mine) {
                let a = sw.at(k, s, p);
                if a.jump_over & enemy == W::ZERO {
                    continue;
                }
                let found = walk(p, &sw.jumps[a.jumps.0 as usize..a.jumps.1 as usize], total)?;
                set |= W::unit(p) & W::all_if(found);
            }
            return Ok(set);
        }
        for p in each(mine & g.odd_capture) {
            let a = sw.at(k, s, p);
            if a.odd_over & enemy == W::ZERO {
                continue;
            }
            let found = walk(
                p,
                &sw.odd_jumps[a.odd_jumps.0 as usize..a.odd_jumps.1 as usize],
                total,
            )?;
            set |= W::unit(p) & W::all_if(found);
        }
        // Which groups have a jump is a coin toss each: they are found in one pass without a branch, and
        // only those are walked.
        let groups = &sw.jump_groups[g.jumps.0 as usize..g.jumps.1 as usize];
        let can = |j: &Shift2| {
            mine.low() & j.from & enemy.low().rotate_right(j.a) & empty.low().rotate_right(j.b)
        };
        let mut some = 0u64;
        for (i, j) in groups.iter().enumerate() {
            let c = can(j);
            set |= W::from_low(c);
            some |= ((c != 0) as u64) << i;
        }
        while some != 0 {
            let j = &groups[some.trailing_zeros() as usize];
            some &= some - 1;
            for p in each(can(j)) {
                let at = |r: u32| ((p as u32 + r) % 64) as u8;
                on(p, at(j.a), at(j.b), j.dir, total)?;
            }
        }
        Ok(set)
    }

    /// `count_chains` with the counter's sets: adds to `total` the chains from `cur` after `depth` jumps.
    /// A function of its own, called and calling itself: with `POPCNT` it is the one compiled with the
    /// bit-count instruction, which a function does not take from its caller.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn sweep_chains<W: Set, const POPCNT: bool>(
        &self,
        sw: &Sweep<W>,
        k: u8,
        s: u8,
        cur: u8,
        occ: W,
        enemy: W,
        last: u8,
        depth: usize,
        total: &mut usize,
    ) -> Result<bool, TooManyMoves> {
        #[cfg(target_arch = "x86_64")]
        if POPCNT {
            // SAFETY: `POPCNT` is set only under `sweep_popcnt`, which runs where the processor has the
            // instruction.
            return unsafe { self.chains_popcnt(sw, k, s, cur, occ, enemy, last, depth, total) };
        }
        self.chains_plain(sw, k, s, cur, occ, enemy, last, depth, total)
    }

    #[allow(clippy::too_many_arguments)]
    fn chains_plain<W: Set>(
        &self,
        sw: &Sweep<W>,
        k: u8,
        s: u8,
        cur: u8,
        occ: W,
        enemy: W,
        last: u8,
        depth: usize,
        total: &mut usize,
    ) -> Result<bool, TooManyMoves> {
        self.chains::<W, false>(sw, k, s, cur, occ, enemy, last, depth, total)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    #[allow(clippy::too_many_arguments)]
    unsafe fn chains_popcnt<W: Set>(
        &self,
        sw: &Sweep<W>,
        k: u8,
        s: u8,
        cur: u8,
        occ: W,
        enemy: W,
        last: u8,
        depth: usize,
        total: &mut usize,
    ) -> Result<bool, TooManyMoves> {
        self.chains::<W, true>(sw, k, s, cur, occ, enemy, last, depth, total)
    }

    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn chains<W: Set, const POPCNT: bool>(
        &self,
        sw: &Sweep<W>,
        k: u8,
        s: u8,
        cur: u8,
        occ: W,
        enemy: W,
        last: u8,
        depth: usize,
        total: &mut usize,
    ) -> Result<bool, TooManyMoves> {
        if depth >= MAX_CHAIN {
            return Ok(false);
        }
        let a = sw.at(k, s, cur);
        if a.jump_over & enemy == W::ZERO {
            return Ok(false);
        }
        let one = |total: &mut usize| {
            *total += 1;
            if *total > MAX_MOVES {
                Err(TooManyMoves)
            } else {
                Ok(())
            }
        };
        // The jumps open, and those after which the chain may go on, found without a branch (whether a jump
        // is open is a coin toss). Each open jump is one chain where the chain may stop there; only the jumps
        // that may be followed by another are walked on, in table order.
        let jumps = &sw.jumps[a.jumps.0 as usize..a.jumps.1 as usize];
        let any_dir = self.rules.turns || last == NO_DIR;
        let (mut open, mut on, mut stop) = (0u64, 0u64, 0u64);
        for (i, j) in jumps.iter().enumerate() {
            let ok = (enemy & j.over_bit != W::ZERO)
                & (occ & j.land_bit == W::ZERO)
                & (any_dir | (last == j.dir));
            open |= (ok as u64) << i;
            on |= ((j.next & enemy & !j.over_bit != W::ZERO) as u64) << i;
            stop |= (j.stops as u64) << i;
        }
        let found = open != 0;
        let may_stop = self.rules.chain == Chain::MayStop;
        // Chains that end after this jump whatever follows: anywhere where a chain may stop, else where it
        // must stop or no jump can follow.
        let ends = if may_stop { open } else { open & (stop | !on) };
        *total += ends.count_ones() as usize;
        if *total > MAX_MOVES {
            return Err(TooManyMoves);
        }
        let mut walk = open & !stop & on;
        while walk != 0 {
            let j = &jumps[walk.trailing_zeros() as usize];
            walk &= walk - 1;
            let (occ, enemy) = (occ & !j.over_bit, enemy & !j.over_bit);
            let more = self.sweep_chains::<W, POPCNT>(
                sw,
                k,
                s,
                j.land,
                occ,
                enemy,
                j.dir,
                depth + 1,
                total,
            )?;
            // A chain that must go on ends here only when no jump follows.
            if !more && !may_stop {
                one(total)?;
            }
        }
        Ok(found)
    }
}

#[cfg(test)]
mod tests {
    use super::super::legality::tests::games;
    use super::*;

    fn census<W: Set>(sw: &Sweep<W>) -> (usize, usize) {
        let odd = sw
            .at
            .iter()
            .filter(|a| a.odd_step != W::ZERO || a.odd_jumps.1 > a.odd_jumps.0);
        (sw.steps.len() + sw.jump_groups.len(), odd.count())
    }

    /// The checks of drawn moves and playout totals in `playout` cover this counter only where a game has it:
    /// every benchmark board must, 64-bit sets up to 64 points and 128 above, with some of its moves counted
    /// by groups and the irregular points' moves as odd ones.
    #[test]
    fn the_benchmark_boards_are_counted_by_whole_sets() {
        let (mut grouped, mut odd, mut wide) = (0, 0, 0);
        for (name, game) in games() {
            if !name.contains("benches") {
                continue;
            }
            let (g, o) = match &game.draw.sweep {
                Some(Sweeps::Narrow(sw)) if game.n <= 64 => census(sw.as_ref()),
                Some(Sweeps::Wide(sw)) if game.n > 64 => {
                    wide += 1;
                    census(sw.as_ref())
                }
                _ => panic!("{name} has no whole-set counter of its width"),
            };
            grouped += g;
            odd += o;
        }
        assert!(
            grouped > 0 && odd > 0 && wide > 0,
            "{grouped} groups, {odd} points with odd moves, {wide} wide boards"
        );
    }

    fn merged<W: Set>(sw: &Sweep<W>) -> bool {
        sw.groups.iter().flatten().all(|g| {
            let groups = &sw.jump_groups[g.jumps.0 as usize..g.jumps.1 as usize];
            groups.iter().enumerate().all(|(i, x)| {
                groups[..i].iter().all(|y| (x.a, x.b) != (y.a, y.b)) && x.dir == NO_DIR
            })
        })
    }

    /// Where the direction of a jump does not matter (one jump a turn, or chains that may turn), the jumps of
    /// one offset make one group, whatever line they follow: Lam Pusri's and Terhuchu's triangles share the
    /// grid's groups. Their counts are checked against the list by the tests in `playout`.
    #[test]
    fn jumps_of_one_offset_make_one_group_where_direction_does_not_matter() {
        let mut seen = 0;
        for (name, game) in games() {
            let r = &game.rules;
            if r.chain != Chain::Single && !r.turns {
                continue;
            }
            let ok = match &game.draw.sweep {
                Some(Sweeps::Narrow(sw)) => merged(sw.as_ref()),
                Some(Sweeps::Wide(sw)) => merged(sw.as_ref()),
                None => continue,
            };
            assert!(ok, "{name}: two jump groups with the same offsets");
            seen += 1;
        }
        assert!(seen >= 3, "only {seen} games checked");
    }
}
