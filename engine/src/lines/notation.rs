//! Move notation and the setup-position syntax of points-and-lines games (see docs/notation.md).
//!
//! Moves: `c2-c3` (step or slide), `b1xd3xf5` (a capture chain: the start and every landing point), `@c3`
//! (placement; `goat@c3` when the side holds more than one kind in hand), `pass`, and a huff written before the
//! move it comes with: `~c3/e2-e3`.

use super::{Action, LinesGame, LinesMove, LinesPosition, NO_POINT, points};
use crate::game::MoveError;
use crate::lines::rules::MAX_KINDS;

fn name(game: &LinesGame, p: u8) -> &str {
    &game.rules.board.points[p as usize].name
}

pub fn format(game: &LinesGame, pos: &LinesPosition, mv: &LinesMove) -> String {
    let mut s = String::new();
    if mv.huff != NO_POINT {
        s.push('~');
        s.push_str(name(game, mv.huff));
        s.push('/');
    }
    match mv.action {
        Action::Pass => s.push_str("pass"),
        Action::Place => {
            let kinds_in_hand = pos.hand[pos.to_move as usize]
                .iter()
                .filter(|&&h| h > 0)
                .count();
            if kinds_in_hand > 1 {
                s.push_str(&game.rules.kinds[mv.kind as usize].name);
            }
            s.push('@');
            s.push_str(name(game, mv.to));
        }
        Action::Move => {
            s.push_str(name(game, mv.from));
            s.push('-');
            s.push_str(name(game, mv.to));
        }
        Action::Capture => {
            s.push_str(name(game, mv.from));
            for &q in &mv.path[..mv.len as usize] {
                s.push('x');
                s.push_str(name(game, q));
            }
        }
    }
    s
}

/// A move as written, before it is checked against a position.
pub(super) struct Written {
    pub huff: u8,
    pub action: Action,
    pub kind: Option<u8>,
    pub from: u8,
    pub path: Vec<u8>,
}

impl Written {
    /// Whether `m` reads like this: the test that picks a written move out of the move list.
    pub fn names(&self, m: &LinesMove) -> bool {
        m.huff == self.huff
            && m.action == self.action
            && self.kind.is_none_or(|k| k == m.kind)
            && match m.action {
                Action::Pass => true,
                Action::Place | Action::Move => {
                    (m.action == Action::Place || m.from == self.from) && self.path == [m.to]
                }
                Action::Capture => m.from == self.from && self.path == m.path[..m.len as usize],
            }
    }
}

fn point(game: &LinesGame, text: &str, whole: &str) -> Result<u8, MoveError> {
    game.rules.board.find(text).ok_or_else(|| {
        MoveError::Syntax(format!("`{whole}`: the board has no point named `{text}`"))
    })
}

pub(super) fn read(game: &LinesGame, text: &str) -> Result<Written, MoveError> {
    let whole = text;
    let mut body = text;
    let mut huff = NO_POINT;
    if let Some(rest) = body.strip_prefix('~') {
        let (h, after) = rest.split_once('/').ok_or_else(|| {
            MoveError::Syntax(format!("`{whole}`: a huff is written `~POINT/MOVE`"))
        })?;
        huff = point(game, h, whole)?;
        body = after;
    }
    if body == "pass" {
        return Ok(Written {
            huff,
            action: Action::Pass,
            kind: None,
            from: NO_POINT,
            path: vec![],
        });
    }
    if let Some((k, to)) = body.split_once('@') {
        let kind = if k.is_empty() {
            None
        } else {
            Some(
                game.rules
                    .kinds
                    .iter()
                    .position(|d| d.name == k)
                    .ok_or_else(|| {
                        MoveError::Syntax(format!("`{whole}`: no piece kind named `{k}`"))
                    })? as u8,
            )
        };
        return Ok(Written {
            huff,
            action: Action::Place,
            kind,
            from: NO_POINT,
            path: vec![point(game, to, whole)?],
        });
    }
    if let Some((a, b)) = body.split_once('-') {
        return Ok(Written {
            huff,
            action: Action::Move,
            kind: None,
            from: point(game, a, whole)?,
            path: vec![point(game, b, whole)?],
        });
    }
    let mut parts = body.split('x');
    let first = parts.next().unwrap_or("");
    let path = parts
        .map(|p| point(game, p, whole))
        .collect::<Result<Vec<u8>, MoveError>>()?;
    if path.is_empty() {
        return Err(MoveError::Syntax(format!(
            "`{whole}` is not a move: write a step `c2-c3`, a capture `b1xd3`, a placement `@c3`, a huff `~c3/MOVE` or `pass`"
        )));
    }
    Ok(Written {
        huff,
        action: Action::Capture,
        kind: None,
        from: point(game, first, whole)?,
        path,
    })
}

pub fn parse(game: &LinesGame, pos: &LinesPosition, text: &str) -> Result<LinesMove, MoveError> {
    let text = text.trim();
    let written = read(game, text)?;
    match game.find_written(pos, &written) {
        Ok(Some(mv)) => Ok(mv),
        // Legal but for the repetition rule: say so, or a record's author looks for a wrong point or piece.
        Ok(None) if matches!(game.follow_written(pos, &written), Ok(Some(_))) => {
            Err(MoveError::Illegal(format!(
                "`{text}` brings back a position the game has already been in, which these rules forbid"
            )))
        }
        Ok(None) => Err(MoveError::Illegal(format!(
            "`{text}` is not a legal move here"
        ))),
        Err(e) => Err(MoveError::Illegal(format!(
            "`{text}` cannot be checked: {e}"
        ))),
    }
}

/// Writes a position as `;`-separated clauses: `SIDE KIND POINT...`, `SIDE hand KIND COUNT`,
/// `SIDE captured COUNT`, `huffable POINT...`, `quiet N`, `ply N`, `to-move SIDE`.
pub fn format_position(game: &LinesGame, pos: &LinesPosition) -> String {
    let mut clauses = Vec::new();
    for s in 0..2 {
        let side = &game.rules.sides[s].name;
        for (k, kind) in game.rules.kinds.iter().enumerate() {
            let set = pos.side[s] & pos.kind[k];
            if set != 0 {
                let names: Vec<&str> = points(set).map(|p| name(game, p)).collect();
                clauses.push(format!("{side} {} {}", kind.name, names.join(" ")));
            }
            if pos.hand[s][k] > 0 {
                clauses.push(format!("{side} hand {} {}", kind.name, pos.hand[s][k]));
            }
        }
        if pos.captured[s] > 0 {
            clauses.push(format!("{side} captured {}", pos.captured[s]));
        }
    }
    if pos.huffable != 0 {
        let names: Vec<&str> = points(pos.huffable).map(|p| name(game, p)).collect();
        clauses.push(format!("huffable {}", names.join(" ")));
    }
    if pos.quiet > 0 {
        clauses.push(format!("quiet {}", pos.quiet));
    }
    if pos.ply > 0 {
        clauses.push(format!("ply {}", pos.ply));
    }
    clauses.push(format!(
        "to-move {}",
        game.rules.sides[pos.to_move as usize].name
    ));
    clauses.join("; ")
}

pub fn parse_position(game: &LinesGame, text: &str) -> Result<LinesPosition, String> {
    let mut pos = LinesPosition {
        history: Vec::new(),
        side: [0; 2],
        kind: [0; MAX_KINDS],
        hand: [[0; MAX_KINDS]; 2],
        captured: [0; 2],
        to_move: game.rules.setup.first,
        ply: 0,
        huffable: 0,
        passes: 0,
        quiet: 0,
    };
    let side_of = |w: &str| {
        game.rules
            .sides
            .iter()
            .position(|s| s.name == w)
            .map(|s| s as u8)
    };
    let kind_of = |w: &str| {
        game.rules
            .kinds
            .iter()
            .position(|k| k.name == w)
            .map(|k| k as u8)
    };
    let number = |w: Option<&str>, what: &str| -> Result<u32, String> {
        w.and_then(|w| w.parse().ok())
            .ok_or_else(|| format!("`{what}` needs a number"))
    };
    for clause in text.split(';') {
        let words: Vec<&str> = clause.split_whitespace().collect();
        let Some(&first) = words.first() else {
            continue;
        };
        match first {
            "to-move" => {
                pos.to_move = words
                    .get(1)
                    .and_then(|w| side_of(w))
                    .ok_or("`to-move` needs a side name")?;
            }
            "ply" => pos.ply = number(words.get(1).copied(), "ply")?,
            "quiet" => {
                pos.quiet = number(words.get(1).copied(), "quiet")?.min(u16::MAX as u32) as u16
            }
            "huffable" => {
                for w in &words[1..] {
                    let p = game
                        .rules
                        .board
                        .find(w)
                        .ok_or_else(|| format!("no point named `{w}`"))?;
                    pos.huffable |= 1u128 << p;
                }
            }
            _ => {
                let s = side_of(first).ok_or_else(|| {
                    format!("`{first}` is not a side, nor `to-move`, `ply` or `huffable`")
                })?;
                match words.get(1).copied() {
                    Some("hand") => {
                        let k = words
                            .get(2)
                            .and_then(|w| kind_of(w))
                            .ok_or("`hand` needs a piece kind")?;
                        pos.hand[s as usize][k as usize] =
                            number(words.get(3).copied(), "hand")? as u16;
                    }
                    Some("captured") => {
                        pos.captured[s as usize] = number(words.get(2).copied(), "captured")? as u16
                    }
                    Some(k) => {
                        let k = kind_of(k).ok_or_else(|| format!("`{k}` is not a piece kind"))?;
                        for w in &words[2..] {
                            let p = game
                                .rules
                                .board
                                .find(w)
                                .ok_or_else(|| format!("no point named `{w}`"))?;
                            if pos.side_at(p).is_some() {
                                return Err(format!("two pieces on `{w}`"));
                            }
                            pos.put(s, k, p);
                        }
                    }
                    None => {
                        return Err(format!(
                            "`{first}` needs a piece kind, `hand` or `captured`"
                        ));
                    }
                }
            }
        }
    }
    Ok(pos)
}
