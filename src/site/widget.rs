//! What the interactive board (`templates/static/board.js`) reads from a page: the rules text, the ruleset to
//! show first, and the game records. The page has it all inline because a page opened from disk cannot fetch
//! the `rules.txt` and `.game` files beside it. Each text is in the page once: where the page shows a text to
//! its readers (the rules file, a record under the board), the board reads it from there, and the JSON object in
//! the slot's `<script type="application/json">` element carries only the texts the page does not show (a
//! board page's rules, a puzzle's record). See docs/board.md.

use serde_json::json;

use super::meta::script_json;
use crate::archive::{Archive, Entry};

/// The board's data for an item page, or `None` when the item has no compiled rules to play: a game's own
/// rules and records, or for a board the rules of the game played on it with the records of that ruleset.
/// `json` is the widget's input (escaped for a script element); `records` lists each record's title and text,
/// which the page shows as written for readers without JavaScript (a puzzle's question instead).
pub fn data(archive: &Archive, entry: &Entry) -> Option<serde_json::Value> {
    let (game, ruleset) = match entry.has_rules() {
        true => (entry, None),
        false => {
            let (g, rs) = entry
                .played_with
                .iter()
                .find(|(g, _)| archive.entries[*g].has_rules())?;
            (&archive.entries[*g], rs.clone())
        }
    };
    let rules = game.rules()?;
    let playable: Vec<&str> = rules
        .rulesets
        .iter()
        .filter(|r| r.diagram.is_some())
        .map(|r| &*r.name)
        .collect();
    let first = match ruleset {
        Some(r) if playable.contains(&r.as_str()) => r,
        Some(_) => return None,
        None => opening_ruleset(&rules.rulesets)?.to_string(),
    };
    let mut records = Vec::new();
    let mut lists = Vec::new();
    let parsed = game.game().map_or(&[][..], |g| g.records.as_slice());
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
        // A puzzle shows its question, never its moves: the solution stays out of the page's text until the
        // board reveals it, so its record goes in the board's data instead. Every other record is shown as
        // written, and the board reads it from there.
        let puzzle = record.tag("Kind") == Some("puzzle");
        let id = file_name.trim_end_matches(".game").to_string();
        let mut list = json!({
            "id": id,
            "title": title,
            "kind": record.tag("Kind"),
            "question": record.tag("Question").filter(|_| puzzle),
        });
        if !puzzle {
            list["text"] = (*source.text()).into();
        }
        lists.push(list);
        records.push(BoardRecord {
            id,
            kind: record.tag("Kind"),
            ruleset: record_ruleset,
            source: record.tag("Source"),
            text: puzzle.then(|| source.text()),
            title,
        });
    }
    // Written straight from the catalog's text: a value tree would copy every record first.
    let input = BoardInput {
        item: &game.item.id,
        records,
        // A game's page shows its rules file; a board's page plays its game's rules without showing them.
        rules: game
            .rules_text(archive)
            .filter(|_| !std::ptr::eq(game, entry)),
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
    /// `None` where the page shows the rules file (the board reads `pre.rules-file`).
    #[serde(skip_serializing_if = "Option::is_none")]
    rules: Option<crate::source::Text>,
    ruleset: String,
}

/// One game record for the board: the tags the board's menus show, and its text as the catalog holds it unless
/// the page shows it (then the board reads it from the page's `pre.board-record` of the same id).
#[derive(serde::Serialize)]
struct BoardRecord<'a> {
    id: String,
    kind: Option<&'a str>,
    ruleset: Option<String>,
    source: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    text: Option<crate::source::Text>,
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
