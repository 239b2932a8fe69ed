//! Why an edge is a kernel boundary ([`Reason`], one per rule of SPEC §2 plus the budgets and
//! the matmul epilogue) and which pass fused an edge the rules would break ([`FusedBy`]), with
//! the sentence each writes; their long explanations are `src/explain/*.md`.

use serde::Serialize;

/// Why two adjacent ops are not in one kernel: the lowest-numbered rule of SPEC §2 the edge
/// breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reason {
    /// Rule 1: the consumer is a matmul; a matmul has no prologue.
    MatmulStartsGroup,
    /// Rule 2: the producer is a reduction; a reduction ends its kernel.
    AfterReduction,
    /// Rule 3: the consumer is a reduction and the merged kernel would hold a matmul.
    ReductionAfterMatmul,
    /// Rule 4: the producer's output has several consumers or is a graph output.
    Materialized,
    /// Rule 5: the merged kernel would hold two matmuls.
    SecondMatmul,
    /// Rule 6: the merged kernel would depend on itself.
    WouldCreateCycle,
    /// Not a rule of SPEC §2: the merged kernel would exceed a fusion budget
    /// ([`super::budget`]; the boundary names it). Ranks after the rules.
    BudgetExceeded,
    /// Not a rule of SPEC §2: the matmul takes only the epilogues `--matmul-epilogue` allows
    /// (a bias add under `bias`, as cuBLAS and Inductor's default mode).
    MatmulEpilogue,
    /// Not a rule of SPEC §2: the plan search had spent its work bound (`super::work`) before
    /// it could check this merge, which is therefore not made. Ranks last.
    SearchStopped,
    /// Not a rule of SPEC §2 (issue 25): the producer or the consumer is a collective, an
    /// NCCL kernel of its own that no option fuses.
    Collective,
}

impl Reason {
    pub const ALL: &'static [Reason] = &[
        Reason::MatmulStartsGroup,
        Reason::AfterReduction,
        Reason::ReductionAfterMatmul,
        Reason::Materialized,
        Reason::SecondMatmul,
        Reason::WouldCreateCycle,
        Reason::BudgetExceeded,
        Reason::MatmulEpilogue,
        Reason::SearchStopped,
        Reason::Collective,
    ];
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::MatmulStartsGroup => "matmul-starts-group",
            Reason::AfterReduction => "after-reduction",
            Reason::ReductionAfterMatmul => "reduction-after-matmul",
            Reason::Materialized => "materialized",
            Reason::SecondMatmul => "second-matmul",
            Reason::WouldCreateCycle => "would-create-cycle",
            Reason::BudgetExceeded => "budget-exceeded",
            Reason::MatmulEpilogue => "matmul-epilogue",
            Reason::SearchStopped => "search-stopped",
            Reason::Collective => "collective",
        }
    }
    pub fn from_name(name: &str) -> Option<Reason> {
        Reason::ALL.iter().copied().find(|r| r.as_str() == name)
    }
    /// The rule number in SPEC §2.
    pub fn rule(self) -> u8 {
        self as u8 + 1
    }
    /// A sentence for reports: why `producer` → `consumer` through `tensor` is a boundary.
    pub fn explain(self, producer: &str, consumer: &str, tensor: &str) -> String {
        let mut s = String::new();
        let _ = self.write_explanation(&mut s, producer, consumer, tensor);
        s
    }

    /// [`Reason::explain`] written into `f`, without building the string.
    pub fn write_explanation(
        self,
        f: &mut dyn std::fmt::Write,
        producer: &str,
        consumer: &str,
        tensor: &str,
    ) -> std::fmt::Result {
        match self {
            Reason::MatmulStartsGroup => {
                write!(
                    f,
                    "`{consumer}` is a matmul, and a matmul always starts a new kernel"
                )
            }
            Reason::AfterReduction => {
                write!(
                    f,
                    "`{producer}` is a reduction, and a reduction ends its kernel"
                )
            }
            Reason::ReductionAfterMatmul => write!(
                f,
                "`{consumer}` is a reduction and would join a kernel that holds a matmul; matmul epilogues are elementwise or reshape only"
            ),
            Reason::Materialized => write!(
                f,
                "`{tensor}` has several consumers or is a graph output, so it must be written to HBM anyway"
            ),
            Reason::SecondMatmul => {
                write!(
                    f,
                    "joining `{producer}`'s kernel would put a second matmul into one kernel"
                )
            }
            Reason::WouldCreateCycle => write!(
                f,
                "merging `{producer}` and `{consumer}` would make the kernel depend on itself"
            ),
            Reason::BudgetExceeded => write!(
                f,
                "one kernel for `{producer}` and `{consumer}` would exceed a fusion budget"
            ),
            Reason::MatmulEpilogue => write!(
                f,
                "`{consumer}` would join a matmul's kernel, and the matmul takes no such \
                 epilogue under this `--matmul-epilogue` (bias: a bias add only; addmm: an add \
                 unless every reader of the sum is elementwise; none: no epilogue)"
            ),
            Reason::SearchStopped => write!(
                f,
                "the plan search had reached its work bound before it could check one kernel \
                 for `{producer}` and `{consumer}`"
            ),
            Reason::Collective => write!(
                f,
                "the edge `{producer}` → `{consumer}` enters or leaves a collective, an NCCL \
                 kernel of its own that fuses with nothing"
            ),
        }
    }
}

/// Why an edge that the rules keep in HBM is fused after all: the vocabulary of the passes
/// behind explicit options. `fgraph explain flash-attention` describes the one pass there is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FusedBy {
    /// `--flash-attention`: the edge is inside a FlashAttention kernel (QKᵀ, softmax and the
    /// product with V in one kernel with an online softmax), so its tensor stays on chip.
    FlashAttention,
    /// `--reduction-epilogue`: elementwise work on a reduced value, in the reduction's kernel
    /// ([`super::epilogue`]).
    ReductionEpilogue,
    /// `--policy recompute`: the producer is computed again in the consumer's kernel
    /// ([`super::recompute`]).
    Recompute,
}

impl FusedBy {
    pub const ALL: &'static [FusedBy] = &[
        FusedBy::FlashAttention,
        FusedBy::ReductionEpilogue,
        FusedBy::Recompute,
    ];
    pub fn as_str(self) -> &'static str {
        match self {
            FusedBy::FlashAttention => "flash-attention",
            FusedBy::ReductionEpilogue => "reduction-epilogue",
            FusedBy::Recompute => "recompute",
        }
    }
}

impl std::fmt::Display for FusedBy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
