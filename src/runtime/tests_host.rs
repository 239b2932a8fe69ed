//! Unit tests of the compiled step's host time per kernel by the kind of graph
//! (`model.host.runtime_compile_conv_graph_us`, VALIDATION.md §51).

use super::tests::{h100_host, run};
use super::*;

fn graph(groups: u64) -> String {
    format!(
        "graph g {{\n  input x: f16[1, 32, 8, 8]\n  weight w: f16[32, {}, 3, 3]\n  \
         op c = conv(x, w, padding = 1, groups = {groups}, channels_last = true) -> y: [1, 32, 8, 8]\n  \
         op r = elementwise.relu(y) -> z\n  output z\n}}\n",
        32 / groups
    )
}

#[test]
fn a_compiled_graph_with_a_convolution_takes_its_own_host_figure() {
    let (hw, host) = h100_host();
    let (conv, plain) = (
        host.runtime_compile_conv_graph_us.expect("conv graph"),
        host.runtime_compile_us.expect("compile"),
    );
    // The compiled ResNets and SD blocks took 3.0-3.4 probes a CUDA kernel, the transformers
    // 2.3-2.6.
    assert!(conv > plain * 1.2, "{conv} {plain}");
    for (groups, runtime, want, key) in [
        (1, Runtime::Compile, conv, "runtime_compile_conv_graph_us"),
        (32, Runtime::Compile, plain, "runtime_compile_us"),
        (
            1,
            Runtime::Eager,
            host.runtime_eager_us.expect("eager"),
            "runtime_eager_us",
        ),
    ] {
        let (a, _) = run(&graph(groups), runtime);
        assert_eq!(conv_graph(&a.graph), groups == 1);
        let e = estimate(&a, &hw, LaunchMode::Eager, runtime).expect("estimate");
        assert_eq!(e.host_s, Some(want * 1e-6), "groups {groups} {runtime:?}");
        // The report names the figure it used.
        assert_eq!(e.host_key, Some(key));
    }
    // `--host-probe-us` scales it as it scales the others.
    let m = hw.model.as_ref().expect("model");
    let probe = host.probe_us.expect("probe");
    let scaled = m.with_host_probe(probe * 1.5).expect("scaled");
    let h = scaled.host.expect("host");
    let got = h.runtime_compile_conv_graph_us.expect("conv graph");
    assert!((got - conv * 1.5).abs() < 1e-9, "{got}");
}
