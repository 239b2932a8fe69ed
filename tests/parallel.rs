//! Sharding with `parallel` sections (issue 25 items 3 and 4): the examples' per-GPU numbers
//! worked out by hand, the inserted collectives and their bytes and times, the diagnostics of
//! what cannot be sharded, `fmt`, and two properties: a plan of size 1 changes no number, and
//! a divided weight's per-GPU bytes times the group's size are its written bytes.

mod common;

use fgraph::analysis::{Analysis, FileReport};
use fgraph::cost::op_flops;
use fgraph::graph::Origin;
use fgraph::types::OpKind;
use fgraph::{Code, Options, check_file};
use proptest::prelude::*;

fn check(name: &str, src: &str, opts: &Options) -> FileReport {
    check_file(name, src.as_bytes(), opts)
}

fn example(name: &str) -> String {
    std::fs::read_to_string(common::root().join("examples").join(name)).expect("example")
}

fn analysis_with(name: &str, opts: &Options) -> Analysis {
    let path = common::root().join("examples").join(name);
    let bytes = std::fs::read(&path).expect("example");
    let r = check_file(&path.to_string_lossy(), &bytes, opts);
    assert!(r.diagnostics.is_empty(), "{:#?}", r.diagnostics);
    r.graphs[0].analysis.clone().expect("analysis")
}

fn analysis(name: &str) -> Analysis {
    analysis_with(name, &Options::default())
}

/// The inserted ops of `kind`, with their input bytes.
fn inserted(a: &Analysis, kind: OpKind) -> Vec<(String, u64)> {
    a.graph
        .ops
        .iter()
        .filter(|op| op.kind == kind && op.name.contains('+'))
        .map(|op| {
            let bytes = op
                .inputs
                .first()
                .map_or(a.graph.tensor(op.output).bytes, |u| {
                    a.graph.tensor(u.tensor).bytes
                });
            (op.name.to_string(), bytes)
        })
        .collect()
}

fn matmul_flops(a: &Analysis) -> u64 {
    (0..a.graph.ops.len())
        .map(|o| fgraph::OpId(o as u32))
        .filter(|&o| a.graph.op(o).kind == OpKind::Matmul)
        .map(|o| op_flops(&a.graph, o).0)
        .sum()
}

fn json(args: &[&str]) -> serde_json::Value {
    let out = common::fgraph(args);
    assert_eq!(common::code(&out), 0, "{}", common::stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&common::stdout(&out)).expect("json");
    match v.get("graphs") {
        Some(g) => g[0].clone(),
        None => v,
    }
}

#[test]
fn llama3_70b_tp8_prefill_per_gpu_by_hand() {
    let a = analysis("llama3_70b_tp8.fgraph");
    let p = a.parallel.as_ref().expect("sharded");
    assert_eq!(p.world, 8);
    // A layer: 2 norms 16,384 whole; wq, wo 8192·8192/8 = 8,388,608 each; wk, wv
    // 8192·1024/8 = 1,048,576 each; w_gate, w_up, w_down 8192·28672/8 = 29,360,128 each:
    // 106,971,136; 80 of them 8,557,690,880; embedding and LM head 128256·8192/8 =
    // 131,334,144 each; final norm 8,192.
    assert_eq!(p.params.per_gpu, 8_557_690_880 + 2 * 131_334_144 + 8_192);
    assert_eq!(p.params.per_gpu, 8_820_367_360);
    assert_eq!(p.params.model, 70_553_706_496);
    // Over 8 GPUs: the 161 norms (8,192 each) on every GPU, 7 extra copies.
    assert_eq!(p.params.group, 70_553_706_496 + 161 * 8_192 * 7);
    assert_eq!(p.weights.per_gpu, 2 * 8_820_367_360);
    let weights: u64 = a
        .graph
        .tensors
        .iter()
        .filter(|t| t.origin == Origin::Weight)
        .map(|t| t.bytes)
        .sum();
    assert_eq!(weights, p.weights.per_gpu, "the graph is the per-GPU one");
    // 2 all-reduces a layer and the embedding's, each of [2048, 8192] bf16 = 33,554,432 B.
    let ars = inserted(&a, OpKind::AllReduce);
    assert_eq!(ars.len(), 161);
    assert!(ars.iter().all(|(_, b)| *b == 33_554_432));
    assert_eq!(ars[0].0, "embed+all_reduce");
    assert!(ars.iter().any(|(n, _)| n == "layers.0.o_proj+all_reduce"));
    assert!(
        ars.iter()
            .any(|(n, _)| n == "layers.79.mlp.down+all_reduce")
    );
    assert_eq!(p.inserted.len(), 1);
    assert_eq!(
        (p.inserted[0].count, p.inserted[0].bytes),
        (161, 161 * 33_554_432)
    );
    // Matmul FLOPs per layer and GPU (S = 2048): q and o 2·2048·8192·1024 = 34,359,738,368
    // each; k and v 2·2048·8192·128 = 4,294,967,296 each; gate, up, down 2·2048·8192·3584 =
    // 120,259,084,288 each: 438,086,664,192. LM head 2·2048·8192·16032 = 537,944,653,824.
    assert_eq!(matmul_flops(&a), 80 * 438_086_664_192 + 537_944_653_824);
    // The logits stay this GPU's 16,032 columns.
    assert_eq!(
        a.graph
            .tensors
            .iter()
            .find(|t| t.name == "out")
            .unwrap()
            .shape
            .to_vec(),
        vec![2048, 16032]
    );
}

#[test]
fn llama3_70b_tp8_decode_communication_per_collective_and_in_total() {
    let a = analysis("llama3_70b_tp8_decode.fgraph");
    let p = a.parallel.as_ref().expect("sharded");
    assert_eq!(p.params.per_gpu, 8_820_367_360);
    // KV cache: per layer 2 · 1 head · 4097 · 128 · 2 B = 2,097,664 B; 80 layers.
    assert_eq!(p.state.per_gpu, 80 * 2_097_664);
    assert_eq!(p.state.model, 8 * 80 * 2_097_664);
    let ars = inserted(&a, OpKind::AllReduce);
    assert_eq!(ars.len(), 161);
    assert!(
        ars.iter().all(|(_, b)| *b == 16_384),
        "one [1, 8192] bf16 row"
    );
    let path = common::root().join("examples/llama3_70b_tp8_decode.fgraph");
    let path = path.to_string_lossy();
    for model in ["compulsory", "hardware"] {
        let g = json(&[
            "analyze",
            "--format",
            "json",
            "--traffic-model",
            model,
            &path,
        ]);
        let c = &g["cost"]["communication"];
        assert_eq!(c["collectives"], 161, "{model}");
        // Each: NVLink SHARP on the fitted h100 preset, 9/8 · 16,384 = 18,432 B in one NVLS
        // operation: 23 µs + 18,432 B / (450 GB/s · 0.74) = 23.0554 µs (a ring: 29.5059 µs,
        // 11.47 + 14 · 1.226 µs of latency; tests/collectives.rs derives both).
        let by_op = c["by_op"].as_array().expect("by_op");
        assert_eq!(by_op.len(), 161);
        for o in by_op {
            assert!(o["op"].as_str().unwrap().ends_with("+all_reduce"));
            assert_eq!(o["bytes_sent"], 18_432);
            assert_eq!(o["algorithm"], "nvls");
            assert!(
                (o["time_us"].as_f64().unwrap() - 23.0554).abs() < 1e-3,
                "{o}"
            );
        }
        let total = c["time_us"].as_f64().unwrap();
        assert!((total - 161.0 * 23.0554).abs() < 0.05, "{total}");
        assert!((c["split"]["communication_us"].as_f64().unwrap() - total).abs() < 1e-6);
        // The inserted collectives are among the ops, with their function.
        let ops = g["ops"].as_array().unwrap();
        let n = ops
            .iter()
            .filter(|o| o["kind"] == "all_reduce" && o["name"].as_str().unwrap().contains('+'))
            .count();
        assert_eq!(n, 161);
        assert_eq!(g["parallel"]["world"], 8);
        assert_eq!(g["parallel"]["params"]["per_gpu"], 8_820_367_360u64);
    }
}

#[test]
fn mixtral_expert_parallel_8_by_hand() {
    let a = analysis("mixtral_8x7b_ep8.fgraph");
    let p = a.parallel.as_ref().expect("sharded");
    // One expert 3 · 4096 · 14336 = 176,160,768; attention 2 · 4096² + 2 · 4096 · 1024 =
    // 41,943,040; router 32,768; two norms 8,192.
    assert_eq!(p.params.per_gpu, 176_160_768 + 41_943_040 + 32_768 + 8_192);
    assert_eq!(
        p.params.model,
        8 * 176_160_768 + 41_943_040 + 32_768 + 8_192
    );
    let a2a = inserted(&a, OpKind::AllToAll);
    assert_eq!(
        a2a,
        vec![
            ("xe+all_to_all".to_string(), 67_108_864),
            ("ye+all_to_all".to_string(), 67_108_864)
        ]
    );
    let shape = |n: &str| {
        a.graph
            .tensors
            .iter()
            .find(|t| t.name == n)
            .unwrap()
            .shape
            .to_vec()
    };
    assert_eq!(shape("xe+all_to_all"), vec![1, 8192, 4096]);
    assert_eq!(shape("ye+all_to_all"), vec![8, 1024, 4096]);
    assert_eq!(shape("w1"), vec![1, 4096, 14336]);
    // The experts' FLOPs: 8192 rows · 3 · 2 · 4096 · 14336 on this GPU's one expert.
    let experts: u64 = ["gate", "up", "down"]
        .iter()
        .map(|n| {
            let o = (0..a.graph.ops.len())
                .find(|&o| a.graph.ops[o].name == *n)
                .unwrap();
            op_flops(&a.graph, fgraph::OpId(o as u32)).0
        })
        .sum();
    assert_eq!(experts, 2_886_218_022_912);
}

#[test]
fn llama3_8b_tensor_8_pipeline_2_on_two_nodes() {
    let stage = |s: i64| {
        let mut o = Options::default();
        o.overrides.insert("STAGE".into(), s);
        analysis_with("llama3_8b_tp8_pp2.fgraph", &o)
    };
    let (a0, a1) = (stage(0), stage(1));
    let (p0, p1) = (a0.parallel.clone().unwrap(), a1.parallel.clone().unwrap());
    assert_eq!(p0.world, 16);
    // A layer: 8,192 + 2 · 2,097,152 + 2 · 524,288 + 3 · 7,340,032 = 27,271,168.
    assert_eq!(p0.params.per_gpu, 16 * 27_271_168 + 65_667_072);
    assert_eq!(p1.params.per_gpu, 16 * 27_271_168 + 65_667_072 + 4_096);
    assert_eq!(p0.params.model, 8_030_261_248);
    assert_eq!(p0.params.group, 8 * (p0.params.per_gpu + p1.params.per_gpu));
    assert_eq!(p1.params.group, p0.params.group);
    assert_eq!(inserted(&a0, OpKind::AllReduce).len(), 33);
    assert_eq!(inserted(&a1, OpKind::AllReduce).len(), 32);
    // The hidden state [4096, 4096] bf16 crosses between the stages.
    assert_eq!(
        inserted(&a0, OpKind::Send),
        vec![("layers.15.y+send".to_string(), 33_554_432)]
    );
    assert_eq!(
        inserted(&a1, OpKind::Recv),
        vec![("layers.15.y+recv".to_string(), 33_554_432)]
    );
    assert!(inserted(&a1, OpKind::Send).is_empty());
    let stride = |a: &Analysis, k: OpKind| {
        a.graph
            .ops
            .iter()
            .find(|o| o.kind == k)
            .unwrap()
            .int_attr("stride")
    };
    assert_eq!(stride(&a0, OpKind::Send), Some(8), "pp spans the nodes");
    assert_eq!(
        stride(&a0, OpKind::AllReduce),
        Some(1),
        "tp stays in a node"
    );
    // On two nodes of 8 the send goes over the network.
    let path = common::root().join("examples/llama3_8b_tp8_pp2.fgraph");
    let g = json(&[
        "analyze",
        "--format",
        "json",
        "--hardware",
        "h100-2x8",
        &path.to_string_lossy(),
    ]);
    let by_op = g["cost"]["communication"]["by_op"].as_array().unwrap();
    let send = by_op.iter().find(|o| o["kind"] == "send").unwrap();
    assert_eq!(send["nodes"], 2);
    let ar = by_op.iter().find(|o| o["kind"] == "all_reduce").unwrap();
    assert_eq!(ar["nodes"], 1);
}

// ---- diagnostics ---------------------------------------------------------------------------

const MLP: &str = "graph g {
  param T = 16
  param H = 64
  param F = 256
  param N = 8
  dtype bf16
  SECTION
  input x: [T, H]
  weight w_up: [H, F]
  weight w_down: [F, H]
  op up = matmul(x, w_up) -> u
  op act = elementwise.gelu(u) -> a
  op down = matmul(a, w_down) -> d
  op res = elementwise.add(d, x) -> out
  output out
}
";

fn mlp(section: &str) -> String {
    MLP.replace("SECTION", section)
}

fn codes(src: &str) -> Vec<(Code, String)> {
    check("t.fgraph", src, &Options::default())
        .diagnostics
        .iter()
        .map(|d| (d.code, d.message.clone()))
        .collect()
}

#[test]
fn what_cannot_be_sharded_is_a_diagnostic() {
    let cases = [
        // A dimension the group does not divide.
        (
            "parallel tensor tp = 3 {\n    column w_up\n    row w_down\n  }",
            Code::ShapeMismatch,
            "but 3 does not divide 256",
        ),
        // A weight that does not exist.
        (
            "parallel tensor tp = N {\n    column w_gate\n    row w_down\n  }",
            Code::UndefinedTensor,
            "`w_gate` names no weight",
        ),
        // A role the kind does not have.
        (
            "parallel tensor tp = N {\n    experts w_up\n  }",
            Code::BadAttribute,
            "has no `experts`",
        ),
        (
            "parallel data dp = N {\n  }",
            Code::BadAttribute,
            "unknown parallelism `data`",
        ),
        // A row-parallel weight after an unsplit input.
        (
            "parallel tensor tp = N {\n    row w_down\n  }",
            Code::ShapeMismatch,
            "divides the contraction axis of one operand only",
        ),
        // An input is not a weight.
        (
            "parallel tensor tp = N {\n    column x\n  }",
            Code::BadAttribute,
            "not a weight",
        ),
        (
            "parallel tensor tp = 0 {\n  }",
            Code::BadAttribute,
            "has size 0",
        ),
    ];
    for (section, code, text) in cases {
        let got = codes(&mlp(section));
        assert!(
            got.iter().any(|(c, m)| *c == code && m.contains(text)),
            "{section}: {got:#?}"
        );
    }
}

#[test]
fn a_reshape_that_would_break_is_a_shape_mismatch() {
    // 4 heads over 8 GPUs: the [T, 256] projection divides, its [T, 4, 64] heads do not.
    let src = "graph g {
  dtype bf16
  parallel tensor tp = 8 {
    column wq
  }
  input x: [16, 64]
  weight wq: [64, 256]
  op q = matmul(x, wq) -> y
  op heads = reshape(y) -> h: [16, 4, 64]
  output h
}
";
    let got = codes(src);
    assert!(
        got.iter()
            .any(|(c, m)| *c == Code::ShapeMismatch && m.contains("would break the sharding")),
        "{got:#?}"
    );
}

#[test]
fn a_block_holds_no_parallel_section() {
    let src = "block b() {
  parallel tensor tp = 2 {
    column w
  }
  input x: [4, 4]
  weight w: [4, 4]
  op m = matmul(x, w) -> y
  output y
}
graph g {
  input x: [4, 4]
  op i = b(x) -> y
  output y
}
";
    let got = codes(src);
    assert!(
        got.iter()
            .any(|(c, m)| *c == Code::BadBlock && m.contains("has a parallel section")),
        "{got:#?}"
    );
}

#[test]
fn fmt_lays_out_a_section_with_its_comments() {
    let src = "graph g {\n  parallel   tensor tp=2*4 { // eight GPUs\n column a,b // first\n  // own line\n row c\n stage=1 }\n}\n";
    let want = "graph g {\n  parallel tensor tp = 2 * 4 { // eight GPUs\n    column a, b // first\n    // own line\n    row c\n    stage = 1\n  }\n}\n";
    let got = fgraph::format::format_source(src).expect("parses");
    assert_eq!(got, want);
    assert_eq!(fgraph::format::format_source(want).unwrap(), want);
    for f in [
        "llama3_70b_tp8.fgraph",
        "llama3_70b_tp8_decode.fgraph",
        "mixtral_8x7b_ep8.fgraph",
        "llama3_8b_tp8_pp2.fgraph",
    ] {
        let text = example(f);
        assert_eq!(fgraph::format::format_source(&text).unwrap(), text, "{f}");
    }
}

// ---- properties ----------------------------------------------------------------------------

/// Every number a report shows of a graph, in order.
type Numbers = (Vec<(String, Vec<u64>, u64)>, Vec<String>, u64, u64, u64);

fn numbers(a: &Analysis) -> Numbers {
    let g = &a.graph;
    let mut tensors: Vec<_> = g
        .tensors
        .iter()
        .map(|t| (t.name.to_string(), t.shape.to_vec(), t.bytes))
        .collect();
    // Made in the order ops first read them: the same set.
    tensors.sort();
    (
        tensors,
        g.ops.iter().map(|o| o.name.to_string()).collect(),
        (0..g.ops.len())
            .map(|o| op_flops(g, fgraph::OpId(o as u32)).0)
            .sum(),
        a.traffic.fused.total,
        a.plan.groups.len() as u64,
    )
}

/// The file without its `parallel` sections.
fn unsharded(src: &str) -> String {
    let mut out = String::new();
    let mut skip = false;
    for line in src.lines() {
        if line.trim_start().starts_with("parallel ") {
            skip = true;
        }
        if !skip {
            out += line;
            out.push('\n');
        }
        if skip && line.trim() == "}" {
            skip = false;
        }
    }
    out
}

#[test]
fn world_size_one_changes_no_number() {
    for (f, sets) in [
        ("llama3_70b_tp8_decode.fgraph", vec![("TP", 1)]),
        ("mixtral_8x7b_ep8.fgraph", vec![("EP", 1), ("S", 512)]),
        (
            "llama3_8b_tp8_pp2.fgraph",
            vec![("TP", 1), ("PP", 1), ("S", 256)],
        ),
    ] {
        let mut o = Options::default();
        for (k, v) in sets {
            o.overrides.insert(k.into(), v);
        }
        let text = example(f);
        let path = common::root().join("examples").join(f);
        let path = path.to_string_lossy();
        let sharded = check(&path, &text, &o);
        let plain = check(&path, &unsharded(&text), &o);
        assert!(
            sharded.diagnostics.is_empty(),
            "{f}: {:#?}",
            sharded.diagnostics
        );
        let (a, b) = (
            sharded.graphs[0].analysis.as_ref().unwrap(),
            plain.graphs[0].analysis.as_ref().unwrap(),
        );
        assert!(a.parallel.is_some() && b.parallel.is_none());
        let (x, y) = (numbers(a), numbers(b));
        assert!(x.0 == y.0, "{f}: tensors differ");
        assert!(x.1 == y.1, "{f}: ops differ");
        assert_eq!(
            (x.2, x.3, x.4),
            (y.2, y.3, y.4),
            "{f}: FLOPs, traffic, kernels"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// At world size N, each divided weight holds 1/N of its written bytes on one GPU, and
    /// the collectives inserted are one all-reduce per row-parallel matmul.
    #[test]
    fn divided_weights_times_n_are_the_written_ones(
        n in prop::sample::select(vec![1u64, 2, 4, 8]),
        t in 1u64..5,
        h in 1u64..5,
        f in 1u64..5,
    ) {
        let (t, h, f) = (t * 3, h * 8, f * 8);
        let src = MLP
            .replace("param T = 16", &format!("param T = {t}"))
            .replace("param H = 64", &format!("param H = {h}"))
            .replace("param F = 256", &format!("param F = {f}"))
            .replace("param N = 8", &format!("param N = {n}"))
            .replace("SECTION", "parallel tensor tp = N {\n    column w_up\n    row w_down\n  }");
        let r = check("t.fgraph", &src, &Options::default());
        prop_assert!(!r.has_errors(), "{:?}", r.diagnostics);
        let a = r.graphs[0].analysis.as_ref().unwrap();
        let p = a.parallel.as_ref().unwrap();
        let written = 2 * h * f * 2; // two [h, f] bf16 weights
        let per_gpu: u64 = a.graph.tensors.iter()
            .filter(|t| t.origin == Origin::Weight)
            .map(|t| t.bytes)
            .sum();
        prop_assert_eq!(per_gpu * n, written);
        prop_assert_eq!(p.weights.per_gpu * n, p.weights.model);
        for s in &p.sharded {
            let shard: u64 = s.shape.iter().product();
            prop_assert_eq!(shard * n, h * f);
        }
        let ars = inserted(a, OpKind::AllReduce).len();
        prop_assert_eq!(ars, usize::from(n > 1));
    }
}

#[test]
fn the_language_server_hovers_a_section() {
    let src = mlp("parallel tensor tp = N {\n    column w_up\n    row w_down\n  }");
    let m = fgraph::lsp::ide::FileModel::new(
        "t.fgraph",
        &src,
        Options::default(),
        fgraph::Hardware::preset("h100").unwrap(),
    );
    let at = |w: &str, nth: usize| src.match_indices(w).nth(nth).unwrap().0 + 1;
    let (_, kind) = m.hover(at("tensor", 0)).expect("kind");
    assert!(
        kind.contains("**parallel** `tensor` over group `tp`"),
        "{kind}"
    );
    assert!(kind.contains("inserted: 1 `all_reduce`"), "{kind}");
    let (_, role) = m.hover(at("row", 0)).expect("role");
    assert!(role.contains("row-parallel"), "{role}");
    // `w_up` under `column`: this GPU's shard.
    let (_, name) = m.hover(at("w_up", 0)).expect("name");
    assert!(name.contains("`w_up` is [64, 32]"), "{name}");
    let (_, graph) = m.hover(at("g {", 0) - 1).expect("graph");
    assert!(graph.contains("one GPU of 8 (tensor `tp` of 8)"), "{graph}");
    // The section's errors reach the editor as diagnostics.
    let bad = mlp("parallel tensor tp = 3 {\n    column w_up\n  }");
    let m = fgraph::lsp::ide::FileModel::new(
        "t.fgraph",
        &bad,
        Options::default(),
        fgraph::Hardware::preset("h100").unwrap(),
    );
    assert!(
        m.report
            .diagnostics
            .iter()
            .any(|d| d.code == Code::ShapeMismatch)
    );
}

#[test]
fn sequence_parallelism_reduce_scatters_and_gathers_as_megatron() {
    // The 70B prefill with `sequence = 0`: each all-reduce becomes a reduce-scatter of the
    // sequence axis, and the norms and residual adds run on S / 8 = 256 rows; the rows are
    // all-gathered before the column-parallel projections (once for q, k, v; once for gate
    // and up) and before the LM head.
    let text = example("llama3_70b_tp8.fgraph").replace(
        "    vocab tok_emb, lm_head\n",
        "    vocab tok_emb, lm_head\n    sequence = 0\n",
    );
    let path = common::root().join("examples/llama3_70b_tp8.fgraph");
    let r = check(&path.to_string_lossy(), &text, &Options::default());
    assert!(r.diagnostics.is_empty(), "{:#?}", r.diagnostics);
    let a = r.graphs[0].analysis.as_ref().unwrap();
    assert!(inserted(a, OpKind::AllReduce).is_empty());
    let rs = inserted(a, OpKind::ReduceScatter);
    assert_eq!(rs.len(), 161);
    assert!(
        rs.iter().all(|(_, b)| *b == 33_554_432),
        "the whole partial sum"
    );
    let ag = inserted(a, OpKind::AllGather);
    assert_eq!(ag.len(), 161);
    assert!(ag.iter().all(|(_, b)| *b == 4_194_304), "[256, 8192] bf16");
    assert!(ag.iter().any(|(n, _)| n == "layers.0.xn+all_gather"));
    assert!(ag.iter().any(|(n, _)| n == "hn+all_gather"));
    let shape = |n: &str| {
        a.graph
            .tensors
            .iter()
            .find(|t| t.name == n)
            .unwrap()
            .shape
            .to_vec()
    };
    assert_eq!(shape("layers.0.xn"), vec![256, 8192]);
    assert_eq!(shape("layers.0.h"), vec![256, 8192]);
    assert_eq!(shape("layers.0.xn+all_gather"), vec![2048, 8192]);
    assert_eq!(a.parallel.as_ref().unwrap().params.per_gpu, 8_820_367_360);
    // A sequence the group does not divide.
    let bad =
        mlp("parallel tensor tp = N {\n    column w_up\n    row w_down\n    sequence = 0\n  }")
            .replace("param T = 16", "param T = 12");
    let got = codes(&bad);
    assert!(
        got.iter()
            .any(|(c, m)| *c == Code::ShapeMismatch && m.contains("sequence parallelism")),
        "{got:#?}"
    );
}

#[test]
fn block_instances_follow_the_per_gpu_graph() {
    // The summary's rows count each instance's ops in the per-GPU graph: a decoder layer of
    // Llama-3-8B has 36 written ops, and its two inserted all-reduces are its own.
    let mut o = Options::default();
    o.overrides.insert("STAGE".into(), 1);
    let path = common::root().join("examples/llama3_8b_tp8_pp2.fgraph");
    let r = check_file(&path.to_string_lossy(), &std::fs::read(&path).unwrap(), &o);
    let g = &r.graphs[0];
    let a = g.analysis.as_ref().unwrap();
    let s = fgraph::report::summary::summarize(a, &g.instances, None).expect("summary");
    let row = |n: &str| s.instances.iter().find(|r| r.name == n).unwrap();
    // Stage 1 runs none of layers 0-15; layers.16 also holds the recv of its input.
    assert_eq!((row("layers.0").ops, row("layers.0").kernels), (0, 0));
    assert_eq!(row("layers.16").ops, 36 + 2 + 1);
    assert_eq!(row("layers.17").ops, 36 + 2);
    for i in &g.instances {
        for o in i.ops.clone() {
            assert!(
                a.graph.ops[o].name.starts_with(&format!("{}.", i.path))
                    || a.graph.ops[o].name.contains('+'),
                "{} in {}",
                a.graph.ops[o].name,
                i.path
            );
        }
    }
}

#[test]
fn hostile_sections_are_diagnostics_not_panics() {
    let cases = [
        "parallel tensor tp = 1048576 {\n    column w_up\n    row w_down\n  }",
        "parallel tensor tp = 99999999999 {\n  }",
        "parallel tensor tp = N {\n    column w_up\n    row w_down\n    sequence = 15\n  }",
        "parallel tensor tp = N {\n    sequence = -1\n  }",
        "parallel pipeline pp = 2 {\n    stage = 5\n  }",
        "parallel pipeline pp = 2 {\n    layers nothing\n  }",
        "parallel expert ep = 2 {\n    experts w_up\n  }",
        "parallel tensor tp = N {\n    column w_up, w_up\n  }",
        "parallel tensor tp = N {\n  }\n  parallel tensor tq = N {\n  }",
        "parallel tensor tp = UNDEFINED {\n  }",
        "parallel tensor tp = N {\n    cache w_up\n  }",
        "parallel tensor tp = N {\n    vocab w_up\n    column w_down\n  }",
    ];
    for section in cases {
        let src = mlp(section);
        let r = check("t.fgraph", &src, &Options::default());
        assert!(r.has_errors(), "{section}: {:#?}", r.diagnostics);
        for d in &r.diagnostics {
            assert!(d.primary.is_some(), "{section}: {d:?}");
        }
    }
    // Many names under one role, and a section with only comments, check in linear time.
    let names: Vec<String> = (0..20_000).map(|i| format!("w{i}")).collect();
    let src = mlp(&format!(
        "parallel tensor tp = N {{\n    column {}\n  }}",
        names.join(", ")
    ));
    let r = check("t.fgraph", &src, &Options::default());
    let undefined = r
        .diagnostics
        .iter()
        .filter(|d| d.code == Code::UndefinedTensor)
        .count();
    assert!(undefined > 0);
}

#[test]
fn an_imported_block_holds_no_parallel_section_either() {
    let dir = common::temp_dir("parallel-import");
    std::fs::write(
        dir.join("lib.fgraph"),
        "block b() {\n  parallel tensor tp = 2 {\n    column w\n  }\n  input x: [4, 4]\n  \
         weight w: [4, 4]\n  op m = matmul(x, w) -> y\n  output y\n}\n",
    )
    .unwrap();
    let main = dir.join("main.fgraph");
    let src =
        "import \"lib.fgraph\"\ngraph g {\n  input x: [4, 4]\n  op i = b(x) -> y\n  output y\n}\n";
    std::fs::write(&main, src).unwrap();
    let r = check_file(&main.to_string_lossy(), src.as_bytes(), &Options::default());
    let d = r
        .diagnostics
        .iter()
        .find(|d| d.code == Code::BadBlock)
        .unwrap_or_else(|| panic!("{:#?}", r.diagnostics));
    // Reported where the file imports it, as every problem of an imported file is.
    assert!(d.message.contains("has a parallel section"), "{d:?}");
}
