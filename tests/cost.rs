//! The cost model against hand calculations: ridge points, FLOPs, intensities, estimated
//! times, the FlashAttention pass and its traffic, the roofline picture and hardware files.
//! Every expected number is worked out in a comment from the formulas of docs/cost-model.md.

use fgraph::cost::{self, Bound, Hardware, LaunchMode, Unit};
use fgraph::fusion::FusedBy;
use fgraph::fusion::flash::{self, Miss};
use fgraph::{
    Analysis, Code, FusionOptions, Options, Reason, check_file, find_fusion_groups,
    find_fusion_groups_with,
};
use std::path::Path;

fn analysis_with(src: &str, flash_attention: bool) -> Analysis {
    analysis_at("t.fgraph", src, flash_attention)
}

/// The analysis of `src` read from `path` (its imports are relative to it).
fn analysis_at(path: &str, src: &str, flash_attention: bool) -> Analysis {
    let opts = Options {
        fusion: fgraph::fusion::FusionOptions {
            flash_attention,
            ..fgraph::fusion::FusionOptions::default()
        },
        ..Options::default()
    };
    let report = check_file(path, src.as_bytes(), &opts);
    assert!(!report.has_errors(), "{:?}", report.diagnostics);
    report.graphs[0].analysis.clone().expect("analysis")
}

fn analysis(src: &str) -> Analysis {
    analysis_with(src, false)
}

fn example(name: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("examples")
            .join(name),
    )
    .expect("example")
}

fn h100() -> Hardware {
    Hardware::preset("h100").expect("preset")
}

fn close(got: f64, want: f64, rel: f64) -> bool {
    (got - want).abs() <= rel * want.abs().max(1e-30)
}

macro_rules! assert_close {
    ($got:expr, $want:expr) => {
        assert_close!($got, $want, 1e-9)
    };
    ($got:expr, $want:expr, $rel:expr) => {{
        let (g, w): (f64, f64) = ($got, $want);
        assert!(close(g, w, $rel), "got {g}, want {w}");
    }};
}

// ---------------------------------------------------------------------------------------
// Hardware and ridge points.

#[test]
fn ridge_points_match_the_seeds() {
    // Seed 000/001: A100 312 TFLOP/s / ~2 TB/s = 156 FLOP/B. With the datasheet's 2.039 TB/s
    // (A100 SXM 80GB) it is 312 / 2.039 = 153.0, within 2% of the seed's rounded figure.
    let a100 = Hardware::preset("a100").expect("a100");
    assert_close!(a100.ridge(Unit::Tensor16), 312.0 / 2.039);
    assert!(close(a100.ridge(Unit::Tensor16), 156.0, 0.02));
    // Seed 001: H100 ~1000 / 3.35 = 298; the dense datasheet figure 989 gives 295.2.
    let h100 = h100();
    let r = h100.ridge(Unit::Tensor16);
    assert_close!(r, 989.0 / 3.35);
    assert!((295.0..=298.0).contains(&r), "{r}");
    // H200: same compute, 4.8 TB/s: 206.0. Measured H100: 790 / 3.0 = 263.3.
    assert_close!(
        Hardware::preset("h200").unwrap().ridge(Unit::Tensor16),
        989.0 / 4.8
    );
    assert_close!(
        Hardware::preset("h100-measured")
            .unwrap()
            .ridge(Unit::Tensor16),
        790.0 / 3.0
    );
    // f32 ridges: 19.5 / 2.039 = 9.56 and 67 / 3.35 = 20.
    assert_close!(a100.ridge(Unit::F32), 19.5 / 2.039);
    assert_close!(h100.ridge(Unit::F32), 20.0);
}

#[test]
fn presets_carry_the_issue_figures_and_their_sources() {
    let want = [
        ("a100", 312.0, 19.5, 2.039, 40, 108),
        ("h100", 989.0, 67.0, 3.35, 50, 132),
        ("h200", 989.0, 67.0, 4.8, 50, 132),
        ("h100-measured", 790.0, 67.0, 3.0, 50, 132),
        // Issue 25: the h100 on two nodes of 8 (its interconnect differs).
        ("h100-2x8", 989.0, 67.0, 3.35, 50, 132),
    ];
    for (name, f16, f32, bw, l2_mib, sms) in want {
        let hw = Hardware::preset(name).expect(name);
        assert_close!(hw.peak_f16, f16 * 1e12);
        assert_close!(hw.peak_f32, f32 * 1e12);
        assert_close!(hw.bandwidth, bw * 1e12);
        assert_eq!(hw.l2_bytes, Some(l2_mib * 1024 * 1024));
        assert_eq!(hw.sms, Some(sms));
        assert_close!(hw.launch(LaunchMode::Graph), 1.2e-6);
        assert_close!(hw.launch(LaunchMode::Eager), 11e-6);
        assert!(!hw.source.is_empty() && !hw.description.is_empty());
    }
    assert_eq!(Hardware::presets().len(), 5);
    assert!(Hardware::preset("H100").is_some(), "case-insensitive");
    assert!(Hardware::preset("b200").is_none());
}

#[test]
fn hardware_files_parse_validate_and_round_trip() {
    let hw = Hardware::from_json(
        r#"{"name": "toy", "peak_tflops_f16": 100, "peak_tflops_f32": 10,
            "bandwidth_tb_s": 1, "l2_mib": 8, "sms": 10, "launch_graph_us": 2,
            "launch_eager_us": 20}"#,
    )
    .expect("valid");
    assert_close!(hw.ridge(Unit::Tensor16), 100.0);
    assert_close!(hw.launch(LaunchMode::Graph), 2e-6);
    assert_close!(hw.launch(LaunchMode::Eager), 20e-6);
    assert_eq!(hw.l2_bytes, Some(8 * 1024 * 1024));
    // Optional launch costs default to the H100 measurements.
    let hw = Hardware::from_json(
        r#"{"name": "min", "peak_tflops_f16": 1, "peak_tflops_f32": 1, "bandwidth_tb_s": 1}"#,
    )
    .expect("minimal");
    assert_close!(hw.launch(LaunchMode::Graph), 1.2e-6);
    for bad in [
        r#"{"name": "x", "peak_tflops_f16": 1, "peak_tflops_f32": 1}"#,
        r#"{"name": "x", "peak_tflops_f16": -1, "peak_tflops_f32": 1, "bandwidth_tb_s": 1}"#,
        r#"{"name": "x", "peak_tflops_f16": 0, "peak_tflops_f32": 1, "bandwidth_tb_s": 1}"#,
        r#"{"name": "x", "peak_tflops_f16": 1e308, "peak_tflops_f32": 1, "bandwidth_tb_s": 1}"#,
        r#"{"name": "x", "peak_tflops_f16": 1, "peak_tflops_f32": 1, "bandwidth_tb_s": 1, "bandwith": 2}"#,
        r#"{"name": "x", "peak_tflops_f16": 1, "peak_tflops_f32": 1, "bandwidth_tb_s": 1, "launch_graph_us": -1}"#,
        r#"{"name": "", "peak_tflops_f16": 1, "peak_tflops_f32": 1, "bandwidth_tb_s": 1}"#,
        "not json",
    ] {
        assert!(Hardware::from_json(bad).is_err(), "accepted {bad}");
    }
    // Every preset written as a file reads back as itself.
    for hw in Hardware::presets() {
        let text = serde_json::to_string(&hw.to_file()).expect("json");
        let back = Hardware::from_json(&text).expect("round trip");
        assert_eq!(back.name, hw.name);
        assert_close!(back.peak_f16, hw.peak_f16);
        assert_close!(back.bandwidth, hw.bandwidth);
        assert_eq!(back.l2_bytes, hw.l2_bytes);
    }
}

// ---------------------------------------------------------------------------------------
// FLOPs and intensity.

#[test]
fn gemm_intensity_and_time() {
    // [4096, 4096] x [4096, 4096] in f16: 2·N³ = 137,438,953,472 FLOP over
    // 3 · N² · 2 bytes = 100,663,296 B: N / 3 = 1365.33 FLOP/B, far right of the ridge.
    let a = analysis(
        "graph g {\n  dtype f16\n  input a: [4096, 4096]\n  weight b: [4096, 4096]\n  op mm = matmul(a, b) -> c\n}\n",
    );
    let c = cost::estimate(&a, &h100(), LaunchMode::Graph).expect("cost");
    let k = &c.fused.kernels[0];
    assert_eq!(k.flops, 137_438_953_472);
    assert_eq!(k.bytes, 100_663_296);
    assert_close!(k.intensity.unwrap(), 4096.0 / 3.0);
    assert_eq!(k.bound, Bound::Compute);
    // 137.4 GFLOP / 989 TFLOP/s = 138.97 µs; 100.7 MB / 3.35 TB/s = 30.05 µs; + 1.2 µs.
    assert_close!(k.compute_s, 137_438_953_472.0 / 989e12);
    assert_close!(k.memory_s, 100_663_296.0 / 3.35e12);
    assert_close!(k.time_s, 137_438_953_472.0 / 989e12 + 1.2e-6);
    assert_close!(k.time_s * 1e6, 140.17, 1e-3);
    assert_close!(k.ridge_point, 989.0 / 3.35);
    // The same GEMM in f32 runs at the f32 figure: 67 TFLOP/s.
    let a = analysis(
        "graph g {\n  input a: [4096, 4096]\n  weight b: [4096, 4096]\n  op mm = matmul(a, b) -> c\n}\n",
    );
    let c = cost::estimate(&a, &h100(), LaunchMode::Graph).expect("cost");
    assert_close!(c.fused.kernels[0].compute_s, 137_438_953_472.0 / 67e12);
    assert_close!(c.fused.kernels[0].intensity.unwrap(), 4096.0 / 6.0);
}

#[test]
fn elementwise_intensity_and_time() {
    // relu on 2^20 f16 elements: 1 FLOP per element, 2 B read + 2 B written: 0.25 FLOP/B.
    // gelu: 8 FLOP per element: 2 FLOP/B. Both far below the f32 ridge (20): memory-bound.
    let n: u64 = 1 << 20;
    for (func, per, want) in [("relu", 1u64, 0.25), ("gelu", 8, 2.0), ("silu", 4, 1.0)] {
        let src = format!(
            "graph g {{\n  dtype f16\n  input x: [1024, 1024]\n  op a = elementwise.{func}(x) -> y\n}}\n"
        );
        let c = cost::estimate(&analysis(&src), &h100(), LaunchMode::Graph).expect("cost");
        let k = &c.fused.kernels[0];
        assert_eq!(k.flops, per * n, "{func}");
        assert_eq!(k.bytes, 4 * n);
        assert_close!(k.intensity.unwrap(), want);
        assert_eq!(k.bound, Bound::Memory);
        // 4 MiB / 3.35 TB/s = 1.252 µs, + 1.2 µs launch.
        assert_close!(k.time_s, 4.0 * n as f64 / 3.35e12 + 1.2e-6);
        assert_close!(k.ridge_point, 20.0);
    }
    // f32 relu: 8 bytes per element, 0.125 FLOP/B.
    let c = cost::estimate(
        &analysis("graph g {\n  input x: [1024, 1024]\n  op a = elementwise.relu(x) -> y\n}\n"),
        &h100(),
        LaunchMode::Graph,
    )
    .expect("cost");
    assert_close!(c.fused.kernels[0].intensity.unwrap(), 0.125);
}

#[test]
fn flop_table_attributes_views_and_batches() {
    let a = analysis(
        "graph g {
  param M = 64
  param K = 32
  dtype f16
  input x: [M, K]
  input qkv: [3, 8, M, K]
  op s = reduction.sum(x, axis = -1) -> r: [M]
  op sm = reduction.softmax(x, axis = -1) -> p: [M, K]
  op ln = reduction.layernorm(x) -> l: [M, K]
  op custom = elementwise(x) -> e
  op over = elementwise.erf(x, flops = 20) -> e2
  op zero = elementwise.relu(x, flops = 0) -> e3
  op rs = reshape(x) -> v: [K, M]
  op bmm = matmul(qkv[0], qkv[1].T) -> sc: [8, M, M]
  output r, p, l, e, e2, e3, v, sc
}
",
    );
    let g = &a.graph;
    let by_name = |n: &str| {
        let o = g.ops.iter().position(|o| o.name == n).expect(n);
        cost::op_flops(g, fgraph::OpId(o as u32))
    };
    let mk = 64 * 32;
    // A sum over the last axis touches every input element once: M·K, not M.
    assert_eq!(by_name("s"), (mk, cost::FlopSource::Table));
    assert_eq!(by_name("sm"), (5 * mk, cost::FlopSource::Table));
    assert_eq!(by_name("ln"), (8 * mk, cost::FlopSource::Table));
    assert_eq!(by_name("custom"), (mk, cost::FlopSource::Unknown));
    assert_eq!(by_name("over"), (20 * mk, cost::FlopSource::Attribute));
    assert_eq!(by_name("zero"), (0, cost::FlopSource::Attribute));
    assert_eq!(by_name("rs"), (0, cost::FlopSource::Reshape));
    // [8, M, K] x [8, K, M] (K read through the view qkv[1].T): 2 · M · M · K per head.
    assert_eq!(
        by_name("bmm"),
        (8 * 2 * 64 * 64 * 32, cost::FlopSource::Matmul)
    );
    assert_eq!(cost::flops::per_element("GELU"), Some(8));
    assert_eq!(cost::flops::per_element("frobnicate"), None);
}

#[test]
fn flop_counts_up_to_64_bits_are_exact() {
    // 2 · 2^62 + 2 · (2^62 - 1) = 2^64 - 2 FLOPs: the sum fits, one short of u64::MAX, and is
    // counted exactly (a saturating sum would say 2^64 - 1). One more FLOP per element of
    // either op is `size-overflow` (tests/numeric_limits.rs).
    let a = analysis(
        "graph g {\n  param P = 4611686018427387904\n  dtype u8\n  input x: [2]\n  op a = elementwise.f(x, flops = P) -> y\n  op b = elementwise.f(y, flops = P - 1) -> z\n  output z\n}\n",
    );
    let c = cost::estimate(&a, &h100(), LaunchMode::Graph).expect("cost");
    assert_eq!(c.fused.flops, u64::MAX - 1);
    assert_eq!(c.unfused.flops, u64::MAX - 1);
    assert!(c.fused.time_s.is_finite() && c.speedup.is_finite());
}

// ---------------------------------------------------------------------------------------
// The seed example's kernels on the presets.

#[test]
fn seed_mlp_kernel_times_on_h100() {
    // examples/seed_mlp.fgraph: M = 1024, K = 4096, N = 1024, f16.
    let a = analysis(&example("seed_mlp.fgraph"));
    let c = cost::estimate(&a, &h100(), LaunchMode::Graph).expect("cost");
    let (f16, f32, bw, launch) = (989e12, 67e12, 3.35e12, 1.2e-6);
    assert_eq!(c.fused.kernels.len(), 2);

    // Kernel 1 [matmul1, bias1, relu]: 2·1024·4096·4096 = 34,359,738,368 FLOP on tensor
    // cores plus 2 · 4,194,304 FLOP of epilogue on the f32 units; 41,951,232 B read +
    // 8,388,608 B written = 50,339,840 B. Compute 34.87 µs > memory 15.03 µs.
    let k1 = &c.fused.kernels[0];
    assert_eq!(k1.flops, 34_359_738_368 + 2 * 4_194_304);
    assert_eq!(k1.bytes, 50_339_840);
    assert_eq!(k1.bound, Bound::Compute);
    let t1 = 34_359_738_368.0 / f16 + 8_388_608.0 / f32 + launch;
    assert_close!(k1.time_s, t1);
    assert_close!(k1.time_s * 1e6, 36.07, 1e-3);
    assert_close!(k1.intensity.unwrap(), 682.72, 1e-4);

    // Kernel 2 [matmul2]: 2·1024·1024·4096 = 8,589,934,592 FLOP; 16,777,216 + 2,097,152 =
    // 18,874,368 B (455.1 FLOP/B). 8.69 µs compute > 5.63 µs memory.
    let k2 = &c.fused.kernels[1];
    assert_eq!(k2.flops, 8_589_934_592);
    assert_eq!(k2.bytes, 18_874_368);
    assert_eq!(k2.bound, Bound::Compute);
    assert_close!(k2.time_s, 8_589_934_592.0 / f16 + launch);
    assert_close!(k2.time_s * 1e6, 9.89, 1e-3);

    // Unfused: matmul1 alone (50,331,648 B, compute-bound, 35.94 µs), bias1 (16,785,408 B,
    // memory-bound, 6.21 µs), relu (16,777,216 B, 6.21 µs), matmul2 (9.89 µs).
    let u: Vec<_> = c.unfused_kernels().collect();
    assert_eq!(u.len(), 4);
    for (i, k) in u.iter().enumerate() {
        assert_eq!(k.ops, [a.graph.topo[i]]);
        assert_eq!(
            (k.flops, k.bytes),
            (c.unfused.kernels[i].flops, c.unfused.kernels[i].bytes)
        );
        let (bound, time_s) = c.unfused.kernels[i].bound_and_time(&c.hardware, c.launch);
        assert_eq!((k.bound, k.time_s.to_bits()), (bound, time_s.to_bits()));
    }
    assert_close!(u[0].time_s, 34_359_738_368.0 / f16 + launch);
    assert_eq!(u[1].bound, Bound::Memory);
    assert_close!(u[1].time_s, 16_785_408.0 / bw + launch);
    assert_close!(u[2].time_s, 16_777_216.0 / bw + launch);
    let unfused = u[0].time_s + u[1].time_s + u[2].time_s + u[3].time_s;
    assert_close!(c.unfused.time_s, unfused);
    assert_close!(c.unfused.time_s * 1e6, 58.25, 1e-3);
    assert_close!(c.fused.time_s * 1e6, 45.95, 1e-3);
    assert_close!(c.speedup, unfused / (k1.time_s + k2.time_s));
    assert_eq!(
        c.unfused.flops, c.fused.flops,
        "fusion moves bytes, not FLOPs"
    );
    assert_eq!(c.fused.bytes, a.traffic.fused.total);
    assert_eq!(c.unfused.bytes, a.traffic.unfused.total);
}

#[test]
fn seed_mlp_on_every_preset_and_launch_mode() {
    let a = analysis(&example("seed_mlp.fgraph"));
    // Kernel 1 on each preset: max(34.36 GFLOP / f16 + 8.4 MFLOP / f32, 50.3 MB / bw) + 1.2 µs.
    for (name, f16, f32, bw) in [
        ("a100", 312e12, 19.5e12, 2.039e12),
        ("h100", 989e12, 67e12, 3.35e12),
        ("h200", 989e12, 67e12, 4.8e12),
        ("h100-measured", 790e12, 67e12, 3.0e12),
    ] {
        let hw = Hardware::preset(name).unwrap();
        let c = cost::estimate(&a, &hw, LaunchMode::Graph).expect("cost");
        let compute: f64 = 34_359_738_368.0 / f16 + 8_388_608.0 / f32;
        let memory = 50_339_840.0 / bw;
        assert_close!(c.fused.kernels[0].time_s, compute.max(memory) + 1.2e-6);
        assert!(c.speedup > 1.0, "{name}");
    }
    // Eager launches cost 11 µs each: 4 unfused kernels pay 44 µs, 2 fused ones 22 µs.
    let g = cost::estimate(&a, &h100(), LaunchMode::Graph).unwrap();
    let e = cost::estimate(&a, &h100(), LaunchMode::Eager).unwrap();
    assert_close!(e.unfused.time_s - g.unfused.time_s, 4.0 * 9.8e-6, 1e-9);
    assert_close!(e.fused.time_s - g.fused.time_s, 2.0 * 9.8e-6, 1e-9);
    assert!(
        e.speedup > g.speedup,
        "fewer launches matter more when they cost more"
    );
}

// ---------------------------------------------------------------------------------------
// FlashAttention.

#[test]
fn attention_example_flash_traffic() {
    // examples/attention.fgraph: NH = 32, S = 4096, HD = 128, f16. q, k, v: 32 MiB each;
    // scores, scaled, probs: [32, 4096, 4096] = 1 GiB each; scale: one f16, 2 B.
    let src = example("attention.fgraph");
    let plain = analysis(&src);
    let fused = analysis_with(&src, true);

    // Default: [attn_scores, scale_scores] (64 MiB + 2 B read, 1 GiB written), [softmax]
    // (1 GiB each way), [attn_output] (1 GiB + 32 MiB read, 32 MiB written).
    assert_eq!(plain.plan.groups.len(), 3);
    assert!(plain.plan.flash.is_empty());
    assert_eq!(plain.traffic.fused.total, 4_429_185_026);

    // FlashAttention: one kernel reading q, k, v and scale and writing o:
    // 3 · 33,554,432 + 2 read, 33,554,432 written = 134,217,730 B.
    assert_eq!(fused.plan.groups.len(), 1);
    assert_eq!(fused.plan.flash.len(), 1);
    let gt = &fused.traffic.groups[0];
    let reads: Vec<&str> = gt
        .reads
        .iter()
        .map(|r| fused.graph.tensor(r.tensor).name.as_str())
        .collect();
    assert_eq!(reads, ["q", "k", "scale", "v"]);
    assert_eq!(gt.bytes_read, 3 * 33_554_432 + 2);
    assert_eq!(gt.bytes_written, 33_554_432);
    assert_eq!(fused.traffic.fused.total, 134_217_730);
    // What the pass saves is the round trips of `scaled` and `probs`: 4 GiB.
    assert_eq!(
        plain.traffic.fused.total - fused.traffic.fused.total,
        4 * (1 << 30)
    );
    let hw = h100();
    let att = cost::attention(&plain, &hw, LaunchMode::Graph).expect("attention");
    assert!(!att.applied);
    assert_eq!(att.patterns.len(), 1);
    assert_eq!(att.patterns[0].saved_bytes, 4 * (1 << 30));
    assert_eq!(att.with.as_ref().unwrap().traffic.total, 134_217_730);
    assert_eq!(att.without.as_ref().unwrap().traffic.total, 4_429_185_026);
    let att2 = cost::attention(&fused, &hw, LaunchMode::Graph).expect("attention");
    assert!(att2.applied);
    assert_eq!(att.with, att2.with);
    assert_eq!(att.without, att2.without);

    // Fused edges: the two the rules cut, with the rule each overrides.
    let edges: Vec<(&str, &str, Option<Reason>)> = fused.plan.flash[0]
        .fused_edges
        .iter()
        .map(|e| {
            assert_eq!(e.fused_by, FusedBy::FlashAttention);
            (
                fused.graph.op(e.producer).name.as_str(),
                fused.graph.op(e.consumer).name.as_str(),
                e.overrides,
            )
        })
        .collect();
    assert_eq!(
        edges,
        [
            ("attn_scores", "scale_scores", None),
            (
                "scale_scores",
                "softmax",
                Some(Reason::ReductionAfterMatmul)
            ),
            ("softmax", "attn_output", Some(Reason::MatmulStartsGroup)),
        ]
    );
    assert!(fused.plan.boundaries.is_empty());

    // Time on H100: the fused kernel is compute-bound (275 GFLOP of matmuls), the default
    // plan is memory-bound on the 1 GiB intermediates.
    let c = cost::estimate(&fused, &hw, LaunchMode::Graph).unwrap();
    let k = &c.fused.kernels[0];
    assert_eq!(k.bound, Bound::Compute);
    assert_eq!(k.bytes, 134_217_730);
    let matmul_flops = 2.0 * 2.0 * 32.0 * 4096.0 * 4096.0 * 128.0;
    let other_flops = (1.0 + 5.0) * 32.0 * 4096.0 * 4096.0; // scale 1 + softmax 5 per element
    assert_close!(
        k.time_s,
        matmul_flops / 989e12 + other_flops / 67e12 + 1.2e-6
    );
}

#[test]
fn transformer_block_with_and_without_flash_attention() {
    // seq 2048, hidden 4096, 32 heads, f16.
    let src = fgraph::transformer::emit(
        fgraph::transformer::BlockDims::new(2048, 4096, 32).unwrap(),
        fgraph::Dtype::F16,
    );
    let plain = analysis(&src);
    let fused = analysis_with(&src, true);
    // Without: 9 kernels, 1,912,635,392 B (14.93% less than unfused 2,248,179,712 B).
    assert_eq!(plain.traffic.unfused.total, 2_248_179_712);
    assert_eq!(plain.traffic.fused.total, 1_912_635_392);
    assert_eq!(plain.plan.groups.len(), 9);
    // With: the attention kernel reads the three 16 MiB slices of qkv_heads (Q, K, V) and
    // writes attn_cat (16 MiB; concat_heads is its epilogue). 7 kernels:
    //   [qkv_proj, split_heads] 16 + 96 MiB read, 48 MiB written   167,772,160
    //   [attention, concat_heads] 48 MiB read, 16 MiB written        67,108,864
    //   [out_proj, residual1] 16 + 32 + 16 read, 16 written          83,886,080
    //   [layernorm1] 16 MiB + 16 KiB read, 16 MiB written            33,570,816
    //   [ffn_up, gelu] 16 + 128 read, 64 written                    218,103,808
    //   [ffn_down, residual2] 64 + 128 + 16 read, 16 written        234,881,024
    //   [layernorm2]                                                 33,570,816
    //   total                                                       838,893,568
    assert_eq!(fused.plan.groups.len(), 7);
    let g = &fused.graph;
    let k = fused.plan.flash[0].group;
    let names: Vec<&str> = fused.plan.groups[k]
        .ops
        .iter()
        .map(|&o| g.op(o).name.as_str())
        .collect();
    assert_eq!(
        names,
        ["attn_scores", "softmax", "attn_output", "concat_heads"]
    );
    assert_eq!(fused.traffic.groups[k].bytes_read, 3 * 16_777_216);
    assert_eq!(fused.traffic.groups[k].bytes_written, 16_777_216);
    assert_eq!(fused.traffic.fused.total, 838_893_568);
    // The pass saves the 1 GiB round trips of scores and probs (256 MiB, written and read).
    assert_eq!(
        plain.traffic.fused.total - fused.traffic.fused.total,
        1 << 30
    );
    assert!(close(plain.traffic.savings_pct, 14.93, 1e-3));
    assert!(close(fused.traffic.savings_pct, 62.69, 1e-3));
    // Edges into the attention kernel keep the rules' reasons: Q, K and V come through HBM
    // because a matmul starts the kernel.
    let reasons: Vec<(&str, &str, Reason)> = fused
        .plan
        .boundaries
        .iter()
        .map(|b| {
            (
                g.op(b.producer).name.as_str(),
                g.op(b.consumer).name.as_str(),
                b.reason,
            )
        })
        .collect();
    assert!(reasons.contains(&("split_heads", "attn_scores", Reason::MatmulStartsGroup)));
    assert!(reasons.contains(&("split_heads", "attn_output", Reason::MatmulStartsGroup)));

    // Times on H100: the FlashAttention plan is faster than the default one.
    let hw = h100();
    let att = cost::attention(&plain, &hw, LaunchMode::Graph).unwrap();
    let (with, without) = (att.with.unwrap(), att.without.unwrap());
    assert!(with.time_s < without.time_s);
    assert_eq!(with.kernels, 7);
    assert_eq!(without.kernels, 9);
}

#[test]
fn default_plan_is_unchanged_without_the_flag() {
    for name in [
        "attention.fgraph",
        "transformer_block.fgraph",
        "seed_mlp.fgraph",
        "swiglu_mlp.fgraph",
        "layernorm_gelu.fgraph",
    ] {
        let a = analysis(&example(name));
        let b = find_fusion_groups(&a.graph);
        let c = find_fusion_groups_with(&a.graph, FusionOptions::default());
        assert_eq!(a.plan.groups, b.groups, "{name}");
        assert_eq!(a.plan.boundaries, b.boundaries, "{name}");
        assert_eq!(c.groups, b.groups, "{name}");
        assert!(a.plan.flash.is_empty());
        // With the flag, graphs without attention get the default plan too.
        let f = find_fusion_groups_with(
            &a.graph,
            FusionOptions {
                flash_attention: true,
                ..Default::default()
            },
        );
        if flash::detect(&a.graph).is_empty() {
            assert_eq!(f.groups, b.groups, "{name}");
        }
        // Every op is in exactly one group either way.
        let mut seen = vec![0; a.graph.ops.len()];
        for grp in &f.groups {
            for o in &grp.ops {
                seen[o.index()] += 1;
            }
        }
        assert!(seen.iter().all(|&n| n == 1), "{name}");
    }
}

const ATTN_HEAD: &str = "graph g {
  param S = 256
  param D = 64
  dtype f16
  input q: [8, S, D]
  input k: [8, S, D]
  input v: [8, S, D]
  input mask: [S, S]
";

fn candidates(body: &str) -> (Analysis, Vec<flash::Candidate>) {
    let a = analysis(&format!("{ATTN_HEAD}{body}}}\n"));
    let c = flash::candidates(&a.graph);
    (a, c)
}

#[test]
fn pattern_with_elementwise_chains_on_both_sides() {
    let (a, c) = candidates(
        "  op qk = matmul(q, k.T) -> s: [8, S, S]
  op masked = elementwise.add(s, mask) -> sm
  op scaled = elementwise.mul(sm, mask) -> ss
  op soft = reduction.softmax(ss, axis = 2) -> p: [8, S, S]
  op drop = elementwise.mul(p, mask) -> pd
  op pv = matmul(pd, v) -> o
  output o
",
    );
    let p = c[0].result.as_ref().expect("matches");
    let g = &a.graph;
    let names = |ops: &[fgraph::OpId]| -> Vec<String> {
        ops.iter().map(|&o| g.op(o).name.to_string()).collect()
    };
    assert_eq!(names(&p.pre), ["masked", "scaled"]);
    assert_eq!(names(&p.post), ["drop"]);
    assert_eq!(g.use_name(&p.k), "k.T");
    let inter: Vec<&str> = p
        .intermediates
        .iter()
        .map(|&t| g.tensor(t).name.as_str())
        .collect();
    assert_eq!(inter, ["s", "sm", "ss", "p", "pd"]);
    // Fused: one kernel reading q, k, mask, v and writing o.
    let f = analysis_with(
        &format!(
            "{ATTN_HEAD}{}}}\n",
            "  op qk = matmul(q, k.T) -> s: [8, S, S]
  op masked = elementwise.add(s, mask) -> sm
  op scaled = elementwise.mul(sm, mask) -> ss
  op soft = reduction.softmax(ss, axis = 2) -> p: [8, S, S]
  op drop = elementwise.mul(p, mask) -> pd
  op pv = matmul(pd, v) -> o
  output o
"
        ),
        true,
    );
    assert_eq!(f.plan.groups.len(), 1);
    let qkv = 8 * 256 * 64 * 2;
    assert_eq!(f.traffic.fused.bytes_read, 3 * qkv + 256 * 256 * 2);
    assert_eq!(f.traffic.fused.bytes_written, qkv);
}

#[test]
fn near_misses_say_why() {
    let body = |softmax: &str, tail: &str| {
        format!(
            "  op qk = matmul(q, k.T) -> s: [8, S, S]\n  op soft = reduction.softmax({softmax}) -> p: [8, S, S]\n{tail}"
        )
    };
    type Check = fn(&Miss) -> bool;
    let cases: Vec<(String, Check)> = vec![
        (
            body("s, axis = 1", "  op pv = matmul(p, v) -> o\n  output o\n"),
            |m| matches!(m, Miss::NotLastAxis { axis: 1 }),
        ),
        (
            body(
                "s, axis = -1",
                "  op pv = matmul(p, v) -> o\n  output o, p\n",
            ),
            |m| matches!(m, Miss::Materialized { output: true, .. }),
        ),
        (
            body(
                "s",
                "  op pv = matmul(p, v) -> o\n  op other = elementwise.relu(s) -> r\n  output o, r\n",
            ),
            |m| matches!(m, Miss::Materialized { output: false, .. }),
        ),
        (
            body(
                "s",
                "  op vp = matmul(v.T, p) -> o: [8, D, S]\n  output o\n",
            ),
            |m| matches!(m, Miss::ProbsNotFirstOperand { .. }),
        ),
        (
            body(
                "s",
                "  op r = reduction.sum(p, axis = -1) -> t: [8, S]\n  output t\n",
            ),
            |m| matches!(m, Miss::NoMatmulAfter { .. }),
        ),
    ];
    for (src, want) in &cases {
        let (a, c) = candidates(src);
        let m = c[0].result.as_ref().expect_err("no pattern");
        assert!(want(m), "{src}: {m:?}");
        assert!(!m.describe(&a.graph).is_empty());
    }
    // A softmax over an input that is not a matmul's output.
    let (_, c) = candidates("  op soft = reduction.softmax(mask) -> p: [S, S]\n  output p\n");
    assert!(matches!(
        c[0].result,
        Err(Miss::Materialized { output: false, .. } | Miss::NoMatmulBefore { .. })
    ));
}

#[test]
fn chained_attentions_do_not_share_an_op() {
    // pv1's output is the score matrix of the second softmax: the second pattern would
    // reuse pv1 as its Q·Kᵀ, so it is reported as an overlap.
    let (a, c) = candidates(
        "  input w: [8, S, S]
  op qk = matmul(q, k.T) -> s: [8, S, S]
  op soft = reduction.softmax(s) -> p: [8, S, S]
  op pv = matmul(p, w) -> s2: [8, S, S]
  op soft2 = reduction.softmax(s2) -> p2: [8, S, S]
  op pv2 = matmul(p2, v) -> o
  output o
",
    );
    assert!(c[0].result.is_ok());
    assert!(matches!(c[1].result, Err(Miss::Overlap { .. })));
    let f = find_fusion_groups_with(
        &a.graph,
        FusionOptions {
            flash_attention: true,
            ..Default::default()
        },
    );
    assert_eq!(f.flash.len(), 1);
}

#[test]
fn large_intermediate_says_what_a_fused_attention_kernel_saves() {
    // The transformer block without its allow comments: scores and probs ([32, 2048, 2048]
    // f16, 256 MiB each) are warned about, and each warning gives the pattern's saving, the
    // four 256 MiB transfers of scores and probs: 1,073,741,824 B.
    let src = fgraph::transformer::emit(
        fgraph::transformer::BlockDims::new(2048, 4096, 32).unwrap(),
        fgraph::Dtype::F16,
    );
    let report = check_file("block.fgraph", src.as_bytes(), &Options::default());
    let warnings: Vec<_> = report
        .diagnostics
        .iter()
        .filter(|d| d.code == Code::LargeIntermediate)
        .collect();
    assert_eq!(warnings.len(), 2);
    for w in &warnings {
        let help = w.help.as_deref().unwrap_or_default();
        assert!(help.contains("1,073,741,824 B (1.0 GiB)"), "{help}");
        assert!(
            help.contains("`attn_scores` → `softmax` → `attn_output`"),
            "{help}"
        );
        assert!(help.contains("--flash-attention"), "{help}");
    }
    // With the pass, nothing is written, so nothing is warned about.
    let opts = Options {
        fusion: fgraph::fusion::FusionOptions {
            flash_attention: true,
            ..fgraph::fusion::FusionOptions::default()
        },
        ..Options::default()
    };
    let report = check_file("block.fgraph", src.as_bytes(), &opts);
    assert!(report.diagnostics.is_empty(), "{:?}", report.diagnostics);
}

// ---------------------------------------------------------------------------------------
// The roofline picture.

#[test]
fn roofline_svg_is_valid_and_has_every_kernel() {
    for name in [
        "seed_mlp.fgraph",
        "attention.fgraph",
        "transformer_block.fgraph",
    ] {
        for flash_attention in [false, true] {
            let a = analysis_with(&example(name), flash_attention);
            for hw in Hardware::presets() {
                let c = cost::estimate(&a, &hw, LaunchMode::Graph).unwrap();
                let svg = fgraph::report::render::roofline::svg(&a.graph, &c);
                let doc = roxmltree::Document::parse(&svg)
                    .unwrap_or_else(|e| panic!("{name}: invalid XML: {e}"));
                let root = doc.root_element();
                assert_eq!(root.tag_name().name(), "svg");
                assert_eq!(
                    root.tag_name().namespace(),
                    Some("http://www.w3.org/2000/svg")
                );
                let text: String = doc
                    .descendants()
                    .filter(|n| n.is_text())
                    .filter_map(|n| n.text())
                    .collect();
                // Every op's name appears (unfused kernels are single ops), every kernel has
                // a plotted point or is listed as unplottable, and both ridges are marked.
                for op in &a.graph.ops {
                    assert!(
                        text.contains(op.name.as_str()),
                        "{name}: {} missing",
                        op.name
                    );
                }
                let points: Vec<String> = doc
                    .descendants()
                    .filter(|n| n.attribute("class") == Some("kernel"))
                    .filter_map(|n| n.attribute("data-kernel").map(str::to_string))
                    .collect();
                for (prefix, n) in [("U", c.unfused.kernels.len()), ("F", c.fused.kernels.len())] {
                    for k in 1..=n {
                        let label = format!("{prefix}{k}");
                        let plotted = points.contains(&label);
                        let zero = if prefix == "U" {
                            c.unfused.kernels[k - 1].flops == 0
                        } else {
                            c.fused.kernels[k - 1].flops == 0
                        };
                        assert!(plotted != zero, "{name}: {label} plotted {plotted}");
                        let row = doc.descendants().any(|n| {
                            n.attribute("class") == Some("legend-row")
                                && n.attribute("data-kernel") == Some(label.as_str())
                        });
                        assert!(row, "{name}: no legend row for {label}");
                    }
                }
                assert_eq!(
                    doc.descendants()
                        .filter(|n| n.attribute("class") == Some("ridge"))
                        .count(),
                    2
                );
                assert!(text.contains(&format!(
                    "ridge {} FLOP/B",
                    fgraph::units::fmt_num(hw.ridge(Unit::Tensor16))
                )));
            }
        }
    }
}

#[test]
fn roofline_escapes_names_and_writes_atomically() {
    let a = analysis(&example("seed_mlp.fgraph"));
    let mut hw = h100();
    hw.description = "<GPU & \"friends\">".into();
    let c = cost::estimate(&a, &hw, LaunchMode::Eager).unwrap();
    let svg = fgraph::report::render::roofline::svg(&a.graph, &c);
    roxmltree::Document::parse(&svg).expect("escaped");
    assert!(svg.contains("&lt;GPU &amp; &quot;friends&quot;&gt;"));

    let dir = std::env::temp_dir().join(format!("fgraph-roofline-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("r.svg");
    std::fs::write(&path, "old").unwrap();
    fgraph::fsio::write_atomically(&path, svg.as_bytes()).expect("written");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), svg);
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n != "r.svg")
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    // A directory that does not exist: an error, no panic, nothing created.
    let bad = dir.join("no/such/dir/r.svg");
    assert!(fgraph::fsio::write_atomically(&bad, b"x").is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn flash_plans_are_legal_on_every_fixture_and_example() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // (path, source): the examples import files beside them.
    let mut sources: Vec<(String, String)> = Vec::new();
    for dir in ["examples", "tests/fixtures/fusion"] {
        for e in std::fs::read_dir(root.join(dir)).expect("dir") {
            let p = e.expect("entry").path();
            if p.extension().is_some_and(|x| x == "fgraph") {
                let text = std::fs::read_to_string(&p).expect("read");
                sources.push((p.to_string_lossy().into_owned(), text));
            }
        }
    }
    // Attention with an epilogue, a mask producer and a second consumer of the output.
    sources.push((
        "t.fgraph".to_string(),
        format!(
            "{ATTN_HEAD}  op mk = elementwise.neg(mask) -> m2
  op qk = matmul(q, k.T) -> s: [8, S, S]
  op masked = elementwise.add(s, m2) -> sm
  op soft = reduction.softmax(sm) -> p: [8, S, S]
  op pv = matmul(p, v) -> o
  op act = elementwise.gelu(o) -> y
  op res = elementwise.add(o, q) -> z
  op proj = matmul(y, v.T) -> w: [8, S, S]
  output z, w
}}
"
        ),
    ));
    for (path, src) in &sources {
        let plain = analysis_at(path, src, false);
        let flash = analysis_at(path, src, true);
        let (g, plan) = (&flash.graph, &flash.plan);
        let mut count = vec![0; g.ops.len()];
        for (k, grp) in plan.groups.iter().enumerate() {
            for &o in &grp.ops {
                count[o.index()] += 1;
                assert_eq!(plan.group_of[o.index()], k);
            }
            let matmuls = grp
                .ops
                .iter()
                .filter(|&&o| g.op(o).kind == fgraph::OpKind::Matmul)
                .count();
            let allowed = if plan.flash_kernel(k).is_some() { 2 } else { 1 };
            assert!(matmuls <= allowed, "{src}");
        }
        assert!(count.iter().all(|&c| c == 1), "{src}");
        if src.contains("op mk = ") {
            assert_eq!(plan.flash.len(), 1, "the synthetic attention is fused");
        }
        // The kernels form a DAG: Kahn's algorithm over group edges visits every group.
        let n = plan.groups.len();
        let mut edges = std::collections::BTreeSet::new();
        for (c, op) in g.ops.iter().enumerate() {
            for u in &op.inputs {
                if let Some(p) = g.producer(u.tensor) {
                    let (a, b) = (plan.group_of[p.index()], plan.group_of[c]);
                    if a != b {
                        edges.insert((a, b));
                    }
                }
            }
        }
        let mut indeg = vec![0; n];
        for &(_, b) in &edges {
            indeg[b] += 1;
        }
        let mut ready: Vec<usize> = (0..n).filter(|&k| indeg[k] == 0).collect();
        let mut seen = 0;
        while let Some(k) = ready.pop() {
            seen += 1;
            for &(a, b) in &edges {
                if a == k {
                    indeg[b] -= 1;
                    if indeg[b] == 0 {
                        ready.push(b);
                    }
                }
            }
        }
        assert_eq!(seen, n, "cyclic kernels: {src}");
        // The pass never costs traffic, and saves exactly the intermediates' round trips
        // when nothing else changes.
        assert!(
            flash.traffic.fused.total <= plain.traffic.fused.total,
            "{src}"
        );
        if plan.flash.is_empty() {
            assert_eq!(plan.groups, plain.plan.groups);
        }
    }
}

/// The function registry's case rule (issue 20): a function is the same function however it
/// is capitalised, for its FLOPs, the FlashAttention detector and the hardware model's cost
/// family. `reduction.Softmax` was priced as a plain reduction (27 µs) while
/// `reduction.softmax` was priced as a softmax (56 µs) on the same tensor.
#[test]
fn function_names_mean_the_same_in_any_case() {
    let priced = |func: &str| {
        let src = format!(
            "graph g {{\n  dtype f16\n  input x: [4096, 4096]\n  \
             op s = reduction.{func}(x, axis = -1) -> y: [4096, 4096]\n  output y\n}}\n"
        );
        let r = fgraph::check_file("t.fgraph", src.as_bytes(), &fgraph::Options::default());
        assert!(!r.has_errors(), "{func}: {:?}", r.diagnostics);
        let a = r.graphs[0].analysis.as_ref().expect("analysis");
        let hw = Hardware::preset("h100").expect("h100");
        let mut c = cost::estimate(a, &hw, LaunchMode::Graph).expect("cost");
        cost::with_hardware_model(&mut c, a).expect("model");
        let m = c.hardware_model.expect("model");
        (
            cost::op_flops(&a.graph, fgraph::OpId(0)),
            m.kernels[0].family,
            m.time_s,
        )
    };
    let lower = priced("softmax");
    assert_eq!(lower.1, fgraph::cost::Family::Softmax);
    for name in ["Softmax", "SOFTMAX", "softMax"] {
        assert_eq!(priced(name), lower, "{name}");
    }
    let norm = priced("rmsnorm");
    assert_eq!(norm.1, fgraph::cost::Family::Norm);
    assert_eq!(priced("RMSNorm"), norm);
}
