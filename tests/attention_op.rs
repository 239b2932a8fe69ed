//! Attention as an op (issue 23 item 5): `attention(q, k, v, causal = true, window = W,
//! scale = s)`, PyTorch SDPA's layout with grouped-query heads. Shapes, errors, FLOPs and bytes
//! worked out by hand, how it fuses, and the same numbers as the three-op pattern under
//! `--flash-attention`.

mod common;

use fgraph::cost::{self, Family, Hardware, LaunchMode};
use fgraph::{Analysis, Code, Options, check_file};

fn opts(flash_attention: bool) -> Options {
    Options {
        fusion: fgraph::FusionOptions {
            flash_attention,
            ..fgraph::FusionOptions::default()
        },
        ..Options::default()
    }
}

fn analysis_with(src: &str, flash_attention: bool) -> Analysis {
    let report = check_file("t.fgraph", src.as_bytes(), &opts(flash_attention));
    assert!(
        report.diagnostics.is_empty(),
        "{src}\n{:?}",
        report.diagnostics
    );
    report.graphs[0].analysis.clone().expect("analysis")
}

fn analysis(src: &str) -> Analysis {
    analysis_with(src, false)
}

fn diagnostics(src: &str) -> Vec<(Code, String)> {
    let report = check_file("t.fgraph", src.as_bytes(), &Options::default());
    report
        .diagnostics
        .iter()
        .map(|d| (d.code, d.message.clone()))
        .collect()
}

fn dims(s: &[u64]) -> String {
    s.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
}

/// One attention op over `q`, `k`, `v` of the shapes given (f16), with `attrs`.
fn op(q: &[u64], k: &[u64], v: &[u64], attrs: &str) -> String {
    format!(
        "graph g {{\n  dtype f16\n  input q: [{}]\n  input k: [{}]\n  input v: [{}]\n  \
         op a = attention(q, k, v{attrs}) -> o\n  output o\n}}\n",
        dims(q),
        dims(k),
        dims(v)
    )
}

fn out_shape(a: &Analysis) -> Vec<u64> {
    let g = &a.graph;
    g.tensor(g.op(fgraph::OpId(0)).output).shape.to_vec()
}

/// (FLOPs, bytes read, bytes written) of the plan's kernels in all, under the compulsory model.
fn totals(a: &Analysis) -> (u64, u64, u64) {
    let c = cost::estimate(a, &h100(), LaunchMode::Graph).expect("cost");
    (
        c.fused.flops,
        a.traffic.fused.bytes_read,
        a.traffic.fused.bytes_written,
    )
}

fn h100() -> Hardware {
    Hardware::preset("h100").expect("h100")
}

/// The hardware model's kernels of the plan.
fn model(a: &Analysis) -> cost::ModelReport {
    let mut c = cost::estimate(a, &h100(), LaunchMode::Graph).expect("cost");
    cost::with_hardware_model(&mut c, a).expect("model");
    c.hardware_model.expect("model")
}

#[test]
fn shapes_are_inferred() {
    // Multi-head: q's shape.
    let a = analysis(&op(
        &[2, 16, 128, 64],
        &[2, 16, 128, 64],
        &[2, 16, 128, 64],
        "",
    ));
    assert_eq!(out_shape(&a), [2, 16, 128, 64]);
    // Grouped-query heads, 32 query heads over 8 key/value heads, v's own head dim.
    let a = analysis(&op(
        &[1, 32, 512, 128],
        &[1, 8, 512, 128],
        &[1, 8, 512, 64],
        ", causal = true",
    ));
    assert_eq!(out_shape(&a), [1, 32, 512, 64]);
    // Decode: one query against 4,096 cached keys.
    let a = analysis(&op(
        &[4, 32, 1, 128],
        &[4, 8, 4096, 128],
        &[4, 8, 4096, 128],
        "",
    ));
    assert_eq!(out_shape(&a), [4, 32, 1, 128]);
    // Batch dims broadcast as SDPA's: one KV for every batch element, extra leading dims.
    let a = analysis(&op(
        &[3, 4, 8, 16, 32],
        &[1, 2, 16, 32],
        &[4, 2, 16, 32],
        "",
    ));
    assert_eq!(out_shape(&a), [3, 4, 8, 16, 32]);
    // Rank 2: one head.
    let a = analysis(&op(&[16, 32], &[24, 32], &[24, 8], ""));
    assert_eq!(out_shape(&a), [16, 8]);
    // A declared shape is compared with the inferred one.
    let src = "graph g {\n  dtype f16\n  input q: [8, 16, 64]\n  input k: [8, 16, 64]\n  \
               input v: [8, 16, 64]\n  op a = attention(q, k, v) -> o: [8, 16, 32]\n  output o\n}\n";
    let d = diagnostics(src);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].0, Code::ShapeMismatch);
    assert!(d[0].1.contains("[8, 16, 64]"), "{d:?}");
}

#[test]
fn errors_say_what_is_wrong() {
    // 12 key/value heads do not divide 32 query heads.
    let d = diagnostics(&op(&[1, 32, 8, 64], &[1, 12, 8, 64], &[1, 12, 8, 64], ""));
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].0, Code::ShapeMismatch);
    assert!(d[0].1.contains("do not divide the 32 query heads"), "{d:?}");
    // The head dims of q and k differ.
    let d = diagnostics(&op(&[1, 8, 8, 64], &[1, 8, 8, 128], &[1, 8, 8, 64], ""));
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].0, Code::ShapeMismatch);
    assert!(d[0].1.contains("head dim"), "{d:?}");
    // Keys and values of different lengths and heads: both said.
    let d = diagnostics(&op(&[1, 8, 8, 64], &[1, 4, 8, 64], &[1, 2, 9, 64], ""));
    assert_eq!(d.len(), 2, "{d:?}");
    // Batch dims that do not broadcast.
    let d = diagnostics(&op(&[2, 8, 8, 64], &[3, 8, 8, 64], &[3, 8, 8, 64], ""));
    assert_eq!(d.len(), 1, "{d:?}");
    assert!(d[0].1.contains("do not broadcast"), "{d:?}");
    // Rank 1.
    let d = diagnostics(&op(&[64], &[8, 64], &[8, 64], ""));
    assert_eq!(d.len(), 1, "{d:?}");
    assert!(d[0].1.contains("rank 1"), "{d:?}");
    // A window without the causal mask, with `causal = false` too.
    let shapes = ([1, 8, 8, 64], [1, 8, 8, 64], [1, 8, 8, 64]);
    for attrs in [", window = 4", ", causal = false, window = 4"] {
        let d = diagnostics(&op(&shapes.0, &shapes.1, &shapes.2, attrs));
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(d[0].0, Code::BadAttribute);
        assert!(d[0].1.contains("needs `causal = true`"), "{d:?}");
    }
    // Attribute values: each reported once.
    for (attrs, says) in [
        (", causal = 2", "must be `true` or `false`"),
        (", causal = true, window = 0", "must be from 1"),
        (", causal = true, window = true", "must be an integer"),
        (", scale = 0", "must be above 0"),
        (", scale = -0.5", "must be above 0"),
        (", scale = true", "must be a number"),
        (", scale = [1, 2]", "must be a number"),
        (", causl = true", "takes no attribute `causl`"),
    ] {
        let d = diagnostics(&op(&shapes.0, &shapes.1, &shapes.2, attrs));
        assert_eq!(d.len(), 1, "{attrs}: {d:?}");
        assert_eq!(d[0].0, Code::BadAttribute, "{attrs}");
        assert!(d[0].1.contains(says), "{attrs}: {d:?}");
    }
    // Good values pass, a scale as a float or an integer.
    for attrs in [
        ", causal = true, window = 4, scale = 0.125",
        ", causal = false, scale = 1",
        ", causal = 1",
    ] {
        let d = diagnostics(&op(&shapes.0, &shapes.1, &shapes.2, attrs));
        assert!(d.is_empty(), "{attrs}: {d:?}");
    }
    // Three tensors, no function.
    let src = "graph g {\n  dtype f16\n  input q: [8, 16, 64]\n  input k: [8, 16, 64]\n  \
               op a = attention(q, k) -> o\n  output o\n}\n";
    assert_eq!(diagnostics(src)[0].0, Code::Arity);
    let src = "graph g {\n  dtype f16\n  input q: [8, 16, 64]\n  \
               op a = attention.flash(q, q, q) -> o\n  output o\n}\n";
    assert_eq!(diagnostics(src)[0].0, Code::UnknownFunction);
}

#[test]
fn flops_by_hand() {
    // Causal prefill, S = 4, one head of D = 8: query i sees i + 1 keys, 1 + 2 + 3 + 4 = 10
    // pairs; each 2·8 (q·k) + 2·8 (p·v) + 5 (softmax) = 37 FLOPs: 370.
    let a = analysis(&op(&[1, 4, 8], &[1, 4, 8], &[1, 4, 8], ", causal = true"));
    assert_eq!(totals(&a).0, 370);
    // Without the mask: 16 pairs, 592.
    let a = analysis(&op(&[1, 4, 8], &[1, 4, 8], &[1, 4, 8], ""));
    assert_eq!(totals(&a).0, 592);
    // A window of 2: 1 + 2 + 2 + 2 = 7 pairs, 259.
    let a = analysis(&op(
        &[1, 4, 8],
        &[1, 4, 8],
        &[1, 4, 8],
        ", causal = true, window = 2",
    ));
    assert_eq!(totals(&a).0, 259);
    // Decode, batch 2, 32 query heads of 128 against 8 KV heads of 4,096 keys: 64 (batch,
    // head) rows of 4,096 pairs, each 2·128 + 2·128 + 5 = 517: 135,528,448; causal changes
    // nothing for the last query (FlashAttention's alignment: it sees every key).
    let shapes = ([2, 32, 1, 128], [2, 8, 4096, 128], [2, 8, 4096, 128]);
    for attrs in ["", ", causal = true"] {
        let a = analysis(&op(&shapes.0, &shapes.1, &shapes.2, attrs));
        assert_eq!(totals(&a).0, 64 * 4096 * 517, "{attrs}");
    }
    // The decode with a window of 1,024: 1,024 keys.
    let a = analysis(&op(
        &shapes.0,
        &shapes.1,
        &shapes.2,
        ", causal = true, window = 1024",
    ));
    assert_eq!(totals(&a).0, 64 * 1024 * 517);
}

#[test]
fn bytes_read_kv_once_under_grouped_query_heads() {
    // q [1, 32, 2048, 128] f16: 16 MiB; k and v [1, 8, 2048, 128]: 4 MiB each, read once
    // (not once per query head: no copy); the output 16 MiB.
    let a = analysis(&op(
        &[1, 32, 2048, 128],
        &[1, 8, 2048, 128],
        &[1, 8, 2048, 128],
        ", causal = true",
    ));
    let mib = 1u64 << 20;
    let (_, read, written) = totals(&a);
    assert_eq!((read, written), (24 * mib, 16 * mib));
    // The hardware model prices it as a FlashAttention kernel, reading what is counted.
    let m = model(&a);
    assert_eq!(m.kernels.len(), 1);
    assert_eq!(m.kernels[0].family, Family::Attention);
    assert_eq!(m.dram_read, 24 * mib);
}

/// The three-op pattern of one head group, as gpt2 writes it without a scale (the scale
/// would add a FLOP per pair): Q·Kᵀ, a softmax with `mask`, P·V.
fn pattern(h: u64, s: u64, d: u64, mask: &str) -> String {
    format!(
        "graph g {{\n  dtype f16\n  input q: [1, {h}, {s}, {d}]\n  input k: [1, {h}, {s}, {d}]\n  \
         input v: [1, {h}, {s}, {d}]\n  \
         op qk = matmul(q, k.T) -> t: [1, {h}, {s}, {s}]\n  \
         op sm = reduction.softmax(t, axis = -1{mask}) -> p: [1, {h}, {s}, {s}]\n  \
         op pv = matmul(p, v) -> o: [1, {h}, {s}, {d}]\n  output o\n}}\n"
    )
}

#[test]
fn the_op_costs_what_the_three_op_pattern_costs_under_flash_attention() {
    for (s, mask, attrs) in [
        (2048, "", ""),
        (2048, ", causal = true", ", causal = true"),
        (
            4096,
            ", causal = true, window = 1024",
            ", causal = true, window = 1024",
        ),
        (16, ", causal = true", ", causal = true"),
    ] {
        let (h, d) = (16, 128);
        let pat = analysis_with(&pattern(h, s, d, mask), true);
        assert_eq!(pat.plan.flash.len(), 1, "the pattern is recognised");
        let op = analysis(&op(&[1, h, s, d], &[1, h, s, d], &[1, h, s, d], attrs));
        // The same FLOPs and bytes: one kernel each.
        assert_eq!(totals(&op), totals(&pat), "s {s}{mask}");
        // The compulsory model's time: the op's softmax runs at the tensor-core rate with its
        // products, the pattern's at the f32 rate: within 20%.
        let time = |a: &Analysis| {
            cost::estimate(a, &h100(), LaunchMode::Graph)
                .expect("cost")
                .fused
                .time_s
        };
        let ratio = time(&op) / time(&pat);
        assert!((0.8..=1.0).contains(&ratio), "s {s}{mask}: {ratio}");
        // The hardware model: the same coefficients. A window is FlashAttention-2's kernel
        // for the op (as PyTorch runs it); the op's memory time has the decode start-up.
        let (mo, mp) = (model(&op), model(&pat));
        assert_eq!(mo.dram_read, mp.dram_read);
        let (ko, kp) = (&mo.kernels[0], &mp.kernels[0]);
        assert_eq!(ko.family, Family::Attention);
        if mask.contains("window") {
            assert!(ko.compute_s > kp.compute_s, "s {s}{mask}");
        } else {
            assert_eq!(ko.compute_s, kp.compute_s, "s {s}{mask}");
            assert!(ko.memory_s > kp.memory_s, "s {s}{mask}");
            if s > 1000 {
                // Compute-bound: the same time.
                assert_eq!(ko.kernel_s, kp.kernel_s, "s {s}{mask}");
            }
        }
    }
}

#[test]
fn it_fuses_as_a_flash_attention_kernel() {
    // Rotary-like work on q before it stays in its own kernel (no prologue); an elementwise
    // op after it is its epilogue under the default rules; a reduction after it starts a
    // kernel; the three-op pattern beside it is still recognised under --flash-attention.
    let src = "graph g {\n  dtype f16\n  input x: [1, 8, 256, 64]\n  input k: [1, 8, 256, 64]\n  \
               input v: [1, 8, 256, 64]\n  \
               op rq = elementwise.mul(x, x) -> q\n  \
               op a = attention(q, k, v, causal = true) -> o\n  \
               op g = elementwise.gelu(o) -> y\n  \
               op n = reduction.sum(y, axis = -1) -> r\n  \
               op qk = matmul(y, k.T) -> t: [1, 8, 256, 256]\n  \
               op sm = reduction.softmax(t, axis = -1) -> p: [1, 8, 256, 256]\n  \
               op pv = matmul(p, v) -> z: [1, 8, 256, 64]\n  output r, z\n}\n";
    let a = analysis_with(src, true);
    let names: Vec<Vec<String>> = a
        .plan
        .groups
        .iter()
        .map(|grp| {
            grp.ops
                .iter()
                .map(|&o| a.graph.op(o).name.to_string())
                .collect()
        })
        .collect();
    assert_eq!(
        names,
        [
            vec!["rq"],
            vec!["a", "g"],
            vec!["n"],
            vec!["qk", "sm", "pv"]
        ],
        "{names:?}"
    );
    assert_eq!(a.plan.flash.len(), 1);
    let m = model(&a);
    assert_eq!(m.kernels[1].family, Family::Attention);
    assert_eq!(m.kernels[3].family, Family::Attention);
    // An attention op is never taken for a matmul of the pattern: attention → softmax →
    // matmul is no FlashAttention pattern.
    let src = "graph g {\n  dtype f16\n  input q: [8, 64, 64]\n  input v: [8, 64, 64]\n  \
               op a = attention(q, q, q) -> o\n  \
               op sm = reduction.softmax(o, axis = -1) -> p\n  \
               op pv = matmul(p, v) -> z\n  output z\n}\n";
    assert!(analysis_with(src, true).plan.flash.is_empty());
}

#[test]
fn it_formats_and_round_trips() {
    let src = "graph g {\n  dtype f16\n  input q: [1, 32, 1, 128]\n  input k: [1, 8, 4096, 128]\n  \
               input v: [1, 8, 4096, 128]\n  \
               op a = attention(q,k,v,causal=true,window=1024,scale=0.0884) -> o\n  output o\n}\n";
    let once = fgraph::format::format_source(src).expect("formats");
    assert!(
        once.contains("attention(q, k, v, causal = true, window = 1024, scale = 0.0884)"),
        "{once}"
    );
    assert_eq!(fgraph::format::format_source(&once).expect("again"), once);
    assert_eq!(
        totals(&analysis(&once)),
        totals(&analysis(src)),
        "the same numbers"
    );
}

/// A block of fewer queries than 128 (a grouped-query decode written as rows) runs a whole
/// block's matmuls over every key (validation/gpu/attention-hd/decode: cuDNN's SDPA took 8
/// rows through 4,096 keys in 49.7 µs on 2 to 32 blocks): 8 rows cost what 128 do; one query
/// (the decode kernel) and 128 or more are priced as before, a block's time set by its keys
/// while the blocks fit one wave.
#[test]
fn a_few_query_rows_cost_a_whole_query_block() {
    let time = |rows: u64| {
        let src = format!(
            "graph g {{\n  dtype bf16\n  input q: [4, 2, {rows}, 128]\n  input k: [4, 2, 4096, 128]\n  \
             input v: [4, 2, 4096, 128]\n  op a = attention(q, k, v) -> o\n  output o\n}}\n"
        );
        let k = model(&analysis(&src)).kernels[0];
        assert_eq!(k.family, Family::Attention);
        k.compute_s
    };
    assert!((time(8) / time(128) - 1.0).abs() < 1e-9);
    assert!((time(64) / time(128) - 1.0).abs() < 1e-9);
    assert!(time(1) < time(8) / 64.0);
    // Two blocks a head (16 in all, within one wave of 132 SMs) take what one does.
    assert!((time(256) / time(128) - 1.0).abs() < 1e-9);
}

/// One attention op with a mask `m` of `mask` (a type, `bool[..]`), and `attrs`.
fn masked(q: &[u64], k: &[u64], mask: &str, attrs: &str) -> String {
    format!(
        "graph g {{\n  dtype f16\n  input q: [{}]\n  input k: [{}]\n  input v: [{}]\n  \
         input m: {mask}\n  op a = attention(q, k, v, m{attrs}) -> o\n  output o\n}}\n",
        dims(q),
        dims(k),
        dims(k)
    )
}

#[test]
fn a_mask_is_read_and_every_pair_visited() {
    // Prefill of 4 queries, one head of 8, a [1, 4, 4] boolean mask: all 16 pairs, each
    // 2·8 + 2·8 + 5 + 1 (the mask's add) = 38 FLOPs; the mask's 16 bytes read.
    let a = analysis(&masked(&[1, 4, 8], &[1, 4, 8], "bool[1, 4, 4]", ""));
    assert_eq!(out_shape(&a), vec![1, 4, 8]);
    let (flops, read, written) = totals(&a);
    assert_eq!(flops, 16 * 38);
    assert_eq!((read, written), (3 * 4 * 8 * 2 + 16, 4 * 8 * 2));
    // A decode step against 2,048 keys, its mask [B, 1, 1, S_k] broadcast over the heads, in
    // the queries' dtype (added to the scores).
    let a = analysis(&masked(
        &[2, 12, 1, 128],
        &[2, 12, 2048, 128],
        "f16[2, 1, 1, 2048]",
        ", scale = 0.088",
    ));
    assert_eq!(totals(&a).0, 24 * 2048 * (4 * 128 + 6));
}

#[test]
fn a_mask_of_the_wrong_shape_dtype_or_with_causal_is_an_error() {
    let cases = [
        // [1, 4, 3] does not broadcast to the scores [1, 4, 4].
        (
            masked(&[1, 4, 8], &[1, 4, 8], "bool[1, 4, 3]", ""),
            Code::ShapeMismatch,
            "does not broadcast to its scores [1, 4, 4]",
        ),
        (
            masked(&[1, 4, 8], &[1, 4, 8], "bool[1, 4, 4]", ", causal = true"),
            Code::BadAttribute,
            "SDPA takes one or the other",
        ),
        (
            masked(&[1, 4, 8], &[1, 4, 8], "i32[1, 4, 4]", ""),
            Code::InvalidDtype,
            "SDPA takes a bool mask or one of the queries' dtype",
        ),
    ];
    for (src, code, message) in cases {
        let d = diagnostics(&src);
        assert!(
            d.iter().any(|(c, m)| *c == code && m.contains(message)),
            "{src}\n{d:?}"
        );
    }
    // `causal = false` with a mask is what SDPA takes.
    analysis(&masked(
        &[1, 4, 8],
        &[1, 4, 8],
        "bool[1, 4, 4]",
        ", causal = false",
    ));
}

/// `fgraph emit torch`'s module of `src`.
fn emitted(src: &str) -> String {
    common::emit_torch(src)
}

#[test]
fn eager_sdpa_converts_a_boolean_mask_and_torch_passes_it() {
    use fgraph::runtime::{Runtime, What, estimate};
    let count = |src: &str| {
        let a = analysis(src);
        let e = estimate(&a, &h100(), LaunchMode::Graph, Runtime::Eager).expect("estimate");
        let n = |f: fn(&What) -> bool| e.kernels.iter().filter(|k| f(&k.what)).count();
        (
            n(|w| matches!(w, What::Fill { .. })),
            n(|w| matches!(w, What::Mask { .. })),
        )
    };
    // ATen's `convert_boolean_attn_mask_cudnn`: two one-element fills and a `where`.
    let shapes = (&[2, 12, 1, 128][..], &[2, 12, 2048, 128][..]);
    assert_eq!(
        count(&masked(shapes.0, shapes.1, "bool[2, 1, 1, 2048]", "")),
        (2, 1)
    );
    // An additive mask goes in as it is.
    assert_eq!(
        count(&masked(shapes.0, shapes.1, "f16[2, 1, 1, 2048]", "")),
        (0, 0)
    );
    let src = masked(shapes.0, shapes.1, "bool[2, 1, 1, 2048]", "");
    let py = emitted(&src);
    assert!(
        py.contains("F.scaled_dot_product_attention(q, k, v, attn_mask=m)"),
        "{py}"
    );
    // Grouped heads of rank 5 ([B, KV, G, S, D], the importer's layout) go to SDPA in 4-D,
    // the mask's head dims merged with them: a view where they are 1, else expanded.
    for (mask, call) in [
        ("bool[2, 1, 1, 1, 64]", "attn_mask=m.reshape(2, 1, 1, 64)"),
        ("bool[1, 64]", "attn_mask=m.reshape(1, 1, 1, 64)"),
        (
            "bool[2, 4, 1, 1, 64]",
            "attn_mask=m.expand(2, 4, 3, 1, 64).reshape(2, 12, 1, 64)",
        ),
    ] {
        let src = format!(
            "graph g {{\n  dtype f16\n  input q: [2, 4, 3, 1, 32]\n  input k: [2, 4, 1, 64, 32]\n  \
             input v: [2, 4, 1, 64, 32]\n  input m: {mask}\n  op a = attention(q, k, v, m) -> o\n  \
             output o\n}}\n"
        );
        let py = emitted(&src);
        assert!(py.contains(call), "{mask}\n{py}");
    }
}
