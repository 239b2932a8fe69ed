//! The memory bound of issue 21: a model written with a `repeat` is checked under `ulimit -v`
//! (the address space: the heap, the CLI's 256 MiB stack, threads' stacks and the
//! allocator's arenas all count), so that memory per expanded op stays where
//! docs/ROBUSTNESS.md ("Memory per expanded op") puts it. The file is `LAYERS` Llama-3 decoder
//! layers (examples/llama3_8b.fgraph with examples/lib/llama3.fgraph copied in: 39 ops each),
//! as scripts/gen_repeat.py writes it. Before the expanded graph was kept as items (issue 21),
//! this file needed between 1,000,000 and 1,100,000 KiB of address space in a release build;
//! a debug build checked it within 700,000 KiB, and within 600,000 once shapes and attributes
//! were shared (it fails at 550,000); the limit is 665,600 (650 MiB). The
//! million-op and 2^21-op figures under 3 GiB are measured by hand with a release build (the
//! commands are in docs/ROBUSTNESS.md).

mod common;

use common::{code, root, stderr, stdout, temp_file_in};
use std::process::Command;

/// 299,988 expanded ops.
const LAYERS: usize = 7_692;
/// The address space allowed, in KiB (`ulimit -v`).
const LIMIT_KIB: u64 = 650 * 1024;

/// The model of scripts/gen_repeat.py: the decoder layer's blocks and a graph repeating it.
fn model(layers: usize) -> String {
    let read = |p: &str| std::fs::read_to_string(root().join(p)).expect("example");
    let lib = read("examples/lib/llama3.fgraph");
    let top = read("examples/llama3_8b.fgraph");
    let start = top.find("block decoder").expect("the decoder block");
    let end = start + top[start..].find("\n}\n").expect("its end") + 3;
    let mut s: String = lib
        .lines()
        .filter(|l| !l.starts_with("import"))
        .map(|l| format!("{l}\n"))
        .collect();
    s += "\n";
    s += &top[start..end];
    s += &format!(
        "\ngraph g {{\n  param S = 16\n  dtype bf16\n  input x: [S, 4096]\n  input cos: [S, 128]\n  \
         input sin: [S, 128]\n  repeat {layers} layers = decoder(x, cos, sin, S = S) -> h\n  \
         output h\n}}\n"
    );
    s
}

#[cfg(target_os = "linux")]
#[test]
fn a_300k_op_repeat_checks_within_650_mib_of_address_space() {
    let file = temp_file_in("memory-bound", "repeat.fgraph", &model(LAYERS));
    let bin = env!("CARGO_BIN_EXE_fgraph");
    let o = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v {LIMIT_KIB} && exec '{bin}' check '{}'",
            file.display()
        ))
        .current_dir(root())
        .env("NO_COLOR", "1")
        .output()
        .expect("run sh");
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    assert!(stderr(&o).contains("All checks passed"), "{}", stderr(&o));
}

/// The file is the model the figures are about: it checks, with the expected number of ops.
#[test]
fn the_model_has_39_ops_a_layer() {
    let r = fgraph::check_file("m.fgraph", model(2).as_bytes(), &fgraph::Options::default());
    assert!(!r.has_errors(), "{:#?}", r.diagnostics);
    let a = r.graphs[0].analysis.as_ref().expect("analysed");
    assert_eq!(a.graph.ops.len(), 78);
}
