//! `fgraph import hf` (issue 27 item 1): every committed config (tests/fixtures/hf, written
//! from the published config.json of a real checkpoint) gives a file that checks clean and
//! whose parameters are the published count (validation/hf/param_counts.json, computed by
//! validation/hf/param_counts.py with transformers); the Llama-3-8B file gives exactly the
//! numbers of examples/llama3_8b.fgraph; the flags shape the step; the config is hostile
//! input (errors name fields and never quote values; unknown fields are warnings).

mod common;

use fgraph::importers::hf::{self, Options, Severity};
use std::path::{Path, PathBuf};
use std::process::Output;

fn fixtures() -> PathBuf {
    common::root().join("tests/fixtures/hf")
}

fn import(name: &str, opts: &Options) -> hf::Imported {
    let bytes = std::fs::read(fixtures().join(name)).expect("fixture");
    hf::import(&bytes, opts)
}

fn run(args: &[&str]) -> (Output, String) {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_fgraph"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("run fgraph");
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    (o, all)
}

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("fgraph-import-hf-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

#[test]
fn every_family_checks_clean_with_the_published_parameter_count() {
    let counts = common::published_param_counts();
    let configs = counts["configs"].as_object().expect("configs");
    // One per checkpoint of the issue, and DeepSeek-V2 itself (q_lora_rank, 160 experts:
    // 2048 · 6 rows do not divide among them).
    assert_eq!(configs.len(), 13);
    let mut types = std::collections::BTreeSet::new();
    for (name, entry) in configs {
        let i = import(name, &Options::default());
        assert!(i.notes.is_empty(), "{name}: {:?}", i.notes);
        let text = i.text.expect("text");
        let r = common::check_clean(name, &text);
        // In fgraph's canonical layout already.
        assert_eq!(
            fgraph::format::format_source(&text).expect("formats"),
            text,
            "{name}"
        );
        let published = entry["params"].as_u64().expect("params");
        assert_eq!(common::params(&r), published, "{name}");
        types.insert(entry["model_type"].as_str().unwrap().to_string());
        // Blocks and repeats, the std library, the fields in comments.
        assert!(text.contains("import \"std/"), "{name}");
        assert!(text.contains("repeat "), "{name}");
        assert!(
            text.contains("// hidden_size") || text.contains("// n_embd"),
            "{name}"
        );
    }
    let supported: std::collections::BTreeSet<String> =
        hf::SUPPORTED.iter().map(|s| s.to_string()).collect();
    assert_eq!(types, supported);
}

fn analyze_json(path: &Path) -> serde_json::Value {
    let (o, all) = run(&["analyze", "--format", "json", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{all}");
    serde_json::from_slice(&o.stdout).expect("json")
}

#[test]
fn llama3_8b_gives_exactly_the_numbers_of_the_example() {
    let dir = temp_dir("llama3");
    let out = dir.join("llama3_8b.fgraph");
    let config = fixtures().join("llama3_8b_config.json");
    let (o, all) = run(&[
        "import",
        "hf",
        config.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{all}");
    assert!(o.stdout.is_empty() && o.stderr.is_empty(), "{all}");
    let generated = analyze_json(&out);
    let example = analyze_json(&common::root().join("examples/llama3_8b.fgraph"));
    // FLOPs, bytes, kernels, ops and time of the whole model, traffic unfused and fused.
    assert_eq!(generated["summary"]["total"], example["summary"]["total"]);
    assert_eq!(generated["traffic"], example["traffic"]);
    assert_eq!(generated["savings_pct"], example["savings_pct"]);
    assert_eq!(
        generated["groups"].as_array().map(Vec::len),
        example["groups"].as_array().map(Vec::len)
    );
    assert_eq!(
        example["summary"]["total"]["flops"].as_u64(),
        Some(32_970_828_152_832)
    );
    assert_eq!(example["summary"]["total"]["kernels"].as_u64(), Some(451));
    // Parameters: 8,030,261,248, the example's.
    let text = std::fs::read_to_string(&out).unwrap();
    let ex = common::root().join("examples/llama3_8b.fgraph");
    let ex_report = fgraph::check_file(
        ex.to_str().unwrap(),
        &std::fs::read(&ex).unwrap(),
        &fgraph::Options::default(),
    );
    assert_eq!(
        common::params(&common::check_clean("llama3", &text)),
        common::params(&ex_report)
    );
    assert_eq!(common::params(&ex_report), 8_030_261_248);
    // One decode step at 32k context gives examples/llama3_8b_decode.fgraph's numbers.
    let out = dir.join("llama3_8b_decode.fgraph");
    let (o, all) = run(&[
        "import",
        "hf",
        config.to_str().unwrap(),
        "--decode",
        "--context",
        "32767",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{all}");
    let generated = analyze_json(&out);
    let example = analyze_json(&common::root().join("examples/llama3_8b_decode.fgraph"));
    assert_eq!(generated["summary"]["total"], example["summary"]["total"]);
    assert_eq!(generated["traffic"], example["traffic"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn llama3_1_carries_rope_scaling_as_params() {
    let text = import("llama3_1_8b_config.json", &Options::default())
        .text
        .unwrap();
    for want in [
        "rope_theta = 500000.0",
        "rope_factor = 8.0",
        "rope_low_freq_factor = 1.0",
        "rope_high_freq_factor = 4.0",
        "rope_original_max_position_embeddings = 8192.0",
        "rope_factor = rope_scaling.factor",
        "// rope_scaling.rope_type: llama3",
    ] {
        assert!(text.contains(want), "{want}\n{text}");
    }
}

#[test]
fn layer_kinds_are_separate_blocks() {
    // Gemma 2: sliding and global layers alternate, each its own block, repeated in pairs.
    let g2 = import("gemma2_9b_config.json", &Options::default())
        .text
        .unwrap();
    assert!(g2.contains("block decoder_sliding("), "{g2}");
    assert!(g2.contains("block decoder_full("), "{g2}");
    assert!(g2.contains("repeat L / 2 layers = layer_pair("), "{g2}");
    assert!(g2.contains("window = W"));
    assert!(g2.contains("op softcap_tanh = elementwise.tanh"));
    assert!(g2.contains("op final_softcap_tanh = elementwise.tanh"));
    assert!(g2.contains("param W = 4096 // sliding_window"));
    // DeepSeek-V2-Lite: one dense layer, then 26 of experts.
    let ds = import("deepseek_v2_lite_config.json", &Options::default())
        .text
        .unwrap();
    assert!(ds.contains("op layer0 = decoder_dense(x0"), "{ds}");
    assert!(ds.contains("repeat 26 layers = decoder_moe(h1"), "{ds}");
    // Mistral: every layer slides.
    let m = import("mistral_7b_v0_1_config.json", &Options::default())
        .text
        .unwrap();
    assert!(m.contains("repeat L layers = decoder("), "{m}");
    assert!(m.contains("causal = true, window = W"));
    // Qwen2: QKV biases; GPT-2: one fused QKV with its bias, the head tied to the table.
    let q = import("qwen2_5_7b_config.json", &Options::default())
        .text
        .unwrap();
    assert!(q.contains("weight bq: [NH * HD]") && !q.contains("weight bo"));
    assert!(!q.contains("window"), "use_sliding_window is false");
    let g = import("gpt2_config.json", &Options::default())
        .text
        .unwrap();
    assert!(g.contains("weight b_qkv: [(NH + 2 * NKV) * HD]"));
    assert!(g.contains("matmul(hn, embed_tokens.T)"));
    // BERT: no causal mask, the pooler, both outputs.
    let b = import("bert_base_uncased_config.json", &Options::default())
        .text
        .unwrap();
    assert!(!b.contains("causal"));
    assert!(b.contains("output h, pooled"));
}

#[test]
fn variants_of_the_published_configs() {
    // Qwen2 with its window on: the layers from max_window_layers on slide, a run each.
    let q = hf::import(
        &with_fields("qwen2_5_7b_config.json", |m| {
            m.insert("use_sliding_window".into(), true.into());
            m.insert("max_window_layers".into(), 21.into());
            m.insert("sliding_window".into(), 4096.into());
        }),
        &Options::default(),
    );
    let text = q.text.unwrap();
    assert!(
        text.contains("repeat 21 layers0 = decoder_full(x0"),
        "{text}"
    );
    assert!(
        text.contains("repeat 7 layers21 = decoder_sliding(h21"),
        "{text}"
    );
    assert_eq!(
        common::params(&common::check_clean("qwen", &text)),
        7_615_616_512
    );
    // Gemma 2 with an odd number of layers: pairs, then one sliding layer.
    let g = hf::import(
        &with_fields("gemma2_9b_config.json", |m| {
            m.insert("num_hidden_layers".into(), 5.into());
        }),
        &Options::default(),
    );
    let text = g.text.unwrap();
    assert!(text.contains("repeat 2 layers = layer_pair("), "{text}");
    assert!(text.contains("op last_layer = decoder_sliding(h"), "{text}");
    // transformers' count for this config (validation/hf/param_counts.py's way).
    assert_eq!(
        common::params(&common::check_clean("gemma2", &text)),
        1_908_483_584
    );
    // transformers 5's rope_parameters beside rope_scaling: one param per value.
    let l = hf::import(
        &with_fields("llama3_1_8b_config.json", |m| {
            let mut rp = m["rope_scaling"].clone();
            rp["rope_theta"] = 500000.0.into();
            m.insert("rope_parameters".into(), rp);
        }),
        &Options::default(),
    );
    assert!(l.notes.is_empty(), "{:?}", l.notes);
    common::check_clean("llama", &l.text.unwrap());
}

#[test]
fn batch_seq_decode_and_dtype_shape_the_step() {
    for name in [
        "llama3_8b_config.json",
        "gemma2_9b_config.json",
        "gpt2_config.json",
        "mixtral_8x7b_config.json",
        "deepseek_v2_lite_config.json",
        "phi3_mini_4k_config.json",
    ] {
        let opts = Options {
            batch: 4,
            decode: Some(1000),
            dtype: Some(fgraph::Dtype::F16),
            ..Options::default()
        };
        let text = import(name, &opts).text.expect(name);
        assert!(text.contains("param B = 4"), "{name}");
        assert!(text.contains("param P = 1000"), "{name}");
        assert!(text.contains("update(k_cache"), "{name}");
        assert!(
            text.contains("dtype f16") && !text.contains("bf16"),
            "{name}"
        );
        common::check_clean(name, &text);
        let opts = Options {
            batch: 2,
            seq: Some(100),
            ..Options::default()
        };
        let text = import(name, &opts).text.expect(name);
        assert!(text.contains("param S = 100"), "{name}");
        common::check_clean(name, &text);
    }
    // Mixtral at decode, batch 1: 2 of the 8 experts get a row; the other 6 are idle but
    // still parameters.
    let one = Options {
        decode: Some(10),
        ..Options::default()
    };
    let text = import("mixtral_8x7b_config.json", &one).text.unwrap();
    assert!(text.contains("param EA = 2"), "{text}");
    assert_eq!(
        common::params(&common::check_clean("mixtral", &text)),
        46_702_792_704
    );
    // 2048 · 6 slots over 160 experts do not divide: two groups of experts.
    let uneven = Options {
        seq: Some(100),
        ..Options::default()
    };
    let text = import("deepseek_v2_lite_config.json", &uneven)
        .text
        .unwrap();
    assert!(text.contains("param RA = "), "{text}");
    assert_eq!(
        common::params(&common::check_clean("ds", &text)),
        15_706_484_224
    );
    // The learned positions bound the sequence; BERT has no decode step.
    let too_long = Options {
        seq: Some(1025),
        ..Options::default()
    };
    let i = import("gpt2_config.json", &too_long);
    assert!(i.text.is_none());
    assert!(
        i.notes[0].message.contains("1024 learned positions"),
        "{:?}",
        i.notes
    );
    let i = import("bert_base_uncased_config.json", &one);
    assert!(i.notes[0].message.contains("encoder"), "{:?}", i.notes);
    // GPT-2 and BERT default to their positions.
    let g = import("gpt2_config.json", &Options::default())
        .text
        .unwrap();
    assert!(g.contains("param S = 1024"));
    let b = import("bert_base_uncased_config.json", &Options::default())
        .text
        .unwrap();
    assert!(b.contains("param S = 512") && b.contains("dtype f32"));
}

fn with_fields(
    base: &str,
    edit: impl FnOnce(&mut serde_json::Map<String, serde_json::Value>),
) -> Vec<u8> {
    let mut v: serde_json::Value =
        serde_json::from_slice(&std::fs::read(fixtures().join(base)).unwrap()).unwrap();
    edit(v.as_object_mut().unwrap());
    serde_json::to_vec(&v).unwrap()
}

#[test]
fn fields_the_importer_does_not_model_are_warnings_naming_them() {
    let bytes = with_fields("llama3_8b_config.json", |m| {
        m.insert("mlp_bias".into(), true.into());
        m.insert("some_new_knob".into(), "SECRETVALUE".into());
        m.insert("hidden_act".into(), "relu".into());
    });
    let i = hf::import(&bytes, &Options::default());
    assert!(i.text.is_some());
    let warned: Vec<&str> = i.notes.iter().filter_map(|n| n.field.as_deref()).collect();
    assert_eq!(
        warned,
        ["hidden_act", "mlp_bias", "some_new_knob"],
        "{:?}",
        i.notes
    );
    assert!(i.notes.iter().all(|n| n.severity == Severity::Warning));
    for n in &i.notes {
        assert!(
            !n.message.contains("SECRETVALUE") && !n.message.contains("relu"),
            "{n:?}"
        );
    }
    // A flood of fields: 64 named, the rest counted.
    let bytes = with_fields("llama3_8b_config.json", |m| {
        for i in 0..10_000 {
            m.insert(format!("knob_{i:05}"), i.into());
        }
    });
    let i = hf::import(&bytes, &Options::default());
    assert!(i.text.is_some());
    assert_eq!(i.notes.len(), 65);
    assert!(
        i.notes
            .iter()
            .any(|n| n.message == "9936 more fields are not modelled by the llama importer either"),
        "{:?}",
        i.notes.last()
    );
    // Null fields say nothing.
    let bytes = with_fields("llama3_8b_config.json", |m| {
        m.insert("some_new_knob".into(), serde_json::Value::Null);
    });
    assert!(hf::import(&bytes, &Options::default()).notes.is_empty());
}

#[test]
fn bad_configs_are_errors_naming_every_field_without_quoting_values() {
    let bytes = with_fields("llama3_8b_config.json", |m| {
        m.remove("hidden_size");
        m.insert("num_hidden_layers".into(), "SECRETVALUE".into());
        m.insert("vocab_size".into(), serde_json::json!(1e300));
        m.insert("num_key_value_heads".into(), 7.into());
        m.insert("rms_norm_eps".into(), (-1).into());
    });
    let i = hf::import(&bytes, &Options::default());
    assert!(i.text.is_none());
    let errors: Vec<&str> = i
        .notes
        .iter()
        .filter(|n| n.severity == Severity::Error)
        .filter_map(|n| n.field.as_deref())
        .collect();
    for f in [
        "hidden_size",
        "num_hidden_layers",
        "vocab_size",
        "rms_norm_eps",
    ] {
        assert!(errors.contains(&f), "{f}: {:?}", i.notes);
    }
    assert!(i.notes.iter().all(|n| !n.message.contains("SECRETVALUE")));
    // Heads that do not divide.
    let bytes = with_fields("llama3_8b_config.json", |m| {
        m.insert("num_key_value_heads".into(), 7.into());
    });
    let i = hf::import(&bytes, &Options::default());
    assert_eq!(i.notes[0].field.as_deref(), Some("num_key_value_heads"));
    // Not JSON, not an object, no model_type, an unknown one, a hostile one.
    for (bytes, want) in [
        (
            b"{\"model_type\": \"llama\", SECRETVALUE".to_vec(),
            "not valid JSON",
        ),
        (b"[1, 2]".to_vec(), "not a JSON object"),
        (b"{}".to_vec(), "field `model_type` is missing"),
        (
            b"{\"model_type\": \"mamba\"}".to_vec(),
            "not supported yet: model_type mamba",
        ),
        (
            format!("{{\"model_type\": \"{}\"}}", "\\u001b[31m".repeat(20)).into_bytes(),
            "not supported yet: model_type (a name of",
        ),
        (vec![b'['; 100_000], "not valid JSON"),
    ] {
        let i = hf::import(&bytes, &Options::default());
        assert!(i.text.is_none());
        let first = &i.notes[0].message;
        assert!(first.contains(want), "{want}: {first}");
        assert!(
            !first.contains("SECRETVALUE") && !first.contains('\u{1b}'),
            "{first}"
        );
    }
    // A hostile field name is described, not printed.
    let bytes = with_fields("gpt2_config.json", |m| {
        m.insert("\u{1b}[2J".repeat(50), 1.into());
    });
    let i = hf::import(&bytes, &Options::default());
    assert!(
        i.notes[0].message.contains("a field whose name is"),
        "{:?}",
        i.notes
    );
    // Too large: refused before parsing.
    let big = vec![b' '; hf::MAX_CONFIG_BYTES + 1];
    assert!(
        hf::import(&big, &Options::default()).notes[0]
            .message
            .contains("larger than")
    );
}

#[test]
fn the_command_line_exit_codes_and_output() {
    let dir = temp_dir("cli");
    let config = fixtures().join("gpt2_config.json");
    // Standard output by default.
    let (o, all) = run(&["import", "hf", config.to_str().unwrap(), "--seq", "64"]);
    assert_eq!(o.status.code(), Some(0), "{all}");
    assert!(String::from_utf8_lossy(&o.stdout).contains("graph gpt2 {"));
    // Errors: exit 1 with the diagnostic, nothing on standard output.
    let bad = dir.join("bad.json");
    std::fs::write(&bad, "{\"model_type\": \"t5\"}").unwrap();
    let (o, all) = run(&["import", "hf", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{all}");
    assert!(o.stdout.is_empty());
    assert!(
        all.contains("error: `") && all.contains("not supported yet: model_type t5"),
        "{all}"
    );
    // Unreadable files and usage: exit 2.
    let (o, all) = run(&["import", "hf", dir.join("missing.json").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{all}");
    let (o, all) = run(&["import", "hf", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{all}");
    assert!(all.contains("error: cannot read"), "{all}");
    let (o, all) = run(&["import", "hf", config.to_str().unwrap(), "--decode"]);
    assert_eq!(o.status.code(), Some(2), "{all}");
    let (o, all) = run(&[
        "import",
        "hf",
        config.to_str().unwrap(),
        "--dtype",
        "float16",
    ]);
    assert_eq!(o.status.code(), Some(2), "{all}");
    let (o, all) = run(&[
        "import",
        "hf",
        config.to_str().unwrap(),
        "-o",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{all}");
    // Warnings go to standard error; the file is still written.
    let warn = dir.join("warn.json");
    std::fs::write(
        &warn,
        with_fields("mistral_7b_v0_1_config.json", |m| {
            m.insert("new_knob".into(), 3.into());
        }),
    )
    .unwrap();
    let out = dir.join("out.fgraph");
    let (o, all) = run(&[
        "import",
        "hf",
        warn.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--decode",
        "--context",
        "4096",
        "--batch",
        "8",
    ]);
    assert_eq!(o.status.code(), Some(0), "{all}");
    assert!(
        all.contains("warning: ") && all.contains("field `new_knob`"),
        "{all}"
    );
    let (o, all) = run(&["check", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{all}");
    let _ = std::fs::remove_dir_all(&dir);
}

mod hostile {
    use super::*;
    use proptest::prelude::*;

    /// Keys the families read, so that random configs reach deep into each reader.
    const KEYS: &[&str] = &[
        "vocab_size",
        "hidden_size",
        "n_embd",
        "intermediate_size",
        "num_hidden_layers",
        "n_layer",
        "num_attention_heads",
        "n_head",
        "num_key_value_heads",
        "head_dim",
        "n_positions",
        "max_position_embeddings",
        "sliding_window",
        "use_sliding_window",
        "max_window_layers",
        "layer_types",
        "num_local_experts",
        "num_experts_per_tok",
        "n_routed_experts",
        "n_shared_experts",
        "moe_intermediate_size",
        "first_k_dense_replace",
        "moe_layer_freq",
        "kv_lora_rank",
        "q_lora_rank",
        "qk_nope_head_dim",
        "qk_rope_head_dim",
        "v_head_dim",
        "rope_scaling",
        "rms_norm_eps",
        "tie_word_embeddings",
        "torch_dtype",
        "attn_logit_softcapping",
        "query_pre_attn_scalar",
        "type_vocab_size",
    ];

    fn value() -> impl Strategy<Value = serde_json::Value> {
        use serde_json::json;
        prop_oneof![
            Just(serde_json::Value::Null),
            any::<bool>().prop_map(serde_json::Value::from),
            (1u64..10).prop_map(|n| json!(n * 2)),
            any::<i64>().prop_map(serde_json::Value::from),
            any::<f64>()
                .prop_filter("finite", |f| f.is_finite())
                .prop_map(serde_json::Value::from),
            "[a-z_]{0,12}".prop_map(serde_json::Value::from),
            Just(json!(["sliding_attention", "full_attention"])),
            Just(json!({"factor": 2.0, "type": "yarn", "mscale_all_dim": 1.0})),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
        /// Any config, either form, either attention: no panic; either errors and no text, or
        /// a text that checks clean.
        #[test]
        fn any_config_is_an_answer(
            family in proptest::sample::select(hf::SUPPORTED),
            fields in proptest::collection::vec((proptest::sample::select(KEYS), value()), 0..24),
            decode in any::<bool>(),
            transformers in any::<bool>(),
            attn in 0u8..3,
        ) {
            let mut m = serde_json::Map::new();
            m.insert("model_type".into(), family.into());
            for (k, v) in fields {
                m.insert(k.into(), v);
            }
            let bytes = serde_json::to_vec(&m).unwrap();
            let opts = Options {
                decode: decode.then_some(3),
                seq: Some(8),
                ops: if transformers { hf::Ops::Transformers } else { hf::Ops::Model },
                attn: [None, Some(hf::Attn::Sdpa), Some(hf::Attn::SdpaTraced)][usize::from(attn)],
                ..Options::default()
            };
            let i = hf::import(&bytes, &opts);
            prop_assert_eq!(i.text.is_some(), !i.has_errors());
            if let Some(text) = i.text {
                common::check_clean(family, &text);
            }
        }
    }
}
