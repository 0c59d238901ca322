//! The offline search index, split so that a query loads only the few parts it needs, however large the
//! catalog. Pages opened from disk cannot fetch files, so every part is a classic script, inserted as a
//! `<script>` element by the search script when a query needs it; a part hands its data to
//! `window.LUDOTHECA_SEARCH_SHARD(name, data)` (nothing is ever evaluated as text).
//!
//! - `search-index.js`, the manifest (`window.LUDOTHECA_SEARCH`): the number of documents and of items, the
//!   documents per chunk, and the prefixes that have a word shard (`words`) or a prefix list (`prefixes`).
//! - `search-index/w-<prefix>.js`, a word shard: every indexed word that starts with the prefix, each with its
//!   postings, `[word, title, name, other]`: the documents where the word is the first word of the title, a word
//!   of a name (the title and alternative titles), or another word (tags, places, people, sources, names not yet
//!   catalogued, the description). A document is in only the best of the three.
//! - `search-index/p-<prefix>.js`, a prefix list: `[title, name, other]` for every word that starts with the
//!   prefix together, written for each prefix whose words did not fit one shard. A query word as short as that
//!   prefix ("t", "te") reads it instead of every shard below it.
//! - `search-index/d-<n>.js`, a chunk of document metadata, `[title, url, kind, summary, alternatives]` for
//!   documents `n * chunk` onwards, loaded only for the results shown.
//!
//! The shards form a trie: the root is always split by the first character, and a prefix whose words weigh more
//! than [`SHARD_BYTES`] is split by the next character (a word equal to the prefix itself lives in its prefix
//! list). A query word therefore needs exactly one file: the word shard of its longest listed prefix, or the
//! prefix list of the word itself.
//!
//! Documents are numbered items first, then tags, places, people and sources together, each of the two groups by
//! folded title, so that the number alone ranks ties as the search script did when it held every title (by
//! title; an item never ties with the rest, as it scores a little more).
//! Postings are sorted document numbers written as a string: gaps in base 32 digits of a base64url alphabet
//! (`A`-`f` end a number, `g`-`_` carry five more bits), or, when shorter, `*` and a bitmap of six documents per
//! character.
//!
//! Every word is folded (lowercase, no diacritics) here, and the search script folds the query the same way.
//!
//! A build leaves its words for the next one ([`WORDS`], see `kept`). When the next build numbers the documents
//! the same way, it starts from those postings and files again only the documents whose part changed, and keeps
//! every file that holds none of their words or documents; the files are the same, byte for byte, as an index
//! made in full.

use std::borrow::Cow;
use std::io::Write;
use std::sync::Arc;

use rayon::prelude::*;
use serde_json::json;

use super::memo::{Indexed, Items, Part};
use super::meta::script_json;
use super::reuse::{Counted, Export};
use crate::archive::text::{self, one_line};
use crate::archive::{Archive, Target};
use crate::fingerprint::{Digest, digest};

mod kept;

pub use kept::FILE as WORDS;

/// The manifest, loaded the first time the search box is used.
const MANIFEST: &str = "search-index.js";
/// The folder of the shards and chunks.
const FOLDER: &str = "search-index";
/// Summaries in results stay short: they are loaded with every result shown.
const SUMMARY_CHARS: usize = 110;
/// Documents per metadata chunk: small, because the results a query shows may sit in as many chunks.
const CHUNK_DOCS: usize = 64;
/// A word shard above this size (in bytes of its entries) is split by the next character of its words. A shard
/// of one word cannot be split and may be larger.
const SHARD_BYTES: usize = 32 * 1024;
/// The digits of postings, in the order of the base64url alphabet.
const DIGITS: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// One search result as the index sees it. Its texts are borrowed from the archive where they can be: at
/// 100,000 items the documents are made all at once, before any is folded, and copies of every title,
/// description and tag name would be a few hundred megabytes.
#[derive(Clone, Debug)]
struct Doc<'a> {
    /// Shown, and its first word ranks first.
    title: Cow<'a, str>,
    /// A page of the site, relative to its root.
    url: Cow<'a, str>,
    kind: &'static str,
    /// Items (games, boards, evidence) rank a little above tags, places, people and sources.
    item: bool,
    /// Texts whose words rank as names: the title and alternative titles.
    names: Vec<Cow<'a, str>>,
    /// Texts whose words rank last.
    other: Vec<Cow<'a, str>>,
    summary: String,
    /// Shown when a query matched one of them rather than the title.
    alternatives: Vec<String>,
    /// The archive entry this document is, for an item.
    entry: Option<usize>,
}

/// Where a word was found in a document, best last; the search script scores them 4, 20 and 30.
const OTHER: usize = 0;
const NAME: usize = 1;
const TITLE: usize = 2;

/// Keeps the previous site's file at a path as it was, saying whether it could
/// ([`super::output::Staging::keep_as_it_was`]).
pub type Keep<'k> = dyn Fn(&str) -> std::io::Result<bool> + Sync + 'k;

/// The search index this build makes.
pub struct IndexFiles {
    /// The files to write, by path relative to the site's root, in a stable order. A file kept from the previous
    /// site (see [`index_files`]) is not among them.
    pub files: Vec<(String, String)>,
    /// The words as this build filed them, for the next build ([`WORDS`]).
    pub words: Vec<u8>,
}

/// Every file of the search index. Each item's part of the index (its summary, alternative titles and folded
/// words) is found through `items` and written to `parts`, the file the next build takes unchanged items' parts
/// from ([`Export::Search`]). With `before`, the previous build's [`WORDS`] and a way to keep the previous site's
/// files, the postings are the previous ones with only the changed documents taken out and put back, and a file
/// none of whose words or documents changed is kept as it was instead of being made.
pub fn index_files(
    archive: &Archive,
    items: &Items,
    parts: &mut Counted,
    before: Option<(&[u8], &Keep<'_>)>,
) -> std::io::Result<IndexFiles> {
    let citations: Vec<String> = archive
        .sources
        .iter()
        .map(|source| super::cite::full(source.entry))
        .collect();
    let made = Made {
        archive,
        citations: &citations,
        items,
    };
    shard(
        documents(archive, &citations),
        SHARD_BYTES,
        Some((&made, parts)),
        before,
    )
}

/// The previous build's index, and how to keep one of its files.
struct Before<'k> {
    kept: kept::Kept,
    keep: &'k Keep<'k>,
}

/// Every document, an item's with its title, page and kind only: the rest of it is its part ([`Found`]).
fn documents<'a>(archive: &'a Archive, citations: &'a [String]) -> Vec<Doc<'a>> {
    let mut docs: Vec<Doc> = archive
        .entries
        .iter()
        .enumerate()
        .map(|(index, entry)| Doc {
            title: entry.title.as_str().into(),
            url: entry.url.as_str().into(),
            kind: entry.kind.as_str(),
            item: true,
            names: Vec::new(),
            other: Vec::new(),
            summary: String::new(),
            alternatives: Vec::new(),
            entry: Some(index),
        })
        .collect();
    facet_documents(archive, citations, &mut docs);
    docs
}

/// An item's part as found (kept or made now), with what the index of parts keeps of it.
type Kept = (Option<Indexed>, Arc<str>);

/// A document's folded words, each with the best place it has there.
type Words = Vec<(String, usize)>;

/// How an item's part of the index is made, or found already made.
struct Made<'a> {
    archive: &'a Archive<'a>,
    /// The sources' full citations, by source.
    citations: &'a [String],
    items: &'a Items<'a>,
}

/// An item's part of the index: what its document shows besides its title, and its words.
#[derive(Debug, PartialEq)]
struct Found {
    summary: String,
    alternatives: Vec<String>,
    /// Each folded word with the best place it has, sorted by word.
    words: Vec<(String, usize)>,
}

impl Found {
    /// The part as kept: the summary and alternative titles as JSON (which leaves no tab or line break bare),
    /// a tab, then each word after the digit of its place, a space between two. Folded words hold neither.
    fn encode(&self) -> String {
        encode_part(&self.summary, &self.alternatives, &self.words)
    }

    /// A part [`Found::encode`] wrote; `None` for anything else.
    #[cfg(test)]
    fn decode(part: &str) -> Option<Found> {
        let (summary, alternatives, words) = Found::shown(part)?;
        Some(Found {
            summary,
            alternatives,
            words: words
                .into_iter()
                .map(|w| {
                    let (word, place) = w.of(part);
                    (word.to_string(), place)
                })
                .collect(),
        })
    }

    /// What a part [`Found::encode`] wrote shows (its summary and alternative titles), and where in it each of
    /// its words lies, with its place; `None` for anything else. The words are found where the documents are
    /// read, on every core: the index is then made from them on one thread without reading the part again.
    fn shown(part: &str) -> Option<(String, Vec<String>, Vec<WordAt>)> {
        let (meta, words) = part.split_once('\t')?;
        let (summary, alternatives): (String, Vec<String>) = serde_json::from_str(meta).ok()?;
        let mut at = Vec::new();
        if !words.is_empty() {
            let mut start = meta.len() + 1;
            for w in words.split(' ') {
                let well_formed =
                    w.len() > 1 && matches!(w.as_bytes()[0], b'0'..=b'2') && w.is_char_boundary(1);
                if !well_formed {
                    return None;
                }
                let place = w.as_bytes()[0] - b'0';
                at.push(WordAt {
                    start: u32::try_from(start + 1).ok()?,
                    end: u32::try_from(start + w.len()).ok()?,
                    place,
                });
                start += w.len() + 1;
            }
        }
        Some((summary, alternatives, at))
    }
}

/// What [`Found::encode`] writes, from the parts of a [`Found`].
fn encode_part(summary: &str, alternatives: &[String], words: &[(String, usize)]) -> String {
    let meta = serde_json::to_string(&(summary, alternatives)).expect("strings serialise");
    let mut part = String::with_capacity(meta.len() + 1 + words.len() * 8);
    part.push_str(&meta);
    part.push('\t');
    for (n, (word, at)) in words.iter().enumerate() {
        if n > 0 {
            part.push(' ');
        }
        part.push(char::from(b'0' + *at as u8));
        part.push_str(word);
    }
    part
}

/// Where a word lies in a kept part ([`Found::shown`]), and its place (see [`OTHER`]).
#[derive(Clone, Copy, Debug, PartialEq)]
struct WordAt {
    start: u32,
    end: u32,
    place: u8,
}

impl WordAt {
    fn of(self, part: &str) -> (&str, usize) {
        (
            &part[self.start as usize..self.end as usize],
            usize::from(self.place),
        )
    }
}

/// A document's words as [`postings`] reads them: made now, or as a kept part writes them.
enum DocWords {
    Made(Words),
    /// A kept part, and where its words lie in it.
    Kept(Arc<str>, Vec<WordAt>),
}

/// The part of the archive's entry `index`, made from the item's values and the archive's names for its tags,
/// places, people and sources.
fn item_part(made: &Made, index: usize) -> Found {
    let (archive, citations) = (made.archive, made.citations);
    let entry = &archive.entries[index];
    let item = entry.item;
    let alternatives: Vec<String> = item
        .values_of("alternative")
        .map(|v| one_line(&v.text))
        .collect();
    let mut other: Vec<Cow<str>> = Vec::new();
    other.extend(
        entry
            .tags
            .iter()
            .map(|&t| archive.tags[t].name.as_str().into()),
    );
    other.extend(
        entry
            .places
            .iter()
            .map(|&p| archive.places[p].name.as_str().into()),
    );
    other.extend(
        entry
            .people
            .iter()
            .map(|&p| archive.people[p].name.as_str().into()),
    );
    for v in &item.values {
        if let Some(cite) = &v.cite()
            && let Some(source) = archive.source_number(&cite.value)
        {
            other.push(citations[source].as_str().into());
        }
    }
    for r in &entry.relations {
        if let Target::Name(n) = &r.target {
            other.push(n.as_str().into());
        }
    }
    let mut descriptions = item.values_of("description").map(|v| &*v.text);
    let description: Cow<str> = match (descriptions.next(), descriptions.next()) {
        (None, _) => Cow::Borrowed(""),
        (Some(one), None) => Cow::Borrowed(one),
        (Some(first), Some(second)) => {
            let mut all = vec![first, second];
            all.extend(descriptions);
            Cow::Owned(all.join(" "))
        }
    };
    let summary = text::summary(&description, SUMMARY_CHARS);
    other.push(description);
    let mut names: Vec<Cow<str>> = Vec::with_capacity(1 + alternatives.len());
    names.push(entry.title.as_str().into());
    names.extend(alternatives.iter().map(|a| Cow::Borrowed(a.as_str())));
    let mut words = places(&entry.title, &names, &other);
    words.sort_unstable();
    Found {
        summary,
        alternatives,
        words,
    }
}

/// The documents of the tags, places, people and sources, after the items'.
fn facet_documents<'a>(archive: &'a Archive, citations: &'a [String], docs: &mut Vec<Doc<'a>>) {
    let facets = [
        ("tag", "tags", &archive.tags),
        ("place", "places", &archive.places),
    ];
    for (kind, folder, list) in facets {
        for facet in list.iter() {
            docs.push(Doc {
                title: facet.name.as_str().into(),
                url: format!("{folder}/{}/index.html", facet.slug).into(),
                kind,
                item: false,
                names: vec![facet.name.as_str().into()],
                other: Vec::new(),
                summary: format!("{} item(s)", facet.items.len()),
                alternatives: Vec::new(),
                entry: None,
            });
        }
    }
    for person in &archive.people {
        docs.push(Doc {
            title: person.name.as_str().into(),
            url: format!("people/{}/index.html", person.slug).into(),
            kind: "person",
            item: false,
            names: vec![person.name.as_str().into()],
            other: Vec::new(),
            summary: String::new(),
            alternatives: Vec::new(),
            entry: None,
        });
    }
    for (source, full) in archive.sources.iter().zip(citations) {
        docs.push(Doc {
            title: super::cite::short(source.entry).into(),
            url: format!("sources/{}/index.html", source.slug).into(),
            kind: "source",
            item: false,
            names: vec![source.entry.get("title").unwrap_or_default().into()],
            other: vec![full.as_str().into()],
            summary: full.clone(),
            alternatives: Vec::new(),
            entry: None,
        });
    }
}

/// Documents in the order that numbers them: items first, each group by folded title (then as written, then by
/// page, so that the order never depends on the order of the input).
fn order(docs: Vec<Doc>) -> Vec<Doc> {
    let mut keyed: Vec<((bool, String), Doc)> = docs
        .into_par_iter()
        .map(|d| ((!d.item, text::fold(&d.title)), d))
        .collect();
    keyed.sort_by(|(a, x), (b, y)| {
        a.cmp(b)
            .then_with(|| x.title.cmp(&y.title))
            .then_with(|| x.url.cmp(&y.url))
    });
    keyed.into_iter().map(|(_, d)| d).collect()
}

/// Where each word of a document is: the best place it has there, from its title, its names (the title and
/// alternative titles) and its other texts.
fn places(title: &str, names: &[Cow<str>], other: &[Cow<str>]) -> Vec<(String, usize)> {
    // Words are looked up as slices of the folded texts and copied once each: a description says most of
    // its words many times.
    let other: Vec<String> = other.iter().map(|t| text::fold(t)).collect();
    let names: Vec<String> = names.iter().map(|t| text::fold(t)).collect();
    let title = text::fold(title);
    fn add<'a>(found: &mut foldhash::HashMap<&'a str, usize>, word: &'a str, at: usize) {
        let best = found.entry(word).or_insert(at);
        *best = (*best).max(at);
    }
    // A word of an Indic script is also found by its Latin spelling (the page names' reading), since most
    // visitors type `pallanguzhi`, not `பல்லாங்குழி`.
    let mut romanised: Vec<(String, usize)> = Vec::new();
    let mut found: foldhash::HashMap<&str, usize> = foldhash::HashMap::default();
    for (texts, at) in [(&other, OTHER), (&names, NAME)] {
        for word in texts.iter().flat_map(|t| text::split_words(t)) {
            if !word.is_ascii() {
                let latin = crate::archive::indic::romanise(word);
                romanised.extend(latin.map(|r| (r, at)));
            }
            add(&mut found, word, at);
        }
    }
    for (word, at) in &romanised {
        add(&mut found, word, *at);
    }
    // As the search script did: a query word that starts the (folded) title ranks first.
    if let Some(first) = text::split_words(&title).next()
        && title.starts_with(first)
    {
        add(&mut found, first, TITLE);
    }
    found
        .into_iter()
        .map(|(word, at)| (word.to_string(), at))
        .collect()
}

/// The words of a document that carries its texts (a tag's, a source's, or one made up by a test).
fn doc_places(doc: &Doc) -> Vec<(String, usize)> {
    places(&doc.title, &doc.names, &doc.other)
}

/// A document's number and the best place a word has in it (`TITLE`, `NAME` or `OTHER`), in 32 bits: the
/// postings of every word are held at once (millions at 10,000 items), while the pages are made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Posting(u32);

impl Posting {
    fn new(id: u32, at: usize) -> Posting {
        assert!(id < 1 << 30, "fewer than 2^30 documents");
        Posting(id << 2 | at as u32)
    }

    fn id(self) -> u32 {
        self.0 >> 2
    }

    fn at(self) -> usize {
        (self.0 & 3) as usize
    }
}

/// One word's postings in document order, held compactly until the index is written: each as the gap from
/// the document before it (the first from 0) and its place, `gap << 2 | place`, in seven-bit groups, low
/// first, the high bit set on all but the last. The index holds every word's postings at once while the pages
/// are made, at the build's peak of memory: most gaps are small, so a posting takes one or two bytes instead of
/// four, and about a quarter less again without the room a growing list of 32-bit numbers leaves.
#[derive(Debug, Default)]
struct Postings {
    bytes: Vec<u8>,
    /// The last document added.
    last: Option<u32>,
}

impl Postings {
    /// Add a posting of a document after the last one added.
    fn push(&mut self, posting: Posting) {
        let id = posting.id();
        let gap = match self.last {
            Some(last) => {
                debug_assert!(id > last, "postings come in document order");
                id - last
            }
            None => id,
        };
        self.last = Some(id);
        let mut rest = u64::from(gap) << 2 | posting.at() as u64;
        while rest >= 0x80 {
            self.bytes.push(rest as u8 | 0x80);
            rest >>= 7;
        }
        self.bytes.push(rest as u8);
    }

    fn iter(&self) -> impl Iterator<Item = Posting> + '_ {
        let mut bytes = self.bytes.iter();
        let mut id = 0u32;
        std::iter::from_fn(move || {
            let mut value = 0u64;
            let mut shift = 0;
            loop {
                let byte = *bytes.next()?;
                value |= u64::from(byte & 0x7f) << shift;
                if byte < 0x80 {
                    break;
                }
                shift += 7;
            }
            id += (value >> 2) as u32;
            Some(Posting::new(id, (value & 3) as usize))
        })
    }
}

/// What reading the documents gave: each one's checksum, and the words to file.
struct Read {
    /// Each document's checksum of its part (its summary, alternative titles and words), by number.
    checks: Vec<Digest>,
    /// Every word of every document, when the index is made in full; with a previous index, only the words of
    /// the documents whose part changed, with their numbers.
    words: Filed,
    /// For each chunk of document metadata: whether it is to be made (otherwise it was kept as it was).
    chunks: Vec<bool>,
}

enum Filed {
    All(foldhash::HashMap<String, Postings>),
    Changed(Vec<(u32, Words)>),
}

/// Read every document's words, in the documents' order. An item's document gets its part from `made` (kept or
/// made now, then written to the sink in the documents' order); any other document carries its texts. With
/// `before`, a document whose part has the checksum it had is not read any further: only its chunk's file is
/// kept, or made when another document of the chunk changed or the file cannot be kept.
fn read_documents(
    docs: &mut [Doc],
    made: Option<(&Made, &mut Counted)>,
    before: Option<&Before>,
) -> std::io::Result<Read> {
    let (made, mut sink) = match made {
        Some((made, sink)) => (Some(made), Some(sink)),
        None => (None, None),
    };
    // Folding is most of the work, so documents are read in parallel and merged in their order, a block at a
    // time: every document's words at once would be tens of megabytes at 10,000 items. The index is made
    // while the pages are, at the build's peak of memory, so a block is kept small; 256 documents are still
    // far more than the cores that share them. A block is whole chunks of metadata, so that each chunk's
    // documents are at hand when it is made.
    const BLOCK: usize = 256;
    const { assert!(BLOCK % CHUNK_DOCS == 0) };
    let old = before.map(|b| &b.kept.checks);
    let mut checks = Vec::with_capacity(docs.len());
    let mut chunks = Vec::with_capacity(docs.len().div_ceil(CHUNK_DOCS));
    let mut index: foldhash::HashMap<String, Postings> = foldhash::HashMap::default();
    let mut changed: Vec<(u32, Words)> = Vec::new();
    for (block, chunk) in docs.chunks_mut(BLOCK).enumerate() {
        // The previous site's parts of the block's items, read together, then lined up with the documents.
        let mut fetched = match made {
            Some(made) => {
                let entries: Vec<usize> = chunk.iter().filter_map(|doc| doc.entry).collect();
                made.items.fetch(Export::Search, &entries, b"")
            }
            None => Vec::new(),
        }
        .into_iter();
        let fetched: Vec<Option<Part>> = chunk
            .iter()
            .map(|doc| doc.entry.and_then(|_| fetched.next().flatten()))
            .collect();
        let first = block * BLOCK;
        let per_doc: Vec<(Digest, Option<DocWords>, Option<Kept>)> = chunk
            .par_iter_mut()
            .zip(fetched)
            .enumerate()
            .map(|(n, (doc, fetched))| {
                let unchanged = |check: &Digest| old.is_some_and(|old| old[first + n] == *check);
                match (doc.entry, made) {
                    (Some(entry), Some(made)) => {
                        let mut fresh = None;
                        let (kept, part) =
                            made.items.text(Export::Search, entry, b"", fetched, || {
                                let found = item_part(made, entry);
                                let part = found.encode();
                                fresh = Some(found);
                                part
                            });
                        let check = kept
                            .as_ref()
                            .map_or_else(|| digest(part.as_bytes()), |(_, check)| *check);
                        if unchanged(&check) {
                            return (check, None, Some((kept, part)));
                        }
                        // A kept part is one this program wrote (its key covers the program), so it reads back
                        // but for a bug; the part is then made again, and this one left as it is.
                        let words = match fresh {
                            Some(found) => {
                                doc.summary = found.summary;
                                doc.alternatives = found.alternatives;
                                DocWords::Made(found.words)
                            }
                            None => read_part(doc, &part, || item_part(made, entry)),
                        };
                        (check, Some(words), Some((kept, part)))
                    }
                    _ => {
                        let mut words = doc_places(doc);
                        words.sort_unstable();
                        let check =
                            digest(encode_part(&doc.summary, &doc.alternatives, &words).as_bytes());
                        let words = (!unchanged(&check)).then_some(DocWords::Made(words));
                        (check, words, None)
                    }
                }
            })
            .collect();
        // A document's texts are not needed once folded (the shards show its title, summary and alternative
        // titles): letting them go lowers the build's peak, which comes while the shards are written.
        for doc in chunk.iter_mut() {
            doc.names = Vec::new();
            doc.other = Vec::new();
        }
        // Which of the block's chunks of metadata are made: all without a previous index; with one, those with
        // a changed document, or whose file cannot be kept. Their unchanged items' summaries are read then.
        for (n, docs) in chunk.chunks_mut(CHUNK_DOCS).enumerate() {
            let at = n * CHUNK_DOCS;
            let read = &per_doc[at..at + docs.len()];
            let make = match before {
                None => true,
                Some(before) => {
                    read.iter().any(|(_, words, _)| words.is_some())
                        || !(before.keep)(&chunk_path(chunks.len()))?
                }
            };
            if make && before.is_some() {
                for (doc, (_, words, part)) in docs.iter_mut().zip(read) {
                    if let (None, Some((_, part)), Some(entry), Some(made)) =
                        (words, part, doc.entry, made)
                    {
                        read_part(doc, part, || item_part(made, entry));
                    }
                }
            }
            chunks.push(make);
        }
        for (i, (check, words, part)) in per_doc.into_iter().enumerate() {
            checks.push(check);
            if let (Some(made), Some(sink), Some((kept, part))) = (made, sink.as_mut(), &part) {
                made.items
                    .write_part(sink, Export::Search, kept.as_ref(), part)?;
                sink.write_all(b"\n")?;
            }
            let Some(words) = words else {
                continue;
            };
            let id = (first + i) as u32;
            if before.is_some() {
                let words = match words {
                    DocWords::Made(words) => words,
                    DocWords::Kept(part, at) => at
                        .iter()
                        .map(|w| {
                            let (word, place) = w.of(&part);
                            (word.to_string(), place)
                        })
                        .collect(),
                };
                changed.push((id, words));
                continue;
            }
            let mut add = |word: &str, at: usize| {
                let posting = Posting::new(id, at);
                match index.get_mut(word) {
                    Some(postings) => postings.push(posting),
                    None => {
                        let mut postings = Postings::default();
                        postings.push(posting);
                        index.insert(word.to_string(), postings);
                    }
                }
            };
            match words {
                DocWords::Made(words) => words.iter().for_each(|(w, at)| add(w, *at)),
                DocWords::Kept(part, words) => {
                    words.iter().for_each(|w| {
                        let (word, at) = w.of(&part);
                        add(word, at);
                    });
                }
            }
        }
    }
    let words = match before {
        Some(_) => Filed::Changed(changed),
        None => Filed::All(index),
    };
    Ok(Read {
        checks,
        words,
        chunks,
    })
}

/// A kept part's summary and alternative titles, set on its document, and its words; when it does not read
/// back (a bug), the part made again by `make`.
fn read_part(doc: &mut Doc, part: &Arc<str>, make: impl FnOnce() -> Found) -> DocWords {
    match Found::shown(part) {
        Some((summary, alternatives, words)) => {
            doc.summary = summary;
            doc.alternatives = alternatives;
            DocWords::Kept(Arc::clone(part), words)
        }
        None => {
            let found = make();
            doc.summary = found.summary;
            doc.alternatives = found.alternatives;
            DocWords::Made(found.words)
        }
    }
}

/// Every word with its postings, sorted by word, made from the documents' words ([`read_documents`]); with a
/// previous index, that index's words with the changed documents' postings taken out and their new ones put
/// in, and the words that were in the previous index and are in no document now.
fn file_words(read: Filed, before: Option<Before>) -> (Vec<Word>, Vec<String>) {
    let changed = match read {
        Filed::Changed(changed) => changed,
        Filed::All(index) => {
            let mut words: Vec<Word> = index
                .into_par_iter()
                .map(|(word, mut postings)| {
                    postings.bytes.shrink_to_fit();
                    Word::new(word, postings)
                })
                .collect();
            words.par_sort_unstable_by(|a, b| a.word.cmp(&b.word));
            return (words, Vec::new());
        }
    };
    let kept = before.map_or_else(Vec::new, |before| before.kept.words);
    let documents = changed.last().map_or(0, |(id, _)| *id as usize + 1);
    let mut taken_out = vec![false; documents];
    for (id, _) in &changed {
        taken_out[*id as usize] = true;
    }
    let out = |posting: &Posting| taken_out.get(posting.id() as usize) == Some(&true);
    // The changed documents' postings, by word, in document order.
    let mut put_in: foldhash::HashMap<&str, Vec<Posting>> = foldhash::HashMap::default();
    for (id, words) in &changed {
        for (word, at) in words {
            put_in
                .entry(word.as_str())
                .or_default()
                .push(Posting::new(*id, *at));
        }
    }
    let mut gone = Vec::new();
    let filed: Vec<Result<Word, String>> = kept
        .into_par_iter()
        .map(|kept| {
            let before = Postings {
                bytes: kept.bytes,
                last: Some(kept.last),
            };
            let added = put_in.get(kept.word.as_str());
            if added.is_none() && !before.iter().any(|p| out(&p)) {
                return Ok(Word {
                    word: kept.word,
                    postings: before,
                    entry: kept.entry,
                    changed: false,
                });
            }
            let mut after = Postings::default();
            let mut added = added.map_or(&[][..], Vec::as_slice).iter().peekable();
            for posting in before.iter().filter(|p| !out(p)) {
                while let Some(new) = added.next_if(|new| new.id() < posting.id()) {
                    after.push(*new);
                }
                after.push(posting);
            }
            added.for_each(|new| after.push(*new));
            if after.bytes.is_empty() {
                return Err(kept.word);
            }
            if after.bytes == before.bytes {
                return Ok(Word {
                    word: kept.word,
                    postings: before,
                    entry: kept.entry,
                    changed: false,
                });
            }
            Ok(Word::new(kept.word, after))
        })
        .collect();
    let mut words = Vec::with_capacity(filed.len());
    for word in filed {
        match word {
            Ok(word) => words.push(word),
            Err(word) => gone.push(word),
        }
    }
    // Words no document had before.
    let known: foldhash::HashSet<&str> = words.iter().map(|w| w.word.as_str()).collect();
    let mut new: Vec<Word> = put_in
        .iter()
        .filter(|(word, _)| !known.contains(*word))
        .map(|(word, postings)| {
            let mut filed = Postings::default();
            postings.iter().for_each(|p| filed.push(*p));
            Word::new(word.to_string(), filed)
        })
        .collect();
    drop(known);
    words.append(&mut new);
    words.par_sort_unstable_by(|a, b| a.word.cmp(&b.word));
    (words, gone)
}

/// Each alternative title's folded words as the index also finds them, its Indic words in Latin letters
/// ([`crate::archive::indic`]), so that the search script can say which name a query matched: "also মোগল পাঠান"
/// for "mogal". An alternative with no such word reads as an empty text; `None` when no alternative has one, so
/// that most documents carry nothing more.
fn latin_alternatives(alternatives: &[String]) -> Option<Vec<String>> {
    let read: Vec<String> = alternatives
        .iter()
        .map(|alternative| {
            if alternative.is_ascii() {
                return String::new();
            }
            let folded = text::fold(alternative);
            let mut any = false;
            let words: Vec<String> = text::split_words(&folded)
                .map(|word| match crate::archive::indic::romanise(word) {
                    Some(latin) => {
                        any = true;
                        latin
                    }
                    None => word.to_string(),
                })
                .collect();
            if any { words.join(" ") } else { String::new() }
        })
        .collect();
    read.iter().any(|r| !r.is_empty()).then_some(read)
}

/// Sorted document numbers as a string: gaps, or a bitmap when that is shorter.
fn encode_ids(ids: &[u32]) -> String {
    let Some(&last) = ids.last() else {
        return String::new();
    };
    let mut gaps = String::new();
    let mut next = 0u64;
    for &id in ids {
        let mut gap = u64::from(id) - next;
        next = u64::from(id) + 1;
        let mut groups = Vec::with_capacity(7);
        loop {
            groups.push((gap & 31) as usize);
            gap >>= 5;
            if gap == 0 {
                break;
            }
        }
        for &g in groups[1..].iter().rev() {
            gaps.push(DIGITS[32 + g] as char);
        }
        gaps.push(DIGITS[groups[0]] as char);
    }
    let cells = last as usize / 6 + 1;
    if cells + 1 >= gaps.len() {
        return gaps;
    }
    let mut bits = vec![0usize; cells];
    for &id in ids {
        bits[id as usize / 6] |= 1 << (id % 6);
    }
    let mut out = String::with_capacity(cells + 1);
    out.push('*');
    out.extend(bits.into_iter().map(|b| DIGITS[b] as char));
    out
}

/// `[title, name, other]` postings, without trailing empty lists.
fn encode_places(postings: impl IntoIterator<Item = Posting>) -> Vec<String> {
    let mut lists = vec![Vec::new(); 3];
    for p in postings {
        lists[p.at()].push(p.id());
    }
    let mut out: Vec<String> = lists.iter().rev().map(|l| encode_ids(l)).collect();
    while out.last().is_some_and(String::is_empty) {
        out.pop();
    }
    out
}

/// The name of a shard of a prefix, safe in any file system: ASCII letters and digits as they are, any other
/// character as `_<hex>_` (the search script names them the same way).
fn file_stem(kind: char, prefix: &str) -> String {
    let mut out = format!("{kind}-");
    for c in prefix.chars() {
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            out.push(c);
        } else {
            out.push_str(&format!("_{:x}_", c as u32));
        }
    }
    out
}

fn shard_script(stem: &str, data: &serde_json::Value) -> String {
    format!(
        "window.LUDOTHECA_SEARCH_SHARD(\"{stem}\",{});\n",
        script_json(data)
    )
}

struct Word {
    word: String,
    postings: Postings,
    /// Its entry in a word shard, `[word, title, name, other]`.
    entry: String,
    /// Whether its postings are not those of the previous index (always, when there is none).
    changed: bool,
}

impl Word {
    fn new(word: String, postings: Postings) -> Word {
        let mut entry = vec![word.clone()];
        entry.extend(encode_places(postings.iter()));
        Word {
            entry: script_json(&json!(entry)),
            word,
            postings,
            changed: true,
        }
    }
}

/// The words whose postings changed since the previous index, and those it had that no document has now,
/// sorted: a shard or prefix list with none of them under its prefix holds what it held, and is kept.
struct Unchanged<'k> {
    changed: Vec<&'k str>,
    keep: &'k Keep<'k>,
}

impl Unchanged<'_> {
    /// Whether the file of `prefix` at `path` is kept as it was.
    fn kept(&self, prefix: &str, path: &str) -> std::io::Result<bool> {
        let at = self.changed.partition_point(|word| *word < prefix);
        let touched = self
            .changed
            .get(at)
            .is_some_and(|word| word.starts_with(prefix));
        if touched {
            return Ok(false);
        }
        (self.keep)(path)
    }
}

#[derive(Default)]
struct Trie {
    /// Prefixes with a word shard, and the shard's script (none when kept as it was).
    words: Vec<(String, Option<String>)>,
    /// Prefixes with a prefix list, and its script (none when kept as it was).
    prefixes: Vec<(String, Option<String>)>,
}

fn shard_path(kind: char, prefix: &str) -> String {
    format!("{FOLDER}/{}.js", file_stem(kind, prefix))
}

fn chunk_path(n: usize) -> String {
    format!("{FOLDER}/d-{n}.js")
}

fn split(
    prefix: &str,
    words: &[Word],
    root: bool,
    (limit, unchanged): (usize, Option<&Unchanged>),
    out: &mut Trie,
) -> std::io::Result<()> {
    let kept = |kind: char| match unchanged {
        Some(unchanged) => unchanged.kept(prefix, &shard_path(kind, prefix)),
        None => Ok(false),
    };
    let size: usize = words.iter().map(|w| w.entry.len() + 1).sum();
    if !root && (size <= limit || words.len() < 2) {
        if kept('w')? {
            out.words.push((prefix.to_string(), None));
            return Ok(());
        }
        let stem = file_stem('w', prefix);
        let body = words
            .iter()
            .map(|w| w.entry.as_str())
            .collect::<Vec<_>>()
            .join(",");
        let script = format!("window.LUDOTHECA_SEARCH_SHARD(\"{stem}\",[{body}]);\n");
        out.words.push((prefix.to_string(), Some(script)));
        return Ok(());
    }
    if !root {
        let script = if kept('p')? {
            None
        } else {
            // Every document with a word under this prefix, in the best place any of those words has (one
            // more than the place, so that 0 is "none").
            let count = words
                .iter()
                .filter_map(|w| w.postings.last)
                .map(|id| id as usize + 1)
                .max()
                .unwrap_or(0);
            let mut best = vec![0u8; count];
            for w in words {
                for p in w.postings.iter() {
                    let id = p.id() as usize;
                    best[id] = best[id].max(p.at() as u8 + 1);
                }
            }
            let all: Vec<Posting> = best
                .into_iter()
                .enumerate()
                .filter(|&(_, b)| b > 0)
                .map(|(id, b)| Posting::new(id as u32, usize::from(b - 1)))
                .collect();
            let stem = file_stem('p', prefix);
            Some(shard_script(&stem, &json!(encode_places(all))))
        };
        out.prefixes.push((prefix.to_string(), script));
    }
    let children = children(prefix, words);
    if root {
        // The first characters are independent of each other: split them in parallel, kept in order.
        let parts: Vec<Trie> = children
            .into_par_iter()
            .map(|(child, range)| {
                let mut part = Trie::default();
                split(&child, &words[range], false, (limit, unchanged), &mut part)?;
                Ok(part)
            })
            .collect::<std::io::Result<_>>()?;
        for part in parts {
            out.words.extend(part.words);
            out.prefixes.extend(part.prefixes);
        }
    } else {
        for (child, range) in children {
            split(&child, &words[range], false, (limit, unchanged), out)?;
        }
    }
    Ok(())
}

/// The prefixes one character longer than `prefix`, and their words. Words sorted by their bytes keep every
/// longer prefix together; a word equal to the prefix itself is left to the prefix's list.
fn children(prefix: &str, words: &[Word]) -> Vec<(String, std::ops::Range<usize>)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let Some(c) = words[i].word[prefix.len()..].chars().next() else {
            i += 1;
            continue;
        };
        let child = format!("{prefix}{c}");
        let end = i + words[i..]
            .iter()
            .take_while(|w| w.word.starts_with(&child))
            .count();
        out.push((child, i..end));
        i = end;
    }
    out
}

/// What numbers the documents, in their order: each one's title, page, kind and group. A previous index whose
/// documents had the same is patched ([`file_words`]); any other is not used.
fn identity(docs: &[Doc]) -> Digest {
    let mut all = String::with_capacity(docs.len() * 64);
    for doc in docs {
        for text in [
            &*doc.title,
            &*doc.url,
            doc.kind,
            if doc.item { "1" } else { "0" },
        ] {
            all.push_str(text);
            all.push('\0');
        }
    }
    digest(all.as_bytes())
}

/// The index of these documents, with word shards of about `limit` bytes; items' parts as [`read_documents`]
/// finds them. With `before` (the previous index, and a way to keep its files), when the documents are the same
/// ones in the same order, only the changed documents' words are filed again, and each file that holds what it
/// held is kept instead of made.
fn shard(
    docs: Vec<Doc>,
    limit: usize,
    made: Option<(&Made, &mut Counted)>,
    before: Option<(&[u8], &Keep<'_>)>,
) -> std::io::Result<IndexFiles> {
    let mut docs = order(docs);
    let identity = identity(&docs);
    // Read only when it numbers the documents as they are numbered now.
    let before = before.and_then(|(words, keep)| {
        let kept = kept::decode(words, &identity)?;
        (kept.checks.len() == docs.len()).then_some(Before { kept, keep })
    });
    let keep = before.as_ref().map(|before| before.keep);
    let read = read_documents(&mut docs, made, before.as_ref())?;
    let (words, gone) = file_words(read.words, before);
    let unchanged = keep.map(|keep| {
        let mut changed: Vec<&str> = words
            .iter()
            .filter(|w| w.changed)
            .map(|w| w.word.as_str())
            .chain(gone.iter().map(String::as_str))
            .collect();
        changed.sort_unstable();
        Unchanged { changed, keep }
    });
    let mut trie = Trie::default();
    split("", &words, true, (limit, unchanged.as_ref()), &mut trie)?;

    let mut files = Vec::new();
    let manifest = json!({
        "v": 2,
        "docs": docs.len(),
        "items": docs.iter().filter(|d| d.item).count(),
        "chunk": CHUNK_DOCS,
        "words": trie.words.iter().map(|(p, _)| p).collect::<Vec<_>>(),
        "prefixes": trie.prefixes.iter().map(|(p, _)| p).collect::<Vec<_>>(),
    });
    files.push((
        MANIFEST.to_string(),
        format!(
            "/* The search index of this site, generated by ludotheca build: the manifest; the words and documents are in {FOLDER}/. */\nwindow.LUDOTHECA_SEARCH = {};\n",
            script_json(&manifest)
        ),
    ));
    for (prefix, script) in trie.words {
        files.extend(script.map(|script| (shard_path('w', &prefix), script)));
    }
    for (prefix, script) in trie.prefixes {
        files.extend(script.map(|script| (shard_path('p', &prefix), script)));
    }
    for (n, chunk) in docs.chunks(CHUNK_DOCS).enumerate() {
        if !read.chunks[n] {
            continue;
        }
        let data: Vec<_> = chunk
            .iter()
            .map(|d| match latin_alternatives(&d.alternatives) {
                Some(latin) => json!([d.title, d.url, d.kind, d.summary, d.alternatives, latin]),
                None => json!([d.title, d.url, d.kind, d.summary, d.alternatives]),
            })
            .collect();
        files.push((chunk_path(n), shard_script(&format!("d-{n}"), &json!(data))));
    }
    let filed = words.iter().map(|w| {
        let last = w.postings.last.expect("a filed word is in some document");
        (
            w.word.as_str(),
            &w.postings.bytes[..],
            last,
            w.entry.as_str(),
        )
    });
    Ok(IndexFiles {
        files,
        words: kept::encode(&identity, &read.checks, filed),
    })
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};

    use serde_json::Value;

    use super::*;

    /// The index as the search script reads it.
    struct Index {
        manifest: Value,
        files: BTreeMap<String, String>,
    }

    impl Index {
        fn new(files: Vec<(String, String)>) -> Index {
            let files: BTreeMap<String, String> = files.into_iter().collect();
            let manifest = files[MANIFEST]
                .split_once("window.LUDOTHECA_SEARCH = ")
                .unwrap()
                .1
                .trim_end()
                .trim_end_matches(';');
            Index {
                manifest: serde_json::from_str(manifest).unwrap(),
                files,
            }
        }

        fn listed(&self, list: &str, prefix: &str) -> bool {
            self.manifest[list]
                .as_array()
                .unwrap()
                .iter()
                .any(|p| p == prefix)
        }

        /// The data a shard script hands to the callback, checking that it names itself.
        fn data(&self, path: &str) -> Value {
            let script = &self.files[path];
            let stem = path
                .strip_prefix("search-index/")
                .unwrap()
                .strip_suffix(".js")
                .unwrap();
            let body = script
                .strip_prefix(&format!("window.LUDOTHECA_SEARCH_SHARD(\"{stem}\","))
                .unwrap()
                .strip_suffix(");\n")
                .unwrap();
            serde_json::from_str(body).unwrap()
        }

        /// The one file a query word needs, as the search script picks it.
        fn file_for(&self, term: &str) -> Option<String> {
            let chars: Vec<char> = term.chars().collect();
            for k in (0..=chars.len()).rev() {
                let prefix: String = chars[..k].iter().collect();
                if self.listed("words", &prefix) {
                    return Some(format!("search-index/{}.js", file_stem('w', &prefix)));
                }
                if self.listed("prefixes", &prefix) {
                    return (k == chars.len())
                        .then(|| format!("search-index/{}.js", file_stem('p', &prefix)));
                }
            }
            None
        }

        /// Documents with a word starting with `term`, and the best place of such a word.
        fn lookup(&self, term: &str) -> BTreeMap<u32, usize> {
            let mut found = BTreeMap::new();
            let Some(path) = self.file_for(term) else {
                return found;
            };
            let mut add = |lists: &[Value]| {
                for (i, list) in lists.iter().enumerate() {
                    for id in decode(list.as_str().unwrap()) {
                        let b = found.entry(id).or_insert(TITLE - i);
                        *b = (*b).max(TITLE - i);
                    }
                }
            };
            let data = self.data(&path);
            if path.contains("/p-") {
                add(data.as_array().unwrap());
            } else {
                for entry in data.as_array().unwrap() {
                    let entry = entry.as_array().unwrap();
                    if entry[0].as_str().unwrap().starts_with(term) {
                        add(&entry[1..]);
                    }
                }
            }
            found
        }

        fn doc(&self, id: u32) -> Value {
            let chunk = self.manifest["chunk"].as_u64().unwrap() as u32;
            self.data(&format!("search-index/d-{}.js", id / chunk))[(id % chunk) as usize].clone()
        }

        /// Ranked as the search script ranks: places scored 30, 20, 4 per query word, items 2 more.
        fn search(&self, query: &str) -> (Vec<u32>, BTreeSet<String>) {
            let terms: Vec<String> = text::words(query).collect();
            let mut files: BTreeSet<String> = BTreeSet::from([MANIFEST.to_string()]);
            let mut scores: Option<BTreeMap<u32, u32>> = None;
            for t in &terms {
                files.extend(self.file_for(t));
                let found = self.lookup(t);
                let next = found
                    .iter()
                    .filter(|(id, _)| scores.as_ref().is_none_or(|s| s.contains_key(id)))
                    .map(|(&id, &at)| {
                        let before = scores.as_ref().map_or(0, |s| s[&id]);
                        (id, before + [4, 20, 30][at])
                    })
                    .collect();
                scores = Some(next);
            }
            let items = self.manifest["items"].as_u64().unwrap() as u32;
            let mut ranked: Vec<(u32, u32)> = scores
                .unwrap_or_default()
                .into_iter()
                .map(|(id, s)| (id, s + if id < items { 2 } else { 0 }))
                .collect();
            ranked.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            let chunk = self.manifest["chunk"].as_u64().unwrap() as u32;
            for (id, _) in ranked.iter().take(8) {
                files.insert(format!("search-index/d-{}.js", id / chunk));
            }
            (ranked.into_iter().map(|(id, _)| id).collect(), files)
        }

        fn bytes(&self, files: &BTreeSet<String>) -> usize {
            files.iter().map(|f| self.files[f].len()).sum()
        }
    }

    fn decode(s: &str) -> Vec<u32> {
        let value = |c: char| DIGITS.iter().position(|&d| d as char == c).unwrap() as u32;
        let mut ids = Vec::new();
        if let Some(bits) = s.strip_prefix('*') {
            for (i, c) in bits.chars().enumerate() {
                for b in 0..6 {
                    if value(c) & (1 << b) != 0 {
                        ids.push(i as u32 * 6 + b);
                    }
                }
            }
            return ids;
        }
        let (mut next, mut acc) = (0u32, 0u32);
        for c in s.chars() {
            let v = value(c);
            if v >= 32 {
                acc = acc * 32 + v - 32;
            } else {
                let id = next + acc * 32 + v;
                ids.push(id);
                next = id + 1;
                acc = 0;
            }
        }
        ids
    }

    /// A deterministic catalog of made-up documents: words from a few syllables (some not Latin), a word in
    /// every document, numbers, facets among the items.
    fn synthetic(n: usize) -> Vec<Doc<'static>> {
        const SYLLABLES: [&str; 16] = [
            "ta", "ter", "hu", "chü", "ba", "ka", "mo", "na", "lø", "sü", "mi", "ga", "जी", "ता",
            "ō", "x",
        ];
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |m: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % m as u64) as usize
        };
        let word = |next: &mut dyn FnMut(usize) -> usize| {
            (0..1 + next(4))
                .map(|_| SYLLABLES[next(SYLLABLES.len())])
                .collect::<String>()
        };
        (0..n)
            .map(|i| {
                let title = format!("{} {}", capitalise(&word(&mut next)), word(&mut next));
                let alternative = word(&mut next);
                let description = (0..next(12))
                    .map(|_| word(&mut next))
                    .collect::<Vec<_>>()
                    .join(" ");
                Doc {
                    names: vec![title.clone().into(), alternative.clone().into()],
                    other: vec![format!("copy {i} {description}").into()],
                    summary: description,
                    title: title.into(),
                    url: format!("games/g{i}/index.html").into(),
                    kind: if i % 5 == 0 { "tag" } else { "game" },
                    item: i % 5 != 0,
                    alternatives: vec![alternative],
                    entry: None,
                }
            })
            .collect()
    }

    fn capitalise(w: &str) -> String {
        let mut c = w.chars();
        c.next()
            .map(|f| f.to_uppercase().chain(c).collect())
            .unwrap_or_default()
    }

    /// Where each word of a document is, worked out again without the index.
    fn places(doc: &Doc) -> BTreeMap<String, usize> {
        let mut out = BTreeMap::new();
        let mut romanised = Vec::new();
        for (texts, at) in [(&doc.other, OTHER), (&doc.names, NAME)] {
            for w in texts.iter().flat_map(|t| text::words(t)) {
                romanised.extend(crate::archive::indic::romanise(&w).map(|r| (r, at)));
                out.insert(w, at);
            }
        }
        // An Indic word is found by its Latin spelling too, at the best place the word has.
        for (w, at) in romanised {
            let best = out.entry(w).or_insert(at);
            *best = (*best).max(at);
        }
        let folded = text::fold(&doc.title);
        let first = text::words(&doc.title).next().unwrap();
        if folded.starts_with(&first) {
            out.insert(first, TITLE);
        }
        out
    }

    #[test]
    fn an_items_part_reads_back_as_written() {
        let found = Found {
            summary: "Tabs\tand\nbreaks, \"quotes\", बाघचाल and a \\ stay text".to_string(),
            alternatives: vec![
                "Bagh\tChal".to_string(),
                String::new(),
                "बाघचाल".to_string(),
            ],
            words: vec![
                ("1921".to_string(), OTHER),
                ("bagh".to_string(), TITLE),
                ("बाघचाल".to_string(), NAME),
            ],
        };
        let part = found.encode();
        assert!(!part.contains('\n'), "one part, one line: {part}");
        assert_eq!(part.matches('\t').count(), 1, "{part}");
        assert_eq!(Found::decode(&part), Some(found));
        let bare = Found {
            summary: String::new(),
            alternatives: Vec::new(),
            words: Vec::new(),
        };
        assert_eq!(Found::decode(&bare.encode()), Some(bare));
        for broken in [
            "",
            "[\"\",[]]",
            "[\"\",[]]\t3word",
            "[\"\",[]]\t1",
            "[\"\"]\t1word",
            "{}\t1word",
        ] {
            assert_eq!(Found::decode(broken), None, "{broken:?}");
        }
    }

    #[test]
    fn a_words_postings_read_back_as_added() {
        let added: Vec<Posting> = [
            (0, OTHER),
            (1, TITLE),
            (2, NAME),
            (31, OTHER),
            (32, TITLE),
            (5_000, NAME),
            (5_001, OTHER),
            ((1 << 30) - 1, TITLE),
        ]
        .into_iter()
        .map(|(id, at)| Posting::new(id, at))
        .collect();
        let mut postings = Postings::default();
        for &p in &added {
            postings.push(p);
        }
        assert_eq!(postings.iter().collect::<Vec<_>>(), added);
        assert_eq!(postings.last, Some((1 << 30) - 1));
        // A gap below 32 takes a byte, one below 4,096 two, one below 2^19 three; the last gap is near 2^30.
        assert_eq!(postings.bytes.len(), 1 + 1 + 1 + 1 + 1 + 3 + 1 + 5);
        assert_eq!(Postings::default().iter().count(), 0);
    }

    #[test]
    fn postings_round_trip_as_gaps_and_as_bitmaps() {
        for ids in [
            vec![],
            vec![0],
            vec![5, 6, 7, 1000, 1_000_000, 4_000_000_000],
            (0..500).collect(),
            (0..3000).filter(|i| i % 3 != 1).collect::<Vec<u32>>(),
        ] {
            let s = encode_ids(&ids);
            assert_eq!(decode(&s), ids, "{s}");
        }
        assert!(encode_ids(&(0..600).collect::<Vec<_>>()).starts_with('*'));
        assert!(!encode_ids(&[3, 900]).starts_with('*'));
    }

    #[test]
    fn every_word_and_prefix_finds_exactly_its_documents() {
        let docs = synthetic(700);
        let index = Index::new(shard(docs.clone(), 1024, None, None).unwrap().files);
        assert!(
            index.manifest["prefixes"].as_array().unwrap().len() > 5,
            "small shards split"
        );
        // Documents by page, as numbered by the index.
        let n = index.manifest["docs"].as_u64().unwrap() as u32;
        assert_eq!(n as usize, docs.len());
        let by_url: BTreeMap<String, u32> = (0..n)
            .map(|id| (index.doc(id)[1].as_str().unwrap().to_string(), id))
            .collect();
        let expected: Vec<(u32, BTreeMap<String, usize>)> = docs
            .iter()
            .map(|d| (by_url[d.url.as_ref()], places(d)))
            .collect();
        let mut terms: BTreeSet<String> = BTreeSet::new();
        for (_, words) in &expected {
            for w in words.keys() {
                let chars: Vec<char> = w.chars().collect();
                for k in 1..=chars.len() {
                    terms.insert(chars[..k].iter().collect());
                }
            }
        }
        terms.extend(["zzz", "terq", "copy1", "copy"].map(String::from));
        for term in &terms {
            let want: BTreeMap<u32, usize> = expected
                .iter()
                .filter_map(|(id, words)| {
                    words
                        .iter()
                        .filter(|(w, _)| w.starts_with(term.as_str()))
                        .map(|(_, &at)| at)
                        .max()
                        .map(|at| (*id, at))
                })
                .collect();
            assert_eq!(index.lookup(term), want, "query word {term:?}");
        }
        assert!(terms.len() > 1000);
    }

    #[test]
    fn documents_are_numbered_items_first_by_title() {
        let docs = synthetic(300);
        let index = Index::new(shard(docs.clone(), 1024, None, None).unwrap().files);
        let items = index.manifest["items"].as_u64().unwrap() as u32;
        assert_eq!(items as usize, docs.iter().filter(|d| d.item).count());
        let shown: Vec<Value> = (0..docs.len() as u32).map(|id| index.doc(id)).collect();
        for (id, pair) in shown.windows(2).enumerate() {
            let id = id as u32 + 1;
            let fold = |v: &Value| text::fold(v[0].as_str().unwrap());
            if id != items {
                assert!(fold(&pair[0]) <= fold(&pair[1]), "{pair:?}");
            }
            assert_eq!(pair[1][2] != "tag", id < items);
        }
    }

    #[test]
    fn the_same_documents_give_the_same_bytes_in_any_order() {
        let docs = synthetic(400);
        let once = shard(docs.clone(), 2048, None, None).unwrap().files;
        assert_eq!(once, shard(docs.clone(), 2048, None, None).unwrap().files);
        let mut reversed = docs;
        reversed.reverse();
        assert_eq!(once, shard(reversed, 2048, None, None).unwrap().files);
    }

    /// The files of an index patched from `before` (a previous index's files and words), those it kept
    /// included, and how many it kept.
    fn patched(
        docs: Vec<Doc>,
        limit: usize,
        before: &IndexFiles,
        refused: &str,
    ) -> (BTreeMap<String, String>, Vec<u8>, usize) {
        let previous: BTreeMap<&str, &str> = before
            .files
            .iter()
            .map(|(path, script)| (path.as_str(), script.as_str()))
            .collect();
        let kept = std::sync::Mutex::new(BTreeSet::new());
        let keep = |path: &str| {
            let there = previous.contains_key(path) && path != refused;
            if there {
                assert!(
                    kept.lock().unwrap().insert(path.to_string()),
                    "{path} kept twice"
                );
            }
            Ok(there)
        };
        let made = shard(docs, limit, None, Some((&before.words, &keep))).unwrap();
        let kept = kept.into_inner().unwrap();
        let mut files: BTreeMap<String, String> = BTreeMap::new();
        for (path, script) in made.files {
            assert!(!kept.contains(&path), "{path} both kept and made");
            assert!(files.insert(path, script).is_none());
        }
        for path in &kept {
            files.insert(path.clone(), previous[path.as_str()].to_string());
        }
        (files, made.words, kept.len())
    }

    #[test]
    fn an_index_patched_from_the_previous_one_is_the_index_made_in_full() {
        let limit = 1024;
        let first = synthetic(1500);
        let before = shard(first.clone(), limit, None, None).unwrap();
        let mut second = first.clone();
        // New words and words gone (each document's number is its own word), a word that moves from the
        // other texts to the names, a summary and an alternative title changed, a word that takes another
        // document's shard over its size.
        second[7].other = vec!["copy 7 zzyzx brandnew".into()];
        second[12].other = vec!["copy".into()];
        second[30].summary.push_str(" Measured again.");
        second[44].alternatives = vec!["renamed".into()];
        second[44].names[1] = "renamed".into();
        let moved = first[60].other[0]
            .split(' ')
            .nth(2)
            .unwrap_or("copy")
            .to_string();
        second[60].names.push(moved.into());
        let crowded: Vec<String> = (0..200).map(|n| format!("zzq{n}")).collect();
        second[90].other.push(crowded.join(" ").into());
        let full = shard(second.clone(), limit, None, None).unwrap();
        let (files, words, kept) = patched(second.clone(), limit, &before, "");
        assert_eq!(
            files,
            full.files.iter().cloned().collect::<BTreeMap<_, _>>()
        );
        assert!(
            words == full.words,
            "the words it leaves are a full build's"
        );
        assert!(
            kept * 10 >= files.len() * 9,
            "{kept} of {} files kept",
            files.len()
        );

        // And again from the patched index, with one of its files not to be kept: that one is made.
        let mut third = second.clone();
        third[3].other = vec!["copy 3 third".into()];
        let refused = full
            .files
            .iter()
            .map(|(path, _)| path.as_str())
            .find(|path| path.contains("/w-"))
            .unwrap()
            .to_string();
        let patched_before = IndexFiles {
            files: files.into_iter().collect(),
            words,
        };
        let full = shard(third.clone(), limit, None, None).unwrap();
        let (files, _, _) = patched(third, limit, &patched_before, &refused);
        assert_eq!(files, full.files.into_iter().collect::<BTreeMap<_, _>>());

        // Documents renamed renumber the rest: the previous index is not used, and every file is made.
        let mut renamed = first.clone();
        renamed[5].title = "Aaaa first of all".into();
        let full = shard(renamed.clone(), limit, None, None).unwrap();
        let (files, _, kept) = patched(renamed, limit, &before, "");
        assert_eq!(kept, 0);
        assert_eq!(files, full.files.into_iter().collect::<BTreeMap<_, _>>());
    }

    #[test]
    fn shards_stay_within_their_size_and_have_safe_names() {
        let limit = 2048;
        let files = shard(synthetic(1500), limit, None, None).unwrap().files;
        let index = Index::new(files.clone());
        let mut seen = BTreeSet::new();
        for (path, script) in &files {
            assert!(
                seen.insert(path.to_lowercase()),
                "{path} twice, ignoring case"
            );
            assert!(
                path.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"_-./".contains(&b)),
                "{path}"
            );
            assert!(!script.contains('<'), "{path} could close a script element");
            if path == MANIFEST {
                continue;
            }
            let data = index.data(path);
            if path.contains("/w-") {
                let entries = data.as_array().unwrap();
                assert!(!entries.is_empty());
                assert!(
                    entries.len() == 1 || script.len() <= limit + 100,
                    "{path}: {} bytes",
                    script.len()
                );
            } else if path.contains("/d-") {
                assert!(data.as_array().unwrap().len() <= CHUNK_DOCS);
            }
        }
        // Every shard is listed, so every query word needs one file that exists.
        let listed = index.manifest["words"].as_array().unwrap().len()
            + index.manifest["prefixes"].as_array().unwrap().len();
        let chunks = 1500usize.div_ceil(CHUNK_DOCS);
        assert_eq!(files.len(), 1 + listed + chunks);
        for term in ["ta", "terhu", "जी", "copy", "1", "x"] {
            if let Some(path) = index.file_for(term) {
                assert!(index.files.contains_key(&path), "{path}");
            }
        }
    }

    #[test]
    fn an_indic_title_is_found_by_its_latin_spelling() {
        let mut docs = synthetic(300);
        for (title, url) in [
            ("பல்லாங்குழி", "games/pallanguzhi/index.html"),
            ("बाघ चाल", "games/bagh-chal/index.html"),
        ] {
            docs.push(Doc {
                title: title.into(),
                url: url.into(),
                kind: "game",
                item: true,
                names: vec![title.into()],
                other: Vec::new(),
                summary: String::new(),
                alternatives: Vec::new(),
                entry: None,
            });
        }
        // A word of a virama alone reads as nothing in Latin letters: it is indexed as written, and no empty
        // word is.
        let words = super::places("x", &["a \u{094D} b".into()], &[]);
        assert!(words.iter().all(|(word, _)| !word.is_empty()), "{words:?}");
        assert_eq!(words.len(), 4, "{words:?}");
        docs.push(Doc {
            title: "Mogol Putt'han".into(),
            url: "games/mogol-putthan/index.html".into(),
            kind: "game",
            item: true,
            names: vec![
                "Mogol Putt'han".into(),
                "মোগল পাঠান".into(),
                "Mughal Pathan".into(),
            ],
            other: Vec::new(),
            summary: String::new(),
            alternatives: vec!["মোগল পাঠান".into(), "Mughal Pathan".into()],
            entry: None,
        });
        let index = Index::new(shard(docs, SHARD_BYTES, None, None).unwrap().files);
        // The document says how its alternative titles read in Latin letters, for the script to show the one a
        // query matched; a document without an Indic alternative carries nothing more.
        let (ranked, _) = index.search("mogal");
        let mogol = index.doc(ranked[0]);
        assert_eq!(mogol[0], "Mogol Putt'han");
        assert_eq!(mogol[5], serde_json::json!(["mogal pathan", ""]));
        let (ranked, _) = index.search("pallanguzhi");
        assert_eq!(index.doc(ranked[0]).as_array().unwrap().len(), 5);
        for (query, title) in [
            ("pallanguzhi", "பல்லாங்குழி"),
            ("pallang", "பல்லாங்குழி"),
            ("பல்லாங்குழி", "பல்லாங்குழி"),
            ("bagh chal", "बाघ चाल"),
        ] {
            let (ranked, _) = index.search(query);
            assert_eq!(
                ranked.first().map(|&id| index.doc(id)[0].clone()),
                Some(serde_json::json!(title)),
                "{query}"
            );
        }
    }

    #[test]
    fn a_query_ranks_title_words_first_and_loads_a_few_files() {
        let mut docs = synthetic(2000);
        docs.push(Doc {
            title: "Terhuchu".into(),
            url: "games/terhuchu/index.html".into(),
            kind: "game",
            item: true,
            names: vec!["Terhuchu".into(), "Terhüchü".into()],
            other: vec!["A hunt game of the Naga hills".into()],
            summary: String::new(),
            alternatives: vec!["Terhüchü".into()],
            entry: None,
        });
        let index = Index::new(shard(docs, SHARD_BYTES, None, None).unwrap().files);
        let (ranked, files) = index.search("terh");
        let starts: Vec<bool> = ranked
            .iter()
            .map(|&id| text::fold(index.doc(id)[0].as_str().unwrap()).starts_with("terh"))
            .collect();
        assert!(starts[0] && starts.contains(&false));
        assert!(
            starts.is_sorted_by(|a, b| a >= b),
            "titles starting so come first"
        );
        let (ranked, _) = index.search("TERHÜCHÜ naga");
        assert_eq!(index.doc(ranked[0])[0], "Terhuchu");
        let shards = index.files.len();
        assert!(
            files.len() < shards / 4,
            "{} of {shards} files",
            files.len()
        );
    }

    /// Figures for a large catalog: `LUDOTHECA_SEARCH_CATALOG=folder cargo test --release -- --ignored
    /// --nocapture search_index_figures` (a catalog from `scripts/bench-build generate N folder`), without
    /// building its site.
    #[test]
    #[ignore]
    fn search_index_figures() {
        let Some(folder) = std::env::var_os("LUDOTHECA_SEARCH_CATALOG") else {
            return;
        };
        let mut diagnostics = crate::diagnostic::Diagnostics::new();
        let started = std::time::Instant::now();
        let catalog =
            crate::catalog::load(std::path::Path::new(&folder), &mut diagnostics).unwrap();
        let checked = crate::check::check(catalog, &mut diagnostics);
        let archive = Archive::resolve(&checked);
        let loaded = started.elapsed();
        let started = std::time::Instant::now();
        let mut parts = Vec::new();
        let files = index_files(
            &archive,
            &Items::fresh(),
            &mut Counted::new(&mut parts),
            None,
        )
        .unwrap()
        .files;
        let built = started.elapsed();
        // With LUDOTHECA_SEARCH_OUT, the index is also written there, to try in a browser beside a built site.
        if let Some(out) = std::env::var_os("LUDOTHECA_SEARCH_OUT") {
            for (path, script) in &files {
                let path = std::path::Path::new(&out).join(path);
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(path, script).unwrap();
            }
        }
        let index = Index::new(files);
        let total: usize = index.files.values().map(String::len).sum();
        let largest = index.files.iter().max_by_key(|(_, s)| s.len()).unwrap();
        println!(
            "{} documents; loaded and resolved in {loaded:.1?}, index in {built:.1?}",
            index.manifest["docs"]
        );
        println!(
            "index: {} files, {total} bytes; manifest {} bytes; largest {} ({} bytes)",
            index.files.len(),
            index.files[MANIFEST].len(),
            largest.0,
            largest.1.len()
        );
        for query in [
            "terh",
            "terhuchu",
            "sumi naga",
            "copy",
            "the",
            "a",
            "river copy 12",
        ] {
            let (ranked, files) = index.search(query);
            // Typed a character at a time, each step loading what it needs.
            let mut typed = BTreeSet::new();
            let chars: Vec<char> = query.chars().collect();
            for k in 1..=chars.len() {
                typed.extend(index.search(&chars[..k].iter().collect::<String>()).1);
            }
            println!(
                "{query:?}: {} results; at once {} files, {} bytes; typed {} files, {} bytes",
                ranked.len(),
                files.len(),
                index.bytes(&files),
                typed.len(),
                index.bytes(&typed)
            );
        }
    }
}
