//! Block instances' arguments checked before their bodies: each tensor bound to a block input
//! must have the shape and dtype the block declares for it, and a repeated block's output the
//! type of its first input ([`Binding`], made by the expansion). A binding is checked when
//! the first op that reads its tensor inside the instance is about to be inferred (its
//! tensor's type is known by then, in topological order), else after every op. A mismatch
//! is reported at the argument (at the `repeat` for a repeated block's output) and poisons
//! the ops that read the tensor there, so that the body, which was written for another
//! type, reports nothing more about it.

use super::{Sema, fmt_shape};
use crate::diagnostics::{Code, Diagnostic};
use crate::graph::{CompactString, OpId, TensorId};
use std::ops::Range;

/// A block input bound to a tensor of the caller, or a repeat's output that must have its first
/// input's type: checked by the semantic pass before the ops of the instance that read it
/// (`crate::sema::check_expanded`).
#[derive(Clone, Debug)]
pub struct Binding {
    /// The caller's tensor, by name in the expanded graph.
    pub tensor: CompactString,
    /// The type the block declares, evaluated for this instance (`None` where unknown).
    pub shape: Option<Vec<u64>>,
    pub dtype: Option<crate::types::Dtype>,
    /// The block's `input` declaration.
    pub declared: crate::diagnostics::Span,
    /// The argument at the instantiation.
    pub argument: crate::diagnostics::Span,
    /// Index of the instance in [`Bindings::instances`].
    pub instance: usize,
    /// The block input's name (`x`), and its type as written (`[S, H]`), for messages.
    pub input: String,
    pub written: String,
    pub kind: BindingKind,
}

/// What a [`Binding`] checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BindingKind {
    /// A tensor argument of the instantiation, bound to a block input: reported at the
    /// argument.
    Argument,
    /// The first input of instance `i + 1` of a repeat, bound to instance `i`'s output: a
    /// mismatch is the repeat's [`BindingKind::Returned`] error again, not reported twice.
    Threaded,
    /// The output of a repeat's first instance (`tensor`), which must have the type of the
    /// block's first input (`shape`, `dtype`): reported at the repeat (`argument`), naming
    /// the block's output `output`, declared at `declared`.
    Returned { output: String },
}

/// An instance of a block, as the checks of its bindings need it.
#[derive(Clone, Debug)]
pub struct InstanceOps<'e> {
    pub block: &'e str,
    /// Its ops, as indices into the graph's ops in source order.
    pub ops: Range<usize>,
}

/// The bindings of an expanded graph and its instances (a binding's `instance` indexes
/// `instances`).
#[derive(Clone, Copy, Debug)]
pub struct Bindings<'e> {
    pub bindings: &'e [Binding],
    pub instances: &'e [InstanceOps<'e>],
}

/// The bindings of an expanded graph, with the ops each is checked before.
pub(super) struct Bound<'e> {
    expansion: Bindings<'e>,
    /// Each binding's tensor (`None`: its name defines nothing, reported elsewhere).
    tensors: Vec<Option<TensorId>>,
    /// The ops that read each binding's tensor where it is bound: `ops[start[b]..start[b + 1]]`.
    start: Vec<usize>,
    ops: Vec<u32>,
    /// For each op, the bindings checked before it: `checks[at[o]..at[o + 1]]`.
    at: Vec<usize>,
    checks: Vec<u32>,
    done: Vec<bool>,
}

impl<'e> Bound<'e> {
    /// Each binding's tensor, looked up while the graph's names are still indexed.
    pub(super) fn new(s: &Sema<'_, '_>, expansion: Bindings<'e>) -> Self {
        let tensors = expansion
            .bindings
            .iter()
            .map(|b| {
                s.tensor_ids
                    .get(&b.tensor, |i| s.tensors[i as usize].name.name)
                    .map(TensorId)
            })
            .collect();
        Bound {
            expansion,
            tensors,
            start: Vec::new(),
            ops: Vec::new(),
            at: Vec::new(),
            checks: Vec::new(),
            done: vec![false; expansion.bindings.len()],
        }
    }

    /// Finds the ops each binding is checked before: the consumers of its tensor inside its
    /// instance (anywhere, for a repeat's output). `consumers_of` lists a tensor's consuming
    /// ops in source order, so an instance's are found by binary search.
    pub(super) fn attach<'c>(&mut self, n_ops: usize, consumers_of: impl Fn(usize) -> &'c [OpId]) {
        let x = self.expansion;
        let mut pairs: Vec<(u32, u32)> = Vec::new();
        self.start.push(0);
        for (b, binding) in x.bindings.iter().enumerate() {
            if let Some(t) = self.tensors[b] {
                let all = consumers_of(t.index());
                let within = match &binding.kind {
                    BindingKind::Returned { .. } => all,
                    _ => {
                        let range = &x.instances[binding.instance].ops;
                        let lo = all.partition_point(|o| o.index() < range.start);
                        let hi = all.partition_point(|o| o.index() < range.end);
                        &all[lo..hi]
                    }
                };
                for o in within {
                    self.ops.push(o.0);
                    pairs.push((o.0, b as u32));
                }
            }
            self.start.push(self.ops.len());
        }
        pairs.sort_unstable();
        self.at = vec![0; n_ops + 1];
        for &(o, _) in &pairs {
            self.at[o as usize + 1] += 1;
        }
        for o in 0..n_ops {
            self.at[o + 1] += self.at[o];
        }
        self.checks = pairs.into_iter().map(|(_, b)| b).collect();
    }

    /// The bindings to check before op `o` is inferred: `self.check(k)` for each `k`.
    pub(super) fn before(&self, o: usize) -> std::ops::Range<usize> {
        match (self.at.get(o), self.at.get(o + 1)) {
            (Some(&a), Some(&b)) => a..b,
            _ => 0..0,
        }
    }

    pub(super) fn check(&self, k: usize) -> u32 {
        self.checks[k]
    }

    /// The bindings not checked yet.
    pub(super) fn unchecked(&self) -> Vec<u32> {
        (0..self.done.len() as u32)
            .filter(|&b| !self.done[b as usize])
            .collect()
    }
}

impl Sema<'_, '_> {
    /// Checks binding `b` (once): on a mismatch, reports it (a threaded input's is the
    /// repeat's, reported there) and poisons the ops that read its tensor where it is bound.
    pub(super) fn check_binding(&mut self, bound: &mut Bound<'_>, b: u32) {
        let b = b as usize;
        if std::mem::replace(&mut bound.done[b], true) {
            return;
        }
        let Some(t) = bound.tensors[b] else { return };
        let binding = &bound.expansion.bindings[b];
        let block = bound.expansion.instances[binding.instance].block;
        let tensor = &self.tensors[t.index()];
        let (Some(actual), Some(dtype)) = (tensor.shape.as_deref(), tensor.dtype) else {
            // Unknown after an error, reported where it happened.
            return;
        };
        let mut found = Vec::new();
        if let Some(shape) = &binding.shape
            && shape.as_slice() != actual
        {
            found.push(shape_mismatch(
                binding,
                block,
                tensor.name.name,
                actual,
                shape,
            ));
        }
        if let Some(declared) = binding.dtype
            && declared != dtype
        {
            found.push(dtype_mismatch(
                binding,
                block,
                tensor.name.name,
                dtype,
                declared,
            ));
        }
        // An argument of another dtype is a warning: the body is checked with it. Any other
        // mismatch is an error (a threaded input's is its repeat's).
        let is_error = match binding.kind {
            BindingKind::Argument => found.iter().any(Diagnostic::is_error),
            _ => !found.is_empty(),
        };
        if binding.kind != BindingKind::Threaded {
            self.diags.extend(found);
        }
        if is_error {
            for &o in &bound.ops[bound.start[b]..bound.start[b + 1]] {
                self.ops[o as usize].poisoned = true;
            }
        }
    }
}

/// `[S, H] = [64, 32]`, or `[64, 32]` when that is how it is written.
fn typed(written: &str, shape: &[u64]) -> String {
    let value = fmt_shape(shape);
    let dims = written.trim_start_matches(|c: char| c != '[');
    if dims == value {
        value
    } else {
        format!("{dims} = {value}")
    }
}

fn shape_mismatch(
    b: &Binding,
    block: &str,
    tensor: &str,
    actual: &[u64],
    declared: &[u64],
) -> Diagnostic {
    let input = &b.input;
    let want = typed(&b.written, declared);
    match &b.kind {
        BindingKind::Returned { output } => Diagnostic::new(
            Code::ShapeMismatch,
            format!(
                "a repeated block must return its first input's shape: `{block}`'s output \
                 `{output}` is {} but its input `{input}` is {want}",
                fmt_shape(actual)
            ),
        )
        .at(
            b.argument,
            format!("each instance's `{output}` is the next one's `{input}`"),
        )
        .with(b.declared, format!("`{output}` is {}", fmt_shape(actual)))
        .help(format!(
            "make `{output}` of shape {}, or instantiate `{block}` with `op` instead of \
             `repeat`",
            fmt_shape(declared)
        )),
        _ => Diagnostic::new(
            Code::ShapeMismatch,
            format!(
                "`{tensor}` is {} but `{block}`'s input `{input}` is {want} here",
                fmt_shape(actual)
            ),
        )
        .at(b.argument, format!("`{tensor}` is {}", fmt_shape(actual)))
        .with(b.declared, format!("`{input}` is declared here"))
        .help(format!(
            "pass a tensor of shape {}, or give the instance params that fit `{tensor}`",
            fmt_shape(declared)
        )),
    }
}

fn dtype_mismatch(
    b: &Binding,
    block: &str,
    tensor: &str,
    actual: crate::types::Dtype,
    declared: crate::types::Dtype,
) -> Diagnostic {
    let input = &b.input;
    match &b.kind {
        // An error, unlike an argument's dtype: every later instance computes in another
        // dtype than the first.
        BindingKind::Returned { output } => Diagnostic::new(
            Code::BadInstance,
            format!(
                "a repeated block must return its first input's dtype: `{block}`'s output \
                 `{output}` is {actual} but its input `{input}` is {declared}"
            ),
        )
        .at(
            b.argument,
            format!("each instance's `{output}` is the next one's `{input}`"),
        )
        .with(b.declared, format!("`{output}` is {actual}"))
        .help(format!(
            "make `{output}` {declared} (`-> {output}: {declared}[...]` on its op), or \
             instantiate `{block}` with `op` instead of `repeat`"
        )),
        _ => Diagnostic::new(
            Code::DtypeMismatch,
            format!("`{tensor}` is {actual} but `{block}`'s input `{input}` is {declared}"),
        )
        .at(b.argument, format!("`{tensor}` is {actual}"))
        .with(b.declared, format!("`{input}` is declared here"))
        .help(format!(
            "pass a {declared} tensor, or declare the block's input `{input}: {actual}[...]`"
        )),
    }
}
