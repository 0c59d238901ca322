//! The catalog reader on hostile folders: what git cannot hold (FIFOs, loops of links, links to system files,
//! files over a limit) is made here in a scratch catalog. Each case must end in its diagnostic and exit code 1,
//! promptly, with the item still reported and nothing of a file outside the catalog in the output.

#![cfg(unix)]

use std::fs;
use std::io::Read;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// A small valid catalog in a fresh folder, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "ludotheca-load-{}-{name}-{}",
            std::process::id(),
            COUNT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = fs::remove_dir_all(&dir);
        let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/invalid/E034-missing-config");
        fs::create_dir_all(dir.join("games/bagh-chal")).unwrap();
        fs::write(dir.join("ludotheca.toml"), "title = \"T\"\n").unwrap();
        fs::copy(fixture.join("sources.bib"), dir.join("sources.bib")).unwrap();
        fs::copy(
            fixture.join("games/bagh-chal/rules.txt"),
            dir.join("games/bagh-chal/rules.txt"),
        )
        .unwrap();
        fs::copy(
            fixture.join("games/bagh-chal/record.xml"),
            dir.join("games/bagh-chal/record.xml"),
        )
        .unwrap();
        Scratch(dir)
    }

    fn path(&self, relative: &str) -> PathBuf {
        self.0.join(relative)
    }

    /// `check` on this catalog, stopped (and failed) if it does not end within a minute.
    fn check(&self) -> (String, Option<i32>) {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ludotheca"))
            .args(["check", "--catalog"])
            .arg(&self.0)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary runs");
        // Drained while the child runs, so that a long report cannot fill the pipe and stall it.
        let drain = |pipe: Option<Box<dyn Read + Send>>| {
            std::thread::spawn(move || {
                let mut bytes = Vec::new();
                if let Some(mut pipe) = pipe {
                    let _ = pipe.read_to_end(&mut bytes);
                }
                bytes
            })
        };
        let stdout = drain(
            child
                .stdout
                .take()
                .map(|p| Box::new(p) as Box<dyn Read + Send>),
        );
        let stderr = drain(
            child
                .stderr
                .take()
                .map(|p| Box::new(p) as Box<dyn Read + Send>),
        );
        let started = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().expect("the child can be waited on") {
                break status;
            }
            if started.elapsed() > Duration::from_secs(60) {
                let _ = child.kill();
                panic!("check did not end within a minute");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&stdout.join().expect("stdout is read")),
            String::from_utf8_lossy(&stderr.join().expect("stderr is read"))
        );
        (text, status.code())
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(status.success(), "mkfifo {}", path.display());
}

fn assert_reported(scratch: &Scratch, code: &str, file: &str) -> String {
    let (text, exit) = scratch.check();
    assert_eq!(exit, Some(1), "{text}");
    let shown = scratch.path(file).display().to_string();
    assert!(
        text.lines()
            .zip(text.lines().skip(1))
            .any(|(a, b)| a.contains(&format!("[{code}]")) && b.contains(&shown)),
        "expected {code} at {shown}:\n{text}"
    );
    text
}

#[test]
fn the_scratch_catalog_is_valid() {
    let scratch = Scratch::new("valid");
    let (text, exit) = scratch.check();
    assert_eq!(exit, Some(0), "{text}");
}

#[test]
fn fifos_are_never_opened() {
    for file in [
        "games/bagh-chal/record.xml",
        "games/bagh-chal/rules.txt",
        "games/bagh-chal/games/x.game",
        "about.md",
        "sources.bib",
        "ludotheca.toml",
        "templates/item.html",
        "static/style.css",
    ] {
        let scratch = Scratch::new("fifo");
        let path = scratch.path(file);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        let _ = fs::remove_file(&path);
        mkfifo(&path);
        let text = assert_reported(&scratch, "E039", file);
        assert!(text.contains("named pipe"), "{text}");
    }
}

#[test]
fn a_record_that_is_a_link_loop_or_dangling_is_reported_not_dropped() {
    let scratch = Scratch::new("loop");
    let record = scratch.path("games/bagh-chal/record.xml");
    fs::remove_file(&record).unwrap();
    symlink("record.xml", &record).unwrap();
    assert_reported(&scratch, "E040", "games/bagh-chal/record.xml");

    let scratch = Scratch::new("dangling");
    let record = scratch.path("games/bagh-chal/record.xml");
    fs::remove_file(&record).unwrap();
    symlink("nowhere.xml", &record).unwrap();
    assert_reported(&scratch, "E040", "games/bagh-chal/record.xml");
}

#[test]
fn links_outside_the_catalog_are_refused_without_quoting_the_target() {
    // A file of known content outside the catalog stands for a system file.
    let outside = Scratch::new("outside");
    let secret = outside.path("secret.txt");
    fs::write(&secret, "root:x:0:0:SECRET-LINE\n").unwrap();
    for file in [
        "games/bagh-chal/record.xml",
        "games/bagh-chal/games/x.game",
        "about.md",
        "templates/item.html",
        "static/secret.txt",
    ] {
        let scratch = Scratch::new("outside-link");
        let path = scratch.path(file);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        let _ = fs::remove_file(&path);
        symlink(&secret, &path).unwrap();
        let text = assert_reported(&scratch, "E040", file);
        assert!(!text.contains("SECRET-LINE"), "{text}");
    }
}

#[test]
fn links_inside_the_catalog_are_followed() {
    let scratch = Scratch::new("inside");
    fs::create_dir_all(scratch.path("texts")).unwrap();
    fs::write(scratch.path("texts/about.md"), "# About\n").unwrap();
    symlink("texts/about.md", scratch.path("about.md")).unwrap();
    let (text, exit) = scratch.check();
    assert_eq!(exit, Some(0), "{text}");
}

#[test]
fn a_record_linked_inside_the_catalog_is_published_as_read() {
    let scratch = Scratch::new("publish");
    let record = scratch.path("games/bagh-chal/record.xml");
    let text = fs::read_to_string(&record).unwrap();
    fs::create_dir_all(scratch.path("texts")).unwrap();
    fs::rename(&record, scratch.path("texts/bagh-chal.xml")).unwrap();
    symlink("../../texts/bagh-chal.xml", &record).unwrap();
    // In a folder of its own, removed with it: a first build leaves the site's standby beside it.
    let beside = Scratch::new("publish-out");
    let out = beside.path("site");
    let output = Command::new(env!("CARGO_BIN_EXE_ludotheca"))
        .args(["build", "--quiet", "--catalog"])
        .arg(&scratch.0)
        .arg("--out")
        .arg(&out)
        .output()
        .expect("the binary runs");
    let published = fs::read_to_string(out.join("games/bagh-chal/record.xml"));
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(published.unwrap(), text);
}

#[test]
fn links_to_folders_are_not_followed() {
    let elsewhere = Scratch::new("elsewhere");
    let scratch = Scratch::new("folder-link");
    symlink(elsewhere.path("games"), scratch.path("more-games")).unwrap();
    assert_reported(&scratch, "E040", "more-games");

    let scratch = Scratch::new("games-link");
    symlink(
        elsewhere.path("games/bagh-chal"),
        scratch.path("games/bagh-chal/games"),
    )
    .unwrap();
    assert_reported(&scratch, "E040", "games/bagh-chal/games");
}

#[test]
fn special_files_where_files_belong_are_reported() {
    let scratch = Scratch::new("dir-game");
    fs::create_dir_all(scratch.path("games/bagh-chal/games/x.game")).unwrap();
    let text = assert_reported(&scratch, "E039", "games/bagh-chal/games/x.game");
    assert!(text.contains("is a folder"), "{text}");

    let scratch = Scratch::new("dir-config");
    fs::remove_file(scratch.path("ludotheca.toml")).unwrap();
    fs::create_dir(scratch.path("ludotheca.toml")).unwrap();
    assert_reported(&scratch, "E039", "ludotheca.toml");
}

#[test]
fn files_over_their_limit_are_not_read() {
    let scratch = Scratch::new("large-rules");
    let rules = scratch.path("games/bagh-chal/rules.txt");
    let mut text = fs::read_to_string(&rules).unwrap();
    text.push_str(&format!("# {}\n", "x".repeat(2 * 1024 * 1024)));
    fs::write(&rules, text).unwrap();
    let report = assert_reported(&scratch, "E005", "games/bagh-chal/rules.txt");
    assert!(report.contains("rules file is"), "{report}");
    assert!(report.contains("(2 MiB)"), "{report}");
}

#[test]
fn a_record_nested_a_hundred_thousand_deep_stops_at_the_cap() {
    let scratch = Scratch::new("deep");
    let record = scratch.path("games/bagh-chal/record.xml");
    let nest = format!("{}deep{}", "<b>".repeat(100_000), "</b>".repeat(100_000));
    let text = fs::read_to_string(&record).unwrap().replace(
        "<dcterms:title>Bagh-Chal</dcterms:title>",
        &format!("<dcterms:title>Bagh-Chal {nest}</dcterms:title>"),
    );
    fs::write(&record, text).unwrap();
    let report = assert_reported(&scratch, "E042", "games/bagh-chal/record.xml");
    // The nesting itself (E042) and the markup inside a value (E036), and nothing made up beyond them.
    assert!(report.contains("2 errors, 0 warnings"), "{report}");
}

#[test]
fn a_broken_theme_fails_check() {
    let scratch = Scratch::new("theme-utf8");
    fs::create_dir_all(scratch.path("templates")).unwrap();
    fs::write(
        scratch.path("templates/item.html"),
        b"{{ page.title }}\xff\n",
    )
    .unwrap();
    assert_reported(&scratch, "E004", "templates/item.html");

    // Each template compiles alone, but one extends a template that does not exist.
    let scratch = Scratch::new("theme-parent");
    fs::create_dir_all(scratch.path("templates")).unwrap();
    fs::write(
        scratch.path("templates/extra.html"),
        "{% extends \"nowhere.html\" %}{% block content %}{% endblock content %}",
    )
    .unwrap();
    let text = assert_reported(&scratch, "E041", "templates/extra.html");
    assert!(text.contains("nowhere.html"), "{text}");

    // A theme that compiles passes, and its static files are read too.
    let scratch = Scratch::new("theme-ok");
    fs::create_dir_all(scratch.path("templates/partials")).unwrap();
    fs::create_dir_all(scratch.path("static/img")).unwrap();
    fs::write(
        scratch.path("templates/partials/note.html"),
        "<p>{{ x }}</p>",
    )
    .unwrap();
    fs::write(
        scratch.path("static/img/logo.png"),
        [0x89, b'P', b'N', b'G', 0xff],
    )
    .unwrap();
    let (text, exit) = scratch.check();
    assert_eq!(exit, Some(0), "{text}");
}
