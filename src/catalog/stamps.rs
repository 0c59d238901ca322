//! What a build knows of the catalog's rules files and game records from the build before it, so that a
//! rebuild need not read the files no one touched.
//!
//! A file's **stamp** is its size, its times of last change (of its bytes, and of the file itself) and its inode.
//! A build keeps, beside the site, each rules file's and game record's stamp with the hash of the bytes it read
//! and whether they hold the placeholder mark. The next build looks at each such file first; when the stamp is
//! the same, the file holds the same bytes, and the load takes the hash without reading it. The text is read
//! later only if a page or a check asks for it, and checked against the hash then: for a file changed in
//! between, the build drops what it made before it replaces the site, and is made again reading every file.
//! Most of a rebuild's reading was these files: nearly nine in ten of a large catalog's files, and three
//! quarters of its text. Records are taken by their stamps too, as the previous build parsed them (see
//! [`super::parsed`]).
//!
//! Why a stamp can be trusted: writing a file moves its change time (`ctime`) to the present, and no program
//! can set it back (`touch` and archivers set the other time); replacing a file, by renaming another over it
//! as editors and version control do, gives a new inode. What a stamp cannot tell apart is two writes within
//! one tick of the file system's clock. So a stamp is kept only when both its times lie at least
//! [`SETTLED`] before the build began: a file written just before, or while, a build reads it is read again
//! by the next one.
//!
//! An item's folder of game records is taken by its stamp in the same way: adding, removing or renaming a file
//! in a folder moves the folder's times, so a folder with the stamp it had holds the names it held. A build
//! keeps a folder's stamp with its names (as the entries of its game records that follow it), and the next
//! build looks at each of those files by name instead of listing the folder: at 10,000 items, 8,000 folders
//! not opened and read. The files' own stamps still tell whether each changed.

use std::fs::Metadata;
use std::hash::BuildHasher;
use std::path::Path;
use std::time::{Duration, SystemTime};

use crate::source::FileId;

/// How long before a build a file must have last changed for its stamp to be kept: far longer than a file
/// system's clock tick (a few milliseconds on Linux's own file systems, two seconds on the coarsest).
pub const SETTLED: Duration = Duration::from_secs(3);

/// The first line of the file a build keeps its stamps in: its format.
pub const HEADER: &[u8] = b"ludotheca-stamps 3\n";

/// A file's size, times (in nanoseconds since 1970) and inode, as the system reports them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stamp {
    modified: i64,
    changed: i64,
    inode: u64,
    device: u64,
    /// The reader takes no rules file or game record past a few MiB.
    len: u32,
}

/// A time the system gives in seconds and nanoseconds, as nanoseconds since 1970.
pub(crate) fn nanos(seconds: i64, nanos: i64) -> i64 {
    seconds.saturating_mul(1_000_000_000).saturating_add(nanos)
}

impl Stamp {
    /// The stamp of the file `meta` describes, without following a link: none for anything but a regular file
    /// (or one of 4 GiB or more), or where the system does not give the times of change.
    pub fn of(meta: &Metadata) -> Option<Stamp> {
        Stamp::of_any(meta).filter(|_| meta.file_type().is_file())
    }

    /// The stamp of the folder `meta` describes, without following a link: none for anything but a folder.
    pub fn of_folder(meta: &Metadata) -> Option<Stamp> {
        Stamp::of_any(meta).filter(|_| meta.file_type().is_dir())
    }

    #[cfg(unix)]
    fn of_any(meta: &Metadata) -> Option<Stamp> {
        use std::os::unix::fs::MetadataExt;
        Some(Stamp {
            len: u32::try_from(meta.len()).ok()?,
            modified: nanos(meta.mtime(), meta.mtime_nsec()),
            changed: nanos(meta.ctime(), meta.ctime_nsec()),
            inode: meta.ino(),
            device: meta.dev(),
        })
    }

    #[cfg(not(unix))]
    fn of_any(_meta: &Metadata) -> Option<Stamp> {
        None
    }

    /// Both times lie at least [`SETTLED`] before `began`.
    pub fn settled(&self, began: SystemTime) -> bool {
        let Ok(since) = began.duration_since(SystemTime::UNIX_EPOCH) else {
            return false;
        };
        let Some(before) = since.checked_sub(SETTLED) else {
            return false;
        };
        let before = nanos(before.as_secs() as i64, i64::from(before.subsec_nanos()));
        self.modified <= before && self.changed <= before
    }

    /// The file's size in bytes.
    pub fn size(&self) -> usize {
        self.len as usize
    }

    /// The stamp at fixed widths, little-endian: size, the two times, inode, device.
    pub fn to_bytes(&self) -> [u8; STAMP] {
        let mut bytes = [0; STAMP];
        bytes[..4].copy_from_slice(&self.len.to_le_bytes());
        bytes[4..12].copy_from_slice(&self.modified.to_le_bytes());
        bytes[12..20].copy_from_slice(&self.changed.to_le_bytes());
        bytes[20..28].copy_from_slice(&self.inode.to_le_bytes());
        bytes[28..].copy_from_slice(&self.device.to_le_bytes());
        bytes
    }

    /// The stamp [`Stamp::to_bytes`] wrote.
    pub fn from_bytes(bytes: &[u8; STAMP]) -> Stamp {
        let take =
            |at: usize| -> [u8; 8] { bytes[at..at + 8].try_into().expect("8 bytes of a stamp") };
        Stamp {
            len: u32::from_le_bytes(bytes[..4].try_into().expect("4 bytes of a stamp")),
            modified: i64::from_le_bytes(take(4)),
            changed: i64::from_le_bytes(take(12)),
            inode: u64::from_le_bytes(take(20)),
            device: u64::from_le_bytes(take(28)),
        }
    }
}

/// The bytes of a stamp as [`Stamp::to_bytes`] writes it.
pub const STAMP: usize = 4 + 8 + 8 + 8 + 8;

/// What a build read in one file: its stamp, the hash of its bytes, and whether they hold the placeholder mark.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Known {
    pub stamp: Stamp,
    pub hash: ContentHash,
    pub placeholder: bool,
}

/// The hash of a file's bytes as a stamp keeps it: the first half of their BLAKE3 hash, which tells files
/// apart as surely as the whole for anything but a forger, and a forger who can write the catalog has no need
/// of a collision. Half the size, in the 740,000 stamps of 100,000 items.
pub type ContentHash = [u8; 16];

/// The [`ContentHash`] of `bytes`.
pub fn content_hash(bytes: &[u8]) -> ContentHash {
    let hash = blake3::hash(bytes);
    let mut half = [0; 16];
    half.copy_from_slice(&hash.as_bytes()[..16]);
    half
}

/// The files one build read and the next may take without reading, by path within the catalog folder.
///
/// Held by a 64-bit hash of the path rather than the path: at 100,000 items there are 740,000 of them. Two
/// paths of one hash could only mislead if the file at one had the other's stamp, inode and device included,
/// which only a second name of the very same file (a hard link) has, and that holds the same bytes.
///
/// The files of a folder of game records kept with its names (most of a catalog's files) are held with the
/// folder, in the order listed, not each by its path: the load takes them name by name as it goes through
/// the folder's listing, and a lookup of each in a map of 76,000 paths at 10,000 items was a tenth of taking
/// the items.
#[derive(Debug, Default)]
pub struct Stamps {
    files: foldhash::HashMap<u64, Known>,
    /// Each folder of game records kept with its stamp: the stamp, and which of [`Stamps::names`] it held.
    folders: foldhash::HashMap<u64, (Stamp, std::ops::Range<u32>)>,
    /// The names the folders held, one after another, each ending where [`Stamps::name_ends`] says: one text
    /// rather than one per name (660,000 of them at 100,000 items).
    names: String,
    name_ends: Vec<u32>,
    /// What a build read in the file of each name, in the same order.
    named: Vec<Known>,
    /// How many of those are in the map too (see [`Stamps::from_bytes`]).
    named_by_path: usize,
    /// Seeded for this process: the keys never leave it.
    keys: foldhash::quality::RandomState,
    /// The records the build parsed, each with its stamp (see [`super::parsed`]).
    pub records: super::parsed::ParsedRecords,
    /// The names of the files these were read from that were there but could not be read back (damaged, or
    /// another version's): the build writes them anew.
    pub unreadable: Vec<&'static str>,
}

impl Stamps {
    fn key(&self, path: &Path) -> u64 {
        self.keys.hash_one(path.as_os_str().as_encoded_bytes())
    }
}

impl Stamps {
    /// The stamps kept by a build as [`push_entries`] and [`push_folder`] write them: none when the bytes are
    /// not that (another version's file, or a damaged one).
    pub fn from_bytes(bytes: &[u8]) -> Stamps {
        let mut stamps = Stamps::default();
        let Some(mut rest) = bytes.strip_prefix(HEADER) else {
            return stamps;
        };
        // Room for as many entries as the file could hold, in the list most of them go into: the map holds the
        // files kept by path only, a tenth of them in a catalog of games, and room for all would be pages of
        // a table touched for nothing.
        stamps.named.reserve(rest.len() / (ENTRY + 40));
        while !rest.is_empty() {
            // A damaged file vouches for nothing.
            let Some((path, found, after)) = entry(rest) else {
                return Stamps::default();
            };
            rest = after;
            let known = match found {
                Entry::File(known) => known,
                Entry::Folder(stamp, count) => {
                    let first = stamps.name_ends.len() as u32;
                    for _ in 0..count {
                        let Some((file, Entry::File(known), after)) = entry(rest) else {
                            return Stamps::default();
                        };
                        // Its files follow it, each named within it.
                        let Some(name) = file
                            .strip_prefix(path)
                            .and_then(|name| name.strip_prefix('/'))
                            .filter(|name| !name.is_empty() && !name.contains('/'))
                        else {
                            return Stamps::default();
                        };
                        stamps.names.push_str(name);
                        stamps.name_ends.push(stamps.names.len() as u32);
                        stamps.named.push(known);
                        rest = after;
                    }
                    let names = first..stamps.name_ends.len() as u32;
                    // A folder is listed in the order of its names, and [`Stamps::get`] finds a name by halves;
                    // the files of one kept in another order are found by their paths instead.
                    if !(names.start + 1..names.end).all(|n| stamps.name(n - 1) < stamps.name(n)) {
                        for n in names.clone() {
                            let key = stamps.key(Path::new(&format!("{path}/{}", stamps.name(n))));
                            stamps.files.insert(key, stamps.named[n as usize]);
                        }
                        stamps.named_by_path += names.len();
                    }
                    let key = stamps.key(Path::new(path));
                    stamps.folders.insert(key, (stamp, names));
                    continue;
                }
            };
            let key = stamps.key(Path::new(path));
            stamps.files.insert(key, known);
        }
        stamps
    }

    /// What a build read at `path` (within the catalog folder).
    pub fn get(&self, path: &Path) -> Option<&Known> {
        if let Some(known) = self.files.get(&self.key(path)) {
            return Some(known);
        }
        // A file of a folder kept with its names, found by halves: a folder may hold thousands, and is kept
        // in the order of its names (those of a folder kept otherwise are in the map).
        let name = path.file_name()?.to_str()?;
        let (_, names) = self.folders.get(&self.key(path.parent()?))?;
        let (mut low, mut high) = (names.start, names.end);
        while low < high {
            let middle = low + (high - low) / 2;
            match self.name(middle).cmp(name) {
                std::cmp::Ordering::Less => low = middle + 1,
                std::cmp::Ordering::Greater => high = middle,
                std::cmp::Ordering::Equal => return Some(&self.named[middle as usize]),
            }
        }
        None
    }

    /// The name numbered `n`.
    fn name(&self, n: u32) -> &str {
        let n = n as usize;
        let start = match n {
            0 => 0,
            _ => self.name_ends[n - 1] as usize,
        };
        &self.names[start..self.name_ends[n] as usize]
    }

    /// The names the folder of game records at `path` (within the catalog folder) held when a build last
    /// listed it, in the order listed, each with what the build read in its file, if the folder still has the
    /// stamp it had then (`meta`, the look just taken at it).
    pub fn listing(
        &self,
        path: &Path,
        meta: &Metadata,
    ) -> Option<impl Iterator<Item = (&str, &Known)>> {
        let (stamp, names) = self.folders.get(&self.key(path))?;
        if Stamp::of_folder(meta)? != *stamp {
            return None;
        }
        Some(self.named_in(names.clone()))
    }

    /// The names `names` numbers, each with what a build read in its file.
    fn named_in(&self, names: std::ops::Range<u32>) -> impl Iterator<Item = (&str, &Known)> {
        names.map(move |n| (self.name(n), &self.named[n as usize]))
    }

    /// How many files a build read: those kept by path and those of the folders kept with their names.
    pub fn len(&self) -> usize {
        self.files.len() + self.named.len() - self.named_by_path
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The stamps of the files a load read, by file: one run per item, its files numbered from the item's first,
/// each run shared with the preview server's memory of the item rather than copied into every load (84,000
/// stamps at 10,000 items).
#[derive(Debug, Default)]
pub struct Fresh {
    /// By the number of the item's first file in the catalog, in increasing order.
    runs: Vec<(u32, std::sync::Arc<Run>)>,
}

/// One item's stamps, its files numbered from its first.
pub type Run = Vec<(FileId, Known)>;

impl Fresh {
    /// Add the stamps of an item whose first file is `first`, after every item added before.
    pub fn push(&mut self, first: u32, run: std::sync::Arc<Run>) {
        debug_assert!(self.runs.last().is_none_or(|(before, _)| *before < first));
        if !run.is_empty() {
            self.runs.push((first, run));
        }
    }

    /// The stamp `file` was read with, if it was read with one that had settled.
    pub fn get(&self, file: FileId) -> Option<&Known> {
        let at = self
            .runs
            .partition_point(|(first, _)| *first <= file.0)
            .checked_sub(1)?;
        let (first, run) = &self.runs[at];
        let own = FileId(file.0 - first);
        let found = run.binary_search_by_key(&own, |(id, _)| *id).ok()?;
        Some(&run[found].1)
    }
}

/// The whole file of the stamps of `files`, [`HEADER`] and [`push_entries`], in one buffer (a build writes the
/// entries in blocks as they are made; a test forges a file with this).
pub fn to_bytes<'a>(files: impl Iterator<Item = (&'a Path, &'a Known)>) -> Vec<u8> {
    let mut bytes = HEADER.to_vec();
    push_entries(&mut bytes, files);
    bytes
}

/// The stamps of `files` (paths within the catalog folder), added to `bytes`, as a build keeps them beside the
/// site for the next: the file is [`HEADER`] and then the entries, in the order given, which is the catalog's.
/// Each entry is the path's length (2 bytes) and the path, then the stamp, the hash and the placeholder flag at
/// fixed widths, little-endian: written and read at the speed of copying (a general serializer took 55 ms at
/// 10,000 items, on the build's one busy thread).
pub fn push_entries<'a>(bytes: &mut Vec<u8>, files: impl Iterator<Item = (&'a Path, &'a Known)>) {
    for (path, known) in files {
        // A path that is not UTF-8, or absurdly long, is left out: its file is read at the next build.
        let Some(path) = path.to_str().filter(|p| p.len() <= usize::from(u16::MAX)) else {
            continue;
        };
        let Known {
            stamp,
            hash,
            placeholder,
        } = known;
        bytes.reserve(2 + path.len() + ENTRY);
        bytes.extend_from_slice(&(path.len() as u16).to_le_bytes());
        bytes.extend_from_slice(path.as_bytes());
        bytes.extend_from_slice(&stamp.to_bytes());
        bytes.extend_from_slice(hash);
        bytes.push(u8::from(*placeholder));
    }
}

/// Adds to `bytes` the entries of the files of a folder of game records, `files`, in the order the folder was
/// listed, after the entry of the folder itself (`path`, within the catalog folder), kept by its `stamp` with
/// the names of those files. The folder's entry is laid out as a file's, its flag 2 and the number of files
/// in place of the hash. It is left out (and the files' entries kept) when a file would not be kept under a
/// name within the folder: a name that is not UTF-8 is not kept at all.
pub fn push_folder(bytes: &mut Vec<u8>, path: &Path, stamp: &Stamp, files: &[(&Path, &Known)]) {
    let fits = |p: &str| p.len() <= usize::from(u16::MAX);
    let within = |file: &Path| {
        file.parent() == Some(path) && file.to_str().is_some_and(fits) && file.file_name().is_some()
    };
    if let (Some(path), Ok(count)) = (
        path.to_str().filter(|p| fits(p)),
        u32::try_from(files.len()),
    ) && files.iter().all(|(file, _)| within(file))
    {
        let mut counted = [0; 16];
        counted[..4].copy_from_slice(&count.to_le_bytes());
        bytes.extend_from_slice(&(path.len() as u16).to_le_bytes());
        bytes.extend_from_slice(path.as_bytes());
        bytes.extend_from_slice(&stamp.to_bytes());
        bytes.extend_from_slice(&counted);
        bytes.push(FOLDER);
    }
    push_entries(bytes, files.iter().copied());
}

/// The flag of a folder's entry ([`push_folder`]); a file's is 0 or 1, whether it holds the placeholder.
const FOLDER: u8 = 2;

/// The bytes of an entry after its path: the stamp, the hash, the flag.
const ENTRY: usize = STAMP + 16 + 1;

/// What one entry of the file holds.
enum Entry {
    File(Known),
    /// A folder's stamp, and how many of its files' entries follow.
    Folder(Stamp, u32),
}

/// The first entry of `bytes`, and the bytes after it: none when they do not hold a whole entry.
fn entry(bytes: &[u8]) -> Option<(&str, Entry, &[u8])> {
    let (len, rest) = bytes.split_first_chunk::<2>()?;
    let len = usize::from(u16::from_le_bytes(*len));
    let (path, rest) = rest.split_at_checked(len)?;
    let path = std::str::from_utf8(path).ok()?;
    let (fixed, rest) = rest.split_first_chunk::<ENTRY>()?;
    let stamp = Stamp::from_bytes(fixed[..STAMP].try_into().expect("a stamp's bytes"));
    let hash = fixed[STAMP..STAMP + 16]
        .try_into()
        .expect("16 bytes of the entry");
    let placeholder = match fixed[STAMP + 16] {
        0 => false,
        1 => true,
        FOLDER => {
            let hash: [u8; 16] = hash;
            let count = u32::from_le_bytes(hash[..4].try_into().expect("4 bytes of the entry"));
            if hash[4..].iter().any(|&b| b != 0) {
                return None;
            }
            return Some((path, Entry::Folder(stamp, count), rest));
        }
        _ => return None,
    };
    Some((
        path,
        Entry::File(Known {
            stamp,
            hash,
            placeholder,
        }),
        rest,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stamp(seconds: i64) -> Stamp {
        Stamp {
            len: 10,
            modified: seconds * 1_000_000_000,
            changed: seconds * 1_000_000_000 + 5,
            inode: 7,
            device: 1,
        }
    }

    #[test]
    fn fresh_stamps_are_found_by_file_across_items_and_only_for_files_read_with_one() {
        let known = |seconds| Known {
            stamp: stamp(seconds),
            hash: [seconds as u8; 16],
            placeholder: false,
        };
        let mut fresh = Fresh::default();
        // Item one: files 0-3, stamps for its files 1 and 3. Item two: files 4-5, none. Item three: files
        // 6-8, a stamp for its file 0 (file 6).
        fresh.push(
            0,
            std::sync::Arc::new(vec![(FileId(1), known(1)), (FileId(3), known(3))]),
        );
        fresh.push(4, std::sync::Arc::new(Vec::new()));
        fresh.push(6, std::sync::Arc::new(vec![(FileId(0), known(6))]));
        let found: Vec<Option<i64>> = (0..10)
            .map(|n| {
                fresh
                    .get(FileId(n))
                    .map(|k| k.stamp.modified / 1_000_000_000)
            })
            .collect();
        assert_eq!(
            found,
            [
                None,
                Some(1),
                None,
                Some(3),
                None,
                None,
                Some(6),
                None,
                None,
                None
            ]
        );
        assert!(Fresh::default().get(FileId(0)).is_none());
    }

    #[test]
    fn a_stamp_is_settled_only_well_before_the_build() {
        let began = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000);
        assert!(stamp(990).settled(began));
        assert!(!stamp(999).settled(began));
        assert!(!stamp(1_005).settled(began));
    }

    #[test]
    fn stamps_read_back_as_kept_and_anything_else_reads_as_none() {
        let known = Known {
            stamp: stamp(5),
            hash: [3; 16],
            placeholder: true,
        };
        let path = Path::new("games/a/rules.txt");
        let bytes = to_bytes([(path, &known)].into_iter());
        let back = Stamps::from_bytes(&bytes);
        assert_eq!(back.get(path), Some(&known));
        assert_eq!(back.get(Path::new("games/b/rules.txt")), None);
        assert_eq!(back.len(), 1);
        assert!(Stamps::from_bytes(b"ludotheca-stamps 0\nxx").is_empty());
        // Cut anywhere, or with a flag that is neither 0 nor 1, the file vouches for nothing.
        for cut in HEADER.len() + 1..bytes.len() {
            assert!(Stamps::from_bytes(&bytes[..cut]).is_empty(), "cut at {cut}");
        }
        let mut flagged = bytes.clone();
        *flagged.last_mut().unwrap() = 2;
        assert!(Stamps::from_bytes(&flagged).is_empty());
        // Two entries read back, in any number.
        let other = Path::new("games/b/games/x.game");
        let two = to_bytes([(path, &known), (other, &known)].into_iter());
        assert_eq!(Stamps::from_bytes(&two).len(), 2);
    }

    #[cfg(unix)]
    #[test]
    fn a_folder_reads_back_with_its_names_and_only_while_it_has_its_stamp() {
        let dir = std::env::temp_dir().join(format!("ludotheca-folder-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let meta = std::fs::symlink_metadata(&dir).unwrap();
        let folder_stamp = Stamp::of_folder(&meta).unwrap();
        assert!(
            Stamp::of(&meta).is_none()
                && Stamp::of_folder(&std::fs::metadata("Cargo.toml").unwrap()).is_none()
        );
        let known = |n: u8| Known {
            stamp: stamp(i64::from(n)),
            hash: [n; 16],
            placeholder: false,
        };
        let (a, b) = (known(1), known(2));
        let folder = Path::new("games/x/games");
        let (first, second) = (folder.join("b.game"), folder.join("a.game"));
        let rules = Path::new("games/y/rules.txt");
        let mut bytes = to_bytes([(rules, &a)].into_iter());
        let whole_first = bytes.len();
        push_folder(
            &mut bytes,
            folder,
            &folder_stamp,
            &[(&first, &a), (&second, &b)],
        );
        let back = Stamps::from_bytes(&bytes);
        assert_eq!(back.len(), 3);
        // Kept out of the order of their names (a build keeps them in it), its files are still found.
        assert_eq!((back.get(&first), back.get(&second)), (Some(&a), Some(&b)));
        assert_eq!(back.get(rules), Some(&a));
        assert_eq!(back.get(&folder.join("c.game")), None);
        assert_eq!(back.get(folder), None);
        let listed: Vec<(&str, &Known)> = back.listing(folder, &meta).unwrap().collect();
        assert_eq!(
            listed,
            [("b.game", &a), ("a.game", &b)],
            "in the order listed"
        );
        assert!(back.listing(Path::new("games/x"), &meta).is_none());
        // Each file of a large folder is found by its path, and no other.
        let many: Vec<(std::path::PathBuf, Known)> = (0..100)
            .map(|n| (folder.join(format!("g{n:03}.game")), known(n)))
            .collect();
        let mut large = HEADER.to_vec();
        let files: Vec<(&Path, &Known)> = many.iter().map(|(p, k)| (p.as_path(), k)).collect();
        push_folder(&mut large, folder, &folder_stamp, &files);
        let large = Stamps::from_bytes(&large);
        for (path, known) in &many {
            assert_eq!(large.get(path), Some(known), "{}", path.display());
        }
        for missing in ["g100.game", "a.game", "g050", "h.game"] {
            assert_eq!(large.get(&folder.join(missing)), None, "{missing}");
        }
        // Another folder's stamp (this one's, once a name is added) vouches for nothing.
        std::thread::sleep(Duration::from_millis(20));
        std::fs::write(dir.join("c.game"), "").unwrap();
        let moved = std::fs::symlink_metadata(&dir).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(back.listing(folder, &moved).is_none());
        // An empty folder is kept too.
        let mut empty = HEADER.to_vec();
        push_folder(&mut empty, folder, &folder_stamp, &[]);
        assert_eq!(
            Stamps::from_bytes(&empty)
                .listing(folder, &meta)
                .unwrap()
                .count(),
            0
        );
        // Cut anywhere but after a whole entry, the file vouches for nothing; nor when a file said to be the
        // folder's is not in it, or fewer follow than it says.
        for cut in (HEADER.len() + 1..bytes.len()).filter(|&cut| cut != whole_first) {
            assert!(Stamps::from_bytes(&bytes[..cut]).is_empty(), "cut at {cut}");
        }
        let mut elsewhere = HEADER.to_vec();
        push_folder(
            &mut elsewhere,
            Path::new("games/z/games"),
            &folder_stamp,
            &[],
        );
        let mut moved = elsewhere.clone();
        moved[HEADER.len() + 2 + "games/z/games".len() + STAMP] = 1;
        moved.extend(to_bytes([(first.as_path(), &a)].into_iter()).split_off(HEADER.len()));
        assert!(Stamps::from_bytes(&moved).is_empty());
        let mut short = elsewhere;
        short[HEADER.len() + 2 + "games/z/games".len() + STAMP] = 1;
        assert!(Stamps::from_bytes(&short).is_empty());
        // A file elsewhere leaves the folder out and keeps the files.
        let mut apart = HEADER.to_vec();
        push_folder(&mut apart, folder, &folder_stamp, &[(rules, &a)]);
        let apart = Stamps::from_bytes(&apart);
        assert_eq!(apart.get(rules), Some(&a));
        assert!(apart.listing(folder, &meta).is_none());
    }

    #[cfg(unix)]
    #[test]
    fn a_file_rewritten_with_the_same_size_has_another_stamp() {
        let dir = std::env::temp_dir().join(format!("ludotheca-stamp-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.game");
        std::fs::write(&path, "1. a1-b2").unwrap();
        let before = Stamp::of(&std::fs::symlink_metadata(&path).unwrap()).unwrap();
        std::thread::sleep(Duration::from_millis(20));
        std::fs::write(&path, "1. a1-b3").unwrap();
        let after = Stamp::of(&std::fs::symlink_metadata(&path).unwrap()).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(before.size(), after.size());
        assert_ne!(before, after);
    }
}
