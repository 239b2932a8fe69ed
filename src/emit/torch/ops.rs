//! One PyTorch call per fgraph op. [`Emitter::op`] is an exhaustive match over
//! [`OpKind`]: a kind added later does not compile until it is written here. Each arm
//! returns the call and the dtype PyTorch gives it (the module converts it where fgraph's
//! differs), with a note wherever the call is not exactly the op (an extra kernel, a
//! placeholder, a mask PyTorch applies differently).

use super::dtypes::{Operand, is_float, is_fp8, is_int, result_type, storage, torch_name};
use super::{Emitter, Stmt, normalize, py_shape};
use crate::emit::EmitError;
use crate::graph::{AttrValue, OpId, OpNode, TensorUse};
use crate::ops::funcs;
use crate::types::{Dtype, OpKind};
use std::fmt::Write;

/// A tensor argument as PyTorch reads it.
#[derive(Clone, Debug)]
struct Arg {
    expr: String,
    dtype: Dtype,
    shape: Vec<u64>,
}

impl Arg {
    fn operand(&self) -> Operand {
        if self.shape.is_empty() {
            Operand::ZeroDim(self.dtype)
        } else {
            Operand::Tensor(self.dtype)
        }
    }
}

/// A positional operand of an elementwise op: a tensor, or a scalar constant.
#[derive(Clone, Debug)]
enum Value {
    Tensor(Arg),
    /// The literal for Python (negative ones in parentheses) and whether it is a float.
    Scalar(String, bool),
}

impl Value {
    fn expr(&self) -> &str {
        match self {
            Value::Tensor(a) => &a.expr,
            Value::Scalar(s, _) => s,
        }
    }
    fn operand(&self) -> Operand {
        match self {
            Value::Tensor(a) => a.operand(),
            Value::Scalar(_, true) => Operand::Float,
            Value::Scalar(_, false) => Operand::Int,
        }
    }
}

fn err(op: &OpNode, message: impl Into<String>) -> EmitError {
    EmitError {
        op: Some(op.name.to_string()),
        message: message.into(),
    }
}

/// A numeric literal as Python reads it: integers without leading zeros (`007` is a syntax
/// error in Python 3).
fn py_number(text: &str) -> String {
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
fn py_ints(v: &[i64]) -> String {
    match v {
        [x] => format!("({x},)"),
        _ => format!(
            "({})",
            v.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
        ),
    }
}

/// One value, or a tuple of one per dim: `2`, `(1, 2)`.
fn py_int_or_tuple(v: &[i64]) -> String {
    match v {
        [x] => x.to_string(),
        _ => py_ints(v),
    }
}

/// `torch.nn.functional.gelu` → `F.gelu`, as the module imports it.
fn short(torch: &str) -> String {
    match torch.strip_prefix("torch.nn.functional.") {
        Some(f) => format!("F.{f}"),
        None => torch.to_string(),
    }
}

/// An integer attribute, or each value of a list one: `Some(vec![..])`.
fn ints_or_list(op: &OpNode, name: &str) -> Option<Vec<i64>> {
    op.int_attr(name)
        .map(|v| vec![v])
        .or_else(|| op.list_attr(name).map(<[i64]>::to_vec))
}

/// A number attribute as Python writes it (`eps = 1e-5`, `scale = 1`).
fn number_attr(op: &OpNode, name: &str) -> Option<String> {
    if let Some(v) = op.int_attr(name) {
        return Some(v.to_string());
    }
    op.extra.as_ref()?.attrs.iter().find_map(|(n, v)| match v {
        AttrValue::Float { text, .. } if n == name => Some(py_number(text)),
        _ => None,
    })
}

/// The axes of `axis` (one or a list), normalised; `None` when the op has none.
fn axes(op: &OpNode, rank: usize) -> Option<Vec<usize>> {
    let list = ints_or_list(op, "axis")?;
    Some(
        list.iter()
            .filter_map(|&a| normalize(a, rank))
            .collect::<Vec<_>>(),
    )
}

/// The single axis of `axis` (default `default`), normalised (0 for a rank-0 tensor).
fn axis(op: &OpNode, rank: usize, default: i64) -> usize {
    normalize(op.int_attr("axis").unwrap_or(default), rank).unwrap_or(0)
}

/// The `dim` of a PyTorch call: `axis` as written (default `default`).
fn dim_text(op: &OpNode, default: i64) -> String {
    op.int_attr("axis").unwrap_or(default).to_string()
}

/// `x[:, :, a:b]`: a slice of one axis, with `...` for the last of several.
fn slice_expr(x: &str, axis: usize, rank: usize, range: &str) -> String {
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
    fn arg(&self, u: &TensorUse) -> Arg {
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
    fn input(&self, op: &OpNode, k: usize) -> Result<Arg, EmitError> {
        op.inputs
            .get(k)
            .map(|u| self.arg(u))
            .ok_or_else(|| err(op, format!("expected at least {} tensor arguments", k + 1)))
    }

    /// An argument PyTorch computes with: fp8 is upcast to bf16 (PyTorch has few fp8
    /// kernels besides copies and `torch._scaled_mm`).
    fn computed(&self, a: Arg, notes: &mut Vec<String>) -> Arg {
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
    fn converted(&self, a: Arg, to: Dtype, why: &str, notes: &mut Vec<String>) -> Arg {
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
    fn ids(&self, a: Arg, what: &str, notes: &mut Vec<String>) -> Arg {
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
    fn values(&self, op: &OpNode) -> Vec<Value> {
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
    fn constant(&mut self, op: &OpNode, literal: &str, dtype: Dtype) -> Arg {
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
    fn mask(
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

    /// The statement of op `o`.
    pub(super) fn op(&mut self, o: OpId) -> Result<Stmt, EmitError> {
        let g = self.g;
        let op = g.op(o);
        let out = g.tensor(op.output);
        let out_rank = out.shape.len();
        let mut notes = Vec::new();
        let mut stmt = match op.kind {
            OpKind::Elementwise => {
                match op
                    .func
                    .as_deref()
                    .and_then(|f| funcs::find(OpKind::Elementwise, f))
                {
                    Some(f) => self.elementwise(op, f, &mut notes)?,
                    None => self.opaque(op, &mut notes)?,
                }
            }
            OpKind::Reduction => {
                match op
                    .func
                    .as_deref()
                    .and_then(|f| funcs::find(OpKind::Reduction, f))
                {
                    Some(f) => self.reduction(op, f, &mut notes)?,
                    None => self.opaque(op, &mut notes)?,
                }
            }
            OpKind::Matmul => {
                let a = self.input(op, 0)?;
                let a = self.computed(a, &mut notes);
                let b = self.input(op, 1)?;
                let b = self.computed(b, &mut notes);
                let b = self.converted(b, a.dtype, "torch.matmul takes one dtype", &mut notes);
                Stmt::call(format!("torch.matmul({}, {})", a.expr, b.expr), a.dtype)
            }
            OpKind::Reshape => {
                // A view when the strides allow it (a contiguous tensor), else a copy: as
                // PyTorch's eager `reshape` decides.
                let x = self.input(op, 0)?;
                let dims = match out_rank {
                    0 => "()".to_string(),
                    _ => out
                        .shape
                        .iter()
                        .map(u64::to_string)
                        .collect::<Vec<_>>()
                        .join(", "),
                };
                Stmt::call(format!("{}.reshape({dims})", x.expr), x.dtype)
            }
            OpKind::Slice => {
                let x = self.input(op, 0)?;
                let r = x.shape.len();
                let a = axis(op, r, 0);
                let dim = x.shape.get(a).copied().unwrap_or(1) as i64;
                let start = op.int_attr("start").unwrap_or(0);
                let end = op.int_attr("end").unwrap_or(dim);
                let step = op.int_attr("step").unwrap_or(1);
                let range = if step == 1 {
                    format!("{start}:{end}")
                } else {
                    format!("{start}:{end}:{step}")
                };
                Stmt::call(slice_expr(&x.expr, a, r, &range), x.dtype)
            }
            OpKind::Concat => {
                let args: Vec<Arg> = op.inputs.iter().map(|u| self.arg(u)).collect();
                let a = dim_text(op, 0);
                let dtype = result_type(&args.iter().map(Arg::operand).collect::<Vec<_>>());
                let list: Vec<&str> = args.iter().map(|a| a.expr.as_str()).collect();
                Stmt::call(format!("torch.cat([{}], dim={a})", list.join(", ")), dtype)
            }
            OpKind::Permute => {
                let x = self.input(op, 0)?;
                let dims = op.list_attr("dims").unwrap_or_default();
                let dims: Vec<String> = dims
                    .iter()
                    .map(|&d| normalize(d, x.shape.len()).unwrap_or(0).to_string())
                    .collect();
                Stmt::call(format!("{}.permute({})", x.expr, dims.join(", ")), x.dtype)
            }
            OpKind::Expand => {
                let x = self.input(op, 0)?;
                let dims = match out_rank {
                    0 => "()".to_string(),
                    _ => out
                        .shape
                        .iter()
                        .map(u64::to_string)
                        .collect::<Vec<_>>()
                        .join(", "),
                };
                Stmt::call(format!("{}.expand({dims})", x.expr), x.dtype)
            }
            OpKind::Gather => {
                let table = self.input(op, 0)?;
                let ids = self.input(op, 1)?;
                let ids = self.ids(ids, "indexing", &mut notes);
                let r = table.shape.len();
                let a = axis(op, r, 0);
                let call = if ids.shape.len() == 1 {
                    format!(
                        "torch.index_select({}, {}, {})",
                        table.expr,
                        dim_text(op, 0),
                        ids.expr
                    )
                } else {
                    slice_expr(&table.expr, a, r, &ids.expr)
                };
                Stmt::call(call, table.dtype)
            }
            OpKind::Update => {
                // In place: the rows written, one copy kernel; the output is the buffer.
                let cache = self.input(op, 0)?;
                let new = self.input(op, 1)?;
                let r = cache.shape.len();
                let a = axis(op, r, 0);
                let start = op.int_attr("start").unwrap_or(0);
                let rows = new.shape.get(a).copied().unwrap_or(1) as i64;
                let target = slice_expr(&cache.expr, a, r, &format!("{start}:{}", start + rows));
                if storage(new.dtype) != storage(cache.dtype) {
                    notes.push(format!(
                        "the new rows are converted to the cache's {} by the copy itself",
                        torch_name(cache.dtype)
                    ));
                }
                self.late_readers(o, &mut notes);
                let mut s = Stmt::call(cache.expr.clone(), cache.dtype);
                s.pre.push(format!("{target} = {}", new.expr));
                s
            }
            OpKind::Conv => self.conv(op, &mut notes)?,
            OpKind::Topk => {
                let x = self.input(op, 0)?;
                let x = self.computed(x, &mut notes);
                let a = dim_text(op, -1);
                let k = op.int_attr("k").unwrap_or(1);
                let largest = if op.int_attr("largest") == Some(0) {
                    ", largest=False"
                } else {
                    ""
                };
                let call = format!("torch.topk({}, {k}, dim={a}{largest})", x.expr);
                // The indices of the same call feed the `topk_indices` ops that read it.
                let readers: Vec<OpId> = g
                    .consumers(op.output)
                    .iter()
                    .copied()
                    .filter(|&c| g.op(c).kind == OpKind::TopkIndices)
                    .collect();
                match readers.iter().map(|c| self.position[c.index()]).max() {
                    None => Stmt::call(format!("{call}.values"), x.dtype),
                    Some(last) => {
                        let name = self.namer.internal("_topk_", &g.tensor(op.output).name);
                        self.topk_results.insert(op.output, name.clone());
                        let mut s = Stmt::call(format!("{name}.values"), x.dtype);
                        s.pre.push(format!("{name} = {call}"));
                        s.release = Some((last, name));
                        s
                    }
                }
            }
            OpKind::TopkIndices => {
                let values = op
                    .inputs
                    .first()
                    .ok_or_else(|| err(op, "topk_indices takes the values of a topk op"))?;
                let Some(result) = self.topk_results.get(&values.tensor) else {
                    return Err(err(
                        op,
                        format!(
                            "`{}` is not the output of a `topk` op, so no torch.topk call holds \
                             its indices",
                            g.tensor(values.tensor).name
                        ),
                    ));
                };
                notes.push("no kernel of its own: the indices of torch.topk above".into());
                Stmt::call(format!("{result}.indices"), Dtype::I64)
            }
            OpKind::Sort => {
                let x = self.input(op, 0)?;
                let x = self.computed(x, &mut notes);
                let a = dim_text(op, -1);
                let desc = if op.int_attr("descending") == Some(1) {
                    ", descending=True"
                } else {
                    ""
                };
                Stmt::call(
                    format!("torch.sort({}, dim={a}{desc}).values", x.expr),
                    x.dtype,
                )
            }
            OpKind::Argsort => {
                let x = self.input(op, 0)?;
                let x = self.computed(x, &mut notes);
                let a = dim_text(op, -1);
                let desc = if op.int_attr("descending") == Some(1) {
                    ", descending=True"
                } else {
                    ""
                };
                Stmt::call(
                    format!("torch.argsort({}, dim={a}{desc})", x.expr),
                    Dtype::I64,
                )
            }
            OpKind::IndexAdd => {
                let dest = self.input(op, 0)?;
                let ids = self.input(op, 1)?;
                let ids = self.ids(ids, "index_add", &mut notes);
                let src = self.input(op, 2)?;
                let src = self.converted(
                    src,
                    dest.dtype,
                    "index_add takes rows of the destination's dtype",
                    &mut notes,
                );
                let a = dim_text(op, 0);
                if self.late_readers(o, &mut Vec::new()) {
                    // Another op reads the destination after this one: keep it intact.
                    notes.push(format!(
                        "+1 copy: `{}` is read after this op, so the sum is made out of place \
                         (torch.index_add copies the whole destination; fgraph counts the rows \
                         touched)",
                        dest.expr
                    ));
                    Stmt::call(
                        format!(
                            "torch.index_add({}, {a}, {}, {})",
                            dest.expr, ids.expr, src.expr
                        ),
                        dest.dtype,
                    )
                } else {
                    notes.push(format!(
                        "in place: `{}` is updated (only the rows touched are read and written, \
                         as fgraph counts them)",
                        dest.expr
                    ));
                    Stmt::call(
                        format!("{}.index_add_({a}, {}, {})", dest.expr, ids.expr, src.expr),
                        dest.dtype,
                    )
                }
            }
            OpKind::Cumsum => {
                let x = self.input(op, 0)?;
                let x = self.computed(x, &mut notes);
                let a = dim_text(op, -1);
                let default = if is_float(x.dtype) {
                    x.dtype
                } else {
                    Dtype::I64
                };
                if storage(default) != storage(out.dtype) && !is_fp8(out.dtype) {
                    Stmt::call(
                        format!(
                            "torch.cumsum({}, dim={a}, dtype={})",
                            x.expr,
                            torch_name(out.dtype)
                        ),
                        out.dtype,
                    )
                } else {
                    Stmt::call(format!("torch.cumsum({}, dim={a})", x.expr), default)
                }
            }
            OpKind::OneHot => {
                let ids = self.input(op, 0)?;
                let ids = self.converted(ids, Dtype::I64, "F.one_hot takes int64 ids", &mut notes);
                let classes = op.int_attr("classes").unwrap_or(1);
                Stmt::call(format!("F.one_hot({}, {classes})", ids.expr), Dtype::I64)
            }
            OpKind::Roll => {
                let x = self.input(op, 0)?;
                let shifts = ints_or_list(op, "shifts").unwrap_or_default();
                let call = match ints_or_list(op, "dims") {
                    Some(dims) => {
                        let dims: Vec<i64> = dims
                            .iter()
                            .map(|&d| normalize(d, x.shape.len()).unwrap_or(0) as i64)
                            .collect();
                        format!(
                            "torch.roll({}, shifts={}, dims={})",
                            x.expr,
                            py_int_or_tuple(&shifts),
                            py_int_or_tuple(&dims)
                        )
                    }
                    None => format!(
                        "torch.roll({}, shifts={})",
                        x.expr,
                        py_int_or_tuple(&shifts)
                    ),
                };
                Stmt::call(call, x.dtype)
            }
            OpKind::MaxPool | OpKind::AvgPool => {
                let x = self.input(op, 0)?;
                let x = self.computed(x, &mut notes);
                let n = x.shape.len().saturating_sub(2).clamp(1, 3);
                let x = self.channels_last_arg(op, x, &mut notes);
                let which = if op.kind == OpKind::MaxPool {
                    "max"
                } else {
                    "avg"
                };
                let mut call = format!(
                    "F.{which}_pool{n}d({}, kernel_size={}",
                    x.expr,
                    py_int_or_tuple(&ints_or_list(op, "kernel").unwrap_or(vec![1]))
                );
                for name in ["stride", "padding"] {
                    if let Some(v) = ints_or_list(op, name) {
                        let _ = write!(call, ", {name}={}", py_int_or_tuple(&v));
                    }
                }
                call.push(')');
                Stmt::call(call, x.dtype)
            }
            OpKind::GlobalAvgPool | OpKind::GlobalMaxPool => {
                let x = self.input(op, 0)?;
                let x = self.computed(x, &mut notes);
                let n = x.shape.len().saturating_sub(2).clamp(1, 3);
                let x = self.channels_last_arg(op, x, &mut notes);
                let which = if op.kind == OpKind::GlobalMaxPool {
                    "max"
                } else {
                    "avg"
                };
                Stmt::call(
                    format!("F.adaptive_{which}_pool{n}d({}, 1)", x.expr),
                    x.dtype,
                )
            }
            OpKind::Attention => self.attention(op, &mut notes)?,
        };
        stmt.notes.splice(0..0, notes);
        Ok(stmt)
    }

    /// Whether an op reads the first argument of in-place op `o` after it (in the graph's
    /// order), and so sees it changed; a note says so.
    fn late_readers(&self, o: OpId, notes: &mut Vec<String>) -> bool {
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
    fn channels_last_arg(&self, op: &OpNode, x: Arg, notes: &mut Vec<String>) -> Arg {
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

    fn conv(&mut self, op: &OpNode, notes: &mut Vec<String>) -> Result<Stmt, EmitError> {
        let x = self.input(op, 0)?;
        let x = self.computed(x, notes);
        let w = self.input(op, 1)?;
        let w = self.computed(w, notes);
        let w = self.converted(w, x.dtype, "a convolution takes one dtype", notes);
        let n = x.shape.len().saturating_sub(2);
        if !(1..=3).contains(&n) {
            return Err(err(
                op,
                format!(
                    "a convolution of rank {} (PyTorch has 1-, 2- and 3-D ones)",
                    x.shape.len()
                ),
            ));
        }
        let x = self.channels_last_arg(op, x, notes);
        let w = self.channels_last_arg(op, w, notes);
        let mut call = format!("F.conv{n}d({}, {}", x.expr, w.expr);
        for name in ["stride", "padding", "dilation"] {
            if let Some(v) = ints_or_list(op, name) {
                let _ = write!(call, ", {name}={}", py_int_or_tuple(&v));
            }
        }
        if let Some(gr) = op.int_attr("groups") {
            let _ = write!(call, ", groups={gr}");
        }
        call.push(')');
        Ok(Stmt::call(call, x.dtype))
    }

    fn attention(&mut self, op: &OpNode, notes: &mut Vec<String>) -> Result<Stmt, EmitError> {
        let q = self.input(op, 0)?;
        let q = self.computed(q, notes);
        let k = self.input(op, 1)?;
        let k = self.computed(k, notes);
        let v = self.input(op, 2)?;
        let v = self.computed(v, notes);
        let k = self.converted(k, q.dtype, "SDPA takes one dtype", notes);
        let v = self.converted(v, q.dtype, "SDPA takes one dtype", notes);
        let (rq, rk) = (q.shape.len(), k.shape.len());
        if rq < 2 || rk < 2 {
            return Err(err(op, "attention needs q, k and v of rank 2 or more"));
        }
        let heads = |s: &[u64]| if s.len() >= 3 { s[s.len() - 3] } else { 1 };
        let (sq, sk) = (q.shape[rq - 2], k.shape[rk - 2]);
        let (hq, hkv) = (heads(&q.shape), heads(&k.shape));
        // Rank 2 and 3 become [1, H, S, D] (views), as SDPA's fused kernels take them.
        let lift = 4usize.saturating_sub(rq.max(rk).max(v.shape.len()));
        let up = |a: &Arg| {
            let pad = 4usize.saturating_sub(a.shape.len()).min(lift);
            match pad {
                0 => a.expr.clone(),
                p => format!("{}[{}]", a.expr, vec!["None"; p].join(", ")),
            }
        };
        let mut call = format!(
            "F.scaled_dot_product_attention({}, {}, {}",
            up(&q),
            up(&k),
            up(&v)
        );
        let causal = op.int_attr("causal") == Some(1);
        let mut remark = None;
        let window = op.int_attr("window");
        if causal {
            let all_seen = sq <= 1 && window.is_none_or(|w| w as u64 >= sk);
            if all_seen {
                remark = Some("# causal with one query: it sees every key (no mask)");
            } else if sq == sk && window.is_none() {
                call.push_str(", is_causal=True");
            } else {
                let mask = self.mask(op, (sq, sk), window, true);
                let _ = write!(call, ", attn_mask={mask}");
                notes.push(match window {
                    Some(w) => format!(
                        "approximate: PyTorch's SDPA has no sliding window: the window of {w} \
                         keys is a boolean mask, which gives the same result but runs SDPA's \
                         memory-efficient (or math) kernel over every (query, key) pair, not \
                         FlashAttention's band"
                    ),
                    None => "approximate: the causal mask aligned to the last key (fgraph's and \
                             FlashAttention's rule; PyTorch's is_causal aligns it to the first) \
                             is a boolean mask: SDPA runs its memory-efficient kernel, not \
                             FlashAttention"
                        .into(),
                });
            }
        }
        if let Some(s) = number_attr(op, "scale") {
            let _ = write!(call, ", scale={s}");
        }
        if hq != hkv {
            call.push_str(", enable_gqa=True");
        }
        call.push(')');
        if lift > 0 {
            let _ = write!(call, "[{}]", vec!["0"; lift].join(", "));
        }
        if rq.max(rk) > 4 {
            notes.push(
                "approximate: SDPA's fused kernels take 4-D [B, H, S, D] tensors; this rank runs \
                 its math fallback"
                    .into(),
            );
        }
        let mut stmt = Stmt::call(call, q.dtype);
        stmt.pre.extend(remark.map(String::from));
        Ok(stmt)
    }

    /// A function the registry does not list (cost stated with `flops = N`), or the seed's
    /// form with no function: its output is allocated, not computed.
    fn opaque(&mut self, op: &OpNode, notes: &mut Vec<String>) -> Result<Stmt, EmitError> {
        let x = self.input(op, 0)?;
        let out = self.g.tensor(op.output);
        notes.push(match &op.func {
            Some(f) => format!(
                "placeholder: opaque function `{}.{f}` has no PyTorch equivalent; its output \
                 is allocated (torch.empty), not computed, and launches no kernel",
                op.kind
            ),
            None => format!(
                "placeholder: `{}` names no function (the seed's form), so there is no PyTorch \
                 call for it; its output is allocated (torch.empty), not computed",
                op.kind
            ),
        });
        Ok(Stmt::call(
            format!(
                "torch.empty({}, dtype={}, device={}.device)",
                py_shape(&out.shape),
                torch_name(out.dtype),
                x.expr
            ),
            out.dtype,
        ))
    }

    fn elementwise(
        &mut self,
        op: &OpNode,
        f: &funcs::FuncSpec,
        notes: &mut Vec<String>,
    ) -> Result<Stmt, EmitError> {
        let out = self.g.tensor(op.output);
        let name = f.name;
        let mut vals = self.values(op);
        if !matches!(name, "cast" | "copy") {
            for v in &mut vals {
                if let Value::Tensor(a) = v {
                    *a = self.computed(a.clone(), notes);
                }
            }
        }
        let ops: Vec<Operand> = vals.iter().map(Value::operand).collect();
        let first = vals
            .iter()
            .find_map(|v| match v {
                Value::Tensor(a) => Some(a.clone()),
                Value::Scalar(..) => None,
            })
            .ok_or_else(|| err(op, "an elementwise op needs a tensor argument"))?;
        let exprs: Vec<&str> = vals.iter().map(Value::expr).collect();
        // `torch.add(a, b)`: nested for more operands; a Python operator when the first
        // operand is a number (`1.0 - x`, which PyTorch runs as one `rsub` kernel).
        let first_is_tensor = matches!(vals[0], Value::Tensor(_));
        let binary = |(function, symbol): (&str, &str), dtype: Dtype, notes: &mut Vec<String>| {
            if exprs.len() > 2 {
                notes.push(format!(
                    "+{} kernels: PyTorch's {function} takes two operands at a time",
                    exprs.len() - 2
                ));
            }
            if first_is_tensor {
                let mut acc = exprs[0].to_string();
                for e in &exprs[1..] {
                    acc = format!("torch.{function}({acc}, {e})");
                }
                Stmt::call(acc, dtype)
            } else {
                Stmt {
                    atom: false,
                    ..Stmt::call(exprs.join(&format!(" {symbol} ")), dtype)
                }
            }
        };
        let promoted = result_type(&ops);
        let stmt = match name {
            "add" => binary(("add", "+"), promoted, notes),
            "mul" => binary(("mul", "*"), promoted, notes),
            "sub" => binary(("sub", "-"), promoted, notes),
            "pow" => binary(("pow", "**"), promoted, notes),
            // fgraph's integer division rounds down (Python's `//`, torch.floor_divide).
            "div" if is_int(out.dtype) => binary(("floor_divide", "//"), promoted, notes),
            "div" => binary(
                ("div", "/"),
                if is_float(promoted) {
                    promoted
                } else {
                    Dtype::F32
                },
                notes,
            ),
            "eq" => binary(("eq", "=="), Dtype::Bool, notes),
            "ne" => binary(("ne", "!="), Dtype::Bool, notes),
            "lt" => binary(("lt", "<"), Dtype::Bool, notes),
            "le" => binary(("le", "<="), Dtype::Bool, notes),
            "gt" => binary(("gt", ">"), Dtype::Bool, notes),
            "ge" => binary(("ge", ">="), Dtype::Bool, notes),
            "min" | "max" => {
                // Tensors first (both are commutative): torch.minimum of tensors,
                // torch.clamp_max of a number.
                let (pair, clamp) = if name == "min" {
                    ("torch.minimum", "torch.clamp_max")
                } else {
                    ("torch.maximum", "torch.clamp_min")
                };
                let mut rest: Vec<&Value> = vals.iter().collect();
                rest.sort_by_key(|v| matches!(v, Value::Scalar(..)));
                let mut acc = rest[0].expr().to_string();
                for v in &rest[1..] {
                    acc = match v {
                        Value::Tensor(a) => format!("{pair}({acc}, {})", a.expr),
                        Value::Scalar(s, _) => format!("{clamp}({acc}, {s})"),
                    };
                }
                if rest.len() > 2 {
                    notes.push(format!(
                        "+{} kernels: PyTorch takes the {name} of two operands at a time",
                        rest.len() - 2
                    ));
                }
                Stmt::call(acc, promoted)
            }
            "logical_and" | "logical_or" => {
                let mut args = Vec::new();
                for v in &vals {
                    args.push(match v {
                        Value::Tensor(a) => a.expr.clone(),
                        Value::Scalar(s, _) => self.constant(op, s, first.dtype).expr,
                    });
                }
                let mut acc = args[0].clone();
                for a in &args[1..] {
                    acc = format!("torch.{name}({acc}, {a})");
                }
                Stmt::call(acc, Dtype::Bool)
            }
            "where" => {
                let cond = match &vals[0] {
                    Value::Tensor(c) if c.dtype == Dtype::Bool => c.expr.clone(),
                    Value::Tensor(c) => {
                        notes.push(format!(
                            "+1 kernel: torch.where takes a bool condition: `{}` != 0",
                            c.expr
                        ));
                        format!("({} != 0)", c.expr)
                    }
                    Value::Scalar(s, _) => self.constant(op, s, Dtype::Bool).expr,
                };
                let dtype = result_type(&ops[1..]);
                Stmt::call(
                    format!("torch.where({cond}, {}, {})", exprs[1], exprs[2]),
                    dtype,
                )
            }
            "fma" => {
                // fma(a, b, c) = a * b + c = torch.addcmul(c, a, b).
                let mut args = Vec::new();
                for v in &vals {
                    args.push(match v {
                        Value::Tensor(a) => a.expr.clone(),
                        Value::Scalar(s, _) => self.constant(op, s, first.dtype).expr,
                    });
                }
                Stmt::call(
                    format!("torch.addcmul({}, {}, {})", args[2], args[0], args[1]),
                    promoted,
                )
            }
            "batchnorm" => self.batchnorm(op, &vals, promoted, notes),
            "cast" => {
                if storage(first.dtype) == storage(out.dtype) {
                    notes.push(format!(
                        "no kernel: `{}` is {} in PyTorch already, so .to returns it",
                        first.expr,
                        torch_name(out.dtype)
                    ));
                }
                Stmt::call(
                    format!("{}.to({})", first.expr, torch_name(out.dtype)),
                    out.dtype,
                )
            }
            "copy" if storage(first.dtype) == storage(out.dtype) => {
                Stmt::call(format!("{}.clone()", first.expr), first.dtype)
            }
            "copy" => Stmt::call(
                format!("{}.to({})", first.expr, torch_name(out.dtype)),
                out.dtype,
            ),
            "fill" => {
                notes.push(
                    "approximate: fgraph's fill names no value: the output is filled with 0".into(),
                );
                Stmt::call(
                    format!(
                        "torch.full_like({}, 0, dtype={})",
                        first.expr,
                        torch_name(out.dtype)
                    ),
                    out.dtype,
                )
            }
            "isneginf" | "isinf" | "isnan" | "logical_not" => {
                Stmt::call(format!("{}({})", short(f.torch), first.expr), Dtype::Bool)
            }
            "neg" | "relu" | "abs" | "square" => {
                let dtype = if first.dtype == Dtype::Bool && name == "square" {
                    Dtype::I64
                } else {
                    first.dtype
                };
                Stmt::call(format!("{}({})", short(f.torch), first.expr), dtype)
            }
            "gelu" | "silu" | "softplus" if !is_float(first.dtype) => {
                // PyTorch has these for floats only.
                let a = self.converted(
                    first.clone(),
                    Dtype::F32,
                    &format!("{} takes floats", short(f.torch)),
                    notes,
                );
                Stmt::call(format!("{}({})", short(f.torch), a.expr), Dtype::F32)
            }
            "gelu" | "silu" | "softplus" | "exp" | "log" | "sqrt" | "rsqrt" | "sigmoid"
            | "tanh" | "reciprocal" | "sin" | "cos" | "erf" => {
                let dtype = if is_float(first.dtype) {
                    first.dtype
                } else {
                    Dtype::F32
                };
                Stmt::call(format!("{}({})", short(f.torch), first.expr), dtype)
            }
            other => {
                return Err(err(
                    op,
                    format!(
                        "elementwise.{other} is in the function registry but `fgraph emit torch` \
                         does not write it yet"
                    ),
                ));
            }
        };
        Ok(stmt)
    }

    /// Batch norm in inference form: `F.batch_norm` when mean, var, weight and bias are
    /// per-channel tensors of the input's dim 1, else its elementwise formula.
    fn batchnorm(
        &mut self,
        op: &OpNode,
        vals: &[Value],
        promoted: Dtype,
        notes: &mut Vec<String>,
    ) -> Stmt {
        let out = self.g.tensor(op.output);
        let eps = number_attr(op, "eps");
        let x = match &vals[0] {
            Value::Tensor(a) => Some(a),
            Value::Scalar(..) => None,
        };
        let per_channel = |v: &Value, x: &Arg| match v {
            Value::Tensor(a) => {
                let c = x.shape.get(1).copied();
                let trailing = x.shape.len().saturating_sub(2);
                let s: &[u64] = &a.shape;
                // [C] over [N, C]; [C, 1, .., 1] (trailing ones) over [N, C, *spatial].
                let lead = s.iter().take_while(|&&d| d == 1).count();
                let s = &s[lead.min(s.len().saturating_sub(trailing + 1))..];
                s.len() == trailing + 1 && Some(s[0]) == c && s[1..].iter().all(|&d| d == 1)
            }
            Value::Scalar(..) => false,
        };
        if let Some(x) = x
            && x.shape.len() >= 2
            && out.shape.as_slice() == x.shape.as_slice()
            && vals[1..].iter().all(|v| per_channel(v, x))
        {
            let flat = |v: &Value| match v {
                Value::Tensor(a) if a.shape.len() == 1 => a.expr.clone(),
                v => format!("{}.reshape(-1)", v.expr()),
            };
            let w = vals.get(3).map_or("None".into(), flat);
            let b = vals.get(4).map_or("None".into(), flat);
            let mut call = format!(
                "F.batch_norm({}, {}, {}, {w}, {b}, training=False",
                x.expr,
                flat(&vals[1]),
                flat(&vals[2])
            );
            if let Some(e) = eps {
                let _ = write!(call, ", eps={e}");
            }
            call.push(')');
            return Stmt::call(call, x.dtype);
        }
        let e = eps.unwrap_or_else(|| "1e-05".into());
        let mut expr = format!(
            "({} - {}) * torch.rsqrt({} + {e})",
            vals[0].expr(),
            vals[1].expr(),
            vals[2].expr()
        );
        let mut kernels = 3;
        if let Some(w) = vals.get(3) {
            let _ = write!(expr, " * {}", w.expr());
            kernels += 1;
        }
        if let Some(b) = vals.get(4) {
            let _ = write!(expr, " + {}", b.expr());
            kernels += 1;
        }
        notes.push(format!(
            "+{} kernels: batch norm in its elementwise form (its operands are not per-channel \
             tensors of the input's dim 1, as F.batch_norm takes them)",
            kernels - 1
        ));
        Stmt {
            atom: false,
            ..Stmt::call(expr, promoted)
        }
    }

    fn reduction(
        &mut self,
        op: &OpNode,
        f: &funcs::FuncSpec,
        notes: &mut Vec<String>,
    ) -> Result<Stmt, EmitError> {
        let out = self.g.tensor(op.output);
        let x = self.input(op, 0)?;
        let x = self.computed(x, notes);
        let r = x.shape.len();
        let name = f.name;
        let torch = short(f.torch);
        let stmt = match name {
            "softmax" | "log_softmax" => {
                let a = dim_text(op, -1);
                let mut input = x.expr.clone();
                if op.int_attr("causal") == Some(1) && r >= 2 {
                    let (sq, sk) = (x.shape[r - 2], x.shape[r - 1]);
                    let window = op.int_attr("window");
                    if !(sq <= 1 && window.is_none_or(|w| w as u64 >= sk)) {
                        let mask = self.mask(op, (sq, sk), window, false);
                        input = format!("{input}.masked_fill({mask}, -math.inf)");
                        notes.push(
                            "+1 kernel: the softmax's causal mask is applied by masked_fill \
                             (PyTorch's softmax takes no mask)"
                                .into(),
                        );
                    }
                }
                // `dtype=` converts inside the softmax kernel (Hugging Face's f32 softmax).
                if is_float(out.dtype) && storage(out.dtype) != storage(x.dtype) {
                    Stmt::call(
                        format!("{torch}({input}, dim={a}, dtype={})", torch_name(out.dtype)),
                        out.dtype,
                    )
                } else {
                    Stmt::call(format!("{torch}({input}, dim={a})"), x.dtype)
                }
            }
            "layernorm" | "rmsnorm" => self.norm(op, f, x, notes)?,
            "group_norm" => {
                let groups = op.int_attr("groups").unwrap_or(1);
                let c = x.shape.get(1).copied().unwrap_or(1);
                let mut call = format!("{torch}({}, {groups}", x.expr);
                for k in 1..3 {
                    match op.inputs.get(k) {
                        Some(u) => {
                            let a = self.arg(u);
                            if a.shape.as_slice() == [c] {
                                let _ = write!(call, ", {}", a.expr);
                            } else {
                                let _ = write!(call, ", {}.reshape({c})", a.expr);
                            }
                        }
                        None => call.push_str(", None"),
                    }
                }
                if let Some(e) = number_attr(op, "eps") {
                    let _ = write!(call, ", eps={e}");
                }
                call.push(')');
                Stmt::call(call, x.dtype)
            }
            "topk" => {
                let a = dim_text(op, -1);
                let k = op.int_attr("k").unwrap_or(1);
                Stmt::call(
                    format!("torch.topk({}, {k}, dim={a}).values", x.expr),
                    x.dtype,
                )
            }
            _ => self.reduce(op, f, x, notes)?,
        };
        Ok(stmt)
    }

    /// `layer_norm` and `rms_norm` over the trailing axes (a single other axis is moved to the
    /// end and back).
    fn norm(
        &mut self,
        op: &OpNode,
        f: &funcs::FuncSpec,
        x: Arg,
        notes: &mut Vec<String>,
    ) -> Result<Stmt, EmitError> {
        let r = x.shape.len();
        let torch = short(f.torch);
        let mut list = axes(op, r).unwrap_or_else(|| vec![r.saturating_sub(1)]);
        list.sort_unstable();
        let trailing = list
            .iter()
            .enumerate()
            .all(|(i, &a)| a + list.len() == r + i);
        let (input, back) = if trailing {
            (x.expr.clone(), None)
        } else if let [a] = list[..] {
            notes.push(format!(
                "+1 kernel: {torch} normalises the last dims: axis {a} is moved there (a view \
                 the norm copies) and back"
            ));
            list = vec![r - 1];
            (format!("{}.movedim({a}, -1)", x.expr), Some(a))
        } else {
            return Err(err(
                op,
                "a norm over several axes that are not the last ones has no PyTorch call",
            ));
        };
        let shape: Vec<u64> = match back {
            Some(a) => vec![x.shape[a]],
            None => list.iter().map(|&a| x.shape[a]).collect(),
        };
        let ns = py_shape(&shape);
        let numel: u64 = shape.iter().product();
        let mut call = format!("{torch}({input}, {ns}");
        let params = if f.name == "layernorm" { 2 } else { 1 };
        let mut affine = Vec::new();
        for k in 1..=params {
            match op.inputs.get(k) {
                Some(u) => {
                    let a = self.arg(u);
                    if a.shape == shape {
                        let _ = write!(call, ", {}", a.expr);
                    } else if a.shape.iter().product::<u64>() == numel {
                        let _ = write!(call, ", {}.reshape({ns})", a.expr);
                    } else {
                        call.push_str(", None");
                        affine.push((if k == 1 { "*" } else { "+" }, a.expr));
                    }
                }
                None => call.push_str(", None"),
            }
        }
        if let Some(e) = number_attr(op, "eps") {
            let _ = write!(call, ", eps={e}");
        }
        call.push(')');
        if let Some(a) = back {
            let _ = write!(call, ".movedim(-1, {a})");
        }
        if affine.is_empty() {
            return Ok(Stmt::call(call, x.dtype));
        }
        notes.push(format!(
            "+{} kernels: the norm's weight or bias is not of the normalised shape, so it is \
             applied after",
            affine.len()
        ));
        let mut expr = call;
        for (sym, a) in &affine {
            let _ = write!(expr, " {sym} {a}");
        }
        Ok(Stmt {
            atom: false,
            ..Stmt::call(expr, x.dtype)
        })
    }

    /// `sum`, `mean`, `max`, `min`, `prod`, `logsumexp`, `all`, `any`, `argmax`, `argmin` over
    /// `axis` (every axis without one), keeping the reduced dims when the output does.
    fn reduce(
        &mut self,
        op: &OpNode,
        f: &funcs::FuncSpec,
        x: Arg,
        notes: &mut Vec<String>,
    ) -> Result<Stmt, EmitError> {
        let out = self.g.tensor(op.output);
        let r = x.shape.len();
        let name = f.name;
        let torch = short(f.torch);
        let mut reduced = axes(op, r).unwrap_or_else(|| (0..r).collect());
        reduced.sort_unstable();
        reduced.dedup();
        let every = reduced.len() == r;
        let keepdim = r > 0 && out.shape.len() == r && !reduced.is_empty();
        let keep = if keepdim { ", keepdim=True" } else { "" };
        let dim = match reduced[..] {
            [a] => op.int_attr("axis").unwrap_or(a as i64).to_string(),
            _ => py_ints(&reduced.iter().map(|&a| a as i64).collect::<Vec<_>>()),
        };
        // The dtype PyTorch gives, and whether the call takes `dtype=` to give fgraph's.
        let (default, takes_dtype) = match name {
            "sum" | "prod" if !is_float(x.dtype) => (Dtype::I64, true),
            "sum" | "prod" => (x.dtype, true),
            "mean" => (x.dtype, true),
            "logsumexp" if !is_float(x.dtype) => (Dtype::F32, false),
            "all" | "any" if x.dtype == Dtype::U8 => (Dtype::U8, false),
            "all" | "any" => (Dtype::Bool, false),
            "argmax" | "argmin" => (Dtype::I64, false),
            _ => (x.dtype, false),
        };
        let input = x.expr.clone();
        let mut dtype_arg = String::new();
        let mut dtype = default;
        if name == "mean" && !is_float(x.dtype) {
            // PyTorch's mean takes floats only.
            let to = if is_float(out.dtype) {
                out.dtype
            } else {
                Dtype::F32
            };
            let _ = write!(dtype_arg, ", dtype={}", torch_name(to));
            dtype = to;
        } else if takes_dtype
            && storage(default) != storage(out.dtype)
            && !is_fp8(out.dtype)
            && (name != "mean" || is_float(out.dtype))
        {
            let _ = write!(dtype_arg, ", dtype={}", torch_name(out.dtype));
            dtype = out.dtype;
        }
        let call = match name {
            "prod" | "argmax" | "argmin" if reduced.len() > 1 && !every => {
                if name != "prod" {
                    return Err(err(
                        op,
                        format!(
                            "{name} over several axes (not all of them) has no PyTorch call: \
                             reshape the axes into one first"
                        ),
                    ));
                }
                // One axis at a time, the last first, so the others keep their places.
                notes.push(format!(
                    "+{} kernels: torch.prod reduces one axis at a time",
                    reduced.len() - 1
                ));
                let mut acc = input;
                for &a in reduced.iter().rev() {
                    acc = format!("{torch}({acc}, {a}{keep}{dtype_arg})");
                    dtype_arg.clear();
                }
                acc
            }
            _ if every && !keepdim && name != "logsumexp" => {
                format!("{torch}({input}{dtype_arg})")
            }
            "argmax" | "argmin" if every => {
                // Over every axis, kept as ones: the flat index, reshaped (a view).
                format!("{torch}({input}).reshape({})", py_shape(&out.shape))
            }
            _ => format!("{torch}({input}, dim={dim}{keep}{dtype_arg})"),
        };
        Ok(Stmt::call(call, dtype))
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
