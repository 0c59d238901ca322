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
