//! Unit tests of the runtimes on small graphs: views against copies (eager), each rewrite
//! (compile).

use super::*;
use crate::analysis::{Options, check_file};

/// The analysis of the first graph of `src`, which must check without errors.
pub(super) fn analysis_of(src: &str) -> Analysis {
    let r = check_file("t.fgraph", src.as_bytes(), &Options::default());
    assert!(
        r.diagnostics.iter().all(|d| !d.is_error()),
        "{:?}",
        r.diagnostics
    );
    r.graphs[0].analysis.clone().expect("analysis")
}

/// The runtime's estimate of `src` on the H100 preset, CUDA graphs.
pub(super) fn run(src: &str, runtime: Runtime) -> (Analysis, RuntimeEstimate) {
    let a = analysis_of(src);
    let hw = Hardware::preset("h100").expect("preset");
    let e = estimate(&a, &hw, LaunchMode::Graph, runtime).expect("estimate");
    (a, e)
}

/// The H100 preset and its host terms.
pub(super) fn h100_host() -> (Hardware, crate::cost::hwmodel::HostCoeffs) {
    let hw = Hardware::preset("h100").expect("preset");
    let host = hw
        .model
        .as_ref()
        .and_then(|m| m.host.clone())
        .expect("host");
    (hw, host)
}

/// Each kernel as `what:op,op` (a copy as `copy(tensor)`).
pub(super) fn kernels(a: &Analysis, e: &RuntimeEstimate) -> Vec<String> {
    let g = &a.graph;
    e.kernels
        .iter()
        .map(|k| {
            let ops: Vec<&str> = k.ops.iter().map(|&o| g.op(o).name.as_str()).collect();
            match &k.what {
                What::Copy { tensor, reason, .. } => {
                    format!(
                        "copy({}, {}){}",
                        g.tensor(*tensor).name,
                        reason.as_str(),
                        if ops.is_empty() {
                            String::new()
                        } else {
                            format!(":{}", ops.join(","))
                        }
                    )
                }
                w => format!("{}:{}", w.as_str(), ops.join(",")),
            }
        })
        .collect()
}

#[test]
fn eager_views_cost_nothing_and_a_reshape_of_a_permute_copies() {
    let src = "graph g {\n  dtype bf16\n  input q: [1024, 2048]\n  weight w: [2048, 2048]\n  op split = reshape(q) -> q3: [1024, 16, 128]\n  op heads = permute(q3, dims = [1, 0, 2]) -> qh\n  op lo = slice(qh, axis = -1, start = 0, end = 64) -> q1\n  op neg = elementwise.neg(q1) -> qn\n  op back = permute(qh, dims = [1, 0, 2]) -> qb\n  op merge = reshape(qb) -> qm: [1024, 2048]\n  op heads2 = permute(q3, dims = [1, 0, 2]) -> qh2\n  op merge2 = reshape(qh2) -> qm2: [16, 131072]\n  op proj = matmul(qm, w) -> o\n  output qn, o, qm2\n}\n";
    let (a, e) = run(src, Runtime::Eager);
    // split, heads, lo, back (permuting back makes it contiguous), merge (a view of that) and
    // heads2 are views; merge2 flattens the permuted heads: a copy.
    assert_eq!(
        kernels(&a, &e),
        ["kernel:neg", "copy(qh2, reshape):merge2", "kernel:proj"]
    );
    assert_eq!(e.views, 6);
}

#[test]
fn eager_matmul_copies_a_broadcast_k_and_takes_a_transposed_one_as_is() {
    // Grouped-query attention by broadcast: K and V [8, 1, S, D] against 4 query heads each.
    let src = "graph g {\n  dtype bf16\n  input q: [8, 4, 256, 128]\n  input k: [8, 1, 256, 128]\n  input v: [8, 1, 256, 128]\n  op s = matmul(q, k.T) -> sc\n  op p = reduction.softmax(sc, axis = -1) -> pr: [8, 4, 256, 256]\n  op o = matmul(pr, v) -> out\n  op plain = matmul(q, q.T) -> qq\n  output out, qq\n}\n";
    let (a, e) = run(src, Runtime::Eager);
    assert_eq!(
        kernels(&a, &e),
        [
            "copy(k, broadcast)",
            "kernel:s",
            "kernel:p",
            "copy(v, broadcast)",
            "kernel:o",
            "kernel:plain"
        ]
    );
    // The copy writes the broadcast K (4x its bytes) and reads K once.
    let c = &e.kernels[0].prediction;
    assert_eq!(c.dram_written, 8 * 4 * 256 * 128 * 2);
    assert_eq!(c.dram_read, 8 * 256 * 128 * 2);
}

#[test]
fn eager_softmax_of_a_permuted_tensor_is_made_contiguous_first_but_elementwise_is_not() {
    let src = "graph g {\n  dtype f16\n  input x: [64, 128, 256]\n  op t = permute(x, dims = [0, 2, 1]) -> xt\n  op e = elementwise.exp(xt) -> y\n  op s = reduction.softmax(xt, axis = -1) -> z: [64, 256, 128]\n  output y, z\n}\n";
    let (a, e) = run(src, Runtime::Eager);
    assert_eq!(
        kernels(&a, &e),
        ["kernel:e", "copy(xt, contiguous)", "kernel:s"]
    );
    // A transposing copy.
    let t = &e.kernels[1];
    assert!(t.prediction.kernel_s > 0.0);
}

#[test]
fn eager_cast_to_its_own_dtype_is_no_kernel() {
    let src = "graph g {\n  dtype bf16\n  input x: [1024, 1024]\n  op same = elementwise.cast(x) -> y: bf16[1024, 1024]\n  op up = elementwise.cast(y) -> z: f32[1024, 1024]\n  output z\n}\n";
    let (a, e) = run(src, Runtime::Eager);
    assert_eq!(kernels(&a, &e), ["kernel:up"]);
    assert_eq!(e.views, 1);
}

/// An attention layer in Hugging Face's eager form: projections of `[B, S, H]` hidden
/// states, heads, `repeat_kv` of K and V, scores times the scaling plus a mask, softmax in
/// f32 between casts, P·V, the head merge, the output projection. `B`, `S` and the GQA
/// group `G` are parameters; `div` writes the scale as a division by √D (BERT's form, the
/// one Inductor's patterns with a mask take) instead of the multiplication.
pub(super) fn hf_attention(b: u64, s: u64, g: u64, div: bool) -> String {
    let src = format!(
        "graph g {{\n  param B = {b}\n  param S = {s}\n  param NKV = 2\n  param G = {g}\n  param NH = NKV * G\n  dtype bf16\n  input x: [B, S, 512]\n  input mask: [B, 1, S, S]\n  weight wq: [512, NH * 64]\n  weight wk: [512, NKV * 64]\n  weight wv: [512, NKV * 64]\n  weight wo: [NH * 64, 512]\n  op q_proj = matmul(x, wq) -> q\n  op k_proj = matmul(x, wk) -> k\n  op v_proj = matmul(x, wv) -> v\n  op q_split = reshape(q) -> q4: [B, S, NH, 64]\n  op q_heads = permute(q4, dims = [0, 2, 1, 3]) -> qh\n  op k_split = reshape(k) -> k4: [B, S, NKV, 64]\n  op k_heads = permute(k4, dims = [0, 2, 1, 3]) -> kh\n  op v_split = reshape(v) -> v4: [B, S, NKV, 64]\n  op v_heads = permute(v4, dims = [0, 2, 1, 3]) -> vh\n  op k_group = reshape(kh) -> k5: [B, NKV, 1, S, 64]\n  op k_expand = expand(k5) -> k6: [B, NKV, G, S, 64]\n  op k_repeat = reshape(k6) -> kx: [B, NH, S, 64]\n  op v_group = reshape(vh) -> v5: [B, NKV, 1, S, 64]\n  op v_expand = expand(v5) -> v6: [B, NKV, G, S, 64]\n  op v_repeat = reshape(v6) -> vx: [B, NH, S, 64]\n  op scores = matmul(qh, kx.T) -> sc\n  op scale = elementwise.mul(sc, 0.125) -> scs\n  op masked = elementwise.add(scs, mask) -> scm\n  op up_f32 = elementwise.cast(scm) -> sf: f32[B, NH, S, S]\n  op softmax = reduction.softmax(sf, axis = -1) -> pf: f32[B, NH, S, S]\n  op down_bf16 = elementwise.cast(pf) -> p: bf16[B, NH, S, S]\n  op attn = matmul(p, vx) -> ah\n  op attn_heads = permute(ah, dims = [0, 2, 1, 3]) -> at\n  op attn_merge = reshape(at) -> am: [B, S, NH * 64]\n  op o_proj = matmul(am, wo) -> o\n  output o\n}}\n"
    );
    if div {
        src.replace("elementwise.mul(sc, 0.125)", "elementwise.div(sc, 8.0)")
    } else {
        src
    }
}

#[test]
fn compile_rewrites_attention_that_divides_then_masks_into_sdpa_and_its_head_merge_is_a_view() {
    let (a, e) = run(&hf_attention(1, 256, 4, true), Runtime::Compile);
    assert_eq!(e.sdpa.len(), 1);
    assert_eq!(e.sdpa[0].1, Ok(()));
    assert_eq!(
        kernels(&a, &e),
        [
            "kernel:q_proj,q_split,q_heads",
            "kernel:k_proj,k_split,k_heads",
            "kernel:v_proj,v_split,v_heads",
            "copy(kh, reshape):k_group,k_expand,k_repeat",
            "copy(vh, reshape):v_group,v_expand,v_repeat",
            "sdpa:scores,scale,masked,up_f32,softmax,down_bf16,attn,attn_heads",
            "kernel:o_proj"
        ]
    );
    // The head merge after SDPA moves nothing.
    assert_eq!(e.views, 1);
    // Eager runs all of it op by op: the repeat copies and the head merge are copies, the
    // rest of the layout ops views.
    let (a, e) = run(&hf_attention(1, 256, 4, false), Runtime::Eager);
    let ks = kernels(&a, &e);
    assert_eq!(ks.len(), 14, "{ks:?}");
    assert_eq!(e.copies(), 3);
    assert_eq!(e.views, 11);
}

#[test]
fn compile_keeps_3d_attention_and_grouped_query_attention_by_broadcast() {
    // Scores of rank 3 with a scale: not one of Inductor's patterns (the tuned layers of
    // docs/VALIDATION.md §15: `llama_layer`, `gpt2_block`).
    let three = "graph g {\n  dtype bf16\n  input q: [16, 1024, 128]\n  input k: [16, 1024, 128]\n  input v: [16, 1024, 128]\n  op s = matmul(q, k.T) -> sc\n  op m = elementwise.mul(sc, 0.088) -> scs\n  op p = reduction.softmax(scs, axis = -1) -> pr: [16, 1024, 1024]\n  op o = matmul(pr, v) -> out\n  output out\n}\n";
    let (a, e) = run(three, Runtime::Compile);
    assert_eq!(e.sdpa[0].1, Err(SdpaMiss::Rank { rank: 3 }));
    assert_eq!(kernels(&a, &e), ["kernel:s", "kernel:m,p", "kernel:o"]);
    // Bare (`bmm`, softmax, `bmm`): Inductor's 3-D pattern.
    let bare = three
        .replace("op m = elementwise.mul(sc, 0.088) -> scs\n", "")
        .replace("softmax(scs", "softmax(sc");
    let (_, e) = run(&bare, Runtime::Compile);
    assert_eq!(e.sdpa[0].1, Ok(()));
    // K and V broadcast over query heads: matmul copies them (a Triton copy each).
    let gqa = "graph g {\n  dtype bf16\n  input q: [8, 4, 256, 128]\n  input k: [8, 1, 256, 128]\n  input v: [8, 1, 256, 128]\n  op s = matmul(q, k.T) -> sc\n  op m = elementwise.mul(sc, 0.088) -> scs\n  op p = reduction.softmax(scs, axis = -1) -> pr: [8, 4, 256, 256]\n  op o = matmul(pr, v) -> out\n  output out\n}\n";
    let (a, e) = run(gqa, Runtime::Compile);
    assert!(matches!(
        e.sdpa[0].1,
        Err(SdpaMiss::Copy {
            reason: CopyReason::Broadcast,
            ..
        })
    ));
    assert_eq!(
        kernels(&a, &e),
        [
            "copy(k, broadcast)",
            "kernel:s",
            "kernel:m,p",
            "copy(v, broadcast)",
            "kernel:o"
        ]
    );
    // Anything else between the matmuls (a tanh soft-cap) keeps the pattern.
    let capped = gqa.replace("[8, 1, 256, 128]", "[8, 4, 256, 128]").replace(
        "op m = elementwise.mul(sc, 0.088) -> scs",
        "op m = elementwise.tanh(sc) -> scs",
    );
    let (a, e) = run(&capped, Runtime::Compile);
    let Err(SdpaMiss::Op { op }) = e.sdpa[0].1 else {
        panic!("{:?}", e.sdpa)
    };
    assert_eq!(a.graph.op(op).name, "m");
}

#[test]
fn compile_computes_a_pending_bias_in_the_operand_copies() {
    // BERT's Q, K, V with biases at batch 2: each head split is copied before the batched
    // matmul, and the bias add is computed in that copy (no kernel of its own).
    let src = "graph g {\n  dtype f16\n  input x: [2, 128, 256]\n  weight wq: [256, 256]\n  weight bq: [256]\n  weight wk: [256, 256]\n  weight bk: [256]\n  op q0 = matmul(x, wq) -> qa\n  op qb = elementwise.add(qa, bq) -> q\n  op k0 = matmul(x, wk) -> ka\n  op kb = elementwise.add(ka, bk) -> k\n  op qs = reshape(q) -> q4: [2, 128, 4, 64]\n  op qh = permute(q4, dims = [0, 2, 1, 3]) -> qhh\n  op ks = reshape(k) -> k4: [2, 128, 4, 64]\n  op kh = permute(k4, dims = [0, 2, 1, 3]) -> khh\n  op s = matmul(qhh, khh.T) -> sc\n  output sc\n}\n";
    let (a, e) = run(src, Runtime::Compile);
    assert_eq!(
        kernels(&a, &e),
        [
            "kernel:q0",
            "kernel:k0",
            "copy(qhh, batch-layout):qb,qs,qh",
            "copy(khh, batch-layout):kb,ks,kh",
            "kernel:s"
        ]
    );
    // Eager adds the biases, then copies.
    let (a, e) = run(src, Runtime::Eager);
    assert_eq!(
        kernels(&a, &e),
        [
            "kernel:q0",
            "kernel:qb",
            "kernel:k0",
            "kernel:kb",
            "copy(qhh, batch-layout)",
            "copy(khh, batch-layout)",
            "kernel:s"
        ]
    );
}

#[test]
fn compile_computes_a_residual_add_in_the_next_norm_across_layers() {
    // Two layers of [B, S, H] hidden states: each layer's residual add is read by the next
    // layer's RMSNorm (written op by op) and by the next residual: one kernel computes the
    // sum and normalises it; the sum loads two tensors, so Inductor inlines it into both
    // readers rather than storing it (VALIDATION.md §53), and the next residual computes it
    // again.
    let src = "block layer(S) {\n  dtype bf16\n  input x: [1, S, 512]\n  weight w: [512, 512]\n  weight nw: [512]\n  op up = elementwise.cast(x) -> xf: f32[1, S, 512]\n  op sq = elementwise.mul(xf, xf) -> x2\n  op var = reduction.mean(x2, axis = -1, keepdim = 1) -> vr: [1, S, 1]\n  op eps = elementwise.add(vr, 1e-5) -> ve\n  op rstd = elementwise.rsqrt(ve) -> r\n  op nrm = elementwise.mul(xf, r) -> xr\n  op down = elementwise.cast(xr) -> xb: bf16[1, S, 512]\n  op scale = elementwise.mul(nw, xb) -> xn\n  op proj = matmul(xn, w) -> o\n  op res = elementwise.add(x, o) -> y\n  output y\n}\ngraph g {\n  dtype bf16\n  input x: [1, 256, 512]\n  repeat 2 layers = layer(x, S = 256) -> h\n  output h\n}\n";
    let (a, e) = run(src, Runtime::Compile);
    let ks = kernels(&a, &e);
    assert_eq!(ks.len(), 5, "{ks:?}");
    assert!(
        ks[2].starts_with("kernel:layers.0.res,layers.1.up,"),
        "{ks:?}"
    );
    // The kernel stores only the normalised value; the last residual reads x and both
    // projections' outputs.
    let hidden = 256 * 512 * 2;
    assert_eq!(e.kernels[2].prediction.dram_written, hidden);
    assert_eq!(ks[4], "kernel:layers.1.res");
    assert_eq!(e.kernels[4].prediction.dram_read, 3 * hidden);
    let (_, eager) = run(src, Runtime::Eager);
    assert_eq!(eager.kernels.len(), 2 * 10);
}

#[test]
fn eager_adds_the_kernels_pytorch_needs_beyond_the_op() {
    // Three operands: `torch.add` twice. A causal softmax: `masked_fill`, then the softmax
    // (not for one query, which sees every key). A norm over the first axis: moved last.
    let src = "graph g {\n  dtype f16\n  input a: [256, 256]\n  input b: [256, 256]\n  input c: [256, 256]\n  input w: [256]\n  op s = elementwise.add(a, b, c) -> y\n  op p = reduction.softmax(y, axis = -1, causal = true) -> z: [256, 256]\n  op q = reduction.softmax(a[0], axis = -1, causal = true) -> z1: [256]\n  op n = reduction.layernorm(z, axis = 0) -> v: [256, 256]\n  output v, z1\n}\n";
    let (a, e) = run(src, Runtime::Eager);
    assert_eq!(
        kernels(&a, &e),
        [
            "kernel:s", "kernel:s", "kernel:p", "kernel:p", "kernel:q", "kernel:n", "kernel:n"
        ]
    );
    // Compiled, each is one Triton kernel's work.
    let (_, c) = run(src, Runtime::Compile);
    assert!(c.kernels.len() <= 3, "{:?}", c.kernels.len());
}

#[test]
fn kernels_in_a_stream_are_shorter_than_alone_and_the_gap_is_the_streams() {
    // A decode-sized projection: a GEMV cuBLAS splits (a K or V projection's 16 tiles: 2 CUDA
    // kernels) and small elementwise kernels.
    let src = "graph g {\n  input x: f16[2, 4096]\n  input r: f16[2, 1024]\n  \
               weight w: f16[4096, 1024]\n  op m = matmul(x, w) -> y: [2, 1024]\n  \
               op s = elementwise.silu(y) -> z\n  op a = elementwise.add(z, r) -> o\n  \
               output o\n}\n";
    let r = check_file("t.fgraph", src.as_bytes(), &Options::default());
    let a = r.graphs[0].analysis.clone().expect("analysis");
    let (mut hw, host) = h100_host();
    let (d, g) = (
        host.stream_discount_us.expect("discount") * 1e-6,
        host.graph_gap_us.expect("gap") * 1e-6,
    );
    // Reads from L2 (`warm_read_factor`) are another test's.
    if let Some(h) = hw.model.as_mut().and_then(|m| m.host.as_mut()) {
        h.warm_read_factor = None;
    }
    // The same GPU without the two stream terms: the calibration's single kernels.
    let mut alone_hw = hw.clone();
    if let Some(m) = alone_hw.model.as_mut()
        && let Some(h) = m.host.as_mut()
    {
        h.stream_discount_us = None;
        h.graph_gap_us = None;
    }
    for runtime in [Runtime::Eager, Runtime::Compile] {
        let streamed = estimate(&a, &hw, LaunchMode::Graph, runtime).expect("estimate");
        let alone = estimate(&a, &alone_hw, LaunchMode::Graph, runtime).expect("estimate");
        assert_eq!(streamed.kernels.len(), alone.kernels.len());
        assert_eq!(
            (alone.gap_s, alone.stream_discount_s),
            (hw.launch(LaunchMode::Graph), 0.0)
        );
        assert_eq!((streamed.gap_s, streamed.stream_discount_s), (g, d));
        let mut total = 0.0;
        for (s, o) in streamed.kernels.iter().zip(&alone.kernels) {
            let n = s.launches as f64;
            let expected = (o.prediction.kernel_s - n * d).max(o.prediction.kernel_s / 2.0);
            assert!((s.prediction.kernel_s - expected).abs() < 1e-12);
            assert!(s.prediction.kernel_s < o.prediction.kernel_s);
            assert!((s.prediction.time_s - (expected + n * g)).abs() < 1e-12);
            total += expected + n * g;
        }
        assert!((streamed.time_s - total).abs() < 1e-12);
        assert!(streamed.time_s < alone.time_s);
        // The matmul is split-K on this GEMV: two CUDA kernels, each shortened.
        assert!(streamed.kernels.iter().any(|k| k.launches == 2));
    }
}

#[test]
fn compile_runs_a_one_row_batched_matmul_in_f32() {
    // A multi-head decode step as `fgraph import hf` writes it (5-D heads, `[B, NKV, G, S,
    // D]`, G = 1: no SDPA rewrite): one query row per head against a cache, then the head
    // merge and the output projection (whose 3-D input has one row per batch too, but a 2-D
    // weight: a linear layer, which stays in 16 bits).
    let src = "graph g {\n  dtype f16\n  input x: [4, 1, 512]\n  input kc: [4, 8, 1, 512, 64]\n  input vc: [4, 8, 1, 512, 64]\n  input kn: [4, 8, 1, 1, 64]\n  input vn: [4, 8, 1, 1, 64]\n  weight wq: [512, 512]\n  weight wo: [512, 512]\n  op k_up = update(kc, kn, axis = 3, start = 511) -> k\n  op v_up = update(vc, vn, axis = 3, start = 511) -> v\n  op q_proj = matmul(x, wq) -> q\n  op q_heads = reshape(q) -> qh: [4, 8, 1, 1, 64]\n  op scores = matmul(qh, k.T) -> sc\n  op p = reduction.softmax(sc, axis = -1) -> pr: [4, 8, 1, 1, 512]\n  op attn = matmul(pr, v) -> ah\n  op merge = reshape(ah) -> am: [4, 1, 512]\n  op o_proj = matmul(am, wo) -> o\n  output o\n}\n";
    let (a, e) = run(src, Runtime::Compile);
    assert_eq!(
        kernels(&a, &e),
        [
            "kernel:k_up",
            "kernel:v_up",
            "kernel:q_proj,q_heads",
            // Q comes from cuBLAS (through a view): its cast is a copy too.
            "copy(qh, upcast)",
            "copy(k, upcast)",
            "kernel:scores",
            "kernel:p",
            "copy(v, upcast)",
            "kernel:attn,merge",
            "copy(am, upcast)",
            "kernel:o_proj"
        ]
    );
    // K's cast is a copy to f32, read once, written at twice its bytes.
    let kc = &e.kernels[4].prediction;
    assert_eq!(kc.dram_read, 4 * 8 * 512 * 64 * 2);
    assert_eq!(kc.dram_written, 4 * 8 * 512 * 64 * 4);
    // The GEMV reads the f32 copy.
    assert!(e.kernels[5].prediction.dram_read >= 4 * 8 * 512 * 64 * 4);
    // With a mask between the matmuls (a window hiding the oldest positions: `masked_fill`
    // before the softmax) Inductor's pattern does not match: 16 bits, as measured on Phi-3-mini
    // against 4,095 positions.
    let masked = src.replace(
        "reduction.softmax(sc, axis = -1)",
        "reduction.softmax(sc, axis = -1, causal = true, window = 256)",
    );
    assert_ne!(masked, src);
    let (a, e) = run(&masked, Runtime::Compile);
    let ks = kernels(&a, &e);
    assert!(ks.contains(&"kernel:scores".to_string()), "{ks:?}");
    assert!(ks.iter().all(|k| !k.contains("upcast")), "{ks:?}");
    // Eager runs the same matmuls in f16, with no casts.
    let (a, eager) = run(src, Runtime::Eager);
    assert!(kernels(&a, &eager).iter().all(|k| !k.contains("upcast")));
    // Grouped-query decode (K and V broadcast over two query heads each: copied first, as
    // measured) stays in 16 bits.
    let gqa = src
        .replace(
            "input kc: [4, 8, 1, 512, 64]",
            "input kc: [4, 4, 1, 512, 64]",
        )
        .replace(
            "input vc: [4, 8, 1, 512, 64]",
            "input vc: [4, 4, 1, 512, 64]",
        )
        .replace("input kn: [4, 8, 1, 1, 64]", "input kn: [4, 4, 1, 1, 64]")
        .replace("input vn: [4, 8, 1, 1, 64]", "input vn: [4, 4, 1, 1, 64]")
        .replace("-> qh: [4, 8, 1, 1, 64]", "-> qh: [4, 4, 2, 1, 64]")
        .replace("-> pr: [4, 8, 1, 1, 512]", "-> pr: [4, 4, 2, 1, 512]");
    let (a, e) = run(&gqa, Runtime::Compile);
    let ks = kernels(&a, &e);
    assert!(ks.iter().all(|k| !k.contains("upcast")), "{ks:?}");
    assert!(ks.iter().any(|k| k.contains("broadcast")), "{ks:?}");
}

#[test]
fn compile_pads_a_large_misaligned_gemm_and_keeps_a_small_one() {
    // GPT-2 medium's LM head (batch 4 × 1,024 tokens) against the tied embedding: N = 50,257.
    let head = |rows: u64, d: u64| {
        format!(
            "graph g {{\n  dtype f16\n  input x: [{rows}, {d}]\n  weight wte: [50257, {d}]\n  op lm_head = matmul(x, wte.T) -> logits: [{rows}, 50257]\n  output logits\n}}\n"
        )
    };
    let (a, e) = run(&head(4096, 1024), Runtime::Compile);
    assert_eq!(kernels(&a, &e), ["copy(wte, pad)", "kernel:lm_head"]);
    let (a, eager) = run(&head(4096, 1024), Runtime::Eager);
    assert_eq!(kernels(&a, &eager), ["kernel:lm_head"]);
    // Padding and the aligned GEMM beat the unaligned kernel by more than PAD_MARGIN.
    assert!(e.kernel_s * seam::PAD_MARGIN < eager.kernel_s);
    // GPT-2 small at 512 tokens: padding is predicted less than PAD_MARGIN faster (measured:
    // Inductor kept CUTLASS's unaligned kernel).
    let (a, e) = run(&head(512, 768), Runtime::Compile);
    assert_eq!(kernels(&a, &e), ["kernel:lm_head"]);
}

#[test]
fn compile_prices_a_fused_norm_and_a_short_softmax_as_streaming_kernels() {
    let src = "graph g {\n  dtype f16\n  input x: [4096, 1024]\n  input r: [4096, 1024]\n  weight w: [1024]\n  weight b: [1024]\n  input s: [64, 1024, 1024]\n  input l: [32, 512, 4096]\n  op res = elementwise.add(x, r) -> h\n  op ln = reduction.layernorm(h, w, b, eps = 1e-5) -> y: [4096, 1024]\n  op sm = reduction.softmax(s, axis = -1) -> p: [64, 1024, 1024]\n  op long = reduction.softmax(l, axis = -1) -> q: [32, 512, 4096]\n  output h, y, p, q\n}\n";
    let (a, compile) = run(src, Runtime::Compile);
    let (_, eager) = run(src, Runtime::Eager);
    let time = |e: &RuntimeEstimate, op: &str| {
        e.kernels
            .iter()
            .find(|k| k.ops.iter().any(|&o| a.graph.op(o).name == op))
            .map(|k| k.prediction)
            .expect(op)
    };
    let hw = Hardware::preset("h100").expect("preset");
    let ew = hw.model.as_ref().expect("model").families.elementwise;
    // The norm (with the residual add it computes) and the softmax over rows of 1,024: one
    // streaming pass at the elementwise family's bandwidth.
    for op in ["ln", "sm"] {
        let p = time(&compile, op);
        let bytes = (p.dram_read + p.dram_written) as f64;
        assert!(
            (p.memory_s - bytes / (hw.bandwidth * ew.bandwidth_efficiency)).abs() < 1e-12,
            "{op}: {p:?}, {}",
            bytes / (hw.bandwidth * ew.bandwidth_efficiency)
        );
    }
    // PyTorch's softmax over the same rows (the softmax family) is slower.
    assert!(time(&compile, "sm").kernel_s < time(&eager, "sm").kernel_s);
    // Rows of 4,096 loop (`triton_red_fused`): the softmax family, as PyTorch's.
    let long = time(&compile, "long");
    let bytes = (long.dram_read + long.dram_written) as f64;
    assert!(long.memory_s > bytes / (hw.bandwidth * ew.bandwidth_efficiency) * 1.05);
}

#[test]
fn triton_prices_a_transposing_copy_by_its_tile() {
    use seam::{CopyShape, Pricing, Runner, TRITON_TILE_SPEEDUP};
    let hw = Hardware::preset("h100").expect("preset");
    let model = hw.model.as_ref().expect("model");
    let p = Pricing::new(model, &hw, LaunchMode::Graph);
    // A decode step's Kᵀ cast to f32: 67 M elements, far more than L2.
    let kt = |tile: u64| CopyShape {
        read: 134_217_728,
        written: 268_435_456,
        elements: 67_108_864,
        transposed_tile: Some(tile),
        broadcast: false,
    };
    let eager = p.layout_copy(&kt(512 * 128), Runner::Eager);
    // 1,024 positions × 128 of f32: 512 KiB a tile, as slow as PyTorch's copy.
    let slow = p.layout_copy(&kt(1024 * 128), Runner::Triton);
    assert_eq!(slow.kernel_s, eager.kernel_s);
    // 512 positions: 256 KiB, the largest tile that runs faster.
    let fast = p.layout_copy(&kt(512 * 128), Runner::Triton);
    assert!((fast.kernel_s * TRITON_TILE_SPEEDUP - eager.kernel_s).abs() < 1e-15);
    assert_eq!(fast.dram_read, eager.dram_read);
    // A small copy within L2 with a small tile: Triton's copy rate, as a copy of runs.
    let small = CopyShape {
        read: 1 << 21,
        written: 1 << 22,
        elements: 1 << 20,
        transposed_tile: Some(512 * 64),
        broadcast: false,
    };
    let runs = p.layout_copy(
        &CopyShape {
            transposed_tile: None,
            ..small
        },
        Runner::Triton,
    );
    assert_eq!(
        p.layout_copy(&small, Runner::Triton).kernel_s,
        runs.kernel_s
    );
    // The same copy broadcasting (Kᵀ over a group's heads): the faster transposing rate.
    let bc = CopyShape {
        broadcast: true,
        ..small
    };
    let e = p.layout_copy(&bc, Runner::Eager);
    assert!(
        (p.layout_copy(&bc, Runner::Triton).kernel_s * TRITON_TILE_SPEEDUP - e.kernel_s).abs()
            < 1e-15
    );
    // Within L2 but with a large tile (Llama-2-13B's Kᵀ at 1,024 positions): slow.
    let wide = CopyShape {
        transposed_tile: Some(1024 * 128),
        ..small
    };
    assert_eq!(
        p.layout_copy(&wide, Runner::Triton).kernel_s,
        p.layout_copy(&wide, Runner::Eager).kernel_s
    );
}

#[test]
fn compile_runs_a_2d_conv_channels_last_and_a_group_norm_as_streaming_kernels() {
    // SD 1.5's resnet conv and group norm, contiguous (NCHW) as the file states them.
    let src = |cl: &str| {
        format!(
            "graph g {{\n  dtype f16\n  input x: [2, 320, 64, 64]\n  weight w: [320, 320, 3, 3]\n  weight gw: [320]\n  weight gb: [320]\n  op conv = conv(x, w, padding = 1{cl}) -> c: [2, 320, 64, 64]\n  op gn = reduction.group_norm(c, gw, gb, groups = 32, eps = 1e-5) -> n\n  output n\n}}\n"
        )
    };
    let nchw = src("");
    let (a, compile) = run(&nchw, Runtime::Compile);
    let (_, eager) = run(&nchw, Runtime::Eager);
    let (b, cl) = run(&src(", channels_last = true"), Runtime::Eager);
    let time = |a: &Analysis, e: &RuntimeEstimate, op: &str| {
        e.kernels
            .iter()
            .find(|k| k.ops.iter().any(|&o| a.graph.op(o).name == op))
            .map(|k| k.prediction.time_s)
            .expect(op)
    };
    // Inductor's layout optimisation: the conv as cuDNN runs it channels-last, without the
    // transposes eager runs around an NCHW conv, after a Triton copy of its 3×3 weight into
    // the channels-last layout (1.8 MB each way: about 2 µs in the stream); each step's
    // sustained derate aside (it depends on the step's share of compute-bound kernels).
    let alone = |a: &Analysis, e: &RuntimeEstimate| {
        e.kernels
            .iter()
            .find(|k| k.ops.iter().any(|&o| a.graph.op(o).name == "conv"))
            .map(|k| k.prediction.kernel_s / (1.0 + e.sustained_derate))
            .expect("conv")
    };
    // Without the overlap of a lone implicit GEMM's overhead (VALIDATION.md §39), which the
    // compiled conv of two kernels (copy and conv) does not take.
    let mut no_overlap = Hardware::preset("h100").expect("preset");
    if let Some(h) = no_overlap.model.as_mut().and_then(|m| m.host.as_mut()) {
        h.matmul_overlap_exponent = None;
    }
    let cl_alone = estimate(&b, &no_overlap, LaunchMode::Graph, Runtime::Eager).expect("estimate");
    let weight_copy = alone(&a, &compile) - alone(&b, &cl_alone);
    assert!((1e-6..4e-6).contains(&weight_copy), "{weight_copy}");
    assert!(alone(&b, &cl) < alone(&b, &cl_alone));
    let conv = |a: &Analysis, e: &RuntimeEstimate| {
        e.kernels
            .iter()
            .find(|k| k.ops.iter().any(|&o| a.graph.op(o).name == "conv"))
            .map(|k| k.launches)
            .expect("conv")
    };
    assert_eq!((conv(&a, &compile), conv(&b, &cl)), (2, 1));
    assert!(time(&a, &compile, "conv") < time(&a, &eager, "conv"));
    // The group norm: two streaming passes (moments, apply) instead of PyTorch's block per
    // group of a sample and scalar apply kernel.
    assert!(time(&a, &compile, "gn") * 2.0 < time(&a, &eager, "gn"));
    // PyTorch's three CUDA kernels (moments, parameters and apply); Inductor's four, as it
    // splits each of the 64 groups (partial moments, two combines, apply); each with its
    // launch.
    for (e, n) in [(&compile, 4), (&eager, 3)] {
        let gn = e
            .kernels
            .iter()
            .find(|k| k.ops.iter().any(|&o| a.graph.op(o).name == "gn"))
            .expect("gn");
        assert_eq!(gn.launches, n);
        assert!((gn.prediction.launch_s - n as f64 * e.gap_s).abs() < 1e-15);
    }
    // A conv1d keeps its layout (Whisper's compiled stem still ran cuDNN's transposes).
    let conv1d = "graph g {\n  dtype f16\n  input x: [4, 80, 3000]\n  weight w: [384, 80, 3]\n  op conv = conv(x, w, padding = 1) -> c: [4, 384, 3000]\n  output c\n}\n";
    let (a, compile) = run(conv1d, Runtime::Compile);
    let (_, eager) = run(conv1d, Runtime::Eager);
    assert_eq!(time(&a, &compile, "conv"), time(&a, &eager, "conv"));
}

#[test]
fn plain_launches_charge_an_ungrouped_convolution_more_host_time() {
    // Small enough that every kernel waits on the host: the step is the host's pipeline.
    let src = |groups: u64| {
        format!(
            "graph g {{\n  input x: f16[1, 32, 8, 8]\n  weight w: f16[32, {}, 3, 3]\n  \
             op c = conv(x, w, padding = 1, groups = {groups}, channels_last = true) -> y: [1, 32, 8, 8]\n  \
             op r = elementwise.relu(y) -> z\n  output z\n}}\n",
            32 / groups
        )
    };
    // The presets state 0 for the convolution term (VALIDATION.md §29): a host file that does not.
    let (mut hw, _) = h100_host();
    let h = hw
        .model
        .as_mut()
        .and_then(|m| m.host.as_mut())
        .expect("host");
    h.runtime_conv_eager_us = Some(100.0);
    h.runtime_conv_compile_us = Some(50.0);
    let host = h.clone();
    // Under compile a graph with an ungrouped convolution takes the host
    // `runtime_compile_conv_graph_us` a kernel (VALIDATION.md §51); a depthwise one does not.
    let compile = host.runtime_compile_us.expect("compile");
    for (runtime, per_kernel, conv_graph_kernel, conv) in [
        (
            Runtime::Eager,
            host.runtime_eager_us.expect("eager"),
            host.runtime_eager_us.expect("eager"),
            host.runtime_conv_eager_us.expect("conv eager"),
        ),
        (
            Runtime::Compile,
            compile,
            host.runtime_compile_conv_graph_us.expect("conv graph"),
            host.runtime_conv_compile_us.expect("conv compile"),
        ),
    ] {
        let step = |groups: u64| estimate_source(&src(groups), &hw, LaunchMode::Eager, runtime);
        let (plain, depthwise) = (step(1), step(32));
        assert_eq!(plain.conv_host_s, Some(conv * 1e-6));
        assert_eq!((plain.host_convs, depthwise.host_convs), (1, 0));
        // The last kernel starts when the host has issued it and runs for its own time.
        let last = plain.kernels.last().expect("kernel").prediction.kernel_s;
        // A compiled step's host first spends its time per tensor on `x` and `w`.
        let inputs = plain.input_host_s.expect("plain launches") * plain.host_inputs as f64;
        assert_eq!(
            plain.host_inputs,
            if runtime == Runtime::Compile { 2 } else { 0 }
        );
        let issued = plain.kernels.len() as f64 * conv_graph_kernel + conv;
        let want = issued * 1e-6 + inputs + last + plain.gap_s;
        assert!(
            (plain.time_s - want).abs() < 1e-9,
            "{runtime:?}: {} vs {want}",
            plain.time_s
        );
        // A depthwise convolution costs the host what any kernel does.
        let last = depthwise
            .kernels
            .last()
            .expect("kernel")
            .prediction
            .kernel_s;
        let want =
            depthwise.kernels.len() as f64 * per_kernel * 1e-6 + inputs + last + depthwise.gap_s;
        assert!((depthwise.time_s - want).abs() < 1e-9, "{runtime:?}");
    }
}

/// The runtime's estimate of the first graph of `src`, which must check without errors.
fn estimate_source(
    src: &str,
    hw: &Hardware,
    launch: LaunchMode,
    runtime: Runtime,
) -> RuntimeEstimate {
    estimate(&analysis_of(src), hw, launch, runtime).expect("estimate")
}

/// Under `compile` with plain launches, the host spends `runtime_compile_input_us` on each
/// tensor the step takes (graph inputs and weights) before its first kernel; `eager` and
/// CUDA graphs do not (VALIDATION.md §47).
#[test]
fn a_compiled_step_pays_for_each_tensor_it_takes() {
    let src = |weights: usize| {
        let mut s = String::from("graph g {\n  input x: f16[64]\n");
        for i in 0..weights {
            s.push_str(&format!("  weight w{i}: f16[64]\n"));
        }
        let mut last = "x".to_string();
        for i in 0..weights {
            s.push_str(&format!(
                "  op a{i} = elementwise.add({last}, w{i}) -> y{i}\n"
            ));
            last = format!("y{i}");
        }
        s.push_str(&format!("  output {last}\n}}\n"));
        s
    };
    let (hw, _) = h100_host();
    let per_input = hw
        .model
        .as_ref()
        .and_then(|m| m.host.as_ref())
        .and_then(|h| h.runtime_compile_input_us)
        .expect("the presets state runtime_compile_input_us");
    assert!(per_input > 0.0);
    let step = |weights: usize, launch: LaunchMode, runtime: Runtime| {
        estimate_source(&src(weights), &hw, launch, runtime)
    };
    let (few, many) = (
        step(2, LaunchMode::Eager, Runtime::Compile),
        step(40, LaunchMode::Eager, Runtime::Compile),
    );
    // Inductor fuses the chain into one kernel either way; the 38 more weights cost the host
    // 38 × per_input, and the lone kernel waits on the host.
    assert_eq!((few.kernels.len(), many.kernels.len()), (1, 1));
    assert_eq!((few.host_inputs, many.host_inputs), (3, 41));
    assert_eq!(many.input_host_s, Some(per_input * 1e-6));
    let gpu = |e: &RuntimeEstimate| e.kernels[0].prediction.kernel_s;
    let extra = (many.time_s - gpu(&many)) - (few.time_s - gpu(&few));
    assert!(
        (extra - 38.0 * per_input * 1e-6).abs() < 1e-9,
        "{extra} vs {}",
        38.0 * per_input * 1e-6
    );
    // Eager takes no such time; CUDA graphs take the host out of the step.
    let eager = step(40, LaunchMode::Eager, Runtime::Eager);
    assert_eq!((eager.host_inputs, eager.input_host_s), (0, Some(0.0)));
    let graph = step(40, LaunchMode::Graph, Runtime::Compile);
    assert_eq!((graph.host_inputs, graph.input_host_s), (41, None));
}

/// The sustained derate grows with the step's share of compute-bound tensor-core kernels
/// (`model.host.sustained_share` 0.35, `sustained_derate` 0.175 on the H100 presets,
/// validation/gpu/models/fit_derate.py and fit_warm.py): a step of one large GEMM (all of it)
/// gets the whole 17.5%; a step whose GEMM is a third of it or less gets none; memory-bound
/// kernels never.
#[test]
fn the_sustained_derate_follows_the_steps_share_of_compute_bound_kernels() {
    let gemm = "graph g {\n  dtype bf16\n  input x: [8192, 8192]\n  weight w: [8192, 8192]\n  \
                op mm = matmul(x, w) -> y\n  output y\n}\n";
    let (_, e) = run(gemm, Runtime::Eager);
    assert!(
        (e.sustained_share - 1.0).abs() < 1e-9,
        "{}",
        e.sustained_share
    );
    assert!(
        (e.sustained_derate - 0.175).abs() < 1e-12,
        "{}",
        e.sustained_derate
    );
    // A short GEMM among long memory-bound kernels: no derate.
    let mixed = "graph g {\n  dtype bf16\n  input x: [256, 1024]\n  weight w: [1024, 1024]\n  \
                 input big: [16384, 16384]\n  op mm = matmul(x, w) -> y\n  \
                 op e = elementwise.gelu(big) -> z\n  op f = elementwise.relu(z) -> u\n  \
                 output y, u\n}\n";
    let (a, e) = run(mixed, Runtime::Eager);
    assert!(e.sustained_share < 0.35, "{}", e.sustained_share);
    assert_eq!(e.sustained_derate, 0.0);
    // In between, in proportion: (share − 0.35) / 0.65 of 0.175.
    let hw = Hardware::preset("h100").expect("preset");
    let p = super::seam::Pricing::new(hw.model.as_ref().expect("model"), &hw, LaunchMode::Graph);
    assert!((p.sustained_derate(0.675) - 0.0875).abs() < 1e-12);
    assert_eq!(p.sustained_derate(0.2), 0.0);
    // Only compute-bound tensor-core kernels are lengthened.
    for k in &e.kernels {
        let sustains = super::seam::Pricing::sustains(&k.prediction);
        let name = &a.graph.op(k.ops[0]).name;
        assert_eq!(sustains, name == "mm" && sustains, "{name}");
    }
}

#[test]
fn a_lone_concat_is_pytorch_s_cat_under_eager_and_a_triton_copy_under_compile() {
    // Strided halves, as `rotate_half` joins them (contiguous ones take the vectorized
    // kernel: tests_cat.rs).
    let src = "graph g {\n  input x: bf16[1, 32, 4096, 128]\n  op lo = slice(x, axis = -1, start = 0, end = 64) -> a\n  op hi = slice(x, axis = -1, start = 64, end = 128) -> b\n  op c = concat(b, a, axis = -1) -> y: [1, 32, 4096, 128]\n  output y\n}\n";
    let (a, eager) = run(src, Runtime::Eager);
    let (_, compile) = run(src, Runtime::Compile);
    let cat = |e: &RuntimeEstimate| {
        e.kernels
            .iter()
            .find(|k| k.ops.iter().any(|&o| a.graph.op(o).name == "c"))
            .map(|k| k.prediction.kernel_s)
            .expect("c")
    };
    // `CatArrayBatchedCopy` at about a third of the vectorized rate (VALIDATION.md §42).
    assert!(
        cat(&eager) > 2.5 * cat(&compile),
        "{} {}",
        cat(&eager),
        cat(&compile)
    );
}
