//! Which parts of a graph built from blocks the pictures draw (`--collapse-repeats`, and the
//! HTML report's plan): the first instance of each block is drawn op by op, every later one
//! is folded, and consecutive folded instances of one block (the layers of a `repeat`) become
//! one range, drawn as one node with its counts.
//!
//! An instance is folded when its block already has an instance drawn, or when it lies inside
//! a folded instance. A kernel is drawn when any of its ops is drawn (a kernel that fuses the
//! last folded layer into the ops after it is drawn, its folded ops with it); every other
//! kernel belongs to the range of its first op.

use crate::analysis::Analysis;
use crate::cost::CostReport;
use crate::syntax::expand::Instance;

/// Consecutive folded instances of one block, and the kernels folded into them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Range {
    pub block: String,
    /// Paths of the first and the last instance (`layers.1`, `layers.31`).
    pub first: String,
    pub last: String,
    pub instances: usize,
    pub ops: usize,
    pub kernels: usize,
    pub bytes_read: u64,
    pub bytes_written: u64,
    /// Estimated time of its kernels, when a cost model ran.
    pub time_s: Option<f64>,
}

impl Range {
    /// `layers.1 … layers.31` (or the one path).
    pub fn span(&self) -> String {
        if self.instances == 1 {
            self.first.clone()
        } else {
            format!("{} … {}", self.first, self.last)
        }
    }
}

/// What is drawn and what is folded.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Fold {
    pub ranges: Vec<Range>,
    /// Per op: the range it is folded into (`None`: drawn).
    pub op_range: Vec<Option<usize>>,
    /// Per kernel of the plan: the range it is folded into (`None`: drawn).
    pub kernel_range: Vec<Option<usize>>,
}

impl Fold {
    /// Whether nothing is folded (a graph without repeated blocks).
    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// Nothing folded: every op and kernel of `a` drawn.
    pub fn none(a: &Analysis) -> Fold {
        Fold {
            ranges: Vec::new(),
            op_range: vec![None; a.graph.ops.len()],
            kernel_range: vec![None; a.plan.groups.len()],
        }
    }
}

/// The fold of `a`, expanded from `instances` (outer instances first, as expansion lists
/// them); `cost` adds each range's time.
pub fn fold(a: &Analysis, instances: &[Instance], cost: Option<&CostReport>) -> Fold {
    let n_ops = a.graph.ops.len();
    let mut out = Fold::none(a);
    // The outermost folded instance of each instance (itself, an ancestor, or none).
    let mut root: Vec<Option<usize>> = vec![None; instances.len()];
    let mut drawn_blocks: std::collections::HashSet<&str> = Default::default();
    let mut roots: Vec<usize> = Vec::new();
    for (i, inst) in instances.iter().enumerate() {
        root[i] = match inst.parent.and_then(|p| root.get(p).copied().flatten()) {
            Some(r) => Some(r),
            None if !drawn_blocks.insert(inst.block.as_str()) => {
                roots.push(i);
                Some(i)
            }
            None => None,
        };
    }
    // Roots into ranges: siblings of one block whose ops follow each other.
    for (j, &i) in roots.iter().enumerate() {
        let inst = &instances[i];
        let joins = j > 0 && {
            let prev = &instances[roots[j - 1]];
            prev.parent == inst.parent && prev.block == inst.block && prev.ops.end == inst.ops.start
        };
        match out.ranges.last_mut() {
            Some(range) if joins => {
                range.last.clone_from(&inst.path);
                range.instances += 1;
            }
            _ => out.ranges.push(Range {
                block: inst.block.clone(),
                first: inst.path.clone(),
                last: inst.path.clone(),
                instances: 1,
                ..Range::default()
            }),
        }
        let r = out.ranges.len() - 1;
        let end = inst.ops.end.min(n_ops);
        for slot in &mut out.op_range[inst.ops.start.min(end)..end] {
            *slot = Some(r);
        }
        out.ranges[r].ops += end - inst.ops.start.min(end);
    }
    for (k, group) in a.plan.groups.iter().enumerate() {
        let folded = group
            .ops
            .iter()
            .map(|o| out.op_range[o.index()])
            .collect::<Option<Vec<usize>>>();
        let Some(r) = folded.and_then(|rs| rs.first().copied()) else {
            continue;
        };
        out.kernel_range[k] = Some(r);
        let range = &mut out.ranges[r];
        range.kernels += 1;
        if let Some(t) = a.traffic.groups.get(k) {
            range.bytes_read = range.bytes_read.saturating_add(t.bytes_read);
            range.bytes_written = range.bytes_written.saturating_add(t.bytes_written);
        }
        if let Some(kc) = cost.and_then(|c| c.fused.kernels.get(k)) {
            range.time_s = Some(range.time_s.unwrap_or(0.0) + kc.time_s);
        }
    }
    out
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
  repeat 4 layers = mlp(x0, S = 4) -> h
  op post = matmul(h, h.T) -> out
  output out
}
";

    #[test]
    fn the_first_instance_is_drawn_and_the_rest_is_one_range() {
        let r = check_file("m.fgraph", SRC.as_bytes(), &Options::default());
        assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
        let g = &r.graphs[0];
        let a = g.analysis.as_ref().expect("analysis");
        let f = super::fold(a, &g.instances, None);
        assert_eq!(f.ranges.len(), 1);
        let range = &f.ranges[0];
        assert_eq!(range.span(), "layers.1 … layers.3");
        assert_eq!((range.block.as_str(), range.instances), ("mlp", 3));
        assert_eq!((range.ops, range.kernels), (6, 3));
        // pre and layers.0 drawn, layers.1-3 folded, post drawn.
        let folded: Vec<bool> = f.op_range.iter().map(Option::is_some).collect();
        assert_eq!(
            folded,
            [
                false, false, false, true, true, true, true, true, true, false
            ]
        );
        assert_eq!(f.kernel_range.iter().filter(|k| k.is_some()).count(), 3);
        let drawn: u64 = a
            .traffic
            .groups
            .iter()
            .zip(&f.kernel_range)
            .filter(|(_, r)| r.is_none())
            .map(|(t, _)| t.bytes_read + t.bytes_written)
            .sum();
        assert_eq!(
            drawn + range.bytes_read + range.bytes_written,
            a.traffic.fused.total
        );
        // A graph without repeats folds nothing.
        let r = check_file(
            "n.fgraph",
            b"graph n {\n  input x: [4]\n  op a = elementwise.neg(x) -> y\n}\n",
            &Options::default(),
        );
        let g = &r.graphs[0];
        let f = super::fold(g.analysis.as_ref().expect("analysis"), &g.instances, None);
        assert!(f.is_empty() && f.op_range == [None] && f.kernel_range == [None]);
    }
}
