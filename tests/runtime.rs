//! `--runtime eager|compile` (issue 24 item 1) against what ran on an H100, on the whole
//! Llama-3-8B examples, and through the command line.
//!
//! The measured data are those of docs/VALIDATION.md §15 (`validation/inductor/*.json`,
//! written by `validation/inductor/measure.py` and `measure_heldout.py`): for 20 graphs, the
//! CUDA kernels eager PyTorch ran (`eager_cuda_kernel_count`, memsets not counted) and the
//! launches of Inductor's generated code (`kernel_count`). No GPU is needed here.
//!
//! The compile runtime's rules 1-3 (`src/runtime/compile.rs`) were written after reading
//! §15's account of the held-out graphs (items 3 and 4: operand copies before `bmm`, the SDPA
//! rewrite), so for those rules the held-out graphs are no longer held out: the counts here
//! are a check that the rules say what was seen, not an independent validation.

mod common;

use common::{fgraph, stdout};
use fgraph::analysis::{Analysis, Options};
use fgraph::cost::{Hardware, LaunchMode};
use fgraph::runtime::{Runtime, RuntimeEstimate, What, estimate};
use serde_json::Value;
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn analysis(path: &str) -> Analysis {
    let src = std::fs::read(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
    let r = fgraph::check_file(path, &src, &Options::default());
    r.graphs[0]
        .analysis
        .clone()
        .unwrap_or_else(|| panic!("{path}: {:?}", r.diagnostics))
}

fn est(a: &Analysis, runtime: Runtime, launch: LaunchMode) -> RuntimeEstimate {
    let hw = Hardware::preset("h100").expect("h100");
    estimate(a, &hw, launch, runtime).expect("estimate")
}

fn measured() -> Vec<Value> {
    [
        "validation/inductor/h100-inductor.json",
        "validation/inductor/h100-inductor-heldout.json",
    ]
    .iter()
    .flat_map(|f| {
        let text = std::fs::read_to_string(root().join(f)).expect("read");
        let d: Value = serde_json::from_str(&text).expect("json");
        d["graphs"].as_array().expect("graphs").clone()
    })
    .collect()
}

/// The graphs whose counts differ from the measurement, and why.
const EAGER_EXCEPTIONS: &[(&str, i64, &str)] = &[(
    "llama_decode",
    -1,
    "cuBLAS ran the skinny down projection as a split-K GEMM and its reduction kernel \
     (`splitKreduce_kernel`): split-K is the hardware model's to price (issue 24 item 2), \
     through `runtime::seam`",
)];
const COMPILE_EXCEPTIONS: &[(&str, i64, &str)] = &[(
    "moe_dense",
    1,
    "Inductor computed the router softmax, both row maxima and the renormalisation in one \
         persistent kernel (reductions over the same rows, §15 item 5), which the Inductor \
         preset does not model",
)];

#[test]
fn eager_and_compile_kernel_counts_match_the_h100_profiles() {
    let mut same = (0, 0);
    let graphs = measured();
    for g in &graphs {
        let name = g["name"].as_str().expect("name");
        let a = analysis(g["fgraph_file"].as_str().expect("file"));
        let eager = est(&a, Runtime::Eager, LaunchMode::Graph).kernels.len() as i64;
        let compile = est(&a, Runtime::Compile, LaunchMode::Graph).kernels.len() as i64;
        let (me, mc) = (
            g["eager_cuda_kernel_count"].as_i64().expect("eager"),
            g["kernel_count"].as_i64().expect("launches"),
        );
        println!(
            "{name:20} eager {eager:3} (measured {me:3})   compile {compile:3} (measured {mc:3})"
        );
        let off = |list: &[(&str, i64, &str)]| {
            list.iter()
                .find(|(n, _, _)| *n == name)
                .map_or(0, |&(_, d, _)| d)
        };
        assert_eq!(eager - me, off(EAGER_EXCEPTIONS), "{name} eager");
        assert_eq!(compile - mc, off(COMPILE_EXCEPTIONS), "{name} compile");
        same.0 += usize::from(eager == me);
        same.1 += usize::from(compile == mc);
    }
    assert_eq!(graphs.len(), 20);
    assert_eq!(same, (19, 19));
}

#[test]
fn compile_rewrites_attention_into_sdpa_where_inductor_did() {
    // Inductor's launches name `_scaled_dot_product_*` where it rewrote the pattern.
    for g in measured() {
        let name = g["name"].as_str().expect("name");
        let rewritten = g["kernels"].as_array().expect("kernels").iter().any(|k| {
            k["name"]
                .as_str()
                .is_some_and(|n| n.starts_with("torch.ops.aten._scaled_dot_product"))
        });
        let a = analysis(g["fgraph_file"].as_str().expect("file"));
        let e = est(&a, Runtime::Compile, LaunchMode::Graph);
        for (o, r) in &e.sdpa {
            assert_eq!(
                r.is_ok(),
                rewritten,
                "{name} {}: {:?}",
                a.graph.op(*o).name,
                r.as_ref().map_err(|m| m.describe(&a.graph))
            );
        }
        // Only `llama_decode` has its attention rewritten (one pattern).
        let sdpa = e.kernels.iter().filter(|k| k.what == What::Sdpa).count();
        assert_eq!(sdpa, usize::from(name == "llama_decode"), "{name}");
    }
}

#[test]
fn eager_runs_the_section_8_cases_one_kernel_per_op_but_views() {
    // docs/VALIDATION.md §8: eager ran one kernel per op, `split_heads` of the transformer
    // a view. fgraph's `transformer.fgraph` writes its head merge (`concat_heads`) as a plain
    // reshape of the contiguous attention output, which PyTorch runs as a view; the measured
    // program permuted first, then reshaped (a copy): one kernel fewer than measured, for
    // the file as written.
    let cases = [
        ("add_gelu", 2),
        ("attention", 3),
        ("attention_sdpa_math", 14),
        ("ew_chain", 4),
        ("ln_gelu", 2),
        ("res_ln_gelu", 3),
        ("seed_mlp", 4),
        ("softmax_scale", 2),
        ("swiglu", 5),
        ("transformer", 12),
    ];
    for (case, kernels) in cases {
        let a = analysis(&format!("validation/{case}.fgraph"));
        let e = est(&a, Runtime::Eager, LaunchMode::Graph);
        assert_eq!(e.kernels.len(), kernels, "{case}");
    }
}

/// Kernels of each kind, and the views.
fn tally(e: &RuntimeEstimate) -> (usize, usize, usize, usize) {
    let n = |w: &str| e.kernels.iter().filter(|k| k.what.as_str() == w).count();
    (n("kernel"), n("copy"), n("sdpa"), e.views)
}

#[test]
fn llama3_8b_prefill_and_decode_eager_and_compile() {
    // Prefill, 2,048 tokens, 32 layers (1,251 ops).
    //
    // Eager, per layer (30 kernels, 11 views): RMSNorm, the Q, K and V projections, RoPE of
    // Q and of K (5 kernels each: neg, cat, two muls, add; the slices are views), the
    // scores with a copy of K first (`torch.matmul` broadcasts K's one head over the 4 query
    // heads of its group: `expand` then `reshape` of the expanded tensor, a copy), scale,
    // softmax, P·V with a copy of V first, the head merge (`merge` a view; `flat` flattens
    // the permuted heads: a copy), o_proj, the residual add, then the FFN (norm, gate, up,
    // SiLU, mul, down, residual). The head splits and `merge` are views. 32 × 30 + the
    // embedding, the final norm and the LM head = 963 (1,251 ops − 352 views + 64 matmul
    // copies). docs/VALIDATION.md's eager counts are per layer (`llama_layer`, 31, written
    // as Hugging Face's `repeat_kv` does: the same copies as explicit ops); the whole-model
    // count of issue 24 was measured on a file not in this repository.
    let a = analysis("examples/llama3_8b.fgraph");
    assert_eq!(a.graph.ops.len(), 1251);
    let eager = est(&a, Runtime::Eager, LaunchMode::Graph);
    assert_eq!(eager.kernels.len(), 963);
    assert_eq!(tally(&eager), (867, 96, 0, 352));
    // Compile, per layer (18 kernels): the Inductor preset's 14 (the residual adds join
    // o_proj and down as `addmm`: 2-D activations and an `F.rms_norm` reader, as measured
    // on `llama_layer`), plus a Triton copy of K and one of V before the scores and P·V
    // (the broadcast, as in eager), minus nothing: the attention is not rewritten into SDPA,
    // because K and V reach their matmuls through that broadcast copy, which Inductor's
    // patterns do not match. 32 × 18 + the final norm and the LM head = 578 (the embedding
    // is computed in the first norm's kernel).
    let compile = est(&a, Runtime::Compile, LaunchMode::Graph);
    assert_eq!(compile.kernels.len(), 578);
    assert_eq!(tally(&compile), (482, 96, 0, 0));
    assert!(compile.sdpa.iter().all(|(_, r)| r.is_err()));
    assert_eq!(compile.sdpa.len(), 32);

    // One decode step, batch 1, 32,768 positions.
    //
    // Eager, per layer (31 kernels): as prefill, with the two cache appends (`update`) and
    // without the head-merge copy (`merge` reshapes a contiguous tensor: a view). The
    // broadcast copies of K and V now copy the whole cache (4 × 64 MiB written each, K's a
    // transpose): the largest part of the step. 32 × 31 + 3 = 995.
    let d = analysis("examples/llama3_8b_decode.fgraph");
    let eager_d = est(&d, Runtime::Eager, LaunchMode::Graph);
    assert_eq!(eager_d.kernels.len(), 995);
    assert_eq!(tally(&eager_d), (931, 64, 0, 256));
    // Compile, per layer (18 kernels): the preset's 16 (K's RoPE with its append, V's
    // append alone) and the two broadcast copies; 32 × 18 + 2 = 578.
    let compile_d = est(&d, Runtime::Compile, LaunchMode::Graph);
    assert_eq!(compile_d.kernels.len(), 578);
    assert_eq!(tally(&compile_d), (514, 64, 0, 0));

    // Plain launches: the GPU runs the same kernels as under CUDA graphs, fed by a host that
    // issues a CUDA kernel every `model.host.runtime_eager_us` (16.9 µs) or
    // `runtime_compile_us` (16.4 µs; a graph without a convolution), fitted on
    // validation/gpu/models' rounds (VALIDATION.md §43, §51): a kernel that launches several
    // (a split-K reduction) costs it one each. The step
    // is the pipeline of `step_time`, never less than the CUDA-graph step nor than the
    // host's issue time. The
    // GPU's gap between kernels is the stream's (`model.host.graph_gap_us`, 0.33 µs measured
    // by fit_stream.py), not the calibration's single-kernel launch (1.2 µs).
    let hw = Hardware::preset("h100").expect("h100");
    assert!((eager.gap_s - 0.33e-6).abs() < 1e-15, "{}", eager.gap_s);
    assert!((eager.stream_discount_s - 1.75e-6).abs() < 1e-15);
    assert!(hw.launch(LaunchMode::Graph) > eager.gap_s);
    for (a, e) in [
        (&a, &eager),
        (&a, &compile),
        (&d, &eager_d),
        (&d, &compile_d),
    ] {
        let plain = est(a, e.runtime, LaunchMode::Eager);
        assert_eq!(plain.kernels.len(), e.kernels.len());
        let host_us = match e.runtime {
            Runtime::Eager => 16.9,
            Runtime::Compile => 16.4,
        };
        // A compiled step's host first spends 0.93 µs on each tensor it takes.
        let inputs_us = match e.runtime {
            Runtime::Eager => 0.0,
            Runtime::Compile => 0.93 * plain.host_inputs as f64,
        };
        assert_eq!(plain.host_inputs > 0, e.runtime == Runtime::Compile);
        let preds: Vec<_> = e.kernels.iter().map(|k| k.prediction).collect();
        let mut extra: Vec<f64> = e
            .kernels
            .iter()
            .map(|k| host_us * 1e-6 * (k.launches - 1) as f64)
            .collect();
        extra[0] += inputs_us * 1e-6;
        let expected =
            fgraph::cost::hwmodel::step_time(&preds, Some(host_us * 1e-6), &extra, e.gap_s).step_s;
        assert!((plain.time_s - expected).abs() < 1e-9, "{}", e.label());
        assert!(plain.time_s >= e.time_s - 1e-12);
        assert!(plain.time_s >= host_us * 1e-6 * e.cuda_kernels() as f64);
        println!(
            "{:28} {:>4} kernels: {:8.3} ms with CUDA graphs, {:8.3} ms with plain launches",
            format!("{} {}", a.graph.name, e.name()),
            e.kernels.len(),
            e.time_s * 1e3,
            plain.time_s * 1e3
        );
    }
    // The predicted times when this test was written (hardware model of the h100 preset,
    // before issue 24 item 2's decode pricing; each moves when that pricing does): prefill
    // eager 78.5 ms, compile 63.8 ms; decode eager 66.7 ms, compile 27.2 ms (CUDA graphs);
    // decode compile 49.4 ms since Inductor's transposing copy of Kᵀ is priced as PyTorch's
    // (measured as slow: validation/gpu/models, docs/VALIDATION.md §21).
    for (e, lo, hi) in [
        (&eager, 60e-3, 100e-3),
        (&compile, 45e-3, 80e-3),
        (&eager_d, 20e-3, 90e-3),
        (&compile_d, 40e-3, 70e-3),
    ] {
        assert!((lo..hi).contains(&e.time_s), "{} {}", e.label(), e.time_s);
    }
}

#[test]
fn hugging_face_eager_llama_under_both_runtimes() {
    // tests/runtime/hf_llama.fgraph: 2 layers of Hugging Face's eager Llama, op by op.
    let a = analysis("tests/runtime/hf_llama.fgraph");
    let g = &a.graph;
    // Eager, per layer (47 kernels): 8 for each op-by-op RMSNorm, the repeat_kv copies of K
    // and V and the head merge's copy among them; + embedding, final norm (8), LM head.
    let eager = est(&a, Runtime::Eager, LaunchMode::Graph);
    assert_eq!(eager.kernels.len(), 2 * 47 + 10);
    assert_eq!(eager.copies(), 6);
    // Compile, per layer (17, as torch.compile ran transformers' eager Llama on the H100,
    // docs/VALIDATION.md §56): the attention is not rewritten into SDPA (its mask is added
    // to scores multiplied by the scale: none of Inductor's patterns), so the scores, the
    // scale, mask add and f32 softmax between casts (one kernel), P·V with the head split,
    // and the head merge's copy are kernels; K's RoPE is computed in its repeat_kv copy, V's
    // copy is a kernel of its own; each residual add is computed in the next norm's kernel
    // (which stores it for the residual stream); + the final residual-and-norm kernel and
    // the LM head.
    let compile = est(&a, Runtime::Compile, LaunchMode::Graph);
    assert_eq!(compile.kernels.len(), 2 * 17 + 2);
    assert_eq!(tally(&compile), (30, 6, 0, 0));
    assert!(compile.sdpa.iter().all(|(_, r)| r.is_err()));
    let names = |k: &fgraph::runtime::RuntimeKernel| -> Vec<String> {
        k.ops.iter().map(|&o| g.op(o).name.to_string()).collect()
    };
    let softmax = compile
        .kernels
        .iter()
        .find(|k| names(k).iter().any(|n| n == "layers.0.softmax"))
        .expect("softmax");
    assert_eq!(
        names(softmax),
        [
            "layers.0.scale",
            "layers.0.masked",
            "layers.0.up_f32",
            "layers.0.softmax",
            "layers.0.down_bf16"
        ]
    );
    let k_copy = compile
        .kernels
        .iter()
        .find(|k| names(k).iter().any(|n| n == "layers.0.k_repeat"))
        .expect("K's repeat_kv copy");
    assert_eq!(k_copy.what.as_str(), "copy");
    assert_eq!(names(k_copy)[0], "layers.0.k_rope.lo");
    let across = compile
        .kernels
        .iter()
        .find(|k| names(k).first().is_some_and(|n| n == "layers.0.res2"))
        .expect("the residual add of layer 0");
    assert_eq!(names(across)[1], "layers.1.attn_norm.to_f32");
    assert!(compile.time_s < eager.time_s);
}

// The command line.

#[test]
fn the_report_leads_with_the_runtime_and_json_carries_it() {
    let o = fgraph(&[
        "analyze",
        "--runtime",
        "eager",
        "--launch",
        "eager",
        "validation/inductor/llama_layer.fgraph",
    ]);
    let out = stdout(&o);
    let first = out.lines().next().expect("a line");
    assert!(
        first.starts_with("eager, plain launches: 31 kernels, "),
        "{first}"
    );
    assert!(out.contains("\n  runtime      31 kernels "), "{out}");
    assert!(
        out.contains("(the prediction the report leads with)"),
        "{out}"
    );
    // Plain launches are the pipeline of the preset's host and the GPU: the report says so,
    // with the host's time per kernel, not a launch added to each kernel.
    assert!(
        out.contains("of gaps and waiting for the host, which issues a CUDA kernel every 16.90 µs (model.host.runtime_eager_us"),
        "{out}"
    );
    // The rest of the report is still there, labelled.
    assert!(out.contains("graph `llama_layer`: 46 ops in"), "{out}");
    assert!(out.contains("fgraph's own plan (--fuser seed)"), "{out}");

    let o = fgraph(&[
        "analyze",
        "--runtime",
        "compile",
        "--format",
        "json",
        "validation/inductor/heldout/llama_decode.fgraph",
    ]);
    let j: Value = serde_json::from_str(&stdout(&o)).expect("json");
    let r = &j["cost"]["runtime"];
    assert_eq!(r["name"], "compile");
    assert_eq!(r["launch"], "graph");
    // 17 kernels, one of them a GEMM cuBLAS splits (K = 14336): 18 CUDA kernels launched.
    assert_eq!(r["kernels"], 18);
    assert!(r["time_us"].as_f64().expect("time") > 0.0);
    let per: &Vec<Value> = r["per_kernel"].as_array().expect("per kernel");
    assert_eq!(per.len(), 17);
    let t: f64 = per.iter().map(|k| k["time_us"].as_f64().expect("t")).sum();
    assert!((t - r["time_us"].as_f64().expect("t")).abs() < 0.01);
    assert_eq!(r["sdpa"][0]["rewritten"], true);
    assert!(per.iter().any(|k| k["what"] == "sdpa"));
    // CUDA graphs: no host in the step.
    assert!(r.get("host_us").is_none(), "{r}");
    // Plain launches: `host_probe_scales_the_host_figures` checks `host_us` and `launches`.
}

#[test]
fn without_runtime_the_report_is_unchanged() {
    let o = fgraph(&["analyze", "--format", "json", "examples/seed_mlp.fgraph"]);
    let j: Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert!(j["cost"].get("runtime").is_none());
    let o = fgraph(&["analyze", "examples/seed_mlp.fgraph"]);
    assert!(stdout(&o).starts_with("graph `seed_mlp`"));
    assert!(!stdout(&o).contains("runtime"));
}

#[test]
fn the_runtime_comes_from_fgraph_toml_and_needs_a_calibrated_gpu() {
    let dir = std::env::temp_dir().join(format!("fgraph-runtime-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    std::fs::copy(
        root().join("examples/seed_mlp.fgraph"),
        dir.join("seed_mlp.fgraph"),
    )
    .expect("copy");
    std::fs::write(
        dir.join("fgraph.toml"),
        "runtime = \"compile\"\nlaunch = \"eager\"\n",
    )
    .expect("write");
    let o = common::fgraph_in(&dir, &["analyze", "seed_mlp.fgraph"]);
    assert!(
        stdout(&o).starts_with("compile, plain launches: "),
        "{}",
        stdout(&o)
    );
    // The command line wins.
    let o = common::fgraph_in(
        &dir,
        &[
            "analyze",
            "--runtime",
            "eager",
            "--launch",
            "graph",
            "seed_mlp.fgraph",
        ],
    );
    assert!(
        stdout(&o).starts_with("eager, CUDA graphs: 4 kernels, "),
        "{}",
        stdout(&o)
    );
    // A GPU without hardware-model coefficients cannot price a runtime: a usage error.
    let o = fgraph(&[
        "analyze",
        "--runtime",
        "eager",
        "--hardware",
        "a100",
        "examples/seed_mlp.fgraph",
    ]);
    assert_eq!(common::code(&o), 2);
    let err = common::stderr(&o);
    assert!(
        err.contains("--runtime prices every kernel with the hardware model"),
        "{err}"
    );
    assert!(err.contains("`a100`"), "{err}");
    let o = fgraph(&["analyze", "--runtime", "jit", "examples/seed_mlp.fgraph"]);
    assert_eq!(common::code(&o), 2);
    assert!(
        common::stderr(&o).contains("eager, compile"),
        "{}",
        common::stderr(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `analyze --runtime compile --launch eager --format json EXTRA FILE` run in `dir`.
fn compiled_plain_json(dir: &std::path::Path, file: &str, extra: &[&str]) -> Value {
    let mut args = vec![
        "analyze",
        "--runtime",
        "compile",
        "--launch",
        "eager",
        "--format",
        "json",
    ];
    args.extend_from_slice(extra);
    args.push(file);
    let o = common::fgraph_in(dir, &args);
    assert_eq!(common::code(&o), 0, "{}", common::stderr(&o));
    serde_json::from_str(&stdout(&o)).expect("json")
}

#[test]
fn host_probe_scales_the_host_figures() {
    // VALIDATION.md §43: the presets' host figures describe a host whose probe (one
    // `torch.add`, plain launches) took 7.21 µs; `--host-probe-us` scales them to another.
    let file = "validation/inductor/heldout/llama_decode.fgraph";
    let json = compiled_plain_json;
    let root = common::root();
    let preset = json(&root, file, &[]);
    assert_eq!(preset["cost"]["runtime"]["host_us"], 16.4);
    assert_eq!(preset["cost"]["runtime"]["input_host_us"], 0.93);
    assert_eq!(preset["cost"]["runtime"]["host_probe_us"], 7.21);
    // Each kernel says how many CUDA kernels it launches; they sum to the step's count.
    let r = &preset["cost"]["runtime"];
    let launches: u64 = r["per_kernel"]
        .as_array()
        .expect("per_kernel")
        .iter()
        .map(|k| k["launches"].as_u64().expect("launches"))
        .sum();
    assert_eq!(Some(launches), r["kernels"].as_u64());
    let slow = json(&root, file, &["--host-probe-us", "14.42"]);
    assert_eq!(slow["cost"]["runtime"]["host_us"], 32.8);
    assert_eq!(slow["cost"]["runtime"]["input_host_us"], 1.86);
    assert_eq!(slow["cost"]["runtime"]["host_probe_us"], 14.42);
    let (t0, t1) = (
        preset["cost"]["runtime"]["time_us"].as_f64().expect("time"),
        slow["cost"]["runtime"]["time_us"].as_f64().expect("time"),
    );
    assert!(t1 > t0, "{t0} -> {t1}");
    // The human report names the host it describes.
    let o = fgraph(&[
        "analyze",
        "--runtime",
        "eager",
        "--launch",
        "eager",
        "--host-probe-us",
        "5",
        file,
    ]);
    assert!(
        stdout(&o).contains("a host whose probe takes 5.00 µs"),
        "{}",
        stdout(&o)
    );
    // A compiled step's report names what each tensor it takes costs the host.
    let o = fgraph(&["analyze", "--runtime", "compile", "--launch", "eager", file]);
    assert!(
        stdout(&o).contains("before its first kernel for each of the")
            && stdout(&o).contains("(model.host.runtime_compile_input_us)"),
        "{}",
        stdout(&o)
    );
    // From fgraph.toml, under the flag.
    let dir = common::temp_dir("host-probe");
    std::fs::write(dir.join("fgraph.toml"), "host-probe-us = 14.42\n").expect("toml");
    std::fs::copy(root.join(file), dir.join("decode.fgraph")).expect("copy");
    let run = |extra: &[&str]| {
        json(&dir, "decode.fgraph", extra)["cost"]["runtime"]["host_us"]
            .as_f64()
            .expect("host_us")
    };
    assert_eq!(run(&[]), 32.8);
    assert_eq!(run(&["--host-probe-us", "7.21"]), 16.4);
    // Usage errors: a probe out of range, a GPU with no host probe to scale from.
    for (args, says) in [
        (vec!["--host-probe-us", "0"], "it must be more than 0"),
        (vec!["--host-probe-us", "inf"], "at most 1000"),
        (
            vec!["--hardware", "a100", "--host-probe-us", "5"],
            "no hardware model",
        ),
    ] {
        let mut all = vec!["analyze"];
        all.extend(args);
        all.push(file);
        let o = fgraph(&all);
        assert_eq!(common::code(&o), 2, "{all:?}");
        assert!(common::stderr(&o).contains(says), "{}", common::stderr(&o));
    }
    // A hardware file that states no probe.
    let hw = Hardware::preset("h100").expect("h100");
    let mut m = hw.model.clone().expect("model");
    m.host.as_mut().expect("host").probe_us = None;
    assert!(
        m.with_host_probe(5.0)
            .expect_err("no probe")
            .contains("model.host.probe_us")
    );
}

/// JSON's `per_kernel[].host_conv` marks the kernels a convolution's host time is charged to:
/// ResNet-50's ungrouped convolutions, not ConvNeXt's depthwise ones.
#[test]
fn per_kernel_says_which_kernels_hold_an_ungrouped_convolution() {
    let kernels = |file: &str| -> Vec<(String, bool)> {
        compiled_plain_json(&root(), file, &[])["cost"]["runtime"]["per_kernel"]
            .as_array()
            .expect("per_kernel")
            .iter()
            .map(|k| {
                (
                    k["family"].as_str().expect("family").to_string(),
                    k["host_conv"].as_bool().expect("host_conv"),
                )
            })
            .collect()
    };
    let resnet = kernels("examples/resnet50.fgraph");
    let convs = resnet.iter().filter(|(f, _)| f == "conv").count();
    assert!(convs > 50, "{convs}");
    assert_eq!(resnet.iter().filter(|(_, c)| *c).count(), convs);
    // ConvNeXt's stage: its stem is ungrouped, its blocks' 7 × 7 convolutions depthwise.
    let convnext = kernels("examples/convnext_block.fgraph");
    let (plain, depthwise) =
        convnext
            .iter()
            .filter(|(f, _)| f == "conv")
            .fold(
                (0, 0),
                |(p, d), (_, c)| if *c { (p + 1, d) } else { (p, d + 1) },
            );
    assert!(plain >= 1 && depthwise >= 1, "{plain} {depthwise}");
}

/// An attention kernel runs in a step at its hardware-model price: its coefficients were fitted
/// on kernels timed back to back in a stream (VALIDATION.md §48-49), so it takes no stream
/// discount, where an elementwise kernel does.
#[test]
fn an_attention_kernel_takes_no_stream_discount() {
    // (the hardware model's kernel alone, the runtime's in a compiled step) µs.
    let alone_and_in_step = |name: &str, src: &str| {
        let file = common::temp_file_in("attention_stream", name, src);
        let out = fgraph(&[
            "analyze",
            file.to_str().expect("path"),
            "--traffic-model",
            "hardware",
            "--hardware",
            "h100",
            "--runtime",
            "compile",
            "--format",
            "json",
        ]);
        let json: Value = serde_json::from_str(&stdout(&out)).expect("JSON");
        let us = |v: &Value| v[0]["kernel_us"].as_f64().expect("kernel_us");
        (
            us(&json["cost"]["hardware_model"]["kernels"]),
            us(&json["cost"]["runtime"]["per_kernel"]),
        )
    };
    let (alone, in_step) = alone_and_in_step(
        "attention.fgraph",
        "graph g {\n  input q: f16[1, 8, 4096, 64]\n  input k: f16[1, 8, 77, 64]\n  \
         input v: f16[1, 8, 77, 64]\n  op a = attention(q, k, v) -> o: [1, 8, 4096, 64]\n  \
         output o\n}\n",
    );
    assert!((alone - in_step).abs() < 1e-6, "{alone} {in_step}");
    let (alone, in_step) = alone_and_in_step(
        "relu.fgraph",
        "graph g {\n  input x: f16[1, 8, 4096, 64]\n  op r = elementwise.relu(x) -> y\n  \
         output y\n}\n",
    );
    assert!(in_step < alone, "{alone} {in_step}");
}
