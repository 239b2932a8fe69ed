//! What the calls are made of: tensor arguments with their views ([`Arg`]), operands with
//! scalar constants ([`Value`]), the conversions PyTorch needs (fp8 upcast, one dtype, int ids,
//! channels-last), buffers `__init__` makes (constants, masks), and Python literals.

use super::dtypes::{Operand, is_fp8, storage, torch_name};
use super::{Emitter, normalize};
use crate::emit::EmitError;
use crate::graph::{AttrValue, OpId, OpNode, TensorUse};
use crate::types::Dtype;
use std::fmt::Write;

/// A tensor argument as PyTorch reads it.
#[derive(Clone, Debug)]
pub(super) struct Arg {
    pub(super) expr: String,
    pub(super) dtype: Dtype,
    pub(super) shape: Vec<u64>,
}

impl Arg {
    pub(super) fn operand(&self) -> Operand {
        if self.shape.is_empty() {
            Operand::ZeroDim(self.dtype)
        } else {
            Operand::Tensor(self.dtype)
        }
    }
}

/// A positional operand of an elementwise op: a tensor, or a scalar constant.
#[derive(Clone, Debug)]
pub(super) enum Value {
    Tensor(Arg),
    /// The literal for Python (negative ones in parentheses) and whether it is a float.
    Scalar(String, bool),
}

impl Value {
    pub(super) fn expr(&self) -> &str {
        match self {
            Value::Tensor(a) => &a.expr,
            Value::Scalar(s, _) => s,
        }
    }
    pub(super) fn operand(&self) -> Operand {
        match self {
            Value::Tensor(a) => a.operand(),
            Value::Scalar(_, true) => Operand::Float,
            Value::Scalar(_, false) => Operand::Int,
        }
    }
}

pub(super) fn err(op: &OpNode, message: impl Into<String>) -> EmitError {
    EmitError {
        op: Some(op.name.to_string()),
        message: message.into(),
    }
}

/// A numeric literal as Python reads it: integers without leading zeros (`007` is a syntax
/// error in Python 3).
pub(super) fn py_number(text: &str) -> String {
    if text.contains(['.', 'e', 'E']) {
        return text.to_string();
    }
    let (sign, digits) = match text.strip_prefix('-') {
        Some(d) => ("-", d),
        None => ("", text),
    };
    let digits = digits.trim_start_matches('0');
    if digits.is_empty() {
        "0".into()
    } else {
        format!("{sign}{digits}")
    }
}

/// A Python tuple of integers: `(1, 2)`, `(3,)`.
pub(super) fn py_ints(v: &[i64]) -> String {
    match v {
        [x] => format!("({x},)"),
        _ => format!(
            "({})",
            v.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
        ),
    }
}

/// One value, or a tuple of one per dim: `2`, `(1, 2)`.
pub(super) fn py_int_or_tuple(v: &[i64]) -> String {
    match v {
        [x] => x.to_string(),
        _ => py_ints(v),
    }
}

/// `torch.nn.functional.gelu` → `F.gelu`, as the module imports it.
pub(super) fn short(torch: &str) -> String {
    match torch.strip_prefix("torch.nn.functional.") {
        Some(f) => format!("F.{f}"),
        None => torch.to_string(),
    }
}

/// An integer attribute, or each value of a list one: `Some(vec![..])`.
pub(super) fn ints_or_list(op: &OpNode, name: &str) -> Option<Vec<i64>> {
    op.int_attr(name)
        .map(|v| vec![v])
        .or_else(|| op.list_attr(name).map(<[i64]>::to_vec))
}

/// A number attribute as Python writes it (`eps = 1e-5`, `scale = 1`).
pub(super) fn number_attr(op: &OpNode, name: &str) -> Option<String> {
    if let Some(v) = op.int_attr(name) {
        return Some(v.to_string());
    }
    op.extra.as_ref()?.attrs.iter().find_map(|(n, v)| match v {
        AttrValue::Float { text, .. } if n == name => Some(py_number(text)),
        _ => None,
    })
}

/// The axes of `axis` (one or a list), normalised; `None` when the op has none.
pub(super) fn axes(op: &OpNode, rank: usize) -> Option<Vec<usize>> {
    let list = ints_or_list(op, "axis")?;
    Some(
        list.iter()
            .filter_map(|&a| normalize(a, rank))
            .collect::<Vec<_>>(),
    )
}

/// The single axis of `axis` (default `default`), normalised (0 for a rank-0 tensor).
pub(super) fn axis(op: &OpNode, rank: usize, default: i64) -> usize {
    normalize(op.int_attr("axis").unwrap_or(default), rank).unwrap_or(0)
}

/// The `dim` of a PyTorch call: `axis` as written (default `default`).
pub(super) fn dim_text(op: &OpNode, default: i64) -> String {
    op.int_attr("axis").unwrap_or(default).to_string()
}

/// `x[:, :, a:b]`: a slice of one axis, with `...` for the last of several.
pub(super) fn slice_expr(x: &str, axis: usize, rank: usize, range: &str) -> String {
    if axis + 1 == rank && rank > 1 {
        format!("{x}[..., {range}]")
    } else {
        let mut s = format!("{x}[");
        for _ in 0..axis {
            s.push_str(":, ");
        }
        s.push_str(range);
        s.push(']');
        s
    }
}

impl Emitter<'_> {
    /// A tensor argument with its view: `t[i]`, `.transpose(-2, -1)`.
    pub(super) fn arg(&self, u: &TensorUse) -> Arg {
        let mut expr = self.expr(u.tensor);
        if let Some(i) = u.index {
            let _ = write!(expr, "[{i}]");
        }
        if u.transpose {
            expr.push_str(".transpose(-2, -1)");
        }
        Arg {
            expr,
            dtype: self.g.tensor(u.tensor).dtype,
            shape: self.g.use_shape(u),
        }
    }

    /// Argument `k` of `op`.
    pub(super) fn input(&self, op: &OpNode, k: usize) -> Result<Arg, EmitError> {
        op.inputs
            .get(k)
            .map(|u| self.arg(u))
            .ok_or_else(|| err(op, format!("expected at least {} tensor arguments", k + 1)))
    }

    /// An argument PyTorch computes with: fp8 is upcast to bf16 (PyTorch has few fp8
    /// kernels besides copies and `torch._scaled_mm`).
    pub(super) fn computed(&self, a: Arg, notes: &mut Vec<String>) -> Arg {
        if !is_fp8(a.dtype) {
            return a;
        }
        notes.push(format!(
            "+1 kernel: PyTorch computes little in {}: `{}` is upcast to bfloat16 (approximate: \
             fgraph prices the op in fp8)",
            torch_name(a.dtype),
            a.expr
        ));
        Arg {
            expr: format!("{}.to(torch.bfloat16)", a.expr),
            dtype: Dtype::Bf16,
            shape: a.shape,
        }
    }

    /// `a` converted to `to` when its dtype differs, with a note.
    pub(super) fn converted(&self, a: Arg, to: Dtype, why: &str, notes: &mut Vec<String>) -> Arg {
        if storage(a.dtype) == storage(to) {
            return a;
        }
        notes.push(format!(
            "+1 kernel: {why}: `{}` converted to {}",
            a.expr,
            torch_name(to)
        ));
        Arg {
            expr: format!("{}.to({})", a.expr, torch_name(to)),
            dtype: to,
            shape: a.shape,
        }
    }

    /// Integer ids as PyTorch's indexing ops take them: int32 or int64.
    pub(super) fn ids(&self, a: Arg, what: &str, notes: &mut Vec<String>) -> Arg {
        if matches!(a.dtype, Dtype::I32 | Dtype::I64) {
            return a;
        }
        self.converted(
            a,
            Dtype::I64,
            &format!("{what} takes int32 or int64 ids"),
            notes,
        )
    }

    /// The positional operands of `op`: tensors and scalar constants in their places.
    pub(super) fn values(&self, op: &OpNode) -> Vec<Value> {
        let scalars = op.scalars();
        let mut out = Vec::with_capacity(op.inputs.len() + scalars.len());
        let (mut tensors, mut consts) = (op.inputs.iter(), scalars.iter().peekable());
        loop {
            match consts.peek() {
                Some((at, text)) if *at == out.len() => {
                    let lit = py_number(text);
                    let float = lit.contains(['.', 'e', 'E']);
                    let lit = if lit.starts_with('-') {
                        format!("({lit})")
                    } else {
                        lit
                    };
                    out.push(Value::Scalar(lit, float));
                    consts.next();
                }
                _ => match tensors.next() {
                    Some(u) => out.push(Value::Tensor(self.arg(u))),
                    None => {
                        for (_, text) in consts {
                            let lit = py_number(text);
                            let float = lit.contains(['.', 'e', 'E']);
                            out.push(Value::Scalar(format!("({lit})"), float));
                        }
                        return out;
                    }
                },
            }
        }
    }

    /// A scalar constant as a 0-dim tensor of `dtype`, a buffer made once in `__init__`
    /// (for the calls that take no Python number).
    pub(super) fn constant(&mut self, op: &OpNode, literal: &str, dtype: Dtype) -> Arg {
        let name = self.namer.internal("_const_", &op.name);
        let value = if dtype == Dtype::Bool {
            format!("bool({literal})")
        } else {
            literal.to_string()
        };
        let _ = writeln!(
            self.init,
            "        self.register_buffer(\"{name}\", torch.tensor({value}, dtype={}, device=device), persistent=False)",
            torch_name(dtype)
        );
        Arg {
            expr: format!("self.{name}"),
            dtype,
            shape: Vec::new(),
        }
    }

    /// A boolean mask of `[sq, sk]` made once in `__init__`: the positions hidden by a causal
    /// mask aligned to the last key (with a window), or (`keep`) the positions seen.
    pub(super) fn mask(
        &mut self,
        op: &OpNode,
        (sq, sk): (u64, u64),
        window: Option<i64>,
        keep: bool,
    ) -> String {
        let name = self.namer.internal("_mask_", &op.name);
        let w = window.map_or("None".to_string(), |w| w.to_string());
        let not = if keep { "~" } else { "" };
        let _ = writeln!(
            self.init,
            "        self.register_buffer(\"{name}\", {not}_hidden({sq}, {sk}, {w}, device), persistent=False)"
        );
        format!("self.{name}")
    }

    /// Whether an op reads the first argument of in-place op `o` after it (in the graph's
    /// order), and so sees it changed; a note says so.
    pub(super) fn late_readers(&self, o: OpId, notes: &mut Vec<String>) -> bool {
        let g = self.g;
        let Some(u) = g.op(o).inputs.first() else {
            return false;
        };
        let at = self.position[o.index()];
        let late: Vec<&str> = g
            .consumers(u.tensor)
            .iter()
            .filter(|&&c| c != o && self.position[c.index()] > at)
            .map(|&c| g.op(c).name.as_str())
            .collect();
        if late.is_empty() {
            return false;
        }
        notes.push(format!(
            "approximate: {} read{} `{}` after this op wrote into it in place",
            late.join(", "),
            if late.len() == 1 { "s" } else { "" },
            g.tensor(u.tensor).name
        ));
        true
    }

    /// `x` in the channels-last memory format, for an op with `channels_last = true`
    /// (`.contiguous(memory_format=..)` returns `x` itself, no kernel, when it already is).
    pub(super) fn channels_last_arg(&self, op: &OpNode, x: Arg, notes: &mut Vec<String>) -> Arg {
        if op.int_attr("channels_last") != Some(1) {
            return x;
        }
        let format = match x.shape.len() {
            4 => "torch.channels_last",
            5 => "torch.channels_last_3d",
            _ => {
                if !notes.iter().any(|n| n.contains("no channels-last")) {
                    notes.push(
                        "approximate: PyTorch has no channels-last format for 1-D tensors; \
                         this runs in the contiguous layout"
                            .into(),
                    );
                }
                return x;
            }
        };
        Arg {
            expr: format!("{}.contiguous(memory_format={format})", x.expr),
            ..x
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_as_python_reads_them() {
        assert_eq!(py_number("007"), "7");
        assert_eq!(py_number("-007"), "-7");
        assert_eq!(py_number("000"), "0");
        assert_eq!(py_number("0.125"), "0.125");
        assert_eq!(py_number("1e-5"), "1e-5");
        assert_eq!(py_ints(&[3]), "(3,)");
        assert_eq!(py_int_or_tuple(&[3]), "3");
        assert_eq!(py_int_or_tuple(&[1, 2]), "(1, 2)");
    }

    #[test]
    fn slices_of_one_axis() {
        assert_eq!(slice_expr("x", 0, 2, "0:4"), "x[0:4]");
        assert_eq!(slice_expr("x", 1, 3, "0:4"), "x[:, 0:4]");
        assert_eq!(slice_expr("x", 2, 3, "0:4"), "x[..., 0:4]");
        assert_eq!(slice_expr("x", 0, 1, "0:4"), "x[0:4]");
    }
}
