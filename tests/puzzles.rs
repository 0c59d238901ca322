//! Puzzles on the built site: the puzzles page lists every puzzle record of the shipped catalog (counted from
//! the catalog's files, not from the site) with its question and a working link to the board that opens it,
//! naming the ruleset where the game has several; and no page gives a solution away before the board does. The
//! visible text of a page is its HTML text outside `<script>` elements: the board's data carries the whole
//! record, comments and all, for the board to show once the puzzle is solved.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

mod common;
use common::{Scratch, Tag, parse_html, resolve, snapshot};

use ludotheca_engine::record::Record;

const CATALOG: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/catalog");

/// A puzzle as its catalog file writes it.
struct Puzzle {
    game: String,
    id: String,
    title: String,
    ruleset: Option<String>,
    question: String,
    intro: Option<String>,
    moves: Vec<String>,
    comments: Vec<String>,
}

fn squash(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Every record of kind `puzzle` under `catalog/games/*/games/`.
fn catalog_puzzles() -> Vec<Puzzle> {
    let mut puzzles = Vec::new();
    let mut games: Vec<_> = fs::read_dir(Path::new(CATALOG).join("games"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    games.sort();
    for game in games {
        let Ok(files) = fs::read_dir(game.join("games")) else {
            continue;
        };
        for file in files {
            let path = file.unwrap().path();
            if path.extension().is_none_or(|e| e != "game") {
                continue;
            }
            let record = Record::parse(&fs::read_to_string(&path).unwrap()).unwrap();
            let tag = |name: &str| {
                record
                    .tags
                    .iter()
                    .find(|t| t.name == name)
                    .map(|t| t.value.clone())
            };
            if tag("Kind").as_deref() != Some("puzzle") {
                continue;
            }
            puzzles.push(Puzzle {
                game: game.file_name().unwrap().to_string_lossy().into_owned(),
                id: path.file_stem().unwrap().to_string_lossy().into_owned(),
                title: tag("Title").or(tag("Event")).unwrap(),
                ruleset: tag("Ruleset"),
                question: tag("Question").expect("a puzzle has a question"),
                intro: record.intro.clone(),
                moves: record
                    .moves
                    .iter()
                    .map(|m| record.text_of(m).to_string())
                    .collect(),
                comments: record
                    .moves
                    .iter()
                    .filter_map(|m| m.comment.as_deref().map(str::to_string))
                    .collect(),
            });
        }
    }
    puzzles
}

/// The rulesets a game's rules declare: (name, title), in order.
fn rulesets(game: &str) -> Vec<(String, String)> {
    let text = fs::read_to_string(
        Path::new(CATALOG)
            .join("games")
            .join(game)
            .join("rules.txt"),
    )
    .unwrap_or_default();
    text.lines()
        .filter_map(|l| l.strip_prefix("ruleset "))
        .filter_map(|rest| {
            let (name, title) = rest.split_once(' ')?;
            Some((name.to_string(), title.trim().trim_matches('"').to_string()))
        })
        .collect()
}

/// Moves that can be told apart from other text: a sowing move written as a bare hole number (`10`) is also
/// every other number on a page.
fn telling(moves: &[String]) -> impl Iterator<Item = &String> {
    moves
        .iter()
        .filter(|m| !m.chars().all(|c| c.is_ascii_digit()))
}

/// Whether `text` holds `word` with no letter, digit or notation character either side.
fn has_word(text: &str, word: &str) -> bool {
    let edge =
        |c: Option<char>| c.is_none_or(|c| !(c.is_ascii_alphanumeric() || "-x@(+&".contains(c)));
    text.match_indices(word).any(|(at, _)| {
        edge(text[..at].chars().next_back()) && edge(text[at + word.len()..].chars().next())
    })
}

fn build_shipped() -> (Scratch, BTreeMap<String, Vec<u8>>) {
    let scratch = Scratch::new("puzzles");
    let out = scratch.0.join("site");
    ludotheca::site::build(&common::build_options(Path::new(CATALOG), &out))
        .expect("the shipped catalog builds");
    let site = snapshot(&out);
    (scratch, site)
}

fn page<'s>(site: &'s BTreeMap<String, Vec<u8>>, path: &str) -> &'s str {
    std::str::from_utf8(site.get(path).unwrap_or_else(|| panic!("{path} is built"))).unwrap()
}

fn class_is(tag: &Tag, class: &str) -> bool {
    tag.attr("class")
        .is_some_and(|c| c.split_whitespace().any(|c| c == class))
}

#[test]
fn the_puzzles_page_lists_every_puzzle_with_its_question_and_a_link_to_its_board() {
    let puzzles = catalog_puzzles();
    assert!(puzzles.len() >= 2, "the shipped catalog has puzzles");
    let (_scratch, site) = build_shipped();
    let path = "puzzles/index.html";
    let html = page(&site, path);
    let (tags, text) = parse_html(html);
    let text = squash(&text);
    let listed = tags
        .iter()
        .filter(|t| t.name == "li" && class_is(t, "puzzle"))
        .count();
    assert_eq!(
        listed,
        puzzles.len(),
        "one entry per puzzle record of the catalog"
    );

    for p in &puzzles {
        assert!(
            text.contains(&squash(&p.question)),
            "{}: its question is shown",
            p.id
        );
        assert!(
            text.contains(&squash(&p.title)),
            "{}: its title is shown",
            p.id
        );
        // The link opens the puzzle on its game's page: relative, ending in index.html, with the record named.
        let want = format!("games/{}/index.html", p.game);
        let link = tags
            .iter()
            .filter(|t| t.name == "a")
            .filter_map(|t| t.attr("href"))
            .find(|h| h.ends_with(&format!("#record={}", p.id)))
            .unwrap_or_else(|| panic!("{}: a link opens it", p.id));
        let (target, _) = link.split_once('#').unwrap();
        assert!(!target.contains(':'), "{link}: relative");
        assert!(target.ends_with("index.html"), "{link}: ends in index.html");
        assert_eq!(
            resolve(path, target),
            want,
            "{link}: leads to the game's page"
        );
        assert!(site.contains_key(&want), "{want} exists");
        // A game of several rulesets names the one the puzzle is played on in the link's text.
        let rules = rulesets(&p.game);
        if rules.len() > 1 {
            let name = p.ruleset.clone().unwrap_or_else(|| rules[0].0.clone());
            let (_, title) = rules.iter().find(|(n, _)| *n == name).unwrap();
            let at = html.find(&format!("#record={}\"", p.id)).unwrap();
            let end = at + html[at..].find("</a>").unwrap();
            assert!(
                html[at..end].contains(title.as_str()),
                "{}: the link names its ruleset, {title}",
                p.id
            );
        }
    }

    // The page is reachable from every page's navigation, the home page among them.
    let (home, _) = parse_html(page(&site, "index.html"));
    assert!(
        home.iter()
            .any(|t| t.name == "a" && t.attr("href") == Some("puzzles/index.html")),
        "the home page links to the puzzles"
    );
}

#[test]
fn no_page_gives_a_solution_away_before_the_board_does() {
    let puzzles = catalog_puzzles();
    let (_scratch, site) = build_shipped();
    let (_, list) = parse_html(page(&site, "puzzles/index.html"));
    let list = squash(&list);
    for p in &puzzles {
        let game_path = format!("games/{}/index.html", p.game);
        let game_html = page(&site, &game_path);
        let (_, game_text) = parse_html(game_html);
        let game_text = squash(&game_text);
        // Comments of the solution line: on no page's visible text.
        for comment in &p.comments {
            let comment = squash(comment);
            for text in [&list, &game_text] {
                assert!(
                    !text.contains(&comment),
                    "{}: a solution comment is shown: {comment}",
                    p.id
                );
                // A part of it is as telling as the whole.
                let start: String = comment.chars().take(40).collect();
                assert!(
                    !text.contains(&start),
                    "{}: a solution comment is shown: {start}",
                    p.id
                );
            }
        }
        // Moves of the solution: not on the puzzles page.
        for m in telling(&p.moves) {
            assert!(
                !has_word(&list, m),
                "{}: the puzzles page shows the move {m}",
                p.id
            );
        }
        // The game page lists other records' moves for readers without JavaScript; the puzzle's own entry in
        // that list gives its question and no move.
        let summary = format!("<summary>{}", p.title);
        let at = game_html
            .find(&summary)
            .unwrap_or_else(|| panic!("{}: listed under the board", p.id));
        let end = at + game_html[at..].find("</details>").unwrap();
        let entry = &game_html[at..end];
        assert!(
            !entry.contains("<li>"),
            "{}: its moves are listed: {entry}",
            p.id
        );
        let (_, entry_text) = parse_html(entry);
        assert!(
            entry_text.contains(&p.question),
            "{}: its question is given",
            p.id
        );
        // A hole the question itself names ("either pit 21 or 23") tells nothing of which one is right.
        for m in p.moves.iter().filter(|m| !has_word(&p.question, m)) {
            assert!(!has_word(&entry_text, m), "{}: the move {m} is shown", p.id);
        }
        // The board shows the opening comment before the puzzle is solved: it must not name the answer.
        if let Some(intro) = &p.intro {
            for m in telling(&p.moves) {
                assert!(
                    !has_word(intro, m),
                    "{}: the opening comment names {m}",
                    p.id
                );
            }
            // Nor where the first move of a points-and-lines solution lands (`c3` of `c2-c3`): saying which
            // point wins is the answer, whatever piece goes there.
            let first = p.moves.first().map_or("", String::as_str);
            if first.contains(['-', 'x'])
                && let Some(to) = first.rsplit(['-', 'x']).next()
            {
                assert!(
                    !has_word(intro, to),
                    "{}: the opening comment names {to}",
                    p.id
                );
            }
        }
    }
}

#[test]
fn a_word_is_found_only_whole() {
    assert!(has_word("play c2-c3 now", "c2-c3"));
    assert!(!has_word("play xc2-c3 now", "c2-c3"));
    assert!(!has_word("d4-c2-c3", "c2-c3"));
    assert!(has_word("10(x2+pit2)!", "10(x2+pit2)"));
}

/// The puzzles page is keyed by the games it lists: editing a puzzle's question must make a rebuild show the
/// new one, and the rebuilt page must be the one a build into an empty folder makes.
#[test]
fn an_edited_question_reaches_the_puzzles_page_on_a_rebuild() {
    let scratch = Scratch::new("puzzles-rebuild");
    let catalog = scratch.0.join("catalog");
    common::copy_tree(Path::new(CATALOG), &catalog);
    let out = scratch.0.join("site");
    let build = |out: &Path| {
        ludotheca::site::build(&common::build_options(&catalog, out)).expect("the copy builds");
        snapshot(out)
    };
    build(&out);
    let record = catalog.join("games/tchouba/games/puzzle-4x8-constructed.game");
    let text = fs::read_to_string(&record).unwrap();
    let question = "[Question \"South to move and win in two moves.\"]";
    assert!(text.contains(question));
    fs::write(
        &record,
        text.replace(
            question,
            "[Question \"South to move: which hole wins by the second move?\"]",
        ),
    )
    .unwrap();
    let rebuilt = build(&out);
    let fresh = build(&scratch.0.join("fresh"));
    let list = page(&rebuilt, "puzzles/index.html");
    assert!(
        list.contains("which hole wins by the second move?"),
        "{list}"
    );
    assert_eq!(list, page(&fresh, "puzzles/index.html"));
}

/// A puzzle's wrong lines (its `Wrong` tag) are replayed by `check` from the puzzle's position, as the board
/// replays them to show their refutation: a line with an illegal move is an error at the tag.
#[test]
fn a_wrong_line_that_does_not_replay_is_reported_at_its_tag() {
    let scratch = Scratch::new("puzzles-wrong");
    let catalog = scratch.0.join("catalog");
    common::copy_tree(Path::new(CATALOG), &catalog);
    let record = catalog.join("games/tchouba/games/puzzle-4x8-constructed.game");
    let text = fs::read_to_string(&record).unwrap();
    let anchor = "[Result \"1-0\"]";
    assert!(text.contains(anchor));
    let with = |wrong: &str| {
        fs::write(
            &record,
            text.replacen(anchor, &format!("[Wrong \"{wrong}\"]\n{anchor}"), 1),
        )
        .unwrap();
        let dir = catalog.to_str().unwrap();
        common::ludotheca(&["check", "--catalog", dir, "--format", "json"])
    };
    // South's 13 is legal, and so is North's capture that answers it: a wrong line that replays passes.
    let good = with("1. 13? 2(x1+pit10)");
    assert!(good.status.success(), "{}", common::stdout(&good));
    // Hole 11 of South is empty: the second line of the tag does not replay.
    let bad = with("1. 13? 2(x1+pit10); 1. 11");
    let out = common::stdout(&bad);
    assert_eq!(bad.status.code(), Some(1), "{out}");
    let line = out
        .lines()
        .find(|l| l.contains("the wrong line `1. 11`"))
        .unwrap_or_else(|| panic!("no diagnostic of the wrong line: {out}"));
    assert!(line.contains("\"code\":\"E105\""), "{line}");
    assert!(line.contains("puzzle-4x8-constructed.game"), "{line}");
    assert!(line.contains("\"line\":7,\"column\":9"), "{line}");
}
