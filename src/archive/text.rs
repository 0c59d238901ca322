//! Text helpers shared by the resolved model and the site: folding away diacritics (so that "terhuchu" finds
//! "Terhüchü"), URL-safe slugs for facet pages, and the words a search index keeps.

use unicode_normalization::UnicodeNormalization;

/// Combining marks that folding drops after canonical decomposition. The same ranges are written in the search
/// script (`templates/static/search.js`), so that the index and the query fold alike.
fn is_dropped_mark(c: char) -> bool {
    matches!(c,
        '\u{0300}'..='\u{036F}'
        | '\u{1AB0}'..='\u{1AFF}'
        | '\u{1DC0}'..='\u{1DFF}'
        | '\u{20D0}'..='\u{20FF}'
        | '\u{FE20}'..='\u{FE2F}')
}

/// Lowercase, without accents: `Terhüchü` -> `terhuchu`, `Sōlah` -> `solah`. Letters that do not decompose but
/// are read as a base letter with a stroke (`ø`, `ł`, `đ`) are mapped by hand, as the search script does.
pub fn fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        // ASCII is its own decomposition, holds no mark and only ever starts a character: lowercasing is all
        // folding does to it, and the text around it decomposes alike with it or without it. Most of a
        // catalog's text is ASCII, and decomposing it character by character was most of folding's time.
        let ascii = rest
            .bytes()
            .position(|b| !b.is_ascii())
            .unwrap_or(rest.len());
        let start = out.len();
        out.push_str(&rest[..ascii]);
        out[start..].make_ascii_lowercase();
        rest = &rest[ascii..];
        let other = rest
            .bytes()
            .position(|b| b.is_ascii())
            .unwrap_or(rest.len());
        fold_decomposed(&rest[..other], &mut out);
        rest = &rest[other..];
    }
    out
}

/// [`fold`] of any text, decomposing it character by character, appended to `out`.
fn fold_decomposed(text: &str, out: &mut String) {
    for c in text.nfd().filter(|c| !is_dropped_mark(*c)) {
        match c {
            'ß' => out.push_str("ss"),
            'æ' | 'Æ' => out.push_str("ae"),
            'œ' | 'Œ' => out.push_str("oe"),
            'ø' | 'Ø' => out.push('o'),
            'ł' | 'Ł' => out.push('l'),
            'đ' | 'Đ' => out.push('d'),
            'ı' => out.push('i'),
            _ => out.extend(c.to_lowercase()),
        }
    }
}

/// Folded words of a text, split at anything that is not a letter, a mark or a digit.
pub fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    let folded = fold(text);
    split_words(&folded)
        .map(str::to_string)
        .collect::<Vec<_>>()
        .into_iter()
}

/// The words of a text already folded ([`fold`]), as [`words`] splits them.
pub fn split_words(folded: &str) -> impl Iterator<Item = &str> {
    folded
        .split(|c: char| !(c.is_alphanumeric() || is_mark(c)))
        .filter(|w| !w.is_empty())
}

/// Marks that stay after folding (vowel signs of Indic scripts, for instance) belong to their word.
fn is_mark(c: char) -> bool {
    matches!(c, '\u{0900}'..='\u{0DFF}' | '\u{0E00}'..='\u{0EFF}' | '\u{1000}'..='\u{109F}')
        && !c.is_alphanumeric()
        && !c.is_whitespace()
        && !c.is_ascii_punctuation()
}

/// A URL-safe slug: folded ASCII letters and digits joined by single hyphens. Other scripts are written in Latin
/// letters as they read (a word of an Indic script whole, by [`super::indic`]; others letter by letter); a name
/// with nothing to read that way (symbols only) gets a short stable hash, so that every facet still has a page.
pub fn slug(text: &str) -> String {
    let mut out = String::new();
    let push = |c: char, out: &mut String| {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    };
    let folded = fold(text);
    let mut chars = folded.chars().peekable();
    let in_word =
        |c: char| c.is_alphanumeric() || unicode_normalization::char::is_combining_mark(c);
    while let Some(c) = chars.next() {
        // Joiners only choose how letters are drawn.
        if is_joiner(c) {
            continue;
        }
        if c.is_ascii() || !in_word(c) {
            push(c, &mut out);
            continue;
        }
        // A word of an Indic script is read whole, as its vowel signs and viramas change the letters before
        // them (`बाघ` is `bagh`, not `baagha`).
        if let Some(block) = super::indic::block(c) {
            let mut word = String::from(c);
            while let Some(&next) = chars.peek() {
                if !(is_joiner(next) || (super::indic::block(next) == Some(block) && in_word(next)))
                {
                    break;
                }
                if !is_joiner(next) {
                    word.push(next);
                }
                chars.next();
            }
            if let Some(latin) = super::indic::romanise(&word) {
                latin.chars().for_each(|l| push(l, &mut out));
                continue;
            }
        }
        // A letter of another script folding leaves as it is (Chinese, Cyrillic) is written in Latin letters as
        // it reads, so that `象棋` has a page name a reader can make out rather than a hash.
        match deunicode::deunicode_char(c) {
            Some(latin) => latin.chars().for_each(|l| push(l, &mut out)),
            None => push('-', &mut out),
        }
    }
    while out.ends_with('-') {
        out.pop();
    }
    if out.is_empty() {
        out = format!("n{:08x}", fnv1a(text.as_bytes()) as u32);
    }
    if out.len() > MAX_SLUG_BYTES {
        // Cut, and mark the cut with a hash of the whole slug, so that long names sharing their first 80
        // characters still get different pages. A cut slug is longer than any uncut one, so the two never meet.
        let hash = fnv1a(out.as_bytes()) as u32;
        out.truncate(MAX_SLUG_BYTES);
        while out.ends_with('-') {
            out.pop();
        }
        out = format!("{out}-{hash:08x}");
    }
    out
}

/// The longest slug kept whole. A slug becomes a folder name in the site, and file systems refuse names over 255
/// bytes; a cut slug is at most 89 bytes, leaving room for the suffix a clash adds.
pub const MAX_SLUG_BYTES: usize = 80;

/// The zero-width joiner and non-joiner, which sit inside words of the Indic scripts.
fn is_joiner(c: char) -> bool {
    matches!(c, '\u{200C}' | '\u{200D}')
}

/// FNV-1a, for stable names; nothing here needs a cryptographic hash.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Collapse runs of white space into single spaces, for values written over several lines in a record.
pub fn one_line(text: &str) -> String {
    // A value already on one line is copied whole by `words_of` itself, which copies in runs.
    ludotheca_engine::record::words_of(text)
}

/// The first sentence or so of a text, for summaries in lists and the search results.
pub fn summary(text: &str, max_chars: usize) -> String {
    let line = one_line(&strip_markdown(text));
    if line.chars().count() <= max_chars {
        return line;
    }
    let cut: String = line.chars().take(max_chars).collect();
    let cut = match cut.rfind(' ') {
        Some(at) if at > max_chars / 2 => &cut[..at],
        _ => &cut,
    };
    format!("{}…", cut.trim_end_matches([',', ';', ':', '.']))
}

/// Markdown emphasis and heading markers removed, for plain-text uses (summaries, meta tags, exports).
pub fn strip_markdown(text: &str) -> String {
    // Most descriptions are prose in which nothing is markup, and the parser would hand back their words as
    // written, on one line. A description is made plain for the page's head, the search summary, the exports
    // and the linked data, so the pass over its bytes that finds this saves the parser several times an item.
    if is_plain_prose(text) {
        return one_line(text);
    }
    strip_by_parsing(text)
}

/// Whether nothing in `text` can be Markdown: no character that opens or closes inline markup (emphasis, code,
/// links, images, HTML, entities, escapes, headings), and no line that begins as a list item, a rule, a
/// heading's underline or a numbered item does. Cautious: a text it rejects may still be plain.
fn is_plain_prose(text: &str) -> bool {
    let mut line_start = true;
    for &byte in text.as_bytes() {
        match byte {
            // A carriage return too: the parser reads a lone one after a line's end in ways of its own (an
            // indented line, then `\n\r`, then a word, loses the word), which a property test found.
            b'\\' | b'`' | b'*' | b'_' | b'[' | b']' | b'<' | b'>' | b'&' | b'#' | b'!' | b'|'
            | b'~' | b'\r' => {
                return false;
            }
            b'\n' => line_start = true,
            // Indentation: a line indented as code still reads as its words.
            b' ' | b'\t' => {}
            _ => {
                if line_start && (matches!(byte, b'-' | b'+' | b'=') || byte.is_ascii_digit()) {
                    return false;
                }
                line_start = false;
            }
        }
    }
    true
}

/// [`strip_markdown`] by the Markdown parser.
fn strip_by_parsing(text: &str) -> String {
    use pulldown_cmark::{Event, Parser, TagEnd};
    let mut out = String::with_capacity(text.len());
    for event in Parser::new(text) {
        match event {
            Event::Text(t) | Event::Code(t) | Event::Html(t) | Event::InlineHtml(t) => {
                out.push_str(&t)
            }
            Event::SoftBreak | Event::HardBreak => out.push(' '),
            // Blocks are separated by a space; inline markup (emphasis, links) joins its text as written.
            Event::End(
                TagEnd::Paragraph
                | TagEnd::Heading(_)
                | TagEnd::Item
                | TagEnd::BlockQuote(_)
                | TagEnd::CodeBlock
                | TagEnd::HtmlBlock
                | TagEnd::TableCell,
            ) => out.push(' '),
            _ => {}
        }
    }
    one_line(&out)
}

/// A BibTeX name (`Hutton, John Henry`) in reading order (`John Henry Hutton`).
pub fn reading_order(name: &str) -> String {
    match name.split_once(',') {
        Some((last, first)) if !first.trim().is_empty() => {
            format!("{} {}", first.trim(), last.trim())
        }
        _ => name.trim().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Prose found plain is made plain as the parser would: on words, punctuation, other scripts,
        /// indentation, blank lines, and the characters that are markup only at the start of a line.
        #[test]
        fn plain_prose_strips_as_parsed(text in "([a-zA-Zé한 ,.;:'\"()?/]|-|\\+|=|[0-9]\\.? |[0-9]\\) |\n|\n\n|\r\n|\r|    |\t){0,30}") {
            prop_assert_eq!(strip_markdown(&text), strip_by_parsing(&text));
        }

        /// A text on one line is its words one space apart, whatever the white space between them.
        #[test]
        fn one_line_is_the_words_one_space_apart(text in "([a-zé,.]|[ \t\n\r\u{0b}\u{0c}]|\u{a0}|\u{2003}){0,30}") {
            prop_assert_eq!(one_line(&text), text.split_whitespace().collect::<Vec<_>>().join(" "));
        }

        /// The same with the characters of inline markup mixed in.
        #[test]
        fn marked_text_strips_as_parsed(text in "([a-z ,.]|-|[0-9]\\. |\n|\n\n|    |[*_#>&<!|~`=+\\[\\]\\\\]){0,30}") {
            prop_assert_eq!(strip_markdown(&text), strip_by_parsing(&text));
        }
    }

    #[test]
    fn prose_without_markup_is_found_plain() {
        for plain in [
            "",
            "A game of the Chakhesang Naga.",
            "Two rows,\n  three holes - each;\n\nthen 12 seeds.",
        ] {
            assert!(is_plain_prose(plain), "{plain:?}");
        }
        for marked in [
            "*emphasis*",
            "a [link](x)",
            "# Heading",
            "text\n- item",
            "1. first",
            "x\n===",
            "a &amp; b",
            "a\\b",
        ] {
            assert!(!is_plain_prose(marked), "{marked:?}");
        }
    }

    proptest! {
        /// Folding by runs of ASCII gives what decomposing the whole text gives, on text mixing ASCII with
        /// letters that decompose, combining marks (in and out of canonical order), the letters mapped by hand
        /// and other scripts.
        #[test]
        fn folding_by_runs_is_folding_the_whole(text in "[a-zA-Z0-9 .,'İıßæÆœøØłŁđĐāĀüÜéÉñ\u{0300}\u{0301}\u{0327}\u{0323}\u{1DC0}\u{FE20}ᾅǅक़िं한]{0,40}") {
            let mut whole = String::new();
            fold_decomposed(&text, &mut whole);
            prop_assert_eq!(fold(&text), whole);
        }
    }

    proptest! {
        /// Any text of the Indic blocks (letters, signs, marks, code points no script assigns), with Latin
        /// letters, spaces, dandas and joiners among them, gives a page name of ASCII letters, digits and single
        /// hyphens, read the same each time.
        #[test]
        fn indic_text_gives_a_well_formed_slug(text in "[\u{0900}-\u{0D7F}a-z \u{200C}\u{200D}\u{0964}]{0,24}") {
            let made = slug(&text);
            prop_assert!(made.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'), "{}", made);
            prop_assert!(!made.contains("--") && !made.starts_with('-') && !made.ends_with('-'), "{}", made);
            prop_assert!(!made.is_empty());
            prop_assert_eq!(slug(&text), made);
        }
    }

    #[test]
    fn one_line_joins_words_with_single_spaces() {
        for (text, want) in [
            ("", ""),
            ("a b", "a b"),
            ("  a \t b\n\nc  ", "a b c"),
            ("Bāgh  Chāl", "Bāgh Chāl"),
            ("a\u{00a0}b", "a b"),
            (" x", "x"),
            ("x ", "x"),
            ("one-line, as is.", "one-line, as is."),
        ] {
            assert_eq!(one_line(text), want, "{text:?}");
            assert_eq!(
                one_line(text),
                text.split_whitespace().collect::<Vec<_>>().join(" ")
            );
        }
    }

    #[test]
    fn folds_diacritics() {
        assert_eq!(fold("Terhüchü"), "terhuchu");
        assert_eq!(fold("Sōlah guttiya"), "solah guttiya");
        assert_eq!(fold("Sümi"), "sumi");
        assert_eq!(fold("Bāgh Chāl"), "bagh chal");
    }

    #[test]
    fn slugs() {
        assert_eq!(slug("North-east India"), "north-east-india");
        assert_eq!(slug("Kohima, Nagaland"), "kohima-nagaland");
        assert_eq!(slug("  Sümi  "), "sumi");
        // Other scripts read in Latin letters; only a name with nothing to read gets a hash.
        assert_eq!(slug("बाघ चाल"), "bagh-chal");
        assert_eq!(slug("பல்லாங்குழி"), "pallanguzhi");
        assert_eq!(slug("ஆடு புலி ஆட்டம்"), "adu-puli-attam");
        // A joiner inside a word does not cut it; a danda ends it.
        assert_eq!(slug("बा\u{200D}घ"), "bagh");
        assert_eq!(slug("बाघ।चाल"), "bagh-chal");
        // Indic letters beside Latin ones are read each in their own way.
        assert_eq!(slug("Bagh बाघ"), "bagh-bagh");
        assert_eq!(slug("象棋"), "xiang-qi");
        assert!(slug("☗☖").starts_with('n'));
    }

    #[test]
    fn long_slugs_are_cut_with_a_hash_of_the_whole() {
        let long = "Hunt game of the hills ".repeat(30);
        let cut = slug(&long);
        assert!(cut.len() <= MAX_SLUG_BYTES + 9, "{cut}");
        assert!(cut.len() > MAX_SLUG_BYTES);
        assert!(cut.starts_with("hunt-game-of-the-hills-hunt"));
        assert!(!cut.contains("--"));
        assert_eq!(cut, slug(&long), "stable");
        let other = slug(&format!("{long} and more"));
        assert_ne!(cut, other);
        assert_eq!(cut[..MAX_SLUG_BYTES - 1], other[..MAX_SLUG_BYTES - 1]);
        // Exactly at the limit, a slug is kept whole.
        let exact = "a".repeat(MAX_SLUG_BYTES);
        assert_eq!(slug(&exact), exact);
    }

    #[test]
    fn words_and_summaries() {
        let w: Vec<String> = words("Mogol Putt'han, *fighting-eating*").collect();
        assert_eq!(w, ["mogol", "putt", "han", "fighting", "eating"]);
        assert_eq!(summary("A *short* text.", 40), "A short text.");
        assert_eq!(summary("one two three four five", 12), "one two…");
        assert_eq!(reading_order("Hutton, John Henry"), "John Henry Hutton");
    }
}
