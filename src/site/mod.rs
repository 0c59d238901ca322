//! `ludotheca build`: the static archive. A build runs named, timed steps:
//!
//! - **load**: read the catalog (`crate::catalog::load`);
//! - **check**: run every check; a catalog with errors is not built;
//! - **resolve**: follow relations both ways, gather facets and citations, compile the rules
//!   ([`crate::archive`]);
//! - **render**: every page and data file, in parallel, each written into a staging folder beside the output as
//!   soon as it is rendered; pages whose data did not change since the previous build are not rendered, and
//!   files whose bytes did not change are hard links to the previous site's ([`output`]);
//! - **swap**: the staged site and the output are exchanged in one step, and the previous site removed.
//!
//! The previous site is replaced only once the new one is complete on disk.

pub mod board;
pub mod bundle;
pub mod cite;
pub mod data;
pub mod fields;
pub mod graph;
pub mod lists;
pub mod markdown;
pub mod markup;
pub mod media;
pub mod memo;
pub mod meta;
pub mod output;
pub mod pages;
pub mod paginate;
pub mod progress;
pub mod reuse;
pub mod search;
pub mod sink;
pub mod theme;
pub mod values;
pub mod widget;

use std::fmt;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::archive::Archive;
use crate::catalog::stamps::{ContentHash, Stamp};
use crate::catalog::{LoadCache, LoadError};
use crate::check::{CheckCache, GameCache, ImageCache};
use crate::diagnostic::Diagnostics;

/// What `build` is asked to do.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    pub catalog: PathBuf,
    pub out: PathBuf,
    /// Replace an output folder that ludotheca did not write.
    pub force: bool,
    /// Show a progress bar (the caller decides: only on a terminal, and not with `--quiet`).
    pub progress: bool,
    /// The address the site will be published at, for the sitemap, OAI-PMH and citations. Without it those
    /// carry addresses relative to the site.
    pub base_url: Option<String>,
}

/// W007, from `build` (not `check`, since the address may be given on the build's command line; nor the preview
/// server, whose site is not published): the site has no address, so the sitemap and the OAI-PMH file, which
/// are still written for a look at them, hold addresses relative to the site, which crawlers and harvesters
/// reject.
pub fn no_address_warning() -> crate::diagnostic::Diagnostic {
    crate::diagnostic::Diagnostic::warning(
        "W007",
        "the site has no base URL: sitemap.xml and oai-pmh.xml hold relative addresses, which crawlers and \
         OAI-PMH harvesters reject",
    )
    .with_help(
        "give the address the site will be published at: `base_url = \"https://example.org/games/\"` in \
         ludotheca.toml, or `build --base-url`",
    )
}

/// How much of the site a build makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Every page and file.
    Whole,
    /// The items' own pages and files; every other file of the previous site is kept as it was. The preview
    /// server's first pass after an edit: the edited item's page (the one the archivist has open) is served
    /// after a fraction of a whole build's work, and a whole build follows to bring the lists, the exports and
    /// the search index up to date.
    Items,
}

/// Whether a build keeps its peak of memory low at some cost in time: a large catalog's, and the preview
/// server's, which holds its parts from one build to the next. Such a build hands what each step frees back to
/// the system, and makes the search index after the data files rather than beside them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Memory {
    Short,
    Plenty,
}

impl Memory {
    pub fn is_short(self) -> bool {
        self == Memory::Short
    }
}

/// One step of a build: how long it took, and the memory held at its end.
#[derive(Debug, Clone)]
pub struct Step {
    pub name: &'static str,
    pub took: Duration,
    /// `None` where the system does not say.
    pub resident: Option<crate::resident::Resident>,
}

/// How a build went.
#[derive(Debug)]
pub struct Built {
    /// Warnings from check (a built catalog has no errors).
    pub diagnostics: Diagnostics,
    pub timings: Vec<Step>,
    /// How long each of the render step's chains took ([`pages::Chain`]); they run side by side.
    pub render_chains: Vec<(pages::Chain, Duration)>,
    pub pages: usize,
    /// Pages rendered; the others were kept from the previous site, their data unchanged.
    pub rendered: usize,
    pub written: output::Written,
    pub items: usize,
    /// The pictures whose copies were scaled, and those kept from the previous site.
    pub images: media::Counts,
    /// Items' parts of catalog.json, catalog.csv, oai-pmh.xml and the search index read from the previous site.
    pub parts_taken: usize,
    /// Data files kept whole, made from what the previous site's were.
    pub data_kept_whole: usize,
    /// The list pages taken whole as the previous build made them, since nothing any list shows changed;
    /// `None` when the lists were made (or keyed page by page).
    pub lists_taken: Option<usize>,
    /// The games taken as the previous build checked them (neither compiled nor read again), and the games.
    pub games_taken: (usize, usize),
    /// Of the games taken from the file an earlier build wrote, how many have been read in full (a page made
    /// again, or a file written, asked for their rules or records), and how many were taken from there.
    pub games_read: (usize, usize),
    /// The records whose checks were taken as the previous build made them (not checked again), and the
    /// records.
    pub records_taken: (usize, usize),
    /// The pictures taken as the previous build examined them (not decoded again), and the pictures.
    pub pictures_taken: (usize, usize),
    /// The bytes of the catalog's files' text, and the bytes held for them (fewer where a large catalog's
    /// texts are packed). Not counted by a process that keeps the texts between builds (the preview server,
    /// which does not report them): looking at each of 84,000 files at 10,000 items took 2-3 ms of its pass.
    pub text_held: Option<crate::source::Held>,
    /// The address the site was built for (the command line's, else the configuration's), if any.
    pub base_url: Option<String>,
    /// Files that changed while a first attempt at this build read the catalog: the build was made again,
    /// reading every file.
    pub changed: Vec<PathBuf>,
    /// Files and folders found in the site that no build wrote (put there by hand or by another program), by
    /// path within it: removed, since the output folder is replaced as a whole.
    pub strays: Vec<String>,
}

#[derive(Debug)]
pub enum BuildError {
    /// The catalog folder could not be read.
    Load(LoadError),
    /// The catalog has errors: they are in the diagnostics, with the warnings.
    CatalogErrors(Diagnostics),
    /// A template failed to load or render.
    Template(String),
    /// The output folder cannot be used, or writing failed.
    Output(String),
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::Load(err) => write!(f, "{err}"),
            BuildError::CatalogErrors(d) => write!(
                f,
                "the catalog has {} error(s); fix them and build again (nothing was written)",
                d.error_count()
            ),
            BuildError::Template(msg) => write!(f, "template: {msg}"),
            BuildError::Output(msg) => write!(f, "{msg}"),
        }
    }
}

impl std::error::Error for BuildError {}

/// What a long-running process (the preview server) keeps between builds of one catalog, so that a rebuild
/// after an edit reads, checks and renders again only what the edit touched. It must be told of every change
/// to the catalog's files ([`Kept::changed`]); a process that cannot be sure of that builds without it.
#[derive(Default)]
pub struct Kept {
    load: LoadCache,
    games: GameCache,
    images: ImageCache,
    check: CheckCache,
    parts: memo::Parts,
    manifests: output::Manifests,
    names: crate::archive::NamesCache,
    /// The games and records the last check found clean, as the site's files of them say (see
    /// [`output::REPLAYED`] and [`output::RECORDS`]): known here, the files are not read back at every build.
    clean: Option<crate::check::FoundClean>,
}

impl Kept {
    /// A file or folder of the catalog changed (written, created, removed or renamed).
    pub fn changed(&mut self, path: &std::path::Path) {
        self.load.changed(path);
    }

    /// A change may have been missed: read everything again at the next build.
    pub fn forget(&mut self) {
        self.load.clear();
    }
}

/// Build the site: load, check, resolve, then render and write together (each page is written to the staging
/// folder as soon as it is rendered, and a page or file the previous site already has is linked rather than
/// written). On any failure the output folder is left as it was.
pub fn build(options: &BuildOptions) -> Result<Built, BuildError> {
    build_with(options, None)
}

/// [`build`], taking from `kept` what the previous build of the same catalog made and did not change, and
/// leaving in it what this one made.
pub fn build_with(options: &BuildOptions, kept: Option<&mut Kept>) -> Result<Built, BuildError> {
    build_scoped(options, kept, Scope::Whole)
}

/// Keeps the previous games file when it was whole and holds the same games; otherwise writes this build's
/// beside `beside` (each is written in order into one file, on one core), and gives what both did.
fn keep_games(
    staging: &output::Staging,
    games: &GameCache,
    whole: bool,
    beside: impl FnOnce() -> Result<(), String> + Send,
) -> Result<(), String> {
    let digest = games.digest();
    if whole && staging.keep_if_unchanged(output::GAMES, digest)? {
        return beside();
    }
    let (written, other) = rayon::join(
        || staging.put_with(output::GAMES, Some(digest), &|out| games.write(out)),
        beside,
    );
    written.and(other)
}

/// Writes the records as parsed for the next build (see [`crate::catalog::parsed`]), copying those taken from
/// `previous` (the forms the load read, while held), or keeps the previous file when every record was taken
/// from it and none is gone.
fn keep_parsed(
    staging: &output::Staging,
    catalog: &crate::catalog::Catalog,
    (unchanged, read): (bool, &[Option<(Stamp, ContentHash)>]),
    previous: Option<&crate::catalog::parsed::ParsedRecords>,
) -> Result<(), String> {
    if unchanged && staging.keep_as_it_was(output::PARSED)? {
        return Ok(());
    }
    staging.put_with(output::PARSED, None, &|out| {
        catalog.write_parsed(out, read, previous)
    })
}

/// [`build_with`], making only what `scope` asks for.
pub fn build_scoped(
    options: &BuildOptions,
    mut kept: Option<&mut Kept>,
    scope: Scope,
) -> Result<Built, BuildError> {
    match build_once(options, kept.as_deref_mut(), scope, true) {
        // A file the load took unread by its stamp was written before its text was read: what was made may mix
        // its old and new bytes, so nothing of it is swapped in, and the site is built again reading every file
        // (what the archivist would do, told of it; the work done is found again in the staged files).
        Err(BuildError::Load(LoadError::Changed(changed))) => {
            let mut built = build_once(options, kept, scope, false)?;
            built.changed = changed;
            Ok(built)
        }
        other => other,
    }
}

/// [`build_scoped`], once: taking the files the previous build's stamps vouch for unread when `trust_stamps`.
fn build_once(
    options: &BuildOptions,
    mut kept: Option<&mut Kept>,
    scope: Scope,
    trust_stamps: bool,
) -> Result<Built, BuildError> {
    let mut timings = Vec::new();
    let mut step = |name: &'static str, since: Instant| {
        timings.push(Step {
            name,
            took: since.elapsed(),
            resident: crate::resident::resident(),
        })
    };

    // Refuse an unusable output folder before doing any work.
    let target = output::Target::prepare(&options.out, &options.catalog, options.force)
        .map_err(BuildError::Output)?;

    let started = Instant::now();
    let mut diagnostics = Diagnostics::new();
    // What the previous build left (the games it checked, the records it replayed) is read from the output
    // beside the load, which keeps the cores only partly busy with the kernel's work. A long-running process
    // holds the games in memory after its first build.
    // So are the manifests of the previous site and of the standby (30,000 lines each at 10,000 items): staging
    // after check finds them parsed instead of parsing them while every other core waits.
    let games_in_memory = kept.as_deref().is_some_and(|k| !k.games.is_empty());
    let images_in_memory = kept.as_deref().is_some_and(|k| !k.images.is_empty());
    let mut fresh_manifests = output::Manifests::default();
    let clean_in_memory = kept.as_deref_mut().and_then(|k| k.clean.take());
    let (load_cache, manifests) = match kept.as_deref_mut() {
        Some(kept) => (Some(&mut kept.load), &mut kept.manifests),
        None => (None, &mut fresh_manifests),
    };
    // What the previous build read of the catalog's rules files and game records, read beside the walk of the
    // catalog (a process that keeps every file it read between builds, the preview server, does without).
    let read_stamps = || target.stamps();
    let known: Option<crate::catalog::ReadStamps> = trust_stamps.then_some(&read_stamps);
    let (loaded, (clean, games_read, images_read, left)) = rayon::join(
        || crate::catalog::load_known(&options.catalog, &mut diagnostics, load_cache, known),
        || {
            let games = (!games_in_memory).then(|| target.checked_games());
            let images = (!images_in_memory).then(|| target.examined_images());
            target.read_manifests(manifests);
            let clean = clean_in_memory.unwrap_or_else(|| target.found_clean());
            // Only a whole build makes the search index and the lists.
            let left = match scope {
                Scope::Whole => target.left_for_render(),
                Scope::Items => output::Left::default(),
            };
            (clean, games, images, left)
        },
    );
    let mut catalog = loaded.map_err(BuildError::Load)?;
    let text_held = kept.is_none().then(|| catalog.files.held());
    // What each step frees is handed back to the system before the next, which keeps a large catalog's peak
    // low (100,000 items under 2 GiB), and costs the next step faulting it in again, page by zeroed page. A
    // new process building a catalog below the mark where its texts would be held packed keeps it instead:
    // at 10,000 items, about 3% of a rebuild for 20-25 MB more at the peak.
    let memory = match &text_held {
        Some(held) if !crate::catalog::memory_is_short(held.text) => {
            crate::resident::keep_freed();
            crate::resident::plenty_of_memory();
            Memory::Plenty
        }
        _ => Memory::Short,
    };
    let stamps = std::mem::take(&mut catalog.stamps);
    let known = catalog.known_stamps.take();
    let changed = std::sync::Arc::clone(&catalog.changed);
    if memory.is_short() {
        crate::resident::hand_back_freed();
    }
    step("load", started);

    let started = Instant::now();
    let mut read_games = GameCache::default();
    let mut read_images = ImageCache::default();
    let (games, images, check_cache) = match kept.as_deref_mut() {
        Some(kept) => (&mut kept.games, &mut kept.images, Some(&mut kept.check)),
        None => (&mut read_games, &mut read_images, None),
    };
    if let Some(read) = games_read {
        *games = read;
    }
    if let Some(read) = images_read {
        *images = read;
    }
    // The previous file may be kept as it is only if it was whole: read back here, or written by this process.
    let games_file_whole = !games.is_empty();
    // A picture the check decodes is new to this build (or changed), and its copies are made then, so that the
    // render does not decode it a second time.
    images.scale_while_decoding(std::sync::Arc::new(media::copies_while_decoded));
    let checked = crate::check::check_with(
        catalog,
        &mut diagnostics,
        &clean,
        games,
        images,
        check_cache,
    );
    let games_taken = games.taken();
    let records_taken = checked.records_taken();
    let pictures_taken = images.taken();
    if let Some(kept) = kept.as_deref_mut() {
        // What checked clean stays so whatever becomes of this build: the sets hold keys of files' contents.
        kept.clean = Some(crate::check::FoundClean {
            games: checked.clean_games().copied().collect(),
            records: checked.clean_records().iter().copied().collect(),
        });
    }
    if memory.is_short() {
        crate::resident::hand_back_freed();
    }
    step("check", started);
    if diagnostics.has_errors() {
        return Err(BuildError::CatalogErrors(diagnostics));
    }

    let catalog = &checked.catalog;
    // The command line's address wins over the configuration's.
    let configured;
    let options = match (&options.base_url, &catalog.config.base_url) {
        (None, Some(url)) => {
            configured = BuildOptions {
                base_url: Some(url.clone()),
                ..options.clone()
            };
            &configured
        }
        _ => options,
    };
    // Compiled by check, which stops the build with a diagnostic when it does not compile.
    let theme = checked
        .theme
        .as_deref()
        .ok_or_else(|| BuildError::Template("the theme does not compile".to_string()))?;

    let started = Instant::now();
    let mut staging = target
        .stage_with(
            kept.as_deref_mut()
                .map_or(&mut fresh_manifests, |k| &mut k.manifests),
        )
        .map_err(BuildError::Output)?;
    // The files put into the site since it was built leave the standby before anything is staged beside them,
    // rather than go out with the site at one build and come back at the next: those of the top folder now
    // (before any of the build's own files there is distrusted below, which would make it look like one no
    // build wrote), those of the others beside the resolve (nothing is staged in them before the render). The
    // quick pass of the items leaves them to the whole build after it.
    let mut strays = match scope {
        Scope::Whole => staging.sweep_top().map_err(BuildError::Output)?,
        Scope::Items => Vec::new(),
    };
    if scope == Scope::Whole && !games_file_whole {
        staging.distrust(output::GAMES);
    }
    if scope == Scope::Items {
        staging.trust_kept_files();
    }
    // Made again after a file the stamps vouched for was found changed: the stamps file may be what misled
    // the first attempt, so it is written anew.
    if !trust_stamps {
        staging.distrust(output::STAMPS);
        staging.distrust(output::PARSED);
    }
    // A file of them that could not be read back (damaged, or another version's) is written anew, rather than
    // kept because what this build writes has the checksum the manifest gives the file.
    for unreadable in known.iter().flat_map(|k| &k.unreadable) {
        staging.distrust(unreadable);
    }
    let (names, games) = match kept.as_deref_mut() {
        Some(kept) => (Some(&mut kept.names), &kept.games),
        None => (None, &read_games),
    };
    // Written before resolving, and dropped: at 100,000 items they are tens of megabytes, which would add to
    // the peak of the steps after. A build of the items only carries the previous file (see `carry_rest`):
    // making it is 30 ms at 10,000 items, in the pass the archivist waits for, and the whole build after it
    // writes this one. A stamp that no longer matches its file only costs that file being read.
    let stamps_kept = scope == Scope::Whole
        && checked.catalog.stamps_unchanged(known.as_ref())
        && staging
            .keep_as_it_was(output::STAMPS)
            .map_err(BuildError::Output)?;
    let stamps_written = match scope {
        _ if stamps_kept => Ok(()),
        Scope::Whole => {
            // Written block by block as made, not joined into one more copy first.
            let blocks = checked.catalog.stamps_to_keep(&stamps, known.as_ref());
            staging.put_with(output::STAMPS, None, &|out| {
                blocks.iter().try_for_each(|block| out.write_all(block))
            })
        }
        Scope::Items => Ok(()),
    };
    // What the records as parsed are written from, small beside the stamps it is taken from.
    let records = (scope == Scope::Whole).then(|| {
        (
            checked.catalog.parsed_unchanged(known.as_ref()),
            checked.catalog.records_to_keep(&stamps, known.as_ref()),
        )
    });
    drop(stamps);
    // The records' parsed forms the load took them from, when it kept them (a catalog of a few tens of
    // thousands of items at most): the file written below copies their entries. The rest goes now.
    let parsed_forms = known.map(|known| known.records);
    stamps_written.map_err(BuildError::Output)?;
    // Resolving runs mostly on one thread, and so does writing each of the games file and the parsed records
    // (each is written in order, into one file): the resolve beside the files. When both files are written
    // (a full build, or games that changed), they are written side by side: one after the other, they kept
    // the step waiting on one core after the resolve was done (at 100,000 items, 1.2 s for the games and 1 s
    // for the records, while the other core idled for most of a second). A rebuild that keeps the games file
    // writes the records as before, the one job beside the resolve.
    let (archive, (games_written, swept)) = rayon::join(
        || Archive::resolve_with(&checked, names),
        || match scope {
            Scope::Whole => rayon::join(
                || {
                    keep_games(&staging, games, games_file_whole, || match &records {
                        Some((unchanged, read)) => keep_parsed(
                            &staging,
                            &checked.catalog,
                            (*unchanged, read),
                            parsed_forms.as_ref(),
                        ),
                        None => Ok(()),
                    })
                },
                || staging.sweep(),
            ),
            // A build of the items only keeps the previous files (see `carry_rest`), as the whole build after
            // it writes them.
            Scope::Items => (Ok(()), Ok(Vec::new())),
        },
    );
    drop(records);
    drop(parsed_forms);
    games_written.map_err(BuildError::Output)?;
    strays.extend(swept.map_err(BuildError::Output)?);
    strays.sort();
    if memory.is_short() {
        crate::resident::hand_back_freed();
    }
    step("resolve", started);

    let started = Instant::now();
    // A build in a new process holds the games only until here, below the render's peak. Freeing them (8,000
    // games' rulesets at 10,000 items) kept one core busy while the other waited for the render to start: they
    // are let go of beside the render instead, or left to the end of a process that ends after this build.
    crate::resident::let_go(read_games);
    // The items' parts of the site-wide files, which only a whole build makes, are held from one build to the
    // next. They take about as much memory as those files (1.3 GB at 100,000 items, a third of what the server
    // held at its peak): a catalog whose memory is short has its whole builds take them from the previous
    // site's files instead, as a new process does.
    let hold_parts = match kept.as_deref_mut() {
        Some(kept) if scope == Scope::Whole => {
            let hold = !crate::catalog::memory_is_short(checked.catalog.files.held().text);
            if !hold {
                kept.parts = memo::Parts::default();
            }
            hold
        }
        _ => false,
    };
    let rendered = pages::render_site(
        &archive,
        theme,
        options,
        &staging,
        (
            kept.as_deref().filter(|_| hold_parts).map(|k| &k.parts),
            left,
        ),
        scope,
        memory,
    );
    if let Some(kept) = kept.as_deref_mut().filter(|_| hold_parts) {
        // Whatever was made is right for its key, even when the build failed later on.
        kept.parts.settle();
    }
    let rendered = rendered.map_err(BuildError::Template)?;
    // Sorted as keys and written as hex into one buffer: hex keeps the order of the bytes, and the preview
    // server writes the file at every pass (8,000 keys at 10,000 items).
    let mut clean_games: Vec<_> = checked.clean_games().collect();
    clean_games.sort_unstable();
    let mut replayed = String::with_capacity(65 * clean_games.len());
    for key in clean_games {
        crate::fingerprint::push_hex(&mut replayed, &key[..]);
        replayed.push('\n');
    }
    staging
        .put(output::REPLAYED, replayed.as_bytes(), None)
        .map_err(BuildError::Output)?;
    let mut records = String::with_capacity(65 * checked.clean_records().len());
    for key in checked.clean_records() {
        crate::fingerprint::push_hex(&mut records, key);
        records.push('\n');
    }
    staging
        .put(output::RECORDS, records.as_bytes(), None)
        .map_err(BuildError::Output)?;
    let images = kept.as_deref().map_or(&read_images, |k| &k.images);
    staging
        .put(output::IMAGES, &images.to_bytes(), None)
        .map_err(BuildError::Output)?;
    if scope == Scope::Items {
        staging.carry_rest().map_err(BuildError::Output)?;
    }
    step("render", started);
    let games_read = checked.games_read();
    let items = archive.entries.len();
    let base_url = options.base_url.clone();
    // A file taken unread and found changed when a page asked for it: the site may mix its old and new texts.
    let changed = changed.paths();
    if !changed.is_empty() {
        return Err(BuildError::Load(crate::catalog::LoadError::Changed(
            changed,
        )));
    }

    let started = Instant::now();
    // A long-running process keeps its manifests between builds; a new process read them into this build's own.
    let manifests_read = kept.is_none();
    let written = std::thread::scope(|beside| {
        // The resolved archive is freed beside the swap (about 5 ms at 10,000 items, in the pass the preview
        // server's page waits for), or left to the end of a process that ends after this build; it borrows the
        // checked model, so it goes before that does.
        if crate::resident::left_to_exit() {
            std::mem::forget(archive);
        } else {
            beside.spawn(move || drop(archive));
        }
        // A build in a new process leaves nothing for a next one: its manifest is not made into a map.
        match kept {
            Some(kept) => staging.commit_with(&mut kept.manifests),
            None => staging.commit(),
        }
    })
    .map_err(BuildError::Output)?;
    // Freeing the checked model, a few hundred thousand allocations, keeps one core busy for a tenth of a
    // second at 10,000 items: let go of beside what follows, and never waited for.
    crate::resident::let_go(checked);
    // So are the manifests a build in a new process read (two of 30,000 paths at 10,000 items).
    if manifests_read {
        crate::resident::let_go(fresh_manifests);
    }
    step("swap", started);

    Ok(Built {
        diagnostics,
        timings,
        render_chains: rendered.chains,
        pages: rendered.pages,
        rendered: rendered.rendered,
        written,
        items,
        images: rendered.images,
        parts_taken: rendered.parts_taken,
        data_kept_whole: rendered.data_kept_whole,
        lists_taken: rendered.lists_taken,
        games_taken,
        games_read,
        records_taken,
        pictures_taken,
        text_held,
        base_url,
        changed: Vec::new(),
        strays,
    })
}
