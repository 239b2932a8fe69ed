//! The roofline picture (`analyze --roofline`, and inline in `--html`): a hand-written,
//! self-contained SVG of the cost model's estimate (log-log axes, the memory roof, the 16-bit
//! tensor and f32 compute roofs, the ridge points, and every kernel of the unfused and the
//! fused plan).
//!
//! The HTML report draws it [`Style::by_family`]: each point coloured by its kernel's family
//! (the breakdown's [`Classifier`], the table of `analyze --breakdown`), kernels of one
//! family that fall on the same spot (the same kernel in every layer) drawn as one point with
//! their count, and a legend of families in place of one row per kernel (the report's kernel
//! table lists them).

use crate::cost::{CostReport, KernelCost, Unit};
use crate::graph::Graph;
use crate::report::breakdown::{Classifier, KernelFamily as Family};
use crate::units::{fmt_num, si, with_unit};
use std::borrow::Cow;
use std::fmt::Write as _;

const W: f64 = 960.0;
const PLOT_X: f64 = 90.0;
const PLOT_Y: f64 = 70.0;
const PLOT_W: f64 = 820.0;
const PLOT_H: f64 = 460.0;
/// Legend rows drawn at most; every point still carries its names in a `<title>`.
const MAX_LEGEND: usize = 400;
const ROW: f64 = 16.0;

/// Escapes text for XML content and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Characters XML 1.0 forbids.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => out.push('?'),
            c => out.push(c),
        }
    }
    out
}

/// Names of a kernel's ops: `matmul1 → bias1 → relu` (at most 6, then a count).
fn kernel_names(g: &Graph, k: &KernelCost) -> String {
    let v: Vec<&str> = k
        .ops
        .iter()
        .take(6)
        .map(|&o| g.op(o).name.as_str())
        .collect();
    let more = k.ops.len().saturating_sub(6);
    let mut s = v.join(" → ");
    if more > 0 {
        let _ = write!(s, " … {more} more");
    }
    s
}

struct Axes {
    x0: f64,
    x1: f64,
    y0: f64,
    y1: f64,
}

impl Axes {
    fn x(&self, v: f64) -> f64 {
        let t = (v.max(10f64.powf(self.x0)).log10() - self.x0) / (self.x1 - self.x0);
        PLOT_X + t.clamp(0.0, 1.0) * PLOT_W
    }
    fn y(&self, v: f64) -> f64 {
        let t = (v.max(10f64.powf(self.y0)).log10() - self.y0) / (self.y1 - self.y0);
        PLOT_Y + PLOT_H - t.clamp(0.0, 1.0) * PLOT_H
    }
}

/// An axis label for 10^d: `0.01`, `1`, `100`, `10k`.
fn tick(d: i64) -> String {
    if (-4..0).contains(&d) {
        format!("{}", 10f64.powi(d as i32))
    } else {
        si(10f64.powi(d as i32)).replace(' ', "")
    }
}

/// A kernel to plot: its label (`U3`, `F1`), whether fused, its cost.
struct Point<'a> {
    label: String,
    fused: bool,
    cost: Cow<'a, KernelCost>,
}

/// How the kernels are drawn.
#[derive(Clone, Copy, Debug, Default)]
pub struct Style<'a> {
    /// Points coloured by their family by this classifier, coincident points of one family
    /// merged, a legend of families instead of one row per kernel.
    pub by_family: Option<&'a Classifier<'a>>,
}

/// The roofline of `cost.hardware` with every kernel of both plans, as an SVG document.
pub fn svg(g: &Graph, cost: &CostReport) -> String {
    svg_with(g, cost, Style::default())
}

/// [`svg`], drawn in `style`.
pub fn svg_with(g: &Graph, cost: &CostReport, style: Style<'_>) -> String {
    let hw = &cost.hardware;
    let points: Vec<Point<'_>> = cost
        .unfused_kernels()
        .enumerate()
        .map(|(i, k)| Point {
            label: format!("U{}", i + 1),
            fused: false,
            cost: Cow::Owned(k),
        })
        .chain(cost.fused.kernels.iter().enumerate().map(|(i, k)| Point {
            label: format!("F{}", i + 1),
            fused: true,
            cost: Cow::Borrowed(k),
        }))
        .collect();
    let plottable = |p: &Point<'_>| p.cost.flops > 0 && p.cost.intensity.is_some_and(|i| i > 0.0);

    // Axis ranges in decades, covering every point and both ridge points.
    let (r16, r32) = (hw.ridge(Unit::Tensor16), hw.ridge(Unit::F32));
    let mut xs: Vec<f64> = vec![r16, r32];
    let mut ys: Vec<f64> = vec![hw.peak_f16, hw.peak_f32];
    // The 8-bit tensor roofs of the units the graph's matmuls run on (issue 23), where the
    // GPU has a rate of its own for them.
    let roofs8: Vec<(Unit, &str)> = [(Unit::TensorF8, "fp8"), (Unit::TensorI8, "int8")]
        .into_iter()
        .filter(|&(u, _)| !hw.lacks(u) && cost.unfused.kernels.iter().any(|k| k.unit == u))
        .collect();
    ys.extend(roofs8.iter().map(|&(u, _)| hw.peak(u)));
    for p in points.iter().filter(|p| plottable(p)) {
        xs.push(p.cost.intensity.unwrap_or(1.0));
        ys.push(p.cost.achieved());
    }
    let decade = |v: f64| v.log10();
    let finite = |v: &f64| v.is_finite() && *v > 0.0;
    let xmin = xs.iter().copied().filter(finite).fold(f64::MAX, f64::min);
    let xmax = xs.iter().copied().filter(finite).fold(0.0, f64::max);
    let mut x0 = decade(xmin).floor().min(decade(r32).floor() - 1.0);
    let mut x1 = decade(xmax).ceil().max(decade(r16).ceil() + 1.0);
    x0 = x0.max(x1 - 16.0);
    if x1 - x0 < 3.0 {
        x1 = x0 + 3.0;
    }
    let top = ys[..2 + roofs8.len()].iter().copied().fold(0.0, f64::max);
    let y1 = decade(top * 2.0).ceil();
    let ymin = ys
        .iter()
        .copied()
        .filter(finite)
        .fold(hw.bandwidth * 10f64.powf(x0), f64::min);
    let y0 = decade(ymin).floor().max(y1 - 14.0).min(y1 - 3.0);
    let ax = Axes { x0, x1, y0, y1 };

    let unplotted: Vec<&Point<'_>> = points.iter().filter(|p| !plottable(p)).collect();
    // Without a classifier every point is drawn alike (its family is not used).
    let families: Vec<Family> = points
        .iter()
        .map(|p| {
            style
                .by_family
                .map_or(Family::LayoutCopy, |c| c.kernel(&p.cost.ops))
        })
        .collect();
    let by_family = style.by_family.is_some();
    let listed = if by_family {
        Family::ALL.len()
    } else {
        points.len().min(MAX_LEGEND)
    };
    let legend_rows = listed + 4 + usize::from(!unplotted.is_empty());
    let height = PLOT_Y + PLOT_H + 70.0 + legend_rows as f64 * ROW + 20.0;

    let mut s = String::new();
    let _ = writeln!(s, r#"<?xml version="1.0" encoding="UTF-8"?>"#);
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{height}" viewBox="0 0 {W} {height}" font-family="Helvetica, Arial, sans-serif" font-size="12">"#
    );
    let _ = writeln!(
        s,
        r#"<title>Roofline of graph {} on {}</title>"#,
        escape(&g.name),
        escape(&hw.description)
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{PLOT_X}" y="24" font-size="16" font-weight="bold">Roofline: graph `{}` on {}</text>"#,
        escape(&g.name),
        escape(&hw.description)
    );
    let _ = writeln!(
        s,
        r##"<text x="{PLOT_X}" y="42" fill="#444">{} TFLOP/s dense 16-bit tensor, {} TFLOP/s f32, {} TB/s HBM; launch {} µs per kernel ({})</text>"##,
        fmt_num(hw.peak_f16 / 1e12),
        fmt_num(hw.peak_f32 / 1e12),
        fmt_num(hw.bandwidth / 1e12),
        fmt_num(hw.launch(cost.launch) * 1e6),
        cost.launch.as_str()
    );
    let _ = writeln!(
        s,
        "{}",
        if by_family {
            r##"<text x="90" y="58" fill="#444">points: estimated FLOP/s, launch overhead included; ○ U = unfused (one op per kernel), ● F = fused; colour: the kernel's family</text>"##
        } else {
            r##"<text x="90" y="58" fill="#444">points: estimated FLOP/s, launch overhead included; <tspan fill="#d62728">○ U = unfused</tspan> (one op per kernel), <tspan fill="#1f77b4">● F = fused</tspan></text>"##
        }
    );

    // Frame and decade grid.
    let _ = writeln!(
        s,
        r##"<rect x="{PLOT_X}" y="{PLOT_Y}" width="{PLOT_W}" height="{PLOT_H}" fill="none" stroke="#888"/>"##
    );
    let _ = writeln!(s, r##"<g stroke="#e4e4e4" class="grid">"##);
    for d in (x0 as i64)..=(x1 as i64) {
        let x = ax.x(10f64.powi(d as i32));
        let _ = writeln!(
            s,
            r#"<line x1="{x:.1}" y1="{PLOT_Y}" x2="{x:.1}" y2="{:.1}"/>"#,
            PLOT_Y + PLOT_H
        );
    }
    for d in (y0 as i64)..=(y1 as i64) {
        let y = ax.y(10f64.powi(d as i32));
        let _ = writeln!(
            s,
            r#"<line x1="{PLOT_X}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}"/>"#,
            PLOT_X + PLOT_W
        );
    }
    let _ = writeln!(s, "</g>");
    let _ = writeln!(s, r##"<g fill="#333" class="ticks">"##);
    for d in (x0 as i64)..=(x1 as i64) {
        let x = ax.x(10f64.powi(d as i32));
        let _ = writeln!(
            s,
            r#"<text x="{x:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
            PLOT_Y + PLOT_H + 16.0,
            tick(d)
        );
    }
    for d in (y0 as i64)..=(y1 as i64) {
        let y = ax.y(10f64.powi(d as i32));
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{}FLOP/s</text>"#,
            PLOT_X - 6.0,
            y + 4.0,
            escape(&si(10f64.powi(d as i32))).replace(' ', "") + " "
        );
    }
    let _ = writeln!(s, "</g>");
    let _ = writeln!(
        s,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">arithmetic intensity (FLOP/byte of HBM traffic)</text>"#,
        PLOT_X + PLOT_W / 2.0,
        PLOT_Y + PLOT_H + 36.0
    );

    // Roofs: memory slope up to each ridge, then flat.
    let xl = 10f64.powf(x0);
    let xr = 10f64.powf(x1);
    let roof = |peak: f64, ridge: f64| {
        format!(
            "M {:.1} {:.1} L {:.1} {:.1} L {:.1} {:.1}",
            ax.x(xl),
            ax.y(hw.bandwidth * xl),
            ax.x(ridge),
            ax.y(peak),
            ax.x(xr),
            ax.y(peak)
        )
    };
    let _ = writeln!(
        s,
        r##"<path class="roof" d="{}" fill="none" stroke="#999" stroke-width="1.5" stroke-dasharray="6 4"><title>f32 / CUDA-core roof: {} TFLOP/s</title></path>"##,
        roof(hw.peak_f32, r32),
        fmt_num(hw.peak_f32 / 1e12)
    );
    let _ = writeln!(
        s,
        r##"<path class="roof" d="{}" fill="none" stroke="black" stroke-width="2"><title>16-bit tensor roof: {} TFLOP/s; memory roof: {} TB/s</title></path>"##,
        roof(hw.peak_f16, r16),
        fmt_num(hw.peak_f16 / 1e12),
        fmt_num(hw.bandwidth / 1e12)
    );
    for &(u, name) in &roofs8 {
        let _ = writeln!(
            s,
            r##"<path class="roof" d="{}" fill="none" stroke="#555" stroke-width="1.5"><title>{name} tensor roof: {} TFLOP/s</title></path>"##,
            roof(hw.peak(u), hw.ridge(u)),
            fmt_num(hw.peak(u) / 1e12)
        );
    }
    for (ridge, peak, name, lift) in [
        (r16, hw.peak_f16, "16-bit tensor", 6.0),
        (r32, hw.peak_f32, "f32", 22.0),
    ] {
        let (x, y) = (ax.x(ridge), ax.y(peak));
        let _ = writeln!(
            s,
            r##"<g class="ridge"><line x1="{x:.1}" y1="{y:.1}" x2="{x:.1}" y2="{:.1}" stroke="#2ca02c" stroke-dasharray="2 3"/><circle cx="{x:.1}" cy="{y:.1}" r="5" fill="#2ca02c"/><text x="{:.1}" y="{:.1}" fill="#2ca02c">ridge {} FLOP/B ({name})</text></g>"##,
            PLOT_Y + PLOT_H,
            x + 4.0,
            PLOT_Y + PLOT_H - lift,
            fmt_num(ridge)
        );
    }

    // Kernels. Points closer than a few pixels share one label ("U3, F2").
    let placed: Vec<(f64, f64, &Point<'_>, Family)> = points
        .iter()
        .zip(&families)
        .filter(|(p, _)| plottable(p))
        .map(|(p, &f)| {
            (
                ax.x(p.cost.intensity.unwrap_or(1.0)),
                ax.y(p.cost.achieved()),
                p,
                f,
            )
        })
        .collect();
    // Clusters by 5-pixel cell, in first-seen order (linear in the number of points).
    let mut cell_of: std::collections::HashMap<(i64, i64), usize> = Default::default();
    let mut clusters: Vec<(f64, f64, Vec<&str>)> = Vec::new();
    for (x, y, p, _) in &placed {
        let cell = ((x / 5.0).round() as i64, (y / 5.0).round() as i64);
        let i = *cell_of.entry(cell).or_insert_with(|| {
            clusters.push((*x, *y, Vec::new()));
            clusters.len() - 1
        });
        clusters[i].2.push(p.label.as_str());
    }
    let _ = writeln!(s, r#"<g class="kernels">"#);
    if by_family {
        merged_points(&mut s, g, &placed);
    }
    for (x, y, p, _) in placed.iter().filter(|_| !by_family) {
        let (fill, stroke) = if p.fused {
            ("#1f77b4", "#1f77b4")
        } else {
            ("white", "#d62728")
        };
        let _ = writeln!(
            s,
            r#"<g class="kernel" data-kernel="{}"><circle cx="{x:.1}" cy="{y:.1}" r="4.5" fill="{fill}" stroke="{stroke}" stroke-width="1.5"><title>{} {}</title></circle></g>"#,
            p.label,
            p.label,
            escape(&describe(g, p)),
        );
    }
    // Alternate label sides along the roof so neighbouring clusters stay apart.
    for (i, (x, y, labels)) in clusters.iter().enumerate() {
        let (dx, dy, anchor) = if i % 2 == 0 {
            (7.0, -7.0, "start")
        } else {
            (-7.0, 14.0, "end")
        };
        let text = if by_family && labels.len() > 3 {
            format!("{}, {} … ×{}", labels[0], labels[1], labels.len())
        } else {
            labels.join(", ")
        };
        let _ = writeln!(
            s,
            r##"<text class="point-label" x="{:.1}" y="{:.1}" font-size="10" fill="#333" text-anchor="{anchor}">{}</text>"##,
            x + dx,
            y + dy,
            text
        );
    }
    let _ = writeln!(s, "</g>");

    // Legend: every kernel by label.
    let mut y = PLOT_Y + PLOT_H + 64.0;
    let _ = writeln!(s, r#"<g class="legend">"#);
    if by_family {
        let _ = writeln!(
            s,
            r#"<text x="{PLOT_X}" y="{y:.1}" font-weight="bold">kernel families (unfused, fused kernels; hover a point for its kernels)</text>"#
        );
        y += ROW;
        for &f in Family::ALL {
            let count = |fused: bool| {
                (points.iter().zip(&families))
                    .filter(|(p, g)| p.fused == fused && **g == f)
                    .count()
            };
            let _ = writeln!(
                s,
                r#"<g class="family-legend"><rect x="{PLOT_X}" y="{:.1}" width="12" height="12" fill="{}"/><text x="{:.1}" y="{y:.1}">{}: {} unfused, {} fused</text></g>"#,
                y - 10.0,
                f.colour(),
                PLOT_X + 18.0,
                f.as_str(),
                count(false),
                count(true)
            );
            y += ROW;
        }
    } else {
        let _ = writeln!(
            s,
            r#"<text x="{PLOT_X}" y="{y:.1}" font-weight="bold">kernels (U = unfused, F = fused): ops, FLOP/B, bound, estimated time</text>"#
        );
        y += ROW;
    }
    for p in points.iter().take(MAX_LEGEND).filter(|_| !by_family) {
        let colour = if p.fused { "#1f77b4" } else { "#d62728" };
        let _ = writeln!(
            s,
            r#"<text x="{PLOT_X}" y="{y:.1}" class="legend-row" data-kernel="{}"><tspan fill="{colour}" font-weight="bold">{}</tspan> {}</text>"#,
            p.label,
            p.label,
            escape(&describe(g, p))
        );
        y += ROW;
    }
    if points.len() > MAX_LEGEND && !by_family {
        let _ = writeln!(
            s,
            r#"<text x="{PLOT_X}" y="{y:.1}">… {} more kernels (hover a point for its ops)</text>"#,
            points.len() - MAX_LEGEND
        );
        y += ROW;
    }
    if !unplotted.is_empty() {
        let mut names: Vec<&str> = unplotted.iter().map(|p| p.label.as_str()).collect();
        if by_family && names.len() > 24 {
            names.truncate(24);
            names.push("…");
        }
        let _ = writeln!(
            s,
            r##"<text x="{PLOT_X}" y="{y:.1}" fill="#666">not plotted (no FLOPs, so no point on log axes): {}</text>"##,
            escape(&names.join(", "))
        );
        y += ROW;
    }
    let _ = writeln!(
        s,
        r##"<text x="{PLOT_X}" y="{y:.1}" fill="#444">estimated time: unfused {} µs in {} kernels, fused {} µs in {} kernels, speedup {}×</text>"##,
        fmt_num(cost.unfused.time_s * 1e6),
        cost.unfused.kernels.len(),
        fmt_num(cost.fused.time_s * 1e6),
        cost.fused.kernels.len(),
        fmt_num(cost.speedup)
    );
    let _ = writeln!(s, "</g>");
    let _ = writeln!(s, "</svg>");
    s
}

/// The points of a family at one spot (a 3-pixel cell) as one circle, filled in the family's
/// colour when fused, outlined when unfused, titled with its kernels (the first 8, then a
/// count) and the first one's estimate.
fn merged_points(s: &mut String, g: &Graph, placed: &[(f64, f64, &Point<'_>, Family)]) {
    let mut at: std::collections::HashMap<(i64, i64, bool, Family), usize> = Default::default();
    let mut merged: Vec<(f64, f64, Family, Vec<&Point<'_>>)> = Vec::new();
    for &(x, y, p, f) in placed {
        let key = (
            (x / 3.0).round() as i64,
            (y / 3.0).round() as i64,
            p.fused,
            f,
        );
        let i = *at.entry(key).or_insert_with(|| {
            merged.push((x, y, f, Vec::new()));
            merged.len() - 1
        });
        merged[i].3.push(p);
    }
    for (x, y, f, ps) in &merged {
        let fused = ps[0].fused;
        let (fill, stroke) = if fused {
            (f.colour(), "#222")
        } else {
            ("white", f.colour())
        };
        let mut names: Vec<&str> = ps.iter().take(8).map(|p| p.label.as_str()).collect();
        let more = ps.len().saturating_sub(8);
        let count = if ps.len() > 1 {
            format!(" ({} kernels)", ps.len())
        } else {
            String::new()
        };
        if more > 0 {
            names.push("…");
        }
        let _ = writeln!(
            s,
            r#"<g class="kernel" data-kernel="{}" data-family="{}"><circle cx="{x:.1}" cy="{y:.1}" r="{}" fill="{fill}" stroke="{stroke}" stroke-width="1.5"><title>{}{count} {}: {}</title></circle></g>"#,
            ps[0].label,
            f.as_str(),
            if fused { 5.0 } else { 4.0 },
            names.join(", "),
            f.as_str(),
            escape(&describe(g, ps[0])),
        );
    }
}

fn describe(g: &Graph, p: &Point<'_>) -> String {
    let k = &*p.cost;
    format!(
        "{}: {}; {}, {}, {} FLOP/B, {}-bound, {} µs",
        if p.fused { "fused" } else { "unfused" },
        kernel_names(g, k),
        with_unit(k.flops, "FLOP"),
        with_unit(k.bytes, "B"),
        k.intensity.map_or("-".to_string(), fmt_num),
        k.bound.as_str(),
        fmt_num(k.time_s * 1e6)
    )
}
