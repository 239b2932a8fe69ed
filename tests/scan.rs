//! The scans (issue 23 item 4): `selective_scan` (Mamba's fused kernel) and
//! `associative_scan`. Their shapes are inferred, their errors say what is wrong, and their
//! FLOPs and bytes agree with figures worked out by hand.

use fgraph::{Code, Options, check_file};

/// A Mamba-like graph: `u`, `dt`, `z` bf16 `[2, 64, 128]`, `A` f32 `[64, 16]`, `B`, `C` bf16
/// `[2, 16, 128]`, `D`, `dtb` f32 `[64]`, and the ops `body`.
fn src(body: &str) -> String {
    format!(
        "graph g {{\n  dtype bf16\n  input u: [2, 64, 128]\n  input dt: [2, 64, 128]\n  \
         input z: [2, 64, 128]\n  weight A: f32[64, 16]\n  input B: [2, 16, 128]\n  \
         input C: [2, 16, 128]\n  weight D: f32[64]\n  weight dtb: f32[64]\n{body}\n}}\n"
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

/// (FLOPs, bytes read, bytes written) of the kernel holding op `name`, on the H100 preset.
fn kernel(a: &fgraph::analysis::Analysis, name: &str) -> (u64, u64, u64) {
    let hw = fgraph::Hardware::preset("h100").expect("preset");
    let cost = fgraph::cost::estimate(a, &hw, fgraph::LaunchMode::Graph).expect("cost");
    let k = a
        .plan
        .groups
        .iter()
        .position(|g| g.ops.iter().any(|&o| a.graph.op(o).name == name))
        .expect(name);
    let t = &a.traffic.groups[k];
    (cost.fused.kernels[k].flops, t.bytes_read, t.bytes_written)
}

#[test]
fn selective_scan_flops_and_bytes_by_hand() {
    let a = analysis(
        "  op full = selective_scan(u, dt, A, B, C, D, z, dtb, delta_softplus = true) -> y\n\
         op bare = selective_scan(u, dt, A, B, C) -> y0\n\
         op skip = selective_scan(u, dt, A, B, C, D) -> y1\n\
         op gated = selective_scan(u, dt, A, B, C, D, z) -> y2\n\
         output y, y0, y1, y2",
    );
    let y = a.graph.tensors.iter().find(|t| t.name == "y").expect("y");
    assert_eq!(
        (y.shape.to_vec(), y.dtype.to_string()),
        (vec![2, 64, 128], "bf16".into())
    );
    // (b, d, l) = 2·64·128 = 16,384; N = 16.
    let bdl = 2 * 64 * 128;
    // Mamba's use: 7·16 + 1 (delta·u) + 2 (skip) + 5 (gate) + 1 (bias) + 1 (softplus) = 122.
    // Reads: u, dt, z 3·16,384·2 = 98,304 B; A 64·16·4 = 4,096; B, C 2·2·16·128·2 = 16,384;
    // D, dtb 2·64·4 = 512: 119,296 B. Writes y: 32,768 B.
    assert_eq!(kernel(&a, "full"), (bdl * 122, 119_296, 32_768));
    // No optional input: 7·16 + 1 = 113; reads u, dt, A, B, C: 65,536 + 4,096 + 16,384.
    assert_eq!(kernel(&a, "bare"), (bdl * 113, 86_016, 32_768));
    // The skip: + 2 FLOPs, + 256 B (D).
    assert_eq!(kernel(&a, "skip"), (bdl * 115, 86_272, 32_768));
    // The gate: + 5 FLOPs, + 32,768 B (z).
    assert_eq!(kernel(&a, "gated"), (bdl * 120, 119_040, 32_768));
}

#[test]
fn selective_scan_takes_grouped_b_and_c_and_ends_its_kernel() {
    // B and C with 4 groups dividing D = 64; a softplus written before it fuses as a
    // prologue (the scan is a reduction), the gate after it does not.
    let a = analysis(
        "  input Bg: [2, 4, 16, 128]\n  input Cg: [2, 4, 16, 128]\n\
         op sp = elementwise.softplus(dt) -> dts\n\
         op s = selective_scan(u, dts, A, Bg, Cg) -> y\n\
         op g = elementwise.mul(y, z) -> out\n\
         output out",
    );
    assert_eq!(a.plan.groups.len(), 2);
    let (flops, read, _) = kernel(&a, "s");
    // softplus 16,384 + scan 16,384·113; reads u, dt (not dts), A, Bg, Cg (2·2·4·16·128·2).
    assert_eq!(flops, 16_384 + 16_384 * 113);
    assert_eq!(read, 65_536 + 4_096 + 65_536);
    assert_eq!(kernel(&a, "sp"), kernel(&a, "s"));
}

#[test]
fn selective_scan_errors() {
    use Code::*;
    // Each argument that does not fit is its own error.
    assert_eq!(
        codes(
            "  input bad: [2, 64, 127]\n  weight A2: f32[32, 16]\n\
             op s = selective_scan(u, bad, A2, B, C, D, bad) -> y"
        ),
        vec![ShapeMismatch, ShapeMismatch, ShapeMismatch]
    );
    // B with another state size than A's N; a group count that does not divide D.
    assert_eq!(
        codes(
            "  input B8: [2, 8, 128]\n  input Cg: [2, 3, 16, 128]\n\
             op s = selective_scan(u, dt, A, B8, Cg) -> y"
        ),
        vec![ShapeMismatch, ShapeMismatch]
    );
    // u not [B, D, L].
    assert_eq!(
        codes("  input u2: [64, 128]\n  op s = selective_scan(u2, dt, A, B, C) -> y"),
        vec![ShapeMismatch]
    );
    // Too few tensors, too many.
    assert_eq!(
        codes("  op s = selective_scan(u, dt, A, B) -> y"),
        vec![Arity]
    );
    assert_eq!(
        codes("  op s = selective_scan(u, dt, A, B, C, D, z, dtb, dtb) -> y"),
        vec![Arity]
    );
    // Dtypes: A, D, delta_bias f32; delta, B, C, z of u's; u f32, f16 or bf16.
    assert_eq!(
        codes(
            "  weight A16: [64, 16]\n  input B32: f32[2, 16, 128]\n\
             op s = selective_scan(u, dt, A16, B32, C, D, z, D) -> y"
        ),
        vec![InvalidDtype, InvalidDtype]
    );
    assert_eq!(
        codes(
            "  input ui: i32[2, 64, 128]\n  op s = selective_scan(ui, dt, A, B, C) -> y: bf16[2, 64, 128]"
        ),
        vec![InvalidDtype]
    );
    // Attributes: `delta_softplus` is a boolean; nothing else.
    assert_eq!(
        codes("  op s = selective_scan(u, dt, A, B, C, delta_softplus = 3, axis = 1) -> y"),
        vec![BadAttribute, BadAttribute]
    );
    // A declared output that disagrees.
    assert_eq!(
        codes("  op s = selective_scan(u, dt, A, B, C) -> y: [2, 64, 64]"),
        vec![ShapeMismatch]
    );
}

#[test]
fn associative_scan_flops_shapes_and_errors() {
    let a = analysis(
        "  op c = associative_scan.add(u, axis = -1) -> s\n\
         op cs = cumsum(u, axis = -1) -> s2\n\
         op m = associative_scan.MAX(u, axis = 1) -> mx\n\
         op l = associative_scan.linear(dt, u) -> h\n\
         op o = associative_scan.lse(u, flops = 4) -> ls\n\
         output s, s2, mx, h, ls",
    );
    // add is cumsum: 1 FLOP per element (16,384), the same bytes (32,768 each way).
    assert_eq!(kernel(&a, "c"), (16_384, 32_768, 32_768));
    assert_eq!(kernel(&a, "c"), kernel(&a, "cs"));
    assert_eq!(kernel(&a, "m").0, 16_384);
    // linear: 2 per element; reads both tensors.
    assert_eq!(kernel(&a, "l"), (2 * 16_384, 65_536, 32_768));
    // An opaque combine at its stated cost.
    assert_eq!(kernel(&a, "o").0, 4 * 16_384);
    use Code::*;
    assert_eq!(
        codes("  op c = associative_scan(u) -> s"),
        vec![UnknownFunction]
    );
    assert_eq!(
        codes("  op c = associative_scan.sum(u) -> s"),
        vec![UnknownFunction]
    );
    assert_eq!(
        codes("  op c = associative_scan.linear(u) -> s"),
        vec![Arity]
    );
    assert_eq!(
        codes("  input w: [2, 64, 1]\n  op c = associative_scan.linear(w, u) -> s"),
        vec![ShapeMismatch]
    );
    assert_eq!(
        codes("  op c = associative_scan.add(u, axis = 3) -> s"),
        vec![BadAttribute]
    );
    assert_eq!(
        codes("  op c = associative_scan.add(u, keepdim = true) -> s"),
        vec![BadAttribute]
    );
    // Two dtypes in one linear scan: the elementwise ops' warning.
    assert_eq!(
        codes(
            "  op c = associative_scan.linear(A, A) -> s\n  op d = associative_scan.linear(u, z) -> t\n  input f: f32[2, 64, 128]\n  op e = associative_scan.linear(f, u) -> v"
        ),
        vec![DtypeMismatch]
    );
}

/// fmt leaves the scans as written, and formatting twice changes nothing.
#[test]
fn fmt_round_trip() {
    let text = src(
        "  op s = selective_scan(u, dt, A, B, C, D, z, dtb, delta_softplus = true) -> y\n  \
         op c = associative_scan.linear(dt, u, axis = -1) -> h\n  output y, h",
    );
    let formatted = fgraph::format::format_source(&text).expect("formats");
    assert!(
        formatted.contains(
            "op s = selective_scan(u, dt, A, B, C, D, z, dtb, delta_softplus = true) -> y"
        )
    );
    assert!(formatted.contains("op c = associative_scan.linear(dt, u, axis = -1) -> h"));
    assert_eq!(
        fgraph::format::format_source(&formatted).expect("formats"),
        formatted
    );
}

/// The `scan` family of the hardware model: in both H100 presets, range-checked, and its
/// prediction for Mamba-130m's scan (B 1, D 1536, L 2048, N 16, bf16) worked out by hand.
#[test]
fn the_scan_family_prices_both_scans() {
    let hw = fgraph::Hardware::preset("h100").expect("preset");
    let m = hw.model.clone().expect("model");
    let s = m.scan.clone().expect("model.scan");
    for name in ["h100", "h100-measured"] {
        let other = fgraph::Hardware::preset(name)
            .and_then(|h| h.model)
            .expect("model");
        assert_eq!(other.scan.as_ref(), Some(&s), "{name}");
        other.validate().expect("in range");
    }
    let mut bad = m.clone();
    bad.scan.as_mut().expect("scan").selective.elements_per_s = 0.0;
    let e = bad.validate().expect_err("out of range");
    assert!(e.contains("model.scan.selective.elements_per_s"), "{e}");

    let text = "graph g {\n  dtype bf16\n  input u: [1, 1536, 2048]\n  input dt: [1, 1536, 2048]\n  \
                input z: [1, 1536, 2048]\n  weight A: f32[1536, 16]\n  input B: [1, 16, 2048]\n  \
                input C: [1, 16, 2048]\n  weight D: f32[1536]\n  weight dtb: f32[1536]\n  \
                op s = selective_scan(u, dt, A, B, C, D, z, dtb, delta_softplus = true) -> y\n  \
                op c = associative_scan.linear(u, dt) -> h\n  output y, h\n}\n";
    let r = check_file("t.fgraph", text.as_bytes(), &Options::default());
    assert!(r.diagnostics.is_empty(), "{:#?}", r.diagnostics);
    let a = r.graphs[0].analysis.as_ref().expect("analysis");
    let p: Vec<_> = a
        .plan
        .groups
        .iter()
        .zip(&a.traffic.groups)
        .map(|(grp, tr)| fgraph::cost::hwmodel::predict(&m, &a.graph, &grp.ops, tr, None, &hw, 0.0))
        .collect();
    let act = 1536.0 * 2048.0 * 2.0; // one [1, 1536, 2048] bf16 tensor: 6,291,456 B
    // Reads: u, dt, z, A (98,304), B and C (65,536 each), D and dtb (6,144 each).
    assert_eq!(
        p[0].dram_read,
        3 * 6_291_456 + 98_304 + 2 * 65_536 + 2 * 6_144
    );
    // Writes: y, the ungated output, and one f32 pair per (d, n) for the one chunk of 2,048.
    assert_eq!(p[0].dram_written, 2 * 6_291_456 + 1536 * 16 * 8);
    // Compute: 1536 · 2048 · 16 = 50,331,648 updates at batch i's fitted 8.18e11/s = 61.53 µs
    // (mamba_ssm's kernel), above the memory time ((19.1 + 12.8) MB / (3.35 TB/s · 0.5) =
    // 19.0 µs); no start-up fitted.
    let compute = 1536.0 * 2048.0 * 16.0 / s.selective.elements_per_s;
    assert!((p[0].compute_s - compute).abs() < 1e-12, "{:?}", p[0]);
    assert!((compute - 61.53e-6).abs() < 0.01e-6, "{compute}");
    assert!(
        (p[0].kernel_s - (compute + s.selective.overhead_us * 1e-6)).abs() < 1e-9,
        "{:?}",
        p[0]
    );
    assert_eq!(p[0].family.as_str(), "selective_scan");
    // The linear scan along axis -1 of [1, 1536, 2048] (rows of 2048: 1536 of them):
    // 2 FLOPs per element, at min(3.76e11, 1536 rows · 2.51e9) = 3.76e11 one-FLOP
    // combines/s: 2 · 3,145,728 / 3.76e11 = 16.73 µs, above its memory time (3 tensors /
    // (3.35 TB/s · 0.9) = 6.26 µs).
    assert_eq!(p[1].family.as_str(), "associative_scan");
    let rate = s
        .associative
        .elements_per_s
        .min(1536.0 * s.associative_row_flops_per_s.expect("row rate"));
    let compute = 2.0 * 1536.0 * 2048.0 / rate;
    assert!((compute - 16.73e-6).abs() < 0.01e-6, "{compute}");
    let memory = 3.0 * act / (hw.bandwidth * s.associative.bandwidth_efficiency);
    assert!(memory < compute);
    assert!(
        (p[1].kernel_s - (compute + s.associative.overhead_us * 1e-6)).abs() < 1e-9,
        "{:?}",
        p[1]
    );
}

/// Inductor's split scan (`model.scan.associative_split`, VALIDATION.md §31): a scan of one
/// tensor over fewer rows than twice the SMs (264 on an H100), each longer than 8,192, is two
/// kernels (the look-back flags' zeroing and the scan) bound by its bytes or by the chain of
/// blocks that wait on one another; anything else keeps the per-row rate.
#[test]
fn a_few_long_rows_of_one_tensor_are_a_split_scan() {
    let hw = fgraph::Hardware::preset("h100").expect("preset");
    let m = hw.model.clone().expect("model");
    let sp = m
        .scan
        .as_ref()
        .and_then(|s| s.associative_split)
        .expect("split");
    let price = |shape: &str, op: &str| {
        let v = if op.contains("(u, v") {
            format!("  input v: f32[{shape}]\n")
        } else {
            String::new()
        };
        let text = format!("graph g {{\n  input u: f32[{shape}]\n{v}  {op}\n  output s\n}}\n");
        let r = check_file("t.fgraph", text.as_bytes(), &Options::default());
        assert!(r.diagnostics.is_empty(), "{:#?}", r.diagnostics);
        let a = r.graphs[0].analysis.as_ref().expect("analysis");
        let (grp, tr) = (&a.plan.groups[0], &a.traffic.groups[0]);
        fgraph::cost::hwmodel::predict(&m, &a.graph, &grp.ops, tr, None, &hw, 0.0)
    };
    let add = "op c = associative_scan.add(u, axis = -1) -> s";
    // One row of 16M: 8,192 blocks of 2,048, all in one chain (more than the 208 the GPU
    // holds): 6.5 + 8,192 · 0.0175 = 149.9 µs, above the bytes' 74.2 µs (134 MB at 0.54 of
    // 3.35 TB/s), plus 2.39 µs: 152.3 µs (155.3 measured in batch i).
    let long = price("1, 16777216", add);
    assert_eq!(long.family.as_str(), "associative_scan");
    assert_eq!(long.extra_launches, 1, "the flags' zeroing kernel");
    let chain = sp.chain_overhead_us.expect("chain") + 8192.0 * sp.block_us;
    assert!((long.compute_s * 1e6 - chain).abs() < 1e-6, "{long:?}");
    assert!(long.compute_s > long.memory_s, "{long:?}");
    assert!((long.kernel_s * 1e6 - 152.3).abs() < 0.1, "{long:?}");
    // 128 rows of 65,536: 32 blocks a row, side by side: bound by the bytes, 67 MB at 0.54
    // of 3.35 TB/s = 37.1 µs, + 2.39 (39.6 measured in batch k).
    let many = price("128, 65536", add);
    let memory = 2.0 * 128.0 * 65536.0 * 4.0 / (hw.bandwidth * sp.bandwidth_efficiency);
    assert!((many.memory_s - memory).abs() < 1e-12, "{many:?}");
    assert!(many.memory_s > many.compute_s, "{many:?}");
    // Not split: 264 rows or more, rows of 8,192 or fewer, or a scan of two tensors.
    for (shape, op) in [
        ("264, 65536", add),
        ("4, 8192", add),
        (
            "4, 1048576",
            "op c = associative_scan.linear(u, v, axis = -1) -> s",
        ),
    ] {
        let p = price(shape, op);
        assert_eq!(p.extra_launches, 0, "{shape}: {p:?}");
    }
}
