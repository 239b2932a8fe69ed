//! The text of issue 28's sections: memory and capacity (`--memory`, and after the
//! `--summary` table: [`memory`]), where the time goes (`--breakdown`: [`breakdown`]) and the
//! plan against a saved report (`--baseline`: [`baseline`]). The figures are the library's
//! (`crate::report::memory`, `breakdown`, `baseline`).

use crate::report::baseline::{Change, Comparison, Delta};
use crate::report::breakdown::{Breakdown, KernelFamily};
use crate::report::memory::{Memory, fmt_gb};
use crate::units::{fmt_bytes, fmt_time, group_digits};

/// The memory section.
pub fn memory(m: &Memory, description: &str) -> String {
    let mut out = format!("\nmemory on {} ({description}):\n", m.hardware);
    out += &format!(
        "  parameters {} ({} of weights)\n",
        group_digits(m.parameters),
        fmt_gb(m.weight_bytes)
    );
    if m.blocks.len() > 1 || m.blocks.iter().any(|b| b.instances.is_some()) {
        let width = m
            .blocks
            .iter()
            .map(|b| b.name.chars().count() + 6)
            .max()
            .unwrap_or(0);
        for b in m
            .blocks
            .iter()
            .filter(|b| b.parameters > 0 || b.state_bytes > 0)
        {
            let label = match b.instances {
                Some(n) => format!("{} ×{n}", b.name),
                None => b.name.clone(),
            };
            let state = if b.state_bytes > 0 {
                format!(", state {}", fmt_gb(b.state_bytes))
            } else {
                String::new()
            };
            out += &format!(
                "    {label:<width$} {:>20} parameters {:>10}{state}\n",
                group_digits(b.parameters),
                fmt_gb(b.weight_bytes)
            );
        }
    }
    match &m.kv_cache {
        None => out += "  KV cache: none (no `update` writes into an input or weight)\n",
        Some(kv) => {
            let each =
                |v: Option<u64>| v.map_or("-".to_string(), |b| format!("{} B", group_digits(b)));
            let seqs = match &kv.batch_param {
                Some(p) => format!(
                    "{} sequence{} (param {p})",
                    kv.sequences,
                    plural(kv.sequences)
                ),
                None => "1 sequence (no batch param B or batch)".to_string(),
            };
            let positions = kv.positions.map_or(String::new(), |p| {
                format!(", {} positions", group_digits(p))
            });
            out += &format!(
                "  KV cache: {} in {} tensor{}, {} per token, {} per sequence; {seqs}{positions}\n",
                fmt_bytes(kv.bytes),
                kv.tensors,
                plural(kv.tensors as u64),
                each(kv.bytes_per_token),
                each(kv.bytes_per_sequence)
            );
        }
    }
    let at = match (&m.activations.peak_kernel, &m.activations.peak_op) {
        (Some(k), Some(op)) => format!(" at kernel {} (`{op}`)", k + 1),
        _ => String::new(),
    };
    out += &format!(
        "  peak live activations: {}{at}\n",
        fmt_bytes(m.activations.peak_bytes)
    );
    out += &match (m.capacity_bytes, m.fits) {
        (Some(c), Some(fits)) => format!(
            "  total {} of {}: {} on {}\n",
            fmt_gb(m.total_bytes).trim_end_matches(" GB"),
            fmt_gb(c),
            if fits { "fits" } else { "does not fit" },
            m.hardware
        ),
        _ => format!(
            "  total {}; {} gives no memory size (`memory_gb`)\n",
            fmt_gb(m.total_bytes),
            m.hardware
        ),
    };
    if let Some(p) = &m.max_param {
        let probes = format!("{} check{}", p.probes, plural(p.probes as u64));
        out += &match (p.largest, p.total_bytes) {
            (Some(v), Some(t)) => format!(
                "  largest {} that fits: {v} ({}{}; {probes}{})\n",
                p.param,
                fmt_gb(t),
                if p.bounded {
                    ", a larger one may: the search stopped at its bound"
                } else {
                    ""
                },
                p.invalid_at.map_or(String::new(), |i| format!(
                    "; the graph does not check at {i}"
                ))
            ),
            _ => format!(
                "  no value of {} fits: even {} = 1 does not ({probes})\n",
                p.param, p.param
            ),
        };
    }
    out
}

fn plural(n: u64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// `1.234 ms  45.1%`.
fn share(t: f64, total: f64) -> String {
    let pct = if total > 0.0 { 100.0 * t / total } else { 0.0 };
    format!("{:>11} {:>5.1}%", fmt_time(t), pct)
}

/// The `--breakdown` section: the model table, then the per-layer table.
pub fn breakdown(b: &Breakdown) -> String {
    let mut out = String::from("\nwhere the time goes (fused plan, kernel time by family):\n");
    let fams: Vec<&'static str> = KernelFamily::ALL
        .iter()
        .map(|f| f.as_str())
        .filter(|f| {
            b.models
                .iter()
                .any(|m| m.families.iter().any(|r| r.family == *f))
        })
        .collect();
    out += &format!("  {:<16}", "family");
    for m in &b.models {
        out += &format!(" {:>19}", m.model);
    }
    out.push('\n');
    for f in &fams {
        out += &format!("  {f:<16}");
        for m in &b.models {
            let t = m
                .families
                .iter()
                .find(|r| r.family == *f)
                .map_or(0.0, |r| r.time_s);
            out += &format!(" {}", share(t, m.total_s));
        }
        out.push('\n');
    }
    out += &format!("  {:<16}", "launch overhead");
    for m in &b.models {
        out += &format!(" {}", share(m.launch_s, m.total_s));
    }
    out.push('\n');
    out += &format!("  {:<16}", "total");
    for m in &b.models {
        out += &format!(" {:>11} {:>6}", fmt_time(m.total_s), "");
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    if b.layers.is_empty() {
        return out;
    }
    let width = b
        .layers
        .iter()
        .map(|r| r.name.chars().count())
        .max()
        .unwrap_or(0)
        .max(5);
    out += "\nper layer (compulsory time by family, the hardware model's total beside it):\n";
    out += &format!("  {:<width$} {:>7}", "layer", "kernels");
    for f in &b.families {
        out += &format!(" {:>12}", short(f));
    }
    out += &format!(" {:>12} {:>12}", "launch", "compulsory");
    let (hw, rt) = (
        b.layers.iter().any(|r| r.hardware_s.is_some()),
        b.models
            .iter()
            .skip(1)
            .find(|m| m.model != "hardware")
            .map(|m| m.model.clone()),
    );
    if hw {
        out += &format!(" {:>12}", "hardware");
    }
    if let Some(name) = &rt {
        out += &format!(" {name:>12}");
    }
    out.push('\n');
    for r in &b.layers {
        out += &format!("  {:<width$} {:>7}", r.name, r.kernels);
        for t in &r.compulsory_s {
            out += &format!(" {:>12}", fmt_time(*t));
        }
        out += &format!(" {:>12} {:>12}", fmt_time(r.launch_s), fmt_time(r.total_s));
        if let Some(h) = r.hardware_s {
            out += &format!(" {:>12}", fmt_time(h));
        }
        if let Some(t) = r.runtime_s {
            out += &format!(" {:>12}", fmt_time(t));
        }
        out.push('\n');
    }
    out
}

/// A family's name short enough for a column.
fn short(f: &str) -> &str {
    match f {
        "normalisation" => "norm",
        "gather-scatter" => "gather",
        "communication" => "comm",
        other => other,
    }
}

fn pct(d: &Delta) -> String {
    d.pct.map_or("new".to_string(), |p| format!("{p:+.2}%"))
}

fn signed_bytes(d: i128) -> String {
    let s = group_digits(d.unsigned_abs().min(u128::from(u64::MAX)) as u64);
    if d < 0 {
        format!("-{s} B")
    } else {
        format!("+{s} B")
    }
}

/// A change in words, without its name: `-1,024 B, +0.50 µs (new kernel)`.
fn change_text(c: &Change) -> String {
    let t = match (c.old_time_s, c.new_time_s) {
        (Some(o), Some(n)) => {
            let d = n - o;
            format!(", {}{}", if d < 0.0 { "-" } else { "+" }, fmt_time(d.abs()))
        }
        _ => String::new(),
    };
    let new = if c.old_bytes.is_none() {
        " (new kernel)"
    } else {
        ""
    };
    format!("{}{t}{new}", signed_bytes(c.bytes_delta()))
}

/// `layers.12.scores` → `layers.#.scores`: names that differ only in their instance numbers
/// read alike.
fn shape_of(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut digits = false;
    for c in name.chars() {
        if c.is_ascii_digit() {
            if !digits {
                out.push('#');
            }
            digits = true;
        } else {
            out.push(c);
            digits = false;
        }
    }
    out
}

/// The changes as lines, those that read alike but for their instance numbers (the same
/// change in every layer) folded into one with their count, first and last name; at most
/// [`CHANGES_SHOWN`] lines.
fn change_lines(out: &mut String, v: &[Change]) {
    let mut groups: Vec<(String, String, Vec<usize>)> = Vec::new();
    let mut index: std::collections::HashMap<(String, String), usize> =
        std::collections::HashMap::new();
    for (i, c) in v.iter().enumerate() {
        let key = (shape_of(&c.name), change_text(c));
        match index.get(&key) {
            Some(&g) => groups[g].2.push(i),
            None => {
                index.insert(key.clone(), groups.len());
                groups.push((key.0, key.1, vec![i]));
            }
        }
    }
    for (_, text, at) in groups.iter().take(CHANGES_SHOWN) {
        let first = &v[at[0]].name;
        *out += &match at.len() {
            1 => format!("    {first}: {text}\n"),
            n => format!(
                "    {n} alike, {first} … {}, each: {text}\n",
                v[at[n - 1]].name
            ),
        };
    }
    if groups.len() > CHANGES_SHOWN {
        let rest: usize = groups[CHANGES_SHOWN..].iter().map(|g| g.2.len()).sum();
        *out += &format!("    … {rest} more (see --format json)\n");
    }
}

/// How many lines of changed layers and kernels the text lists (the JSON has them all).
pub const CHANGES_SHOWN: usize = 10;

/// The `--baseline` section.
pub fn baseline(c: &Comparison) -> String {
    let mut out = String::from("\nagainst the baseline:\n");
    out += &format!(
        "  kernels  {} → {} ({:+})\n",
        c.kernels.old,
        c.kernels.new,
        c.kernels.new - c.kernels.old
    );
    out += &format!(
        "  traffic  {} B → {} B ({})\n",
        group_digits(c.traffic.old as u64),
        group_digits(c.traffic.new as u64),
        pct(&c.traffic)
    );
    match &c.time_s {
        Some(t) => {
            out += &format!(
                "  time     {} → {} ({})\n",
                fmt_time(t.old),
                fmt_time(t.new),
                pct(t)
            )
        }
        None => out += "  time     - (a report without the cost model)\n",
    }
    let list = |out: &mut String, title: &str, v: &[Change]| {
        if v.is_empty() {
            return;
        }
        *out += &format!("  {title} ({}):\n", v.len());
        change_lines(out, v);
    };
    list(&mut out, "layers that changed", &c.layers);
    list(
        &mut out,
        "kernels that changed, by first op, most bytes added first",
        &c.kernels_changed,
    );
    if c.kernels_gone > 0 {
        out += &format!(
            "  {} kernel{} of the baseline start with an op that starts no kernel now\n",
            c.kernels_gone,
            plural(c.kernels_gone as u64)
        );
    }
    if c.layers.is_empty() && c.kernels_changed.is_empty() && c.kernels_gone == 0 {
        out += "  no kernel changed\n";
    }
    for r in &c.regressions {
        out += &format!(
            "  regression: {}\n",
            crate::report::baseline::describe(r, c)
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{Change, change_lines};

    fn change(name: &str, old: u64, new: u64) -> Change {
        Change {
            name: name.into(),
            old_bytes: Some(old),
            new_bytes: new,
            old_time_s: None,
            new_time_s: None,
        }
    }

    #[test]
    fn the_same_change_in_every_layer_is_one_line() {
        let mut v: Vec<Change> = (0..32)
            .map(|i| change(&format!("layers.{i}.softmax"), 10, 20))
            .collect();
        v.push(change("logits", 5, 4));
        v.push(change("layers.3.attn", 1, 2));
        let mut out = String::new();
        change_lines(&mut out, &v);
        assert_eq!(
            out,
            "    32 alike, layers.0.softmax … layers.31.softmax, each: +10 B\n    logits: -1 B\n    \
             layers.3.attn: +1 B\n"
        );
    }
}
