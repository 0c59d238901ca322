//! Reading one `record.xml` with quick-xml's namespace-aware reader, keeping the byte span of every element,
//! attribute and value.
//!
//! The reader runs over the whole file held in memory (`NsReader::from_str`), so the names and attribute values
//! it hands back are slices of that text, and their offsets are exact. Entities are never expanded: only the
//! five XML ones and numeric character references are understood, anything else is reported.

use std::borrow::Cow;

use quick_xml::NsReader;
use quick_xml::events::attributes::AttrError;
use quick_xml::events::{BytesStart, Event};
use quick_xml::name::ResolveResult;

use super::terms::{self, DC_NS, DCTERMS_NS, Namespace, RECORD_NS, XML_NS, XSI_NS};
use super::{Attribute, GameLink, ImageFile, ImageRef, Item, Kind, Spanned, Stray, Unknown, Value};
use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::source::{FileId, SourceMap, Span};

/// The deepest nesting read. A record needs three levels; a cap far above that stops a hostile record (nested
/// tens of thousands deep) before the reader's own depth counting can overflow and turn into false errors.
pub const MAX_DEPTH: usize = 64;

/// What the reader is inside of, at depth 1 under the root.
enum Open {
    /// A Dublin Core value being read.
    Value(Box<Value>, String, usize),
    /// `<confidence>`: its text, and where the content starts.
    Confidence(String, usize),
    /// `<image>`: the image, its caption so far, and where the content starts.
    Image(Box<ImageRef>, String, usize),
    /// An element whose content is ignored (unknown, or one that takes no content).
    Skipped,
}

struct Parser<'a> {
    text: &'a str,
    sources: &'a SourceMap,
    file: FileId,
    diagnostics: &'a mut Diagnostics,
    item: &'a mut Item,
    /// Start offset and name span of each open element.
    stack: Vec<(usize, Span)>,
    open: Option<Open>,
    failed: bool,
}

/// Parse the record held in `file` into `item`, reporting malformed XML.
pub fn parse(sources: &SourceMap, file: FileId, item: &mut Item, diagnostics: &mut Diagnostics) {
    let text = sources.get(file).text();
    // Values hold their positions in 32 bits. The catalog's reader refuses records far smaller than this; a
    // record made in memory (an import reading back what it wrote) is refused here instead.
    if u32::try_from(text.len()).is_err() {
        diagnostics
            .error_at(
                sources,
                file,
                0..0,
                "E005",
                "the record is larger than 4 GiB",
            )
            .help = Some("split the item's values over several records".to_string());
        item.well_formed = false;
        return;
    }
    let mut parser = Parser {
        text: &text,
        sources,
        file,
        diagnostics,
        item,
        stack: Vec::new(),
        open: None,
        failed: false,
    };
    parser.run();
    parser.item.well_formed = !parser.failed;
    parser.item.record_listed = Some(parser.item.record_listed());
    // Held to the end of the build: without the room the pushes left (a quarter of the values' size).
    parser.item.values.shrink_to_fit();
}

impl<'a> Parser<'a> {
    fn error(
        &mut self,
        code: &'static str,
        span: Span,
        message: impl Into<String>,
    ) -> &mut Diagnostic {
        self.diagnostics
            .error_at(self.sources, self.file, span, code, message)
    }

    /// Offset of a slice that borrows from the record text.
    fn offset_of(&self, slice: &[u8]) -> Option<usize> {
        let base = self.text.as_ptr() as usize;
        let at = slice.as_ptr() as usize;
        (at >= base && at + slice.len() <= base + self.text.len()).then(|| at - base)
    }

    fn span_of(&self, slice: &[u8], fallback: &Span) -> Span {
        match self.offset_of(slice) {
            Some(start) => start..start + slice.len(),
            None => fallback.clone(),
        }
    }

    fn run(&mut self) {
        // The reader drops a byte order mark at the start of what it is given without counting it in its
        // positions, so the marks at the start are dropped here and positions counted from after them: all of
        // them, since with one left the reader would drop that one too and every position would be off.
        let base = self.text.len() - self.text.trim_start_matches('\u{feff}').len();
        let mut reader = NsReader::from_str(&self.text[base..]);
        let mut seen_root = false;
        loop {
            let start = base + reader.buffer_position() as usize;
            let event = match reader.read_event() {
                Ok(event) => event,
                Err(err) => {
                    let at = base + reader.error_position() as usize;
                    let message = format!("malformed XML: {err}");
                    let diagnostic = self.error("E001", at..at + 1, message);
                    // A bare `&`, as in a title such as "Tigers & Goats", is the commonest way here.
                    if matches!(
                        err,
                        quick_xml::Error::IllFormed(
                            quick_xml::errors::IllFormedError::UnclosedReference
                        )
                    ) {
                        diagnostic.help = Some(
                            "to write `&` as text, write `&amp;` (`Tigers &amp; Goats`)".into(),
                        );
                    }
                    self.failed = true;
                    return;
                }
            };
            let end = base + reader.buffer_position() as usize;
            match event {
                Event::Decl(decl) => {
                    if let Some(Ok(encoding)) = decl.encoding() {
                        let name = String::from_utf8_lossy(&encoding).to_ascii_lowercase();
                        if name != "utf-8" && name != "utf8" {
                            let span = self.span_of(&encoding, &(start..end));
                            self.error(
                                "E004",
                                span,
                                format!("records must be UTF-8, not `{name}`"),
                            )
                            .help = Some(
                                "save the file as UTF-8 and declare `encoding=\"UTF-8\"`".into(),
                            );
                        }
                    }
                }
                Event::PI(_) | Event::Comment(_) => {}
                Event::DocType(_) => {
                    let span = start..(start + "<!DOCTYPE".len()).min(end);
                    self.error("E002", span, "DOCTYPE declarations are not allowed in a record")
                        .help = Some(
                        "remove the DOCTYPE; ludotheca never loads DTDs or expands declared entities".into(),
                    );
                }
                Event::Start(_) | Event::Empty(_) => {
                    let (e, empty) = match event {
                        Event::Empty(e) => (e, true),
                        Event::Start(e) => (e, false),
                        _ => unreachable!("matched Start or Empty just above"),
                    };
                    if self.stack.is_empty() && seen_root {
                        self.error("E001", start..end, "malformed XML: a second root element");
                        self.failed = true;
                        return;
                    }
                    // quick-xml reads `a < b` in text as a tag with an empty name; XML says it is an error.
                    if e.name().as_ref().is_empty() {
                        self.error(
                            "E001",
                            start..start + 1,
                            "malformed XML: `<` must be followed by a name",
                        )
                        .help = Some("to write `<` as text, write `&lt;`".into());
                        self.failed = true;
                        return;
                    }
                    if self.stack.len() >= MAX_DEPTH {
                        let name_span = self.span_of(e.name().as_ref(), &(start..end));
                        self.error(
                            "E042",
                            name_span,
                            format!(
                                "elements nested more than {MAX_DEPTH} levels deep; the record is not read further"
                            ),
                        )
                        .help = Some(
                            "a record is three levels deep (`<record>`, its terms, their text); remove the nested markup"
                                .into(),
                        );
                        self.failed = true;
                        return;
                    }
                    seen_root = true;
                    self.open_element(&reader, &e, start, end);
                    if !empty {
                        let name_span = self.span_of(e.name().as_ref(), &(start..end));
                        self.stack.push((start, name_span));
                    } else if self.stack.len() == 1 {
                        self.close_value(end);
                    }
                }
                Event::End(_) => {
                    self.stack.pop();
                    if self.stack.len() == 1 {
                        self.close_value(start);
                    }
                }
                Event::Text(t) => {
                    let raw = t.as_ref();
                    let span = self.span_of(raw, &(start..end));
                    let content = String::from_utf8_lossy(raw);
                    // XML reads CR LF as LF in content. Most records have none: their text is not copied.
                    if content.contains('\r') {
                        self.text_content(&content.replace("\r\n", "\n"), span);
                    } else {
                        self.text_content(&content, span);
                    }
                }
                Event::CData(c) => {
                    let content = String::from_utf8_lossy(c.as_ref());
                    self.text_content(&content, start..end);
                }
                Event::GeneralRef(r) => {
                    let name = String::from_utf8_lossy(r.as_ref());
                    match resolve_reference(&name) {
                        Ok(c) => self.text_content(&c.to_string(), start..end),
                        Err(message) => {
                            self.reference_error(&name, start..end, message);
                        }
                    }
                }
                Event::Eof => break,
            }
        }
        if let Some((start, name_span)) = self.stack.last().cloned() {
            let name = self.text[name_span].to_string();
            self.error(
                "E001",
                start..start + 1,
                format!("malformed XML: `<{name}>` is never closed"),
            )
            .help = Some(format!("add `</{name}>`"));
            self.failed = true;
        } else if !seen_root {
            self.error(
                "E001",
                0..0,
                "malformed XML: the record has no root element",
            )
            .help = Some(
                "a record is a `<record xmlns=\"urn:ludotheca:record:1\" kind=\"...\">` element"
                    .into(),
            );
            self.failed = true;
        }
    }

    fn reference_error(&mut self, name: &str, span: Span, message: String) {
        if name.starts_with('#') {
            self.error("E001", span, message);
            self.failed = true;
        } else {
            self.error("E003", span, message).help = Some(
                "write the character itself (records are UTF-8), or one of &amp; &lt; &gt; &quot; &apos;".into(),
            );
        }
    }

    /// Text, CDATA or a resolved reference at `span`.
    fn text_content(&mut self, content: &str, span: Span) {
        match &mut self.open {
            Some(Open::Value(_, text, _))
            | Some(Open::Confidence(text, _))
            | Some(Open::Image(_, text, _))
                if self.stack.len() == 2 =>
            {
                text.push_str(content);
            }
            // Inside markup nested in a value (already reported) or inside an element that is skipped.
            Some(_) if self.stack.len() >= 2 => {}
            _ => {
                if !content.trim().is_empty() {
                    let trimmed = trim_span(self.text, span);
                    if self.stack.is_empty() {
                        self.error(
                            "E001",
                            trimmed,
                            "malformed XML: text outside the root element",
                        );
                        self.failed = true;
                    } else {
                        self.item.stray_content.push(Stray::Text(trimmed));
                    }
                }
            }
        }
    }

    fn open_element(
        &mut self,
        reader: &NsReader<&[u8]>,
        e: &BytesStart<'_>,
        start: usize,
        end: usize,
    ) {
        let tag = start..end;
        let qname = e.name();
        let name_span = self.span_of(qname.as_ref(), &tag);
        let (resolved, local) = reader.resolver().resolve_element(qname);
        // Names and namespaces are slices of the record's text (UTF-8 already): borrowed, not copied, as a
        // record's thousands of elements are read.
        let local = String::from_utf8_lossy(local.into_inner());
        let (ns, undeclared) = match resolved {
            ResolveResult::Bound(ns) => (Some(namespace(ns.into_inner())), false),
            ResolveResult::Unbound => (None, false),
            ResolveResult::Unknown(_) => (None, true),
        };
        let attributes = self.attributes(reader, e, &tag);
        // Made only for an element that is not known.
        let unknown = |text: &str| Unknown {
            ns: ns.as_deref().map(str::to_string),
            name: text[name_span.clone()].to_string(),
            undeclared_prefix: undeclared,
            span: name_span.clone(),
        };

        match self.stack.len() {
            0 => self.open_root(ns.as_deref(), &local, name_span, attributes),
            1 => {
                let content_start = end;
                let dc_ns = match ns.as_deref() {
                    Some(DC_NS) => Some(Namespace::Dc),
                    Some(DCTERMS_NS) => Some(Namespace::Dcterms),
                    _ => None,
                };
                self.open = Some(match (dc_ns, ns.as_deref()) {
                    (Some(dc_ns), _) => match terms::lookup(dc_ns, &local) {
                        Some(term) => {
                            let value =
                                self.new_value(term, dc_ns, name_span, content_start, attributes);
                            Open::Value(Box::new(value), String::new(), content_start)
                        }
                        None => {
                            self.item.unknown_elements.push(unknown(self.text));
                            Open::Skipped
                        }
                    },
                    (None, Some(RECORD_NS)) => match &*local {
                        "playedWith" | "attests" => {
                            let link = self.game_link(name_span, attributes);
                            if local == "playedWith" {
                                self.item.played_with.push(link);
                            } else {
                                self.item.attests.push(link);
                            }
                            Open::Skipped
                        }
                        "confidence" => {
                            self.unknown_attributes(attributes, &[]);
                            Open::Confidence(String::new(), content_start)
                        }
                        "image" => {
                            let image = self.image(name_span, attributes);
                            Open::Image(Box::new(image), String::new(), content_start)
                        }
                        _ => {
                            self.item.unknown_elements.push(unknown(self.text));
                            Open::Skipped
                        }
                    },
                    _ => {
                        self.item.unknown_elements.push(unknown(self.text));
                        Open::Skipped
                    }
                });
            }
            2 => {
                // Markup inside a value; deeper levels are covered by this report.
                if let Some(Open::Value(..) | Open::Confidence(..) | Open::Image(..)) = self.open {
                    self.item.stray_content.push(Stray::Element(name_span));
                }
            }
            _ => {}
        }
    }

    fn open_root(&mut self, ns: Option<&str>, local: &str, name_span: Span, attributes: Vec<Attr>) {
        self.item.root_span = name_span;
        self.item.root_ok = ns == Some(RECORD_NS) && local == "record";
        if !self.item.root_ok {
            return;
        }
        for attr in attributes {
            if attr.ns.is_none() && attr.local == "kind" {
                self.item.kind = Kind::parse(&attr.value.value);
                self.item.kind_attr = Some(attr.value);
            } else if attr.ns.as_deref() == Some(XSI_NS) && attr.local == "schemaLocation" {
                // Editors add it to validate records against a schema; it changes nothing here.
            } else {
                self.item.unknown_attributes.push(attr.unknown(self.text));
            }
        }
    }

    fn new_value(
        &mut self,
        term: &'static terms::Term,
        ns: Namespace,
        name_span: Span,
        content_start: usize,
        attributes: Vec<Attr>,
    ) -> Value {
        let mut value = Value::new(term, ns, name_span, content_start);
        let mut known = Vec::new();
        for attr in attributes {
            let name = match (attr.ns.as_deref(), &*attr.local) {
                (Some(XML_NS), "lang") => Attribute::Lang,
                (Some(XSI_NS), "type") => Attribute::Scheme,
                (None, "ref") => Attribute::Ref,
                (None, "cite") => Attribute::Cite,
                (None, "pages") => Attribute::Pages,
                _ => {
                    self.item.unknown_attributes.push(attr.unknown(self.text));
                    continue;
                }
            };
            known.push((name, attr.value));
        }
        if !known.is_empty() {
            value.set_attributes(known);
        }
        value
    }

    fn game_link(&mut self, span: Span, attributes: Vec<Attr>) -> GameLink {
        let mut link = GameLink {
            game: None,
            ruleset: None,
            span,
        };
        for attr in attributes {
            match (attr.ns.as_deref(), &*attr.local) {
                (None, "game") => link.game = Some(attr.value),
                (None, "ruleset") => link.ruleset = Some(attr.value),
                _ => self.item.unknown_attributes.push(attr.unknown(self.text)),
            }
        }
        link
    }

    fn image(&mut self, span: Span, attributes: Vec<Attr>) -> ImageRef {
        let mut image = ImageRef {
            file: None,
            alt: None,
            caption: String::new(),
            caption_span: span.end..span.end,
            span,
            found: ImageFile::Unread,
        };
        for attr in attributes {
            match (attr.ns.as_deref(), &*attr.local) {
                (None, "file") => image.file = Some(attr.value),
                (None, "alt") => image.alt = Some(attr.value),
                _ => self.item.unknown_attributes.push(attr.unknown(self.text)),
            }
        }
        image
    }

    fn unknown_attributes(&mut self, attributes: Vec<Attr>, known: &[&str]) {
        for attr in attributes {
            if attr.ns.is_some() || !known.contains(&&*attr.local) {
                self.item.unknown_attributes.push(attr.unknown(self.text));
            }
        }
    }

    /// Finish the value or confidence open at depth 1; `content_end` is where its end tag starts.
    fn close_value(&mut self, content_end: usize) {
        match self.open.take() {
            Some(Open::Value(mut value, text, content_start)) => {
                value.text = text.trim().into();
                if content_end > content_start {
                    value.set_text_span(trim_span(self.text, content_start..content_end));
                }
                self.item.values.push(*value);
            }
            Some(Open::Confidence(text, content_start)) => {
                let span = if content_end > content_start {
                    trim_span(self.text, content_start..content_end)
                } else {
                    content_start..content_start
                };
                self.item
                    .confidence
                    .push(Spanned::new(text.trim().to_string(), span));
            }
            Some(Open::Image(mut image, text, content_start)) => {
                image.caption = text.trim().to_string();
                if content_end > content_start {
                    image.caption_span = trim_span(self.text, content_start..content_end);
                }
                self.item.images.push(*image);
            }
            Some(Open::Skipped) | None => {}
        }
    }

    /// The attributes of a start tag, namespace-resolved and unescaped, with spans; `xmlns` declarations are
    /// left out.
    fn attributes<'e>(
        &mut self,
        reader: &NsReader<&[u8]>,
        e: &'e BytesStart<'_>,
        tag: &Span,
    ) -> Vec<Attr<'e>> {
        let mut out = Vec::new();
        for attr in e.attributes() {
            let attr = match attr {
                Ok(attr) => attr,
                Err(err) => {
                    let (position, message) = attribute_error(&err);
                    // Positions count from the element name, just after `<`.
                    let at = (tag.start + 1 + position).min(tag.end);
                    self.error("E001", at..at + 1, format!("malformed XML: {message}"));
                    self.failed = true;
                    break;
                }
            };
            if attr.key.as_namespace_binding().is_some() {
                continue;
            }
            let key_span = self.span_of(attr.key.as_ref(), tag);
            let value_span = self.span_of(attr.value.as_ref(), tag);
            let (resolved, local) = reader.resolver().resolve_attribute(attr.key);
            let (ns, undeclared_prefix) = match resolved {
                ResolveResult::Bound(ns) => (Some(namespace(ns.into_inner())), false),
                ResolveResult::Unbound => (None, false),
                ResolveResult::Unknown(_) => (None, true),
            };
            let raw = String::from_utf8_lossy(attr.value.as_ref());
            let value = match unescape_attribute(&raw) {
                Ok(value) => value,
                Err((offset, len, name, message)) => {
                    // Reported here; the attribute is then left out so that later checks do not report its
                    // value a second time.
                    let at = value_span.start + offset;
                    self.reference_error(&name, at..at + len, message);
                    continue;
                }
            };
            out.push(Attr {
                ns,
                undeclared_prefix,
                local: String::from_utf8_lossy(local.into_inner()),
                key_span,
                value: Spanned::new(value, value_span),
            });
        }
        out
    }
}

/// An attribute as read: its namespace, its local name (borrowed from the record's text), where its name is
/// written, and its value.
struct Attr<'t> {
    ns: Option<Cow<'static, str>>,
    undeclared_prefix: bool,
    local: Cow<'t, str>,
    /// The name as written, with its prefix.
    key_span: Span,
    value: Spanned<String>,
}

impl Attr<'_> {
    /// The attribute as one not known, its name as written in `text` (the record).
    fn unknown(self, text: &str) -> Unknown {
        Unknown {
            ns: self.ns.map(Cow::into_owned),
            name: text[self.key_span.clone()].to_string(),
            undeclared_prefix: self.undeclared_prefix,
            span: self.key_span,
        }
    }
}

/// A namespace URI: one the reader knows without a copy, any other copied.
fn namespace(uri: &[u8]) -> Cow<'static, str> {
    [DC_NS, DCTERMS_NS, RECORD_NS, XML_NS, XSI_NS]
        .into_iter()
        .find(|known| known.as_bytes() == uri)
        .map_or_else(
            || Cow::Owned(String::from_utf8_lossy(uri).into_owned()),
            Cow::Borrowed,
        )
}

/// Where in the tag an attribute error is, and what it is, in words that do not repeat the position.
fn attribute_error(err: &AttrError) -> (usize, String) {
    match *err {
        AttrError::ExpectedEq(at) => (at, "expected `=` after the attribute name".into()),
        AttrError::ExpectedValue(at) => (at, "expected a quoted value after `=`".into()),
        AttrError::UnquotedValue(at) => (
            at,
            "attribute values must be quoted with `\"` or `'`".into(),
        ),
        AttrError::ExpectedQuote(at, quote) => (
            at,
            format!("this value is not closed with `{}`", quote as char),
        ),
        AttrError::Duplicated(at, _) => (
            at,
            "this attribute is given twice in the same element".into(),
        ),
    }
}

/// Narrow a span to its text without surrounding white space.
fn trim_span(text: &str, span: Span) -> Span {
    let slice = &text[span.clone()];
    let start = span.start + (slice.len() - slice.trim_start().len());
    let end = span.end - (slice.len() - slice.trim_end().len());
    if start >= end {
        span.start..span.start
    } else {
        start..end
    }
}

/// The character a reference (`amp`, `#233`, `#x1F3B2`) stands for; any other entity is refused.
pub fn resolve_reference(name: &str) -> Result<char, String> {
    match name {
        "amp" => Ok('&'),
        "lt" => Ok('<'),
        "gt" => Ok('>'),
        "quot" => Ok('"'),
        "apos" => Ok('\''),
        _ => {
            if let Some(number) = name.strip_prefix('#') {
                let code = match number.strip_prefix('x') {
                    Some(hex) => u32::from_str_radix(hex, 16).ok(),
                    None => number.parse::<u32>().ok(),
                };
                code.and_then(char::from_u32)
                    .filter(|&c| c != '\0')
                    .ok_or_else(|| {
                        format!("malformed XML: `&{name};` is not a valid character reference")
                    })
            } else {
                Err(format!("entity reference `&{name};` is not allowed"))
            }
        }
    }
}

/// Resolve references in an attribute value and normalise its white space (tabs and newlines read as spaces,
/// as XML says). On failure: offset and length of the bad reference in `raw`, its name, and a message.
fn unescape_attribute(raw: &str) -> Result<String, (usize, usize, String, String)> {
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    let mut offset = 0;
    while let Some(amp) = rest.find('&') {
        out.extend(rest[..amp].chars().map(normalise_space));
        let after = &rest[amp + 1..];
        let Some(semi) = after.find(';') else {
            return Err((
                offset + amp,
                1,
                "#".into(),
                "malformed XML: `&` must be written `&amp;`".into(),
            ));
        };
        let name = &after[..semi];
        match resolve_reference(name) {
            Ok(c) => out.push(c),
            Err(message) => return Err((offset + amp, semi + 2, name.to_string(), message)),
        }
        let consumed = amp + 1 + semi + 1;
        rest = &rest[consumed..];
        offset += consumed;
    }
    out.extend(rest.chars().map(normalise_space));
    Ok(out)
}

fn normalise_space(c: char) -> char {
    if matches!(c, '\t' | '\n' | '\r') {
        ' '
    } else {
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_text(text: &str) -> (Item, Diagnostics, SourceMap) {
        let mut sources = SourceMap::default();
        let file = sources.add("record.xml".into(), text.into());
        let mut item = Item::new("a".into(), "a".into(), file);
        let mut diagnostics = Diagnostics::new();
        parse(&sources, file, &mut item, &mut diagnostics);
        (item, diagnostics, sources)
    }

    #[test]
    fn spans_survive_several_byte_order_marks() {
        // The reader would drop a second mark as it drops the first, without counting it: every span after it
        // would be off by its length, inside a character. (Found by the property test.)
        let text = "\u{feff}\u{feff}\0&amp;<record xmlns=\"urn:ludotheca:record:1\" \
                    xmlns:dc=\"http://purl.org/dc/elements/1.1/\" kind=\"game\"><dc:title>T</dc:title></record>";
        let (item, diagnostics, _) = parse_text(text);
        let title = &item.values[0];
        assert_eq!(&text[title.span()], "dc:title");
        assert_eq!(&text[title.text_span()], "T");
        // The text before the root is reported, at a place inside the text.
        assert!(
            diagnostics.iter().any(|d| d.code == "E001"),
            "{diagnostics:?}"
        );
    }

    #[test]
    fn spans_survive_a_byte_order_mark_and_crlf() {
        let text = "\u{feff}<?xml version=\"1.0\"?>\r\n<record xmlns=\"urn:ludotheca:record:1\" \
                    xmlns:dc=\"http://purl.org/dc/elements/1.1/\" kind=\"game\">\r\n\
                    \t<dc:title xml:lang=\"ne\">B\u{101}gh &amp; Ch\u{101}l</dc:title><dc:subject/>\r\n</record>\r\n";
        let (item, diagnostics, sources) = parse_text(text);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        assert!(item.well_formed && item.root_ok);
        assert_eq!(item.kind, Some(Kind::Game));
        let title = &item.values[0];
        assert_eq!(&*title.text, "B\u{101}gh & Ch\u{101}l");
        assert_eq!(&text[title.span()], "dc:title");
        assert_eq!(&text[title.text_span()], "B\u{101}gh &amp; Ch\u{101}l");
        assert_eq!(&text[title.lang().unwrap().span.clone()], "ne");
        let position = sources.get(item.file).position(title.span().start);
        assert_eq!((position.line, position.column), (3, 3));
        // An empty element is a value with no text, not an element left open.
        assert_eq!(item.values.len(), 2);
        assert_eq!(&*item.values[1].text, "");
    }

    #[test]
    fn line_ends_in_a_value_and_names_not_known() {
        // A value over several lines written with CR LF reads with LF; elements and attributes the reader does
        // not know keep their namespace and their names as written, prefix and all.
        let text = "<record xmlns=\"urn:ludotheca:record:1\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\" \
                    xmlns:x=\"urn:example:other\" kind=\"game\" x:note=\"n\">\r\n\
                    <dc:description>first line\r\nsecond line</dc:description>\r\n\
                    <dc:title x:style=\"bold\" colour=\"red\">T</dc:title><x:extra>e</x:extra><dc:nonsense/>\r\n\
                    </record>";
        let (item, _, _) = parse_text(text);
        assert!(item.well_formed && item.root_ok);
        assert_eq!(&*item.values[0].text, "first line\nsecond line");
        assert_eq!(&*item.values[1].text, "T");
        let elements: Vec<(Option<&str>, &str)> = item
            .unknown_elements
            .iter()
            .map(|u| (u.ns.as_deref(), u.name.as_str()))
            .collect();
        assert_eq!(
            elements,
            [
                (Some("urn:example:other"), "x:extra"),
                (Some(DC_NS), "dc:nonsense")
            ]
        );
        let attributes: Vec<(Option<&str>, &str, &str)> = item
            .unknown_attributes
            .iter()
            .map(|u| (u.ns.as_deref(), u.name.as_str(), &text[u.span.clone()]))
            .collect();
        assert_eq!(
            attributes,
            [
                (Some("urn:example:other"), "x:note", "x:note"),
                (Some("urn:example:other"), "x:style", "x:style"),
                (None, "colour", "colour")
            ]
        );
    }

    /// A record whose title is `title`, parsed: each diagnostic's code, column and help.
    fn titled(title: &str) -> Vec<(&'static str, usize, Option<String>)> {
        let (item, diagnostics, _) = parse_text(&format!(
            "<record xmlns=\"urn:ludotheca:record:1\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\" \
             kind=\"game\"><dc:title>{title}</dc:title></record>"
        ));
        assert!(!item.well_formed);
        diagnostics
            .iter()
            .map(|d| {
                let column = d.location.as_ref().map_or(0, |l| l.column);
                (d.code, column, d.help.clone())
            })
            .collect()
    }

    #[test]
    fn a_bare_less_than_or_ampersand_is_malformed_and_told_how_to_write_it() {
        // In "Tigers & Goats", the `&` starts a reference the reader finds never closed.
        for (title, column, told) in [("a < b", 108, "`&lt;`"), ("Tigers & Goats", 113, "`&amp;`")]
        {
            let found = titled(title);
            assert_eq!((found.len(), found[0].0, found[0].1), (1, "E001", column));
            let help = found[0].2.as_deref().unwrap_or_default();
            assert!(help.contains(&format!("write {told}")), "{title}: {help}");
        }
    }

    #[test]
    fn entities_and_doctypes_are_refused() {
        let (_, diagnostics, _) = parse_text(
            "<!DOCTYPE r [<!ENTITY e \"x\">]><record xmlns=\"urn:ludotheca:record:1\" kind=\"game\">&e;</record>",
        );
        let codes: Vec<&str> = diagnostics.iter().map(|d| d.code).collect();
        assert_eq!(codes, ["E002", "E003"]);
    }

    #[test]
    fn attribute_references() {
        assert_eq!(unescape_attribute("a &amp; b&#233;").unwrap(), "a & bé");
        let err = unescape_attribute("x &nbsp;").unwrap_err();
        assert_eq!((err.0, err.1, err.2.as_str()), (2, 6, "nbsp"));
        assert!(unescape_attribute("a & b").is_err());
    }

    #[test]
    fn trims_spans() {
        assert_eq!(trim_span("  ab  ", 0..6), 2..4);
        assert_eq!(trim_span("   ", 0..3), 0..0);
    }
}
