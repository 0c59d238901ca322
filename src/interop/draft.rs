//! An item as read from another system, before it is a catalog folder: its values (each remembering where in the
//! input it came from), its links to other items of the input, and the notes the import report gives about it.
//! [`record_xml`] writes a draft as a `record.xml`.

use quick_xml::Writer;
use quick_xml::events::{BytesDecl, BytesEnd, BytesStart, BytesText, Event};

use crate::catalog::Kind;
use crate::catalog::terms::{self, DCTERMS_NS, RECORD_NS, Term, XSI_NS};
use crate::source::{FileId, Span};

/// One item read from an input file.
#[derive(Clone, Debug)]
pub struct Draft {
    /// The input file and where the item starts in it, for messages.
    pub file: FileId,
    pub at: Span,
    /// The item's key in the source system (Omeka's `o:id`, an OAI identifier, a CSV row's id): what links in
    /// the same input name it by, and what a clash suffix is made from.
    pub source_id: Option<String>,
    /// The item's address in the source system (an Omeka S item's API address, a harvested OAI identifier),
    /// kept as a `dcterms:identifier` so that a later import finds the item again whatever its title became.
    pub origin: Option<(String, Span)>,
    /// A ludotheca identifier the input carries (ludotheca's own exports do), kept when it is URL-safe.
    pub wanted_id: Option<String>,
    /// The kind the input says (resource class, template, an exported kind); the command line can override it.
    pub kind: Option<Kind>,
    pub values: Vec<DraftValue>,
    /// Boards: (game, ruleset), the game as the input names it.
    pub played_with: Vec<(String, Option<String>)>,
    /// Evidence: the games attested, as the input names them.
    pub attests: Vec<String>,
    pub confidence: Option<String>,
    /// Pictures of the item to fetch from these addresses (a ludotheca export's, which Omeka would fetch): a
    /// catalog keeps a picture as a file, which the import does not download, so the report lists them.
    pub pictures: Vec<String>,
    /// What the report says about this item: how values were mapped, what was kept where.
    pub notes: Vec<String>,
}

impl Draft {
    pub fn new(file: FileId, at: Span) -> Draft {
        Draft {
            file,
            at,
            source_id: None,
            origin: None,
            wanted_id: None,
            kind: None,
            values: Vec::new(),
            played_with: Vec::new(),
            attests: Vec::new(),
            confidence: None,
            pictures: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// The first title, for identifiers and messages.
    pub fn title(&self) -> Option<&str> {
        self.values
            .iter()
            .find(|v| v.term.name == "title" && !v.text.is_empty())
            .map(|v| v.text.as_str())
    }

    /// Add a plain value of a term, cleaned as every imported text is.
    pub fn push(&mut self, term: &'static Term, text: &str, at: Span) -> Option<&mut DraftValue> {
        let text = clean_text(text);
        if text.is_empty() {
            return None;
        }
        self.values.push(DraftValue::new(term, text, at));
        self.values.last_mut()
    }

    /// Keep a value that has no Dublin Core term of its own as a description naming where it came from, so that
    /// it is neither dropped nor mistaken for the item's own description; the report lists it.
    pub fn keep_unplaced(&mut self, name: &str, text: &str, at: Span) {
        let text = clean_text(text);
        if text.is_empty() {
            return;
        }
        let term = term("description");
        self.values
            .push(DraftValue::new(term, format!("{name}: {text}"), at));
        self.notes.push(format!(
            "kept `{name}` (no Dublin Core term) as dcterms:description \"{name}: {}\"",
            excerpt(&text)
        ));
    }
}

/// A link from a value to another item of the input, resolved once every item has its identifier.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    /// The other item's key in the input: its source id, or a ludotheca identifier.
    pub target: String,
    /// A name to keep as plain text when the other item is not in the input.
    pub fallback: Option<String>,
}

/// One Dublin Core value of a draft.
#[derive(Clone, Debug)]
pub struct DraftValue {
    pub term: &'static Term,
    pub text: String,
    pub lang: Option<String>,
    /// An `xsi:type`, as `dcterms:<name>`.
    pub scheme: Option<String>,
    pub link: Option<Link>,
    /// A ludotheca identifier, once a link is resolved (or when the input gives one that needs no resolving).
    pub ref_: Option<String>,
    pub cite: Option<String>,
    pub pages: Option<String>,
    /// The input marks the text as HTML (Omeka S's `rdf:HTML`); text with an editor's tags is taken as HTML too.
    pub html: bool,
    /// Where in the input file the value is.
    pub at: Span,
}

impl DraftValue {
    pub fn new(term: &'static Term, text: String, at: Span) -> DraftValue {
        DraftValue {
            term,
            text,
            lang: None,
            scheme: None,
            link: None,
            ref_: None,
            cite: None,
            pages: None,
            html: false,
            at,
        }
    }
}

/// A `dcterms:` term by its local name; only for names this module knows exist.
pub fn term(name: &str) -> &'static Term {
    terms::lookup(terms::Namespace::Dcterms, name)
        .unwrap_or_else(|| panic!("`{name}` is one of the 55 dcterms properties"))
}

/// Text as a record holds it: line ends as `\n`, no characters XML cannot carry (controls other than tab and
/// newline), no white space around it.
pub fn clean_text(text: &str) -> String {
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let cleaned: String = text
        .chars()
        .filter(|&c| c == '\t' || c == '\n' || !c.is_control())
        .filter(|&c| c != '\u{FFFE}' && c != '\u{FFFF}')
        .collect();
    cleaned.trim().to_string()
}

/// The first words of a text, for the report.
pub fn excerpt(text: &str) -> String {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.chars().count() <= 60 {
        line
    } else {
        format!("{}…", line.chars().take(59).collect::<String>())
    }
}

/// The draft as a `record.xml`, written with quick-xml's writer (which escapes every value): the kind on the
/// root, then the values in the order they were read, then the ludotheca elements.
pub fn record_xml(draft: &Draft, kind: Kind) -> String {
    let mut writer = Writer::new_with_indent(Vec::new(), b' ', 2);
    put(
        &mut writer,
        Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)),
    );
    let mut root = BytesStart::new("record");
    root.push_attribute(("xmlns", RECORD_NS));
    root.push_attribute(("xmlns:dcterms", DCTERMS_NS));
    if draft.values.iter().any(|v| v.scheme.is_some()) {
        root.push_attribute(("xmlns:xsi", XSI_NS));
    }
    root.push_attribute(("kind", kind.as_str()));
    put(&mut writer, Event::Start(root));
    for value in &draft.values {
        write_value(&mut writer, value);
    }
    for (game, ruleset) in &draft.played_with {
        write_played_with(&mut writer, game, ruleset.as_deref());
    }
    for game in &draft.attests {
        write_attests(&mut writer, game);
    }
    if let Some(c) = &draft.confidence {
        write_confidence(&mut writer, c);
    }
    put(&mut writer, Event::End(BytesEnd::new("record")));
    let mut text = String::from_utf8(writer.into_inner()).expect("the writer was given UTF-8 only");
    text.push('\n');
    text
}

/// One value's element, on its own, for an edit of a record that exists.
pub fn value_xml(value: &DraftValue) -> String {
    alone(|w| write_value(w, value))
}

pub fn played_with_xml(game: &str, ruleset: Option<&str>) -> String {
    alone(|w| write_played_with(w, game, ruleset))
}

pub fn attests_xml(game: &str) -> String {
    alone(|w| write_attests(w, game))
}

pub fn confidence_xml(confidence: &str) -> String {
    alone(|w| write_confidence(w, confidence))
}

fn alone(write: impl FnOnce(&mut Writer<Vec<u8>>)) -> String {
    let mut writer = Writer::new(Vec::new());
    write(&mut writer);
    String::from_utf8(writer.into_inner()).expect("the writer was given UTF-8 only")
}

fn put(writer: &mut Writer<Vec<u8>>, event: Event<'_>) {
    // Writing into a Vec cannot fail.
    writer
        .write_event(event)
        .expect("writing XML into memory does not fail");
}

fn write_value(writer: &mut Writer<Vec<u8>>, value: &DraftValue) {
    let name = format!("dcterms:{}", value.term.name);
    let mut start = BytesStart::new(name.as_str());
    if let Some(lang) = &value.lang {
        start.push_attribute(("xml:lang", lang.as_str()));
    }
    if let Some(scheme) = &value.scheme {
        start.push_attribute(("xsi:type", scheme.as_str()));
    }
    if let Some(r) = &value.ref_ {
        start.push_attribute(("ref", r.as_str()));
    }
    if let Some(c) = &value.cite {
        start.push_attribute(("cite", c.as_str()));
    }
    if let Some(p) = &value.pages {
        start.push_attribute(("pages", p.as_str()));
    }
    if value.text.is_empty() {
        put(writer, Event::Empty(start));
    } else {
        put(writer, Event::Start(start));
        put(writer, Event::Text(BytesText::new(&value.text)));
        put(writer, Event::End(BytesEnd::new(name.as_str())));
    }
}

fn write_played_with(writer: &mut Writer<Vec<u8>>, game: &str, ruleset: Option<&str>) {
    let mut e = BytesStart::new("playedWith");
    e.push_attribute(("game", game));
    if let Some(r) = ruleset {
        e.push_attribute(("ruleset", r));
    }
    put(writer, Event::Empty(e));
}

fn write_attests(writer: &mut Writer<Vec<u8>>, game: &str) {
    let mut e = BytesStart::new("attests");
    e.push_attribute(("game", game));
    put(writer, Event::Empty(e));
}

fn write_confidence(writer: &mut Writer<Vec<u8>>, confidence: &str) {
    put(writer, Event::Start(BytesStart::new("confidence")));
    put(writer, Event::Text(BytesText::new(confidence)));
    put(writer, Event::End(BytesEnd::new("confidence")));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Diagnostics;
    use crate::source::SourceMap;

    #[test]
    fn a_written_record_reads_back_with_every_value() {
        let mut draft = Draft::new(FileId(0), 0..0);
        draft.push(term("title"), "  Bāgh & <Chāl>\r\n", 0..0);
        let v = draft.push(term("alternative"), "Terhüchü", 0..0).unwrap();
        v.lang = Some("njm".into());
        let v = draft.push(term("source"), "", 0..0);
        assert!(v.is_none(), "an empty value is not kept");
        let mut cited = DraftValue::new(term("source"), String::new(), 0..0);
        cited.cite = Some("murray-1952".into());
        cited.pages = Some("110-111".into());
        draft.values.push(cited);
        let v = draft
            .push(term("description"), "Two lines\nof \"text\"\u{1}", 0..0)
            .unwrap();
        v.scheme = None;
        let v = draft
            .push(term("spatial"), "east=94.11; north=25.67", 0..0)
            .unwrap();
        v.scheme = Some("dcterms:Point".into());
        draft.attests.push("terhuchu".into());
        let xml = record_xml(&draft, Kind::Evidence);
        let mut files = SourceMap::default();
        let mut diagnostics = Diagnostics::new();
        let item = crate::catalog::read_record("x", xml.clone(), &mut files, &mut diagnostics);
        assert!(diagnostics.is_empty(), "{xml}\n{diagnostics:?}");
        let texts: Vec<&str> = item.values.iter().map(|v| &*v.text).collect();
        assert_eq!(
            texts,
            [
                "Bāgh & <Chāl>",
                "Terhüchü",
                "",
                "Two lines\nof \"text\"",
                "east=94.11; north=25.67"
            ]
        );
        assert_eq!(item.values[1].lang().unwrap().value, "njm");
        assert_eq!(item.values[2].pages().unwrap().value, "110-111");
        assert_eq!(item.kind, Some(Kind::Evidence));
        assert_eq!(item.attests.len(), 1);
    }
}
