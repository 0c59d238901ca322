//! What the site-wide files (catalog.json, catalog.csv, oai-pmh.xml, the search index) hold for each item,
//! remembered between builds by a long-running process (the preview server). Each of those files is made in
//! full at every build, but an edit changes one item's part of it: a part is kept by a hash of everything it is
//! made from (the item's page key, which covers the item, the items it links with and the catalog-wide files,
//! and whatever else the file adds), so only the edited item's parts are made again.
//!
//! A build without memory takes the parts of the previous site's data files that the index it left lists under
//! the same key (`super::reuse`), and makes the others; the output is the same byte for byte either way.

use std::collections::HashMap;
use std::io::Write;
use std::sync::{Arc, Mutex};

use rayon::prelude::*;

use super::reuse::{Check, Counted, Export, Previous, Recorder};

use crate::fingerprint::{self, Hash, digest};

/// What the index of parts keeps of a part: the key it was made from, and the hash of its bytes.
pub type Indexed = (Hash, Check);

/// A part's text, with the hash the index of parts keeps of it.
pub type Part = (Arc<str>, Check);

/// Parts of one kind, by key: those the previous build made, and those this build used.
pub struct Memo<V> {
    previous: HashMap<Hash, V>,
    used: Mutex<HashMap<Hash, V>>,
}

impl<V> Default for Memo<V> {
    fn default() -> Self {
        Memo {
            previous: HashMap::new(),
            used: Mutex::new(HashMap::new()),
        }
    }
}

impl<V: Clone> Memo<V> {
    /// The part made from `key`: the previous build's, or made now.
    pub fn get_or(&self, key: Hash, make: impl FnOnce() -> V) -> V {
        let value = match self.previous.get(&key) {
            Some(value) => value.clone(),
            None => make(),
        };
        self.used
            .lock()
            .expect("no thread panics while holding the memo")
            .insert(key, value.clone());
        value
    }

    /// The build is over: keep what it used (and only that, so memory follows the catalog, not its history).
    fn settle(&mut self) {
        let used = std::mem::take(
            self.used
                .get_mut()
                .expect("no thread panics while holding the memo"),
        );
        self.previous = used;
    }
}

/// Every kind of part, kept from one build to the next.
#[derive(Default)]
pub struct Parts {
    /// An item's object in catalog.json.
    pub json: Memo<Part>,
    /// An item's row in catalog.csv.
    pub csv: Memo<Part>,
    /// An item's record in oai-pmh.xml.
    pub oai: Memo<Part>,
    /// An item's summary, alternative titles and words, as the search index takes them.
    pub search: Memo<Part>,
}

impl Parts {
    fn memo(&self, export: Export) -> &Memo<Part> {
        match export {
            Export::Json => &self.json,
            Export::Csv => &self.csv,
            Export::Oai => &self.oai,
            Export::Search => &self.search,
        }
    }

    /// The build finished: what it used is what the next one may take.
    pub fn settle(&mut self) {
        self.json.settle();
        self.csv.settle();
        self.oai.settle();
        self.search.settle();
    }
}

/// How a site-wide file finds each item's part: made every time, or through [`Parts`] (a long-running process's
/// memory) or [`Previous`] (the previous site's files), and where this build writes each part ([`Recorder`]).
pub struct Items<'a> {
    /// Each item's page key, in the order of the archive's entries.
    keys: &'a [Hash],
    parts: Option<&'a Parts>,
    previous: Option<&'a Previous>,
    recorder: Option<&'a Recorder>,
}

impl<'a> Items<'a> {
    pub fn new(
        keys: &'a [Hash],
        parts: Option<&'a Parts>,
        previous: Option<&'a Previous>,
        recorder: Option<&'a Recorder>,
    ) -> Items<'a> {
        Items {
            keys,
            parts,
            previous,
            recorder,
        }
    }

    /// Every part made afresh: for callers that build once.
    pub fn fresh() -> Items<'static> {
        Items {
            keys: &[],
            parts: None,
            previous: None,
            recorder: None,
        }
    }

    /// The previous site's parts of `export` for the items `indices`, read together ([`Previous::get_many`])
    /// for [`Items::text`]. None are read when a long-running process remembers the parts.
    pub fn fetch(&self, export: Export, indices: &[usize], extra: &[u8]) -> Vec<Option<Part>> {
        match self.previous {
            Some(previous) if self.parts.is_none() => {
                let keys: Vec<Hash> = indices
                    .iter()
                    .map(|&index| match self.keys.get(index) {
                        Some(key) => fingerprint::key(key, [extra]),
                        None => Hash::default(),
                    })
                    .collect();
                previous.get_many(export, &keys)
            }
            _ => vec![None; indices.len()],
        }
    }

    /// Item `index`'s part of `export`, made from its page key and `extra`, and what the index of parts keeps
    /// of it (the key and the hash of its bytes) when there is an index. `fetched` is what [`Items::fetch`]
    /// read for the item; without it, the previous site's part is looked for here.
    pub fn text(
        &self,
        export: Export,
        index: usize,
        extra: &[u8],
        fetched: Option<Part>,
        make: impl FnOnce() -> String,
    ) -> (Option<Indexed>, Arc<str>) {
        let Some(key) = self.keys.get(index) else {
            return (None, make().into());
        };
        let key = fingerprint::key(key, [extra]);
        // A part read back from the previous site comes with its hash, checked as it was read; a part made
        // now is hashed once, and a long-running process keeps the hash with the part.
        let stored = || match fetched.or_else(|| {
            self.previous
                .and_then(|previous| previous.get(export, &key))
        }) {
            Some(part) => part,
            None => {
                let part: Arc<str> = make().into();
                let check = digest(part.as_bytes());
                (part, check)
            }
        };
        let (part, check) = match self.parts {
            Some(parts) => parts.memo(export).get_or(key, stored),
            None => stored(),
        };
        (self.recorder.map(|_| (key, check)), part)
    }

    /// Every item's part of `export`, written to `sink` in the items' order (`separator` between two), each
    /// found by [`Items::text`]. Parts are made in parallel a chunk of items at a time, so a file that one
    /// thread writes does not wait on one thread making every part, and memory holds a chunk's parts, not the
    /// file's.
    pub fn write_all(
        &self,
        export: Export,
        count: usize,
        extra: &[u8],
        make: impl Fn(usize) -> String + Sync,
        separator: &str,
        sink: &mut Counted,
    ) -> std::io::Result<()> {
        const CHUNK: usize = 256;
        for start in (0..count).step_by(CHUNK) {
            let end = (start + CHUNK).min(count);
            let indices: Vec<usize> = (start..end).collect();
            let fetched = self.fetch(export, &indices, extra);
            // The parts' hashes too are made here, in parallel, rather than by the one thread writing.
            let parts: Vec<(Option<Indexed>, Arc<str>)> = indices
                .into_par_iter()
                .zip(fetched)
                .map(|(index, fetched)| self.text(export, index, extra, fetched, || make(index)))
                .collect();
            for (index, (kept, part)) in (start..end).zip(parts) {
                if index > 0 {
                    sink.write_all(separator.as_bytes())?;
                }
                let kept = kept.as_ref().map(|(key, check)| (key, check));
                sink.part(export, kept, &part, self.recorder)?;
            }
        }
        Ok(())
    }

    /// Write one part into `sink`, noting where it lies when there is an index of parts: for a file that writes
    /// its parts in an order of its own (the search index's, by title), having found each by [`Items::text`].
    pub fn write_part(
        &self,
        sink: &mut Counted,
        export: Export,
        kept: Option<&Indexed>,
        part: &str,
    ) -> std::io::Result<()> {
        sink.part(
            export,
            kept.map(|(key, check)| (key, check)),
            part,
            self.recorder,
        )
    }
}
