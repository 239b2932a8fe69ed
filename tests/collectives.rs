//! The collectives (issue 25): shape rules, FLOPs and bytes by hand, fusion (a kernel of its
//! own), name attributes in blocks and the library API, `fmt`.

use fgraph::cost::op_flops;
use fgraph::{Analysis, Code, Options, check_file};

fn analysis(src: &str) -> Analysis {
    let report = check_file("t.fgraph", src.as_bytes(), &Options::default());
    assert!(
        report.diagnostics.is_empty(),
        "{src}\n{:?}",
        report.diagnostics
    );
    report.graphs[0].analysis.clone().expect("analysis")
}

fn codes(src: &str) -> Vec<Code> {
    let report = check_file("t.fgraph", src.as_bytes(), &Options::default());
    report.diagnostics.iter().map(|d| d.code).collect()
}

fn graph(body: &str) -> String {
    format!("graph g {{\n  dtype bf16\n{body}\n}}\n")
}

fn shape_of(a: &Analysis, name: &str) -> Vec<u64> {
    let t = a
        .graph
        .tensors
        .iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("no tensor {name}"));
    t.shape.to_vec()
}

fn op_named(a: &Analysis, name: &str) -> fgraph::graph::OpId {
    a.graph
        .topo
        .iter()
        .copied()
        .find(|&o| a.graph.op(o).name == name)
        .unwrap_or_else(|| panic!("no op {name}"))
}

/// Groups as op names, in order.
fn groups(a: &Analysis) -> Vec<Vec<String>> {
    a.plan
        .groups
        .iter()
        .map(|grp| {
            grp.ops
                .iter()
                .map(|&o| a.graph.op(o).name.to_string())
                .collect()
        })
        .collect()
}

// ---- shapes --------------------------------------------------------------------------------

#[test]
fn shapes_per_gpu() {
    let a = analysis(&graph(
        "  input x: [64, 512]
  op ar = all_reduce(x, group = tp, size = 8) -> a
  op ag = all_gather(x, group = tp, size = 8) -> b
  op ag1 = all_gather(x, group = tp, size = 8, axis = -1) -> b1
  op rs = reduce_scatter(x, group = tp, size = 8) -> c
  op rs1 = reduce_scatter(x, group = tp, size = 8, axis = 1) -> c1
  op ex = all_to_all(x, group = ep, size = 4) -> d
  op ul = all_to_all(x, group = sp, size = 4, split_axis = 1, concat_axis = 0) -> d1
  op bc = broadcast(x, group = dp, size = 2, root = 1, stride = 8) -> e
  op tx = send(x, group = pp, size = 2, peer = 1) -> f
  op rx = recv(group = pp, size = 2, peer = 0) -> h: [3, 5]
  op rx32 = recv(group = pp, size = 2) -> h32: f32[3, 5]",
    ));
    for (t, s) in [
        ("a", vec![64, 512]),
        ("b", vec![512, 512]),
        ("b1", vec![64, 4096]),
        ("c", vec![8, 512]),
        ("c1", vec![64, 64]),
        ("d", vec![64, 512]),
        ("d1", vec![256, 128]),
        ("e", vec![64, 512]),
        ("f", vec![64, 512]),
        ("h", vec![3, 5]),
    ] {
        assert_eq!(shape_of(&a, t), s, "{t}");
    }
    // A recv's dtype: declared, else the `dtype` in force.
    let dtype = |n: &str| {
        a.graph
            .tensors
            .iter()
            .find(|t| t.name == n)
            .expect("tensor")
            .dtype
    };
    assert_eq!(dtype("h"), fgraph::Dtype::Bf16);
    assert_eq!(dtype("h32"), fgraph::Dtype::F32);
    // A declared shape is checked against the inferred one.
    assert_eq!(
        codes(&graph(
            "  input x: [64, 512]\n  op ag = all_gather(x, group = tp, size = 8) -> b: [64, 512]"
        )),
        [Code::ShapeMismatch]
    );
}

#[test]
fn bad_collectives_are_reported_each() {
    // The group size does not divide the scattered axis, nor the all-to-all's split one.
    assert_eq!(
        codes(&graph(
            "  input x: [12, 20]\n  op rs = reduce_scatter(x, group = tp, size = 8) -> r"
        )),
        [Code::ShapeMismatch]
    );
    assert_eq!(
        codes(&graph(
            "  input x: [12, 20]\n  op q = all_to_all(x, group = ep, size = 8, split_axis = 1) -> q"
        )),
        [Code::ShapeMismatch]
    );
    // A group that is not a name, a missing size, an unknown algorithm, tree for a gather.
    for body in [
        "op a = all_reduce(x, group = 8, size = 8) -> y",
        "op a = all_reduce(x, group = true, size = 8) -> y",
        "op a = all_reduce(x, group = tp) -> y",
        "op a = all_reduce(x, size = 8) -> y",
        "op a = all_reduce(x, group = tp, size = 0) -> y",
        "op a = all_reduce(x, group = tp, size = 8, algorithm = fast) -> y",
        "op a = all_gather(x, group = tp, size = 8, algorithm = tree) -> y",
        "op a = all_reduce(x, group = tp, size = 8, reduce = mean) -> y",
        "op a = all_reduce(x, group = tp, size = 8, axis = 0) -> y",
        "op a = broadcast(x, group = tp, size = 8, root = 8) -> y",
        "op a = send(x, group = pp, size = 2, peer = 2) -> y",
        "op a = all_gather(x, group = tp, size = 8, axis = 2) -> y",
    ] {
        let src = graph(&format!("  input x: [16, 16]\n  {body}"));
        assert_eq!(codes(&src), [Code::BadAttribute], "{body}");
    }
    // A function, a recv with a tensor, a recv without a shape.
    let src = graph("  input x: [16, 16]\n  op a = all_reduce.sum(x, group = tp, size = 8) -> y");
    assert_eq!(codes(&src), [Code::UnknownFunction]);
    let src = graph("  input x: [16, 16]\n  op a = recv(x, group = pp, size = 2) -> y: [2]");
    assert_eq!(codes(&src), [Code::Arity]);
    let src = graph("  op a = recv(group = pp, size = 2) -> y");
    assert_eq!(codes(&src), [Code::MissingShape]);
    // One group, two sizes (or strides): at the second.
    let src = graph(
        "  input x: [16, 16]
  op a = all_reduce(x, group = tp, size = 8) -> y
  op b = all_reduce(y, group = tp, size = 4) -> z
  op c = all_reduce(z, group = dp, size = 2) -> w",
    );
    assert_eq!(codes(&src), [Code::BadAttribute]);
}

#[test]
fn a_group_name_is_no_param_and_blocks_keep_it() {
    // `param tp` beside `group = tp` changes nothing; in a block the name is not renamed, so
    // every instance runs over the same group (the group check sees one size).
    let src = "block layer(S, H = 64, TP = 8) {
  dtype bf16
  input x: [S, H]
  weight w: [H, H]
  op mm = matmul(x, w) -> y
  op ar = all_reduce(y, group = tp, size = TP) -> z
  output z
}
graph g {
  param tp = 3
  dtype bf16
  input x: [16, 64]
  repeat 3 layers = layer(x, S = 16) -> out
  op last = all_gather(out, group = tp, size = 8, axis = 1) -> o
  output o
}
";
    let a = analysis(src);
    let names: Vec<String> = a
        .graph
        .ops
        .iter()
        .filter(|o| o.kind.is_collective())
        .map(|o| o.name_attr("group").expect("group").to_string())
        .collect();
    assert_eq!(names, ["tp", "tp", "tp", "tp"]);
    assert_eq!(shape_of(&a, "o"), [16, 512]);
    // A different size in one instance's group is caught across the instances.
    let bad = src.replace(
        "repeat 3 layers = layer(x, S = 16)",
        "repeat 3 layers = layer(x, S = 16, TP = 4)",
    );
    assert_eq!(codes(&bad), [Code::BadAttribute]);
}

#[test]
fn fmt_keeps_the_collectives() {
    let src = "graph g {\n  dtype bf16\n  input x: [16, 64]\n  op ar = all_reduce(x,group=tp,size=8,algorithm=nvls,reduce=avg) -> y\n  op rx = recv(group = pp, size = 2, peer = 0) -> h: [2, 2]\n  output y, h\n}\n";
    let out = fgraph::format::format_source(src).expect("formats");
    assert!(
        out.contains(
            "op ar = all_reduce(x, group = tp, size = 8, algorithm = nvls, reduce = avg) -> y\n"
        ),
        "{out}"
    );
    assert!(
        out.contains("op rx = recv(group = pp, size = 2, peer = 0) -> h: [2, 2]\n"),
        "{out}"
    );
    assert_eq!(fgraph::format::format_source(&out).expect("again"), out);
}

#[test]
fn the_library_api_takes_name_attributes() {
    use fgraph::{External, Op, OpKind, build_graph};
    let ops = vec![
        Op::new("ar", OpKind::AllReduce, &["x"], "y", &[4, 8], 2)
            .name_attr("group", "tp")
            .attr("size", 4),
    ];
    let g = build_graph(&ops, &[External::input("x", &[4, 8], 2)]).expect("graph");
    assert_eq!(g.ops[0].name_attr("group"), Some("tp"));
    assert_eq!(g.ops[0].int_attr("size"), Some(4));
    // Without its group: an error, not a guess.
    let bad = vec![Op::new("ar", OpKind::AllReduce, &["x"], "y", &[4, 8], 2).attr("size", 4)];
    let err = build_graph(&bad, &[External::input("x", &[4, 8], 2)]).expect_err("no group");
    assert_eq!(err.diagnostics[0].code, Code::BadAttribute);
}

// ---- FLOPs, bytes and fusion ----------------------------------------------------------------

#[test]
fn flops_and_local_bytes_by_hand() {
    // An all-reduce of a [1, 8192] bf16 tensor over 8 GPUs: 7 · 8192 / 8 = 7,168 adds on each
    // GPU; it reads its 16,384-byte input and writes its 16,384-byte output.
    let a = analysis(&graph(
        "  input x: [1, 8192]
  op ar = all_reduce(x, group = tp, size = 8) -> y
  op rs = reduce_scatter(x, group = tp, size = 8, axis = 1, reduce = avg) -> s
  op ag = all_gather(s, group = tp, size = 8, axis = 1) -> g
  op tx = send(x, group = pp, size = 2) -> t
  op rx = recv(group = pp, size = 2) -> r: [1, 8192]
  output y, g, t, r",
    ));
    let flops = |n: &str| op_flops(&a.graph, op_named(&a, n)).0;
    assert_eq!(flops("ar"), 7168);
    // 1,024 outputs, 7 adds and one division each.
    assert_eq!(flops("rs"), 7 * 1024 + 1024);
    assert_eq!((flops("ag"), flops("tx"), flops("rx")), (0, 0, 0));
    // Each collective is a kernel of its own; a send writes nothing on its GPU.
    assert_eq!(groups(&a).len(), 5);
    let bytes: Vec<(u64, u64)> = a
        .traffic
        .groups
        .iter()
        .map(|t| (t.bytes_read, t.bytes_written))
        .collect();
    assert_eq!(
        bytes,
        [
            (16384, 16384),
            (16384, 2048),
            (2048, 16384),
            (16384, 0),
            (0, 16384)
        ]
    );
}

#[test]
fn a_collective_fuses_with_nothing_under_any_option() {
    let src = graph(
        "  input x: [16, 1024]
  weight w: [1024, 1024]
  op mm = matmul(x, w) -> m
  op b = elementwise.gelu(m) -> bm
  op ar = all_reduce(bm, group = tp, size = 8) -> y
  op r = elementwise.add(y, x) -> z
  op s = reduction.sum(z, axis = -1) -> t
  op ag = all_gather(t, group = tp, size = 8) -> u
  op n = elementwise.neg(u) -> v
  output v",
    );
    let want = [
        vec!["mm", "b"],
        vec!["ar"],
        vec!["r", "s"],
        vec!["ag"],
        vec!["n"],
    ];
    use fgraph::fusion::{FusionOptions, Horizontal, MatmulEpilogue, Policy};
    for fusion in [
        FusionOptions::default(),
        FusionOptions {
            policy: Policy::Recompute,
            reduction_epilogue: true,
            ..Default::default()
        },
        FusionOptions {
            policy: Policy::Store,
            horizontal: Horizontal::Pointwise,
            matmul_epilogue: MatmulEpilogue::Elementwise,
            diamonds: true,
            ..Default::default()
        },
        FusionOptions {
            policy: Policy::Inline,
            ..Default::default()
        },
    ] {
        let opts = Options {
            fusion,
            ..Options::default()
        };
        let report = check_file("t.fgraph", src.as_bytes(), &opts);
        let a = report.graphs[0].analysis.clone().expect("analysis");
        assert_eq!(groups(&a), want, "{fusion:?}");
        let reasons: Vec<(String, String, &str)> = a
            .plan
            .boundaries
            .iter()
            .map(|b| {
                (
                    a.graph.op(b.producer).name.to_string(),
                    a.graph.op(b.consumer).name.to_string(),
                    b.reason.as_str(),
                )
            })
            .collect();
        for (p, c, r) in &reasons {
            if ["ar", "ag"].contains(&p.as_str()) || ["ar", "ag"].contains(&c.as_str()) {
                assert_eq!(*r, "collective", "{p} -> {c} under {fusion:?}");
            }
        }
    }
}
