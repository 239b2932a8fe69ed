//! The parts of `analyze --memory`, `--max-param` and `--baseline` that read files or check
//! the file again (issue 28): the saved report read under its bound, the search for the
//! largest param value that fits (each probe checks the file again with `--set NAME=V`), and
//! the regressions printed as GitHub annotations. The figures are the library's
//! (`crate::report::memory`, `crate::report::baseline`).

use crate::analysis::{FileReport, GraphReport, check_file};
use crate::cli::io::{Io, Usage};
use crate::cli::settings::Settings;
use crate::report::Report;
use crate::report::baseline::{self, Baseline};
use crate::report::memory::{self, Probe};
use std::path::Path;
use std::sync::Arc;

/// The saved report `--baseline` names, read (a regular file, at most
/// [`crate::limits::MAX_BASELINE_BYTES`]) and parsed; a usage error says why not.
pub(super) fn load_baseline(path: &Path) -> Result<Arc<Baseline>, Usage> {
    let limit = crate::limits::MAX_BASELINE_BYTES;
    let bytes = crate::fsio::read_regular(path, limit)
        .map_err(|e| Usage(format!("cannot read baseline `{}`: {e}", path.display())))?;
    if bytes.len() > limit {
        return Err(Usage(format!(
            "baseline `{}` is larger than the limit of {limit} bytes",
            path.display()
        )));
    }
    baseline::parse(&bytes, crate::report::render::json::schema::SCHEMA_VERSION)
        .map(Arc::new)
        .map_err(|e| Usage(format!("baseline `{}`: {e}", path.display())))
}

/// Whether `--max-param NAME` can be solved: `graph` has the param and the GPU a memory size.
pub(super) fn check_max_param(name: &str, graph: &GraphReport, s: &Settings) -> Result<u64, Usage> {
    if !graph.params.iter().any(|p| p == name) {
        return Err(Usage(format!(
            "--max-param: graph `{}` has no param `{name}` (params: {})",
            graph.name,
            if graph.params.is_empty() {
                "none".to_string()
            } else {
                graph.params.join(", ")
            }
        )));
    }
    s.hardware.memory_bytes.ok_or_else(|| {
        Usage(format!(
            "--max-param: GPU `{}` gives no memory size (`memory_gb` in a hardware file)",
            s.hardware.name
        ))
    })
}

/// `--max-param NAME`: the largest value of the param at which `graph` of `file` fits in the
/// GPU's memory, added to the report's memory section.
pub(super) fn solve_max_param(
    name: &str,
    file: &FileReport,
    graph: &GraphReport,
    s: &Settings,
    report: &mut Report<'_>,
) -> Result<(), Usage> {
    let capacity = check_max_param(name, graph, s)?;
    let Some(m) = report.memory.as_mut() else {
        return Ok(());
    };
    let current = crate::report::param_value(file, graph, name, &s.options.overrides)
        .ok_or_else(|| Usage(format!("--max-param: the value of `{name}` is not known")))?;
    let text = file.source.text.as_bytes();
    let mut probe = |v: i64| -> Probe {
        let mut opts = s.options.clone();
        opts.overrides.insert(name.to_string(), v);
        let r = check_file(&file.source.name, text, &opts);
        let total = r
            .graphs
            .iter()
            .find(|g| g.name == graph.name)
            .filter(|_| !r.has_errors())
            .and_then(|g| {
                let a = g.analysis.as_ref()?;
                let batch = || crate::report::batch_param(&r, Some(g), &opts.overrides);
                memory::memory(a, &g.instances, &s.hardware.name, Some(capacity), &batch)
            })
            .map(|m| m.total_bytes);
        total.map_or(Probe::Invalid, Probe::Total)
    };
    m.max_param = Some(memory::max_param(
        name,
        current,
        m.total_bytes,
        capacity,
        crate::limits::MAX_CAPACITY_PROBES,
        &mut probe,
    ));
    Ok(())
}

/// `--fail-on-regression`: one GitHub annotation per regression on standard error, at the op
/// whose kernel grew most (else the graph's name); whether any regressed.
pub(super) fn annotate_regressions(
    report: &Report<'_>,
    file: &FileReport,
    graph: Option<&GraphReport>,
    io: &mut Io<'_>,
) -> bool {
    let Some(c) = &report.baseline else {
        return false;
    };
    for r in &c.regressions {
        let span = match (r.op_id, report.analysis) {
            (Some(o), Some(a)) => Some(a.graph.op(o).span),
            _ => graph.map(|g| g.span),
        };
        let (name, line) = span.map_or((file.source.name.as_str(), 1), |sp| file.place(sp));
        let _ = writeln!(
            io.err,
            "::error file={},line={line}::{}",
            baseline::escape_annotation(name, true),
            baseline::escape_annotation(&baseline::describe(r, c), false)
        );
    }
    !c.regressions.is_empty()
}
