//! Each record as a build parsed it, kept beside the site so that the next build, in a new process, takes the
//! records no one touched without reading or parsing them (at 10,000 items, parsing every record was the
//! largest part of a rebuild's load).
//!
//! A record is kept only when it parsed without a word from the reader and its stamp had settled (see
//! [`super::stamps`]): the next build takes it when its stamp is the same, which vouches that its bytes are
//! the ones parsed. The file is sealed with the program that wrote it: another version's, or a damaged one, is
//! not read, and then the stamps vouch for no file either (the checks kept beside the site are that version's
//! too, so every file will be read: better by the load, which holds a large catalog's texts packed). It is kept
//! as it was when every record was taken from it and none is gone, and otherwise made again on every core: the
//! entries of the records taken from the old file are copied from it as they lay, and the others encoded from
//! the items in memory. The old forms are held until then only when they are small ([`KEEP_FORMS`]); at
//! 100,000 items they are hundreds of megabytes, let go after the load, and every entry is encoded again.

use std::hash::BuildHasher;
use std::ops::Range;
use std::path::Path;

use super::stamps::{ContentHash, STAMP, Stamp};
use super::terms::{Namespace, TERMS};
use super::{
    Attribute, GameLink, ImageFile, ImageRef, Item, Kind, Span, Spanned, Stray, Unknown, Value,
};

/// The first line of the file: its format.
pub const FORMAT: &[u8] = b"ludotheca parsed records 2\n";

/// One record as kept: its stamp and the hash of its bytes when it was parsed, and where its parsed form lies
/// in the file's body.
#[derive(Clone, Debug)]
pub struct Kept {
    pub stamp: Stamp,
    pub hash: ContentHash,
    form: Range<usize>,
    /// Where its whole entry (path, stamp, hash and form) starts in the file.
    entry: usize,
}

/// The records a build kept, by path within the catalog folder (held by a 64-bit hash of the path, as the
/// stamps are), with the file their parsed forms lie in.
#[derive(Debug, Default)]
pub struct ParsedRecords {
    /// The file as read; the forms are within it. Let go once the load has taken what it needs.
    file: Vec<u8>,
    records: foldhash::HashMap<u64, Kept>,
    keys: foldhash::quality::RandomState,
}

impl ParsedRecords {
    fn key(&self, path: &Path) -> u64 {
        self.keys.hash_one(path.as_os_str().as_encoded_bytes())
    }

    /// The records kept in `file`, as a build writes it ([`write`]): `None` when it is not that (another
    /// program's file, or a damaged one).
    pub fn from_file(file: Vec<u8>) -> Option<ParsedRecords> {
        let body = crate::fingerprint::unseal(FORMAT, &file)?;
        // Where the body starts in the file: after the format and the program.
        let start = body.as_ptr() as usize - file.as_ptr() as usize;
        let end = start + body.len();
        let mut parsed = ParsedRecords::default();
        let mut at = start;
        while at < end {
            let (path, kept, next) = entry(&file[..end], at)?;
            let key = parsed.key(Path::new(path));
            parsed.records.insert(key, kept);
            at = next;
        }
        parsed.file = file;
        Some(parsed)
    }

    /// The record kept for `path` (within the catalog folder).
    pub fn get(&self, path: &Path) -> Option<&Kept> {
        self.records.get(&self.key(path))
    }

    /// The record `kept` describes as parsed, read into `item` (which has its identifier, folder and file):
    /// false when the form is no longer held, does not decode, or points past the record's bytes, and `item`,
    /// then filled in part, is to be dropped.
    pub fn fill(&self, kept: &Kept, item: &mut Item) -> bool {
        let Some(bytes) = self.file.get(kept.form.clone()) else {
            return false;
        };
        let mut from = Decoder {
            bytes,
            len: kept.stamp.size(),
        };
        decode(&mut from, item).is_some() && from.bytes.is_empty()
    }

    /// Lets go of the parsed forms, keeping each record's stamp and hash: at 100,000 items the forms are
    /// hundreds of megabytes, and once the load has the items they are held there.
    pub fn forget_forms(&mut self) {
        self.file = Vec::new();
    }

    /// Lets go of the parsed forms when they are more than [`KEEP_FORMS`] bytes: fewer are kept until the
    /// file is written again, which then copies the entries of the records taken from it
    /// ([`ParsedRecords::entry`]) rather than encoding each anew.
    pub fn forget_large_forms(&mut self) {
        if self.file.len() > KEEP_FORMS {
            self.forget_forms();
        }
    }

    /// Where the file holds the whole entry of the record at `path` (within the catalog folder), when it is
    /// held and was kept with this stamp and hash: the bytes [`push_entry`] writes for the item it fills, so
    /// that they can be copied into the next file as they are ([`ParsedRecords::held`]).
    pub fn entry(&self, path: &Path, stamp: &Stamp, hash: &ContentHash) -> Option<Range<usize>> {
        let kept = self.get(path)?;
        if kept.stamp != *stamp || kept.hash != *hash {
            return None;
        }
        let bytes = self.file.get(kept.entry..kept.form.end)?;
        // Found by a 64-bit hash of the path: the path it holds, length and all, is the one asked for.
        let path = path.to_str()?;
        let len = u16::try_from(path.len()).ok()?.to_le_bytes();
        (bytes.get(..2)? == len && bytes.get(2..2 + path.len())? == path.as_bytes())
            .then_some(kept.entry..kept.form.end)
    }

    /// The file the forms lie in, while it is held.
    pub fn held(&self) -> &[u8] {
        &self.file
    }

    pub fn len(&self) -> usize {
        self.records.len()
    }

    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }
}

/// The stamp and hash of an entry, after its path.
const ENTRY_HEAD: usize = STAMP + 16;

/// Up to this many bytes of parsed forms are kept after the load, for the file written after it to copy rather
/// than encode every record again: at 10,000 items they are about 27 MB.
pub const KEEP_FORMS: usize = 64 << 20;

/// A stretch of entries of the file: encoded now ([`push_entry`]), or copied as they lay in `from`, the file
/// of the records taken from it ([`ParsedRecords::entry`]).
pub enum Piece {
    Made(Vec<u8>),
    Copied(Range<usize>),
}

/// Writes the file of the records, sealed with the program: `blocks` hands over the entries a block at a time,
/// so that the file is never held whole; a copied piece is written straight from `from`.
pub fn write(
    out: &mut dyn std::io::Write,
    from: &[u8],
    mut blocks: impl FnMut() -> Option<Vec<Piece>>,
) -> std::io::Result<()> {
    crate::fingerprint::seal_into(out, FORMAT, |out| {
        while let Some(block) = blocks() {
            for piece in block {
                match piece {
                    Piece::Made(bytes) => out.write_all(&bytes)?,
                    Piece::Copied(range) => out.write_all(&from[range])?,
                }
            }
        }
        Ok(())
    })
}

/// Adds to `out` the entry of the record at `path` (within the catalog folder), of stamp `stamp` and bytes
/// hashing to `hash`, parsed into `item`: nothing when the item holds what no entry can (a path that is not
/// UTF-8, a term not in the vocabulary, a position past 4 GiB).
pub fn push_entry(out: &mut Vec<u8>, path: &Path, stamp: &Stamp, hash: &ContentHash, item: &Item) {
    let Some(path) = path.to_str().filter(|p| p.len() <= usize::from(u16::MAX)) else {
        return;
    };
    let start = out.len();
    out.extend_from_slice(&(path.len() as u16).to_le_bytes());
    out.extend_from_slice(path.as_bytes());
    out.extend_from_slice(&stamp.to_bytes());
    out.extend_from_slice(hash);
    let length_at = out.len();
    out.extend_from_slice(&[0; 4]);
    // Encoded in place, its length filled in after: encoding each form into a buffer of its own, grown as it
    // went, and copying it over was most of the time spent writing the file (10,000 records at every build).
    let mut form = Encoder(std::mem::take(out));
    let encoded = encode(&mut form, item).is_some();
    *out = form.0;
    let form_len = u32::try_from(out.len() - length_at - 4)
        .ok()
        .filter(|_| encoded);
    match form_len {
        Some(len) => out[length_at..length_at + 4].copy_from_slice(&len.to_le_bytes()),
        None => out.truncate(start),
    }
}

/// The entry of `body` at `at`: its path, what is kept of it, and where the next entry starts.
fn entry(body: &[u8], at: usize) -> Option<(&str, Kept, usize)> {
    let rest = body.get(at..)?;
    let (len, rest) = rest.split_first_chunk::<2>()?;
    let len = usize::from(u16::from_le_bytes(*len));
    let (path, rest) = rest.split_at_checked(len)?;
    let path = std::str::from_utf8(path).ok()?;
    let (head, rest) = rest.split_first_chunk::<ENTRY_HEAD>()?;
    let stamp = Stamp::from_bytes(head[..STAMP].try_into().ok()?);
    let hash: ContentHash = head[STAMP..].try_into().ok()?;
    let (form_len, _) = rest.split_first_chunk::<4>()?;
    let form_len = u32::from_le_bytes(*form_len) as usize;
    let start = at + 2 + len + ENTRY_HEAD + 4;
    let end = start
        .checked_add(form_len)
        .filter(|&end| end <= body.len())?;
    Some((
        path,
        Kept {
            stamp,
            hash,
            form: start..end,
            entry: at,
        },
        end,
    ))
}

struct Encoder(Vec<u8>);

impl Encoder {
    fn u8(&mut self, n: u8) {
        self.0.push(n);
    }

    fn u32(&mut self, n: usize) -> Option<()> {
        self.0
            .extend_from_slice(&u32::try_from(n).ok()?.to_le_bytes());
        Some(())
    }

    fn str(&mut self, s: &str) -> Option<()> {
        self.u32(s.len())?;
        self.0.extend_from_slice(s.as_bytes());
        Some(())
    }

    fn span(&mut self, span: &Span) -> Option<()> {
        self.u32(span.start)?;
        self.u32(span.end)
    }

    fn spanned(&mut self, s: &Spanned<String>) -> Option<()> {
        self.str(&s.value)?;
        self.span(&s.span)
    }

    fn opt_spanned(&mut self, s: &Option<Spanned<String>>) -> Option<()> {
        match s {
            Some(s) => {
                self.u8(1);
                self.spanned(s)
            }
            None => {
                self.u8(0);
                Some(())
            }
        }
    }

    fn list<T>(&mut self, list: &[T], one: impl Fn(&mut Self, &T) -> Option<()>) -> Option<()> {
        self.u32(list.len())?;
        list.iter().try_for_each(|x| one(self, x))
    }
}

/// Bytes being decoded; `len` is the size of the record the positions point into.
struct Decoder<'a> {
    bytes: &'a [u8],
    len: usize,
}

impl Decoder<'_> {
    fn u8(&mut self) -> Option<u8> {
        let (&n, rest) = self.bytes.split_first()?;
        self.bytes = rest;
        Some(n)
    }

    fn bool(&mut self) -> Option<bool> {
        match self.u8()? {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        }
    }

    fn u32(&mut self) -> Option<usize> {
        let (n, rest) = self.bytes.split_first_chunk::<4>()?;
        self.bytes = rest;
        Some(u32::from_le_bytes(*n) as usize)
    }

    fn str(&mut self) -> Option<&str> {
        let len = self.u32()?;
        let (s, rest) = self.bytes.split_at_checked(len)?;
        self.bytes = rest;
        std::str::from_utf8(s).ok()
    }

    /// A position within the record: never past its end.
    fn offset(&mut self) -> Option<usize> {
        self.u32().filter(|&n| n <= self.len)
    }

    fn span(&mut self) -> Option<Span> {
        let (start, end) = (self.offset()?, self.offset()?);
        (start <= end).then_some(start..end)
    }

    fn spanned(&mut self) -> Option<Spanned<String>> {
        let value = self.str()?.to_string();
        Some(Spanned::new(value, self.span()?))
    }

    fn opt_spanned(&mut self) -> Option<Option<Spanned<String>>> {
        match self.bool()? {
            true => Some(Some(self.spanned()?)),
            false => Some(None),
        }
    }

    /// A count of things of at least `each` bytes: never more than the bytes left could hold.
    fn count(&mut self, each: usize) -> Option<usize> {
        self.u32()
            .filter(|&n| n.saturating_mul(each) <= self.bytes.len())
    }

    fn list<T>(&mut self, each: usize, one: impl Fn(&mut Self) -> Option<T>) -> Option<Vec<T>> {
        let n = self.count(each)?;
        let mut list = Vec::with_capacity(n);
        for _ in 0..n {
            list.push(one(self)?);
        }
        Some(list)
    }
}

fn kind_code(kind: Option<Kind>) -> u8 {
    match kind {
        None => 0,
        Some(Kind::Game) => 1,
        Some(Kind::Board) => 2,
        Some(Kind::Evidence) => 3,
    }
}

fn attribute_code(attribute: Attribute) -> u8 {
    match attribute {
        Attribute::Lang => 0,
        Attribute::Scheme => 1,
        Attribute::Ref => 2,
        Attribute::Cite => 3,
        Attribute::Pages => 4,
    }
}

const ATTRIBUTES: [Attribute; 5] = [
    Attribute::Lang,
    Attribute::Scheme,
    Attribute::Ref,
    Attribute::Cite,
    Attribute::Pages,
];

fn encode_link(out: &mut Encoder, link: &GameLink) -> Option<()> {
    out.opt_spanned(&link.game)?;
    out.opt_spanned(&link.ruleset)?;
    out.span(&link.span)
}

fn decode_link(from: &mut Decoder) -> Option<GameLink> {
    Some(GameLink {
        game: from.opt_spanned()?,
        ruleset: from.opt_spanned()?,
        span: from.span()?,
    })
}

fn encode_unknown(out: &mut Encoder, unknown: &Unknown) -> Option<()> {
    match &unknown.ns {
        Some(ns) => {
            out.u8(1);
            out.str(ns)?;
        }
        None => out.u8(0),
    }
    out.str(&unknown.name)?;
    out.u8(u8::from(unknown.undeclared_prefix));
    out.span(&unknown.span)
}

fn decode_unknown(from: &mut Decoder) -> Option<Unknown> {
    let ns = match from.bool()? {
        true => Some(from.str()?.to_string()),
        false => None,
    };
    Some(Unknown {
        ns,
        name: from.str()?.to_string(),
        undeclared_prefix: from.bool()?,
        span: from.span()?,
    })
}

/// `item`'s parsed form into `out`; `None` when it holds what the form cannot.
fn encode(out: &mut Encoder, item: &Item) -> Option<()> {
    out.u8(kind_code(item.kind));
    out.opt_spanned(&item.kind_attr)?;
    out.span(&item.root_span)?;
    out.u8(u8::from(item.root_ok));
    out.u8(u8::from(item.well_formed));
    out.u32(item.values.len())?;
    for value in &item.values {
        let term = TERMS.iter().position(|t| std::ptr::eq(t, value.term))?;
        out.u8(u8::try_from(term).ok()?);
        out.u8(match value.ns {
            Namespace::Dc => 0,
            Namespace::Dcterms => 1,
        });
        out.str(&value.text)?;
        let attributes = value.attributes.as_deref().map_or(&[][..], |a| &a[..]);
        out.u8(u8::try_from(attributes.len()).ok()?);
        for (name, text) in attributes {
            out.u8(attribute_code(*name));
            out.spanned(text)?;
        }
        out.u32(value.text_start as usize)?;
        out.u32(value.text_end as usize)?;
        out.u32(value.name_start as usize)?;
        out.0.extend_from_slice(&value.name_len.to_le_bytes());
    }
    for links in [&item.played_with, &item.attests] {
        out.list(links, encode_link)?;
    }
    out.list(&item.confidence, Encoder::spanned)?;
    out.list(&item.images, |out, image| {
        out.opt_spanned(&image.file)?;
        out.opt_spanned(&image.alt)?;
        out.str(&image.caption)?;
        out.span(&image.caption_span)?;
        out.span(&image.span)
    })?;
    for unknowns in [&item.unknown_elements, &item.unknown_attributes] {
        out.list(unknowns, encode_unknown)?;
    }
    out.list(&item.stray_content, |out, stray| {
        let (code, span) = match stray {
            Stray::Text(span) => (0, span),
            Stray::Element(span) => (1, span),
        };
        out.u8(code);
        out.span(span)
    })?;
    let listed = item.record_listed.unwrap_or_else(|| item.record_listed());
    out.0.extend_from_slice(&listed);
    Some(())
}

/// The parsed form in `from`, into the record's parts of `item` (all but its identifier, folder and files,
/// which the load sets).
fn decode(from: &mut Decoder, item: &mut Item) -> Option<()> {
    item.kind = match from.u8()? {
        0 => None,
        1 => Some(Kind::Game),
        2 => Some(Kind::Board),
        3 => Some(Kind::Evidence),
        _ => return None,
    };
    item.kind_attr = from.opt_spanned()?;
    item.root_span = from.span()?;
    item.root_ok = from.bool()?;
    item.well_formed = from.bool()?;
    item.values = from.list(2 + 4 + 1 + 12 + 2, |from| {
        let term = TERMS.get(usize::from(from.u8()?))?;
        let ns = match from.u8()? {
            0 => Namespace::Dc,
            1 => Namespace::Dcterms,
            _ => return None,
        };
        let text: Box<str> = from.str()?.into();
        let n = usize::from(from.u8()?);
        let mut attributes = Vec::with_capacity(n);
        for _ in 0..n {
            let name = *ATTRIBUTES.get(usize::from(from.u8()?))?;
            attributes.push((name, from.spanned()?));
        }
        let text_start = u32::try_from(from.offset()?).ok()?;
        let text_end = u32::try_from(from.offset()?).ok()?;
        let name_start = u32::try_from(from.offset()?).ok()?;
        let (name_len, rest) = from.bytes.split_first_chunk::<2>()?;
        let name_len = u16::from_le_bytes(*name_len);
        from.bytes = rest;
        if text_start > text_end || name_start as usize + usize::from(name_len) > from.len {
            return None;
        }
        Some(Value {
            term,
            text,
            attributes: (!attributes.is_empty()).then(|| Box::new(attributes.into_boxed_slice())),
            text_start,
            text_end,
            name_start,
            name_len,
            ns,
        })
    })?;
    item.played_with = from.list(10, decode_link)?;
    item.attests = from.list(10, decode_link)?;
    item.confidence = from.list(12, Decoder::spanned)?;
    item.images = from.list(22, |from| {
        Some(ImageRef {
            file: from.opt_spanned()?,
            alt: from.opt_spanned()?,
            caption: from.str()?.to_string(),
            caption_span: from.span()?,
            span: from.span()?,
            found: ImageFile::Unread,
        })
    })?;
    item.unknown_elements = from.list(14, decode_unknown)?;
    item.unknown_attributes = from.list(14, decode_unknown)?;
    item.stray_content = from.list(9, |from| {
        let code = from.u8()?;
        let span = from.span()?;
        match code {
            0 => Some(Stray::Text(span)),
            1 => Some(Stray::Element(span)),
            _ => None,
        }
    })?;
    let (listed, rest) = from.bytes.split_first_chunk::<16>()?;
    item.record_listed = Some(*listed);
    from.bytes = rest;
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Diagnostics;
    use crate::source::SourceMap;

    /// Every shipped record, and one that holds each thing a record can: both namespaces, every attribute,
    /// links to games, a confidence, pictures, unknown elements and attributes, stray text, line breaks as
    /// CR LF and references.
    fn records() -> Vec<(String, String)> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("catalog");
        let mut records = Vec::new();
        for entry in walkdir::WalkDir::new(&root).sort_by_file_name() {
            let entry = entry.unwrap();
            if entry.file_name() == "record.xml" {
                let id = entry.path().parent().unwrap().file_name().unwrap();
                records.push((
                    id.to_string_lossy().into_owned(),
                    std::fs::read_to_string(entry.path()).unwrap(),
                ));
            }
        }
        assert!(records.len() > 5);
        let odd = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\r\n\
            <record xmlns=\"urn:ludotheca:record:1\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\" \
            xmlns:dcterms=\"http://purl.org/dc/terms/\" xmlns:x=\"urn:other\" \
            xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" kind=\"evidence\" x:odd=\"1\">\r\n\
            <dc:title xml:lang=\"hi\">Caupa&#x1F3B2; &amp; more</dc:title>\r\n\
            <dcterms:date xsi:type=\"dcterms:W3CDTF\">1921</dcterms:date>\r\n\
            <dcterms:source cite=\"hutton-1921-sema\" pages=\"12-14\"/>\r\n\
            <dcterms:relation ref=\"bagh-chal\">Bagh\r\nChal</dcterms:relation>\r\n\
            <attests game=\"bagh-chal\" ruleset=\"common\"/>\r\n\
            <confidence> 80 </confidence>\r\n\
            <image file=\"images/a.png\" alt=\"A board\">Seen <![CDATA[from above]]></image>\r\n\
            <x:note>unknown</x:note><undeclared:thing/>\r\n\
            stray text\r\n\
            <dcterms:subject>Twice</dcterms:subject><dcterms:subject>Twice</dcterms:subject>\r\n\
            </record>\r\n";
        records.push(("odd".to_string(), odd.to_string()));
        records
    }

    /// A stamp of a file of `len` bytes.
    fn stamp(len: usize) -> Stamp {
        let mut bytes = [7; STAMP];
        bytes[..4].copy_from_slice(&(len as u32).to_le_bytes());
        Stamp::from_bytes(&bytes)
    }

    /// The first shipped record: its identifier and text, and the item it parses into.
    fn first_item() -> (String, String, Item) {
        let (id, text) = records().remove(0);
        let mut files = SourceMap::default();
        let item =
            crate::catalog::read_record(&id, text.clone(), &mut files, &mut Diagnostics::new());
        (id, text, item)
    }

    /// The whole file of entries `body`, as a build writes it.
    fn sealed(body: Vec<u8>) -> Vec<u8> {
        let mut file = Vec::new();
        write(&mut file, &[], {
            let mut once = Some(vec![Piece::Made(body)]);
            move || once.take()
        })
        .unwrap();
        file
    }

    #[test]
    fn a_record_reads_back_as_it_was_parsed_and_a_damaged_form_never_does() {
        for (id, text) in records() {
            let mut files = SourceMap::default();
            let mut diagnostics = Diagnostics::new();
            let item = crate::catalog::read_record(&id, text.clone(), &mut files, &mut diagnostics);
            if id == "odd" {
                assert!(
                    item.values.len() >= 6
                        && !item.attests.is_empty()
                        && !item.confidence.is_empty()
                        && !item.images.is_empty()
                        && !item.unknown_elements.is_empty()
                        && !item.unknown_attributes.is_empty()
                        && !item.stray_content.is_empty(),
                    "{item:?}"
                );
            }
            let path = Path::new("games/x/record.xml");
            let mut body = Vec::new();
            push_entry(&mut body, path, &stamp(text.len()), &[1; 16], &item);
            assert!(!body.is_empty(), "{id} is kept");
            let file = sealed(body);
            let parsed = ParsedRecords::from_file(file.clone()).expect("the file reads back");
            let kept = parsed.get(path).expect("the record is kept").clone();
            assert_eq!((kept.stamp, kept.hash), (stamp(text.len()), [1; 16]));
            let mut back = Item::new(id.clone(), item.folder.clone(), item.file);
            assert!(parsed.fill(&kept, &mut back), "{id}");
            back.files_hash = item.files_hash;
            back.game_files_hash = item.game_files_hash;
            back.files_without_placeholder = item.files_without_placeholder;
            assert_eq!(format!("{back:?}"), format!("{item:?}"), "{id}");
            // The entry held is what the next file would write for the record as it read back: copied, it
            // is the same as encoded again. Not for another stamp, hash or path.
            let mut again = Vec::new();
            push_entry(&mut again, path, &stamp(text.len()), &[1; 16], &back);
            assert_eq!(
                parsed
                    .entry(path, &stamp(text.len()), &[1; 16])
                    .map(|at| &parsed.held()[at]),
                Some(&again[..]),
                "{id}"
            );
            assert_eq!(parsed.entry(path, &stamp(text.len() + 1), &[1; 16]), None);
            assert_eq!(parsed.entry(path, &stamp(text.len()), &[2; 16]), None);
            assert_eq!(
                parsed.entry(
                    Path::new("games/y/record.xml"),
                    &stamp(text.len()),
                    &[1; 16]
                ),
                None
            );

            // Cut short anywhere, the form is refused, and so is one whose positions run past the record.
            for end in kept.form.start..kept.form.end {
                let short = Kept {
                    form: kept.form.start..end,
                    ..kept.clone()
                };
                assert!(!parsed.fill(
                    &short,
                    &mut Item::new(id.clone(), item.folder.clone(), item.file)
                ));
            }
            let smaller = Kept {
                stamp: stamp(item.root_span.end.saturating_sub(1)),
                ..kept.clone()
            };
            assert!(
                !parsed.fill(&smaller, &mut back),
                "{id}: a position past the record"
            );

            // A file changed anywhere is not read at all.
            for at in [0, file.len() / 2, file.len() - 1] {
                let mut damaged = file.clone();
                damaged[at] ^= 1;
                assert!(ParsedRecords::from_file(damaged).is_none());
            }
        }
    }

    #[test]
    fn an_item_no_entry_can_hold_leaves_nothing_between_the_entries_around_it() {
        let (id, text, item) = first_item();
        // A confidence is encoded after the values, so the entry fails with much of its form written.
        let mut unheld = item.clone();
        let far = 1 << 33;
        unheld.confidence.push(crate::catalog::Spanned::new(
            "80".to_string(),
            Span {
                start: far,
                end: far + 2,
            },
        ));
        let (a, b, c) = (Path::new("a.xml"), Path::new("b.xml"), Path::new("c.xml"));
        let mut body = Vec::new();
        push_entry(&mut body, a, &stamp(text.len()), &[1; 16], &item);
        let first = body.clone();
        push_entry(&mut body, b, &stamp(text.len()), &[2; 16], &unheld);
        assert_eq!(
            body, first,
            "nothing of the entry that cannot be held stays"
        );
        push_entry(&mut body, c, &stamp(text.len()), &[3; 16], &item);
        let parsed = ParsedRecords::from_file(sealed(body)).expect("the file reads back");
        assert_eq!(parsed.len(), 2);
        assert!(parsed.get(b).is_none());
        for (path, hash) in [(a, [1; 16]), (c, [3; 16])] {
            let kept = parsed.get(path).expect("kept").clone();
            assert_eq!(kept.hash, hash);
            let mut back = Item::new(id.clone(), item.folder.clone(), item.file);
            assert!(parsed.fill(&kept, &mut back));
            assert_eq!(format!("{:?}", back.values), format!("{:?}", item.values));
        }
    }

    #[test]
    fn forms_let_go_are_never_filled_from() {
        let (_, text, item) = first_item();
        let mut body = Vec::new();
        push_entry(
            &mut body,
            Path::new("r.xml"),
            &stamp(text.len()),
            &[2; 16],
            &item,
        );
        let mut parsed = ParsedRecords::from_file(sealed(body)).unwrap();
        let kept = parsed.get(Path::new("r.xml")).unwrap().clone();
        // Small forms are kept for the file written after the load; forgotten, none is filled or copied.
        parsed.forget_large_forms();
        assert!(
            parsed
                .entry(Path::new("r.xml"), &kept.stamp, &kept.hash)
                .is_some()
        );
        parsed.forget_forms();
        assert_eq!(parsed.len(), 1);
        assert!(!parsed.fill(&kept, &mut item.clone()));
        assert!(
            parsed
                .entry(Path::new("r.xml"), &kept.stamp, &kept.hash)
                .is_none()
        );
    }
}
