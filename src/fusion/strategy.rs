//! The fusion strategies, one row each: the flag that chooses it, where the JSON report
//! carries its setting, the pass file that implements it, the report's line for its
//! setting, the settings `--compare` plans, and the changes the what-if planner
//! (`super::whatif`) tries with the rules each relaxes. The report, `--compare` and the
//! what-if planner read this table; `tests/strategies.rs` checks that the CLI accepts every
//! flag, that the JSON report carries every key and that every pass file exists.
//!
//! Adding a strategy: its pass file, its field in [`FusionOptions`] (`super::options`), its
//! flag in `cli::args::FusionArgs`, and one row here.

use super::{Fuser, FusionOptions, Horizontal, MatmulEpilogue, Policy, Reason};
use crate::graph::Graph;

/// Options from options: one setting of a strategy made.
pub type Setting = fn(FusionOptions) -> FusionOptions;

/// One fusion strategy.
pub struct Strategy {
    /// The command-line flag that chooses it.
    pub flag: &'static str,
    /// Where the JSON report of `analyze` carries its setting, as a dotted path.
    pub json_key: &'static str,
    /// The file of `src/fusion/` that implements it.
    pub pass: &'static str,
    /// The report's line for the options' setting, when it is not SPEC §2's.
    pub human: fn(&FusionOptions) -> Option<String>,
    /// The settings `--compare` plans, each as its flags and the options from SPEC §2's.
    pub compared: &'static [(&'static str, Setting)],
    /// The option changes the what-if planner tries, in order of preference.
    pub changes: &'static [Change],
}

/// One option change the what-if planner tries.
pub struct Change {
    /// The flag as a user types it: `--policy store`.
    pub flag: &'static str,
    /// The rules whose boundaries it can fuse: the candidate is planned only when some
    /// boundary breaks one of them (a change that fuses no producer → consumer edge, such as
    /// horizontal fusion, relaxes none and is never planned).
    pub relaxes: &'static [Reason],
    /// The options with the change made; `None` when they have it already.
    pub apply: fn(FusionOptions) -> Option<FusionOptions>,
    /// Whether the change can matter for a graph at all (a cheap test that saves planning).
    pub wanted: fn(&Graph) -> bool,
}

/// Every strategy, in the order the report lists them.
pub const STRATEGIES: &[Strategy] = &[
    Strategy {
        flag: "--policy",
        json_key: "fusion.policy",
        pass: "policy.rs, recompute.rs",
        human: |f| match f.policy {
            Policy::Boundary => None,
            Policy::Store => Some(
                "fusion policy `store`: a tensor with several consumers or a graph output may \
                 join a consumer's kernel and is still written for the others"
                    .to_string(),
            ),
            Policy::Recompute => Some(
                "fusion policy `recompute`: a cheap producer read by several kernels is \
                 computed again in each of them when that saves traffic"
                    .to_string(),
            ),
            Policy::Inline => Some(
                "fusion policy `inline`: a cheap pointwise producer is computed again in every \
                 reader's kernel (unless it loads more than 4 tensors, counted through what it \
                 inlines, or a matmul reads it); \
                 other shared tensors join a reader's kernel and are still written for the \
                 others"
                    .to_string(),
            ),
        },
        compared: &[
            ("--policy boundary", |o| policy(o, Policy::Boundary)),
            ("--policy store", |o| policy(o, Policy::Store)),
            ("--policy recompute", |o| policy(o, Policy::Recompute)),
            ("--policy inline", |o| policy(o, Policy::Inline)),
        ],
        changes: &[
            Change {
                flag: "--policy store",
                relaxes: &[Reason::Materialized],
                apply: |o| change_policy(o, Policy::Store),
                wanted: |_| true,
            },
            Change {
                flag: "--policy recompute",
                relaxes: &[Reason::Materialized],
                apply: |o| change_policy(o, Policy::Recompute),
                wanted: |_| true,
            },
            Change {
                flag: "--policy inline",
                relaxes: &[Reason::Materialized],
                apply: |o| change_policy(o, Policy::Inline),
                wanted: |_| true,
            },
        ],
    },
    Strategy {
        flag: "--fuse-diamonds",
        json_key: "fusion.diamonds",
        pass: "dominator.rs",
        human: |f| {
            f.diamonds.then(|| {
                "diamonds: a tensor whose readers reconverge at one op through cheap ops stays \
                 on chip"
                    .to_string()
            })
        },
        compared: &[],
        changes: &[Change {
            flag: "--fuse-diamonds",
            relaxes: &[Reason::Materialized],
            apply: |o| {
                (!o.diamonds).then_some(FusionOptions {
                    diamonds: true,
                    ..o
                })
            },
            wanted: |_| true,
        }],
    },
    Strategy {
        flag: "--reduction-epilogue",
        json_key: "fusion.reduction_epilogue",
        pass: "epilogue.rs",
        human: |f| {
            f.reduction_epilogue.then(|| {
                "reduction epilogues: elementwise work on a reduced row stays in the \
                 reduction's kernel"
                    .to_string()
            })
        },
        compared: &[("--reduction-epilogue", |o| FusionOptions {
            reduction_epilogue: true,
            ..o
        })],
        changes: &[Change {
            flag: "--reduction-epilogue",
            relaxes: &[Reason::AfterReduction],
            apply: |o| {
                let on = FusionOptions {
                    reduction_epilogue: true,
                    ..o
                };
                (!o.reduction_epilogue).then_some(on)
            },
            wanted: |g| g.ops.iter().any(|o| o.kind.is_reduction()),
        }],
    },
    Strategy {
        flag: "--flash-attention",
        json_key: "attention.flash_attention",
        pass: "flash.rs",
        // The report has a section of its own for the FlashAttention kernels.
        human: |_| None,
        compared: &[],
        changes: &[Change {
            flag: "--flash-attention",
            relaxes: &[
                Reason::MatmulStartsGroup,
                Reason::AfterReduction,
                Reason::ReductionAfterMatmul,
                Reason::SecondMatmul,
            ],
            apply: |o| {
                let on = FusionOptions {
                    flash_attention: true,
                    ..o
                };
                (!o.flash_attention).then_some(on)
            },
            wanted: |g| !super::flash::detect(g).is_empty(),
        }],
    },
    Strategy {
        flag: "--matmul-epilogue",
        json_key: "fusion.matmul_epilogue",
        pass: "policy.rs",
        human: |f| match f.matmul_epilogue {
            MatmulEpilogue::Elementwise => None,
            MatmulEpilogue::Bias => {
                Some("matmul epilogues: a bias add only (as a cuBLAS call with bias)".into())
            }
            MatmulEpilogue::Addmm => Some(
                "matmul epilogues: an add, as Inductor's addmm (unless every reader of the sum \
                 is elementwise, an add that is itself an addmm not counting as one)"
                    .into(),
            ),
            MatmulEpilogue::None => {
                Some("matmul epilogues: none (a matmul is a kernel of its own)".into())
            }
        },
        compared: &[],
        changes: &[Change {
            flag: "--matmul-epilogue elementwise",
            relaxes: &[Reason::MatmulEpilogue],
            apply: |o| {
                let all = FusionOptions {
                    matmul_epilogue: MatmulEpilogue::Elementwise,
                    ..o
                };
                (o.matmul_epilogue != MatmulEpilogue::Elementwise).then_some(all)
            },
            wanted: |g| g.ops.iter().any(|o| o.kind.is_contraction()),
        }],
    },
    Strategy {
        flag: "--horizontal",
        json_key: "fusion.horizontal",
        pass: "horizontal.rs",
        human: |f| match f.horizontal {
            Horizontal::Off => None,
            Horizontal::Pointwise => Some(
                "horizontal fusion: independent pointwise kernels that read the same tensor are \
                 one launch"
                    .into(),
            ),
            Horizontal::GroupedGemm => Some(
                "horizontal fusion: independent kernels that read the same tensor are one \
                 launch, matmuls as a grouped GEMM"
                    .into(),
            ),
            Horizontal::Inductor => Some(
                "horizontal fusion: independent pointwise kernels that read the same elements \
                 of a tensor are one launch, unless Inductor's peak-memory check refuses it"
                    .into(),
            ),
        },
        compared: &[("--horizontal", |o| FusionOptions {
            horizontal: Horizontal::Pointwise,
            ..o
        })],
        // Horizontal fusion fuses no producer → consumer edge.
        changes: &[],
    },
    Strategy {
        flag: "--max-kernel-ops",
        json_key: "fusion.budgets",
        pass: "budget.rs",
        human: |f| {
            let b = f.effective_budgets();
            let mut budgets = Vec::new();
            if let Some(n) = b.ops_limit() {
                budgets.push(format!("{n} ops"));
            }
            if let Some(n) = b.tensors {
                budgets.push(format!("{n} tensors"));
            }
            if let Some(n) = b.registers {
                budgets.push(format!("{n} registers per thread"));
            }
            (!budgets.is_empty()).then(|| format!("budgets per kernel: {}", budgets.join(", ")))
        },
        compared: &[],
        changes: &[],
    },
];

/// Every what-if change of every strategy, in the table's order.
pub fn changes() -> impl Iterator<Item = &'static Change> {
    STRATEGIES.iter().flat_map(|s| s.changes)
}

/// The settings `--compare` plans: each strategy's, then the compiler presets.
pub fn compared() -> Vec<(String, FusionOptions)> {
    let mut v: Vec<(String, FusionOptions)> = STRATEGIES
        .iter()
        .flat_map(|s| s.compared)
        .map(|(flags, f)| (flags.to_string(), f(FusionOptions::default())))
        .collect();
    for &f in Fuser::ALL {
        if f != Fuser::Seed {
            v.push((format!("--fuser {}", f.as_str()), f.options()));
        }
    }
    v
}

/// The report's lines for the strategies `f` turns on (empty for SPEC §2's plan), headed by
/// the `--fuser` preset they are, if any.
pub fn human_lines(f: &FusionOptions) -> String {
    let parts: Vec<String> = STRATEGIES.iter().filter_map(|s| (s.human)(f)).collect();
    if parts.is_empty() {
        return String::new();
    }
    let mut out = match Fuser::of(f).filter(|&p| p != Fuser::Seed) {
        Some(p) => format!("fusion as `--fuser {}`:\n", p.as_str()),
        None => String::new(),
    };
    for p in parts {
        out += &p;
        out.push('\n');
    }
    out.push('\n');
    out
}

/// The flags that ask for `o`, as a user types them: the `--fuser` preset they are, if any,
/// else each setting that is not SPEC §2's (`--policy store --horizontal`), then
/// `--flash-attention`; empty for SPEC §2's options. Messages name a strategy by these.
pub fn flags(o: &FusionOptions) -> String {
    let mut parts: Vec<String> = Vec::new();
    match Fuser::of(o).filter(|&p| p != Fuser::Seed) {
        Some(p) => parts.push(format!("--fuser {}", p.as_str())),
        None => {
            if o.policy != Policy::Boundary {
                parts.push(format!("--policy {}", o.policy.as_str()));
            }
            if o.diamonds {
                parts.push("--fuse-diamonds".into());
            }
            if o.reduction_epilogue {
                parts.push("--reduction-epilogue".into());
            }
            if o.matmul_epilogue != MatmulEpilogue::Elementwise {
                parts.push(format!("--matmul-epilogue {}", o.matmul_epilogue.as_str()));
            }
            match o.horizontal {
                Horizontal::Off => {}
                // As `--compare` names it.
                Horizontal::Pointwise => parts.push("--horizontal".into()),
                h => parts.push(format!("--horizontal {}", h.as_str())),
            }
            for (flag, value) in [
                ("--max-kernel-ops", o.budgets.ops),
                ("--max-kernel-tensors", o.budgets.tensors),
                ("--max-registers", o.budgets.registers),
            ] {
                if let Some(n) = value {
                    parts.push(format!("{flag} {n}"));
                }
            }
        }
    }
    if o.flash_attention {
        parts.push("--flash-attention".into());
    }
    parts.join(" ")
}

fn policy(o: FusionOptions, p: Policy) -> FusionOptions {
    FusionOptions { policy: p, ..o }
}

/// `o` under policy `p`; `None` when it is under `p` already.
fn change_policy(o: FusionOptions, p: Policy) -> Option<FusionOptions> {
    (o.policy != p).then_some(policy(o, p))
}

#[cfg(test)]
mod tests {
    use super::{compared, flags};
    use crate::fusion::FusionOptions;

    #[test]
    fn flags_name_options_as_compare_does() {
        for (name, o) in compared() {
            if o == FusionOptions::default() {
                assert_eq!(flags(&o), "");
            } else {
                assert_eq!(flags(&o), name);
            }
        }
        let o = FusionOptions {
            flash_attention: true,
            budgets: crate::fusion::Budgets {
                tensors: Some(5),
                ..Default::default()
            },
            ..FusionOptions::default()
        };
        assert_eq!(flags(&o), "--max-kernel-tensors 5 --flash-attention");
    }
}
