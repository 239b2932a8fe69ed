//! Regressions against a saved report (`analyze --baseline OLD.json`, JSON `baseline`;
//! `--fail-on-regression PCT`, issue 28): the plan now against the JSON report of an earlier
//! run — kernels, fused traffic and time in total, per layer (`summary`'s instances) and per
//! kernel — and whether traffic or time grew by more than a percentage, with the op whose
//! kernel grew most.
//!
//! OLD.json is untrusted: [`parse`] takes bytes already read under
//! [`crate::limits::MAX_BASELINE_BYTES`], keeps only the figures it compares (serde ignores
//! the rest), and says what is wrong by kind and position only, never quoting the file. Its
//! names (layers, ops) are used only to look up the current graph's: everything shown names
//! the current graph.

use crate::analysis::Analysis;
use crate::cost::CostReport;
use crate::graph::OpId;
use crate::report::summary::Summary;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

#[derive(Deserialize)]
struct OldReport {
    schema_version: Option<u64>,
    groups: Option<Vec<OldGroup>>,
    traffic: Option<OldTraffic>,
    cost: Option<OldCost>,
    summary: Option<OldSummary>,
}

#[derive(Deserialize)]
struct OldGroup {
    ops: Vec<String>,
    bytes_read: u64,
    bytes_written: u64,
    cost: Option<OldKernelCost>,
}

#[derive(Deserialize)]
struct OldKernelCost {
    time_us: f64,
}

#[derive(Deserialize)]
struct OldTraffic {
    fused: OldFused,
}

#[derive(Deserialize)]
struct OldFused {
    bytes_read: u64,
    bytes_written: u64,
}

#[derive(Deserialize)]
struct OldCost {
    fused: OldPlanCost,
}

#[derive(Deserialize)]
struct OldPlanCost {
    time_us: f64,
}

#[derive(Deserialize)]
struct OldSummary {
    instances: Vec<OldRow>,
}

#[derive(Deserialize)]
struct OldRow {
    name: String,
    bytes_read: u64,
    bytes_written: u64,
    time_s: Option<f64>,
}

/// The figures of a saved report that a run is compared with.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Baseline {
    pub kernels: usize,
    pub bytes: u64,
    /// The fused plan's time, seconds (`null` in a report without a cost model).
    pub time_s: Option<f64>,
    /// Per layer (top-level instance): bytes and time.
    layers: HashMap<String, (u64, Option<f64>)>,
    /// Per kernel, by its first op: bytes and time.
    kernels_by_op: HashMap<String, (u64, Option<f64>)>,
}

/// A time in seconds as a saved report has it: the JSON keeps 4 decimals of µs, so an
/// unchanged time compares equal.
fn as_saved(s: f64) -> f64 {
    ((s * 1e6 * 1e4).round() / 1e4) * 1e-6
}

/// A non-negative finite time in seconds from microseconds, or `None`.
fn seconds(us: f64) -> Option<f64> {
    (us.is_finite() && us >= 0.0).then_some(us * 1e-6)
}

/// Reads a saved JSON report of schema version `version` (the JSON report's
/// `SCHEMA_VERSION`). The error says what is wrong in words, with a line and column where
/// one is known, and never quotes the file.
pub fn parse(bytes: &[u8], version: u32) -> Result<Baseline, String> {
    let old: OldReport = serde_json::from_slice(bytes).map_err(|e| {
        use serde_json::error::Category;
        let what = match e.classify() {
            Category::Io => "it could not be read",
            Category::Syntax => "it is not JSON",
            Category::Eof => "it ends too early",
            Category::Data => "a value has another type than an fgraph JSON report's",
        };
        format!(
            "not an fgraph JSON report (`analyze --format json`): {what} (line {}, column {})",
            e.line(),
            e.column()
        )
    })?;
    if let Some(v) = old.schema_version
        && v != u64::from(version)
    {
        return Err(format!(
            "the report's schema version is {v}; this fgraph reads version {version}"
        ));
    }
    let (Some(groups), Some(traffic)) = (old.groups, old.traffic) else {
        return Err(
            "the report has no plan (its graph had errors): save a report of a graph that checks"
                .into(),
        );
    };
    let bytes = traffic
        .fused
        .bytes_read
        .checked_add(traffic.fused.bytes_written)
        .ok_or("its fused traffic does not fit 64 bits")?;
    let mut kernels_by_op = HashMap::new();
    for g in &groups {
        if let Some(first) = g.ops.first() {
            let b = g.bytes_read.saturating_add(g.bytes_written);
            let t = g.cost.as_ref().and_then(|c| seconds(c.time_us));
            kernels_by_op.entry(first.clone()).or_insert((b, t));
        }
    }
    let layers = old
        .summary
        .map(|s| {
            s.instances
                .into_iter()
                .map(|r| {
                    let t = r.time_s.filter(|t| t.is_finite() && *t >= 0.0);
                    (r.name, (r.bytes_read.saturating_add(r.bytes_written), t))
                })
                .collect()
        })
        .unwrap_or_default();
    Ok(Baseline {
        kernels: groups.len(),
        bytes,
        time_s: old.cost.and_then(|c| seconds(c.fused.time_us)),
        layers,
        kernels_by_op,
    })
}

/// One figure before and after.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Delta {
    pub old: f64,
    pub new: f64,
    /// `100 · (new − old) / old`; `null` when `old` is 0.
    pub pct: Option<f64>,
}

impl Delta {
    fn of(old: f64, new: f64) -> Delta {
        Delta {
            old,
            new,
            pct: (old != 0.0).then(|| 100.0 * (new - old) / old),
        }
    }
    /// Grew by more than `pct` percent (from 0: grew at all).
    pub fn grew_more_than(&self, pct: f64) -> bool {
        match self.pct {
            Some(p) => p > pct,
            None => self.new > self.old,
        }
    }
}

/// A layer or kernel whose bytes or time changed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Change {
    /// A layer's path, or a kernel's first op (of the current graph).
    pub name: String,
    /// `null` for a kernel the baseline does not have.
    pub old_bytes: Option<u64>,
    pub new_bytes: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_time_s: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_time_s: Option<f64>,
}

impl Change {
    /// Bytes added (negative: saved).
    pub fn bytes_delta(&self) -> i128 {
        i128::from(self.new_bytes) - i128::from(self.old_bytes.unwrap_or(0))
    }
    /// Time added, seconds.
    pub fn time_delta(&self) -> f64 {
        self.new_time_s.unwrap_or(0.0) - self.old_time_s.unwrap_or(0.0)
    }
}

/// What regressed past `--fail-on-regression PCT`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Regression {
    /// `traffic` or `time`.
    pub metric: &'static str,
    pub pct: Option<f64>,
    pub threshold_pct: f64,
    /// The first op of the kernel whose figure grew most (`null`: none grew).
    pub op: Option<String>,
    #[serde(skip)]
    pub op_id: Option<OpId>,
}

/// The run against its baseline.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Comparison {
    pub kernels: Delta,
    /// Fused traffic, bytes.
    pub traffic: Delta,
    /// The fused plan's time, seconds (`null` when either report has no cost model).
    pub time_s: Option<Delta>,
    /// Layers (in the current graph's order) whose bytes or time changed.
    pub layers: Vec<Change>,
    /// Kernels whose bytes or time changed, most bytes added first.
    pub kernels_changed: Vec<Change>,
    /// Kernels of the baseline whose first op starts no kernel now.
    pub kernels_gone: usize,
    /// Traffic or time grew by more than `--fail-on-regression PCT`.
    pub regressions: Vec<Regression>,
}

/// Whether two times differ by more than rounding (the JSON keeps 4 decimals of µs).
fn time_changed(a: Option<f64>, b: Option<f64>) -> bool {
    match (a, b) {
        (Some(x), Some(y)) => (x - y).abs() > 1e-10 + 1e-6 * x.abs().max(y.abs()),
        (None, None) => false,
        _ => true,
    }
}

/// Compares `a`'s plan (its cost and summary, when they ran) with `old`; `fail_pct` is
/// `--fail-on-regression`.
pub fn compare(
    old: &Baseline,
    a: &Analysis,
    cost: Option<&CostReport>,
    summary: Option<&Summary>,
    fail_pct: Option<f64>,
) -> Comparison {
    let g = &a.graph;
    let new_bytes = a.traffic.fused.total;
    let new_time = cost.map(|c| as_saved(c.fused.time_s));
    let mut matched = 0usize;
    let mut kernels_changed = Vec::new();
    for (k, (grp, tr)) in a.plan.groups.iter().zip(&a.traffic.groups).enumerate() {
        let Some(&first) = grp.ops.first() else {
            continue;
        };
        let name = g.op(first).name.as_str();
        let bytes = tr.bytes_read.saturating_add(tr.bytes_written);
        let time = cost
            .and_then(|c| c.fused.kernels.get(k))
            .map(|kc| as_saved(kc.time_s));
        let old_k = old.kernels_by_op.get(name);
        if old_k.is_some() {
            matched += 1;
        }
        let changed = match old_k {
            None => true,
            Some(&(b, t)) => b != bytes || time_changed(t, time),
        };
        if changed {
            kernels_changed.push(Change {
                name: name.to_string(),
                old_bytes: old_k.map(|&(b, _)| b),
                new_bytes: bytes,
                old_time_s: old_k.and_then(|&(_, t)| t),
                new_time_s: time,
            });
        }
    }
    let in_order = kernels_changed.clone();
    kernels_changed.sort_by(|x, y| {
        y.bytes_delta()
            .cmp(&x.bytes_delta())
            .then(y.time_delta().total_cmp(&x.time_delta()))
    });
    let mut layers = Vec::new();
    for r in summary.map_or(&[][..], |s| &s.instances[..]) {
        let Some(&(b, t)) = old.layers.get(&r.name) else {
            continue;
        };
        if b != r.bytes() || time_changed(t, r.time_s) {
            layers.push(Change {
                name: r.name.clone(),
                old_bytes: Some(b),
                new_bytes: r.bytes(),
                old_time_s: t,
                new_time_s: r.time_s,
            });
        }
    }
    let traffic = Delta::of(old.bytes as f64, new_bytes as f64);
    let time_s = match (old.time_s, new_time) {
        (Some(o), Some(n)) => Some(Delta::of(o, n)),
        _ => None,
    };
    let mut regressions = Vec::new();
    if let Some(pct) = fail_pct {
        // The first kernel, in kernel order, whose figure grew most.
        let culprit = |by_time: bool| {
            let mut best: Option<&Change> = None;
            for c in &in_order {
                let grew = if by_time {
                    c.time_delta() > 0.0 && best.is_none_or(|b| c.time_delta() > b.time_delta())
                } else {
                    c.bytes_delta() > 0 && best.is_none_or(|b| c.bytes_delta() > b.bytes_delta())
                };
                if grew {
                    best = Some(c);
                }
            }
            best.map(|c| c.name.clone())
        };
        let op_id = |name: &Option<String>| {
            name.as_ref().and_then(|n| {
                g.ops
                    .iter()
                    .position(|o| o.name == n.as_str())
                    .map(|i| OpId(i as u32))
            })
        };
        if traffic.grew_more_than(pct) {
            let op = culprit(false);
            regressions.push(Regression {
                metric: "traffic",
                pct: traffic.pct,
                threshold_pct: pct,
                op_id: op_id(&op),
                op,
            });
        }
        if let Some(t) = time_s.as_ref().filter(|t| t.grew_more_than(pct)) {
            let op = culprit(true);
            regressions.push(Regression {
                metric: "time",
                pct: t.pct,
                threshold_pct: pct,
                op_id: op_id(&op),
                op,
            });
        }
    }
    Comparison {
        kernels: Delta::of(old.kernels as f64, a.plan.groups.len() as f64),
        traffic,
        time_s,
        layers,
        kernels_changed,
        kernels_gone: old.kernels_by_op.len().saturating_sub(matched),
        regressions,
    }
}

/// `s` escaped for a GitHub workflow command's message (`%`, CR and LF), or, with
/// `property`, for a property value (also `:` and `,`).
pub fn escape_annotation(s: &str, property: bool) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '%' => out.push_str("%25"),
            '\r' => out.push_str("%0D"),
            '\n' => out.push_str("%0A"),
            ':' if property => out.push_str("%3A"),
            ',' if property => out.push_str("%2C"),
            c => out.push(c),
        }
    }
    out
}

/// The regression in words: `traffic grew 12.50% (more than 5%): 1,024 B more, most in the
/// kernel of `op``.
pub fn describe(r: &Regression, c: &Comparison) -> String {
    let grew = match r.pct {
        Some(p) => format!("{p:.2}%"),
        None => "from 0".to_string(),
    };
    let amount = match r.metric {
        "time" => c.time_s.as_ref().map_or(String::new(), |t| {
            format!(
                ", {} → {}",
                crate::units::fmt_time(t.old),
                crate::units::fmt_time(t.new)
            )
        }),
        _ => format!(
            ", {} B → {} B",
            crate::units::group_digits(c.traffic.old as u64),
            crate::units::group_digits(c.traffic.new as u64)
        ),
    };
    let at = r.op.as_ref().map_or(String::new(), |o| {
        format!("; the kernel of `{o}` grew most")
    });
    format!(
        "{} grew {grew} over the baseline (more than {}%){amount}{at}",
        r.metric, r.threshold_pct
    )
}

#[cfg(test)]
mod tests;
