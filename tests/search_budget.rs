//! The work bound of plan searches (issue 21, docs/language.md §13): a dense graph under a
//! strategy that checks its merges stops at the bound, keeps a legal plan (every op in exactly
//! one kernel, every kernel acyclic and within the rules) and says so with the warning
//! `search-budget`, naming the strategy, the work done and the bound — for the analysis's own
//! plan and for every plan the report makes (`--compare`, the what-if, in human and JSON
//! output), honouring `--allow`, allow comments and `--deny-warnings`; the same run twice gives
//! the same bytes.

mod common;

use common::{code, fgraph, stderr, stdout, temp_file_in};
use serde_json::Value;
use std::time::{Duration, Instant};

const FIXTURE: &str = "tests/fixtures/diagnostics/search-budget.fgraph";

/// `layers` layers of `width` ops, each adding every tensor of the layer before.
fn layered(layers: usize, width: usize) -> String {
    let mut s = String::from("graph dense {\n  dtype f16\n  input x: [64, 64]\n");
    let mut prev = vec!["x".to_string()];
    for l in 0..layers {
        let mut cur = Vec::new();
        for i in 0..width {
            let kind = if prev.len() > 1 { "add" } else { "relu" };
            s += &format!(
                "  op l{l}_{i} = elementwise.{kind}({}) -> t{l}_{i}\n",
                prev.join(", ")
            );
            cur.push(format!("t{l}_{i}"));
        }
        prev = cur;
    }
    s += &format!("  output {}\n}}\n", prev.join(", "));
    s
}

/// The `search-budget` diagnostics of a JSON report.
fn warnings(report: &Value) -> Vec<&Value> {
    report["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter(|d| d["code"] == "search-budget")
        .collect()
}

/// The JSON report's plan is legal: its groups hold every op exactly once, and no kernel
/// reads (through other kernels) what it writes.
fn assert_legal(report: &Value) {
    let ops: Vec<&str> = report["ops"]
        .as_array()
        .expect("ops")
        .iter()
        .map(|o| o["name"].as_str().expect("name"))
        .collect();
    let groups = report["groups"].as_array().expect("groups");
    let mut kernel_of = std::collections::HashMap::new();
    for (k, g) in groups.iter().enumerate() {
        for o in g["ops"].as_array().expect("group ops") {
            let name = o.as_str().expect("op name");
            assert!(kernel_of.insert(name, k).is_none(), "{name} in two kernels");
        }
    }
    assert_eq!(kernel_of.len(), ops.len(), "every op in a kernel");
    // Kernel k waits for kernel j when an op of k reads a tensor an op of j writes.
    let producer: std::collections::HashMap<&str, &str> = report["ops"]
        .as_array()
        .expect("ops")
        .iter()
        .map(|o| {
            (
                o["output"].as_str().expect("output"),
                o["name"].as_str().expect("name"),
            )
        })
        .collect();
    let mut succ = vec![Vec::new(); groups.len()];
    let mut indeg = vec![0usize; groups.len()];
    for o in report["ops"].as_array().expect("ops") {
        let k = kernel_of[o["name"].as_str().expect("name")];
        for i in o["inputs"].as_array().expect("inputs") {
            if let Some(p) = producer.get(i.as_str().expect("input")) {
                let j = kernel_of[p];
                if j != k {
                    succ[j].push(k);
                    indeg[k] += 1;
                }
            }
        }
    }
    let mut ready: Vec<usize> = (0..groups.len()).filter(|&k| indeg[k] == 0).collect();
    let mut done = 0;
    while let Some(k) = ready.pop() {
        done += 1;
        for &s in &succ[k] {
            indeg[s] -= 1;
            if indeg[s] == 0 {
                ready.push(s);
            }
        }
    }
    assert_eq!(done, groups.len(), "a kernel depends on itself");
}

fn json(args: &[&str]) -> Value {
    let o = fgraph(args);
    assert!(code(&o) <= 1, "{}", stderr(&o));
    serde_json::from_str(&stdout(&o)).expect("a JSON report")
}

#[test]
fn a_stopped_search_warns_and_keeps_a_legal_plan() {
    let args = [
        "analyze",
        "--policy",
        "store",
        "--max-plan-work",
        "200",
        FIXTURE,
    ];
    let o = fgraph(&args);
    assert_eq!(code(&o), 0, "a warning: {}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("fgraph::search-budget"), "{err}");
    assert!(
        err.contains("fusion under `--policy store` stopped at its work bound"),
        "{err}"
    );
    assert!(err.contains("the bound is 200"), "{err}");
    assert!(err.contains("merges it could not check"), "{err}");
    // The boundaries it could not check say so.
    assert!(stdout(&o).contains("[search-stopped]"), "{}", stdout(&o));

    let mut with_json = args.to_vec();
    with_json.insert(1, "--format");
    with_json.insert(2, "json");
    let report = json(&with_json);
    let w = warnings(&report);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0]["help"]
            .as_str()
            .unwrap()
            .contains("merges it could not check")
    );
    let stopped = report["boundaries"]
        .as_array()
        .expect("boundaries")
        .iter()
        .filter(|b| b["reason"] == "search-stopped")
        .count();
    assert!(stopped > 0);
    assert_legal(&report);

    // Without a bound that low, the same plan search finishes: no warning, fewer kernels.
    let full = json(&["analyze", "--format", "json", "--policy", "store", FIXTURE]);
    assert!(warnings(&full).is_empty());
    assert!(full["groups"].as_array().unwrap().len() < report["groups"].as_array().unwrap().len());
    assert_legal(&full);

    // `--deny-warnings` fails on it; `--allow` silences it.
    let mut deny = args.to_vec();
    deny.insert(1, "--deny-warnings");
    assert_eq!(code(&fgraph(&deny)), 1);
    let mut allow = args.to_vec();
    allow.insert(1, "--allow");
    allow.insert(2, "search-budget");
    let o = fgraph(&allow);
    assert_eq!(code(&o), 0);
    assert!(!stderr(&o).contains("search-budget"), "{}", stderr(&o));
}

#[test]
fn the_same_bound_gives_the_same_bytes() {
    for extra in [
        &["--fuser", "inductor"][..],
        &["--fuser", "xla"],
        &["--compare"],
    ] {
        let mut args = vec!["analyze", "--format", "json", "--max-plan-work", "300"];
        args.extend_from_slice(extra);
        args.push(FIXTURE);
        let (a, b) = (fgraph(&args), fgraph(&args));
        assert_eq!(a.stdout, b.stdout, "{extra:?}");
        assert_eq!(a.stderr, b.stderr, "{extra:?}");
    }
}

#[test]
fn every_plan_the_report_makes_warns_once_by_name() {
    // `--compare`: the rows whose search stopped are marked, each named once.
    let o = fgraph(&["analyze", "--compare", "--max-plan-work", "200", FIXTURE]);
    assert_eq!(code(&o), 0);
    let (out, err) = (stdout(&o), stderr(&o));
    for row in ["--policy store", "--policy inline", "--fuser inductor"] {
        let line = out
            .lines()
            .find(|l| {
                l.trim_start_matches(['*', ' '])
                    .starts_with(&format!("{row} "))
            })
            .unwrap_or_else(|| panic!("no row {row}: {out}"));
        assert!(line.ends_with("search stopped"), "{line}");
        let warned = format!("fusion under `{row}` stopped at its work bound");
        assert_eq!(err.matches(&warned).count(), 1, "{err}");
    }
    // SPEC §2's plan needs no check: its row never stops, and the run's own plan is warned
    // about by the analysis only.
    let boundary = out
        .lines()
        .find(|l| l.contains("--policy boundary"))
        .expect("row");
    assert!(!boundary.contains("search stopped"), "{boundary}");
    assert!(!err.contains("fusion stopped"), "{err}");

    let report = json(&[
        "analyze",
        "--format",
        "json",
        "--compare",
        "--policy",
        "store",
        "--max-plan-work",
        "200",
        FIXTURE,
    ]);
    let rows = report["compare"].as_array().expect("compare");
    let store = rows
        .iter()
        .find(|r| r["strategy"] == "--policy store")
        .expect("store row");
    assert_eq!(store["current"], true);
    assert_eq!(store["search_stopped"]["limit"], 200);
    assert_eq!(store["search_stopped"]["pass"], "greedy");
    let boundary = rows
        .iter()
        .find(|r| r["strategy"] == "--policy boundary")
        .expect("boundary row");
    assert!(boundary.get("search_stopped").is_none());
    // One warning per stopped strategy: the run's own (store) once, from the analysis.
    let messages: Vec<&str> = warnings(&report)
        .iter()
        .map(|d| d["message"].as_str().unwrap())
        .collect();
    let mut unique = messages.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), messages.len(), "{messages:?}");
    assert!(
        messages.iter().any(|m| m.contains("`--policy store`")),
        "{messages:?}"
    );
    assert!(
        messages.iter().any(|m| m.contains("`--fuser xla`")),
        "{messages:?}"
    );
}

#[test]
fn what_if_candidates_that_stop_are_warned_about() {
    // The defaults need no check; the what-if tries `--policy store` and others, which do.
    let report = json(&[
        "analyze",
        "--format",
        "json",
        "--max-plan-work",
        "200",
        FIXTURE,
    ]);
    let messages: Vec<&str> = warnings(&report)
        .iter()
        .map(|d| d["message"].as_str().unwrap())
        .collect();
    assert!(
        messages.iter().any(|m| m.contains("`--policy store`")),
        "{messages:?}"
    );
    // `--hints` in the text report: the same warnings, before the report.
    let o = fgraph(&["analyze", "--hints", "--max-plan-work", "200", FIXTURE]);
    assert!(
        stderr(&o).contains("fusion under `--policy store` stopped"),
        "{}",
        stderr(&o)
    );
    // Without `--hints` the text report plans nothing else, and warns about nothing.
    let o = fgraph(&["analyze", "--max-plan-work", "200", FIXTURE]);
    assert!(!stderr(&o).contains("search-budget"), "{}", stderr(&o));
    // An allow comment before `graph` silences the report's warnings too.
    let src = std::fs::read_to_string(common::root().join(FIXTURE)).expect("fixture");
    let allowed = src.replacen(
        "graph dense",
        "// fgraph: allow(search-budget)\ngraph dense",
        1,
    );
    let p = temp_file_in("search-budget", "allowed.fgraph", &allowed);
    let p = p.to_str().expect("path");
    let report = json(&["analyze", "--format", "json", "--max-plan-work", "200", p]);
    assert!(warnings(&report).is_empty(), "{:?}", warnings(&report));
    let o = fgraph(&["analyze", "--compare", "--max-plan-work", "200", p]);
    assert!(!stderr(&o).contains("search-budget"), "{}", stderr(&o));
}

#[test]
fn a_dense_graph_reaches_the_default_bound_within_seconds() {
    // 12 layers of 80 ops, each reading the 80 tensors of the layer before (960 ops, 75,000
    // edges): `--policy store` would check each of them against hundreds of others.
    let p = temp_file_in("search-budget", "dense.fgraph", &layered(12, 80));
    let p = p.to_str().expect("path");
    let start = Instant::now();
    let o = fgraph(&["analyze", "--format", "json", "--fuser", "inductor", p]);
    let took = start.elapsed();
    let report: Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    let w = warnings(&report);
    let own = w
        .iter()
        .find(|d| {
            d["message"]
                .as_str()
                .unwrap()
                .contains("`--fuser inductor`")
        })
        .unwrap_or_else(|| panic!("{w:?}"));
    // The default bound: 2^24 units plus 8,192 per op.
    let bound = (1u64 << 24) + 8192 * 960;
    let label = own["labels"][0]["message"].as_str().unwrap();
    assert!(
        label.ends_with(&format!(
            "the bound is {}",
            fgraph::units::group_digits(bound)
        )),
        "{label}"
    );
    assert_legal(&report);
    // A debug build, with the what-if's plans: seconds, not minutes.
    assert!(took < Duration::from_secs(120), "took {took:?}");
}
