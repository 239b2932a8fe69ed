//! Bytes → `syntax::decode` → `syntax::parse`: the decoder and the grammar alone; and for
//! what parses, `fmt` (`format::format_source`), which must give text that parses again and
//! is its own format.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (text, bad_utf8) = fgraph::syntax::decode(data);
    if bad_utf8.is_none() {
        assert!(std::str::from_utf8(data).is_ok());
    }
    match fgraph::syntax::parse(&text) {
        Ok(file) => {
            // Every span the tree holds lies inside the text.
            for g in &file.graphs {
                assert!(g.span.start <= g.span.end && g.span.end <= text.len());
                assert!(g.name.span.end <= text.len());
            }
            let formatted = fgraph::format::format_source(&text).expect("parsed, so it formats");
            match fgraph::format::format_source(&formatted) {
                Ok(again) => assert_eq!(again, formatted, "fmt is not idempotent"),
                Err(d) => panic!("fmt output does not parse: {d:?}\n{formatted}"),
            }
        }
        Err(d) => {
            if let Some(p) = &d.primary {
                assert!(p.span.start <= p.span.end && p.span.end <= text.len());
            }
            assert!(fgraph::format::format_source(&text).is_err());
        }
    }
});
