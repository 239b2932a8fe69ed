//! Mutations of correct models (issue 22 item 7): the shipped examples are correct, and a
//! natural mistake made in one of them (two permute dims swapped, a reshape factor moved
//! between two dims, a misspelt function, a block returning another of its tensors) must
//! either be reported (a diagnostic the original file did not have) or leave every number
//! fgraph reports unchanged: each op's output bytes, dtype and FLOPs, the kernels, the
//! traffic. (An intermediate shape may change without a number changing: a permute with its
//! dims swapped before a reshape that flattens them has the same bytes; fgraph cannot know
//! the order the author meant there.) Nothing of fgraph decides what a number is here: the fingerprint is compared
//! before and after.

use fgraph::{Options, check_file};
use proptest::prelude::*;
use std::collections::BTreeSet;

/// The models mutated: every shipped model (examples, the standard library, the validation
/// models) that checks clean, in path order.
fn models() -> &'static [String] {
    static MODELS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    MODELS.get_or_init(|| {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut found = Vec::new();
        let mut dirs = vec![
            root.join("examples"),
            root.join("std"),
            root.join("validation"),
        ];
        while let Some(d) = dirs.pop() {
            for e in std::fs::read_dir(&d).expect("folder").flatten() {
                let p = e.path();
                if p.is_dir() {
                    dirs.push(p);
                } else if p.extension().is_some_and(|x| x == "fgraph") {
                    let path = p.display().to_string();
                    let text = std::fs::read_to_string(&p).expect("model");
                    if fingerprint(&path, &text).diagnostics.is_empty() {
                        found.push(path);
                    }
                }
            }
        }
        found.sort();
        assert!(found.len() >= 20, "{found:?}");
        found
    })
}

/// The numbers fgraph reports for a file, and its diagnostics.
#[derive(Debug, PartialEq)]
struct Fingerprint {
    numbers: Vec<String>,
    diagnostics: BTreeSet<String>,
}

fn fingerprint(path: &str, text: &str) -> Fingerprint {
    let report = check_file(path, text.as_bytes(), &Options::default());
    let diagnostics = report
        .diagnostics
        .iter()
        .map(|d| format!("{}: {}", d.code, d.message))
        .collect();
    let mut numbers = Vec::new();
    for g in &report.graphs {
        let Some(a) = g.analysis.as_ref() else {
            numbers.push(format!("{}: no analysis", g.name));
            continue;
        };
        let graph = &a.graph;
        for (i, o) in graph.ops.iter().enumerate() {
            let t = graph.tensor(o.output);
            let (flops, _) = fgraph::cost::op_flops(graph, fgraph::OpId(i as u32));
            numbers.push(format!(
                "{}: {} {} {} B, {flops} FLOP",
                g.name,
                o.name,
                t.dtype.as_str(),
                t.bytes
            ));
        }
        numbers.push(format!(
            "{}: {} kernels, {} B read, {} B written",
            g.name,
            a.plan.groups.len(),
            a.traffic.fused.bytes_read,
            a.traffic.fused.bytes_written
        ));
    }
    Fingerprint {
        numbers,
        diagnostics,
    }
}

/// A mistake a user makes, at one place of a file.
#[derive(Clone, Copy, Debug)]
enum Mutation {
    /// Two entries of a `dims = [..]` list swapped.
    SwapPermuteDims,
    /// A reshape's declared shape with one dim doubled and another halved.
    MoveReshapeFactor,
    /// A function name misspelt.
    MisspellFunction,
    /// A block's `output` naming another tensor of the block.
    ChangeBlockOutput,
    /// Two dims of an op's declared output shape swapped (`-> p: [B, S, NH, S]`).
    SwapDeclaredDims,
    /// One dim of an op's declared output shape doubled (`-> s: [S, (H) * 2]`).
    DoubleDeclaredDim,
}

/// Byte ranges of every match of `pat` in `text` (plain substring search).
fn find_all(text: &str, pat: &str) -> Vec<usize> {
    text.match_indices(pat).map(|(i, _)| i).collect()
}

/// Whether `line` is an op applying an opaque reduction (a function fgraph does not know,
/// whose cost the file states): its output shape is the file's word (SPEC §1), so nothing
/// can tell a changed declaration from the intended one.
fn opaque_reduction(line: &str) -> bool {
    let Some(at) = line.find("reduction.") else {
        return false;
    };
    let rest = &line[at + "reduction.".len()..];
    let name = &rest[..rest.find('(').unwrap_or(rest.len())];
    line.contains("flops =")
        && fgraph::ops::funcs::find(fgraph::types::OpKind::Reduction, name).is_none()
}

/// The text with `m` applied at the `site`-th place it applies (mod their number), choosing
/// with `a` and `b`; `None` where the file has no such place or the choice is no change.
fn mutate(text: &str, m: Mutation, site: usize, a: usize, b: usize) -> Option<String> {
    match m {
        Mutation::SwapPermuteDims => {
            let sites = find_all(text, "dims = [");
            let start = *sites.get(site % sites.len().max(1))? + "dims = [".len();
            let end = start + text[start..].find(']')?;
            let mut items: Vec<&str> = text[start..end].split(',').map(str::trim).collect();
            let (i, j) = (a % items.len(), b % items.len());
            if i == j || items[i] == items[j] {
                return None;
            }
            items.swap(i, j);
            Some(format!(
                "{}{}{}",
                &text[..start],
                items.join(", "),
                &text[end..]
            ))
        }
        Mutation::MoveReshapeFactor => {
            let sites = find_all(text, "= reshape(");
            let at = *sites.get(site % sites.len().max(1))?;
            let line_end = at + text[at..].find('\n')?;
            let colon = at + text[at..line_end].rfind(": ")?;
            let open = colon + text[colon..line_end].find('[')? + 1;
            let close = colon + text[colon..line_end].rfind(']')?;
            let mut dims: Vec<String> = text[open..close]
                .split(',')
                .map(|d| d.trim().to_string())
                .collect();
            let (i, j) = (a % dims.len(), b % dims.len());
            if i == j {
                return None;
            }
            dims[i] = format!("({}) * 2", dims[i]);
            dims[j] = format!("({}) / 2", dims[j]);
            Some(format!(
                "{}{}{}",
                &text[..open],
                dims.join(", "),
                &text[close..]
            ))
        }
        Mutation::MisspellFunction => {
            let mut sites = find_all(text, "elementwise.");
            sites.extend(find_all(text, "reduction."));
            sites.sort_unstable();
            let dot = *sites.get(site % sites.len().max(1))?;
            let start = dot + text[dot..].find('.')? + 1;
            let len = text[start..].find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))?;
            let name = &text[start..start + len];
            let mut chars: Vec<char> = name.chars().collect();
            let k = a % chars.len();
            // A letter dropped, doubled or replaced by its neighbour in the alphabet.
            match b % 3 {
                0 if chars.len() > 2 => {
                    chars.remove(k);
                }
                1 => chars.insert(k, chars[k]),
                _ => {
                    chars[k] = if chars[k] == 'z' {
                        'a'
                    } else {
                        (chars[k] as u8 + 1) as char
                    }
                }
            }
            let new: String = chars.into_iter().collect();
            Some(format!("{}{}{}", &text[..start], new, &text[start + len..]))
        }
        Mutation::SwapDeclaredDims | Mutation::DoubleDeclaredDim => {
            let sites: Vec<usize> = find_all(text, "-> ")
                .into_iter()
                .filter(|&i| {
                    let line = &text[i..i + text[i..].find('\n').unwrap_or(text.len() - i)];
                    let whole = &text[text[..i].rfind('\n').map_or(0, |n| n + 1)..];
                    line.contains(": ")
                        && line.contains('[')
                        && !opaque_reduction(&whole[..whole.find('\n').unwrap_or(whole.len())])
                })
                .collect();
            let at = *sites.get(site % sites.len().max(1))?;
            let line_end = at + text[at..].find('\n')?;
            let open = at + text[at..line_end].find('[')? + 1;
            let close = at + text[at..line_end].rfind(']')?;
            let mut dims: Vec<String> = text[open..close]
                .split(',')
                .map(|d| d.trim().to_string())
                .collect();
            let (i, j) = (a % dims.len(), b % dims.len());
            if matches!(m, Mutation::DoubleDeclaredDim) {
                if dims[i].is_empty() {
                    return None;
                }
                dims[i] = format!("({}) * 2", dims[i]);
            } else if i == j || dims[i] == dims[j] {
                return None;
            } else {
                dims.swap(i, j);
            }
            Some(format!(
                "{}{}{}",
                &text[..open],
                dims.join(", "),
                &text[close..]
            ))
        }
        Mutation::ChangeBlockOutput => {
            let blocks = find_all(text, "block ");
            let bstart = *blocks.get(site % blocks.len().max(1))?;
            let bend = bstart + text[bstart..].find("\n}")?;
            let body = &text[bstart..bend];
            let out_at = bstart + body.find("\n  output ")? + "\n  output ".len();
            let out_end = out_at + text[out_at..].find(['\n', ' ', ','])?;
            // The block's tensors: op outputs (`-> t`) and inputs.
            let mut names: Vec<&str> = Vec::new();
            for line in body.lines() {
                let line = line.trim();
                if let Some(p) = line.find("-> ") {
                    let rest = &line[p + 3..];
                    let n = rest
                        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                        .unwrap_or(rest.len());
                    names.push(&rest[..n]);
                } else if let Some(rest) = line.strip_prefix("input ") {
                    names.push(rest.split(':').next()?.trim());
                }
            }
            let new = names.get(a % names.len().max(1))?;
            if *new == &text[out_at..out_end] {
                return None;
            }
            Some(format!("{}{}{}", &text[..out_at], new, &text[out_end..]))
        }
    }
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        Just(Mutation::SwapPermuteDims),
        Just(Mutation::MoveReshapeFactor),
        Just(Mutation::MisspellFunction),
        Just(Mutation::ChangeBlockOutput),
        Just(Mutation::SwapDeclaredDims),
        Just(Mutation::DoubleDeclaredDim),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Every mutation of a correct model is reported, or changes no number.
    #[test]
    fn a_mistake_is_reported_or_changes_no_number(
        model in 0usize..1000,
        m in mutation(),
        site in 0usize..64,
        a in 0usize..16,
        b in 0usize..16,
    ) {
        let path = &models()[model % models().len()];
        let text = std::fs::read_to_string(path).expect("model");
        let Some(mutated) = mutate(&text, m, site, a, b) else {
            return Ok(());
        };
        if std::env::var_os("FGRAPH_MUTATIONS_PRINT").is_some() {
            eprintln!("{m:?} {} site {site}", path);
        }
        let before = fingerprint(path, &text);
        prop_assert!(before.diagnostics.is_empty(), "{} is not clean: {:?}", path, before.diagnostics);
        let after = fingerprint(path, &mutated);
        if std::env::var_os("FGRAPH_MUTATIONS_PRINT").is_some() {
            eprintln!("  -> {:?}", after.diagnostics.iter().next());
        }
        if after.diagnostics.is_empty() {
            let changed: Vec<(&String, &String)> = before
                .numbers
                .iter()
                .zip(&after.numbers)
                .filter(|(x, y)| x != y)
                .collect();
            prop_assert!(
                changed.is_empty() && before.numbers.len() == after.numbers.len(),
                "{m:?} in {} changed numbers without a diagnostic: {:?}",
                path,
                changed.iter().take(4).collect::<Vec<_>>()
            );
        }
    }
}
