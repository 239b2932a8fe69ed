//! The data-movement ops, scalar constants and float/list attributes (issue 10, item 3):
//! shape rules, bad cases, bytes worked out by hand, fusion, FLOPs, the report and `fmt`.

use fgraph::cost::{FlopSource, op_flops};
use fgraph::graph::AttrValue;
use fgraph::{Analysis, Code, Options, check_file};

fn analysis(src: &str) -> Analysis {
    let report = check_file("t.fgraph", src.as_bytes(), &Options::default());
    assert!(
        report.diagnostics.is_empty(),
        "{src}\n{:?}",
        report.diagnostics
    );
    report.graphs[0].analysis.clone().expect("analysis")
}

fn codes(src: &str) -> Vec<Code> {
    let report = check_file("t.fgraph", src.as_bytes(), &Options::default());
    report.diagnostics.iter().map(|d| d.code).collect()
}

fn messages(src: &str) -> Vec<String> {
    let report = check_file("t.fgraph", src.as_bytes(), &Options::default());
    report
        .diagnostics
        .iter()
        .map(|d| d.message.clone())
        .collect()
}

fn shape_of(a: &Analysis, name: &str) -> Vec<u64> {
    let g = &a.graph;
    let t = g
        .tensors
        .iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("no tensor {name}"));
    t.shape.to_vec()
}

fn graph(body: &str) -> String {
    format!("graph g {{\n{body}\n}}\n")
}

/// Groups as op names, in order.
fn groups(a: &Analysis) -> Vec<Vec<String>> {
    a.plan
        .groups
        .iter()
        .map(|grp| {
            grp.ops
                .iter()
                .map(|&o| a.graph.op(o).name.to_string())
                .collect()
        })
        .collect()
}

/// (bytes read, bytes written) of each group.
fn group_bytes(a: &Analysis) -> Vec<(u64, u64)> {
    a.traffic
        .groups
        .iter()
        .map(|t| (t.bytes_read, t.bytes_written))
        .collect()
}

// ---- scalar constants and attributes ------------------------------------------------------

#[test]
fn scalar_constants_are_not_tensors() {
    // x: 4·8 f32 = 128 B. The constant reads nothing and makes no edge.
    let a = analysis(&graph(
        "  input x: [4, 8]\n  op s = elementwise.mul(x, 0.125) -> y\n  op t = elementwise.add(2, y, -1.5e0) -> z",
    ));
    let g = &a.graph;
    assert_eq!(shape_of(&a, "y"), vec![4, 8]);
    assert_eq!(g.ops[0].inputs.len(), 1);
    assert_eq!(g.written_inputs(&g.ops[0]), ["x", "0.125"]);
    assert_eq!(g.written_inputs(&g.ops[1]), ["2", "y", "-1.5e0"]);
    assert_eq!(
        (
            a.traffic.unfused.bytes_read,
            a.traffic.unfused.bytes_written
        ),
        (256, 256)
    );
    assert_eq!(
        (a.traffic.fused.bytes_read, a.traffic.fused.bytes_written),
        (128, 128)
    );
    assert_eq!(groups(&a), [["s", "t"]]);
}

#[test]
fn scalar_constants_show_as_written_in_json() {
    let src = graph("  input x: [4, 8]\n  op s = elementwise.mul(x, 0.125) -> y");
    let dir = std::env::temp_dir().join(format!("fgraph-ops-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("s.fgraph");
    std::fs::write(&path, &src).expect("write");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_fgraph"))
        .args(["analyze", "--format", "json"])
        .arg(&path)
        .output()
        .expect("run");
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(v["ops"][0]["inputs"], serde_json::json!(["x", "0.125"]));
    // A graph with errors lists its constants too.
    std::fs::write(&path, graph("  op s = elementwise.mul(nope, 1e-5) -> y")).expect("write");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_fgraph"))
        .args(["analyze", "--format", "json"])
        .arg(&path)
        .output()
        .expect("run");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(v["ops"][0]["inputs"], serde_json::json!(["nope", "1e-5"]));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_constant_is_no_tensor_for_arity() {
    assert_eq!(
        codes(&graph("  op s = elementwise.add(1, 2) -> y")),
        [Code::Arity]
    );
    // Only elementwise ops take constants.
    let src = graph("  input x: [4, 8]\n  input w: [8, 8]\n  op m = matmul(x, w, 2) -> y");
    assert_eq!(codes(&src), [Code::Arity]);
    assert!(messages(&src)[0].contains("takes no scalar constant"));
}

#[test]
fn float_and_list_attributes_are_kept() {
    let a = analysis(&graph(
        "  input x: [4, 8]\n  op n = reduction.rmsnorm(x, eps = 1e-5, axis = -1) -> y: [4, 8]\n  op p = permute(y, dims = [1, 0]) -> z",
    ));
    let n = &a.graph.ops[0];
    assert_eq!(n.int_attr("axis"), Some(-1));
    let extra = n.extra.as_ref().expect("float attribute");
    assert_eq!(
        extra.attrs,
        [(
            "eps".into(),
            AttrValue::Float {
                value: 1e-5,
                text: "1e-5".into()
            }
        )]
    );
    assert_eq!(a.graph.ops[1].list_attr("dims"), Some(&[1, 0][..]));
    // An op without the new forms carries nothing extra.
    let plain = analysis(&graph("  input x: [4]\n  op r = elementwise.relu(x) -> y"));
    assert!(plain.graph.ops[0].extra.is_none());
}

#[test]
fn an_attribute_given_twice_in_any_form_is_a_duplicate() {
    let src = graph("  input x: [4, 8]\n  op s = slice(x, axis = 1, axis = 0.5, end = 2) -> y");
    assert!(codes(&src).contains(&Code::DuplicateDefinition));
}

// ---- shapes -------------------------------------------------------------------------------

#[test]
fn slice_shapes() {
    let a = analysis(&graph(
        "  input x: [2, 8, 128]\n  op a = slice(x, axis = -1, start = 0, end = 64) -> x1\n  op b = slice(x, axis = 1, start = 1, end = 8, step = 3) -> x2: [2, 3, 128]\n  op c = slice(x, axis = 0, start = 1) -> x3\n  output x1, x2, x3",
    ));
    assert_eq!(shape_of(&a, "x1"), [2, 8, 64]);
    // ceil((8 - 1) / 3) = 3
    assert_eq!(shape_of(&a, "x2"), [2, 3, 128]);
    assert_eq!(shape_of(&a, "x3"), [1, 8, 128]);
}

#[test]
fn slice_bad_cases() {
    let one = |args: &str| {
        codes(&graph(&format!(
            "  input x: [2, 8]\n  op s = slice(x{args}) -> y"
        )))
    };
    assert_eq!(one(", axis = 2, end = 1"), [Code::BadAttribute]);
    assert_eq!(one(", axis = -3, end = 1"), [Code::BadAttribute]);
    assert_eq!(one(", end = 1"), [Code::BadAttribute]); // no axis
    assert_eq!(one(", axis = 1, start = 8"), [Code::BadAttribute]);
    assert_eq!(one(", axis = 1, start = -1"), [Code::BadAttribute]);
    assert_eq!(one(", axis = 1, start = 4, end = 4"), [Code::BadAttribute]);
    assert_eq!(one(", axis = 1, end = 9"), [Code::BadAttribute]);
    assert_eq!(one(", axis = 1, step = 0"), [Code::BadAttribute]);
    assert_eq!(one(", axis = 1.0"), [Code::BadAttribute]);
    assert_eq!(one(", axis = [1]"), [Code::BadAttribute]);
    assert_eq!(one(", axis = NOPE"), [Code::UndefinedParam]);
    // A declared shape must match the inferred one.
    let src = graph("  input x: [2, 8]\n  op s = slice(x, axis = 1, end = 4) -> y: [2, 8]");
    assert_eq!(codes(&src), [Code::ShapeMismatch]);
    // Arity: one tensor.
    let src = graph("  input x: [2, 8]\n  op s = slice(x, x, axis = 1) -> y");
    assert_eq!(codes(&src), [Code::Arity]);
}

#[test]
fn concat_shapes_and_bad_cases() {
    let a = analysis(&graph(
        "  input a: [2, 3, 4]\n  input b: [2, 5, 4]\n  input c: [2, 1, 4]\n  op j = concat(a, b, c, axis = 1) -> y",
    ));
    assert_eq!(shape_of(&a, "y"), [2, 9, 4]);
    let bad =
        |decls: &str, args: &str| codes(&graph(&format!("{decls}\n  op j = concat({args}) -> y")));
    let ab = "  input a: [2, 3]\n  input b: [4, 3]";
    assert_eq!(bad(ab, "a, b, axis = 1"), [Code::ShapeMismatch]);
    assert_eq!(
        bad("  input a: [2, 3]\n  input b: [3]", "a, b, axis = 0"),
        [Code::ShapeMismatch]
    );
    assert_eq!(bad(ab, "a, b"), [Code::BadAttribute]);
    // `b` is unused then, too.
    assert_eq!(bad(ab, "a, axis = 0"), [Code::UnusedTensor, Code::Arity]);
    assert!(
        analysis(&graph(&format!(
            "{ab}\n  op j = concat(a, b, axis = -2) -> y: [6, 3]"
        )))
        .graph
        .ops
        .len()
            == 1
    );
}

#[test]
fn permute_shapes_and_bad_cases() {
    let a = analysis(&graph(
        "  input x: [2, 3, 4, 5]\n  op p = permute(x, dims = [0, 2, 1, 3]) -> y",
    ));
    assert_eq!(shape_of(&a, "y"), [2, 4, 3, 5]);
    let one = |args: &str| {
        codes(&graph(&format!(
            "  input x: [2, 3, 4]\n  op p = permute(x{args}) -> y"
        )))
    };
    assert_eq!(one(", dims = [0, 1]"), [Code::BadAttribute]);
    assert_eq!(one(", dims = [0, 1, 1]"), [Code::BadAttribute]);
    assert_eq!(one(", dims = [0, 1, 3]"), [Code::BadAttribute]);
    assert_eq!(one(", dims = [0, 1, -1]"), [Code::BadAttribute]);
    assert_eq!(one(""), [Code::BadAttribute]);
    assert_eq!(one(", dims = 0"), [Code::BadAttribute]);
    assert_eq!(one(", dims = [2, 1, 0]"), Vec::<Code>::new());
}

#[test]
fn expand_shapes_and_bad_cases() {
    let a = analysis(&graph(
        "  input k: [2, 8, 1, 16, 64]\n  op e = expand(k) -> k2: [2, 8, 4, 16, 64]\n  input b: [64]\n  op f = expand(b) -> b2: [3, 16, 64]\n  output k2, b2",
    ));
    assert_eq!(shape_of(&a, "k2"), [2, 8, 4, 16, 64]);
    assert_eq!(shape_of(&a, "b2"), [3, 16, 64]);
    let one = |decl: &str| {
        codes(&graph(&format!(
            "  input k: [2, 3]\n  op e = expand(k) -> y{decl}"
        )))
    };
    assert_eq!(one(""), [Code::MissingShape]);
    assert_eq!(one(": [2, 6]"), [Code::ShapeMismatch]);
    assert_eq!(one(": [3]"), [Code::ShapeMismatch]);
    assert_eq!(one(": [5, 2, 3]"), Vec::<Code>::new());
}

#[test]
fn gather_shapes_and_bad_cases() {
    let a = analysis(&graph(
        "  input table: [1000, 512]\n  input ids: i32[4, 16]\n  op g = gather(table, ids, axis = 0) -> h\n  op h2 = gather(table, ids, axis = -1) -> c\n  output h, c",
    ));
    assert_eq!(shape_of(&a, "h"), [4, 16, 512]);
    assert_eq!(shape_of(&a, "c"), [1000, 4, 16]);
    let one = |args: &str| {
        codes(&graph(&format!(
            "  input t: [10, 4]\n  input i: i32[3]\n  op g = gather({args}) -> y"
        )))
    };
    assert_eq!(one("t, i"), Vec::<Code>::new()); // axis defaults to 0
    assert_eq!(one("t, i, axis = 2"), [Code::BadAttribute]);
    assert_eq!(one("t, axis = 0"), [Code::UnusedTensor, Code::Arity]);
}

#[test]
fn update_shapes_and_bad_cases() {
    let a = analysis(&graph(
        "  param T = 5\n  input cache: f16[2, 64, 8]\n  input new: f16[2, 3, 8]\n  op u = update(cache, new, axis = 1, start = T) -> cache2",
    ));
    assert_eq!(shape_of(&a, "cache2"), [2, 64, 8]);
    let one = |new: &str, attrs: &str| {
        codes(&graph(&format!(
            "  input cache: [2, 64, 8]\n  input new: {new}\n  op u = update(cache, new{attrs}) -> c2"
        )))
    };
    assert_eq!(
        one("[2, 3, 8]", ", axis = 1, start = 61"),
        Vec::<Code>::new()
    );
    assert_eq!(
        one("[2, 3, 8]", ", axis = 1, start = 62"),
        [Code::BadAttribute]
    );
    assert_eq!(
        one("[2, 3, 8]", ", axis = 1, start = -1"),
        [Code::BadAttribute]
    );
    assert_eq!(one("[2, 3, 8]", ", axis = 1"), [Code::BadAttribute]);
    assert_eq!(one("[2, 3, 8]", ", start = 0"), [Code::BadAttribute]);
    assert_eq!(
        one("[2, 3, 4]", ", axis = 1, start = 0"),
        [Code::ShapeMismatch]
    );
    assert_eq!(
        one("[3, 8]", ", axis = 1, start = 0"),
        [Code::ShapeMismatch]
    );
}

#[test]
fn an_unknown_input_causes_nothing_further() {
    let src = graph(
        "  op s = slice(nope, axis = 9, end = 1000) -> y\n  op p = permute(y, dims = [5]) -> z",
    );
    assert_eq!(codes(&src), [Code::UndefinedTensor]);
}

#[test]
fn a_typo_of_a_new_kind_lists_every_kind() {
    let report = check_file(
        "t.fgraph",
        graph("  input x: [4]\n  op s = slise(x, axis = 0) -> y").as_bytes(),
        &Options::default(),
    );
    let help = report.diagnostics[0].help.clone().unwrap_or_default();
    assert!(help.starts_with("did you mean `slice`?"), "{help}");
    assert!(help.contains("gather, update"), "{help}");
}

// ---- traffic and fusion -------------------------------------------------------------------

#[test]
fn permute_is_free_inside_a_kernel_and_a_copy_alone() {
    // x: 8·16 f32 = 512 B.
    let fused = analysis(&graph(
        "  input x: [8, 16]\n  op p = permute(x, dims = [1, 0]) -> t\n  op r = elementwise.relu(t) -> y",
    ));
    assert_eq!(groups(&fused), [["p", "r"]]);
    assert_eq!(group_bytes(&fused), [(512, 512)]);
    assert_eq!(fused.traffic.unfused.total, 4 * 512);
    let alone = analysis(&graph(
        "  input x: [8, 16]\n  op p = permute(x, dims = [1, 0]) -> t",
    ));
    assert_eq!(group_bytes(&alone), [(512, 512)]);
    // After a reduction it starts a kernel of its own (rule 2) and is a copy.
    let after = analysis(&graph(
        "  input x: [8, 16]\n  op s = reduction.sum(x, axis = 1) -> r: [8, 1]\n  op p = permute(r, dims = [1, 0]) -> t",
    ));
    assert_eq!(groups(&after), [vec!["s"], vec!["p"]]);
    assert_eq!(group_bytes(&after), [(512, 32), (32, 32)]);
}

#[test]
fn slice_alone_reads_only_its_part() {
    // x: 4·128 f16 = 1024 B; each half 512 B.
    let a = analysis(&graph(
        "  dtype f16\n  input x: [4, 128]\n  op lo = slice(x, axis = 1, end = 64) -> x1\n  op hi = slice(x, axis = 1, start = 64) -> x2\n  output x1, x2",
    ));
    assert_eq!(group_bytes(&a), [(512, 512), (512, 512)]);
    // In one kernel with a whole read of x, the whole read covers both parts; two parts
    // of one tensor in a kernel add up.
    let b = analysis(&graph(
        "  dtype f16\n  input x: [4, 128]\n  op lo = slice(x, axis = 1, end = 64) -> x1\n  op hi = slice(x, axis = 1, start = 64) -> x2\n  op j = concat(x2, x1, axis = 1) -> y",
    ));
    assert_eq!(groups(&b), [["lo", "hi", "j"]]);
    assert_eq!(group_bytes(&b), [(1024, 1024)]);
    assert_eq!(
        (
            b.traffic.unfused.bytes_read,
            b.traffic.unfused.bytes_written
        ),
        (512 + 512 + 1024, 512 + 512 + 1024)
    );
    // A strided slice reads what it keeps: [4, 43] of 128 → 4·43·2 = 344 B.
    let c = analysis(&graph(
        "  dtype f16\n  input x: [4, 128]\n  op s = slice(x, axis = 1, step = 3) -> y",
    ));
    assert_eq!(group_bytes(&c), [(344, 344)]);
}

#[test]
fn gather_reads_only_the_rows_touched() {
    // table: 1000 rows of 512 f16 = 1 KiB each; ids: 64 i32 = 256 B; h: 64 rows = 64 KiB.
    let src = graph(
        "  dtype f16\n  weight table: [1000, 512]\n  input ids: i32[4, 16]\n  op g = gather(table, ids) -> h\n  op r = elementwise.relu(h) -> y",
    );
    let a = analysis(&src);
    assert_eq!(groups(&a), [["g", "r"]]);
    assert_eq!(group_bytes(&a), [(64 * 1024 + 256, 64 * 1024)]);
    // Unfused: g reads 64 KiB + 256 B and writes 64 KiB; r reads and writes 64 KiB.
    assert_eq!(a.traffic.unfused.bytes_read, 2 * 64 * 1024 + 256);
    assert_eq!(a.traffic.unfused.bytes_written, 2 * 64 * 1024);
    // More indices than rows read at most the whole table: 3000 ids, 1000 rows.
    let b = analysis(&graph(
        "  dtype f16\n  weight table: [1000, 512]\n  input ids: i32[3000]\n  op g = gather(table, ids) -> h",
    ));
    assert_eq!(group_bytes(&b), [(1000 * 1024 + 12000, 3000 * 1024)]);
    // Along axis 1: 8 columns of [100, 50] f32 = 8 · 400 B.
    let c = analysis(&graph(
        "  weight t: [100, 50]\n  input ids: i32[8]\n  op g = gather(t, ids, axis = 1) -> h",
    ));
    assert_eq!(group_bytes(&c), [(8 * 400 + 32, 100 * 8 * 4)]);
}

#[test]
fn update_writes_only_the_new_rows_and_reads_no_cache() {
    // cache: [2, 64, 8] f16 = 2 KiB; new: [2, 3, 8] f16 = 96 B.
    let src = graph(
        "  dtype f16\n  input cache: [2, 64, 8]\n  input k: [2, 3, 8]\n  op s = elementwise.mul(k, 0.5) -> ks\n  op u = update(cache, ks, axis = 1, start = 10) -> cache2\n  op r = elementwise.relu(cache2) -> y\n  output y, cache2",
    );
    let a = analysis(&src);
    assert_eq!(groups(&a), [vec!["s", "u"], vec!["r"]]);
    // Kernel 1 reads k (96 B) and writes the 96 new bytes of cache2; kernel 2 reads the
    // whole buffer (2 KiB) and writes y (2 KiB).
    assert_eq!(group_bytes(&a), [(96, 96), (2048, 2048)]);
    // Unfused: s 96/96, u 96/96, r 2048/2048.
    assert_eq!(a.traffic.unfused.bytes_read, 96 + 96 + 2048);
    assert_eq!(a.traffic.unfused.bytes_written, 96 + 96 + 2048);
    let reads: Vec<&str> = a.traffic.groups[0]
        .reads
        .iter()
        .map(|r| a.graph.tensor(r.tensor).name.as_str())
        .collect();
    assert_eq!(reads, ["k"]);
}

#[test]
fn concat_and_expand_fuse_like_their_classes() {
    // a, b: [4, 8] f32 = 128 B each; y: [4, 16] = 256 B.
    let a = analysis(&graph(
        "  input a: [4, 8]\n  input b: [4, 8]\n  op e = elementwise.exp(a) -> ea\n  op j = concat(ea, b, axis = 1) -> y\n  op r = elementwise.relu(y) -> z",
    ));
    assert_eq!(groups(&a), [["e", "j", "r"]]);
    assert_eq!(group_bytes(&a), [(256, 256)]);
    // An expand after a matmul is an epilogue; a reduction after it may not join (rule 3).
    let b = analysis(&graph(
        "  input x: [4, 8]\n  weight w: [8, 8]\n  op m = matmul(x, w) -> y\n  op e = expand(y) -> y2: [2, 4, 8]\n  op s = reduction.sum(y2, axis = -1) -> t: [2, 4]",
    ));
    assert_eq!(groups(&b), [vec!["m", "e"], vec!["s"]]);
}

#[test]
fn data_movement_costs_no_flops() {
    let a = analysis(&graph(
        "  input x: [4, 8]\n  op p = permute(x, dims = [1, 0]) -> y\n  op s = elementwise.mul(y, 0.5) -> z",
    ));
    assert_eq!(
        op_flops(&a.graph, fgraph::OpId(0)),
        (0, FlopSource::DataMovement)
    );
    assert_eq!(op_flops(&a.graph, fgraph::OpId(1)), (32, FlopSource::Table));
}

// ---- the example, the CLI and fmt -----------------------------------------------------------

const EVERY_OP: &str = "graph every_op {
  param T = 5
  dtype f16
  input x: [2, 8, 16, 64]
  input ids: i32[4, 16]
  weight table: [1000, 512]
  input cache: [2, 8, 64, 64]
  input k: [2, 2, 1, 16, 64]
  op s = elementwise.mul(x, 0.125) -> xs
  op n = reduction.rmsnorm(xs, eps = 1e-5) -> xn: [2, 8, 16, 64]
  op lo = slice(xn, axis = -1, start = 0, end = 32) -> x1
  op hi = slice(xn, axis = -1, start = 32, end = 64) -> x2
  op c = concat(x2, x1, axis = -1) -> xr
  op p = permute(xr, dims = [0, 2, 1, 3]) -> xp
  op e = expand(k) -> k2: [2, 2, 4, 16, 64]
  op g = gather(table, ids, axis = 0) -> h
  op u = update(cache, xn, axis = 2, start = T) -> cache2
  op neg = elementwise.mul(-1.5, xp) -> y
  output y, k2, h, cache2
}
";

#[test]
fn cli_analyses_a_file_with_every_new_op() {
    let dir = std::env::temp_dir().join(format!("fgraph-every-op-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("every_op.fgraph");
    std::fs::write(&path, EVERY_OP).expect("write");
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_fgraph"))
            .args(args)
            .arg(&path)
            .env("NO_COLOR", "1")
            .output()
            .expect("run")
    };
    let o = run(&["analyze", "--deny-warnings"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let o = run(&["analyze", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let kinds: Vec<&str> = v["ops"]
        .as_array()
        .expect("ops")
        .iter()
        .map(|o| o["kind"].as_str().expect("kind"))
        .collect();
    for k in ["slice", "concat", "permute", "expand", "gather", "update"] {
        assert!(kinds.contains(&k), "{k} in {kinds:?}");
    }
    // The update writes 2·8·16·64 f16 = 32 KiB into a 128 KiB cache; the gather reads
    // 64 rows of 1 KiB.
    let ops = v["ops"].as_array().expect("ops");
    let u = ops.iter().find(|o| o["name"] == "u").expect("u");
    assert_eq!(u["shape"], serde_json::json!([2, 8, 64, 64]));
    let groups = v["groups"].as_array().expect("groups");
    let of = |op: &str| {
        groups
            .iter()
            .find(|g| g["ops"].as_array().expect("ops").iter().any(|o| o == op))
            .expect("group")
    };
    assert_eq!(of("u")["bytes_written"], 32 * 1024);
    assert_eq!(of("g")["reads"][0]["bytes"], 64 * 1024);
    let o = run(&["fmt", "--check"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn fmt_prints_the_new_forms_canonically() {
    let src = "graph g {\n  input x: [2, 3]\n  op p = permute(x,dims=[1 ,0]) -> y\n  op s = elementwise.mul( y ,-2.50 ) -> z\n  op n = reduction.rmsnorm(z,eps=1E-5)->w: [3, 2]\n}\n";
    let want = "graph g {\n  input x: [2, 3]\n  op p = permute(x, dims = [1, 0]) -> y\n  op s = elementwise.mul(y, -2.50) -> z\n  op n = reduction.rmsnorm(z, eps = 1E-5) -> w: [3, 2]\n}\n";
    assert_eq!(fgraph::format::format_source(src).expect("formats"), want);
    assert_eq!(
        fgraph::format::format_source(EVERY_OP).expect("formats"),
        EVERY_OP
    );
}

#[test]
fn rope_gqa_example_analyses_with_no_warnings() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/rope_gqa.fgraph");
    let bytes = std::fs::read(&path).expect("example");
    let report = check_file("rope_gqa.fgraph", &bytes, &Options::default());
    assert!(report.diagnostics.is_empty(), "{:?}", report.diagnostics);
    let a = report.graphs[0].analysis.as_ref().expect("analysis");
    let kinds: Vec<&str> = a.graph.ops.iter().map(|o| o.kind.as_str()).collect();
    for k in ["slice", "concat", "permute", "expand", "update"] {
        assert!(kinds.contains(&k), "{k}");
    }
    // The cache appends write only the 16 new rows of each cache: [1, 8, 16, 64] bf16.
    let name = |t: fgraph::TensorId| a.graph.tensor(t).name.as_str();
    let cache_writes: Vec<u64> = a
        .traffic
        .groups
        .iter()
        .flat_map(|g| g.writes.iter())
        .filter(|w| name(w.tensor).ends_with("cache2"))
        .map(|w| w.bytes)
        .collect();
    assert_eq!(cache_writes, [16 * 1024, 16 * 1024]);
    // No kernel reads a cache before the append.
    assert!(
        a.traffic
            .groups
            .iter()
            .flat_map(|g| g.reads.iter())
            .all(|r| !matches!(name(r.tensor), "k_cache" | "v_cache"))
    );
}

#[test]
fn explain_has_bad_attribute() {
    let text = fgraph::explain::text("bad-attribute").expect("text");
    assert!(text.starts_with("# bad-attribute"));
}

#[test]
fn the_library_api_takes_attributes() {
    use fgraph::{External, Op, OpKind, build_graph, estimate_memory_traffic};
    // x: [4, 8] f32 = 128 B; its permute [8, 4] and the slice of its first 2 rows [2, 4] = 32 B.
    let ops = vec![
        Op::new("p", OpKind::Permute, &["x"], "y", &[8, 4], 4).list_attr("dims", &[1, 0]),
        Op::new("s", OpKind::Slice, &["y"], "z", &[2, 4], 4)
            .attr("axis", -2)
            .attr("end", 2),
    ];
    let g = build_graph(&ops, &[External::input("x", &[4, 8], 4)]).expect("graph");
    assert_eq!(g.tensor(g.ops[1].output).shape, [2, 4]);
    // Unfused: p reads 128 and writes 128; s reads its 32-byte part and writes 32.
    let unfused = estimate_memory_traffic(&g, false).expect("traffic");
    assert_eq!((unfused.bytes_read, unfused.bytes_written), (160, 160));
    // Fused: one kernel reads x and writes z.
    let fused = estimate_memory_traffic(&g, true).expect("traffic");
    assert_eq!((fused.bytes_read, fused.bytes_written), (128, 32));
    // A missing attribute is an error, not a guess.
    let bad = vec![Op::new("s", OpKind::Slice, &["x"], "z", &[2, 8], 4)];
    let err = build_graph(&bad, &[External::input("x", &[4, 8], 4)]).expect_err("no axis");
    assert_eq!(err.diagnostics[0].code, Code::BadAttribute);
}

/// The manual's tables against the registries: every op kind has its row in
/// docs/language.md's kind table with the registry's arity, and every function the registry
/// counts has its FLOPs in docs/cost-model.md's table.
#[test]
fn the_manual_lists_every_kind_and_function_of_the_registries() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let language = std::fs::read_to_string(root.join("docs/language.md")).expect("language.md");
    for &k in fgraph::OpKind::ALL {
        let arity = fgraph::ops::spec(k).arity.text.trim_end_matches(" tensors");
        let arity = arity.trim_end_matches(" tensor");
        let row = format!("| `{k}` |");
        let line = language
            .lines()
            .find(|l| l.starts_with(&row))
            .unwrap_or_else(|| panic!("no row for `{k}` in docs/language.md"));
        assert!(line.trim_end().ends_with(&format!("| {arity} |")), "{line}");
    }
    let cost = std::fs::read_to_string(root.join("docs/cost-model.md")).expect("cost-model.md");
    for f in fgraph::ops::funcs::FUNCS {
        let Some(n) = f.flops else { continue };
        let line = cost
            .lines()
            .find(|l| {
                l.starts_with("| `")
                    && (l.contains(&format!("`{}`", f.name))
                        || l.contains(&format!(".{}`", f.name)))
                    && l.contains(" per ")
            })
            .unwrap_or_else(|| panic!("no FLOP row for `{}` in docs/cost-model.md", f.name));
        assert!(line.contains(&format!("| {n} per")), "{}: {line}", f.name);
    }
}
