//! The previous site's data files as a store of parts. `catalog.json`, `catalog.csv`, `oai-pmh.xml` and the
//! search index's own file of items' words ([`Export::Search`]) hold one part per item, each made from the
//! item's key (see `super::memo`). A build records where each part lies in its file ([`INDEX`]), so the
//! next build, even in a new process, reads an unchanged item's part from the previous site's file instead of
//! making it again: after one edit, the files are mostly copied.
//!
//! Every recorded part carries a checksum of its bytes, checked when it is read: a previous file edited by hand, cut
//! short or replaced costs the part being made again, never a wrong part. A file that is still the one the
//! previous build's manifest describes (its size, time of change and inode, the look every kept file of the site
//! passes), read with the index that is too, is what that build wrote: its parts are taken without the check
//! (118 MB hashed again after each edit at 10,000 items, on the data files' chain), and copied from file to file
//! rather than read ([`Previous::placed`], `super::sink`).

use std::fs;
use std::io::{self, Write};
use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use super::sink::{Parts, Sink};
use crate::fingerprint::{Hash, digest};

/// The index of the parts, kept in the site beside its manifest.
pub const INDEX: &str = ".ludotheca-parts";

/// The index's first line: its format.
const HEADER: &[u8] = b"ludotheca-parts 2\n";

/// A part's checksum, as the index keeps it ([`crate::fingerprint::digest`]).
pub type Check = crate::fingerprint::Digest;

/// One entry of the index: which file, the part's key, the hash of its bytes, where it starts and its length.
const ENTRY: usize = 1 + 32 + 16 + 8 + 4;

/// The data files made of one part per item.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Export {
    Json,
    Csv,
    Oai,
    /// Each item's summary, alternative titles and folded words, as the search index takes them: not a file of
    /// the published site's, but where the next build finds them instead of reading every description again.
    Search,
}

/// How many kinds of part there are.
const KINDS: usize = 4;

impl Export {
    pub const ALL: [Export; KINDS] = [Export::Json, Export::Csv, Export::Oai, Export::Search];

    /// The file's path in the site.
    pub fn path(self) -> &'static str {
        match self {
            Export::Json => "catalog.json",
            Export::Csv => "catalog.csv",
            Export::Oai => "oai-pmh.xml",
            Export::Search => ".ludotheca-search",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// Where one part lies in its file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Span {
    check: Check,
    offset: u64,
    len: u32,
}

impl Span {
    fn end(self) -> u64 {
        self.offset + u64::from(self.len)
    }
}

impl Recorder {
    /// Note the parts made from `keys` where `spans` say they lie: a file kept whole from the previous site
    /// holds them where its index said.
    pub(super) fn record_spans(&self, export: Export, keys: &[Hash], spans: &[Span]) {
        for (key, span) in keys.iter().zip(spans) {
            self.record(export, (key, &span.check), span.len as usize, span.offset);
        }
    }
}

/// Parts by key. Hashed with foldhash rather than SipHash: 40,000 parts are filed at the start of every
/// rebuild of 10,000 items and each looked up as its file is written, on the data files' chain.
type Spans = foldhash::HashMap<Hash, Span>;

/// The parts the previous site's data files hold, by key.
#[derive(Default)]
pub struct Previous {
    /// Each kind's file, whether it is as the previous build wrote it (see the module's doc), and its parts.
    files: [Option<(fs::File, bool, Spans)>; KINDS],
    /// Parts read intact, for the build's report.
    taken: AtomicUsize,
    /// Data files kept whole (see `super::memo::Items::recipe`), for the build's report.
    kept_whole: AtomicUsize,
}

impl Previous {
    /// The parts listed by `index` (the previous site's [`INDEX`]), in the files `open` gives by path, each with
    /// whether it is as the previous build wrote it (then its parts are not checked). An index that cannot be
    /// read, or a file that cannot be opened, gives no parts for it.
    pub fn from_index(index: &[u8], open: impl Fn(&str) -> Option<(fs::File, bool)>) -> Previous {
        let mut previous = Previous::default();
        let Some(entries) = index.strip_prefix(HEADER) else {
            return previous;
        };
        if entries.len() % ENTRY != 0 {
            return previous;
        }
        // Room for each kind's share of the entries at once (each item has a part of each kind).
        let each = entries.len() / ENTRY / KINDS;
        let mut spans: [Spans; KINDS] =
            std::array::from_fn(|_| Spans::with_capacity_and_hasher(each, Default::default()));
        for entry in entries.chunks_exact(ENTRY) {
            let Some(&export) = Export::ALL.get(usize::from(entry[0])) else {
                return previous;
            };
            let field = |from: usize, to: usize| &entry[from..to];
            let span = Span {
                check: field(33, 49).try_into().expect("16 bytes"),
                offset: u64::from_le_bytes(field(49, 57).try_into().expect("8 bytes")),
                len: u32::from_le_bytes(field(57, 61).try_into().expect("4 bytes")),
            };
            spans[export.index()].insert(field(1, 33).try_into().expect("32 bytes"), span);
        }
        for (export, spans) in Export::ALL.into_iter().zip(spans) {
            if !spans.is_empty()
                && let Some((file, as_written)) = open(export.path())
            {
                previous.files[export.index()] = Some((file, as_written, spans));
            }
        }
        previous
    }

    /// The part of `export` made from `key`, when the previous file holds it intact, with its hash.
    pub fn get(&self, export: Export, key: &Hash) -> Option<(Arc<str>, Check)> {
        let (file, as_written, spans) = self.files[export.index()].as_ref()?;
        self.read(file, *as_written, *spans.get(key)?)
    }

    /// [`Previous::get`] for each of `keys`, read in one go when the parts lie close together (see
    /// [`Previous::read_run`]).
    pub fn get_many(&self, export: Export, keys: &[Hash]) -> Vec<Option<(Arc<str>, Check)>> {
        let mut bytes = Vec::new();
        self.read_run(export, keys, &mut bytes)
            .into_iter()
            .map(|found| {
                let (at, check) = found?;
                let part = std::str::from_utf8(&bytes[at]).ok()?;
                Some((part.into(), check))
            })
            .collect()
    }

    /// The parts of `export` made from each of `keys`, read into `bytes` (kept from one call to the next, so
    /// that its room is made once): where each lies there, and its checksum, for each part the previous file
    /// holds intact. Parts that lie close together, as they do when the previous build wrote the same items in
    /// the same order, are read in one go with whatever lies between them (the separators a file writes), one
    /// read rather than one per part (40,000 of them at 10,000 items); a caller copying them into a new file
    /// can then write a run of them at once. The bytes are the previous build's, which it wrote as text; a
    /// part's checksum is what vouches for them.
    pub fn read_run(
        &self,
        export: Export,
        keys: &[Hash],
        bytes: &mut Vec<u8>,
    ) -> Vec<Option<(Range<usize>, Check)>> {
        let Some((file, as_written, spans)) = self.files[export.index()].as_ref() else {
            return vec![None; keys.len()];
        };
        let found: Vec<Option<Span>> = keys.iter().map(|key| spans.get(key).copied()).collect();
        let wanted: u64 = found.iter().flatten().map(|span| u64::from(span.len)).sum();
        let (start, end) = found
            .iter()
            .flatten()
            .fold((u64::MAX, 0), |(start, end), span| {
                (start.min(span.offset), end.max(span.end()))
            });
        // Parts scattered over the file (the items were reordered) are read one by one, not with all between.
        let close = wanted > 0 && end - start <= wanted.saturating_mul(2) + (64 << 10);
        let at: Vec<Option<(Range<usize>, Span)>> =
            if close && read_at(file, room(bytes, (end - start) as usize), start).is_ok() {
                found
                    .into_iter()
                    .map(|span| {
                        let span = span?;
                        let from = (span.offset - start) as usize;
                        Some((from..from + span.len as usize, span))
                    })
                    .collect()
            } else {
                let room = room(bytes, wanted as usize);
                let mut from = 0;
                found
                    .into_iter()
                    .map(|span| {
                        let span = span?;
                        let at = from..from + span.len as usize;
                        from = at.end;
                        read_at(file, &mut room[at.clone()], span.offset).ok()?;
                        Some((at, span))
                    })
                    .collect()
            };
        at.into_iter()
            .map(|found| {
                let (at, span) = found?;
                if !as_written && digest(&bytes[at.clone()]) != span.check {
                    return None;
                }
                self.taken.fetch_add(1, Ordering::Relaxed);
                Some((at, span.check))
            })
            .collect()
    }

    /// Where the previous file of `export` holds the parts made from each of `keys`, when it is the file the
    /// previous build wrote (see the module's doc): its parts are then taken where they lie, copied rather than
    /// read. None for any other file, whose parts [`Previous::read_run`] reads and checks.
    #[allow(clippy::type_complexity)]
    pub fn placed(
        &self,
        export: Export,
        keys: &[Hash],
    ) -> Option<(&fs::File, Vec<Option<(Range<u64>, Check)>>)> {
        let (file, as_written, spans) = self.files[export.index()].as_ref()?;
        if !as_written {
            return None;
        }
        let placed = keys
            .iter()
            .map(|key| {
                let span = spans.get(key)?;
                self.taken.fetch_add(1, Ordering::Relaxed);
                Some((span.offset..span.end(), span.check))
            })
            .collect();
        Some((file, placed))
    }

    fn read(&self, file: &fs::File, as_written: bool, span: Span) -> Option<(Arc<str>, Check)> {
        let mut bytes = vec![0; span.len as usize];
        read_at(file, &mut bytes, span.offset).ok()?;
        self.intact(&bytes, as_written, span)
    }

    /// The part read as `bytes`, if they are what the index recorded (taken as such from a file as written).
    fn intact(&self, bytes: &[u8], as_written: bool, span: Span) -> Option<(Arc<str>, Check)> {
        if !as_written && digest(bytes) != span.check {
            return None;
        }
        let part = std::str::from_utf8(bytes).ok()?;
        self.taken.fetch_add(1, Ordering::Relaxed);
        Some((part.into(), span.check))
    }

    /// How many parts were read from the previous site's files.
    pub fn taken(&self) -> usize {
        self.taken.load(Ordering::Relaxed)
    }

    /// Where the previous site's file of `export` holds each of the parts made from `keys`, in order: none
    /// when its index does not list them all.
    pub(super) fn spans(&self, export: Export, keys: &[Hash]) -> Option<Vec<Span>> {
        let (_, _, spans) = self.files[export.index()].as_ref()?;
        keys.iter().map(|key| spans.get(key).copied()).collect()
    }

    /// A file of `count` parts kept whole from the previous site: its parts count as taken.
    pub(super) fn kept_whole(&self, count: usize) {
        self.taken.fetch_add(count, Ordering::Relaxed);
        self.kept_whole.fetch_add(1, Ordering::Relaxed);
    }

    /// How many data files were kept whole.
    pub fn files_kept_whole(&self) -> usize {
        self.kept_whole.load(Ordering::Relaxed)
    }
}

/// The first `len` bytes of `bytes`, grown to hold them if need be: zeroed only as it grows, not at each read.
pub(super) fn room(bytes: &mut Vec<u8>, len: usize) -> &mut [u8] {
    if bytes.len() < len {
        bytes.resize(len, 0);
    }
    &mut bytes[..len]
}

#[cfg(unix)]
pub(super) fn read_at(file: &fs::File, buf: &mut [u8], offset: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
}

#[cfg(not(unix))]
pub(super) fn read_at(file: &fs::File, buf: &mut [u8], offset: u64) -> io::Result<()> {
    use std::io::{Read, Seek, SeekFrom};
    // Elsewhere a file has one position; parts are read one at a time there.
    static ONE: Mutex<()> = Mutex::new(());
    let _one = ONE.lock().expect("no thread panics while reading a part");
    let mut file = file;
    file.seek(SeekFrom::Start(offset))?;
    file.read_exact(buf)
}

/// Where this build writes each part, for the next build's [`Previous`]. Each file's entries are kept apart
/// and in the order the parts are written, so the same site always gives the same index, whichever file's
/// thread runs first.
#[derive(Default)]
pub struct Recorder {
    entries: [Mutex<Vec<u8>>; KINDS],
}

impl Recorder {
    /// A recorder for a site of `items` items, each kind's room made at once: grown by doubling, the four lists
    /// would hold up to twice their size (tens of megabytes at 100,000 items, near the build's peak).
    pub fn for_items(items: usize) -> Recorder {
        Recorder {
            entries: std::array::from_fn(|_| Mutex::new(Vec::with_capacity(items * ENTRY))),
        }
    }

    /// Note that the part of `export` made from `key`, of checksum `check` and `len` bytes, lies at `offset` in
    /// its file.
    pub(super) fn record(
        &self,
        export: Export,
        (key, check): (&Hash, &Check),
        len: usize,
        offset: u64,
    ) {
        let Ok(len) = u32::try_from(len) else {
            return;
        };
        let mut entries = self.entries[export.index()]
            .lock()
            .expect("no thread panics while holding the index");
        entries.push(export as u8);
        entries.extend_from_slice(key);
        entries.extend_from_slice(check);
        entries.extend_from_slice(&offset.to_le_bytes());
        entries.extend_from_slice(&len.to_le_bytes());
    }

    /// The index's bytes: what was recorded so far, which the recorder no longer holds. Each kind's entries
    /// are let go as they are copied: at 100,000 items they are tens of megabytes, and the build is near its
    /// peak of memory here.
    pub fn take_bytes(&self) -> Vec<u8> {
        fn lock(entries: &Mutex<Vec<u8>>) -> std::sync::MutexGuard<'_, Vec<u8>> {
            entries
                .lock()
                .expect("no thread panics while holding the index")
        }
        let total: usize = self.entries.iter().map(|e| lock(e).len()).sum();
        let mut bytes = Vec::with_capacity(HEADER.len() + total);
        bytes.extend_from_slice(HEADER);
        for entries in &self.entries {
            bytes.extend_from_slice(&std::mem::take(&mut *lock(entries)));
        }
        bytes
    }
}

/// A data file being written, counting its bytes so that each part's place can be recorded.
pub struct Counted<'w> {
    inner: &'w mut dyn Sink,
    written: u64,
}

impl<'w> Counted<'w> {
    pub fn new(inner: &'w mut dyn Sink) -> Counted<'w> {
        Counted { inner, written: 0 }
    }

    /// Write one item's part of `export`, noting where it lies by `kept`: the key it was made from and the
    /// checksum of its bytes ([`digest`]).
    pub fn part(
        &mut self,
        export: Export,
        kept: Option<(&Hash, &Check)>,
        part: &str,
        recorder: Option<&Recorder>,
    ) -> io::Result<()> {
        match kept {
            Some(kept) => {
                if let Some(recorder) = recorder {
                    recorder.record(export, kept, part.len(), self.written);
                }
                self.run(
                    part.as_bytes(),
                    Parts {
                        checks: &[*kept.1],
                        separator: b"",
                    },
                )
            }
            None => self.write_all(part.as_bytes()),
        }
    }

    /// Write `bytes`, which hold `parts`.
    pub fn run(&mut self, bytes: &[u8], parts: Parts<'_>) -> io::Result<()> {
        self.inner.parts(bytes, parts)?;
        self.written += bytes.len() as u64;
        Ok(())
    }

    /// Copy the bytes `at` in `from`, which hold `parts`: false when the sink cannot.
    pub fn copy_run(
        &mut self,
        from: &fs::File,
        at: Range<u64>,
        parts: Parts<'_>,
    ) -> io::Result<bool> {
        let len = at.end - at.start;
        let copied = self.inner.copy_parts(from, at, parts)?;
        if copied {
            self.written += len;
        }
        Ok(copied)
    }

    /// How many bytes were written so far.
    pub fn written(&self) -> u64 {
        self.written
    }
}

impl Write for Counted<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.written += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file written with recorded parts, read back as the previous site's.
    fn written(parts: &[(&Hash, &str)]) -> (Vec<u8>, Vec<u8>) {
        let recorder = Recorder::default();
        let mut file = Vec::new();
        {
            let mut sink = Counted::new(&mut file);
            sink.write_all(b"[").unwrap();
            for (n, (key, part)) in parts.iter().enumerate() {
                if n > 0 {
                    sink.write_all(b",").unwrap();
                }
                let check = digest(part.as_bytes());
                sink.part(Export::Json, Some((key, &check)), part, Some(&recorder))
                    .unwrap();
            }
            sink.write_all(b"]").unwrap();
        }
        (file, recorder.take_bytes())
    }

    fn previous(file: &[u8], index: &[u8], dir: &std::path::Path) -> Previous {
        previous_as(file, index, dir, false)
    }

    /// [`previous`], its file taken as written by the build that wrote the index when `as_written`.
    fn previous_as(file: &[u8], index: &[u8], dir: &std::path::Path, as_written: bool) -> Previous {
        let path = dir.join("catalog.json");
        fs::write(&path, file).unwrap();
        Previous::from_index(index, |p| {
            assert_eq!(p, "catalog.json");
            fs::File::open(&path).ok().map(|file| (file, as_written))
        })
    }

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("ludotheca-reuse-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_recorded_part_is_read_back_from_the_file() {
        let dir = scratch("back");
        let (a, b) = ([1; 32], [2; 32]);
        let (file, index) = written(&[(&a, "{\"id\":\"a\"}"), (&b, "{\"id\":\"bé\"}")]);
        assert_eq!(file, "[{\"id\":\"a\"},{\"id\":\"bé\"}]".as_bytes());
        let previous = previous(&file, &index, &dir);
        let part = |key| previous.get(Export::Json, key).map(|(part, _)| part);
        assert_eq!(part(&a).as_deref(), Some("{\"id\":\"a\"}"));
        assert_eq!(part(&b).as_deref(), Some("{\"id\":\"bé\"}"));
        // The hash comes with the part, as the index recorded it.
        assert_eq!(
            previous.get(Export::Json, &a).map(|(_, check)| check),
            Some(digest(b"{\"id\":\"a\"}"))
        );
        assert_eq!(previous.get(Export::Json, &[3; 32]), None);
        assert_eq!(previous.get(Export::Csv, &a), None);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_changed_or_short_file_gives_no_part() {
        let dir = scratch("changed");
        let (a, b) = ([1; 32], [2; 32]);
        let (file, index) = written(&[(&a, "{\"id\":\"a\"}"), (&b, "{\"id\":\"b\"}")]);
        // The same length, one byte changed by hand: that part is made again, the other still read.
        let mut edited = file.clone();
        edited[8] = b'x';
        let previous = previous(&edited, &index, &dir);
        assert_eq!(previous.get(Export::Json, &a), None);
        assert!(previous.get(Export::Json, &b).is_some());
        // Cut short: the parts past the end are not there.
        let previous = self::previous(&file[..14], &index, &dir);
        assert!(previous.get(Export::Json, &a).is_some());
        assert_eq!(previous.get(Export::Json, &b), None);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_file_as_written_gives_its_parts_unchecked_and_any_other_checked() {
        let dir = scratch("as-written");
        let (a, b) = ([1; 32], [2; 32]);
        let (file, index) = written(&[(&a, "{\"id\":\"a\"}"), (&b, "{\"id\":\"b\"}")]);
        let mut edited = file.clone();
        edited[8] = b'x';
        // A file its manifest vouches for is what the previous build wrote: each part is taken as it lies,
        // with the checksum the index gives it, read one by one or together.
        let vouched = previous_as(&edited, &index, &dir, true);
        let part = vouched.get(Export::Json, &a).map(|(part, _)| part);
        assert_eq!(part.as_deref(), Some("{\"id\":\"x\"}"));
        let together = vouched.get_many(Export::Json, &[a, b]);
        assert_eq!(
            together[0].as_ref().map(|(p, _)| &**p),
            Some("{\"id\":\"x\"}")
        );
        assert_eq!(vouched.taken(), 3);
        // Any other file is checked part by part: the changed part is not taken, the other is.
        let checked = previous_as(&edited, &index, &dir, false);
        assert_eq!(checked.get(Export::Json, &a), None);
        assert_eq!(checked.get_many(Export::Json, &[a, b])[0], None);
        assert!(checked.get(Export::Json, &b).is_some());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn parts_read_together_are_the_parts_read_one_by_one() {
        let dir = scratch("many");
        let keys: Vec<Hash> = (0..6u8).map(|n| [n; 32]).collect();
        let texts: Vec<String> = (0..6)
            .map(|n| format!("{{\"id\":\"item-{n}é\"}}"))
            .collect();
        let parts: Vec<(&Hash, &str)> = keys.iter().zip(&texts).map(|(k, t)| (k, &t[..])).collect();
        let (file, index) = written(&parts);
        let previous = previous(&file, &index, &dir);
        let one_by_one = |keys: &[Hash]| -> Vec<Option<(Arc<str>, Check)>> {
            keys.iter()
                .map(|key| previous.get(Export::Json, key))
                .collect()
        };
        // In the order written, reordered, with a key the file lacks, and none at all.
        let missing = [9; 32];
        for asked in [
            keys.clone(),
            vec![keys[4], keys[1], keys[5]],
            vec![keys[0], missing, keys[2]],
            vec![missing],
            Vec::new(),
        ] {
            assert_eq!(previous.get_many(Export::Json, &asked), one_by_one(&asked));
        }
        assert_eq!(
            previous.get_many(Export::Json, &keys[..2])[1]
                .as_ref()
                .map(|(p, _)| &**p),
            Some(&texts[1][..])
        );
        // A part changed by hand is not taken; the others still are.
        let mut edited = file.clone();
        let at = file.windows(6).position(|w| w == b"item-2").unwrap();
        edited[at] = b'x';
        let previous = self::previous(&edited, &index, &dir);
        let taken = previous.get_many(Export::Json, &keys);
        assert_eq!(taken.iter().filter(|p| p.is_none()).count(), 1);
        // Cut short: the run cannot be read whole, and the parts before the cut are still taken.
        let previous = self::previous(&file[..file.len() / 2], &index, &dir);
        let taken = previous.get_many(Export::Json, &keys);
        assert!(taken[0].is_some());
        assert!(taken[5].is_none());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_index_that_cannot_be_read_gives_nothing() {
        let dir = scratch("index");
        let a = [1; 32];
        let (file, index) = written(&[(&a, "{}")]);
        for broken in [
            &b""[..],
            &index[..index.len() - 1],
            &index[1..],
            b"ludotheca-parts 3\n",
        ] {
            assert_eq!(previous(&file, broken, &dir).get(Export::Json, &a), None);
        }
        let mut unknown = index.clone();
        unknown[HEADER.len()] = 7;
        assert_eq!(previous(&file, &unknown, &dir).get(Export::Json, &a), None);
        fs::remove_dir_all(&dir).unwrap();
    }
}
