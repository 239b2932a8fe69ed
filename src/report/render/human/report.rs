//! The text report of an analysed graph (`fgraph analyze`'s default view): the kernels with
//! their ops, reads, writes and estimated times, how the plan was made when not by SPEC §2's
//! rules, the traffic of both plans, the boundaries (with the smallest change that fuses each
//! under `--hints`), what the fusion options fused, and the estimated time on the GPU with the
//! FlashAttention comparison. [`human_summary`] is the `--summary` view of the same graph.

use crate::analysis::Analysis;
use crate::cost::{AttentionReport, CostReport, KernelCost, PlanSummary, Unit};
use crate::fusion::whatif::WhatIf;
use crate::fusion::{Boundary, whatif};
use crate::graph::{Graph, TensorId};
use crate::report::same_estimate;
use crate::runtime::RuntimeEstimate;
use crate::traffic::{Read, Traffic, Write};
use crate::units::{fmt_bytes, fmt_num, fmt_time, group_digits, si};
use std::fmt::Write as _;

/// Lists at most `max` items, then says how many more there are.
pub(super) fn list(items: impl ExactSizeIterator<Item = String>, sep: &str, max: usize) -> String {
    let n = items.len();
    let mut v: Vec<String> = items.take(max).collect();
    if n > max {
        v.push(format!("… {} more", n - max));
    }
    v.join(sep)
}

/// The human report of `fgraph analyze`: kernels, traffic, boundaries.
pub fn human(a: &Analysis) -> String {
    human_with_cost(a, None)
}

/// `1.23 GFLOP`.
fn flops(f: u64) -> String {
    crate::units::with_unit(f, "FLOP")
}

fn cost_line(k: &KernelCost) -> String {
    let intensity = k
        .intensity
        .map_or("no bytes".to_string(), |i| format!("{} FLOP/B", fmt_num(i)));
    // A collective's transfer (issue 25), beside its local work; no other kernel has one.
    let comm = match &k.communication {
        Some(_) => format!(", {} communication", fmt_time(k.comm_s)),
        None => String::new(),
    };
    format!(
        "{}, {} → {intensity} (ridge {}): {}-bound, {} ({} compute, {} memory{comm}, {} launch)",
        flops(k.flops),
        crate::units::with_unit(k.bytes, "B"),
        fmt_num(k.ridge_point),
        k.bound.as_str(),
        fmt_time(k.time_s),
        fmt_time(k.compute_s),
        fmt_time(k.memory_s),
        fmt_time(k.launch_s)
    )
}

/// A kernel under the hardware model, beside its compulsory reads.
fn model_line(p: &crate::cost::Prediction, counted_read: u64) -> String {
    let ratio = if counted_read > 0 {
        format!(
            " ({:.2}× the counted reads)",
            p.dram_read as f64 / counted_read as f64
        )
    } else {
        String::new()
    };
    // A collective's transfer (issue 25); no other kernel has one.
    let comm = if p.comm_s > 0.0 {
        format!(", {} communication", fmt_time(p.comm_s))
    } else {
        String::new()
    };
    format!(
        "hardware model ({}): DRAM reads {}B{ratio}, writes {}B; kernel {} ({} compute, {} \
         memory{comm}) + {} launch = {}",
        p.family.as_str(),
        si(p.dram_read as f64),
        si(p.dram_written as f64),
        fmt_time(p.kernel_s),
        fmt_time(p.compute_s),
        fmt_time(p.memory_s),
        fmt_time(p.launch_s),
        fmt_time(p.time_s)
    ) + &p.split_k.map_or(String::new(), |k| {
        format!(
            "; split-K {} ways: a reduction kernel of {} and {}B of partials included",
            k.splits,
            fmt_time(k.reduce_s),
            si(k.partial_bytes as f64)
        )
    })
}

/// Ops, reads or writes listed per kernel in the human report (the JSON lists all).
const MAX: usize = 12;

/// One `reads`/`writes` line of a kernel in the human report: the total, then each tensor
/// (with its view index) and its bytes, at most `MAX` of them.
#[allow(clippy::too_many_arguments)]
fn access_line<T>(
    out: &mut String,
    pad: &str,
    label: &str,
    total: u64,
    items: &[T],
    parts: impl Fn(&T) -> (TensorId, Option<u64>, u64),
    g: &Graph,
    bytes_memo: &mut BytesMemo,
) {
    out.push_str(pad);
    out.push_str(label);
    out.push_str(bytes_memo.get(total));
    out.push_str(": ");
    if items.is_empty() {
        out.push_str("nothing");
    }
    write_list(out, items, ", ", MAX, |out, item| {
        let (tensor, index, bytes) = parts(item);
        out.push_str(&g.tensor(tensor).name);
        if let Some(i) = index {
            let _ = write!(out, "[{i}]");
        }
        out.push(' ');
        out.push_str(bytes_memo.get(bytes));
    });
    out.push('\n');
}

/// [`list`] written into `out`: at most `max` items, then how many more there are.
fn write_list<T>(
    out: &mut String,
    items: &[T],
    sep: &str,
    max: usize,
    mut item: impl FnMut(&mut String, &T),
) {
    for (i, x) in items.iter().take(max).enumerate() {
        if i > 0 {
            out.push_str(sep);
        }
        item(out, x);
    }
    if items.len() > max {
        if max > 0 {
            out.push_str(sep);
        }
        let _ = write!(out, "… {} more", items.len() - max);
    }
}

/// [`fmt_bytes`] of the last few values, kept.
#[derive(Default)]
struct BytesMemo {
    entries: Vec<(u64, String)>,
    next: usize,
}

impl BytesMemo {
    fn get(&mut self, b: u64) -> &str {
        const SIZE: usize = 4;
        let k = match self.entries.iter().position(|(v, _)| *v == b) {
            Some(k) => k,
            None if self.entries.len() < SIZE => {
                self.entries.push((b, fmt_bytes(b)));
                self.entries.len() - 1
            }
            None => {
                let k = self.next;
                self.next = (k + 1) % SIZE;
                self.entries[k] = (b, fmt_bytes(b));
                k
            }
        };
        &self.entries[k].1
    }
}

/// The human report with the cost model's estimate when one is given.
pub fn human_with_cost(a: &Analysis, cost: Option<(&CostReport, &AttentionReport)>) -> String {
    human_report(a, cost, None)
}

/// Boundaries the text report lists (and gives hints for): the rest are counted.
pub const BOUNDARIES_SHOWN: usize = 200;

/// [`human_with_cost`], with the smallest change that fuses each boundary under it when
/// `hints` are given (`analyze --hints`, the what-if of the first [`BOUNDARIES_SHOWN`]
/// boundaries; off by default, so that the default report stays the seed's, SPEC §8).
pub fn human_report(
    a: &Analysis,
    cost: Option<(&CostReport, &AttentionReport)>,
    hints: Option<&WhatIf>,
) -> String {
    human_report_with(a, cost, hints, None)
}

/// [`human_report`] with `--runtime`'s estimate among the estimates.
pub fn human_report_with(
    a: &Analysis,
    cost: Option<(&CostReport, &AttentionReport)>,
    hints: Option<&WhatIf>,
    runtime: Option<&RuntimeEstimate>,
) -> String {
    let g = &a.graph;
    let mut out = String::new();
    let n_ops = g.ops.len();
    let n_groups = a.plan.groups.len();
    out += &format!(
        "graph `{}`: {n_ops} op{} in {n_groups} kernel{}\n\n",
        g.name,
        if n_ops == 1 { "" } else { "s" },
        if n_groups == 1 { "" } else { "s" }
    );
    out += &super::parallel::lines(a.parallel.as_deref());
    let opaque = crate::ops::funcs::opaque_in(g);
    if !opaque.is_empty() {
        let _ = writeln!(
            out,
            "opaque functions (costed only by the `flops = N` the file states): {}\n",
            opaque.join(", ")
        );
    }
    out += &crate::fusion::strategy::human_lines(&a.fusion);
    let width = n_groups.to_string().len();
    let pad = " ".repeat(width + 9);
    // Kernels of a large graph repeat their byte counts and estimates: format each once.
    let mut bytes_memo = BytesMemo::default();
    let mut last_cost: Option<(&KernelCost, String)> = None;
    for (k, (grp, tr)) in a.plan.groups.iter().zip(&a.traffic.groups).enumerate() {
        let tag = if a.plan.flash_kernel(k).is_some() {
            "  [FlashAttention]"
        } else {
            ""
        };
        let _ = write!(out, "kernel {:>width$}  ", k + 1);
        write_list(&mut out, &grp.ops, " → ", MAX, |out, &o| {
            out.push_str(&g.op(o).name)
        });
        out.push_str(tag);
        if !grp.recomputed.is_empty() {
            out.push_str("  (recomputes ");
            write_list(&mut out, &grp.recomputed, ", ", MAX, |out, &o| {
                out.push_str(&g.op(o).name)
            });
            out.push(')');
        }
        out.push('\n');
        let reads = |r: &Read| (r.tensor, r.index, r.bytes);
        let writes = |w: &Write| (w.tensor, None, w.bytes);
        access_line(
            &mut out,
            &pad,
            "reads  ",
            tr.bytes_read,
            &tr.reads,
            reads,
            g,
            &mut bytes_memo,
        );
        access_line(
            &mut out,
            &pad,
            "writes ",
            tr.bytes_written,
            &tr.writes,
            writes,
            g,
            &mut bytes_memo,
        );
        if let Some(kc) = cost.and_then(|(c, _)| c.fused.kernels.get(k)) {
            let line = match &last_cost {
                Some((prev, line)) if same_estimate(prev, kc) => line,
                _ => &last_cost.insert((kc, cost_line(kc))).1,
            };
            out.push_str(&pad);
            out.push_str("cost   ");
            out.push_str(line);
            out.push('\n');
            // A collective's transfer (issue 25).
            if let Some(c) = &kc.communication {
                out.push_str(&pad);
                out.push_str("comm   ");
                out.push_str(&c.sentence());
                out.push('\n');
            }
        }
        if let Some(p) = cost.and_then(|(c, _)| c.hardware_model.as_ref()?.kernels.get(k)) {
            out.push_str(&pad);
            out.push_str("model  ");
            out.push_str(&model_line(p, tr.bytes_read));
            out.push('\n');
        }
    }
    out += &totals(a, cost, runtime);
    if !a.plan.boundaries.is_empty() {
        // With `--hints`, the smallest change that fuses each boundary under it.
        let w = hints;
        out += if w.is_some() {
            "\nboundaries (edges that stay in HBM, why, and the smallest change that fuses \
             them):\n"
        } else {
            "\nboundaries (edges that stay in HBM, and why):\n"
        };
        for (k, b) in a.plan.boundaries.iter().enumerate().take(BOUNDARIES_SHOWN) {
            match &w {
                Some(w) => match w.hints.get(k) {
                    Some(h) => boundary_lines(&mut out, g, &a.plan, b, h, "  "),
                    None => break,
                },
                None => boundary_line(&mut out, g, b, "  "),
            }
        }
        if a.plan.boundaries.len() > BOUNDARIES_SHOWN {
            out += &format!(
                "  … {} more (see --format json)\n",
                a.plan.boundaries.len() - BOUNDARIES_SHOWN
            );
        }
    }
    fused_edges(
        &mut out,
        g,
        "reduction epilogues (edges kept in the reduction's kernel by --reduction-epilogue)",
        &a.plan.epilogues,
    );
    fused_edges(
        &mut out,
        g,
        "recomputed (edges whose producer runs again in the consumer's kernel)",
        &a.plan.recomputes,
    );
    if !a.plan.recomputes.is_empty() {
        out += &format!("  the copies add {}\n", flops(a.plan.recomputed_flops(g)));
    }
    if !a.plan.horizontal.is_empty() {
        out += "\nhorizontal launches (independent kernels merged because they read the same tensor):\n";
        for h in a.plan.horizontal.iter().take(200) {
            let parts: Vec<String> = h
                .parts
                .iter()
                .map(|p| {
                    format!(
                        "[{}]",
                        list(p.iter().map(|&o| g.op(o).name.to_string()), ", ", 4)
                    )
                })
                .collect();
            let shared = list(
                h.shared.iter().map(|&t| format!("`{}`", g.tensor(t).name)),
                ", ",
                4,
            );
            out += &format!(
                "  kernel {}: {} read {shared} once: saves {} and {} launch{}\n",
                h.group + 1,
                parts.join(" + "),
                fmt_bytes(h.bytes_saved),
                h.parts.len() - 1,
                if h.parts.len() == 2 { "" } else { "es" }
            );
        }
    }
    out
}

/// A section listing edges an option fused (at most 200), each with the rule it overrides.
fn fused_edges(out: &mut String, g: &Graph, title: &str, edges: &[crate::fusion::FusedEdge]) {
    if edges.is_empty() {
        return;
    }
    let _ = writeln!(out, "\n{title}:");
    for e in edges.iter().take(200) {
        let overrides = e
            .overrides
            .map_or(String::new(), |r| format!(", overrides {r}"));
        let _ = writeln!(
            out,
            "  {} → {} via `{}` [{}{overrides}]",
            g.op(e.producer).name,
            g.op(e.consumer).name,
            g.tensor(e.tensor).name,
            e.fused_by
        );
    }
}

/// A boundary in the human report: the edge, its rule and why.
fn boundary_line(out: &mut String, g: &Graph, b: &Boundary, indent: &str) {
    let (p, c, tn) = (
        &g.op(b.producer).name,
        &g.op(b.consumer).name,
        &g.tensor(b.tensor).name,
    );
    let _ = writeln!(
        out,
        "{indent}{p} → {c} via `{tn}` [{}]: {}",
        b.reason,
        b.explain(g)
    );
}

/// `boundary_line`, then (indented) the values and the smallest change that fuses it.
pub fn boundary_lines(
    out: &mut String,
    g: &Graph,
    plan: &crate::fusion::FusionPlan,
    b: &Boundary,
    h: &whatif::Hint,
    indent: &str,
) {
    boundary_line(out, g, b, indent);
    let _ = writeln!(out, "{indent}  {}", h.sentence(g, plan, b));
}

/// The traffic of both plans and, with a cost model, the estimated times.
fn totals(
    a: &Analysis,
    cost: Option<(&CostReport, &AttentionReport)>,
    runtime: Option<&RuntimeEstimate>,
) -> String {
    let g = &a.graph;
    let mut out = String::new();
    let t = &a.traffic;
    let row = |label: &str, tr: &Traffic| {
        format!(
            "  {label:<8} {:>22} {:>22} {:>22}\n",
            group_digits(tr.bytes_read),
            group_digits(tr.bytes_written),
            group_digits(tr.total)
        )
    };
    out += &format!(
        "\nHBM traffic (bytes){:>17}{:>23}{:>23}\n",
        "read", "written", "total"
    );
    out += &row("unfused", &t.unfused);
    out += &row("fused", &t.fused);
    out += &format!(
        "  saved by fusion: {}, {:.2}% of the unfused traffic\n",
        fmt_bytes(t.fused.saved_by_fusion),
        t.savings_pct
    );
    if let Some((c, att)) = cost {
        out += &cost_summary(g, c, att, runtime);
    }
    out
}

/// `analyze --summary`: the graph's size, one line per instance and per block, and the
/// totals, instead of the list of kernels.
pub fn human_summary(
    a: &Analysis,
    s: &crate::report::summary::Summary,
    cost: Option<(&CostReport, &AttentionReport)>,
) -> String {
    human_summary_with(a, s, cost, None)
}

/// [`human_summary`] with `--runtime`'s estimate among the estimates.
pub fn human_summary_with(
    a: &Analysis,
    s: &crate::report::summary::Summary,
    cost: Option<(&CostReport, &AttentionReport)>,
    runtime: Option<&RuntimeEstimate>,
) -> String {
    let n_ops = a.graph.ops.len();
    let n_groups = a.plan.groups.len();
    let mut out = format!(
        "graph `{}`: {n_ops} op{} in {n_groups} kernel{}\n\n",
        a.graph.name,
        if n_ops == 1 { "" } else { "s" },
        if n_groups == 1 { "" } else { "s" }
    );
    out += &super::parallel::lines(a.parallel.as_deref());
    out += &crate::report::render::human::summary::human(s);
    out += &totals(a, cost, runtime);
    out
}

/// The collectives of a plan and its time split (issue 25).
fn comm_summary(r: &crate::cost::CommReport, c: &CostReport) -> String {
    let n = r.ops.len();
    let what = format!("{n} collective{}", if n == 1 { "" } else { "s" });
    let mut out = if r.interconnect.is_none() {
        format!(
            "  communication: {what}, not priced: {} describes no interconnect\n",
            c.hardware.name
        )
    } else {
        format!(
            "  communication: {what}, {} on the interconnect, {} sent and {} received per GPU; \
             not assumed to overlap computation\n",
            fmt_time(r.time_s),
            crate::units::with_unit(r.bytes_sent, "B"),
            crate::units::with_unit(r.bytes_received, "B"),
        )
    };
    let split = |label: &str, s: &crate::cost::TimeSplit| {
        format!(
            "  {label}: compute {}, memory {}, communication {}, launch {} = {}\n",
            fmt_time(s.compute_s),
            fmt_time(s.memory_s),
            fmt_time(s.communication_s),
            fmt_time(s.launch_s),
            fmt_time(s.total_s())
        )
    };
    out += &split("fused step", &r.split);
    if let Some(h) = &r.hardware_split {
        out += &split("hardware model step", h);
    }
    out
}

fn cost_summary(
    g: &Graph,
    c: &CostReport,
    att: &AttentionReport,
    runtime: Option<&RuntimeEstimate>,
) -> String {
    let hw = &c.hardware;
    let mut out = format!(
        "\nestimated time on {} ({}): {} TFLOP/s dense 16-bit tensor, {} TFLOP/s f32, {} TB/s, \
         launch {} per kernel ({})\n",
        hw.description,
        hw.name,
        fmt_num(hw.peak_f16 / 1e12),
        fmt_num(hw.peak_f32 / 1e12),
        fmt_num(hw.bandwidth / 1e12),
        fmt_time(hw.launch(c.launch)),
        c.launch.as_str()
    );
    out += &format!(
        "  ridge point {} FLOP/B (16-bit tensor cores), {} FLOP/B (f32)\n",
        fmt_num(hw.ridge(Unit::Tensor16)),
        fmt_num(hw.ridge(Unit::F32))
    );
    // The 8-bit tensor rates, for a graph with 8-bit matmuls (issue 23).
    for (u, name, rate) in [
        (Unit::TensorF8, "fp8", "TFLOP/s"),
        (Unit::TensorI8, "int8", "TOPS"),
    ] {
        if !c.unfused.kernels.iter().any(|k| k.unit == u) {
            continue;
        }
        out += &if hw.lacks(u) {
            format!(
                "  {name} matmuls priced at the 16-bit peak: {} gives no dense {name} rate \
                 (no {name} tensor cores, or `{}` missing from its hardware file)\n",
                hw.name,
                if u == Unit::TensorF8 {
                    "peak_tflops_f8"
                } else {
                    "peak_tops_i8"
                }
            )
        } else {
            format!(
                "  {name} matmuls at {} {rate} dense, ridge point {} FLOP/B\n",
                fmt_num(hw.peak(u) / 1e12),
                fmt_num(hw.ridge(u))
            )
        };
    }
    let plural = |n: usize| if n == 1 { "kernel " } else { "kernels" };
    out += &format!(
        "  unfused  {:>6} {} {:>12}   {}\n",
        c.unfused.kernels.len(),
        plural(c.unfused.kernels.len()),
        fmt_time(c.unfused.time_s),
        flops(c.unfused.flops)
    );
    out += &format!(
        "  fused    {:>6} {} {:>12}   speedup {:.2}×\n",
        c.fused.kernels.len(),
        plural(c.fused.kernels.len()),
        fmt_time(c.fused.time_s),
        c.speedup
    );
    // The collectives (issue 25): their time, and the step split by what limits each kernel.
    if let Some(r) = &c.communication {
        out += &comm_summary(r, c);
    }
    if let Some(m) = &c.hardware_model {
        // The fused plan's total under `--traffic-model hardware`, and where its numbers come
        // from (the `model` lines above are per kernel).
        let splits = m.launches.saturating_sub(m.kernels.len());
        if splits > 0 {
            out += &format!(
                "  hardware model: {} kernels launched ({} and {} split-K reduction{})\n",
                m.launches,
                m.kernels.len(),
                splits,
                if splits == 1 { "" } else { "s" }
            );
        }
        out += &format!(
            "  hardware model: fused {} in kernels + {} of launches = {}, DRAM reads {}B, writes \
             {}B\n    coefficients: {}\n",
            fmt_time(m.kernel_s),
            fmt_time(m.time_s - m.kernel_s),
            fmt_time(m.time_s),
            si(m.dram_read as f64),
            si(m.dram_written as f64),
            m.source
        );
        if let Some(h) = m.step.host_s {
            out += &format!(
                "  hardware model, eager step: the host issues a kernel every {} and the GPU \
                 waits on it before {} of {} kernels: {} (the fused total above adds each launch \
                 serially)\n",
                fmt_time(h),
                m.step.host_bound,
                m.kernels.len(),
                fmt_time(m.step.step_s)
            );
        }
        if m.copy_kernel == crate::cost::CopyKernel::Generated {
            out += "    layout-only kernels: the compiler's generated copies (`copy_generated`)\n";
        }
    }
    if let Some(e) = runtime {
        out += &super::runtime::estimates_row(c, e);
    }
    if !att.patterns.is_empty() || !att.misses.is_empty() {
        out += "\nattention (matmul → softmax → matmul, which the rules alone cannot fuse):\n";
    }
    // One line per distinct pattern, with its count (issue 28).
    out += &super::attention::lines(g, att);
    if let (Some(without), Some(with)) = (&att.without, &att.with) {
        let row = |label: &str, p: &PlanSummary| {
            format!(
                "  {label:<22} {:>4} {:<7} {:>22} B  saved {:>6.2}%  {:>12}  speedup {:.2}×\n",
                p.kernels,
                if p.kernels == 1 { "kernel" } else { "kernels" },
                group_digits(p.traffic.total),
                p.savings_pct,
                fmt_time(p.time_s),
                p.speedup
            )
        };
        out += &row("without FlashAttention", without);
        out += &row("with FlashAttention", with);
        if !att.applied {
            out += "  (fgraph analyze --flash-attention uses the FlashAttention plan)\n";
        }
    }
    out
}
