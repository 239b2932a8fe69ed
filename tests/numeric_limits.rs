//! The numeric limits every op's output and FLOP count pass (issue 21): the rank and
//! dimension limits on inferred outputs of every kind (a `gather` adds its indices' rank, a
//! `concat` sums a dimension), FLOP counts that do not fit 64 bits (per op and per graph:
//! `size-overflow`, exit 1, never a saturated count), the `flops = N` attribute's range, a
//! reduction's `axis`, a `gather`'s integer indices and an `update`'s rows of another dtype
//! than its buffer.

mod common;

use common::{code, fgraph, stdout, temp_file_in};
use fgraph::{Code, Options, check_file};

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

/// A shape of `n` ones.
fn ones(n: usize) -> String {
    format!("[{}]", vec!["1"; n].join(", "))
}

#[test]
fn a_gather_cannot_pass_the_rank_limit() {
    // Table rank 9, indices rank 8: 8 + 8 = 16, the limit, is fine; indices of rank 9 give 17.
    for (ids, expected) in [(8, vec![]), (9, vec![Code::LimitExceeded])] {
        let src = format!(
            "graph g {{\n  input t: f32{}\n  input ids: i32{}\n  op a = gather(t, ids) -> y\n}}\n",
            ones(9),
            ones(ids)
        );
        assert_eq!(codes(&src), expected, "indices of rank {ids}");
    }
    // A chain of gathers (each adds 15 dimensions: rank 887 was accepted) stops at the first.
    let mut src = format!(
        "graph g {{\n  input t0: f32{}\n  input ids: i32{}\n",
        ones(16),
        ones(16)
    );
    for i in 0..60 {
        src += &format!("  op g{i} = gather(t{i}, ids) -> t{}\n", i + 1);
    }
    src += "}\n";
    assert_eq!(codes(&src), [Code::LimitExceeded]);
    assert_eq!(
        messages(&src),
        ["the output `t1` of gather `g0` has rank 31, above the limit of 16"]
    );
}

#[test]
fn a_concat_cannot_pass_the_dimension_limit() {
    let at = |a: &str, b: &str| {
        codes(&format!(
            "graph g {{\n  dtype u8\n  input a: [{a}]\n  input b: [{b}]\n  op c = concat(a, b, axis = 0) -> y\n}}\n"
        ))
    };
    // 2^47 + 2^47 = 2^48, the limit; one more is past it.
    assert_eq!(at("140737488355328", "140737488355328"), []);
    assert_eq!(
        at("140737488355328", "140737488355329"),
        [Code::LimitExceeded]
    );
    assert_eq!(
        at("281474976710656", "281474976710656"),
        [Code::LimitExceeded]
    );
    let src = "graph g {\n  dtype u8\n  input a: [281474976710656]\n  op c = concat(a, a, a, axis = 0) -> y\n}\n";
    assert_eq!(
        messages(src),
        [
            "dimension 0 of the output `y` of concat `c` is 844424930131968, above the limit of \
             2^48 (281474976710656)"
        ]
    );
}

#[test]
fn every_kind_keeps_within_the_limits() {
    // The kinds that cannot grow a rank or a dimension pass at the limits and stay quiet.
    let big = "281474976710656";
    let src = format!(
        "graph g {{\n  dtype u8\n  input x: [{big}, 1]\n  input t: {sixteen}\n  \
         op e = elementwise.add(x, x) -> e1\n  \
         op m = matmul(x, x.T) -> m1\n  \
         op s = slice(x, axis = 0, start = 0, end = {big}) -> s1\n  \
         op p = permute(t, dims = [15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]) -> p1\n  \
         op r = reshape(x) -> r1: [{big}]\n  \
         op x2 = expand(t) -> t2: {sixteen}\n  \
         op u = update(x, x, axis = 0, start = 0) -> u1\n  \
         op k = reduction.sum(x, axis = -1) -> k1: [{big}]\n}}\n",
        sixteen = ones(16)
    );
    let c = codes(&src);
    // `matmul(x, x.T)` is [2^48, 2^48]: 2^96 bytes.
    assert_eq!(c, [Code::SizeOverflow], "{:?}", messages(&src));
}

#[test]
fn flop_counts_that_do_not_fit_are_size_overflow() {
    let cases = [
        // 2 · K · elements: 2 · 2^20 · 2^44.
        "input a: [4294967296, 1048576]\n  input b: [1048576, 4096]\n  op m = matmul(a, b) -> y",
        // K read through `.T`: a.T is [4, 2^30], so K is 2^30 (not 4): 2 · 2^30 · 2^35.
        "input a: [1073741824, 4]\n  input b: [1073741824, 8589934592]\n  op m = matmul(a.T, b) -> y",
        // gelu, 8 per element, on 2^61 elements.
        "input a: [281474976710656, 8192]\n  op e = elementwise.gelu(a) -> y",
        // softmax, 5 per element of the input, on 2^62 elements.
        "input a: [281474976710656, 16384]\n  op s = reduction.softmax(a) -> y: [281474976710656, 16384]",
        // The attribute times the output's elements: (2^63 - 1) · 3.
        "input a: [3]\n  op e = elementwise.f(a, flops = 9223372036854775807) -> y",
    ];
    for body in cases {
        let src = format!("graph g {{\n  dtype u8\n  {body}\n}}\n");
        assert_eq!(codes(&src), [Code::SizeOverflow], "{body}");
        assert!(
            messages(&src)[0].ends_with("overflow 64 bits"),
            "{:?}",
            messages(&src)
        );
    }
}

#[test]
fn a_graph_whose_flops_do_not_fit_in_all_is_size_overflow() {
    // Each op counts 2^63 FLOPs; the graph 2^64.
    let src = "graph g {\n  param P = 4611686018427387904\n  dtype u8\n  input x: [2]\n  op a = elementwise.f(x, flops = P) -> y\n  op b = elementwise.f(y, flops = P) -> z\n}\n";
    assert_eq!(codes(src), [Code::SizeOverflow]);
    assert_eq!(
        messages(src),
        ["the FLOPs of graph `g` overflow 64 bits in all"]
    );
    // One FLOP less fits, exactly (tests/cost.rs checks the count).
    assert_eq!(codes(&src.replace("flops = P)", "flops = P - 1)")), []);
}

#[test]
fn a_size_overflow_is_reported_once_not_again_as_flops() {
    // 2^63 elements of f32: the bytes do not fit, nor would 8 FLOPs an element; one diagnostic.
    let src = "graph g {\n  input x: u8[281474976710656, 32768]\n  op e = elementwise.gelu(x) -> y: f32[281474976710656, 32768]\n}\n";
    assert_eq!(codes(src), [Code::SizeOverflow]);
    assert!(messages(src)[0].starts_with("size of `y`"));
}

#[test]
fn the_flops_attribute_is_a_whole_number_from_0_to_2_63() {
    for (value, expected) in [
        ("0", vec![]),
        ("20", vec![]),
        ("9223372036854775807", vec![]),
        ("-5", vec![Code::BadAttribute]),
        ("0 - 1", vec![Code::BadAttribute]),
        ("1e300", vec![Code::BadAttribute]),
        ("2.5", vec![Code::BadAttribute]),
        ("2.0", vec![Code::BadAttribute]),
        ("-1e300", vec![Code::BadAttribute]),
        ("[1, 2]", vec![Code::BadAttribute]),
        ("9223372036854775808", vec![Code::SizeOverflow]),
    ] {
        // On a data-movement op as well as a computing one.
        for op in [
            format!("elementwise.f(x, flops = {value})"),
            format!("slice(x, axis = 0, start = 0, end = 1, flops = {value})"),
        ] {
            let src = format!("graph g {{\n  input x: [1]\n  op a = {op} -> y\n}}\n");
            assert_eq!(codes(&src), expected, "{op}");
        }
    }
    assert_eq!(
        messages("graph g {\n  input x: [1]\n  op a = elementwise.f(x, flops = -5) -> y\n}\n"),
        ["attribute `flops` of `a` must be a whole number from 0 to 2^63 - 1, found -5"]
    );
}

#[test]
fn a_reductions_axis_names_axes_of_its_input() {
    for (axis, expected) in [
        ("", vec![]),
        (", axis = -1", vec![]),
        (", axis = 1", vec![]),
        (", axis = -2", vec![]),
        // A softmax works along one axis.
        (", axis = [0, -1]", vec![Code::BadAttribute]),
        (", axis = 2", vec![Code::BadAttribute]),
        (", axis = -3", vec![Code::BadAttribute]),
        (", axis = 1.5", vec![Code::BadAttribute]),
        // Two findings: a list where one axis belongs, and an axis out of range.
        (
            ", axis = [0, 2]",
            vec![Code::BadAttribute, Code::BadAttribute],
        ),
    ] {
        let src = format!(
            "graph g {{\n  input x: [4, 8]\n  op a = reduction.softmax(x{axis}) -> y: [4, 8]\n}}\n"
        );
        assert_eq!(codes(&src), expected, "{axis}");
    }
}

#[test]
fn gather_indices_are_integers() {
    for d in ["i32", "i64", "i16", "i8", "u8"] {
        let src = format!(
            "graph g {{\n  input t: f32[100, 8]\n  input ids: {d}[4]\n  op a = gather(t, ids) -> y\n}}\n"
        );
        assert_eq!(codes(&src), [], "{d}");
    }
    for d in ["f16", "f32", "bf16", "f64", "fp8", "bool"] {
        let src = format!(
            "graph g {{\n  input t: f32[100, 8]\n  input ids: {d}[2, 4]\n  op a = gather(t, ids[1]) -> y\n}}\n"
        );
        assert_eq!(codes(&src), [Code::InvalidDtype], "{d}");
    }
    // The default dtype reaches the ids when they name none.
    let src = "graph g {\n  dtype f16\n  input t: [100, 8]\n  input ids: [4]\n  op a = gather(t, ids) -> y\n}\n";
    assert_eq!(
        messages(src),
        ["the indices `ids` of gather `a` are f16, not integers"]
    );
}

#[test]
fn update_rows_of_another_dtype_warn_and_write_the_buffers_bytes() {
    let src = "graph g {\n  input cache: f32[1, 16, 8]\n  input k: f16[1, 1, 8]\n  op u = update(cache, k, axis = 1, start = 3) -> c2\n  output c2\n}\n";
    let report = check_file("t.fgraph", src.as_bytes(), &Options::default());
    let codes: Vec<Code> = report.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, [Code::DtypeMismatch]);
    assert_eq!(
        report.diagnostics[0].message,
        "update `u` writes f16 rows into the f32 buffer `cache`"
    );
    // 8 elements converted to f32: 32 bytes written, 16 read.
    let a = report.graphs[0].analysis.as_ref().expect("analysis");
    assert_eq!(a.traffic.fused.bytes_written, 32);
    assert_eq!(a.traffic.fused.bytes_read, 16);
    // Into an 8-bit cache: 8 bytes written.
    let fp8 = src.replace("f32[1, 16, 8]", "fp8[1, 16, 8]");
    let report = check_file("t.fgraph", fp8.as_bytes(), &Options::default());
    let a = report.graphs[0].analysis.as_ref().expect("analysis");
    assert_eq!(a.traffic.fused.bytes_written, 8);
    // Meant: an allow comment silences it.
    let allowed = src.replace("  op u", "  // fgraph: allow(dtype-mismatch)\n  op u");
    let report = check_file("t.fgraph", allowed.as_bytes(), &Options::default());
    assert!(report.diagnostics.is_empty(), "{:?}", report.diagnostics);
}

#[test]
fn the_binary_exits_1_on_each_not_0() {
    for (name, src, expected) in [
        (
            "flops.fgraph",
            "graph g {\n  dtype u8\n  input a: [4294967296, 1048576]\n  input b: [1048576, 4096]\n  op m = matmul(a, b) -> y\n}\n",
            "size-overflow",
        ),
        (
            "attr.fgraph",
            "graph g {\n  input a: [4, 8]\n  op e = elementwise.f(a, flops = 1e300) -> y\n}\n",
            "bad-attribute",
        ),
        (
            "ids.fgraph",
            "graph g {\n  input t: f32[100, 8]\n  input ids: f16[4]\n  op a = gather(t, ids) -> y\n}\n",
            "invalid-dtype",
        ),
    ] {
        let path = temp_file_in("numeric-limits", name, src);
        let out = fgraph(&["analyze", "--format", "json", path.to_str().expect("utf-8")]);
        assert_eq!(code(&out), 1, "{name}");
        let json = stdout(&out).replace(' ', "");
        assert!(json.contains(&format!("\"code\":\"{expected}\"")), "{name}");
        // No saturated count reaches a report.
        assert!(!stdout(&out).contains("18446744073709551615"), "{name}");
    }
}
