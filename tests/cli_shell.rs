//! The command line's own documentation: shell completions and the manual page, generated from the same
//! definitions as `--help`, so they cannot fall behind it.

mod common;

use common::{ludotheca, stderr, stdout};

#[test]
fn completions_are_printed_for_every_shell() {
    for (shell, marker) in [
        ("bash", "complete -F"),
        ("zsh", "#compdef ludotheca"),
        ("fish", "complete -c ludotheca"),
        ("powershell", "Register-ArgumentCompleter"),
        ("elvish", "edit:completion:arg-completer[ludotheca]"),
    ] {
        let out = ludotheca(&["completions", shell]);
        assert!(out.status.success(), "{shell}: {}", stderr(&out));
        let script = stdout(&out);
        assert!(script.contains(marker), "{shell}: {script}");
        // Every command is offered.
        for command in [
            "check",
            "build",
            "perft",
            "moves",
            "show",
            "completions",
            "man",
        ] {
            assert!(script.contains(command), "{shell} lacks {command}");
        }
    }
    let out = ludotheca(&["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn the_manual_page_is_roff_listing_the_commands() {
    let out = ludotheca(&["man"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let page = stdout(&out);
    assert!(page.contains(".TH ludotheca 1"), "{page}");
    assert!(page.contains("ludotheca\\-check(1)"), "{page}");
    assert!(page.contains("Validate and publish"), "{page}");
}
