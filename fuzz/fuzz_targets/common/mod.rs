//! What the targets share: the option header that turns leading input bytes into `--set`,
//! `--allow`, `--flash-attention` and `--fuser`, and [`exercise`], which runs everything the library
//! offers after checking a file and asserts the invariants every result must satisfy.

#![allow(dead_code)]

use fgraph::cost::{self, Hardware, LaunchMode};
use fgraph::diagnostics::render::{self, HumanStyle};
use fgraph::report::render::human::{human, human_with_cost};
use fgraph::report::render::json::AnalysisJson;
use fgraph::traffic::compare;
use fgraph::{Analysis, Code, FileReport, OpId, Options, Severity, estimate_memory_traffic};

/// Params the examples, fixtures and the structured target use, so overrides hit real params.
pub const PARAM_NAMES: &[&str] = &[
    "M", "N", "K", "S", "H", "NH", "HD", "D", "T", "B", "SEQ", "HIDDEN", "P0", "P1", "P2", "P3",
];

/// Override values: ordinary sizes and the edges of 64-bit arithmetic and of the limits.
pub const VALUES: &[i64] = &[
    1,
    2,
    3,
    4,
    7,
    8,
    16,
    64,
    1024,
    4096,
    0,
    -1,
    -4,
    i64::MAX,
    i64::MIN,
    1 << 31,
    1 << 32,
    1 << 48,
    (1 << 48) + 1,
    65536,
];

/// Bytes the option header takes from the front of the input.
pub const HEADER_LEN: usize = 7;

/// Splits `data` into options and the file. Byte 0: bits 0–1 the number of `--set` pairs
/// (0–3), bits 2–4 which of the three warnings to `--allow`, bit 5 `--flash-attention`.
/// Bytes 1–6: (name, value) pairs indexing [`PARAM_NAMES`] and [`VALUES`] (a value byte
/// ≥ 128 is taken as a small signed integer instead). Inputs shorter than the header are
/// files alone.
pub fn split(data: &[u8]) -> (Options, &[u8]) {
    let mut opts = Options::default();
    if data.len() < HEADER_LEN {
        return (opts, data);
    }
    let (h, file) = data.split_at(HEADER_LEN);
    let n = usize::from(h[0] & 3);
    for pair in h[1..].chunks(2).take(n) {
        let name = PARAM_NAMES[usize::from(pair[0]) % PARAM_NAMES.len()];
        let value = if pair[1] >= 128 {
            i64::from(pair[1] as i8)
        } else {
            VALUES[usize::from(pair[1]) % VALUES.len()]
        };
        opts.overrides.insert(name.to_string(), value);
    }
    let warnings = Code::ALL
        .iter()
        .copied()
        .filter(|c| c.severity() == Severity::Warning);
    for (bit, code) in warnings.enumerate().take(3) {
        if h[0] & (4 << bit) != 0 {
            opts.allow.push(code);
        }
    }
    // The top two bits pick the fusion strategy: SPEC §2, or a compiler preset.
    let flash = h[0] & 0x20 != 0;
    opts.fusion = fgraph::fusion::Fuser::ALL[usize::from(h[0] >> 6)].options();
    opts.fusion.flash_attention = flash;
    (opts, file)
}

/// Renders every diagnostic the way each output format of the CLI does; `color` adds the
/// coloured human rendering (the slowest of all, so only the `check` target asks for it).
pub fn render_diagnostics(report: &FileReport, color: bool) {
    for d in &report.diagnostics {
        let _ = render::human(d, &report.source, HumanStyle::plain());
        if color {
            let _ = render::human(
                d,
                &report.source,
                HumanStyle {
                    color: true,
                    width: 100,
                },
            );
        }
        let _ = render::github(d, &report.source);
        let j = render::json(d, &report.source);
        for key in ["line", "column", "end_line", "end_column"] {
            if let Some(v) = j.get(key).and_then(|v| v.as_u64()) {
                assert!(v >= 1, "{key} is 1-based: {j}");
            }
        }
        assert!(
            fgraph::explain::text(d.code.as_str()).is_some(),
            "no explanation for {}",
            d.code
        );
    }
    let diags: Vec<_> = report
        .diagnostics
        .iter()
        .map(|d| render::json(d, &report.source))
        .collect();
    let _ = serde_json::to_string(&serde_json::json!({ "diagnostics": diags }));
    let sarif = render::sarif(&[(report.diagnostics.as_slice(), &report.source)]);
    let _ = serde_json::to_string(&sarif).expect("SARIF serialises");
}

/// Everything the library does with a checked file: the diagnostics in every format, the JSON
/// report of every graph with errors (its ops as written), and for every graph that has an
/// analysis, the plan's invariants, the traffic, the JSON and human
/// reports, and the cost model on every preset (and `extra_hw`) under both launch modes.
/// Returns the number of analyses it exercised.
pub fn exercise(report: &FileReport, extra_hw: Option<&Hardware>) -> usize {
    render_diagnostics(report, false);
    let mut hws = Hardware::presets();
    assert_eq!(hws.len(), cost::PRESET_NAMES.len());
    hws.extend(extra_hw.cloned());
    let mut n = 0;
    for g in &report.graphs {
        let Some(a) = &g.analysis else {
            // A graph with errors: `analyze --format json` lists its ops as written.
            let json = AnalysisJson::unchecked(&g.name, &g.written_ops, Vec::new());
            let _ = serde_json::to_string(&json).expect("the unchecked report serialises");
            continue;
        };
        n += 1;
        check_analysis(a);
        let json = AnalysisJson::new(&g.name, Some(a), Vec::new());
        let text = serde_json::to_string(&json).expect("the analysis serialises");
        let _: serde_json::Value = serde_json::from_str(&text).expect("the JSON parses back");
        assert!(!human(a).is_empty());
        for hw in &hws {
            for launch in [LaunchMode::Graph, LaunchMode::Eager] {
                exercise_cost(&g.name, a, hw, launch);
            }
        }
    }
    // The report without an analysis (what `analyze` prints when a graph has errors).
    let _ = serde_json::to_string(&AnalysisJson::new("g", None, Vec::new()));
    n
}

/// The cost model on one GPU: estimate, attention comparison, JSON, human report, roofline.
/// Fusion never costs time, FLOPs do not depend on the plan, and every time is finite.
pub fn exercise_cost(name: &str, a: &Analysis, hw: &Hardware, launch: LaunchMode) {
    // Overflow is a clean error (the traffic was computed already, so it cannot happen).
    let (Ok(c), Ok(att)) = (
        cost::estimate(a, hw, launch),
        cost::attention(a, hw, launch),
    ) else {
        panic!("the cost model overflows where the traffic did not");
    };
    assert_eq!(c.fused.kernels.len(), a.plan.groups.len());
    assert_eq!(c.unfused.kernels.len(), a.graph.ops.len());
    assert_eq!(c.fused.flops, c.unfused.flops, "FLOPs depend on the plan");
    assert!(c.fused.bytes <= c.unfused.bytes);
    // Times are never NaN or negative. They can be infinite: a hardware file may give figures
    // (1e-300 TB/s) that are positive and finite but make a time overflow f64.
    for k in c.fused.kernels.iter().cloned().chain(c.unfused_kernels()) {
        for v in [k.compute_s, k.memory_s, k.launch_s, k.time_s, k.ridge_point] {
            assert!(v >= 0.0, "kernel time {v} on {}", hw.name);
        }
    }
    assert!(
        !c.unfused.time_s.is_finite() || c.fused.time_s <= c.unfused.time_s * (1.0 + 1e-9),
        "fused {} s > unfused {} s on {}",
        c.fused.time_s,
        c.unfused.time_s,
        hw.name
    );
    // The hardware model where the GPU has one, as `--traffic-model hardware` runs it, and
    // under `--attention-kernel flash2` and `--causal-attention`: every figure a number.
    let mut c = c;
    if let Some(m) = &hw.model {
        let variants = [
            Some(m.clone()),
            m.with_attention_kernel("flash2").ok(),
            Some(m.with_causal_attention()),
        ];
        for model in variants.into_iter().flatten() {
            let hw = Hardware {
                model: Some(model),
                ..hw.clone()
            };
            let mut with_model = c.clone();
            with_model.hardware = hw;
            cost::with_hardware_model(&mut with_model, a).expect("a calibrated GPU");
            let r = with_model
                .hardware_model
                .as_ref()
                .expect("the model's report");
            assert_eq!(r.kernels.len(), a.plan.groups.len());
            for k in &r.kernels {
                for v in [k.compute_s, k.memory_s, k.kernel_s, k.time_s] {
                    assert!(
                        v >= 0.0,
                        "hardware model time {v} on {}",
                        with_model.hardware.name
                    );
                }
            }
            c = with_model;
        }
    }
    let json = AnalysisJson::new(name, Some(a), Vec::new()).with_cost(a, &c, &att);
    let text = serde_json::to_string(&json).expect("the cost report serialises");
    let _: serde_json::Value = serde_json::from_str(&text).expect("the JSON parses back");
    assert!(!human_with_cost(a, Some((&c, &att))).is_empty());
    let svg = fgraph::report::render::roofline::svg(&a.graph, &c);
    assert!(svg.starts_with("<svg") || svg.starts_with("<?xml"));
}

/// The invariants of an analysis: the plan partitions the ops, groups run in an order that
/// respects every edge, every unfused edge has a boundary, fusion never adds traffic, and the
/// totals add up.
pub fn check_analysis(a: &Analysis) {
    let g = &a.graph;
    let plan = &a.plan;
    let n = g.ops.len();
    // Every op in exactly one group, and `group_of` agrees.
    let mut seen = vec![0u32; n];
    assert_eq!(plan.group_of.len(), n);
    for (k, grp) in plan.groups.iter().enumerate() {
        assert!(!grp.ops.is_empty(), "group {k} is empty");
        for o in &grp.ops {
            seen[o.index()] += 1;
            assert_eq!(
                plan.group_of[o.index()],
                k,
                "group_of disagrees for op {o:?}"
            );
        }
    }
    assert!(
        seen.iter().all(|&c| c == 1),
        "an op is in no group or in two"
    );
    // Edges between groups: reported as a boundary, and the producer's group comes first.
    for c in 0..n {
        let cid = OpId(c as u32);
        for p in g.predecessors(cid) {
            let (gp, gc) = (plan.group_of[p.index()], plan.group_of[c]);
            if gp != gc {
                assert!(
                    plan.boundaries
                        .iter()
                        .any(|b| b.producer == p && b.consumer == cid),
                    "edge {p:?} -> {cid:?} crosses groups without a boundary"
                );
                assert!(
                    gp < gc,
                    "group {gc} reads the output of the later group {gp}"
                );
            }
        }
    }
    // Traffic: fusion never adds bytes, and the totals add up.
    let t = &a.traffic;
    assert_eq!(t.groups.len(), plan.groups.len());
    assert!(
        t.fused.total <= t.unfused.total,
        "fused {} > unfused {}",
        t.fused.total,
        t.unfused.total
    );
    for tr in [&t.fused, &t.unfused] {
        assert_eq!(tr.total, tr.bytes_read + tr.bytes_written);
    }
    assert_eq!(t.fused.saved_by_fusion, t.unfused.total - t.fused.total);
    assert!((0.0..=100.0).contains(&t.savings_pct), "{}", t.savings_pct);
    let read: u64 = t.groups.iter().map(|x| x.bytes_read).sum();
    let written: u64 = t.groups.iter().map(|x| x.bytes_written).sum();
    assert_eq!((read, written), (t.fused.bytes_read, t.fused.bytes_written));
    // Counting again gives the same traffic; the unfused figure is the seed function's.
    let again = compare(g, plan).expect("traffic computed once already");
    assert_eq!((again.unfused, again.fused), (t.unfused, t.fused));
    let unfused = estimate_memory_traffic(g, false).expect("traffic computed once already");
    assert_eq!(unfused, t.unfused);
}
