//! The group a sharded graph runs on (issue 25), printed after the report's first line: the
//! groups and their sizes, the pipeline stage, weights and parameters per GPU, in the written
//! model and over the whole group, the divided weights by role and the inserted collectives.
//! Nothing is printed for a graph without `parallel` sections.

use crate::parallel::Parallel;
use crate::units::{fmt_bytes, group_digits};
use std::fmt::Write;

/// The lines, each ending in a line break, then a blank line; empty without sharding.
pub fn lines(p: Option<&Parallel>) -> String {
    let Some(p) = p else {
        return String::new();
    };
    let mut out = String::new();
    let groups: Vec<String> = p
        .groups
        .iter()
        .map(|g| {
            format!(
                "{} `{}` of {} (stride {})",
                g.kind.as_str(),
                g.name,
                g.size,
                g.stride
            )
        })
        .collect();
    let _ = writeln!(
        out,
        "parallel: {}; {} GPU{} in all; every figure below is one GPU's",
        groups.join(", "),
        p.world,
        if p.world == 1 { "" } else { "s" }
    );
    if let Some(s) = &p.stage {
        let _ = writeln!(
            out,
            "  stage {} of {}: {}.{} to {}.{}",
            s.index,
            s.of,
            s.layers,
            s.first,
            s.layers,
            s.end.saturating_sub(1)
        );
    }
    let _ = writeln!(
        out,
        "  params   {} per GPU, {} written, {} over the group (weights {} per GPU)",
        group_digits(p.params.per_gpu),
        group_digits(p.params.model),
        group_digits(p.params.group),
        fmt_bytes(p.weights.per_gpu)
    );
    if p.state.model > 0 {
        let _ = writeln!(
            out,
            "  state    {} per GPU, {} written, {} over the group (caches `update` writes)",
            fmt_bytes(p.state.per_gpu),
            fmt_bytes(p.state.model),
            fmt_bytes(p.state.group)
        );
    }
    let _ = writeln!(
        out,
        "  FLOPs    {} per GPU, {} written",
        group_digits(p.flops.per_gpu),
        group_digits(p.flops.model)
    );
    let mut roles: Vec<(&str, &str, usize)> = Vec::new();
    for s in &p.sharded {
        match roles
            .iter_mut()
            .find(|(r, g, _)| *r == s.role.as_str() && *g == s.group)
        {
            Some(r) => r.2 += 1,
            None => roles.push((s.role.as_str(), &s.group, 1)),
        }
    }
    if !roles.is_empty() {
        let r: Vec<String> = roles
            .iter()
            .map(|(r, g, n)| format!("{n} {r} over `{g}`"))
            .collect();
        let _ = writeln!(
            out,
            "  divided  {} (JSON `parallel.sharded` lists each)",
            r.join(", ")
        );
    }
    if !p.inserted.is_empty() {
        let r: Vec<String> = p
            .inserted
            .iter()
            .map(|i| {
                format!(
                    "{} {} over `{}` ({} per GPU)",
                    i.count,
                    i.function,
                    i.group,
                    fmt_bytes(i.bytes)
                )
            })
            .collect();
        let _ = writeln!(out, "  inserted {}", r.join(", "));
    }
    for s in &p.split_outputs {
        let _ = writeln!(
            out,
            "  output   `{}` stays divided: axis {} over `{}` (this GPU's shard)",
            s.tensor, s.axis, s.group
        );
    }
    out.push('\n');
    out
}
