//! The report as JSON: [`write`] prints the object `analyze --format json` prints (or the one
//! of `--explain OP`), [`write_head`] its first part while the cost model runs. [`schema`]
//! holds the serde types of the object ([`AnalysisJson`]), with its [`cost`], [`fusion`] and
//! [`ledger`] parts beside it and the `--explain OP` object in [`explain_op`]; [`fast`] writes
//! the same bytes as serde, faster, with the test that holds it to them.

pub mod cost;
pub mod explain_op;
pub mod fast;
pub mod fusion;
pub mod ledger;
pub mod schema;

pub use schema::AnalysisJson;

use crate::report::Report;
use crate::report::render::json::ledger::LedgerJson;
use schema::OpsJson;
use serde_json::Value;
use std::io::Write;

/// Writes the report, holding the run's `diagnostics` (JSON objects), as one line. After
/// [`write_head`] (`head_written`), only the rest of it.
pub fn write(r: &Report<'_>, diagnostics: Vec<Value>, head_written: bool, out: &mut dyn Write) {
    if let Some(op) = &r.explained {
        let _ = serde_json::to_writer(&mut *out, &explain_op::json(op, diagnostics));
        let _ = writeln!(out);
        return;
    }
    let mut obj = match (r.analysis, r.graph) {
        (None, Some(g)) => AnalysisJson::unchecked(r.name, &g.written_ops, diagnostics),
        (a, _) => {
            let hints = hints_shown(r)
                .and_then(|n| r.hints_upto(n))
                .map(|w| w.hints.clone());
            AnalysisJson::with_hints(r.name, a, diagnostics, hints)
        }
    };
    if let (Some(a), Some((c, att))) = (r.analysis, r.cost()) {
        obj = obj.with_cost(a, c, att);
        if let (Some(cost), Some(e)) = (obj.cost.as_mut(), &r.runtime) {
            cost.runtime = Some(cost::RuntimeJson::new(&a.graph, e));
        }
    }
    obj.summary = r.summary.as_ref();
    obj.compare = r.compare.as_deref();
    if let (Some(a), Some(entries)) = (r.analysis, &r.ledger) {
        obj.ledger = Some(LedgerJson::new(&a.graph, entries));
    }
    obj.memory = r.memory.as_ref();
    obj.breakdown = r.breakdown.as_ref();
    obj.baseline = r.baseline.as_ref();
    // `write_json` buffers itself: no `BufWriter` needed.
    let _ = if head_written {
        obj.write_json_tail(out)
    } else {
        obj.write_json(out)
    };
    let _ = writeln!(out);
}

/// How many boundaries' what-if [`write`] shows: every one, for a graph with an analysis
/// (`--explain OP` has its own JSON).
pub fn hints_shown(r: &Report<'_>) -> Option<usize> {
    (r.explained.is_none() && r.analysis.is_some()).then_some(usize::MAX)
}

/// Writes the first part of [`write`]'s bytes: what the cost model does not change (the
/// schema version, the graph's name and its ops).
pub fn write_head(r: &Report<'_>, out: &mut dyn Write) {
    let mut head = AnalysisJson::new(r.name, None, Vec::new());
    head.ops = match (r.analysis, r.graph) {
        (Some(a), _) => OpsJson::Graph(&a.graph),
        (None, Some(g)) => OpsJson::Written(&g.written_ops),
        (None, None) => OpsJson::None,
    };
    let _ = head.write_json_head(out);
}
