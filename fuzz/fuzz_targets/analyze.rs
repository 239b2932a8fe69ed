//! Bytes → `check_file` (options from the first bytes, `common::split`), then everything the
//! library offers after checking, for every graph that has an analysis: the fusion plan's
//! invariants, the traffic, the JSON and human reports, and the cost model (estimate,
//! attention comparison, cost JSON, human report with times, roofline SVG) on every hardware
//! preset under both launch modes, with or without `--flash-attention` as the header says.

#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (opts, file) = common::split(data);
    let report = fgraph::check_file("fuzz.fgraph", file, &opts);
    common::exercise(&report, None);
});
