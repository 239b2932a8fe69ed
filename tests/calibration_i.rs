//! The held-out predictions of batch i (issue 23, docs/VALIDATION.md §19) are what the binary
//! predicts now: each case's `.fgraph` text, kept with its prediction in
//! `validation/gpu/h100-calib-i/predictions_i.json` (committed before the held-out half was
//! measured), analysed again under the hardware model on the H100 preset, gives the committed
//! DRAM reads and kernel time. A change to the model that moves one of them must update the
//! predictions and VALIDATION.md, not drift past them.
//!
//! Batch j (§22) refitted the conv family on batch i's held-out half, so its conv cases now
//! predict other figures: predictions_i.json keeps the pre-registered ones (the record §19
//! reports), and `validation/gpu/h100-calib-j/refit_i.json` holds what the refit predicts for
//! the same `.fgraph` texts (written by predict_j.py). The conv cases are checked against that
//! file, every other case against predictions_i.json.
//!
//! Batches k and l (§31) refitted top-k, the w4a16 GEMM and the associative scan on batch i's
//! held-out half the same way: `validation/gpu/h100-calib-l/refit_i.json` holds those cases'
//! figures now.

mod common;

use serde_json::Value;

fn load(rel: &str) -> Vec<Value> {
    let path = common::root().join(rel);
    let p: Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("predictions")).expect("JSON");
    p["cases"].as_array().expect("cases").clone()
}

/// Analyses `text` under the hardware model on the H100 preset: (DRAM reads, kernel µs).
fn predicts(dir: &std::path::Path, name: &str, text: &str) -> (Value, f64) {
    let file = dir.join(format!("{name}.fgraph"));
    std::fs::write(&file, text).expect("write");
    let d = common::analyze_h100_json(&file);
    let hm = &d["cost"]["hardware_model"];
    (
        hm["dram_read"].clone(),
        hm["kernel_us"].as_f64().expect("now"),
    )
}

#[test]
fn the_batch_i_predictions_are_what_fgraph_predicts() {
    let cases = load("validation/gpu/h100-calib-i/predictions_i.json");
    assert_eq!(
        cases.len(),
        63,
        "every held-out case of batch i is predicted"
    );
    let refit_j = load("validation/gpu/h100-calib-j/refit_i.json");
    let refit_k = load("validation/gpu/h100-calib-l/refit_i.json");
    for (refit, families, n) in [
        (&refit_j, &["conv1d", "conv2d", "conv3d"][..], 33),
        (&refit_k, &["topk", "w4a16", "assoc_scan"][..], 16),
    ] {
        let of: Vec<&Value> = cases
            .iter()
            .filter(|c| families.contains(&c["family"].as_str().expect("family")))
            .collect();
        assert_eq!(of.len(), n);
        assert_eq!(
            refit.len(),
            of.len(),
            "refit_i.json: every case of {families:?}"
        );
        for (r, c) in refit.iter().zip(&of) {
            // The same cases, the same files: only the figures moved.
            assert_eq!(r["case"], c["case"]);
            assert_eq!(r["fgraph"], c["fgraph"], "{}", c["case"]);
        }
    }
    let refit: Vec<Value> = refit_j.iter().chain(&refit_k).cloned().collect();
    let dir = std::env::temp_dir().join(format!("fgraph-calib-i-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let mut moved = 0;
    for c in &cases {
        let name = c["case"].as_str().expect("case");
        let expected = refit.iter().find(|r| r["case"] == c["case"]).unwrap_or(c);
        if expected["kernel_us"] != c["kernel_us"] || expected["dram_read"] != c["dram_read"] {
            // Batch j's refit moved the small-channel stems, the patchify convs and conv3d;
            // batch k's top-k, the w4a16 GEMMs and the split `add` scan.
            assert!(
                [
                    "small_c_stem",
                    "patchify",
                    "conv3d_conv3d",
                    "topk",
                    "w4a16",
                    "assoc_scan_add_add_f32_1x"
                ]
                .iter()
                .any(|s| name.contains(s)),
                "{name} moved"
            );
            moved += 1;
        }
        let (reads, now) = predicts(&dir, name, c["fgraph"].as_str().expect("text"));
        assert_eq!(reads, expected["dram_read"], "{name}");
        let then = expected["kernel_us"].as_f64().expect("then");
        // Committed rounded to 3 decimals.
        assert!(
            (now - then).abs() <= 1e-4 * then.abs().max(1.0),
            "{name}: {now} µs now, {then} µs predicted"
        );
    }
    // ResNet-50's bf16 stems and ViT's patchify convs (8: CUTLASS), MobileNet's f16 stem in
    // channels-last (indexed) and 4 conv3d cases; 7 top-k, 5 w4a16 and the one-row scan.
    assert_eq!(moved, 26);
    let _ = std::fs::remove_dir_all(&dir);
}
