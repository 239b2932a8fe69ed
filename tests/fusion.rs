//! Fusion and traffic against hand-computed expectations (tests/fixtures/fusion/*.expected.json,
//! each worked out in the comments of its .fgraph file), and the seed's library API.

use fgraph::{
    External, Op, OpKind, Options, analyze_transformer_block, build_graph, check_file,
    estimate_memory_traffic, find_fusion_groups,
};
use serde_json::{Value, json};
use std::path::Path;

fn analysis_json(name: &str, bytes: &[u8]) -> Value {
    let report = check_file(name, bytes, &Options::default());
    assert!(!report.has_errors(), "{name}: {:?}", report.diagnostics);
    let a = report.graphs[0].analysis.as_ref().expect("analysis");
    let g = &a.graph;
    json!({
        "groups": a.plan.groups.iter().map(|grp| grp.ops.iter().map(|&o| g.op(o).name.clone()).collect::<Vec<_>>()).collect::<Vec<_>>(),
        "boundaries": a.plan.boundaries.iter().map(|b| json!({
            "producer": g.op(b.producer).name, "consumer": g.op(b.consumer).name,
            "tensor": g.tensor(b.tensor).name, "reason": b.reason.as_str(),
        })).collect::<Vec<_>>(),
        "unfused": {"bytes_read": a.traffic.unfused.bytes_read, "bytes_written": a.traffic.unfused.bytes_written},
        "fused": {"bytes_read": a.traffic.fused.bytes_read, "bytes_written": a.traffic.fused.bytes_written},
    })
}

#[test]
fn fixtures_match_hand_computed_expectations() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fusion");
    let mut n = 0;
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("dir")
        .map(|e| e.expect("entry").path())
        .collect();
    paths.sort();
    for p in paths
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "fgraph"))
    {
        let name = p.file_name().expect("name").to_string_lossy().into_owned();
        let expected: Value = serde_json::from_str(
            &std::fs::read_to_string(p.with_extension("expected.json")).expect("expectation"),
        )
        .expect("json");
        let got = analysis_json(&name, &std::fs::read(p).expect("read"));
        assert_eq!(got, expected, "{name}");
        n += 1;
    }
    assert!(n >= 10, "only {n} fusion fixtures");
}

fn seed_ops() -> (Vec<Op>, Vec<External>) {
    let ops = vec![
        Op::new(
            "matmul1",
            OpKind::Matmul,
            &["x", "w1"],
            "y1",
            &[1024, 4096],
            2,
        ),
        Op::new(
            "bias1",
            OpKind::Elementwise,
            &["y1", "b1"],
            "y2",
            &[1024, 4096],
            2,
        ),
        Op::new("relu", OpKind::Elementwise, &["y2"], "y3", &[1024, 4096], 2),
        Op::new(
            "matmul2",
            OpKind::Matmul,
            &["y3", "w2"],
            "y4",
            &[1024, 1024],
            2,
        ),
    ];
    let ext = vec![
        External::input("x", &[1024, 4096], 2),
        External::weight("w1", &[4096, 4096], 2),
        External::weight("b1", &[4096], 2),
        External::weight("w2", &[4096, 1024], 2),
    ];
    (ops, ext)
}

#[test]
fn seed_example_through_the_library() {
    let (ops, ext) = seed_ops();
    let g = build_graph(&ops, &ext).expect("valid graph");
    let plan = find_fusion_groups(&g);
    let names: Vec<Vec<&str>> = plan
        .groups
        .iter()
        .map(|grp| grp.ops.iter().map(|&o| g.op(o).name.as_str()).collect())
        .collect();
    assert_eq!(names, [vec!["matmul1", "bias1", "relu"], vec!["matmul2"]]);
    let u = estimate_memory_traffic(&g, false).expect("fits");
    let f = estimate_memory_traffic(&g, true).expect("fits");
    assert_eq!(
        (u.bytes_read, u.bytes_written, u.saved_by_fusion),
        (75_505_664, 27_262_976, 0)
    );
    assert_eq!((f.bytes_read, f.bytes_written), (58_728_448, 10_485_760));
    assert_eq!(f.saved_by_fusion, 33_554_432);
    assert_eq!(u.total - f.total, f.saved_by_fusion);
}

#[test]
fn library_reports_every_error_without_spans() {
    let (mut ops, ext) = seed_ops();
    ops[1].inputs[1] = "b2".into(); // undefined
    ops[3].shape = vec![1024, 999]; // declared shape disagrees with the matmul
    let err = build_graph(&ops, &ext[..3]).expect_err("invalid");
    let codes: Vec<&str> = err.diagnostics.iter().map(|d| d.code.as_str()).collect();
    assert!(codes.contains(&"undefined-tensor"), "{codes:?}");
    assert!(
        codes.contains(&"undefined-tensor")
            && codes.iter().filter(|c| **c == "undefined-tensor").count() == 2
    );
    assert!(err.diagnostics.iter().all(|d| d.primary.is_none()));
    assert!(err.to_string().contains("undefined tensor `b2`"));
}

/// Without source positions, the library's errors come in statement order: for each op, a
/// repeated op name first, then what the op's own types report, then a repeated output name.
#[test]
fn library_errors_come_in_statement_order() {
    let ops = [
        Op::new("a", OpKind::Elementwise, &["x"], "y", &[4], 2),
        Op::new("a", OpKind::Elementwise, &["y"], "y", &[0], 2),
        Op::new("c", OpKind::Elementwise, &["y"], "z", &[4], 2),
        Op::new("c", OpKind::Elementwise, &["z"], "x", &[4], 2),
    ];
    let err = build_graph(&ops, &[External::input("x", &[4], 2)]).expect_err("invalid");
    let messages: Vec<&str> = err.diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "op `a` is defined more than once",
            "dimension must be at least 1, found 0",
            "tensor `y` is produced by more than one op",
            "op `c` is defined more than once",
            "tensor `x` is both declared and produced by an op",
        ]
    );
}

#[test]
fn library_rejects_a_missing_external_shape() {
    let (ops, ext) = seed_ops();
    let err = build_graph(&ops, &ext[1..]).expect_err("x has no shape");
    assert!(
        err.diagnostics
            .iter()
            .any(|d| d.message == "undefined tensor `x`")
    );
}

/// The 14-op block at seq 2048, hidden 4096, 32 heads, fp16, computed by hand:
/// S·H·2 = 16 MiB (x, qkv slice, attn_cat, proj, res1, ln1, down, res2, out),
/// scores/probs = 32·2048·2048·2 = 256 MiB, up/act = 64 MiB, qkv = 48 MiB,
/// w_qkv 96 MiB, w_o 32 MiB, w_up/w_down 128 MiB, gamma/beta 8 KiB.
#[test]
fn transformer_block_at_2048_4096_32_f16() {
    const MIB: u64 = 1 << 20;
    const KIB: u64 = 1 << 10;
    let r = analyze_transformer_block(2048, 4096, 32, 2).expect("valid block");
    assert_eq!(
        r.fusion_groups,
        vec![
            vec!["qkv_proj", "split_heads"],
            vec!["attn_scores"],
            vec!["softmax"],
            vec!["attn_output", "concat_heads"],
            vec!["out_proj", "residual1"],
            vec!["layernorm1"],
            vec!["ffn_up", "gelu"],
            vec!["ffn_down", "residual2"],
            vec!["layernorm2"],
        ]
    );
    // Unfused: every op reads its inputs (views: two 16 MiB slices for attn_scores, one for
    // attn_output) and writes its output.
    let unfused_read = (16 + 96) * MIB // qkv_proj
        + 48 * MIB // split_heads
        + 32 * MIB // attn_scores
        + 256 * MIB // softmax
        + (256 + 16) * MIB // attn_output
        + 16 * MIB // concat_heads
        + (16 + 32) * MIB // out_proj
        + (16 + 16) * MIB // residual1
        + 16 * MIB + 16 * KIB // layernorm1
        + (16 + 128) * MIB // ffn_up
        + 64 * MIB // gelu
        + (64 + 128) * MIB // ffn_down
        + (16 + 16) * MIB // residual2
        + 16 * MIB + 16 * KIB; // layernorm2
    let unfused_written =
        (48 + 48 + 256 + 256 + 16 + 16 + 16 + 16 + 16 + 64 + 64 + 16 + 16 + 16) * MIB;
    assert_eq!(r.unfused_traffic.bytes_read, unfused_read);
    assert_eq!(r.unfused_traffic.bytes_written, unfused_written);
    // Fused: internal tensors (qkv, attn, proj, up, down) vanish.
    let fused_read = unfused_read - (48 + 16 + 16 + 64 + 16) * MIB;
    let fused_written = unfused_written - (48 + 16 + 16 + 64 + 16) * MIB;
    assert_eq!(r.fused_traffic.bytes_read, fused_read);
    assert_eq!(r.fused_traffic.bytes_written, fused_written);
    assert_eq!(r.fused_traffic.saved_by_fusion, 2 * 160 * MIB);
    let pct = 100.0 * (2 * 160 * MIB) as f64 / (unfused_read + unfused_written) as f64;
    assert!((r.savings_pct - pct).abs() < 1e-9);
}

#[test]
fn transformer_emit_gives_identical_numbers() {
    use fgraph::transformer::{BlockDims, analyze_block, emit};
    for (s, h, nh, dtype) in [
        (2048, 4096, 32, fgraph::Dtype::F16),
        (128, 64, 4, fgraph::Dtype::F32),
        (7, 12, 3, fgraph::Dtype::Bf16),
    ] {
        let lib = analyze_block(s, h, nh, dtype).expect("valid");
        let src = emit(BlockDims::new(s, h, nh).expect("dims"), dtype);
        let report = check_file("block.fgraph", src.as_bytes(), &Options::default());
        assert!(!report.has_errors());
        let a = report.graphs[0].analysis.as_ref().expect("analysis");
        assert_eq!(a.traffic.unfused, lib.unfused_traffic);
        assert_eq!(a.traffic.fused, lib.fused_traffic);
        assert_eq!(a.plan.groups, lib.plan.groups);
        assert_eq!(a.plan.boundaries, lib.plan.boundaries);
        assert_eq!(a.traffic.groups, lib.traffic.groups);
    }
}

#[test]
fn transformer_rejects_bad_dimensions() {
    let e = analyze_transformer_block(2048, 4096, 3, 2).expect_err("3 does not divide 4096");
    assert_eq!(e.diagnostics[0].code, fgraph::Code::InexactDivision);
    let e = analyze_transformer_block(0, 4096, 32, 2).expect_err("zero");
    assert_eq!(e.diagnostics[0].code, fgraph::Code::InvalidShape);
    let e = analyze_transformer_block(2048, 4096, 32, 3).expect_err("no 3-byte dtype");
    assert_eq!(e.diagnostics[0].code, fgraph::Code::UnknownDtype);
    let e = analyze_transformer_block(u64::MAX / 2, u64::MAX / 4, 1, 2).expect_err("overflow");
    assert_eq!(e.diagnostics[0].code, fgraph::Code::SizeOverflow);
    let e = analyze_transformer_block(1 << 40, 1 << 20, 1, 8).expect_err("sizes overflow");
    assert_eq!(e.diagnostics[0].code, fgraph::Code::SizeOverflow);
}

/// Above 20,000 ops the unfused traffic is summed on a second thread while the plan is
/// found: the report is what `traffic::compare` gives on one thread.
#[test]
fn large_graph_traffic_equals_the_one_thread_comparison() {
    let mut src = String::from("graph big {\n  input t0: [32, 32]\n  weight w: [32, 32]\n");
    for i in 1..=25_000usize {
        let p = i - 1;
        match i % 5 {
            0 => src.push_str(&format!("  op o{i} = matmul(t{p}, w) -> t{i}\n")),
            3 => src.push_str(&format!(
                "  op o{i} = elementwise.add(t{p}, t{}) -> t{i}\n",
                p.saturating_sub(2)
            )),
            _ => src.push_str(&format!("  op o{i} = elementwise.relu(t{p}) -> t{i}\n")),
        }
    }
    src.push_str("}\n");
    let report = fgraph::check_file("big.fgraph", src.as_bytes(), &fgraph::Options::default());
    let a = report.graphs[0].analysis.as_ref().expect("analysed");
    let one_thread = fgraph::traffic::compare(&a.graph, &a.plan).expect("no overflow");
    assert_eq!(format!("{:?}", a.traffic), format!("{one_thread:?}"));
    assert!(a.traffic.fused.total < a.traffic.unfused.total);
}
