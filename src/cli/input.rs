//! Reading the files a command is given, `-` for standard input, and the names they go by.

use crate::cli::io::Io;
use std::path::PathBuf;

/// Whether `path` names standard input (`-`, as rustfmt and ruff take it).
pub(super) fn is_stdin(path: &std::path::Path) -> bool {
    path.as_os_str() == "-"
}

/// The name a file goes by in messages: `--stdin-filename` (or `<stdin>`) for `-`.
pub(super) fn display_name(
    path: &std::path::Path,
    stdin_filename: Option<&std::path::Path>,
) -> String {
    match (is_stdin(path), stdin_filename) {
        (true, Some(name)) => name.display().to_string(),
        (true, None) => "<stdin>".into(),
        (false, _) => path.display().to_string(),
    }
}

/// Where a file's `fgraph.toml` is looked for: beside `--stdin-filename` for `-` (else from
/// the working directory).
pub(super) fn config_anchor<'p>(
    path: &'p std::path::Path,
    stdin_filename: Option<&'p std::path::Path>,
) -> &'p std::path::Path {
    match (is_stdin(path), stdin_filename) {
        (true, Some(name)) => name,
        (true, None) => std::path::Path::new("<stdin>"),
        (false, _) => path,
    }
}

/// The bytes of `path` (or standard input for `-`, or what [`Io::stdin`] holds), never more
/// than the size limit plus one byte: past it, reading stops and the parser reports
/// `limit-exceeded`. Anything but a
/// regular file (a directory, device or FIFO) is refused before reading. `None` after printing
/// why it could not be read.
#[allow(clippy::ptr_arg)] // its callers hold `PathBuf`s
pub(super) fn read(path: &PathBuf, io: &mut Io<'_>) -> Option<Vec<u8>> {
    let limit = crate::limits::MAX_FILE_BYTES;
    let held = if is_stdin(path) {
        io.stdin.take()
    } else {
        None
    };
    let name = match (&held, is_stdin(path)) {
        (Some(_), _) => "the source".to_string(),
        (None, true) => "standard input".to_string(),
        (None, false) => format!("`{}`", path.display()),
    };
    let read = if let Some(mut bytes) = held {
        // Held in memory: cut where reading standard input would stop.
        bytes.truncate(limit.saturating_add(1));
        Ok(bytes)
    } else if is_stdin(path) {
        crate::fsio::read_limited(std::io::stdin().lock(), limit, 64 * 1024)
    } else {
        crate::fsio::read_regular(path, limit).map_err(std::io::Error::from)
    };
    match read {
        Ok(b) => {
            if b.len() > limit {
                let _ = writeln!(
                    io.err,
                    "note: {name} is larger than the limit of {limit} bytes; reading stopped \
                     there"
                );
            }
            Some(b)
        }
        Err(e) => {
            let _ = writeln!(io.err, "error: cannot read {name}: {e}");
            None
        }
    }
}
