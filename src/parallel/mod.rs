//! Sharding without rewriting the model (issue 25): a graph's `parallel` sections say how its
//! weights divide over groups of GPUs, and [`shard`] turns the checked single-GPU graph into
//! the graph **one GPU** runs: weights and activations divided, the collectives Megatron-LM
//! inserts added (an all-reduce after each row-parallel matmul and after a vocab-parallel
//! embedding, all-to-alls around the experts, send/recv between pipeline stages). Every later
//! stage (fusion, traffic, cost, ledger, reports) sees only that per-GPU graph.
//!
//! | module | owns |
//! |---|---|
//! | here | the sections read into a [`Plan`] (kinds, groups, roles, settings; their diagnostics), the entry [`shard`], and what it tells the reports ([`Parallel`]) |
//! | `rules` | the layout of each tensor (whole, split on an axis, a partial sum, exchanged among experts) and each op kind's rule, with the diagnostics of what cannot be sharded |
//! | `build` | the per-GPU graph built from the layouts: shapes divided, ops of other pipeline stages dropped, the collectives inserted, and the totals for the reports |
//!
//! Kinds and roles (docs/language.md, "Parallelism"):
//!
//! | kind | roles and settings | what is divided |
//! |---|---|---|
//! | `tensor` | `column W`, `row W`, `vocab W`, `cache W`, `sequence = A` | `column`: a weight's last axis (the output features); `row`: its second-to-last (the input features; an all-reduce follows the matmul); `vocab`: an embedding table's gathered axis (masked lookup and an all-reduce), or an LM head's last axis; `cache`: state an `update` writes, like the rows written; `sequence`: the activations' sequence axis between the layers (a reduce-scatter in place of each all-reduce, an all-gather before the column-parallel layers) |
//! | `expert` | `experts W` | axis 0 of stacked expert weights `[E, ..]`; an all-to-all dispatches the tokens before the first expert matmul and another combines them after the last |
//! | `pipeline` | `layers R`, `stage = K` | the instances of repeat `R` into `size` stages of equal count; the graph is stage `K`'s (default 0), with a `recv` of what it takes from an earlier stage and a `send` of what a later one takes |
//!
//! Group strides follow Megatron's order: tensor parallelism innermost (stride 1), experts
//! next, pipeline stages outermost. Names the sharding makes end in `+function`
//! (`layers.3.o_proj+all_reduce`): `+` cannot appear in a written name, so an inserted op or
//! tensor is never mistaken for one of the file's.

mod build;
mod rules;

use crate::diagnostics::{Code, Diagnostic, Span};
use crate::graph::Graph;
use crate::syntax::ast::{ParallelItem, ParallelStmt, Stmt, StmtKind};
use serde::Serialize;

pub use build::{remap, shard};

/// A parallelism kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Tensor,
    Expert,
    Pipeline,
}

impl Kind {
    pub const ALL: [Kind; 3] = [Kind::Tensor, Kind::Expert, Kind::Pipeline];
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Tensor => "tensor",
            Kind::Expert => "expert",
            Kind::Pipeline => "pipeline",
        }
    }
    /// The roles its section may give, and the settings.
    fn roles(self) -> &'static [Role] {
        match self {
            Kind::Tensor => &[Role::Column, Role::Row, Role::Vocab, Role::Cache],
            Kind::Expert => &[Role::Experts],
            Kind::Pipeline => &[],
        }
    }
    fn settings(self) -> &'static [&'static str] {
        match self {
            Kind::Pipeline => &["layers", "stage"],
            Kind::Tensor => &["sequence"],
            Kind::Expert => &[],
        }
    }
    /// Megatron's order, innermost first.
    fn rank(self) -> u8 {
        match self {
            Kind::Tensor => 0,
            Kind::Expert => 1,
            Kind::Pipeline => 2,
        }
    }
}

/// How a weight is divided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    Column,
    Row,
    Vocab,
    Experts,
    /// State an `update` writes into (a KV cache): divided like the rows written.
    Cache,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Column => "column",
            Role::Row => "row",
            Role::Vocab => "vocab",
            Role::Experts => "experts",
            Role::Cache => "cache",
        }
    }
    fn from_name(s: &str) -> Option<Role> {
        [
            Role::Column,
            Role::Row,
            Role::Vocab,
            Role::Experts,
            Role::Cache,
        ]
        .into_iter()
        .find(|r| r.as_str() == s)
    }
    /// What it divides, for messages and hovers.
    pub fn doc(self) -> &'static str {
        match self {
            Role::Column => "its last axis (the output features): column-parallel",
            Role::Row => {
                "its second-to-last axis (the input features): row-parallel, an all-reduce \
                 follows the matmul"
            }
            Role::Vocab => {
                "the vocabulary: an embedding table's gathered axis (masked lookup, then an \
                 all-reduce) or an LM head's last axis"
            }
            Role::Experts => "axis 0, the experts: an all-to-all before and after them",
            Role::Cache => {
                "state an `update` writes into (a KV cache), along the axis the written rows \
                 are divided on (the heads)"
            }
        }
    }
}

/// A group of GPUs a section names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Group {
    pub name: String,
    pub kind: Kind,
    pub size: u64,
    /// The rank distance between consecutive members (the collectives' `stride`).
    pub stride: u64,
    #[serde(skip)]
    pub span: Span,
}

/// A weight (or a repeat, for `layers`) named under a role.
#[derive(Clone, Debug)]
pub(crate) struct Assign {
    pub role: Role,
    pub name: String,
    pub span: Span,
    /// Index into [`Plan::groups`].
    pub group: usize,
}

/// A pipeline section's stages.
#[derive(Clone, Debug)]
pub(crate) struct Stages {
    pub group: usize,
    pub layers: String,
    pub layers_span: Span,
    pub stage: u64,
}

/// A graph's `parallel` sections, read and checked.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    pub groups: Vec<Group>,
    pub(crate) assigns: Vec<Assign>,
    pub(crate) stages: Option<Stages>,
    /// `sequence = AXIS` in the tensor section (Megatron's sequence parallelism): the tensor
    /// group and the activations' sequence axis.
    pub(crate) sequence: Option<(usize, usize)>,
}

impl Plan {
    /// Every GPU of the group: the product of the sizes.
    pub fn world(&self) -> u64 {
        self.groups
            .iter()
            .fold(1u64, |w, g| w.saturating_mul(g.size))
    }
}

/// What sharding tells the reports (JSON `parallel`, the human report's group line).
#[derive(Clone, Debug, Serialize)]
pub struct Parallel {
    pub groups: Vec<Group>,
    /// GPUs in all: the product of the group sizes.
    pub world: u64,
    /// The pipeline stage this graph is (absent without a pipeline section).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stage: Option<StageInfo>,
    /// Weight bytes (state excluded): per GPU, in the written (single-GPU) model, and over
    /// the whole group.
    pub weights: Totals,
    /// Weight elements (parameters), the same three ways; state (weights an `update`
    /// writes into, KV caches) is not counted here but in `state`.
    pub params: Totals,
    /// Bytes of state (weights an `update` writes into), the same three ways.
    pub state: Totals,
    /// FLOPs of this GPU's graph and of the written model.
    pub flops: Flops,
    /// Every divided weight: which role, over which group, along which axis, its shape on
    /// one GPU.
    pub sharded: Vec<Sharded>,
    /// The inserted collectives, one row per function and group.
    pub inserted: Vec<Inserted>,
    /// The graph's outputs that stay divided on this GPU (each is this GPU's shard).
    pub split_outputs: Vec<SplitOutput>,
}

#[derive(Clone, Debug, Serialize)]
pub struct StageInfo {
    pub index: u64,
    pub of: u64,
    /// The repeat's instances this stage runs: `first` to `end - 1`.
    pub layers: String,
    pub first: u64,
    pub end: u64,
}

#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Totals {
    pub per_gpu: u64,
    /// The graph as written, on one GPU.
    pub model: u64,
    /// Summed over every GPU of the group (replicated weights counted on each).
    pub group: u64,
}

#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Flops {
    pub per_gpu: u64,
    pub model: u64,
}

#[derive(Clone, Debug, Serialize)]
pub struct Sharded {
    pub weight: String,
    pub role: Role,
    pub group: String,
    pub axis: usize,
    pub shape: Vec<u64>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Inserted {
    pub function: &'static str,
    pub group: String,
    pub count: u64,
    /// The bytes of their inputs on this GPU (for `recv`, of its output), summed.
    pub bytes: u64,
}

#[derive(Clone, Debug, Serialize)]
pub struct SplitOutput {
    pub tensor: String,
    pub group: String,
    pub axis: usize,
}

/// Reads a graph's `parallel` sections (`None` when it has none), with `values` the graph's
/// params as the semantic pass evaluates them (asked only when there is a section). What is
/// wrong is reported; the plan is then `Some` with `ok == false`, so that the graph is not
/// analysed unsharded.
pub fn read<'a, 's: 'a>(
    stmts: impl Iterator<Item = &'a Stmt<'s>>,
    values: impl FnOnce() -> Vec<(String, Option<i64>)>,
    diags: &mut Vec<Diagnostic>,
) -> Option<(Plan, bool)> {
    let sections: Vec<(&ParallelStmt<'_>, Span)> = stmts
        .filter_map(|st| match &st.kind {
            StmtKind::Parallel(p) => Some((&**p, st.span)),
            _ => None,
        })
        .collect();
    if sections.is_empty() {
        return None;
    }
    let values = values();
    let start = diags.len();
    let mut plan = Plan::default();
    // Each named weight's assignment, by name (a section may name many).
    let mut named: std::collections::HashMap<String, usize> = Default::default();
    let eval = |e: &crate::syntax::ast::Expr<'_>, diags: &mut Vec<Diagnostic>| {
        let lookup = |n: &str| match values.iter().find(|(k, _)| k == n) {
            Some((_, Some(v))) => crate::sema::expr::Lookup::Value(*v),
            Some((_, None)) => crate::sema::expr::Lookup::Poisoned,
            None => crate::sema::expr::Lookup::Unknown,
        };
        crate::sema::expr::eval(e, &lookup, &|_| None, diags)
    };
    for (p, _) in &sections {
        let Some(kind) = Kind::ALL.into_iter().find(|k| k.as_str() == p.kind.name) else {
            diags.push(
                Diagnostic::new(
                    Code::BadAttribute,
                    format!("unknown parallelism `{}`", p.kind.name),
                )
                .at(p.kind.span, "not a kind of parallelism")
                .help("write `parallel tensor tp = 8 { .. }`, `parallel expert ep = 8 { .. }` or `parallel pipeline pp = 2 { .. }`"),
            );
            continue;
        };
        if let Some(g) = plan.groups.iter().find(|g| g.kind == kind) {
            diags.push(
                Diagnostic::new(
                    Code::DuplicateDefinition,
                    format!("graph has two {} parallel sections", kind.as_str()),
                )
                .at(p.kind.span, "a second one")
                .with(g.span, "the first")
                .help("give each kind of parallelism one section"),
            );
            continue;
        }
        if let Some(g) = plan.groups.iter().find(|g| g.name == p.group.name) {
            diags.push(
                Diagnostic::new(
                    Code::DuplicateDefinition,
                    format!("group `{}` is named by two parallel sections", g.name),
                )
                .at(p.group.span, "named again")
                .with(g.span, "first named here")
                .help("give each group its own name (`tp`, `ep`, `pp`)"),
            );
            continue;
        }
        let max = crate::ops::collective::MAX_GROUP;
        let size = match eval(&p.size, diags) {
            Some(v) if (1..=max).contains(&v) => v as u64,
            Some(v) => {
                diags.push(
                    Diagnostic::new(
                        Code::BadAttribute,
                        format!("group `{}` has size {v}", p.group.name),
                    )
                    .at(p.size.span(), "not a number of GPUs")
                    .help(format!("a group has 1 to {max} GPUs")),
                );
                continue;
            }
            None => continue,
        };
        let gi = plan.groups.len();
        plan.groups.push(Group {
            name: p.group.name.to_string(),
            kind,
            size,
            stride: 1,
            span: p.group.span,
        });
        let mut layers = None;
        let mut stage = None;
        for item in &p.items {
            match item {
                ParallelItem::Role { role, names } if kind == Kind::Pipeline => {
                    if role.name != "layers" {
                        diags.push(bad_item(kind, role.name, role.span));
                    } else if names.len() != 1 || layers.is_some() {
                        diags.push(
                            Diagnostic::new(
                                Code::BadAttribute,
                                "a pipeline section names one repeat under `layers`",
                            )
                            .at(role.span, "here")
                            .help("write `layers NAME` once, NAME a `repeat` of the graph"),
                        );
                    } else {
                        layers = Some(names[0]);
                    }
                }
                ParallelItem::Role { role, names } => {
                    match Role::from_name(role.name).filter(|r| kind.roles().contains(r)) {
                        Some(r) => {
                            for n in names {
                                if let Some(a) = named.get(n.name).map(|&k| &plan.assigns[k]) {
                                    diags.push(
                                        Diagnostic::new(
                                            Code::DuplicateDefinition,
                                            format!("weight `{}` is divided twice", n.name),
                                        )
                                        .at(n.span, format!("under `{}` here", r.as_str()))
                                        .with(a.span, format!("under `{}` first", a.role.as_str()))
                                        .help("name each weight under one role"),
                                    );
                                    continue;
                                }
                                named.insert(n.name.to_string(), plan.assigns.len());
                                plan.assigns.push(Assign {
                                    role: r,
                                    name: n.name.to_string(),
                                    span: n.span,
                                    group: gi,
                                });
                            }
                        }
                        None => diags.push(bad_item(kind, role.name, role.span)),
                    }
                }
                ParallelItem::Setting { name, value } if kind == Kind::Pipeline => {
                    if name.name != "stage" {
                        diags.push(bad_item(kind, name.name, name.span));
                        continue;
                    }
                    match eval(value, diags) {
                        Some(v) if v >= 0 && (v as u64) < size => stage = Some(v as u64),
                        Some(v) => diags.push(
                            Diagnostic::new(
                                Code::BadAttribute,
                                format!("`stage = {v}` names no stage of {size}"),
                            )
                            .at(value.span(), format!("stages are 0 to {}", size - 1))
                            .with(p.size.span(), format!("{size} stages"))
                            .help("the graph is the stage one GPU runs: pick one of them"),
                        ),
                        None => {}
                    }
                }
                ParallelItem::Setting { name, value }
                    if kind == Kind::Tensor && name.name == "sequence" =>
                {
                    match eval(value, diags) {
                        Some(v) if (0..=crate::limits::MAX_RANK as i64).contains(&v) => {
                            plan.sequence = Some((gi, v as usize))
                        }
                        Some(v) => diags.push(
                            Diagnostic::new(
                                Code::BadAttribute,
                                format!("`sequence = {v}` names no axis"),
                            )
                            .at(value.span(), "not an axis")
                            .help("give the activations' sequence axis: `sequence = 0` for [S, H]"),
                        ),
                        None => {}
                    }
                }
                ParallelItem::Setting { name, .. } => {
                    diags.push(bad_item(kind, name.name, name.span))
                }
            }
        }
        if kind == Kind::Pipeline {
            match layers {
                Some(l) => {
                    plan.stages = Some(Stages {
                        group: gi,
                        layers: l.name.to_string(),
                        layers_span: l.span,
                        stage: stage.unwrap_or(0),
                    });
                }
                None => diags.push(
                    Diagnostic::new(
                        Code::BadAttribute,
                        format!("pipeline section `{}` names no layers", p.group.name),
                    )
                    .at(p.group.span, "which repeat is divided into stages?")
                    .help("write `layers NAME` inside it, NAME a `repeat` of the graph"),
                ),
            }
        }
    }
    // Strides in Megatron's order: tensor innermost, then experts, then stages.
    let mut order: Vec<usize> = (0..plan.groups.len()).collect();
    order.sort_by_key(|&i| plan.groups[i].kind.rank());
    let mut below = 1u64;
    for i in order {
        plan.groups[i].stride = below;
        below = below.saturating_mul(plan.groups[i].size);
    }
    let ok = !diags[start..].iter().any(Diagnostic::is_error);
    Some((plan, ok))
}

/// An item a section of `kind` does not take.
fn bad_item(kind: Kind, name: &str, at: Span) -> Diagnostic {
    let mut takes: Vec<&str> = kind.roles().iter().map(|r| r.as_str()).collect();
    takes.extend(kind.settings());
    Diagnostic::new(
        Code::BadAttribute,
        format!("a {} parallel section has no `{name}`", kind.as_str()),
    )
    .at(at, "not one of its roles or settings")
    .help(format!(
        "a {} section takes {}",
        kind.as_str(),
        takes
            .iter()
            .map(|t| format!("`{t}`"))
            .collect::<Vec<_>>()
            .join(", ")
    ))
}

/// The error for a block that holds a `parallel` section: sharding belongs to a graph.
/// `shift`: where the block's file starts in the span space (an imported file's).
pub fn in_block(
    stmts: &crate::syntax::ast::Stmts<'_>,
    block: &str,
    shift: usize,
) -> Vec<Diagnostic> {
    stmts
        .iter()
        .filter_map(|st| match &st.kind {
            StmtKind::Parallel(p) => Some(
                Diagnostic::new(
                    Code::BadBlock,
                    format!("block `{block}` has a parallel section"),
                )
                .at(
                    Span::new(p.kind.span.start + shift, p.kind.span.end + shift),
                    "sharding belongs to a graph",
                )
                .help(
                    "move the section into the graph that instantiates the block: its roles \
                     name the block's weights as the block writes them (`column wq`)",
                ),
            ),
            _ => None,
        })
        .collect()
}

/// Whether `g` (a graph the sharding made) has an op the sharding inserted.
pub fn is_inserted(name: &str) -> bool {
    name.contains('+')
}

/// Applies `plan` to `g` (see [`shard`]), and moves the block instances' op ranges onto the
/// per-GPU graph; at world size 1 the graph comes back unchanged.
pub(crate) fn apply(
    g: Graph,
    plan: &Plan,
    instances: &mut [crate::syntax::expand::Instance],
) -> Result<(Graph, Parallel), Vec<Diagnostic>> {
    let (g, p, origin) = shard(g, plan)?;
    for i in instances {
        i.ops = remap(&i.ops, &origin);
    }
    Ok((g, p))
}
