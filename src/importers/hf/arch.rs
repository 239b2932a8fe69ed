//! What the importer knows about a model once its config is read: [`Arch`], the one
//! description every family fills in (`families`) and the emitter writes out (`emit`).

use crate::types::Dtype;

/// How a layer normalises: RMSNorm (weight only) or LayerNorm (weight and bias).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Norm {
    Rms,
    Layer,
}

/// Where a decoder layer's norms sit and which feed-forward block it runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Llama, Mistral, Qwen2, Mixtral, DeepSeek-V2: pre-norm, SwiGLU (std/llama.fgraph).
    Llama,
    /// Gemma: pre-norm, GeGLU (std/gemma.fgraph `ffn`).
    Gemma,
    /// Gemma 2: norms before and after attention and the FFN (`ffn_sandwich`).
    Gemma2,
    /// Phi-3: pre-norm, fused QKV and gate/up projections (std/phi3.fgraph).
    Phi3,
    /// GPT-2: pre-LayerNorm, fused QKV with biases, GELU MLP (std/gpt2.fgraph).
    Gpt2,
    /// BERT: post-LayerNorm encoder, biases everywhere (std/bert.fgraph).
    Bert,
}

/// One kind of layer: layers of the same kind are one block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kind {
    /// Sliding-window attention over this many positions.
    pub window: Option<u64>,
    /// A mixture-of-experts feed-forward instead of the dense one.
    pub moe: bool,
}

/// A mixture-of-experts feed-forward.
#[derive(Clone, Debug)]
pub struct Moe {
    pub experts: u64,
    pub top_k: u64,
    /// The shared experts' intermediate size in all (DeepSeek), if any.
    pub shared_inter: Option<u64>,
    /// The top-k weights renormalised to sum 1 (Mixtral; DeepSeek's `norm_topk_prob`).
    pub renormalize: bool,
    /// The weights multiplied by this (DeepSeek's `routed_scaling_factor`), if any.
    pub scaling: Option<f64>,
}

/// DeepSeek-V2's multi-head latent attention.
#[derive(Clone, Debug)]
pub struct Mla {
    /// `q_lora_rank`: queries through a low-rank projection and its norm, if any. The other
    /// sizes (kv_lora_rank, the head dims) are the graph's params KVR, ND, RD and VD.
    pub q_rank: Option<u64>,
}

/// An integer of the config carried as a graph param: `param NAME = value // source`.
#[derive(Clone, Debug)]
pub struct IntParam {
    pub name: &'static str,
    pub value: u64,
    pub source: String,
}

/// A number of the config that changes no shape, byte or FLOP, carried as a float header
/// param of the decoder blocks.
#[derive(Clone, Debug)]
pub struct FloatParam {
    pub name: String,
    pub value: f64,
    pub source: String,
}

/// A model, as the emitter needs it.
#[derive(Clone, Debug)]
pub struct Arch {
    pub model_type: &'static str,
    pub style: Style,
    pub dtype: Dtype,
    /// Where the dtype came from, for the header comment.
    pub dtype_source: String,
    pub vocab: u64,
    pub hidden: u64,
    pub layers: u64,
    pub heads: u64,
    pub kv_heads: u64,
    pub head_dim: u64,
    pub inter: u64,
    pub norm: Norm,
    pub eps: f64,
    /// Q, K and V from one GEMM (Phi-3's qkv_proj, GPT-2's c_attn).
    pub qkv_fused: bool,
    pub qkv_bias: bool,
    pub o_bias: bool,
    pub rope: bool,
    /// Learned position embeddings of this many positions (GPT-2, BERT).
    pub learned_positions: Option<u64>,
    /// BERT's token-type embeddings.
    pub token_types: Option<u64>,
    pub causal: bool,
    /// Each layer's kind, in order.
    pub kinds: Vec<Kind>,
    /// The attention's scale (informative: no FLOP or byte depends on it).
    pub scale: f64,
    pub attn_softcap: Option<f64>,
    pub final_softcap: Option<f64>,
    /// Gemma multiplies the embeddings by sqrt(hidden).
    pub embed_scale: bool,
    pub tied: bool,
    /// The config's activation name where the importer keeps it (GPT-2's
    /// `activation_function`: `--ops transformers` writes `gelu_new` as its eight ops).
    pub act: Option<&'static str>,
    /// BERT's pooler (dense and tanh on the first token).
    pub pooler: bool,
    pub moe: Option<Moe>,
    pub mla: Option<Mla>,
    /// Integers of the config, as graph params (sizes).
    pub ints: Vec<IntParam>,
    /// Value-only numbers (`rope_theta`, `rope_scaling.*`, epsilons).
    pub floats: Vec<FloatParam>,
    /// Value-only settings that are names (`rope_scaling.rope_type: llama3`), for the header
    /// comment; only names the importer itself knows are kept.
    pub named: Vec<(String, &'static str)>,
}

impl Arch {
    /// The param the graph names an integer by (H for `hidden_size`…).
    pub fn int(&mut self, name: &'static str, value: u64, source: impl Into<String>) {
        self.ints.push(IntParam {
            name,
            value,
            source: source.into(),
        });
    }

    /// A value-only number; the first of a name is kept (transformers 5's `rope_parameters`
    /// repeats `rope_scaling`'s fields).
    pub fn float(&mut self, name: impl Into<String>, value: f64, source: impl Into<String>) {
        let name = name.into();
        if self.floats.iter().any(|f| f.name == name) {
            return;
        }
        self.floats.push(FloatParam {
            name,
            value,
            source: source.into(),
        });
    }
}
