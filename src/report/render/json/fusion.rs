//! The fusion options in the JSON report: edges an option fused against the rules
//! ([`FusedEdgeJson`]: `reduction_epilogues`, `fusion.recomputes`, attention `fused_edges`),
//! and the `fusion` object of a plan made by other options than SPEC §2's, with what their
//! passes did.

use crate::analysis::Analysis;
use crate::fusion::Reason;
use crate::graph::{Graph, OpId};
use serde::Serialize;

#[derive(Serialize)]
pub struct FusedEdgeJson {
    pub producer: String,
    pub consumer: String,
    pub tensor: String,
    pub fused_by: crate::fusion::FusedBy,
    /// The boundary reason the default grouping gives this edge (null: it fuses anyway).
    pub overrides: Option<Reason>,
    pub rule: Option<u8>,
}

impl FusedEdgeJson {
    pub fn new(g: &Graph, e: &crate::fusion::FusedEdge) -> Self {
        FusedEdgeJson {
            producer: g.op(e.producer).name.to_string(),
            consumer: g.op(e.consumer).name.to_string(),
            tensor: g.tensor(e.tensor).name.to_string(),
            fused_by: e.fused_by,
            overrides: e.overrides,
            rule: e.overrides.map(Reason::rule),
        }
    }
}

/// The `fusion` object: the options of a plan that is not SPEC §2's default, and what the
/// passes they turn on did.
#[derive(Serialize)]
pub struct FusionJson {
    /// The `--fuser` preset these options are, if any.
    pub fuser: Option<crate::fusion::Fuser>,
    pub policy: crate::fusion::Policy,
    pub reduction_epilogue: bool,
    pub matmul_epilogue: crate::fusion::MatmulEpilogue,
    pub horizontal: crate::fusion::Horizontal,
    /// `--fuse-diamonds`.
    pub diamonds: bool,
    /// The budgets in force (null: none).
    pub budgets: crate::fusion::Budgets,
    /// Under `recompute`: every edge out of a duplicated op, and the FLOPs the copies add.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recomputes: Option<Vec<FusedEdgeJson>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recomputed_flops: Option<u64>,
    /// With horizontal fusion: each launch made of independent kernels.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub horizontal_merges: Option<Vec<HorizontalJson>>,
}

/// One horizontal merge: the kernel (1-based, as in the human report), the ops of each part,
/// the tensors now read once, and what it saves.
#[derive(Serialize)]
pub struct HorizontalJson {
    pub kernel: usize,
    pub parts: Vec<Vec<String>>,
    pub shared: Vec<String>,
    pub bytes_saved: u64,
    pub launches_saved: usize,
}

impl FusionJson {
    pub fn new(a: &Analysis) -> Option<FusionJson> {
        use crate::fusion::{Fuser, FusionOptions, Horizontal, Policy};
        let f = &a.fusion;
        let plain = FusionOptions {
            flash_attention: f.flash_attention,
            ..FusionOptions::default()
        };
        if *f == plain {
            return None;
        }
        let g = &a.graph;
        let names = |ops: &[OpId]| ops.iter().map(|&o| g.op(o).name.to_string()).collect();
        Some(FusionJson {
            fuser: Fuser::of(f).filter(|&p| p != Fuser::Seed),
            policy: f.policy,
            reduction_epilogue: f.reduction_epilogue,
            matmul_epilogue: f.matmul_epilogue,
            horizontal: f.horizontal,
            diamonds: f.diamonds,
            budgets: f.effective_budgets(),
            recomputes: matches!(f.policy, Policy::Recompute | Policy::Inline).then(|| {
                a.plan
                    .recomputes
                    .iter()
                    .map(|e| FusedEdgeJson::new(g, e))
                    .collect()
            }),
            recomputed_flops: matches!(f.policy, Policy::Recompute | Policy::Inline)
                .then(|| a.plan.recomputed_flops(g)),
            horizontal_merges: (f.horizontal != Horizontal::Off).then(|| {
                a.plan
                    .horizontal
                    .iter()
                    .map(|h| HorizontalJson {
                        kernel: h.group + 1,
                        parts: h.parts.iter().map(|p| names(p)).collect(),
                        shared: h
                            .shared
                            .iter()
                            .map(|&t| g.tensor(t).name.to_string())
                            .collect(),
                        bytes_saved: h.bytes_saved,
                        launches_saved: h.parts.len() - 1,
                    })
                    .collect()
            }),
        })
    }
}
