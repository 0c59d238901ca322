//! A random move without the move list. Random play only needs how many moves a position offers, in the order
//! `legal_moves` lists them: the placements, the capture chains piece by piece, then the steps and slides. So
//! they are counted (a chain tree is walked without writing its moves down), an index is drawn over the total,
//! and only the move with that index is built: the same move that `moves[rng.below(moves.len())]` picks over
//! the list, for the same generator state. Huffing and the longest-chain rule reorder or extend the list in
//! ways not worth counting, and a ban on repetition removes moves only known once made; those rules draw from
//! the list.

use super::rules::{CapturePolicy, Chain, MAX_KINDS, NoMove};
use super::sweep::Sweeps;
use super::{Action, ChainSink, LinesGame, LinesMove, LinesPosition, MAX_CHAIN, NO_DIR, NO_POINT};
use super::{bit, mask, points};
use crate::game::{Game, MAX_MOVES, TooManyMoves};
use crate::playout::PlayoutStats;
use crate::rng::Rng;

/// Pieces with a capture whose chain counts a draw remembers; a position with more draws from the list.
const CAPTURERS: usize = 32;

/// The move tables read backwards, by the point a move reaches: on a crowded board (most of these games start
/// with a handful of empty points) the steps and first jumps are counted from the few empty points instead of
/// from every piece.
#[derive(Clone, Debug, Default)]
pub(super) struct DrawTables {
    /// By kind, side and point `q`: the points a step reaches `q` from.
    steps_into: Vec<u128>,
    /// By kind, side and point `p`: the points a step from `p` reaches (the move tables' steps, packed close).
    steps: Vec<u128>,
    /// By kind, side and point `q`: where its short jumps landing on `q` start in `into`.
    into_start: Vec<u32>,
    /// Short jumps by landing point: (start's bit, captured point's bit).
    into: Vec<(u128, u128)>,
    /// By kind and side: some point has a slide, or a flying capture, so the backward tables do not tell all.
    slides: [[bool; 2]; MAX_KINDS],
    long: [[bool; 2]; MAX_KINDS],
    /// By kind, side and point: the move tables flattened, for the loops that run every ply.
    at: Vec<At>,
    /// Short jumps with their points' bits, so a jump is tested without looking a bit up.
    jumps: Vec<FastJump>,
    /// The points a slide may stop on, each with the points it passes (itself included), which must be empty:
    /// (target's bit, path).
    slide_stops: Vec<(u128, u128)>,
    /// The whole-set counter, where the rules allow it.
    pub(super) sweep: Option<Sweeps>,
    /// The tables are built. A game compiled only to be replayed goes without them; its random moves are then
    /// picked from the list of legal moves, which draws the same moves.
    ready: bool,
}

/// What a piece may do from a point, in one place: step targets, the points its short jumps pass over, and
/// where its short jumps and slide stops start and end in their pools.
#[derive(Clone, Copy, Debug, Default)]
struct At {
    step: u128,
    jump_over: u128,
    jumps: (u32, u32),
    slides: (u32, u32),
}

/// A short jump: the bits of the point passed over and of the landing point, the points themselves and the
/// direction.
#[derive(Clone, Copy, Debug)]
struct FastJump {
    over_bit: u128,
    land_bit: u128,
    over: u8,
    land: u8,
    dir: u8,
}

impl DrawTables {
    pub(super) fn new(game: &LinesGame) -> DrawTables {
        let n = game.n;
        let mut t = DrawTables {
            steps_into: vec![0; MAX_KINDS * 2 * n],
            steps: vec![0; MAX_KINDS * 2 * n],
            ..Default::default()
        };
        let mut into: Vec<Vec<(u128, u128)>> = vec![Vec::new(); MAX_KINDS * 2 * n];
        for k in 0..MAX_KINDS {
            for s in 0..2 {
                let base = (k * 2 + s) * n;
                for p in 0..n {
                    let m = &game.tables[base + p];
                    let (step, kept) = quiet_moves(game, k, s, p);
                    t.steps[base + p] = step;
                    for q in points(step) {
                        t.steps_into[base + q as usize] |= bit(p as u8);
                    }
                    for &(over, land, _) in &m.jumps {
                        into[base + land as usize].push((bit(p as u8), bit(over)));
                    }
                    t.slides[k][s] |= !kept.is_empty();
                    // More short jumps from a point than `count_chains` tracks in a word: the slow walk, as for
                    // flying captures.
                    t.long[k][s] |= !m.long.is_empty() || m.jumps.len() > 64;
                    let jumps = t.jumps.len() as u32;
                    t.jumps
                        .extend(m.jumps.iter().map(|&(over, land, dir)| FastJump {
                            over_bit: bit(over),
                            land_bit: bit(land),
                            over,
                            land,
                            dir,
                        }));
                    let stops = t.slide_stops.len() as u32;
                    t.slide_stops.extend(kept);
                    t.at.push(At {
                        step,
                        jump_over: m.jump_over,
                        jumps: (jumps, t.jumps.len() as u32),
                        slides: (stops, t.slide_stops.len() as u32),
                    });
                }
            }
        }
        for list in into {
            t.into_start.push(t.into.len() as u32);
            t.into.extend(list);
        }
        t.into_start.push(t.into.len() as u32);
        t.sweep = Sweeps::new(game);
        t.ready = true;
        t
    }
}

/// The steps and slides of a kind of side `s` from `p`, as the draw counts them: a slide stop next to the piece
/// is a step, and a stop that a step reaches, or that another stop reaches through fewer points, adds nothing,
/// so the steps and the stops left give the same targets on every board with fewer stops to test. Returns the
/// step targets and the stops kept, each as (target's bit, the points it passes, itself included).
pub(super) fn quiet_moves(
    game: &LinesGame,
    k: usize,
    s: usize,
    p: usize,
) -> (u128, Vec<(u128, u128)>) {
    let m = &game.tables[(k * 2 + s) * game.n + p];
    let mut step = m.step;
    let mut stops: Vec<(u128, u128)> = Vec::new();
    for &(start, len, land) in &m.slides {
        let mut path = 0;
        for &q in &game.pool[start as usize..start as usize + len as usize] {
            path |= bit(q);
            if land & bit(q) != 0 {
                if path == bit(q) {
                    step |= bit(q);
                } else {
                    stops.push((bit(q), path));
                }
            }
        }
    }
    let kept = stops
        .iter()
        .enumerate()
        .filter(|&(i, &(target, path))| {
            step & target == 0
                && !stops
                    .iter()
                    .enumerate()
                    .any(|(j, &(t2, p2))| t2 == target && p2 & !path == 0 && (p2 != path || j < i))
        })
        .map(|(_, &e)| e)
        .collect();
    (step, kept)
}

impl LinesGame {
    /// `n` random playouts from the start: the same games and totals as `crate::playout::playouts`, with the
    /// processor's bit-count instruction where it has one (the x86-64 baseline lacks it, and counting moves is
    /// mostly counting bits).
    pub fn playouts(&self, n: u64, seed: u64, max_plies: u32) -> PlayoutStats {
        match &self.draw.sweep {
            Some(Sweeps::Narrow(sw)) => return self.sweep_playouts(sw, n, seed, max_plies),
            Some(Sweeps::Wide(sw)) => return self.sweep_playouts(sw, n, seed, max_plies),
            None => {}
        }
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the processor has the instruction, as just checked.
            return unsafe { self.playouts_popcnt(n, seed, max_plies) };
        }
        self.run_playouts(n, seed, max_plies)
    }

    /// `playouts` compiled for processors with the bit-count instruction; what it calls is inlined into it
    /// so that the counting code is compiled that way too.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    unsafe fn playouts_popcnt(&self, n: u64, seed: u64, max_plies: u32) -> PlayoutStats {
        self.run_playouts(n, seed, max_plies)
    }

    /// `crate::playout::playouts` for this family: the same games, but each ply made in place, without the
    /// copy `play` keeps for undoing it, and every game played in one position whose history keeps its room.
    #[inline(always)]
    fn run_playouts(&self, n: u64, seed: u64, max_plies: u32) -> PlayoutStats {
        let start = self.start();
        let mut rng = Rng::new(seed);
        let mut moves = Vec::with_capacity(64);
        let mut stats = PlayoutStats::default();
        let mut pos = start.clone();
        for _ in 0..n {
            pos.clone_from(&start);
            let mut plies = 0;
            let outcome = loop {
                if plies >= max_plies {
                    break self.outcome(&pos);
                }
                match self.draw_move(&pos, &mut rng, &mut moves) {
                    Err(_) => break None,
                    Ok(None) => break self.outcome(&pos),
                    Ok(Some(mv)) => {
                        if self.tracks {
                            pos.history.push(pos.key());
                        }
                        self.apply(&mut pos, &mv);
                        plies += 1;
                    }
                }
            };
            stats.count(plies as u64, outcome);
        }
        stats
    }

    /// `Game::random_move` for points and lines (see the module comment).
    #[inline(always)]
    pub(super) fn draw_move(
        &self,
        pos: &LinesPosition,
        rng: &mut Rng,
        moves: &mut Vec<LinesMove>,
    ) -> Result<Option<LinesMove>, TooManyMoves> {
        match &self.draw.sweep {
            Some(Sweeps::Narrow(sw)) => return self.sweep_draw_at(sw, pos, rng),
            Some(Sweeps::Wide(sw)) => return self.sweep_draw_at(sw, pos, rng),
            None => {}
        }
        if self.rules.capture == CapturePolicy::Huffing
            || self.rules.maximum
            || self.rules.no_repeat[pos.to_move as usize]
            || !self.draw.ready
        {
            return self.draw_listed(pos, rng, moves);
        }
        if self.static_outcome(pos).is_some() {
            return Ok(None);
        }
        let s = pos.to_move;
        let hand = &pos.hand[s as usize];
        let occ = pos.side[0] | pos.side[1];
        if hand.iter().any(|&h| h > 0) {
            let empty = !occ & mask(self.n);
            let per_kind = empty.count_ones() as usize;
            if per_kind == 0 {
                return Ok(self.draw_pass(pos, rng));
            }
            let kinds = hand.iter().filter(|&&h| h > 0).count();
            let i = rng.below(per_kind * kinds);
            let k = (0..MAX_KINDS as u8)
                .filter(|&k| hand[k as usize] > 0)
                .nth(i / per_kind)
                .unwrap_or(0);
            let q = nth_point(empty, i % per_kind);
            return Ok(Some(LinesMove::new(
                Action::Place,
                k,
                NO_POINT,
                q,
                NO_POINT,
            )));
        }
        let own = pos.side[s as usize];
        let enemy = pos.side[1 - s as usize];
        let empty = !occ & mask(self.n);
        let kinds = self.rules.kinds.len();
        // Chains counted per capturing piece, so the drawn one is walked again from its piece alone.
        let mut capturers = [(0u8, 0u8, 0usize); CAPTURERS];
        let mut found = 0;
        let mut total = 0;
        // Steps and slides by kind: the pieces that have one, and how many. Counted with the captures when
        // both go piece by piece, so that each piece is visited once.
        let mut movable = [0u128; MAX_KINDS];
        let mut counts = [0usize; MAX_KINDS];
        let mut counted = [false; MAX_KINDS];
        for k in 0..kinds as u8 {
            let mine = own & pos.kind[k as usize];
            if mine == 0 || self.capturing[s as usize] & (1 << k) == 0 {
                continue;
            }
            // One jump a turn: a piece's chains are its jumps, counted without walking them.
            let single =
                self.rules.chain == Chain::Single && !self.draw.long[k as usize][s as usize];
            if single && self.quiet_by_piece(k, s, mine, empty) {
                let (mut mov, mut count) = (0u128, 0usize);
                for p in points(mine) {
                    let targets = self.quiet_fast(k, s, p, occ);
                    mov |= bit(p) & ((targets != 0) as u128).wrapping_neg();
                    count += targets.count_ones() as usize;
                    let jumps = self.single_jumps(k, s, p, enemy, empty);
                    if jumps > 0 {
                        total += jumps;
                        if total > MAX_MOVES {
                            return Err(TooManyMoves);
                        }
                        if found == CAPTURERS {
                            return self.draw_listed(pos, rng, moves);
                        }
                        capturers[found] = (k, p, jumps);
                        found += 1;
                    }
                }
                (movable[k as usize], counts[k as usize]) = (mov, count);
                counted[k as usize] = true;
                continue;
            }
            let from = if single {
                mine
            } else {
                self.first_jumpers(k, s, mine, enemy, empty)
            };
            for p in points(from) {
                let before = total;
                if single {
                    total += self.single_jumps(k, s, p, enemy, empty);
                    if total > MAX_MOVES {
                        return Err(TooManyMoves);
                    }
                } else {
                    self.count_chains(k, s, p, occ & !bit(p), enemy, NO_DIR, 0, &mut total)?;
                }
                if total > before {
                    if found == CAPTURERS {
                        return self.draw_listed(pos, rng, moves);
                    }
                    capturers[found] = (k, p, total - before);
                    found += 1;
                }
            }
        }
        let captures = total;
        if captures == 0 || self.rules.capture != CapturePolicy::Compulsory {
            for k in 0..kinds as u8 {
                let mine = own & pos.kind[k as usize];
                if counted[k as usize] {
                    total += counts[k as usize];
                } else if mine != 0 {
                    (movable[k as usize], counts[k as usize]) =
                        self.quiet_count(k, s, mine, empty, occ);
                    total += counts[k as usize];
                }
            }
            if total > MAX_MOVES {
                return Err(TooManyMoves);
            }
        }
        if total == 0 {
            return Ok(self.draw_pass(pos, rng));
        }
        let mut i = rng.below(total);
        if i < captures {
            for &(k, p, n) in &capturers[..found] {
                if i >= n {
                    i -= n;
                    continue;
                }
                let mut nth = Nth {
                    left: i,
                    found: None,
                };
                let mut mv = LinesMove::new(Action::Capture, k, p, p, NO_POINT);
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
                return Ok(nth.found);
            }
            return Ok(None);
        }
        i -= captures;
        for k in 0..kinds as u8 {
            if i >= counts[k as usize] {
                i -= counts[k as usize];
                continue;
            }
            for p in points(movable[k as usize]) {
                let targets = self.quiet_fast(k, s, p, occ);
                let n = targets.count_ones() as usize;
                if i >= n {
                    i -= n;
                    continue;
                }
                let q = nth_point(targets, i);
                let mut m = LinesMove::new(Action::Move, k, p, q, NO_POINT);
                m.promotes = self.promotion(k, s, q);
                return Ok(Some(m));
            }
        }
        Ok(None)
    }

    /// The short jumps of the piece of kind `k` on `p`: over an enemy, onto an empty point.
    #[inline(always)]
    fn single_jumps(&self, k: u8, s: u8, p: u8, enemy: u128, empty: u128) -> usize {
        let a = self.at(k, s, p);
        if a.jump_over & enemy == 0 {
            return 0;
        }
        self.fast_jumps(a)
            .iter()
            .map(|j| ((enemy & j.over_bit != 0) & (empty & j.land_bit != 0)) as usize)
            .sum()
    }

    #[inline(always)]
    fn at(&self, k: u8, s: u8, p: u8) -> &At {
        &self.draw.at[(k as usize * 2 + s as usize) * self.n + p as usize]
    }

    #[inline(always)]
    fn fast_jumps(&self, a: &At) -> &[FastJump] {
        &self.draw.jumps[a.jumps.0 as usize..a.jumps.1 as usize]
    }

    /// `quiet_targets` from the flattened tables: a slide stop is reached when its path is empty.
    #[inline(always)]
    fn quiet_fast(&self, k: u8, s: u8, p: u8, occ: u128) -> u128 {
        let a = self.at(k, s, p);
        let mut targets = a.step & !occ;
        for &(target, path) in &self.draw.slide_stops[a.slides.0 as usize..a.slides.1 as usize] {
            targets |= target & ((occ & path == 0) as u128).wrapping_neg();
        }
        targets
    }

    /// The pieces of kind `k` in `mine` that may have a first jump (all of them where flying captures are
    /// allowed): those with one, from the empty points when they are fewer than the pieces, else those next to
    /// an enemy they could jump over.
    #[inline(always)]
    fn first_jumpers(&self, k: u8, s: u8, mine: u128, enemy: u128, empty: u128) -> u128 {
        if self.draw.long[k as usize][s as usize] {
            return mine;
        }
        let mut set = 0;
        if empty.count_ones() < mine.count_ones() {
            let base = (k as usize * 2 + s as usize) * self.n;
            for q in points(empty) {
                let (a, b) = (
                    self.draw.into_start[base + q as usize],
                    self.draw.into_start[base + q as usize + 1],
                );
                for &(p, over) in &self.draw.into[a as usize..b as usize] {
                    // Without a branch, and with the points' bits at hand.
                    let jumps = (mine & p != 0) & (enemy & over != 0);
                    set |= p & (jumps as u128).wrapping_neg();
                }
            }
        } else {
            // Only the pieces next to an enemy: `count_chains` tests their jumps anyway, and testing them
            // here too would do it twice.
            for p in points(mine) {
                let near = self.at(k, s, p).jump_over & enemy != 0;
                set |= bit(p) & (near as u128).wrapping_neg();
            }
        }
        set
    }

    /// Whether `quiet_count` goes piece by piece (else from the empty points).
    #[inline(always)]
    fn quiet_by_piece(&self, k: u8, s: u8, mine: u128, empty: u128) -> bool {
        self.draw.slides[k as usize][s as usize] || empty.count_ones() >= mine.count_ones()
    }

    /// The pieces of kind `k` in `mine` that can step or slide, and how many such moves they have: from the
    /// empty points when they are fewer than the pieces and the kind only steps.
    #[inline(always)]
    fn quiet_count(&self, k: u8, s: u8, mine: u128, empty: u128, occ: u128) -> (u128, usize) {
        let (mut movable, mut count) = (0, 0);
        if !self.quiet_by_piece(k, s, mine, empty) {
            let base = (k as usize * 2 + s as usize) * self.n;
            for q in points(empty) {
                let from = self.draw.steps_into[base + q as usize] & mine;
                movable |= from;
                count += from.count_ones() as usize;
            }
        } else if !self.draw.slides[k as usize][s as usize] {
            let base = (k as usize * 2 + s as usize) * self.n;
            for p in points(mine) {
                let targets = self.draw.steps[base + p as usize] & empty;
                // Without a branch: whether a piece can move is as unpredictable as a coin.
                movable |= bit(p) & ((targets != 0) as u128).wrapping_neg();
                count += targets.count_ones() as usize;
            }
        } else {
            for p in points(mine) {
                let targets = self.quiet_fast(k, s, p, occ);
                movable |= bit(p) & ((targets != 0) as u128).wrapping_neg();
                count += targets.count_ones() as usize;
            }
        }
        (movable, count)
    }

    /// The plain way: list the moves and pick one.
    pub(super) fn draw_listed(
        &self,
        pos: &LinesPosition,
        rng: &mut Rng,
        moves: &mut Vec<LinesMove>,
    ) -> Result<Option<LinesMove>, TooManyMoves> {
        moves.clear();
        self.legal_moves(pos, moves)?;
        Ok((!moves.is_empty()).then(|| moves[rng.below(moves.len())]))
    }

    /// With nothing else to play, the pass `legal_moves` then lists (drawn from a list of one, as picking from
    /// that list would draw).
    fn draw_pass(&self, pos: &LinesPosition, rng: &mut Rng) -> Option<LinesMove> {
        (self.rules.no_move[pos.to_move as usize] == NoMove::Passes && pos.passes < 2).then(|| {
            rng.below(1);
            LinesMove::pass()
        })
    }

    /// Adds to `total` the chains `chain` would list from `cur` after `depth` jumps, and returns whether any
    /// jump was possible; refuses once `total` passes `MAX_MOVES`, as the list would.
    #[allow(clippy::too_many_arguments)]
    fn count_chains(
        &self,
        k: u8,
        s: u8,
        cur: u8,
        occ: u128,
        enemy: u128,
        last: u8,
        depth: usize,
        total: &mut usize,
    ) -> Result<bool, TooManyMoves> {
        if depth >= MAX_CHAIN {
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
        let step = |over: u8, land: u8, dir: u8, total: &mut usize| {
            if self.stops_at(k, s, land) {
                return one(total);
            }
            if self.rules.chain == Chain::MayStop {
                one(total)?;
            }
            let (occ, enemy) = (occ & !bit(over), enemy & !bit(over));
            let more = self.count_chains(k, s, land, occ, enemy, dir, depth + 1, total)?;
            if !more && self.rules.chain == Chain::MustContinue {
                one(total)?;
            }
            Ok(())
        };
        if self.draw.long[k as usize][s as usize] {
            return self.each_jump(k, s, cur, occ, enemy, last, |over, land, dir| {
                step(over, land, dir, total)
            });
        }
        // Short jumps only: the same jumps in the same order as `each_jump`, from the flattened tables.
        let a = self.at(k, s, cur);
        if a.jump_over & enemy == 0 {
            return Ok(false);
        }
        // The jumps open, found without a branch (whether a jump is open is a coin toss), then walked.
        let jumps = self.fast_jumps(a);
        let any_dir = self.rules.turns || last == NO_DIR;
        let mut open = 0u64;
        for (i, j) in jumps.iter().enumerate() {
            let ok =
                (enemy & j.over_bit != 0) & (occ & j.land_bit == 0) & (any_dir | (last == j.dir));
            open |= (ok as u64) << i;
        }
        let found = open != 0;
        while open != 0 {
            let j = &jumps[open.trailing_zeros() as usize];
            open &= open - 1;
            step(j.over, j.land, j.dir, total)?;
        }
        Ok(found)
    }
}

/// The chain with index `left` in a walk's order.
pub(super) struct Nth {
    pub(super) left: usize,
    pub(super) found: Option<LinesMove>,
}

impl ChainSink for Nth {
    fn chain(&mut self, mv: &LinesMove) -> Result<(), TooManyMoves> {
        if self.left == 0 {
            self.found = Some(*mv);
            return Err(TooManyMoves);
        }
        self.left -= 1;
        Ok(())
    }
}

/// The `i`-th point of `set`, lowest first (`i` below its size).
#[inline]
fn nth_point(mut set: u128, i: usize) -> u8 {
    for _ in 0..i {
        set &= set - 1;
    }
    set.trailing_zeros() as u8
}

#[cfg(test)]
mod tests {
    //! Drawing a move must pick exactly the move picking from the list picks, and leave the generator in the same
    //! state, in every position random games reach, for every catalogued and benchmark ruleset and the fixtures
    //! that exercise each capture setting.

    use super::super::legality::tests::games;
    use super::*;
    use crate::playout::Playout;

    #[test]
    fn a_drawn_move_is_the_move_picked_from_the_list() {
        let mut positions = 0u64;
        for (name, game) in games() {
            let mut rng = Rng::new(99);
            let mut moves = Vec::new();
            for _ in 0..8 {
                let mut pos = game.start();
                loop {
                    let (mut a, mut b) = (rng.clone(), rng.clone());
                    let drawn = game.draw_move(&pos, &mut a, &mut moves);
                    let listed = game.draw_listed(&pos, &mut b, &mut moves);
                    assert_eq!(drawn, listed, "{name} in {}", game.format_position(&pos));
                    assert_eq!(
                        a.next_u64(),
                        b.next_u64(),
                        "{name}: the generator moved alike"
                    );
                    positions += 1;
                    match drawn {
                        Ok(Some(mv)) if pos.ply < 400 => {
                            rng = a;
                            game.advance(&mut pos, &mv);
                        }
                        _ => break,
                    }
                }
            }
        }
        assert!(positions > 20_000, "only {positions} positions");
    }

    /// Playouts by listing every move, as they were played before moves were drawn.
    fn listed_playouts(game: &LinesGame, n: u64, seed: u64, max_plies: u32) -> PlayoutStats {
        let mut rng = Rng::new(seed);
        let mut stats = PlayoutStats::default();
        let mut moves = Vec::new();
        for _ in 0..n {
            let mut pos = game.start();
            let mut plies = 0;
            let p = loop {
                moves.clear();
                if game.legal_moves(&pos, &mut moves).is_err() {
                    break Playout {
                        outcome: None,
                        plies,
                    };
                }
                if moves.is_empty() {
                    break Playout {
                        outcome: game.outcome(&pos),
                        plies,
                    };
                }
                if plies >= max_plies {
                    break Playout {
                        outcome: None,
                        plies,
                    };
                }
                game.advance(&mut pos, &moves[rng.below(moves.len())]);
                plies += 1;
            };
            stats.count(p.plies as u64, p.outcome);
        }
        stats
    }

    #[test]
    fn a_game_compiled_for_replay_plays_the_same_random_games() {
        for (name, game) in games() {
            let replay = LinesGame::for_replay(game.rules.clone());
            assert!(!replay.draw.ready && replay.draw.sweep.is_none(), "{name}");
            assert_eq!(
                replay.playouts(6, 9, 10_000),
                game.playouts(6, 9, 10_000),
                "{name}"
            );
        }
    }

    #[test]
    fn playouts_play_the_games_listing_played() {
        for (name, game) in games() {
            for max_plies in [30, 10_000] {
                assert_eq!(
                    game.playouts(12, 5, max_plies),
                    listed_playouts(&game, 12, 5, max_plies),
                    "{name}, at most {max_plies} plies"
                );
            }
        }
    }
}
