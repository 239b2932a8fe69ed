//! Diagnostics about instances' statements, attributed: the owning instance is found, its
//! names are turned back into the block's own, the instantiations that produced the statement
//! are labelled (rustc's "in this macro invocation"), and the copies one finding gets from the
//! identical instances of one instantiation are reported once.

use super::Expansion;
use crate::diagnostics::{Code, Diagnostic, Label, Span};
use std::cell::Cell;
use std::collections::{BTreeSet, HashMap, HashSet};

/// The instances of an expansion indexed for [`Owners::owner`]: by block, and within a block
/// by path and by the lengths of the paths, so that finding the owner of a diagnostic costs
/// a lookup per `.` of its text and distinct path length of the block, not a scan of every
/// instance (20,000 instances with a warning each took 97 s that way).
struct Owners<'e> {
    /// By the span of their block, sorted by its start: blocks do not nest in the source (an
    /// imported file's blocks are placed after the file), so the instances whose block holds
    /// a place are all instances of one block.
    blocks: Vec<(Span, Paths<'e>)>,
    /// Paths looked up so far: the work [`Owners::owner`] did, for tests.
    probes: Cell<u64>,
}

/// The instances of one block.
struct Paths<'e> {
    /// The first instance of each path.
    by_path: HashMap<&'e str, usize>,
    /// The lengths of the paths.
    lengths: BTreeSet<usize>,
    /// The first instance.
    first: usize,
    /// The first instance a caller's tensor is bound to as an input, and as the output.
    inputs: HashMap<&'e str, usize>,
    outputs: HashMap<&'e str, usize>,
}

impl<'e> Owners<'e> {
    fn new(x: &'e Expansion) -> Self {
        let mut by_span: HashMap<Span, Paths<'e>> = HashMap::new();
        for (i, inst) in x.instances.iter().enumerate() {
            let paths = by_span.entry(inst.block_span).or_insert_with(|| Paths {
                by_path: HashMap::new(),
                lengths: BTreeSet::new(),
                first: i,
                inputs: HashMap::new(),
                outputs: HashMap::new(),
            });
            paths.by_path.entry(inst.path.as_str()).or_insert(i);
            paths.lengths.insert(inst.path.len());
            paths.outputs.entry(inst.output.as_str()).or_insert(i);
        }
        for b in &x.bindings {
            if matches!(b.kind, super::BindingKind::Returned { .. }) {
                continue;
            }
            if let Some(paths) = x
                .instances
                .get(b.instance)
                .and_then(|inst| by_span.get_mut(&inst.block_span))
            {
                paths.inputs.entry(b.tensor.as_str()).or_insert(b.instance);
            }
        }
        let mut blocks: Vec<_> = by_span.into_iter().collect();
        blocks.sort_by_key(|(span, _)| (span.start, span.end));
        Owners {
            blocks,
            probes: Cell::new(0),
        }
    }

    /// The instances of `paths` whose path, followed by `.`, `text` holds: the first and
    /// the last.
    fn paths_in(&self, paths: &Paths<'_>, text: &str) -> Option<(usize, usize)> {
        let mut found: Option<(usize, usize)> = None;
        for (dot, _) in text.match_indices('.') {
            for &len in paths.lengths.range(..=dot) {
                self.probes.set(self.probes.get() + 1);
                let start = dot - len;
                if !text.is_char_boundary(start) {
                    continue;
                }
                if let Some(&i) = paths.by_path.get(&text[start..dot]) {
                    found = Some(found.map_or((i, i), |(lo, hi)| (lo.min(i), hi.max(i))));
                }
            }
        }
        found
    }

    /// The instance a diagnostic about an instance's statement belongs to, among the instances
    /// whose block contains the diagnostic's place: the last whose path, followed by `.`, the
    /// message or its main label holds (a repeat's instance names the previous one's output,
    /// its first input, beside its own names); else the first whose path the whole text holds
    /// (its other labels and help may name what another instance defines); else the first
    /// bound to a tensor of the caller that the text quotes, as an input, then as the output;
    /// else the first instance of the block.
    fn owner(&self, d: &Diagnostic) -> Option<usize> {
        let at = d.primary.as_ref()?.span;
        let k = self
            .blocks
            .partition_point(|(span, _)| span.start <= at.start);
        let (span, paths) = self.blocks.get(k.checked_sub(1)?)?;
        if !span.contains(at) {
            return None;
        }
        let mut main = d.message.clone();
        if let Some(p) = &d.primary {
            main.push('\n');
            main.push_str(&p.message);
        }
        if let Some((_, last)) = self.paths_in(paths, &main) {
            return Some(last);
        }
        let text = diagnostic_text(d);
        if let Some((first, _)) = self.paths_in(paths, &text) {
            return Some(first);
        }
        for names in [&paths.inputs, &paths.outputs] {
            let quoted = quoted(&text).filter_map(|n| names.get(n).copied()).min();
            if quoted.is_some() {
                return quoted;
            }
        }
        Some(paths.first)
    }
}

/// The names between backticks in `text` (a name holds no backtick).
fn quoted(text: &str) -> impl Iterator<Item = &str> {
    text.split('`').skip(1).step_by(2)
}

/// The names of `list`, for [`names_any`].
fn name_set(list: &[String]) -> HashSet<&str> {
    list.iter().map(String::as_str).collect()
}

/// Whether `message` quotes (between backticks) one of `names`: a name holds no backtick,
/// so it is what lies between two backticks in a row.
fn names_any(names: &HashSet<&str>, message: &str) -> bool {
    if names.is_empty() {
        return false;
    }
    let ticks: Vec<usize> = message.match_indices('`').map(|(i, _)| i).collect();
    ticks
        .windows(2)
        .any(|w| names.contains(&message[w[0] + 1..w[1]]))
}

impl Expansion {
    /// Attributes the diagnostics about instances' statements: instance names become the
    /// block's own, the instantiations that produced the statement are labelled, and the copies
    /// one diagnostic gets from identical instances are reported once.
    pub fn attribute(&self, diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
        if self.instances.is_empty()
            && self.unexpanded_args.is_empty()
            && self.unexpanded_outputs.is_empty()
        {
            return diags;
        }
        let mut out: Vec<Diagnostic> = Vec::with_capacity(diags.len());
        // Copies from the instances of one instantiation statement (the 32 layers of a
        // repeat) are one finding; another statement's instances are reported apart, so that
        // an allow comment on one statement does not hide the other's.
        let mut seen: HashMap<(Code, Option<Span>, String, Option<Span>), usize> = HashMap::new();
        let owners = Owners::new(self);
        let (args, outputs) = (
            name_set(&self.unexpanded_args),
            name_set(&self.unexpanded_outputs),
        );
        for mut d in diags {
            // An instantiation already reported as wrong: its tensors say nothing more.
            if (d.code == Code::UnusedTensor && names_any(&args, &d.message))
                || (d.code == Code::UndefinedTensor && names_any(&outputs, &d.message))
            {
                continue;
            }
            if let Some(i) = owners.owner(&d) {
                let prefix = format!("{}.", self.instances[i].path);
                strip(&mut d, &prefix);
                // Labels from the innermost instantiation outwards.
                let mut cur = Some(i);
                while let Some(k) = cur {
                    let inst = &self.instances[k];
                    let label = match inst.index {
                        Some(n) => format!("{REPEAT_LABEL}{n} of this repeat of `{}`", inst.block),
                        None => format!("{INSTANCE_LABEL}{}`", inst.block),
                    };
                    d.secondary.push(Label {
                        span: inst.call,
                        message: label,
                    });
                    // The outer instances' names appear in the message too.
                    if let Some(p) = inst.parent {
                        strip(&mut d, &format!("{}.", self.instances[p].path));
                    }
                    cur = inst.parent;
                }
            }
            let outermost = instantiations(&d).last();
            let key = (
                d.code,
                d.primary.as_ref().map(|p| p.span),
                d.message.clone(),
                outermost,
            );
            if seen.contains_key(&key) {
                continue;
            }
            seen.insert(key, out.len());
            out.push(d);
        }
        out
    }
}

/// The instantiations a diagnostic about an instance's statement was produced by (the labels
/// [`Expansion::attribute`] adds): an allow comment on one of them, or on the graph holding
/// it, covers the diagnostic as it covers the statements the instantiation stands for.
pub fn instantiations(d: &Diagnostic) -> impl Iterator<Item = Span> + '_ {
    d.secondary
        .iter()
        .filter(|l| l.message.starts_with(INSTANCE_LABEL) || l.message.starts_with(REPEAT_LABEL))
        .map(|l| l.span)
}

const INSTANCE_LABEL: &str = "in this instance of `";
const REPEAT_LABEL: &str = "in instance ";

fn diagnostic_text(d: &Diagnostic) -> String {
    let mut s = d.message.clone();
    for l in d.primary.iter().chain(&d.secondary) {
        s.push('\n');
        s.push_str(&l.message);
    }
    if let Some(h) = &d.help {
        s.push('\n');
        s.push_str(h);
    }
    s
}

/// Removes an instance's prefix from every text of a diagnostic.
fn strip(d: &mut Diagnostic, prefix: &str) {
    let f = |s: &mut String| {
        if s.contains(prefix) {
            *s = s.replace(prefix, "");
        }
    };
    f(&mut d.message);
    if let Some(p) = &mut d.primary {
        f(&mut p.message);
    }
    for l in &mut d.secondary {
        f(&mut l.message);
    }
    if let Some(h) = &mut d.help {
        f(h);
    }
    for fix in d.fixes.iter_mut() {
        f(&mut fix.message);
        for e in &mut fix.edits {
            f(&mut e.replacement);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::expand::Instance;

    fn instance(path: &str, block: Span, parent: Option<usize>) -> Instance {
        Instance {
            path: path.to_string(),
            block: "b".to_string(),
            call: Span::new(0, 1),
            index: None,
            parent,
            block_span: block,
            ops: 0..0,
            output: format!("{path}_out"),
        }
    }

    /// The owner as [`Owners::owner`] finds it, by a scan of every instance.
    fn scanned(x: &Expansion, d: &Diagnostic) -> Option<usize> {
        let at = d.primary.as_ref()?.span;
        let text = diagnostic_text(d);
        let main = format!("{}\n{}", d.message, d.primary.as_ref()?.message);
        let within = || {
            x.instances
                .iter()
                .enumerate()
                .filter(|(_, inst)| inst.block_span.contains(at))
        };
        let holds = |t: &str, path: &str| t.contains(&format!("{path}."));
        // Paths repeat in `tricky`: an instance stands for the first one of its path.
        let first_of = |path: &str| within().find(|(_, inst)| inst.path == path).map(|(i, _)| i);
        if let Some(i) = within()
            .filter(|(_, inst)| holds(&main, &inst.path))
            .filter_map(|(_, inst)| first_of(&inst.path))
            .max()
        {
            return Some(i);
        }
        if let Some((i, _)) = within().find(|(_, inst)| holds(&text, &inst.path)) {
            return Some(i);
        }
        if let Some((i, _)) =
            within().find(|(_, inst)| text.contains(&format!("`{}`", inst.output)))
        {
            return Some(i);
        }
        within().next().map(|(i, _)| i)
    }

    /// Instances of two blocks whose paths end one another (`l.1`, `xl.1`, `l.11`), nest
    /// (`outer.2.l.1`) and repeat.
    fn tricky() -> Expansion {
        let (a, b) = (Span::new(100, 200), Span::new(300, 400));
        let mut x = Expansion::default();
        for p in [
            "xl.1",
            "l.1",
            "l.11",
            "outer.2",
            "outer.2.l.1",
            "l.1",
            "é.1",
        ] {
            x.instances.push(instance(p, a, None));
        }
        for p in ["m.0", "l.1", "m.10"] {
            x.instances.push(instance(p, b, Some(3)));
        }
        x
    }

    #[test]
    fn the_owner_is_the_one_a_scan_finds() {
        let x = tricky();
        let owners = Owners::new(&x);
        let texts = [
            "tensor `xl.1.y` is unused",
            "tensor `l.1.y` is unused",
            "tensor `l.11.y` and `l.1.z`",
            "in `outer.2.l.1.q`",
            "`é.1.w`, `ré.1.w`",
            "no path here.",
            "..l.1..m.10.",
            "`m.10.x`",
            "`m.1.x`",
            "`l.11_out` and `l.1_out`",
            "`m.10_out`, `xl.1.w`",
            "",
        ];
        for at in [50, 150, 199, 250, 300, 350, 400] {
            for text in texts {
                let d = Diagnostic::new(Code::UnusedTensor, text)
                    .at(Span::new(at, at + 1), "here")
                    .help("see `l.1.help`");
                assert_eq!(owners.owner(&d), scanned(&x, &d), "{text:?} at {at}");
            }
        }
    }

    #[test]
    fn finding_owners_costs_a_few_lookups_a_diagnostic() {
        // 20,000 instances of one block, a diagnostic naming each: a scan compares each
        // diagnostic with every instance (400 million comparisons).
        let block = Span::new(0, 100);
        let mut x = Expansion::default();
        let n = 20_000;
        for i in 0..n {
            x.instances
                .push(instance(&format!("layers.{i}"), block, None));
        }
        let owners = Owners::new(&x);
        for i in 0..n {
            let d = Diagnostic::new(
                Code::UnusedTensor,
                format!("tensor `layers.{i}.w` is declared but never used"),
            )
            .at(Span::new(10, 11), "no op reads it");
            assert_eq!(owners.owner(&d), Some(i));
        }
        // Two dots a text, five path lengths (`layers.0` to `layers.19999`).
        assert!(
            owners.probes.get() <= 10 * n as u64,
            "{}",
            owners.probes.get()
        );
    }

    #[test]
    fn names_between_backticks() {
        let list = vec!["a.b".to_string(), "y".to_string()];
        let names = name_set(&list);
        assert!(names_any(&names, "tensor `a.b` is unused"));
        assert!(names_any(&names, "`x` and `y`"));
        assert!(!names_any(&names, "`x` and y"));
        assert!(!names_any(&names, "`a.b.c` and ` y `"));
        assert!(!names_any(&name_set(&[]), "`y`"));
        for m in ["`y`", "`a.b` `", "``y``", "`x`y`", "y"] {
            assert_eq!(
                names_any(&names, m),
                list.iter().any(|n| m.contains(&format!("`{n}`"))),
                "{m}"
            );
        }
    }
}
