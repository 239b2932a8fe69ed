//! Known op patterns of exported graphs rewritten as the one fgraph op they compute. Today:
//! RMSNorm as exporters decompose it (Llama's `x * rsqrt(mean(x²) + eps) * w`): `pow(x, 2)`,
//! `mean` over the last axis kept, `+ eps`, `sqrt` then `reciprocal` (or `rsqrt`, or a
//! division), the product with `x`, and optionally with a weight `[H]`, becomes
//! `reduction.rmsnorm(x, w, axis = -1, eps = E)`. And GELU's tanh form as GPT-2 writes it,
//! `0.5·x · (1 + tanh(0.7978846·(x + 0.044715·x³)))`, eight ops, becomes one `elementwise.gelu`
//! (8 FLOPs per element, the same count). Only when every intermediate is read by the next
//! step alone (and is no graph output), so nothing else changes.

use super::model::{Arg, Attr, EOp, Kind};
use super::walk::Imp;
use std::collections::HashMap;

/// Rewrites every RMSNorm and tanh-GELU pattern; returns how many.
pub fn rewrite(imp: &mut Imp<'_>) -> usize {
    let mut producer: HashMap<usize, usize> = HashMap::new();
    let mut readers: HashMap<usize, usize> = HashMap::new();
    for (i, o) in imp.ops.iter().enumerate() {
        producer.insert(o.out, i);
        for a in &o.args {
            if let Arg::T(v) | Arg::Tt(v) = a {
                *readers.entry(*v).or_insert(0) += 1;
            }
        }
    }
    for &v in &imp.graph_outputs {
        *readers.entry(v).or_insert(0) += 1;
    }
    let mut remove = vec![false; imp.ops.len()];
    let mut found = 0;
    // Latest first: a norm with its weight is found before the same norm without it.
    for i in (0..imp.ops.len()).rev() {
        if remove[i] {
            continue;
        }
        let rewrite = if let Some((chain, x, w, eps)) = matches(imp, i, &producer, &readers) {
            let mut args = vec![Arg::T(x)];
            args.extend(w.map(Arg::T));
            let attrs = vec![("axis", Attr::I(-1)), ("eps", Attr::F(eps))];
            Some((chain, "reduction.rmsnorm", args, attrs))
        } else {
            gelu_tanh(imp, i, &producer, &readers)
                .map(|(chain, x)| (chain, "elementwise.gelu", vec![Arg::T(x)], vec![]))
        };
        if let Some((chain, kind, args, attrs)) = rewrite {
            if chain.iter().any(|&c| remove[c]) {
                continue;
            }
            let op = &mut imp.ops[i];
            op.kind = kind.into();
            op.args = args;
            op.attrs = attrs;
            op.dtype = false;
            for c in chain {
                remove[c] = true;
            }
            found += 1;
        }
    }
    let mut k = 0;
    imp.ops.retain(|_| {
        k += 1;
        !remove[k - 1]
    });
    imp.folded += found;
    found
}

fn func<'o>(o: &'o EOp, f: &str) -> Option<&'o [Arg]> {
    (o.kind.strip_prefix("elementwise.") == Some(f) || o.kind.strip_prefix("reduction.") == Some(f))
        .then_some(o.args.as_slice())
}

/// The op `i` as the end of an RMSNorm: the ops to remove, the input, the weight, epsilon.
fn matches(
    imp: &Imp<'_>,
    i: usize,
    producer: &HashMap<usize, usize>,
    readers: &HashMap<usize, usize>,
) -> Option<(Vec<usize>, usize, Option<usize>, String)> {
    let ops = &imp.ops;
    // The tensor produced by the op that makes `v`, if `v` is read once.
    let step = |v: usize| -> Option<usize> {
        (readers.get(&v) == Some(&1)).then(|| producer.get(&v).copied())?
    };
    let tensors = |args: &[Arg]| -> Option<(usize, usize)> {
        match args {
            [Arg::T(a), Arg::T(b)] => Some((*a, *b)),
            _ => None,
        }
    };
    let end = &ops[i];
    let (a, b) = tensors(func(end, "mul")?)?;
    let vals = &imp.vals;
    let weight = |v: usize| matches!(vals[v].kind, Kind::Weight) && vals[v].rank() == Some(1);
    // With a weight: end = mul(w, normed) or mul(normed, w).
    let (normed_op, w) = match (weight(a), weight(b)) {
        (true, false) => (step(b)?, Some(a)),
        (false, true) => (step(a)?, Some(b)),
        _ => (i, None),
    };
    let mut chain = Vec::new();
    if normed_op != i {
        chain.push(normed_op);
    }
    let normed = &ops[normed_op];
    // normed = mul(x, r) with r = 1/sqrt(...), or div(x, sqrt(...)).
    let (x, inv_op, divided) = if let Some(args) = func(normed, "div") {
        let (x, s) = tensors(args)?;
        (x, step(s)?, true)
    } else {
        let (p, q) = tensors(func(normed, "mul")?)?;
        match (step(p), step(q)) {
            (_, Some(r)) if is_inverse(&ops[r]) => (p, r, false),
            (Some(r), _) if is_inverse(&ops[r]) => (q, r, false),
            _ => return None,
        }
    };
    chain.push(inv_op);
    let inv = &ops[inv_op];
    // The sum under the root: sqrt(add) then reciprocal, or rsqrt(add), or (divided) sqrt.
    let add_op = if divided {
        let [Arg::T(s)] = func(inv, "sqrt")? else {
            return None;
        };
        step(*s)?
    } else if let Some([Arg::T(s)]) = func(inv, "rsqrt") {
        step(*s)?
    } else {
        let sqrt_op = match (func(inv, "reciprocal"), func(inv, "div")) {
            (Some([Arg::T(s)]), _) => step(*s)?,
            (_, Some([Arg::Lit(one), Arg::T(s)])) if one.parse::<f64>().ok() == Some(1.0) => {
                step(*s)?
            }
            _ => return None,
        };
        chain.push(sqrt_op);
        let [Arg::T(s)] = func(&ops[sqrt_op], "sqrt")? else {
            return None;
        };
        step(*s)?
    };
    chain.push(add_op);
    let (m, eps) = match func(&ops[add_op], "add")? {
        [Arg::T(m), Arg::Lit(e)] | [Arg::Lit(e), Arg::T(m)] => (*m, e.clone()),
        _ => return None,
    };
    let mean_op = step(m)?;
    chain.push(mean_op);
    let mean = &ops[mean_op];
    let [Arg::T(sq)] = func(mean, "mean")? else {
        return None;
    };
    let rank = vals[*sq].rank()?;
    let last = [Attr::Is(vec![rank as i64 - 1]), Attr::Is(vec![-1])];
    let axis_ok = mean
        .attrs
        .iter()
        .any(|(k, v)| *k == "axis" && last.contains(v));
    let keep = mean
        .attrs
        .iter()
        .any(|(k, v)| *k == "keepdim" && *v == Attr::B(true));
    if !axis_ok || !keep {
        return None;
    }
    let pow_op = step(*sq)?;
    chain.push(pow_op);
    let two = match func(&ops[pow_op], "pow")? {
        [Arg::T(y), Arg::Lit(p)] => (*y == x && p.parse::<f64>().ok() == Some(2.0)).then_some(()),
        _ => None,
    };
    two?;
    if let Some(w) = w
        && vals[w].shape.as_ref()?.first() != vals[x].shape.as_ref()?.last()
    {
        return None;
    }
    Some((chain, x, w, eps))
}

fn is_inverse(o: &EOp) -> bool {
    func(o, "reciprocal").is_some()
        || func(o, "rsqrt").is_some()
        || matches!(func(o, "div"), Some([Arg::Lit(one), Arg::T(_)]) if one.parse::<f64>().ok() == Some(1.0))
}

/// `lit` is the number `v` (to the precision of an `f32` literal).
fn is_num(a: &Arg, v: f64) -> bool {
    matches!(a, Arg::Lit(l) if l.parse::<f64>().is_ok_and(|x| (x - v).abs() <= 1e-6 * v.abs().max(1.0)))
}

/// `op(t, lit)` or `op(lit, t)` with `lit` the number `v`: the tensor `t`.
fn with_lit(o: &EOp, f: &str, v: f64) -> Option<usize> {
    match func(o, f)? {
        [Arg::T(t), l] | [l, Arg::T(t)] if is_num(l, v) => Some(*t),
        _ => None,
    }
}

/// The op `i` as the end of GPT-2's tanh GELU: the ops to remove, and `x`.
fn gelu_tanh(
    imp: &Imp<'_>,
    i: usize,
    producer: &HashMap<usize, usize>,
    readers: &HashMap<usize, usize>,
) -> Option<(Vec<usize>, usize)> {
    let ops = &imp.ops;
    let step = |v: usize| -> Option<usize> {
        (readers.get(&v) == Some(&1)).then(|| producer.get(&v).copied())?
    };
    let [Arg::T(a), Arg::T(b)] = func(&ops[i], "mul")? else {
        return None;
    };
    let (half_op, one_op) = [(step(*a)?, step(*b)?), (step(*b)?, step(*a)?)]
        .into_iter()
        .find(|&(h, o)| {
            with_lit(&ops[h], "mul", 0.5).is_some() && with_lit(&ops[o], "add", 1.0).is_some()
        })?;
    let x = with_lit(&ops[half_op], "mul", 0.5)?;
    let tanh_op = step(with_lit(&ops[one_op], "add", 1.0)?)?;
    let [Arg::T(inner)] = func(&ops[tanh_op], "tanh")? else {
        return None;
    };
    let scale_op = step(*inner)?;
    let sum_op = step(with_lit(&ops[scale_op], "mul", 0.797_884_6)?)?;
    let [Arg::T(p), Arg::T(q)] = func(&ops[sum_op], "add")? else {
        return None;
    };
    let cubic = match (*p == x, *q == x) {
        (true, false) => *q,
        (false, true) => *p,
        _ => return None,
    };
    let cubic_op = step(cubic)?;
    let pow_op = step(with_lit(&ops[cubic_op], "mul", 0.044_715)?)?;
    (with_lit(&ops[pow_op], "pow", 3.0)? == x).then_some(())?;
    // `pow(x, 3)`: x first.
    if !matches!(func(&ops[pow_op], "pow")?, [Arg::T(t), _] if *t == x) {
        return None;
    }
    Some((
        vec![half_op, one_op, tanh_op, scale_op, sum_op, cubic_op, pow_op],
        x,
    ))
}
