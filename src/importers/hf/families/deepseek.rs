//! DeepSeek-V2: multi-head latent attention (low-rank queries and keys/values, a shared
//! rotary key), dense first layers, then routed and shared experts.

use super::{
    MAX_DIM, MAX_EXPERTS, MAX_HEADS, MAX_LAYERS, MAX_VALUE, MAX_VOCAB, activation, biases, blank,
    positions_value, rotary,
};
use crate::importers::hf::arch::{Arch, Kind, Mla, Moe, Style};
use crate::importers::hf::config::Reader;
use crate::types::Dtype;

pub(super) fn deepseek_v2(r: &mut Reader<'_>, dtype: (Dtype, String)) -> Option<Arch> {
    let mut a = decoder_mla(r, dtype)?;
    let experts = r.opt_int("n_routed_experts", 1, MAX_EXPERTS);
    let shared = r.opt_int("n_shared_experts", 0, MAX_EXPERTS);
    let top_k = r.opt_int("num_experts_per_tok", 1, MAX_EXPERTS);
    let moe_inter = r.opt_int("moe_intermediate_size", 1, MAX_DIM);
    let first_dense = r
        .opt_int("first_k_dense_replace", 0, MAX_LAYERS)
        .unwrap_or(0);
    let freq = r.opt_int("moe_layer_freq", 1, MAX_LAYERS).unwrap_or(1);
    let renormalize = r.bool_or("norm_topk_prob", false);
    let scaling = r.opt_float("routed_scaling_factor", 0.0, MAX_VALUE);
    if let Some(s) = r.opt_str("scoring_func")
        && s != "softmax"
    {
        r.warn(
            "scoring_func",
            "is not softmax: other routing scores are not modelled; the graph's router uses a \
             softmax (the same shapes)",
        );
    }
    if let Some(m) = r.opt_str("topk_method")
        && !matches!(m, "greedy" | "group_limited_greedy")
    {
        r.warn(
            "topk_method",
            "names an expert selection the importer does not model; the graph picks the top \
             experts greedily (the same shapes)",
        );
    }
    for key in ["n_group", "topk_group"] {
        if let Some(v) = r.opt_int(key, 1, MAX_EXPERTS) {
            a.float(key, v as f64, key);
        }
    }
    r.known(&["ep_size"]);
    let Some(experts) = experts else {
        // No routed experts: every layer is dense.
        return Some(a);
    };
    let (Some(top_k), Some(moe_inter)) = (top_k, moe_inter) else {
        for (k, v) in [
            ("num_experts_per_tok", top_k.is_none()),
            ("moe_intermediate_size", moe_inter.is_none()),
        ] {
            if v && !r.has(k) {
                r.error(k, "is missing, and the model has routed experts");
            }
        }
        return None;
    };
    if top_k > experts {
        r.error(
            "num_experts_per_tok",
            format!("must be at most n_routed_experts ({experts}): it is {top_k}"),
        );
        return None;
    }
    let shared_inter = match shared {
        Some(n) if n > 0 => Some(n.checked_mul(moe_inter)?),
        _ => None,
    };
    for (i, k) in a.kinds.iter_mut().enumerate() {
        let i = i as u64;
        k.moe = i >= first_dense && i.is_multiple_of(freq);
    }
    a.int("E", experts, "n_routed_experts");
    a.int("K", top_k, "num_experts_per_tok");
    a.int("FE", moe_inter, "moe_intermediate_size");
    if let Some(s) = shared_inter {
        a.int("FS", s, "n_shared_experts · moe_intermediate_size");
    }
    a.moe = Some(Moe {
        experts,
        top_k,
        shared_inter,
        renormalize,
        scaling: Some(scaling.unwrap_or(1.0)),
    });
    Some(a)
}

/// DeepSeek-V2's sizes and its multi-head latent attention.
fn decoder_mla(r: &mut Reader<'_>, dtype: (Dtype, String)) -> Option<Arch> {
    let mut a = blank(Style::Llama, dtype);
    let vocab = r.int("vocab_size", 1, MAX_VOCAB);
    let hidden = r.int("hidden_size", 1, MAX_DIM);
    let inter = r.int("intermediate_size", 1, MAX_DIM);
    let layers = r.int("num_hidden_layers", 1, MAX_LAYERS);
    let heads = r.int("num_attention_heads", 1, MAX_HEADS);
    let q_rank = r.opt_int("q_lora_rank", 1, MAX_DIM);
    let kv_rank = r.int("kv_lora_rank", 1, MAX_DIM);
    let nope = r.int("qk_nope_head_dim", 1, MAX_DIM);
    let rope = r.int("qk_rope_head_dim", 2, MAX_DIM);
    let v_dim = r.int("v_head_dim", 1, MAX_DIM);
    let eps = r.opt_float("rms_norm_eps", 0.0, 0.5);
    // MLA has as many key/value heads as query heads; the field is the config's, unused.
    r.known(&["num_key_value_heads"]);
    a.tied = r.bool_or("tie_word_embeddings", false);
    biases(r, &mut a);
    activation(r, "hidden_act", &["silu", "swish"], "silu");
    rotary(r, &mut a);
    positions_value(r, &mut a, "max_position_embeddings");
    let (vocab, hidden, inter, layers, heads) = (vocab?, hidden?, inter?, layers?, heads?);
    let (kv_rank, nope, rope, v_dim) = (kv_rank?, nope?, rope?, v_dim?);
    if rope % 2 != 0 {
        r.error(
            "qk_rope_head_dim",
            format!("must be even for rotary embeddings: it is {rope}"),
        );
        return None;
    }
    if a.qkv_bias {
        r.warn(
            "attention_bias",
            "is true: biases of the latent attention's projections are not modelled",
        );
        a.qkv_bias = false;
        a.o_bias = false;
    }
    let qk = nope + rope;
    a.vocab = vocab;
    a.hidden = hidden;
    a.inter = inter;
    a.layers = layers;
    a.heads = heads;
    a.kv_heads = heads;
    a.head_dim = qk;
    a.eps = eps.unwrap_or(1e-6);
    // transformers' DeepseekV2Attention: qk_head_dim^-0.5, times mscale² under YaRN.
    let mut scale = (1.0 / qk as f64).sqrt();
    let factor = a
        .floats
        .iter()
        .find(|f| f.name == "rope_factor")
        .map(|f| f.value);
    let mscale_all = a
        .floats
        .iter()
        .find(|f| f.name == "rope_mscale_all_dim")
        .map(|f| f.value);
    if let (Some(f), Some(m)) = (factor, mscale_all)
        && f > 1.0
        && m != 0.0
    {
        let ms = 0.1 * m * f.ln() + 1.0;
        scale *= ms * ms;
    }
    a.scale = scale;
    a.int("V", vocab, "vocab_size");
    a.int("H", hidden, "hidden_size");
    a.int("L", layers, "num_hidden_layers");
    a.int("NH", heads, "num_attention_heads");
    a.int("F", inter, "intermediate_size (the dense layers' MLP)");
    if let Some(q) = q_rank {
        a.int("QR", q, "q_lora_rank");
    }
    a.int("KVR", kv_rank, "kv_lora_rank");
    a.int("ND", nope, "qk_nope_head_dim");
    a.int("RD", rope, "qk_rope_head_dim");
    a.int("VD", v_dim, "v_head_dim");
    a.float("eps", a.eps, "rms_norm_eps");
    a.mla = Some(Mla { q_rank });
    a.kinds = vec![
        Kind {
            window: None,
            moe: false,
        };
        layers as usize
    ];
    Some(a)
}
