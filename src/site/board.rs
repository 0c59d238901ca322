//! Board diagrams as SVG, drawn from a ruleset's compiled geometry and start position: points and lines with
//! the pieces standing at the start, or for a sowing game its rows of holes with their seeds.
//!
//! Every diagram is a picture file ([`image`]), one per distinct drawing, shared by every page that shows it:
//! a ruleset's start, the board section's (which the interactive board replaces with a drawing of its own)
//! and a puzzle's position. Points and holes carry `data-point="<name>"`, and the pieces' shapes differ by
//! side (disc and square) as well as by colour.

use std::fmt::Write as _;

use ludotheca_engine::ruleset::Family;

use super::theme::escape_html;
use crate::archive::Diagram;

/// Pixels per unit of the geometry (grid points are one unit apart).
const UNIT: f64 = 64.0;
const MARGIN: f64 = 28.0;

/// A diagram as a picture file of its own, for pages that show it without playing on it: one file serves
/// every ruleset and game that starts on the same board, instead of a copy in each page. Its text (title,
/// description, side names) is the page's to give, as the `alt` of the image, so the file depends only on
/// the drawing. A picture does not see the page's style sheet, so it carries its colours, light and dark.
pub struct Image {
    pub svg: String,
    pub width: u32,
    pub height: u32,
}

/// The colours of `style.css`'s diagram rules, for a diagram drawn as a picture file.
const IMAGE_STYLE: &str = "svg{--paper:#fbf8f2;--panel:#f2ede3;--rule:#d8cfbf;--ink:#1f1c17;--line:#6e6252;\
--piece-0:#fffdf7;--piece-1:#2c2a26;background:var(--panel)}\
@media (prefers-color-scheme:dark){svg{--paper:#181613;--panel:#23201b;--rule:#3d372e;--ink:#ece6da;\
--line:#a89a85;--piece-0:#f4efe4;--piece-1:#0d0c0a}}\
.lines polyline{fill:none;stroke:var(--line);stroke-width:2}.point{fill:var(--line)}\
.piece{stroke:var(--ink);stroke-width:2}.piece.side-0{fill:var(--piece-0)}.piece.side-1{fill:var(--piece-1)}\
.frame{fill:none;stroke:var(--line);stroke-width:2}.divider{stroke:var(--line);stroke-width:1;stroke-dasharray:4 4}\
.hole{stroke:var(--line);stroke-width:2}.hole.side-0{fill:var(--paper)}.hole.side-1{fill:var(--rule)}\
text{fill:var(--ink);font-family:system-ui,sans-serif;font-size:17px;text-anchor:middle}";

pub fn image(diagram: &Diagram) -> Image {
    let frame = Frame::of(diagram);
    let mut svg = String::with_capacity(4096);
    let _ = write!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {:.0} {:.0}\" width=\"{:.0}\" \
         height=\"{:.0}\"><style>{IMAGE_STYLE}</style>",
        frame.width, frame.height, frame.width, frame.height,
    );
    draw(&mut svg, diagram, &frame);
    svg.push_str("</svg>\n");
    Image {
        svg,
        width: frame.width.round() as u32,
        height: frame.height.round() as u32,
    }
}

/// The start position in words: what a screen reader says for the diagram.
pub fn describe(diagram: &Diagram, sides: &[String]) -> String {
    match diagram.family {
        Family::Sowing => {
            let mut desc = format!("{} holes in rows.", diagram.points.len());
            for side in 0..2u8 {
                let seeds: u32 = diagram
                    .points
                    .iter()
                    .filter(|p| p.owner == Some(side))
                    .map(|p| u32::from(p.seeds.unwrap_or(0)))
                    .sum();
                let _ = write!(desc, " {}: {seeds} seeds.", side_name(sides, side));
            }
            desc
        }
        Family::PointsAndLines => {
            let mut desc = format!("{} points.", diagram.points.len());
            for side in 0..2u8 {
                let on: Vec<&str> = diagram
                    .points
                    .iter()
                    .filter(|p| p.piece.as_ref().is_some_and(|(s, _)| *s == side))
                    .map(|p| p.name.as_str())
                    .collect();
                let hand = diagram.in_hand[usize::from(side)];
                let _ = write!(desc, " {}:", side_name(sides, side));
                if on.is_empty() && hand == 0 {
                    desc.push_str(" no pieces.");
                    continue;
                }
                if !on.is_empty() {
                    let _ = write!(desc, " on {}", on.join(" "));
                }
                if hand > 0 {
                    let _ = write!(
                        desc,
                        "{} {hand} in hand",
                        if on.is_empty() { "" } else { ";" }
                    );
                }
                desc.push('.');
            }
            desc
        }
    }
}

/// A position in words, hole by hole where [`describe`] sums the seeds: a puzzle's seeds are few, and a
/// reader who cannot see the diagram needs each hole to solve it.
pub fn describe_position(diagram: &Diagram, sides: &[String]) -> String {
    if diagram.family != Family::Sowing {
        return describe(diagram, sides);
    }
    let mut desc = format!("{} holes in rows.", diagram.points.len());
    for side in 0..2u8 {
        let holes: Vec<String> = diagram
            .points
            .iter()
            .filter(|p| p.owner == Some(side) && p.seeds.unwrap_or(0) > 0)
            .map(|p| {
                // Hole names are the side's letter and the number (`S12`); the number is what moves name.
                let number = p.name.trim_start_matches(|c: char| c.is_ascii_alphabetic());
                format!("hole {number}: {}", p.seeds.unwrap_or(0))
            })
            .collect();
        let _ = write!(desc, " {}: ", side_name(sides, side));
        if holes.is_empty() {
            desc.push_str("no seeds.");
        } else {
            let _ = write!(desc, "{}.", holes.join(", "));
        }
    }
    desc
}

struct Frame {
    min_x: f64,
    max_y: f64,
    width: f64,
    height: f64,
}

impl Frame {
    fn of(diagram: &Diagram) -> Frame {
        let finite = diagram
            .points
            .iter()
            .filter(|p| p.x.is_finite() && p.y.is_finite());
        let (mut min_x, mut max_x, mut min_y, mut max_y) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
        for (i, p) in finite.enumerate() {
            if i == 0 {
                (min_x, max_x, min_y, max_y) = (p.x, p.x, p.y, p.y);
            } else {
                min_x = min_x.min(p.x);
                max_x = max_x.max(p.x);
                min_y = min_y.min(p.y);
                max_y = max_y.max(p.y);
            }
        }
        Frame {
            min_x,
            max_y,
            width: (max_x - min_x) * UNIT + 2.0 * MARGIN,
            height: (max_y - min_y) * UNIT + 2.0 * MARGIN,
        }
    }

    /// SVG coordinates: x grows to the east, y downwards (so north is up).
    fn at(&self, x: f64, y: f64) -> (f64, f64) {
        let x = if x.is_finite() { x } else { self.min_x };
        let y = if y.is_finite() { y } else { self.max_y };
        (
            (x - self.min_x) * UNIT + MARGIN,
            (self.max_y - y) * UNIT + MARGIN,
        )
    }
}

/// A coordinate with at most one decimal, and none when it is whole: diagrams of large sowing boards hold
/// hundreds of them, and every byte is written once per page.
struct Num(f64);

impl std::fmt::Display for Num {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let tenths = (self.0 * 10.0).round();
        // NaN, infinities and numbers too large for an integer keep the float's own form.
        if !tenths.is_finite() || tenths.abs() >= 1e15 {
            return write!(f, "{}", tenths / 10.0);
        }
        // Written as integers: formatting a float costs several times more, and a page's diagrams hold
        // thousands of coordinates. The sign is the float's, so that -0.0 stays "-0" as the float would print.
        let sign = if tenths.is_sign_negative() { "-" } else { "" };
        let tenths = tenths.abs() as u64;
        match tenths % 10 {
            0 => write!(f, "{sign}{}", tenths / 10),
            digit => write!(f, "{sign}{}.{digit}", tenths / 10),
        }
    }
}

fn side_name(sides: &[String], side: u8) -> String {
    sides
        .get(usize::from(side))
        .cloned()
        .unwrap_or_else(|| format!("Side {}", side + 1))
}

/// The drawing inside the `<svg>` element. It holds no text but point names and seed counts: what it shows in
/// words is the page's to say, in the image's `alt`.
fn draw(out: &mut String, diagram: &Diagram, frame: &Frame) {
    match diagram.family {
        Family::Sowing => draw_sowing(out, diagram, frame),
        Family::PointsAndLines => draw_lines(out, diagram, frame),
    }
}

fn draw_lines(out: &mut String, diagram: &Diagram, frame: &Frame) {
    out.push_str("<g class=\"lines\">");
    for line in &diagram.lines {
        let coords: Vec<String> = line
            .iter()
            .filter_map(|&i| diagram.points.get(i))
            .map(|p| {
                let (x, y) = frame.at(p.x, p.y);
                format!("{},{}", Num(x), Num(y))
            })
            .collect();
        if coords.len() >= 2 {
            let _ = write!(out, "<polyline points=\"{}\"/>", coords.join(" "));
        }
    }
    out.push_str("</g><g class=\"points\">");
    for p in &diagram.points {
        let (x, y) = frame.at(p.x, p.y);
        let name = escape_html(&p.name);
        let (cx, cy) = (Num(x), Num(y));
        let _ = write!(
            out,
            "<g data-point=\"{name}\"><circle class=\"point\" cx=\"{cx}\" cy=\"{cy}\" r=\"4\"/>"
        );
        match &p.piece {
            Some((0, _)) => {
                let _ = write!(
                    out,
                    "<circle class=\"piece side-0\" cx=\"{cx}\" cy=\"{cy}\" r=\"15\"/>"
                );
            }
            Some((side, _)) => {
                let _ = write!(
                    out,
                    "<rect class=\"piece side-{}\" x=\"{}\" y=\"{}\" width=\"26\" height=\"26\" rx=\"3\"/>",
                    side.min(&1),
                    Num(x - 13.0),
                    Num(y - 13.0),
                );
            }
            None => {}
        }
        out.push_str("</g>");
    }
    out.push_str("</g>");
}

fn draw_sowing(out: &mut String, diagram: &Diagram, frame: &Frame) {
    let _ = write!(
        out,
        "<rect class=\"frame\" x=\"4\" y=\"4\" width=\"{:.0}\" height=\"{:.0}\" rx=\"18\"/>",
        frame.width - 8.0,
        frame.height - 8.0
    );
    // Between the two players' halves.
    let middle = frame.height / 2.0;
    let _ = write!(
        out,
        "<line class=\"divider\" x1=\"12\" y1=\"{middle:.1}\" x2=\"{:.1}\" y2=\"{middle:.1}\"/>",
        frame.width - 12.0
    );
    // Each hole shows its seed count; the description sums them per side, so no title per hole.
    for p in &diagram.points {
        let (x, y) = frame.at(p.x, p.y);
        let owner = p.owner.unwrap_or(0).min(1);
        let seeds = p.seeds.unwrap_or(0);
        let _ = write!(
            out,
            "<g data-point=\"{}\"><circle class=\"hole side-{owner}\" cx=\"{}\" cy=\"{}\" r=\"24\"/>\
             <text x=\"{}\" y=\"{}\">{seeds}</text></g>",
            escape_html(&p.name),
            Num(x),
            Num(y),
            Num(x),
            Num(y + 6.0)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::archive::DiagramPoint;

    /// A coordinate as a float prints it, rounded to tenths: what `Num` writes with integers.
    fn as_float(x: f64) -> String {
        let tenths = (x * 10.0).round();
        if tenths % 10.0 == 0.0 {
            format!("{}", tenths / 10.0)
        } else {
            format!("{:.1}", tenths / 10.0)
        }
    }

    #[test]
    fn coordinates_are_written_as_a_float_would_print_them() {
        let chosen = [
            0.0, -0.0, -0.04, 0.04, 0.05, -0.05, 0.95, 1.0, -1.0, 12.25, -12.25, 99.96, 123456.7,
            -0.5, 1e20,
        ];
        for x in chosen {
            assert_eq!(Num(x).to_string(), as_float(x), "{x}");
        }
        let mut x = -2000.0;
        while x < 2000.0 {
            assert_eq!(Num(x).to_string(), as_float(x), "{x}");
            x += 0.0371;
        }
    }

    fn point(name: &str, x: f64, y: f64, piece: Option<(u8, &str)>) -> DiagramPoint {
        DiagramPoint {
            name: name.into(),
            x,
            y,
            piece: piece.map(|(s, k)| (s, k.to_string())),
            seeds: None,
            owner: None,
        }
    }

    #[test]
    fn draws_points_lines_and_pieces() {
        let diagram = Diagram {
            family: Family::PointsAndLines,
            points: vec![
                point("a1", 0.0, 0.0, Some((0, "Man"))),
                point("b<1>", 1.0, 0.0, Some((1, "<Man>"))),
            ],
            lines: vec![vec![0, 1]],
            in_hand: [0, 3],
        };
        let drawn = image(&diagram);
        let svg = &drawn.svg;
        assert!(svg.contains("<polyline points=\"28,28 92,28\"/>"), "{svg}");
        assert!(svg.contains("<g data-point=\"a1\"><circle class=\"point\" cx=\"28\" cy=\"28\" r=\"4\"/><circle class=\"piece side-0\""));
        assert!(svg.contains("<g data-point=\"b&lt;1&gt;\">"), "{svg}");
        assert!(
            svg.contains("<rect class=\"piece side-1\" x=\"79\" y=\"15\""),
            "{svg}"
        );
        assert!(
            !svg.contains("Man"),
            "a picture file holds no words of the page's"
        );
        assert_eq!((drawn.width, drawn.height), (120, 56));
        let words = describe(&diagram, &["White".into(), "Black".into()]);
        assert_eq!(words, "2 points. White: on a1. Black: on b<1>; 3 in hand.");
    }
}
