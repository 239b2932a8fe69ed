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

pub(super) fn read(path: &PathBuf, io: &mut Io<'_>) -> Option<Vec<u8>> {
    let read = if is_stdin(path) {
        let mut b = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut b).map(|_| b)
    } else {
        std::fs::read(path)
    };
    match read {
        Ok(b) => Some(b),
        Err(e) if is_stdin(path) => {
            let _ = writeln!(io.err, "error: cannot read standard input: {e}");
            None
        }
        Err(e) => {
            let _ = writeln!(io.err, "error: cannot read `{}`: {e}", path.display());
            None
        }
    }
}
