//! `--horizontal inductor` (the `inductor` preset's) merges kernels as TorchInductor's
//! scheduler does (`src/fusion/horizontal.rs`): only over a read of the *same elements* (a
//! fusion is scored by the memory dependencies two nodes share, a buffer and an index each,
//! so kernels reading disjoint slices of one tensor share nothing), and not where the merge
//! could raise peak memory; an `update` (a store into a slice of a cache) loops over the rows
//! it writes under every mode. docs/VALIDATION.md §62: Inductor's code and fusion log for
//! transformers' GPT-2 and for Phi-3's and Llama-2's emitted decode steps
//! (`validation/gpu/models/hf_real/data/inductor_code_h200`).

mod common;

use common::groups;
use fgraph::analysis::{Analysis, Options, check_file};
use fgraph::fusion::{Fuser, FusionOptions, Horizontal};

/// Under the `inductor` preset with horizontal fusion `h`.
fn analyse(src: &str, h: Horizontal) -> Analysis {
    let opts = Options {
        fusion: FusionOptions {
            horizontal: h,
            ..Fuser::Inductor.options()
        },
        ..Default::default()
    };
    let r = check_file("t.fgraph", src.as_bytes(), &opts);
    assert!(
        r.diagnostics.iter().all(|d| !d.is_error()),
        "{:?}",
        r.diagnostics
    );
    r.graphs[0].analysis.clone().expect("analysis")
}

/// Two pointwise chains over slices of one fused projection: `(k start, k end)` and
/// `(v start, v end)` are their columns of `qkv`.
fn slices(k: (u32, u32), v: (u32, u32)) -> String {
    format!(
        "graph g {{
  dtype f16
  input x: [16, 64]
  weight w: [64, 192]
  op proj = matmul(x, w) -> qkv
  op k_part = slice(qkv, axis = -1, start = {}, end = {}) -> k
  op k_act = elementwise.relu(k) -> ka
  op v_part = slice(qkv, axis = -1, start = {}, end = {}) -> v
  op v_act = elementwise.exp(v) -> va
  output ka
  output va
}}
",
        k.0, k.1, v.0, v.1
    )
}

#[test]
fn disjoint_slices_of_one_tensor_are_not_a_shared_read() {
    let a = analyse(&slices((64, 128), (128, 192)), Horizontal::Inductor);
    assert_eq!(groups(&a), ["proj", "k_part k_act", "v_part v_act"]);
    assert!(a.plan.horizontal.is_empty(), "{:?}", a.plan.horizontal);
    // `--horizontal pointwise` merges readers of one tensor, whatever part each reads.
    let p = analyse(&slices((64, 128), (128, 192)), Horizontal::Pointwise);
    assert_eq!(groups(&p), ["proj", "k_part k_act v_part v_act"]);
}

#[test]
fn the_same_slice_read_twice_is_a_shared_read() {
    let a = analyse(&slices((64, 128), (64, 128)), Horizontal::Inductor);
    assert_eq!(groups(&a), ["proj", "k_part k_act v_part v_act"]);
    // The end left out is the axis's size.
    let src = slices((128, 192), (128, 192)).replacen(", end = 192", "", 1);
    let b = analyse(&src, Horizontal::Inductor);
    assert_eq!(groups(&b), ["proj", "k_part k_act v_part v_act"]);
}

/// Llama-2's decode RoPE: Q and K from projections of their own (`t` tokens, hidden 4,096),
/// sharing the cos row (128 values).
fn own_projections(t: u32) -> String {
    format!(
        "graph g {{
  dtype bf16
  input x: [{t}, 4096]
  weight wq: [4096, 4096]
  weight wk: [4096, 4096]
  input c: [4096]
  op q_proj = matmul(x, wq) -> q
  op k_proj = matmul(x, wk) -> k
  op q_rope = elementwise.mul(q, c) -> qr
  op k_rope = elementwise.mul(k, c) -> kr
  output qr
  output kr
}}
"
    )
}

#[test]
fn a_merge_that_could_raise_peak_memory_is_refused() {
    // Each RoPE alone reads its projection's output (16 · 4,096 · 2 = 131,072 B, one size and
    // dtype), the two share `c` (8,192 B): 131,072 > 32 · 8,192 = 262,144 is false, merged.
    let a = analyse(&own_projections(16), Horizontal::Inductor);
    assert_eq!(groups(&a), ["q_proj", "k_proj", "q_rope k_rope"]);
    // At 128 tokens the buffers kept alive (1 MiB) outweigh 32 times the shared bytes.
    let b = analyse(&own_projections(128), Horizontal::Inductor);
    assert_eq!(groups(&b), ["q_proj", "k_proj", "q_rope", "k_rope"]);
    // `--horizontal pointwise` has no such check.
    let p = analyse(&own_projections(128), Horizontal::Pointwise);
    assert_eq!(groups(&p), ["q_proj", "k_proj", "q_rope k_rope"]);
}

/// A decode step's RoPE of Q beside K's RoPE and its store into the cache, sharing the
/// table `c`: `rows` positions written.
fn rope_update(rows: u32) -> String {
    format!(
        "graph g {{
  dtype bf16
  input q: [4, 8, {rows}, 32]
  input k: [4, 8, {rows}, 32]
  input c: [{rows}, 32]
  weight cache: [4, 8, 1024, 32]
  op q_rope = elementwise.mul(q, c) -> qr
  op k_rope = elementwise.mul(k, c) -> kr
  op k_append = update(cache, kr, axis = 2, start = 1000) -> k_all
  output qr
  output k_all
}}
"
    )
}

#[test]
fn an_update_loops_over_the_rows_it_writes() {
    // Q's RoPE (4·8·1·32 elements) and K's with its store (the same rows of a cache of 1,024
    // positions) share the table and one loop: one kernel, as Inductor fused Phi-3's.
    let a = analyse(&rope_update(1), Horizontal::Inductor);
    assert_eq!(groups(&a), ["q_rope k_rope k_append"]);
    let p = analyse(&rope_update(1), Horizontal::Pointwise);
    assert_eq!(groups(&p), ["q_rope k_rope k_append"]);
    // Off, they stay two kernels.
    let off = analyse(&rope_update(1), Horizontal::Off);
    assert_eq!(groups(&off), ["q_rope", "k_rope k_append"]);
}
