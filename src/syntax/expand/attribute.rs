//! Diagnostics about instances' statements, attributed: the owning instance is found, its
//! names are turned back into the block's own, the instantiations that produced the statement
//! are labelled (rustc's "in this macro invocation"), and the copies one finding gets from the
//! identical instances of one instantiation are reported once.

use super::Expansion;
use crate::diagnostics::{Code, Diagnostic, Label, Span};
use std::collections::HashMap;

impl Expansion {
    /// The instance a diagnostic about an instance's statement belongs to: the innermost
    /// instance whose block contains the diagnostic's place and whose path the diagnostic
    /// names (the first such instance when it names none).
    fn owner(&self, d: &Diagnostic) -> Option<usize> {
        // Blocks do not nest in the source: the instances whose block holds the place are
        // all instances of one block.
        let at = d.primary.as_ref()?.span;
        let text = diagnostic_text(d);
        let mut fallback = None;
        for (i, inst) in self.instances.iter().enumerate() {
            if !inst.block_span.contains(at) {
                continue;
            }
            if text.contains(&format!("{}.", inst.path)) {
                return Some(i);
            }
            fallback.get_or_insert(i);
        }
        fallback
    }

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
        for mut d in diags {
            // An instantiation already reported as wrong: its tensors say nothing more.
            let names =
                |list: &[String]| list.iter().any(|n| d.message.contains(&format!("`{n}`")));
            if (d.code == Code::UnusedTensor && names(&self.unexpanded_args))
                || (d.code == Code::UndefinedTensor && names(&self.unexpanded_outputs))
            {
                continue;
            }
            if let Some(i) = self.owner(&d) {
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
