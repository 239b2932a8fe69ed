//! `--runtime`: the lines the text report leads with (the step as the runtime runs the
//! file: kernels and time, what they are made of, which attention patterns became SDPA), and
//! the runtime's row among the estimates at the end, with what each other estimate is.

use crate::cost::CostReport;
use crate::runtime::{CopyReason, RuntimeEstimate, What, row};
use crate::units::{fmt_time, group_digits};
use std::fmt::Write as _;

/// `eager, CUDA graphs: 963 kernels, 78.813 ms` and what it is made of.
pub fn lead(a: &crate::analysis::Analysis, c: &CostReport, e: &RuntimeEstimate) -> String {
    let g = &a.graph;
    let r = row(e.runtime);
    let n = e.cuda_kernels();
    let mut out = format!(
        "{}: {} kernel{}, {} (--runtime {}: {} on {} ({}), one step)\n",
        e.label(),
        group_digits(n as u64),
        if n == 1 { "" } else { "s" },
        fmt_time(e.time_s),
        r.name,
        r.title,
        c.hardware.description,
        c.hardware.name
    );
    let _ = writeln!(out, "  {}", r.method);
    let copies = e.copies();
    let fills = e
        .kernels
        .iter()
        .filter(|k| matches!(k.what, What::Fill { .. }))
        .count();
    let stats = e
        .kernels
        .iter()
        .filter(|k| matches!(k.what, What::Stats { .. }))
        .count();
    let sdpa = e.kernels.iter().filter(|k| k.what == What::Sdpa).count();
    let masks = e
        .kernels
        .iter()
        .filter(|k| matches!(k.what, What::Mask { .. }))
        .count();
    let of_ops = e
        .kernels
        .len()
        .saturating_sub(copies + fills + stats + sdpa + masks);
    let mut parts = vec![format!(
        "{} kernel{} of ops",
        group_digits(of_ops as u64),
        if of_ops == 1 { "" } else { "s" }
    )];
    if sdpa > 0 {
        parts.push(format!("{} SDPA", group_digits(sdpa as u64)));
    }
    if copies > 0 {
        parts.push(format!(
            "{} cop{} ({})",
            group_digits(copies as u64),
            if copies == 1 { "y" } else { "ies" },
            copy_reasons(e)
        ));
    }
    if stats > 0 {
        parts.push(format!(
            "{} on batch norms' statistics (the mean cast to f32, the inverse std)",
            group_digits(stats as u64)
        ));
    }
    if fills > 0 {
        parts.push(format!(
            "{fills} scalar fill{}",
            if fills == 1 { "" } else { "s" }
        ));
    }
    if masks > 0 {
        parts.push(format!(
            "{} boolean mask{} converted for SDPA",
            group_digits(masks as u64),
            if masks == 1 { "" } else { "s" }
        ));
    }
    parts.push(if e.views == 1 {
        "1 op runs as a view".to_string()
    } else {
        format!("{} ops run as views", group_digits(e.views as u64))
    });
    match e.host_s {
        // Plain launches fed by the model's host: the step is their pipeline.
        Some(h) => {
            // A convolution's extra host time, where the model has one and the step has one.
            let conv = match (e.conv_host_s, e.host_convs) {
                (Some(c), n) if c > 0.0 && n > 0 => format!(
                    ", and {} more for {} (model.host.runtime_conv_{}_us)",
                    fmt_time(c),
                    if n == 1 {
                        "its convolution".to_string()
                    } else {
                        format!("each of its {} convolutions", group_digits(n as u64))
                    },
                    e.name()
                ),
                _ => String::new(),
            };
            // A compiled step's host time per tensor it takes, before its first kernel.
            let inputs = match (e.input_host_s, e.host_inputs) {
                (Some(i), n) if i > 0.0 && n > 0 => format!(
                    ", and {} before its first kernel for each of the {} tensors it takes \
                     (model.host.runtime_compile_input_us)",
                    fmt_time(i),
                    group_digits(n as u64)
                ),
                _ => String::new(),
            };
            // The host it describes, by its probe (`--host-probe-us` scales to another).
            let probe = e
                .host_probe_s
                .map(|p| format!(", a host whose probe takes {}", fmt_time(p)))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "  {}; {} in kernels + {} of gaps and waiting for the host, which issues a CUDA \
                 kernel every {} (model.host.{}{probe}; hosts differ: \
                 docs/language.md){conv}{inputs}",
                parts.join(", "),
                fmt_time(e.kernel_s),
                fmt_time(e.time_s - e.kernel_s),
                fmt_time(h),
                e.host_key.unwrap_or("runtime_compile_us")
            );
        }
        None => {
            let _ = writeln!(
                out,
                "  {}; {} in kernels + {} of launches ({} each)",
                parts.join(", "),
                fmt_time(e.kernel_s),
                fmt_time(e.time_s - e.kernel_s),
                fmt_time(match e.launch {
                    crate::cost::LaunchMode::Graph => e.gap_s,
                    crate::cost::LaunchMode::Eager => c.hardware.launch(e.launch),
                })
            );
        }
    }
    if e.stream_discount_s > 0.0 || e.sustained_derate > 0.0 {
        let _ = writeln!(
            out,
            "  each kernel {} shorter in the stream than the hardware model's time for it \
             alone (model.host.stream_discount_us); compute-bound matmuls {:.1}% longer \
             sustained, being {:.0}% of the step (model.host.sustained_derate, \
             sustained_share)",
            fmt_time(e.stream_discount_s),
            e.sustained_derate * 100.0,
            e.sustained_share * 100.0
        );
    }
    if e.warm_reads > 0 {
        let _ = writeln!(
            out,
            "  {} elementwise kernel{} read{} from L2 what the kernel before wrote, each byte at \
             {} of a DRAM byte's time (model.host.warm_read_factor)",
            group_digits(e.warm_reads as u64),
            if e.warm_reads == 1 { "" } else { "s" },
            if e.warm_reads == 1 { "s" } else { "" },
            e.warm_read_factor
        );
    }
    if e.overlapped_gemms > 0 {
        let _ = writeln!(
            out,
            "  {} compute-bound GEMM{} (matmuls, one-GEMM convolutions) overlap{} start-up and \
             tail with compute in the stream (model.host.matmul_overlap_exponent {})",
            group_digits(e.overlapped_gemms as u64),
            if e.overlapped_gemms == 1 { "" } else { "s" },
            if e.overlapped_gemms == 1 {
                "s its"
            } else {
                " their"
            },
            e.matmul_overlap_exponent
        );
    }
    if e.resident_matmuls > 0 {
        let _ = writeln!(
            out,
            "  {} memory-bound matmul{} move{} bytes that stay in L2 (what {} and what the \
             step wrote whole), each at {} of a DRAM byte's time \
             (model.host.matmul_resident_factor)",
            group_digits(e.resident_matmuls as u64),
            if e.resident_matmuls == 1 { "" } else { "s" },
            if e.resident_matmuls == 1 { "s" } else { "" },
            if e.resident_matmuls == 1 {
                "it writes"
            } else {
                "they write"
            },
            e.matmul_resident_factor
        );
    }
    if !e.sdpa.is_empty() {
        let done = e.sdpa.iter().filter(|(_, r)| r.is_ok()).count();
        let _ = write!(
            out,
            "  attention into SDPA: {done} of {} pattern{}",
            e.sdpa.len(),
            if e.sdpa.len() == 1 { "" } else { "s" }
        );
        match e
            .sdpa
            .iter()
            .find_map(|(o, r)| Some((o, r.as_ref().err()?)))
        {
            Some((o, m)) => {
                let _ = writeln!(
                    out,
                    "; not `{}` (and others like it): {}",
                    g.op(*o).name,
                    m.describe(g)
                );
            }
            None => out.push('\n'),
        }
    }
    let plan = match crate::fusion::strategy::flags(&a.fusion) {
        f if f.is_empty() => "--fuser seed".to_string(),
        f => f,
    };
    let _ = writeln!(
        out,
        "  below: fgraph's own plan ({plan}) and its estimates, not this runtime's kernels \
         (those are in --format json, `cost.runtime.per_kernel`)\n"
    );
    out
}

/// `64 matmul broadcasts, 32 reshapes`.
fn copy_reasons(e: &RuntimeEstimate) -> String {
    let mut counts: Vec<(CopyReason, usize)> = Vec::new();
    for k in &e.kernels {
        if let What::Copy { reason, .. } = k.what {
            match counts.iter_mut().find(|(r, _)| *r == reason) {
                Some((_, n)) => *n += 1,
                None => counts.push((reason, 1)),
            }
        }
    }
    counts
        .iter()
        .map(|&(r, n)| {
            let what = match r {
                CopyReason::Reshape => "reshape",
                CopyReason::Broadcast => "matmul broadcast",
                CopyReason::BatchLayout => "matmul batch flattening",
                CopyReason::MatrixLayout => "cuBLAS operand",
                CopyReason::Contiguous => "contiguous input",
                CopyReason::Upcast => "f32 cast",
                CopyReason::Pad => "matmul padding",
                CopyReason::Bias => "bias broadcast",
            };
            format!("{n} {what}{}", if n == 1 { "" } else { "s" })
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The runtime's row among the estimates, and what the others are.
pub fn estimates_row(c: &CostReport, e: &RuntimeEstimate) -> String {
    let n = e.cuda_kernels();
    format!(
        "  runtime  {:>6} {} {:>12}   {} (the prediction the report leads with)\n  \
         (unfused and fused: fgraph's plans with every tensor once per kernel at datasheet \
         peaks{})\n",
        n,
        if n == 1 { "kernel " } else { "kernels" },
        fmt_time(e.time_s),
        e.label(),
        if c.hardware_model.is_some() {
            "; hardware model: fgraph's fused plan priced kernel by kernel"
        } else {
            ""
        }
    )
}
