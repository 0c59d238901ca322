//! Content hashes for what a build may reuse from the previous one: a page rendered from the same data, a game
//! whose rules and records already replayed cleanly. Each key also holds the program that did the work, since
//! a new version may render or check differently.

pub type Hash = [u8; 32];

/// A checksum of bytes this program wrote ([`digest`]).
pub type Digest = [u8; 16];

/// The checksum by which a build tells whether a file or part it writes holds the same bytes as the one the
/// previous build wrote: XXH3's 128 bits, written as its canonical (big-endian) form. A key of what a check
/// found is made from stays a BLAKE3 [`Hash`] ([`bytes`]); keys of what the site's files are made from are
/// XXH3 as well ([`key`]). It runs about 25 times as fast as BLAKE3 over the 2 KB parts of the data files and
/// 7 times over 30 KB pages. Two different outputs agree on 128 bits by chance as rarely as on the half of
/// BLAKE3 the index of parts kept before, which is never in practice. It is not made to resist bytes crafted
/// to collide; only the catalog's own author could craft them, and to no end but keeping their own earlier
/// page.
pub fn digest(bytes: &[u8]) -> Digest {
    xxhash_rust::xxh3::xxh3_128(bytes).to_be_bytes()
}

/// A writer that takes the [`digest`] of what passes through it.
pub type Digesting<W> = Hashing<W, xxhash_rust::xxh3::Xxh3>;

impl<W> Digesting<W> {
    pub fn new(inner: W) -> Digesting<W> {
        Hashing {
            inner,
            hasher: xxhash_rust::xxh3::Xxh3::new(),
        }
    }

    /// The digest of everything written so far.
    pub fn digest(&self) -> Digest {
        self.hasher.digest128().to_be_bytes()
    }
}

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

/// Hashes a list of byte strings so that no two different lists hash alike (each is preceded by its length).
pub fn bytes<'a>(salt: &Hash, parts: impl IntoIterator<Item = &'a [u8]>) -> Hash {
    *blake3::hash(&framed(salt, parts)).as_bytes()
}

/// The key of what one of the site's files (a page, a download, a data file's part) is made from: the same
/// input as [`bytes`], hashed with XXH3's 128 bits (the rest of the [`Hash`] is zero). A rebuild keys every
/// page, download and part of the site, about 90,000 short inputs at 10,000 items, and BLAKE3, built for long
/// inputs, spent about a microsecond on each. Two inputs agreeing on 128 bits by chance never happens in
/// practice; bytes crafted to agree could only keep the catalog author's own earlier page in place. What a
/// check found is keyed with [`bytes`] instead, where agreeing keys could let a clean verdict stand for other
/// input.
pub fn key<'a>(salt: &Hash, parts: impl IntoIterator<Item = &'a [u8]>) -> Hash {
    let mut key = Hash::default();
    key[..16].copy_from_slice(&xxhash_rust::xxh3::xxh3_128(&framed(salt, parts)).to_be_bytes());
    key
}

/// `salt`, then each part preceded by its length, in one buffer: hashed as one input, the same bytes as fed
/// piece by piece. BLAKE3 hashes the 1 KiB chunks of one input side by side, but fed a few bytes and then a
/// text at a time it goes through most of them a block at a time (an item's files, tens of kilobytes, took a
/// tenth of a rebuild to hash that way).
fn framed<'a>(salt: &Hash, parts: impl IntoIterator<Item = &'a [u8]>) -> Vec<u8> {
    let parts: Vec<&[u8]> = parts.into_iter().collect();
    let mut input =
        Vec::with_capacity(salt.len() + parts.iter().map(|p| 8 + p.len()).sum::<usize>());
    input.extend_from_slice(salt);
    for part in parts {
        input.extend_from_slice(&(part.len() as u64).to_le_bytes());
        input.extend_from_slice(part);
    }
    input
}

/// A writer that hashes what passes through it: with BLAKE3 unless said otherwise.
pub struct Hashing<W, H = blake3::Hasher> {
    pub inner: W,
    pub hasher: H,
}

/// A hash that takes its input a piece at a time.
pub trait Absorb {
    fn absorb(&mut self, bytes: &[u8]);
}

impl Absorb for blake3::Hasher {
    fn absorb(&mut self, bytes: &[u8]) {
        self.update(bytes);
    }
}

impl Absorb for xxhash_rust::xxh3::Xxh3 {
    fn absorb(&mut self, bytes: &[u8]) {
        self.update(bytes);
    }
}

impl<W: std::io::Write, H: Absorb> std::io::Write for Hashing<W, H> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hasher.absorb(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// A file of the build's own for the next build, sealed: `format`, the program that wrote it, `body`, and the
/// checksum of all before it ([`digest`]). The next build believes only a file [`unseal`] opens: written by the
/// same program, and whole. (The checked games are written the same way, streaming.) The checksum guards
/// against a file damaged or cut short, not against one crafted: XXH3 rather than BLAKE3, since a rebuild
/// checks and writes tens of megabytes of these files (the records as parsed alone are 28 MB at 10,000 items).
pub fn seal(format: &[u8], body: &[u8]) -> Vec<u8> {
    let mut sealed = Vec::with_capacity(format.len() + 32 + body.len() + SUM);
    sealed.extend_from_slice(format);
    sealed.extend_from_slice(&program());
    sealed.extend_from_slice(body);
    let sum = digest(&sealed);
    sealed.extend_from_slice(&sum);
    sealed
}

/// The length of the checksum that ends a sealed file.
const SUM: usize = std::mem::size_of::<Digest>();

/// [`seal`], streaming: writes into `out` `format`, the program, what `body` writes, and the checksum of all
/// before it, for a file too large to hold whole.
pub fn seal_into(
    out: &mut dyn std::io::Write,
    format: &[u8],
    body: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    use std::io::Write;
    let mut summed = Digesting::new(out);
    summed.write_all(format)?;
    summed.write_all(&program())?;
    body(&mut summed)?;
    let sum = summed.digest();
    summed.inner.write_all(&sum)
}

/// The body of a file [`seal`] wrote in `format`: `None` when it is damaged, of another format, or another
/// program's.
pub fn unseal<'a>(format: &[u8], bytes: &'a [u8]) -> Option<&'a [u8]> {
    unseal_for(format, &program(), bytes)
}

/// [`unseal`], for a file written by `program`.
pub fn unseal_for<'a>(format: &[u8], program: &Hash, bytes: &'a [u8]) -> Option<&'a [u8]> {
    let (body, sum) = bytes.split_at(bytes.len().checked_sub(SUM)?);
    if digest(body)[..] != sum[..] {
        return None;
    }
    let rest = body.strip_prefix(format)?;
    rest.strip_prefix(&program[..])
}

pub fn to_hex(hash: &[u8]) -> String {
    let mut s = String::with_capacity(2 * hash.len());
    push_hex(&mut s, hash);
    s
}

/// Append a hash in lower-case hex. By table rather than by `write!`: a site's manifest holds tens of
/// thousands of hashes, and formatting each byte through `fmt` took longer than the rest of writing it.
pub fn push_hex(out: &mut String, hash: &[u8]) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    out.reserve(2 * hash.len());
    for &b in hash {
        out.push(DIGITS[usize::from(b >> 4)] as char);
        out.push(DIGITS[usize::from(b & 15)] as char);
    }
}

pub fn from_hex<const N: usize>(text: &str) -> Option<[u8; N]> {
    let text = text.as_bytes();
    if text.len() != 2 * N {
        return None;
    }
    // Digits are told from other bytes and given their values by arithmetic on whole bytes, with no table and
    // no branch, which the compiler does many bytes at a time: a rebuild reads a few megabytes of hex (the two
    // manifests and the lists of what checked clean), and a lookup per digit was a third of reading a manifest.
    let mut bad = 0u8;
    let mut values = [[0u8; 2]; N];
    for (value, pair) in values.iter_mut().zip(text.chunks_exact(2)) {
        for (v, &c) in value.iter_mut().zip(pair) {
            let lower = c | 0x20;
            let digit = c.wrapping_sub(b'0') < 10;
            let letter = lower.wrapping_sub(b'a') < 6;
            bad |= u8::from(!(digit | letter));
            // '0'-'9' are 0x30-0x39 and 'a'-'f' / 'A'-'F' are 0x61-0x66 / 0x41-0x46: the low nibble, plus 9
            // when bit 6 (a letter) is set.
            *v = (c & 0x0f) + 9 * (c >> 6);
        }
    }
    let mut hash = [0u8; N];
    for (byte, [high, low]) in hash.iter_mut().zip(values) {
        *byte = high << 4 | low;
    }
    (bad == 0).then_some(hash)
}

/// Feeds a JSON value to `hasher` as a stream that no other value gives: every node opens with its kind, and
/// every text, list and object with its length.
///
/// Walked rather than written out as JSON: a game page carries its rules file and every game record as texts
/// (a tenth of a megabyte for the largest), which JSON would scan for characters to escape and copy before the
/// hash saw them; here they go to the hash as they are. Small pieces are gathered into blocks first, since
/// BLAKE3 is many times faster fed large inputs.
pub fn json_value(hasher: &mut blake3::Hasher, value: &serde_json::Value) {
    let mut feed = Feed {
        hasher,
        block: Vec::with_capacity(Feed::BLOCK),
    };
    feed.value(value);
    feed.flush();
}

struct Feed<'h> {
    hasher: &'h mut blake3::Hasher,
    block: Vec<u8>,
}

impl Feed<'_> {
    const BLOCK: usize = 16 * 1024;

    fn value(&mut self, value: &serde_json::Value) {
        use serde_json::Value;
        match value {
            Value::Null => self.put(b"n"),
            Value::Bool(b) => self.put(if *b { b"t" } else { b"f" }),
            Value::Number(n) => {
                // Its shortest text tells every number apart (an integer from a float of the same value too).
                let text = n.to_string();
                self.put(b"#");
                self.text(&text);
            }
            Value::String(s) => {
                self.put(b"s");
                self.text(s);
            }
            Value::Array(list) => {
                self.put(b"[");
                self.put(&(list.len() as u64).to_le_bytes());
                for item in list {
                    self.value(item);
                }
            }
            Value::Object(map) => {
                self.put(b"{");
                self.put(&(map.len() as u64).to_le_bytes());
                for (key, item) in map {
                    self.text(key);
                    self.value(item);
                }
            }
        }
    }

    fn text(&mut self, text: &str) {
        self.put(&(text.len() as u64).to_le_bytes());
        if text.len() >= Self::BLOCK {
            self.flush();
            self.hasher.update(text.as_bytes());
        } else {
            self.put(text.as_bytes());
        }
    }

    fn put(&mut self, bytes: &[u8]) {
        if self.block.len() + bytes.len() > Self::BLOCK {
            self.flush();
        }
        self.block.extend_from_slice(bytes);
    }

    fn flush(&mut self) {
        self.hasher.update(&self.block);
        self.block.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_reads_back_every_byte_and_nothing_else() {
        let bytes: Vec<u8> = (0..=255).collect();
        for chunk in bytes.chunks_exact(16) {
            let hex = to_hex(chunk);
            assert_eq!(from_hex::<16>(&hex).as_ref().map(|h| &h[..]), Some(chunk));
            let upper = from_hex::<16>(&hex.to_uppercase());
            assert_eq!(upper.as_ref().map(|h| &h[..]), Some(chunk));
        }
        assert_eq!(from_hex::<2>("0aF9"), Some([0x0a, 0xf9]));
        // Any byte but a digit, anywhere, and any other length, is refused.
        for bad in ["0g", "g0", " 0", "0 ", "-1", ":0", "/0", "@0", "`0", "G0"] {
            assert_eq!(from_hex::<1>(bad), None, "{bad:?}");
        }
        for c in (0..=255u8).filter(|c| !c.is_ascii_hexdigit()) {
            let text = format!("0{}", char::from(c));
            if text.len() == 2 {
                assert_eq!(from_hex::<1>(&text), None, "{c}");
            }
        }
        assert_eq!(from_hex::<1>("\u{e9}"), None, "two bytes, neither a digit");
        assert_eq!(from_hex::<2>("0a"), None);
        assert_eq!(from_hex::<1>("0a0"), None);
    }

    fn value_hash(value: &serde_json::Value) -> Hash {
        let mut hasher = blake3::Hasher::new();
        json_value(&mut hasher, value);
        *hasher.finalize().as_bytes()
    }

    #[test]
    fn json_values_hash_apart_where_they_differ() {
        use serde_json::json;
        let long = "x".repeat(40_000);
        let page =
            json!({"title": "Tchouba", "records": [{"text": long}, {"text": "1. 3 *"}], "n": 3});
        // The same value, made again, hashes the same; a text moved between neighbours, a number's form, a list
        // split differently or one byte of a long text does not.
        assert_eq!(value_hash(&page), value_hash(&page.clone()));
        let cases = [
            json!(["ab", "c"]),
            json!(["a", "bc"]),
            json!([["a"], "b"]),
            json!([["a", "b"]]),
            json!({"a": "b"}),
            json!({"ab": ""}),
            json!(1),
            json!(1.0),
            json!("1"),
            json!(null),
            json!(false),
            json!([]),
            json!({}),
            json!(""),
        ];
        for (i, a) in cases.iter().enumerate() {
            for b in &cases[i + 1..] {
                assert_ne!(value_hash(a), value_hash(b), "{a} and {b}");
            }
        }
        let mut changed = page.clone();
        let mut text = "x".repeat(40_000);
        text.replace_range(39_999.., "y");
        changed["records"][0]["text"] = json!(text);
        assert_ne!(value_hash(&page), value_hash(&changed));
    }

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
