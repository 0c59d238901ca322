//! The default theme's markup for the repeated parts of a page, written here from the page's data.
//!
//! An item page holds a dozen lists of links (boards, evidence, sources, tags, places, downloads...), its
//! rulesets, the game records shown under the board and the citations; a browse or rules page holds a table
//! of rows and the filters. Written by the template engine, each attribute of each element is a lookup by
//! path through the page's data, and each list a macro call: about a third of the item template's work, the
//! largest of a build's templates. Here the same markup costs a small fraction of that. The template gets it
//! as `page.html.<part>` and writes it with `safe`; every value is escaped here as the engine escapes it, and
//! the data stays in the page beside it for a theme that lays the parts out itself (docs/site.md, "Templates
//! and static files").
//!
//! The parts are made from the page's data rather than from the archive, so they are exactly what the data
//! says: a page's hash is taken from the data alone, and the parts are added only to the pages being rendered.

use serde_json::{Map, Value};

use super::theme::push_escaped;

/// The link lists an item page shows as `<ul>` elements, with the class of each.
const LISTS: [(&str, &str); 11] = [
    ("played_with", "plain"),
    ("attests", "plain"),
    ("related", "plain"),
    ("boards", "plain"),
    ("evidence", "plain"),
    ("sources", "plain"),
    ("references", "plain"),
    ("tags", "chips"),
    ("places", "chips"),
    ("people", "chips"),
    ("downloads", "plain"),
];

/// The link lists an item page shows inline, separated by commas.
const INLINE: [&str; 2] = ["version_of", "versions"];

/// Add `html`, the ready-made parts, to the data of a page made with `template`, for the templates that
/// have them.
pub fn add_parts(template: &str, page: &mut Value) {
    let Some(data) = page.as_object() else {
        return;
    };
    let mut parts = Parts {
        data,
        made: Map::new(),
    };
    match template {
        "item.html" => item_parts(&mut parts),
        "browse.html" => {
            parts.list("groups", "filters", filters);
            parts.list("rows", "rows", browse_rows);
            parts.list("lists", "lists", value_lists);
        }
        "rules.html" => {
            parts.list("groups", "filters", filters);
            parts.list("rows", "rows", rules_rows);
        }
        "facet.html" => parts.list("items", "items", |l| links(l, "plain")),
        "person.html" => {
            parts.list("items", "items", |l| links(l, "plain"));
            parts.list("works", "works", |l| links(l, "plain"));
        }
        "list.html" => parts.list("links", "links", |l| links(l, "index-list")),
        "source.html" => {
            let groups = data.get("groups").and_then(Value::as_array);
            parts.put(
                "groups",
                citing_groups(groups.map_or(&[][..], Vec::as_slice)),
            );
        }
        "uncatalogued.html" => parts.list("names", "names", uncatalogued_names),
        _ => return,
    }
    let made = parts.made;
    page["html"] = Value::Object(made);
}

/// The parts made for one page, from its data.
struct Parts<'a> {
    data: &'a Map<String, Value>,
    made: Map<String, Value>,
}

impl Parts<'_> {
    fn put(&mut self, name: &str, html: String) {
        self.made.insert(name.to_string(), html.into());
    }

    /// The part `name`, written by `write` from the list the data holds at `key`; none when it holds none.
    fn list(&mut self, key: &str, name: &str, write: impl FnOnce(&[Value]) -> String) {
        if let Some(list) = self.data.get(key).and_then(Value::as_array) {
            self.put(name, write(list));
        }
    }
}

fn item_parts(parts: &mut Parts) {
    for (key, class) in LISTS {
        parts.list(key, key, |l| links(l, class));
    }
    for key in INLINE {
        parts.list(key, key, inline_links);
    }
    let records = parts
        .data
        .get("widget")
        .and_then(|w| w.get("records"))
        .and_then(Value::as_array);
    if let Some(records) = records {
        parts.put("records", board_records(records));
    }
    parts.list("rulesets", "rulesets", rulesets_html);
    parts.list("uncatalogued", "uncatalogued", uncatalogued);
    parts.list("rights", "rights", |rights| {
        let mut html = String::new();
        for right in rights {
            html.push_str("<p>");
            push_value(&mut html, right);
            html.push_str("</p>");
        }
        html
    });
    parts.list("cite", "cite", citations);
    parts.list("game_records", "game_records", game_records);
}

/// A source's page: the items citing it, a heading and a list for each kind, or a sentence saying nothing does.
fn citing_groups(groups: &[Value]) -> String {
    if groups.is_empty() {
        return "<p>Nothing in the archive cites this work yet.</p>\n".to_string();
    }
    let mut html = String::new();
    for group in groups {
        html.push_str("\n<h3>");
        push_field(&mut html, group, "name");
        html.push_str("</h3>\n");
        let list = field(group, "links")
            .as_array()
            .map_or(&[][..], Vec::as_slice);
        html.push_str(&links(list, "plain"));
        html.push('\n');
    }
    html
}

/// The names records give to games and boards the archive does not hold, each with the items naming it.
fn uncatalogued_names(names: &[Value]) -> String {
    let mut html = String::new();
    for name in names {
        html.push_str("<dt>");
        push_field(&mut html, name, "name");
        if truthy(name.get("continued")) {
            html.push_str(" <span class=\"note\">(continued)</span>");
        }
        html.push_str("</dt><dd>named by ");
        let items = field(name, "items")
            .as_array()
            .map_or(&[][..], Vec::as_slice);
        html.push_str(&inline_links(items));
        html.push_str("</dd>\n");
    }
    html
}

/// Whether the template engine takes `value` as true: a non-empty string, array or object, a number other
/// than zero, `true`.
fn truthy(value: Option<&Value>) -> bool {
    match value {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(Value::Number(n)) => n.as_f64().is_some_and(|n| n != 0.0),
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Array(a)) => !a.is_empty(),
        Some(Value::Object(o)) => !o.is_empty(),
    }
}

/// `value` as the template engine writes it into a page, escaped: null writes nothing, a number is written
/// as an integer where it is one.
fn push_value(html: &mut String, value: &Value) {
    match value {
        Value::Null => {}
        Value::String(s) => push_escaped(html, s),
        Value::Bool(b) => html.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => {
            let written = match (n.as_i64(), n.as_u64(), n.as_f64()) {
                (Some(i), _, _) => i.to_string(),
                (None, Some(u), _) => u.to_string(),
                (None, None, f) => f.unwrap_or_default().to_string(),
            };
            html.push_str(&written);
        }
        // Not in an item page's data where a part writes a value: written as the engine writes them, but escaped.
        Value::Array(items) => {
            html.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    html.push_str(", ");
                }
                push_value(html, item);
            }
            html.push(']');
        }
        Value::Object(_) => html.push_str("[object]"),
    }
}

fn push_field(html: &mut String, of: &Value, key: &str) {
    if let Some(value) = of.get(key) {
        push_value(html, value);
    }
}

/// One link, as the default theme's `link` macro writes it: an anchor when it has an address, else the text
/// in a span, then its note.
fn push_link(html: &mut String, link: &Value) {
    let element = if truthy(link.get("href")) {
        html.push_str("<a href=\"");
        push_field(html, link, "href");
        html.push('"');
        "a"
    } else {
        html.push_str("<span");
        "span"
    };
    if truthy(link.get("lang")) {
        html.push_str(" lang=\"");
        push_field(html, link, "lang");
        html.push('"');
    }
    html.push('>');
    push_field(html, link, "text");
    html.push_str("</");
    html.push_str(element);
    html.push('>');
    if truthy(link.get("note")) {
        html.push_str(" <span class=\"note\">");
        push_field(html, link, "note");
        html.push_str("</span>");
    }
}

/// A list of links as the `links` macro writes it.
fn links(list: &[Value], class: &str) -> String {
    let mut html = String::new();
    html.push_str("<ul class=\"");
    push_escaped(&mut html, class);
    html.push_str("\">\n");
    for link in list {
        html.push_str("<li>");
        push_link(&mut html, link);
        html.push_str("</li>\n");
    }
    html.push_str("</ul>");
    html
}

/// Links one after another, separated by commas.
fn inline_links(list: &[Value]) -> String {
    let mut html = String::new();
    for (i, link) in list.iter().enumerate() {
        if i > 0 {
            html.push_str(", ");
        }
        push_link(&mut html, link);
    }
    html
}

/// The game records under the board, each as written in a `details` element (a puzzle's question instead of
/// its moves): the board's script reads a record's text from here.
fn board_records(records: &[Value]) -> String {
    let mut html = String::new();
    for record in records {
        html.push_str("\n  <details><summary>");
        push_field(&mut html, record, "title");
        if truthy(record.get("kind")) {
            html.push_str(" <span class=\"note\">(");
            push_field(&mut html, record, "kind");
            html.push_str(")</span>");
        }
        html.push_str("</summary>");
        if truthy(record.get("question")) {
            html.push_str("<p>");
            push_field(&mut html, record, "question");
            html.push_str(
                "</p><p class=\"note\">The solution is not shown here: it is played out on the board once \
                 solved or revealed, and it is in the game record among the downloads.</p>",
            );
        } else {
            // The newline after `<pre>` is dropped by the parser: the text starts on the next line.
            html.push_str("<pre class=\"board-record\" data-record=\"");
            push_field(&mut html, record, "id");
            html.push_str("\">\n");
            push_field(&mut html, record, "text");
            html.push_str("</pre>");
        }
        html.push_str("</details>");
    }
    html
}

/// Relations to items not in the catalog: the name, then the term.
fn uncatalogued(names: &[Value]) -> String {
    let mut html = String::from("<ul class=\"plain names\">");
    for name in names {
        html.push_str("<li>");
        push_field(&mut html, name, "name");
        html.push_str(" <span class=\"note\">");
        push_field(&mut html, name, "term");
        html.push_str("</span></li>");
    }
    html.push_str("</ul>");
    html
}

/// The page's citation in each format, to copy.
fn citations(cites: &[Value]) -> String {
    let mut html = String::new();
    for cite in cites {
        html.push_str("\n  <details>\n    <summary>");
        push_field(&mut html, cite, "format");
        html.push_str("</summary>\n    <pre>");
        push_field(&mut html, cite, "text");
        html.push_str("</pre>\n  </details>\n  ");
    }
    html
}

/// The game records in the item's archive, each with what it is.
fn game_records(records: &[Value]) -> String {
    let mut html = String::from("<ul class=\"records\">");
    for record in records {
        html.push_str("\n    <li><code>games/");
        push_field(&mut html, record, "name");
        html.push_str("</code>: ");
        push_field(&mut html, record, "note");
        html.push_str("</li>");
    }
    html.push_str("\n  </ul>");
    html
}

/// `of[key]` written.
fn field<'a>(of: &'a Value, key: &str) -> &'a Value {
    of.get(key).unwrap_or(&Value::Null)
}

/// The strings of an array joined by `sep`, escaped, as the engine's `join` filter writes them.
fn push_joined(html: &mut String, list: &Value, sep: &str) {
    if let Some(items) = list.as_array() {
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                push_escaped(html, sep);
            }
            push_value(html, item);
        }
    }
}

/// The filter form of a page with a table: a group of checkboxes per facet, the first three open, as the
/// `filters` macro writes it.
fn filters(groups: &[Value]) -> String {
    let mut html = String::from(
        "<form class=\"filters\" data-filters aria-label=\"Filters\">\n  <h2>Filter</h2>\n  ",
    );
    for (i, group) in groups.iter().enumerate() {
        html.push_str("\n  <details");
        if i < 3 {
            html.push_str(" open");
        }
        html.push_str(">\n    <summary>");
        push_field(&mut html, group, "label");
        html.push_str("</summary>\n    <fieldset data-facet=\"");
        push_field(&mut html, group, "key");
        html.push_str("\">\n      <legend class=\"visually-hidden\">");
        push_field(&mut html, group, "label");
        html.push_str("</legend>\n      ");
        for value in field(group, "values").as_array().into_iter().flatten() {
            html.push_str("<label><input type=\"checkbox\" name=\"");
            push_field(&mut html, group, "key");
            html.push_str("\" value=\"");
            push_field(&mut html, value, "value");
            html.push_str("\"> ");
            push_field(&mut html, value, "value");
            html.push_str(" <span class=\"count\">(");
            push_field(&mut html, value, "count");
            html.push_str(")</span></label>\n      ");
        }
        html.push_str("\n    </fieldset>\n  </details>\n  ");
    }
    html.push_str("\n  <button type=\"button\" data-clear>Clear filters</button>\n</form>");
    html
}

/// The browse table's rows: an item's title (with its thumbnail), kind, region and date, with what the
/// filters and sorting read in its attributes.
fn browse_rows(rows: &[Value]) -> String {
    let mut html = String::new();
    for row in rows {
        html.push_str("<tr data-title=\"");
        push_field(&mut html, row, "sort_title");
        html.push_str("\" data-kind=\"");
        push_field(&mut html, row, "kind");
        html.push_str("\" data-region=\"");
        push_field(&mut html, row, "sort_region");
        html.push_str("\" data-year=\"");
        push_field(&mut html, row, "year");
        html.push('"');
        // The filters' attributes, written (and escaped) where the row is made.
        if let Some(data) = field(row, "data").as_str() {
            html.push_str(data);
        }
        html.push_str(">\n        <td><a href=\"");
        push_field(&mut html, row, "href");
        html.push_str("\">");
        let thumbnail = field(row, "thumbnail");
        if truthy(Some(thumbnail)) {
            html.push_str("<img class=\"thumbnail\" src=\"");
            push_field(&mut html, thumbnail, "src");
            html.push_str("\" width=\"");
            push_field(&mut html, thumbnail, "width");
            html.push_str("\" height=\"");
            push_field(&mut html, thumbnail, "height");
            html.push_str("\" alt=\"\" loading=\"lazy\" decoding=\"async\">");
        }
        push_field(&mut html, row, "title");
        html.push_str("</a></td><td>");
        push_field(&mut html, row, "kind");
        html.push_str("</td><td>");
        push_field(&mut html, row, "region");
        html.push_str("</td><td>");
        push_field(&mut html, row, "date");
        html.push_str("</td></tr>\n      ");
    }
    html
}

/// Under a browse page's table, every value of each facet linked to the page of the items that have it.
fn value_lists(lists: &[Value]) -> String {
    let mut html = String::new();
    for list in lists {
        html.push_str("<h3>");
        push_field(&mut html, list, "label");
        html.push_str("</h3>\n<ul class=\"plain\">\n");
        for value in field(list, "values").as_array().into_iter().flatten() {
            html.push_str("<li><a href=\"");
            push_field(&mut html, value, "href");
            html.push_str("\" data-key=\"");
            push_field(&mut html, list, "key");
            html.push_str("\" data-value=\"");
            push_field(&mut html, value, "value");
            html.push('"');
            if truthy(value.get("current")) {
                html.push_str(" aria-current=\"page\"");
            }
            html.push('>');
            let text = if truthy(value.get("text")) {
                "text"
            } else {
                "value"
            };
            push_field(&mut html, value, text);
            html.push_str("</a> <span class=\"count\">(");
            push_field(&mut html, value, "count");
            html.push_str(")</span></li>\n");
        }
        html.push_str("</ul>\n");
    }
    html
}

/// The rules-at-a-glance table's rows: a ruleset's game, name, family and the facts derived from its rules.
fn rules_rows(rows: &[Value]) -> String {
    let mut html = String::new();
    for row in rows {
        html.push_str("<tr data-title=\"");
        push_field(&mut html, row, "sort_title");
        html.push('"');
        if let Some(data) = field(row, "data").as_str() {
            html.push_str(data);
        }
        html.push_str(">\n        <td>");
        push_link(&mut html, field(row, "game"));
        html.push_str("</td>\n        <td><a href=\"");
        push_field(&mut html, row, "ruleset_href");
        html.push_str("\">");
        push_field(&mut html, row, "ruleset");
        html.push_str("</a>");
        if truthy(row.get("type")) {
            html.push_str(" <span class=\"note\">");
            push_field(&mut html, row, "type");
            html.push_str("</span>");
        }
        html.push_str("</td>\n        <td>");
        push_field(&mut html, row, "family");
        html.push_str("</td>\n        <td>");
        push_field(&mut html, row, "size");
        html.push_str(", ");
        push_field(&mut html, row, "players");
        html.push_str(" players</td>\n        <td>");
        push_field(&mut html, row, "pieces");
        html.push_str("</td>\n        <td>");
        push_joined(&mut html, field(row, "moves"), ", ");
        html.push_str("</td>\n        <td>");
        push_joined(&mut html, field(row, "captures"), "; ");
        html.push_str("</td>\n        <td>");
        push_joined(&mut html, field(row, "ends"), "; ");
        html.push_str("</td>\n      </tr>\n      ");
    }
    html
}

/// Each ruleset of a game: its name, type and source, its board at the start and the facts derived from its
/// rules, and the boards catalogued as played with it.
fn rulesets_html(rulesets: &[Value]) -> String {
    let mut html = String::new();
    for ruleset in rulesets {
        html.push_str("\n  <section id=\"");
        push_field(&mut html, ruleset, "id");
        html.push_str("\" class=\"ruleset\" aria-labelledby=\"");
        push_field(&mut html, ruleset, "id");
        html.push_str("-heading\">\n    <h3 id=\"");
        push_field(&mut html, ruleset, "id");
        html.push_str("-heading\">");
        push_field(&mut html, ruleset, "title");
        html.push_str("</h3>\n    <p class=\"ruleset-meta\">");
        if truthy(ruleset.get("type")) {
            html.push_str("<span class=\"badge\">");
            push_field(&mut html, ruleset, "type");
            html.push_str("</span>");
        }
        if truthy(ruleset.get("source")) {
            html.push_str(" Source: ");
            push_link(&mut html, field(ruleset, "source"));
        }
        html.push_str("</p>\n    ");
        if truthy(ruleset.get("error")) {
            html.push_str("<p class=\"problem\">This ruleset could not be compiled: ");
            push_field(&mut html, ruleset, "error");
            html.push_str("</p>");
        }
        html.push_str("\n    <div class=\"ruleset-body\">");
        let image = field(ruleset, "image");
        if truthy(Some(image)) {
            // At 65% of its scale or more (counts 11 px high), scrolling in its own box where the page is
            // narrower.
            let least = (field(image, "width").as_f64().unwrap_or_default() * 0.65).round();
            html.push_str(
                "<figure class=\"board-figure\"><div class=\"board-scroll\" tabindex=\"0\" role=\"group\" \
                 aria-label=\"",
            );
            push_field(&mut html, ruleset, "title");
            html.push_str(": the board at the start\"><img class=\"board\" src=\"");
            push_field(&mut html, image, "src");
            html.push_str("\" width=\"");
            push_field(&mut html, image, "width");
            html.push_str("\" height=\"");
            push_field(&mut html, image, "height");
            html.push_str("\" alt=\"");
            push_field(&mut html, image, "alt");
            html.push_str("\" loading=\"lazy\" decoding=\"async\" style=\"min-width: ");
            html.push_str(&least.to_string());
            html.push_str(
                "px\"></div><figcaption>The board at the start.</figcaption></figure>\n    ",
            );
        } else if truthy(ruleset.get("same_board_as")) {
            html.push_str("<p class=\"note\">The board and start position are those of ");
            push_link(&mut html, field(ruleset, "same_board_as"));
            html.push_str(".</p>");
        }
        html.push_str("\n    ");
        let facts = field(ruleset, "facts");
        if truthy(Some(facts)) {
            html.push_str("\n    <dl class=\"facts\">\n      <dt>Players</dt><dd>");
            push_field(&mut html, facts, "players");
            html.push_str("</dd>\n      <dt>Board</dt><dd>");
            push_field(&mut html, facts, "size");
            html.push_str("</dd>\n      <dt>Pieces per side</dt><dd>");
            push_joined(&mut html, field(facts, "pieces"), " / ");
            html.push_str("</dd>\n      <dt>Moves</dt><dd>");
            push_joined(&mut html, field(facts, "moves"), ", ");
            html.push_str("</dd>\n      <dt>Captures</dt><dd>");
            push_joined(&mut html, field(facts, "captures"), "; ");
            html.push_str("</dd>\n      <dt>End</dt><dd>");
            push_joined(&mut html, field(facts, "ends"), "; ");
            html.push_str("</dd>\n    </dl>\n    ");
        }
        html.push_str("\n    </div>\n    ");
        if let Some(boards) = field(ruleset, "boards")
            .as_array()
            .filter(|b| !b.is_empty())
        {
            html.push_str("<p>Boards played with these rules: ");
            html.push_str(&inline_links(boards));
            html.push_str("</p>");
        }
        html.push_str("\n  </section>\n  ");
    }
    html
}

#[cfg(test)]
mod tests {
    //! Each part against the template loop it stands for, rendered by the engine with the theme's escaping,
    //! on data with every branch and characters that need escaping: the pages must not change by a byte.

    use serde_json::json;

    use super::*;

    /// `template` rendered by the engine with `page` as the page's data.
    fn engine(template: &str, page: &Value) -> String {
        let mut tera = tera::Tera::default();
        tera.set_escape_fn(crate::site::theme::escape_html);
        tera.autoescape_on(vec![".html"]);
        tera.add_raw_template("macros.html", include_str!("../../templates/macros.html"))
            .unwrap();
        tera.add_raw_template(
            "t.html",
            &format!("{{% import \"macros.html\" as m %}}{template}"),
        )
        .unwrap();
        let mut context = tera::Context::new();
        context.insert("page", page);
        tera.render("t.html", &context).unwrap()
    }

    fn part(template: &str, page: &Value, name: &str) -> String {
        let mut page = page.clone();
        add_parts(template, &mut page);
        page["html"][name].as_str().unwrap().to_string()
    }

    fn link(href: &str, text: &str, note: Option<&str>, lang: Option<&str>) -> Value {
        json!({ "href": href, "text": text, "note": note, "lang": lang })
    }

    fn links_data() -> Value {
        json!([
            link(
                "../../games/a/index.html",
                "Bagh <Chal> & \"tigers\"",
                Some("confidence 80%"),
                None
            ),
            link("", "Not catalogued 'here'", None, Some("hi")),
            link(
                "x/index.html?a=1&b=2",
                "With a language",
                Some(""),
                Some("ta")
            ),
        ])
    }

    #[test]
    fn link_lists_are_written_as_the_links_macro_writes_them() {
        let list = links_data();
        let page = json!({ "evidence": list, "tags": list, "version_of": list });
        assert_eq!(
            part("item.html", &page, "evidence"),
            engine("{{ m::links(list=page.evidence) }}", &page)
        );
        assert_eq!(
            part("item.html", &page, "tags"),
            engine("{{ m::links(list=page.tags, class=\"chips\") }}", &page)
        );
        let inline = "{% for l in page.version_of %}{% if l.href %}<a href=\"{{ l.href }}\"{% if l.lang %} \
                      lang=\"{{ l.lang }}\"{% endif %}>{{ l.text }}</a>{% else %}<span{% if l.lang %} \
                      lang=\"{{ l.lang }}\"{% endif %}>{{ l.text }}</span>{% endif %}{% if l.note %} <span \
                      class=\"note\">{{ l.note }}</span>{% endif %}{% if not loop.last %}, {% endif %}{% endfor %}";
        assert_eq!(
            part("item.html", &page, "version_of"),
            engine(inline, &page)
        );
    }

    #[test]
    fn the_records_under_the_board_are_written_as_the_loop_wrote_them() {
        let page = json!({ "widget": { "records": [
            { "id": "g1", "title": "A <game>", "kind": "illustrative", "question": null, "text": "1. a1-b2 {x < y}\n" },
            { "id": "p1", "title": "A puzzle", "kind": "puzzle", "question": "Who wins & how?" },
            { "id": "g2", "title": null, "kind": null, "question": null, "text": "[Event \"E\"]\n" },
        ] } });
        let loop_ = "{% for r in page.widget.records %}\n  <details><summary>{{ r.title }}{% if r.kind %} <span \
                     class=\"note\">({{ r.kind }})</span>{% endif %}</summary>{% if r.question %}<p>{{ r.question \
                     }}</p><p class=\"note\">The solution is not shown here: it is played out on the board once \
                     solved or revealed, and it is in the game record among the downloads.</p>{% else %}<pre \
                     class=\"board-record\" data-record=\"{{ r.id }}\">\n{{ r.text }}</pre>{% endif %}</details>{% \
                     endfor %}";
        assert_eq!(part("item.html", &page, "records"), engine(loop_, &page));
    }

    #[test]
    fn rulesets_are_written_as_the_loop_wrote_them() {
        let facts = json!({ "players": 2, "size": "25 points", "pieces": ["4", "20"],
            "moves": ["step", "jump <over>"], "captures": ["leap"], "ends": ["no moves", "all taken"] });
        let page = json!({ "rulesets": [
            { "id": "ruleset-a", "title": "Common & modern", "type": "described",
              "source": link("../../sources/s/index.html", "Source \"S\"", Some("p. 3"), None),
              "error": null, "image": { "src": "../../d/1.svg", "width": 461, "height": 300, "alt": "A <board>" },
              "same_board_as": null, "facts": facts, "boards": [link("b/index.html", "Board", None, None), link("", "Other", None, None)] },
            { "id": "ruleset-b", "title": "Broken", "type": null, "source": null, "error": "line 3: no <board>",
              "image": null, "same_board_as": link("#ruleset-a", "Common", None, None), "facts": null, "boards": [] },
            { "id": "ruleset-c", "title": "Plain", "type": "", "source": null, "error": null, "image": null,
              "same_board_as": null, "facts": facts, "boards": null },
        ] });
        let loop_ = r#"{% for r in page.rulesets %}
  <section id="{{ r.id }}" class="ruleset" aria-labelledby="{{ r.id }}-heading">
    <h3 id="{{ r.id }}-heading">{{ r.title }}</h3>
    <p class="ruleset-meta">{% if r.type %}<span class="badge">{{ r.type }}</span>{% endif %}{% if r.source %} Source: {% set link = r.source %}{% if link.href %}<a href="{{ link.href }}"{% if link.lang %} lang="{{ link.lang }}"{% endif %}>{{ link.text }}</a>{% else %}<span{% if link.lang %} lang="{{ link.lang }}"{% endif %}>{{ link.text }}</span>{% endif %}{% if link.note %} <span class="note">{{ link.note }}</span>{% endif %}{% endif %}</p>
    {% if r.error %}<p class="problem">This ruleset could not be compiled: {{ r.error }}</p>{% endif %}
    <div class="ruleset-body">
    {#- A comment. -#}
    {% if r.image %}{% set least = r.image.width * 0.65 %}<figure class="board-figure"><div class="board-scroll" tabindex="0" role="group" aria-label="{{ r.title }}: the board at the start"><img class="board" src="{{ r.image.src }}" width="{{ r.image.width }}" height="{{ r.image.height }}" alt="{{ r.image.alt }}" loading="lazy" decoding="async" style="min-width: {{ least | round }}px"></div><figcaption>The board at the start.</figcaption></figure>
    {% elif r.same_board_as %}<p class="note">The board and start position are those of {% set link = r.same_board_as %}{% if link.href %}<a href="{{ link.href }}"{% if link.lang %} lang="{{ link.lang }}"{% endif %}>{{ link.text }}</a>{% else %}<span{% if link.lang %} lang="{{ link.lang }}"{% endif %}>{{ link.text }}</span>{% endif %}{% if link.note %} <span class="note">{{ link.note }}</span>{% endif %}.</p>{% endif %}
    {% if r.facts %}
    <dl class="facts">
      <dt>Players</dt><dd>{{ r.facts.players }}</dd>
      <dt>Board</dt><dd>{{ r.facts.size }}</dd>
      <dt>Pieces per side</dt><dd>{{ r.facts.pieces | join(sep=" / ") }}</dd>
      <dt>Moves</dt><dd>{{ r.facts.moves | join(sep=", ") }}</dd>
      <dt>Captures</dt><dd>{{ r.facts.captures | join(sep="; ") }}</dd>
      <dt>End</dt><dd>{{ r.facts.ends | join(sep="; ") }}</dd>
    </dl>
    {% endif %}
    </div>
    {% if r.boards %}<p>Boards played with these rules: {% for b in r.boards %}{% if b.href %}<a href="{{ b.href }}"{% if b.lang %} lang="{{ b.lang }}"{% endif %}>{{ b.text }}</a>{% else %}<span{% if b.lang %} lang="{{ b.lang }}"{% endif %}>{{ b.text }}</span>{% endif %}{% if b.note %} <span class="note">{{ b.note }}</span>{% endif %}{% if not loop.last %}, {% endif %}{% endfor %}</p>{% endif %}
  </section>
  {% endfor %}"#;
        assert_eq!(part("item.html", &page, "rulesets"), engine(loop_, &page));
    }

    #[test]
    fn the_other_item_parts_are_written_as_the_loops_wrote_them() {
        let page = json!({
            "uncatalogued": [{ "name": "Pachisi <x>", "term": "isVersionOf" }],
            "rights": ["CC BY 4.0 & more", "© 'them'"],
            "cite": [{ "format": "BibTeX", "text": "@misc{a, title={A & B}}" }, { "format": "RIS", "text": "TY  - <>" }],
            "game_records": [{ "name": "a.game", "note": "illustrative, 12 moves" }, { "name": "b&.game", "note": "" }],
        });
        let uncatalogued = "<ul class=\"plain names\">{% for n in page.uncatalogued %}<li>{{ n.name }} <span \
                            class=\"note\">{{ n.term }}</span></li>{% endfor %}</ul>";
        assert_eq!(
            part("item.html", &page, "uncatalogued"),
            engine(uncatalogued, &page)
        );
        let rights = "{% for r in page.rights %}<p>{{ r }}</p>{% endfor %}";
        assert_eq!(part("item.html", &page, "rights"), engine(rights, &page));
        let cite = "{% for c in page.cite %}\n  <details>\n    <summary>{{ c.format }}</summary>\n    <pre>{{ \
                    c.text }}</pre>\n  </details>\n  {% endfor %}";
        assert_eq!(part("item.html", &page, "cite"), engine(cite, &page));
        let records = "<ul class=\"records\">\n    {%- for r in page.game_records %}\n    <li><code>games/{{ \
                       r.name }}</code>: {{ r.note }}</li>\n    {%- endfor %}\n  </ul>";
        assert_eq!(
            part("item.html", &page, "game_records"),
            engine(records, &page)
        );
    }

    #[test]
    fn browse_and_rules_tables_are_written_as_the_loops_wrote_them() {
        let groups = json!([
            { "key": "kind", "label": "Kind", "values": [{ "value": "Game", "count": 3 }, { "value": "<b>", "count": 1 }] },
            { "key": "region", "label": "Region & place", "values": [] },
            { "key": "a", "label": "A", "values": [{ "value": "x", "count": 2 }] },
            { "key": "b", "label": "B", "values": [{ "value": "y", "count": 2 }] },
        ]);
        let page = json!({
            "groups": groups,
            "rows": [
                { "sort_title": "bagh \"chal\"", "kind": "Game", "sort_region": "nepal", "year": 1800,
                  "data": " data-kind=\"Game\"", "href": "../games/a/index.html", "title": "Bagh & Chal",
                  "thumbnail": { "src": "t.jpg", "width": 64, "height": 48 }, "region": "Nepal", "date": "c. 1800" },
                { "sort_title": "b", "kind": "Board", "sort_region": "", "year": null, "data": null,
                  "href": "b/index.html", "title": "<Board>", "thumbnail": null, "region": null, "date": "" },
            ],
            "lists": [{ "key": "kind", "label": "Kind", "values": [
                { "href": "k/index.html", "value": "Game", "text": null, "count": 3, "current": true },
                { "href": "k2/index.html", "value": "B&", "text": "Board <s>", "count": 1, "current": false },
            ] }],
        });
        assert_eq!(
            part("browse.html", &page, "filters"),
            engine(
                "{{ m::filters(groups=page.groups, noun=\"items\") }}",
                &page
            )
        );
        let rows = "{% for r in page.rows %}<tr data-title=\"{{ r.sort_title }}\" data-kind=\"{{ r.kind }}\" \
                    data-region=\"{{ r.sort_region }}\" data-year=\"{{ r.year }}\"{{ r.data | safe }}>\n        \
                    <td><a href=\"{{ r.href }}\">{% if r.thumbnail %}<img class=\"thumbnail\" src=\"{{ \
                    r.thumbnail.src }}\" width=\"{{ r.thumbnail.width }}\" height=\"{{ r.thumbnail.height }}\" \
                    alt=\"\" loading=\"lazy\" decoding=\"async\">{% endif %}{{ r.title }}</a></td><td>{{ r.kind \
                    }}</td><td>{{ r.region }}</td><td>{{ r.date }}</td></tr>\n      {% endfor %}";
        assert_eq!(part("browse.html", &page, "rows"), engine(rows, &page));
        let lists = "{% for g in page.lists %}<h3>{{ g.label }}</h3>\n<ul class=\"plain\">\n{% for v in \
                     g[\"values\"] %}<li><a href=\"{{ v.href }}\" data-key=\"{{ g.key }}\" data-value=\"{{ v.value \
                     }}\"{% if v.current %} aria-current=\"page\"{% endif %}>{% if v.text %}{{ v.text }}{% else %}{{ \
                     v.value }}{% endif %}</a> <span class=\"count\">({{ v.count }})</span></li>\n{% endfor \
                     %}</ul>\n{% endfor %}";
        assert_eq!(part("browse.html", &page, "lists"), engine(lists, &page));

        let page = json!({ "rows": [
            { "sort_title": "a", "data": " data-family=\"lines\"", "game": link("g/index.html", "Game & co", Some("n"), Some("ne")),
              "ruleset_href": "g/index.html#r", "ruleset": "Common <r>", "type": "described", "family": "Lines",
              "size": "25 points", "players": 2, "pieces": "4 / 20", "moves": ["step", "jump <x>"], "captures": [],
              "ends": ["a", "b & c"] },
            { "sort_title": "b", "data": null, "game": link("", "Uncatalogued", None, None), "ruleset_href": "r",
              "ruleset": "R", "type": null, "family": "Sowing", "size": "2 x 8", "players": 2, "pieces": "32",
              "moves": [], "captures": ["take"], "ends": [] },
        ] });
        let rows = r#"{% for r in page.rows %}<tr data-title="{{ r.sort_title }}"{{ r.data | safe }}>
        <td>{% set link = r.game %}{% if link.href %}<a href="{{ link.href }}"{% if link.lang %} lang="{{ link.lang }}"{% endif %}>{{ link.text }}</a>{% else %}<span{% if link.lang %} lang="{{ link.lang }}"{% endif %}>{{ link.text }}</span>{% endif %}{% if link.note %} <span class="note">{{ link.note }}</span>{% endif %}</td>
        <td><a href="{{ r.ruleset_href }}">{{ r.ruleset }}</a>{% if r.type %} <span class="note">{{ r.type }}</span>{% endif %}</td>
        <td>{{ r.family }}</td>
        <td>{{ r.size }}, {{ r.players }} players</td>
        <td>{{ r.pieces }}</td>
        <td>{{ r.moves | join(sep=", ") }}</td>
        <td>{{ r.captures | join(sep="; ") }}</td>
        <td>{{ r.ends | join(sep="; ") }}</td>
      </tr>
      {% endfor %}"#;
        assert_eq!(part("rules.html", &page, "rows"), engine(rows, &page));
    }

    #[test]
    fn list_pages_are_written_as_the_loops_wrote_them() {
        let page = json!({ "items": links_data(), "works": [], "links": links_data() });
        assert_eq!(
            part("facet.html", &page, "items"),
            engine("{{ m::links(list=page.items) }}", &page)
        );
        assert_eq!(
            part("person.html", &page, "works"),
            engine("{{ m::links(list=page.works) }}", &page)
        );
        assert_eq!(
            part("list.html", &page, "links"),
            engine(
                "{{ m::links(list=page.links, class=\"index-list\") }}",
                &page
            )
        );
        let groups = "{% for g in page.groups %}\n<h3>{{ g.name }}</h3>\n{{ m::links(list=g.links) }}\n{% else \
                      %}<p>Nothing in the archive cites this work yet.</p>\n{% endfor %}";
        for page in [
            json!({ "groups": [{ "name": "Games & boards", "links": links_data() }, { "name": "E", "links": [] }] }),
            json!({ "groups": [] }),
        ] {
            assert_eq!(part("source.html", &page, "groups"), engine(groups, &page));
        }
        let page = json!({ "names": [
            { "name": "Pachisi <x>", "continued": false, "items": links_data() },
            { "name": "Chaupar", "continued": true, "items": [link("a/index.html", "A", None, None)] },
        ] });
        let names = "{% for n in page.names %}<dt>{{ n.name }}{% if n.continued %} <span \
                     class=\"note\">(continued)</span>{% endif %}</dt><dd>named by {% for l in n.items %}{% if \
                     l.href %}<a href=\"{{ l.href }}\"{% if l.lang %} lang=\"{{ l.lang }}\"{% endif %}>{{ l.text \
                     }}</a>{% else %}<span{% if l.lang %} lang=\"{{ l.lang }}\"{% endif %}>{{ l.text }}</span>{% \
                     endif %}{% if l.note %} <span class=\"note\">{{ l.note }}</span>{% endif %}{% if not \
                     loop.last %}, {% endif %}{% endfor %}</dd>\n{% endfor %}";
        assert_eq!(
            part("uncatalogued.html", &page, "names"),
            engine(names, &page)
        );
    }

    #[test]
    fn only_the_templates_with_parts_get_them() {
        let mut page = json!({ "items": links_data() });
        add_parts("variants.html", &mut page);
        assert!(page.get("html").is_none());
    }
}
