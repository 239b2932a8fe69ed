//! `fgraph import hf`: a Hugging Face `config.json` turned into `.fgraph` source (issue 27
//! item 1). [`import`] reads the config as hostile input (bounded, every number range-checked,
//! nothing quoted but field names), recognises its `model_type`, describes the model as an
//! [`arch::Arch`] (`families`), and writes the text (`emit`): one block per kind of decoder
//! layer, repeated, built on the standard library's blocks (`import "std/…"`), the config's
//! values as params with their source fields in comments. What the config holds that the
//! importer does not model is reported as a warning naming the field; an unsupported
//! `model_type`, a missing or out-of-range field is an error, and every one is reported.
//! The text is checked before it is handed out: a file with errors is never returned.

mod arch;
mod config;
mod emit;
mod families;

use crate::types::Dtype;
use serde::Serialize;

/// Most bytes of a config file read (published configs are under 10 KB).
pub const MAX_CONFIG_BYTES: usize = crate::limits::MAX_CONFIG_BYTES;

/// The `model_type`s the importer knows, in the order the docs list them.
pub const SUPPORTED: &[&str] = &[
    "llama",
    "mistral",
    "qwen2",
    "gemma",
    "gemma2",
    "phi3",
    "gpt2",
    "bert",
    "mixtral",
    "deepseek_v2",
];

/// What to import: the shapes of the step the graph describes, and its element type.
#[derive(Clone, Debug)]
pub struct Options {
    /// Sequences in the batch (`--batch`).
    pub batch: u64,
    /// Tokens per sequence at prefill (`--seq`); `None`: 2048, or the model's learned
    /// positions when it has fewer.
    pub seq: Option<u64>,
    /// One decode step over this many positions already in the KV cache (`--decode
    /// --context N`) instead of a prefill.
    pub decode: Option<u64>,
    /// Every tensor's element type (`--dtype`); `None`: the config's `torch_dtype`.
    pub dtype: Option<Dtype>,
    /// The config's name as the generated file's header comment gives it.
    pub source_name: String,
    /// Which ops the file writes (`--ops`).
    pub ops: Ops,
    /// The attention the file writes (`--attn`, transformers' `attn_implementation`); `None`:
    /// eager attention for [`Ops::Model`], `sdpa` (transformers' default) for
    /// [`Ops::Transformers`].
    pub attn: Option<Attn>,
}

/// Which ops the generated file writes (`--ops`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Ops {
    /// The model's computation, one op per operation (`reduction.rmsnorm`, RoPE on tables the
    /// graph takes as inputs, std blocks): what its parameters, FLOPs and bytes are.
    #[default]
    Model,
    /// transformers' modeling code as its eager forward runs it, op by op (the llama,
    /// mistral and qwen2 families, a prefill): what `--runtime eager` prices as transformers
    /// launches it (`emit::transformers`).
    Transformers,
}

/// The attention of the generated file: transformers' `attn_implementation`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Attn {
    /// The scores written out: matmul, scale, (mask,) softmax, matmul.
    Eager,
    /// One `attention` op: `scaled_dot_product_attention`.
    Sdpa,
    /// `sdpa` as transformers calls it while traced — torch.compile, torch.export or a
    /// CUDA-graph capture (`--ops transformers` only): it cannot skip the causal mask then,
    /// so it builds it, repeats K and V to every query head (SDPA's `enable_gqa` takes no
    /// mask) and passes the mask: `attention(q, k, v, mask)` (docs/VALIDATION.md §57).
    SdpaTraced,
}

impl Attn {
    /// The `--attn` value.
    pub fn name(self) -> &'static str {
        match self {
            Attn::Eager => "eager",
            Attn::Sdpa => "sdpa",
            Attn::SdpaTraced => "sdpa-traced",
        }
    }

    /// transformers' `attn_implementation` for it.
    pub fn implementation(self) -> &'static str {
        match self {
            Attn::Eager => "eager",
            Attn::Sdpa | Attn::SdpaTraced => "sdpa",
        }
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            batch: 1,
            seq: None,
            decode: None,
            dtype: None,
            source_name: "config.json".into(),
            ops: Ops::Model,
            attn: None,
        }
    }
}

/// How bad a [`Note`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

/// One finding about the config: an error stops the import, a warning says what the graph
/// does not reflect.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Note {
    pub severity: Severity,
    /// The field it is about (`rope_scaling.factor`), when one.
    pub field: Option<String>,
    pub message: String,
}

impl Note {
    fn error(message: impl Into<String>) -> Note {
        Note {
            severity: Severity::Error,
            field: None,
            message: message.into(),
        }
    }
}

/// The result of an import: the `.fgraph` text (`None` when there are errors) and every
/// finding, errors first.
#[derive(Clone, Debug)]
pub struct Imported {
    pub text: Option<String>,
    pub notes: Vec<Note>,
}

impl Imported {
    pub fn has_errors(&self) -> bool {
        self.notes.iter().any(|n| n.severity == Severity::Error)
    }
}

/// Imports the config held in `bytes` (at most [`MAX_CONFIG_BYTES`]; a longer input is an
/// error, not read further).
pub fn import(bytes: &[u8], opts: &Options) -> Imported {
    let failed = |notes: Vec<Note>| Imported { text: None, notes };
    if bytes.len() > MAX_CONFIG_BYTES {
        return failed(vec![Note::error(format!(
            "the config is larger than the limit of {MAX_CONFIG_BYTES} bytes"
        ))]);
    }
    // serde_json bounds nesting (128 levels) and never panics on any input.
    let value: serde_json::Value = match serde_json::from_slice(bytes) {
        Ok(v) => v,
        Err(e) => {
            return failed(vec![Note::error(format!(
                "the config is not valid JSON: {} at line {}, column {}",
                json_error_kind(&e),
                e.line(),
                e.column()
            ))]);
        }
    };
    let Some(map) = value.as_object() else {
        return failed(vec![Note::error(
            "the config is not a JSON object (`{ \"model_type\": ... }`)",
        )]);
    };
    let mut notes = Vec::new();
    let result = families::read(map, opts, &mut notes);
    // Errors first, then by field (the notes about no one field last): the same config
    // always gives the same list.
    notes.sort_by(|a, b| {
        let key = |n: &Note| {
            (
                n.severity != Severity::Error,
                n.field.is_none(),
                n.field.clone(),
            )
        };
        key(a).cmp(&key(b))
    });
    let text = match result {
        Some(arch) if !notes.iter().any(|n| n.severity == Severity::Error) => {
            match emit::emit(&arch, opts).and_then(self_check) {
                Ok(t) => Some(t),
                Err(msg) => {
                    notes.insert(0, Note::error(msg));
                    None
                }
            }
        }
        _ => {
            if !notes.iter().any(|n| n.severity == Severity::Error) {
                // Every reader records why it gives up; this is a safety net, not a path.
                notes.insert(0, Note::error("the config could not be read"));
            }
            None
        }
    };
    Imported { text, notes }
}

/// The generated text, checked as `fgraph check` would: a file with an error (sizes past
/// fgraph's limits, or a bug here) is never handed out as if it were a model.
fn self_check(text: String) -> Result<String, String> {
    let report = crate::check_file("generated.fgraph", text.as_bytes(), &Default::default());
    match report.diagnostics.iter().find(|d| d.is_error()) {
        None => Ok(text),
        Some(d) => Err(format!(
            "the generated graph does not check ({}: {}): the config's sizes are past what \
             fgraph can analyse, or the importer has a bug",
            d.code.as_str(),
            d.message
        )),
    }
}

/// What kind of JSON error it is, without the text serde_json may quote.
fn json_error_kind(e: &serde_json::Error) -> &'static str {
    use serde_json::error::Category;
    match e.classify() {
        Category::Io => "a read error",
        Category::Syntax => "a syntax error",
        Category::Data => "a value of the wrong type",
        Category::Eof => "the text ends early",
    }
}

#[cfg(test)]
mod tests;
