//! The second step of fusion assertions: evaluating each against the plan of the run (as
//! `plan.rs` indexes it) and, when one does not hold, writing the `assertion-failed`
//! diagnostic that says what is true instead: the kernels the ops are in and the boundary
//! between them, the fused edges that hold two ops together, the kernel that writes a tensor
//! and why, or the count and bytes of the plan (or of a block instance) kernel by kernel.

use super::plan::Plan;
use super::{Assertion, Measure, Predicate, Test};
use crate::analysis::Analysis;
use crate::diagnostics::{Code, Diagnostic, Span};
use crate::graph::{OpId, TensorId};
use crate::syntax::ast::CmpOp;
use crate::syntax::expand::Instance;
use crate::units::fmt_bytes;
use std::collections::HashSet;

/// Checks `assertions` against the plan of `a`; every one that does not hold is an
/// `assertion-failed` error at the assertion, saying what is true instead.
pub fn check(assertions: &[Assertion], a: &Analysis, instances: &[Instance]) -> Vec<Diagnostic> {
    if assertions.is_empty() {
        return Vec::new();
    }
    let plan = Plan::new(a, assertions);
    assertions
        .iter()
        .filter_map(|x| plan.check(x, instances))
        .collect()
}

/// Kernels listed in a help at most.
const MAX_LISTED: usize = 12;

impl Plan<'_> {
    fn check(&self, x: &Assertion, instances: &[Instance]) -> Option<Diagnostic> {
        let text = x.text();
        match &x.test {
            Test::Names {
                predicate, names, ..
            } if !predicate.names_tensors() => {
                let ops: Vec<OpId> = names
                    .iter()
                    .map(|n| self.ops.get(n.name.as_str()).copied())
                    .collect::<Option<_>>()?;
                match predicate {
                    Predicate::Fused => self.fused(&text, x.span, &ops),
                    _ => self.unfused(&text, x.span, &ops),
                }
            }
            Test::Names { negated, names, .. } => {
                for n in names {
                    let t = *self.tensors.get(n.name.as_str())?;
                    // With several names, a label says which one the failure is about.
                    let which = (names.len() > 1).then_some(n.span);
                    let failed = if *negated {
                        self.written_explained(&text, x.span, t, which)
                    } else {
                        self.on_chip_explained(&text, x.span, t, which)
                    };
                    if failed.is_some() {
                        return failed;
                    }
                }
                None
            }
            Test::Compare {
                measure, op, bound, ..
            } => self.compare(&text, x, *measure, *op, *bound, instances),
        }
    }

    /// `fused(ops)`: all in one kernel. When not, the kernels they are in and the boundary
    /// that separates the first op from the first one in another kernel.
    fn fused(&self, text: &str, at: Span, ops: &[OpId]) -> Option<Diagnostic> {
        // Some kernel computes them all (a recomputed copy counts: the edge is on chip).
        let own = std::iter::once(self.kernel_of(ops[0]));
        let copies = self.copies.get(&ops[0]).into_iter().flatten().copied();
        if own
            .chain(copies)
            .any(|k| ops.iter().all(|&o| self.computes(k, o)))
        {
            return None;
        }
        let other = *ops.iter().find(|&&o| self.shared(ops[0], o).is_none())?;
        let g = self.g();
        let kernels = self.kernel_map(ops);
        let what = if ops.len() == 2 {
            format!(
                "`{}` and `{}` are in different kernels",
                g.op(ops[0]).name,
                g.op(other).name
            )
        } else {
            let distinct: HashSet<usize> = ops.iter().map(|&o| self.kernel_of(o)).collect();
            format!("the {} ops are in {} kernels", ops.len(), distinct.len())
        };
        let d = Diagnostic::new(
            Code::AssertionFailed,
            format!("assertion `{text}` failed: {what}"),
        )
        .at(at, kernels);
        Some(self.with_boundaries(d, ops[0], other))
    }

    /// `unfused(ops)`: no two in one kernel. When two are, the fused edges that join them.
    fn unfused(&self, text: &str, at: Span, ops: &[OpId]) -> Option<Diagnostic> {
        let (a, b, k) = ops.iter().enumerate().find_map(|(i, &a)| {
            ops[i + 1..]
                .iter()
                .find_map(|&b| self.shared(a, b).map(|k| (a, b, k)))
        })?;
        let g = self.g();
        let (an, bn) = (&g.op(a).name, &g.op(b).name);
        let mut label = format!("both in kernel {}", k + 1);
        for o in [a, b] {
            if self.kernel_of(o) != k {
                label += &format!(" (which computes `{}` again)", g.op(o).name);
            }
        }
        let mut d = Diagnostic::new(
            Code::AssertionFailed,
            format!("assertion `{text}` failed: `{an}` and `{bn}` are in one kernel"),
        )
        .at(at, label);
        let copied: Vec<&str> = [a, b]
            .into_iter()
            .filter(|&o| self.kernel_of(o) != k)
            .map(|o| g.op(o).name.as_str())
            .collect();
        if let [copy] = copied.as_slice() {
            return Some(d.help(format!(
                "kernel {} computes `{copy}` again instead of reading its output from HBM (a \
                 policy that recomputes cheap producers); under the default policy the \
                 tensor is written once and read back",
                k + 1
            )));
        }
        let path = self.path(a, b, Some(k));
        d = match path {
            Some(edges) if !edges.is_empty() => {
                let shown: Vec<String> = edges
                    .iter()
                    .take(MAX_LISTED)
                    .map(|&(p, c, t)| {
                        format!(
                            "`{}` → `{}` via `{}`",
                            g.op(p).name,
                            g.op(c).name,
                            g.tensor(t).name
                        )
                    })
                    .collect();
                let more = if edges.len() > MAX_LISTED {
                    ", …"
                } else {
                    ""
                };
                d.help(format!(
                    "kernel {} holds them together through the fused edge{} {}{more}; to keep \
                     them apart, one of these tensors must go through HBM (for example as a \
                     graph output)",
                    k + 1,
                    if edges.len() == 1 { "" } else { "s" },
                    shown.join(", ")
                ))
            }
            _ => d.help(format!("kernel {} holds {}", k + 1, self.kernel_ops(k))),
        };
        Some(d)
    }

    /// `not materialized(t)` failed: `t` is written. Says which kernel writes it and why.
    fn written_explained(
        &self,
        text: &str,
        at: Span,
        t: TensorId,
        name: Option<Span>,
    ) -> Option<Diagnostic> {
        let &k = self.written.get(&t)?;
        let g = self.g();
        let tn = &g.tensor(t).name;
        let mut d = Diagnostic::new(
            Code::AssertionFailed,
            format!("assertion `{text}` failed: `{tn}` is written to HBM"),
        )
        .at(
            at,
            format!("written by kernel {} ({})", k + 1, self.kernel_ops(k)),
        );
        if let Some(name) = name {
            d = d.with(name, "this tensor");
        }
        let readers: Vec<OpId> = g
            .consumers(t)
            .iter()
            .copied()
            .filter(|&c| self.kernel_of(c) != k)
            .collect();
        let help = if g.is_output(t) {
            format!("`{tn}` is a graph output, so the plan writes it to HBM")
        } else if let Some(&c) = readers.first() {
            let p = g.producer(t)?;
            let b = self.boundary(p, c);
            format!(
                "`{tn}` is read by `{}` in kernel {}: {}",
                g.op(c).name,
                self.kernel_of(c) + 1,
                match b {
                    Some(b) => format!(
                        "`{}` → `{}` is a kernel boundary [{}]: {}",
                        g.op(p).name,
                        g.op(c).name,
                        b.reason,
                        b.explain(g)
                    ),
                    None => "another kernel reads it from HBM".to_string(),
                }
            )
        } else if g.consumers(t).is_empty() {
            format!("no op reads `{tn}`, and a value nobody reads is still stored")
        } else {
            format!(
                "kernel {} writes `{tn}` for readers outside it (a policy that stores shared tensors)",
                k + 1
            )
        };
        Some(d.help(help))
    }

    /// `materialized(t)` failed: `t` stays on chip. Says in which kernel and through which
    /// fused edges.
    fn on_chip_explained(
        &self,
        text: &str,
        at: Span,
        t: TensorId,
        name: Option<Span>,
    ) -> Option<Diagnostic> {
        if self.written.contains_key(&t) {
            return None;
        }
        let g = self.g();
        let p = g.producer(t)?;
        let k = self.kernel_of(p);
        let tn = &g.tensor(t).name;
        let mut d = Diagnostic::new(
            Code::AssertionFailed,
            format!("assertion `{text}` failed: `{tn}` stays on chip"),
        )
        .at(
            at,
            format!(
                "never written to HBM: produced and read inside kernel {} ({})",
                k + 1,
                self.kernel_ops(k)
            ),
        );
        if let Some(name) = name {
            d = d.with(name, "this tensor");
        }
        let readers: Vec<String> = g
            .consumers(t)
            .iter()
            .map(|&c| format!("`{}`", g.op(c).name))
            .collect();
        Some(d.help(format!(
            "`{}` and its reader{} {} are fused in kernel {}; a tensor is written to HBM when it \
             is a graph output, is read by another kernel, or is never read",
            g.op(p).name,
            if readers.len() == 1 { "" } else { "s" },
            readers.join(", "),
            k + 1
        )))
    }

    fn compare(
        &self,
        text: &str,
        x: &Assertion,
        measure: Measure,
        op: CmpOp,
        bound: i128,
        instances: &[Instance],
    ) -> Option<Diagnostic> {
        let plan = &self.a.plan;
        // The kernels asked about: the plan's, or the instance's (those whose first op is
        // in it, as `analyze --summary` counts them).
        let inst = x.instance.and_then(|i| instances.get(i));
        let kernels: Vec<usize> = match inst {
            None => (0..plan.groups.len()).collect(),
            Some(i) => (0..plan.groups.len())
                .filter(|&k| {
                    plan.groups[k]
                        .ops
                        .first()
                        .is_some_and(|o| i.ops.contains(&o.index()))
                })
                .collect(),
        };
        let actual: u64 = match measure {
            Measure::Kernels => kernels.len() as u64,
            Measure::Traffic => match inst {
                None => self.a.traffic.fused.total,
                Some(_) => kernels
                    .iter()
                    .filter_map(|&k| self.a.traffic.groups.get(k))
                    .fold(0u64, |s, t| {
                        s.saturating_add(t.bytes_read)
                            .saturating_add(t.bytes_written)
                    }),
            },
        };
        if op.holds(i128::from(actual), bound) {
            return None;
        }
        let whose = match inst {
            None => "the plan".to_string(),
            Some(i) => format!("this instance of `{}`", i.block),
        };
        let (what, label) = match measure {
            Measure::Kernels => (
                format!(
                    "{whose} has {actual} kernel{}",
                    if actual == 1 { "" } else { "s" }
                ),
                format!("{actual} kernel{}", if actual == 1 { "" } else { "s" }),
            ),
            Measure::Traffic => (
                format!("{whose} moves {} through HBM", fmt_bytes(actual)),
                format!("{} read and written", fmt_bytes(actual)),
            ),
        };
        let listed: Vec<String> = kernels
            .iter()
            .take(MAX_LISTED)
            .map(|&k| format!("kernel {}: {}", k + 1, self.kernel_ops(k)))
            .collect();
        let more = if kernels.len() > MAX_LISTED {
            format!("; … {} more", kernels.len() - MAX_LISTED)
        } else {
            String::new()
        };
        Some(
            Diagnostic::new(
                Code::AssertionFailed,
                format!("assertion `{text}` failed: {what}"),
            )
            .at(x.span, label)
            .help(format!(
                "{}{more}; if the change is intended, update the bound",
                listed.join("; ")
            )),
        )
    }

    /// The ops of kernel `k`, `a` → `b` → `c` (at most a few).
    fn kernel_ops(&self, k: usize) -> String {
        let g = self.g();
        let ops = &self.a.plan.groups[k].ops;
        let mut s: Vec<String> = ops
            .iter()
            .take(6)
            .map(|&o| format!("`{}`", g.op(o).name))
            .collect();
        if ops.len() > 6 {
            s.push(format!("… ({} ops)", ops.len()));
        }
        s.join(" → ")
    }

    /// `kernel 1: `a`, `b`; kernel 2: `c``: the named ops by kernel, in kernel order.
    fn kernel_map(&self, ops: &[OpId]) -> String {
        let mut by: Vec<(usize, Vec<&str>)> = Vec::new();
        for &o in ops {
            let k = self.kernel_of(o);
            let name = self.g().op(o).name.as_str();
            match by.iter_mut().find(|(kk, _)| *kk == k) {
                Some((_, v)) => v.push(name),
                None => by.push((k, vec![name])),
            }
        }
        by.sort_by_key(|(k, _)| *k);
        by.iter()
            .map(|(k, v)| {
                let v: Vec<String> = v.iter().map(|n| format!("`{n}`")).collect();
                format!("kernel {}: {}", k + 1, v.join(", "))
            })
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// Adds the kernel boundaries on the path between `a` and `b` that crosses the fewest of
    /// them: the first as the help (with its rule), each at its consumer as a label.
    fn with_boundaries(&self, mut d: Diagnostic, a: OpId, b: OpId) -> Diagnostic {
        let g = self.g();
        let Some(edges) = self.path(a, b, None) else {
            return d.help(format!(
                "no chain of producer → consumer edges connects `{}` and `{}`, and ops fuse \
                 only along such edges",
                g.op(a).name,
                g.op(b).name
            ));
        };
        let crossing: Vec<(OpId, OpId, TensorId)> = edges
            .into_iter()
            .filter(|&(p, c, _)| self.shared(p, c).is_none())
            .collect();
        let mut helps = Vec::new();
        for &(p, c, t) in crossing.iter().take(3) {
            let (pn, cn, tn) = (&g.op(p).name, &g.op(c).name, &g.tensor(t).name);
            match self.boundary(p, c) {
                Some(bd) => {
                    helps.push(format!(
                        "`{pn}` → `{cn}` via `{tn}` is a kernel boundary [{}]: {}",
                        bd.reason,
                        bd.explain(g)
                    ));
                    d = d.with(
                        g.op(c).span,
                        format!("kernel boundary: `{tn}` goes through HBM [{}]", bd.reason),
                    );
                }
                None => {
                    helps.push(format!("`{pn}` → `{cn}` via `{tn}` is a kernel boundary"));
                    d = d.with(
                        g.op(c).span,
                        format!("kernel boundary: `{tn}` goes through HBM"),
                    );
                }
            }
        }
        if crossing.len() > 3 {
            helps.push(format!("and {} more boundaries", crossing.len() - 3));
        }
        if helps.is_empty() {
            return d;
        }
        d.help(helps.join("; "))
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{diags, diags_with, fails, holds, text};
    use crate::analysis::Options;
    use crate::fusion::Policy;

    #[test]
    fn fused_holds_and_fails_with_the_boundary() {
        holds("fused(matmul1, bias1)");
        holds("fused(matmul1, bias1, relu)");
        holds("fused(relu, matmul1)");
        let d = fails("fused(relu, matmul2)");
        let t = text(&d);
        assert!(
            t.contains("`relu` and `matmul2` are in different kernels"),
            "{t}"
        );
        assert!(t.contains("kernel 1: `relu`; kernel 2: `matmul2`"), "{t}");
        assert!(t.contains("[matmul-starts-group]"), "{t}");
        assert!(t.contains("a matmul always starts a new kernel"), "{t}");
        // The boundary is labelled at the op that starts the next kernel.
        assert!(
            d.secondary
                .iter()
                .any(|l| l.message.contains("`y3` goes through HBM")),
            "{t}"
        );
        let t = text(&fails("fused(matmul1, bias1, relu, matmul2)"));
        assert!(t.contains("the 4 ops are in 2 kernels"), "{t}");
    }

    #[test]
    fn unfused_holds_and_fails_with_the_fused_edges() {
        holds("unfused(relu, matmul2)");
        holds("unfused(matmul1, matmul2)");
        let t = text(&fails("unfused(matmul1, relu)"));
        assert!(t.contains("`matmul1` and `relu` are in one kernel"), "{t}");
        assert!(t.contains("both in kernel 1"), "{t}");
        assert!(
            t.contains("`matmul1` → `bias1` via `y1`, `bias1` → `relu` via `y2`"),
            "{t}"
        );
        // Any two of several sharing a kernel fail it.
        let t = text(&fails("unfused(matmul2, bias1, relu)"));
        assert!(t.contains("`bias1` and `relu` are in one kernel"), "{t}");
    }

    #[test]
    fn materialized_and_not() {
        holds("materialized(y3)");
        holds("materialized(y3, y4)");
        holds("not materialized(y1, y2)");
        let t = text(&fails("materialized(y3, y1)"));
        assert!(t.contains("`y1` stays on chip"), "{t}");
        assert!(
            t.contains("inside kernel 1 (`matmul1` → `bias1` → `relu`)"),
            "{t}"
        );
        let t = text(&fails("not materialized(y3)"));
        assert!(t.contains("`y3` is written to HBM"), "{t}");
        assert!(t.contains("read by `matmul2` in kernel 2"), "{t}");
        assert!(t.contains("[matmul-starts-group]"), "{t}");
        let t = text(&fails("not materialized(y4)"));
        assert!(t.contains("`y4` is a graph output"), "{t}");
    }

    #[test]
    fn comparisons_of_kernels_and_traffic() {
        for ok in [
            "kernels <= 2",
            "kernels < 3",
            "kernels == 2",
            "kernels >= 2",
            "kernels > 1",
            "kernels == M / 512",
            "traffic == 69214208",
            "traffic <= 70 MB",
            "traffic < 67 MiB",
            "traffic > 66 MiB",
            "traffic >= 69214208 B",
            "traffic < 1 GB",
            "traffic < 1 GiB",
            "traffic < 1 TB",
            "traffic < 1 TiB",
            "traffic < 69215 KB",
            "traffic > 67591 KiB",
        ] {
            holds(ok);
        }
        for (no, says) in [
            ("kernels <= 1", "the plan has 2 kernels"),
            ("kernels < 2", "the plan has 2 kernels"),
            ("kernels == 3", "the plan has 2 kernels"),
            ("kernels >= 3", "the plan has 2 kernels"),
            ("kernels > 2", "the plan has 2 kernels"),
            ("kernels > -1 * -5", "the plan has 2 kernels"),
            ("traffic <= 60 MB", "moves 69,214,208 B (66.0 MiB)"),
            ("traffic < 69214208", "69,214,208 B"),
            ("traffic >= 1 GiB", "69,214,208 B"),
        ] {
            let t = text(&fails(no));
            assert!(t.contains(says), "{no}: {t}");
            assert!(t.contains("kernel 1: `matmul1` → `bias1` → `relu`"), "{t}");
        }
        // The message quotes the bound evaluated, with its unit.
        assert!(
            fails("traffic < M / 16 MB")
                .message
                .contains("`traffic < 64 MB`")
        );
    }

    #[test]
    fn assertions_follow_the_fusion_options_of_the_run() {
        // `t` has two readers: a boundary by default, fused into one reader under `store`.
        let src = "graph g {\n  input x: [64, 64]\n  op a = elementwise.relu(x) -> t\n  \
                   op b = elementwise.exp(t) -> u\n  op c = elementwise.neg(t) -> v\n  \
                   output u, v\n  assert unfused(a, b)\n  assert materialized(t)\n}\n";
        assert!(diags(src).is_empty(), "{:#?}", diags(src));
        let store = Options {
            fusion: crate::fusion::FusionOptions {
                policy: Policy::Store,
                ..crate::fusion::FusionOptions::default()
            },
            ..Options::default()
        };
        // Under `store` all three ops share one kernel, so `t` never leaves it.
        let d = diags_with(src, &store);
        assert_eq!(d.len(), 2, "{d:#?}");
        assert!(text(&d[0]).contains("`a` and `b` are in one kernel"));
        assert!(text(&d[1]).contains("`t` stays on chip"));
    }

    #[test]
    fn a_recomputed_copy_is_in_the_kernel_that_computes_it_and_a_launch_is_one_kernel() {
        // `a` is cheap and read by two reductions: `--policy recompute` computes it again in
        // the second one's kernel instead of writing `t`.
        let src = "graph g {\n  input x: [64, 64]\n  op a = elementwise.relu(x) -> t\n  \
                   op s1 = reduction.sum(t, axis = -1) -> u: [64, 1]\n  \
                   op s2 = reduction.max(t, axis = -1) -> v: [64, 1]\n  output u, v\n  \
                   assert fused(a, s2)\n  assert fused(a, s1)\n  assert unfused(s1, s2)\n  \
                   assert not materialized(t)\n}\n";
        let recompute = Options {
            fusion: crate::fusion::FusionOptions {
                policy: Policy::Recompute,
                ..crate::fusion::FusionOptions::default()
            },
            ..Options::default()
        };
        assert!(
            diags_with(src, &recompute).is_empty(),
            "{:#?}",
            diags_with(src, &recompute)
        );
        let d = diags_with(
            &src.replace("unfused(s1, s2)", "unfused(a, s2)"),
            &recompute,
        );
        assert_eq!(d.len(), 1, "{d:#?}");
        let t = text(&d[0]);
        assert!(
            t.contains("both in kernel 2 (which computes `a` again)"),
            "{t}"
        );
        assert!(t.contains("computes `a` again instead of reading"), "{t}");
        // By default `t` is written and `a` is in its own kernel.
        let d = diags(src);
        assert_eq!(d.len(), 3, "{d:#?}");
        // Under `--horizontal grouped-gemm`, two projections of one input are one launch:
        // one kernel, as `analyze` lists it.
        let src = "graph g {\n  input x: [64, 64]\n  weight wq: [64, 64]\n  weight wk: [64, 64]\n  \
                   op q = matmul(x, wq) -> a\n  op k = matmul(x, wk) -> b\n  output a, b\n  \
                   assert unfused(q, k)\n  assert kernels == 2\n}\n";
        assert!(diags(src).is_empty());
        let grouped = Options {
            fusion: crate::fusion::FusionOptions {
                horizontal: crate::fusion::Horizontal::GroupedGemm,
                ..crate::fusion::FusionOptions::default()
            },
            ..Options::default()
        };
        let d = diags_with(src, &grouped);
        assert_eq!(d.len(), 2, "{d:#?}");
        assert!(text(&d[1]).contains("the plan has 1 kernel"));
    }

    #[test]
    fn ops_with_no_path_between_them_say_so() {
        let src = "graph g {\n  input x: [4]\n  input z: [4]\n  op a = elementwise.relu(x) -> y\n  \
                   op b = elementwise.exp(z) -> w\n  output y, w\n  assert fused(a, b)\n}\n";
        let d = diags(src);
        assert_eq!(d.len(), 1, "{d:#?}");
        assert!(text(&d[0]).contains("no chain of producer → consumer edges connects"));
        // Two producers joined by a consumer share its kernel: the path may go backwards.
        let src = "graph g {\n  input x: [4]\n  input z: [4]\n  op a = elementwise.relu(x) -> y\n  \
                   op b = elementwise.exp(z) -> w\n  op c = elementwise.add(y, w) -> v\n  \
                   assert fused(a, b)\n  assert fused(a, b, c)\n}\n";
        assert!(diags(src).is_empty(), "{:#?}", diags(src));
    }
}
