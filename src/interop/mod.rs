//! Moving a collection in and out: `ludotheca import` reads Omeka S JSON, Omeka CSV or OAI-PMH into catalog
//! folders ([`import`]), and `ludotheca export` writes the checked catalog in those formats and the site's data
//! formats ([`export`]).
//!
//! Each reader turns its input into [`draft::Draft`]s, values that remember where in the input they were read;
//! the import then gives them identifiers, resolves the links between them, plans every folder, validates, and
//! only then writes.

pub mod bibliography;
pub mod draft;
pub mod export;
mod html;
pub mod identifier;
pub mod import;
mod json;
mod merge;
pub mod oai_pmh;
pub mod omeka_csv;
pub mod omeka_s;

use std::collections::BTreeMap;

use crate::catalog::terms::Term;
use crate::source::FileId;

pub use export::{ExportFormat, ExportOptions};
pub use import::{ImportError, ImportOptions, Imported};

/// The input is not well-formed JSON, XML or CSV.
pub const E_SYNTAX: &str = "E201";
/// A CSV row whose number of fields is not the header's.
pub const E_ROW: &str = "E202";
/// An OAI-PMH error response instead of records.
pub const E_ERROR_RESPONSE: &str = "E203";
/// A term that is not a Dublin Core term, in a Dublin Core namespace.
pub const E_TERM: &str = "E204";
/// Two items of the input with the same id.
pub const E_DUPLICATE: &str = "E205";
/// A link to an item that is not in the input, with no name to keep instead.
pub const E_LINK: &str = "E206";
/// An item that exists in the catalog, without `--update`.
pub const E_EXISTS: &str = "E207";
/// Something where an item or a value should be.
pub const E_SHAPE: &str = "E208";
/// A record written by the import that does not read back (a fault of ludotheca, not of the input).
pub const E_READ_BACK: &str = "E209";
/// A link to an item that is not in the input, kept as the plain name.
pub const W_LINK: &str = "W201";
/// The last OAI-PMH page given has a resumption token: more records follow.
pub const W_MORE: &str = "W202";

/// The import formats (the command line takes them as they are, so their docs are its help).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ImportFormat {
    /// The JSON of Omeka S's REST API: an array of items (a page), or one item per file; resource templates and
    /// item sets may be given too.
    OmekaS,
    /// Omeka Classic CSV Import (`Dublin Core:Title`...) or Omeka S CSV Import (`dcterms:title`...).
    OmekaCsv,
    /// Saved OAI-PMH ListRecords responses (oai_dc or qualified DC), one file per page, or a static repository.
    OaiPmh,
}

impl ImportFormat {
    pub fn name(self) -> &'static str {
        match self {
            ImportFormat::OmekaS => "omeka-s",
            ImportFormat::OmekaCsv => "omeka-csv",
            ImportFormat::OaiPmh => "oai-pmh",
        }
    }
}

/// What reading the input files gave.
#[derive(Default)]
pub struct Input {
    pub drafts: Vec<draft::Draft>,
    /// The labels the source site gives terms, in the order found.
    pub labels: Vec<(&'static Term, String)>,
    /// The collection's name, when the input gives one (an OAI-PMH repository's).
    pub title: Option<String>,
    /// Collection-wide notes for the report (deleted records skipped).
    pub notes: Vec<String>,
    /// Fields of the source system not carried into records, with how many items had them.
    pub not_carried: BTreeMap<String, usize>,
    /// OAI-PMH: the resumption token of the last page read, if it has one.
    pub last_resumption_token: Option<(FileId, String)>,
}

impl Input {
    fn count_not_carried(&mut self, field: &str) {
        *self.not_carried.entry(field.to_string()).or_default() += 1;
    }
}
