//! Kernel families for the pictures (issue 28 item 3): every op kind falls in one family
//! ([`of_kind`], an exhaustive match, so a new [`OpKind`] must be placed here), a kernel takes
//! the family of its most telling op ([`of_kernel`]), and [`breakdown`] splits a plan's
//! estimated time by family, launch overhead apart. The HTML report draws the breakdown as a
//! stacked bar and colours the roofline's points by family.
//!
//! This is the renderers' own small classifier; the per-layer time tables of issue 28 item 2
//! may classify kernels too, and the two are meant to become one.

use crate::cost::KernelCost;
use crate::graph::{Graph, OpId};
use crate::ops::funcs::{self, FuncFamily};
use crate::types::OpKind;

/// What a kernel mostly does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Family {
    /// Matmuls and convolutions (with their fused epilogues).
    Matmul,
    /// A fused attention: an `attention` op, or a matmul and a softmax in one kernel.
    Attention,
    /// Norms, softmax, other reductions and pooling.
    Norm,
    Elementwise,
    /// Layout-only kernels: reshape, permute, slice, concat, expand, roll.
    Copy,
    /// Gather, scatter (`update`, `index_add`) and routing (top-k, sort, one-hot).
    Gather,
    /// Scans: cumulative sums, selective and associative scans.
    Scan,
    /// Collectives and point-to-point transfers between GPUs.
    Communication,
}

impl Family {
    pub const ALL: [Family; 8] = [
        Family::Matmul,
        Family::Attention,
        Family::Norm,
        Family::Elementwise,
        Family::Copy,
        Family::Gather,
        Family::Scan,
        Family::Communication,
    ];

    /// As the legends name it.
    pub fn label(self) -> &'static str {
        match self {
            Family::Matmul => "matmul",
            Family::Attention => "attention",
            Family::Norm => "norm & reduction",
            Family::Elementwise => "elementwise",
            Family::Copy => "layout copy",
            Family::Gather => "gather/scatter",
            Family::Scan => "scan",
            Family::Communication => "communication",
        }
    }

    /// Its colour in the pictures (distinct for colour-blind readers: Okabe and Ito's
    /// palette, then two greys).
    pub fn colour(self) -> &'static str {
        match self {
            Family::Matmul => "#0072b2",
            Family::Attention => "#d55e00",
            Family::Norm => "#009e73",
            Family::Elementwise => "#e69f00",
            Family::Copy => "#cc79a7",
            Family::Gather => "#56b4e9",
            Family::Scan => "#f0e442",
            Family::Communication => "#555555",
        }
    }

    /// Which family decides a kernel that holds ops of both (higher wins).
    fn rank(self) -> u8 {
        match self {
            Family::Communication => 7,
            Family::Attention => 6,
            Family::Matmul => 5,
            Family::Scan => 4,
            Family::Norm => 3,
            Family::Gather => 2,
            Family::Elementwise => 1,
            Family::Copy => 0,
        }
    }
}

/// The family of one op kind.
pub fn of_kind(kind: OpKind) -> Family {
    match kind {
        OpKind::Matmul | OpKind::ScaledMm | OpKind::QuantMm | OpKind::Conv => Family::Matmul,
        OpKind::Attention => Family::Attention,
        OpKind::Reduction
        | OpKind::MaxPool
        | OpKind::AvgPool
        | OpKind::GlobalAvgPool
        | OpKind::GlobalMaxPool => Family::Norm,
        OpKind::Elementwise => Family::Elementwise,
        OpKind::Reshape
        | OpKind::Slice
        | OpKind::Concat
        | OpKind::Permute
        | OpKind::Expand
        | OpKind::Roll => Family::Copy,
        OpKind::Gather
        | OpKind::Update
        | OpKind::IndexAdd
        | OpKind::Topk
        | OpKind::TopkIndices
        | OpKind::Sort
        | OpKind::Argsort
        | OpKind::OneHot => Family::Gather,
        OpKind::Cumsum | OpKind::SelectiveScan | OpKind::AssociativeScan => Family::Scan,
        OpKind::AllReduce
        | OpKind::AllGather
        | OpKind::ReduceScatter
        | OpKind::AllToAll
        | OpKind::Broadcast
        | OpKind::Send
        | OpKind::Recv => Family::Communication,
    }
}

/// The family of the kernel made of `ops`: its highest-ranked op's, except that a matmul and
/// a softmax in one kernel are a fused attention. A kernel of no ops is elementwise.
pub fn of_kernel(g: &Graph, ops: &[OpId]) -> Family {
    let mut family: Option<Family> = None;
    let mut softmax = false;
    for &o in ops {
        let op = g.op(o);
        let f = of_kind(op.kind);
        softmax |= op.kind == OpKind::Reduction
            && funcs::family(op.func.as_deref().unwrap_or("")) == FuncFamily::Softmax;
        if family.is_none_or(|cur| f.rank() > cur.rank()) {
            family = Some(f);
        }
    }
    match family {
        Some(Family::Matmul) if softmax => Family::Attention,
        Some(f) => f,
        None => Family::Elementwise,
    }
}

/// A plan's estimated time split by family, with launch overhead apart.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Breakdown {
    /// Seconds per family, in [`Family::ALL`]'s order, launch overhead excluded.
    pub family_s: [f64; 8],
    /// Kernels per family, in the same order.
    pub kernels: [usize; 8],
    /// Launch overhead of every kernel.
    pub launch_s: f64,
}

impl Breakdown {
    /// The whole: every family and the launches (the plan's estimated time).
    pub fn total_s(&self) -> f64 {
        self.family_s.iter().sum::<f64>() + self.launch_s
    }
}

/// The time of `kernels` by family: each kernel's time less its launch overhead counts for
/// its family, the launches apart, so that the parts add up to the plan's time.
pub fn breakdown<'k>(g: &Graph, kernels: impl IntoIterator<Item = &'k KernelCost>) -> Breakdown {
    let mut b = Breakdown::default();
    for k in kernels {
        let i = index(of_kernel(g, &k.ops));
        b.family_s[i] += (k.time_s - k.launch_s).max(0.0);
        b.kernels[i] += 1;
        b.launch_s += k.launch_s;
    }
    b
}

/// `f`'s position in [`Family::ALL`].
pub fn index(f: Family) -> usize {
    Family::ALL.iter().position(|&x| x == f).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{Options, check_file};

    #[test]
    fn every_kind_has_a_family_and_ranks_are_distinct() {
        for &k in OpKind::ALL {
            let _ = of_kind(k);
        }
        let mut ranks: Vec<u8> = Family::ALL.iter().map(|f| f.rank()).collect();
        ranks.sort_unstable();
        ranks.dedup();
        assert_eq!(ranks.len(), Family::ALL.len());
        for (i, &f) in Family::ALL.iter().enumerate() {
            assert_eq!(index(f), i);
        }
    }

    #[test]
    fn kernels_take_their_most_telling_op_and_times_add_up() {
        let src = "graph g {\n  input x: [64, 64]\n  weight w: [64, 64]\n\
                   op mm = matmul(x, w) -> y\n  op act = elementwise.relu(y) -> a\n\
                   op sm = reduction.softmax(a, axis = -1) -> p\n\
                   op t = permute(p, dims = [1, 0]) -> pt\n  op e = elementwise.exp(pt) -> z\n}\n";
        let r = check_file("g.fgraph", src.as_bytes(), &Options::default());
        let a = r.graphs[0].analysis.as_ref().expect("analysis");
        let g = &a.graph;
        let op = |n: &str| OpId(g.ops.iter().position(|o| o.name == n).expect("op") as u32);
        assert_eq!(of_kernel(g, &[op("mm"), op("act")]), Family::Matmul);
        assert_eq!(of_kernel(g, &[op("mm"), op("sm")]), Family::Attention);
        assert_eq!(of_kernel(g, &[op("act"), op("sm")]), Family::Norm);
        assert_eq!(of_kernel(g, &[op("t")]), Family::Copy);
        assert_eq!(of_kernel(g, &[op("t"), op("e")]), Family::Elementwise);
        let hw = crate::cost::Hardware::preset("h100").expect("preset");
        let c = crate::cost::estimate(a, &hw, crate::cost::LaunchMode::Graph).expect("cost");
        let b = breakdown(g, &c.fused.kernels);
        assert!((b.total_s() - c.fused.time_s).abs() <= 1e-12 * c.fused.time_s.max(1.0));
        assert_eq!(b.kernels.iter().sum::<usize>(), c.fused.kernels.len());
        let u: Vec<KernelCost> = c.unfused_kernels().collect();
        let bu = breakdown(g, &u);
        assert_eq!(bu.kernels[index(Family::Copy)], 1);
        assert_eq!(bu.kernels[index(Family::Matmul)], 1);
    }
}
