//! The notebook view of a report (the Python module's `Report._repr_html_()`, `python/`):
//! the HTML report's ([`super::html`]) summary line, traffic table, per-block summary and
//! kernel table, and its fusion picture, as one HTML fragment that a Jupyter cell shows
//! inline. Self-contained like the HTML report (no network, no script, no external style
//! sheet or font), its style scoped to its own `<div class="fgraph-nb">` so that it leaves the
//! notebook's own look alone.
//!
//! The picture is laid out by Graphviz ([`super::svg`]), which takes seconds on a large plan:
//! [`Notebook`] keeps the picture's DOT source and [`picture`] renders it when the view is
//! first shown. Pictures of more than [`PICTURE_OPS`] ops and tables of more than
//! [`KERNEL_ROWS`] kernels are cut with a note that says so and where the rest is.

use crate::report::Report;
use crate::report::render::dot::{self, bytes};
use crate::report::render::html::{esc, inline_svg, kernel_table, summary_line, traffic_table};
use crate::report::summary::Row;
use crate::units::{fmt_time, group_digits};
use std::fmt::Write;

/// The most ops whose picture the view draws: Graphviz lays out a larger plan slowly, and
/// as a picture too small to read in a notebook cell.
pub const PICTURE_OPS: usize = 400;

/// The most kernels the view's table lists.
pub const KERNEL_ROWS: usize = 200;

/// The view's style, every rule under `.fgraph-nb`.
const STYLE: &str = ".fgraph-nb{font-family:system-ui,-apple-system,'Segoe UI',Helvetica,Arial,\
sans-serif;color:#222;line-height:1.4}.fgraph-nb h3{font-size:1.1em;margin:.6em 0 .3em}\
.fgraph-nb table{border-collapse:collapse;font-size:.9em;margin:.3em 0}.fgraph-nb td,\
.fgraph-nb th{border:1px solid #ddd;padding:.2em .5em;text-align:right}.fgraph-nb td.ops,\
.fgraph-nb th.ops{text-align:left}.fgraph-nb .picture{overflow:auto;border:1px solid #ddd;\
max-height:70vh}.fgraph-nb pre{background:#f6f6f6;padding:.6em;overflow:auto;font-size:.85em}\
.fgraph-nb summary{cursor:pointer}.fgraph-nb .note{color:#555;font-size:.9em}";

/// The notebook view of one report, the picture still to be laid out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notebook {
    /// The fragment up to the picture: summary line, traffic, blocks and kernels.
    pub head: String,
    /// The plan's picture as DOT source; `None` past [`PICTURE_OPS`] ops.
    pub dot: Option<String>,
    /// Where the picture would go when it is not drawn (`dot` is `None`): a note saying why.
    pub no_picture: String,
    /// The fragment after the picture: the diagnostics, and the closing tag.
    pub tail: String,
}

impl Notebook {
    /// The whole fragment, with `picture` (from [`picture`], or `no_picture`) in its place.
    pub fn html(&self, picture: &str) -> String {
        let mut o = String::with_capacity(self.head.len() + picture.len() + self.tail.len());
        o.push_str(&self.head);
        o.push_str(picture);
        o.push_str(&self.tail);
        o
    }
}

/// The notebook view of `report`; `None` when it has no plan to show (the graph has errors,
/// or a figure of the cost model overflowed).
pub fn notebook(report: &Report<'_>) -> Option<Notebook> {
    let a = report.analysis?;
    let (c, att) = report.cost()?;
    let g = &a.graph;
    let mut head = String::new();
    let _ = writeln!(
        head,
        "<div class=\"fgraph-nb\">\n<style>{STYLE}</style>\n\
         <h3>fgraph: graph <code>{}</code></h3>",
        esc(&g.name)
    );
    summary_line(a, c, &mut head);
    traffic_table(a, c, att, &mut head);
    if let Some(s) = &report.summary {
        head.push_str("<h3>Blocks</h3>\n");
        block_table(s.blocks.iter().chain([&s.total]), &mut head);
    }
    let kernels = a.plan.groups.len();
    let _ = writeln!(
        head,
        "<details><summary>Kernels ({})</summary>",
        group_digits(kernels as u64)
    );
    kernel_table(a, c, KERNEL_ROWS, &mut head);
    if kernels > KERNEL_ROWS {
        let _ = writeln!(
            head,
            "<p class=\"note\">The first {KERNEL_ROWS} of {} kernels; <code>kernels_frame()</code> \
             has them all.</p>",
            group_digits(kernels as u64)
        );
    }
    head.push_str("</details>\n<h3>Fusion plan</h3>\n");
    let (dot, no_picture) = if g.ops.len() <= PICTURE_OPS {
        (Some(dot::dot(a, Some(c))), String::new())
    } else {
        let note = format!(
            "<p class=\"note\">The plan has {} ops; the view draws plans of up to \
             {PICTURE_OPS}. Write the whole picture with \
             <code>analyze(..., svg=\"plan.svg\")</code> or <code>html=\"report.html\"</code>.\
             </p>\n",
            group_digits(g.ops.len() as u64)
        );
        (None, note)
    };
    let mut tail = String::new();
    let notes = report.notes();
    let diagnostics = report.diagnostics_with(&notes);
    if !diagnostics.is_empty() {
        let _ = writeln!(
            tail,
            "<details><summary>Diagnostics ({})</summary><pre>",
            diagnostics.len()
        );
        for d in &diagnostics {
            let text = crate::diagnostics::render::human(
                d,
                report.source,
                crate::diagnostics::render::HumanStyle::plain(),
            );
            tail.push_str(&esc(&text));
            tail.push('\n');
        }
        tail.push_str("</pre></details>\n");
    }
    tail.push_str("</div>\n");
    Some(Notebook {
        head,
        dot,
        no_picture,
        tail,
    })
}

/// The plan's picture for the view: the SVG Graphviz lays out from `dot_source`, inline, or a
/// note that says why there is none (Graphviz missing or failing).
pub fn picture(dot_source: &str) -> String {
    match super::svg::render_svg(dot_source) {
        Ok(svg) => format!("<div class=\"picture\">\n{}\n</div>\n", inline_svg(&svg)),
        Err(e) => format!(
            "<p class=\"note\">No picture: {}.</p>\n",
            esc(&e.replace("--dot writes", "`analyze(..., dot=\"plan.dot\")` writes"))
        ),
    }
}

/// The per-block table: one row per block and the total.
fn block_table<'r>(rows: impl Iterator<Item = &'r Row>, o: &mut String) {
    o.push_str(
        "<table class=\"blocks\">\n<tr><th class=\"ops\">block</th><th>instances</th>\
         <th>kernels</th><th>ops</th><th>read</th><th>written</th><th>time</th></tr>\n",
    );
    for r in rows {
        let _ = writeln!(
            o,
            "<tr><td class=\"ops\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>\
             <td>{}</td><td>{}</td></tr>",
            esc(&r.name),
            r.instances.map_or(String::new(), |n| n.to_string()),
            r.kernels,
            r.ops,
            bytes(r.bytes_read),
            bytes(r.bytes_written),
            r.time_s.map_or(String::new(), fmt_time),
        );
    }
    o.push_str("</table>\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{Options, check_file};
    use crate::cost::Hardware;
    use crate::report::ReportOptions;

    fn options() -> ReportOptions {
        ReportOptions {
            launch: Default::default(),
            traffic_model: Default::default(),
            summary: false,
            hints: false,
            compare: false,
            ledger: false,
            explain: None,
            runtime: None,
            ..Default::default()
        }
    }

    fn view(src: &str) -> Option<Notebook> {
        let file = check_file("g.fgraph", src.as_bytes(), &Options::default());
        let hw = Hardware::preset("h100").expect("preset");
        let r = Report::assemble(
            &file,
            file.graphs.first(),
            &hw,
            &options(),
            None::<fn(&Report<'_>)>,
        )
        .expect("report");
        notebook(&r)
    }

    #[test]
    fn the_view_is_scoped_self_contained_and_escapes_names() {
        let src = "graph g {\n  input x: [64, 64]\n  input spare: [4]\n  \
                   op a = elementwise.relu(x) -> y\n}\n";
        let nb = view(src).expect("a view");
        let html = nb.html("<svg></svg>");
        assert!(html.starts_with("<div class=\"fgraph-nb\">"));
        assert!(html.ends_with("</div>\n"));
        // Every style rule is scoped to the view's own element.
        let style = html
            .split("<style>")
            .nth(1)
            .and_then(|s| s.split("</style>").next());
        for rule in style.expect("a style").split('}').filter(|r| !r.is_empty()) {
            assert!(rule.starts_with(".fgraph-nb"), "{rule}");
        }
        for needle in [
            "<script", "<link", "@import", "url(", "<img", "<iframe", "<body",
        ] {
            assert!(!html.contains(needle), "{needle}");
        }
        assert!(html.contains("<table id=\"traffic\">"));
        assert_eq!(html.matches("<tr class=\"kernel-row\"").count(), 1);
        // The warning is shown, escaped.
        assert!(html.contains("tensor `spare` is declared but never used"));
        assert!(nb.dot.as_deref().is_some_and(|d| d.starts_with("digraph")));
        assert!(nb.no_picture.is_empty());
    }

    #[test]
    fn no_view_of_a_graph_with_errors() {
        assert!(view("graph g {\n  op a = elementwise.relu(x) -> y\n}\n").is_none());
    }

    #[test]
    fn a_large_plan_is_cut_with_a_note() {
        let mut src = String::from("graph g {\n  input x0: [8, 8]\n  weight w: [8, 8]\n");
        let n = PICTURE_OPS.max(KERNEL_ROWS) + 1;
        for i in 0..n {
            // A chain of matmuls: each one its own kernel.
            let _ = writeln!(src, "  op m{i} = matmul(x{i}, w) -> x{}", i + 1);
        }
        src.push_str(&format!("  output x{n}\n}}\n"));
        let nb = view(&src).expect("a view");
        assert!(nb.dot.is_none());
        assert!(nb.no_picture.contains("the view draws plans of up to 400"));
        let rows = nb.head.matches("<tr class=\"kernel-row\"").count();
        assert_eq!(rows, KERNEL_ROWS);
        assert!(nb.head.contains(&format!("The first {KERNEL_ROWS} of")));
    }
}
