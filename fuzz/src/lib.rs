//! The bodies of the fuzz targets: one function per target, taking the fuzzer's bytes, calling the entry
//! points `check` and `build` call on the same kind of file. They are in a library so that the libFuzzer
//! binaries (`fuzz_targets/`, nightly) and the replay test at the repository's root (`tests/fuzz_replay.rs`,
//! stable, which compiles this very file) run the same code on the seeds and the regression inputs.
//!
//! Each body returns quietly on any input the program refuses; a panic (or an assertion below) is a bug. The
//! assertions are properties the program promises whatever the input: a move written in notation reads back,
//! undo restores the position, a game is over exactly when it has no legal move, Markdown never yields markup
//! of its own.

use std::path::PathBuf;
use std::sync::OnceLock;

use ludotheca::archive::rules::{Shared, from_compiled};
use ludotheca::archive::text;
use ludotheca::catalog::{self, Catalog, bibtex, config};
use ludotheca::check::{self, RecordSummary};
use ludotheca::diagnostic::{Diagnostic, Diagnostics};
use ludotheca::site::{cite, markdown};
use ludotheca::source::{FileId, SourceMap};
use ludotheca_engine::record::{self, Record};
use ludotheca_engine::rules::CompiledRuleset;
use ludotheca_engine::{Compiled, Game, RulesFile};

/// A target's body: the fuzzer's bytes in, a panic on a bug.
pub type Target = fn(&[u8]);

/// The targets, by name: what the fuzz binaries run and the replay test replays.
pub const TARGETS: [(&str, Target); 9] = [
    ("record", record),
    ("rules", rules),
    ("game_record", game_record),
    ("bibliography", bibliography),
    ("config", config),
    ("markdown", markdown),
    ("import_omeka_s", import_omeka_s),
    ("import_omeka_csv", import_omeka_csv),
    ("import_oai_pmh", import_oai_pmh),
];

/// The most plies the `rules` target plays in one game. Each ply lists every legal move, which the engine caps
/// at `MAX_MOVES`; a few dozen plies get past the opening moves without making one input slow.
const MAX_PLIES: usize = 48;

/// A file's bytes as the loader reads them into text: `None` when they are not UTF-8, which the loader reports
/// (E004) and then parses no further.
fn text_of(data: &[u8]) -> Option<String> {
    catalog::decode(data.to_vec()).ok()
}

/// Writes the diagnostics out as `check` does, in both formats, so that their positions and source lines are
/// computed from the fuzzed text too.
fn render(diagnostics: &mut Diagnostics) {
    diagnostics.sort();
    for d in diagnostics.iter() {
        let _ = d.render_human(false);
        let _ = d.render_json();
    }
}

/// A diagnostic at a line and column the engine reported, written out as `check` writes it.
fn report_at(
    files: &SourceMap,
    file: FileId,
    (line, column, length): (u32, u32, usize),
    code: &'static str,
    message: &str,
) {
    let mut diagnostics = Diagnostics::new();
    diagnostics.push(Diagnostic::error(code, message).at_line_column(
        files,
        file,
        line as usize,
        column as usize,
        length,
    ));
    render(&mut diagnostics);
}

/// `record.xml`: decoded and read as the loader reads it, then given the checks of a record that need no other
/// item (kind, elements, every value against its scheme and language, duplicates, confidence, required terms,
/// the identifier), as [`check::check_records`] runs them in `check`. The values' page names are made as the
/// site makes them.
pub fn record(data: &[u8]) {
    let Some(text) = text_of(data) else { return };
    let mut files = SourceMap::default();
    let mut diagnostics = Diagnostics::new();
    let item = catalog::read_record("item", text, &mut files, &mut diagnostics);
    let mut catalog = Catalog::new(PathBuf::from("catalog"), files);
    catalog.add_item(item);
    check::check_records(&catalog, &mut diagnostics);
    render(&mut diagnostics);
    for value in &catalog.items[0].values {
        let slug = text::slug(&value.text);
        // Page names are cut to a length every file system takes, and `--` is kept for telling clashes apart.
        assert!(
            slug.len() <= text::MAX_SLUG_BYTES + 9,
            "slug too long: {slug}"
        );
        assert!(!slug.contains("--"), "slug with `--`: {slug}");
        let _ = text::words(&value.text).count();
        let _ = text::summary(&value.text, 200);
    }
}

/// `rules.txt`: the bytes up to the first NUL are the rules text, the bytes after it choose moves. The text is
/// parsed and every ruleset compiled as `check` does (with the site's view of the rules, and the diagnostic
/// for a file that does not compile); then each compiled ruleset is played from its start position, the legal
/// moves listed at each ply and one of them played, chosen by the next two bytes.
pub fn rules(data: &[u8]) {
    let (rules, choices) = match data.iter().position(|&b| b == 0) {
        Some(nul) => (&data[..nul], &data[nul + 1..]),
        None => (data, &[][..]),
    };
    let Some(text) = text_of(rules) else { return };
    let (info, compiled) = match RulesFile::parse_all(&text) {
        Ok((file, compiled)) => (file.info(), compiled),
        Err(errors) => {
            let _ = from_compiled(Err(&errors[0]), &Shared::default());
            let mut files = SourceMap::default();
            let id = files.add(PathBuf::from("rules.txt"), text);
            for err in &errors {
                report_at(&files, id, (err.line, err.column, 1), "E100", &err.message);
            }
            return;
        }
    };
    let _ = from_compiled(Ok((&info, &compiled)), &Shared::default());
    let choices: Vec<usize> = choices
        .chunks(2)
        .map(|c| usize::from(c[0]) | usize::from(c.get(1).copied().unwrap_or(0)) << 8)
        .collect();
    for (_, game) in &compiled {
        play(game, &choices);
    }
}

/// Plays `game` from its start, one chosen legal move a ply, checking at each ply what every caller of the
/// engine relies on; then the game, written as a record's move text, must replay to the same position.
fn play(game: &Compiled, choices: &[usize]) {
    let start = game.start();
    let mut pos = start.clone();
    let mut played = Vec::new();
    let mut moves = Vec::new();
    for ply in 0..=choices.len().min(MAX_PLIES) {
        moves.clear();
        // Over the cap the position is refused, as `check` and the page refuse it.
        if game.legal_moves(&pos, &mut moves).is_err() {
            return;
        }
        assert_eq!(
            game.outcome(&pos).is_some(),
            moves.is_empty(),
            "a game is over exactly when no move is legal: {}",
            game.format_position(&pos)
        );
        let written = game.format_position(&pos);
        let read = game
            .parse_position(&written)
            .unwrap_or_else(|e| panic!("position `{written}` does not read back: {e}"));
        assert_eq!(
            game.format_position(&read),
            written,
            "a position reads back as written"
        );
        let (Some(&choice), false) = (choices.get(ply), moves.is_empty()) else {
            break;
        };
        let mv = &moves[choice % moves.len()];
        let notation = game.format_move(&pos, mv);
        let read = game.parse_move(&pos, &notation).unwrap_or_else(|e| {
            panic!("move `{notation}` in `{written}` does not read back: {e:?}")
        });
        // Two moves may read the same (the first listed is given); what is written must not change.
        assert_eq!(game.format_move(&pos, &read), notation, "in `{written}`");
        let _ = game.describe_move(&pos, mv);
        let before = pos.clone();
        let undo = game.play(&mut pos, mv);
        let mut back = pos.clone();
        game.undo(&mut back, mv, undo);
        assert_eq!(back, before, "undoing `{notation}` restores the position");
        played.push(mv.clone());
    }
    let text = record::write_moves(game, &start, &played);
    let written = Record::parse_moves(&text)
        .unwrap_or_else(|e| panic!("the move text `{text}` does not read back: {e}"));
    let replayed = record::replay(game, &written)
        .unwrap_or_else(|e| panic!("the move text `{text}` does not replay: {e}"));
    assert_eq!(
        replayed.positions.last(),
        Some(&pos),
        "`{text}` replays to where it was played"
    );
}

/// The shipped rules files a game record is replayed under. Compiled once: compiling Tchouba's 25 rulesets for
/// every input would be most of the target's time.
const SHIPPED_RULES: [&str; 8] = [
    include_str!("../../catalog/games/bagh-chal/rules.txt"),
    include_str!("../../catalog/games/dam-pursi/rules.txt"),
    include_str!("../../catalog/games/mogol-putthan/rules.txt"),
    include_str!("../../catalog/games/permainan-tabal/rules.txt"),
    include_str!("../../catalog/games/shimunana/rules.txt"),
    include_str!("../../catalog/games/sumi-naga-hunt/rules.txt"),
    include_str!("../../catalog/games/tchouba/rules.txt"),
    include_str!("../../catalog/games/terhuchu/rules.txt"),
];

fn shipped() -> &'static [Vec<CompiledRuleset>] {
    static SHIPPED: OnceLock<Vec<Vec<CompiledRuleset>>> = OnceLock::new();
    SHIPPED.get_or_init(|| {
        SHIPPED_RULES
            .iter()
            .map(|text| {
                RulesFile::parse_compiled(text)
                    .expect("the shipped rules compile")
                    .1
            })
            .collect()
    })
}

/// A game record (`games/*.game`): decoded and parsed as `check` reads it, summarised as the site keeps it,
/// then replayed, as `check` replays it, under each shipped rules file that has the ruleset its `Ruleset` tag
/// names (the first ruleset when it names none), with every error turned into a diagnostic at its line and
/// column. A record that replays is replayed again keeping its positions, as the site does, and must end in
/// the same place, as must its moves written out again as move text. The same text is also read as bare move
/// text, as `moves --after` reads it.
pub fn game_record(data: &[u8]) {
    let Some(text) = text_of(data) else { return };
    let mut files = SourceMap::default();
    let file = files.add(PathBuf::from("game.game"), text);
    let text = &*files.get(file).text();
    let _ = Record::parse_moves(text);
    let record = match Record::parse(text) {
        Ok(record) => record,
        Err(err) => {
            // The count-only reading fails where the full one does, with the same diagnostic.
            let counted = Record::parse_counting(text)
                .map(|_| ())
                .map_err(|e| e.to_string());
            assert_eq!(counted, Err(err.to_string()));
            report_at(
                &files,
                file,
                (err.line, err.column, 1),
                "E102",
                &err.message,
            );
            return;
        }
    };
    let _ = RecordSummary::of(&record, record.moves.len());
    // The count-only reading must agree with the full one on any text.
    match Record::parse_counting(text) {
        Ok((counted, count)) => {
            assert_eq!(count, record.moves.len());
            assert_eq!(counted.tags, record.tags);
        }
        Err(err) => panic!("parse succeeded but parse_counting failed: {err}"),
    }
    for compiled in shipped() {
        let game = match record.tag("Ruleset") {
            Some(name) => compiled.iter().find(|(n, _)| n.as_deref() == Some(name)),
            None => compiled.first(),
        };
        let Some((_, game)) = game else { continue };
        match record::check(game, &record) {
            Ok(checked) => {
                let replayed = record::replay(game, &record).expect("`check` accepted the record");
                assert_eq!(replayed.positions.last(), Some(&checked.end));
                assert_eq!(replayed.moves.len(), checked.plies);
                assert_eq!(replayed.outcome, checked.outcome);
                // The moves written out again, as the engine writes move text, replay to the same end.
                let text = record::write_moves(game, &replayed.positions[0], &replayed.moves);
                let mut again = Record::parse_moves(&text)
                    .unwrap_or_else(|e| panic!("the move text `{text}` does not read back: {e}"));
                again.tags = record
                    .tags
                    .iter()
                    .filter(|t| t.name == "Position")
                    .cloned()
                    .collect();
                let again = record::check(game, &again)
                    .unwrap_or_else(|e| panic!("the move text `{text}` does not replay: {e}"));
                assert_eq!(
                    again.end, checked.end,
                    "`{text}` replays to the record's end"
                );
            }
            Err(err) => {
                let length = record
                    .moves
                    .iter()
                    .find(|m| m.line == err.line && m.column == err.column)
                    .map_or(1, |m| record.text_of(m).chars().count().max(1));
                let code = if err.legal.is_empty() { "E105" } else { "E103" };
                report_at(
                    &files,
                    file,
                    (err.line, err.column, length),
                    code,
                    &err.message,
                );
            }
        }
    }
}

/// `sources.bib`: decoded and read as the loader reads it, each entry written as the site writes it (short
/// and full references, authors, pages).
pub fn bibliography(data: &[u8]) {
    let Some(text) = text_of(data) else { return };
    let mut files = SourceMap::default();
    let file = files.add(PathBuf::from("sources.bib"), text);
    let mut diagnostics = Diagnostics::new();
    let sources = bibtex::parse(&files, file, &mut diagnostics);
    render(&mut diagnostics);
    for entry in &sources.entries {
        let _ = cite::short(entry);
        let _ = cite::full(entry);
        let _ = cite::entry_authors(entry);
        if let Some(pages) = entry.get("pages") {
            let _ = cite::pages(pages);
        }
        let _ = sources.get(&entry.key.value);
    }
}

/// `ludotheca.toml`: decoded and read as the loader reads it; the description is rendered as the home page
/// renders it.
pub fn config(data: &[u8]) {
    let Some(text) = text_of(data) else { return };
    let mut files = SourceMap::default();
    let file = files.add(PathBuf::from("ludotheca.toml"), text);
    let mut diagnostics = Diagnostics::new();
    let config = config::parse(&files, file, &mut diagnostics);
    render(&mut diagnostics);
    let html = markdown::to_html(&config.description, 1);
    assert_safe_html(&html);
    if let Some(url) = &config.base_url {
        assert!(
            config::site_address(url).is_ok(),
            "a base_url the reader kept is an address: {url}"
        );
    }
}

/// Markdown (`about.md`, descriptions): rendered as the pages render it, and stripped as summaries and
/// metadata strip it. The HTML may hold only the markup pulldown-cmark writes, and links only to safe places.
pub fn markdown(data: &[u8]) {
    let Some(text) = text_of(data) else { return };
    for demote in [1, 2] {
        assert_safe_html(&markdown::to_html(&text, demote));
    }
    let _ = text::strip_markdown(&text);
    let _ = text::summary(&text, 200);
}

/// The elements pulldown-cmark writes for the Markdown the site enables (tables and strikethrough); images are
/// dropped by the site, raw HTML is escaped.
const ALLOWED_ELEMENTS: &[&str] = &[
    "p",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "blockquote",
    "pre",
    "code",
    "ol",
    "ul",
    "li",
    "em",
    "strong",
    "del",
    "a",
    "hr",
    "br",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
];

/// Attributes pulldown-cmark writes on those elements: a link's target and title, a list's first number, a
/// table cell's alignment, a code block's language.
const ALLOWED_ATTRIBUTES: &[&str] = &["href", "title", "start", "style", "class"];

/// Every tag in `html` is one of [`ALLOWED_ELEMENTS`] with only [`ALLOWED_ATTRIBUTES`], and every link's
/// target has no scheme a browser would run (the scheme as a browser finds it: control characters and spaces
/// trimmed, tabs and newlines removed).
fn assert_safe_html(html: &str) {
    let mut rest = html;
    while let Some(at) = rest.find('<') {
        let tag = &rest[at + 1..];
        let end = tag
            .find('>')
            .unwrap_or_else(|| panic!("a tag is not closed in {html}"));
        let inside = &tag[..end];
        let name_and_attributes = inside.strip_prefix('/').unwrap_or(inside);
        let name: String = name_and_attributes
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        assert!(
            ALLOWED_ELEMENTS.contains(&name.as_str()),
            "element `{name}` in {html}"
        );
        // Attribute values are double-quoted with `"` escaped, so the pieces alternate: names, value, names...
        for (i, piece) in name_and_attributes[name.len()..].split('"').enumerate() {
            if i % 2 == 1 {
                continue;
            }
            let names = piece.trim().trim_end_matches('/').trim();
            for attribute in names.split_whitespace() {
                let attribute = attribute.trim_end_matches('=');
                assert!(
                    ALLOWED_ATTRIBUTES.contains(&attribute),
                    "attribute `{attribute}` in {html}"
                );
            }
        }
        if let Some(href) = name_and_attributes.split("href=\"").nth(1) {
            let href = href.split('"').next().unwrap_or("");
            let href = href
                .replace("&quot;", "\"")
                .replace("&#x27;", "'")
                .replace("&amp;", "&");
            if let Some(scheme) = browser_scheme(&href) {
                assert!(
                    matches!(scheme.as_str(), "http" | "https" | "mailto"),
                    "link to `{href}` in {html}"
                );
            }
        }
        rest = &tag[end..];
    }
}

/// The scheme a browser reads in a link's target, lowercase: leading and trailing spaces and control
/// characters trimmed, tabs and newlines removed anywhere, then letters, digits, `+`, `-` and `.` up to a `:`.
fn browser_scheme(href: &str) -> Option<String> {
    let cleaned: String = href
        .trim_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    let (scheme, _) = cleaned.split_once(':')?;
    let valid = scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    valid.then(|| scheme.to_ascii_lowercase())
}

/// What the importers made of one input file: every draft written as the record the import would write, and
/// that record read back by the loader's reader. The import refuses to write a record that does not read back
/// (E209), so a draft whose record has errors of the reader's own is a bug of the importer, not of the input.
fn imported(input: ludotheca::interop::Input, mut diagnostics: Diagnostics) {
    for draft in &input.drafts {
        let _ = draft.title();
        let xml = ludotheca::interop::draft::record_xml(draft, ludotheca::catalog::Kind::Game);
        let mut back = SourceMap::default();
        let mut read_back = Diagnostics::new();
        let _ = catalog::read_record("item", xml.clone(), &mut back, &mut read_back);
        assert!(
            !read_back
                .iter()
                .any(|d| matches!(d.code, "E001" | "E002" | "E003" | "E006" | "E009" | "E042")),
            "an imported record that does not read back: {xml}"
        );
    }
    render(&mut diagnostics);
}

/// One input file of `ludotheca import FORMAT`, as text in a source map, the way the import reads it.
fn import_input(data: &[u8]) -> Option<(SourceMap, FileId)> {
    let text = text_of(data)?;
    let mut files = SourceMap::default();
    let id = files.add(PathBuf::from("input"), text);
    Some((files, id))
}

/// `import omeka-s`: an Omeka S API response (an item, a page of items, resource templates, item sets).
pub fn import_omeka_s(data: &[u8]) {
    let Some((files, id)) = import_input(data) else {
        return;
    };
    let mut input = ludotheca::interop::Input::default();
    let mut diagnostics = Diagnostics::new();
    ludotheca::interop::omeka_s::read(&files, &[id], &mut input, &mut diagnostics);
    imported(input, diagnostics);
}

/// `import omeka-csv`: a CSV file of either Omeka layout; the first byte, when it is printable and not a quote,
/// is the separator of several values in one cell (`--separator`), else there is none.
pub fn import_omeka_csv(data: &[u8]) {
    let (separator, rest) = match data.split_first() {
        Some((&b, rest)) if b.is_ascii_graphic() && b != b'"' => {
            (Some((b as char).to_string()), rest)
        }
        Some((_, rest)) => (None, rest),
        None => return,
    };
    let Some((files, id)) = import_input(rest) else {
        return;
    };
    let mut input = ludotheca::interop::Input::default();
    let mut diagnostics = Diagnostics::new();
    ludotheca::interop::omeka_csv::read(
        &files,
        id,
        separator.as_deref(),
        &mut input,
        &mut diagnostics,
    );
    imported(input, diagnostics);
}

/// `import oai-pmh`: a saved ListRecords response (oai_dc or qualified DC), or a static repository.
pub fn import_oai_pmh(data: &[u8]) {
    let Some((files, id)) = import_input(data) else {
        return;
    };
    let mut input = ludotheca::interop::Input::default();
    let mut diagnostics = Diagnostics::new();
    ludotheca::interop::oai_pmh::read(&files, id, &mut input, &mut diagnostics);
    imported(input, diagnostics);
}
