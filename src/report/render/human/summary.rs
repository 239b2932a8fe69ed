//! The `--summary` table: one line per instance and per block of a graph built from blocks,
//! and the model total ([`crate::report::summary`]).

use crate::report::summary::{Row, Summary};
use crate::units::{fmt_time, group_digits};

/// The summary as a table (`analyze --summary`).
pub fn human(s: &Summary) -> String {
    let width = s
        .instances
        .iter()
        .chain(&s.blocks)
        .map(|r| r.name.len() + r.block.as_ref().map_or(0, |b| b.len() + 3))
        .max()
        .unwrap_or(0)
        .max(12);
    let mut out = String::new();
    let header = |out: &mut String, title: &str| {
        out.push_str(&format!(
            "{title:<w$} {:>8} {:>8} {:>18} {:>18} {:>20} {:>12}\n",
            "kernels",
            "ops",
            "read (B)",
            "written (B)",
            "FLOPs",
            "time",
            w = width + 2
        ));
    };
    let line = |out: &mut String, label: String, r: &Row| {
        out.push_str(&format!(
            "  {label:<width$} {:>8} {:>8} {:>18} {:>18} {:>20} {:>12}\n",
            r.kernels,
            r.ops,
            group_digits(r.bytes_read),
            group_digits(r.bytes_written),
            group_digits(r.flops),
            r.time_s.map_or("-".to_string(), fmt_time),
        ));
    };
    header(&mut out, "per instance");
    for r in &s.instances {
        let label = match &r.block {
            Some(b) => format!("{} ({b})", r.name),
            None => r.name.clone(),
        };
        line(&mut out, label, r);
    }
    out.push('\n');
    header(&mut out, "per block");
    for r in &s.blocks {
        let label = format!("{} ×{}", r.name, r.instances.unwrap_or(0));
        line(&mut out, label, r);
    }
    out.push('\n');
    line(&mut out, "model total".to_string(), &s.total);
    out
}
