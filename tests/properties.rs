//! Property tests: whatever text the parsers of user input are given (arbitrary bytes decoded as the loader
//! would, arbitrary strings, or text made of the pieces of the formats so that it gets past the first line),
//! they return a value or an error, never panic; and moves written in notation read back as the same moves.
//! Case counts are modest so that the suite stays fast; a failing case is shrunk and printed by proptest.

use proptest::prelude::*;

use std::path::PathBuf;

use ludotheca::catalog::{bibtex, config, read_record};
use ludotheca::diagnostic::Diagnostics;
use ludotheca::source::SourceMap;
use ludotheca_engine::record::{Record, replay, write_moves};
use ludotheca_engine::{Compiled, Game, RulesFile, compile};

const BAGH_CHAL: &str = include_str!("../catalog/games/bagh-chal/rules.txt");
const TCHOUBA: &str = include_str!("../catalog/games/tchouba/rules.txt");
const RECORD: &str = include_str!("../catalog/games/bagh-chal/record.xml");

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 500,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Text made of the pieces of the formats: markup, notation, keywords and odd characters, so that random
/// input gets deep into the parsers rather than failing on its first character.
fn pieces(words: &'static [&'static str]) -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            4 => prop::sample::select(words).prop_map(str::to_string),
            1 => any::<char>().prop_map(String::from),
            1 => "[ \n\t]{1,3}",
        ],
        0..60,
    )
    .prop_map(|parts| parts.concat())
}

const XML_PIECES: &[&str] = &[
    "<?xml version=\"1.0\"?>",
    "<record xmlns=\"urn:ludotheca:record:1\" xmlns:dcterms=\"http://purl.org/dc/terms/\" kind=\"game\">",
    "</record>",
    "<dcterms:title>",
    "</dcterms:title>",
    "<dcterms:source cite=\"k\" pages=\"1\"/>",
    "<playedWith game=\"g\"/>",
    "<confidence>",
    "</confidence>",
    "<![CDATA[",
    "]]>",
    "<!--",
    "-->",
    "<!DOCTYPE r [<!ENTITY e \"x\">]>",
    "&amp;",
    "&e;",
    "&#x10FFFF;",
    "&#0;",
    "<b>",
    "</b>",
    "xml:lang=\"en\"",
    "xsi:type=\"dcterms:W3CDTF\"",
    "\u{feff}",
    "=",
    "\"",
    "'",
    ">",
    "<",
];

const RULES_PIECES: &[&str] = &[
    "game \"G\"\n",
    "board\n",
    "end\n",
    "grid 5 x 5 diagonals alquerque\n",
    "grid 23 x 26\n",
    "point p at 0 0\n",
    "line a1 b2 c3\n",
    "region r: a1 a2\n",
    "side white \"W\"\n",
    "side black \"B\"\n",
    "piece man \"M\": step, jump, slide 3, long-jump forward within r\n",
    "setup\n",
    "white: man on a1\n",
    "black: 3 man in hand\n",
    "first white\n",
    "capture optional\n",
    "chain may-stop\n",
    "outcome no-move loses\n",
    "outcome move-cap 0 draws\n",
    "ruleset x \"X\"\n",
    "type described\n",
    "source k pages 1\n",
    "sowing\n",
    "holes 40\n",
    "#",
    "\"",
    "-1",
    "18446744073709551616",
];

const GAME_PIECES: &[&str] = &[
    "[Event \"E\"]\n",
    "[Kind \"demonstration\"]\n",
    "[Kind \"puzzle\"]\n",
    "[Position \"",
    "[Question \"Q\"]\n",
    "[Ruleset \"hutton\"]\n",
    "\"]\n",
    "1.",
    "12...",
    "@c3",
    "a1-b2",
    "b2xb4",
    "xc5xe3",
    "!?",
    "{",
    "}",
    "1-0",
    "*",
    "4294967296.",
];

const BIB_PIECES: &[&str] = &[
    "@book{",
    "@article{k,",
    "@string{s = \"x\"}",
    "@comment{",
    "@preamble{",
    "author = {",
    "title = \"",
    "year = 2007,",
    "pages = {1--2}",
    " and ",
    "{\\\"u}",
    "\\",
    "#",
    "{",
    "}",
    "\"",
    ",",
    "=",
    "%",
];

/// Pieces of field values: LaTeX, the characters LaTeX reserves, name syntax.
const BIB_VALUE_PIECES: &[&str] = &[
    "{",
    "}",
    "\\'e",
    "{\\\"u}",
    "\\&",
    "&",
    "%",
    "_",
    "#",
    "~",
    "\\",
    "--",
    " and ",
    ",",
    "van",
    "Jr",
    "Ab",
    "{Co}",
    "x",
    " ",
    "\\textit{y}",
    "https://a.org/b_c~d",
];

const TOML_PIECES: &[&str] = &[
    "title = \"T\"\n",
    "description = \"",
    "base_url = \"https://example.org/\"\n",
    "base_url = \"javascript:x\"\n",
    "contact = \"a@b.c\"\n",
    "[[labels]]\n",
    "term = \"dcterms:title\"\n",
    "label = \"L\"\n",
    "term = \"dc:nothing\"\n",
    "[x]\n",
    "= ",
    "\"",
    "'''",
    "\n",
];

const MOVE_PIECES: &[&str] = &[
    "a1",
    "c3",
    "e5",
    "b2",
    "-",
    "x",
    "@",
    "+",
    "S1",
    "N12",
    "(",
    ")",
    "12",
    "0",
    "99999999999",
];

proptest! {
    #![proptest_config(config())]

    #[test]
    fn the_record_reader_never_panics_on_bytes(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        // As the loader: text that is not UTF-8 is decoded lossily and read all the same.
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let mut files = SourceMap::default();
        let mut diagnostics = Diagnostics::new();
        let _ = read_record("item", text, &mut files, &mut diagnostics);
    }

    #[test]
    fn the_record_reader_never_panics_on_markup(text in pieces(XML_PIECES)) {
        let mut files = SourceMap::default();
        let mut diagnostics = Diagnostics::new();
        let _ = read_record("item", text, &mut files, &mut diagnostics);
    }

    #[test]
    fn the_record_reader_never_panics_on_a_damaged_record(at in 0..RECORD.len(), insert in any::<String>()) {
        let mut text = RECORD.to_string();
        let at = (0..=at).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
        text.insert_str(at, &insert);
        let mut files = SourceMap::default();
        let mut diagnostics = Diagnostics::new();
        let _ = read_record("item", text, &mut files, &mut diagnostics);
    }

    #[test]
    fn the_rules_parser_never_panics(text in any::<String>()) {
        let _ = RulesFile::parse(&text);
    }

    #[test]
    fn the_rules_compiler_never_panics_on_rules_like_text(text in pieces(RULES_PIECES)) {
        if let Ok(file) = RulesFile::parse(&text) {
            let _ = file.compile(None);
        }
    }

    #[test]
    fn the_rules_compiler_never_panics_on_damaged_rules(at in 0..BAGH_CHAL.len(), cut in 0..40usize, insert in pieces(RULES_PIECES)) {
        let mut text = BAGH_CHAL.to_string();
        let end = (at + cut).min(text.len());
        if text.is_char_boundary(at) && text.is_char_boundary(end) {
            text.replace_range(at..end, &insert);
            if let Ok(file) = RulesFile::parse(&text) {
                let _ = file.compile(None);
            }
        }
    }

    #[test]
    fn the_game_record_parser_never_panics(text in any::<String>()) {
        let _ = Record::parse(&text);
        let _ = Record::parse_moves(&text);
    }

    #[test]
    fn the_game_record_parser_never_panics_on_record_like_text(text in pieces(GAME_PIECES)) {
        let _ = Record::parse(&text);
        let _ = Record::parse_moves(&text);
    }

    #[test]
    fn move_notation_never_panics(text in pieces(MOVE_PIECES), raw in any::<String>()) {
        for rules in [BAGH_CHAL, TCHOUBA] {
            let game: Compiled = compile(rules, None).expect("the shipped rules compile");
            let start = game.start();
            let _ = game.parse_move(&start, &text);
            let _ = game.parse_move(&start, &raw);
            let _ = game.parse_position(&raw);
        }
    }

    #[test]
    fn moves_read_back_as_written(choices in prop::collection::vec(any::<u16>(), 0..80)) {
        let mut moves = Vec::new();
        for rules in [BAGH_CHAL, TCHOUBA] {
            let game: Compiled = compile(rules, None).expect("the shipped rules compile");
            let mut pos = game.start();
            // A random game: at each ply, the legal move the next choice points at.
            for &choice in &choices {
                moves.clear();
                game.legal_moves(&pos, &mut moves).expect("the shipped rules stay under the cap");
                if moves.is_empty() {
                    break;
                }
                let mv = &moves[usize::from(choice) % moves.len()];
                let text = game.format_move(&pos, mv);
                let read = game.parse_move(&pos, &text);
                prop_assert!(read.is_ok(), "`{}` does not read back: {:?}", text, read.err());
                // Two moves may read the same (the first is given); what is written must not change.
                let read = read.unwrap();
                let again = game.format_move(&pos, &read);
                prop_assert_eq!(&again, &text);
                // Read and played at once, or played with nothing kept to undo it: the same as played.
                let mut at_once = pos.clone();
                let taken = game.parse_and_advance(&mut at_once, &text);
                prop_assert_eq!(taken.as_ref().ok(), Some(&read));
                let mut advanced = pos.clone();
                game.advance(&mut advanced, mv);
                game.play(&mut pos, mv);
                prop_assert_eq!(&at_once, &pos);
                prop_assert_eq!(&advanced, &pos);
                // A move refused leaves the position as it was.
                let mut refused = pos.clone();
                prop_assert!(game.parse_and_advance(&mut refused, "99(x9)").is_err());
                prop_assert_eq!(&refused, &pos);
            }
        }
    }
    #[test]
    fn the_bibliography_reader_never_panics(text in pieces(BIB_PIECES), raw in any::<String>()) {
        let _ = bibtex::parse_str(&text);
        let _ = bibtex::parse_str(&raw);
    }

    #[test]
    fn written_bibliography_entries_read_back_the_same(
        values in prop::collection::vec(
            prop::collection::vec(prop::sample::select(BIB_VALUE_PIECES), 0..12).prop_map(|p| p.concat()),
            4,
        )
    ) {
        let text = format!(
            "@misc{{k, author = {{{}}}, title = {{{}}}, url = {{{}}}, note = \"{}\"}}",
            values[0], values[1], values[2], values[3]
        );
        let (entries, errors) = bibtex::parse_str(&text);
        if errors.is_empty() && entries.len() == 1 {
            let written = bibtex::write_entry(&entries[0]);
            let (again, errors) = bibtex::parse_str(&written);
            prop_assert!(errors.is_empty(), "{:?}\n{}", errors, written);
            prop_assert_eq!(again.len(), 1);
            let (a, b) = (&entries[0], &again[0]);
            for name in ["title", "url", "note"] {
                prop_assert_eq!(a.get(name), b.get(name), "{}\n{}", name, written);
            }
            let people = |e: &bibtex::BibEntry| {
                e.field("author")
                    .map(|f| bibtex::names(&f.raw))
                    .unwrap_or_default()
                    .iter()
                    .map(|n| (n.given(), n.particle(), n.family(), n.suffix()))
                    .collect::<Vec<_>>()
            };
            prop_assert_eq!(people(a), people(b), "{}", written);
            // The other formats take any entry too.
            let _ = ludotheca::interop::bibliography::ris_record(a);
            let _ = ludotheca::interop::bibliography::csl_item(a);
        }
    }

    #[test]
    fn the_configuration_reader_never_panics(text in pieces(TOML_PIECES)) {
        let mut files = SourceMap::default();
        let file = files.add(PathBuf::from("ludotheca.toml"), text);
        let mut diagnostics = Diagnostics::new();
        let _ = config::parse(&files, file, &mut diagnostics);
    }

    #[test]
    fn recorded_games_replay_as_written(choices in prop::collection::vec(any::<u16>(), 0..60)) {
        for rules in [BAGH_CHAL, TCHOUBA] {
            let game: Compiled = compile(rules, None).expect("the shipped rules compile");
            let start = game.start();
            let mut pos = start.clone();
            let mut played = Vec::new();
            let mut moves = Vec::new();
            for &choice in &choices {
                moves.clear();
                game.legal_moves(&pos, &mut moves).expect("the shipped rules stay under the cap");
                if moves.is_empty() {
                    break;
                }
                let mv = moves[usize::from(choice) % moves.len()].clone();
                game.play(&mut pos, &mv);
                played.push(mv);
            }
            // The move text the site writes reads back, through the record parser, as the same game.
            let text = write_moves(&game, &start, &played);
            let record = Record::parse_moves(&text);
            prop_assert!(record.is_ok(), "{}: {:?}", text, record.err());
            let again = replay(&game, &record.unwrap());
            prop_assert!(again.is_ok(), "{}: {:?}", text, again.err());
            let again = again.unwrap();
            prop_assert_eq!(again.positions.last(), Some(&pos));
            prop_assert_eq!(again.moves.len(), played.len());
        }
    }
}
