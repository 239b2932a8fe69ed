//! Blocks, repeats and imports (docs/language.md §17): a graph built from instances analyses
//! exactly as the same graph written out by hand; imports are read once, relative to the
//! importing file; the summary adds up; the limits hold without allocating.

use fgraph::{Options, check_file};
use std::path::PathBuf;
use std::process::{Command, Output};

const MLP: &str = "\
block mlp(S, H = 64, F = 4 * H) {
  dtype f16
  input x: [S, H]
  weight w1: [H, F]
  weight w2: [F, H]
  op up = matmul(x, w1) -> u
  op act = elementwise.gelu(u) -> a
  op down = matmul(a, w2) -> d
  op res = elementwise.add(d, x) -> y
  output y
}
";

/// Three instances of `mlp`, by hand: the names a repeat gives, spelled with `_`.
fn by_hand() -> String {
    let mut s = String::from("graph model {\n  param S = 128\n  dtype f16\n  input x: [S, 64]\n");
    let mut prev = "x".to_string();
    for i in 0..3 {
        let out = if i == 2 {
            "h".to_string()
        } else {
            format!("l{i}_y")
        };
        s += &format!(
            "  weight l{i}_w1: [64, 256]\n  weight l{i}_w2: [256, 64]\n\
             \x20 op l{i}_up = matmul({prev}, l{i}_w1) -> l{i}_u\n\
             \x20 op l{i}_act = elementwise.gelu(l{i}_u) -> l{i}_a\n\
             \x20 op l{i}_down = matmul(l{i}_a, l{i}_w2) -> l{i}_d\n\
             \x20 op l{i}_res = elementwise.add(l{i}_d, {prev}) -> {out}\n"
        );
        prev = out;
    }
    s + "  output h\n}\n"
}

fn with_repeat() -> String {
    format!(
        "{MLP}\ngraph model {{\n  param S = 128\n  dtype f16\n  input x: [S, 64]\n  \
         repeat 3 layers = mlp(x, S = S) -> h\n  output h\n}}\n"
    )
}

fn analysed(src: &str) -> fgraph::FileReport {
    let r = check_file("m.fgraph", src.as_bytes(), &Options::default());
    assert!(
        r.diagnostics.iter().all(|d| !d.is_error()),
        "{:#?}",
        r.diagnostics
    );
    r
}

#[test]
fn a_repeat_analyses_as_the_graph_written_out() {
    let a = analysed(&with_repeat());
    let b = analysed(&by_hand());
    let (a, b) = (
        a.graphs[0].analysis.as_ref().expect("analysis"),
        b.graphs[0].analysis.as_ref().expect("analysis"),
    );
    assert_eq!(a.traffic.unfused, b.traffic.unfused);
    assert_eq!(a.traffic.fused, b.traffic.fused);
    assert_eq!(a.plan.groups.len(), b.plan.groups.len());
    assert_eq!(a.plan.boundaries.len(), b.plan.boundaries.len());
    for (ga, gb) in a.plan.groups.iter().zip(&b.plan.groups) {
        assert_eq!(ga.ops, gb.ops);
    }
    // The names: layers.1.up is the 5th op; the last instance's output is `h`.
    assert_eq!(a.graph.ops[4].name, "layers.1.up");
    assert_eq!(a.graph.tensor(a.graph.outputs[0]).name, "h");
    // The seed's numbers by hand for one layer (f16): up reads x (128x64x2 = 16,384 B) and
    // w1 (64x256x2 = 32,768 B), writes a (128x256x2 = 65,536 B) after the gelu epilogue;
    // down reads a, w2 (32,768 B) and x again, writes y (16,384 B).
    let layer = 16_384 + 32_768 + 65_536 + 65_536 + 32_768 + 16_384 + 16_384;
    assert_eq!(a.traffic.fused.total, 3 * layer);
}

#[test]
fn diagnostics_in_a_block_point_into_it_once_with_the_instantiation() {
    let src = format!(
        "{}\ngraph model {{\n  input x: [8, 64]\n  repeat 4 layers = mlp(x, S = 8) -> h\n}}\n",
        MLP.replace(
            "op res = elementwise.add(d, x)",
            "op res = elementwise.add(d, xx)"
        )
    );
    let r = check_file("m.fgraph", src.as_bytes(), &Options::default());
    let errors: Vec<_> = r.diagnostics.iter().filter(|d| d.is_error()).collect();
    assert_eq!(errors.len(), 1, "{errors:#?}");
    let d = errors[0];
    assert_eq!(d.message, "undefined tensor `xx`");
    let at = d.primary.as_ref().expect("primary").span;
    assert_eq!(&src[at.start..at.end], "xx");
    assert!(
        d.secondary
            .iter()
            .any(|l| l.message == "in instance 0 of this repeat of `mlp`"
                && src[l.span.start..l.span.end].starts_with("repeat 4 layers")),
        "{d:#?}"
    );
    // A fix renames inside the block, with the block's own names (no instance prefix).
    let fixes: Vec<&str> = d
        .fixes
        .iter()
        .flat_map(|f| f.edits.iter().map(|e| e.replacement.as_str()))
        .collect();
    assert!(
        !fixes.is_empty() && fixes.iter().all(|f| !f.contains("layers.")),
        "{fixes:?}"
    );
}

#[test]
fn a_repeat_beyond_the_limits_is_a_diagnostic_not_an_allocation() {
    let src = format!(
        "{MLP}\ngraph model {{\n  input x: [8, 64]\n  repeat 1000000000000 layers = mlp(x, S = 8) -> h\n}}\n"
    );
    let start = std::time::Instant::now();
    let r = check_file("m.fgraph", src.as_bytes(), &Options::default());
    assert!(start.elapsed().as_secs() < 5);
    let codes: Vec<&str> = r.diagnostics.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(codes, ["limit-exceeded"], "{:#?}", r.diagnostics);
}

#[test]
fn nested_blocks_and_the_summary_add_up() {
    let src = "\
block proj(S, H) {
  input x: [S, H]
  weight w: [H, H]
  op mm = matmul(x, w) -> y
  output y
}
block layer(S, H = 32) {
  input x: [S, H]
  op p = proj(x, S = S, H = H) -> y
  op act = elementwise.relu(y) -> z
  output z
}
graph g {
  input x: [4, 32]
  repeat 2 layers = layer(x, S = 4) -> h
  op head = elementwise.exp(h) -> out
}
";
    let r = analysed(src);
    let g = &r.graphs[0];
    let a = g.analysis.as_ref().expect("analysis");
    let names: Vec<&str> = a.graph.ops.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "layers.0.p.mm",
            "layers.0.act",
            "layers.1.p.mm",
            "layers.1.act",
            "head"
        ]
    );
    let paths: Vec<&str> = g.instances.iter().map(|i| i.path.as_str()).collect();
    assert_eq!(paths, ["layers.0", "layers.0.p", "layers.1", "layers.1.p"]);
    let s = fgraph::report::summary::summarize(a, &g.instances, None).expect("summary");
    let rows: Vec<(&str, usize, usize)> = s
        .instances
        .iter()
        .map(|r| (r.name.as_str(), r.kernels, r.ops))
        .collect();
    // head (exp) fuses into layers.1's kernel (relu → exp): counted where the kernel starts.
    assert_eq!(
        rows,
        [
            ("layers.0", 1, 2),
            ("layers.1", 1, 2),
            (fgraph::report::summary::OUTSIDE, 0, 1)
        ]
    );
    assert_eq!(s.total.bytes(), a.traffic.fused.total);
    let blocks: Vec<(&str, Option<usize>, usize)> = s
        .blocks
        .iter()
        .map(|r| (r.name.as_str(), r.instances, r.kernels))
        .collect();
    // Kernels count for the innermost instance's block: each starts with proj's matmul.
    assert_eq!(blocks, [("layer", Some(2), 0), ("proj", Some(2), 2)]);
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fgraph-blocks-{}-{name}", std::process::id()));
    std::fs::create_dir_all(dir.join("lib")).expect("temp dir");
    dir
}

fn fgraph(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fgraph"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("run fgraph")
}

#[test]
fn imports_are_relative_read_once_and_cycles_are_reported() {
    let dir = temp_dir("imports");
    // lib/a.fgraph and lib/b.fgraph both import lib/common.fgraph (a diamond).
    std::fs::write(dir.join("lib/common.fgraph"), MLP).unwrap();
    std::fs::write(
        dir.join("lib/a.fgraph"),
        "import \"common.fgraph\"\nblock twice(S) {\n  input x: [S, 64]\n  op m1 = mlp(x, S = S) -> y1\n  op m2 = mlp(y1, S = S) -> y2\n  output y2\n}\n",
    )
    .unwrap();
    std::fs::write(dir.join("lib/b.fgraph"), "import \"common.fgraph\"\n").unwrap();
    let main = dir.join("main.fgraph");
    std::fs::write(
        &main,
        "import \"lib/a.fgraph\"\nimport \"lib/b.fgraph\"\n\ngraph model {\n  dtype f16\n  input x: [8, 64]\n  op t = twice(x, S = 8) -> y\n  output y\n}\n",
    )
    .unwrap();
    let o = fgraph(&["analyze", "--format", "json", main.to_str().unwrap()]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["ops"].as_array().unwrap().len(), 8);
    assert_eq!(v["ops"][0]["name"], "t.m1.up");
    let rows = v["summary"]["instances"].as_array().unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["name"], "t");
    assert_eq!(rows[0]["kernels"], 4);
    // A cycle: common imports main.
    std::fs::write(
        dir.join("lib/common.fgraph"),
        format!("import \"../main.fgraph\"\n{MLP}"),
    )
    .unwrap();
    let o = fgraph(&["check", "--format", "json", main.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let d = &v["diagnostics"][0];
    assert_eq!(d["code"], "bad-import");
    assert!(
        d["message"].as_str().unwrap().starts_with("import cycle: "),
        "{d}"
    );
    assert_eq!(d["line"], 1);
    // An error inside an imported block is shown at the instantiation, naming the place.
    std::fs::write(
        dir.join("lib/common.fgraph"),
        MLP.replace("add(d, x)", "add(d, xx)"),
    )
    .unwrap();
    let o = fgraph(&["check", "--format", "json", main.to_str().unwrap()]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let d = &v["diagnostics"][0];
    assert_eq!(d["code"], "undefined-tensor");
    assert_eq!(d["line"], 7, "{d}");
    assert!(
        d["message"].as_str().unwrap().contains("common.fgraph:9:"),
        "{d}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn summary_flag_prints_one_line_per_layer() {
    let dir = temp_dir("summary");
    let p = dir.join("m.fgraph");
    std::fs::write(&p, with_repeat()).unwrap();
    let o = fgraph(&["analyze", "--summary", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    let out = String::from_utf8_lossy(&o.stdout);
    for want in [
        "per instance",
        "layers.0 (mlp)",
        "layers.2 (mlp)",
        "mlp ×3",
        "model total",
    ] {
        assert!(out.contains(want), "{want} in {out}");
    }
    assert!(!out.contains("kernel 1 "), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn fmt_keeps_blocks_imports_and_repeats() {
    let src = "import   \"lib/x.fgraph\"\nimport \"y.fgraph\"\nblock  b( S,H=2*S ){\ninput x:[S,H]\n op r=elementwise.relu(x)->y\noutput y}\ngraph g{\ninput x:[2,4]\nrepeat 2*1 l=b(x,S=2)->h\n}\n";
    let want = "import \"lib/x.fgraph\"\nimport \"y.fgraph\"\n\nblock b(S, H = 2 * S) {\n  input x: [S, H]\n  op r = elementwise.relu(x) -> y\n  output y\n}\n\ngraph g {\n  input x: [2, 4]\n  repeat 2 * 1 l = b(x, S = 2) -> h\n}\n";
    let got = fgraph::format::format_source(src).expect("formats");
    assert_eq!(got, want);
    assert_eq!(fgraph::format::format_source(&got).expect("formats"), got);
}

/// An example of `examples/`, checked clean (no warning either), with its report.
fn example(name: &str) -> fgraph::FileReport {
    let path = format!("{}/examples/{name}", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).expect("example");
    assert!(
        String::from_utf8_lossy(&bytes).lines().count() < 80,
        "the issue asks for a Llama-3-8B file under 80 lines"
    );
    let r = check_file(&path, &bytes, &Options::default());
    assert!(r.diagnostics.is_empty(), "{:#?}", r.diagnostics);
    r
}

/// Parameters of one Llama-3-8B layer, by hand from the published config: q 4096², k and v
/// 4096·1024, o 4096², gate/up/down 3·4096·14336, two RMSNorm weights of 4096.
const LLAMA_LAYER: u64 = 4096 * 4096 * 2 + 2 * 4096 * 1024 + 3 * 4096 * 14336 + 2 * 4096;
/// The token embedding and the LM head, 128,256 × 4096 each, and the final norm.
const LLAMA_OUTSIDE: u64 = 2 * 128_256 * 4096 + 4096;

fn weight_bytes(a: &fgraph::Analysis) -> u64 {
    a.graph
        .tensors
        .iter()
        .filter(|t| t.origin == fgraph::graph::Origin::Weight)
        .map(|t| t.bytes)
        .sum()
}

/// The traffic of the kernel holding op `op`.
fn kernel_of<'a>(a: &'a fgraph::Analysis, op: &str) -> (usize, &'a fgraph::traffic::GroupTraffic) {
    let k = a
        .plan
        .groups
        .iter()
        .position(|g| g.ops.iter().any(|&o| a.graph.op(o).name == op))
        .expect("op in a kernel");
    (k, &a.traffic.groups[k])
}

#[test]
fn llama3_8b_prefill_example_is_clean_and_its_numbers_check_by_hand() {
    let r = example("llama3_8b.fgraph");
    let g = &r.graphs[0];
    let a = g.analysis.as_ref().expect("analysis");
    // 32 layers of 39 ops (attention 32 of which 14 are the two RoPE instances, FFN 7), and
    // the embedding, the final norm and the LM head.
    assert_eq!(a.graph.ops.len(), 32 * 39 + 3);
    assert_eq!(LLAMA_LAYER, 218_112_000);
    // 8,030,261,248 parameters: Llama-3-8B's published count.
    assert_eq!(32 * LLAMA_LAYER + LLAMA_OUTSIDE, 8_030_261_248);
    assert_eq!(weight_bytes(a), 2 * 8_030_261_248);
    // The embedding reads the S = 2048 rows it looks up (2048 · 4096 · 2 B), not the
    // 1 GB table, and the token ids (2048 · 4 B).
    let (_, embed) = kernel_of(a, "embed");
    assert_eq!(embed.bytes_read, 2048 * 4096 * 2 + 2048 * 4);
    // Matmul FLOPs of one layer at S = 2048: projections, FFN, and QK^T and PV over 32
    // heads; the elementwise and reduction work (softmax and scaling over 32 · 2048² scores,
    // RoPE, norms) adds about 0.1 %.
    let (s, h, kv, f, nh, hd) = (2048u64, 4096u64, 1024u64, 14336u64, 32u64, 128u64);
    let matmul = 2 * s * (h * h + 2 * h * kv + h * h + 3 * h * f) + 2 * 2 * nh * s * s * hd;
    let summary = fgraph::report::summary::summarize(a, &g.instances, None).expect("summary");
    assert_eq!(summary.instances.len(), 33);
    let hw = fgraph::Hardware::preset("h100").expect("preset");
    let cost = fgraph::cost::estimate(a, &hw, fgraph::LaunchMode::Graph).expect("cost");
    let layer0: u64 = a
        .plan
        .groups
        .iter()
        .zip(&cost.fused.kernels)
        .filter(|(grp, _)| a.graph.op(grp.ops[0]).name.starts_with("layers.0."))
        .map(|(_, k)| k.flops)
        .sum();
    assert!(
        layer0 >= matmul && (layer0 - matmul) * 500 < matmul,
        "{layer0} vs {matmul}"
    );
}

#[test]
fn llama3_8b_decode_example_appends_to_the_cache_and_reads_all_of_it() {
    let r = example("llama3_8b_decode.fgraph");
    let a = r.graphs[0].analysis.as_ref().expect("analysis");
    // 32 layers of 37 ops (no head permutes at one token), embedding, norm, LM head.
    assert_eq!(a.graph.ops.len(), 32 * 37 + 3);
    // Weights: the model, and per layer a K and a V cache of 8 heads × 32,768 positions ×
    // 128 × 2 B = 64 MiB each: 4 GiB in all, Llama-3-8B's KV cache at 32k context.
    let cache = 8 * 32_768 * 128 * 2;
    assert_eq!(cache, 64 << 20);
    assert_eq!(
        weight_bytes(a),
        2 * (32 * LLAMA_LAYER + LLAMA_OUTSIDE) + 32 * 2 * cache
    );
    // The append writes the new row only (8 heads × 128 × 2 B) and reads no cache; RoPE on
    // k and the append are one kernel.
    let (_, append) = kernel_of(a, "layers.0.k_append");
    assert_eq!(append.bytes_written, 8 * 128 * 2);
    assert!(
        append
            .reads
            .iter()
            .all(|r| !a.graph.tensor(r.tensor).name.contains("cache"))
    );
    // QK^T reads the whole cache (the buffer under its new name) and q.
    let (_, scores) = kernel_of(a, "layers.0.scores");
    assert_eq!(scores.bytes_read, cache + 32 * 128 * 2);
    // One token: the embedding reads one row of the table and one id.
    let (_, embed) = kernel_of(a, "embed");
    assert_eq!(embed.bytes_read, 4096 * 2 + 4);
}

#[test]
fn allow_comments_on_the_graph_or_the_instantiation_cover_its_instances() {
    let src = "\
block b(N) {
  input x: [N]
  weight w: [N]
  op y = elementwise.relu(x) -> z
  output z
}

// fgraph: allow(unused-tensor)
graph g {
  input x: [4]
  op i = b(x, N = 4) -> out
}

graph h {
  input x: [4]
  // fgraph: allow(unused-tensor)
  op i = b(x, N = 4) -> out
  op j = b(out, N = 4) -> out2
}
";
    let r = check_file("m.fgraph", src.as_bytes(), &Options::default());
    // Only the instance `j` of graph h keeps its warning about the unused weight.
    assert_eq!(r.diagnostics.len(), 1, "{:#?}", r.diagnostics);
    let d = &r.diagnostics[0];
    assert_eq!(d.message, "tensor `w` is declared but never used");
    let call = d.secondary.last().expect("instantiation label").span;
    assert!(src[call.start..call.end].starts_with("op j = b("));
}

#[test]
fn a_block_no_graph_instantiates_is_checked_on_its_own() {
    // A library of blocks: the required param S has no value, which says nothing, but the
    // misspelt tensor, the unknown kind and the unused weight are found.
    let src = "\
block mlp(S, H = 64) {
  input x: [S, H]
  weight w: [H, H]
  weight unused_w: [H]
  op up = matmul(x, w) -> y
  op act = elementwise.relu(yy) -> z
  op r = repeatme(z) -> q
  output q
}
";
    let r = check_file("lib.fgraph", src.as_bytes(), &Options::default());
    let mut codes: Vec<&str> = r.diagnostics.iter().map(|d| d.code.as_str()).collect();
    codes.sort_unstable();
    assert_eq!(
        codes,
        ["undefined-tensor", "unknown-kind", "unused-tensor"],
        "{:#?}",
        r.diagnostics
    );
    // The shipped library checks clean on its own.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/lib/llama3.fgraph");
    let lib = check_file(path, &std::fs::read(path).unwrap(), &Options::default());
    assert!(lib.diagnostics.is_empty(), "{:#?}", lib.diagnostics);
}

/// Float and dtype header params (issue 22, item 6) analyse as the graph written out with
/// their values: the dtype decides every byte, the float reaches the attribute as written.
#[test]
fn float_and_dtype_params_analyse_as_their_values_written_out() {
    let blocks = "\
block norm(S, H = 64, eps = 1e-5, D = bf16) {
  dtype D
  input x: [S, H]
  weight w: [H]
  op n = reduction.rmsnorm(x, w, eps = eps) -> y: [S, H]
  output y
}

block proj(S, H, E) {
  input x: E[S, H]
  weight w: E[H, H]
  op p = matmul(x, w) -> y
  output y
}

block two(S, D = f16, e = 1e-6) {
  dtype D
  input x: [S, 64]
  op first = norm(x, S = S, eps = e, D = D) -> y
  op second = proj(y, S = S, H = 64, E = D) -> z
  output z
}
";
    let src = format!(
        "{blocks}\ngraph model {{\n  dtype f32\n  input x: [8, 64]\n  \
         op a = norm(x, S = 8, D = f32, eps = 0.001) -> h\n  \
         op b = proj(h, S = 8, H = 64, E = f32) -> g\n  \
         op c = elementwise.cast(g) -> g16: f16[8, 64]\n  \
         repeat 2 layers = two(g16, S = 8) -> out\n  output out\n}}\n"
    );
    let by_hand = "graph model {\n  dtype f32\n  input x: [8, 64]\n  weight a_w: [64]\n  \
         op a_n = reduction.rmsnorm(x, a_w, eps = 0.001) -> h: [8, 64]\n  \
         weight b_w: f32[64, 64]\n  op b_p = matmul(h, b_w) -> g\n  \
         op c = elementwise.cast(g) -> g16: f16[8, 64]\n  dtype f16\n  \
         weight l0_w: [64]\n  op l0_n = reduction.rmsnorm(g16, l0_w, eps = 1e-6) -> l0_y: [8, 64]\n  \
         weight l0_pw: f16[64, 64]\n  op l0_p = matmul(l0_y, l0_pw) -> l0_z\n  \
         weight l1_w: [64]\n  op l1_n = reduction.rmsnorm(l0_z, l1_w, eps = 1e-6) -> l1_y: [8, 64]\n  \
         weight l1_pw: f16[64, 64]\n  op l1_p = matmul(l1_y, l1_pw) -> out\n  output out\n}\n";
    let (a, b) = (analysed(&src), analysed(by_hand));
    let (a, b) = (
        a.graphs[0].analysis.as_ref().expect("analysis"),
        b.graphs[0].analysis.as_ref().expect("analysis"),
    );
    assert_eq!(a.traffic.unfused, b.traffic.unfused);
    assert_eq!(a.traffic.fused, b.traffic.fused);
    assert_eq!(a.graph.ops.len(), b.graph.ops.len());
    for (x, y) in a.graph.ops.iter().zip(&b.graph.ops) {
        assert_eq!(x.kind, y.kind);
        assert_eq!(x.extra, y.extra, "{} and {}", x.name, y.name);
        assert_eq!(
            a.graph.tensor(x.output).dtype,
            b.graph.tensor(y.output).dtype
        );
        assert_eq!(
            a.graph.tensor(x.output).bytes,
            b.graph.tensor(y.output).bytes
        );
    }
    // A block with float and dtype params that no graph instantiates is checked on its own,
    // with their defaults.
    let alone = check_file("m.fgraph", blocks.as_bytes(), &Options::default());
    assert!(alone.diagnostics.is_empty(), "{:#?}", alone.diagnostics);
}

/// A block checked on its own (no graph instantiates it) is named a block in messages, not a
/// graph: the semantic pass checks it as a graph of its name.
#[test]
fn a_block_checked_alone_is_called_a_block() {
    let src =
        "block mlp(S) {\n  input x: [S, 8]\n  op r = elementwise.relu(xx) -> y\n  output y\n}\n";
    let report = fgraph::check_file("b.fgraph", src.as_bytes(), &fgraph::Options::default());
    let d = report
        .diagnostics
        .iter()
        .find(|d| d.code == fgraph::diagnostics::Code::UndefinedTensor)
        .expect("undefined xx");
    let label = &d.primary.as_ref().expect("placed").message;
    assert_eq!(label, "not defined in block `mlp`");
}

/// Boolean header params (issue 22, item 6): a default `true`/`false` makes a boolean param,
/// given whole to an attribute; a required param used only as an attribute's value takes a
/// boolean too. Every instance analyses as the graph written out with the value, op by op,
/// and the mask decides the FlashAttention kernel's FLOPs.
#[test]
fn boolean_params_analyse_as_their_values_written_out() {
    let blocks = "\
block attn(H, S, D, causal = true) {
  dtype f16
  input q: [H, S, D]
  input k: [H, S, D]
  input v: [H, S, D]
  op qk = matmul(q, k.T) -> s: [H, S, S]
  op sm = reduction.softmax(s, axis = -1, causal = causal) -> p
  op pv = matmul(p, v) -> o: [H, S, D]
  output o
}

block outer(c, mask = c) {
  dtype f16
  input x: [2, 8, 8]
  op a = attn(x, x, x, H = 2, S = 8, D = 8, causal = mask) -> y
  output y
}

block keep(m = false) {
  dtype f16
  input x: [2, 8, 8]
  op a = outer(x, c = m) -> y
  output y
}
";
    let graph = |body: &str| {
        format!("graph g {{\n  dtype f16\n  input x: [2, 8, 8]\n{body}  output o4\n}}\n")
    };
    let src = format!(
        "{blocks}\n{}",
        graph(
            "  op a = attn(x, x, x, H = 2, S = 8, D = 8) -> o1\n  \
             op b = attn(o1, o1, o1, H = 2, S = 8, D = 8, causal = false) -> o2\n  \
             op c = outer(o2, c = true) -> o3\n  \
             op d = keep(o3) -> o4\n"
        )
    );
    let written = |name: &str, i: &str, out: &str, causal: bool| {
        format!(
            "  op {name}_qk = matmul({i}, {i}.T) -> {name}_s: [2, 8, 8]\n  \
             op {name}_sm = reduction.softmax({name}_s, axis = -1, causal = {causal}) -> {name}_p\n  \
             op {name}_pv = matmul({name}_p, {i}) -> {out}: [2, 8, 8]\n"
        )
    };
    let by_hand = graph(
        &[
            written("a", "x", "o1", true),
            written("b", "o1", "o2", false),
            written("c_a", "o2", "o3", true),
            written("d_a_a", "o3", "o4", false),
        ]
        .concat(),
    );
    let flops = |src: &str, flash_attention: bool| {
        let opts = Options {
            fusion: fgraph::FusionOptions {
                flash_attention,
                ..fgraph::FusionOptions::default()
            },
            ..Options::default()
        };
        let r = check_file("m.fgraph", src.as_bytes(), &opts);
        assert!(
            r.diagnostics.iter().all(|d| !d.is_error()),
            "{:#?}",
            r.diagnostics
        );
        let a = r.graphs[0].analysis.clone().expect("analysis");
        let hw = fgraph::cost::Hardware::preset("h100").expect("h100");
        let c = fgraph::cost::estimate(&a, &hw, fgraph::cost::LaunchMode::Graph).expect("cost");
        (a, c.unfused.flops, c.fused.flops)
    };
    for flash in [false, true] {
        let (a, a_all, a_fused) = flops(&src, flash);
        let (b, b_all, b_fused) = flops(&by_hand, flash);
        assert_eq!((a_all, a_fused), (b_all, b_fused), "flash {flash}");
        assert_eq!(a.traffic.fused, b.traffic.fused);
        assert_eq!(a.graph.ops.len(), 12);
        assert_eq!(a.graph.ops.len(), b.graph.ops.len());
        for (x, y) in a.graph.ops.iter().zip(&b.graph.ops) {
            assert_eq!(x.kind, y.kind);
            assert_eq!(x.attrs, y.attrs, "{} and {}", x.name, y.name);
            assert_eq!(x.extra, y.extra, "{} and {}", x.name, y.name);
        }
        // Per instance, H = 2, S = 8, D = 8 (tests/attention_mask.rs): 4,864 FLOPs less the
        // scale's 128, 4,736; causal keeps 36 of 64 pairs: 37 · 2 · 36 = 2,664.
        assert_eq!(a_all, 4 * 4_736);
        let want = if flash {
            2 * 2_664 + 2 * 4_736
        } else {
            4 * 4_736
        };
        assert_eq!(a_fused, want, "flash {flash}");
    }
    // The mask is each instance's own: `a.sm` (causal) and `b.sm` (not) differ.
    let (a, ..) = flops(&src, true);
    let (sm_a, sm_b) = (&a.graph.ops[1], &a.graph.ops[4]);
    assert_eq!((&*sm_a.name, &*sm_b.name), ("a.sm", "b.sm"));
    assert_eq!(sm_a.int_attr("causal"), Some(1));
    assert_eq!(sm_b.int_attr("causal"), Some(0));
    // The blocks check clean on their own, with their defaults; they format as written.
    let alone = check_file("m.fgraph", blocks.as_bytes(), &Options::default());
    assert!(alone.diagnostics.is_empty(), "{:#?}", alone.diagnostics);
    let formatted = fgraph::format::format_source(&src).expect("formats");
    assert_eq!(formatted, src);
}
