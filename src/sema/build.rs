//! The end of the pass: the drafts moved into the checked [`Graph`] (tensors and ops built
//! on two threads for a large graph), or, for a graph with errors, its ops as written with
//! what is known of their outputs.

use super::{OpPart, OpSummary, PARALLEL_BUILD, Parts, TensorDraft, use_name, use_range};
use crate::graph::{Graph, OpExtra, OpNode, Tensor, TensorUse};
use crate::perf::alongside;

/// Tensor arguments as written, with the scalar constants of `extra` put back in their places.
fn with_scalars(extra: Option<&OpExtra>, tensors: impl Iterator<Item = String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut consts = extra
        .map_or(&[][..], |e| e.scalars.as_slice())
        .iter()
        .peekable();
    for t in tensors {
        while let Some((_, text)) = consts.next_if(|(at, _)| *at == out.len()) {
            out.push(text.to_string());
        }
        out.push(t);
    }
    out.extend(consts.map(|(_, t)| t.to_string()));
    out
}

impl Parts<'_> {
    /// The ops as written, for a graph with errors.
    pub(super) fn summaries(&self) -> Vec<OpSummary> {
        self.ops
            .iter()
            .enumerate()
            .map(|(o, op)| {
                let out = &self.tensors[op.output.index()];
                OpSummary {
                    name: op.name.to_string(),
                    kind: match op.kind {
                        Some(k) => k.as_str().to_string(),
                        None => self
                            .unknown_kinds
                            .binary_search_by_key(&o, |&(i, _)| i)
                            .map_or(String::new(), |i| self.unknown_kinds[i].1.to_string()),
                    },
                    func: op.func.map(str::to_string),
                    inputs: with_scalars(
                        op.extra.as_deref(),
                        use_range(&self.ops, o).map(|k| {
                            let u = &self.uses[k];
                            let mut s = use_name(k, u, &self.tensors, &self.unresolved).to_string();
                            match u.index() {
                                Some(Some(i)) => s += &format!("[{i}]"),
                                Some(None) => s += "[?]",
                                None => {}
                            }
                            if u.transpose {
                                s += ".T";
                            }
                            s
                        }),
                    ),
                    output: out.name.name.to_string(),
                    shape: out.shape.as_deref().map(<[u64]>::to_vec),
                    dtype: out.dtype,
                    bytes: out.bytes,
                }
            })
            .collect()
    }

    /// Moves the drafts into the checked graph (no copies of shapes, attributes or the
    /// consumer lists). `None` if anything is unknown, which only happens after an error.
    pub(super) fn build(self) -> Option<Graph> {
        let Parts {
            name,
            tensors: drafts,
            ops: op_parts,
            uses,
            unresolved: _,
            unknown_kinds: _,
            topo,
            outputs,
            is_output,
            consumer_start,
            consumer_list,
        } = self;
        // Collected from the drafts' own iterator: a `TensorDraft` is as large as a `Tensor`
        // (80 bytes), so the standard library writes the tensors over the drafts, in place.
        let tensors_of = |drafts: Vec<TensorDraft<'_>>| {
            drafts
                .into_iter()
                .map(|t| {
                    Some(Tensor {
                        name: t.name.name.into(),
                        shape: t.shape?,
                        dtype: t.dtype?,
                        bytes: t.bytes?,
                        origin: t.origin,
                        span: t.name.span,
                    })
                })
                .collect::<Option<Vec<Tensor>>>()
        };
        // Likewise the ops over their drafts (`OpPart` is as large as `OpNode`).
        let ops_of = |op_parts: Vec<OpPart<'_>>| {
            let mut start = 0;
            op_parts
                .into_iter()
                .map(|op| {
                    let args = &uses[start..op.uses_end];
                    start = op.uses_end;
                    let mut inputs = Vec::with_capacity(args.len());
                    for u in args {
                        inputs.push(TensorUse {
                            tensor: u.tensor()?,
                            index: match u.index() {
                                Some(i) => Some(i?),
                                None => None,
                            },
                            transpose: u.transpose,
                            span: u.span,
                        });
                    }
                    Some(OpNode {
                        name: op.name.into(),
                        kind: op.kind?,
                        func: op.func.map(Into::into),
                        inputs,
                        output: op.output,
                        attrs: op.attrs,
                        span: op.span,
                        extra: op.extra,
                    })
                })
                .collect::<Option<Vec<OpNode>>>()
        };
        // A large graph's tensors are built on a second thread while this one builds the ops
        // (each name is an allocation and a copy: ~20 ms for 200,000 tensors).
        let (tensors, ops) = alongside(
            op_parts.len() >= PARALLEL_BUILD,
            move || tensors_of(drafts),
            || ops_of(op_parts),
        );
        let (tensors, ops) = (tensors?, ops?);
        Some(Graph {
            name: name.to_string(),
            tensors,
            ops,
            outputs,
            is_output,
            consumer_start,
            consumer_list,
            topo,
        })
    }
}
