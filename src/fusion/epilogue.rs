//! Reduction epilogues (`--reduction-epilogue`): the elementwise work after a row reduction
//! that a fused kernel does in the same pass.
//!
//! Rule 2 of SPEC §2 ends a kernel at every reduction. Compilers that generate their own
//! reductions do better: TorchInductor emits a whole RMSNorm, LayerNorm or softmax as one
//! Triton kernel (a "persistent reduction", `torch/_inductor/codegen/triton.py`), because
//! once a row has been reduced, the ops that combine the reduced value with that row
//! (`x * rsqrt(mean(x²))`, `(x - mean) / std`, `exp(x - max) / sum`) need no other row. This
//! pass relaxes rule 2 for exactly those ops: an elementwise consumer C of a reduction R
//! joins R's kernel when C's output broadcasts into R's input shape (it works on the
//! reduced value, or on the reduced value broadcast back over R's own rows, never on a
//! larger domain). Every other rule still holds: the reduced tensor must have no other
//! consumer (rule 4, unless `--policy store`), no matmul may be in the kernel before R (rule
//! 3), and so on. Each edge fused this way is reported as a reduction epilogue with the rule
//! it overrides.

use crate::graph::{Graph, OpId};
use crate::types::OpKind;

/// Whether `small` broadcasts into `big` (numpy rules, aligned on the right, without
/// growing `big`).
fn broadcasts_into(small: &[u64], big: &[u64]) -> bool {
    small.len() <= big.len()
        && small
            .iter()
            .rev()
            .zip(big.iter().rev())
            .all(|(&s, &b)| s == b || s == 1)
}

/// Whether the edge `reduction → consumer` may stay inside one kernel as a reduction
/// epilogue.
pub fn fits(g: &Graph, reduction: OpId, consumer: OpId) -> bool {
    let (r, c) = (g.op(reduction), g.op(consumer));
    if !r.kind.is_reduction() || c.kind != OpKind::Elementwise {
        return false;
    }
    let Some(rows) = r.inputs.first() else {
        return false;
    };
    broadcasts_into(&g.tensor(c.output).shape, &g.use_shape(rows))
}

#[cfg(test)]
mod tests {
    use crate::analysis::Options;
    use crate::fusion::{FusedBy, Reason};

    fn groups(src: &str, reduction_epilogue: bool) -> (Vec<Vec<String>>, Vec<String>) {
        let opts = Options {
            fusion: crate::fusion::FusionOptions {
                reduction_epilogue,
                ..crate::fusion::FusionOptions::default()
            },
            ..Options::default()
        };
        let (a, groups) = crate::fusion::analysed(src, &opts);
        let g = &a.graph;
        let fused = a
            .plan
            .epilogues
            .iter()
            .map(|e| {
                assert_eq!(e.fused_by, FusedBy::ReductionEpilogue);
                assert_eq!(e.overrides, Some(Reason::AfterReduction));
                format!("{}→{}", g.op(e.producer).name, g.op(e.consumer).name)
            })
            .collect();
        (groups, fused)
    }

    /// RMSNorm written out: mean of squares, rsqrt, scale the row, then the weight.
    const RMSNORM: &str = "graph rms {\n  input x: [64, 256]\n  weight w: [256]\n  op sq = elementwise.mul(x, x) -> x2\n  op ms = reduction.mean(x2, axis = -1) -> m: [64, 1]\n  op rs = elementwise.rsqrt(m) -> r\n  op nx = elementwise.mul(x, r) -> n\n  op y = elementwise.mul(n, w) -> out\n}\n";

    #[test]
    fn rmsnorm_becomes_one_kernel() {
        let (g, fused) = groups(RMSNORM, false);
        assert_eq!(g, [vec!["sq", "ms"], vec!["rs", "nx", "y"]]);
        assert!(fused.is_empty());
        let (g, fused) = groups(RMSNORM, true);
        assert_eq!(g, [vec!["sq", "ms", "rs", "nx", "y"]]);
        assert_eq!(fused, ["ms→rs"]);
    }

    #[test]
    fn work_on_a_larger_domain_or_a_shared_reduced_value_stays_apart() {
        // The consumer broadcasts the row sums over a larger tensor: not an epilogue.
        let wider = "graph w {\n  input x: [64, 256]\n  input z: [4, 64, 256]\n  op s = reduction.sum(x, axis = -1) -> m: [64, 1]\n  op e = elementwise.mul(z, m) -> y\n}\n";
        let (g, fused) = groups(wider, true);
        assert_eq!(g, [vec!["s"], vec!["e"]]);
        assert!(fused.is_empty());
        // The reduced value has two readers: rule 4 still holds.
        let shared = "graph s {\n  input x: [64, 256]\n  op s = reduction.sum(x, axis = -1) -> m: [64, 1]\n  op a = elementwise.exp(m) -> y\n  op b = elementwise.neg(m) -> z\n}\n";
        let (g, fused) = groups(shared, true);
        assert_eq!(g.len(), 3);
        assert!(fused.is_empty());
        // A reduction after a matmul still cannot join it (rule 3), epilogue or not.
        let mm = "graph m {\n  input x: [64, 64]\n  weight w: [64, 64]\n  op p = matmul(x, w) -> y\n  op s = reduction.sum(y, axis = -1) -> m: [64, 1]\n  op e = elementwise.exp(m) -> z\n}\n";
        let (g, fused) = groups(mm, true);
        assert_eq!(g, [vec!["p"], vec!["s", "e"]]);
        assert_eq!(fused, ["s→e"]);
    }

    #[test]
    fn broadcasting() {
        use super::broadcasts_into;
        assert!(broadcasts_into(&[64, 1], &[64, 256]));
        assert!(broadcasts_into(&[256], &[64, 256]));
        assert!(broadcasts_into(&[64, 256], &[64, 256]));
        assert!(!broadcasts_into(&[4, 64, 256], &[64, 256]));
        assert!(!broadcasts_into(&[64, 2], &[64, 256]));
    }
}
