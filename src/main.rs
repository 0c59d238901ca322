//! The `ludotheca` command line: parse arguments, call the library, map the outcome to an exit code
//! (0 ok, 1 the catalog has errors, 2 usage or I/O error).

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use ludotheca::play::{self, RulesSource};
use ludotheca::report::{self, Format};

// A build allocates and frees many small strings and values on every core; the system allocator spent about
// a fifth of a 10,000-item build's CPU in its own bookkeeping.
#[global_allocator]
static ALLOCATOR: ludotheca::allocator::Mimalloc = ludotheca::allocator::Mimalloc;

// Small pages from before the runtime's first allocation, which reserves the allocator's first arena and
// touches its first pages (for the main thread's guard page record): made large, on a machine whose host
// supplies each large page anew (6-9 ms each there), those two pages held up every command by 10-20 ms before
// `main` began. A constructor runs before the runtime is set up; `main` then chooses (see `large_pages`).
#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array")]
static SMALL_PAGES_FIRST: extern "C" fn() = small_pages_first;

#[cfg(target_os = "linux")]
extern "C" fn small_pages_first() {
    ludotheca::large_pages::small_pages_until_chosen();
}

#[derive(Parser)]
#[command(
    name = "ludotheca",
    version,
    about = "Validate and publish digital archives of traditional board games"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check a catalog: records, bibliography, configuration, rules and every recorded move. Writes nothing.
    Check(CheckArgs),
    /// Build the static site: check the catalog, then write every page, the search index and the data exports.
    Build(BuildArgs),
    /// Count the move sequences of each length from the start position (tests the rules engine).
    Perft(PerftArgs),
    /// List the legal moves of a position: the start, or after some moves.
    Moves(MovesArgs),
    /// Measure random playouts per second and moves per second from the start position.
    Bench(BenchArgs),
    /// Print the position of a game record at a ply, with the moves that led there.
    Show(ShowArgs),
    /// Bring a collection in from Omeka S (API JSON), Omeka CSV or OAI-PMH: one catalog folder per item, and a
    /// report of what was created and what needs an archivist. Nothing is written if the input has errors.
    Import(ImportArgs),
    /// Write the checked catalog as Omeka S JSON, Omeka S CSV, OAI-PMH or the site's JSON or CSV, or its
    /// bibliography (sources.bib) as BibTeX, RIS or CSL-JSON.
    Export(ExportArgs),
    /// Preview the site: build it, serve it on this machine, rebuild when a catalog file changes and reload open
    /// pages; a rebuild that fails keeps the last good site and shows the diagnostics over every page.
    Serve(ServeArgs),
    /// Start a new item: its folder with a commented record (and for a game, a rules file and a first game
    /// record) whose every value to write starts with TODO; `check` points at each until it is filled.
    New(NewArgs),
    /// Start a catalog in a new or empty folder: its ludotheca.toml, an empty sources.bib, the About page and the
    /// folders items go in, each file saying in comments what it is for. Nothing that exists is overwritten.
    Init {
        /// The catalog folder to make.
        #[arg(long, value_name = "DIR", default_value = "catalog")]
        catalog: PathBuf,
        /// The archive's title, heading every page (it can be changed in ludotheca.toml).
        #[arg(long, value_name = "TEXT")]
        title: Option<String>,
    },
    /// Print a completion script for a shell (`ludotheca completions bash > ~/.local/share/bash-completion/completions/ludotheca`).
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page, in roff (`ludotheca man | man -l -`).
    Man,
}

#[derive(Clone, Copy, ValueEnum)]
enum KindArg {
    Game,
    Board,
    Evidence,
}

impl From<KindArg> for ludotheca::catalog::Kind {
    fn from(kind: KindArg) -> Self {
        match kind {
            KindArg::Game => Self::Game,
            KindArg::Board => Self::Board,
            KindArg::Evidence => Self::Evidence,
        }
    }
}

#[derive(Args)]
struct ImportArgs {
    /// The format of the input files.
    #[arg(value_enum)]
    format: ludotheca::interop::ImportFormat,
    /// The files to read, in order (for OAI-PMH, the pages of a harvest).
    #[arg(required = true, value_name = "INPUT")]
    inputs: Vec<PathBuf>,
    /// The catalog to import into; created when it does not exist.
    #[arg(long, value_name = "DIR", default_value = "catalog")]
    catalog: PathBuf,
    /// Print what would be created or changed; write nothing.
    #[arg(long)]
    dry_run: bool,
    /// Replace the records of items that exist in the catalog (their rules and game records are kept), and show
    /// what changed. Without it, an item that exists stops the import.
    #[arg(long)]
    update: bool,
    /// The kind of every imported item, whatever the input says (by default: the input's resource class,
    /// template or item type, else game).
    #[arg(long, value_enum)]
    kind: Option<KindArg>,
    /// CSV: what joins several values in one cell (default `|` for the Omeka S layout, none for Classic).
    #[arg(long, value_name = "SEP")]
    separator: Option<String>,
    /// Write the source site's labels of terms (a resource template's alternate labels) into ludotheca.toml.
    #[arg(long)]
    labels: bool,
    /// The title of a new catalog's ludotheca.toml.
    #[arg(long, value_name = "TEXT")]
    title: Option<String>,
    /// Print the report and errors only, no progress bar.
    #[arg(long)]
    quiet: bool,
}

#[derive(Args)]
struct ExportArgs {
    #[arg(value_enum)]
    format: ludotheca::interop::ExportFormat,
    /// The catalog folder.
    #[arg(long, value_name = "DIR", default_value = "catalog")]
    catalog: PathBuf,
    /// The file to write (replaced whole, only when the export succeeds); standard output by default.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// The address the site is published at, for OAI-PMH and citations (default: `base_url` of ludotheca.toml).
    #[arg(long, value_name = "URL", value_parser = ludotheca::catalog::config::site_address)]
    base_url: Option<String>,
    /// bibtex, ris, csl-json: every item's citation, as its page's "cite this page" gives it, instead of the
    /// bibliography.
    #[arg(long)]
    items: bool,
}

/// Which game, and which of its rulesets: a catalog identifier or a rules file.
#[derive(Args)]
struct GameArgs {
    /// A game of the catalog, by identifier (e.g. `bagh-chal`).
    #[arg(required_unless_present = "rules", conflicts_with = "rules")]
    game: Option<String>,
    /// A rules file to use instead of a catalogued game.
    #[arg(long, value_name = "FILE")]
    rules: Option<PathBuf>,
    /// The ruleset to play (default: the first the rules declare).
    #[arg(long, value_name = "NAME")]
    ruleset: Option<String>,
    /// The catalog folder.
    #[arg(long, value_name = "DIR", default_value = "catalog")]
    catalog: PathBuf,
}

impl GameArgs {
    fn source(&self) -> RulesSource {
        match (&self.rules, &self.game) {
            (Some(file), _) => RulesSource::File(file.clone()),
            (None, game) => RulesSource::Catalog {
                catalog: self.catalog.clone(),
                // clap requires GAME when --rules is absent.
                game: game.clone().unwrap_or_default(),
            },
        }
    }
}

#[derive(Args)]
struct PerftArgs {
    #[command(flatten)]
    game: GameArgs,
    /// The deepest depth to count, from 1 to 20; every depth from 1 is printed.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=play::MAX_PERFT_DEPTH as i64))]
    depth: u32,
}

#[derive(Args)]
struct MovesArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Moves to play from the start first, in the game's notation (`"1. @c3 a1-b2 2. @b3"`).
    #[arg(long, value_name = "MOVETEXT")]
    after: Option<String>,
    /// One move per line, or a JSON array with each move's points.
    #[arg(long, value_enum, default_value_t = MovesFormat::Text)]
    format: MovesFormat,
}

#[derive(Clone, Copy, ValueEnum)]
enum MovesFormat {
    Text,
    Json,
}

#[derive(Args)]
struct BenchArgs {
    #[command(flatten)]
    game: GameArgs,
    /// How long to run, in seconds (0.01 to 3600).
    #[arg(long, value_name = "S", default_value_t = 3.0, value_parser = play::parse_bench_seconds)]
    seconds: f64,
    /// The seed of the random playouts.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

#[derive(Args)]
struct ShowArgs {
    /// A game of the catalog, by identifier.
    game: String,
    /// A game record of that game: its file name in the game's `games/` folder (with or without `.game`), or a
    /// path.
    record: String,
    /// The ply to show (0: the start; default: the end of the record).
    #[arg(long, value_name = "N")]
    ply: Option<usize>,
    /// The catalog folder.
    #[arg(long, value_name = "DIR", default_value = "catalog")]
    catalog: PathBuf,
}

#[derive(Args)]
struct BuildArgs {
    /// The catalog folder.
    #[arg(long, value_name = "DIR", default_value = "catalog")]
    catalog: PathBuf,
    /// The output folder; replaced as a whole when the build succeeds.
    #[arg(long, value_name = "DIR", default_value = "site")]
    out: PathBuf,
    /// Replace an output folder that holds files ludotheca did not write.
    #[arg(long)]
    force: bool,
    /// Print only errors.
    #[arg(long)]
    quiet: bool,
    /// Print how long each step took (load, check, resolve, render, swap) and the memory held after it.
    #[arg(long)]
    timings: bool,
    /// The address the site will be published at (`https://example.org/games/`), for the sitemap, the OAI-PMH
    /// file and citations; without it they hold addresses relative to the site.
    #[arg(long, value_name = "URL", value_parser = ludotheca::catalog::config::site_address)]
    base_url: Option<String>,
}

#[derive(Args)]
struct NewArgs {
    /// What the item is.
    #[arg(value_enum)]
    kind: KindArg,
    /// Its identifier, which names its folder and its page: lowercase ASCII letters, digits and single
    /// hyphens, starting with a letter (`tiger-game`). Refused when an item has it already.
    id: String,
    /// Its title (otherwise a placeholder to fill).
    #[arg(long, value_name = "TEXT")]
    title: Option<String>,
    /// The catalog folder.
    #[arg(long, value_name = "DIR", default_value = "catalog")]
    catalog: PathBuf,
}

#[derive(Args)]
struct ServeArgs {
    /// The catalog folder, watched for changes (records, rules, game records, bibliography, configuration,
    /// templates and static files).
    #[arg(long, value_name = "DIR", default_value = "catalog")]
    catalog: PathBuf,
    /// The output folder, built as `ludotheca build` builds it (the site served is the site on disk).
    #[arg(long, value_name = "DIR", default_value = "site")]
    out: PathBuf,
    /// The port to listen on; 0 picks a free one (the address is printed).
    #[arg(long, value_name = "P", default_value_t = 8000)]
    port: u16,
    /// The address to listen on. Anything but a loopback address makes the preview reachable from other
    /// machines.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    bind: std::net::IpAddr,
    /// Open the site in the browser (with `xdg-open` or `open`, when there is one).
    #[arg(long)]
    open: bool,
    /// Print only errors and the address.
    #[arg(long)]
    quiet: bool,
    /// Print how long each step of each build took (load, check, resolve, render, swap), and the memory held
    /// after each build
    #[arg(long)]
    timings: bool,
}

#[derive(Args)]
struct CheckArgs {
    /// The catalog folder.
    #[arg(long, value_name = "DIR", default_value = "catalog")]
    catalog: PathBuf,
    /// How to write diagnostics: for people, or one JSON object per line.
    #[arg(long, value_enum, default_value_t = FormatArg::Human)]
    format: FormatArg,
    /// A site a build of the catalog wrote: the games it replayed cleanly and the records it found clean are
    /// not checked again when their files are unchanged (the report is the same). Ignored when the folder is
    /// missing or not one ludotheca wrote.
    #[arg(long, value_name = "DIR", default_value = "site")]
    site: PathBuf,
    /// Check everything again, taking nothing from the site a build wrote.
    #[arg(long)]
    fresh: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum FormatArg {
    Human,
    Json,
}

impl Command {
    /// The folder a previous build of the same catalog wrote, which records what memory it needed: the output
    /// folder of a build or a preview, the site a check takes its previous results from. None for the other
    /// commands, and for a check told to take nothing from a site.
    fn previous_site(&self) -> Option<&Path> {
        match self {
            Command::Build(args) => Some(&args.out),
            Command::Serve(args) => Some(&args.out),
            Command::Check(args) if !args.fresh => Some(&args.site),
            _ => None,
        }
    }
}

/// Adds a line to a command's output (a `String`), which [`emit`] then writes at once.
macro_rules! say {
    ($text:expr, $($arg:tt)*) => {{
        use std::fmt::Write as _;
        // Writing into a `String` cannot fail.
        let _ = writeln!($text, $($arg)*);
    }};
}

/// Writes `text`, a command's output, to standard output. A reader that went away (`| head`, `| grep -q`) ends
/// the output but not the command: what the command did stands, and so does its exit code. Any other failure
/// to write (a full disk under a redirection) is returned, for the command to say how much it matters.
fn emit(text: &str) -> io::Result<()> {
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(err) if err.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}

/// [`emit`] for a command whose work is done whatever becomes of its account of it: a failure to write is a
/// warning.
fn tell(text: &str) {
    if let Err(err) = emit(text) {
        eprintln!("warning: the work is done, but its account could not be written: {err}");
    }
}

const EXIT_ERRORS: u8 = 1;
const EXIT_FAILURE: u8 = 2;

fn main() -> ExitCode {
    let cli = Cli::parse();
    // As soon as the folder a previous build of this catalog wrote is known, so that the pages every later
    // allocation faults in are the chosen kind (parsing the command line touches a few pages only).
    ludotheca::large_pages::choose(
        cli.command
            .previous_site()
            .and_then(ludotheca::site::output::recorded)
            .unwrap_or_default(),
    );
    let code = run(cli.command);
    // The work is done and the process ends: what it freed need not go back to the system first, which the
    // allocator's exit would otherwise do page by page (about 20 ms of a 0.7 s rebuild at 10,000 items).
    ludotheca::resident::keep_freed();
    code
}

fn run(command: Command) -> ExitCode {
    match command {
        Command::Check(args) => check(args),
        Command::Build(args) => build(args),
        Command::Perft(args) => play_command(&args.game, |loaded, out| {
            play::perft(&loaded.game, args.depth, out)
        }),
        Command::Moves(args) => play_command(&args.game, |loaded, out| {
            let pos = play::position_after(&loaded.game, args.after.as_deref())?;
            play::moves(loaded, &pos, matches!(args.format, MovesFormat::Json), out)
        }),
        Command::Bench(args) => play_command(&args.game, |loaded, out| {
            let result = play::bench(&loaded.game, args.seconds, args.seed);
            writeln!(
                out,
                "{}: {} playouts in {:.2} s: {:.0} playouts/s, {:.0} moves/s",
                loaded.describe_ruleset(),
                result.games,
                result.elapsed.as_secs_f64(),
                result.games_per_second(),
                result.plies_per_second()
            )?;
            Ok(())
        }),
        Command::Import(args) => import(args),
        Command::Completions { shell } => {
            use clap::CommandFactory;
            // Made whole first: the generator's own writing panics when the reader has gone away.
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "ludotheca", &mut script);
            match emit(&String::from_utf8_lossy(&script)) {
                Ok(()) => ExitCode::SUCCESS,
                Err(err) => {
                    eprintln!("error: cannot write the completion script: {err}");
                    ExitCode::from(EXIT_FAILURE)
                }
            }
        }
        Command::Man => {
            use clap::CommandFactory;
            match clap_mangen::Man::new(Cli::command()).render(&mut io::stdout()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(err) if err.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                Err(err) => {
                    eprintln!("error: cannot write the manual page: {err}");
                    ExitCode::from(EXIT_FAILURE)
                }
            }
        }
        Command::Export(args) => export(args),
        Command::Serve(args) => serve(args),
        Command::New(args) => new_item(args),
        Command::Init { catalog, title } => init_catalog(&catalog, title.as_deref()),
        Command::Show(args) => {
            let game = GameArgs {
                game: Some(args.game.clone()),
                rules: None,
                ruleset: None,
                catalog: args.catalog.clone(),
            };
            play_command(&game, |loaded, out| {
                play::show(loaded, &args.record, args.ply, out)
            })
        }
    }
}

/// Load a game's rules and run one of the engine's commands on them; every failure is the user's to fix
/// (a wrong name, a bad move), so it exits with 2.
fn play_command(
    game: &GameArgs,
    run: impl FnOnce(&play::LoadedRules, &mut io::StdoutLock) -> Result<(), play::PlayError>,
) -> ExitCode {
    let result = play::load_rules(&game.source(), game.ruleset.as_deref())
        .and_then(|loaded| run(&loaded, &mut io::stdout().lock()));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(play::PlayError::Output(err)) if err.kind() == io::ErrorKind::BrokenPipe => {
            ExitCode::SUCCESS
        }
        // Problems in a file read as `check` reports them.
        Err(play::PlayError::Diagnostics(diagnostics)) => {
            let stderr = io::stderr();
            let color = stderr.is_terminal() && std::env::var_os("NO_COLOR").is_none();
            let _ = report::write(&diagnostics, Format::Human, color, &mut stderr.lock());
            ExitCode::from(EXIT_FAILURE)
        }
        Err(err) => {
            eprintln!("error: {err}");
            ExitCode::from(EXIT_FAILURE)
        }
    }
}

fn build(args: BuildArgs) -> ExitCode {
    use ludotheca::site::{self, BuildError, BuildOptions};
    let options = BuildOptions {
        catalog: args.catalog,
        out: args.out,
        force: args.force,
        progress: !args.quiet && io::stderr().is_terminal(),
        base_url: args.base_url,
    };
    let stderr = io::stderr();
    let color = stderr.is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let print = |diagnostics: &ludotheca::diagnostic::Diagnostics| {
        let _ = report::write(diagnostics, Format::Human, color, &mut stderr.lock());
    };
    ludotheca::resident::ends_after_one_build();
    match ludotheca::on_the_pool(|| site::build(&options)) {
        Ok(mut built) => {
            if built.base_url.is_none() {
                built.diagnostics.push(site::no_address_warning());
            }
            if let Some(first) = built.changed.first()
                && !args.quiet
            {
                eprintln!(
                    "note: `{}` changed while the site was being built{}: built again, reading every file",
                    first.display(),
                    match built.changed.len() {
                        1 => String::new(),
                        n => format!(" (and {} other file(s))", n - 1),
                    }
                );
            }
            if let Some(first) = built.strays.first()
                && !args.quiet
            {
                eprintln!(
                    "note: removed `{first}`{} from the site: no build wrote it, and the output folder is \
                     replaced as a whole (files the site should carry belong in the catalog's `static/` folder)",
                    match built.strays.len() {
                        1 => String::new(),
                        n => format!(" (and {} more)", n - 1),
                    }
                );
            }
            if !args.quiet && !built.diagnostics.is_empty() {
                print(&built.diagnostics);
            }
            // What was built is the command's output, so it goes to standard output (a script can read it while
            // errors and warnings stay on standard error), written at once when it is all said.
            let mut said = String::new();
            if args.timings {
                for step in &built.timings {
                    let held = step
                        .resident
                        .map(|r| {
                            format!(
                                "  {:>6} MB held, {:>6} MB at most",
                                r.now >> 20,
                                r.peak >> 20
                            )
                        })
                        .unwrap_or_default();
                    say!(
                        said,
                        "{:>8} {:>9.1} ms{held}",
                        step.name,
                        step.took.as_secs_f64() * 1000.0
                    );
                }
                // The render's chains run side by side, so each is told apart: the render's length is about their
                // sum shared over the cores, and the longest shows where a build's time goes.
                let chains: Vec<String> = built
                    .render_chains
                    .iter()
                    .map(|(chain, took)| {
                        format!("{} {:.1} ms", chain.name(), took.as_secs_f64() * 1000.0)
                    })
                    .collect();
                if !chains.is_empty() {
                    say!(
                        said,
                        "  chains {} (the render's, side by side)",
                        chains.join(", ")
                    );
                }
                let (taken, games) = built.games_taken;
                let (read, from_file) = built.games_read;
                let read = match from_file {
                    0 => String::new(),
                    _ => format!("; {read} of the {from_file} from its file read in full"),
                };
                say!(
                    said,
                    "   games {taken} of {games} taken as the previous build checked them{read}"
                );
                let (taken, records) = built.records_taken;
                say!(
                    said,
                    " records {taken} of {records} taken as the previous build checked them"
                );
                let (taken, pictures) = built.pictures_taken;
                say!(
                    said,
                    "pictures {taken} of {pictures} taken as the previous build examined them"
                );
                if let Some(held) = built.text_held {
                    let packed = match (held.packed, held.dictionaries) {
                        (false, _) => String::new(),
                        (true, 0) => " (packed)".to_string(),
                        (true, bytes) => {
                            format!(" (packed, with a dictionary of {} KB)", bytes >> 10)
                        }
                    };
                    let unread = match held.unread {
                        0 => String::new(),
                        bytes => format!(
                            ", {} KB of it not read (unchanged since the previous build)",
                            bytes >> 10
                        ),
                    };
                    say!(
                        said,
                        "   texts {} KB held in {} KB{packed}{unread}",
                        held.text >> 10,
                        held.held >> 10
                    );
                }
                if let Some(pages) = ludotheca::large_pages::described() {
                    let held = ludotheca::resident::in_large_pages()
                        .map(|bytes| format!(", {} MB held in large pages", bytes >> 20))
                        .unwrap_or_default();
                    say!(said, "   pages {pages}{held}");
                }
                let images = built.images;
                say!(
                    said,
                    "  images {} scaled ({} while checked), {} kept",
                    images.scaled,
                    images.while_checked,
                    images.kept
                );
                // Each item has a part in each of the three data files and in the search index's parts.
                say!(
                    said,
                    "    data {} of {} items' parts taken from the previous site; {} of 3 data files kept whole",
                    built.parts_taken,
                    site::reuse::Export::ALL.len() * built.items,
                    built.data_kept_whole
                );
                match built.lists_taken {
                    Some(pages) => say!(
                        said,
                        "   lists {pages} pages taken as the previous build made them (nothing a list shows changed)"
                    ),
                    None => say!(
                        said,
                        "   lists keyed page by page (what they show changed, or there were none to take)"
                    ),
                }
            }
            if !args.quiet {
                use ludotheca::report::counted;
                let w = built.written;
                say!(
                    said,
                    "built {} ({}) for {} into {}: {} rendered, {} written, {} unchanged, {} removed",
                    counted(built.pages, "page", "pages"),
                    counted(w.files, "file", "files"),
                    counted(built.items, "item", "items"),
                    options.out.display(),
                    counted(built.rendered, "page", "pages"),
                    counted(w.written, "file", "files"),
                    w.unchanged,
                    w.removed
                );
            }
            tell(&said);
            ExitCode::SUCCESS
        }
        Err(BuildError::CatalogErrors(diagnostics)) => {
            print(&diagnostics);
            eprintln!("error: the catalog has errors; the site was not built");
            ExitCode::from(EXIT_ERRORS)
        }
        Err(err) => {
            eprintln!("error: {err}");
            ExitCode::from(EXIT_FAILURE)
        }
    }
}

fn check(args: CheckArgs) -> ExitCode {
    let site = (!args.fresh).then_some(args.site.as_path());
    let checked = ludotheca::on_the_pool(|| ludotheca::load_and_check_after(&args.catalog, site));
    let (model, diagnostics, reused) = match checked {
        Ok(result) => result,
        Err(err) => {
            eprintln!("error: {err}");
            return ExitCode::from(EXIT_FAILURE);
        }
    };
    // The process ends once the report is written, and the system takes its memory back whole: freeing the
    // checked model first (hundreds of thousands of allocations at 10,000 items) was about a tenth of a check
    // after a build.
    std::mem::forget(model);
    let format = match args.format {
        FormatArg::Human => Format::Human,
        FormatArg::Json => Format::Json,
    };
    let stdout = io::stdout();
    let color = stdout.is_terminal() && std::env::var_os("NO_COLOR").is_none();
    match report::write(&diagnostics, format, color, &mut stdout.lock()) {
        // The reader went away (`| head`): nothing more to say, and the outcome stands.
        Err(err) if err.kind() == io::ErrorKind::BrokenPipe => {}
        Err(err) => {
            eprintln!("error: cannot write the report: {err}");
            return ExitCode::from(EXIT_FAILURE);
        }
        Ok(()) => {}
    }
    // Said on the error stream, and only to people: the report itself is the same either way.
    for path in &reused.changed {
        eprintln!(
            "note: `{}` changed while the catalog was being checked: checked again, reading every file",
            path.display()
        );
    }
    if format == Format::Human && (reused.games.0 > 0 || reused.records.0 > 0 || reused.files.0 > 0)
    {
        eprintln!(
            "note: {} of {} games and {} of {} records were as the build in `{}` found them clean, and were \
             not checked again; {} of {} files were as it read them, and were not read again \
             (--fresh reads and checks everything)",
            reused.games.0,
            reused.games.1,
            reused.records.0,
            reused.records.1,
            args.site.display(),
            reused.files.0,
            reused.files.1,
        );
    }
    if diagnostics.has_errors() {
        ExitCode::from(EXIT_ERRORS)
    } else {
        ExitCode::SUCCESS
    }
}

fn import(args: ImportArgs) -> ExitCode {
    use ludotheca::catalog::Kind;
    use ludotheca::interop::{ImportError, ImportOptions};
    let options = ImportOptions {
        format: args.format,
        inputs: args.inputs,
        catalog: args.catalog,
        dry_run: args.dry_run,
        update: args.update,
        kind: args.kind.map(Kind::from),
        separator: args.separator,
        labels: args.labels,
        title: args.title,
        progress: !args.quiet && io::stderr().is_terminal(),
    };
    let stderr = io::stderr();
    let color = stderr.is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let print = |diagnostics: &ludotheca::diagnostic::Diagnostics| {
        let _ = report::write(diagnostics, Format::Human, color, &mut stderr.lock());
    };
    match ludotheca::interop::import::import(&options) {
        Ok(imported) => {
            if !imported.diagnostics.is_empty() {
                print(&imported.diagnostics);
            }
            tell(&imported.report());
            ExitCode::SUCCESS
        }
        Err(ImportError::Input(diagnostics)) => {
            print(&diagnostics);
            eprintln!("error: the input has errors; nothing was written");
            ExitCode::from(EXIT_ERRORS)
        }
        Err(ImportError::Io(message)) => {
            eprintln!("error: {message}");
            ExitCode::from(EXIT_FAILURE)
        }
    }
}

fn export(args: ExportArgs) -> ExitCode {
    use ludotheca::interop::{ExportFormat, ExportOptions, export::ExportError};
    let options = ExportOptions {
        format: args.format,
        catalog: args.catalog,
        out: args.out,
        base_url: args.base_url,
        items: args.items,
    };
    if options.items
        && !matches!(
            options.format,
            ExportFormat::Bibtex | ExportFormat::Ris | ExportFormat::CslJson
        )
    {
        eprintln!("error: --items goes with bibtex, ris or csl-json only");
        return ExitCode::from(EXIT_FAILURE);
    }
    let stderr = io::stderr();
    let color = stderr.is_terminal() && std::env::var_os("NO_COLOR").is_none();
    match ludotheca::interop::export::export(&options) {
        Ok(exported) => {
            if let Some(note) = exported.note {
                eprintln!("note: {note}");
            }
            if let Some(out) = &options.out {
                eprintln!(
                    "exported {} {} to {}",
                    exported.count,
                    exported.unit,
                    out.display()
                );
            }
            ExitCode::SUCCESS
        }
        Err(ExportError::CatalogErrors(diagnostics)) => {
            let _ = report::write(&diagnostics, Format::Human, color, &mut stderr.lock());
            eprintln!("error: the catalog has errors; nothing was exported");
            ExitCode::from(EXIT_ERRORS)
        }
        Err(err) => {
            eprintln!("error: {err}");
            ExitCode::from(EXIT_FAILURE)
        }
    }
}

fn serve(args: ServeArgs) -> ExitCode {
    use ludotheca::serve::{self, ServeOptions};
    if !args.bind.is_loopback() {
        eprintln!(
            "warning: listening on {}: the preview is reachable from other machines on the network",
            args.bind
        );
    }
    let options = ServeOptions {
        catalog: args.catalog,
        out: args.out,
        bind: args.bind,
        port: args.port,
        color: io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
        quiet: args.quiet,
        timings: args.timings,
    };
    let running = match serve::start(options) {
        Ok(running) => running,
        Err(err) => {
            eprintln!("error: {err}");
            return ExitCode::from(EXIT_FAILURE);
        }
    };
    let stopper = running.stopper();
    if let Err(err) = ctrlc::set_handler(move || stopper.stop()) {
        eprintln!("warning: Ctrl-C will not stop the server cleanly: {err}");
    }
    let address = running.address();
    let url = format!("http://{address}/");
    // The address goes to standard output, alone on its line, for scripts that start the server (one that stops
    // reading leaves the server serving).
    tell(&format!("serving {url} (Ctrl-C to stop)\n"));
    if args.open {
        open_browser(&url);
    }
    running.wait();
    eprintln!("stopped");
    ExitCode::SUCCESS
}

/// Open `url` in the desktop's browser, if the system has a way to; the preview works without it.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    match std::process::Command::new(opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
    {
        // Waited for on a thread of its own, so that it does not linger as a zombie.
        Ok(mut child) => {
            std::thread::spawn(move || child.wait());
        }
        Err(_) => eprintln!("note: `{opener}` is not available; open {url} in a browser"),
    }
}

fn init_catalog(catalog: &std::path::Path, title: Option<&str>) -> ExitCode {
    match ludotheca::skeleton::init(catalog, title) {
        Ok(written) => {
            let mut said = String::new();
            say!(
                said,
                "started a catalog in {}: {}",
                catalog.display(),
                written.join(", ")
            );
            say!(
                said,
                "next: `ludotheca new game <id> --catalog {0}` adds a game; `ludotheca build --catalog {0}` makes the site",
                catalog.display()
            );
            tell(&said);
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("error: {err}");
            ExitCode::from(EXIT_FAILURE)
        }
    }
}

fn new_item(args: NewArgs) -> ExitCode {
    use ludotheca::skeleton::{self, NewItem};
    let new = NewItem {
        kind: args.kind.into(),
        id: args.id,
        title: args.title,
        catalog: args.catalog,
    };
    match skeleton::create(&new) {
        Ok(created) => {
            let mut said = String::new();
            say!(
                said,
                "created {}: {}",
                created.folder.display(),
                created.files.join(", ")
            );
            say!(
                said,
                "replace every value starting with TODO; `ludotheca check --catalog {}` points at each one left",
                new.catalog.display()
            );
            tell(&said);
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("error: {err}");
            ExitCode::from(EXIT_FAILURE)
        }
    }
}
