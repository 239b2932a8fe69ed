//! How to group: [`FusionOptions`], one field per strategy (the strategies themselves are the
//! pass files beside this one). The default is SPEC §2 exactly.

use super::{Budgets, Horizontal, MatmulEpilogue, Policy, budget};

/// How to group. The default is SPEC §2 exactly.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FusionOptions {
    /// Fuse every attention pattern ([`super::flash::detect`]) into one FlashAttention kernel
    /// before the greedy pass, which then runs unchanged with that kernel counting as one
    /// matmul: it starts with a matmul (no prologue on Q, K or V: rule 1), takes elementwise
    /// and reshape epilogues like any matmul, and never joins a second matmul's kernel.
    pub flash_attention: bool,
    /// What rule 4 does with a tensor that must be written anyway ([`super::policy`]).
    pub policy: Policy,
    /// Let elementwise work on a reduced value join the reduction's kernel ([`super::epilogue`]).
    pub reduction_epilogue: bool,
    /// What may follow a matmul in its kernel ([`MatmulEpilogue`]).
    pub matmul_epilogue: MatmulEpilogue,
    /// Merge independent kernels that read the same tensor into one launch ([`super::horizontal`]).
    pub horizontal: Horizontal,
    /// The limits of one kernel ([`super::budget`]); none by default.
    pub budgets: Budgets,
    /// Keep a tensor with several readers on chip when its paths reconverge through cheap ops
    /// ([`super::dominator`], TVM's choice).
    pub diamonds: bool,
    /// The work bound of each plan search (`--max-plan-work`, [`super::work`]); `None`: the
    /// default of `crate::limits::plan_work_bound`. Not a strategy: every plan of a run (the
    /// analysis's, `--compare`'s, the what-if's) gets the same bound.
    pub work_limit: Option<u64>,
}

impl FusionOptions {
    /// The budgets in force: those set, and under `--policy store` or `inline` or with
    /// diamonds the ops budget of Inductor: those strategies check every merge by walking
    /// the kernels' members, and the budget keeps that linear.
    pub fn effective_budgets(&self) -> Budgets {
        let mut b = self.budgets;
        if (matches!(self.policy, Policy::Store | Policy::Inline) || self.diamonds)
            && b.ops.is_none()
        {
            b.ops = Some(budget::DEFAULT_OPS);
        }
        b
    }
}
