//! `fgraph import onnx` (issue 27 item 2) on ONNX files exported by torch from real
//! architectures with their weights left out (tests/fixtures/onnx/, made by
//! validation/onnx/make_fixtures.py, which records each torch model's counts in models.json):
//! each imports and checks clean, in fmt's layout; its weights add up to the initializers'
//! elements and to the torch model's parameters (and float buffers); GPT-2's FLOPs equal a
//! count by hand; layers become a block and a repeat with the flat graph's numbers; masks
//! built from positions become causal softmaxes; RMSNorm and the tanh GELU written out become
//! one op; an operator fgraph lacks is reported by name and count; hostile bytes, integers
//! and names; the command line's outputs and exit codes.

use fgraph::analysis::{Analysis, Options as CheckOptions, check_file};
use fgraph::graph::Origin;
use fgraph::importers::onnx::{Imported, Options, import};
use std::path::PathBuf;

mod common;
use common::*;

const FIXTURES: &[&str] = &[
    "gpt2_2l",
    "bert_2l",
    "llama_2l",
    "resnet_block",
    "unmapped_ops",
];

fn fixture(name: &str) -> PathBuf {
    root()
        .join("tests/fixtures/onnx")
        .join(format!("{name}.onnx"))
}

fn models() -> serde_json::Value {
    let text = std::fs::read_to_string(root().join("tests/fixtures/onnx/models.json"))
        .expect("models.json");
    serde_json::from_str(&text).expect("json")
}

fn imported(name: &str, dims: &[(&str, i64)], repeat: bool) -> Imported {
    let bytes = std::fs::read(fixture(name)).expect("fixture");
    let opts = Options {
        source: format!("{name}.onnx"),
        name: Some(name.to_string()),
        dims: dims.iter().map(|(n, v)| (n.to_string(), *v)).collect(),
        repeat,
    };
    import(&bytes, &opts).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn analysed(name: &str, text: &str) -> Analysis {
    let r = check_file(
        &format!("{name}.fgraph"),
        text.as_bytes(),
        &CheckOptions::default(),
    );
    assert!(
        r.diagnostics.is_empty(),
        "{name} does not check clean:\n{:#?}\n{text}",
        r.diagnostics
    );
    r.graphs[0].analysis.clone().expect("analysis")
}

fn weight_elements(a: &Analysis) -> u64 {
    a.graph
        .tensors
        .iter()
        .filter(|t| t.origin == Origin::Weight)
        .map(|t| t.shape.iter().product::<u64>())
        .sum()
}

#[test]
fn every_fixture_imports_and_checks_clean_with_the_torch_parameter_count() {
    let models = models();
    for &name in FIXTURES {
        for repeat in [false, true] {
            let m = imported(name, &[("batch", 2), ("seq", 16)], repeat);
            let a = analysed(name, &m.text);
            let key = match name {
                "gpt2_2l" => "gpt2",
                "bert_2l" => "bert",
                "llama_2l" => "llama",
                "unmapped_ops" => "unmapped",
                n => n,
            };
            let rec = &models[key];
            let initializers = rec["weight_elements"].as_u64().expect("weight_elements");
            let torch = rec["torch_parameters"].as_u64().expect("params")
                + rec["torch_float_buffers"].as_u64().expect("buffers");
            assert_eq!(m.weight_elements, initializers, "{name}");
            assert_eq!(
                weight_elements(&a),
                initializers,
                "{name} (repeat {repeat})"
            );
            assert_eq!(
                initializers, torch,
                "{name}: the ONNX file holds the torch model's weights"
            );
        }
    }
}

#[test]
fn named_dynamic_dimensions_become_params() {
    let m = imported("gpt2_2l", &[("seq", 16)], false);
    assert_eq!(m.dims, vec!["batch".to_string(), "seq".to_string()]);
    assert!(m.text.contains("param batch = 1"), "{}", m.text);
    assert!(m.text.contains("param seq = 16"), "{}", m.text);
    assert!(
        m.text.contains("input input_ids: i64[batch, seq]"),
        "{}",
        m.text
    );
    // The shape arithmetic (Shape, Concat, Range, Equal, Where, IsNaN) is folded away.
    for op in ["Shape", "Range", "Equal", "IsNaN", "GatherND", "CumSum"] {
        assert!(
            !m.text.contains(&format!("onnx_{op}")),
            "{op} emitted:\n{}",
            m.text
        );
    }
    assert!(m.unmapped.is_empty(), "{:?}", m.unmapped);
    assert!(m.folded > 50, "{}", m.folded);
    // GPT-2's tanh GELU, eight ops in the file, is one op.
    assert_eq!(
        m.text.matches("= elementwise.gelu(view_11)").count(),
        1,
        "{}",
        m.text
    );
    assert!(!m.text.contains("elementwise.tanh("), "{}", m.text);
}

/// The masks the graphs build from positions: GPT-2's and Llama's are causal, and become
/// the softmax's `causal = true` (the add of the mask and the mask's input are gone);
/// BERT's, with no padding, is zeros, and is dropped.
#[test]
fn masks_built_from_positions_become_causal_softmaxes() {
    for (name, causal) in [("gpt2_2l", true), ("llama_2l", true), ("bert_2l", false)] {
        let m = imported(name, &[("batch", 2), ("seq", 16)], false);
        let softmaxes = m.text.matches("= reduction.softmax(").count();
        assert_eq!(softmaxes, 2, "{name}");
        let expect = if causal { 2 } else { 0 };
        assert_eq!(
            m.text.matches("axis = -1, causal = true)").count(),
            expect,
            "{name}\n{}",
            m.text
        );
        assert!(
            !m.text.contains("[batch, 1, seq, seq]"),
            "{name}: the mask is still read\n{}",
            m.text
        );
    }
}

/// GPT-2 with B = 2, S = 16, H = 64, 4 heads of 16, F = 256, 2 layers, counted by hand from
/// the exported graph: every matmul 2·M·N·K, every elementwise op 1 per element, the tanh
/// GELU (8 ops in the file, one `elementwise.gelu` in the output) 8, LayerNorm 8 and softmax 5
/// per element, gathers and layout ops nothing. The
/// causal mask the graph builds from positions and adds to the scores is the softmax's
/// `causal = true` (the mask's FLOPs are the softmax's).
#[test]
fn gpt2_flops_match_a_count_by_hand() {
    let (b, s, h, nh, f, layers) = (2u64, 16u64, 64u64, 4u64, 256u64, 2u64);
    let hd = h / nh;
    let t = b * s;
    let scores = b * nh * s * s;
    let layer = 8 * t * h                  // ln_1
        + 2 * t * h * 3 * h + t * 3 * h      // c_attn and its bias
        + 2 * t * h                          // q and k scaled by HD^-1/4 each
        + 2 * scores * hd                    // q kᵀ
        + 5 * scores                         // softmax
        + 2 * scores * hd                    // p v
        + 2 * t * h * h + t * h              // c_proj and its bias
        + t * h                              // residual
        + 8 * t * h                          // ln_2
        + 2 * t * h * f + t * f              // c_fc and its bias
        + 8 * t * f                          // GELU (tanh form)
        + 2 * t * f * h + t * h              // mlp c_proj and its bias
        + t * h; // residual
    let by_hand = t * h + layers * layer + 8 * t * h; // wte + wpe, the layers, ln_f
    for repeat in [false, true] {
        let m = imported("gpt2_2l", &[("batch", b as i64), ("seq", s as i64)], repeat);
        let a = analysed("gpt2_2l", &m.text);
        let hw = fgraph::cost::Hardware::preset("h100").expect("h100");
        let c = fgraph::cost::estimate(&a, &hw, fgraph::cost::LaunchMode::Graph).expect("cost");
        assert_eq!(c.unfused.flops, by_hand, "repeat {repeat}");
    }
    assert_eq!(by_hand, 6_842_368);
}

#[test]
fn resnet_block_maps_convolutions_batch_norms_and_pools() {
    let m = imported("resnet_block", &[("batch", 2)], true);
    for line in [
        "conv(x, conv1_weight, stride = [2, 2], padding = [1, 1]) -> conv2d: [batch, 64, 16, 16]",
        "elementwise.batchnorm(conv2d, bn1_running_mean, bn1_running_var, bn1_weight, bn1_bias, eps = 1e-5)",
        "weight bn1_running_mean: [64, 1, 1]",
        "max_pool(relu_1, kernel = [3, 3], stride = [2, 2], padding = [1, 1]) -> max_pool2d: [batch, 64, 8, 8]",
    ] {
        assert!(m.text.contains(line), "{line}\n{}", m.text);
    }
}

#[test]
fn unmapped_operators_are_reported_by_name_and_count() {
    let m = imported("unmapped_ops", &[], true);
    assert_eq!(
        m.unmapped,
        vec![("HardSwish".to_string(), 1), ("LeakyRelu".to_string(), 1)]
    );
    assert!(
        m.text.contains(
            "Unmapped operators (opaque ops, 1 FLOP per element): HardSwish x1, LeakyRelu x1"
        ),
        "{}",
        m.text
    );
    assert!(m.text.contains("reduction.onnx_LeakyRelu("), "{}", m.text);
    let o = fgraph(&["import", "onnx", "tests/fixtures/onnx/unmapped_ops.onnx"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("warning: 2 ONNX nodes of operators fgraph has no counterpart for")
            && stderr(&o).contains("HardSwish x1, LeakyRelu x1"),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).starts_with("// Imported by `fgraph import onnx`"));
}

#[test]
fn the_command_line_writes_a_file_and_refuses_bad_input() {
    let dir = std::env::temp_dir().join(format!("fgraph-import-onnx-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let out = dir.join("gpt2.fgraph");
    let o = fgraph(&[
        "import",
        "onnx",
        "tests/fixtures/onnx/gpt2_2l.onnx",
        "-o",
        out.to_str().expect("utf-8"),
        "--dim",
        "seq=128",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).is_empty());
    let text = std::fs::read_to_string(&out).expect("written");
    assert!(
        text.contains("graph gpt2_2l {") && text.contains("param seq = 128"),
        "{text}"
    );
    let o = fgraph(&["check", out.to_str().expect("utf-8")]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    // A dimension the model lacks, a missing file: usage (2). Bytes that are not ONNX: 1.
    let o = fgraph(&[
        "import",
        "onnx",
        "tests/fixtures/onnx/gpt2_2l.onnx",
        "--dim",
        "sq=4",
    ]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("it has: batch, seq"), "{}", stderr(&o));
    let o = fgraph(&["import", "onnx", "tests/fixtures/onnx/nothing.onnx"]);
    assert_eq!(code(&o), 2);
    let junk = dir.join("junk.onnx");
    std::fs::write(&junk, b"\x0a\xff\xff\xff\xff\x0f not a model").expect("write");
    let o = fgraph(&["import", "onnx", junk.to_str().expect("utf-8")]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("not a valid ONNX protobuf"),
        "{}",
        stderr(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn truncated_fixtures_are_errors_not_panics() {
    let bytes = std::fs::read(fixture("resnet_block")).expect("fixture");
    let opts = Options::default();
    for n in (0..bytes.len()).step_by(97) {
        let _ = import(&bytes[..n], &opts);
    }
    let mut flipped = bytes.clone();
    for k in (0..flipped.len()).step_by(13) {
        flipped[k] ^= 0x5a;
    }
    let _ = import(&flipped, &opts);
}

/// The layers are found and written as one block and a `repeat`, which expands to the same
/// graph as the flat output: the same FLOPs, the same fused traffic, the same kernels.
#[test]
fn repeated_layers_become_a_block_with_the_numbers_of_the_flat_graph() {
    let expect = [
        (
            "gpt2_2l",
            "repeat 2 h = h(add_1, batch = batch, seq = seq) -> add_13",
        ),
        ("bert_2l", "repeat 2 layer = layer("),
        ("llama_2l", "repeat 2 layers = layers(embedding, "),
    ];
    for (name, line) in expect {
        let m = imported(name, &[("batch", 2), ("seq", 16)], true);
        assert!(m.text.contains(line), "{name}: {line}\n{}", m.text);
        assert_eq!(m.layers.map(|l| l.0), Some(2), "{name}");
        let flat = imported(name, &[("batch", 2), ("seq", 16)], false);
        assert!(flat.layers.is_none() && !flat.text.contains("repeat "));
        let (a, b) = (analysed(name, &m.text), analysed(name, &flat.text));
        let hw = fgraph::cost::Hardware::preset("h100").expect("h100");
        let cost = |a: &Analysis| {
            let c = fgraph::cost::estimate(a, &hw, fgraph::cost::LaunchMode::Graph).expect("cost");
            (c.unfused.flops, c.fused.flops)
        };
        assert_eq!(cost(&a), cost(&b), "{name}");
        assert_eq!(a.traffic.fused, b.traffic.fused, "{name}");
        assert_eq!(a.traffic.unfused, b.traffic.unfused, "{name}");
        assert_eq!(a.plan.groups.len(), b.plan.groups.len(), "{name}");
    }
    // The block's weights are named by what the layers' names share.
    let m = imported("gpt2_2l", &[], true);
    assert!(m.text.contains("block h(batch, seq) {"), "{}", m.text);
    assert!(
        m.text.contains("  weight attn_c_attn_weight: [64, 192]"),
        "{}",
        m.text
    );
    // Tables every layer reads (RoPE's cos and sin) are computed once, before the layers.
    let m = imported("llama_2l", &[], true);
    let (cos, rep) = (
        m.text.find("elementwise.cos(").expect("cos"),
        m.text.find("  repeat ").expect("repeat"),
    );
    assert!(cos < rep, "{}", m.text);
}

/// Hostile values where the importer computes: every integer attribute, constant and dim of
/// some nodes set to an extreme (0, -1, i64::MIN, i64::MAX, 2^40): an error or an output,
/// never a panic or an overflow.
#[test]
fn extreme_integers_are_errors_not_panics() {
    use onnx_proto::Message;
    use onnx_proto::onnx::ModelProto;
    for name in ["gpt2_2l", "llama_2l", "resnet_block"] {
        let bytes = std::fs::read(fixture(name)).expect("fixture");
        let model = ModelProto::decode(&bytes[..]).expect("decode");
        for v in [0, -1, i64::MIN, i64::MAX, 1 << 40] {
            for phase in 0..3 {
                let mut m = model.clone();
                let g = m.graph.as_mut().expect("graph");
                for (k, n) in g.node.iter_mut().enumerate() {
                    if k % 3 != phase {
                        continue;
                    }
                    for a in &mut n.attribute {
                        a.i = a.i.map(|_| v);
                        a.ints.iter_mut().for_each(|x| *x = v);
                        if let Some(t) = a.t.as_mut() {
                            t.dims.iter_mut().for_each(|x| *x = v);
                            t.int64_data.iter_mut().for_each(|x| *x = v);
                        }
                    }
                }
                for (k, t) in g.initializer.iter_mut().enumerate() {
                    if k % 3 == phase {
                        t.int64_data.iter_mut().for_each(|x| *x = v);
                        if t.data_type == Some(7)
                            && let Some(raw) = t.raw_data.as_mut()
                        {
                            for c in raw.chunks_exact_mut(8) {
                                c.copy_from_slice(&v.to_le_bytes());
                            }
                        }
                    }
                }
                let _ = import(&m.encode_to_vec(), &Options::default());
            }
        }
    }
}

/// Llama's RMSNorm, which the exporter writes as pow, mean, add, sqrt, reciprocal and two
/// products, becomes one `reduction.rmsnorm` with its weight: two per layer and the last.
#[test]
fn the_decomposed_rmsnorm_becomes_one_op() {
    let m = imported("llama_2l", &[("batch", 2), ("seq", 16)], false);
    assert_eq!(
        m.text.matches("= reduction.rmsnorm(").count(),
        5,
        "{}",
        m.text
    );
    assert!(
        m.text.contains("reduction.rmsnorm(embedding, inner_layers_0_input_layernorm_weight, axis = -1, eps = 1e-6)"),
        "{}",
        m.text
    );
    assert!(!m.text.contains("elementwise.pow("), "{}", m.text);
    assert!(!m.text.contains("elementwise.reciprocal("), "{}", m.text);
    analysed("llama_2l", &m.text);
}

/// Names of the file reach the output as identifiers, and comments and messages show them
/// as printable ASCII on one line: a dimension or producer name holding a line break and
/// source text cannot write a statement.
#[test]
fn hostile_names_stay_inside_identifiers_and_comments() {
    use onnx_proto::Message;
    use onnx_proto::onnx::tensor_shape_proto::{Dimension, dimension};
    use onnx_proto::onnx::type_proto::{Tensor, Value};
    use onnx_proto::onnx::{
        GraphProto, ModelProto, NodeProto, TensorShapeProto, TypeProto, ValueInfoProto,
    };
    let evil = "b\n}\ngraph x { op y = z(w) }\n// \u{1b}[31m";
    let ty = |dims: Vec<Dimension>| TypeProto {
        value: Some(Value::TensorType(Tensor {
            elem_type: Some(1),
            shape: Some(TensorShapeProto { dim: dims }),
        })),
        ..Default::default()
    };
    let dim = |p: &str| Dimension {
        value: Some(dimension::Value::DimParam(p.to_string())),
        ..Default::default()
    };
    let m = ModelProto {
        producer_name: Some(evil.into()),
        graph: Some(GraphProto {
            node: vec![
                NodeProto {
                    op_type: Some("Relu".into()),
                    input: vec![evil.into()],
                    output: vec!["r".into()],
                    ..Default::default()
                },
                NodeProto {
                    op_type: Some(evil.into()),
                    input: vec!["r".into()],
                    output: vec!["o".into()],
                    ..Default::default()
                },
            ],
            input: vec![ValueInfoProto {
                name: Some(evil.into()),
                r#type: Some(ty(vec![dim(evil), dim("seq")])),
                ..Default::default()
            }],
            output: vec![ValueInfoProto {
                name: Some("o".into()),
                r#type: Some(ty(vec![dim(evil), dim("seq")])),
                ..Default::default()
            }],
            ..Default::default()
        }),
        ..Default::default()
    };
    let out = import(&m.encode_to_vec(), &Options::default()).expect("import");
    assert!(!out.text.contains('\u{1b}'), "{}", out.text);
    let graphs = out.text.lines().filter(|l| l.starts_with("graph ")).count();
    assert_eq!(graphs, 1, "{}", out.text);
    assert_eq!(out.unmapped.len(), 1);
    assert!(
        out.unmapped[0]
            .0
            .chars()
            .all(|c| c == ' ' || c.is_ascii_graphic())
    );
    analysed("hostile", &out.text);
}

/// InstanceNorm as `group_norm` with a group per channel (GroupNorm, which the exporter writes
/// as an InstanceNorm of the groups, with a group each), ReLU6's `Clip` as a `max` and a
/// `min`, and a `Gemm` with `transB` and a bias (`nn.Linear` exported: `matmul(x, w.T, b)`,
/// the bias in the GEMM's epilogue): nothing unmapped. The exporter folds GroupNorm's scale
/// into new initializers and adds its own ones and zeros, so the weights are the
/// initializers' elements (540), not torch's 532.
#[test]
fn instance_norm_group_norm_and_clip_are_mapped() {
    let m = imported("norms", &[("batch", 2)], true);
    assert!(m.unmapped.is_empty(), "{:?}", m.unmapped);
    for line in [
        "reduction.group_norm(conv1d, inorm_weight, inorm_bias, groups = 16, eps = 1e-5)",
        "elementwise.max(instance_norm, 0.0)",
        "elementwise.min(relu6_lo, 6.0)",
        "matmul(mean, head_weight.T, head_bias)",
    ] {
        assert!(m.text.contains(line), "{line}\n{}", m.text);
    }
    assert_eq!(
        m.weight_elements,
        models()["norms"]["weight_elements"].as_u64().unwrap()
    );
    let r = check_file("norms.fgraph", m.text.as_bytes(), &CheckOptions::default());
    assert!(!r.has_errors(), "{:#?}", r.diagnostics);
}
