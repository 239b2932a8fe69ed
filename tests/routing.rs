//! The routing and indexing kinds (issue 23 item 3): `topk` and `topk_indices`, `sort`,
//! `argsort`, `index_add`, `cumsum`, `one_hot`, `roll`. Their shapes are inferred, their
//! errors say what is wrong, and their FLOPs and bytes agree with figures worked out by hand.

use fgraph::{Code, Options, check_file};

/// A graph with `probs: f32[64, 8]`, `h: bf16[64, 32]`, `ids: i32[128]` and the ops `body`.
fn src(body: &str) -> String {
    format!(
        "graph g {{\n  input probs: f32[64, 8]\n  input h: bf16[64, 32]\n  input ids: i32[128]\n{body}\n}}\n"
    )
}

/// The codes of the graph, unused inputs aside.
fn codes(body: &str) -> Vec<Code> {
    let report = check_file("t.fgraph", src(body).as_bytes(), &Options::default());
    report
        .diagnostics
        .iter()
        .map(|d| d.code)
        .filter(|&c| c != Code::UnusedTensor)
        .collect()
}

/// The message of the one error of the graph.
fn message(body: &str) -> String {
    let report = check_file("t.fgraph", src(body).as_bytes(), &Options::default());
    let errs: Vec<_> = report
        .diagnostics
        .iter()
        .filter(|d| d.code != Code::UnusedTensor)
        .collect();
    assert_eq!(errs.len(), 1, "{body}: {errs:#?}");
    errs[0].message.clone()
}

/// The analysis of a clean graph.
fn analysis(body: &str) -> fgraph::analysis::Analysis {
    let mut report = check_file("t.fgraph", src(body).as_bytes(), &Options::default());
    let errs: Vec<_> = report
        .diagnostics
        .iter()
        .filter(|d| d.code != Code::UnusedTensor)
        .collect();
    assert!(errs.is_empty(), "{body}: {errs:#?}");
    report.graphs.remove(0).analysis.expect("analysis")
}

/// Shape and dtype of tensor `name`.
fn tensor(a: &fgraph::analysis::Analysis, name: &str) -> (Vec<u64>, String) {
    let t = a.graph.tensors.iter().find(|t| t.name == name).expect(name);
    (t.shape.to_vec(), t.dtype.to_string())
}

#[test]
fn shapes_and_dtypes_are_inferred() {
    let a = analysis(
        "  op top = topk(probs, k = 2) -> w\n\
         op pick = topk_indices(w) -> wi\n\
         op pick32 = topk_indices(w) -> wi32: i32[64, 2]\n\
         op s = sort(probs, axis = 0, descending = true) -> sv\n\
         op o = argsort(ids) -> order\n\
         op c = cumsum(probs, axis = 0) -> cs\n\
         op oh = one_hot(ids, classes = 8) -> hot\n\
         op ohf = one_hot(ids, classes = 8) -> hotf: bf16[128, 8]\n\
         op r = roll(h, shifts = [1, -3], dims = [0, -1]) -> hr\n\
         op r1 = roll(h, shifts = 5) -> hr1\n\
         op tok = elementwise.div(ids, 2) -> t\n\
         op add = index_add(h, t, hh) -> out\n\
         op rows = gather(h, t) -> hh",
    );
    assert_eq!(tensor(&a, "w"), (vec![64, 2], "f32".into()));
    // Indices are PyTorch's int64 unless declared.
    assert_eq!(tensor(&a, "wi"), (vec![64, 2], "i64".into()));
    assert_eq!(tensor(&a, "wi32"), (vec![64, 2], "i32".into()));
    assert_eq!(tensor(&a, "sv"), (vec![64, 8], "f32".into()));
    assert_eq!(tensor(&a, "order"), (vec![128], "i64".into()));
    assert_eq!(tensor(&a, "cs"), (vec![64, 8], "f32".into()));
    // one_hot: the ids' dtype unless declared.
    assert_eq!(tensor(&a, "hot"), (vec![128, 8], "i32".into()));
    assert_eq!(tensor(&a, "hotf"), (vec![128, 8], "bf16".into()));
    assert_eq!(tensor(&a, "hr"), (vec![64, 32], "bf16".into()));
    assert_eq!(tensor(&a, "hr1"), (vec![64, 32], "bf16".into()));
    assert_eq!(tensor(&a, "hh"), (vec![128, 32], "bf16".into()));
    assert_eq!(tensor(&a, "out"), (vec![64, 32], "bf16".into()));
}

#[test]
fn errors_say_what_is_wrong() {
    let cases: &[(&str, Code, &str)] = &[
        (
            "  op top = topk(probs, k = 9) -> w",
            Code::BadAttribute,
            "topk keeps k = 9 along axis 1 of `probs` [64, 8], which has only 8",
        ),
        ("  op top = topk(probs) -> w", Code::BadAttribute, "`k`"),
        (
            "  op top = topk(probs, k = 2, axis = 2) -> w",
            Code::BadAttribute,
            "axis 2 is out of range for `probs` of rank 2",
        ),
        (
            "  op i = topk_indices(probs) -> wi",
            Code::ShapeMismatch,
            "topk_indices `i` must name the values of a topk op: `probs` is an input",
        ),
        (
            "  op top = topk(probs, k = 2) -> w\n  op i = topk_indices(w) -> wi: f32[64, 2]",
            Code::InvalidDtype,
            "topk_indices `i` produces indices, declared f32",
        ),
        (
            "  op o = argsort(ids) -> order: bf16[128]",
            Code::InvalidDtype,
            "argsort `o` produces indices, declared bf16",
        ),
        (
            "  op top = topk(probs, k = 2) -> w\n  op s = sort(probs) -> sv: [64, 2]",
            Code::ShapeMismatch,
            "declared shape [64, 2] of `sv` does not match the inferred shape [64, 8]",
        ),
        (
            "  op a = index_add(h, ids, h) -> out",
            Code::ShapeMismatch,
            "index_add adds `h` [64, 32] into `h` [64, 32] at 128 ids along axis 0: the rows \
             added must be [128, 32]",
        ),
        (
            "  op r = reshape(ids) -> i2: i32[64, 2]\n  op a = index_add(h, i2, h) -> out",
            Code::ShapeMismatch,
            "the ids `i2` of index_add are [64, 2]: one index per row added, a 1-D tensor",
        ),
        (
            "  op oh = one_hot(probs, classes = 4) -> hot",
            Code::InvalidDtype,
            "the ids `probs` of one_hot `oh` are f32, not integers",
        ),
        (
            "  op oh = one_hot(ids, classes = 0) -> hot",
            Code::BadAttribute,
            "",
        ),
        (
            "  op r = roll(h, shifts = [1, 2], dims = [0]) -> hr",
            Code::BadAttribute,
            "roll lists 2 shifts for 1 dims",
        ),
        (
            "  op r = roll(h, shifts = [1, 2]) -> hr",
            Code::BadAttribute,
            "roll without `dims` shifts the flattened tensor by one amount; `shifts` lists 2",
        ),
        (
            "  op r = roll(h, shifts = [1, 2], dims = [0, -2]) -> hr",
            Code::BadAttribute,
            "axis 0 is listed twice in `dims` (as -2)",
        ),
        (
            "  op r = roll(h, shifts = [1], dims = [2]) -> hr",
            Code::BadAttribute,
            "dim 2 is out of range for `h` of rank 2",
        ),
        (
            "  op s = sort(probs, descending = 2) -> sv",
            Code::BadAttribute,
            "",
        ),
        (
            "  op c = cumsum(probs, flavour = 1) -> cs",
            Code::BadAttribute,
            "",
        ),
        ("  op c = cumsum(probs, h) -> cs", Code::Arity, ""),
    ];
    for &(body, code, text) in cases {
        assert_eq!(codes(body), [code], "{body}");
        let m = message(body);
        assert!(m.contains(text), "{body}: {m}");
    }
}

#[test]
fn a_scalar_has_no_axis_to_sort() {
    let src = "graph g {\n  input s: f32[]\n  op c = cumsum(s) -> y\n  output y\n}\n";
    let r = check_file("t.fgraph", src.as_bytes(), &Options::default());
    let codes: Vec<_> = r.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, [Code::ShapeMismatch], "{:#?}", r.diagnostics);
    assert!(r.diagnostics[0].message.contains("`s` is a scalar"));
}

/// FLOPs and bytes by hand, each op alone in its kernel (all outputs).
#[test]
fn flops_and_bytes_by_hand() {
    let a = analysis(
        "  op top = topk(probs, k = 2) -> w\n\
         op pick = topk_indices(w) -> wi: i32[64, 2]\n\
         op s = sort(probs) -> sv\n\
         op o = argsort(ids) -> order: i32[128]\n\
         op c = cumsum(probs) -> cs\n\
         op oh = one_hot(ids, classes = 8) -> hot: bf16[128, 8]\n\
         op r = roll(h, shifts = 1, dims = [0]) -> hr\n\
         op rows = gather(h, ids) -> hh\n\
         op add = index_add(h, ids, hh) -> out\n\
         output w, wi, sv, order, cs, hot, hr, out",
    );
    let hw = fgraph::Hardware::preset("h100").expect("preset");
    let cost = fgraph::cost::estimate(&a, &hw, fgraph::LaunchMode::Graph).expect("cost");
    let kernel = |name: &str| {
        let k = a
            .plan
            .groups
            .iter()
            .position(|g| g.ops.iter().any(|&o| a.graph.op(o).name == name))
            .expect(name);
        let t = &a.traffic.groups[k];
        (cost.fused.kernels[k].flops, t.bytes_read, t.bytes_written)
    };
    // topk: 1 FLOP per element of probs (64·8 = 512); reads probs (512·4 = 2,048 B), writes
    // the values (64·2·4 = 512 B).
    assert_eq!(kernel("top"), (512, 2048, 512));
    // topk_indices: priced once with its topk: reads nothing, writes 64·2·4 = 512 B of i32.
    assert_eq!(kernel("pick"), (0, 0, 512));
    // sort: 512 FLOPs, reads and writes 2,048 B; argsort of 128 i32 ids: 128 FLOPs, 512 B
    // each way; cumsum as sort.
    assert_eq!(kernel("s"), (512, 2048, 2048));
    assert_eq!(kernel("o"), (128, 512, 512));
    assert_eq!(kernel("c"), (512, 2048, 2048));
    // one_hot: one comparison per output element (128·8 = 1,024), reads the ids (512 B),
    // writes 1,024 bf16 (2,048 B).
    assert_eq!(kernel("oh"), (1024, 512, 2048));
    // roll alone: a copy of h (64·32·2 = 4,096 B each way), no FLOPs.
    assert_eq!(kernel("r"), (0, 4096, 4096));
    // gather then index_add fuse (a pointwise producer into a reduction): the kernel reads
    // h's touched rows once (min(128, 64) = all 64 rows: 4,096 B) and the ids once (512 B);
    // index_add adds 128·32 = 4,096 elements and writes the 64 rows touched (4,096 B).
    assert_eq!(kernel("add"), (4096, 4096 + 512, 4096));
    assert_eq!(kernel("rows"), kernel("add"));
}

/// index_add alone reads the rows added, the ids and only the touched rows of dest.
#[test]
fn index_add_touches_only_its_rows() {
    let src = "graph g {\n  input out: bf16[1000, 16]\n  input ids: i64[10]\n  input rows: bf16[10, 16]\n  op a = index_add(out, ids, rows) -> y\n  output y\n}\n";
    let r = check_file("t.fgraph", src.as_bytes(), &Options::default());
    assert!(r.diagnostics.is_empty(), "{:#?}", r.diagnostics);
    let a = r.graphs[0].analysis.as_ref().expect("analysis");
    let t = &a.traffic.groups[0];
    // rows 10·16·2 = 320 B, ids 80 B, 10 rows of dest 320 B; writes 320 B.
    assert_eq!((t.bytes_read, t.bytes_written), (320 + 80 + 320, 320));
}

/// The H100 presets carry the routing families that
/// validation/gpu/h100-calib-h/fit_routing.py fitted, with top-k refitted by
/// validation/gpu/h100-calib-i/fit_topk_i.py, then by h100-calib-k/fit_k.py and
/// h100-calib-l/fit_l.py
/// (`--write` stores them in the presets and the whole object in fit_routing_l.json).
#[test]
fn h100_presets_carry_the_fitted_routing_families() {
    let path = format!(
        "{}/validation/gpu/h100-calib-l/fit_routing_l.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let fit: fgraph::cost::hwmodel::RoutingCoeffs =
        serde_json::from_str(&std::fs::read_to_string(path).expect("fit_routing_l.json"))
            .expect("routing");
    for name in ["h100", "h100-measured", "h100-2x8"] {
        let model = fgraph::Hardware::preset(name)
            .and_then(|h| h.model)
            .expect("model");
        assert_eq!(model.routing.as_ref(), Some(&fit), "{name}");
        model.validate().expect("in range");
    }
}

/// The hardware model's routing families against two cases of the fit half
/// (validation/gpu/h100-calib-h/fit/measured_fit.csv): index_add fit_119 (bf16, dest
/// [25856, 4096], 51,712 rows added: 826,573,056 B read in 1,824.6 µs) and top-k fit_091 (f32
/// [8192, 64], k 8: 2,919,680 B in 39.8 µs, the indices in the same kernels; batch i's refit
/// of top-k gave it 43.0 µs, +8%; batch l's 39.9 µs). Top-k's time steps with the warps of a
/// row (32 experts each) and its sort does not grow with k (batches k and l, §31).
#[test]
fn the_hardware_model_prices_routing_kernels_as_measured() {
    let run = |src: &str| {
        let r = check_file("t.fgraph", src.as_bytes(), &Options::default());
        assert!(r.diagnostics.is_empty(), "{:#?}", r.diagnostics);
        let a = r.graphs[0].analysis.as_ref().expect("analysis");
        let hw = fgraph::Hardware::preset("h100").expect("preset");
        let m = hw.model.clone().expect("model");
        a.plan
            .groups
            .iter()
            .zip(&a.traffic.groups)
            .map(|(grp, tr)| {
                fgraph::cost::hwmodel::predict(&m, &a.graph, &grp.ops, tr, None, &hw, 0.0)
            })
            .collect::<Vec<_>>()
    };
    let p = run(
        "graph g {\n  input out: bf16[25856, 4096]\n  input idx: i64[51712]\n  input src: bf16[51712, 4096]\n  op a = index_add(out, idx, src) -> y\n  output y\n}\n",
    );
    assert_eq!(p.len(), 1);
    assert!(
        (p[0].dram_read as f64 / 826_573_056.0 - 1.0).abs() < 0.01,
        "{p:?}"
    );
    assert!((p[0].kernel_s / 1824.6e-6 - 1.0).abs() < 0.05, "{p:?}");
    let p = run(
        "graph g {\n  input x: f32[8192, 64]\n  op top = topk(x, k = 8) -> v\n  op ids = topk_indices(v) -> i: i64[8192, 8]\n  output v, i\n}\n",
    );
    assert_eq!(p.len(), 2);
    let (reads, secs) = (
        p[0].dram_read + p[1].dram_read,
        p[0].kernel_s + p[1].kernel_s,
    );
    assert!((reads as f64 / 2_919_680.0 - 1.0).abs() < 0.05, "{p:?}");
    assert!((secs / 39.8e-6 - 1.0).abs() < 0.10, "{p:?}");
    // The indices' kernel reads nothing and costs its writes only (8192·8·8 B).
    assert_eq!((p[1].dram_read, p[1].dram_written), (0, 8192 * 8 * 8));
    assert!(p[1].kernel_s < 1e-6, "{p:?}");
    // A sort of 32 expert ids (a decode step's routing) is PyTorch's in-place small sort: a
    // streaming kernel of a few µs (measured 4.7 µs, validation/gpu/models batch 7); one of
    // 16,384 ids is the segmented radix sort, 71.8 µs to start (batch h).
    let sort = |n: u64| {
        run(&format!(
            "graph g {{\n  input ids: i64[{n}]\n  op s = sort(ids) -> sorted\n  output sorted\n}}\n"
        ))[0]
            .kernel_s
    };
    assert!(sort(32) < 5e-6, "{}", sort(32));
    let topk = |experts: u64, k: u64| {
        run(&format!(
            "graph g {{\n  input x: bf16[8192, {experts}]\n  op top = topk(x, k = {k}) -> v\n  output v\n}}\n"
        ))[0]
            .compute_s
    };
    // 33, 40 and 64 experts are two warps a row, 32 one.
    assert_eq!(topk(33, 2), topk(64, 2));
    assert_eq!(topk(40, 2), topk(64, 2));
    assert!(topk(32, 2) < 0.8 * topk(33, 2));
    // k adds 0.035 ns a row to the gather and nothing to the sort (one sort size up to 16).
    let per_k = (topk(64, 8) - topk(64, 2)) / (6.0 * 8192.0);
    assert!((per_k * 1e9 - 0.035).abs() < 0.005, "{per_k}");
    assert!(sort(4096) < 20e-6, "{}", sort(4096));
    assert!(sort(16384) > 71.8e-6, "{}", sort(16384));
}
