//! The HTML report's small pictures, hand-written SVG: the stacked bar of where the time goes
//! (the fused plan's time by kernel family under each estimate, launch overhead apart: the
//! models of [`crate::report::breakdown`], the figures of `analyze --breakdown`) and the
//! per-layer strip (one column per top-level instance of a graph built from blocks, and one
//! for the ops outside them: its time and its HBM bytes as bars, from
//! [`crate::report::summary`]).

use crate::report::breakdown::{KernelFamily, ModelRow};
use crate::report::render::dot::bytes;
use crate::report::render::roofline::escape;
use crate::report::summary::{OUTSIDE, Row};
use crate::units::fmt_time;
use std::fmt::Write;

/// The width of both pictures (user units; the page scales them to its width).
const W: f64 = 1000.0;
/// Left margin for the row labels of the stacked bars.
const LABEL_W: f64 = 170.0;
/// Colour of the launch-overhead segment.
const LAUNCH: &str = "#bdbdbd";
/// Columns the strip draws at most: past this many instances, each column sums a run of
/// consecutive ones (`layers.0 … layers.9`), so that the page stays small.
pub const MAX_COLUMNS: usize = 500;

/// The stacked bars of `models` (the breakdown's rows: compulsory, then the hardware model's
/// and the runtime's where they ran), on one scale (the longest bar fills the width), with a
/// legend of the families present. Each part carries its figures as `data-*` attributes
/// (`data-model`, `data-family`, `data-s`, `data-kernels`), the very numbers of
/// `analyze --breakdown`.
pub fn breakdown(models: &[ModelRow]) -> String {
    let longest = models.iter().map(|m| m.total_s).fold(0.0, f64::max);
    let bar_w = W - LABEL_W - 10.0;
    let row_h = 34.0;
    let present: Vec<KernelFamily> = KernelFamily::ALL
        .iter()
        .copied()
        .filter(|f| {
            models
                .iter()
                .any(|m| m.families.iter().any(|r| r.family == f.as_str()))
        })
        .collect();
    let legend_y = 10.0 + row_h * models.len() as f64 + 14.0;
    let height = legend_y + 22.0;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {height}" width="100%" font-family="Helvetica, Arial, sans-serif" font-size="13" class="breakdown">"#
    );
    for (row, m) in models.iter().enumerate() {
        let y = 10.0 + row_h * row as f64;
        let total = m.total_s;
        let _ = writeln!(
            s,
            r#"<text x="0" y="{:.1}">{} {}</text>"#,
            y + 17.0,
            escape(&m.model),
            fmt_time(total)
        );
        let scale = if longest > 0.0 { bar_w / longest } else { 0.0 };
        let mut x = LABEL_W;
        let parts = m
            .families
            .iter()
            .map(|r| {
                let colour = KernelFamily::named(r.family).map_or(LAUNCH, |f| f.colour());
                (r.family, colour, r.time_s, r.kernels)
            })
            .chain(std::iter::once((
                "launch overhead",
                LAUNCH,
                m.launch_s,
                m.launches,
            )));
        for (label, colour, secs, kernels) in parts {
            if secs <= 0.0 {
                continue;
            }
            let w = secs * scale;
            let pct = if total > 0.0 {
                100.0 * secs / total
            } else {
                0.0
            };
            let what = if label == "launch overhead" {
                "launches"
            } else {
                "kernels"
            };
            let _ = write!(
                s,
                r#"<g class="part" data-model="{model}" data-family="{label}" data-s="{secs}" data-kernels="{kernels}"><rect x="{x:.1}" y="{y:.1}" width="{w:.2}" height="24" fill="{colour}"><title>{label}: {} ({pct:.1}%), {kernels} {what}</title></rect>"#,
                fmt_time(secs),
                model = escape(&m.model),
            );
            // Labelled where the label fits (about 6.5 units a character at this size).
            if w > 10.0 + 6.5 * (label.len() + 4) as f64 {
                let _ = write!(
                    s,
                    r##"<text x="{:.1}" y="{:.1}" fill="#111" font-size="11">{label} {pct:.0}%</text>"##,
                    x + 4.0,
                    y + 16.0
                );
            }
            s.push_str("</g>\n");
            x += w;
        }
    }
    let mut x = 0.0;
    let legend = present
        .iter()
        .map(|f| (f.as_str(), f.colour()))
        .chain(std::iter::once(("launch overhead", LAUNCH)));
    for (label, colour) in legend {
        let _ = writeln!(
            s,
            r#"<rect x="{x:.1}" y="{:.1}" width="12" height="12" fill="{colour}"/><text x="{:.1}" y="{legend_y:.1}" font-size="12">{label}</text>"#,
            legend_y - 10.0,
            x + 16.0
        );
        x += 24.0 + 7.0 * label.len() as f64;
    }
    s.push_str("</svg>\n");
    s
}

/// The columns of the strip: `(index of the first row, the row or the sum of a run)`.
fn columns(rows: &[Row]) -> Vec<(usize, Row)> {
    let instances = rows.iter().filter(|r| r.name != OUTSIDE).count();
    if rows.len() <= MAX_COLUMNS {
        return rows.iter().cloned().enumerate().collect();
    }
    let per = instances.div_ceil(MAX_COLUMNS - 1).max(1);
    let mut out: Vec<(usize, Row)> = Vec::new();
    for (i, r) in rows.iter().enumerate() {
        match out.last_mut() {
            Some((first, sum)) if r.name != OUTSIDE && sum.name != OUTSIDE && i - *first < per => {
                sum.kernels += r.kernels;
                sum.ops += r.ops;
                sum.bytes_read = sum.bytes_read.saturating_add(r.bytes_read);
                sum.bytes_written = sum.bytes_written.saturating_add(r.bytes_written);
                sum.flops = sum.flops.saturating_add(r.flops);
                sum.time_s = match (sum.time_s, r.time_s) {
                    (Some(a), Some(b)) => Some(a + b),
                    (a, b) => a.or(b),
                };
                let first_name = sum.name.split(" … ").next().unwrap_or_default().to_string();
                sum.name = format!("{first_name} … {}", r.name);
            }
            _ => out.push((i, r.clone())),
        }
    }
    out
}

/// The per-layer strip of `rows` (the summary's instance rows): one `g.layer` per row (per
/// run of rows past [`MAX_COLUMNS`]), with its time (upper panel) and its HBM bytes (lower
/// panel) as bars on the largest, and a `<title>` with its figures. `data-row` is the (first)
/// row's index (the kernel table's `tbody[data-row]`).
pub fn strip(rows: &[Row]) -> String {
    let cols = columns(rows);
    let rows: Vec<&Row> = cols.iter().map(|(_, r)| r).collect();
    let n = rows.len().max(1);
    let (left, panel_h, gap) = (70.0, 70.0, 26.0);
    let col = (W - left) / n as f64;
    let height = 14.0 + panel_h * 2.0 + gap + 20.0;
    let max_t = rows.iter().filter_map(|r| r.time_s).fold(0.0, f64::max);
    let max_b = rows.iter().map(|r| r.bytes()).max().unwrap_or(0);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {height}" width="100%" font-family="Helvetica, Arial, sans-serif" font-size="12" class="strip">"#
    );
    let top_t = 14.0;
    let top_b = top_t + panel_h + gap;
    let _ = writeln!(
        s,
        r##"<text x="0" y="{:.1}" fill="#444">time</text><text x="0" y="{:.1}" fill="#444" font-size="10">max {}</text><text x="0" y="{:.1}" fill="#444">HBM bytes</text><text x="0" y="{:.1}" fill="#444" font-size="10">max {}</text>"##,
        top_t + 12.0,
        top_t + 26.0,
        fmt_time(max_t),
        top_b + 12.0,
        top_b + 26.0,
        bytes(max_b)
    );
    for (i, (r, &(row, _))) in rows.iter().zip(&cols).enumerate() {
        let x = left + col * i as f64;
        let w = (col * 0.8).max(0.5);
        let outside = r.name == OUTSIDE;
        let th = r
            .time_s
            .filter(|_| max_t > 0.0)
            .map_or(0.0, |t| panel_h * t / max_t);
        let bh = if max_b > 0 {
            panel_h * r.bytes() as f64 / max_b as f64
        } else {
            0.0
        };
        let (ct, cb) = if outside {
            ("#9e9e9e", "#c4c4c4")
        } else {
            ("#4a6fa5", "#e69f00")
        };
        let block = r
            .block
            .as_deref()
            .map_or(String::new(), |b| format!(" ({})", escape(b)));
        let _ = writeln!(
            s,
            r##"<g class="{}" data-row="{row}" data-name="{}"><title>{}{block}: {} kernels, {} ops, {}, reads {}, writes {}</title><rect class="hit" x="{x:.2}" y="{top_t}" width="{col:.2}" height="{:.1}" fill="transparent"/><rect x="{x:.2}" y="{:.2}" width="{w:.2}" height="{th:.2}" fill="{ct}"/><rect x="{x:.2}" y="{:.2}" width="{w:.2}" height="{bh:.2}" fill="{cb}"/></g>"##,
            if outside { "layer outside" } else { "layer" },
            escape(&r.name),
            escape(&r.name),
            r.kernels,
            r.ops,
            r.time_s.map_or("–".into(), fmt_time),
            bytes(r.bytes_read),
            bytes(r.bytes_written),
            panel_h * 2.0 + gap,
            top_t + panel_h - th,
            top_b + panel_h - bh,
        );
    }
    // Index labels under the strip: about ten, on round steps.
    let step = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000]
        .into_iter()
        .find(|&k| n / k <= 12)
        .unwrap_or(n.div_ceil(12));
    for i in (0..rows.len()).step_by(step) {
        if rows[i].name == OUTSIDE {
            continue;
        }
        let _ = writeln!(
            s,
            r##"<text x="{:.1}" y="{:.1}" font-size="10" fill="#555" text-anchor="middle">{}</text>"##,
            left + col * (i as f64 + 0.4),
            top_b + panel_h + 14.0,
            cols[i].0
        );
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::breakdown::FamilyRow;

    #[test]
    fn the_strip_has_one_bar_per_row_and_each_part_its_share() {
        let mut rows: Vec<Row> = (0..3)
            .map(|i| Row {
                name: format!("layers.{i}"),
                block: Some("decoder".into()),
                kernels: 2,
                bytes_read: 100 * (i + 1),
                time_s: Some(1e-3),
                ..Row::default()
            })
            .collect();
        rows.push(Row {
            name: OUTSIDE.into(),
            ..Row::default()
        });
        let s = strip(&rows);
        assert_eq!(s.matches("<g class=\"layer\"").count(), 3);
        assert_eq!(s.matches("<g class=\"layer outside\"").count(), 1);
        assert!(s.contains("layers.2 (decoder): 2 kernels"));
        // Index labels under the columns: 0, 1, 2 (not the outside column).
        assert!(s.contains(">0</text>") && s.contains(">2</text>") && !s.contains(">3</text>"));
        // Past MAX_COLUMNS instances, a column sums a run of them.
        let many: Vec<Row> = (0..MAX_COLUMNS * 3)
            .map(|i| Row {
                name: format!("l.{i}"),
                kernels: 1,
                ..Row::default()
            })
            .collect();
        let s = strip(&many);
        let cols = s.matches("<g class=\"layer\"").count();
        assert!((MAX_COLUMNS / 2..=MAX_COLUMNS).contains(&cols), "{cols}");
        assert!(s.contains("data-name=\"l.0 … l.3\""), "{}", &s[..2000]);
        let m = ModelRow {
            model: "compulsory".into(),
            families: vec![FamilyRow {
                family: "matmul",
                kernels: 3,
                time_s: 3e-3,
                pct: 75.0,
            }],
            launches: 3,
            launch_s: 1e-3,
            total_s: 4e-3,
        };
        let s = breakdown(&[m]);
        assert_eq!(s.matches("<g class=\"part\"").count(), 2);
        assert!(s.contains("matmul: 3.000 ms (75.0%), 3 kernels"), "{s}");
        assert!(
            s.contains("launch overhead: 1.000 ms (25.0%), 3 launches"),
            "{s}"
        );
        assert!(s.contains("data-model=\"compulsory\" data-family=\"matmul\" data-s=\"0.003\""));
        assert!(s.contains("fill=\"#0072b2\""), "{s}");
    }
}
