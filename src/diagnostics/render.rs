//! The edge: diagnostics become text here and nowhere else.

use super::{Diagnostic, Label, Severity, SourceFile};
use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan};
use serde_json::{Value, json};
use std::fmt;

/// Adapter that lets miette draw one of our diagnostics against its source.
struct MietteView<'a> {
    diag: &'a Diagnostic,
    src: &'a SourceFile,
}

impl fmt::Debug for MietteView<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diag.message)
    }
}
impl fmt::Display for MietteView<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diag.message)
    }
}
impl std::error::Error for MietteView<'_> {}

impl miette::Diagnostic for MietteView<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(format!("fgraph::{}", self.diag.code)))
    }
    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.diag.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }
    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.diag
            .help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.diag
            .primary
            .as_ref()
            .map(|_| self.src as &dyn miette::SourceCode)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let primary = self.diag.primary.as_ref()?;
        let len = self.src.text.len();
        let clamp = move |l: &Label| {
            let start = l.span.start.min(len);
            (start, l.span.end.clamp(start, len) - start)
        };
        let (s, n) = clamp(primary);
        let first = LabeledSpan::new_primary_with_span(Some(primary.message.clone()), (s, n));
        let rest = self.diag.secondary.iter().map(move |l| {
            let (s, n) = clamp(l);
            LabeledSpan::new_with_span(Some(l.message.clone()), (s, n))
        });
        Some(Box::new(std::iter::once(first).chain(rest)))
    }
}

/// How human output is drawn.
#[derive(Clone, Copy, Debug)]
pub struct HumanStyle {
    pub color: bool,
    pub width: usize,
}

impl HumanStyle {
    /// No colour, 80 columns: what tests snapshot.
    pub fn plain() -> Self {
        HumanStyle {
            color: false,
            width: 80,
        }
    }
}

/// miette's graphical report of one diagnostic.
pub fn human(diag: &Diagnostic, src: &SourceFile, style: HumanStyle) -> String {
    let theme = if style.color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(style.width)
        .with_links(false);
    let mut out = String::new();
    if handler
        .render_report(&mut out, &MietteView { diag, src })
        .is_err()
    {
        // Rendering into a String cannot fail on I/O; fall back to one line if miette gives up.
        out = format!(
            "{}: fgraph::{}: {}\n",
            diag.severity.as_str(),
            diag.code,
            diag.message
        );
    }
    out
}

fn position(src: &SourceFile, l: &Label) -> (usize, usize, usize, usize) {
    span_position(src, l.span)
}

fn span_position(src: &SourceFile, span: super::Span) -> (usize, usize, usize, usize) {
    let (line, column) = src.lines().line_col(&src.text, span.start);
    let (end_line, end_column) = src.lines().line_col(&src.text, span.end);
    (line, column, end_line, end_column)
}

/// The JSON object of one diagnostic (SPEC §6).
pub fn json(diag: &Diagnostic, src: &SourceFile) -> Value {
    let label_json = |l: &Label, primary: bool| {
        let (line, column, end_line, end_column) = position(src, l);
        json!({
            "message": l.message, "primary": primary,
            "line": line, "column": column, "end_line": end_line, "end_column": end_column,
        })
    };
    let pos = diag.primary.as_ref().map(|l| position(src, l));
    let labels: Vec<Value> = diag
        .primary
        .iter()
        .map(|l| label_json(l, true))
        .chain(diag.secondary.iter().map(|l| label_json(l, false)))
        .collect();
    let mut obj = json!({
        "code": diag.code.as_str(),
        "severity": diag.severity.as_str(),
        "message": diag.message,
        "file": src.name,
        "line": pos.map(|p| p.0),
        "column": pos.map(|p| p.1),
        "end_line": pos.map(|p| p.2),
        "end_column": pos.map(|p| p.3),
        "help": diag.help,
        "labels": labels,
    });
    // Beside the keys of SPEC §6, and only when there is a fix, so a diagnostic without one
    // renders as it always did.
    if !diag.fixes.is_empty() {
        obj["fixes"] = fixes_json(diag, src);
    }
    obj
}

/// The suggested edits of a diagnostic: each fix's message, applicability, and edits with
/// both byte offsets and line/column positions (columns count characters, end exclusive).
fn fixes_json(diag: &Diagnostic, src: &SourceFile) -> Value {
    let fixes: Vec<Value> = diag
        .fixes
        .iter()
        .map(|f| {
            let edits: Vec<Value> = f
                .edits
                .iter()
                .map(|e| {
                    let (line, column, end_line, end_column) = span_position(src, e.span);
                    json!({
                        "start": e.span.start, "end": e.span.end,
                        "line": line, "column": column,
                        "end_line": end_line, "end_column": end_column,
                        "replacement": e.replacement,
                    })
                })
                .collect();
            json!({
                "message": f.message,
                "applicability": f.applicability.as_str(),
                "edits": edits,
            })
        })
        .collect();
    Value::Array(fixes)
}

/// A GitHub Actions workflow command, which the Actions UI shows as an annotation.
pub fn github(diag: &Diagnostic, src: &SourceFile) -> String {
    fn escape_data(s: &str) -> String {
        s.replace('%', "%25")
            .replace('\r', "%0D")
            .replace('\n', "%0A")
    }
    fn escape_prop(s: &str) -> String {
        escape_data(s).replace(':', "%3A").replace(',', "%2C")
    }
    let kind = match diag.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    let mut props = format!("file={}", escape_prop(&src.name));
    if let Some(l) = &diag.primary {
        let (line, col, end_line, end_col) = position(src, l);
        props += &format!(",line={line},col={col},endLine={end_line},endColumn={end_col}");
    }
    props += &format!(",title={}", escape_prop(&format!("fgraph::{}", diag.code)));
    let mut msg = diag.message.clone();
    if let Some(h) = &diag.help {
        msg += &format!("\nhelp: {h}");
    }
    format!("::{kind} {props}::{}", escape_data(&msg))
}

/// One SARIF 2.1.0 log for all files of a run (GitHub code scanning, IDEs). Columns count
/// characters, as everywhere in fgraph, so the run says `unicodeCodePoints`.
pub fn sarif(files: &[(&[Diagnostic], &SourceFile)]) -> Value {
    use super::Code;
    let rules: Vec<Value> = Code::ALL
        .iter()
        .map(|c| {
            json!({
                "id": c.as_str(),
                "name": c.as_str(),
                "shortDescription": { "text": summary(c.as_str()) },
                "fullDescription": { "text": crate::explain::text(c.as_str()).unwrap_or_default() },
                "defaultConfiguration": { "level": c.severity().as_str() },
            })
        })
        .collect();
    let region = |src: &SourceFile, l: super::Span| {
        let (line, column, end_line, end_column) = span_position(src, l);
        json!({ "startLine": line, "startColumn": column, "endLine": end_line, "endColumn": end_column })
    };
    let location = |src: &SourceFile, l: Option<&Label>| {
        let mut physical = json!({ "artifactLocation": { "uri": src.name } });
        if let Some(l) = l {
            physical["region"] = region(src, l.span);
        }
        physical
    };
    let mut results = Vec::new();
    for (diags, src) in files {
        for d in diags.iter() {
            let mut text = d.message.clone();
            if let Some(h) = &d.help {
                text += &format!("\nhelp: {h}");
            }
            let related: Vec<Value> = d
                .secondary
                .iter()
                .enumerate()
                .map(|(i, l)| {
                    json!({
                        "id": i,
                        "physicalLocation": location(src, Some(l)),
                        "message": { "text": l.message },
                    })
                })
                .collect();
            let mut result = json!({
                "ruleId": d.code.as_str(),
                "ruleIndex": Code::ALL.iter().position(|c| *c == d.code),
                "level": d.severity.as_str(),
                "message": { "text": text },
                "locations": [{
                    "physicalLocation": location(src, d.primary.as_ref()),
                    "message": { "text": d.primary.as_ref().map_or("", |l| l.message.as_str()) },
                }],
                "relatedLocations": related,
            });
            // SARIF `fix` objects: one artifact change per fix, its edits as replacements.
            if !d.fixes.is_empty() {
                let fixes: Vec<Value> = d
                    .fixes
                    .iter()
                    .map(|f| {
                        let replacements: Vec<Value> = f
                            .edits
                            .iter()
                            .map(|e| {
                                json!({
                                    "deletedRegion": region(src, e.span),
                                    "insertedContent": { "text": e.replacement },
                                })
                            })
                            .collect();
                        json!({
                            "description": { "text": f.message },
                            "artifactChanges": [{
                                "artifactLocation": { "uri": src.name },
                                "replacements": replacements,
                            }],
                            "properties": { "applicability": f.applicability.as_str() },
                        })
                    })
                    .collect();
                result["fixes"] = Value::Array(fixes);
            }
            results.push(result);
        }
    }
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "fgraph",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    })
}

/// The first sentence under "What it does" in a code's explain text.
fn summary(code: &str) -> String {
    let text = crate::explain::text(code).unwrap_or_default();
    let body = text.split("## What it does").nth(1).unwrap_or(text);
    let para: Vec<&str> = body
        .trim_start()
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .map(str::trim)
        .collect();
    let para = para.join(" ");
    match para.find(". ") {
        Some(i) => para[..=i].to_string(),
        None => para,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostics::{Code, Span};

    #[test]
    fn sarif_has_rules_results_and_regions() {
        let src = SourceFile::new(
            "g.fgraph",
            "graph g {\n  op a = elementwise.relu(é) -> y\n}\n",
        );
        let d = Diagnostic::new(Code::UndefinedTensor, "undefined tensor `é`")
            .at(Span::new(36, 38), "not defined")
            .with(Span::new(0, 5), "graph here")
            .help("declare it");
        let log = sarif(&[(std::slice::from_ref(&d), &src)]);
        assert_eq!(log["version"], "2.1.0");
        let run = &log["runs"][0];
        assert_eq!(
            run["tool"]["driver"]["rules"].as_array().map(Vec::len),
            Some(Code::ALL.len())
        );
        let r = &run["results"][0];
        assert_eq!(r["ruleId"], "undefined-tensor");
        assert_eq!(r["level"], "error");
        let region = &r["locations"][0]["physicalLocation"]["region"];
        assert_eq!(
            (region["startLine"].as_u64(), region["startColumn"].as_u64()),
            (Some(2), Some(27))
        );
        assert_eq!(
            region["endColumn"].as_u64(),
            Some(28),
            "columns count characters"
        );
        assert_eq!(r["relatedLocations"][0]["message"]["text"], "graph here");
        assert!(
            r["message"]["text"]
                .as_str()
                .is_some_and(|t| t.ends_with("help: declare it"))
        );
        for rule in run["tool"]["driver"]["rules"]
            .as_array()
            .into_iter()
            .flatten()
        {
            assert!(
                !rule["shortDescription"]["text"]
                    .as_str()
                    .unwrap_or("")
                    .is_empty()
            );
        }
    }
}
