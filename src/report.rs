//! Writing diagnostics out: the human report (rustc-like, then a summary line) or JSON Lines.

use std::io::{self, Write};

use crate::diagnostic::{Diagnostics, summary};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Human,
    Json,
}

/// Write every diagnostic in `format`; `color` adds ANSI styling to the human report (for a terminal).
pub fn write(
    diagnostics: &Diagnostics,
    format: Format,
    color: bool,
    out: &mut impl Write,
) -> io::Result<()> {
    match format {
        Format::Human => {
            for diagnostic in diagnostics.iter() {
                writeln!(out, "{}", diagnostic.render_human(color))?;
            }
            writeln!(out, "{}", summary(diagnostics))?;
        }
        Format::Json => {
            for diagnostic in diagnostics.iter() {
                writeln!(out, "{}", diagnostic.render_json())?;
            }
        }
    }
    out.flush()
}
