//! The self-contained HTML report (`analyze --html`): one file a person opens in a browser,
//! with no network access, no external script, style sheet or font.
//!
//! It holds the picture of the plan (the SVG of [`super::dot`], inline), the kernel table, the
//! traffic of both plans, the roofline ([`super::roofline`], inline), every boundary with
//! its reason and explanation (`fgraph explain` texts), and the diagnostics. A small inline
//! script links the picture and the table: clicking a kernel in either highlights it in both,
//! and a `#kernel-N` fragment in the address selects kernel N on load (so a link can point at
//! one kernel; `#click-row-N` and `#click-cluster-N` click that element instead, which the
//! browser test uses to exercise the click handlers). The script also records what it found in the page (`data-*` attributes on
//! `<body>`), which the browser test reads back from the rendered DOM.

use crate::analysis::Analysis;
use crate::cost::{AttentionReport, CostReport};
use crate::diagnostics::render::{HumanStyle, human};
use crate::diagnostics::{Diagnostic, SourceFile};
use crate::report::render::dot::bytes;
use crate::units::{fmt_time, group_digits, si};
use std::fmt::Write;

pub(super) fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            c => o.push(c),
        }
    }
    o
}

/// An SVG document without its XML prologue and doctype, ready to inline.
pub(super) fn inline_svg(svg: &str) -> &str {
    svg.find("<svg").map_or(svg, |i| &svg[i..])
}

const STYLE: &str = "body{font-family:system-ui,-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;\
margin:2em auto;max-width:1200px;padding:0 1em;color:#222}h1{font-size:1.5em}h2{font-size:1.2em;\
margin-top:2em;border-bottom:1px solid #ccc}table{border-collapse:collapse;font-size:.9em}\
td,th{border:1px solid #ddd;padding:.3em .6em;text-align:right}td.ops,th.ops{text-align:left}\
tr.kernel-row{cursor:pointer}tr.kernel-row:hover{background:#eef3fb}tr.selected{background:#ffe9a8}\
g.cluster{cursor:pointer}g.cluster.selected>path,g.cluster.selected>polygon{stroke:#d35400;\
stroke-width:4}.picture{overflow:auto;border:1px solid #ddd;max-height:80vh}pre{background:#f6f6f6;\
padding:.8em;overflow:auto;font-size:.85em}.reason{font-family:monospace;color:#c0392b}\
details{margin:.2em 0}";

/// Selects kernel `k` (1-based) in the picture and the table; reads `#kernel-N` on load.
const SCRIPT: &str = r#"(function () {
  var rows = Array.prototype.slice.call(document.querySelectorAll('tr.kernel-row'));
  var clusters = {};
  Array.prototype.forEach.call(document.querySelectorAll('#plan g.cluster'), function (g) {
    var t = g.querySelector('title');
    var m = t && /^cluster_k(\d+)$/.exec(t.textContent);
    if (m) { clusters[m[1]] = g; g.setAttribute('data-kernel', m[1]); }
  });
  function select(k) {
    rows.forEach(function (r) { r.classList.toggle('selected', r.getAttribute('data-kernel') === k); });
    Object.keys(clusters).forEach(function (n) { clusters[n].classList.toggle('selected', n === k); });
    document.body.setAttribute('data-selected', k || '');
  }
  rows.forEach(function (r) {
    r.addEventListener('click', function () { select(r.getAttribute('data-kernel')); });
  });
  Object.keys(clusters).forEach(function (n) {
    clusters[n].addEventListener('click', function () { select(n); });
  });
  document.body.setAttribute('data-kernel-rows', String(rows.length));
  document.body.setAttribute('data-kernel-clusters', String(Object.keys(clusters).length));
  var m = /^#kernel-(\d+)$/.exec(location.hash);
  if (m) { select(m[1]); }
  // `#click-row-N` / `#click-cluster-N`: a real click on that element (for tests and links).
  var c = /^#click-(row|cluster)-(\d+)$/.exec(location.hash);
  if (c) {
    var el = c[1] === 'row' ? document.getElementById('row-k' + c[2]) : clusters[c[2]];
    if (el) { el.dispatchEvent(new MouseEvent('click', { bubbles: true })); }
  }
})();"#;

/// The report of `a` (cost `c`, attention `att`), with the plan's picture `plan_svg` (SVG
/// from Graphviz) and the file's diagnostics.
pub fn html(
    a: &Analysis,
    c: &CostReport,
    att: &AttentionReport,
    plan_svg: &str,
    diagnostics: &[&Diagnostic],
    hints: &[crate::fusion::whatif::Hint],
    source: &SourceFile,
) -> String {
    let g = &a.graph;
    let mut o = String::new();
    let _ = write!(
        o,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>fgraph: {name}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n\
         <h1>fgraph report: graph <code>{name}</code></h1>\n",
        name = esc(&g.name),
    );
    summary_line(a, c, &mut o);
    // The picture.
    let _ = write!(
        o,
        "<h2>Fusion plan</h2>\n<p>Kernels are clusters; click one (here or in the table) to \
         highlight it. Dashed tensors stay on chip; cylinders go through HBM; red edges are \
         boundaries, labelled with their reason.</p>\n<div class=\"picture\" id=\"plan\">\n{}\n\
         </div>\n",
        inline_svg(plan_svg)
    );
    // Kernels.
    o.push_str("<h2>Kernels</h2>\n");
    kernel_table(a, c, usize::MAX, &mut o);
    // Traffic.
    o.push_str("<h2>HBM traffic</h2>\n");
    traffic_table(a, c, att, &mut o);
    // Roofline.
    let _ = write!(
        o,
        "<h2>Roofline</h2>\n<div class=\"picture\" id=\"roofline\">\n{}\n</div>\n",
        inline_svg(&crate::report::render::roofline::svg(g, c))
    );
    // Boundaries.
    let _ = writeln!(
        o,
        "<h2>Boundaries</h2>\n<p>Edges that stay in HBM, and why ({}).</p>\n<ul id=\"boundaries\">",
        a.plan.boundaries.len()
    );
    for (b, h) in a.plan.boundaries.iter().zip(hints) {
        let text = crate::explain::text(b.reason.as_str()).unwrap_or("");
        let _ = writeln!(
            o,
            "<li>{} → {} via <code>{}</code> <span class=\"reason\">[{}]</span>: {}\
             <br><span class=\"hint\">{}</span>\
             <details><summary>fgraph explain {}</summary><pre>{}</pre></details></li>",
            esc(&g.op(b.producer).name),
            esc(&g.op(b.consumer).name),
            esc(&g.tensor(b.tensor).name),
            b.reason,
            esc(&b.explain(g)),
            esc(&h.sentence(g, &a.plan, b)),
            b.reason,
            esc(text)
        );
    }
    o.push_str("</ul>\n");
    // Diagnostics.
    let _ = writeln!(o, "<h2>Diagnostics</h2>");
    if diagnostics.is_empty() {
        o.push_str("<p id=\"diagnostics\">None.</p>\n");
    } else {
        o.push_str("<pre id=\"diagnostics\">");
        for d in diagnostics {
            o.push_str(&esc(&human(d, source, HumanStyle::plain())));
            o.push('\n');
        }
        o.push_str("</pre>\n");
    }
    let _ = write!(o, "<script>{SCRIPT}</script>\n</body>\n</html>\n");
    o
}

/// The report's one-sentence summary (`<p>`): ops, kernels, GPU, bytes saved, time.
pub(super) fn summary_line(a: &Analysis, c: &CostReport, o: &mut String) {
    let t = &a.traffic;
    let _ = writeln!(
        o,
        "<p>{ops} ops in {kernels} kernels on {hw} ({hwname}). Fusion saves {saved} of HBM \
         traffic ({pct:.2}%); estimated time {fused} fused against {unfused} unfused \
         (speedup {speedup:.2}×).</p>",
        ops = a.graph.ops.len(),
        kernels = a.plan.groups.len(),
        hw = esc(&c.hardware.description),
        hwname = esc(&c.hardware.name),
        saved = bytes(t.fused.saved_by_fusion),
        pct = t.savings_pct,
        fused = fmt_time(c.fused.time_s),
        unfused = fmt_time(c.unfused.time_s),
        speedup = c.speedup,
    );
}

/// The kernel table (`<table id="kernels">`), its first `rows` kernels: one row each, in
/// execution order.
pub(super) fn kernel_table(a: &Analysis, c: &CostReport, rows: usize, o: &mut String) {
    let g = &a.graph;
    let t = &a.traffic;
    o.push_str(
        "<table id=\"kernels\">\n<tr><th>#</th><th class=\"ops\">ops</th>\
         <th>reads</th><th>writes</th><th>FLOPs</th><th>FLOP/B</th><th>bound</th><th>time</th>\
         </tr>\n",
    );
    let kernels = a.plan.groups.iter().zip(&t.groups).enumerate().take(rows);
    for (k, (grp, gt)) in kernels {
        let names: Vec<&str> = grp.ops.iter().map(|&op| g.op(op).name.as_str()).collect();
        let kc = c.fused.kernels.get(k);
        let _ = writeln!(
            o,
            "<tr class=\"kernel-row\" id=\"row-k{n}\" data-kernel=\"{n}\"><td>{n}</td>\
             <td class=\"ops\">{ops}</td><td>{r}</td><td>{w}</td><td>{f}</td><td>{i}</td>\
             <td>{b}</td><td>{time}</td></tr>",
            n = k + 1,
            ops = esc(&names.join(" → ")),
            r = bytes(gt.bytes_read),
            w = bytes(gt.bytes_written),
            f = kc.map_or(String::new(), |k| si(k.flops as f64)),
            i = kc
                .and_then(|k| k.intensity)
                .map_or("–".into(), |i| format!("{i:.1}")),
            b = kc.map_or("", |k| k.bound.as_str()),
            time = kc.map_or(String::new(), |k| fmt_time(k.time_s)),
        );
    }
    o.push_str("</table>\n");
}

/// The traffic table (`<table id="traffic">`) of both plans, and what FlashAttention would
/// change when it is not applied.
pub(super) fn traffic_table(a: &Analysis, c: &CostReport, att: &AttentionReport, o: &mut String) {
    let t = &a.traffic;
    let _ = write!(
        o,
        "<table id=\"traffic\">\n<tr><th class=\"ops\">plan</th>\
         <th>read</th><th>written</th><th>total</th><th>kernels</th><th>time</th></tr>\n\
         <tr><td class=\"ops\">unfused</td><td>{ur}</td><td>{uw}</td><td>{ut}</td><td>{uk}</td>\
         <td>{utime}</td></tr>\n<tr><td class=\"ops\">fused</td><td>{fr}</td><td>{fw}</td>\
         <td>{ft}</td><td>{fk}</td><td>{ftime}</td></tr>\n</table>\n",
        ur = group_digits(t.unfused.bytes_read),
        uw = group_digits(t.unfused.bytes_written),
        ut = group_digits(t.unfused.total),
        uk = c.unfused.kernels.len(),
        utime = fmt_time(c.unfused.time_s),
        fr = group_digits(t.fused.bytes_read),
        fw = group_digits(t.fused.bytes_written),
        ft = group_digits(t.fused.total),
        fk = c.fused.kernels.len(),
        ftime = fmt_time(c.fused.time_s),
    );
    if let (Some(with), true) = (&att.with, !att.applied) {
        let _ = writeln!(
            o,
            "<p>With <code>--flash-attention</code>: {} kernels, {} B in all ({:.2}% saved).</p>",
            with.kernels,
            group_digits(with.traffic.total),
            with.savings_pct
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::analysis::{Options, check_file};
    use crate::cost::{self, Hardware, LaunchMode};
    use crate::diagnostics::SourceFile;

    #[test]
    fn the_report_needs_nothing_from_outside_and_escapes_names() {
        let src = "graph g {\n  input x: [64, 64]\n  input spare: [4]\n  op a = elementwise.relu(x) -> y\n}\n";
        let r = check_file("g.fgraph", src.as_bytes(), &Options::default());
        let a = r.graphs[0].analysis.as_ref().expect("analysis");
        let hw = Hardware::preset("h100").expect("preset");
        let c = cost::estimate(a, &hw, LaunchMode::Graph).expect("cost");
        let att = cost::attention(a, &hw, LaunchMode::Graph).expect("attention");
        let svg = "<?xml version=\"1.0\"?>\n<svg><g class=\"cluster\"><title>cluster_k1</title></g></svg>";
        let html = super::html(
            a,
            &c,
            &att,
            svg,
            &r.diagnostics.iter().collect::<Vec<_>>(),
            &crate::report::hints(a).hints,
            &SourceFile::new("g.fgraph", src),
        );
        assert!(html.starts_with("<!DOCTYPE html>"));
        // Self-contained: no fetched script, style sheet, font or image.
        for needle in ["<script src", "<link", "@import", "url(", "<img", "<iframe"] {
            assert!(!html.contains(needle), "{needle}");
        }
        // The picture is inlined without its XML prologue; one row per kernel.
        assert!(html.contains("<div class=\"picture\" id=\"plan\">\n<svg>"));
        assert_eq!(html.matches("<tr class=\"kernel-row\"").count(), 1);
        // The unused-tensor warning is in the diagnostics, escaped.
        assert!(html.contains("unused-tensor"));
        assert!(html.contains("tensor `spare` is declared but never used"));
        assert_eq!(super::esc("<a & \"b\">"), "&lt;a &amp; &quot;b&quot;&gt;");
    }
}
