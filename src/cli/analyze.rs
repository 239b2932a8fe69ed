//! `fgraph analyze FILE`: settings (the flags over the file's `fgraph.toml`) → pipeline (the
//! file checked and planned, one graph chosen) → report (assembled by the library) → render
//! (the files asked for, then the report in `--format`). `fgraph transformer` shares the last
//! two steps ([`render_analysis`]). What reads another file or checks the file again
//! (`--baseline`, `--max-param`) and the regression annotations are in `capacity`.

use crate::analysis::{FileReport, GraphReport, check_file_owned};
use crate::cli::args::{Common, CostArgs};
use crate::cli::capacity;
use crate::cli::input::{config_anchor, display_name, read};
use crate::cli::io::{Io, Keep, USAGE, Usage, exit_code, sink};
use crate::cli::settings::{self, Settings, check_set_names};
use crate::report::Report;
use crate::report::render::{self, FileKind, Files};
use std::path::{Path, PathBuf};

pub(super) fn analyze(
    path: &PathBuf,
    graph: Option<&str>,
    common: &Common,
    cost: &CostArgs,
    io: &mut Io<'_>,
    keep: &mut Keep,
) -> Result<u8, Usage> {
    analyze_seeing(path, graph, common, cost, io, keep, &mut |_| {})
}

/// [`analyze`], showing the report to `see` once it is rendered (the in-process API's
/// notebook view, `super::embed`).
pub(super) fn analyze_seeing(
    path: &PathBuf,
    graph: Option<&str>,
    common: &Common,
    cost: &CostArgs,
    io: &mut Io<'_>,
    keep: &mut Keep,
    see: &mut dyn FnMut(&Report<'_>),
) -> Result<u8, Usage> {
    // Settings.
    let stdin_name = common.stdin_filename.as_deref();
    let anchor = config_anchor(path, stdin_name);
    let Some(s) = settings::for_cost(Some(anchor), common, cost, io)? else {
        return Ok(USAGE);
    };
    // Pipeline.
    let Some(bytes) = read(path, io) else {
        return Ok(USAGE);
    };
    let mut file = check_file_owned(&display_name(path, stdin_name), bytes, &s.options);
    // A fix is shown as safe only once the file re-checks better with it (`fix::verify`).
    crate::fix::verify(&mut file, &s.options, &|| true);
    let code = choose_graph(&file, graph, path, &s.common)
        // Report and render.
        .and_then(|chosen| render_analysis_seeing(&file, chosen, &s, io, keep, see));
    keep.push(Box::new(file));
    code
}

/// The graph to report: the one `--graph` names, else the file's only one (`None` when the
/// file has none). Several graphs without `--graph`, a name the file lacks and an unknown
/// `--set` name are usage errors.
fn choose_graph<'f>(
    file: &'f FileReport,
    graph: Option<&str>,
    path: &Path,
    common: &Common,
) -> Result<Option<&'f GraphReport>, Usage> {
    check_set_names(common, std::slice::from_ref(file))?;
    let names: Vec<&str> = file.graphs.iter().map(|g| g.name.as_str()).collect();
    match (graph, file.graphs.len()) {
        (Some(name), _) => match file.graphs.iter().find(|g| g.name == name) {
            Some(g) => Ok(Some(g)),
            None if file.graphs.is_empty() => Ok(None),
            None => Err(Usage(format!(
                "no graph `{name}` in `{}` (graphs: {})",
                path.display(),
                names.join(", ")
            ))),
        },
        (None, 0) => Ok(None),
        (None, 1) => Ok(file.graphs.first()),
        (None, _) => Err(Usage(format!(
            "`{}` holds {} graphs; choose one with --graph NAME (graphs: {})",
            path.display(),
            names.len(),
            names.join(", ")
        ))),
    }
}

/// The report of `graph` (of `file`), assembled by the library; then the files asked for,
/// then the report itself in `--format`.
pub(super) fn render_analysis(
    file: &FileReport,
    graph: Option<&GraphReport>,
    s: &Settings,
    io: &mut Io<'_>,
    keep: &mut Keep,
) -> Result<u8, Usage> {
    render_analysis_seeing(file, graph, s, io, keep, &mut |_| {})
}

/// [`render_analysis`], showing the report to `see` once it is rendered.
fn render_analysis_seeing(
    file: &FileReport,
    graph: Option<&GraphReport>,
    s: &Settings,
    io: &mut Io<'_>,
    keep: &mut Keep,
    see: &mut dyn FnMut(&Report<'_>),
) -> Result<u8, Usage> {
    let c = &s.cost;
    if c.collapse_repeats && c.dot.is_none() && c.svg.is_none() {
        return Err(Usage(
            "--collapse-repeats folds the --dot and --svg pictures; give one of them (the \
             --html report folds its picture always)"
                .into(),
        ));
    }
    // Collectives are priced on the GPU's interconnect (issue 25): a GPU without one cannot.
    let collectives = graph
        .and_then(|g| g.analysis.as_ref())
        .is_some_and(|a| a.graph.ops.iter().any(|o| o.kind.is_collective()));
    if collectives && s.hardware.interconnect.is_none() {
        return Err(Usage(format!(
            "GPU `{}` describes no interconnect (`interconnect` in a hardware file), so the \
             graph's collectives cannot be priced; describe it (docs/cost-model.md, \
             \"Communication\"; template: `fgraph hardware h100 --format json`) or use a preset \
             (h100, h200, a100, h100-2x8)",
            s.hardware.name
        )));
    }
    let format = s.common.format;
    let mut options = settings::report_options(&s.cost);
    options.overrides = s.options.overrides.clone();
    if let Some(path) = &s.cost.baseline {
        options.baseline = Some(capacity::load_baseline(path)?);
    }
    if let (Some(name), Some(g)) = (&s.cost.max_param, graph) {
        capacity::check_max_param(name, g, s)?;
    }
    let mut head_written = false;
    let early = render::early(format, &options, &mut *io.out, &mut head_written);
    let mut report = Report::assemble(file, graph, &s.hardware, &options, early).map_err(Usage)?;
    if let (Some(name), Some(g)) = (&s.cost.max_param, graph) {
        capacity::solve_max_param(name, file, g, s, &mut report)?;
    }
    let written = write_files(&report, &s.cost, io);
    render::render(&report, format, head_written, &mut sink(io));
    see(&report);
    // The report's own warnings count too (`--deny-warnings`): those render showed.
    let notes = report.notes();
    let mut code = exit_code(&report.diagnostics_with(&notes), s.common.deny_warnings);
    // `--fail-on-regression`: traffic or time grew past the threshold (exit 1).
    if capacity::annotate_regressions(&report, file, graph, io) {
        code = code.max(crate::cli::io::FOUND);
    }
    keep.push(Box::new(report.cost));
    written?;
    Ok(code)
}

/// Writes the files asked for beside the report (`--roofline`, `--dot`, `--svg`, `--html`),
/// or says why not when the graph has errors. The first failure is returned once the others
/// are written. `-` and `/dev/stdout` are standard output; any other path must be (or become)
/// a regular file (SPEC §9, "Writes").
fn write_files(report: &Report<'_>, args: &CostArgs, io: &mut Io<'_>) -> Result<(), Usage> {
    let files = Files::new(report).collapse_repeats(args.collapse_repeats);
    let mut written = Ok(());
    for (kind, path) in [
        (FileKind::Roofline, &args.roofline),
        (FileKind::Dot, &args.dot),
        (FileKind::Svg, &args.svg),
        (FileKind::Html, &args.html),
    ] {
        let Some(path) = path else { continue };
        let result = match files.render(kind) {
            None => {
                let _ = writeln!(
                    io.err,
                    "note: {} `{}` not written: the graph has errors",
                    kind.what(),
                    path.display()
                );
                Ok(())
            }
            Some(contents) => contents
                .map_err(|e| Usage(format!("cannot write `{}`: {e}", path.display())))
                .and_then(|text| write_output(path, kind, &text, io)),
        };
        if written.is_ok() {
            written = result;
        }
    }
    written
}

/// One file of [`write_files`]: to standard output for `-` or `/dev/stdout`, else through
/// [`crate::fsio::write_file`] (a device, FIFO, socket or directory is refused).
fn write_output(path: &Path, kind: FileKind, text: &str, io: &mut Io<'_>) -> Result<(), Usage> {
    let what = kind.as_str();
    if crate::fsio::is_stdout(path) {
        return io
            .out
            .write_all(text.as_bytes())
            .and_then(|()| io.out.flush())
            .map_err(|e| Usage(format!("cannot write {what} to standard output: {e}")));
    }
    let opts = crate::fsio::WriteOptions::default();
    crate::fsio::write_file(path, text.as_bytes(), opts)
        .map_err(|e| Usage(format!("cannot write {what} `{}`: {e}", path.display())))
}
