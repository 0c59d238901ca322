//! Games of points and lines (the Alquerque family and hunt games): positions as bitboards, moves as whole turns,
//! move generation from tables computed once from the board.

mod legality;
pub mod notation;
// The page lists moves and never plays random games fast, so the wasm does without the drawing tables.
#[cfg(not(target_arch = "wasm32"))]
mod playout;
pub mod rules;
#[cfg(not(target_arch = "wasm32"))]
mod sweep;

use crate::game::{Game, MAX_MOVES, MoveError, Outcome, Side, TooManyMoves};
use rules::{CapturePolicy, Chain, LinesRules, MAX_KINDS, MoveRule, NoMove, dirs};

/// No point: a marker in `u8` point fields.
pub const NO_POINT: u8 = u8::MAX;
/// The longest capture chain a move records. No catalogued game comes near it (a chain captures at most the
/// enemy's pieces, 18 in Dam pursi), and a fixed size keeps moves allocation-free.
pub const MAX_CHAIN: usize = 24;
const NO_DIR: u8 = u8::MAX;

#[inline]
fn bit(p: u8) -> u128 {
    #[cfg(not(target_arch = "wasm32"))]
    {
        // A load instead of a 128-bit shift, which takes several instructions and a conditional move; the page
        // keeps the shift, to stay small.
        BITS[p as usize & 127]
    }
    #[cfg(target_arch = "wasm32")]
    {
        1u128 << p
    }
}

/// `1 << p` for every point `p`.
#[cfg(not(target_arch = "wasm32"))]
static BITS: [u128; 128] = {
    let mut bits = [0u128; 128];
    let mut p = 0;
    while p < 128 {
        bits[p] = 1 << p;
        p += 1;
    }
    bits
};

/// The points of a bit set, lowest first.
#[inline]
pub fn points(mut set: u128) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if set == 0 {
            None
        } else {
            let p = set.trailing_zeros() as u8;
            set &= set - 1;
            Some(p)
        }
    })
}

/// A position: who stands where, what is in hand, what has been captured, who moves, and (under rules that
/// look at repetition) the positions the game went through to get here.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LinesPosition {
    /// The points occupied by each side.
    pub side: [u128; 2],
    /// The points occupied by each kind, whatever its side.
    pub kind: [u128; MAX_KINDS],
    pub hand: [[u16; MAX_KINDS]; 2],
    /// Enemy pieces each side has captured (huffs included).
    pub captured: [u16; 2],
    pub to_move: u8,
    /// Plies played since the start position (for the move cap).
    pub ply: u32,
    /// Pieces of the side that just moved which could have captured and did not: the side to move may huff one.
    pub huffable: u128,
    /// Turns in a row that were passes, up to this position: after one the other side may pass in turn, and
    /// the second ends the game drawn, so that a record writes both passes.
    pub passes: u8,
    /// Plies since the last capture, placement or promotion (for `outcome no-progress N draws`).
    pub quiet: u16,
    /// The `key` of the position before each ply, oldest first; kept only by rules with a repetition rule,
    /// so that other games copy no history.
    pub history: Vec<u64>,
}

impl LinesPosition {
    /// What makes two positions the same for repetition, as 64 bits: the board (the first side's points and
    /// every kind's points tell all), the hands and the side to move; not the counters, captures or huffable
    /// pieces. Two different positions share a key with odds of about one in 2^64 per pair, negligible beside the
    /// few hundred positions a game ever compares.
    pub fn key(&self) -> u64 {
        let hand = |s: usize| self.hand[s].iter().fold(0, |a, &h| a << 16 | h as u64);
        let [a, b, c, d] = self.kind;
        let mut h = self.to_move as u64;
        for w in [
            self.side[0],
            a,
            b,
            c,
            d,
            hand(0) as u128 | (hand(1) as u128) << 64,
        ] {
            for half in [w as u64, (w >> 64) as u64] {
                h = (h ^ half).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                h ^= h >> 32;
            }
        }
        h
    }

    /// This position without its history: the working copy a move is tried on.
    fn bare(&self) -> LinesPosition {
        LinesPosition {
            history: Vec::new(),
            ..*self
        }
    }

    pub fn kind_at(&self, p: u8) -> Option<u8> {
        (0..MAX_KINDS as u8).find(|&k| self.kind[k as usize] & bit(p) != 0)
    }

    pub fn side_at(&self, p: u8) -> Option<u8> {
        (0..2u8).find(|&s| self.side[s as usize] & bit(p) != 0)
    }

    fn remove(&mut self, p: u8) {
        let m = !bit(p);
        self.side[0] &= m;
        self.side[1] &= m;
        for k in &mut self.kind {
            *k &= m;
        }
    }

    fn put(&mut self, side: u8, kind: u8, p: u8) {
        self.side[side as usize] |= bit(p);
        self.kind[kind as usize] |= bit(p);
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// A piece from hand onto an empty point.
    Place,
    /// A step or slide without capture.
    Move,
    /// A chain of one or more captures.
    Capture,
    Pass,
}

/// One whole turn. A capture chain lists its landing points in `path` and the captured points in `over`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LinesMove {
    pub action: Action,
    /// The kind placed or moved.
    pub kind: u8,
    pub from: u8,
    pub to: u8,
    /// An enemy piece removed by huffing before the move, or `NO_POINT`.
    pub huff: u8,
    pub len: u8,
    pub path: [u8; MAX_CHAIN],
    pub over: [u8; MAX_CHAIN],
    /// The piece is promoted at the end of the move.
    pub promotes: bool,
}

impl std::hash::Hash for Action {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (*self as u8).hash(state)
    }
}

/// One jump of a capture chain, for pages that build a chain click by click.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Jump {
    pub from: u8,
    pub over: u8,
    pub to: u8,
}

impl LinesMove {
    fn new(action: Action, kind: u8, from: u8, to: u8, huff: u8) -> LinesMove {
        LinesMove {
            action,
            kind,
            from,
            to,
            huff,
            len: 0,
            path: [NO_POINT; MAX_CHAIN],
            over: [NO_POINT; MAX_CHAIN],
            promotes: false,
        }
    }

    pub fn pass() -> LinesMove {
        LinesMove::new(Action::Pass, 0, NO_POINT, NO_POINT, NO_POINT)
    }

    /// The jumps of a capture chain, in order (empty for other moves).
    pub fn jumps(&self) -> impl Iterator<Item = Jump> + '_ {
        (0..self.len as usize).map(move |i| Jump {
            from: if i == 0 { self.from } else { self.path[i - 1] },
            over: self.over[i],
            to: self.path[i],
        })
    }

    /// The captured points, in order.
    pub fn captured(&self) -> &[u8] {
        &self.over[..self.len as usize]
    }

    /// The points the piece stands on, from start to end (one point for a placement).
    pub fn route(&self) -> Vec<u8> {
        match self.action {
            Action::Pass => vec![],
            Action::Place => vec![self.to],
            Action::Move => vec![self.from, self.to],
            Action::Capture => std::iter::once(self.from)
                .chain(self.path[..self.len as usize].iter().copied())
                .collect(),
        }
    }
}

/// What a kind of one side may do from one point, precomputed.
#[derive(Clone, Debug, Default)]
struct PointMoves {
    /// Step targets.
    step: u128,
    /// Slides: (start in the ray pool, length, the points it may stop on).
    slides: Vec<(u32, u8, u128)>,
    /// Short jumps: (over, land, direction id).
    jumps: Vec<(u8, u8, u8)>,
    /// The points the short jumps pass over: no enemy there, no short jump.
    jump_over: u128,
    /// Long jumps: (start in the ray pool, length, direction id).
    long: Vec<(u32, u8, u8)>,
}

/// A ray in the pool: (start, length, direction id, unit vector).
type RayEntry = (u32, u8, u8, (f64, f64));

/// A compiled points-and-lines game.
#[derive(Clone, Debug)]
pub struct LinesGame {
    pub rules: LinesRules,
    n: usize,
    tables: Vec<PointMoves>,
    pool: Vec<u8>,
    /// Promotion region and target kind, by kind and side.
    promo: [[(u128, u8); 2]; MAX_KINDS],
    /// Kinds that can capture at all, by side: a quick test that skips capture generation.
    capturing: [u128; 2],
    /// The rules look at repetition, so positions keep their history.
    tracks: bool,
    /// Promotions can undo each other (a king that turns back into a man), so a position may come back after a
    /// promotion, and repetition is looked for in the whole game.
    promotion_undone: bool,
    #[cfg(not(target_arch = "wasm32"))]
    draw: playout::DrawTables,
}

impl LinesGame {
    pub fn new(rules: LinesRules) -> LinesGame {
        LinesGame::with_tables(rules, true)
    }

    /// [`LinesGame::new`] without the tables that make random games fast (see `playout`), for a game that is
    /// replayed and drawn but plays few random games: a catalog check compiles thousands and plays none, and
    /// building the tables was most of compiling. Its random moves are the same, picked from the move list.
    pub fn for_replay(rules: LinesRules) -> LinesGame {
        LinesGame::with_tables(rules, false)
    }

    fn with_tables(rules: LinesRules, playout_tables: bool) -> LinesGame {
        let board = &rules.board;
        let n = board.points.len();
        let rays = board.rays();
        let mut pool = Vec::new();
        // Direction ids: distinct unit vectors, so "the same direction" survives crossing into a triangle.
        let mut directions: Vec<(f64, f64)> = Vec::new();
        let mut dir_id = |d: (f64, f64)| -> u8 {
            if let Some(i) = directions
                .iter()
                .position(|e| (e.0 - d.0).abs() < 1e-6 && (e.1 - d.1).abs() < 1e-6)
            {
                return i as u8;
            }
            directions.push(d);
            (directions.len() - 1) as u8
        };
        // Pool every ray once; remember where each one starts.
        let mut ray_at: Vec<Vec<RayEntry>> = Vec::new();
        for (p, prays) in rays.iter().enumerate() {
            let mut v = Vec::new();
            for ray in prays {
                let d = board.direction(p as u8, ray[0]);
                let id = dir_id(d);
                v.push((pool.len() as u32, ray.len() as u8, id, d));
                pool.extend_from_slice(ray);
            }
            ray_at.push(v);
        }
        let mut tables = vec![PointMoves::default(); MAX_KINDS * 2 * n];
        for (k, kind) in rules.kinds.iter().enumerate() {
            for s in 0..2 {
                let fwd = rules.sides[s].forward;
                for p in 0..n {
                    let t = &mut tables[(k * 2 + s) * n + p];
                    for &(start, len, id, d) in &ray_at[p] {
                        let dot = d.0 * fwd.0 + d.1 * fwd.1;
                        let class = if dot > 1e-6 {
                            dirs::FORWARD
                        } else if dot < -1e-6 {
                            dirs::BACKWARD
                        } else {
                            dirs::SIDEWAYS
                        };
                        let ray = &pool[start as usize..(start + len as u32) as usize];
                        for rule in &kind.moves {
                            match *rule {
                                MoveRule::Step { dirs, within, into } => {
                                    let inside = within.is_none_or(|r| {
                                        r & bit(p as u8) != 0 && r & bit(ray[0]) != 0
                                    }) && into.is_none_or(|r| r & bit(ray[0]) != 0);
                                    if dirs & class != 0 && inside {
                                        t.step |= bit(ray[0]);
                                    }
                                }
                                MoveRule::Slide {
                                    max,
                                    dirs,
                                    within,
                                    into,
                                } => {
                                    if dirs & class == 0 {
                                        continue;
                                    }
                                    let mut l = if max == 0 { len } else { len.min(max) };
                                    if let Some(r) = within {
                                        if r & bit(p as u8) == 0 {
                                            continue;
                                        }
                                        l = ray[..l as usize]
                                            .iter()
                                            .take_while(|&&q| r & bit(q) != 0)
                                            .count()
                                            as u8;
                                    }
                                    if l > 0 {
                                        t.slides.push((start, l, into.unwrap_or(!0)));
                                    }
                                }
                                MoveRule::Jump { dirs, into } => {
                                    if dirs & class != 0
                                        && len >= 2
                                        && into.is_none_or(|r| r & bit(ray[1]) != 0)
                                        && !t.jumps.iter().any(|j| j.1 == ray[1] && j.0 == ray[0])
                                    {
                                        t.jumps.push((ray[0], ray[1], id));
                                        t.jump_over |= bit(ray[0]);
                                    }
                                }
                                MoveRule::LongJump { dirs } => {
                                    if dirs & class != 0 && len >= 2 {
                                        t.long.push((start, len, id));
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        let mut promo = [[(0u128, 0u8); 2]; MAX_KINDS];
        for pr in &rules.promotions {
            promo[pr.from as usize][pr.side as usize] = (pr.region, pr.to);
        }
        let mut capturing = [0u128; 2];
        for (k, kind) in rules.kinds.iter().enumerate() {
            if kind
                .moves
                .iter()
                .any(|m| matches!(m, MoveRule::Jump { .. } | MoveRule::LongJump { .. }))
            {
                capturing[0] |= 1 << k;
                capturing[1] |= 1 << k;
            }
        }
        let promotion_undone = rules.promotions.iter().any(|p| {
            rules
                .promotions
                .iter()
                .any(|q| q.side == p.side && q.from == p.to)
        });
        #[allow(unused_mut)]
        let mut game = LinesGame {
            tracks: rules.repetition.is_some() || rules.no_repeat.contains(&true),
            promotion_undone,
            rules,
            n,
            tables,
            pool,
            promo,
            capturing,
            #[cfg(not(target_arch = "wasm32"))]
            draw: Default::default(),
        };
        #[cfg(not(target_arch = "wasm32"))]
        if playout_tables {
            game.draw = playout::DrawTables::new(&game);
        }
        #[cfg(target_arch = "wasm32")]
        let _ = playout_tables;
        game
    }

    pub fn points(&self) -> usize {
        self.n
    }

    /// For building a move click by click: given the points clicked so far (`route`: the start, then landing
    /// points; a huff is not part of the route), the points that may be clicked next, and the legal moves that
    /// `route` already completes (several only when they differ by a huff, or a chain may stop or go on).
    /// An empty route gives every point a move can start from (or be placed on).
    pub fn continuations(
        &self,
        pos: &LinesPosition,
        route: &[u8],
    ) -> Result<(Vec<u8>, Vec<LinesMove>), TooManyMoves> {
        let mut legal = Vec::new();
        self.legal_moves(pos, &mut legal)?;
        let mut next = Vec::new();
        let mut complete = Vec::new();
        for mv in legal {
            let r = mv.route();
            if r.len() < route.len() || r[..route.len()] != *route {
                continue;
            }
            if r.len() == route.len() {
                complete.push(mv);
            } else if !next.contains(&r[route.len()]) {
                next.push(r[route.len()]);
            }
        }
        next.sort_unstable();
        Ok((next, complete))
    }

    /// The pieces of side `s` with their kinds, kind by kind (no per-point kind lookup).
    #[inline]
    fn pieces(&self, pos: &LinesPosition, s: u8) -> Pieces {
        let own = pos.side[s as usize];
        Pieces {
            masks: pos.kind.map(|k| k & own),
            k: 0,
            kinds: self.rules.kinds.len(),
        }
    }

    #[inline]
    fn table(&self, k: u8, s: u8, p: u8) -> &PointMoves {
        &self.tables[(k as usize * 2 + s as usize) * self.n + p as usize]
    }

    #[inline]
    fn promotion(&self, k: u8, s: u8, to: u8) -> bool {
        self.promo[k as usize][s as usize].0 & bit(to) != 0
    }

    /// The end of the game that needs no move generation: capture goal, no pieces, repetition, no progress, move
    /// cap, two passes in a row.
    #[inline]
    fn static_outcome(&self, pos: &LinesPosition) -> Option<Outcome> {
        for s in 0..2 {
            if let Some(goal) = self.rules.capture_goal[s]
                && pos.captured[s] >= goal
            {
                return Some(Outcome::Win(s as Side));
            }
        }
        for s in [pos.to_move, 1 - pos.to_move] {
            if self.rules.no_pieces_loses[s as usize]
                && pos.side[s as usize] == 0
                && pos.hand[s as usize].iter().all(|&h| h == 0)
            {
                return Some(Outcome::Win(1 - s));
            }
        }
        if let Some(n) = self.rules.repetition
            && self.occurrences(pos) >= n as usize
        {
            return Some(Outcome::Draw);
        }
        if let Some(n) = self.rules.no_progress
            && pos.quiet >= n
        {
            return Some(Outcome::Draw);
        }
        if let Some(cap) = self.rules.move_cap
            && pos.ply >= cap
        {
            return Some(Outcome::Draw);
        }
        if pos.passes >= 2 {
            return Some(Outcome::Draw);
        }
        None
    }

    /// The keys of the positions that may come back: those since the last capture, huff, placement or
    /// promotion. None of these can be undone: pieces never return to hand or to the board, and without a
    /// promotion back (`promotion_undone`) a promoted piece never reverts, so every position before one of them
    /// has more pieces, more in hand, or fewer promoted than any position after it. `quiet` counts exactly
    /// those plies; a game that has gone on for so long that `quiet` stopped counting looks at the whole game.
    fn recent<'a>(&self, pos: &'a LinesPosition) -> &'a [u64] {
        let h = &pos.history;
        let n = if self.promotion_undone || pos.quiet == u16::MAX {
            h.len()
        } else {
            h.len().min(pos.quiet as usize)
        };
        &h[h.len() - n..]
    }

    /// How many times the game has been in this position, this time included.
    // Out of line, as is `drop_repeats`: only rules about repetition call it, and the hot callers stay small.
    #[inline(never)]
    fn occurrences(&self, pos: &LinesPosition) -> usize {
        let key = pos.key();
        self.recent(pos).iter().filter(|&&k| k == key).count() + 1
    }

    /// Removes from `out[start..]` the moves that the rules forbid because they bring a position back, keeping
    /// the others in order.
    #[inline(never)]
    fn drop_repeats(&self, pos: &LinesPosition, out: &mut Vec<LinesMove>, start: usize) {
        let mut kept = start;
        for i in start..out.len() {
            if !self.repeats(pos, &out[i]) {
                out.swap(kept, i);
                kept += 1;
            }
        }
        out.truncate(kept);
    }

    /// Whether the rules forbid `mv` because it brings back a position seen earlier in the game. A pass is
    /// never forbidden: it is what a side does when it has nothing else, not a choice.
    fn repeats(&self, pos: &LinesPosition, mv: &LinesMove) -> bool {
        if !self.rules.no_repeat[pos.to_move as usize] || mv.action == Action::Pass {
            return false;
        }
        // Nothing to bring back since the last move that cannot be undone (the placements of a hunt game).
        let recent = self.recent(pos);
        if recent.is_empty() {
            return false;
        }
        let mut next = pos.bare();
        self.apply(&mut next, mv);
        // After a move that cannot be undone (`quiet` back to 0) no earlier position can come back.
        (next.quiet > 0 || self.promotion_undone) && recent.contains(&next.key())
    }

    /// Every turn of the side to move, ignoring huffs; `huff` is written into each move.
    fn generate(
        &self,
        pos: &LinesPosition,
        huff: u8,
        list: &mut Bounded,
    ) -> Result<(), TooManyMoves> {
        let s = pos.to_move;
        if pos.hand[s as usize].iter().any(|&h| h > 0) {
            let empty = !(pos.side[0] | pos.side[1]) & mask(self.n);
            for k in 0..MAX_KINDS as u8 {
                if pos.hand[s as usize][k as usize] > 0 {
                    for q in points(empty) {
                        list.push(LinesMove::new(Action::Place, k, NO_POINT, q, huff))?;
                    }
                }
            }
            return Ok(());
        }
        let start = list.out.len();
        self.captures(pos, huff, list)?;
        let out = &mut *list.out;
        if out.len() > start {
            if self.rules.maximum {
                let best = out[start..].iter().map(|m| m.len).max().unwrap_or(0);
                let mut i = start;
                while i < out.len() {
                    if out[i].len < best {
                        out.swap_remove(i);
                    } else {
                        i += 1;
                    }
                }
            }
            if self.rules.capture == CapturePolicy::Compulsory {
                return Ok(());
            }
        }
        self.quiet(pos, huff, list)
    }

    fn quiet(&self, pos: &LinesPosition, huff: u8, list: &mut Bounded) -> Result<(), TooManyMoves> {
        let s = pos.to_move;
        let occ = pos.side[0] | pos.side[1];
        for k in 0..self.rules.kinds.len() as u8 {
            for p in points(pos.side[s as usize] & pos.kind[k as usize]) {
                for q in points(self.quiet_targets(k, s, p, occ)) {
                    let mut m = LinesMove::new(Action::Move, k, p, q, huff);
                    m.promotes = self.promotion(k, s, q);
                    list.push(m)?;
                }
            }
        }
        Ok(())
    }

    /// The points a piece of kind `k` of side `s` on `p` may step or slide to on a board occupied as `occ`.
    #[inline(always)]
    fn quiet_targets(&self, k: u8, s: u8, p: u8, occ: u128) -> u128 {
        let t = self.table(k, s, p);
        let mut targets = t.step & !occ;
        for &(start, len, land) in &t.slides {
            for &q in &self.pool[start as usize..start as usize + len as usize] {
                if occ & bit(q) != 0 {
                    break;
                }
                targets |= bit(q) & land;
            }
        }
        targets
    }

    /// Whether a piece of kind `k` of side `s` may capture at all from `p`: most pieces have no enemy on a
    /// point they could jump over, and no flying capture, so they are skipped before any chain is tried.
    #[inline]
    fn may_capture_from(&self, k: u8, s: u8, p: u8, enemy: u128) -> bool {
        if self.capturing[s as usize] & (1 << k) == 0 {
            return false;
        }
        let t = self.table(k, s, p);
        t.jump_over & enemy != 0 || !t.long.is_empty()
    }

    /// Walks every capture chain of the side to move, handing each complete chain to `sink` in the order the
    /// move list holds them.
    fn captures<S: ChainSink>(
        &self,
        pos: &LinesPosition,
        huff: u8,
        sink: &mut S,
    ) -> Result<(), TooManyMoves> {
        let s = pos.to_move;
        let own = pos.side[s as usize];
        let enemy = pos.side[1 - s as usize];
        for (k, p) in self.pieces(pos, s) {
            if !self.may_capture_from(k, s, p, enemy) {
                continue;
            }
            let mut mv = LinesMove::new(Action::Capture, k, p, p, huff);
            self.chain(
                k,
                s,
                p,
                (own | enemy) & !bit(p),
                enemy,
                NO_DIR,
                &mut mv,
                sink,
            )?;
        }
        Ok(())
    }

    /// Whether the side to move has any capture, without walking a chain past its first jump (every first
    /// jump ends in at least one complete chain).
    fn any_capture(&self, pos: &LinesPosition) -> bool {
        let s = pos.to_move;
        let own = pos.side[s as usize];
        let enemy = pos.side[1 - s as usize];
        self.pieces(pos, s).any(|(k, p)| {
            self.may_capture_from(k, s, p, enemy)
                && self
                    .each_jump(
                        k,
                        s,
                        p,
                        (own | enemy) & !bit(p),
                        enemy,
                        NO_DIR,
                        |_, _, _| Err(()),
                    )
                    .is_err()
        })
    }

    /// The jumps a chain may make next from `cur`, in the order the generator tries them: short jumps in table
    /// order, then flying captures ray by ray, nearest landing first. `f` gets the captured point, the landing
    /// point and the direction, and may stop the walk with an error. Returns whether there was any jump.
    /// Move generation, the check of a written chain and the test for any capture all walk jumps through this
    /// one function, so they cannot disagree on what a jump is.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn each_jump<E>(
        &self,
        k: u8,
        s: u8,
        cur: u8,
        occ: u128,
        enemy: u128,
        last: u8,
        mut f: impl FnMut(u8, u8, u8) -> Result<(), E>,
    ) -> Result<bool, E> {
        let t = self.table(k, s, cur);
        let turns = |dir: u8| self.rules.turns || last == NO_DIR || last == dir;
        let mut found = false;
        if t.jump_over & enemy != 0 {
            for &(over, land, dir) in &t.jumps {
                if enemy & bit(over) != 0 && occ & bit(land) == 0 && turns(dir) {
                    found = true;
                    f(over, land, dir)?;
                }
            }
        }
        for &(start, len, dir) in &t.long {
            if !turns(dir) {
                continue;
            }
            let ray = &self.pool[start as usize..start as usize + len as usize];
            let Some(i) = ray.iter().position(|&q| occ & bit(q) != 0) else {
                continue;
            };
            let over = ray[i];
            if enemy & bit(over) == 0 {
                continue;
            }
            let occ2 = occ & !bit(over);
            for &land in &ray[i + 1..] {
                if occ2 & bit(land) != 0 {
                    break;
                }
                found = true;
                f(over, land, dir)?;
            }
        }
        Ok(found)
    }

    /// Extends the chain in `mv` from `cur`; returns whether any jump was possible.
    #[allow(clippy::too_many_arguments)]
    fn chain<S: ChainSink>(
        &self,
        k: u8,
        s: u8,
        cur: u8,
        occ: u128,
        enemy: u128,
        last: u8,
        mv: &mut LinesMove,
        sink: &mut S,
    ) -> Result<bool, TooManyMoves> {
        if mv.len as usize >= MAX_CHAIN {
            return Ok(false);
        }
        self.each_jump(k, s, cur, occ, enemy, last, |over, land, dir| {
            self.land(
                k,
                s,
                over,
                land,
                dir,
                occ & !bit(over),
                enemy & !bit(over),
                mv,
                sink,
            )
        })
    }

    /// Whether a chain stops where it lands on `land`: one capture per turn, or promotion ends it.
    #[inline]
    fn stops_at(&self, k: u8, s: u8, land: u8) -> bool {
        self.rules.chain == Chain::Single
            || (self.rules.promotion_ends_chain && self.promotion(k, s, land))
    }

    #[allow(clippy::too_many_arguments)]
    fn land<S: ChainSink>(
        &self,
        k: u8,
        s: u8,
        over: u8,
        land: u8,
        dir: u8,
        occ: u128,
        enemy: u128,
        mv: &mut LinesMove,
        sink: &mut S,
    ) -> Result<(), TooManyMoves> {
        let i = mv.len as usize;
        mv.path[i] = land;
        mv.over[i] = over;
        mv.len += 1;
        let emit = |mv: &LinesMove, sink: &mut S| {
            let mut m = *mv;
            m.to = land;
            m.promotes = self.promotion(k, s, land);
            sink.chain(&m)
        };
        let result = if self.stops_at(k, s, land) {
            emit(mv, sink)
        } else {
            (|| {
                if self.rules.chain == Chain::MayStop {
                    emit(mv, sink)?;
                }
                let more = self.chain(k, s, land, occ, enemy, dir, mv, sink)?;
                if !more && self.rules.chain == Chain::MustContinue {
                    emit(mv, sink)?;
                }
                Ok(())
            })()
        };
        mv.len -= 1;
        mv.path[i] = NO_POINT;
        mv.over[i] = NO_POINT;
        result
    }

    /// Pieces of the side to move that have a capture available.
    fn capturers(&self, pos: &LinesPosition) -> u128 {
        let s = pos.to_move;
        let own = pos.side[s as usize];
        let enemy = pos.side[1 - s as usize];
        let occ = own | enemy;
        let mut set = 0;
        for (k, p) in self.pieces(pos, s) {
            let t = self.table(k, s, p);
            if t.jump_over & enemy == 0 && t.long.is_empty() {
                continue;
            }
            let short = t
                .jumps
                .iter()
                .any(|&(o, l, _)| enemy & bit(o) != 0 && occ & bit(l) == 0);
            let long = t.long.iter().any(|&(start, len, _)| {
                let ray = &self.pool[start as usize..start as usize + len as usize];
                match ray.iter().position(|&q| occ & bit(q) != 0) {
                    Some(i) => {
                        enemy & bit(ray[i]) != 0 && i + 1 < ray.len() && occ & bit(ray[i + 1]) == 0
                    }
                    None => false,
                }
            });
            if short || long {
                set |= bit(p);
            }
        }
        set
    }

    /// Whether `generate` would give any move in `pos`, without building the list.
    fn any_generated(&self, pos: &LinesPosition) -> bool {
        let s = pos.to_move;
        let occ = pos.side[0] | pos.side[1];
        if pos.hand[s as usize].iter().any(|&h| h > 0) {
            return occ & mask(self.n) != mask(self.n);
        }
        if self.any_capture(pos) {
            return true;
        }
        self.pieces(pos, s).any(|(k, p)| {
            let t = self.table(k, s, p);
            t.step & !occ != 0
                || t.slides.iter().any(|&(start, len, land)| {
                    self.pool[start as usize..start as usize + len as usize]
                        .iter()
                        .take_while(|&&q| occ & bit(q) == 0)
                        .any(|&q| land & bit(q) != 0)
                })
        })
    }

    /// Whether the side to move has any move, huffs included, without building the list (used by `outcome`).
    /// Where repetition is forbidden, the moves are listed to see whether one is left.
    fn any_move(&self, pos: &LinesPosition) -> bool {
        if self.rules.no_repeat[pos.to_move as usize] {
            let mut out = Vec::new();
            // A position with too many moves to list surely has one that is new. A listed pass stands for no
            // move: it is listed only when nothing else is.
            return self.legal_moves(pos, &mut out).is_err()
                || out.iter().any(|m| m.action != Action::Pass);
        }
        self.any_generated(pos) || self.huffs(pos).any(|h| self.any_generated(&huffed(pos, h)))
    }

    /// The enemy pieces the side to move may huff before its move.
    fn huffs(&self, pos: &LinesPosition) -> impl Iterator<Item = u8> {
        let set = if self.rules.capture == CapturePolicy::Huffing {
            pos.huffable & pos.side[1 - pos.to_move as usize]
        } else {
            0
        };
        points(set)
    }

    fn legal_unchecked(&self, pos: &LinesPosition, list: &mut Bounded) -> Result<(), TooManyMoves> {
        self.generate(pos, NO_POINT, list)?;
        for h in self.huffs(pos) {
            self.generate(&huffed(pos, h), h, list)?;
        }
        Ok(())
    }

    /// Sets up a position from the rules' setup.
    fn setup(&self) -> LinesPosition {
        let mut pos = LinesPosition {
            history: Vec::new(),
            side: [0; 2],
            kind: [0; MAX_KINDS],
            hand: self.rules.setup.hand,
            captured: [0; 2],
            to_move: self.rules.setup.first,
            ply: 0,
            huffable: 0,
            passes: 0,
            quiet: 0,
        };
        for &(s, k, p) in &self.rules.setup.pieces {
            pos.put(s, k, p);
        }
        pos
    }

    /// Makes the move on the position, history aside.
    // Fast play wants it inlined; the page, one copy of it for playing and for trying a move.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    #[cfg_attr(target_arch = "wasm32", inline(never))]
    fn apply(&self, pos: &mut LinesPosition, mv: &LinesMove) {
        let s = pos.to_move;
        let o = 1 - s;
        if mv.huff != NO_POINT {
            pos.remove(mv.huff);
            pos.captured[s as usize] += 1;
        }
        let mut huffable = 0;
        match mv.action {
            Action::Place => {
                pos.put(s, mv.kind, mv.to);
                pos.hand[s as usize][mv.kind as usize] -= 1;
            }
            Action::Move => {
                if self.rules.capture == CapturePolicy::Huffing {
                    let could = self.capturers(pos);
                    huffable = if could & bit(mv.from) != 0 {
                        (could & !bit(mv.from)) | bit(mv.to)
                    } else {
                        could
                    };
                }
                pos.remove(mv.from);
                let k = if mv.promotes {
                    self.promo[mv.kind as usize][s as usize].1
                } else {
                    mv.kind
                };
                pos.put(s, k, mv.to);
            }
            Action::Capture => {
                pos.remove(mv.from);
                for &q in mv.captured() {
                    pos.remove(q);
                }
                pos.captured[s as usize] += mv.len as u16;
                let k = if mv.promotes {
                    self.promo[mv.kind as usize][s as usize].1
                } else {
                    mv.kind
                };
                pos.put(s, k, mv.to);
            }
            Action::Pass => {}
        }
        pos.passes = if mv.action == Action::Pass {
            pos.passes.saturating_add(1)
        } else {
            0
        };
        let progress = matches!(mv.action, Action::Place | Action::Capture)
            || mv.promotes
            || mv.huff != NO_POINT;
        pos.quiet = if progress {
            0
        } else {
            pos.quiet.saturating_add(1)
        };
        pos.huffable = huffable;
        pos.ply += 1;
        pos.to_move = o;
    }

    /// The material of each side, for the computer player: pieces on the board and in hand, kings worth three.
    fn material(&self, pos: &LinesPosition, s: usize) -> i32 {
        let mut m = 0;
        for k in 0..self.rules.kinds.len() {
            let weight = if self
                .promo
                .iter()
                .any(|row| row.iter().any(|&(r, to)| r != 0 && to as usize == k))
            {
                3
            } else {
                1
            };
            m += weight * ((pos.kind[k] & pos.side[s]).count_ones() as i32 + pos.hand[s][k] as i32);
        }
        m
    }
}

/// `pos` after the side to move huffs the enemy piece on `h`: the position its move is then made in.
fn huffed(pos: &LinesPosition, h: u8) -> LinesPosition {
    let mut p2 = pos.bare();
    p2.remove(h);
    p2.captured[pos.to_move as usize] += 1;
    p2
}

/// The move list being generated for one position: it refuses to grow past `MAX_MOVES` moves.
struct Bounded<'a> {
    out: &'a mut Vec<LinesMove>,
    /// The length `out` may reach.
    end: usize,
}

impl Bounded<'_> {
    #[inline]
    fn push(&mut self, m: LinesMove) -> Result<(), TooManyMoves> {
        if self.out.len() >= self.end {
            return Err(TooManyMoves);
        }
        self.out.push(m);
        Ok(())
    }
}

/// What a walk over capture chains does with each complete chain.
trait ChainSink {
    fn chain(&mut self, mv: &LinesMove) -> Result<(), TooManyMoves>;
}

impl ChainSink for Bounded<'_> {
    #[inline]
    fn chain(&mut self, mv: &LinesMove) -> Result<(), TooManyMoves> {
        self.push(*mv)
    }
}

/// The length of the longest chain, for `capture-choice maximum`, found without listing the chains but
/// counting them against the same bound as a list.
#[derive(Default)]
struct Longest {
    best: u8,
    seen: usize,
}

impl ChainSink for Longest {
    fn chain(&mut self, mv: &LinesMove) -> Result<(), TooManyMoves> {
        self.seen += 1;
        if self.seen > MAX_MOVES {
            return Err(TooManyMoves);
        }
        self.best = self.best.max(mv.len);
        Ok(())
    }
}

/// Iterates (kind, point) over one side's pieces.
struct Pieces {
    masks: [u128; MAX_KINDS],
    k: usize,
    kinds: usize,
}

impl Iterator for Pieces {
    type Item = (u8, u8);

    #[inline]
    fn next(&mut self) -> Option<(u8, u8)> {
        while self.k < self.kinds {
            let m = &mut self.masks[self.k];
            if *m != 0 {
                let p = m.trailing_zeros() as u8;
                *m &= *m - 1;
                return Some((self.k as u8, p));
            }
            self.k += 1;
        }
        None
    }
}

#[inline]
fn mask(n: usize) -> u128 {
    if n >= 128 {
        u128::MAX
    } else {
        (1u128 << n) - 1
    }
}

impl Game for LinesGame {
    type Position = LinesPosition;
    type Move = LinesMove;
    type Undo = LinesPosition;

    fn start(&self) -> LinesPosition {
        self.setup()
    }

    fn side_to_move(&self, pos: &LinesPosition) -> Side {
        pos.to_move
    }

    fn legal_moves(
        &self,
        pos: &LinesPosition,
        out: &mut Vec<LinesMove>,
    ) -> Result<(), TooManyMoves> {
        if self.static_outcome(pos).is_some() {
            return Ok(());
        }
        let start = out.len();
        let mut list = Bounded {
            out: &mut *out,
            end: start + MAX_MOVES,
        };
        if let Err(e) = self.legal_unchecked(pos, &mut list) {
            out.truncate(start);
            return Err(e);
        }
        if self.rules.no_repeat[pos.to_move as usize] {
            self.drop_repeats(pos, out, start);
        }
        if out.len() == start
            && self.rules.no_move[pos.to_move as usize] == NoMove::Passes
            && pos.passes < 2
        {
            out.push(LinesMove::pass());
        }
        Ok(())
    }

    #[cfg(not(target_arch = "wasm32"))]
    #[inline(always)]
    fn random_move(
        &self,
        pos: &LinesPosition,
        rng: &mut crate::rng::Rng,
        moves: &mut Vec<LinesMove>,
    ) -> Result<Option<LinesMove>, TooManyMoves> {
        self.draw_move(pos, rng, moves)
    }

    #[inline]
    fn play(&self, pos: &mut LinesPosition, mv: &LinesMove) -> LinesPosition {
        let undo = pos.bare();
        if self.tracks {
            pos.history.push(pos.key());
        }
        self.apply(pos, mv);
        undo
    }

    #[inline]
    fn advance(&self, pos: &mut LinesPosition, mv: &LinesMove) {
        if self.tracks {
            pos.history.push(pos.key());
        }
        self.apply(pos, mv);
    }

    #[inline]
    fn undo(&self, pos: &mut LinesPosition, _mv: &LinesMove, mut undo: LinesPosition) {
        std::mem::swap(&mut undo.history, &mut pos.history);
        if self.tracks {
            undo.history.pop();
        }
        *pos = undo;
    }

    fn outcome(&self, pos: &LinesPosition) -> Option<Outcome> {
        if let Some(o) = self.static_outcome(pos) {
            return Some(o);
        }
        if self.any_move(pos) {
            return None;
        }
        let s = pos.to_move;
        match self.rules.no_move[s as usize] {
            NoMove::Loses => Some(Outcome::Win(1 - s)),
            NoMove::Wins => Some(Outcome::Win(s)),
            NoMove::Draws => Some(Outcome::Draw),
            // The pass `legal_moves` offers; two in a row end the game in `static_outcome`.
            NoMove::Passes => None,
        }
    }

    fn format_move(&self, pos: &LinesPosition, mv: &LinesMove) -> String {
        notation::format(self, pos, mv)
    }

    fn parse_move(&self, pos: &LinesPosition, text: &str) -> Result<LinesMove, MoveError> {
        notation::parse(self, pos, text)
    }

    fn evaluate(&self, pos: &LinesPosition) -> i32 {
        let s = pos.to_move as usize;
        100 * (self.material(pos, s) - self.material(pos, 1 - s))
    }

    fn parse_position(&self, text: &str) -> Result<LinesPosition, String> {
        notation::parse_position(self, text)
    }

    fn format_position(&self, pos: &LinesPosition) -> String {
        notation::format_position(self, pos)
    }
}
