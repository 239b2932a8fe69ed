//! cuDNN's SDPA at SD 1.5's attention shapes (validation/gpu/models/sdpa_probe, VALIDATION.md
//! §48): the attention coefficients the H100 presets carry are the refit's, and the binary
//! prices the probe's kernels as the refit reported.

mod common;

use std::collections::BTreeMap;

fn probe_rows() -> Vec<BTreeMap<String, String>> {
    common::csv_rows("validation/gpu/models/sdpa_probe/data/sdpa_probe.csv")
        .into_iter()
        .filter(|r| !r["median_us"].is_empty())
        .collect()
}

/// `sdpa_probe/refit.py` writes its coefficients to attention_fit.json and into the presets:
/// the two agree.
#[test]
fn the_presets_carry_the_attention_refit() {
    let path = common::root().join("validation/gpu/models/sdpa_probe/attention_fit.json");
    let fit: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("fit")).expect("JSON");
    for name in ["h100", "h100-measured", "h100-2x8"] {
        let a = fgraph::cost::Hardware::preset(name)
            .and_then(|h| h.model)
            .expect("model")
            .attention;
        for (k, v) in [
            ("efficiency", a.efficiency),
            ("kv_half", a.kv_half),
            ("head_dim_half", a.head_dim_half),
            ("key_block", a.key_block.unwrap_or(0.0)),
        ] {
            assert_eq!(fit[k].as_f64(), Some(v), "{name}: attention.{k}");
        }
    }
}

/// The probe's kernels over 20 µs within ±20%: 50 of 53 (31 before the refit), and over the
/// 77 text tokens 16 of 18 (6 before) (`refit.txt`).
#[test]
fn the_probe_is_priced_as_the_refit_reported() {
    let dir = common::temp_dir("sdpa_probe");
    let (mut over, mut over_ok, mut text77, mut text77_ok) = (0, 0, 0, 0);
    for r in probe_rows() {
        let n = |c: &str| r[c].parse::<u64>().expect(c);
        let (b, h, q, k, d) = (
            n("batch"),
            n("heads"),
            n("positions"),
            n("keys"),
            n("head_dim"),
        );
        let src = format!(
            "graph g {{\n  input q: f16[{b}, {h}, {q}, {d}]\n  input k: f16[{b}, {h}, {k}, {d}]\n  \
             input v: f16[{b}, {h}, {k}, {d}]\n  op a = attention(q, k, v) -> o: [{b}, {h}, {q}, {d}]\n  \
             output o\n}}\n"
        );
        let file = dir.join(format!("b{b}_q{q}_k{k}_d{d}.fgraph"));
        std::fs::write(&file, src).expect("write");
        let json = common::analyze_h100_json(&file);
        let priced = json["cost"]["hardware_model"]["kernel_us"]
            .as_f64()
            .expect("kernel_us");
        let measured: f64 = r["median_us"].parse().expect("median_us");
        let ok = (priced / measured - 1.0).abs() <= 0.20;
        if measured > 20.0 {
            over += 1;
            over_ok += usize::from(ok);
        }
        if k == 77 {
            text77 += 1;
            text77_ok += usize::from(ok);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!((over, text77), (53, 18));
    assert!(over_ok >= 50, "{over_ok} of {over} over 20 µs within ±20%");
    assert!(
        text77_ok >= 16,
        "{text77_ok} of {text77} at 77 keys within ±20%"
    );
}
