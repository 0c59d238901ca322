//! Game records (`.game` files): PGN-like tag pairs, then move text with move numbers, `{comments}` and `!`/`?`
//! annotations, then a result. Parsed with positions, then replayed against any `Game` (`replay` keeps every
//! position, `check` only the last): an illegal move is reported at its line and column with the legal moves
//! of that position. The format is in docs/notation.md.

use crate::game::{Game, MoveError, Outcome};
use std::fmt;

/// What a record is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordKind {
    /// A game taken from a source.
    Recorded,
    /// A short line showing one rule at work.
    Demonstration,
    /// A game played by the engine's computer player, to illustrate a ruleset.
    Illustrative,
    /// A position, a question and the solution line.
    Puzzle,
}

impl RecordKind {
    pub fn parse(s: &str) -> Option<RecordKind> {
        Some(match s {
            "recorded" => RecordKind::Recorded,
            "demonstration" => RecordKind::Demonstration,
            "illustrative" => RecordKind::Illustrative,
            "puzzle" => RecordKind::Puzzle,
            _ => return None,
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tag {
    pub name: String,
    pub value: String,
    /// Where the value starts (1-based).
    pub line: u32,
    pub column: u32,
}

/// One move as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrittenMove {
    /// Where the move is in the record's [`Record::move_texts`]: its start, the end of the move proper and the
    /// end of its annotation ([`Record::text_of`], [`Record::annotation_of`]). A long record holds thousands of
    /// moves, and two strings each were most of the time it took to read one.
    text: (u32, u32, u32),
    /// The move number written before it, if any.
    pub number: Option<u32>,
    /// The comment written after it, if any.
    pub comment: Option<Box<str>>,
    pub line: u32,
    pub column: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub tags: Vec<Tag>,
    /// A comment before the first move.
    pub intro: Option<String>,
    pub moves: Vec<WrittenMove>,
    /// The texts of the moves, one after the other.
    pub move_texts: String,
    /// `1-0` (the first side wins), `0-1`, `1/2-1/2` or `*`, when written after the moves.
    pub result: Option<String>,
    /// Where that result is written: line and column.
    pub result_at: (u32, u32),
}

/// A problem in a record, at a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    pub line: u32,
    pub column: u32,
    pub message: String,
    pub help: String,
    /// For an illegal move: the first [`LEGAL_LISTED`] legal moves of the position, in notation.
    pub legal: Vec<String>,
    /// For an illegal move: how many legal moves the position has, listed or not.
    pub legal_count: usize,
    /// How many characters the error covers from its column (0 when it is a point rather than a stretch):
    /// a tag's whole value, or the word of it that is wrong.
    pub length: u32,
}

/// The most legal moves a [`RecordError`] writes out. A position may offer hundreds of thousands (4 x 40
/// Tchouba has 120,160 at the start), and writing each in notation costs some fifty times more than listing
/// them: an error that wrote them all would make one bad move in a record cost more than replaying thousands of
/// good ones, to explain it with a list nobody reads to the end.
pub const LEGAL_LISTED: usize = 40;

impl RecordError {
    /// The legal moves listed, and how many more there are, for a note: `a1-a2 b1-b2 (and 3 more)`.
    pub fn legal_note(&self) -> String {
        let mut note = self.legal.join(" ");
        if self.legal_count > self.legal.len() {
            note.push_str(&format!(
                " (and {} more)",
                self.legal_count - self.legal.len()
            ));
        }
        note
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: {} (help: {})",
            self.line, self.column, self.message, self.help
        )?;
        if !self.legal.is_empty() {
            write!(f, "; legal moves: {}", self.legal_note())?;
        }
        Ok(())
    }
}

impl std::error::Error for RecordError {}

fn err(line: u32, column: u32, message: impl Into<String>, help: impl Into<String>) -> RecordError {
    RecordError {
        line,
        column,
        message: message.into(),
        help: help.into(),
        legal: vec![],
        legal_count: 0,
        length: 0,
    }
}

/// An error in a tag's value: the whole value underlined, or only the word of it the message names in backticks
/// (`z9` of a Position), when the value holds that word once as a word of its own.
fn err_in_tag(tag: &Tag, message: impl Into<String>, help: impl Into<String>) -> RecordError {
    let message = message.into();
    let named = message.split('`').nth(1).filter(|w| !w.is_empty());
    let word = named.and_then(|w| {
        let mut at = tag.value.match_indices(w).filter(|&(i, _)| {
            let before = tag.value[..i].chars().next_back();
            let after = tag.value[i + w.len()..].chars().next();
            let apart = |c: Option<char>| c.is_none_or(|c| !c.is_alphanumeric() && c != '-');
            apart(before) && apart(after)
        });
        match (at.next(), at.next()) {
            (Some((i, _)), None) => Some((i, w)),
            _ => None,
        }
    });
    let (column, length) = match word {
        Some((i, w)) => (
            tag.column + tag.value[..i].chars().count() as u32,
            w.chars().count() as u32,
        ),
        None => (tag.column, tag.value.chars().count() as u32),
    };
    RecordError {
        column,
        length,
        ..err(tag.line, column, message, help)
    }
}

/// Where the record reader is: a byte offset into the text, and the line and column (in characters) people
/// read, counted as it goes so that no position has to be worked out again from the start.
struct Cursor<'a> {
    src: &'a str,
    i: usize,
    line: u32,
    col: u32,
}

impl<'a> Cursor<'a> {
    /// The character at the cursor; move text is nearly all ASCII, where a byte is a character read without
    /// decoding.
    #[inline]
    fn peek(&self) -> Option<char> {
        let b = *self.src.as_bytes().get(self.i)?;
        if b.is_ascii() {
            Some(b as char)
        } else {
            self.src[self.i..].chars().next()
        }
    }

    fn bump(&mut self) {
        if let Some(c) = self.peek() {
            self.pass(c);
        }
    }

    /// Step over `c`, the character at the cursor.
    fn pass(&mut self, c: char) {
        if c == '\n' {
            self.line += 1;
            self.col = 1;
        } else {
            self.col += 1;
        }
        self.i += c.len_utf8();
    }

    /// Pass over white space. A byte at a time where it is ASCII, as between the moves it nearly always is.
    fn skip_space(&mut self) {
        let bytes = self.src.as_bytes();
        while let Some(&b) = bytes.get(self.i) {
            match b {
                b'\n' => {
                    self.line += 1;
                    self.col = 1;
                }
                _ if ascii_space(b) => self.col += 1,
                _ if b.is_ascii() => return,
                _ => match self.peek() {
                    Some(c) if c.is_whitespace() => {
                        self.col += 1;
                        self.i += c.len_utf8();
                        continue;
                    }
                    _ => return,
                },
            }
            self.i += 1;
        }
    }

    /// Pass over a word: up to white space or the `{` of a comment. ASCII bytes are taken without decoding.
    fn take_word(&mut self) -> &'a str {
        let start = self.i;
        let bytes = self.src.as_bytes();
        while let Some(&b) = bytes.get(self.i) {
            if b.is_ascii() {
                if ascii_space(b) || b == b'{' {
                    break;
                }
                self.col += 1;
                self.i += 1;
            } else {
                match self.peek() {
                    Some(c) if !c.is_whitespace() => {
                        self.col += 1;
                        self.i += c.len_utf8();
                    }
                    _ => break,
                }
            }
        }
        &self.src[start..self.i]
    }

    /// Pass over everything up to the next `stop` (an ASCII byte) or the end, found with one scan of the bytes.
    fn take_until(&mut self, stop: u8) -> &'a str {
        let start = self.i;
        let rest = &self.src.as_bytes()[start..];
        let len = rest.iter().position(|&b| b == stop).unwrap_or(rest.len());
        let taken = &self.src[start..start + len];
        match taken.rfind('\n') {
            Some(last) => {
                self.line += taken.bytes().filter(|&b| b == b'\n').count() as u32;
                self.col = 1 + taken[last + 1..].chars().count() as u32;
            }
            None => self.col += taken.chars().count() as u32,
        }
        self.i += len;
        taken
    }

    /// Pass over the characters for which `keep` holds, and return them as one slice of the text.
    fn take_while(&mut self, keep: impl Fn(char) -> bool) -> &'a str {
        let start = self.i;
        while let Some(c) = self.peek() {
            if !keep(c) {
                break;
            }
            self.pass(c);
        }
        &self.src[start..self.i]
    }
}

const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// Whether an ASCII byte is white space as `char::is_whitespace` sees it: `u8::is_ascii_whitespace` leaves out
/// the vertical tab.
fn ascii_space(b: u8) -> bool {
    b.is_ascii_whitespace() || b == b'\x0b'
}

/// A text's words, one space between each: how a comment is kept, and how the site puts a value on one line.
pub fn words_of(text: &str) -> String {
    if text.is_ascii() {
        // Byte by byte, without decoding: comments and descriptions are mostly ASCII prose, whose words are
        // already one space apart but where a line ends. So the text is copied in runs, each up to spacing
        // that is not a single space, rather than word by word.
        let bytes = text.as_bytes();
        let Some(first) = bytes.iter().position(|&b| !ascii_space(b)) else {
            return String::new();
        };
        let last = bytes
            .iter()
            .rposition(|&b| !ascii_space(b))
            .unwrap_or(first);
        let body = &text[first..=last];
        let b = body.as_bytes();
        let mut out = String::with_capacity(body.len());
        let mut run = 0;
        let mut i = 0;
        while i < b.len() {
            if !ascii_space(b[i]) {
                i += 1;
                continue;
            }
            // The body ends in a word, so spacing is always followed by one.
            if b[i] == b' ' && !ascii_space(b[i + 1]) {
                i += 1;
                continue;
            }
            out.push_str(&body[run..i]);
            out.push(' ');
            while ascii_space(b[i]) {
                i += 1;
            }
            run = i;
        }
        out.push_str(&body[run..]);
        return out;
    }
    let mut out = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// The most moves one record may hold. A long recorded match runs to a few hundred; the cap keeps a hostile
/// record (a 4 MiB file of one-letter moves) from making the checker hold, replay and render hundreds of
/// thousands of moves, each with its own page fragment and position.
pub const MAX_RECORD_MOVES: usize = 10_000;

impl Record {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|t| t.name == name)
            .map(|t| t.value.as_str())
    }

    fn tag_at(&self, name: &str) -> Option<&Tag> {
        self.tags.iter().find(|t| t.name == name)
    }

    /// A move as written, without its annotation.
    pub fn text_of(&self, m: &WrittenMove) -> &str {
        &self.move_texts[m.text.0 as usize..m.text.1 as usize]
    }

    /// A move's annotation: `!`, `?`, `!?`, `?!`, `!!`, `??` or empty.
    pub fn annotation_of(&self, m: &WrittenMove) -> &str {
        &self.move_texts[m.text.1 as usize..m.text.2 as usize]
    }

    pub fn kind(&self) -> Option<RecordKind> {
        self.tag("Kind").and_then(RecordKind::parse)
    }

    /// Reads a record. Tags must come first, one per line; `Event` and `Kind` are required.
    pub fn parse(src: &str) -> Result<Record, RecordError> {
        let (record, _) = Record::parse_text(src, true)?;
        record.validate()?;
        Ok(record)
    }

    /// [`Record::parse`] that keeps the tags and only counts the moves: the same errors, for a record whose
    /// moves are not needed (a game already replayed cleanly), without a string for every move.
    pub fn parse_counting(src: &str) -> Result<(Record, usize), RecordError> {
        let (record, count) = Record::parse_text(src, false)?;
        record.validate()?;
        Ok((record, count))
    }

    /// Reads bare move text (tags allowed but none required), e.g. a command line's `--after "1. @c3 a1-b2"`.
    pub fn parse_moves(src: &str) -> Result<Record, RecordError> {
        Record::parse_text(src, true).map(|(record, _)| record)
    }

    /// The record and how many moves it has; with `keep_moves` false the moves (and their comments) are
    /// counted, not kept.
    fn parse_text(src: &str, keep_moves: bool) -> Result<(Record, usize), RecordError> {
        let mut at = Cursor {
            src,
            i: 0,
            line: 1,
            col: 1,
        };
        let mut tags: Vec<Tag> = Vec::new();
        let mut moves: Vec<WrittenMove> = Vec::new();
        let mut move_texts = String::new();
        let mut intro = None;
        let mut result = None;
        let mut result_at = (0, 0);
        let mut number = None;
        let mut in_tags = true;
        let mut count = 0;
        loop {
            at.skip_space();
            let Some(c) = at.peek() else {
                break;
            };
            if c == '[' {
                if !in_tags {
                    return Err(err(
                        at.line,
                        at.col,
                        "a tag after the moves",
                        "tags come first, before the move text",
                    ));
                }
                let (tl, tc) = (at.line, at.col);
                at.bump();
                let name = at.take_while(|c| c.is_ascii_alphanumeric()).to_string();
                if name.is_empty() {
                    return Err(err(
                        tl,
                        tc,
                        "a tag without a name",
                        "write tags like [Event \"Demonstration\"]",
                    ));
                }
                at.take_while(|c| c == ' ');
                if at.peek() != Some('"') {
                    return Err(err(
                        at.line,
                        at.col,
                        format!("the value of tag `{name}` must be in double quotes"),
                        "write [Name \"value\"]",
                    ));
                }
                let (vl, vc) = (at.line, at.col);
                at.bump();
                let mut value = String::new();
                loop {
                    value.push_str(at.take_while(|c| !matches!(c, '"' | '\\' | '\n')));
                    match at.peek() {
                        None | Some('\n') => {
                            return Err(err(
                                vl,
                                vc,
                                format!("the value of tag `{name}` is not closed"),
                                "end it with `\"]` on the same line",
                            ));
                        }
                        Some('"') => {
                            at.bump();
                            break;
                        }
                        // A backslash escapes a quote or a backslash; before anything else it is itself.
                        Some(_) => {
                            let escaped = at.src[at.i + 1..].chars().next();
                            at.bump();
                            match escaped {
                                Some(e @ ('"' | '\\')) => {
                                    value.push(e);
                                    at.bump();
                                }
                                _ => value.push('\\'),
                            }
                        }
                    }
                }
                if at.peek() != Some(']') {
                    return Err(err(
                        at.line,
                        at.col,
                        "expected `]` after the tag's value",
                        "write [Name \"value\"]",
                    ));
                }
                at.bump();
                if tags.iter().any(|t| t.name == name) {
                    return Err(err(
                        tl,
                        tc,
                        format!("tag `{name}` is given twice"),
                        "keep one",
                    ));
                }
                tags.push(Tag {
                    name,
                    value,
                    line: vl,
                    column: vc + 1,
                });
                continue;
            }
            in_tags = false;
            if c == '{' {
                let (cl, cc) = (at.line, at.col);
                at.bump();
                let text = at.take_until(b'}');
                if at.peek().is_none() {
                    return Err(err(cl, cc, "this comment is not closed", "end it with `}`"));
                }
                at.bump();
                if count == 0 {
                    intro = Some(words_of(text));
                } else if let Some(m) = moves.last_mut() {
                    m.comment = Some(words_of(text).into_boxed_str());
                }
                continue;
            }
            let (wl, wc) = (at.line, at.col);
            let word = at.take_word();
            if result.is_some() {
                return Err(err(
                    wl,
                    wc,
                    format!("`{word}` after the result"),
                    "the result ends the move text",
                ));
            }
            if RESULTS.contains(&word) {
                result = Some(word.to_string());
                result_at = (wl, wc);
                continue;
            }
            // A move number: `12.` or `12...`, possibly glued to its move (`12.c2-c3`).
            let digits = word.bytes().take_while(u8::is_ascii_digit).count();
            let mut rest = word;
            let mut offset = 0u32;
            if digits > 0 && word[digits..].starts_with('.') {
                number = word[..digits].parse().ok();
                let after = word[digits..].trim_start_matches('.');
                // The number and its dots are ASCII: one column per byte.
                offset = (word.len() - after.len()) as u32;
                rest = after;
                if rest.is_empty() {
                    continue;
                }
            }
            let body = &rest[..rest.len()
                - rest
                    .bytes()
                    .rev()
                    .take_while(|&b| b == b'!' || b == b'?')
                    .count()];
            if body.is_empty() {
                return Err(err(
                    wl,
                    wc,
                    format!("`{word}` is not a move"),
                    "an annotation (`!`, `?`) follows a move without a space",
                ));
            }
            if count == MAX_RECORD_MOVES {
                return Err(err(
                    wl,
                    wc,
                    format!("more than {MAX_RECORD_MOVES} moves in one record"),
                    "split the record into several `.game` files",
                ));
            }
            count += 1;
            let number = number.take();
            if keep_moves {
                let start = move_texts.len() as u32;
                move_texts.push_str(rest);
                let end = move_texts.len() as u32;
                moves.push(WrittenMove {
                    text: (start, start + body.len() as u32, end),
                    number,
                    comment: None,
                    line: wl,
                    column: wc + offset,
                });
            }
        }
        let record = Record {
            tags,
            intro,
            moves,
            move_texts,
            result,
            result_at,
        };
        Ok((record, count))
    }

    fn validate(&self) -> Result<(), RecordError> {
        for required in ["Event", "Kind"] {
            if self.tag(required).is_none() {
                return Err(err(
                    1,
                    1,
                    format!("the record has no `{required}` tag"),
                    format!("add [{required} \"...\"] to the tags"),
                ));
            }
        }
        let kind_tag = self.tag_at("Kind").cloned().unwrap_or(Tag {
            name: "Kind".into(),
            value: String::new(),
            line: 0,
            column: 0,
        });
        let kind = RecordKind::parse(&kind_tag.value).ok_or_else(|| {
            err_in_tag(
                &kind_tag,
                format!("`{}` is not a record kind", kind_tag.value),
                "Kind is recorded, demonstration, illustrative or puzzle",
            )
        })?;
        if kind == RecordKind::Puzzle {
            for required in ["Position", "Question"] {
                if self.tag(required).is_none() {
                    return Err(err(
                        1,
                        1,
                        format!("a puzzle needs a `{required}` tag"),
                        format!("add [{required} \"...\"]"),
                    ));
                }
            }
        }
        if let Some(t) = self.tag_at("Result")
            && !RESULTS.contains(&t.value.as_str())
        {
            return Err(err_in_tag(
                t,
                format!("`{}` is not a result", t.value),
                "write 1-0, 0-1, 1/2-1/2 or *",
            ));
        }
        // Two results that disagree: whichever the site showed, the record would contradict itself. A game that
        // has ended says which is wrong (see `play_through`); here only the disagreement is known, so it is
        // reported where the moves end. `*` claims nothing, so it disagrees with no result.
        if let (Some(t), Some(written)) = (self.tag_at("Result"), self.result.as_deref())
            && t.value != written
            && t.value != "*"
            && written != "*"
        {
            let (line, column) = self.result_at;
            return Err(RecordError {
                length: written.chars().count() as u32,
                ..err(
                    line,
                    column,
                    format!(
                        "the moves end with {written} but the Result tag (line {}) says {}",
                        t.line, t.value
                    ),
                    "write the same result in both places, or leave it out after the moves",
                )
            });
        }
        Ok(())
    }
}

/// A record played through: every position (the start first), the moves, and how the game stands at the end.
#[derive(Clone, Debug)]
pub struct Replay<G: Game> {
    pub positions: Vec<G::Position>,
    pub moves: Vec<G::Move>,
    pub outcome: Option<Outcome>,
}

fn result_of(outcome: Option<Outcome>) -> &'static str {
    match outcome {
        Some(Outcome::Win(0)) => "1-0",
        Some(Outcome::Win(_)) => "0-1",
        Some(Outcome::Draw) => "1/2-1/2",
        None => "*",
    }
}

/// A record checked without keeping its positions: where it ends and how the game stands there.
#[derive(Clone, Debug)]
pub struct Checked<G: Game> {
    pub end: G::Position,
    /// Moves played.
    pub plies: usize,
    pub outcome: Option<Outcome>,
}

/// Replays a record: from its `Position` tag, or the start position. The `Result` tag (or result token), when
/// it is not `*`, must agree with the outcome if the game is over at the end.
pub fn replay<G: Game>(game: &G, record: &Record) -> Result<Replay<G>, RecordError> {
    let mut positions = Vec::with_capacity(record.moves.len() + 1);
    let mut moves = Vec::with_capacity(record.moves.len());
    let (_, outcome) = play_through(game, record, |pos, mv| {
        positions.push(pos.clone());
        moves.extend(mv);
    })?;
    Ok(Replay {
        positions,
        moves,
        outcome,
    })
}

/// Replays a record as `replay` does and reports the same errors, keeping only the last position: what a
/// checker needs, without a copy of every position.
pub fn check<G: Game>(game: &G, record: &Record) -> Result<Checked<G>, RecordError> {
    let mut plies = 0;
    let (end, outcome) = play_through(game, record, |_, mv| plies += usize::from(mv.is_some()))?;
    Ok(Checked {
        end,
        plies,
        outcome,
    })
}

/// Plays a record through, showing `visit` the start position, then each move with the position after it.
/// Each written move is checked and played by `parse_and_advance`, which follows what is written: the legal
/// moves are listed only to explain a move that is refused.
fn play_through<G: Game>(
    game: &G,
    record: &Record,
    mut visit: impl FnMut(&G::Position, Option<G::Move>),
) -> Result<(G::Position, Option<Outcome>), RecordError> {
    let mut pos = match record.tag_at("Position") {
        Some(t) => game.parse_position(&t.value).map_err(|m| {
            err_in_tag(
                t,
                format!("bad Position: {m}"),
                "see docs/notation.md for the setup-position syntax",
            )
        })?,
        None => game.start(),
    };
    visit(&pos, None);
    for m in &record.moves {
        let mv = match game.parse_and_advance(&mut pos, record.text_of(m)) {
            Ok(mv) => mv,
            Err(e) => {
                // The game is over exactly when no move is legal, so a move read as legal settles that it is
                // not; only a refused one needs `outcome` (which finds it without listing any move) to say why.
                if let Some(outcome) = game.outcome(&pos) {
                    return Err(err(
                        m.line,
                        m.column,
                        format!(
                            "`{}` is played after the game has ended ({})",
                            record.text_of(m),
                            result_of(Some(outcome))
                        ),
                        "remove the moves after the end of the game",
                    ));
                }
                let (message, help) = match e {
                    MoveError::Syntax(s) => (s, "see docs/notation.md for how moves are written"),
                    MoveError::Illegal(s) => (s, "play one of the legal moves listed"),
                };
                let mut e = err(m.line, m.column, message, help);
                let mut legal = Vec::new();
                match game.legal_moves(&pos, &mut legal) {
                    Ok(()) => {
                        e.legal_count = legal.len();
                        e.legal = legal
                            .iter()
                            .take(LEGAL_LISTED)
                            .map(|mv| game.format_move(&pos, mv))
                            .collect();
                    }
                    Err(too_many) => e.message = format!("{}; {too_many}", e.message),
                }
                return Err(e);
            }
        };
        visit(&pos, Some(mv));
    }
    let outcome = game.outcome(&pos);
    // The result after the moves and the tag's, each checked and reported where it is written.
    let written = record
        .result
        .as_deref()
        .map(|result| (result, record.result_at));
    let tagged = record
        .tag_at("Result")
        .map(|t| (t.value.as_str(), (t.line, t.column)));
    let wrong = [written, tagged]
        .into_iter()
        .flatten()
        .find(|&(claimed, _)| claimed != "*" && claimed != result_of(outcome));
    if let (Some((claimed, (l, c))), Some(_)) = (wrong, outcome) {
        return Err(RecordError {
            length: claimed.chars().count() as u32,
            ..err(
                l,
                c,
                format!(
                    "the result says {claimed} but the game ended {}",
                    result_of(outcome)
                ),
                "correct the result",
            )
        });
    }
    Ok((pos, outcome))
}

/// Writes a record's move text from moves played from `start`, numbering each pair of plies.
pub fn write_moves<G: Game>(game: &G, start: &G::Position, moves: &[G::Move]) -> String {
    let mut pos = start.clone();
    let mut out = String::new();
    for (i, mv) in moves.iter().enumerate() {
        if i % 2 == 0 {
            if i > 0 {
                out.push(if i % 16 == 0 { '\n' } else { ' ' });
            }
            out.push_str(&format!("{}. ", i / 2 + 1));
        } else {
            out.push(' ');
        }
        out.push_str(&game.format_move(&pos, mv));
        game.advance(&mut pos, mv);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A text's words one space apart, whatever spacing came between, before and after them: for random texts
    /// of words and every kind of ASCII spacing (and a few that are not ASCII, which take the other way).
    #[test]
    fn words_are_joined_by_single_spaces() {
        let pieces = [
            "a", "bc", "d.", " ", "  ", "\t", "\n", "\r\n", "\u{0b}", "\u{0c}", "é", "\u{a0}",
        ];
        let mut rng = crate::rng::Rng::new(7);
        for _ in 0..5000 {
            let text: String = (0..rng.below(12))
                .map(|_| pieces[rng.below(pieces.len())])
                .collect();
            let want = text.split_whitespace().collect::<Vec<_>>().join(" ");
            assert_eq!(words_of(&text), want, "{text:?}");
        }
    }

    #[test]
    fn an_error_in_a_tag_covers_the_word_it_names_or_the_whole_value() {
        let tag = Tag {
            name: "Position".into(),
            value: "tigers tiger a1; goats goat a2 z9 a3; to-move goats".into(),
            line: 4,
            column: 11,
        };
        let e = err_in_tag(&tag, "bad Position: no point named `z9`", "");
        assert_eq!((e.line, e.column, e.length), (4, 11 + 31, 2));
        // A word the value holds twice, or not at all, cannot be told apart: the whole value.
        let e = err_in_tag(&tag, "`goats` is unknown", "");
        assert_eq!((e.column, e.length), (11, 51));
        let e = err_in_tag(&tag, "`a` is unknown", "");
        assert_eq!((e.column, e.length), (11, 51));
        let kind = Tag {
            name: "Kind".into(),
            value: "démonstraton".into(),
            line: 2,
            column: 8,
        };
        let e = err_in_tag(&kind, "`démonstraton` is not a record kind", "");
        assert_eq!((e.column, e.length), (8, 12));
    }

    #[test]
    fn positions_count_characters_and_escapes_are_read() {
        let src = "[Event \"Bāgh \\\"Chāl\\\" a\\\\b \\q\"]\n{ā  b\n c} 1. @c3 a1-b2!? 12...ā\u{00a0}b2xb4 *";
        let record = Record::parse_moves(src).expect("the fixture parses");
        assert_eq!(record.tag("Event"), Some("Bāgh \"Chāl\" a\\b \\q"));
        assert_eq!((record.tags[0].line, record.tags[0].column), (1, 9));
        assert_eq!(record.intro.as_deref(), Some("ā b c"));
        let at: Vec<(&str, &str, Option<u32>, u32, u32)> = record
            .moves
            .iter()
            .map(|m| {
                (
                    record.text_of(m),
                    record.annotation_of(m),
                    m.number,
                    m.line,
                    m.column,
                )
            })
            .collect();
        assert_eq!(
            at,
            [
                ("@c3", "", Some(1), 3, 8),
                ("a1-b2", "!?", None, 3, 12),
                ("ā", "", Some(12), 3, 25),
                ("b2xb4", "", None, 3, 27),
            ]
        );
        assert_eq!(record.result.as_deref(), Some("*"));
        let unclosed = Record::parse_moves("[Event \"ā\\").expect_err("the value is not closed");
        assert_eq!((unclosed.line, unclosed.column), (1, 8));
        let glued = Record::parse_moves("ā {x} [Kind \"y\"]").expect_err("a tag after the moves");
        assert_eq!((glued.line, glued.column), (1, 7));
    }

    #[test]
    fn moves_comments_and_annotations_read_across_every_kind_of_space() {
        let src = "1.\u{0b}a1-a2??\r\n{ one\t two  \u{0c}three }\u{2003}b1-b2 {Nāga  words} c3!";
        let record = Record::parse_moves(src).expect("the fixture parses");
        let read: Vec<(&str, &str, Option<&str>, u32, u32)> = record
            .moves
            .iter()
            .map(|m| {
                (
                    record.text_of(m),
                    record.annotation_of(m),
                    m.comment.as_deref(),
                    m.line,
                    m.column,
                )
            })
            .collect();
        assert_eq!(
            read,
            [
                ("a1-a2", "??", Some("one two three"), 1, 4),
                ("b1-b2", "", Some("Nāga words"), 2, 22),
                ("c3", "!", None, 2, 42),
            ]
        );
        assert_eq!(record.move_texts, "a1-a2??b1-b2c3!");
        assert_eq!(
            Record::parse_counting("[Event \"e\"]\n[Kind \"demonstration\"]\n1. a b\u{0b}c")
                .unwrap()
                .1,
            3
        );
    }

    #[test]
    fn a_written_move_stays_small() {
        // Long records hold thousands of moves, all held while a record replays.
        assert!(std::mem::size_of::<WrittenMove>() <= 48);
    }

    #[test]
    fn counting_every_catalogued_record_agrees_with_parsing_it() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../catalog");
        let mut seen = 0;
        let mut stack = vec![root];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).expect("the catalog is readable") {
                let path = entry.expect("a folder entry").path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "game") {
                    let src = std::fs::read_to_string(&path).expect("a record is text");
                    let (counted, count) =
                        Record::parse_counting(&src).expect("a catalogued record");
                    let parsed = Record::parse(&src).expect("a catalogued record");
                    assert_eq!(count, parsed.moves.len(), "{}", path.display());
                    assert_eq!(counted.tags, parsed.tags, "{}", path.display());
                    assert_eq!(counted.intro, parsed.intro, "{}", path.display());
                    seen += 1;
                }
            }
        }
        assert!(seen > 10, "only {seen} records found");
    }
}
