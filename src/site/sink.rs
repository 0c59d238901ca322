//! Where a file of the site is written as it is made, and the checksum its manifest records.
//!
//! A data file (`catalog.json`, `catalog.csv`, `oai-pmh.xml`, the search index's file of items' words) is
//! written in items' parts. The index of parts already holds each part's checksum, so the file's checksum is
//! made from those and from the bytes between parts (`PieceSum`) rather than from every byte again. A run of
//! parts taken from the previous site's file is then copied by the system from that file to the new one
//! ([`Sink::copy_parts`]): neither read into memory nor hashed (118 MB after each edit at 10,000 items).
//!
//! The checksum is the manifest's, by which a build tells whether a file it writes holds the bytes the previous
//! site's or the standby's file holds. It is the same for the same bytes cut into the same parts, however they
//! were written: made, taken from memory, read back, or copied. The same bytes cut otherwise (an item without a
//! key) only count as changed.

use std::fs;
use std::io::{self, Write};
use std::ops::Range;

use xxhash_rust::xxh3::Xxh3;

use super::reuse::Check;
use crate::fingerprint::Digest;

/// Where a data file is written: any writer, and for the site's own files one that knows where each item's part
/// begins and ends (see the module's doc).
pub trait Sink: Write {
    /// Write `bytes`, which hold `parts`.
    fn parts(&mut self, bytes: &[u8], parts: Parts<'_>) -> io::Result<()> {
        let _ = parts;
        self.write_all(bytes)
    }

    /// Copy the bytes `at` in `from`, which hold `parts`: false (and nothing written) when this sink cannot,
    /// and the caller reads and writes them instead.
    fn copy_parts(
        &mut self,
        from: &fs::File,
        at: Range<u64>,
        parts: Parts<'_>,
    ) -> io::Result<bool> {
        let _ = (from, at, parts);
        Ok(false)
    }
}

/// Whole parts one after another: their checksums, and the separator between two.
#[derive(Clone, Copy)]
pub struct Parts<'a> {
    pub checks: &'a [Check],
    pub separator: &'a [u8],
}

/// Any writer as a [`Sink`] that takes parts as the bytes they are: a file exported alone, a dry run's hash,
/// tests.
pub struct Plain<'w>(pub &'w mut dyn Write);

impl Write for Plain<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.0.write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

impl Sink for Plain<'_> {}

/// Bytes held in memory take parts as the bytes they are.
impl Sink for Vec<u8> {}

/// The checksum of a file written in pieces: each part by its checksum, each stretch of other bytes by the
/// checksum of its bytes, in order, each marked with what it is. Of fixed size, the pieces cannot be read
/// another way. A file with no part is one stretch, and its checksum that of its bytes ([`digest`]), as for
/// any file of the site written whole.
///
/// [`digest`]: crate::fingerprint::digest
struct PieceSum {
    whole: Xxh3,
    between: Xxh3,
    /// Whether bytes other than parts were written since the last part.
    open: bool,
    /// Whether any part was.
    parted: bool,
}

impl PieceSum {
    fn new() -> PieceSum {
        PieceSum {
            whole: Xxh3::new(),
            between: Xxh3::new(),
            open: false,
            parted: false,
        }
    }

    /// Bytes that are no part.
    fn other(&mut self, bytes: &[u8]) {
        if !bytes.is_empty() {
            self.between.update(bytes);
            self.open = true;
        }
    }

    fn close(&mut self) {
        if self.open {
            self.whole.update(b"b");
            self.whole.update(&self.between.digest128().to_be_bytes());
            self.between.reset();
            self.open = false;
        }
    }

    fn parts(&mut self, parts: Parts<'_>) {
        for (n, check) in parts.checks.iter().enumerate() {
            if n > 0 {
                self.other(parts.separator);
            }
            self.close();
            self.whole.update(b"p");
            self.whole.update(check);
            self.parted = true;
        }
    }

    fn finish(mut self) -> Digest {
        if !self.parted {
            return self.between.digest128().to_be_bytes();
        }
        self.close();
        self.whole.digest128().to_be_bytes()
    }
}

/// How much of what is written is held before it goes to the file: a data file is written a few hundred bytes
/// at a time.
const BUFFER: usize = 1 << 20;

/// A file of the site being written, with its checksum (see the module's doc).
pub(super) struct FileSink {
    file: fs::File,
    held: Vec<u8>,
    pieces: PieceSum,
}

impl FileSink {
    pub(super) fn new(file: fs::File) -> FileSink {
        FileSink {
            file,
            held: Vec::with_capacity(BUFFER),
            pieces: PieceSum::new(),
        }
    }

    /// Everything written out: the file, and its checksum.
    pub(super) fn finish(mut self) -> io::Result<(fs::File, Digest)> {
        self.flush_held()?;
        Ok((self.file, self.pieces.finish()))
    }

    fn flush_held(&mut self) -> io::Result<()> {
        if !self.held.is_empty() {
            self.file.write_all(&self.held)?;
            self.held.clear();
        }
        Ok(())
    }

    fn put(&mut self, bytes: &[u8]) -> io::Result<()> {
        if self.held.len() + bytes.len() > BUFFER {
            self.flush_held()?;
        }
        if bytes.len() >= BUFFER {
            self.file.write_all(bytes)
        } else {
            self.held.extend_from_slice(bytes);
            Ok(())
        }
    }
}

impl Write for FileSink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.put(buf)?;
        self.pieces.other(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.flush_held()?;
        self.file.flush()
    }
}

impl Sink for FileSink {
    fn parts(&mut self, bytes: &[u8], parts: Parts<'_>) -> io::Result<()> {
        self.put(bytes)?;
        self.pieces.parts(parts);
        Ok(())
    }

    fn copy_parts(
        &mut self,
        from: &fs::File,
        at: Range<u64>,
        parts: Parts<'_>,
    ) -> io::Result<bool> {
        self.flush_held()?;
        let copied = copy_range(from, at.start, at.end - at.start, &self.file)?;
        // What the system did not copy (another file system, or none that copies) is read and written here.
        let mut next = at.start + copied;
        while next < at.end {
            let n = (at.end - next).min(BUFFER as u64) as usize;
            let room = super::reuse::room(&mut self.held, n);
            super::reuse::read_at(from, room, next)?;
            self.file.write_all(room)?;
            self.held.clear();
            next += n as u64;
        }
        self.pieces.parts(parts);
        Ok(true)
    }
}

/// Copy up to `len` bytes at `offset` in `from` to where `to` stands, file to file in the kernel: how many were
/// copied, short of `len` where the system cannot copy between these two files.
#[cfg(target_os = "linux")]
fn copy_range(from: &fs::File, offset: u64, len: u64, to: &fs::File) -> io::Result<u64> {
    use std::os::fd::AsRawFd;
    let mut copied = 0;
    while copied < len {
        let Ok(mut at) = libc::loff_t::try_from(offset + copied) else {
            break;
        };
        let want = usize::try_from(len - copied).unwrap_or(usize::MAX);
        // SAFETY: both descriptors are open files this process holds, `at` is the source offset the call
        // advances, and a null destination offset means the destination's own position, which it advances.
        let n = unsafe {
            libc::copy_file_range(
                from.as_raw_fd(),
                &mut at,
                to.as_raw_fd(),
                std::ptr::null_mut(),
                want,
                0,
            )
        };
        match n {
            // The source ends before the run: reading the rest reports it.
            0 => break,
            n if n > 0 => copied += n as u64,
            _ => {
                let error = io::Error::last_os_error();
                match error.raw_os_error() {
                    Some(libc::EINTR) => {}
                    Some(
                        libc::EXDEV
                        | libc::ENOSYS
                        | libc::EOPNOTSUPP
                        | libc::EINVAL
                        | libc::EPERM
                        | libc::EBADF,
                    ) => break,
                    _ => return Err(error),
                }
            }
        }
    }
    Ok(copied)
}

#[cfg(not(target_os = "linux"))]
fn copy_range(_from: &fs::File, _offset: u64, _len: u64, _to: &fs::File) -> io::Result<u64> {
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fingerprint::digest;

    /// A file written through a [`FileSink`] by `write`: its bytes and checksum.
    fn written(path: &std::path::Path, write: impl FnOnce(&mut FileSink)) -> (Vec<u8>, Digest) {
        let mut sink = FileSink::new(fs::File::create(path).unwrap());
        write(&mut sink);
        let (file, checksum) = sink.finish().unwrap();
        drop(file);
        (fs::read(path).unwrap(), checksum)
    }

    /// `open`, the parts `run` of checksums `checks` (with `,` between two) as one run of bytes, then `close`.
    fn around(
        open: &[u8],
        run: &str,
        checks: &[Check],
        close: &[u8],
    ) -> impl FnOnce(&mut FileSink) {
        move |sink| {
            sink.write_all(open).unwrap();
            let parts = Parts {
                checks,
                separator: b",",
            };
            sink.parts(run.as_bytes(), parts).unwrap();
            sink.write_all(close).unwrap();
        }
    }

    #[test]
    fn a_file_has_one_checksum_however_its_parts_came() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path();
        let parts = ["{\"a\":1}", "{\"b\":22}", "{\"c\":333}"];
        let checks: Vec<Check> = parts.iter().map(|p| digest(p.as_bytes())).collect();
        let run = parts.join(",");
        let source = dir.join("previous");
        fs::write(&source, format!("xx{run}yy")).unwrap();

        // Part by part, the separators written as other bytes.
        let one_by_one = written(&dir.join("one"), |sink| {
            sink.write_all(b"[").unwrap();
            for (n, (part, check)) in parts.iter().zip(&checks).enumerate() {
                if n > 0 {
                    sink.write_all(b",").unwrap();
                }
                let one = Parts {
                    checks: std::slice::from_ref(check),
                    separator: b"",
                };
                sink.parts(part.as_bytes(), one).unwrap();
            }
            sink.write_all(b"]\n").unwrap();
        });
        // As one run of bytes holding the three, the bytes after it written in two goes.
        let as_run = written(&dir.join("run"), |sink| {
            around(b"[", &run, &checks, b"]")(sink);
            sink.write_all(b"\n").unwrap();
        });
        // Copied from the previous file where the run lies.
        let copied = written(&dir.join("copied"), |sink| {
            sink.write_all(b"[").unwrap();
            let from = fs::File::open(&source).unwrap();
            let parts = Parts {
                checks: &checks,
                separator: b",",
            };
            let at = 2..2 + run.len() as u64;
            assert!(sink.copy_parts(&from, at, parts).unwrap());
            sink.write_all(b"]\n").unwrap();
        });
        let expected = format!("[{run}]\n").into_bytes();
        for (bytes, checksum) in [&as_run, &copied] {
            assert_eq!(bytes, &expected);
            assert_eq!(checksum, &one_by_one.1);
        }
        assert_eq!(one_by_one.0, expected);

        // Any other byte between the parts, or a part's other checksum, is another file.
        let other_between = written(&dir.join("other"), around(b"(", &run, &checks, b"]\n"));
        assert_ne!(other_between.1, one_by_one.1);
        let mut changed = checks.clone();
        changed[1][0] ^= 1;
        let other_part = written(&dir.join("part"), around(b"[", &run, &changed, b"]\n"));
        assert_ne!(other_part.1, one_by_one.1);
        // The same bytes with no parts marked are told apart too (they only count as changed), and have the
        // checksum of their bytes, as a file written whole has.
        let unmarked = written(&dir.join("unmarked"), |sink| {
            sink.write_all(&expected).unwrap()
        });
        assert_eq!(unmarked.0, expected);
        assert_ne!(unmarked.1, one_by_one.1);
        assert_eq!(unmarked.1, digest(&expected));
    }

    #[test]
    fn a_run_the_previous_file_no_longer_holds_is_an_error() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path();
        let source = dir.join("previous");
        fs::write(&source, "{\"a\":1}").unwrap();
        let mut sink = FileSink::new(fs::File::create(dir.join("new")).unwrap());
        let from = fs::File::open(&source).unwrap();
        let check = digest(b"{\"a\":1}");
        let parts = Parts {
            checks: &[check],
            separator: b"",
        };
        let error = sink.copy_parts(&from, 0..20, parts).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::UnexpectedEof);
    }
}
