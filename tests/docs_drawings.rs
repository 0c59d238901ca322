//! The board drawings in docs/rules-format.md are the engine's own (`ludotheca_engine::drawing`), so the names an
//! author reads there are the names the engine gives. Each drawing follows a marker naming the board statements
//! it draws:
//!
//! ```text
//! <!-- drawing of: grid 3 x 3 | triangle at b1 toward south -->      (the points)
//! <!-- drawing with lines of: star -->                               (the points, then the lines)
//! ```
//!
//! `UPDATE_SNAPSHOTS=1 cargo test --test docs_drawings` redraws them after an intended change.

use ludotheca_engine::{RulesFile, drawing};

const DOC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/rules-format.md");

/// The drawing of a board made of `statements` (`|` between them); a sowing board when they are `sowing` settings.
fn draw(statements: &str, lines: bool) -> String {
    let body: Vec<String> = statements
        .split('|')
        .map(|s| format!("  {}", s.trim()))
        .collect();
    let body = body.join("\n");
    let rules = if statements.trim_start().starts_with("holes") {
        format!("game \"D\"\nside south\nside north\nsowing\n{body}\nend\n")
    } else {
        // A setup needs a point: every grid has `a1`, a star alone `k1`.
        let first = if statements.contains("grid") {
            "a1"
        } else {
            "k1"
        };
        format!(
            "game \"D\"\nboard\n{body}\nend\nside a\nside b\npiece m: step\nsetup\n  a: m on {first}\n  first a\nend\n"
        )
    };
    let file = RulesFile::parse(&rules).unwrap_or_else(|e| panic!("{statements}: {e}"));
    let game = file.compile(None).expect("the board compiles");
    drawing::labelled(&game, None, lines)
}

#[test]
fn the_drawings_in_the_rules_docs_are_the_engines() {
    let text = std::fs::read_to_string(DOC).expect("docs/rules-format.md");
    let update = std::env::var_os("UPDATE_SNAPSHOTS").is_some();
    let mut out = String::new();
    let mut rest = text.as_str();
    let mut drawings = 0;
    let mut stale = Vec::new();
    while let Some(at) = rest.find("<!-- drawing ") {
        let (before, from) = rest.split_at(at);
        out.push_str(before);
        let end = from.find("-->").expect("the marker is closed") + 3;
        let marker = &from[..end];
        let (lines, statements) = match marker.split_once(" of: ") {
            Some((kind, statements)) => (
                kind.contains("with lines"),
                statements.trim_end_matches("-->").trim(),
            ),
            None => panic!("a marker is `<!-- drawing of: ... -->`: {marker}"),
        };
        out.push_str(marker);
        let after = &from[end..];
        let fence = "\n```text\n";
        assert!(after.starts_with(fence), "a ```text block follows {marker}");
        let body_end = after[fence.len()..]
            .find("```\n")
            .expect("the block is closed")
            + fence.len();
        let written = &after[fence.len()..body_end];
        let drawn = draw(statements, lines);
        if written != drawn {
            stale.push(format!(
                "{marker}\n--- in the docs\n{written}--- drawn\n{drawn}"
            ));
        }
        out.push_str(fence);
        out.push_str(&drawn);
        rest = &after[body_end..];
        drawings += 1;
    }
    out.push_str(rest);
    assert!(drawings >= 5, "found {drawings} drawings");
    if update {
        std::fs::write(DOC, out).expect("the docs can be written");
        return;
    }
    assert!(
        stale.is_empty(),
        "drawings differ from the engine's (UPDATE_SNAPSHOTS=1 redraws them):\n{}",
        stale.join("\n")
    );
}
