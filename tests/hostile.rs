//! Hostile input: every byte sequence gets a diagnostic or a clean result, never a panic, a
//! stack overflow or a hang. In-process through `check_file` (a panic fails the test) and a
//! few through the binary (no exit 101, no signal).

use fgraph::{Code, Options, check_file};
use std::fmt::Write as _;
use std::time::{Duration, Instant};

fn codes(src: &[u8]) -> Vec<Code> {
    let report = check_file("hostile.fgraph", src, &Options::default());
    // Analysis must also survive whatever the check let through.
    for g in &report.graphs {
        if let Some(a) = &g.analysis {
            assert!(a.traffic.fused.total <= a.traffic.unfused.total);
        }
    }
    report.diagnostics.iter().map(|d| d.code).collect()
}

/// A small deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[test]
fn empty_and_blank_files_are_syntax_errors() {
    for src in ["", "   \n\t\r\n", "// only a comment\n", "\u{feff}"] {
        assert_eq!(codes(src.as_bytes()), [Code::SyntaxError], "{src:?}");
    }
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for _ in 0..300 {
        let len = (rng.next() % 400) as usize;
        let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        codes(&bytes);
    }
    // Random text drawn from the language's own alphabet reaches deeper than random bytes.
    let alphabet =
        b"graph param dtype input weight output op {}()[],:=->.T+-*/ 0123 abc x y f16\n//";
    for _ in 0..300 {
        let len = (rng.next() % 200) as usize;
        let bytes: Vec<u8> = (0..len)
            .map(|_| alphabet[(rng.next() as usize) % alphabet.len()])
            .collect();
        codes(&bytes);
    }
}

#[test]
fn every_truncation_of_an_example_is_handled() {
    let src = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/transformer_block.fgraph"
    ))
    .expect("example");
    for end in (0..=src.len()).filter(|&i| src.is_char_boundary(i)) {
        codes(&src.as_bytes()[..end]);
    }
}

#[test]
fn non_utf8_is_reported_at_the_bad_byte() {
    let mut src = b"graph g {\n  input x".to_vec();
    src.extend([0xff, 0xfe]);
    src.extend(b": [4]\n}\n");
    let report = check_file("bad.fgraph", &src, &Options::default());
    assert_eq!(report.diagnostics.len(), 1);
    let d = &report.diagnostics[0];
    assert_eq!(d.code, Code::SyntaxError);
    assert_eq!(d.message, "file is not valid UTF-8");
    assert_eq!(d.primary.as_ref().map(|l| l.span.start), Some(19));
    // In a comment too.
    assert_eq!(codes(b"// caf\xe9\ngraph g {}\n"), [Code::SyntaxError]);
}

#[test]
fn bom_and_crlf_change_nothing() {
    let src = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/seed_mlp.fgraph"
    ))
    .expect("example");
    let plain = check_file("a.fgraph", src.as_bytes(), &Options::default());
    let crlf = format!("\u{feff}{}", src.replace('\n', "\r\n"));
    let other = check_file("b.fgraph", crlf.as_bytes(), &Options::default());
    assert!(plain.diagnostics.is_empty() && other.diagnostics.is_empty());
    let (a, b) = (
        plain.graphs[0].analysis.as_ref().expect("analysis"),
        other.graphs[0].analysis.as_ref().expect("analysis"),
    );
    assert_eq!(a.traffic.fused, b.traffic.fused);
    assert_eq!(a.traffic.unfused, b.traffic.unfused);
}

#[test]
fn deep_nesting_is_a_limit_not_a_stack_overflow() {
    let deep = format!(
        "graph g {{\n  param A = {}1{}\n}}\n",
        "(".repeat(100_000),
        ")".repeat(100_000)
    );
    assert_eq!(codes(deep.as_bytes()), [Code::LimitExceeded]);
    let brackets = format!("graph g {{\n  input x: {}\n}}\n", "[".repeat(100_000));
    assert_eq!(codes(brackets.as_bytes()), [Code::LimitExceeded]);
    // At the limit it still parses: 63 parentheses inside the type's bracket.
    let ok = format!(
        "graph g {{\n  input x: [{}4{}]\n  op a = elementwise.relu(x) -> y\n}}\n",
        "(".repeat(63),
        ")".repeat(63)
    );
    assert_eq!(codes(ok.as_bytes()), []);
}

/// A file over 1 MiB is parsed on several threads, each bounding the nesting of its own
/// piece: too deep a nesting in any piece is the same limit diagnostic.
#[test]
fn deep_nesting_in_a_large_file_is_a_limit() {
    let ops = 60_000;
    let mut body = String::from("graph g {\n  input t0: [4]\n");
    for i in 1..=ops {
        body.push_str(&format!(
            "  op o{i} = elementwise.relu(t{}) -> t{i}\n",
            i - 1
        ));
    }
    assert!(body.len() > 2 << 20);
    for at in [10, ops / 2, ops - 10] {
        let needle = format!("relu(t{at})");
        let deep = format!(
            "relu(t{at}, t[{}0{}])",
            "(".repeat(100_000),
            ")".repeat(100_000)
        );
        let src = format!("{}}}\n", body.replacen(&needle, &deep, 1));
        assert_eq!(codes(src.as_bytes()), [Code::LimitExceeded], "at op {at}");
    }
    // At the limit (64) it still parses: the call, the view and 62 parentheses.
    for at in [10, ops / 2] {
        let needle = format!("relu(t{at})");
        let view = format!("relu(t{at}[{}0{}])", "(".repeat(62), ")".repeat(62));
        let src = format!("{}}}\n", body.replacen(&needle, &view, 1));
        assert_eq!(codes(src.as_bytes()), [], "at op {at}");
    }
}

/// A graph of 50,000+ ops has its name tables built on a second thread: each op or tensor
/// name given again is still reported once, at the repeat, pointing at the first, and an
/// argument naming a tensor produced twice binds to the first definition.
#[test]
fn duplicate_names_in_a_large_graph() {
    let mut src = String::from("graph g {\n  input t0: [4]\n");
    // Where each op's name and output name start.
    let (mut op_at, mut out_at) = (vec![0], vec![0]);
    for i in 1..=60_000 {
        let name = match i {
            30_000 | 59_990 => "o10".to_string(),
            40_000 => "o20".to_string(),
            _ => format!("o{i}"),
        };
        let (input, output, ty) = match i {
            45_000 => ("t44999".to_string(), "t10".to_string(), ": [1]"),
            45_001 => ("t10".to_string(), "t45001".to_string(), ""),
            _ => (format!("t{}", i - 1), format!("t{i}"), ""),
        };
        let kind = if i == 45_000 {
            "reduction.sum"
        } else {
            "elementwise.relu"
        };
        op_at.push(src.len() + "  op ".len());
        let stmt = format!("  op {name} = {kind}({input}) -> ");
        out_at.push(src.len() + stmt.len());
        src.push_str(&format!("{stmt}{output}{ty}\n"));
    }
    src.push_str("}\n");
    let report = check_file("dups.fgraph", src.as_bytes(), &Options::default());
    let found: Vec<(usize, usize)> = report
        .diagnostics
        .iter()
        .map(|d| {
            assert_eq!(d.code, Code::DuplicateDefinition, "{}", d.message);
            let at = d.primary.as_ref().expect("label").span.start;
            (at, d.secondary[0].span.start)
        })
        .collect();
    let want = [
        (op_at[30_000], op_at[10]),
        (op_at[40_000], op_at[20]),
        (out_at[45_000], out_at[10]),
        (op_at[59_990], op_at[10]),
    ];
    assert_eq!(found, want);
    // `o45001` reads the first `t10` (shape [4]), not the reduction's (shape [1]).
    let ops = &report.graphs[0].written_ops;
    let o = ops.iter().find(|o| o.name == "o45001").expect("op");
    assert_eq!(o.shape.as_deref(), Some(&[4u64][..]));
}

#[test]
fn long_operator_chains_do_not_recurse() {
    let sum = format!(
        "graph g {{\n  param A = 1{}\n  input x: [A]\n  op a = elementwise.relu(x) -> y\n}}\n",
        " + 1".repeat(100_000)
    );
    assert_eq!(codes(sum.as_bytes()), []);
    let neg = format!(
        "graph g {{\n  param A = {}4\n  input x: [A]\n  op a = elementwise.relu(x) -> y\n}}\n",
        "-".repeat(100_000)
    );
    assert_eq!(codes(neg.as_bytes()), []);
}

#[test]
fn megabyte_identifier_is_a_limit() {
    let src = format!("graph g {{\n  input {}: [4]\n}}\n", "a".repeat(1 << 20));
    assert_eq!(codes(src.as_bytes()), [Code::LimitExceeded]);
}

#[test]
fn huge_negative_and_overflowing_dimensions() {
    let cases = [
        ("input x: [9223372036854775807, 2]", Code::LimitExceeded),
        ("input x: [281474976710657]", Code::LimitExceeded),
        ("input x: [281474976710656, 65536]", Code::SizeOverflow),
        ("input x: [99999999999999999999]", Code::SizeOverflow),
        ("input x: [-4]", Code::InvalidShape),
        ("input x: [0]", Code::InvalidShape),
        (
            "param A = 9223372036854775807 + 1\n  input x: [A]",
            Code::SizeOverflow,
        ),
        (
            "param A = -9223372036854775807 - 1\n  param B = -A\n  input x: [B]",
            Code::SizeOverflow,
        ),
        ("param A = 4 / 0\n  input x: [A]", Code::InexactDivision),
        ("input x: [4294967296, 4294967296]", Code::SizeOverflow),
        (
            "input x: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]",
            Code::LimitExceeded,
        ),
    ];
    for (body, code) in cases {
        let src = format!("graph g {{\n  {body}\n  op a = elementwise.relu(x) -> y\n}}\n");
        assert_eq!(codes(src.as_bytes()), [code], "{body}");
    }
}

#[test]
fn traffic_that_overflows_is_a_diagnostic() {
    // Each tensor fits in u64; their sum does not.
    let src = "graph g {\n  dtype u8\n  input x: [281474976710656, 32768]\n  op a = elementwise.neg(x) -> y\n  op b = elementwise.neg(y) -> z\n  output y, z\n}\n";
    assert_eq!(codes(src.as_bytes()), [Code::SizeOverflow]);
}

#[test]
fn cycles_of_length_one_and_100000() {
    let one = "graph g {\n  op a = elementwise.relu(y) -> y\n}\n";
    assert_eq!(codes(one.as_bytes()), [Code::Cycle]);

    let n = 100_000;
    let mut src = String::from("graph g {\n");
    for i in 0..n {
        let _ = writeln!(
            src,
            "  op o{i} = elementwise.relu(t{}) -> t{i}",
            (i + n - 1) % n
        );
    }
    src.push_str("}\n");
    let start = Instant::now();
    let report = check_file("ring.fgraph", src.as_bytes(), &Options::default());
    assert!(start.elapsed() < Duration::from_secs(60));
    assert_eq!(report.diagnostics.len(), 1);
    assert_eq!(report.diagnostics[0].code, Code::Cycle);
    assert!(
        report.diagnostics[0]
            .message
            .contains("(100000 ops in all)"),
        "{}",
        report.diagnostics[0].message
    );
}

#[test]
fn one_tensor_with_100000_consumers() {
    let n = 100_000;
    let mut src = String::from("graph g {\n  input x: [8]\n");
    for i in 0..n {
        let _ = writeln!(src, "  op o{i} = elementwise.relu(x) -> t{i}");
    }
    src.push_str("}\n");
    let report = check_file("fan.fgraph", src.as_bytes(), &Options::default());
    assert!(report.diagnostics.is_empty());
    let a = report.graphs[0].analysis.as_ref().expect("analysis");
    assert_eq!(a.plan.groups.len(), n);
    assert_eq!(a.traffic.unfused, a.traffic.fused);
}

#[test]
fn the_binary_survives_hostile_files() {
    let dir = std::env::temp_dir().join(format!("fgraph-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut rng = Rng(42);
    let files: Vec<Vec<u8>> = vec![
        Vec::new(),
        (0..4096).map(|_| rng.next() as u8).collect(),
        format!("graph g {{ param A = {} }}", "(".repeat(10_000)).into_bytes(),
        b"graph g { op a = elementwise.relu(y) -> y }".to_vec(),
    ];
    for (k, bytes) in files.iter().enumerate() {
        let p = dir.join(format!("h{k}.fgraph"));
        std::fs::write(&p, bytes).expect("write");
        for cmd in ["check", "analyze"] {
            let out = std::process::Command::new(env!("CARGO_BIN_EXE_fgraph"))
                .args([cmd, "--format", "json"])
                .arg(&p)
                .output()
                .expect("run");
            assert_eq!(
                out.status.code(),
                Some(1),
                "{cmd} h{k}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
            assert!(!v["diagnostics"].as_array().expect("diagnostics").is_empty());
        }
    }
}

#[test]
fn lone_carriage_returns_end_lines() {
    let src = "graph g {\r  input x: [4]\r  op a = elementwise.relu(nope) -> y\r}\r";
    let report = check_file("cr.fgraph", src.as_bytes(), &Options::default());
    let at = |code: Code| {
        let d = report
            .diagnostics
            .iter()
            .find(|d| d.code == code)
            .expect("diagnostic");
        let span = d.primary.as_ref().expect("label").span;
        report
            .source
            .lines()
            .line_col(&report.source.text, span.start)
    };
    assert_eq!(at(Code::UnusedTensor), (2, 9));
    assert_eq!(at(Code::UndefinedTensor), (3, 27));
}
