//! Hovers over `parallel` sections (issue 25): a kind, a role or a named weight says what it
//! divides and, once the graph is analysed, the shapes one GPU holds and the collectives the
//! sharding inserted; a graph's hover says which GPU of which group it is.

use crate::analysis::Analysis;
use crate::diagnostics::Span;
use crate::parallel::{Kind, Role};
use crate::syntax::ast::{ParallelItem, ParallelStmt};

/// A word of a section: its graph, place, what it is.
#[derive(Clone, Debug)]
pub struct Item {
    graph: usize,
    span: Span,
    group: String,
    what: What,
}

#[derive(Clone, Debug)]
enum What {
    /// `tensor`, `expert`, `pipeline` (or a word that is none).
    Kind(String),
    /// `column`, …, with the names under it.
    Role(String),
    /// A name under a role.
    Name { role: String, name: String },
}

/// Records the words of section `p` of graph (scope) `graph`.
pub fn index(out: &mut Vec<Item>, graph: usize, p: &ParallelStmt<'_>) {
    let group = p.group.name.to_string();
    let mut push = |span, what| {
        out.push(Item {
            graph,
            span,
            group: group.clone(),
            what,
        })
    };
    push(p.kind.span, What::Kind(p.kind.name.to_string()));
    for item in &p.items {
        if let ParallelItem::Role { role, names } = item {
            push(role.span, What::Role(role.name.to_string()));
            // A pipeline's repeat is a name of the graph: its own hover says what it is.
            if role.name == "layers" {
                continue;
            }
            for n in names {
                push(
                    n.span,
                    What::Name {
                        role: role.name.to_string(),
                        name: n.name.to_string(),
                    },
                );
            }
        }
    }
}

/// The hover at `at`, if it is on a word of a section.
pub fn hover<'a>(
    items: &[Item],
    at: usize,
    analysis: impl Fn(usize) -> Option<&'a Analysis>,
) -> Option<(Span, String)> {
    let item = items
        .iter()
        .find(|i| i.span.start <= at && at <= i.span.end)?;
    let a = analysis(item.graph);
    let text = match &item.what {
        What::Kind(k) => match Kind::ALL.into_iter().find(|x| x.as_str() == k) {
            Some(kind) => {
                let mut s = format!(
                    "**parallel** `{k}` over group `{}`\n\n{}",
                    item.group,
                    match kind {
                        Kind::Tensor =>
                            "Megatron tensor parallelism: `column`, `row`, `vocab` and `cache` weights divided; an all-reduce after each row-parallel matmul and vocab-parallel lookup",
                        Kind::Expert =>
                            "expert parallelism: `experts` weights divided on axis 0; an all-to-all before and after the experts",
                        Kind::Pipeline =>
                            "pipeline parallelism: the `layers` repeat divided into stages; the graph is stage `stage`",
                    }
                );
                if let Some(p) = a.and_then(|a| a.parallel.as_deref()) {
                    for i in p.inserted.iter().filter(|i| i.group == item.group) {
                        s += &format!(
                            "\n\ninserted: {} `{}` ({} per GPU)",
                            i.count,
                            i.function,
                            crate::units::fmt_bytes(i.bytes)
                        );
                    }
                }
                s
            }
            None => format!("`{k}` is no kind of parallelism: `tensor`, `expert` or `pipeline`"),
        },
        What::Role(r) => match ["column", "row", "vocab", "experts", "cache"]
            .iter()
            .position(|x| x == r)
        {
            Some(i) => {
                let role = [
                    Role::Column,
                    Role::Row,
                    Role::Vocab,
                    Role::Experts,
                    Role::Cache,
                ][i];
                format!("**{r}** over `{}`: divides {}", item.group, role.doc())
            }
            None if r == "layers" => format!(
                "**layers**: the repeat whose instances divide into the stages of `{}`",
                item.group
            ),
            None => format!("`{r}` is no role of a parallel section"),
        },
        What::Name { role, name } => {
            let mut s = format!("**{role}** `{name}` over `{}`", item.group);
            match a.and_then(|a| a.parallel.as_deref()) {
                Some(p) => {
                    let suffix = format!(".{name}");
                    let mine: Vec<_> = p
                        .sharded
                        .iter()
                        .filter(|w| w.weight == *name || w.weight.ends_with(&suffix))
                        .collect();
                    match mine.first() {
                        Some(w) => {
                            s += &format!(
                                "\n\n{} weight{} on this GPU, axis {} divided: `{}` is {}",
                                mine.len(),
                                if mine.len() == 1 { "" } else { "s" },
                                w.axis,
                                w.weight,
                                crate::units::fmt_shape(&w.shape)
                            );
                        }
                        None => s += "\n\n(not on this GPU's stage)",
                    }
                }
                None => s += "\n\n(the graph has errors: not sharded)",
            }
            s
        }
    };
    Some((item.span, text))
}

/// The graph hover's line for a sharded graph (empty otherwise), with its leading break.
pub fn graph_line(a: &Analysis) -> String {
    let Some(p) = a.parallel.as_deref() else {
        return String::new();
    };
    let groups: Vec<String> = p
        .groups
        .iter()
        .map(|g| format!("{} `{}` of {}", g.kind.as_str(), g.name, g.size))
        .collect();
    let stage = p.stage.as_ref().map_or(String::new(), |s| {
        format!(", stage {} of {}", s.index, s.of)
    });
    format!(
        "\n\none GPU of {} ({}{stage}): {} params per GPU, {} written",
        p.world,
        groups.join(", "),
        crate::units::group_digits(p.params.per_gpu),
        crate::units::group_digits(p.params.model)
    )
}
