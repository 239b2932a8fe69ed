//! The functions of `elementwise` and `reduction` ([`crate::ops::funcs`]): each its PyTorch
//! call, from the registry's `torch` column where the call is the plain one.

use super::args::{Arg, Value, axes, dim_text, err, number_attr, py_ints, short};
use super::dtypes::{Operand, is_float, is_fp8, is_int, result_type, storage, torch_name};
use super::{Emitter, Stmt, py_shape};
use crate::emit::EmitError;
use crate::graph::OpNode;
use crate::ops::funcs;
use crate::types::Dtype;
use std::fmt::Write;

impl Emitter<'_> {
    pub(super) fn elementwise(
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

    pub(super) fn reduction(
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
