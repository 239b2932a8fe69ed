//! Each supported `model_type`'s fields, read into an [`Arch`]: which fields it reads, their
//! ranges and defaults (transformers' own), which ones change only values (carried as
//! params) and which ones it does not model (reported as warnings). The rotary decoders are
//! here; GPT-2 and BERT in `gpt2_bert`, DeepSeek-V2 in `deepseek`.

mod deepseek;
mod gpt2_bert;

use super::arch::{Arch, Kind, Moe, Norm, Style};
use super::config::{Reader, plain};
use super::{Note, Options, SUPPORTED};
use crate::types::Dtype;
use serde_json::{Map, Value};

/// Bounds on the config's sizes: far above any published model, low enough that every
/// product the graph writes stays within fgraph's limits.
pub(super) const MAX_DIM: u64 = 1 << 24;
pub(super) const MAX_VOCAB: u64 = 1 << 24;
pub(super) const MAX_LAYERS: u64 = 1 << 12;
pub(super) const MAX_HEADS: u64 = 1 << 12;
pub(super) const MAX_EXPERTS: u64 = 1 << 12;
pub(super) const MAX_POSITIONS: u64 = 1 << 40;
/// Value-only numbers (rope_theta, scaling factors) are at most this.
pub(super) const MAX_VALUE: f64 = 1.0e15;

/// The config's model, or `None` after recording why not in `notes`.
pub fn read(map: &Map<String, Value>, opts: &Options, notes: &mut Vec<Note>) -> Option<Arch> {
    let mut r = Reader::new(map, "");
    let arch = read_family(&mut r, opts);
    if let Some(a) = &arch {
        r.report_unread(a.model_type);
    }
    notes.append(&mut r.notes);
    arch
}

fn read_family(r: &mut Reader<'_>, opts: &Options) -> Option<Arch> {
    let present = r.has("model_type");
    let Some(mt) = r.opt_str("model_type") else {
        if !present {
            r.error(
                "model_type",
                format!(
                    "is missing: the importer needs it to know the architecture (supported: {})",
                    SUPPORTED.join(", ")
                ),
            );
        }
        return None;
    };
    let Some(&model_type) = SUPPORTED.iter().find(|s| **s == mt) else {
        let shown = match plain(mt) {
            Some(name) => name.to_string(),
            None => format!("(a name of {} bytes)", mt.len()),
        };
        r.notes.push(Note {
            severity: super::Severity::Error,
            field: Some("model_type".into()),
            message: format!(
                "not supported yet: model_type {shown} (supported: {})",
                SUPPORTED.join(", ")
            ),
        });
        return None;
    };
    let dtype = read_dtype(r, opts);
    let mut a = match model_type {
        "llama" => llama(r, dtype)?,
        "mistral" => mistral(r, dtype)?,
        "qwen2" => qwen2(r, dtype)?,
        "mixtral" => mixtral(r, dtype)?,
        "phi3" => phi3(r, dtype)?,
        "gemma" => gemma(r, dtype, false)?,
        "gemma2" => gemma(r, dtype, true)?,
        "gpt2" => gpt2_bert::gpt2(r, dtype)?,
        "bert" => gpt2_bert::bert(r, dtype)?,
        "deepseek_v2" => deepseek::deepseek_v2(r, dtype)?,
        _ => return None,
    };
    a.model_type = model_type;
    Some(a)
}

/// The element type: `--dtype`, else `torch_dtype` (`dtype` in transformers 5), else f32 as
/// transformers builds a model without one.
fn read_dtype(r: &mut Reader<'_>, opts: &Options) -> (Dtype, String) {
    r.known(&["torch_dtype", "dtype"]);
    let key = if r.has("torch_dtype") {
        "torch_dtype"
    } else {
        "dtype"
    };
    let written = r.opt_str(key);
    if let Some(d) = opts.dtype {
        return (d, "--dtype".into());
    }
    let Some(name) = written else {
        return (
            Dtype::F32,
            "no `torch_dtype`: float32, as transformers builds it".into(),
        );
    };
    let d = match name {
        "float32" | "float" | "fp32" => Some(Dtype::F32),
        "float16" | "half" | "fp16" => Some(Dtype::F16),
        "bfloat16" | "bf16" => Some(Dtype::Bf16),
        "float64" | "double" => Some(Dtype::F64),
        _ => None,
    };
    match d {
        Some(d) => (d, format!("`{key}`: {}", plain(name).unwrap_or("?"))),
        None => {
            r.error(
                key,
                "names an element type the importer does not know (float32, float16, \
                 bfloat16, float64); pass `--dtype`",
            );
            (Dtype::F32, String::new())
        }
    }
}

/// An empty model of `style`, to be filled in.
pub(super) fn blank(style: Style, (dtype, dtype_source): (Dtype, String)) -> Arch {
    Arch {
        model_type: "",
        style,
        dtype,
        dtype_source,
        vocab: 1,
        hidden: 1,
        layers: 1,
        heads: 1,
        kv_heads: 1,
        head_dim: 1,
        inter: 1,
        norm: Norm::Rms,
        eps: 1e-6,
        qkv_fused: false,
        qkv_bias: false,
        o_bias: false,
        rope: true,
        learned_positions: None,
        token_types: None,
        causal: true,
        kinds: Vec::new(),
        scale: 1.0,
        attn_softcap: None,
        final_softcap: None,
        embed_scale: false,
        tied: false,
        act: None,
        pooler: false,
        moe: None,
        mla: None,
        ints: Vec::new(),
        floats: Vec::new(),
        named: Vec::new(),
    }
}

/// The sizes every rotary decoder shares: vocabulary, hidden, FFN, layers, heads (with
/// `head_dim` when given, else hidden / heads), the RMSNorm epsilon, the rotary values and
/// the tied head. `None` when a size is missing or wrong (each one recorded).
fn decoder(
    r: &mut Reader<'_>,
    style: Style,
    dtype: (Dtype, String),
    tied_default: bool,
) -> Option<Arch> {
    let mut a = blank(style, dtype);
    let vocab = r.int("vocab_size", 1, MAX_VOCAB);
    let hidden = r.int("hidden_size", 1, MAX_DIM);
    let inter = r.int("intermediate_size", 1, MAX_DIM);
    let layers = r.int("num_hidden_layers", 1, MAX_LAYERS);
    let heads = r.int("num_attention_heads", 1, MAX_HEADS);
    let kv = r.opt_int("num_key_value_heads", 1, MAX_HEADS);
    let head_dim = r.opt_int("head_dim", 2, MAX_DIM);
    let eps = r.opt_float("rms_norm_eps", 0.0, 0.5);
    a.tied = r.bool_or("tie_word_embeddings", tied_default);
    rotary(r, &mut a);
    positions_value(r, &mut a, "max_position_embeddings");
    let (vocab, hidden, inter, layers, heads) = (vocab?, hidden?, inter?, layers?, heads?);
    let kv = kv.unwrap_or(heads);
    if heads % kv != 0 {
        r.error(
            "num_key_value_heads",
            format!("must divide num_attention_heads ({heads}): it is {kv}"),
        );
        return None;
    }
    let head_dim = match head_dim {
        Some(d) => d,
        None if hidden % heads == 0 => hidden / heads,
        None => {
            r.error(
                "num_attention_heads",
                format!(
                    "must divide hidden_size ({hidden}) when there is no `head_dim`: it is {heads}"
                ),
            );
            return None;
        }
    };
    if head_dim % 2 != 0 {
        r.error(
            "head_dim",
            format!("must be even for rotary embeddings: it is {head_dim}"),
        );
        return None;
    }
    a.vocab = vocab;
    a.hidden = hidden;
    a.inter = inter;
    a.layers = layers;
    a.heads = heads;
    a.kv_heads = kv;
    a.head_dim = head_dim;
    a.eps = eps.unwrap_or(1e-6);
    a.scale = (1.0 / head_dim as f64).sqrt();
    a.int("V", vocab, "vocab_size");
    a.int("H", hidden, "hidden_size");
    a.int("L", layers, "num_hidden_layers");
    a.int("NH", heads, "num_attention_heads");
    a.int(
        "NKV",
        kv,
        if r.has("num_key_value_heads") {
            "num_key_value_heads"
        } else {
            "num_key_value_heads (absent: num_attention_heads)"
        },
    );
    a.int(
        "HD",
        head_dim,
        if r.has("head_dim") {
            "head_dim"
        } else {
            "hidden_size / num_attention_heads"
        },
    );
    a.int("F", inter, "intermediate_size");
    let eps_source = if r.has("rms_norm_eps") {
        "rms_norm_eps"
    } else {
        "rms_norm_eps (absent: 1e-6)"
    };
    a.float("eps", a.eps, eps_source);
    a.kinds = vec![
        Kind {
            window: None,
            moe: false,
        };
        layers as usize
    ];
    Some(a)
}

/// `rope_theta` and `rope_scaling` (or transformers 5's `rope_parameters`): values only.
pub(super) fn rotary(r: &mut Reader<'_>, a: &mut Arch) {
    match r.opt_float("rope_theta", 0.0, MAX_VALUE) {
        Some(t) => a.float("rope_theta", t, "rope_theta"),
        None if !r.has("rope_theta") => {
            a.float("rope_theta", 10000.0, "rope_theta (absent: 10000)")
        }
        None => {}
    }
    for key in ["rope_scaling", "rope_parameters"] {
        if let Some(m) = r.opt_object(key) {
            let mut nested = Reader::new(m, &format!("{key}."));
            rope_values(&mut nested, a, key);
            nested.report_unread("rotary-embedding");
            r.notes.append(&mut nested.notes);
        }
    }
}

/// The fields of a `rope_scaling` object: numbers become params, the scaling type a comment;
/// lists of factors (LongRoPE's) are values too, summarised.
fn rope_values(r: &mut Reader<'_>, a: &mut Arch, key: &str) {
    const NUMBERS: &[&str] = &[
        "factor",
        "low_freq_factor",
        "high_freq_factor",
        "original_max_position_embeddings",
        "beta_fast",
        "beta_slow",
        "mscale",
        "mscale_all_dim",
        "attention_factor",
        "extrapolation_factor",
        "rope_theta",
    ];
    const TYPES: &[&str] = &[
        "default", "linear", "dynamic", "yarn", "longrope", "llama3", "su",
    ];
    for field in NUMBERS {
        if let Some(v) = r.opt_float(field, -1.0e-300, MAX_VALUE) {
            a.float(format!("rope_{field}"), v, format!("{key}.{field}"));
        }
    }
    for field in ["type", "rope_type"] {
        if let Some(t) = r.opt_str(field) {
            match TYPES.iter().find(|k| **k == t) {
                Some(k) => a.named.push((format!("{key}.{field}"), k)),
                None => r.warn(
                    field,
                    format!(
                        "names a rotary scaling the importer does not know ({}); it changes \
                         no shape, so the graph is the same",
                        TYPES.join(", ")
                    ),
                ),
            }
        }
    }
    for field in ["short_factor", "long_factor"] {
        if let Some(Value::Array(items)) = r.get(field) {
            if items.iter().all(Value::is_number) {
                a.named
                    .push((format!("{key}.{field}"), "a list of factors"));
            } else {
                r.error(field, "must be a list of numbers");
            }
        }
    }
}

/// `max_position_embeddings` of a rotary model: a value (the tables are computed, not
/// learned), carried as a param.
pub(super) fn positions_value(r: &mut Reader<'_>, a: &mut Arch, key: &'static str) {
    if let Some(p) = r.opt_int(key, 1, MAX_POSITIONS) {
        a.float("max_positions", p as f64, key);
    }
}

/// `hidden_act` (or `key`) must be one of `ok`; another activation is a warning (the graph
/// uses the family's).
pub(super) fn activation(r: &mut Reader<'_>, key: &'static str, ok: &[&str], used: &str) {
    if let Some(act) = r.opt_str(key)
        && !ok.contains(&act)
    {
        r.warn(
            key,
            format!(
                "names an activation other than {}: the graph uses {used} (the same bytes; \
                 its FLOPs may differ)",
                ok.join(" or ")
            ),
        );
    }
}

/// `sliding_window` as every layer's window (`None`: full attention).
fn sliding_window(r: &mut Reader<'_>, a: &mut Arch, key: &'static str) -> Option<u64> {
    let w = r.opt_int(key, 1, MAX_POSITIONS)?;
    for k in &mut a.kinds {
        k.window = Some(w);
    }
    a.int("W", w, key);
    Some(w)
}

/// Attention biases (`attention_bias`: q, k, v and o), and `mlp_bias`, which the Llama
/// blocks do not model.
pub(super) fn biases(r: &mut Reader<'_>, a: &mut Arch) {
    if r.bool_or("attention_bias", false) {
        a.qkv_bias = true;
        a.o_bias = true;
    }
    if r.bool_or("mlp_bias", false) {
        r.warn(
            "mlp_bias",
            "is true: biases on the MLP's projections are not modelled; the graph has none, \
             so its parameters and bytes miss them",
        );
    }
}

fn llama(r: &mut Reader<'_>, dtype: (Dtype, String)) -> Option<Arch> {
    let mut a = decoder(r, Style::Llama, dtype, false)?;
    biases(r, &mut a);
    activation(r, "hidden_act", &["silu", "swish"], "silu");
    Some(a)
}

fn mistral(r: &mut Reader<'_>, dtype: (Dtype, String)) -> Option<Arch> {
    let mut a = llama(r, dtype)?;
    sliding_window(r, &mut a, "sliding_window");
    Some(a)
}

fn qwen2(r: &mut Reader<'_>, dtype: (Dtype, String)) -> Option<Arch> {
    let mut a = decoder(r, Style::Llama, dtype, false)?;
    a.qkv_bias = true;
    activation(r, "hidden_act", &["silu", "swish"], "silu");
    let use_window = r.bool_or("use_sliding_window", false);
    let window = r.opt_int("sliding_window", 1, MAX_POSITIONS);
    let first = r.opt_int("max_window_layers", 0, MAX_LAYERS);
    if r.bool_or("use_mrope", false) {
        r.warn(
            "use_mrope",
            "is true: multimodal rotary embeddings are not modelled; the graph uses plain RoPE \
             (the same shapes)",
        );
    }
    let types = layer_types(r, &a);
    match (types, use_window, window) {
        (Some(types), _, w) => apply_layer_types(r, &mut a, &types, w),
        (None, true, Some(w)) => {
            // transformers: layers from max_window_layers on use the window.
            let first = first.unwrap_or(0);
            for (i, k) in a.kinds.iter_mut().enumerate() {
                if i as u64 >= first {
                    k.window = Some(w);
                }
            }
            a.int("W", w, "sliding_window (use_sliding_window)");
        }
        _ => {}
    }
    Some(a)
}

/// `layer_types` (transformers 5): "full_attention" or "sliding_attention" per layer.
fn layer_types(r: &mut Reader<'_>, a: &Arch) -> Option<Vec<bool>> {
    let types = r.opt_str_list("layer_types")?;
    if types.len() as u64 != a.layers {
        r.error(
            "layer_types",
            format!(
                "must have one entry per layer ({}): it has {}",
                a.layers,
                types.len()
            ),
        );
        return None;
    }
    let mut sliding = Vec::with_capacity(types.len());
    for t in types {
        match t {
            "full_attention" => sliding.push(false),
            "sliding_attention" => sliding.push(true),
            _ => {
                r.error(
                    "layer_types",
                    "holds a layer type the importer does not know (full_attention, \
                     sliding_attention)",
                );
                return None;
            }
        }
    }
    Some(sliding)
}

fn apply_layer_types(r: &mut Reader<'_>, a: &mut Arch, sliding: &[bool], window: Option<u64>) {
    if sliding.iter().any(|s| *s) {
        let Some(w) = window else {
            r.error(
                "sliding_window",
                "is missing, and `layer_types` names sliding_attention layers",
            );
            return;
        };
        for (k, s) in a.kinds.iter_mut().zip(sliding) {
            k.window = s.then_some(w);
        }
        a.int("W", w, "sliding_window");
    }
}

fn mixtral(r: &mut Reader<'_>, dtype: (Dtype, String)) -> Option<Arch> {
    let mut a = llama(r, dtype)?;
    sliding_window(r, &mut a, "sliding_window");
    let experts = r.int("num_local_experts", 1, MAX_EXPERTS);
    let top_k = r.int("num_experts_per_tok", 1, MAX_EXPERTS);
    let (experts, top_k) = (experts?, top_k?);
    if top_k > experts {
        r.error(
            "num_experts_per_tok",
            format!("must be at most num_local_experts ({experts}): it is {top_k}"),
        );
        return None;
    }
    a.int("E", experts, "num_local_experts");
    a.int("K", top_k, "num_experts_per_tok");
    a.moe = Some(Moe {
        experts,
        top_k,
        shared_inter: None,
        renormalize: true,
        scaling: None,
    });
    for k in &mut a.kinds {
        k.moe = true;
    }
    Some(a)
}

fn phi3(r: &mut Reader<'_>, dtype: (Dtype, String)) -> Option<Arch> {
    let mut a = decoder(r, Style::Phi3, dtype, false)?;
    a.qkv_fused = true;
    biases(r, &mut a);
    activation(r, "hidden_act", &["silu", "swish"], "silu");
    sliding_window(r, &mut a, "sliding_window");
    if let Some(p) = r.opt_int("original_max_position_embeddings", 1, MAX_POSITIONS) {
        a.float(
            "original_max_positions",
            p as f64,
            "original_max_position_embeddings",
        );
    }
    if let Some(f) = r.opt_float("partial_rotary_factor", 0.0, 1.0)
        && f < 1.0
    {
        r.warn(
            "partial_rotary_factor",
            "is below 1: rotary embeddings on part of each head are not modelled; the graph \
             rotates the whole head (a few elementwise FLOPs more)",
        );
    }
    Some(a)
}

fn gemma(r: &mut Reader<'_>, dtype: (Dtype, String), two: bool) -> Option<Arch> {
    let style = if two { Style::Gemma2 } else { Style::Gemma };
    let mut a = decoder(r, style, dtype, true)?;
    biases(r, &mut a);
    a.embed_scale = true;
    r.known(&["hidden_act", "hidden_activation"]);
    let act_key = if r.has("hidden_activation") {
        "hidden_activation"
    } else {
        "hidden_act"
    };
    activation(
        r,
        act_key,
        &["gelu", "gelu_pytorch_tanh", "gelu_new", "gelu_fast"],
        "gelu",
    );
    if !two {
        return Some(a);
    }
    if let Some(q) = r.opt_float("query_pre_attn_scalar", 0.0, MAX_VALUE) {
        a.scale = 1.0 / q.sqrt();
        a.float("query_pre_attn_scalar", q, "query_pre_attn_scalar");
    }
    a.attn_softcap = r.opt_float("attn_logit_softcapping", 0.0, MAX_VALUE);
    a.final_softcap = r.opt_float("final_logit_softcapping", 0.0, MAX_VALUE);
    r.known(&["sliding_window", "sliding_window_size"]);
    let key = if r.has("sliding_window") {
        "sliding_window"
    } else {
        "sliding_window_size"
    };
    let window = r.opt_int(key, 1, MAX_POSITIONS);
    let types = match layer_types(r, &a) {
        Some(t) => t,
        // transformers' Gemma 2: layer 0 slides, layer 1 attends to everything, and so on.
        None => (0..a.layers).map(|i| i % 2 == 0).collect(),
    };
    apply_layer_types(r, &mut a, &types, window);
    Some(a)
}
