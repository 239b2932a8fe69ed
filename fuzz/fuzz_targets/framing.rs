//! The language server's wire: arbitrary bytes, then one valid frame (a `shutdown` request
//! with the id [`FINAL_ID`]), through `fgraph::lsp::serve` on an in-memory reader and
//! writer, so everything `fgraph lsp` does with its standard input runs: `Content-Length`
//! frames read, malformed ones answered with a parse error and skipped, batching, and the
//! server on whatever messages the bytes hold. The first byte of the input is not part of the
//! stream: from 128 on, the reader hands the stream over in pieces of 1 to 64 bytes (a frame
//! split across reads), else all at once.
//!
//! Asserts: no panic (libFuzzer makes any panic a crash, even one the server's guard would
//! catch); the run ends, in memory bounded by `-rss_limit_mb`, and leaves no thread behind
//! (the target waits for the reader thread, which `serve` does not join when it has not
//! quite finished); what the server writes is a
//! sequence of well-formed frames, each a JSON-RPC 2.0 message; and the final frame is
//! answered, whatever came before it (the last response the server writes is its answer, not
//! a parse error), unless the bytes hold an `exit` message (then the
//! server has stopped, as it should). A frame the reader takes in is either a message or a
//! malformed frame by construction (`transport::Frame`), and every malformed one is answered
//! with a parse error; the final answer is what shows that no garbage swallowed a later
//! frame.

#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use std::io::{BufReader, Read};

const FINAL_ID: &str = "fgraph-fuzz-final";

/// The stream, in reads of at most `piece` bytes.
struct Pieces {
    data: Vec<u8>,
    pos: usize,
    piece: usize,
}

impl Read for Pieces {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let n = (self.data.len() - self.pos).min(out.len()).min(self.piece);
        out[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

/// The frames the server wrote, each checked: `Content-Length: N`, a blank line, N bytes of
/// a JSON object with `"jsonrpc": "2.0"`.
fn written(mut out: &[u8]) -> Vec<Value> {
    let mut messages = Vec::new();
    while !out.is_empty() {
        let text = String::from_utf8_lossy(&out[..out.len().min(64)]).into_owned();
        let rest = out
            .strip_prefix(b"Content-Length: ")
            .unwrap_or_else(|| panic!("a frame starts with Content-Length: {text:?}"));
        let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
        let n: usize = std::str::from_utf8(&rest[..digits])
            .expect("digits")
            .parse()
            .expect("a length");
        let body = rest[digits..]
            .strip_prefix(b"\r\n\r\n")
            .unwrap_or_else(|| panic!("a blank line after the header: {text:?}"));
        assert!(body.len() >= n, "a frame shorter than its length: {text:?}");
        let v: Value = serde_json::from_slice(&body[..n]).expect("a JSON body");
        assert_eq!(v["jsonrpc"], "2.0", "{v}");
        messages.push(v);
        out = &body[n..];
    }
    messages
}

/// Whether the bytes hold a JSON object whose `method` is `exit` anywhere (a bound on what
/// can make the server stop before the final frame).
fn holds_exit(bytes: &[u8]) -> bool {
    bytes.iter().enumerate().any(|(i, &b)| {
        b == b'{'
            && matches!(
                serde_json::Deserializer::from_slice(&bytes[i..])
                    .into_iter::<Value>()
                    .next(),
                Some(Ok(Value::Object(m))) if m.get("method").and_then(Value::as_str) == Some("exit")
            )
    })
}

/// Threads of this process.
fn threads() -> usize {
    std::fs::read_dir("/proc/self/task").map_or(0, Iterator::count)
}

fuzz_target!(|data: &[u8]| {
    let (piece, garbage) = match data.split_first() {
        Some((&sel, rest)) if sel >= 128 => (1 + usize::from(sel & 63), rest),
        Some((_, rest)) => (usize::MAX, rest),
        None => (usize::MAX, data),
    };
    let body = format!(r#"{{"jsonrpc":"2.0","id":"{FINAL_ID}","method":"shutdown"}}"#);
    let mut stream = garbage.to_vec();
    stream.extend_from_slice(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes());
    let input = BufReader::new(Pieces {
        data: stream,
        pos: 0,
        piece,
    });
    let mut out = Vec::new();
    let before = threads();
    let code = fgraph::lsp::serve(input, &mut out, None).expect("in-memory I/O cannot fail");
    // `serve` joins its reader thread only if it has finished by then; wait for it, or
    // LeakSanitizer sees the thread's own allocations as leaked. It must end: the input is
    // in memory, and after `serve` returns nothing receives its frames.
    let start = std::time::Instant::now();
    while threads() > before {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(5),
            "the reader thread outlives serve"
        );
        std::thread::sleep(std::time::Duration::from_micros(20));
    }
    assert!(code == 0 || code == 1, "exit code {code}");
    let messages = written(&out);
    // The last response (not a notification) answers the final frame, and not as a frame
    // that failed to parse.
    let last = messages.iter().rev().find(|m| m.get("method").is_none());
    let answered = last.is_some_and(|m| m["id"] == FINAL_ID && m["error"]["code"] != -32700);
    assert!(
        answered || holds_exit(garbage),
        "the final frame was not answered after {:?}\nwritten: {messages:#?}",
        String::from_utf8_lossy(garbage)
    );
});
