//! The committed engine for the page (`templates/static/engine.js`) must be built from the engine sources as
//! they are: scripts/build-wasm records a hash of those sources in the file, and this test recomputes it
//! (FNV-1a 64 over the sorted paths and contents, as the script does), so it needs no wasm target and runs in
//! milliseconds. Rebuilding and comparing the wasm itself is `scripts/build-wasm --check`, run by scripts/test.

use std::fs;
use std::path::Path;

fn walk(dir: &Path, root: &Path, out: &mut Vec<String>) {
    let entries = fs::read_dir(dir).expect("engine/src is readable");
    for entry in entries {
        let entry = entry.expect("a directory entry");
        let path = entry.path();
        let kind = entry.file_type().expect("a file type");
        if kind.is_dir() {
            walk(&path, root, out);
        } else if kind.is_file() {
            let rel = path.strip_prefix(root).expect("under the root");
            let rel: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            out.push(rel.join("/"));
        }
    }
}

fn source_hash(root: &Path) -> String {
    let mut files = vec!["engine/Cargo.toml".to_string(), "scripts/build-wasm".into()];
    walk(&root.join("engine/src"), root, &mut files);
    files.sort();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    };
    for f in &files {
        eat(f.as_bytes());
        eat(&[0]);
        eat(&fs::read(root.join(f)).expect("a source file"));
        eat(&[0]);
    }
    format!("fnv1a64:{h:016x}")
}

#[test]
fn committed_engine_js_matches_the_engine_sources() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let js = fs::read_to_string(root.join("templates/static/engine.js"))
        .expect("templates/static/engine.js exists (scripts/build-wasm writes it)");
    let recorded = js
        .split("\"source-hash\": \"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("engine.js records the source hash");
    assert_eq!(
        recorded,
        source_hash(root),
        "templates/static/engine.js is stale against engine/src: run scripts/build-wasm and commit the result"
    );
}
