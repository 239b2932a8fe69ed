//! Per-instance and per-block summaries of a graph built from blocks (`analyze --summary`,
//! JSON `summary`): each kernel, its bytes, FLOPs and estimated time counted once, in the
//! instance that holds the kernel's first op. The table is `render::human::summary`.
//!
//! Rows are the graph's top-level instances (`layers.0` … `layers.31`) in order, then the ops
//! outside every block (embedding, LM head); per block, the sums over the instances of that
//! block at any depth (a kernel counts for its innermost instance's block). Every row is a sum
//! over whole kernels, so the rows add up to the model total exactly.

use crate::analysis::Analysis;
use crate::cost::CostReport;
use crate::syntax::expand::Instance;
use serde::Serialize;

/// One row: a set of kernels and what they move and compute.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Row {
    /// An instance's path, a block's name, `(outside blocks)` or `total`.
    pub name: String,
    /// The block of an instance row.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub block: Option<String>,
    /// Instances summed in a block row.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub instances: Option<usize>,
    pub kernels: usize,
    pub ops: usize,
    pub bytes_read: u64,
    pub bytes_written: u64,
    pub flops: u64,
    /// Estimated time of the kernels (roofline plus launch), when a cost model ran.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_s: Option<f64>,
}

impl Row {
    fn named(name: impl Into<String>) -> Row {
        Row {
            name: name.into(),
            ..Row::default()
        }
    }
    fn add(&mut self, other: &Row) {
        self.kernels += other.kernels;
        self.ops += other.ops;
        self.bytes_read = self.bytes_read.saturating_add(other.bytes_read);
        self.bytes_written = self.bytes_written.saturating_add(other.bytes_written);
        self.flops = self.flops.saturating_add(other.flops);
        self.time_s = match (self.time_s, other.time_s) {
            (Some(a), Some(b)) => Some(a + b),
            (a, b) => a.or(b),
        };
    }
    pub fn bytes(&self) -> u64 {
        self.bytes_read.saturating_add(self.bytes_written)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// Top-level instances in source order, then `(outside blocks)` if any op is.
    pub instances: Vec<Row>,
    /// One row per block, in order of first instance.
    pub blocks: Vec<Row>,
    pub total: Row,
}

/// The label of the ops outside every block.
pub const OUTSIDE: &str = "(outside blocks)";

/// The summary of an analysis whose graph was expanded from `instances`; `None` when it has
/// none.
pub fn summarize(
    a: &Analysis,
    instances: &[Instance],
    cost: Option<&CostReport>,
) -> Option<Summary> {
    if instances.is_empty() {
        return None;
    }
    let n_ops = a.graph.ops.len();
    // Innermost and top-level instance of each op (instances are listed outer first, and an
    // inner one's ops lie within its parent's).
    let mut inner: Vec<Option<usize>> = vec![None; n_ops];
    let mut top: Vec<Option<usize>> = vec![None; n_ops];
    let mut top_row = vec![usize::MAX; instances.len()];
    let mut rows: Vec<Row> = Vec::new();
    for (i, inst) in instances.iter().enumerate() {
        let end = inst.ops.end.min(n_ops);
        for slot in &mut inner[inst.ops.start.min(end)..end] {
            *slot = Some(i);
        }
        if inst.parent.is_none() {
            top_row[i] = rows.len();
            let mut r = Row::named(inst.path.clone());
            r.block = Some(inst.block.clone());
            rows.push(r);
            for slot in &mut top[inst.ops.start.min(end)..end] {
                *slot = Some(i);
            }
        }
    }
    let outside_row = rows.len();
    rows.push(Row::named(OUTSIDE));
    let mut block_rows: Vec<Row> = Vec::new();
    let block_of_row =
        |name: &str, rows: &mut Vec<Row>| match rows.iter().position(|r| r.name == name) {
            Some(k) => k,
            None => {
                rows.push(Row::named(name));
                rows.len() - 1
            }
        };
    // Instances per block.
    for inst in instances {
        let k = block_of_row(&inst.block, &mut block_rows);
        *block_rows[k].instances.get_or_insert(0) += 1;
    }
    for o in 0..n_ops {
        let r = top[o].map_or(outside_row, |i| top_row[i]);
        rows[r].ops += 1;
        if let Some(i) = inner[o] {
            let k = block_of_row(&instances[i].block, &mut block_rows);
            block_rows[k].ops += 1;
        }
    }
    for (k, (group, traffic)) in a.plan.groups.iter().zip(&a.traffic.groups).enumerate() {
        let Some(&first) = group.ops.first() else {
            continue;
        };
        let mut kernel = Row {
            kernels: 1,
            bytes_read: traffic.bytes_read,
            bytes_written: traffic.bytes_written,
            ..Row::default()
        };
        if let Some(kc) = cost.and_then(|c| c.fused.kernels.get(k)) {
            kernel.flops = kc.flops;
            kernel.time_s = Some(kc.time_s);
        }
        let o = first.index();
        let r = top[o].map_or(outside_row, |i| top_row[i]);
        let ops = rows[r].ops;
        rows[r].add(&kernel);
        rows[r].ops = ops;
        if let Some(i) = inner[o] {
            let k = block_of_row(&instances[i].block, &mut block_rows);
            let ops = block_rows[k].ops;
            block_rows[k].add(&kernel);
            block_rows[k].ops = ops;
        }
    }
    if rows[outside_row].ops == 0 && rows[outside_row].kernels == 0 {
        rows.pop();
    }
    let mut total = Row::named("total");
    for r in &rows {
        total.add(r);
    }
    Some(Summary {
        instances: rows,
        blocks: block_rows,
        total,
    })
}

#[cfg(test)]
mod tests {
    use crate::analysis::{Options, check_file};

    const SRC: &str = "\
block mlp(S, H = 8) {
  input x: [S, H]
  weight w: [H, H]
  op mm = matmul(x, w) -> y
  op act = elementwise.relu(y) -> a
  output a
}
graph g {
  input x: [4, 8]
  op pre = elementwise.neg(x) -> x0
  repeat 3 layers = mlp(x0, S = 4) -> h
  op post = elementwise.exp(h) -> out
  output out
}
";

    #[test]
    fn rows_add_up_to_the_total_and_the_plan() {
        let r = check_file("m.fgraph", SRC.as_bytes(), &Options::default());
        assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
        let g = &r.graphs[0];
        let a = g.analysis.as_ref().expect("analysis");
        let s = super::summarize(a, &g.instances, None).expect("summary");
        let names: Vec<&str> = s.instances.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["layers.0", "layers.1", "layers.2", super::OUTSIDE]);
        // Each layer: matmul + relu epilogue in one kernel, reading x (4x8 f32 = 128 B) and
        // w (8x8 f32 = 256 B), writing a (128 B).
        for r in &s.instances[..3] {
            assert_eq!(
                (r.kernels, r.ops, r.bytes_read, r.bytes_written),
                (1, 2, 384, 128)
            );
        }
        // pre (neg) is a kernel outside; post (exp) fuses into layers.2's kernel (relu → exp),
        // which is counted where its first op is: 1 kernel, 2 ops outside.
        assert_eq!((s.instances[3].kernels, s.instances[3].ops), (1, 2));
        assert_eq!(s.total.kernels, a.plan.groups.len());
        assert_eq!(s.total.ops, a.graph.ops.len());
        assert_eq!(s.total.bytes(), a.traffic.fused.total);
        assert_eq!(s.blocks.len(), 1);
        assert_eq!((s.blocks[0].instances, s.blocks[0].kernels), (Some(3), 3));
    }
}
