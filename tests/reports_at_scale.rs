//! Issue 28 end to end: `--memory` and `--max-param`, `--breakdown`, `--baseline` with
//! `--fail-on-regression` (exit code and GitHub annotation), the condensed attention section
//! and the hardware presets' `memory_gb`.

mod common;
use common::*;

fn json(o: &std::process::Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", stderr(o)))
}

#[test]
fn memory_of_llama3_8b_decode() {
    let o = fgraph(&["analyze", "examples/llama3_8b_decode.fgraph", "--memory"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    for line in [
        "memory on h100 (NVIDIA H100 SXM 80GB):",
        "  parameters 8,030,261,248 (16.1 GB of weights)",
        "  KV cache: 4,294,967,296 B (4.0 GiB) in 64 tensors, 131,072 B per token, \
         4,294,967,296 B per sequence; 1 sequence (param B), 32,768 positions",
        "  peak live activations: 4,203,008 B (4.0 MiB) at kernel 9 (`layers.0.softmax`)",
        "  total 20.4 of 80.0 GB: fits on h100",
    ] {
        assert!(out.contains(line), "missing {line:?} in:\n{out}");
    }
    // The summary's JSON has it too, with at least `weight_bytes` and `fits`.
    let o = fgraph(&[
        "analyze",
        "examples/llama3_8b_decode.fgraph",
        "--summary",
        "--format",
        "json",
    ]);
    let v = json(&o);
    assert_eq!(v["memory"]["weight_bytes"], 16_060_522_496u64);
    assert_eq!(v["memory"]["fits"], true);
    assert_eq!(v["memory"]["kv_cache"]["bytes_per_token"], 131_072);
    // Not without `--memory` or `--summary`.
    let o = fgraph(&["analyze", "examples/seed_mlp.fgraph", "--format", "json"]);
    assert!(json(&o).get("memory").is_none());
}

#[test]
fn the_ledger_marks_caches() {
    let o = fgraph(&[
        "analyze",
        "examples/rope_gqa.fgraph",
        "--ledger",
        "--format",
        "json",
    ]);
    let v = json(&o);
    let why = |t: &str| {
        v["ledger"]["tensors"]
            .as_array()
            .expect("tensors")
            .iter()
            .find(|e| e["tensor"] == t)
            .map(|e| e["why"].clone())
    };
    assert_eq!(why("k_cache"), Some("cache".into()));
    assert_eq!(why("wq"), Some("weight".into()));
}

/// The largest batch that fits on a 40 GB GPU: it fits, one more does not.
#[test]
fn max_param_finds_the_largest_batch() {
    let dir = std::env::temp_dir().join(format!("fgraph-scale-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let hw = dir.join("gpu20.json");
    std::fs::write(
        &hw,
        r#"{"name": "gpu20", "peak_tflops_f16": 989, "peak_tflops_f32": 67,
            "bandwidth_tb_s": 3.35, "memory_gb": 40}"#,
    )
    .expect("write");
    let hw = hw.to_str().expect("utf-8");
    let run = |extra: &[&str]| {
        let mut args = vec![
            "analyze",
            "examples/llama3_8b_decode.fgraph",
            "--hardware-file",
            hw,
            "--format",
            "json",
        ];
        args.extend_from_slice(extra);
        let o = fgraph(&args);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        json(&o)["memory"].clone()
    };
    let m = run(&["--max-param", "B"]);
    let largest = m["max_param"]["largest"].as_i64().expect("a batch fits");
    assert_eq!(m["max_param"]["bounded"], false);
    // 16,060,522,496 B of weights and 4,294,967,296 B of cache per sequence: 5 sequences
    // take 37.5 GB, 6 take 41.8 GB.
    assert_eq!(largest, 5);
    let at = |b: i64| run(&["--memory", "--set", &format!("B={b}")])["fits"].clone();
    assert_eq!(at(largest), true);
    assert_eq!(at(largest + 1), false);
    // A shorter context fits more sequences.
    let m = run(&["--max-param", "B", "--set", "T=4095"]);
    let more = m["max_param"]["largest"].as_i64().expect("fits");
    assert!(more > largest, "{more} vs {largest}");
    let b = format!("B={more}");
    let b1 = format!("B={}", more + 1);
    assert_eq!(
        run(&["--memory", "--set", "T=4095", "--set", &b])["fits"],
        true
    );
    assert_eq!(
        run(&["--memory", "--set", "T=4095", "--set", &b1])["fits"],
        false
    );
    // A name the graph lacks, and a GPU without a memory size: usage errors.
    let o = fgraph(&[
        "analyze",
        "examples/llama3_8b_decode.fgraph",
        "--max-param",
        "Q",
    ]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("has no param `Q`"), "{}", stderr(&o));
}

#[test]
fn breakdown_sums_to_the_totals() {
    let o = fgraph(&[
        "analyze",
        "examples/llama3_8b.fgraph",
        "--breakdown",
        "--traffic-model",
        "hardware",
        "--format",
        "json",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v = json(&o);
    let b = &v["breakdown"];
    let models = b["models"].as_array().expect("models");
    assert_eq!(models.len(), 2);
    for m in models {
        let sum: f64 = m["families"]
            .as_array()
            .expect("families")
            .iter()
            .map(|f| f["time_s"].as_f64().expect("time"))
            .sum::<f64>()
            + m["launch_s"].as_f64().expect("launch");
        let total = m["total_s"].as_f64().expect("total");
        assert!((sum - total).abs() <= 1e-9 * total, "{m}");
    }
    let fused_us = v["cost"]["fused"]["time_us"].as_f64().expect("time");
    let total = models[0]["total_s"].as_f64().expect("total") * 1e6;
    assert!((total - fused_us).abs() < 1e-3, "{total} vs {fused_us}");
    assert_eq!(b["layers"].as_array().expect("layers").len(), 33);
    let human = stdout(&fgraph(&[
        "analyze",
        "examples/llama3_8b.fgraph",
        "--breakdown",
    ]));
    assert!(human.contains("where the time goes"), "{human}");
    assert!(
        human.contains("per layer (compulsory time by family"),
        "{human}"
    );
}

const OLD: &str = "graph g {\n  input x: [64, 64]\n  weight w: [64, 64]\n  \
                   op m = matmul(x, w) -> y\n  op r = elementwise.relu(y) -> z\n  \
                   op e = elementwise.exp(z) -> o\n  output o\n}\n";
const NEW: &str = "graph g {\n  input x: [64, 64]\n  weight w: [64, 64]\n  \
                   op m = matmul(x, w) -> y\n  op r = elementwise.relu(y) -> z\n  \
                   op e = elementwise.exp(z) -> o\n  output o, z\n}\n";

#[test]
fn baseline_and_fail_on_regression() {
    let old = temp_file_in("scale", "model_old.fgraph", OLD);
    let new = temp_file_in("scale", "model.fgraph", NEW);
    let (old, new) = (old.to_str().expect("utf-8"), new.to_str().expect("utf-8"));
    let o = fgraph(&["analyze", old, "--format", "json"]);
    let saved = temp_file_in("scale", "old.json", &stdout(&o));
    let saved = saved.to_str().expect("utf-8");
    // Against itself: nothing changed, exit 0.
    let o = fgraph(&[
        "analyze",
        old,
        "--baseline",
        saved,
        "--fail-on-regression",
        "0",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).contains("  no kernel changed"), "{}", stdout(&o));
    assert!(!stderr(&o).contains("::error"));
    // The change: 32 KiB more traffic, in a new kernel starting at `e` (line 6).
    let o = fgraph(&[
        "analyze",
        new,
        "--baseline",
        saved,
        "--fail-on-regression",
        "5",
    ]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("  traffic  49,152 B → 81,920 B (+66.67%)"),
        "{out}"
    );
    assert!(out.contains("    e: +32,768 B"), "{out}");
    let err = stderr(&o);
    // `%` is escaped as `%25` in a workflow command (GitHub shows `%`).
    let want = format!(
        "::error file={},line=6::traffic grew 66.67%25 over the baseline (more than 5%25), 49,152 B \
         → 81,920 B; the kernel of `e` grew most",
        new.replace(':', "%3A").replace(',', "%2C")
    );
    assert!(err.lines().any(|l| l == want), "want {want}\nin:\n{err}");
    assert!(
        err.contains("::error file=") && err.contains("::time grew"),
        "{err}"
    );
    // Below the threshold: the report, exit 0.
    let o = fgraph(&[
        "analyze",
        new,
        "--baseline",
        saved,
        "--fail-on-regression",
        "200",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    // JSON keeps stdout one object.
    let o = fgraph(&[
        "analyze",
        new,
        "--baseline",
        saved,
        "--fail-on-regression",
        "5",
        "--format",
        "json",
    ]);
    assert_eq!(code(&o), 1);
    let v = json(&o);
    assert_eq!(v["baseline"]["regressions"][0]["op"], "e");
    assert_eq!(v["baseline"]["traffic"]["old"], 49_152.0);
}

#[test]
fn a_hostile_baseline_is_a_usage_error_that_quotes_nothing() {
    let bad = temp_file_in("scale", "bad.json", "{\"groups\": \"SECRET\"}");
    let o = fgraph(&[
        "analyze",
        "examples/seed_mlp.fgraph",
        "--baseline",
        bad.to_str().expect("utf-8"),
    ]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("not an fgraph JSON report"),
        "{}",
        stderr(&o)
    );
    assert!(!stderr(&o).contains("SECRET"), "{}", stderr(&o));
    let o = fgraph(&["analyze", "examples/seed_mlp.fgraph", "--baseline", "tests"]);
    assert_eq!(code(&o), 2);
    let o = fgraph(&[
        "analyze",
        "examples/seed_mlp.fgraph",
        "--fail-on-regression",
        "5",
    ]);
    assert_eq!(code(&o), 2, "needs --baseline");
}

/// The attention section of Llama-3-8B: one line for its 32 identical patterns.
#[test]
fn the_attention_section_is_one_line_per_pattern() {
    let o = fgraph(&["analyze", "examples/llama3_8b.fgraph"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    let start = out.find("\nattention (").expect("attention section") + 1;
    let end = out[start..].find("\n\n").map_or(out.len(), |e| start + e);
    insta::assert_snapshot!("llama3_8b_attention", &out[start..end]);
    // A graph without blocks reads as before: names in full.
    let o = fgraph(&["analyze", "examples/attention.fgraph"]);
    assert!(
        stdout(&o)
            .contains("  attn_scores → scale_scores → softmax → attn_output: a FlashAttention"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn presets_give_their_memory() {
    let o = fgraph(&["hardware", "h200", "--format", "json"]);
    assert_eq!(code(&o), 0);
    let text = stdout(&o);
    assert!(text.contains("\"memory_gb\": 141.0"), "{text}");
    // In canonical order: after the bandwidth, before the L2.
    let (bw, mem, l2) = (
        text.find("bandwidth_tb_s").expect("bw"),
        text.find("memory_gb").expect("mem"),
        text.find("l2_mib").expect("l2"),
    );
    assert!(bw < mem && mem < l2);
    let bad = temp_file_in(
        "scale",
        "huge.json",
        r#"{"name": "x", "peak_tflops_f16": 1, "peak_tflops_f32": 1, "bandwidth_tb_s": 1, "memory_gb": 1e300}"#,
    );
    let o = fgraph(&[
        "analyze",
        "examples/seed_mlp.fgraph",
        "--hardware-file",
        bad.to_str().expect("utf-8"),
    ]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("memory_gb"), "{}", stderr(&o));
}

#[test]
fn html_has_memory_and_breakdown() {
    let out = temp_file_in("scale", "r.html", "");
    let o = fgraph(&[
        "analyze",
        "examples/seed_mlp.fgraph",
        "--html",
        out.to_str().expect("utf-8"),
    ]);
    if code(&o) == 2 && stderr(&o).contains("dot") {
        eprintln!("Graphviz missing: skipped");
        return;
    }
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let html = std::fs::read_to_string(&out).expect("written");
    assert!(html.contains("<h2>Memory</h2>") && html.contains("id=\"memory-total\""));
    assert!(html.contains("<h2>Where the time goes</h2>"));
}

/// `[large-intermediate]` in `fgraph.toml`: a floor in bytes, and one relative to the
/// weights, above which the warning still fires.
#[test]
fn large_intermediate_floors() {
    // `h` ([512, 512] f32, 1 MiB) is larger than every input and weight (64 KiB each), is
    // written by the matmul's kernel and read back by the reduction's.
    let src = "graph g {\n  input x: [512, 32]\n  weight w: [32, 512]\n  \
               op m = matmul(x, w) -> h\n  op s = reduction.softmax(h, axis = -1) -> p: [512, 512]\n  \
               op r = reduction.sum(p, axis = -1) -> out: [512]\n  output out\n}\n";
    let dir = std::env::temp_dir().join(format!("fgraph-floor-{}", std::process::id()));
    let run = |toml: Option<&str>| {
        std::fs::create_dir_all(&dir).expect("dir");
        let f = dir.join("m.fgraph");
        std::fs::write(&f, src).expect("write");
        let cfg = dir.join("fgraph.toml");
        match toml {
            Some(t) => std::fs::write(&cfg, t).expect("write"),
            None => {
                let _ = std::fs::remove_file(&cfg);
            }
        }
        let o = fgraph(&["check", f.to_str().expect("utf-8")]);
        stderr(&o).matches("fgraph::large-intermediate").count()
    };
    let without = run(None);
    assert!(without >= 1, "the graph warns without a floor");
    assert_eq!(
        run(Some("[large-intermediate]\nmin-bytes = 1048576\n")),
        without
    );
    assert_eq!(run(Some("[large-intermediate]\nmin-bytes = 1048577\n")), 0);
    // The weight is 64 KiB: 1600% of it is 1 MiB (still warns), 1700% is more.
    assert_eq!(
        run(Some("[large-intermediate]\nmin-weight-percent = 1600\n")),
        without
    );
    assert_eq!(
        run(Some("[large-intermediate]\nmin-weight-percent = 1700\n")),
        0
    );
}

/// The text between `start` (after it) and the next `end`, from `from` on.
fn between<'s>(s: &'s str, start: &str, end: &str) -> &'s str {
    let i = s.find(start).unwrap_or_else(|| panic!("no {start:?}")) + start.len();
    let j = s[i..]
        .find(end)
        .unwrap_or_else(|| panic!("no {end:?} after {start:?}"));
    &s[i..i + j]
}

/// The value of attribute `name` in the tag text `tag`.
fn attr<'s>(tag: &'s str, name: &str) -> &'s str {
    between(tag, &format!(" {name}=\""), "\"")
}

/// The cells of each row of an HTML table's text, tags stripped.
fn cells(table: &str) -> Vec<Vec<String>> {
    table
        .split("<tr")
        .skip(1)
        .map(|row| {
            row.split("<td")
                .skip(1)
                .map(|c| {
                    let c = &c[c.find('>').map_or(0, |i| i + 1)..];
                    let c = &c[..c.find("</td>").unwrap_or(c.len())];
                    let mut out = String::new();
                    let mut tag = false;
                    for ch in c.chars() {
                        match ch {
                            '<' => tag = true,
                            '>' => tag = false,
                            ch if !tag => out.push(ch),
                            _ => {}
                        }
                    }
                    out
                })
                .collect::<Vec<_>>()
        })
        .filter(|r| !r.is_empty())
        .collect()
}

/// One table of kernel families: every number the HTML report shows per family (its stacked
/// bar, its breakdown tables, its kernel table's family column, its roofline's legend) is
/// `analyze --breakdown`'s for the same plan, on Llama-3-8B under the compulsory and the
/// hardware model. The page computes its breakdown when `--breakdown` is not given.
#[test]
fn html_families_are_the_breakdowns() {
    use fgraph::units::fmt_time;
    let ex = "examples/llama3_8b.fgraph";
    let o = fgraph(&[
        "analyze",
        ex,
        "--breakdown",
        "--traffic-model",
        "hardware",
        "--format",
        "json",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v = json(&o);
    let b = &v["breakdown"];
    let models = b["models"].as_array().expect("models");
    assert_eq!(models.len(), 2);
    let out = temp_file_in("scale-fam", "r.html", "");
    let o = fgraph(&[
        "analyze",
        ex,
        "--traffic-model",
        "hardware",
        "--html",
        out.to_str().expect("utf-8"),
    ]);
    if code(&o) == 2 && stderr(&o).contains("dot") {
        eprintln!("Graphviz missing: skipped");
        return;
    }
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let html = std::fs::read_to_string(&out).expect("written");
    assert_eq!(html.matches("<h2>Where the time goes</h2>").count(), 1);
    let f64_of = |v: &serde_json::Value| v.as_f64().expect("number");
    // serde_json reads floats to within an ulp (its exact parsing is a feature fgraph does
    // not turn on); data-s is the f64 as Rust writes it.
    let same = |s: &str, t: f64| {
        let x: f64 = s.parse().expect("f64");
        (x - t).abs() <= 1e-12 * t.abs()
    };

    // The stacked bar: one part per family with time, and the launches, per model, with the
    // very figures of the JSON (data-s is the exact f64).
    let parts: Vec<&str> = html
        .split("<g class=\"part\"")
        .skip(1)
        .map(|p| &p[..p.find('>').expect("tag")])
        .collect();
    let mut expected = 0;
    for m in models {
        let name = m["model"].as_str().expect("model");
        let find = |family: &str| {
            parts
                .iter()
                .find(|p| attr(p, "data-model") == name && attr(p, "data-family") == family)
                .unwrap_or_else(|| panic!("no part {name} {family}"))
        };
        for f in m["families"].as_array().expect("families") {
            let family = f["family"].as_str().expect("family");
            let t = f64_of(&f["time_s"]);
            if t <= 0.0 {
                continue;
            }
            let p = find(family);
            assert!(same(attr(p, "data-s"), t), "{p} vs {t}");
            assert_eq!(attr(p, "data-kernels"), f["kernels"].to_string(), "{p}");
            expected += 1;
        }
        let p = find("launch overhead");
        assert!(same(attr(p, "data-s"), f64_of(&m["launch_s"])), "{p}");
        assert_eq!(attr(p, "data-kernels"), m["launches"].to_string());
        expected += 1;
    }
    assert_eq!(parts.len(), expected);

    // The model table: each family's time and share per model, the launches, the totals.
    let rows = cells(between(&html, "<table id=\"breakdown\">", "</table>"));
    let fams: Vec<&str> = b["families"]
        .as_array()
        .expect("families")
        .iter()
        .map(|f| f.as_str().expect("name"))
        .collect();
    assert_eq!(rows.len(), fams.len() + 2, "{rows:?}");
    for (row, family) in rows.iter().zip(&fams) {
        assert_eq!(row[0], *family);
        for (i, m) in models.iter().enumerate() {
            let r = m["families"]
                .as_array()
                .expect("families")
                .iter()
                .find(|r| r["family"] == *family)
                .expect("every model has the plan's families");
            assert_eq!(row[1 + 2 * i], fmt_time(f64_of(&r["time_s"])), "{family}");
            assert_eq!(
                row[2 + 2 * i],
                format!("{:.1}", f64_of(&r["pct"])),
                "{family}"
            );
        }
    }
    for (i, m) in models.iter().enumerate() {
        assert_eq!(
            rows[fams.len()][1 + 2 * i],
            fmt_time(f64_of(&m["launch_s"]))
        );
        assert_eq!(
            rows[fams.len() + 1][1 + 2 * i],
            fmt_time(f64_of(&m["total_s"]))
        );
    }

    // The per-layer table: each layer's kernels, compulsory time by family, launches, total
    // and hardware-model total.
    let rows = cells(between(
        &html,
        "<details id=\"breakdown-layers\">",
        "</table>",
    ));
    let layers = b["layers"].as_array().expect("layers");
    assert_eq!(rows.len(), layers.len());
    for (row, l) in rows.iter().zip(layers) {
        assert_eq!(row[0], l["name"].as_str().expect("name"));
        assert_eq!(row[1], l["kernels"].to_string());
        let c = l["compulsory_s"].as_array().expect("by family");
        for (j, t) in c.iter().enumerate() {
            assert_eq!(row[2 + j], fmt_time(f64_of(t)), "{row:?}");
        }
        let n = 2 + c.len();
        assert_eq!(row[n], fmt_time(f64_of(&l["launch_s"])));
        assert_eq!(row[n + 1], fmt_time(f64_of(&l["total_s"])));
        assert_eq!(row[n + 2], fmt_time(f64_of(&l["hardware_s"])));
    }

    // The kernel table names each kernel's family as the breakdown does.
    let kf = b["kernel_families"].as_array().expect("kernel families");
    let mut seen = 0;
    for row in html.split("<tr class=\"kernel-row\"").skip(1) {
        let k: usize = attr(row, "data-kernel").parse().expect("kernel");
        let family = between(row, "</span>", "</td>");
        assert_eq!(family, kf[k - 1].as_str().expect("name"), "kernel {k}");
        seen += 1;
    }
    assert!(seen >= 100, "{seen} kernel rows");

    // The roofline's legend counts the fused kernels of each family as the breakdown does.
    let compulsory = &models[0];
    let roofline = between(&html, "<h2>Roofline</h2>", "</svg>");
    for f in ["matmul", "attention", "normalisation", "elementwise"] {
        let n = compulsory["families"]
            .as_array()
            .expect("families")
            .iter()
            .find(|r| r["family"] == f)
            .map_or(0, |r| r["kernels"].as_u64().expect("kernels"));
        let legend = between(roofline, &format!(">{f}: "), " fused</text>");
        assert!(legend.ends_with(&format!(" {n}")), "{f}: {legend} vs {n}");
    }
}
