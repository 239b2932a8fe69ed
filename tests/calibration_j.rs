//! The held-out predictions of batch j (issue 23 item 7, docs/VALIDATION.md §22) are what the
//! binary predicts now: each case's `.fgraph` text, kept with its prediction in
//! `validation/gpu/h100-calib-j/predictions_j.json` (committed before the cases are measured),
//! analysed again under the hardware model on the H100 preset, gives the committed DRAM reads
//! and kernel time. A change to the model that moves one of them must update the predictions
//! and VALIDATION.md, not drift past them.

mod common;

#[test]
fn the_batch_j_predictions_are_what_fgraph_predicts() {
    common::check_batch_predictions("validation/gpu/h100-calib-j", "predictions_j.json", 24, &[]);
}
