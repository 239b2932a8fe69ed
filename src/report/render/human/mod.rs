//! The report as text for people: what the human and GitHub formats print after the
//! diagnostics. [`text`] chooses the view, one file each: the op of `--explain OP`
//! ([`explain_op`]), the `--compare` table ([`compare`]), the `--summary` table
//! ([`summary`], inside [`report::human_summary`]) or the plan itself ([`report`]); then the
//! `--ledger` table ([`ledger`]).

pub mod compare;
pub mod explain_op;
pub mod ledger;
pub mod report;
pub mod summary;

pub use report::{human, human_report, human_summary, human_with_cost};

use crate::report::Report;

/// [`text`] written to `w`; the plan of a graph (the common view) is written as it is made,
/// never held whole.
pub fn write_text(r: &Report<'_>, w: &mut dyn std::io::Write) {
    let plain =
        r.explained.is_none() && r.compare.is_none() && !(r.summary.is_some() && r.options.summary);
    if let (true, Some(a), Some(cost)) = (plain, r.analysis, r.cost()) {
        report::write_human_report(a, Some(cost), r.options.hints, &mut |part: &mut String| {
            let _ = w.write_all(part.as_bytes());
            part.clear();
        });
        if let Some(entries) = &r.ledger {
            let _ = w.write_all(ledger::human(a, entries).as_bytes());
        }
        return;
    }
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
    let mut out = if let Some(rows) = &r.compare {
        compare::human(&a.graph.name, rows, r.hardware)
    } else if let Some(s) = r.summary.as_ref().filter(|_| r.options.summary) {
        report::human_summary(a, s, r.cost())
    } else if let Some(cost) = r.cost() {
        report::human_report(a, Some(cost), r.options.hints)
    } else {
        report::human(a)
    };
    if let Some(entries) = &r.ledger {
        out += &ledger::human(a, entries);
    }
    out
}
