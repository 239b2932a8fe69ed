//! Attention at head dims between the kernels' steps (docs/VALIDATION.md §25): the 14 SDPA
//! calls of `validation/gpu/attention-hd/` measured on an H100 (`data/measured_hd.csv`, the
//! main kernel's duration from the profiler), against the binary's hardware model now (each
//! case's `graphs/CASE.fgraph` analysed again) and against the predictions committed before
//! the measurement (`predictions_hd.json`: head dims padded to a multiple of 32). The counts
//! within issue 23's target (±20% for kernels over 20 µs) must not fall below what VALIDATION
//! §25 reports.

mod common;

use serde_json::Value;
use std::collections::HashMap;

#[test]
fn attention_at_odd_head_dims_keeps_its_recorded_accuracy() {
    let root = common::root();
    let dir = root.join("validation/gpu/attention-hd");
    let text = std::fs::read_to_string(dir.join("data/measured_hd.csv")).expect("measured");
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().expect("header").split(',').collect();
    let col = |n: &str| head.iter().position(|h| *h == n).expect(n);
    let (c, m) = (col("case"), col("main_us"));
    let measured: HashMap<String, f64> = lines
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[c].to_string(), f[m].parse().expect("main_us"))
        })
        .collect();
    let pre: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("predictions_hd.json")).expect("predictions"),
    )
    .expect("JSON");
    let (mut now_ok, mut pre_ok) = (0, 0);
    for (name, &meas) in &measured {
        assert!(meas > 20.0, "{name}: every case is over 20 µs");
        let d = common::analyze_h100_json(&dir.join("graphs").join(format!("{name}.fgraph")));
        let now = d["cost"]["hardware_model"]["kernels"][0]["kernel_us"]
            .as_f64()
            .expect("kernel_us");
        let then = pre["cases"][name]["kernel_us"].as_f64().expect("predicted");
        now_ok += usize::from((now / meas - 1.0).abs() <= 0.20);
        pre_ok += usize::from((then / meas - 1.0).abs() <= 0.20);
    }
    assert_eq!(measured.len(), 14);
    // Pre-registered (a step of 32): 10 of 14; with cuDNN's step of 64 (its kernels' names):
    // 12 of 14, the misses causal at head dims 160 and 256.
    assert_eq!(pre_ok, 10);
    assert!(now_ok >= 12, "{now_ok} of 14 within ±20%");
}
