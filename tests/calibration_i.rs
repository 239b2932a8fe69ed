//! The held-out predictions of batch i (issue 23, docs/VALIDATION.md §19) are what the binary
//! predicts now: each case's `.fgraph` text, kept with its prediction in
//! `validation/gpu/h100-calib-i/predictions_i.json` (committed before the held-out half was
//! measured), analysed again under the hardware model on the H100 preset, gives the committed
//! DRAM reads and kernel time. A change to the model that moves one of them must update the
//! predictions and VALIDATION.md, not drift past them.

mod common;

use serde_json::Value;

#[test]
fn the_batch_i_predictions_are_what_fgraph_predicts() {
    let path = common::root().join("validation/gpu/h100-calib-i/predictions_i.json");
    let p: Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("predictions")).expect("JSON");
    let cases = p["cases"].as_array().expect("cases");
    assert_eq!(
        cases.len(),
        63,
        "every held-out case of batch i is predicted"
    );
    let dir = std::env::temp_dir().join(format!("fgraph-calib-i-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    for c in cases {
        let name = c["case"].as_str().expect("case");
        let file = dir.join(format!("{name}.fgraph"));
        std::fs::write(&file, c["fgraph"].as_str().expect("text")).expect("write");
        let out = common::fgraph(&[
            "analyze",
            file.to_str().expect("path"),
            "--traffic-model",
            "hardware",
            "--hardware",
            "h100",
            "--format",
            "json",
        ]);
        assert_eq!(common::code(&out), 0, "{name}: {}", common::stdout(&out));
        let d: Value = serde_json::from_str(&common::stdout(&out)).expect("JSON");
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
