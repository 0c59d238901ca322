//! The output folder, handled so that a build can never lose the previous site or touch anything else:
//!
//! - the site is written into a temporary folder beside the output (`.<name>.ludotheca-tmp-<pid>`), and only
//!   when every file is written is the old output moved into it, the temporary folder renamed into place, and
//!   the old site removed from inside the new one; a failure at any point removes the temporary folder and
//!   leaves the output as it was. Nothing outside the output and that temporary folder is ever touched;
//! - an existing, non-empty output folder must carry the marker file ludotheca writes into every site
//!   ([`MARKER`]); a folder without it holds someone else's files and is refused unless `--force`;
//! - an output that is a symbolic link, or that holds the catalog, is always refused; removal never follows
//!   symbolic links (`std::fs::remove_dir_all` removes a link, not what it points to).

use std::ffi::OsString;
use std::fs;
use std::io;
use std::path::{Component, Path, PathBuf};

use rayon::prelude::*;

use super::{Contents, SiteFile};

/// The file that marks a folder as a site ludotheca wrote.
pub const MARKER: &str = ".ludotheca-site";

/// Where the previous site waits inside the new one while the two are swapped.
const PREVIOUS: &str = ".ludotheca-previous";

const MARKER_TEXT: &str =
    "This folder was written by `ludotheca build`. The next build replaces it entirely.\n";

/// A checked output folder, ready to receive a site.
#[derive(Debug)]
pub struct Target {
    out: PathBuf,
    parent: PathBuf,
    name: OsString,
    exists: bool,
}

impl Target {
    /// Check that `out` may be (re)written, before any work is done.
    pub fn prepare(out: &Path, catalog: &Path, force: bool) -> Result<Target, String> {
        let shown = out.display();
        let name = match out.components().next_back() {
            Some(Component::Normal(name)) => name.to_os_string(),
            _ => {
                return Err(format!(
                    "`{shown}` cannot be an output folder: name a folder, such as `site`"
                ));
            }
        };
        let parent = match out.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        if !parent.is_dir() {
            return Err(format!(
                "the folder `{}` that should hold `{shown}` does not exist",
                parent.display()
            ));
        }
        let exists = match fs::symlink_metadata(out) {
            Ok(meta) if meta.file_type().is_symlink() => {
                return Err(format!(
                    "`{shown}` is a symbolic link; ludotheca writes only into a real folder"
                ));
            }
            Ok(meta) if !meta.is_dir() => {
                return Err(format!("`{shown}` exists and is not a folder"));
            }
            Ok(_) => true,
            Err(err) if err.kind() == io::ErrorKind::NotFound => false,
            Err(err) => return Err(format!("cannot read `{shown}`: {err}")),
        };
        // Replacing the output must never remove the catalog (or the folder holding it).
        if let (Ok(parent_abs), Ok(catalog_abs)) =
            (fs::canonicalize(&parent), fs::canonicalize(catalog))
        {
            let out_abs = parent_abs.join(&name);
            if catalog_abs.starts_with(&out_abs) {
                return Err(format!(
                    "`{shown}` holds the catalog; choose another output folder"
                ));
            }
            // A site inside the catalog would be read back as items (its copies of the records) next time.
            if out_abs.starts_with(&catalog_abs) {
                return Err(format!(
                    "`{shown}` is inside the catalog; choose an output folder outside it"
                ));
            }
        }
        if exists && !force {
            let mut entries =
                fs::read_dir(out).map_err(|e| format!("cannot read `{shown}`: {e}"))?;
            let empty = entries.next().is_none();
            let marked = fs::symlink_metadata(out.join(MARKER)).is_ok_and(|m| m.is_file());
            if !empty && !marked {
                return Err(format!(
                    "`{shown}` holds files that ludotheca did not write (it has no `{MARKER}` file); \
                     choose a new or empty folder, or pass --force to replace its contents"
                ));
            }
        }
        Ok(Target {
            out: out.to_path_buf(),
            parent,
            name,
            exists,
        })
    }

    fn sibling(&self, what: &str) -> PathBuf {
        let mut name = OsString::from(".");
        name.push(&self.name);
        name.push(format!(".ludotheca-{what}-{}", std::process::id()));
        self.parent.join(name)
    }

    /// Write every file into the temporary folder, then swap it in.
    pub fn write(self, files: Vec<SiteFile>) -> Result<(), String> {
        let temp = self.sibling("tmp");
        // A folder of that name is left from an earlier run of this same process id that was killed: ours.
        if fs::symlink_metadata(&temp).is_ok() {
            fs::remove_dir_all(&temp)
                .map_err(|e| format!("cannot remove `{}`: {e}", temp.display()))?;
        }
        fs::create_dir(&temp).map_err(|e| format!("cannot create `{}`: {e}", temp.display()))?;
        let guard = TempGuard(Some(temp.clone()));

        files
            .par_iter()
            .try_for_each(|file| write_file(&temp, file))?;
        fs::write(temp.join(MARKER), MARKER_TEXT)
            .map_err(|e| format!("cannot write the marker file: {e}"))?;

        if self.exists {
            // The previous site moves into the new one's folder, so that nothing but the output and the
            // temporary folder is ever written, and is removed from there once the new site is in place.
            let previous = temp.join(PREVIOUS);
            fs::rename(&self.out, &previous).map_err(|e| {
                format!(
                    "cannot move the previous site `{}` aside: {e}",
                    self.out.display()
                )
            })?;
            if let Err(err) = fs::rename(&temp, &self.out) {
                // Put the previous site back, so a failed build changes nothing; should even that fail, keep
                // the temporary folder that now holds it, and say where it is.
                if fs::rename(&previous, &self.out).is_err() {
                    guard.disarm();
                    return Err(format!(
                        "cannot move the new site into `{}`: {err}; the previous site is now in `{}`",
                        self.out.display(),
                        previous.display()
                    ));
                }
                return Err(format!(
                    "cannot move the new site into `{}`: {err}",
                    self.out.display()
                ));
            }
            guard.disarm();
            let leftover = self.out.join(PREVIOUS);
            fs::remove_dir_all(&leftover).map_err(|e| {
                format!(
                    "cannot remove the previous site at `{}`: {e}",
                    leftover.display()
                )
            })?;
        } else {
            fs::rename(&temp, &self.out)
                .map_err(|e| format!("cannot create `{}`: {e}", self.out.display()))?;
            guard.disarm();
        }
        Ok(())
    }
}

/// Removes the temporary folder when a build stops half way.
struct TempGuard(Option<PathBuf>);

impl TempGuard {
    fn disarm(mut self) {
        self.0 = None;
    }
}

impl Drop for TempGuard {
    fn drop(&mut self) {
        if let Some(path) = self.0.take() {
            let _ = fs::remove_dir_all(path);
        }
    }
}

/// A site path is relative and plain (`games/terhuchu/index.html`): no root, no `..`.
fn checked_path(root: &Path, path: &str) -> Result<PathBuf, String> {
    let relative = Path::new(path);
    if path.is_empty()
        || !relative
            .components()
            .all(|c| matches!(c, Component::Normal(_)))
    {
        return Err(format!("refusing to write `{path}` outside the site"));
    }
    Ok(root.join(relative))
}

fn write_file(root: &Path, file: &SiteFile) -> Result<(), String> {
    let path = checked_path(root, &file.path)?;
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir).map_err(|e| format!("cannot create `{}`: {e}", dir.display()))?;
    }
    let written = match &file.contents {
        Contents::Text(text) => fs::write(&path, text),
        Contents::Bytes(bytes) => fs::write(&path, bytes),
    };
    written.map_err(|e| format!("cannot write `{}`: {e}", file.path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_stay_inside() {
        let root = Path::new("/tmp/x");
        assert!(checked_path(root, "games/a/index.html").is_ok());
        assert!(checked_path(root, "../a").is_err());
        assert!(checked_path(root, "/etc/passwd").is_err());
        assert!(checked_path(root, "a/../../b").is_err());
        assert!(checked_path(root, "").is_err());
    }
}
