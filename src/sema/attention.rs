//! The shape rule of `attention(q, k, v, ..)` (issue 23): `q` `[..., H_q, S_q, D]`, `k`
//! `[..., H_kv, S_k, D]`, `v` `[..., H_kv, S_k, D_v]`, PyTorch SDPA's layout. The batch dims
//! (all but the last three) broadcast as SDPA's do; `H_kv` divides `H_q` (grouped-query heads
//! as `enable_gqa` takes them); tensors of rank 2 (`[S, D]`) have one head. The output is
//! `[...batch, H_q, S_q, D_v]`: `q`'s shape with `v`'s last dimension. A mismatch is
//! `shape-mismatch`. The attributes' values (`causal`, `window` with `causal`, `scale`) are
//! checked with the functions' (`funcs`). A fourth tensor, the mask (SDPA's `attn_mask`),
//! broadcasts to `[...batch, H_q, S_q, S_k]` (`shape-mismatch` otherwise) and is not given
//! with `causal = true` (`bad-attribute`: SDPA refuses both); its dtype is checked in `infer`.

use super::fmt_shape;
use super::ops::Attrs;
use super::shape::{ArgNames, broadcast2};
use crate::diagnostics::{Code, Diagnostic};
use std::ops::Deref;

const LAYOUT: &str = "attention takes q [..., H_q, S_q, D], k [..., H_kv, S_k, D] and v [..., \
                      H_kv, S_k, D_v], as PyTorch's `scaled_dot_product_attention` does";

/// The output shape of an attention op; `None` when an input is unknown or a mismatch was
/// reported.
pub(super) fn infer<A: Deref<Target = [u64]>>(
    args: &[Option<A>],
    attrs: &Attrs<'_, '_>,
    names: &(impl ArgNames + ?Sized),
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<u64>> {
    if args.len() > 3 {
        causal_and_mask(attrs, names, diags);
    }
    let out = infer_qkv(args, names, diags)?;
    // The mask broadcasts to the scores, [...batch, H_q, S_q, S_k].
    if let (Some(Some(mask)), Some(Some(k))) = (args.get(3), args.get(1)) {
        let (mask, k): (&[u64], &[u64]) = (mask, k);
        let mut scores = out.clone();
        if let Some(last) = scores.last_mut() {
            *last = k[k.len() - 2];
        }
        if broadcast2(mask, &scores).as_deref() != Some(&scores[..]) {
            diags.push(
                Diagnostic::new(
                    Code::ShapeMismatch,
                    format!(
                        "the mask `{}` {} of attention does not broadcast to its scores {}",
                        names.name(3),
                        fmt_shape(mask),
                        fmt_shape(&scores)
                    ),
                )
                .at(names.span(3), format!("shape {}", fmt_shape(mask)))
                .help(
                    "SDPA's `attn_mask` broadcasts to [...batch, H_q, S_q, S_k] (numpy rules: \
                     each dim equal, or 1), one value per (query, key) pair"
                        .to_string(),
                ),
            );
            return None;
        }
    }
    Some(out)
}

/// `causal = true` with a mask: SDPA refuses both (`bad-attribute`).
fn causal_and_mask(
    attrs: &Attrs<'_, '_>,
    names: &(impl ArgNames + ?Sized),
    diags: &mut Vec<Diagnostic>,
) {
    let causal = crate::ops::funcs::CAUSAL.name;
    if attrs.written(causal).is_none() || attrs.ints.iter().any(|(n, v)| n == causal && *v == 0) {
        return;
    }
    diags.push(
        Diagnostic::new(
            Code::BadAttribute,
            format!(
                "attention takes a mask `{}` and `causal = true`: SDPA takes one or the other",
                names.name(3)
            ),
        )
        .at(attrs.span(causal), "causal")
        .with(names.span(3), "a mask")
        .help(
            "write the causal rule into the mask, or drop the mask and keep `causal = true` \
             (PyTorch raises on both)"
                .to_string(),
        ),
    );
}

/// The output shape from `q`, `k` and `v`.
fn infer_qkv<A: Deref<Target = [u64]>>(
    args: &[Option<A>],
    names: &(impl ArgNames + ?Sized),
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<u64>> {
    let [Some(q), Some(k), Some(v), ..] = args else {
        return None;
    };
    let (q, k, v): (&[u64], &[u64], &[u64]) = (q, k, v);
    let mismatch = |message: String, at: usize, label: String, help: String| {
        Diagnostic::new(Code::ShapeMismatch, message)
            .at(names.span(at), label)
            .help(help)
    };
    // Each argument has its sequence and head dims; all three are checked, one error each.
    let mut ok = true;
    for (i, (s, what)) in [(q, "queries"), (k, "keys"), (v, "values")]
        .into_iter()
        .enumerate()
    {
        if s.len() < 2 {
            diags.push(mismatch(
                format!(
                    "the {what} `{}` of attention have shape {}, of rank {}: they need a \
                     sequence and a head dimension",
                    names.name(i),
                    fmt_shape(s),
                    s.len()
                ),
                i,
                format!("rank {}", s.len()),
                format!("{LAYOUT}; reshape `{}` to [..., S, D]", names.name(i)),
            ));
            ok = false;
        }
    }
    if !ok {
        return None;
    }
    let last = |s: &[u64], i: usize| s[s.len() - i];
    let (d, dk) = (last(q, 1), last(k, 1));
    if d != dk {
        diags.push(
            mismatch(
                format!(
                    "the head dim of the queries `{}` {} is {d}, of the keys `{}` {} {dk}",
                    names.name(0),
                    fmt_shape(q),
                    names.name(1),
                    fmt_shape(k)
                ),
                1,
                format!("head dim {dk}"),
                format!(
                    "the scores are q · kᵀ over the head dim: q and k end in the same D ({LAYOUT})"
                ),
            )
            .with(names.span(0), format!("head dim {d}")),
        );
        ok = false;
    }
    let (sk, sv) = (last(k, 2), last(v, 2));
    if sk != sv {
        diags.push(
            mismatch(
                format!(
                    "the keys `{}` {} hold {sk} positions, the values `{}` {} {sv}",
                    names.name(1),
                    fmt_shape(k),
                    names.name(2),
                    fmt_shape(v)
                ),
                2,
                format!("{sv} positions"),
                format!("each key has its value: k and v have the same S_k ({LAYOUT})"),
            )
            .with(names.span(1), format!("{sk} positions")),
        );
        ok = false;
    }
    let rank = q.len().max(k.len()).max(v.len());
    let (sq, dv) = (last(q, 2), last(v, 1));
    if rank == 2 {
        return ok.then(|| vec![sq, dv]);
    }
    let heads = |s: &[u64]| if s.len() >= 3 { last(s, 3) } else { 1 };
    let batch = |s: &[u64]| s[..s.len().saturating_sub(3)].to_vec();
    let (hq, hk, hv) = (heads(q), heads(k), heads(v));
    if hk != hv {
        diags.push(
            mismatch(
                format!(
                    "the keys `{}` {} have {hk} heads, the values `{}` {} {hv}",
                    names.name(1),
                    fmt_shape(k),
                    names.name(2),
                    fmt_shape(v)
                ),
                2,
                format!("{hv} heads"),
                format!("k and v have the same heads H_kv ({LAYOUT})"),
            )
            .with(names.span(1), format!("{hk} heads")),
        );
        ok = false;
    } else if hk == 0 || !hq.is_multiple_of(hk) {
        diags.push(
            mismatch(
                format!(
                    "the {hk} key/value heads of `{}` {} do not divide the {hq} query heads of \
                     `{}` {}",
                    names.name(1),
                    fmt_shape(k),
                    names.name(0),
                    fmt_shape(q)
                ),
                1,
                format!("{hk} heads"),
                format!(
                    "grouped-query attention shares each key/value head among H_q / H_kv query \
                     heads (PyTorch's `enable_gqa`): give k and v a number of heads that divides \
                     {hq} (1 for multi-query, {hq} for multi-head)"
                ),
            )
            .with(names.span(0), format!("{hq} heads")),
        );
        ok = false;
    }
    let out_batch = broadcast2(&batch(q), &batch(k)).and_then(|b| broadcast2(&b, &batch(v)));
    let Some(mut out) = out_batch else {
        diags.push(mismatch(
            format!(
                "the batch dims of `{}` {}, `{}` {} and `{}` {} do not broadcast",
                names.name(0),
                fmt_shape(q),
                names.name(1),
                fmt_shape(k),
                names.name(2),
                fmt_shape(v)
            ),
            0,
            format!("batch dims {}", fmt_shape(&batch(q))),
            "the dims before the heads broadcast (numpy rules), as SDPA's do: equal, or 1"
                .to_string(),
        ));
        return None;
    };
    if !ok {
        return None;
    }
    out.extend([hq, sq, dv]);
    Some(out)
}
