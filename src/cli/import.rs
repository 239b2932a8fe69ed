//! `fgraph import hf CONFIG.json`: the config read (bounded, regular files and standard input
//! only), the library's importer ([`crate::importers::hf`]) run on it, its findings printed to
//! standard error (`warning: …`, `error: …`) and the `.fgraph` text written to standard output
//! or `-o` through [`crate::fsio::write_file`]. Exit 0 with the text (warnings allowed), 1
//! when the config has errors (no text), 2 when it cannot be read or written.

use crate::cli::args::{HfArgs, ImportCommand};
use crate::cli::input::is_stdin;
use crate::cli::io::{CLEAN, FOUND, Io, USAGE, Usage};
use crate::importers::hf::{self, MAX_CONFIG_BYTES, Severity};
use std::path::Path;

pub(super) fn import_cmd(cmd: &ImportCommand, io: &mut Io<'_>) -> Result<u8, Usage> {
    match cmd {
        ImportCommand::Hf(args) => import_hf(args, io),
        ImportCommand::Onnx(args) => super::import_onnx::run(args, io),
    }
}

fn import_hf(args: &HfArgs, io: &mut Io<'_>) -> Result<u8, Usage> {
    let path = &args.config;
    let (bytes, name) = if is_stdin(path) {
        let read = crate::fsio::read_limited(std::io::stdin().lock(), MAX_CONFIG_BYTES, 64 * 1024);
        (read, "standard input".to_string())
    } else {
        let read = crate::fsio::read_regular(path, MAX_CONFIG_BYTES).map_err(std::io::Error::from);
        (read, format!("`{}`", path.display()))
    };
    let bytes = match bytes {
        Ok(b) => b,
        Err(e) => {
            let _ = writeln!(io.err, "error: cannot read {name}: {e}");
            return Ok(USAGE);
        }
    };
    // The header names the file, not the folders it was found in.
    let source_name = if is_stdin(path) {
        "standard input".to_string()
    } else {
        path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        )
    };
    let opts = hf::Options {
        batch: args.batch,
        seq: args.seq,
        decode: if args.decode { args.context } else { None },
        dtype: args.dtype,
        source_name,
        ops: args.ops,
        attn: args.attn,
    };
    let imported = hf::import(&bytes, &opts);
    for note in &imported.notes {
        let severity = match note.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let _ = writeln!(io.err, "{severity}: {name}: {}", note.message);
    }
    let Some(text) = imported.text else {
        return Ok(FOUND);
    };
    write(args.output.as_deref(), &text, io)?;
    Ok(CLEAN)
}

/// The text to standard output (no `-o`, `-`, `/dev/stdout`), else to the regular file named.
fn write(output: Option<&Path>, text: &str, io: &mut Io<'_>) -> Result<(), Usage> {
    match output {
        Some(path) if !crate::fsio::is_stdout(path) => {
            crate::fsio::write_file(path, text.as_bytes(), crate::fsio::WriteOptions::default())
                .map_err(|e| Usage(format!("cannot write `{}`: {e}", path.display())))
        }
        _ => io
            .out
            .write_all(text.as_bytes())
            .and_then(|()| io.out.flush())
            .map_err(|e| Usage(format!("cannot write the graph to standard output: {e}"))),
    }
}
