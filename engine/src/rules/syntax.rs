//! The surface syntax of a rules file: words, quoted strings and a little punctuation, one statement per line,
//! and blocks (`board`, `setup`, `ruleset`, `sowing`) closed by `end`. Meaning is given later, by the compiler;
//! keeping the two apart lets a ruleset restate any statement without the parser knowing what it means.

use super::error::{Pos, RulesError};

#[derive(Clone, Debug, PartialEq)]
pub enum TokenKind {
    /// Letters, digits and `- _ . ' +`: keywords, point names, numbers, source keys, page ranges.
    Word(String),
    /// A double-quoted string: titles and names shown to people.
    Str(String),
    /// One of `: , ;`.
    Punct(char),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    pub kind: TokenKind,
    pub pos: Pos,
}

impl Token {
    pub fn word(&self) -> Option<&str> {
        match &self.kind {
            TokenKind::Word(w) => Some(w),
            _ => None,
        }
    }

    pub fn is_word(&self, w: &str) -> bool {
        self.word() == Some(w)
    }

    pub fn is_punct(&self, c: char) -> bool {
        self.kind == TokenKind::Punct(c)
    }

    /// How the token reads in an error message.
    pub fn show(&self) -> String {
        match &self.kind {
            TokenKind::Word(w) => format!("`{w}`"),
            TokenKind::Str(s) => format!("\"{s}\""),
            TokenKind::Punct(c) => format!("`{c}`"),
        }
    }
}

/// One statement: the tokens of one line (never empty), and where the line ends, for "missing value" errors.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub tokens: Vec<Token>,
    pub end: Pos,
}

impl Line {
    pub fn keyword(&self) -> &str {
        self.tokens[0].word().unwrap_or("")
    }

    pub fn pos(&self) -> Pos {
        self.tokens[0].pos
    }
}

/// A statement or a block of statements.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    Stmt(Line),
    /// `close` is where the block's `end` stands (its head, when the block is never closed): a required
    /// statement that is missing belongs just before it.
    Block {
        head: Line,
        items: Vec<Item>,
        close: Pos,
    },
}

impl Item {
    pub fn head(&self) -> &Line {
        match self {
            Item::Stmt(l) => l,
            Item::Block { head, .. } => head,
        }
    }
}

const BLOCKS: [&str; 4] = ["board", "setup", "ruleset", "sowing"];

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | '\'' | '+')
}

/// Splits the text into lines of tokens. `#` starts a comment running to the end of the line. A problem is
/// recorded in `errors` and reading goes on (an unclosed string ends at the end of its line, an unexpected
/// character is skipped), so that one slip does not hide the rest of the file's problems.
pub fn tokenize(src: &str, errors: &mut Vec<RulesError>) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut current: Vec<Token> = Vec::new();
    let mut chars = src.chars().peekable();
    let (mut line, mut column) = (1u32, 1u32);
    while let Some(&c) = chars.peek() {
        let pos = Pos::at(line, column);
        if c == '\n' {
            chars.next();
            if !current.is_empty() {
                lines.push(Line {
                    tokens: std::mem::take(&mut current),
                    end: pos,
                });
            }
            line += 1;
            column = 1;
        } else if c.is_whitespace() {
            chars.next();
            column += 1;
        } else if c == '#' {
            while let Some(&c) = chars.peek() {
                if c == '\n' {
                    break;
                }
                chars.next();
                column += 1;
            }
        } else if c == '"' {
            chars.next();
            column += 1;
            let mut s = String::new();
            loop {
                match chars.peek().copied() {
                    Some('"') => {
                        chars.next();
                        column += 1;
                        break;
                    }
                    // The string ends with its line, which is read on as if it were closed there.
                    Some('\n') | None => {
                        errors.push(RulesError::new(
                            Pos {
                                len: column - pos.column,
                                ..pos
                            },
                            "this string is not closed",
                            "close the string with a `\"` on the same line",
                        ));
                        break;
                    }
                    Some(ch) => {
                        chars.next();
                        column += 1;
                        s.push(ch);
                    }
                }
            }
            current.push(Token {
                kind: TokenKind::Str(s),
                pos: Pos {
                    len: column - pos.column,
                    ..pos
                },
            });
        } else if matches!(c, ':' | ',' | ';') {
            chars.next();
            column += 1;
            current.push(Token {
                kind: TokenKind::Punct(c),
                pos: Pos { len: 1, ..pos },
            });
        } else if is_word_char(c) {
            let mut w = String::new();
            while let Some(&c) = chars.peek() {
                if !is_word_char(c) {
                    break;
                }
                w.push(c);
                chars.next();
                column += 1;
            }
            current.push(Token {
                kind: TokenKind::Word(w),
                pos: Pos {
                    len: column - pos.column,
                    ..pos
                },
            });
        } else {
            chars.next();
            column += 1;
            errors.push(RulesError::new(
                Pos { len: 1, ..pos },
                format!("unexpected character `{c}`"),
                "words use letters, digits, `-`, `_`, `.`, `'` and `+`; titles go in double quotes; `#` starts a comment",
            ));
        }
    }
    if !current.is_empty() {
        lines.push(Line {
            tokens: current,
            end: Pos::at(line, column),
        });
    }
    lines
}

/// Groups lines into statements and blocks. Problems are recorded in `errors`; what can be read is returned.
pub fn parse(src: &str, errors: &mut Vec<RulesError>) -> Vec<Item> {
    let lines = tokenize(src, errors);
    let mut iter = lines.into_iter();
    parse_items(&mut iter, None, errors).0
}

/// The items up to the `end` closing `open` (or the end of the file), and where that `end` stands.
fn parse_items(
    iter: &mut std::vec::IntoIter<Line>,
    open: Option<&Line>,
    errors: &mut Vec<RulesError>,
) -> (Vec<Item>, Option<Pos>) {
    let mut items = Vec::new();
    while let Some(line) = iter.next() {
        let kw = line.keyword().to_string();
        if kw == "end" && line.tokens.len() == 1 {
            if open.is_some() {
                return (items, Some(line.pos()));
            }
            errors.push(RulesError::new(
                line.pos(),
                "`end` closes no block",
                "remove this line, or open a block (`board`, `setup`, `ruleset`, `sowing`) before it",
            ));
            continue;
        }
        // `board` alone (or `ruleset NAME ...`) opens a block; `board` followed by more words is an error
        // reported by the compiler, which knows what the words should be.
        let opens = BLOCKS.contains(&kw.as_str()) && (kw == "ruleset" || line.tokens.len() == 1);
        if opens {
            let (inner, close) = parse_items(iter, Some(&line), errors);
            let close = close.unwrap_or_else(|| line.pos());
            items.push(Item::Block {
                head: line,
                items: inner,
                close,
            });
        } else {
            items.push(Item::Stmt(line));
        }
    }
    if let Some(head) = open {
        errors.push(RulesError::new(
            head.tokens[0].pos,
            format!("the `{}` block opened here is never closed", head.keyword()),
            "add a line `end` after the block's last statement",
        ));
    }
    (items, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_characters_not_bytes() {
        let mut errors = Vec::new();
        let lines = tokenize(
            "game \"Sümi Naga\" # a comment\n  side goats: x\n",
            &mut errors,
        );
        assert!(errors.is_empty());
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].tokens.len(), 2);
        let side = &lines[1].tokens;
        assert_eq!((side[0].pos.line, side[0].pos.column), (2, 3));
        assert_eq!((side[1].pos.column, side[1].pos.len), (8, 5));
        assert!(side[2].is_punct(':'));
        assert_eq!(side[3].pos.column, 15);
        assert_eq!(lines[0].tokens[1].pos.len, 11, "a string spans its quotes");
        // Reading goes on after each problem: both are reported, and the lines after them are read.
        let lines = tokenize("side \"Süm\nside  goats * 2\nend", &mut errors);
        let at: Vec<(u32, u32, u32)> = errors
            .iter()
            .map(|e| (e.line, e.column, e.length))
            .collect();
        assert_eq!(at, [(1, 6, 4), (2, 13, 1)]);
        assert_eq!(lines.len(), 3);
    }

    #[test]
    fn blocks_nest_and_close() {
        let mut errors = Vec::new();
        let items = parse(
            "ruleset r \"R\"\n  setup\n    first a\n  end\nend\nboard\nend\n",
            &mut errors,
        );
        assert!(errors.is_empty());
        assert_eq!(items.len(), 2);
        match &items[0] {
            Item::Block { head, items, close } => {
                assert_eq!(head.keyword(), "ruleset");
                assert!(matches!(&items[0], Item::Block { .. }));
                assert_eq!((close.line, close.column), (5, 1));
            }
            Item::Stmt(_) => panic!("a ruleset is a block"),
        }
        let items = parse("end\nsetup\n  first a\n", &mut errors);
        let at: Vec<(u32, u32)> = errors.iter().map(|e| (e.line, e.column)).collect();
        assert_eq!(at, [(1, 1), (2, 1)]);
        assert_eq!(items.len(), 1, "the unclosed block keeps what it holds");
    }
}
