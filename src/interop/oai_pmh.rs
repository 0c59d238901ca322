//! OAI-PMH: saved `ListRecords` responses (one file per resumption page) and static repositories, in `oai_dc`
//! or qualified Dublin Core, read with quick-xml. Deleted records are reported and skipped; an error response
//! is an error at its place; `xml:lang` and `xsi:type` are kept. The export is the site's own static
//! repository (`crate::site::data::oai_pmh`).

use quick_xml::NsReader;
use quick_xml::events::{BytesStart, Event};
use quick_xml::name::ResolveResult;

use super::draft::{Draft, DraftValue, clean_text};
use super::{E_ERROR_RESPONSE, E_SYNTAX, E_TERM, Input};
use crate::catalog::record::resolve_reference;
use crate::catalog::terms::{self, DC_NS, DCTERMS_NS, Namespace, XML_NS, XSI_NS};
use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::source::{FileId, SourceMap};
use crate::suggest;

const OAI_NS: &str = "http://www.openarchives.org/OAI/2.0/";

/// Where the reader is.
enum State {
    Outside,
    /// Inside `<record>`: the draft, whether its header says it was deleted, its identifier.
    Record(Box<Draft>, bool),
}

/// Read one OAI-PMH file into `input`.
pub fn read(files: &SourceMap, file: FileId, input: &mut Input, diagnostics: &mut Diagnostics) {
    let text = files.get(file).text();
    let mut reader = NsReader::from_str(&text);
    let mut state = State::Outside;
    // The element path under the current record: names as (namespace, local name).
    let mut path: Vec<(Option<String>, String)> = Vec::new();
    let mut value: Option<(DraftValue, String)> = None;
    let mut unplaced: Option<(String, String, usize)> = None;
    let mut token: Option<String> = None;
    // A static repository (ludotheca's own `oai-pmh.xml` among them) names records `oai:<domain>:<id>`, whose
    // local part is kept as the item's id; a harvested response's identifiers are the provider's own numbering.
    let mut static_repository = false;
    loop {
        let start = reader.buffer_position() as usize;
        let event = match reader.read_event() {
            Ok(e) => e,
            Err(err) => {
                let at = reader.error_position() as usize;
                diagnostics.push(
                    Diagnostic::error(E_SYNTAX, format!("not well-formed XML: {err}")).at(
                        files,
                        file,
                        at..at + 1,
                    ),
                );
                return;
            }
        };
        let end = reader.buffer_position() as usize;
        match event {
            Event::Start(ref e) | Event::Empty(ref e) => {
                let empty = matches!(event, Event::Empty(_));
                let (ns, local) = name_of(&reader, e);
                let in_oai = ns.as_deref() == Some(OAI_NS);
                if local == "Repository"
                    && ns.as_deref()
                        == Some("http://www.openarchives.org/OAI/2.0/static-repository")
                {
                    static_repository = true;
                }
                match (&mut state, in_oai, local.as_str()) {
                    (State::Outside, true, "error") => {
                        let code = attribute(&reader, e, None, "code").unwrap_or_default();
                        let message = element_text(&mut reader, empty);
                        diagnostics.push(
                            Diagnostic::error(
                                E_ERROR_RESPONSE,
                                format!(
                                    "the file is an OAI-PMH error response (`{code}`): {}",
                                    message.trim()
                                ),
                            )
                            .at(files, file, start..end)
                            .with_help(
                                "save the responses of a ListRecords harvest that returned records",
                            ),
                        );
                        continue;
                    }
                    (State::Outside, true, "record") => {
                        state = State::Record(Box::new(Draft::new(file, start..end)), false);
                        path.clear();
                    }
                    (State::Outside, true, "resumptionToken") => {
                        token = Some(element_text(&mut reader, empty));
                        continue;
                    }
                    (State::Outside, true, "repositoryName") => {
                        let name = element_text(&mut reader, empty);
                        input.title.get_or_insert(clean_text(&name));
                        continue;
                    }
                    (State::Record(_, deleted), true, "header")
                        if attribute(&reader, e, None, "status").as_deref() == Some("deleted") =>
                    {
                        *deleted = true;
                    }
                    (State::Record(..), true, "datestamp")
                        if path.last().is_some_and(|(_, l)| l == "header") =>
                    {
                        input.count_not_carried(
                            "datestamp (when the repository last changed the record)",
                        );
                        element_text(&mut reader, empty);
                        continue;
                    }
                    (State::Record(draft, _), true, "identifier" | "setSpec")
                        if path.last().is_some_and(|(_, l)| l == "header") =>
                    {
                        let name = local.clone();
                        let content = clean_text(&element_text(&mut reader, empty));
                        if name == "identifier" {
                            draft.wanted_id = content
                                .strip_prefix("oai:ludotheca:")
                                .or_else(|| {
                                    static_repository
                                        .then(|| content.strip_prefix("oai:")?.split_once(':'))
                                        .flatten()
                                        .map(|(_, local)| local)
                                })
                                .map(str::to_string);
                            if draft.wanted_id.is_none() {
                                draft.origin = Some((content.clone(), start..end));
                            }
                            draft.source_id = Some(content);
                        } else {
                            let set = content;
                            draft.push(super::draft::term("isPartOf"), &set, start..end);
                            draft
                                .notes
                                .push(format!("set `{set}` kept as dcterms:isPartOf"));
                        }
                        continue;
                    }
                    // A child of the metadata's container: a term.
                    (State::Record(..), _, _) if path.len() == 2 && path[0].1 == "metadata" => {
                        let dc = match ns.as_deref() {
                            Some(DC_NS) => Some(Namespace::Dc),
                            Some(DCTERMS_NS) => Some(Namespace::Dcterms),
                            _ => None,
                        };
                        match dc {
                            Some(n) => match terms::lookup(n, &local) {
                                Some(term) => {
                                    let mut v = DraftValue::new(term, String::new(), start..end);
                                    v.lang = attribute(&reader, e, Some(XML_NS), "lang");
                                    v.scheme =
                                        attribute(&reader, e, Some(XSI_NS), "type").map(|t| {
                                            format!(
                                                "dcterms:{}",
                                                t.rsplit(':').next().unwrap_or(&t)
                                            )
                                        });
                                    if empty {
                                        continue;
                                    }
                                    value = Some((v, String::new()));
                                }
                                None => {
                                    let prefix = n.prefix();
                                    let mut d = Diagnostic::error(
                                        E_TERM,
                                        format!("`{prefix}:{local}` is not a Dublin Core term"),
                                    )
                                    .at(
                                        files,
                                        file,
                                        start + 1..start + 1 + prefix.len() + 1 + local.len(),
                                    );
                                    if let Some(best) = suggest::closest(&local, terms::names(n)) {
                                        d = d.with_help(format!("did you mean `{prefix}:{best}`?"));
                                    }
                                    diagnostics.push(d);
                                }
                            },
                            None if !empty => {
                                let raw = String::from_utf8_lossy(e.name().as_ref()).into_owned();
                                unplaced = Some((raw, String::new(), start));
                            }
                            None => {}
                        }
                        if empty {
                            continue;
                        }
                    }
                    _ => {}
                }
                if !empty && matches!(state, State::Record(..)) && !(in_oai && local == "record") {
                    path.push((ns, local));
                }
            }
            Event::End(ref e) => {
                let (ns, local) = {
                    let (r, l) = reader.resolver().resolve_element(e.name());
                    (bound(r), String::from_utf8_lossy(l.as_ref()).into_owned())
                };
                if ns.as_deref() == Some(OAI_NS) && local == "record" {
                    if let State::Record(draft, deleted) =
                        std::mem::replace(&mut state, State::Outside)
                    {
                        let id = draft.source_id.clone().unwrap_or_default();
                        if deleted {
                            input.notes.push(format!(
                                "record `{id}` is marked deleted in {}: skipped",
                                files.path(file).display()
                            ));
                        } else {
                            input.drafts.push(*draft);
                        }
                    }
                    path.clear();
                    continue;
                }
                if let State::Record(draft, _) = &mut state {
                    if path.len() == 3 {
                        if let Some((mut v, content)) = value.take() {
                            v.text = clean_text(&content);
                            if !v.text.is_empty() {
                                draft.values.push(v);
                            }
                        }
                        if let Some((name, content, at)) = unplaced.take() {
                            draft.keep_unplaced(&name, &content, at..at + 1);
                        }
                    }
                    path.pop();
                }
            }
            Event::Text(t) => {
                let content = String::from_utf8_lossy(t.as_ref()).into_owned();
                push_text(&mut value, &mut unplaced, &content);
            }
            Event::CData(c) => {
                let content = String::from_utf8_lossy(c.as_ref()).into_owned();
                push_text(&mut value, &mut unplaced, &content);
            }
            Event::GeneralRef(r) => {
                let name = String::from_utf8_lossy(r.as_ref()).into_owned();
                match resolve_reference(&name) {
                    Ok(c) => push_text(&mut value, &mut unplaced, &c.to_string()),
                    Err(message) => {
                        diagnostics.push(Diagnostic::error(E_SYNTAX, message).at(
                            files,
                            file,
                            start..end,
                        ));
                        return;
                    }
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if let Some(token) = token.filter(|t| !t.trim().is_empty()) {
        input.last_resumption_token = Some((file, token.trim().to_string()));
    } else {
        input.last_resumption_token = None;
    }
}

fn push_text(
    value: &mut Option<(DraftValue, String)>,
    unplaced: &mut Option<(String, String, usize)>,
    content: &str,
) {
    if let Some((_, text)) = value {
        text.push_str(content);
    } else if let Some((_, text, _)) = unplaced {
        text.push_str(content);
    }
}

fn bound(r: ResolveResult) -> Option<String> {
    match r {
        ResolveResult::Bound(ns) => Some(String::from_utf8_lossy(ns.as_ref()).into_owned()),
        _ => None,
    }
}

fn name_of(reader: &NsReader<&[u8]>, e: &BytesStart) -> (Option<String>, String) {
    let (r, local) = reader.resolver().resolve_element(e.name());
    (
        bound(r),
        String::from_utf8_lossy(local.as_ref()).into_owned(),
    )
}

/// An attribute's value, by namespace and local name.
fn attribute(
    reader: &NsReader<&[u8]>,
    e: &BytesStart,
    ns: Option<&str>,
    name: &str,
) -> Option<String> {
    for attr in e.attributes().flatten() {
        let (r, local) = reader.resolver().resolve_attribute(attr.key);
        if local.as_ref() == name.as_bytes() && bound(r).as_deref() == ns {
            let raw = String::from_utf8_lossy(attr.value.as_ref()).into_owned();
            return Some(unescape(&raw));
        }
    }
    None
}

/// Resolve the five XML entities and character references in an attribute value.
fn unescape(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let after = &rest[amp + 1..];
        match after
            .find(';')
            .map(|semi| (semi, resolve_reference(&after[..semi])))
        {
            Some((semi, Ok(c))) => {
                out.push(c);
                rest = &after[semi + 1..];
            }
            _ => {
                out.push('&');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The text content of the element just opened, read to its end.
fn element_text(reader: &mut NsReader<&[u8]>, empty: bool) -> String {
    let mut out = String::new();
    if empty {
        return out;
    }
    let mut depth = 1;
    while depth > 0 {
        match reader.read_event() {
            Ok(Event::Start(_)) => depth += 1,
            Ok(Event::End(_)) => depth -= 1,
            Ok(Event::Text(t)) => out.push_str(&String::from_utf8_lossy(t.as_ref())),
            Ok(Event::CData(c)) => out.push_str(&String::from_utf8_lossy(c.as_ref())),
            Ok(Event::GeneralRef(r)) => {
                if let Ok(c) = resolve_reference(&String::from_utf8_lossy(r.as_ref())) {
                    out.push(c);
                }
            }
            Ok(Event::Eof) | Err(_) => break,
            _ => {}
        }
    }
    out
}
