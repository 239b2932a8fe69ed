//! Analysis reports as data for JSON and as text for people. Built from an [`Analysis`];
//! the CLI only chooses which to print.

use crate::analysis::{Analysis, fmt_bytes};
use crate::fusion::Reason;
use crate::graph::Graph;
use crate::traffic::Traffic;
use serde::Serialize;
use serde_json::Value;

#[derive(Serialize)]
pub struct OpJson<'a> {
    pub name: &'a str,
    pub kind: &'static str,
    pub func: Option<&'a str>,
    pub inputs: Vec<String>,
    pub output: &'a str,
    pub shape: &'a [u64],
    pub dtype: &'static str,
    pub bytes: u64,
}

#[derive(Serialize)]
pub struct AccessJson {
    pub tensor: String,
    pub bytes: u64,
}

#[derive(Serialize)]
pub struct GroupJson<'a> {
    pub ops: Vec<&'a str>,
    pub reads: Vec<AccessJson>,
    pub writes: Vec<AccessJson>,
    pub bytes_read: u64,
    pub bytes_written: u64,
}

#[derive(Serialize)]
pub struct BoundaryJson<'a> {
    pub producer: &'a str,
    pub consumer: &'a str,
    pub tensor: &'a str,
    pub reason: Reason,
    pub rule: u8,
    pub explanation: String,
}

#[derive(Serialize)]
pub struct TrafficJson {
    pub unfused: Traffic,
    pub fused: Traffic,
}

/// The object `analyze --format json` prints (SPEC §6). With errors, `groups`,
/// `boundaries`, `traffic` and `savings_pct` are null.
#[derive(Serialize)]
pub struct AnalysisJson<'a> {
    pub graph: &'a str,
    pub ops: Vec<OpJson<'a>>,
    pub groups: Option<Vec<GroupJson<'a>>>,
    pub boundaries: Option<Vec<BoundaryJson<'a>>>,
    pub traffic: Option<TrafficJson>,
    pub savings_pct: Option<f64>,
    pub diagnostics: Vec<Value>,
}

impl<'a> AnalysisJson<'a> {
    pub fn new(name: &'a str, analysis: Option<&'a Analysis>, diagnostics: Vec<Value>) -> Self {
        let Some(a) = analysis else {
            return AnalysisJson {
                graph: name,
                ops: Vec::new(),
                groups: None,
                boundaries: None,
                traffic: None,
                savings_pct: None,
                diagnostics,
            };
        };
        let g = &a.graph;
        let ops = g
            .ops
            .iter()
            .map(|o| {
                let t = g.tensor(o.output);
                OpJson {
                    name: &o.name,
                    kind: o.kind.as_str(),
                    func: o.func.as_deref(),
                    inputs: o.inputs.iter().map(|u| g.use_name(u)).collect(),
                    output: &t.name,
                    shape: &t.shape,
                    dtype: t.dtype.as_str(),
                    bytes: t.bytes,
                }
            })
            .collect();
        let groups = a
            .plan
            .groups
            .iter()
            .zip(&a.traffic.groups)
            .map(|(grp, tr)| GroupJson {
                ops: grp.ops.iter().map(|&o| g.op(o).name.as_str()).collect(),
                reads: tr
                    .reads
                    .iter()
                    .map(|r| AccessJson {
                        tensor: read_name(g, r.tensor, r.index),
                        bytes: r.bytes,
                    })
                    .collect(),
                writes: tr
                    .writes
                    .iter()
                    .map(|w| AccessJson {
                        tensor: g.tensor(w.tensor).name.clone(),
                        bytes: w.bytes,
                    })
                    .collect(),
                bytes_read: tr.bytes_read,
                bytes_written: tr.bytes_written,
            })
            .collect();
        let boundaries = a
            .plan
            .boundaries
            .iter()
            .map(|b| {
                let (p, c, t) = (
                    &g.op(b.producer).name,
                    &g.op(b.consumer).name,
                    &g.tensor(b.tensor).name,
                );
                BoundaryJson {
                    producer: p,
                    consumer: c,
                    tensor: t,
                    reason: b.reason,
                    rule: b.reason.rule(),
                    explanation: b.reason.explain(p, c, t),
                }
            })
            .collect();
        AnalysisJson {
            graph: name,
            ops,
            groups: Some(groups),
            boundaries: Some(boundaries),
            traffic: Some(TrafficJson {
                unfused: a.traffic.unfused,
                fused: a.traffic.fused,
            }),
            savings_pct: Some(a.traffic.savings_pct),
            diagnostics,
        }
    }
}

fn read_name(g: &Graph, t: crate::graph::TensorId, index: Option<u64>) -> String {
    match index {
        Some(i) => format!("{}[{i}]", g.tensor(t).name),
        None => g.tensor(t).name.clone(),
    }
}

/// Lists at most `max` items, then says how many more there are.
fn list(items: impl ExactSizeIterator<Item = String>, sep: &str, max: usize) -> String {
    let n = items.len();
    let mut v: Vec<String> = items.take(max).collect();
    if n > max {
        v.push(format!("… {} more", n - max));
    }
    v.join(sep)
}

/// The human report of `fgraph analyze`: kernels, traffic, boundaries.
pub fn human(a: &Analysis) -> String {
    const MAX: usize = 12;
    let g = &a.graph;
    let mut out = String::new();
    let n_ops = g.ops.len();
    let n_groups = a.plan.groups.len();
    out += &format!(
        "graph `{}`: {n_ops} op{} in {n_groups} kernel{}\n\n",
        g.name,
        if n_ops == 1 { "" } else { "s" },
        if n_groups == 1 { "" } else { "s" }
    );
    let width = n_groups.to_string().len();
    for (k, (grp, tr)) in a.plan.groups.iter().zip(&a.traffic.groups).enumerate() {
        let names = list(grp.ops.iter().map(|&o| g.op(o).name.clone()), " → ", MAX);
        out += &format!("kernel {:>width$}  {names}\n", k + 1);
        let pad = " ".repeat(width + 9);
        let reads = list(
            tr.reads
                .iter()
                .map(|r| format!("{} {}", read_name(g, r.tensor, r.index), fmt_bytes(r.bytes))),
            ", ",
            MAX,
        );
        let writes = list(
            tr.writes
                .iter()
                .map(|w| format!("{} {}", g.tensor(w.tensor).name, fmt_bytes(w.bytes))),
            ", ",
            MAX,
        );
        out += &format!(
            "{pad}reads  {}: {}\n",
            fmt_bytes(tr.bytes_read),
            if reads.is_empty() {
                "nothing".into()
            } else {
                reads
            }
        );
        out += &format!(
            "{pad}writes {}: {}\n",
            fmt_bytes(tr.bytes_written),
            if writes.is_empty() {
                "nothing".into()
            } else {
                writes
            }
        );
    }
    let t = &a.traffic;
    let row = |label: &str, tr: &Traffic| {
        format!(
            "  {label:<8} {:>22} {:>22} {:>22}\n",
            group_digits(tr.bytes_read),
            group_digits(tr.bytes_written),
            group_digits(tr.total)
        )
    };
    out += &format!(
        "\nHBM traffic (bytes){:>17}{:>23}{:>23}\n",
        "read", "written", "total"
    );
    out += &row("unfused", &t.unfused);
    out += &row("fused", &t.fused);
    out += &format!(
        "  saved by fusion: {} ({:.2}%)\n",
        fmt_bytes(t.fused.saved_by_fusion),
        t.savings_pct
    );
    if !a.plan.boundaries.is_empty() {
        out += "\nboundaries (edges that stay in HBM, and why):\n";
        for b in a.plan.boundaries.iter().take(200) {
            let (p, c, tn) = (
                &g.op(b.producer).name,
                &g.op(b.consumer).name,
                &g.tensor(b.tensor).name,
            );
            out += &format!(
                "  {p} → {c} via `{tn}` [{}]: {}\n",
                b.reason,
                b.reason.explain(p, c, tn)
            );
        }
        if a.plan.boundaries.len() > 200 {
            out += &format!(
                "  … {} more (see --format json)\n",
                a.plan.boundaries.len() - 200
            );
        }
    }
    out
}

fn group_digits(b: u64) -> String {
    let s = fmt_bytes(b);
    s.split(' ').next().unwrap_or_default().to_string()
}
