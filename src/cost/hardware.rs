//! GPUs the cost model knows: dense peak throughput, HBM bandwidth, L2, SMs, the cost of
//! launching a kernel and, where a GPU was calibrated, the hardware model's coefficients.
//! Users describe other GPUs in a small JSON file ([`Hardware::from_json`], [`HardwareFile`]);
//! the presets are files of the same format under `presets/` (`presets/h100.json`, …),
//! compiled in, each carrying its sources, and parsed the first time one is used.

use super::hwmodel::HwModel;
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
    /// Tensor cores on 16-bit (f16, bf16) and 8-bit operands: the dense 16-bit figure.
    Tensor16,
    /// f32 and other 4- and 8-byte types, and all non-matmul math (which GPU kernels compute
    /// in f32 on the CUDA cores): the f32 figure.
    F32,
}

impl Unit {
    /// The unit a matmul with operands of `dtype` runs on.
    pub fn for_matmul(dtype: Dtype) -> Unit {
        Unit::for_matmul_bytes(dtype.bytes())
    }

    /// The unit a matmul with operands of `bytes` per element runs on.
    pub fn for_matmul_bytes(bytes: u64) -> Unit {
        if bytes <= 2 {
            Unit::Tensor16
        } else {
            Unit::F32
        }
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
    /// Dense tensor-core FLOP/s for f16/bf16 (also used for 8-bit types).
    pub peak_f16: f64,
    /// FLOP/s for f32 and for non-matmul math.
    pub peak_f32: f64,
    /// HBM bandwidth, bytes per second.
    pub bandwidth: f64,
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
const PRESETS: [(&str, &str); 4] = [
    ("a100", include_str!("presets/a100.json")),
    ("h100", include_str!("presets/h100.json")),
    ("h200", include_str!("presets/h200.json")),
    ("h100-measured", include_str!("presets/h100-measured.json")),
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
            bandwidth_tb_s: self.bandwidth / 1e12,
            l2_mib: self.l2_bytes.map(|b| b as f64 / MIB as f64),
            sms: self.sms,
            launch_graph_us: Some(self.launch_graph * 1e6),
            launch_eager_us: Some(self.launch_eager * 1e6),
            model: self.model.clone(),
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
    /// Dense tensor-core TFLOP/s for f16/bf16 (used for 8-bit types too).
    pub peak_tflops_f16: f64,
    /// TFLOP/s for f32 and non-matmul math.
    pub peak_tflops_f32: f64,
    /// HBM bandwidth in TB/s (10^12 bytes per second).
    pub bandwidth_tb_s: f64,
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
}

impl HardwareFile {
    fn validate(self) -> Result<Hardware, String> {
        // Positive, and still finite once scaled to base units.
        let positive = |key: &str, v: f64| {
            if v.is_finite() && v > 0.0 && (v * 1e12).is_finite() && v * 1e-6 > 0.0 {
                Ok(v)
            } else {
                Err(format!("`{key}` must be a positive number, found {v}"))
            }
        };
        let non_negative = |key: &str, v: Option<f64>, default: f64| match v {
            None => Ok(default),
            Some(v) if v.is_finite() && v >= 0.0 => Ok(v * 1e-6),
            Some(v) => Err(format!("`{key}` must be zero or more, found {v}")),
        };
        if self.name.trim().is_empty() {
            return Err("`name` must not be empty".into());
        }
        if let Some(m) = &self.model {
            m.validate()?;
        }
        let l2_bytes = match self.l2_mib {
            None => None,
            Some(v) => Some((positive("l2_mib", v)? * MIB as f64).min(u64::MAX as f64) as u64),
        };
        Ok(Hardware {
            description: self.description.unwrap_or_else(|| self.name.clone()),
            source: self.source.unwrap_or_else(|| "hardware file".into()),
            peak_f16: positive("peak_tflops_f16", self.peak_tflops_f16)? * 1e12,
            peak_f32: positive("peak_tflops_f32", self.peak_tflops_f32)? * 1e12,
            bandwidth: positive("bandwidth_tb_s", self.bandwidth_tb_s)? * 1e12,
            l2_bytes,
            sms: self.sms,
            launch_graph: non_negative(
                "launch_graph_us",
                self.launch_graph_us,
                MEASURED_LAUNCH_GRAPH,
            )?,
            launch_eager: non_negative(
                "launch_eager_us",
                self.launch_eager_us,
                MEASURED_LAUNCH_EAGER,
            )?,
            model: self.model,
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
        assert_eq!(PRESET_NAMES, ["a100", "h100", "h200", "h100-measured"]);
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
        assert_eq!(calibrated, ["h100", "h100-measured"]);
    }
}
