//! An [`Arch`] written as `.fgraph` source: the imports of the standard library's blocks, one
//! block per kind of layer (its attention written out by `attention`, its feed-forward an
//! instance of a std block or the mixture of experts of `ffn`), the layers as `repeat`s, and
//! the graph (embeddings, layers, final norm, head) with the config's sizes as params, each
//! commented with the field it comes from.

mod attention;
mod ffn;
mod transformers;
mod transformers_gpt2;

use super::arch::{Arch, Kind, Norm, Style};
use super::{Attn, Ops, Options};
use crate::limits::MAX_DIM;
use std::fmt::Write;

/// The allow comment before each op of eager attention's score chain.
const ALLOW: &str = "// fgraph: allow(large-intermediate)";

/// Tokens per sequence when `--seq` is not given (capped by learned positions).
const DEFAULT_SEQ: u64 = 2048;

/// Shapes of the step: batch, tokens per sequence, positions already cached (decode).
struct Step {
    batch: u64,
    seq: u64,
    past: Option<u64>,
}

/// The text, or why the options do not fit the model.
pub fn emit(a: &Arch, o: &Options) -> Result<String, String> {
    let step = step(a, o)?;
    let attn = o.attn.unwrap_or(match o.ops {
        Ops::Model => Attn::Eager,
        Ops::Transformers => Attn::Sdpa,
    });
    if attn == Attn::SdpaTraced && o.ops != Ops::Transformers {
        return Err(
            "`--attn sdpa-traced` is transformers' traced SDPA path: it goes with \
             `--ops transformers` (the default form's `--attn sdpa` is one attention op)"
                .into(),
        );
    }
    if attn != Attn::Eager && a.attn_softcap.is_some() {
        return Err("`--attn sdpa`: this model's attention-logit softcapping \
             (attn_logit_softcapping) is not what scaled_dot_product_attention computes"
            .into());
    }
    let mut e = Emitter {
        a,
        step: &step,
        source: &o.source_name,
        out: String::new(),
        ops: o.ops,
        attn,
    };
    match o.ops {
        Ops::Model => e.file()?,
        Ops::Transformers => {
            if let Some(why) = transformers::unsupported(&e, o) {
                return Err(why);
            }
            e.transformers_file()?;
        }
    }
    Ok(e.out)
}

fn step(a: &Arch, o: &Options) -> Result<Step, String> {
    if o.decode.is_some() && a.style == Style::Bert {
        return Err("`--decode`: BERT is an encoder; it has no decode step".into());
    }
    let seq = match (o.decode, o.seq) {
        (Some(_), _) => 1,
        (None, Some(s)) => s,
        (None, None) => a
            .learned_positions
            .map_or(DEFAULT_SEQ, |p| p.min(DEFAULT_SEQ)),
    };
    if o.batch == 0 || seq == 0 {
        return Err("`--batch` and `--seq` must be at least 1".into());
    }
    let keys = seq
        .checked_add(o.decode.unwrap_or(0))
        .ok_or("`--context` is too large")?;
    if let Some(p) = a.learned_positions
        && keys > p
    {
        return Err(format!(
            "the model has {p} learned positions (n_positions / max_position_embeddings): \
             {} needs {keys}",
            if o.decode.is_some() {
                "`--context` plus the new token"
            } else {
                "`--seq`"
            }
        ));
    }
    // The largest tensors: the tokens, their rows, the attention scores and the caches.
    let k = a.moe.as_ref().map_or(1, |m| m.top_k);
    let width = [a.hidden, a.inter, a.vocab, a.heads * a.head_dim.max(1)]
        .into_iter()
        .max()
        .unwrap_or(1);
    let fits = o
        .batch
        .checked_mul(seq)
        .and_then(|t| t.checked_mul(k))
        .and_then(|t| t.checked_mul(width))
        .zip(
            o.batch
                .checked_mul(a.heads)
                .and_then(|t| t.checked_mul(seq))
                .and_then(|t| t.checked_mul(keys.max(a.head_dim))),
        )
        .is_some_and(|(x, y)| x <= MAX_DIM && y <= MAX_DIM);
    if !fits {
        return Err(format!(
            "`--batch` × `--seq` (or `--context`) are too large for this model: a tensor \
             would pass fgraph's limit of {MAX_DIM} elements per dimension product"
        ));
    }
    Ok(Step {
        batch: o.batch,
        seq,
        past: o.decode,
    })
}

/// A float literal fgraph reads back as the same number (`1e-5`, `500000.0`).
pub fn float(v: f64) -> String {
    format!("{v:?}")
}

/// The name a config's path goes by in the header comment: as given when it is plain text.
fn shown(name: &str) -> String {
    let ok = name.len() <= 200
        && name
            .chars()
            .all(|c| !c.is_control() && c != '\u{2028}' && c != '\u{2029}');
    if ok {
        name.to_string()
    } else {
        "the config".to_string()
    }
}

struct Emitter<'a> {
    a: &'a Arch,
    step: &'a Step,
    /// The config's name, for the header comment.
    source: &'a str,
    out: String,
    ops: Ops,
    attn: Attn,
}

/// The distinct kinds of layer in order of first use, and the block each one is.
fn kinds(a: &Arch) -> Vec<(Kind, String)> {
    let mut distinct: Vec<Kind> = Vec::new();
    for k in &a.kinds {
        if !distinct.contains(k) {
            distinct.push(*k);
        }
    }
    let base = if a.style == Style::Bert {
        "encoder"
    } else {
        "decoder"
    };
    let windows_differ =
        distinct.iter().any(|k| k.window.is_some()) && distinct.iter().any(|k| k.window.is_none());
    let moe_differs = distinct.iter().any(|k| k.moe) && distinct.iter().any(|k| !k.moe);
    distinct
        .into_iter()
        .map(|k| {
            let mut name = base.to_string();
            if windows_differ {
                name.push_str(if k.window.is_some() {
                    "_sliding"
                } else {
                    "_full"
                });
            }
            if moe_differs {
                name.push_str(if k.moe { "_moe" } else { "_dense" });
            }
            (k, name)
        })
        .collect()
}

impl Emitter<'_> {
    fn l(&mut self, indent: usize, text: impl AsRef<str>) {
        for _ in 0..indent {
            self.out.push_str("  ");
        }
        self.out.push_str(text.as_ref());
        self.out.push('\n');
    }

    fn decode(&self) -> bool {
        self.step.past.is_some()
    }

    fn dt(&self) -> &'static str {
        self.a.dtype.as_str()
    }

    fn file(&mut self) -> Result<(), String> {
        self.header();
        for import in self.imports() {
            self.l(0, format!("import \"std/{import}.fgraph\""));
        }
        self.l(0, "");
        let kinds = kinds(self.a);
        for (k, name) in &kinds {
            self.layer_block(*k, name);
            self.l(0, "");
        }
        let plan = plan(&self.a.kinds);
        if let Plan::Pairs { .. } = plan {
            self.pair_block(&kinds);
            self.l(0, "");
        }
        self.graph(&kinds, &plan)
    }

    fn header(&mut self) {
        let a = self.a;
        let source = shown(self.source);
        self.l(
            0,
            format!(
                "// Generated by `fgraph import hf` from {source} (model_type {}):",
                a.model_type
            ),
        );
        match self.step.past {
            Some(_) => {
                self.l(
                    0,
                    "// one decode step: one new token in each of B sequences, P positions already in",
                );
                self.l(
                    0,
                    "// each layer's KV cache (the caches are per-layer weights).",
                );
            }
            None => self.l(0, "// a prefill of S tokens in each of B sequences."),
        }
        self.l(
            0,
            format!("// Every tensor is {} ({}).", a.dtype, a.dtype_source),
        );
        self.l(
            0,
            "// Params carry the config's values, each commented with the field it comes from.",
        );
        self.l(
            0,
            "// Weights are stored [in, out] (nn.Linear's transpose): the same parameters and bytes.",
        );
        let named = a.named.clone();
        for (field, value) in named {
            self.l(
                0,
                format!("// {field}: {value} (a value: no shape depends on it)."),
            );
        }
    }

    fn imports(&self) -> Vec<&'static str> {
        let a = self.a;
        let mut v = Vec::new();
        match a.style {
            Style::Llama => v.push("llama"),
            Style::Gemma | Style::Gemma2 => v.push("gemma"),
            Style::Phi3 => v.push("phi3"),
            Style::Gpt2 => v.push("gpt2"),
            Style::Bert => v.push("bert"),
        }
        if a.moe.is_some() {
            v.push("moe");
        }
        if a.rope {
            v.push("rope");
        }
        v
    }

    /// The integer params a layer block of kind `k` takes, in order.
    fn block_ints(&self, k: Kind) -> Vec<&'static str> {
        let a = self.a;
        let mut v = vec!["B", "S"];
        if self.decode() {
            v.push("P");
        }
        v.push("H");
        match &a.mla {
            Some(m) => {
                v.push("NH");
                if m.q_rank.is_some() {
                    v.push("QR");
                }
                v.extend(["KVR", "ND", "RD", "VD"]);
            }
            None => v.extend(["NH", "NKV", "HD"]),
        }
        if k.window.is_some() {
            v.push("W");
        }
        if k.moe {
            v.extend(["E", "K", "EA", "R"]);
            if self.moe_split().is_some() {
                v.push("RA");
            }
            if a.mla.is_some() {
                v.push("FE");
                if a.moe.as_ref().is_some_and(|m| m.shared_inter.is_some()) {
                    v.push("FS");
                }
            } else {
                v.push("F");
            }
        } else {
            v.push("F");
        }
        v
    }

    /// The comment naming the config field of each value-only param, then `block NAME(ints,
    /// floats, DT = dtype) {` and `dtype DT`.
    fn block_head(&mut self, name: &str, ints: &[&str]) {
        let sources: Vec<String> = self
            .a
            .floats
            .iter()
            .map(|f| format!("{} = {}", f.name, f.source))
            .collect();
        self.l(
            0,
            "// Values only (no shape, byte or FLOP depends on them), from the config's fields:",
        );
        for chunk in sources.chunks(3) {
            self.l(0, format!("// {}.", chunk.join(", ")));
        }
        self.l(
            0,
            format!(
                "block {name}({}{}, DT = {}) {{",
                ints.join(", "),
                self.block_floats(),
                self.dt()
            ),
        );
        self.l(1, "dtype DT");
    }

    /// The float params of every layer block, with their defaults: the config's values.
    fn block_floats(&self) -> String {
        let mut s = String::new();
        for f in &self.a.floats {
            let _ = write!(s, ", {} = {}", f.name, float(f.value));
        }
        s
    }

    fn layer_block(&mut self, k: Kind, name: &str) {
        let a = self.a;
        let ints = self.block_ints(k);
        self.l(
            0,
            format!(
                "// One {} layer{}{}.",
                match a.style {
                    Style::Bert => "encoder",
                    _ => "decoder",
                },
                if k.window.is_some() {
                    ", attending to the W most recent positions"
                } else {
                    ""
                },
                if k.moe {
                    ", with a mixture-of-experts feed-forward"
                } else {
                    ""
                },
            ),
        );
        self.block_head(name, &ints);
        self.l(1, "input x: [B * S, H]");
        if a.rope {
            let d = if a.mla.is_some() { "RD" } else { "HD" };
            self.l(1, format!("input cos: [S, {d}]"));
            self.l(1, format!("input sin: [S, {d}]"));
        }
        if a.mla.is_some() {
            self.mla_attention();
        } else {
            self.attention(k);
        }
        if k.moe {
            self.moe_ffn();
        } else {
            self.dense_ffn();
        }
        self.l(1, "output y");
        self.l(0, "}");
    }

    fn pair_block(&mut self, kinds: &[(Kind, String)]) {
        let (k0, n0) = &kinds[0];
        let (k1, n1) = &kinds[1];
        let mut ints = self.block_ints(*k0);
        for i in self.block_ints(*k1) {
            if !ints.contains(&i) {
                ints.push(i);
            }
        }
        self.l(0, format!("// Two layers: {n0}, then {n1}."));
        self.l(
            0,
            format!(
                "block layer_pair({}, DT = {}) {{",
                ints.join(", "),
                self.dt()
            ),
        );
        self.l(1, "dtype DT");
        if self.ops == Ops::Transformers {
            self.hf_block_inputs();
        } else {
            self.l(1, "input x: [B * S, H]");
            if self.a.rope {
                self.l(1, "input cos: [S, HD]");
                self.l(1, "input sin: [S, HD]");
            }
        }
        let rope = self.layer_inputs();
        let a0 = self.args(*k0);
        let a1 = self.args(*k1);
        self.l(1, format!("op first = {n0}(x{rope}, {a0}) -> h"));
        self.l(1, format!("op second = {n1}(h{rope}, {a1}) -> y"));
        self.l(1, "output y");
        self.l(0, "}");
    }

    /// `B = B, S = S, …`: the integer params a block of kind `k` takes, passed by name.
    fn args(&self, k: Kind) -> String {
        let mut v: Vec<String> = self
            .block_ints(k)
            .iter()
            .map(|p| format!("{p} = {p}"))
            .collect();
        v.push("DT = DT".into());
        v.join(", ")
    }

    /// `graph NAME {`, the step's params (B, S, P) and the config's sizes.
    fn graph_head(&mut self) {
        let a = self.a;
        self.l(0, format!("graph {} {{", a.model_type));
        self.l(
            1,
            format!("param B = {} // --batch: sequences", self.step.batch),
        );
        match self.step.past {
            Some(p) => {
                self.l(1, "param S = 1 // --decode: one new token per sequence");
                self.l(
                    1,
                    format!("param P = {p} // --context: positions already in the KV cache"),
                );
            }
            None => self.l(
                1,
                format!("param S = {} // --seq: tokens per sequence", self.step.seq),
            ),
        }
        for p in &a.ints {
            self.l(1, format!("param {} = {} // {}", p.name, p.value, p.source));
        }
    }

    fn graph(&mut self, kinds: &[(Kind, String)], plan: &Plan) -> Result<(), String> {
        let a = self.a;
        self.graph_head();
        if let Some((ea, _, ra)) = self.moe_rows() {
            self.l(
                1,
                format!("param EA = {ea} // experts that receive rows: min(E, B · S · K)"),
            );
            self.l(
                1,
                "param R = B * S * K div EA // rows per expert, balanced routing",
            );
            if ra > 0 {
                self.l(
                    1,
                    "param RA = B * S * K - EA * R // experts with one row more",
                );
            }
        }
        self.l(1, format!("dtype {}", self.dt()));
        self.l(1, "input tokens: i32[B * S]");
        if a.learned_positions.is_some() {
            self.l(1, "input positions: i32[B * S] // each token's position");
        }
        if a.token_types.is_some() {
            self.l(1, "input token_types: i32[B * S]");
        }
        if a.rope {
            let d = if a.mla.is_some() { "RD" } else { "HD" };
            self.l(
                1,
                format!("input cos: [S, {d}] // the rotary tables of the S positions"),
            );
            self.l(1, format!("input sin: [S, {d}]"));
        }
        self.l(1, "weight embed_tokens: [V, H]");
        if a.learned_positions.is_some() {
            self.l(1, "weight embed_positions: [POS, H]");
        }
        if a.token_types.is_some() {
            self.l(1, "weight embed_token_types: [TYPES, H]");
            self.l(1, "weight embed_ln_w: [H]");
            self.l(1, "weight embed_ln_b: [H]");
        }
        let eps = float(a.eps);
        self.l(
            1,
            "op embed = gather(embed_tokens, tokens, axis = 0) -> x0 // the rows looked up, not the table",
        );
        let mut x = "x0".to_string();
        if a.embed_scale {
            let s = (a.hidden as f64).sqrt();
            self.l(
                1,
                format!(
                    "op embed_scale = elementwise.mul(x0, {}) -> x1 // sqrt(hidden_size)",
                    float(s)
                ),
            );
            x = "x1".into();
        }
        if a.learned_positions.is_some() {
            self.l(
                1,
                "op embed_pos = gather(embed_positions, positions, axis = 0) -> pe",
            );
            self.l(1, "op add_pos = elementwise.add(x0, pe) -> x1");
            x = "x1".into();
        }
        if a.token_types.is_some() {
            self.l(
                1,
                "op embed_type = gather(embed_token_types, token_types, axis = 0) -> te",
            );
            self.l(1, "op add_type = elementwise.add(x1, te) -> x2");
            self.l(
                1,
                format!("op embed_ln = reduction.layernorm(x2, embed_ln_w, embed_ln_b, eps = {eps}) -> x3: [B * S, H]"),
            );
            x = "x3".into();
        }
        let h = self.layers(kinds, plan, &x);
        match a.style {
            Style::Bert => self.pooler(&h),
            _ => self.head(&h, &eps),
        }
        self.l(0, "}");
        Ok(())
    }

    /// The layers, in runs; the name of the last one's output.
    /// The tensors a layer takes after its hidden states: the rotary tables, and the mask
    /// of transformers' eager attention.
    fn layer_inputs(&self) -> &'static str {
        match (self.ops, self.attn, self.a.rope) {
            (Ops::Transformers, Attn::Eager | Attn::SdpaTraced, true) => ", cos, sin, mask",
            (Ops::Transformers, Attn::Eager | Attn::SdpaTraced, false) => ", mask",
            (_, _, true) => ", cos, sin",
            (_, _, false) => "",
        }
    }

    fn layers(&mut self, kinds: &[(Kind, String)], plan: &Plan, x: &str) -> String {
        let rope = self.layer_inputs();
        let block_of = |k: Kind| {
            kinds
                .iter()
                .find(|(kk, _)| *kk == k)
                .map_or("decoder", |(_, n)| n.as_str())
                .to_string()
        };
        match plan {
            Plan::Pairs { pairs, tail } => {
                let ints = {
                    let mut v = self.block_ints(kinds[0].0);
                    for i in self.block_ints(kinds[1].0) {
                        if !v.contains(&i) {
                            v.push(i);
                        }
                    }
                    v
                };
                let mut args: Vec<String> = ints.iter().map(|p| format!("{p} = {p}")).collect();
                args.push(format!("DT = {}", self.dt()));
                let count = if *tail {
                    pairs.to_string()
                } else {
                    "L / 2".to_string()
                };
                self.l(
                    1,
                    format!(
                        "repeat {count} layers = layer_pair({x}{rope}, {}) -> h",
                        args.join(", ")
                    ),
                );
                if *tail {
                    let k = kinds[0].0;
                    let args = self
                        .args(k)
                        .replace("DT = DT", &format!("DT = {}", self.dt()));
                    self.l(
                        1,
                        format!("op last_layer = {}(h{rope}, {args}) -> h_last", block_of(k)),
                    );
                    return "h_last".into();
                }
                "h".into()
            }
            Plan::Runs(runs) => {
                let single_repeat = runs.iter().filter(|(_, _, n)| *n > 1).count() == 1;
                let mut cur = x.to_string();
                for (i, (start, k, n)) in runs.iter().enumerate() {
                    let args = self
                        .args(*k)
                        .replace("DT = DT", &format!("DT = {}", self.dt()));
                    let block = block_of(*k);
                    let out = if i + 1 == runs.len() {
                        "h".to_string()
                    } else {
                        format!("h{}", start + n)
                    };
                    if *n == 1 {
                        self.l(
                            1,
                            format!("op layer{start} = {block}({cur}{rope}, {args}) -> {out}"),
                        );
                    } else {
                        let name = if single_repeat {
                            "layers".to_string()
                        } else {
                            format!("layers{start}")
                        };
                        let count = if runs.len() == 1 {
                            "L".to_string()
                        } else {
                            n.to_string()
                        };
                        self.l(
                            1,
                            format!(
                                "repeat {count} {name} = {block}({cur}{rope}, {args}) -> {out}"
                            ),
                        );
                    }
                    cur = out;
                }
                cur
            }
        }
    }

    /// The final norm and the LM head (the embedding table when tied), Gemma 2's softcap.
    fn head(&mut self, h: &str, eps: &str) {
        let a = self.a;
        match a.norm {
            Norm::Rms => {
                self.l(1, "weight final_norm: [H]");
                self.l(
                    1,
                    format!("op norm = reduction.rmsnorm({h}, final_norm, eps = {eps}) -> hn: [B * S, H]"),
                );
            }
            Norm::Layer => {
                self.l(1, "weight ln_f_w: [H]");
                self.l(1, "weight ln_f_b: [H]");
                self.l(
                    1,
                    format!("op ln_f = reduction.layernorm({h}, ln_f_w, ln_f_b, eps = {eps}) -> hn: [B * S, H]"),
                );
            }
        }
        self.lm_head();
        let mut out = "logits";
        if let Some(cap) = a.final_softcap {
            self.l(
                1,
                format!(
                    "op final_softcap_div = elementwise.mul(logits, {}) -> lc1 // final_logit_softcapping",
                    float(1.0 / cap)
                ),
            );
            self.l(1, "op final_softcap_tanh = elementwise.tanh(lc1) -> lc2");
            self.l(
                1,
                format!(
                    "op final_softcap_mul = elementwise.mul(lc2, {}) -> lc3",
                    float(cap)
                ),
            );
            out = "lc3";
        }
        self.l(1, format!("output {out}"));
    }

    /// The LM head of `hn` into `logits`: the embedding table when tied.
    fn lm_head(&mut self) {
        if self.a.tied {
            self.l(
                1,
                "op lm_head = matmul(hn, embed_tokens.T) -> logits // tie_word_embeddings: the table is the head",
            );
        } else {
            self.l(1, "weight lm_head_w: [H, V]");
            self.l(1, "op lm_head = matmul(hn, lm_head_w) -> logits");
        }
    }

    /// BERT's pooler: dense and tanh on each sequence's first token; both outputs.
    fn pooler(&mut self, h: &str) {
        self.l(1, "weight pooler_w: [H, H]");
        self.l(1, "weight pooler_b: [H]");
        self.l(1, format!("op first_split = reshape({h}) -> h3: [B, S, H]"));
        self.l(
            1,
            "op first_token = slice(h3, axis = 1, start = 0, end = 1) -> cls: [B, 1, H]",
        );
        self.l(1, "op pooler_dense = matmul(cls, pooler_w) -> pd");
        self.l(1, "op pooler_bias = elementwise.add(pd, pooler_b) -> pb");
        self.l(1, "op pooler_act = elementwise.tanh(pb) -> pooled");
        self.l(1, format!("output {h}, pooled"));
    }
}

/// How the layers are instantiated.
enum Plan {
    /// Two alternating kinds: `pairs` instances of a block holding both, then one more of
    /// the first kind when the count is odd.
    Pairs { pairs: u64, tail: bool },
    /// Runs of one kind: (first layer, kind, count).
    Runs(Vec<(u64, Kind, u64)>),
}

fn plan(kinds: &[Kind]) -> Plan {
    let n = kinds.len();
    let alternating =
        n >= 4 && kinds[0] != kinds[1] && kinds.iter().enumerate().all(|(i, k)| *k == kinds[i % 2]);
    if alternating {
        return Plan::Pairs {
            pairs: (n / 2) as u64,
            tail: n % 2 == 1,
        };
    }
    let mut runs: Vec<(u64, Kind, u64)> = Vec::new();
    for (i, k) in kinds.iter().enumerate() {
        match runs.last_mut() {
            Some((_, last, count)) if last == k => *count += 1,
            _ => runs.push((i as u64, *k, 1)),
        }
    }
    Plan::Runs(runs)
}
