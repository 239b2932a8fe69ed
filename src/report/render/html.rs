//! The self-contained HTML report (`analyze --html`): one file a person opens in a browser,
//! with no network access, no external script, style sheet or font.
//!
//! From the top: the summary line; where the time goes (a stacked bar of the fused plan's
//! time by kernel family under each estimate, [`super::charts`], and its tables,
//! [`super::html_capacity`]: the figures of `analyze --breakdown`,
//! [`crate::report::breakdown`]); for a graph built from blocks, the per-layer strip (one
//! column per top-level instance with its time and bytes; clicking one opens its kernels in
//! the table); the picture of the plan (the SVG of [`super::dot`], inline), in which the first
//! instance of each block is drawn op by op and later instances are folded into one node per
//! range ([`crate::report::fold`]) so that a model of a thousand ops stays readable; the
//! kernel table, one `<tbody>` per layer, the folded layers' hidden until opened; the traffic
//! of both plans; the roofline ([`super::roofline`], coloured by family, coincident kernels
//! merged; the kernel table and the roofline classify kernels by the breakdown's
//! [`Classifier`]); the boundaries, each distinct one once with the instances that repeat it;
//! the explanation of each reason once (`fgraph explain` texts); and the diagnostics.
//!
//! A small inline script ([`super::html_script`]) links the picture, the strip and the table:
//! clicking a kernel in the picture or the table highlights it in both, clicking a layer or a
//! folded node opens its kernels, and a `#kernel-N` fragment in the address selects kernel N
//! on load (`#click-row-N`, `#click-cluster-N` and `#click-layer-N` click that element
//! instead, which the browser test uses). The script records what it found in the page
//! (`data-*` attributes on `<body>`), which the browser test reads back from the rendered DOM.

use crate::analysis::Analysis;
use crate::cost::{AttentionReport, CostReport};
use crate::diagnostics::render::{HumanStyle, human};
use crate::diagnostics::{Diagnostic, SourceFile};
use crate::fusion::whatif::Hint;
use crate::report::breakdown::{Breakdown, Classifier};
use crate::report::fold::Fold;
use crate::report::render::dot::bytes;
use crate::report::render::html_script::{SCRIPT, STYLE};
use crate::report::render::{charts, roofline};
use crate::report::summary::Summary;
use crate::syntax::expand::Instance;
use crate::units::{fmt_time, group_digits, si};
use std::collections::HashMap;
use std::fmt::Write;

/// Kernel rows the table embeds at most; the rows of folded layers past this many are left
/// out (the JSON report has every kernel), so that the page stays small.
pub const TABLE_ROWS: usize = 2_000;

/// Distinct boundaries the page lists at most.
pub const BOUNDARY_ROWS: usize = 2_000;

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

/// Graphviz's SVG, inlined and lighter: without its comments (each node's and edge's name
/// again) nor the font of every text (the style sheet sets it for the picture).
fn lighter_plan(svg: &str) -> String {
    let svg = inline_svg(svg);
    let mut out = String::with_capacity(svg.len());
    let mut rest = svg;
    while let Some(i) = rest.find("<!--") {
        out.push_str(&rest[..i]);
        match rest[i..].find("-->") {
            Some(j) => rest = &rest[i + j + 3..],
            None => {
                rest = &rest[i..];
                break;
            }
        }
    }
    out.push_str(rest);
    out.replace(" font-family=\"Helvetica,sans-Serif\"", "")
}

/// What the page is made of.
pub struct Page<'a> {
    pub analysis: &'a Analysis,
    pub cost: &'a CostReport,
    pub attention: &'a AttentionReport,
    /// The plan's picture: SVG from Graphviz, of the folded DOT.
    pub plan_svg: &'a str,
    pub diagnostics: &'a [&'a Diagnostic],
    /// One per boundary, in the plan's order.
    pub hints: &'a [Hint],
    pub source: &'a SourceFile,
    /// A graph built from blocks: its kernels per top-level instance.
    pub summary: Option<&'a crate::report::summary::Summary>,
    /// The instances it was expanded from (empty for a flat graph).
    pub instances: &'a [Instance],
    /// What the picture folds.
    pub fold: &'a Fold,
    /// Where the time goes (as `analyze --breakdown` reports it).
    pub breakdown: &'a Breakdown,
    /// The family of each kernel, by the breakdown's table.
    pub families: &'a Classifier<'a>,
}

/// The summary row of each op: its top-level instance's (in order), or the row after them
/// for the ops outside every block; and each row's name.
fn rows_of_ops(n_ops: usize, instances: &[Instance]) -> Vec<usize> {
    let tops: Vec<&Instance> = instances.iter().filter(|i| i.parent.is_none()).collect();
    let mut row = vec![tops.len(); n_ops];
    for (r, inst) in tops.iter().enumerate() {
        let end = inst.ops.end.min(n_ops);
        for slot in &mut row[inst.ops.start.min(end)..end] {
            *slot = r;
        }
    }
    row
}

/// The report of `p`.
pub fn html(p: &Page<'_>) -> String {
    let (a, c) = (p.analysis, p.cost);
    let g = &a.graph;
    let t = &a.traffic;
    let mut o = String::new();
    let _ = write!(
        o,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>fgraph: {name}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n\
         <h1>fgraph report: graph <code>{name}</code></h1>\n\
         <p>{ops} ops in {kernels} kernels on {hw} ({hwname}). Fusion saves {saved} of HBM \
         traffic ({pct:.2}%); estimated time {fused} fused against {unfused} unfused \
         (speedup {speedup:.2}×).</p>\n",
        name = esc(&g.name),
        ops = g.ops.len(),
        kernels = a.plan.groups.len(),
        hw = esc(&c.hardware.description),
        hwname = esc(&c.hardware.name),
        saved = bytes(t.fused.saved_by_fusion),
        pct = t.savings_pct,
        fused = fmt_time(c.fused.time_s),
        unfused = fmt_time(c.unfused.time_s),
        speedup = c.speedup,
    );
    time_breakdown(&mut o, p);
    let rows = p.summary.map(|s| layers(&mut o, s, p));
    picture(&mut o, p);
    kernels(&mut o, p, rows);
    traffic(&mut o, p);
    let _ = write!(
        o,
        "<h2>Roofline</h2>\n<div class=\"picture\" id=\"roofline\">\n{}\n</div>\n",
        inline_svg(&roofline::svg_with(
            g,
            c,
            roofline::Style {
                by_family: Some(p.families)
            }
        ))
    );
    boundaries(&mut o, p);
    // Diagnostics.
    let _ = writeln!(o, "<h2>Diagnostics</h2>");
    if p.diagnostics.is_empty() {
        o.push_str("<p id=\"diagnostics\">None.</p>\n");
    } else {
        o.push_str("<pre id=\"diagnostics\">");
        for d in p.diagnostics {
            o.push_str(&esc(&human(d, p.source, HumanStyle::plain())));
            o.push('\n');
        }
        o.push_str("</pre>\n");
    }
    let _ = write!(o, "<script>{SCRIPT}</script>\n</body>\n</html>\n");
    o
}

/// Where the time goes: the fused plan's time by family under each estimate, as a stacked bar
/// and as the `--breakdown` tables.
fn time_breakdown(o: &mut String, p: &Page<'_>) {
    let b = p.breakdown;
    let _ = write!(
        o,
        "<h2>Where the time goes</h2>\n<p>Estimated time of the fused plan by kernel family \
         (a kernel counts for its attention, matmul, normalisation, … whichever it holds; launch \
         overhead apart; hover a part for its figures), under each estimate that ran: the \
         figures of <code>fgraph analyze --breakdown</code>."
    );
    let top = b.models.first().and_then(|m| {
        m.families
            .iter()
            .max_by(|x, y| x.time_s.total_cmp(&y.time_s))
            .filter(|_| m.total_s > 0.0)
            .map(|r| (r.family, r.time_s, m.total_s))
    });
    if let Some((family, s, total)) = top {
        let _ = write!(
            o,
            " Compulsory, {family} takes {} of {} ({:.0}%).",
            fmt_time(s),
            fmt_time(total),
            100.0 * s / total
        );
    }
    let _ = write!(
        o,
        "</p>\n<div id=\"breakdown-bar\">\n{}</div>\n",
        charts::breakdown(&b.models)
    );
    super::html_capacity::breakdown_html(o, b);
}

/// The per-layer strip and its caption; returns the summary's rows, for the table.
fn layers<'s>(o: &mut String, s: &'s Summary, p: &Page<'_>) -> &'s Summary {
    let tops = s
        .instances
        .iter()
        .filter(|r| r.name != crate::report::summary::OUTSIDE)
        .count();
    let _ = write!(
        o,
        "<h2>Layers</h2>\n<p>One column per instance ({tops}{}): its estimated time above, its \
         HBM bytes below. Click one to open its kernels in the table below.</p>\n\
         <div id=\"layers\">\n{}</div>\n<p id=\"layer-detail\" class=\"note\">{}</p>\n",
        if s.instances.len() > tops {
            ", then the ops outside every block in grey"
        } else {
            ""
        },
        charts::strip(&s.instances),
        if p.fold.is_empty() {
            "Every instance is drawn in the plan below.".to_string()
        } else {
            format!(
                "Drawn op by op below: the first instance of each block; folded: {}.",
                esc(&folded_list(p.fold))
            )
        }
    );
    s
}

/// `layers.1 … layers.31 (31 × decoder)`, for each range.
fn folded_list(f: &Fold) -> String {
    let v: Vec<String> = f
        .ranges
        .iter()
        .take(8)
        .map(|r| format!("{} ({} × {})", r.span(), r.instances, r.block))
        .collect();
    let more = f.ranges.len().saturating_sub(8);
    let mut s = v.join(", ");
    if more > 0 {
        let _ = write!(s, " and {more} more ranges");
    }
    s
}

/// The width of an SVG in points (Graphviz writes `width="1234pt"`), if it says.
fn width_pt(svg: &str) -> Option<f64> {
    let svg = inline_svg(svg);
    let tag = &svg[..svg.find('>')?];
    let w = &tag[tag.find(" width=\"")? + 8..];
    w[..w.find('"')?].trim_end_matches("pt").parse().ok()
}

/// Pictures wider than this (points; three widths of the page) are not scaled down to the
/// page, where they would be unreadable: the page scrolls them to their first kernel.
const WIDE_PT: f64 = 2_600.0;

fn picture(o: &mut String, p: &Page<'_>) {
    let wide = width_pt(p.plan_svg).is_some_and(|w| w > WIDE_PT);
    let _ = write!(
        o,
        "<h2>Fusion plan</h2>\n<p>Kernels are clusters; click one (here or in the table) to \
         highlight it. Dashed tensors stay on chip; cylinders go through HBM; red edges are \
         boundaries, labelled with their reason.{}</p>\n<div class=\"picture{}\" id=\"plan\">\n\
         {}\n</div>\n",
        if p.fold.is_empty() {
            ""
        } else {
            " A 3-D box is a range of later instances of a block already drawn, with their \
             counts; click it to open their kernels."
        },
        if wide { " wide" } else { "" },
        lighter_plan(p.plan_svg)
    );
}

/// The kernel table: one `<tbody>` per summary row (or one for a flat graph), the rows of
/// layers whose kernels are all folded hidden.
fn kernels(o: &mut String, p: &Page<'_>, summary: Option<&Summary>) {
    let a = p.analysis;
    let g = &a.graph;
    o.push_str(
        "<h2>Kernels</h2>\n<table id=\"kernels\">\n<thead><tr><th>#</th><th class=\"ops\">ops\
         </th><th class=\"ops\">family</th><th>reads</th><th>writes</th><th>FLOPs</th>\
         <th>FLOP/B</th><th>bound</th><th>time</th></tr></thead>\n",
    );
    let row_of_op = rows_of_ops(g.ops.len(), p.instances);
    let n_rows = summary.map_or(1, |s| s.instances.len());
    let mut by_row: Vec<Vec<usize>> = vec![Vec::new(); n_rows.max(1)];
    for (k, grp) in a.plan.groups.iter().enumerate() {
        let r = match (summary, grp.ops.first()) {
            (Some(_), Some(&first)) => row_of_op[first.index()].min(n_rows - 1),
            _ => 0,
        };
        by_row[r].push(k);
    }
    // The rows of the layers shown first, then the folded layers' while they fit.
    let is_folded = |ks: &[usize]| -> bool {
        !ks.is_empty() && ks.iter().all(|&k| p.fold.kernel_range[k].is_some())
    };
    let shown: usize = (by_row.iter().filter(|ks| !is_folded(ks)))
        .map(Vec::len)
        .sum();
    let mut budget = TABLE_ROWS.saturating_sub(shown);
    let (mut left_kernels, mut left_layers) = (0usize, 0usize);
    // Layers in the order of their first kernel (the ops before the first block first).
    let mut order: Vec<usize> = (0..by_row.len()).collect();
    order.sort_by_key(|&r| by_row[r].first().copied().unwrap_or(usize::MAX));
    for r in order {
        let ks = &by_row[r];
        let folded = is_folded(ks);
        if folded && budget < ks.len() {
            left_kernels += ks.len();
            left_layers += 1;
            continue;
        }
        if folded {
            budget -= ks.len();
        }
        match summary.and_then(|s| s.instances.get(r)) {
            Some(_) if ks.is_empty() => continue,
            Some(row) => {
                let range = ks
                    .first()
                    .and_then(|&k| p.fold.kernel_range[k])
                    .filter(|_| folded)
                    .map_or(String::new(), |x| {
                        format!(" data-range=\"{}\"", super::dot::range_id(x))
                    });
                let _ = write!(
                    o,
                    "<tbody data-row=\"{r}\" data-name=\"{}\"{range}{}>\n<tr class=\"layer-head\">\
                     <th colspan=\"9\" class=\"ops\">{}{}: {} kernels, {}</th></tr>\n",
                    esc(&row.name),
                    if folded { " hidden" } else { "" },
                    esc(&row.name),
                    row.block
                        .as_deref()
                        .map_or(String::new(), |b| format!(" ({})", esc(b))),
                    row.kernels,
                    row.time_s.map_or("–".into(), fmt_time)
                );
            }
            None => o.push_str("<tbody>\n"),
        }
        for &k in ks.iter().take(TABLE_ROWS) {
            kernel_row(o, p, k);
        }
        if ks.len() > TABLE_ROWS {
            left_kernels += ks.len() - TABLE_ROWS;
        }
        o.push_str("</tbody>\n");
    }
    if left_kernels > 0 {
        let _ = writeln!(
            o,
            "<tbody id=\"left-out\"><tr><td colspan=\"9\" class=\"ops\">{left_kernels} kernels \
             ({left_layers} folded layers) left out: the page lists about {TABLE_ROWS}; \
             `fgraph analyze --format json` has every kernel.</td></tr></tbody>"
        );
    }
    o.push_str("</table>\n");
}

fn kernel_row(o: &mut String, p: &Page<'_>, k: usize) {
    let family = p
        .analysis
        .plan
        .groups
        .get(k)
        .map(|grp| p.families.kernel(&grp.ops));
    write_kernel_row(o, p.analysis, p.cost, k, family);
}

/// One row of a kernel table (`<tr class="kernel-row">`): kernel `k`'s ops, its family (the
/// page's table has the column, the notebook's has not), bytes, FLOPs, bound and time.
fn write_kernel_row(
    o: &mut String,
    a: &Analysis,
    c: &CostReport,
    k: usize,
    family: Option<crate::report::breakdown::KernelFamily>,
) {
    let g = &a.graph;
    let (Some(grp), Some(gt)) = (a.plan.groups.get(k), a.traffic.groups.get(k)) else {
        return;
    };
    let names: Vec<&str> = grp.ops.iter().map(|&op| g.op(op).name.as_str()).collect();
    let kc = c.fused.kernels.get(k);
    let family = family.map_or(String::new(), |f| {
        format!(
            "<td class=\"ops\"><span class=\"sw\" style=\"background:{}\"></span>{}</td>",
            f.colour(),
            f.as_str()
        )
    });
    let _ = writeln!(
        o,
        "<tr class=\"kernel-row\" id=\"row-k{n}\" data-kernel=\"{n}\"><td>{n}</td>\
         <td class=\"ops\">{ops}</td>{family}<td>{r}</td><td>{w}</td><td>{fl}</td><td>{i}</td>\
         <td>{b}</td><td>{time}</td></tr>",
        n = k + 1,
        ops = esc(&names.join(" → ")),
        r = bytes(gt.bytes_read),
        w = bytes(gt.bytes_written),
        fl = kc.map_or(String::new(), |k| si(k.flops as f64)),
        i = kc
            .and_then(|k| k.intensity)
            .map_or("–".into(), |i| format!("{i:.1}")),
        b = kc.map_or("", |k| k.bound.as_str()),
        time = kc.map_or(String::new(), |k| fmt_time(k.time_s)),
    );
}

fn traffic(o: &mut String, p: &Page<'_>) {
    let (t, c, att) = (&p.analysis.traffic, p.cost, p.attention);
    let _ = write!(
        o,
        "<h2>HBM traffic</h2>\n<table id=\"traffic\">\n<tr><th class=\"ops\">plan</th>\
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

/// A name without its top-level instance's prefix (`layers.3.q_proj` → `q_proj`).
fn relative<'n>(name: &'n str, prefix: Option<&str>) -> &'n str {
    prefix
        .and_then(|p| name.strip_prefix(p))
        .and_then(|n| n.strip_prefix('.'))
        .unwrap_or(name)
}

/// The boundaries, each distinct one once (the same edge, tensor and reason in every instance
/// of a block) with the instances that repeat it, then each reason's explanation once.
fn boundaries(o: &mut String, p: &Page<'_>) {
    let a = p.analysis;
    let g = &a.graph;
    let row_of_op = rows_of_ops(g.ops.len(), p.instances);
    let tops: Vec<&Instance> = p.instances.iter().filter(|i| i.parent.is_none()).collect();
    let inst = |o: crate::graph::OpId| tops.get(row_of_op[o.index()]).copied();
    // Key: block, reason, and the names relative to their instances.
    let mut groups: Vec<(usize, Vec<usize>)> = Vec::new();
    let mut index: HashMap<(Option<&str>, &str, &str, &str, &str), usize> = HashMap::new();
    for (i, b) in a.plan.boundaries.iter().enumerate() {
        let (pi, ci) = (inst(b.producer), inst(b.consumer));
        let tensor = &g.tensor(b.tensor).name;
        let key = (
            ci.map(|x| x.block.as_str()),
            b.reason.as_str(),
            relative(&g.op(b.producer).name, pi.map(|x| x.path.as_str())),
            relative(&g.op(b.consumer).name, ci.map(|x| x.path.as_str())),
            relative(
                tensor,
                ci.filter(|x| tensor.starts_with(x.path.as_str()))
                    .or(pi)
                    .map(|x| x.path.as_str()),
            ),
        );
        match index.get(&key) {
            Some(&j) => groups[j].1.push(i),
            None => {
                index.insert(key, groups.len());
                groups.push((i, vec![i]));
            }
        }
    }
    let _ = writeln!(
        o,
        "<h2>Boundaries</h2>\n<p>Edges that stay in HBM, and why ({}; {} distinct, each \
         listed once with the instances that repeat it).</p>\n<ul id=\"boundaries\">",
        a.plan.boundaries.len(),
        groups.len()
    );
    let mut reasons: Vec<&'static str> = Vec::new();
    for (first, members) in groups.iter().take(BOUNDARY_ROWS) {
        let b = &a.plan.boundaries[*first];
        if !reasons.contains(&b.reason.as_str()) {
            reasons.push(b.reason.as_str());
        }
        let hint = p
            .hints
            .get(*first)
            .map_or(String::new(), |h| esc(&h.sentence(g, &a.plan, b)));
        let repeats = if members.len() > 1 {
            let name = |i: usize| {
                inst(a.plan.boundaries[i].consumer).map_or("(outside blocks)", |x| x.path.as_str())
            };
            let last = members.last().copied().unwrap_or(*first);
            format!(
                "<br><span class=\"same\">the same in {} places: {} … {}</span>",
                members.len(),
                esc(name(*first)),
                esc(name(last))
            )
        } else {
            String::new()
        };
        let _ = writeln!(
            o,
            "<li>{} → {} via <code>{}</code> <span class=\"reason\">[{}]</span>: {}\
             <br><span class=\"hint\">{hint}</span>{repeats} \
             <a href=\"#reason-{}\">fgraph explain {}</a></li>",
            esc(&g.op(b.producer).name),
            esc(&g.op(b.consumer).name),
            esc(&g.tensor(b.tensor).name),
            b.reason,
            esc(&b.explain(g)),
            b.reason,
            b.reason,
        );
    }
    if groups.len() > BOUNDARY_ROWS {
        let _ = writeln!(
            o,
            "<li>… {} more distinct boundaries (the page lists {BOUNDARY_ROWS}; `fgraph analyze \
             --format json` has every one).</li>",
            groups.len() - BOUNDARY_ROWS
        );
    }
    o.push_str("</ul>\n<h2>Reasons</h2>\n<div id=\"reasons\">\n");
    for r in reasons {
        let text = crate::explain::text(r).unwrap_or("");
        let _ = writeln!(
            o,
            "<details id=\"reason-{r}\"><summary>fgraph explain {r}</summary><pre>{}</pre>\
             </details>",
            esc(text)
        );
    }
    o.push_str("</div>\n");
}

// The notebook view's parts (`super::notebook`, the Python module's `Report._repr_html_`).

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
    o.push_str(
        "<table id=\"kernels\">\n<tr><th>#</th><th class=\"ops\">ops</th>\
         <th>reads</th><th>writes</th><th>FLOPs</th><th>FLOP/B</th><th>bound</th><th>time</th>\
         </tr>\n",
    );
    for k in 0..a.plan.groups.len().min(rows) {
        write_kernel_row(o, a, c, k, None);
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
    use crate::report::fold::Fold;

    #[test]
    fn the_report_needs_nothing_from_outside_and_escapes_names() {
        let src = "graph g {\n  input x: [64, 64]\n  input spare: [4]\n  op a = elementwise.relu(x) -> y\n}\n";
        let r = check_file("g.fgraph", src.as_bytes(), &Options::default());
        let a = r.graphs[0].analysis.as_ref().expect("analysis");
        let hw = Hardware::preset("h100").expect("preset");
        let c = cost::estimate(a, &hw, LaunchMode::Graph).expect("cost");
        let att = cost::attention(a, &hw, LaunchMode::Graph).expect("attention");
        let svg = "<?xml version=\"1.0\"?>\n<svg><g class=\"cluster\"><title>cluster_k1</title></g></svg>";
        let diagnostics = r.diagnostics.iter().collect::<Vec<_>>();
        let hints = crate::report::hints(a).hints;
        let source = SourceFile::new("g.fgraph", src);
        let fold = Fold::none(a);
        let html = super::html(&super::Page {
            analysis: a,
            cost: &c,
            attention: &att,
            plan_svg: svg,
            diagnostics: &diagnostics,
            hints: &hints,
            source: &source,
            summary: None,
            instances: &[],
            fold: &fold,
            breakdown: &crate::report::breakdown::breakdown(a, &[], &c, &att.patterns, None),
            families: &crate::report::breakdown::Classifier::new(&a.graph, &att.patterns),
        });
        assert!(html.starts_with("<!DOCTYPE html>"));
        // Self-contained: no fetched script, style sheet, font or image.
        for needle in ["<script src", "<link", "@import", "url(", "<img", "<iframe"] {
            assert!(!html.contains(needle), "{needle}");
        }
        // The picture is inlined without its XML prologue; one row per kernel.
        assert!(html.contains("<div class=\"picture\" id=\"plan\">\n<svg>"));
        assert_eq!(html.matches("<tr class=\"kernel-row\"").count(), 1);
        // No strip for a graph without blocks; the time breakdown is there.
        assert!(!html.contains("id=\"layers\""));
        assert!(html.contains("id=\"breakdown\"") && html.contains("id=\"breakdown-bar\""));
        assert_eq!(html.matches("<h2>Where the time goes</h2>").count(), 1);
        // The unused-tensor warning is in the diagnostics, escaped.
        assert!(html.contains("unused-tensor"));
        assert!(html.contains("tensor `spare` is declared but never used"));
        assert_eq!(super::esc("<a & \"b\">"), "&lt;a &amp; &quot;b&quot;&gt;");
        assert_eq!(
            super::relative("layers.3.q_proj", Some("layers.3")),
            "q_proj"
        );
        assert_eq!(
            super::relative("layers.30.x", Some("layers.3")),
            "layers.30.x"
        );
        assert_eq!(
            super::width_pt("<?xml?>\n<svg width=\"34529pt\" x>"),
            Some(34529.0)
        );
        assert_eq!(super::width_pt("<svg>"), None);
        assert_eq!(
            super::lighter_plan(
                "<?xml?>\n<svg><!-- a --><text font-family=\"Helvetica,sans-Serif\">x</text>\
                 <!-- b --></svg>"
            ),
            "<svg><text>x</text></svg>"
        );
    }
}
