//! The SARIF format (`--format sarif`): one SARIF 2.1.0 log for a whole run (GitHub code
//! scanning, IDEs), every code a rule with its explain text, every diagnostic a result with
//! its locations and fixes. Columns count characters, as everywhere in fgraph, so the run
//! says `unicodeCodePoints`.

use super::position::position;
use crate::diagnostics::{Code, Diagnostic, Label, SourceFile, Span};
use serde_json::{Value, json};

/// One SARIF 2.1.0 log for all files of a run.
pub fn sarif(files: &[(&[Diagnostic], &SourceFile)]) -> Value {
    log(files
        .iter()
        .flat_map(|&(diags, src)| diags.iter().map(move |d| (d, src))))
}

/// [`sarif`] of the diagnostics of a run, each with its file, in order.
pub fn log<'a>(diags: impl IntoIterator<Item = (&'a Diagnostic, &'a SourceFile)>) -> Value {
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
    let region = |src: &SourceFile, l: Span| {
        let (line, column, end_line, end_column) = position(src, l);
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
    for (d, src) in diags {
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
