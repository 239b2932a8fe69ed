//! The row of `attention(q, k, v, causal = true, window = W, scale = s)` (issue 23): PyTorch's
//! `scaled_dot_product_attention` as one FlashAttention kernel. `q` is `[..., H_q, S_q, D]`,
//! `k` `[..., H_kv, S_k, D]`, `v` `[..., H_kv, S_k, D_v]` (SDPA's layout), `H_kv` dividing
//! `H_q` (grouped-query heads as `enable_gqa` takes them: no copy of `k` or `v`); the output
//! is `[..., H_q, S_q, D_v]` (`sema::attention` infers it). A fourth tensor is SDPA's
//! `attn_mask` (boolean, or added to the scores), broadcast to `[..., H_q, S_q, S_k]`: the
//! kernel visits every pair (a mask does not say which it may skip) and adds it to each score.
//!
//! It fuses as the FlashAttention kernel of the three-op pattern does under
//! `--flash-attention` (`crate::fusion::flash`): a contraction, which starts its kernel, holds
//! no second matmul and no reduction after it, and takes the epilogues `--matmul-epilogue`
//! allows. FLOPs: `2·D` (scores) `+ 2·D_v` (P·V) `+ 5` (the softmax, as `reduction.softmax`
//! counts per element) per (query, key) pair the mask keeps, per batch element and q-head:
//! every pair without `causal`, [`unmasked_pairs`] with it (FlashAttention's alignment, the
//! same rule as the softmax's `causal` and `window`), and 1 more per pair with a mask tensor
//! (its add). Compulsory bytes: `q`, `k`, `v` (and the mask) read once each (`k` and `v`
//! once, not once per q-head), the output written once.
//!
//! [`split_kv`] says where PyTorch's cuDNN kernel runs a decode step as a split over the keys
//! with a second kernel combining the splits (the hardware model prices and counts it).

use super::funcs::{self, AttrSpec, AttrType, attr};
use super::{Arity, Compute, FlopArgs, FlopSource, FuseClass, OpSpec, output, whole};
use crate::fusion::flash::unmasked_pairs;
use crate::graph::{CompactString, Graph, OpNode};
use crate::types::OpKind;

/// `scale`: the factor of the scores, only informative (it costs nothing: the kernel folds it
/// into its exponentials).
pub const SCALE: AttrSpec = attr(
    "scale",
    AttrType::Float {
        min: 0.0,
        max: 1e6,
        min_inclusive: false,
    },
    "the factor the scores are multiplied by, more than 0 and at most 10^6 (default 1/sqrt(D)); \
     it does not change the cost",
);

pub const ATTENTION: OpSpec = OpSpec {
    kind: OpKind::Attention,
    class: FuseClass::Contraction,
    compute: Compute::TensorCores,
    arity: Arity {
        min: 3,
        max: 4,
        text: "3 or 4 tensors",
        help: "attention takes queries, keys and values, and optionally a mask: `attention(q, k, \
               v, causal = true)` or `attention(q, k, v, mask)`",
    },
    attrs: &[funcs::CAUSAL, funcs::WINDOW, SCALE],
    injective: false,
    cheap_to_recompute: false,
    accepts_copies: false,
    partial_reads: false,
    flops,
    read: whole,
    write: output,
};

/// The FLOPs of one (query, key) pair besides the two products: the softmax's, as
/// `reduction.softmax` counts them per element (max, subtract, exp, sum, divide).
pub const SOFTMAX_PER_PAIR: u64 = 5;

/// An attention op's sizes: `batch` (batch elements times q-heads), `sq` queries, `sk` keys,
/// head dims `d` (q and k) and `dv` (v), and the pairs its mask keeps per batch element and
/// head.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dims {
    pub batch: u64,
    pub sq: u64,
    pub sk: u64,
    pub d: u64,
    pub dv: u64,
    /// `causal = true` was stated; `window` with it.
    pub causal: bool,
    pub window: Option<u64>,
    /// A mask tensor is given (SDPA's `attn_mask`): every pair is visited, one add more each.
    pub masked: bool,
}

impl Dims {
    /// From the output's shape, `q`'s and `k`'s as read (each with whether it is read
    /// transposed), the integer attributes and whether a mask tensor is given; `None` for
    /// shapes of rank below 2 (the semantic pass reports them).
    pub fn of(
        out: &[u64],
        (q, tq): (&[u64], bool),
        (k, tk): (&[u64], bool),
        ints: &[(CompactString, i64)],
        masked: bool,
    ) -> Option<Dims> {
        let (r, rq, rk) = (out.len(), q.len(), k.len());
        if r < 2 || rq < 2 || rk < 2 {
            return None;
        }
        let int = |name: &str| ints.iter().find(|(n, _)| n == name).map(|&(_, v)| v);
        // A wrong value was reported; `causal` is on for anything but 0 (with a mask, an
        // error reported: the mask rules).
        let causal = !masked && int(funcs::CAUSAL.name).is_some_and(|c| c != 0);
        let window = int(funcs::WINDOW.name)
            .and_then(|w| u64::try_from(w).ok())
            .filter(|&w| causal && w >= 1);
        Some(Dims {
            batch: out[..r - 2]
                .iter()
                .try_fold(1u64, |a, &d| a.checked_mul(d))?,
            sq: out[r - 2],
            dv: out[r - 1],
            d: q[rq - 1 - usize::from(tq)],
            sk: k[rk - 2 + usize::from(tk)],
            causal,
            window,
            masked,
        })
    }

    /// The dims of attention op `op` of `g`.
    pub fn of_op(g: &Graph, op: &OpNode) -> Option<Dims> {
        let (q, k) = (op.inputs.first()?, op.inputs.get(1)?);
        Dims::of(
            &g.tensor(op.output).shape,
            (&g.use_shape(q), false),
            (&g.use_shape(k), false),
            &op.attrs,
            op.inputs.len() > 3,
        )
    }

    /// The (query, key) pairs computed per batch element and head.
    pub fn pairs(&self) -> u128 {
        if self.causal {
            unmasked_pairs(self.sq, self.sk, self.window)
        } else {
            u128::from(self.sq) * u128::from(self.sk)
        }
    }

    /// `per_pair` FLOPs for every pair of every batch element and head; `None` past 2^128.
    fn per_pair(&self, per_pair: u128) -> Option<u128> {
        u128::from(self.batch)
            .checked_mul(self.pairs())?
            .checked_mul(per_pair)
    }

    /// The FLOPs of the two products (`2·(D + D_v)` per pair): what the tensor cores do;
    /// `None` past 2^128 (the semantic pass reports any count past 2^64).
    pub fn matmul_flops(&self) -> Option<u128> {
        self.per_pair(2 * (u128::from(self.d) + u128::from(self.dv)))
    }

    /// Every FLOP: the products, the softmax's [`SOFTMAX_PER_PAIR`] per pair and the mask's
    /// add.
    pub fn flops(&self) -> Option<u128> {
        self.per_pair(
            2 * (u128::from(self.d) + u128::from(self.dv))
                + u128::from(SOFTMAX_PER_PAIR)
                + u128::from(self.masked),
        )
    }
}

/// The (batch, key/value head) rows of attention op `op`: the product of `k`'s dims before
/// its last two (0 when unknown).
pub fn kv_rows(g: &Graph, op: &OpNode) -> u64 {
    op.inputs.get(1).map_or(0, |k| {
        let s = g.use_shape(k);
        s[..s.len().saturating_sub(2)].iter().product()
    })
}

/// Whether PyTorch's cuDNN SDPA runs a one-query attention as a split over the keys and a
/// second kernel combining the splits (`lean_reduction_kernel`): fewer than 128 (batch, key
/// head) rows and at least 1,024 keys. Read off the H100 traces: split at 4 to 64 rows and
/// 1,024 to 32,768 keys (validation/gpu/h100-calib-h, attention-hd/decode,
/// models/hf_real/data/em4, em5), not at 128 to 512 rows nor at 64 rows and 512 keys.
pub fn split_kv(d: &Dims, kv_rows: u64) -> bool {
    d.sq == 1 && kv_rows > 0 && kv_rows < 128 && d.sk >= 1024
}

fn flops(a: &FlopArgs<'_>) -> (Option<u64>, FlopSource) {
    let n = match (a.first, a.second) {
        // Shapes of rank below 2 were reported: nothing is counted.
        (Some(q), Some(k)) => Dims::of(a.out, q, (k, false), a.ints, a.inputs > 3)
            .map_or(Some(0), |d| d.flops().and_then(|f| u64::try_from(f).ok())),
        _ => Some(0),
    };
    (n, FlopSource::Attention)
}

/// The head counts `(q, kv)` of an attention of rank 5 or more whose heads (the dimensions
/// between the batch and the last two) merge into one, as SDPA's fused kernels take them
/// (`fgraph emit torch` writes such a call in 4-D, `crate::runtime`'s strides lay its output
/// out so): q, k and v of one rank and batch, k's and v's heads equal, and each equal to q's
/// or 1 where q's are not, the 1s last (then query head `h` reads key head `h / (q / kv)`,
/// PyTorch's `enable_gqa` rule, as the broadcast does). `None` otherwise.
pub fn merged_heads(q: &[u64], k: &[u64], v: &[u64]) -> Option<(u64, u64)> {
    let r = q.len();
    if r < 5 || k.len() != r || v.len() != r || q[0] != k[0] || k[0] != v[0] {
        return None;
    }
    let (qh, kh) = (&q[1..r - 2], &k[1..r - 2]);
    if kh != &v[1..r - 2] {
        return None;
    }
    let same = qh.iter().zip(kh).take_while(|(a, b)| a == b).count();
    if kh[same..].iter().any(|&d| d != 1) {
        return None;
    }
    Some((qh.iter().product(), kh.iter().product()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dims(out: &[u64], q: &[u64], k: &[u64], ints: &[(&str, i64)]) -> Dims {
        let ints: Vec<(CompactString, i64)> = ints.iter().map(|&(n, v)| (n.into(), v)).collect();
        Dims::of(out, (q, false), (k, false), &ints, false).expect("dims")
    }

    #[test]
    fn pairs_and_flops_by_hand() {
        // Causal prefill of 4 queries against 4 keys: 1 + 2 + 3 + 4 = 10 pairs.
        let d = dims(&[1, 4, 8], &[1, 4, 8], &[1, 4, 8], &[("causal", 1)]);
        assert_eq!(d.pairs(), 10);
        assert_eq!(d.flops(), Some(10 * (2 * 8 + 2 * 8 + 5)));
        // A window of 2: 1 + 2 + 2 + 2.
        let d = dims(
            &[1, 4, 8],
            &[1, 4, 8],
            &[1, 4, 8],
            &[("causal", 1), ("window", 2)],
        );
        assert_eq!(d.pairs(), 7);
        // A window without causal (reported) is not applied.
        let d = dims(&[1, 4, 8], &[1, 4, 8], &[1, 4, 8], &[("window", 2)]);
        assert_eq!(d.pairs(), 16);
        // Decode: one query sees every key, causal or not.
        let d = dims(
            &[2, 32, 1, 64],
            &[2, 32, 1, 128],
            &[2, 8, 4096, 128],
            &[("causal", 1)],
        );
        assert_eq!((d.batch, d.pairs(), d.d, d.dv), (64, 4096, 128, 64));
        assert_eq!(d.matmul_flops(), Some(64 * 4096 * 2 * (128 + 64)));
        // Past 2^128: no count, no overflow.
        let big = 1 << 47;
        let d = dims(
            &[1 << 16, big, big],
            &[1 << 16, big, big],
            &[1, big, big],
            &[],
        );
        assert_eq!(d.flops(), None);
    }

    #[test]
    fn a_mask_visits_every_pair_and_adds_once_each() {
        let ints: Vec<(CompactString, i64)> = vec![("causal".into(), 1)];
        let d = Dims::of(
            &[1, 4, 8],
            (&[1, 4, 8], false),
            (&[1, 4, 8], false),
            &ints,
            true,
        )
        .expect("dims");
        assert!(!d.causal && d.masked);
        assert_eq!(d.pairs(), 16);
        assert_eq!(d.flops(), Some(16 * (2 * 8 + 2 * 8 + 5 + 1)));
    }
}
