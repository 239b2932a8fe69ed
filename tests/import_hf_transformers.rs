//! `fgraph import hf --ops transformers` and `--attn` (VALIDATION.md §56): transformers'
//! modeling code as its eager forward runs it, op by op. Each Llama-family fixture imports
//! clean, in fgraph's layout, with exactly transformers' parameter count (the rotary buffer
//! is an input, not a weight); the families and steps it does not write are errors that say
//! why; `--attn sdpa` writes one `attention` op in either form; and `--runtime` counts the
//! kernels transformers launched on the H100 for §55's Llama-3.2-1B prefill.

mod common;

use fgraph::importers::hf::{self, Attn, Ops, Options};
use fgraph::runtime::Runtime;

fn import(name: &str, opts: &Options) -> hf::Imported {
    let bytes = std::fs::read(common::root().join(name)).expect("config");
    hf::import(&bytes, opts)
}

fn transformers(seq: u64, attn: Attn) -> Options {
    Options {
        seq: Some(seq),
        ops: Ops::Transformers,
        attn: Some(attn),
        ..Options::default()
    }
}

#[test]
fn llama_family_configs_import_as_transformers_runs_them_with_the_published_parameters() {
    let counts = common::published_param_counts();
    let mut n = 0;
    for (name, entry) in counts["configs"].as_object().expect("configs") {
        let t = entry["model_type"].as_str().expect("model_type");
        if !matches!(t, "llama" | "mistral" | "qwen2") {
            continue;
        }
        for attn in [Attn::Sdpa, Attn::Eager, Attn::SdpaTraced] {
            let i = import(
                &format!("tests/fixtures/hf/{name}"),
                &transformers(512, attn),
            );
            assert!(i.notes.is_empty(), "{name}: {:?}", i.notes);
            let text = i.text.expect("text");
            let r = common::check_clean(name, &text);
            assert_eq!(
                fgraph::format::format_source(&text).expect("formats"),
                text,
                "{name}"
            );
            assert_eq!(
                common::params(&r),
                entry["params"].as_u64().expect("params"),
                "{name}"
            );
            // LlamaRMSNorm op by op, the rotary tables computed in the graph.
            assert!(text.contains("op pow = elementwise.pow(xf, 2)"), "{name}");
            assert!(
                text.contains("op emb = concat(ft, ft, axis = -1)"),
                "{name}"
            );
            match attn {
                Attn::Sdpa => {
                    assert!(text.contains("= attention(qr, kr, vh, causal = true"));
                    assert!(!text.contains("input mask"), "{name}");
                }
                Attn::Eager => {
                    assert!(text.contains("op mask_add = elementwise.add(scs, mask)"));
                    assert!(text.contains("elementwise.cast(scm) -> sf: f32"));
                }
                // Traced: the boolean mask built once, K and V repeated, SDPA with the mask.
                Attn::SdpaTraced => {
                    assert!(text.contains("input mask: bool[B, 1, S, S]"), "{name}");
                    assert!(text.contains("op mask_4d = reshape(allowed)"), "{name}");
                    let (k, v) = if text.contains("op k_repeat = ") {
                        ("kx", "vx")
                    } else {
                        // Llama-2-7B: multi-head, repeat_kv returns its input.
                        ("kr", "vh")
                    };
                    assert!(
                        text.contains(&format!("= attention(qr, {k}, {v}, mask, scale = ")),
                        "{name}"
                    );
                }
            }
            n += 1;
        }
    }
    // Llama-2-7B, Llama-3-8B, Llama-3.1-8B, Mistral-7B, Qwen2.5-7B.
    assert_eq!(n, 15);
}

#[test]
fn what_it_does_not_write_is_an_error_saying_why() {
    for (config, opts, expected) in [
        (
            "bert_base_uncased_config.json",
            transformers(128, Attn::Sdpa),
            "writes the llama, mistral, qwen2 and gpt2 families",
        ),
        (
            "gpt2_config.json",
            transformers(128, Attn::Eager),
            "writes GPT-2 with `--attn sdpa` (transformers' default) or `sdpa-traced`",
        ),
        (
            "mixtral_8x7b_config.json",
            transformers(128, Attn::Sdpa),
            "model_type mixtral",
        ),
        (
            "mistral_7b_v0_1_config.json",
            transformers(8192, Attn::Sdpa),
            "sliding window (4096 positions) is shorter",
        ),
        (
            "mistral_7b_v0_1_config.json",
            Options {
                decode: Some(4096),
                ..transformers(1, Attn::Sdpa)
            },
            "shorter than the 4097 positions",
        ),
        (
            "gemma2_9b_config.json",
            Options {
                attn: Some(Attn::Sdpa),
                seq: Some(128),
                ..Options::default()
            },
            "softcapping",
        ),
        (
            "llama3_8b_config.json",
            Options {
                attn: Some(Attn::SdpaTraced),
                seq: Some(128),
                ..Options::default()
            },
            "it goes with `--ops transformers`",
        ),
    ] {
        let i = import(&format!("tests/fixtures/hf/{config}"), &opts);
        assert!(i.text.is_none(), "{config}");
        assert!(
            i.notes.iter().any(|n| n.message.contains(expected)),
            "{config}: {:?}",
            i.notes
        );
    }
}

#[test]
fn attn_sdpa_writes_one_attention_op_in_the_model_form_too() {
    let opts = Options {
        seq: Some(512),
        attn: Some(Attn::Sdpa),
        ..Options::default()
    };
    let eager = import(
        "tests/fixtures/hf/llama3_8b_config.json",
        &Options {
            seq: Some(512),
            ..Options::default()
        },
    );
    let sdpa = import("tests/fixtures/hf/llama3_8b_config.json", &opts);
    let (eager, sdpa) = (eager.text.expect("eager"), sdpa.text.expect("sdpa"));
    assert!(sdpa.contains("op attn = attention(qr, kr, vh, causal = true, scale = "));
    assert!(!sdpa.contains("reduction.softmax"));
    let (re, rs) = (
        common::check_clean("eager", &eager),
        common::check_clean("sdpa", &sdpa),
    );
    assert_eq!(common::params(&re), common::params(&rs));
    // The default stays the file the importer always wrote.
    assert!(eager.contains("op softmax = reduction.softmax(scs, axis = -1, causal = true) -> p"));
}

#[test]
fn the_runtime_counts_the_kernels_transformers_launched() {
    // Llama-3.2-1B, a prefill of 1,024 tokens (§55's transformers model, measured on the H100:
    // validation/gpu/models/hf_real/data/hf). torch.compile of the eager-attention model
    // launched 278 kernels; fgraph's count of the file is the same. Eager with SDPA launched
    // 638: the file leaves out the 10 of position bookkeeping, and transformers copied one
    // operand of the rotary matmul more than the file's one cast (1-2 µs).
    let config = "validation/gpu/models/configs/llama3_2_1b_config.json";
    let count = |attn: Attn, runtime: Runtime| {
        let i = import(config, &transformers(1024, attn));
        let text = i.text.expect("text");
        let r = common::check_clean("llama", &text);
        let a = r.graphs[0].analysis.as_ref().expect("analysis");
        let hw = fgraph::cost::Hardware::preset("h100").expect("h100");
        let est = fgraph::runtime::estimate(a, &hw, fgraph::cost::LaunchMode::Graph, runtime)
            .expect("estimate");
        est.kernels.len()
    };
    assert_eq!(count(Attn::Eager, Runtime::Compile), 278);
    assert_eq!(count(Attn::Sdpa, Runtime::Eager), 627);
    assert_eq!(count(Attn::Eager, Runtime::Eager), 774);
}

#[test]
fn the_command_line_takes_ops_and_attn() {
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_fgraph"))
            .args(args)
            .env("NO_COLOR", "1")
            .output()
            .expect("run fgraph")
    };
    let config = common::root().join("tests/fixtures/hf/qwen2_5_7b_config.json");
    let c = config.to_str().expect("path");
    let o = run(&["import", "hf", c, "--seq", "256", "--ops", "transformers"]);
    assert_eq!(o.status.code(), Some(0));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("attn_implementation \"sdpa\""));
    // Qwen2's Q/K/V biases: nn.Linear's, in the matmul's epilogue.
    assert!(text.contains("op q_proj = matmul(xn, wq, bq) -> q"));
    assert!(!text.contains("q_proj_bias"));
    let o = run(&[
        "import",
        "hf",
        c,
        "--ops",
        "transformers",
        "--decode",
        "--context",
        "7",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("op k_update = concat(k_cache, kr, axis = 2)"));
    let o = run(&["import", "hf", c, "--attn", "flash"]);
    assert_eq!(o.status.code(), Some(2));
    let o = run(&["import", "hf", c, "--ops", "nope"]);
    assert_eq!(o.status.code(), Some(2));
}

/// §56, held out and pre-registered (validation/gpu/models/hf_real: predictions_3.json before
/// measuring, data/hf3 transformers' models on the H100): every step under CUDA graphs within
/// ±10%, pre-registered and now, and the compiled eager-attention steps' kernel counts within
/// two of the profiler's. Plain launches of transformers' modules are host-bound by their
/// Python (20-32 µs a kernel): 8 of 24 within ±15%, printed, not asserted.
#[test]
fn transformers_models_held_out_keep_their_accuracy() {
    let dir = "validation/gpu/models/hf_real";
    let pre: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(common::root().join(dir).join("predictions_3.json"))
            .expect("predictions_3.json"),
    )
    .expect("json");
    let rows = common::csv_rows(&format!("{dir}/data/hf3/measured_models.csv"));
    let measured = |case: &str, runtime: &str, launch: &str| {
        rows.iter()
            .find(|r| r["case"] == case && r["runtime"] == runtime && r["launch"] == launch)
            .filter(|r| r["status"] == "ok")
            .map(|r| {
                (
                    r["time_us"].parse::<f64>().expect("time"),
                    r["kernels"].parse::<usize>().expect("kernels"),
                )
            })
    };
    let hw = fgraph::cost::Hardware::preset("h100").expect("h100");
    let (mut graph, mut pre_ok, mut now_ok, mut plain, mut plain_ok) = (0, 0, 0, 0, 0);
    for p in pre.as_array().expect("list") {
        let (case, runtime, launch) = (
            p["case"].as_str().expect("case"),
            p["runtime"].as_str().expect("runtime"),
            p["launch"].as_str().expect("launch"),
        );
        let Some((m, mk)) = measured(case, runtime, launch) else {
            // transformers' eager attention cannot be captured in a CUDA graph.
            assert!(case.ends_with("_eager") && runtime == "eager" && launch == "graph");
            continue;
        };
        let path = format!("{dir}/files3/{case}.fgraph");
        let src = std::fs::read(common::root().join(&path)).expect("file");
        let r = fgraph::check_file(&path, &src, &fgraph::Options::default());
        let a = r.graphs[0].analysis.as_ref().expect("analysis");
        let (rt, lm) = match (runtime, launch) {
            ("eager", "graph") => (Runtime::Eager, fgraph::cost::LaunchMode::Graph),
            ("eager", _) => (Runtime::Eager, fgraph::cost::LaunchMode::Eager),
            (_, "graph") => (Runtime::Compile, fgraph::cost::LaunchMode::Graph),
            _ => (Runtime::Compile, fgraph::cost::LaunchMode::Eager),
        };
        let e = fgraph::runtime::estimate(a, &hw, lm, rt).expect("estimate");
        let now = e.time_s * 1e6;
        let then = p["time_us"].as_f64().expect("time_us");
        let ok = |x: f64, t: f64| (x / m - 1.0).abs() <= t;
        if launch == "graph" {
            graph += 1;
            pre_ok += usize::from(ok(then, 0.10));
            now_ok += usize::from(ok(now, 0.10));
        } else {
            plain += 1;
            plain_ok += usize::from(ok(now, 0.15));
        }
        if runtime == "compile" && case.ends_with("_eager") {
            assert!(
                e.kernels.len().abs_diff(mk) <= 2,
                "{case}: {} for {mk}",
                e.kernels.len()
            );
        }
    }
    println!(
        "transformers held out: graph {now_ok} of {graph} (pre-registered {pre_ok}); plain {plain_ok} of {plain}"
    );
    assert_eq!(graph, 18);
    assert_eq!(pre_ok, 18);
    assert_eq!(now_ok, 18);
    assert_eq!(plain, 24);
}

#[test]
fn a_decode_step_appends_to_the_cache_by_cat_as_dynamic_cache_does() {
    for attn in [Attn::Sdpa, Attn::Eager, Attn::SdpaTraced] {
        let opts = Options {
            batch: 4,
            decode: Some(1023),
            ..transformers(1, attn)
        };
        let i = import("tests/fixtures/hf/llama3_8b_config.json", &opts);
        assert!(i.notes.is_empty(), "{:?}", i.notes);
        let text = i.text.expect("text");
        let r = common::check_clean("decode", &text);
        // DynamicLayer.update: torch.cat of the P cached positions and the new one, K and V.
        assert!(text.contains("weight k_cache: [B, NKV, P, HD]"));
        assert!(
            text.contains(
                "op v_update = concat(v_cache, vh, axis = 2) -> v_all: [B, NKV, P + S, HD]"
            )
        );
        match attn {
            // is_causal is q_len > 1: the new token attends to every key.
            Attn::Sdpa => assert!(text.contains("= attention(qr, k_all, v_all, scale = ")),
            Attn::Eager => {
                assert!(text.contains("op k_repeat = reshape(k6) -> kx: [B, NH, P + S, HD]"));
                assert!(text.contains("input mask: [B, 1, S, P + S]"));
            }
            Attn::SdpaTraced => {
                assert!(text.contains("op k_repeat = reshape(k6) -> kx: [B, NH, P + S, HD]"));
                assert!(text.contains("= attention(qr, kx, vx, mask, scale = "));
                assert!(text.contains("input mask: bool[B, 1, S, P + S]"));
            }
        }
        // The weights besides the caches are the prefill file's.
        let a = r.graphs[0].analysis.as_ref().expect("analysis");
        let cache: u64 = a
            .graph
            .tensors
            .iter()
            .filter(|t| t.name.ends_with("_cache"))
            .map(|t| t.bytes / t.dtype.bytes())
            .sum();
        assert_eq!(cache, 32 * 2 * 4 * 8 * 1023 * 128);
        let prefill = import(
            "tests/fixtures/hf/llama3_8b_config.json",
            &transformers(16, attn),
        );
        let p = common::check_clean("prefill", &prefill.text.expect("prefill"));
        assert_eq!(common::params(&r), common::params(&p));
    }
}

/// Of the CUDA-graph steps of `predictions` measured in `data` (folders of
/// validation/gpu/models/hf_real), how many the pre-registered prediction put within ±10%,
/// and how many there are.
fn graph_steps_within(predictions: &str, data: &str) -> (usize, usize) {
    let dir = "validation/gpu/models/hf_real";
    let pre: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(common::root().join(dir).join(predictions)).expect("predictions"),
    )
    .expect("json");
    let rows = common::csv_rows(&format!("{dir}/{data}/measured_models.csv"));
    let (mut graph, mut within) = (0, 0);
    for p in pre.as_array().expect("list") {
        let (case, runtime, launch) = (
            p["case"].as_str().expect("case"),
            p["runtime"].as_str().expect("runtime"),
            p["launch"].as_str().expect("launch"),
        );
        let Some(m) = rows
            .iter()
            .find(|r| r["case"] == case && r["runtime"] == runtime && r["launch"] == launch)
            .filter(|r| r["status"] == "ok" && launch == "graph")
            .map(|r| r["time_us"].parse::<f64>().expect("time"))
        else {
            continue;
        };
        graph += 1;
        let t = p["time_us"].as_f64().expect("time_us");
        within += usize::from((t / m - 1.0).abs() <= 0.10);
    }
    (within, graph)
}

/// §56's decode steps against transformers' DynamicCache, pre-registered (predictions_4.json;
/// data/hf4): 4 of the 9 measured CUDA-graph steps within ±10%, recorded as measured so a
/// change to the pricing shows here (VALIDATION.md says why the rest miss).
#[test]
fn transformers_decode_steps_keep_their_recorded_accuracy() {
    assert_eq!(graph_steps_within("predictions_4.json", "data/hf4"), (4, 9));
}

/// §56's held-out check of the vectorized cat (predictions_5.json before measuring,
/// data/em5: the emitted modules of decode files): 7 of 8 CUDA-graph steps within ±10%.
#[test]
fn decode_files_with_the_cache_cat_keep_their_held_out_accuracy() {
    assert_eq!(graph_steps_within("predictions_5.json", "data/em5"), (7, 8));
}

/// The runtime's step (µs) and CUDA kernels for file `rel` of validation/gpu/models/hf_real.
fn step_of(rel: &str, runtime: Runtime, launch: fgraph::cost::LaunchMode) -> (f64, usize) {
    let path = common::root()
        .join("validation/gpu/models/hf_real")
        .join(rel);
    let text = std::fs::read_to_string(&path).expect("file");
    let r = common::check_clean(rel, &text);
    let a = r.graphs[0].analysis.as_ref().expect("analysis");
    let hw = fgraph::cost::Hardware::preset("h100").expect("h100");
    let e = fgraph::runtime::estimate(a, &hw, launch, runtime).expect("estimate");
    (e.time_s * 1e6, e.cuda_kernels())
}

/// §57: cuDNN's split-KV decode launches its combine kernel where the (batch, key head) rows
/// are few: the emitted decode modules' eager steps launch the profiler's kernels, one for
/// one. Llama-2-13B's (cuBLAS ran its f16 projections at M = 1 whole) was 8 over until §63's
/// split-K work rule.
#[test]
fn emitted_decode_modules_launch_the_profiled_kernels() {
    let mut exact = 0;
    for set in ["4", "5"] {
        for r in common::csv_rows(&format!(
            "validation/gpu/models/hf_real/data/em{set}/measured_models.csv"
        )) {
            if r["status"] != "ok" || r["runtime"] != "eager" || r["launch"] != "graph" {
                continue;
            }
            let file = format!("files{set}/{}.fgraph", r["case"]);
            let (_, k) = step_of(&file, Runtime::Eager, fgraph::cost::LaunchMode::Graph);
            let measured: usize = r["kernels"].parse().expect("kernels");
            assert_eq!(k, measured, "{file}");
            exact += 1;
        }
    }
    assert_eq!(exact, 8);
}

/// §57: transformers' SDPA steps under CUDA graphs run the traced path (the mask built, K and
/// V repeated): predicted from `--attn sdpa-traced` (files_traced/), §56's 18 measured steps
/// (data/hf3, data/hf4) are all within ±10%.
#[test]
fn transformers_captured_steps_are_the_traced_files() {
    let (mut n, mut within) = (0, 0);
    for set in ["3", "4"] {
        for r in common::csv_rows(&format!(
            "validation/gpu/models/hf_real/data/hf{set}/measured_models.csv"
        )) {
            if r["status"] != "ok" || r["launch"] != "graph" || !r["case"].ends_with("_sdpa") {
                continue;
            }
            let runtime = Runtime::from_name(&r["runtime"]).expect("runtime");
            let file = format!("files_traced/{}.fgraph", r["case"]);
            let (t, _) = step_of(&file, runtime, fgraph::cost::LaunchMode::Graph);
            let m: f64 = r["time_us"].parse().expect("time");
            n += 1;
            within += usize::from((t / m - 1.0).abs() <= 0.10);
        }
    }
    assert_eq!((within, n), (18, 18));
}

/// §58: transformers' plain eager steps (its untraced SDPA path) launch the kernels of the
/// file the importer writes, Qwen2's biased projections one kernel each (`matmul(x, w, b)`,
/// cuBLASLt's bias epilogue): within the dozen kernels of position and mask bookkeeping the
/// file leaves out (prefill: 11 short; decode: 3 short, Llama-2-13B's split-K 5 over). With
/// each bias an `add`, Qwen2.5-1.5B's steps were 73 and 81 kernels over.
#[test]
fn transformers_plain_steps_launch_the_untraced_files_kernels() {
    let mut n = 0;
    for set in ["3", "4"] {
        for r in common::csv_rows(&format!(
            "validation/gpu/models/hf_real/data/hf{set}/measured_models.csv"
        )) {
            if r["status"] != "ok"
                || r["runtime"] != "eager"
                || r["launch"] != "eager"
                || !r["case"].ends_with("_sdpa")
            {
                continue;
            }
            let file = format!("files_traced/{}_untraced.fgraph", r["case"]);
            let (_, k) = step_of(&file, Runtime::Eager, fgraph::cost::LaunchMode::Eager);
            let m: usize = r["kernels"].parse().expect("kernels");
            assert!(k.abs_diff(m) <= 12, "{}: {k} kernels for {m}", r["case"]);
            n += 1;
        }
    }
    assert_eq!(n, 10);
}

/// GPT-2 under `--ops transformers` (`sdpa`): GPT2LMHeadModel's eager forward as an H200's
/// trace of transformers 5.17 ran it (validation/gpu/models/hf_real/data/gpt2_h200): the
/// published parameters, `Conv1D` as `matmul(x, w, b)`, `gelu_new` as its eight ops, and at
/// two layers the profiler's kernels one for one but what the file leaves out (prefill of
/// 2 × 128: 47 less the position ids' 2, the cache copies of a `use_cache` prefill, 4, and
/// cuDNN's 2 memsets, which measure.py does not count: 39; decode at 2 × 129: 47 less the
/// 2 position kernels, the MLP's projection split-K as measured).
#[test]
fn gpt2_imports_as_transformers_runs_it() {
    let counts = common::published_param_counts();
    let published = counts["configs"]["gpt2_config.json"]["params"]
        .as_u64()
        .expect("params");
    let config = "validation/gpu/models/configs/gpt2_medium_config.json";
    let two_layers = |text: String| text.replace("param L = 24 ", "param L = 2 ");
    for decode in [None, Some(129)] {
        let opts = Options {
            batch: 2,
            seq: decode.is_none().then_some(128),
            decode,
            dtype: Some(fgraph::types::Dtype::Bf16),
            ..transformers(128, Attn::Sdpa)
        };
        let i = import(config, &opts);
        assert!(i.notes.is_empty(), "{:?}", i.notes);
        let text = i.text.expect("text");
        common::check_clean("gpt2", &text);
        assert_eq!(fgraph::format::format_source(&text).expect("formats"), text);
        assert!(text.contains("op c_attn = matmul(xn, c_attn_w, c_attn_b) -> qkv"));
        assert!(text.contains("op gelu_tanh = elementwise.tanh(g5) -> g6"));
        let text = two_layers(text);
        let r = common::check_clean("gpt2", &text);
        let a = r.graphs[0].analysis.as_ref().expect("analysis");
        let hw = fgraph::cost::Hardware::preset("h100").expect("h100");
        let e = fgraph::runtime::estimate(a, &hw, fgraph::cost::LaunchMode::Graph, Runtime::Eager)
            .expect("estimate");
        assert_eq!(e.cuda_kernels(), if decode.is_some() { 45 } else { 39 });
        // Traced (a CUDA-graph capture, data/gpt2_traced_h200): the mask built, SDPA taking
        // it (two fills and a `where` a layer): the replay's 23 kernels a layer at decode
        // and 20 at prefill one for one, 8 and 24 more of position and mask bookkeeping
        // before the first layer, which the file leaves out (replays of 60 and 70).
        let i = import(
            config,
            &Options {
                attn: Some(Attn::SdpaTraced),
                ..opts.clone()
            },
        );
        let text = two_layers(i.text.expect("traced text"));
        assert!(text.contains("input mask: bool[B, 1, S, "), "{text}");
        let r = common::check_clean("gpt2 traced", &text);
        let a = r.graphs[0].analysis.as_ref().expect("analysis");
        let e = fgraph::runtime::estimate(a, &hw, fgraph::cost::LaunchMode::Graph, Runtime::Eager)
            .expect("estimate");
        assert_eq!(e.cuda_kernels(), if decode.is_some() { 52 } else { 46 });
    }
    // GPT-2 small's published count, tied head and all.
    let i = import(
        "tests/fixtures/hf/gpt2_config.json",
        &transformers(64, Attn::Sdpa),
    );
    let r = common::check_clean("gpt2", &i.text.expect("text"));
    assert_eq!(common::params(&r), published);
    // Only SDPA, and only the activations it writes.
    let i = import(
        "tests/fixtures/hf/gpt2_config.json",
        &transformers(64, Attn::Eager),
    );
    assert!(i.text.is_none());
}

/// §62: transformers' GPT-2 compiled (torch.compile, the traced file), at full depth, against
/// the kernels an H200's profiler counted (`data/dryrun_gpt2_h200/hfg`, a harness check of
/// the held-out cases: counts only, no time is read). A decode step appends K and V to their
/// caches in two kernels (the two reads of `qkv` are disjoint slices, which Inductor's
/// scheduler does not count as shared; `--horizontal inductor`); what the file still leaves
/// out is the mask SDPA's lowering converts for each call: one kernel a layer at decode, where
/// transformers computes the positions by `arange`, less the file's one mask kernel (L − 1),
/// and at prefill, where the conversions share a read, one kernel per four layers (L / 4).
/// The traced files' emitted modules (`emg`), whose positions are inputs, convert four layers'
/// masks to a kernel at decode too: L / 4 − 1 over the file at prefill, L / 4 at decode; eager,
/// they launch the file's kernels one for one.
#[test]
fn gpt2_compiled_launches_the_profiled_kernels_but_the_mask_conversions() {
    let mut n = 0;
    for part in ["hfg", "emg"] {
        for r in common::csv_rows(&format!(
            "validation/gpu/models/hf_real/data/dryrun_gpt2_h200/{part}/measured_models.csv"
        )) {
            if r["status"] != "ok" || r["launch"] != "graph" {
                continue;
            }
            let case = &r["case"];
            let file = format!("files_gpt2/{case}_traced.fgraph");
            let measured: usize = r["kernels"].parse().expect("kernels");
            if r["runtime"] == "eager" {
                // transformers' plain step is untraced; the module launches the file's kernels.
                if part == "emg" {
                    let (_, k) = step_of(&file, Runtime::Eager, fgraph::cost::LaunchMode::Graph);
                    assert_eq!(measured, k, "{part} {case}");
                }
                continue;
            }
            let layers = match case.split('_').nth(1) {
                Some("medium") => 24,
                Some("large") => 36,
                _ => 48,
            };
            let (_, k) = step_of(&file, Runtime::Compile, fgraph::cost::LaunchMode::Graph);
            let masks = match (part, case.contains("decode")) {
                ("hfg", true) => layers - 1,
                ("emg", false) => layers / 4 - 1,
                _ => layers / 4,
            };
            assert_eq!(measured, k + masks, "{part} {case}");
            n += 1;
        }
    }
    assert_eq!(n, 12);
}
