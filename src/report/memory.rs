//! Memory and capacity (`analyze --memory`, the `--summary` footer, JSON `memory`; issue 28):
//! what one step of the graph holds in GPU memory, and whether it fits.
//!
//! - **Parameters and weight bytes** by block: every declared `weight` that no `update`
//!   writes into, counted in the block instance whose name prefixes it (`layers.3.wq` is
//!   `layers.3`'s), else outside blocks. Parameters are elements as declared (a packed 4-bit
//!   weight stored as `u8` counts its bytes).
//! - **State** (KV caches): the `input`s and `weight`s an `update` writes into, and every
//!   `update` output that renames one. They are apart from the parameters everywhere (the
//!   ledger's `why` is `cache`). Per token: the bytes one more position takes along each
//!   cache's `update` axis, for one sequence; per sequence: the cache bytes of one sequence;
//!   in total: all of them. The sequences are the value of the graph's batch param (`B`,
//!   `batch` or `batch_size`, any case), 1 without one.
//! - **Peak live activations** under the plan's kernel order: an input from the start, a
//!   tensor its kernel writes to HBM from that kernel, each to the last kernel that reads it
//!   (graph outputs to the end); tensors kept on chip take nothing. The peak is the largest
//!   sum over a kernel, and that kernel is named.
//! - **Total and capacity**: weights + state + peak activations against the GPU's
//!   `memory_gb`, and (`--max-param NAME`, [`max_param`]) the largest value of a param at
//!   which the total still fits, found by a monotone search that re-checks the file at most
//!   [`crate::limits::MAX_CAPACITY_PROBES`] times.
//!
//! Every sum is checked: a total that does not fit 64 bits makes [`memory`] return `None`.

use crate::analysis::Analysis;
use crate::graph::{Graph, Origin, TensorId};
use crate::syntax::expand::Instance;
use crate::types::OpKind;
use serde::Serialize;
use std::collections::HashMap;

/// Parameters, weights and state of one block (all its instances) or of the ops outside
/// blocks.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct BlockRow {
    /// A block's name, or [`super::summary::OUTSIDE`].
    pub name: String,
    /// Instances of the block (absent for the row outside blocks).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub instances: Option<usize>,
    pub parameters: u64,
    pub weight_bytes: u64,
    /// KV caches and other state declared in it.
    pub state_bytes: u64,
}

/// The KV caches (state an `update` writes into).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct KvCache {
    /// Cache tensors (the buffers `update`s write into).
    pub tensors: usize,
    pub bytes: u64,
    /// Positions each cache holds along its `update` axis, when all hold the same number.
    pub positions: Option<u64>,
    /// The param the sequences are read from (`null`: none, one sequence assumed).
    pub batch_param: Option<String>,
    pub sequences: u64,
    /// Bytes one more position of one sequence takes in every cache together (`null` when
    /// the caches do not divide evenly among the sequences).
    pub bytes_per_token: Option<u64>,
    /// The caches' bytes for one sequence (`null` as above).
    pub bytes_per_sequence: Option<u64>,
}

/// The activations' peak.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Activations {
    pub peak_bytes: u64,
    /// The kernel (index into the plan's kernels, from 0) where the peak occurs.
    pub peak_kernel: Option<usize>,
    /// Its first op.
    pub peak_op: Option<String>,
}

/// The largest value of a param at which the graph fits ([`max_param`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct MaxParam {
    pub param: String,
    /// Its value in this report.
    pub current: i64,
    /// The largest value found that fits (`null`: not even 1 fits).
    pub largest: Option<i64>,
    /// The total at `largest`.
    pub total_bytes: Option<u64>,
    /// Re-checks of the file the search made.
    pub probes: usize,
    /// The search stopped at its bound of probes: `largest` fits, a larger value may too.
    pub bounded: bool,
    /// The smallest value tried at which the graph does not check (counted as not fitting).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invalid_at: Option<i64>,
}

/// The memory report of one graph.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Memory {
    pub parameters: u64,
    pub weight_bytes: u64,
    /// By block, in order of first instance, then outside blocks (when anything is).
    pub blocks: Vec<BlockRow>,
    /// All state (KV caches): `kv_cache.bytes` when there are caches.
    pub state_bytes: u64,
    /// `null` when no `update` writes into a declared tensor.
    pub kv_cache: Option<KvCache>,
    pub activations: Activations,
    /// Weights + state + peak activations.
    pub total_bytes: u64,
    /// The GPU.
    pub hardware: String,
    /// Its memory (`memory_gb`); `null` when its description gives none.
    pub capacity_bytes: Option<u64>,
    /// `total_bytes <= capacity_bytes` (`null` without a capacity).
    pub fits: Option<bool>,
    /// `--max-param NAME`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_param: Option<MaxParam>,
}

/// Names a batch param may go by (compared ignoring case).
pub const BATCH_PARAMS: &[&str] = &["B", "batch", "batch_size"];

pub use crate::analysis::state::state;

/// The innermost instance whose path prefixes `name` (`layers.3.wq` → `layers.3`).
fn instance_of(name: &str, paths: &HashMap<&str, usize>) -> Option<usize> {
    let mut end = name.len();
    while let Some(dot) = name[..end].rfind('.') {
        if let Some(&i) = paths.get(&name[..dot]) {
            return Some(i);
        }
        end = dot;
    }
    None
}

/// The memory report of `a` on a GPU named `hardware` with `capacity` bytes; `batch` gives
/// the graph's batch param and its value, if it has one (asked only when the graph has
/// caches). `None` when a sum overflows.
pub fn memory(
    a: &Analysis,
    instances: &[Instance],
    hardware: &str,
    capacity: Option<u64>,
    batch: &dyn Fn() -> Option<(String, i64)>,
) -> Option<Memory> {
    let g = &a.graph;
    let (is_state, roots) = state(g);
    // Parameters and weights by block.
    let paths: HashMap<&str, usize> = instances
        .iter()
        .enumerate()
        .map(|(i, inst)| (inst.path.as_str(), i))
        .collect();
    let mut rows: Vec<BlockRow> = Vec::new();
    let row_of =
        |name: &str, rows: &mut Vec<BlockRow>| match rows.iter().position(|r| r.name == name) {
            Some(k) => k,
            None => {
                rows.push(BlockRow {
                    name: name.to_string(),
                    ..BlockRow::default()
                });
                rows.len() - 1
            }
        };
    for inst in instances {
        let k = row_of(&inst.block, &mut rows);
        *rows[k].instances.get_or_insert(0) += 1;
    }
    let mut outside = BlockRow {
        name: super::summary::OUTSIDE.to_string(),
        ..BlockRow::default()
    };
    let (mut parameters, mut weight_bytes, mut state_bytes) = (0u64, 0u64, 0u64);
    for (i, t) in g.tensors.iter().enumerate() {
        let external = matches!(t.origin, Origin::Input | Origin::Weight);
        let state = is_state[i] && external;
        if !(state || t.origin == Origin::Weight) {
            continue;
        }
        let row = match instance_of(&t.name, &paths) {
            Some(inst) => {
                let k = row_of(&instances[inst].block, &mut rows);
                &mut rows[k]
            }
            None => &mut outside,
        };
        if state {
            row.state_bytes = row.state_bytes.checked_add(t.bytes)?;
            state_bytes = state_bytes.checked_add(t.bytes)?;
        } else {
            let elements = crate::ops::elements(&t.shape)?;
            row.parameters = row.parameters.checked_add(elements)?;
            row.weight_bytes = row.weight_bytes.checked_add(t.bytes)?;
            parameters = parameters.checked_add(elements)?;
            weight_bytes = weight_bytes.checked_add(t.bytes)?;
        }
    }
    if outside.parameters > 0 || outside.state_bytes > 0 || rows.is_empty() {
        rows.push(outside);
    }
    let kv_cache = (!roots.is_empty())
        .then(|| kv_cache(g, &roots, batch()))
        .flatten();
    let activations = activations(a, &is_state)?;
    let total_bytes = weight_bytes
        .checked_add(state_bytes)?
        .checked_add(activations.peak_bytes)?;
    Some(Memory {
        parameters,
        weight_bytes,
        blocks: rows,
        state_bytes,
        kv_cache,
        activations,
        total_bytes,
        hardware: hardware.to_string(),
        capacity_bytes: capacity,
        fits: capacity.map(|c| total_bytes <= c),
        max_param: None,
    })
}

/// The caches' figures (`None` when a sum overflows).
fn kv_cache(
    g: &Graph,
    roots: &[(TensorId, usize)],
    batch: Option<(String, i64)>,
) -> Option<KvCache> {
    let mut bytes = 0u64;
    let mut per_position = 0u64;
    let mut positions: Option<Option<u64>> = None;
    for &(r, axis) in roots {
        let t = g.tensor(r);
        let len = t.shape.get(axis).copied().unwrap_or(1).max(1);
        bytes = bytes.checked_add(t.bytes)?;
        // A dim divides the tensor's bytes: every other dim and the element size remain.
        per_position = per_position.checked_add(t.bytes / len)?;
        positions = Some(match positions {
            None => Some(len),
            Some(Some(p)) if p == len => Some(p),
            Some(_) => None,
        });
    }
    let (batch_param, sequences) = match batch {
        Some((name, v)) if v >= 1 => (Some(name), v as u64),
        _ => (None, 1),
    };
    let per = |b: u64| b.is_multiple_of(sequences).then(|| b / sequences);
    Some(KvCache {
        tensors: roots.len(),
        bytes,
        positions: positions.flatten(),
        batch_param,
        sequences,
        bytes_per_token: per(per_position),
        bytes_per_sequence: per(bytes),
    })
}

/// The peak of live activations under the plan's kernel order.
fn activations(a: &Analysis, is_state: &[bool]) -> Option<Activations> {
    let g = &a.graph;
    let groups = &a.traffic.groups;
    let n = groups.len();
    if n == 0 {
        return Some(Activations::default());
    }
    // First and last kernel of each tensor's life; an `update` output that renames a
    // produced buffer extends the buffer's life.
    let nt = g.tensors.len();
    let mut alias: Vec<usize> = (0..nt).collect();
    for &o in &g.topo {
        let op = g.op(o);
        if op.kind == OpKind::Update
            && let Some(buf) = op.inputs.first()
        {
            alias[op.output.index()] = alias[buf.tensor.index()];
        }
    }
    let mut first: Vec<Option<usize>> = vec![None; nt];
    let mut last: Vec<usize> = vec![0; nt];
    for (i, t) in g.tensors.iter().enumerate() {
        if t.origin == Origin::Input && !is_state[i] {
            first[i] = Some(0);
        }
    }
    for (k, gt) in groups.iter().enumerate() {
        for w in &gt.writes {
            let r = alias[w.tensor.index()];
            if is_state[r] {
                continue;
            }
            if first[r].is_none() {
                first[r] = Some(k);
            }
            last[r] = last[r].max(k);
        }
        for rd in &gt.reads {
            let r = alias[rd.tensor.index()];
            last[r] = last[r].max(k);
        }
    }
    for &t in &g.outputs {
        last[alias[t.index()]] = n - 1;
    }
    // Σ bytes live at each kernel: +bytes at the first kernel, −bytes after the last.
    let mut delta: Vec<i128> = vec![0; n + 1];
    for (i, t) in g.tensors.iter().enumerate() {
        let Some(f) = first[i] else { continue };
        if is_state[i] || t.origin == Origin::Weight {
            continue;
        }
        let l = last[i].max(f);
        delta[f] += i128::from(t.bytes);
        delta[l + 1] -= i128::from(t.bytes);
    }
    let (mut live, mut peak, mut at) = (0i128, 0i128, None);
    for (k, d) in delta.iter().take(n).enumerate() {
        live += d;
        if live > peak {
            (peak, at) = (live, Some(k));
        }
    }
    Some(Activations {
        peak_bytes: u64::try_from(peak).ok()?,
        peak_kernel: at,
        peak_op: at
            .and_then(|k| a.plan.groups[k].ops.first())
            .map(|&o| g.op(o).name.to_string()),
    })
}

/// `bytes` in GB (10^9 bytes), one decimal: `21.4 GB`.
pub fn fmt_gb(bytes: u64) -> String {
    format!("{:.1} GB", bytes as f64 / 1e9)
}

/// What one probe of [`max_param`] found at a value of the param.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Probe {
    /// The graph checks; its total memory in bytes.
    Total(u64),
    /// The graph does not check at that value (or a sum overflows).
    Invalid,
}

/// The largest value `v >= 1` of `param` at which `probe(v)` fits in `capacity`, assuming
/// memory grows with the param: from `current` (whose total is `current_total`), doubling
/// while it fits, then halving the interval. At most `max_probes` calls of `probe`; a value
/// where the graph does not check counts as not fitting. Checked arithmetic throughout.
pub fn max_param(
    param: &str,
    current: i64,
    current_total: u64,
    capacity: u64,
    max_probes: usize,
    probe: &mut dyn FnMut(i64) -> Probe,
) -> MaxParam {
    let mut out = MaxParam {
        param: param.to_string(),
        current,
        ..MaxParam::default()
    };
    let mut test = |v: i64, out: &mut MaxParam| -> Option<bool> {
        if out.probes >= max_probes {
            out.bounded = true;
            return None;
        }
        out.probes += 1;
        match probe(v) {
            Probe::Total(t) if t <= capacity => {
                if out.largest.is_none_or(|l| v > l) {
                    out.largest = Some(v);
                    out.total_bytes = Some(t);
                }
                Some(true)
            }
            Probe::Total(_) => Some(false),
            Probe::Invalid => {
                out.invalid_at = Some(out.invalid_at.map_or(v, |i| i.min(v)));
                Some(false)
            }
        }
    };
    // `lo` fits; `hi` does not (`None`: not found yet).
    let mut lo: i64;
    let mut hi: Option<i64> = None;
    if current >= 1 && current_total <= capacity {
        out.largest = Some(current);
        out.total_bytes = Some(current_total);
        lo = current;
    } else {
        if current == 1 {
            return out;
        }
        // Does the smallest value fit?
        if test(1, &mut out) != Some(true) {
            return out;
        }
        lo = 1;
        if current > 1 {
            hi = Some(current);
        }
    }
    // Doubling until a value does not fit.
    while hi.is_none() {
        let next = lo.checked_mul(2).unwrap_or(i64::MAX);
        if next == lo {
            return out;
        }
        match test(next, &mut out) {
            Some(true) => lo = next,
            Some(false) => hi = Some(next),
            None => return out,
        }
    }
    // Bisection between lo (fits) and hi (does not).
    while let Some(h) = hi {
        if h - lo <= 1 {
            break;
        }
        let mid = lo + (h - lo) / 2;
        match test(mid, &mut out) {
            Some(true) => lo = mid,
            Some(false) => hi = Some(mid),
            None => break,
        }
    }
    out
}

#[cfg(test)]
mod tests;
