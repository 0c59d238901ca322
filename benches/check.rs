//! How long `ludotheca check` takes to load and check a catalog: synthetic catalogs of 1,000 and 10,000 varied
//! records, each measured several times, reporting the median (plain `Instant`, no benchmark framework).
//!
//! `cargo bench --bench check` runs it; `cargo bench --bench check -- generate N OUT` only writes a catalog of N
//! records to OUT (what `scripts/gen-catalog` calls).

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use ludotheca::diagnostic::Diagnostics;

// The program's allocator: with the system's, the steps measured here spent their time differently from the
// same steps in `ludotheca` (a rebuild's load step was half page clearing).
#[global_allocator]
static ALLOCATOR: ludotheca::allocator::Mimalloc = ludotheca::allocator::Mimalloc;

const RUNS: usize = 11;

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    if args.first().map(String::as_str) == Some("generate") {
        let (Some(n), Some(out)) = (args.get(1).and_then(|n| n.parse().ok()), args.get(2)) else {
            eprintln!("usage: check generate N OUT");
            std::process::exit(2);
        };
        if let Err(err) = generate(n, Path::new(out)) {
            eprintln!("error: cannot write {out}: {err}");
            std::process::exit(2);
        }
        println!("wrote {n} records to {out}");
        return;
    }
    for n in [1_000, 10_000] {
        bench(n);
    }
}

/// The shipped Bagh-Chal rules and one of its records, the model of every synthetic game.
const BAGH_CHAL_RULES: &str = include_str!("../catalog/games/bagh-chal/rules.txt");
const BAGH_CHAL_RECORD: &str = include_str!("../catalog/games/bagh-chal/games/demo-placement.game");

fn bench(n: usize) {
    let dir = std::env::temp_dir().join(format!("ludotheca-bench-{}-{n}", std::process::id()));
    generate(n, &dir).expect("the synthetic catalog can be written");

    let mut load = Vec::new();
    let mut check = Vec::new();
    let mut total = Vec::new();
    let mut counts = (0, 0, 0);
    for _ in 0..RUNS {
        let start = Instant::now();
        let mut diagnostics = Diagnostics::new();
        let catalog = ludotheca::catalog::load(&dir, &mut diagnostics).expect("the catalog loads");
        let loaded = Instant::now();
        let checked = ludotheca::check::check(catalog, &mut diagnostics);
        let done = Instant::now();
        load.push(loaded - start);
        check.push(done - loaded);
        total.push(done - start);
        counts = (
            checked.catalog.items.len(),
            diagnostics.error_count(),
            diagnostics.warning_count(),
        );
    }
    let _ = fs::remove_dir_all(&dir);
    assert_eq!(counts.0, n, "every record is loaded");
    assert_eq!(counts.1, 0, "the synthetic catalog is valid");
    println!(
        "{n:>6} records: load+check median {:>8.1} ms (load {:.1} ms, check {:.1} ms; min {:.1}, max {:.1}; \
         {RUNS} runs; {} warnings)",
        ms(median(&mut total)),
        ms(median(&mut load)),
        ms(median(&mut check)),
        ms(*total.iter().min().expect("RUNS > 0")),
        ms(*total.iter().max().expect("RUNS > 0")),
        counts.2,
    );
}

fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// A small deterministic generator (xorshift), so every run measures the same catalog.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const REGIONS: [&str; 8] = [
    "nagaland",
    "nepal",
    "bengal",
    "deccan",
    "kerala",
    "sumatra",
    "mozambique",
    "assam",
];
const PLACES: [(&str, f64, f64); 6] = [
    ("Kohima", 94.11, 25.67),
    ("Kathmandu Valley", 85.32, 27.72),
    ("Pune", 73.85, 18.52),
    ("Thrissur", 76.21, 10.52),
    ("Medan", 98.67, 3.59),
    ("Maputo", 32.57, -25.97),
];
const WORDS: [&str; 16] = [
    "tiger", "goat", "hunt", "board", "capture", "line", "point", "seed", "pit", "sowing",
    "player", "piece", "corner", "centre", "etched", "temple",
];
const LANGS: [&str; 6] = ["en", "hi", "bn-Latn", "ne-Latn", "pt-MZ", "nag"];

/// Between `min` and `min + spread` words.
fn sentence(rng: &mut Rng, min: usize, spread: usize) -> String {
    let words = min + rng.below(spread);
    let mut s = String::new();
    for i in 0..words {
        if i > 0 {
            s.push(' ');
        }
        s.push_str(rng.pick(&WORDS));
    }
    s.push('.');
    s
}

/// Write a valid catalog of `n` records: about 60% games, 25% boards and 15% evidence, in region groups, with
/// references between them, citations of a bibliography, places, dates, languages and a few warnings.
pub fn generate(n: usize, out: &Path) -> std::io::Result<()> {
    let _ = fs::remove_dir_all(out);
    fs::create_dir_all(out)?;
    let mut rng = Rng(0x5eed_1a7e_b0a2_d5e5_u64);
    fs::write(
        out.join("ludotheca.toml"),
        "title = \"Synthetic archive\"\ndescription = \"Generated for the benchmark.\"\n\n[[labels]]\nterm = \"dcterms:instructionalMethod\"\nlabel = \"Rules\"\n",
    )?;
    let sources = (n / 10).max(10);
    let mut bib = String::from("@string{mac = \"Macmillan\"}\n\n");
    for s in 0..sources {
        let _ = writeln!(
            bib,
            "@book{{source-{s},\n  author = {{Hutton, John Henry and M{{\\\"u}}ller, Anna}},\n  title = {{Games of the {} hills, volume {s}}},\n  year = {{{}}},\n  publisher = mac,\n}}\n",
            REGIONS[s % REGIONS.len()],
            1880 + s % 140
        );
    }
    fs::write(out.join("sources.bib"), bib)?;

    let mut games: Vec<String> = Vec::new();
    for i in 0..n {
        let region = REGIONS[i % REGIONS.len()];
        let roll = rng.below(100);
        // The first record is a game so boards and evidence always have one to point at.
        let kind = if i == 0 || roll < 60 {
            "game"
        } else if roll < 85 {
            "board"
        } else {
            "evidence"
        };
        let id = format!("{kind}-{region}-{i}");
        let folder: PathBuf = out.join(format!("{kind}s")).join(region).join(&id);
        fs::create_dir_all(&folder)?;
        let (place, east, north) = PLACES[rng.below(PLACES.len())];
        let cite = format!("source-{}", i % sources);
        let mut xml = format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<record xmlns=\"urn:ludotheca:record:1\"\n        \
             xmlns:dc=\"http://purl.org/dc/elements/1.1/\"\n        xmlns:dcterms=\"http://purl.org/dc/terms/\"\n        \
             xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"\n        kind=\"{kind}\">\n  \
             <dcterms:title>Synthetic {kind} {i} of {region}</dcterms:title>\n  \
             <dcterms:alternative xml:lang=\"{}\">B\u{101}gh {i}</dcterms:alternative>\n  \
             <dcterms:description>{}</dcterms:description>\n  \
             <dcterms:spatial xsi:type=\"dcterms:Point\">east={east}; north={north}; name={place}</dcterms:spatial>\n  \
             <dcterms:spatial>{place}</dcterms:spatial>\n  \
             <dcterms:source cite=\"{cite}\" pages=\"{}\"/>\n  \
             <dc:subject>{} game</dc:subject>\n",
            rng.pick(&LANGS),
            sentence(&mut rng, 20, 200),
            1 + rng.below(300),
            rng.pick(&WORDS),
        );
        match kind {
            "game" => {
                let _ = writeln!(
                    xml,
                    "  <dcterms:instructionalMethod>{}</dcterms:instructionalMethod>\n  \
                     <dcterms:temporal xsi:type=\"dcterms:EDTF\">-0{}/{}</dcterms:temporal>\n  \
                     <dcterms:type xsi:type=\"dcterms:DCMIType\">InteractiveResource</dcterms:type>\n  \
                     <dcterms:relation>Unrecorded game {i}</dcterms:relation>",
                    sentence(&mut rng, 40, 100),
                    100 + rng.below(800),
                    1000 + rng.below(900),
                );
                if let Some(other) = games.get(rng.below(games.len().max(1))) {
                    let _ = writeln!(xml, "  <dcterms:isVersionOf ref=\"{other}\"/>");
                }
                if i % 50 == 0 {
                    // A warning now and then, as real catalogs have.
                    xml.push_str("  <dcterms:conformsTo>Hunt game</dcterms:conformsTo>\n");
                }
                // Real rules and a real record, so that the benchmark compiles and replays as `check` does on
                // a real catalog: the shipped Bagh-Chal, with its ruleset citing this catalog's source.
                let rules = BAGH_CHAL_RULES
                    .replace("ruleset common", "ruleset described")
                    .replace("source baghchal-common", &format!("source {cite}"));
                fs::write(folder.join("rules.txt"), rules)?;
                fs::create_dir_all(folder.join("games"))?;
                fs::write(
                    folder.join("games").join("demo.game"),
                    BAGH_CHAL_RECORD.replace("[Ruleset \"common\"]", "[Ruleset \"described\"]"),
                )?;
                games.push(id);
            }
            "board" => {
                let game = &games[rng.below(games.len())];
                let _ = writeln!(
                    xml,
                    "  <dcterms:medium>Basalt</dcterms:medium>\n  <dcterms:extent>{} x {} cm</dcterms:extent>\n  \
                     <dcterms:created xsi:type=\"dcterms:W3CDTF\">19{:02}-0{}-1{}</dcterms:created>\n  \
                     <playedWith game=\"{game}\" ruleset=\"described\"/>",
                    20 + rng.below(40),
                    20 + rng.below(40),
                    rng.below(100),
                    1 + rng.below(9),
                    rng.below(10),
                );
            }
            _ => {
                let game = &games[rng.below(games.len())];
                let _ = writeln!(
                    xml,
                    "  <dcterms:type>Ethnography</dcterms:type>\n  <attests game=\"{game}\"/>\n  \
                     <dcterms:temporal xsi:type=\"dcterms:Period\">start=18{:02}; end=19{:02}</dcterms:temporal>\n  \
                     <confidence>{}</confidence>",
                    rng.below(100),
                    rng.below(100),
                    rng.below(101),
                );
            }
        }
        xml.push_str("</record>\n");
        fs::write(folder.join("record.xml"), xml)?;
    }
    Ok(())
}
