//! `ludotheca new`: the skeleton of a new item, to fill in. Every value still to write starts with `TODO`, which
//! `check` reports at its line and column with what to write there (E043, see `crate::check`); once each is
//! replaced the item passes `check`. The comments in the files say what each part is for, so that the archivist
//! needs the format documents only for what goes beyond them.
//!
//! An existing item is never touched: the folder must not exist, and no item anywhere in the catalog may have
//! the identifier (in any case). Files are created new, never opened over something there.

use std::fmt;
use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use walkdir::WalkDir;

use crate::catalog::Kind;
use crate::check::is_url_safe;

/// What `ludotheca new` is asked to make.
#[derive(Clone, Debug)]
pub struct NewItem {
    pub kind: Kind,
    pub id: String,
    pub title: Option<String>,
    pub catalog: PathBuf,
}

/// What was made: the item's folder and its files, relative to it.
#[derive(Debug)]
pub struct Created {
    pub folder: PathBuf,
    pub files: Vec<&'static str>,
}

#[derive(Debug)]
pub enum NewError {
    /// The request cannot be carried out as given (an identifier taken or invalid, no catalog).
    Refused(String),
    Io(String),
}

impl fmt::Display for NewError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NewError::Refused(msg) | NewError::Io(msg) => f.write_str(msg),
        }
    }
}

impl std::error::Error for NewError {}

/// The folder that holds items of a kind in a new catalog's layout.
fn group(kind: Kind) -> &'static str {
    match kind {
        Kind::Game => "games",
        Kind::Board => "boards",
        Kind::Evidence => "evidence",
    }
}

pub fn create(new: &NewItem) -> Result<Created, NewError> {
    let id = new.id.as_str();
    if !is_url_safe(id) {
        return Err(NewError::Refused(format!(
            "`{id}` cannot be an identifier: use lowercase ASCII letters, digits and single hyphens, starting \
             with a letter and not ending with a hyphen (such as `tiger-game`); it becomes the page's address"
        )));
    }
    if let Some(title) = &new.title
        && (title.trim().is_empty() || title.chars().any(char::is_control))
    {
        return Err(NewError::Refused(
            "the title must be one line of text".to_string(),
        ));
    }
    let catalog = &new.catalog;
    if !catalog.is_dir() {
        return Err(NewError::Refused(format!(
            "there is no catalog folder `{}`; start one with `ludotheca init --catalog {}`",
            catalog.display(),
            catalog.display()
        )));
    }
    if let Some(existing) = find_item(catalog, id) {
        return Err(NewError::Refused(format!(
            "the catalog already has an item `{}` (in `{}`); identifiers are unique, whatever their case, and \
             an existing item is never overwritten",
            existing
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
            existing.display()
        )));
    }
    let folder = catalog.join(group(new.kind)).join(id);
    let io = |path: &Path| {
        let shown = path.display().to_string();
        move |e: io::Error| NewError::Io(format!("cannot create `{shown}`: {e}"))
    };
    fs::create_dir_all(catalog.join(group(new.kind))).map_err(io(&folder))?;
    fs::create_dir(&folder).map_err(|e| {
        if e.kind() == io::ErrorKind::AlreadyExists {
            NewError::Refused(format!(
                "`{}` already exists; an existing folder is never overwritten",
                folder.display()
            ))
        } else {
            io(&folder)(e)
        }
    })?;
    let title = new.title.as_deref().map(str::trim);
    let mut files = vec![("record.xml", record(new.kind, title))];
    if new.kind == Kind::Game {
        files.push(("rules.txt", rules(title)));
        files.push(("games/first.game", FIRST_GAME.to_string()));
        fs::create_dir(folder.join("games")).map_err(io(&folder.join("games")))?;
    }
    for (name, text) in &files {
        let path = folder.join(name);
        let mut file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
            .map_err(io(&path))?;
        file.write_all(text.as_bytes()).map_err(io(&path))?;
    }
    Ok(Created {
        folder,
        files: files.into_iter().map(|(name, _)| name).collect(),
    })
}

/// An item folder of this identifier anywhere in the catalog, compared ignoring case as `check` does (E015).
fn find_item(catalog: &Path, id: &str) -> Option<PathBuf> {
    WalkDir::new(catalog)
        .min_depth(1)
        .into_iter()
        .filter_entry(|e| {
            e.file_type().is_dir() && !e.file_name().to_string_lossy().starts_with('.')
        })
        .filter_map(Result::ok)
        .find(|e| {
            e.file_name().to_string_lossy().eq_ignore_ascii_case(id)
                && e.path().join("record.xml").exists()
        })
        .map(|e| e.into_path())
}

fn xml_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

const RECORD_HEAD: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<!-- Made by `ludotheca new`. Replace every value that starts with TODO: `ludotheca check` (and the overlay of
     `ludotheca serve`) points at each one that is left. The terms are described in docs/record-format.md; more
     Dublin Core terms may be added (dcterms:alternative, dcterms:subject for tags, dcterms:relation...). -->
<record xmlns="urn:ludotheca:record:1"
        xmlns:dcterms="http://purl.org/dc/terms/"
        xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
"#;

fn record(kind: Kind, title: Option<&str>) -> String {
    let title = match title {
        Some(title) => xml_escape(title),
        None => match kind {
            Kind::Game => "TODO: the name the game is best known by".to_string(),
            Kind::Board => {
                "TODO: what the board is and where, such as Rock-cut board at ...".to_string()
            }
            Kind::Evidence => {
                "TODO: what attests the game, such as Hutton's account of ... (1921)".to_string()
            }
        },
    };
    let body = match kind {
        Kind::Game => format!(
            r#"        kind="game">
  <dcterms:title>{title}</dcterms:title>
  <!-- For the reader of the page, in Markdown: where, when and by whom the game is known, what the sources say. -->
  <dcterms:description>TODO: describe the game</dcterms:description>
  <!-- The rules in words. rules.txt states them for the engine, which checks every recorded move. -->
  <dcterms:instructionalMethod>TODO: the rules in words</dcterms:instructionalMethod>
  <!-- The work this record follows, by its key in sources.bib: <dcterms:source cite="KEY" pages="12-14"/> -->
  <dcterms:source>TODO: cite the source</dcterms:source>
  <!-- A scan of the source's page, in images/ beside this record (PNG, JPEG or WebP), with words for readers
       who cannot see it: <image file="images/page.png" alt="what the picture shows">a caption</image> -->
</record>
"#
        ),
        Kind::Board => format!(
            r#"        kind="board">
  <dcterms:title>{title}</dcterms:title>
  <!-- For the reader of the page, in Markdown: the board, how it is known, what the sources say. -->
  <dcterms:description>TODO: describe the board</dcterms:description>
  <!-- The game played on it, by its identifier (its folder name); ruleset="NAME" may name the ruleset. -->
  <playedWith game="TODO"/>
  <dcterms:spatial>TODO: where the board is or was found</dcterms:spatial>
  <dcterms:medium>TODO: what it is made of</dcterms:medium>
  <dcterms:extent>TODO: its size, or Not recorded</dcterms:extent>
  <!-- When it was made or recorded: a year, or a range with xsi:type="dcterms:EDTF" (1898/1912). -->
  <dcterms:date>TODO: when</dcterms:date>
  <!-- A photograph of it, in images/ beside this record (PNG, JPEG or WebP), with words for readers who cannot
       see it: <image file="images/board.jpg" alt="what the picture shows">a caption</image> -->
</record>
"#
        ),
        Kind::Evidence => format!(
            r#"        kind="evidence">
  <dcterms:title>{title}</dcterms:title>
  <dcterms:type>TODO: the kind of attestation</dcterms:type>
  <!-- The game attested, by its identifier (its folder name). -->
  <attests game="TODO"/>
  <!-- How sure the attestation is, from 0 (doubtful) to 100 (certain). -->
  <confidence>TODO</confidence>
  <dcterms:spatial>TODO: where</dcterms:spatial>
  <!-- When: a year, or a range with xsi:type="dcterms:EDTF" (1921-01-01/1921-12-31). -->
  <dcterms:temporal>TODO: when</dcterms:temporal>
  <!-- The content of the attestation, quoted or summarised (Markdown). -->
  <dcterms:description>TODO: what the source says</dcterms:description>
  <!-- The work, by its key in sources.bib: <dcterms:source cite="KEY" pages="110-111"/> -->
  <dcterms:source>TODO: cite the source</dcterms:source>
  <!-- A scan of the source's page, in images/ beside this record (PNG, JPEG or WebP), with words for readers
       who cannot see it: <image file="images/page.png" alt="what the picture shows">a caption</image> -->
</record>
"#
        ),
    };
    format!("{RECORD_HEAD}{body}")
}

fn rules(title: Option<&str>) -> String {
    // A rules string ends at its closing quote; the page shows the record's title, so a quote becomes an
    // apostrophe here rather than making the file fail to compile.
    let name = title.map_or_else(
        || "TODO: the game's name".to_string(),
        |t| t.replace('"', "'"),
    );
    format!(
        r#"# The rules of the game, for the engine: they are compiled by `ludotheca check`, every game record is
# replayed against them, and the game's page plays them (the language: docs/rules-format.md).
#
# What follows is a small example to start from, which compiles: two sides of three men on a 3 x 3 board.
# Replace each statement with the game's own, and say in comments why a choice was made where the sources
# leave room.

game "{name}"

# The board: points and the lines joining them (grid, triangle, star, point, line, region).
board
  grid 3 x 3 diagonals alquerque
end

# The two sides; the first one declared wins a "1-0".
side white "White"
side black "Black"

# Each kind of piece and its moves: step, slide, jump, long-jump, with directions.
piece man "Man": step, jump

setup
  white: man on a1 b1 c1
  black: man on a3 b3 c3
  first white
end

# How the game ends. Where the sources give no end, a move cap keeps random and computer play finite.
outcome move-cap 200 draws

# Each reading of the sources is a ruleset: its type (described, observed, reconstructed, suggested,
# incomplete) and its source, a key of sources.bib. A ruleset states only what differs from the rules above.
ruleset main "TODO: a name for this reading of the rules"
  type described
  source TODO
end
"#
    )
}

const FIRST_GAME: &str = r#"[Event "TODO: what this record is, such as Demonstration: a capture"]
[Kind "demonstration"]
[Result "*"]

{TODO: write the moves after this comment, in the notation of docs/notation.md (with the example rules: 1. a1-a2 a3xa1; a sowing game's holes and moves: docs/sowing.md), or say what the record shows}
"#;

/// What `ludotheca init` writes into a new catalog folder: its configuration, an empty bibliography, the About
/// page and the three folders items go in. Each file says in comments what it is for.
pub fn init(catalog: &Path, title: Option<&str>) -> Result<Vec<String>, NewError> {
    if let Some(title) = title
        && (title.trim().is_empty() || title.chars().any(char::is_control))
    {
        return Err(NewError::Refused(
            "the title must be one line of text".to_string(),
        ));
    }
    if catalog.exists() {
        let holds = fs::read_dir(catalog)
            .map_err(|e| NewError::Io(format!("cannot read `{}`: {e}", catalog.display())))?
            .next()
            .is_some();
        if !catalog.is_dir() || holds {
            return Err(NewError::Refused(format!(
                "`{}` exists and is not an empty folder; a catalog is started only in a new or empty folder, so \
                 that nothing there is overwritten (`ludotheca new` adds items to a catalog that exists)",
                catalog.display()
            )));
        }
    }
    let title = title.unwrap_or("A board game archive");
    let config = format!(
        "# The archive's settings; docs/record-format.md lists every one.\n\
         # The title heads every page; the description is the home page's first paragraph.\n\
         title = {}\n\
         description = \"Traditional board games: their records, rules and recorded games.\"\n\
         \n\
         # Where the site will be published (it makes the sitemap, the OAI-PMH file and citations carry whole\n\
         # addresses) and who answers for it. Uncomment and fill in before publishing.\n\
         # base_url = \"https://example.org/games/\"\n\
         # contact = \"archivist@example.org\"\n\
         \n\
         # A term's label on the pages, where the catalog's differs from the default (as an Omeka site's may):\n\
         # [[labels]]\n\
         # term = \"dcterms:subject\"\n\
         # label = \"Tags\"\n",
        toml::Value::String(title.to_string())
    );
    let bibliography = "% The works the records cite, as BibTeX entries. A record cites one by its key:\n\
                        %   <dcterms:source cite=\"murray-1952\" pages=\"87\"/>\n\
                        % and a ruleset in rules.txt names it with `source murray-1952 pages 87`.\n";
    let about = format!(
        "# About {title}\n\nWho keeps this archive, what it collects and how to write to its keepers: this page is \
         `about.md` in the catalog folder, in Markdown.\n"
    );
    fs::create_dir_all(catalog)
        .map_err(|e| NewError::Io(format!("cannot create `{}`: {e}", catalog.display())))?;
    let mut written = Vec::new();
    for (name, text) in [
        ("ludotheca.toml", config.as_str()),
        ("sources.bib", bibliography),
        ("about.md", about.as_str()),
    ] {
        write_new(&catalog.join(name), text)?;
        written.push(name.to_string());
    }
    for kind in [Kind::Game, Kind::Board, Kind::Evidence] {
        let folder = catalog.join(group(kind));
        fs::create_dir(&folder)
            .map_err(|e| NewError::Io(format!("cannot create `{}`: {e}", folder.display())))?;
        written.push(format!("{}/", group(kind)));
    }
    Ok(written)
}

/// Create a file that must not exist yet.
fn write_new(path: &Path, text: &str) -> Result<(), NewError> {
    let mut file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|e| NewError::Io(format!("cannot create `{}`: {e}", path.display())))?;
    file.write_all(text.as_bytes())
        .map_err(|e| NewError::Io(format!("cannot write `{}`: {e}", path.display())))
}
