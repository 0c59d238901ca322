//! The engine as the page sees it: a `Session` holds one compiled ruleset and a line of play (a start position,
//! the moves played from it, and a cursor), and answers in JSON. The C ABI for WebAssembly (`abi`, compiled
//! only for wasm32) is a thin layer over it, so everything here is tested natively like the rest of the engine,
//! and docs/board.md describes the JSON.
//!
//! One line with a cursor serves replay and play alike: a record's moves are the line, stepping is moving the
//! cursor, and playing a move from the middle cuts the line there (which is what undo and redo need too).

pub mod json;

#[cfg(target_arch = "wasm32")]
mod abi;

use crate::any::{AnyMove, AnyPosition, Compiled};
use crate::game::{Game, Outcome};
use crate::lines::{Action, LinesMove, NO_POINT};
use crate::player::{self, Limits};
use crate::record::{self, Record};
use crate::rules::RulesFile;
use crate::ruleset::Family;
use json::Json;

/// Sowing animations stop listing single seeds after this many events; the page then shows the final board.
const MAX_SOW_EVENTS: usize = 4000;

pub struct Session {
    file: RulesFile,
    ruleset: String,
    game: Compiled,
    /// The position before each move, and after the last one: `positions.len() == moves.len() + 1`.
    positions: Vec<AnyPosition>,
    moves: Vec<AnyMove>,
    cursor: usize,
}

/// An error as the page receives it: `{"error": message, "line": l, "column": c}` (line and column when the
/// problem is in a text with lines, such as a rules file or a record).
pub fn error_json(message: &str, at: Option<(u32, u32)>) -> String {
    let mut j = Json::new();
    j.open_obj();
    j.key("error").str(message);
    if let Some((l, c)) = at {
        j.key("line").int(l.into());
        j.key("column").int(c.into());
    }
    j.close_obj();
    j.finish()
}

fn outcome_str(o: Option<Outcome>) -> Option<&'static str> {
    match o {
        Some(Outcome::Win(0)) => Some("1-0"),
        Some(Outcome::Win(_)) => Some("0-1"),
        Some(Outcome::Draw) => Some("1/2-1/2"),
        None => None,
    }
}

impl Session {
    /// Compiles `ruleset` of the rules text (empty: the first ruleset); the line starts at the start position.
    pub fn new(rules: &str, ruleset: &str) -> Result<Session, String> {
        let file = RulesFile::parse(rules)
            .map_err(|e| error_json(&e.message, Some((e.line, e.column))))?;
        let name = if ruleset.is_empty() {
            file.rulesets
                .first()
                .map(|r| r.info.name.clone())
                .unwrap_or_default()
        } else {
            ruleset.to_string()
        };
        let game = file
            .compile((!name.is_empty()).then_some(name.as_str()))
            .map_err(|e| error_json(&e.message, Some((e.line, e.column))))?;
        let start = game.start();
        Ok(Session {
            file,
            ruleset: name,
            game,
            positions: vec![start],
            moves: Vec::new(),
            cursor: 0,
        })
    }

    pub fn game(&self) -> &Compiled {
        &self.game
    }

    pub fn position(&self) -> &AnyPosition {
        // `positions` is never empty (set in `new` and every reset), and the cursor stays within it.
        &self.positions[self.cursor.min(self.positions.len() - 1)]
    }

    fn point_name(&self, p: u8) -> &str {
        match &self.game {
            Compiled::Lines(g) => g
                .rules
                .board
                .points
                .get(p as usize)
                .map_or("?", |q| q.name.as_str()),
            Compiled::Sowing(_) => "?",
        }
    }

    /// The rules' names and the board to draw.
    pub fn info_json(&self) -> String {
        let info = self.file.info();
        let mut j = Json::new();
        j.open_obj();
        j.key("game").str(&info.game);
        j.key("family").str(match self.game.family() {
            Family::PointsAndLines => "lines",
            Family::Sowing => "sowing",
        });
        j.key("ruleset").str(&self.ruleset);
        j.key("rulesets").open_arr();
        for r in &info.rulesets {
            j.open_obj();
            j.key("name").str(&r.name);
            j.key("title").str(&r.title);
            j.key("type").str(r.kind.as_str());
            j.close_obj();
        }
        j.close_arr();
        j.key("sides").open_arr();
        for (name, title) in &info.sides {
            j.open_obj();
            j.key("name").str(name);
            j.key("title").str(title);
            j.close_obj();
        }
        j.close_arr();
        j.key("kinds").open_arr();
        if let Compiled::Lines(g) = &self.game {
            for k in &g.rules.kinds {
                j.open_obj();
                j.key("name").str(&k.name);
                j.key("title").str(&k.title);
                j.close_obj();
            }
        }
        j.close_arr();
        let geometry = self.game.geometry();
        j.key("points").open_arr();
        for p in &geometry.points {
            j.open_obj();
            j.key("name").str(&p.name);
            j.key("x").num(p.x);
            j.key("y").num(p.y);
            j.close_obj();
        }
        j.close_arr();
        j.key("lines").open_arr();
        for line in &geometry.lines {
            j.open_arr();
            for &i in line {
                j.int(i as i64);
            }
            j.close_arr();
        }
        j.close_arr();
        if let Compiled::Sowing(g) = &self.game {
            j.key("holesPerSide").int(g.holes_per_side().into());
            j.key("relay").bool(g.rules().relay);
        }
        j.close_obj();
        j.finish()
    }

    fn reset_to(&mut self, pos: AnyPosition) {
        self.positions = vec![pos];
        self.moves.clear();
        self.cursor = 0;
    }

    /// Starts a new line from a position in setup notation (empty: the rules' start position).
    pub fn set_position(&mut self, setup: &str) -> Result<(), String> {
        let pos = if setup.trim().is_empty() {
            self.game.start()
        } else {
            self.game
                .parse_position(setup)
                .map_err(|m| error_json(&m, None))?
        };
        self.reset_to(pos);
        Ok(())
    }

    /// Replays a record: its positions become the line (cursor at the start). Returns the record as JSON: tags,
    /// the comment before the first move, every move (canonical notation, as written, annotation, comment), the
    /// written result and the outcome reached.
    pub fn load_record(&mut self, text: &str) -> Result<String, String> {
        let rec =
            Record::parse(text).map_err(|e| error_json(&e.message, Some((e.line, e.column))))?;
        let replay = record::replay(&self.game, &rec)
            .map_err(|e| error_json(&e.message, Some((e.line, e.column))))?;
        let mut j = Json::new();
        j.open_obj();
        j.key("tags").open_arr();
        for t in &rec.tags {
            j.strs([t.name.as_str(), t.value.as_str()]);
        }
        j.close_arr();
        j.key("intro").opt_str(rec.intro.as_deref());
        j.key("moves").open_arr();
        for (i, (mv, written)) in replay.moves.iter().zip(&rec.moves).enumerate() {
            j.open_obj();
            j.key("n")
                .str(&self.game.format_move(&replay.positions[i], mv));
            j.key("w").str(rec.text_of(written));
            j.key("a").str(rec.annotation_of(written));
            j.key("c").opt_str(written.comment.as_deref());
            j.close_obj();
        }
        j.close_arr();
        j.key("result")
            .opt_str(rec.result.as_deref().or(rec.tag("Result")));
        j.key("outcome").opt_str(outcome_str(replay.outcome));
        j.close_obj();
        self.positions = replay.positions;
        self.moves = replay.moves;
        self.cursor = 0;
        Ok(j.finish())
    }

    /// Moves the cursor along the line (clamped to its ends).
    pub fn goto(&mut self, ply: usize) {
        self.cursor = ply.min(self.moves.len());
    }

    /// Plays a move written in notation at the cursor. The line after the cursor is cut when the move differs
    /// from the one already there, and kept when it is the same (so replaying a line forward keeps its future).
    pub fn play(&mut self, notation: &str) -> Result<(), String> {
        let pos = self.position().clone();
        let mv = self.game.parse_move(&pos, notation).map_err(|e| match e {
            crate::MoveError::Syntax(m) | crate::MoveError::Illegal(m) => error_json(&m, None),
        })?;
        if self.moves.get(self.cursor) == Some(&mv) {
            self.cursor += 1;
            return Ok(());
        }
        let mut next = pos;
        self.game.advance(&mut next, &mv);
        self.moves.truncate(self.cursor);
        self.positions.truncate(self.cursor + 1);
        self.moves.push(mv);
        self.positions.push(next);
        self.cursor += 1;
        Ok(())
    }

    /// The line's moves in notation, each written in the position it was played from.
    fn line_notation(&self) -> Vec<String> {
        self.moves
            .iter()
            .zip(&self.positions)
            .map(|(m, p)| self.game.format_move(p, m))
            .collect()
    }

    /// The position at the cursor, for drawing: for points and lines `board` holds one entry per point (`-1`
    /// empty, else `side * 16 + kind`), `hand` the pieces in hand per side and kind; for sowing `board` holds
    /// the seeds per hole in the geometry's order (South's holes 1..2n, then North's).
    pub fn state_json(&self) -> String {
        let pos = self.position();
        let mut j = Json::new();
        j.open_obj();
        j.key("ply").int(self.cursor as i64);
        j.key("length").int(self.moves.len() as i64);
        j.key("toMove").int(self.game.side_to_move(pos).into());
        j.key("setup").str(&self.game.format_position(pos));
        j.key("outcome")
            .opt_str(outcome_str(self.game.outcome(pos)));
        j.key("line")
            .strs(self.line_notation().iter().map(|s| s.as_str()));
        match (&self.game, pos) {
            (Compiled::Lines(g), AnyPosition::Lines(p)) => {
                j.key("board").open_arr();
                for i in 0..g.points() {
                    let i = i as u8;
                    match (p.side_at(i), p.kind_at(i)) {
                        (Some(s), Some(k)) => j.int(i64::from(s) * 16 + i64::from(k)),
                        _ => j.int(-1),
                    };
                }
                j.close_arr();
                j.key("hand").open_arr();
                for side in &p.hand {
                    j.open_arr();
                    for &h in &side[..g.rules.kinds.len().min(side.len())] {
                        j.int(h.into());
                    }
                    j.close_arr();
                }
                j.close_arr();
                j.key("captured")
                    .open_arr()
                    .int(p.captured[0].into())
                    .int(p.captured[1].into())
                    .close_arr();
                j.key("huffable").strs(
                    crate::lines::points(p.huffable & p.side[(1 - p.to_move as usize) & 1])
                        .map(|q| self.point_name(q)),
                );
            }
            (Compiled::Sowing(g), AnyPosition::Sowing(p)) => {
                j.key("board").open_arr();
                for h in g.holes() {
                    j.int(p.seeds(h.owner, h.number).into());
                }
                j.close_arr();
                j.key("hand").open_arr().close_arr();
                j.key("captured")
                    .open_arr()
                    .int(p.captured(0).into())
                    .int(p.captured(1).into())
                    .close_arr();
                j.key("huffable").open_arr().close_arr();
            }
            _ => {}
        }
        j.close_obj();
        j.finish()
    }

    /// The legal moves at the cursor; a position with more than the engine lists is refused with an error the
    /// page shows, so the board stays responsive whatever the rules.
    fn legal(&self) -> Result<Vec<AnyMove>, String> {
        let mut v = Vec::new();
        self.game
            .legal_moves(self.position(), &mut v)
            .map_err(|e| error_json(&e.to_string(), None))?;
        Ok(v)
    }

    fn write_move(&self, j: &mut Json, pos: &AnyPosition, mv: &AnyMove) {
        j.open_obj();
        j.key("n").str(&self.game.format_move(pos, mv));
        match mv {
            AnyMove::Lines(m) => self.write_lines_move(j, m),
            AnyMove::Sowing(m) => {
                let me = self.game.side_to_move(pos);
                let (mine, theirs) = if me == 0 { ("S", "N") } else { ("N", "S") };
                let mut from = String::from(mine);
                json::push_int(&mut from, m.hole().into());
                j.key("a").str("sow");
                j.key("f").str(&from);
                j.key("t").null();
                j.key("p").strs([from.as_str()]);
                j.key("x").open_arr();
                for h in m.extra_holes() {
                    let mut s = String::from(theirs);
                    json::push_int(&mut s, h.into());
                    j.str(&s);
                }
                j.close_arr();
                j.key("h").null();
            }
        }
        j.close_obj();
    }

    fn write_lines_move(&self, j: &mut Json, m: &LinesMove) {
        j.key("a").str(match m.action {
            Action::Place => "place",
            Action::Move => "move",
            Action::Capture => "capture",
            Action::Pass => "pass",
        });
        let route = m.route();
        j.key("f");
        if route.len() > 1 {
            j.str(self.point_name(route[0]));
        } else {
            j.null();
        }
        j.key("t");
        match route.last() {
            Some(&p) => j.str(self.point_name(p)),
            None => j.null(),
        };
        j.key("p").strs(route.iter().map(|&p| self.point_name(p)));
        j.key("x")
            .strs(m.captured().iter().map(|&p| self.point_name(p)));
        j.key("h");
        if m.huff != NO_POINT {
            j.str(self.point_name(m.huff));
        } else {
            j.null();
        }
        j.key("k").int(m.kind.into());
    }

    /// Every legal move at the cursor: notation `n`, action `a`, from `f`, to `t`, the points the piece stands
    /// on `p` (a chain's landings in order), captured points `x` (for sowing, the chosen extra holes), huffed
    /// point `h`, and the kind `k` (points and lines).
    pub fn legal_json(&self) -> Result<String, String> {
        let pos = self.position();
        let mut j = Json::new();
        j.open_arr();
        for mv in self.legal()? {
            self.write_move(&mut j, pos, &mv);
        }
        j.close_arr();
        Ok(j.finish())
    }

    /// The legal moves at the cursor in notation, one per line: the cheap list (parity tests, long sowing lists).
    pub fn legal_notation(&self) -> Result<String, String> {
        let pos = self.position();
        let names: Vec<String> = self
            .legal()?
            .iter()
            .map(|m| self.game.format_move(pos, m))
            .collect();
        Ok(names.join("\n"))
    }

    /// For building a move click by click: the points that may be clicked after `route` (names separated by
    /// spaces) and the moves `route` already completes, as `{"next": [...], "complete": [...]}`. For points and
    /// lines the route is the start and the landings (a huff is chosen among the complete moves). For sowing it
    /// is the starting hole, then the extra holes chosen so far in any order: an empty route lists the holes
    /// that may be sown, and then the holes that may still be chosen. Long sowing lists (120,160 moves at the
    /// start of 4 x 40) stay in the engine: the page only sees what the next click may be.
    pub fn continuations_json(&self, route: &str) -> Result<String, String> {
        let mut j = Json::new();
        j.open_obj();
        match (&self.game, self.position()) {
            (Compiled::Lines(g), AnyPosition::Lines(p)) => {
                let mut points = Vec::new();
                for word in route.split_whitespace() {
                    match g.rules.board.points.iter().position(|q| q.name == word) {
                        Some(i) => points.push(i as u8),
                        None => return Ok(error_json("no such point", None)),
                    }
                }
                let (next, complete) = g
                    .continuations(p, &points)
                    .map_err(|e| error_json(&e.to_string(), None))?;
                j.key("next").strs(next.iter().map(|&q| self.point_name(q)));
                j.key("complete").open_arr();
                for m in complete {
                    j.str(&g.format_move(p, &m));
                }
                j.close_arr();
            }
            (Compiled::Sowing(g), AnyPosition::Sowing(p)) => {
                let me = p.side_to_move();
                let (mine, theirs) = if me == 0 { ('S', 'N') } else { ('N', 'S') };
                let hole_of = |w: &str, side: char| -> Option<u16> {
                    w.strip_prefix(side).and_then(|n| n.parse().ok())
                };
                let mut words = route.split_whitespace();
                let start = words.next();
                let chosen: Vec<Option<u16>> = words.map(|w| hole_of(w, theirs)).collect();
                let mut legal = Vec::new();
                g.legal_moves(p, &mut legal)
                    .map_err(|e| error_json(&e.to_string(), None))?;
                let mut next: Vec<String> = Vec::new();
                let mut complete = Vec::new();
                match start {
                    None => {
                        let mut holes: Vec<u16> = legal.iter().map(|m| m.hole()).collect();
                        holes.dedup();
                        for h in holes {
                            let mut s = String::from(mine);
                            json::push_int(&mut s, h.into());
                            next.push(s);
                        }
                    }
                    Some(w) => {
                        let hole = hole_of(w, mine);
                        let mut extra: Vec<u16> = Vec::new();
                        for m in legal.iter().filter(|m| Some(m.hole()) == hole) {
                            let extras: Vec<u16> = m.extra_holes().collect();
                            if !chosen
                                .iter()
                                .all(|c| c.is_some_and(|c| extras.contains(&c)))
                            {
                                continue;
                            }
                            if extras.len() == chosen.len() {
                                complete.push(g.format_move(p, m));
                            }
                            for e in extras {
                                if !chosen.contains(&Some(e)) && !extra.contains(&e) {
                                    extra.push(e);
                                }
                            }
                        }
                        extra.sort_unstable();
                        for e in extra {
                            let mut s = String::from(theirs);
                            json::push_int(&mut s, e.into());
                            next.push(s);
                        }
                    }
                }
                j.key("next").strs(next.iter().map(|s| s.as_str()));
                j.key("complete").strs(complete.iter().map(|s| s.as_str()));
            }
            _ => {}
        }
        j.close_obj();
        Ok(j.finish())
    }

    /// Why a move is not legal at the cursor, in the engine's words; empty when it is legal.
    pub fn explain(&self, notation: &str) -> String {
        match self.game.parse_move(self.position(), notation) {
            Ok(_) => String::new(),
            Err(crate::MoveError::Syntax(m) | crate::MoveError::Illegal(m)) => m,
        }
    }

    /// The computer player's move at the cursor (not played): `{"n", "nodes"}` (nodes searched), or `null`
    /// when the game is over. A move back to a position of the line scores as a draw. `clock` gives milliseconds when the caller has one.
    pub fn think_json(
        &self,
        max_nodes: u64,
        max_ms: u64,
        seed: u64,
        clock: Option<&dyn Fn() -> u64>,
    ) -> Result<String, String> {
        let pos = self.position();
        let limits = Limits {
            max_depth: 64,
            max_nodes,
            deadline: clock.map(|c| (max_ms, c)),
        };
        // The line up to the cursor: the player does not go back to a position of it when it can do better.
        let line = &self.positions[..=self.cursor.min(self.positions.len() - 1)];
        let seen = |p: &AnyPosition| line.iter().any(|q| player::same_placement(q, p));
        let choice = player::choose_fresh(&self.game, pos, &limits, seed, &seen)
            .map_err(|e| error_json(&e.to_string(), None))?;
        Ok(match choice {
            None => "null".into(),
            Some(c) => {
                let mut j = Json::new();
                j.open_obj();
                j.key("n").str(&self.game.format_move(pos, &c.best));
                j.key("nodes").int(c.nodes as i64);
                j.close_obj();
                j.finish()
            }
        })
    }

    /// The steps of sowing `hole` (a hole name such as `S3`, or its number, or a move starting with it) at the
    /// cursor, for animation: the mover's holes touched in order, each `+` (one seed dropped) or `-` (every seed
    /// lifted to sow on): `[["-","S3"],["+","S4"],...]`. Empty when the hole may not be sown. Captures are not
    /// listed: the page shows them from the position after the move.
    pub fn sow_steps_json(&self, hole: &str) -> String {
        let (Compiled::Sowing(g), AnyPosition::Sowing(p)) = (&self.game, self.position()) else {
            return "[]".into();
        };
        let digits: String = hole
            .trim_start_matches(['S', 'N'])
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        let Ok(number) = digits.parse::<u16>() else {
            return "[]".into();
        };
        if !g.may_start(p, number) {
            return "[]".into();
        }
        let me = p.side_to_move();
        let prefix = if me == 0 { "S" } else { "N" };
        let len = usize::from(g.holes_per_side());
        let mut track: Vec<u16> = (1..=len as u16).map(|k| p.seeds(me, k)).collect();
        let mut j = Json::new();
        j.open_arr();
        let mut events = 0usize;
        let mut step = |j: &mut Json, sign: &str, i: usize| {
            events += 1;
            if events <= MAX_SOW_EVENTS {
                let mut name = String::from(prefix);
                json::push_int(&mut name, (i + 1) as i64);
                j.strs([sign, name.as_str()]);
            }
        };
        let mut at = usize::from(number) - 1;
        let mut laps = 1u32;
        while let Some(hand) = track.get_mut(at).map(std::mem::take) {
            step(&mut j, "-", at);
            for _ in 0..hand {
                at = (at + 1) % len;
                track[at] += 1;
                step(&mut j, "+", at);
            }
            let rules = g.rules();
            if track[at] == 1 || !rules.relay || laps >= rules.lap_cap {
                break;
            }
            laps += 1;
        }
        j.close_arr();
        j.finish()
    }
}

#[cfg(test)]
mod tests;
