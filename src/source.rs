//! The text of every file the catalog reader opened, kept so that a diagnostic can quote the line it is about.
//!
//! Positions inside the reader are byte offsets; people read line:column, with the column counted in characters
//! (not bytes), so that `Bāgh` and `Bagh` put the caret under the same letter.

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use crate::catalog::stamps::{ContentHash, Known, content_hash};

/// A byte range inside one file.
pub type Span = Range<usize>;

/// Index of a file in a [`SourceMap`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileId(pub u32);

/// One file's path (as it will be printed) and text.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// Without room to grow: a large catalog holds 840,000 of them at 100,000 items. Shared, since the
    /// preview server copies every unchanged item's files into each build's map: a count rather than a copy
    /// of the path (the 16 bytes of the counts are 13 MB at 100,000 items).
    pub path: Arc<Path>,
    stored: Stored,
    /// Byte offset where each line starts; the first entry is always 0. Found on first use: only a file with
    /// a diagnostic needs them, and for a large catalog they would take a quarter of the text's size again.
    /// In 32 bits: the reader caps every file far below 4 GiB.
    line_starts: OnceLock<Box<[u32]>>,
}

/// How a file's text is held: as read, or packed with the other files of its item.
#[derive(Clone, Debug)]
enum Stored {
    /// Shared: a long-running process keeps each file as read between builds, and a build's copy of an
    /// unchanged file is the same text, not another. A `String` behind the `Arc` rather than a `str` in it:
    /// the text is the very buffer the file was read into, where an `Arc<str>` would copy every file once.
    Plain(Arc<String>),
    /// Bytes `range` of the pack's texts.
    Packed { pack: Arc<Pack>, range: Range<u32> },
    /// Not read by the load (see [`Unread`]).
    Unread(Arc<Unread>),
}

/// A file the load did not read: the previous build read it, and it still has the size, times and inode it had
/// then, so it holds the bytes whose hash that build kept. A rebuild after an edit needs few such texts (the
/// pages it renders again, a game it replays again): each is read when first asked for, and checked against
/// the hash.
///
/// Kept small: a rebuild at 100,000 items holds 740,000 of them, where the texts they stand for, packed, took
/// about as much.
#[derive(Debug)]
pub struct Unread {
    hash: ContentHash,
    len: u32,
    /// The bytes hold the placeholder mark.
    placeholder: bool,
    text: OnceLock<Arc<String>>,
    /// Where a file found changed since the load is told, so that the build drops what it made before it
    /// replaces the site, and is made again.
    changed: Arc<Changed>,
}

/// The files found changed between the load, which took them as unchanged without reading them, and the moment
/// their text was asked for: what the build made of them is not to be trusted.
#[derive(Debug, Default)]
pub struct Changed(Mutex<Vec<PathBuf>>);

impl Changed {
    /// The files found changed, in the order they were found.
    pub fn paths(&self) -> Vec<PathBuf> {
        self.0.lock().map(|paths| paths.clone()).unwrap_or_default()
    }

    fn note(&self, path: &Path) {
        if let Ok(mut paths) = self.0.lock() {
            paths.push(path.to_path_buf());
        }
    }
}

impl Unread {
    /// The file's text, read now and checked against the hash; when it no longer matches, the file is noted
    /// changed and its text is what was found, decoded lossily (the build will not be kept).
    fn read(&self, path: &Path) -> String {
        match crate::catalog::read::read_unread(path, self.len as usize) {
            Ok(bytes) if content_hash(&bytes) == self.hash => String::from_utf8(bytes)
                .unwrap_or_else(|err| {
                    self.changed.note(path);
                    String::from_utf8_lossy(err.as_bytes()).into_owned()
                }),
            Ok(bytes) => {
                self.changed.note(path);
                String::from_utf8_lossy(&bytes).into_owned()
            }
            Err(_) => {
                self.changed.note(path);
                String::new()
            }
        }
    }
}

/// The texts of one item's files (its record, rules and game records), one after another, compressed as one.
///
/// A large catalog's build holds every file's text from the load to the end, for the pages and downloads that
/// carry them; at 100,000 items that is over a gigabyte. Compressed item by item they take about a third: a
/// game's records share their tags and notation, and a file of a kilobyte or two compressed alone would keep
/// half its size. Compressed against a [`Dictionary`] of what the catalog's items have in common, they take
/// less again. A file's text is unpacked when asked for, with the rest of its item, and the last item
/// unpacked on each thread is kept, since the steps take an item's files one after another.
#[derive(Debug)]
pub struct Pack {
    /// Tells packs apart in the per-thread memory of the last one unpacked (an address could be reused).
    id: u64,
    compressed: Box<[u8]>,
    len: usize,
    dictionary: Option<Arc<Dictionary>>,
}

/// A file's text, as [`SourceFile::text`] gives it: a shared string and the file's part of it. Dereferences
/// to `str`.
#[derive(Clone, Debug)]
pub struct Text {
    whole: Arc<String>,
    range: Range<usize>,
}

impl std::ops::Deref for Text {
    type Target = str;

    fn deref(&self) -> &str {
        &self.whole[self.range.clone()]
    }
}

impl serde::Serialize for Text {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self)
    }
}

impl AsRef<str> for Text {
    fn as_ref(&self) -> &str {
        self
    }
}

/// What many items of one catalog have in common (the record's elements and namespaces, a game's rules and the
/// tags of its records), learnt by zstd from a sample of the items and shared by all their packs. An item of
/// a dozen kilobytes compressed alone must spell out once everything it shares with the others; against the
/// dictionary it refers to it instead. How much that saves depends on how alike the items are.
#[derive(Debug)]
pub struct Dictionary {
    /// Tells dictionaries apart in the per-thread compressors, which are set up for one at a time.
    id: u64,
    bytes: Box<[u8]>,
}

/// The most a dictionary holds: zstd's own default, which learnt as well as larger ones from the samples tried.
const DICTIONARY_SIZE: usize = 110 << 10;

/// Below this much sample text there is too little to learn from. Above it, the dictionary is a tenth of the
/// samples' size at most, as zstd advises.
const DICTIONARY_FROM: usize = 64 << 10;

impl Dictionary {
    /// A dictionary learnt from `samples` (each the texts of one item, as a pack holds them); none when they
    /// are too few or too small to learn from.
    pub fn learn(samples: &[&[u8]]) -> Option<Arc<Dictionary>> {
        let total: usize = samples.iter().map(|s| s.len()).sum();
        if total < DICTIONARY_FROM {
            return None;
        }
        let bytes = zstd::dict::from_samples(samples, DICTIONARY_SIZE.min(total / 10)).ok()?;
        Some(Arc::new(Dictionary {
            id: NEXT_DICTIONARY.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            bytes: bytes.into_boxed_slice(),
        }))
    }

    /// The bytes the dictionary takes in memory.
    pub fn size(&self) -> usize {
        self.bytes.len()
    }
}

/// zstd's fastest level, for a pack made alone: the texts are packed while the catalog loads, on the cores that
/// read it, and higher levels shrank them by a few per cent more for twice the time.
const PACK_LEVEL: i32 = 1;

/// zstd's default level, for a pack made against a dictionary: where most of an item is found in the
/// dictionary, this level found it better than the fastest one (400 items of a synthetic catalog packed to
/// 254 KB instead of 870 KB) and in less time, there being less left to write.
const DICTIONARY_LEVEL: i32 = 3;

/// A compressor or decompressor, set up for the dictionary of this id (0: none).
type ForDictionary<T> = std::cell::RefCell<Option<(u64, T)>>;

thread_local! {
    /// One compressor and one decompressor a thread: setting one up costs more than packing a small item.
    static COMPRESSOR: ForDictionary<zstd::bulk::Compressor<'static>> = const { std::cell::RefCell::new(None) };
    static DECOMPRESSOR: ForDictionary<zstd::bulk::Decompressor<'static>> =
        const { std::cell::RefCell::new(None) };
    /// The pack this thread unpacked last, by its id.
    static UNPACKED: std::cell::RefCell<Option<(u64, Arc<String>)>> = const { std::cell::RefCell::new(None) };
}

static NEXT_PACK: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
/// From 1: 0 stands for no dictionary.
static NEXT_DICTIONARY: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// The thread's compressor or decompressor in `slot`, set up anew by `make` unless it is already set up for
/// the dictionary `wanted`.
fn set_up<T>(slot: &mut Option<(u64, T)>, wanted: u64, make: impl FnOnce() -> T) -> &mut T {
    if slot.as_ref().is_none_or(|(id, _)| *id != wanted) {
        // The old one goes first: a context holds its dictionary's tables.
        *slot = None;
        *slot = Some((wanted, make()));
    }
    &mut slot.as_mut().expect("set up above").1
}

/// The dictionary's id and bytes (0 and none without one).
fn dictionary_of(dictionary: Option<&Arc<Dictionary>>) -> (u64, &[u8]) {
    dictionary.map_or((0, &[][..]), |d| (d.id, &d.bytes[..]))
}

impl Pack {
    fn new(texts: &str, dictionary: Option<Arc<Dictionary>>) -> Pack {
        let (wanted, bytes) = dictionary_of(dictionary.as_ref());
        let level = if dictionary.is_some() {
            DICTIONARY_LEVEL
        } else {
            PACK_LEVEL
        };
        let compressed = COMPRESSOR.with_borrow_mut(|slot| {
            let compressor = set_up(slot, wanted, || {
                zstd::bulk::Compressor::with_dictionary(level, bytes)
                    .expect("zstd sets up a compressor with a dictionary it made")
            });
            // Compressing into memory fails only when memory does.
            compressor
                .compress(texts.as_bytes())
                .expect("zstd compresses into memory")
        });
        Pack {
            id: NEXT_PACK.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            compressed: compressed.into_boxed_slice(),
            len: texts.len(),
            dictionary,
        }
    }

    fn unpack(&self) -> Arc<String> {
        if let Some(text) = UNPACKED.with_borrow(|last| {
            last.as_ref()
                .filter(|(id, _)| *id == self.id)
                .map(|(_, text)| Arc::clone(text))
        }) {
            return text;
        }
        let (wanted, dictionary) = dictionary_of(self.dictionary.as_ref());
        let bytes = DECOMPRESSOR.with_borrow_mut(|slot| {
            set_up(slot, wanted, || {
                zstd::bulk::Decompressor::with_dictionary(dictionary)
                    .expect("zstd sets up a decompressor with a dictionary it made")
            })
            .decompress(&self.compressed, self.len)
            .expect("a pack this process made unpacks")
        });
        let text = Arc::new(
            String::from_utf8(bytes).expect("a pack holds the UTF-8 texts it was made from"),
        );
        UNPACKED.with_borrow_mut(|last| *last = Some((self.id, Arc::clone(&text))));
        text
    }

    /// The bytes the pack takes in memory (its dictionary, shared with others, apart).
    pub fn size(&self) -> usize {
        self.compressed.len()
    }
}

/// A place in a file as a person reads it: 1-based line and column (in characters).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub line: usize,
    pub column: usize,
}

impl SourceFile {
    pub fn new(path: PathBuf, text: String) -> Self {
        SourceFile {
            path: Arc::from(path),
            stored: Stored::Plain(Arc::new(text)),
            line_starts: OnceLock::new(),
        }
    }

    /// The file's text (unpacked first when it is held packed).
    pub fn text(&self) -> Text {
        match &self.stored {
            Stored::Plain(text) => Text {
                whole: Arc::clone(text),
                range: 0..text.len(),
            },
            Stored::Packed { pack, range } => Text {
                whole: pack.unpack(),
                range: range.start as usize..range.end as usize,
            },
            Stored::Unread(unread) => {
                let text = unread
                    .text
                    .get_or_init(|| Arc::new(unread.read(&self.path)));
                Text {
                    whole: Arc::clone(text),
                    range: 0..text.len(),
                }
            }
        }
    }

    /// Whether the load read the file's text (held as read or packed), rather than leaving it unread.
    fn is_held(&self) -> bool {
        !matches!(self.stored, Stored::Unread(_))
    }

    /// The hash of the file's bytes and whether they hold the placeholder mark, as the previous build found
    /// them, where the load took the file as unchanged without reading it.
    pub fn unread(&self) -> Option<(ContentHash, bool)> {
        match &self.stored {
            Stored::Unread(unread) => Some((unread.hash, unread.placeholder)),
            _ => None,
        }
    }

    /// The bytes of text held in memory for this file: none for a file not read (or not yet).
    fn held_len(&self) -> usize {
        match &self.stored {
            Stored::Unread(unread) => unread.text.get().map_or(0, |text| text.len()),
            _ => self.len(),
        }
    }

    /// The length of the text in bytes, without unpacking it.
    pub fn len(&self) -> usize {
        match &self.stored {
            Stored::Plain(text) => text.len(),
            Stored::Packed { range, .. } => (range.end - range.start) as usize,
            Stored::Unread(unread) => unread.len as usize,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn line_starts(&self) -> &[u32] {
        self.line_starts.get_or_init(|| {
            let mut starts = vec![0];
            starts.extend(
                self.text()
                    .match_indices('\n')
                    .map(|(i, _)| u32::try_from(i + 1).unwrap_or(u32::MAX)),
            );
            starts.into_boxed_slice()
        })
    }

    /// The 0-based index of the line holding `offset`.
    fn line_index(&self, offset: usize) -> usize {
        match self
            .line_starts()
            .binary_search(&u32::try_from(offset).unwrap_or(u32::MAX))
        {
            Ok(i) => i,
            Err(i) => i - 1, // line_starts[0] == 0 <= offset, so i >= 1 here
        }
    }

    /// Clamp an offset into the text and back onto a character boundary, so that any span, even one computed
    /// from a damaged file, can be shown.
    fn clamp(text: &str, offset: usize) -> usize {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        offset
    }

    pub fn position(&self, offset: usize) -> Position {
        let text = self.text();
        let offset = Self::clamp(&text, offset);
        let line = self.line_index(offset);
        let start = self.line_starts()[line] as usize;
        Position {
            line: line + 1,
            column: text[start..offset].chars().count() + 1,
        }
    }

    /// The byte offset of a 1-based line and column (columns in characters), for tools that report positions
    /// that way (the rules language does). Positions past the end of a line or of the file are clamped to it.
    pub fn offset(&self, line: usize, column: usize) -> usize {
        let Some(&start) = self.line_starts().get(line.saturating_sub(1)) else {
            return self.len();
        };
        let text = self.line_text(line.max(1));
        let within = text
            .char_indices()
            .nth(column.saturating_sub(1))
            .map_or(text.len(), |(i, _)| i);
        start as usize + within
    }

    /// The byte span of `length` characters starting at a 1-based line and column (not past the line's end).
    pub fn span_at(&self, line: usize, column: usize, length: usize) -> Span {
        let start = self.offset(line, column);
        let text = self.text();
        let rest = &text[start..];
        let rest = &rest[..rest.find(['\r', '\n']).unwrap_or(rest.len())];
        let end = rest
            .char_indices()
            .nth(length)
            .map_or(rest.len(), |(i, _)| i);
        start..start + end
    }

    /// The text of the 1-based line `line`, without its line ending.
    pub fn line_text(&self, line: usize) -> String {
        let Some(&start) = self.line_starts().get(line.wrapping_sub(1)) else {
            return String::new();
        };
        let start = start as usize;
        let text = self.text();
        let end = self
            .line_starts()
            .get(line)
            .map_or(text.len(), |&end| end as usize);
        text[start..end].trim_end_matches(['\n', '\r']).to_string()
    }

    /// How many characters of `span` lie on its first line (at least 1, so a caret is always drawn).
    pub fn span_width(&self, span: &Span) -> usize {
        let text = self.text();
        let start = Self::clamp(&text, span.start);
        let end = Self::clamp(&text, span.end.max(start));
        let first_line = &text[start..end];
        let first_line = first_line.split('\n').next().unwrap_or("");
        first_line.trim_end_matches('\r').chars().count().max(1)
    }
}

/// What a [`SourceMap`] holds, in bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Held {
    /// The files' text.
    pub text: usize,
    /// The memory taken to hold it: the text where it is held as read, the packs and their dictionaries where
    /// it is packed.
    pub held: usize,
    /// The dictionaries' part of `held`.
    pub dictionaries: usize,
    /// Whether any of the texts is held packed.
    pub packed: bool,
    /// The part of `text` in files the load took as unchanged since the previous build and did not read (nor
    /// anything after it).
    pub unread: usize,
}

/// Every file read while loading a catalog.
///
/// The files are held in runs, each shared with the map it was appended from: the preview server's pass puts
/// every unchanged item's files into the new catalog's map, and a count per item (10,000 at 10,000 items) is
/// much less than copying each file, whose counts lie all over memory (84,000 files, two counts each).
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    runs: Vec<Run>,
    /// For each file, the run that holds it.
    run_of: Vec<u32>,
}

/// Files next to one another in a [`SourceMap`], the first of them numbered `start` there.
#[derive(Clone, Debug)]
struct Run {
    start: u32,
    files: Arc<Vec<SourceFile>>,
}

impl SourceMap {
    pub fn add(&mut self, path: PathBuf, text: String) -> FileId {
        self.push(SourceFile::new(path, text))
    }

    /// Add a file without its text (see [`Unread`]): the bytes `known` describes, read when first asked for; a
    /// file found changed then is told to `changed`.
    pub fn add_unread(&mut self, path: &Path, known: &Known, changed: &Arc<Changed>) -> FileId {
        self.push(SourceFile {
            // Copied once, straight into the shared path: a rebuild adds every unchanged file of the catalog
            // this way (84,000 at 10,000 items), and an owned path made first was one more copy of each.
            path: Arc::from(path),
            stored: Stored::Unread(Arc::new(Unread {
                hash: known.hash,
                len: known.stamp.size() as u32,
                placeholder: known.placeholder,
                text: OnceLock::new(),
                changed: Arc::clone(changed),
            })),
            line_starts: OnceLock::new(),
        })
    }

    /// Add `file` at the end: to the last run when this map alone holds it, else to a new run.
    fn push(&mut self, file: SourceFile) -> FileId {
        let id = FileId(self.run_of.len() as u32);
        let last = self
            .runs
            .last_mut()
            .and_then(|run| Arc::get_mut(&mut run.files));
        match last {
            Some(files) => files.push(file),
            None => self.runs.push(Run {
                start: id.0,
                files: Arc::new(vec![file]),
            }),
        }
        self.run_of.push(self.runs.len() as u32 - 1);
        id
    }

    /// Make room for `more` files.
    pub fn reserve(&mut self, more: usize) {
        self.run_of.reserve(more);
    }

    /// How many files the map holds.
    pub fn len(&self) -> usize {
        self.run_of.len()
    }

    pub fn is_empty(&self) -> bool {
        self.run_of.is_empty()
    }

    /// Add every file of `other` at the end of this map, sharing `other`'s runs rather than copying a file.
    pub fn extend_from(&mut self, other: &SourceMap) {
        let offset = self.run_of.len() as u32;
        for run in &other.runs {
            self.push_run(run.start + offset, Arc::clone(&run.files));
        }
    }

    /// Move every file of `other` to the end of this map; returns how to turn `other`'s ids into ids here.
    pub fn append(&mut self, mut other: SourceMap) -> impl Fn(FileId) -> FileId + use<> {
        let offset = self.run_of.len() as u32;
        other.shrink_to_fit();
        for run in other.runs {
            self.push_run(run.start + offset, run.files);
        }
        move |id| FileId(id.0 + offset)
    }

    fn push_run(&mut self, start: u32, files: Arc<Vec<SourceFile>>) {
        let number = self.runs.len() as u32;
        self.run_of.extend(std::iter::repeat_n(number, files.len()));
        self.runs.push(Run { start, files });
    }

    /// Let go of the room left to grow in the runs this map alone holds: a run shared with another map is held
    /// as it is for as long as both are.
    pub fn shrink_to_fit(&mut self) {
        for run in &mut self.runs {
            if let Some(files) = Arc::get_mut(&mut run.files) {
                files.shrink_to_fit();
            }
        }
    }

    /// Every file, in order.
    fn files(&self) -> impl Iterator<Item = &SourceFile> {
        self.runs.iter().flat_map(|run| run.files.iter())
    }

    /// The bytes of text the map holds in memory (not those of files left unread).
    pub fn text_len(&self) -> usize {
        self.files().map(SourceFile::held_len).sum()
    }

    /// The bytes of text the map holds, the bytes it takes to hold them (less where the texts are packed), and
    /// of those the bytes of the dictionaries the packs share (each counted once, however many packs share it).
    pub fn held(&self) -> Held {
        let mut last = None;
        let mut dictionaries = Vec::new();
        let mut held = Held::default();
        // One pass over the files (84,000 at 10,000 items), each its own allocation to visit.
        for file in self.files() {
            held.text += file.len();
            match &file.stored {
                Stored::Plain(text) => held.held += text.len(),
                Stored::Unread(unread) => match unread.text.get() {
                    Some(text) => held.held += text.len(),
                    None => held.unread += unread.len as usize,
                },
                // A pack's files are next to one another in the map: each pack is counted once.
                Stored::Packed { pack, .. } if last != Some(pack.id) => {
                    last = Some(pack.id);
                    held.packed = true;
                    held.held += pack.size();
                    if let Some(dictionary) = &pack.dictionary
                        && !dictionaries.contains(&dictionary.id)
                    {
                        dictionaries.push(dictionary.id);
                        held.held += dictionary.size();
                        held.dictionaries += dictionary.size();
                    }
                }
                Stored::Packed { .. } => {}
            }
        }
        held
    }

    /// The texts of every file of this map that the load read, one after another, as a pack holds them (and
    /// as a [`Dictionary`] learns from them).
    pub fn texts(&self) -> String {
        let mut texts = String::with_capacity(self.text_len());
        for file in self.files().filter(|f| f.is_held()) {
            texts.push_str(&file.text());
        }
        texts
    }

    /// Hold the texts of every file of this map packed as one (see [`Pack`]); a map of one item's files,
    /// whose texts are all read. Files already packed, and maps without text, are left as they are.
    pub fn pack(&mut self) {
        if self.packed_with().is_none() {
            self.pack_with(None);
        }
    }

    /// [`SourceMap::pack`] against `dictionary`; files packed without it are packed again.
    pub fn pack_with(&mut self, dictionary: Option<&Arc<Dictionary>>) {
        let wanted = dictionary.map(|d| d.id);
        if self.packed_with().is_some_and(|had| had == wanted) {
            return;
        }
        let texts = self.texts();
        // Offsets are held in 32 bits: an item with more text than that (thousands of long game records) keeps
        // it as read.
        if texts.is_empty() || u32::try_from(texts.len()).is_err() {
            return;
        }
        let pack = Arc::new(Pack::new(&texts, dictionary.cloned()));
        let mut start = 0;
        // A run shared with another map is copied first: that map's files stay as they were.
        let files = self
            .runs
            .iter_mut()
            .flat_map(|run| Arc::make_mut(&mut run.files).iter_mut());
        for file in files.filter(|f| f.is_held()) {
            let end = start + file.len();
            file.stored = Stored::Packed {
                pack: Arc::clone(&pack),
                range: start as u32..end as u32,
            };
            start = end;
        }
    }

    /// Whether the files are packed, and against which dictionary: `Some(None)` packed without one, `None`
    /// not packed (or not all of them: a map holds one pack or none).
    fn packed_with(&self) -> Option<Option<u64>> {
        let mut with = None;
        for file in self.files() {
            match &file.stored {
                Stored::Plain(_) => return None,
                Stored::Packed { pack, .. } => with = Some(pack.dictionary.as_ref().map(|d| d.id)),
                Stored::Unread(_) => {}
            }
        }
        with
    }

    pub fn get(&self, id: FileId) -> &SourceFile {
        // FileIds are only made by `add` on this map, so the index exists.
        let run = &self.runs[self.run_of[id.0 as usize] as usize];
        &run.files[(id.0 - run.start) as usize]
    }

    pub fn path(&self, id: FileId) -> &Path {
        &self.get(id).path
    }

    pub fn iter(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.files().enumerate().map(|(i, f)| (FileId(i as u32), f))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_share_runs_and_number_files_as_one_list() {
        let one_item = |name: &str| {
            let mut map = SourceMap::default();
            map.add(
                PathBuf::from(format!("{name}/record.xml")),
                format!("{name} record"),
            );
            map.add(
                PathBuf::from(format!("{name}/rules.txt")),
                format!("{name} rules"),
            );
            map
        };
        let (a, b) = (one_item("a"), one_item("b"));
        let mut catalog = SourceMap::default();
        let config = catalog.add(PathBuf::from("ludotheca.toml"), "title".to_string());
        // One item's files taken by count, another's moved in.
        catalog.extend_from(&a);
        let renumber = catalog.append(b);
        assert_eq!(renumber(FileId(1)), FileId(4));
        // A file added after a shared run starts a run of its own: the other map is left as it was.
        let late = catalog.add(PathBuf::from("about.md"), "about".to_string());
        assert_eq!((config, late, catalog.len()), (FileId(0), FileId(5), 6));
        assert_eq!(a.iter().count(), 2);
        let texts: Vec<String> = catalog.iter().map(|(_, f)| f.text().to_string()).collect();
        assert_eq!(
            texts,
            [
                "title", "a record", "a rules", "b record", "b rules", "about"
            ]
        );
        for (id, file) in catalog.iter() {
            assert_eq!(catalog.path(id), &*file.path);
        }
        assert_eq!(catalog.path(FileId(2)), Path::new("a/rules.txt"));
        // The shared run is the same files, not a copy of them.
        assert!(std::ptr::eq(catalog.get(FileId(1)), a.get(FileId(0))));
    }

    #[test]
    fn an_unread_file_is_read_when_asked_for_and_one_changed_since_is_noted() {
        let dir = std::env::temp_dir().join(format!("ludotheca-unread-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (same, edited) = (dir.join("same.game"), dir.join("edited.game"));
        std::fs::write(&same, "1. a1-b2").unwrap();
        std::fs::write(&edited, "1. a1-b3").unwrap();
        let known = crate::catalog::stamps::Known {
            stamp: crate::catalog::stamps::Stamp::of(&std::fs::metadata(&same).unwrap()).unwrap(),
            hash: content_hash(b"1. a1-b2"),
            placeholder: false,
        };
        let changed = Arc::new(Changed::default());
        let mut map = SourceMap::default();
        map.add("record.xml".into(), "<record/>".to_string());
        let a = map.add_unread(&same, &known, &changed);
        let b = map.add_unread(&edited, &known, &changed);
        // Packing takes the texts read, and leaves the others unread.
        map.pack();
        assert_eq!(map.text_len(), 9);
        let held = map.held();
        assert_eq!((held.text, held.unread), (25, 16));
        assert_eq!(map.get(a).unread(), Some((known.hash, false)));

        assert_eq!(&*map.get(a).text(), "1. a1-b2");
        assert!(changed.paths().is_empty());
        assert_eq!(map.held().unread, 8);
        // The same size and another text: what is found is given, and the file noted changed.
        assert_eq!(&*map.get(b).text(), "1. a1-b3");
        assert_eq!(changed.paths(), vec![edited.clone()]);
        assert_eq!(map.held().unread, 0);
        assert_eq!(&*map.get(FileId(0)).text(), "<record/>");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A large catalog holds 840,000 of them at 100,000 items.
    #[test]
    fn a_source_file_stays_small() {
        assert!(
            std::mem::size_of::<SourceFile>() <= 64,
            "{}",
            std::mem::size_of::<SourceFile>()
        );
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        let f = SourceFile::new("x".into(), "ab\nBāgh Chāl\n".into());
        let offset = "ab\nBāgh ".len();
        assert_eq!(f.position(offset), Position { line: 2, column: 6 });
        assert_eq!(f.line_text(2), "Bāgh Chāl");
        assert_eq!(f.position(0), Position { line: 1, column: 1 });
    }

    #[test]
    fn line_and_column_back_to_offsets() {
        let text = "ab\nBāgh Chāl\n";
        let f = SourceFile::new("x".into(), text.into());
        let offset = f.offset(2, 6);
        assert_eq!(&text[offset..], "Chāl\n");
        assert_eq!(f.position(offset), Position { line: 2, column: 6 });
        assert_eq!(&text[f.span_at(2, 1, 4)], "Bāgh");
        assert_eq!(&text[f.span_at(2, 6, 99)], "Chāl");
        assert_eq!(f.offset(9, 1), text.len());
    }

    #[test]
    fn appended_maps_renumber_their_files() {
        let mut a = SourceMap::default();
        a.add("a".into(), "1".into());
        let mut b = SourceMap::default();
        let b0 = b.add("b".into(), "2".into());
        let b1 = b.add("c".into(), "3".into());
        let renumber = a.append(b);
        assert_eq!(a.path(renumber(b0)), Path::new("b"));
        assert_eq!(&*a.get(renumber(b1)).text(), "3");
    }

    fn item_files() -> SourceMap {
        let mut map = SourceMap::default();
        map.add(
            "g/record.xml".into(),
            "<record>\n  <title>Bāgh Chāl</title>\n</record>\n".into(),
        );
        map.add("g/rules.txt".into(), "game bagh\n".into());
        map.add("g/games/empty.game".into(), String::new());
        map.add(
            "g/games/a.game".into(),
            "[Event \"a\"]\n\n1. a1-b2 *\n".repeat(40),
        );
        map
    }

    #[test]
    fn a_packed_file_reads_as_it_was_read_and_is_smaller() {
        let plain = item_files();
        let mut packed = item_files();
        packed.pack();
        let total: usize = plain.iter().map(|(_, f)| f.len()).sum();
        let Stored::Packed { pack, .. } = &packed.get(FileId(3)).stored else {
            panic!("not packed");
        };
        assert!(pack.size() < total / 4, "{} of {total}", pack.size());
        for ((_, p), (_, q)) in plain.iter().zip(packed.iter()) {
            assert_eq!(&*p.text(), &*q.text());
            assert_eq!(p.len(), q.len());
            assert_eq!(p.path, q.path);
        }
        assert_eq!(packed.text_len(), total);
        let held = |text, held, packed| Held {
            text,
            held,
            dictionaries: 0,
            packed,
            unread: 0,
        };
        assert_eq!(plain.held(), held(total, total, false));
        assert_eq!(packed.held(), held(total, pack.size(), true));
        // Diagnostics find the same lines and columns in a packed file.
        let (p, q) = (plain.get(FileId(0)), packed.get(FileId(0)));
        let at = "<record>\n  <title>Bā".len();
        assert_eq!(p.position(at), q.position(at));
        assert_eq!(
            q.position(at),
            Position {
                line: 2,
                column: 12
            }
        );
        assert_eq!(q.line_text(2), "  <title>Bāgh Chāl</title>");
        assert_eq!(p.span_width(&(at..at + 9)), q.span_width(&(at..at + 9)));
        assert_eq!(q.span_at(2, 10, 4), p.span_at(2, 10, 4));
        // Packing twice changes nothing.
        packed.pack();
        assert_eq!(&*packed.get(FileId(1)).text(), "game bagh\n");
    }

    #[test]
    fn packs_read_in_turn_on_one_thread_each_give_their_own_text() {
        let mut one = SourceMap::default();
        one.add("a".into(), "first item".into());
        one.pack();
        let mut two = SourceMap::default();
        two.add("b".into(), "second item".into());
        two.pack();
        for _ in 0..3 {
            assert_eq!(&*one.get(FileId(0)).text(), "first item");
            assert_eq!(&*two.get(FileId(0)).text(), "second item");
        }
        // A pack dropped and another made (perhaps at the same address) is never mistaken for it.
        drop(one);
        let mut three = SourceMap::default();
        three.add("c".into(), "third".into());
        three.pack();
        assert_eq!(&*three.get(FileId(0)).text(), "third");
        let threads: Vec<_> = (0..4)
            .map(|i| {
                let two = two.clone();
                std::thread::spawn(move || (i, two.get(FileId(0)).text().to_string()))
            })
            .collect();
        for t in threads {
            assert_eq!(t.join().unwrap().1, "second item");
        }
    }

    /// The files of one of many items alike: a game of the shipped catalog (its record, rules and a game
    /// record), as an archive of variants holds many copies of one game's files, each with its own title.
    fn an_item_of_many(n: usize) -> SourceMap {
        let games = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("catalog/games");
        let mut folders: Vec<_> = std::fs::read_dir(&games)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        folders.sort();
        let folder = &folders[n % folders.len()];
        let mut records: Vec<_> = std::fs::read_dir(folder.join("games"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        records.sort();
        let mut map = SourceMap::default();
        let record = std::fs::read_to_string(folder.join("record.xml")).unwrap();
        map.add(
            folder.join("record.xml"),
            record.replacen(
                "</dcterms:title>",
                &format!(" (copy {n})</dcterms:title>"),
                1,
            ),
        );
        map.add(
            folder.join("rules.txt"),
            std::fs::read_to_string(folder.join("rules.txt")).unwrap(),
        );
        let game = &records[n / folders.len() % records.len()];
        map.add(game.clone(), std::fs::read_to_string(game).unwrap());
        map
    }

    #[test]
    fn packs_made_against_a_dictionary_read_back_as_read_and_take_less() {
        let plain: Vec<SourceMap> = (0..400).map(an_item_of_many).collect();
        let texts: Vec<String> = plain.iter().step_by(2).map(SourceMap::texts).collect();
        let samples: Vec<&[u8]> = texts.iter().map(|t| t.as_bytes()).collect();
        let dictionary = Dictionary::learn(&samples).expect("enough to learn from");
        let mut alone = plain.clone();
        let mut with = plain.clone();
        for (a, w) in alone.iter_mut().zip(&mut with) {
            a.pack();
            // Packed alone first, as the load does past its mark, then again against the dictionary.
            w.pack();
            w.pack_with(Some(&dictionary));
        }
        let held = |maps: &[SourceMap]| maps.iter().map(|m| m.held().held).sum::<usize>();
        // Each map counts the dictionary once: take it out to compare the packs themselves.
        assert!(
            with.iter()
                .all(|m| m.held().dictionaries == dictionary.size())
        );
        let with_packs = held(&with) - with.len() * dictionary.size();
        // On these files zstd learns enough to save about half; on a synthetic catalog, seven eighths.
        assert!(
            with_packs * 4 < held(&alone) * 3,
            "{with_packs} against {} alone",
            held(&alone)
        );
        for ((p, w), n) in plain.iter().zip(&with).zip(0..) {
            assert!(
                matches!(&w.get(FileId(2)).stored, Stored::Packed { pack, .. } if pack.dictionary.is_some())
            );
            for ((_, a), (_, b)) in p.iter().zip(w.iter()) {
                assert_eq!(&*a.text(), &*b.text(), "item {n}");
                assert_eq!(a.path, b.path);
            }
            let title = w.get(FileId(0)).text();
            assert!(title.contains(&format!(" (copy {n})</dcterms:title>")));
        }
        // Packing again against the same dictionary changes nothing; read on other threads, each sets up its own.
        let before = with[7].held();
        with[7].pack_with(Some(&dictionary));
        assert_eq!(with[7].held(), before);
        let other = with[9].clone();
        let expected = plain[9].texts();
        assert_eq!(
            std::thread::spawn(move || other.texts()).join().unwrap(),
            expected
        );
        // Too little text to learn from: no dictionary.
        assert!(Dictionary::learn(&samples[..3]).is_none());
    }

    #[test]
    fn a_map_without_text_stays_as_it_is() {
        let mut map = SourceMap::default();
        map.add("empty".into(), String::new());
        map.pack();
        assert!(matches!(map.get(FileId(0)).stored, Stored::Plain(_)));
        assert_eq!(&*map.get(FileId(0)).text(), "");
    }

    #[test]
    fn span_width_stops_at_line_end() {
        let f = SourceFile::new("x".into(), "abc\ndef".into());
        assert_eq!(f.span_width(&(1..6)), 2);
        assert_eq!(f.span_width(&(2..2)), 1);
    }
}
