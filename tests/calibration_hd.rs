//! Attention at head dims between the kernels' steps (docs/VALIDATION.md §25) and causal
//! attention's schedule (§27): the SDPA calls of `validation/gpu/attention-hd/` measured on
//! an H100 (`data/` and `causal/measured_hd.csv`, the main kernel's duration from the
//! profiler), against the binary's hardware model now (each case's `graphs/CASE.fgraph`
//! analysed again) and against the predictions committed before they were measured
//! (`predictions_hd.json`, `predictions_causal.json`). The counts within issue 23's target
//! (±20% for kernels over 20 µs) must not fall below what VALIDATION.md reports.

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
    // 12 of 14, the misses causal at head dims 160 and 256; with the causal schedule (§27):
    // 14 of 14.
    assert_eq!(pre_ok, 10);
    assert!(now_ok >= 14, "{now_ok} of 14 within ±20%");
}

/// §27: the 16 held-out calls of `hd.py --causal` (`causal/measured_hd.csv`) against the
/// binary now and against `predictions_causal.json`, committed before they were measured:
/// 16 of 16 within ±20% both ways, every causal one within −12..+2% as pre-registered.
#[test]
fn causal_attention_keeps_its_held_out_accuracy() {
    let dir = common::root().join("validation/gpu/attention-hd");
    let text = std::fs::read_to_string(dir.join("causal/measured_hd.csv")).expect("measured");
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().expect("header").split(',').collect();
    let col = |n: &str| head.iter().position(|h| *h == n).expect(n);
    let (c, m) = (col("case"), col("main_us"));
    let pre: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("predictions_causal.json")).expect("predictions"),
    )
    .expect("JSON");
    let mut n = 0;
    for line in lines {
        let f: Vec<&str> = line.split(',').collect();
        let (name, meas) = (f[c], f[m].parse::<f64>().expect("main_us"));
        let d = common::analyze_h100_json(&dir.join("graphs").join(format!("{name}.fgraph")));
        let now = d["cost"]["hardware_model"]["kernels"][0]["kernel_us"]
            .as_f64()
            .expect("kernel_us");
        let then = pre["cases"][name]["kernel_us"].as_f64().expect("predicted");
        assert!(
            (now / meas - 1.0).abs() <= 0.20,
            "{name}: {now} µs, {meas} measured"
        );
        if name.ends_with("_causal") {
            assert!((-0.12..=0.02).contains(&(then / meas - 1.0)), "{name}");
        }
        n += 1;
    }
    assert_eq!(n, 16);
}

/// Decode attention on few blocks (`decode.py`, VALIDATION.md §33): each set's calls
/// (`decode/`, `decode2/`: the call's kernels summed) against the predictions committed before
/// they were measured and against the binary now. The first set, pre-registered, 25 of 40
/// within ±20% over 20 µs (every call of 8 query rows 44-93% fast); with the query-block rule
/// it led to, 40 of 40; the second set, held out from the rule, 16 of 16 both ways. §48's
/// attention refit (fitted on SD's shapes, `sdpa_probe/refit.py`) prices the lone 8-row
/// kernels 2-7% higher (a kernel of few query blocks runs faster a block than one that fills
/// the GPU, and the refit's efficiency is the full GPU's): 35 of 40 and 13 of 16, the misses
/// at +19.5..+22% (VALIDATION.md §48).
#[test]
fn decode_attention_on_few_blocks_keeps_its_accuracy() {
    let dir = common::root().join("validation/gpu/attention-hd");
    let mut misses = Vec::new();
    for (folder, preds, graphs, n, pre_expected, now_expected) in [
        (
            "decode",
            "predictions_decode.json",
            "graphs_decode",
            40,
            25,
            35,
        ),
        (
            "decode2",
            "predictions_decode2.json",
            "graphs_decode2",
            16,
            16,
            13,
        ),
    ] {
        let text = std::fs::read_to_string(dir.join(folder).join("measured_decode.csv"))
            .expect("measured");
        let mut lines = text.lines();
        let head: Vec<&str> = lines.next().expect("header").split(',').collect();
        let col = |c: &str| head.iter().position(|h| *h == c).expect(c);
        let (c, m) = (col("case"), col("kernels_us"));
        let pre: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join(preds)).expect("predictions"))
                .expect("JSON");
        let (mut over, mut now_ok, mut pre_ok) = (0, 0, 0);
        for l in lines {
            let f: Vec<&str> = l.split(',').collect();
            let meas: f64 = f[m].parse().expect("kernels_us");
            if meas <= 20.0 {
                continue;
            }
            over += 1;
            let d = common::analyze_h100_json(&dir.join(graphs).join(format!("{}.fgraph", f[c])));
            let now = d["cost"]["hardware_model"]["kernel_us"]
                .as_f64()
                .expect("kernel_us");
            let then = pre["cases"][f[c]]["kernel_us"].as_f64().expect("predicted");
            now_ok += usize::from((now / meas - 1.0).abs() <= 0.20);
            pre_ok += usize::from((then / meas - 1.0).abs() <= 0.20);
        }
        assert_eq!(over, n, "{folder}");
        assert_eq!(pre_ok, pre_expected, "{folder}: as pre-registered");
        println!("{folder}: {now_ok} of {n} within ±20% now");
        if now_ok < now_expected {
            misses.push(format!(
                "{folder}: {now_ok} of {n} now, VALIDATION.md says {now_expected}"
            ));
        }
    }
    assert!(misses.is_empty(), "{}", misses.join("\n"));
}
