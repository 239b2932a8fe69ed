//! The language server on stdio: `Content-Length` frames read and written, and the loop that
//! runs [`Server`] on them. A reader thread parses each frame and the main thread handles
//! everything that has arrived as one batch, so a burst of keystrokes is analysed once and a
//! `$/cancelRequest` that arrives with its request cancels it. A panic while handling a batch
//! answers its requests with `InternalError` and the session goes on.
//!
//! The transport is written here, not taken from `lsp-server`, because `lsp-server`'s reader
//! thread stops at the first malformed frame, and a malformed message must not kill the
//! server.

use super::server::{Output, Server, error};
use lsp_server::ErrorCode;
use serde_json::Value;
use std::io::{BufRead, Write};
use std::path::PathBuf;

/// One frame read from the client.
enum Frame {
    Message(Value),
    /// A frame whose body is not JSON, or whose header is broken: answered with an error.
    Malformed(String),
}

/// Reads one `Content-Length` frame; `Ok(None)` at the end of the input.
fn read_frame(r: &mut impl BufRead) -> std::io::Result<Option<Frame>> {
    let mut length: Option<usize> = None;
    let mut line = String::new();
    let mut header_error = None;
    loop {
        line.clear();
        if r.read_line(&mut line)? == 0 {
            return Ok(None);
        }
        let l = line.trim_end_matches(['\r', '\n']);
        if l.is_empty() {
            if length.is_some() || header_error.is_some() {
                break;
            }
            // Blank lines between frames.
            continue;
        }
        match l.split_once(':') {
            Some((k, v)) if k.eq_ignore_ascii_case("content-length") => {
                match v.trim().parse::<usize>() {
                    // A frame larger than any real document is refused, not allocated.
                    Ok(n) if n <= 256 * 1024 * 1024 => length = Some(n),
                    _ => header_error = Some(format!("bad Content-Length `{}`", v.trim())),
                }
            }
            Some(_) => {}
            None => header_error = Some(format!("bad header line `{l}`")),
        }
    }
    let Some(n) = length else {
        return Ok(Some(Frame::Malformed(
            header_error.unwrap_or_else(|| "missing Content-Length".into()),
        )));
    };
    let mut body = vec![0u8; n];
    r.read_exact(&mut body)?;
    Ok(Some(match serde_json::from_slice::<Value>(&body) {
        Ok(v) => Frame::Message(v),
        Err(e) => Frame::Malformed(format!("invalid JSON: {e}")),
    }))
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
    let run = std::panic::AssertUnwindSafe(|| server.handle_batch(batch));
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
    let (tx, rx) = std::sync::mpsc::channel::<Frame>();
    let reader = std::thread::Builder::new()
        .name("fgraph-lsp-reader".into())
        .spawn(move || {
            let mut input = input;
            while let Ok(Some(frame)) = read_frame(&mut input) {
                let is_exit = matches!(&frame, Frame::Message(v)
                    if v.get("method").and_then(Value::as_str) == Some("exit"));
                if tx.send(frame).is_err() || is_exit {
                    break;
                }
            }
        })?;
    let mut server = Server::with_config(config);
    let mut code = 1;
    'outer: while let Ok(first) = rx.recv() {
        let mut batch = vec![first];
        while let Ok(more) = rx.try_recv() {
            batch.push(more);
        }
        let mut values = Vec::with_capacity(batch.len());
        for frame in batch {
            match frame {
                Frame::Message(v) => values.push(v),
                Frame::Malformed(why) => {
                    // The messages before it are answered first, in order.
                    let out = handle_guarded(&mut server, std::mem::take(&mut values));
                    for m in &out.messages {
                        write_frame(output, m)?;
                    }
                    if let Some(c) = out.exit {
                        code = c;
                        break 'outer;
                    }
                    write_frame(output, &error(Value::Null, ErrorCode::ParseError, why))?;
                }
            }
        }
        let out = handle_guarded(&mut server, values);
        for m in &out.messages {
            write_frame(output, m)?;
        }
        if let Some(c) = out.exit {
            code = c;
            break;
        }
    }
    drop(rx);
    // The reader ends at `exit` or the end of the input; after an early stop it may still
    // be blocked reading stdin, and the process exit ends it.
    if reader.is_finished() {
        let _ = reader.join();
    }
    Ok(code)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn frames_survive_garbage() {
        let input = b"Content-Length: 3\r\n\r\n{x}Content-Length: 2\r\n\r\n{}nonsense\r\n\r\nContent-Length: 2\r\n\r\n[]";
        let mut r = &input[..];
        let kinds: Vec<bool> = std::iter::from_fn(|| read_frame(&mut r).ok().flatten())
            .map(|f| matches!(f, Frame::Message(_)))
            .collect();
        assert_eq!(kinds, [false, true, false, true]);
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
