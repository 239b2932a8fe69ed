//! Decode priced as it runs (issue 24 item 2) under the hardware model (`--traffic-model
//! hardware`, src/cost/hwmodel/): the numbers of `examples/llama3_8b_decode.fgraph` and of
//! small graphs, each with why it moved.

use fgraph::cost::{self, Hardware, HwModel, LaunchMode, Prediction};
use fgraph::{Analysis, Options, check_file};

/// `src` checked clean, analysed with `fusion` and `--set` `overrides`.
fn analysed_with(
    path: &str,
    src: &[u8],
    overrides: &[(&str, i64)],
    fusion: fgraph::FusionOptions,
) -> Analysis {
    let opts = Options {
        overrides: overrides.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
        fusion,
        ..Options::default()
    };
    let r = check_file(path, src, &opts);
    assert!(
        r.diagnostics.iter().all(|d| !d.is_error()),
        "{:#?}",
        r.diagnostics
    );
    r.graphs[0].analysis.clone().expect("analysis")
}

fn example(name: &str, overrides: &[(&str, i64)]) -> Analysis {
    let path = format!("{}/examples/{name}", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).expect("example");
    analysed_with(&path, &bytes, overrides, Default::default())
}

fn source(src: &str) -> Analysis {
    analysed_with("t.fgraph", src.as_bytes(), &[], Default::default())
}

fn h100() -> Hardware {
    Hardware::preset("h100").expect("preset")
}

/// The hardware model's report of `a` on `hw`.
fn model(a: &Analysis, hw: &Hardware, launch: LaunchMode) -> cost::ModelReport {
    let mut c = cost::estimate(a, hw, launch).expect("estimate");
    cost::with_hardware_model(&mut c, a).expect("hardware model");
    c.hardware_model.expect("report")
}

/// The prediction of the kernel that holds op `name`.
fn kernel_of<'m>(a: &Analysis, m: &'m cost::ModelReport, name: &str) -> &'m Prediction {
    let k = a
        .plan
        .groups
        .iter()
        .position(|g| g.ops.iter().any(|&o| a.graph.op(o).name == name))
        .unwrap_or_else(|| panic!("no kernel holds `{name}`"));
    &m.kernels[k]
}

fn us(s: f64) -> f64 {
    s * 1e6
}

fn coeffs() -> HwModel {
    h100().model.expect("calibrated")
}

// ---- 1. `update`: priced by the rows written -----------------------------------------------

/// RoPE on the new K and its append to the cache are one kernel (the seed fuser). Priced over
/// the whole cache (the update's output) it took `elements / elementwise.elements_per_s`:
/// 38.75 µs of compute at 32k context (8 heads × 32,768 × 128), 41.50 µs in all, the issue's
/// figure; by the rows written (8 × 128 elements) it is the elementwise family's start-up
/// and a few nanoseconds, within the 2.7–4.7 µs measured. Its bytes were already the rows
/// (the compulsory model writes only the new rows, SPEC §3 with `update`'s write rule).
#[test]
fn the_cache_append_costs_its_rows_not_the_cache() {
    let ew = coeffs().families.elementwise;
    for (t, b) in [(32767, 1), (4095, 1), (4095, 16)] {
        let a = example("llama3_8b_decode.fgraph", &[("T", t), ("B", b)]);
        let m = model(&a, &h100(), LaunchMode::Graph);
        let k = kernel_of(&a, &m, "layers.0.k_append");
        // Rows written: B · 8 heads · 128, bf16.
        let rows = (b * 8 * 128) as u64;
        assert_eq!(k.dram_written, rows * 2);
        assert!(us(k.compute_s) < 0.05, "{t} {b}: {k:?}");
        let want = ew.overhead_us;
        assert!(
            (us(k.kernel_s) - want).abs() < 0.1,
            "T = {t}, B = {b}: {} µs, want ≈ {want} µs (was 41.5, 7.6 and 80 µs)",
            us(k.kernel_s)
        );
        assert!((2.7..4.7).contains(&us(k.kernel_s)));
    }
}

/// An update alone in its kernel, a small graph: 4 new rows of 1,024 written into a
/// 65,536-row buffer cost their own 4,096 elements.
#[test]
fn a_lone_update_loops_over_the_new_rows() {
    let a = source(
        "graph g {\n  input cache: f16[65536, 1024]\n  input new: f16[4, 1024]\n  \
         op put = update(cache, new, axis = 0, start = 100) -> c2\n  output c2\n}\n",
    );
    let m = model(&a, &h100(), LaunchMode::Graph);
    let k = &m.kernels[0];
    assert_eq!((k.dram_read, k.dram_written), (4 * 1024 * 2, 4 * 1024 * 2));
    let ew = coeffs().families.elementwise;
    let compute = 4096.0 / ew.elements_per_s;
    assert!((k.compute_s - compute).abs() < 1e-12, "{k:?}");
    // Before: 67,108,864 elements at 866 G/s, 77.5 µs.
    assert!(us(k.kernel_s) < ew.overhead_us + 0.1, "{k:?}");
}
