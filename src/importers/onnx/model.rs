//! What the importer knows of each ONNX value while it walks the graph ([`Val`]: dtype,
//! symbolic shape, and whether it is an input, a weight, a constant it can compute, a value
//! computed from shapes and constants only, or a tensor an emitted op produces), the ops it
//! emits ([`EOp`]), and the readers of the protobuf's tensors and attributes.

use super::sym::Poly;
use crate::types::Dtype;
use onnx_proto::onnx::{AttributeProto, NodeProto, TensorProto};

/// One element of a constant: an integer (possibly symbolic: a shape value) or a float.
#[derive(Clone, Debug, PartialEq)]
pub enum Num {
    I(Poly),
    F(f64),
}

impl Num {
    pub fn int(&self) -> Option<i64> {
        match self {
            Num::I(p) => p.as_const(),
            Num::F(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => Some(*f as i64),
            Num::F(_) => None,
        }
    }
    pub fn float(&self) -> Option<f64> {
        match self {
            Num::I(p) => p.as_const().map(|i| i as f64),
            Num::F(f) => Some(*f),
        }
    }
}

/// What a value is.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    /// A graph input: an `input` declaration.
    Input,
    /// An initializer whose data is not read: a `weight` declaration.
    Weight,
    /// Known elements (row-major), from a constant or folded shape arithmetic.
    Const(Vec<Num>),
    /// Computed from shapes and constants only, its elements unknown (a mask built from
    /// `Range`, `Where` and `Equal`): never computed by an emitted op; an op that reads one
    /// reads it as an `input`.
    Static,
    /// The output of an emitted op.
    Tensor,
}

/// One ONNX value.
#[derive(Clone, Debug)]
pub struct Val {
    /// The ONNX name.
    pub name: String,
    /// `None`: an element type fgraph lacks (string, u16, u32, u64, complex, ...).
    pub dtype: Option<Dtype>,
    pub onnx_dtype: i32,
    /// `None`: unknown.
    pub shape: Option<Vec<Poly>>,
    pub kind: Kind,
    /// For a weight read only by one op that wants it shaped to broadcast over channels
    /// (a convolution's bias, batch norm's statistics): the shape it is declared with.
    pub declared: Option<Vec<Poly>>,
}

impl Val {
    pub fn is_static(&self) -> bool {
        matches!(self.kind, Kind::Const(_) | Kind::Static)
    }
    pub fn rank(&self) -> Option<usize> {
        self.shape.as_ref().map(Vec::len)
    }
    pub fn consts(&self) -> Option<&[Num]> {
        match &self.kind {
            Kind::Const(v) => Some(v),
            _ => None,
        }
    }
    /// Known integer elements.
    pub fn ints(&self) -> Option<Vec<i64>> {
        self.consts()?.iter().map(Num::int).collect()
    }
    /// The one element of a constant of one element.
    pub fn scalar(&self) -> Option<&Num> {
        match self.consts() {
            Some([n]) => Some(n),
            _ => None,
        }
    }
}

/// An argument of an emitted op.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    /// A tensor (value id).
    T(usize),
    /// A tensor read with its last two dims swapped (`w.T`).
    Tt(usize),
    /// A scalar constant, as written.
    Lit(String),
}

/// An attribute of an emitted op.
#[derive(Clone, Debug, PartialEq)]
pub enum Attr {
    I(i64),
    /// An integer expression of the dynamic dimensions (a slice's end).
    P(Poly),
    Is(Vec<i64>),
    F(String),
    B(bool),
}

/// One op of the `.fgraph` output.
#[derive(Clone, Debug)]
pub struct EOp {
    /// The ONNX node it comes from.
    pub node: usize,
    /// `matmul`, `elementwise.add`, ...
    pub kind: String,
    pub args: Vec<Arg>,
    pub attrs: Vec<(&'static str, Attr)>,
    /// The value it produces.
    pub out: usize,
    /// Write the output's dtype too (a cast, a comparison).
    pub dtype: bool,
}

/// The fgraph dtype of an ONNX `TensorProto.DataType`.
pub fn dtype(code: i32) -> Option<Dtype> {
    Some(match code {
        1 => Dtype::F32,
        2 => Dtype::U8,
        3 => Dtype::I8,
        5 => Dtype::I16,
        6 => Dtype::I32,
        7 => Dtype::I64,
        9 => Dtype::Bool,
        10 => Dtype::F16,
        11 => Dtype::F64,
        16 => Dtype::Bf16,
        17 | 18 => Dtype::F8e4m3,
        19 | 20 => Dtype::F8e5m2,
        _ => return None,
    })
}

/// The ONNX name of a `TensorProto.DataType` fgraph lacks, for messages.
pub fn onnx_dtype_name(code: i32) -> String {
    match code {
        4 => "uint16".into(),
        8 => "string".into(),
        12 => "uint32".into(),
        13 => "uint64".into(),
        14 => "complex64".into(),
        15 => "complex128".into(),
        c => format!("data type {c}"),
    }
}

/// The elements of a tensor whose data the file holds, or `None` (a weight, or data too
/// large, or a type whose elements are not numbers).
pub fn tensor_elements(t: &TensorProto) -> Option<Vec<Num>> {
    let n = elements(&t.dims)?;
    if n > crate::limits::MAX_ONNX_FOLDED_ELEMENTS {
        return None;
    }
    let code = t.data_type.unwrap_or(0);
    let out: Vec<Num> = if let Some(raw) = &t.raw_data {
        let width = match code {
            1 | 6 => 4,
            7 | 11 => 8,
            2 | 3 | 9 => 1,
            5 | 10 | 16 => 2,
            _ => return None,
        };
        if raw.len() != n * width {
            return None;
        }
        raw.chunks_exact(width)
            .map(|c| match code {
                1 => Num::F(f64::from(f32::from_le_bytes([c[0], c[1], c[2], c[3]]))),
                11 => Num::F(f64::from_le_bytes(c.try_into().unwrap_or([0; 8]))),
                6 => Num::I(Poly::constant(i64::from(i32::from_le_bytes([
                    c[0], c[1], c[2], c[3],
                ])))),
                7 => Num::I(Poly::constant(i64::from_le_bytes(
                    c.try_into().unwrap_or([0; 8]),
                ))),
                2 | 9 => Num::I(Poly::constant(i64::from(c[0]))),
                3 => Num::I(Poly::constant(i64::from(c[0] as i8))),
                5 => Num::I(Poly::constant(i64::from(i16::from_le_bytes([c[0], c[1]])))),
                10 => Num::F(f16_to_f64(u16::from_le_bytes([c[0], c[1]]))),
                _ => Num::F(f64::from(f32::from_bits(
                    u32::from(u16::from_le_bytes([c[0], c[1]])) << 16,
                ))),
            })
            .collect()
    } else if !t.int64_data.is_empty() {
        t.int64_data
            .iter()
            .map(|&v| Num::I(Poly::constant(v)))
            .collect()
    } else if !t.int32_data.is_empty() {
        // int32, int16, int8, uint8, bool, and f16/bf16 bit patterns.
        t.int32_data
            .iter()
            .map(|&v| match code {
                10 => Num::F(f16_to_f64(v as u16)),
                16 => Num::F(f64::from(f32::from_bits((v as u32) << 16))),
                _ => Num::I(Poly::constant(i64::from(v))),
            })
            .collect()
    } else if !t.float_data.is_empty() {
        t.float_data.iter().map(|&v| Num::F(f64::from(v))).collect()
    } else if !t.double_data.is_empty() {
        t.double_data.iter().map(|&v| Num::F(v)).collect()
    } else if n == 0 {
        Vec::new()
    } else {
        return None;
    };
    (out.len() == n).then_some(out)
}

fn f16_to_f64(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = i32::from((h >> 10) & 0x1f);
    let frac = f64::from(h & 0x3ff);
    match exp {
        0 => sign * frac * 2f64.powi(-24),
        31 if frac == 0.0 => sign * f64::INFINITY,
        31 => f64::NAN,
        e => sign * (1.0 + frac / 1024.0) * 2f64.powi(e - 15),
    }
}

/// The element count of `dims`, if every dim is non-negative and the count fits.
pub fn elements(dims: &[i64]) -> Option<usize> {
    dims.iter().try_fold(1usize, |a, &d| {
        usize::try_from(d).ok().and_then(|d| a.checked_mul(d))
    })
}

/// A name or string of the file as messages and comments show it: printable ASCII only
/// (anything else, line breaks and escapes included, as `?`), at most `max` characters.
pub fn shown(s: &str, max: usize) -> String {
    let mut out: String = s
        .chars()
        .take(max)
        .map(|c| {
            if c == ' ' || c.is_ascii_graphic() {
                c
            } else {
                '?'
            }
        })
        .collect();
    if s.chars().nth(max).is_some() {
        out.push_str("...");
    }
    out
}

/// An attribute of a node by name.
pub fn attr<'n>(node: &'n NodeProto, name: &str) -> Option<&'n AttributeProto> {
    node.attribute
        .iter()
        .find(|a| a.name.as_deref() == Some(name))
}

pub fn attr_i(node: &NodeProto, name: &str) -> Option<i64> {
    attr(node, name).and_then(|a| a.i)
}

pub fn attr_f(node: &NodeProto, name: &str) -> Option<f32> {
    attr(node, name).and_then(|a| a.f)
}

pub fn attr_ints<'n>(node: &'n NodeProto, name: &str) -> Option<&'n [i64]> {
    attr(node, name).map(|a| a.ints.as_slice())
}

pub fn attr_s(node: &NodeProto, name: &str) -> Option<String> {
    attr(node, name)
        .and_then(|a| a.s.as_ref())
        .map(|s| String::from_utf8_lossy(s).into_owned())
}

/// A float as an `.fgraph` literal (shortest form that reads back as the same `f32` when the
/// tensor is single precision): `1e-5`, `0.5`, `3.0`. `None` for NaN and infinities, which
/// the language cannot write.
pub fn float_literal(v: f64, single: bool) -> Option<String> {
    if !v.is_finite() {
        return None;
    }
    Some(if single {
        format!("{:?}", v as f32)
    } else {
        format!("{v:?}")
    })
}

/// A repeated run of emitted ops, written as one block and a `repeat`: `count` instances of
/// `len` ops from op `start` (found by `super::repeat`).
#[derive(Clone, Debug)]
pub struct Layers {
    pub start: usize,
    pub len: usize,
    pub count: usize,
    /// The block's name (and the repeat's).
    pub name: String,
    /// The value the first instance reads from before the run (the block's first input).
    pub carry_in: usize,
    /// Which op of an instance produces its output (relative to the instance's first op).
    pub out_rel: usize,
    /// Values every instance reads that are made outside the run (block inputs after the
    /// carry, in order).
    pub shared: Vec<usize>,
    /// The first instance's own weights, with the name each has inside the block.
    pub weights: Vec<(usize, String)>,
    /// Values that live inside the block: every instance's own weights and every value an op
    /// of the run produces.
    pub inside: std::collections::HashSet<usize>,
    /// Dynamic dimensions the block uses (its header params).
    pub dims: Vec<u32>,
    /// How many of the instance's weights are named as the next instance's but for one part
    /// (the layer's number): how well the instances line up with the model's own layers.
    pub aligned: usize,
}

impl Layers {
    /// The output of the last instance (the repeat's output).
    pub fn last_out(&self, ops: &[EOp]) -> usize {
        ops[self.start + (self.count - 1) * self.len + self.out_rel].out
    }
}
