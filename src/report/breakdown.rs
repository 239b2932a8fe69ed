//! Where the time goes (`analyze --breakdown`, JSON `breakdown`; issue 28): every kernel
//! classified by [`KernelFamily`] ([`op_family`] is the one table, an exhaustive match over
//! the op kinds), and the step's time split by family with the launches apart, for the model
//! under each estimate that ran (the compulsory roofline, the hardware model under
//! `--traffic-model hardware`, the runtime's plan under `--runtime`), and per layer: each
//! top-level block instance (as `--summary` counts them: a kernel belongs to the instance of
//! its first op) with its compulsory time by family and its hardware-model and runtime
//! totals beside it.
//!
//! The rows are sums over whole kernels, so each model's families and launches add up to
//! its total, and the layers to the model.
//!
//! This is fgraph's only classifier of kernels by family: the HTML report draws the same
//! figures (its stacked bar is [`Breakdown::models`], its kernel table and its roofline colour
//! each kernel by [`Classifier`] in [`KernelFamily::colour`]).

use crate::analysis::Analysis;
use crate::cost::CostReport;
use crate::graph::{Graph, OpId};
use crate::ops::funcs::{self, FuncFamily};
use crate::runtime::{RuntimeEstimate, What};
use crate::syntax::expand::Instance;
use crate::types::OpKind;
use serde::Serialize;

/// What a kernel spends its time on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum KernelFamily {
    /// GEMMs and convolutions (low-precision ones too).
    Matmul,
    /// An attention op, a FlashAttention kernel, a kernel of an unfused attention pattern
    /// (its Q·Kᵀ, softmax and P·V), or a kernel that holds a matmul and a softmax.
    Attention,
    /// Norms, and a softmax outside attention.
    Normalisation,
    /// Other reductions: sums, pools, scans, sorts and top-k.
    Reduction,
    Elementwise,
    /// A kernel of views and copies only (`reshape`, `permute`, `concat`, …).
    LayoutCopy,
    /// `gather`, `update`, `index_add`, `one_hot`: indexed reads and writes.
    GatherScatter,
    /// Collectives and transfers between GPUs.
    Communication,
}

impl KernelFamily {
    /// Every family, in the order tables show them.
    pub const ALL: &'static [KernelFamily] = &[
        KernelFamily::Matmul,
        KernelFamily::Attention,
        KernelFamily::Normalisation,
        KernelFamily::Reduction,
        KernelFamily::Elementwise,
        KernelFamily::LayoutCopy,
        KernelFamily::GatherScatter,
        KernelFamily::Communication,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            KernelFamily::Matmul => "matmul",
            KernelFamily::Attention => "attention",
            KernelFamily::Normalisation => "normalisation",
            KernelFamily::Reduction => "reduction",
            KernelFamily::Elementwise => "elementwise",
            KernelFamily::LayoutCopy => "layout-copy",
            KernelFamily::GatherScatter => "gather-scatter",
            KernelFamily::Communication => "communication",
        }
    }

    /// The family named `s` (as [`KernelFamily::as_str`] writes it).
    pub fn named(s: &str) -> Option<KernelFamily> {
        KernelFamily::ALL.iter().copied().find(|f| f.as_str() == s)
    }

    /// Its colour in the HTML report's pictures (distinct for colour-blind readers: Okabe and
    /// Ito's palette, then a grey).
    pub fn colour(self) -> &'static str {
        match self {
            KernelFamily::Matmul => "#0072b2",
            KernelFamily::Attention => "#d55e00",
            KernelFamily::Normalisation => "#009e73",
            KernelFamily::Reduction => "#f0e442",
            KernelFamily::Elementwise => "#e69f00",
            KernelFamily::LayoutCopy => "#cc79a7",
            KernelFamily::GatherScatter => "#56b4e9",
            KernelFamily::Communication => "#555555",
        }
    }

    /// Which family wins when a kernel holds ops of several: the first of
    /// communication, attention, matmul, normalisation, reduction, gather/scatter,
    /// elementwise, layout copy.
    fn rank(self) -> u8 {
        match self {
            KernelFamily::Communication => 0,
            KernelFamily::Attention => 1,
            KernelFamily::Matmul => 2,
            KernelFamily::Normalisation => 3,
            KernelFamily::Reduction => 4,
            KernelFamily::GatherScatter => 5,
            KernelFamily::Elementwise => 6,
            KernelFamily::LayoutCopy => 7,
        }
    }
}

/// The family of one op of kind `kind` with function `func` (the one table: a new kind does
/// not compile without its row).
pub fn op_family(kind: OpKind, func: Option<&str>) -> KernelFamily {
    use KernelFamily as F;
    match kind {
        OpKind::Matmul | OpKind::Conv | OpKind::ScaledMm | OpKind::QuantMm => F::Matmul,
        OpKind::Attention => F::Attention,
        OpKind::Reduction => match func.map(funcs::family) {
            Some(FuncFamily::Norm | FuncFamily::GroupNorm | FuncFamily::Softmax) => {
                F::Normalisation
            }
            Some(FuncFamily::Plain) | None => F::Reduction,
        },
        OpKind::MaxPool
        | OpKind::AvgPool
        | OpKind::GlobalAvgPool
        | OpKind::GlobalMaxPool
        | OpKind::SelectiveScan
        | OpKind::AssociativeScan
        | OpKind::Topk
        | OpKind::TopkIndices
        | OpKind::Sort
        | OpKind::Argsort
        | OpKind::Cumsum => F::Reduction,
        OpKind::Elementwise | OpKind::Roll => F::Elementwise,
        OpKind::Reshape | OpKind::Slice | OpKind::Permute | OpKind::Expand | OpKind::Concat => {
            F::LayoutCopy
        }
        OpKind::Gather | OpKind::Update | OpKind::IndexAdd | OpKind::OneHot => F::GatherScatter,
        OpKind::AllReduce
        | OpKind::AllGather
        | OpKind::ReduceScatter
        | OpKind::AllToAll
        | OpKind::Broadcast
        | OpKind::Send
        | OpKind::Recv => F::Communication,
    }
}

/// The family of a kernel of `ops`: attention when it holds an op of an attention pattern
/// (`attention[o]`), or a matmul and a softmax (a fused attention the patterns did not name),
/// else the highest-ranked family of its ops; layout copy for none.
pub fn kernel_family(g: &Graph, ops: &[OpId], attention: &[bool]) -> KernelFamily {
    let mut best = KernelFamily::LayoutCopy;
    let mut softmax = false;
    for &o in ops {
        let op = g.op(o);
        let mut f = op_family(op.kind, op.func.as_deref());
        softmax |= op.kind == OpKind::Reduction
            && op.func.as_deref().map(funcs::family) == Some(FuncFamily::Softmax);
        if attention.get(o.index()).copied().unwrap_or(false) && f != KernelFamily::Communication {
            f = KernelFamily::Attention;
        }
        if f.rank() < best.rank() {
            best = f;
        }
    }
    if best == KernelFamily::Matmul && softmax {
        KernelFamily::Attention
    } else {
        best
    }
}

/// Classifies the kernels of one graph, of any plan (fused, unfused, a runtime's): the one
/// table ([`kernel_family`]) with the attention patterns the cost model found.
#[derive(Clone, Debug)]
pub struct Classifier<'g> {
    g: &'g Graph,
    attention: Vec<bool>,
}

impl<'g> Classifier<'g> {
    pub fn new(g: &'g Graph, patterns: &[crate::cost::PatternReport]) -> Self {
        Classifier {
            g,
            attention: attention_ops(g, patterns),
        }
    }

    /// The family of the kernel made of `ops`.
    pub fn kernel(&self, ops: &[OpId]) -> KernelFamily {
        kernel_family(self.g, ops, &self.attention)
    }
}

/// One family's share of a model's time.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct FamilyRow {
    pub family: &'static str,
    pub kernels: usize,
    /// Kernel time, launches apart.
    pub time_s: f64,
    /// Share of the model's total, percent.
    pub pct: f64,
}

/// One estimate of the step, split by family.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ModelRow {
    /// `compulsory`, `hardware` or the runtime's name (`eager`, `compile`).
    pub model: String,
    /// The families that have a kernel, in [`KernelFamily::ALL`] order.
    pub families: Vec<FamilyRow>,
    pub launches: usize,
    /// Launch overhead.
    pub launch_s: f64,
    pub total_s: f64,
}

/// One top-level instance (a layer) or the ops outside blocks.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct LayerRow {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub block: Option<String>,
    pub kernels: usize,
    /// Compulsory kernel time by family, in [`Breakdown::families`] order.
    pub compulsory_s: Vec<f64>,
    /// Compulsory launch overhead.
    pub launch_s: f64,
    /// Compulsory total.
    pub total_s: f64,
    /// The hardware model's total (`--traffic-model hardware`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hardware_s: Option<f64>,
    /// The runtime's total (`--runtime`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub runtime_s: Option<f64>,
}

/// The breakdown of a plan.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Breakdown {
    /// The family of each kernel of the plan (`groups` order).
    pub kernel_families: Vec<&'static str>,
    /// The families some kernel has, in [`KernelFamily::ALL`] order: the columns of `layers`.
    pub families: Vec<&'static str>,
    /// One row per estimate: compulsory, then hardware, then the runtime's.
    pub models: Vec<ModelRow>,
    /// Per top-level instance, then outside blocks (empty for a graph without blocks).
    pub layers: Vec<LayerRow>,
}

/// Per op, whether it is an op of an attention pattern the cost model found.
fn attention_ops(g: &Graph, patterns: &[crate::cost::PatternReport]) -> Vec<bool> {
    let mut v = vec![false; g.ops.len()];
    for p in patterns {
        for o in p.pattern.ops() {
            v[o.index()] = true;
        }
    }
    v
}

/// Per op, the row of its top-level instance in `layers` (the last row: outside blocks).
fn layer_of_ops(n_ops: usize, instances: &[Instance], layers: &mut Vec<LayerRow>) -> Vec<usize> {
    let mut of = vec![usize::MAX; n_ops];
    for inst in instances.iter().filter(|i| i.parent.is_none()) {
        let end = inst.ops.end.min(n_ops);
        for slot in &mut of[inst.ops.start.min(end)..end] {
            *slot = layers.len();
        }
        layers.push(LayerRow {
            name: inst.path.clone(),
            block: Some(inst.block.clone()),
            ..LayerRow::default()
        });
    }
    let outside = layers.len();
    layers.push(LayerRow {
        name: super::summary::OUTSIDE.to_string(),
        ..LayerRow::default()
    });
    for slot in &mut of {
        if *slot == usize::MAX {
            *slot = outside;
        }
    }
    of
}

/// The breakdown of `a`'s plan under `cost` (its hardware model when it ran) and `runtime`.
pub fn breakdown(
    a: &Analysis,
    instances: &[Instance],
    cost: &CostReport,
    patterns: &[crate::cost::PatternReport],
    runtime: Option<&RuntimeEstimate>,
) -> Breakdown {
    let g = &a.graph;
    let families_of = Classifier::new(g, patterns);
    let fam: Vec<KernelFamily> = a
        .plan
        .groups
        .iter()
        .map(|grp| families_of.kernel(&grp.ops))
        .collect();
    let mut models = Vec::new();
    // Compulsory: the roofline term per kernel, its launch apart.
    let kc = &cost.fused.kernels;
    models.push(model_row(
        "compulsory",
        fam.iter()
            .zip(kc)
            .map(|(&f, k)| (f, k.time_s - k.launch_s, k.launch_s, 1)),
        cost.fused.time_s,
    ));
    if let Some(m) = &cost.hardware_model {
        models.push(model_row(
            "hardware",
            fam.iter()
                .zip(&m.kernels)
                .map(|(&f, p)| (f, p.kernel_s, p.launch_s, p.launches())),
            m.time_s,
        ));
    }
    if let Some(e) = runtime {
        models.push(model_row(
            e.name(),
            e.kernels.iter().map(|k| {
                let f = match &k.what {
                    What::Copy { .. } => KernelFamily::LayoutCopy,
                    What::Fill { .. } | What::Stats { .. } | What::Mask { .. } => {
                        KernelFamily::Elementwise
                    }
                    What::Sdpa => KernelFamily::Attention,
                    What::Kernel => families_of.kernel(&k.ops),
                };
                (f, k.prediction.kernel_s, k.prediction.launch_s, k.launches)
            }),
            e.time_s,
        ));
    }
    let families: Vec<KernelFamily> = KernelFamily::ALL
        .iter()
        .copied()
        .filter(|f| fam.contains(f))
        .collect();
    let mut layers = Vec::new();
    if !instances.is_empty() {
        let of = layer_of_ops(g.ops.len(), instances, &mut layers);
        for r in &mut layers {
            r.compulsory_s = vec![0.0; families.len()];
            r.hardware_s = cost.hardware_model.as_ref().map(|_| 0.0);
            r.runtime_s = runtime.map(|_| 0.0);
        }
        for (k, grp) in a.plan.groups.iter().enumerate() {
            let (Some(&first), Some(c)) = (grp.ops.first(), kc.get(k)) else {
                continue;
            };
            let r = &mut layers[of[first.index()]];
            r.kernels += 1;
            if let Some(col) = families.iter().position(|&f| f == fam[k]) {
                r.compulsory_s[col] += c.time_s - c.launch_s;
            }
            r.launch_s += c.launch_s;
            r.total_s += c.time_s;
            if let (Some(h), Some(p)) = (
                r.hardware_s.as_mut(),
                cost.hardware_model.as_ref().and_then(|m| m.kernels.get(k)),
            ) {
                *h += p.time_s;
            }
        }
        if let Some(e) = runtime {
            for k in &e.kernels {
                let op = k.ops.first().copied().or(match &k.what {
                    What::Copy { reader, .. } => *reader,
                    What::Fill { reader } | What::Stats { reader } | What::Mask { reader } => {
                        Some(*reader)
                    }
                    _ => None,
                });
                let row = op.map_or(layers.len() - 1, |o| of[o.index()]);
                if let Some(t) = layers[row].runtime_s.as_mut() {
                    *t += k.prediction.time_s;
                }
            }
        }
        if layers
            .last()
            .is_some_and(|r| r.kernels == 0 && r.runtime_s.is_none_or(|t| t == 0.0))
        {
            layers.pop();
        }
    }
    Breakdown {
        kernel_families: fam.iter().map(|f| f.as_str()).collect(),
        families: families.iter().map(|f| f.as_str()).collect(),
        models,
        layers,
    }
}

/// One model's row from its kernels: (family, kernel time, launch time, launches).
fn model_row(
    name: &str,
    kernels: impl Iterator<Item = (KernelFamily, f64, f64, usize)>,
    total_s: f64,
) -> ModelRow {
    let mut by: Vec<(usize, f64)> = vec![(0, 0.0); KernelFamily::ALL.len()];
    let (mut launches, mut launch_s) = (0usize, 0.0f64);
    for (f, t, l, n) in kernels {
        let i = KernelFamily::ALL.iter().position(|&x| x == f).unwrap_or(0);
        by[i].0 += 1;
        by[i].1 += t;
        launches += n;
        launch_s += l;
    }
    let pct = |t: f64| {
        if total_s > 0.0 {
            100.0 * t / total_s
        } else {
            0.0
        }
    };
    ModelRow {
        model: name.to_string(),
        families: KernelFamily::ALL
            .iter()
            .zip(&by)
            .filter(|(_, (n, _))| *n > 0)
            .map(|(f, &(kernels, time_s))| FamilyRow {
                family: f.as_str(),
                kernels,
                time_s,
                pct: pct(time_s),
            })
            .collect(),
        launches,
        launch_s,
        total_s,
    }
}

#[cfg(test)]
mod tests;
