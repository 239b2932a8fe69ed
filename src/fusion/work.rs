//! The work bound of one plan search (issue 21): the checks whose cost grows faster than the
//! graph — the store/inline/diamond checks of every merge (`super::policy`: the edges between
//! two kernels, the cycle search), the walks of the tensors and registers budgets
//! (`super::budget`), the copies' rule-2 check (`super::recompute`) and horizontal fusion's
//! reachability searches (`super::horizontal`) — spend units from a [`Meter`]: one unit per
//! edge or op a check looks at, one per merge it tries. Units, not time, so that a plan is the
//! same on every machine and every run.
//!
//! A search that would pass the bound ([`crate::limits::plan_work_bound`]: a base, plus a
//! share per op of the graph, capped) stops: the merge being
//! checked and every later merge that needs a check are refused (boundaries
//! [`super::Reason::SearchStopped`]; horizontal fusion merges nothing more), so the plan keeps
//! what was found so far and stays legal — every op in exactly one kernel, every merge made
//! checked. The plan records the stop ([`SearchStop`]) and the analysis says so with the
//! warning `search-budget`.

use crate::graph::Graph;
use crate::limits::plan_work_bound;

/// Which part of a plan search stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Pass {
    /// The greedy pass's merge checks.
    Greedy,
    /// Horizontal fusion's searches.
    Horizontal,
}

impl Pass {
    pub fn as_str(self) -> &'static str {
        match self {
            Pass::Greedy => "the greedy pass",
            Pass::Horizontal => "horizontal fusion",
        }
    }
}

/// A plan search that stopped at its bound: where, the work done and the bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct SearchStop {
    pub pass: Pass,
    /// Units spent when it stopped (the bound: the unit that would pass it is not spent).
    pub work: u64,
    pub limit: u64,
    /// The merges refused because they could not be checked (the plan's `search-stopped`
    /// boundaries).
    pub unchecked: usize,
}

/// Units of work left to one plan search.
#[derive(Clone, Debug)]
pub(crate) struct Meter {
    used: u64,
    limit: u64,
    stopped: Option<Pass>,
}

impl Meter {
    /// A meter for a search of `g`: `limit` units (`--max-plan-work`), else
    /// [`plan_work_bound`].
    pub(crate) fn new(g: &Graph, limit: Option<u64>) -> Meter {
        Meter::with_limit(limit.unwrap_or_else(|| plan_work_bound(g.ops.len())))
    }

    pub(crate) fn with_limit(limit: u64) -> Meter {
        Meter {
            used: 0,
            limit,
            stopped: None,
        }
    }

    /// Spends `n` units for `pass`; `false` (and from then on, for any work) when that would
    /// pass the bound. No work (`n = 0`) is always done.
    pub(crate) fn spend(&mut self, pass: Pass, n: u64) -> bool {
        if n == 0 {
            return true;
        }
        if self.stopped.is_some() {
            return false;
        }
        match self.used.checked_add(n).filter(|&u| u <= self.limit) {
            Some(u) => {
                self.used = u;
                true
            }
            None => {
                self.stopped = Some(pass);
                false
            }
        }
    }

    /// The stop of the search that made `plan`, if the bound was reached.
    pub(crate) fn stop(&self, plan: &super::FusionPlan) -> Option<SearchStop> {
        self.stopped.map(|pass| SearchStop {
            pass,
            work: self.used,
            limit: self.limit,
            unchecked: plan
                .boundaries
                .iter()
                .filter(|b| b.reason == super::Reason::SearchStopped)
                .count(),
        })
    }

    /// Units spent so far.
    #[cfg(test)]
    pub(crate) fn used(&self) -> u64 {
        self.used
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::{Meter, Pass};

    #[test]
    fn a_meter_stops_before_the_unit_that_would_pass_its_bound_and_stays_stopped() {
        let mut m = Meter::with_limit(10);
        assert!(m.spend(Pass::Greedy, 6));
        assert!(m.spend(Pass::Greedy, 4));
        let plan = crate::fusion::FusionPlan {
            groups: Vec::new(),
            boundaries: Vec::new(),
            group_of: Vec::new(),
            flash: Vec::new(),
            epilogues: Vec::new(),
            recomputes: Vec::new(),
            horizontal: Vec::new(),
            stopped: None,
        };
        assert!(m.stop(&plan).is_none());
        assert!(!m.spend(Pass::Horizontal, 1));
        assert!(m.spend(Pass::Greedy, 0));
        assert!(!m.spend(Pass::Greedy, 1));
        let s = m.stop(&plan).expect("stopped");
        assert_eq!(
            (s.pass, s.work, s.limit, s.unchecked),
            (Pass::Horizontal, 10, 10, 0)
        );
        assert_eq!(m.used(), 10);
        let mut m = Meter::with_limit(u64::MAX);
        assert!(m.spend(Pass::Greedy, u64::MAX));
        assert!(!m.spend(Pass::Greedy, 1));
    }

    use crate::analysis::Options;
    use crate::fusion::{
        Fuser, FusionOptions, FusionPlan, Horizontal, Policy, Reason, epilogue,
        find_fusion_groups_with,
    };
    use crate::graph::{Graph, OpId};

    /// `layers` layers of `width` ops, each adding every tensor of the layer before (the
    /// first layer reads the input): the dense shape whose checks grow fastest.
    pub(crate) fn layered(layers: usize, width: usize) -> String {
        let mut s = String::from("graph dense {\n  dtype f16\n  input x: [64, 64]\n");
        let mut prev = vec!["x".to_string()];
        for l in 0..layers {
            let mut cur = Vec::new();
            for i in 0..width {
                let args = prev.join(", ");
                let kind = if prev.len() > 1 { "add" } else { "relu" };
                s += &format!("  op l{l}_{i} = elementwise.{kind}({args}) -> t{l}_{i}\n");
                cur.push(format!("t{l}_{i}"));
            }
            prev = cur;
        }
        s += &format!("  output {}\n}}\n", prev.join(", "));
        s
    }

    /// Every op in exactly one kernel, no kernel that depends on itself (kernels run whole;
    /// a copy reads what its op reads), and rules 1, 2, 3 and 5 and the ops budget inside
    /// every kernel.
    fn assert_legal(g: &Graph, plan: &FusionPlan, opts: &FusionOptions, ctx: &str) {
        let n = g.ops.len();
        let mut count = vec![0usize; n];
        for (k, grp) in plan.groups.iter().enumerate() {
            for &o in &grp.ops {
                count[o.index()] += 1;
                assert_eq!(plan.group_of[o.index()], k, "{ctx}: group_of of {o:?}");
            }
        }
        assert!(
            count.iter().all(|&c| c == 1),
            "{ctx}: an op in no kernel or in two"
        );
        // Kernel graph, acyclic (Kahn).
        let kk = plan.groups.len();
        let mut succ: Vec<Vec<usize>> = vec![Vec::new(); kk];
        let mut indeg = vec![0usize; kk];
        for (k, grp) in plan.groups.iter().enumerate() {
            let computes = |o: OpId| plan.group_of[o.index()] == k || grp.recomputed.contains(&o);
            for o in grp.computed() {
                for u in &g.op(o).inputs {
                    if let Some(q) = g.producer(u.tensor)
                        && !computes(q)
                    {
                        succ[plan.group_of[q.index()]].push(k);
                        indeg[k] += 1;
                    }
                }
            }
        }
        let mut ready: Vec<usize> = (0..kk).filter(|&k| indeg[k] == 0).collect();
        let mut done = 0;
        while let Some(k) = ready.pop() {
            done += 1;
            for &s in &succ[k] {
                indeg[s] -= 1;
                if indeg[s] == 0 {
                    ready.push(s);
                }
            }
        }
        assert_eq!(done, kk, "{ctx}: a kernel depends on itself");
        let ops_limit = opts.effective_budgets().ops_limit();
        for (gi, grp) in plan.groups.iter().enumerate() {
            let inside = |o: OpId| grp.ops.contains(&o);
            let count = |ops: &[OpId]| {
                ops.iter()
                    .filter(|&&o| g.op(o).kind.is_contraction())
                    .count()
            };
            let matmuls = count(&grp.ops);
            // A horizontal merge (a grouped or dual GEMM) holds one matmul per part.
            match plan.horizontal.iter().find(|m| m.group == gi) {
                Some(m) => assert!(
                    m.parts.iter().all(|p| count(p) <= 1),
                    "{ctx}: two matmuls in a part of a launch"
                ),
                None => assert!(matmuls <= 1, "{ctx}: two matmuls in a kernel"),
            }
            if let Some(limit) = ops_limit {
                assert!(
                    grp.ops.len() <= limit as usize,
                    "{ctx}: over the ops budget"
                );
            }
            for &c in &grp.ops {
                for u in &g.op(c).inputs {
                    let Some(p) = g.producer(u.tensor).filter(|&p| inside(p)) else {
                        continue;
                    };
                    assert!(!g.op(c).kind.is_contraction(), "{ctx}: rule 1");
                    if g.op(p).kind.is_reduction() {
                        assert!(
                            opts.reduction_epilogue && epilogue::fits(g, p, c),
                            "{ctx}: rule 2"
                        );
                    }
                    if g.op(c).kind.is_reduction() {
                        assert_eq!(matmuls, 0, "{ctx}: rule 3");
                    }
                }
            }
        }
    }

    fn strategies() -> Vec<(String, FusionOptions)> {
        let mut v: Vec<(String, FusionOptions)> = Fuser::ALL
            .iter()
            .map(|f| (format!("--fuser {}", f.as_str()), f.options()))
            .collect();
        for &policy in Policy::ALL {
            v.push((
                format!("--policy {} --fuse-diamonds --horizontal grouped-gemm --max-kernel-tensors 40 --max-registers 200", policy.as_str()),
                FusionOptions {
                    policy,
                    diamonds: true,
                    horizontal: Horizontal::GroupedGemm,
                    reduction_epilogue: true,
                    budgets: crate::fusion::Budgets {
                        tensors: Some(40),
                        registers: Some(200),
                        ..Default::default()
                    },
                    ..FusionOptions::default()
                },
            ));
        }
        v
    }

    #[test]
    fn a_stopped_search_keeps_a_legal_plan_at_every_bound() {
        let examples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
        let sources = [
            ("dense", layered(5, 6)),
            (
                "transformer_block",
                std::fs::read_to_string(examples.join("transformer_block.fgraph"))
                    .expect("example"),
            ),
            (
                "mixtral_moe",
                std::fs::read_to_string(examples.join("mixtral_moe.fgraph")).expect("example"),
            ),
        ];
        for (name, src) in &sources {
            for (flags, opts) in strategies() {
                let (a, _) = crate::fusion::analysed(src, &Options::default());
                let g = &a.graph;
                let full = find_fusion_groups_with(g, opts);
                assert!(
                    full.stopped.is_none(),
                    "{name} {flags}: the default bound stops"
                );
                let mut stops = 0;
                for limit in [0, 1, 7, 50, 300, 2_000, 20_000, 1 << 40] {
                    let o = FusionOptions {
                        work_limit: Some(limit),
                        ..opts
                    };
                    let ctx = format!("{name} {flags} --max-plan-work {limit}");
                    let plan = find_fusion_groups_with(g, o);
                    assert_legal(g, &plan, &o, &ctx);
                    // Deterministic: the same bound, the same plan.
                    let again = find_fusion_groups_with(g, o);
                    assert_eq!(plan.groups, again.groups, "{ctx}");
                    assert_eq!(plan.stopped, again.stopped, "{ctx}");
                    let unchecked = plan
                        .boundaries
                        .iter()
                        .filter(|b| b.reason == Reason::SearchStopped)
                        .count();
                    match plan.stopped {
                        Some(s) => {
                            stops += 1;
                            assert!(s.work <= limit && s.limit == limit, "{ctx}: {s:?}");
                            assert_eq!(s.unchecked, unchecked, "{ctx}");
                        }
                        None => {
                            assert_eq!(unchecked, 0, "{ctx}");
                            if limit == 1 << 40 {
                                assert_eq!(plan.groups, full.groups, "{ctx}");
                            }
                        }
                    }
                }
                // SPEC §2's plan needs no check and never stops; every other strategy checks
                // something on the dense graph, so a bound of 0 stops it.
                if opts == FusionOptions::default() {
                    assert_eq!(stops, 0, "{name} {flags}: stopped");
                } else if *name == "dense" {
                    assert!(stops > 0, "{name} {flags}: never stopped");
                }
            }
        }
    }

    #[test]
    fn the_default_bound_grows_with_the_graph_and_is_capped() {
        use crate::limits::{MAX_PLAN_WORK, PLAN_WORK_BASE, PLAN_WORK_PER_OP, plan_work_bound};
        assert_eq!(plan_work_bound(0), PLAN_WORK_BASE);
        assert_eq!(
            plan_work_bound(1000),
            PLAN_WORK_BASE + 1000 * PLAN_WORK_PER_OP
        );
        assert_eq!(plan_work_bound(usize::MAX), MAX_PLAN_WORK);
        assert_eq!(plan_work_bound(1 << 21), MAX_PLAN_WORK);
    }
}
