//! `fgraph fmt FILE...`: files rewritten in the canonical layout (atomically, only a regular
//! file unchanged since it was read, a read-only one only with `--force`), `--check` to only
//! report, `-` from standard input to standard output.

use crate::cli::input::{display_name, is_stdin, read};
use crate::cli::io::{CLEAN, FOUND, Io, USAGE, Usage, style};
use crate::diagnostics::SourceFile;
use crate::diagnostics::render::human;
use crate::fsio::WriteOptions;
use std::path::PathBuf;

pub(super) fn fmt_cmd(
    files: &[PathBuf],
    check: bool,
    force: bool,
    stdin_filename: Option<&std::path::Path>,
    io: &mut Io<'_>,
) -> Result<u8, Usage> {
    let (mut changed, mut unchanged, mut failed, mut unreadable) = (0, 0, 0, false);
    for path in files {
        let Some(bytes) = read(path, io) else {
            unreadable = true;
            continue;
        };
        let name = display_name(path, stdin_filename);
        let formatted = match crate::format::format_bytes(&bytes) {
            Ok(text) => text,
            Err(d) => {
                // Not formatted: show why, with the file's text for context.
                let src = SourceFile::new(&name, crate::syntax::decode(&bytes).0);
                let _ = write!(io.err, "{}", human(&d, &src, style(io)));
                failed += 1;
                continue;
            }
        };
        if is_stdin(path) && !check {
            // Standard input: the result goes to standard output, changed or not.
            let _ = io.out.write_all(formatted.as_bytes());
            if formatted.as_bytes() == bytes.as_slice() {
                unchanged += 1;
            } else {
                changed += 1;
            }
        } else if formatted.as_bytes() == bytes.as_slice() {
            unchanged += 1;
        } else if check {
            let _ = writeln!(io.err, "would reformat {name}");
            changed += 1;
        } else {
            let opts = WriteOptions {
                expect: Some(&bytes),
                force,
            };
            match crate::fsio::write_file(path, formatted.as_bytes(), opts) {
                Ok(()) => {
                    let _ = writeln!(io.err, "reformatted {name}");
                    changed += 1;
                }
                Err(e) => {
                    let hint = e.force_hint();
                    let _ = writeln!(io.err, "error: cannot write `{name}`: {e}{hint}");
                    unreadable = true;
                }
            }
        }
    }
    let plural = |n: usize| if n == 1 { "file" } else { "files" };
    let verb = if check {
        "would be reformatted"
    } else {
        "reformatted"
    };
    let mut parts = vec![
        format!("{changed} {} {verb}", plural(changed)),
        format!("{unchanged} {} already formatted", plural(unchanged)),
    ];
    if failed > 0 {
        parts.push(format!(
            "{failed} {} with errors left unchanged",
            plural(failed)
        ));
    }
    // Formatting standard input alone (an editor's buffer) prints only the result.
    if !files.iter().all(|f| is_stdin(f)) || check {
        let _ = writeln!(io.err, "{}.", parts.join(", "));
    }
    Ok(if unreadable {
        USAGE
    } else if failed > 0 || (check && changed > 0) {
        FOUND
    } else {
        CLEAN
    })
}
