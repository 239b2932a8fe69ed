//! The language server's state machine: JSON-RPC messages in, messages out, no stdio, so
//! tests, the fuzz target and the benchmark drive [`Server`] directly (`super::transport`
//! runs it on stdio). It owns the open documents and their last analyses, the lifecycle
//! (`initialize`, `shutdown`, `exit`), the dispatch of every request and notification, the
//! publishing of diagnostics, and `analyse`: where a document's `fgraph.toml` becomes its
//! analysis options and hardware.
//!
//! Analysing a document (which reads its configuration and imports), checking an open
//! configuration file, formatting and semantic tokens are jobs for `super::work`'s pool.
//! [`Server::new`] runs them inline, within [`Server::handle_batch`], so a test sees every
//! result in the batch's output. [`Server::threaded`] (what `fgraph lsp` runs) runs them on worker threads and the
//! message loop never waits: each batch queues an analysis of every document whose text
//! changed (a newer version cancels the running one: the pipeline stops at its next stage),
//! a request is answered at once from the document's last completed analysis (an empty
//! result before the first; edits, for rename and code actions, only from an analysis of the
//! current text), and what a worker finds comes back through [`Server::finished`]. An
//! analysis that runs past the budget ([`DEFAULT_BUDGET`], or `initializationOptions.
//! analysisTimeout` in seconds) is stopped by [`Server::tick`], which publishes a
//! `limit-exceeded` diagnostic on the document saying so.
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
pub use super::work::Finished;
use super::work::{For, Job, Outcome, Pool, Rank, Submitted, Wake};
use crate::analysis::Options;
use crate::cost::Hardware;
use crate::diagnostics::{Code, Diagnostic, Span};
use lsp_server::{ErrorCode, Message, Notification, Request, RequestId, Response};
use serde_json::{Value, json};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How long one document's analysis may run before it is stopped (threaded mode): about
/// three times the CPU time of the largest file the limits admit (a graph of 2^21 expanded
/// ops takes 9 s in a release build), so that every file the limits admit completes on a
/// busy machine while a runaway analysis still ends.
pub const DEFAULT_BUDGET: Duration = Duration::from_secs(30);
/// The range `initializationOptions.analysisTimeout` is held to, in seconds.
const BUDGET_RANGE: (f64, f64) = (0.001, 3600.0);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Uninitialized,
    Running,
    ShuttingDown,
}

/// A completed analysis: the text it analysed (with its line starts, for positions) and
/// what fgraph found in it.
pub(super) struct Analysed {
    doc: Document,
    /// The value of [`Open::edits`] when its text was taken.
    edits: u64,
    model: FileModel,
    /// Its diagnostics as the protocol's, ready to publish (emptied once published).
    diagnostics: Vec<Value>,
    /// An invalid configuration: its URI and the diagnostics to publish on it.
    config_problem: Option<(String, Value)>,
}

/// Where the analysis of a document's current text stands.
enum State {
    /// Its text (or configuration) changed: analysed at the end of the batch.
    Stale,
    /// Analysis `job` is queued (`started` is `None`) or running; `cancel` stops it.
    Pending {
        job: u64,
        started: Option<Instant>,
        cancel: Arc<AtomicBool>,
    },
    /// Analysis `job` ran past the budget and was told to stop; a result that still
    /// arrives complete is taken.
    Stopped { job: u64 },
    /// Nothing to do until the text changes: analysed and published (or it failed, which
    /// was logged).
    Done,
}

/// An open document and what fgraph last found in it.
struct Open {
    doc: Document,
    /// Counts the changes of the text: which text an analysis saw.
    edits: u64,
    state: State,
    /// The last completed analysis, of this text or an older one.
    last: Option<Analysed>,
    /// Its last analysis ran past the budget: its next one waits behind the others.
    slow: bool,
    /// Inlay hints were answered from an older text (or none): ask the client to refresh
    /// them when the current text is analysed.
    hints_stale: bool,
}

impl Open {
    /// The last analysis, when it is of the current text.
    fn current(&self) -> Option<&Analysed> {
        self.last.as_ref().filter(|a| a.edits == self.edits)
    }
}

/// A configuration file open in the editor, and its latest check.
struct ConfigDoc {
    doc: Document,
    job: u64,
}

/// The server's state: open documents, the negotiated position encoding, where jobs run.
pub struct Server {
    phase: Phase,
    encoding: Encoding,
    docs: HashMap<String, Open>,
    /// Configuration files whose diagnostics are published (so they can be cleared).
    config_uris: HashSet<String>,
    /// `fgraph.toml` files open in the editor: checked as configuration, not as graphs.
    config_docs: HashMap<String, ConfigDoc>,
    /// The configuration for every document (`fgraph lsp --config PATH`, or the client's
    /// `initializationOptions.config`) instead of each one's nearest `fgraph.toml`.
    config: Option<PathBuf>,
    pool: Pool,
    /// How long one analysis may run (threaded).
    budget: Duration,
    /// The number of the next job (numbers are never reused, so a late result of a closed
    /// document's job never matches a document opened again under its URI).
    next_job: u64,
    /// Requests answered by a job still running, by id.
    pending: HashSet<String>,
    /// The client refreshes inlay hints when asked (`workspace.inlayHint.refreshSupport`).
    refresh_hints: bool,
    /// Refresh requests sent (their ids).
    refreshes: u64,
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

impl Output {
    fn of(messages: Vec<Value>) -> Output {
        Output {
            messages,
            exit: None,
        }
    }
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
pub(super) struct Failure(ErrorCode, String);

type Reply = Result<Value, Failure>;

/// A reply to a request: now, or later, when the job that computes it finishes.
enum Answer {
    Now(Reply),
    Later,
}

/// A reply as a message: its result, or its error.
fn reply_message(id: Value, reply: Reply) -> Value {
    match reply {
        Ok(v) => match serde_json::from_value::<RequestId>(id.clone()) {
            Ok(rid) => ok(&rid, v),
            Err(_) => json!({"jsonrpc": "2.0", "id": id, "result": v}),
        },
        Err(Failure(code, msg)) => error(id, code, msg),
    }
}

fn params<P: serde::de::DeserializeOwned>(req: &Request) -> Result<P, Failure> {
    serde_json::from_value(req.params.clone())
        .map_err(|e| Failure(ErrorCode::InvalidParams, format!("invalid params: {e}")))
}

/// Seconds as the budget's messages write them: `10 s`, `0.5 s`.
fn seconds(d: Duration) -> String {
    let s = format!("{:.3}", d.as_secs_f64());
    let s = s.trim_end_matches('0').trim_end_matches('.');
    format!("{s} s")
}

impl Server {
    /// A server that runs every job inline, within [`Server::handle_batch`]: each batch's
    /// output holds the diagnostics and replies it leads to (tests, the fuzz target, the
    /// benchmark). No time budget applies.
    pub fn new() -> Server {
        Server {
            phase: Phase::Uninitialized,
            encoding: Encoding::Utf16,
            docs: HashMap::new(),
            config_uris: HashSet::new(),
            config_docs: HashMap::new(),
            config: None,
            pool: Pool::Inline,
            budget: DEFAULT_BUDGET,
            next_job: 0,
            pending: HashSet::new(),
            refresh_hints: false,
            refreshes: 0,
        }
    }

    /// An inline server that reads `config` for every document (`fgraph lsp --config PATH`).
    pub fn with_config(config: Option<PathBuf>) -> Server {
        Server {
            config,
            ..Server::new()
        }
    }

    /// A server whose jobs run on worker threads: each hands its result to `wake` (on the
    /// worker's thread), and the caller passes it to [`Server::finished`] on its own. The
    /// caller also calls [`Server::tick`] by [`Server::next_deadline`]. `fgraph lsp` runs this.
    pub fn threaded(
        config: Option<PathBuf>,
        wake: impl Fn(Finished) + Send + Sync + 'static,
    ) -> Server {
        let wake: Wake = Arc::new(wake);
        Server {
            config,
            pool: Pool::threads(wake),
            ..Server::new()
        }
    }

    /// Whether no job is running or waiting: every open document's analysis is published or
    /// was stopped, and every request is answered.
    pub fn is_idle(&self) -> bool {
        self.pool.is_idle()
    }

    /// Handles one batch of incoming messages (each a parsed JSON value) in order.
    pub fn handle_batch(&mut self, batch: Vec<Value>) -> Output {
        let mut out = Output::of(Vec::new());
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
        self.analyse_stale(&mut out.messages);
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
                match self.request(&req, &mut out.messages) {
                    Answer::Now(Ok(v)) => out.messages.push(ok(&req.id, v)),
                    Answer::Now(Err(Failure(code, msg))) => {
                        out.messages.push(error(id_value(&req.id), code, msg))
                    }
                    Answer::Later => {}
                }
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
            // Responses to requests this server sends (inlay hint refreshes): nothing to do.
            Message::Response(_) => {}
        }
    }

    fn request(&mut self, req: &Request, out: &mut Vec<Value>) -> Answer {
        Answer::Now(match (self.phase, req.method.as_str()) {
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
            (Phase::Running, method) => return self.document_request(method, req, out),
        })
    }

    fn initialize(&mut self, req: &Request) -> Reply {
        let p: lsp_types::InitializeParams = params(req)?;
        let options = p.initialization_options.as_ref();
        if let Some(cfg) = options
            .and_then(|o| o.get("config"))
            .and_then(Value::as_str)
        {
            self.config = Some(PathBuf::from(cfg));
        }
        if let Some(secs) = options
            .and_then(|o| o.get("analysisTimeout"))
            .and_then(Value::as_f64)
        {
            let (lo, hi) = BUDGET_RANGE;
            self.budget = Duration::from_secs_f64(secs.clamp(lo, hi));
        }
        self.refresh_hints = p
            .capabilities
            .workspace
            .as_ref()
            .and_then(|w| w.inlay_hint.as_ref())
            .and_then(|h| h.refresh_support)
            .unwrap_or(false);
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
                "semanticTokensProvider": super::semantic::capability(),
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
                let uri = d.uri.as_str().to_string();
                let doc = Document::new(d.text, d.version);
                if is_config(&uri) {
                    self.config_docs
                        .insert(uri.clone(), ConfigDoc { doc, job: 0 });
                    self.check_config(&uri, out);
                    return;
                }
                // Opened again without a close: the old one's analysis is not wanted.
                self.supersede(&uri);
                self.docs.insert(
                    uri,
                    Open {
                        doc,
                        edits: 0,
                        state: State::Stale,
                        last: None,
                        slow: false,
                        hints_stale: false,
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
                let uri = p.text_document.uri.as_str().to_string();
                let version = p.text_document.version;
                if let Some(c) = self.config_docs.get_mut(&uri) {
                    apply_changes(&mut c.doc, p.content_changes, version, enc);
                    self.check_config(&uri, out);
                    return;
                }
                self.supersede(&uri);
                let Some(open) = self.docs.get_mut(&uri) else {
                    return;
                };
                apply_changes(&mut open.doc, p.content_changes, version, enc);
                open.edits += 1;
            }
            // A configuration saved or changed on disk applies to every open graph again.
            "textDocument/didSave" | "workspace/didChangeWatchedFiles" => {
                let saved = n
                    .params
                    .pointer("/textDocument/uri")
                    .and_then(Value::as_str)
                    .is_some_and(is_config);
                if saved || n.method == "workspace/didChangeWatchedFiles" {
                    let uris: Vec<String> = self.docs.keys().cloned().collect();
                    for uri in uris {
                        self.supersede(&uri);
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
                self.supersede(&uri);
                let closed = self.docs.remove(&uri).is_some();
                if closed || self.config_docs.remove(&uri).is_some() {
                    self.pool
                        .unqueue(|w| matches!(w, For::Config { uri: u, .. } if *u == uri));
                    out.push(notification(
                        "textDocument/publishDiagnostics",
                        json!({ "uri": uri, "diagnostics": [] }),
                    ));
                }
            }
            // A request still being answered by a job: answered now, cancelled. Requests
            // cancelled in their own batch are handled there; others were answered already.
            "$/cancelRequest" => {
                let Some(id) = n.params.get("id") else {
                    return;
                };
                if self.pending.remove(&id.to_string()) {
                    out.push(error(
                        id.clone(),
                        ErrorCode::RequestCanceled,
                        "request cancelled",
                    ));
                }
            }
            // $/setTrace, ...: nothing to do.
            _ => {}
        }
    }

    /// Marks the document at `uri` for analysis, stopping the one queued or running.
    fn supersede(&mut self, uri: &str) {
        let Some(open) = self.docs.get_mut(uri) else {
            return;
        };
        if let State::Pending { cancel, .. } = &open.state {
            cancel.store(true, Ordering::Relaxed);
        }
        open.state = State::Stale;
        self.pool
            .unqueue(|w| matches!(w, For::Graph { uri: u, .. } if u == uri));
    }

    /// Checks the configuration file open at `uri` (a job: inline, or on a worker).
    fn check_config(&mut self, uri: &str, out: &mut Vec<Value>) {
        let Some(c) = self.config_docs.get_mut(uri) else {
            return;
        };
        self.next_job += 1;
        c.job = self.next_job;
        let (doc, enc, owned) = (c.doc.clone(), self.encoding, uri.to_string());
        let what = For::Config {
            uri: owned.clone(),
            job: c.job,
        };
        self.pool
            .unqueue(|w| matches!(w, For::Config { uri: u, .. } if u == uri));
        let job = Job {
            what,
            rank: Rank::Config,
            run: Box::new(move || Outcome::Notify(config_diagnostics(&owned, &doc, enc))),
        };
        self.submit(job, out);
    }

    /// Hands `job` to the pool; an inline job's result is handled at once.
    fn submit(&mut self, job: Job, out: &mut Vec<Value>) {
        let what = job.what.clone();
        match self.pool.submit(job) {
            Submitted::Ran(f) => self.finish(f, out),
            Submitted::Started => self.started(&what, Instant::now()),
            Submitted::Queued => {}
        }
    }

    /// A queued job started on a thread: a document's analysis budget runs from now.
    fn started(&mut self, what: &For, now: Instant) {
        if let For::Graph { uri, job } = what
            && let Some(open) = self.docs.get_mut(uri)
            && let State::Pending {
                job: j, started, ..
            } = &mut open.state
            && j == job
        {
            *started = Some(now);
        }
    }

    /// Handles what a worker found (from the `wake` of [`Server::threaded`]): publishes a
    /// document's diagnostics, sends a reply, starts what waited for the thread. A result
    /// that was superseded meanwhile (a newer text, a closed document, a cancelled request)
    /// is dropped.
    pub fn finished(&mut self, f: Finished) -> Output {
        let mut out = Vec::new();
        let started = self.pool.done();
        let now = Instant::now();
        for what in &started {
            self.started(what, now);
        }
        self.finish(f, &mut out);
        Output::of(out)
    }

    fn finish(&mut self, f: Finished, out: &mut Vec<Value>) {
        let Finished { what, outcome } = f;
        let outcome = match outcome {
            Ok(o) => o,
            Err(panic) => {
                let why = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                self.failed(what, &why, out);
                return;
            }
        };
        match (what, outcome) {
            (For::Graph { uri, job }, Outcome::Graph(found)) => {
                let Some(open) = self.docs.get_mut(&uri) else {
                    return;
                };
                let (started, mine) = match &open.state {
                    State::Pending {
                        job: j, started, ..
                    } => (*started, *j == job),
                    State::Stopped { job: j } => (None, *j == job),
                    _ => (None, false),
                };
                if !mine {
                    return;
                }
                let Some(mut found) = found else {
                    // Stopped past its budget: the diagnostic saying so is published.
                    open.state = State::Done;
                    return;
                };
                let over = started.is_none_or(|t| t.elapsed() > self.budget);
                open.slow = !self.pool.is_inline() && over;
                open.state = State::Done;
                let diags = std::mem::take(&mut found.diagnostics);
                out.push(notification(
                    "textDocument/publishDiagnostics",
                    json!({ "uri": uri, "version": found.doc.version, "diagnostics": diags }),
                ));
                let problem = found.config_problem.take();
                let refresh = std::mem::take(&mut open.hints_stale) && self.refresh_hints;
                open.last = Some(*found);
                self.config_published(problem, out);
                if refresh {
                    self.refreshes += 1;
                    out.push(
                        json!({"jsonrpc": "2.0", "id": format!("fgraph-refresh-{}", self.refreshes),
                                    "method": "workspace/inlayHint/refresh"}),
                    );
                }
            }
            (For::Config { uri, job }, Outcome::Notify(v))
                if self.config_docs.get(&uri).is_some_and(|c| c.job == job) =>
            {
                out.push(v);
            }
            (For::Reply { id }, Outcome::Reply(reply)) if self.pending.remove(&id.to_string()) => {
                out.push(reply_message(id, reply));
            }
            // Superseded, or cancelled (every job's outcome is of its kind).
            _ => {}
        }
    }

    /// A job panicked (a bug) or found no thread: logged, its document left as it was until
    /// its next change, its request answered with `InternalError`.
    fn failed(&mut self, what: For, why: &str, out: &mut Vec<Value>) {
        let message =
            format!("internal error in fgraph (a bug: please report it with the file): {why}");
        match what {
            For::Graph { uri, job } => {
                if let Some(open) = self.docs.get_mut(&uri)
                    && matches!(open.state, State::Pending { job: j, .. } | State::Stopped { job: j } if j == job)
                {
                    open.state = State::Done;
                }
                eprintln!("fgraph lsp: analysing {uri}: {message}");
                out.push(notification(
                    "window/logMessage",
                    json!({ "type": 1, "message": format!("fgraph: analysing {uri}: {message}") }),
                ));
            }
            For::Config { uri, .. } => {
                eprintln!("fgraph lsp: checking {uri}: {message}");
            }
            For::Reply { id } => {
                if self.pending.remove(&id.to_string()) {
                    out.push(error(id, ErrorCode::InternalError, message));
                }
            }
        }
    }

    /// When the next running analysis reaches its budget, if one runs.
    pub fn next_deadline(&self) -> Option<Instant> {
        self.docs
            .values()
            .filter_map(|o| match o.state {
                State::Pending {
                    started: Some(t), ..
                } => Some(t + self.budget),
                _ => None,
            })
            .min()
    }

    /// Stops every analysis that has run past its budget at `now`, and publishes on each
    /// document a `limit-exceeded` diagnostic saying so. Its thread stops at the pipeline's
    /// next stage; until then it keeps its place in the pool.
    pub fn tick(&mut self, now: Instant) -> Output {
        let mut out = Vec::new();
        let enc = self.encoding;
        let budget = self.budget;
        for (uri, open) in &mut self.docs {
            let State::Pending {
                job,
                started: Some(t),
                cancel,
            } = &open.state
            else {
                continue;
            };
            if now < *t + budget {
                continue;
            }
            cancel.store(true, Ordering::Relaxed);
            open.state = State::Stopped { job: *job };
            open.slow = true;
            eprintln!(
                "fgraph lsp: {uri}: analysis took longer than {}; stopped",
                seconds(budget)
            );
            let d = over_budget(&open.doc, budget);
            out.push(notification(
                "textDocument/publishDiagnostics",
                json!({ "uri": uri, "version": open.doc.version,
                        "diagnostics": [lsp_diagnostic(&d, &open.doc, uri, enc)] }),
            ));
        }
        Output::of(out)
    }
}

/// The diagnostic of an analysis stopped at its budget: an error on the document's first
/// line.
fn over_budget(doc: &Document, budget: Duration) -> Diagnostic {
    let first = doc.text.find(['\n', '\r']).unwrap_or(doc.text.len());
    Diagnostic::new(
        Code::LimitExceeded,
        format!(
            "analysis took longer than {}, the language server's budget for one document; \
             it was stopped",
            seconds(budget)
        ),
    )
    .at(Span::new(0, first), "not analysed")
    .help(
        "`fgraph check` checks the file without a time budget; the client's \
         `initializationOptions.analysisTimeout` sets the budget in seconds",
    )
}

/// Whether a document is a configuration file rather than a graph.
fn is_config(uri: &str) -> bool {
    uri.ends_with(".toml")
}

/// The diagnostics of an open configuration file, from its text in the editor.
fn config_diagnostics(uri: &str, doc: &Document, enc: Encoding) -> Value {
    let path = uri_path(uri);
    let name = path
        .as_ref()
        .map_or_else(|| uri.to_string(), |p| p.display().to_string());
    // A file on disk: its library folders are resolved next to it, as `fgraph check` will.
    let parsed = match path.as_deref().and_then(Path::parent) {
        Some(dir) => crate::config::parse_in(&name, &doc.text, dir),
        None => crate::config::parse(&name, &doc.text),
    };
    let diags: Vec<Value> = match parsed {
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
    /// Queues (or, inline, runs) the analysis of every document whose text changed.
    fn analyse_stale(&mut self, out: &mut Vec<Value>) {
        let stale: Vec<String> = self
            .docs
            .iter()
            .filter(|(_, o)| matches!(o.state, State::Stale))
            .map(|(u, _)| u.clone())
            .collect();
        for uri in stale {
            self.analyse_doc(&uri, out);
        }
    }

    /// Submits the analysis of the document at `uri`'s current text.
    fn analyse_doc(&mut self, uri: &str, out: &mut Vec<Value>) {
        let (enc, config) = (self.encoding, self.config.clone());
        let Some(open) = self.docs.get_mut(uri) else {
            return;
        };
        self.next_job += 1;
        let job = self.next_job;
        let cancel = Arc::new(AtomicBool::new(false));
        open.state = State::Pending {
            job,
            started: None,
            cancel: cancel.clone(),
        };
        let (text, version, edits) = (open.doc.text.clone(), open.doc.version, open.edits);
        let owned = uri.to_string();
        let run = move || {
            let go_on = || !cancel.load(Ordering::Relaxed);
            let found = analyse(&owned, text, version, enc, config.as_deref(), &go_on);
            Outcome::Graph(found.map(|mut a| {
                a.edits = edits;
                Box::new(a)
            }))
        };
        let rank = if open.slow {
            Rank::SlowGraph
        } else {
            Rank::Graph
        };
        self.submit(
            Job {
                what: For::Graph {
                    uri: uri.to_string(),
                    job,
                },
                rank,
                run: Box::new(run),
            },
            out,
        );
    }

    /// Publishes an invalid configuration's diagnostics, or, when the configuration is
    /// valid again, clears what was published on it (an open one keeps what its text in the
    /// editor gives).
    fn config_published(&mut self, problem: Option<(String, Value)>, out: &mut Vec<Value>) {
        if let Some((cfg_uri, msgs)) = problem {
            self.config_uris.insert(cfg_uri);
            out.push(msgs);
            return;
        }
        let open_configs = &self.config_docs;
        for u in self
            .config_uris
            .drain()
            .filter(|u| !open_configs.contains_key(u))
        {
            out.push(notification(
                "textDocument/publishDiagnostics",
                json!({ "uri": u, "diagnostics": [] }),
            ));
        }
    }

    /// The open document at `uri`, analysed first when it is not and jobs run inline.
    fn open_doc(&mut self, uri: &str, out: &mut Vec<Value>) -> Option<&Open> {
        if self.pool.is_inline()
            && self
                .docs
                .get(uri)
                .is_some_and(|o| matches!(o.state, State::Stale))
        {
            self.analyse_doc(uri, out);
        }
        self.docs.get(uri)
    }

    fn document_request(&mut self, method: &str, req: &Request, out: &mut Vec<Value>) -> Answer {
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
                | "textDocument/semanticTokens/full"
                | "textDocument/semanticTokens/range"
        );
        if !known {
            return Answer::Now(Err(Failure(
                ErrorCode::MethodNotFound,
                format!("unknown method `{method}`"),
            )));
        }
        let Some(uri) = uri else {
            return Answer::Now(Err(Failure(
                ErrorCode::InvalidParams,
                "missing textDocument.uri".into(),
            )));
        };
        let Some(open) = self.open_doc(&uri, out) else {
            return Answer::Now(Err(Failure(
                ErrorCode::RequestFailed,
                format!("`{uri}` is not open"),
            )));
        };
        if method == "textDocument/formatting" {
            return self.format(req, &uri);
        }
        if method.starts_with("textDocument/semanticTokens/") {
            return self.semantic_tokens(req, &uri);
        }
        let current = open.current().is_some();
        if method == "textDocument/inlayHint"
            && !current
            && let Some(open) = self.docs.get_mut(&uri)
        {
            open.hints_stale = true;
        }
        let Some(open) = self.docs.get(&uri) else {
            return Answer::Now(Ok(Value::Null));
        };
        Answer::Now(answer(method, req, &uri, open, current, enc))
    }

    /// Formats the document at `uri` (a job: inline, or on a worker, answered when done).
    fn format(&mut self, req: &Request, uri: &str) -> Answer {
        let Some(open) = self.docs.get(uri) else {
            return Answer::Now(Ok(Value::Null));
        };
        let text = open.doc.text.clone();
        let whole = range_json(&open.doc, Span::new(0, text.len()), self.encoding);
        self.reply_later(req, move || {
            Outcome::Reply(Ok(match crate::format::format_source(&text) {
                Ok(formatted) if formatted == text => json!([]),
                Ok(formatted) => json!([{ "range": whole, "newText": formatted }]),
                // A file that does not parse is not formatted; its syntax error is published.
                Err(_) => Value::Null,
            }))
        })
    }

    /// The semantic tokens of the document at `uri`, of its current text, whole or in the
    /// request's range (a job: the text is parsed on a worker). A text over
    /// `semantic::MAX_BYTES` gets none, at once.
    fn semantic_tokens(&mut self, req: &Request, uri: &str) -> Answer {
        use super::semantic;
        let Some(open) = self.docs.get(uri) else {
            return Answer::Now(Ok(Value::Null));
        };
        if open.doc.text.len() > semantic::MAX_BYTES {
            return Answer::Now(Ok(json!({ "data": [] })));
        }
        let within = match req.params.get("range") {
            Some(r) => match serde_json::from_value::<lsp_types::Range>(r.clone()) {
                Ok(r) => {
                    let at = |p: lsp_types::Position| Pos {
                        line: p.line,
                        character: p.character,
                    };
                    let enc = self.encoding;
                    Span::new(
                        open.doc.offset(at(r.start), enc),
                        open.doc.offset(at(r.end), enc),
                    )
                }
                Err(e) => {
                    let msg = format!("invalid params: {e}");
                    return Answer::Now(Err(Failure(ErrorCode::InvalidParams, msg)));
                }
            },
            None => Span::new(0, open.doc.text.len()),
        };
        let (text, enc) = (open.doc.text.clone(), self.encoding);
        self.reply_later(req, move || {
            let h = semantic::highlight_range(&text, within);
            let data = semantic::lsp_data(&text, &h.tokens, within, enc);
            Outcome::Reply(Ok(json!({ "data": data })))
        })
    }

    /// Answers `req` with what `run` returns, run as a job: at once when jobs run inline,
    /// else when its worker is done.
    fn reply_later(
        &mut self,
        req: &Request,
        run: impl FnOnce() -> Outcome + Send + 'static,
    ) -> Answer {
        let id = id_value(&req.id);
        let job = Job {
            what: For::Reply { id: id.clone() },
            rank: Rank::Reply,
            run: Box::new(run),
        };
        match self.pool.submit(job) {
            Submitted::Ran(f) => Answer::Now(match f.outcome {
                Ok(Outcome::Reply(reply)) => reply,
                _ => Err(Failure(
                    ErrorCode::InternalError,
                    "internal error in fgraph (a bug: please report it with the file)".into(),
                )),
            }),
            Submitted::Started | Submitted::Queued => {
                self.pending.insert(id.to_string());
                Answer::Later
            }
        }
    }
}

/// A request's reply from the document's last analysis. Before its first analysis completes,
/// an empty result; from an analysis of an older text, what that text gives (positions in
/// and out are read in that text), except edits (rename, code actions), which are only
/// given from an analysis of the current text.
fn answer(
    method: &str,
    req: &Request,
    uri: &str,
    open: &Open,
    current: bool,
    enc: Encoding,
) -> Reply {
    let modified = || {
        Err(Failure(
            ErrorCode::ContentModified,
            format!("`{uri}` changed and is being analysed again: try again"),
        ))
    };
    let Some(Analysed { doc, model, .. }) = open.last.as_ref() else {
        return match method {
            "textDocument/prepareRename" | "textDocument/rename" => modified(),
            "textDocument/hover" | "textDocument/definition" => Ok(Value::Null),
            _ => Ok(json!([])),
        };
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
        "textDocument/prepareRename" | "textDocument/rename" if !current => modified(),
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
                    Ok(json!({ "changes": { uri: edits } }))
                }
                Err(msg) => Err(Failure(ErrorCode::RequestFailed, msg)),
            }
        }
        // Edits computed on an older text would land in the wrong places.
        "textDocument/codeAction" if !current => Ok(json!([])),
        "textDocument/codeAction" => {
            let p: lsp_types::CodeActionParams = params(req)?;
            let span = Span::new(offset_of(&p.range.start), offset_of(&p.range.end));
            let only = p.context.only.as_ref();
            let wants =
                |kind: &str| only.is_none_or(|o| o.iter().any(|k| kind.starts_with(k.as_str())));
            let mut actions = Vec::new();
            if wants("quickfix") {
                for (d, fix) in model.code_actions(span) {
                    actions.push(code_action(&fix, Some(d), "quickfix", doc, uri, enc));
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
                    uri,
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

/// The analysis of the document at `uri` whose text is `text`: its configuration (its
/// `fgraph.toml`, or `explicit`) read, the pipeline run (asking `go_on` between stages:
/// `None` when it said stop), its diagnostics converted; and when the configuration is
/// invalid, its URI and the diagnostics to publish on it.
fn analyse(
    uri: &str,
    text: String,
    version: i32,
    enc: Encoding,
    explicit: Option<&std::path::Path>,
    go_on: &dyn Fn() -> bool,
) -> Option<Analysed> {
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
    let doc = Document::new(text, version);
    let bytes = doc.text.as_bytes().to_vec();
    let mut model = FileModel::unless_stopped(&name, bytes, options, hardware, go_on)?;
    let config_problem = problem.map(|e| {
        let cfg_path = PathBuf::from(&e.source.name);
        let cfg_uri = file_uri(&cfg_path);
        let cfg_doc = Document::new(e.source.text.to_string(), 0);
        let diags: Vec<Value> = e
            .diagnostics
            .iter()
            .map(|d| lsp_diagnostic(d, &cfg_doc, &cfg_uri, enc))
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
    let mut diagnostics: Vec<Value> = model
        .report
        .diagnostics
        .iter()
        .map(|d| lsp_diagnostic(d, &doc, uri, enc))
        .collect();
    diagnostics.extend(model_config_note(&model, &doc, enc));
    Some(Analysed {
        doc,
        edits: 0,
        model,
        diagnostics,
        config_problem,
    })
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

    const URI: &str = "file:///nonexistent-fgraph-test/g.fgraph";
    const V1: &str = "graph g {\n  param h = 64\n  input x: f16[4, h]\n  op a = elementwise.relu(x) -> y\n  output y\n}\n";

    /// A threaded server, initialized with `options`, and where its workers' results arrive.
    fn threaded(options: Value) -> (Server, std::sync::mpsc::Receiver<Finished>) {
        let (tx, rx) = std::sync::mpsc::channel();
        let mut s = Server::threaded(None, move |f| {
            let _ = tx.send(f);
        });
        s.handle_batch(vec![
            json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"processId": null, "rootUri": null, "capabilities": {},
                       "initializationOptions": options}}),
        ]);
        (s, rx)
    }

    /// What the server sends as its workers' results arrive, until none is left.
    fn settle(s: &mut Server, rx: &std::sync::mpsc::Receiver<Finished>) -> Vec<Value> {
        let mut out = Vec::new();
        while !s.is_idle() {
            let f = rx
                .recv_timeout(std::time::Duration::from_secs(60))
                .expect("a worker's result within 60 s");
            out.extend(s.finished(f).messages);
        }
        out
    }

    fn open(uri: &str, version: i32, text: &str) -> Value {
        json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument":
            {"uri": uri, "languageId": "fgraph", "version": version, "text": text}}})
    }

    fn change(version: i32, text: &str) -> Value {
        json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": URI, "version": version}, "contentChanges": [{"text": text}]}})
    }

    fn at(id: i64, method: &str, line: u32, character: u32) -> Value {
        json!({"jsonrpc": "2.0", "id": id, "method": method, "params": {
            "textDocument": {"uri": URI}, "position": {"line": line, "character": character},
            "newName": "renamed", "range": {"start": {"line": 0, "character": 0},
                                            "end": {"line": 9, "character": 0}},
            "context": {"diagnostics": [], "includeDeclaration": true}}})
    }

    fn published(out: &[Value]) -> Vec<&Value> {
        out.iter()
            .filter(|m| {
                m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == URI
            })
            .map(|m| &m["params"])
            .collect()
    }

    #[test]
    fn threaded_requests_are_answered_at_once_from_the_last_analysis() {
        let (mut s, rx) = threaded(Value::Null);
        // Before its first analysis completes: answered at once, with nothing.
        let out = s.handle_batch(vec![
            open(URI, 1, V1),
            at(1, "textDocument/hover", 2, 8),
            at(2, "textDocument/documentSymbol", 0, 0),
            at(3, "textDocument/rename", 2, 8),
        ]);
        assert_eq!(out.messages.len(), 3, "{:?}", out.messages);
        assert_eq!(out.messages[0]["result"], Value::Null);
        assert_eq!(out.messages[1]["result"], json!([]));
        assert_eq!(out.messages[2]["error"]["code"], -32801);
        let out = settle(&mut s, &rx);
        assert_eq!(published(&out).len(), 1);
        assert_eq!(published(&out)[0]["version"], 1);
        // Analysed: the hover has the tensor.
        let out = s.handle_batch(vec![at(4, "textDocument/hover", 2, 8)]);
        let hover = out.messages[0]["result"]["contents"]["value"]
            .as_str()
            .unwrap_or("");
        assert!(hover.contains("`x`"), "{hover}");
        // A new text, two lines longer above: until it is analysed, hovers read positions
        // in the text analysed last; edits wait for the current text.
        let v2 = V1.replace("graph g {\n", "graph g {\n  // one\n  // two\n");
        let out = s.handle_batch(vec![
            change(2, &v2),
            at(5, "textDocument/hover", 2, 8),
            at(6, "textDocument/rename", 2, 8),
            at(7, "textDocument/codeAction", 2, 8),
        ]);
        let hover = out.messages[0]["result"]["contents"]["value"]
            .as_str()
            .unwrap_or("");
        assert!(hover.contains("`x`"), "{hover}");
        assert_eq!(out.messages[1]["error"]["code"], -32801);
        assert_eq!(out.messages[2]["result"], json!([]));
        let out = settle(&mut s, &rx);
        assert_eq!(published(&out)[0]["version"], 2);
        let out = s.handle_batch(vec![
            at(8, "textDocument/hover", 4, 8),
            at(9, "textDocument/rename", 4, 8),
        ]);
        let hover = out.messages[0]["result"]["contents"]["value"]
            .as_str()
            .unwrap_or("");
        assert!(hover.contains("`x`"), "{hover}");
        assert!(
            out.messages[1]["result"]["changes"].is_object(),
            "{:?}",
            out.messages
        );
    }

    #[test]
    fn inlay_hints_answered_before_the_analysis_are_refreshed_after_it() {
        let (tx, rx) = std::sync::mpsc::channel();
        let mut s = Server::threaded(None, move |f| {
            let _ = tx.send(f);
        });
        s.handle_batch(vec![
            json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"processId": null, "rootUri": null,
                       "capabilities": {"workspace": {"inlayHint": {"refreshSupport": true}}}}}),
        ]);
        let out = s.handle_batch(vec![
            open(URI, 1, V1),
            at(1, "textDocument/inlayHint", 0, 0),
        ]);
        assert_eq!(out.messages[0]["result"], json!([]));
        let out = settle(&mut s, &rx);
        let refresh: Vec<&Value> = out
            .iter()
            .filter(|m| m["method"] == "workspace/inlayHint/refresh")
            .collect();
        assert_eq!(refresh.len(), 1, "{out:?}");
        assert!(refresh[0]["id"].is_string());
        // Answered from the current text: no refresh after the next analysis.
        let out = s.handle_batch(vec![at(2, "textDocument/inlayHint", 0, 0)]);
        assert!(
            !out.messages[0]["result"]
                .as_array()
                .is_some_and(Vec::is_empty)
        );
        // The client's answer to the refresh request is taken quietly.
        let out = s.handle_batch(vec![
            json!({"jsonrpc": "2.0", "id": refresh[0]["id"], "result": null}),
            change(2, V1),
        ]);
        assert!(out.messages.is_empty(), "{:?}", out.messages);
        let out = settle(&mut s, &rx);
        assert!(
            out.iter()
                .all(|m| m["method"] != "workspace/inlayHint/refresh")
        );
    }

    #[test]
    fn a_newer_text_supersedes_a_running_analysis() {
        let (mut s, rx) = threaded(Value::Null);
        s.handle_batch(vec![open(URI, 1, V1)]);
        // Versions 2 and 3 come before version 1's result is handled: only 3 is published.
        s.handle_batch(vec![change(2, &V1.replace("relu", "gelu"))]);
        s.handle_batch(vec![change(3, &V1.replace("(x)", "(xx)"))]);
        let out = settle(&mut s, &rx);
        let p = published(&out);
        assert_eq!(p.len(), 1, "{out:?}");
        assert_eq!(p[0]["version"], 3);
        assert_eq!(p[0]["diagnostics"][0]["code"], "undefined-tensor");
    }

    #[test]
    fn an_analysis_past_its_budget_is_stopped_and_says_so() {
        let (mut s, rx) = threaded(json!({"analysisTimeout": 2.5}));
        s.handle_batch(vec![open(URI, 1, V1)]);
        let deadline = s.next_deadline().expect("running, with a deadline");
        // Not yet: nothing happens.
        assert!(
            s.tick(deadline - Duration::from_millis(1))
                .messages
                .is_empty()
        );
        let out = s.tick(deadline);
        let p = published(&out.messages);
        assert_eq!(p.len(), 1);
        let d = &p[0]["diagnostics"][0];
        assert_eq!(d["code"], "limit-exceeded");
        assert_eq!(
            d["message"],
            "analysis took longer than 2.5 s, the language server's budget for one document; it was stopped"
        );
        assert_eq!(d["range"]["end"], json!({"line": 0, "character": 9}));
        assert_eq!(s.next_deadline(), None);
        // The server goes on answering; the stopped analysis's result is taken only when it
        // completed (it may have passed its last stage before it was told to stop).
        let out = s.handle_batch(vec![at(1, "textDocument/hover", 2, 8)]);
        assert!(out.messages[0].get("result").is_some());
        let out = settle(&mut s, &rx);
        assert!(published(&out).len() <= 1);
        // The next text is analysed again, with the budget.
        s.handle_batch(vec![change(2, V1)]);
        assert!(s.next_deadline().is_some());
        let out = settle(&mut s, &rx);
        assert_eq!(published(&out)[0]["version"], 2);
    }

    #[test]
    fn formatting_is_answered_when_done_and_can_be_cancelled() {
        let (mut s, rx) = threaded(Value::Null);
        let messy = "graph g{input x:[4]\n  op a=elementwise.relu(x)->y}";
        s.handle_batch(vec![open(URI, 1, messy)]);
        let fmt = |id: i64| {
            json!({"jsonrpc": "2.0", "id": id, "method": "textDocument/formatting", "params": {
                "textDocument": {"uri": URI}, "options": {"tabSize": 2, "insertSpaces": true}}})
        };
        let out = s.handle_batch(vec![fmt(1)]);
        assert!(
            out.messages.is_empty(),
            "answered later: {:?}",
            out.messages
        );
        // A second one, cancelled while it runs: answered cancelled at once, once.
        s.handle_batch(vec![fmt(2)]);
        let out = s.handle_batch(vec![
            json!({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 2}}),
        ]);
        assert_eq!(out.messages[0]["id"], 2);
        assert_eq!(out.messages[0]["error"]["code"], -32800);
        let out = settle(&mut s, &rx);
        let replies: Vec<&Value> = out.iter().filter(|m| m.get("id").is_some()).collect();
        assert_eq!(replies.len(), 1, "{out:?}");
        assert_eq!(replies[0]["id"], 1);
        assert_eq!(
            replies[0]["result"][0]["newText"],
            "graph g {\n  input x: [4]\n  op a = elementwise.relu(x) -> y\n}\n"
        );
    }

    #[test]
    fn a_closed_document_drops_its_late_result_and_a_config_file_is_checked_on_a_worker() {
        let (mut s, rx) = threaded(Value::Null);
        s.handle_batch(vec![open(URI, 1, V1)]);
        let out = s.handle_batch(vec![
            json!({"jsonrpc": "2.0", "method": "textDocument/didClose",
            "params": {"textDocument": {"uri": URI}}}),
        ]);
        assert_eq!(published(&out.messages)[0]["diagnostics"], json!([]));
        let toml = "file:///nonexistent-fgraph-test/fgraph.toml";
        let out = s.handle_batch(vec![open(toml, 1, "allow = [\"unused-tensr\"]\n")]);
        assert!(out.messages.is_empty());
        let out = settle(&mut s, &rx);
        assert!(published(&out).is_empty(), "{out:?}");
        assert_eq!(out.len(), 1, "{out:?}");
        assert_eq!(out[0]["params"]["uri"], toml);
        assert_eq!(out[0]["params"]["diagnostics"][0]["code"], "invalid-config");
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
