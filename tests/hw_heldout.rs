//! Held-out batch d (validation/gpu/h100-heldout-d, docs/VALIDATION.md §16): the hardware
//! model (`--traffic-model hardware`, src/cost/hwmodel/) against kernels and whole layers
//! that were drawn at random (cases.py, seed 20261125) and measured on the lent H100 after its
//! predictions were committed (predictions.json). No GPU: everything is read from the
//! committed measured.csv.
//!
//! Reads: kernels moving more than 1 MB (compulsory reads + writes), target ±15%. Times
//! (ncu's duration, no launch): kernels over 20 µs, target ±20%. Whole layers: the sum of the
//! layer's kernel times, target ±15%. Error = predicted / measured − 1.
//!
//! `cargo test --test hw_heldout -- --ignored --nocapture` prints the table and every miss.

mod heldout;

use heldout::{Case, Point, Row, Stats};
use std::collections::BTreeMap;
use std::sync::OnceLock;

const DIR: &str = "validation/gpu/h100-heldout-d";

fn rows() -> &'static [Row] {
    static ROWS: OnceLock<Vec<Row>> = OnceLock::new();
    ROWS.get_or_init(|| heldout::read_rows(DIR))
}

impl Case {
    /// A GEMM whose row lengths (K of A, N of B and C, all row-major) are multiples of 8
    /// elements (16 bytes): cuBLAS's tensor-core kernels need that alignment; 21 of the 50
    /// random shapes lack it.
    fn aligned(&self) -> bool {
        let dims = self.dims();
        dims[2].is_multiple_of(8) && dims[3].is_multiple_of(8)
    }
    /// The class the accuracy table reports it under.
    fn class(&self) -> &'static str {
        match self.family.as_str() {
            "gemm" | "tf32" if !self.aligned() => "gemm-unaligned",
            "gemm" | "tf32" => "gemm",
            "attention" | "flash" => "attention",
            _ => "memory",
        }
    }
}

/// The held-out cases: 50 GEMMs, 25 memory-bound kernels, 8 attention kernels.
fn heldout_cases() -> Vec<Case> {
    heldout::cases_of(rows(), "heldout")
}

/// The cases taken for fitting new terms, not scored as held-out: 8 TF32 matmuls, 12
/// LayerNorm/RMSNorm, 8 softmaxes over rows of 16k–256k, 8 FlashAttention-2 kernels
/// (`sdpa_kernel(FLASH_ATTENTION)`). Each case's graph is `graphs/CASE.fgraph`.
fn fit_cases() -> Vec<Case> {
    heldout::cases_of(rows(), "fit")
}

const LAYERS: &[&str] = &[
    "qwen_layer",
    "vit_block",
    "bert_layer",
    "llama_decode",
    "moe_dense",
    "t5_layer",
    "ce_head",
];

/// Batch d's layers are the held-out layers of validation/inductor.
fn layer_path(layer: &str) -> std::path::PathBuf {
    heldout::root()
        .join("validation/inductor/heldout")
        .join(format!("{layer}.fgraph"))
}

/// The kernels of one layer run and the run's measured total (`heldout::layer_kernels`).
fn layer_kernels(layer: &str, mode: &str) -> (Vec<heldout::LayerKernel>, f64) {
    heldout::layer_kernels(rows(), &layer_path(layer), layer, mode)
}

// ---------------------------------------------------------------------------------------
// Accuracy.

fn points() -> Vec<Point> {
    let mut out = heldout::case_points(&heldout_cases(), DIR, Case::class);
    for layer in LAYERS {
        for mode in ["compiled", "eager"] {
            let (ks, total) = layer_kernels(layer, mode);
            let (mut h, mut c) = (0.0, 0.0);
            for k in &ks {
                let Some(p) = k.pred else { continue };
                h += p.time_us;
                c += p.comp_us;
                let label = format!("{layer} {mode} [{}] {}", k.ops, k.names[0]);
                if p.moved > 1_000_000 {
                    let key = format!("layers-{mode}/kernel-reads");
                    out.push(Point::new(key, label.clone(), k.read, p.read, p.comp_read));
                }
                if k.time_us > 20.0 {
                    let key = format!("layers-{mode}/kernel-time");
                    out.push(Point::new(key, label, k.time_us, p.time_us, p.comp_us));
                }
            }
            // The whole layer: the model over the kernels that ran (eager), or over
            // fgraph's own `--fuser inductor` plan (compiled; what `analyze` reports).
            if mode == "compiled" {
                let p = heldout::compiled_prediction(&layer_path(layer));
                h = p.iter().map(|p| p.time_us).sum();
                c = p.iter().map(|p| p.comp_us).sum();
            }
            out.push(Point::new(
                format!("layers-{mode}/graph-time"),
                format!("{layer} {mode}"),
                total,
                h,
                c,
            ));
        }
    }
    out
}

/// Every figure: the live model's and the pre-registered predictions' (`heldout::accuracy`).
fn accuracy() -> BTreeMap<String, Stats> {
    let pre = heldout::preregistered_points(DIR, rows(), &heldout_cases(), LAYERS, Case::class);
    heldout::accuracy(&points(), &pre)
}

// ---------------------------------------------------------------------------------------
// Tests.

#[test]
fn batch_d_is_complete_and_sound() {
    let held = heldout_cases();
    let fit = fit_cases();
    let count = |f: &dyn Fn(&Case) -> bool| held.iter().filter(|c| f(c)).count();
    assert_eq!(count(&|c| c.class().starts_with("gemm")), 50);
    assert_eq!(count(&|c| c.class() == "memory"), 25);
    assert_eq!(count(&|c| c.class() == "attention"), 8);
    assert_eq!(fit.len(), 36);
    for c in held.iter().chain(&fit) {
        assert!(c.time_us > 0.0 && c.dram_read > 0.0, "{}", c.case);
        assert!(c.graph(DIR).exists(), "{}", c.case);
    }
    // Every layer was measured both ways, and almost every eager kernel carries an op's name.
    for layer in LAYERS {
        for mode in ["compiled", "eager"] {
            let (ks, total) = layer_kernels(layer, mode);
            assert!(total > 0.0);
            let unnamed = ks.iter().filter(|k| k.pred.is_none()).count();
            assert!(unnamed <= 1, "{layer} {mode}: {unnamed} kernels of no op");
        }
    }
}

#[test]
fn hardware_model_keeps_its_batch_d_accuracy() {
    heldout::assert_keeps(&accuracy(), &heldout::recorded(DIR));
}

#[test]
fn hardware_model_beats_the_compulsory_model_on_time() {
    let now = accuracy();
    for what in [
        "heldout/gemm-time",
        "heldout/gemm-unaligned-time",
        "heldout/memory-time",
        "heldout/attention-time",
        "layers-compiled/kernel-time",
        "layers-eager/kernel-time",
        "layers-compiled/graph-time",
        "layers-eager/graph-time",
    ] {
        let (h, c) = (
            &now[&format!("hardware/{what}")],
            &now[&format!("compulsory/{what}")],
        );
        assert!(
            h.within >= c.within && h.median < c.median,
            "{what}: hardware {h:?} against compulsory {c:?}"
        );
    }
}

#[test]
#[ignore = "prints batch d's accuracy table and every miss"]
fn print_batch_d() {
    heldout::print_table_and_misses(&accuracy(), &points(), 70);
    println!("\nfit cases (not scored): case, kernels, reads MB, µs, model µs");
    for c in fit_cases() {
        let p = heldout::case_prediction(&c, DIR);
        println!(
            "  {:48} {} {:>9.1} {:>9.1} {:>9.1}",
            c.case,
            c.kernels.len(),
            c.dram_read / 1e6,
            c.time_us,
            p.time_us
        );
    }
}

#[test]
#[ignore = "writes validation/gpu/h100-heldout-d/accuracy.json from the live model"]
fn record_batch_d_accuracy() {
    heldout::record(DIR, &accuracy());
}

#[test]
#[ignore = "prints every kernel of batch d's layers with both models' predictions"]
fn print_batch_d_layers() {
    for layer in LAYERS {
        for mode in ["compiled", "eager"] {
            let (ks, total) = layer_kernels(layer, mode);
            println!("{layer} {mode}: measured {total:.1} µs");
            for k in &ks {
                let (h, c) = k
                    .pred
                    .map_or((f64::NAN, f64::NAN), |p| (p.time_us, p.comp_us));
                println!(
                    "  {:>8.1} µs  model {h:>8.1}  compulsory {c:>8.1}  [{}] {}",
                    k.time_us,
                    k.ops,
                    &k.names[0][..k.names[0].len().min(60)]
                );
            }
        }
    }
}
