//! What the interactive board (issue 6, `templates/static/board.js`) reads from a page: the rules text, the
//! ruleset to show first, and the game records, as one JSON object in a `<script type="application/json">`
//! element inside the board slot. The page has it all inline because a page opened from disk cannot fetch the
//! `rules.txt` and `.game` files beside it. See docs/board.md.

use serde_json::json;

use super::meta::script_json;
use crate::archive::{Archive, Entry};

/// The board's data for an item page, or `None` when the item has no compiled rules to play: a game's own
/// rules and records, or for a board the rules of the game played on it with the records of that ruleset.
/// `json` is the widget's input (escaped for a script element); `records` lists each record's title and moves
/// as written, which the page shows as plain lists for readers without JavaScript.
pub fn data(archive: &Archive, entry: &Entry) -> Option<serde_json::Value> {
    let (game, ruleset) = match &entry.rules {
        Some(_) => (entry, None),
        None => {
            let (g, rs) = entry
                .played_with
                .iter()
                .find(|(g, _)| archive.entries[*g].rules.is_some())?;
            (&archive.entries[*g], rs.clone())
        }
    };
    let rules = game.rules.as_ref()?;
    let playable: Vec<&str> = rules
        .rulesets
        .iter()
        .filter(|r| r.diagram.is_some())
        .map(|r| r.name.as_str())
        .collect();
    let first = match ruleset {
        Some(r) if playable.contains(&r.as_str()) => r,
        Some(_) => return None,
        None => opening_ruleset(&rules.rulesets)?.to_string(),
    };
    let mut records = Vec::new();
    let mut lists = Vec::new();
    let parsed = game.game.map_or(&[][..], |g| g.records.as_slice());
    for (&file, record) in game.item.game_records.iter().zip(parsed) {
        let source = archive.catalog.files.get(file);
        let Some(record) = record else { continue };
        let record_ruleset = record
            .tag("Ruleset")
            .map(str::to_string)
            .or_else(|| playable.first().map(|s| s.to_string()));
        // A board page offers only the games of the ruleset played on that board.
        if !std::ptr::eq(game, entry) && record_ruleset.as_deref() != Some(first.as_str()) {
            continue;
        }
        let file_name = source
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let title = record.tag("Title").or(record.tag("Event"));
        // A puzzle's list shows its question, never its moves: the solution stays out of the page's text
        // until the board reveals it (the record itself, comments and all, is in the data above).
        let puzzle = record.tag("Kind") == Some("puzzle");
        // The list items are made here rather than by a template loop: a long game has hundreds of moves,
        // and the template engine's loop cost more than the rest of the page.
        let mut moves_html = String::new();
        if !puzzle {
            for mv in ludotheca_engine::record::written_moves(&source.text) {
                moves_html.push_str("<li>");
                crate::site::theme::push_escaped(&mut moves_html, mv);
                moves_html.push_str("</li>");
            }
        }
        let mut list = json!({
            "title": title,
            "kind": record.tag("Kind"),
            "question": record.tag("Question").filter(|_| puzzle),
        });
        // Moved in: `json!` would copy the text.
        list["moves_html"] = moves_html.into();
        lists.push(list);
        records.push(BoardRecord {
            id: file_name.trim_end_matches(".game").to_string(),
            kind: record.tag("Kind"),
            ruleset: record_ruleset,
            source: record.tag("Source"),
            text: &source.text,
            title,
        });
    }
    // Written straight from the catalog's text: a value tree would copy every record first.
    let input = BoardInput {
        item: &game.item.id,
        records,
        rules: game.rules_text(archive),
        ruleset: first,
    };
    let mut data = json!({ "json": script_json(&input) });
    data["records"] = serde_json::Value::Array(lists);
    Some(data)
}

/// What the board's script reads from the page (static/board.js): the item, its rules and its records.
#[derive(serde::Serialize)]
// Fields in the order of their names, as the page has always had them.
struct BoardInput<'a> {
    item: &'a str,
    records: Vec<BoardRecord<'a>>,
    rules: Option<&'a str>,
    ruleset: String,
}

/// One game record for the board: its text as the catalog holds it, with the tags the board's menus show.
#[derive(serde::Serialize)]
struct BoardRecord<'a> {
    id: String,
    kind: Option<&'a str>,
    ruleset: Option<String>,
    source: Option<&'a str>,
    text: &'a str,
    title: Option<&'a str>,
}

/// Boards with more points than this open on a smaller ruleset of the same standing when there is one: 4 x 40
/// Tchouba's 160 holes need the page's whole width and a scroll to be legible, 4 x 8's 32 do not.
const LARGE_BOARD: usize = 64;

/// The ruleset the board shows first: the first playable one, unless its board is large and another ruleset of
/// the same type (described, reconstructed...) has a board within `LARGE_BOARD`; then the smallest of those. A
/// record of the large board still opens on it (the widget switches to a record's ruleset).
fn opening_ruleset(rulesets: &[crate::archive::rules::Ruleset]) -> Option<&str> {
    let points = |r: &crate::archive::rules::Ruleset| r.diagram.as_ref().map(|d| d.points.len());
    let first = rulesets.iter().find(|r| r.diagram.is_some())?;
    if points(first)? <= LARGE_BOARD {
        return Some(&first.name);
    }
    let smaller = rulesets
        .iter()
        .filter(|r| r.kind == first.kind && points(r).is_some_and(|n| n <= LARGE_BOARD))
        .min_by_key(|r| points(r));
    Some(&smaller.unwrap_or(first).name)
}
