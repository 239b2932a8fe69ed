//! The report as text for people: what the human and GitHub formats print after the
//! diagnostics. [`text`] chooses the view, one file each: the op of `--explain OP`
//! ([`explain_op`]), the `--compare` table ([`compare`]), the `--summary` table
//! ([`summary`], inside [`report::human_summary`]) or the plan itself ([`report`], its
//! attention lines one per distinct pattern: [`attention`]); then the `--ledger` table
//! ([`ledger`]) and the memory, `--breakdown` and `--baseline` sections ([`capacity`]).

pub mod attention;
pub mod capacity;
pub mod compare;
pub mod explain_op;
pub mod ledger;
pub mod parallel;
pub mod report;
pub mod runtime;
pub mod summary;

pub use report::{human, human_report, human_summary, human_with_cost};

use crate::report::Report;

/// How many boundaries' what-if [`text`] shows: `--hints` on the plan's own view (not the
/// `--compare` table, the `--summary` table or `--explain OP`).
pub fn hints_shown(r: &Report<'_>) -> Option<usize> {
    let plan_view = r.explained.is_none()
        && r.analysis.is_some()
        && r.compare.is_none()
        && !(r.summary.is_some() && r.options.summary)
        && r.cost.is_some();
    (plan_view && r.options.hints).then_some(report::BOUNDARIES_SHOWN)
}

/// [`text`] written to `w`.
pub fn write_text(r: &Report<'_>, w: &mut dyn std::io::Write) {
    let _ = w.write_all(text(r).as_bytes());
}

/// The text of a report (empty for a graph with errors: its diagnostics say it all).
pub fn text(r: &Report<'_>) -> String {
    if let Some(op) = &r.explained {
        return explain_op::human(op);
    }
    let Some(a) = r.analysis else {
        return String::new();
    };
    let rt = r.runtime.as_ref();
    let mut out = if let Some(rows) = &r.compare {
        compare::human(&a.graph.name, rows, r.hardware)
    } else if let Some(s) = r.summary.as_ref().filter(|_| r.options.summary) {
        report::human_summary_with(a, s, r.cost(), rt)
    } else if let Some(cost) = r.cost() {
        let w = hints_shown(r).and_then(|n| r.hints_upto(n));
        report::human_report_with(a, Some(cost), w.as_deref(), rt)
    } else {
        report::human(a)
    };
    if let Some(entries) = &r.ledger {
        out += &ledger::human(a, entries);
    }
    if let Some(m) = &r.memory {
        out += &capacity::memory(m, &r.hardware.description);
    }
    if let Some(b) = &r.breakdown {
        out += &capacity::breakdown(b);
    }
    if let Some(c) = &r.baseline {
        out += &capacity::baseline(c);
    }
    // `--runtime`: the report leads with the step as the runtime runs the file.
    if let (Some((c, _)), Some(e)) = (r.cost(), rt) {
        out.insert_str(0, &runtime::lead(a, c, e));
    }
    out
}
