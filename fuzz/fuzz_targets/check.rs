//! Bytes → `check_file` with `--set`, `--allow` and `--flash-attention` taken from the first
//! bytes (`common::split`), then every diagnostic rendered in every format `check` has.

#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (opts, file) = common::split(data);
    let report = fgraph::check_file("fuzz.fgraph", file, &opts);
    common::render_diagnostics(&report, true);
    for d in &report.diagnostics {
        if d.severity == fgraph::Severity::Warning {
            assert!(!opts.allow.contains(&d.code), "allowed warning reported");
        }
    }
    // Sorted by position then code.
    for w in report.diagnostics.windows(2) {
        assert!(w[0].start() <= w[1].start(), "diagnostics out of order");
    }
});
