//! The file system imports are read through ([`Vfs`]): the real one ([`Disk`], through
//! `crate::fsio`'s bounded regular-file reader) and one held in memory ([`MemoryFs`]: files,
//! folders and symbolic links, with a log of what was read) for tests and fuzzing. The rules
//! (confinement, limits, which files) live in the loader, above this seam, so both file
//! systems get the same ones; [`normalize`] is the lexical half of those rules.

use std::collections::BTreeMap;
use std::io;
use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;

/// Why a resolved file is not read.
#[derive(Debug)]
pub enum ReadError {
    /// Not a regular file: what it is ("a directory").
    NotRegular(&'static str),
    /// Longer than the bound it was read with.
    TooLarge,
    Io(io::Error),
}

/// What the import loader asks of a file system. Paths given to it are absolute unless said
/// otherwise.
pub trait Vfs: Send + Sync {
    /// `p` made absolute (against the working directory), as `std::path::absolute` does:
    /// lexically, `..` kept.
    fn absolute(&self, p: &Path) -> Option<PathBuf>;
    /// `p` with every symbolic link resolved and `.`/`..` removed; an error when a part of
    /// it does not exist (or is not a folder where one is needed).
    fn canonicalize(&self, p: &Path) -> io::Result<PathBuf>;
    /// Whether `p` is a regular file, symbolic links followed.
    fn is_file(&self, p: &Path) -> bool;
    /// Whether `p` is a folder, symbolic links followed.
    fn is_dir(&self, p: &Path) -> bool;
    /// The bytes of the regular file `p` (symbolic links followed), at most `limit` of them;
    /// anything else is refused before a byte is read.
    fn read(&self, p: &Path, limit: usize) -> Result<Vec<u8>, ReadError>;
}

/// The real file system.
#[derive(Clone, Copy, Debug, Default)]
pub struct Disk;

impl Vfs for Disk {
    fn absolute(&self, p: &Path) -> Option<PathBuf> {
        std::path::absolute(p).ok()
    }

    fn canonicalize(&self, p: &Path) -> io::Result<PathBuf> {
        std::fs::canonicalize(p)
    }

    fn is_file(&self, p: &Path) -> bool {
        p.is_file()
    }

    fn is_dir(&self, p: &Path) -> bool {
        p.is_dir()
    }

    /// Through the one bounded reader (`crate::fsio::read_regular`); a file over the limit
    /// is refused from its size before a byte is read.
    fn read(&self, p: &Path, limit: usize) -> Result<Vec<u8>, ReadError> {
        let meta = std::fs::metadata(p).map_err(ReadError::Io)?;
        if meta.is_file() && meta.len() > limit as u64 {
            return Err(ReadError::TooLarge);
        }
        match crate::fsio::read_regular(p, limit) {
            Ok(bytes) if bytes.len() > limit => Err(ReadError::TooLarge),
            Ok(bytes) => Ok(bytes),
            Err(crate::fsio::ReadError::NotRegular(what)) => Err(ReadError::NotRegular(what)),
            Err(crate::fsio::ReadError::Io(e)) => Err(ReadError::Io(e)),
        }
    }
}

/// `p` (absolute) with `.` and `..` removed lexically; `None` if `..` climbs above the root.
pub fn normalize(p: &Path) -> Option<PathBuf> {
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

/// An entry of a [`MemoryFs`].
#[derive(Clone, Debug)]
enum Node {
    File(Vec<u8>),
    Dir,
    /// A symbolic link to this path (relative to the link's folder unless absolute).
    Link(PathBuf),
}

/// How many symbolic links one resolution follows, as Linux (`ELOOP` past 40).
const MAX_LINKS: usize = 40;

/// A file system in memory, rooted at `/`, with a working directory of `/`: files, folders
/// and symbolic links, and a log of every path [`Vfs::read`] was asked for.
#[derive(Debug, Default)]
pub struct MemoryFs {
    nodes: BTreeMap<PathBuf, Node>,
    reads: Mutex<Vec<PathBuf>>,
}

impl MemoryFs {
    pub fn new() -> MemoryFs {
        MemoryFs::default()
    }

    /// Adds the file `path` (made absolute against `/`, `.`/`..` removed lexically) and the
    /// folders above it. Returns false, changing nothing, when the path climbs above `/`,
    /// names `/`, or when a file or link is in the way (or a folder is at `path`); a file or
    /// link at `path` is replaced.
    pub fn add_file(&mut self, path: impl AsRef<Path>, bytes: impl Into<Vec<u8>>) -> bool {
        self.add(path.as_ref(), Node::File(bytes.into()))
    }

    /// Adds the symbolic link `path` to `target` (kept as written), as [`Self::add_file`].
    pub fn add_symlink(&mut self, path: impl AsRef<Path>, target: impl AsRef<Path>) -> bool {
        self.add(path.as_ref(), Node::Link(target.as_ref().to_path_buf()))
    }

    /// Adds the folder `path` and those above it, as [`Self::add_file`] (an existing folder
    /// is kept).
    pub fn add_dir(&mut self, path: impl AsRef<Path>) -> bool {
        self.add(path.as_ref(), Node::Dir)
    }

    /// Every path read so far, in order.
    pub fn reads(&self) -> Vec<PathBuf> {
        self.reads.lock().map(|r| r.clone()).unwrap_or_default()
    }

    /// The files of the tree (not links), by absolute path.
    pub fn files(&self) -> impl Iterator<Item = (&Path, &[u8])> {
        self.nodes.iter().filter_map(|(p, n)| match n {
            Node::File(b) => Some((p.as_path(), b.as_slice())),
            _ => None,
        })
    }

    fn add(&mut self, path: &Path, node: Node) -> bool {
        let Some(path) = normalize(&Path::new("/").join(path)) else {
            return false;
        };
        if path.parent().is_none() {
            return false;
        }
        let mut above: Vec<&Path> = path.ancestors().skip(1).collect();
        above.pop(); // `/`
        if above
            .iter()
            .any(|a| self.nodes.get(*a).is_some_and(|n| !matches!(n, Node::Dir)))
        {
            return false;
        }
        match (self.nodes.get(&path), &node) {
            (Some(Node::Dir), Node::Dir) => return true,
            (Some(Node::Dir), _) => return false,
            _ => {}
        }
        for a in above {
            self.nodes.insert(a.to_path_buf(), Node::Dir);
        }
        self.nodes.insert(path, node);
        true
    }

    /// The resolved path of `p` (symbolic links followed, as `realpath` does: each part in
    /// turn, a link's target put in its place) and what is there.
    fn resolve(&self, p: &Path) -> io::Result<(PathBuf, &Node)> {
        const ROOT: Node = Node::Dir;
        // The parts still to walk, the next one last.
        let mut todo: Vec<Part> = parts(&Path::new("/").join(p));
        let mut out = PathBuf::from("/");
        let mut node = &ROOT;
        let mut links = 0;
        while let Some(part) = todo.pop() {
            match part {
                Part::Root => {
                    out = PathBuf::from("/");
                    node = &ROOT;
                }
                Part::Parent => {
                    if !matches!(node, Node::Dir) {
                        return Err(os_error(Errno::NotDir));
                    }
                    out.pop();
                    node = self.nodes.get(&out).unwrap_or(&ROOT);
                }
                Part::Name(name) => {
                    if !matches!(node, Node::Dir) {
                        return Err(os_error(Errno::NotDir));
                    }
                    let next = out.join(name);
                    match self.nodes.get(&next) {
                        None => return Err(os_error(Errno::NoEnt)),
                        Some(Node::Link(target)) => {
                            links += 1;
                            if links > MAX_LINKS {
                                return Err(os_error(Errno::Loop));
                            }
                            todo.extend(parts(target));
                        }
                        Some(n) => {
                            out = next;
                            node = n;
                        }
                    }
                }
            }
        }
        Ok((out, node))
    }
}

/// The errors a [`MemoryFs`] gives, as the operating system's (so that messages read alike).
enum Errno {
    NoEnt,
    NotDir,
    Loop,
}

fn os_error(e: Errno) -> io::Error {
    #[cfg(unix)]
    {
        io::Error::from_raw_os_error(match e {
            Errno::NoEnt => libc::ENOENT,
            Errno::NotDir => libc::ENOTDIR,
            Errno::Loop => libc::ELOOP,
        })
    }
    #[cfg(not(unix))]
    {
        match e {
            Errno::NoEnt => io::ErrorKind::NotFound.into(),
            Errno::NotDir => io::ErrorKind::NotADirectory.into(),
            Errno::Loop => io::Error::other("Too many levels of symbolic links"),
        }
    }
}

/// A part of a path, for [`MemoryFs::resolve`].
enum Part {
    Root,
    Parent,
    Name(std::ffi::OsString),
}

/// The parts of `p`, the first one last (`.` left out).
fn parts(p: &Path) -> Vec<Part> {
    p.components()
        .rev()
        .filter_map(|c| match c {
            Component::RootDir | Component::Prefix(_) => Some(Part::Root),
            Component::CurDir => None,
            Component::ParentDir => Some(Part::Parent),
            Component::Normal(n) => Some(Part::Name(n.to_os_string())),
        })
        .collect()
}

impl Vfs for MemoryFs {
    fn absolute(&self, p: &Path) -> Option<PathBuf> {
        (!p.as_os_str().is_empty()).then(|| Path::new("/").join(p))
    }

    fn canonicalize(&self, p: &Path) -> io::Result<PathBuf> {
        self.resolve(p).map(|(c, _)| c)
    }

    fn is_file(&self, p: &Path) -> bool {
        matches!(self.resolve(p), Ok((_, Node::File(_))))
    }

    fn is_dir(&self, p: &Path) -> bool {
        matches!(self.resolve(p), Ok((_, Node::Dir)))
    }

    fn read(&self, p: &Path, limit: usize) -> Result<Vec<u8>, ReadError> {
        if let Ok(mut r) = self.reads.lock() {
            r.push(Path::new("/").join(p));
        }
        match self.resolve(p).map_err(ReadError::Io)? {
            (_, Node::File(b)) if b.len() > limit => Err(ReadError::TooLarge),
            (_, Node::File(b)) => Ok(b.clone()),
            (_, Node::Dir) => Err(ReadError::NotRegular("a directory")),
            (_, Node::Link(_)) => Err(ReadError::Io(os_error(Errno::NoEnt))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_links_resolve_as_realpath_does() {
        let mut fs = MemoryFs::new();
        assert!(fs.add_file("/p/lib/a.fgraph", "x"));
        assert!(fs.add_symlink("/p/up", ".."));
        assert!(fs.add_symlink("/p/l", "lib"));
        assert!(fs.add_symlink("/p/loop", "loop"));
        assert!(fs.add_symlink("/p/abs", "/p/lib/a.fgraph"));
        assert!(!fs.add_file("/p/lib/a.fgraph/b", "x"), "a file in the way");
        assert!(!fs.add_file("/..", "x"));
        let c = |p: &str| fs.canonicalize(Path::new(p)).map_err(|e| e.kind());
        assert_eq!(
            c("/p/up/p/l/a.fgraph"),
            Ok(PathBuf::from("/p/lib/a.fgraph"))
        );
        assert_eq!(
            c("/p/l/../lib/./a.fgraph"),
            Ok(PathBuf::from("/p/lib/a.fgraph"))
        );
        assert_eq!(c("/p/abs"), Ok(PathBuf::from("/p/lib/a.fgraph")));
        assert_eq!(c("/p/nope"), Err(io::ErrorKind::NotFound));
        assert_eq!(c("/p/abs/x"), Err(io::ErrorKind::NotADirectory));
        assert!(c("/p/loop").is_err());
        assert!(fs.is_file(Path::new("/p/abs")) && fs.is_dir(Path::new("/p/up")));
        assert!(matches!(
            fs.read(Path::new("/p/l"), 10),
            Err(ReadError::NotRegular(_))
        ));
        assert!(matches!(
            fs.read(Path::new("/p/abs"), 0),
            Err(ReadError::TooLarge)
        ));
        assert_eq!(fs.read(Path::new("/p/abs"), 1).ok(), Some(b"x".to_vec()));
        assert_eq!(fs.reads().len(), 3);
    }
}
