//! The `--compare` table: the graph under every fusion strategy, side by side, the run's own
//! plan starred, the least traffic marked, and a row whose plan search stopped at its work
//! bound marked too ([`crate::report::compare`]).

use crate::cost::Hardware;
use crate::report::compare::Row;

/// The table of `analyze --compare`.
pub fn human(graph: &str, rows: &[Row], hw: &Hardware) -> String {
    let mut out = format!(
        "graph `{graph}` under each fusion strategy (time estimated on {}):\n\n",
        hw.description
    );
    let w = rows
        .iter()
        .map(|r| r.strategy.len())
        .max()
        .unwrap_or(8)
        .max(8);
    out += &format!(
        "  {:<w$}  {:>7}  {:>8}  {:>22}  {:>14}  {:>12}\n",
        "strategy", "kernels", "launches", "HBM traffic (bytes)", "FLOPs", "time"
    );
    let best = rows.iter().map(|r| r.total_bytes).min().unwrap_or(0);
    for r in rows {
        out += &format!(
            "{} {:<w$}  {:>7}  {:>8}  {:>22}  {:>14}  {:>12}{}\n",
            if r.current { "*" } else { " " },
            r.strategy,
            r.kernels,
            r.launches,
            crate::units::group_digits(r.total_bytes),
            crate::units::group_digits(r.flops),
            crate::units::fmt_time(r.time_us / 1e6),
            match (r.total_bytes == best, r.search_stopped.is_some()) {
                (true, false) => "  least traffic",
                (true, true) => "  least traffic, search stopped",
                (false, true) => "  search stopped",
                (false, false) => "",
            }
        );
    }
    out +=
        "\n* the plan this run reports (--fuser, --policy and the other fusion flags choose it)\n";
    if rows.iter().any(|r| r.search_stopped.is_some()) {
        out += "search stopped: the plan search reached its work bound and keeps what it had \
                found (see the `search-budget` warning)\n";
    }
    out
}
