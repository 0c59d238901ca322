//! `ludotheca new`: a new item fails `check` with a placeholder diagnostic (E043) at each value to write, and
//! nothing else; filled (each placeholder replaced, as an archivist would), it passes. Existing and invalid
//! identifiers are refused, and nothing is ever overwritten.

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

fn ludotheca(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ludotheca"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("the ludotheca binary runs")
}

fn text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

fn catalog() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("ludotheca.toml"), "title = \"New items\"\n").unwrap();
    fs::write(
        dir.path().join("sources.bib"),
        "@book{hutton-1921-sema,\n  author = {Hutton, John Henry},\n  title = {The Sema Nagas},\n  year = {1921},\n}\n",
    )
    .unwrap();
    dir
}

/// Replace each placeholder of a file, failing when one is not there (the skeleton changed under the test).
fn fill(path: &Path, replacements: &[(&str, &str)]) {
    let mut text = fs::read_to_string(path).unwrap();
    for (from, to) in replacements {
        assert!(
            text.contains(from),
            "{} has no `{from}`:\n{text}",
            path.display()
        );
        text = text.replace(from, to);
    }
    fs::write(path, text).unwrap();
}

#[test]
fn new_items_fail_with_placeholders_then_pass_once_filled() {
    let dir = catalog();
    let root = dir.path().to_str().unwrap();
    for (kind, id, title) in [
        ("game", "tiger-game", Some("Tiger game")),
        ("board", "tiger-board", None),
        ("evidence", "tiger-account", None),
    ] {
        let mut args = vec!["new", kind, id, "--catalog", root];
        if let Some(title) = title {
            args.extend(["--title", title]);
        }
        let output = ludotheca(&args);
        assert!(output.status.success(), "{}", text(&output));
    }
    let game = dir.path().join("games/tiger-game");
    for file in ["record.xml", "rules.txt", "games/first.game"] {
        assert!(game.join(file).is_file(), "{file}");
    }

    let output = ludotheca(&["check", "--catalog", root]);
    let report = text(&output);
    assert_eq!(output.status.code(), Some(1), "{report}");
    // The description's placeholder, at its line and column, with what to write.
    assert!(
        report.contains("error[E043]: `dcterms:description` still holds a placeholder\n  --> ")
            && report.contains("games/tiger-game/record.xml:11:24\n"),
        "{report}"
    );
    assert!(
        report.contains("= help: write what the item is, for a reader of its page"),
        "{report}"
    );
    assert!(
        report.contains("games/tiger-game/rules.txt:35:10\n"),
        "{report}"
    );
    assert!(
        report.contains("boards/tiger-board/record.xml:13:21\n"),
        "{report}"
    );
    // Every error is a placeholder: the rules compile, and what a placeholder fails to be is not repeated.
    let codes: Vec<&str> = report
        .lines()
        .filter_map(|l| l.strip_prefix("error["))
        .map(|l| &l[..4])
        .collect();
    assert_eq!(codes.len(), 22, "{report}");
    assert!(codes.iter().all(|c| *c == "E043"), "{codes:?}");

    fill(
        &game.join("record.xml"),
        &[
            ("TODO: describe the game", "A hunt game of the Sema Nagas."),
            (
                "TODO: the rules in words",
                "Three men a side step and jump.",
            ),
            (
                "<dcterms:source>TODO: cite the source</dcterms:source>",
                "<dcterms:source cite=\"hutton-1921-sema\" pages=\"110\"/>",
            ),
        ],
    );
    fill(
        &game.join("rules.txt"),
        &[
            (
                "TODO: a name for this reading of the rules",
                "Hutton's reading",
            ),
            ("source TODO", "source hutton-1921-sema"),
        ],
    );
    // The moves the comment gives as an example, which must be legal under the example rules.
    let first = fs::read_to_string(game.join("games/first.game")).unwrap();
    let comment = first.lines().find(|l| l.starts_with("{TODO")).unwrap();
    let example = comment
        .split_once("with the example rules: ")
        .and_then(|(_, rest)| rest.split_once(';'))
        .map(|(moves, _)| moves)
        .expect("the comment gives example moves");
    assert_eq!(example, "1. a1-a2 a3xa1");
    fill(
        &game.join("games/first.game"),
        &[
            (
                "TODO: what this record is, such as Demonstration: a capture",
                "Demonstration: a first step",
            ),
            (
                comment,
                &format!("{{White opens on the west.}}\n{example} *"),
            ),
        ],
    );
    fill(
        &dir.path().join("boards/tiger-board/record.xml"),
        &[
            (
                "TODO: what the board is and where, such as Rock-cut board at ...",
                "Board at Zunheboto",
            ),
            ("TODO: describe the board", "Scratched on a stone."),
            ("game=\"TODO\"", "game=\"tiger-game\""),
            ("TODO: where the board is or was found", "Zunheboto"),
            ("TODO: what it is made of", "Stone"),
            ("TODO: its size, or Not recorded", "Not recorded"),
            ("TODO: when", "1921"),
        ],
    );
    fill(
        &dir.path().join("evidence/tiger-account/record.xml"),
        &[
            (
                "TODO: what attests the game, such as Hutton's account of ... (1921)",
                "Hutton's account (1921)",
            ),
            ("TODO: the kind of attestation", "Ethnography"),
            ("game=\"TODO\"", "game=\"tiger-game\""),
            (
                "<confidence>TODO</confidence>",
                "<confidence>90</confidence>",
            ),
            ("TODO: where", "Nagaland"),
            ("TODO: when", "1921"),
            ("TODO: what the source says", "Hutton describes the game."),
            (
                "<dcterms:source>TODO: cite the source</dcterms:source>",
                "<dcterms:source cite=\"hutton-1921-sema\"/>",
            ),
        ],
    );
    let output = ludotheca(&["check", "--catalog", root]);
    assert!(output.status.success(), "{}", text(&output));
    assert!(
        text(&output).contains("0 errors, 0 warnings"),
        "{}",
        text(&output)
    );
}

#[test]
fn existing_and_invalid_identifiers_are_refused() {
    let dir = catalog();
    let root = dir.path().to_str().unwrap();
    assert!(
        ludotheca(&["new", "game", "tiger-game", "--catalog", root])
            .status
            .success()
    );
    let record = dir.path().join("games/tiger-game/record.xml");
    fs::write(&record, "kept").unwrap();

    // Taken, in another kind's folder too: nothing is written.
    for kind in ["game", "board"] {
        let output = ludotheca(&["new", kind, "tiger-game", "--catalog", root]);
        assert_eq!(output.status.code(), Some(2));
        assert!(
            text(&output).contains("already has an item `tiger-game`"),
            "{}",
            text(&output)
        );
    }
    assert_eq!(fs::read_to_string(&record).unwrap(), "kept");
    assert!(!dir.path().join("boards/tiger-game").exists());

    // A folder without a record is not an item, but is never written into either.
    fs::create_dir_all(dir.path().join("boards/half-made")).unwrap();
    let output = ludotheca(&["new", "board", "half-made", "--catalog", root]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        text(&output).contains("already exists"),
        "{}",
        text(&output)
    );

    for id in [
        "Tiger",
        "tiger_game",
        "-tiger",
        "tiger-",
        "tiger--game",
        "../tiger",
        "",
    ] {
        let output = ludotheca(&["new", "game", "--catalog", root, "--", id]);
        assert_eq!(output.status.code(), Some(2), "{id}");
        assert!(
            text(&output).contains("cannot be an identifier"),
            "{id}: {}",
            text(&output)
        );
    }
    let output = ludotheca(&[
        "new",
        "game",
        "tiger",
        "--catalog",
        &format!("{root}/nowhere"),
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        text(&output).contains("there is no catalog folder"),
        "{}",
        text(&output)
    );
}

#[test]
fn init_starts_a_catalog_that_checks_builds_and_takes_new_items() {
    let dir = tempfile::tempdir().unwrap();
    let catalog = dir.path().join("archive");
    let cat = catalog.to_str().unwrap();

    let out = ludotheca(&["new", "game", "tiger-game", "--catalog", cat]);
    assert!(!out.status.success());
    assert!(
        text(&out).contains(&format!("start one with `ludotheca init --catalog {cat}`")),
        "{}",
        text(&out)
    );

    let out = ludotheca(&["init", "--catalog", cat, "--title", "Games of \"Nagaland\""]);
    assert!(out.status.success(), "{}", text(&out));
    for name in ["ludotheca.toml", "sources.bib", "about.md"] {
        assert!(catalog.join(name).is_file(), "{name}");
    }
    for name in ["games", "boards", "evidence"] {
        assert!(catalog.join(name).is_dir(), "{name}");
    }
    let out = ludotheca(&["check", "--catalog", cat]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("0 errors, 0 warnings"),
        "{}",
        text(&out)
    );
    let site = dir.path().join("site");
    let out = ludotheca(&["build", "--catalog", cat, "--out", site.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out));
    let home = fs::read_to_string(site.join("index.html")).unwrap();
    assert!(
        home.contains("Games of &quot;Nagaland&quot;") || home.contains("Games of \"Nagaland\"")
    );

    let out = ludotheca(&["new", "game", "tiger-game", "--catalog", cat]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(catalog.join("games/tiger-game/record.xml").is_file());

    // A folder that holds anything is never written into.
    let before = fs::read_to_string(catalog.join("ludotheca.toml")).unwrap();
    let out = ludotheca(&["init", "--catalog", cat, "--title", "Another"]);
    assert!(!out.status.success());
    assert!(
        text(&out).contains("is not an empty folder"),
        "{}",
        text(&out)
    );
    assert_eq!(
        fs::read_to_string(catalog.join("ludotheca.toml")).unwrap(),
        before
    );
}
