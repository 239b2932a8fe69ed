//! GPT-2 and BERT: learned positions, LayerNorm, biases; GPT-2's fused QKV and tied head,
//! BERT's post-norm encoder with token types and its pooler.

use super::{MAX_DIM, MAX_HEADS, MAX_LAYERS, MAX_VOCAB, activation, blank};
use crate::importers::hf::arch::{Arch, Kind, Norm, Style};
use crate::importers::hf::config::Reader;
use crate::types::Dtype;

pub(super) fn gpt2(r: &mut Reader<'_>, dtype: (Dtype, String)) -> Option<Arch> {
    let mut a = blank(Style::Gpt2, dtype);
    let vocab = r.int("vocab_size", 1, MAX_VOCAB);
    let hidden = r.int_alias(&["n_embd", "hidden_size"], 1, MAX_DIM);
    let layers = r.int_alias(&["n_layer", "num_hidden_layers"], 1, MAX_LAYERS);
    let heads = r.int_alias(&["n_head", "num_attention_heads"], 1, MAX_HEADS);
    let inner = r.opt_int("n_inner", 1, MAX_DIM);
    let positions = r.int_alias(&["n_positions", "max_position_embeddings"], 1, 1 << 32);
    let eps = r.opt_float("layer_norm_epsilon", 0.0, 0.5);
    a.tied = r.bool_or("tie_word_embeddings", true);
    // GPT2Config's default is `gelu_new`; `--ops transformers` writes the one named.
    const GELUS: [&str; 4] = ["gelu_new", "gelu", "gelu_pytorch_tanh", "gelu_fast"];
    let act = r.opt_str("activation_function");
    a.act = match act {
        None => Some("gelu_new"),
        Some(act) => GELUS.iter().copied().find(|g| *g == act),
    };
    if act.is_some() && a.act.is_none() {
        r.warn(
            "activation_function",
            format!(
                "names an activation other than {}: the graph uses gelu (the same bytes; its \
                 FLOPs may differ)",
                GELUS.join(" or ")
            ),
        );
    }
    // Values of the attention (its scale, upcasting) and the fields of GPT2DoubleHeadsModel's
    // classifier, which GPT2LMHeadModel does not have.
    r.known(&[
        "n_ctx",
        "scale_attn_weights",
        "scale_attn_by_inverse_layer_idx",
        "reorder_and_upcast_attn",
        "summary_activation",
        "summary_first_dropout",
        "summary_proj_to_labels",
        "summary_type",
        "summary_use_proj",
    ]);
    if r.bool_or("add_cross_attention", false) {
        r.warn(
            "add_cross_attention",
            "is true: cross-attention is not modelled; the graph is the decoder alone",
        );
    }
    let (vocab, hidden, layers, heads, positions) = (vocab?, hidden?, layers?, heads?, positions?);
    if hidden % heads != 0 {
        r.error(
            "n_head",
            format!("must divide n_embd ({hidden}): it is {heads}"),
        );
        return None;
    }
    let inter = match inner {
        Some(i) => i,
        None => hidden.checked_mul(4)?,
    };
    a.vocab = vocab;
    a.hidden = hidden;
    a.layers = layers;
    a.heads = heads;
    a.kv_heads = heads;
    a.head_dim = hidden / heads;
    a.inter = inter;
    a.norm = Norm::Layer;
    a.eps = eps.unwrap_or(1e-5);
    a.qkv_fused = true;
    a.qkv_bias = true;
    a.o_bias = true;
    a.rope = false;
    a.learned_positions = Some(positions);
    a.scale = (1.0 / a.head_dim as f64).sqrt();
    a.int("V", vocab, "vocab_size");
    a.int("H", hidden, "n_embd");
    a.int("L", layers, "n_layer");
    a.int("NH", heads, "n_head");
    a.int(
        "NKV",
        heads,
        "n_head (multi-head attention: a key/value head per query head)",
    );
    a.int("HD", a.head_dim, "n_embd / n_head");
    a.int(
        "F",
        inter,
        if r.has("n_inner") {
            "n_inner"
        } else {
            "n_inner (absent: 4 · n_embd)"
        },
    );
    a.int("POS", positions, "n_positions");
    a.float("eps", a.eps, "layer_norm_epsilon");
    a.kinds = vec![
        Kind {
            window: None,
            moe: false,
        };
        layers as usize
    ];
    Some(a)
}

pub(super) fn bert(r: &mut Reader<'_>, dtype: (Dtype, String)) -> Option<Arch> {
    let mut a = blank(Style::Bert, dtype);
    let vocab = r.int("vocab_size", 1, MAX_VOCAB);
    let hidden = r.int("hidden_size", 1, MAX_DIM);
    let layers = r.int("num_hidden_layers", 1, MAX_LAYERS);
    let heads = r.int("num_attention_heads", 1, MAX_HEADS);
    let inter = r.int("intermediate_size", 1, MAX_DIM);
    let positions = r.int("max_position_embeddings", 1, 1 << 32);
    let types = r.opt_int("type_vocab_size", 1, MAX_VOCAB);
    let eps = r.opt_float("layer_norm_eps", 0.0, 0.5);
    activation(
        r,
        "hidden_act",
        &["gelu", "gelu_new", "gelu_pytorch_tanh"],
        "gelu",
    );
    r.known(&["chunk_size_feed_forward"]);
    if let Some(p) = r.opt_str("position_embedding_type")
        && p != "absolute"
    {
        r.warn(
            "position_embedding_type",
            "is not absolute: relative position embeddings are not modelled; the graph adds \
             absolute ones",
        );
    }
    if r.bool_or("is_decoder", false) {
        r.warn(
            "is_decoder",
            "is true: BERT as a decoder (causal mask) is not modelled; the graph is the encoder",
        );
    }
    if r.bool_or("add_cross_attention", false) {
        r.warn(
            "add_cross_attention",
            "is true: cross-attention is not modelled; the graph is the encoder alone",
        );
    }
    let (vocab, hidden, layers, heads, inter, positions) =
        (vocab?, hidden?, layers?, heads?, inter?, positions?);
    if hidden % heads != 0 {
        r.error(
            "num_attention_heads",
            format!("must divide hidden_size ({hidden}): it is {heads}"),
        );
        return None;
    }
    let types = types.unwrap_or(2);
    a.vocab = vocab;
    a.hidden = hidden;
    a.layers = layers;
    a.heads = heads;
    a.kv_heads = heads;
    a.head_dim = hidden / heads;
    a.inter = inter;
    a.norm = Norm::Layer;
    a.eps = eps.unwrap_or(1e-12);
    a.qkv_bias = true;
    a.o_bias = true;
    a.rope = false;
    a.causal = false;
    a.learned_positions = Some(positions);
    a.token_types = Some(types);
    a.pooler = true;
    a.scale = (1.0 / a.head_dim as f64).sqrt();
    a.int("V", vocab, "vocab_size");
    a.int("H", hidden, "hidden_size");
    a.int("L", layers, "num_hidden_layers");
    a.int("NH", heads, "num_attention_heads");
    a.int(
        "NKV",
        heads,
        "num_attention_heads (multi-head attention: a key/value head per query head)",
    );
    a.int("HD", a.head_dim, "hidden_size / num_attention_heads");
    a.int("F", inter, "intermediate_size");
    a.int("POS", positions, "max_position_embeddings");
    a.int("TYPES", types, "type_vocab_size");
    a.float("eps", a.eps, "layer_norm_eps");
    a.kinds = vec![
        Kind {
            window: None,
            moe: false,
        };
        layers as usize
    ];
    Some(a)
}
