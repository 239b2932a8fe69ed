//! A causal mask and a sliding window stated on the softmax of the attention pattern
//! (`causal = true`, `window = W`, issue 22 item 5): the FlashAttention kernel does only the
//! (query, key) pairs the mask keeps, the eager ops every element. Every expected count is
//! worked out by hand in a comment.

use fgraph::cost::{self, Hardware, LaunchMode};
use fgraph::fusion::flash::unmasked_pairs;
use fgraph::{Analysis, Options, check_file};

/// The three-op pattern with a scale: `H` heads, `SQ` queries, `SK` keys, head dim `D`, the
/// softmax's extra attributes `mask` (`, causal = true`).
fn pattern(h: u64, sq: u64, sk: u64, d: u64, mask: &str) -> String {
    format!(
        "graph g {{\n  dtype f16\n  input q: [{h}, {sq}, {d}]\n  input k: [{h}, {sk}, {d}]\n  \
         input v: [{h}, {sk}, {d}]\n  weight scale: []\n  \
         op qk = matmul(q, k.T) -> s: [{h}, {sq}, {sk}]\n  \
         op sc = elementwise.mul(s, scale) -> t\n  \
         op sm = reduction.softmax(t, axis = -1{mask}) -> p: [{h}, {sq}, {sk}]\n  \
         op pv = matmul(p, v) -> o: [{h}, {sq}, {d}]\n  output o\n}}\n"
    )
}

fn analysis(src: &str, flash_attention: bool) -> Analysis {
    let opts = Options {
        fusion: fgraph::FusionOptions {
            flash_attention,
            ..fgraph::FusionOptions::default()
        },
        ..Options::default()
    };
    let report = check_file("t.fgraph", src.as_bytes(), &opts);
    assert!(!report.has_errors(), "{:?}", report.diagnostics);
    report.graphs[0].analysis.clone().expect("analysis")
}

/// (unfused FLOPs, fused plan FLOPs) on an H100.
fn flops(src: &str, flash_attention: bool) -> (u64, u64) {
    let a = analysis(src, flash_attention);
    let c = cost::estimate(
        &a,
        &Hardware::preset("h100").expect("h100"),
        LaunchMode::Graph,
    )
    .expect("cost");
    (c.unfused.flops, c.fused.flops)
}

#[test]
fn pairs_by_hand() {
    // Causal, S_q = S_k = 8: query i sees i + 1 keys: 1 + 2 + … + 8 = 36 of 64.
    assert_eq!(unmasked_pairs(8, 8, None), 36);
    // S_q = 4 against S_k = 8 (the last four positions): 5 + 6 + 7 + 8 = 26.
    assert_eq!(unmasked_pairs(4, 8, None), 26);
    // More queries than keys, S_q = 8, S_k = 4: the first four queries see nothing
    // (FlashAttention's bottom-right alignment), then 1 + 2 + 3 + 4 = 10.
    assert_eq!(unmasked_pairs(8, 4, None), 10);
    // Window 3, S_q = S_k = 8: 1 + 2 + 3 + 3·5 = 21.
    assert_eq!(unmasked_pairs(8, 8, Some(3)), 21);
    // Decoding one token against 8 keys with window 3: 3 keys.
    assert_eq!(unmasked_pairs(1, 8, Some(3)), 3);
    // A window at least as long as the keys is the causal mask.
    assert_eq!(unmasked_pairs(8, 8, Some(8)), 36);
    assert_eq!(unmasked_pairs(8, 8, Some(1 << 40)), 36);
    // Degenerate and huge: closed form, no overflow.
    assert_eq!(unmasked_pairs(0, 8, None), 0);
    assert_eq!(unmasked_pairs(8, 0, None), 0);
    let big = 1u64 << 40;
    assert_eq!(
        unmasked_pairs(big, big, None),
        u128::from(big) * u128::from(big + 1) / 2
    );
    let max = i64::MAX as u64;
    assert_eq!(
        unmasked_pairs(max, max, Some(1)),
        u128::from(max),
        "one key per query"
    );
}

#[test]
fn causal_flash_kernel_does_the_unmasked_pairs() {
    // H = 2, S = 8, D = 8. Per pattern op, full counts:
    //   qk: 2 · D · H · S · S = 2 · 8 · 2 · 64 = 2,048
    //   sc: 1 · H · S · S = 128;   sm: 5 · 128 = 640
    //   pv: 2 · S_k · (H · S_q · D) = 2 · 8 · 128 = 2,048          total 4,864
    // Causal: 36 of 64 pairs, so 4,864 · 36 / 64 = 2,736 (= (16 + 1 + 5 + 16) · 2 · 36).
    let plain = pattern(2, 8, 8, 8, "");
    let causal = pattern(2, 8, 8, 8, ", causal = true");
    assert_eq!(flops(&plain, false), (4_864, 4_864));
    assert_eq!(flops(&plain, true), (4_864, 4_864));
    // Without --flash-attention the eager ops compute every element, masked ones too.
    assert_eq!(flops(&causal, false), (4_864, 4_864));
    assert_eq!(flops(&causal, true), (4_864, 2_736));
    // `causal = false` and `causal = 0` are no mask; `causal = 1` is one.
    assert_eq!(
        flops(&pattern(2, 8, 8, 8, ", causal = false"), true).1,
        4_864
    );
    assert_eq!(flops(&pattern(2, 8, 8, 8, ", causal = 0"), true).1, 4_864);
    assert_eq!(flops(&pattern(2, 8, 8, 8, ", causal = 1"), true).1, 2_736);
    // A causal prefill does about half: S = 4096, 4096 · 4097 / 2 of 4096² pairs.
    let (all, fused) = flops(&pattern(32, 4096, 4096, 128, ", causal = true"), true);
    assert_eq!(fused as u128 * 4096 * 4096, all as u128 * (4096 * 4097 / 2));
}

#[test]
fn windowed_and_decode_patterns() {
    // Window 3 on H = 2, S = 8, D = 8: 21 pairs of 64: 38 · 2 · 21 = 1,596.
    let w = pattern(2, 8, 8, 8, ", causal = true, window = 3");
    assert_eq!(flops(&w, true), (4_864, 1_596));
    // Four queries against eight keys, causal: 26 pairs. Full counts with S_q = 4:
    // qk 2 · 8 · 2 · 32 = 1,024, sc 64, sm 320, pv 2 · 8 · (2 · 4 · 8) = 1,024: 2,432;
    // masked: 38 · 2 · 26 = 1,976.
    let d = pattern(2, 4, 8, 8, ", causal = true");
    assert_eq!(flops(&d, true), (2_432, 1_976));
    // The same with window 2: 2 keys per query, 8 pairs: 38 · 2 · 8 = 608.
    let dw = pattern(2, 4, 8, 8, ", window = 2, causal = true");
    assert_eq!(flops(&dw, true), (2_432, 608));
}

#[test]
fn hardware_model_follows_the_mask() {
    // The FlashAttention kernel's hardware-model time: a causal pattern's is below the
    // unmasked one's, and stating the mask gives what `--causal-attention` guessed for a
    // square prefill (half the FLOPs, half the keys) up to the diagonal's extra half row.
    let time = |mask: &str, causal_flag: bool| {
        let a = analysis(&pattern(32, 4096, 4096, 128, mask), true);
        let mut hw = Hardware::preset("h100").expect("h100");
        if let Some(m) = hw.model.as_mut() {
            m.causal_attention = causal_flag;
        }
        let mut c = cost::estimate(&a, &hw, LaunchMode::Graph).expect("cost");
        cost::with_hardware_model(&mut c, &a).expect("model");
        c.hardware_model.expect("model").time_s
    };
    let full = time("", false);
    let stated = time(", causal = true", false);
    let flagged = time("", true);
    assert!(stated < 0.6 * full, "{stated} vs {full}");
    assert!(
        (stated / flagged - 1.0).abs() < 0.01,
        "{stated} vs {flagged}"
    );
    // The flag does not halve a stated mask a second time.
    assert_eq!(time(", causal = true", true), stated);
    // A window of 512 keys per query does far less than the causal prefill.
    let windowed = time(", causal = true, window = 512", false);
    assert!(windowed < 0.5 * stated, "{windowed} vs {stated}");
}

#[test]
fn files_without_a_mask_keep_their_numbers() {
    // `causal = false` is the same as no attribute, in every figure of the report.
    let json = |src: &str| {
        let a = analysis(src, true);
        let c = cost::estimate(
            &a,
            &Hardware::preset("h100").expect("h100"),
            LaunchMode::Graph,
        )
        .expect("cost");
        (c.fused, c.unfused.flops, a.traffic.fused)
    };
    assert_eq!(
        json(&pattern(4, 64, 64, 16, "")),
        json(&pattern(4, 64, 64, 16, ", causal = false"))
    );
}
