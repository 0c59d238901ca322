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
    let mut diagnostics = Diagnostics::new();
    let catalog = catalog::load(root, &mut diagnostics)?;
    let checked = check::check(catalog, &mut diagnostics);
    Ok((checked, diagnostics))
}
