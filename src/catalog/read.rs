//! Reading one file of the catalog, safely on hostile input. A catalog may come from anyone, so before a file is
//! opened the reader makes sure it is a regular file (never a folder, a FIFO that would block, or a device that
//! never ends), that it lies inside the catalog folder once symbolic links are followed (so a link cannot
//! publish a system file), and that it is within the size limit of its kind. What was opened is looked at again
//! and read to the size it had then, for a file that grows or is swapped after it was looked at. Each refusal
//! is a diagnostic naming the file, never quoting what a link points to.

use std::fs::{self, File, Metadata};
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use super::LoadError;
use super::stamps::Stamp;
use crate::diagnostic::{Diagnostic, Diagnostics};

/// The kinds of file the catalog reader reads, each with its own size limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// `record.xml`
    Record,
    /// `rules.txt`
    Rules,
    /// `games/*.game`
    GameRecord,
    /// `about.md`
    About,
    /// `sources.bib`
    Bibliography,
    /// `ludotheca.toml`
    Config,
    /// a file under `templates/`
    Template,
    /// a file under `static/`
    Static,
    /// a picture under an item's `images/`
    Image,
}

const MIB: u64 = 1024 * 1024;

impl FileKind {
    /// The largest file of this kind that is read. Each is far above what the kind needs in practice (the
    /// shipped catalog's largest rules file is a few KiB), and low enough that a whole catalog of them stays
    /// within memory.
    pub const fn limit(self) -> u64 {
        match self {
            // A record is a page of metadata, not a book.
            FileKind::Record => MIB,
            FileKind::Rules => 2 * MIB,
            // A game record may hold a long match or a collection of puzzles.
            FileKind::GameRecord => 4 * MIB,
            FileKind::About => 2 * MIB,
            // A bibliography may list thousands of works.
            FileKind::Bibliography => 8 * MIB,
            FileKind::Config => MIB,
            FileKind::Template => MIB,
            // Static files may be images or fonts.
            FileKind::Static => 32 * MIB,
            // A photograph from a phone or a page scanned at 600 dpi, saved as JPEG, is a few MiB.
            FileKind::Image => 16 * MIB,
        }
    }

    /// What the file is, in running text.
    fn noun(self) -> &'static str {
        match self {
            FileKind::Record => "record",
            FileKind::Rules => "rules file",
            FileKind::GameRecord => "game record",
            FileKind::About => "About page",
            FileKind::Bibliography => "bibliography",
            FileKind::Config => "site configuration",
            FileKind::Template => "template",
            FileKind::Static => "static file",
            FileKind::Image => "image",
        }
    }

    fn too_large_help(self) -> &'static str {
        match self {
            FileKind::Record => {
                "a record holds metadata; move long texts into shorter values or separate items"
            }
            FileKind::GameRecord => "split the recorded games into several `.game` files",
            FileKind::Bibliography => "keep only the works the catalog cites",
            FileKind::Static => "make the file smaller (an image can be scaled down)",
            FileKind::Image => {
                "scale the picture down (the site shows it at most 960 pixels wide) or save it as JPEG"
            }
            _ => "make the file shorter",
        }
    }
}

/// Reads files of one catalog folder.
pub struct Reader {
    /// The catalog folder with every link resolved, to tell whether a link leads outside it.
    root: PathBuf,
    /// The catalog folder as it was named, which every path read begins with.
    named: PathBuf,
}

impl Reader {
    pub fn new(root: &Path) -> Result<Reader, LoadError> {
        let root_named = root;
        let root = fs::canonicalize(root).map_err(|source| LoadError::Io {
            path: root.to_path_buf(),
            source,
        })?;
        Ok(Reader {
            root,
            named: root_named.to_path_buf(),
        })
    }

    /// The catalog folder as it was named when the reader was made.
    pub fn named_root(&self) -> &Path {
        &self.named
    }

    /// [`Reader::read`] for a path that a listing of its folder gave as a regular file (walking a folder gives
    /// each entry's type without another look): it is opened at once, without following a link, and what was
    /// opened is looked at before it is read. A special file put there since the listing is refused unread (a
    /// FIFO does not block the opening); a link put there is not opened, and goes the careful way of
    /// [`Reader::read`], as does every path no listing vouched for.
    pub fn read_listed(
        &self,
        path: &Path,
        kind: FileKind,
        diagnostics: &mut Diagnostics,
    ) -> Result<Found<Vec<u8>>, LoadError> {
        Ok(self
            .read_listed_stamped(path, kind, diagnostics)?
            .map(|(bytes, _)| bytes))
    }

    /// [`Reader::read_listed`], with the stamp of the file read (none where it was reached through a link).
    pub fn read_listed_stamped(
        &self,
        path: &Path,
        kind: FileKind,
        diagnostics: &mut Diagnostics,
    ) -> Result<Found<Stamped>, LoadError> {
        #[cfg(target_os = "linux")]
        {
            use std::os::unix::fs::OpenOptionsExt;
            let opened = fs::OpenOptions::new()
                .read(true)
                .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY)
                .open(path);
            match opened {
                Ok(file) => self.read_opened(path, kind, file, diagnostics),
                Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(Found::Absent),
                // A link (ELOOP) or anything else unexpected: the careful way.
                Err(_) => self.read_stamped(path, kind, diagnostics),
            }
        }
        #[cfg(not(target_os = "linux"))]
        {
            self.read_stamped(path, kind, diagnostics)
        }
    }

    /// The bytes of the file at `path`; [`Found::Refused`] when it is there but refused (a diagnostic says
    /// why); [`Found::Absent`] when nothing is there, not even a dangling link. Only a file that passes every
    /// check but still cannot be read (no permission, a disk error) is an error.
    pub fn read(
        &self,
        path: &Path,
        kind: FileKind,
        diagnostics: &mut Diagnostics,
    ) -> Result<Found<Vec<u8>>, LoadError> {
        Ok(self
            .read_stamped(path, kind, diagnostics)?
            .map(|(bytes, _)| bytes))
    }

    /// [`Reader::read`], with the stamp of the file read (none where it was reached through a link: the link's
    /// target may change while the link stays as it was).
    pub fn read_stamped(
        &self,
        path: &Path,
        kind: FileKind,
        diagnostics: &mut Diagnostics,
    ) -> Result<Found<Stamped>, LoadError> {
        let io_error = |source| LoadError::Io {
            path: path.to_path_buf(),
            source,
        };
        let own = match fs::symlink_metadata(path) {
            Ok(meta) => meta,
            Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(Found::Absent),
            Err(err) => return Err(io_error(err)),
        };
        let linked = own.file_type().is_symlink();
        let meta = if linked {
            // Folders on the way here were reached without following links (the walker never follows one), so
            // only a link at the file itself can lead elsewhere; resolving that one is enough.
            match fs::canonicalize(path) {
                Ok(target) if target.starts_with(&self.root) => {}
                Ok(_) => {
                    diagnostics.push(outside_catalog(path));
                    return Ok(Found::Refused);
                }
                Err(err) => {
                    diagnostics.push(broken_link(path, &err));
                    return Ok(Found::Refused);
                }
            }
            fs::metadata(path).map_err(io_error)?
        } else {
            own
        };
        if !meta.is_file() {
            diagnostics.push(not_regular(path, &meta, kind));
            return Ok(Found::Refused);
        }
        let limit = kind.limit();
        if meta.len() > limit {
            diagnostics.push(too_large(path, kind, Some(meta.len())));
            return Ok(Found::Refused);
        }
        let file = File::open(path).map_err(io_error)?;
        let read = self.read_opened(path, kind, file, diagnostics)?;
        Ok(if linked {
            read.map(|(bytes, _)| (bytes, None))
        } else {
            read
        })
    }

    /// Read a file just opened at `path`, after looking at what was opened: the file may have been replaced
    /// since it was looked at by its path.
    fn read_opened(
        &self,
        path: &Path,
        kind: FileKind,
        file: File,
        diagnostics: &mut Diagnostics,
    ) -> Result<Found<Stamped>, LoadError> {
        let io_error = |source| LoadError::Io {
            path: path.to_path_buf(),
            source,
        };
        // Looked at before it is read: a write after this moves its stamp, so a stamp kept with these bytes
        // never vouches for others.
        let opened = file.metadata().map_err(io_error)?;
        if !opened.is_file() {
            diagnostics.push(not_regular(path, &opened, kind));
            return Ok(Found::Refused);
        }
        let limit = kind.limit();
        if opened.len() > limit {
            diagnostics.push(too_large(path, kind, Some(opened.len())));
            return Ok(Found::Refused);
        }
        match read_regular(file, limit, opened.len()).map_err(io_error)? {
            Bounded::Whole(bytes) => Ok(Found::Read((bytes, Stamp::of(&opened)))),
            Bounded::TooLarge => {
                // It never ends.
                diagnostics.push(too_large(path, kind, None));
                Ok(Found::Refused)
            }
        }
    }
}

/// What became of a file the reader was asked for.
#[derive(Debug, PartialEq, Eq)]
pub enum Found<T> {
    /// Nothing is at the path.
    Absent,
    /// Something is there, and was refused with a diagnostic.
    Refused,
    Read(T),
}

impl<T> Found<T> {
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Found<U> {
        match self {
            Found::Absent => Found::Absent,
            Found::Refused => Found::Refused,
            Found::Read(t) => Found::Read(f(t)),
        }
    }
}

/// A file's bytes, and its stamp when it can vouch for them at the next build.
pub type Stamped = (Vec<u8>, Option<Stamp>);

/// The bytes of a catalog file the load took as unchanged without reading it, now that its text is asked for:
/// opened without following a link, and read only if it is still a regular file of `len` bytes (anything else
/// is an error: the file changed, and the caller says so).
pub fn read_unread(path: &Path, len: usize) -> io::Result<Vec<u8>> {
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    let file = options.open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() || meta.len() != len as u64 {
        return Err(io::Error::other("the file changed since the load"));
    }
    let mut bytes = Vec::with_capacity(len);
    file.take(len as u64 + 1).read_to_end(&mut bytes)?;
    if bytes.len() != len {
        return Err(io::Error::other("the file changed since the load"));
    }
    Ok(bytes)
}

/// What [`read_bounded`] read.
#[derive(Debug, PartialEq, Eq)]
pub enum Bounded {
    Whole(Vec<u8>),
    /// More than the limit was there: the reading stopped one byte past it.
    TooLarge,
}

/// Read at most `limit` bytes; one byte more means the source is too large, and nothing past that byte is read,
/// so a source that never ends cannot exhaust memory. `expected` is the size the source is expected to have: room
/// for it (within the limit) is made at once, so that a file is read in one call rather than in growing chunks.
pub fn read_bounded(source: impl Read, limit: u64, expected: u64) -> io::Result<Bounded> {
    let room = expected.min(limit).saturating_add(1);
    let mut bytes = Vec::with_capacity(usize::try_from(room).unwrap_or(0));
    source
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        Ok(Bounded::TooLarge)
    } else {
        Ok(Bounded::Whole(bytes))
    }
}

/// Read a regular file that said it holds `size` bytes (within `limit`): that many, in one call when it holds
/// them, without a second call to find its end. A file that shrank since gives what it holds, one that grew the
/// bytes it held when it was looked at. A size of 0 is not taken at its word (some file systems give no size),
/// and that file is read to its end within the limit.
fn read_regular(file: File, limit: u64, size: u64) -> io::Result<Bounded> {
    if size == 0 {
        return read_bounded(file, limit, 0);
    }
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    file.take(size).read_to_end(&mut bytes)?;
    Ok(Bounded::Whole(bytes))
}

/// Human size of a limit: `1 MiB`.
fn mib(bytes: u64) -> String {
    if bytes % MIB == 0 {
        format!("{} MiB", bytes / MIB)
    } else {
        format!("{bytes} bytes")
    }
}

/// `size` is the size the file claimed, when it claimed one over the limit.
fn too_large(path: &Path, kind: FileKind, size: Option<u64>) -> Diagnostic {
    let limit = kind.limit();
    let size = match size {
        Some(size) => format!("{size} bytes"),
        None => format!("more than {limit} bytes"),
    };
    Diagnostic::error(
        "E005",
        format!(
            "{} is {size}; the limit is {limit} ({})",
            kind.noun(),
            mib(limit)
        ),
    )
    .in_file(path)
    .with_help(kind.too_large_help())
}

fn not_regular(path: &Path, meta: &Metadata, kind: FileKind) -> Diagnostic {
    Diagnostic::error(
        "E039",
        format!(
            "{} is {}, not a regular file; it is not read",
            kind.noun(),
            file_type_name(meta)
        ),
    )
    .in_file(path)
    .with_help("replace it with a plain file of the same name")
}

/// The kind of a file that is not a regular file, in running text.
pub fn file_type_name(meta: &Metadata) -> &'static str {
    let kind = meta.file_type();
    if kind.is_dir() {
        return "a folder";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a named pipe (FIFO)";
        }
        if kind.is_socket() {
            return "a socket";
        }
        if kind.is_block_device() || kind.is_char_device() {
            return "a device";
        }
    }
    "a special file"
}

fn outside_catalog(path: &Path) -> Diagnostic {
    Diagnostic::error(
        "E040",
        "a symbolic link to a file outside the catalog folder; it is not read",
    )
    .in_file(path)
    .with_help("copy the file into the catalog instead of linking to it")
}

fn broken_link(path: &Path, err: &io::Error) -> Diagnostic {
    Diagnostic::error(
        "E040",
        "a symbolic link that cannot be followed; it is not read",
    )
    .in_file(path)
    .with_note(format!("following it failed: {err}"))
    .with_help("point the link at a file inside the catalog, or replace it with the file")
}

/// A symbolic link where a folder was looked for: folders are never followed through links.
pub fn linked_folder(path: &Path) -> Diagnostic {
    Diagnostic::error(
        "E040",
        "a symbolic link to a folder; links to folders are not followed",
    )
    .in_file(path)
    .with_help("move or copy the folder into the catalog instead of linking to it")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_endless_source_stops_one_byte_past_the_limit() {
        assert_eq!(
            read_bounded(io::repeat(0), 1000, 0).unwrap(),
            Bounded::TooLarge
        );
        let mut counted = io::repeat(7).take(5000);
        assert_eq!(
            read_bounded(&mut counted, 1000, u64::MAX).unwrap(),
            Bounded::TooLarge
        );
        // 1001 bytes were taken, and no more.
        assert_eq!(counted.limit(), 5000 - 1001);
    }

    #[test]
    fn a_source_at_the_limit_is_read_whole() {
        assert_eq!(
            read_bounded(&[1u8, 2, 3][..], 3, 3).unwrap(),
            Bounded::Whole(vec![1, 2, 3])
        );
        assert_eq!(
            read_bounded(&[][..], 0, 10).unwrap(),
            Bounded::Whole(Vec::new())
        );
    }

    /// What a listing said was a regular file may be something else by the time it is opened: each is
    /// refused as the careful reading refuses it, and a FIFO does not block.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_listed_file_replaced_since_is_refused_as_ever() {
        let dir = std::env::temp_dir().join(format!("ludotheca-listed-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let root = dir.join("catalog");
        fs::create_dir_all(&root).unwrap();
        fs::write(root.join("a.game"), "[Event \"a\"]").unwrap();
        fs::write(dir.join("outside.game"), "secret").unwrap();
        std::os::unix::fs::symlink(dir.join("outside.game"), root.join("link.game")).unwrap();
        let made = std::process::Command::new("mkfifo")
            .arg(root.join("pipe.game"))
            .status()
            .unwrap();
        assert!(made.success());
        let reader = Reader::new(&root).unwrap();
        let read = |name: &str| {
            let mut diagnostics = Diagnostics::new();
            let found = reader
                .read_listed(&root.join(name), FileKind::GameRecord, &mut diagnostics)
                .unwrap();
            let codes: Vec<&str> = diagnostics.iter().map(|d| d.code).collect();
            (found, codes)
        };
        assert_eq!(
            read("a.game"),
            (Found::Read(b"[Event \"a\"]".to_vec()), vec![])
        );
        assert_eq!(read("pipe.game"), (Found::Refused, vec!["E039"]));
        assert_eq!(read("link.game"), (Found::Refused, vec!["E040"]));
        assert_eq!(read("gone.game"), (Found::Absent, vec![]));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_regular_file_is_read_to_its_size() {
        let dir = std::env::temp_dir().join(format!("ludotheca-sized-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("f");
        fs::write(&path, b"0123456789").unwrap();
        let open = || File::open(&path).unwrap();
        assert_eq!(
            read_regular(open(), 100, 10).unwrap(),
            Bounded::Whole(b"0123456789".to_vec())
        );
        // Shrunk since it was looked at: what it holds. Grown: what it held then.
        assert_eq!(
            read_regular(open(), 100, 20).unwrap(),
            Bounded::Whole(b"0123456789".to_vec())
        );
        assert_eq!(
            read_regular(open(), 100, 4).unwrap(),
            Bounded::Whole(b"0123".to_vec())
        );
        // A size of 0 is not believed: read to the end, within the limit.
        assert_eq!(
            read_regular(open(), 100, 0).unwrap(),
            Bounded::Whole(b"0123456789".to_vec())
        );
        assert_eq!(read_regular(open(), 5, 0).unwrap(), Bounded::TooLarge);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn limits_are_in_whole_mebibytes() {
        assert_eq!(mib(FileKind::Record.limit()), "1 MiB");
        assert_eq!(mib(FileKind::Bibliography.limit()), "8 MiB");
    }
}
