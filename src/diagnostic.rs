//! Diagnostics: what `check` found, where, and how to fix it; rendered for people (like rustc) or as JSON Lines.
//!
//! A diagnostic resolves its position when it is made (file, line, column, the quoted source line), so rendering
//! needs nothing but the diagnostic itself, and code outside the catalog reader (the rules engine, later) can add
//! diagnostics with [`Diagnostics::error_at`] / [`Diagnostics::warning_at`] given a file and a byte span, or build
//! one with [`Diagnostic::at_line_column`] from a line and column and [`Diagnostics::push`] it.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::source::{FileId, SourceMap, Span};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// Where a diagnostic points. `line` is 0 when only the file is known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    pub file: PathBuf,
    pub line: usize,
    pub column: usize,
    /// Length of the underlined text, in characters, on the first line of the span.
    pub length: usize,
    /// The whole source line, for the excerpt.
    pub source_line: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// Stable code such as `E012` or `W003`; documented in docs/diagnostics.md.
    pub code: &'static str,
    pub message: String,
    pub location: Option<Location>,
    pub help: Option<String>,
    pub notes: Vec<String>,
}

impl Diagnostic {
    pub fn new(severity: Severity, code: &'static str, message: impl Into<String>) -> Self {
        Diagnostic {
            severity,
            code,
            message: message.into(),
            location: None,
            help: None,
            notes: Vec::new(),
        }
    }

    pub fn error(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(Severity::Error, code, message)
    }

    pub fn warning(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(Severity::Warning, code, message)
    }

    /// Point at a byte span of a file the catalog reader loaded.
    pub fn at(mut self, sources: &SourceMap, file: FileId, span: Span) -> Self {
        let source = sources.get(file);
        let position = source.position(span.start);
        self.location = Some(Location {
            file: source.path.to_path_buf(),
            line: position.line,
            column: position.column,
            length: source.span_width(&span),
            source_line: source.line_text(position.line).to_string(),
        });
        self
    }

    /// Point at `length` characters from a 1-based line and column of a loaded file, for code that reports
    /// positions as line:column rather than byte offsets (the rules language).
    pub fn at_line_column(
        self,
        sources: &SourceMap,
        file: FileId,
        line: usize,
        column: usize,
        length: usize,
    ) -> Self {
        let span = sources.get(file).span_at(line, column, length);
        self.at(sources, file, span)
    }

    /// Point at a whole file, for problems that have no place inside it (a missing file, an unreadable one).
    pub fn in_file(mut self, path: &Path) -> Self {
        self.location = Some(Location {
            file: path.to_path_buf(),
            line: 0,
            column: 0,
            length: 0,
            source_line: String::new(),
        });
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    fn sort_key(&self) -> (Option<(&Path, usize, usize)>, &'static str, &str) {
        (
            self.location
                .as_ref()
                .map(|l| (l.file.as_path(), l.line, l.column)),
            self.code,
            &self.message,
        )
    }
}

/// The diagnostics of one run.
#[derive(Clone, Debug, Default)]
pub struct Diagnostics {
    list: Vec<Diagnostic>,
}

impl Diagnostics {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn push(&mut self, diagnostic: Diagnostic) {
        self.list.push(diagnostic);
    }

    /// Add an error at a byte span of a loaded file; returns it so help and notes can be attached.
    pub fn error_at(
        &mut self,
        sources: &SourceMap,
        file: FileId,
        span: Span,
        code: &'static str,
        message: impl Into<String>,
    ) -> &mut Diagnostic {
        self.push_at(Diagnostic::error(code, message).at(sources, file, span))
    }

    /// Add a warning at a byte span of a loaded file.
    pub fn warning_at(
        &mut self,
        sources: &SourceMap,
        file: FileId,
        span: Span,
        code: &'static str,
        message: impl Into<String>,
    ) -> &mut Diagnostic {
        self.push_at(Diagnostic::warning(code, message).at(sources, file, span))
    }

    fn push_at(&mut self, diagnostic: Diagnostic) -> &mut Diagnostic {
        self.list.push(diagnostic);
        // Just pushed, so the vector is not empty.
        self.list.last_mut().expect("a diagnostic was just pushed")
    }

    pub fn error_count(&self) -> usize {
        self.list
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count()
    }

    pub fn warning_count(&self) -> usize {
        self.list.len() - self.error_count()
    }

    pub fn has_errors(&self) -> bool {
        self.list.iter().any(|d| d.severity == Severity::Error)
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Keep only the diagnostics `keep` accepts.
    pub fn retain(&mut self, keep: impl FnMut(&Diagnostic) -> bool) {
        self.list.retain(keep);
    }

    /// Sort by file, then position, so output is stable whatever order the checks ran in.
    pub fn sort(&mut self) {
        self.list.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Diagnostic> {
        self.list.iter()
    }

    pub fn into_vec(self) -> Vec<Diagnostic> {
        self.list
    }
}

impl Diagnostic {
    /// Render like rustc: a header, the place, the source line with a caret underline, then help and notes.
    pub fn render_human(&self, color: bool) -> String {
        let paint = Paint(color);
        let mut out = String::new();
        let (level, level_style) = match self.severity {
            Severity::Error => ("error", RED),
            Severity::Warning => ("warning", YELLOW),
        };
        let _ = writeln!(
            out,
            "{}{}",
            paint.style(&format!("{level}[{}]", self.code), level_style),
            paint.style(&format!(": {}", self.message), BOLD)
        );
        let gutter_width = self
            .location
            .as_ref()
            .map_or(1, |l| l.line.to_string().len());
        let pad = " ".repeat(gutter_width);
        let bar = paint.style("|", BLUE);
        if let Some(location) = &self.location {
            let arrow = paint.style("-->", BLUE);
            if location.line == 0 {
                let _ = writeln!(out, "{pad}{arrow} {}", location.file.display());
            } else {
                let _ = writeln!(
                    out,
                    "{pad}{arrow} {}:{}:{}",
                    location.file.display(),
                    location.line,
                    location.column
                );
                // Copy tabs from the source so the carets line up under them.
                let indent: String = location
                    .source_line
                    .chars()
                    .take(location.column - 1)
                    .map(|c| if c == '\t' { '\t' } else { ' ' })
                    .collect();
                let carets = "^".repeat(location.length.max(1));
                let _ = writeln!(out, "{pad} {bar}");
                let _ = writeln!(
                    out,
                    "{} {bar} {}",
                    paint.style(&location.line.to_string(), BLUE),
                    location.source_line
                );
                let _ = writeln!(
                    out,
                    "{pad} {bar} {indent}{}",
                    paint.style(&carets, level_style)
                );
            }
        }
        if self.help.is_some() || !self.notes.is_empty() {
            if self.location.as_ref().is_some_and(|l| l.line > 0) {
                let _ = writeln!(out, "{pad} {bar}");
            }
            for note in &self.notes {
                let _ = writeln!(out, "{pad} {} note: {note}", paint.style("=", BLUE));
            }
            if let Some(help) = &self.help {
                let _ = writeln!(out, "{pad} {} help: {help}", paint.style("=", BLUE));
            }
        }
        out
    }

    /// One JSON object on one line; the fields are documented in docs/diagnostics.md.
    pub fn render_json(&self) -> String {
        #[derive(Serialize)]
        struct Json<'a> {
            severity: Severity,
            code: &'a str,
            message: &'a str,
            file: Option<String>,
            line: Option<usize>,
            column: Option<usize>,
            length: Option<usize>,
            help: Option<&'a str>,
            notes: &'a [String],
        }
        let located = self.location.as_ref().filter(|l| l.line > 0);
        let json = Json {
            severity: self.severity,
            code: self.code,
            message: &self.message,
            file: self.location.as_ref().map(|l| l.file.display().to_string()),
            line: located.map(|l| l.line),
            column: located.map(|l| l.column),
            length: located.map(|l| l.length),
            help: self.help.as_deref(),
            notes: &self.notes,
        };
        // Serializing plain strings and numbers cannot fail.
        serde_json::to_string(&json).expect("a diagnostic serializes to JSON")
    }
}

const RED: &str = "\x1b[1;31m";
const YELLOW: &str = "\x1b[1;33m";
const BLUE: &str = "\x1b[1;34m";
const BOLD: &str = "\x1b[1m";

/// ANSI styling that is a no-op when output is not a terminal.
struct Paint(bool);

impl Paint {
    fn style(&self, text: &str, style: &str) -> String {
        if self.0 {
            format!("{style}{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn human_rendering_underlines_the_span() {
        let mut sources = SourceMap::default();
        let file = sources.add(
            "a/record.xml".into(),
            "<r>\n  <dcterms:titel>x</dcterms:titel>\n".into(),
        );
        let d = Diagnostic::error("E009", "unknown term")
            .at(&sources, file, 7..20)
            .with_help("did you mean `dcterms:title`?");
        assert_eq!(
            d.render_human(false),
            "error[E009]: unknown term\n --> a/record.xml:2:4\n  |\n2 |   <dcterms:titel>x</dcterms:titel>\n  |    ^^^^^^^^^^^^^\n  |\n  = help: did you mean `dcterms:title`?\n"
        );
    }

    #[test]
    fn json_is_one_line_with_position() {
        let mut sources = SourceMap::default();
        let file = sources.add("r.xml".into(), "abc\ndef".into());
        let d = Diagnostic::warning("W003", "twice").at(&sources, file, 5..6);
        let json = d.render_json();
        assert!(!json.contains('\n'));
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["line"], 2);
        assert_eq!(v["column"], 2);
        assert_eq!(v["severity"], "warning");
    }
}
