//! The held-out predictions of batch k (issue 23 item 7, docs/VALIDATION.md §31) are what the
//! binary predicts now: each case's `.fgraph` text, kept with its prediction in
//! `validation/gpu/h100-calib-k/predictions_k.json` (committed before the cases are measured),
//! analysed again under the hardware model on the H100 preset, gives the committed DRAM reads
//! and kernel time. A change to the model that moves one of them must update the predictions
//! and VALIDATION.md, not drift past them.
//!
//! Batch l refitted top-k and the split scan on batch k's cases: those are checked against
//! `validation/gpu/h100-calib-l/refit_k.json` (predictions_k.json keeps the pre-registered
//! figures), the w4a16 cases against predictions_k.json.

mod common;

use serde_json::Value;

fn load(rel: &str) -> Vec<Value> {
    let p: Value = serde_json::from_str(
        &std::fs::read_to_string(common::root().join(rel)).expect("predictions"),
    )
    .expect("JSON");
    p["cases"].as_array().expect("cases").clone()
}

#[test]
fn the_batch_k_predictions_are_what_fgraph_predicts() {
    let cases = load("validation/gpu/h100-calib-k/predictions_k.json");
    let refit = load("validation/gpu/h100-calib-l/refit_k.json");
    let listed: Value = serde_json::from_str(
        &std::fs::read_to_string(common::root().join("validation/gpu/h100-calib-k/cases.json"))
            .expect("cases"),
    )
    .expect("JSON");
    let listed = listed.as_array().expect("cases");
    assert_eq!(cases.len(), 27, "every case of batch k is predicted");
    assert_eq!(cases.len(), listed.len());
    // Every top-k and associative-scan case, with the same file.
    assert_eq!(refit.len(), 18);
    for r in &refit {
        let c = cases.iter().find(|c| c["case"] == r["case"]).expect("case");
        assert_eq!(r["fgraph"], c["fgraph"]);
        assert_ne!(r["family"], "w4a16");
    }
    let dir = std::env::temp_dir().join(format!("fgraph-calib-k-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    for (c, l) in cases.iter().zip(listed) {
        let name = c["case"].as_str().expect("case");
        assert_eq!(c["case"], l["case"]);
        let expected = refit.iter().find(|r| r["case"] == c["case"]).unwrap_or(c);
        let file = dir.join(format!("{name}.fgraph"));
        std::fs::write(&file, c["fgraph"].as_str().expect("text")).expect("write");
        let d = common::analyze_h100_json(&file);
        let hm = &d["cost"]["hardware_model"];
        assert_eq!(hm["dram_read"], expected["dram_read"], "{name}");
        let (now, then) = (
            hm["kernel_us"].as_f64().expect("now"),
            expected["kernel_us"].as_f64().expect("then"),
        );
        // Committed rounded to 3 decimals.
        assert!(
            (now - then).abs() <= 1e-4 * then.abs().max(1.0),
            "{name}: {now} µs now, {then} µs predicted"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
