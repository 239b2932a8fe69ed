//! The held-out predictions of batch l (issue 23 item 7, docs/VALIDATION.md §31) are what the
//! binary predicts now: each case's `.fgraph` text, kept with its prediction in
//! `validation/gpu/h100-calib-l/predictions_l.json` (committed before the cases are measured),
//! analysed again under the hardware model on the H100 preset, gives the committed DRAM reads
//! and kernel time. A change to the model that moves one of them must update the predictions
//! and VALIDATION.md, not drift past them.

mod common;

#[test]
fn the_batch_l_predictions_are_what_fgraph_predicts() {
    common::check_batch_predictions("validation/gpu/h100-calib-l", "predictions_l.json", 15, &[]);
}
