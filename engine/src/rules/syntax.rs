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
    Block { head: Line, items: Vec<Item> },
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

/// Splits the text into lines of tokens. `#` starts a comment running to the end of the line.
pub fn tokenize(src: &str) -> Result<Vec<Line>, RulesError> {
    let mut lines = Vec::new();
    let mut current: Vec<Token> = Vec::new();
    let mut chars = src.chars().peekable();
    let (mut line, mut column) = (1u32, 1u32);
    while let Some(&c) = chars.peek() {
        let pos = Pos { line, column };
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
                match chars.next() {
                    Some('"') => {
                        column += 1;
                        break;
                    }
                    Some('\n') | None => {
                        return Err(RulesError::new(
                            pos,
                            "this string is not closed",
                            "close the string with a `\"` on the same line",
                        ));
                    }
                    Some(ch) => {
                        column += 1;
                        s.push(ch);
                    }
                }
            }
            current.push(Token {
                kind: TokenKind::Str(s),
                pos,
            });
        } else if matches!(c, ':' | ',' | ';') {
            chars.next();
            column += 1;
            current.push(Token {
                kind: TokenKind::Punct(c),
                pos,
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
                pos,
            });
        } else {
            return Err(RulesError::new(
                pos,
                format!("unexpected character `{c}`"),
                "words use letters, digits, `-`, `_`, `.`, `'` and `+`; titles go in double quotes; `#` starts a comment",
            ));
        }
    }
    if !current.is_empty() {
        lines.push(Line {
            tokens: current,
            end: Pos { line, column },
        });
    }
    Ok(lines)
}

/// Groups lines into statements and blocks.
pub fn parse(src: &str) -> Result<Vec<Item>, RulesError> {
    let lines = tokenize(src)?;
    let mut iter = lines.into_iter();
    let items = parse_items(&mut iter, None)?;
    Ok(items)
}

fn parse_items(
    iter: &mut std::vec::IntoIter<Line>,
    open: Option<&Line>,
) -> Result<Vec<Item>, RulesError> {
    let mut items = Vec::new();
    while let Some(line) = iter.next() {
        let kw = line.keyword().to_string();
        if kw == "end" && line.tokens.len() == 1 {
            if open.is_some() {
                return Ok(items);
            }
            return Err(RulesError::new(
                line.pos(),
                "`end` closes no block",
                "remove this line, or open a block (`board`, `setup`, `ruleset`, `sowing`) before it",
            ));
        }
        // `board` alone (or `ruleset NAME ...`) opens a block; `board` followed by more words is an error
        // reported by the compiler, which knows what the words should be.
        let opens = BLOCKS.contains(&kw.as_str()) && (kw == "ruleset" || line.tokens.len() == 1);
        if opens {
            let inner = parse_items(iter, Some(&line))?;
            items.push(Item::Block {
                head: line,
                items: inner,
            });
        } else {
            items.push(Item::Stmt(line));
        }
    }
    match open {
        Some(head) => Err(RulesError::new(
            head.pos(),
            format!("the `{}` block opened here is never closed", head.keyword()),
            "add a line `end` after the block's last statement",
        )),
        None => Ok(items),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_characters_not_bytes() {
        let lines = tokenize("game \"Sümi Naga\" # a comment\n  side goats: x\n").unwrap();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].tokens.len(), 2);
        let side = &lines[1].tokens;
        assert_eq!(side[0].pos, Pos { line: 2, column: 3 });
        assert_eq!(side[1].pos, Pos { line: 2, column: 8 });
        assert!(side[2].is_punct(':'));
        assert_eq!(
            side[3].pos,
            Pos {
                line: 2,
                column: 15
            }
        );
        let e = tokenize("side \"Süm\nend").unwrap_err();
        assert_eq!((e.line, e.column), (1, 6));
        let e = tokenize("side  goats * 2").unwrap_err();
        assert_eq!((e.line, e.column), (1, 13));
    }

    #[test]
    fn blocks_nest_and_close() {
        let items =
            parse("ruleset r \"R\"\n  setup\n    first a\n  end\nend\nboard\nend\n").unwrap();
        assert_eq!(items.len(), 2);
        match &items[0] {
            Item::Block { head, items } => {
                assert_eq!(head.keyword(), "ruleset");
                assert!(matches!(&items[0], Item::Block { .. }));
            }
            Item::Stmt(_) => panic!("a ruleset is a block"),
        }
        let e = parse("setup\n  first a\n").unwrap_err();
        assert_eq!((e.line, e.column), (1, 1));
    }
}
