//! The budget on expanded ops (docs/language.md §13): the ops a graph's blocks would make are
//! counted from the block tree before anything is expanded, whatever form instantiates, and
//! a graph over 2^21 ops is one `limit-exceeded` at the outermost instantiation that crosses
//! it, reported at once; a million-op model still checks. The items the ops hold (arguments,
//! expression terms) are counted alongside and held to 2^25 the same way.

use fgraph::{Options, check_file};
use std::time::{Duration, Instant};

const LEAF: &str =
    "block b0() {\n  input x: [4, 4]\n  op a = elementwise.gelu(x) -> y\n  output y\n}\n";

/// The file's diagnostics, checked within a second (a debug build).
fn checked(src: &str) -> Vec<fgraph::Diagnostic> {
    let start = Instant::now();
    let r = check_file("m.fgraph", src.as_bytes(), &Options::default());
    let took = start.elapsed();
    assert!(took < Duration::from_secs(1), "took {took:?}");
    r.diagnostics
}

/// The one `limit-exceeded` of `src`, whose message names the count and the limit, at the
/// text `at` of the source.
fn over_budget(src: &str, count: &str, at: &str) {
    let (message, place) = over_limit(src);
    assert_eq!(
        message,
        format!("expanding this graph would make {count} ops, over the limit of 2,097,152"),
    );
    let start = src.find(at).expect("the crossing instantiation");
    assert_eq!(place.as_ptr(), src[start..].as_ptr(), "{place}");
}

/// The one diagnostic of `src`, a `limit-exceeded`: its message and the source at its place.
fn over_limit(src: &str) -> (String, &str) {
    let diags = checked(src);
    let over: Vec<_> = diags
        .iter()
        .filter(|d| d.code.as_str() == "limit-exceeded")
        .collect();
    assert_eq!(over.len(), 1, "{diags:#?}");
    assert!(
        diags.iter().all(|d| d.code.as_str() == "limit-exceeded"),
        "nothing else is reported: {diags:#?}"
    );
    let span = over[0].primary.as_ref().expect("a place").span;
    (over[0].message.clone(), &src[span.start..span.end])
}

/// Blocks `b1..=levels`, each instantiating the one below twice (plain instantiations).
fn doubling(levels: usize) -> String {
    let mut s = String::from(LEAF);
    for i in 1..=levels {
        let p = i - 1;
        s += &format!(
            "block b{i}() {{\n  input x: [4, 4]\n  op l = b{p}(x) -> m\n  op r = b{p}(m) -> y\n  output y\n}}\n"
        );
    }
    s
}

#[test]
fn blocks_doubling_forty_levels_are_counted_not_expanded() {
    let src =
        doubling(40) + "graph g {\n  input x: [4, 4]\n  op top = b40(x) -> y\n  output y\n}\n";
    assert!(src.len() < 4096);
    over_budget(&src, "1,099,511,627,776", "op top");
}

#[test]
fn nested_repeats_five_deep() {
    let mut src = String::from(LEAF);
    for i in 1..=4 {
        let p = i - 1;
        src += &format!(
            "block b{i}() {{\n  input x: [4, 4]\n  repeat 1000 l = b{p}(x) -> y\n  output y\n}}\n"
        );
    }
    src += "graph g {\n  input x: [4, 4]\n  repeat 1000 top = b4(x) -> y\n  output y\n}\n";
    over_budget(&src, "1,000,000,000,000,000", "repeat 1000 top");
}

#[test]
fn a_repeat_within_the_statement_limit_but_over_the_ops_budget() {
    let src = format!(
        "{LEAF}graph g {{\n  param N = 3300000\n  input x: [4, 4]\n  repeat N top = b0(x) -> y\n  output y\n}}\n"
    );
    over_budget(&src, "3,300,000", "repeat N top");
}

#[test]
fn a_plain_chain_reports_the_first_instantiation_that_crosses() {
    // b12 makes 4,096 ops; the 513th instance crosses 2^21.
    let mut src = doubling(12) + "graph g {\n  input x0: [4, 4]\n";
    for i in 0..600 {
        src += &format!("  op i{i} = b12(x{i}) -> x{}\n", i + 1);
    }
    src += "  output x600\n}\n";
    over_budget(&src, "2,457,600", "op i512 ");
}

#[test]
fn counts_saturate() {
    // 3^45 ops, more than 2^64: the count saturates, and says so.
    let mut src = String::from(LEAF);
    for i in 1..=45 {
        let p = i - 1;
        src += &format!(
            "block b{i}() {{\n  input x: [4, 4]\n  op a = b{p}(x) -> m\n  op b = b{p}(m) -> n\n  op c = b{p}(n) -> y\n  output y\n}}\n"
        );
    }
    src += "graph g {\n  input x: [4, 4]\n  op top = b45(x) -> y\n  output y\n}\n";
    over_budget(&src, "more than 18,446,744,073,709,551,615", "op top");
}

#[test]
fn a_count_that_depends_on_a_block_param_is_checked_with_its_value() {
    // Counted with the default (1), then again with the value given at the instantiation.
    let src = format!(
        "{LEAF}block many(N = 1) {{\n  input x: [4, 4]\n  repeat N l = b0(x) -> y\n  output y\n}}\n\
         graph g {{\n  input x: [4, 4]\n  op top = many(x, N = 3000000) -> y\n  output y\n}}\n"
    );
    let diags = checked(&src);
    let over: Vec<_> = diags
        .iter()
        .filter(|d| d.code.as_str() == "limit-exceeded")
        .collect();
    assert_eq!(over.len(), 1, "{diags:#?}");
    assert!(over[0].message.contains("3,000,000 ops"), "{diags:#?}");
}

#[test]
fn a_million_op_repeat_still_checks() {
    let src = format!(
        "{LEAF}graph g {{\n  input x: [4, 4]\n  repeat 1000000 top = b0(x) -> y\n  output y\n}}\n"
    );
    let r = check_file("m.fgraph", src.as_bytes(), &Options::default());
    assert!(
        r.diagnostics.iter().all(|d| !d.is_error()),
        "{:#?}",
        &r.diagnostics[..r.diagnostics.len().min(5)]
    );
    assert_eq!(r.graphs[0].instances.len(), 1_000_000);
}

/// A block whose `concat` holds 1,000 tensor arguments: 1,016 items an instance (two `dtype`
/// resets, the bound input and its two dimensions, the `concat` with its arguments and
/// `axis`, the `slice` with its argument and three attributes).
fn wide() -> String {
    let args = vec!["x"; 1000].join(", ");
    format!(
        "block wide() {{\n  input x: [4, 4]\n  op c = concat({args}, axis = 0) -> w\n  \
         op s = slice(w, axis = 0, start = 0, end = 4) -> y\n  output y\n}}\n"
    )
}

#[test]
fn ops_holding_many_arguments_are_counted_by_what_they_hold() {
    // 1,000,000 ops, within the ops budget; 508 million items.
    let src = wide()
        + "graph g {\n  input x: [4, 4]\n  repeat 500000 layers = wide(x) -> y\n  output y\n}\n";
    let (message, at) = over_limit(&src);
    assert_eq!(
        message,
        "expanding this graph would make 508,000,005 arguments and expression terms, over the \
         limit of 33,554,432"
    );
    assert!(at.starts_with("repeat 500000 layers"), "{at}");
}

#[test]
fn items_of_a_count_given_at_the_instantiation_are_counted_with_it() {
    // Counted with the default (1), then with the value passed: 40,000 instances of `wide`.
    let src = wide()
        + "block many(N = 1) {\n  input x: [4, 4]\n  repeat N l = wide(x) -> y\n  output y\n}\n\
           graph g {\n  input x: [4, 4]\n  op top = many(x, N = 40000) -> y\n  output y\n}\n";
    let (message, at) = over_limit(&src);
    assert!(
        message.starts_with("expanding this graph would make 40,6"),
        "{message}"
    );
    assert!(at.starts_with("op top"), "{at}");
}

#[test]
fn ops_holding_many_arguments_within_the_items_limit_still_check() {
    // 2,000 instances: about 2 million items.
    let src = wide()
        + "graph g {\n  input x: [4, 4]\n  repeat 2000 layers = wide(x) -> y\n  output y\n}\n";
    let r = check_file("m.fgraph", src.as_bytes(), &Options::default());
    assert!(r.diagnostics.is_empty(), "{:#?}", r.diagnostics);
    assert_eq!(r.graphs[0].instances.len(), 2000);
}

#[test]
fn a_warning_in_each_of_twenty_thousand_instances_is_reported_once() {
    // Each instance's unused weight is one finding, named as the block names it, with the
    // repeat labelled; finding each copy's instance is a lookup, not a scan of the instances.
    let src = "block b() {\n  input x: [4]\n  weight w: [4]\n  op r = elementwise.relu(x) -> y\n  output y\n}\n\
               graph g {\n  input x: [4]\n  repeat 20000 layers = b(x) -> y\n  output y\n}\n";
    let r = check_file("m.fgraph", src.as_bytes(), &Options::default());
    assert_eq!(r.diagnostics.len(), 1, "{:#?}", r.diagnostics);
    let d = &r.diagnostics[0];
    assert_eq!(d.code.as_str(), "unused-tensor");
    assert_eq!(d.message, "tensor `w` is declared but never used");
    let labels: Vec<_> = d.secondary.iter().map(|l| l.message.as_str()).collect();
    assert_eq!(labels, ["in instance 0 of this repeat of `b`"]);
    assert_eq!(r.graphs[0].instances.len(), 20_000);
}
