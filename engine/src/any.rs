//! `Compiled`: any compiled rules file, whatever its family, so the CLI and the page handle every game alike.
//! It implements `Game` itself by dispatching to the family's game; hot loops that want the last bit of speed
//! can match on the variant and run generic code on the family's own type instead.

use crate::game::{Game, MoveError, Outcome, Side, TooManyMoves};
use crate::lines::rules::{CapturePolicy, Chain, MoveRule, NoMove};
use crate::lines::{LinesGame, LinesMove, LinesPosition};
use crate::ruleset::{Facts, Family, Geometry, GeometryPoint};
use crate::sowing::{SowingEnd, SowingGame, SowingMove, SowingPosition, SowingRules};

#[derive(Clone, Debug)]
pub enum Compiled {
    Lines(Box<LinesGame>),
    Sowing(Box<SowingGame>),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AnyPosition {
    Lines(LinesPosition),
    Sowing(SowingPosition),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyMove {
    Lines(LinesMove),
    Sowing(SowingMove),
}

/// A move described for programs (the CLI's JSON, the page): its notation and the points it involves, by name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveInfo {
    pub notation: String,
    /// Where the piece starts (none for a placement or a pass; the starting hole for a sowing).
    pub from: Option<String>,
    /// Where it ends.
    pub to: Option<String>,
    /// Every point the piece stands on, start and landings included.
    pub path: Vec<String>,
    /// Captured points (a huffed piece first), or for a sowing the opponent's holes emptied, in the opponent's
    /// numbering: the inner hole of the file, its outer hole when taken, then the extra holes chosen.
    pub captured: Vec<String>,
    /// For a sowing, the seeds those holes held; `None` for points and lines, where each point is one piece.
    pub captured_seeds: Option<u32>,
}

impl Compiled {
    /// Perft from the start position, on the family's own game type (no dispatch per node).
    pub fn perft(&self, depth: u32) -> Result<u64, TooManyMoves> {
        match self {
            Compiled::Lines(g) => crate::perft::perft(g.as_ref(), &mut g.start(), depth),
            Compiled::Sowing(g) => crate::perft::perft(g.as_ref(), &mut g.start(), depth),
        }
    }

    /// Random playouts from the start, on the family's own game type.
    pub fn playouts(&self, n: u64, seed: u64, max_plies: u32) -> crate::playout::PlayoutStats {
        match self {
            #[cfg(not(target_arch = "wasm32"))]
            Compiled::Lines(g) => g.playouts(n, seed, max_plies),
            #[cfg(target_arch = "wasm32")]
            Compiled::Lines(g) => crate::playout::playouts(g.as_ref(), n, seed, max_plies),
            Compiled::Sowing(g) => crate::playout::playouts(g.as_ref(), n, seed, max_plies),
        }
    }

    /// The notation and points of a legal move in `pos`.
    pub fn describe_move(&self, pos: &AnyPosition, mv: &AnyMove) -> MoveInfo {
        let notation = self.format_move(pos, mv);
        match (self, mv) {
            (Compiled::Lines(g), AnyMove::Lines(m)) => {
                let name = |p: u8| {
                    g.rules
                        .board
                        .points
                        .get(p as usize)
                        .map(|p| p.name.clone())
                        .unwrap_or_default()
                };
                let route = m.route();
                let mut captured: Vec<String> = Vec::new();
                if m.huff != crate::lines::NO_POINT {
                    captured.push(name(m.huff));
                }
                captured.extend(m.captured().iter().map(|&p| name(p)));
                MoveInfo {
                    notation,
                    from: (route.len() > 1).then(|| name(route[0])),
                    to: route.last().map(|&p| name(p)),
                    path: route.iter().map(|&p| name(p)).collect(),
                    captured,
                    captured_seeds: None,
                }
            }
            (Compiled::Sowing(g), AnyMove::Sowing(m)) => {
                let (holes, seeds) = match pos {
                    AnyPosition::Sowing(p) => g.captures(p, m),
                    AnyPosition::Lines(_) => (Vec::new(), 0),
                };
                MoveInfo {
                    notation,
                    from: Some(m.hole().to_string()),
                    to: None,
                    path: vec![m.hole().to_string()],
                    captured: holes.iter().map(|h| h.to_string()).collect(),
                    captured_seeds: Some(seeds),
                }
            }
            _ => MoveInfo {
                notation,
                from: None,
                to: None,
                path: vec![],
                captured: vec![],
                captured_seeds: None,
            },
        }
    }

    /// The position as text for a terminal: for points and lines a map of the board (one letter per piece, the
    /// first letter of its kind, capitals for the first side, `.` for an empty point) and the setup line; for
    /// sowing the setup line.
    pub fn diagram(&self, pos: &AnyPosition) -> String {
        match (self, pos) {
            (Compiled::Lines(g), AnyPosition::Lines(p)) => {
                let pts = &g.rules.board.points;
                let (minx, maxx) = pts
                    .iter()
                    .fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.x), b.max(p.x)));
                let (miny, maxy) = pts
                    .iter()
                    .fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.y), b.max(p.y)));
                // Four columns and two rows per unit keep the grid square-ish and separate triangle points.
                let col = |x: f64| ((x - minx) * 4.0).round() as usize;
                let row = |y: f64| ((maxy - y) * 2.0).round() as usize;
                let mut canvas = vec![vec![' '; col(maxx) + 1]; row(miny) + 1];
                for (i, pt) in pts.iter().enumerate() {
                    let c = match (p.side_at(i as u8), p.kind_at(i as u8)) {
                        (Some(s), Some(k)) => {
                            let letter =
                                g.rules.kinds[k as usize].name.chars().next().unwrap_or('?');
                            if s == 0 {
                                letter.to_ascii_uppercase()
                            } else {
                                letter.to_ascii_lowercase()
                            }
                        }
                        _ => '.',
                    };
                    canvas[row(pt.y)][col(pt.x)] = c;
                }
                let mut out: Vec<String> = canvas
                    .into_iter()
                    .map(|r| r.into_iter().collect::<String>().trim_end().to_string())
                    .collect();
                out.retain(|l| !l.is_empty());
                out.push(g.format_position(p));
                out.join("\n")
            }
            _ => self.format_position(pos),
        }
    }

    pub(crate) fn from_sowing(rules: SowingRules) -> Result<Compiled, String> {
        SowingGame::new(rules).map(|g| Compiled::Sowing(Box::new(g)))
    }

    pub fn family(&self) -> Family {
        match self {
            Compiled::Lines(_) => Family::PointsAndLines,
            Compiled::Sowing(_) => Family::Sowing,
        }
    }

    /// The board to draw: points and lines, or for a sowing game its holes (x = column, y = row, no lines).
    pub fn geometry(&self) -> Geometry {
        match self {
            Compiled::Lines(g) => Geometry {
                points: g
                    .rules
                    .board
                    .points
                    .iter()
                    .map(|p| GeometryPoint {
                        name: p.name.clone(),
                        x: p.x,
                        y: p.y,
                    })
                    .collect(),
                lines: g
                    .rules
                    .board
                    .lines
                    .iter()
                    .map(|l| l.iter().map(|&p| p as usize).collect())
                    .collect(),
            },
            Compiled::Sowing(g) => Geometry {
                points: g
                    .holes()
                    .map(|h| GeometryPoint {
                        name: format!("{}{}", if h.owner == 0 { "S" } else { "N" }, h.number),
                        x: h.column as f64,
                        y: h.row as f64,
                    })
                    .collect(),
                lines: vec![],
            },
        }
    }

    /// Facts derived from the compiled rules, for rule summaries on the site.
    pub fn facts(&self) -> Facts {
        match self {
            Compiled::Lines(g) => lines_facts(g),
            Compiled::Sowing(g) => {
                let r = g.rules();
                let holes = 2 * r.holes_per_row as u32;
                let mut move_kinds = vec!["sowing".to_string()];
                if r.relay {
                    move_kinds.push("relay".into());
                }
                if r.singleton_rule {
                    move_kinds.push("singleton".into());
                }
                let mut capture_rules = Vec::new();
                match r.capture {
                    None => capture_rules.push("no captures".to_string()),
                    Some(c) => {
                        capture_rules.push(
                            "last seed in an empty inner hole takes the opposite hole".to_string(),
                        );
                        if c.take_outer {
                            capture_rules.push("and the outer hole of the same file".into());
                        }
                        if c.extra_holes > 0 {
                            capture_rules.push(format!(
                                "and {} more hole(s) chosen by the mover{}",
                                c.extra_holes,
                                if c.extra_always {
                                    ", with every capture"
                                } else {
                                    ""
                                }
                            ));
                        }
                    }
                }
                let end = match r.end {
                    SowingEnd::NoMoveLoses => "a player who cannot move loses",
                    SowingEnd::OpponentEmptyWins => "a player whose side is empty loses",
                };
                Facts {
                    players: 2,
                    points: 4 * r.holes_per_row as usize,
                    pieces_per_side: [holes * r.seeds_per_hole as u32; 2],
                    move_kinds,
                    capture_rules,
                    end_conditions: vec![
                        end.to_string(),
                        format!("drawn after {} plies", r.move_cap),
                        format!("drawn when a sowing reaches {} laps", r.lap_cap),
                    ],
                }
            }
        }
    }

    /// Reads a position in the family's setup syntax (docs/notation.md).
    pub fn parse_position(&self, text: &str) -> Result<AnyPosition, String> {
        match self {
            Compiled::Lines(g) => g.parse_position(text).map(AnyPosition::Lines),
            Compiled::Sowing(g) => g
                .position_from_setup(text)
                .map(AnyPosition::Sowing)
                .map_err(|e| e.to_string()),
        }
    }
}

fn lines_facts(g: &LinesGame) -> Facts {
    let r = &g.rules;
    let mut pieces = [0u32; 2];
    for &(s, _, _) in &r.setup.pieces {
        pieces[s as usize] += 1;
    }
    for (count, hand) in pieces.iter_mut().zip(&r.setup.hand) {
        *count += hand.iter().map(|&h| h as u32).sum::<u32>();
    }
    let mut move_kinds: Vec<String> = Vec::new();
    let mut add = |w: &str| {
        if !move_kinds.iter().any(|m| m == w) {
            move_kinds.push(w.to_string());
        }
    };
    if r.setup.hand.iter().flatten().any(|&h| h > 0) {
        add("placement");
    }
    for k in &r.kinds {
        for m in &k.moves {
            match m {
                MoveRule::Step { .. } => add("step"),
                MoveRule::Slide { .. } => add("slide"),
                MoveRule::Jump { .. } => add("jump"),
                MoveRule::LongJump { .. } => add("long-jump"),
            }
        }
    }
    if !r.promotions.is_empty() {
        add("promotion");
    }
    let mut capture_rules = vec![
        match r.capture {
            CapturePolicy::Compulsory => "capture is compulsory",
            CapturePolicy::Optional => "capture is optional",
            CapturePolicy::Huffing => "capture is compulsory, enforced by huffing",
        }
        .to_string(),
        match r.chain {
            Chain::MustContinue => "a capture chain must continue while it can",
            Chain::MayStop => "a capture chain may stop after any jump",
            Chain::Single => "one capture per turn",
        }
        .to_string(),
    ];
    if r.chain != Chain::Single {
        capture_rules.push(
            if r.turns {
                "a chain may change direction"
            } else {
                "a chain keeps one direction"
            }
            .into(),
        );
    }
    if r.maximum {
        capture_rules.push("the largest capture must be taken".into());
    }
    if !r.promotions.is_empty() {
        capture_rules.push(
            if r.promotion_ends_chain {
                "promotion ends a chain"
            } else {
                "a chain goes on past promotion"
            }
            .into(),
        );
    }
    let mut end_conditions = Vec::new();
    // An end that may differ between sides is said once when both sides share it, side by side when they differ.
    let mut each = |same: bool, say: &dyn Fn(usize) -> Option<String>| {
        for s in 0..if same { 1 } else { 2 } {
            if let Some(t) = say(s) {
                let who = if same { "a side" } else { &r.sides[s].name };
                end_conditions.push(format!("{who} {t}"));
            }
        }
    };
    let goal = r.capture_goal;
    each(goal[0] == goal[1], &|s| {
        goal[s].map(|n| format!("that captures {n} pieces wins"))
    });
    let gone = r.no_pieces_loses;
    each(gone[0] == gone[1], &|s| {
        gone[s].then(|| "with no pieces left loses".into())
    });
    let nm = r.no_move;
    each(nm[0] == nm[1], &|s| {
        Some(format!(
            "that cannot move {}",
            match nm[s] {
                NoMove::Loses => "loses",
                NoMove::Wins => "wins",
                NoMove::Draws => "draws",
                NoMove::Passes => "passes; two passes draw",
            }
        ))
    });
    let rep = r.no_repeat;
    each(rep[0] == rep[1], &|s| {
        rep[s].then(|| "may not bring back an earlier position".into())
    });
    if let Some(n) = r.repetition {
        end_conditions.push(format!("drawn when a position occurs {n} times"));
    }
    if let Some(n) = r.no_progress {
        end_conditions.push(format!(
            "drawn after {n} plies without a capture, placement or promotion"
        ));
    }
    if let Some(n) = r.move_cap {
        end_conditions.push(format!("drawn after {n} plies"));
    }
    Facts {
        players: 2,
        points: r.board.points.len(),
        pieces_per_side: pieces,
        move_kinds,
        capture_rules,
        end_conditions,
    }
}

impl Game for Compiled {
    type Position = AnyPosition;
    type Move = AnyMove;
    type Undo = AnyPosition;

    fn start(&self) -> AnyPosition {
        match self {
            Compiled::Lines(g) => AnyPosition::Lines(g.start()),
            Compiled::Sowing(g) => AnyPosition::Sowing(g.start()),
        }
    }

    fn side_to_move(&self, pos: &AnyPosition) -> Side {
        match pos {
            AnyPosition::Lines(p) => p.to_move,
            AnyPosition::Sowing(p) => p.side_to_move(),
        }
    }

    fn legal_moves(&self, pos: &AnyPosition, out: &mut Vec<AnyMove>) -> Result<(), TooManyMoves> {
        match (self, pos) {
            (Compiled::Lines(g), AnyPosition::Lines(p)) => {
                let mut v = Vec::new();
                g.legal_moves(p, &mut v)?;
                out.extend(v.into_iter().map(AnyMove::Lines));
            }
            (Compiled::Sowing(g), AnyPosition::Sowing(p)) => {
                let mut v = Vec::new();
                g.legal_moves(p, &mut v)?;
                out.extend(v.into_iter().map(AnyMove::Sowing));
            }
            // A position of the other family has no moves in this game.
            _ => {}
        }
        Ok(())
    }

    fn play(&self, pos: &mut AnyPosition, mv: &AnyMove) -> AnyPosition {
        // The whole position is the undo, so the family's own undo is not made.
        let before = pos.clone();
        self.advance(pos, mv);
        before
    }

    fn advance(&self, pos: &mut AnyPosition, mv: &AnyMove) {
        match (self, pos, mv) {
            (Compiled::Lines(g), AnyPosition::Lines(p), AnyMove::Lines(m)) => g.advance(p, m),
            (Compiled::Sowing(g), AnyPosition::Sowing(p), AnyMove::Sowing(m)) => g.advance(p, m),
            _ => {}
        }
    }

    fn undo(&self, pos: &mut AnyPosition, _mv: &AnyMove, undo: AnyPosition) {
        *pos = undo;
    }

    fn outcome(&self, pos: &AnyPosition) -> Option<Outcome> {
        match (self, pos) {
            (Compiled::Lines(g), AnyPosition::Lines(p)) => g.outcome(p),
            (Compiled::Sowing(g), AnyPosition::Sowing(p)) => g.outcome(p),
            _ => None,
        }
    }

    fn format_move(&self, pos: &AnyPosition, mv: &AnyMove) -> String {
        match (self, pos, mv) {
            (Compiled::Lines(g), AnyPosition::Lines(p), AnyMove::Lines(m)) => g.format_move(p, m),
            (Compiled::Sowing(g), AnyPosition::Sowing(p), AnyMove::Sowing(m)) => {
                g.format_move(p, m)
            }
            _ => String::from("?"),
        }
    }

    fn parse_move(&self, pos: &AnyPosition, text: &str) -> Result<AnyMove, MoveError> {
        match (self, pos) {
            (Compiled::Lines(g), AnyPosition::Lines(p)) => {
                g.parse_move(p, text).map(AnyMove::Lines)
            }
            (Compiled::Sowing(g), AnyPosition::Sowing(p)) => {
                g.parse_move(p, text).map(AnyMove::Sowing)
            }
            _ => Err(MoveError::Illegal(
                "the position belongs to another game".into(),
            )),
        }
    }

    fn parse_and_advance(&self, pos: &mut AnyPosition, text: &str) -> Result<AnyMove, MoveError> {
        match (self, pos) {
            (Compiled::Lines(g), AnyPosition::Lines(p)) => {
                g.parse_and_advance(p, text).map(AnyMove::Lines)
            }
            (Compiled::Sowing(g), AnyPosition::Sowing(p)) => {
                g.parse_and_advance(p, text).map(AnyMove::Sowing)
            }
            _ => Err(MoveError::Illegal(
                "the position belongs to another game".into(),
            )),
        }
    }

    fn evaluate(&self, pos: &AnyPosition) -> i32 {
        match (self, pos) {
            (Compiled::Lines(g), AnyPosition::Lines(p)) => g.evaluate(p),
            (Compiled::Sowing(g), AnyPosition::Sowing(p)) => g.evaluate(p),
            _ => 0,
        }
    }

    fn parse_position(&self, text: &str) -> Result<AnyPosition, String> {
        Compiled::parse_position(self, text)
    }

    fn format_position(&self, pos: &AnyPosition) -> String {
        match (self, pos) {
            (Compiled::Lines(g), AnyPosition::Lines(p)) => g.format_position(p),
            (Compiled::Sowing(g), AnyPosition::Sowing(p)) => g.setup_to_string(p),
            _ => String::new(),
        }
    }
}
