//! The attention pattern the rules alone cannot fuse, and the FlashAttention kernel that
//! replaces it under `--flash-attention`.
//!
//! The pattern (Dao et al. 2022, "FlashAttention"): `matmul` (Q·Kᵀ) → zero or more
//! `elementwise` ops (scale, mask, …) → `reduction.softmax` over the last axis → zero or more
//! `elementwise` ops (dropout, …) → `matmul` whose *first* operand is the chain (P·V). Every
//! tensor between the two matmuls (the *intermediates*) must have exactly one consuming op and
//! must not be a graph output: a fused attention kernel never writes them. Detection is
//! linear in the graph: each softmax is examined once and each chain is at most
//! [`MAX_CHAIN`] elementwise ops long on either side.

use crate::graph::{Graph, OpId, TensorId, TensorUse};
use crate::ops::funcs::{self, FuncFamily};
use crate::types::OpKind;

/// The longest run of elementwise ops accepted on either side of the softmax.
pub const MAX_CHAIN: usize = 16;

/// One matched attention pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttentionPattern {
    /// The Q·Kᵀ matmul.
    pub qk: OpId,
    /// Elementwise ops between Q·Kᵀ and the softmax, in execution order.
    pub pre: Vec<OpId>,
    pub softmax: OpId,
    /// Elementwise ops between the softmax and P·V, in execution order.
    pub post: Vec<OpId>,
    /// The P·V matmul.
    pub pv: OpId,
    /// Q, K (as written, usually `k.T`) and V.
    pub q: TensorUse,
    pub k: TensorUse,
    pub v: TensorUse,
    /// The attention output (P·V's output).
    pub output: TensorId,
    /// The tensors a fused kernel keeps on chip: the scores through the last tensor P·V
    /// reads, in order.
    pub intermediates: Vec<TensorId>,
}

impl AttentionPattern {
    /// Every op of the pattern in execution order.
    pub fn ops(&self) -> Vec<OpId> {
        let mut v = Vec::with_capacity(self.pre.len() + self.post.len() + 3);
        v.push(self.qk);
        v.extend(&self.pre);
        v.push(self.softmax);
        v.extend(&self.post);
        v.push(self.pv);
        v
    }
}

/// The mask the pattern's softmax states: `causal = true`, with `window = W` a sliding
/// window. Without `causal` (or with `causal = false`) the kernel computes every pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mask {
    /// The most keys one query sees (`window`); `None`: every key up to its position.
    pub window: Option<u64>,
}

impl AttentionPattern {
    /// The causal mask (and window) the softmax states; `None` when it states none.
    pub fn mask(&self, g: &Graph) -> Option<Mask> {
        let sm = g.op(self.softmax);
        if sm.int_attr(funcs::CAUSAL.name) != Some(1) {
            return None;
        }
        let window = sm
            .int_attr(funcs::WINDOW.name)
            .and_then(|w| u64::try_from(w).ok())
            .filter(|&w| w >= 1);
        Some(Mask { window })
    }

    /// Queries and keys of the scores: the softmax input's last two dimensions (`S_q` is 1
    /// for scores of rank 1).
    pub fn seq_lens(&self, g: &Graph) -> (u64, u64) {
        let shape = &g.tensor(g.op(self.softmax).output).shape;
        let sk = shape.last().copied().unwrap_or(1);
        let sq = shape.len().checked_sub(2).map_or(1, |i| shape[i]);
        (sq, sk)
    }

    /// The (query, key) pairs a FlashAttention kernel computes for one batch element and
    /// head, and `S_q · S_k`: all of them unless the softmax states a mask.
    pub fn pairs(&self, g: &Graph) -> (u128, u128) {
        let (sq, sk) = self.seq_lens(g);
        let all = sq as u128 * sk as u128;
        match self.mask(g) {
            Some(m) => (unmasked_pairs(sq, sk, m.window), all),
            None => (all, all),
        }
    }

    /// `flops`, the full count of one op of the pattern (each does the same work for every
    /// (query, key) pair), cut to the pairs the kernel computes. Unchanged without a mask.
    pub fn masked_flops(&self, g: &Graph, flops: u64) -> u64 {
        let (pairs, all) = self.pairs(g);
        if pairs == all || all == 0 {
            return flops;
        }
        // Every op of the pattern counts a whole multiple of S_q · S_k: exact.
        let f = flops as u128;
        let n = if f.is_multiple_of(all) {
            f / all * pairs
        } else {
            f.checked_mul(pairs).map_or_else(
                || (flops as f64 * (pairs as f64 / all as f64)) as u128,
                |x| x / all,
            )
        };
        n.min(flops as u128) as u64
    }
}

/// The (query, key) pairs a causal mask keeps for `sq` queries against `sk` keys, with
/// FlashAttention's rule: query `i` is at position `i + sk - sq` (the queries are the last
/// ones) and sees key `j` when `j <= i + sk - sq`, and with a window `W` also when
/// `j > i + sk - sq - W`: `min(W, max(0, i + sk - sq + 1))` keys. A closed form, so a huge
/// sequence costs nothing.
pub fn unmasked_pairs(sq: u64, sk: u64, window: Option<u64>) -> u128 {
    // Σ over x = i + sk - sq + 1 for i in 0..sq, i.e. x from sk - sq + 1 to sk, of
    // clamp(x, 0, W) = F(sk) - F(sk - sq), F(n) = Σ_{x=1..n} min(x, W) (0 when n <= 0).
    let w = window.map_or(u128::MAX, u128::from);
    let f = |n: i128| -> u128 {
        if n <= 0 {
            return 0;
        }
        let n = n as u128;
        if n <= w {
            n * (n + 1) / 2
        } else {
            w * (w + 1) / 2 + (n - w) * w
        }
    };
    f(sk as i128) - f(sk as i128 - sq as i128)
}

/// Why a softmax is not the heart of a fusable attention pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Miss {
    /// The softmax normalises over another axis than the last one.
    NotLastAxis { axis: i64 },
    /// The softmax reads more or fewer than one tensor, or a view of it.
    SoftmaxOperands,
    /// The softmax's output shape differs from its input's.
    ShapeChanged,
    /// An intermediate is a graph output or has several consumers, so it must reach HBM.
    Materialized { tensor: TensorId, output: bool },
    /// Walking back from the softmax met an op that is neither elementwise nor a matmul (or
    /// an external tensor) before a matmul.
    NoMatmulBefore { tensor: TensorId },
    /// Walking forward from the softmax met an op that is neither elementwise nor a matmul.
    NoMatmulAfter { tensor: TensorId },
    /// The matmul after the softmax reads the probabilities as its second operand or
    /// through a view (P·V needs P first).
    ProbsNotFirstOperand { matmul: OpId },
    /// A matmul of the pattern adds a bias of its own (`matmul(x, w, b)`): a linear layer,
    /// not a product of attention.
    Biased { matmul: OpId },
    /// More than [`MAX_CHAIN`] elementwise ops on one side.
    ChainTooLong,
    /// An op of the pattern already belongs to an earlier pattern.
    Overlap { op: OpId },
}

impl Miss {
    /// A clause for messages: "… because {this}".
    pub fn describe(&self, g: &Graph) -> String {
        let t = |t: &TensorId| format!("`{}`", g.tensor(*t).name);
        let o = |o: &OpId| format!("`{}`", g.op(*o).name);
        match self {
            Miss::NotLastAxis { axis } => {
                format!("the softmax runs over axis {axis}, not the last axis")
            }
            Miss::SoftmaxOperands => {
                "the softmax does not read exactly one whole tensor".to_string()
            }
            Miss::ShapeChanged => "the softmax's output shape differs from its input's".into(),
            Miss::Materialized {
                tensor,
                output: true,
            } => format!(
                "{} is a graph output, so it must be written to HBM",
                t(tensor)
            ),
            Miss::Materialized {
                tensor,
                output: false,
            } => format!(
                "{} is read by {} ops, so it must be written to HBM",
                t(tensor),
                g.consumers(*tensor).len()
            ),
            Miss::NoMatmulBefore { tensor } => format!(
                "{} does not come from a matmul through elementwise ops only",
                t(tensor)
            ),
            Miss::NoMatmulAfter { tensor } => format!(
                "{} does not reach a matmul through elementwise ops only",
                t(tensor)
            ),
            Miss::ProbsNotFirstOperand { matmul } => format!(
                "{} does not read the probabilities as its whole first operand (P·V)",
                o(matmul)
            ),
            Miss::Biased { matmul } => format!(
                "{} adds a bias: a linear layer, not a product of attention",
                o(matmul)
            ),
            Miss::ChainTooLong => {
                format!("more than {MAX_CHAIN} elementwise ops stand on one side of the softmax")
            }
            Miss::Overlap { op } => {
                format!("{} already belongs to another attention pattern", o(op))
            }
        }
    }
}

/// A softmax examined as the centre of an attention pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    pub softmax: OpId,
    /// The tensors visited around the softmax, whether or not the pattern matched.
    pub tensors: Vec<TensorId>,
    pub result: Result<AttentionPattern, Miss>,
}

/// Whether `func` names a softmax.
fn is_softmax(g: &Graph, o: OpId) -> bool {
    let op = g.op(o);
    op.kind.is_reduction()
        && op
            .func
            .as_deref()
            .is_some_and(|f| funcs::family(f) == FuncFamily::Softmax)
}

fn whole(u: &TensorUse) -> bool {
    u.index.is_none() && !u.transpose
}

/// An intermediate must have one consuming op and must not be a graph output.
fn private(g: &Graph, t: TensorId) -> Result<(), Miss> {
    if g.is_output(t) {
        Err(Miss::Materialized {
            tensor: t,
            output: true,
        })
    } else if g.consumers(t).len() != 1 {
        Err(Miss::Materialized {
            tensor: t,
            output: false,
        })
    } else {
        Ok(())
    }
}

/// Every softmax of the graph, in topological order, examined as an attention centre.
/// Matched patterns never share an op.
pub fn candidates(g: &Graph) -> Vec<Candidate> {
    let mut claimed = vec![false; g.ops.len()];
    let mut out = Vec::new();
    for &s in &g.topo {
        if !is_softmax(g, s) {
            continue;
        }
        let mut tensors = Vec::new();
        let mut result = examine(g, s, &mut tensors);
        if let Ok(p) = &result
            && let Some(&op) = p.ops().iter().find(|o| claimed[o.index()])
        {
            result = Err(Miss::Overlap { op });
        }
        if let Ok(p) = &result {
            for o in p.ops() {
                claimed[o.index()] = true;
            }
        }
        out.push(Candidate {
            softmax: s,
            tensors,
            result,
        });
    }
    out
}

/// The matched patterns only.
pub fn detect(g: &Graph) -> Vec<AttentionPattern> {
    candidates(g)
        .into_iter()
        .filter_map(|c| c.result.ok())
        .collect()
}

fn examine(g: &Graph, s: OpId, seen: &mut Vec<TensorId>) -> Result<AttentionPattern, Miss> {
    let sm = g.op(s);
    let [input] = sm.inputs.as_slice() else {
        return Err(Miss::SoftmaxOperands);
    };
    if !whole(input) {
        return Err(Miss::SoftmaxOperands);
    }
    let in_t = g.tensor(input.tensor);
    let rank = in_t.shape.len() as i64;
    if let Some(&(_, axis)) = sm.attrs.iter().find(|(n, _)| n == "axis")
        && axis != -1
        && axis != rank - 1
    {
        return Err(Miss::NotLastAxis { axis });
    }
    if g.tensor(sm.output).shape != in_t.shape {
        return Err(Miss::ShapeChanged);
    }

    // Backwards: softmax input → … → Q·Kᵀ.
    let mut pre = Vec::new();
    let mut t = input.tensor;
    let qk = loop {
        seen.push(t);
        private(g, t)?;
        let Some(p) = g.producer(t) else {
            return Err(Miss::NoMatmulBefore { tensor: t });
        };
        let op = g.op(p);
        match op.kind {
            // Q·Kᵀ is a matmul: a convolution before a softmax is not attention, and an
            // attention op is a FlashAttention kernel already.
            OpKind::Matmul if crate::ops::contraction::is_biased(g, p) => {
                return Err(Miss::Biased { matmul: p });
            }
            OpKind::Matmul => break p,
            OpKind::Elementwise if pre.len() < MAX_CHAIN => {
                // Follow the first whole argument of the same shape that an op produces.
                let shape = &g.tensor(op.output).shape;
                let next = op.inputs.iter().find(|u| {
                    whole(u) && g.producer(u.tensor).is_some() && &g.tensor(u.tensor).shape == shape
                });
                let Some(next) = next else {
                    return Err(Miss::NoMatmulBefore { tensor: t });
                };
                pre.push(p);
                t = next.tensor;
            }
            OpKind::Elementwise => return Err(Miss::ChainTooLong),
            _ => return Err(Miss::NoMatmulBefore { tensor: t }),
        }
    };
    pre.reverse();
    seen.reverse();

    // Forwards: softmax output → … → P·V.
    let mut post = Vec::new();
    let mut t = sm.output;
    let pv = loop {
        seen.push(t);
        // A chain that simply ends has no P·V, whether or not its last tensor is an output.
        if g.consumers(t).is_empty() {
            return Err(Miss::NoMatmulAfter { tensor: t });
        }
        private(g, t)?;
        let c = g.consumers(t)[0];
        let op = g.op(c);
        match op.kind {
            OpKind::Matmul if crate::ops::contraction::is_biased(g, c) => {
                return Err(Miss::Biased { matmul: c });
            }
            OpKind::Matmul => {
                if op.inputs.first().is_some_and(|u| u.tensor == t && whole(u))
                    && op.inputs.get(1).is_some_and(|u| u.tensor != t)
                {
                    break c;
                }
                return Err(Miss::ProbsNotFirstOperand { matmul: c });
            }
            OpKind::Elementwise if post.len() < MAX_CHAIN => {
                let whole_reads = op.inputs.iter().all(|u| u.tensor != t || whole(u));
                if !whole_reads || g.tensor(op.output).shape != g.tensor(t).shape {
                    return Err(Miss::NoMatmulAfter { tensor: t });
                }
                post.push(c);
                t = op.output;
            }
            OpKind::Elementwise => return Err(Miss::ChainTooLong),
            _ => return Err(Miss::NoMatmulAfter { tensor: t }),
        }
    };
    let (qk_op, pv_op) = (g.op(qk), g.op(pv));
    let (Some(&q), Some(&k), Some(&v)) = (
        qk_op.inputs.first(),
        qk_op.inputs.get(1),
        pv_op.inputs.get(1),
    ) else {
        return Err(Miss::NoMatmulBefore {
            tensor: input.tensor,
        });
    };
    Ok(AttentionPattern {
        qk,
        pre,
        softmax: s,
        post,
        pv,
        q,
        k,
        v,
        output: pv_op.output,
        intermediates: seen.clone(),
    })
}
