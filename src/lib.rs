//! ludotheca: a static-site generator and validator for digital archives of traditional board games.
//!
//! The library reads a catalog folder ([`catalog::load`]), validates it ([`check::check`]) into the checked
//! model every later step takes, with [`diagnostic::Diagnostics`], and renders those for people or machines ([`report`]).

pub mod archive;
pub mod catalog;
pub mod check;
pub mod diagnostic;
pub mod fingerprint;
pub mod interop;
pub mod play;
pub mod report;
pub mod resident;
pub mod scheme;
pub mod serve;
pub mod site;
pub mod skeleton;
pub mod source;
pub mod suggest;

use std::path::Path;

use catalog::LoadError;
use check::Checked;
use diagnostic::Diagnostics;

/// Load the catalog at `root` and run every check: the checked catalog, and all diagnostics sorted by file and
/// position.
pub fn load_and_check(root: &Path) -> Result<(Checked, Diagnostics), LoadError> {
    let (checked, diagnostics, _) = load_and_check_after(root, None)?;
    Ok((checked, diagnostics))
}

/// How many games and records a check took as a build had found them, of how many in all.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reused {
    pub games: (usize, usize),
    pub records: (usize, usize),
}

/// [`load_and_check`], taking from `site`, when it is a site a build wrote, the games that build replayed
/// cleanly and the records it found clean: each is known by the hash of everything its checks read, so one
/// taken is one whose checks would find nothing again, and what depends on more than its own files (citations,
/// ruleset names, identifiers) is checked as always. The same diagnostics as a check of everything, sooner
/// after a build; nothing in `site` is written.
pub fn load_and_check_after(
    root: &Path,
    site: Option<&Path>,
) -> Result<(Checked, Diagnostics, Reused), LoadError> {
    let mut diagnostics = Diagnostics::new();
    let built = site.and_then(site::output::Target::built);
    // Read beside the load, as a build reads them.
    let (catalog, (clean, mut games, mut images)) = rayon::join(
        || catalog::load(root, &mut diagnostics),
        || match &built {
            Some(target) => (
                target.found_clean(),
                target.checked_games(),
                target.examined_images(),
            ),
            None => Default::default(),
        },
    );
    let checked = check::check_with(
        catalog?,
        &mut diagnostics,
        &clean,
        &mut games,
        &mut images,
        None,
    );
    let reused = Reused {
        games: games.taken(),
        records: checked.records_taken(),
    };
    Ok((checked, diagnostics, reused))
}
