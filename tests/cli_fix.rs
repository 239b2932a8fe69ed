//! `check --fix`, fixes in JSON and SARIF, and `fgraph.toml` / `--config`, through the binary.

mod common;
use common::{fgraph_in, temp_dir};

const BROKEN: &str = "graph g {\n  param hidden = 64\n  input x: f16[4, hiden]\n  input spare: f16[4]\n  op a = elementwise.relu(X) -> y\n  op b = elementwse.gelu(y) z\n  output z\n}\n";
const FIXED: &str = "graph g {\n  param hidden = 64\n  input x: f16[4, hidden]\n  input spare: f16[4]\n  op a = elementwise.relu(x) -> y\n  op b = elementwise.gelu(y) -> z\n  output z\n}\n";

#[test]
fn fix_applies_the_safe_fixes_and_reports_what_is_left() {
    let dir = temp_dir("apply");
    std::fs::write(dir.join("g.fgraph"), BROKEN).expect("write");
    let o = fgraph_in(&dir, &["check", "--fix", "g.fgraph"]);
    let err = String::from_utf8_lossy(&o.stderr);
    // Four safe fixes (two names, a kind, the arrow); the unused input needs review.
    assert!(err.contains("fixed 4 problems in g.fgraph"), "{err}");
    assert!(err.contains("Found 0 errors and 1 warning"), "{err}");
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        std::fs::read_to_string(dir.join("g.fgraph")).expect("read"),
        FIXED
    );
    // Nothing left to fix: the file is not written again.
    let o = fgraph_in(&dir, &["check", "--fix", "g.fgraph"]);
    assert!(!String::from_utf8_lossy(&o.stderr).contains("fixed"));
    let leftovers: Vec<_> = std::fs::read_dir(&dir).expect("dir").collect();
    assert_eq!(leftovers.len(), 1, "no temporary file left behind");
}

#[test]
fn json_and_sarif_carry_the_edits() {
    let dir = temp_dir("json");
    let parses = BROKEN.replace("(y) z", "(y) -> z");
    let broken = parses.as_str();
    std::fs::write(dir.join("g.fgraph"), broken).expect("write");
    let o = fgraph_in(&dir, &["check", "--format", "json", "g.fgraph"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let diags = v["diagnostics"].as_array().expect("array");
    let undefined = diags
        .iter()
        .find(|d| d["code"] == "undefined-tensor")
        .expect("undefined-tensor");
    let fix = &undefined["fixes"][0];
    assert_eq!(fix["applicability"], "safe");
    let edit = &fix["edits"][0];
    assert_eq!(edit["replacement"], "x");
    let (s, e) = (
        edit["start"].as_u64().unwrap_or(0) as usize,
        edit["end"].as_u64().unwrap_or(0) as usize,
    );
    assert_eq!(&broken[s..e], "X");
    assert_eq!(
        (edit["line"].as_u64(), edit["column"].as_u64()),
        (Some(5), Some(27))
    );
    let unused = diags
        .iter()
        .find(|d| d["code"] == "unused-tensor")
        .expect("unused");
    assert_eq!(unused["fixes"][0]["applicability"], "needs-review");
    // A diagnostic without a fix has no `fixes` key at all.
    assert!(
        diags
            .iter()
            .all(|d| d.get("fixes").is_none()
                || d["fixes"].as_array().is_some_and(|a| !a.is_empty()))
    );

    let o = fgraph_in(&dir, &["check", "--format", "sarif", "g.fgraph"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("sarif");
    let results = v["runs"][0]["results"].as_array().expect("results");
    let r = results
        .iter()
        .find(|r| r["ruleId"] == "undefined-tensor")
        .expect("result");
    let rep = &r["fixes"][0]["artifactChanges"][0]["replacements"][0];
    assert_eq!(rep["insertedContent"]["text"], "x");
    assert_eq!(rep["deletedRegion"]["startLine"], 5);
    assert_eq!(rep["deletedRegion"]["startColumn"], 27);
}

const WARNS: &str = "graph g {\n  param n = 4\n  input x: [n]\n  input spare: [4]\n  op a = elementwise.relu(x) -> y\n}\n";

#[test]
fn fgraph_toml_is_found_above_the_file_and_config_overrides() {
    let dir = temp_dir("config");
    let sub = dir.join("models");
    std::fs::create_dir_all(&sub).expect("sub");
    std::fs::write(sub.join("g.fgraph"), WARNS).expect("write");
    // No configuration: the warning, exit 0.
    let o = fgraph_in(&sub, &["check", "g.fgraph"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stderr).contains("unused-tensor"));
    // deny-warnings from a file two levels up turns it into exit 1.
    std::fs::write(dir.join("fgraph.toml"), "deny-warnings = true\n").expect("write");
    let o = fgraph_in(&sub, &["check", "g.fgraph"]);
    assert_eq!(o.status.code(), Some(1));
    // allow silences it; [set] overrides a param (n = 2 makes `x` 8 bytes, f32[2]).
    std::fs::write(
        dir.join("fgraph.toml"),
        "deny-warnings = true\nallow = [\"unused-tensor\"]\n[set]\nn = 2\n",
    )
    .expect("write");
    let o = fgraph_in(&sub, &["check", "g.fgraph"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let o = fgraph_in(&sub, &["analyze", "--format", "json", "g.fgraph"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert!(v.to_string().contains("\"shape\":[2]"), "{v}");
    // --config names another file; an invalid one is a diagnostic pointing into it, exit 2.
    std::fs::write(dir.join("other.toml"), "allow = [\"cycle\"]\n").expect("write");
    let o = fgraph_in(&sub, &["check", "--config", "../other.toml", "g.fgraph"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("fgraph::invalid-config") && err.contains("other.toml:1:10"),
        "{err}"
    );
    // The hardware preset reaches the cost model.
    std::fs::write(dir.join("fgraph.toml"), "hardware = \"a100\"\n").expect("write");
    let o = fgraph_in(&sub, &["analyze", "--format", "json", "g.fgraph"]);
    assert!(String::from_utf8_lossy(&o.stdout).contains("a100"));
    // `transformer` has no file: only --config applies to it.
    let args = [
        "transformer",
        "--seq-len",
        "128",
        "--hidden-dim",
        "256",
        "--num-heads",
        "4",
    ];
    let o = fgraph_in(&sub, &args);
    assert!(!String::from_utf8_lossy(&o.stdout).contains("(a100)"));
    let mut with = args.to_vec();
    with.extend(["--config", "../fgraph.toml"]);
    let o = fgraph_in(&sub, &with);
    assert!(String::from_utf8_lossy(&o.stdout).contains("(a100)"));
}

/// A "did you mean" whose tensor has the wrong shape (`w2` is [16, 4], the other operand
/// [8, 32]): applied, the file would have a new error. `check --fix` leaves it, and JSON
/// shows it as needing review, saying why.
#[test]
fn a_fix_that_makes_a_new_error_is_not_applied() {
    let dir = temp_dir("unverified");
    let text = "graph g {\n  input x: [8, 32]\n  weight w2: [16, 4]\n  op mix = elementwise.mul(x, w3) -> h\n  output h\n}\n";
    std::fs::write(dir.join("g.fgraph"), text).expect("write");
    let o = fgraph_in(&dir, &["check", "--fix", "g.fgraph"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!err.contains("fixed"), "{err}");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        std::fs::read_to_string(dir.join("g.fgraph")).expect("read"),
        text
    );
    let o = fgraph_in(&dir, &["check", "--format", "json", "g.fgraph"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let fix = &v["diagnostics"][0]["fixes"][0];
    assert_eq!(fix["applicability"], "needs-review", "{v}");
    assert_eq!(
        fix["message"],
        "replace `w3` with `w2` (not verified: the file then has a new error: shape-mismatch: \
         cannot broadcast `w2` of shape [16, 4] with shape [8, 32])"
    );
}

/// Two fixes each right alone, wrong together (`x` is [4], `y` is [8]): `check --fix` applies
/// the first and leaves the second, which then shows as needing review.
#[test]
fn fixes_that_clash_together_are_applied_one_at_a_time() {
    let dir = temp_dir("clash");
    let text = "graph g {\n  input x: [4]\n  input y: [8]\n  op a = elementwise.add(xx, yy) -> z\n  output z\n}\n";
    std::fs::write(dir.join("g.fgraph"), text).expect("write");
    let o = fgraph_in(&dir, &["check", "--fix", "--format", "json", "g.fgraph"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("fixed 1 problem in g.fgraph"), "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.join("g.fgraph")).expect("read"),
        text.replace("(xx,", "(x,")
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let fix = &v["diagnostics"][0]["fixes"][0];
    assert_eq!(fix["applicability"], "needs-review", "{v}");
}
