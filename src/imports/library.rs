//! Where a run's imports come from besides the importing file's folder: the library folders an
//! `fgraph.toml` names (`[imports] paths = [...]`), checked against the rule that each resolves,
//! symbolic links followed, to a folder inside the folder of that `fgraph.toml`, and the file
//! system the loader reads through ([`ImportOptions`]).

use crate::imports::vfs::{Vfs, normalize};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A library folder: searched, in order, for an import not found beside the importing file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Library {
    /// As `fgraph.toml` writes it (`.` removed, `/` separators): how messages name it.
    pub name: String,
    /// Absolute, symbolic links resolved.
    pub dir: PathBuf,
}

impl Library {
    /// Whether `written` has the form of a library folder: relative, not empty, and never
    /// climbing above the folder it is written in (checked lexically, before any file system
    /// is asked); the reason otherwise.
    pub fn check_form(written: &str) -> Result<(), &'static str> {
        let p = Path::new(written);
        if written.trim().is_empty() {
            return Err("is empty");
        }
        if p.is_absolute() || p.has_root() {
            return Err("is an absolute path");
        }
        if normalize(&Path::new("/").join(p)).is_none() {
            return Err("leads outside the folder of `fgraph.toml`");
        }
        Ok(())
    }

    /// The library folder `written` of the `fgraph.toml` in the folder `base`: it must have
    /// the form [`Self::check_form`] asks for, exist, be a folder, and resolve (symbolic links
    /// followed) inside `base`; the reason otherwise.
    pub fn resolve(fs: &dyn Vfs, base: &Path, written: &str) -> Result<Library, String> {
        Library::check_form(written).map_err(str::to_string)?;
        let base = if base.as_os_str().is_empty() {
            Path::new(".")
        } else {
            base
        };
        let joined = base.join(written);
        let canon = fs
            .canonicalize(&joined)
            .map_err(|e| format!("cannot be used: {e}"))?;
        let base_canon = fs
            .canonicalize(base)
            .map_err(|e| format!("cannot be used: {e}"))?;
        if !canon.starts_with(&base_canon) {
            return Err(
                "leads outside the folder of `fgraph.toml` through a symbolic link".to_string(),
            );
        }
        if !fs.is_dir(&canon) {
            return Err("is not a folder".to_string());
        }
        let name = normalize(&Path::new("/").join(written))
            .and_then(|n| {
                n.strip_prefix("/")
                    .ok()
                    .map(|r| r.to_string_lossy().replace('\\', "/"))
            })
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| ".".to_string());
        Ok(Library { name, dir: canon })
    }
}

/// How a run finds imports: the library folders, and the file system they are read from.
#[derive(Clone, Default)]
pub struct ImportOptions {
    /// Searched in order after the importing file's folder.
    pub libraries: Vec<Library>,
    /// `None`: the real file system ([`crate::imports::vfs::Disk`]).
    pub fs: Option<Arc<dyn Vfs>>,
}

impl std::fmt::Debug for ImportOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ImportOptions")
            .field("libraries", &self.libraries)
            .field("fs", &self.fs.as_ref().map_or("disk", |_| "virtual"))
            .finish()
    }
}
