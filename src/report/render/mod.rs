//! Renderers of the [`Report`]: text for people ([`human`]), JSON ([`json`]), and the files
//! `analyze` writes beside it: the plan as Graphviz DOT ([`dot`]) and, through Graphviz, SVG
//! ([`svg`]), the self-contained HTML report ([`html`], with its small pictures in [`charts`]
//! and its style and script in [`html_script`]) and the roofline ([`roofline`]); and the
//! notebook view of the Python module ([`notebook`]), made of the HTML report's parts.
//!
//! [`render`] writes a report in a `--format` through the diagnostics' one dispatcher
//! ([`diagnostics::render::run`](crate::diagnostics::render::run)): the report is what the
//! run prints beside its diagnostics, as text (human, GitHub) or as the JSON document that
//! holds them (SARIF shows the diagnostics alone). [`early`] is the JSON head a renderer writes
//! while the cost model runs; [`Files`] renders the file outputs, which the CLI writes.

pub mod charts;
pub mod dot;
pub mod html;
pub mod html_capacity;
pub mod html_script;
pub mod human;
pub mod json;
pub mod notebook;
pub mod roofline;
pub mod svg;

use crate::diagnostics::render::{FileDiagnostics, Format, RunReport, Sink, run};
use crate::report::fold::Fold;
use crate::report::{Report, ReportOptions};
use std::cell::OnceCell;
use std::io::Write;

/// Writes `report` in `format`: its diagnostics, then the report as text (human, GitHub) or
/// the JSON report that holds them. `head_written`: [`early`] wrote the JSON report's head.
/// The what-if the format shows is computed first, so that a what-if candidate whose plan
/// search stopped is a warning among the diagnostics ([`Report::notes`]).
pub fn render(report: &Report<'_>, format: Format, head_written: bool, to: &mut Sink<'_>) {
    let shown = match format {
        Format::Json => json::hints_shown(report),
        Format::Human | Format::Github => human::hints_shown(report),
        Format::Sarif => None,
    };
    if let Some(n) = shown {
        report.hints_upto(n);
    }
    let notes = report.notes();
    let files = [FileDiagnostics {
        source: report.source,
        diagnostics: report.diagnostics_with(&notes),
    }];
    let rendered = Rendered {
        report,
        head_written,
    };
    run(format, &files, &rendered, to);
}

/// A report as what a run prints beside its diagnostics.
struct Rendered<'r, 'a> {
    report: &'r Report<'a>,
    head_written: bool,
}

impl RunReport for Rendered<'_, '_> {
    /// The count ends the diagnostics of a graph with errors, which has no report to show.
    fn footer(&self) -> bool {
        self.report.analysis.is_none()
    }

    fn text(&self, out: &mut dyn Write) {
        human::write_text(self.report, out);
    }

    fn json(&self, diagnostics: Vec<serde_json::Value>, out: &mut dyn Write) {
        json::write(self.report, diagnostics, self.head_written, out);
    }
}

/// What a format writes before the cost model is done, so that
/// [`Report::assemble`] can run the cost model alongside: the JSON report's head (the
/// schema version, the graph's name and its ops, which the cost model does not change),
/// which sets `written`. Nothing
/// for the other formats, nor for `--explain OP`, whose JSON is another object.
pub fn early<'w>(
    format: Format,
    options: &ReportOptions,
    out: &'w mut dyn Write,
    written: &'w mut bool,
) -> Option<impl FnOnce(&Report<'_>) + 'w> {
    (format == Format::Json && options.explain.is_none()).then_some(move |r: &Report<'_>| {
        json::write_head(r, out);
        *written = true;
    })
}

/// A file `analyze` writes beside its report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// `--roofline`: the roofline SVG.
    Roofline,
    /// `--dot`: the plan's picture as Graphviz DOT.
    Dot,
    /// `--svg`: the same picture as SVG (Graphviz).
    Svg,
    /// `--html`: the self-contained HTML report.
    Html,
}

impl FileKind {
    /// As messages name the file's format: `roofline`, `DOT`, `SVG`, `HTML`.
    pub fn as_str(self) -> &'static str {
        match self {
            FileKind::Roofline => "roofline",
            FileKind::Dot => "DOT",
            FileKind::Svg => "SVG",
            FileKind::Html => "HTML",
        }
    }

    /// As a note names the file: `roofline`, `DOT picture`, ….
    pub fn what(self) -> String {
        match self {
            FileKind::Roofline => "roofline".into(),
            k => format!("{} picture", k.as_str()),
        }
    }
}

/// The file outputs of a report, rendered on demand; the plan's DOT source is made once for
/// the DOT and SVG files, and once folded ([`crate::report::fold`]) for `--collapse-repeats`
/// and the HTML report.
pub struct Files<'r, 'a> {
    report: &'r Report<'a>,
    dot: OnceCell<String>,
    folded: OnceCell<(Fold, String)>,
    collapse_repeats: bool,
}

impl<'r, 'a> Files<'r, 'a> {
    pub fn new(report: &'r Report<'a>) -> Self {
        Files {
            report,
            dot: OnceCell::new(),
            folded: OnceCell::new(),
            collapse_repeats: false,
        }
    }

    /// `--collapse-repeats`: the DOT and SVG pictures fold repeated instances of a block as
    /// the HTML report's picture does.
    pub fn collapse_repeats(mut self, on: bool) -> Self {
        self.collapse_repeats = on;
        self
    }

    /// A file's contents: `None` when there is nothing to draw (the graph has errors, or the
    /// cost model overflowed), `Err` when it cannot be rendered (Graphviz is missing).
    pub fn render(&self, kind: FileKind) -> Option<Result<String, String>> {
        let r = self.report;
        let a = r.analysis?;
        let (c, att) = r.cost()?;
        let instances = r.graph.map_or(&[][..], |g| &g.instances[..]);
        let folded = || {
            self.folded.get_or_init(|| {
                let f = crate::report::fold::fold(a, instances, Some(c));
                let d = dot::dot_folded(a, Some(c), &f);
                (f, d)
            })
        };
        let dot = || match self.collapse_repeats {
            true => &folded().1,
            false => self.dot.get_or_init(|| dot::dot(a, Some(c))),
        };
        Some(match kind {
            FileKind::Roofline => Ok(roofline::svg(&a.graph, c)),
            FileKind::Dot => Ok(dot().clone()),
            FileKind::Svg => svg::render_svg(dot()),
            FileKind::Html => svg::render_svg(&folded().1).map(|svg| {
                let breakdown = html_capacity::breakdown_of(r).unwrap_or_default();
                let families = crate::report::breakdown::Classifier::new(&a.graph, &att.patterns);
                // Every boundary's hint, computed before the diagnostics are listed.
                let w = r.hints_upto(usize::MAX);
                let hints = w.as_deref().map_or(&[][..], |w| &w.hints[..]);
                let notes = r.notes();
                let diagnostics = r.diagnostics_with(&notes);
                html_capacity::insert(
                    html::html(&html::Page {
                        analysis: a,
                        cost: c,
                        attention: att,
                        plan_svg: &svg,
                        diagnostics: &diagnostics,
                        hints,
                        source: r.source,
                        summary: r.summary.as_ref(),
                        instances,
                        fold: &folded().0,
                        breakdown: &breakdown,
                        families: &families,
                    }),
                    &html_capacity::sections(r),
                )
            }),
        })
    }
}
