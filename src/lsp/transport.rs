//! The language server on stdio: `Content-Length` frames read and written, and the loop that
//! runs [`Server`] on them. A reader thread parses each frame; the server's jobs (analyses,
//! configuration checks, formatting) run on its worker threads ([`Server::threaded`]); the
//! main thread waits for either, handles the messages that have arrived as one batch (so a
//! burst of keystrokes is analysed once and a `$/cancelRequest` that arrives with its request
//! cancels it) and each job's result as it comes, and stops analyses that run past their
//! budget ([`Server::tick`]), so it never waits on reading or analysing a document. A panic
//! while handling a batch answers its requests with `InternalError` and the session goes on.
//!
//! The transport is written here, not taken from `lsp-server`, because `lsp-server`'s reader
//! thread stops at the first malformed frame, and a malformed message must not kill the
//! server. [`FrameReader`] recovers from any malformed frame (a `Content-Length` larger or
//! smaller than its body, missing, repeated, not a number or above the limit, a body that is
//! not UTF-8 or not JSON, a header block without its blank line, a header line cut short and
//! glued to the next frame's, bytes between frames): the frame is answered with a JSON-RPC
//! parse error (with its `id` where the body has one), and reading resumes at the next
//! `Content-Length:` header. That header is recognised anywhere
//! in the stream, because `Content-Length: N` followed by a line break never occurs inside a
//! JSON text (a string cannot hold a raw line break), so a length that lies cannot swallow
//! the next frame. Memory stays bounded: a body is read as its bytes arrive, never allocated
//! from the declared length, and one above [`MAX_BODY_BYTES`] is skipped, not stored.

use super::server::{Finished, Output, Server, error};
use lsp_server::ErrorCode;
use serde_json::Value;
use std::io::{BufRead, Read, Write};
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::Instant;

/// Largest frame body accepted: a document of the largest file fgraph reads
/// ([`crate::limits::MAX_FILE_BYTES`]) with room for its JSON envelope. A longer body is
/// skipped as it arrives, without being stored, and answered with a parse error.
const MAX_BODY_BYTES: usize = crate::limits::MAX_FILE_BYTES + (1 << 20);
/// Longest header block (the lines before the blank line); a real one is under 100 bytes.
const MAX_HEADER_BYTES: usize = 16 * 1024;
/// Bytes asked of the input per read.
const CHUNK: usize = 64 * 1024;

/// One frame read from the client.
enum Frame {
    Message(Value),
    /// A frame whose header is broken or whose body is not a JSON text: answered with a
    /// parse error, to `id` where the body had one (else `null`).
    Malformed {
        why: String,
        id: Value,
    },
}

fn malformed(why: impl Into<String>) -> Frame {
    Frame::Malformed {
        why: why.into(),
        id: Value::Null,
    }
}

/// Where a `Content-Length` header line starts in a byte stream.
enum Marker {
    /// A complete `Content-Length: N` line starts here.
    At(usize),
    /// Something that may still become one starts here: more bytes are needed.
    Maybe(usize),
    None,
}

/// Whether `s` starts with a `Content-Length: <digits>` line (spaces and tabs allowed around
/// the colon and after the number, `\r\n` or `\n` after it), `Some(false)` when it cannot,
/// `None` when `s` ends before that is decided.
fn header_at(s: &[u8]) -> Option<bool> {
    const NAME: &[u8] = b"content-length";
    for (i, c) in NAME.iter().enumerate() {
        match s.get(i) {
            None => return None,
            Some(b) if b.to_ascii_lowercase() != *c => return Some(false),
            Some(_) => {}
        }
    }
    let mut k = NAME.len();
    // `blanks` skips at most 16 spaces or tabs; `run` at most 32 digits.
    let run = |k: &mut usize, max: usize, f: fn(u8) -> bool| -> Option<usize> {
        let start = *k;
        while *k < s.len() && f(s[*k]) {
            *k += 1;
            if *k - start > max {
                return Some(usize::MAX);
            }
        }
        (*k < s.len()).then_some(*k - start)
    };
    let blank = |b: u8| b == b' ' || b == b'\t';
    if run(&mut k, 16, blank)? > 16 || s[k] != b':' {
        return Some(false);
    }
    k += 1;
    if run(&mut k, 16, blank)? > 16 {
        return Some(false);
    }
    let digits = run(&mut k, 32, |b| b.is_ascii_digit())?;
    if digits == 0 || digits > 32 || run(&mut k, 16, blank)? > 16 {
        return Some(false);
    }
    if s[k] == b'\r' {
        k += 1;
    }
    Some(*s.get(k)? == b'\n')
}

/// The first `Content-Length` header line starting in `buf[from..until]`.
fn find_header(buf: &[u8], from: usize, until: usize) -> Marker {
    let until = until.min(buf.len());
    for i in from.min(until)..until {
        if buf[i] | 0x20 != b'c' {
            continue;
        }
        match header_at(&buf[i..]) {
            Some(true) => return Marker::At(i),
            None => return Marker::Maybe(i),
            Some(false) => {}
        }
    }
    Marker::None
}

/// A header field name's bytes (RFC 9110 `token`).
fn is_token(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// Checks one header line (without its line break, or the start of one still arriving when
/// `complete` is false); returns its `Content-Length` value if it is that header.
fn header_line(line: &[u8], complete: bool) -> Result<Option<&[u8]>, String> {
    let shown = || String::from_utf8_lossy(&line[..line.len().min(64)]).into_owned();
    let name_end = line
        .iter()
        .position(|&b| !is_token(b))
        .unwrap_or(line.len());
    if name_end == line.len() {
        return if complete {
            Err(format!("bad header line `{}`", shown()))
        } else {
            Ok(None)
        };
    }
    let value = &line[name_end + 1..];
    if name_end == 0
        || line[name_end] != b':'
        || !value
            .iter()
            .all(|&b| b == b'\t' || (b' '..=b'~').contains(&b))
    {
        return Err(format!("bad header line `{}`", shown()));
    }
    let name = &line[..name_end];
    Ok((complete && name.eq_ignore_ascii_case(b"content-length")).then_some(value.trim_ascii()))
}

/// The `id` of a request whose frame was malformed, where its body still parses far enough.
fn id_of(body: &[u8]) -> Value {
    let mut values = serde_json::Deserializer::from_slice(body).into_iter::<Value>();
    match values.next() {
        Some(Ok(Value::Object(m))) if m.contains_key("method") => {
            m.get("id").cloned().unwrap_or(Value::Null)
        }
        _ => Value::Null,
    }
}

/// Reads `Content-Length` frames from a byte stream, keeping what it has read but not yet
/// used in `buf`, so that a frame whose length lies does not lose the next one.
struct FrameReader<R> {
    input: R,
    buf: Vec<u8>,
    /// After a malformed frame: resume at the first header line starting at or after this
    /// offset in `buf`.
    resync: Option<usize>,
}

impl<R: Read> FrameReader<R> {
    fn new(input: R) -> Self {
        FrameReader {
            input,
            buf: Vec::new(),
            resync: None,
        }
    }

    /// Appends what the input has next to `buf`; `false` at the end of the input.
    fn fill(&mut self) -> std::io::Result<bool> {
        let old = self.buf.len();
        self.buf.resize(old + CHUNK, 0);
        let got = loop {
            match self.input.read(&mut self.buf[old..]) {
                Ok(n) => break Ok(n),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => break Err(e),
            }
        };
        self.buf.truncate(old + *got.as_ref().unwrap_or(&0));
        Ok(got? > 0)
    }

    /// Drops the first `n` bytes of `buf`, and the memory a large frame left behind.
    fn consume(&mut self, n: usize) {
        self.buf.drain(..n.min(self.buf.len()));
        if self.buf.capacity() > 4 * CHUNK && self.buf.len() < CHUNK {
            self.buf.shrink_to(2 * CHUNK);
        }
    }

    /// Skips to the next `Content-Length` header line at or after `from`; `false` if the
    /// input ends first.
    fn skip_to_header(&mut self, mut from: usize) -> std::io::Result<bool> {
        loop {
            match find_header(&self.buf, from, self.buf.len()) {
                Marker::At(p) => {
                    self.consume(p);
                    return Ok(true);
                }
                Marker::Maybe(p) => {
                    // Rescanned from its start once more bytes are here.
                    self.consume(p);
                    from = 0;
                }
                Marker::None => {
                    let n = self.buf.len();
                    self.consume(n);
                    from = 0;
                }
            }
            if !self.fill()? {
                self.buf.clear();
                return Ok(false);
            }
        }
    }

    /// The next frame; `Ok(None)` at the end of the input.
    fn next_frame(&mut self) -> std::io::Result<Option<Frame>> {
        if let Some(from) = self.resync.take()
            && !self.skip_to_header(from)?
        {
            return Ok(None);
        }
        // Line breaks and blanks between frames.
        loop {
            let gap = self
                .buf
                .iter()
                .take_while(|b| b" \t\r\n".contains(b))
                .count();
            self.consume(gap);
            if !self.buf.is_empty() {
                break;
            }
            if !self.fill()? {
                return Ok(None);
            }
        }
        let (length, body_start) = match self.header()? {
            Ok(header) => header,
            Err(why) => {
                self.resync = Some(1);
                return Ok(Some(malformed(why)));
            }
        };
        let end = body_start + length;
        let mut scanned = body_start;
        while self.buf.len() < end {
            // A header line inside the body: the length was larger than the body.
            match find_header(&self.buf, scanned, end) {
                Marker::At(p) => {
                    let id = id_of(&self.buf[body_start..p]);
                    self.consume(p);
                    let why = format!(
                        "Content-Length {length} runs into the next frame after {} bytes",
                        p - body_start
                    );
                    return Ok(Some(Frame::Malformed { why, id }));
                }
                Marker::Maybe(p) => scanned = p,
                Marker::None => scanned = self.buf.len(),
            }
            if !self.fill()? {
                let got = self.buf.len() - body_start;
                self.buf.clear();
                return Ok(Some(malformed(format!(
                    "input ended inside a frame: {got} of {length} body bytes"
                ))));
            }
        }
        let body = &self.buf[body_start..end];
        let parsed = match std::str::from_utf8(body) {
            Err(e) => Err(format!(
                "the body is not UTF-8 (invalid byte at offset {})",
                e.valid_up_to()
            )),
            Ok(text) => {
                serde_json::from_str::<Value>(text).map_err(|e| format!("invalid JSON: {e}"))
            }
        };
        Ok(Some(match parsed {
            Ok(v) => {
                self.consume(end);
                Frame::Message(v)
            }
            Err(why) => {
                // The length may be smaller than the body (its rest follows) or larger (the
                // next frame's header is inside): resume at the first header in the body.
                let id = id_of(body);
                self.consume(body_start);
                self.resync = Some(0);
                Frame::Malformed { why, id }
            }
        }))
    }

    /// Reads the header block at the start of `buf`: the body's length and where it starts,
    /// or why the block is malformed.
    fn header(&mut self) -> std::io::Result<Result<(usize, usize), String>> {
        let mut pos = 0;
        let mut length: Option<usize> = None;
        loop {
            let Some(nl) = self.buf[pos..].iter().position(|&b| b == b'\n') else {
                let rest = &self.buf[pos..];
                let rest = rest.strip_suffix(b"\r").unwrap_or(rest);
                if let Err(why) = header_line(rest, false) {
                    return Ok(Err(why));
                }
                if self.buf.len() > MAX_HEADER_BYTES {
                    return Ok(Err(format!(
                        "a header block longer than {MAX_HEADER_BYTES} bytes"
                    )));
                }
                if !self.fill()? {
                    return Ok(Err("input ended inside a frame's header".into()));
                }
                continue;
            };
            // A `Content-Length` line that starts inside this one is the next frame's, glued
            // to a header line cut short: this frame is malformed, and reading resumes there.
            if let Marker::At(_) = find_header(&self.buf, pos + 1, pos + nl) {
                return Ok(Err("a header line runs into the next frame's header".into()));
            }
            let line = &self.buf[pos..pos + nl];
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            pos += nl + 1;
            if pos > MAX_HEADER_BYTES {
                return Ok(Err(format!(
                    "a header block longer than {MAX_HEADER_BYTES} bytes"
                )));
            }
            if line.is_empty() {
                return Ok(match length {
                    Some(n) => Ok((n, pos)),
                    None => Err("a frame without Content-Length".into()),
                });
            }
            let value = match header_line(line, true) {
                Err(why) => return Ok(Err(why)),
                Ok(None) => continue,
                Ok(Some(v)) => v,
            };
            let shown = String::from_utf8_lossy(&value[..value.len().min(32)]).into_owned();
            if length.is_some() {
                return Ok(Err("a frame with two Content-Length headers".into()));
            }
            if value.is_empty() || !value.iter().all(u8::is_ascii_digit) {
                return Ok(Err(format!("bad Content-Length `{shown}`")));
            }
            match std::str::from_utf8(value).map(str::parse::<usize>) {
                Ok(Ok(n)) if n <= MAX_BODY_BYTES => length = Some(n),
                _ => {
                    return Ok(Err(format!(
                        "Content-Length {shown} is above the limit of {MAX_BODY_BYTES} bytes"
                    )));
                }
            }
        }
    }
}

fn write_frame(w: &mut impl Write, v: &Value) -> std::io::Result<()> {
    let body = serde_json::to_string(v)?;
    write!(w, "Content-Length: {}\r\n\r\n{body}", body.len())?;
    w.flush()
}

/// [`Server::handle_batch`], where a panic (a bug in fgraph; input must never cause one)
/// answers the batch's requests with `InternalError` instead of ending the session: the
/// editor keeps its server, and the panic's message is on stderr, the server's log.
fn handle_guarded(server: &mut Server, batch: Vec<Value>) -> Output {
    let ids: Vec<Value> = batch
        .iter()
        .filter(|v| v.get("method").is_some())
        .filter_map(|v| v.get("id").cloned())
        .collect();
    guarded(server, ids, |s| s.handle_batch(batch))
}

/// Runs `f` on the server; a panic answers the requests `ids` with `InternalError`.
fn guarded(server: &mut Server, ids: Vec<Value>, f: impl FnOnce(&mut Server) -> Output) -> Output {
    let run = std::panic::AssertUnwindSafe(|| f(server));
    std::panic::catch_unwind(run).unwrap_or_else(|_| Output {
        messages: ids
            .into_iter()
            .map(|id| {
                error(
                    id,
                    ErrorCode::InternalError,
                    "internal error in fgraph (a bug: please report it with the file)",
                )
            })
            .collect(),
        exit: None,
    })
}

/// What the message loop waits for: a frame from the reader thread, a job's result from a
/// worker, or the end of the input.
enum Event {
    Frame(Frame),
    Finished(Finished),
    End,
}

/// Runs the server on stdin/stdout until `exit` or the end of the input. Returns the exit
/// code the protocol asks for: 0 after `shutdown` then `exit`, 1 otherwise.
/// `config` is read for every document instead of its nearest `fgraph.toml`.
pub fn run_stdio(config: Option<PathBuf>) -> std::io::Result<i32> {
    let stdout = std::io::stdout();
    serve(
        std::io::BufReader::new(std::io::stdin()),
        &mut stdout.lock(),
        config,
    )
}

/// [`run_stdio`] on any reader and writer.
pub fn serve(
    input: impl BufRead + Send + 'static,
    output: &mut impl Write,
    config: Option<PathBuf>,
) -> std::io::Result<i32> {
    let (tx, rx) = std::sync::mpsc::channel::<Event>();
    let frames_tx = tx.clone();
    let reader = std::thread::Builder::new()
        .name("fgraph-lsp-reader".into())
        .spawn(move || {
            let mut frames = FrameReader::new(input);
            while let Ok(Some(frame)) = frames.next_frame() {
                let is_exit = matches!(&frame, Frame::Message(v)
                    if v.get("method").and_then(Value::as_str) == Some("exit"));
                if frames_tx.send(Event::Frame(frame)).is_err() || is_exit {
                    break;
                }
            }
            let _ = frames_tx.send(Event::End);
        })?;
    let mut server = Server::threaded(config, move |f| {
        let _ = tx.send(Event::Finished(f));
    });
    let code = message_loop(&mut server, &rx, output)?;
    drop(rx);
    // The reader ends at `exit` or the end of the input; after an early stop it may still
    // be blocked reading stdin, and the process exit ends it. Workers still running are
    // ended by the process exit too.
    if reader.is_finished() {
        let _ = reader.join();
    }
    Ok(code)
}

/// Writes `out`'s messages; its exit code, when `exit` came.
fn emit(output: &mut impl Write, out: Output) -> std::io::Result<Option<i32>> {
    for m in &out.messages {
        write_frame(output, m)?;
    }
    Ok(out.exit)
}

/// Handles events until `exit` or the end of the input: everything that has arrived is
/// handled in order, consecutive messages as one batch; between events, analyses past their
/// budget are stopped ([`Server::tick`]). Returns the exit code.
fn message_loop(
    server: &mut Server,
    rx: &Receiver<Event>,
    output: &mut impl Write,
) -> std::io::Result<i32> {
    loop {
        let first = match server.next_deadline() {
            Some(at) => match rx.recv_timeout(at.saturating_duration_since(Instant::now())) {
                Ok(e) => e,
                Err(RecvTimeoutError::Timeout) => {
                    let out = guarded(server, Vec::new(), |s| s.tick(Instant::now()));
                    emit(output, out)?;
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => return Ok(1),
            },
            None => match rx.recv() {
                Ok(e) => e,
                Err(_) => return Ok(1),
            },
        };
        let mut events = vec![first];
        while let Ok(more) = rx.try_recv() {
            events.push(more);
        }
        let mut values = Vec::new();
        for event in events {
            if !matches!(event, Event::Frame(Frame::Message(_))) && !values.is_empty() {
                // The messages before it are answered first, in order.
                let out = handle_guarded(server, std::mem::take(&mut values));
                if let Some(code) = emit(output, out)? {
                    return Ok(code);
                }
            }
            match event {
                Event::Frame(Frame::Message(v)) => values.push(v),
                Event::Frame(Frame::Malformed { why, id }) => {
                    // Answered, and logged: the answer has no `id` to match when the body
                    // did not get that far.
                    eprintln!("fgraph lsp: malformed frame: {why}");
                    write_frame(output, &error(id, ErrorCode::ParseError, why))?;
                }
                Event::Finished(f) => {
                    let out = guarded(server, Vec::new(), |s| s.finished(f));
                    emit(output, out)?;
                }
                Event::End => return Ok(1),
            }
        }
        if !values.is_empty() {
            let out = handle_guarded(server, values);
            if let Some(code) = emit(output, out)? {
                return Ok(code);
            }
        }
        let out = guarded(server, Vec::new(), |s| s.tick(Instant::now()));
        emit(output, out)?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The frames `input` reads as: a message's `id` (or `"msg"`), or `"bad"`.
    fn frames(input: &[u8]) -> Vec<String> {
        let mut r = FrameReader::new(input);
        std::iter::from_fn(|| r.next_frame().ok().flatten())
            .map(|f| match f {
                Frame::Message(v) => v.get("id").map_or("msg".into(), |id| id.to_string()),
                Frame::Malformed { id, .. } if id.is_null() => "bad".into(),
                Frame::Malformed { id, .. } => format!("bad {id}"),
            })
            .collect()
    }

    const GOOD: &[u8] =
        b"Content-Length: 37\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"m\"}";

    fn then_good(bad: &[u8]) -> Vec<String> {
        frames(&[bad, GOOD].concat())
    }

    #[test]
    fn frames_survive_garbage() {
        let input = b"Content-Length: 3\r\n\r\n{x}Content-Length: 2\r\n\r\n{}nonsense\r\n\r\nContent-Length: 2\r\n\r\n[]";
        assert_eq!(frames(input), ["bad", "msg", "bad", "msg"]);
        assert_eq!(frames(GOOD), ["9"]);
    }

    #[test]
    fn every_malformed_frame_is_followed_by_the_next_one() {
        let req = br#"{"jsonrpc":"2.0","id":4,"method":"m"}"#;
        let cases: &[(&str, Vec<u8>, &[&str])] = &[
            (
                "length larger than the body",
                [b"Content-Length: 60\r\n\r\n".as_slice(), req].concat(),
                &["bad 4", "9"],
            ),
            (
                "length far larger",
                [b"Content-Length: 100000\r\n\r\n".as_slice(), req].concat(),
                &["bad 4", "9"],
            ),
            (
                "length smaller than the body",
                [b"Content-Length: 10\r\n\r\n".as_slice(), req].concat(),
                &["bad", "9"],
            ),
            (
                "length zero",
                [b"Content-Length: 0\r\n\r\n".as_slice(), req].concat(),
                &["bad", "9"],
            ),
            (
                "no Content-Length",
                [b"Content-Type: x\r\n\r\n".as_slice(), req].concat(),
                &["bad", "9"],
            ),
            (
                "two Content-Lengths",
                [
                    b"Content-Length: 37\r\nContent-Length: 37\r\n\r\n".as_slice(),
                    req,
                ]
                .concat(),
                &["bad", "4", "9"],
            ),
            (
                "non-numeric",
                [b"Content-Length: 3x\r\n\r\n".as_slice(), req].concat(),
                &["bad", "9"],
            ),
            (
                "negative",
                [b"Content-Length: -38\r\n\r\n".as_slice(), req].concat(),
                &["bad", "9"],
            ),
            (
                "huge",
                [
                    b"Content-Length: 99999999999999999999999\r\n\r\n".as_slice(),
                    req,
                ]
                .concat(),
                &["bad", "9"],
            ),
            (
                "above the limit",
                [b"Content-Length: 4000000000\r\n\r\n".as_slice(), req].concat(),
                &["bad", "9"],
            ),
            (
                "not UTF-8",
                b"Content-Length: 4\r\n\r\n\"\xff\xfe\"".to_vec(),
                &["bad", "9"],
            ),
            (
                "no blank line",
                [b"Content-Length: 37\r\n".as_slice(), req].concat(),
                &["bad", "9"],
            ),
            (
                "no blank line, body on a line",
                [b"Content-Length: 37\r\n".as_slice(), req, b"\r\n"].concat(),
                &["bad", "9"],
            ),
            (
                "garbage",
                b"\x00\x01garbage}}{{ \xff".to_vec(),
                &["bad", "9"],
            ),
            (
                "garbage lines",
                b"hello world\r\n\r\nmore: stuff\r\n\r\n".to_vec(),
                &["bad", "9"],
            ),
            (
                "bare newlines",
                [b"Content-Length: 37\n\n".as_slice(), req, b"\n\n"].concat(),
                &["4", "9"],
            ),
            (
                "lower case",
                [b"content-length:37\r\n\r\n".as_slice(), req].concat(),
                &["4", "9"],
            ),
            (
                "a header line cut short",
                b"Content-Length: 3\r\nX-Cut: ".to_vec(),
                &["bad", "9"],
            ),
            (
                "a header line cut short after a first line cut short",
                b"Content-Length: 3\r\nContent-".to_vec(),
                &["bad", "9"],
            ),
            (
                "Content-Length in a string",
                [
                    b"Content-Length: 41\r\n\r\n".as_slice(),
                    br#"{"id":1,"method":"Content-Length: 5\r\n"}"#,
                ]
                .concat(),
                &["1", "9"],
            ),
        ];
        for (what, bad, want) in cases {
            assert_eq!(then_good(bad), *want, "{what}");
        }
    }

    #[test]
    fn a_truncated_frame_at_the_end_of_input_is_reported() {
        assert_eq!(frames(b"Content-Length: 50\r\n\r\n{\"id\""), ["bad"]);
        assert_eq!(frames(b"Content-Length: 5"), ["bad"]);
        assert_eq!(frames(b"Content-Le"), ["bad"]);
        assert_eq!(frames(b"\r\n\r\n"), Vec::<String>::new());
    }

    /// Splits the input into reads of one byte: the same frames.
    #[test]
    fn frames_split_across_reads() {
        struct Trickle<'a>(&'a [u8]);
        impl Read for Trickle<'_> {
            fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
                let n = self.0.len().min(out.len()).min(1);
                out[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let input = [
            b"Content-Length: 60\r\n\r\n".as_slice(),
            br#"{"jsonrpc":"2.0","id":4,"method":"m"}"#,
            b"junk\r\n\r\n",
            GOOD,
            b"Content-Length: 3\r\n\r\n{}}",
            GOOD,
        ]
        .concat();
        let mut r = FrameReader::new(Trickle(&input));
        let mut n = 0;
        while let Some(f) = r.next_frame().unwrap() {
            n += usize::from(matches!(f, Frame::Message(_)));
        }
        assert_eq!(n, 2);
    }

    /// A body larger than the limit is skipped as it arrives, never stored.
    #[test]
    fn a_body_above_the_limit_is_skipped_in_bounded_memory() {
        let header = format!("Content-Length: {}\r\n\r\n", MAX_BODY_BYTES + 1);
        let body = std::io::repeat(b'x').take(MAX_BODY_BYTES as u64 / 8);
        let input = header.as_bytes().chain(body).chain(GOOD);
        let mut r = FrameReader::new(input);
        assert!(matches!(
            r.next_frame().unwrap(),
            Some(Frame::Malformed { .. })
        ));
        assert!(matches!(r.next_frame().unwrap(), Some(Frame::Message(_))));
        assert!(r.buf.capacity() <= 4 * CHUNK, "{}", r.buf.capacity());
    }

    #[test]
    fn a_panic_answers_internal_error_and_the_server_goes_on() {
        let mut s = Server::new();
        s.handle_batch(vec![
            json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"processId": null, "rootUri": null, "capabilities": {}}}),
        ]);
        // Keep the test's output clean of the expected panic message.
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let out = handle_guarded(
            &mut s,
            vec![json!({"jsonrpc": "2.0", "id": 5, "method": "fgraph/testPanic"})],
        );
        std::panic::set_hook(hook);
        assert_eq!(out.messages.len(), 1);
        assert_eq!(out.messages[0]["id"], 5);
        assert_eq!(out.messages[0]["error"]["code"], -32603);
        let out = handle_guarded(
            &mut s,
            vec![json!({"jsonrpc": "2.0", "id": 6, "method": "shutdown"})],
        );
        assert_eq!(out.messages[0]["result"], Value::Null);
    }
}
