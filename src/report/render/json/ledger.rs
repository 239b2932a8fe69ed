//! The `--ledger` object of the JSON report: every tensor's entry ([`EntryJson`], also the
//! `tensor` of `--explain OP`) and the totals ([`crate::report::ledger`]). Kernels are
//! indices into the report's `groups` (from 0).

use crate::fusion::Reason;
use crate::graph::Graph;
use crate::report::ledger::{Entry, Why, totals};
use serde::Serialize;

/// One entry as JSON. Kernels are indices into the report's `groups` (from 0).
#[derive(Serialize)]
pub struct EntryJson<'a> {
    pub tensor: &'a str,
    /// The tensor's size.
    pub bytes: u64,
    pub producer: Option<&'a str>,
    pub producer_kernel: Option<usize>,
    pub consumers: Vec<&'a str>,
    pub consumer_kernels: Vec<usize>,
    pub materialized: bool,
    pub why: Why,
    /// The boundaries on edges out of its producer.
    pub boundaries: Vec<BoundaryRefJson<'a>>,
    pub explanation: String,
    pub written: u64,
    pub read: u64,
    pub reads: Vec<ReadJson>,
}

#[derive(Serialize)]
pub struct BoundaryRefJson<'a> {
    pub consumer: &'a str,
    pub reason: Reason,
}

#[derive(Serialize)]
pub struct ReadJson {
    pub kernel: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<u64>,
    pub bytes: u64,
}

impl<'a> EntryJson<'a> {
    pub fn new(g: &'a Graph, e: &Entry) -> Self {
        let t = g.tensor(e.tensor);
        EntryJson {
            tensor: &t.name,
            bytes: t.bytes,
            producer: e.producer.map(|p| g.op(p).name.as_str()),
            producer_kernel: e.producer_kernel,
            consumers: g
                .consumers(e.tensor)
                .iter()
                .map(|&c| g.op(c).name.as_str())
                .collect(),
            consumer_kernels: e.consumer_kernels.clone(),
            materialized: e.materialized,
            why: e.why,
            boundaries: e
                .boundaries
                .iter()
                .map(|&(c, reason)| BoundaryRefJson {
                    consumer: &g.op(c).name,
                    reason,
                })
                .collect(),
            explanation: e.explanation(g),
            written: e.written,
            read: e.read(),
            reads: e
                .reads
                .iter()
                .map(|r| ReadJson {
                    kernel: r.kernel,
                    index: r.index,
                    bytes: r.bytes,
                })
                .collect(),
        }
    }
}

/// The ledger as JSON: every entry, then the totals.
#[derive(Serialize)]
pub struct LedgerJson<'a> {
    pub tensors: Vec<EntryJson<'a>>,
    /// Σ written and Σ read over the entries: `traffic.fused.bytes_written` and
    /// `traffic.fused.bytes_read`.
    pub bytes_written: u64,
    pub bytes_read: u64,
}

impl<'a> LedgerJson<'a> {
    pub fn new(g: &'a Graph, entries: &[Entry]) -> Self {
        let (bytes_written, bytes_read) = totals(entries);
        LedgerJson {
            tensors: entries.iter().map(|e| EntryJson::new(g, e)).collect(),
            bytes_written,
            bytes_read,
        }
    }
}
