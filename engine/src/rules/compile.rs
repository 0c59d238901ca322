//! From statements to compiled rules. Each statement is checked where it stands, so every error points at the
//! word that is wrong, and a statement in error is skipped rather than ending the compilation, so every error of
//! a file is found in one run.

use super::error::{ErrorKind, Pos, RulesError};
use super::syntax::{Item, Line, Token, TokenKind};
use super::word_at;
use crate::Compiled;
use crate::board::{Board, Compass, Diagonals, MAX_POINTS, Refusal, Refused};
use crate::game::{Game, MAX_MOVES};
use crate::lines::LinesGame;
use crate::lines::rules::{
    CapturePolicy, Chain, KindDef, LinesRules, MAX_KINDS, MoveRule, NoMove, Promotion, Setup,
    SideDef, dirs,
};
use crate::sowing::{SowingCapture, SowingEnd, SowingRules};
use crate::suggest::{self, help_with};

/// Reads the tokens of one statement after its keyword.
struct Cur<'a> {
    line: &'a Line,
    i: usize,
}

impl<'a> Cur<'a> {
    fn new(line: &'a Line) -> Cur<'a> {
        Cur { line, i: 1 }
    }

    fn peek(&self) -> Option<&'a Token> {
        self.line.tokens.get(self.i)
    }

    fn pos(&self) -> Pos {
        self.peek().map(|t| t.pos).unwrap_or(self.line.end)
    }

    fn at_end(&self) -> bool {
        self.i >= self.line.tokens.len()
    }

    fn word(&mut self, what: &str, help: &str) -> Result<(&'a str, Pos), RulesError> {
        match self.peek() {
            Some(t) => match t.word() {
                Some(w) => {
                    self.i += 1;
                    Ok((w, t.pos))
                }
                None => Err(RulesError::new(
                    t.pos,
                    format!("expected {what}, found {}", t.show()),
                    help,
                )),
            },
            None => Err(RulesError::new(
                self.line.end,
                format!("{what} is missing"),
                help,
            )),
        }
    }

    fn number<T: std::str::FromStr>(
        &mut self,
        what: &str,
        help: &str,
    ) -> Result<(T, Pos), RulesError> {
        let (w, pos) = self.word(what, help)?;
        w.parse::<T>()
            .map(|n| (n, pos))
            .map_err(|_| RulesError::new(pos, format!("expected {what}, found `{w}`"), help))
    }

    fn eat(&mut self, w: &str) -> bool {
        if self.peek().is_some_and(|t| t.is_word(w)) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn eat_punct(&mut self, c: char) -> bool {
        if self.peek().is_some_and(|t| t.is_punct(c)) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, w: &str, help: &str) -> Result<(), RulesError> {
        if self.eat(w) {
            Ok(())
        } else {
            match self.peek() {
                Some(t) => Err(RulesError::new(
                    t.pos,
                    format!("expected `{w}`, found {}", t.show()),
                    help,
                )),
                None => Err(RulesError::new(
                    self.line.end,
                    format!("`{w}` is missing"),
                    help,
                )),
            }
        }
    }

    fn title(&mut self) -> Option<String> {
        if let Some(TokenKind::Str(s)) = self.peek().map(|t| &t.kind) {
            self.i += 1;
            Some(s.clone())
        } else {
            None
        }
    }

    fn done(&self, help: &str) -> Result<(), RulesError> {
        match self.peek() {
            Some(t) => Err(RulesError::new(
                t.pos,
                format!("unexpected {}", t.show()),
                help,
            )),
            None => Ok(()),
        }
    }
}

fn stmt_only<'a>(item: &'a Item, help: &str) -> Result<&'a Line, RulesError> {
    match item {
        Item::Stmt(l) => Ok(l),
        Item::Block { head, .. } => Err(RulesError::new(
            head.pos(),
            format!("`{}` cannot be a block here", head.keyword()),
            help,
        )),
    }
}

/// Where a compilation is: the file's header (the `game` line, where a missing top-level statement belongs) and
/// the problems found so far. Each statement is compiled on its own, and a statement in error is recorded and
/// skipped, so that one run reports every problem of a file.
pub struct Ctx<'e> {
    pub header: Pos,
    pub errors: &'e mut Vec<RulesError>,
    /// Build the tables that make random games fast (see `LinesGame::for_replay`).
    pub playout_tables: bool,
}

impl Ctx<'_> {
    /// Records the error of a statement, if any; the statement is then skipped. An error that only follows from
    /// one already reported (a kind whose own statement is in error) is not recorded.
    fn keep<T>(&mut self, result: Result<T, RulesError>) -> Option<T> {
        match result {
            Ok(v) => Some(v),
            Err(e) => {
                if !e.message.is_empty() {
                    self.errors.push(e);
                }
                None
            }
        }
    }

    fn missing(&mut self, at: Pos, message: impl Into<String>, help: impl Into<String>) {
        self.errors
            .push(RulesError::new(at, message, help).of_kind(ErrorKind::Missing));
    }
}

pub fn compile(game: &str, items: &[(String, &Item)], cx: &mut Ctx) -> Option<Compiled> {
    if items.iter().any(|(k, _)| k.starts_with("sowing")) {
        if let Some((_, item)) = items.iter().find(|(k, _)| k == "board") {
            cx.errors.push(RulesError::new(
                item.head().pos(),
                "a rules file has either a `board` (points and lines) or a `sowing` block, not both",
                "keep the block that matches the game's family",
            ));
            return None;
        }
        let spec = sowing(items, cx)?;
        let at = items
            .iter()
            .find(|(k, _)| k.starts_with("sowing"))
            .map(|(_, i)| i.head().pos())
            .unwrap_or(cx.header);
        return cx
            .keep(Compiled::from_sowing(spec).map_err(|m| RulesError::new(at, m, SOWING_HELP)));
    }
    let rules = lines(game, items, cx)?;
    let compiled = if cx.playout_tables {
        LinesGame::new(rules)
    } else {
        LinesGame::for_replay(rules)
    };
    // Capture chains can multiply beyond any bound (every landing point of a flying capture that may stop
    // anywhere doubles them), and no static test tells such rules from real ones: list the start position's
    // moves once, so that rules whose very first turn the engine cannot list are refused here, where the
    // author sees it, and not in a reader's browser.
    let mut moves = Vec::new();
    if compiled.legal_moves(&compiled.start(), &mut moves).is_err() {
        let at = items
            .iter()
            .find(|(k, _)| k == "setup")
            .map(|(_, i)| i.head().pos())
            .unwrap_or(cx.header);
        cx.errors.push(RulesError::new(
            at,
            format!(
                "the rules cannot be played: the start position has more than {MAX_MOVES} legal moves, \
                 more than the engine lists"
            ),
            "capture chains multiply with every landing point: use `chain must-continue` or `chain single`, \
             fewer flying captures (`long-jump`), or a setup with fewer pieces in reach",
        ));
        return None;
    }
    Some(Compiled::Lines(Box::new(compiled)))
}

const GRID_HELP: &str = "write `grid 5 x 5`, optionally followed by `diagonals alquerque`, `diagonals all` or `diagonals none`";
const TRIANGLE_HELP: &str =
    "write `triangle at c5 toward north`, optionally with `depth 2` and `names N`";
const POINT_HELP: &str = "write `point NAME at X Y`, e.g. `point k1 at 0 2.5`";
const REGION_HELP: &str = "write `region NAME: POINT POINT ...`, e.g. `region far: E4 E5 E6`";
const DIRECTIONS: [&str; 8] = [
    "north",
    "north-east",
    "east",
    "south-east",
    "south",
    "south-west",
    "west",
    "north-west",
];
const DIRECTION_HELP: &str =
    "directions are north, north-east, east, south-east, south, south-west, west, north-west";

/// A name that names nothing, with the closest known name when one is close.
fn unknown<'a>(
    pos: Pos,
    message: String,
    name: &str,
    known: impl IntoIterator<Item = &'a str>,
    help: &str,
) -> RulesError {
    RulesError::new(pos, message, help_with(name, known, help)).of_kind(ErrorKind::UnknownName)
}

/// A word that is not one of the words allowed here, with the closest when one is close.
fn not_one_of(pos: Pos, message: String, word: &str, allowed: &[&str], help: &str) -> RulesError {
    RulesError::new(pos, message, help_with(word, allowed.iter().copied(), help))
}

/// The farthest a point may stand from the origin along either axis. Boards are drawn at a scale fitted to their
/// span, so a point at `1e300` (or `inf`, which reads as a number) would leave every other point at one spot of
/// the picture, or ask the text drawing for gigabytes; real boards span tens of units.
const MAX_COORDINATE: f64 = 1000.0;

/// A point's coordinate `axis` as written, refused where it is written when it is not a number within reach.
/// The message quotes the text rather than formatting the number, which would bring the float formatter into
/// the page's WebAssembly for one message.
fn coordinate((word, pos): (&str, Pos), axis: &str) -> Result<f64, RulesError> {
    match word.parse::<f64>() {
        Ok(value) if value.is_finite() && value.abs() <= MAX_COORDINATE => Ok(value),
        Ok(_) => Err(RulesError::new(
            pos,
            format!("a coordinate is a number from -1000 to 1000, not `{word}`"),
            "place the points within a few tens of units of each other: `point a at 0 0`, `point b at 2 1`",
        )),
        Err(_) => Err(RulesError::new(
            pos,
            format!("expected the {axis} coordinate, found `{word}`"),
            POINT_HELP,
        )),
    }
}

/// Point names must read unambiguously in move notation, where `x` and `-` separate points.
fn notation_safe(name: &str) -> bool {
    !name.contains('x') && !name.contains('-')
}

fn safe_prefix((p, pos): (&str, Pos)) -> Result<String, RulesError> {
    if notation_safe(p) {
        Ok(p.to_string())
    } else {
        Err(RulesError::new(
            pos,
            format!("`{p}` cannot start point names"),
            "a prefix contains no `x` or `-`, which mark captures and steps in notation",
        ))
    }
}

/// A board as it is being built: its points and lines, where each point was declared (for geometry problems),
/// and how its points are named, statement by statement, for the help of an unknown point.
#[derive(Default)]
struct BoardBuild {
    board: Board,
    declared: Vec<Pos>,
    naming: Vec<String>,
}

impl BoardBuild {
    fn declare_new(&mut self, at: Pos) {
        while self.declared.len() < self.board.points.len() {
            self.declared.push(at);
        }
    }
}

/// What the points of a board are called, for the help of an unknown point: the board's own names, by the
/// statements that made them.
fn naming_help(naming: &[String]) -> String {
    if naming.is_empty() {
        "the board has no points yet: a `grid`, `triangle`, `star` or `point` statement makes them"
            .to_string()
    } else {
        format!("this board's points are {}", naming.join("; "))
    }
}

fn point_of(b: &BoardBuild, name: &str, pos: Pos) -> Result<u8, RulesError> {
    b.board.find(name).ok_or_else(|| {
        let names = b.board.points.iter().map(|p| p.name.as_str());
        let help = naming_help(&b.naming);
        let help = match suggest::closest(name, names) {
            Some(close) if close.eq_ignore_ascii_case(name) => {
                format!("did you mean `{close}`? point names are case-sensitive")
            }
            Some(close) => format!("did you mean `{close}`? {help}"),
            None => help,
        };
        RulesError::new(pos, format!("the board has no point named `{name}`"), help)
            .of_kind(ErrorKind::UnknownName)
    })
}

/// A point or a region, for statements that take either.
fn points_of(b: &BoardBuild, name: &str, pos: Pos) -> Result<u128, RulesError> {
    match b.board.region(name) {
        Some(r) => Ok(r),
        None => point_of(b, name, pos).map(|p| 1u128 << p),
    }
}

fn region_of(board: &Board, name: &str, pos: Pos, help: &str) -> Result<u128, RulesError> {
    board.region(name).ok_or_else(|| {
        unknown(
            pos,
            format!("no region named `{name}`"),
            name,
            board.regions.iter().map(|(n, _)| n.as_str()),
            help,
        )
    })
}

fn region_stmt(b: &mut BoardBuild, line: &Line) -> Result<(), RulesError> {
    let mut c = Cur::new(line);
    let (name, npos) = c.word("a region name", REGION_HELP)?;
    // A region's name stands for its points wherever a point may be named, so it must name nothing else: a
    // region `b2` would hide the point b2, and a second region `S` would replace a triangle's own.
    if b.board.find(name).is_some() {
        return Err(RulesError::new(
            npos,
            format!("`{name}` names a point; a region needs a name of its own"),
            REGION_HELP,
        ));
    }
    if b.board.regions.iter().any(|(n, _)| n == name) {
        return Err(RulesError::new(
            npos,
            format!("a region named `{name}` already exists on this board"),
            "give this region another name (a triangle names its own region after its direction: N, NE, ...)",
        ));
    }
    if !c.eat_punct(':') {
        return Err(RulesError::new(
            c.pos(),
            "expected `:` after the region name",
            REGION_HELP,
        ));
    }
    let mut set = 0u128;
    while !c.at_end() {
        let (p, pos) = c.word("a point name", REGION_HELP)?;
        set |= points_of(b, p, pos)?;
    }
    if set == 0 {
        return Err(RulesError::new(
            c.pos(),
            "the region has no points",
            REGION_HELP,
        ));
    }
    b.board.add_region(name, set);
    Ok(())
}

const BOARD_STATEMENTS: [&str; 6] = ["grid", "triangle", "star", "point", "line", "region"];

/// The points from `first` on, by name, shortened to the first and last when there are many.
fn name_range(board: &Board, first: usize) -> String {
    let names: Vec<&str> = board.points[first..]
        .iter()
        .map(|p| p.name.as_str())
        .collect();
    match names.as_slice() {
        [] => String::new(),
        [one] => format!("`{one}`"),
        [a, b] => format!("`{a}` `{b}`"),
        [a, .., z] => format!("`{a}`..`{z}`"),
    }
}

/// The help for a point the board refused, for its name, its place or the board's size: the statement was
/// written right, so the help says what to change rather than how to write it (`form`).
fn refused_help(why: Refusal, form: &str, rename: &str, room: usize) -> String {
    match why {
        Refusal::Name => rename.to_string(),
        Refusal::Place => {
            "two points cannot stand on one spot: give this one other coordinates".to_string()
        }
        Refusal::Full => format!(
            "the board has room for {room} more of its {MAX_POINTS} points: make fewer points here (a \
             triangle of smaller `depth`) or fewer elsewhere"
        ),
        Refusal::Shape => form.to_string(),
    }
}

/// The help for a grid too large for the board: grids of the same width or height that fit, and the largest
/// square one.
fn grid_that_fits(w: usize, h: usize, room: usize) -> String {
    let mut fits = Vec::new();
    let tall = (room / w).min(26);
    if tall >= 2 {
        fits.push(format!("`grid {w} x {tall}`"));
    }
    let wide = (room / h).min(23);
    if wide >= 2 && wide != w {
        fits.push(format!("`grid {wide} x {h}`"));
    }
    let square = (2..=23).rev().find(|s| s * s <= room);
    if let Some(s) = square.filter(|&s| s != w && s != h) {
        fits.push(format!("`grid {s} x {s}`"));
    }
    if fits.is_empty() {
        "the board has no room left for a grid: declare the grid first, and fewer other points"
            .to_string()
    } else {
        format!("a grid that fits: {}", fits.join(", "))
    }
}

/// One statement of a `board` block.
fn board_stmt(b: &mut BoardBuild, line: &Line) -> Result<(), RulesError> {
    let mut c = Cur::new(line);
    let first = b.board.points.len();
    let room = MAX_POINTS - b.board.points.len();
    let err = |form: &'static str, rename: &'static str| {
        move |r: Refused| {
            let help = refused_help(r.why, form, rename, room);
            RulesError::new(line.pos(), r.message, help)
        }
    };
    const GENERATED_NAME: &str =
        "choose a name prefix that no point or region starts with, with `names P` (e.g. `names T`)";
    match line.keyword() {
        "grid" => {
            let (w, _) = c.number::<usize>("the grid's width", GRID_HELP)?;
            c.expect("x", GRID_HELP)?;
            let (h, _) = c.number::<usize>("the grid's height", GRID_HELP)?;
            let mut d = Diagonals::None;
            if c.eat("diagonals") {
                let (kind, pos) = c.word("the diagonal pattern", GRID_HELP)?;
                d = match kind {
                    "alquerque" => Diagonals::Alquerque,
                    "all" => Diagonals::All,
                    "none" => Diagonals::None,
                    _ => {
                        return Err(not_one_of(
                            pos,
                            format!("`{kind}` is not a diagonal pattern"),
                            kind,
                            &["alquerque", "all", "none"],
                            GRID_HELP,
                        ));
                    }
                };
            }
            c.done(GRID_HELP)?;
            if (2..=23).contains(&w) && (2..=26).contains(&h) && w * h > room {
                return Err(RulesError::new(
                    line.pos(),
                    format!(
                        "a {w} x {h} grid has {} points: a board holds at most {MAX_POINTS} points{}",
                        w * h,
                        if room < MAX_POINTS {
                            format!(", and {} are already declared", MAX_POINTS - room)
                        } else {
                            String::new()
                        }
                    ),
                    grid_that_fits(w, h, room),
                ));
            }
            b.board.grid(w, h, d).map_err(err(
                GRID_HELP,
                "a grid names its points `a1`, `b1`, ...: rename the point or region declared before it",
            ))?;
            b.naming.push(format!(
                "the grid's {} (file letter from the west, rank number from the south)",
                name_range(&b.board, first)
            ));
        }
        "triangle" => {
            c.expect("at", TRIANGLE_HELP)?;
            let (apex, apos) = c.word("the apex point", TRIANGLE_HELP)?;
            let apex = point_of(b, apex, apos)?;
            c.expect("toward", TRIANGLE_HELP)?;
            let (dir, dpos) = c.word("a direction", TRIANGLE_HELP)?;
            let dir = Compass::parse(dir).ok_or_else(|| {
                not_one_of(
                    dpos,
                    format!("`{dir}` is not a direction"),
                    dir,
                    &DIRECTIONS,
                    DIRECTION_HELP,
                )
            })?;
            let mut depth = 2;
            let mut prefix = dir.prefix().to_string();
            while !c.at_end() {
                if c.eat("depth") {
                    depth = c.number::<usize>("the number of rows", TRIANGLE_HELP)?.0;
                } else if c.eat("names") {
                    prefix = safe_prefix(c.word("a name prefix", TRIANGLE_HELP)?)?;
                } else {
                    c.done(TRIANGLE_HELP)?;
                }
            }
            b.board
                .triangle(apex, dir, depth, &prefix)
                .map_err(err(TRIANGLE_HELP, GENERATED_NAME))?;
            b.naming.push(format!(
                "the {} triangle's {} (row by row from the apex)",
                DIRECTIONS[dir as usize],
                name_range(&b.board, first)
            ));
        }
        "star" => {
            let help = "write `star` or `star names k`";
            let mut prefix = "k".to_string();
            if c.eat("names") {
                prefix = safe_prefix(c.word("a name prefix", help)?)?;
            }
            c.done(help)?;
            b.board.star(&prefix).map_err(err(help, GENERATED_NAME))?;
            b.naming.push(format!(
                "the star's tips `{prefix}1`..`{prefix}5` and crossings `{prefix}6`..`{prefix}10` \
                 (drawn in docs/rules-format.md)"
            ));
        }
        "point" => {
            let (name, npos) = c.word("the point's name", POINT_HELP)?;
            if !notation_safe(name) || name.parse::<f64>().is_ok() || name == "pass" {
                return Err(RulesError::new(
                    npos,
                    format!("`{name}` cannot name a point"),
                    "point names contain no `x` or `-` (they mark captures and steps in notation) and are not numbers",
                ));
            }
            c.expect("at", POINT_HELP)?;
            let x = coordinate(c.word("the x coordinate", POINT_HELP)?, "x")?;
            let y = coordinate(c.word("the y coordinate", POINT_HELP)?, "y")?;
            c.done(POINT_HELP)?;
            b.board.add_point(name, x, y).map_err(|r| {
                let help = refused_help(
                    r.why,
                    POINT_HELP,
                    "give the point a name that no other point or region has",
                    room,
                );
                RulesError::new(npos, r.message, help)
            })?;
            b.declare_new(npos);
            match b.naming.last_mut() {
                Some(last) if last.starts_with("the points ") => {
                    last.push_str(&format!(" `{name}`"))
                }
                _ => b.naming.push(format!("the points `{name}`")),
            }
        }
        "line" => {
            let mut pts = Vec::new();
            while !c.at_end() {
                let (p, pos) = c.word("a point name", "write `line POINT POINT ...`")?;
                let id = point_of(b, p, pos)?;
                if pts.contains(&id) {
                    return Err(RulesError::new(
                        pos,
                        format!("`{p}` appears twice on this line"),
                        "a line passes each point once",
                    ));
                }
                pts.push(id);
            }
            if pts.len() < 2 {
                return Err(RulesError::new(
                    line.pos(),
                    "a line needs at least two points",
                    "write `line POINT POINT ...`",
                ));
            }
            b.board.add_line(pts);
        }
        "region" => region_stmt(b, line)?,
        other => {
            return Err(not_one_of(
                line.pos(),
                format!("`{other}` is not a board statement"),
                other,
                &BOARD_STATEMENTS,
                "a board is made of `grid`, `triangle`, `star`, `point`, `line` and `region` statements",
            ));
        }
    }
    b.declare_new(line.pos());
    Ok(())
}

fn board(block: &Item, cx: &mut Ctx) -> Option<BoardBuild> {
    let Item::Block { items, .. } = block else {
        cx.errors.push(RulesError::new(
            block.head().pos(),
            "`board` opens a block",
            "write `board` alone on its line, the board's statements below, then `end`",
        ));
        return None;
    };
    let mut b = BoardBuild::default();
    let before = cx.errors.len();
    for item in items {
        let r = stmt_only(item, "a board holds statements only")
            .and_then(|line| board_stmt(&mut b, line));
        cx.keep(r);
    }
    if b.board.points.is_empty() {
        if cx.errors.len() == before {
            cx.errors.push(RulesError::new(
                block.head().pos(),
                "the board has no points",
                "add a `grid`, a `star` or `point` statements",
            ));
        }
        return None;
    }
    // Only a board read whole is worth a look at its shape: a statement in error may have left out its lines.
    if cx.errors.len() == before {
        geometry(&b, cx);
    }
    Some(b)
}

/// The shape of a board: every point on some line, and every part of the board joined to the rest. A point on
/// no line, or a part no line reaches, is never a board of a real game but a slip (a line forgotten, a name
/// misspelt in one), and a piece standing there could never move.
fn geometry(b: &BoardBuild, cx: &mut Ctx) {
    let board = &b.board;
    let neighbours = board.neighbours();
    let nearest = |i: usize| -> Option<&str> {
        let p = &board.points[i];
        board
            .points
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != i)
            .min_by(|(_, a), (_, c)| {
                let d = |q: &crate::board::Point| (q.x - p.x).powi(2) + (q.y - p.y).powi(2);
                d(a).total_cmp(&d(c))
            })
            .map(|(_, q)| q.name.as_str())
    };
    for (i, p) in board.points.iter().enumerate() {
        if neighbours[i].is_empty() {
            let help = match nearest(i) {
                Some(q) => format!(
                    "join it to the board with a line, e.g. `line {} {q}`, or remove the point",
                    p.name
                ),
                None => "a board needs lines: add `line POINT POINT ...`".to_string(),
            };
            cx.errors.push(
                RulesError::new(
                    b.declared[i],
                    format!(
                        "point `{}` lies on no line: a piece there could never move",
                        p.name
                    ),
                    help,
                )
                .of_kind(ErrorKind::PointOnNoLine),
            );
        }
    }
    // The parts of the board that lines join, the largest (or first) taken as the board itself.
    let mut part = vec![usize::MAX; board.points.len()];
    let mut parts: Vec<Vec<usize>> = Vec::new();
    for start in 0..board.points.len() {
        if part[start] != usize::MAX || neighbours[start].is_empty() {
            continue;
        }
        let mut members = vec![start];
        part[start] = parts.len();
        let mut k = 0;
        while k < members.len() {
            for &q in &neighbours[members[k]] {
                if part[q as usize] == usize::MAX {
                    part[q as usize] = parts.len();
                    members.push(q as usize);
                }
            }
            k += 1;
        }
        parts.push(members);
    }
    let Some(main) = (0..parts.len()).max_by_key(|&i| (parts[i].len(), usize::MAX - i)) else {
        return;
    };
    for (i, members) in parts.iter().enumerate() {
        if i == main {
            continue;
        }
        let names: Vec<String> = members
            .iter()
            .take(6)
            .map(|&m| format!("`{}`", board.points[m].name))
            .collect();
        let more = if members.len() > 6 { " ..." } else { "" };
        let first = *members.iter().min().unwrap_or(&members[0]);
        let anchor = &board.points[parts[main][0]].name;
        cx.errors.push(
            RulesError::new(
                b.declared[first],
                format!(
                    "{}{more} {} cut off from the rest of the board: no line joins {} to `{anchor}`",
                    names.join(" "),
                    if members.len() == 1 { "is" } else { "are" },
                    if members.len() == 1 { "it" } else { "them" },
                ),
                "add a line from this part to a point of the board, or remove it",
            )
            .of_kind(ErrorKind::Disconnected),
        );
    }
}

const SIDE_HELP: &str = "write `side NAME \"Title\"`, optionally followed by `forward DIRECTION`, one of north, north-east, east, south-east, south, south-west, west, north-west (default: north for the first side, south for the second)";
const PIECE_HELP: &str = "write `piece NAME \"Title\": MOVE, MOVE`, where a MOVE is `step`, `slide [N]`, `jump` or `long-jump`, each optionally followed by directions (`forward`, `sideways`, `backward`), `within REGION` (steps and slides only) and `into REGION` (all but `long-jump`)";
const PROMOTE_HELP: &str = "write `promote KIND to KIND for SIDE on REGION`";
const SETUP_HELP: &str =
    "a setup holds `SIDE: KIND on POINT POINT ...`, `SIDE: COUNT KIND in hand` and `first SIDE`";

const STATEMENTS: [&str; 16] = [
    "game",
    "board",
    "side",
    "piece",
    "region",
    "promote",
    "setup",
    "capture",
    "chain",
    "chain-turns",
    "capture-choice",
    "promotion",
    "repetition",
    "outcome",
    "ruleset",
    "sowing",
];
const MOVES: [&str; 4] = ["step", "slide", "jump", "long-jump"];
const MOVE_WORDS: [&str; 6] = ["forward", "sideways", "backward", "any", "within", "into"];

fn side_stmt(line: &Line, first: bool) -> Result<SideDef, RulesError> {
    let mut c = Cur::new(line);
    let (name, _) = c.word("the side's name", SIDE_HELP)?;
    let title = c.title().unwrap_or_else(|| name.to_string());
    let mut forward = if first { (0.0, 1.0) } else { (0.0, -1.0) };
    if c.eat("forward") {
        let (d, pos) = c.word("a direction", SIDE_HELP)?;
        let v = Compass::parse(d)
            .ok_or_else(|| {
                not_one_of(
                    pos,
                    format!("`{d}` is not a direction"),
                    d,
                    &DIRECTIONS,
                    SIDE_HELP,
                )
            })?
            .vector();
        let len = (v.0 * v.0 + v.1 * v.1).sqrt();
        forward = (v.0 / len, v.1 / len);
    }
    c.done(SIDE_HELP)?;
    Ok(SideDef {
        name: name.to_string(),
        title,
        forward,
    })
}

fn piece_stmt(b: &Board, line: &Line) -> Result<KindDef, RulesError> {
    let mut c = Cur::new(line);
    let (name, _) = c.word("the kind's name", PIECE_HELP)?;
    let title = c.title().unwrap_or_else(|| name.to_string());
    if !c.eat_punct(':') {
        return Err(RulesError::new(
            c.pos(),
            "expected `:` before the piece's moves",
            PIECE_HELP,
        ));
    }
    let mut moves = Vec::new();
    loop {
        let (m, mpos) = c.word("a kind of move", PIECE_HELP)?;
        let mut max = 0u8;
        if m == "slide"
            && c.peek()
                .and_then(|t| t.word())
                .is_some_and(|w| w.parse::<u8>().is_ok())
        {
            max = c.number::<u8>("a distance", PIECE_HELP)?.0;
        }
        let mut d = 0u8;
        let (mut within, mut into) = (None, None);
        loop {
            if c.eat("forward") {
                d |= dirs::FORWARD;
            } else if c.eat("sideways") {
                d |= dirs::SIDEWAYS;
            } else if c.eat("backward") {
                d |= dirs::BACKWARD;
            } else if c.eat("any") {
                d |= dirs::ALL;
            } else if let Some(limit) = [("within", &mut within), ("into", &mut into)]
                .into_iter()
                .find_map(|(w, slot)| c.eat(w).then_some(slot))
            {
                let (r, rpos) = c.word("a region name", PIECE_HELP)?;
                *limit = Some(region_of(
                    b,
                    r,
                    rpos,
                    "define it with `region NAME: POINTS`; each triangle is a region named by its prefix, and `triangles` joins them all",
                )?);
            } else {
                break;
            }
        }
        if d == 0 {
            d = dirs::ALL;
        }
        let rule = match m {
            "step" => MoveRule::Step {
                dirs: d,
                within,
                into,
            },
            "long-jump" if into.is_some() => {
                return Err(RulesError::new(
                    mpos,
                    "a flying capture cannot be limited by where it lands",
                    PIECE_HELP,
                ));
            }
            "slide" => MoveRule::Slide {
                max,
                dirs: d,
                within,
                into,
            },
            "jump" | "long-jump" if within.is_some() => {
                return Err(RulesError::new(
                    mpos,
                    "captures cannot be limited to a region",
                    PIECE_HELP,
                ));
            }
            "jump" => MoveRule::Jump { dirs: d, into },
            "long-jump" => MoveRule::LongJump { dirs: d },
            _ => {
                return Err(not_one_of(
                    mpos,
                    format!("`{m}` is not a kind of move"),
                    m,
                    &MOVES,
                    PIECE_HELP,
                ));
            }
        };
        moves.push(rule);
        if c.at_end() {
            break;
        }
        if !c.eat_punct(',') {
            return Err(match c.peek() {
                // A misspelt direction reads as a stray word after the move.
                Some(t) if t.word().is_some() => {
                    let w = t.word().unwrap_or_default();
                    not_one_of(
                        t.pos,
                        format!("`{w}` is not a direction, `within` or `into`"),
                        w,
                        &MOVE_WORDS,
                        PIECE_HELP,
                    )
                }
                t => RulesError::new(
                    c.pos(),
                    format!("unexpected {}", t.map(|t| t.show()).unwrap_or_default()),
                    PIECE_HELP,
                ),
            });
        }
    }
    Ok(KindDef {
        name: name.to_string(),
        title,
        moves,
    })
}

fn lines(game: &str, items: &[(String, &Item)], cx: &mut Ctx) -> Option<LinesRules> {
    let header = cx.header;
    let Some((_, board_item)) = items.iter().find(|(k, _)| k == "board") else {
        cx.missing(
            header,
            "the rules have no board",
            "add a `board` block (or a `sowing` block for a sowing game) to the file",
        );
        return None;
    };
    let board_ok = cx.errors.len();
    let mut b = board(board_item, cx);
    let board_ok = b.is_some() && cx.errors.len() == board_ok;
    let mut bb = b.take().unwrap_or_default();
    for (k, item) in items {
        if k.starts_with("region ") {
            let r = stmt_only(item, REGION_HELP).and_then(|line| region_stmt(&mut bb, line));
            // Without the board, every point would be unknown: say nothing rather than something wrong.
            if board_ok {
                cx.keep(r);
            }
        }
    }
    // Sides. The names of sides and kinds whose statements are in error: their uses are not errors of their own.
    let mut broken: Vec<String> = Vec::new();
    let mut sides: Vec<SideDef> = Vec::new();
    let mut sides_ok = true;
    for (k, item) in items {
        if !k.starts_with("side ") {
            continue;
        }
        let r = stmt_only(item, SIDE_HELP).and_then(|line| {
            let side = side_stmt(line, sides.is_empty())?;
            if sides.len() == 2 {
                return Err(RulesError::new(
                    line.pos(),
                    "a game has two sides",
                    "remove this side: the engine plays two-player games",
                ));
            }
            Ok(side)
        });
        match cx.keep(r) {
            Some(side) => sides.push(side),
            None => {
                sides_ok = false;
                broken.push(word_at(item.head(), 1));
            }
        }
    }
    if sides.len() < 2 && sides_ok {
        cx.missing(
            header,
            format!("the rules declare {} side(s), not two", sides.len()),
            format!("{SIDE_HELP}, once for each side"),
        );
    }
    // Piece kinds.
    let mut kinds: Vec<KindDef> = Vec::new();
    let mut kinds_ok = true;
    for (k, item) in items {
        if !k.starts_with("piece ") {
            continue;
        }
        let r = stmt_only(item, PIECE_HELP).and_then(|line| {
            let kind = piece_stmt(&bb.board, line)?;
            if kinds.len() == MAX_KINDS {
                return Err(RulesError::new(
                    line.tokens.get(1).map_or(line.pos(), |t| t.pos),
                    format!("at most {MAX_KINDS} piece kinds"),
                    "merge kinds that move alike",
                ));
            }
            Ok(kind)
        });
        match cx.keep(r) {
            Some(kind) => kinds.push(kind),
            None => {
                kinds_ok = false;
                broken.push(word_at(item.head(), 1));
            }
        }
    }
    if kinds.is_empty() && kinds_ok {
        cx.missing(header, "the rules declare no piece kind", PIECE_HELP);
    }
    let side_names: Vec<&str> = sides.iter().map(|s| s.name.as_str()).collect();
    let follow_on = |name: &str| broken.iter().any(|b| b == name);
    let side_of = |name: &str, pos: Pos| -> Result<u8, RulesError> {
        if follow_on(name) {
            return Err(RulesError::new(pos, "", ""));
        }
        find_side(&side_names, name, pos)
    };
    let kind_names: Vec<&str> = kinds.iter().map(|k| k.name.as_str()).collect();
    let kind_of = |name: &str, pos: Pos| -> Result<u8, RulesError> {
        if follow_on(name) {
            return Err(RulesError::new(pos, "", ""));
        }
        kind_names
            .iter()
            .position(|k| *k == name)
            .map(|i| i as u8)
            .ok_or_else(|| {
                unknown(
                    pos,
                    format!("no piece kind named `{name}`"),
                    name,
                    kind_names.iter().copied(),
                    &format!("the kinds are: {}", kind_names.join(", ")),
                )
            })
    };
    // Promotions.
    let mut promotions = Vec::new();
    for (k, item) in items {
        if !k.starts_with("promote ") {
            continue;
        }
        let r = stmt_only(item, PROMOTE_HELP).and_then(|line| {
            let mut c = Cur::new(line);
            let (from, fpos) = c.word("the kind promoted", PROMOTE_HELP)?;
            let from = kind_of(from, fpos)?;
            c.expect("to", PROMOTE_HELP)?;
            let (to, tpos) = c.word("the kind it becomes", PROMOTE_HELP)?;
            let to = kind_of(to, tpos)?;
            c.expect("for", PROMOTE_HELP)?;
            let (side, spos) = c.word("a side", PROMOTE_HELP)?;
            let side = side_of(side, spos)?;
            c.expect("on", PROMOTE_HELP)?;
            let (r, rpos) = c.word("a region", PROMOTE_HELP)?;
            let region = region_of(&bb.board, r, rpos, REGION_HELP)?;
            c.done(PROMOTE_HELP)?;
            Ok(Promotion {
                from,
                to,
                side,
                region,
            })
        });
        if let Some(p) = cx.keep(r) {
            promotions.push(p);
        }
    }
    // Setup.
    let setup = match items.iter().find(|(k, _)| k == "setup") {
        None => {
            cx.missing(
                header,
                "the rules have no setup",
                "add a `setup` block saying where the pieces start and who moves first",
            );
            None
        }
        Some((_, Item::Stmt(line))) => {
            cx.errors.push(RulesError::new(
                line.pos(),
                "`setup` opens a block",
                SETUP_HELP,
            ));
            None
        }
        Some((
            _,
            Item::Block {
                items: setup_items,
                close,
                ..
            },
        )) => {
            let mut setup = Setup::default();
            let mut taken = 0u128;
            let mut has_first = false;
            for item in setup_items {
                let r = stmt_only(item, SETUP_HELP).and_then(|line| {
                    if line.keyword() == "first" {
                        let mut c = Cur::new(line);
                        let (s, pos) = c.word("the side moving first", SETUP_HELP)?;
                        // Said, even if wrongly: the error is about the side, not a missing `first`.
                        has_first = true;
                        setup.first = side_of(s, pos)?;
                        return c.done(SETUP_HELP);
                    }
                    let s = side_of(line.keyword(), line.pos()).map_err(|e| {
                        if side_names.is_empty() {
                            e
                        } else {
                            let mut known = side_names.clone();
                            known.push("first");
                            unknown(line.pos(), e.message, line.keyword(), known, SETUP_HELP)
                        }
                    })?;
                    let mut c = Cur::new(line);
                    if !c.eat_punct(':') {
                        return Err(RulesError::new(
                            c.pos(),
                            "expected `:` after the side",
                            SETUP_HELP,
                        ));
                    }
                    let (w, wpos) = c.word("a count or a piece kind", SETUP_HELP)?;
                    if let Ok(count) = w.parse::<u16>() {
                        let (k, kpos) = c.word("a piece kind", SETUP_HELP)?;
                        let k = kind_of(k, kpos)?;
                        c.expect("in", SETUP_HELP)?;
                        c.expect("hand", SETUP_HELP)?;
                        c.done(SETUP_HELP)?;
                        setup.hand[s as usize][k as usize] += count;
                        return Ok(());
                    }
                    let k = kind_of(w, wpos)?;
                    c.expect("on", SETUP_HELP)?;
                    if c.at_end() {
                        return Err(RulesError::new(c.pos(), "no points listed", SETUP_HELP));
                    }
                    while !c.at_end() {
                        let (p, ppos) = c.word("a point name", SETUP_HELP)?;
                        // Without the board, every point would be unknown.
                        if !board_ok {
                            continue;
                        }
                        let set = points_of(&bb, p, ppos)?;
                        if taken & set != 0 {
                            return Err(RulesError::new(
                                ppos,
                                format!("`{p}` already holds a piece"),
                                "each point holds one piece at the start",
                            ));
                        }
                        taken |= set;
                        for q in crate::lines::points(set) {
                            setup.pieces.push((s, k, q));
                        }
                    }
                    Ok(())
                });
                cx.keep(r);
            }
            if !has_first {
                cx.missing(
                    *close,
                    "the setup does not say who moves first",
                    "add `first SIDE` to the setup, before its `end`",
                );
            }
            Some(setup)
        }
    };
    // Policies and outcomes.
    let mut rules = LinesRules {
        name: game.to_string(),
        board: bb.board,
        sides: [SideDef::default(), SideDef::default()],
        kinds: Vec::new(),
        setup: Setup::default(),
        capture: CapturePolicy::Compulsory,
        chain: Chain::MustContinue,
        turns: true,
        maximum: false,
        promotion_ends_chain: true,
        promotions,
        no_pieces_loses: [true; 2],
        no_move: [NoMove::Loses; 2],
        capture_goal: [None; 2],
        move_cap: None,
        no_progress: None,
        repetition: None,
        no_repeat: [false; 2],
    };
    for (k, item) in items {
        let kw = item.head().keyword();
        if k == "board" || k == "setup" || ["side", "piece", "region", "promote"].contains(&kw) {
            continue;
        }
        let r = stmt_only(
            item,
            "only `board`, `setup`, `ruleset` and `sowing` open blocks",
        )
        .and_then(|line| setting(&mut rules, line, &side_names));
        cx.keep(r);
    }
    let (Some(setup), true, [_, _]) = (setup, board_ok, sides.as_slice()) else {
        return None;
    };
    if kinds.is_empty() {
        return None;
    }
    rules.setup = setup;
    rules.kinds = kinds;
    let mut sides = sides.into_iter();
    rules.sides = [sides.next()?, sides.next()?];
    Some(rules)
}

/// A setting (`capture optional`) or an outcome.
fn setting(rules: &mut LinesRules, line: &Line, sides: &[&str]) -> Result<(), RulesError> {
    let mut c = Cur::new(line);
    let mut choice = |options: &[&str], help: &str| -> Result<usize, RulesError> {
        let (w, pos) = c.word("a setting", help)?;
        options
            .iter()
            .position(|o| *o == w)
            .ok_or_else(|| not_one_of(pos, format!("`{w}` is not a choice here"), w, options, help))
    };
    match line.keyword() {
        "capture" => {
            let h = "write `capture compulsory`, `capture optional` or `capture huffing`";
            rules.capture = [
                CapturePolicy::Compulsory,
                CapturePolicy::Optional,
                CapturePolicy::Huffing,
            ][choice(&["compulsory", "optional", "huffing"], h)?];
        }
        "chain" => {
            let h = "write `chain must-continue`, `chain may-stop` or `chain single`";
            rules.chain = [Chain::MustContinue, Chain::MayStop, Chain::Single]
                [choice(&["must-continue", "may-stop", "single"], h)?];
        }
        "chain-turns" => {
            rules.turns = choice(
                &["allowed", "forbidden"],
                "write `chain-turns allowed` or `chain-turns forbidden`",
            )? == 0
        }
        "capture-choice" => {
            rules.maximum = choice(
                &["free", "maximum"],
                "write `capture-choice free` or `capture-choice maximum`",
            )? == 1
        }
        "promotion" => {
            rules.promotion_ends_chain = choice(
                &["ends-chain", "continues-chain"],
                "write `promotion ends-chain` or `promotion continues-chain`",
            )? == 0
        }
        "outcome" => outcome(rules, line, sides)?,
        "repetition" => {
            let h = "write `repetition forbidden` or `repetition allowed`, optionally followed by `for SIDE`";
            let forbid = choice(&["allowed", "forbidden"], h)? == 1;
            let mut who = [true; 2];
            if c.eat("for") {
                let (name, npos) = c.word("a side", h)?;
                let s = find_side(sides, name, npos)?;
                who = [s == 0, s == 1];
            }
            c.done(h)?;
            for (rule, mine) in rules.no_repeat.iter_mut().zip(who) {
                if mine {
                    *rule = forbid;
                }
            }
            return Ok(());
        }
        other => {
            return Err(not_one_of(
                line.pos(),
                format!("`{other}` is not a statement of the rules language"),
                other,
                &STATEMENTS,
                "see docs/rules-format.md: game, board, side, piece, region, promote, setup, capture, chain, chain-turns, capture-choice, promotion, repetition, outcome, ruleset, sowing",
            ));
        }
    }
    c_done(line, 2)
}

/// Settings take one word; anything after it is a mistake.
fn c_done(line: &Line, len: usize) -> Result<(), RulesError> {
    if line.keyword() == "outcome" {
        return Ok(());
    }
    match line.tokens.get(len) {
        Some(t) => Err(RulesError::new(
            t.pos,
            format!("unexpected {}", t.show()),
            "a setting takes one word",
        )),
        None => Ok(()),
    }
}

/// Finds a side by name, with a did-you-mean for an unknown one.
fn find_side(side_names: &[&str], name: &str, pos: Pos) -> Result<u8, RulesError> {
    side_names
        .iter()
        .position(|s| *s == name)
        .map(|i| i as u8)
        .ok_or_else(|| {
            unknown(
                pos,
                format!("no side named `{name}`"),
                name,
                side_names.iter().copied(),
                &format!(
                    "the sides are {}",
                    side_names
                        .iter()
                        .map(|s| format!("`{s}`"))
                        .collect::<Vec<_>>()
                        .join(" and ")
                ),
            )
        })
}

const OUTCOME_HELP: &str = "write `outcome no-pieces loses` (or ignored), `outcome no-move loses` (or wins, draws, passes), `outcome captures N wins`, `outcome move-cap N draws`, `outcome no-progress N draws` or `outcome repetition N draws`; the first three may end with `for SIDE`";

fn outcome(rules: &mut LinesRules, line: &Line, sides: &[&str]) -> Result<(), RulesError> {
    let mut c = Cur::new(line);
    // The statement sets the rule for both sides; `for SIDE` then gives the other side its rule back.
    let before = (rules.no_move, rules.no_pieces_loses, rules.capture_goal);
    let (cond, pos) = c.word("a condition", OUTCOME_HELP)?;
    match cond {
        "no-pieces" => {
            let (w, wpos) = c.word("`loses` or `continues`", OUTCOME_HELP)?;
            rules.no_pieces_loses = [match w {
                "loses" => true,
                "ignored" => false,
                _ => {
                    return Err(not_one_of(
                        wpos,
                        format!("`{w}` is not a choice here"),
                        w,
                        &["loses", "ignored"],
                        "write `outcome no-pieces loses` or `outcome no-pieces ignored`",
                    ));
                }
            }; 2];
        }
        "no-move" => {
            let (w, wpos) = c.word("what happens", OUTCOME_HELP)?;
            rules.no_move = [match w {
                "loses" => NoMove::Loses,
                "wins" => NoMove::Wins,
                "draws" => NoMove::Draws,
                "passes" => NoMove::Passes,
                _ => {
                    return Err(not_one_of(
                        wpos,
                        format!("`{w}` is not a choice here"),
                        w,
                        &["loses", "wins", "draws", "passes"],
                        OUTCOME_HELP,
                    ));
                }
            }; 2];
        }
        "captures" => {
            let (n, _) = c.number::<u16>("a number of captures", OUTCOME_HELP)?;
            c.expect("wins", OUTCOME_HELP)?;
            rules.capture_goal = [Some(n); 2];
        }
        "move-cap" => {
            let (n, _) = c.number::<u32>("a number of plies", OUTCOME_HELP)?;
            c.expect("draws", OUTCOME_HELP)?;
            rules.move_cap = Some(n);
        }
        "no-progress" => {
            let (n, _) = c.number::<u16>("a number of plies", OUTCOME_HELP)?;
            c.expect("draws", OUTCOME_HELP)?;
            rules.no_progress = Some(n);
        }
        "repetition" => {
            let (n, npos) = c.number::<u16>("a number of occurrences", OUTCOME_HELP)?;
            if n < 2 {
                return Err(RulesError::new(
                    npos,
                    "every position occurs once: a repetition is its second occurrence or a later one",
                    "write `outcome repetition 3 draws` for a draw when a position occurs the third time",
                ));
            }
            c.expect("draws", OUTCOME_HELP)?;
            rules.repetition = Some(n);
        }
        _ => {
            return Err(not_one_of(
                pos,
                format!("`{cond}` is not an outcome condition"),
                cond,
                &[
                    "no-pieces",
                    "no-move",
                    "captures",
                    "move-cap",
                    "no-progress",
                    "repetition",
                ],
                OUTCOME_HELP,
            ));
        }
    }
    // The ends that befall one side may differ between sides; the caps and repetition end the game for both,
    // so `for` after them is reported.
    if ["no-move", "no-pieces", "captures"].contains(&cond) && c.eat("for") {
        let (name, npos) = c.word("a side", OUTCOME_HELP)?;
        let o = 1 - find_side(sides, name, npos)? as usize;
        rules.no_move[o] = before.0[o];
        rules.no_pieces_loses[o] = before.1[o];
        rules.capture_goal[o] = before.2[o];
    }
    c.done(OUTCOME_HELP)
}

const SOWING_HELP: &str = "a sowing block holds `rows`, `holes`, `seeds`, `start`, `singletons`, `relay`, `capture`, `move-cap`, `lap-cap` and `outcome` (see docs/rules-format.md)";

/// A `sowing` block, read straight into the sowing module's own rules (defaults are Tchouba's).
fn sowing(items: &[(String, &Item)], cx: &mut Ctx) -> Option<SowingRules> {
    let mut spec = SowingRules {
        rows: 4,
        holes_per_row: 0,
        seeds_per_hole: 2,
        min_seeds_to_start: 2,
        singleton_rule: false,
        relay: true,
        capture: None,
        move_cap: 2000,
        lap_cap: 2000,
        end: SowingEnd::NoMoveLoses,
    };
    let mut said = SowingSaid::default();
    let mut close = cx.header;
    let before = cx.errors.len();
    for (k, item) in items {
        if !k.starts_with("sowing") {
            if item.head().keyword() == "side" {
                continue;
            }
            cx.errors.push(RulesError::new(
                item.head().pos(),
                format!(
                    "`{}` does not apply to a sowing game",
                    item.head().keyword()
                ),
                SOWING_HELP,
            ));
            continue;
        }
        if k == "sowing" {
            if let Item::Block { close: end, .. } = item {
                close = *end;
            }
            continue;
        }
        let r =
            stmt_only(item, SOWING_HELP).and_then(|line| sowing_stmt(&mut spec, &mut said, line));
        cx.keep(r);
    }
    // A `holes` line with a wrong value has its own error: the block does say how many holes there are.
    if !items.iter().any(|(k, _)| k == "sowing.holes") {
        cx.missing(
            close,
            "the sowing block does not say how many holes a row has",
            "add `holes 16` (an even number from 4 to 40) to the sowing block, before its `end`",
        );
    }
    if cx.errors.len() != before {
        return None;
    }
    // Each statement was right alone; these two limits come from statements together, and are reported at
    // the one that goes beyond them.
    if let Some(e) = too_many_seeds(&spec, said.seeds) {
        cx.errors.push(e);
    }
    if let Some(e) = too_many_extra_holes(&spec, said.extra) {
        cx.errors.push(e);
    }
    (cx.errors.len() == before).then_some(spec)
}

/// Where the sowing statements that the checks of the whole block point at are written.
#[derive(Default)]
struct SowingSaid {
    /// The count of `seeds N`.
    seeds: Option<Pos>,
    /// The count of a capture's `extra N`.
    extra: Option<Pos>,
}

/// Every count lives in one hole, which holds at most 65,535 seeds: the whole stock must fit.
fn too_many_seeds(spec: &SowingRules, at: Option<Pos>) -> Option<RulesError> {
    let total = spec.total_seeds();
    let most = u32::from(u16::MAX);
    if total <= most {
        return None;
    }
    let holes = total / u32::from(spec.seeds_per_hole);
    Some(RulesError::new(
        at?,
        format!(
            "{} seeds in each of the {holes} holes make {total}, more than the {most} a game may hold",
            spec.seeds_per_hole
        ),
        format!("write `seeds {}` or fewer on this board", most / holes),
    ))
}

/// A capture offers every choice of its extra holes among the opponent's, and every hole may start one: the
/// moves of one position must stay within what the engine lists.
fn too_many_extra_holes(spec: &SowingRules, at: Option<Pos>) -> Option<RulesError> {
    let extra = spec.capture.map_or(0, |c| c.extra_holes);
    let most = spec.most_moves();
    if most <= MAX_MOVES as u64 {
        return None;
    }
    let with_extra = |k: u8| {
        let mut s = spec.clone();
        if let Some(c) = s.capture.as_mut() {
            c.extra_holes = k;
        }
        s
    };
    let fewer = (0..extra)
        .rev()
        .find(|&k| with_extra(k).most_moves() <= MAX_MOVES as u64)
        .unwrap_or(0);
    let widest = (2..spec.holes_per_row / 2)
        .rev()
        .map(|half| half * 2)
        .find(|&n| {
            let mut s = spec.clone();
            s.holes_per_row = n;
            s.most_moves() <= MAX_MOVES as u64
        });
    let board = match widest {
        Some(n) => format!(", or keep `extra {extra}` on a board of at most `holes {n}`"),
        None => String::new(),
    };
    Some(RulesError::new(
        at?,
        format!(
            "`extra {extra}` on a board of {} holes per row could offer up to {most} moves in one position, \
             more than the engine lists ({MAX_MOVES})",
            spec.holes_per_row
        ),
        format!("write `extra {fewer}` for this board{board}"),
    ))
}

const SOWING_STATEMENTS: [&str; 10] = [
    "rows",
    "holes",
    "seeds",
    "start",
    "singletons",
    "relay",
    "capture",
    "move-cap",
    "lap-cap",
    "outcome",
];

/// A count read with its place, refused there when it is 0: the message is the rule it breaks.
fn at_least_one<T: Default + PartialEq>(
    (n, pos): (T, Pos),
    rule: &str,
    help: &str,
) -> Result<T, RulesError> {
    if n == T::default() {
        Err(RulesError::new(pos, format!("0 is too few: {rule}"), help))
    } else {
        Ok(n)
    }
}

/// One statement of a `sowing` block.
fn sowing_stmt(
    spec: &mut SowingRules,
    said: &mut SowingSaid,
    line: &Line,
) -> Result<(), RulesError> {
    {
        let mut c = Cur::new(line);
        match line.keyword() {
            "rows" => {
                let (n, pos) = c.number::<u8>("the number of rows", "write `rows 4`")?;
                if n != 4 {
                    return Err(RulesError::new(
                        pos,
                        "only four-row boards are supported",
                        "write `rows 4`",
                    ));
                }
                spec.rows = n;
            }
            "holes" => {
                let (n, pos) = c.number::<u16>("the holes per row", "write `holes 16`")?;
                if n % 2 != 0 || !(4..=40).contains(&n) {
                    return Err(RulesError::new(
                        pos,
                        format!("{n} holes per row: the number must be even, from 4 to 40"),
                        "write e.g. `holes 16`",
                    ));
                }
                spec.holes_per_row = n;
            }
            "seeds" => {
                let count = c.number::<u16>("the seeds per hole", "write `seeds 2`")?;
                said.seeds = Some(count.1);
                spec.seeds_per_hole = at_least_one(
                    count,
                    "a hole starts with at least one seed",
                    "write `seeds 2`",
                )?
            }
            "start" => {
                spec.min_seeds_to_start = at_least_one(
                    c.number::<u16>("the seeds a hole needs to start a turn", "write `start 2`")?,
                    "a turn starts from a hole with at least one seed",
                    "write `start 1` to let any hole with seeds start a turn",
                )?
            }
            "singletons" => {
                let (w, pos) = c.word(
                    "`tchonga` or `never`",
                    "write `singletons tchonga` or `singletons never`",
                )?;
                spec.singleton_rule = match w {
                    "tchonga" => true,
                    "never" => false,
                    _ => {
                        return Err(not_one_of(
                            pos,
                            format!("`{w}` is not a choice here"),
                            w,
                            &["tchonga", "never"],
                            "write `singletons tchonga` or `singletons never`",
                        ));
                    }
                };
            }
            "relay" => {
                let (w, pos) = c.word("`yes` or `no`", "write `relay yes` or `relay no`")?;
                spec.relay = match w {
                    "yes" => true,
                    "no" => false,
                    _ => {
                        return Err(not_one_of(
                            pos,
                            format!("`{w}` is not a choice here"),
                            w,
                            &["yes", "no"],
                            "write `relay yes` or `relay no`",
                        ));
                    }
                };
            }
            "capture" => {
                let h = "write `capture none` or `capture opposite`, optionally followed by `, outer`, `, extra N` and `, always`";
                let (w, pos) = c.word("`opposite` or `none`", h)?;
                match w {
                    "none" => spec.capture = None,
                    "opposite" => {
                        let (mut outer, mut extra, mut always) = (false, 0u8, false);
                        let mut extra_pos = None;
                        while c.eat_punct(',') {
                            let (opt, opos) = c.word("a capture option", h)?;
                            match opt {
                                "outer" => outer = true,
                                "always" => always = true,
                                "extra" => {
                                    let (n, npos) =
                                        c.number::<u8>("the number of extra holes", h)?;
                                    if n > 3 {
                                        return Err(RulesError::new(
                                            npos,
                                            "at most 3 extra holes",
                                            h,
                                        ));
                                    }
                                    extra = n;
                                    extra_pos = Some((opos, npos));
                                }
                                _ => {
                                    return Err(not_one_of(
                                        opos,
                                        format!("`{opt}` is not a capture option"),
                                        opt,
                                        &["outer", "extra", "always"],
                                        h,
                                    ));
                                }
                            }
                        }
                        // Without `always`, extra holes come only with a file of two holes taken, which
                        // only `outer` takes.
                        if let Some((at, _)) = extra_pos
                            && extra > 0
                            && !outer
                            && !always
                        {
                            return Err(RulesError::new(
                                at,
                                format!(
                                    "`extra {extra}` never applies: without `outer` a capture takes one hole \
                                     of the file, and without `always` extra holes come only when it takes two"
                                ),
                                format!(
                                    "write `capture opposite, extra {extra}, always` to take them with every \
                                     capture, or `capture opposite, outer, extra {extra}` to take them when \
                                     both holes of the file fall"
                                ),
                            ));
                        }
                        said.extra = extra_pos.map(|(_, count)| count);
                        spec.capture = Some(SowingCapture {
                            take_outer: outer,
                            extra_holes: extra,
                            extra_always: always,
                        });
                    }
                    _ => {
                        return Err(not_one_of(
                            pos,
                            format!("`{w}` is not a choice here"),
                            w,
                            &["opposite", "none"],
                            h,
                        ));
                    }
                }
            }
            "move-cap" => {
                spec.move_cap = at_least_one(
                    c.number::<u32>("a number of plies", "write `move-cap 2000`")?,
                    "the game must allow at least one move",
                    "write `move-cap 2000`",
                )?
            }
            "lap-cap" => {
                spec.lap_cap = at_least_one(
                    c.number::<u32>("a number of laps", "write `lap-cap 2000`")?,
                    "a sowing goes round at least once",
                    "write `lap-cap 2000`",
                )?
            }
            "outcome" => {
                let h = "write `outcome no-move loses` or `outcome opponent-empty wins`";
                let (w, pos) = c.word("a condition", h)?;
                spec.end = match w {
                    "no-move" => {
                        c.expect("loses", h)?;
                        SowingEnd::NoMoveLoses
                    }
                    "opponent-empty" => {
                        c.expect("wins", h)?;
                        SowingEnd::OpponentEmptyWins
                    }
                    _ => {
                        return Err(not_one_of(
                            pos,
                            format!("`{w}` is not a condition here"),
                            w,
                            &["no-move", "opponent-empty"],
                            h,
                        ));
                    }
                };
            }
            other => {
                return Err(not_one_of(
                    line.pos(),
                    format!("`{other}` is not a sowing statement"),
                    other,
                    &SOWING_STATEMENTS,
                    SOWING_HELP,
                ));
            }
        }
        c.done(SOWING_HELP)
    }
}
