//! The text of every file the catalog reader opened, kept so that a diagnostic can quote the line it is about.
//!
//! Positions inside the reader are byte offsets; people read line:column, with the column counted in characters
//! (not bytes), so that `Bāgh` and `Bagh` put the caret under the same letter.

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// A byte range inside one file.
pub type Span = Range<usize>;

/// Index of a file in a [`SourceMap`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileId(pub u32);

/// One file's path (as it will be printed) and text.
#[derive(Clone, Debug)]
pub struct SourceFile {
    pub path: PathBuf,
    /// Shared: a long-running process keeps each file as read between builds, and a build's copy of an
    /// unchanged file is the same text, not another.
    pub text: std::sync::Arc<str>,
    /// Byte offset where each line starts; the first entry is always 0. Found on first use: only a file with
    /// a diagnostic needs them, and for a large catalog they would take a quarter of the text's size again.
    line_starts: OnceLock<Vec<usize>>,
}

/// A place in a file as a person reads it: 1-based line and column (in characters).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub line: usize,
    pub column: usize,
}

impl SourceFile {
    pub fn new(path: PathBuf, text: String) -> Self {
        SourceFile {
            path,
            text: text.into(),
            line_starts: OnceLock::new(),
        }
    }

    fn line_starts(&self) -> &[usize] {
        self.line_starts.get_or_init(|| {
            let mut starts = vec![0];
            starts.extend(self.text.match_indices('\n').map(|(i, _)| i + 1));
            starts
        })
    }

    /// The 0-based index of the line holding `offset`.
    fn line_index(&self, offset: usize) -> usize {
        match self.line_starts().binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1, // line_starts[0] == 0 <= offset, so i >= 1 here
        }
    }

    /// Clamp an offset into the text and back onto a character boundary, so that any span, even one computed
    /// from a damaged file, can be shown.
    fn clamp(&self, offset: usize) -> usize {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        offset
    }

    pub fn position(&self, offset: usize) -> Position {
        let offset = self.clamp(offset);
        let line = self.line_index(offset);
        let start = self.line_starts()[line];
        Position {
            line: line + 1,
            column: self.text[start..offset].chars().count() + 1,
        }
    }

    /// The byte offset of a 1-based line and column (columns in characters), for tools that report positions
    /// that way (the rules language does). Positions past the end of a line or of the file are clamped to it.
    pub fn offset(&self, line: usize, column: usize) -> usize {
        let Some(&start) = self.line_starts().get(line.saturating_sub(1)) else {
            return self.text.len();
        };
        let text = self.line_text(line.max(1));
        let within = text
            .char_indices()
            .nth(column.saturating_sub(1))
            .map_or(text.len(), |(i, _)| i);
        start + within
    }

    /// The byte span of `length` characters starting at a 1-based line and column (not past the line's end).
    pub fn span_at(&self, line: usize, column: usize, length: usize) -> Span {
        let start = self.offset(line, column);
        let rest = &self.text[start..];
        let rest = &rest[..rest.find(['\r', '\n']).unwrap_or(rest.len())];
        let end = rest
            .char_indices()
            .nth(length)
            .map_or(rest.len(), |(i, _)| i);
        start..start + end
    }

    /// The text of the 1-based line `line`, without its line ending.
    pub fn line_text(&self, line: usize) -> &str {
        let Some(&start) = self.line_starts().get(line.wrapping_sub(1)) else {
            return "";
        };
        let end = self
            .line_starts()
            .get(line)
            .copied()
            .unwrap_or(self.text.len());
        self.text[start..end].trim_end_matches(['\n', '\r'])
    }

    /// How many characters of `span` lie on its first line (at least 1, so a caret is always drawn).
    pub fn span_width(&self, span: &Span) -> usize {
        let start = self.clamp(span.start);
        let end = self.clamp(span.end.max(start));
        let first_line = &self.text[start..end];
        let first_line = first_line.split('\n').next().unwrap_or("");
        first_line.trim_end_matches('\r').chars().count().max(1)
    }
}

/// Every file read while loading a catalog.
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    pub fn add(&mut self, path: PathBuf, text: String) -> FileId {
        let id = FileId(self.files.len() as u32);
        self.files.push(SourceFile::new(path, text));
        id
    }

    /// Make room for `more` files.
    pub fn reserve(&mut self, more: usize) {
        self.files.reserve(more);
    }

    /// How many files the map holds.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// Add a copy of every file of `other` at the end of this map (the texts are shared, not copied).
    pub fn extend_from(&mut self, other: &SourceMap) {
        self.files.extend(other.files.iter().cloned());
    }

    /// Move every file of `other` to the end of this map; returns how to turn `other`'s ids into ids here.
    pub fn append(&mut self, other: SourceMap) -> impl Fn(FileId) -> FileId + use<> {
        let offset = self.files.len() as u32;
        self.files.extend(other.files);
        move |id| FileId(id.0 + offset)
    }

    pub fn get(&self, id: FileId) -> &SourceFile {
        // FileIds are only made by `add` on this map, so the index exists.
        &self.files[id.0 as usize]
    }

    pub fn path(&self, id: FileId) -> &Path {
        &self.get(id).path
    }

    pub fn iter(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.files
            .iter()
            .enumerate()
            .map(|(i, f)| (FileId(i as u32), f))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_characters_not_bytes() {
        let f = SourceFile::new("x".into(), "ab\nBāgh Chāl\n".into());
        let offset = "ab\nBāgh ".len();
        assert_eq!(f.position(offset), Position { line: 2, column: 6 });
        assert_eq!(f.line_text(2), "Bāgh Chāl");
        assert_eq!(f.position(0), Position { line: 1, column: 1 });
    }

    #[test]
    fn line_and_column_back_to_offsets() {
        let text = "ab\nBāgh Chāl\n";
        let f = SourceFile::new("x".into(), text.into());
        let offset = f.offset(2, 6);
        assert_eq!(&text[offset..], "Chāl\n");
        assert_eq!(f.position(offset), Position { line: 2, column: 6 });
        assert_eq!(&text[f.span_at(2, 1, 4)], "Bāgh");
        assert_eq!(&text[f.span_at(2, 6, 99)], "Chāl");
        assert_eq!(f.offset(9, 1), text.len());
    }

    #[test]
    fn appended_maps_renumber_their_files() {
        let mut a = SourceMap::default();
        a.add("a".into(), "1".into());
        let mut b = SourceMap::default();
        let b0 = b.add("b".into(), "2".into());
        let b1 = b.add("c".into(), "3".into());
        let renumber = a.append(b);
        assert_eq!(a.path(renumber(b0)), Path::new("b"));
        assert_eq!(&*a.get(renumber(b1)).text, "3");
    }

    #[test]
    fn span_width_stops_at_line_end() {
        let f = SourceFile::new("x".into(), "abc\ndef".into());
        assert_eq!(f.span_width(&(1..6)), 2);
        assert_eq!(f.span_width(&(2..2)), 1);
    }
}
