//! Explanations end to end (issue 13, item 7): the smallest change under every boundary,
//! `analyze --explain OP` and `analyze --ledger`.

use std::path::PathBuf;
use std::process::Output;

mod common;
use common::*;

fn json(o: &Output) -> serde_json::Value {
    serde_json::from_str(&stdout(o)).expect("json")
}

fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fgraph-explain-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write temp file");
    p
}

const DIAMOND: &str = "graph d {\n  input x: [64, 64]\n  op a = elementwise.relu(x) -> t\n  op b = elementwise.gelu(t) -> u\n  op c = elementwise.exp(t) -> v\n  op d = elementwise.add(u, v) -> y\n}\n";

#[test]
fn every_boundary_says_what_would_fuse_it() {
    let f = temp_file("diamond.fgraph", DIAMOND);
    let f = f.to_str().expect("utf-8");
    let o = fgraph(&["analyze", "--hints", f]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stdout(&o).contains(
            "    `t` has 2 consumers (`b` and `c`): with `--policy store` this edge fuses and \
             saves 32.8 kB (the whole plan saves 32.8 kB)\n"
        ),
        "{}",
        stdout(&o)
    );
    // Without `--hints` the human report is the seed's (SPEC §8): no hint lines.
    let plain = stdout(&fgraph(&["analyze", f]));
    assert!(
        plain.contains("boundaries (edges that stay in HBM, and why):\n"),
        "{plain}"
    );
    assert!(!plain.contains("this edge fuses"), "{plain}");
    let v = json(&fgraph(&["analyze", "--format", "json", f]));
    let b = &v["boundaries"][0];
    // The keys of SPEC §6 are still there, beside the new ones.
    assert_eq!(b["reason"], "materialized");
    assert_eq!(
        b["explanation"],
        "`t` is read by 2 ops, so it must be written to HBM anyway"
    );
    assert_eq!(b["values"]["consumers"], serde_json::json!(["b", "c"]));
    assert_eq!(b["values"]["graph_output"], false);
    let fix = &b["smallest_change"];
    assert_eq!(fix["options"], serde_json::json!(["--policy store"]));
    assert_eq!(fix["saves_bytes"], 32768);
    assert_eq!(fix["edge_saves_bytes"], 32768);
    // The change is exactly what `--policy store` reports.
    let store = json(&fgraph(&[
        "analyze", "--format", "json", "--policy", "store", f,
    ]));
    assert_eq!(fix["plan_total"], store["traffic"]["fused"]["total"]);
    assert_eq!(
        v["traffic"]["fused"]["total"].as_u64().expect("total")
            - store["traffic"]["fused"]["total"].as_u64().expect("total"),
        32768
    );
    // A matmul prologue: no option fuses it.
    let v = json(&fgraph(&[
        "analyze",
        "--format",
        "json",
        "examples/seed_mlp.fgraph",
    ]));
    let b = &v["boundaries"][0];
    assert_eq!(b["reason"], "matmul-starts-group");
    assert!(b["smallest_change"].is_null());
    assert!(
        b["hint"]
            .as_str()
            .expect("hint")
            .contains("no option fuses this edge: a matmul has no prologue")
    );
}

#[test]
fn explain_one_op() {
    let o = fgraph(&[
        "analyze",
        "--explain",
        "softmax",
        "examples/attention.fgraph",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with("op `softmax` = reduction.softmax(scaled) -> probs"),
        "{out}"
    );
    assert!(
        out.contains("kernel 2 of 3 (reduction, 1 op): softmax"),
        "{out}"
    );
    assert!(
        out.contains("edges in:\n  scale_scores → softmax via `scaled` [reduction-after-matmul]"),
        "{out}"
    );
    assert!(
        out.contains("with `--flash-attention` this edge fuses"),
        "{out}"
    );
    assert!(
        out.contains("\ntensor `probs`: written 1,073,741,824 B"),
        "{out}"
    );
    // The kernel of a fused op, with its fused edges.
    let o = fgraph(&["analyze", "--explain", "bias1", "examples/seed_mlp.fgraph"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stdout(&o).contains("matmul1 → bias1 via `y1`: fused in kernel 1"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn explain_an_unknown_op_is_a_usage_error() {
    let o = fgraph(&[
        "analyze",
        "--explain",
        "softmx",
        "examples/attention.fgraph",
    ]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("no op `softmx` in graph `attention`; did you mean `softmax`?"),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).is_empty());
    // A tensor's name points at the op that produces it.
    let o = fgraph(&["analyze", "--explain", "probs", "examples/attention.fgraph"]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("did you mean `softmax`"),
        "{}",
        stderr(&o)
    );
    // A graph with errors has no plan to explain: its diagnostics, exit 1.
    let f = temp_file(
        "bad.fgraph",
        "graph g {\n  op a = elementwise.relu(nope) -> y\n}\n",
    );
    let o = fgraph(&["analyze", "--explain", "a", f.to_str().expect("utf-8")]);
    assert_eq!(code(&o), 1);
}

#[test]
fn explain_in_json() {
    let o = fgraph(&[
        "analyze",
        "--explain",
        "relu",
        "--format",
        "json",
        "examples/seed_mlp.fgraph",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v = json(&o);
    assert_eq!(v["graph"], "seed_mlp");
    assert_eq!(v["op"]["name"], "relu");
    assert_eq!(v["kernel"]["index"], 0);
    assert_eq!(v["kernel"]["kind"], "matmul with epilogue");
    assert_eq!(
        v["kernel"]["ops"],
        serde_json::json!(["matmul1", "bias1", "relu"])
    );
    assert_eq!(v["edges_in"][0]["producer"], "bias1");
    assert_eq!(v["edges_in"][0]["fused"], true);
    let out = &v["edges_out"];
    assert_eq!(out.as_array().expect("edges").len(), 1);
    for e in out.as_array().expect("edges") {
        assert_eq!(e["fused"], false);
        assert!(e.get("smallest_change").is_some());
    }
    assert_eq!(v["tensor"]["tensor"], "y3");
    assert_eq!(v["tensor"]["why"], "boundary");
    assert_eq!(v["tensor"]["written"], 8_388_608);
    assert!(v["diagnostics"].as_array().expect("diagnostics").is_empty());
}

#[test]
fn ledger_adds_up_to_the_fused_traffic() {
    for file in [
        "examples/seed_mlp.fgraph",
        "examples/transformer_block.fgraph",
        "examples/attention.fgraph",
    ] {
        let plain = json(&fgraph(&["analyze", "--format", "json", file]));
        assert!(plain.get("ledger").is_none(), "only when asked");
        let v = json(&fgraph(&["analyze", "--ledger", "--format", "json", file]));
        let fused = &v["traffic"]["fused"];
        let l = &v["ledger"];
        assert_eq!(l["bytes_written"], fused["bytes_written"], "{file}");
        assert_eq!(l["bytes_read"], fused["bytes_read"], "{file}");
        let (mut w, mut r) = (0, 0);
        for e in l["tensors"].as_array().expect("tensors") {
            w += e["written"].as_u64().expect("written");
            r += e["reads"]
                .as_array()
                .expect("reads")
                .iter()
                .map(|x| x["bytes"].as_u64().expect("bytes"))
                .sum::<u64>();
        }
        assert_eq!(w + r, fused["total"].as_u64().expect("total"), "{file}");
        let human = stdout(&fgraph(&["analyze", "--ledger", file]));
        let total = fused["total"].as_u64().expect("total");
        let digits = total
            .to_string()
            .as_bytes()
            .rchunks(3)
            .rev()
            .map(|c| std::str::from_utf8(c).expect("ascii"))
            .collect::<Vec<_>>()
            .join(",");
        assert!(
            human.contains(&format!("= {digits} B, the fused traffic")),
            "{file}: {human}"
        );
    }
}

/// The what-if replans the graph under other options: on a long chain of diamonds, whose
/// every tensor has two readers, every boundary still gets its smallest change (how long it
/// takes is measured in docs/PERFORMANCE.md, not asserted here).
#[test]
fn the_what_if_of_a_long_chain_of_diamonds_fixes_every_boundary() {
    let n = 5_000;
    let mut src = String::from("graph dm {\n  input t0: [64, 64]\n");
    for i in 1..=n {
        src += &format!(
            "  op a{i} = elementwise.relu(t{}) -> p{i}\n  op b{i} = elementwise.exp(p{i}) -> q{i}\n  op c{i} = elementwise.neg(p{i}) -> r{i}\n  op d{i} = elementwise.add(q{i}, r{i}) -> t{i}\n",
            i - 1
        );
    }
    src += "}\n";
    let r = fgraph::check_file("dm.fgraph", src.as_bytes(), &fgraph::Options::default());
    let a = r.graphs[0].analysis.as_ref().expect("analysis");
    let w = fgraph::report::hints(a);
    assert_eq!(w.hints.len(), 2 * n);
    assert!(w.hints.iter().all(|h| h.fix.is_some()));
}
