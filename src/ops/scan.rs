//! The scans (issue 23): Mamba's fused selective scan and a generic associative scan.
//!
//! | kind | class | FLOPs | reads | writes |
//! |---|---|---|---|---|
//! | `selective_scan(u, delta, A, B, C[, D[, z[, delta_bias]]], delta_softplus = b)` | reduction | [`selective_flops`] | every input once | `[B, D, L]` |
//! | `associative_scan.F(x, axis = a)` | reduction | F's per element | `x` | `x`'s shape |
//! | `associative_scan.linear(a, b, axis = a)` | reduction | 2 per element | `a`, `b` | `a`'s shape |
//!
//! **`selective_scan`** is `mamba_ssm`'s `selective_scan_fn(u, delta, A, B, C, D, z,
//! delta_bias, delta_softplus)` (csrc/selective_scan/selective_scan_fwd_kernel.cuh), one
//! kernel: `u` and `delta` `[B, D, L]` (D = d_inner channels), `A` `[D, N]` (f32), `B` and `C`
//! input-dependent, `[B, N, L]` or `[B, G, N, L]` (G groups dividing D), then the optional
//! ones in `selective_scan_fn`'s positional order: `D` `[D]` (f32, the skip), `z` `[B, D, L]`
//! (the gate), `delta_bias` `[D]` (f32). As with Python's positional arguments, a later one
//! needs the earlier ones (Mamba passes all three). The state `h` `[B, D, N]` stays on chip:
//! compulsory bytes are every input read once and the output written once.
//!
//! FLOPs, per (b, d, l) of the output, from the kernel's inner loops (the same count as
//! `selective_scan_ref`'s einsums, with `delta·u` computed once per (b, d, l) as the kernel
//! does):
//! - per state element n (N of them): `delta·A` 1, its `exp` 1 (the registry's `exp`),
//!   `B·(delta·u)` 1, the state update `h = dA·h + dBu` 2, the output `y += C·h` 2: **7**;
//! - `delta·u`: 1;
//! - with `D`: the skip `y + D·u`: 2; with `z`: the gate `y · silu(z)`: 4 (the registry's
//!   `silu`) + 1 = 5; with `delta_bias`: 1; with `delta_softplus = true`: 1 (the registry's
//!   `softplus`).
//!
//! The kernel's `A·log2(e)` per (d, n) and chunk is not counted (it does not grow with L).
//! So Mamba's use (all optional inputs, softplus): `B·D·L·(7N + 10)`.
//!
//! **`associative_scan.F(x, axis = a)`** is an inclusive scan along one axis whose combine is
//! the function F (written as `elementwise.F` names its function: the language has no string
//! attributes): `add` (= `cumsum`, which stays), `mul` (`cumprod`), `max` (`cummax`'s values),
//! `min`, each 1 FLOP per element; `linear(a, b)` is the first-order recurrence `h_t = a_t ·
//! h_{t-1} + b_t` (h_0 = b_0) over pairs, the form a selective scan's state update takes, 2
//! FLOPs per element. Counts are the *sequential* work, one combine per element; a
//! work-efficient parallel (Blelloch) scan does about 2 combines per element (and the linear
//! combine of two pairs, `(a1·a2, a2·b1 + b2)`, is 3 FLOPs), which fgraph does not count. A
//! combine fgraph does not know is opaque with its cost stated: `associative_scan.lse(x,
//! flops = 4)`, FLOPs per element.
//!
//! Both are reductions for fusion: each ends its kernel (a scan cannot fuse across the axis it
//! scans), and may take elementwise producers as a prologue, as a reduction does. In Mamba
//! every producer of the selective scan is a matmul or a conv (rule 3 keeps them apart), so it
//! is one kernel of its own, as `mamba_ssm` runs it: the softplus, the bias, the skip and the
//! gate are its inputs and attributes, inside it.

use super::funcs::{self, AttrSpec, AttrType, attr};
use super::{Arity, Compute, FlopArgs, FlopSource, FuseClass, OpSpec, elements, output, whole};
use crate::types::OpKind;

/// The kinds of this module: their attributes are checked by type from their rows.
pub const KINDS: &[OpKind] = &[OpKind::SelectiveScan, OpKind::AssociativeScan];

/// FLOPs per (b, d, l, n): `delta·A`, `exp`, `B·(delta·u)`, `h = dA·h + dBu`, `y += C·h`.
pub const PER_STATE: u64 = 7;
/// FLOPs per (b, d, l) of `delta·u`.
pub const DELTA_U: u64 = 1;
/// FLOPs per (b, d, l) of the skip `y + D·u`.
pub const SKIP: u64 = 2;
/// FLOPs per (b, d, l) of the gate `y · silu(z)`: the registry's `silu` and a product.
pub const GATE: u64 = SILU + 1;
/// FLOPs per (b, d, l) of `delta + delta_bias`.
pub const BIAS: u64 = 1;
/// FLOPs per (b, d, l) of the softplus of `delta` (the registry's `softplus`).
pub const SOFTPLUS: u64 = 1;
const SILU: u64 = 4;

/// Positions of the optional inputs of a selective scan (`selective_scan_fn`'s order).
pub const D_SKIP: usize = 5;
pub const Z_GATE: usize = 6;
pub const DELTA_BIAS: usize = 7;

pub const DELTA_SOFTPLUS: AttrSpec = attr(
    "delta_softplus",
    AttrType::Bool,
    "`true` applies softplus to `delta` (after `delta_bias`) inside the kernel, as Mamba \
     does (default `false`)",
);

pub const SELECTIVE_SCAN: OpSpec = OpSpec {
    kind: OpKind::SelectiveScan,
    class: FuseClass::Reduction,
    compute: Compute::Vector,
    arity: Arity {
        min: 5,
        max: 8,
        text: "5 to 8 tensors",
        help: "a selective scan takes u, delta, A, B, C, then optionally D, z and delta_bias \
               in that order (mamba_ssm's `selective_scan_fn`): `selective_scan(u, dt, A, B, \
               C, D, z, dt_bias, delta_softplus = true)`",
    },
    attrs: &[DELTA_SOFTPLUS],
    injective: false,
    cheap_to_recompute: false,
    accepts_copies: true,
    partial_reads: false,
    flops: selective,
    read: whole,
    write: output,
};

pub const ASSOCIATIVE_SCAN: OpSpec = OpSpec {
    kind: OpKind::AssociativeScan,
    class: FuseClass::Reduction,
    compute: Compute::Vector,
    arity: Arity {
        min: 1,
        max: 2,
        text: "1 or 2 tensors",
        help: "an associative scan takes one tensor (`associative_scan.add(x, axis = -1)`), or \
               the pair of a linear recurrence (`associative_scan.linear(a, b, axis = -1)`)",
    },
    // The combine function's attributes (`axis`) are its row's in the function registry.
    attrs: &[],
    injective: false,
    cheap_to_recompute: false,
    accepts_copies: true,
    partial_reads: false,
    flops: associative,
    read: whole,
    write: output,
};

/// The FLOPs of a selective scan with output `[B, D, L]`, `n` state elements per channel,
/// `inputs` tensor arguments (the optional `D`, `z`, `delta_bias` present by position) and
/// `softplus`; `None` past 2^64.
pub fn selective_flops(out: &[u64], n: u64, inputs: usize, softplus: bool) -> Option<u64> {
    let has = |k: usize| u64::from(inputs > k);
    let per_bdl = PER_STATE.checked_mul(n)?.checked_add(
        DELTA_U
            + has(D_SKIP) * SKIP
            + has(Z_GATE) * GATE
            + has(DELTA_BIAS) * BIAS
            + u64::from(softplus) * SOFTPLUS,
    )?;
    elements(out)?.checked_mul(per_bdl)
}

fn selective(a: &FlopArgs<'_>) -> (Option<u64>, FlopSource) {
    // `A` is `[D, N]`; a wrong shape was reported and counts no state.
    let n = a.third.filter(|s| s.len() == 2).map_or(0, |s| s[1]);
    let softplus = a
        .ints
        .iter()
        .any(|(k, v)| k == DELTA_SOFTPLUS.name && *v != 0);
    (
        selective_flops(a.out, n, a.inputs, softplus),
        FlopSource::PerElement,
    )
}

/// The combine's FLOPs per output element, from the function registry.
fn associative(a: &FlopArgs<'_>) -> (Option<u64>, FlopSource) {
    let n = elements(a.out);
    match a.func.and_then(funcs::flops_per_element) {
        Some(per) => (n.and_then(|n| n.checked_mul(per)), FlopSource::Table),
        None => (
            n.and_then(|n| n.checked_mul(funcs::UNKNOWN_FLOPS)),
            FlopSource::Unknown,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selective_flops_by_hand() {
        // Mamba-130m's scan: B 1, D 1536, L 2048, N 16, all optional inputs, softplus:
        // 7·16 + 1 + 2 + 5 + 1 + 1 = 122 per (b, d, l).
        assert_eq!(
            selective_flops(&[1, 1536, 2048], 16, 8, true),
            Some(1536 * 2048 * 122)
        );
        // No optional input, no softplus: 7N + 1.
        assert_eq!(selective_flops(&[2, 4, 8], 16, 5, false), Some(64 * 113));
        // D only: + 2; D and z: + 7.
        assert_eq!(selective_flops(&[1, 1, 1], 1, 6, false), Some(10));
        assert_eq!(selective_flops(&[1, 1, 1], 1, 7, false), Some(15));
        assert_eq!(
            selective_flops(&[1 << 40, 1 << 20, 1], 1 << 10, 5, false),
            None
        );
        // The registry's counts the constants stand for.
        assert_eq!(funcs::flops_per_element("silu"), Some(SILU));
        assert_eq!(funcs::flops_per_element("softplus"), Some(SOFTPLUS));
        assert_eq!(funcs::flops_per_element("exp"), Some(1));
    }
}
