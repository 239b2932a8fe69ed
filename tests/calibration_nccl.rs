//! Issue 26's collective calibration (docs/VALIDATION.md §20): the held-out predictions in
//! `validation/gpu/nccl/predictions_nccl.json` (committed before the held-out sizes were
//! measured) are what fgraph predicts now, and their recorded accuracy against the
//! measurement on two H100s (`validation/gpu/nccl/data/heldout/measured_nccl.csv`) is what
//! VALIDATION.md reports. A change to the interconnect model that moves a prediction must
//! update the predictions and VALIDATION.md, not drift past them.

mod common;

use serde_json::Value;
use std::collections::HashMap;

fn predictions() -> Value {
    let path = common::root().join("validation/gpu/nccl/predictions_nccl.json");
    serde_json::from_str(&std::fs::read_to_string(path).expect("predictions")).expect("JSON")
}

#[test]
fn the_nccl_predictions_are_what_fgraph_predicts() {
    let p = predictions();
    let cases = p["collectives"].as_array().expect("collectives");
    // 6 collectives × 10 held-out sizes × worlds 2 and 4, bf16.
    assert_eq!(cases.len(), 120);
    let dir = std::env::temp_dir().join(format!("fgraph-calib-nccl-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    for (i, c) in cases.iter().enumerate() {
        let file = dir.join(format!("c{i}.fgraph"));
        std::fs::write(&file, c["fgraph"].as_str().expect("text")).expect("write");
        let d = common::analyze_h100_json(&file);
        let now = d["cost"]["hardware_model"]["kernel_us"]
            .as_f64()
            .expect("now");
        let then = c["time_us"].as_f64().expect("then");
        // Committed rounded to 3 decimals.
        assert!(
            (now - then).abs() <= 1e-3,
            "{c}: {now} µs now, {then} µs predicted"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The held-out sizes over 1 MiB measured in `folder` against the committed predictions:
/// (within ±15%, compared); every collective but send/recv within `bound`.
fn held_out_accuracy(folder: &str, bound: f64) -> (usize, usize) {
    let p = predictions();
    let path = common::root()
        .join("validation/gpu/nccl/data")
        .join(folder)
        .join("measured_nccl.csv");
    let text = std::fs::read_to_string(path).expect("measured");
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().expect("header").split(',').collect();
    let col = |name: &str| head.iter().position(|h| *h == name).expect(name);
    let (c, d, s, w, m, t, st) = (
        col("collective"),
        col("dtype"),
        col("size_bytes"),
        col("world"),
        col("mode"),
        col("time_us"),
        col("status"),
    );
    let mut measured = HashMap::new();
    for l in lines {
        let f: Vec<&str> = l.split(',').collect();
        if f[st] == "ok" {
            let key = (
                f[c].to_string(),
                f[d].to_string(),
                f[s].to_string(),
                f[w].to_string(),
                f[m].to_string(),
            );
            measured.insert(key, f[t].parse::<f64>().expect("time"));
        }
    }
    let (mut n, mut within) = (0, 0);
    for q in p["collectives"].as_array().expect("collectives") {
        let size = q["size_bytes"].as_u64().expect("size");
        let key = (
            q["collective"].as_str().expect("c").to_string(),
            q["dtype"].as_str().expect("d").to_string(),
            size.to_string(),
            q["world"].to_string(),
            q["mode"].as_str().expect("m").to_string(),
        );
        let Some(&meas) = measured.get(&key) else {
            continue;
        };
        if size <= 1 << 20 {
            continue;
        }
        let err = q["time_us"].as_f64().expect("pred") / meas - 1.0;
        n += 1;
        within += usize::from(err.abs() <= 0.15);
        if key.0 != "send_recv" {
            assert!(err.abs() <= bound, "{key:?}: {err:+.3}");
        }
    }
    (within, n)
}

/// On 2 H100s (NVLS off): 27 of 30 within ±15% (all-reduce at 2 MiB −15.9%; send/recv, timed
/// with plain launches only, at 8 and 32 MiB), every collective but send/recv within ±16%.
#[test]
fn the_recorded_held_out_accuracy() {
    assert_eq!(held_out_accuracy("heldout", 0.16), (27, 30));
}

/// On 4 H200s (the 4-GPU kind lent H200s: the same NVLink 4 and NVSwitch; VALIDATION.md §20):
/// 25 of 30 within ±15%, every collective but send/recv within ±19% (all-to-all and broadcast
/// at 128 MiB, eager).
#[test]
fn the_recorded_held_out_accuracy_on_4_gpus() {
    assert_eq!(held_out_accuracy("heldout_w4_h200", 0.19), (25, 30));
}

/// On 4 H100s (`nvidia-h100-x4`, NVLS off; VALIDATION.md §20): 26 of 30 within ±15% as
/// pre-registered in f82ed7f, every collective but send/recv within ±16% (all-reduce at 2 MiB
/// by CUDA graph +15.1%); send/recv, timed with plain launches only, at 2, 32 and 128 MiB.
#[test]
fn the_recorded_held_out_accuracy_on_4_h100s() {
    assert_eq!(held_out_accuracy("heldout_w4", 0.16), (26, 30));
}

/// The TP-4 Llama-3-70B decode step on 4 H100s (`data/heldout_w4/measured_steps.csv`): by
/// CUDA graph the model of f82ed7f predicted it 16.8-20.2% long; the model now (issue 24's
/// stream terms and derate, fitted on single-GPU whole models, not on this step) prices it
/// within −10..−4%.
#[test]
fn the_tp4_decode_step_on_4_h100s() {
    let path = common::root().join("validation/gpu/nccl/data/heldout_w4/measured_steps.csv");
    let text = std::fs::read_to_string(path).expect("measured");
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().expect("header").split(',').collect();
    let col = |name: &str| head.iter().position(|h| *h == name).expect(name);
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    let graph: Vec<&Vec<&str>> = rows
        .iter()
        .filter(|r| r[col("mode")] == "graph" && r[col("what")] == "llama3_70b_tp_decode")
        .collect();
    assert_eq!(graph.len(), 4);
    let p = predictions();
    for r in graph {
        let (b, l): (u64, u64) = (
            r[col("batch")].parse().expect("batch"),
            r[col("layers")].parse().expect("layers"),
        );
        let meas: f64 = r[col("time_us")].parse().expect("time");
        let then = p["steps"]
            .as_array()
            .expect("steps")
            .iter()
            .find(|s| {
                s["world"] == 4 && s["batch"] == b && s["layers"] == l && s["mode"] == "graph"
            })
            .and_then(|s| s["time_us"].as_f64())
            .expect("predicted");
        let err = then / meas - 1.0;
        assert!(
            (0.16..0.21).contains(&err),
            "batch {b}, {l} layers: {err:+.3}"
        );
    }
}

/// The fresh 4-H100 set (`predict_w4.py`, `predictions_w4_ctx8192.json`, committed in 4fe67d5
/// before `data/heldout_w4_ctx8192/` was measured; VALIDATION.md §20): by CUDA graph the EP-4
/// Mixtral layer 4 of 4 within ±15%, the TP-4 decode step against 8,192 cached positions 0 of
/// 4 (−20.9..−16.9%: its attention over the cache, on few blocks, runs slower than priced).
#[test]
fn the_fresh_4_h100_set_as_pre_registered() {
    let root = common::root().join("validation/gpu/nccl");
    let p: Value = serde_json::from_str(
        &std::fs::read_to_string(root.join("predictions_w4_ctx8192.json")).expect("predictions"),
    )
    .expect("json");
    let text = std::fs::read_to_string(root.join("data/heldout_w4_ctx8192/measured_steps.csv"))
        .expect("measured");
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().expect("header").split(',').collect();
    let col = |name: &str| head.iter().position(|h| *h == name).expect(name);
    let mut measured = HashMap::new();
    for l in lines {
        let f: Vec<&str> = l.split(',').collect();
        let key = (
            f[col("what")].to_string(),
            f[col("batch")].to_string(),
            f[col("layers")].to_string(),
            f[col("mode")].to_string(),
        );
        measured.insert(key, f[col("time_us")].parse::<f64>().expect("time"));
    }
    let mut tally: HashMap<(String, String), (usize, usize)> = HashMap::new();
    for s in p["steps"].as_array().expect("steps") {
        let what = s["what"].as_str().expect("what").to_string();
        let mode = s["mode"].as_str().expect("mode").to_string();
        let key = (
            what.clone(),
            s["batch"].to_string(),
            s["layers"].to_string(),
            mode.clone(),
        );
        let meas = measured[&key];
        let err = s["time_us"].as_f64().expect("pred") / meas - 1.0;
        let t = tally.entry((what, mode)).or_default();
        t.0 += usize::from(err.abs() <= 0.15);
        t.1 += 1;
    }
    let get = |w: &str, m: &str| tally[&(w.to_string(), m.to_string())];
    assert_eq!(get("mixtral_moe_ep", "graph"), (4, 4));
    assert_eq!(get("mixtral_moe_ep", "eager"), (2, 4));
    assert_eq!(get("llama3_70b_tp_decode", "graph"), (0, 4));
    assert_eq!(get("llama3_70b_tp_decode", "eager"), (0, 4));
}

/// The TP-2 and TP-4 steps against 16,384 cached positions (`predict_w4.py --set 2`,
/// `predictions_tp_ctx16384.json`, committed in 04efcc4 after the query-block rule and before
/// `data/heldout_tp_ctx16384{,_w4}/` were measured; VALIDATION.md §33): by CUDA graph 8 of 8
/// within ±15% (+5.5..+9.0%).
#[test]
fn the_tp_steps_at_16k_cached_positions_as_pre_registered() {
    let root = common::root().join("validation/gpu/nccl");
    let p: Value = serde_json::from_str(
        &std::fs::read_to_string(root.join("predictions_tp_ctx16384.json")).expect("predictions"),
    )
    .expect("json");
    let mut n = 0;
    for folder in ["heldout_tp_ctx16384", "heldout_tp_ctx16384_w4"] {
        let text =
            std::fs::read_to_string(root.join("data").join(folder).join("measured_steps.csv"))
                .expect("measured");
        let mut lines = text.lines();
        let head: Vec<&str> = lines.next().expect("header").split(',').collect();
        let col = |name: &str| head.iter().position(|h| *h == name).expect(name);
        for l in lines {
            let f: Vec<&str> = l.split(',').collect();
            if f[col("mode")] != "graph" {
                continue;
            }
            let s = p["steps"]
                .as_array()
                .expect("steps")
                .iter()
                .find(|s| {
                    let at = |c: &str| f[col(c)].parse::<u64>().ok();
                    s["world"].as_u64() == at("world")
                        && s["batch"].as_u64() == at("batch")
                        && s["layers"].as_u64() == at("layers")
                        && s["mode"] == "graph"
                })
                .expect("predicted");
            let meas: f64 = f[col("time_us")].parse().expect("time");
            let err = s["time_us"].as_f64().expect("pred") / meas - 1.0;
            assert!((0.05..0.10).contains(&err), "{folder} {l}: {err:+.3}");
            n += 1;
        }
    }
    assert_eq!(n, 8);
}
