//! GPUs the cost model knows: dense peak throughput, HBM bandwidth, L2, SMs, the cost of
//! launching a kernel and, where a GPU was calibrated, the hardware model's coefficients.
//! Users describe other GPUs in a small JSON file ([`Hardware::from_json`], [`HardwareFile`]);
//! the presets are files of the same format under `presets/` (`presets/h100.json`, …),
//! compiled in, each carrying its sources, and parsed the first time one is used.

use super::hwmodel::{HwModel, check_range};
use crate::types::Dtype;
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// How kernels are launched, which decides the fixed cost added to every kernel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum LaunchMode {
    /// Replayed from a CUDA graph: the GPU-side cost of a launch (the default).
    #[default]
    Graph,
    /// Launched one by one from PyTorch eager: host-side dispatch included.
    Eager,
}

impl LaunchMode {
    pub fn as_str(self) -> &'static str {
        match self {
            LaunchMode::Graph => "graph",
            LaunchMode::Eager => "eager",
        }
    }
}

/// Which peak a piece of arithmetic runs at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Unit {
    /// Tensor cores on 16-bit (f16, bf16) operands (and `bool`): the dense 16-bit figure.
    Tensor16,
    /// f32 and other 4- and 8-byte types, and all non-matmul math (which GPU kernels compute
    /// in f32 on the CUDA cores): the f32 figure.
    F32,
    /// Tensor cores on 8-bit float operands (`fp8`, `f8e4m3`, `f8e5m2`): the dense FP8
    /// figure (issue 23), or the 16-bit one on a GPU without FP8 ([`Hardware::peak_f8`]).
    TensorF8,
    /// Tensor cores on 8-bit integer operands (`i8`, `u8`): the dense INT8 figure (TOPS), or
    /// the 16-bit one on a GPU whose description gives none ([`Hardware::peak_i8`]).
    TensorI8,
}

impl Unit {
    /// The unit a matmul with operands of `dtype` runs on.
    pub fn for_matmul(dtype: Dtype) -> Unit {
        match dtype {
            Dtype::Fp8 | Dtype::F8e4m3 | Dtype::F8e5m2 => Unit::TensorF8,
            Dtype::I8 | Dtype::U8 => Unit::TensorI8,
            Dtype::Bool => Unit::Tensor16,
            d => Unit::for_matmul_bytes(d.bytes()),
        }
    }

    /// The unit a matmul with operands of `bytes` per element runs on, when only the width
    /// is known: 1-byte operands are taken as 8-bit floats.
    pub fn for_matmul_bytes(bytes: u64) -> Unit {
        match bytes {
            1 => Unit::TensorF8,
            2 => Unit::Tensor16,
            _ => Unit::F32,
        }
    }

    /// Whether the unit is one of the 8-bit tensor-core rates.
    pub fn is_8bit(self) -> bool {
        matches!(self, Unit::TensorF8 | Unit::TensorI8)
    }
}

/// One GPU. Rates are per second; all figures are dense (never the 2:4-sparsity ones).
#[derive(Clone, Debug, PartialEq)]
pub struct Hardware {
    /// Preset name or the file's `name`.
    pub name: String,
    pub description: String,
    /// Where the figures come from.
    pub source: String,
    /// Dense tensor-core FLOP/s for f16/bf16.
    pub peak_f16: f64,
    /// FLOP/s for f32 and for non-matmul math.
    pub peak_f32: f64,
    /// Dense tensor-core FLOP/s for 8-bit floats (FP8, e4m3 and e5m2); `None` for a GPU
    /// without FP8 tensor cores (the A100) or a hardware file that gives none: FP8 matmuls
    /// are then priced at the 16-bit peak (what running them upcast to 16 bits costs), and
    /// the report says so.
    pub peak_f8: Option<f64>,
    /// Dense tensor-core OP/s for 8-bit integers (INT8 TOPS); `None`: the 16-bit peak, as
    /// for FP8.
    pub peak_i8: Option<f64>,
    /// HBM bandwidth, bytes per second.
    pub bandwidth: f64,
    /// GPU memory (HBM capacity) in bytes, 10^9 per GB (`memory_gb`); `None`: the file gives
    /// none, and the memory report (`analyze --memory`) cannot say whether the graph fits.
    pub memory_bytes: Option<u64>,
    /// L2 cache in bytes (informational: the model has no cache).
    pub l2_bytes: Option<u64>,
    pub sms: Option<u32>,
    /// Seconds added per kernel replayed from a CUDA graph.
    pub launch_graph: f64,
    /// Seconds added per kernel launched from PyTorch eager.
    pub launch_eager: f64,
    /// The hardware model's coefficients (`--traffic-model hardware`), where this GPU has
    /// been calibrated.
    pub model: Option<HwModel>,
    /// How this GPU reaches the others (issue 25, [`super::comm`]): NVLink or PCIe within its
    /// node, the network across nodes; `None`: collectives cannot be priced.
    pub interconnect: Option<super::comm::Interconnect>,
}

/// Launch costs measured on an H100 (../shared/gpu/README.md): ~1.2 µs per kernel replayed
/// from a CUDA graph, ~11 µs per kernel from PyTorch eager. No datasheet gives one, so every
/// preset's file gives these, and a hardware file that gives none gets them.
pub const MEASURED_LAUNCH_GRAPH: f64 = 1.2e-6;
pub const MEASURED_LAUNCH_EAGER: f64 = 11e-6;

const MIB: u64 = 1024 * 1024;

/// The presets, in display order: each a hardware file under `src/cost/presets/`, compiled in
/// and read through [`Hardware::from_json`] like `--hardware-file` (one schema). Each file is
/// what `fgraph hardware NAME --format json` prints, datasheet figures and hardware-model
/// coefficients with their sources; the tests in this module parse and check every one, so
/// reading a preset cannot fail in a build that passed them.
const PRESETS: [(&str, &str); 5] = [
    ("a100", include_str!("presets/a100.json")),
    ("h100", include_str!("presets/h100.json")),
    ("h200", include_str!("presets/h200.json")),
    ("h100-measured", include_str!("presets/h100-measured.json")),
    ("h100-2x8", include_str!("presets/h100-2x8.json")),
];

/// Each preset, parsed the first time it is asked for.
static PARSED: [OnceLock<Hardware>; PRESETS.len()] = [const { OnceLock::new() }; PRESETS.len()];

/// The names of the presets, in display order.
pub const PRESET_NAMES: &[&str] = &{
    let mut names = [""; PRESETS.len()];
    let mut i = 0;
    while i < PRESETS.len() {
        names[i] = PRESETS[i].0;
        i += 1;
    }
    names
};

/// The default preset.
pub const DEFAULT_PRESET: &str = "h100";

impl Hardware {
    /// The presets, in [`PRESET_NAMES`] order.
    pub fn presets() -> Vec<Hardware> {
        PRESET_NAMES
            .iter()
            .filter_map(|n| Hardware::preset(n))
            .collect()
    }

    /// A preset by name (case-insensitive).
    pub fn preset(name: &str) -> Option<Hardware> {
        let i = PRESETS
            .iter()
            .position(|(n, _)| n.eq_ignore_ascii_case(name))?;
        Some(PARSED[i].get_or_init(|| parse_preset(i)).clone())
    }

    /// The peak of `unit`, FLOP/s.
    pub fn peak(&self, unit: Unit) -> f64 {
        match unit {
            Unit::Tensor16 => self.peak_f16,
            Unit::F32 => self.peak_f32,
            Unit::TensorF8 => self.peak_f8.unwrap_or(self.peak_f16),
            Unit::TensorI8 => self.peak_i8.unwrap_or(self.peak_f16),
        }
    }

    /// Whether `unit` is an 8-bit rate this GPU's description does not give, so that it is
    /// priced at the 16-bit peak ([`Hardware::peak`]).
    pub fn lacks(&self, unit: Unit) -> bool {
        match unit {
            Unit::TensorF8 => self.peak_f8.is_none(),
            Unit::TensorI8 => self.peak_i8.is_none(),
            Unit::Tensor16 | Unit::F32 => false,
        }
    }

    /// The ridge point of `unit`: the arithmetic intensity (FLOP/byte) above which a kernel
    /// that runs at that peak is compute-bound.
    pub fn ridge(&self, unit: Unit) -> f64 {
        self.peak(unit) / self.bandwidth
    }

    /// Seconds added to every kernel under `mode`.
    pub fn launch(&self, mode: LaunchMode) -> f64 {
        match mode {
            LaunchMode::Graph => self.launch_graph,
            LaunchMode::Eager => self.launch_eager,
        }
    }

    /// Reads a hardware file (see [`HardwareFile`]).
    pub fn from_json(text: &str) -> Result<Hardware, String> {
        let f: HardwareFile = serde_json::from_str(text).map_err(|e| e.to_string())?;
        f.validate()
    }

    /// This GPU as a hardware file, ready to edit.
    pub fn to_file(&self) -> HardwareFile {
        HardwareFile {
            name: self.name.clone(),
            description: Some(self.description.clone()),
            source: Some(self.source.clone()),
            peak_tflops_f16: self.peak_f16 / 1e12,
            peak_tflops_f32: self.peak_f32 / 1e12,
            peak_tflops_f8: self.peak_f8.map(|p| p / 1e12),
            peak_tops_i8: self.peak_i8.map(|p| p / 1e12),
            bandwidth_tb_s: self.bandwidth / 1e12,
            memory_gb: self.memory_bytes.map(|b| b as f64 / 1e9),
            l2_mib: self.l2_bytes.map(|b| b as f64 / MIB as f64),
            sms: self.sms,
            launch_graph_us: Some(self.launch_graph * 1e6),
            launch_eager_us: Some(self.launch_eager * 1e6),
            model: self.model.clone(),
            interconnect: self.interconnect.clone(),
        }
    }
}

/// The `--hardware-file` format (JSON). Unknown keys are an error, so a typo is not silently
/// ignored.
///
/// ```
/// let hw = fgraph::cost::Hardware::from_json(r#"{
///     "name": "my-gpu", "peak_tflops_f16": 400, "peak_tflops_f32": 50,
///     "bandwidth_tb_s": 2.0, "launch_graph_us": 2.0
/// }"#).unwrap();
/// assert_eq!(hw.ridge(fgraph::cost::Unit::Tensor16), 200.0);
/// ```
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HardwareFile {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Dense tensor-core TFLOP/s for f16/bf16.
    pub peak_tflops_f16: f64,
    /// TFLOP/s for f32 and non-matmul math.
    pub peak_tflops_f32: f64,
    /// Dense tensor-core TFLOP/s for FP8 (e4m3, e5m2); absent: the GPU has no FP8 tensor
    /// cores, and FP8 matmuls are priced at `peak_tflops_f16` (the report says so).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peak_tflops_f8: Option<f64>,
    /// Dense tensor-core TOPS for INT8; absent: INT8 matmuls are priced at
    /// `peak_tflops_f16` (the report says so).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peak_tops_i8: Option<f64>,
    /// HBM bandwidth in TB/s (10^12 bytes per second).
    pub bandwidth_tb_s: f64,
    /// GPU memory in GB (10^9 bytes): the capacity `analyze --memory` checks a graph against;
    /// absent: not checked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_gb: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub l2_mib: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sms: Option<u32>,
    /// Microseconds per kernel from a CUDA graph; default: the H100 measurement, 1.2.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub launch_graph_us: Option<f64>,
    /// Microseconds per kernel from PyTorch eager; default: the H100 measurement, 11.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub launch_eager_us: Option<f64>,
    /// The hardware model's coefficients (docs/cost-model.md, "The hardware model"); a GPU
    /// without them can still be analysed with `--traffic-model compulsory`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<HwModel>,
    /// The interconnect (docs/cost-model.md, "Communication"): what the graph's collectives
    /// are priced on; a GPU without one cannot price them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interconnect: Option<super::comm::Interconnect>,
}

impl HardwareFile {
    /// Checks every number lies in its range of [`RANGES`](super::hwmodel::RANGES) (finite, physically meaningful:
    /// a bandwidth of 1e-308 TB/s is no GPU) and converts to base units.
    fn validate(self) -> Result<Hardware, String> {
        let check = |key: &str, v: f64| check_range(key, key, v);
        // Launch costs in µs, to seconds; a file that gives none gets the H100 measurement.
        let launch = |key: &str, v: Option<f64>, default: f64| match v {
            None => Ok::<f64, String>(default),
            Some(v) => Ok(check(key, v)? * 1e-6),
        };
        if self.name.trim().is_empty() {
            return Err("`name` must not be empty".into());
        }
        let peak_f16 = check("peak_tflops_f16", self.peak_tflops_f16)? * 1e12;
        let peak_f32 = check("peak_tflops_f32", self.peak_tflops_f32)? * 1e12;
        let peak_f8 = match self.peak_tflops_f8 {
            None => None,
            Some(v) => Some(check("peak_tflops_f8", v)? * 1e12),
        };
        let peak_i8 = match self.peak_tops_i8 {
            None => None,
            Some(v) => Some(check("peak_tops_i8", v)? * 1e12),
        };
        let bandwidth = check("bandwidth_tb_s", self.bandwidth_tb_s)? * 1e12;
        let memory_bytes = match self.memory_gb {
            None => None,
            // At most 10^8 GB (the range): the product fits 64 bits.
            Some(v) => Some((check("memory_gb", v)? * 1e9).round() as u64),
        };
        let l2_bytes = match self.l2_mib {
            None => None,
            Some(v) => Some((check("l2_mib", v)? * MIB as f64) as u64),
        };
        if let Some(sms) = self.sms {
            check("sms", f64::from(sms))?;
        }
        let launch_graph = launch(
            "launch_graph_us",
            self.launch_graph_us,
            MEASURED_LAUNCH_GRAPH,
        )?;
        let launch_eager = launch(
            "launch_eager_us",
            self.launch_eager_us,
            MEASURED_LAUNCH_EAGER,
        )?;
        if let Some(m) = &self.model {
            m.validate()?;
        }
        if let Some(ic) = &self.interconnect {
            ic.validate()?;
        }
        Ok(Hardware {
            description: self.description.unwrap_or_else(|| self.name.clone()),
            source: self.source.unwrap_or_else(|| "hardware file".into()),
            peak_f16,
            peak_f32,
            peak_f8,
            peak_i8,
            bandwidth,
            memory_bytes,
            l2_bytes,
            sms: self.sms,
            launch_graph,
            launch_eager,
            model: self.model,
            interconnect: self.interconnect,
            name: self.name,
        })
    }
}

/// Preset `i` of [`PRESETS`]. The tests below parse every preset, so this cannot fail in a
/// build that passed them.
fn parse_preset(i: usize) -> Hardware {
    let (name, text) = PRESETS[i];
    Hardware::from_json(text)
        .unwrap_or_else(|e| panic!("preset `{name}` (src/cost/presets/{name}.json): {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cost::hwmodel::RANGES;

    /// Every preset file parses and validates under its own name, and is exactly what `fgraph
    /// hardware NAME --format json` prints for it (so its numbers round-trip unchanged).
    #[test]
    fn every_preset_file_parses_and_is_what_fgraph_hardware_prints() {
        for (i, &(name, text)) in PRESETS.iter().enumerate() {
            let hw = Hardware::from_json(text).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(hw.name, name);
            assert_eq!(parse_preset(i), hw);
            assert_eq!(
                Hardware::preset(&name.to_ascii_uppercase()),
                Some(hw.clone())
            );
            let printed = serde_json::to_string_pretty(&hw.to_file()).expect("json") + "\n";
            assert_eq!(printed, text, "src/cost/presets/{name}.json");
        }
        assert_eq!(
            PRESET_NAMES,
            ["a100", "h100", "h200", "h100-measured", "h100-2x8"]
        );
        assert!(Hardware::preset(DEFAULT_PRESET).is_some());
    }

    /// Every file under `src/cost/presets/` is a preset, and the calibrated ones are those
    /// the CLI names when `--traffic-model hardware` meets a GPU without coefficients.
    #[test]
    fn every_preset_file_is_listed_and_the_calibrated_ones_are_h100s() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/cost/presets");
        let mut files: Vec<String> = std::fs::read_dir(&dir)
            .expect("src/cost/presets")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        files.sort();
        let mut listed: Vec<String> = PRESET_NAMES.iter().map(|n| format!("{n}.json")).collect();
        listed.sort();
        assert_eq!(files, listed);
        let calibrated: Vec<String> = Hardware::presets()
            .into_iter()
            .filter(|h| h.model.is_some())
            .map(|h| h.name)
            .collect();
        assert_eq!(calibrated, ["h100", "h100-measured", "h100-2x8"]);
    }

    /// `h100-2x8` is the `h100` preset on two nodes (issue 25): the same GPU and coefficients,
    /// so a refit of the h100's must be copied there too.
    #[test]
    fn the_two_node_preset_is_the_h100_on_two_nodes() {
        let (one, two) = (
            Hardware::preset("h100").expect("h100"),
            Hardware::preset("h100-2x8").expect("h100-2x8"),
        );
        let (a, b) = (
            one.interconnect.clone().expect("node"),
            two.interconnect.clone().expect("nodes"),
        );
        assert_eq!((a.nodes, b.nodes), (1, 2));
        let same = Hardware {
            name: one.name.clone(),
            description: one.description.clone(),
            interconnect: Some(super::super::comm::Interconnect {
                nodes: 1,
                description: a.description.clone(),
                ..b
            }),
            ..two
        };
        assert_eq!(same, one);
        for h in Hardware::presets() {
            assert!(h.interconnect.is_some(), "{}", h.name);
        }
    }
    /// Each numeric leaf of a hardware file's JSON: its [`RANGES`] key, the name a message
    /// shows, its JSON path (object keys and array indices) and its value.
    fn numeric_leaves(v: &serde_json::Value) -> Vec<(String, String, Vec<String>, f64)> {
        fn walk(
            v: &serde_json::Value,
            path: &mut Vec<String>,
            out: &mut Vec<(String, String, Vec<String>, f64)>,
        ) {
            match v {
                serde_json::Value::Object(m) => {
                    for (k, x) in m {
                        path.push(k.clone());
                        walk(x, path, out);
                        path.pop();
                    }
                }
                serde_json::Value::Array(a) => {
                    for (i, x) in a.iter().enumerate() {
                        path.push(i.to_string());
                        walk(x, path, out);
                        path.pop();
                    }
                }
                serde_json::Value::Number(n) => {
                    let x = n.as_f64().expect("number");
                    let (key, shown) =
                        if path.starts_with(&["model".into(), "softmax_row_scale".into()]) {
                            let key = if path[3] == "0" { "cols" } else { "factor" };
                            (
                                format!("softmax_row_scale {key}"),
                                format!("model.softmax_row_scale[{}]", path[2]),
                            )
                        } else {
                            (path.last().expect("key").clone(), path.join("."))
                        };
                    out.push((key, shown, path.clone(), x));
                }
                _ => {}
            }
        }
        let mut out = Vec::new();
        walk(v, &mut Vec::new(), &mut out);
        out
    }

    /// The integer fields of a hardware file.
    const INTEGER_KEYS: &[&str] = &["sms", "gpus_per_node", "nodes"];

    fn range_of(key: &str) -> &'static crate::cost::hwmodel::FieldRange {
        RANGES
            .iter()
            .find(|r| r.key == key)
            .unwrap_or_else(|| panic!("`{key}` has no range in RANGES"))
    }

    /// Every numeric field of every preset has a range, lies inside it with a wide margin
    /// (a factor of 10 from each bound; an efficiency only needs to be at most 1), and every
    /// range is some preset's field.
    #[test]
    fn every_preset_lies_well_inside_the_ranges_and_every_range_is_used() {
        let mut used = std::collections::BTreeSet::new();
        for (name, text) in PRESETS {
            let v: serde_json::Value = serde_json::from_str(text).expect("json");
            for (key, shown, _, x) in numeric_leaves(&v) {
                let r = range_of(&key);
                used.insert(r.key);
                // Counts (GPUs per node, nodes) may be as small as their lower bound.
                let low_ok = if r.lo > 0.0 && !INTEGER_KEYS.contains(&key.as_str()) {
                    x >= 10.0 * r.lo
                } else {
                    x >= r.lo
                };
                let high_ok = if r.lo_open {
                    x <= r.hi
                } else {
                    x <= r.hi / 10.0
                };
                assert!(
                    low_ok && high_ok,
                    "{name}: `{shown}` = {x} is near its range's bounds"
                );
            }
        }
        let unused: Vec<&str> = RANGES
            .iter()
            .map(|r| r.key)
            .filter(|k| !used.contains(k))
            .collect();
        assert!(unused.is_empty(), "ranges no preset field uses: {unused:?}");
    }

    /// Each numeric field of the fullest preset, set just outside its range on either side, is
    /// rejected with a message that names the field, the value and the range.
    #[test]
    fn every_field_outside_its_range_is_rejected_by_name() {
        let text = PRESETS[3].1;
        let base: serde_json::Value = serde_json::from_str(text).expect("json");
        for (key, shown, path, _) in numeric_leaves(&base) {
            let r = range_of(&key);
            let below = if r.lo > 0.0 { r.lo / 10.0 } else { -1.0 };
            let below = if r.lo_open { r.lo } else { below };
            for bad in [below, r.hi * 10.0, 1e308, -1e308, 1e-308] {
                if bad >= r.lo && bad <= r.hi && !(r.lo_open && bad == r.lo) {
                    continue;
                }
                let mut v = base.clone();
                let mut at = &mut v;
                for p in &path {
                    at = match at {
                        serde_json::Value::Array(a) => &mut a[p.parse::<usize>().expect("index")],
                        other => &mut other[p.as_str()],
                    };
                }
                *at = if INTEGER_KEYS.contains(&key.as_str()) {
                    // An integer field: only integers parse.
                    if bad < r.lo {
                        0.into()
                    } else {
                        1_000_000.into()
                    }
                } else {
                    serde_json::json!(bad)
                };
                let e = Hardware::from_json(&v.to_string()).expect_err(&format!("{shown} = {bad}"));
                assert!(
                    e.starts_with(&format!("`{shown}` is ")) && e.contains("; it must be "),
                    "{shown} = {bad}: {e}"
                );
            }
        }
    }

    /// 8-bit matmuls run at the 8-bit rates of the datasheets; a GPU without one (the A100's
    /// FP8, a hardware file that gives none) prices them at its 16-bit peak.
    #[test]
    fn eight_bit_units_take_their_own_peak_or_the_16_bit_one() {
        assert_eq!(Unit::for_matmul(Dtype::F8e4m3), Unit::TensorF8);
        assert_eq!(Unit::for_matmul(Dtype::Fp8), Unit::TensorF8);
        assert_eq!(Unit::for_matmul(Dtype::I8), Unit::TensorI8);
        assert_eq!(Unit::for_matmul(Dtype::Bf16), Unit::Tensor16);
        assert_eq!(Unit::for_matmul(Dtype::F32), Unit::F32);
        let h100 = Hardware::preset("h100").expect("h100");
        assert_eq!(h100.peak(Unit::TensorF8), 1979e12);
        assert_eq!(h100.peak(Unit::TensorI8), 1979e12);
        assert_eq!(
            h100.peak(Unit::TensorF8),
            2.0 * h100.peak(Unit::Tensor16) + 1e12
        );
        let a100 = Hardware::preset("a100").expect("a100");
        assert!(a100.lacks(Unit::TensorF8) && !a100.lacks(Unit::TensorI8));
        assert_eq!(a100.peak(Unit::TensorF8), 312e12);
        assert_eq!(a100.peak(Unit::TensorI8), 624e12);
        let file = Hardware::from_json(
            r#"{"name": "g", "peak_tflops_f16": 400, "peak_tflops_f32": 50, "bandwidth_tb_s": 2}"#,
        )
        .expect("file");
        assert!(file.lacks(Unit::TensorF8) && file.lacks(Unit::TensorI8));
        assert_eq!(file.peak(Unit::TensorI8), 400e12);
        assert!(Hardware::from_json(
            r#"{"name": "g", "peak_tflops_f16": 400, "peak_tflops_f32": 50, "bandwidth_tb_s": 2, "peak_tflops_f8": 0}"#
        )
        .is_err());
    }

    #[test]
    fn range_messages_name_the_field_the_value_and_the_range() {
        let file = |bw: &str| {
            format!(
                r#"{{"name": "g", "peak_tflops_f16": 400, "peak_tflops_f32": 50,
                    "bandwidth_tb_s": {bw}}}"#
            )
        };
        let e = Hardware::from_json(&file("1e-308")).expect_err("tiny");
        assert_eq!(
            e,
            "`bandwidth_tb_s` is 1e-308; it must be between 0.001 and 1000 TB/s"
        );
        let e = Hardware::from_json(&file("1e308")).expect_err("huge");
        assert_eq!(
            e,
            "`bandwidth_tb_s` is 1e308; it must be between 0.001 and 1000 TB/s"
        );
        let e = Hardware::from_json(&file("0")).expect_err("zero");
        assert_eq!(
            e,
            "`bandwidth_tb_s` is 0; it must be between 0.001 and 1000 TB/s"
        );
        // Non-finite numbers cannot be written in JSON, and are rejected all the same.
        assert!(Hardware::from_json(&file("1e400")).is_err());
        let e = check_range("mm_efficiency", "model.mm_efficiency", f64::NAN).expect_err("NaN");
        assert_eq!(
            e,
            "`model.mm_efficiency` is NaN; it must be more than 0 and at most 1"
        );
        let e = check_range("launch_eager_us", "launch_eager_us", f64::INFINITY).expect_err("inf");
        assert_eq!(
            e,
            "`launch_eager_us` is inf; it must be between 0 and 1000000 µs"
        );
        // The bounds themselves are accepted (an efficiency's 0 aside).
        assert!(Hardware::from_json(&file("0.001")).is_ok());
        assert!(Hardware::from_json(&file("1000")).is_ok());
        assert!(check_range("mm_efficiency", "e", 1.0).is_ok());
        assert!(check_range("mm_efficiency", "e", 0.0).is_err());
    }
}
