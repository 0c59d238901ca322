//! The output folder, handled so that a build can never lose the previous site, never leave a half-written or
//! mixed one, and never touch anything else:
//!
//! - the new site is staged in a folder beside the output (`.<name>.ludotheca-tmp-<pid>`). A file whose bytes
//!   are the same as in the previous site is a hard link to the previous site's file (which is never changed in
//!   place), so an unchanged page costs a link instead of a write; every other file is written anew;
//! - the staged folder and the output are then exchanged in one step (`renameat2` with `RENAME_EXCHANGE` on
//!   Linux; elsewhere two renames), so the output folder is at every moment either the whole previous site or
//!   the whole new one. The previous site, now in the staging folder's place, is kept beside the output as the
//!   *standby* (`.<name>.ludotheca-standby`), with its manifest; a first build, which replaces no site, leaves
//!   one made of links to its own files;
//! - the next build claims the standby (one rename, so two builds never share it) and brings it up to date in
//!   place of an empty staging folder: only the files whose bytes differ from the new site's are replaced (each
//!   by a new file renamed over the old name, never written in place, since it may be a hard link to the live
//!   site) and the files the new site lacks are removed. A rebuild after one edit thus touches a handful of
//!   files instead of making and later deleting a link for every file of the site;
//! - each site carries a manifest ([`MANIFEST`]): every file with the hash of its bytes (of its parts', for a
//!   file written in items' parts: see `super::sink`), the hash of what it was rendered from and how it lay on
//!   disk ([`Seen`]), which is how the next build knows what it can keep:
//!   a file of the standby or of the previous site is taken only while it is still the file the manifest
//!   describes, so one that another program changed is made again; and the list of games whose records
//!   replayed cleanly ([`REPLAYED`]), which the next build need not replay again, the records whose own checks
//!   found nothing ([`RECORDS`]), which the next build need not check again, the games that checked
//!   without a diagnostic as checked ([`GAMES`]), which the next build need not compile or read again, and the
//!   pictures found good ([`IMAGES`]), which the next build need not decode again;
//! - each site also carries a record of its folders as the build left them ([`FOLDERS`]), by which the build
//!   that claims it as the standby finds, and removes, what was put into it that no manifest lists (see
//!   [`folders`]);
//! - an existing, non-empty output folder must carry the marker file ludotheca writes into every site
//!   ([`MARKER`]); a folder without it holds someone else's files and is refused unless `--force`;
//! - an output that is a symbolic link, or that holds the catalog, is always refused; removal never follows
//!   symbolic links (`std::fs::remove_dir_all` removes a link, not what it points to).

mod folders;
mod manifest;

use rayon::prelude::*;
use std::collections::HashSet;
use std::ffi::OsString;
use std::fs;
use std::io::{self, Seek, Write};
use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The file that marks a folder as a site ludotheca wrote.
pub const MARKER: &str = ".ludotheca-site";

/// Every file of the site with the hashes of its bytes and of its inputs.
pub const MANIFEST: &str = ".ludotheca-manifest";

/// The keys of the games whose records replayed cleanly (see `crate::check::check_with`), one per line.
pub const REPLAYED: &str = ".ludotheca-replayed";

/// The records as parsed, each with its stamp (see `crate::catalog::parsed`).
pub const PARSED: &str = ".ludotheca-parsed";

/// The keys of the records whose own checks found nothing (see `crate::check::FoundClean`), one per line.
pub const RECORDS: &str = ".ludotheca-records";

/// The games that checked without a diagnostic, as checked (see `crate::check::kept`).
pub const GAMES: &str = ".ludotheca-games";

/// The pictures' examinations that passed (see `crate::check::ImageCache`).
pub const IMAGES: &str = ".ludotheca-images";

/// The stamps of the catalog's rules files and game records as this build read them (see
/// `crate::catalog::stamps`).
pub const STAMPS: &str = ".ludotheca-stamps";

const MARKER_TEXT: &str =
    "This folder was written by `ludotheca build`. The next build replaces it entirely.\n";

/// The start of the manifest's first line: its format, and what else the inputs' hashes depend on. The line
/// goes on with a space and the most memory the build held, in bytes, when it wrote the manifest (`-` where the
/// system does not say), then a space and the last large page the build knew was slow to supply, as
/// `seconds:microseconds` (when, since the Unix epoch, and how long it took; `-` for none): the next build into
/// the folder chooses its pages by them (see [`recorded`] and [`crate::large_pages`]).
const MANIFEST_HEADER: &str = "ludotheca-manifest 5";

/// The longest the manifest's first line can be: the header, a space, a peak of at most 20 digits, a space, a
/// slow page of at most 20 and 10 digits with a colon between, its end.
const MANIFEST_FIRST_LINE: usize = MANIFEST_HEADER.len() + 54;

use super::sink::{FileSink, Sink};
pub use crate::fingerprint::Hash;
use crate::fingerprint::from_hex as unhex;
use crate::fingerprint::{Digest, digest};
pub use folders::FOLDERS;
pub use manifest::Manifest;

pub fn hash_bytes(bytes: &[u8]) -> Hash {
    *blake3::hash(bytes).as_bytes()
}

/// What the previous site's manifest says of one file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Recorded {
    /// The [`digest`] of the file's bytes.
    pub bytes: Digest,
    /// The hash of what the file was made from, where the renderer gave one.
    pub inputs: Option<Hash>,
    /// The file as the build that staged it left it; none when that build could not tell, and then the file is
    /// never taken as it is.
    pub seen: Option<Seen>,
}

/// A site file as the system describes it: its size, when its bytes last changed, and its inode. A build keeps
/// a file of the previous site (or of the standby) only while it is still the file the manifest describes, so
/// a page that someone or something changed in the output folder is made again rather than kept for ever. A
/// file written in place has another time or size; one replaced (renamed over, as `sed -i` and editors do) has
/// another inode. Not the time of change of the file itself (`ctime`): every hard link a build makes to a file
/// moves it. Linking and renaming leave all three as they were.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seen {
    len: u64,
    modified: i64,
    inode: u64,
}

impl Seen {
    /// What `meta` says of a regular file; none for anything else, or where the system gives no time.
    fn of(meta: &fs::Metadata) -> Option<Seen> {
        Seen::of_any(meta).filter(|_| meta.is_file())
    }

    /// What `meta` says of whatever it describes (a file's, or a folder's: see `folders`).
    fn of_any(meta: &fs::Metadata) -> Option<Seen> {
        #[cfg(unix)]
        let (modified, inode) = {
            use std::os::unix::fs::MetadataExt;
            (
                crate::catalog::stamps::nanos(meta.mtime(), meta.mtime_nsec()),
                meta.ino(),
            )
        };
        #[cfg(not(unix))]
        let (modified, inode) = {
            let since = meta
                .modified()
                .ok()?
                .duration_since(std::time::UNIX_EPOCH)
                .ok()?;
            (i64::try_from(since.as_nanos()).ok()?, 0)
        };
        Some(Seen {
            len: meta.len(),
            modified,
            inode,
        })
    }

    /// The file at `path`, without following a link.
    fn at(path: &Path) -> Option<Seen> {
        Seen::of(&fs::symlink_metadata(path).ok()?)
    }

    /// The file `file` has open.
    fn open(file: &fs::File) -> Option<Seen> {
        Seen::of(&file.metadata().ok()?)
    }

    /// As the manifest writes it: `len.modified.inode`, or `-` for none.
    fn push(seen: Option<Seen>, out: &mut String) {
        use std::fmt::Write as _;
        match seen {
            Some(s) => {
                let _ = write!(out, "{}.{}.{}", s.len, s.modified, s.inode);
            }
            None => out.push('-'),
        }
    }

    /// What [`Seen::push`] wrote; none for `-` or anything unreadable.
    fn parse(text: &str) -> Option<Seen> {
        let (len, rest) = cut(text, b'.')?;
        let (modified, inode) = cut(rest, b'.')?;
        Some(Seen {
            len: len.parse().ok()?,
            modified: modified.parse().ok()?,
            inode: inode.parse().ok()?,
        })
    }
}

enum Marker {
    Ours,
    Missing,
    Foreign,
}

/// Whether a folder's marker is the one ludotheca writes. Only its exact text counts: a file that merely has
/// the marker's name (made by hand, or by another tool) must not let a build replace the folder.
fn marker_state(path: &Path) -> Marker {
    match fs::symlink_metadata(path) {
        Err(_) => Marker::Missing,
        Ok(meta) if !meta.is_file() || meta.len() != MARKER_TEXT.len() as u64 => Marker::Foreign,
        Ok(_) => match fs::read(path) {
            Ok(bytes) if bytes == MARKER_TEXT.as_bytes() => Marker::Ours,
            _ => Marker::Foreign,
        },
    }
}

/// The folder holding the output folder `out` (`.` when `out` names none) and the output folder's own name;
/// none when `out` does not end in a name (`..`, `/`).
fn parent_and_name(out: &Path) -> Option<(PathBuf, OsString)> {
    let name = match out.components().next_back() {
        Some(Component::Normal(name)) => name.to_os_string(),
        _ => return None,
    };
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    Some((parent, name))
}

/// What the previous build left for the render, read with the rest of what it left while the catalog loads
/// rather than by the render: each as it lies, empty when there is none. (The previous data files' parts are
/// still read where the render takes them, through the index of parts: tens of megabytes, read only in part.)
#[derive(Default)]
pub struct Left {
    /// The search index's words ([`super::search::WORDS`]).
    pub words: Vec<u8>,
    /// What the lists were made from and made ([`super::lists::FILE`]).
    pub lists: Vec<u8>,
}

/// A checked output folder, ready to receive a site.
#[derive(Debug)]
pub struct Target {
    out: PathBuf,
    parent: PathBuf,
    name: OsString,
    exists: bool,
    /// The output holds a site ludotheca wrote (its marker), which may become the standby once replaced;
    /// someone else's files, replaced under `--force`, are removed instead.
    ours: bool,
}

impl Target {
    /// Check that `out` may be (re)written, before any work is done.
    pub fn prepare(out: &Path, catalog: &Path, force: bool) -> Result<Target, String> {
        let shown = out.display();
        let Some((parent, name)) = parent_and_name(out) else {
            return Err(format!(
                "`{shown}` cannot be an output folder: name a folder, such as `site`"
            ));
        };
        if !parent.is_dir() {
            return Err(format!(
                "the folder `{}` that should hold `{shown}` does not exist",
                parent.display()
            ));
        }
        let exists = match fs::symlink_metadata(out) {
            Ok(meta) if meta.file_type().is_symlink() => {
                return Err(format!(
                    "`{shown}` is a symbolic link; ludotheca writes only into a real folder"
                ));
            }
            Ok(meta) if !meta.is_dir() => {
                return Err(format!("`{shown}` exists and is not a folder"));
            }
            Ok(_) => true,
            Err(err) if err.kind() == io::ErrorKind::NotFound => false,
            Err(err) => return Err(format!("cannot read `{shown}`: {err}")),
        };
        // Replacing the output must never remove the catalog (or the folder holding it).
        if let (Ok(parent_abs), Ok(catalog_abs)) =
            (fs::canonicalize(&parent), fs::canonicalize(catalog))
        {
            let out_abs = parent_abs.join(&name);
            if catalog_abs.starts_with(&out_abs) {
                return Err(format!(
                    "`{shown}` holds the catalog; choose another output folder"
                ));
            }
            // A site inside the catalog would be read back as items (its copies of the records) next time.
            if out_abs.starts_with(&catalog_abs) {
                return Err(format!(
                    "`{shown}` is inside the catalog; choose an output folder outside it"
                ));
            }
        }
        let ours = exists && matches!(marker_state(&out.join(MARKER)), Marker::Ours);
        if exists && !force {
            let mut entries =
                fs::read_dir(out).map_err(|e| format!("cannot read `{shown}`: {e}"))?;
            let empty = entries.next().is_none();
            if !empty {
                let why = match marker_state(&out.join(MARKER)) {
                    Marker::Ours => None,
                    Marker::Missing => Some(format!("it has no `{MARKER}` file")),
                    Marker::Foreign => {
                        Some(format!("its `{MARKER}` is not the file ludotheca writes"))
                    }
                };
                if let Some(why) = why {
                    return Err(format!(
                        "`{shown}` holds files that ludotheca did not write ({why}); \
                         choose a new or empty folder, or pass --force to replace its contents"
                    ));
                }
            }
        }
        Ok(Target {
            out: out.to_path_buf(),
            parent,
            name,
            exists,
            ours,
        })
    }

    /// A site folder that a build wrote, opened only to read what that build kept (for `check`, which writes
    /// nothing): none when `out` is not a folder holding ludotheca's marker.
    pub fn built(out: &Path) -> Option<Target> {
        let meta = fs::symlink_metadata(out).ok()?;
        if !meta.is_dir() || !matches!(marker_state(&out.join(MARKER)), Marker::Ours) {
            return None;
        }
        let (parent, name) = parent_and_name(out)?;
        Some(Target {
            out: out.to_path_buf(),
            parent,
            name,
            exists: true,
            ours: true,
        })
    }

    /// What the previous site's build found clean: the games whose records replayed cleanly ([`REPLAYED`])
    /// and the records whose own checks found nothing ([`RECORDS`]). Each is empty when there is no previous
    /// site of ours, or none of that file.
    pub fn found_clean(&self) -> crate::check::FoundClean {
        fn keys(bytes: &[u8]) -> HashSet<Hash> {
            String::from_utf8_lossy(bytes)
                .lines()
                .filter_map(unhex)
                .collect()
        }
        crate::check::FoundClean {
            games: self.read_own(REPLAYED, |bytes| keys(&bytes)),
            records: self.read_own(RECORDS, |bytes| keys(&bytes)),
        }
    }

    /// What the previous site's build left for the render of the next ([`Left`]): empty when there is no
    /// previous site of ours. Each file is checked where it is taken, against what the render makes from.
    pub fn left_for_render(&self) -> Left {
        Left {
            words: self.read_own(super::search::WORDS, |bytes| bytes),
            lists: self.read_own(super::lists::FILE, |bytes| bytes),
        }
    }

    /// The games the previous site's build checked without a diagnostic ([`GAMES`]): none when there is no
    /// previous site of ours, or its file was written by another program or is damaged.
    pub fn checked_games(&self) -> crate::check::GameCache {
        self.read_own(GAMES, crate::check::GameCache::from_bytes)
    }

    /// The pictures the previous site's build examined and found good ([`IMAGES`]): none when there is no
    /// previous site of ours, or its file was written by another program or is damaged.
    pub fn examined_images(&self) -> crate::check::ImageCache {
        self.read_own(IMAGES, |bytes| crate::check::ImageCache::from_bytes(&bytes))
    }

    /// The stamps of the files the previous site's build read ([`STAMPS`]), with the records as it parsed them
    /// ([`PARSED`]): none when there is no previous site of ours, or either file was written by another program
    /// or is damaged.
    pub fn stamps(&self) -> crate::catalog::stamps::Stamps {
        use crate::catalog::parsed::ParsedRecords;
        use crate::catalog::stamps::{HEADER, Stamps};
        if !self.exists || !self.ours {
            return Stamps::default();
        }
        // The records as parsed first: when they are another program's, the stamps are not even read.
        let records = match fs::read(self.out.join(PARSED)) {
            Ok(file) => match ParsedRecords::from_file(file) {
                Some(records) => Some(records),
                // Written by another program (or damaged): so were the checks the build would take, and every
                // game is replayed again, reading each record the load took unread, to be held as read. Read
                // by the load instead, a large catalog's texts are held packed: at 100,000 items, a build by a
                // new version over the previous site peaked at 2.9 GB the first way.
                None => {
                    let mut none = Stamps::default();
                    none.unreadable.extend([STAMPS, PARSED]);
                    return none;
                }
            },
            Err(_) => None,
        };
        let mut stamps = Stamps::default();
        if let Ok(bytes) = fs::read(self.out.join(STAMPS)) {
            stamps = Stamps::from_bytes(&bytes);
            if stamps.is_empty() && bytes != HEADER {
                stamps.unreadable.push(STAMPS);
            }
        }
        if let Some(records) = records {
            stamps.records = records;
        }
        stamps
    }

    /// One of the previous build's own files, as `parse` reads it: nothing when there is no previous site of
    /// ours or no such file.
    fn read_own<T: Default>(&self, name: &str, parse: impl FnOnce(Vec<u8>) -> T) -> T {
        if !self.exists || !self.ours {
            return T::default();
        }
        fs::read(self.out.join(name)).map(parse).unwrap_or_default()
    }

    /// The prefix of the folders a build of this output keeps beside it: `.<name>.ludotheca-`.
    fn sibling_prefix(&self) -> OsString {
        let mut prefix = OsString::from(".");
        prefix.push(&self.name);
        prefix.push(".ludotheca-");
        prefix
    }

    fn sibling(&self, what: &str, pid: u32) -> PathBuf {
        let mut name = self.sibling_prefix();
        name.push(format!("{what}-{pid}"));
        self.parent.join(name)
    }

    /// Where the site replaced by the last build waits to be brought up to date by the next.
    fn standby_path(&self) -> PathBuf {
        let mut name = self.sibling_prefix();
        name.push("standby");
        self.parent.join(name)
    }

    /// After a first build into a new folder, whose site is `paths`: the standby the next build brings up to
    /// date, made now of links to the site's files (each file's name in both trees, the bytes once), with its
    /// own copy of the manifest and the marker, which a build writes anew where they lie. Without it, the first
    /// rebuild after a full build makes those 30,000 links and 12,000 folders (at 10,000 items) itself: 0.32 s
    /// against 0.28 s (medians of five). Best effort: made in `temp`, renamed into place whole, and removed if
    /// anything fails (a build killed meanwhile leaves `temp`, which the next build removes); the next build
    /// then makes its own.
    fn leave_standby(&self, temp: &Path, paths: &[String]) {
        use rayon::prelude::*;
        let made = (|| -> Result<(), String> {
            fs::create_dir(temp).map_err(|e| e.to_string())?;
            let mut folders: Vec<&str> = paths
                .iter()
                .filter_map(|path| path.rsplit_once('/').map(|(folder, _)| folder))
                .collect();
            folders.sort_unstable();
            folders.dedup();
            // Folders made on every core: one making `a/b` and another `a/c` both find `a` made.
            folders.par_iter().try_for_each(|folder| {
                fs::create_dir_all(checked_path(temp, folder)?).map_err(|e| e.to_string())
            })?;
            paths.par_iter().try_for_each(|path| {
                fs::hard_link(checked_path(&self.out, path)?, checked_path(temp, path)?)
                    .map_err(|e| e.to_string())
            })?;
            for own in [MANIFEST, MARKER] {
                fs::copy(self.out.join(own), temp.join(own)).map_err(|e| e.to_string())?;
            }
            // Its own record of its folders: the site's are other folders.
            let all = folders::of_files(paths.iter().map(String::as_str));
            let seen = folders::look(temp, &all);
            fs::write(temp.join(FOLDERS), folders::text(all.into_iter().zip(seen)))
                .map_err(|e| e.to_string())?;
            fs::rename(temp, self.standby_path()).map_err(|e| e.to_string())
        })();
        if made.is_err() {
            let _ = remove_tree(temp);
        }
    }

    /// Take the standby as the staging folder `temp`, with what its manifest says it holds. `None` when there
    /// is no usable standby: none, another build took it first, or it is not a folder this program left.
    fn claim_standby(&self, temp: &Path, memo: &mut Manifests) -> Option<Manifest> {
        // Moving it away first makes it this build's alone: a second build finds no standby.
        fs::rename(self.standby_path(), temp).ok()?;
        let usable = fs::symlink_metadata(temp).is_ok_and(|m| m.is_dir())
            && matches!(marker_state(&temp.join(MARKER)), Marker::Ours);
        let files = if usable {
            memo.read(temp)
        } else {
            Manifest::default()
        };
        // From here until the new manifest is written, the folder's contents are not what a manifest says: a
        // build killed meanwhile leaves it without one, and the next build removes it as a leftover. Set aside
        // rather than removed: the new manifest is written over it (see [`write_new`]).
        let manifest = temp.join(MANIFEST);
        let unmarked = fs::rename(&manifest, partial_of(&manifest)).is_ok();
        if files.is_empty() || !unmarked {
            let _ = remove_tree(temp).or_else(|_| fs::remove_file(temp));
            return None;
        }
        Some(files)
    }

    /// Folders left beside the output by builds that were killed (their process is gone): a staged site that
    /// was never swapped in, or a previous site that was swapped out but not yet removed.
    fn leftovers(&self) -> Vec<PathBuf> {
        let prefix = self.sibling_prefix();
        let prefix = prefix.to_string_lossy();
        let Ok(entries) = fs::read_dir(&self.parent) else {
            return Vec::new();
        };
        entries
            .filter_map(Result::ok)
            .filter_map(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                let rest = name.strip_prefix(prefix.as_ref())?;
                let (what, pid) = rest.split_once('-')?;
                let pid: u32 = pid.parse().ok()?;
                let ours = matches!(what, "tmp" | "old");
                (ours && !process_alive(pid)).then(|| e.path())
            })
            .collect()
    }

    /// Read the manifests that staging will take, the previous site's and the standby's, into `memo`: a build
    /// may do it beside its other work, and [`Target::stage_with`] then finds them known by their bytes. Only
    /// read: the standby is claimed, and each file read again and compared, when the build stages.
    pub fn read_manifests(&self, memo: &mut Manifests) {
        let live = self.exists.then(|| memo.read_with(&self.out, None));
        if fs::symlink_metadata(self.standby_path()).is_ok_and(|m| m.is_dir()) {
            // The standby's, beside the live site's when that was parsed now: see [`manifest`].
            let beside = live.as_ref().and_then(|(manifest, read)| {
                let (text, start) = read.as_ref()?;
                Some((manifest, &text[*start..]))
            });
            memo.read_with(&self.standby_path(), beside);
        }
    }

    /// Start a build: remove what killed builds left, read the previous site's manifest, and make the staging
    /// folder.
    pub fn stage(self) -> Result<Staging, String> {
        self.stage_with(&mut Manifests::default())
    }

    /// [`Target::stage`], taking the manifests from `memo` when it knows them (by their bytes).
    pub fn stage_with(self, memo: &mut Manifests) -> Result<Staging, String> {
        for leftover in self.leftovers() {
            remove_tree(&leftover).map_err(|e| {
                format!(
                    "cannot remove `{}`, left by an interrupted build: {e}",
                    leftover.display()
                )
            })?;
        }
        let previous = if self.exists {
            memo.read(&self.out)
        } else {
            Manifest::default()
        };
        let temp = self.sibling("tmp", std::process::id());
        let (standby, folders) = match self.claim_standby(&temp, memo) {
            Some(files) => (files, folders::read(&temp)),
            None => {
                fs::create_dir(&temp)
                    .map_err(|e| format!("cannot create `{}`: {e}", temp.display()))?;
                // An empty folder holds nothing to find.
                (Manifest::default(), Some(folders::Record::default()))
            }
        };
        Ok(Staging {
            standby,
            look: true,
            dirs: Mutex::new(HashSet::from([temp.clone()])),
            folders: Mutex::new(folders),
            swept: std::sync::atomic::AtomicBool::new(false),
            guard: TempGuard(Some(temp.clone())),
            temp,
            target: self,
            previous,
            files: (0..=rayon::current_num_threads())
                .map(|_| Mutex::new(Vec::new()))
                .collect(),
            written: AtomicUsize::new(0),
            linked: AtomicUsize::new(0),
            doomed: Mutex::new(Vec::new()),
        })
    }
}

/// A site being staged: files go in as they are rendered, from any thread.
pub struct Staging {
    target: Target,
    temp: PathBuf,
    guard: TempGuard,
    /// The previous site's manifest: path to hashes.
    previous: Manifest,
    /// What the staging folder already holds: the standby's manifest, or nothing for a new, empty folder.
    standby: Manifest,
    /// Whether a file is looked at before it is kept (see [`Seen`]); see [`Staging::trust_kept_files`].
    look: bool,
    /// This site's manifest so far, in a part for each thread of the pool (and one for any other thread): every
    /// file of the site is recorded as it is staged, 30,000 at 10,000 items, and all cores at once waited on
    /// one lock. Each with what staging found of it in the two other sites.
    files: Vec<Mutex<Vec<(String, Recorded, Standing)>>>,
    /// Folders already made in the staging folder, so each is made once. Every folder a file was put into,
    /// linked into or made in is here: its stamp is taken again when the site is committed.
    dirs: Mutex<HashSet<PathBuf>>,
    /// The standby's folders as the build that made it left them (see [`folders`]); after
    /// [`Staging::sweep`], those found so still, each with its stamp. None where the standby has no record.
    folders: Mutex<Option<folders::Record>>,
    /// Whether [`Staging::sweep`] looked at the standby's folders: only then are folders looked at again to be
    /// recorded.
    swept: std::sync::atomic::AtomicBool,
    written: AtomicUsize,
    linked: AtomicUsize,
    /// The standby's own large files that links to the live site's replaced, held open so that their pages are
    /// freed once the new site is in place (see [`Staging::link_previous`]).
    doomed: Mutex<Vec<fs::File>>,
}

/// What staging a file found of it in the previous site and the standby, where it found anything: the commit
/// then looks up only what it was not told. A rebuild keeps nearly every file, and those two lookups for each
/// of its 30,000 paths, in tables far larger than the processor's caches, were most of the commit's time.
#[derive(Clone, Copy, Debug, Default)]
struct Standing {
    /// The previous site has the file, with the same bytes.
    as_previous: bool,
    /// The standby has a file at this path.
    in_standby: bool,
}

/// What a build wrote.
#[derive(Clone, Debug, Default)]
pub struct Written {
    pub files: usize,
    /// Files whose bytes changed (or are new), written anew.
    pub written: usize,
    /// Files the same as in the previous site, linked to it.
    pub unchanged: usize,
    /// Files of the previous site that the new one no longer has.
    pub removed: usize,
    /// The site's paths whose bytes differ from the previous site's: new, changed and removed files, in order.
    pub changed: Vec<String>,
}

impl Staging {
    /// Never take the previous site's file at `path`, whatever the manifests say of it: it was found damaged,
    /// so it is written anew even when the bytes made come out as the manifest recorded them.
    pub fn distrust(&mut self, path: &str) {
        for manifest in [&mut self.previous, &mut self.standby] {
            manifest.remove(path);
        }
    }

    /// Keep files as the manifests describe them without looking at them: for the preview server's pass that
    /// makes only the edited items' pages, which must be quick, and after which a whole build always comes and
    /// looks at every file it keeps. A file kept so is recorded as its manifest described it, not as it is, so
    /// one that another program changed still fails that look.
    pub fn trust_kept_files(&mut self) {
        self.look = false;
    }

    /// Remove from the standby every file and folder its manifest does not list, and give their paths: what was
    /// put into the site by hand or by another program while it was live (the output folder is replaced as a
    /// whole; a build that kept such a file would swap it out and back in at every other build). In two parts:
    /// the top folder first, before anything is staged (the build's own files are written there), then the
    /// others, before anything is staged in them ([`Staging::sweep`]). A build that keeps files without looking
    /// at them ([`Staging::trust_kept_files`]) skips both; the whole build after it sweeps.
    pub fn sweep_top(&self) -> Result<Vec<String>, String> {
        let record = self.folders_record();
        let files: Vec<&String>;
        let top: HashSet<&str> = match &*record {
            Some(record) => record
                .keys()
                .filter(|f| !f.contains('/'))
                .map(String::as_str)
                .collect(),
            None => {
                files = self.standby.keys().collect();
                files
                    .iter()
                    .filter_map(|p| p.split_once('/').map(|(top, _)| top))
                    .collect()
            }
        };
        self.clear(&[""], &top)
    }

    /// The second part of [`Staging::sweep_top`]: every folder but the top one. Only the folders whose stamps
    /// differ from the standby's record are listed (all of them where it has none): at 10,000 items, 12,000
    /// looks rather than 12,000 listings.
    pub fn sweep(&self) -> Result<Vec<String>, String> {
        self.swept.store(true, Ordering::Relaxed);
        let mut record = self.folders_record();
        let files: Vec<&String>;
        let derived: Vec<&str>;
        let (site_folders, to_list): (HashSet<&str>, Vec<&str>) = match &*record {
            Some(record) => {
                let recorded: Vec<(&String, &Option<Seen>)> = record.iter().collect();
                let names: Vec<&str> = recorded.iter().map(|(path, _)| path.as_str()).collect();
                let now = folders::look(&self.temp, &names);
                let changed = recorded
                    .iter()
                    .zip(&now)
                    .filter(|((_, was), now)| was.is_none() || *was != *now)
                    .map(|((path, _), _)| path.as_str())
                    .collect();
                (names.into_iter().collect(), changed)
            }
            None => {
                files = self.standby.keys().collect();
                derived = folders::of_files(files.iter().map(|p| p.as_str()));
                (derived.iter().copied().collect(), derived.clone())
            }
        };
        let removed = self.clear(&to_list, &site_folders)?;
        let listed: Vec<String> = to_list.into_iter().map(str::to_string).collect();
        drop(site_folders);
        // The folders listed have other stamps now: they are looked at again when the site is committed.
        if let Some(kept) = &mut *record {
            for folder in &listed {
                kept.remove(folder);
            }
        }
        drop(record);
        let mut dirs = self
            .dirs
            .lock()
            .expect("no thread panics while holding the folder list");
        for folder in listed {
            let at = self.temp.join(folder);
            if fs::symlink_metadata(&at).is_ok_and(|m| m.is_dir()) {
                dirs.insert(at);
            }
        }
        Ok(removed)
    }

    /// Clear each of `to_list` (folders of the standby, `""` for the top one) of what its manifest does not list,
    /// the site's folders being `site_folders`: the paths removed, in order.
    fn clear(&self, to_list: &[&str], site_folders: &HashSet<&str>) -> Result<Vec<String>, String> {
        let listed = folders::Listed {
            files: &self.standby,
            folders: site_folders,
        };
        let mut removed: Vec<String> = to_list
            .par_iter()
            .map(|folder| listed.clear(&self.temp, folder))
            .collect::<io::Result<Vec<Vec<String>>>>()
            .map_err(|e| format!("cannot clear the standby of files no build wrote: {e}"))?
            .into_iter()
            .flatten()
            .collect();
        removed.sort();
        Ok(removed)
    }

    /// The standby's record of its folders, as the sweep leaves it.
    fn folders_record(&self) -> std::sync::MutexGuard<'_, Option<folders::Record>> {
        self.folders
            .lock()
            .expect("no thread panics while holding the record of the folders")
    }

    /// What the previous site's manifest says of `path`.
    pub fn previous(&self, path: &str) -> Option<Recorded> {
        self.previous.get(path).copied()
    }

    /// The previous site's file at `path`, opened for reading, and whether it is still the file its manifest
    /// describes (the look any kept file passes, taken through the file opened): none when there is no previous
    /// site of ours or its manifest does not list the file.
    pub fn previous_file(&self, path: &str) -> Option<(fs::File, bool)> {
        if !self.target.exists || !self.target.ours {
            return None;
        }
        let recorded = self.previous(path)?.seen;
        let file = fs::File::open(checked_path(&self.target.out, path).ok()?).ok()?;
        let as_recorded = recorded.is_some() && Seen::open(&file) == recorded;
        Some((file, as_recorded))
    }

    /// Keep the previous site's file at `path` as it is, when it was made from inputs hashing to `inputs`:
    /// returns false (and does nothing) when it was not, or is gone, so the caller renders it.
    pub fn keep_if_unchanged(&self, path: &str, inputs: Hash) -> Result<bool, String> {
        match self.previous(path) {
            Some(recorded) if recorded.inputs == Some(inputs) => self.keep(path, recorded),
            _ => Ok(false),
        }
    }

    /// Keep the previous site's `path` as it was, whatever it was made from: for a file the caller knows
    /// unchanged by another file's key that covers all it is made from. False when the previous site has no
    /// such file, or it cannot be kept.
    pub fn keep_as_it_was(&self, path: &str) -> Result<bool, String> {
        match self.previous(path) {
            Some(recorded) => self.keep(path, recorded),
            None => Ok(false),
        }
    }

    /// Keep `path` as `recorded`, which is how the previous site has it.
    fn keep(&self, path: &str, recorded: Recorded) -> Result<bool, String> {
        let (seen, in_standby) = match self.staged_as(path, &recorded, Some(&recorded)) {
            Some(seen) => (Some(seen), true),
            None => (self.link_previous(path, &self.destination(path)?), false),
        };
        let Some(seen) = seen else {
            return Ok(false);
        };
        self.linked.fetch_add(1, Ordering::Relaxed);
        let standing = Standing {
            as_previous: true,
            in_standby,
        };
        self.record(path, recorded, Some(seen), standing);
        Ok(true)
    }

    /// Put one file into the new site.
    pub fn put(&self, path: &str, bytes: &[u8], inputs: Option<Hash>) -> Result<(), String> {
        let recorded = Recorded {
            bytes: digest(bytes),
            inputs,
            seen: None,
        };
        if let Some(seen) = self.staged_as(path, &recorded, None) {
            self.linked.fetch_add(1, Ordering::Relaxed);
            let standing = Standing {
                as_previous: false,
                in_standby: true,
            };
            self.record(path, recorded, Some(seen), standing);
            return Ok(());
        }
        let dest = self.destination(path)?;
        let same = self
            .previous(path)
            .is_some_and(|old| old.bytes == recorded.bytes);
        let linked = if same {
            self.link_previous(path, &dest)
        } else {
            None
        };
        let seen = match linked {
            Some(seen) => {
                self.linked.fetch_add(1, Ordering::Relaxed);
                Some(seen)
            }
            None => {
                let failed = |e: io::Error| format!("cannot write `{path}`: {e}");
                let seen = if self.standby.contains_key(path) {
                    match open_own(&dest) {
                        Some(file) => overwrite(file, bytes).map_err(failed)?,
                        // The standby's file may be a hard link to the live site's: replace it, never write
                        // into it.
                        None => {
                            let partial = partial_of(&dest);
                            let seen = write_seen(&partial, bytes).map_err(failed)?;
                            replace(&partial, &dest).map_err(failed)?;
                            seen
                        }
                    }
                } else {
                    write_seen(&dest, bytes).map_err(failed)?
                };
                self.written.fetch_add(1, Ordering::Relaxed);
                seen
            }
        };
        let standing = Standing {
            as_previous: same,
            in_standby: false,
        };
        self.record(path, recorded, seen, standing);
        Ok(())
    }

    /// Keep every file of the previous site that this build did not put, as it was: for a build that makes only
    /// some of the site's files now and leaves the others to a whole build that follows, and which keeps files
    /// without looking at them ([`Staging::trust_kept_files`]): a file found changed could not be made here.
    pub fn carry_rest(&self) -> Result<(), String> {
        // Taken out of their locks, so that none is held while other threads work below (should it fail, the
        // build stops and the staged site is never committed).
        let mut parts: Vec<Vec<(String, Recorded, Standing)>> = self
            .files
            .iter()
            .map(|part| {
                std::mem::take(
                    &mut *part
                        .lock()
                        .expect("no thread panics while holding the manifest"),
                )
            })
            .collect();
        let given: foldhash::HashSet<&str> = parts
            .iter()
            .flat_map(|part| part.iter().map(|(path, _, _)| path.as_str()))
            .collect();
        // Tens of thousands of files at 10,000 items, nearly all in the standby already: looked at on every
        // core, and recorded at once rather than one lock each.
        let carried: Vec<(String, Recorded, Standing)> = self
            .previous
            .par_iter()
            .filter(|(path, _)| !given.contains(path.as_str()))
            .map(|(path, recorded)| {
                let (seen, in_standby) = match self.staged_as(path, recorded, Some(recorded)) {
                    Some(seen) => (seen, true),
                    None => {
                        let dest = self.destination(path)?;
                        let seen = self.link_previous(path, &dest).ok_or_else(|| {
                            format!("cannot keep `{path}` from the previous site")
                        })?;
                        (seen, false)
                    }
                };
                let standing = Standing {
                    as_previous: true,
                    in_standby,
                };
                Ok((
                    path.clone(),
                    Recorded {
                        seen: Some(seen),
                        ..*recorded
                    },
                    standing,
                ))
            })
            .collect::<Result<_, String>>()?;
        drop(given);
        self.linked.fetch_add(carried.len(), Ordering::Relaxed);
        parts.push(carried);
        let mut first = self.files[0]
            .lock()
            .expect("no thread panics while holding the manifest");
        for part in parts {
            first.extend(part);
        }
        Ok(())
    }

    /// How the staging folder (the standby) holds `path`, when it holds it with these bytes and unchanged since
    /// it was staged (or its manifest says so, in a build that trusts it), so nothing is to do. `previous`, when
    /// given, is what the previous site's manifest says of `path` (see [`Manifest::get_beside`]).
    fn staged_as(
        &self,
        path: &str,
        recorded: &Recorded,
        previous: Option<&Recorded>,
    ) -> Option<Seen> {
        let old = match previous {
            Some(there) => self.standby.get_beside(path, &self.previous, Some(there)),
            None => self.standby.get(path),
        }?;
        let seen = old.seen.filter(|_| old.bytes == recorded.bytes)?;
        if !self.look {
            return Some(seen);
        }
        (Seen::at(&checked_path(&self.temp, path).ok()?) == Some(seen)).then_some(seen)
    }

    /// Put one file into the new site, written by `write` as it makes it (for files too large to hold).
    /// `inputs`, if given, is the hash of what the file is made from (see [`Staging::keep_if_unchanged`]).
    pub fn put_with(
        &self,
        path: &str,
        inputs: Option<Hash>,
        write: &dyn Fn(&mut dyn io::Write) -> io::Result<()>,
    ) -> Result<(), String> {
        self.put_from(path, inputs, &|sink| write(sink))
    }

    /// [`Staging::put_with`] for a data file written in items' parts ([`Sink`]), which may be copied from the
    /// previous site's file rather than read and written again.
    pub fn put_parts(
        &self,
        path: &str,
        inputs: Option<Hash>,
        write: &dyn Fn(&mut dyn Sink) -> io::Result<()>,
    ) -> Result<(), String> {
        self.put_from(path, inputs, &|sink| write(sink))
    }

    fn put_from(
        &self,
        path: &str,
        inputs: Option<Hash>,
        write: &dyn Fn(&mut FileSink) -> io::Result<()>,
    ) -> Result<(), String> {
        let dest = self.destination(path)?;
        let partial = partial_of(&dest);
        let failed = |e: io::Error| format!("cannot write `{path}`: {e}");
        let own = self
            .standby
            .contains_key(path)
            .then(|| open_own(&dest))
            .flatten();
        let in_place = own.is_some();
        let file = match own {
            Some(file) => file,
            None => fs::File::create(&partial).map_err(failed)?,
        };
        let mut sink = FileSink::new(file);
        write(&mut sink).map_err(failed)?;
        let (file, bytes) = sink.finish().map_err(failed)?;
        if in_place {
            // Whatever the old file held past the new end goes.
            let end = (&file).stream_position().map_err(failed)?;
            file.set_len(end).map_err(failed)?;
        }
        let recorded = Recorded {
            bytes,
            inputs,
            seen: None,
        };
        let written = Seen::open(&file);
        drop(file);
        let same = self
            .previous(path)
            .is_some_and(|old| old.bytes == recorded.bytes);
        let seen = if in_place {
            // Its bytes are in place already; the same as the live site's, it counts as unchanged.
            if same {
                self.linked.fetch_add(1, Ordering::Relaxed);
            } else {
                self.written.fetch_add(1, Ordering::Relaxed);
            }
            written
        } else if let Some(seen) = self
            .staged_as(path, &recorded, None)
            .or_else(|| same.then(|| self.link_previous(path, &dest)).flatten())
        {
            fs::remove_file(&partial).map_err(failed)?;
            self.linked.fetch_add(1, Ordering::Relaxed);
            Some(seen)
        } else {
            replace(&partial, &dest).map_err(failed)?;
            self.written.fetch_add(1, Ordering::Relaxed);
            written
        };
        let standing = Standing {
            as_previous: same,
            in_standby: in_place,
        };
        self.record(path, recorded, seen, standing);
        Ok(())
    }

    fn record(&self, path: &str, recorded: Recorded, seen: Option<Seen>, standing: Standing) {
        let part = rayon::current_thread_index().map_or(0, |i| i + 1);
        self.files[part % self.files.len()]
            .lock()
            .expect("no thread panics while holding the manifest")
            .push((path.to_string(), Recorded { seen, ..recorded }, standing));
    }

    /// The staged path of a site file, with its folder made.
    fn destination(&self, path: &str) -> Result<PathBuf, String> {
        let dest = checked_path(&self.temp, path)?;
        if let Some(dir) = dest.parent() {
            let known = self
                .dirs
                .lock()
                .expect("no thread panics while holding the folder list")
                .contains(dir);
            if !known {
                let made = |d: &Path| {
                    self.dirs
                        .lock()
                        .expect("no thread panics while holding the folder list")
                        .contains(d)
                };
                make_dirs(&self.temp, dir, made)
                    .map_err(|e| format!("cannot create `{}`: {e}", dir.display()))?;
                let mut dirs = self
                    .dirs
                    .lock()
                    .expect("no thread panics while holding the folder list");
                let mut at = Some(dir);
                while let Some(d) = at {
                    if !dirs.insert(d.to_path_buf()) {
                        break;
                    }
                    at = d.parent().filter(|p| p.starts_with(&self.temp));
                }
            }
        }
        Ok(dest)
    }

    /// Link the previous site's file into the staged site, when it is still the file the previous manifest
    /// describes, and give back the manifest's record of it; none when that cannot be done (the file is gone or
    /// was changed since, or the file system has no hard links), so the caller makes it instead. A build that
    /// trusts its manifests ([`Staging::trust_kept_files`]) links the file without comparing it.
    fn link_previous(&self, path: &str, dest: &Path) -> Option<Seen> {
        let recorded = self.previous(path)?.seen?;
        let old = checked_path(&self.target.out, path).ok()?;
        // Only a plain file the previous build wrote is linked, never a link to somewhere else (which has no
        // `Seen`), and the link shares its inode, so it is seen as the file is.
        let seen = Seen::at(&old)?;
        ((seen == recorded || !self.look) && self.link(path, &old, dest)).then_some(recorded)
    }

    fn link(&self, path: &str, old: &Path, dest: &Path) -> bool {
        if self.standby.contains_key(path) {
            // Not the `.partial` name: a streamed file may be waiting under it.
            let mut link = dest.as_os_str().to_os_string();
            link.push(".link");
            let link = PathBuf::from(link);
            let _ = fs::remove_file(&link);
            if fs::hard_link(old, &link).is_err() {
                return false;
            }
            self.hold_if_large(dest);
            replace(&link, dest).is_ok()
        } else {
            fs::hard_link(old, dest).is_ok()
        }
    }

    /// Keep the standby's own copy at `dest` open while a link takes its name, when it is large. Renaming over
    /// the last name of a file frees its pages then and there, with the folder locked meanwhile: about 7 ms for
    /// a 54 MB `catalog.json` in memory, on the way to the page the archivist waits for, and other threads
    /// making folders beside it waited as long. Held open, it is freed once the new site is in place.
    fn hold_if_large(&self, dest: &Path) {
        const LARGE: u64 = 1 << 20;
        // Each held file is a descriptor: a few dozen at most, whatever the site.
        const AT_MOST: usize = 64;
        let Some(file) = open_alone(dest, false).filter(|(_, len)| *len >= LARGE) else {
            return;
        };
        let mut doomed = self
            .doomed
            .lock()
            .expect("no thread panics while holding the held files");
        if doomed.len() < AT_MOST {
            doomed.push(file.0);
        }
    }

    /// Write the manifest and marker, swap the staged site in, and remove the previous one.
    pub fn commit(self) -> Result<Written, String> {
        self.commit_into(None)
    }

    /// [`Staging::commit`], leaving the new site's manifest in `memo` for the next build to find without
    /// reading it.
    pub fn commit_with(self, memo: &mut Manifests) -> Result<Written, String> {
        self.commit_into(Some(memo))
    }

    /// [`Staging::commit`]; the manifest is remembered only where a next build in this process will ask for it.
    fn commit_into(self, memo: Option<&mut Manifests>) -> Result<Written, String> {
        let doomed = std::mem::take(
            &mut *self
                .doomed
                .lock()
                .expect("no thread panics while holding the held files"),
        );
        // Freed when this returns, beside whatever comes next (the page's reload, in the preview server): none
        // of them is in any site.
        let _doomed = FreedAside(doomed);
        let parts: Vec<Vec<(String, Recorded, Standing)>> = self
            .files
            .into_iter()
            .map(|part| {
                part.into_inner()
                    .expect("no thread panics while holding the manifest")
            })
            .collect();
        let mut files = Vec::with_capacity(parts.iter().map(Vec::len).sum());
        for mut part in parts {
            files.append(&mut part);
        }
        // Paths are told apart below, so the order of two equal ones does not matter.
        files.par_sort_unstable_by(|a, b| a.0.cmp(&b.0));
        if let Some(w) = files.windows(2).find(|w| w[0].0 == w[1].0) {
            return Err(format!("two files of the site are both `{}`", w[0].0));
        }
        // Which files changed, found on every core, with how many of the previous site's paths and of the
        // standby's the new site has: when it has all of each, none is gone and the standby holds nothing the
        // new site lacks, so the set of the new site's paths, and a look up in it for each of their 30,000
        // paths at 10,000 items, are not needed. The preview server's page waits for the swap.
        let (mut changed, in_previous, in_standby) = files
            .par_iter()
            .fold(
                || (Vec::new(), 0, 0),
                |(mut changed, mut in_previous, mut in_standby): (Vec<String>, usize, usize),
                 (path, recorded, standing)| {
                    if standing.as_previous {
                        in_previous += 1;
                    } else {
                        match self.previous.get(path) {
                            Some(old) => {
                                in_previous += 1;
                                if old.bytes != recorded.bytes {
                                    changed.push(path.clone());
                                }
                            }
                            None => changed.push(path.clone()),
                        }
                    }
                    if standing.in_standby || self.standby.contains_key(path) {
                        in_standby += 1;
                    }
                    (changed, in_previous, in_standby)
                },
            )
            .reduce(
                || (Vec::new(), 0, 0),
                |(mut changed, p, s), (more, q, t)| {
                    changed.extend(more);
                    (changed, p + q, s + t)
                },
            );
        let gone = in_previous < self.previous.len();
        let left_over = in_standby < self.standby.len();
        // Told apart by their paths alone from here on (collected in place, in the same allocation).
        let files: Vec<(String, Recorded)> = files
            .into_iter()
            .map(|(path, recorded, _)| (path, recorded))
            .collect();
        // Hashed with foldhash: SipHash over the 30,000 paths of a 10,000-item site was a sixth of the swap.
        let kept: foldhash::HashSet<&str> = if gone || left_over {
            let mut kept =
                foldhash::HashSet::with_capacity_and_hasher(files.len(), Default::default());
            kept.extend(files.iter().map(|(p, _)| p.as_str()));
            kept
        } else {
            foldhash::HashSet::default()
        };
        let before = changed.len();
        if gone {
            changed.extend(
                self.previous
                    .keys()
                    .filter(|p| !kept.contains(p.as_str()))
                    .cloned(),
            );
        }
        let removed = changed.len() - before;
        changed.sort();
        // The standby's files that the new site does not have, and the folders they leave empty; the folders
        // whose names this changes.
        let mut emptied: Vec<PathBuf> = Vec::new();
        let mut touched: Vec<PathBuf> = Vec::new();
        let stale_paths = left_over
            .then(|| self.standby.keys().filter(|p| !kept.contains(p.as_str())))
            .into_iter()
            .flatten();
        for path in stale_paths {
            let Ok(stale) = checked_path(&self.temp, path) else {
                continue;
            };
            touched.extend(stale.parent().map(Path::to_path_buf));
            match fs::symlink_metadata(&stale) {
                Ok(meta) if meta.is_dir() => {}
                Ok(_) => fs::remove_file(&stale)
                    .map_err(|e| format!("cannot remove `{path}` from the staged site: {e}"))?,
                Err(_) => {}
            }
            emptied.extend(stale.parent().map(Path::to_path_buf));
        }
        emptied.sort_by_key(|d| std::cmp::Reverse(d.components().count()));
        emptied.dedup();
        for dir in emptied {
            // Only empty folders go, deepest first; a folder still in use fails to go, which is what is wanted.
            let mut at = Some(dir.as_path());
            while let Some(d) = at.filter(|d| *d != self.temp && d.starts_with(&self.temp)) {
                if fs::remove_dir(d).is_err() {
                    break;
                }
                at = d.parent();
                touched.extend(at.map(Path::to_path_buf));
            }
        }
        // The record of the folders beside the manifest's lines, each on every core it can take.
        let mut dirs = self
            .dirs
            .lock()
            .expect("no thread panics while holding the folder list");
        dirs.extend(touched);
        let standby_record = self
            .folders
            .lock()
            .expect("no thread panics while holding the record of the folders");
        let swept = self.swept.load(Ordering::Relaxed);
        let (record, blocks) = rayon::join(
            || {
                folders::record(
                    &self.temp,
                    files.iter().map(|(path, _)| path.as_str()),
                    standby_record.as_ref(),
                    swept,
                    &dirs,
                )
            },
            // Its lines are written a block of files at a time on every core: the manifest is made at every
            // build, 30,000 lines at 10,000 items, while nothing else runs.
            || -> Vec<String> {
                files
                    .par_chunks(4096)
                    .map(|block| {
                        let mut lines = String::with_capacity(block.len() * 160);
                        for (path, recorded) in block {
                            push_manifest_line(&mut lines, path, recorded);
                        }
                        lines
                    })
                    .collect()
            },
        );
        drop(dirs);
        drop(standby_record);
        let recorded = crate::large_pages::Previous {
            peak: crate::resident::resident().map(|held| held.peak),
            slow: crate::large_pages::slow_page(),
        };
        let mut manifest = String::with_capacity(
            MANIFEST_FIRST_LINE + blocks.iter().map(String::len).sum::<usize>(),
        );
        push_manifest_header(&mut manifest, recorded);
        for block in &blocks {
            manifest.push_str(block);
        }
        drop(blocks);
        write_new(&self.temp.join(MANIFEST), manifest.as_bytes())
            .map_err(|e| format!("cannot write the manifest: {e}"))?;
        let count = files.len();
        // A first build into a new folder leaves a standby too (see [`Target::leave_standby`]).
        let first_site: Option<Vec<String>> =
            (!self.target.exists).then(|| files.iter().map(|(path, _)| path.clone()).collect());
        if let Some(memo) = memo {
            memo.wrote(manifest, files);
        }
        write_new(&self.temp.join(MARKER), MARKER_TEXT.as_bytes())
            .map_err(|e| format!("cannot write the marker file: {e}"))?;
        write_new(&self.temp.join(FOLDERS), record.as_bytes())
            .map_err(|e| format!("cannot write the record of the site's folders: {e}"))?;

        let out = &self.target.out;
        if self.target.exists {
            exchange(&self.temp, out).map_err(|e| {
                format!(
                    "cannot move the new site into `{}`: {e}; the previous site is as it was",
                    out.display()
                )
            })?;
            // The staging folder now holds the previous site. When ludotheca wrote it, it becomes the standby
            // for the next build (where another build's standby is already in place, this one is removed).
            self.guard.disarm();
            if self.target.ours && fs::rename(&self.temp, self.target.standby_path()).is_ok() {
                return Ok(Written {
                    files: count,
                    written: self.written.into_inner(),
                    unchanged: self.linked.into_inner(),
                    removed,
                    changed,
                });
            }
            // Renamed first, so that nothing mistakes it for a staged site; a failure to remove it leaves the
            // new site in place, and the next build removes what is left.
            let old = self.target.sibling("old", std::process::id());
            let doomed = match fs::rename(&self.temp, &old) {
                Ok(()) => old,
                Err(_) => self.temp.clone(),
            };
            if let Err(err) = remove_tree(&doomed) {
                eprintln!(
                    "warning: the new site is in place, but the previous one could not be removed from `{}`: \
                     {err}; the next build tries again",
                    doomed.display()
                );
            }
        } else {
            fs::rename(&self.temp, out)
                .map_err(|e| format!("cannot create `{}`: {e}", out.display()))?;
            self.guard.disarm();
            if let Some(paths) = first_site {
                self.target.leave_standby(&self.temp, &paths);
            }
        }
        Ok(Written {
            files: count,
            written: self.written.into_inner(),
            unchanged: self.linked.into_inner(),
            removed,
            changed,
        })
    }
}

/// The name a file is written under before it is renamed to `dest`.
fn partial_of(dest: &Path) -> PathBuf {
    let mut partial = dest.as_os_str().to_os_string();
    partial.push(".partial");
    PathBuf::from(partial)
}

/// Rename `from` over `to`, first removing a folder that stands where the file goes (a reused standby may hold
/// a folder where the new site has a file).
fn replace(from: &Path, to: &Path) -> io::Result<()> {
    match fs::rename(from, to) {
        Err(_) if fs::symlink_metadata(to).is_ok_and(|m| m.is_dir()) => {
            remove_tree(to)?;
            fs::rename(from, to)
        }
        other => other,
    }
}

/// The standby's own copy of a site file, opened to be written over where it lies. Writing into a file's pages
/// costs about a third of freeing them and taking new ones (54 MB in memory: 11 ms against 30), and a rebuild
/// writes each data file anew. See [`open_alone`] for which files qualify.
fn open_own(dest: &Path) -> Option<fs::File> {
    open_alone(dest, true).map(|(file, _)| file)
}

/// The regular file at `dest`, opened (for writing when `write`) without following a link, with its length,
/// when no other folder shares it: the live site shares any unchanged file of the standby's by a hard link.
/// None otherwise, or where the system cannot tell.
fn open_alone(dest: &Path, write: bool) -> Option<(fs::File, u64)> {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
        let file = fs::OpenOptions::new()
            .read(!write)
            .write(write)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY)
            .open(dest)
            .ok()?;
        let meta = file.metadata().ok()?;
        (meta.is_file() && meta.nlink() == 1).then_some((file, meta.len()))
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (dest, write);
        None
    }
}

/// Write `bytes` over the file [`open_own`] opened, cut what the old one held past them, and say how the file
/// is then.
fn overwrite(mut file: fs::File, bytes: &[u8]) -> io::Result<Option<Seen>> {
    file.write_all(bytes)?;
    file.set_len(bytes.len() as u64)?;
    Ok(Seen::open(&file))
}

/// Write a new file at `path` holding `bytes`, and say how it is then.
fn write_seen(path: &Path, bytes: &[u8]) -> io::Result<Option<Seen>> {
    let mut file = fs::File::create(path)?;
    file.write_all(bytes)?;
    Ok(Seen::open(&file))
}

/// Write a file under a new name, then rename it into place: the old file, if any, is never written into. A
/// file of the folder's own already under the new name (the standby's manifest, set aside when the standby was
/// claimed) is written over.
fn write_new(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let partial = partial_of(path);
    match open_own(&partial) {
        Some(file) => {
            overwrite(file, bytes)?;
        }
        None => fs::write(&partial, bytes)?,
    }
    fs::rename(&partial, path)
}

/// Make `dir` and the folders above it, up to `root`, below the deepest one `made` says is already a folder of
/// this build's. In a reused standby a folder's name may be taken by a file (or a link, which is never
/// followed): that is removed and a folder made in its place, so nothing is ever written outside `root`.
/// Each folder is made first and looked at only when its name is taken: a new site's folders are all new.
fn make_dirs(root: &Path, dir: &Path, made: impl Fn(&Path) -> bool) -> io::Result<()> {
    let Ok(below) = dir.strip_prefix(root) else {
        return Err(io::Error::other("outside the staging folder"));
    };
    let mut at = root.to_path_buf();
    let mut known = true;
    for part in below.components() {
        at.push(part);
        // A folder this build made or looked at stays one: nothing but the build writes in the staging folder.
        if known && made(&at) {
            continue;
        }
        known = false;
        match fs::create_dir(&at) {
            Ok(()) => continue,
            Err(err) if err.kind() == io::ErrorKind::AlreadyExists => {}
            Err(err) => return Err(err),
        }
        // The name was taken. The folder above is one this build made or looked at, so nothing here was
        // reached through a link; what holds the name is looked at without following it.
        match fs::symlink_metadata(&at) {
            Ok(meta) if meta.is_dir() => continue,
            Ok(_) => fs::remove_file(&at)?,
            Err(err) => return Err(err),
        }
        match fs::create_dir(&at) {
            Err(err) if err.kind() != io::ErrorKind::AlreadyExists => return Err(err),
            _ => {}
        }
    }
    Ok(())
}

/// Exchange two folders in one step where the system can (Linux), so that `to` is never missing.
#[cfg(target_os = "linux")]
fn exchange(from: &Path, to: &Path) -> io::Result<()> {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    let from_c = CString::new(from.as_os_str().as_bytes())?;
    let to_c = CString::new(to.as_os_str().as_bytes())?;
    // SAFETY: both paths are valid NUL-terminated strings that outlive the call; the call only reads them.
    let status = unsafe {
        libc::syscall(
            libc::SYS_renameat2,
            libc::AT_FDCWD,
            from_c.as_ptr(),
            libc::AT_FDCWD,
            to_c.as_ptr(),
            libc::RENAME_EXCHANGE,
        )
    };
    if status == 0 {
        return Ok(());
    }
    let err = io::Error::last_os_error();
    // Older kernels and some file systems cannot exchange: fall back to two renames.
    match err.raw_os_error() {
        Some(libc::ENOSYS) | Some(libc::EINVAL) | Some(libc::EOPNOTSUPP) => {
            exchange_by_renames(from, to)
        }
        _ => Err(err),
    }
}

#[cfg(not(target_os = "linux"))]
fn exchange(from: &Path, to: &Path) -> io::Result<()> {
    exchange_by_renames(from, to)
}

/// Exchange two folders by moving `to` aside, `from` into its place and the old `to` to `from`'s name. A kill
/// between the renames leaves `to` missing for a moment; the previous site is then beside it, named as a
/// leftover.
fn exchange_by_renames(from: &Path, to: &Path) -> io::Result<()> {
    let mut aside = from.as_os_str().to_os_string();
    aside.push(".swap");
    let aside = PathBuf::from(aside);
    fs::rename(to, &aside)?;
    if let Err(err) = fs::rename(from, to) {
        fs::rename(&aside, to)?;
        return Err(err);
    }
    fs::rename(&aside, from)
}

/// Whether a process of this id is running (on systems without `/proc`, every id counts as running, so that
/// nothing a live build uses is removed).
fn process_alive(pid: u32) -> bool {
    if pid == std::process::id() {
        return false;
    }
    let proc = Path::new("/proc");
    !proc.is_dir() || proc.join(pid.to_string()).exists()
}

/// Remove a folder tree without following links, files in parallel.
fn remove_tree(path: &Path) -> io::Result<()> {
    use rayon::prelude::*;
    let Ok(entries) = fs::read_dir(path) else {
        return fs::remove_dir_all(path);
    };
    let children: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    children.par_iter().for_each(|child| {
        let _ = fs::remove_dir_all(child).or_else(|_| fs::remove_file(child));
    });
    fs::remove_dir_all(path)
}

/// Files no site holds any more, freed on a thread of their own when this is dropped.
struct FreedAside(Vec<fs::File>);

impl Drop for FreedAside {
    fn drop(&mut self) {
        let files = std::mem::take(&mut self.0);
        if !files.is_empty() {
            crate::resident::free_beside(files);
        }
    }
}

/// Removes the staging folder when a build stops half way.
struct TempGuard(Option<PathBuf>);

impl TempGuard {
    fn disarm(mut self) {
        self.0 = None;
    }
}

impl Drop for TempGuard {
    fn drop(&mut self) {
        if let Some(path) = self.0.take() {
            let _ = remove_tree(&path);
        }
    }
}

/// A site path is relative and plain (`games/terhuchu/index.html`): no root, no `..`.
fn checked_path(root: &Path, path: &str) -> Result<PathBuf, String> {
    let relative = Path::new(path);
    if path.is_empty()
        || !relative
            .components()
            .all(|c| matches!(c, Component::Normal(_)))
    {
        return Err(format!("refusing to write `{path}` outside the site"));
    }
    Ok(root.join(relative))
}

/// The manifest of the site in `out`; empty when there is none or it cannot be read (then every file is written
/// anew: the manifest only ever saves work).
pub fn read_manifest(out: &Path) -> Listed {
    let Ok(text) = fs::read_to_string(out.join(MANIFEST)) else {
        return Listed::default();
    };
    parse_manifest(&text)
}

/// A site's files by path, as its manifest lists them. The map is sized from the number of lines and uses a
/// fast hash rather than growing with the standard one: at 10,000 items (30,000 paths) parsing takes 11 ms
/// instead of 13.
pub type Listed = foldhash::HashMap<String, Recorded>;

fn parse_manifest(text: &str) -> Listed {
    let Some((_, body)) = manifest_header(text) else {
        return Listed::default();
    };
    parse_lines(body)
}

/// The files a manifest's lines after the first list.
fn parse_lines(body: &str) -> Listed {
    let mut listed = Listed::with_capacity_and_hasher(
        body.bytes().filter(|&b| b == b'\n').count() + 1,
        Default::default(),
    );
    listed.extend(body.lines().filter_map(manifest_line));
    listed
}

/// Write the manifest's first line, with the build's peak of memory and the last slow large page it knew of
/// (see [`MANIFEST_HEADER`]).
fn push_manifest_header(manifest: &mut String, recorded: crate::large_pages::Previous) {
    use std::fmt::Write as _;
    manifest.push_str(MANIFEST_HEADER);
    match recorded.peak {
        Some(bytes) => {
            let _ = write!(manifest, " {bytes}");
        }
        None => manifest.push_str(" -"),
    }
    match recorded.slow {
        Some(slow) => {
            let _ = writeln!(manifest, " {}:{}", slow.at, slow.took);
        }
        None => manifest.push_str(" -\n"),
    }
}

/// What [`push_manifest_header`] wrote at the start of `text` (what it recorded for the next build's choice of
/// pages), and the lines after it; none for another format.
fn manifest_header(text: &str) -> Option<(crate::large_pages::Previous, &str)> {
    let rest = text.strip_prefix(MANIFEST_HEADER)?.strip_prefix(' ')?;
    let (first, body) = cut(rest, b'\n')?;
    let (peak, slow) = cut(first, b' ')?;
    let peak = match peak {
        "-" => None,
        bytes => Some(bytes.parse().ok()?),
    };
    let slow = match slow {
        "-" => None,
        slow => {
            let (at, took) = cut(slow, b':')?;
            Some(crate::large_pages::SlowPage {
                at: at.parse().ok()?,
                took: took.parse().ok()?,
            })
        }
    };
    Some((crate::large_pages::Previous { peak, slow }, body))
}

/// What the build that wrote the site in `out` recorded for the next build into `out` to choose its pages by:
/// the most memory it held, and the last large page it knew was slow to supply. Only the manifest's first line
/// is read, before anything else of a build; none when there is no manifest of this format.
pub fn recorded(out: &Path) -> Option<crate::large_pages::Previous> {
    use std::io::Read as _;
    let mut start = Vec::with_capacity(MANIFEST_FIRST_LINE);
    fs::File::open(out.join(MANIFEST))
        .ok()?
        .take(MANIFEST_FIRST_LINE as u64)
        .read_to_end(&mut start)
        .ok()?;
    let start = std::str::from_utf8(&start).ok()?;
    Some(manifest_header(start)?.0)
}

/// Write the manifest's line for the file at `path`, as [`manifest_line`] reads it.
fn push_manifest_line(lines: &mut String, path: &str, recorded: &Recorded) {
    crate::fingerprint::push_hex(lines, &recorded.bytes);
    lines.push(' ');
    match &recorded.inputs {
        Some(inputs) => crate::fingerprint::push_hex(lines, inputs),
        None => lines.push('-'),
    }
    lines.push(' ');
    Seen::push(recorded.seen, lines);
    lines.push(' ');
    lines.push_str(path);
    lines.push('\n');
}

/// The width in a manifest line of a file's digest, and of the hash of its inputs.
const DIGEST_HEX: usize = 2 * std::mem::size_of::<Digest>();
const INPUTS_HEX: usize = 2 * std::mem::size_of::<Hash>();

/// One line of a manifest: `digest inputs seen path`, the first two of fixed width (`-` for no inputs). Read
/// by position rather than split at each space: 60,000 lines (the live site's and the standby's) are read at
/// the start of every rebuild of 10,000 items.
fn manifest_line(line: &str) -> Option<(String, Recorded)> {
    let digest = unhex(line.get(..DIGEST_HEX)?)?;
    let rest = line.get(DIGEST_HEX..)?.strip_prefix(' ')?;
    let (inputs, rest) = match rest.as_bytes().first()? {
        b'-' => (None, rest.get(1..)?),
        _ => (unhex(rest.get(..INPUTS_HEX)?), rest.get(INPUTS_HEX..)?),
    };
    let rest = rest.strip_prefix(' ')?;
    let (seen, path) = cut(rest, b' ')?;
    Some((
        path.to_string(),
        Recorded {
            bytes: digest,
            inputs,
            seen: Seen::parse(seen),
        },
    ))
}

/// `text` cut at the first `byte`, an ASCII one (so both sides are text), without it. By byte: `str`'s own
/// search for a character compares each candidate through `memcmp`, and a rebuild at 10,000 items cuts the
/// 60,000 lines of two manifests this way (about 1% of its CPU, in a profile).
fn cut(text: &str, byte: u8) -> Option<(&str, &str)> {
    debug_assert!(byte.is_ascii());
    let at = text.bytes().position(|b| b == byte)?;
    Some((&text[..at], &text[at + 1..]))
}

/// The manifests a long-running process (the preview server) wrote or read last, by the digest of their bytes:
/// at 10,000 items a manifest is 30,000 lines, and parsing it again for every rebuild took longer than the
/// rest of a small rebuild's writing. The file is still read and hashed each time, so a site changed by
/// another process (a `build` into the same folder) is never mistaken for the one remembered.
#[derive(Default)]
pub struct Manifests {
    known: Vec<(Digest, Manifest)>,
    /// The manifest files read, each as it was when read, with the digest of its bytes: a build reads the two
    /// manifests beside the load and asks for them again when it stages, and while a file is the one read
    /// then (the same test a site's every kept file passes), it is not read and hashed again (5 MB each at
    /// 10,000 items, which all else waited for).
    seen: Vec<(Seen, Digest)>,
    /// The manifest this process wrote last, being hashed and made into a map on a thread of its own: the
    /// next build needs it only when it stages, and a build in a new process never does. Made in line, a
    /// 10,000-item site's took 5-9 ms of every swap.
    making: Option<std::thread::JoinHandle<(Digest, Manifest)>>,
}

impl Manifests {
    /// Take in the manifest being made, if any.
    fn settle(&mut self) {
        if let Some(making) = self.making.take()
            && let Ok((key, manifest)) = making.join()
        {
            self.remember(key, manifest);
        }
    }

    /// The manifest of the site in `dir`; empty when there is none or it cannot be read.
    fn read(&mut self, dir: &Path) -> Manifest {
        self.read_with(dir, None).0
    }

    /// [`Manifests::read`], parsing the file (when it is not known) beside `beside`, a manifest just read and
    /// the lines of its file after the first (see [`Manifest::beside`]). With the manifest, when it was parsed
    /// now, the file's text and where its lines after the first begin.
    fn read_with(
        &mut self,
        dir: &Path,
        beside: Option<(&Manifest, &str)>,
    ) -> (Manifest, Option<(String, usize)>) {
        self.settle();
        let path = dir.join(MANIFEST);
        if let Some(seen) = Seen::at(&path)
            && let Some((_, key)) = self.seen.iter().find(|(s, _)| *s == seen)
            && let Some((_, known)) = self.known.iter().find(|(k, _)| k == key)
        {
            return (known.clone(), None);
        }
        // Looked at through the file opened, before its bytes are read: bytes changed after the look have another
        // look, so they are never taken for these.
        let Ok(mut file) = fs::File::open(&path) else {
            return (Manifest::default(), None);
        };
        let seen = Seen::open(&file);
        let mut bytes = Vec::with_capacity(seen.map_or(0, |s| s.len as usize));
        if io::Read::read_to_end(&mut file, &mut bytes).is_err() {
            return (Manifest::default(), None);
        }
        let key = digest(&bytes);
        if let Some(seen) = seen {
            self.seen.retain(|(s, _)| *s != seen);
            self.seen.push((seen, key));
            if self.seen.len() > 4 {
                self.seen.remove(0);
            }
        }
        if let Some((_, known)) = self.known.iter().find(|(k, _)| *k == key) {
            return (known.clone(), None);
        }
        let read = String::from_utf8(bytes).ok().and_then(|text| {
            let start = text.len() - manifest_header(&text)?.1.len();
            Some((text, start))
        });
        let manifest = match (&read, beside) {
            (Some((text, start)), Some((base, base_body))) => {
                Manifest::beside(&text[*start..], base, base_body)
            }
            (Some((text, start)), None) => Manifest::whole(parse_lines(&text[*start..])),
            (None, _) => Manifest::default(),
        };
        self.remember(key, manifest.clone());
        (manifest, read)
    }

    /// A manifest was written with these bytes, listing these files.
    fn wrote(&mut self, bytes: String, files: Vec<(String, Recorded)>) {
        self.settle();
        // Should no thread start, nothing is remembered: the next build reads the file.
        self.making = std::thread::Builder::new()
            .spawn(move || {
                let key = digest(bytes.as_bytes());
                (key, Manifest::whole(files.into_iter().collect()))
            })
            .ok();
    }

    /// Keep the last few: the live site's and the standby's are the ones the next build reads.
    fn remember(&mut self, key: Digest, manifest: Manifest) {
        self.known.retain(|(k, _)| *k != key);
        self.known.push((key, manifest));
        if self.known.len() > 3 {
            let gone = self.known.remove(0);
            // Tens of thousands of paths to free, which kept the swap waiting: freed beside it instead.
            crate::resident::free_beside(gone);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fingerprint::to_hex as hex;

    #[test]
    fn paths_stay_inside() {
        let root = Path::new("/tmp/x");
        assert!(checked_path(root, "games/a/index.html").is_ok());
        assert!(checked_path(root, "../a").is_err());
        assert!(checked_path(root, "/etc/passwd").is_err());
        assert!(checked_path(root, "a/../../b").is_err());
        assert!(checked_path(root, "").is_err());
    }

    #[test]
    fn hashes_round_trip_through_hex() {
        let hash = hash_bytes(b"terhuchu");
        assert_eq!(unhex(&hex(&hash)), Some(hash));
        assert_eq!(
            hex(blake3::hash(b"").as_bytes()),
            "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262"
        );
        assert_eq!(
            unhex("AF1349B9F5F9A1A6A0404DEA36DCC9499BCB25C9ADC112B7CC9A93CAE41F3262"),
            Some(*blake3::hash(b"").as_bytes())
        );
        assert_eq!(unhex::<32>("zz"), None);
    }

    #[test]
    fn a_manifest_line_reads_back_as_written() {
        let seen = Seen {
            len: 4096,
            // Before 1970: a time the system can give a file.
            modified: -1_500_000_000,
            inode: 77,
        };
        let cases = [
            // A path may hold spaces and dots: only the first three fields are cut at them.
            (
                "games/a b.c/index.html",
                Recorded {
                    bytes: digest(b"page"),
                    inputs: Some(hash_bytes(b"inputs")),
                    seen: Some(seen),
                },
            ),
            (
                "sitemap.xml",
                Recorded {
                    bytes: digest(b"map"),
                    inputs: None,
                    seen: None,
                },
            ),
        ];
        for (path, recorded) in cases {
            let mut line = String::new();
            push_manifest_line(&mut line, path, &recorded);
            let line = line.strip_suffix('\n').unwrap();
            assert_eq!(
                manifest_line(line),
                Some((path.to_string(), recorded)),
                "{line}"
            );
        }
        assert_eq!(
            Seen::parse("12.-3.4"),
            Some(Seen {
                len: 12,
                modified: -3,
                inode: 4
            })
        );
        for unreadable in ["", "-", "12", "12.3", "12.3.x", "12.3.4.5", "x.3.4"] {
            assert_eq!(Seen::parse(unreadable), None, "{unreadable}");
        }
        assert_eq!(manifest_line("not a manifest line"), None);
    }

    #[test]
    fn a_manifest_records_the_peak_and_the_slow_page_the_next_build_chooses_by() {
        use crate::large_pages::{Previous, SlowPage};
        let slow = SlowPage {
            at: 1_796_000_000,
            took: 6930,
        };
        let widest = SlowPage {
            at: u64::MAX,
            took: u32::MAX,
        };
        for peak in [Some(0), Some(289_406_976), Some(u64::MAX), None] {
            for slow in [None, Some(slow), Some(widest)] {
                let recorded = Previous { peak, slow };
                let mut text = String::new();
                push_manifest_header(&mut text, recorded);
                assert!(text.len() <= MANIFEST_FIRST_LINE, "{text}");
                text.push_str("rest\n");
                assert_eq!(manifest_header(&text), Some((recorded, "rest\n")), "{text}");
            }
        }
        // Another format, or a field that is not what it should be, is no manifest of this one.
        for other in [
            "ludotheca-manifest 4 12\nrest\n",
            "ludotheca-manifest 5\nrest\n",
            "ludotheca-manifest 5 12\nrest\n",
            "ludotheca-manifest 5 many -\nrest\n",
            "ludotheca-manifest 5 12 soon\nrest\n",
            "ludotheca-manifest 5 12 5:\nrest\n",
            "ludotheca-manifest 5 12 :5\nrest\n",
            "ludotheca-manifest 5 12 -",
            "ludotheca-manifest 50 12 -\nrest\n",
        ] {
            assert_eq!(manifest_header(other), None, "{other}");
            assert!(parse_manifest(other).is_empty(), "{other}");
        }

        // A committed site's manifest records this process's peak, which the next build reads back.
        let (root, out) = scratch("peak");
        assert_eq!(recorded(&out), None);
        build_files(&root, &out, &[("index.html", "home")]);
        let held = crate::resident::resident().map(|held| held.peak);
        let then = recorded(&out).expect("the manifest's first line read back");
        assert_eq!(then.slow, crate::large_pages::slow_page());
        match (held, then.peak) {
            (Some(now), Some(then)) => assert!(then > 0 && then <= now, "{then} then, {now} now"),
            (None, None) => {}
            other => panic!("the peak recorded differs from the system's word: {other:?}"),
        }
        assert_eq!(read_manifest(&out).len(), 1);
        fs::write(out.join(MANIFEST), "ludotheca-manifest 4 12\nrest\n").unwrap();
        assert_eq!(recorded(&out), None);
        fs::remove_dir_all(&root).unwrap();
    }

    /// A new scratch folder holding an empty catalog; the site goes in `site` beside it.
    fn scratch(name: &str) -> (PathBuf, PathBuf) {
        let root = std::env::temp_dir().join(format!("ludotheca-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        fs::create_dir_all(root.join("catalog")).unwrap();
        let out = root.join("site");
        (root, out)
    }

    /// A site of `files` built into `out` (whose catalog is `root`'s), staged and committed.
    fn build_files(root: &Path, out: &Path, files: &[(&str, &str)]) -> Written {
        let staging = Target::prepare(out, &root.join("catalog"), false)
            .unwrap()
            .stage()
            .unwrap();
        for (path, text) in files {
            staging.put(path, text.as_bytes(), None).unwrap();
        }
        staging.commit().unwrap()
    }

    /// The names in `root`, sorted: the output and what lies beside it.
    fn beside(root: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(root)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    /// A site of `files` built into `out`, staged and committed with `memo`.
    fn build_with_memo(
        root: &Path,
        out: &Path,
        memo: &mut Manifests,
        files: &[(&str, &str)],
    ) -> Written {
        let staging = Target::prepare(out, &root.join("catalog"), false)
            .unwrap()
            .stage_with(memo)
            .unwrap();
        for (path, text) in files {
            staging.put(path, text.as_bytes(), None).unwrap();
        }
        staging.commit_with(memo).unwrap()
    }

    /// What a commit reports changed (the pages an open page reloads for) is what differs from the live site
    /// it replaces, however each file was staged: written, kept, found in the standby, or linked.
    #[test]
    fn a_commit_reports_changed_what_differs_from_the_site_it_replaces() {
        let (root, out) = scratch("changed-list");
        let build = |files: &[(&str, &str)]| build_files(&root, &out, files);
        build(&[("a/index.html", "one"), ("b/index.html", "two")]);
        // Both files in the standby now, the same as the live site's.
        let same = build(&[("a/index.html", "one"), ("b/index.html", "two")]);
        assert!(same.changed.is_empty(), "{:?}", same.changed);
        // `b` changes: written over the standby's copy.
        let edited = build(&[("a/index.html", "one"), ("b/index.html", "edited")]);
        assert_eq!(edited.changed, ["b/index.html"]);
        // `b` back as it was: the standby holds those bytes already, but the live site does not.
        let back = build(&[("a/index.html", "one"), ("b/index.html", "two")]);
        assert_eq!(back.changed, ["b/index.html"]);
        // `b` kept as the live site has it, without being made: nothing changed; then `c` comes and `a` goes.
        let staging = Target::prepare(&out, &root.join("catalog"), false)
            .unwrap()
            .stage()
            .unwrap();
        assert!(staging.keep_as_it_was("b/index.html").unwrap());
        staging.put("c/index.html", b"three", None).unwrap();
        let next = staging.commit().unwrap();
        assert_eq!(next.changed, ["a/index.html", "c/index.html"]);
        assert_eq!(next.removed, 1);
        let _ = fs::remove_dir_all(&root);
    }

    #[test]
    fn remembered_manifests_never_stand_for_a_site_another_build_wrote() {
        let (root, out) = scratch("memo");
        let build = |memo: &mut Manifests, files: &[(&str, &str)]| {
            build_with_memo(&root, &out, memo, files)
        };
        let mut server = Manifests::default();
        build(
            &mut server,
            &[("a/index.html", "one"), ("b/index.html", "two")],
        );
        build(
            &mut server,
            &[("a/index.html", "one"), ("b/index.html", "two")],
        );
        // Another process builds into the same folder: `b` changes, `c` comes.
        build(
            &mut Manifests::default(),
            &[("b/index.html", "changed"), ("c/index.html", "three")],
        );
        // The server's next build must see that site, not the one it remembers: it starts from the standby (the
        // server's second site, whose `a` is already right), links `b` and `c` from the other process's site,
        // and keeps nothing of the remembered live site.
        let next = build(
            &mut server,
            &[
                ("a/index.html", "one"),
                ("b/index.html", "changed"),
                ("c/index.html", "three"),
            ],
        );
        assert_eq!((next.written, next.unchanged, next.removed), (0, 3, 0));
        for (path, text) in [
            ("a/index.html", "one"),
            ("b/index.html", "changed"),
            ("c/index.html", "three"),
        ] {
            assert_eq!(fs::read_to_string(out.join(path)).unwrap(), text, "{path}");
        }
        assert_eq!(read_manifest(&out).len(), 3);
        let _ = fs::remove_dir_all(&root);
    }

    #[test]
    fn manifests_read_ahead_are_taken_only_while_their_files_are_unchanged() {
        let (root, out) = scratch("ahead");
        let target = || Target::prepare(&out, &root.join("catalog"), false).unwrap();
        let build = |memo: &mut Manifests, files: &[(&str, &str)]| {
            build_with_memo(&root, &out, memo, files)
        };
        let first = [("a/index.html", "one"), ("b/index.html", "two")];
        let second = [("a/index.html", "one"), ("b/index.html", "two, edited")];
        build(&mut Manifests::default(), &first);
        build(&mut Manifests::default(), &second);

        // Read ahead: the live site's manifest and the standby's (the first site), both parsed.
        let mut memo = Manifests::default();
        target().read_manifests(&mut memo);
        memo.settle();
        assert_eq!(memo.known.len(), 2);
        assert!(memo.known.iter().all(|(_, m)| m.len() == 2));
        let again = build(&mut memo, &second);
        assert_eq!((again.written, again.unchanged, again.removed), (0, 2, 0));

        // Read ahead, then another process builds into the folder before this build stages: staging must see
        // that site, not the one read ahead.
        let mut memo = Manifests::default();
        target().read_manifests(&mut memo);
        build(
            &mut Manifests::default(),
            &[("b/index.html", "changed"), ("c/index.html", "three")],
        );
        let next = build(
            &mut memo,
            &[("b/index.html", "changed"), ("c/index.html", "three")],
        );
        assert_eq!((next.written, next.unchanged, next.removed), (0, 2, 0));
        assert!(!out.join("a/index.html").exists());
        assert_eq!(read_manifest(&out).len(), 2);
        let _ = fs::remove_dir_all(&root);
    }

    #[test]
    fn a_manifest_read_once_is_taken_again_while_its_file_is_the_one_read() {
        let (root, out) = scratch("seen-manifest");
        build_with_memo(
            &root,
            &out,
            &mut Manifests::default(),
            &[("a/index.html", "one")],
        );
        let mut memo = Manifests::default();
        let first = memo.read(&out);
        assert_eq!(first.len(), 1);
        // The same bytes read again are the same manifest, whichever way it is found.
        assert!(first.is(&memo.read(&out)));

        // Bytes changed where they lie, with the size and time they had: the file is the one read, as far as any
        // look can tell, so it is not read again (the test every kept file of a site passes).
        let path = out.join(MANIFEST);
        let modified = fs::metadata(&path).unwrap().modified().unwrap();
        let text = fs::read_to_string(&path).unwrap();
        let forged = text.replace("a/index.html", "b/index.html");
        assert_eq!(forged.len(), text.len());
        let file = fs::OpenOptions::new().write(true).open(&path).unwrap();
        io::Write::write_all(&mut &file, forged.as_bytes()).unwrap();
        file.set_modified(modified).unwrap();
        drop(file);
        assert!(first.is(&memo.read(&out)));

        // Any other time of change, and the file is read again.
        let file = fs::OpenOptions::new().write(true).open(&path).unwrap();
        file.set_modified(modified + std::time::Duration::from_secs(1))
            .unwrap();
        drop(file);
        let again = memo.read(&out);
        assert!(again.contains_key("b/index.html"));
        assert!(!again.contains_key("a/index.html"));
        let _ = fs::remove_dir_all(&root);
    }

    #[test]
    fn a_file_changed_after_its_build_is_made_again_even_after_a_pass_that_trusted_it() {
        let (root, out) = scratch("changed-file");
        let stage = || {
            Target::prepare(&out, &root.join("catalog"), false)
                .unwrap()
                .stage()
                .unwrap()
        };
        let files = [("a/index.html", "one"), ("b/index.html", "two")];
        for _ in 0..2 {
            let staging = stage();
            for (path, text) in files {
                staging.put(path, text.as_bytes(), None).unwrap();
            }
            staging.commit().unwrap();
        }
        // Written where it lies: the live site and the standby share the file.
        fs::OpenOptions::new()
            .append(true)
            .open(out.join("a/index.html"))
            .unwrap()
            .write_all(b" and more")
            .unwrap();
        // A pass that trusts the manifests keeps it as it is, and so records it as the manifest did.
        let mut staging = stage();
        staging.trust_kept_files();
        staging.put("b/index.html", b"two", None).unwrap();
        staging.carry_rest().unwrap();
        staging.commit().unwrap();
        assert_eq!(
            fs::read_to_string(out.join("a/index.html")).unwrap(),
            "one and more"
        );
        // The next build looks, and neither site's copy is the file recorded: it cannot be kept as it was, and
        // the bytes put are written.
        let staging = stage();
        assert!(!staging.keep_as_it_was("a/index.html").unwrap());
        staging.put("a/index.html", b"one", None).unwrap();
        staging.put("b/index.html", b"two", None).unwrap();
        let written = staging.commit().unwrap();
        assert_eq!((written.written, written.unchanged), (1, 1));
        assert_eq!(fs::read_to_string(out.join("a/index.html")).unwrap(), "one");
        let _ = fs::remove_dir_all(&root);
    }

    #[test]
    fn unchanged_files_are_linked_and_changed_ones_written() {
        let root = std::env::temp_dir().join(format!("ludotheca-output-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        fs::create_dir_all(root.join("catalog")).unwrap();
        let out = root.join("site");
        let build = |files: &[(&str, &str)]| build_files(&root, &out, files);
        let first = build(&[("a/index.html", "one"), ("b/index.html", "two")]);
        assert_eq!((first.written, first.unchanged), (2, 0));
        let second = build(&[("a/index.html", "one"), ("c/index.html", "three")]);
        assert_eq!(
            (second.written, second.unchanged, second.removed),
            (1, 1, 1)
        );
        assert_eq!(fs::read_to_string(out.join("a/index.html")).unwrap(), "one");
        assert!(!out.join("b/index.html").exists());
        let manifest = read_manifest(&out);
        assert_eq!(manifest.len(), 2);
        // Beside the output: only the standby, the site the second build replaced, with its manifest.
        assert_eq!(
            beside(&root),
            [".site.ludotheca-standby", "catalog", "site"],
            "{:?}",
            beside(&root)
        );
        let standby = root.join(".site.ludotheca-standby");
        assert_eq!(read_manifest(&standby).len(), 2);
        assert_eq!(
            fs::read_to_string(standby.join("b/index.html")).unwrap(),
            "two"
        );

        // The third build starts from the standby (the first build's site, a and b): `a` is already right,
        // `c` is linked from the live site, `d` is new and `b` goes, with the folder it leaves empty.
        let live_a = fs::read(out.join("a/index.html")).unwrap();
        let third = build(&[
            ("a/index.html", "one"),
            ("c/index.html", "three"),
            ("d/e/index.html", "four"),
        ]);
        assert_eq!((third.written, third.unchanged, third.removed), (1, 2, 0));
        for (path, text) in [
            ("a/index.html", "one"),
            ("c/index.html", "three"),
            ("d/e/index.html", "four"),
        ] {
            assert_eq!(fs::read_to_string(out.join(path)).unwrap(), text);
        }
        assert!(!out.join("b").exists());
        assert_eq!(read_manifest(&out).len(), 3);
        // The second build's site is the standby now, untouched by the third build.
        assert_eq!(fs::read(standby.join("a/index.html")).unwrap(), live_a);
        assert_eq!(
            fs::read_to_string(standby.join("c/index.html")).unwrap(),
            "three"
        );
        assert!(!standby.join("d").exists());

        // A changed file replaces the standby's copy without writing into it: the live site's file, which
        // the standby shares by a hard link, keeps its bytes until the swap.
        let fourth = build(&[("a/index.html", "ONE"), ("c/index.html", "three")]);
        assert_eq!(
            (fourth.written, fourth.unchanged, fourth.removed),
            (1, 1, 1)
        );
        assert_eq!(fs::read_to_string(out.join("a/index.html")).unwrap(), "ONE");
        assert_eq!(
            fs::read_to_string(standby.join("a/index.html")).unwrap(),
            "one"
        );
        assert!(standby.join("d/e/index.html").exists());
        assert_eq!(beside(&root).len(), 3, "{:?}", beside(&root));
        let _ = fs::remove_dir_all(&root);
    }

    /// A first build into a new folder leaves a standby beside it: links to the site's files, with a manifest
    /// and a marker of its own (never shared, since a build writes those where they lie), which the next build
    /// claims like any standby. Where it cannot be made, the build succeeds without it and leaves nothing.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_first_build_leaves_a_standby_of_links_with_a_manifest_of_its_own() {
        use std::os::unix::fs::MetadataExt;
        let (root, out) = scratch("first-standby");
        let standby = root.join(".site.ludotheca-standby");
        let inode = |path: &Path| fs::symlink_metadata(path).unwrap().ino();
        let build = |files: &[(&str, &str)]| build_files(&root, &out, files);
        build(&[("a/index.html", "one"), ("b/c/index.html", "two")]);
        assert_eq!(
            beside(&root),
            [".site.ludotheca-standby", "catalog", "site"]
        );
        for path in ["a/index.html", "b/c/index.html"] {
            assert_eq!(inode(&standby.join(path)), inode(&out.join(path)), "{path}");
        }
        for own in [MANIFEST, MARKER] {
            assert_ne!(inode(&standby.join(own)), inode(&out.join(own)), "{own}");
            assert_eq!(
                fs::read(standby.join(own)).unwrap(),
                fs::read(out.join(own)).unwrap()
            );
        }

        // The next build takes it: only the changed file is written, as a new file, so the site it replaces
        // (the standby after it) keeps the old bytes.
        let second = build(&[("a/index.html", "ONE"), ("b/c/index.html", "two")]);
        assert_eq!((second.written, second.unchanged), (1, 1));
        assert_eq!(fs::read_to_string(out.join("a/index.html")).unwrap(), "ONE");
        assert_eq!(
            fs::read_to_string(standby.join("a/index.html")).unwrap(),
            "one"
        );

        // Where a link cannot be made (here to a file the site does not have), nothing is left: neither a
        // standby nor the folder it was being made in.
        fs::remove_dir_all(&standby).unwrap();
        let target = Target::prepare(&out, &root.join("catalog"), false).unwrap();
        let temp = root.join("making");
        target.leave_standby(&temp, &["a/index.html".into(), "gone/index.html".into()]);
        assert_eq!(beside(&root), ["catalog", "site"]);
        let _ = fs::remove_dir_all(&root);
    }

    /// A build writes over the standby's own copy of a changed file where it lies, streamed or not, and cuts
    /// what the old one held past the new end; a copy the standby shares with the live site (a hard link) is
    /// never written into, so the live site, and later the standby it becomes, keeps its bytes.
    #[cfg(target_os = "linux")]
    #[test]
    fn the_standbys_own_files_are_written_over_and_shared_ones_never() {
        use std::os::unix::fs::MetadataExt;
        let (root, out) = scratch("in-place");
        let standby = root.join(".site.ludotheca-standby");
        let inode = |path: &Path| fs::symlink_metadata(path).unwrap().ino();
        let text = |path: &Path| fs::read_to_string(path).unwrap();
        let mut memo = Manifests::default();
        let mut build = |put: &str, streamed: &str, kept: &str| {
            let staging = Target::prepare(&out, &root.join("catalog"), false)
                .unwrap()
                .stage_with(&mut memo)
                .unwrap();
            staging.put("data.json", put.as_bytes(), None).unwrap();
            staging
                .put_with("catalog.csv", None, &|w| w.write_all(streamed.as_bytes()))
                .unwrap();
            staging.put("kept.json", kept.as_bytes(), None).unwrap();
            staging.commit_with(&mut memo).unwrap()
        };
        build("first version", "first streamed version", "kept");
        build("second", "second streamed", "kept");
        // The standby is the first site: its data files are its own, and `kept.json` is shared with the live
        // site's, unchanged since.
        let own = [
            inode(&standby.join("data.json")),
            inode(&standby.join("catalog.csv")),
        ];
        assert_eq!(
            inode(&standby.join("kept.json")),
            inode(&out.join("kept.json"))
        );

        let third = build("3rd", "3rd, streamed", "changed");
        assert_eq!((third.written, third.unchanged), (3, 0));
        assert_eq!(
            [
                inode(&out.join("data.json")),
                inode(&out.join("catalog.csv"))
            ],
            own,
            "written where the standby's own copies lay"
        );
        assert_eq!(text(&out.join("data.json")), "3rd");
        assert_eq!(text(&out.join("catalog.csv")), "3rd, streamed");
        assert_eq!(text(&out.join("kept.json")), "changed");
        // The second site, now the standby, is as it was built: its `kept.json` was the link never written into.
        assert_eq!(text(&standby.join("data.json")), "second");
        assert_eq!(text(&standby.join("catalog.csv")), "second streamed");
        assert_eq!(text(&standby.join("kept.json")), "kept");
        assert_eq!(read_manifest(&out).len(), 3);
        let _ = fs::remove_dir_all(&root);
    }
}
