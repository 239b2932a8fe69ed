//! State: the tensors an `update` writes into in place (KV caches, issue 28). A declared
//! `input` or `weight` that an `update` writes into is a cache, never a parameter; the memory
//! report (`crate::report::memory`), the ledger's `why: "cache"` and the `large-intermediate`
//! floor relative to the weights all ask [`state`].

use crate::graph::{Graph, Origin, TensorId};
use crate::types::OpKind;

/// For each tensor, whether it is state: a declared tensor an `update` writes into (a
/// cache), or an `update` output that renames one. Also the cache roots, each with the first
/// `update` axis (in the root's dims) written along.
pub fn state(g: &Graph) -> (Vec<bool>, Vec<(TensorId, usize)>) {
    let n = g.tensors.len();
    let mut root: Vec<Option<TensorId>> = vec![None; n];
    let mut is_state = vec![false; n];
    let mut roots: Vec<(TensorId, usize)> = Vec::new();
    for &o in &g.topo {
        let op = g.op(o);
        if op.kind != OpKind::Update {
            continue;
        }
        let Some(buf) = op.inputs.first() else {
            continue;
        };
        // The buffer's own root (an update of an update's output), or the buffer itself.
        let r = root[buf.tensor.index()].unwrap_or(buf.tensor);
        root[op.output.index()] = Some(r);
        let t = g.tensor(r);
        if !matches!(t.origin, Origin::Input | Origin::Weight) {
            continue;
        }
        is_state[op.output.index()] = true;
        if !is_state[r.index()] {
            is_state[r.index()] = true;
            // The axis in the buffer as read (an index view drops the leading dim).
            let rank = g.use_shape(buf).len() as i64;
            let axis = op.int_attr("axis").unwrap_or(0);
            let axis = if axis < 0 { axis + rank } else { axis };
            let axis = usize::try_from(axis).unwrap_or(0) + usize::from(buf.index.is_some());
            roots.push((r, axis.min(t.shape.len().saturating_sub(1))));
        }
    }
    (is_state, roots)
}
