//! The fusion strategies of issue 13, each on graphs where it must and must not apply:
//! `--policy recompute`, `--horizontal`, the budgets, `--matmul-epilogue` and the
//! `--fuser` presets.

use fgraph::analysis::{Analysis, Options, check_file};
use fgraph::fusion::{Budget, Fuser, Horizontal, MatmulEpilogue, Policy, Reason};

fn analyse(src: &str, opts: &Options) -> Analysis {
    let r = check_file("t.fgraph", src.as_bytes(), opts);
    assert!(
        r.diagnostics.iter().all(|d| !d.is_error()),
        "{:?}",
        r.diagnostics
    );
    r.graphs[0].analysis.clone().expect("analysis")
}

fn with(f: impl FnOnce(&mut Options)) -> Options {
    let mut o = Options::default();
    f(&mut o);
    o
}

/// Groups as op names, with the copies each recomputes after a `+`.
fn groups(a: &Analysis) -> Vec<String> {
    let g = &a.graph;
    a.plan
        .groups
        .iter()
        .map(|k| {
            let mut s: Vec<&str> = k.ops.iter().map(|&o| g.op(o).name.as_str()).collect();
            let copies: Vec<&str> = k
                .recomputed
                .iter()
                .map(|&o| g.op(o).name.as_str())
                .collect();
            if !copies.is_empty() {
                s.push("+");
                s.extend(copies);
            }
            s.join(" ")
        })
        .collect()
}

fn boundaries(a: &Analysis) -> Vec<String> {
    let g = &a.graph;
    a.plan
        .boundaries
        .iter()
        .map(|b| {
            format!(
                "{}→{} {}",
                g.op(b.producer).name,
                g.op(b.consumer).name,
                b.reason
            )
        })
        .collect()
}

const DIAMOND: &str = "graph d {\n  input x: [1024, 1024]\n  op a = elementwise.relu(x) -> t\n  op b = elementwise.gelu(t) -> u\n  op c = elementwise.exp(t) -> v\n  output u, v\n}\n";

#[test]
fn recompute_duplicates_a_cheap_producer_into_each_consumer() {
    let base = analyse(DIAMOND, &Options::default());
    assert_eq!(groups(&base), ["a", "b", "c"]);
    let a = analyse(DIAMOND, &with(|o| o.fusion.policy = Policy::Recompute));
    assert_eq!(groups(&a), ["a b", "c + a"]);
    assert!(a.plan.boundaries.is_empty());
    // Each kernel reads x (4 MiB of f32) and writes its output; t is never written.
    let t = 1024 * 1024 * 4;
    assert_eq!(a.traffic.fused.bytes_read, 2 * t);
    assert_eq!(a.traffic.fused.bytes_written, 2 * t);
    assert_eq!(base.traffic.fused.total, 3 * t + 3 * t);
    // The copy's FLOPs are reported: one relu over t.
    let g = &a.graph;
    assert_eq!(a.plan.recomputed_flops(g), 1024 * 1024);
    assert_eq!(a.plan.recomputes.len(), 1);
    assert_eq!(g.op(a.plan.recomputes[0].consumer).name, "c");
}

#[test]
fn recompute_never_duplicates_matmuls_reductions_or_what_a_matmul_reads() {
    // `t` feeds a matmul: the copy could not join it, so t is written anyway.
    let src = "graph m {\n  dtype f16\n  input x: [64, 64]\n  weight w: [64, 64]\n  op a = elementwise.relu(x) -> t\n  op b = elementwise.gelu(t) -> u\n  op m = matmul(t, w) -> v\n  output u, v\n}\n";
    let a = analyse(src, &with(|o| o.fusion.policy = Policy::Recompute));
    assert!(a.plan.recomputes.is_empty());
    assert_eq!(
        boundaries(&a),
        ["a→b materialized", "a→m matmul-starts-group"]
    );
    // A reduction with two readers is never duplicated.
    let src = "graph r {\n  input x: [64, 64]\n  op s = reduction.sum(x, axis = -1) -> t: [64, 1]\n  op b = elementwise.exp(t) -> u\n  op c = elementwise.neg(t) -> v\n  output u, v\n}\n";
    let a = analyse(src, &with(|o| o.fusion.policy = Policy::Recompute));
    assert!(a.plan.recomputes.is_empty());
    assert!(a.plan.groups.iter().all(|k| k.recomputed.is_empty()));
}

#[test]
fn recompute_keeps_a_matmul_epilogue_rather_than_copying_it() {
    // `h = o + x` is the matmul's epilogue; copying it into two readers would write `o` and
    // read it twice: more traffic than writing `h` once.
    let src = "graph e {\n  dtype f16\n  input x: [256, 256]\n  weight w: [256, 256]\n  op m = matmul(x, w) -> o\n  op h = elementwise.add(o, x) -> hh\n  op b = elementwise.gelu(hh) -> u\n  op c = elementwise.exp(hh) -> v\n  output u, v\n}\n";
    let base = analyse(src, &Options::default());
    let a = analyse(src, &with(|o| o.fusion.policy = Policy::Recompute));
    assert!(a.plan.recomputes.is_empty());
    assert_eq!(groups(&a), groups(&base));
    assert_eq!(a.traffic.fused, base.traffic.fused);
}

#[test]
fn horizontal_merges_independent_readers_of_one_tensor() {
    // RoPE-like: two elementwise kernels reading the same `cos`.
    let src = "graph h {\n  input q: [512, 64]\n  input k: [512, 64]\n  input cos: [512, 64]\n  op rq = elementwise.mul(q, cos) -> qr\n  op rk = elementwise.mul(k, cos) -> kr\n  output qr, kr\n}\n";
    let a = analyse(src, &with(|o| o.fusion.horizontal = Horizontal::Pointwise));
    assert_eq!(groups(&a), ["rq rk"]);
    let h = &a.plan.horizontal[0];
    assert_eq!(h.parts.len(), 2);
    assert_eq!(a.graph.tensor(h.shared[0]).name, "cos");
    let cos = 512 * 64 * 4;
    assert_eq!(h.bytes_saved, cos);
    let base = analyse(src, &Options::default());
    assert_eq!(base.traffic.fused.total - a.traffic.fused.total, cos);
}

#[test]
fn horizontal_never_merges_kernels_with_a_path_between_them() {
    // Both kernels read x, but the second reads the first's output through a matmul.
    let src = "graph p {\n  dtype f16\n  input x: [64, 64]\n  weight w: [64, 64]\n  op a = elementwise.relu(x) -> t\n  op m = matmul(t, w) -> u\n  op c = elementwise.add(u, x) -> y\n}\n";
    let a = analyse(
        src,
        &with(|o| o.fusion.horizontal = Horizontal::GroupedGemm),
    );
    assert!(a.plan.horizontal.is_empty());
    assert_eq!(groups(&a), ["a", "m c"]);
}

#[test]
fn matmuls_merge_horizontally_only_as_a_grouped_gemm() {
    let src = "graph qkv {\n  dtype f16\n  input x: [512, 256]\n  weight wq: [256, 256]\n  weight wk: [256, 256]\n  weight wv: [256, 256]\n  op q = matmul(x, wq) -> tq\n  op k = matmul(x, wk) -> tk\n  op v = matmul(x, wv) -> tv\n  output tq, tk, tv\n}\n";
    let a = analyse(src, &with(|o| o.fusion.horizontal = Horizontal::Pointwise));
    assert_eq!(groups(&a), ["q", "k", "v"]);
    let a = analyse(
        src,
        &with(|o| o.fusion.horizontal = Horizontal::GroupedGemm),
    );
    assert_eq!(groups(&a), ["q k v"]);
    assert_eq!(a.plan.horizontal[0].parts.len(), 3);
    // x is read once instead of three times.
    assert_eq!(a.plan.horizontal[0].bytes_saved, 2 * 512 * 256 * 2);
}

#[test]
fn budgets_refuse_merges_and_name_the_budget() {
    let mut src = String::from("graph chain {\n  input t0: [8, 8]\n");
    for i in 1..=10 {
        src += &format!("  op e{i} = elementwise.relu(t{}) -> t{i}\n", i - 1);
    }
    src += "}\n";
    let a = analyse(&src, &with(|o| o.fusion.budgets.ops = Some(4)));
    assert_eq!(groups(&a), ["e1 e2 e3 e4", "e5 e6 e7 e8", "e9 e10"]);
    let b = &a.plan.boundaries[0];
    assert_eq!(b.reason, Reason::BudgetExceeded);
    let hit = b.budget.expect("budget");
    assert_eq!((hit.budget, hit.needed, hit.limit), (Budget::Ops, 5, 4));
    // Distinct tensors: a sum of many inputs.
    let mut src = String::from("graph wide {\n");
    for i in 0..6 {
        src += &format!("  input x{i}: [8, 8]\n");
    }
    src += "  op a0 = elementwise.add(x0, x1) -> s0\n";
    for i in 1..5 {
        src += &format!(
            "  op a{i} = elementwise.add(s{}, x{}) -> s{i}\n",
            i - 1,
            i + 1
        );
    }
    src += "}\n";
    let a = analyse(&src, &with(|o| o.fusion.budgets.tensors = Some(4)));
    let hit = a.plan.boundaries[0].budget.expect("budget");
    assert_eq!(hit.budget, Budget::Tensors);
    assert!(hit.needed > 4);
    let unlimited = analyse(&src, &Options::default());
    assert_eq!(unlimited.plan.groups.len(), 1);
    // Registers: the same chain fits a generous budget and not a tight one.
    let a = analyse(&src, &with(|o| o.fusion.budgets.registers = Some(24)));
    let hit = a.plan.boundaries[0].budget.expect("budget");
    assert_eq!(hit.budget, Budget::Registers);
    let a = analyse(&src, &with(|o| o.fusion.budgets.registers = Some(255)));
    assert_eq!(a.plan.groups.len(), 1);
}

#[test]
fn matmul_epilogue_bias_keeps_only_the_bias_add() {
    let src = "graph mlp {\n  dtype f16\n  input x: [256, 128]\n  weight w: [128, 128]\n  weight b: [128]\n  op mm = matmul(x, w) -> y\n  op bias = elementwise.add(y, b) -> z\n  op act = elementwise.gelu(z) -> out\n}\n";
    let a = analyse(src, &Options::default());
    assert_eq!(groups(&a), ["mm bias act"]);
    let a = analyse(
        src,
        &with(|o| o.fusion.matmul_epilogue = MatmulEpilogue::Bias),
    );
    assert_eq!(groups(&a), ["mm bias", "act"]);
    assert_eq!(boundaries(&a), ["bias→act matmul-epilogue"]);
    let a = analyse(
        src,
        &with(|o| o.fusion.matmul_epilogue = MatmulEpilogue::None),
    );
    assert_eq!(groups(&a), ["mm", "bias act"]);
    // A residual add (a full tensor) is no bias.
    let src = "graph res {\n  dtype f16\n  input x: [256, 128]\n  weight w: [128, 128]\n  op mm = matmul(x, w) -> y\n  op r = elementwise.add(y, x) -> z\n}\n";
    let a = analyse(
        src,
        &with(|o| o.fusion.matmul_epilogue = MatmulEpilogue::Bias),
    );
    assert_eq!(groups(&a), ["mm", "r"]);
}

#[test]
fn presets_bundle_their_choices() {
    assert_eq!(Fuser::Seed.options(), Default::default());
    let i = Fuser::Inductor.options();
    assert_eq!(i.policy, Policy::Inline);
    assert!(i.reduction_epilogue);
    assert_eq!(i.matmul_epilogue, MatmulEpilogue::Addmm);
    assert_eq!(i.horizontal, Horizontal::Inductor);
    assert_eq!(Fuser::Xla.options().policy, Policy::Recompute);
    for &f in Fuser::ALL {
        assert_eq!(Fuser::of(&f.options()), Some(f));
    }
    // RMSNorm: one kernel under Inductor (reduction epilogue), two under the seed rules.
    let src = "graph rms {\n  input x: [128, 1024]\n  weight g: [1024]\n  op sq = elementwise.mul(x, x) -> x2\n  op ms = reduction.mean(x2, axis = -1) -> m: [128, 1]\n  op r = elementwise.rsqrt(m) -> rs\n  op n = elementwise.mul(x, rs) -> xn\n  op s = elementwise.mul(xn, g) -> y\n}\n";
    let seed = analyse(src, &Options::default());
    let o = Options {
        fusion: Fuser::Inductor.options(),
        ..Options::default()
    };
    let ind = analyse(src, &o);
    assert_eq!(groups(&ind), ["sq ms r n s"]);
    assert!(seed.plan.groups.len() > 1);
    assert!(ind.traffic.fused.total < seed.traffic.fused.total);
}

fn fgraph(args: &[&str], dir: &std::path::Path) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_fgraph"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run fgraph");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("fgraph-strategies-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    std::fs::write(dir.join("d.fgraph"), DIAMOND).expect("write");
    dir
}

#[test]
fn cli_fuser_compare_and_config() {
    let dir = scratch("cli");
    let (code, out, _) = fgraph(&["analyze", "d.fgraph", "--fuser", "xla"], &dir);
    assert_eq!(code, 0);
    assert!(out.contains("fusion as `--fuser xla`"), "{out}");
    // The copy of `a` and its home kernel both read x: horizontal fusion makes them one.
    assert!(out.contains("in 1 kernel"), "{out}");
    assert!(out.contains("horizontal launches"), "{out}");
    let (_, out, _) = fgraph(&["analyze", "d.fgraph", "--policy", "recompute"], &dir);
    assert!(out.contains("c  (recomputes a)"), "{out}");
    // --compare: one row per strategy, the current one starred.
    let (code, out, _) = fgraph(
        &["analyze", "d.fgraph", "--compare", "--policy", "recompute"],
        &dir,
    );
    assert_eq!(code, 0);
    for s in [
        "--policy boundary",
        "--policy store",
        "--fuser inductor",
        "--fuser xla",
        "--fuser tvm",
    ] {
        assert!(out.contains(s), "{s} in {out}");
    }
    assert!(out.contains("* --policy recompute"), "{out}");
    let (code, out, _) = fgraph(
        &["analyze", "d.fgraph", "--compare", "--format", "json"],
        &dir,
    );
    assert_eq!(code, 0);
    let j: serde_json::Value = serde_json::from_str(&out).expect("json");
    let rows = j["compare"].as_array().expect("compare rows");
    assert_eq!(rows.len(), fgraph::report::compare::strategies().len());
    let row = |s: &str| rows.iter().find(|r| r["strategy"] == s).expect(s).clone();
    assert_eq!(row("--policy boundary")["kernels"], 3);
    assert_eq!(row("--policy recompute")["kernels"], 2);
    assert_eq!(row("--policy boundary")["current"], true);
    assert!(
        j.get("fusion").is_none(),
        "no fusion object under the defaults"
    );
    // The JSON `fusion` object of a preset.
    let (_, out, _) = fgraph(
        &[
            "analyze",
            "d.fgraph",
            "--fuser",
            "xla",
            "--horizontal",
            "off",
            "--format",
            "json",
        ],
        &dir,
    );
    let j: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(j["fusion"]["policy"], "recompute");
    assert_eq!(
        j["fusion"]["fuser"],
        serde_json::Value::Null,
        "xla with horizontal off is no preset"
    );
    assert_eq!(j["fusion"]["recomputes"][0]["consumer"], "c");
    assert_eq!(j["groups"][1]["recomputed"], serde_json::json!(["a"]));
    assert!(j["groups"][0].get("recomputed").is_none());
    // fgraph.toml chooses the preset; a flag changes one choice of it.
    std::fs::write(dir.join("fgraph.toml"), "fuser = \"xla\"\n").expect("write");
    let (_, out, _) = fgraph(&["analyze", "d.fgraph"], &dir);
    assert!(out.contains("fusion as `--fuser xla`"), "{out}");
    let (_, out, _) = fgraph(
        &[
            "analyze",
            "d.fgraph",
            "--policy",
            "boundary",
            "--horizontal",
            "off",
        ],
        &dir,
    );
    assert!(out.contains("3 kernels"), "{out}");
    std::fs::write(dir.join("fgraph.toml"), "fuser = \"xl\"\n").expect("write");
    let (code, _, err) = fgraph(&["check", "d.fgraph"], &dir);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("unknown fuser `xl`"), "{err}");
    // check takes the fusion flags too; a budget of 0 is a usage error.
    std::fs::remove_file(dir.join("fgraph.toml")).expect("rm");
    let (code, _, _) = fgraph(&["check", "d.fgraph", "--fuser", "inductor"], &dir);
    assert_eq!(code, 0);
    let (code, _, _) = fgraph(&["analyze", "d.fgraph", "--max-kernel-ops", "0"], &dir);
    assert_eq!(code, 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn diamonds_fuse_a_fork_that_reconverges_through_cheap_ops() {
    let diamond = "graph d {\n  input x: [1024, 1024]\n  op a = elementwise.mul(x, x) -> t\n  op b = elementwise.exp(t) -> u\n  op c = elementwise.add(t, x) -> v\n  op d = elementwise.mul(u, v) -> y\n}\n";
    let tvm = with(|o| o.fusion = Fuser::Tvm.options());
    let a = analyse(diamond, &tvm);
    assert_eq!(groups(&a), ["a b c d"]);
    // t is never written: x read once, y written once.
    assert_eq!(a.traffic.fused.total, 2 * 1024 * 1024 * 4);
    assert_eq!(
        groups(&analyse(diamond, &Options::default())),
        ["a", "b c d"]
    );
    // A fork whose branches end apart (two outputs) is no diamond.
    let apart = "graph p {\n  input x: [64, 64]\n  op a = elementwise.relu(x) -> t\n  op b = elementwise.exp(t) -> u\n  op c = elementwise.neg(t) -> v\n  output u, v\n}\n";
    assert_eq!(groups(&analyse(apart, &tvm)), ["a", "b", "c"]);
    // A reduction inside the diamond is not injective: no fusion through the fork.
    let red = "graph r {\n  input x: [64, 64]\n  op a = elementwise.relu(x) -> t\n  op s = reduction.sum(t, axis = -1) -> m: [64, 1]\n  op c = elementwise.sub(t, m) -> y\n}\n";
    let a = analyse(red, &tvm);
    assert!(
        a.plan
            .boundaries
            .iter()
            .any(|b| b.reason == Reason::Materialized),
        "{:?}",
        boundaries(&a)
    );
    // A matmul fork may take an elementwise diamond as its epilogue.
    let mm = "graph m {\n  dtype f16\n  input x: [64, 64]\n  weight w: [64, 64]\n  op mm = matmul(x, w) -> t\n  op b = elementwise.gelu(t) -> u\n  op c = elementwise.mul(t, u) -> y\n}\n";
    assert_eq!(groups(&analyse(mm, &tvm)), ["mm b c"]);
    assert_eq!(groups(&analyse(mm, &Options::default())), ["mm", "b c"]);
}

#[test]
fn inline_and_addmm_follow_inductor() {
    // GPT-2's tail: `o_bias` and `res1` are inlined into both readers of `res1` (the
    // LayerNorm and the last residual add) and never written.
    let src = "graph t {\n  dtype f16\n  input x: [128, 256]\n  input h: [128, 256]\n  weight b: [256]\n  weight g: [256]\n  op ob = elementwise.add(h, b) -> o\n  op res1 = elementwise.add(o, x) -> r\n  op mean = reduction.mean(r, axis = -1) -> m: [128, 1]\n  op center = elementwise.sub(r, m) -> c\n  op scale = elementwise.mul(c, g) -> y\n  op res2 = elementwise.add(r, y) -> z\n  output z\n}\n";
    let o = Options {
        fusion: Fuser::Inductor.options(),
        ..Options::default()
    };
    let a = analyse(src, &o);
    assert_eq!(
        groups(&a),
        ["ob res1 mean center scale res2"],
        "one kernel: res2 reads y"
    );
    // Without reduction epilogues the LayerNorm's tail is its own kernel, and `res1` (two
    // readers, two tensors read) is computed again there rather than read back.
    let a = analyse(src, &with(|o| o.fusion.policy = Policy::Inline));
    assert_eq!(groups(&a), ["ob res1 mean", "center scale res2 + ob res1"]);
    assert!(a.traffic.fused.total < analyse(src, &Options::default()).traffic.fused.total);
    // addmm: the add joins a 2-D matmul unless every reader of the sum is elementwise.
    let mm = |reader: &str| {
        format!(
            "graph m {{\n  dtype f16\n  input x: [64, 64]\n  weight w: [64, 64]\n  weight w2: [64, 64]\n  weight b: [64]\n  op mm = matmul(x, w) -> y\n  op bias = elementwise.add(y, b) -> z\n  {reader}\n}}\n"
        )
    };
    let addmm = with(|o| o.fusion.matmul_epilogue = MatmulEpilogue::Addmm);
    let a = analyse(&mm("op act = elementwise.relu(z) -> out"), &addmm);
    assert_eq!(groups(&a), ["mm", "bias act"]);
    let a = analyse(&mm("op next = matmul(z, w2) -> out"), &addmm);
    assert_eq!(groups(&a), ["mm bias", "next"]);
    // A batched matmul is a bmm: no addmm.
    let bmm = "graph b {\n  dtype f16\n  input x: [4, 64, 64]\n  input y: [4, 64, 64]\n  input r: [4, 64, 64]\n  op mm = matmul(x, y) -> s\n  op add = elementwise.add(s, r) -> t\n  output t\n}\n";
    assert_eq!(groups(&analyse(bmm, &addmm)), ["mm", "add"]);
}

#[test]
fn the_picture_labels_a_recomputed_read() {
    let dir = scratch("dot");
    let (code, _, err) = fgraph(
        &[
            "analyze",
            "d.fgraph",
            "--policy",
            "recompute",
            "--dot",
            "p.dot",
        ],
        &dir,
    );
    assert_eq!(code, 0, "{err}");
    let dot = std::fs::read_to_string(dir.join("p.dot")).expect("dot");
    assert!(
        dot.contains("\"t:t\" -> \"op:c\" [label=\"recomputed\""),
        "{dot}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_storing_strategy_refuses_a_merge_that_would_create_a_cycle() {
    // a → m (a matmul, its own kernel) → c, and a → c: one kernel for a and c would feed m
    // and wait for it. `a` is not inlined (a matmul reads it), so it is stored.
    let src = "graph c {\n  input x: [64, 64]\n  weight w: [64, 64]\n  op a = elementwise.relu(x) -> t\n  op m = matmul(t, w) -> u\n  op c = elementwise.add(t, u) -> y\n}\n";
    for opts in [
        with(|o| o.fusion.policy = Policy::Store),
        with(|o| o.fusion.policy = Policy::Inline),
        with(|o| o.fusion = Fuser::Inductor.options()),
    ] {
        let a = analyse(src, &opts);
        assert_eq!(groups(&a), ["a", "m c"]);
        assert!(
            boundaries(&a).contains(&"a→c would-create-cycle".to_string()),
            "{:?}",
            boundaries(&a)
        );
    }
    // Diamonds: the fork `a` reconverges at `c` only through the matmul, which is not
    // injective: no diamond, a plain boundary.
    let a = analyse(src, &with(|o| o.fusion.diamonds = true));
    assert_eq!(
        boundaries(&a),
        ["a→m matmul-starts-group", "a→c materialized"]
    );
}

/// The strategy table (`fusion::strategy`) against the CLI, the JSON report and the tree:
/// every row's flag is one `analyze` takes, its JSON path is in the report of a plan with
/// every strategy on, and its pass files exist.
#[test]
fn the_strategy_table_matches_the_cli_the_json_and_the_tree() {
    use fgraph::fusion::strategy::STRATEGIES;
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let run = |args: &[&str]| {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_fgraph"))
            .args(args)
            .current_dir(&root)
            .output()
            .expect("run fgraph");
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let help = run(&["analyze", "--help"]);
    let json = run(&[
        "analyze",
        "--format",
        "json",
        "--policy",
        "store",
        "--fuse-diamonds",
        "--reduction-epilogue",
        "--flash-attention",
        "--matmul-epilogue",
        "bias",
        "--horizontal",
        "--max-kernel-ops",
        "8",
        "examples/transformer_block.fgraph",
    ]);
    let report: serde_json::Value = serde_json::from_str(&json).expect("JSON report");
    for s in STRATEGIES {
        assert!(
            help.contains(&format!("{} ", s.flag)) || help.contains(&format!("{}\n", s.flag)),
            "{}",
            s.flag
        );
        let mut v = &report;
        for key in s.json_key.split('.') {
            v = v
                .get(key)
                .unwrap_or_else(|| panic!("no `{}` in the report", s.json_key));
        }
        for file in s.pass.split(", ") {
            assert!(root.join("src/fusion").join(file).is_file(), "{file}");
        }
        for c in s.changes {
            assert!(c.flag.starts_with(s.flag), "{}", c.flag);
        }
    }
}
