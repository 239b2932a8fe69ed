//! Issue 21, item 4: a hardware file (`--hardware-file`) is validated to physically meaningful
//! ranges (the table `RANGES` in src/cost/hwmodel/mod.rs). A number outside its range is
//! exit 2 with a message that names the field, the value and the range, never `null` times
//! or a message about something else; the template `fgraph hardware NAME --format json`
//! prints for every preset is accepted as it is.

mod common;

use common::{code, fgraph, stderr, stdout, temp_file_in};

const EXAMPLE: &str = "examples/seed_mlp.fgraph";

fn analyze_with(name: &str, text: &str) -> std::process::Output {
    let f = temp_file_in("hwranges", name, text);
    fgraph(&[
        "analyze",
        "--hardware-file",
        f.to_str().expect("utf-8"),
        EXAMPLE,
    ])
}

fn gpu(bandwidth: &str) -> String {
    format!(
        r#"{{"name": "g", "peak_tflops_f16": 400, "peak_tflops_f32": 50,
            "bandwidth_tb_s": {bandwidth}}}"#
    )
}

#[test]
fn a_bandwidth_outside_its_range_is_exit_2_with_the_range() {
    for (file, bw, shown) in [
        ("tiny.json", "1e-308", "1e-308"),
        ("huge.json", "1e308", "1e308"),
        ("zero.json", "0", "0"),
        ("negative.json", "-2", "-2"),
    ] {
        let o = analyze_with(file, &gpu(bw));
        assert_eq!(code(&o), 2, "{bw}: {}", stderr(&o));
        let e = stderr(&o);
        assert!(
            e.contains(&format!(
                "`bandwidth_tb_s` is {shown}; it must be between 0.001 and 1000 TB/s"
            )),
            "{bw}: {e}"
        );
        assert!(e.contains("invalid hardware file"), "{e}");
        assert!(stdout(&o).is_empty(), "no report: {}", stdout(&o));
    }
    // A number too large for a double is not a number at all (JSON has no infinity).
    let o = analyze_with("inf.json", &gpu("1e400"));
    assert_eq!(code(&o), 2, "{}", stderr(&o));
}

#[test]
fn other_fields_outside_their_ranges_are_named() {
    let cases = [
        (
            r#""peak_tflops_f32": 1e9"#,
            "`peak_tflops_f32` is 1e9; it must be between 0.001 and 100000 TFLOP/s",
        ),
        (
            r#""l2_mib": 1e-9"#,
            "`l2_mib` is 1e-9; it must be between 0.001 and 16384 MiB",
        ),
        (
            r#""sms": 0"#,
            "`sms` is 0; it must be between 1 and 100000 SMs",
        ),
        (
            r#""launch_eager_us": 5e6"#,
            "`launch_eager_us` is 5000000; it must be between 0 and 1000000 µs",
        ),
        (
            r#""launch_graph_us": -1"#,
            "`launch_graph_us` is -1; it must be between 0 and 1000000 µs",
        ),
    ];
    for (i, (field, message)) in cases.into_iter().enumerate() {
        let text = format!(
            r#"{{"name": "g", "peak_tflops_f16": 400, "peak_tflops_f32": 50,
                "bandwidth_tb_s": 2, {field}}}"#
        )
        .replacen(
            r#""peak_tflops_f32": 50,"#,
            "",
            field.contains("peak_tflops_f32") as usize,
        );
        let o = analyze_with(&format!("field-{i}.json"), &text);
        assert_eq!(code(&o), 2, "{field}: {}", stderr(&o));
        assert!(stderr(&o).contains(message), "{field}: {}", stderr(&o));
    }
}

#[test]
fn a_model_coefficient_outside_its_range_is_named_with_its_path() {
    let o = fgraph(&["hardware", "h100", "--format", "json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let mut v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    v["model"]["families"]["norm"]["bandwidth_efficiency"] = 1.5.into();
    let o = analyze_with("model.json", &v.to_string());
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(
        stderr(&o).contains(
            "`model.families.norm.bandwidth_efficiency` is 1.5; it must be more than 0 and at most 1"
        ),
        "{}",
        stderr(&o)
    );
}

#[test]
fn every_preset_template_is_accepted_as_a_hardware_file() {
    for name in ["a100", "h100", "h200", "h100-measured"] {
        let o = fgraph(&["hardware", name, "--format", "json"]);
        assert_eq!(code(&o), 0, "{name}: {}", stderr(&o));
        let o = analyze_with(&format!("{name}.json"), &stdout(&o));
        assert_eq!(code(&o), 0, "{name}: {}", stderr(&o));
        assert!(!stdout(&o).contains("null"), "{name}: {}", stdout(&o));
    }
}
