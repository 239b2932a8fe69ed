//! Every file in tests/fixtures/diagnostics/ runs through the pipeline; its human render
//! (no colour, 80 columns) and its JSON are snapshotted. A fixture named after a code must
//! produce that code, and every code must have a fixture.

use fgraph::diagnostics::render::{self, HumanStyle};
use fgraph::{Code, Options, check_file};
use std::path::Path;

fn fixtures() -> Vec<(String, Vec<u8>)> {
    files_in("tests/fixtures/diagnostics", "fgraph")
}

/// The files of `folder` with extension `ext`, by name without the extension, sorted.
fn files_in(folder: &str, ext: &str) -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(folder);
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .expect("fixture folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .map(|p| {
            let stem = p.file_stem().expect("stem").to_string_lossy().into_owned();
            (stem, std::fs::read(&p).expect("readable fixture"))
        })
        .collect();
    out.sort();
    out
}

/// The options a fixture is checked under: the defaults, except for the one code that only a
/// fusion strategy can give (`search-budget`: a plan search stopped at a small work bound).
fn options_for(name: &str) -> Options {
    if name != "search-budget" {
        return Options::default();
    }
    Options {
        fusion: fgraph::fusion::FusionOptions {
            policy: fgraph::fusion::Policy::Store,
            work_limit: Some(200),
            ..Default::default()
        },
        ..Options::default()
    }
}

#[test]
fn fixtures_render_as_snapshotted() {
    for (name, bytes) in fixtures() {
        let file = format!("{name}.fgraph");
        let report = fgraph::fix::check_verified(&file, bytes.clone(), &options_for(&name));
        let (human, json) = renders(&report.diagnostics, &report.source);
        insta::assert_snapshot!(format!("{name}.human"), human);
        insta::assert_snapshot!(format!("{name}.json"), json);

        let codes: Vec<Code> = report.diagnostics.iter().map(|d| d.code).collect();
        if let Some(code) = Code::from_name(&name) {
            assert!(
                codes.contains(&code),
                "{file} should produce {code}, got {codes:?}"
            );
        }
    }
}

/// `tests/fixtures/config/*.toml`: configuration files, whose diagnostics point into them.
fn config_fixtures() -> Vec<(String, String)> {
    files_in("tests/fixtures/config", "toml")
        .into_iter()
        .map(|(name, bytes)| (name, String::from_utf8(bytes).expect("UTF-8 fixture")))
        .collect()
}

/// The human render (plain, 80 columns) and the pretty JSON of a file's diagnostics, as the
/// snapshots hold them.
fn renders(
    diags: &[fgraph::Diagnostic],
    src: &fgraph::diagnostics::SourceFile,
) -> (String, String) {
    let human = diags
        .iter()
        .map(|d| render::human(d, src, HumanStyle::plain()))
        .collect();
    let json: Vec<_> = diags.iter().map(|d| render::json(d, src)).collect();
    let json =
        serde_json::to_string_pretty(&serde_json::json!({ "diagnostics": json })).expect("json");
    (human, json)
}

#[test]
fn config_fixtures_render_as_snapshotted() {
    for (name, text) in config_fixtures() {
        let file = format!("{name}.toml");
        let err = fgraph::config::parse(&file, &text).expect_err("an invalid configuration");
        let (human, json) = renders(&err.diagnostics, &err.source);
        insta::assert_snapshot!(format!("config-{name}.human"), human);
        insta::assert_snapshot!(format!("config-{name}.json"), json);
        if let Some(code) = Code::from_name(&name) {
            assert!(err.diagnostics.iter().all(|d| d.code == code), "{file}");
        }
    }
}

#[test]
fn every_code_has_a_fixture() {
    let mut names: Vec<String> = fixtures().into_iter().map(|(n, _)| n).collect();
    names.extend(config_fixtures().into_iter().map(|(n, _)| n));
    for code in Code::ALL {
        assert!(
            names.iter().any(|n| n == code.as_str()),
            "no fixture for {code}"
        );
    }
}

#[test]
fn a_file_with_many_errors_reports_them_all() {
    let (_, bytes) = fixtures()
        .into_iter()
        .find(|(n, _)| n == "many-errors")
        .expect("fixture");
    let report = check_file("many-errors.fgraph", &bytes, &Options::default());
    let mut codes: Vec<Code> = report
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.code)
        .collect();
    codes.dedup();
    codes.sort();
    codes.dedup();
    assert!(
        codes.len() >= 5,
        "expected at least 5 distinct error codes, got {codes:?}"
    );
}

#[test]
fn allow_comment_silences_its_statement_only() {
    let src = "graph g {\n  input x: [4]\n  // fgraph: allow(unused-tensor)\n  input unused1: [4]\n  input unused2: [4]\n  op a = elementwise.relu(x) -> y\n}\n";
    let report = check_file("t.fgraph", src.as_bytes(), &Options::default());
    let msgs: Vec<&str> = report
        .diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(msgs, ["tensor `unused2` is declared but never used"]);

    let graph_level = format!("// fgraph: allow(unused-tensor)\n{src}");
    let report = check_file("t.fgraph", graph_level.as_bytes(), &Options::default());
    assert!(report.diagnostics.is_empty());

    let opts = Options {
        allow: vec![Code::UnusedTensor],
        ..Options::default()
    };
    let report = check_file("t.fgraph", src.as_bytes(), &opts);
    assert!(report.diagnostics.is_empty());
}

#[test]
fn errors_cannot_be_silenced() {
    let src =
        "// fgraph: allow(undefined-tensor)\ngraph g {\n  op a = elementwise.relu(nope) -> y\n}\n";
    let report = check_file("t.fgraph", src.as_bytes(), &Options::default());
    let codes: Vec<Code> = report.diagnostics.iter().map(|d| d.code).collect();
    // The error stays, and the allow comment itself is flagged.
    assert_eq!(codes, [Code::InvalidAllow, Code::UndefinedTensor]);
}

#[test]
fn diagnostics_are_sorted_by_position_then_code() {
    let (_, bytes) = fixtures()
        .into_iter()
        .find(|(n, _)| n == "many-errors")
        .expect("fixture");
    let report = check_file("many-errors.fgraph", &bytes, &Options::default());
    let keys: Vec<(usize, &str)> = report
        .diagnostics
        .iter()
        .map(|d| (d.start(), d.code.as_str()))
        .collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted);
}

#[test]
fn an_error_causes_no_unused_tensor_cascade() {
    let src = "graph g {\n  param Z = 0\n  input bad: [Z, 4]\n  input x: [4, 8]\n  input w: [8, 8]\n  op r = reduction.sort(x, flops = 1) -> s\n  op q = elementwise.relu(xx) -> q_out\n  op m = matmul(x, ww) -> y\n  output x\n}\n";
    let report = check_file("t.fgraph", src.as_bytes(), &Options::default());
    let codes: Vec<&str> = report.diagnostics.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(
        codes,
        [
            "invalid-shape",
            "missing-shape",
            "undefined-tensor",
            "undefined-tensor"
        ]
    );
    assert_eq!(
        report.diagnostics[3].help.as_deref(),
        Some("did you mean `w`?")
    );
}

#[test]
fn set_replaces_a_param_without_evaluating_its_expression() {
    let src = "graph g {\n  param H = 64\n  param HD = H / 3\n  param Z = 1 / 0\n  input x: [HD, Z]\n  op a = elementwise.relu(x) -> y\n}\n";
    let plain = check_file("t.fgraph", src.as_bytes(), &Options::default());
    assert_eq!(plain.diagnostics.len(), 2);
    let opts = Options {
        overrides: [("HD".to_string(), 8), ("Z".to_string(), 2)]
            .into_iter()
            .collect(),
        ..Options::default()
    };
    let report = check_file("t.fgraph", src.as_bytes(), &opts);
    assert!(report.diagnostics.is_empty(), "{:?}", report.diagnostics);
    let a = report.graphs[0].analysis.as_ref().expect("analysis");
    assert_eq!(a.graph.tensors[0].shape, [8, 2]);
}

#[test]
fn an_attribute_given_twice_is_a_duplicate() {
    let src = "graph g {\n  input x: [4, 4]\n  op s = reduction.layernorm(x, axis = 1, eps = 0.5, axis = -1) -> y: [4, 4]\n}\n";
    let report = check_file("t.fgraph", src.as_bytes(), &Options::default());
    assert_eq!(report.diagnostics.len(), 1);
    let d = &report.diagnostics[0];
    assert_eq!(d.code, Code::DuplicateDefinition);
    assert_eq!(d.message, "attribute `axis` is given more than once");
    let first = src.find("axis").expect("first axis");
    assert_eq!(d.secondary.first().map(|l| l.span.start), Some(first));
    assert_eq!(d.primary.as_ref().map(|p| p.span.start), src.rfind("axis"));
}

#[test]
fn materialized_boundaries_say_which_cause_holds() {
    let src = "graph g {\n  input x: [4, 4]\n  op a = elementwise.relu(x) -> z\n  op b = elementwise.neg(z) -> w\n  op c = elementwise.exp(z) -> v\n  output w, v\n}\n";
    let report = check_file("t.fgraph", src.as_bytes(), &Options::default());
    let a = report.graphs[0].analysis.as_ref().expect("analysis");
    let json = serde_json::to_value(fgraph::report::render::json::AnalysisJson::new(
        "g",
        Some(a),
        Vec::new(),
    ))
    .expect("json");
    let explanations: Vec<&str> = json["boundaries"]
        .as_array()
        .expect("boundaries")
        .iter()
        .map(|b| b["explanation"].as_str().expect("text"))
        .collect();
    assert_eq!(
        explanations,
        ["`z` is read by 2 ops, so it must be written to HBM anyway"; 2]
    );
}
