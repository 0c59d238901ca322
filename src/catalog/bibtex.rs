//! A small BibTeX reader for `sources.bib`: entries with braced, quoted, numeric and abbreviated values joined
//! by `#`, `@string` abbreviations, `@comment` and `@preamble` (skipped), LaTeX accents turned into Unicode, and
//! `and`-separated name lists. Every entry, key and field keeps its byte span.

use std::collections::HashMap;

use super::Spanned;
use crate::diagnostic::Diagnostics;
use crate::source::{FileId, SourceMap, Span};

#[derive(Clone, Debug)]
pub struct BibField {
    /// Lowercase field name.
    pub name: String,
    /// The value with braces removed and LaTeX accents turned into Unicode.
    pub value: String,
    pub name_span: Span,
    pub value_span: Span,
}

#[derive(Clone, Debug)]
pub struct BibEntry {
    /// Lowercase entry type: `book`, `article`...
    pub kind: String,
    pub key: Spanned<String>,
    /// The `@type` token.
    pub span: Span,
    pub fields: Vec<BibField>,
    pub authors: Vec<String>,
    pub editors: Vec<String>,
}

impl BibEntry {
    pub fn field(&self, name: &str) -> Option<&BibField> {
        self.fields.iter().find(|f| f.name == name)
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.field(name).map(|f| f.value.as_str())
    }
}

/// The entries of `sources.bib`, in file order.
#[derive(Clone, Debug, Default)]
pub struct Bibliography {
    pub file: Option<FileId>,
    pub entries: Vec<BibEntry>,
    /// Lowercase key to the index of its first entry, so that looking up every `cite` stays linear.
    index: HashMap<String, usize>,
}

impl Bibliography {
    pub fn new(file: Option<FileId>, entries: Vec<BibEntry>) -> Self {
        let mut index = HashMap::new();
        for (i, entry) in entries.iter().enumerate() {
            index
                .entry(entry.key.value.to_ascii_lowercase())
                .or_insert(i);
        }
        Bibliography {
            file,
            entries,
            index,
        }
    }

    /// The first entry with this key (keys are compared as BibTeX does: ignoring case).
    pub fn get(&self, key: &str) -> Option<&BibEntry> {
        self.index
            .get(&key.to_ascii_lowercase())
            .map(|&i| &self.entries[i])
    }
}

/// A syntax problem: where, and what.
#[derive(Debug, PartialEq, Eq)]
pub struct SyntaxError {
    pub span: Span,
    pub message: String,
}

/// Parse the bibliography held in `file`, reporting syntax errors as E029.
pub fn parse(sources: &SourceMap, file: FileId, diagnostics: &mut Diagnostics) -> Bibliography {
    let (entries, errors) = parse_str(&sources.get(file).text);
    for error in errors {
        diagnostics
            .error_at(sources, file, error.span, "E029", error.message)
            .help = Some("see docs/record-format.md for the BibTeX accepted".into());
    }
    Bibliography::new(Some(file), entries)
}

/// Parse BibTeX text into entries, continuing after errors at the next `@`.
pub fn parse_str(text: &str) -> (Vec<BibEntry>, Vec<SyntaxError>) {
    let mut parser = Parser {
        text,
        bytes: text.as_bytes(),
        pos: 0,
        strings: HashMap::new(),
    };
    let mut entries = Vec::new();
    let mut errors = Vec::new();
    while let Some(at) = text[parser.pos..].find('@') {
        parser.pos += at;
        let item_start = parser.pos;
        match parser.item() {
            Ok(Some(entry)) => entries.push(entry),
            Ok(None) => {}
            Err(error) => {
                // Resume where the error is (it may be the `@` of the next entry), always moving forward.
                parser.pos = if error.span.start > item_start {
                    error.span.start
                } else {
                    item_start + 1
                };
                errors.push(error);
            }
        }
    }
    (entries, errors)
}

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    strings: HashMap<String, String>,
}

impl Parser<'_> {
    fn error<T>(&self, span: Span, message: impl Into<String>) -> Result<T, SyntaxError> {
        Err(SyntaxError {
            span,
            message: message.into(),
        })
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
            self.pos += 1;
        }
    }

    fn here(&self) -> Span {
        let end = self.text[self.pos..]
            .chars()
            .next()
            .map_or(self.pos, |c| self.pos + c.len_utf8());
        self.pos..end
    }

    /// A name: letters, digits and the punctuation BibTeX allows in keys and field names.
    fn name(&mut self) -> Span {
        let start = self.pos;
        while self.peek().is_some_and(|b| {
            b.is_ascii_alphanumeric()
                || matches!(b, b'-' | b'_' | b':' | b'.' | b'+' | b'/' | b'\'')
        }) {
            self.pos += 1;
        }
        start..self.pos
    }

    fn expect(&mut self, byte: u8, what: &str) -> Result<(), SyntaxError> {
        self.skip_space();
        if self.peek() == Some(byte) {
            self.pos += 1;
            Ok(())
        } else {
            self.error(self.here(), format!("expected {what}"))
        }
    }

    /// One `@...` item; `None` for `@string`, `@comment` and `@preamble`.
    fn item(&mut self) -> Result<Option<BibEntry>, SyntaxError> {
        let at = self.pos;
        self.pos += 1;
        let kind_span = self.name();
        let kind = self.text[kind_span.clone()].to_ascii_lowercase();
        if kind.is_empty() {
            return self.error(at..at + 1, "expected an entry type after `@`");
        }
        self.skip_space();
        let close = match self.peek() {
            Some(b'{') => b'}',
            Some(b'(') => b')',
            _ => return self.error(self.here(), format!("expected `{{` after `@{kind}`")),
        };
        let open_at = self.pos;
        self.pos += 1;
        match kind.as_str() {
            "comment" | "preamble" => {
                self.pos = open_at;
                self.balanced()?;
                Ok(None)
            }
            "string" => {
                self.skip_space();
                let name = self.name();
                if name.is_empty() {
                    return self.error(self.here(), "expected an abbreviation name");
                }
                self.expect(b'=', "`=`")?;
                let (_, value, _) = self.value()?;
                self.strings
                    .insert(self.text[name].to_ascii_lowercase(), value);
                self.expect(close, "the end of `@string`")?;
                Ok(None)
            }
            _ => self.entry(kind, at..kind_span.end, close).map(Some),
        }
    }

    fn entry(&mut self, kind: String, span: Span, close: u8) -> Result<BibEntry, SyntaxError> {
        self.skip_space();
        let key_span = self.name();
        if key_span.is_empty() {
            return self.error(self.here(), "expected a citation key");
        }
        let mut entry = BibEntry {
            kind,
            key: Spanned::new(self.text[key_span.clone()].to_string(), key_span),
            span,
            fields: Vec::new(),
            authors: Vec::new(),
            editors: Vec::new(),
        };
        loop {
            self.skip_space();
            match self.peek() {
                Some(b) if b == close => {
                    self.pos += 1;
                    return Ok(entry);
                }
                Some(b',') => {
                    self.pos += 1;
                    self.skip_space();
                    if self.peek() == Some(close) {
                        continue;
                    }
                }
                None => {
                    return self.error(
                        entry.span.clone(),
                        format!("entry `{}` is never closed", entry.key.value),
                    );
                }
                Some(b'@') => {
                    // Most often a brace left open in the last field swallowed the end of the entry.
                    return self.error(
                        self.here(),
                        format!(
                            "entry `{}` is not closed before the next entry; is a brace or quote in its last \
                             field left open?",
                            entry.key.value
                        ),
                    );
                }
                _ => return self.error(self.here(), "expected `,` between fields"),
            }
            let name_span = self.name();
            if name_span.is_empty() {
                return self.error(self.here(), "expected a field name");
            }
            self.expect(b'=', "`=` after the field name")?;
            let (raw, value, value_span) = self.value()?;
            let name = self.text[name_span.clone()].to_ascii_lowercase();
            match name.as_str() {
                "author" => entry.authors = split_names(&raw),
                "editor" => entry.editors = split_names(&raw),
                _ => {}
            }
            entry.fields.push(BibField {
                name,
                value,
                name_span,
                value_span,
            });
        }
    }

    /// A value: parts joined by `#`. Returns the raw text (braces kept, for splitting names), the cleaned
    /// value, and the span.
    fn value(&mut self) -> Result<(String, String, Span), SyntaxError> {
        let mut raw = String::new();
        self.skip_space();
        let start = self.pos;
        loop {
            self.skip_space();
            match self.peek() {
                Some(b'{') => {
                    let span = self.balanced()?;
                    raw.push_str(&self.text[span.start + 1..span.end - 1]);
                }
                Some(b'"') => {
                    let span = self.quoted()?;
                    raw.push_str(&self.text[span.start + 1..span.end - 1]);
                }
                Some(b) if b.is_ascii_digit() => {
                    let span = self.name();
                    raw.push_str(&self.text[span]);
                }
                Some(b) if b.is_ascii_alphabetic() => {
                    let span = self.name();
                    let name = self.text[span.clone()].to_ascii_lowercase();
                    match self.strings.get(&name).map(String::as_str).or(month(&name)) {
                        Some(text) => raw.push_str(text),
                        None => {
                            return self.error(span, format!("undefined abbreviation `{name}`"));
                        }
                    }
                }
                _ => {
                    return self.error(
                        self.here(),
                        "expected a value: `{...}`, `\"...\"` or a number",
                    );
                }
            }
            let end = self.pos;
            self.skip_space();
            if self.peek() == Some(b'#') {
                self.pos += 1;
            } else {
                let value = clean(&raw);
                return Ok((raw, value, start..end));
            }
        }
    }

    /// From the `{` or `(` at `pos` to the one that closes it; returns the span including both.
    fn balanced(&mut self) -> Result<Span, SyntaxError> {
        let start = self.pos;
        let (open, close) = if self.peek() == Some(b'(') {
            (b'(', b')')
        } else {
            (b'{', b'}')
        };
        let mut depth = 0usize;
        while let Some(b) = self.peek() {
            self.pos += 1;
            if b == open {
                depth += 1;
            } else if b == close {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Ok(start..self.pos);
                }
            }
        }
        let message = format!("unbalanced: this `{}` is never closed", open as char);
        self.error(start..start + 1, message)
    }

    /// A `"..."` value, in which braces may hide quotes.
    fn quoted(&mut self) -> Result<Span, SyntaxError> {
        let start = self.pos;
        self.pos += 1;
        let mut depth = 0usize;
        while let Some(b) = self.peek() {
            self.pos += 1;
            match b {
                b'{' => depth += 1,
                b'}' if depth > 0 => depth -= 1,
                b'"' if depth == 0 => return Ok(start..self.pos),
                _ => {}
            }
        }
        self.error(start..start + 1, "this `\"` is never closed")
    }
}

fn month(name: &str) -> Option<&'static str> {
    const MONTHS: [(&str, &str); 12] = [
        ("jan", "January"),
        ("feb", "February"),
        ("mar", "March"),
        ("apr", "April"),
        ("may", "May"),
        ("jun", "June"),
        ("jul", "July"),
        ("aug", "August"),
        ("sep", "September"),
        ("oct", "October"),
        ("nov", "November"),
        ("dec", "December"),
    ];
    MONTHS
        .iter()
        .find(|(m, _)| *m == name)
        .map(|(_, full)| *full)
}

/// Split a name list on `and` outside braces, then clean each name.
pub fn split_names(raw: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut depth = 0usize;
    let mut current = String::new();
    let words: Vec<&str> = raw.split_whitespace().collect();
    for word in words {
        if depth == 0 && word.eq_ignore_ascii_case("and") {
            names.push(std::mem::take(&mut current));
            continue;
        }
        for c in word.chars() {
            match c {
                '{' => depth += 1,
                '}' => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
        if !current.is_empty() {
            current.push(' ');
        }
        current.push_str(word);
    }
    names.push(current);
    names
        .iter()
        .map(|n| clean(n))
        .filter(|n| !n.is_empty())
        .collect()
}

/// Braces removed, LaTeX accents and symbols turned into Unicode, white space collapsed.
pub fn clean(raw: &str) -> String {
    let out = latex_to_unicode(raw);
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The combining mark of a LaTeX accent command.
fn combining_mark(accent: char) -> Option<char> {
    Some(match accent {
        '"' => '\u{308}',
        '\'' => '\u{301}',
        '`' => '\u{300}',
        '^' => '\u{302}',
        '~' => '\u{303}',
        '=' => '\u{304}',
        '.' => '\u{307}',
        'c' => '\u{327}',
        'v' => '\u{30C}',
        'u' => '\u{306}',
        'd' => '\u{323}',
        'H' => '\u{30B}',
        'k' => '\u{328}',
        'b' => '\u{331}',
        'r' => '\u{30A}',
        _ => return None,
    })
}

/// Precomposed letters for the accents that appear in names and transliterations, so that `{\"u}` is the
/// same character a keyboard would type; anything else gets a combining mark.
fn accented(accent: char, base: char) -> String {
    const TABLE: [(char, &str, &str); 15] = [
        ('"', "aeiouyAEIOUY", "äëïöüÿÄËÏÖÜŸ"),
        ('\'', "aeiouycnszgAEIOUYCNSZG", "áéíóúýćńśźǵÁÉÍÓÚÝĆŃŚŹǴ"),
        ('`', "aeiounAEIOUN", "àèìòùǹÀÈÌÒÙǸ"),
        ('^', "aeioucghjswyAEIOUCGHJSWY", "âêîôûĉĝĥĵŝŵŷÂÊÎÔÛĈĜĤĴŜŴŶ"),
        ('~', "anoiuAIUNO", "ãñõĩũÃĨŨÑÕ"),
        ('=', "aeiouAEIOU", "āēīōūĀĒĪŌŪ"),
        ('.', "zZnNmMcCgGeEI", "żŻṅṄṁṀċĊġĠėĖİ"),
        ('c', "cCsStT", "çÇşŞţŢ"),
        ('v', "csznrdteCSZNRDTE", "čšžňřďťěČŠŽŇŘĎŤĚ"),
        ('u', "agiuAGIU", "ăğĭŭĂĞĬŬ"),
        ('d', "hmnrstlHMNRSTL", "ḥṃṇṛṣṭḷḤṂṆṚṢṬḶ"),
        ('H', "oOuU", "őŐűŰ"),
        ('k', "aeAE", "ąęĄĘ"),
        ('r', "auAU", "åůÅŮ"),
        ('b', "", ""),
    ];
    for (mark, bases, results) in TABLE {
        if mark == accent
            && let Some(i) = bases.chars().position(|c| c == base)
            && let Some(r) = results.chars().nth(i)
        {
            return r.to_string();
        }
    }
    match combining_mark(accent) {
        Some(mark) => format!("{base}{mark}"),
        None => base.to_string(),
    }
}

fn latex_to_unicode(raw: &str) -> String {
    let chars: Vec<char> = raw.chars().collect();
    let mut out = String::with_capacity(raw.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '{' | '}' => i += 1,
            '~' => {
                out.push(' ');
                i += 1;
            }
            '-' if chars.get(i + 1) == Some(&'-') => {
                if chars.get(i + 2) == Some(&'-') {
                    out.push('—');
                    i += 3;
                } else {
                    out.push('–');
                    i += 2;
                }
            }
            '\\' => {
                i += 1;
                let Some(&next) = chars.get(i) else { break };
                if !next.is_ascii_alphabetic() {
                    i += 1;
                    if combining_mark(next).is_some() {
                        let (base, used) = accent_argument(&chars[i..]);
                        i += used;
                        match base {
                            Some(base) => out.push_str(&accented(next, base)),
                            None => out.push(next),
                        }
                    } else {
                        // \& \% \$ \_ \# \{ \} and friends stand for the character itself.
                        out.push(next);
                    }
                    continue;
                }
                let start = i;
                while chars.get(i).is_some_and(|c| c.is_ascii_alphabetic()) {
                    i += 1;
                }
                let word: String = chars[start..i].iter().collect();
                if word.len() == 1
                    && let Some(accent) =
                        word.chars().next().filter(|c| combining_mark(*c).is_some())
                {
                    while chars.get(i) == Some(&' ') {
                        i += 1;
                    }
                    let (base, used) = accent_argument(&chars[i..]);
                    i += used;
                    if let Some(base) = base {
                        out.push_str(&accented(accent, base));
                    }
                    continue;
                }
                match symbol(&word) {
                    Some(s) => out.push_str(s),
                    None => out.push_str(&word),
                }
                // A control word eats the space after it.
                if chars.get(i) == Some(&' ') {
                    i += 1;
                }
            }
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

/// The letter an accent applies to: `x`, `{x}`, `{\i}`, `\i`; and how many characters that took.
fn accent_argument(rest: &[char]) -> (Option<char>, usize) {
    let dotless = |c: char| match c {
        'i' => 'i',
        'j' => 'j',
        other => other,
    };
    match rest {
        ['{', '\\', c, '}', ..] => (Some(dotless(*c)), 4),
        ['{', c, '}', ..] => (Some(*c), 3),
        ['{', '}', ..] => (None, 2),
        ['\\', c, ..] => (Some(dotless(*c)), 2),
        [c, ..] if *c != '}' => (Some(*c), 1),
        _ => (None, 0),
    }
}

fn symbol(word: &str) -> Option<&'static str> {
    Some(match word {
        "ss" => "ß",
        "o" => "ø",
        "O" => "Ø",
        "ae" => "æ",
        "AE" => "Æ",
        "oe" => "œ",
        "OE" => "Œ",
        "aa" => "å",
        "AA" => "Å",
        "l" => "ł",
        "L" => "Ł",
        "i" => "ı",
        "j" => "ȷ",
        "textendash" => "–",
        "textemdash" => "—",
        "&" => "&",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_with_braces_quotes_and_strings() {
        let text = r#"
@string{mac = "Macmillan"}
@comment{ anything {here} }
@book{hutton-1921-sema,
  author = {Hutton, John Henry and {Barnes and Noble}},
  title = "The {Sema} Nagas",
  year = 1921,
  publisher = mac # { and Co.},
}
"#;
        let (entries, errors) = parse_str(text);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(entries.len(), 1);
        let e = &entries[0];
        assert_eq!(e.key.value, "hutton-1921-sema");
        assert_eq!(&text[e.key.span.clone()], "hutton-1921-sema");
        assert_eq!(e.get("title"), Some("The Sema Nagas"));
        assert_eq!(e.get("year"), Some("1921"));
        assert_eq!(e.get("publisher"), Some("Macmillan and Co."));
        assert_eq!(e.authors, vec!["Hutton, John Henry", "Barnes and Noble"]);
        let title = e.field("title").unwrap();
        assert_eq!(&text[title.value_span.clone()], "\"The {Sema} Nagas\"");
    }

    #[test]
    fn latex_accents_become_unicode() {
        assert_eq!(clean(r#"Terh{\"u}ch{\"u}"#), "Terhüchü");
        assert_eq!(clean(r#"S\"{u}mi \'{e}t\'e na\"{\i}ve"#), "Sümi été naïve");
        assert_eq!(clean(r"\d{s}a\d{t}ra \=a \v{c} \c{c}"), "ṣaṭra ā č ç");
        assert_eq!(clean(r"Stra\ss e, \o{}re, 10--12"), "Straße, øre, 10–12");
        // an unknown combination keeps a combining mark
        assert_eq!(clean(r"\d{k}"), "k\u{323}");
    }

    #[test]
    fn errors_are_reported_and_parsing_continues() {
        let text = "@book{a, title = {x}\n@book{b, title={y}, year = undefinedabbr}\n@article{c, title={z}}";
        let (entries, errors) = parse_str(text);
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert!(errors[1].message.contains("undefinedabbr"));
        assert_eq!(
            entries
                .iter()
                .map(|e| e.key.value.as_str())
                .collect::<Vec<_>>(),
            vec!["c"]
        );
    }

    #[test]
    fn comments_and_preambles_are_skipped() {
        let (entries, errors) = parse_str(
            "@comment(a (b) c) @preamble{ \"x\" } @comment{ {nested} @book{no} }\n@misc{k, title={T}}",
        );
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(entries.len(), 1);
        assert_eq!(entries[0].key.value, "k");
    }

    #[test]
    fn parenthesised_entries() {
        let (entries, errors) = parse_str("@misc(k, title = {A (B)})");
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(entries[0].get("title"), Some("A (B)"));
    }
}
