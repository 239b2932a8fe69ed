//! The layout of every tensor of the written graph on one GPU, found op by op in topological
//! order from the weights' roles, and where collectives go: each op kind's rule says what its
//! output is from its inputs' layouts, or why it cannot take them (a diagnostic at the op).

mod shape;

use super::{Plan, Role};
use crate::diagnostics::{Code, Diagnostic};
use crate::graph::{Graph, OpId, OpNode, Origin, TensorId, TensorUse};
use crate::ops::funcs::{self, FuncShape};
use crate::types::OpKind;
use std::collections::HashMap;

/// What one GPU holds of a tensor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Layout {
    /// The whole tensor, the same on every GPU of the groups.
    Full,
    /// A `1/size` slice of `axis` over group `g`.
    Split { axis: usize, g: usize },
    /// The whole shape, a partial sum over group `g` (an all-reduce follows its op).
    Partial { g: usize },
    /// Expert-major rows after a dispatch over group `g`: axis 0 (the experts) divided, axis
    /// 1 (the rows) multiplied by the group's size.
    Exchanged { g: usize },
    /// A `1/size` slice of the sequence `axis` over tensor group `g` (sequence parallelism,
    /// after a reduce-scatter): gathered before any op that needs the whole sequence.
    Seq { axis: usize, g: usize },
    /// An error was reported upstream: nothing more is said.
    Poisoned,
}

/// What reading a tensor needs first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Fetch {
    /// An all-to-all that sends each expert its rows (split axis 0, concat axis 1).
    Dispatch(usize),
    /// The all-to-all back (split axis 1, concat axis 0).
    Combine(usize),
    /// An all-gather of the sequence `axis` over group `g`.
    Gather { g: usize, axis: usize },
}

/// The walk's findings.
pub(super) struct Walk<'a> {
    g: &'a Graph,
    plan: &'a Plan,
    /// Of every tensor of the written graph.
    pub layout: Vec<Layout>,
    /// Weights divided: (role, index into the plan's assigns).
    pub roles: HashMap<TensorId, (Role, usize)>,
    /// Ops whose output is a partial sum: an all-reduce over the group follows, or, under
    /// sequence parallelism, a reduce-scatter along the sequence axis.
    pub reduce: HashMap<OpId, (usize, Option<usize>)>,
    /// Inputs (op, argument index) read through an all-to-all.
    pub fetch: HashMap<(OpId, usize), Fetch>,
    pub diags: Vec<Diagnostic>,
    /// Ops already reported (an instance's error is reported once, at its block's op).
    reported: std::collections::HashSet<crate::diagnostics::Span>,
}

/// Why an op cannot take its inputs' layouts.
struct Refusal {
    message: String,
    label: String,
    help: String,
}

fn refuse(message: String, label: impl Into<String>, help: impl Into<String>) -> Refusal {
    Refusal {
        message,
        label: label.into(),
        help: help.into(),
    }
}

/// The axis a view shows of a tensor's axis `a` (rank `r`): `t[i]` drops axis 0, `.T` swaps
/// the last two. `None`: the view reads one index of a divided axis.
fn through_view(a: usize, r: usize, u: &TensorUse) -> Option<usize> {
    let mut a = a;
    let mut r = r;
    if u.index.is_some() {
        if a == 0 {
            return None;
        }
        a -= 1;
        r -= 1;
    }
    if u.transpose && r >= 2 {
        if a == r - 1 {
            a = r - 2;
        } else if a == r - 2 {
            a = r - 1;
        }
    }
    Some(a)
}

impl<'a> Walk<'a> {
    pub fn new(g: &'a Graph, plan: &'a Plan) -> Self {
        Walk {
            g,
            plan,
            layout: vec![Layout::Full; g.tensors.len()],
            roles: HashMap::new(),
            reduce: HashMap::new(),
            fetch: HashMap::new(),
            diags: Vec::new(),
            reported: Default::default(),
        }
    }

    fn size(&self, g: usize) -> u64 {
        self.plan.groups[g].size
    }
    fn group(&self, g: usize) -> &str {
        &self.plan.groups[g].name
    }

    /// Gives each named weight its layout: every weight of that name, the graph's own or an
    /// instance's (`layers.3.wq` for `wq`).
    pub fn assign(&mut self) {
        // Tensors by their name's last part (`wq` for `layers.3.wq`): a role names a weight
        // as its graph or block writes it (an identifier, without dots).
        let mut by_last: HashMap<&str, Vec<TensorId>> = HashMap::new();
        for (i, t) in self.g.tensors.iter().enumerate() {
            let last = t.name.rsplit('.').next().unwrap_or(&t.name);
            by_last.entry(last).or_default().push(TensorId(i as u32));
        }
        for (k, a) in self.plan.assigns.iter().enumerate() {
            let matches = by_last.get(a.name.as_str()).cloned().unwrap_or_default();
            if matches.is_empty() {
                self.diags.push(
                    Diagnostic::new(
                        Code::UndefinedTensor,
                        format!(
                            "`{}` names no weight of graph `{}`",
                            a.name, self.g.name
                        ),
                    )
                    .at(a.span, "no such weight")
                    .help("name a weight as its graph or block declares it (`column wq` divides `wq` in every instance)"),
                );
                continue;
            }
            let n = self.size(a.group);
            for t in matches {
                let tensor = self.g.tensor(t);
                if tensor.origin != Origin::Weight {
                    self.diags.push(
                        Diagnostic::new(
                            Code::BadAttribute,
                            format!(
                                "`{}` is {}, not a weight: only weights are divided",
                                tensor.name,
                                match tensor.origin {
                                    Origin::Input => "an input",
                                    _ => "an op's output",
                                }
                            ),
                        )
                        .at(a.span, format!("under `{}`", a.role.as_str()))
                        .with(tensor.span, "declared here")
                        .help("activations follow the weights they meet; name the weights"),
                    );
                    // Nothing downstream is said of it.
                    self.layout[t.index()] = Layout::Poisoned;
                    break;
                }
                let r = tensor.shape.len();
                if a.role == Role::Cache {
                    // Its axis is the written rows' (`update`'s rule).
                    self.roles.insert(t, (a.role, k));
                    continue;
                }
                let axis = match a.role {
                    Role::Cache => None,
                    Role::Column => r.checked_sub(1),
                    Role::Row => r.checked_sub(2),
                    Role::Experts => (r >= 3).then_some(0),
                    // An embedding table's gathered axis, or an LM head's output features.
                    Role::Vocab => {
                        let gathered = self.g.consumers(t).iter().find_map(|&o| {
                            let op = self.g.op(o);
                            (op.kind == OpKind::Gather && op.inputs.first()?.tensor == t)
                                .then(|| op.int_attr("axis").unwrap_or(0))
                        });
                        match gathered {
                            Some(ax) => usize::try_from(if ax < 0 { ax + r as i64 } else { ax })
                                .ok()
                                .filter(|&ax| ax < r),
                            None => r.checked_sub(1),
                        }
                    }
                };
                let Some(axis) = axis else {
                    self.diags.push(
                        Diagnostic::new(
                            Code::ShapeMismatch,
                            format!(
                                "weight `{}` {} has no axis for `{}`",
                                tensor.name,
                                crate::units::fmt_shape(&tensor.shape),
                                a.role.as_str()
                            ),
                        )
                        .at(
                            a.span,
                            format!("`{}` divides {}", a.role.as_str(), a.role.doc()),
                        )
                        .with(tensor.span, "declared here")
                        .help(if a.role == Role::Experts {
                            "stack the experts' weights on a leading axis, `[E, H, F]`"
                        } else {
                            "a row-parallel weight has two axes or more"
                        }),
                    );
                    // Nothing downstream is said of it.
                    self.layout[t.index()] = Layout::Poisoned;
                    break;
                };
                let d = tensor.shape[axis];
                if !d.is_multiple_of(n) {
                    self.diags.push(
                        Diagnostic::new(
                            Code::ShapeMismatch,
                            format!(
                                "`{}` divides axis {axis} of weight `{}` {} over {n} GPUs, but {n} does not divide {d}",
                                a.role.as_str(),
                                tensor.name,
                                crate::units::fmt_shape(&tensor.shape)
                            ),
                        )
                        .at(a.span, format!("axis {axis} is {d}, not a multiple of {n}"))
                        .with(self.plan.groups[a.group].span, format!("a group of {n}"))
                        .help(format!(
                            "each GPU holds an equal shard: pad axis {axis} to {}, change the group's size, or leave `{}` whole",
                            d.div_ceil(n) * n,
                            a.name
                        )),
                    );
                    // Nothing downstream is said of it.
                    self.layout[t.index()] = Layout::Poisoned;
                    break;
                }
                self.layout[t.index()] = Layout::Split { axis, g: a.group };
                self.roles.insert(t, (a.role, k));
            }
        }
    }

    /// Finds every op's output layout, in topological order.
    pub fn run(&mut self) {
        for &o in &self.g.topo {
            let out = self.g.op(o).output;
            let l = match self.op(o) {
                Ok(l) => l,
                Err(r) => {
                    let op = self.g.op(o);
                    if self.reported.insert(op.span) {
                        self.diags.push(
                            Diagnostic::new(Code::ShapeMismatch, r.message)
                                .at(op.span, r.label)
                                .help(r.help),
                        );
                    }
                    Layout::Poisoned
                }
            };
            self.layout[out.index()] = match l {
                Layout::Partial { g } => self.reduced(o, g),
                l => l,
            };
        }
    }

    /// Every weight under `cache` took the axis of the rows an `update` writes into it.
    pub fn caches(&mut self) {
        let mut caches: Vec<(TensorId, usize)> = self
            .roles
            .iter()
            .filter(|(_, (r, _))| *r == Role::Cache)
            .map(|(&t, &(_, k))| (t, k))
            .collect();
        caches.sort_unstable();
        // One diagnostic per name, not one per instance.
        let mut told = std::collections::HashSet::new();
        for (t, k) in caches {
            if self.layout[t.index()] != Layout::Full || told.contains(&k) {
                continue;
            }
            let a = &self.plan.assigns[k];
            let written = self.g.consumers(t).iter().any(|&o| {
                let op = self.g.op(o);
                op.kind == OpKind::Update && op.inputs.first().is_some_and(|u| u.tensor == t)
            });
            if written && self.size(a.group) == 1 {
                continue;
            }
            let tensor = self.g.tensor(t);
            let d = if written {
                Diagnostic::new(
                    Code::ShapeMismatch,
                    format!(
                        "cache `{}` is under `cache`, but the rows written into it are whole",
                        tensor.name
                    ),
                )
                .at(a.span, "divided like the rows written")
                .help("divide the weights that make the rows (`column wk, wv`), or leave the cache whole")
            } else {
                Diagnostic::new(
                    Code::BadAttribute,
                    format!(
                        "`{}` is under `cache`, but no `update` writes into it",
                        tensor.name
                    ),
                )
                .at(a.span, "not a cache")
                .with(tensor.span, "declared here")
                .help(format!(
                    "a cache is a weight an `update` writes; divide `{}` under another role",
                    a.name
                ))
            };
            self.diags.push(d);
            told.insert(k);
        }
    }

    /// The layout of partial sums over `g` made by `o` once summed: whole after an
    /// all-reduce, or divided on the sequence axis after a reduce-scatter.
    fn reduced(&mut self, o: OpId, g: usize) -> Layout {
        let seq = self.plan.sequence.filter(|&(sg, _)| sg == g);
        let Some((_, axis)) = seq else {
            self.reduce.insert(o, (g, None));
            return Layout::Full;
        };
        let op = self.g.op(o);
        let shape = &self.g.tensor(op.output).shape;
        let n = self.size(g);
        match shape.get(axis) {
            Some(d) if d.is_multiple_of(n) => {
                self.reduce.insert(o, (g, Some(axis)));
                Layout::Seq { axis, g }
            }
            found => {
                if self.reported.insert(op.span) {
                    self.diags.push(
                        Diagnostic::new(
                            Code::ShapeMismatch,
                            format!(
                                "sequence parallelism scatters axis {axis} of `{}` {} over `{}` ({n} GPUs), but {}",
                                self.g.tensor(op.output).name,
                                crate::units::fmt_shape(shape),
                                self.group(g),
                                match found {
                                    Some(d) => format!("{n} does not divide {d}"),
                                    None => format!("it has no axis {axis}"),
                                }
                            ),
                        )
                        .at(op.span, "its partial sums are reduce-scattered")
                        .help("give `sequence =` the activations' sequence axis, a multiple of the group's size"),
                    );
                }
                Layout::Poisoned
            }
        }
    }

    /// The layout an op reads through argument `u` (its view applied).
    fn seen(&self, u: &TensorUse) -> Result<Layout, Refusal> {
        let t = self.g.tensor(u.tensor);
        Ok(match self.layout[u.tensor.index()] {
            l @ (Layout::Split { axis, g } | Layout::Seq { axis, g }) => {
                match through_view(axis, t.shape.len(), u) {
                    Some(axis) if matches!(l, Layout::Seq { .. }) => Layout::Seq { axis, g },
                    Some(axis) => Layout::Split { axis, g },
                    None => {
                        return Err(refuse(
                            format!(
                                "`{}` reads one index of axis 0 of `{}`, which is divided over `{}`",
                                self.g.use_name(u),
                                t.name,
                                self.group(g)
                            ),
                            "an index of a divided axis",
                            "index an axis that is not divided",
                        ));
                    }
                }
            }
            Layout::Exchanged { g } if u.index.is_some() || u.transpose => {
                return Err(refuse(
                    format!(
                        "`{}` is a view of the expert rows of `{}` over `{}`",
                        self.g.use_name(u),
                        t.name,
                        self.group(g)
                    ),
                    "a view of exchanged rows",
                    "read the expert rows whole",
                ));
            }
            l => l,
        })
    }

    /// Output layout of op `o`.
    fn op(&mut self, o: OpId) -> Result<Layout, Refusal> {
        let g = self.g;
        let op = g.op(o);
        let mut ins = Vec::with_capacity(op.inputs.len());
        for u in &op.inputs {
            ins.push(self.seen(u)?);
        }
        if ins.contains(&Layout::Poisoned) {
            return Ok(Layout::Poisoned);
        }
        // Expert rows go back to token order before any op but an elementwise one or a
        // matmul (`elementwise` and `matmul` decide below).
        if !matches!(op.kind, OpKind::Elementwise | OpKind::Matmul) {
            self.combine_all(o, &mut ins);
        }
        // A sequence-divided tensor stays so through row-wise ops; anything else gathers it.
        if ins.iter().any(|l| matches!(l, Layout::Seq { .. })) {
            if let Some(l) = self.seq_rule(op, &ins) {
                return Ok(l);
            }
            for (i, l) in ins.iter_mut().enumerate() {
                if let Layout::Seq { g, .. } = *l
                    && let Layout::Seq { axis, .. } = self.layout[op.inputs[i].tensor.index()]
                {
                    self.fetch.insert((o, i), Fetch::Gather { g, axis });
                    *l = Layout::Full;
                }
            }
        }
        if ins.iter().all(|l| *l == Layout::Full) {
            return Ok(Layout::Full);
        }
        let shapes: Vec<Vec<u64>> = op.inputs.iter().map(|u| g.use_shape(u)).collect();
        let out_rank = g.tensor(op.output).shape.len();
        match op.kind {
            OpKind::Matmul => self.matmul(o, op, &mut ins, &shapes),
            OpKind::Elementwise => {
                if ins.iter().any(|l| matches!(l, Layout::Exchanged { .. })) {
                    // Kept exchanged when every other input broadcasts over the two axes.
                    let fits = ins.iter().zip(&shapes).all(|(l, s)| match l {
                        Layout::Exchanged { .. } => s.len() == out_rank,
                        Layout::Full => {
                            let off = out_rank.saturating_sub(s.len());
                            (0..2).all(|a| a < off || s[a - off] == 1)
                        }
                        _ => false,
                    });
                    let gs: Vec<usize> = ins
                        .iter()
                        .filter_map(|l| match l {
                            Layout::Exchanged { g } => Some(*g),
                            _ => None,
                        })
                        .collect();
                    if fits && gs.windows(2).all(|w| w[0] == w[1]) {
                        return Ok(Layout::Exchanged { g: gs[0] });
                    }
                    self.combine_all(o, &mut ins);
                }
                self.broadcast(op, &ins, &shapes, out_rank)
            }
            OpKind::Reduction => self.reduction(op, &ins, &shapes),
            OpKind::Attention => {
                let l = self.broadcast(op, &ins, &shapes, out_rank)?;
                match l {
                    Layout::Split { axis, .. } if axis + 2 >= out_rank => Err(self.cannot(
                        op,
                        "divides a sequence or head-dimension axis",
                        "divide the heads (an axis before the last two)",
                    )),
                    l => Ok(l),
                }
            }
            OpKind::Reshape => self.reshape(op, ins[0], &shapes[0]),
            OpKind::Permute => match ins[0] {
                Layout::Split { axis, g } => {
                    let dims = op.list_attr("dims").unwrap_or(&[]);
                    let r = shapes[0].len() as i64;
                    match dims
                        .iter()
                        .position(|&d| (if d < 0 { d + r } else { d }) == axis as i64)
                    {
                        Some(p) => Ok(Layout::Split { axis: p, g }),
                        None => Err(self.cannot(op, "has no such axis", "")),
                    }
                }
                _ => Err(self.cannot(op, "cannot take it", "")),
            },
            OpKind::Update if ins[0] == Layout::Full && self.is_cache(op) => {
                // A cache named under `cache` takes the written rows' axis.
                let Layout::Split { axis, g } = ins[1] else {
                    return Err(self.cannot(op, "writes rows that are not divided", ""));
                };
                let axis = axis + shapes[0].len().saturating_sub(shapes[1].len());
                let t = op.inputs[0].tensor;
                let (d, n) = (self.g.tensor(t).shape[axis], self.size(g));
                if !d.is_multiple_of(n) {
                    return Err(refuse(
                        format!(
                            "cache `{}` would be divided on axis {axis} over `{}` ({n} GPUs), but {n} does not divide {d}",
                            self.g.tensor(t).name,
                            self.group(g)
                        ),
                        "the rows written are divided on that axis",
                        "give the cache's heads their own axis, a multiple of the group's size",
                    ));
                }
                self.layout[t.index()] = Layout::Split { axis, g };
                Ok(Layout::Split { axis, g })
            }
            OpKind::Slice | OpKind::Concat | OpKind::Update => {
                let ax = op.int_attr("axis").unwrap_or(0);
                let r = shapes[0].len() as i64;
                let ax = if ax < 0 { ax + r } else { ax };
                let l = self.broadcast(op, &ins, &shapes, out_rank)?;
                match l {
                    Layout::Split { axis, .. } if axis as i64 == ax => Err(self.cannot(
                        op,
                        &format!("works along axis {ax}, the divided one"),
                        "divide another axis",
                    )),
                    // Every tensor argument must be divided alike (a whole one would be
                    // sliced, joined or written whole).
                    Layout::Split { .. } if ins.contains(&Layout::Full) => Err(self.cannot(
                        op,
                        "meets a divided tensor and a whole one",
                        "divide the weights that make the whole one the same way",
                    )),
                    l => Ok(l),
                }
            }
            OpKind::Expand => match ins[0] {
                Layout::Split { axis, g } => Ok(Layout::Split {
                    axis: axis + out_rank - shapes[0].len(),
                    g,
                }),
                _ => Err(self.cannot(op, "cannot take it", "")),
            },
            OpKind::Gather => {
                let ax = op.int_attr("axis").unwrap_or(0);
                let r = shapes[0].len() as i64;
                let ax = (if ax < 0 { ax + r } else { ax }) as usize;
                match (ins[0], ins.get(1).copied().unwrap_or(Layout::Full)) {
                    (Layout::Split { axis, g }, Layout::Full) if axis == ax => {
                        Ok(Layout::Partial { g })
                    }
                    (Layout::Split { axis, g }, Layout::Full) => Ok(Layout::Split {
                        axis: if axis < ax {
                            axis
                        } else {
                            axis + shapes.get(1).map_or(1, Vec::len) - 1
                        },
                        g,
                    }),
                    _ => Err(self.cannot(
                        op,
                        "looks up divided ids",
                        "divide the table (`vocab`), not the ids",
                    )),
                }
            }
            _ => Err(self.cannot(
                op,
                "cannot take a divided tensor",
                "leave the weights that lead here whole, or gather the tensor first with `all_gather`",
            )),
        }
    }

    /// The output of a row-wise op (elementwise, a reduction over another axis, a matmul by a
    /// whole weight) whose divided arguments are all sequence-divided alike; `None` when the
    /// op needs the whole sequence.
    fn seq_rule(&self, op: &OpNode, ins: &[Layout]) -> Option<Layout> {
        if !matches!(
            op.kind,
            OpKind::Elementwise | OpKind::Reduction | OpKind::Matmul
        ) {
            return None;
        }
        let mut as_split = Vec::with_capacity(ins.len());
        for l in ins {
            as_split.push(match *l {
                Layout::Seq { axis, g } => Layout::Split { axis, g },
                Layout::Full => Layout::Full,
                _ => return None,
            });
        }
        let shapes: Vec<Vec<u64>> = op.inputs.iter().map(|u| self.g.use_shape(u)).collect();
        let out_rank = self.g.tensor(op.output).shape.len();
        let l = match op.kind {
            OpKind::Elementwise => self.broadcast(op, &as_split, &shapes, out_rank),
            OpKind::Reduction => self.reduction(op, &as_split, &shapes),
            // The rows of `a` by a whole weight.
            _ => match (as_split.first(), as_split.get(1), shapes.first()) {
                (Some(Layout::Split { axis, g }), Some(Layout::Full), Some(s))
                    if axis + 2 == s.len() =>
                {
                    Ok(Layout::Split {
                        axis: out_rank - 2,
                        g: *g,
                    })
                }
                _ => return None,
            },
        };
        match l {
            Ok(Layout::Split { axis, g }) => Some(Layout::Seq { axis, g }),
            _ => None,
        }
    }

    /// Whether `op` (an `update`) writes into a weight named under `cache`.
    fn is_cache(&self, op: &OpNode) -> bool {
        op.inputs.first().is_some_and(|u| {
            self.roles
                .get(&u.tensor)
                .is_some_and(|&(r, _)| r == Role::Cache)
        }) && op.inputs.len() > 1
    }

    /// Reads every exchanged argument of `o` through a combine.
    fn combine_all(&mut self, o: OpId, ins: &mut [Layout]) {
        for (i, l) in ins.iter_mut().enumerate() {
            if let Layout::Exchanged { g } = *l {
                self.fetch.insert((o, i), Fetch::Combine(g));
                *l = Layout::Full;
            }
        }
    }

    /// The refusal of op `op` to take a divided argument.
    fn cannot(&self, op: &OpNode, why: &str, help: &str) -> Refusal {
        let divided = op
            .inputs
            .iter()
            .find_map(|u| match self.layout[u.tensor.index()] {
                Layout::Split { axis, g } => Some(format!(
                    "`{}` (axis {axis} divided over `{}`)",
                    self.g.use_name(u),
                    self.group(g)
                )),
                Layout::Seq { axis, g } => Some(format!(
                    "`{}` (sequence axis {axis} divided over `{}`)",
                    self.g.use_name(u),
                    self.group(g)
                )),
                Layout::Exchanged { g } => Some(format!(
                    "`{}` (expert rows over `{}`)",
                    self.g.use_name(u),
                    self.group(g)
                )),
                _ => None,
            })
            .unwrap_or_default();
        refuse(
            format!(
                "{} `{}` cannot be sharded: it reads {divided} and {why}",
                op.kind_func(),
                op.name
            ),
            "cannot be divided this way",
            if help.is_empty() {
                "leave the weights that lead here whole".to_string()
            } else {
                help.to_string()
            },
        )
    }

    /// Arguments aligned from the right (numpy broadcasting): every divided one divided on
    /// the same output axis over the same group, every whole one of size 1 there (or without
    /// that axis).
    fn broadcast(
        &self,
        op: &OpNode,
        ins: &[Layout],
        shapes: &[Vec<u64>],
        out_rank: usize,
    ) -> Result<Layout, Refusal> {
        let mut found: Option<(usize, usize, usize)> = None;
        for (i, l) in ins.iter().enumerate() {
            match *l {
                Layout::Split { axis, g } => {
                    let oa = axis + out_rank.saturating_sub(shapes[i].len());
                    match found {
                        Some((a, h, _)) if (a, h) != (oa, g) => {
                            return Err(self.cannot(
                                op,
                                "another argument divided differently",
                                "divide the arguments along the same axis",
                            ));
                        }
                        _ => found = Some((oa, g, i)),
                    }
                }
                Layout::Full => {}
                _ => return Err(self.cannot(op, "cannot take it", "")),
            }
        }
        let Some((oa, g, _)) = found else {
            return Ok(Layout::Full);
        };
        for (i, l) in ins.iter().enumerate() {
            if *l != Layout::Full {
                continue;
            }
            let s = &shapes[i];
            let off = out_rank.saturating_sub(s.len());
            if oa >= off && s[oa - off] != 1 {
                let u = &op.inputs[i];
                let t = self.g.tensor(u.tensor);
                let help = if t.origin == Origin::Weight {
                    format!(
                        "divide `{}` too: name it under the role of the weight it follows (`column {}`)",
                        t.name,
                        t.name.rsplit('.').next().unwrap_or(&t.name)
                    )
                } else {
                    "divide the weights that make it the same way".to_string()
                };
                return Err(refuse(
                    format!(
                        "{} `{}` cannot be sharded: `{}` is whole on the axis another argument divides over `{}`",
                        op.kind_func(),
                        op.name,
                        self.g.use_name(u),
                        self.group(g)
                    ),
                    "a whole argument beside a divided one",
                    help,
                ));
            }
        }
        Ok(Layout::Split { axis: oa, g })
    }

    fn reduction(
        &self,
        op: &OpNode,
        ins: &[Layout],
        shapes: &[Vec<u64>],
    ) -> Result<Layout, Refusal> {
        let r = shapes[0].len();
        let shape = op
            .func
            .as_deref()
            .and_then(|f| funcs::find(OpKind::Reduction, f))
            .map(|s| s.shape);
        let norm = |a: i64| (if a < 0 { a + r as i64 } else { a }) as usize;
        let axes: Vec<usize> = match (op.int_attr("axis"), op.list_attr("axis")) {
            (Some(a), _) => vec![norm(a)],
            (None, Some(l)) => l.iter().map(|&a| norm(a)).collect(),
            (None, None) => match shape {
                Some(FuncShape::Reduce) => (0..r).collect(),
                _ => vec![r.saturating_sub(1)],
            },
        };
        if shape == Some(FuncShape::Groups) || shape.is_none() {
            return Err(self.cannot(op, "its function is not divided by axis", ""));
        }
        let l = self.broadcast(op, ins, shapes, r)?;
        let Layout::Split { axis, g } = l else {
            return Ok(l);
        };
        if axes.contains(&axis) {
            return Err(self.cannot(
                op,
                &format!("reduces axis {axis}, the divided one"),
                "a reduction needs its whole axis: divide another axis",
            ));
        }
        let out_rank = self.g.tensor(op.output).shape.len();
        let axis = if out_rank == r {
            axis
        } else {
            axis - axes.iter().filter(|&&a| a < axis).count()
        };
        Ok(Layout::Split { axis, g })
    }
}

#[cfg(test)]
mod tests {
    use super::through_view;
    use crate::diagnostics::Span;
    use crate::graph::{TensorId, TensorUse};

    fn view(index: bool, transpose: bool) -> TensorUse {
        TensorUse {
            tensor: TensorId(0),
            index: index.then_some(0),
            transpose,
            span: Span::new(0, 0),
        }
    }

    #[test]
    fn views_move_the_divided_axis() {
        // [A, B, C, D] divided on axis 3: `.T` shows it as axis 2, `t[i]` as axis 2.
        assert_eq!(through_view(3, 4, &view(false, true)), Some(2));
        assert_eq!(through_view(2, 4, &view(false, true)), Some(3));
        assert_eq!(through_view(3, 4, &view(true, false)), Some(2));
        // `t[i].T` of [A, B, C]: axis 2 is axis 1 of `t[i]`, axis 0 after the swap.
        assert_eq!(through_view(2, 3, &view(true, true)), Some(0));
        assert_eq!(through_view(1, 4, &view(false, false)), Some(1));
        // Indexing the divided axis reads one GPU's part only: refused.
        assert_eq!(through_view(0, 4, &view(true, false)), None);
    }
}
