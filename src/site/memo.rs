//! What the site-wide files (catalog.json, catalog.csv, oai-pmh.xml, the search index) hold for each item,
//! remembered between builds by a long-running process (the preview server). Each of those files is made in
//! full at every build, but an edit changes one item's part of it: a part is kept by a hash of everything it is
//! made from (the item's page key, which covers the item, the items it links with and the catalog-wide files,
//! and whatever else the file adds), so only the edited item's parts are made again.
//!
//! A build without memory makes every part, as it always did; the output is the same byte for byte.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::fingerprint::{self, Hash};

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
    pub json: Memo<Arc<str>>,
    /// An item's row in catalog.csv.
    pub csv: Memo<Arc<str>>,
    /// An item's record in oai-pmh.xml.
    pub oai: Memo<Arc<str>>,
    /// An item's words in the search index, each with the best place it has.
    pub words: Memo<Arc<[(String, usize)]>>,
}

impl Parts {
    /// The build finished: what it used is what the next one may take.
    pub fn settle(&mut self) {
        self.json.settle();
        self.csv.settle();
        self.oai.settle();
        self.words.settle();
    }
}

/// How a site-wide file finds each item's part: made every time, or through [`Parts`].
pub struct Items<'a> {
    /// Each item's page key, in the order of the archive's entries.
    keys: &'a [Hash],
    parts: Option<&'a Parts>,
}

impl<'a> Items<'a> {
    pub fn new(keys: &'a [Hash], parts: Option<&'a Parts>) -> Items<'a> {
        Items { keys, parts }
    }

    /// Every part made afresh: for callers that build once.
    pub fn fresh() -> Items<'static> {
        Items {
            keys: &[],
            parts: None,
        }
    }

    /// Item `index`'s part of the file whose parts `which` picks, made from its page key and `extra`.
    pub fn text(
        &self,
        which: fn(&Parts) -> &Memo<Arc<str>>,
        index: usize,
        extra: &[u8],
        make: impl FnOnce() -> String,
    ) -> Arc<str> {
        match (self.parts, self.keys.get(index)) {
            (Some(parts), Some(key)) => {
                which(parts).get_or(fingerprint::bytes(key, [extra]), || make().into())
            }
            _ => make().into(),
        }
    }

    /// Item `index`'s words in the search index.
    pub fn words(
        &self,
        index: usize,
        make: impl FnOnce() -> Vec<(String, usize)>,
    ) -> Arc<[(String, usize)]> {
        match (self.parts, self.keys.get(index)) {
            (Some(parts), Some(key)) => parts.words.get_or(*key, || make().into()),
            _ => make().into(),
        }
    }
}
