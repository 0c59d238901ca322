//! What the commands write to standard output when its reader goes away before they are done, as `| head -1`
//! and `| grep -q built` do: the output ends there, the command's work stands, and its exit code says how the
//! work went, not that a line could not be printed.

mod common;

use std::path::Path;
use std::process::{Command, Output, Stdio};

use common::{Scratch, copy_tree};

/// The writing end of a pipe whose reading end is closed: a write to it fails as a write to a reader that went
/// away does.
fn closed_pipe() -> Stdio {
    use std::os::fd::{FromRawFd, OwnedFd};
    let mut ends = [0; 2];
    // SAFETY: `pipe` fills both numbers with new descriptors, each then owned once.
    assert_eq!(unsafe { libc::pipe(ends.as_mut_ptr()) }, 0, "a pipe");
    let (reader, writer) =
        unsafe { (OwnedFd::from_raw_fd(ends[0]), OwnedFd::from_raw_fd(ends[1])) };
    drop(reader);
    Stdio::from(writer)
}

/// `ludotheca ARGS` run from `dir` with its standard output a pipe nobody reads, closed before the command
/// starts.
fn unread(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ludotheca"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(closed_pipe())
        .stderr(Stdio::piped())
        .output()
        .expect("the ludotheca binary runs")
}

/// The command exited with `code` and said nothing of a panic or a failed write.
fn ended_with(args: &[&str], out: &Output, code: i32) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "{args:?}: {stderr}");
    for said in ["panicked", "Broken pipe", "could not be written"] {
        assert!(!stderr.contains(said), "{args:?} said {said:?}: {stderr}");
    }
}

#[test]
fn a_reader_gone_away_ends_the_output_not_the_command() {
    let scratch = Scratch::new("unread-output");
    let dir = &scratch.0;
    copy_tree(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("catalog"),
        &dir.join("catalog"),
    );

    // The build's account of itself comes after the site is in place: the site is there, whole.
    for args in [
        &["build", "--out", "site"][..],
        &["build", "--out", "site", "--timings"][..],
    ] {
        let out = unread(dir, args);
        ended_with(args, &out, 0);
        assert!(dir.join("site/index.html").is_file(), "{args:?}");
        assert!(dir.join("site/.ludotheca-manifest").is_file(), "{args:?}");
    }

    for args in [
        &["check"][..],
        &["export", "bibtex"][..],
        &["completions", "bash"][..],
        &["man"][..],
        &["perft", "bagh-chal", "--depth", "2"][..],
        &["init", "--catalog", "begun"][..],
        &["new", "game", "fresh-game", "--catalog", "begun"][..],
    ] {
        ended_with(args, &unread(dir, args), 0);
    }
    // What they were asked to make is made.
    assert!(dir.join("begun/ludotheca.toml").is_file());
    assert!(dir.join("begun/games/fresh-game/record.xml").is_file());

    // A command that fails still fails for its own reason.
    let args = &["build", "--catalog", "no-such-catalog", "--out", "other"][..];
    let out = unread(dir, args);
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!dir.join("other").exists());
}
