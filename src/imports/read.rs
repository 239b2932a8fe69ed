//! Where an import may be read from, and how: the project root, confinement of a path to it,
//! paths shown relative to it, and a bounded read of regular files only.
//!
//! The root is the folder of the `fgraph.toml` that governs the checked file (the nearest one
//! above it), else the checked file's folder. An import resolves, symlinks followed, to a path
//! inside the root or is refused; a path that leads out is refused whether or not it exists,
//! so that the answer says nothing about files outside. Only a regular file is opened (checked
//! before opening, opened without blocking where the platform allows, checked again after),
//! and never more than the limit is read.

use std::path::{Component, Path, PathBuf};

/// The folder imports stay inside.
pub struct Project {
    /// As written (absolute, `..` removed lexically).
    abs: PathBuf,
    /// With symlinks resolved, when it exists.
    canon: Option<PathBuf>,
}

/// Why an import path is not read.
pub enum Refusal {
    /// Absolute, or leading outside the root (lexically or through a symlink); the reason.
    Outside(&'static str),
    /// The operating system's error resolving it.
    Unresolved(std::io::Error),
}

/// Why a resolved file is not read.
pub enum ReadError {
    /// Not a regular file: what it is.
    NotRegular(&'static str),
    /// Longer than the bound it was read with.
    TooLarge,
    Io(std::io::Error),
}

impl Project {
    /// The project of the checked file `main` (which need not exist: standard input, a test).
    pub fn of(main: &Path) -> Project {
        let dir = crate::config::find(main)
            .and_then(|toml| toml.parent().map(Path::to_path_buf))
            .or_else(|| absolute(main).and_then(|p| p.parent().map(Path::to_path_buf)))
            .unwrap_or_else(|| PathBuf::from("/"));
        Project {
            canon: std::fs::canonicalize(&dir).ok(),
            abs: normalize(&dir).unwrap_or(dir),
        }
    }

    fn contains(&self, p: &Path) -> bool {
        p.starts_with(&self.abs) || self.canon.as_ref().is_some_and(|c| p.starts_with(c))
    }

    /// `p` (absolute or relative to the working directory) relative to the root, for messages;
    /// `None` when it is not inside.
    pub fn show(&self, p: &Path) -> Option<String> {
        let p = normalize(&absolute(p)?)?;
        let rel = self
            .canon
            .as_ref()
            .and_then(|c| p.strip_prefix(c).ok())
            .or_else(|| p.strip_prefix(&self.abs).ok())?;
        Some(if rel.as_os_str().is_empty() {
            ".".to_string()
        } else {
            rel.display().to_string()
        })
    }

    /// The canonical path of the import `path` written in a file in `dir`.
    pub fn resolve(&self, dir: &Path, path: &str) -> Result<PathBuf, Refusal> {
        let written = Path::new(path);
        if written.is_absolute() || written.has_root() {
            return Err(Refusal::Outside("is an absolute path"));
        }
        let joined = dir.join(written);
        let lexical = absolute(&joined).and_then(|p| normalize(&p));
        if !lexical.as_deref().is_some_and(|p| self.contains(p)) {
            return Err(Refusal::Outside("leads outside it"));
        }
        match std::fs::canonicalize(&joined) {
            Ok(c) if self.contains(&c) => Ok(c),
            Ok(_) => Err(Refusal::Outside("leads outside it through a symbolic link")),
            Err(e) => {
                // Whether it exists is nobody's business when a symlink on the way leads out.
                let out = joined
                    .ancestors()
                    .skip(1)
                    .filter(|a| !a.as_os_str().is_empty())
                    .find_map(|a| std::fs::canonicalize(a).ok())
                    .is_some_and(|a| !self.contains(&a));
                if out {
                    Err(Refusal::Outside("leads outside it through a symbolic link"))
                } else {
                    Err(Refusal::Unresolved(e))
                }
            }
        }
    }
}

fn absolute(p: &Path) -> Option<PathBuf> {
    let p = if p.as_os_str().is_empty() {
        Path::new(".")
    } else {
        p
    };
    std::path::absolute(p).ok()
}

/// `p` (absolute) with `.` and `..` removed lexically; `None` if `..` climbs above the root.
fn normalize(p: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() || out.as_os_str().is_empty() {
                    return None;
                }
            }
            other => out.push(other),
        }
    }
    Some(out)
}

/// The bytes of the regular file `path`, at most `limit` of them, through the one bounded
/// reader (`crate::fsio::read_regular`); a file over the limit is refused from its size
/// before a byte is read.
pub fn read_regular(path: &Path, limit: usize) -> Result<Vec<u8>, ReadError> {
    let meta = std::fs::metadata(path).map_err(ReadError::Io)?;
    if meta.is_file() && meta.len() > limit as u64 {
        return Err(ReadError::TooLarge);
    }
    match crate::fsio::read_regular(path, limit) {
        Ok(bytes) if bytes.len() > limit => Err(ReadError::TooLarge),
        Ok(bytes) => Ok(bytes),
        Err(crate::fsio::ReadError::NotRegular(what)) => Err(ReadError::NotRegular(what)),
        Err(crate::fsio::ReadError::Io(e)) => Err(ReadError::Io(e)),
    }
}
