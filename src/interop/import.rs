//! `ludotheca import`: read the inputs, plan every item, validate the plan, then write.
//!
//! Nothing is written until the whole input has been read and every item planned without an error. Each item
//! folder is then written into a temporary sibling and renamed into place, and a record replaced by `--update`
//! is written beside it and renamed over it, so an item is at every moment either absent, as it was, or whole.
//! Every path written is the catalog folder joined with a kind folder and a URL-safe identifier, so nothing is
//! written outside the catalog.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write as _;
use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::draft::{Draft, DraftValue, excerpt, record_xml, term};
use super::html;
use super::identifier::{self, Wanted};
use super::merge;
use super::{
    E_DUPLICATE, E_EXISTS, E_LINK, E_READ_BACK, E_SYNTAX, ImportFormat, Input, W_LINK, W_MORE,
    oai_pmh, omeka_csv, omeka_s,
};
use crate::archive::kind_folder;
use crate::catalog::{self, Catalog, Kind};
use crate::check::required_terms;
use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::scheme::{Scheme, language};
use crate::site::progress::Progress;
use crate::source::{FileId, SourceMap};

/// What `import` is asked to do.
#[derive(Clone, Debug)]
pub struct ImportOptions {
    pub format: ImportFormat,
    pub inputs: Vec<PathBuf>,
    pub catalog: PathBuf,
    /// Print the plan; write nothing.
    pub dry_run: bool,
    /// Replace the records of items that exist.
    pub update: bool,
    /// The kind of every imported item, whatever the input says.
    pub kind: Option<Kind>,
    /// CSV: what joins several values in one cell.
    pub separator: Option<String>,
    /// Write the source site's labels into `ludotheca.toml`.
    pub labels: bool,
    /// The title of a new catalog's `ludotheca.toml`.
    pub title: Option<String>,
    pub progress: bool,
}

/// Why an import did not happen.
#[derive(Debug)]
pub enum ImportError {
    /// Problems in the input (or the plan): nothing was written. Exit 1.
    Input(Diagnostics),
    /// An input or the catalog could not be read, or writing failed. Exit 2.
    Io(String),
}

/// What happens to one item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    Create,
    /// The record is replaced: values added and removed, as text.
    Update {
        added: Vec<String>,
        removed: Vec<String>,
    },
    Unchanged,
}

/// One item of the plan.
#[derive(Clone, Debug)]
pub struct Planned {
    pub id: String,
    pub kind: Kind,
    /// The item's folder.
    pub folder: PathBuf,
    pub action: Action,
    /// Where the item is in the input: `file:line:column`, and its id there.
    pub from: String,
    pub source_id: Option<String>,
    pub values: usize,
    pub notes: Vec<String>,
    /// What an archivist must supply, each with the code `check` gives it when it gives one.
    pub needs: Vec<String>,
    record: String,
    /// The record as the source gives it, kept beside the item for the next update to merge against.
    imported: String,
}

/// What an import did (or, with `--dry-run`, would do).
#[derive(Debug)]
pub struct Imported {
    pub format: ImportFormat,
    pub catalog: PathBuf,
    pub dry_run: bool,
    pub items: Vec<Planned>,
    /// Warnings about the input (errors stop the import).
    pub diagnostics: Diagnostics,
    pub notes: Vec<String>,
    pub not_carried: BTreeMap<String, usize>,
    /// Labels written (or to write) into `ludotheca.toml`: term, label.
    pub labels: Vec<(String, String)>,
    /// A new `ludotheca.toml` was written, with this title.
    pub new_config: Option<String>,
}

/// The largest input file read: an export of a large collection is big, but not this big.
const MAX_INPUT_BYTES: u64 = 2 << 30;

pub fn import(options: &ImportOptions) -> Result<Imported, ImportError> {
    let mut files = SourceMap::default();
    let mut diagnostics = Diagnostics::new();
    let mut input = Input::default();
    let mut read = Vec::new();
    for path in &options.inputs {
        if let Some(file) = read_input(path, &mut files, &mut diagnostics)? {
            read.push(file);
        }
    }
    match options.format {
        // Templates and item sets may come in any file, before or after the items they name.
        ImportFormat::OmekaS => omeka_s::read(&files, &read, &mut input, &mut diagnostics),
        ImportFormat::OmekaCsv => {
            for &file in &read {
                let separator = options.separator.as_deref();
                omeka_csv::read(&files, file, separator, &mut input, &mut diagnostics);
            }
        }
        ImportFormat::OaiPmh => {
            for &file in &read {
                oai_pmh::read(&files, file, &mut input, &mut diagnostics);
            }
        }
    }
    if let Some((file, token)) = &input.last_resumption_token {
        diagnostics.push(
            Diagnostic::warning(
                W_MORE,
                format!("the last page read ends with the resumption token `{token}`: more records follow it"),
            )
            .in_file(files.path(*file))
            .with_help("save the next pages of the harvest and give them all to one import"),
        );
    }
    if diagnostics.has_errors() {
        diagnostics.sort();
        return Err(ImportError::Input(diagnostics));
    }

    let existing = load_catalog(&options.catalog)?;
    let mut plan = Plan::new(
        options,
        &files,
        &mut input,
        existing.as_ref(),
        &mut diagnostics,
    );
    plan.build();
    let labels = plan.labels();
    let items = std::mem::take(&mut plan.items);
    drop(plan);
    if diagnostics.has_errors() {
        diagnostics.sort();
        return Err(ImportError::Input(diagnostics));
    }
    diagnostics.sort();
    let new_config = (!options.catalog.join("ludotheca.toml").exists()).then(|| {
        options
            .title
            .clone()
            .or(input.title.clone())
            .unwrap_or_else(|| "Imported collection".to_string())
    });
    let imported = Imported {
        format: options.format,
        catalog: options.catalog.clone(),
        dry_run: options.dry_run,
        items,
        diagnostics,
        notes: std::mem::take(&mut input.notes),
        not_carried: std::mem::take(&mut input.not_carried),
        labels,
        new_config,
    };
    if !options.dry_run {
        write(options, &imported).map_err(ImportError::Io)?;
    }
    Ok(imported)
}

/// Read one input file as UTF-8 into the source map; a file that is not UTF-8 is reported at its first bad byte.
fn read_input(
    path: &Path,
    files: &mut SourceMap,
    diagnostics: &mut Diagnostics,
) -> Result<Option<FileId>, ImportError> {
    let io =
        |err: std::io::Error| ImportError::Io(format!("cannot read `{}`: {err}", path.display()));
    let meta = fs::metadata(path).map_err(io)?;
    if !meta.is_file() {
        return Err(ImportError::Io(format!(
            "`{}` is not a file",
            path.display()
        )));
    }
    if meta.len() > MAX_INPUT_BYTES {
        return Err(ImportError::Io(format!(
            "`{}` is larger than {} GiB; split the export",
            path.display(),
            MAX_INPUT_BYTES >> 30
        )));
    }
    let bytes = fs::read(path).map_err(io)?;
    match String::from_utf8(bytes) {
        Ok(mut text) => {
            if text.starts_with('\u{feff}') {
                text.drain(..'\u{feff}'.len_utf8());
            }
            Ok(Some(files.add(path.to_path_buf(), text)))
        }
        Err(err) => {
            let bad = err.utf8_error().valid_up_to();
            let file = files.add(
                path.to_path_buf(),
                String::from_utf8_lossy(err.as_bytes()).into_owned(),
            );
            diagnostics.push(
                Diagnostic::error(E_SYNTAX, format!("the file is not UTF-8 (byte {bad})"))
                    .at(files, file, bad..bad + 1)
                    .with_help("export the collection as UTF-8"),
            );
            Ok(None)
        }
    }
}

/// The catalog the items go into, when it exists already.
fn load_catalog(root: &Path) -> Result<Option<Catalog>, ImportError> {
    if !root.exists() {
        return Ok(None);
    }
    if !root.is_dir() {
        return Err(ImportError::Io(format!(
            "catalog folder `{}` is not a folder",
            root.display()
        )));
    }
    // Its own problems are `check`'s to report; the import needs its identifiers, bibliography and labels.
    let mut ignored = Diagnostics::new();
    catalog::load(root, &mut ignored)
        .map(Some)
        .map_err(|e| ImportError::Io(e.to_string()))
}

struct Plan<'a> {
    options: &'a ImportOptions,
    files: &'a SourceMap,
    input: &'a mut Input,
    catalog: Option<&'a Catalog>,
    diagnostics: &'a mut Diagnostics,
    items: Vec<Planned>,
    /// Terms whose values were moved to another term (conformsTo tags to subject), for the labels.
    moved: HashMap<&'static str, &'static str>,
    /// Every identifier the import gives.
    ids: HashSet<String>,
}

impl<'a> Plan<'a> {
    fn new(
        options: &'a ImportOptions,
        files: &'a SourceMap,
        input: &'a mut Input,
        catalog: Option<&'a Catalog>,
        diagnostics: &'a mut Diagnostics,
    ) -> Plan<'a> {
        Plan {
            options,
            files,
            input,
            catalog,
            diagnostics,
            items: Vec::new(),
            moved: HashMap::new(),
            ids: HashSet::new(),
        }
    }

    fn place(&self, draft: &Draft) -> String {
        let source = self.files.get(draft.file);
        let p = source.position(draft.at.start);
        format!("{}:{}:{}", source.path.display(), p.line, p.column)
    }

    fn build(&mut self) {
        let mut drafts = std::mem::take(&mut self.input.drafts);
        // Before identifiers are made from titles: a title's tags are no part of its name.
        drafts.iter_mut().for_each(untag);
        self.keep_origins(&mut drafts);
        let kinds: Vec<Kind> = drafts
            .iter()
            .map(|d| self.options.kind.or(d.kind).unwrap_or(Kind::Game))
            .collect();
        self.check_duplicates(&drafts);
        let wanted: Vec<Wanted> = drafts
            .iter()
            .zip(&kinds)
            .map(|(d, &kind)| Wanted {
                carried: d.wanted_id.as_deref(),
                title: d.title(),
                source_id: d.source_id.as_deref(),
                kind,
            })
            .collect();
        let ids = identifier::assign(&wanted);
        self.ids = ids.iter().cloned().collect();
        // What links in the input name an item by: its source id, or the identifier it carries.
        let mut by_key: HashMap<String, usize> = HashMap::new();
        for (i, d) in drafts.iter().enumerate() {
            if let Some(w) = &d.wanted_id {
                by_key.entry(w.clone()).or_insert(i);
            }
            if let Some(s) = &d.source_id {
                by_key.entry(s.clone()).or_insert(i);
            }
        }
        let progress = Progress::counting("planning", "items", drafts.len(), self.options.progress);
        let mut items = Vec::with_capacity(drafts.len());
        for (i, mut draft) in drafts.into_iter().enumerate() {
            self.resolve_links(&mut draft, &by_key, &ids, &ids[i]);
            let kind = kinds[i];
            self.normalise(&mut draft, kind);
            let planned = self.plan_item(draft, kind, ids[i].clone());
            items.push(planned);
            progress.tick();
        }
        progress.finish();
        self.items = items.into_iter().flatten().collect();
    }

    /// Each item's address in the source system becomes a `dcterms:identifier`, and an item the catalog already
    /// holds under that identifier keeps its identifier, so that a title changed in the source updates the item
    /// rather than making a second one.
    fn keep_origins(&self, drafts: &mut [Draft]) {
        let mut known: HashMap<&str, &str> = HashMap::new();
        for item in self.catalog.iter().flat_map(|c| &c.items) {
            for v in item.values_of("identifier") {
                known.entry(&*v.text).or_insert(item.id.as_str());
            }
        }
        for draft in drafts {
            let Some((origin, at)) = draft.origin.clone() else {
                continue;
            };
            if draft.wanted_id.is_none()
                && let Some(&id) = known.get(origin.as_str())
            {
                draft.wanted_id = Some(id.to_string());
                let kind = self.options.kind.or(draft.kind).unwrap_or(Kind::Game);
                if let Some(title) = draft.title()
                    && identifier::from_title(title, kind) != id
                {
                    draft.notes.push(format!(
                        "found as `{id}` by its dcterms:identifier \"{origin}\" (its title reads differently now)"
                    ));
                }
            }
            if draft
                .values
                .iter()
                .any(|v| v.term.name == "identifier" && v.text == origin)
            {
                continue;
            }
            let mut value = DraftValue::new(term("identifier"), origin.clone(), at);
            if crate::scheme::uri::parse_uri(&origin).is_ok() {
                value.scheme = Some("dcterms:URI".to_string());
            }
            draft.values.push(value);
            draft.notes.push(format!(
                "its address in the source kept as dcterms:identifier \"{origin}\" (how a later import finds it)"
            ));
        }
    }

    fn check_duplicates(&mut self, drafts: &[Draft]) {
        let mut seen: HashMap<(&str, &str), usize> = HashMap::new();
        for (i, d) in drafts.iter().enumerate() {
            let keys = [
                ("id", d.source_id.as_deref()),
                ("identifier", d.wanted_id.as_deref()),
            ];
            for (what, key) in keys {
                let Some(key) = key else { continue };
                if let Some(&first) = seen.get(&(what, key)) {
                    let first_at = self.place(&drafts[first]);
                    self.diagnostics.push(
                        Diagnostic::error(E_DUPLICATE, format!("two items of the input have the {what} `{key}`"))
                            .at(self.files, d.file, d.at.clone())
                            .with_note(format!("the first is at {first_at}"))
                            .with_help("each item must appear once: remove the repeated one, or give it its own id"),
                    );
                } else {
                    seen.insert((what, key), i);
                }
            }
        }
    }

    /// Turn links to other items of the input into `ref`s; a link to an item that is not in the input keeps
    /// the name it shows, or is an error when it has none.
    fn resolve_links(
        &mut self,
        draft: &mut Draft,
        by_key: &HashMap<String, usize>,
        ids: &[String],
        own: &str,
    ) {
        let known = |key: &str| -> Option<String> {
            by_key
                .get(key)
                .map(|&i| ids[i].clone())
                .or_else(|| self.catalog.and_then(|c| c.item(key)).map(|i| i.id.clone()))
        };
        for value in &mut draft.values {
            let Some(link) = value.link.take() else {
                continue;
            };
            match (by_key.get(link.target.as_str()), &link.fallback) {
                (Some(&t), _) if value.term.relation => value.ref_ = Some(ids[t].clone()),
                (Some(&t), _) => {
                    // A link on a term that cannot take `ref` (a creator who is an item): the other item's name.
                    if value.text.is_empty() {
                        value.text = link.fallback.clone().unwrap_or_else(|| ids[t].clone());
                    }
                    draft.notes.push(format!(
                        "a link on dcterms:{} (which takes no `ref`) kept as the name \"{}\"",
                        value.term.name, value.text
                    ));
                }
                (None, Some(name)) => {
                    value.text = name.clone();
                    self.diagnostics.push(
                        Diagnostic::warning(
                            W_LINK,
                            format!(
                                "`{own}` links to item `{}`, which is not in the input: kept as the plain name \"{name}\"",
                                link.target
                            ),
                        )
                        .at(self.files, draft.file, value.at.clone())
                        .with_help("import the other item too, and the name becomes a link to it"),
                    );
                }
                (None, None) => {
                    self.diagnostics.push(
                        Diagnostic::error(
                            E_LINK,
                            format!(
                                "`{own}` links to item `{}`, which is not in the input, and gives no name to keep",
                                link.target
                            ),
                        )
                        .at(self.files, draft.file, value.at.clone())
                        .with_help("import the other item too, or give the link a name (display_title or o:label)"),
                    );
                }
            }
        }
        for (game, _) in &mut draft.played_with {
            if let Some(id) = known(game) {
                *game = id;
            }
        }
        for game in &mut draft.attests {
            if let Some(id) = known(game) {
                *game = id;
            }
        }
    }

    /// Make every value one a record can hold, saying in the notes what was moved or kept where.
    fn normalise(&mut self, draft: &mut Draft, kind: Kind) {
        let mut tags = 0;
        let mut unplaced = Vec::new();
        for value in &mut draft.values {
            if value.term.name == "conformsTo"
                && value.ref_.is_none()
                && crate::scheme::uri::parse_uri(&value.text).is_err()
            {
                value.term = term("subject");
                tags += 1;
            }
            if let Some(scheme) = value.scheme.clone() {
                match Scheme::from_xsi_type(&scheme) {
                    Some(s) => {
                        if let Err(why) = s.validate(&value.text) {
                            draft.notes.push(format!(
                                "\"{}\" of dcterms:{} is not a valid {scheme} ({why}): kept as plain text",
                                excerpt(&value.text),
                                value.term.name
                            ));
                            value.scheme = None;
                        }
                    }
                    None => {
                        draft.notes.push(format!(
                            "encoding scheme `{scheme}` is not one ludotheca knows: left out"
                        ));
                        value.scheme = None;
                    }
                }
            }
            if let Some(lang) = &value.lang
                && language::parse_language_tag(lang).is_err()
                && let Some(tag) = language::tag_for_name(lang)
            {
                draft.notes.push(format!(
                    "language `{lang}` of a dcterms:{} value written as its tag `{tag}`",
                    value.term.name
                ));
                value.lang = Some(tag.to_string());
            }
            if value.term.name == "language"
                && value.scheme.is_none()
                && language::parse_language_tag(&value.text).is_err()
                && let Some(tag) = language::tag_for_name(&value.text)
            {
                draft.notes.push(format!(
                    "dcterms:language \"{}\" written as its tag `{tag}`",
                    value.text
                ));
                value.text = tag.to_string();
            }
            if let Some(lang) = &value.lang
                && language::parse_language_tag(lang).is_err()
            {
                draft.notes.push(format!(
                    "language `{lang}` of a dcterms:{} value is not a BCP 47 tag: left out",
                    value.term.name
                ));
                value.lang = None;
            }
            if value.term.name == "language"
                && value.scheme.is_none()
                && language::parse_language_tag(&value.text).is_err()
            {
                unplaced.push(value.clone());
                value.text.clear();
            }
            if value.cite.is_some() && !value.term.citable() {
                draft.notes.push(format!(
                    "a citation on dcterms:{} kept as its key",
                    value.term.name
                ));
                value.text = value.cite.take().unwrap_or_default();
                value.pages = None;
            }
        }
        draft
            .values
            .retain(|v| !(v.text.is_empty() && v.ref_.is_none() && v.cite.is_none()));
        // The same value twice (a tag given both as a tag and in conformsTo) is kept once.
        let mut seen = HashSet::new();
        let before = draft.values.len();
        draft.values.retain(|v| seen.insert(merge::draft_key(v)));
        if draft.values.len() < before {
            let n = before - draft.values.len();
            draft.notes.push(format!(
                "{n} value{} given twice kept once",
                if n == 1 { "" } else { "s" }
            ));
        }
        for v in unplaced {
            draft.keep_unplaced("Language", &v.text, v.at);
            draft.notes.push(format!(
                "needs: \"{}\" is not a language tag (such as `en` or `njm`); kept as a description",
                v.text
            ));
        }
        if draft.values.iter().any(|v| v.term.name == "accrualMethod") {
            let label = self
                .catalog
                .map_or("Entered by", |c| c.config.label(term("accrualMethod")));
            draft.notes.push(format!(
                "dcterms:accrualMethod kept as the cataloguer's credit, shown as \"{label}\" (check warns W002: \
                 the term is meant for collections)"
            ));
        }
        if tags > 0 {
            self.moved.insert("conformsTo", "subject");
            draft.notes.push(format!(
                "dcterms:conformsTo held tags, not standards: {tags} value{} moved to dcterms:subject",
                if tags == 1 { "" } else { "s" }
            ));
        }
        if let Some(c) = &draft.confidence
            && catalog::parse_confidence(c.trim()).is_none()
        {
            let text = c.clone();
            draft.confidence = None;
            draft.keep_unplaced("Confidence", &text, draft.at.clone());
        }
        if kind != Kind::Board && !draft.played_with.is_empty() {
            draft
                .notes
                .push("playedWith dropped: only a board is played with a game".into());
            draft.played_with.clear();
        }
        if kind != Kind::Evidence && (!draft.attests.is_empty() || draft.confidence.is_some()) {
            draft
                .notes
                .push("attests and confidence dropped: only evidence attests a game".into());
            draft.attests.clear();
            draft.confidence = None;
        }
    }

    fn plan_item(&mut self, draft: Draft, kind: Kind, id: String) -> Option<Planned> {
        let imported = record_xml(&draft, kind);
        let mut record = imported.clone();
        let mut expected = draft.values.len();
        let mut notes_of_merge = Vec::new();
        let from = self.place(&draft);
        let existing = self.catalog.and_then(|c| c.item(&id));
        let root = &self.options.catalog;
        let (folder, action) = match existing {
            Some(item) if self.options.update => {
                let catalog = self.catalog.expect("an item that exists is in a catalog");
                let text = catalog.files.get(item.file).text();
                let base = read_base(&item.folder, &id);
                if base.is_none() {
                    notes_of_merge.push(format!(
                        "no earlier import is kept beside the record: it takes the source's values, and from now \
                         on values added in the catalog stay (`{}`)",
                        merge::BASE_FILE
                    ));
                }
                let merged = match merge::merge(&text, item, base.as_deref(), &draft) {
                    Ok(merged) => merged,
                    Err(why) => {
                        self.diagnostics.push(
                            Diagnostic::error(
                                E_EXISTS,
                                format!("item `{id}` cannot be updated: {why}"),
                            )
                            .at(
                                self.files,
                                draft.file,
                                draft.at.clone(),
                            ),
                        );
                        return None;
                    }
                };
                let added: Vec<String> = merged
                    .added
                    .iter()
                    .map(|&i| draft_key(&draft.values[i]))
                    .collect();
                let removed: Vec<String> = merged
                    .removed
                    .iter()
                    .map(|&i| value_key(&item.values[i]))
                    .collect();
                if merged.kept > 0 {
                    notes_of_merge.push(format!(
                        "{} value{} added in the catalog kept",
                        merged.kept,
                        if merged.kept == 1 { "" } else { "s" }
                    ));
                }
                if merged.declined > 0 {
                    notes_of_merge.push(format!(
                        "{} value{} of the source removed in the catalog left out again",
                        merged.declined,
                        if merged.declined == 1 { "" } else { "s" }
                    ));
                }
                expected = item.values.len() - merged.removed.len() + merged.added.len();
                let action = if merged.record == *text {
                    Action::Unchanged
                } else {
                    Action::Update { added, removed }
                };
                record = merged.record;
                (item.folder.clone(), action)
            }
            Some(item) => {
                self.diagnostics.push(
                    Diagnostic::error(
                        E_EXISTS,
                        format!("item `{id}` exists in the catalog, at `{}`", item.folder.display()),
                    )
                    .at(self.files, draft.file, draft.at.clone())
                    .with_help("pass --update to replace its record (its rules and game records are kept), or import into another catalog"),
                );
                return None;
            }
            None => {
                let folder = root.join(kind_folder(kind)).join(&id);
                if folder.exists() {
                    self.diagnostics.push(
                        Diagnostic::error(
                            E_EXISTS,
                            format!("`{}` is in the way of item `{id}`", folder.display()),
                        )
                        .at(self.files, draft.file, draft.at.clone())
                        .with_help("move that folder away, or import into another catalog"),
                    );
                    return None;
                }
                (folder, Action::Create)
            }
        };
        // The record must read back as written: a failure here is ludotheca's, not the input's.
        let mut scratch = SourceMap::default();
        let mut problems = Diagnostics::new();
        let read = catalog::read_record(&id, record.clone(), &mut scratch, &mut problems);
        if !problems.is_empty() || read.values.len() != expected {
            self.diagnostics.push(
                Diagnostic::error(
                    E_READ_BACK,
                    format!("the record written for `{id}` does not read back"),
                )
                .at(self.files, draft.file, draft.at.clone())
                .with_note(format!("{problems:?}")),
            );
            return None;
        }
        let has_rules = folder.join("rules.txt").exists();
        // What the record lacks once written: after an update, the merged record's (a plain source the
        // archivist replaced with a citation is no longer lacking).
        let needs = if self.options.update && existing.is_some() {
            self.needs(&as_draft(&read, &draft), kind, has_rules)
        } else {
            self.needs(&draft, kind, has_rules)
        };
        let (mut notes, needs_notes): (Vec<String>, Vec<String>) = draft
            .notes
            .iter()
            .cloned()
            .chain(notes_of_merge)
            .partition(|n| !n.starts_with("needs: "));
        notes.dedup();
        let mut needs = needs;
        needs.extend(
            needs_notes
                .into_iter()
                .map(|n| n.trim_start_matches("needs: ").to_string()),
        );
        let mut seen = HashSet::new();
        needs.retain(|n| seen.insert(n.clone()));
        Some(Planned {
            id,
            kind,
            folder,
            action,
            from,
            source_id: draft.source_id.clone(),
            values: expected,
            notes,
            needs,
            record,
            imported,
        })
    }

    /// What the record still lacks, in the words and codes of `check`.
    fn needs(&self, draft: &Draft, kind: Kind, has_rules: bool) -> Vec<String> {
        let mut needs = Vec::new();
        for alternatives in required_terms(kind) {
            if !draft
                .values
                .iter()
                .any(|v| alternatives.contains(&v.term.name))
            {
                let wanted: Vec<String> = alternatives
                    .iter()
                    .map(|n| format!("dcterms:{n}"))
                    .collect();
                needs.push(format!("{} (check: E012)", wanted.join(" or ")));
            }
        }
        match kind {
            Kind::Game if !has_rules => needs
                .push("rules.txt: the game's rules, in the rules language (check: E013)".into()),
            Kind::Board if draft.played_with.is_empty() => needs.push(
                "<playedWith game=\"...\"/>: the game played on this board (check: E012)".into(),
            ),
            Kind::Evidence => {
                if draft.attests.is_empty() {
                    needs.push(
                        "<attests game=\"...\"/>: the game this evidence attests (check: E012)"
                            .into(),
                    );
                }
                if draft.confidence.is_none() {
                    needs.push(
                        "<confidence>: how sure the attestation is, 0-100 (check: E012)".into(),
                    );
                }
            }
            _ => {}
        }
        for url in &draft.pictures {
            let name = url.rsplit('/').next().unwrap_or(url);
            needs.push(format!(
                "a picture at {url}: save it as `images/{name}` in the item's folder and add \
                 <image file=\"images/{name}\" alt=\"…\"/> to the record"
            ));
        }
        let bibliography = self.catalog.map(|c| &c.sources);
        for v in &draft.values {
            if let Some(key) = &v.cite {
                let known = bibliography.is_some_and(|b| {
                    b.entries
                        .iter()
                        .any(|e| e.key.value.eq_ignore_ascii_case(key))
                });
                if !known {
                    needs.push(format!(
                        "`{key}`: cited, but not in sources.bib (check: E018)"
                    ));
                }
            } else if matches!(v.term.name, "source" | "bibliographicCitation") && v.ref_.is_none()
            {
                needs.push(format!(
                    "a source that is not in the bibliography: \"{}\" (add it to sources.bib and cite it)",
                    excerpt(&v.text)
                ));
            }
        }
        for game in draft
            .played_with
            .iter()
            .map(|(g, _)| g)
            .chain(&draft.attests)
        {
            let known =
                self.ids.contains(game) || self.catalog.is_some_and(|c| c.item(game).is_some());
            if !known {
                needs.push(format!(
                    "game `{game}` is neither in the catalog nor in the input (check: E017)"
                ));
            }
        }
        needs
    }

    /// The labels to write: the source site's, for terms whose label in the catalog differs. A label given to
    /// a term whose values moved (conformsTo's "Tags") goes to the term they moved to.
    fn labels(&self) -> Vec<(String, String)> {
        if !self.options.labels {
            return Vec::new();
        }
        let config = self.catalog.map(|c| &c.config);
        let mut out: Vec<(String, String)> = Vec::new();
        for (term, label) in &self.input.labels {
            let name = self.moved.get(term.name).copied().unwrap_or(term.name);
            let target = crate::interop::draft::term(name);
            let current = config.map_or(target.label, |c| c.label(target));
            if current != label && !out.iter().any(|(t, _)| t == name) {
                out.push((name.to_string(), label.clone()));
            }
        }
        out
    }
}

/// A record read back, as a draft, for what it still needs.
fn as_draft(read: &catalog::Item, like: &Draft) -> Draft {
    let mut draft = Draft::new(like.file, like.at.clone());
    draft.values = read
        .values
        .iter()
        .map(|v| {
            let mut d = DraftValue::new(v.term, v.text.to_string(), like.at.clone());
            [d.lang, d.scheme, d.ref_, d.cite, d.pages] =
                merge::value_attributes(v).map(|a| a.map(str::to_string));
            d
        })
        .collect();
    let game = |l: &catalog::GameLink| l.game.as_ref().map(|g| g.value.clone());
    draft.played_with = read
        .played_with
        .iter()
        .filter_map(|l| Some((game(l)?, l.ruleset.as_ref().map(|r| r.value.clone()))))
        .collect();
    draft.attests = read.attests.iter().filter_map(game).collect();
    draft.confidence = read.confidence.first().map(|c| c.value.clone());
    // A record that has its pictures needs none fetched.
    if read.images.is_empty() {
        draft.pictures = like.pictures.clone();
    }
    draft
}

/// The values of an item's last import, when they were kept and still read.
fn read_base(folder: &Path, id: &str) -> Option<Vec<catalog::Value>> {
    let text = fs::read_to_string(folder.join(merge::BASE_FILE)).ok()?;
    let mut scratch = SourceMap::default();
    let mut problems = Diagnostics::new();
    let read = catalog::read_record(id, text, &mut scratch, &mut problems);
    (problems.is_empty() && read.well_formed).then_some(read.values)
}

/// Values that hold HTML, as the record holds text: Markdown in the terms the site renders as Markdown, the
/// words alone in the others.
fn untag(draft: &mut Draft) {
    for value in &mut draft.values {
        if !(value.html || html::looks_like_html(&value.text)) {
            continue;
        }
        let before = excerpt(&value.text);
        let markdown = value.term.is_markdown();
        value.text = if markdown {
            html::to_markdown(&value.text)
        } else {
            html::to_text(&value.text)
        };
        draft.notes.push(format!(
            "dcterms:{} \"{before}\" held HTML: {}",
            value.term.name,
            if markdown {
                "written as Markdown"
            } else {
                "kept as its text, without the tags"
            }
        ));
    }
}

/// A value as text, to compare an updated record with the one it replaces.
fn value_key(v: &crate::catalog::Value) -> String {
    key_of(v.term.name, &v.text, merge::value_attributes(v))
}

fn draft_key(v: &DraftValue) -> String {
    key_of(v.term.name, &v.text, merge::draft_attributes(v))
}

/// The report's line for a value: its attributes by name, and the start of its text.
fn key_of(term: &str, text: &str, attributes: [Option<&str>; 5]) -> String {
    let mut key = format!("dcterms:{term}");
    for (name, attr) in ["lang", "type", "ref", "cite", "pages"]
        .into_iter()
        .zip(attributes)
    {
        if let Some(a) = attr {
            let _ = write!(key, " {name}={a}");
        }
    }
    if !text.is_empty() {
        let _ = write!(key, " \"{}\"", excerpt(text));
    }
    key
}

/// Write the plan: a new catalog's configuration, then every item, each atomically, then the labels.
fn write(options: &ImportOptions, imported: &Imported) -> Result<(), String> {
    let root = &options.catalog;
    fs::create_dir_all(root).map_err(|e| format!("cannot create `{}`: {e}", root.display()))?;
    let config_path = root.join("ludotheca.toml");
    if let Some(title) = &imported.new_config {
        let text = format!(
            "# Written by `ludotheca import`; see docs/record-format.md for every setting.\ntitle = {}\n",
            toml_string(title)
        );
        replace_file(&config_path, text.as_bytes())?;
    }
    let progress = Progress::counting("importing", "items", imported.items.len(), options.progress);
    let results: Vec<Result<(), String>> = imported
        .items
        .par_iter()
        .map(|item| {
            let result = match item.action {
                Action::Create => create_item(&item.folder, &item.id, &item.record, &item.imported),
                Action::Update { .. } => {
                    replace_file(&item.folder.join("record.xml"), item.record.as_bytes())
                }
                Action::Unchanged => Ok(()),
            };
            // The earlier import is replaced once the record is: a failure between the two leaves the next
            // update merging against the older source, which at worst offers a value again.
            let result = result.and_then(|()| match item.action {
                Action::Update { .. } | Action::Unchanged
                    if fs::read(item.folder.join(merge::BASE_FILE)).ok().as_deref()
                        != Some(item.imported.as_bytes()) =>
                {
                    replace_file(
                        &item.folder.join(merge::BASE_FILE),
                        item.imported.as_bytes(),
                    )
                }
                _ => Ok(()),
            });
            progress.tick();
            result
        })
        .collect();
    progress.finish();
    let failures: Vec<String> = results.into_iter().filter_map(Result::err).collect();
    if !failures.is_empty() {
        return Err(format!(
            "{} item(s) could not be written (every other item is complete): {}",
            failures.len(),
            failures.join("; ")
        ));
    }
    if !imported.labels.is_empty() {
        let mut text = fs::read_to_string(&config_path)
            .map_err(|e| format!("cannot read `{}`: {e}", config_path.display()))?;
        if !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str("\n# Labels of the site the collection was imported from.\n");
        for (term, label) in &imported.labels {
            let _ = write!(
                text,
                "[[labels]]\nterm = \"dcterms:{term}\"\nlabel = {}\n\n",
                toml_string(label)
            );
        }
        replace_file(&config_path, text.as_bytes())?;
    }
    Ok(())
}

fn toml_string(text: &str) -> String {
    toml::Value::String(text.to_string()).to_string()
}

/// Write an item folder into a temporary sibling and rename it into place: the folder appears whole or not at
/// all, and an item that appeared meanwhile is never overwritten (renaming onto a folder that holds files fails).
fn create_item(folder: &Path, id: &str, record: &str, imported: &str) -> Result<(), String> {
    let parent = folder
        .parent()
        .ok_or_else(|| format!("`{}` has no parent", folder.display()))?;
    fs::create_dir_all(parent).map_err(|e| format!("cannot create `{}`: {e}", parent.display()))?;
    let staging = tempfile::Builder::new()
        .prefix(&format!(".{id}.ludotheca-import-"))
        .tempdir_in(parent)
        .map_err(|e| format!("cannot write in `{}`: {e}", parent.display()))?;
    // Not flushed to disk file by file (as the site's build, neither is): the rename is what keeps a failing or
    // killed import from leaving half an item, and 10,000 flushes would take most of an import's time.
    fs::write(staging.path().join("record.xml"), record)
        .map_err(|e| format!("cannot write `{id}`: {e}"))?;
    fs::write(staging.path().join(merge::BASE_FILE), imported)
        .map_err(|e| format!("cannot write `{id}`: {e}"))?;
    if folder.exists() {
        return Err(format!(
            "`{}` appeared during the import; left as it is",
            folder.display()
        ));
    }
    // A temporary folder is private to its owner; the item folder is readable by all, as catalog folders are.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(staging.path(), fs::Permissions::from_mode(0o755))
            .map_err(|e| format!("cannot write `{id}`: {e}"))?;
    }
    fs::rename(staging.path(), folder)
        .map_err(|e| format!("cannot move `{id}` into place: {e}"))?;
    // Renamed away: nothing is left for the temporary folder's cleanup to remove.
    let _ = staging.keep();
    Ok(())
}

/// Replace a file by writing a temporary one beside it and renaming it over.
fn replace_file(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let dir = path
        .parent()
        .ok_or_else(|| format!("`{}` has no parent", path.display()))?;
    let mut tmp = tempfile::Builder::new()
        .prefix(".ludotheca-import-")
        .tempfile_in(dir)
        .map_err(|e| format!("cannot write in `{}`: {e}", dir.display()))?;
    tmp.write_all(bytes)
        .map_err(|e| format!("cannot write `{}`: {e}", path.display()))?;
    set_file_mode(tmp.as_file()).map_err(|e| format!("cannot write `{}`: {e}", path.display()))?;
    tmp.persist(path)
        .map_err(|e| format!("cannot replace `{}`: {}", path.display(), e.error))?;
    Ok(())
}

/// A temporary file is private to its owner; the file it becomes is readable by all, as catalog files are.
pub(super) fn set_file_mode(file: &fs::File) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        file.set_permissions(fs::Permissions::from_mode(0o644))?;
    }
    #[cfg(not(unix))]
    let _ = file;
    Ok(())
}

impl Imported {
    /// The report: per item what was (or would be) created and what needs an archivist, then what the whole
    /// input left behind.
    pub fn report(&self) -> String {
        let mut out = String::new();
        let count = |a: fn(&Action) -> bool| self.items.iter().filter(|i| a(&i.action)).count();
        let created = count(|a| *a == Action::Create);
        let updated = count(|a| matches!(a, Action::Update { .. }));
        let unchanged = count(|a| *a == Action::Unchanged);
        let verb = if self.dry_run {
            "would import"
        } else {
            "imported"
        };
        let _ = writeln!(
            out,
            "{verb} {} item{} ({}) into {}: {created} created, {updated} updated, {unchanged} unchanged",
            self.items.len(),
            if self.items.len() == 1 { "" } else { "s" },
            self.format.name(),
            self.catalog.display()
        );
        if let Some(title) = &self.new_config {
            let _ = writeln!(
                out,
                "{} ludotheca.toml with the title \"{title}\" (change it as you like)",
                if self.dry_run { "would write" } else { "wrote" }
            );
        }
        let mut needing = 0;
        for item in &self.items {
            let what = match &item.action {
                Action::Create => "create".to_string(),
                Action::Update { added, removed } => {
                    format!("update (+{} -{} values)", added.len(), removed.len())
                }
                Action::Unchanged => "unchanged".to_string(),
            };
            let source = item
                .source_id
                .as_deref()
                .map(|s| format!(", id {s}"))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "\n{what} {} `{}` at {}: {} values (from {}{source})",
                item.kind,
                item.id,
                item.folder.display(),
                item.values,
                item.from
            );
            if let Action::Update { added, removed } = &item.action {
                for a in added {
                    let _ = writeln!(out, "  + {a}");
                }
                for r in removed {
                    let _ = writeln!(out, "  - {r}");
                }
            }
            for note in &item.notes {
                let _ = writeln!(out, "  note: {note}");
            }
            if !item.needs.is_empty() {
                needing += 1;
                let _ = writeln!(out, "  needs an archivist:");
                for need in &item.needs {
                    let _ = writeln!(out, "    - {need}");
                }
            }
        }
        if !self.notes.is_empty() || !self.not_carried.is_empty() {
            out.push('\n');
        }
        for note in &self.notes {
            let _ = writeln!(out, "note: {note}");
        }
        for (field, n) in &self.not_carried {
            let _ = writeln!(
                out,
                "not carried into records (the source system's own fields): {field}, on {n} item{}",
                if *n == 1 { "" } else { "s" }
            );
        }
        if !self.labels.is_empty() {
            let _ = writeln!(
                out,
                "\n{} into ludotheca.toml:",
                if self.dry_run {
                    "labels to write"
                } else {
                    "labels written"
                }
            );
            for (term, label) in &self.labels {
                let _ = writeln!(out, "  dcterms:{term} = \"{label}\"");
            }
        }
        let _ = writeln!(
            out,
            "\n{needing} of {} item{} need{} an archivist; `ludotheca check --catalog {}` points at each place",
            self.items.len(),
            if self.items.len() == 1 { "" } else { "s" },
            if needing == 1 && self.items.len() == 1 {
                "s"
            } else {
                ""
            },
            self.catalog.display()
        );
        out
    }
}
