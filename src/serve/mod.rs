//! `ludotheca serve`: the archivist's preview. It builds the site with the same pipeline as `ludotheca build`
//! (into the same output folder, through the same staging, standby and swap), serves that folder over HTTP,
//! watches the catalog and rebuilds when a file changes. Open pages follow the builds through a stream of
//! server-sent events: a page reloads itself when the site or the diagnostics changed. A rebuild that fails
//! leaves the last good site in place; every page then carries the diagnostics, rendered as `check` prints them,
//! in an overlay. The overlay and the script are added to pages as they are sent, never to the files on disk,
//! so the built site stays the one `ludotheca build` writes.
//!
//! Threads: one accepts connections, each connection has a thread of its own for as long as it is open (an event
//! stream as long as its page; `server.rs`), and one thread rebuilds, fed by the watcher.

mod http;
mod live;
mod server;

use std::fmt;
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use notify::event::EventKindMask;
use notify::{EventKind, RecommendedWatcher, RecursiveMode, Watcher};

use crate::diagnostic::Diagnostics;
use crate::report::{self, Format, counted};
use crate::site::{self, BuildError, BuildOptions, Built, Kept, Scope};
use live::Live;

/// How long the rebuild waits for a burst of changes (an editor's save, a `git checkout`) to end before it
/// starts. Short, since the rebuild is what the archivist waits for.
const DEBOUNCE: Duration = Duration::from_millis(15);

/// After an edit the items' pages are rebuilt first, and the rest of the site (lists, exports, the search
/// index) this long after, unless another change comes first: time for the open page to reload without a
/// build competing with the browser for the processor.
const SETTLE: Duration = Duration::from_millis(250);

/// The longest the rest of the site may lag behind the items' pages while changes keep coming.
const MAX_BEHIND: Duration = Duration::from_secs(2);

/// What `serve` is asked to do.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    pub catalog: PathBuf,
    pub out: PathBuf,
    pub bind: IpAddr,
    /// 0 picks a free port.
    pub port: u16,
    /// Colour the diagnostics printed on the terminal.
    pub color: bool,
    /// Print only errors and the address.
    pub quiet: bool,
    /// Print how long each step of each build took.
    pub timings: bool,
}

#[derive(Debug)]
pub enum ServeError {
    /// The first build could not start: no catalog, or an output folder that cannot be used.
    Build(BuildError),
    /// The address cannot be listened on (taken, not this machine's).
    Listen(String),
    /// The catalog cannot be watched.
    Watch(String),
}

impl fmt::Display for ServeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServeError::Build(err) => write!(f, "{err}"),
            ServeError::Listen(msg) => write!(f, "cannot listen: {msg}"),
            ServeError::Watch(msg) => write!(f, "cannot watch the catalog: {msg}"),
        }
    }
}

impl std::error::Error for ServeError {}

/// What wakes the rebuild thread.
enum Wake {
    /// These files or folders of the catalog changed.
    Changed(Vec<PathBuf>),
    /// The watcher lost track: anything may have changed.
    Lost,
    Stop,
}

/// Asks a running server to stop: from a signal handler, or a test.
#[derive(Clone)]
pub struct Stopper(Sender<Wake>);

impl Stopper {
    pub fn stop(&self) {
        // The server is already stopping when nothing listens any more.
        let _ = self.0.send(Wake::Stop);
    }
}

/// A server that is listening, watching and rebuilding.
pub struct Running {
    address: SocketAddr,
    wake: Sender<Wake>,
    rebuilder: JoinHandle<()>,
    server: server::Listening,
    live: Arc<Live>,
}

impl Running {
    /// The address it listens on (with the port chosen when 0 was asked for).
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    pub fn stopper(&self) -> Stopper {
        Stopper(self.wake.clone())
    }

    /// Serve until stopped, then stop cleanly: no more watching or rebuilding, every event stream closed,
    /// every response being sent finished.
    pub fn wait(self) {
        // The rebuild thread ends on Stop, after the build it may be in; the watcher goes with it.
        let _ = self.rebuilder.join();
        self.live.stop();
        self.server.stop();
    }
}

/// Build the site once, start serving it, and watch the catalog. A catalog with errors is served all the same
/// (the previous site, if any, with the diagnostics over it), so that the archivist can fix it with the preview
/// open; only a catalog that cannot be read at all, or an output folder that cannot be used, stops here.
pub fn start(options: ServeOptions) -> Result<Running, ServeError> {
    let build_options = BuildOptions {
        catalog: options.catalog.clone(),
        out: options.out.clone(),
        force: false,
        progress: false,
        base_url: None,
    };
    let live = Arc::new(Live::new());
    crate::resident::keep_freed();
    // Watching starts before the first build reads anything: a file changed while it runs (a minute at
    // 100,000 items) is then either read by it as changed or reported after it, never missed. A catalog that
    // is not a folder is said so as the build says it, rather than as what the watcher could not find.
    if !options.catalog.is_dir() {
        let missing = crate::catalog::LoadError::NotADirectory(options.catalog.clone());
        return Err(ServeError::Build(BuildError::Load(missing)));
    }
    let (wake, woken) = mpsc::channel();
    let watcher = watch(&options.catalog, wake.clone())?;
    let started = Instant::now();
    // What each build made, for the next: a rebuild reads, checks and renders only what an edit touched.
    let mut kept = Kept::default();
    match crate::on_the_pool(|| site::build_with(&build_options, Some(&mut kept))) {
        Err(err @ (BuildError::Load(_) | BuildError::Output(_))) => {
            return Err(ServeError::Build(err));
        }
        outcome => report_build(&options, &live, outcome, started, Scope::Whole),
    }

    let site = http::Site::new(&options.out, Arc::clone(&live));
    let server = server::listen(SocketAddr::new(options.bind, options.port), site)
        .map_err(|e| ServeError::Listen(e.to_string()))?;
    let address = server.address();

    let rebuilder = {
        let live = Arc::clone(&live);
        thread::spawn(move || {
            rebuild_loop(&options, &build_options, &live, woken, kept);
            drop(watcher);
        })
    };
    Ok(Running {
        address,
        wake,
        rebuilder,
        server,
        live,
    })
}

/// Watch the whole catalog folder (records, rules, game records, the bibliography, the configuration, the
/// theme's templates and static files). Only changes count: a build reading the catalog must not start another
/// build. Hidden files are editors' swap and backup files, which the catalog reader skips too.
/// What the watcher asks the kernel for: changes only. Not the opening and reading of files, which every build
/// does by the thousand; reported, they would overflow the kernel's queue on a large catalog, and each overflow
/// costs a full rebuild, which reads every file again.
fn watch_config() -> notify::Config {
    let kinds = EventKindMask::CREATE
        | EventKindMask::REMOVE
        | EventKindMask::MODIFY_DATA
        | EventKindMask::MODIFY_NAME;
    notify::Config::default().with_event_kinds(kinds)
}

fn watch(catalog: &Path, wake: Sender<Wake>) -> Result<RecommendedWatcher, ServeError> {
    let config = watch_config();
    let handler = move |event: notify::Result<notify::Event>| {
        let wake_with = match event {
            Ok(event) if matches!(event.kind, EventKind::Access(_)) => None,
            // The backend could not keep up: changes may be missing from what it reports.
            Ok(event) if event.need_rescan() => Some(Wake::Lost),
            Ok(event) => {
                let paths: Vec<PathBuf> =
                    event.paths.into_iter().filter(|p| !is_hidden(p)).collect();
                (!paths.is_empty()).then_some(Wake::Changed(paths))
            }
            // A lost event may be a lost edit: rebuild everything to be sure.
            Err(_) => Some(Wake::Lost),
        };
        if let Some(wake_with) = wake_with {
            let _ = wake.send(wake_with);
        }
    };
    let mut watcher = RecommendedWatcher::new(handler, config).map_err(watch_error)?;
    watcher
        .watch(catalog, RecursiveMode::Recursive)
        .map_err(watch_error)?;
    Ok(watcher)
}

/// Why the catalog cannot be watched, and for the system's limit on watched folders, which a large catalog
/// reaches (one of 100,000 items has 180,000 folders, each watched), how to raise it.
fn watch_error(err: notify::Error) -> ServeError {
    if !matches!(err.kind, notify::ErrorKind::MaxFilesWatch) {
        return ServeError::Watch(err.to_string());
    }
    const LIMIT: &str = "/proc/sys/fs/inotify/max_user_watches";
    let now = std::fs::read_to_string(LIMIT)
        .ok()
        .and_then(|text| text.trim().parse::<u64>().ok())
        .map_or(String::new(), |limit| format!(", now {limit}"));
    ServeError::Watch(format!(
        "the system's limit on watched folders is reached (fs.inotify.max_user_watches{now}, shared by \
         every program of this user): each folder of the catalog takes one. Raise it above the catalog's \
         folders, as root: `sysctl fs.inotify.max_user_watches=1048576`; meanwhile, run `ludotheca build` \
         after each edit"
    ))
}

fn is_hidden(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|n| n.to_string_lossy().starts_with('.') || n.to_string_lossy().ends_with('~'))
}

fn rebuild_loop(
    options: &ServeOptions,
    build_options: &BuildOptions,
    live: &Live,
    woken: Receiver<Wake>,
    mut kept: Kept,
) {
    let root = Root::of(&options.catalog);
    // Since when the site's lists, exports and search index lag behind its items' pages, if they do, and how
    // long they wait for the open page to reload first.
    let mut behind: Option<Instant> = None;
    let mut settle = SETTLE;
    loop {
        let wake = if behind.is_some() {
            match woken.recv_timeout(settle) {
                Ok(wake) => wake,
                Err(RecvTimeoutError::Timeout) => {
                    let started = Instant::now();
                    let outcome = crate::on_the_pool(|| {
                        site::build_scoped(build_options, Some(&mut kept), Scope::Whole)
                    });
                    report_build(options, live, outcome, started, Scope::Whole);
                    behind = None;
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => return,
            }
        } else {
            match woken.recv() {
                Ok(wake) => wake,
                Err(_) => return,
            }
        };
        match wake {
            Wake::Changed(paths) => root.tell(&mut kept, paths),
            Wake::Lost => kept.forget(),
            Wake::Stop => return,
        }
        // A save is several events (write, close, rename); the build starts once they stop coming, and takes in
        // every change that arrived meanwhile.
        loop {
            match woken.recv_timeout(DEBOUNCE) {
                Ok(Wake::Changed(paths)) => root.tell(&mut kept, paths),
                Ok(Wake::Lost) => kept.forget(),
                Ok(Wake::Stop) => return,
                Err(RecvTimeoutError::Timeout) => break,
                Err(RecvTimeoutError::Disconnected) => return,
            }
        }
        // Changes that keep coming (an editor saving every few hundred milliseconds) must not hold the rest
        // of the site back for ever.
        let scope = match behind {
            Some(since) if since.elapsed() >= MAX_BEHIND => Scope::Whole,
            _ => Scope::Items,
        };
        let started = Instant::now();
        let outcome =
            crate::on_the_pool(|| site::build_scoped(build_options, Some(&mut kept), scope));
        match (scope, &outcome) {
            (Scope::Whole, Ok(_)) => behind = None,
            (Scope::Items, Ok(built)) => {
                let pending = behind.map(|_| settle);
                settle = settle_after(&built.written.changed, pending);
                behind = behind.or(Some(started));
            }
            // A failed build changed nothing: the site stays as far behind as it was.
            (_, Err(_)) => {}
        }
        report_build(options, live, outcome, started, scope);
    }
}

/// The pages a build's changed files show in, as paths from the site's root, for the open pages to know
/// whether to reload; `None` when a file every page may use changed (a style sheet, a script, a diagram).
fn pages_changed(files: &[String]) -> Option<Vec<String>> {
    let mut pages = Vec::new();
    for file in files {
        let name = file.rsplit('/').next().unwrap_or(file);
        if file.ends_with(".html") {
            pages.push(format!("/{}", encode_path(file)));
        } else if file.starts_with("search-index") {
            pages.push("/search/index.html".to_string());
        } else if name.starts_with('.')
            || name == "record.xml"
            || name.ends_with(".zip")
            || matches!(
                file.as_str(),
                "catalog.json" | "catalog.csv" | "oai-pmh.xml" | "sitemap.xml"
            )
        {
            // Downloads and data files: no page shows their contents.
        } else {
            return None;
        }
    }
    Some(pages)
}

/// A site path as a browser's `location.pathname` gives it: bytes outside the unreserved set percent-encoded.
fn encode_path(path: &str) -> String {
    let mut encoded = String::with_capacity(path.len());
    for byte in path.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~/".contains(&byte) {
            encoded.push(byte as char);
        } else {
            encoded.push_str(&format!("%{byte:02X}"));
        }
    }
    encoded
}

/// The catalog folder as the build names its files, and as the watcher may name them: the two differ when the
/// watcher resolves links (or the platform reports real paths).
struct Root {
    given: PathBuf,
    resolved: Option<PathBuf>,
}

impl Root {
    fn of(catalog: &Path) -> Root {
        Root {
            given: catalog.to_path_buf(),
            resolved: std::fs::canonicalize(catalog).ok(),
        }
    }

    /// Tell `kept` of changed paths, named as the build names them.
    fn tell(&self, kept: &mut Kept, paths: Vec<PathBuf>) {
        for path in paths {
            match self.resolved.as_ref().map(|r| path.strip_prefix(r)) {
                Some(Ok(inside)) if !path.starts_with(&self.given) => {
                    kept.changed(&self.given.join(inside))
                }
                _ => kept.changed(&path),
            }
        }
    }
}

/// How long the rest of the site waits after a pass of the items' pages that changed the files `changed`: long
/// enough for an open page to reload without a build competing with the browser for the processor, and not at
/// all when no page reloads. An edit of a list page's template, of the About page or of a work no item cites
/// changes no item's page, and the page that shows it comes with the rest of the site: waiting would only delay
/// it. `pending` is the wait an earlier pass asked for, when the rest of the site has not been built since: a
/// page that pass changed may still be reloading, so that wait holds.
fn settle_after(changed: &[String], pending: Option<Duration>) -> Duration {
    let own = match pages_changed(changed) {
        Some(pages) if pages.is_empty() => Duration::ZERO,
        _ => SETTLE,
    };
    pending.map_or(own, |pending| pending.max(own))
}

/// Tell the terminal and the open pages how a build went.
fn report_build(
    options: &ServeOptions,
    live: &Live,
    outcome: Result<Built, BuildError>,
    started: Instant,
    scope: Scope,
) {
    let took = started.elapsed().as_secs_f64() * 1000.0;
    match outcome {
        Ok(built) => {
            if !options.quiet {
                if !built.diagnostics.is_empty() {
                    print_diagnostics(&built.diagnostics, options.color);
                }
                let w = &built.written;
                let steps = if options.timings {
                    let steps: Vec<String> = built
                        .timings
                        .iter()
                        .map(|step| {
                            format!("{} {:.1}", step.name, step.took.as_secs_f64() * 1000.0)
                        })
                        .collect();
                    // What the server holds between builds grows with the catalog: shown after each one.
                    let held = match built.timings.last().and_then(|step| step.resident) {
                        Some(r) => {
                            format!("; {} MB held, {} MB at most", r.now >> 20, r.peak >> 20)
                        }
                        None => String::new(),
                    };
                    format!(" ({} ms{held})", steps.join(", "))
                } else {
                    String::new()
                };
                let what = match scope {
                    Scope::Whole => "built",
                    Scope::Items => "items' pages built",
                };
                eprintln!(
                    "{what} in {took:.0} ms{steps}: {} rendered, {} written, {} removed",
                    counted(built.rendered, "page", "pages"),
                    counted(w.written, "file", "files"),
                    w.removed
                );
            }
            live.built(pages_changed(&built.written.changed));
        }
        Err(err) => {
            let text = match &err {
                BuildError::CatalogErrors(diagnostics) => {
                    print_diagnostics(diagnostics, options.color);
                    let mut plain = Vec::new();
                    let _ = report::write(diagnostics, Format::Human, false, &mut plain);
                    String::from_utf8_lossy(&plain).into_owned()
                }
                other => {
                    eprintln!("error: {other}");
                    format!("error: {other}\n")
                }
            };
            eprintln!(
                "the site was not rebuilt; the last good site is served, with the errors over every page"
            );
            live.failed(text);
        }
    }
}

fn print_diagnostics(diagnostics: &Diagnostics, color: bool) {
    let _ = report::write(
        diagnostics,
        Format::Human,
        color,
        &mut std::io::stderr().lock(),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rest_of_the_site_waits_only_when_a_page_reloads() {
        let files = |paths: &[&str]| paths.iter().map(|p| p.to_string()).collect::<Vec<_>>();
        // No file, or only files no page shows: nothing reloads, so nothing is waited for.
        assert_eq!(settle_after(&[], None), Duration::ZERO);
        assert_eq!(
            settle_after(
                &files(&[".ludotheca-manifest", "games/x/x.zip", "games/x/record.xml"]),
                None
            ),
            Duration::ZERO
        );
        // A page, or a file every page may use.
        assert_eq!(settle_after(&files(&["games/x/index.html"]), None), SETTLE);
        assert_eq!(settle_after(&files(&["static/style.css"]), None), SETTLE);
        // A pass that changed no page, after one that did and before the rest of the site was built: the page
        // the first changed may still be reloading.
        assert_eq!(settle_after(&[], Some(SETTLE)), SETTLE);
        assert_eq!(settle_after(&[], Some(Duration::ZERO)), Duration::ZERO);
    }

    #[test]
    fn a_watch_limit_reached_says_how_to_raise_it() {
        let said = watch_error(notify::Error::new(notify::ErrorKind::MaxFilesWatch)).to_string();
        assert!(said.starts_with("cannot watch the catalog: "), "{said}");
        assert!(
            said.contains("sysctl fs.inotify.max_user_watches=")
                && said.contains("ludotheca build"),
            "{said}"
        );
        // Any other failure is said as the watcher says it.
        let other = watch_error(notify::Error::generic("no such thing")).to_string();
        assert_eq!(other, "cannot watch the catalog: no such thing");
    }

    #[test]
    fn changed_files_name_the_pages_that_show_them() {
        let files = |list: &[&str]| list.iter().map(|f| f.to_string()).collect::<Vec<_>>();
        assert_eq!(
            pages_changed(&files(&[
                "games/a/index.html",
                "games/a/record.xml",
                "games/a/a.zip",
                "catalog.json",
                "oai-pmh.xml",
                "search-index/w-q.js",
                ".ludotheca-manifest",
                "places/k\u{f6}ln/index.html",
            ])),
            Some(files(&[
                "/games/a/index.html",
                "/search/index.html",
                "/places/k%C3%B6ln/index.html",
            ]))
        );
        // What every page may use: every page reloads.
        assert_eq!(pages_changed(&files(&["static/style.css"])), None);
        assert_eq!(pages_changed(&files(&["diagrams/0a1b.svg"])), None);
    }

    #[test]
    fn the_watcher_asks_for_changes_and_never_for_files_opened_or_read() {
        let kinds = watch_config().event_kinds();
        assert!(!kinds.intersects(EventKindMask::ALL_ACCESS), "{kinds:?}");
        for change in [
            EventKindMask::CREATE,
            EventKindMask::REMOVE,
            EventKindMask::MODIFY_DATA,
            EventKindMask::MODIFY_NAME,
        ] {
            assert!(kinds.contains(change), "{change:?}");
        }
    }
}
