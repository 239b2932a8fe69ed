//! `fgraph import onnx MODEL.onnx`: the model read (a regular file, at most the size limit;
//! its external data never opened), imported by the library (`crate::importers::onnx`), and
//! the `.fgraph` text written to standard output or `-o FILE` through `crate::fsio`. Unmapped
//! operators are listed on standard error (the text is still written); a file that is not an
//! ONNX model, or a graph the importer cannot write correctly, is exit 1 with every problem;
//! an unreadable file or a bad flag, exit 2.

use crate::cli::args::OnnxArgs;
use crate::cli::io::{CLEAN, FOUND, Io, Usage};
use crate::importers::onnx::{ImportError, Options, import};
use std::path::Path;

/// Runs `fgraph import onnx`.
pub(super) fn run(args: &OnnxArgs, io: &mut Io<'_>) -> Result<u8, Usage> {
    for (n, v) in &args.dims {
        if *v < 1 {
            return Err(Usage(format!("--dim {n}={v}: a dimension is at least 1")));
        }
    }
    let limit = crate::limits::MAX_FILE_BYTES;
    let bytes = match crate::fsio::read_regular(&args.model, limit) {
        Ok(b) if b.len() > limit => {
            return Err(Usage(format!(
                "`{}` is larger than {limit} bytes: save its weights as external data \
                 (onnx.save(model, path, save_as_external_data=True)); fgraph reads only the graph",
                args.model.display()
            )));
        }
        Ok(b) => b,
        Err(e) => {
            return Err(Usage(format!(
                "cannot read `{}`: {e}",
                args.model.display()
            )));
        }
    };
    let opts = Options {
        source: args.model.display().to_string(),
        // The file's stem by default: exporters name every graph alike (`main_graph`).
        name: args.name.clone().or_else(|| {
            args.model
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
        }),
        dims: args.dims.clone(),
        repeat: !args.no_repeat,
    };
    let imported = match import(&bytes, &opts) {
        Ok(i) => i,
        Err(e) => {
            let _ = writeln!(io.err, "error: `{}`: {e}", args.model.display());
            if let ImportError::Problems(_) = e {
                let _ = writeln!(
                    io.err,
                    "help: operators fgraph has no counterpart for are written as opaque ops \
                     when the file states their output shapes (onnx.shape_inference.infer_shapes)"
                );
            }
            return Ok(FOUND);
        }
    };
    let unknown: Vec<&str> = args
        .dims
        .iter()
        .map(|(n, _)| n.as_str())
        .filter(|n| !imported.dims.iter().any(|d| d == n))
        .collect();
    if !unknown.is_empty() {
        return Err(Usage(format!(
            "--dim names no dynamic dimension of the model: {} (it has: {})",
            unknown.join(", "),
            if imported.dims.is_empty() {
                "none".to_string()
            } else {
                imported.dims.join(", ")
            }
        )));
    }
    if !imported.unmapped.is_empty() {
        let list: Vec<String> = imported
            .unmapped
            .iter()
            .map(|(op, n)| format!("{op} x{n}"))
            .collect();
        let total: usize = imported.unmapped.iter().map(|(_, n)| n).sum();
        let _ = writeln!(
            io.err,
            "warning: {total} ONNX nodes of operators fgraph has no counterpart for, written as \
             opaque ops (1 FLOP per element): {}",
            list.join(", ")
        );
    }
    write(args.output.as_deref(), &imported.text, io)?;
    Ok(CLEAN)
}

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
            .map_err(|e| Usage(format!("cannot write to standard output: {e}"))),
    }
}
