//! How long the preview server's rebuild after one edit takes: the builds `ludotheca serve` runs, in one
//! process that keeps what each build made ([`ludotheca::site::Kept`]), on a catalog given on the command line
//! (one of `scripts/bench-build generate N OUT`).
//!
//! `cargo bench --bench rebuild -- CATALOG [EDITS]` builds the catalog once into a new folder, then EDITS times
//! (default 7) changes the title of the first game's record and runs the two passes the server runs: the items'
//! pages, then the whole site. It prints each pass's wall time, the process's CPU time and the steps, then the
//! medians. CPU time is the steadier figure on a shared machine. The record is put back at the end.
//!
//! With `--items-only`, each edit runs the first pass alone (the one the page reloads after), which is what a
//! profile of that pass wants: the whole pass no longer dilutes it.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use ludotheca::site::{self, BuildOptions, Built, Kept, Scope};

// The program's allocator: with the system's, the steps measured here spent their time differently from the
// same steps in `ludotheca` (a rebuild's load step was half page clearing).
#[global_allocator]
static ALLOCATOR: ludotheca::allocator::Mimalloc = ludotheca::allocator::Mimalloc;

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let items_only = args.iter().any(|a| a == "--items-only");
    let args: Vec<String> = args.into_iter().filter(|a| a != "--items-only").collect();
    let Some(catalog) = args.first().map(PathBuf::from) else {
        eprintln!("usage: cargo bench --bench rebuild -- CATALOG [EDITS] [--items-only]");
        std::process::exit(2);
    };
    let edits: usize = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(7);
    let record = first_game_record(&catalog).unwrap_or_else(|| {
        eprintln!("error: no game record under {}", catalog.display());
        std::process::exit(2);
    });
    let original = fs::read_to_string(&record).expect("the record reads");
    let work = tempfile::tempdir().expect("a scratch folder");
    let options = BuildOptions {
        catalog: catalog.clone(),
        out: work.path().join("site"),
        force: false,
        progress: false,
        base_url: None,
    };
    // As the server does.
    ludotheca::resident::keep_freed();
    let mut kept = Kept::default();
    let (first, wall, cpu) = timed(|| site::build_with(&options, Some(&mut kept)));
    println!(
        "first build: {:.0} ms wall, {:.0} ms CPU, {} items",
        ms(wall),
        ms(cpu),
        first.as_ref().map_or(0, |b| b.items)
    );
    let mut items = Vec::new();
    let mut whole = Vec::new();
    for edit in 0..edits {
        let title = format!("<dcterms:title>Edited {edit}</dcterms:title>");
        let text = replace_title(&original, &title);
        fs::write(&record, text).expect("the record writes");
        kept.changed(&record);
        for (scope, into) in [(Scope::Items, &mut items), (Scope::Whole, &mut whole)] {
            if items_only && scope == Scope::Whole {
                continue;
            }
            let (built, wall, cpu) = timed(|| site::build_scoped(&options, Some(&mut kept), scope));
            let built = built.unwrap_or_else(|e| panic!("edit {edit}: {e}"));
            println!(
                "edit {edit}, {:<6} {:>6.1} ms wall {:>6.1} ms CPU ({}): {} pages rendered, {} files written",
                name(scope),
                ms(wall),
                ms(cpu),
                steps(&built),
                built.rendered,
                built.written.written
            );
            into.push((wall, cpu));
        }
    }
    fs::write(&record, &original).expect("the record is put back");
    for (scope, runs) in [(Scope::Items, &mut items), (Scope::Whole, &mut whole)] {
        if runs.is_empty() {
            continue;
        }
        let (mut walls, mut cpus): (Vec<Duration>, Vec<Duration>) = runs.iter().copied().unzip();
        println!(
            "median of {} edits, {}: {:.1} ms wall, {:.1} ms CPU",
            runs.len(),
            name(scope),
            ms(median(&mut walls)),
            ms(median(&mut cpus))
        );
    }
}

fn name(scope: Scope) -> &'static str {
    match scope {
        Scope::Items => "items",
        Scope::Whole => "whole",
    }
}

fn steps(built: &Built) -> String {
    built
        .timings
        .iter()
        .map(|step| format!("{} {:.1}", step.name, ms(step.took)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn median(values: &mut [Duration]) -> Duration {
    values.sort();
    values.get(values.len() / 2).copied().unwrap_or_default()
}

/// Run `f`, with its wall time and the CPU time the whole process (every thread) spent meanwhile.
fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration, Duration) {
    let (wall, cpu) = (Instant::now(), process_cpu());
    let value = f();
    (value, wall.elapsed(), process_cpu().saturating_sub(cpu))
}

fn process_cpu() -> Duration {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid timespec for the call to fill.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut now) };
    Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
}

fn replace_title(record: &str, title: &str) -> String {
    match (
        record.find("<dcterms:title>"),
        record.find("</dcterms:title>"),
    ) {
        (Some(start), Some(end)) if start < end => format!(
            "{}{title}{}",
            &record[..start],
            &record[end + "</dcterms:title>".len()..]
        ),
        _ => panic!("the record has no title to edit"),
    }
}

/// The record of the first game folder in path order (`games/...`), the one an archivist is likely to edit.
fn first_game_record(catalog: &Path) -> Option<PathBuf> {
    walkdir::WalkDir::new(catalog.join("games"))
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .find(|e| e.file_name() == "record.xml")
        .map(|e| e.into_path())
}
