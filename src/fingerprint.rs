//! Content hashes for what a build may reuse from the previous one: a page rendered from the same data, a game
//! whose rules and records already replayed cleanly. Each key also holds the program that did the work, since
//! a new version may render or check differently.

pub type Hash = [u8; 32];

/// A hash of this program: its version and, for builds of the same version (as while developing), the
/// executable's size and time, so that a rebuilt binary reuses nothing of its predecessor's work.
pub fn program() -> Hash {
    // Taken once: the running code is what did the work, even when its file is replaced while it runs (a
    // preview server outlives many compilations).
    static PROGRAM: std::sync::OnceLock<Hash> = std::sync::OnceLock::new();
    *PROGRAM.get_or_init(hash_program)
}

fn hash_program() -> Hash {
    let mut hasher = blake3::Hasher::new();
    hasher.update(env!("CARGO_PKG_VERSION").as_bytes());
    if let Some(meta) = std::env::current_exe()
        .ok()
        .and_then(|exe| std::fs::metadata(exe).ok())
    {
        hasher.update(&meta.len().to_le_bytes());
        if let Ok(modified) = meta.modified()
            && let Ok(since) = modified.duration_since(std::time::UNIX_EPOCH)
        {
            hasher.update(&since.as_nanos().to_le_bytes());
        }
    }
    *hasher.finalize().as_bytes()
}

/// Hashes a list of texts so that no two different lists hash alike (each is preceded by its length).
pub fn texts<'a>(salt: &Hash, parts: impl IntoIterator<Item = &'a str>) -> Hash {
    bytes(salt, parts.into_iter().map(str::as_bytes))
}

/// Hashes a list of byte strings so that no two different lists hash alike (each is preceded by its length).
pub fn bytes<'a>(salt: &Hash, parts: impl IntoIterator<Item = &'a [u8]>) -> Hash {
    // Hashed as one input, the same bytes as fed piece by piece: BLAKE3 hashes the 1 KiB chunks of one input
    // side by side, but fed a few bytes and then a text at a time it goes through most of them a block at a
    // time (an item's files, tens of kilobytes, took a tenth of a rebuild to hash that way).
    let parts: Vec<&[u8]> = parts.into_iter().collect();
    let mut input =
        Vec::with_capacity(salt.len() + parts.iter().map(|p| 8 + p.len()).sum::<usize>());
    input.extend_from_slice(salt);
    for part in parts {
        input.extend_from_slice(&(part.len() as u64).to_le_bytes());
        input.extend_from_slice(part);
    }
    *blake3::hash(&input).as_bytes()
}

/// A writer that hashes what passes through it.
pub struct Hashing<W> {
    pub inner: W,
    pub hasher: blake3::Hasher,
}

impl<W: std::io::Write> std::io::Write for Hashing<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hasher.update(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

pub fn to_hex(hash: &Hash) -> String {
    let mut s = String::with_capacity(64);
    push_hex(&mut s, hash);
    s
}

/// Append a hash in lower-case hex. By table rather than by `write!`: a site's manifest holds tens of
/// thousands of hashes, and formatting each byte through `fmt` took longer than the rest of writing it.
pub fn push_hex(out: &mut String, hash: &Hash) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    out.reserve(64);
    for &b in hash {
        out.push(DIGITS[usize::from(b >> 4)] as char);
        out.push(DIGITS[usize::from(b & 15)] as char);
    }
}

pub fn from_hex(text: &str) -> Option<Hash> {
    let text = text.as_bytes();
    if text.len() != 64 {
        return None;
    }
    let digit = |c: u8| match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    };
    let mut hash = [0u8; 32];
    for (byte, pair) in hash.iter_mut().zip(text.chunks_exact(2)) {
        *byte = digit(pair[0])? << 4 | digit(pair[1])?;
    }
    Some(hash)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_hash_as_the_stream_of_their_lengths_and_bytes() {
        let long = vec![7u8; 5000];
        let parts: [&[u8]; 4] = [b"", b"record", &long, b"x"];
        let mut hasher = blake3::Hasher::new();
        hasher.update(&[1; 32]);
        for part in parts {
            hasher.update(&(part.len() as u64).to_le_bytes());
            hasher.update(part);
        }
        assert_eq!(bytes(&[1; 32], parts), *hasher.finalize().as_bytes());
        // Moving a byte from one part to the next changes the hash.
        assert_ne!(
            bytes(&[0; 32], [&b"ab"[..], b"c"]),
            bytes(&[0; 32], [&b"a"[..], b"bc"])
        );
    }
}
