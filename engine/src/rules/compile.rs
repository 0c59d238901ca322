//! From statements to compiled rules. Each statement is checked where it stands, so every error points at the
//! word that is wrong.

use super::error::{Pos, RulesError};
use super::syntax::{Item, Line, Token, TokenKind};
use crate::Compiled;
use crate::board::{Board, Compass, Diagonals};
use crate::game::{Game, MAX_MOVES};
use crate::lines::LinesGame;
use crate::lines::rules::{
    CapturePolicy, Chain, KindDef, LinesRules, MAX_KINDS, MoveRule, NoMove, Promotion, Setup,
    SideDef, dirs,
};
use crate::sowing::{SowingCapture, SowingEnd, SowingRules};

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

pub fn compile(game: &str, items: &[(String, Item)]) -> Result<Compiled, RulesError> {
    if items.iter().any(|(k, _)| k.starts_with("sowing")) {
        if let Some((_, item)) = items.iter().find(|(k, _)| k == "board") {
            return Err(RulesError::new(
                item.head().pos(),
                "a rules file has either a `board` (points and lines) or a `sowing` block, not both",
                "keep the block that matches the game's family",
            ));
        }
        let spec = sowing(items)?;
        let at = items
            .iter()
            .find(|(k, _)| k.starts_with("sowing"))
            .map(|(_, i)| i.head().pos())
            .unwrap_or_default();
        return Compiled::from_sowing(spec).map_err(|m| RulesError::new(at, m, SOWING_HELP));
    }
    let compiled = LinesGame::new(lines(game, items)?);
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
            .unwrap_or_default();
        return Err(RulesError::new(
            at,
            format!(
                "the rules cannot be played: the start position has more than {MAX_MOVES} legal moves, \
                 more than the engine lists"
            ),
            "capture chains multiply with every landing point: use `chain must-continue` or `chain single`, \
             fewer flying captures (`long-jump`), or a setup with fewer pieces in reach",
        ));
    }
    Ok(Compiled::Lines(Box::new(compiled)))
}

const GRID_HELP: &str = "write `grid 5 x 5`, optionally followed by `diagonals alquerque`, `diagonals all` or `diagonals none`";
const TRIANGLE_HELP: &str =
    "write `triangle at c5 toward north`, optionally with `depth 2` and `names N`";
const POINT_HELP: &str = "write `point NAME at X Y`, e.g. `point k1 at 0 2.5`";
const REGION_HELP: &str = "write `region NAME: POINT POINT ...`, e.g. `region far: E4 E5 E6`";

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

fn point_of(board: &Board, name: &str, pos: Pos) -> Result<u8, RulesError> {
    board.find(name).ok_or_else(|| {
        let close: Vec<&str> = board.points.iter().map(|p| p.name.as_str()).filter(|n| n.eq_ignore_ascii_case(name)).collect();
        RulesError::new(
            pos,
            format!("the board has no point named `{name}`"),
            if close.is_empty() {
                "grid points are named by file letter and rank number (`a1`, `c3`); triangle points by prefix and number (`S1`..`S6`)".to_string()
            } else {
                format!("did you mean `{}`? point names are case-sensitive", close[0])
            },
        )
    })
}

fn region_stmt(board: &mut Board, line: &Line) -> Result<(), RulesError> {
    let mut c = Cur::new(line);
    let (name, _) = c.word("a region name", REGION_HELP)?;
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
        if let Some(r) = board.region(p) {
            set |= r;
        } else {
            set |= 1u128 << point_of(board, p, pos)?;
        }
    }
    if set == 0 {
        return Err(RulesError::new(
            c.pos(),
            "the region has no points",
            REGION_HELP,
        ));
    }
    board.regions.retain(|(n, _)| n != name);
    board.add_region(name, set);
    Ok(())
}

fn board(block: &Item) -> Result<Board, RulesError> {
    let Item::Block { items, .. } = block else {
        return Err(RulesError::new(
            block.head().pos(),
            "`board` opens a block",
            "write `board` alone on its line, the board's statements below, then `end`",
        ));
    };
    let mut b = Board::default();
    fn err(pos: Pos, help: &'static str) -> impl Fn(String) -> RulesError {
        move |m: String| RulesError::new(pos, m, help)
    }
    for item in items {
        let line = stmt_only(item, "a board holds statements only")?;
        let mut c = Cur::new(line);
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
                            return Err(RulesError::new(
                                pos,
                                format!("`{kind}` is not a diagonal pattern"),
                                GRID_HELP,
                            ));
                        }
                    };
                }
                c.done(GRID_HELP)?;
                b.grid(w, h, d).map_err(err(line.pos(), GRID_HELP))?;
            }
            "triangle" => {
                c.expect("at", TRIANGLE_HELP)?;
                let (apex, apos) = c.word("the apex point", TRIANGLE_HELP)?;
                let apex = point_of(&b, apex, apos)?;
                c.expect("toward", TRIANGLE_HELP)?;
                let (dir, dpos) = c.word("a direction", TRIANGLE_HELP)?;
                let dir = Compass::parse(dir).ok_or_else(|| {
                    RulesError::new(dpos, format!("`{dir}` is not a direction"), "directions are north, north-east, east, south-east, south, south-west, west, north-west")
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
                b.triangle(apex, dir, depth, &prefix)
                    .map_err(err(line.pos(), TRIANGLE_HELP))?;
            }
            "star" => {
                let mut prefix = "k".to_string();
                if c.eat("names") {
                    prefix =
                        safe_prefix(c.word("a name prefix", "write `star` or `star names k`")?)?;
                }
                c.done("write `star` or `star names k`")?;
                b.star(&prefix)
                    .map_err(err(line.pos(), "write `star` or `star names k`"))?;
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
                let (x, _) = c.number::<f64>("the x coordinate", POINT_HELP)?;
                let (y, _) = c.number::<f64>("the y coordinate", POINT_HELP)?;
                c.done(POINT_HELP)?;
                b.add_point(name, x, y).map_err(err(npos, POINT_HELP))?;
            }
            "line" => {
                let mut pts = Vec::new();
                while !c.at_end() {
                    let (p, pos) = c.word("a point name", "write `line POINT POINT ...`")?;
                    let id = point_of(&b, p, pos)?;
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
                b.add_line(pts);
            }
            "region" => region_stmt(&mut b, line)?,
            other => {
                return Err(RulesError::new(
                    line.pos(),
                    format!("`{other}` is not a board statement"),
                    "a board is made of `grid`, `triangle`, `star`, `point`, `line` and `region` statements",
                ));
            }
        }
    }
    if b.points.is_empty() {
        return Err(RulesError::new(
            block.head().pos(),
            "the board has no points",
            "add a `grid`, a `star` or `point` statements",
        ));
    }
    Ok(b)
}

const SIDE_HELP: &str =
    "write `side NAME \"Title\"`, optionally followed by `forward north` (or south, east, west)";
const PIECE_HELP: &str = "write `piece NAME \"Title\": MOVE, MOVE`, where a MOVE is `step`, `slide [N]`, `jump` or `long-jump`, each optionally followed by directions (`forward`, `sideways`, `backward`) and `within REGION`";
const PROMOTE_HELP: &str = "write `promote KIND to KIND for SIDE on REGION`";
const SETUP_HELP: &str =
    "a setup holds `SIDE: KIND on POINT POINT ...`, `SIDE: COUNT KIND in hand` and `first SIDE`";

fn lines(game: &str, items: &[(String, Item)]) -> Result<LinesRules, RulesError> {
    let board_item = items
        .iter()
        .find(|(k, _)| k == "board")
        .map(|(_, i)| i)
        .ok_or_else(|| {
            RulesError::new(
                Pos { line: 1, column: 1 },
                "the rules have no board",
                "add a `board` block (or a `sowing` block for a sowing game)",
            )
        })?;
    let mut b = board(board_item)?;
    for (k, item) in items {
        if k.starts_with("region ") {
            region_stmt(&mut b, stmt_only(item, REGION_HELP)?)?;
        }
    }
    // Sides.
    let mut sides = Vec::new();
    for (k, item) in items {
        if !k.starts_with("side ") {
            continue;
        }
        let line = stmt_only(item, SIDE_HELP)?;
        let mut c = Cur::new(line);
        let (name, _) = c.word("the side's name", SIDE_HELP)?;
        let title = c.title().unwrap_or_else(|| name.to_string());
        let mut forward = if sides.is_empty() {
            (0.0, 1.0)
        } else {
            (0.0, -1.0)
        };
        if c.eat("forward") {
            let (d, pos) = c.word("a direction", SIDE_HELP)?;
            let v = Compass::parse(d)
                .ok_or_else(|| {
                    RulesError::new(pos, format!("`{d}` is not a direction"), SIDE_HELP)
                })?
                .vector();
            let len = (v.0 * v.0 + v.1 * v.1).sqrt();
            forward = (v.0 / len, v.1 / len);
        }
        c.done(SIDE_HELP)?;
        if sides.len() == 2 {
            return Err(RulesError::new(
                line.pos(),
                "a game has two sides",
                "remove this side: the engine plays two-player games",
            ));
        }
        sides.push(SideDef {
            name: name.to_string(),
            title,
            forward,
        });
    }
    if sides.len() != 2 {
        return Err(RulesError::new(
            Pos { line: 1, column: 1 },
            format!("the rules declare {} side(s), not two", sides.len()),
            SIDE_HELP,
        ));
    }
    let side_of = |name: &str, pos: Pos| -> Result<u8, RulesError> {
        sides
            .iter()
            .position(|s| s.name == name)
            .map(|i| i as u8)
            .ok_or_else(|| {
                RulesError::new(
                    pos,
                    format!("no side named `{name}`"),
                    format!("the sides are `{}` and `{}`", sides[0].name, sides[1].name),
                )
            })
    };
    // Piece kinds.
    let mut kinds: Vec<KindDef> = Vec::new();
    for (k, item) in items {
        if !k.starts_with("piece ") {
            continue;
        }
        let line = stmt_only(item, PIECE_HELP)?;
        let mut c = Cur::new(line);
        let (name, npos) = c.word("the kind's name", PIECE_HELP)?;
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
            let mut within = None;
            loop {
                if c.eat("forward") {
                    d |= dirs::FORWARD;
                } else if c.eat("sideways") {
                    d |= dirs::SIDEWAYS;
                } else if c.eat("backward") {
                    d |= dirs::BACKWARD;
                } else if c.eat("any") {
                    d |= dirs::ALL;
                } else if c.eat("within") {
                    let (r, rpos) = c.word("a region name", PIECE_HELP)?;
                    within = Some(b.region(r).ok_or_else(|| {
                        RulesError::new(rpos, format!("no region named `{r}`"), "define it with `region NAME: POINTS`; each triangle is a region named by its prefix, and `triangles` joins them all")
                    })?);
                } else {
                    break;
                }
            }
            if d == 0 {
                d = dirs::ALL;
            }
            moves.push(match m {
                "step" => MoveRule::Step { dirs: d, within },
                "slide" => MoveRule::Slide {
                    max,
                    dirs: d,
                    within,
                },
                "jump" | "long-jump" if within.is_some() => {
                    return Err(RulesError::new(
                        mpos,
                        "captures cannot be limited to a region",
                        PIECE_HELP,
                    ));
                }
                "jump" => MoveRule::Jump { dirs: d },
                "long-jump" => MoveRule::LongJump { dirs: d },
                _ => {
                    return Err(RulesError::new(
                        mpos,
                        format!("`{m}` is not a kind of move"),
                        PIECE_HELP,
                    ));
                }
            });
            if c.at_end() {
                break;
            }
            if !c.eat_punct(',') {
                return Err(RulesError::new(
                    c.pos(),
                    format!(
                        "unexpected {}",
                        c.peek().map(|t| t.show()).unwrap_or_default()
                    ),
                    PIECE_HELP,
                ));
            }
        }
        if kinds.len() == MAX_KINDS {
            return Err(RulesError::new(
                npos,
                format!("at most {MAX_KINDS} piece kinds"),
                "merge kinds that move alike",
            ));
        }
        kinds.push(KindDef {
            name: name.to_string(),
            title,
            moves,
        });
    }
    if kinds.is_empty() {
        return Err(RulesError::new(
            Pos { line: 1, column: 1 },
            "the rules declare no piece kind",
            PIECE_HELP,
        ));
    }
    let kind_of = |name: &str, pos: Pos| -> Result<u8, RulesError> {
        kinds
            .iter()
            .position(|k| k.name == name)
            .map(|i| i as u8)
            .ok_or_else(|| {
                let names: Vec<&str> = kinds.iter().map(|k| k.name.as_str()).collect();
                RulesError::new(
                    pos,
                    format!("no piece kind named `{name}`"),
                    format!("the kinds are: {}", names.join(", ")),
                )
            })
    };
    // Promotions.
    let mut promotions = Vec::new();
    for (k, item) in items {
        if !k.starts_with("promote ") {
            continue;
        }
        let line = stmt_only(item, PROMOTE_HELP)?;
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
        let region = b
            .region(r)
            .ok_or_else(|| RulesError::new(rpos, format!("no region named `{r}`"), REGION_HELP))?;
        c.done(PROMOTE_HELP)?;
        promotions.push(Promotion {
            from,
            to,
            side,
            region,
        });
    }
    // Setup.
    let setup_item = items
        .iter()
        .find(|(k, _)| k == "setup")
        .map(|(_, i)| i)
        .ok_or_else(|| {
            RulesError::new(
                Pos { line: 1, column: 1 },
                "the rules have no setup",
                "add a `setup` block saying where the pieces start",
            )
        })?;
    let Item::Block {
        items: setup_items,
        head,
    } = setup_item
    else {
        return Err(RulesError::new(
            setup_item.head().pos(),
            "`setup` opens a block",
            SETUP_HELP,
        ));
    };
    let mut setup = Setup::default();
    let mut taken = 0u128;
    let mut has_first = false;
    for item in setup_items {
        let line = stmt_only(item, SETUP_HELP)?;
        if line.keyword() == "first" {
            let mut c = Cur::new(line);
            let (s, pos) = c.word("the side moving first", SETUP_HELP)?;
            setup.first = side_of(s, pos)?;
            c.done(SETUP_HELP)?;
            has_first = true;
            continue;
        }
        let s = side_of(line.keyword(), line.pos())?;
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
        } else {
            let k = kind_of(w, wpos)?;
            c.expect("on", SETUP_HELP)?;
            if c.at_end() {
                return Err(RulesError::new(c.pos(), "no points listed", SETUP_HELP));
            }
            while !c.at_end() {
                let (p, ppos) = c.word("a point name", SETUP_HELP)?;
                let set = match b.region(p) {
                    Some(r) => r,
                    None => 1u128 << point_of(&b, p, ppos)?,
                };
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
        }
    }
    if !has_first {
        return Err(RulesError::new(
            head.pos(),
            "the setup does not say who moves first",
            "add `first SIDE` to the setup",
        ));
    }
    // Policies and outcomes.
    let mut rules = LinesRules {
        name: game.to_string(),
        board: b,
        sides: [sides[0].clone(), sides[1].clone()],
        kinds,
        setup,
        capture: CapturePolicy::Compulsory,
        chain: Chain::MustContinue,
        turns: true,
        maximum: false,
        promotion_ends_chain: true,
        promotions,
        no_pieces_loses: true,
        no_move: NoMove::Loses,
        capture_goal: None,
        move_cap: None,
        no_progress: None,
    };
    for (k, item) in items {
        let kw = item.head().keyword();
        if k == "board" || k == "setup" || ["side", "piece", "region", "promote"].contains(&kw) {
            continue;
        }
        let line = stmt_only(
            item,
            "only `board`, `setup`, `ruleset` and `sowing` open blocks",
        )?;
        let mut c = Cur::new(line);
        let mut choice = |options: &[&str], help: &str| -> Result<usize, RulesError> {
            let (w, pos) = c.word("a setting", help)?;
            options.iter().position(|o| *o == w).ok_or_else(|| {
                RulesError::new(pos, format!("`{w}` is not a choice here"), help.to_string())
            })
        };
        match kw {
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
            "outcome" => outcome(&mut rules, line)?,
            other => {
                return Err(RulesError::new(
                    line.pos(),
                    format!("`{other}` is not a statement of the rules language"),
                    "see docs/rules-format.md: game, board, side, piece, region, promote, setup, capture, chain, chain-turns, capture-choice, promotion, outcome, ruleset, sowing",
                ));
            }
        }
        c_done(line, 2)?;
    }
    Ok(rules)
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

const OUTCOME_HELP: &str = "write `outcome no-pieces loses`, `outcome no-move loses` (or wins, draws, passes), `outcome captures N wins` or `outcome move-cap N draws` or `outcome no-progress N draws`";

fn outcome(rules: &mut LinesRules, line: &Line) -> Result<(), RulesError> {
    let mut c = Cur::new(line);
    let (cond, pos) = c.word("a condition", OUTCOME_HELP)?;
    match cond {
        "no-pieces" => {
            let (w, wpos) = c.word("`loses` or `continues`", OUTCOME_HELP)?;
            rules.no_pieces_loses = match w {
                "loses" => true,
                "ignored" => false,
                _ => {
                    return Err(RulesError::new(
                        wpos,
                        format!("`{w}` is not a choice here"),
                        "write `outcome no-pieces loses` or `outcome no-pieces ignored`",
                    ));
                }
            };
        }
        "no-move" => {
            let (w, wpos) = c.word("what happens", OUTCOME_HELP)?;
            rules.no_move = match w {
                "loses" => NoMove::Loses,
                "wins" => NoMove::Wins,
                "draws" => NoMove::Draws,
                "passes" => NoMove::Passes,
                _ => {
                    return Err(RulesError::new(
                        wpos,
                        format!("`{w}` is not a choice here"),
                        OUTCOME_HELP,
                    ));
                }
            };
        }
        "captures" => {
            let (n, _) = c.number::<u16>("a number of captures", OUTCOME_HELP)?;
            c.expect("wins", OUTCOME_HELP)?;
            rules.capture_goal = Some(n);
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
        _ => {
            return Err(RulesError::new(
                pos,
                format!("`{cond}` is not an outcome condition"),
                OUTCOME_HELP,
            ));
        }
    }
    c.done(OUTCOME_HELP)
}

const SOWING_HELP: &str = "a sowing block holds `rows`, `holes`, `seeds`, `start`, `singletons`, `relay`, `capture`, `move-cap`, `lap-cap` and `outcome` (see docs/rules-format.md)";

/// A `sowing` block, read straight into the sowing module's own rules (defaults are Tchouba's).
fn sowing(items: &[(String, Item)]) -> Result<SowingRules, RulesError> {
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
    let mut holes_pos = None;
    for (k, item) in items {
        if !k.starts_with("sowing") {
            if item.head().keyword() == "side" {
                continue;
            }
            return Err(RulesError::new(
                item.head().pos(),
                format!(
                    "`{}` does not apply to a sowing game",
                    item.head().keyword()
                ),
                SOWING_HELP,
            ));
        }
        if k == "sowing" {
            continue;
        }
        let line = stmt_only(item, SOWING_HELP)?;
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
                holes_pos = Some(pos);
            }
            "seeds" => {
                spec.seeds_per_hole = c.number::<u16>("the seeds per hole", "write `seeds 2`")?.0
            }
            "start" => {
                spec.min_seeds_to_start = c
                    .number::<u16>("the seeds a hole needs to start a turn", "write `start 2`")?
                    .0
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
                        return Err(RulesError::new(
                            pos,
                            format!("`{w}` is not a choice here"),
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
                        return Err(RulesError::new(
                            pos,
                            format!("`{w}` is not a choice here"),
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
                                }
                                _ => {
                                    return Err(RulesError::new(
                                        opos,
                                        format!("`{opt}` is not a capture option"),
                                        h,
                                    ));
                                }
                            }
                        }
                        spec.capture = Some(SowingCapture {
                            take_outer: outer,
                            extra_holes: extra,
                            extra_always: always,
                        });
                    }
                    _ => {
                        return Err(RulesError::new(
                            pos,
                            format!("`{w}` is not a choice here"),
                            h,
                        ));
                    }
                }
            }
            "move-cap" => {
                spec.move_cap = c
                    .number::<u32>("a number of plies", "write `move-cap 2000`")?
                    .0
            }
            "lap-cap" => {
                spec.lap_cap = c
                    .number::<u32>("a number of laps", "write `lap-cap 2000`")?
                    .0
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
                        return Err(RulesError::new(
                            pos,
                            format!("`{w}` is not a condition here"),
                            h,
                        ));
                    }
                };
            }
            other => {
                return Err(RulesError::new(
                    line.pos(),
                    format!("`{other}` is not a sowing statement"),
                    SOWING_HELP,
                ));
            }
        }
        c.done(SOWING_HELP)?;
    }
    if holes_pos.is_none() {
        return Err(RulesError::new(
            Pos { line: 1, column: 1 },
            "the sowing block does not say how many holes a row has",
            "add `holes 16` (an even number from 4 to 40)",
        ));
    }
    Ok(spec)
}
