//! The `ludotheca` command line: parse arguments, call the library, map the outcome to an exit code
//! (0 ok, 1 the catalog has errors, 2 usage or I/O error).

use std::io::{self, IsTerminal};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use ludotheca::report::{self, Format};

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
    /// Check a catalog: records, bibliography and configuration. Writes nothing.
    Check(CheckArgs),
    /// Build the static site: check the catalog, then write every page, the search index and the data exports.
    Build(BuildArgs),
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
    /// Print how long each step took (load, check, resolve, render, write).
    #[arg(long)]
    timings: bool,
    /// The address the site will be published at (`https://example.org/games/`), for the sitemap, the OAI-PMH
    /// file and citations; without it they hold addresses relative to the site.
    #[arg(long, value_name = "URL")]
    base_url: Option<String>,
}

#[derive(Args)]
struct CheckArgs {
    /// The catalog folder.
    #[arg(long, value_name = "DIR", default_value = "catalog")]
    catalog: PathBuf,
    /// How to write diagnostics: for people, or one JSON object per line.
    #[arg(long, value_enum, default_value_t = FormatArg::Human)]
    format: FormatArg,
}

#[derive(Clone, Copy, ValueEnum)]
enum FormatArg {
    Human,
    Json,
}

const EXIT_ERRORS: u8 = 1;
const EXIT_FAILURE: u8 = 2;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Check(args) => check(args),
        Command::Build(args) => build(args),
    }
}

fn build(args: BuildArgs) -> ExitCode {
    use ludotheca::site::{self, BuildError, BuildOptions};
    let base_url = args
        .base_url
        .map(|u| if u.ends_with('/') { u } else { format!("{u}/") });
    let options = BuildOptions {
        catalog: args.catalog,
        out: args.out,
        force: args.force,
        progress: !args.quiet && io::stderr().is_terminal(),
        base_url,
    };
    let stderr = io::stderr();
    let color = stderr.is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let print = |diagnostics: &ludotheca::diagnostic::Diagnostics| {
        let _ = report::write(diagnostics, Format::Human, color, &mut stderr.lock());
    };
    match site::build(&options) {
        Ok(built) => {
            if !args.quiet && !built.diagnostics.is_empty() {
                print(&built.diagnostics);
            }
            if args.timings {
                for (step, took) in &built.timings {
                    eprintln!("{step:>8} {:>9.1} ms", took.as_secs_f64() * 1000.0);
                }
            }
            if !args.quiet {
                eprintln!(
                    "built {} pages ({} files) for {} items into {}",
                    built.pages,
                    built.files,
                    built.items,
                    options.out.display()
                );
            }
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
    let (_, diagnostics) = match ludotheca::load_and_check(&args.catalog) {
        Ok(result) => result,
        Err(err) => {
            eprintln!("error: {err}");
            return ExitCode::from(EXIT_FAILURE);
        }
    };
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
    if diagnostics.has_errors() {
        ExitCode::from(EXIT_ERRORS)
    } else {
        ExitCode::SUCCESS
    }
}
