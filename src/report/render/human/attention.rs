//! The attention lines of the human report, one per distinct pattern (issue 28): the
//! patterns (and the softmaxes that are not one) of every instance of a block read alike but
//! for the instance's prefix (`layers.3.`), so each distinct line is printed once with its
//! count and the first and last instance that have it. A line that occurs once is printed
//! as it always was, names in full, so a graph without blocks reads as before.

use crate::cost::AttentionReport;
use crate::graph::{Graph, OpId};
use crate::units::fmt_bytes;

/// `layers.3.scores` → (`layers.3.`, `scores`): an op's instance prefix and its own name
/// (an op outside blocks has no prefix; names hold no other dot).
fn split(name: &str) -> (&str, &str) {
    match name.rfind('.') {
        Some(i) => (&name[..=i], &name[i + 1..]),
        None => ("", name),
    }
}

/// `text` with the instance prefix `prefix` taken out of every name that starts with it (an
/// occurrence inside a longer name, `enc.layers.3.` for `layers.3.`, stays).
fn local(text: &str, prefix: &str) -> String {
    if prefix.is_empty() {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(prefix) {
        let before = rest[..i].chars().next_back().or(out.chars().next_back());
        let word = before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.');
        out.push_str(&rest[..i]);
        if word {
            out.push_str(prefix);
        }
        rest = &rest[i + prefix.len()..];
    }
    out.push_str(rest);
    out
}

/// One line (and the lines under it) of the section, as it reads for an instance, with the
/// instance's prefix.
struct Line {
    full: String,
    local: String,
    prefix: String,
}

fn patterns(g: &Graph, att: &AttentionReport) -> Vec<Line> {
    let mut lines = Vec::new();
    for p in &att.patterns {
        let ops: Vec<OpId> = p.pattern.ops();
        let names: Vec<&str> = ops.iter().map(|&o| g.op(o).name.as_str()).collect();
        let mut full = format!(
            "  {}: a FlashAttention kernel reads {}, {}, {} and writes `{}`; it keeps {} on chip, saving {}\n",
            names.join(" → "),
            g.use_name(&p.pattern.q),
            g.use_name(&p.pattern.k),
            g.use_name(&p.pattern.v),
            g.tensor(p.pattern.output).name,
            super::report::list(
                p.pattern
                    .intermediates
                    .iter()
                    .map(|&t| format!("`{}`", g.tensor(t).name)),
                ", ",
                8
            ),
            fmt_bytes(p.saved_bytes)
        );
        for e in &p.fused_edges {
            if let Some(r) = e.overrides {
                full += &format!(
                    "    {} → {} via `{}` [{}]: fused although the rules say {r}\n",
                    g.op(e.producer).name,
                    g.op(e.consumer).name,
                    g.tensor(e.tensor).name,
                    e.fused_by
                );
            }
        }
        let prefix = split(&g.op(p.pattern.softmax).name).0.to_string();
        lines.push(Line {
            local: local(&full, &prefix),
            full,
            prefix,
        });
    }
    for (o, m) in &att.misses {
        let full = format!(
            "  softmax `{}` is not fused into an attention kernel: {}\n",
            g.op(*o).name,
            m.describe(g)
        );
        let prefix = split(&g.op(*o).name).0.to_string();
        lines.push(Line {
            local: local(&full, &prefix),
            full,
            prefix,
        });
    }
    lines
}

/// The patterns and misses, one line per distinct one, in order of first occurrence.
pub fn lines(g: &Graph, att: &AttentionReport) -> String {
    let all = patterns(g, att);
    // Distinct lines with their occurrences, in order of first occurrence.
    let mut distinct: Vec<(usize, Vec<usize>)> = Vec::new();
    let mut index: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for (i, l) in all.iter().enumerate() {
        // A line outside blocks is its own.
        let key = if l.prefix.is_empty() {
            l.full.as_str()
        } else {
            l.local.as_str()
        };
        match index.get(key) {
            Some(&d) if !l.prefix.is_empty() => distinct[d].1.push(i),
            _ => {
                index.insert(key, distinct.len());
                distinct.push((i, vec![i]));
            }
        }
    }
    let mut out = String::new();
    for (first, at) in &distinct {
        let l = &all[*first];
        if at.len() == 1 {
            out += &l.full;
            continue;
        }
        let name = |i: usize| all[i].prefix.trim_end_matches('.').to_string();
        let last = at.last().copied().unwrap_or(*first);
        // `  32 instances, layers.0 … layers.31, each: scores → …`.
        let body = l.local.trim_start();
        out += &format!(
            "  {} instances, {} … {}, each: {body}",
            at.len(),
            name(*first),
            name(last)
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{local, split};

    #[test]
    fn only_whole_prefixes_are_taken_out() {
        assert_eq!(
            local("`layers.3.x` and enc.layers.3.y", "layers.3."),
            "`x` and enc.layers.3.y"
        );
        assert_eq!(local("layers.3.a → layers.3.b", "layers.3."), "a → b");
    }

    #[test]
    fn an_op_name_splits_at_its_last_dot() {
        assert_eq!(split("layers.3.scores"), ("layers.3.", "scores"));
        assert_eq!(split("layers.3.attn.scores"), ("layers.3.attn.", "scores"));
        assert_eq!(split("scores"), ("", "scores"));
    }
}
