//! The text of `--explain OP` ([`crate::report::explain_op`]): the op and its tensor, its
//! kernel (kind, members, traffic), every edge into and out of it (fused, or a boundary with
//! its rule and the smallest change that fuses it) and its output's line of the ledger.

use crate::fusion::FusedBy;
use crate::graph::Origin;
use crate::report::explain_op::{Edge, EdgeState, OpReport, kernel_kind};
use crate::report::render::human::report::boundary_lines;
use crate::units::group_digits;
use std::fmt::Write as _;

/// The text of `--explain OP`: the op, its kernel, its edges in and out, its tensor's line of
/// the ledger.
pub fn human(r: &OpReport<'_>) -> String {
    let a = r.analysis;
    let g = &a.graph;
    let node = g.op(r.op);
    let t = g.tensor(node.output);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "op `{}` = {}({}) -> {}: {} {}, {} B\n",
        node.name,
        node.kind_func(),
        g.written_inputs(node).join(", "),
        t.name,
        crate::sema::fmt_shape(&t.shape),
        t.dtype,
        group_digits(t.bytes)
    );
    let k = r.kernel;
    let grp = &a.plan.groups[k];
    let tr = &a.traffic.groups[k];
    let names: Vec<&str> = grp.ops.iter().map(|&o| g.op(o).name.as_str()).collect();
    let _ = writeln!(
        out,
        "kernel {} of {} ({}, {} op{}): {}",
        k + 1,
        a.plan.groups.len(),
        kernel_kind(a, k),
        grp.ops.len(),
        if grp.ops.len() == 1 { "" } else { "s" },
        names.join(" → ")
    );
    if !grp.recomputed.is_empty() {
        let again: Vec<&str> = grp
            .recomputed
            .iter()
            .map(|&o| g.op(o).name.as_str())
            .collect();
        let _ = writeln!(out, "  computes again: {}", again.join(", "));
    }
    let access = |items: Vec<String>| {
        if items.is_empty() {
            "nothing".to_string()
        } else {
            items.join(", ")
        }
    };
    let _ = writeln!(
        out,
        "  reads  {} B: {}",
        group_digits(tr.bytes_read),
        access(
            tr.reads
                .iter()
                .map(|read| {
                    let idx = read.index.map_or(String::new(), |i| format!("[{i}]"));
                    format!(
                        "{}{idx} {} B",
                        g.tensor(read.tensor).name,
                        group_digits(read.bytes)
                    )
                })
                .collect()
        )
    );
    let _ = writeln!(
        out,
        "  writes {} B: {}",
        group_digits(tr.bytes_written),
        access(
            tr.writes
                .iter()
                .map(|w| format!("{} {} B", g.tensor(w.tensor).name, group_digits(w.bytes)))
                .collect()
        )
    );
    out.push_str("\nedges in:\n");
    if r.external.is_empty() && r.edges_in.is_empty() {
        out.push_str("  none\n");
    }
    for &x in &r.external {
        let tx = g.tensor(x);
        let what = if tx.origin == Origin::Weight {
            "weight"
        } else {
            "graph input"
        };
        let _ = writeln!(
            out,
            "  `{}` ({what}, {} B): read from HBM by kernel {}",
            tx.name,
            group_digits(tx.bytes),
            k + 1
        );
    }
    for e in &r.edges_in {
        edge_lines(r, &mut out, e);
    }
    out.push_str("edges out:\n");
    if r.edges_out.is_empty() {
        out.push_str("  none\n");
    }
    for e in &r.edges_out {
        edge_lines(r, &mut out, e);
    }
    let _ = writeln!(
        out,
        "\ntensor `{}`: written {} B, read {} B; {}",
        t.name,
        group_digits(r.entry.written),
        group_digits(r.entry.read()),
        r.entry.explanation(g)
    );
    out
}

fn edge_lines(r: &OpReport<'_>, out: &mut String, e: &Edge) {
    let a = r.analysis;
    let g = &a.graph;
    match &e.state {
        EdgeState::Boundary(b, h) => boundary_lines(out, g, &a.plan, b, h, "  "),
        EdgeState::Fused {
            fused_by,
            overrides,
        } => {
            let by = match (fused_by, overrides) {
                (Some(f), Some(r)) => format!(" [{f}, overrides {r}]"),
                (Some(f), None) => format!(" [{f}]"),
                _ => String::new(),
            };
            let (p, c, t) = (
                &g.op(e.producer).name,
                &g.op(e.consumer).name,
                &g.tensor(e.tensor).name,
            );
            let k = a.plan.group_of[e.consumer.index()] + 1;
            let how = if *fused_by == Some(FusedBy::Recompute) {
                format!("kernel {k} computes `{p}` again{by}")
            } else {
                format!("fused in kernel {k}{by}")
            };
            let _ = writeln!(
                out,
                "  {p} → {c} via `{t}`: {how}, `{t}` stays on chip for this edge"
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::human;
    use crate::analysis::Options;
    use crate::report::explain_op::{EdgeState, find, report};

    const DIAMOND: &str = "graph d {\n  input x: [64, 64]\n  op a = elementwise.relu(x) -> t\n  op b = elementwise.gelu(t) -> u\n  op c = elementwise.exp(t) -> v\n  op d = elementwise.add(u, v) -> y\n}\n";

    #[test]
    fn an_op_with_its_kernel_edges_and_tensor() {
        let (a, _) = crate::fusion::analysed(DIAMOND, &Options::default());
        let g = &a.graph;
        let b = find(g, "b").expect("b");
        let w = crate::report::hints(&a);
        let r = report(&a, b, &w);
        assert_eq!(r.kernel, 1);
        assert_eq!(r.edges_in.len(), 1);
        assert!(matches!(r.edges_in[0].state, EdgeState::Boundary(..)));
        assert!(matches!(r.edges_out[0].state, EdgeState::Fused { .. }));
        let text = human(&r);
        assert!(
            text.contains("kernel 2 of 2 (elementwise, 3 ops): b → c → d"),
            "{text}"
        );
        assert!(
            text.contains("with `--policy store` this edge fuses"),
            "{text}"
        );
        assert!(
            text.contains("tensor `u`: written 0 B, read 0 B; fused"),
            "{text}"
        );
        let a_op = find(g, "a").expect("a");
        assert!(human(&report(&a, a_op, &w)).contains("`x` (graph input"));
        assert_eq!(
            find(g, "bb").unwrap_err(),
            "no op `bb` in graph `d`; did you mean `b`?"
        );
        assert!(find(g, "u").unwrap_err().contains("did you mean `b`"));
    }
}
