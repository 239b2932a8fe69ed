//! The fused graph as Graphviz DOT.
//!
//! - Every kernel is a cluster labelled with its number, the bytes it reads and writes and,
//!   with a cost estimate, whether it is memory- or compute-bound.
//! - Ops are boxes inside their kernel. Tensors are nodes too: a tensor that stays on chip
//!   (fused away) is a small dashed note inside its kernel; one that goes through HBM (an
//!   input, a weight, or a tensor its kernel writes) is a filled cylinder outside every kernel.
//! - An edge from an op to the tensor it writes, or from a tensor to an op that reads it, is
//!   labelled with the bytes moved through HBM (`on chip` inside a kernel, `recomputed` when
//!   the reading kernel computes the tensor again); an edge that is a fusion boundary is red
//!   and labelled with its reason code.
//! - A graph of [`SUMMARY_OPS`] ops or more is drawn as one node per kernel instead, with an
//!   edge per pair of kernels that pass tensors, labelled with their bytes and the reasons.
//! - Folded ([`dot_folded`]: `--collapse-repeats`, and the HTML report's picture): the first
//!   instance of each block is drawn as above, and each range of later instances
//!   ([`crate::report::fold`]) is one node with its counts, bytes and time; an edge joins it
//!   to each drawn tensor it reads or writes, and to each other range it passes tensors to.

use crate::analysis::Analysis;
use crate::cost::CostReport;
use crate::graph::TensorId;
use crate::report::fold::{Fold, Range};
use std::collections::BTreeMap;
use std::fmt::Write;

/// From this many ops on, the picture shows one node per kernel.
pub const SUMMARY_OPS: usize = 10_000;

/// `8.39 MB`, `16 B`: sizes as the pictures write them (the DOT labels and the HTML tables).
pub fn bytes(b: u64) -> String {
    crate::units::with_unit(b, "B")
}

/// A DOT string literal.
fn quote(s: &str) -> String {
    let mut q = String::with_capacity(s.len() + 2);
    q.push('"');
    for c in s.chars() {
        match c {
            '"' | '\\' => {
                q.push('\\');
                q.push(c);
            }
            '\n' => q.push_str("\\n"),
            c => q.push(c),
        }
    }
    q.push('"');
    q
}

/// The plan of `a` as DOT; `cost` (for the same analysis) adds each kernel's bound.
pub fn dot(a: &Analysis, cost: Option<&CostReport>) -> String {
    dot_folded(a, cost, &Fold::none(a))
}

/// The node id of range `r` of a fold: `fold_r1`, … (the HTML report finds it by its title).
pub fn range_id(r: usize) -> String {
    format!("fold_r{}", r + 1)
}

/// A range's node: its instances, counts, bytes and time.
fn range_node(out: &mut String, r: usize, range: &Range) {
    let mut label = format!(
        "{}\n{} × {}: {} kernel{}, {} ops\nreads {}, writes {}",
        range.span(),
        range.instances,
        range.block,
        range.kernels,
        if range.kernels == 1 { "" } else { "s" },
        range.ops,
        bytes(range.bytes_read),
        bytes(range.bytes_written)
    );
    if let Some(t) = range.time_s {
        let _ = write!(label, "\n{}", crate::units::fmt_time(t));
    }
    let label = quote(&label);
    let _ = writeln!(
        out,
        "  {} [label={label}, shape=box3d, style=filled, fillcolor=\"#dfe7f2\", \
         color=\"#4a6fa5\", fontsize=11];",
        quote(&range_id(r))
    );
}

/// The plan of `a` as DOT with the ranges of `fold` drawn as one node each.
pub fn dot_folded(a: &Analysis, cost: Option<&CostReport>, fold: &Fold) -> String {
    let drawn_ops = (a.graph.ops.iter().enumerate())
        .filter(|(o, _)| fold.kernel_range[a.plan.group_of[*o]].is_none())
        .count();
    if drawn_ops >= SUMMARY_OPS {
        return summary(a, cost, fold);
    }
    let g = &a.graph;
    let drawn_kernel = |k: usize| fold.kernel_range.get(k).is_none_or(Option::is_none);
    let drawn_op = |o: crate::graph::OpId| drawn_kernel(a.plan.group_of[o.index()]);
    let range_of_op = |o: crate::graph::OpId| {
        fold.kernel_range
            .get(a.plan.group_of[o.index()])
            .copied()
            .flatten()
    };
    let mut out = String::new();
    let _ = writeln!(out, "digraph {} {{", quote(&g.name));
    out.push_str(
        "  rankdir=TB;\n  fontname=\"Helvetica\";\n  node [fontname=\"Helvetica\", fontsize=10];\n  \
         edge [fontname=\"Helvetica\", fontsize=9];\n",
    );
    // Which tensors go through HBM: externals and every tensor a kernel writes.
    let mut written = vec![false; g.tensors.len()];
    for gt in &a.traffic.groups {
        for w in &gt.writes {
            written[w.tensor.index()] = true;
        }
    }
    let in_hbm = |t: TensorId| g.producer(t).is_none() || written[t.index()];
    let tensor_label = |t: TensorId| {
        let x = g.tensor(t);
        let dims: Vec<String> = x.shape.iter().map(u64::to_string).collect();
        format!(
            "{}\n{}[{}]\n{}",
            x.name,
            x.dtype,
            dims.join(", "),
            bytes(x.bytes)
        )
    };
    // Kernels, with their ops and the tensors they keep on chip.
    for (k, (grp, gt)) in a.plan.groups.iter().zip(&a.traffic.groups).enumerate() {
        if !drawn_kernel(k) {
            continue;
        }
        let mut label = format!(
            "kernel {}: reads {}, writes {}",
            k + 1,
            bytes(gt.bytes_read),
            bytes(gt.bytes_written)
        );
        if let Some(kc) = cost.and_then(|c| c.fused.kernels.get(k)) {
            let _ = write!(label, ", {}-bound", kc.bound.as_str());
        }
        if a.plan.flash_kernel(k).is_some() {
            label.push_str(" [FlashAttention]");
        }
        let _ = writeln!(
            out,
            "  subgraph {} {{\n    label={};\n    style=\"rounded,filled\";\n    \
             fillcolor=\"#f3f6fb\";\n    color=\"#4a6fa5\";",
            quote(&format!("cluster_k{}", k + 1)),
            quote(&label)
        );
        for &o in &grp.ops {
            let op = g.op(o);
            let _ = writeln!(
                out,
                "    {} [label={}, shape=box, style=\"rounded,filled\", fillcolor=white];",
                quote(&format!("op:{}", op.name)),
                quote(&format!("{}\n{}", op.name, op.kind_func()))
            );
            if !in_hbm(op.output) {
                let _ = writeln!(
                    out,
                    "    {} [label={}, shape=note, style=dashed, fontsize=8];",
                    quote(&format!("t:{}", g.tensor(op.output).name)),
                    quote(&format!("{}\n(on chip)", tensor_label(op.output)))
                );
            }
        }
        out.push_str("  }\n");
    }
    for (r, range) in fold.ranges.iter().enumerate() {
        range_node(&mut out, r, range);
    }
    // Tensors that go through HBM, outside every kernel: those a drawn op writes or reads,
    // and the graph's outputs a range writes.
    let mut shown = vec![false; g.tensors.len()];
    for (i, x) in g.tensors.iter().enumerate() {
        let t = TensorId(i as u32);
        let used = g.producer(t).is_some() || !g.consumers(t).is_empty();
        let drawn = g.producer(t).is_some_and(drawn_op)
            || g.consumers(t).iter().any(|&c| drawn_op(c))
            || (g.producer(t).is_some() && g.is_output(t));
        if in_hbm(t) && used && drawn {
            shown[i] = true;
            let _ = writeln!(
                out,
                "  {} [label={}, shape=cylinder, style=filled, fillcolor={}];",
                quote(&format!("t:{}", x.name)),
                quote(&tensor_label(t)),
                if g.producer(t).is_none() {
                    "\"#e8e8e8\""
                } else {
                    "\"#fff2cc\""
                }
            );
        }
    }
    // Writes: op → tensor.
    for (k, (grp, gt)) in a.plan.groups.iter().zip(&a.traffic.groups).enumerate() {
        if !drawn_kernel(k) {
            continue;
        }
        for &o in &grp.ops {
            let t = g.op(o).output;
            let hbm = gt.writes.iter().find(|w| w.tensor == t).map(|w| w.bytes);
            let _ = writeln!(
                out,
                "  {} -> {} [label={}];",
                quote(&format!("op:{}", g.op(o).name)),
                quote(&format!("t:{}", g.tensor(t).name)),
                quote(&hbm.map_or("on chip".into(), bytes))
            );
        }
    }
    // Reads: tensor → op, boundaries in red with their reason.
    let mut reasons: BTreeMap<(u32, u32), &'static str> = BTreeMap::new();
    for b in &a.plan.boundaries {
        reasons.insert((b.tensor.0, b.consumer.0), b.reason.as_str());
    }
    for (k, (grp, gt)) in a.plan.groups.iter().zip(&a.traffic.groups).enumerate() {
        if !drawn_kernel(k) {
            continue;
        }
        for &o in &grp.ops {
            let mut seen: Vec<TensorId> = Vec::new();
            for u in &g.op(o).inputs {
                if seen.contains(&u.tensor) {
                    continue;
                }
                seen.push(u.tensor);
                let read: u64 = gt
                    .reads
                    .iter()
                    .filter(|r| r.tensor == u.tensor)
                    .map(|r| r.bytes)
                    .sum();
                let on_chip = !in_hbm(u.tensor)
                    || (read == 0 && g.producer(u.tensor).is_some_and(|p| grp.ops.contains(&p)));
                // A producer this kernel computes again (`--policy recompute`, `inline`).
                let recomputed = g
                    .producer(u.tensor)
                    .is_some_and(|p| grp.recomputed.binary_search(&p).is_ok());
                let mut label = if recomputed {
                    "recomputed".into()
                } else if on_chip {
                    "on chip".into()
                } else {
                    bytes(read)
                };
                let mut attrs = String::new();
                if let Some(r) = reasons.get(&(u.tensor.0, o.0)) {
                    let _ = write!(label, "\n[{r}]");
                    attrs.push_str(", color=\"#c0392b\", fontcolor=\"#c0392b\", penwidth=1.6");
                } else if on_chip {
                    attrs.push_str(", style=dashed");
                }
                let _ = writeln!(
                    out,
                    "  {} -> {} [label={}{attrs}];",
                    quote(&format!("t:{}", g.tensor(u.tensor).name)),
                    quote(&format!("op:{}", g.op(o).name)),
                    quote(&label)
                );
            }
        }
    }
    if !fold.is_empty() {
        folded_edges(&mut out, a, fold, &shown, range_of_op);
    }
    out.push_str("}\n");
    out
}

/// The edges of a fold's ranges: range → drawn tensor it writes, drawn tensor → range that
/// reads it, range → range for the tensors passed between them (each with its bytes).
fn folded_edges(
    out: &mut String,
    a: &Analysis,
    fold: &Fold,
    shown: &[bool],
    range_of_op: impl Fn(crate::graph::OpId) -> Option<usize>,
) {
    let g = &a.graph;
    let mut edges: BTreeMap<(String, String), u64> = BTreeMap::new();
    for (k, gt) in a.traffic.groups.iter().enumerate() {
        // Writes of a folded kernel to drawn tensors.
        if let Some(r) = fold.kernel_range[k] {
            for w in gt.writes.iter().filter(|w| shown[w.tensor.index()]) {
                let e = (range_id(r), format!("t:{}", g.tensor(w.tensor).name));
                *edges.entry(e).or_default() += w.bytes;
            }
        }
        // Reads of a folded kernel: of drawn tensors, or of another range's.
        let Some(r) = fold.kernel_range[k] else {
            continue;
        };
        for rd in &gt.reads {
            let from = if shown[rd.tensor.index()] {
                format!("t:{}", g.tensor(rd.tensor).name)
            } else {
                match g.producer(rd.tensor).and_then(&range_of_op) {
                    Some(p) if p != r => range_id(p),
                    _ => continue,
                }
            };
            let e = edges.entry((from, range_id(r))).or_default();
            *e = e.saturating_add(rd.bytes);
        }
    }
    for ((from, to), b) in edges {
        let _ = writeln!(
            out,
            "  {} -> {} [label={}, color=\"#4a6fa5\"];",
            quote(&from),
            quote(&to),
            quote(&bytes(b))
        );
    }
}

/// One node per kernel, for graphs too large to draw op by op.
fn summary(a: &Analysis, cost: Option<&CostReport>, fold: &Fold) -> String {
    let g = &a.graph;
    let mut out = String::new();
    let _ = writeln!(out, "digraph {} {{", quote(&g.name));
    out.push_str(
        "  rankdir=TB;\n  node [fontname=\"Helvetica\", fontsize=10, shape=box, \
         style=\"rounded,filled\", fillcolor=\"#f3f6fb\"];\n  \
         edge [fontname=\"Helvetica\", fontsize=9];\n",
    );
    let _ = writeln!(
        out,
        "  label={};\n  labelloc=t;",
        quote(&format!(
            "{}: {} ops in {} kernels (one node per kernel: {} ops or more)",
            g.name,
            g.ops.len(),
            a.plan.groups.len(),
            SUMMARY_OPS
        ))
    );
    for (r, range) in fold.ranges.iter().enumerate() {
        range_node(&mut out, r, range);
    }
    // A kernel's node, or its range's.
    let node = |k: usize| match fold.kernel_range.get(k).copied().flatten() {
        Some(r) => range_id(r),
        None => format!("k{}", k + 1),
    };
    for (k, (grp, gt)) in a.plan.groups.iter().zip(&a.traffic.groups).enumerate() {
        if fold.kernel_range.get(k).is_some_and(Option::is_some) {
            continue;
        }
        let first = grp.ops.first().map_or("", |&o| g.op(o).name.as_str());
        let last = grp.ops.last().map_or("", |&o| g.op(o).name.as_str());
        let ops = if grp.ops.len() == 1 {
            first.to_string()
        } else {
            format!("{} ops: {first} … {last}", grp.ops.len())
        };
        let mut label = format!(
            "kernel {}\n{ops}\nreads {}, writes {}",
            k + 1,
            bytes(gt.bytes_read),
            bytes(gt.bytes_written)
        );
        if let Some(kc) = cost.and_then(|c| c.fused.kernels.get(k)) {
            let _ = write!(label, "\n{}-bound", kc.bound.as_str());
        }
        let _ = writeln!(out, "  k{} [label={}];", k + 1, quote(&label));
    }
    // Kernel → kernel (or range): the bytes of the tensors passed and the reasons of the
    // boundaries. Edges inside a range are not drawn.
    let mut edges: BTreeMap<(usize, usize), (u64, Vec<&'static str>)> = BTreeMap::new();
    for b in &a.plan.boundaries {
        let (from, to) = (
            a.plan.group_of[b.producer.index()],
            a.plan.group_of[b.consumer.index()],
        );
        if node(from) == node(to) {
            continue;
        }
        let e = edges.entry((from, to)).or_default();
        if !e.1.contains(&b.reason.as_str()) {
            e.1.push(b.reason.as_str());
        }
    }
    for (k, gt) in a.traffic.groups.iter().enumerate() {
        for r in &gt.reads {
            if let Some(p) = g.producer(r.tensor) {
                let from = a.plan.group_of[p.index()];
                if node(from) != node(k) {
                    let e = edges.entry((from, k)).or_default();
                    e.0 = e.0.saturating_add(r.bytes);
                }
            }
        }
    }
    // Kernel pairs folded into the same pair of nodes are summed.
    let mut merged: BTreeMap<(String, String), (u64, Vec<&'static str>)> = BTreeMap::new();
    for ((from, to), (b, reasons)) in edges {
        let e = merged.entry((node(from), node(to))).or_default();
        e.0 = e.0.saturating_add(b);
        for r in reasons {
            if !e.1.contains(&r) {
                e.1.push(r);
            }
        }
    }
    for ((from, to), (b, reasons)) in merged {
        let label = format!("{}\n[{}]", bytes(b), reasons.join(", "));
        let _ = writeln!(out, "  {from} -> {to} [label={}];", quote(&label));
    }
    out.push_str("}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::dot;
    use crate::analysis::{Options, check_file};

    fn analysis(src: &str) -> crate::analysis::Analysis {
        let r = check_file("t.fgraph", src.as_bytes(), &Options::default());
        r.graphs[0].analysis.clone().expect("analysis")
    }

    const MLP: &str = "graph mlp {\n  dtype f16\n  input x: [1024, 4096]\n  weight w1: [4096, 4096]\n  weight b1: [4096]\n  weight w2: [4096, 1024]\n  op matmul1 = matmul(x, w1) -> y1\n  op bias1 = elementwise.add(y1, b1) -> y2\n  op relu = elementwise.relu(y2) -> y3\n  op matmul2 = matmul(y3, w2) -> y4\n}\n";

    #[test]
    fn kernels_are_clusters_and_edges_carry_bytes_and_reasons() {
        let d = dot(&analysis(MLP), None);
        // Two kernels, each a cluster with its numbers.
        assert_eq!(d.matches("subgraph \"cluster_k").count(), 2);
        assert!(
            d.contains("label=\"kernel 1: reads 42 MB, writes 8.39 MB\""),
            "{d}"
        );
        // Fused-away tensors inside the kernel, dashed; the materialized one outside.
        assert!(d.contains(
            "\"t:y1\" [label=\"y1\\nf16[1024, 4096]\\n8.39 MB\\n(on chip)\", shape=note"
        ));
        assert!(d.contains("\"t:y3\" [label=\"y3\\nf16[1024, 4096]\\n8.39 MB\", shape=cylinder"));
        // Edges: on chip inside a kernel, bytes through HBM, the boundary in red with its code.
        assert!(
            d.contains("\"op:matmul1\" -> \"t:y1\" [label=\"on chip\"];"),
            "{d}"
        );
        assert!(
            d.contains("\"t:y1\" -> \"op:bias1\" [label=\"on chip\", style=dashed];"),
            "{d}"
        );
        assert!(
            d.contains("\"op:relu\" -> \"t:y3\" [label=\"8.39 MB\"];"),
            "{d}"
        );
        assert!(
            d.contains(
                "\"t:y3\" -> \"op:matmul2\" [label=\"8.39 MB\\n[matmul-starts-group]\", color="
            ),
            "{d}"
        );
        assert!(
            d.contains("\"t:w1\" -> \"op:matmul1\" [label=\"33.6 MB\"];"),
            "{d}"
        );
        // Every op and every edge exactly once: 4 ops, 4 writes, 7 reads.
        assert_eq!(d.matches("shape=box").count(), 4);
        assert_eq!(d.matches(" -> ").count(), 4 + 7);
    }

    const LAYERS: &str = "\
block mlp(S, H = 8) {
  input x: [S, H]
  weight w: [H, H]
  op mm = matmul(x, w) -> y
  op act = elementwise.relu(y) -> a
  output a
}
graph g {
  input x: [4, 8]
  op pre = elementwise.neg(x) -> x0
  repeat 4 layers = mlp(x0, S = 4) -> h
  op post = matmul(h, h.T) -> out
  output out
}
";

    #[test]
    fn folded_repeats_are_one_node_joined_to_the_drawn_tensors() {
        let r = check_file("m.fgraph", LAYERS.as_bytes(), &Options::default());
        let g = &r.graphs[0];
        let a = g.analysis.as_ref().expect("analysis");
        let fold = crate::report::fold::fold(a, &g.instances, None);
        let d = super::dot_folded(a, None, &fold);
        // pre, layers.0 and post drawn; layers.1 to layers.3 one node.
        assert_eq!(d.matches("subgraph \"cluster_k").count(), 3, "{d}");
        assert!(d.contains("\"op:layers.0.mm\""));
        assert!(!d.contains("\"op:layers.1.mm\""), "{d}");
        assert!(
            d.contains(
                "\"fold_r1\" [label=\"layers.1 … layers.3\\n3 × mlp: 3 kernels, 6 ops\\n\
                 reads 1.15 kB, writes 384 B\", shape=box3d"
            ),
            "{d}"
        );
        // layers.0's output into the range, the range's output (h) to post.
        assert!(
            d.contains("\"t:layers.0.a\" -> \"fold_r1\" [label=\"128 B\""),
            "{d}"
        );
        assert!(d.contains("\"fold_r1\" -> \"t:h\" [label=\"128 B\""), "{d}");
        // No weight of a folded layer is drawn.
        assert!(!d.contains("\"t:layers.1.w\""), "{d}");
        // Folding nothing draws the plain picture.
        let none = crate::report::fold::Fold::none(a);
        assert_eq!(super::dot_folded(a, None, &none), dot(a, None));
    }

    #[test]
    fn large_graphs_get_one_node_per_kernel() {
        let mut src = String::from("graph big {\n  input t0: [1, 4]\n  weight w: [4, 4]\n");
        for i in 1..=super::SUMMARY_OPS {
            if i % 2 == 0 {
                src += &format!("  op o{i} = matmul(t{}, w) -> t{i}\n", i - 1);
            } else {
                src += &format!("  op o{i} = elementwise.relu(t{}) -> t{i}\n", i - 1);
            }
        }
        src += "}\n";
        let a = analysis(&src);
        let d = dot(&a, None);
        assert!(!d.contains("subgraph"));
        assert_eq!(d.matches(" [label=\"kernel ").count(), a.plan.groups.len());
        // Kernel 1 is o1 alone (f32[1, 4]: 16 B to the matmul o2); then matmul + relu pairs.
        assert_eq!(a.plan.groups.len(), 1 + super::SUMMARY_OPS / 2);
        assert!(
            d.contains("k1 -> k2 [label=\"16 B\\n[matmul-starts-group]\"];"),
            "{}",
            &d[..2000]
        );
    }
}
