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

#[test]
fn the_batch_k_predictions_are_what_fgraph_predicts() {
    let cases = common::prediction_cases("validation/gpu/h100-calib-k/predictions_k.json");
    let refit = common::prediction_cases("validation/gpu/h100-calib-l/refit_k.json");
    // Every top-k and associative-scan case, with the same file.
    assert_eq!(refit.len(), 18);
    for r in &refit {
        let c = cases.iter().find(|c| c["case"] == r["case"]).expect("case");
        assert_eq!(r["fgraph"], c["fgraph"]);
        assert_ne!(r["family"], "w4a16");
    }
    common::check_batch_predictions(
        "validation/gpu/h100-calib-k",
        "predictions_k.json",
        27,
        &refit,
    );
}
