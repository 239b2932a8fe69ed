//! Unit tests of the importer's reading rules; the generated files are checked end to end in
//! tests/import_hf.rs.

use super::*;

fn run(json: &str) -> Imported {
    import(json.as_bytes(), &Options::default())
}

fn fields(i: &Imported) -> Vec<(Severity, &str)> {
    i.notes
        .iter()
        .map(|n| (n.severity, n.field.as_deref().unwrap_or("")))
        .collect()
}

#[test]
fn unsupported_model_type_is_a_clear_error() {
    let i = run(r#"{"model_type": "mamba", "hidden_size": 768}"#);
    assert!(i.text.is_none());
    assert_eq!(i.notes.len(), 1, "{:?}", i.notes);
    assert_eq!(
        i.notes[0].message,
        "not supported yet: model_type mamba (supported: llama, mistral, qwen2, gemma, gemma2, \
         phi3, gpt2, bert, mixtral, deepseek_v2)"
    );
    let i = run(r#"{"model_type": 3}"#);
    assert_eq!(
        i.notes[0].message,
        "field `model_type` must be a string, not a number"
    );
}

#[test]
fn every_missing_size_is_reported_at_once() {
    let i = run(r#"{"model_type": "llama"}"#);
    assert!(i.text.is_none());
    let got = fields(&i);
    for f in [
        "hidden_size",
        "intermediate_size",
        "num_attention_heads",
        "num_hidden_layers",
        "vocab_size",
    ] {
        assert!(got.contains(&(Severity::Error, f)), "{f}: {got:?}");
    }
}

#[test]
fn numbers_are_range_checked() {
    let base = r#""model_type": "gpt2", "vocab_size": 10, "n_embd": 8, "n_layer": 1, "n_head": 2, "n_positions": 16"#;
    assert!(run(&format!("{{{base}}}")).text.is_some());
    for (extra, field) in [
        (r#""n_inner": 0"#, "n_inner"),
        (r#""n_inner": 1e300"#, "n_inner"),
        (r#""n_inner": -5"#, "n_inner"),
        (r#""n_inner": 2.5"#, "n_inner"),
        (r#""n_inner": [1]"#, "n_inner"),
        (r#""layer_norm_epsilon": 3"#, "layer_norm_epsilon"),
        (r#""tie_word_embeddings": "yes""#, "tie_word_embeddings"),
        (r#""torch_dtype": "int4""#, "torch_dtype"),
    ] {
        let i = run(&format!("{{{base}, {extra}}}"));
        assert!(i.text.is_none(), "{extra}");
        assert_eq!(
            fields(&i),
            [(Severity::Error, field)],
            "{extra}: {:?}",
            i.notes
        );
    }
    // An integral float is a whole number.
    let i = run(&format!("{{{base}, \"n_inner\": 32.0}}"));
    assert!(i.text.unwrap().contains("param F = 32 // n_inner"));
    // Heads that do not divide the width.
    let i = run(
        r#"{"model_type": "gpt2", "vocab_size": 10, "n_embd": 9, "n_layer": 1, "n_head": 2, "n_positions": 16}"#,
    );
    assert_eq!(fields(&i), [(Severity::Error, "n_head")]);
}

#[test]
fn the_dtype_comes_from_the_flag_then_the_config() {
    let base = r#""model_type": "gpt2", "vocab_size": 10, "n_embd": 8, "n_layer": 1, "n_head": 2, "n_positions": 16"#;
    let i = run(&format!("{{{base}, \"torch_dtype\": \"bfloat16\"}}"));
    assert!(i.text.unwrap().contains("dtype bf16"));
    let i = run(&format!("{{{base}, \"dtype\": \"float16\"}}"));
    assert!(i.text.unwrap().contains("dtype f16"));
    let opts = Options {
        dtype: Some(Dtype::F8e4m3),
        ..Options::default()
    };
    let i = import(
        format!("{{{base}, \"torch_dtype\": \"nonsense\"}}").as_bytes(),
        &opts,
    );
    assert!(i.notes.is_empty(), "{:?}", i.notes);
    assert!(i.text.unwrap().contains("dtype f8e4m3"));
}

#[test]
fn rope_scaling_fields_are_values_and_unknown_ones_are_reported() {
    let cfg = r#"{"model_type": "llama", "vocab_size": 10, "hidden_size": 8, "intermediate_size": 16,
        "num_hidden_layers": 2, "num_attention_heads": 2,
        "rope_scaling": {"type": "linear", "factor": 2.0, "mystery": 1}}"#;
    let i = run(cfg);
    assert_eq!(
        fields(&i),
        [(Severity::Warning, "rope_scaling.mystery")],
        "{:?}",
        i.notes
    );
    let text = i.text.unwrap();
    assert!(text.contains("rope_factor = 2.0"), "{text}");
    assert!(text.contains("// rope_scaling.type: linear"), "{text}");
}
