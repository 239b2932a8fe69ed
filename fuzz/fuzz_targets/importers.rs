//! `fgraph import hf` and `fgraph import onnx` on arbitrary bytes (issue 27's importers read
//! files nobody vetted): the first byte picks the importer, the next ones its options (batch,
//! sequence or decode context, repeat on or off, a dynamic dimension's value), the rest is the
//! file: a Hugging Face `config.json` or an ONNX protobuf.
//!
//! Asserts: neither importer panics, hangs or allocates without bound on any input (the
//! libFuzzer limits catch the last two), and a Hugging Face import that returns text returns
//! text that checks without error (the importer checks what it writes; a file it would write
//! must not be refused by `fgraph check`).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [pick, a, b, rest @ ..] = data else {
        return;
    };
    if pick % 2 == 0 {
        let opts = fgraph::importers::hf::Options {
            batch: u64::from(a % 8) + 1,
            seq: (b % 4 != 0).then(|| u64::from(*b) * 8 + 1),
            decode: (b % 4 == 0).then(|| u64::from(*a) * 16),
            dtype: None,
            source_name: "fuzz.json".into(),
            ops: if pick & 2 == 0 {
                fgraph::importers::hf::Ops::Model
            } else {
                fgraph::importers::hf::Ops::Transformers
            },
            attn: match (pick >> 2) % 4 {
                0 => None,
                1 => Some(fgraph::importers::hf::Attn::Eager),
                2 => Some(fgraph::importers::hf::Attn::Sdpa),
                _ => Some(fgraph::importers::hf::Attn::SdpaTraced),
            },
        };
        let imported = fgraph::import_hf(rest, &opts);
        if let Some(text) = imported.text {
            let report =
                fgraph::check_file("imported.fgraph", text.as_bytes(), &Default::default());
            assert!(
                report
                    .diagnostics
                    .iter()
                    .all(|d| d.severity != fgraph::diagnostics::Severity::Error),
                "an imported file that does not check:\n{text}"
            );
        }
    } else {
        let opts = fgraph::importers::onnx::Options {
            source: "fuzz.onnx".into(),
            name: None,
            dims: vec![
                ("batch".into(), i64::from(*a) + 1),
                ("seq".into(), i64::from(*b) + 1),
            ],
            repeat: a % 2 == 0,
        };
        let _ = fgraph::import_onnx(rest, &opts);
    }
});
