//! Shape rules: views, numpy broadcasting, matmul, reshape.

use super::fmt_shape;
use crate::diagnostics::{Code, Diagnostic, Span};
use std::borrow::Cow;
use std::ops::Deref;

/// The arguments of an op as diagnostics name them, built only when a diagnostic needs one.
pub trait ArgNames {
    /// Argument `k` as written: `qkv_heads[…].T`.
    fn name(&self, k: usize) -> String;
    fn span(&self, k: usize) -> Span;
}

impl ArgNames for [(String, Span)] {
    fn name(&self, k: usize) -> String {
        self[k].0.clone()
    }
    fn span(&self, k: usize) -> Span {
        self[k].1
    }
}

/// The shape an argument presents after its view: `t[i]` drops the leading dimension, `.T`
/// swaps the last two.
/// The shape is borrowed when there is no view.
pub fn view<'t>(
    shape: &'t [u64],
    index: Option<u64>,
    transpose: bool,
    name: &str,
    span: Span,
    diags: &mut Vec<Diagnostic>,
) -> Option<Cow<'t, [u64]>> {
    if index.is_none() && !transpose {
        return Some(Cow::Borrowed(shape));
    }
    let mut s = shape.to_vec();
    if let Some(i) = index {
        match s.first() {
            None => {
                diags.push(
                    Diagnostic::new(Code::BadView, format!("cannot index scalar `{name}`"))
                        .at(span, "`t[i]` needs a tensor of rank 1 or more")
                        .help("drop the index: a scalar has no slices"),
                );
                return None;
            }
            Some(&n) if i >= n => {
                diags.push(
                    Diagnostic::new(
                        Code::BadView,
                        format!(
                            "index {i} is out of range for `{name}` of shape {}",
                            fmt_shape(shape)
                        ),
                    )
                    .at(span, format!("valid indices are 0 to {}", n - 1))
                    .help(format!("`{name}` has {n} slices along its first dimension")),
                );
                return None;
            }
            Some(_) => {
                s.remove(0);
            }
        }
    }
    if transpose {
        let r = s.len();
        if r < 2 {
            diags.push(
                Diagnostic::new(
                    Code::BadView,
                    format!("`.T` needs rank 2 or more, but this view of `{name}` has rank {r}"),
                )
                .at(span, format!("shape {}", fmt_shape(&s)))
                .help("`.T` swaps the last two dimensions"),
            );
            return None;
        }
        s.swap(r - 2, r - 1);
    }
    Some(Cow::Owned(s))
}

pub(super) fn broadcast2(a: &[u64], b: &[u64]) -> Option<Vec<u64>> {
    let n = a.len().max(b.len());
    let mut out = vec![0; n];
    for i in 0..n {
        let da = if i < n - a.len() {
            1
        } else {
            a[i - (n - a.len())]
        };
        let db = if i < n - b.len() {
            1
        } else {
            b[i - (n - b.len())]
        };
        out[i] = match (da, db) {
            (x, y) if x == y => x,
            (1, y) => y,
            (x, 1) => x,
            _ => return None,
        };
    }
    Some(out)
}

/// numpy broadcasting over all arguments. `Some(None)` when an argument is unknown.
pub fn broadcast_all<A: Deref<Target = [u64]>>(
    args: &[Option<A>],
    names: &(impl ArgNames + ?Sized),
    diags: &mut Vec<Diagnostic>,
) -> Option<Option<Vec<u64>>> {
    if args.iter().any(Option::is_none) {
        return Some(None);
    }
    let mut acc: Vec<u64> = Vec::new();
    let mut acc_from = 0;
    for (k, a) in args.iter().flatten().enumerate() {
        let a: &[u64] = a;
        // Broadcasting with nothing, or with an equal shape, gives that shape.
        if k == 0 {
            acc = a.to_vec();
            continue;
        }
        // A shape that fits into the one so far (each dimension equal or 1, aligned from the
        // right, as a bias does) leaves it as it is: no new vector.
        if a.len() <= acc.len()
            && a.iter()
                .rev()
                .zip(acc.iter().rev())
                .all(|(&x, &y)| x == y || x == 1)
        {
            continue;
        }
        match broadcast2(&acc, a) {
            Some(s) => acc = s,
            None => {
                diags.push(
                    Diagnostic::new(
                        Code::ShapeMismatch,
                        format!(
                            "cannot broadcast `{}` of shape {} with shape {}",
                            names.name(k),
                            fmt_shape(a),
                            fmt_shape(&acc)
                        ),
                    )
                    .at(names.span(k), format!("shape {}", fmt_shape(a)))
                    .with(
                        names.span(acc_from),
                        format!("broadcast so far: {}", fmt_shape(&acc)),
                    )
                    .help("dimensions must be equal or 1, aligned from the right (numpy rules)"),
                );
                return None;
            }
        }
        if k == 0 {
            acc_from = 0;
        }
    }
    Some(Some(acc))
}

/// `[..., M, K] x [..., K, N] -> [..., M, N]` with broadcast batch dimensions.
pub fn matmul<A: Deref<Target = [u64]>>(
    args: &[Option<A>],
    names: &(impl ArgNames + ?Sized),
    diags: &mut Vec<Diagnostic>,
) -> Option<Option<Vec<u64>>> {
    let (Some(Some(a)), Some(Some(b))) = (args.first(), args.get(1)) else {
        return Some(None);
    };
    let (a, b): (&[u64], &[u64]) = (a, b);
    for (k, s) in [(0, a), (1, b)] {
        if s.len() < 2 {
            diags.push(
                Diagnostic::new(
                    Code::ShapeMismatch,
                    format!(
                        "matmul operand `{}` has rank {}, but matmul needs rank 2 or more",
                        names.name(k),
                        s.len()
                    ),
                )
                .at(names.span(k), format!("shape {}", fmt_shape(s)))
                .help("a matmul multiplies [.., M, K] by [.., K, N]"),
            );
            return None;
        }
    }
    let (ra, rb) = (a.len(), b.len());
    let (m, k1) = (a[ra - 2], a[ra - 1]);
    let (k2, n) = (b[rb - 2], b[rb - 1]);
    if k1 != k2 {
        let mut d = Diagnostic::new(
            Code::ShapeMismatch,
            format!(
                "matmul inner dimensions differ: `{}` is {} and `{}` is {}",
                names.name(0),
                fmt_shape(a),
                names.name(1),
                fmt_shape(b)
            ),
        )
        .at(names.span(1), format!("has {k2} rows"))
        .with(names.span(0), format!("has {k1} columns"));
        // The right operand read transposed would fit (a weight stored [N, K], as PyTorch's
        // `nn.Linear` stores it): say so, with the `.T` view as a fix.
        let right = names.name(1);
        if b[rb - 1] == k1 && !right.ends_with(".T") {
            let end = names.span(1).end;
            let mut t = b.to_vec();
            t.swap(rb - 2, rb - 1);
            d = d
                .help(format!(
                    "`{right}.T` is {}: did you mean `{right}.T`? (the last dimension of the \
                     left operand must equal the second-to-last of the right)",
                    fmt_shape(&t)
                ))
                .fix(crate::diagnostics::Fix::replace(
                    format!("read `{right}` transposed: `{right}.T`"),
                    crate::diagnostics::Applicability::Safe,
                    Span::new(end, end),
                    ".T",
                ));
        } else {
            d = d.help(
                "the last dimension of the left operand must equal the second-to-last of the right",
            );
        }
        diags.push(d);
        return None;
    }
    let Some(mut batch) = broadcast2(&a[..ra - 2], &b[..rb - 2]) else {
        diags.push(
            Diagnostic::new(
                Code::ShapeMismatch,
                format!(
                    "matmul batch dimensions of `{}` {} and `{}` {} do not broadcast",
                    names.name(0),
                    fmt_shape(&a[..ra - 2]),
                    names.name(1),
                    fmt_shape(&b[..rb - 2])
                ),
            )
            .at(names.span(1), format!("batch {}", fmt_shape(&b[..rb - 2])))
            .with(names.span(0), format!("batch {}", fmt_shape(&a[..ra - 2])))
            .help("batch dimensions must be equal or 1, aligned from the right"),
        );
        return None;
    };
    // A bias (`matmul(x, w, b)`, nn.Linear): one value per output column, over a 2-D weight.
    if let Some(Some(bias)) = args.get(2) {
        let bias: &[u64] = bias;
        if rb != 2 || bias != [n] {
            let (at, label, help) = if rb != 2 {
                (
                    1,
                    format!("shape {}", fmt_shape(b)),
                    format!(
                        "a matmul with a bias is nn.Linear's `F.linear`: a weight of rank 2 \
                         ([K, N]) and a bias [N]; write a batched product's bias as an `add` \
                         after it: `add(matmul({}, {}), {})`",
                        names.name(0),
                        names.name(1),
                        names.name(2)
                    ),
                )
            } else {
                (
                    2,
                    format!("shape {}", fmt_shape(bias)),
                    format!("the bias adds one value per output column: [{n}]"),
                )
            };
            diags.push(
                Diagnostic::new(
                    Code::ShapeMismatch,
                    format!(
                        "the bias `{}` of a matmul of `{}` {} by `{}` {} must be [{n}] over a \
                         2-D weight",
                        names.name(2),
                        names.name(0),
                        fmt_shape(a),
                        names.name(1),
                        fmt_shape(b)
                    ),
                )
                .at(names.span(at), label)
                .help(help),
            );
            return None;
        }
    }
    batch.extend([m, n]);
    Some(Some(batch))
}

/// A reshape keeps the element count. Returns the declared shape when it does.
pub fn reshape<A: Deref<Target = [u64]>>(
    args: &[Option<A>],
    declared: Vec<u64>,
    names: &(impl ArgNames + ?Sized),
    ty_span: Span,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<u64>> {
    let Some(Some(input)) = args.first() else {
        return Some(declared);
    };
    let input: &[u64] = input;
    let count = |s: &[u64]| s.iter().try_fold(1u64, |a, &d| a.checked_mul(d));
    let (a, b) = (count(input), count(&declared));
    if a != b {
        let show = |c: Option<u64>| c.map_or("more than 2^64".to_string(), |c| c.to_string());
        diags.push(
            Diagnostic::new(
                Code::ShapeMismatch,
                format!(
                    "reshape changes the element count: {} has {} elements, {} has {}",
                    fmt_shape(input),
                    show(a),
                    fmt_shape(&declared),
                    show(b)
                ),
            )
            .at(ty_span, format!("{} elements", show(b)))
            .with(names.span(0), format!("{} elements", show(a)))
            .help(
                "a reshape reinterprets the same elements; the products of the shapes must match",
            ),
        );
        return None;
    }
    Some(declared)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(n: usize) -> Vec<(String, Span)> {
        (0..n)
            .map(|i| (format!("t{i}"), Span::new(i, i + 1)))
            .collect()
    }

    fn bc(shapes: &[&[u64]]) -> Option<Vec<u64>> {
        let args: Vec<Option<Vec<u64>>> = shapes.iter().map(|s| Some(s.to_vec())).collect();
        broadcast_all(&args, names(shapes.len()).as_slice(), &mut Vec::new()).flatten()
    }

    fn mm(a: &[u64], b: &[u64]) -> (Option<Vec<u64>>, Vec<Code>) {
        let mut d = Vec::new();
        let r = matmul(
            &[Some(a.to_vec()), Some(b.to_vec())],
            names(2).as_slice(),
            &mut d,
        )
        .flatten();
        (r, d.iter().map(|d| d.code).collect())
    }

    #[test]
    fn numpy_broadcasting() {
        assert_eq!(bc(&[&[4, 8], &[8]]), Some(vec![4, 8]));
        assert_eq!(bc(&[&[4, 1], &[1, 8]]), Some(vec![4, 8]));
        assert_eq!(bc(&[&[2, 1, 8], &[3, 1], &[8]]), Some(vec![2, 3, 8]));
        assert_eq!(bc(&[&[], &[5, 6]]), Some(vec![5, 6]));
        assert_eq!(bc(&[&[4, 8], &[4]]), None);
        assert_eq!(bc(&[&[3], &[2]]), None);
    }

    #[test]
    fn unknown_arguments_are_not_errors() {
        let mut d = Vec::new();
        let r = broadcast_all(&[Some(vec![4]), None], names(2).as_slice(), &mut d);
        assert_eq!(r, Some(None));
        assert!(d.is_empty());
    }

    #[test]
    fn matmul_shapes() {
        assert_eq!(mm(&[4, 8], &[8, 16]), (Some(vec![4, 16]), vec![]));
        assert_eq!(mm(&[2, 4, 8], &[8, 16]), (Some(vec![2, 4, 16]), vec![]));
        assert_eq!(
            mm(&[2, 1, 4, 8], &[3, 8, 16]),
            (Some(vec![2, 3, 4, 16]), vec![])
        );
        assert_eq!(mm(&[4, 8], &[9, 16]), (None, vec![Code::ShapeMismatch]));
        assert_eq!(mm(&[8], &[8, 16]), (None, vec![Code::ShapeMismatch]));
        assert_eq!(
            mm(&[2, 4, 8], &[3, 8, 16]),
            (None, vec![Code::ShapeMismatch])
        );
    }

    /// The view as an owned shape (a glob import is shadowed by this).
    fn view(
        shape: &[u64],
        index: Option<u64>,
        transpose: bool,
        name: &str,
        span: Span,
        diags: &mut Vec<Diagnostic>,
    ) -> Option<Vec<u64>> {
        super::view(shape, index, transpose, name, span, diags).map(Cow::into_owned)
    }

    #[test]
    fn no_view_borrows_the_shape() {
        let shape = [3, 4];
        let v = super::view(&shape, None, false, "t", Span::new(0, 1), &mut Vec::new());
        assert!(matches!(v, Some(Cow::Borrowed(s)) if s == shape));
    }

    #[test]
    fn views() {
        let mut d = Vec::new();
        let s = Span::new(0, 1);
        assert_eq!(
            view(&[3, 4, 5], Some(2), false, "t", s, &mut d),
            Some(vec![4, 5])
        );
        assert_eq!(
            view(&[3, 4, 5], Some(1), true, "t", s, &mut d),
            Some(vec![5, 4])
        );
        assert_eq!(view(&[4, 5], None, true, "t", s, &mut d), Some(vec![5, 4]));
        assert!(d.is_empty());
        assert_eq!(view(&[3, 4], Some(3), false, "t", s, &mut d), None);
        assert_eq!(view(&[], Some(0), false, "t", s, &mut d), None);
        assert_eq!(view(&[3, 4], Some(0), true, "t", s, &mut d), None);
        assert_eq!(view(&[7], None, true, "t", s, &mut d), None);
        assert_eq!(
            d.iter().map(|d| d.code).collect::<Vec<_>>(),
            [Code::BadView; 4]
        );
    }

    #[test]
    fn reshape_keeps_the_element_count() {
        let mut d = Vec::new();
        let s = Span::new(0, 1);
        assert_eq!(
            reshape(
                &[Some(vec![4, 6])],
                vec![2, 12],
                names(1).as_slice(),
                s,
                &mut d
            ),
            Some(vec![2, 12])
        );
        assert_eq!(
            reshape(
                &[Some(vec![4, 6])],
                vec![5, 5],
                names(1).as_slice(),
                s,
                &mut d
            ),
            None
        );
        assert_eq!(d.len(), 1);
    }
}
