//! Where an import may be read from: the project root and the library folders, confinement of
//! a path to the one it is looked up under, and paths shown relative to the project.
//!
//! The root is the folder of the `fgraph.toml` that governs the checked file (the nearest one
//! above it), else the checked file's folder. Library folders were checked when the
//! configuration was read (`Library::resolve`). An import resolves, symlinks followed, to a
//! path inside the folder it is looked up under or is refused; a path that leads out is
//! refused whether or not it exists, so that the answer says nothing about files outside.
//! Every question goes through the file system seam ([`Vfs`]).

use super::library::Library;
use super::vfs::{Vfs, normalize};
use std::path::{Path, PathBuf};

/// A folder imports stay inside.
struct Root {
    /// As written (absolute, `..` removed lexically).
    abs: PathBuf,
    /// With symlinks resolved, when it exists.
    canon: Option<PathBuf>,
}

impl Root {
    fn new(fs: &dyn Vfs, dir: &Path) -> Root {
        Root {
            canon: fs.canonicalize(dir).ok(),
            abs: normalize(dir).unwrap_or_else(|| dir.to_path_buf()),
        }
    }

    fn contains(&self, p: &Path) -> bool {
        p.starts_with(&self.abs) || self.canon.as_ref().is_some_and(|c| p.starts_with(c))
    }

    /// `p` (absolute, normalized) relative to this root.
    fn relative<'p>(&self, p: &'p Path) -> Option<&'p Path> {
        self.canon
            .as_ref()
            .and_then(|c| p.strip_prefix(c).ok())
            .or_else(|| p.strip_prefix(&self.abs).ok())
    }
}

/// Which folder an import is looked up under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Under {
    /// The project root.
    Project,
    /// The library folder of this index.
    Library(usize),
}

/// The folders imports stay inside, and the file system they are read through.
pub struct Project<'f> {
    pub fs: &'f dyn Vfs,
    root: Root,
    libraries: Vec<(String, Root)>,
}

/// Why an import path is not read.
pub enum Refusal {
    /// Absolute, or leading outside the folder (lexically or through a symlink); the reason.
    Outside(String),
    /// The file system's error resolving it.
    Unresolved(std::io::Error),
}

impl<'f> Project<'f> {
    /// The project of the checked file `main` (which need not exist: standard input, a test),
    /// with the library folders of its configuration.
    pub fn of(fs: &'f dyn Vfs, main: &Path, libraries: &[Library]) -> Project<'f> {
        let dir = crate::config::find_in(fs, main)
            .and_then(|toml| toml.parent().map(Path::to_path_buf))
            .or_else(|| absolute(fs, main).and_then(|p| p.parent().map(Path::to_path_buf)))
            .unwrap_or_else(|| PathBuf::from("/"));
        Project {
            fs,
            root: Root::new(fs, &dir),
            libraries: libraries
                .iter()
                .map(|l| (l.name.clone(), Root::new(fs, &l.dir)))
                .collect(),
        }
    }

    /// The library folders' names, in order.
    pub fn library_names(&self) -> impl Iterator<Item = &str> {
        self.libraries.iter().map(|(n, _)| n.as_str())
    }

    /// The folder of library `k`.
    pub fn library_dir(&self, k: usize) -> Option<&Path> {
        self.libraries.get(k).map(|(_, r)| r.abs.as_path())
    }

    /// `p` (absolute or relative to the working directory) relative to the project root for
    /// messages, else as its library folder's name joined with its path inside it; `None`
    /// when it is in neither. A name that would start with `std/` starts with `./std/`, as
    /// the import of such a file is written, so that it is never taken for the standard
    /// library's.
    pub fn show(&self, p: &Path) -> Option<String> {
        self.show_plain(p).map(|s| {
            if s == "std" || s.starts_with("std/") {
                format!("./{s}")
            } else {
                s
            }
        })
    }

    fn show_plain(&self, p: &Path) -> Option<String> {
        let p = normalize(&absolute(self.fs, p)?)?;
        let shown = |rel: &Path| {
            if rel.as_os_str().is_empty() {
                ".".to_string()
            } else {
                rel.display().to_string()
            }
        };
        if let Some(rel) = self.root.relative(&p) {
            return Some(shown(rel));
        }
        self.libraries.iter().find_map(|(name, r)| {
            let rel = r.relative(&p)?;
            Some(if rel.as_os_str().is_empty() {
                name.clone()
            } else if name == "." {
                shown(rel)
            } else {
                format!("{name}/{}", rel.display())
            })
        })
    }

    /// The canonical path of the import `path` written in a file in `dir`, looked up under
    /// the project root or a library folder and confined to it.
    pub fn resolve(&self, under: Under, dir: &Path, path: &str) -> Result<PathBuf, Refusal> {
        let (root, what) = match under {
            Under::Project => (&self.root, "it".to_string()),
            Under::Library(k) => match self.libraries.get(k) {
                Some((name, r)) => (r, format!("the library folder `{name}`")),
                None => return Err(Refusal::Outside("names no library folder".to_string())),
            },
        };
        let written = Path::new(path);
        if written.is_absolute() || written.has_root() {
            return Err(Refusal::Outside("is an absolute path".to_string()));
        }
        let joined = dir.join(written);
        let lexical = absolute(self.fs, &joined).and_then(|p| normalize(&p));
        if !lexical.as_deref().is_some_and(|p| root.contains(p)) {
            return Err(Refusal::Outside(format!("leads outside {what}")));
        }
        let through_link = || format!("leads outside {what} through a symbolic link");
        match self.fs.canonicalize(&joined) {
            Ok(c) if root.contains(&c) => Ok(c),
            Ok(_) => Err(Refusal::Outside(through_link())),
            Err(e) => {
                // Whether it exists is nobody's business when a symlink on the way leads out.
                let out = joined
                    .ancestors()
                    .skip(1)
                    .filter(|a| !a.as_os_str().is_empty())
                    .find_map(|a| self.fs.canonicalize(a).ok())
                    .is_some_and(|a| !root.contains(&a));
                if out {
                    Err(Refusal::Outside(through_link()))
                } else {
                    Err(Refusal::Unresolved(e))
                }
            }
        }
    }
}

fn absolute(fs: &dyn Vfs, p: &Path) -> Option<PathBuf> {
    let p = if p.as_os_str().is_empty() {
        Path::new(".")
    } else {
        p
    };
    fs.absolute(p)
}
