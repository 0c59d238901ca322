//! Boards drawn as text with their point names, for a terminal (`ludotheca show`) and for the docs, which draw
//! each built-in geometry from this code (a test keeps the docs equal to it). A rules author finds a point's name
//! and its neighbours here instead of probing moves.

use crate::any::{AnyPosition, Compiled};
use crate::board::Board;
use crate::sowing::SowingGame;

/// The board with every point's name at its place, and after each name the piece standing there when a
/// position is given (the first letter of its kind, a capital for the first side, `.` for an empty point).
/// Sowing boards are drawn as their four rows of holes, each hole with its number and, given a position, its
/// seeds. With `lines`, the lines of a board of points follow, one per row of text, so neighbours can be read.
pub fn labelled(game: &Compiled, pos: Option<&AnyPosition>, lines: bool) -> String {
    match game {
        Compiled::Lines(g) => {
            let board = &g.rules.board;
            let labels: Vec<String> = (0..board.points.len())
                .map(|i| {
                    let mut label = board.points[i].name.clone();
                    if let Some(AnyPosition::Lines(p)) = pos {
                        label.push(match (p.side_at(i as u8), p.kind_at(i as u8)) {
                            (Some(s), Some(k)) => {
                                let c =
                                    g.rules.kinds[k as usize].name.chars().next().unwrap_or('?');
                                if s == 0 {
                                    c.to_ascii_uppercase()
                                } else {
                                    c.to_ascii_lowercase()
                                }
                            }
                            _ => '.',
                        });
                    }
                    label
                })
                .collect();
            let mut out = points(board, &labels);
            if lines {
                out.push_str(&board_lines(board));
            }
            out
        }
        Compiled::Sowing(g) => {
            let seeds = match pos {
                Some(AnyPosition::Sowing(p)) => Some(p),
                _ => None,
            };
            holes(g, |side, number| seeds.map(|p| p.seeds(side, number)))
        }
    }
}

/// The lines of a board, each as its points in order.
fn board_lines(board: &Board) -> String {
    let mut out = String::from("lines:\n");
    for line in &board.lines {
        let names: Vec<&str> = line
            .iter()
            .map(|&p| board.points[p as usize].name.as_str())
            .collect();
        out.push_str("  ");
        out.push_str(&names.join(" "));
        out.push('\n');
    }
    out
}

/// Labels at the points' places, at the scale that draws the smallest picture keeping every label clear of the
/// others on its row of text (one space at least): grids come out one row per rank, and stars and corner
/// triangles, whose points sit between units, get more room.
fn points(board: &Board, labels: &[String]) -> String {
    let pts = &board.points;
    if pts.is_empty() {
        return String::new();
    }
    let (minx, maxy, miny) = pts
        .iter()
        .fold((f64::MAX, f64::MIN, f64::MAX), |(a, b, c), p| {
            (a.min(p.x), b.max(p.y), c.min(p.y))
        });
    let width = labels.iter().map(|l| l.chars().count()).max().unwrap_or(1);
    let (spanx, spany) = (pts.iter().fold(0f64, |a, p| a.max(p.x - minx)), maxy - miny);
    // Rows are counted from a whole unit, not from the topmost point: a corner triangle's tip at a fraction of
    // a unit would put every grid rank half-way between two rows of text, and rounding those halves one way
    // draws the board lopsided (one row more between the grid and the triangles below than above). A point
    // still half-way goes to the row nearer the middle of the board, so that a board symmetric north to
    // south is drawn so.
    let place = |sx: f64, sy: f64| -> Vec<(usize, usize)> {
        let top = (maxy * sy + 1e-9).floor();
        let middle = top - (maxy + miny) / 2.0 * sy;
        let row = |p: &crate::board::Point| -> i64 {
            let v = top - p.y * sy;
            let below = v.floor();
            let r = if (v - below - 0.5).abs() < 1e-9 {
                if v < middle { below + 1.0 } else { below }
            } else {
                v.round()
            };
            r as i64
        };
        let first = pts.iter().map(row).min().unwrap_or(0);
        pts.iter()
            .map(|p| {
                (
                    (row(p) - first) as usize,
                    ((p.x - minx) * sx).round() as usize,
                )
            })
            .collect()
    };
    let clear = |at: &[(usize, usize)]| -> bool {
        for i in 0..at.len() {
            for j in i + 1..at.len() {
                if at[i].0 != at[j].0 {
                    continue;
                }
                let (a, b) = if at[i].1 <= at[j].1 { (i, j) } else { (j, i) };
                if at[a].1 + labels[a].chars().count() + 1 > at[b].1 {
                    return false;
                }
            }
        }
        true
    };
    // A scale too flat for the board's shape would put a point on the row of one half a unit or more above
    // it: a triangle's rows would run together.
    let upright = |at: &[(usize, usize)]| -> bool {
        (0..at.len())
            .all(|i| (0..at.len()).all(|j| pts[i].y - pts[j].y < 0.5 - 1e-9 || at[i].0 < at[j].0))
    };
    // Of the scales that keep labels clear, the one drawing the smallest picture, a row of text counting as
    // two columns (a character is about twice as tall as it is wide).
    let mut best: Option<(f64, Vec<(usize, usize)>)> = None;
    for sy in 1..=8 {
        if !upright(&place(1.0, sy as f64)) {
            continue;
        }
        for extra in 1..=4 * width {
            let sx = (width + extra) as f64;
            let area = (spanx * sx + width as f64) * (spany * sy as f64 + 1.0) * 2.0;
            if best.as_ref().is_some_and(|(a, _)| *a <= area) {
                continue;
            }
            let at = place(sx, sy as f64);
            if clear(&at) {
                best = Some((area, at));
            }
        }
    }
    let at = best.map_or_else(|| place((5 * width) as f64, 8.0), |(_, at)| at);
    let rows = at.iter().map(|a| a.0).max().unwrap_or(0) + 1;
    let mut canvas: Vec<Vec<char>> = vec![Vec::new(); rows];
    for (i, &(r, c)) in at.iter().enumerate() {
        let row = &mut canvas[r];
        let end = c + labels[i].chars().count();
        if row.len() < end {
            row.resize(end, ' ');
        }
        for (k, ch) in labels[i].chars().enumerate() {
            row[c + k] = ch;
        }
    }
    let mut out = String::new();
    for row in canvas {
        let line: String = row.into_iter().collect();
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The four rows of a sowing board as South sees it, North's outer row on top, each hole as its owner numbers it
/// (`S1`, `N4`), with its seeds after a colon when they are known.
fn holes(g: &SowingGame, seeds: impl Fn(u8, u16) -> Option<u16>) -> String {
    let n = g.holes_per_row();
    let names = ["S outer", "S inner", "N inner", "N outer"];
    let mut cells: Vec<Vec<String>> = Vec::new();
    for row in (0..4u8).rev() {
        let mut cells_of_row = Vec::new();
        for column in 0..n {
            let Some(h) = g.hole_at(row, column) else {
                continue;
            };
            let mut cell = format!("{}{}", if h.owner == 0 { "S" } else { "N" }, h.number);
            if let Some(s) = seeds(h.owner, h.number) {
                cell.push_str(&format!(":{s}"));
            }
            cells_of_row.push(cell);
        }
        cells.push(cells_of_row);
    }
    let width = cells
        .iter()
        .flatten()
        .map(|c| c.chars().count())
        .max()
        .unwrap_or(1);
    let mut out = String::new();
    for (k, row) in cells.iter().enumerate() {
        let padded: Vec<String> = row.iter().map(|c| format!("{c:<width$}")).collect();
        let line = format!("{:<8} {}", names[3 - k], padded.join("  "));
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RulesFile;

    /// Where each label of a drawing starts: (row, column) by name.
    fn places(text: &str) -> Vec<(String, usize, usize)> {
        let mut out = Vec::new();
        for (r, line) in text.lines().enumerate() {
            let chars: Vec<char> = line.chars().collect();
            let mut c = 0;
            while c < chars.len() {
                if chars[c] == ' ' {
                    c += 1;
                    continue;
                }
                let start = c;
                while c < chars.len() && chars[c] != ' ' {
                    c += 1;
                }
                out.push((chars[start..c].iter().collect(), r, start));
            }
        }
        out
    }

    #[test]
    fn a_board_symmetric_north_to_south_is_drawn_symmetric() {
        // Corner triangles put points half-way between rows of text, above and below alike.
        let rules = "game \"D\"\nboard\n  grid 5 x 5 diagonals alquerque\n  triangle at c5 toward north\n  \
                     triangle at e5 toward north-east\n  triangle at e1 toward south-east\n  \
                     triangle at c1 toward south\n  triangle at a1 toward south-west\n  \
                     triangle at a5 toward north-west\nend\nside a\nside b\npiece m: step\n\
                     setup\n  a: m on a1\n  first a\nend\n";
        let game = RulesFile::parse(rules).unwrap().compile(None).unwrap();
        let text = labelled(&game, None, false);
        let at = places(&text);
        let last = text.lines().count() - 1;
        // Every label has one at the mirrored row, in the same column: the board's mirror image is itself.
        for (name, r, c) in &at {
            assert!(
                at.iter().any(|(_, r2, c2)| *r2 == last - r && c2 == c),
                "`{name}` at row {r}, column {c} has no mirror at row {}:\n{text}",
                last - r
            );
        }
    }
}
