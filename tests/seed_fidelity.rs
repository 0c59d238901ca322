//! The shipped catalog keeps what the pages it grew from carry. The archive began from copies of five pages: an
//! Omeka S record of Terhuchu (from the collection "Ancient Indian Boardgames: Digital Documentation"), an
//! encyclopaedia article on Terhuchu, the Digital Ludeme Project's evidence item DLP.Evidence.1679 (Hutton on
//! the Sema tiger-and-goat game), an article on Mogol Putt'han and the Mancala World article on Tchouba. Those
//! copies are not part of the repository, so the values below are written out from them here, field by field.
//!
//! Where the archive keeps a value in another spelling (a space after a comma, the bibliography's full title of
//! a book) the form checked is the archive's, and the comment says so. Descriptions and rules are in the
//! archive's own words, so what is checked of them is the facts they carry, not the prose.

use std::collections::BTreeMap;
use std::path::Path;

mod common;
use common::{Scratch, parse_html, snapshot};

use ludotheca::site::build;

const CATALOG: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/catalog");

fn squash(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn build_shipped() -> (Scratch, BTreeMap<String, Vec<u8>>) {
    let scratch = Scratch::new("seed-fidelity");
    let out = scratch.0.join("site");
    build(&common::build_options(Path::new(CATALOG), &out)).expect("the shipped catalog builds");
    let site = snapshot(&out);
    (scratch, site)
}

/// The visible text of a page's main content, white space squashed.
fn main_text(site: &BTreeMap<String, Vec<u8>>, page: &str) -> String {
    let html = String::from_utf8(site[page].clone()).unwrap();
    let start = html.find("<main").expect("a main element");
    let end = html.find("</main>").expect("the end of main");
    squash(&parse_html(&html[start..end]).1)
}

fn assert_all_on(page: &str, text: &str, values: &[&str]) {
    let missing: Vec<&&str> = values
        .iter()
        .filter(|v| !text.contains(&squash(v)))
        .collect();
    assert!(missing.is_empty(), "{page}: not on the page: {missing:?}");
}

/// The Omeka S record of Terhuchu, every field in the order the record gives them.
const OMEKA_TERHUCHU: &[&str] = &[
    // The collection the record came from, and its title.
    "Ancient Indian Boardgames: Digital Documentation",
    "Terhuchu",
    // Description: the facts it gives (the archive's description is its own).
    "J. H. Hutton",
    "Angami Nagas",
    "fighting-eating",
    "sixteen",
    "ten pieces",
    "eight or nine",
    "cowries",
    "Murray",
    "Digital Ludeme Project",
    "Perali Kotuma of Sri Lanka",
    // Alternative Title.
    "Terhiichii",
    "Terhüchü",
    // Rules: the facts (the archive's rules text is its own).
    "Capturing is compulsory",
    "huff",
    // Creator, and Contributor (the same person).
    "John Henry Hutton",
    // Source (publishers are on the source pages, below). The bibliography writes Murray's title as the book
    // does, "Board-Games".
    "A History of Board-Games other than Chess",
    "1952",
    "The Angami Nagas, with Some Notes on Neighbouring Tribes",
    "1921",
    // Rights, Format and Medium of the Omeka record, kept in the provenance statement: the archive's own
    // rights, format and medium describe its own record.
    "“Creative Common”",
    "“Boardgames”",
    "“Boardgames on Text”",
    // References.
    "Boards and Pieces - Terhuchu",
    // Spatial Coverage.
    "Nagaland",
    // Variants, with the Omeka record's spacing tidied ("(variant),Odisha", "( Odisha)"). Mughal Pathan is
    // catalogued: it links to Mogol Putt'han and says under which name the record gives it.
    "Tarup Ar Merom (leopards and goats)",
    "Kulaochal",
    "Bagh Chal (variant), Odisha",
    "Bagha Chheli (Odisha)",
    "Baghchakkar or Chakrachal",
    "Sher Bakr",
    "Bagh Batti",
    "Sher Bakar",
    "Kaooa",
    "Taag dha Nor or Tagnor (Tiger and Cow)",
    "Bagh Chal, Kamakhya",
    "as “Mughal Pathan”",
    "Bam Blang Beh Khla",
    "Bagha Guti",
    "Bagh Bandi",
    "Bagh Chal, Bull Temple (4)",
    "Baghchal, Bull Temple (3)",
    "Baghchal, Handmade",
    "Bagh Chal, Pataleshwar (3)",
    "Baghchal, Pataleshwar (2)",
    // Entered by.
    "Adrija Mukherjee",
    // Tags ("stone" capitalised like the others).
    "Games of Nagaland",
    "Alquerque",
    "Indigenous",
    "North-east India",
    "Two-player",
    "Stone",
    "Hunt game",
    "Capture",
];

/// The encyclopaedia article on Terhuchu: the facts the record takes from it.
const ARTICLE_TERHUCHU: &[&str] = &["Assam", "Sixteen Soldiers", "Peralikatuma", "Kotu Ellima"];

/// Hutton's passage as the evidence item DLP.Evidence.1679 gives it, spacing inside the quotation marks and all.
const HUTTON_SEMA_PASSAGE: &str = "The board is made by drawing a square and joining up the opposite corners \
diagonally. The sides are then bisected and the middle points joined to the middle points first of the opposite, \
then of the adjacent sides. In this way the square has been cut up into four smaller squares, each divided by \
intersecting diagonals. Through these points of intersection four more lines are drawn, two vertical and two \
horizontal, again bisecting the sides of the four inner squares. This gives altogether 25 points of \
intersection, and the game is played with 24 pieces, which are placed on these points and move along the lines \
joining them to the adjacent points. One player has four pieces (bits of stone, beans, anything will do), known \
as “ tigers,” and these are placed one at each corner of the board. His opponent has 20 similar pieces called ‘‘ \
goats,” and his object is to place them on the board, and to move them when there, in such a manner that the “ \
tigers ” are rounded up and prevented from moving at all. The “ goats ” may only move in a direct line to the next \
point of intersection, and the ‘‘ tigers ” are similarly restricted unless there is a goat at an adjacent point \
and an empty point beyond it in the same straight line, when the “ tiger ” may “ eat ” the goat by jumping over it \
as in draughts. The player of the “ tigers ” must move one of his pieces for every “ goat ” placed on the board by \
his opponent, and when all the ‘‘ goats are out the parties must make alternate moves...The above diagrams show \
the board used in both games, the tigers being first placed on the four outer corners of the board shown in the \
first diagram, when the player of the goats starts introducing his pieces along the outer edges in such a manner \
as to avoid, as far as he can, giving an opening to the tigers to eat any of the goats. The game is a simple one, \
but affords considerable scope for the exercise of skill and foresight in playing it.";

/// The evidence item, every field in its order.
const DLP_EVIDENCE: &[&str] = &[
    "DLP.Evidence.1679",
    // Type.
    "Ethnography",
    // Game.
    "Sümi Naga Game (Hunt)",
    // Location.
    "Nagaland",
    // Date: 1921-01-01 to 1921-12-31 is the whole year, shown as "1921".
    "1921",
    // Rules: the facts (the archive's rules text is its own).
    "5x5",
    "Four tigers",
    "twenty goats",
    // Content: the quotation, and whose words and where.
    HUTTON_SEMA_PASSAGE,
    "Hutton 1921: 110-111",
    // Confidence.
    "100%",
    // Source.
    "The Sema Nagas",
    "pp. 110–111",
];

/// The article on Mogol Putt'han: the related games with the regions it gives them, and Kungser's two forms.
const MOGOL_PUTTHAN: &[&str] = &[
    "Mughal Pathan",
    "Permainan-Tabal",
    "Shānzdahu-kattaru (Persian from Turkestan)",
    "Uno-alti-tashu (Oboikh from Turkestan)",
    "Sōlah guttiya (Bengal)",
    "Athāra guti (India)",
    "Baz (India)",
    "Mar (India)",
    "Ticcha (India)",
    "Bangale (India)",
    "Athāra gutiala teoria (Central Provinces of India)",
    "Mangal-pata (East Bengal and Behar)",
    "Dam pursi",
    "Sipchi kat (Assam and Sikkim)",
    "Hewakam keliya (Ceylon)",
    "Dam (Malaya)",
    "Kungser (Tibet)",
    "Cows & Leopards (Sri Lanka)",
    "Kherjarala",
    "Bengal",
    "sixteen",
];

#[test]
fn the_omeka_record_of_terhuchu_is_on_its_page() {
    let (_scratch, site) = build_shipped();
    let page = "games/terhuchu/index.html";
    let text = main_text(&site, page);
    assert_all_on(page, &text, OMEKA_TERHUCHU);
    assert_all_on(page, &text, ARTICLE_TERHUCHU);
    for (source, publisher) in [
        ("sources/murray-1952/index.html", "Oxford University Press"),
        ("sources/hutton-1921-angami/index.html", "Macmillan and Co."),
        ("sources/hutton-1921-angami/index.html", "London"),
    ] {
        assert!(
            main_text(&site, source).contains(publisher),
            "{source}: {publisher}"
        );
    }
    // Both the Omeka item and the article are cited, with their addresses on their source pages.
    for (source, address) in [
        (
            "sources/aibdd-terhuchu/index.html",
            "https://souvikmukherjeeresearch.com/omekas/s/ancientindianboardgames",
        ),
        (
            "sources/wikipedia-terhuchu/index.html",
            "https://en.wikipedia.org/wiki/Terh%C3%BCch%C3%BC",
        ),
        (
            "sources/dlp-terhuchu/index.html",
            "https://ludii.games/details.php?keyword=Terhuchu",
        ),
    ] {
        let text = main_text(&site, source);
        assert!(text.contains(address), "{source}: no address");
        assert!(
            text.contains("read 29 November 2026"),
            "{source}: no date read"
        );
        assert!(
            text.contains("Terhuchu"),
            "{source}: does not list Terhuchu"
        );
    }
}

#[test]
fn the_evidence_item_quotes_hutton_and_cites_him_once() {
    let (_scratch, site) = build_shipped();
    let page = "evidence/hutton-1921-sema-hunt/index.html";
    let text = main_text(&site, page);
    assert_all_on(page, &text, DLP_EVIDENCE);
    let html = String::from_utf8(site[page].clone()).unwrap();
    assert!(
        html.contains("<blockquote>"),
        "the passage is marked as a quotation"
    );
    // The sources section lists Hutton's pages once.
    let sources = &html[html.find("id=\"sources\"").unwrap()..];
    let sources = &sources[..sources.find("</section>").unwrap()];
    assert_eq!(
        squash(&parse_html(sources).1)
            .matches("pp. 110–111")
            .count(),
        1
    );
}

#[test]
fn mogol_putthan_keeps_its_relatives_and_their_regions() {
    let (_scratch, site) = build_shipped();
    let page = "games/mogol-putthan/index.html";
    assert_all_on(page, &main_text(&site, page), MOGOL_PUTTHAN);
}

#[test]
fn tchouba_names_its_sources_with_their_addresses() {
    let (_scratch, site) = build_shipped();
    let text = main_text(&site, "sources/mancala-world-tchouba/index.html");
    assert!(text.contains("https://mancala.fandom.com/wiki/Tchouba"));
    assert!(text.contains("http://www.wikinfo.org/index.php/Tchouba"));
    assert!(text.contains("GNU Free Documentation License"));
    let page = "games/tchouba/index.html";
    assert_all_on(
        page,
        &main_text(&site, page),
        &[
            "Tshuba",
            "Junod",
            "1898",
            "Mozambique",
            "Inhambane",
            "Zavala",
            "Thonga",
            "Chopi",
            "marula",
            "godi",
            "gula",
            "tchonga",
            "cubá",
            "Santos Silva",
            "Wagner",
            "Mefuvha",
            "Nsolo",
            "The Life of a South African Tribe",
            "Bao tournament",
            "Lissberg",
            "2010",
            "Shimunana",
        ],
    );
}

#[test]
fn values_read_in_words_not_in_their_schemes() {
    let (_scratch, site) = build_shipped();
    let text = main_text(&site, "games/terhuchu/index.html");
    assert!(text.contains("Kohima, Nagaland (25.67° N, 94.11° E)"));
    assert!(text.contains("Angami Naga"));
    for raw in [
        "dcterms:Point",
        "dcterms:EDTF",
        "dcterms:RFC5646",
        "east=94.11",
    ] {
        assert!(!text.contains(raw), "games/terhuchu: {raw} is visible");
    }
    let html = String::from_utf8(site["games/terhuchu/index.html"].clone()).unwrap();
    assert!(html.contains("href=\"geo:25.67,94.11\""));
    let text = main_text(&site, "games/tchouba/index.html");
    assert!(text.contains("Inhambane (23.87° S, 35.38° E)"));
    assert!(text.contains("1898–2010"));
    assert!(text.contains("Tsonga"));
    for (page, html) in common::html_files(&site) {
        let (_, visible) = parse_html(&html);
        for raw in [
            "dcterms:Point",
            "dcterms:EDTF",
            "dcterms:W3CDTF",
            "dcterms:Period",
        ] {
            assert!(!visible.contains(raw), "{page}: {raw} is visible");
        }
    }
}
