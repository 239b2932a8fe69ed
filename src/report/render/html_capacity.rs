//! The HTML report's sections of issue 28 (`analyze --html`): memory against the GPU (inserted
//! before the roofline) and the tables of where the time goes (which [`super::html`] places
//! under its stacked bar), in the page's style (plain tables), from the report's figures
//! (`crate::report::memory`, `crate::report::breakdown`), computed here when the report was
//! not asked for them, so that every HTML report has both.

use crate::report::Report;
use crate::report::breakdown::{self, Breakdown};
use crate::report::memory::{self, Memory, fmt_gb};
use crate::units::{fmt_time, group_digits};
use std::fmt::Write;

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// `page` (the HTML report) with `sections` before its roofline (at the end of its body when
/// it has none).
pub fn insert(page: String, sections: &str) -> String {
    let at = page
        .find("<h2>Roofline</h2>")
        .or_else(|| page.rfind("</body>"))
        .unwrap_or(page.len());
    let mut out = String::with_capacity(page.len() + sections.len());
    out.push_str(&page[..at]);
    out.push_str(sections);
    out.push_str(&page[at..]);
    out
}

/// The report's breakdown (`--breakdown`'s, or computed as it would be).
pub fn breakdown_of(r: &Report<'_>) -> Option<Breakdown> {
    if let Some(b) = &r.breakdown {
        return Some(b.clone());
    }
    let (a, (c, att)) = (r.analysis?, r.cost()?);
    let instances = r.graph.map_or(&[][..], |g| &g.instances[..]);
    Some(breakdown::breakdown(
        a,
        instances,
        c,
        &att.patterns,
        r.runtime.as_ref(),
    ))
}

/// The memory section's HTML (empty without an analysis and a cost model).
pub fn sections(r: &Report<'_>) -> String {
    let (Some(a), Some(_)) = (r.analysis, r.cost()) else {
        return String::new();
    };
    let instances = r.graph.map_or(&[][..], |g| &g.instances[..]);
    let mut o = String::new();
    // Without `--memory` the batch param is not looked up: one sequence.
    let m = r.memory.clone().or_else(|| {
        memory::memory(
            a,
            instances,
            &r.hardware.name,
            r.hardware.memory_bytes,
            &|| None,
        )
    });
    if let Some(m) = &m {
        memory_html(&mut o, m, &r.hardware.description);
    }
    o
}

fn memory_html(o: &mut String, m: &Memory, description: &str) {
    let verdict = match (m.capacity_bytes, m.fits) {
        (Some(cap), Some(fits)) => format!(
            "{} of {}: <strong>{}</strong> on {}",
            fmt_gb(m.total_bytes).trim_end_matches(" GB"),
            fmt_gb(cap),
            if fits { "fits" } else { "does not fit" },
            esc(&m.hardware)
        ),
        _ => format!(
            "{} ({} gives no memory size)",
            fmt_gb(m.total_bytes),
            esc(&m.hardware)
        ),
    };
    let _ = write!(
        o,
        "<h2>Memory</h2>\n<p id=\"memory-total\">{verdict} ({}).</p>\n<table id=\"memory\">\n\
         <tr><th class=\"ops\">what</th><th>bytes</th><th>GB</th></tr>\n",
        esc(description)
    );
    let row = |o: &mut String, what: String, b: u64| {
        let _ = writeln!(
            o,
            "<tr><td class=\"ops\">{what}</td><td>{}</td><td>{}</td></tr>",
            group_digits(b),
            fmt_gb(b).trim_end_matches(" GB")
        );
    };
    row(
        o,
        format!("weights ({} parameters)", group_digits(m.parameters)),
        m.weight_bytes,
    );
    for b in m
        .blocks
        .iter()
        .filter(|b| b.parameters > 0 || b.state_bytes > 0)
    {
        let label = match b.instances {
            Some(n) => format!("&nbsp;&nbsp;{} ×{n}", esc(&b.name)),
            None => format!("&nbsp;&nbsp;{}", esc(&b.name)),
        };
        row(o, label, b.weight_bytes + b.state_bytes);
    }
    if let Some(kv) = &m.kv_cache {
        let per = kv.bytes_per_token.map_or(String::new(), |t| {
            format!(", {} B per token", group_digits(t))
        });
        row(
            o,
            format!("KV cache ({} tensors{per})", kv.tensors),
            kv.bytes,
        );
    }
    let at = m
        .activations
        .peak_op
        .as_ref()
        .zip(m.activations.peak_kernel)
        .map_or(String::new(), |(op, k)| {
            format!(" at kernel {} (<code>{}</code>)", k + 1, esc(op))
        });
    row(
        o,
        format!("peak live activations{at}"),
        m.activations.peak_bytes,
    );
    row(o, "<strong>total</strong>".into(), m.total_bytes);
    o.push_str("</table>\n");
}

/// The model table and the per-layer one (folded), under the stacked bar.
pub fn breakdown_html(o: &mut String, b: &Breakdown) {
    o.push_str("<table id=\"breakdown\">\n<tr><th class=\"ops\">family</th>");
    for m in &b.models {
        let _ = write!(o, "<th>{}</th><th>%</th>", esc(&m.model));
    }
    o.push_str("</tr>\n");
    let mut fams: Vec<&str> = Vec::new();
    for f in breakdown::KernelFamily::ALL {
        if b.models
            .iter()
            .any(|m| m.families.iter().any(|r| r.family == f.as_str()))
        {
            fams.push(f.as_str());
        }
    }
    let pct = |t: f64, total: f64| if total > 0.0 { 100.0 * t / total } else { 0.0 };
    for f in fams {
        let _ = write!(o, "<tr><td class=\"ops\">{f}</td>");
        for m in &b.models {
            let t = m
                .families
                .iter()
                .find(|r| r.family == f)
                .map_or(0.0, |r| r.time_s);
            let _ = write!(
                o,
                "<td>{}</td><td>{:.1}</td>",
                fmt_time(t),
                pct(t, m.total_s)
            );
        }
        o.push_str("</tr>\n");
    }
    o.push_str("<tr><td class=\"ops\">launch overhead</td>");
    for m in &b.models {
        let _ = write!(
            o,
            "<td>{}</td><td>{:.1}</td>",
            fmt_time(m.launch_s),
            pct(m.launch_s, m.total_s)
        );
    }
    o.push_str("</tr>\n<tr><td class=\"ops\"><strong>total</strong></td>");
    for m in &b.models {
        let _ = write!(o, "<td>{}</td><td></td>", fmt_time(m.total_s));
    }
    o.push_str("</tr>\n</table>\n");
    if b.layers.is_empty() {
        return;
    }
    o.push_str("<details id=\"breakdown-layers\"><summary>per layer</summary>\n<table>\n<tr><th class=\"ops\">layer</th><th>kernels</th>");
    for f in &b.families {
        let _ = write!(o, "<th>{f}</th>");
    }
    o.push_str("<th>launch</th><th>compulsory</th>");
    let hw = b.layers.iter().any(|l| l.hardware_s.is_some());
    if hw {
        o.push_str("<th>hardware</th>");
    }
    o.push_str("</tr>\n");
    for l in &b.layers {
        let _ = write!(
            o,
            "<tr><td class=\"ops\">{}</td><td>{}</td>",
            esc(&l.name),
            l.kernels
        );
        for t in &l.compulsory_s {
            let _ = write!(o, "<td>{}</td>", fmt_time(*t));
        }
        let _ = write!(
            o,
            "<td>{}</td><td>{}</td>",
            fmt_time(l.launch_s),
            fmt_time(l.total_s)
        );
        if let Some(h) = l.hardware_s {
            let _ = write!(o, "<td>{}</td>", fmt_time(h));
        }
        o.push_str("</tr>\n");
    }
    o.push_str("</table>\n</details>\n");
}
