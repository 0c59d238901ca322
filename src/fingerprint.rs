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
    let mut hasher = blake3::Hasher::new();
    hasher.update(salt);
    for part in parts {
        hasher.update(&(part.len() as u64).to_le_bytes());
        hasher.update(part);
    }
    *hasher.finalize().as_bytes()
}

pub fn to_hex(hash: &Hash) -> String {
    use std::fmt::Write;
    let mut s = String::with_capacity(64);
    for b in hash {
        let _ = write!(s, "{b:02x}");
    }
    s
}

pub fn from_hex(text: &str) -> Option<Hash> {
    if text.len() != 64 {
        return None;
    }
    let mut hash = [0u8; 32];
    for (i, byte) in hash.iter_mut().enumerate() {
        *byte = u8::from_str_radix(text.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(hash)
}
