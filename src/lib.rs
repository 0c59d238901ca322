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

/// What a check took as a build had left it: games and records as that build found them, each of how many in
/// all, and the catalog's files taken unread by their stamps, of how many.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reused {
    pub games: (usize, usize),
    pub records: (usize, usize),
    pub files: (usize, usize),
    /// Files taken unread that were found changed when a check read them: the catalog was then checked
    /// again, reading every file.
    pub changed: Vec<std::path::PathBuf>,
}

/// [`load_and_check`], taking from `site`, when it is a site a build wrote, what that build kept: the games it
/// replayed cleanly and the records it found clean, each known by the hash of everything its checks read (so
/// one taken is one whose checks would find nothing again; what depends on more than an item's own files,
/// citations, ruleset names and identifiers, is checked as always), and the files whose stamps are unchanged
/// since it read them, taken unread. The same diagnostics as a check of everything, sooner after a build;
/// nothing in `site` is written.
pub fn load_and_check_after(
    root: &Path,
    site: Option<&Path>,
) -> Result<(Checked, Diagnostics, Reused), LoadError> {
    let built = site.and_then(site::output::Target::built);
    let (checked, diagnostics, reused) = check_once(root, built.as_ref(), true)?;
    if reused.changed.is_empty() {
        return Ok((checked, diagnostics, reused));
    }
    // A file taken unread by its stamp had changed when the check read it: what was made of it is dropped,
    // and the catalog checked again reading every file (which finds none changed since the load).
    drop((checked, diagnostics));
    let (checked, diagnostics, again) = check_once(root, built.as_ref(), false)?;
    Ok((
        checked,
        diagnostics,
        Reused {
            changed: reused.changed,
            ..again
        },
    ))
}

/// [`load_and_check_after`], once, taking files unread by their stamps when `trust_stamps`; the files found
/// changed since, if any, are in the [`Reused`] returned.
fn check_once(
    root: &Path,
    built: Option<&site::output::Target>,
    trust_stamps: bool,
) -> Result<(Checked, Diagnostics, Reused), LoadError> {
    let mut diagnostics = Diagnostics::new();
    let read_stamps = || built.map(|target| target.stamps()).unwrap_or_default();
    let known: Option<catalog::ReadStamps> =
        (trust_stamps && built.is_some()).then_some(&read_stamps);
    // Read beside the load, as a build reads them.
    let (catalog, (clean, mut games, mut images)) = rayon::join(
        || catalog::load_known(root, &mut diagnostics, None, known),
        || match built {
            Some(target) => (
                target.found_clean(),
                target.checked_games(),
                target.examined_images(),
            ),
            None => Default::default(),
        },
    );
    let catalog = catalog?;
    let files = (
        catalog
            .files
            .iter()
            .filter(|(_, file)| file.unread().is_some())
            .count(),
        catalog.files.len(),
    );
    let changed = std::sync::Arc::clone(&catalog.changed);
    let checked = check::check_with(
        catalog,
        &mut diagnostics,
        &clean,
        &mut games,
        &mut images,
        None,
    );
    // A file taken unread is read, and checked against the hash its stamp vouched for, when the check needs
    // its text: to replay it, to check it, or to quote its line in a diagnostic, which is done as the
    // diagnostic is made. So by now every file the report rests on has been seen as it is.
    let reused = Reused {
        games: games.taken(),
        records: checked.records_taken(),
        files,
        changed: changed.paths(),
    };
    Ok((checked, diagnostics, reused))
}
