//! `--runtime` against the whole models measured on an H100 (issue 24 item 4; docs/VALIDATION.md
//! §21). The recorded data: `validation/gpu/models/data*/measured_models.csv` (one step of each
//! case, eager and compile, by CUDA-graph replay and by plain launches, measured by
//! `measure.py` on `fgraph emit torch` modules), the cases in `cases.json` (written by
//! `cases.py --manifest`: the `.fgraph`, its params, the repeat count replaced). No GPU is
//! needed here: each case is analysed again by the library and priced by the runtime, and the
//! count within the targets (±10% by CUDA graph, ±15% with plain launches) must not
//! fall below what VALIDATION.md §21 reports for the current model.

mod common;

use fgraph::analysis::Options;
use fgraph::cost::{Hardware, LaunchMode};
use fgraph::runtime::{Runtime, estimate};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Cases a later folder measured again under a name an earlier batch had (a clash
/// `cases.py --manifest` now refuses): batch 27 listed batch 3's ViT-B/16 block at batch 8, so
/// its rows there are not read (VALIDATION.md §47).
const REPEATED: &[(&str, &str)] = &[("data27", "vit_b16_block_b8"), ("b27", "vit_b16_block_b8")];

/// The rows of a measurement's csv whose `status` is `ok`, as (column → value) maps, less the
/// [`REPEATED`] cases of its folder.
fn ok_rows(path: &std::path::Path) -> Vec<BTreeMap<String, String>> {
    let folder = path
        .parent()
        .and_then(|p| p.file_name())
        .and_then(|f| f.to_str())
        .unwrap_or_default()
        .to_string();
    common::csv_file(path)
        .into_iter()
        .filter(|r| r.get("status").map(String::as_str) == Some("ok"))
        .filter(|r| {
            let case = r.get("case").map(String::as_str).unwrap_or_default();
            !REPEATED.contains(&(folder.as_str(), case))
        })
        .collect()
}

fn us(r: &BTreeMap<String, String>, col: &str) -> f64 {
    r[col]
        .parse()
        .unwrap_or_else(|_| panic!("{col}: {}", r[col]))
}

/// (case, runtime, launch) → measured µs, from every batch's folder.
fn measured() -> BTreeMap<(String, String, String), f64> {
    let dir = root().join("validation/gpu/models");
    let mut out = BTreeMap::new();
    for folder in [
        "data", "data2", "data3", "data4", "data5", "data6", "data7", "data8", "data9", "data10",
        "data11", "data12", "data13", "data14", "data15", "data16", "data17", "data18", "data19",
        "data20", "data21", "data22", "data23", "data24", "data25", "data26", "data27", "data28",
        "data29", "data30", "data31", "data32", "data33", "data34", "data35", "data36", "data37",
        "data38",
    ] {
        for r in ok_rows(&dir.join(folder).join("measured_models.csv")) {
            let key = (r["case"].clone(), r["runtime"].clone(), r["launch"].clone());
            out.insert(key, us(&r, "time_us"));
        }
    }
    out
}

/// Every batch's cases (`cases.json`, written by `cases.py --manifest`).
fn manifest() -> Value {
    serde_json::from_str(
        &std::fs::read_to_string(root().join("validation/gpu/models/cases.json"))
            .expect("cases.json"),
    )
    .expect("json")
}

/// The case's source: its file with the repeat count replaced, checked as if it sat beside
/// the file (so that its imports resolve).
fn analysis(case: &Value) -> fgraph::analysis::Analysis {
    let file = case["file"].as_str().expect("file");
    let mut src = std::fs::read_to_string(root().join(file)).expect("case file");
    if let Some(d) = case["depth"].as_array() {
        let (from, to) = (d[0].as_u64().expect("from"), d[1].as_u64().expect("to"));
        let old = format!("repeat {from} ");
        assert_eq!(src.matches(&old).count(), 1, "{file}");
        src = src.replace(&old, &format!("repeat {to} "));
    }
    let mut opts = Options::default();
    for (k, v) in case["params"].as_object().expect("params") {
        opts.overrides.insert(k.clone(), v.as_i64().expect("param"));
    }
    let path = root().join(file);
    let r = fgraph::check_file(path.to_str().expect("utf-8"), src.as_bytes(), &opts);
    r.graphs[0]
        .analysis
        .clone()
        .unwrap_or_else(|| panic!("{file}: {:?}", r.diagnostics))
}

#[test]
fn runtime_keeps_its_whole_model_accuracy() {
    let manifest = manifest();
    let meas = measured();
    let hw = Hardware::preset("h100").expect("h100");
    // (batch, launch) → (within target, measured)
    let mut tally: BTreeMap<(String, &str), (usize, usize)> = BTreeMap::new();
    for case in manifest["cases"].as_array().expect("cases") {
        let name = case["case"].as_str().expect("case");
        let batch = case["batch"].as_str().expect("batch").to_string();
        let a = analysis(case);
        for (runtime, rname) in [(Runtime::Eager, "eager"), (Runtime::Compile, "compile")] {
            for (launch, lname, target) in [
                (LaunchMode::Graph, "graph", 0.10),
                (LaunchMode::Eager, "eager", 0.15),
            ] {
                let Some(&m) = meas.get(&(name.into(), rname.into(), lname.into())) else {
                    continue;
                };
                let e = estimate(&a, &hw, launch, runtime).expect("estimate");
                let err = e.time_s * 1e6 / m - 1.0;
                let t = tally.entry((batch.clone(), lname)).or_default();
                t.0 += usize::from(err.abs() <= target);
                t.1 += 1;
                println!(
                    "b{batch} {name:34} {rname:8} {lname:6} {:+7.1}%",
                    err * 100.0
                );
            }
        }
    }
    // docs/VALIDATION.md §21, the model as it is now (batches 1-5 fitted on; batches 6 to 9
    // held out from the stream terms, pre-registered by CUDA graph 17 of 18, 10 of 16, 10 of
    // 14 and 7 of 12, the rules each led to written after it was measured; batch 10 held out
    // from everything, its figures the pre-registered ones; §23: Inductor's transposing copy
    // of a small tile, fitted on batches 2-8, moved batches 8, 9 and 10 to 14, 11 and 10 by
    // CUDA graph; §24: SD 1.5's compiled block, from +34% to within 10%, batch 2 18 of 20).
    let expected: &[(&str, &str, usize, usize)] = &[
        ("1", "graph", 20, 20),
        ("1", "eager", 12, 20),
        ("2", "graph", 18, 20),
        ("2", "eager", 16, 20),
        ("3", "graph", 20, 20),
        ("3", "eager", 14, 20),
        ("4", "graph", 20, 20),
        ("4", "eager", 20, 20),
        // §50: Inductor's looped softmax at its own rates moved Llama-2-7B's compiled prefill
        // at 8 layers from -12.0% to -9.5%: 26.
        ("5", "graph", 26, 26),
        ("5", "eager", 19, 26),
        ("6", "graph", 18, 18),
        ("6", "eager", 11, 18),
        ("7", "graph", 16, 16),
        // §47: a compiled step's host time per tensor and the refit per kernel moved batch 7's
        // single plain-launch runs to 9 and batch 23's to 0 (others up: 250 of 428 in all).
        ("7", "eager", 9, 16),
        // §53: Inductor's residual stream stored every few adds (its loads counted through
        // what it inlines) lowered GPT-2 XL's compiled step from -8.8% to -10.9%.
        ("8", "graph", 13, 14),
        ("8", "eager", 6, 14),
        ("9", "graph", 12, 12),
        ("9", "eager", 5, 12),
        ("10", "graph", 10, 10),
        ("10", "eager", 3, 10),
        // §23: batch 11, held out from everything (the pre-registered figures).
        // §42: PyTorch's `torch.cat` at its own rate moved Llama-3-8B's eager decode at
        // batch 32 against 1,024 positions from +9.9% to +10.1%: 17 by CUDA graph.
        ("11", "graph", 17, 18),
        ("11", "eager", 12, 18),
        // §24: batch 12, held out from rule 7 and Triton's group norm (pre-registered).
        // §40: Inductor's group norm over a straddling split (`group_norm_strided`) moved
        // SD's block at 2 × 96² from +3.5% to +13.2% (its chunks read at twice the fitted
        // rate): 11 by CUDA graph.
        // §45: a chunk shorter than a channel reduced with the groups side by side (the
        // floor of sectors) moved SD's compiled block at 2 × 96² from +16.1% to +7.1%: 12.
        // §48: the attention refit (keys in blocks of 128, SD's cross-attention no longer
        // priced +37%) moved SD's compiled block at 1 × 64² from -9.8% to -10.5%: 11.
        // §49: each of Inductor's group-norm kernels with its start-up, the strided walk over
        // the norm's input alone: 12.
        ("12", "graph", 12, 12),
        ("12", "eager", 3, 12),
        // §26: batch 13, SD-like blocks at other widths, held out (pre-registered 6 by CUDA
        // graph; 7 once a group norm counts its three kernels).
        // §48: the attention refit moved SD's compiled block at 1280 × 16² (batch 2) from -8.1%
        // to -10.3%: 8.
        // §49: the group norm's kernels moved batch 13 to 10 by CUDA graph and its plain
        // launches (one run) to 9.
        ("13", "graph", 10, 10),
        ("13", "eager", 8, 10),
        // §32: the sustained derate by the step's share of compute-bound kernels and
        // Inductor's pools at the streaming rate (fit_derate.py, fitted on batches 1-14) moved
        // batches 1, 2, 7, 12 and 13 by CUDA graph to 18, 18, 15, 11 and 8, and batch 12's
        // and 13's plain launches (one run) to 3 and 4.
        // §30: batch 14, held out from everything (the pre-registered figures).
        ("14", "graph", 16, 16),
        ("14", "eager", 10, 16),
        // §32: batch 15, held out from the derate by share and the Triton pools
        // (pre-registered 13 by CUDA graph). §34: Inductor's copy of a 3×3 weight into the
        // channels-last layout before each contiguous conv moved batches 12, 13 and 14 by
        // CUDA graph to 12, 9 and 15 (SD's compiled blocks) and batch 15 to 12 (ResNet-50's
        // compiled NCHW step at batch 16, +6.0% to +10.5%).
        ("15", "graph", 16, 16),
        ("15", "eager", 8, 16),
        // §34: batch 16, held out from the weight copy and the query-block rule (the
        // pre-registered figures; 14 by CUDA graph since §35).
        ("16", "graph", 15, 16),
        ("16", "eager", 5, 16),
        // §35: batch norm's statistics kernels and its channels-last kernel's family moved
        // ResNet-50's eager steps by CUDA graph (+3..+11%): batches 1, 12 and 16 to 19, 11
        // and 14. Batch 17 (ResNet-50 and -101), held out from them (the pre-registered
        // figures; the model before them: 12 of 14 by CUDA graph).
        ("17", "graph", 14, 14),
        // §35: PyTorch's channels-last batch norm beyond L2 (its bytes past
        // `l2_effective_bytes` from DRAM) moved batch 15's ResNet-50 eager step at batch 16
        // from +9.9% to +11.0%: batch 15 by CUDA graph to 11.
        // §35: batch 18, held out from all of it (the pre-registered figures; the model
        // before the batch norm's kernels: 10 of 16 by CUDA graph).
        ("18", "graph", 15, 16),
        ("18", "eager", 5, 16),
        // §36: eager elementwise kernels reading from L2 what the kernel before them wrote
        // (`warm_read_factor` 0.8, `sustained_derate` refitted to 0.175 on batches 1-14) moved
        // batches 12, 13, 15, 17 and 18 by CUDA graph to 10, 8, 13, 13 and 10 (pre-registered
        // 11 and 9 for batches 17 and 18), batch 1's plain launches to 15 and batch 16's to 4.
        // Batch 19, held out from it (the pre-registered figures; 16 by CUDA graph before it).
        ("19", "graph", 17, 18),
        ("19", "eager", 7, 18),
        ("17", "eager", 3, 14),
        // §37: a compute-bound matmul's overhead overlapping its compute in a stream and the
        // L2-resident bytes of memory-bound matmuls (fit_overlap.py, on batches 1-14's
        // profiler traces) moved batches 7, 9, 13, 15, 16 and 18 by CUDA graph to 16, 12, 9,
        // 16, 15 and 12 (BERT's and GPT-2's steps), and batch 18's plain launches (one run)
        // from 6 to 5. Batch 20, held out from it (the pre-registered figures; the model
        // before it: 15 of 18 by CUDA graph).
        // §53: Llama-family residual adds in the next norm's kernel (no `addmm` where a norm
        // and the next add read the sum) moved Qwen2.5-0.5B's compiled prefill at 2 × 512
        // from +8.9% to +10.8%: 16.
        ("20", "graph", 16, 18),
        ("20", "eager", 7, 18),
        // §38: a conv stated channels-last writes channels-last under eager (ConvNeXt's norm
        // copies nothing) and PyTorch's own norm gets through at most `norm_rows_per_s` rows
        // a second (fit_norm_rows.py, on batches 1-14's traces) moved batches 14, 18 and 20
        // by CUDA graph to 16, 13 and 17 (Whisper-tiny's eager encoder), and batches 1, 2
        // and 16's plain launches (one run) to 16, 17 and 5. Batch 21, held out from it (the
        // pre-registered figures; the model before it: 16 of 18 by CUDA graph).
        // §40 moved SD's compiled block at 2 × 56² from -13.6% to -2.8%: 18 by CUDA graph.
        ("21", "graph", 18, 18),
        ("21", "eager", 5, 18),
        // §39: a convolution that is one compute-bound implicit GEMM overlaps its overhead
        // with its compute in a stream, as a matmul does (§37), moved batches 1, 12, 17 and
        // 18 by CUDA graph to 20, 12, 14 and 15 (the ResNets). Batch 22, held out from it
        // (the pre-registered figures).
        // §40 moved SD's compiled block at 2 × 72² from -13.2% to -2.4%: 17 by CUDA graph.
        ("22", "graph", 17, 18),
        ("22", "eager", 4, 18),
        // §40: batch 23 (SD 1.5's down blocks at seven new shapes), held out from Inductor's
        // straddling group-norm split (the pre-registered figures; the model before it: 11 of
        // 14 by CUDA graph). Plain launches by one run only (no rounds).
        ("23", "graph", 13, 14),
        // §49: 1 (SD's compiled block at 2 × 40² with plain launches).
        ("23", "eager", 1, 14),
        // §43: the host's time per CUDA kernel (16.9 and 22.0 µs, fit_host_rounds.py on the
        // rounds of b6-7 to b14) moved the single runs of plain launches of batches 1, 2, 3,
        // 5 and 9 to 12, 16, 15, 19 and 5 (and others up: 203 to 225 of 380 in all).
        // Batch 24, held out from it (the pre-registered figures).
        // §44: cuDNN's generic depthwise kernel below batch 8 moved ConvNeXt's block at
        // batch 6 from -26.5% to +7.6% compiled and from -5.0% to +14.1% eager: still 18.
        // §49: attention kernels without the stream discount (their coefficients were fitted
        // in a stream) moved SD's compiled block at 2 × 32² from -10.7% to -8.9%: 19.
        // §53: the same raised GPT-2 medium's compiled step at 8 × 256 from +10.3% to +6.5%;
        // the one-row bmm's operand copy, Qwen2.5-0.5B's compiled decode at 2 × 1,023 from
        // -10.8% to -7.3%: 21.
        ("24", "graph", 21, 22),
        ("24", "eager", 13, 22),
        // §43: batch 25 (host-bound steps at small batches), pre-registered.
        ("25", "graph", 16, 16),
        ("25", "eager", 8, 16),
        // §45: batch 26 (SD's down blocks whose compiled norms share sectors), pre-registered.
        // §49: the group norm's kernels: 9.
        ("26", "graph", 9, 10),
        ("26", "eager", 5, 10),
        // §47: batch 27, pre-registered. §53: the one-row bmm's operand copy moved
        // Qwen2.5-0.5B's compiled decode at 1 × 511 from -12.6% to -8.6%: 15.
        ("27", "graph", 15, 18),
        ("27", "eager", 8, 18),
        // §48: batch 28, pre-registered (after the attention refit; 18 by CUDA graph with the
        // coefficients before it).
        // §49: the group norm's kernels moved SD's compiled block at 1280 × 16² (batch 6)
        // within 10%: 18.
        // §50: Inductor's looped softmax (rows of 1,536 in blocks of 2,048) moved Llama-3.2-1B's
        // compiled prefill at 1,536 from -14.3% to +0.1%: 19.
        ("28", "graph", 19, 20),
        ("28", "eager", 13, 20),
        // §49: batch 29, pre-registered (SD's compiled blocks at small sizes).
        ("29", "graph", 13, 16),
        ("29", "eager", 6, 16),
        // §50: batch 30, pre-registered (compiled prefills whose softmax rows are no multiple
        // of 2,048; 17 of 20 by CUDA graph with the model before §50).
        ("30", "graph", 10, 10),
        ("30", "eager", 10, 10),
        // §51: the compiled host figure for graphs with a convolution moved the single
        // plain-launch runs of batches 3 and 13 to 14 and 8 (others up: 279 to 290 of 482).
        // §50: batch 31, pre-registered (decodes against key counts no multiple of 2,048).
        ("31", "graph", 10, 10),
        ("31", "eager", 4, 10),
        // §51: batch 32, pre-registered (host-bound steps, compiled graphs with and without a
        // convolution).
        ("32", "graph", 12, 16),
        ("32", "eager", 5, 16),
        // §52: batch 33, pre-registered (eager steps whose elementwise kernels read what a few
        // kernels before wrote; predicted with a reuse window since dropped, its figures the
        // kept model's, 14 by CUDA graph either way).
        ("33", "graph", 14, 14),
        ("33", "eager", 4, 14),
        // §52: batch 34, pre-registered with the kept model.
        ("34", "graph", 15, 16),
        ("34", "eager", 6, 16),
        // §52: batch 35 (decodes), pre-registered with the kept model.
        ("35", "graph", 12, 12),
        ("35", "eager", 5, 12),
        // §53: batch 36 (pre-norm residual streams with biases), pre-registered with the
        // residual stream stored once its inlined loads pass four.
        ("36", "graph", 12, 12),
        ("36", "eager", 6, 12),
        // §53: batch 37 (Llama-family compiled prefills of [S, H] activations), pre-registered
        // with the residual adds in the next norm's kernel.
        ("37", "graph", 12, 12),
        ("37", "eager", 9, 12),
        // §54: batch 38 (the families issue 24 names, prefill and decode at batch 1 and 16),
        // pre-registered with the model as §53 left it.
        ("38", "graph", 16, 16),
        ("38", "eager", 11, 16),
    ];
    // Every batch's figure is printed before any fails: one miss hides no other.
    let mut misses = Vec::new();
    for &(b, l, within, n) in expected {
        let got = tally.get(&(b.to_string(), l)).copied().unwrap_or_default();
        println!("batch {b} {l}: {} of {} within target", got.0, got.1);
        if got.1 != n || got.0 < within {
            misses.push(format!(
                "batch {b} {l}: {} of {} within target, VALIDATION.md says {within} of {n}",
                got.0, got.1
            ));
        }
    }
    assert!(misses.is_empty(), "{}", misses.join("\n"));
}

/// The measurements in interleaved rounds (`plain_rounds.py`, data_plain/; VALIDATION.md §28
/// and §29), one folder per H100 call.
const ROUNDS: [&str; 35] = [
    "b6-7", "b8-10", "b11-13", "conv13", "hostcal", "b14", "b15", "b16", "b17", "b18", "b19",
    "b20", "b21", "b22", "b23", "b24", "b24b", "b25", "b26", "b27", "b28", "b29", "b30", "b31",
    "b32", "b32b", "b33", "b34", "b33b", "b34b", "b35", "b35b", "b36", "b37", "b38",
];

/// Plain launches measured in five interleaved rounds: (folder, case, runtime) → (the median
/// round, the fastest round) µs.
fn rounds() -> BTreeMap<(&'static str, String, String), (f64, f64)> {
    let dir = root().join("validation/gpu/models/data_plain");
    let mut out = BTreeMap::new();
    for sub in ROUNDS {
        for r in ok_rows(&dir.join(sub).join("measured_plain.csv")) {
            let key = (sub, r["case"].clone(), r["runtime"].clone());
            out.insert(key, (us(&r, "time_us"), us(&r, "best_us")));
        }
    }
    out
}

#[test]
fn plain_launches_in_rounds_keep_their_accuracy() {
    let manifest = manifest();
    let meas = rounds();
    let hw = Hardware::preset("h100").expect("h100");
    // (folder, batch) → (within ±15% of the median round, of the fastest round, measured)
    let mut tally: BTreeMap<(&str, u32), (usize, usize, usize)> = BTreeMap::new();
    for case in manifest["cases"].as_array().expect("cases") {
        let name = case["case"].as_str().expect("case");
        let batch: u32 = case["batch"]
            .as_str()
            .expect("batch")
            .parse()
            .expect("batch");
        let subs: Vec<&str> = ROUNDS
            .into_iter()
            .filter(|s| meas.contains_key(&(*s, name.to_string(), "eager".to_string())))
            .collect();
        if subs.is_empty() {
            continue;
        }
        let a = analysis(case);
        for (runtime, rname) in [(Runtime::Eager, "eager"), (Runtime::Compile, "compile")] {
            let e = estimate(&a, &hw, LaunchMode::Eager, runtime).expect("estimate");
            let p = e.time_s * 1e6;
            for &sub in &subs {
                let (median, best) = meas[&(sub, name.to_string(), rname.to_string())];
                let t = tally.entry((sub, batch)).or_default();
                t.0 += usize::from((p / median - 1.0).abs() <= 0.15);
                t.1 += usize::from((p / best - 1.0).abs() <= 0.15);
                t.2 += 1;
                println!(
                    "{sub} b{batch} {name:34} {rname:8} median {:+7.1}% fastest {:+7.1}%",
                    (p / median - 1.0) * 100.0,
                    (p / best - 1.0) * 100.0
                );
            }
        }
    }
    // VALIDATION.md §28 and §29, the model as it is now (the presets' host: 14.1 and 15.5 µs a
    // kernel fitted on batch 1's single runs, no convolution term).
    // Batches 6-13 on one host, pre-registered (predictions_plain.json); batches 1-3's
    // convolutional steps on a second (conv13, pre-registered with a convolution term the
    // presets then dropped: 9 of 14 with it); batches 11, 12 and those steps again on a third,
    // with the host probes (hostcal).
    let expected: &[(&str, u32, usize, usize, usize)] = &[
        ("b6-7", 6, 14, 11, 18),
        ("b6-7", 7, 11, 13, 16),
        ("b8-10", 8, 8, 6, 14),
        ("b8-10", 9, 7, 5, 12),
        // §63: cuBLAS's split-K work rule (a decode's square projections whole) moved batch
        // 10's median rounds to 4 (Llama-2's host-bound eager decodes at batch 1 and 32,
        // −5.6 and −5.2% → −15.8 and −15.7%: each step launches 8-16 reduce kernels fewer;
        // their fastest rounds +38.2 → +23.3% and +3.2 → −8.2%) and its fastest to 7; all
        // rounds 339 → 341 (median) and 317 → 319 (fastest) of 632.
        ("b8-10", 10, 4, 7, 10),
        ("b11-13", 11, 15, 17, 18),
        // §45: the straddling group norm refitted (0.285 TB/s, 3 µs, by sectors) moved SD's
        // compiled blocks at 2 × 96² (rows ordered by group, not modelled) and 8 × 320 × 64²
        // further over:
        // b11-13's batch 12 to 2 and 2, batch 13 to 3 and 8; hostcal's batch 12 to 9 and 7;
        // b16's fastest rounds to 6. The groups side by side (§45) moved 2 × 96² back: batch
        // 12 to 2 and 3.
        // §47: a compiled step's host time per tensor it takes (0.93 µs, measured) and the
        // time per CUDA kernel refitted with it (20.8 µs, was 22.0) moved batch 12's fastest
        // rounds to 2 and batch 13's to 6, b19's fastest to 9, b21's to 13, b23's to 8 and
        // b26 to 8 and 9 (SD's compiled blocks, whose host time per kernel is the highest).
        ("b11-13", 12, 2, 2, 12),
        // §49: the group norm's kernels: 4 and 7.
        ("b11-13", 13, 3, 7, 10),
        ("conv13", 1, 1, 1, 4),
        ("conv13", 2, 4, 4, 6),
        ("conv13", 3, 1, 1, 4),
        ("hostcal", 1, 3, 1, 4),
        ("hostcal", 2, 6, 6, 6),
        ("hostcal", 3, 4, 1, 4),
        ("hostcal", 11, 9, 9, 18),
        ("hostcal", 12, 9, 4, 12),
        // §30: batch 14 in rounds, in the same call as its single runs, pre-registered.
        ("b14", 14, 13, 12, 16),
        // §32: batch 15 likewise.
        ("b15", 15, 9, 8, 16),
        // §48: the attention refit moved the fastest round to 5.
        ("b16", 16, 3, 4, 16),
        // §35: the batch norms' statistics kernels (106 in ResNet-50's eager step) moved
        // conv13's batch 1 to 2 and 3, hostcal's batch 1 to 2 and 3 and batch 12 to 7 and 7,
        // and batch 16 (pre-registered 6 and 7) to 8 and 9.
        // §35: batch 17, pre-registered: a slow host (its probe 8.3-8.6 µs a kernel), none
        // within ±15% (ResNet eager −32..−44%, compiled −51..−59%).
        ("b17", 17, 1, 2, 14),
        // §35: batch 18, pre-registered.
        ("b18", 18, 12, 6, 16),
        // §36: batch 19, pre-registered.
        ("b19", 19, 8, 8, 18),
        // §37: batch 20, pre-registered.
        ("b20", 20, 6, 13, 18),
        // §38: batch 21, pre-registered (14 by the fastest; 13 since §39's conv overlap).
        ("b21", 21, 14, 10, 18),
        // §39: batch 22, pre-registered.
        ("b22", 22, 9, 12, 18),
        // §40: batch 23, pre-registered (predictions_plain_23.json), in a call of its own
        // after its single runs.
        // §48-49: 12 and 9.
        ("b23", 23, 9, 6, 14),
        // §43: the host's time per CUDA kernel, fitted on the median rounds of b6-7 to b14,
        // moved every folder above to its figures (the held-out b15-b23 by the median round
        // from 73 to 88 of 148; the fastest rounds, faster than the fit, from 85 to 82).
        // Batch 24, pre-registered (predictions_plain_24.json), on the fastest host yet
        // (a probe of 5.1-5.6 µs against the presets' 7.21).
        ("b24", 24, 3, 3, 22),
        // §43: batch 24 again, on a second machine (a probe of 7.9-9.2 µs), the same
        // pre-registered predictions.
        ("b24b", 24, 8, 12, 22),
        // §43: batch 25, pre-registered (probe 5.9-6.1 µs).
        ("b25", 25, 0, 0, 16),
        // §45: batch 26, pre-registered.
        // §49: 9 and 10.
        ("b26", 26, 8, 8, 10),
        // §47: batch 27, pre-registered (a fast host: probes 5.6-7.6 µs).
        ("b27", 27, 1, 0, 18),
        // §48: batch 28, pre-registered (a fast host: probes 5.2-7.4 µs).
        ("b28", 28, 9, 6, 20),
        // §49: batch 29, pre-registered (a host whose rounds spread: probes below).
        ("b29", 29, 6, 2, 16),
        // §50: batch 30, pre-registered.
        ("b30", 30, 10, 10, 10),
        // §50: batch 31, pre-registered.
        ("b31", 31, 8, 5, 10),
        // §51: the compiled host figures fitted apart for graphs with and without a
        // convolution, each scaled by the probe, lowered the rounds against the presets' host
        // alone (median rounds of b6-b29 261 to 237 of 456; the figures above are after it)
        // and raised them scaled by the probe (the next test).
        // §51: batch 32, pre-registered.
        ("b32", 32, 0, 1, 16),
        // §51: batch 32 again, on a second machine, the same pre-registered predictions.
        ("b32b", 32, 2, 1, 16),
        // §52: batch 33, pre-registered (a host with slow moments in every round: the
        // median and fastest rounds up to 40% apart).
        ("b33", 33, 6, 9, 14),
        // §52: batch 34, pre-registered.
        ("b34", 34, 7, 5, 16),
        // §52: batches 33 and 34 again, on a second machine, the same pre-registered
        // predictions.
        ("b33b", 33, 9, 2, 14),
        ("b34b", 34, 6, 9, 16),
        // §52: batch 35, pre-registered.
        ("b35", 35, 10, 4, 12),
        // §52: batch 35 again, on a second machine.
        ("b35b", 35, 5, 7, 12),
        // §53: batch 36, pre-registered.
        ("b36", 36, 10, 6, 12),
        // §53: batch 37, pre-registered.
        ("b37", 37, 12, 12, 12),
        // §54: batch 38, pre-registered.
        ("b38", 38, 12, 9, 16),
    ];
    let mut misses = Vec::new();
    for &(sub, b, median, best, n) in expected {
        let got = tally.get(&(sub, b)).copied().unwrap_or_default();
        println!(
            "{sub} batch {b}: median {} fastest {} of {}",
            got.0, got.1, got.2
        );
        if got.2 != n || got.0 < median || got.1 < best {
            misses.push(format!(
                "{sub} batch {b}: {} (median round) and {} (fastest) of {} within ±15%, VALIDATION.md says {median} and {best} of {n}",
                got.0, got.1, got.2
            ));
        }
    }
    assert!(misses.is_empty(), "{}", misses.join("\n"));
    assert_eq!(
        tally.len(),
        expected.len(),
        "every folder and batch has its row"
    );
}

/// The preset with its host figures scaled to a host whose probe took `probe` µs, as
/// `--host-probe-us` scales them (`HwModel::with_host_probe`).
fn scaled_to(hw: &Hardware, probe: f64) -> Hardware {
    let mut hw = hw.clone();
    let m = hw.model.as_ref().expect("a hardware model");
    hw.model = Some(
        m.with_host_probe(probe)
            .expect("a host model with its probe"),
    );
    hw
}

#[test]
fn plain_launches_scaled_by_the_host_probe_keep_their_accuracy() {
    // VALIDATION.md §43: each round's probe (`torch.add`, plain launches) beside it; the
    // host's figures scaled by the folder's median probe over `model.host.probe_us`.
    let manifest = manifest();
    let dir = root().join("validation/gpu/models/data_plain");
    let hw = Hardware::preset("h100").expect("h100");
    // folder → (within ±15% of the median round, measured)
    let mut tally: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let cases: BTreeMap<&str, &Value> = manifest["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .map(|c| (c["case"].as_str().expect("case"), c))
        .collect();
    for sub in ROUNDS {
        for r in ok_rows(&dir.join(sub).join("measured_plain.csv")) {
            let Some(case) = cases.get(r["case"].as_str()) else {
                continue;
            };
            let runtime = match r["runtime"].as_str() {
                "eager" => Runtime::Eager,
                _ => Runtime::Compile,
            };
            let hw = scaled_to(&hw, us(&r, "probe_us"));
            let e = estimate(&analysis(case), &hw, LaunchMode::Eager, runtime).expect("estimate");
            let err = e.time_s * 1e6 / us(&r, "time_us") - 1.0;
            let t = tally.entry(sub).or_default();
            t.0 += usize::from(err.abs() <= 0.15);
            t.1 += 1;
            println!(
                "{sub} {:34} {:8} {:+7.1}%",
                r["case"],
                r["runtime"],
                err * 100.0
            );
        }
    }
    // Fitted on b6-7 to b14 (fit_host_rounds.py: 141 of 184 scaled); b15-b23 held out (121
    // of 148); b24 pre-registered (16 of 22 on one host, 17 of 22 on a second, b24b); b25
    // pre-registered (7 of 16: its compiled decodes +26..+42%). §47: the compiled step's host
    // time per tensor (measured) and per CUDA kernel (refitted) moved the held-out folders to
    // 124 of 148, b24b to 18, b11-13 to 27 and b26 to 9 (pre-registered 50 of 76, as before).
    let expected: &[(&str, usize, usize)] = &[
        ("b6-7", 26, 34),
        ("b8-10", 23, 36),
        // §45: the straddling group norm's refit moved SD's compiled block at 2 × 96² out in
        // both, the groups side by side back in.
        // §49: the group norm's kernels: 28.
        ("b11-13", 28, 40),
        ("conv13", 13, 14),
        ("hostcal", 36, 44),
        ("b14", 14, 16),
        ("b15", 12, 16),
        ("b16", 11, 16),
        ("b17", 8, 14),
        ("b18", 14, 16),
        ("b19", 15, 18),
        ("b20", 12, 18),
        ("b21", 15, 18),
        ("b22", 15, 18),
        ("b23", 12, 14),
        ("b24", 16, 22),
        ("b24b", 17, 22),
        ("b25", 7, 16),
        // §49: 10.
        ("b26", 10, 10),
        // §47: batch 27, pre-registered: its compiled decoders and BERT-large +25..+35%.
        ("b27", 12, 18),
        // §48: batch 28, pre-registered.
        ("b28", 18, 20),
        // §49: batch 29, pre-registered.
        ("b29", 7, 16),
        // §50: batch 30, pre-registered.
        ("b30", 10, 10),
        // §50: batch 31, pre-registered.
        ("b31", 6, 10),
        // §51: the compiled host figures for graphs with and without a convolution moved
        // every folder to at least its figure above but b15, b16 and b18 (BERT-base's compiled
        // steps further short, ResNet-50's NCHW steps over): 369 to 407 of 476.
        // §51: batch 32, pre-registered.
        ("b32", 9, 16),
        // §51: batch 32 again, on a second machine.
        ("b32b", 15, 16),
        // §52: batch 33, pre-registered.
        ("b33", 10, 14),
        // §52: batch 34, pre-registered.
        ("b34", 13, 16),
        // §52: batches 33 and 34 again, on a second machine.
        ("b33b", 8, 14),
        ("b34b", 12, 16),
        // §52: batch 35, pre-registered.
        ("b35", 7, 12),
        // §52: batch 35 again, on a second machine.
        ("b35b", 10, 12),
        // §53: batch 36, pre-registered.
        ("b36", 10, 12),
        // §53: batch 37, pre-registered.
        ("b37", 12, 12),
        // §54: batch 38, pre-registered.
        ("b38", 12, 16),
    ];
    let mut misses = Vec::new();
    for (sub, got) in &tally {
        println!("{sub}: {} of {} within ±15%", got.0, got.1);
    }
    for &(sub, within, n) in expected {
        let got = tally.get(sub).copied().unwrap_or_default();
        if got.1 != n || got.0 < within {
            misses.push(format!(
                "{sub}: {} of {} within ±15%, §43 says {within} of {n}",
                got.0, got.1
            ));
        }
    }
    assert!(misses.is_empty(), "{}", misses.join("\n"));
}
