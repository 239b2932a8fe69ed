//! A matmul's bias (`matmul(x, w, b)`, `nn.Linear`): its shape and dtype rules, its FLOPs
//! and bytes by hand, its fusion, the kernels `--runtime eager` and `compile` run for it (as
//! PyTorch ran `F.linear` on a Hopper GPU: validation/gpu/models/hf_real/data/linear_h200),
//! `fgraph emit torch`'s call, and the parallel plan's refusal.

mod common;

use fgraph::cost::{Hardware, LaunchMode};
use fgraph::fusion::MatmulEpilogue;
use fgraph::runtime::{Runtime, What, estimate};
use fgraph::{Analysis, Code, Options, check_file};

fn report(src: &str, opts: &Options) -> fgraph::FileReport {
    check_file("t.fgraph", src.as_bytes(), opts)
}

fn analysis_with(src: &str, opts: &Options) -> Analysis {
    let r = report(src, opts);
    assert!(r.diagnostics.is_empty(), "{src}\n{:?}", r.diagnostics);
    r.graphs[0].analysis.clone().expect("analysis")
}

fn analysis(src: &str) -> Analysis {
    analysis_with(src, &Options::default())
}

fn diagnostics(src: &str) -> Vec<(Code, String)> {
    report(src, &Options::default())
        .diagnostics
        .iter()
        .map(|d| (d.code, d.message.clone()))
        .collect()
}

/// `x` of `x_ty` times `w` of `w_ty` plus `b` of `b_ty`, then a GELU.
fn linear(x_ty: &str, w_ty: &str, b_ty: &str) -> String {
    format!(
        "graph g {{\n  dtype f16\n  input x: {x_ty}\n  weight w: {w_ty}\n  weight b: {b_ty}\n  \
         op q = matmul(x, w, b) -> y\n  op act = elementwise.gelu(y) -> out\n  output out\n}}\n"
    )
}

fn h100() -> Hardware {
    Hardware::preset("h100").expect("h100")
}

#[test]
fn flops_and_bytes_by_hand() {
    let a = analysis(&linear("[2, 512, 896]", "[896, 128]", "[128]"));
    let q = a.graph.ops.iter().position(|o| o.name == "q").expect("q");
    let out = a.graph.tensor(a.graph.ops[q].output);
    assert_eq!(out.shape, [2, 512, 128]);
    // (2·K + 1) FLOPs per output element: the product and the bias's add.
    let c = fgraph::cost::estimate(&a, &h100(), LaunchMode::Graph).expect("cost");
    assert_eq!(
        c.unfused.flops,
        2 * 512 * 128 * (2 * 896 + 1) + 2 * 512 * 128 * 8
    );
    // The kernel of `q` reads x, w and the bias once: 1,835,008 + 229,376 + 256 bytes.
    let t = &a.traffic.groups[a.plan.group_of[q]];
    assert_eq!(t.bytes_read, 2 * 512 * 896 * 2 + 896 * 128 * 2 + 128 * 2);
}

#[test]
fn the_bias_is_one_value_per_column_of_the_operands_dtype() {
    let d = diagnostics(&linear("[4, 64]", "[64, 32]", "[33]"));
    assert!(
        d.iter()
            .any(|(c, m)| *c == Code::ShapeMismatch && m.contains("must be [32]")),
        "{d:?}"
    );
    // A batched weight: a bias there is an `add` after the product.
    let d = diagnostics(&linear("[2, 4, 64]", "[2, 64, 32]", "[32]"));
    assert!(
        d.iter()
            .any(|(c, m)| *c == Code::ShapeMismatch && m.contains("over a 2-D weight")),
        "{d:?}"
    );
    let d = diagnostics(&linear("[4, 64]", "[64, 32]", "f32[32]"));
    assert!(
        d.iter()
            .any(|(c, m)| *c == Code::InvalidDtype && m.contains("is f32, not f16")),
        "{d:?}"
    );
    // A fourth tensor is an arity error.
    let src = "graph g {\n  dtype f16\n  input x: [4, 64]\n  weight w: [64, 32]\n  weight b: [32]\n  op q = matmul(x, w, b, b) -> y\n}\n";
    assert!(diagnostics(src).iter().any(|(c, _)| *c == Code::Arity));
    // The weight read transposed, as PyTorch stores it ([N, K]).
    analysis(
        "graph g {\n  dtype f16\n  input x: [4, 64]\n  weight w: [32, 64]\n  weight b: [32]\n  op q = matmul(x, w.T, b) -> y\n  output y\n}\n",
    );
}

#[test]
fn a_biased_matmul_takes_no_second_add() {
    let src = "graph g {\n  dtype f16\n  input x: [256, 128]\n  weight w: [128, 128]\n  weight b: [128]\n  op mm = matmul(x, w, b) -> y\n  op r = elementwise.add(y, b) -> z\n  op act = elementwise.gelu(z) -> out\n  output out\n}\n";
    // An elementwise epilogue joins as before.
    assert_eq!(common::groups(&analysis(src)), ["mm r act"]);
    for epilogue in [MatmulEpilogue::Bias, MatmulEpilogue::Addmm] {
        let mut o = Options::default();
        o.fusion.matmul_epilogue = epilogue;
        assert_eq!(
            common::groups(&analysis_with(src, &o))[0],
            "mm",
            "{epilogue:?}"
        );
    }
}

/// The kernels `runtime` runs for `src`: (what, ops, reason) each.
fn kernels(src: &str, runtime: Runtime) -> Vec<String> {
    let a = analysis(src);
    let e = estimate(&a, &h100(), LaunchMode::Graph, runtime).expect("estimate");
    e.kernels
        .iter()
        .map(|k| {
            let ops: Vec<&str> = k.ops.iter().map(|&o| a.graph.op(o).name.as_str()).collect();
            match &k.what {
                What::Copy { reason, .. } => format!("copy {}", reason.as_str()),
                w => format!("{} {}", w.as_str(), ops.join(" ")),
            }
        })
        .collect()
}

#[test]
fn eager_runs_the_kernels_f_linear_runs() {
    // A contiguous input of any rank: one GEMM with the bias in its epilogue, then the GELU.
    for x in [
        "[4, 896]",
        "[1, 1, 896]",
        "[2, 512, 896]",
        "[2, 4, 64, 896]",
    ] {
        assert_eq!(
            kernels(&linear(x, "[896, 256]", "[256]"), Runtime::Eager),
            ["kernel q", "kernel act"],
            "{x}"
        );
    }
    // A strided input of rank 3: `matmul` then `add_` (two kernels of `q`).
    let strided = "graph g {\n  dtype f16\n  input x: [2, 896, 512]\n  weight w: [896, 896]\n  weight b: [896]\n  op t = permute(x, dims = [0, 2, 1]) -> xt\n  op q = matmul(xt, w, b) -> y\n  output y\n}\n";
    assert_eq!(kernels(strided, Runtime::Eager), ["kernel q", "kernel q"]);
    // N of 1 (and K of 1): the bias copied to every row, then the GEMM.
    assert_eq!(
        kernels(&linear("[64, 896]", "[896, 1]", "[1]"), Runtime::Eager),
        ["copy bias", "kernel q", "kernel act"]
    );
    assert_eq!(
        kernels(&linear("[64, 1]", "[1, 256]", "[256]"), Runtime::Eager),
        ["copy bias", "kernel q", "kernel act"]
    );
    // The same product with the bias written as an add: two kernels before the GELU.
    let add = "graph g {\n  dtype f16\n  input x: [4, 896]\n  weight w: [896, 256]\n  weight b: [256]\n  op q = matmul(x, w) -> y0\n  op bias = elementwise.add(y0, b) -> y\n  op act = elementwise.gelu(y) -> out\n  output out\n}\n";
    assert_eq!(kernels(add, Runtime::Eager).len(), 3);
}

#[test]
fn compile_runs_one_extern_gemm_with_its_bias() {
    assert_eq!(
        kernels(
            &linear("[2, 512, 896]", "[896, 256]", "[256]"),
            Runtime::Compile
        ),
        ["kernel q", "kernel act"]
    );
}

#[test]
fn a_biased_product_is_no_attention_product() {
    // matmul(x, w, b) → softmax → matmul: a classifier's logits, not Q·Kᵀ.
    let src = "graph g {\n  dtype f16\n  input x: [64, 128]\n  weight w: [128, 64]\n  weight b: [64]\n  input v: [64, 32]\n  op s = matmul(x, w, b) -> scores\n  op p = reduction.softmax(scores, axis = -1) -> probs\n  op o = matmul(probs, v) -> out\n  output out\n}\n";
    let mut o = Options::default();
    o.fusion.flash_attention = true;
    let a = analysis_with(src, &o);
    assert_eq!(a.plan.groups.len(), 3);
    // Without the bias the three ops are one FlashAttention kernel.
    let plain = src
        .replace("matmul(x, w, b)", "matmul(x, w)")
        .replace("  weight b: [64]\n", "");
    let a = analysis_with(&plain, &o);
    assert_eq!(a.plan.groups.len(), 1);
}

#[test]
fn emit_torch_writes_f_linear() {
    let py = common::emit_torch(&linear("[2, 512, 896]", "[896, 256]", "[256]"));
    assert!(
        py.contains("y = torch.nn.functional.linear(x, self.w.mT, self.b)"),
        "{py}"
    );
}

#[test]
fn a_parallel_plan_refuses_to_divide_a_biased_product() {
    let src = "graph g {\n  dtype bf16\n  parallel tensor tp = 2 {\n    column w\n  }\n  input x: [16, 64]\n  weight w: [64, 256]\n  weight b: [256]\n  op q = matmul(x, w, b) -> y\n  output y\n}\n";
    let d = diagnostics(src);
    assert!(
        d.iter()
            .any(|(_, m)| m.contains("adds a bias of its own to a divided product")),
        "{d:?}"
    );
}

/// The probe's cases (`validation/gpu/models/hf_real/linear_probe.py`): the kernels PyTorch
/// 2.11 ran for `F.linear(x, w, b)` on a Hopper GPU, eager and compiled, one for one with
/// the runtimes' counts. Inductor's add of a strided input's bias (a Triton kernel of its
/// own when nothing pointwise reads the product) is the one count `compile` does not follow.
#[test]
fn the_runtimes_launch_the_probes_kernels() {
    let rows = common::csv_rows("validation/gpu/models/hf_real/data/linear_h200/linear_probe.csv");
    // label → (the file's x, its permute if strided, K, N, dtype)
    type Case = (
        &'static str,
        &'static str,
        Option<&'static str>,
        u64,
        u64,
        &'static str,
    );
    let cases: [Case; 11] = [
        ("2d_m1", "[1, 1536]", None, 1536, 1536, "f16"),
        ("2d_m4", "[4, 1536]", None, 1536, 256, "f16"),
        ("3d_b1_s1", "[1, 1, 1536]", None, 1536, 1536, "f16"),
        ("3d_b4_s1", "[4, 1, 1536]", None, 1536, 256, "f16"),
        ("3d_b2_s512", "[2, 512, 896]", None, 896, 896, "f16"),
        ("4d_contig", "[2, 4, 64, 896]", None, 896, 896, "f16"),
        (
            "3d_strided",
            "[2, 896, 512]",
            Some("[0, 2, 1]"),
            896,
            896,
            "f16",
        ),
        ("2d_k1", "[64, 1]", None, 1, 256, "f16"),
        ("2d_n1", "[64, 896]", None, 896, 1, "f16"),
        ("f32_3d", "[2, 128, 512]", None, 512, 512, "f32"),
        ("bf16_3d_b8_s1", "[8, 1, 896]", None, 896, 128, "bf16"),
    ];
    let mut checked = 0;
    for (label, x, perm, k, n, dt) in cases {
        let input = match perm {
            Some(dims) => format!("  op t = permute(x0, dims = {dims}) -> x\n"),
            None => String::new(),
        };
        let x_name = if perm.is_some() { "x0" } else { "x" };
        let src = format!(
            "graph g {{\n  dtype {dt}\n  input {x_name}: {x}\n  weight w: [{k}, {n}]\n  \
             weight b: [{n}]\n{input}  op q = matmul(x, w, b) -> y\n  output y\n}}\n"
        );
        for (mode, runtime) in [("eager", Runtime::Eager), ("compile", Runtime::Compile)] {
            if label == "3d_strided" && mode == "compile" {
                continue;
            }
            let measured = rows
                .iter()
                .filter(|r| r["case"] == label && r["mode"] == mode)
                .count();
            assert_eq!(
                kernels(&src, runtime).len(),
                measured,
                "{label} {mode}: {:?}",
                kernels(&src, runtime)
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 21);
}
