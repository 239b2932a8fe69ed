//! `--policy recompute` (XLA's choice): a cheap producer whose output several kernels read is
//! computed again inside each of them instead of being written once and read back.
//!
//! XLA's instruction fusion duplicates a producer into its consumers' fusions when it is
//! cheap (elementwise, broadcasts, reshapes; never a reduction or a dot) and fuses it into
//! all of its consumers or none (`xla/service/instruction_fusion.cc`: `ComputeGloballyUnfusible`
//! and `InstructionFusion::ShouldFuse`). This module decides which ops are duplicated; the
//! greedy pass ([`super::greedy`]) then places each duplicated op in its first consumer's
//! kernel (its home) and a copy, with the duplicated ops it reads, in every other consumer's
//! kernel ([`super::FusionGroup::recomputed`]). Its tensor is never written (unless it is a
//! graph output, which is never duplicated) and the copies' FLOPs are the price.
//!
//! An op `p` with output `t` is duplicated when
//! - its kind is cheap: elementwise, reshape, permute or expand;
//! - `t` is not a graph output, and no consumer of `t` is a matmul (rule 1: the copy could
//!   not join it, so `t` would be written anyway), a `gather` or an `update` (which read
//!   part of a tensor, or write into it in place);
//! - `k`, the number of kernels that read `t`, is 2 to [`MAX_COPIES`] (a consumer that is
//!   itself duplicated counts once per copy);
//! - it saves traffic: without copies, `p`'s kernel reads its inputs once (an input whose
//!   producer fuses into `p`, such as a matmul whose epilogue `p` is, costs nothing), writes
//!   `t` and the `k` kernels read it back: `Σ read + (k + 1) · |t|`. With copies, each of the
//!   `k` kernels reads every input (and an input that was fused must now be written once):
//!   `Σ k · |u| (+ |u|)`. A unary op on a graph input always passes (`2 · |t|` against
//!   `4 · |t|` for `k = 2`); an op that is a matmul's epilogue does not.
//!
//! The rule is local, so the plan it makes is checked as a whole: if its fused traffic is
//! not below the plan without copies, that plan stands ([`super::greedy`]).
//!
//! Decided in reverse topological order, so a duplicated op's producers see one reader per
//! copy, and chains of cheap ops are duplicated whole when each step pays. A copy computes at
//! most [`MAX_CLOSURE`] ops; an op whose copies would compute more is not duplicated.

use super::MatmulEpilogue;
use super::work::{Meter, Pass};
use crate::graph::{Graph, OpId, OpNode, TensorUse};
use crate::ops::FuseClass;
use crate::types::OpKind;

/// No op is computed in more kernels than this: duplication through a ladder of diamonds
/// would otherwise double at every rung.
pub const MAX_COPIES: u64 = 8;

/// Whether ops of `kind` are cheap enough to compute twice.
pub fn cheap(kind: OpKind) -> bool {
    crate::ops::spec(kind).cheap_to_recompute
}

/// TorchInductor's `realize_reads_threshold` (`torch/_inductor/config.py`): a pointwise value
/// with several readers that reads more tensors than this is stored instead of inlined.
pub const INLINE_MAX_READS: usize = 4;

/// The most ops one copy computes (its op and the duplicated ops it reads).
pub const MAX_CLOSURE: u64 = 64;

/// The arguments of `op` that read a tensor for the first time, in order (a set for a long
/// argument list, not a scan of the earlier arguments per argument).
fn first_uses(op: &OpNode) -> impl Iterator<Item = &TensorUse> {
    let mut seen = std::collections::HashSet::new();
    let long = op.inputs.len() > 16;
    op.inputs
        .iter()
        .enumerate()
        .filter(move |(j, u)| {
            if long {
                seen.insert(u.tensor)
            } else {
                op.inputs[..*j].iter().all(|v| v.tensor != u.tensor)
            }
        })
        .map(|(_, u)| u)
}

/// Kernels that read `p`'s output: one per copy of each consumer.
fn readers_of(g: &Graph, p: OpId, copies: &[u64]) -> u64 {
    g.consumers(g.op(p).output)
        .iter()
        .fold(0u64, |a, c| a.saturating_add(copies[c.index()]))
}

/// Whether `q`'s output, read only by `p`, stays inside `p`'s kernel when `p` is not
/// duplicated (the rules of SPEC §2 for that one edge).
fn fuses_into(g: &Graph, q: OpId, p: OpId, epilogue: MatmulEpilogue, addmm: &[bool]) -> bool {
    let t = g.op(q).output;
    if g.is_output(t) || g.consumers(t).len() != 1 {
        return false;
    }
    match g.op(q).kind.class() {
        FuseClass::Reduction | FuseClass::Collective => false,
        FuseClass::Contraction => match epilogue {
            MatmulEpilogue::Elementwise => true,
            MatmulEpilogue::Bias => super::policy::is_bias_add(g, q, p),
            MatmulEpilogue::Addmm => super::policy::is_addmm(g, q, p, addmm),
            MatmulEpilogue::None => false,
        },
        _ => true,
    }
}

/// TorchInductor's choice, op by op in topological order, of which cheap values it inlines
/// into their readers (`TensorBox.mark_reuse`, `torch/_inductor/ir.py`): a value read by
/// several ops is stored once its loads, counted through every value it inlines, are more
/// than [`INLINE_MAX_READS`] distinct tensors; a value with one reader is always inlined.
/// A value that is not cheap (a matmul, a reduction) is stored and counts as one tensor; a
/// gather counts its table and indices. So a residual stream `x + f(x)` is stored every few
/// layers and re-read in between: Llama's residual adds without biases (2, 3, 4, 5 tensors,
/// stored at 5) every fourth add, GPT-2's with a bias each (3, 5) every second add. Inductor's generated code
/// for those models (validation/gpu/models/code_probe: `triton_red_fused__fused_rms_norm_add_11`
/// to `_14` load 2 to 5 hidden tensors, the fourth stores the stream; GPT-2's `_8` and `_9`
/// alternate) and their traced times agree. Counted in distinct tensors: two slices of
/// one tensor count once, where Inductor counts each index it loads.
fn inlinable(g: &Graph) -> Vec<bool> {
    let n = g.ops.len();
    let mut ok = vec![false; n];
    // The distinct tensors each inlined value loads, kept up to one past the limit.
    let mut loads: Vec<Vec<crate::graph::TensorId>> = vec![Vec::new(); n];
    for &p in &g.topo {
        let op = g.op(p);
        // A gather (an embedding lookup) is an indirect load Inductor inlines into its readers
        // (`triton_per_fused_add_index_select_native_layer_norm_*`): its readers count its
        // table and its indices, though fgraph runs it once.
        let gather = op.kind == OpKind::Gather;
        if !(cheap(op.kind) || gather) || g.is_output(op.output) {
            continue;
        }
        let mut set: Vec<crate::graph::TensorId> = Vec::new();
        'inputs: for u in &op.inputs {
            let from: &[crate::graph::TensorId] = match g.producer(u.tensor) {
                Some(q) if ok[q.index()] || !loads[q.index()].is_empty() => &loads[q.index()],
                _ => std::slice::from_ref(&u.tensor),
            };
            for &t in from {
                if !set.contains(&t) {
                    set.push(t);
                    if set.len() > INLINE_MAX_READS {
                        break 'inputs;
                    }
                }
            }
        }
        let consumers = g.consumers(op.output);
        let several = consumers.iter().any(|&c| c != consumers[0]);
        if gather {
            loads[p.index()] = set;
        } else if !several || set.len() <= INLINE_MAX_READS {
            ok[p.index()] = true;
            loads[p.index()] = set;
        }
    }
    ok
}

/// The decision for a graph.
#[derive(Clone, Debug)]
pub(crate) struct Duplication {
    /// Whether each op is duplicated into its consumers' kernels.
    pub dup: Vec<bool>,
    /// The number of kernels that read each op's output (a duplicated consumer counts once
    /// per copy): the `materialized` test of rule 4 under this policy is `readers ≥ 2`.
    pub readers: Vec<u64>,
}

impl Duplication {
    /// `addmm`: [`super::policy::addmm_readers`] under `--matmul-epilogue addmm`.
    /// `inline`: TorchInductor's rule instead of XLA's (no traffic test; at most
    /// [`INLINE_MAX_READS`] distinct tensors loaded, counted through the values it inlines:
    /// [`inlinable`]).
    ///
    /// The traffic test reads every consumer's arguments, which spends units of `meter`;
    /// past its bound no further op is duplicated.
    pub(crate) fn choose(
        g: &Graph,
        epilogue: MatmulEpilogue,
        addmm: &[bool],
        inline: bool,
        meter: &mut Meter,
    ) -> Duplication {
        let n = g.ops.len();
        let mut dup = vec![false; n];
        let mut copies = vec![1u64; n];
        let mut readers = vec![0u64; n];
        // Whether each op reads a matmul's output: one pass over the arguments, not one per
        // producer of each op.
        let reads_matmul: Vec<bool> = if epilogue == MatmulEpilogue::Elementwise {
            Vec::new()
        } else {
            // Under `addmm`, only a consumer Inductor makes an `addmm` joins its matmul.
            g.ops
                .iter()
                .enumerate()
                .map(|(i, op)| {
                    op.inputs.iter().any(|u| {
                        g.producer(u.tensor).is_some_and(|q| {
                            g.op(q).kind.is_contraction()
                                && (epilogue != MatmulEpilogue::Addmm
                                    || super::policy::is_addmm(g, q, OpId(i as u32), addmm))
                        })
                    })
                })
                .collect()
        };
        let reads_a_matmul = |c: OpId| reads_matmul[c.index()];
        let inlinable = if inline { inlinable(g) } else { Vec::new() };
        for &p in g.topo.iter().rev() {
            let op = g.op(p);
            let t = op.output;
            let consumers = g.consumers(t);
            let k = readers_of(g, p, &copies);
            readers[p.index()] = k;
            if !cheap(op.kind)
                || g.is_output(t)
                || !(2..=MAX_COPIES).contains(&k)
                || consumers.iter().any(|&c| {
                    !crate::ops::spec(g.op(c).kind).accepts_copies
                })
                // A consumer that may join a matmul's kernel could refuse the copy when the
                // matmul takes only some epilogues.
                || (epilogue != MatmulEpilogue::Elementwise
                    && consumers.iter().any(|&c| reads_a_matmul(c)))
            {
                continue;
            }
            if inline {
                if inlinable[p.index()] {
                    dup[p.index()] = true;
                    copies[p.index()] = k;
                }
                continue;
            }
            // Bytes of `p`'s inputs without copies (read once, or nothing where the
            // producer fuses into `p`) and with them (read by each copy, and written first
            // where the producer fused into `p` before).
            let (mut without, mut with) = (0u64, 0u64);
            for u in first_uses(op) {
                let bytes = g.use_bytes(u);
                with = with.saturating_add(k.saturating_mul(bytes));
                if g.producer(u.tensor)
                    .is_some_and(|q| fuses_into(g, q, p, epilogue, addmm))
                {
                    with = with.saturating_add(bytes);
                } else {
                    without = without.saturating_add(bytes);
                }
            }
            // `t` is written once and each reader reads what it reads of it (a walk of each
            // reader's arguments: work).
            let scan: u64 = consumers.iter().map(|&c| g.op(c).inputs.len() as u64).sum();
            if !meter.spend(Pass::Greedy, scan) {
                continue;
            }
            let out = g.tensor(t).bytes;
            let read_back = consumers.iter().fold(0u64, |a, &c| {
                let op_c = g.op(c);
                let once = op_c
                    .inputs
                    .iter()
                    .filter(|u| u.tensor == t)
                    .map(|u| g.use_bytes(u))
                    .max()
                    .unwrap_or(0);
                a.saturating_add(copies[c.index()].saturating_mul(once))
            });
            let without = without.saturating_add(out).saturating_add(read_back);
            if with < without {
                dup[p.index()] = true;
                copies[p.index()] = k;
            }
        }
        // A copy computes its op and the duplicated ops it reads: at most MAX_CLOSURE of
        // them (counted with repeats through diamonds, so never under).
        let mut size = vec![0u64; n];
        let mut capped = false;
        for &p in &g.topo {
            if !dup[p.index()] {
                continue;
            }
            let mut s = 1u64;
            for u in first_uses(g.op(p)) {
                if let Some(q) = g.producer(u.tensor)
                    && dup[q.index()]
                {
                    s = s.saturating_add(size[q.index()]);
                }
            }
            if s > MAX_CLOSURE {
                dup[p.index()] = false;
                capped = true;
            } else {
                size[p.index()] = s;
            }
        }
        if capped {
            // Readers as the final choice makes them.
            for &p in g.topo.iter().rev() {
                let k = readers_of(g, p, &copies);
                readers[p.index()] = k;
                copies[p.index()] = if dup[p.index()] { k } else { 1 };
            }
        }
        Duplication { dup, readers }
    }

    /// `p` and the duplicated ops it reads, transitively: what a copy of `p` computes.
    pub(crate) fn closure(&self, g: &Graph, p: OpId, out: &mut Vec<OpId>) {
        out.clear();
        out.push(p);
        let mut seen = std::collections::HashSet::from([p]);
        let mut i = 0;
        while i < out.len() {
            let o = out[i];
            i += 1;
            for u in &g.op(o).inputs {
                if let Some(q) = g.producer(u.tensor)
                    && self.dup[q.index()]
                    && seen.insert(q)
                {
                    out.push(q);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::inlinable;

    /// A pre-norm residual stream of five layers: each `r{i}` adds a matmul's output (through
    /// a bias add `b{i}` when `bias`) to the stream, and a norm and the next add read it.
    fn stream(bias: bool) -> String {
        let mut s = String::from(
            "graph chain {\n  dtype f16\n  input x: [64, 64]\n  weight g: [64]\n  op n0 = reduction.rmsnorm(x, g, eps = 1e-5) -> h0: [64, 64]\n",
        );
        for i in 1..=5 {
            let prev = if i == 1 {
                "x".to_string()
            } else {
                format!("x{}", i - 1)
            };
            s += &format!(
                "  weight w{i}: [64, 64]\n  op m{i} = matmul(h{}, w{i}) -> y{i}\n",
                i - 1
            );
            let add = if bias {
                s += &format!(
                    "  weight c{i}: [64]\n  op b{i} = elementwise.add(y{i}, c{i}) -> z{i}\n"
                );
                format!("z{i}")
            } else {
                format!("y{i}")
            };
            s += &format!(
                "  op r{i} = elementwise.add({prev}, {add}) -> x{i}\n  op n{i} = reduction.rmsnorm(x{i}, g, eps = 1e-5) -> h{i}: [64, 64]\n"
            );
        }
        s + "  output h5\n}\n"
    }

    /// Which of `r1`..`r5` Inductor inlines into their two readers.
    fn inlined(bias: bool) -> Vec<bool> {
        let (a, _) = crate::fusion::analysed(&stream(bias), &crate::analysis::Options::default());
        let g = &a.graph;
        let ok = inlinable(g);
        (1..=5)
            .map(|i| {
                let name = format!("r{i}");
                let o = g.ops.iter().position(|op| op.name == name).expect("op");
                ok[o]
            })
            .collect()
    }

    #[test]
    fn a_residual_stream_is_stored_once_its_inlined_loads_pass_four() {
        // Without biases (Llama): r1 loads x and y1, r2 adds y2, r3 y3, r4 would load five
        // tensors and is stored; r5 loads x4 and y5 (Inductor's `_fused_rms_norm_add_11` to
        // `_14`: 2, 3, 4, 5 tensors, the fourth stores the stream).
        assert_eq!(inlined(false), [true, true, true, false, true]);
        // With a bias each (GPT-2): r1 loads x, y1 and the bias, r2 would load five and is
        // stored, and so on every second add (GPT-2's `_8` and `_9`).
        assert_eq!(inlined(true), [true, false, true, false, true]);
    }
}
