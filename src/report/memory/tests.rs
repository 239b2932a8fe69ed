//! The memory report against figures computed by hand.

use super::{Probe, max_param, memory};
use crate::analysis::{Options, check_file};
use std::path::Path;

/// The memory report of an example (its only graph), with `--set` values.
fn example(name: &str, set: &[(&str, i64)]) -> super::Memory {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(name);
    let bytes = std::fs::read(&p).expect("example");
    let opts = Options {
        overrides: set.iter().map(|&(n, v)| (n.to_string(), v)).collect(),
        ..Options::default()
    };
    let r = check_file(&p.display().to_string(), &bytes, &opts);
    let g = &r.graphs[0];
    let a = g.analysis.as_ref().expect("analyses");
    let batch = crate::report::batch_param(&r, Some(g), &opts.overrides);
    memory(a, &g.instances, "h100", Some(80_000_000_000), &|| {
        batch.clone()
    })
    .expect("fits 64 bits")
}

/// Llama-3-8B's parameters, by hand: per layer the attention norm (4,096), wq and wo (4,096²
/// each), wk and wv (4,096 × 1,024 each) = 41,947,136 and the FFN (its norm, 4,096, and three
/// 4,096 × 14,336 matrices) = 176,164,864; outside: the embedding and the LM head (128,256 ×
/// 4,096 each) and the final norm = 1,050,677,248. 32 layers: 8,030,261,248, in bf16.
const LLAMA_PARAMS: u64 = 32 * (41_947_136 + 176_164_864) + 1_050_677_248;

#[test]
fn llama3_8b_prefill() {
    let m = example("llama3_8b.fgraph", &[]);
    assert_eq!(LLAMA_PARAMS, 8_030_261_248);
    assert_eq!(
        (m.parameters, m.weight_bytes),
        (LLAMA_PARAMS, 2 * LLAMA_PARAMS)
    );
    let rows: Vec<(&str, Option<usize>, u64)> = m
        .blocks
        .iter()
        .map(|b| (b.name.as_str(), b.instances, b.parameters))
        .collect();
    assert_eq!(
        rows,
        [
            ("decoder", Some(32), 32 * 41_947_136),
            ("rope", Some(64), 0),
            ("ffn", Some(32), 32 * 176_164_864),
            ("(outside blocks)", None, 1_050_677_248),
        ]
    );
    assert_eq!((m.state_bytes, m.kv_cache.is_none()), (0, true));
    // S = 2048: at the first layer's softmax kernel, its input `scs` and output `p` ([8, 4,
    // S, S] bf16, 268,435,456 B each) are live with the residual stream `x` ([S, 4096],
    // 16,777,216 B, read again by the residual add), `cos` and `sin` ([S, 128], 524,288 B
    // each, read by every layer) and `vh` ([8, 1, S, 128], 4,194,304 B, read by P·V).
    let peak = 2 * 268_435_456 + 16_777_216 + 2 * 524_288 + 4_194_304;
    assert_eq!(m.activations.peak_bytes, peak);
    assert_eq!(m.activations.peak_op.as_deref(), Some("layers.0.softmax"));
    assert_eq!(m.total_bytes, 2 * LLAMA_PARAMS + peak);
    assert_eq!(m.fits, Some(true));
}

#[test]
fn llama3_8b_decode_kv_cache() {
    let m = example("llama3_8b_decode.fgraph", &[]);
    // The caches are declared as weights but written by `update`: state, not parameters.
    assert_eq!(
        (m.parameters, m.weight_bytes),
        (LLAMA_PARAMS, 2 * LLAMA_PARAMS)
    );
    let kv = m.kv_cache.as_ref().expect("caches");
    // 32 layers × (K, V) × 8 KV heads × 128 dims × 2 bytes = 131,072 B per token; T + 1 =
    // 32,768 positions: 4 GiB per sequence.
    assert_eq!(kv.tensors, 64);
    assert_eq!(kv.bytes_per_token, Some(32 * 2 * 8 * 128 * 2));
    assert_eq!(kv.positions, Some(32_768));
    assert_eq!(kv.bytes_per_sequence, Some(131_072 * 32_768));
    assert_eq!((kv.batch_param.as_deref(), kv.sequences), (Some("B"), 1));
    assert_eq!(m.state_bytes, kv.bytes);
    // The first softmax: `scs` and `p` ([8, 4, 1, 32768] bf16, 2 MiB each), `x` ([1, 4096],
    // 8 KiB), `cos` and `sin` (256 B each); the caches (and what `update` writes into them)
    // are not activations.
    let peak = 2 * 2_097_152 + 8_192 + 512;
    assert_eq!(m.activations.peak_bytes, peak);
    assert_eq!(m.total_bytes, 2 * LLAMA_PARAMS + kv.bytes + peak);
    // Four sequences: four times the caches, the same bytes per token.
    let m4 = example("llama3_8b_decode.fgraph", &[("B", 4)]);
    let kv4 = m4.kv_cache.as_ref().expect("caches");
    assert_eq!((kv4.sequences, kv4.bytes), (4, 4 * kv.bytes));
    assert_eq!(kv4.bytes_per_token, kv.bytes_per_token);
    assert_eq!(kv4.bytes_per_sequence, kv.bytes_per_sequence);
}

#[test]
fn mixtral_moe_parameters() {
    let m = example("mixtral_moe.fgraph", &[]);
    // 8 experts × 3 × 4,096 × 14,336, the router 4,096 × 8 and the norm 4,096.
    let experts = 8 * 3 * 4_096 * 14_336;
    assert_eq!(m.blocks[0].name, "expert");
    assert_eq!(
        (m.blocks[0].instances, m.blocks[0].parameters),
        (Some(8), experts)
    );
    assert_eq!(m.parameters, experts + 4_096 * 8 + 4_096);
    assert_eq!(m.weight_bytes, 2 * m.parameters);
    assert!(m.kv_cache.is_none());
}

/// A small graph whose peak is easy to follow: kernel 1 (`m1`) holds `x` (128 B) and writes
/// `h` (256 B); kernel 2 (`m2` with its relu) reads `h` and writes `z` (512 B); `y` stays
/// on chip and `x` is dead after kernel 1.
#[test]
fn the_peak_is_under_the_kernel_order() {
    let src = "graph g {\n  input x: [4, 8]\n  weight w: [8, 16]\n  weight v: [16, 32]\n  \
               op m1 = matmul(x, w) -> h\n  op m2 = matmul(h, v) -> y\n  \
               op r = elementwise.relu(y) -> z\n  output z\n}\n";
    let r = check_file("g.fgraph", src.as_bytes(), &Options::default());
    let a = r.graphs[0].analysis.as_ref().expect("analyses");
    let m = memory(a, &[], "gpu", Some(3_328), &|| None).expect("memory");
    assert_eq!(m.parameters, 8 * 16 + 16 * 32);
    assert_eq!(m.weight_bytes, 4 * 640);
    assert_eq!(m.activations.peak_bytes, 256 + 512);
    assert_eq!(
        (m.activations.peak_kernel, m.activations.peak_op.as_deref()),
        (Some(1), Some("m2"))
    );
    assert_eq!((m.total_bytes, m.fits), (2_560 + 768, Some(true)));
    let tight = memory(a, &[], "gpu", Some(3_327), &|| None).expect("memory");
    assert_eq!(tight.fits, Some(false));
}

/// A cache passed as an input and a batch param: 2 sequences of 10 positions of 4 f32.
#[test]
fn an_input_cache_is_state() {
    let src = "graph g {\n  param B = 2\n  input cache: [B, 1, 10, 4]\n  input new: [B, 1, 1, 4]\n  \
               op up = update(cache, new, axis = 2, start = 3) -> c2\n  \
               op s = reduction.sum(c2, axis = -1) -> t: [B, 1, 10]\n  output t\n}\n";
    let r = check_file("g.fgraph", src.as_bytes(), &Options::default());
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    let g = &r.graphs[0];
    let a = g.analysis.as_ref().expect("analyses");
    let batch = crate::report::batch_param(&r, Some(g), &Default::default());
    let m = memory(a, &[], "gpu", None, &|| batch.clone()).expect("memory");
    let kv = m.kv_cache.expect("cache");
    assert_eq!((kv.bytes, kv.sequences, kv.positions), (320, 2, Some(10)));
    assert_eq!(
        (kv.bytes_per_token, kv.bytes_per_sequence),
        (Some(16), Some(160))
    );
    assert_eq!((m.parameters, m.fits), (0, None));
    // Live: `new` (32 B) and `t` (80 B); not the cache.
    assert_eq!(m.activations.peak_bytes, 32 + 80);
    let ledger = crate::report::ledger::ledger(a);
    assert_eq!(ledger[0].why, crate::report::ledger::Why::Cache);
}

#[test]
fn max_param_searches_monotonically() {
    let mut calls = Vec::new();
    let mut probe = |v: i64| {
        calls.push(v);
        Probe::Total(100 * v as u64)
    };
    // From 1 (100 B fits in 1,050): 2, 4, 8, 16 (too big), then 12, 10, 11.
    let m = max_param("B", 1, 100, 1_050, 64, &mut probe);
    assert_eq!(
        (m.largest, m.total_bytes, m.bounded),
        (Some(10), Some(1_000), false)
    );
    assert_eq!(calls, [2, 4, 8, 16, 12, 10, 11]);
    // From a value that does not fit: 1 first, then down from 20.
    let m = max_param("B", 20, 2_000, 1_050, 64, &mut |v| {
        Probe::Total(100 * v as u64)
    });
    assert_eq!(m.largest, Some(10));
    // Nothing fits.
    let m = max_param("B", 4, 400, 50, 64, &mut |v| Probe::Total(100 * v as u64));
    assert_eq!((m.largest, m.probes), (None, 1));
    // A value where the graph does not check counts as too big.
    let m = max_param("B", 1, 1, u64::MAX, 64, &mut |v| {
        if v > 6 {
            Probe::Invalid
        } else {
            Probe::Total(1)
        }
    });
    assert_eq!((m.largest, m.invalid_at), (Some(6), Some(7)));
    // The bound: 2 probes, the largest found so far.
    let m = max_param("B", 1, 1, u64::MAX, 2, &mut |_| Probe::Total(1));
    assert_eq!((m.largest, m.probes, m.bounded), (Some(4), 2, true));
    // Everything fits: up to i64::MAX, with no overflow.
    let m = max_param("B", 1, 1, u64::MAX, 200, &mut |_| Probe::Total(1));
    assert_eq!(m.largest, Some(i64::MAX));
}
