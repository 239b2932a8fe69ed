//! The checked computation graph: tensors and ops as indices into vectors, with producers,
//! consumers and a topological order. Everything after the semantic pass works on this.

use crate::diagnostics::Span;
use crate::types::{Dtype, OpKind};
pub use compact_str::CompactString;
use std::sync::Arc;

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

/// A tensor's dimensions, shared: tensors of the same shape hold one copy (the semantic pass
/// interns them, and a model written with `repeat` has a few dozen distinct shapes), so a
/// shape costs a tensor 16 bytes and no allocation of its own. It reads as a slice.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Shape(Arc<[u64]>);

impl Shape {
    pub fn as_slice(&self) -> &[u64] {
        &self.0
    }
}

impl std::ops::Deref for Shape {
    type Target = [u64];
    fn deref(&self) -> &[u64] {
        &self.0
    }
}

impl std::borrow::Borrow<[u64]> for Shape {
    fn borrow(&self) -> &[u64] {
        &self.0
    }
}

impl std::fmt::Debug for Shape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl From<Vec<u64>> for Shape {
    fn from(v: Vec<u64>) -> Shape {
        Shape(v.into())
    }
}

impl From<&[u64]> for Shape {
    fn from(v: &[u64]) -> Shape {
        Shape(v.into())
    }
}

impl PartialEq<[u64]> for Shape {
    fn eq(&self, o: &[u64]) -> bool {
        *self.0 == *o
    }
}
impl PartialEq<&[u64]> for Shape {
    fn eq(&self, o: &&[u64]) -> bool {
        *self.0 == **o
    }
}
impl PartialEq<Vec<u64>> for Shape {
    fn eq(&self, o: &Vec<u64>) -> bool {
        *self.0 == **o
    }
}
impl<const N: usize> PartialEq<[u64; N]> for Shape {
    fn eq(&self, o: &[u64; N]) -> bool {
        *self.0 == o[..]
    }
}
impl PartialEq<Shape> for Vec<u64> {
    fn eq(&self, o: &Shape) -> bool {
        **self == *o.0
    }
}
impl PartialEq<Shape> for [u64] {
    fn eq(&self, o: &Shape) -> bool {
        *self == *o.0
    }
}

/// Integer attributes of an op, in source order; shared like [`Shape`] (ops written alike
/// hold one list).
pub type IntAttrs = Arc<[(CompactString, i64)]>;

/// Names are [`CompactString`]s: one of up to 24 bytes (`layers.12345.q_proj`) is stored in
/// place of the pointer, so a million-op graph makes no allocation per name.
#[derive(Clone, Debug)]
pub struct Tensor {
    pub name: CompactString,
    pub shape: Shape,
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
    pub name: CompactString,
    pub kind: OpKind,
    pub func: Option<CompactString>,
    pub inputs: Vec<TensorUse>,
    pub output: TensorId,
    pub attrs: IntAttrs,
    pub span: Span,
    /// Scalar constants and float/list attributes; `None` for the ops that have none (most),
    /// so they cost one word. Shared like [`Shape`].
    pub extra: Option<Arc<OpExtra>>,
}

/// An attribute value that is not an integer.
#[derive(Clone, Debug, PartialEq)]
pub enum AttrValue {
    /// `eps = 1e-5`: the value and the literal as written.
    Float { value: f64, text: CompactString },
    /// `dims = [0, 2, 1, 3]`.
    List(Vec<i64>),
    /// `group = tp`: a bare identifier, for an attribute that takes one (issue 25,
    /// `crate::ops::funcs::AttrType::Name`).
    Name(CompactString),
}

/// The parts of an op beyond tensors and integer attributes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OpExtra {
    /// Scalar constants as written (`0.125`), each with its position among the op's
    /// positional arguments (tensors and constants). They are not tensors: no bytes, no edge.
    pub scalars: Vec<(usize, CompactString)>,
    /// Float and list attributes, in source order.
    pub attrs: Vec<(CompactString, AttrValue)>,
}

impl OpNode {
    /// Integer attribute `name`, if given.
    pub fn int_attr(&self, name: &str) -> Option<i64> {
        self.attrs.iter().find(|(n, _)| n == name).map(|&(_, v)| v)
    }
    /// List attribute `name`, if given.
    pub fn list_attr(&self, name: &str) -> Option<&[i64]> {
        self.extra
            .as_ref()?
            .attrs
            .iter()
            .find_map(|(n, v)| match v {
                AttrValue::List(l) if n == name => Some(l.as_slice()),
                _ => None,
            })
    }
    /// Name attribute `name` (`group = tp`), if given.
    pub fn name_attr(&self, name: &str) -> Option<&str> {
        self.extra
            .as_ref()?
            .attrs
            .iter()
            .find_map(|(n, v)| match v {
                AttrValue::Name(s) if n == name => Some(s.as_str()),
                _ => None,
            })
    }
    /// Scalar constants with their positions among the positional arguments.
    pub fn scalars(&self) -> &[(usize, CompactString)] {
        self.extra.as_ref().map_or(&[], |e| e.scalars.as_slice())
    }
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
    /// The shape an op reads through a view: `t[i]` drops the leading dim, `.T` swaps the
    /// last two.
    pub fn use_shape(&self, u: &TensorUse) -> Vec<u64> {
        let t = self.tensor(u.tensor);
        let mut shape: Vec<u64> = match u.index {
            Some(_) => t.shape.iter().skip(1).copied().collect(),
            None => t.shape.to_vec(),
        };
        let r = shape.len();
        if u.transpose && r >= 2 {
            shape.swap(r - 1, r - 2);
        }
        shape
    }
    /// Bytes of one argument: the whole tensor, or one slice of its leading dimension.
    pub fn use_bytes(&self, u: &TensorUse) -> u64 {
        let t = self.tensor(u.tensor);
        match u.index {
            Some(_) => t.bytes / t.shape.first().copied().unwrap_or(1).max(1),
            None => t.bytes,
        }
    }
    /// The positional arguments of `o` as written: tensors with their views, and scalar
    /// constants (`0.125`) in their places.
    pub fn written_inputs(&self, op: &OpNode) -> Vec<String> {
        let scalars = op.scalars();
        let mut out = Vec::with_capacity(op.inputs.len() + scalars.len());
        let (mut tensors, mut consts) = (op.inputs.iter(), scalars.iter().peekable());
        loop {
            match consts.peek() {
                Some((at, text)) if *at == out.len() => {
                    out.push(text.to_string());
                    consts.next();
                }
                _ => match tensors.next() {
                    Some(u) => out.push(self.use_name(u)),
                    // Positions past the last tensor (never made by the parser): in order.
                    None => {
                        out.extend(consts.map(|(_, t)| t.to_string()));
                        return out;
                    }
                },
            }
        }
    }
    /// An argument as written: `qkv_heads[1].T`.
    pub fn use_name(&self, u: &TensorUse) -> String {
        let mut s = self.tensor(u.tensor).name.to_string();
        if let Some(i) = u.index {
            s += &format!("[{i}]");
        }
        if u.transpose {
            s += ".T";
        }
        s
    }
}
