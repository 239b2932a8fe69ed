//! `fgraph emit TARGET FILE`: the file checked under the flags over its `fgraph.toml` (as
//! `analyze` checks it: blocks expanded, `--set` applied), one graph chosen, then the
//! library's emitter ([`crate::emit`]) and its text written to standard output or `-o`.
//! A file with errors prints its diagnostics as `check` does (exit 1); warnings go to
//! standard error and the text is still written.

use crate::analysis::FileReport;
use crate::cli::args::Common;
use crate::cli::input::{config_anchor, display_name, read};
use crate::cli::io::{Io, Keep, USAGE, Usage, exit_code, style};
use crate::cli::settings::{Configs, check_set_names, options};
use crate::diagnostics::render::{Diagnostics, FileDiagnostics, Sink, run};
use crate::emit::Target;
use std::path::{Path, PathBuf};

/// What `fgraph emit` was asked.
pub(super) struct EmitArgs<'a> {
    pub(super) target: &'static Target,
    pub(super) file: &'a PathBuf,
    pub(super) graph: Option<&'a str>,
    pub(super) output: Option<&'a Path>,
}

pub(super) fn emit(
    args: EmitArgs<'_>,
    common: &Common,
    io: &mut Io<'_>,
    keep: &mut Keep,
) -> Result<u8, Usage> {
    let EmitArgs {
        target,
        file: path,
        graph,
        output,
    } = args;
    // Settings: the flags over the file's configuration, as `check` reads them.
    let stdin_name = common.stdin_filename.as_deref();
    let mut opts = options(common)?;
    let Some(cfg) = Configs::default().for_file(config_anchor(path, stdin_name), common, io) else {
        return Ok(USAGE);
    };
    opts = cfg.options(&opts);
    let deny_warnings = common.deny_warnings || cfg.deny_warnings;
    // Pipeline.
    let Some(bytes) = read(path, io) else {
        return Ok(USAGE);
    };
    let file = crate::fix::check_verified(&display_name(path, stdin_name), bytes, &opts);
    let result = emit_file(
        &file,
        (target, graph, output),
        common,
        &opts,
        io,
        deny_warnings,
    );
    keep.push(Box::new(file));
    result
}

fn emit_file(
    file: &FileReport,
    (target, graph, output): (&'static Target, Option<&str>, Option<&Path>),
    common: &Common,
    opts: &crate::analysis::Options,
    io: &mut Io<'_>,
    deny_warnings: bool,
) -> Result<u8, Usage> {
    check_set_names(common, std::slice::from_ref(file))?;
    let diagnostics = FileDiagnostics {
        source: &file.source,
        diagnostics: file.diagnostics.iter().collect(),
    };
    let code = exit_code(&diagnostics.diagnostics, deny_warnings);
    if file.has_errors() {
        // As `check` prints them.
        run(
            common.format,
            std::slice::from_ref(&diagnostics),
            &Diagnostics,
            &mut crate::cli::io::sink(io),
        );
        return Ok(code);
    }
    let chosen = choose(file, graph)?;
    let Some(analysis) = chosen.analysis.as_ref() else {
        // No error in the file, but the graph was not built (the language server's
        // cancellation; never on the command line).
        return Err(Usage(format!(
            "graph `{}` could not be checked",
            chosen.name
        )));
    };
    // Warnings go to standard error in any format: standard output is the emitted text.
    if !diagnostics.diagnostics.is_empty() {
        let st = style(io);
        let mut formatted = Vec::new();
        let mut sink = Sink {
            out: &mut formatted,
            err: &mut *io.err,
            style: st,
        };
        run(
            common.format,
            std::slice::from_ref(&diagnostics),
            &NoFooter,
            &mut sink,
        );
        let _ = io.err.write_all(&formatted);
    }
    let text =
        crate::emit::emit_graph(target, file, &analysis.graph, &opts.overrides).map_err(|e| {
            Usage(format!(
                "cannot emit {} from `{}`: {e}",
                target.name, file.source.name
            ))
        })?;
    write(output, &text, target, io)?;
    Ok(code)
}

/// No "All checks passed" line after the warnings of a file that is emitted.
struct NoFooter;

impl crate::diagnostics::render::RunReport for NoFooter {
    fn footer(&self) -> bool {
        false
    }
}

/// The graph `--graph` names, else the file's only one. A file without a graph, several
/// without `--graph`, and a name the file lacks are usage errors that list the graphs.
fn choose<'f>(
    file: &'f FileReport,
    graph: Option<&str>,
) -> Result<&'f crate::analysis::GraphReport, Usage> {
    let names: Vec<&str> = file.graphs.iter().map(|g| g.name.as_str()).collect();
    let name = &file.source.name;
    match (graph, file.graphs.len()) {
        (_, 0) => Err(Usage(format!(
            "`{name}` holds no graph to emit (only blocks or imports)"
        ))),
        (Some(g), _) => file.graphs.iter().find(|r| r.name == g).ok_or_else(|| {
            Usage(format!(
                "no graph `{g}` in `{name}` (graphs: {})",
                names.join(", ")
            ))
        }),
        (None, 1) => Ok(&file.graphs[0]),
        (None, n) => Err(Usage(format!(
            "`{name}` holds {n} graphs; choose one with --graph NAME (graphs: {})",
            names.join(", ")
        ))),
    }
}

/// The text to standard output (no `-o`, `-`, `/dev/stdout`), else to the regular file named,
/// through [`crate::fsio::write_file`] (a temporary file and a rename; a device, FIFO, socket
/// or directory is refused).
fn write(output: Option<&Path>, text: &str, target: &Target, io: &mut Io<'_>) -> Result<(), Usage> {
    match output {
        Some(path) if !crate::fsio::is_stdout(path) => {
            crate::fsio::write_file(path, text.as_bytes(), crate::fsio::WriteOptions::default())
                .map_err(|e| Usage(format!("cannot write `{}`: {e}", path.display())))
        }
        _ => io
            .out
            .write_all(text.as_bytes())
            .and_then(|()| io.out.flush())
            .map_err(|e| {
                Usage(format!(
                    "cannot write the {} module to standard output: {e}",
                    target.name
                ))
            }),
    }
}
