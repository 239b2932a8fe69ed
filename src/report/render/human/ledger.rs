//! The `--ledger` table: the fused traffic by tensor, one row per tensor (at most
//! [`MAX_ROWS`]), and the totals ([`crate::report::ledger`]).

use crate::analysis::Analysis;
use crate::report::ledger::{Entry, totals};
use std::fmt::Write as _;

/// Rows of the human ledger at most (the JSON lists every tensor).
pub const MAX_ROWS: usize = 500;

/// The ledger in the human report.
pub fn human(a: &Analysis, entries: &[Entry]) -> String {
    let g = &a.graph;
    let digits = crate::units::group_digits;
    let width = entries
        .iter()
        .take(MAX_ROWS)
        .map(|e| g.tensor(e.tensor).name.chars().count())
        .max()
        .unwrap_or(6)
        .clamp(6, 32);
    let mut out = String::from(
        "\ntensor ledger (the fused traffic by tensor; kernels numbered in execution order):\n",
    );
    let _ = writeln!(
        out,
        "  {:<width$} {:>16} {:>16}  {:<14} why",
        "tensor", "written", "read", "kernels"
    );
    for e in entries.iter().take(MAX_ROWS) {
        let kernels = {
            let from = e
                .producer_kernel
                .map_or(String::new(), |k| (k + 1).to_string());
            let mut readers: Vec<usize> = e.reads.iter().map(|r| r.kernel + 1).collect();
            readers.dedup();
            let to: Vec<String> = readers.iter().take(4).map(|k| k.to_string()).collect();
            let more = if readers.len() > 4 { ", …" } else { "" };
            match (from.is_empty(), to.is_empty()) {
                (_, true) => from,
                (true, false) => format!("→ {}{more}", to.join(", ")),
                (false, false) => format!("{from} → {}{more}", to.join(", ")),
            }
        };
        let _ = writeln!(
            out,
            "  {:<width$} {:>16} {:>16}  {:<14} {}",
            g.tensor(e.tensor).name,
            digits(e.written),
            digits(e.read()),
            kernels,
            e.explanation(g)
        );
    }
    if entries.len() > MAX_ROWS {
        let _ = writeln!(
            out,
            "  … {} more (see --format json)",
            entries.len() - MAX_ROWS
        );
    }
    let (w, r) = totals(entries);
    let _ = writeln!(
        out,
        "  {:<width$} {:>16} {:>16}  = {} B, the fused traffic",
        "total",
        digits(w),
        digits(r),
        digits(w.saturating_add(r))
    );
    out
}
