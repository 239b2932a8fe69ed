//! Inputs the fuzzers (fuzz/, docs/ROBUSTNESS.md) found or kept: every file under
//! tests/fixtures/fuzz/ goes through `check_file` and everything the library does with an
//! analysis, and must come back without a panic, with its invariants intact.
//!
//! A fixture may start with a line `// fuzz-options: ...` holding the options the fuzz target
//! derived from its input: `set NAME=INT`, `allow CODE` and `flash` (`--flash-attention`),
//! separated by commas; and `errors N`, `warnings N`: the file must get exactly N errors (0 for
//! an input that was wrongly refused, N for one whose errors were once reported many times
//! over), or N warnings.
//!
//! A graph that a fixture's budget error (`limit-exceeded` on expanded ops) points into must
//! not have been expanded: it has no ops but those written in it.
//!
//! Files `framing-*.bin` are inputs of the `framing` target: bytes sent to the language
//! server, after which one valid frame must still be answered.

use fgraph::cost::{self, Hardware, LaunchMode};
use fgraph::diagnostics::render::{self, HumanStyle};
use fgraph::report::render::human::{human, human_with_cost};
use fgraph::report::render::json::AnalysisJson;
use fgraph::traffic::compare;
use fgraph::{Analysis, Code, OpId, Options, check_file, estimate_memory_traffic};
use std::path::Path;

fn options(src: &[u8]) -> Options {
    let mut opts = Options::default();
    let first = src.split(|&b| b == b'\n').next().unwrap_or_default();
    let Some(rest) = std::str::from_utf8(first)
        .ok()
        .and_then(|l| l.strip_prefix("// fuzz-options:"))
    else {
        return opts;
    };
    for item in rest.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        if let Some(set) = item.strip_prefix("set ") {
            let (name, value) = set.split_once('=').expect("set NAME=INT");
            opts.overrides.insert(
                name.trim().to_string(),
                value.trim().parse().expect("an i64"),
            );
        } else if item == "flash" {
            opts.fusion.flash_attention = true;
        } else if item.starts_with("errors ") || item.starts_with("warnings ") {
            // Read by `expected`.
        } else if let Some(code) = item.strip_prefix("allow ") {
            opts.allow
                .push(Code::from_name(code.trim()).expect("a code"));
        } else {
            panic!("unknown fuzz option `{item}`");
        }
    }
    opts
}

/// The `N` of option `what N` (`errors`, `warnings`) in the fixture's options.
fn expected(src: &[u8], what: &str) -> Option<usize> {
    let first = src.split(|&b| b == b'\n').next().unwrap_or_default();
    let rest = std::str::from_utf8(first)
        .ok()?
        .strip_prefix("// fuzz-options:")?;
    rest.split(',').find_map(|item| {
        let n = item.trim().strip_prefix(what)?.strip_prefix(' ')?;
        Some(n.trim().parse().expect("a count"))
    })
}

/// What `fuzz/fuzz_targets/common/mod.rs` asserts of every analysis.
fn check_analysis(a: &Analysis) {
    let (g, plan, t) = (&a.graph, &a.plan, &a.traffic);
    let mut seen = vec![0; g.ops.len()];
    for (k, grp) in plan.groups.iter().enumerate() {
        assert!(!grp.ops.is_empty());
        for o in &grp.ops {
            seen[o.index()] += 1;
            assert_eq!(plan.group_of[o.index()], k);
        }
    }
    assert!(
        seen.iter().all(|&c| c == 1),
        "every op in exactly one group"
    );
    for c in 0..g.ops.len() {
        let cid = OpId(c as u32);
        for p in g.predecessors(cid) {
            let (gp, gc) = (plan.group_of[p.index()], plan.group_of[c]);
            if gp != gc {
                assert!(gp < gc, "a group reads from a later group");
                assert!(
                    plan.boundaries
                        .iter()
                        .any(|b| b.producer == p && b.consumer == cid),
                    "an unfused edge without a boundary"
                );
            }
        }
    }
    assert_eq!(t.groups.len(), plan.groups.len());
    assert!(t.fused.total <= t.unfused.total);
    for tr in [&t.fused, &t.unfused] {
        assert_eq!(tr.total, tr.bytes_read + tr.bytes_written);
    }
    assert!((0.0..=100.0).contains(&t.savings_pct));
    let again = compare(g, plan).expect("traffic");
    assert_eq!((again.unfused, again.fused), (t.unfused, t.fused));
    assert_eq!(
        estimate_memory_traffic(g, false).expect("traffic"),
        t.unfused
    );
}

fn run(path: &Path) -> usize {
    let src = std::fs::read(path).expect("fixture");
    let report = check_file(&path.display().to_string(), &src, &options(&src));
    for (what, error) in [("errors", true), ("warnings", false)] {
        if let Some(n) = expected(&src, what) {
            let found: Vec<_> = report
                .diagnostics
                .iter()
                .filter(|d| d.is_error() == error)
                .collect();
            assert_eq!(found.len(), n, "{} {what}: {found:#?}", path.display());
        }
    }
    // Over the budget on expanded ops: reported before expanding anything.
    for g in &report.graphs {
        // The diagnostic points into the graph, or into a block instantiated from it.
        let over = report.diagnostics.iter().any(|d| {
            d.code == Code::LimitExceeded
                && d.message.contains(" ops, over the limit")
                && d.primary
                    .iter()
                    .chain(&d.secondary)
                    .any(|l| g.full_span.contains(l.span))
        });
        if over {
            // Its ops are those written in the graph, none from an instance.
            let text = &report.source.text[g.full_span.start..g.full_span.end];
            let written = text
                .lines()
                .filter(|l| l.trim_start().starts_with("op "))
                .count();
            assert!(
                g.written_ops.len() <= written,
                "{}: graph `{}` is over the budget but {} ops were expanded",
                path.display(),
                g.name,
                g.written_ops.len()
            );
        }
    }
    for d in &report.diagnostics {
        let _ = render::human(d, &report.source, HumanStyle::plain());
        let _ = render::github(d, &report.source);
        let _ = render::json(d, &report.source);
    }
    let mut analysed = 0;
    for g in &report.graphs {
        if g.analysis.is_none() {
            let json = AnalysisJson::unchecked(&g.name, &g.written_ops, Vec::new());
            serde_json::to_string(&json).expect("serialises");
        }
        if let Some(a) = &g.analysis {
            check_analysis(a);
            let json = serde_json::to_string(&AnalysisJson::new(&g.name, Some(a), Vec::new()))
                .expect("serialises");
            assert!(json.starts_with('{'));
            assert!(!human(a).is_empty());
            for hw in Hardware::presets() {
                for launch in [LaunchMode::Graph, LaunchMode::Eager] {
                    let c = cost::estimate(a, &hw, launch).expect("cost");
                    let att = cost::attention(a, &hw, launch).expect("attention");
                    assert_eq!(c.fused.flops, c.unfused.flops);
                    assert!(c.fused.time_s <= c.unfused.time_s * (1.0 + 1e-9));
                    let json =
                        AnalysisJson::new(&g.name, Some(a), Vec::new()).with_cost(a, &c, &att);
                    serde_json::to_string(&json).expect("serialises");
                    assert!(!human_with_cost(a, Some((&c, &att))).is_empty());
                    assert!(!fgraph::report::render::roofline::svg(&a.graph, &c).is_empty());
                }
            }
            analysed += 1;
        }
    }
    // `fmt` keeps every diagnostic.
    if let Ok(formatted) = fgraph::format::format_bytes(&src) {
        let again = check_file("formatted.fgraph", formatted.as_bytes(), &options(&src));
        let codes = |r: &fgraph::FileReport| {
            let mut c: Vec<Code> = r.diagnostics.iter().map(|d| d.code).collect();
            c.sort_by_key(|c| c.as_str());
            c
        };
        assert_eq!(codes(&report), codes(&again), "{}", path.display());
    }
    analysed
}

#[test]
fn every_fuzz_fixture_is_handled() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fuzz");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/fixtures/fuzz")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "fgraph"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no fixtures in {}", dir.display());
    let mut analysed = 0;
    for f in &files {
        analysed += run(f);
    }
    // Some fixtures are valid graphs, so the analysis half of the harness runs too.
    assert!(analysed > 0);
}

/// What the `framing` target asserts: after the bytes of a `framing-*.bin` fixture, a valid
/// frame is answered (the last response the server writes is its answer).
#[test]
fn every_framing_fixture_is_followed_by_an_answer() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fuzz");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("tests/fixtures/fuzz") {
        let path = entry.expect("entry").path();
        let name = path
            .file_name()
            .and_then(|f| f.to_str())
            .unwrap_or_default();
        if !(name.starts_with("framing-") && name.ends_with(".bin")) {
            continue;
        }
        n += 1;
        let mut input = std::fs::read(&path).expect("fixture");
        let body = r#"{"jsonrpc":"2.0","id":"final","method":"shutdown"}"#;
        input.extend(format!("Content-Length: {}\r\n\r\n{body}", body.len()).bytes());
        let mut out = Vec::new();
        fgraph::lsp::serve(std::io::Cursor::new(input), &mut out, None).expect("in memory");
        let text = String::from_utf8(out).expect("UTF-8");
        // The frames written: `Content-Length: N`, a blank line, N bytes.
        let mut rest = text.as_str();
        let mut messages = Vec::new();
        while let Some(frame) = rest.strip_prefix("Content-Length: ") {
            let (len, after) = frame.split_once("\r\n\r\n").expect("a header");
            let (body, next) = after.split_at(len.parse().expect("a length"));
            messages.push(serde_json::from_str::<serde_json::Value>(body).expect("JSON"));
            rest = next;
        }
        assert!(rest.is_empty(), "{text}");
        let last = messages
            .iter()
            .rfind(|m| m.get("method").is_none())
            .expect("a response");
        assert_eq!(last["id"], "final", "{}: {text}", path.display());
        assert!(
            last.get("error").is_none_or(|e| e["code"] != -32700),
            "{text}"
        );
    }
    assert!(n > 0, "no framing fixtures in {}", dir.display());
}
