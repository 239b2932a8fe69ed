//! Constant folding of the ONNX graph's shape arithmetic: `Constant`, `Shape`, `Size` of any
//! tensor whose shape is known, and every node whose inputs are all known constants or
//! values computed from shapes only (`Gather`, `Concat`, `Slice`, `Unsqueeze`, arithmetic,
//! comparisons, `Where`, `Range`, `ConstantOfShape`, `Cast`, ...). Such a node is never
//! emitted: its elements are computed when they are few and the rule is known
//! ([`Kind::Const`]), else only its shape ([`Kind::Static`]: a mask built from shapes, read by
//! the ops that use it as an input of the graph).

use super::model::{self, Kind, Num, Val};
use super::shapes;
use super::sym::Poly;
use super::walk::Imp;
use crate::limits::MAX_ONNX_FOLDED_ELEMENTS;
use onnx_proto::onnx::NodeProto;

/// Folds node `i` if it can be: `true` when it did (nothing is emitted for it).
pub fn fold(imp: &mut Imp<'_>, i: usize) -> bool {
    let node = &imp.nodes[i];
    if !matches!(node.domain.as_deref(), None | Some("") | Some("ai.onnx")) {
        return false;
    }
    let op = node.op_type.as_deref().unwrap_or("");
    let ins: Vec<Option<usize>> = node
        .input
        .iter()
        .map(|n| {
            if n.is_empty() {
                None
            } else {
                imp.by_name.get(n).copied()
            }
        })
        .collect();
    match op {
        "Constant" => return constant(imp, node),
        "Shape" => {
            let Some(Some(x)) = ins.first() else {
                return false;
            };
            let Some(shape) = imp.vals[*x].shape.clone() else {
                return false;
            };
            let r = shape.len() as i64;
            let clamp = |v: i64| (if v < 0 { v + r } else { v }).clamp(0, r) as usize;
            let start = clamp(model::attr_i(node, "start").unwrap_or(0));
            let end = clamp(model::attr_i(node, "end").unwrap_or(r));
            let vals: Vec<Num> = shape[start..end.max(start)]
                .iter()
                .cloned()
                .map(Num::I)
                .collect();
            let n = vals.len() as i64;
            imp.output(node, 0, 7, Some(vec![Poly::constant(n)]), Kind::Const(vals));
            return true;
        }
        "Size" => {
            let Some(Some(x)) = ins.first() else {
                return false;
            };
            let Some(n) = imp.vals[*x].shape.as_deref().and_then(shapes::numel) else {
                return false;
            };
            imp.output(node, 0, 7, Some(vec![]), Kind::Const(vec![Num::I(n)]));
            return true;
        }
        _ => {}
    }
    // `CastLike` reads only the dtype of its second input.
    let ins: Vec<Option<usize>> = if op == "CastLike" {
        ins.into_iter().take(1).collect()
    } else {
        ins
    };
    // Every input known, and at least one (a node of no input is a generator).
    if ins.iter().all(Option::is_none)
        || node
            .input
            .iter()
            .zip(&ins)
            .any(|(n, v)| !n.is_empty() && v.is_none())
        || ins.iter().flatten().any(|&id| !imp.vals[id].is_static())
    {
        return false;
    }
    let vals: Vec<Option<&Val>> = ins.iter().map(|v| v.map(|id| &imp.vals[id])).collect();
    if op == "Identity" {
        let id = ins[0].unwrap_or(0);
        imp.bind(node, 0, id);
        return true;
    }
    let dtype = match op {
        "CastLike" => node
            .input
            .get(1)
            .and_then(|n| imp.by_name.get(n))
            .map_or(1, |&id| imp.vals[id].onnx_dtype),
        _ => out_dtype(node, op, &vals),
    };
    let evaluated = eval(node, op, &vals);
    let results: Vec<(Option<Vec<Poly>>, Kind)> = (0..node.output.len())
        .map(|k| match (&evaluated, k) {
            (Some((shape, v)), 0) => (Some(shape.clone()), Kind::Const(v.clone())),
            (_, 0) => (static_shape(node, op, &vals), Kind::Static),
            _ => (None, Kind::Static),
        })
        .collect();
    for (k, (shape, kind)) in results.into_iter().enumerate() {
        let name = node.output[k].clone();
        let (shape, dtype) = match shape {
            Some(s) => (Some(s), dtype),
            None => match imp.info_shape(&name) {
                Some((s, d)) => (Some(s), d),
                None => (None, dtype),
            },
        };
        imp.output(node, k, dtype, shape, kind);
    }
    true
}

fn constant(imp: &mut Imp<'_>, node: &NodeProto) -> bool {
    let a = node.attribute.first();
    let (shape, vals, dtype) = match a.and_then(|a| a.name.as_deref()) {
        Some("value") => {
            let Some(t) = a.and_then(|a| a.t.as_ref()) else {
                return false;
            };
            let shape = t.dims.iter().map(|&d| Poly::constant(d)).collect();
            match model::tensor_elements(t) {
                Some(v) => (shape, Some(v), t.data_type.unwrap_or(1)),
                None => (shape, None, t.data_type.unwrap_or(1)),
            }
        }
        Some("value_float") => (
            vec![],
            a.and_then(|a| a.f).map(|f| vec![Num::F(f64::from(f))]),
            1,
        ),
        Some("value_int") => (
            vec![],
            a.and_then(|a| a.i).map(|i| vec![Num::I(Poly::constant(i))]),
            7,
        ),
        Some("value_floats") => {
            let v: Vec<Num> = a
                .map_or(&[][..], |a| &a.floats)
                .iter()
                .map(|&f| Num::F(f64::from(f)))
                .collect();
            (vec![Poly::constant(v.len() as i64)], Some(v), 1)
        }
        Some("value_ints") => {
            let v: Vec<Num> = a
                .map_or(&[][..], |a| &a.ints)
                .iter()
                .map(|&i| Num::I(Poly::constant(i)))
                .collect();
            (vec![Poly::constant(v.len() as i64)], Some(v), 7)
        }
        _ => return false,
    };
    // A large constant is data (a weight baked into the graph): declared as one.
    let kind = match vals {
        Some(v) => Kind::Const(v),
        None => Kind::Weight,
    };
    imp.output(node, 0, dtype, Some(shape), kind);
    true
}

fn out_dtype(node: &NodeProto, op: &str, vals: &[Option<&Val>]) -> i32 {
    let first = |k: usize| vals.get(k).copied().flatten().map_or(1, |v| v.onnx_dtype);
    match op {
        "Equal" | "Less" | "LessOrEqual" | "Greater" | "GreaterOrEqual" | "Not" | "And" | "Or"
        | "Xor" | "IsNaN" | "IsInf" => 9,
        "Cast" => model::attr_i(node, "to").unwrap_or(1) as i32,
        "CastLike" => first(1),
        "Where" => first(1),
        "ConstantOfShape" => model::attr(node, "value")
            .and_then(|a| a.t.as_ref())
            .and_then(|t| t.data_type)
            .unwrap_or(1),
        "ArgMax" | "ArgMin" | "NonZero" => 7,
        _ => first(0),
    }
}

fn ints(v: Option<&Val>) -> Option<Vec<i64>> {
    v?.ints()
}

/// The elements and shape of a folded node's first output, when they can be computed.
fn eval(node: &NodeProto, op: &str, vals: &[Option<&Val>]) -> Option<(Vec<Poly>, Vec<Num>)> {
    let x = vals.first().copied().flatten()?;
    let xs = x.shape.clone()?;
    let xv = x.consts();
    match op {
        "Cast" | "CastLike" => {
            let to = out_dtype(node, op, vals);
            let is_float = matches!(to, 1 | 10 | 11 | 16);
            let v = xv?
                .iter()
                .map(|n| match n {
                    Num::F(f) if !is_float => Num::I(Poly::constant(if to == 9 {
                        i64::from(*f != 0.0)
                    } else {
                        *f as i64
                    })),
                    Num::I(p) if is_float => match p.as_const() {
                        Some(c) => Num::F(c as f64),
                        None => n.clone(),
                    },
                    _ => n.clone(),
                })
                .collect();
            Some((xs, v))
        }
        "Reshape" | "Unsqueeze" | "Squeeze" | "Flatten" => {
            let shape = static_shape(node, op, vals)?;
            Some((shape, xv?.to_vec()))
        }
        "Concat" => {
            if xs.len() != 1 {
                return None;
            }
            let mut v = Vec::new();
            for x in vals.iter().flatten() {
                v.extend_from_slice(x.consts()?);
            }
            Some((vec![Poly::constant(v.len() as i64)], v))
        }
        "Gather" => {
            let data = xv?;
            if xs.len() != 1 {
                return None;
            }
            let idx = vals.get(1).copied().flatten()?;
            let n = data.len() as i64;
            let v = idx
                .ints()?
                .iter()
                .map(|&k| {
                    let k = if k < 0 { k + n } else { k };
                    data.get(usize::try_from(k).ok()?).cloned()
                })
                .collect::<Option<Vec<_>>>()?;
            Some((idx.shape.clone()?, v))
        }
        "Slice" => {
            let data = xv?;
            if xs.len() != 1 {
                return None;
            }
            let starts = ints(vals.get(1).copied().flatten())?;
            let ends = ints(vals.get(2).copied().flatten())?;
            let step = match vals.get(4).copied().flatten() {
                Some(s) => *s.ints()?.first()?,
                None => 1,
            };
            let n = Poly::constant(data.len() as i64);
            let (s, e, step) = shapes::slice_bounds(&n, *starts.first()?, *ends.first()?, step)?;
            let (s, e) = (s.as_const()? as usize, e.as_const()? as usize);
            let v: Vec<Num> = data
                .get(s..e.max(s))?
                .iter()
                .step_by(step as usize)
                .cloned()
                .collect();
            Some((vec![Poly::constant(v.len() as i64)], v))
        }
        "Range" => {
            let s = x.scalar()?.int()?;
            let l = vals.get(1).copied().flatten()?.scalar()?.int()?;
            let d = vals.get(2).copied().flatten()?.scalar()?.int()?;
            if d == 0 {
                return None;
            }
            let n = ((l - s) as f64 / d as f64).ceil().max(0.0) as usize;
            if n > MAX_ONNX_FOLDED_ELEMENTS {
                return None;
            }
            let v = (0..n as i64)
                .map(|k| Some(Num::I(Poly::constant(k.checked_mul(d)?.checked_add(s)?))))
                .collect::<Option<_>>()?;
            Some((vec![Poly::constant(n as i64)], v))
        }
        "ConstantOfShape" => {
            let shape = static_shape(node, op, vals)?;
            let n = shapes::numel(&shape)?.as_const()?;
            if !(0..=MAX_ONNX_FOLDED_ELEMENTS as i64).contains(&n) {
                return None;
            }
            let fill = model::attr(node, "value")
                .and_then(|a| a.t.as_ref())
                .and_then(model::tensor_elements)
                .and_then(|v| v.first().cloned())
                .unwrap_or(Num::F(0.0));
            Some((shape, vec![fill; n as usize]))
        }
        "Expand" => {
            let shape = static_shape(node, op, vals)?;
            let n = shapes::numel(&shape)?.as_const()?;
            let v = xv?;
            if !(0..=MAX_ONNX_FOLDED_ELEMENTS as i64).contains(&n) {
                return None;
            }
            match v {
                [one] => Some((shape, vec![one.clone(); n as usize])),
                _ if v.len() == n as usize => Some((shape, v.to_vec())),
                _ => None,
            }
        }
        "ReduceProd" | "ReduceSum" if xs.len() == 1 => {
            let v = xv?;
            let mut acc = Poly::constant(if op == "ReduceProd" { 1 } else { 0 });
            for n in v {
                let Num::I(p) = n else { return None };
                acc = if op == "ReduceProd" {
                    acc.mul(p)?
                } else {
                    acc.add(p)?
                };
            }
            let keep = model::attr_i(node, "keepdims").unwrap_or(1) != 0;
            let shape = if keep {
                vec![Poly::constant(1)]
            } else {
                vec![]
            };
            Some((shape, vec![Num::I(acc)]))
        }
        _ => elementwise(op, vals),
    }
}

/// Element-by-element arithmetic, comparisons and `Where` over constants: each operand of
/// the output's element count or of one element.
fn elementwise(op: &str, vals: &[Option<&Val>]) -> Option<(Vec<Poly>, Vec<Num>)> {
    let ops: Vec<&Val> = vals.iter().copied().collect::<Option<_>>()?;
    let shapes: Vec<&[Poly]> = ops
        .iter()
        .map(|v| v.shape.as_deref())
        .collect::<Option<_>>()?;
    let shape = shapes::broadcast(&shapes)?;
    let n = shapes::numel(&shape)?.as_const()? as usize;
    let elems: Vec<&[Num]> = ops.iter().map(|v| v.consts()).collect::<Option<_>>()?;
    if elems.iter().any(|e| e.len() != n && e.len() != 1) {
        return None;
    }
    let at = |k: usize, j: usize| -> &Num {
        if elems[k].len() == 1 {
            &elems[k][0]
        } else {
            &elems[k][j]
        }
    };
    let mut out = Vec::with_capacity(n);
    for j in 0..n {
        let a = at(0, j);
        let r = match (op, elems.len()) {
            ("Neg", 1) => match a {
                Num::I(p) => Num::I(p.neg()?),
                Num::F(f) => Num::F(-f),
            },
            ("Not", 1) => Num::I(Poly::constant(i64::from(a.int()? == 0))),
            ("Sqrt", 1) => Num::F(a.float()?.sqrt()),
            ("Abs", 1) => match a {
                Num::I(p) => Num::I(Poly::constant(p.as_const()?.checked_abs()?)),
                Num::F(f) => Num::F(f.abs()),
            },
            ("Where", 3) => {
                if a.int()? != 0 {
                    at(1, j).clone()
                } else {
                    at(2, j).clone()
                }
            }
            (_, 2) => binary(op, a, at(1, j))?,
            _ => return None,
        };
        out.push(r);
    }
    Some((shape, out))
}

fn binary(op: &str, a: &Num, b: &Num) -> Option<Num> {
    let bool_ = |v: bool| Num::I(Poly::constant(i64::from(v)));
    if let (Num::I(x), Num::I(y)) = (a, b) {
        return Some(match op {
            "Add" => Num::I(x.add(y)?),
            "Sub" => Num::I(x.sub(y)?),
            "Mul" => Num::I(x.mul(y)?),
            "Div" => {
                let (p, q) = (x.as_const(), y.as_const());
                match (p, q) {
                    // Integer division truncates in ONNX.
                    (Some(p), Some(q)) if q != 0 => Num::I(Poly::constant(p.checked_div(q)?)),
                    _ => Num::I(x.div_exact(y)?),
                }
            }
            "Mod" => {
                let (p, q) = (x.as_const()?, y.as_const()?);
                Num::I(Poly::constant(p.checked_rem_euclid(q)?))
            }
            "Max" | "Min" => {
                if x == y {
                    Num::I(x.clone())
                } else {
                    let (p, q) = (x.as_const()?, y.as_const()?);
                    Num::I(Poly::constant(if op == "Max" {
                        p.max(q)
                    } else {
                        p.min(q)
                    }))
                }
            }
            "Equal" if x == y => bool_(true),
            "Equal" => bool_(x.as_const()? == y.as_const()?),
            "Less" => bool_(x.as_const()? < y.as_const()?),
            "LessOrEqual" => bool_(x.as_const()? <= y.as_const()?),
            "Greater" => bool_(x.as_const()? > y.as_const()?),
            "GreaterOrEqual" => bool_(x.as_const()? >= y.as_const()?),
            "And" => bool_(x.as_const()? != 0 && y.as_const()? != 0),
            "Or" => bool_(x.as_const()? != 0 || y.as_const()? != 0),
            _ => return None,
        });
    }
    let (x, y) = (a.float()?, b.float()?);
    Some(match op {
        "Add" => Num::F(x + y),
        "Sub" => Num::F(x - y),
        "Mul" => Num::F(x * y),
        "Div" => Num::F(x / y),
        "Pow" => Num::F(x.powf(y)),
        "Max" => Num::F(x.max(y)),
        "Min" => Num::F(x.min(y)),
        "Equal" => bool_(x == y),
        "Less" => bool_(x < y),
        "LessOrEqual" => bool_(x <= y),
        "Greater" => bool_(x > y),
        "GreaterOrEqual" => bool_(x >= y),
        _ => return None,
    })
}

/// The shape of a folded node's output when its elements are not computed.
fn static_shape(node: &NodeProto, op: &str, vals: &[Option<&Val>]) -> Option<Vec<Poly>> {
    let x = vals.first().copied().flatten()?;
    let xs = x.shape.as_deref()?;
    let second = || vals.get(1).copied().flatten();
    let axes = || -> Option<Vec<i64>> {
        match model::attr_ints(node, "axes") {
            Some(a) => Some(a.to_vec()),
            None => ints(second()),
        }
    };
    match op {
        "Reshape" => {
            let allowzero = model::attr_i(node, "allowzero").unwrap_or(0) != 0;
            shapes::reshape(xs, second()?.consts()?, allowzero)
        }
        "Unsqueeze" => shapes::unsqueeze(xs, &axes()?),
        "Squeeze" => match second() {
            None if model::attr_ints(node, "axes").is_none() => shapes::squeeze(xs, None),
            _ => shapes::squeeze(xs, Some(&axes()?)),
        },
        "Flatten" => {
            let a = model::attr_i(node, "axis").unwrap_or(1);
            let a = if a < 0 { a + xs.len() as i64 } else { a } as usize;
            Some(vec![
                shapes::numel(xs.get(..a)?)?,
                shapes::numel(xs.get(a..)?)?,
            ])
        }
        "Transpose" => {
            let perm: Vec<i64> = match model::attr_ints(node, "perm") {
                Some(p) => p.to_vec(),
                None => (0..xs.len() as i64).rev().collect(),
            };
            perm.iter()
                .map(|&p| xs.get(usize::try_from(p).ok()?).cloned())
                .collect()
        }
        "Expand" => {
            let target: Vec<Poly> = second()?
                .consts()?
                .iter()
                .map(|n| match n {
                    Num::I(p) => Some(p.clone()),
                    Num::F(_) => None,
                })
                .collect::<Option<_>>()?;
            shapes::broadcast(&[xs, &target])
        }
        "ConstantOfShape" => x
            .consts()?
            .iter()
            .map(|n| match n {
                Num::I(p) => Some(p.clone()),
                Num::F(_) => None,
            })
            .collect(),
        "Range" => {
            let s = x.scalar()?;
            let l = second()?.scalar()?;
            let d = vals.get(2).copied().flatten()?.scalar()?.int()?;
            let (Num::I(s), Num::I(l)) = (s, l) else {
                return None;
            };
            (d == 1).then(|| l.sub(s)).flatten().map(|n| vec![n])
        }
        "Trilu" | "CumSum" | "Not" | "Neg" | "IsNaN" | "IsInf" | "Cast" | "CastLike" | "Abs"
        | "Sqrt" | "Exp" | "Log" | "Softmax" | "Identity" => Some(xs.to_vec()),
        "Add" | "Sub" | "Mul" | "Div" | "Pow" | "Mod" | "Max" | "Min" | "Equal" | "Less"
        | "LessOrEqual" | "Greater" | "GreaterOrEqual" | "And" | "Or" | "Xor" | "Where" => {
            let shapes: Vec<&[Poly]> = vals
                .iter()
                .flatten()
                .map(|v| v.shape.as_deref())
                .collect::<Option<_>>()?;
            shapes::broadcast(&shapes)
        }
        _ => None,
    }
}
