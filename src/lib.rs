//! ludotheca: a static-site generator and validator for digital archives of traditional board games.
//!
//! The library reads a catalog folder ([`catalog::load`]), validates it ([`check::check`]) into the checked
//! model every later step takes, with [`diagnostic::Diagnostics`], and renders those for people or machines ([`report`]).

pub mod allocator;
pub mod archive;
pub mod catalog;
pub mod check;
pub mod diagnostic;
pub mod fingerprint;
pub mod interop;
pub mod large_pages;
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

/// Runs `work` on one of the threads of the pool that every parallel step runs on, and waits for it. Begun on
/// the program's main thread instead, each parallel step is handed over to the pool and waited for (a sleep
/// and a wake-up every time), and the one-thread parts between them run on a third thread beside the pool's,
/// on as many cores; begun on a thread of the pool, each split runs its first half at once where it is. At
/// 10,000 items a rebuild in a new process came out about 3% quicker, its check step a quarter.
///
/// Nothing that runs inside may wait for a thread outside the pool that asks the pool for work in turn: with a
/// pool of one thread (a machine of one core), that thread would be the one waiting, and would wait forever.
pub fn on_the_pool<R: Send>(work: impl FnOnce() -> R + Send) -> R {
    // A scope's body runs on a thread of the pool, the calling thread waiting for it.
    rayon::scope(|_| work())
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn work_put_on_the_pool_runs_on_a_thread_of_the_pool_and_gives_back_its_result() {
        assert_eq!(
            rayon::current_thread_index(),
            None,
            "tests run outside the pool"
        );
        let (index, sum) = on_the_pool(|| {
            let (low, high) =
                rayon::join(|| (1..=50u64).sum::<u64>(), || (51..=100u64).sum::<u64>());
            (rayon::current_thread_index(), low + high)
        });
        assert!(index.is_some(), "the work ran on a thread outside the pool");
        assert_eq!(sum, 5050);
    }
}
