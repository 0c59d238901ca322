//! `ludotheca export`: the checked catalog in one format, to a file or standard output. It takes the model the
//! build takes (check, then resolve) and the site's own writers where the site has one: `json`, `csv` and
//! `oai-pmh` are the site's `catalog.json`, `catalog.csv` and `oai-pmh.xml`; `bibtex`, `ris` and `csl-json`
//! are the bibliography (`sources.bib`), or with `items` every item's "cite this page", as its page gives it.

use std::fmt;
use std::io::{self, Write};
use std::path::PathBuf;

use crate::archive::Archive;
use crate::catalog::{LoadError, Value};
use crate::diagnostic::Diagnostics;
use crate::site::memo::Items;
use crate::site::sink::Plain;
use crate::site::{cite, data};

use super::{bibliography, omeka_csv, omeka_s};

/// The export formats (the command line takes them as they are, so their docs are its help).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ExportFormat {
    /// Omeka S API JSON, for Omeka S's importers.
    OmekaS,
    /// Omeka S CSV Import layout.
    OmekaCsv,
    /// The OAI-PMH static repository the site ships (oai_dc).
    OaiPmh,
    /// The site's catalog.json.
    Json,
    /// The site's catalog.csv.
    Csv,
    /// The bibliography (sources.bib) as normalised BibTeX; with --items, every item's citation.
    Bibtex,
    /// The bibliography as RIS; with --items, every item's citation.
    Ris,
    /// The bibliography as one CSL-JSON array; with --items, every item's citation.
    CslJson,
}

#[derive(Clone, Debug)]
pub struct ExportOptions {
    pub format: ExportFormat,
    pub catalog: PathBuf,
    /// The file to write; standard output when absent.
    pub out: Option<PathBuf>,
    /// The site's address, for OAI-PMH and citations; the configuration's `base_url` otherwise.
    pub base_url: Option<String>,
    /// `bibtex`, `ris`, `csl-json`: every item's citation instead of the bibliography.
    pub items: bool,
}

#[derive(Debug)]
pub enum ExportError {
    Load(LoadError),
    /// The catalog has errors: they are in the diagnostics, with the warnings. Nothing was written.
    CatalogErrors(Diagnostics),
    Io(String),
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExportError::Load(err) => write!(f, "{err}"),
            ExportError::CatalogErrors(d) => {
                write!(
                    f,
                    "the catalog has {} error(s); nothing was exported",
                    d.error_count()
                )
            }
            ExportError::Io(msg) => f.write_str(msg),
        }
    }
}

/// How an export went.
pub struct Exported {
    /// Warnings of the check.
    pub diagnostics: Diagnostics,
    /// How many items or bibliography entries were written.
    pub count: usize,
    /// What was counted: "items" or "bibliography entries".
    pub unit: &'static str,
    /// Something the reader of the file must know (the CSV's separator).
    pub note: Option<String>,
}

/// The text a reader sees for a citation: the full reference and pages, as the site writes it.
pub fn cited_text(archive: &Archive, value: &Value) -> String {
    crate::site::meta::value_text(archive, value)
}

pub fn export(options: &ExportOptions) -> Result<Exported, ExportError> {
    let (checked, diagnostics) =
        crate::load_and_check(&options.catalog).map_err(ExportError::Load)?;
    if diagnostics.has_errors() {
        return Err(ExportError::CatalogErrors(diagnostics));
    }
    let archive = Archive::resolve(&checked);
    let base = options
        .base_url
        .clone()
        .or_else(|| checked.catalog.config.base_url.clone());
    let mut note = None;
    let mut write = |sink: &mut dyn Write| -> io::Result<()> {
        match options.format {
            ExportFormat::Json => data::catalog_json(&archive, &Items::fresh(), &mut Plain(sink)),
            ExportFormat::Csv => data::catalog_csv(&archive, &Items::fresh(), &mut Plain(sink)),
            ExportFormat::OaiPmh => {
                if base.is_none() {
                    // As the build's W007 says: a harvester rejects the relative addresses written then.
                    note = Some(
                        "without a base URL (`--base-url` or `base_url` in ludotheca.toml) the file holds relative \
                         addresses, which OAI-PMH harvesters reject"
                            .to_string(),
                    );
                }
                data::oai_pmh(&archive, base.as_deref(), &Items::fresh(), &mut Plain(sink))
            }
            ExportFormat::OmekaS => {
                omeka_s::write(&archive, base.as_deref(), sink)?;
                note = pictures_left_out(&archive, base.as_deref());
                Ok(())
            }
            ExportFormat::OmekaCsv => {
                let separator = omeka_csv::write(&archive, base.as_deref(), sink)?;
                let mut said = format!(
                    "repeated values are joined by `{separator}`: give it as the multivalue separator when importing"
                );
                if base.is_some() && archive.entries.iter().any(|e| picture_count(e) > 0) {
                    said.push_str(
                        "; map the `media` column to the media source \"URL\", so that Omeka fetches each picture from the site",
                    );
                }
                if let Some(left_out) = pictures_left_out(&archive, base.as_deref()) {
                    said = format!("{said}; {left_out}");
                }
                note = Some(said);
                Ok(())
            }
            ExportFormat::Bibtex | ExportFormat::Ris | ExportFormat::CslJson if options.items => {
                citations(&archive, options.format, base.as_deref(), sink)
            }
            ExportFormat::Bibtex => bibliography::write_bibtex(&checked.catalog.sources, sink),
            ExportFormat::Ris => bibliography::write_ris(&checked.catalog.sources, sink),
            ExportFormat::CslJson => bibliography::write_csl_json(&checked.catalog.sources, sink),
        }
    };
    match &options.out {
        None => {
            let stdout = io::stdout();
            let mut lock = stdout.lock();
            match write(&mut lock).and_then(|_| lock.flush()) {
                Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
                    return Err(ExportError::Io(format!("cannot write the export: {e}")));
                }
                _ => {}
            }
        }
        Some(path) => {
            let dir = match path.parent() {
                Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
                _ => PathBuf::from("."),
            };
            let fail =
                |e: io::Error| ExportError::Io(format!("cannot write `{}`: {e}", path.display()));
            // Written beside the target and renamed over it, so a failed export never leaves half a file.
            let mut tmp = tempfile::Builder::new()
                .prefix(".ludotheca-export-")
                .tempfile_in(&dir)
                .map_err(fail)?;
            {
                let mut buffered = io::BufWriter::new(tmp.as_file_mut());
                write(&mut buffered)
                    .and_then(|_| buffered.flush())
                    .map_err(fail)?;
            }
            super::import::set_file_mode(tmp.as_file()).map_err(fail)?;
            tmp.persist(path).map_err(|e| fail(e.error))?;
        }
    }
    let bib = is_bibliography(options);
    Ok(Exported {
        diagnostics,
        count: if bib {
            checked.catalog.sources.entries.len()
        } else {
            archive.entries.len()
        },
        unit: if bib { "bibliography entries" } else { "items" },
        note,
    })
}

/// Whether the export is of the bibliography rather than of the items.
fn is_bibliography(options: &ExportOptions) -> bool {
    matches!(
        options.format,
        ExportFormat::Bibtex | ExportFormat::Ris | ExportFormat::CslJson
    ) && !options.items
}

/// Every item's page citation, as its "cite this page" gives it: BibTeX entries, RIS records, or one CSL-JSON
/// array.
fn citations(
    archive: &Archive,
    format: ExportFormat,
    base: Option<&str>,
    sink: &mut dyn Write,
) -> io::Result<()> {
    let site_title = &archive.catalog.config.title;
    let mut csl = Vec::new();
    for (i, entry) in archive.entries.iter().enumerate() {
        let made = cite::ItemCitation::of(entry, base);
        let page = made.page(&entry.title, site_title);
        match format {
            ExportFormat::Bibtex => {
                if i > 0 {
                    sink.write_all(b"\n")?;
                }
                sink.write_all(cite::bibtex(&page).as_bytes())?;
            }
            ExportFormat::Ris => sink.write_all(cite::ris(&page).as_bytes())?,
            _ => csl.push(cite::csl_item(&page)),
        }
    }
    if format == ExportFormat::CslJson {
        let text = serde_json::to_string_pretty(&csl).map_err(io::Error::other)?;
        sink.write_all(text.as_bytes())?;
        sink.write_all(b"\n")?;
    }
    Ok(())
}

/// A picture as Omeka S takes it in: the address it is fetched from (where the site publishes it), its alt text
/// and its caption.
pub struct Picture {
    pub url: String,
    pub alt: Option<String>,
    pub caption: String,
}

/// The item's pictures at the site's address `base`.
pub fn pictures(entry: &crate::archive::Entry, base: &str) -> Vec<Picture> {
    entry
        .item
        .images
        .iter()
        .filter_map(|image| {
            let file = image.file.as_ref()?;
            Some(Picture {
                url: format!("{}/{}{}", base.trim_end_matches('/'), entry.dir, file.value),
                alt: image.alt.as_ref().map(|a| one_line(&a.value)),
                caption: one_line(&image.caption),
            })
        })
        .collect()
}

/// How many pictures the item has, without making their addresses.
pub fn picture_count(entry: &crate::archive::Entry) -> usize {
    entry
        .item
        .images
        .iter()
        .filter(|i| i.file.is_some())
        .count()
}

/// What the export says when pictures could not go with the items: Omeka S takes a picture in only from an
/// address, which only a base URL gives.
fn pictures_left_out(archive: &Archive, base: Option<&str>) -> Option<String> {
    if base.is_some() {
        return None;
    }
    let count: usize = archive.entries.iter().map(picture_count).sum();
    (count > 0).then(|| {
        format!(
            "{count} picture{} left out: Omeka S fetches a picture from an address, so give the address the site is \
             published at (`--base-url` or `base_url` in ludotheca.toml) and publish the site first",
            if count == 1 { "" } else { "s" }
        )
    })
}

/// A text as one line: Omeka shows alt text and titles as they are given.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
