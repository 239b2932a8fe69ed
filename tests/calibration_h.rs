//! The held-out predictions of batch h (issue 23, docs/VALIDATION.md §18) are what the binary
//! predicts now: the routing cases' `.fgraph` text and the attention cases' files, analysed
//! again under the hardware model on the H100 preset, give the DRAM reads and kernel times
//! committed in `validation/gpu/h100-calib-h/predictions_*.json` before the held-out half was
//! measured. A change to the model that moves one of them must update the predictions and
//! VALIDATION.md, not drift past them.
//!
//! Two families were refitted after batch h's held-out check (batch i, VALIDATION.md §19):
//! the convolutions and `topk`. Their batch-h predictions stay committed as the pre-registered
//! record; what the binary predicts for them now is checked against batch i's predictions by
//! `tests/calibration_i.rs`. The causal prefill cases of the attention family moved with the
//! causal schedule read off validation/gpu/attention-hd/grid (VALIDATION.md §27): their
//! committed figures stay the record, and they are checked against their measured kernels.

mod common;

use serde_json::Value;

fn predictions(family: &str) -> Value {
    let path = common::root().join(format!(
        "validation/gpu/h100-calib-h/predictions_{family}.json"
    ));
    serde_json::from_str(&std::fs::read_to_string(path).expect("predictions")).expect("JSON")
}

/// The held-out case's main kernel as measured (`max_kernel_ns`), in µs.
fn measured_main_us(case: &str) -> f64 {
    measured(case, "max_kernel_ns") / 1e3
}

/// Column `name` of held-out case `case`, measured.
fn measured(case: &str, name: &str) -> f64 {
    let path = common::root().join("validation/gpu/h100-calib-h/heldout/measured_heldout.csv");
    let text = std::fs::read_to_string(path).expect("measured");
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().expect("header").split(',').collect();
    let col = |n: &str| head.iter().position(|h| *h == n).expect(n);
    let (c, t) = (col("case"), col(name));
    lines
        .map(|l| l.split(',').collect::<Vec<_>>())
        .find(|f| f[c] == case)
        .map(|f| f[t].parse::<f64>().expect("number"))
        .expect("measured case")
}

/// `analyze --format json --traffic-model hardware --hardware h100` on `path`.
fn hardware_model(path: &str) -> Value {
    common::analyze_h100_json(std::path::Path::new(path))["cost"]["hardware_model"].clone()
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * b.abs().max(1.0)
}

#[test]
fn the_routing_predictions_are_what_fgraph_predicts() {
    let p = predictions("routing");
    let cases = p["cases"].as_array().expect("cases");
    assert_eq!(cases.len(), 21);
    // topk was refitted on batch i (tests/calibration_i.rs holds its predictions).
    let cases: Vec<&Value> = cases.iter().filter(|c| c["family"] != "topk").collect();
    assert_eq!(cases.len(), 16);
    let dir = std::env::temp_dir().join(format!("fgraph-calib-h-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    for c in cases {
        let name = c["case"].as_str().expect("case");
        let file = dir.join(format!("{name}.fgraph"));
        std::fs::write(&file, c["fgraph"].as_str().expect("text")).expect("write");
        let hm = hardware_model(file.to_str().expect("path"));
        assert_eq!(hm["dram_read"], c["dram_read"], "{name}");
        let (now, then) = (hm["kernel_us"].as_f64(), c["kernel_us"].as_f64());
        // Committed rounded to 3 decimals.
        assert!(
            close(now.expect("now"), then.expect("then"), 1e-4),
            "{name}: {now:?} µs now, {then:?} µs predicted"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_attention_predictions_are_what_fgraph_predicts() {
    let p = predictions("attention");
    let cases = p["cases"].as_object().expect("cases");
    assert_eq!(cases.len(), 10);
    for (name, c) in cases {
        let file = common::root().join(c["file"].as_str().expect("file"));
        let hm = hardware_model(file.to_str().expect("path"));
        let k = &hm["kernels"][0];
        assert_eq!(k["dram_read"], c["dram_read"], "{name}");
        if name.contains("_causal_") {
            // Within issue 23's ±20% of the main kernel measured (−3.1..−6.5% since §27).
            let now = k["kernel_us"].as_f64().expect("now");
            let meas = measured_main_us(name);
            assert!(
                (now / meas - 1.0).abs() <= 0.10,
                "{name}: {now} µs, {meas} measured"
            );
            continue;
        }
        if name.contains("sdpa_decode") && measured(name, "n_kernels") == 2.0 {
            // cuDNN's split-KV decode and its combine kernel, priced since VALIDATION.md §57:
            // within issue 23's ±20% of both kernels measured (−9.8..+8.6%), two launches.
            let now = k["kernel_us"].as_f64().expect("now");
            let meas = measured(name, "gpu_time_ns") / 1e3;
            assert!(
                (now / meas - 1.0).abs() <= 0.20,
                "{name}: {now} µs, {meas} measured"
            );
            let launch = k["launch_us"].as_f64().expect("launch");
            assert!(
                close(launch, 2.0 * 1.2, 1e-9),
                "{name}: {launch} µs of launches"
            );
            continue;
        }
        let (now, then) = (k["kernel_us"].as_f64(), c["kernel_us"].as_f64());
        assert!(
            close(now.expect("now"), then.expect("then"), 1e-9),
            "{name}: {now:?} µs now, {then:?} µs predicted"
        );
    }
}

#[test]
fn the_norm_and_pool_predictions_are_what_fgraph_predicts() {
    let p = predictions("normpool");
    let cases = p["cases"].as_array().expect("cases");
    assert_eq!(cases.len(), 13);
    let dir = std::env::temp_dir().join(format!("fgraph-calib-h-np-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    for c in cases {
        let name = c["case"].as_str().expect("case");
        let file = dir.join(format!("{name}.fgraph"));
        std::fs::write(&file, c["source"].as_str().expect("text")).expect("write");
        let hm = hardware_model(file.to_str().expect("path"));
        let k = &hm["kernels"][0];
        assert_eq!(k["dram_read"], c["dram_read"], "{name}");
        let (now, then) = (k["kernel_us"].as_f64(), c["kernel_us"].as_f64());
        assert!(
            close(now.expect("now"), then.expect("then"), 1e-4),
            "{name}: {now:?} µs now, {then:?} µs predicted"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
