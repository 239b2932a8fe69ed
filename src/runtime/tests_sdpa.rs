//! Unit tests of the compile runtime's attention rewrite (`compile::sdpa_rule`) on Hugging
//! Face's eager attention: which forms of the scale and mask Inductor's patterns take.

use super::compile::SdpaMiss;
use super::tests::{hf_attention, kernels, run};
use super::*;

#[test]
fn compile_keeps_hugging_face_eager_attention_whose_mask_follows_a_multiplication() {
    // `q @ kᵀ * scaling + mask`: no pattern of Inductor's multiplies and adds a mask, and
    // none was rewritten on the H100 (docs/VALIDATION.md §56: transformers' eager Llama, and
    // the emitted module with the mask computed in the graph or passed in).
    let (a, e) = run(&hf_attention(1, 256, 4, false), Runtime::Compile);
    let Err(SdpaMiss::MaskWithoutDiv { op }) = e.sdpa[0].1 else {
        panic!("{:?}", e.sdpa)
    };
    assert_eq!(a.graph.op(op).name, "masked");
    assert!(e.kernels.iter().all(|k| k.what != What::Sdpa));
    assert!(
        e.sdpa[0]
            .1
            .clone()
            .unwrap_err()
            .describe(&a.graph)
            .contains("divide")
    );
}

#[test]
fn compile_keeps_attention_whose_q_and_k_need_a_copy_and_copies_them_in_triton() {
    // Batch 4 of 256 tokens: [B, S, NH, D] permuted to [B, NH, S, D] does not flatten, so
    // matmul copies Q (K is the repeat_kv copy, contiguous): no SDPA, as measured on the
    // batched encoder layers.
    let (a, e) = run(&hf_attention(4, 256, 4, true), Runtime::Compile);
    let miss = e.sdpa[0].1.clone().expect_err("not rewritten");
    assert!(
        matches!(
            miss,
            SdpaMiss::Copy {
                reason: CopyReason::BatchLayout,
                ..
            }
        ),
        "{miss:?}"
    );
    let ks = kernels(&a, &e);
    assert!(ks.contains(&"copy(qh, batch-layout)".to_string()), "{ks:?}");
    // One query head per KV head needs no repeat_kv: the same pattern at one sequence is
    // rewritten.
    let (_, e) = run(&hf_attention(1, 256, 1, true), Runtime::Compile);
    assert_eq!(e.sdpa[0].1, Ok(()));
}
