//! Explicit positions (puzzles) as text, read in two steps: the text is split into fields, then checked against
//! the rules into a position or a `SetupError` that says what to fix.
//!
//! Syntax: `<row 3>/<row 2>/<row 1>/<row 0> <side> [captured=<south>,<north>] [ply=<n>] [capped]`
//! - the board as South sees it, top row first: North's outer row, North's inner row, South's inner row, South's
//!   outer row; each row is comma-separated seed counts from South's left to South's right, no spaces;
//! - the side to move: `S` or `N` (or `south`, `north`, any case);
//! - optional: seeds each side has captured, the plies already played (for the move cap), and `capped` for a
//!   game that a sowing ended at the lap cap.
//!
//! A puzzle need not account for every seed (who captured what is often unknown), so the board plus the
//! captured seeds may be fewer than the start's stock, never more. Seeds are conserved from the setup on.
//!
//! Example, the start of Shimunana: `2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S`.

use super::{NORTH, SOUTH, SowingGame, SowingPosition};
use std::fmt;

/// Why a setup text is not a position of these rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupError {
    pub message: String,
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SetupError {}

fn err<T>(message: String) -> Result<T, SetupError> {
    Err(SetupError { message })
}

/// The fields of a setup text, before they are checked against the rules.
struct RawSetup {
    rows: Vec<Vec<u16>>,
    side: u8,
    captured: Option<[u16; 2]>,
    ply: u32,
    capped: bool,
}

fn parse_count(text: &str, what: &str) -> Result<u16, SetupError> {
    text.parse::<u16>().or_else(|_| {
        err(format!(
            "{what}: \"{text}\" is not a seed count (a whole number from 0 to {})",
            u16::MAX
        ))
    })
}

fn read(text: &str) -> Result<RawSetup, SetupError> {
    let mut fields = text.split_whitespace();
    let Some(board) = fields.next() else {
        return err(
            "the setup is empty: write the rows, then the side to move, e.g. 2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S"
                .to_string(),
        );
    };
    let mut rows = Vec::new();
    for (r, row) in board.split('/').enumerate() {
        let counts = row
            .split(',')
            .enumerate()
            .map(|(c, t)| parse_count(t, &format!("row {} (from the top), hole {}", r + 1, c + 1)))
            .collect::<Result<Vec<u16>, SetupError>>()?;
        rows.push(counts);
    }
    let side = match fields.next().map(str::to_ascii_lowercase).as_deref() {
        Some("s" | "south") => SOUTH,
        Some("n" | "north") => NORTH,
        Some(other) => return err(format!("the side to move is \"{other}\": write S or N")),
        None => return err("the side to move is missing: add S or N after the rows".to_string()),
    };
    let mut raw = RawSetup {
        rows,
        side,
        captured: None,
        ply: 0,
        capped: false,
    };
    for field in fields {
        if let Some(v) = field.strip_prefix("captured=") {
            let Some((s, n)) = v.split_once(',') else {
                return err(format!(
                    "\"{field}\": write captured=<south>,<north>, e.g. captured=4,0"
                ));
            };
            raw.captured = Some([
                parse_count(s, "captured by South")?,
                parse_count(n, "captured by North")?,
            ]);
        } else if let Some(v) = field.strip_prefix("ply=") {
            raw.ply = v
                .parse()
                .or_else(|_| err(format!("\"{field}\": the ply count must be a whole number")))?;
        } else if field == "capped" {
            raw.capped = true;
        } else {
            return err(format!(
                "unknown field \"{field}\": after the side come only captured=<s>,<n>, ply=<n> and capped"
            ));
        }
    }
    Ok(raw)
}

impl SowingGame {
    /// Reads a position written in the setup syntax (see `docs/sowing.md`), checked against these rules.
    pub fn position_from_setup(&self, text: &str) -> Result<SowingPosition, SetupError> {
        let raw = read(text)?;
        let n = self.n;
        if raw.rows.len() != 4 {
            return err(format!(
                "{} rows given: the board has 4, separated by '/' (North outer, North inner, South inner, South outer)",
                raw.rows.len()
            ));
        }
        for (r, row) in raw.rows.iter().enumerate() {
            if row.len() != n {
                return err(format!(
                    "row {} (from the top) has {} holes: these rules have {n} per row",
                    r + 1,
                    row.len()
                ));
            }
        }
        let mut pos = self.empty_position(raw.side);
        // Text rows run top to bottom (rows 3, 2, 1, 0), each from South's left (column 0).
        for (t, row) in raw.rows.iter().enumerate() {
            let board_row = 3 - t as u8;
            for (column, &seeds) in row.iter().enumerate() {
                if let Some(h) = self.hole_at(board_row, column as u16) {
                    pos.board[usize::from(h.owner)][usize::from(h.number) - 1] = seeds;
                }
            }
        }
        pos.captured = raw.captured.unwrap_or([0, 0]);
        pos.ply = raw.ply;
        pos.lap_capped = raw.capped;
        let stock = self.rules.total_seeds();
        let total = pos.total_seeds();
        if total > stock {
            return err(format!(
                "{total} seeds on the board and captured, but the game has only {stock}"
            ));
        }
        Ok(pos)
    }

    /// Writes `pos` in the setup syntax; `position_from_setup` reads it back to the same position.
    pub fn setup_to_string(&self, pos: &SowingPosition) -> String {
        let n = self.n as u16;
        let rows: Vec<String> = (0..4u8)
            .rev()
            .map(|row| {
                (0..n)
                    .map(|c| {
                        self.hole_at(row, c)
                            .map_or(0, |h| pos.seeds(h.owner, h.number))
                            .to_string()
                    })
                    .collect::<Vec<_>>()
                    .join(",")
            })
            .collect();
        let mut text = format!(
            "{} {}",
            rows.join("/"),
            if pos.side == SOUTH { "S" } else { "N" }
        );
        if pos.captured != [0, 0] {
            text.push_str(&format!(
                " captured={},{}",
                pos.captured[0], pos.captured[1]
            ));
        }
        if pos.ply != 0 {
            text.push_str(&format!(" ply={}", pos.ply));
        }
        if pos.lap_capped {
            text.push_str(" capped");
        }
        text
    }
}
