//! What the site-wide files (catalog.json, catalog.csv, oai-pmh.xml, the search index) hold for each item,
//! remembered between builds by a long-running process (the preview server). Each of those files is made in
//! full at every build, but an edit changes one item's part of it: a part is kept by a hash of everything it is
//! made from (the item's key, which covers the item, the items it links with and the catalog-wide files but
//! the templates, and whatever else the file adds), so only the edited item's parts are made again.
//!
//! A build without memory takes the parts of the previous site's data files that the index it left lists under
//! the same key (`super::reuse`), and makes the others; the output is the same byte for byte either way.

use std::collections::HashMap;
use std::fs;
use std::io::Write;
use std::ops::Range;
use std::sync::{Arc, Mutex};

use rayon::prelude::*;

use super::reuse::{self, Check, Counted, Export, Previous, Recorder, Span};

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
    /// Each item's key (`super::pages::item_key`), in the order of the archive's entries.
    keys: &'a [Hash],
    parts: Option<&'a Parts>,
    previous: Option<&'a Previous>,
    recorder: Option<&'a Recorder>,
    /// Set for a dry run ([`Items::recipe`]): each part's key is written in its place, and where the previous
    /// site's file holds the parts is noted here.
    recipe: Option<&'a Mutex<Option<KeptParts>>>,
    /// The keys of the parts of the one data file these items are writing, found by its dry run, so that
    /// writing it does not key every part again.
    part_keys: Option<&'a [Hash]>,
}

/// The parts of a data file as the previous site's file of them holds them: the keys they are made from, in
/// the order written, and where each lies.
pub struct KeptParts {
    export: Export,
    keys: Vec<Hash>,
    /// None when the previous file does not hold them all.
    spans: Option<Vec<Span>>,
}

impl KeptParts {
    /// Whether the previous site's file holds every part the dry run found.
    pub fn held_whole(&self) -> bool {
        self.spans.is_some()
    }
}

/// Where the parts taken from the previous site's file lie while a data file is written.
enum Source<'a> {
    /// In that file, which is the one the previous build wrote: a run of them is copied from there as it lies,
    /// its separators trusted as that build wrote them.
    File(&'a fs::File),
    /// In the bytes read from it, each part checked, and a separator between two seen.
    Read,
}

/// Parts taken together, as they lay in the previous file, with the separators between them.
struct Run {
    /// Where they lie (in the file, or in the bytes read from it).
    at: Range<u64>,
    /// Their checksums, in order.
    checks: Vec<Check>,
    /// Where the run begins in the file being written.
    from: u64,
}

impl Source<'_> {
    /// Whether a part found at `next` follows a run ending at `end` with `separator` between, so that the two
    /// are written together.
    fn joins(&self, read: &[u8], end: u64, next: u64, separator: &[u8]) -> bool {
        match self {
            Source::File(_) => next == end + separator.len() as u64,
            Source::Read => read.get(end as usize..next as usize) == Some(separator),
        }
    }

    /// Write the run `run` into `sink`: copied from the file where the sink can, else read into `read` first.
    fn write(
        &self,
        run: Run,
        separator: &[u8],
        read: &mut Vec<u8>,
        sink: &mut Counted,
    ) -> std::io::Result<()> {
        let parts = super::sink::Parts {
            checks: &run.checks,
            separator,
        };
        match self {
            Source::File(file) => {
                if sink.copy_run(file, run.at.clone(), parts)? {
                    return Ok(());
                }
                let bytes = reuse::room(read, (run.at.end - run.at.start) as usize);
                reuse::read_at(file, bytes, run.at.start)?;
                sink.run(bytes, parts)
            }
            Source::Read => sink.run(&read[run.at.start as usize..run.at.end as usize], parts),
        }
    }
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
            recipe: None,
            part_keys: None,
        }
    }

    /// These items for a dry run of a data file's writer: every part is written as the key it is made from,
    /// so what the writer writes is what the file is made from (its recipe, to be hashed), and where the
    /// previous site's file holds those parts is left in `found`. A file whose recipe is the one the previous
    /// build recorded is the previous file, byte for byte, and is kept whole (see [`Items::keep_parts`]).
    /// None for a long-running process, which remembers each part rather than where the previous file holds it
    /// (a file kept whole would leave it none to remember). The dry run fails when an item has no key, and the
    /// file then has no recipe.
    pub fn recipe<'b>(&'b self, found: &'b Mutex<Option<KeptParts>>) -> Option<Items<'b>> {
        (self.parts.is_none() && self.previous.is_some() && self.recorder.is_some()).then_some(
            Items {
                recipe: Some(found),
                ..*self
            },
        )
    }

    /// These items for writing the data file whose dry run found `kept`: its parts' keys are taken from there.
    pub fn keyed<'b>(&'b self, kept: &'b KeptParts) -> Items<'b> {
        Items {
            part_keys: Some(&kept.keys),
            ..*self
        }
    }

    /// The parts of a data file kept whole from the previous site, noted where they lie for the next build's
    /// index, and counted as taken.
    pub fn keep_parts(&self, kept: &KeptParts) {
        let Some(spans) = &kept.spans else {
            return;
        };
        if let Some(recorder) = self.recorder {
            recorder.record_spans(kept.export, &kept.keys, spans);
        }
        if let Some(previous) = self.previous {
            previous.kept_whole(kept.keys.len());
        }
    }

    /// The key of item `index`'s part, made from its item's key and `extra`: none for an item without a key.
    fn part_key(&self, index: usize, extra: &[u8]) -> Option<Hash> {
        match self.part_keys {
            Some(keys) if keys.len() == self.keys.len() => keys.get(index).copied(),
            _ => Some(fingerprint::key(self.keys.get(index)?, [extra])),
        }
    }

    /// Every part made afresh: for callers that build once.
    pub fn fresh() -> Items<'static> {
        Items {
            keys: &[],
            parts: None,
            previous: None,
            recorder: None,
            recipe: None,
            part_keys: None,
        }
    }

    /// The previous site's parts of `export` for the items `indices`, read together ([`Previous::get_many`])
    /// for [`Items::text`]. None are read when a long-running process remembers the parts.
    pub fn fetch(&self, export: Export, indices: &[usize], extra: &[u8]) -> Vec<Option<Part>> {
        match self.previous_keys(indices, extra) {
            Some((previous, keys)) => previous.get_many(export, &keys),
            None => vec![None; indices.len()],
        }
    }

    /// The previous site's parts, when they are to be read (not when a long-running process remembers them),
    /// and the keys of the parts of the items `indices`, made from their items' keys and `extra`.
    fn previous_keys(&self, indices: &[usize], extra: &[u8]) -> Option<(&Previous, Vec<Hash>)> {
        let previous = self
            .previous
            .filter(|_| self.parts.is_none() && !self.keys.is_empty())?;
        let keys = indices
            .iter()
            .map(|&index| self.part_key(index, extra).unwrap_or_default())
            .collect();
        Some((previous, keys))
    }

    /// Item `index`'s part of `export`, made from its item's key and `extra`, and what the index of parts keeps
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
        let Some(key) = self.part_key(index, extra) else {
            return (None, make().into());
        };
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
    /// file's. A build in a new process copies the previous file's parts as they were read: a run of them
    /// that lay together there, separators and all, is written at once, with no copy of each part made first
    /// (after one edit, that is nearly all of a file of tens of megabytes).
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
        let separator = separator.as_bytes();
        if let Some(found) = self.recipe {
            return self.write_recipe(export, count, extra, separator, sink, found);
        }
        let mut read = Vec::new();
        for start in (0..count).step_by(CHUNK) {
            let end = (start + CHUNK).min(count);
            let indices: Vec<usize> = (start..end).collect();
            let (keys, taken, source) = self.take_run(export, &indices, extra, &mut read);
            // The parts' hashes too are made here, in parallel, rather than by the one thread writing.
            let made: Vec<Option<(Option<Indexed>, Arc<str>)>> = indices
                .into_par_iter()
                .zip(&taken)
                .map(|(index, taken)| {
                    taken
                        .is_none()
                        .then(|| self.text(export, index, extra, None, || make(index)))
                })
                .collect();
            // The run of taken parts waiting to be written.
            let mut waiting: Option<Run> = None;
            for (n, (taken, made)) in taken.iter().zip(made).enumerate() {
                let index = start + n;
                if let Some((at, check)) = taken {
                    let joins = index > 0
                        && waiting.as_ref().is_some_and(|run| {
                            source.joins(&read, run.at.end, at.start, separator)
                        });
                    if !joins {
                        if let Some(run) = waiting.take() {
                            source.write(run, separator, &mut read, sink)?;
                        }
                        if index > 0 {
                            sink.write_all(separator)?;
                        }
                        waiting = Some(Run {
                            at: at.start..at.start,
                            checks: Vec::new(),
                            from: sink.written(),
                        });
                    }
                    let run = waiting.as_mut().expect("a run waits");
                    let offset = run.from + (at.start - run.at.start);
                    run.at.end = at.end;
                    run.checks.push(*check);
                    if let Some(recorder) = self.recorder {
                        recorder.record(
                            export,
                            (&keys[n], check),
                            (at.end - at.start) as usize,
                            offset,
                        );
                    }
                    continue;
                }
                if let Some(run) = waiting.take() {
                    source.write(run, separator, &mut read, sink)?;
                }
                if index > 0 {
                    sink.write_all(separator)?;
                }
                let (kept, part) = made.expect("a part not taken is made");
                let kept = kept.as_ref().map(|(key, check)| (key, check));
                sink.part(export, kept, &part, self.recorder)?;
            }
            if let Some(run) = waiting {
                source.write(run, separator, &mut read, sink)?;
            }
        }
        Ok(())
    }

    /// [`Items::write_all`] in a dry run: the number of parts, then each one's key where the part would be,
    /// with the separators between them; where the previous file holds each part goes into `found`.
    fn write_recipe(
        &self,
        export: Export,
        count: usize,
        extra: &[u8],
        separator: &[u8],
        sink: &mut Counted,
        found: &Mutex<Option<KeptParts>>,
    ) -> std::io::Result<()> {
        let keys: Option<Vec<Hash>> = (0..count)
            .into_par_iter()
            .map(|index| self.part_key(index, extra))
            .collect();
        let keys =
            keys.ok_or_else(|| std::io::Error::other("an item has no key to find its part by"))?;
        sink.write_all(&(count as u64).to_le_bytes())?;
        for (index, key) in keys.iter().enumerate() {
            if index > 0 {
                sink.write_all(separator)?;
            }
            sink.write_all(key)?;
        }
        let spans = self
            .previous
            .and_then(|previous| previous.spans(export, &keys));
        *found
            .lock()
            .expect("no thread panics while holding the parts found") = Some(KeptParts {
            export,
            keys,
            spans,
        });
        Ok(())
    }

    /// The keys of the items `indices`' parts of `export`, the parts the previous site's file holds of them,
    /// and where they lie: in that file, to be copied from there when it is the file the previous build wrote
    /// ([`Previous::placed`]), or else read into `read` and checked ([`Previous::read_run`]). None are taken
    /// when a long-running process remembers the parts, or when there is no previous site.
    #[allow(clippy::type_complexity)]
    fn take_run(
        &self,
        export: Export,
        indices: &[usize],
        extra: &[u8],
        read: &mut Vec<u8>,
    ) -> (Vec<Hash>, Vec<Option<(Range<u64>, Check)>>, Source<'_>) {
        let Some((previous, keys)) = self.previous_keys(indices, extra) else {
            return (Vec::new(), vec![None; indices.len()], Source::Read);
        };
        if let Some((file, placed)) = previous.placed(export, &keys) {
            return (keys, placed, Source::File(file));
        }
        let taken = previous
            .read_run(export, &keys, read)
            .into_iter()
            .map(|taken| taken.map(|(at, check)| (at.start as u64..at.end as u64, check)))
            .collect();
        (keys, taken, Source::Read)
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    /// `keys`' parts of catalog.json, each made by `make` unless `previous` holds it: the file and its index of
    /// parts.
    fn written(
        keys: &[Hash],
        previous: Option<&Previous>,
        make: impl Fn(usize) -> String + Sync,
    ) -> (Vec<u8>, Vec<u8>) {
        let recorder = Recorder::for_items(keys.len());
        let items = Items::new(keys, None, previous, Some(&recorder));
        let mut file = Vec::new();
        json_array(&items, keys.len(), make, &mut file);
        (file, recorder.take_bytes())
    }

    /// The `count` items' parts of catalog.json written into `sink` as a JSON array, one part to a line.
    fn json_array(
        items: &Items,
        count: usize,
        make: impl Fn(usize) -> String + Sync,
        sink: &mut dyn super::super::sink::Sink,
    ) {
        let mut sink = Counted::new(sink);
        sink.write_all(b"[\n").unwrap();
        items
            .write_all(Export::Json, count, b"", make, ",\n", &mut sink)
            .unwrap();
        sink.write_all(b"\n]").unwrap();
    }

    /// The parts a site with `file` as its catalog.json and `index` as its index of parts holds.
    fn site_with(dir: &std::path::Path, (file, index): &(Vec<u8>, Vec<u8>)) -> Previous {
        fs::write(dir.join(Export::Json.path()), file).unwrap();
        Previous::from_index(index, |path| {
            fs::File::open(dir.join(path))
                .ok()
                .map(|file| (file, false))
        })
    }

    /// `count` items' keys, each told apart by its number.
    fn numbered_keys(count: usize) -> Vec<Hash> {
        (0..count)
            .map(|n| {
                let mut key = [(n % 251) as u8 + 1; 32];
                key[..8].copy_from_slice(&(n as u64).to_le_bytes());
                key
            })
            .collect()
    }

    /// [`written`] into the file `path` through the sink a site's data file is written with: the file, its
    /// index of parts, and the checksum its manifest would record.
    fn written_to(
        path: &std::path::Path,
        keys: &[Hash],
        previous: Option<&Previous>,
        make: impl Fn(usize) -> String + Sync,
    ) -> (Vec<u8>, Vec<u8>, crate::fingerprint::Digest) {
        let recorder = Recorder::for_items(keys.len());
        let items = Items::new(keys, None, previous, Some(&recorder));
        let mut file = super::super::sink::FileSink::new(fs::File::create(path).unwrap());
        json_array(&items, keys.len(), make, &mut file);
        let (_, checksum) = file.finish().unwrap();
        (fs::read(path).unwrap(), recorder.take_bytes(), checksum)
    }

    /// The previous site in `dir` whose catalog.json and index of parts are `index`'s, taken as the files that
    /// build wrote (their parts are copied unread).
    fn site_as_written(dir: &std::path::Path, index: &[u8]) -> Previous {
        Previous::from_index(index, |path| {
            fs::File::open(dir.join(path)).ok().map(|file| (file, true))
        })
    }

    #[test]
    fn parts_of_a_file_as_written_are_copied_unread_into_a_file_checked_as_one_made_anew() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path();
        let count = 600;
        let mut keys = numbered_keys(count);
        let make = |n: usize| format!("{{\"item\": {n}, \"words\": \"{}\"}}", "w".repeat(n % 37));
        let live = dir.join(Export::Json.path());
        let first = written_to(&live, &keys, None, make);

        // Item 300 edited: every other part is copied from the live file, in runs around it.
        keys[300][31] ^= 0xff;
        let edited = |n: usize| match n {
            300 => "{\"item\": 300, \"edited\": true}".to_string(),
            n => make(n),
        };
        let previous = site_as_written(dir, &first.1);
        let copied = written_to(&dir.join("copied.json"), &keys, Some(&previous), |n| {
            assert_eq!(n, 300, "only the edited item's part is made");
            edited(n)
        });
        assert_eq!(previous.taken(), count - 1);
        let anew = written_to(&dir.join("anew.json"), &keys, None, edited);
        assert_eq!(copied.0, anew.0);
        assert_eq!(
            copied.2, anew.2,
            "the same parts give the same checksum, copied or made"
        );
        assert_ne!(copied.2, first.2);

        // The index written beside the copies finds each part where it now lies.
        fs::rename(dir.join("copied.json"), &live).unwrap();
        let again = site_as_written(dir, &copied.1);
        let unused = |_| unreachable!("every part is taken");
        let third = written_to(&dir.join("third.json"), &keys, Some(&again), unused);
        assert_eq!(third.0, anew.0);
        assert_eq!(third.2, anew.2);

        // A sink that cannot copy reads the runs instead.
        let read = written(&keys, Some(&site_as_written(dir, &copied.1)), unused);
        assert_eq!(read.0, anew.0);

        // An item removed: the parts on either side of it lie apart in the previous file, and are copied as
        // two runs, without what lay between them.
        keys.remove(150);
        let removed = |n: usize| edited(if n < 150 { n } else { n + 1 });
        let shorter = site_as_written(dir, &copied.1);
        let fewer = written_to(&dir.join("fewer.json"), &keys, Some(&shorter), unused);
        let fewer_anew = written_to(&dir.join("fewer-anew.json"), &keys, None, removed);
        assert_eq!(fewer.0, fewer_anew.0);
        assert_eq!(fewer.2, fewer_anew.2);
    }

    #[test]
    fn kept_parts_are_copied_as_they_lay_and_found_again_where_they_were_written() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path();
        // More items than one chunk: a run of parts ends with its chunk, and the next chunk's starts anew.
        let count = 600;
        let mut keys = numbered_keys(count);
        let first = |n: usize| format!("{{\"item\": {n}, \"build\": \"first\"}}");
        let built = written(&keys, None, first);

        // Item 300's key changes (an edit) and item 7's part is lost from the file (changed by hand): those two
        // are made again, every other part is the previous file's bytes, written in runs between them.
        keys[300][31] ^= 0xff;
        let mut file = built.0.clone();
        let lost = String::from_utf8_lossy(&file).find("\"item\": 7,").unwrap();
        file[lost] = b'#';
        let previous = site_with(dir, &(file, built.1.clone()));
        let second = |n: usize| format!("{{\"item\": {n}, \"build\": \"second\"}}");
        let rebuilt = written(&keys, Some(&previous), second);
        let expected: Vec<String> = (0..count)
            .map(|n| match n {
                7 | 300 => second(n),
                _ => first(n),
            })
            .collect();
        assert_eq!(
            String::from_utf8(rebuilt.0.clone()).unwrap(),
            format!("[\n{}\n]", expected.join(",\n"))
        );
        assert_eq!(previous.taken(), count - 2);

        // The index written with the copied runs finds every part where it now lies.
        let again = site_with(dir, &rebuilt);
        let unused = |_| unreachable!("every part is taken");
        assert_eq!(written(&keys, Some(&again), unused).0, rebuilt.0);
        assert_eq!(again.taken(), count);

        // The items in the opposite order: each part is still taken, and the separators between them are this
        // file's, not whatever lay between them before.
        keys.reverse();
        let reversed = written(&keys, Some(&again), unused);
        let expected: Vec<&String> = expected.iter().rev().collect();
        assert_eq!(
            String::from_utf8(reversed.0).unwrap(),
            format!(
                "[\n{}\n]",
                expected
                    .iter()
                    .map(|p| p.as_str())
                    .collect::<Vec<_>>()
                    .join(",\n")
            )
        );
        assert_eq!(again.taken(), 2 * count);
    }
}
