//! A report compared with itself changes nothing; a change that breaks a fusion is found,
//! named at its op, and fails past the threshold; a hostile baseline is an error that quotes
//! nothing.

use super::{compare, escape_annotation};

fn parse(bytes: &[u8]) -> Result<super::Baseline, String> {
    super::parse(bytes, crate::report::render::json::schema::SCHEMA_VERSION)
}
use crate::analysis::{Options, check_file};
use crate::cost::{self, Hardware, LaunchMode};
use crate::report::{Report, ReportOptions};

const OLD: &str = "graph g {\n  input x: [64, 64]\n  weight w: [64, 64]\n  \
                   op m = matmul(x, w) -> y\n  op r = elementwise.relu(y) -> z\n  \
                   op e = elementwise.exp(z) -> o\n  output o\n}\n";
/// `z` becomes an output too: `m`'s kernel writes it, `e` runs in a kernel of its own.
const NEW: &str = "graph g {\n  input x: [64, 64]\n  weight w: [64, 64]\n  \
                   op m = matmul(x, w) -> y\n  op r = elementwise.relu(y) -> z\n  \
                   op e = elementwise.exp(z) -> o\n  output o, z\n}\n";

/// The JSON report of `src`, as `analyze --format json` prints it.
fn json(src: &str) -> Vec<u8> {
    let file = check_file("g.fgraph", src.as_bytes(), &Options::default());
    let hw = Hardware::preset("h100").expect("h100");
    let opts = ReportOptions::default();
    let r = Report::assemble(
        &file,
        file.graphs.first(),
        &hw,
        &opts,
        None::<fn(&Report<'_>)>,
    )
    .expect("report");
    let mut out = Vec::new();
    crate::report::render::json::write(&r, Vec::new(), false, &mut out);
    out
}

fn comparison(old: &str, new: &str, pct: Option<f64>) -> super::Comparison {
    let base = parse(&json(old)).expect("parses");
    let file = check_file("g.fgraph", new.as_bytes(), &Options::default());
    let a = file.graphs[0].analysis.as_ref().expect("analyses");
    let hw = Hardware::preset("h100").expect("h100");
    let c = cost::estimate(a, &hw, LaunchMode::Graph).expect("cost");
    compare(&base, a, Some(&c), None, pct)
}

#[test]
fn a_report_against_itself_changes_nothing() {
    let c = comparison(OLD, OLD, Some(0.0));
    assert!(c.kernels_changed.is_empty() && c.layers.is_empty(), "{c:?}");
    assert_eq!((c.kernels_gone, c.traffic.pct), (0, Some(0.0)));
    assert_eq!(c.time_s.as_ref().and_then(|t| t.pct), Some(0.0));
    assert!(c.regressions.is_empty());
}

#[test]
fn a_write_more_is_a_regression_at_its_op() {
    let c = comparison(OLD, NEW, Some(5.0));
    // 64 × 64 f32 = 16,384 B written and read back by `e`'s kernel, new.
    assert_eq!(c.traffic.new - c.traffic.old, 32_768.0);
    assert_eq!(c.kernels_changed[0].name, "e");
    assert_eq!(c.kernels_changed[0].old_bytes, None);
    assert_eq!(c.kernels_changed[0].bytes_delta(), 32_768);
    let metrics: Vec<&str> = c.regressions.iter().map(|r| r.metric).collect();
    assert_eq!(metrics, ["traffic", "time"]);
    assert_eq!(c.regressions[0].op.as_deref(), Some("e"));
    // Under a larger threshold (traffic +66.7%, time +99.6%): none.
    let c = comparison(OLD, NEW, Some(100.0));
    assert!(c.regressions.is_empty(), "{:?}", c.regressions);
    // The other way round: less traffic is no regression.
    let c = comparison(NEW, OLD, Some(0.0));
    assert!(c.regressions.is_empty());
}

#[test]
fn a_hostile_baseline_is_an_error_that_quotes_nothing() {
    let secret = "SECRET-CONTENT";
    let deep = "[".repeat(100_000);
    let cases: Vec<Vec<u8>> = vec![
        Vec::new(),
        secret.as_bytes().to_vec(),
        format!("{{\"groups\": \"{secret}\"}}").into_bytes(),
        format!("{{\"groups\": [{{\"ops\": [1]}}], \"traffic\": \"{secret}\"}}").into_bytes(),
        b"{\"schema_version\": 99}".to_vec(),
        b"{\"groups\": null, \"traffic\": null}".to_vec(),
        deep.into_bytes(),
        vec![0xff, 0xfe, 0x00],
        b"{\"groups\": [], \"traffic\": {\"fused\": {\"bytes_read\": 18446744073709551615, \"bytes_written\": 1}}}".to_vec(),
    ];
    for bytes in cases {
        let e = parse(&bytes).expect_err("refused");
        assert!(!e.contains(secret), "{e}");
    }
    // Deep nesting in a key fgraph does not read is skipped without recursion trouble.
    let deep = format!(
        "{{\"x\": {}{}, \"groups\": [], \"traffic\": {{\"fused\": {{\"bytes_read\": 0, \"bytes_written\": 0}}}}}}",
        "[".repeat(200_000),
        "]".repeat(200_000)
    );
    assert!(parse(deep.as_bytes()).is_ok());
    // A minimal report is enough.
    let b = parse(
        b"{\"groups\": [], \"traffic\": {\"fused\": {\"bytes_read\": 1, \"bytes_written\": 2}}}",
    )
    .expect("parses");
    assert_eq!((b.kernels, b.bytes, b.time_s), (0, 3, None));
}

#[test]
fn annotations_are_escaped() {
    assert_eq!(escape_annotation("a%b\nc:d,e", false), "a%25b%0Ac:d,e");
    assert_eq!(escape_annotation("a:b,c", true), "a%3Ab%2Cc");
}
