//! The hostile-catalog corpus (`tests/fixtures/hostile/`):
//!
//! - `site/` is a catalog that passes `check` although every value of it (the configuration, the About page,
//!   the bibliography, each record's terms, the rules' names, a game record's tags and comments) tries to become
//!   markup or script: `<script>`, event handlers, `javascript:`, `vbscript:` and `data:` links, raw HTML in
//!   Markdown, a byte order mark, spreadsheet formulas. Its build must hold no script from the data.
//! - `refused/` is a catalog of inputs that must each end in their diagnostic: DOCTYPEs with entity expansion
//!   and external entities, entity references, deep nesting, bytes that are not UTF-8, a board with too many
//!   points, capture chains that multiply without end, a broken game record.
//!
//! What git cannot hold or should not carry (symbolic links, named pipes, folders where files belong, files
//! over their size limit, a record of more moves than the cap) is added to a scratch copy at run time.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

mod common;
use common::{Scratch, assert_no_script_from_data, copy_tree, snapshot};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/hostile")
        .join(name)
}

fn run(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ludotheca"))
        .args(args)
        .output()
        .expect("the ludotheca binary runs")
}

/// `check --format json`: the exit code and each diagnostic as (code, file relative to the catalog, message).
fn check(catalog: &Path) -> (Option<i32>, Vec<(String, String, String)>, String) {
    let output = run(&[
        "check".as_ref(),
        "--format".as_ref(),
        "json".as_ref(),
        "--catalog".as_ref(),
        catalog.as_os_str(),
    ]);
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    let root = catalog.to_string_lossy().into_owned();
    let diagnostics = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let d: serde_json::Value =
                serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
            let file = d["file"].as_str().unwrap_or("");
            let file = file
                .strip_prefix(root.as_str())
                .unwrap_or(file)
                .trim_start_matches('/')
                .to_string();
            (
                d["code"].as_str().unwrap_or("").to_string(),
                file,
                d["message"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    (output.status.code(), diagnostics, text)
}

fn build(catalog: &Path, out: &Path) -> Output {
    run(&[
        "build".as_ref(),
        "--quiet".as_ref(),
        "--catalog".as_ref(),
        catalog.as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
    ])
}

fn page(site: &BTreeMap<String, Vec<u8>>, path: &str) -> String {
    String::from_utf8(
        site.get(path)
            .unwrap_or_else(|| panic!("{path} is built"))
            .clone(),
    )
    .unwrap()
}

#[test]
fn the_hostile_site_builds_into_pages_without_script_from_data() {
    let scratch = Scratch::new("hostile-site");
    let catalog = scratch.0.join("catalog");
    copy_tree(&fixture("site"), &catalog);
    // Huge values, made here: a subject of 600 characters (a page name far over the file-name limit if it were
    // used whole) and a description of 600 KiB, both under the record's size limit.
    let record = catalog.join("games/bagh-chal/record.xml");
    let text = fs::read_to_string(&record).unwrap();
    let subject = "&lt;script&gt;alert(1)&lt;/script&gt;".repeat(16);
    let long = "Long &lt;img src=x onerror=alert(2)&gt; text. ".repeat(14_000);
    let text = text.replace(
        "</record>",
        &format!(
            "  <dcterms:subject>{subject}</dcterms:subject>\n  <dcterms:abstract>{long}</dcterms:abstract>\n</record>"
        ),
    );
    fs::write(&record, text).unwrap();

    let (code, diagnostics, report) = check(&catalog);
    assert_eq!(code, Some(0), "the hostile site passes check:\n{report}");
    assert!(
        diagnostics.iter().all(|(c, _, _)| c.starts_with('W')),
        "{report}"
    );

    let out = scratch.0.join("site");
    let built = build(&catalog, &out);
    assert_eq!(
        built.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let site = snapshot(&out);
    assert!(assert_no_script_from_data(&site) > 0);

    // Values are shown as text, escaped, not dropped.
    let game = page(&site, "games/bagh-chal/index.html");
    assert!(
        game.contains("Bagh-Chal &lt;script&gt;alert(&quot;title&quot;)&lt;/script&gt;"),
        "the title is shown escaped"
    );
    // The byte order mark is not part of the first value, and the page holds none.
    assert!(!game.contains('\u{feff}'));
    let about = page(&site, "about/index.html");
    assert!(!about.contains('\u{feff}'));
    // ... so the `#` after it still starts a heading instead of showing as text.
    assert!(!about.contains("# About"), "the first heading is read");
    // Raw HTML in Markdown is shown as text (what the reader wrote), never as an element; the checks on
    // elements and addresses are `assert_no_script_from_data`'s.
    assert!(
        about.contains("&lt;a href=\"javascript:alert(11)\"&gt;raw link&lt;/a&gt;"),
        "raw HTML is text"
    );
    assert!(
        game.contains("&lt;iframe src=\"javascript:alert(42)\"&gt;"),
        "raw HTML is text"
    );

    // No page name grows with a value: every file name fits any file system.
    for path in site.keys() {
        for part in path.split('/') {
            assert!(part.len() <= 120, "{path}");
        }
    }

    // Spreadsheets read none of the values as formulas.
    // (Only the start of a cell counts: a value joined after ` | ` in a cell cannot start a formula.)
    let csv = page(&site, "catalog.csv");
    for formula in ["=HYPERLINK", "+1+cmd", "-2+3", "@SUM"] {
        assert!(
            csv.contains(&format!("'{formula}")),
            "{formula} is neutralised"
        );
        for before in [",", ",\""] {
            assert!(
                !csv.contains(&format!("{before}{formula}")),
                "{formula} starts a cell"
            );
        }
    }

    // The search index is loaded as scripts: no value in it may close one or open another.
    let mut shards = 0;
    for (path, bytes) in &site {
        if path.starts_with("search-index") && path.ends_with(".js") {
            shards += 1;
            let script = String::from_utf8_lossy(bytes);
            assert!(!script.contains('<'), "{path} holds a raw `<`");
        }
    }
    assert!(shards > 0, "the search index is built");

    // The data files are data: JSON parses, XML holds no raw markup from values.
    serde_json::from_slice::<serde_json::Value>(&site["catalog.json"])
        .expect("catalog.json parses");
    let oai = page(&site, "oai-pmh.xml");
    assert!(
        !oai.contains("<script") && !oai.contains("<img"),
        "oai-pmh.xml"
    );
    assert!(!oai.contains("<!DOCTYPE") && !oai.contains("<!ENTITY"));
}

/// A scratch copy of `refused/` with what cannot be committed added: returns the expected (code, file) pairs
/// of the additions.
fn add_runtime_cases(catalog: &Path) -> Vec<(&'static str, &'static str)> {
    let rules = fs::read_to_string(fixture("refused/games/deep-nesting/rules.txt")).unwrap();
    let record = fs::read_to_string(fixture("refused/games/too-many-points/record.xml")).unwrap();
    let game = |name: &str| {
        let dir = catalog.join("games").join(name);
        fs::create_dir_all(dir.join("games")).unwrap();
        fs::write(dir.join("rules.txt"), &rules).unwrap();
        dir
    };
    let mut expected = Vec::new();

    // A record over its 1 MiB limit: one huge value.
    let dir = game("huge-record");
    let huge = record.replace("A board of 138 points.", &"x".repeat(1024 * 1024 + 1));
    fs::write(dir.join("record.xml"), huge).unwrap();
    expected.push(("E005", "games/huge-record/record.xml"));

    // A game record over its 4 MiB limit.
    let dir = game("huge-game-record");
    fs::write(dir.join("record.xml"), &record).unwrap();
    let mut huge = String::from("[Event \"Huge\"]\n[Kind \"demonstration\"]\n\n{");
    huge.push_str(&"x".repeat(4 * 1024 * 1024));
    huge.push_str("}\n*\n");
    fs::write(dir.join("games/huge.game"), huge).unwrap();
    expected.push(("E005", "games/huge-game-record/games/huge.game"));

    // A game record of more moves than one record may hold.
    let dir = game("many-moves");
    fs::write(dir.join("record.xml"), &record).unwrap();
    let moves = "a1-a2 c3-c2 a2-a1 c2-c3 ".repeat(2_501);
    fs::write(
        dir.join("games/long.game"),
        format!("[Event \"Long\"]\n[Kind \"demonstration\"]\n[Ruleset \"hutton\"]\n\n{moves}*\n"),
    )
    .unwrap();
    expected.push(("E102", "games/many-moves/games/long.game"));

    // A folder where the record belongs.
    let dir = game("folder-record");
    fs::create_dir_all(dir.join("record.xml")).unwrap();
    expected.push(("E039", "games/folder-record/record.xml"));

    #[cfg(unix)]
    {
        use std::os::unix::fs::symlink;
        // The About page linking to a system file.
        symlink("/etc/passwd", catalog.join("about.md")).unwrap();
        expected.push(("E040", "about.md"));

        // A record linking to a system file: refused without quoting the file's first line.
        let dir = game("passwd-record");
        symlink("/etc/passwd", dir.join("record.xml")).unwrap();
        expected.push(("E040", "games/passwd-record/record.xml"));

        // A record that is a named pipe: opening it would wait forever.
        let dir = game("fifo-record");
        let made = Command::new("mkfifo")
            .arg(dir.join("record.xml"))
            .status()
            .expect("mkfifo runs");
        assert!(made.success());
        expected.push(("E039", "games/fifo-record/record.xml"));

        // A game record that is a loop of links, and one linking outside the catalog.
        let dir = game("linked-records");
        fs::write(dir.join("record.xml"), &record).unwrap();
        symlink("loop-b.game", dir.join("games/loop-a.game")).unwrap();
        symlink("loop-a.game", dir.join("games/loop-b.game")).unwrap();
        symlink("/dev/zero", dir.join("games/zero.game")).unwrap();
        expected.push(("E040", "games/linked-records/games/loop-a.game"));
        expected.push(("E040", "games/linked-records/games/zero.game"));
    }
    expected
}

#[test]
fn refused_inputs_each_end_in_their_diagnostic() {
    let scratch = Scratch::new("hostile-refused");
    let catalog = scratch.0.join("catalog");
    copy_tree(&fixture("refused"), &catalog);
    let mut expected = vec![
        ("E002", "games/entity-expansion/record.xml"),
        ("E002", "games/external-entity/record.xml"),
        ("E003", "games/entity-reference/record.xml"),
        ("E042", "games/deep-nesting/record.xml"),
        ("E004", "games/not-utf8/record.xml"),
        ("E004", "games/utf16/record.xml"),
        ("E100", "games/too-many-points/rules.txt"),
        ("E100", "games/capture-chains/rules.txt"),
        ("E102", "games/broken-game-record/games/broken.game"),
    ];
    expected.extend(add_runtime_cases(&catalog));

    let started = Instant::now();
    let (code, diagnostics, report) = check(&catalog);
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "check returns promptly"
    );
    assert_eq!(code, Some(1), "{report}");
    for (want, file) in &expected {
        assert!(
            diagnostics.iter().any(|(c, f, _)| c == want && f == file),
            "expected {want} at {file}:\n{report}"
        );
    }
    // Every item is still reported: none vanished because its record could not be read.
    for entry in fs::read_dir(catalog.join("games")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        assert!(
            diagnostics
                .iter()
                .any(|(_, f, _)| f.starts_with(&format!("games/{name}/"))),
            "{name} is reported:\n{report}"
        );
    }
    // The report quotes nothing of the files it refused to read.
    assert!(!report.contains("root:"), "{report}");
    assert!(report.len() < 200_000, "a bounded report");
    let by_item = |file: &str| {
        diagnostics
            .iter()
            .filter(|(_, f, _)| f == file)
            .map(|(_, _, m)| m.as_str())
            .collect::<Vec<_>>()
            .join("; ")
    };
    assert!(
        by_item("games/too-many-points/rules.txt").contains("at most 128 points"),
        "{report}"
    );
    assert!(
        by_item("games/capture-chains/rules.txt").contains("cannot be played"),
        "{report}"
    );
    assert!(
        by_item("games/many-moves/games/long.game").contains("more than 10000 moves"),
        "{report}"
    );

    // `build` refuses the catalog the same way and writes nothing.
    let out = scratch.0.join("site");
    let built = build(&catalog, &out);
    assert_eq!(built.status.code(), Some(1));
    assert!(!out.exists());
}
