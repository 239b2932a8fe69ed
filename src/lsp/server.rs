//! The language server's state machine: JSON-RPC messages in, messages out, no stdio (it
//! reads only configuration and imported files), so tests, the fuzz target and the benchmark
//! drive [`Server`] directly (`super::transport` runs it on stdio). It owns the open documents and their analyses, the lifecycle
//! (`initialize`, `shutdown`, `exit`), the dispatch of every request and notification, the
//! publishing of diagnostics after each batch, and `analyse`: where a document's
//! `fgraph.toml` becomes its analysis options and hardware.
//!
//! Messages are parsed with `lsp-server`'s types and parameters with `lsp-types`
//! (rust-analyzer's crates); replies are built as JSON here, from `super::convert`'s
//! protocol values.

use super::convert::{
    apply_changes, code_action, document_symbols, file_uri, lsp_diagnostic, model_config_note,
    range_json, uri_path,
};
use super::document::{Document, Encoding, Pos};
use super::ide::{self, FileModel};
use crate::analysis::Options;
use crate::cost::Hardware;
use crate::diagnostics::Span;
use lsp_server::{ErrorCode, Message, Notification, Request, RequestId, Response};
use serde_json::{Value, json};
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Uninitialized,
    Running,
    ShuttingDown,
}

/// An open document and, once analysed, what fgraph knows about it.
struct Open {
    doc: Document,
    model: Option<FileModel>,
    /// Whether the diagnostics of the current text were published.
    published: bool,
}

/// The server's state: open documents and the negotiated position encoding.
pub struct Server {
    phase: Phase,
    encoding: Encoding,
    docs: HashMap<String, Open>,
    /// Configuration files whose diagnostics are published (so they can be cleared).
    config_uris: HashSet<String>,
    /// `fgraph.toml` files open in the editor: checked as configuration, not as graphs.
    config_docs: HashMap<String, Document>,
    /// The configuration for every document (`fgraph lsp --config PATH`, or the client's
    /// `initializationOptions.config`) instead of each one's nearest `fgraph.toml`.
    config: Option<PathBuf>,
}

impl Default for Server {
    fn default() -> Self {
        Server::new()
    }
}

/// What handling a batch produced: messages to send, and the exit code when `exit` came.
pub struct Output {
    pub messages: Vec<Value>,
    pub exit: Option<i32>,
}

pub(super) fn error(id: Value, code: ErrorCode, message: impl Into<String>) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code as i32, "message": message.into()}})
}

fn ok(id: &RequestId, result: Value) -> Value {
    let mut v = serde_json::to_value(Response::new_ok(id.clone(), result)).unwrap_or(Value::Null);
    v["jsonrpc"] = json!("2.0");
    // `Response::new_ok` with a null result leaves the key out; a response needs one.
    if v.get("result").is_none() {
        v["result"] = Value::Null;
    }
    v
}

fn notification(method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "method": method, "params": params})
}

fn id_value(id: &RequestId) -> Value {
    serde_json::to_value(id).unwrap_or(Value::Null)
}

/// A failed request: a protocol error code and message.
struct Failure(ErrorCode, String);

type Reply = Result<Value, Failure>;

fn params<P: serde::de::DeserializeOwned>(req: &Request) -> Result<P, Failure> {
    serde_json::from_value(req.params.clone())
        .map_err(|e| Failure(ErrorCode::InvalidParams, format!("invalid params: {e}")))
}

impl Server {
    pub fn new() -> Server {
        Server {
            phase: Phase::Uninitialized,
            encoding: Encoding::Utf16,
            docs: HashMap::new(),
            config_uris: HashSet::new(),
            config_docs: HashMap::new(),
            config: None,
        }
    }

    /// A server that reads `config` for every document (`fgraph lsp --config PATH`).
    pub fn with_config(config: Option<PathBuf>) -> Server {
        Server {
            config,
            ..Server::new()
        }
    }

    /// Handles one batch of incoming messages (each a parsed JSON value) in order.
    pub fn handle_batch(&mut self, batch: Vec<Value>) -> Output {
        let mut out = Output {
            messages: Vec::new(),
            exit: None,
        };
        // Requests cancelled within the batch are answered with `RequestCancelled`.
        let cancelled: HashSet<String> = batch
            .iter()
            .filter(|m| m.get("method").and_then(Value::as_str) == Some("$/cancelRequest"))
            .filter_map(|m| m.pointer("/params/id").map(|id| id.to_string()))
            .collect();
        for value in batch {
            self.handle_value(value, &cancelled, &mut out);
            if out.exit.is_some() {
                return out;
            }
        }
        self.publish_stale(&mut out.messages);
        out
    }

    fn handle_value(&mut self, value: Value, cancelled: &HashSet<String>, out: &mut Output) {
        let id = value.get("id").cloned().unwrap_or(Value::Null);
        let msg: Message = match serde_json::from_value(value) {
            Ok(m) => m,
            Err(e) => {
                out.messages.push(error(
                    id,
                    ErrorCode::InvalidRequest,
                    format!("not a JSON-RPC request or notification: {e}"),
                ));
                return;
            }
        };
        match msg {
            Message::Request(req) => {
                if cancelled.contains(&id_value(&req.id).to_string()) {
                    out.messages.push(error(
                        id_value(&req.id),
                        ErrorCode::RequestCanceled,
                        "request cancelled",
                    ));
                    return;
                }
                let reply = self.request(&req, &mut out.messages);
                out.messages.push(match reply {
                    Ok(v) => ok(&req.id, v),
                    Err(Failure(code, msg)) => error(id_value(&req.id), code, msg),
                });
            }
            Message::Notification(n) => {
                if n.method == "exit" {
                    out.exit = Some(if self.phase == Phase::ShuttingDown {
                        0
                    } else {
                        1
                    });
                    return;
                }
                self.notification(n, &mut out.messages);
            }
            // Responses to requests this server never sends: nothing to do.
            Message::Response(_) => {}
        }
    }

    fn request(&mut self, req: &Request, out: &mut Vec<Value>) -> Reply {
        match (self.phase, req.method.as_str()) {
            (Phase::Uninitialized, "initialize") => self.initialize(req),
            (Phase::Uninitialized, _) => Err(Failure(
                ErrorCode::ServerNotInitialized,
                "the server is not initialized".into(),
            )),
            (_, "initialize") => Err(Failure(
                ErrorCode::InvalidRequest,
                "initialize was already received".into(),
            )),
            (Phase::ShuttingDown, _) => Err(Failure(
                ErrorCode::InvalidRequest,
                "the server is shutting down".into(),
            )),
            // A stand-in for a bug, to test that a panic does not end the session.
            #[cfg(test)]
            (Phase::Running, "fgraph/testPanic") => panic!("a bug"),
            (Phase::Running, "shutdown") => {
                self.phase = Phase::ShuttingDown;
                Ok(Value::Null)
            }
            (Phase::Running, method) => self.document_request(method, req, out),
        }
    }

    fn initialize(&mut self, req: &Request) -> Reply {
        let p: lsp_types::InitializeParams = params(req)?;
        if let Some(cfg) = p
            .initialization_options
            .as_ref()
            .and_then(|o| o.get("config"))
            .and_then(Value::as_str)
        {
            self.config = Some(PathBuf::from(cfg));
        }
        let offers_utf8 = p
            .capabilities
            .general
            .and_then(|g| g.position_encodings)
            .is_some_and(|e| e.contains(&lsp_types::PositionEncodingKind::UTF8));
        self.encoding = if offers_utf8 {
            Encoding::Utf8
        } else {
            Encoding::Utf16
        };
        self.phase = Phase::Running;
        Ok(json!({
            "capabilities": {
                "positionEncoding": if offers_utf8 { "utf-8" } else { "utf-16" },
                "textDocumentSync": { "openClose": true, "change": 1 },
                "hoverProvider": true,
                "definitionProvider": true,
                "referencesProvider": true,
                "documentSymbolProvider": true,
                "renameProvider": { "prepareProvider": true },
                "documentFormattingProvider": true,
                "codeActionProvider": { "codeActionKinds": ["quickfix", "source.fixAll.fgraph"] },
                "inlayHintProvider": true,
            },
            "serverInfo": { "name": "fgraph", "version": env!("CARGO_PKG_VERSION") },
        }))
    }

    fn notification(&mut self, n: Notification, out: &mut Vec<Value>) {
        if self.phase != Phase::Running {
            return;
        }
        match n.method.as_str() {
            "textDocument/didOpen" => {
                let Ok(p) =
                    serde_json::from_value::<lsp_types::DidOpenTextDocumentParams>(n.params)
                else {
                    return;
                };
                let d = p.text_document;
                if is_config(d.uri.as_str()) {
                    let doc = Document::new(d.text, d.version);
                    out.push(config_diagnostics(d.uri.as_str(), &doc, self.encoding));
                    self.config_docs.insert(d.uri.as_str().to_string(), doc);
                    return;
                }
                self.docs.insert(
                    d.uri.as_str().to_string(),
                    Open {
                        doc: Document::new(d.text, d.version),
                        model: None,
                        published: false,
                    },
                );
            }
            "textDocument/didChange" => {
                let Ok(p) =
                    serde_json::from_value::<lsp_types::DidChangeTextDocumentParams>(n.params)
                else {
                    return;
                };
                let enc = self.encoding;
                let uri = p.text_document.uri.as_str();
                let version = p.text_document.version;
                if let Some(doc) = self.config_docs.get_mut(uri) {
                    apply_changes(doc, p.content_changes, version, enc);
                    out.push(config_diagnostics(uri, doc, enc));
                    return;
                }
                let Some(open) = self.docs.get_mut(uri) else {
                    return;
                };
                apply_changes(&mut open.doc, p.content_changes, version, enc);
                open.model = None;
                open.published = false;
            }
            // A configuration saved or changed on disk applies to every open graph again.
            "textDocument/didSave" | "workspace/didChangeWatchedFiles" => {
                let saved = n
                    .params
                    .pointer("/textDocument/uri")
                    .and_then(Value::as_str)
                    .is_some_and(is_config);
                if saved || n.method == "workspace/didChangeWatchedFiles" {
                    for open in self.docs.values_mut() {
                        open.model = None;
                        open.published = false;
                    }
                }
            }
            "textDocument/didClose" => {
                let Ok(p) =
                    serde_json::from_value::<lsp_types::DidCloseTextDocumentParams>(n.params)
                else {
                    return;
                };
                let uri = p.text_document.uri.as_str().to_string();
                let closed = self.docs.remove(&uri).is_some();
                if closed || self.config_docs.remove(&uri).is_some() {
                    out.push(notification(
                        "textDocument/publishDiagnostics",
                        json!({ "uri": uri, "diagnostics": [] }),
                    ));
                }
            }
            // $/cancelRequest (handled per batch), $/setTrace, ...: nothing to do.
            _ => {}
        }
    }
}

/// Whether a document is a configuration file rather than a graph.
fn is_config(uri: &str) -> bool {
    uri.ends_with(".toml")
}

/// The diagnostics of an open configuration file, from its text in the editor.
fn config_diagnostics(uri: &str, doc: &Document, enc: Encoding) -> Value {
    let name = uri_path(uri).map_or_else(|| uri.to_string(), |p| p.display().to_string());
    let diags: Vec<Value> = match crate::config::parse(&name, &doc.text) {
        Ok(_) => Vec::new(),
        Err(e) => e
            .diagnostics
            .iter()
            .map(|d| lsp_diagnostic(d, doc, uri, enc))
            .collect(),
    };
    notification(
        "textDocument/publishDiagnostics",
        json!({ "uri": uri, "version": doc.version, "diagnostics": diags }),
    )
}

impl Server {
    /// Analyses every document whose text changed and publishes its diagnostics.
    fn publish_stale(&mut self, out: &mut Vec<Value>) {
        let stale: Vec<String> = self
            .docs
            .iter()
            .filter(|(_, o)| !o.published)
            .map(|(u, _)| u.clone())
            .collect();
        for uri in stale {
            self.fresh(&uri, out);
        }
    }

    /// The analysed document at `uri` (analysing and publishing it first if its text
    /// changed since).
    fn fresh(&mut self, uri: &str, out: &mut Vec<Value>) -> Option<&Open> {
        let enc = self.encoding;
        let open = self.docs.get_mut(uri)?;
        if open.model.is_none() {
            let (model, config_problem) = analyse(uri, &open.doc.text, enc, self.config.as_deref());
            open.model = Some(model);
            let config_uris = &mut self.config_uris;
            if let Some((cfg_uri, msgs)) = config_problem {
                config_uris.insert(cfg_uri.clone());
                out.push(msgs);
            } else {
                // A configuration that was invalid and is fixed: clear what was published
                // (an open one keeps what its text in the editor gives).
                let open_configs = &self.config_docs;
                for u in config_uris
                    .drain()
                    .filter(|u| !open_configs.contains_key(u))
                {
                    out.push(notification(
                        "textDocument/publishDiagnostics",
                        json!({ "uri": u, "diagnostics": [] }),
                    ));
                }
            }
        }
        if !open.published {
            let model = open.model.as_ref()?;
            let mut diags: Vec<Value> = model
                .report
                .diagnostics
                .iter()
                .map(|d| lsp_diagnostic(d, &open.doc, uri, enc))
                .collect();
            diags.extend(model_config_note(model, &open.doc, enc));
            out.push(notification(
                "textDocument/publishDiagnostics",
                json!({ "uri": uri, "version": open.doc.version, "diagnostics": diags }),
            ));
            open.published = true;
        }
        self.docs.get(uri)
    }

    fn document_request(&mut self, method: &str, req: &Request, out: &mut Vec<Value>) -> Reply {
        let enc = self.encoding;
        let uri = req
            .params
            .pointer("/textDocument/uri")
            .and_then(Value::as_str)
            .map(str::to_string);
        let known = matches!(
            method,
            "textDocument/hover"
                | "textDocument/definition"
                | "textDocument/references"
                | "textDocument/documentSymbol"
                | "textDocument/prepareRename"
                | "textDocument/rename"
                | "textDocument/formatting"
                | "textDocument/codeAction"
                | "textDocument/inlayHint"
        );
        if !known {
            return Err(Failure(
                ErrorCode::MethodNotFound,
                format!("unknown method `{method}`"),
            ));
        }
        let Some(uri) = uri else {
            return Err(Failure(
                ErrorCode::InvalidParams,
                "missing textDocument.uri".into(),
            ));
        };
        let Some(open) = self.fresh(&uri, out) else {
            return Err(Failure(
                ErrorCode::RequestFailed,
                format!("`{uri}` is not open"),
            ));
        };
        let (doc, model) = match &open.model {
            Some(m) => (&open.doc, m),
            None => return Ok(Value::Null),
        };
        let offset_of = |p: &lsp_types::Position| {
            doc.offset(
                Pos {
                    line: p.line,
                    character: p.character,
                },
                enc,
            )
        };
        let range = |s: Span| range_json(doc, s, enc);
        let location = |s: Span| json!({ "uri": uri, "range": range(s) });
        match method {
            "textDocument/hover" => {
                let p: lsp_types::HoverParams = params(req)?;
                let at = offset_of(&p.text_document_position_params.position);
                Ok(match model.hover(at) {
                    Some((span, text)) => json!({
                        "contents": { "kind": "markdown", "value": text },
                        "range": range(span),
                    }),
                    None => Value::Null,
                })
            }
            "textDocument/definition" => {
                let p: lsp_types::GotoDefinitionParams = params(req)?;
                let at = offset_of(&p.text_document_position_params.position);
                Ok(model
                    .index
                    .at(at)
                    .and_then(|s| model.index.symbol(s).def)
                    .map_or(Value::Null, location))
            }
            "textDocument/references" => {
                let p: lsp_types::ReferenceParams = params(req)?;
                let at = offset_of(&p.text_document_position.position);
                let Some(s) = model.index.at(at) else {
                    return Ok(json!([]));
                };
                let sym = model.index.symbol(s);
                let locs: Vec<Value> = sym
                    .occurrences
                    .iter()
                    .filter(|&&sp| p.context.include_declaration || Some(sp) != sym.def)
                    .map(|&sp| location(sp))
                    .collect();
                Ok(Value::Array(locs))
            }
            "textDocument/documentSymbol" => Ok(document_symbols(model, doc, enc)),
            "textDocument/prepareRename" => {
                let p: lsp_types::TextDocumentPositionParams = params(req)?;
                let at = offset_of(&p.position);
                match model.index.at(at) {
                    Some(s) => {
                        let sym = model.index.symbol(s);
                        let span = sym
                            .occurrences
                            .iter()
                            .find(|sp| sp.start <= at && at <= sp.end)
                            .copied()
                            .unwrap_or_default();
                        Ok(json!({ "range": range(span), "placeholder": sym.name }))
                    }
                    None => Ok(Value::Null),
                }
            }
            "textDocument/rename" => {
                let p: lsp_types::RenameParams = params(req)?;
                let at = offset_of(&p.text_document_position.position);
                match model.rename(at, &p.new_name) {
                    Ok(edits) => {
                        let edits: Vec<Value> = edits
                            .iter()
                            .map(|e| json!({ "range": range(e.span), "newText": e.replacement }))
                            .collect();
                        Ok(json!({ "changes": { uri.clone(): edits } }))
                    }
                    Err(msg) => Err(Failure(ErrorCode::RequestFailed, msg)),
                }
            }
            "textDocument/formatting" => match crate::format::format_source(&doc.text) {
                Ok(text) if text == doc.text => Ok(json!([])),
                Ok(text) => {
                    Ok(json!([{ "range": range(Span::new(0, doc.text.len())), "newText": text }]))
                }
                // A file that does not parse is not formatted; its syntax error is published.
                Err(_) => Ok(Value::Null),
            },
            "textDocument/codeAction" => {
                let p: lsp_types::CodeActionParams = params(req)?;
                let span = Span::new(offset_of(&p.range.start), offset_of(&p.range.end));
                let only = p.context.only.as_ref();
                let wants = |kind: &str| {
                    only.is_none_or(|o| o.iter().any(|k| kind.starts_with(k.as_str())))
                };
                let mut actions = Vec::new();
                if wants("quickfix") {
                    for (d, fix) in model.code_actions(span) {
                        actions.push(code_action(&fix, Some(d), "quickfix", doc, &uri, enc));
                    }
                }
                if wants("source.fixAll.fgraph")
                    && let Some(fix) = model.fix_all()
                {
                    actions.push(code_action(
                        &fix,
                        None,
                        "source.fixAll.fgraph",
                        doc,
                        &uri,
                        enc,
                    ));
                }
                Ok(Value::Array(actions))
            }
            "textDocument/inlayHint" => {
                let p: lsp_types::InlayHintParams = params(req)?;
                let span = Span::new(offset_of(&p.range.start), offset_of(&p.range.end));
                let hints: Vec<Value> = model
                    .inlay_hints(span)
                    .into_iter()
                    .map(|(at, label)| {
                        let pos = doc.position(at, enc);
                        let is_type = label.starts_with(':');
                        json!({
                            "position": { "line": pos.line, "character": pos.character },
                            "label": label,
                            "kind": if is_type { 1 } else { 2 },
                            "paddingLeft": !is_type,
                        })
                    })
                    .collect();
                Ok(Value::Array(hints))
            }
            _ => Err(Failure(
                ErrorCode::MethodNotFound,
                format!("unknown method `{method}`"),
            )),
        }
    }
}

/// The configuration for the document at `uri` (its `fgraph.toml`), the analysis under it,
/// and when the configuration is invalid: its URI and the diagnostics to publish on it.
fn analyse(
    uri: &str,
    text: &str,
    enc: Encoding,
    explicit: Option<&std::path::Path>,
) -> (FileModel, Option<(String, Value)>) {
    let path = uri_path(uri);
    let name = path
        .as_ref()
        .map_or_else(|| uri.to_string(), |p| p.display().to_string());
    let found = match (explicit, path.as_deref()) {
        (Some(cfg), _) => Some(crate::config::load(cfg)),
        (None, Some(p)) => Some(crate::config::for_file(p, None)),
        (None, None) => None,
    };
    let (cfg, problem) = match found {
        Some(Ok(c)) => (c, None),
        Some(Err(e)) => (crate::config::Config::default(), Some(e)),
        None => (crate::config::Config::default(), None),
    };
    let options = cfg.options(&Options::default());
    let hardware = cfg
        .hardware
        .as_deref()
        .and_then(Hardware::preset)
        .or_else(|| Hardware::preset(crate::cost::DEFAULT_PRESET));
    // The default preset always exists; the first preset stands in for it regardless.
    let hardware = hardware.unwrap_or_else(|| Hardware::presets().swap_remove(0));
    let mut model = FileModel::new(&name, text, options, hardware);
    let published = problem.map(|e| {
        let cfg_path = PathBuf::from(&e.source.name);
        let cfg_uri = file_uri(&cfg_path);
        let doc = Document::new(e.source.text.to_string(), 0);
        let diags: Vec<Value> = e
            .diagnostics
            .iter()
            .map(|d| lsp_diagnostic(d, &doc, &cfg_uri, enc))
            .collect();
        model.config_error = Some(ide::ConfigNote {
            uri: cfg_uri.clone(),
            message: e
                .diagnostics
                .first()
                .map(|d| d.message.clone())
                .unwrap_or_default(),
            range: diags.first().and_then(|d| d.get("range").cloned()),
        });
        (
            cfg_uri.clone(),
            notification(
                "textDocument/publishDiagnostics",
                json!({ "uri": cfg_uri, "diagnostics": diags }),
            ),
        )
    });
    (model, published)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn init() -> Server {
        let mut s = Server::new();
        s.handle_batch(vec![
            json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"processId": null, "rootUri": null, "capabilities": {}}}),
        ]);
        s
    }

    #[test]
    fn a_request_cancelled_in_its_batch_is_answered_cancelled() {
        let mut s = init();
        let out = s.handle_batch(vec![
            json!({"jsonrpc": "2.0", "id": 7, "method": "textDocument/documentSymbol",
                   "params": {"textDocument": {"uri": "file:///x.fgraph"}}}),
            json!({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 7}}),
            json!({"jsonrpc": "2.0", "id": "eight", "method": "shutdown"}),
        ]);
        assert_eq!(out.messages.len(), 2);
        assert_eq!(out.messages[0]["id"], 7);
        assert_eq!(out.messages[0]["error"]["code"], -32800);
        assert_eq!(out.messages[1]["id"], "eight");
        assert_eq!(out.messages[1]["result"], Value::Null);
        let out = s.handle_batch(vec![json!({"jsonrpc": "2.0", "method": "exit"})]);
        assert_eq!(out.exit, Some(0));
    }

    #[test]
    fn messages_that_are_not_requests_get_errors() {
        let mut s = init();
        let out = s.handle_batch(vec![
            json!({"jsonrpc": "2.0", "id": 1}),
            json!([1, 2]),
            json!({"jsonrpc": "2.0", "id": 2, "method": "initialize", "params": {}}),
            json!({"jsonrpc": "2.0", "id": 3, "method": "textDocument/hover",
                   "params": {"textDocument": {"uri": "file:///closed.fgraph"},
                              "position": {"line": 0, "character": 0}}}),
        ]);
        let codes: Vec<&Value> = out.messages.iter().map(|m| &m["error"]["code"]).collect();
        // A bare id (neither request nor response) and an array are no messages; a second
        // initialize is invalid; a closed document fails the request.
        let invalid = json!(-32600);
        assert_eq!(codes, [&invalid, &invalid, &invalid, &json!(-32803)]);
    }
}
