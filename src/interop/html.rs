//! Values that arrive as HTML. Omeka keeps what its rich-text editor wrote (`<p>`, `<em>`, links) in the value
//! itself, marked as HTML by a data type (`rdf:HTML`) or by nothing at all, and harvests and CSV exports carry
//! the tags as text. A record's Markdown terms (descriptions, rules) take them as Markdown, which the site renders
//! and makes safe; every other term takes the words alone, since a title or a tag is plain text on every page.

use pulldown_cmark::{Event, Parser, TagEnd};

/// Elements a rich-text editor writes. A value is taken as HTML only when it holds one of them, so that text
/// comparing numbers (`fewer than 3 <4 seeds>`) or quoting an address in angle brackets stays text.
const ELEMENTS: &[&str] = &[
    "a",
    "abbr",
    "b",
    "blockquote",
    "br",
    "cite",
    "code",
    "dd",
    "del",
    "div",
    "dl",
    "dt",
    "em",
    "figcaption",
    "figure",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "hr",
    "i",
    "img",
    "ins",
    "li",
    "mark",
    "ol",
    "p",
    "pre",
    "q",
    "s",
    "small",
    "span",
    "strong",
    "sub",
    "sup",
    "table",
    "tbody",
    "td",
    "th",
    "thead",
    "tr",
    "u",
    "ul",
];

/// Whether the text holds an HTML element's start or end tag (`<p>`, `</em>`, `<br/>`, `<a href="…">`).
pub fn looks_like_html(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(offset) = text[from..].find('<') {
        let mut i = from + offset + 1;
        from = i;
        if bytes.get(i) == Some(&b'/') {
            i += 1;
        }
        let start = i;
        while bytes.get(i).is_some_and(u8::is_ascii_alphanumeric) {
            i += 1;
        }
        let name = text[start..i].to_ascii_lowercase();
        let closed = matches!(
            bytes.get(i),
            Some(b'>' | b' ' | b'/' | b'\t' | b'\n' | b'\r')
        );
        if closed && ELEMENTS.contains(&name.as_str()) {
            return true;
        }
    }
    false
}

/// HTML as Markdown: paragraphs, emphasis, lists, links and tables in Markdown's own syntax; scripts and styles
/// left out; anything else reduced to its text.
pub fn to_markdown(html: &str) -> String {
    let converter = htmd::HtmlToMarkdown::builder()
        .skip_tags(vec!["script", "style", "noscript", "template", "iframe"])
        .options(htmd::options::Options {
            // A backslash survives editors that trim the spaces at the end of a line.
            br_style: htmd::options::BrStyle::Backslash,
            bullet_list_marker: htmd::options::BulletListMarker::Dash,
            ul_bullet_spacing: 1,
            ol_number_spacing: 1,
            ..Default::default()
        })
        .build();
    // Parsing into a tree in memory cannot fail; a failure would leave the value as it came.
    converter
        .convert(html)
        .map(|markdown| markdown.trim().to_string())
        .unwrap_or_else(|_| html.to_string())
}

/// HTML as the words it shows, on one line: tags left out, character references read, breaks and blocks as
/// single spaces.
pub fn to_text(html: &str) -> String {
    let markdown = to_markdown(html);
    let mut out = String::with_capacity(markdown.len());
    for event in Parser::new_ext(&markdown, pulldown_cmark::Options::ENABLE_TABLES) {
        match event {
            Event::Text(t) | Event::Code(t) => out.push_str(&t),
            Event::SoftBreak
            | Event::HardBreak
            | Event::End(TagEnd::Paragraph | TagEnd::Item | TagEnd::TableCell)
            | Event::End(TagEnd::Heading(_)) => out.push(' '),
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_of_an_editor_are_html_and_angle_brackets_in_prose_are_not() {
        for html in [
            "<p>A race game</p>",
            "Played on a <em>square</em> board",
            "line one<br/>line two",
            "line one<BR>line two",
            "<a href=\"https://example.org\">a link</a>",
            "ends a list</li>",
        ] {
            assert!(looks_like_html(html), "{html}");
        }
        for text in [
            "fewer than 3 <4 seeds>",
            "see <https://example.org/a>",
            "a < b and b > c",
            "<paragraph> is not an element",
            "x<",
            "",
        ] {
            assert!(!looks_like_html(text), "{text}");
        }
    }

    #[test]
    fn an_editor_s_html_becomes_markdown() {
        let html = "<p>Played by <strong>two</strong> on a <em>cross-shaped</em> board.</p>\
                    <ul><li>cowrie shells</li><li>a cloth board</li></ul>\
                    <p>See <a href=\"https://example.org/pachisi\">the survey</a> &amp; its notes.<br>Second line.</p>\
                    <script>alert(1)</script>";
        assert_eq!(
            to_markdown(html),
            "Played by **two** on a *cross-shaped* board.\n\n\
             - cowrie shells\n- a cloth board\n\n\
             See [the survey](https://example.org/pachisi) & its notes.\\\nSecond line."
        );
    }

    #[test]
    fn html_in_a_plain_term_keeps_its_words_only() {
        assert_eq!(
            to_text("<p><em>Pachisi</em> &amp; <b>Chaupar</b></p>\n<p>of India</p>"),
            "Pachisi & Chaupar of India"
        );
        assert_eq!(to_text("one<br>two"), "one two");
        assert_eq!(to_text("<p>a <script>x()</script> b</p>"), "a b");
    }
}
