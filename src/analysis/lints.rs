//! The checks of the pipeline that need more than one op: allow comments that name no
//! warning (`invalid-allow`), intermediates larger than every input (`large-intermediate`),
//! and plan searches that stopped at their work bound (`search-budget`, [`search_budget`]).

use crate::diagnostics::{Applicability, Code, Diagnostic, Fix, Severity, Span};
use crate::fusion::flash::{self, Candidate};
use crate::fusion::work::{Pass, SearchStop};
use crate::graph::{Graph, Origin, TensorId};
use crate::traffic::{TrafficReport, flash_savings, round_trips};
use crate::units::fmt_bytes;
use std::collections::HashMap;

/// `invalid-allow`: an allow comment naming no warning (a misspelt code, or an error, which
/// cannot be silenced) would silence nothing without anyone noticing.
pub(super) fn invalid_allows(codes: &[(String, Span)]) -> Vec<Diagnostic> {
    let warnings: Vec<&str> = Code::ALL
        .iter()
        .filter(|c| c.severity() == Severity::Warning)
        .map(|c| c.as_str())
        .collect();
    let mut out = Vec::new();
    for (name, span) in codes {
        let d = match Code::from_name(name) {
            Some(c) if c.severity() == Severity::Warning => continue,
            Some(c) => Diagnostic::new(
                Code::InvalidAllow,
                format!("`{c}` is an error; errors cannot be silenced"),
            )
            .at(*span, "not a warning")
            .help("fix the error instead; allow comments silence warnings only"),
            None => {
                let d = Diagnostic::new(
                    Code::InvalidAllow,
                    format!("unknown code `{name}` in an allow comment"),
                )
                .at(*span, "silences nothing");
                match crate::diagnostics::did_you_mean(name, warnings.iter().copied()) {
                    Some(s) => d.help(format!("did you mean `{s}`?")).fix(Fix::replace(
                        format!("replace `{name}` with `{s}`"),
                        Applicability::Safe,
                        *span,
                        s,
                    )),
                    None => d.help(format!("the warnings are {}", warnings.join(", "))),
                }
            }
        };
        out.push(d);
    }
    out
}

/// The least size `threshold` asks of a large intermediate: `min_bytes`, and
/// `min_weight_percent` of the weights' bytes (those no `update` writes into).
fn least_size(g: &Graph, threshold: super::LargeIntermediate) -> u64 {
    let mut least = threshold.min_bytes;
    if threshold.min_weight_percent > 0 {
        let (state, _) = super::state::state(g);
        let weights: u128 = g
            .tensors
            .iter()
            .enumerate()
            .filter(|&(i, t)| t.origin == Origin::Weight && !state[i])
            .map(|(_, t)| u128::from(t.bytes))
            .sum();
        let share = weights * u128::from(threshold.min_weight_percent) / 100;
        least = least.max(u64::try_from(share).unwrap_or(u64::MAX));
    }
    least
}

/// `large-intermediate`: an intermediate the fused plan writes to HBM that is larger than
/// every declared input and weight, such as an attention score matrix. When the tensor is an
/// intermediate of an attention pattern, the help says what one fused attention kernel would
/// save; when it sits next to a softmax that cannot be fused, it says why.
///
/// `threshold` (`fgraph.toml`'s `[large-intermediate]`) raises the bar: at least `min_bytes`,
/// and at least `min_weight_percent` of the graph's weight bytes.
pub(super) fn large_intermediates(
    g: &Graph,
    traffic: &TrafficReport,
    threshold: super::LargeIntermediate,
) -> Vec<Diagnostic> {
    let largest = g
        .tensors
        .iter()
        .filter(|t| matches!(t.origin, Origin::Input | Origin::Weight))
        .max_by_key(|t| t.bytes);
    let Some(largest) = largest else {
        return Vec::new();
    };
    let least = least_size(g, threshold);
    let big = |bytes: u64| bytes > largest.bytes && bytes >= least;
    let qualifies = |t: TensorId| !g.is_output(t) && big(g.tensor(t).bytes);
    // Most graphs have no such intermediate: skip the per-tensor tables below.
    if !traffic
        .groups
        .iter()
        .any(|gt| gt.writes.iter().any(|w| qualifies(w.tensor)))
    {
        return Vec::new();
    }
    // Bytes each tensor is read back by kernels other than its producer's.
    let mut read_back: HashMap<usize, (u64, usize)> = HashMap::new();
    for gt in &traffic.groups {
        for r in &gt.reads {
            let e = read_back.entry(r.tensor.index()).or_default();
            e.0 = e.0.saturating_add(r.bytes);
            e.1 += 1;
        }
    }
    // Attention candidates, only looked for when some tensor qualifies.
    let mut candidates: Option<(Vec<Candidate>, HashMap<usize, usize>)> = None;
    let trips = round_trips(&traffic.groups);
    let mut out = Vec::new();
    for (k, gt) in traffic.groups.iter().enumerate() {
        for w in &gt.writes {
            let t = g.tensor(w.tensor);
            if g.is_output(w.tensor) || !big(t.bytes) {
                continue;
            }
            let (reads, readers) = read_back.get(&w.tensor.index()).copied().unwrap_or((0, 0));
            let saved = w.bytes.saturating_add(reads);
            let producer = g.producer(w.tensor).map_or("", |p| g.op(p).name.as_str());
            let (cands, near) = candidates.get_or_insert_with(|| {
                let c = flash::candidates(g);
                let mut near = HashMap::new();
                for (i, cand) in c.iter().enumerate() {
                    for t in &cand.tensors {
                        near.entry(t.index()).or_insert(i);
                    }
                }
                (c, near)
            });
            let size = format!(
                "`{}` is larger than every input and weight (the largest is `{}`, {})",
                t.name,
                largest.name,
                fmt_bytes(largest.bytes)
            );
            let help = match near.get(&w.tensor.index()).map(|&i| &cands[i]) {
                Some(Candidate { result: Ok(p), .. }) if p.intermediates.contains(&w.tensor) => {
                    let names: Vec<String> = p
                        .ops()
                        .iter()
                        .map(|&o| format!("`{}`", g.op(o).name))
                        .collect();
                    format!(
                        "{size}; it is an intermediate of the attention {}, and one fused \
                         attention kernel (FlashAttention: QK^T, softmax and the product with \
                         V on chip) would save {} of HBM traffic; `--flash-attention` models \
                         that kernel",
                        names.join(" → "),
                        fmt_bytes(flash_savings(p, &trips))
                    )
                }
                Some(Candidate {
                    softmax,
                    result: Err(miss),
                    ..
                }) => format!(
                    "{size}; a fused formulation that keeps it on chip would save {} of HBM \
                     traffic, but the attention around softmax `{}` cannot become one \
                     FlashAttention kernel: {}",
                    fmt_bytes(saved),
                    g.op(*softmax).name,
                    miss.describe(g)
                ),
                _ => format!(
                    "{size}; a fused formulation that keeps it on chip, as FlashAttention \
                     does for attention scores, would save {} of HBM traffic",
                    fmt_bytes(saved)
                ),
            };
            out.push(
                Diagnostic::new(
                    Code::LargeIntermediate,
                    format!(
                        "intermediate `{}` ({}) makes a round trip through HBM",
                        t.name,
                        fmt_bytes(t.bytes)
                    ),
                )
                .at(
                    t.span,
                    format!(
                        "written by kernel {} (`{producer}`), read back by {readers} kernel{}",
                        k + 1,
                        if readers == 1 { "" } else { "s" }
                    ),
                )
                .help(help),
            );
        }
    }
    out
}

/// `search-budget`, at `at` (the graph's name): a plan search of a graph of `ops` ops under
/// `strategy` (its flags, as `fusion::strategy::flags` writes them; empty for SPEC §2's
/// options) stopped at its work bound (`fusion::work`).
pub fn search_budget(ops: usize, stop: &SearchStop, strategy: &str, at: Span) -> Diagnostic {
    let digits = crate::units::group_digits;
    let name = if strategy.is_empty() {
        "fusion".to_string()
    } else {
        format!("fusion under `{strategy}`")
    };
    let left = match stop.pass {
        Pass::Greedy => format!(
            "the {} merge{} it could not check {} kernel boundar{} (`search-stopped`)",
            digits(stop.unchecked as u64),
            if stop.unchecked == 1 { "" } else { "s" },
            if stop.unchecked == 1 { "is a" } else { "are" },
            if stop.unchecked == 1 { "y" } else { "ies" },
        ),
        Pass::Horizontal => "horizontal fusion merged no further kernels".to_string(),
    };
    Diagnostic::new(
        Code::SearchBudget,
        format!("{name} stopped at its work bound; the plan keeps what it had found"),
    )
    .at(
        at,
        format!(
            "{} units of work in {} ({} ops); the bound is {}",
            digits(stop.work),
            stop.pass.as_str(),
            digits(ops as u64),
            digits(stop.limit)
        ),
    )
    .help(format!(
        "{left}: the plan is legal but may fuse less than the strategy would. A graph whose \
         ops read many shared tensors is costly to plan; `--max-plan-work` sets the bound \
         (`fgraph explain search-budget`)"
    ))
}
