//! Fusion assertions end to end (issue 13, item 8): `check` and `analyze` exit 1 when one
//! fails and point at it, the plan is still shown beside a failure, the run's fusion options
//! decide, `fmt` keeps them, and the shipped examples' assertions hold.

use std::path::PathBuf;

mod common;
use common::*;

fn temp_file(name: &str, text: &str) -> PathBuf {
    temp_file_in("assert", name, text)
}

/// The seed MLP with `asserts` at the end of its body.
fn seed(asserts: &str) -> String {
    let src = std::fs::read_to_string(root().join("examples/seed_mlp.fgraph")).expect("example");
    let end = src.rfind('}').expect("closing brace");
    format!("{}{asserts}\n}}\n", &src[..end])
}

#[test]
fn passing_assertions_exit_0_and_a_failing_one_exits_1_at_its_line() {
    let ok = temp_file("ok.fgraph", &seed("  assert kernels == 2"));
    let o = fgraph(&["check", ok.to_str().expect("utf-8")]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));

    let src = seed("  assert fused(relu, matmul2)");
    let line = src.lines().count() - 1;
    let bad = temp_file("bad.fgraph", &src);
    let bad = bad.to_str().expect("utf-8");
    let o = fgraph(&["check", bad]);
    assert_eq!(code(&o), 1);
    let err = stderr(&o);
    assert!(err.contains("fgraph::assertion-failed"), "{err}");
    assert!(err.contains(&format!("bad.fgraph:{line}:3")), "{err}");
    assert!(err.contains("[matmul-starts-group]"), "{err}");

    // JSON: the code, the line, the help with the rule.
    let o = fgraph(&["check", "--format", "json", bad]);
    assert_eq!(code(&o), 1);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    let d = &v["diagnostics"][0];
    assert_eq!(d["code"], "assertion-failed");
    assert_eq!(d["severity"], "error");
    assert_eq!(d["line"], line);
    assert!(
        d["help"]
            .as_str()
            .is_some_and(|h| h.contains("a matmul always starts a new kernel")),
        "{d}"
    );

    // GitHub annotations for CI.
    let o = fgraph(&["check", "--format", "github", bad]);
    assert_eq!(code(&o), 1);
    assert!(stdout(&o).contains("::error"), "{}", stdout(&o));

    // A malformed assertion exits 1 too.
    let f = temp_file("malformed.fgraph", &seed("  assert fusd(relu, bias1)"));
    let o = fgraph(&["check", f.to_str().expect("utf-8")]);
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("fgraph::bad-assertion"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn analyze_reports_the_failure_and_still_shows_the_plan() {
    let f = temp_file("analyze.fgraph", &seed("  assert kernels == 1"));
    let f = f.to_str().expect("utf-8");
    let o = fgraph(&["analyze", f]);
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("the plan has 2 kernels"),
        "{}",
        stderr(&o)
    );
    assert!(
        stdout(&o).contains("kernel 1  matmul1 → bias1 → relu"),
        "{}",
        stdout(&o)
    );
    let o = fgraph(&["analyze", "--format", "json", f]);
    assert_eq!(code(&o), 1);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert_eq!(v["diagnostics"][0]["code"], "assertion-failed");
    assert_eq!(v["groups"].as_array().map(Vec::len), Some(2));
    assert_eq!(v["traffic"]["fused"]["total"], 69_214_208);
}

#[test]
fn assertions_are_checked_against_the_plan_of_the_run() {
    // Attention: the scores and the softmax are apart under the rules, one kernel with
    // `--flash-attention`.
    let src = "graph attn {\n  param S = 1024\n  dtype f16\n  input q: [8, S, 64]\n  \
               input k: [8, S, 64]\n  input v: [8, S, 64]\n  \
               op scores = matmul(q, k.T) -> s\n  \
               op softmax = reduction.softmax(s, axis = -1) -> p: [8, S, S]\n  \
               op out = matmul(p, v) -> o\n  output o\n  assert unfused(scores, softmax)\n}\n";
    let f = temp_file("attn.fgraph", src);
    let f = f.to_str().expect("utf-8");
    // (The score matrix is a large-intermediate warning, which does not fail.)
    let o = fgraph(&["check", f]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    for args in [
        &["check", "--flash-attention", f][..],
        &["analyze", "--flash-attention", f],
    ] {
        let o = fgraph(args);
        assert_eq!(code(&o), 1, "{args:?}");
        assert!(
            stderr(&o).contains("`unfused(scores, softmax)` failed: `scores` and `softmax`"),
            "{}",
            stderr(&o)
        );
    }

    // `t` has two readers: a kernel boundary by default, fused under `--policy store`.
    let src = "graph g {\n  input x: [64, 64]\n  op a = elementwise.relu(x) -> t\n  \
               op b = elementwise.exp(t) -> u\n  op c = elementwise.neg(t) -> w\n  \
               output u, w\n  assert unfused(a, b)\n}\n";
    let f = temp_file("store.fgraph", src);
    let f = f.to_str().expect("utf-8");
    assert_eq!(code(&fgraph(&["analyze", f])), 0);
    let o = fgraph(&["analyze", "--policy", "store", f]);
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("`a` and `b` are in one kernel"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn assertions_of_the_shipped_examples_hold() {
    let files = ["examples/seed_mlp.fgraph", "examples/llama3_8b.fgraph"];
    for f in files {
        let text = std::fs::read_to_string(root().join(f)).expect("example");
        assert!(text.contains("\n  assert "), "{f} shows assertions");
    }
    let o = fgraph(&[&["check", "--deny-warnings"][..], &files].concat());
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    // Under most strategies too.
    for extra in [
        &["--flash-attention"][..],
        &["--policy", "store"],
        &["--policy", "recompute"],
        &["--reduction-epilogue"],
        &["--horizontal", "grouped-gemm"],
        &["--fuse-diamonds"],
        &["--fuser", "xla"],
        &["--fuser", "tvm"],
    ] {
        for f in files {
            let o = fgraph(&[&["analyze", f][..], extra].concat());
            assert_eq!(code(&o), 0, "{f} {extra:?}: {}", stderr(&o));
        }
    }
    // A strategy that keeps the residual add out of the matmul's kernel breaks what the
    // decoder block asserts, once for the 32 layers, with the rule.
    let o = fgraph(&[
        "check",
        "--matmul-epilogue",
        "none",
        "examples/llama3_8b.fgraph",
    ]);
    assert_eq!(code(&o), 1);
    let err = stderr(&o);
    assert_eq!(err.matches("fgraph::assertion-failed").count(), 2, "{err}");
    assert!(
        err.contains("assertion `fused(o_proj, res)` failed") && err.contains("[matmul-epilogue]"),
        "{err}"
    );
    assert!(
        err.contains("in instance 0 of this repeat of `decoder`"),
        "{err}"
    );
    // Breaking the fusion an example relies on fails at the assertion: make `y1` a graph
    // output, and `matmul1` → `bias1` becomes a boundary.
    let src = std::fs::read_to_string(root().join("examples/seed_mlp.fgraph"))
        .expect("example")
        .replace("output y4", "output y4, y1");
    let f = temp_file("broken_seed.fgraph", &src);
    let o = fgraph(&["check", f.to_str().expect("utf-8")]);
    assert_eq!(code(&o), 1);
    let err = stderr(&o);
    assert!(
        err.contains("assertion `fused(matmul1, bias1)` failed") && err.contains("[materialized]"),
        "{err}"
    );
    assert!(
        err.contains("assertion `not materialized(y1)` failed: `y1` is written to HBM"),
        "{err}"
    );
}

#[test]
fn fmt_prints_assertions_canonically_and_idempotently() {
    let src = "graph g {\n  input x: [4]\n  op a = elementwise.relu(x) -> y\n  \
               op b = elementwise.exp(y) -> z\n  assert   fused( a ,b )\n  \
               assert not   materialized(y)  // stays on chip\n  assert kernels<=2*(1+1)\n  \
               assert traffic   <  4*   8 KiB\n  assert unfused(a,\n    b)\n}\n";
    let want = "graph g {\n  input x: [4]\n  op a = elementwise.relu(x) -> y\n  \
                op b = elementwise.exp(y) -> z\n  assert fused(a, b)\n  \
                assert not materialized(y) // stays on chip\n  assert kernels <= 2 * (1 + 1)\n  \
                assert traffic < 4 * 8 KiB\n  assert unfused(a, b)\n}\n";
    let once = fgraph_stdin(&["fmt", "-"], src);
    assert_eq!(stdout(&once), want);
    let twice = fgraph_stdin(&["fmt", "-"], want);
    assert_eq!(stdout(&twice), want);
    assert_eq!(code(&fgraph_stdin(&["fmt", "--check", "-"], want)), 0);
    // The formatted file means the same: `unfused(a, b)` fails in both.
    for text in [src, want] {
        let o = fgraph_stdin(&["check", "-"], text);
        assert_eq!(code(&o), 1);
        assert!(stderr(&o).contains("assertion `unfused(a, b)` failed"));
    }
}

#[test]
fn explain_describes_both_codes() {
    for c in ["assertion-failed", "bad-assertion"] {
        let o = fgraph(&["explain", c]);
        assert_eq!(code(&o), 0);
        assert!(stdout(&o).starts_with(&format!("# {c}")), "{}", stdout(&o));
    }
}

#[test]
fn assert_is_not_reserved_and_syntax_errors_name_what_was_expected() {
    // `assert` and the predicate words stay usable as names.
    let src = "graph g {\n  input assert: [4]\n  op fused = elementwise.relu(assert) -> kernels\n  \
               op not = elementwise.exp(kernels) -> traffic\n  assert fused(fused, not)\n  \
               assert materialized(traffic)\n}\n";
    let o = fgraph_stdin(&["check", "-"], src);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    for (src, says) in [
        ("assert kernels 3", "a comparison"),
        ("assert fused()", "an identifier"),
        ("assert", "an assertion"),
        ("assert traffic <= 1.5 GB", "numbers are decimal"),
    ] {
        let text = format!("graph g {{\n  input x: [4]\n  {src}\n}}\n");
        let o = fgraph_stdin(&["check", "-"], &text);
        assert_eq!(code(&o), 1, "{src}");
        let err = stderr(&o);
        assert!(
            err.contains("fgraph::syntax-error") && err.contains(says),
            "{src}: {err}"
        );
    }
}

/// The example of the manual's section on assertions holds, and each explain text's example
/// gives its code.
#[test]
fn the_manual_and_explain_examples_say_what_they_claim() {
    let manual = std::fs::read_to_string(root().join("docs/language.md")).expect("manual");
    let section = &manual[manual.find("## 18. Fusion assertions").expect("section 18")..];
    let start = section.find("```fgraph\n").expect("an example") + "```fgraph\n".len();
    let example = &section[start..start + section[start..].find("```").expect("its end")];
    let o = fgraph_stdin(&["check", "-"], example);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    for (name, want) in [("assertion-failed", 2), ("bad-assertion", 3)] {
        let text = std::fs::read_to_string(root().join(format!("src/explain/{name}.md")))
            .expect("explain text");
        let start = text.find("```fgraph\n").expect("an example") + "```fgraph\n".len();
        let example = &text[start..start + text[start..].find("```").expect("its end")];
        let o = fgraph_stdin(&["check", "--format", "json", "-"], example);
        assert_eq!(code(&o), 1, "{name}");
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
        let n = v["diagnostics"]
            .as_array()
            .expect("diagnostics")
            .iter()
            .filter(|d| d["code"] == name)
            .count();
        assert_eq!(n, want, "{name}: {v}");
    }
}
