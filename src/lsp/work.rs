//! Where the language server's slow work runs: analysing a document (which reads its
//! `fgraph.toml` and imports), checking an open configuration file, formatting, semantic
//! tokens. [`Pool`] either runs each [`Job`] at once on the calling thread ([`Pool::Inline`],
//! for tests, the fuzz target and the benchmark) or on worker threads ([`Pool::Threads`], for
//! `fgraph lsp`), so that the message loop never waits for one. A worker hands what it found
//! back through the `wake` callback as a [`Finished`], which the loop gives to
//! `Server::finished`.
//!
//! At most [`MAX_RUNNING`] jobs run at once (one where the machine has a single core): that
//! bounds the memory of work in flight to that many analyses, each bounded by the input
//! limits (`crate::limits`). A job that was stopped or superseded keeps its place until its
//! thread has actually returned, so abandoned work cannot pile up. The rest wait in a queue
//! that holds at most one job per document (a newer version replaces the queued one); a
//! request's reply goes first, then configuration files, then documents, and documents whose
//! last analysis ran past the budget go last.

use super::server::Failure;
use serde_json::Value;
use std::sync::Arc;

/// Most jobs that run at once.
pub const MAX_RUNNING: usize = 2;

/// What a job is for: where its result goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum For {
    /// The analysis `job` of the graph document at `uri`.
    Graph { uri: String, job: u64 },
    /// The check `job` of the configuration file open at `uri`.
    Config { uri: String, job: u64 },
    /// The reply to the request with this id.
    Reply { id: Value },
}

/// The order in which queued jobs start: lowest first, then first come.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Rank {
    Reply,
    Config,
    Graph,
    /// A document whose last analysis ran past its budget.
    SlowGraph,
}

/// What a job found.
pub(super) enum Outcome {
    /// A graph analysed, or `None` when it was stopped before the end.
    Graph(Option<Box<super::server::Analysed>>),
    /// A notification to send (a configuration file's diagnostics).
    Notify(Value),
    /// The result of a request.
    Reply(Result<Value, Failure>),
}

/// A piece of work and where its result goes.
pub(super) struct Job {
    pub what: For,
    pub rank: Rank,
    pub run: Box<dyn FnOnce() -> Outcome + Send>,
}

/// A job's result, as a worker hands it back: give it to `Server::finished`.
pub struct Finished {
    pub(super) what: For,
    /// `Err` when the job panicked (a bug): the panic's payload.
    pub(super) outcome: std::thread::Result<Outcome>,
}

/// Called by a worker thread with what its job found.
pub type Wake = Arc<dyn Fn(Finished) + Send + Sync>;

/// What became of a submitted job.
pub(super) enum Submitted {
    /// It ran on the calling thread (inline): here is its result.
    Ran(Finished),
    /// It started on a thread.
    Started,
    /// It waits for a thread.
    Queued,
}

pub(super) enum Pool {
    /// Every job runs at once, on the calling thread.
    Inline,
    /// Jobs run on threads, at most `max` at once.
    Threads {
        wake: Wake,
        max: usize,
        /// Threads started whose result has not been handed to [`Pool::done`] yet.
        running: usize,
        /// Jobs waiting, in the order they came.
        queue: Vec<Job>,
    },
}

impl Pool {
    pub fn threads(wake: Wake) -> Pool {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Pool::Threads {
            wake,
            max: MAX_RUNNING.min(cores).max(1),
            running: 0,
            queue: Vec::new(),
        }
    }

    pub fn is_inline(&self) -> bool {
        matches!(self, Pool::Inline)
    }

    /// Runs `job` now (inline), starts it on a thread, or queues it.
    pub fn submit(&mut self, job: Job) -> Submitted {
        match self {
            Pool::Inline => Submitted::Ran(run(job)),
            Pool::Threads {
                wake,
                max,
                running,
                queue,
            } => {
                if *running < *max {
                    *running += 1;
                    spawn(job, wake.clone());
                    Submitted::Started
                } else {
                    queue.push(job);
                    Submitted::Queued
                }
            }
        }
    }

    /// Drops the queued jobs for which `stale` is true (a newer version replaces them).
    pub fn unqueue(&mut self, stale: impl Fn(&For) -> bool) {
        if let Pool::Threads { queue, .. } = self {
            queue.retain(|j| !stale(&j.what));
        }
    }

    /// A job's result has arrived: its thread is done. Starts what waits; returns what it
    /// started.
    pub fn done(&mut self) -> Vec<For> {
        let Pool::Threads {
            wake,
            max,
            running,
            queue,
        } = self
        else {
            return Vec::new();
        };
        *running = running.saturating_sub(1);
        let mut started = Vec::new();
        while *running < *max && !queue.is_empty() {
            // The first of the lowest rank.
            let mut best = 0;
            for (i, j) in queue.iter().enumerate() {
                if j.rank < queue[best].rank {
                    best = i;
                }
            }
            let job = queue.remove(best);
            started.push(job.what.clone());
            *running += 1;
            spawn(job, wake.clone());
        }
        started
    }

    /// Whether nothing is running or waiting.
    pub fn is_idle(&self) -> bool {
        match self {
            Pool::Inline => true,
            Pool::Threads { running, queue, .. } => *running == 0 && queue.is_empty(),
        }
    }
}

/// Runs a job on this thread; a panic (a bug) becomes an `Err` outcome.
fn run(job: Job) -> Finished {
    let Job { what, run, .. } = job;
    Finished {
        what,
        outcome: std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)),
    }
}

/// Runs a job on a thread of its own with the CLI's stack (address space only; where that
/// much is not to be had, the default stack), handing the result to `wake`.
fn spawn(job: Job, wake: Wake) {
    // The job goes to whichever spawn succeeds; a failed spawn hands the closure back.
    let slot = Arc::new(std::sync::Mutex::new(Some((job, wake))));
    for stack in [Some(crate::perf::MAIN_STACK_BYTES), None] {
        let mine = slot.clone();
        let mut b = std::thread::Builder::new().name("fgraph-lsp-worker".into());
        if let Some(bytes) = stack {
            b = b.stack_size(bytes);
        }
        let spawned = b.spawn(move || {
            let taken = mine.lock().ok().and_then(|mut s| s.take());
            if let Some((job, wake)) = taken {
                wake(run(job));
            }
        });
        if spawned.is_ok() {
            return;
        }
    }
    // No thread to be had: the job fails, and says so, rather than blocking the loop.
    let taken = slot.lock().ok().and_then(|mut s| s.take());
    if let Some((job, wake)) = taken {
        wake(Finished {
            what: job.what,
            outcome: Err(Box::new("could not start a worker thread")),
        });
    }
}
