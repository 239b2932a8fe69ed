//! Attention masks built from positions: an `Add` of a value computed from shapes only to the
//! scores that a softmax over the last axis reads is evaluated at two small sizes of the
//! named dimensions (every one 3, then every one 5); when both are causal (0 where key `j <=
//! i + S_k - S_q`, a large negative number or -inf elsewhere) the add is dropped and the
//! softmax says `causal = true`, and when both are all zeros the add is dropped. Anything
//! else stays as it was (the mask an input of the graph). The evaluation re-runs the ONNX
//! nodes that made the mask on concrete arrays, a known list of operators, each array at
//! most [`MAX_ELEMENTS`], the recursion at most [`MAX_DEPTH`] deep.

use super::model::{self, Arg, Attr, Kind, Num};
use super::walk::Imp;
use onnx_proto::onnx::NodeProto;
use std::collections::HashMap;

const MAX_ELEMENTS: usize = 1 << 16;
const MAX_DEPTH: usize = 200;
/// Elements one evaluation may compute in all (every mask of a graph shares it).
const MAX_WORK: usize = 1 << 22;

/// A concrete array, row-major.
#[derive(Clone, Debug)]
struct Arr {
    shape: Vec<usize>,
    data: Vec<f64>,
}

impl Arr {
    fn new(shape: Vec<usize>, data: Vec<f64>) -> Option<Arr> {
        (shape.iter().try_fold(1usize, |a, &d| a.checked_mul(d))? == data.len()
            && data.len() <= MAX_ELEMENTS)
            .then_some(Arr { shape, data })
    }
    fn ints(&self) -> Vec<i64> {
        self.data.iter().map(|&v| v as i64).collect()
    }
}

/// Drops the masks that are causal (the softmax says so) or zero; returns how many.
pub fn fold_masks(imp: &mut Imp<'_>) -> usize {
    let mut readers: HashMap<usize, Vec<usize>> = HashMap::new();
    for (i, o) in imp.ops.iter().enumerate() {
        for a in &o.args {
            if let Arg::T(v) | Arg::Tt(v) = a {
                readers.entry(*v).or_default().push(i);
            }
        }
    }
    let producer: HashMap<&str, usize> = imp
        .nodes
        .iter()
        .enumerate()
        .flat_map(|(i, n)| n.output.iter().map(move |o| (o.as_str(), i)))
        .collect();
    let mut drop = vec![false; imp.ops.len()];
    let mut found = 0;
    let mut work = 0usize;
    // By index: the loop reads op `i` and rewrites another (its softmax).
    #[allow(clippy::needless_range_loop)]
    for i in 0..imp.ops.len() {
        let op = &imp.ops[i];
        let [Arg::T(a), Arg::T(b)] = op.args[..] else {
            continue;
        };
        if op.kind != "elementwise.add" || imp.graph_outputs.contains(&op.out) {
            continue;
        }
        let (scores, mask) = match (&imp.vals[a].kind, &imp.vals[b].kind) {
            (_, Kind::Static) => (a, b),
            (Kind::Static, _) => (b, a),
            _ => continue,
        };
        // The scores' shape, and read by one softmax over the last axis alone.
        if imp.vals[op.out].shape != imp.vals[scores].shape {
            continue;
        }
        let Some(&[s]) = readers.get(&op.out).map(Vec::as_slice) else {
            continue;
        };
        let sm = &imp.ops[s];
        if sm.kind != "reduction.softmax" || sm.attrs != [("axis", Attr::I(-1))] {
            continue;
        }
        let mut kinds = Vec::new();
        for n in [3, 5] {
            let dims = vec![n; imp.dims.len()];
            let mut ev = Eval {
                imp,
                producer: &producer,
                dims: &dims,
                memo: HashMap::new(),
                work: &mut work,
            };
            let name = imp.vals[mask].name.clone();
            let Some(m) = ev.value(&name, 0) else {
                break;
            };
            let Some(shape) = imp.vals[scores].shape.as_ref().and_then(|s| {
                s.iter()
                    .map(|d| usize::try_from(d.eval(&dims)?).ok())
                    .collect::<Option<Vec<usize>>>()
            }) else {
                break;
            };
            kinds.push(classify(&m, &shape));
        }
        let kind = match kinds[..] {
            [Some(a), Some(b)] if a == b => a,
            _ => continue,
        };
        drop[i] = true;
        let out = imp.ops[i].out;
        let sm = &mut imp.ops[s];
        for arg in &mut sm.args {
            if *arg == Arg::T(out) {
                *arg = Arg::T(scores);
            }
        }
        if kind == MaskKind::Causal {
            sm.attrs.push(("causal", Attr::B(true)));
        }
        found += 1;
    }
    let mut k = 0;
    imp.ops.retain(|_| {
        k += 1;
        !drop[k - 1]
    });
    imp.folded += found;
    found
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum MaskKind {
    Zero,
    Causal,
}

/// Whether `m`, broadcast to `scores`' shape `[.., S_q, S_k]`, is zero, or causal.
fn classify(m: &Arr, scores: &[usize]) -> Option<MaskKind> {
    let r = scores.len();
    if r < 2 || m.shape.len() > r {
        return None;
    }
    let (sq, sk) = (scores[r - 2], scores[r - 1]);
    if m.data.iter().all(|&v| v == 0.0) {
        return Some(MaskKind::Zero);
    }
    // Each element of `m` at its (i, j) position in the last two axes (a broadcast axis
    // of size 1 must then hold the same for every i or j, which the check below demands).
    let ms = &m.shape;
    let off = r - ms.len();
    let dim = |k: usize| if k >= off { ms[k - off] } else { 1 };
    let (mi, mj) = (dim(r - 2), dim(r - 1));
    // A broadcast axis stands for every position along it: it cannot hold a causal mask.
    if mi != sq || mj != sk {
        return None;
    }
    for (idx, &v) in m.data.iter().enumerate() {
        let j = idx % mj;
        let i = (idx / mj) % mi;
        let visible = j + sq <= i + sk;
        let ok = if visible { v == 0.0 } else { v <= -1e30 };
        if !ok {
            return None;
        }
    }
    Some(MaskKind::Causal)
}

struct Eval<'a, 'm> {
    imp: &'a Imp<'m>,
    producer: &'a HashMap<&'a str, usize>,
    dims: &'a [i64],
    memo: HashMap<String, Option<Arr>>,
    /// Elements computed so far, against [`MAX_WORK`].
    work: &'a mut usize,
}

impl Eval<'_, '_> {
    fn value(&mut self, name: &str, depth: usize) -> Option<Arr> {
        if let Some(v) = self.memo.get(name) {
            return v.clone();
        }
        if depth > MAX_DEPTH {
            return None;
        }
        if *self.work > MAX_WORK {
            return None;
        }
        let v = self.compute(name, depth);
        *self.work += v.as_ref().map_or(0, |a| a.data.len() + 1);
        self.memo.insert(name.to_string(), v.clone());
        v
    }

    fn shape_of(&self, name: &str) -> Option<Vec<usize>> {
        let id = *self.imp.by_name.get(name)?;
        self.imp.vals[id]
            .shape
            .as_ref()?
            .iter()
            .map(|d| usize::try_from(d.eval(self.dims)?).ok())
            .collect()
    }

    fn compute(&mut self, name: &str, depth: usize) -> Option<Arr> {
        let id = *self.imp.by_name.get(name)?;
        let v = &self.imp.vals[id];
        match &v.kind {
            Kind::Const(c) => {
                let data = c
                    .iter()
                    .map(|n| match n {
                        Num::I(p) => p.eval(self.dims).map(|x| x as f64),
                        Num::F(f) => Some(*f),
                    })
                    .collect::<Option<Vec<f64>>>()?;
                return Arr::new(self.shape_of(name)?, data);
            }
            Kind::Static => {}
            _ => return None,
        }
        let node = &self.imp.nodes[*self.producer.get(name)?];
        let k = node.output.iter().position(|o| o == name)?;
        if k != 0 {
            return None;
        }
        let op = node.op_type.as_deref()?;
        if op == "Shape" {
            let s = self.shape_of(node.input.first()?)?;
            let r = s.len() as i64;
            let clamp = |v: i64| (if v < 0 { v + r } else { v }).clamp(0, r) as usize;
            let start = clamp(model::attr_i(node, "start").unwrap_or(0));
            let end = clamp(model::attr_i(node, "end").unwrap_or(r)).max(start);
            let data: Vec<f64> = s[start..end].iter().map(|&d| d as f64).collect();
            return Arr::new(vec![data.len()], data);
        }
        let mut ins: Vec<Option<Arr>> = Vec::new();
        for i in &node.input {
            ins.push(if i.is_empty() {
                None
            } else {
                Some(self.value(i, depth + 1)?)
            });
        }
        apply(node, op, &ins)
    }
}

fn broadcast(shapes: &[&[usize]]) -> Option<Vec<usize>> {
    let r = shapes.iter().map(|s| s.len()).max()?;
    let mut out = vec![1; r];
    for s in shapes {
        for (k, &d) in s.iter().enumerate() {
            let o = &mut out[r - s.len() + k];
            if d != 1 {
                if *o != 1 && *o != d {
                    return None;
                }
                *o = d;
            }
        }
    }
    Some(out)
}

/// The flat index in `shape` (broadcast) of position `pos` of `out`.
fn source(shape: &[usize], out: &[usize], mut flat: usize) -> usize {
    let mut idx = 0;
    let mut stride = 1;
    for k in (0..out.len()).rev() {
        let p = flat % out[k];
        flat /= out[k];
        let sk = k as isize - (out.len() - shape.len()) as isize;
        if sk >= 0 {
            let d = shape[sk as usize];
            idx += if d == 1 { 0 } else { p * stride };
            stride *= d;
        }
    }
    idx
}

fn map_broadcast(ins: &[&Arr], f: impl Fn(&[f64]) -> f64) -> Option<Arr> {
    let shapes: Vec<&[usize]> = ins.iter().map(|a| a.shape.as_slice()).collect();
    let out = broadcast(&shapes)?;
    let n: usize = out.iter().product();
    if n > MAX_ELEMENTS {
        return None;
    }
    let mut data = Vec::with_capacity(n);
    let mut args = vec![0.0; ins.len()];
    for p in 0..n {
        for (k, a) in ins.iter().enumerate() {
            args[k] = a.data[source(&a.shape, &out, p)];
        }
        data.push(f(&args));
    }
    Arr::new(out, data)
}

/// A boolean as an element: 1 or 0.
fn b(v: bool) -> f64 {
    f64::from(u8::from(v))
}

fn axis(a: i64, r: usize) -> Option<usize> {
    super::shapes::axis(a, r)
}

fn apply(node: &NodeProto, op: &str, ins: &[Option<Arr>]) -> Option<Arr> {
    let x = ins.first().and_then(Option::as_ref);
    let arg = |k: usize| ins.get(k).and_then(Option::as_ref);
    let bin = |f: fn(f64, f64) -> f64| map_broadcast(&[x?, arg(1)?], |a| f(a[0], a[1]));
    match op {
        "Identity" => x.cloned(),
        "Add" => bin(|a, c| a + c),
        "Sub" => bin(|a, c| a - c),
        "Mul" => bin(|a, c| a * c),
        "Max" => bin(f64::max),
        "Min" => bin(f64::min),
        "Equal" => bin(|a, c| b(a == c)),
        "Less" => bin(|a, c| b(a < c)),
        "LessOrEqual" => bin(|a, c| b(a <= c)),
        "Greater" => bin(|a, c| b(a > c)),
        "GreaterOrEqual" => bin(|a, c| b(a >= c)),
        "And" => bin(|a, c| b(a != 0.0 && c != 0.0)),
        "Or" => bin(|a, c| b(a != 0.0 || c != 0.0)),
        "Not" => map_broadcast(&[x?], |a| b(a[0] == 0.0)),
        "Neg" => map_broadcast(&[x?], |a| -a[0]),
        "IsNaN" => map_broadcast(&[x?], |a| b(a[0].is_nan())),
        "Cast" => {
            let to = model::attr_i(node, "to")?;
            match to {
                9 => map_broadcast(&[x?], |a| b(a[0] != 0.0)),
                2..=7 | 12 | 13 => map_broadcast(&[x?], |a| a[0].trunc()),
                _ => x.cloned(),
            }
        }
        "Where" => map_broadcast(&[x?, arg(1)?, arg(2)?], |a| {
            if a[0] != 0.0 { a[1] } else { a[2] }
        }),
        "Reshape" | "Unsqueeze" | "Squeeze" | "Flatten" => reshape(node, op, x?, arg(1)),
        "Expand" => {
            let target: Vec<usize> = arg(1)?.ints().iter().map(|&d| d.max(0) as usize).collect();
            let out = broadcast(&[&x?.shape, &target])?;
            let n = out.iter().try_fold(1usize, |a, &d| a.checked_mul(d))?;
            if n > MAX_ELEMENTS {
                return None;
            }
            let zeros = Arr::new(out, vec![0.0; n])?;
            map_broadcast(&[x?, &zeros], |a| a[0])
        }
        "Range" => {
            let (s, l, d) = (
                x?.data.first()?,
                arg(1)?.data.first()?,
                arg(2)?.data.first()?,
            );
            let n = ((l - s) / d).ceil().max(0.0) as usize;
            if n > MAX_ELEMENTS {
                return None;
            }
            Arr::new(vec![n], (0..n).map(|k| s + k as f64 * d).collect())
        }
        "ConstantOfShape" => {
            let shape: Vec<usize> = x?.ints().iter().map(|&d| d.max(0) as usize).collect();
            let fill = model::attr(node, "value")
                .and_then(|a| a.t.as_ref())
                .and_then(model::tensor_elements)
                .and_then(|v| v.first().and_then(Num::float))
                .unwrap_or(0.0);
            let n = shape.iter().try_fold(1usize, |a, &d| a.checked_mul(d))?;
            if n > MAX_ELEMENTS {
                return None;
            }
            Arr::new(shape, vec![fill; n])
        }
        "Concat" => {
            let parts: Vec<&Arr> = ins.iter().flatten().collect();
            let first = parts.first()?;
            if parts.iter().any(|p| p.shape.len() != first.shape.len()) {
                return None;
            }
            let a = axis(model::attr_i(node, "axis")?, first.shape.len())?;
            let outer: usize = first.shape[..a].iter().product();
            let mut shape = first.shape.clone();
            shape[a] = parts
                .iter()
                .map(|p| p.shape.get(a).copied().unwrap_or(0))
                .sum();
            let mut data = Vec::new();
            for o in 0..outer {
                for p in &parts {
                    let inner: usize = p.shape[a..].iter().product();
                    data.extend_from_slice(p.data.get(o * inner..(o + 1) * inner)?);
                }
            }
            Arr::new(shape, data)
        }
        "Transpose" => {
            let x = x?;
            let r = x.shape.len();
            let perm: Vec<usize> = match model::attr_ints(node, "perm") {
                Some(p) => p.iter().map(|&v| axis(v, r)).collect::<Option<_>>()?,
                None => (0..r).rev().collect(),
            };
            let shape: Vec<usize> = perm.iter().map(|&p| x.shape[p]).collect();
            // Output axis k is input axis perm[k].
            gather_positions(x, shape, |pos| {
                let mut src = vec![0; r];
                for (k, &p) in perm.iter().enumerate() {
                    src[p] = pos[k];
                }
                src
            })
        }
        "Slice" => slice(x?, arg(1)?, arg(2)?, arg(3), arg(4)),
        "Gather" => {
            let (x, idx) = (x?, arg(1)?);
            let a = axis(model::attr_i(node, "axis").unwrap_or(0), x.shape.len())?;
            let n = x.shape[a] as i64;
            let ids: Vec<usize> = idx
                .ints()
                .iter()
                .map(|&k| {
                    usize::try_from(if k < 0 { k + n } else { k })
                        .ok()
                        .filter(|&k| (k as i64) < n)
                })
                .collect::<Option<_>>()?;
            let mut shape = x.shape[..a].to_vec();
            shape.extend_from_slice(&idx.shape);
            shape.extend_from_slice(&x.shape[a + 1..]);
            let (ir, rest) = (idx.shape.len(), x.shape.len() - a - 1);
            gather_positions(x, shape, |pos| {
                let flat = pos[a..a + ir]
                    .iter()
                    .zip(&idx.shape)
                    .fold(0, |f, (&p, &d)| f * d + p);
                let mut src = pos[..a].to_vec();
                src.push(ids[flat]);
                src.extend_from_slice(&pos[a + ir..a + ir + rest]);
                src
            })
        }
        "GatherND" => {
            let (x, idx) = (x?, arg(1)?);
            if model::attr_i(node, "batch_dims").unwrap_or(0) != 0 {
                return None;
            }
            let q = *idx.shape.last()?;
            if q > x.shape.len() || x.shape[..q].contains(&0) {
                return None;
            }
            let mut shape = idx.shape[..idx.shape.len() - 1].to_vec();
            shape.extend_from_slice(&x.shape[q..]);
            let lead = idx.shape.len() - 1;
            let idata = idx.ints();
            let istrides: Vec<usize> = idx.shape[..lead].to_vec();
            gather_positions(x, shape, |pos| {
                let flat = pos[..lead]
                    .iter()
                    .zip(&istrides)
                    .fold(0, |f, (&p, &d)| f * d + p);
                let mut src: Vec<usize> = (0..q)
                    .map(|k| {
                        let v = idata[flat * q + k];
                        let d = x.shape[k] as i64;
                        (if v < 0 { v + d } else { v }).clamp(0, d - 1) as usize
                    })
                    .collect();
                src.extend_from_slice(&pos[lead..]);
                src
            })
        }
        "CumSum" => {
            let x = x?;
            let a = axis(*arg(1)?.ints().first()?, x.shape.len())?;
            if model::attr_i(node, "exclusive").unwrap_or(0) != 0
                || model::attr_i(node, "reverse").unwrap_or(0) != 0
            {
                return None;
            }
            let inner: usize = x.shape[a + 1..].iter().product();
            let n = x.shape[a];
            let mut data = x.data.clone();
            for o in 0..data.len() / (n * inner).max(1) {
                for i in 0..inner {
                    for k in 1..n {
                        let at = o * n * inner + k * inner + i;
                        data[at] += data[at - inner];
                    }
                }
            }
            Arr::new(x.shape.clone(), data)
        }
        "Trilu" => {
            let x = x?;
            let r = x.shape.len();
            if r < 2 {
                return None;
            }
            let k = arg(1).and_then(|a| a.data.first().copied()).unwrap_or(0.0) as i64;
            let upper = model::attr_i(node, "upper").unwrap_or(1) != 0;
            let (rows, cols) = (x.shape[r - 2], x.shape[r - 1]);
            let data = x
                .data
                .iter()
                .enumerate()
                .map(|(p, &v)| {
                    let (i, j) = (((p / cols) % rows) as i64, (p % cols) as i64);
                    let keep = if upper { j - i >= k } else { j - i <= k };
                    if keep { v } else { 0.0 }
                })
                .collect();
            Arr::new(x.shape.clone(), data)
        }
        _ => None,
    }
}

/// An array of `shape` whose element at each position is `x`'s at `src(position)`.
fn gather_positions(
    x: &Arr,
    shape: Vec<usize>,
    src: impl Fn(&[usize]) -> Vec<usize>,
) -> Option<Arr> {
    let n = shape.iter().try_fold(1usize, |a, &d| a.checked_mul(d))?;
    if n > MAX_ELEMENTS {
        return None;
    }
    let mut data = Vec::with_capacity(n);
    let mut pos = vec![0usize; shape.len()];
    for p in 0..n {
        let mut f = p;
        for k in (0..shape.len()).rev() {
            pos[k] = f % shape[k];
            f /= shape[k];
        }
        let s = src(&pos);
        if s.len() != x.shape.len() || s.iter().zip(&x.shape).any(|(&a, &d)| a >= d) {
            return None;
        }
        let flat = s.iter().zip(&x.shape).fold(0, |f, (&a, &d)| f * d + a);
        data.push(x.data[flat]);
    }
    Arr::new(shape, data)
}

fn reshape(node: &NodeProto, op: &str, x: &Arr, second: Option<&Arr>) -> Option<Arr> {
    let r = x.shape.len();
    let axes = || -> Option<Vec<i64>> {
        match model::attr_ints(node, "axes") {
            Some(a) => Some(a.to_vec()),
            None => second.map(Arr::ints),
        }
    };
    let shape: Vec<usize> = match op {
        "Reshape" => {
            let t = second?.ints();
            let allowzero = model::attr_i(node, "allowzero").unwrap_or(0) != 0;
            let mut out: Vec<i64> = t
                .iter()
                .enumerate()
                .map(|(k, &d)| {
                    if d == 0 && !allowzero {
                        x.shape.get(k).map_or(0, |&v| v as i64)
                    } else {
                        d
                    }
                })
                .collect();
            let known: i64 = out.iter().filter(|&&d| d != -1).product();
            if let Some(m) = out.iter_mut().find(|d| **d == -1) {
                *m = if known == 0 {
                    0
                } else {
                    x.data.len() as i64 / known
                };
            }
            out.iter()
                .map(|&d| usize::try_from(d).ok())
                .collect::<Option<_>>()?
        }
        "Flatten" => {
            let a = axis(model::attr_i(node, "axis").unwrap_or(1), r + 1)?;
            vec![x.shape[..a].iter().product(), x.shape[a..].iter().product()]
        }
        "Unsqueeze" => {
            let axes = axes()?;
            let n = r + axes.len();
            let at: Vec<usize> = axes.iter().map(|&a| axis(a, n)).collect::<Option<_>>()?;
            let mut it = x.shape.iter();
            (0..n)
                .map(|k| {
                    if at.contains(&k) {
                        Some(1)
                    } else {
                        it.next().copied()
                    }
                })
                .collect::<Option<_>>()?
        }
        _ => {
            let drop: Vec<usize> = match axes() {
                Some(a) => a.iter().map(|&a| axis(a, r)).collect::<Option<_>>()?,
                None => (0..r).filter(|&k| x.shape[k] == 1).collect(),
            };
            x.shape
                .iter()
                .enumerate()
                .filter(|(k, _)| !drop.contains(k))
                .map(|(_, &d)| d)
                .collect()
        }
    };
    Arr::new(shape, x.data.clone())
}

fn slice(
    x: &Arr,
    starts: &Arr,
    ends: &Arr,
    axes: Option<&Arr>,
    steps: Option<&Arr>,
) -> Option<Arr> {
    let r = x.shape.len();
    let (starts, ends) = (starts.ints(), ends.ints());
    let axes: Vec<i64> = axes.map_or_else(|| (0..starts.len() as i64).collect(), Arr::ints);
    let steps: Vec<i64> = steps.map_or_else(|| vec![1; starts.len()], Arr::ints);
    let mut lo = vec![0usize; r];
    let mut shape = x.shape.clone();
    for (k, &start) in starts.iter().enumerate() {
        let a = axis(*axes.get(k)?, r)?;
        if *steps.get(k)? != 1 {
            return None;
        }
        let d = x.shape[a] as i64;
        let norm = |v: i64| (if v < 0 { v.saturating_add(d) } else { v }).clamp(0, d);
        let (s, e) = (norm(start), norm(*ends.get(k)?));
        lo[a] = s as usize;
        shape[a] = (e - s).max(0) as usize;
    }
    gather_positions(x, shape, |pos| {
        pos.iter().zip(&lo).map(|(&p, &l)| p + l).collect()
    })
}
