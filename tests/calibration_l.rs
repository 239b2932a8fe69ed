//! The held-out predictions of batch l (issue 23 item 7, docs/VALIDATION.md §31) are what the
//! binary predicts now: each case's `.fgraph` text, kept with its prediction in
//! `validation/gpu/h100-calib-l/predictions_l.json` (committed before the cases are measured),
//! analysed again under the hardware model on the H100 preset, gives the committed DRAM reads
//! and kernel time. A change to the model that moves one of them must update the predictions
//! and VALIDATION.md, not drift past them.

mod common;

use serde_json::Value;

#[test]
fn the_batch_l_predictions_are_what_fgraph_predicts() {
    let root = common::root();
    let p: Value = serde_json::from_str(
        &std::fs::read_to_string(root.join("validation/gpu/h100-calib-l/predictions_l.json"))
            .expect("predictions"),
    )
    .expect("JSON");
    let cases = p["cases"].as_array().expect("cases");
    let listed: Value = serde_json::from_str(
        &std::fs::read_to_string(root.join("validation/gpu/h100-calib-l/cases.json"))
            .expect("cases"),
    )
    .expect("JSON");
    let listed = listed.as_array().expect("cases");
    assert_eq!(cases.len(), 15, "every case of batch l is predicted");
    assert_eq!(cases.len(), listed.len());
    let dir = std::env::temp_dir().join(format!("fgraph-calib-l-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    for (c, l) in cases.iter().zip(listed) {
        let name = c["case"].as_str().expect("case");
        assert_eq!(c["case"], l["case"]);
        let file = dir.join(format!("{name}.fgraph"));
        std::fs::write(&file, c["fgraph"].as_str().expect("text")).expect("write");
        let d = common::analyze_h100_json(&file);
        let hm = &d["cost"]["hardware_model"];
        assert_eq!(hm["dram_read"], c["dram_read"], "{name}");
        let (now, then) = (
            hm["kernel_us"].as_f64().expect("now"),
            c["kernel_us"].as_f64().expect("then"),
        );
        // Committed rounded to 3 decimals.
        assert!(
            (now - then).abs() <= 1e-4 * then.abs().max(1.0),
            "{name}: {now} µs now, {then} µs predicted"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
