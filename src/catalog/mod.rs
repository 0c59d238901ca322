//! Reading a catalog folder into memory: records, the bibliography, the site configuration, and the text of
//! every file (for diagnostics). Reading checks only what it must to build the model (well-formed XML, UTF-8,
//! size); the meaning of what was read is checked by [`crate::check`].

pub mod bibtex;
pub mod config;
pub mod parsed;
pub mod read;
pub mod record;
pub mod stamps;
pub mod terms;

use std::collections::HashMap;
use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use rayon::prelude::*;
use walkdir::{DirEntry, WalkDir};

use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::source::{Changed, Dictionary, FileId, SourceMap, Span};

pub use bibtex::{BibEntry, Bibliography};
pub use config::{Config, Label};
use read::Reader;
pub use read::{FileKind, Found};
pub use terms::{Namespace, Term};

/// Records larger than this are refused unread: a catalog record is a page of metadata, not a book.
pub const MAX_RECORD_BYTES: u64 = FileKind::Record.limit();

/// A value with the byte span it was read from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spanned<T> {
    pub value: T,
    pub span: Span,
}

impl<T> Spanned<T> {
    pub fn new(value: T, span: Span) -> Self {
        Spanned { value, span }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Game,
    Board,
    Evidence,
}

impl Kind {
    pub fn parse(s: &str) -> Option<Kind> {
        match s {
            "game" => Some(Kind::Game),
            "board" => Some(Kind::Board),
            "evidence" => Some(Kind::Evidence),
            _ => None,
        }
    }

    /// The kind in running text: "a game", "a board", "an evidence item".
    pub fn with_article(self) -> &'static str {
        match self {
            Kind::Game => "a game",
            Kind::Board => "a board",
            Kind::Evidence => "an evidence item",
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Game => "game",
            Kind::Board => "board",
            Kind::Evidence => "evidence",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One Dublin Core value of a record.
///
/// Kept small: a large catalog holds millions of values from the load to the end of a build (2.3 million at
/// 100,000 items, 48 bytes each). The attributes, which most values have none of, are behind one thin pointer
/// that is null when there are none; positions are held in 32 bits (a record is far smaller than 4 GiB: the
/// reader caps every file), and the element's name by its start and length.
#[derive(Clone, Debug)]
pub struct Value {
    pub term: &'static Term,
    /// The text, trimmed, with references resolved.
    pub text: Box<str>,
    attributes: Option<Box<Attributes>>,
    /// Where the text is (the trimmed content); an empty span just after the start tag when there is none.
    text_start: u32,
    text_end: u32,
    /// Where the element's name in its start tag begins, and its length in bytes (a name longer than 65,535
    /// bytes, which no term has, is pointed at by its start only).
    name_start: u32,
    name_len: u16,
    /// The namespace the element came from (`dc:title` and `dcterms:title` are the same term).
    pub ns: Namespace,
}

/// A value's attributes, those present only.
type Attributes = Box<[(Attribute, Spanned<String>)]>;

/// An attribute a value may have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Attribute {
    /// `xml:lang`
    Lang,
    /// `xsi:type`, as written (`dcterms:W3CDTF`)
    Scheme,
    /// `ref`: the identifier of a catalogued item.
    Ref,
    /// `cite`: a bibliography key.
    Cite,
    /// `pages`, with `cite`.
    Pages,
}

/// An offset within a record, in 32 bits.
fn offset32(n: usize) -> u32 {
    u32::try_from(n).expect("a record is smaller than 4 GiB: the reader caps it")
}

impl Value {
    /// A value of `term` with no text and no attributes; `span` is the element's name, and the text is
    /// placed, empty, at `content_start`.
    pub fn new(term: &'static Term, ns: Namespace, span: Span, content_start: usize) -> Value {
        let at = offset32(content_start);
        Value {
            term,
            text: Box::default(),
            attributes: None,
            text_start: at,
            text_end: at,
            name_start: offset32(span.start),
            name_len: u16::try_from(span.end.saturating_sub(span.start)).unwrap_or(0),
            ns,
        }
    }

    /// The element's name in its start tag.
    pub fn span(&self) -> Span {
        let start = self.name_start as usize;
        start..start + self.name_len as usize
    }

    /// Where the text is (the trimmed content); an empty span just after the start tag when there is none.
    pub fn text_span(&self) -> Span {
        self.text_start as usize..self.text_end as usize
    }

    pub fn set_text_span(&mut self, span: Span) {
        self.text_start = offset32(span.start);
        self.text_end = offset32(span.end);
    }

    /// The attribute `name`, as written.
    pub fn attribute(&self, name: Attribute) -> Option<&Spanned<String>> {
        self.attributes
            .iter()
            .flat_map(|a| a.iter())
            .find(|(n, _)| *n == name)
            .map(|(_, value)| value)
    }

    /// `xml:lang`
    pub fn lang(&self) -> Option<&Spanned<String>> {
        self.attribute(Attribute::Lang)
    }

    /// `xsi:type`, as written (`dcterms:W3CDTF`)
    pub fn scheme(&self) -> Option<&Spanned<String>> {
        self.attribute(Attribute::Scheme)
    }

    /// `ref`: the identifier of a catalogued item.
    pub fn ref_(&self) -> Option<&Spanned<String>> {
        self.attribute(Attribute::Ref)
    }

    /// `cite`: a bibliography key.
    pub fn cite(&self) -> Option<&Spanned<String>> {
        self.attribute(Attribute::Cite)
    }

    /// `pages`, with `cite`.
    pub fn pages(&self) -> Option<&Spanned<String>> {
        self.attribute(Attribute::Pages)
    }

    /// Sets the attributes; of two with the same name, the last is kept.
    pub fn set_attributes(&mut self, attributes: Vec<(Attribute, Spanned<String>)>) {
        let mut kept: Vec<(Attribute, Spanned<String>)> = Vec::with_capacity(attributes.len());
        for (name, value) in attributes {
            kept.retain(|(n, _)| *n != name);
            kept.push((name, value));
        }
        self.attributes = (!kept.is_empty()).then(|| Box::new(kept.into_boxed_slice()));
    }

    /// The term as written with its conventional prefix: `dcterms:title`.
    pub fn qualified_name(&self) -> String {
        format!("{}:{}", self.ns.prefix(), self.term.name)
    }

    /// The span to point at when the value itself is wrong: its text, or its tag when it has no text.
    pub fn value_span(&self) -> Span {
        if self.text.is_empty() {
            self.span()
        } else {
            self.text_span()
        }
    }
}

/// `<playedWith game="ID" ruleset="NAME"/>` on a board, or `<attests game="ID"/>` on evidence.
#[derive(Clone, Debug)]
pub struct GameLink {
    pub game: Option<Spanned<String>>,
    pub ruleset: Option<Spanned<String>>,
    /// The element's name in its start tag.
    pub span: Span,
}

/// `<image file="images/NAME" alt="...">caption</image>`: a picture of the item (a photograph of a board, a scan
/// of a source's page), kept in the item's `images/` folder.
#[derive(Clone, Debug)]
pub struct ImageRef {
    /// `file`: where the picture is, from the item's folder (`images/board.jpg`).
    pub file: Option<Spanned<String>>,
    /// `alt`: the picture described in words, for readers who cannot see it.
    pub alt: Option<Spanned<String>>,
    /// The element's text: a caption shown under the picture (empty when there is none).
    pub caption: String,
    pub caption_span: Span,
    /// The element's name in its start tag.
    pub span: Span,
    /// What the loader found at `file`.
    pub found: ImageFile,
}

/// The file an `<image>` names, as the loader found it.
#[derive(Clone, Debug)]
pub enum ImageFile {
    /// Not looked for: `file` is missing or is not a name in `images/` ([`image_name`]); the check says why.
    Unread,
    /// Nothing is there.
    Absent,
    /// There, and refused by the reader (too large, not a regular file, a link leading outside), which said why.
    Refused,
    /// Its bytes, shared: the preview server's copy of an unchanged folder and the build's are one.
    Read(std::sync::Arc<[u8]>),
}

/// The name under `images/` that an image's `file` attribute gives, when it is one the site can publish as it
/// is: `images/` and then lowercase ASCII letters, digits, `-` and `_`, one dot and an extension
/// (`images/board-1.jpg`). Such a name is safe in a web address and on every file system, and two of them never
/// differ only in case.
pub fn image_name(file: &str) -> Option<&str> {
    let name = file.strip_prefix("images/")?;
    let (stem, ext) = name.split_once('.')?;
    let plain = |s: &str, more: &[u8]| {
        !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || more.contains(&b))
    };
    (plain(stem, b"-_") && plain(ext, b"") && !stem.starts_with(['-', '_'])).then_some(name)
}

/// An element or attribute the reader did not recognise; [`crate::check`] reports it.
#[derive(Clone, Debug)]
pub struct Unknown {
    /// Namespace URI, if the name was in one.
    pub ns: Option<String>,
    /// The name as written, with its prefix.
    pub name: String,
    /// The prefix was not declared.
    pub undeclared_prefix: bool,
    pub span: Span,
}

/// One catalogued item: a folder holding a `record.xml`.
#[derive(Clone, Debug)]
pub struct Item {
    /// The folder name.
    pub id: String,
    pub kind: Option<Kind>,
    /// The `kind` attribute as written, if present.
    pub kind_attr: Option<Spanned<String>>,
    /// The folder, as a path under the catalog directory given on the command line.
    pub folder: PathBuf,
    /// `record.xml` in the source map.
    pub file: FileId,
    /// The root element's name, where item-wide problems are reported. Empty when the record could not be read.
    pub root_span: Span,
    /// The root element is `record` in the ludotheca namespace.
    pub root_ok: bool,
    /// The record was read to the end without an XML error; when false, `values` may be incomplete.
    pub well_formed: bool,
    pub values: Vec<Value>,
    pub played_with: Vec<GameLink>,
    pub attests: Vec<GameLink>,
    /// `<confidence>`, as written; [`Item::confidence_value`] parses it.
    pub confidence: Vec<Spanned<String>>,
    /// `<image>`, in record order.
    pub images: Vec<ImageRef>,
    pub has_rules_file: bool,
    /// `rules.txt` in the source map, for the rules language to report into.
    pub rules_file: Option<FileId>,
    /// `games/*.game`, sorted, each as read into the source map (its text decoded lossily when it is not
    /// UTF-8, for quoting).
    pub game_record_files: Vec<FileId>,
    /// The same game records, but for any that is not UTF-8 (the reader reported it): those that replaying
    /// reads and reports into.
    pub game_records: Vec<FileId>,
    pub unknown_elements: Vec<Unknown>,
    pub unknown_attributes: Vec<Unknown>,
    /// Text or elements where a record allows none.
    pub stray_content: Vec<Stray>,
    /// A hash of the item's files as read (record, rules, game records: paths and texts), taken once when
    /// they are read: every later key that depends on the item's files (the replay of its games, its page,
    /// its download) combines it instead of hashing the texts again.
    pub files_hash: crate::fingerprint::Hash,
    /// A hash of the rules file and game records alone (paths and bytes): all that checking the item's game
    /// reads of its folder, so that an edit to the record's values does not compile and replay the game again.
    pub game_files_hash: crate::fingerprint::Hash,
    /// Neither the rules file nor any game record holds [`PLACEHOLDER`] anywhere: found as they are read, so
    /// that the check for placeholders need not read them again (at 100,000 items that meant unpacking every
    /// item's texts). False when not known.
    pub files_without_placeholder: bool,
    /// The stamp of the item's folder of game records, when it had settled as the load looked at it: what the
    /// next build may take the folder's names by (see [`stamps`]).
    pub games_folder: Option<stamps::Stamp>,
    /// What a list shows of the record, hashed ([`Item::record_listed`]): made once as the record is parsed and
    /// kept with its parsed form, so that a rebuild does not gather and hash every value of every item again
    /// for the lists' key. None where the record was not parsed (it is made when asked for then).
    pub record_listed: Option<ListedHash>,
}

/// The hash of what a list shows of a record ([`Item::record_listed`]).
pub type ListedHash = [u8; 16];

/// What `ludotheca new` writes where a value is missing, and what `check` reports where it is left.
pub const PLACEHOLDER: &str = "TODO";

/// Content a record does not allow, kept for [`crate::check`] to report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stray {
    /// Text between terms, directly inside `<record>`.
    Text(Span),
    /// An element inside a value: the span of its name.
    Element(Span),
}

impl Item {
    fn new(id: String, folder: PathBuf, file: FileId) -> Self {
        Item {
            id,
            kind: None,
            kind_attr: None,
            folder,
            file,
            root_span: 0..0,
            root_ok: false,
            well_formed: false,
            values: Vec::new(),
            played_with: Vec::new(),
            attests: Vec::new(),
            confidence: Vec::new(),
            images: Vec::new(),
            has_rules_file: false,
            rules_file: None,
            game_record_files: Vec::new(),
            game_records: Vec::new(),
            unknown_elements: Vec::new(),
            unknown_attributes: Vec::new(),
            stray_content: Vec::new(),
            files_hash: [0; 32],
            game_files_hash: [0; 32],
            files_without_placeholder: false,
            games_folder: None,
            record_listed: None,
        }
    }

    /// Hash the item's files (record, rules, game records: paths within the catalog folder `root`, and the
    /// record's text and the other files' hashes) into `files_hash`. The paths are taken within the folder so
    /// that naming the same catalog another way (`./catalog`, or from another directory) keeps everything the
    /// previous build checked and wrote. A file the load took unread (see [`stamps`]) stands in by the hash
    /// its stamp came with, the hash of its bytes as the previous build read them. Notes whether any but the
    /// record holds a placeholder (`files_without_placeholder`), and gives, for the rules file and each game
    /// record, its hash and whether it holds one.
    fn hash_files(
        &mut self,
        files: &SourceMap,
        root: &Path,
    ) -> (
        stamps::ContentHash,
        Vec<(FileId, stamps::ContentHash, bool)>,
    ) {
        let others: Vec<(FileId, stamps::ContentHash, bool)> = self
            .rules_file
            .into_iter()
            .chain(self.game_records.iter().copied())
            .map(|f| match files.get(f).unread() {
                Some((hash, placeholder)) => (f, hash, placeholder),
                None => {
                    let text = files.get(f).text();
                    let hash = stamps::content_hash(text.as_bytes());
                    (f, hash, text.contains(PLACEHOLDER))
                }
            })
            .collect();
        // The record's placeholders are in its values, read already.
        self.files_without_placeholder = others.iter().all(|(_, _, marked)| !marked);
        let path = |f: FileId| within(files.path(f), root).as_os_str().as_encoded_bytes();
        let mut game_files: Vec<&[u8]> = Vec::with_capacity(2 * others.len());
        for (f, hash, _) in &others {
            game_files.push(path(*f));
            game_files.push(hash);
        }
        self.game_files_hash = crate::fingerprint::bytes(&[0; 32], game_files.iter().copied());
        // The record stands in by the hash of its bytes too: one taken as parsed is not read.
        let record = match files.get(self.file).unread() {
            Some((hash, _)) => hash,
            None => stamps::content_hash(files.get(self.file).text().as_bytes()),
        };
        // The other files stand in by their own hash, made just above: hashing their paths and hashes a second
        // time was half of this work, for every item of a rebuild in a new process.
        let mut parts: Vec<&[u8]> = vec![path(self.file), &record, &self.game_files_hash];
        // Images stand in by the hash of their bytes: a page shows an image's size, so a new picture under the
        // same name must change the page's key.
        let images: Vec<blake3::Hash> = self
            .images
            .iter()
            .filter_map(|image| match &image.found {
                ImageFile::Read(bytes) => Some(blake3::hash(bytes)),
                _ => None,
            })
            .collect();
        parts.extend(images.iter().map(|h| &h.as_bytes()[..]));
        self.files_hash = crate::fingerprint::bytes(&[0; 32], parts);
        (record, others)
    }

    /// A hash of all that the site's lists may show of the item: what its record says but its descriptions
    /// (title, kind, dates, places, subjects, creators, relations, citations, the games a board is played with
    /// or evidence attests), and its rules and game records ([`Item::game_files_hash`]: rulesets, their facts,
    /// puzzles), and the pictures it names (file, words and caption; their bytes are hashed where they are
    /// checked). No list shows a description, so an edit of one leaves this as it was, and the lists are neither
    /// keyed again nor made for it. Every field of the item is named below, so that a new one must be weighed
    /// here.
    pub fn listed_hash(&self) -> crate::fingerprint::Hash {
        let Item {
            id,
            // The record's part ([`Item::record_listed`]).
            kind: _,
            kind_attr: _,
            root_ok: _,
            well_formed: _,
            values: _,
            played_with: _,
            attests: _,
            confidence: _,
            images: _,
            record_listed,
            folder: _,
            file: _,
            root_span: _,
            has_rules_file,
            rules_file: _,
            game_record_files: _,
            game_records: _,
            // What the check reports; a build with errors makes no site.
            unknown_elements: _,
            unknown_attributes: _,
            stray_content: _,
            // Holds the descriptions.
            files_hash: _,
            game_files_hash,
            files_without_placeholder: _,
            games_folder: _,
        } = self;
        let record = record_listed.unwrap_or_else(|| self.record_listed());
        let rules: &[u8] = if *has_rules_file { b"rules" } else { b"" };
        crate::fingerprint::key(game_files_hash, [id.as_bytes(), rules, &record[..]])
    }

    /// What a list shows of the record alone, hashed: every value but the descriptions, the links, the
    /// confidence, the pictures as named, and how the record read. It depends on the record's bytes alone, so
    /// it is kept with the record's parsed form (the field [`Item::record_listed`]). [`Item::listed_hash`] names
    /// every field of the item, so that a new one must be weighed there, and here if the record sets it.
    pub fn record_listed(&self) -> ListedHash {
        let Item {
            kind,
            kind_attr,
            root_ok,
            well_formed,
            values,
            played_with,
            attests,
            confidence,
            images,
            // Where the record's parts are, which no list shows.
            root_span: _,
            // What the check reports; a build with errors makes no site.
            unknown_elements: _,
            unknown_attributes: _,
            stray_content: _,
            ..
        } = self;
        // Each field after its length, so that no two different records say the same bytes.
        let mut said: Vec<u8> = Vec::with_capacity(1024);
        let mut field = |text: &str| {
            said.extend_from_slice(&(text.len() as u64).to_le_bytes());
            said.extend_from_slice(text.as_bytes());
        };
        field(kind.map_or("", Kind::as_str));
        field(kind_attr.as_ref().map_or("\u{0}", |k| &k.value));
        field(if *root_ok { "root" } else { "" });
        field(if *well_formed { "whole" } else { "" });
        for value in values.iter().filter(|v| v.term.name != "description") {
            field(value.ns.prefix());
            field(value.term.name);
            field(&value.text);
            let attributes = value.attributes.iter().flat_map(|a| a.iter());
            for (name, text) in attributes {
                field(match name {
                    Attribute::Lang => "xml:lang",
                    Attribute::Scheme => "xsi:type",
                    Attribute::Ref => "ref",
                    Attribute::Cite => "cite",
                    Attribute::Pages => "pages",
                });
                field(&text.value);
            }
            field("\u{0}");
        }
        for (links, name) in [(played_with, "playedWith"), (attests, "attests")] {
            for link in links {
                field(name);
                field(link.game.as_ref().map_or("\u{0}", |g| &g.value));
                field(link.ruleset.as_ref().map_or("\u{0}", |r| &r.value));
            }
        }
        for c in confidence {
            field("confidence");
            field(&c.value);
        }
        for image in images {
            field("image");
            for text in [&image.file, &image.alt] {
                field(text.as_ref().map_or("\u{0}", |t| &t.value));
            }
            field(&image.caption);
        }
        xxhash_rust::xxh3::xxh3_128(&said).to_le_bytes()
    }

    /// Adds a game record of the item's: one whose text is not UTF-8 (`utf8` false, reported by the reader)
    /// is quoted, never replayed.
    fn add_game(&mut self, file: FileId, utf8: bool) {
        if utf8 {
            self.game_records.push(file);
        }
        self.game_record_files.push(file);
    }

    /// Values of one term (by local name, whichever namespace).
    pub fn values_of<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Value> + 'a {
        self.values.iter().filter(move |v| v.term.name == name)
    }

    /// The first non-empty title, for display.
    pub fn title(&self) -> Option<&str> {
        self.values_of("title")
            .map(|v| &*v.text)
            .find(|t| !t.is_empty())
    }

    /// The confidence, when there is exactly one and it is an integer from 0 to 100.
    pub fn confidence_value(&self) -> Option<u8> {
        match self.confidence.as_slice() {
            [one] => parse_confidence(&one.value),
            _ => None,
        }
    }
}

/// An integer from 0 to 100, written in plain decimal digits.
pub fn parse_confidence(text: &str) -> Option<u8> {
    if text.is_empty() || text.len() > 3 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse::<u8>().ok().filter(|n| *n <= 100)
}

/// Everything read from a catalog folder.
#[derive(Debug)]
pub struct Catalog {
    /// The catalog folder as given.
    pub root: PathBuf,
    pub config: Config,
    /// `ludotheca.toml` in the source map, if it exists.
    pub config_file: Option<FileId>,
    pub sources: Bibliography,
    /// Items in path order. Shared: a long-running process keeps each item as read between builds, and a
    /// build's copy of an unchanged item is the same item, not another.
    pub items: Vec<std::sync::Arc<Item>>,
    /// The text of every file read.
    pub files: SourceMap,
    /// `about.md` in the source map, if the catalog has one.
    pub about: Option<FileId>,
    /// The catalog's own templates and static files, laid over the default theme when the site is rendered.
    pub theme: ThemeFiles,
    /// Identifier to the index of its first item.
    /// Made again at every load (the preview server's too): foldhash rather than SipHash.
    index: foldhash::HashMap<String, usize>,
    /// The rules files and game records read with a stamp that the next build may take them by (see
    /// [`stamps`]), in the order of their ids. Those taken unread by their stamps carry theirs in the source
    /// map ([`crate::source::SourceFile::unread`]).
    pub stamps: stamps::Fresh,
    /// The previous build's stamps that the load went by, if any: what the next build keeps of the files taken
    /// unread ([`Catalog::stamps_to_keep`]).
    pub known_stamps: Option<stamps::Stamps>,
    /// Files that the load took as unchanged without reading them, and that were found changed when their text
    /// was asked for later: what was made from them is not to be kept.
    pub changed: std::sync::Arc<Changed>,
}

impl Catalog {
    /// The stamps the next build may take this catalog's rules files and game records by, as a build keeps them
    /// beside the site ([`stamps::push_entries`]): those read with a settled stamp (`fresh`, as
    /// [`Catalog::stamps`] held them) and those taken unread by what `known` (the stamps the load went by)
    /// says of them, in the catalog's order: the file's bytes in blocks, to be written one after the other.
    pub fn stamps_to_keep(
        &self,
        fresh: &stamps::Fresh,
        known: Option<&stamps::Stamps>,
    ) -> Vec<Vec<u8>> {
        // A block of items at a time on every core, joined in the catalog's order: 76,000 entries at 10,000
        // items, each looked up by its path, between the check and the resolve while nothing else runs.
        let entries: Vec<Vec<u8>> = self
            .items
            .par_chunks(1024)
            .map(|items| {
                let kept = |file: FileId| {
                    let path = within(self.files.path(file), &self.root);
                    let known = match self.files.get(file).unread() {
                        Some(_) => known?.get(path)?,
                        None => fresh.get(file)?,
                    };
                    Some((path, known))
                };
                let mut entries = Vec::new();
                for item in items {
                    stamps::push_entries(&mut entries, item.rules_file.and_then(kept).into_iter());
                    let games: Vec<(&Path, &stamps::Known)> =
                        item.game_records.iter().filter_map(|&f| kept(f)).collect();
                    // The folder's names are kept only when all of them are: the next build takes the folder
                    // as holding exactly these.
                    match &item.games_folder {
                        Some(stamp)
                            if games.len() == item.game_record_files.len()
                                && item.game_records.len() == games.len() =>
                        {
                            let folder = within(&item.folder, &self.root).join("games");
                            stamps::push_folder(&mut entries, &folder, stamp, &games);
                        }
                        _ => stamps::push_entries(&mut entries, games.into_iter()),
                    }
                }
                entries
            })
            .collect();
        std::iter::once(stamps::HEADER.to_vec())
            .chain(entries)
            .collect()
    }

    /// The stamp and hash of each item's record as the next build may take it as parsed ([`parsed`]), by item:
    /// for a record taken as parsed by this load, what `known` (the stamps the load went by) holds of it; for
    /// one read with a settled stamp and nothing said of it, what `fresh` (as [`Catalog::stamps`] held them)
    /// does; none for any other. Small beside what it is made from, which the build lets go before resolving.
    pub fn records_to_keep(
        &self,
        fresh: &stamps::Fresh,
        known: Option<&stamps::Stamps>,
    ) -> Vec<Option<(stamps::Stamp, stamps::ContentHash)>> {
        self.items
            .par_iter()
            .map(|item| match self.files.get(item.file).unread() {
                Some(_) => known?
                    .records
                    .get(within(self.files.path(item.file), &self.root))
                    .map(|kept| (kept.stamp, kept.hash)),
                None => fresh.get(item.file).map(|known| (known.stamp, known.hash)),
            })
            .collect()
    }

    /// Writes the records to keep as parsed for the next build ([`parsed`]) into `out`, in the catalog's
    /// order: each item's record of which `read` ([`Catalog::records_to_keep`]) gives the stamp and hash.
    /// Encoded on every core a few blocks at a time, and written as made: at 100,000 items the file is hundreds
    /// of megabytes. A record this load took as parsed is copied from `previous`, the file it was taken from,
    /// when that still holds its entry (see [`parsed::ParsedRecords::forget_large_forms`]).
    pub fn write_parsed(
        &self,
        out: &mut dyn std::io::Write,
        read: &[Option<(stamps::Stamp, stamps::ContentHash)>],
        previous: Option<&parsed::ParsedRecords>,
    ) -> std::io::Result<()> {
        type Read = Option<(stamps::Stamp, stamps::ContentHash)>;
        let from = previous.map_or(&[][..], |previous| previous.held());
        let block = |items: &[(&std::sync::Arc<Item>, &Read)]| {
            // Each record's entry, copied from the previous file when it holds it, else encoded.
            let entries: Vec<_> = items
                .iter()
                .filter_map(|(item, read)| {
                    let (stamp, hash) = read.as_ref()?;
                    let path = within(self.files.path(item.file), &self.root);
                    let taken = previous
                        .filter(|_| self.files.get(item.file).unread().is_some())
                        .and_then(|previous| previous.entry(path, stamp, hash));
                    Some((item, path, stamp, hash, taken))
                })
                .collect();
            // A record's parsed form is about as long as the record: room for the block's forms at once,
            // rather than grown and copied as it fills.
            let mut room: usize = entries
                .iter()
                .filter(|entry| entry.4.is_none())
                .map(|entry| entry.2.size() + 256)
                .sum();
            let mut pieces = Vec::new();
            let mut made = Vec::new();
            for (item, path, stamp, hash, taken) in entries {
                let Some(entry) = taken else {
                    if made.is_empty() {
                        made.reserve(room);
                    }
                    room -= stamp.size() + 256;
                    parsed::push_entry(&mut made, path, stamp, hash, item);
                    continue;
                };
                if !made.is_empty() {
                    pieces.push(parsed::Piece::Made(std::mem::take(&mut made)));
                }
                // Entries that lay one after the other in the previous file are copied as one run.
                match pieces.last_mut() {
                    Some(parsed::Piece::Copied(run)) if run.end == entry.start => {
                        run.end = entry.end
                    }
                    _ => pieces.push(parsed::Piece::Copied(entry)),
                }
            }
            if !made.is_empty() {
                pieces.push(parsed::Piece::Made(made));
            }
            pieces
        };
        const BLOCK: usize = 1024;
        let items: Vec<_> = self.items.iter().zip(read).collect();
        let mut rounds = items.chunks(BLOCK * rayon::current_num_threads().max(1) * 2);
        let mut made: std::collections::VecDeque<Vec<parsed::Piece>> = Default::default();
        parsed::write(out, from, || {
            if made.is_empty() {
                made = rounds.next()?.par_chunks(BLOCK).map(block).collect();
            }
            made.pop_front()
        })
    }

    /// Whether [`Catalog::write_parsed`] would write what `known` was read from: every record was taken as
    /// parsed, and none is gone.
    pub fn parsed_unchanged(&self, known: Option<&stamps::Stamps>) -> bool {
        known.is_some_and(|known| {
            self.items.len() == known.records.len()
                && self
                    .items
                    .iter()
                    .all(|item| self.files.get(item.file).unread().is_some())
        })
    }

    /// Whether [`Catalog::stamps_to_keep`] would give what `known` was read from: every rules file and game
    /// record was taken unread by its stamp there, and no file it held is gone. The previous file is then kept
    /// as it is instead of made again (76,000 entries at 10,000 items, each looked up by its path).
    pub fn stamps_unchanged(&self, known: Option<&stamps::Stamps>) -> bool {
        let Some(known) = known else {
            return false;
        };
        let mut files = 0;
        let all_unread = self.items.iter().all(|item| {
            item.rules_file
                .into_iter()
                .chain(item.game_records.iter().copied())
                .all(|file| {
                    files += 1;
                    self.files.get(file).unread().is_some()
                })
        });
        // Each file taken unread was found in `known` by its path: as many files as it holds are all of them.
        all_unread && files == known.len()
    }

    /// A catalog at `root` holding only `files`: no configuration, bibliography, About page, theme or items.
    /// [`load`] starts from it and adds what it reads; a tool checking records it was handed rather than read
    /// from a folder (the fuzz targets) builds one the same way, with [`Catalog::add_item`].
    pub fn new(root: PathBuf, files: SourceMap) -> Catalog {
        Catalog {
            root,
            config: Config::default(),
            config_file: None,
            sources: Bibliography::default(),
            items: Vec::new(),
            files,
            about: None,
            theme: ThemeFiles::default(),
            index: foldhash::HashMap::default(),
            stamps: stamps::Fresh::default(),
            known_stamps: None,
            changed: std::sync::Arc::default(),
        }
    }

    /// Adds an item after the others. An identifier given twice keeps finding its first item; the check
    /// reports the second.
    pub fn add_item(&mut self, item: Item) {
        self.add_shared(std::sync::Arc::new(item));
    }

    fn add_shared(&mut self, item: std::sync::Arc<Item>) {
        self.index
            .entry(item.id.clone())
            .or_insert(self.items.len());
        self.items.push(item);
    }

    /// The item with this identifier (the first one, if the identifier is duplicated).
    pub fn item(&self, id: &str) -> Option<&Item> {
        self.index.get(id).map(|&i| &*self.items[i])
    }
}

/// The catalog's theme: every file under `templates/` and `static/`, named by its path under that folder with
/// `/` separators, in path order.
#[derive(Debug, Default)]
pub struct ThemeFiles {
    pub templates: Vec<ThemeTemplate>,
    /// Static files: path under `static/` and contents.
    pub statics: Vec<(String, Vec<u8>)>,
}

/// A template of the catalog's theme, read into the source map so that a broken one is reported at its line.
#[derive(Debug)]
pub struct ThemeTemplate {
    /// The template's name: `item.html`, `partials/head.html`.
    pub name: String,
    pub file: FileId,
    /// The file is UTF-8; when not, it has been reported (E004) and its text is a lossy copy.
    pub utf8: bool,
}

/// A failure to read the catalog at all (as opposed to problems in it, which are diagnostics).
#[derive(Debug)]
pub enum LoadError {
    NotADirectory(PathBuf),
    Io {
        path: PathBuf,
        source: io::Error,
    },
    /// Files the load took as unchanged by their stamps were found changed when read later in the build
    /// (written to while it ran).
    Changed(Vec<PathBuf>),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::NotADirectory(path) => {
                write!(
                    f,
                    "catalog folder `{}` does not exist or is not a folder",
                    path.display()
                )
            }
            LoadError::Io { path, source } => {
                write!(f, "cannot read `{}`: {source}", path.display())
            }
            LoadError::Changed(paths) => {
                let first = paths
                    .first()
                    .map_or(String::new(), |p| p.display().to_string());
                write!(
                    f,
                    "`{first}` changed while the site was being built{}; nothing was replaced: build again",
                    match paths.len() {
                        0 | 1 => String::new(),
                        n => format!(" (and {} other file(s))", n - 1),
                    }
                )
            }
        }
    }
}

impl std::error::Error for LoadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LoadError::NotADirectory(_) | LoadError::Changed(_) => None,
            LoadError::Io { source, .. } => Some(source),
        }
    }
}

/// Folders at the catalog's top that hold its theme rather than items.
const THEME_FOLDERS: [&str; 2] = ["templates", "static"];

/// The folders an item's folder holds besides its files.
const ITEM_FOLDERS: [&str; 2] = ["games", "images"];

/// Whether anything, even a dangling link, is at `path`: a file that is there but cannot be read is reported
/// by the reader, never taken for absent.
fn exists(path: &Path) -> bool {
    found_at(path).is_some()
}

/// What is at `path`, looked at without following a link: `None` when nothing is; `Some(None)` when something
/// is that cannot be looked at (as for [`exists`]).
fn found_at(path: &Path) -> Option<Option<fs::Metadata>> {
    match fs::symlink_metadata(path) {
        Ok(meta) => Some(Some(meta)),
        Err(err) if err.kind() == io::ErrorKind::NotFound => None,
        Err(_) => Some(None),
    }
}

fn walk_error(dir: &Path) -> impl FnOnce(walkdir::Error) -> LoadError + '_ {
    move |err| LoadError::Io {
        path: err.path().unwrap_or(dir).to_path_buf(),
        source: err.into(),
    }
}

fn is_hidden(entry: &DirEntry) -> bool {
    entry.file_name().to_string_lossy().starts_with('.')
}

/// Read the catalog at `root`. Problems in its files become diagnostics; only a folder or file that cannot be
/// read at all is an error.
pub fn load(root: &Path, diagnostics: &mut Diagnostics) -> Result<Catalog, LoadError> {
    load_with(root, diagnostics, None)
}

/// What a process that loads the same catalog again and again (the preview server) keeps of each load: every
/// item folder as it was read, with its diagnostics, so that the next load reads only the folders where
/// something changed. The process tells it what changed ([`LoadCache::changed`]); the catalog-wide files (the
/// configuration, the bibliography, the About page, the theme) are few and always read again.
#[derive(Default)]
pub struct LoadCache {
    /// Looked up once per item folder at every load, so hashed with foldhash rather than SipHash.
    folders: foldhash::HashMap<PathBuf, LoadedItem>,
    /// The item folders the last walk of the catalog found, with what it reported, while no change can have
    /// added or removed one.
    walked: Option<Walked>,
    /// The number of the load under way: a folder not marked with it at the end of a load is gone.
    load: u64,
}

/// What a walk of the catalog found: the item folders (identifier and path), the same as a set, and the
/// diagnostics of the walk.
struct Walked {
    /// Shared with each load that takes it, instead of copied (20,000 strings at 10,000 items).
    found: std::sync::Arc<[(String, PathBuf)]>,
    folders: foldhash::HashSet<PathBuf>,
    diagnostics: Diagnostics,
    /// Records changed since: their folders are items only while they are there.
    records: Vec<PathBuf>,
}

impl LoadCache {
    /// Forget every item folder that holds `path` or lies inside it (a file edited, added or removed there; the
    /// folder itself moved or deleted).
    pub fn changed(&mut self, path: &Path) {
        // Item folders never lie inside one another (the walk does not look inside an item), so a change in or
        // at an item folder (one held, or one the last walk found) concerns that folder alone, found among the
        // path's ancestors: comparing the path with every folder took 2-9 ms at 10,000 items, for each of the
        // half-dozen events an editor's save makes.
        let walked = self.walked.as_ref().map(|w| &w.folders);
        let item_folder = path.ancestors().find(|a| {
            self.folders.contains_key(*a) || walked.is_some_and(|folders| folders.contains(*a))
        });
        match item_folder {
            Some(folder) => {
                let folder = folder.to_path_buf();
                self.folders.remove(&folder);
            }
            None => self.folders.retain(|folder, _| !folder.starts_with(path)),
        }
        // A change inside an item folder leaves the list of items as it was, as long as the record that makes
        // the folder an item is still there (the next load looks); anything else may add or remove items.
        let Some(walked) = &mut self.walked else {
            return;
        };
        match path
            .ancestors()
            .skip(1)
            .find(|a| walked.folders.contains(*a))
        {
            Some(folder) if path == folder.join("record.xml") => {
                walked.records.push(path.to_path_buf());
            }
            Some(_) => {}
            None => self.walked = None,
        }
    }

    /// Forget everything: a change may have been missed.
    pub fn clear(&mut self) {
        self.folders.clear();
        self.walked = None;
    }
}

/// One item folder as read: the item, the files it read and what was reported. The item's file ids are those
/// of the catalog it was last loaded into, whose source map held `offset` files before this item's; `files`
/// numbers the same files from 0.
struct LoadedItem {
    item: std::sync::Arc<Item>,
    offset: u32,
    files: SourceMap,
    diagnostics: Diagnostics,
    /// The stamps of the item's files, numbered like `files`.
    stamps: std::sync::Arc<ItemStamps>,
    /// The last load that found the folder (see [`LoadCache::load`]): marked where the folder is looked up, on
    /// every core, through a shared reference.
    seen: AtomicU64,
}

/// [`load`], reading again only the item folders `cache` does not know, and leaving in it every folder read.
pub fn load_with(
    root: &Path,
    diagnostics: &mut Diagnostics,
    cache: Option<&mut LoadCache>,
) -> Result<Catalog, LoadError> {
    load_known(root, diagnostics, cache, None)
}

/// Reads the stamps the previous build kept (see [`stamps`]).
pub type ReadStamps<'a> = &'a (dyn Fn() -> stamps::Stamps + Sync);

/// [`load_with`], taking the rules files and game records that the previous build's stamps (read by `known`,
/// beside the walk of the catalog) vouch for without reading them; the stamps are left in
/// [`Catalog::known_stamps`]. Not with a `cache`, which holds every file it read and needs no stamps.
pub fn load_known(
    root: &Path,
    diagnostics: &mut Diagnostics,
    mut cache: Option<&mut LoadCache>,
    known: Option<ReadStamps>,
) -> Result<Catalog, LoadError> {
    // Taken before any file is looked at: a file changed after this is never vouched for by its stamp.
    let began = std::time::SystemTime::now();
    if !root.is_dir() {
        return Err(LoadError::NotADirectory(root.to_path_buf()));
    }
    let reader = Reader::new(root)?;
    let mut files = SourceMap::default();

    let config_path = root.join("ludotheca.toml");
    let (config, config_file) = match read_text(
        &reader,
        &config_path,
        FileKind::Config,
        &mut files,
        diagnostics,
    )? {
        Found::Read((file, true)) => (config::parse(&files, file, diagnostics), Some(file)),
        Found::Read((file, false)) => (Config::default(), Some(file)),
        Found::Refused => (Config::default(), None),
        Found::Absent => {
            diagnostics.push(
                Diagnostic::error("E034", "the catalog has no `ludotheca.toml`")
                    .in_file(&config_path)
                    .with_help(
                        "create it with at least `title = \"...\"`; see docs/record-format.md",
                    ),
            );
            (Config::default(), None)
        }
    };

    let bib_path = root.join("sources.bib");
    let mut sources = Bibliography::default();
    match read_text(
        &reader,
        &bib_path,
        FileKind::Bibliography,
        &mut files,
        diagnostics,
    )? {
        Found::Read((file, true)) => sources = bibtex::parse(&files, file, diagnostics),
        Found::Read((_, false)) | Found::Refused => sources.unread = true,
        Found::Absent => {}
    }

    // The About page's Markdown; a file that is not UTF-8 is reported (E004) rather than dropped in silence.
    let about_path = root.join("about.md");
    let mut about = None;
    if let Found::Read((file, true)) = read_text(
        &reader,
        &about_path,
        FileKind::About,
        &mut files,
        diagnostics,
    )? {
        about = Some(file);
    }

    let theme = load_theme(&reader, root, &mut files, diagnostics)?;
    if let Some(cache) = cache.as_deref_mut()
        && let Some(walked) = &cache.walked
        && !walked.records.iter().all(|record| exists(record))
    {
        cache.walked = None;
    }
    let known = known.filter(|_| cache.is_none());
    let walk = || match cache.as_deref_mut() {
        Some(LoadCache {
            walked: Some(walked),
            ..
        }) => {
            for diagnostic in walked.diagnostics.iter() {
                diagnostics.push(diagnostic.clone());
            }
            Ok((std::sync::Arc::clone(&walked.found), Vec::new()))
        }
        Some(cache) => {
            let mut own = Diagnostics::new();
            // The records' metadata goes unused: a load with a cache does not go by stamps.
            let (found, _) = find_items(root, &mut own)?;
            for diagnostic in own.iter() {
                diagnostics.push(diagnostic.clone());
            }
            let found: std::sync::Arc<[(String, PathBuf)]> = found.into();
            cache.walked = Some(Walked {
                folders: found.iter().map(|(_, f)| f.clone()).collect(),
                found: std::sync::Arc::clone(&found),
                diagnostics: own,
                records: Vec::new(),
            });
            Ok((found, Vec::new()))
        }
        None => find_items(root, diagnostics).map(|(found, records)| (found.into(), records)),
    };
    let (walked, known) = rayon::join(walk, || known.map(|read| read()));
    let (folders, records) = walked?;
    let changed = std::sync::Arc::new(Changed::default());
    let unchanged = Unchanged {
        known: known.as_ref(),
        began,
        changed: &changed,
        root: reader.named_root(),
    };
    let (items, stamps) = load_items(
        &reader,
        (&folders, &records),
        &mut files,
        diagnostics,
        cache,
        &unchanged,
    )?;
    let mut known = known;
    if let Some(known) = known.as_mut() {
        known.records.forget_large_forms();
    }

    let mut catalog = Catalog::new(root.to_path_buf(), files);
    catalog.stamps = stamps;
    catalog.known_stamps = known;
    catalog.changed = changed;
    catalog.config = config;
    catalog.config_file = config_file;
    catalog.sources = sources;
    catalog.about = about;
    catalog.theme = theme;
    catalog.items.reserve(items.len());
    catalog.index.reserve(items.len());
    for item in items {
        catalog.add_shared(item);
    }
    Ok(catalog)
}

/// Every folder holding a `record.xml` (whatever it is: the reader reports one that is not a file) is an item;
/// every other folder is a group to look inside. Collects the item folders (identifier and path) in path order,
/// leaving out hidden entries and the theme folders. Links to folders are never followed: an item reached
/// through one could lie outside the catalog, and a loop of them would never end.
fn find_items(root: &Path, diagnostics: &mut Diagnostics) -> Result<ItemFolders, LoadError> {
    let found = find_in(root, true)?;
    for diagnostic in found.linked {
        diagnostics.push(diagnostic);
    }
    Ok((found.items, found.records))
}

/// The item folders found (identifier and path), and of each, what the look at its record found (see
/// [`Findings::records`]).
type ItemFolders = (Vec<(String, PathBuf)>, Vec<Option<fs::Metadata>>);

/// What [`find_in`] found in one group folder and the groups inside it.
#[derive(Default)]
struct Findings {
    items: Vec<(String, PathBuf)>,
    /// Of each item, what the look for its record found there (none when it could not be looked at): a load
    /// going by stamps takes the record's from here rather than looking again.
    records: Vec<Option<fs::Metadata>>,
    /// Links to folders, reported and not followed, and folders holding an item's files but no record.
    linked: Vec<Diagnostic>,
}

/// Whether a file named `name` is one of an item's own (its record under another name, its rules or a game
/// record): found in a folder that is no item's, it would be left out of the catalog without a word.
fn an_items_file(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    (lower.starts_with("record") && lower.contains(".xml"))
        || lower == "rules.txt"
        || lower.ends_with(".game")
}

/// E048 for the folder `dir`, no item's, holding the item's files `strays` (names in order): an archivist who
/// named the record `Record.xml` or `record.xml.txt` would otherwise see the item vanish from the site.
fn stray_files(dir: &Path, strays: &[String]) -> Diagnostic {
    let record = strays
        .iter()
        .find(|n| n.to_ascii_lowercase().starts_with("record"));
    let (first, message, help) = match record {
        Some(name) => (
            name,
            format!(
                "`{name}` is not read: an item's record is named `record.xml`, so this folder is no item's \
                 and its files are left out of the catalog"
            ),
            "rename it `record.xml`".to_string(),
        ),
        None => {
            let listed = strays
                .iter()
                .take(3)
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ");
            let more = match strays.len() {
                0..=3 => String::new(),
                n => format!(" and {} more", n - 3),
            };
            (
                &strays[0],
                format!(
                    "this folder holds {listed}{more} but no `record.xml`, so it is no item's and its files are \
                     left out of the catalog"
                ),
                "give the folder its item's record (`ludotheca new` writes one), or move the files into the \
                 folder of the item they belong to; game records go in the item's `games/` folder"
                    .to_string(),
            )
        }
    };
    Diagnostic::error("E048", message)
        .in_file(&dir.join(first))
        .with_help(help)
}

/// The entries of the folder `dir`, in name order.
fn listing(dir: &Path) -> Result<Vec<fs::DirEntry>, LoadError> {
    let io_error = |source| LoadError::Io {
        path: dir.to_path_buf(),
        source,
    };
    let mut entries: Vec<fs::DirEntry> = fs::read_dir(dir)
        .map_err(io_error)?
        .collect::<Result<_, _>>()
        .map_err(io_error)?;
    // Each name copied once, not at every comparison.
    entries.sort_by_cached_key(|e| e.file_name());
    Ok(entries)
}

/// [`find_items`] in the group folder `dir` (the catalog's own when `top`). The folders inside it are looked
/// at in parallel and gathered in name order: at 10,000 items, looking at every folder one after another was
/// a fifth of a rebuild's load. Each group folder is listed once, and an item's folder not at all (walking
/// with the crate that walks the rest listed every item folder, only to leave it).
fn find_in(dir: &Path, top: bool) -> Result<Findings, LoadError> {
    let entries = listing(dir)?;
    let mut looked_at = Vec::with_capacity(entries.len());
    let mut strays = Vec::new();
    for entry in entries {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || (top && THEME_FOLDERS.contains(&name.as_str())) {
            continue;
        }
        let path = entry.path();
        // The listing's type, which does not follow a link.
        let kind = entry.file_type().map_err(|source| LoadError::Io {
            path: path.clone(),
            source,
        })?;
        if kind.is_symlink() || kind.is_dir() {
            looked_at.push((name, path, kind.is_symlink()));
        } else if an_items_file(&name) {
            strays.push(name);
        }
    }
    if !strays.is_empty() {
        // The folder is an item's without its record: its own folders are said with it, not again.
        looked_at.retain(|(name, _, link)| *link || !ITEM_FOLDERS.contains(&name.as_str()));
    }
    let each: Vec<Result<Findings, LoadError>> = looked_at
        .into_par_iter()
        .map(|(name, path, link)| {
            if link {
                let linked = fs::metadata(&path)
                    .is_ok_and(|m| m.is_dir())
                    .then(|| read::linked_folder(&path));
                Ok(Findings {
                    linked: linked.into_iter().collect(),
                    ..Findings::default()
                })
            } else {
                // Anything at all there, even what cannot be looked at, makes the folder an item's.
                match found_at(&path.join("record.xml")) {
                    Some(record) => Ok(Findings {
                        items: vec![(name, path)],
                        records: vec![record],
                        linked: Vec::new(),
                    }),
                    None => find_in(&path, false),
                }
            }
        })
        .collect();
    let mut found = Findings::default();
    if !strays.is_empty() {
        found.linked.push(stray_files(dir, &strays));
    }
    for one in each {
        let one = one?;
        found.items.extend(one.items);
        found.records.extend(one.records);
        found.linked.extend(one.linked);
    }
    Ok(found)
}

/// The catalog's `templates/` and `static/` folders, read with the same care as every other file.
fn load_theme(
    reader: &Reader,
    root: &Path,
    files: &mut SourceMap,
    diagnostics: &mut Diagnostics,
) -> Result<ThemeFiles, LoadError> {
    let mut theme = ThemeFiles::default();
    for (folder, kind) in [
        ("templates", FileKind::Template),
        ("static", FileKind::Static),
    ] {
        let dir = root.join(folder);
        match fs::symlink_metadata(&dir) {
            Ok(meta) if meta.file_type().is_symlink() => {
                diagnostics.push(read::linked_folder(&dir));
                continue;
            }
            Ok(meta) if meta.is_dir() => {}
            _ => continue,
        }
        let walk = WalkDir::new(&dir)
            .min_depth(1)
            .sort_by_file_name()
            .into_iter()
            .filter_entry(|e| e.depth() == 0 || !is_hidden(e));
        for entry in walk {
            let entry = entry.map_err(walk_error(&dir))?;
            if entry.file_type().is_dir() {
                continue;
            }
            let path = entry.path();
            if entry.path_is_symlink() && fs::metadata(path).is_ok_and(|m| m.is_dir()) {
                diagnostics.push(read::linked_folder(path));
                continue;
            }
            // Names use `/` whatever the platform: they are template names and addresses in the site.
            let name = path
                .strip_prefix(&dir)
                .unwrap_or(path)
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/");
            match kind {
                FileKind::Template => {
                    if let Found::Read((file, utf8)) =
                        read_text(reader, path, kind, files, diagnostics)?
                    {
                        theme.templates.push(ThemeTemplate { name, file, utf8 });
                    }
                }
                _ => {
                    if let Found::Read(bytes) = reader.read(path, kind, diagnostics)? {
                        theme.statics.push((name, bytes));
                    }
                }
            }
        }
    }
    Ok(theme)
}

/// Read every item folder. Items are independent, so they are read in parallel, each into its own source map
/// and diagnostics, then gathered in path order so that file ids and output do not depend on scheduling. A
/// folder `cache` knows is taken from it instead of read.
fn load_items(
    reader: &Reader,
    (folders, records): (&[(String, PathBuf)], &[Option<fs::Metadata>]),
    files: &mut SourceMap,
    diagnostics: &mut Diagnostics,
    mut cache: Option<&mut LoadCache>,
    unchanged: &Unchanged,
) -> Result<ItemsLoaded, LoadError> {
    let this_load = match cache.as_deref_mut() {
        Some(cache) => {
            cache.load += 1;
            cache.load
        }
        None => 0,
    };
    let keeps = cache.is_some();
    let known = cache
        .as_deref()
        .map(|c| &c.folders)
        .filter(|known| !known.is_empty());
    // A folder the cache knows is taken from it below; the others are read here, in parallel. Each item is
    // numbered from file 0 (its offset in the catalog is known only once all before it are gathered).
    // Boxed: the list of what was read holds an entry for every folder, and at each of the preview server's
    // passes nearly all are `None`, which should not each take an item's room.
    type Fresh = Option<Box<ReadItem>>;
    // Looked up once each, on every core, and marked as found there: a path's hash and comparison go
    // component by component, and the preview server's pass after an edit looks up all 10,000 folders. What
    // the gathering below would change in the cache waits until it is done, so it looks nothing up again.
    let known_at: Vec<Option<&LoadedItem>> = folders
        .par_iter()
        .map(|(_, folder)| {
            let loaded = known?.get(folder)?;
            loaded.seen.store(this_load, Ordering::Relaxed);
            Some(loaded)
        })
        .collect();
    let is_known = |n: usize| known_at[n].is_some();
    let read_one = |n: usize| -> Result<Fresh, LoadError> {
        if is_known(n) {
            return Ok(None);
        }
        let (id, folder) = &folders[n];
        let mut own_files = SourceMap::default();
        let mut own_diagnostics = Diagnostics::new();
        let (item, own_stamps) = load_item(
            reader,
            (id.clone(), folder, records.get(n).cloned().flatten()),
            &mut own_files,
            &mut own_diagnostics,
            unchanged,
        )?;
        Ok(Some(Box::new(ReadItem {
            item: std::sync::Arc::new(item),
            files: own_files,
            diagnostics: own_diagnostics,
            stamps: std::sync::Arc::new(own_stamps),
        })))
    };
    fn own_files(read: &Result<Fresh, LoadError>) -> Option<&SourceMap> {
        match read {
            Ok(Some(read)) => Some(&read.files),
            _ => None,
        }
    }

    // A sample of the items, at even steps through the catalog, is read first. From it the load tells whether
    // the catalog's text will pass the mark above which it is held packed, and if so learns the dictionary
    // every item is then packed against as it is read: nothing is held as read, or compressed twice.
    let pack_above = pack_above();
    let step = folders.len().div_ceil(SAMPLE_ITEMS).max(1);
    let mut sampled: Vec<Result<Fresh, LoadError>> = (0..folders.len())
        .into_par_iter()
        .step_by(step)
        .map(read_one)
        .collect();
    let sample: Vec<&SourceMap> = sampled.iter().filter_map(own_files).collect();
    let sample_text: usize = sample.iter().map(|files| files.text_len()).sum();
    let fresh = known_at.iter().filter(|k| k.is_none()).count();
    let expected = (sample_text as u128 * fresh as u128)
        .checked_div(sample.len() as u128)
        .unwrap_or(0);
    let dictionary = (expected > pack_above as u128).then(|| learn_dictionary(&sample));
    drop(sample);
    if let Some(dictionary) = &dictionary {
        sampled.par_iter_mut().for_each(|r| {
            if let Ok(Some(read)) = r {
                read.files.pack_with(dictionary.as_ref());
            }
        });
    }

    // Should the sample have promised less text than the catalog holds, each item past the mark is packed
    // alone as it is read, and all are packed against a dictionary at the end.
    let text_read = AtomicUsize::new(sample_text);
    let rest: Vec<Result<Fresh, LoadError>> = (0..folders.len())
        .into_par_iter()
        .filter(|n| n % step != 0)
        .map(|n| {
            let mut read = read_one(n)?;
            if let Some(read) = &mut read {
                match &dictionary {
                    Some(dictionary) => read.files.pack_with(dictionary.as_ref()),
                    None => {
                        let size = read.files.text_len();
                        if text_read.fetch_add(size, Ordering::Relaxed) + size > pack_above {
                            read.files.pack();
                        }
                    }
                }
            }
            Ok(read)
        })
        .collect();
    let (mut sampled, mut rest) = (sampled.into_iter(), rest.into_iter());
    let mut read: Vec<Result<Fresh, LoadError>> = (0..folders.len())
        .map(|n| {
            let next = if n % step == 0 {
                sampled.next()
            } else {
                rest.next()
            };
            next.expect("every folder was read, in the sample or after it")
        })
        .collect();
    if dictionary.is_none() && text_read.into_inner() > pack_above {
        let maps: Vec<&SourceMap> = read.iter().filter_map(own_files).collect();
        let dictionary = learn_dictionary(&maps);
        read.par_iter_mut().for_each(|r| {
            if let Ok(Some(read)) = r {
                read.files.pack_with(dictionary.as_ref());
            }
        });
    }
    // A load without a cache numbers each item's files where they will lie in the catalog, and lets go of the
    // room its file list has to grow, on every core: gathering the items below is one thread's work, which at
    // 10,000 items everything after the load waited for. (A load with a cache first looks at each item's files
    // as numbered from its own first.)
    let numbered = !keeps;
    if numbered {
        let mut offsets = Vec::with_capacity(read.len());
        let mut next = files.len() as u32;
        for r in &read {
            offsets.push(next);
            if let Ok(Some(read)) = r {
                next += read.files.len() as u32;
            }
        }
        read.par_iter_mut().zip(offsets).for_each(|(r, offset)| {
            if let Ok(Some(read)) = r {
                let item = std::sync::Arc::get_mut(&mut read.item)
                    .expect("an item read now is held alone until it is gathered");
                shift_files(item, 0, offset);
                read.files.shrink_to_fit();
            }
        });
    }
    let mut stamps = stamps::Fresh::default();
    let mut items = Vec::with_capacity(read.len());
    // Room for every file at once: at 100,000 items the map grows to 840,000 files. Those of the folders known
    // are counted too: the preview server's pass takes nearly all.
    let known_files: usize = known_at.iter().flatten().map(|k| k.files.len()).sum();
    files.reserve(
        known_files
            + read
                .iter()
                .map(|r| match r {
                    Ok(Some(read)) => read.files.len(),
                    _ => 0,
                })
                .sum::<usize>(),
    );
    // Folders read now, and folders known whose items moved, go into the cache once the catalog is gathered.
    let mut fresh_loaded: Vec<(PathBuf, LoadedItem)> = Vec::new();
    let mut moved: Vec<(usize, std::sync::Arc<Item>, u32)> = Vec::new();
    for (n, ((_, folder), result)) in folders.iter().zip(read).enumerate() {
        let offset = files.len() as u32;
        match result? {
            Some(read) => {
                let ReadItem {
                    mut item,
                    files: mut own_files,
                    diagnostics: own_diagnostics,
                    stamps: own_stamps,
                } = *read;
                stamps.push(offset, std::sync::Arc::clone(&own_stamps));
                // A file reached through a link may change without any change in this folder: never kept.
                let keep = keeps && !reads_links(&item, &own_files);
                if !numbered {
                    let held = std::sync::Arc::get_mut(&mut item)
                        .expect("an item read now is held alone until it is gathered");
                    shift_files(held, 0, offset);
                }
                items.push(std::sync::Arc::clone(&item));
                if keep {
                    own_files.shrink_to_fit();
                    files.extend_from(&own_files);
                    for diagnostic in own_diagnostics.iter() {
                        diagnostics.push(diagnostic.clone());
                    }
                    let loaded = LoadedItem {
                        item,
                        offset,
                        files: own_files,
                        diagnostics: own_diagnostics,
                        stamps: own_stamps,
                        seen: AtomicU64::new(this_load),
                    };
                    fresh_loaded.push((folder.clone(), loaded));
                } else {
                    // Moved, not copied: nothing else holds them (840,000 paths at 100,000 items).
                    let renumber = files.append(own_files);
                    debug_assert_eq!(renumber(FileId(0)).0, offset);
                    for diagnostic in own_diagnostics.into_vec() {
                        diagnostics.push(diagnostic);
                    }
                }
            }
            None => {
                let hit = known_at[n].expect("a folder not read is one the cache holds");
                // Unchanged and at the same place: the same item. Moved by an edit before it (a file added
                // or removed): renumbered once, and kept so numbered.
                let item = if hit.offset == offset {
                    std::sync::Arc::clone(&hit.item)
                } else {
                    let mut item = (*hit.item).clone();
                    shift_files(&mut item, hit.offset, offset);
                    let item = std::sync::Arc::new(item);
                    moved.push((n, std::sync::Arc::clone(&item), offset));
                    item
                };
                files.extend_from(&hit.files);
                stamps.push(offset, std::sync::Arc::clone(&hit.stamps));
                for diagnostic in hit.diagnostics.iter() {
                    diagnostics.push(diagnostic.clone());
                }
                items.push(item);
            }
        }
    }
    drop(known_at);
    if let Some(cache) = cache {
        for (n, item, offset) in moved {
            if let Some(hit) = cache.folders.get_mut(&folders[n].1) {
                hit.item = item;
                hit.offset = offset;
            }
        }
        cache.folders.extend(fresh_loaded);
        // Folders gone from the catalog are forgotten with the rest of what changed.
        cache
            .folders
            .retain(|_, loaded| *loaded.seen.get_mut() == this_load);
    }
    Ok((items, stamps))
}

/// An item read from its folder by [`load_item`], its files numbered from 0 (from where they will lie in the
/// catalog, once a load without a cache has numbered them).
struct ReadItem {
    /// Shared once it is gathered into the catalog; held alone until then.
    item: std::sync::Arc<Item>,
    files: SourceMap,
    diagnostics: Diagnostics,
    stamps: std::sync::Arc<ItemStamps>,
}

/// The items loaded, and the stamps of their files, numbered as in the catalog.
type ItemsLoaded = (Vec<std::sync::Arc<Item>>, stamps::Fresh);

/// The stamps of one item's files, numbered from its first file.
type ItemStamps = stamps::Run;

/// What the load knows of the files the previous build read (see [`stamps`]).
struct Unchanged<'a> {
    known: Option<&'a stamps::Stamps>,
    /// When the load began: a file changed less than [`stamps::SETTLED`] before is not vouched for.
    began: std::time::SystemTime,
    changed: &'a std::sync::Arc<Changed>,
    /// The catalog folder as named, which the stamps' paths are within.
    root: &'a Path,
}

impl Unchanged<'_> {
    /// Whether any file can be taken unread: without stamps (a first build, or `--fresh`), looking at a file
    /// before reading it would only repeat the look its reading makes.
    fn knows_files(&self) -> bool {
        self.known.is_some_and(|known| !known.is_empty())
    }

    /// The names the folder of game records at `path` held when the previous build listed it, each with what
    /// that build read in its file, if the folder has the stamp it had then (`meta`, the look just taken at it).
    fn listing(
        &self,
        path: &Path,
        meta: &fs::Metadata,
    ) -> Option<impl Iterator<Item = (&str, &stamps::Known)>> {
        self.known?.listing(within(path, self.root), meta)
    }

    /// The file at `path`, added unread when the previous build read it and it has the same stamp (`meta`, the
    /// file's own metadata, when the caller has it; looked at here otherwise).
    fn take(
        &self,
        path: &Path,
        meta: Option<fs::Metadata>,
        files: &mut SourceMap,
    ) -> Option<FileId> {
        let known = self.known?.get(within(path, self.root))?;
        let meta = match meta {
            Some(meta) => meta,
            None => fs::symlink_metadata(path).ok()?,
        };
        self.take_as(path, &meta, known, files)
    }

    /// The file at `path`, added unread when it has the stamp (`meta`, a look just taken at it) the previous
    /// build read it with (`known`).
    fn take_as(
        &self,
        path: &Path,
        meta: &fs::Metadata,
        known: &stamps::Known,
        files: &mut SourceMap,
    ) -> Option<FileId> {
        if stamps::Stamp::of(meta)? != known.stamp {
            return None;
        }
        Some(files.add_unread(path, known, self.changed))
    }

    /// The record at `path` of the item `id` in `folder`, taken as the previous build parsed it (added unread)
    /// when it has the stamp it had then (see [`parsed`]): `meta`, the look the walk took at it, when it has
    /// one; looked at here otherwise.
    fn take_record(
        &self,
        path: &Path,
        (id, folder, meta): (&str, &Path, Option<fs::Metadata>),
        files: &mut SourceMap,
    ) -> Option<Item> {
        let records = &self.known?.records;
        let kept = records.get(within(path, self.root))?;
        let meta = match meta {
            Some(meta) => meta,
            None => fs::symlink_metadata(path).ok()?,
        };
        if stamps::Stamp::of(&meta)? != kept.stamp {
            return None;
        }
        // Numbered as the first file of the item once it is added below.
        let mut item = Item::new(
            id.to_string(),
            folder.to_path_buf(),
            FileId(files.len() as u32),
        );
        if !records.fill(kept, &mut item) {
            return None;
        }
        let known = stamps::Known {
            stamp: kept.stamp,
            hash: kept.hash,
            placeholder: false,
        };
        item.file = files.add_unread(path, &known, self.changed);
        Some(item)
    }
}

/// The sample the load reads first, and a dictionary is learnt from: at most this many items, taken at even
/// steps through the catalog (so that an archive ordered by kind of item lends it every kind), and of their
/// text at most this much, over which zstd takes a few tenths of a second.
const SAMPLE_ITEMS: usize = 400;
const SAMPLE_BYTES: usize = 6 << 20;

/// Of each sampled item, the dictionary learns from this much text at most: the start of an item, where its
/// record and rules lie, is what items have in common, and an item of thousands of game records must not
/// take the whole sample (or hold hundreds of megabytes while it is made).
const SAMPLE_ITEM_BYTES: usize = 128 << 10;

/// A dictionary for packing the texts of the items whose files are `maps` (see [`Dictionary`]); none for a
/// catalog too small to learn one from.
fn learn_dictionary(maps: &[&SourceMap]) -> Option<std::sync::Arc<Dictionary>> {
    let step = maps.len().div_ceil(SAMPLE_ITEMS).max(1);
    let texts: Vec<Vec<u8>> = maps
        .par_iter()
        .step_by(step)
        .map(|files| {
            let mut text = files.texts().into_bytes();
            text.truncate(SAMPLE_ITEM_BYTES);
            text
        })
        .collect();
    let mut samples = Vec::with_capacity(texts.len());
    let mut total = 0;
    for text in &texts {
        if total >= SAMPLE_BYTES {
            break;
        }
        total += text.len();
        samples.push(&text[..]);
    }
    Dictionary::learn(&samples)
}

/// Above this many bytes of item files' text a catalog's items hold their text packed (see
/// [`crate::source::Pack`]). Packing costs about a tenth of a build's work (compressing once, unpacking in each
/// step that reads the texts), worth it only where memory runs short: 256 MiB is about 18,000 items like the
/// shipped catalog's (10,000 of them build in about 430 MB unpacked). `LUDOTHECA_PACK_ABOVE` (bytes)
/// sets another mark, so that a test can build a small catalog packed (0 packs every item).
const PACK_ABOVE: usize = 256 << 20;

/// Whether a catalog of `text` bytes is past the mark above which its texts are held packed ([`PACK_ABOVE`]):
/// one whose memory is short.
pub fn memory_is_short(text: usize) -> bool {
    text > pack_above()
}

fn pack_above() -> usize {
    std::env::var("LUDOTHECA_PACK_ABOVE")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(PACK_ABOVE)
}

/// Renumber an item's files from a catalog where its first file was `from` to one where it is `to`.
fn shift_files(item: &mut Item, from: u32, to: u32) {
    let shift = |id: FileId| FileId(id.0 - from + to);
    item.file = shift(item.file);
    item.rules_file = item.rules_file.map(shift);
    for id in item
        .game_records
        .iter_mut()
        .chain(item.game_record_files.iter_mut())
    {
        *id = shift(*id);
    }
}

/// Whether any file the item read is a link; `files` holds the item's game records.
fn reads_links(item: &Item, files: &SourceMap) -> bool {
    let folder = &item.folder;
    let images = item.images.iter().filter_map(|i| {
        let name = image_name(&i.file.as_ref()?.value)?;
        Some(folder.join("images").join(name))
    });
    [folder.join("record.xml"), folder.join("rules.txt")]
        .into_iter()
        .chain(
            item.game_record_files
                .iter()
                .map(|&f| files.path(f).to_path_buf()),
        )
        .chain(images)
        .any(|path| fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink()))
}

/// Read the files the record's `<image>` elements name, each once, as the other files of the item are read.
fn load_images(
    reader: &Reader,
    folder: &Path,
    item: &mut Item,
    diagnostics: &mut Diagnostics,
) -> Result<(), LoadError> {
    // A record that names no picture reads nothing there (at 10,000 items, a look at each item's folder of
    // pictures was a tenth of a rebuild's looks at files).
    if item.images.is_empty() {
        return Ok(());
    }
    let images = folder.join("images");
    // Folders are never followed through links, as everywhere in the catalog.
    if fs::symlink_metadata(&images).is_ok_and(|m| m.file_type().is_symlink()) {
        diagnostics.push(read::linked_folder(&images));
        for image in &mut item.images {
            if image
                .file
                .as_ref()
                .and_then(|f| image_name(&f.value))
                .is_some()
            {
                image.found = ImageFile::Refused;
            }
        }
        return Ok(());
    }
    for image in &mut item.images {
        let Some(name) = image.file.as_ref().and_then(|f| image_name(&f.value)) else {
            continue;
        };
        image.found = match reader.read(&images.join(name), FileKind::Image, diagnostics)? {
            Found::Read(bytes) => ImageFile::Read(bytes.into()),
            Found::Refused => ImageFile::Refused,
            Found::Absent => ImageFile::Absent,
        };
    }
    Ok(())
}

fn load_item(
    reader: &Reader,
    (id, folder, record_meta): (String, &Path, Option<fs::Metadata>),
    files: &mut SourceMap,
    diagnostics: &mut Diagnostics,
    unchanged: &Unchanged,
) -> Result<(Item, ItemStamps), LoadError> {
    // The stamps of the rules file and game records read, as seen when they were opened (those taken unread
    // carry the previous build's).
    let mut seen: HashMap<FileId, stamps::Stamp> = HashMap::new();
    let record_path = folder.join("record.xml");
    let mut item = match unchanged.take_record(&record_path, (&id, folder, record_meta), files) {
        Some(item) => item,
        None => {
            // The walk found the record there, so it is opened at once; a link put in its place goes the
            // careful way.
            let found = reader.read_listed_stamped(&record_path, FileKind::Record, diagnostics)?;
            let said = diagnostics.len();
            let mut stamp = None;
            let found = found.map(|(bytes, s)| {
                stamp = s;
                bytes
            });
            match add_text(&record_path, found, files, diagnostics)? {
                Found::Read((file, utf8)) => {
                    let mut item = Item::new(id, folder.to_path_buf(), file);
                    if utf8 {
                        record::parse(files, file, &mut item, diagnostics);
                    }
                    // Kept as parsed for the next build only when the reader had nothing to say of it: what it
                    // said must be said again.
                    if let Some(stamp) = stamp.filter(|_| utf8 && diagnostics.len() == said) {
                        seen.insert(file, stamp);
                    }
                    item
                }
                // Refused and reported (or gone since the walk): the item stays, with an empty record, so that
                // it never vanishes in silence.
                Found::Refused | Found::Absent => {
                    let file = files.add(record_path, String::new());
                    Item::new(id, folder.to_path_buf(), file)
                }
            }
        }
    };

    let rules_path = folder.join("rules.txt");
    if let Some(file) = unchanged.take(&rules_path, None, files) {
        item.has_rules_file = true;
        item.rules_file = Some(file);
    } else {
        let found = reader.read_stamped(&rules_path, FileKind::Rules, diagnostics)?;
        match add_stamped(&rules_path, found, files, diagnostics, &mut seen)? {
            Found::Absent => {}
            Found::Refused => item.has_rules_file = true,
            Found::Read((file, utf8)) => {
                item.has_rules_file = true;
                item.rules_file = utf8.then_some(file);
            }
        }
    }
    let games_dir = folder.join("games");
    match fs::symlink_metadata(&games_dir) {
        Ok(meta) if meta.file_type().is_symlink() => {
            diagnostics.push(read::linked_folder(&games_dir));
        }
        Ok(meta) if meta.is_dir() => {
            item.games_folder =
                stamps::Stamp::of_folder(&meta).filter(|stamp| stamp.settled(unchanged.began));
            if let Some(names) = unchanged.listing(&games_dir, &meta) {
                // The folder holds the names it held: each file is looked at by name, and read the careful
                // way when it changed.
                for (name, known) in names {
                    let path = games_dir.join(name);
                    let taken = fs::symlink_metadata(&path)
                        .ok()
                        .and_then(|meta| unchanged.take_as(&path, &meta, known, files));
                    match taken {
                        Some(file) => item.add_game(file, true),
                        None => {
                            let found =
                                reader.read_stamped(&path, FileKind::GameRecord, diagnostics)?;
                            read_game(&path, found, &mut item, files, diagnostics, &mut seen)?;
                        }
                    }
                }
            } else {
                // Listed with the standard library rather than walked: its look at an entry is made from the
                // open folder (`fstatat`), where a walk's is a path the kernel follows from the catalog's
                // root, and a rebuild looks at every game record of the catalog.
                list_games(
                    reader,
                    &games_dir,
                    &mut item,
                    files,
                    diagnostics,
                    unchanged,
                    &mut seen,
                )?;
            }
        }
        // A game without a `games/` folder: its records may sit in a folder named nearly so, which would
        // otherwise leave them out without a word. Looked for by name, two looks for such a game only, rather
        // than by listing every item's folder in every build.
        _ if item.kind == Some(Kind::Game) => {
            for name in MISNAMED_GAMES_FOLDERS {
                let near = folder.join(name);
                if fs::symlink_metadata(&near).is_ok_and(|m| m.is_dir()) {
                    diagnostics.push(
                        Diagnostic::error(
                            "E048",
                            format!(
                                "`{name}/` is not read: a game's records are in its folder `games/`"
                            ),
                        )
                        .in_file(&near)
                        .with_help("rename the folder `games`"),
                    );
                }
            }
        }
        _ => {}
    }
    load_images(reader, folder, &mut item, diagnostics)?;
    let (record_hash, hashed) = item.hash_files(files, reader.named_root());
    // Kept for the next build: the stamps of the files read that have settled, the record's first (the
    // stamps are in the order of the files).
    let kept = std::iter::once((item.file, record_hash, false))
        .chain(hashed)
        .filter_map(|(file, hash, placeholder)| {
            let stamp = *seen.get(&file)?;
            stamp.settled(unchanged.began).then_some((
                file,
                stamps::Known {
                    stamp,
                    hash,
                    placeholder,
                },
            ))
        })
        .collect();
    Ok((item, kept))
}

/// Lists the folder of game records `games_dir` of `item`, and takes or reads each game record in it (see
/// [`load_item`]).
fn list_games(
    reader: &Reader,
    games_dir: &Path,
    item: &mut Item,
    files: &mut SourceMap,
    diagnostics: &mut Diagnostics,
    unchanged: &Unchanged,
    seen: &mut HashMap<FileId, stamps::Stamp>,
) -> Result<(), LoadError> {
    for entry in listing(games_dir)? {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.') {
            continue;
        }
        if !name.ends_with(".game") {
            if let Some(meant) = a_game_record_misnamed(&name) {
                diagnostics.push(
                    Diagnostic::error(
                        "E048",
                        format!("`{name}` is not read: a game record's name ends in `.game`"),
                    )
                    .in_file(&entry.path())
                    .with_help(format!("rename it `{meant}`")),
                );
                // Listed again by the next build, so that it says so again.
                item.games_folder = None;
            }
            continue;
        }
        // The listing's type and look at the entry do not follow a link.
        let listed = entry.file_type().is_ok_and(|t| t.is_file());
        let meta = if listed && unchanged.knows_files() {
            entry.metadata().ok()
        } else {
            None
        };
        let path = entry.path();
        if let Some(meta) = meta
            && let Some(file) = unchanged.take(&path, Some(meta), files)
        {
            item.add_game(file, true);
            continue;
        }
        let kind = FileKind::GameRecord;
        let found = if listed {
            reader.read_listed_stamped(&path, kind, diagnostics)?
        } else {
            reader.read_stamped(&path, kind, diagnostics)?
        };
        read_game(&path, found, item, files, diagnostics, seen)?;
    }
    Ok(())
}

/// Folder names an archivist may give a game's records by a slip, in place of `games`.
const MISNAMED_GAMES_FOLDERS: [&str; 2] = ["game", "Games"];

/// The name a file of a `games/` folder was meant to have, when its own looks like a game record's written
/// wrong: `demo.game.txt` (an editor's extension), `demo.GAME`, `demo.game~` is not (an editor's backup).
fn a_game_record_misnamed(name: &str) -> Option<String> {
    let lower = name.to_ascii_lowercase();
    let at = lower.rfind(".game")?;
    let rest = &lower[at + ".game".len()..];
    let meant = format!("{}.game", &name[..at]);
    match rest {
        "" => Some(meant),
        ".txt" | ".pgn" | ".md" => Some(meant),
        _ => None,
    }
}

/// Adds the game record at `path` to `item` as its reading `found` it.
fn read_game(
    path: &Path,
    found: Found<read::Stamped>,
    item: &mut Item,
    files: &mut SourceMap,
    diagnostics: &mut Diagnostics,
    seen: &mut HashMap<FileId, stamps::Stamp>,
) -> Result<(), LoadError> {
    if let Found::Read((file, utf8)) = add_stamped(path, found, files, diagnostics, seen)? {
        item.add_game(file, utf8);
    }
    Ok(())
}

/// [`add_text`] for bytes read with their stamp: notes the stamp of a file whose text is sound.
fn add_stamped(
    path: &Path,
    found: Found<read::Stamped>,
    files: &mut SourceMap,
    diagnostics: &mut Diagnostics,
    seen: &mut HashMap<FileId, stamps::Stamp>,
) -> Result<Found<(FileId, bool)>, LoadError> {
    let mut stamp = None;
    let found = found.map(|(bytes, s)| {
        stamp = s;
        bytes
    });
    let added = add_text(path, found, files, diagnostics)?;
    if let (Found::Read((file, true)), Some(stamp)) = (&added, stamp) {
        seen.insert(*file, stamp);
    }
    Ok(added)
}

/// `path` within the catalog folder `root`, or `path` itself when it is not in it: what keys an item's files,
/// so that the same catalog named another way (`./catalog`, from another directory) keys them alike.
pub fn within<'p>(path: &'p Path, root: &Path) -> &'p Path {
    // The load's paths are the root joined with names read from folders: their bytes are the root's, a
    // separator and plain names. Those are cut by their bytes; `strip_prefix` compares component by
    // component, which at 10,000 items was a tenth of a rebuild's load, and still decides every other path.
    #[cfg(unix)]
    if let Some(rest) = plainly_within(path, root) {
        return rest;
    }
    path.strip_prefix(root).unwrap_or(path)
}

/// What [`within`] gives for a path whose bytes are `root`'s, one separator and a relative path of plain names
/// (no empty name, `.` or trailing separator, which components would drop); `None` for any other.
#[cfg(unix)]
fn plainly_within<'p>(path: &'p Path, root: &Path) -> Option<&'p Path> {
    use std::os::unix::ffi::OsStrExt;
    let bytes = path.as_os_str().as_bytes();
    let root = root.as_os_str().as_bytes();
    if root.is_empty() {
        return None;
    }
    let rest = bytes.strip_prefix(root)?;
    let rest = if root.ends_with(b"/") {
        rest
    } else {
        rest.strip_prefix(b"/")?
    };
    let plain = !rest.is_empty()
        && rest
            .split(|&b| b == b'/')
            .all(|name| !name.is_empty() && name != b".");
    plain.then(|| Path::new(std::ffi::OsStr::from_bytes(rest)))
}

/// Read the text of one record as [`load`] reads a `record.xml`, with no catalog around it (for tools and the
/// property tests): the item, with problems reported into `diagnostics`. The item's folder is named `id`.
pub fn read_record(
    id: &str,
    text: String,
    files: &mut SourceMap,
    diagnostics: &mut Diagnostics,
) -> Item {
    let folder = PathBuf::from(id);
    let file = files.add(folder.join("record.xml"), text);
    let mut item = Item::new(id.to_string(), folder, file);
    record::parse(files, file, &mut item, diagnostics);
    let _ = item.hash_files(files, Path::new(""));
    item
}

/// Read a file as UTF-8 into the source map, unless it is absent or the reader refused it (and said why). A
/// file that is not UTF-8 is still added (decoded lossily, for quoting) and reported with the position of its
/// first bad byte; the flag says whether the text is sound.
fn read_text(
    reader: &Reader,
    path: &Path,
    kind: FileKind,
    files: &mut SourceMap,
    diagnostics: &mut Diagnostics,
) -> Result<Found<(FileId, bool)>, LoadError> {
    let found = reader.read(path, kind, diagnostics)?;
    add_text(path, found, files, diagnostics)
}

/// The bytes the reader found at `path` as UTF-8 text in the source map (see [`read_text`]).
fn add_text(
    path: &Path,
    found: Found<Vec<u8>>,
    files: &mut SourceMap,
    diagnostics: &mut Diagnostics,
) -> Result<Found<(FileId, bool)>, LoadError> {
    let bytes = match found {
        Found::Read(bytes) => bytes,
        Found::Refused => return Ok(Found::Refused),
        Found::Absent => return Ok(Found::Absent),
    };
    match decode(bytes) {
        Ok(text) => Ok(Found::Read((files.add(path.to_path_buf(), text), true))),
        Err(NotUtf8 {
            offset,
            byte,
            lossy,
        }) => {
            let file = files.add(path.to_path_buf(), lossy);
            diagnostics.push(
                Diagnostic::error(
                    "E004",
                    format!("invalid UTF-8: byte 0x{byte:02X} at offset {offset}"),
                )
                .at(files, file, offset..offset + 1)
                .with_help("save the file as UTF-8"),
            );
            Ok(Found::Read((file, false)))
        }
    }
}

/// Text that is not UTF-8: where the first bad byte is, and a lossy copy of the text for quoting.
#[derive(Clone, Debug)]
pub struct NotUtf8 {
    pub offset: usize,
    pub byte: u8,
    /// Lossy decoding keeps the valid prefix byte for byte, so `offset` is right in this copy too.
    pub lossy: String,
}

/// A file's bytes as the loader takes them for every text file of the catalog: UTF-8, with a leading byte
/// order mark dropped.
pub fn decode(bytes: Vec<u8>) -> Result<String, NotUtf8> {
    match String::from_utf8(bytes) {
        Ok(mut text) => {
            // A byte order mark is not text: left in, it would hide a heading's `#` from Markdown, a first
            // key from TOML or a first tag from a game record, and reach the pages as an invisible character.
            if text.starts_with('\u{feff}') {
                text.drain(..'\u{feff}'.len_utf8());
            }
            Ok(text)
        }
        Err(err) => {
            let offset = err.utf8_error().valid_up_to();
            let bytes = err.into_bytes();
            Err(NotUtf8 {
                offset,
                byte: bytes[offset],
                lossy: String::from_utf8_lossy(&bytes).into_owned(),
            })
        }
    }
}

/// The shipped catalog copied into `root`, for a test that changes it.
#[cfg(test)]
pub(crate) fn copy_shipped(root: &Path) {
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("catalog");
    for entry in WalkDir::new(&shipped) {
        let entry = entry.expect("the shipped catalog lists");
        let to = root.join(entry.path().strip_prefix(&shipped).unwrap());
        if entry.file_type().is_dir() {
            fs::create_dir_all(&to).unwrap();
        } else {
            fs::copy(entry.path(), &to).unwrap();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn within_cuts_as_strip_prefix_does() {
        let roots = [
            "catalog",
            "catalog/",
            "./catalog",
            "/a/b",
            "/",
            "a/./b",
            "a/b/.",
            "",
            ".",
        ];
        let rests = [
            "games/x/rules.txt",
            "x",
            "",
            "/x",
            "./x",
            "x/./y",
            "x//y",
            "x/",
            "x/.",
            ".",
            "..",
            "x/../y",
            ".hidden",
        ];
        for root in roots {
            for rest in rests {
                for path in [
                    format!("{root}/{rest}"),
                    format!("{root}{rest}"),
                    std::path::Path::new(root).join(rest).display().to_string(),
                ] {
                    let (path, root) = (std::path::Path::new(&path), std::path::Path::new(root));
                    assert_eq!(
                        super::within(path, root),
                        path.strip_prefix(root).unwrap_or(path),
                        "{path:?} within {root:?}"
                    );
                }
            }
        }
    }

    /// A large catalog holds millions of values from the load to the end of a build: a field added here
    /// costs its size that many times.
    #[test]
    fn a_value_stays_small_and_keeps_its_positions() {
        assert!(
            std::mem::size_of::<Value>() <= 48,
            "{}",
            std::mem::size_of::<Value>()
        );
        let mut value = Value::new(&terms::TERMS[0], Namespace::Dcterms, 10..23, 24);
        assert_eq!((value.span(), value.text_span()), (10..23, 24..24));
        value.set_text_span(24..40);
        assert_eq!(value.text_span(), 24..40);
        assert_eq!(value.lang(), None);
        let lang = Spanned {
            value: "hi".to_string(),
            span: 1..3,
        };
        value.set_attributes(vec![(Attribute::Lang, lang.clone())]);
        assert_eq!(value.lang(), Some(&lang));
        assert_eq!(value.cite(), None);
    }

    /// What a list shows of a record is hashed once, as the record is parsed: the same as made again from the
    /// item, blind to the descriptions, and changed by anything a list shows.
    #[test]
    fn what_a_list_shows_of_a_record_is_hashed_as_it_is_parsed() {
        let record = |title: &str, described: &str, subject: &str| {
            format!(
                r#"<record xmlns="urn:ludotheca:record:1" xmlns:dcterms="http://purl.org/dc/terms/" kind="game">
  <dcterms:title>{title}</dcterms:title>
  <dcterms:description>{described}</dcterms:description>
  <dcterms:subject>{subject}</dcterms:subject>
</record>"#
            )
        };
        let read = |text: String| {
            let mut files = SourceMap::default();
            let mut diagnostics = Diagnostics::new();
            read_record("game", text, &mut files, &mut diagnostics)
        };
        let first = read(record("Pachisi", "A race game.", "Race"));
        let made = first.record_listed.expect("made as the record is parsed");
        assert_eq!(made, first.record_listed());
        let described = read(record("Pachisi", "A race game of India.", "Race"));
        assert_eq!(described.record_listed, Some(made));
        assert_eq!(described.listed_hash(), first.listed_hash());
        for other in [
            record("Chaupar", "A race game.", "Race"),
            record("Pachisi", "A race game.", "Cross and circle"),
        ] {
            let other = read(other);
            assert_ne!(other.record_listed, Some(made));
            assert_ne!(other.listed_hash(), first.listed_hash());
        }
        // The item's own parts beside the record's: whether it has a rules file.
        let mut ruled = read(record("Pachisi", "A race game.", "Race"));
        ruled.has_rules_file = true;
        assert_ne!(ruled.listed_hash(), first.listed_hash());
    }

    #[test]
    fn a_path_within_the_catalog_folder_is_the_same_however_the_folder_is_named() {
        let cases = [
            (
                "catalog/games/a/record.xml",
                "catalog",
                "games/a/record.xml",
            ),
            ("./games/a/record.xml", ".", "games/a/record.xml"),
            (
                "/srv/cat/games/a/record.xml",
                "/srv/cat",
                "games/a/record.xml",
            ),
            (
                "/srv/cat/games/a/record.xml",
                "/srv/cat/",
                "games/a/record.xml",
            ),
            ("catalog/./games/a", "catalog", "games/a"),
            // A folder whose name only begins with the catalog's is not in it.
            ("catalog-old/games/a", "catalog", "catalog-old/games/a"),
            ("elsewhere/a", "catalog", "elsewhere/a"),
        ];
        for (path, root, expected) in cases {
            let got = within(Path::new(path), Path::new(root));
            assert_eq!(got, Path::new(expected), "{path} within {root}");
        }
    }

    #[test]
    fn a_change_forgets_the_item_folder_it_is_in_or_every_item_folder_under_it() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("catalog");
        let mut cache = LoadCache::default();
        load_with(&root, &mut Diagnostics::new(), Some(&mut cache)).expect("the catalog loads");
        let all = cache.folders.len();
        let game = root.join("games/bagh-chal");
        assert!(
            cache.folders.contains_key(&game),
            "{:?}",
            cache.folders.keys()
        );

        // A file in an item folder, at any depth: that item only.
        cache.changed(&game.join("games/a-new-record.game"));
        assert!(!cache.folders.contains_key(&game));
        assert_eq!(cache.folders.len(), all - 1);

        // Outside every item folder and above none: nothing.
        cache.changed(&root.join("ludotheca.toml"));
        assert_eq!(cache.folders.len(), all - 1);

        // An item folder itself, removed or moved.
        let board = cache
            .folders
            .keys()
            .find(|f| f.starts_with(root.join("boards")))
            .cloned()
            .expect("the catalog has a board");
        cache.changed(&board);
        assert!(!cache.folders.contains_key(&board));
        assert_eq!(cache.folders.len(), all - 2);

        // A folder of items: every item under it.
        let games = root.join("games");
        let under = cache
            .folders
            .keys()
            .filter(|f| f.starts_with(&games))
            .count();
        assert!(under > 0);
        cache.changed(&games);
        assert_eq!(cache.folders.len(), all - 2 - under);
        assert!(cache.folders.keys().all(|f| !f.starts_with(&games)));
    }

    #[test]
    fn a_folder_the_walk_no_longer_finds_leaves_the_cache_and_the_others_stay() {
        let scratch = tempfile::tempdir().expect("a scratch folder");
        let root = scratch.path().join("catalog");
        copy_shipped(&root);
        let mut cache = LoadCache::default();
        let first = load_with(&root, &mut Diagnostics::new(), Some(&mut cache)).unwrap();
        let all = cache.folders.len();
        let gone = root.join("games/bagh-chal");
        assert!(cache.folders.contains_key(&gone));

        // Removed with no word to the cache about it, and the walk made again (as after a missed change).
        fs::remove_dir_all(&gone).unwrap();
        cache.walked = None;
        let second = load_with(&root, &mut Diagnostics::new(), Some(&mut cache)).unwrap();
        assert_eq!(second.items.len(), first.items.len() - 1);
        assert!(!cache.folders.contains_key(&gone));
        assert_eq!(cache.folders.len(), all - 1);
        // The items before it in path order were taken from the cache as they were, not read again (those
        // after it are renumbered, their files having moved up by the removed item's).
        let before_gone: Vec<_> = second.items.iter().filter(|i| i.folder < gone).collect();
        assert!(!before_gone.is_empty());
        for item in before_gone {
            let was = first
                .items
                .iter()
                .find(|i| i.folder == item.folder)
                .unwrap();
            assert!(std::sync::Arc::ptr_eq(was, item), "{}", item.id);
        }
    }
}
