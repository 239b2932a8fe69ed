//! The layout of every tensor of a graph as a runtime holds it, op by op in topological
//! order ([`Strides::of`]), with [`Layout`]'s rules: which layout op is a view, and what
//! layout each kernel writes.
//!
//! | op | eager (PyTorch) | compile (Inductor) |
//! |---|---|---|
//! | `reshape` | a view when the input's strides admit one, else a contiguous copy | the same |
//! | `permute`, `slice`, `expand` | a view | a view |
//! | `elementwise.cast` to the input's own dtype | the input itself (`.to` returns it) | the same |
//! | other `elementwise` | dense, in the dimension order of the first full-size dense operand (`TensorIterator`) | contiguous (a Triton kernel's buffer) |
//! | `update` | the buffer written in place | the same |
//! | `conv` stated `channels_last` | channels-last (cuDNN's output in the input's memory format) | contiguous |
//! | `attention`, an attention pattern rewritten into SDPA | `[.., S, H, D]` in memory, read as `[.., H, S, D]` (SDPA's output); an `attention` of rank 5+ whose heads merge for SDPA's 4-D call (`ops::attention::merged_heads`) `[B, S, heads.., D]` | the same |
//! | anything else | contiguous | contiguous |
//!
//! Graph inputs and weights are contiguous. The views `t[i]` and `.T` an op's argument
//! names are views too ([`Strides::of_use`]).

use super::layout::Layout;
use crate::graph::{Graph, OpId, TensorId, TensorUse};
use crate::ops::funcs;
use crate::types::OpKind;

/// Which runtime's rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rules {
    Eager,
    Compile,
}

/// Every tensor's layout, and which ops compute nothing (their output is a view or the
/// input itself).
pub struct Strides {
    layouts: Vec<Layout>,
    view: Vec<bool>,
}

impl Strides {
    /// The layouts of `g` under `rules`; `sdpa(o)` says P·V matmul `o` is the output of an
    /// attention pattern rewritten into SDPA.
    pub fn of(g: &Graph, rules: Rules, sdpa: &dyn Fn(OpId) -> bool) -> Strides {
        let mut layouts: Vec<Option<Layout>> = vec![None; g.tensors.len()];
        let mut view = vec![false; g.ops.len()];
        for &o in &g.topo {
            let op = g.op(o);
            let out = g.tensor(op.output);
            let get = |u: &TensorUse, layouts: &[Option<Layout>]| -> Layout {
                use_layout(g, u, layouts[u.tensor.index()].as_ref())
            };
            let input = op.inputs.first().map(|u| get(u, &layouts));
            let (layout, is_view) = match op.kind {
                OpKind::Reshape => match input.as_ref().and_then(|l| l.view(&out.shape)) {
                    Some(v) => (v, true),
                    None => (Layout::contiguous(&out.shape), false),
                },
                OpKind::Permute => {
                    let p = input
                        .as_ref()
                        .and_then(|l| l.permute(op.list_attr("dims")?));
                    (p.unwrap_or_else(|| Layout::contiguous(&out.shape)), true)
                }
                OpKind::Slice => {
                    let step = op.int_attr("step").unwrap_or(1).max(1) as u64;
                    let axis = op.int_attr("axis").unwrap_or(0);
                    let rank = out.shape.len() as i64;
                    let d = if axis < 0 { axis + rank } else { axis };
                    let size = usize::try_from(d)
                        .ok()
                        .and_then(|d| out.shape.get(d).copied());
                    let s = input
                        .as_ref()
                        .zip(size)
                        .and_then(|(l, size)| l.slice(axis, step, size));
                    (s.unwrap_or_else(|| Layout::contiguous(&out.shape)), true)
                }
                OpKind::Expand => {
                    let e = input.as_ref().and_then(|l| l.expand(&out.shape));
                    (e.unwrap_or_else(|| Layout::contiguous(&out.shape)), true)
                }
                OpKind::Elementwise
                    if is_cast(g, o)
                        && op.inputs.len() == 1
                        && g.tensor(op.inputs[0].tensor).dtype == out.dtype =>
                {
                    match input {
                        Some(l) if l.sizes == out.shape.as_slice() => (l, true),
                        _ => (Layout::contiguous(&out.shape), false),
                    }
                }
                OpKind::Elementwise if rules == Rules::Eager => {
                    let first = op
                        .inputs
                        .iter()
                        .map(|u| get(u, &layouts))
                        .find(|l| l.sizes == out.shape.as_slice() && l.is_dense());
                    (
                        first.map_or_else(
                            || Layout::contiguous(&out.shape),
                            |l| l.dense_like(&out.shape),
                        ),
                        false,
                    )
                }
                OpKind::Update => match input {
                    Some(l) if l.sizes == out.shape.as_slice() => (l, false),
                    _ => (Layout::contiguous(&out.shape), false),
                },
                // cuDNN writes a convolution stated channels-last in that layout.
                OpKind::Conv
                    if rules == Rules::Eager && op.int_attr("channels_last") == Some(1) =>
                {
                    (Layout::channels_last(&out.shape), false)
                }
                OpKind::Attention => {
                    let shape = |i: usize| {
                        op.inputs
                            .get(i)
                            .map_or(&[][..], |u| g.tensor(u.tensor).shape.as_slice())
                    };
                    // Heads merged into one for SDPA's 4-D call (`fgraph emit torch`): the
                    // positions come before all of them in memory.
                    if crate::ops::attention::merged_heads(shape(0), shape(1), shape(2)).is_some() {
                        (positions_outside_heads(&out.shape), false)
                    } else {
                        (sdpa_output(&out.shape), false)
                    }
                }
                OpKind::Matmul if sdpa(o) => (sdpa_output(&out.shape), false),
                _ => (Layout::contiguous(&out.shape), false),
            };
            layouts[op.output.index()] = Some(layout);
            view[o.index()] = is_view;
        }
        let layouts = layouts
            .into_iter()
            .zip(&g.tensors)
            .map(|(l, t)| l.unwrap_or_else(|| Layout::contiguous(&t.shape)))
            .collect();
        Strides { layouts, view }
    }

    /// The layout of tensor `t`.
    pub fn layout(&self, t: TensorId) -> &Layout {
        &self.layouts[t.index()]
    }

    /// The layout an op reads through argument `u` (`t[i]`, `.T` applied).
    pub fn of_use(&self, g: &Graph, u: &TensorUse) -> Layout {
        use_layout(g, u, Some(&self.layouts[u.tensor.index()]))
    }

    /// Whether op `o` computes nothing: a layout op whose output is a view, or a cast to the
    /// dtype its input has.
    pub fn is_view(&self, o: OpId) -> bool {
        self.view[o.index()]
    }
}

/// Whether `o` is `elementwise.cast`.
fn is_cast(g: &Graph, o: OpId) -> bool {
    g.op(o)
        .func
        .as_deref()
        .is_some_and(|f| funcs::is(f, "cast"))
}

/// `u` read from a tensor of layout `l` (contiguous when unknown).
fn use_layout(g: &Graph, u: &TensorUse, l: Option<&Layout>) -> Layout {
    let t = g.tensor(u.tensor);
    let mut l = match l {
        Some(l) if l.sizes == t.shape.as_slice() => l.clone(),
        _ => Layout::contiguous(&t.shape),
    };
    if u.index.is_some() {
        l = l.index_leading();
    }
    if u.transpose {
        l = l.transpose_last();
    }
    l
}

/// SDPA's output `[.., H, S, D]`, laid out as `[.., S, H, D]` (the flash and cuDNN kernels
/// write each query's heads together): contiguous below rank 3.
fn sdpa_output(shape: &[u64]) -> Layout {
    let r = shape.len();
    if r < 3 {
        return Layout::contiguous(shape);
    }
    let mut physical = shape.to_vec();
    physical.swap(r - 3, r - 2);
    let mut l = Layout::contiguous(&physical);
    l.sizes.swap(r - 3, r - 2);
    l.strides.swap(r - 3, r - 2);
    l
}

/// The output `[B, heads.., S, D]` of SDPA called in 4-D over merged heads, laid out as
/// `[B, S, heads.., D]`.
fn positions_outside_heads(shape: &[u64]) -> Layout {
    let r = shape.len();
    let mut physical = shape.to_vec();
    let s = physical.remove(r - 2);
    physical.insert(1, s);
    let inner = Layout::contiguous(&physical);
    // Logical dim i (0, the heads 1..r-2, S at r-2, D at r-1) sits at physical position
    // 0, i + 1, 1, r - 1.
    let at = |i: usize| match i {
        0 => 0,
        i if i == r - 2 => 1,
        i if i == r - 1 => r - 1,
        i => i + 1,
    };
    let mut l = Layout::contiguous(shape);
    for i in 0..r {
        l.strides[i] = inner.strides[at(i)];
    }
    l
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sdpa_writes_heads_inside_positions() {
        let l = sdpa_output(&[1, 32, 2048, 128]);
        assert_eq!(l.strides, [32 * 2048 * 128, 128, 32 * 128, 1]);
        // The head merge after it is a permute and a reshape: both views.
        let at = l.permute(&[0, 2, 1, 3]).expect("permute");
        assert!(at.is_contiguous());
        assert!(at.view(&[1, 2048, 4096]).is_some());
        assert!(sdpa_output(&[4, 4]).is_contiguous());
    }

    #[test]
    fn merged_heads_write_positions_outside_every_head() {
        // SDPA over [1, 8 · 4, 1024, 64] writes [1, 1024, 32, 64]: the grouped output
        // [1, 8, 4, 1024, 64], permuted to [1, 1024, 8, 4, 64], is contiguous and its head
        // merge a view.
        let l = positions_outside_heads(&[1, 8, 4, 1024, 64]);
        assert_eq!(l.strides, [1024 * 32 * 64, 4 * 64, 64, 32 * 64, 1]);
        let at = l.permute(&[0, 3, 1, 2, 4]).expect("permute");
        assert!(at.is_contiguous());
        assert!(at.view(&[1024, 2048]).is_some());
    }

    #[test]
    fn an_eager_conv_stated_channels_last_writes_channels_last() {
        // ConvNeXt's block: a channels-last depthwise conv, its bias, the permute to NHWC
        // and a LayerNorm over C. The permute of the channels-last output is contiguous, so
        // the norm copies nothing (the profiler saw no copy; VALIDATION.md §38).
        let src = "graph g {\n  input x: f16[2, 96, 56, 56]\n  weight w: f16[96, 1, 7, 7]\n  \
                   weight b: f16[96, 1, 1]\n  weight lw: f16[96]\n  weight lb: f16[96]\n  \
                   op c = conv(x, w, padding = 3, groups = 96, channels_last = true) -> y: [2, 96, 56, 56]\n  \
                   op a = elementwise.add(y, b) -> yb\n  \
                   op p = permute(yb, dims = [0, 2, 3, 1]) -> t\n  \
                   op n = reduction.layernorm(t, lw, lb, axis = -1, eps = 1e-6) -> o\n  output o\n}\n";
        let r = crate::analysis::check_file("t.fgraph", src.as_bytes(), &Default::default());
        let a = r.graphs[0].analysis.clone().expect("analysis");
        let g = &a.graph;
        let t = |name: &str| {
            g.op(g
                .topo
                .iter()
                .copied()
                .find(|&o| g.op(o).name == name)
                .expect("op"))
                .output
        };
        let eager = Strides::of(g, Rules::Eager, &|_| false);
        assert_eq!(eager.layout(t("c")).strides, [96 * 56 * 56, 1, 56 * 96, 96]);
        assert_eq!(eager.layout(t("a")).strides, eager.layout(t("c")).strides);
        assert!(eager.layout(t("p")).is_contiguous());
        // Inductor's buffers stay contiguous, and so does a conv not stated channels-last.
        let compile = Strides::of(g, Rules::Compile, &|_| false);
        assert!(compile.layout(t("c")).is_contiguous());
        assert!(Layout::channels_last(&[4, 8]).is_contiguous());
    }
}
