//! ONNX's shape rules on symbolic shapes ([`Poly`] dims), shared by the folding of shape
//! arithmetic and the mapping of ops: numpy broadcasting, `Reshape`'s 0 and -1, `Squeeze`
//! and `Unsqueeze` axes, `Slice` bounds, pooling and convolution sizes. Each answers `None`
//! when the shape cannot be told (symbolic sizes it cannot compare, a bad axis).

use super::model::Num;
use super::sym::Poly;

/// Axis `a` of a rank-`rank` tensor, negative counting from the end.
pub fn axis(a: i64, rank: usize) -> Option<usize> {
    let r = i64::try_from(rank).ok()?;
    let a = if a < 0 { a + r } else { a };
    (0..r).contains(&a).then_some(a as usize)
}

/// Numpy broadcasting of several shapes.
pub fn broadcast(shapes: &[&[Poly]]) -> Option<Vec<Poly>> {
    let rank = shapes.iter().map(|s| s.len()).max().unwrap_or(0);
    let one = Poly::constant(1);
    let mut out = vec![one.clone(); rank];
    for s in shapes {
        let off = rank - s.len();
        for (k, d) in s.iter().enumerate() {
            let o = &mut out[off + k];
            if *d == one || d == o {
                continue;
            }
            if *o == one {
                *o = d.clone();
            } else {
                return None;
            }
        }
    }
    Some(out)
}

/// The elements of a shape (a product of dims).
pub fn numel(shape: &[Poly]) -> Option<Poly> {
    shape.iter().try_fold(Poly::constant(1), |a, d| a.mul(d))
}

/// `Reshape`'s target: 0 copies the input's dim (unless `allowzero`), -1 takes what is left.
pub fn reshape(input: &[Poly], target: &[Num], allowzero: bool) -> Option<Vec<Poly>> {
    let mut out: Vec<Option<Poly>> = Vec::with_capacity(target.len());
    let mut infer = None;
    for (k, t) in target.iter().enumerate() {
        let Num::I(p) = t else { return None };
        match p.as_const() {
            Some(-1) => {
                if infer.replace(k).is_some() {
                    return None;
                }
                out.push(None);
            }
            Some(0) if !allowzero => out.push(Some(input.get(k)?.clone())),
            Some(c) if c < 0 => return None,
            _ => out.push(Some(p.clone())),
        }
    }
    if let Some(k) = infer {
        let known = out
            .iter()
            .flatten()
            .try_fold(Poly::constant(1), |a, d| a.mul(d))?;
        out[k] = Some(numel(input)?.div_exact(&known)?);
    }
    out.into_iter().collect()
}

/// `Unsqueeze` with `axes` (of the output).
pub fn unsqueeze(input: &[Poly], axes: &[i64]) -> Option<Vec<Poly>> {
    let rank = input.len() + axes.len();
    let mut at: Vec<usize> = axes.iter().map(|&a| axis(a, rank)).collect::<Option<_>>()?;
    at.sort_unstable();
    at.dedup();
    if at.len() != axes.len() {
        return None;
    }
    let mut it = input.iter();
    (0..rank)
        .map(|k| {
            if at.contains(&k) {
                Some(Poly::constant(1))
            } else {
                it.next().cloned()
            }
        })
        .collect()
}

/// `Squeeze` of `axes`, or of every dim of size 1 when there are none.
pub fn squeeze(input: &[Poly], axes: Option<&[i64]>) -> Option<Vec<Poly>> {
    let one = Poly::constant(1);
    let drop: Vec<usize> = match axes {
        Some(a) => a
            .iter()
            .map(|&a| axis(a, input.len()))
            .collect::<Option<_>>()?,
        None => (0..input.len()).filter(|&k| input[k] == one).collect(),
    };
    if drop.iter().any(|&k| input[k] != one) {
        return None;
    }
    Some(
        input
            .iter()
            .enumerate()
            .filter(|(k, _)| !drop.contains(k))
            .map(|(_, d)| d.clone())
            .collect(),
    )
}

/// One axis of a `Slice`: `(start, end, step)` normalised and clamped to a dim of size
/// `dim`, as ONNX does; `None` when the dim or a bound is symbolic in a way it cannot clamp,
/// or the step is not positive.
pub fn slice_bounds(dim: &Poly, start: i64, end: i64, step: i64) -> Option<(Poly, Poly, i64)> {
    if step <= 0 {
        return None;
    }
    let norm = |v: i64| -> Option<Poly> {
        match dim.as_const() {
            Some(d) => {
                let v = if v < 0 { v.saturating_add(d) } else { v };
                Some(Poly::constant(v.clamp(0, d)))
            }
            // A symbolic dim: a bound past any real size is the end, a negative one counts
            // from the end, a small positive one stays.
            None if v >= 1 << 40 => Some(dim.clone()),
            None if v < 0 => dim.add(&Poly::constant(v)),
            None => Some(Poly::constant(v)),
        }
    };
    Some((norm(start)?, norm(end)?, step))
}

/// `ceil((end - start) / step)`, at least 0, when it can be told.
pub fn slice_len(start: &Poly, end: &Poly, step: i64) -> Option<Poly> {
    let len = end.sub(start)?;
    match len.as_const() {
        Some(l) if l <= 0 => Some(Poly::constant(0)),
        Some(l) => Some(Poly::constant(l.checked_add(step - 1)? / step)),
        None if step == 1 => Some(len),
        None => None,
    }
}

/// A window's output size: `floor((L + pads - dilation·(k - 1) - 1) / stride) + 1`.
pub fn window(l: &Poly, k: i64, stride: i64, pads: i64, dilation: i64) -> Option<Poly> {
    let span = dilation.checked_mul(k.checked_sub(1)?)?.checked_add(1)?;
    let num = l.add(&Poly::constant(pads.checked_sub(span)?))?;
    num.div_floor(&Poly::constant(stride))?
        .add(&Poly::constant(1))
}
