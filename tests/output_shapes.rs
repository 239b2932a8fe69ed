//! Every op's output shape is inferred and compared with a declared one (issue 22 item 2):
//! reductions by their function, `axis` and `keepdim`; the data-movement ops by their
//! attributes. A declaration is optional wherever the shape can be inferred, and one that
//! disagrees is `shape-mismatch` at the declaration.

use fgraph::{Code, Options, check_file};

/// The codes of a graph with inputs `x: [4, 8, 16]` and `w: [16]` and the ops `body`, but
/// for inputs left unused.
fn codes(body: &str) -> Vec<Code> {
    let src = format!("graph g {{\n  input x: [4, 8, 16]\n  input w: [16]\n{body}\n}}\n");
    let report = check_file("t.fgraph", src.as_bytes(), &Options::default());
    report
        .diagnostics
        .iter()
        .map(|d| d.code)
        .filter(|&c| c != Code::UnusedTensor)
        .collect()
}

/// The shape of `y`, declared by none, in a clean graph.
fn inferred(body: &str) -> Vec<u64> {
    let src = format!("graph g {{\n  input x: [4, 8, 16]\n  input w: [16]\n{body}\n}}\n");
    let report = check_file("t.fgraph", src.as_bytes(), &Options::default());
    let errors: Vec<_> = report
        .diagnostics
        .iter()
        .filter(|d| d.code != Code::UnusedTensor)
        .collect();
    assert!(errors.is_empty(), "{body}: {errors:?}");
    let a = report.graphs[0].analysis.as_ref().expect("analysis");
    let t = a.graph.tensors.iter().find(|t| t.name == "y").expect("y");
    t.shape.to_vec()
}

const MISMATCH: &[Code] = &[Code::ShapeMismatch];

#[test]
fn a_reduction_infers_its_shape_from_its_function() {
    for (op, shape) in [
        ("reduction.softmax(x, axis = -1)", &[4, 8, 16][..]),
        ("reduction.log_softmax(x)", &[4, 8, 16]),
        ("reduction.rmsnorm(x, w, eps = 1e-5)", &[4, 8, 16]),
        ("reduction.layernorm(x, w, w, axis = -1)", &[4, 8, 16]),
        ("reduction.sum(x, axis = -1)", &[4, 8]),
        ("reduction.mean(x, axis = 1)", &[4, 16]),
        ("reduction.max(x, axis = [0, -1])", &[8]),
        ("reduction.max(x, axis = [-1, 0])", &[8]),
        ("reduction.sum(x, axis = -1, keepdim = 1)", &[4, 8, 1]),
        ("reduction.sum(x, axis = -1, keepdim = 0)", &[4, 8]),
        ("reduction.sum(x)", &[]),
        ("reduction.sum(x, keepdim = 1)", &[1, 1, 1]),
        ("reduction.topk(x, k = 3)", &[4, 8, 3]),
        ("reduction.topk(x, k = 3, axis = 0)", &[3, 8, 16]),
    ] {
        assert_eq!(inferred(&format!("  op r = {op} -> y")), shape, "{op}");
    }
}

#[test]
fn a_declared_reduction_shape_must_be_the_inferred_one() {
    for (op, decl, ok) in [
        ("reduction.softmax(x, axis = -1)", "[4, 8, 16]", true),
        ("reduction.softmax(x, axis = -1)", "[4, 16, 8]", false),
        ("reduction.rmsnorm(x, w)", "[4, 8]", false),
        // Without keepdim: dropped or kept as 1.
        ("reduction.sum(x, axis = -1)", "[4, 8]", true),
        ("reduction.sum(x, axis = -1)", "[4, 8, 1]", true),
        ("reduction.sum(x, axis = -1)", "[4, 16]", false),
        ("reduction.sum(x, axis = -1)", "[4, 1, 8]", false),
        ("reduction.sum(x, axis = [0, 2])", "[8]", true),
        ("reduction.sum(x, axis = [0, 2])", "[1, 8, 1]", true),
        // Not one axis dropped and another kept.
        ("reduction.sum(x, axis = [0, 2])", "[8, 1]", false),
        // keepdim decides.
        (
            "reduction.sum(x, axis = -1, keepdim = 1)",
            "[4, 8, 1]",
            true,
        ),
        ("reduction.sum(x, axis = -1, keepdim = 1)", "[4, 8]", false),
        ("reduction.sum(x, axis = -1, keepdim = 0)", "[4, 8]", true),
        (
            "reduction.sum(x, axis = -1, keepdim = 0)",
            "[4, 8, 1]",
            false,
        ),
        // No axis: every axis.
        ("reduction.mean(x)", "[]", true),
        ("reduction.mean(x)", "[1, 1, 1]", true),
        ("reduction.mean(x)", "[4, 8]", false),
        ("reduction.mean(x)", "[4, 8, 1]", false),
        ("reduction.topk(x, k = 2)", "[4, 8, 2]", true),
        ("reduction.topk(x, k = 2)", "[4, 8, 16]", false),
        ("reduction.topk(x, k = 2, axis = 1)", "[4, 2, 16]", true),
    ] {
        let got = codes(&format!("  op r = {op} -> y: {decl}"));
        let want: &[Code] = if ok { &[] } else { MISMATCH };
        assert_eq!(got, want, "{op} -> {decl}");
    }
}

#[test]
fn only_an_unknown_function_takes_its_shape_as_declared() {
    // Opaque: the declared shape stands, whatever it is; without one, missing-shape.
    assert_eq!(
        codes("  op r = reduction.sort(x, flops = 1) -> y: [3, 3]"),
        []
    );
    assert_eq!(
        codes("  op r = reduction.sort(x, flops = 1) -> y"),
        [Code::MissingShape]
    );
    // The seed's form: the same.
    assert_eq!(codes("  op r = reduction(x) -> y: [4]"), []);
    assert_eq!(codes("  op r = reduction(x) -> y"), [Code::MissingShape]);
    // A misspelt function is reported once, and nothing else of its output.
    assert_eq!(
        codes("  op r = reduction.sofmax(x) -> y"),
        [Code::UnknownFunction]
    );
    assert_eq!(
        codes("  op r = reduction.sofmax(x) -> y: [2]"),
        [Code::UnknownFunction]
    );
}

#[test]
fn bad_axes_are_reported_once_and_the_declaration_stands() {
    for (op, want) in [
        (
            "reduction.sum(x, axis = 3) -> y: [4]",
            &[Code::BadAttribute][..],
        ),
        (
            "reduction.sum(x, axis = [1, 1]) -> y: [4]",
            &[Code::BadAttribute],
        ),
        (
            "reduction.sum(x, axis = [1, -2]) -> y: [4]",
            &[Code::BadAttribute],
        ),
        (
            "reduction.sum(x, axis = []) -> y: [4]",
            &[Code::BadAttribute],
        ),
        (
            "reduction.sum(x, axis = 1.5) -> y: [4]",
            &[Code::BadAttribute],
        ),
        (
            "reduction.sum(x, axis = -1, keepdim = 2) -> y: [4, 8]",
            &[Code::BadAttribute],
        ),
        (
            "reduction.softmax(x, axis = [0, 1]) -> y: [4, 8, 16]",
            &[Code::BadAttribute],
        ),
        (
            "reduction.topk(x, axis = [0, 1], k = 2) -> y: [4]",
            &[Code::BadAttribute],
        ),
        (
            "reduction.topk(x, k = 17) -> y: [4, 8, 17]",
            &[Code::BadAttribute],
        ),
        (
            "reduction.topk(x, k = 0) -> y: [4, 8, 1]",
            &[Code::BadAttribute],
        ),
        ("reduction.topk(x) -> y: [4, 8, 1]", &[Code::BadAttribute]),
        // Without a declaration, nothing more.
        ("reduction.sum(x, axis = 3) -> y", &[Code::BadAttribute]),
        ("reduction.topk(x, k = 17) -> y", &[Code::BadAttribute]),
    ] {
        assert_eq!(codes(&format!("  op r = {op}")), want, "{op}");
    }
}

/// The case: a permute with two dims swapped, hidden by the softmax's declared shape.
#[test]
fn a_swapped_permute_before_a_softmax_is_reported_at_the_softmax() {
    let body = "  op h = permute(x, dims = [0, 1, 2]) -> xh\n  \
                op p = reduction.softmax(xh, axis = -1) -> y: [8, 4, 16]";
    assert_eq!(codes(body), MISMATCH);
    let fixed = "  op h = permute(x, dims = [1, 0, 2]) -> xh\n  \
                 op p = reduction.softmax(xh, axis = -1) -> y: [8, 4, 16]";
    assert_eq!(codes(fixed), []);
}

/// Every data-movement op with an inferred shape compares a declared one.
#[test]
fn data_movement_ops_compare_a_declared_shape() {
    let ids = "  input ids: i32[5]\n";
    for (op, good, bad) in [
        (
            "slice(x, axis = 1, start = 0, end = 4)",
            "[4, 4, 16]",
            "[4, 8, 16]",
        ),
        ("concat(x, x, axis = 0)", "[8, 8, 16]", "[4, 16, 16]"),
        ("permute(x, dims = [2, 0, 1])", "[16, 4, 8]", "[16, 8, 4]"),
        ("gather(x, ids)", "[5, 8, 16]", "[4, 8, 16]"),
        (
            "update(x, x, axis = 0, start = 0)",
            "[4, 8, 16]",
            "[4, 8, 8]",
        ),
        ("expand(w)", "[3, 16]", "[3, 8]"),
        ("reshape(x)", "[32, 16]", "[32, 8]"),
    ] {
        assert_eq!(
            codes(&format!("{ids}  op o = {op} -> y: {good}")),
            [],
            "{op}"
        );
        assert_eq!(
            codes(&format!("{ids}  op o = {op} -> y: {bad}")),
            MISMATCH,
            "{op} -> {bad}"
        );
    }
}
