//! The ranges every numeric field of a hardware file (and its `model` object) must lie in,
//! the check that names a field outside its range, and the checks of a whole model against
//! them (`HwModel::validate`, `Families::validate`; part of [`super`]: a hardware file is
//! untrusted input, so every coefficient is checked before it prices anything).

/// The range one numeric field of a hardware file must lie in: `lo` to `hi` in `unit`
/// (`lo` itself excluded where `lo_open`).
pub struct FieldRange {
    /// The field's key (the last part of its path; the `softmax_row_scale` entries are named).
    pub key: &'static str,
    pub lo: f64,
    pub lo_open: bool,
    pub hi: f64,
    pub unit: &'static str,
}

const fn range(key: &'static str, lo: f64, hi: f64, unit: &'static str) -> FieldRange {
    FieldRange {
        key,
        lo,
        lo_open: false,
        hi,
        unit,
    }
}

/// An efficiency or fraction: more than 0, at most 1.
const fn fraction(key: &'static str) -> FieldRange {
    FieldRange {
        key,
        lo: 0.0,
        lo_open: true,
        hi: 1.0,
        unit: "",
    }
}

/// More than `lo`, at most `hi` (a fitted coefficient whose whole range is plausible).
const fn open(key: &'static str, lo: f64, hi: f64, unit: &'static str) -> FieldRange {
    FieldRange {
        key,
        lo,
        lo_open: true,
        hi,
        unit,
    }
}

/// Steepness exponents (L2 hit curve, re-read curves, waves).
const EXPONENT: (f64, f64) = (0.01, 100.0);

/// Every numeric field of a hardware file (`--hardware-file`, the presets) and the
/// physically meaningful range it must lie in; a value outside, or not finite, is an error
/// that names the field, the value and the range. Every shipped preset lies well inside
/// (`src/cost/presets/*.json`: peaks 19.5–989 TFLOP/s, 2.0–4.8 TB/s, 80–141 GB of memory,
/// 40–50 MiB of L2, 108–132 SMs, launches 1.2–11 µs; H100 coefficients: exponents 0.25–8,
/// rates 1.2e11–1.8e12 elements/s, overheads 1–6 µs, factors 0.785–1.932, efficiencies
/// 0.16–0.99).
pub const RANGES: &[FieldRange] = &[
    // The GPU (`hardware.rs`).
    range("peak_tflops_f16", 0.001, 100_000.0, "TFLOP/s"),
    range("peak_tflops_f32", 0.001, 100_000.0, "TFLOP/s"),
    range("peak_tflops_f8", 0.001, 100_000.0, "TFLOP/s"),
    range("peak_tops_i8", 0.001, 100_000.0, "TOPS"),
    range("bandwidth_tb_s", 0.001, 1_000.0, "TB/s"),
    range("memory_gb", 0.001, 1e8, "GB"),
    range("l2_mib", 0.001, 16_384.0, "MiB"),
    range("sms", 1.0, 100_000.0, "SMs"),
    range("launch_graph_us", 0.0, 1e6, "µs"),
    range("launch_eager_us", 0.0, 1e6, "µs"),
    // The hardware model's coefficients (`model`).
    range("raster_width", 1.0, 100_000.0, "tiles"),
    range("l2_effective_bytes", 1024.0, 1.8e10, "bytes"),
    range("l2_hit_exponent", EXPONENT.0, EXPONENT.1, ""),
    fraction("mm_efficiency"),
    range("mm_k_half", 0.0, 1e6, ""),
    fraction("mm_bandwidth_efficiency"),
    range("mm_overhead_us", 0.0, 1e6, "µs"),
    range("norm_rows_per_s", 1e6, 1e13, "rows/s"),
    range("softmax_row_cols_per_s", 1e5, 1e13, "columns/s"),
    range("mm_wave_exponent", EXPONENT.0, EXPONENT.1, ""),
    fraction("mm_f32_efficiency"),
    fraction("mm_unaligned_efficiency"),
    fraction("tf32_peak_fraction"),
    fraction("efficiency"),
    range("kv_half", 0.0, 1e6, ""),
    range("head_dim_half", 0.0, 1e6, ""),
    range("head_dim_step", 1.0, 4096.0, ""),
    range("key_block", 1.0, 4096.0, ""),
    fraction("bandwidth_efficiency"),
    range("elements_per_s", 1e6, 1e16, "elements/s"),
    range("overhead_us", 0.0, 1e6, "µs"),
    range("memory_overhead_us", 0.0, 1e6, "µs"),
    range("softmax_row_scale cols", 1.0, 1e12, "columns"),
    range("softmax_row_scale factor", 0.001, 1_000.0, ""),
    range("passes", 0.001, 1_000.0, ""),
    range("row_bytes", 1.0, 1e15, "bytes"),
    range("row_exponent", EXPONENT.0, EXPONENT.1, ""),
    range("input_bytes", 1.0, 1e15, "bytes"),
    range("input_exponent", EXPONENT.0, EXPONENT.1, ""),
    // The conv family (`model.conv`, `conv.rs`).
    fraction("gemm_efficiency"),
    range("gemm_k_half", 0.0, 1e6, ""),
    range("gemm_overhead_us", 0.0, 1e6, "µs"),
    fraction("gemm_unaligned_efficiency"),
    range("taps_per_s", 1e6, 1e17, "taps/s"),
    range("flops_per_s", 1e6, 1e18, "FLOP/s"),
    range("direct_max_taps", 1.0, 1e9, "taps"),
    range("direct_max_out_channels", 1.0, 1e9, "channels"),
    fraction("gemm_3d_efficiency"),
    range("flops_per_sm_s", 1e6, 1e16, "FLOP/s"),
    range("min_taps_bf16", 0.0, 1e9, "taps"),
    range("min_taps_f16", 0.0, 1e9, "taps"),
    range("padded_copy_l2_bytes", 0.0, 1e12, "bytes"),
    range("sort_overhead_us", 0.0, 1e6, "µs"),
    range("sort_elements_per_s", 1e6, 1e16, "elements/s"),
    range("associative_row_flops_per_s", 1e3, 1e16, "FLOP/s"),
    range("block_us", 0.0, 1e6, "µs"),
    range("block_elements", 1.0, 1e9, "elements"),
    range("resident_blocks", 1.0, 1e9, "blocks"),
    range("chain_overhead_us", 0.0, 1e6, "µs"),
    range("row_chunk", 1.0, 1e6, "elements"),
    range("rows_per_s", 1e3, 1e16, "rows/s"),
    range("kept_per_s", 1e3, 1e16, "values/s"),
    range("sort_rows_per_s", 1e3, 1e16, "rows/s"),
    // The routing families (`memory.rs`, [`RoutingCoeffs`]).
    range("repeat_miss_bytes", 1.0, 1e15, "bytes"),
    range("repeat_miss_exponent", EXPONENT.0, EXPONENT.1, ""),
    range("index_add_miss_bytes", 1.0, 1e15, "bytes"),
    range("index_add_miss_exponent", EXPONENT.0, EXPONENT.1, ""),
    range("scan_row_elements_per_s", 1e3, 1e16, "elements/s"),
    // The low-precision GEMMs (`model.quant`, `quant.rs`).
    fraction("f8_efficiency"),
    fraction("i8_efficiency"),
    range("mm8_k_half", 0.0, 1e6, ""),
    range("dequant_per_s", 1e6, 1e17, "weights/s"),
    range("dequant_rows", 1.0, 1e6, "rows"),
    range("overlap", 0.0, 1.0, ""),
    // cuBLAS's split-K (`model.split_k`, [`super::SplitKCoeffs`]).
    range("min_k", 1.0, 1e9, ""),
    range("tile_m", 1.0, 1e6, ""),
    range("tile_n", 1.0, 1e6, ""),
    range("max_tiles_fraction", 0.001, 100.0, ""),
    range("k_per_split", 1.0, 1e9, ""),
    range("few_tiles_fraction", 0.001, 100.0, ""),
    range("min_work", 1.0, 1e12, ""),
    range("tile_n_16", 1.0, 1e6, ""),
    // The host's time per eager kernel (`model.host`, [`super::HostCoeffs`]).
    range("eager_us", 0.0, 1e6, "µs"),
    range("runtime_eager_us", 0.0, 1e6, "µs"),
    range("runtime_compile_us", 0.0, 1e6, "µs"),
    range("runtime_compile_conv_graph_us", 0.0, 1e6, "µs"),
    open("probe_us", 0.0, 1e3, "µs"),
    range("runtime_conv_eager_us", 0.0, 1e6, "µs"),
    range("runtime_conv_compile_us", 0.0, 1e6, "µs"),
    range("runtime_compile_input_us", 0.0, 1e4, "µs"),
    range("stream_discount_us", 0.0, 100.0, "µs"),
    range("graph_gap_us", 0.0, 100.0, "µs"),
    range("sustained_derate", 0.0, 2.0, ""),
    open("sustained_share", 0.0, 0.99, ""),
    fraction("warm_read_factor"),
    range("matmul_overlap_exponent", 0.1, 100.0, ""),
    fraction("matmul_resident_factor"),
    range("matmul_resident_exponent", 0.1, 100.0, ""),
    // The interconnect (`interconnect`, `crate::cost::comm`, issue 25).
    range("gpus_per_node", 1.0, 100_000.0, "GPUs"),
    range("nodes", 1.0, 100_000.0, "nodes"),
    range("link_gb_s", 0.01, 100_000.0, "GB/s"),
    fraction("link_efficiency"),
    // `interconnect.collectives.*` and the small-message term (issue 26's fit).
    open("bus_efficiency", 0.0, 2.0, ""),
    open("group_loss", -1.0, 1.0, ""),
    range("small_message_bytes", 0.0, 1e12, "bytes"),
    open("small_message_exponent", 0.0, 2.0, ""),
    range("link_latency_us", 0.0, 1e6, "µs"),
    range("base_latency_us", 0.0, 1e6, "µs"),
    range("network_gb_s", 0.01, 100_000.0, "GB/s"),
    fraction("network_efficiency"),
    range("network_latency_us", 0.0, 1e6, "µs"),
    fraction("nvls_efficiency"),
    range("nvls_latency_us", 0.0, 1e6, "µs"),
];

/// `v` when it lies in the [`RANGES`] entry `key`; otherwise a message naming the field as
/// `shown`, the value and the range.
pub fn check_range(key: &str, shown: &str, v: f64) -> Result<f64, String> {
    let Some(r) = RANGES.iter().find(|r| r.key == key) else {
        // Every caller names a key of the table (a unit test checks the presets reach them).
        return Err(format!("`{shown}` has no range (internal error)"));
    };
    let above_lo = if r.lo_open { v > r.lo } else { v >= r.lo };
    if above_lo && v <= r.hi {
        return Ok(v);
    }
    let unit = if r.unit.is_empty() {
        String::new()
    } else {
        format!(" {}", r.unit)
    };
    let (lo, hi) = (number(r.lo), number(r.hi));
    let must = if r.lo_open {
        format!("more than {lo} and at most {hi}{unit}")
    } else {
        format!("between {lo} and {hi}{unit}")
    };
    Err(format!("`{shown}` is {}; it must be {must}", number(v)))
}

/// `v` as a short number: plain where that is short, else with an exponent (1e-308).
fn number(v: f64) -> String {
    if v == 0.0 || !v.is_finite() || (1e-4..1e7).contains(&v.abs()) {
        format!("{v}")
    } else {
        format!("{v:e}")
    }
}

impl super::Families {
    /// Every family's coefficients within their ranges (`model.families.NAME.KEY`).
    pub(super) fn validate(&self) -> Result<(), String> {
        let f = self;
        let optional = [
            ("scalar", f.scalar),
            ("layout_copy", f.layout_copy),
            ("pool", f.pool),
            ("pool_global_channels_last", f.pool_global_channels_last),
            ("group_norm", f.group_norm),
            ("copy_eager", f.copy_eager),
            ("copy_generated", f.copy_generated),
            ("copy_transpose", f.copy_transpose),
            ("batch_norm_channels_last", f.batch_norm_channels_last),
            (
                "batch_norm_channels_last_dram",
                f.batch_norm_channels_last_dram,
            ),
            (
                "batch_norm_cudnn_channels_last",
                f.batch_norm_cudnn_channels_last,
            ),
            ("group_norm_strided", f.group_norm_strided),
            ("softmax_looped", f.softmax_looped),
            ("softmax_looped_masked", f.softmax_looped_masked),
            ("cat", f.cat),
        ]
        .into_iter()
        .filter_map(|(k, c)| Some((k, c?)));
        for (name, c) in [
            ("elementwise", f.elementwise),
            ("reduction", f.reduction),
            ("softmax", f.softmax),
            ("norm", f.norm),
        ]
        .into_iter()
        .chain(optional)
        {
            for (k, v) in [
                ("bandwidth_efficiency", c.bandwidth_efficiency),
                ("elements_per_s", c.elements_per_s),
                ("overhead_us", c.overhead_us),
            ] {
                check_range(k, &format!("model.families.{name}.{k}"), v)?;
            }
        }
        Ok(())
    }
}

impl super::HwModel {
    /// Checks every coefficient lies in its range of [`RANGES`] (finite, physically
    /// meaningful) and that `softmax_row_scale`'s columns ascend.
    pub fn validate(&self) -> Result<(), String> {
        let check = |key: &str, v: f64| check_range(key, &format!("model.{key}"), v).map(drop);
        check("raster_width", self.raster_width)?;
        check("l2_effective_bytes", self.l2_effective_bytes)?;
        check("l2_hit_exponent", self.l2_hit_exponent)?;
        check("mm_efficiency", self.mm_efficiency)?;
        check("mm_k_half", self.mm_k_half)?;
        check("mm_bandwidth_efficiency", self.mm_bandwidth_efficiency)?;
        check("mm_overhead_us", self.mm_overhead_us)?;
        check("mm_wave_exponent", self.mm_wave_exponent)?;
        check("mm_f32_efficiency", self.mm_f32_efficiency)?;
        check("tf32_peak_fraction", self.tf32_peak_fraction)?;
        if let Some(r) = self.norm_rows_per_s {
            check("norm_rows_per_s", r)?;
        }
        if let Some(r) = self.softmax_row_cols_per_s {
            check("softmax_row_cols_per_s", r)?;
        }
        if let Some(e) = self.mm_unaligned_efficiency {
            check("mm_unaligned_efficiency", e)?;
        }
        let attention = std::iter::once(("attention".to_string(), &self.attention)).chain(
            self.attention_kernels
                .iter()
                .map(|(name, a)| (format!("attention_kernels.{name}"), a)),
        );
        for (key, a) in attention {
            for (k, v) in [
                ("efficiency", a.efficiency),
                ("kv_half", a.kv_half),
                ("head_dim_half", a.head_dim_half),
                ("memory_overhead_us", a.memory_overhead_us),
            ] {
                check_range(k, &format!("model.{key}.{k}"), v)?;
            }
            for (k, v) in [
                ("head_dim_step", a.head_dim_step),
                ("key_block", a.key_block),
            ] {
                if let Some(v) = v {
                    check_range(k, &format!("model.{key}.{k}"), v)?;
                }
            }
        }
        let mut last = 0.0;
        for (i, &[cols, rate, bw]) in self.softmax_row_scale.iter().enumerate() {
            for (k, v) in [
                ("softmax_row_scale cols", cols),
                ("softmax_row_scale factor", rate),
                ("softmax_row_scale factor", bw),
            ] {
                check_range(k, &format!("model.softmax_row_scale[{i}]"), v)?;
            }
            if cols <= last {
                return Err(format!(
                    "`model.softmax_row_scale` must hold [cols, rate factor, bandwidth factor] \
                     triples, cols ascending; found [{cols}, {rate}, {bw}] after cols {last}"
                ));
            }
            last = cols;
        }
        for (key, r) in [
            ("norm_reread", &self.norm_reread),
            ("softmax_reread", &self.softmax_reread),
        ] {
            let Some(r) = r else { continue };
            for (k, v) in [
                ("passes", r.passes),
                ("row_bytes", r.row_bytes),
                ("row_exponent", r.row_exponent),
                ("input_bytes", r.input_bytes),
                ("input_exponent", r.input_exponent),
            ] {
                check_range(k, &format!("model.{key}.{k}"), v)?;
            }
        }
        if let Some(c) = &self.conv {
            c.validate()?;
        }
        if let Some(r) = &self.routing {
            r.validate()?;
        }
        if let Some(s) = &self.scan {
            s.validate()?;
        }
        if let Some(q) = &self.quant {
            q.validate()?;
        }
        self.validate_decode()?;
        self.families.validate()
    }
}
