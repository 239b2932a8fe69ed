//! `fgraph hardware [NAME]`: the GPUs the cost model knows, as text, or one (or all) as a
//! `--hardware-file` template in JSON.

use crate::cli::io::{CLEAN, Io, Usage};
use crate::cli::settings::preset;
use crate::cost::{self, Hardware};
use crate::diagnostics::render::Format;

pub(super) fn hardware_cmd(
    name: Option<&str>,
    format: Format,
    io: &mut Io<'_>,
) -> Result<u8, Usage> {
    let list = match name {
        Some(n) => vec![preset(n)?],
        None => Hardware::presets(),
    };
    match format {
        Format::Json => {
            let files: Vec<_> = list.iter().map(Hardware::to_file).collect();
            let text = if name.is_some() {
                serde_json::to_string_pretty(&files[0])
            } else {
                serde_json::to_string_pretty(&files)
            };
            let _ = writeln!(io.out, "{}", text.unwrap_or_default());
        }
        // The text: a list of GPUs has no diagnostics for the other formats to carry.
        Format::Human | Format::Github | Format::Sarif => {
            use crate::units::fmt_num;
            use cost::Unit;
            for hw in &list {
                let _ = writeln!(io.out, "{}  {}", hw.name, hw.description);
                let _ = writeln!(
                    io.out,
                    "  dense 16-bit tensor {} TFLOP/s, f32 {} TFLOP/s, HBM {}{} TB/s",
                    fmt_num(hw.peak_f16 / 1e12),
                    fmt_num(hw.peak_f32 / 1e12),
                    hw.memory_bytes.map_or(String::new(), |b| format!(
                        "{} at ",
                        crate::report::memory::fmt_gb(b)
                    )),
                    fmt_num(hw.bandwidth / 1e12)
                );
                let _ = writeln!(
                    io.out,
                    "  ridge point {} FLOP/B (16-bit tensor), {} FLOP/B (f32)",
                    fmt_num(hw.ridge(Unit::Tensor16)),
                    fmt_num(hw.ridge(Unit::F32))
                );
                let rate8 = |u: Unit, unit: &str| {
                    if hw.lacks(u) {
                        "none (priced at the 16-bit peak)".to_string()
                    } else {
                        format!("{} {unit}", fmt_num(hw.peak(u) / 1e12))
                    }
                };
                let _ = writeln!(
                    io.out,
                    "  dense 8-bit tensor: fp8 {}, int8 {}",
                    rate8(Unit::TensorF8, "TFLOP/s"),
                    rate8(Unit::TensorI8, "TOPS")
                );
                let l2 = hw
                    .l2_bytes
                    .map_or("?".into(), |b| format!("{} MiB", b / (1024 * 1024)));
                let sms = hw.sms.map_or("?".into(), |n| n.to_string());
                let _ = writeln!(
                    io.out,
                    "  L2 {l2}, {sms} SMs, launch {} µs (graph) / {} µs (eager)",
                    fmt_num(hw.launch_graph * 1e6),
                    fmt_num(hw.launch_eager * 1e6)
                );
                if let Some(ic) = &hw.interconnect {
                    let _ = writeln!(
                        io.out,
                        "  interconnect: {}",
                        ic.description.as_deref().unwrap_or(ic.topology.as_str())
                    );
                    let _ = writeln!(
                        io.out,
                        "    {} GPUs a node, {} node{}; {} {} GB/s each way per GPU (bus {} GB/s), \
                         {} µs a step, {} µs a collective",
                        ic.gpus_per_node,
                        ic.nodes,
                        if ic.nodes == 1 { "" } else { "s" },
                        match ic.topology {
                            cost::comm::Topology::Nvswitch => "NVLink",
                            cost::comm::Topology::Pcie => "PCIe",
                        },
                        fmt_num(ic.link_gb_s),
                        fmt_num(ic.link_gb_s * ic.link_efficiency),
                        fmt_num(ic.link_latency_us),
                        fmt_num(ic.base_latency_us)
                    );
                    let nvls = match (ic.nvls, ic.nvls_efficiency, ic.nvls_latency_us) {
                        (true, Some(e), Some(l)) => format!(
                            "NVLink SHARP {} GB/s, {} µs",
                            fmt_num(ic.link_gb_s * e),
                            fmt_num(l)
                        ),
                        _ => "no NVLink SHARP".to_string(),
                    };
                    let _ = writeln!(
                        io.out,
                        "    network {} GB/s each way per GPU (bus {} GB/s), {} µs a step; {nvls}",
                        fmt_num(ic.network_gb_s),
                        fmt_num(ic.network_gb_s * ic.network_efficiency),
                        fmt_num(ic.network_latency_us)
                    );
                    if let Some(src) = &ic.source {
                        let _ = writeln!(io.out, "    source: {src}");
                    }
                }
                let _ = writeln!(io.out, "  source: {}\n", hw.source);
            }
        }
    }
    Ok(CLEAN)
}
