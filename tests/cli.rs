//! The binary end to end: exit codes (SPEC §6), formats, usage errors.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::*;

fn temp_file(name: &str, text: &str) -> PathBuf {
    temp_file_in("cli", name, text)
}

/// The op names of each group of an `analyze --format json` report.
fn group_names(v: &serde_json::Value) -> Vec<Vec<&str>> {
    v["groups"]
        .as_array()
        .expect("groups")
        .iter()
        .map(|g| {
            g["ops"]
                .as_array()
                .expect("ops")
                .iter()
                .map(|o| o.as_str().expect("name"))
                .collect()
        })
        .collect()
}

const WARN: &str =
    "graph g {\n  input x: [4]\n  input spare: [4]\n  op a = elementwise.relu(x) -> y\n}\n";

#[test]
fn clean_file_exits_0() {
    let o = fgraph(&["check", "examples/seed_mlp.fgraph"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stderr(&o).contains("All checks passed"));
}

#[test]
fn errors_exit_1() {
    let o = fgraph(&[
        "check",
        "tests/fixtures/diagnostics/undefined-tensor.fgraph",
    ]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("fgraph::undefined-tensor"));
}

#[test]
fn warnings_exit_0_unless_denied() {
    let f = temp_file("warn.fgraph", WARN);
    let f = f.to_str().expect("utf-8 path");
    assert_eq!(code(&fgraph(&["check", f])), 0);
    assert_eq!(code(&fgraph(&["check", "--deny-warnings", f])), 1);
    assert_eq!(
        code(&fgraph(&[
            "check",
            "--deny-warnings",
            "--allow",
            "unused-tensor",
            f
        ])),
        0
    );
}

#[test]
fn unreadable_file_exits_2_and_wins_over_1() {
    let o = fgraph(&["check", "no/such/file.fgraph"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("cannot read"));
    let o = fgraph(&[
        "check",
        "tests/fixtures/diagnostics/cycle.fgraph",
        "no/such/file.fgraph",
    ]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("fgraph::cycle"),
        "the readable file is still checked"
    );
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(code(&fgraph(&[])), 2);
    assert_eq!(code(&fgraph(&["check"])), 2);
    assert_eq!(code(&fgraph(&["frobnicate"])), 2);
    assert_eq!(
        code(&fgraph(&[
            "check",
            "--format",
            "xml",
            "examples/seed_mlp.fgraph"
        ])),
        2
    );
    assert_eq!(
        code(&fgraph(&[
            "check",
            "--set",
            "M",
            "examples/seed_mlp.fgraph"
        ])),
        2
    );
    assert_eq!(
        code(&fgraph(&[
            "check",
            "--set",
            "M=x",
            "examples/seed_mlp.fgraph"
        ])),
        2
    );
    assert_eq!(code(&fgraph(&["explain", "no-such-code"])), 2);
    assert_eq!(code(&fgraph(&["--help"])), 0);
}

#[test]
fn set_overrides_params_and_unknown_names_are_usage_errors() {
    let o = fgraph(&["check", "--set", "NOPE=3", "examples/seed_mlp.fgraph"]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("unknown param `NOPE`"),
        "{}",
        stderr(&o)
    );

    let o = fgraph(&["check", "--set", "M=0", "examples/seed_mlp.fgraph"]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("fgraph::invalid-shape"));

    let o = fgraph(&[
        "analyze",
        "--format",
        "json",
        "--set",
        "M=2048",
        "examples/seed_mlp.fgraph",
    ]);
    assert_eq!(code(&o), 0);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert_eq!(v["ops"][0]["shape"][0], 2048);
}

#[test]
fn allow_rejects_unknown_codes_and_errors() {
    let o = fgraph(&[
        "check",
        "--allow",
        "unused-tensr",
        "examples/seed_mlp.fgraph",
    ]);
    assert_eq!(code(&o), 2);
    let o = fgraph(&["check", "--allow", "cycle", "examples/seed_mlp.fgraph"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("only warnings can be silenced"));
}

#[test]
fn check_json_holds_all_files() {
    let o = fgraph(&[
        "check",
        "--format",
        "json",
        "tests/fixtures/diagnostics/cycle.fgraph",
        "tests/fixtures/diagnostics/unused-tensor.fgraph",
    ]);
    assert_eq!(code(&o), 1);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    let diags = v["diagnostics"].as_array().expect("array");
    let codes: Vec<&str> = diags
        .iter()
        .map(|d| d["code"].as_str().expect("code"))
        .collect();
    assert_eq!(codes, ["cycle", "unused-tensor"]);
    for d in diags {
        for key in [
            "severity",
            "message",
            "file",
            "line",
            "column",
            "end_line",
            "end_column",
            "help",
            "labels",
        ] {
            assert!(d.get(key).is_some(), "missing {key}");
        }
    }
}

/// Every JSON report starts with its schema version (CHANGELOG.md records what changes it):
/// a checked graph, a graph with errors, `--explain OP`, the transformer block, and a block
/// whose dimensions do not divide.
#[test]
fn json_reports_start_with_the_schema_version() {
    let bad = temp_file(
        "schema_bad.fgraph",
        "graph g {\n  op a = elementwise.relu(x) -> y\n}\n",
    );
    let runs: [&[&str]; 5] = [
        &["analyze", "--format", "json", "examples/seed_mlp.fgraph"],
        &[
            "analyze",
            "--format",
            "json",
            bad.to_str().expect("utf-8 path"),
        ],
        &[
            "analyze",
            "--format",
            "json",
            "--explain",
            "relu",
            "examples/seed_mlp.fgraph",
        ],
        &[
            "transformer",
            "--seq-len",
            "128",
            "--hidden-dim",
            "256",
            "--num-heads",
            "4",
            "--format",
            "json",
        ],
        &[
            "transformer",
            "--seq-len",
            "128",
            "--hidden-dim",
            "256",
            "--num-heads",
            "3",
            "--format",
            "json",
        ],
    ];
    for args in runs {
        let o = fgraph(args);
        assert!(
            stdout(&o).starts_with("{\"schema_version\":1,\"graph\":"),
            "{args:?}: {}",
            stdout(&o)
        );
    }
}

#[test]
fn analyze_json_has_the_spec_keys_and_the_seed_numbers() {
    let o = fgraph(&["analyze", "--format", "json", "examples/seed_mlp.fgraph"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    for key in [
        "graph",
        "ops",
        "groups",
        "boundaries",
        "traffic",
        "savings_pct",
        "diagnostics",
    ] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
    let groups = group_names(&v);
    assert_eq!(groups, [vec!["matmul1", "bias1", "relu"], vec!["matmul2"]]);
    assert_eq!(v["traffic"]["unfused"]["bytes_read"], 75_505_664);
    assert_eq!(v["traffic"]["unfused"]["bytes_written"], 27_262_976);
    assert_eq!(v["traffic"]["fused"]["bytes_read"], 58_728_448);
    assert_eq!(v["traffic"]["fused"]["bytes_written"], 10_485_760);
    assert_eq!(v["traffic"]["fused"]["saved_by_fusion"], 33_554_432);
    assert_eq!(v["traffic"]["unfused"]["saved_by_fusion"], 0);
    assert_eq!(v["boundaries"][0]["reason"], "matmul-starts-group");
    let op = &v["ops"][0];
    for key in [
        "name", "kind", "func", "inputs", "output", "shape", "dtype", "bytes",
    ] {
        assert!(op.get(key).is_some(), "op missing {key}");
    }
}

#[test]
fn analyze_with_errors_prints_nulls_and_exits_1() {
    let o = fgraph(&[
        "analyze",
        "--format",
        "json",
        "tests/fixtures/diagnostics/cycle.fgraph",
    ]);
    assert_eq!(code(&o), 1);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert!(v["groups"].is_null() && v["boundaries"].is_null() && v["traffic"].is_null());
    assert_eq!(v["diagnostics"][0]["code"], "cycle");
    // The ops are still listed as written; outputs on the cycle have no known shape.
    let ops = v["ops"].as_array().expect("ops");
    let names: Vec<&str> = ops
        .iter()
        .map(|o| o["name"].as_str().expect("name"))
        .collect();
    assert_eq!(names, ["update", "act", "feedback"]);
    assert_eq!(ops[0]["inputs"], serde_json::json!(["x", "fb"]));
    assert!(ops[0]["shape"].is_null() && ops[0]["bytes"].is_null());
}

#[test]
fn analyze_needs_graph_when_a_file_has_several() {
    let f = temp_file(
        "two.fgraph",
        "graph a {\n  input x: [4]\n  op r = elementwise.relu(x) -> y\n}\n\ngraph b {\n  input x: [8]\n  op r = elementwise.relu(x) -> y\n}\n",
    );
    let f = f.to_str().expect("utf-8 path");
    let o = fgraph(&["analyze", f]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("graphs: a, b"), "{}", stderr(&o));
    let o = fgraph(&["analyze", "--graph", "b", "--format", "json", f]);
    assert_eq!(code(&o), 0);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert_eq!(v["graph"], "b");
    assert_eq!(v["ops"][0]["bytes"], 32);
    assert_eq!(code(&fgraph(&["analyze", "--graph", "c", f])), 2);
    assert_eq!(code(&fgraph(&["check", f])), 0, "check checks every graph");
}

#[test]
fn human_analyze_report_lists_kernels_traffic_and_boundaries() {
    let o = fgraph(&["analyze", "examples/seed_mlp.fgraph"]);
    assert_eq!(code(&o), 0);
    let out = stdout(&o);
    assert!(out.contains("kernel 1  matmul1 → bias1 → relu"), "{out}");
    assert!(out.contains("75,505,664"));
    assert!(out.contains("33,554,432 B"));
    assert!(out.contains("[matmul-starts-group]"));
    assert!(!out.contains('\u{1b}'), "no colour when not on a terminal");
}

#[test]
fn transformer_command() {
    let o = fgraph(&[
        "transformer",
        "--seq-len",
        "2048",
        "--hidden-dim",
        "4096",
        "--num-heads",
        "32",
        "--format",
        "json",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert_eq!(v["ops"].as_array().expect("ops").len(), 14);
    assert_eq!(v["groups"].as_array().expect("groups").len(), 9);

    let o = fgraph(&[
        "transformer",
        "--seq-len",
        "2048",
        "--hidden-dim",
        "4096",
        "--num-heads",
        "3",
    ]);
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("fgraph::inexact-division"),
        "{}",
        stderr(&o)
    );
    let o = fgraph(&[
        "transformer",
        "--seq-len",
        "0",
        "--hidden-dim",
        "4096",
        "--num-heads",
        "32",
    ]);
    assert_eq!(code(&o), 1);
    let o = fgraph(&[
        "transformer",
        "--seq-len",
        "2048",
        "--hidden-dim",
        "4096",
        "--num-heads",
        "32",
        "--dtype",
        "f13",
    ]);
    assert_eq!(code(&o), 2);
}

#[test]
fn transformer_emit_round_trips_through_analyze() {
    let args = [
        "transformer",
        "--seq-len",
        "512",
        "--hidden-dim",
        "1024",
        "--num-heads",
        "8",
        "--dtype",
        "bf16",
    ];
    let emitted = fgraph(&[&args[..], &["--emit"]].concat());
    assert_eq!(code(&emitted), 0);
    let f = temp_file("block.fgraph", &stdout(&emitted));
    let direct = fgraph(&[&args[..], &["--format", "json"]].concat());
    let via_file = fgraph(&["analyze", "--format", "json", f.to_str().expect("utf-8")]);
    let a: serde_json::Value = serde_json::from_str(&stdout(&direct)).expect("json");
    let b: serde_json::Value = serde_json::from_str(&stdout(&via_file)).expect("json");
    for key in ["ops", "groups", "boundaries", "traffic", "savings_pct"] {
        assert_eq!(a[key], b[key], "{key} differs");
    }
}

#[test]
fn explain_prints_the_text() {
    let o = fgraph(&["explain", "undefined-tensor"]);
    assert_eq!(code(&o), 0);
    assert!(stdout(&o).starts_with("# undefined-tensor"));
    let o = fgraph(&["explain", "fgraph::materialized"]);
    assert_eq!(code(&o), 0);
}

#[test]
fn github_format_emits_workflow_commands() {
    let o = fgraph(&[
        "check",
        "--format",
        "github",
        "tests/fixtures/diagnostics/undefined-tensor.fgraph",
    ]);
    assert_eq!(code(&o), 1);
    let out = stdout(&o);
    assert!(
        out.starts_with(
            "::error file=tests/fixtures/diagnostics/undefined-tensor.fgraph,line=13,col=36"
        ),
        "{out}"
    );
}

#[test]
fn every_example_runs_through_analyze() {
    for entry in std::fs::read_dir(root().join("examples")).expect("examples") {
        let p = entry.expect("entry").path();
        // examples/lib/ holds blocks the examples import, not graphs.
        if !p.is_file() {
            continue;
        }
        let rel = p
            .strip_prefix(root())
            .unwrap_or(Path::new(""))
            .to_string_lossy()
            .into_owned();
        let o = fgraph(&["analyze", "--deny-warnings", &rel]);
        assert_eq!(code(&o), 0, "{rel}: {}", stderr(&o));
    }
}

// ---------------------------------------------------------------------------------------
// The cost model (issue 4).

#[test]
fn analyze_estimates_time_on_every_preset() {
    for hw in ["a100", "h100", "h200", "h100-measured"] {
        let o = fgraph(&["analyze", "--hardware", hw, "examples/seed_mlp.fgraph"]);
        assert_eq!(code(&o), 0, "{hw}: {}", stderr(&o));
        let out = stdout(&o);
        assert!(out.contains("FLOP/B"), "{out}");
        assert!(out.contains("compute-bound"), "{out}");
        assert!(out.contains(&format!("({hw})")), "{out}");
        assert!(out.contains("speedup"), "{out}");

        let o = fgraph(&[
            "analyze",
            "--hardware",
            hw,
            "--format",
            "json",
            "examples/seed_mlp.fgraph",
        ]);
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
        assert_eq!(v["cost"]["hardware"]["name"], hw);
        for g in v["groups"].as_array().expect("groups") {
            for key in [
                "flops",
                "bytes",
                "intensity",
                "ridge_point",
                "bound",
                "compute_us",
                "memory_us",
                "launch_us",
                "time_us",
            ] {
                assert!(g["cost"].get(key).is_some(), "group cost missing {key}");
            }
            assert_eq!(g["flash_attention"], false);
        }
        assert_eq!(v["cost"]["unfused"]["kernels"], 4);
        assert_eq!(v["cost"]["unfused"]["per_kernel"][3]["op"], "matmul2");
        assert_eq!(v["cost"]["fused"]["kernels"], 2);
        assert!(v["cost"]["speedup"].as_f64().expect("speedup") > 1.0);
    }
    // Default h100: kernel 1 takes 36.07 µs (see tests/cost.rs).
    let o = fgraph(&["analyze", "--format", "json", "examples/seed_mlp.fgraph"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert_eq!(v["cost"]["hardware"]["name"], "h100");
    assert_eq!(v["cost"]["launch"], "graph");
    let t = v["groups"][0]["cost"]["time_us"].as_f64().expect("time");
    assert!((t - 36.07).abs() < 0.01, "{t}");
    assert_eq!(v["groups"][0]["cost"]["bound"], "compute");
    // Every key of SPEC §6 is still there, with the same values.
    assert_eq!(v["traffic"]["fused"]["saved_by_fusion"], 33_554_432);
    assert_eq!(v["attention"]["patterns"].as_array().map(Vec::len), Some(0));
}

#[test]
fn hardware_usage_errors_exit_2() {
    let o = fgraph(&["analyze", "--hardware", "h10", "examples/seed_mlp.fgraph"]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("did you mean `h100`?"),
        "{}",
        stderr(&o)
    );
    let f = temp_file("hw-bad.json", r#"{"name": "x", "peak_tflops_f16": 1}"#);
    let o = fgraph(&[
        "analyze",
        "--hardware-file",
        f.to_str().expect("utf-8"),
        "examples/seed_mlp.fgraph",
    ]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("invalid hardware file"),
        "{}",
        stderr(&o)
    );
    let o = fgraph(&[
        "analyze",
        "--hardware-file",
        "no/such.json",
        "examples/seed_mlp.fgraph",
    ]);
    assert_eq!(code(&o), 2);
    let o = fgraph(&[
        "analyze",
        "--hardware",
        "a100",
        "--hardware-file",
        f.to_str().expect("utf-8"),
        "examples/seed_mlp.fgraph",
    ]);
    assert_eq!(code(&o), 2, "the two flags conflict");
}

#[test]
fn hardware_command_prints_presets_and_templates() {
    let o = fgraph(&["hardware"]);
    assert_eq!(code(&o), 0);
    let out = stdout(&o);
    for name in ["a100", "h100", "h200", "h100-measured"] {
        assert!(out.contains(name), "{out}");
    }
    assert!(out.contains("ridge point 295.2 FLOP/B"), "{out}");
    // A preset as JSON is a valid --hardware-file.
    let o = fgraph(&["hardware", "a100", "--format", "json"]);
    assert_eq!(code(&o), 0);
    let f = temp_file("a100.json", &stdout(&o));
    let o = fgraph(&[
        "analyze",
        "--hardware-file",
        f.to_str().expect("utf-8"),
        "--format",
        "json",
        "examples/seed_mlp.fgraph",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    let ridge = v["cost"]["hardware"]["ridge_point_f16"]
        .as_f64()
        .expect("ridge");
    assert!((ridge - 312.0 / 2.039).abs() < 1e-6, "{ridge}");
    assert_eq!(code(&fgraph(&["hardware", "b300"])), 2);
}

#[test]
fn roofline_is_written_atomically_as_svg() {
    let dir = std::env::temp_dir().join(format!("fgraph-cli-roof-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let out = dir.join("roof.svg");
    let o = fgraph(&[
        "analyze",
        "--hardware",
        "a100",
        "--roofline",
        out.to_str().expect("utf-8"),
        "examples/transformer_block.fgraph",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let svg = std::fs::read_to_string(&out).expect("written");
    let doc = roxmltree::Document::parse(&svg).expect("valid XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    for op in ["qkv_proj", "softmax", "layernorm2", "ffn_down"] {
        assert!(svg.contains(op), "{op} missing");
    }
    assert!(
        svg.contains("ridge 153.0 FLOP/B"),
        "A100 ridge point marked"
    );
    let files: Vec<_> = std::fs::read_dir(&dir).expect("dir").collect();
    assert_eq!(files.len(), 1, "no temporary file left behind");

    // A graph with errors writes nothing.
    let bad = dir.join("bad.svg");
    let o = fgraph(&[
        "analyze",
        "--roofline",
        bad.to_str().expect("utf-8"),
        "tests/fixtures/diagnostics/cycle.fgraph",
    ]);
    assert_eq!(code(&o), 1);
    assert!(!bad.exists());
    // An unwritable destination is exit 2.
    let o = fgraph(&[
        "analyze",
        "--roofline",
        dir.join("no/such/dir/r.svg").to_str().expect("utf-8"),
        "examples/seed_mlp.fgraph",
    ]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("cannot write roofline"),
        "{}",
        stderr(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn transformer_flash_attention_with_and_without() {
    let base = [
        "transformer",
        "--seq-len",
        "2048",
        "--hidden-dim",
        "4096",
        "--num-heads",
        "32",
        "--format",
        "json",
    ];
    let o = fgraph(&base);
    assert_eq!(code(&o), 0);
    let plain: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    let o = fgraph(&[&base[..], &["--flash-attention", "--hardware", "h200"]].concat());
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let flash: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    // Without the flag the plan is the default one: 9 kernels, 1,912,635,392 B.
    assert_eq!(plain["groups"].as_array().map(Vec::len), Some(9));
    assert_eq!(plain["traffic"]["fused"]["total"], 1_912_635_392u64);
    assert_eq!(plain["attention"]["flash_attention"], false);
    assert_eq!(plain["attention"]["patterns"][0]["saved_bytes"], 1u64 << 30);
    assert_eq!(
        plain["attention"]["with"]["traffic"]["total"],
        838_893_568u64
    );
    // With it: 7 kernels, 838,893,568 B, one of them the FlashAttention kernel.
    assert_eq!(flash["groups"].as_array().map(Vec::len), Some(7));
    assert_eq!(flash["traffic"]["fused"]["total"], 838_893_568u64);
    assert_eq!(flash["attention"]["flash_attention"], true);
    assert_eq!(flash["groups"][1]["flash_attention"], true);
    assert_eq!(
        flash["attention"]["without"]["traffic"]["total"],
        1_912_635_392u64
    );
    let edges = &flash["attention"]["patterns"][0]["fused_edges"];
    assert_eq!(edges[0]["overrides"], "reduction-after-matmul");
    assert_eq!(edges[0]["fused_by"], "flash-attention");
    assert_eq!(edges[1]["overrides"], "matmul-starts-group");
    assert_eq!(flash["cost"]["hardware"]["name"], "h200");
    // The transformer command prints the large-intermediate warnings without the flag
    // (its emitted source has no allow comments), and none with it.
    assert_eq!(
        plain["diagnostics"].as_array().map(Vec::len),
        Some(2),
        "scores and probs"
    );
    assert!(
        plain["diagnostics"][0]["help"]
            .as_str()
            .unwrap_or_default()
            .contains("1,073,741,824 B")
    );
    assert_eq!(flash["diagnostics"].as_array().map(Vec::len), Some(0));
}

#[test]
fn human_report_shows_flash_attention() {
    let o = fgraph(&["analyze", "--flash-attention", "examples/attention.fgraph"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("attn_scores → scale_scores → softmax → attn_output  [FlashAttention]"),
        "{out}"
    );
    assert!(out.contains("[flash-attention]: fused although the rules say reduction-after-matmul"));
    assert!(out.contains("with FlashAttention"), "{out}");
    let o = fgraph(&["analyze", "examples/attention.fgraph"]);
    assert!(stdout(&o).contains("fgraph analyze --flash-attention"));
    let o = fgraph(&["explain", "flash-attention"]);
    assert_eq!(code(&o), 0);
    assert!(stdout(&o).starts_with("# flash-attention"));
}

#[test]
fn every_example_runs_with_every_cost_option() {
    for entry in std::fs::read_dir(root().join("examples")).expect("examples") {
        let p = entry.expect("entry").path();
        // examples/lib/ holds blocks the examples import, not graphs.
        if !p.is_file() {
            continue;
        }
        let rel = p
            .strip_prefix(root())
            .unwrap_or(Path::new(""))
            .to_string_lossy()
            .into_owned();
        for extra in [
            &["--flash-attention"][..],
            &["--hardware", "h100-measured", "--launch", "eager"][..],
        ] {
            let o = fgraph(&[&["analyze", "--deny-warnings", &rel][..], extra].concat());
            assert_eq!(code(&o), 0, "{rel} {extra:?}: {}", stderr(&o));
        }
    }
}

#[test]
fn check_with_flash_attention_lints_the_flash_plan() {
    let src = std::fs::read_to_string(
        root().join("tests/fixtures/diagnostics/large-intermediate.fgraph"),
    )
    .expect("fixture")
    .replace("output ctx, probs", "output ctx");
    let f = temp_file("attn-li.fgraph", &src);
    let f = f.to_str().expect("utf-8");
    let o = fgraph(&["check", "--deny-warnings", f]);
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("1,073,741,824 B (1.0 GiB)"),
        "{}",
        stderr(&o)
    );
    let o = fgraph(&["check", "--deny-warnings", "--flash-attention", f]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
}

/// Above 20,000 ops `analyze --format json` writes the ops while the cost model runs on a
/// second thread: the report is still exactly the library's.
#[test]
fn large_graph_json_equals_the_library_report() {
    use fgraph::report::render::json::AnalysisJson;
    let mut src =
        String::from("graph big {\n  dtype f16\n  input t0: [64, 64]\n  weight w: [64, 64]\n");
    for i in 1..=25_000 {
        let p = i - 1;
        if i % 4 == 0 {
            src.push_str(&format!("  op o{i} = matmul(t{p}, w) -> t{i}\n"));
        } else {
            src.push_str(&format!("  op o{i} = elementwise.gelu(t{p}) -> t{i}\n"));
        }
    }
    src.push_str("}\n");
    let path = temp_file("big.fgraph", &src);
    let o = fgraph(&[
        "analyze",
        "--format",
        "json",
        path.to_str().expect("utf-8 path"),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));

    let report = fgraph::check_file("big.fgraph", src.as_bytes(), &fgraph::Options::default());
    let a = report.graphs[0].analysis.as_ref().expect("analysed");
    let hw = fgraph::Hardware::preset("h100").expect("preset");
    let c = fgraph::cost::estimate(a, &hw, fgraph::LaunchMode::Graph).expect("cost");
    let att = fgraph::cost::attention(a, &hw, fgraph::LaunchMode::Graph).expect("attention");
    let want = AnalysisJson::new("big", Some(a), Vec::new()).with_cost(a, &c, &att);
    let want = serde_json::to_string(&want).expect("serialises") + "\n";
    assert!(
        stdout(&o) == want,
        "the binary's report differs from the library's"
    );
}

/// The binary runs its work on a thread with a 256 MiB stack; where that much address space
/// cannot be had (`ulimit -v`), it works on the main thread instead of failing.
#[cfg(target_os = "linux")]
#[test]
fn runs_without_address_space_for_the_big_stack() {
    let bin = env!("CARGO_BIN_EXE_fgraph");
    let o = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v 200000 && exec '{bin}' analyze --format json examples/seed_mlp.fgraph"
        ))
        .current_dir(root())
        .output()
        .expect("run sh");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert_eq!(v["traffic"]["fused"]["saved_by_fusion"], 33_554_432);
}

// ---------------------------------------------------------------------------------------
// The hardware model (issue 11).

#[test]
fn traffic_model_hardware_adds_the_model_beside_the_compulsory_figures() {
    let plain = fgraph(&["analyze", "examples/seed_mlp.fgraph"]);
    let explicit = fgraph(&[
        "analyze",
        "--traffic-model",
        "compulsory",
        "examples/seed_mlp.fgraph",
    ]);
    assert_eq!(
        stdout(&plain),
        stdout(&explicit),
        "the default is compulsory"
    );
    assert!(!stdout(&plain).contains("hardware model"));

    let o = fgraph(&[
        "analyze",
        "--traffic-model",
        "hardware",
        "examples/seed_mlp.fgraph",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    // Every compulsory line is still there, each kernel gains a `model` line after `cost`.
    for line in stdout(&plain).lines() {
        assert!(out.contains(line), "{line}");
    }
    assert_eq!(
        out.matches("model  hardware model (matmul)").count(),
        2,
        "{out}"
    );
    // matmul1 ([1024, 4096] × [4096, 4096]) re-reads its operands: 1.43× the counted reads.
    assert!(
        out.contains("DRAM reads 60.2 MB (1.43× the counted reads)"),
        "{out}"
    );
    // The total under the model, and where its coefficients come from.
    assert!(
        out.contains("  hardware model: fused ")
            && out.contains("    coefficients: fitted by validation/gpu/h100-calib/fit.py"),
        "{out}"
    );

    let o = fgraph(&[
        "analyze",
        "--traffic-model",
        "hardware",
        "--format",
        "json",
        "examples/seed_mlp.fgraph",
    ]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    let plain: serde_json::Value = serde_json::from_str(&stdout(&fgraph(&[
        "analyze",
        "--format",
        "json",
        "examples/seed_mlp.fgraph",
    ])))
    .expect("json");
    assert!(plain["cost"].get("traffic_model").is_none());
    assert_eq!(v["cost"]["traffic_model"], "hardware");
    let m = &v["cost"]["hardware_model"];
    let kernels = m["kernels"].as_array().expect("kernels");
    assert_eq!(kernels.len(), 2);
    let sum: u64 = kernels
        .iter()
        .map(|k| k["dram_read"].as_u64().expect("u64"))
        .sum();
    assert_eq!(m["dram_read"].as_u64(), Some(sum));
    // matmul2 streams its operands once: the counted 16,777,216 bytes.
    assert_eq!(kernels[1]["dram_read"], 16_777_216);
    assert_eq!(kernels[1]["family"], "matmul");
    // The compulsory figures are unchanged.
    assert_eq!(v["traffic"], plain["traffic"]);
    assert_eq!(v["cost"]["fused"], plain["cost"]["fused"]);
}

#[test]
fn traffic_model_hardware_prices_a_flash_attention_kernel_as_attention() {
    // validation/attention.fgraph: 32 heads of [4,096, 128], f16. The FlashAttention kernel
    // takes the attention coefficients: 458 µs (cuDNN's kernel measured 417.8 µs, VALIDATION
    // §9); without --flash-attention the softmax over 4,096-wide rows is a softmax kernel.
    let o = fgraph(&[
        "analyze",
        "--traffic-model",
        "hardware",
        "--flash-attention",
        "validation/attention.fgraph",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(
        out.matches("hardware model (attention)").count(),
        1,
        "{out}"
    );
    let o = fgraph(&[
        "analyze",
        "--traffic-model",
        "hardware",
        "validation/attention.fgraph",
    ]);
    let out = stdout(&o);
    assert!(!out.contains("hardware model (attention)"), "{out}");
    assert_eq!(out.matches("hardware model (softmax)").count(), 1, "{out}");
}

#[test]
fn attention_kernel_picks_the_coefficients_of_the_kernel_that_runs() {
    // validation/attention.fgraph under --flash-attention: cuDNN's kernel (the default on an
    // H100, measured 417 µs) and FlashAttention-2's (`flash2`, measured 779 µs; VALIDATION §14).
    let time = |extra: &[&str]| {
        let mut args = vec![
            "analyze",
            "--format",
            "json",
            "--traffic-model",
            "hardware",
            "--flash-attention",
            "validation/attention.fgraph",
        ];
        args.extend_from_slice(extra);
        let o = fgraph(&args);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
        let m = &v["cost"]["hardware_model"];
        (
            m["kernel_us"].as_f64().expect("kernel_us"),
            m["source"].as_str().expect("source").to_string(),
        )
    };
    let (cudnn, src) = time(&[]);
    let (default, _) = time(&["--attention-kernel", "default"]);
    let (flash2, src2) = time(&["--attention-kernel", "flash2"]);
    assert_eq!(cudnn, default);
    assert!((400.0..520.0).contains(&cudnn), "{cudnn}");
    assert!((640.0..900.0).contains(&flash2), "{flash2}");
    assert!(
        !src.contains("flash2") && src2.ends_with("(attention kernel `flash2`)"),
        "{src2}"
    );
    // A causal kernel (`is_causal`) visits half the key blocks: about half the time.
    let (causal, src3) = time(&["--causal-attention"]);
    assert!(
        (0.35..0.6).contains(&(causal / cudnn)) && src3.ends_with("(causal attention)"),
        "{causal} against {cudnn}: {src3}"
    );
    // An unknown kernel names the known ones; the option needs the hardware model.
    let o = fgraph(&[
        "analyze",
        "--traffic-model",
        "hardware",
        "--attention-kernel",
        "flash3",
        "validation/attention.fgraph",
    ]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("knows default, flash2"),
        "{}",
        stderr(&o)
    );
    for flag in [
        &["--attention-kernel", "flash2"][..],
        &["--causal-attention"],
    ] {
        let mut args = vec!["analyze", "validation/attention.fgraph"];
        args.extend_from_slice(flag);
        let o = fgraph(&args);
        assert_eq!(code(&o), 2);
        assert!(
            stderr(&o).contains("--traffic-model hardware"),
            "{}",
            stderr(&o)
        );
    }
}

#[test]
fn traffic_model_hardware_runs_tf32_matmuls_on_the_tensor_cores() {
    // 4,096³ with TF32 on measured 383–391 µs (validation/gpu/h100-calib-c), with it off
    // (FFMA) 2,728–2,737 µs: `tf32` operands say which runs.
    let kernel_us = |dtype: &str| {
        let src = format!(
            "graph t {{\n  input a: {dtype}[4096, 4096]\n  input b: {dtype}[4096, 4096]\n  op mm = matmul(a, b) -> c\n  output c\n}}\n"
        );
        let f = temp_file(&format!("mm-{dtype}.fgraph"), &src);
        let o = fgraph(&[
            "analyze",
            "--format",
            "json",
            "--traffic-model",
            "hardware",
            f.to_str().expect("utf-8"),
        ]);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
        v["cost"]["hardware_model"]["kernel_us"]
            .as_f64()
            .expect("kernel_us")
    };
    let (tf32, f32) = (kernel_us("tf32"), kernel_us("f32"));
    assert!((300.0..470.0).contains(&tf32), "{tf32}");
    assert!((2200.0..3300.0).contains(&f32), "{f32}");
}

#[test]
fn traffic_model_hardware_needs_a_calibrated_gpu() {
    let o = fgraph(&[
        "analyze",
        "--traffic-model",
        "hardware",
        "--hardware",
        "a100",
        "examples/seed_mlp.fgraph",
    ]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("no hardware-model coefficients"),
        "{}",
        stderr(&o)
    );
    // The H100 template carries its coefficients, so a copy of it is calibrated too; an
    // invalid coefficient is reported.
    let o = fgraph(&["hardware", "h100", "--format", "json"]);
    let text = stdout(&o);
    assert!(text.contains("\"raster_width\""), "{text}");
    for key in [
        "mm_f32_efficiency",
        "attention",
        "attention_kernels",
        "flash2",
        "tf32_peak_fraction",
        "mm_overhead_us",
        "mm_wave_exponent",
        "mm_unaligned_efficiency",
        "norm_reread",
        "softmax_reread",
        "scalar",
        "layout_copy",
        "head_dim_half",
        "softmax_row_scale",
    ] {
        assert!(text.contains(&format!("\"{key}\"")), "{key}: {text}");
    }
    let f = temp_file("h100-model.json", &text);
    let o = fgraph(&[
        "transformer",
        "--seq-len",
        "512",
        "--hidden-dim",
        "1024",
        "--num-heads",
        "8",
        "--traffic-model",
        "hardware",
        "--hardware-file",
        f.to_str().expect("utf-8"),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stdout(&o).contains("hardware model (softmax)"),
        "{}",
        stdout(&o)
    );
    let bad = temp_file(
        "h100-bad.json",
        &text.replace("\"raster_width\": 40.0", "\"raster_width\": -1.0"),
    );
    let o = fgraph(&[
        "analyze",
        "--traffic-model",
        "hardware",
        "--hardware-file",
        bad.to_str().expect("utf-8"),
        "examples/seed_mlp.fgraph",
    ]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("model.raster_width"), "{}", stderr(&o));
}

// ---------------------------------------------------------------------------------------
// Multi-consumer policies (issue 13).

#[test]
fn policy_store_fuses_through_shared_tensors_and_says_so() {
    let src = "graph s {\n  input x: [4, 8]\n  op a = elementwise.relu(x) -> t\n  op r = reduction.max(t, axis = -1) -> s: [4, 1]\n  op c = elementwise.sub(t, s) -> y\n  op d = elementwise.exp(t) -> z\n  output y, z\n}\n";
    let f = temp_file("store.fgraph", src);
    let path = f.to_str().expect("utf-8");
    let plain = fgraph(&["analyze", "--format", "json", path]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&plain)).expect("json");
    assert!(v.get("policy").is_none(), "the default adds no key");
    assert_eq!(v["groups"].as_array().map(Vec::len), Some(4));

    let o = fgraph(&["analyze", "--policy", "store", "--format", "json", path]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert_eq!(v["policy"], "store");
    // {a, r, d}: t is stored once for c, which reads t and s; groups in the order of their
    // last op.
    let groups = group_names(&v);
    assert_eq!(groups, [vec!["c"], vec!["a", "r", "d"]]);
    let b = &v["boundaries"][0];
    assert_eq!(
        (&b["producer"], &b["consumer"], &b["reason"]),
        (&"a".into(), &"c".into(), &"after-reduction".into())
    );
    assert_eq!(b["via"], serde_json::json!(["r", "c"]));

    let o = fgraph(&["analyze", "--policy", "store", path]);
    let out = stdout(&o);
    assert!(out.contains("fusion policy `store`"), "{out}");
    assert!(
        out.contains("one kernel for `a` and `c` would hold the edge `r` → `c`"),
        "{out}"
    );
    let o = fgraph(&["explain", "budget-exceeded"]);
    assert_eq!(code(&o), 0);
    assert!(stdout(&o).contains("max_fusion_size"));
}

#[test]
fn reduction_epilogue_makes_rmsnorm_one_kernel() {
    let src = "graph rms {\n  input x: [2048, 4096]\n  weight w: [4096]\n  op sq = elementwise.mul(x, x) -> x2\n  op ms = reduction.mean(x2, axis = -1) -> m: [2048, 1]\n  op rs = elementwise.rsqrt(m) -> r\n  op nx = elementwise.mul(x, r) -> n\n  op y = elementwise.mul(n, w) -> out\n}\n";
    let f = temp_file("rms.fgraph", src);
    let path = f.to_str().expect("utf-8");
    let json = |extra: &[&str]| -> serde_json::Value {
        let mut args = vec!["analyze", "--format", "json"];
        args.extend_from_slice(extra);
        args.push(path);
        serde_json::from_str(&stdout(&fgraph(&args))).expect("json")
    };
    let plain = json(&[]);
    assert_eq!(plain["groups"].as_array().map(Vec::len), Some(2));
    assert!(plain.get("reduction_epilogues").is_none());
    let v = json(&["--reduction-epilogue"]);
    assert_eq!(v["groups"].as_array().map(Vec::len), Some(1));
    let e = &v["reduction_epilogues"];
    assert_eq!(e.as_array().map(Vec::len), Some(1));
    assert_eq!(e[0]["producer"], "ms");
    assert_eq!(e[0]["consumer"], "rs");
    assert_eq!(e[0]["overrides"], "after-reduction");
    // x (16 MiB of f32) is read once instead of twice, and m never leaves the kernel: the
    // fused plan saves x's second read plus m's write and read.
    let x = 2048 * 4096 * 4;
    let m = 2048 * 4;
    let saved = plain["traffic"]["fused"]["total"].as_u64().expect("u64")
        - v["traffic"]["fused"]["total"].as_u64().expect("u64");
    assert_eq!(saved, x + 2 * m);
    let o = fgraph(&["analyze", "--reduction-epilogue", path]);
    assert!(stdout(&o).contains("ms → rs via `m` [reduction-epilogue, overrides after-reduction]"));
}

// ---------------------------------------------------------------------------------------
// Standard input (issue 14, item 3).

const MESSY: &str = "graph g{\ninput x:[4]   // keep me\nop a=elementwise.relu(x)->y\n}\n";
const TIDY: &str = "graph g {\n  input x: [4] // keep me\n  op a = elementwise.relu(x) -> y\n}\n";

#[test]
fn fmt_dash_formats_standard_input_to_standard_output() {
    let o = fgraph_stdin(&["fmt", "-"], MESSY);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout(&o), TIDY);
    assert_eq!(stderr(&o), "", "an editor's buffer gets only the result");
    // Formatted already: the same text back.
    let o = fgraph_stdin(&["fmt", "-"], TIDY);
    assert_eq!((code(&o), stdout(&o)), (0, TIDY.to_string()));
    // --check: nothing on stdout, exit 1 naming --stdin-filename.
    let o = fgraph_stdin(
        &["fmt", "--check", "--stdin-filename", "buf.fgraph", "-"],
        MESSY,
    );
    assert_eq!(code(&o), 1);
    assert_eq!(stdout(&o), "");
    assert!(
        stderr(&o).contains("would reformat buf.fgraph"),
        "{}",
        stderr(&o)
    );
    let o = fgraph_stdin(&["fmt", "--check", "-"], TIDY);
    assert_eq!(code(&o), 0);
    // A syntax error: the diagnostic on stderr, nothing on stdout, exit 1.
    let o = fgraph_stdin(
        &["fmt", "--stdin-filename", "buf.fgraph", "-"],
        "graph g {\n  op\n",
    );
    assert_eq!(code(&o), 1);
    assert_eq!(stdout(&o), "");
    assert!(stderr(&o).contains("buf.fgraph"), "{}", stderr(&o));
}

#[test]
fn check_dash_checks_standard_input_in_every_format() {
    let src = "graph g {\n  input x: [4]\n  op a = elementwise.relu(xx) -> y\n}\n";
    let o = fgraph_stdin(
        &["check", "--stdin-filename", "models/buf.fgraph", "-"],
        src,
    );
    assert_eq!(code(&o), 1);
    let out = format!("{}{}", stdout(&o), stderr(&o));
    assert!(out.contains("[models/buf.fgraph:3:"), "{out}");
    let o = fgraph_stdin(&["check", "--format", "json", "-"], src);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert_eq!(v["diagnostics"][0]["file"], "<stdin>");
    assert_eq!(v["diagnostics"][0]["code"], "undefined-tensor");
    let o = fgraph_stdin(
        &[
            "check",
            "--format",
            "github",
            "--stdin-filename",
            "b.fgraph",
            "-",
        ],
        src,
    );
    assert!(
        stdout(&o).starts_with("::error file=b.fgraph,line=3"),
        "{}",
        stdout(&o)
    );
    let o = fgraph_stdin(&["check", "--format", "sarif", "-"], src);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("sarif");
    assert_eq!(v["runs"][0]["results"][0]["ruleId"], "undefined-tensor");
    // Clean input, and analyze reads standard input too.
    let o = fgraph_stdin(&["check", "-"], TIDY);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = fgraph_stdin(&["analyze", "-"], TIDY);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stdout(&o).contains("graph `g`: 1 op in 1 kernel"),
        "{}",
        stdout(&o)
    );
    // --fix cannot rewrite standard input: a usage error.
    let o = fgraph_stdin(&["check", "--fix", "-"], src);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("standard input"), "{}", stderr(&o));
}

// ---------------------------------------------------------------------------------------
// The picture of the plan (issue 14, item 1).

#[test]
fn dot_writes_the_plan_and_svg_renders_it_or_names_the_package() {
    let dir = std::env::temp_dir().join(format!("fgraph-dot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let dot = dir.join("plan.dot");
    let o = fgraph(&[
        "analyze",
        "examples/seed_mlp.fgraph",
        "--dot",
        dot.to_str().expect("utf-8"),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = std::fs::read_to_string(&dot).expect("written");
    assert!(text.starts_with("digraph \"seed_mlp\" {"));
    assert_eq!(text.matches("subgraph \"cluster_k").count(), 2);
    assert!(text.contains("[matmul-starts-group]"));
    assert!(text.contains("compute-bound"));
    // An unwritable path: exit 2, and no partial file.
    let o = fgraph(&[
        "analyze",
        "examples/seed_mlp.fgraph",
        "--dot",
        "/nonexistent-dir/plan.dot",
    ]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("cannot write DOT"), "{}", stderr(&o));
    // A graph with errors: nothing written, a note, exit 1.
    let bad = temp_file(
        "bad-dot.fgraph",
        "graph g {\n  op a = elementwise.relu(x) -> y\n}\n",
    );
    let out = dir.join("bad.dot");
    let o = fgraph(&[
        "analyze",
        bad.to_str().expect("utf-8"),
        "--dot",
        out.to_str().expect("utf-8"),
    ]);
    assert_eq!(code(&o), 1);
    assert!(!out.exists());
    assert!(
        stderr(&o).contains("not written: the graph has errors"),
        "{}",
        stderr(&o)
    );

    // SVG without Graphviz on the PATH: exit 2, naming the package.
    let svg = dir.join("plan.svg");
    let o = Command::new(env!("CARGO_BIN_EXE_fgraph"))
        .args(["analyze", "examples/seed_mlp.fgraph", "--svg"])
        .arg(&svg)
        .current_dir(root())
        .env("PATH", "")
        .output()
        .expect("run");
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("apt-get install graphviz"),
        "{}",
        stderr(&o)
    );
    assert!(!svg.exists());
    // With Graphviz: an SVG with one cluster per kernel (CI installs it and requires this).
    let have_dot = Command::new("dot").arg("-V").output().is_ok();
    if !have_dot {
        assert!(
            std::env::var_os("FGRAPH_REQUIRE_GRAPHVIZ").is_none(),
            "FGRAPH_REQUIRE_GRAPHVIZ is set but Graphviz `dot` is not installed"
        );
        eprintln!("skipped the SVG rendering: Graphviz `dot` is not installed");
        return;
    }
    let o = fgraph(&[
        "transformer",
        "--seq-len",
        "2048",
        "--hidden-dim",
        "4096",
        "--num-heads",
        "32",
        "--svg",
        svg.to_str().expect("utf-8"),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = std::fs::read_to_string(&svg).expect("svg");
    let opt = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    let doc = roxmltree::Document::parse_with_options(&text, opt).expect("well-formed SVG");
    let clusters = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("cluster"))
        .count();
    assert_eq!(clusters, 9, "one cluster per kernel of the block");
}

#[test]
fn collapse_repeats_draws_one_layer_and_folds_the_rest() {
    let dir = std::env::temp_dir().join(format!("fgraph-fold-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let (full, folded) = (dir.join("full.dot"), dir.join("folded.dot"));
    for (path, flag) in [(&full, None), (&folded, Some("--collapse-repeats"))] {
        let mut args = vec![
            "analyze",
            "examples/llama3_8b.fgraph",
            "--dot",
            path.to_str().expect("utf-8"),
        ];
        args.extend(flag);
        let o = fgraph(&args);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
    }
    let full = std::fs::read_to_string(&full).expect("written");
    let folded = std::fs::read_to_string(&folded).expect("written");
    assert_eq!(full.matches("subgraph \"cluster_k").count(), 451);
    // layers.0 (14 kernels, its k_rope folded into the q_rope drawn) and the 3 outside.
    assert_eq!(folded.matches("subgraph \"cluster_k").count(), 16);
    assert!(
        folded.contains("[label=\"layers.1 … layers.31\\n31 × decoder: 434 kernels, 1209 ops\\n"),
        "{folded}"
    );
    assert!(folded.len() * 20 < full.len());
    // A graph without repeated blocks draws the same picture.
    let plain = |extra: Option<&str>| {
        let mut args = vec!["analyze", "examples/seed_mlp.fgraph", "--dot", "-"];
        args.extend(extra);
        fgraph(&args).stdout
    };
    assert_eq!(plain(None), plain(Some("--collapse-repeats")));
    // Without --dot or --svg it folds nothing: a usage error.
    let o = fgraph(&["analyze", "examples/llama3_8b.fgraph", "--collapse-repeats"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("give one of them"), "{}", stderr(&o));
}

#[test]
fn html_needs_graphviz_and_writes_nothing_without_it() {
    let dir = std::env::temp_dir().join(format!("fgraph-html-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let html = dir.join("report.html");
    let o = Command::new(env!("CARGO_BIN_EXE_fgraph"))
        .args(["analyze", "examples/seed_mlp.fgraph", "--html"])
        .arg(&html)
        .current_dir(root())
        .env("PATH", "")
        .output()
        .expect("run");
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("graphviz"), "{}", stderr(&o));
    assert!(!html.exists());
    if Command::new("dot").arg("-V").output().is_err() {
        return; // tests/html_report.rs says whether that is allowed
    }
    let o = fgraph(&[
        "analyze",
        "examples/seed_mlp.fgraph",
        "--html",
        html.to_str().expect("utf-8"),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = std::fs::read_to_string(&html).expect("written");
    assert!(text.starts_with("<!DOCTYPE html>"));
    assert_eq!(text.matches("<tr class=\"kernel-row\"").count(), 2);
}
