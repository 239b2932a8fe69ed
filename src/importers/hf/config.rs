//! Reading a Hugging Face `config.json` as hostile input: the JSON object's fields, each read
//! once through [`Reader`], which checks its type and range and records what is wrong as a
//! [`Note`] naming the field (never quoting the file's values), and remembers which fields
//! were read so that the ones nobody read can be reported.

use super::{Note, Severity};
use serde_json::{Map, Value};
use std::collections::BTreeSet;

/// Fields that describe the checkpoint, the tokenizer, training or the Python API, not the
/// computation of one forward pass: read by no family and never reported.
const METADATA: &[&str] = &[
    "_attn_implementation",
    "_name_or_path",
    "architectures",
    "attention_dropout",
    "attention_probs_dropout_prob",
    "attn_pdrop",
    "auto_map",
    "aux_loss_alpha",
    "bos_token_id",
    "cache_implementation",
    "classifier_dropout",
    "embd_pdrop",
    "eos_token_id",
    "gradient_checkpointing",
    "hidden_dropout_prob",
    "id2label",
    "initializer_range",
    "label2id",
    "output_attentions",
    "output_hidden_states",
    "output_router_logits",
    "pad_token_id",
    "pretraining_tp",
    "problem_type",
    "resid_pdrop",
    "return_dict",
    "router_aux_loss_coef",
    "router_jitter_noise",
    "sep_token_id",
    "seq_aux",
    "task_specific_params",
    "tokenizer_class",
    "transformers_version",
    "use_cache",
    "use_return_dict",
];

/// Unread fields reported one by one; the rest are counted in one more warning.
const MAX_UNREAD_REPORTED: usize = 64;

/// How a field's name appears in a message: as written when it is a plain identifier of at
/// most 64 characters, else described (a hostile file's keys may hold escapes or megabytes).
pub fn field_name(key: &str) -> String {
    let plain = !key.is_empty()
        && key.len() <= 64
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'));
    if plain {
        format!("`{key}`")
    } else {
        format!("a field whose name is {} bytes long", key.len())
    }
}

/// What a JSON value is, for messages: its kind, never its content.
fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// The fields of one JSON object (the config, or a nested one such as `rope_scaling`).
pub struct Reader<'a> {
    map: &'a Map<String, Value>,
    /// How the fields are named in messages: "" for the config, "rope_scaling." inside it.
    prefix: String,
    used: BTreeSet<&'a str>,
    pub notes: Vec<Note>,
}

impl<'a> Reader<'a> {
    pub fn new(map: &'a Map<String, Value>, prefix: &str) -> Reader<'a> {
        Reader {
            map,
            prefix: prefix.to_string(),
            used: BTreeSet::new(),
            notes: Vec::new(),
        }
    }

    fn path(&self, key: &str) -> String {
        field_name(&format!("{}{key}", self.prefix))
    }

    pub fn error(&mut self, key: &str, message: impl std::fmt::Display) {
        let field = self.path(key);
        self.notes.push(Note {
            severity: Severity::Error,
            field: Some(format!("{}{key}", self.prefix)),
            message: format!("field {field} {message}"),
        });
    }

    pub fn warn(&mut self, key: &str, message: impl std::fmt::Display) {
        let field = self.path(key);
        self.notes.push(Note {
            severity: Severity::Warning,
            field: Some(format!("{}{key}", self.prefix)),
            message: format!("field {field} {message}"),
        });
    }

    /// Whether the field is present and not null.
    pub fn has(&self, key: &str) -> bool {
        self.map.get(key).is_some_and(|v| !v.is_null())
    }

    /// The field's value (null counts as absent), marked as read.
    pub fn get(&mut self, key: &'a str) -> Option<&'a Value> {
        self.used.insert(key);
        self.map.get(key).filter(|v| !v.is_null())
    }

    /// Marks fields as read without reading them (they are known and change nothing).
    pub fn known(&mut self, keys: &[&'a str]) {
        self.used.extend(keys.iter().copied());
    }

    /// An integer from `lo` to `hi`, or `None` when absent; a value of another type or out
    /// of range is an error (and `None`). An integral float (`4096.0`) is taken.
    pub fn opt_int(&mut self, key: &'a str, lo: u64, hi: u64) -> Option<u64> {
        let v = self.get(key)?;
        let n = v.as_u64().or_else(|| {
            v.as_f64()
                .filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f <= 9.0e15)
                .map(|f| f as u64)
        });
        match n {
            Some(n) if (lo..=hi).contains(&n) => Some(n),
            Some(_) => {
                self.error(key, format!("must be from {lo} to {hi}"));
                None
            }
            None if v.is_number() => {
                self.error(key, format!("must be a whole number from {lo} to {hi}"));
                None
            }
            None => {
                let k = kind(v);
                self.error(
                    key,
                    format!("must be a whole number from {lo} to {hi}, not {k}"),
                );
                None
            }
        }
    }

    /// A required integer from `lo` to `hi`; missing is an error. `None` after an error.
    pub fn int(&mut self, key: &'a str, lo: u64, hi: u64) -> Option<u64> {
        if !self.has(key) {
            self.used.insert(key);
            self.error(
                key,
                format!("is missing (a whole number from {lo} to {hi})"),
            );
            return None;
        }
        self.opt_int(key, lo, hi)
    }

    /// The first of `keys` present (their aliases: `n_embd`, `hidden_size`), as [`Self::int`].
    pub fn int_alias(&mut self, keys: &[&'a str], lo: u64, hi: u64) -> Option<u64> {
        self.known(keys);
        match keys.iter().find(|k| self.has(k)) {
            Some(k) => self.opt_int(k, lo, hi),
            None => {
                self.error(
                    keys[0],
                    format!("is missing (a whole number from {lo} to {hi})"),
                );
                None
            }
        }
    }

    /// A number above `lo` and at most `hi`, or `None` when absent.
    pub fn opt_float(&mut self, key: &'a str, lo: f64, hi: f64) -> Option<f64> {
        let v = self.get(key)?;
        match v.as_f64() {
            Some(f) if f.is_finite() && f > lo && f <= hi => Some(f),
            Some(_) => {
                self.error(key, format!("must be above {lo} and at most {hi}"));
                None
            }
            None => {
                let k = kind(v);
                self.error(key, format!("must be a number, not {k}"));
                None
            }
        }
    }

    /// A boolean, `default` when absent.
    pub fn bool_or(&mut self, key: &'a str, default: bool) -> bool {
        match self.get(key) {
            None => default,
            Some(Value::Bool(b)) => *b,
            Some(v) => {
                let k = kind(v);
                self.error(key, format!("must be true or false, not {k}"));
                default
            }
        }
    }

    /// A string, `None` when absent; another type is an error.
    pub fn opt_str(&mut self, key: &'a str) -> Option<&'a str> {
        match self.get(key)? {
            Value::String(s) => Some(s.as_str()),
            v => {
                let k = kind(v);
                self.error(key, format!("must be a string, not {k}"));
                None
            }
        }
    }

    /// A nested object (`rope_scaling`), `None` when absent; another type is an error.
    pub fn opt_object(&mut self, key: &'a str) -> Option<&'a Map<String, Value>> {
        match self.get(key)? {
            Value::Object(m) => Some(m),
            v => {
                let k = kind(v);
                self.error(key, format!("must be an object, not {k}"));
                None
            }
        }
    }

    /// A list of strings (`layer_types`), `None` when absent.
    pub fn opt_str_list(&mut self, key: &'a str) -> Option<Vec<&'a str>> {
        match self.get(key)? {
            Value::Array(items) if items.iter().all(Value::is_string) => {
                Some(items.iter().filter_map(Value::as_str).collect())
            }
            v => {
                let k = kind(v);
                self.error(key, format!("must be a list of strings, not {k}"));
                None
            }
        }
    }

    /// Warnings for the fields no family read and that are not metadata: they may change the
    /// graph, and the importer did not model them. Null fields say nothing and are skipped.
    pub fn report_unread(&mut self, model_type: &str) {
        let unread: Vec<&str> = self
            .map
            .iter()
            .filter(|(k, v)| {
                let metadata = self.prefix.is_empty() && METADATA.contains(&k.as_str());
                !(v.is_null() || self.used.contains(k.as_str()) || metadata)
            })
            .map(|(k, _)| k.as_str())
            .collect();
        for k in unread.iter().take(MAX_UNREAD_REPORTED) {
            self.warn(
                k,
                format!(
                    "is not modelled by the {model_type} importer: the graph does not \
                     reflect it, and differs from the model if it changes the computation"
                ),
            );
        }
        if let Some(more) = unread.len().checked_sub(MAX_UNREAD_REPORTED)
            && more > 0
        {
            self.notes.push(Note {
                severity: Severity::Warning,
                field: None,
                message: format!(
                    "{more} more fields{} are not modelled by the {model_type} importer either",
                    if self.prefix.is_empty() {
                        String::new()
                    } else {
                        format!(" of {}", field_name(self.prefix.trim_end_matches('.')))
                    }
                ),
            });
        }
    }
}

/// The string `s` when it is a short plain name (letters, digits, `_`, `-`, `.`), to be
/// shown in a message; `None` otherwise.
pub fn plain(s: &str) -> Option<&str> {
    let ok = !s.is_empty()
        && s.len() <= 64
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'));
    ok.then_some(s)
}
