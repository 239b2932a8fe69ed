//! `fgraph emit torch` (issue 24 item 3): every shipped file emits a PyTorch module that parses
//! as Python, names every op of its expanded graph in a comment and declares every input and
//! weight with its shape; a graph with every op kind and every function of the registry emits
//! and (where PyTorch is installed) runs; one small graph's exact text; views stay views;
//! names become identifiers; the command line's outputs and exit codes.
//!
//! Python: the modules are parsed with `python3` when it is on PATH (CI has it); without it
//! the parse is skipped, unless `FGRAPH_REQUIRE_PYTHON=1`, which makes its absence a failure.
//! PyTorch: where `import torch` works, every shipped module also runs on the meta device
//! (every call, shape and dtype, without the memory or the time), and the every-op graph
//! runs on the CPU; elsewhere that part is skipped.

use fgraph::analysis::{FileReport, Options};
use fgraph::graph::Origin;
use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::*;

/// Every `.fgraph` file the repository ships outside tests/, sorted.
fn shipped() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "fgraph") {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    for d in ["examples", "std", "validation", "benches"] {
        walk(&root().join(d), &mut out);
    }
    out.sort();
    out
}

/// `python3`, if it runs; `FGRAPH_REQUIRE_PYTHON=1` makes its absence a failure.
fn python() -> Option<&'static str> {
    let ok = Command::new("python3")
        .args(["-c", "import ast"])
        .output()
        .is_ok_and(|o| o.status.success());
    if ok {
        return Some("python3");
    }
    assert!(
        std::env::var_os("FGRAPH_REQUIRE_PYTHON").is_none_or(|v| v != "1"),
        "FGRAPH_REQUIRE_PYTHON=1 but `python3 -c \"import ast\"` does not run: install Python 3 \
         to check the emitted PyTorch modules"
    );
    eprintln!("note: python3 is not on PATH: the emitted modules are not parsed");
    None
}

/// Whether `python3 -c "import torch"` works.
fn torch(py: &str) -> bool {
    let ok = Command::new(py)
        .args(["-c", "import torch"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("note: PyTorch is not installed: the emitted modules are parsed, not run");
    }
    ok
}

/// Runs `script` with `files` as its arguments; panics with its output unless it exits 0.
fn run_python(py: &str, script: &str, files: &[PathBuf]) {
    let o = Command::new(py)
        .arg("-c")
        .arg(script)
        .args(files)
        .output()
        .expect("run python3");
    assert!(
        o.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
}

/// Parses every file given; lists those that do not parse.
const PARSE: &str = r#"
import ast, sys
bad = []
for p in sys.argv[1:]:
    try:
        ast.parse(open(p, encoding="utf-8").read(), filename=p)
    except SyntaxError as e:
        bad.append(f"{p}:{e.lineno}: {e.msg}")
print("\n".join(bad))
sys.exit(1 if bad else 0)
"#;

/// Runs every module given on the meta device (weights, inputs and every op's result are
/// shapes and dtypes only) and compares what forward returns with OUTPUTS.
const META: &str = r#"
import importlib.util, sys, torch

class _Gen:
    def __init__(self, device=None): pass
    def manual_seed(self, seed): return self

torch.Generator = _Gen
bad = []
for p in sys.argv[1:]:
    try:
        spec = importlib.util.spec_from_file_location("emitted", p)
        m = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(m)
        m._random = lambda shape, dtype, device, gen, **kw: torch.empty(shape, dtype=dtype, device="meta")
        g = m.Graph(device="meta")
        inputs = [torch.empty(s["shape"], dtype=s["dtype"], device="meta") for s in m.INPUTS]
        with torch.inference_mode():
            outs = g(*inputs)
        outs = outs if isinstance(outs, tuple) else (outs,)
        assert len(outs) == len(m.OUTPUTS), "outputs"
        for s, o in zip(m.OUTPUTS, outs):
            assert tuple(o.shape) == s["shape"] and o.dtype == s["dtype"], (s, o.shape, o.dtype)
    except Exception as e:
        bad.append(f"{p}: {type(e).__name__}: {e}")
print("\n".join(bad))
sys.exit(1 if bad else 0)
"#;

/// A directory of this test process for emitted modules.
fn out_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fgraph-emit-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn check(path: &Path) -> FileReport {
    let bytes = std::fs::read(path).expect("read");
    fgraph::check_file(&path.display().to_string(), &bytes, &Options::default())
}

fn torch_target() -> &'static fgraph::emit::Target {
    fgraph::emit::target("torch").expect("the torch target")
}

/// The module of graph `k` of `file`, checked against the graph: one comment per op naming
/// it, every input and weight with its shape in INPUTS or WEIGHTS.
fn emit_checked(file: &FileReport, k: usize) -> String {
    let report = &file.graphs[k];
    let analysis = report
        .analysis
        .as_ref()
        .unwrap_or_else(|| panic!("{}: graph `{}` has errors", file.source.name, report.name));
    let g = &analysis.graph;
    let text = fgraph::emit::emit_graph(torch_target(), file, g, &Default::default())
        .unwrap_or_else(|e| panic!("{}: {e}", file.source.name));
    let comments = text
        .lines()
        .filter(|l| l.starts_with("        # op "))
        .count();
    assert_eq!(
        comments,
        g.ops.len(),
        "{}: one comment per op",
        file.source.name
    );
    for op in &g.ops {
        assert!(
            text.contains(&format!("        # op {} = ", op.name)),
            "{}: op `{}` is not named",
            file.source.name,
            op.name
        );
    }
    for t in &g.tensors {
        let list = match t.origin {
            Origin::Input => "INPUTS",
            Origin::Weight => "WEIGHTS",
            Origin::Produced(_) => continue,
        };
        let shape = match t.shape.as_slice() {
            [] => "()".to_string(),
            [d] => format!("({d},)"),
            s => format!(
                "({})",
                s.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
            ),
        };
        let entry = format!("\"fgraph\": \"{}\", \"shape\": {shape},", t.name);
        let at = text.find(&format!("{list} = [")).expect(list);
        let end = at + text[at..].find("\n]").expect("end of list");
        assert!(
            text[at..end].contains(&entry),
            "{}: {} `{}` {shape} is not in {list}",
            file.source.name,
            if list == "INPUTS" { "input" } else { "weight" },
            t.name
        );
    }
    assert!(text.contains("class Graph(torch.nn.Module):"));
    assert!(text.contains("if __name__ == \"__main__\":"));
    text
}

#[test]
fn every_shipped_file_emits_a_module_naming_every_op() {
    let dir = out_dir("shipped");
    let mut written = Vec::new();
    let mut graphs = 0;
    for path in shipped() {
        let file = check(&path);
        assert!(!file.has_errors(), "{} has errors", path.display());
        if file.graphs.is_empty() {
            // Blocks only (std/, examples/lib/): nothing to emit.
            continue;
        }
        for k in 0..file.graphs.len() {
            let text = emit_checked(&file, k);
            let out = dir.join(format!("m{}.py", written.len()));
            std::fs::write(&out, text).expect("write");
            written.push(out);
            graphs += 1;
        }
    }
    assert!(graphs >= 300, "{graphs} graphs emitted");
    if let Some(py) = python() {
        run_python(py, PARSE, &written);
        if torch(py) {
            run_python(py, META, &written);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_op_kind_and_function_emits_and_runs() {
    let path = root().join("tests/fixtures/emit/every_op.fgraph");
    let file = check(&path);
    assert!(!file.has_errors(), "{:?}", file.diagnostics);
    let g = &file.graphs[0].analysis.as_ref().expect("checked").graph;
    // The fixture covers every kind and every function: a new one must be added to it.
    for &kind in fgraph::OpKind::ALL {
        assert!(
            g.ops.iter().any(|o| o.kind == kind),
            "every_op.fgraph has no `{kind}` op: add one"
        );
    }
    for f in fgraph::ops::funcs::FUNCS {
        assert!(
            g.ops.iter().any(|o| o.kind == f.kind
                && o.func
                    .as_deref()
                    .is_some_and(|n| fgraph::ops::funcs::is(n, f.name))),
            "every_op.fgraph has no `{}.{}` op: add one",
            f.kind,
            f.name
        );
    }
    let text = emit_checked(&file, 0);
    // What has no PyTorch call is a marked placeholder, never a silent guess.
    assert!(text.contains("# note: placeholder: opaque function `reduction.frobnicate`"));
    assert!(text.contains("opq = torch.empty((2, 4), dtype=torch.float32, device=x.device)"));
    // One torch.topk call feeds the values and the indices.
    assert_eq!(text.matches("torch.topk(x, 3, dim=-1)").count(), 1);
    assert!(text.contains("tk_i = _topk_tk_v.indices.to(torch.int32)"));
    // A batch norm's variance is drawn positive (a negative one is NaN); the mean is not.
    assert!(text.contains("self.bn_var = _weight(_random((4, 1, 1), torch.float32, device, gen, std=0.5, positive=True))"));
    assert!(text.contains(
        "self.bn_mean = _weight(_random((4, 1, 1), torch.float32, device, gen, std=0.5))"
    ));
    // The KV-cache append writes its rows in place.
    assert!(text.contains("self.cache[:, :, 4:5] = new_rows\n        cache2 = self.cache\n"));
    // Attention: is_causal when the mask is PyTorch's, a mask aligned to the last key
    // otherwise, and a window said to be approximate.
    assert!(text.contains(
        "at_out = F.scaled_dot_product_attention(q, kv, kv, is_causal=True, enable_gqa=True)"
    ));
    assert!(text.contains("attn_mask=self._mask_at_chunk, scale=0.25, enable_gqa=True"));
    assert!(text.contains("PyTorch's SDPA has no sliding window"));
    let dir = out_dir("every-op");
    let out = dir.join("every_op.py");
    std::fs::write(&out, &text).expect("write");
    if let Some(py) = python() {
        run_python(py, PARSE, std::slice::from_ref(&out));
        if torch(py) {
            // On the CPU: every call runs and main() finds each output's declared shape and
            // dtype (it exits 1 otherwise).
            let o = Command::new(py)
                .arg(&out)
                .env("CUDA_VISIBLE_DEVICES", "")
                .output()
                .expect("run");
            assert!(
                o.status.success(),
                "{}\n{}",
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The module of a graph given as text.
fn emit_text(src: &str) -> String {
    let file = fgraph::check_file("small.fgraph", src.as_bytes(), &Options::default());
    assert!(!file.has_errors(), "{:?}", file.diagnostics);
    emit_checked(&file, 0)
}

/// The lines of `forward` that are statements (no comments).
fn statements(text: &str) -> Vec<&str> {
    let body = &text[text.find("    def forward(").expect("forward")..];
    let body = &body[..body.find("\n\n").unwrap_or(body.len())];
    body.lines()
        .skip(1)
        .map(str::trim)
        .filter(|l| !l.starts_with('#'))
        .collect()
}

#[test]
fn views_stay_views() {
    let text = emit_text(
        "graph views {\n  dtype bf16\n  input x: [2, 6, 8]\n  input s: [3, 4, 8]\n  \
         op r = reshape(x) -> r4: [2, 6, 2, 4]\n  \
         op p = permute(r4, dims = [0, 2, 1, 3]) -> ph\n  \
         op sl = slice(ph, axis = -1, start = 0, end = 2) -> lo\n  \
         op sl2 = slice(x, axis = 1, start = 1, end = 5, step = 2) -> mid\n  \
         op e = expand(lo) -> big: [3, 2, 2, 6, 2]\n  \
         op t = matmul(s[1], s[2].T) -> st\n  \
         op ex = elementwise.exp(big) -> y\n  output y, st, mid\n}\n",
    );
    assert_eq!(
        statements(&text),
        [
            "r4 = x.reshape(2, 6, 2, 4)",
            "ph = r4.permute(0, 2, 1, 3)",
            "del r4",
            "lo = ph[..., 0:2]",
            "del ph",
            "mid = x[:, 1:5:2]",
            "big = lo.expand(3, 2, 2, 6, 2)",
            "del lo",
            "st = torch.matmul(s[1], s[2].transpose(-2, -1))",
            "y = torch.exp(big)",
            "del big",
            "return (y, st, mid)",
        ]
    );
}

#[test]
fn grouped_heads_run_sdpa_in_4d() {
    // `fgraph import hf`'s grouped-query attention: q [B, KV heads, group, S, D], k and v
    // [B, KV heads, 1, S, D]. SDPA's fused kernels take 4-D tensors (a 5-D call runs its
    // math fallback), so the heads are merged by views and split again after.
    let text = emit_text(
        "graph gqa {\n  dtype bf16\n  input q: [2, 4, 3, 16, 8]\n  input k: [2, 4, 1, 16, 8]\n  \
         input v: [2, 4, 1, 16, 8]\n  \
         op a = attention(q, k, v, causal = true) -> o\n  output o\n}\n",
    );
    assert_eq!(
        statements(&text),
        [
            "o = F.scaled_dot_product_attention(q.reshape(2, 12, 16, 8), k.reshape(2, 4, 16, 8), \
             v.reshape(2, 4, 16, 8), is_causal=True, enable_gqa=True).reshape(2, 4, 3, 16, 8)",
            "return o",
        ]
    );
    assert!(!text.contains("math fallback"));
    // Heads that do not merge as PyTorch's `enable_gqa` maps them (k broadcast over the
    // first head dimension, not the last) keep the 5-D call, said to be approximate.
    let text = emit_text(
        "graph gqa {\n  dtype bf16\n  input q: [2, 4, 3, 16, 8]\n  input k: [2, 1, 3, 16, 8]\n  \
         op a = attention(q, k, k) -> o\n  output o\n}\n",
    );
    assert!(text.contains("o = F.scaled_dot_product_attention(q, k, k)"));
    assert!(text.contains("this rank runs its math fallback"));
}

#[test]
fn names_become_unique_identifiers() {
    // An instance's `a.tmp` and the graph's `a_tmp` sanitise alike (the first declared keeps
    // the name); keywords and the module's own names (`torch`, `F`, `self`) are kept clear
    // of; a weight is kept clear of Module's attributes (`training`).
    let text = emit_text(
        "block blk(N) {\n  input t: [N]\n  op o1 = elementwise.relu(t) -> tmp\n  \
         op o2 = elementwise.exp(tmp) -> b\n  output b\n}\n\
         graph names {\n  input torch: [4]\n  input lambda: [4]\n  input a_tmp: [4]\n  \
         weight training: [4]\n  op a = blk(torch, N = 4) -> ab\n  \
         op c = elementwise.add(ab, lambda, a_tmp) -> F\n  \
         op d = elementwise.mul(F, training) -> self\n  output self\n}\n",
    );
    assert!(
        text.contains("    def forward(self, torch_, lambda_, a_tmp):"),
        "{text}"
    );
    assert!(text.contains("self.w_training = _weight("), "{text}");
    assert_eq!(
        statements(&text),
        [
            "a_tmp_2 = torch.relu(torch_)",
            "ab = torch.exp(a_tmp_2)",
            "del a_tmp_2",
            "F_ = torch.add(torch.add(ab, lambda_), a_tmp)",
            "del ab",
            "self_ = torch.mul(F_, self.w_training)",
            "del F_",
            "return self_",
        ],
        "{text}"
    );
}

#[test]
fn a_small_graph_exactly() {
    let text = emit_text(
        "// A decode step's attention with a KV cache.\ngraph small {\n  param T = 7\n  \
         dtype bf16\n  input x: [1, 64]\n  input pos: i32[1]\n  weight table: [16, 64]\n  \
         weight wqkv: [64, 192]\n  weight cache: [1, 2, T + 1, 32]\n  \
         op emb = gather(table, pos) -> e\n  op h = elementwise.add(x, e) -> he\n  \
         op qkv = matmul(he, wqkv) -> y\n  op split = reshape(y) -> y4: [3, 2, 1, 32]\n  \
         op knew = slice(y4, axis = 0, start = 1, end = 2) -> k1\n  \
         op kr = reshape(k1) -> k: [1, 2, 1, 32]\n  \
         op app = update(cache, k, axis = 2, start = T) -> kall\n  \
         op qr = reshape(y4[0]) -> q: [1, 2, 1, 32]\n  \
         op att = attention(q, kall, kall, causal = true) -> o\n  \
         op f32 = elementwise.cast(o) -> of: f32[1, 2, 1, 32]\n  output of\n}\n",
    );
    insta::assert_snapshot!("small_graph", text);
}

// ---- the command line ------------------------------------------------------------------

#[test]
fn the_module_goes_to_standard_output_or_the_file_named() {
    let o = fgraph(&["emit", "torch", "examples/seed_mlp.fgraph"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("# Generated by `fgraph emit torch` from examples/seed_mlp.fgraph")
    );
    assert!(stdout(&o).contains("y1 = torch.matmul(x, self.w1)"));
    assert_eq!(stderr(&o), "");
    let dir = out_dir("cli");
    let out = dir.join("seed.py");
    let o = fgraph(&[
        "emit",
        "torch",
        "examples/seed_mlp.fgraph",
        "-o",
        out.to_str().expect("utf-8"),
        "--set",
        "M=8",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
    let text = std::fs::read_to_string(&out).expect("written");
    assert!(text.contains("with --set M=8."), "{text}");
    assert!(text.contains("\"fgraph\": \"x\", \"shape\": (8, 4096),"));
    // A directory is not a regular file: refused, nothing written.
    let o = fgraph(&[
        "emit",
        "torch",
        "examples/seed_mlp.fgraph",
        "-o",
        dir.to_str().expect("utf-8"),
    ]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn errors_in_the_file_print_as_check_prints_them() {
    let f = "tests/fixtures/diagnostics/undefined-tensor.fgraph";
    let o = fgraph(&["emit", "torch", f]);
    assert_eq!(code(&o), 1);
    assert_eq!(stdout(&o), "");
    assert_eq!(stderr(&o), stderr(&fgraph(&["check", f])));
    let o = fgraph(&["emit", "torch", "--format", "json", f]);
    assert_eq!(code(&o), 1);
    assert_eq!(
        stdout(&o),
        stdout(&fgraph(&["check", "--format", "json", f]))
    );
}

#[test]
fn warnings_go_to_standard_error_and_the_module_is_written() {
    let f = temp_file_in(
        "emit",
        "warn.fgraph",
        "graph g {\n  input x: [4]\n  input spare: [4]\n  op a = elementwise.relu(x) -> y\n}\n",
    );
    let f = f.to_str().expect("utf-8");
    let o = fgraph(&["emit", "torch", f]);
    assert_eq!(code(&o), 0);
    assert!(stderr(&o).contains("unused-tensor"), "{}", stderr(&o));
    assert!(stdout(&o).contains("y = torch.relu(x)"));
    let o = fgraph(&["emit", "torch", "--format", "json", f]);
    assert_eq!(code(&o), 0);
    assert!(
        stdout(&o).starts_with("# Generated"),
        "JSON diagnostics go to stderr"
    );
    assert_eq!(code(&fgraph(&["emit", "torch", "--deny-warnings", f])), 1);
}

#[test]
fn usage_errors_exit_2() {
    // Unreadable, no graph, several without --graph, an unknown graph, target or param.
    let o = fgraph(&["emit", "torch", "no/such/file.fgraph"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("cannot read"), "{}", stderr(&o));
    let o = fgraph(&["emit", "torch", "std/llama.fgraph"]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("holds no graph to emit"),
        "{}",
        stderr(&o)
    );
    let two = temp_file_in(
        "emit",
        "two.fgraph",
        "graph a {\n  input x: [4]\n  op r = elementwise.relu(x) -> y\n}\n\
         graph b {\n  input x: [4]\n  op r = elementwise.exp(x) -> y\n}\n",
    );
    let two = two.to_str().expect("utf-8");
    let o = fgraph(&["emit", "torch", two]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("choose one with --graph NAME (graphs: a, b)"));
    let o = fgraph(&["emit", "torch", two, "--graph", "b"]);
    assert_eq!(code(&o), 0);
    assert!(stdout(&o).contains("y = torch.exp(x)"));
    assert_eq!(code(&fgraph(&["emit", "torch", two, "--graph", "c"])), 2);
    let o = fgraph(&["emit", "onnx", two]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("unknown target `onnx`; expected one of torch"));
    let o = fgraph(&["emit", "torch", "examples/seed_mlp.fgraph", "--set", "Q=1"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("unknown param `Q`"));
}

#[test]
fn a_large_model_emits_in_linear_time() {
    // Llama-3-8B: thousands of ops; one line per op, and well within a second in release.
    let path = root().join("examples/llama3_8b.fgraph");
    let file = check(&path);
    let g = &file.graphs[0].analysis.as_ref().expect("checked").graph;
    let start = std::time::Instant::now();
    let text = emit_checked(&file, 0);
    let took = start.elapsed();
    assert!(g.ops.len() > 1000);
    assert!(took.as_secs_f64() < 5.0, "{took:?}");
    assert!(text.len() < g.ops.len() * 600 + 200_000);
}

#[test]
fn what_pytorch_cannot_express_is_an_error_naming_the_op() {
    // argmax over two of three axes: no PyTorch call returns that index.
    let f = temp_file_in(
        "emit",
        "argmax.fgraph",
        "graph g {\n  input x: [2, 3, 4]\n  \
         op am = reduction.argmax(x, axis = [0, 1]) -> i: i64[4]\n}\n",
    );
    let o = fgraph(&["emit", "torch", f.to_str().expect("utf-8")]);
    assert_eq!(code(&o), 2);
    assert_eq!(stdout(&o), "");
    assert!(
        stderr(&o).contains("cannot emit torch from")
            && stderr(&o).contains("op `am`: argmax over several axes"),
        "{}",
        stderr(&o)
    );
}
