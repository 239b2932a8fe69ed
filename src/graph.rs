//! The checked computation graph: tensors and ops as indices into vectors, with producers,
//! consumers and a topological order. Everything after the semantic pass works on this.

use crate::diagnostics::Span;
use crate::types::{Dtype, OpKind};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TensorId(pub u32);
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct OpId(pub u32);

impl TensorId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}
impl OpId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Where a tensor comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    Input,
    Weight,
    Produced(OpId),
}

#[derive(Clone, Debug)]
pub struct Tensor {
    pub name: String,
    pub shape: Vec<u64>,
    pub dtype: Dtype,
    /// `product(shape) * dtype.bytes()`, checked when the graph was built.
    pub bytes: u64,
    pub origin: Origin,
    /// Where it is declared or produced (empty for graphs built without source).
    pub span: Span,
}

/// One tensor argument of an op: the whole tensor, or slice `index` of its leading dimension,
/// optionally transposed. Views exist for shape checking and accounting; they are not ops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TensorUse {
    pub tensor: TensorId,
    pub index: Option<u64>,
    pub transpose: bool,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct OpNode {
    pub name: String,
    pub kind: OpKind,
    pub func: Option<String>,
    pub inputs: Vec<TensorUse>,
    pub output: TensorId,
    pub attrs: Vec<(String, i64)>,
    pub span: Span,
}

impl OpNode {
    /// `kind.func` as written.
    pub fn kind_func(&self) -> String {
        match &self.func {
            Some(f) => format!("{}.{f}", self.kind),
            None => self.kind.to_string(),
        }
    }
}

#[derive(Clone, Debug)]
pub struct Graph {
    pub name: String,
    pub tensors: Vec<Tensor>,
    /// Ops in source order; `OpId` indexes this.
    pub ops: Vec<OpNode>,
    /// Graph outputs, as named by `output` or implied (SPEC §1).
    pub outputs: Vec<TensorId>,
    pub(crate) is_output: Vec<bool>,
    /// Consumers of tensor `t` are `consumer_list[consumer_start[t]..consumer_start[t + 1]]`,
    /// each op once, in source order.
    pub(crate) consumer_start: Vec<usize>,
    pub(crate) consumer_list: Vec<OpId>,
    /// Kahn's order, ties broken by source position.
    pub topo: Vec<OpId>,
}

impl Graph {
    pub fn tensor(&self, t: TensorId) -> &Tensor {
        &self.tensors[t.index()]
    }
    pub fn op(&self, o: OpId) -> &OpNode {
        &self.ops[o.index()]
    }
    pub fn is_output(&self, t: TensorId) -> bool {
        self.is_output[t.index()]
    }
    /// The op that produces `t`, if any.
    pub fn producer(&self, t: TensorId) -> Option<OpId> {
        match self.tensor(t).origin {
            Origin::Produced(o) => Some(o),
            _ => None,
        }
    }
    /// The distinct ops that read `t`, in source order.
    pub fn consumers(&self, t: TensorId) -> &[OpId] {
        let i = t.index();
        &self.consumer_list[self.consumer_start[i]..self.consumer_start[i + 1]]
    }
    /// The distinct producers of `o`'s inputs, in argument order.
    pub fn predecessors(&self, o: OpId) -> Vec<OpId> {
        let mut out: Vec<OpId> = Vec::new();
        for u in &self.op(o).inputs {
            if let Some(p) = self.producer(u.tensor)
                && !out.contains(&p)
            {
                out.push(p);
            }
        }
        out
    }
    /// The ops that read `o`'s output.
    pub fn successors(&self, o: OpId) -> &[OpId] {
        self.consumers(self.op(o).output)
    }
    /// Bytes of one argument: the whole tensor, or one slice of its leading dimension.
    pub fn use_bytes(&self, u: &TensorUse) -> u64 {
        let t = self.tensor(u.tensor);
        match u.index {
            Some(_) => t.bytes / t.shape.first().copied().unwrap_or(1).max(1),
            None => t.bytes,
        }
    }
    /// An argument as written: `qkv_heads[1].T`.
    pub fn use_name(&self, u: &TensorUse) -> String {
        let mut s = self.tensor(u.tensor).name.clone();
        if let Some(i) = u.index {
            s += &format!("[{i}]");
        }
        if u.transpose {
            s += ".T";
        }
        s
    }
}
