//! Reading and writing files (SPEC §9). [`read_regular`] is the one bounded reader: regular
//! files only (refused before a byte is read otherwise), never more than the limit + 1 bytes;
//! [`read_limited`] bounds standard input the same way. Writing files the user names: only
//! ever a regular file, never left truncated. [`write_file`] follows a symlink to its target and rewrites the target, refuses
//! a device, FIFO, socket or directory, refuses a read-only file unless forced, writes through
//! a temporary file created exclusively (`O_EXCL`, an unpredictable name) in the target's
//! directory, keeps the file's mode (and, where allowed, its owner), and refuses to clobber a
//! file that changed on disk since it was read. [`is_stdout`] names the paths that mean
//! standard output (`-`, `/dev/stdout`).

use std::fmt;
use std::fs::{File, Metadata, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// Whether an output path means standard output: `-` or `/dev/stdout`.
pub fn is_stdout(path: &Path) -> bool {
    path.as_os_str() == "-" || path.as_os_str() == "/dev/stdout"
}

/// What a rewrite must respect.
#[derive(Clone, Copy, Debug, Default)]
pub struct WriteOptions<'a> {
    /// The bytes the file held when it was read (`fmt`, `check --fix`): the file must still
    /// hold exactly these just before it is replaced, and must exist. `None` for an output
    /// file (`--dot`, `--html`…), which may be new.
    pub expect: Option<&'a [u8]>,
    /// Rewrite a read-only file too (its mode is kept).
    pub force: bool,
}

/// Why a file was not written. Every one ends the command with exit code 2.
#[derive(Debug)]
pub enum WriteError {
    /// Something other than a regular file is at the path (or its symlink's target): what.
    NotRegular(&'static str),
    /// A symbolic link whose target does not exist.
    DanglingSymlink,
    /// The file is read-only and `force` was not given.
    ReadOnly,
    /// This user may not open the file for writing and `force` was not given (a rename in a
    /// writable directory would replace it all the same).
    NotWritable,
    /// The file changed (or vanished) between the read and the rewrite.
    Changed,
    /// The operating system's error.
    Io(io::Error),
}

impl WriteError {
    /// The hint a command with `--force` adds after the message.
    pub fn force_hint(&self) -> &'static str {
        match self {
            WriteError::ReadOnly | WriteError::NotWritable => " (pass --force to rewrite it)",
            _ => "",
        }
    }
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WriteError::NotRegular(kind) => {
                write!(f, "it is a {kind}; fgraph only writes regular files")
            }
            WriteError::DanglingSymlink => {
                write!(f, "it is a symbolic link to a file that does not exist")
            }
            WriteError::ReadOnly => write!(f, "the file is read-only"),
            WriteError::NotWritable => write!(f, "the file is not writable by this user"),
            WriteError::Changed => write!(
                f,
                "the file changed on disk while fgraph was working on it; it was left as it is"
            ),
            WriteError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for WriteError {}

impl From<io::Error> for WriteError {
    fn from(e: io::Error) -> Self {
        WriteError::Io(e)
    }
}

/// Writes `contents` to `path` (SPEC §9, "Writes"): follows a symlink to its target, refuses
/// anything but a regular file (or a new one, when `opts.expect` is `None`), refuses a
/// read-only file unless `opts.force`, writes a temporary file created exclusively beside the
/// target and renames it over the target, keeping the target's mode. With `opts.expect`, the
/// file must still hold those bytes just before the rename.
pub fn write_file(path: &Path, contents: &[u8], opts: WriteOptions<'_>) -> Result<(), WriteError> {
    let (target, existing) = resolve(path)?;
    match &existing {
        None if opts.expect.is_some() => return Err(WriteError::Changed),
        Some(meta) if !opts.force && meta.permissions().readonly() => {
            return Err(WriteError::ReadOnly);
        }
        Some(_) if !opts.force && open_plain(&target, true).is_err() => {
            return Err(WriteError::NotWritable);
        }
        _ => {}
    }
    let dir = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let (tmp_path, mut tmp) = create_temp(dir, &name)?;
    let result = (|| {
        tmp.write_all(contents)?;
        if let Some(meta) = &existing {
            keep_owner_and_mode(&tmp, meta)?;
        }
        tmp.sync_all()?;
        // Just before the rename: still what we read, and still a regular file.
        if let Some(expected) = opts.expect {
            if !unchanged(&target, expected, existing.as_ref())? {
                return Err(WriteError::Changed);
            }
        } else if let Ok(meta) = std::fs::symlink_metadata(&target)
            && !meta.is_file()
        {
            return Err(WriteError::NotRegular(kind_of(&meta)));
        }
        std::fs::rename(&tmp_path, &target)?;
        Ok(())
    })();
    drop(tmp);
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp_path);
    } else {
        sync_dir(dir);
    }
    result
}

/// [`write_file`] for an output file (no expected contents, no `force`), the error as an
/// [`io::Error`] (kept for callers of the earlier API).
pub fn write_atomically(path: &Path, contents: &[u8]) -> io::Result<()> {
    write_file(path, contents, WriteOptions::default()).map_err(|e| match e {
        WriteError::Io(e) => e,
        other => io::Error::other(other.to_string()),
    })
}

/// The path to write (the final target of a symlink) and its metadata, `None` when nothing is
/// there yet. Anything but a regular file is refused.
fn resolve(path: &Path) -> Result<(PathBuf, Option<Metadata>), WriteError> {
    let link = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Ok((path.to_path_buf(), None));
        }
        Err(e) => return Err(e.into()),
    };
    let target = if link.file_type().is_symlink() {
        match std::fs::canonicalize(path) {
            Ok(t) => t,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Err(WriteError::DanglingSymlink);
            }
            Err(e) => return Err(e.into()),
        }
    } else {
        path.to_path_buf()
    };
    let meta = std::fs::symlink_metadata(&target)?;
    if !meta.is_file() {
        return Err(WriteError::NotRegular(kind_of(&meta)));
    }
    Ok((target, Some(meta)))
}

/// What a non-regular file is, in words.
fn kind_of(meta: &Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_dir() {
        return "directory";
    }
    if t.is_symlink() {
        return "symbolic link";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "FIFO (named pipe)";
        }
        if t.is_socket() {
            return "socket";
        }
        if t.is_char_device() {
            return "character device";
        }
        if t.is_block_device() {
            return "block device";
        }
    }
    "special file"
}

/// The flag that keeps an `open` from blocking (on a FIFO swapped in under us); regular files
/// ignore it. Its value differs between systems (and Linux architectures), so it comes from
/// the C library's binding. Also used by the import reader.
#[cfg(unix)]
pub(crate) const NONBLOCK: i32 = libc::O_NONBLOCK;

/// Opens `path` (to read, or to test that this user may write it: no truncation, no write,
/// nothing changes) without blocking.
fn open_plain(path: &Path, write: bool) -> io::Result<File> {
    let mut o = OpenOptions::new();
    if write {
        o.write(true);
    } else {
        o.read(true);
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.custom_flags(NONBLOCK);
    }
    o.open(path)
}

/// A new file in `dir`, created exclusively (never through an existing file or symlink) under
/// a name nobody can predict, retried on a collision.
fn create_temp(dir: &Path, name: &str) -> Result<(PathBuf, File), WriteError> {
    use std::collections::hash_map::RandomState;
    use std::hash::{BuildHasher, Hash, Hasher};
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut last = None;
    for _ in 0..64 {
        let mut h = RandomState::new().build_hasher();
        std::process::id().hash(&mut h);
        COUNTER.fetch_add(1, Ordering::Relaxed).hash(&mut h);
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0)
            .hash(&mut h);
        let tmp = dir.join(format!(".{name}.{:016x}.fgraph-tmp", h.finish()));
        let mut o = OpenOptions::new();
        o.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            // A new file gets the mode any program's new file gets (0666 less the umask:
            // `-o out.fgraph` was 0600, unreadable by the group that reads the repository);
            // a rewritten file is given its old mode before the rename.
            o.mode(0o666);
        }
        match o.open(&tmp) {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e.into()),
        }
    }
    Err(last
        .unwrap_or_else(|| io::Error::other("no free temporary name"))
        .into())
}

/// Gives the temporary file the original's mode, and its owner and group where this user may
/// (root may; others keep their own).
fn keep_owner_and_mode(tmp: &File, meta: &Metadata) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let _ = std::os::unix::fs::fchown(tmp, Some(meta.uid()), Some(meta.gid()));
        let _ = std::os::unix::fs::fchown(tmp, None, Some(meta.gid()));
    }
    tmp.set_permissions(meta.permissions())
}

/// Whether `target` is still the regular file that held `expected` (same length, same bytes;
/// on Unix the same inode too).
fn unchanged(target: &Path, expected: &[u8], before: Option<&Metadata>) -> io::Result<bool> {
    let now = match std::fs::symlink_metadata(target) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(e),
    };
    if !now.is_file() || now.len() != expected.len() as u64 {
        return Ok(false);
    }
    #[cfg(unix)]
    if let Some(before) = before {
        use std::os::unix::fs::MetadataExt;
        if (before.dev(), before.ino()) != (now.dev(), now.ino()) {
            return Ok(false);
        }
    }
    #[cfg(not(unix))]
    let _ = before;
    let mut bytes = Vec::with_capacity(expected.len());
    open_plain(target, false)?
        .take(expected.len() as u64 + 1)
        .read_to_end(&mut bytes)?;
    Ok(bytes == expected)
}

/// Makes the rename durable where the platform allows (best effort).
fn sync_dir(dir: &Path) {
    #[cfg(unix)]
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    #[cfg(not(unix))]
    let _ = dir;
}

// ---- reading ----------------------------------------------------------------------------

/// Why a file could not be read.
#[derive(Debug)]
pub enum ReadError {
    /// Not a regular file: what it is ("a FIFO", "a directory").
    NotRegular(&'static str),
    Io(io::Error),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::NotRegular("a directory") => f.write_str("Is a directory"),
            ReadError::NotRegular(k) => write!(
                f,
                "not a regular file ({k}); fgraph reads only regular files and standard input"
            ),
            ReadError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl From<ReadError> for io::Error {
    fn from(e: ReadError) -> io::Error {
        match e {
            ReadError::Io(e) => e,
            other => io::Error::new(io::ErrorKind::InvalidInput, other.to_string()),
        }
    }
}

/// The one bounded reader (SPEC §9): the regular file at `path` (symlinks followed), never
/// more than `limit + 1` bytes, so a result longer than `limit` means the file is over it.
/// Anything else at `path` (a directory, device, FIFO or socket) is refused before a byte is
/// read: `stat` first, then an open that cannot block (a FIFO swapped in meanwhile), then
/// the type again on the open file. The CLI's inputs, `fgraph.toml` and imports read through
/// it.
pub fn read_regular(path: &Path, limit: usize) -> Result<Vec<u8>, ReadError> {
    let meta = std::fs::metadata(path).map_err(ReadError::Io)?;
    if !meta.is_file() {
        return Err(ReadError::NotRegular(read_kind(&meta)));
    }
    let file = open_plain(path, false).map_err(ReadError::Io)?;
    let meta = file.metadata().map_err(ReadError::Io)?;
    if !meta.is_file() {
        return Err(ReadError::NotRegular(read_kind(&meta)));
    }
    let cap = usize::try_from(meta.len()).map_or(limit, |n| n.min(limit)) + 1;
    read_limited(file, limit, cap).map_err(ReadError::Io)
}

/// What a non-regular file is, as the read errors name it ("a FIFO").
fn read_kind(meta: &Metadata) -> &'static str {
    match kind_of(meta) {
        "directory" => "a directory",
        "FIFO (named pipe)" => "a FIFO",
        "socket" => "a socket",
        "character device" => "a character device",
        "block device" => "a block device",
        _ => "a special file",
    }
}

/// At most `limit + 1` bytes of `r` (standard input, say), starting with room for `cap`.
pub fn read_limited(r: impl io::Read, limit: usize, cap: usize) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::with_capacity(cap.min(limit.saturating_add(1)));
    r.take(u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1))
        .read_to_end(&mut bytes)?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("fgraph-fsio-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).expect("temp dir");
        d
    }

    #[test]
    fn writes_new_and_existing_files() {
        let d = temp_dir("new");
        let f = d.join("a.txt");
        write_file(&f, b"one", WriteOptions::default()).expect("new");
        assert_eq!(std::fs::read(&f).expect("read"), b"one");
        let opts = WriteOptions {
            expect: Some(b"one"),
            force: false,
        };
        write_file(&f, b"two", opts).expect("rewrite");
        assert_eq!(std::fs::read(&f).expect("read"), b"two");
        assert_eq!(
            std::fs::read_dir(&d).expect("dir").count(),
            1,
            "no temp left"
        );
    }

    #[test]
    fn a_changed_file_is_not_clobbered() {
        let d = temp_dir("changed");
        let f = d.join("a.txt");
        std::fs::write(&f, b"edited").expect("write");
        let opts = WriteOptions {
            expect: Some(b"original"),
            force: false,
        };
        assert!(matches!(
            write_file(&f, b"new", opts),
            Err(WriteError::Changed)
        ));
        assert_eq!(std::fs::read(&f).expect("read"), b"edited");
        assert_eq!(
            std::fs::read_dir(&d).expect("dir").count(),
            1,
            "no temp left"
        );
    }

    #[test]
    fn a_directory_is_refused() {
        let d = temp_dir("dir");
        let e = write_file(&d, b"x", WriteOptions::default()).expect_err("refused");
        assert!(e.to_string().contains("directory"), "{e}");
    }

    #[test]
    fn stdout_names() {
        assert!(is_stdout(Path::new("-")));
        assert!(is_stdout(Path::new("/dev/stdout")));
        assert!(!is_stdout(Path::new("./-x")));
    }
}
