//! Markdown of descriptions, rules texts and the About page, rendered with pulldown-cmark and made safe at the
//! event level: raw HTML becomes escaped text, links keep only `http`, `https`, `mailto` and relative targets,
//! and images become their alt text (the archive loads nothing from elsewhere, and catalogs ship no images).
//!
//! Working on parser events instead of cleaning the finished HTML means nothing unsafe is ever produced: the
//! only markup in the output is what pulldown-cmark writes itself, with every text and attribute escaped.

use pulldown_cmark::{CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd, html};

/// Render Markdown to safe HTML, with headings moved down by `demote` levels so that they nest under the page's
/// own headings.
pub fn to_html(text: &str, demote: u8) -> String {
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    let mut links_kept: Vec<bool> = Vec::new();
    let events = Parser::new_ext(text, options).filter_map(|event| match event {
        Event::Html(raw) | Event::InlineHtml(raw) => Some(Event::Text(raw)),
        Event::Start(Tag::HtmlBlock) => Some(Event::Start(Tag::Paragraph)),
        Event::End(TagEnd::HtmlBlock) => Some(Event::End(TagEnd::Paragraph)),
        Event::Start(Tag::Link {
            link_type,
            dest_url,
            title,
            id,
        }) => {
            let keep = is_safe_url(&dest_url);
            links_kept.push(keep);
            keep.then_some(Event::Start(Tag::Link {
                link_type,
                dest_url,
                title,
                id,
            }))
        }
        Event::End(TagEnd::Link) => {
            let kept = links_kept.pop().unwrap_or(false);
            kept.then_some(Event::End(TagEnd::Link))
        }
        // The alt text between these events stays, as plain text.
        Event::Start(Tag::Image { .. }) | Event::End(TagEnd::Image) => None,
        Event::Start(Tag::Heading {
            level,
            id,
            classes,
            attrs,
        }) => Some(Event::Start(Tag::Heading {
            level: lower(level, demote),
            id,
            classes,
            attrs,
        })),
        Event::End(TagEnd::Heading(level)) => {
            Some(Event::End(TagEnd::Heading(lower(level, demote))))
        }
        Event::FootnoteReference(name) => Some(Event::Text(CowStr::from(format!("[{name}]")))),
        other => Some(other),
    });
    let mut out = String::with_capacity(text.len() * 2);
    html::push_html(&mut out, events);
    out
}

fn lower(level: HeadingLevel, by: u8) -> HeadingLevel {
    let n = (level as u8).saturating_add(by).min(6);
    HeadingLevel::try_from(usize::from(n)).unwrap_or(HeadingLevel::H6)
}

/// A link target a page may carry: relative, a fragment, or `http`, `https` or `mailto`. Browsers ignore tabs,
/// newlines and leading control characters in a scheme (`java\tscript:`), so those are removed before looking.
pub fn is_safe_url(url: &str) -> bool {
    let cleaned: String = url
        .chars()
        .filter(|c| !c.is_whitespace() && !c.is_control())
        .collect();
    let lower = cleaned.to_ascii_lowercase();
    match lower.find(':') {
        None => true,
        Some(colon) => {
            let before = &lower[..colon];
            // A colon after a path, query or fragment starts is not a scheme separator.
            if before.contains(['/', '?', '#']) {
                return true;
            }
            matches!(before, "http" | "https" | "mailto")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_html_is_escaped() {
        let html = to_html("Hi <script>alert(1)</script>\n\n<div onclick=x>y</div>", 0);
        assert!(!html.contains("<script"), "{html}");
        assert!(!html.contains("<div"), "{html}");
        assert!(html.contains("&lt;script&gt;"), "{html}");
    }

    #[test]
    fn unsafe_links_lose_their_link() {
        let html = to_html(
            "[a](javascript:alert(1)) [b](JaVa\tScRiPt:x) [c](https://example.org) [d](data:text/html,x)",
            0,
        );
        assert!(!html.to_ascii_lowercase().contains("javascript"), "{html}");
        assert!(!html.contains("data:"), "{html}");
        assert!(html.contains("href=\"https://example.org\""), "{html}");
        assert!(html.contains('a') && html.contains('d'));
    }

    #[test]
    fn images_become_text_and_headings_move_down() {
        let html = to_html("# Top\n\n![a board](https://example.org/x.png)", 1);
        assert!(html.contains("<h2>Top</h2>"), "{html}");
        assert!(!html.contains("<img"), "{html}");
        assert!(html.contains("a board"), "{html}");
    }
}
