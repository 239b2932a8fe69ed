//! The blocks a file can instantiate, its own and its imports', by name, each with the shift
//! of its file's spans; and the checks of each definition that need no instantiation: a
//! block named like an op kind, a second definition of a name, an input no statement reads,
//! a header param given twice.

use crate::diagnostics::{Code, Diagnostic, Span};
use crate::syntax::ast::*;
use crate::types::OpKind;
use std::collections::HashMap;

/// The blocks a file can instantiate: its own and its imports'.
pub struct Blocks<'a, 's> {
    /// Each block with the shift of its file's spans.
    by_name: HashMap<&'s str, (&'a BlockAst<'s>, usize)>,
    /// An import failed (reported there): a name that is neither a block nor an op kind may
    /// be one of its blocks.
    import_failed: bool,
    /// Blocks whose params are used as other types (reported here): not expanded.
    broken: std::collections::HashSet<&'s str>,
}

impl<'a, 's> Blocks<'a, 's> {
    /// The blocks of `blocks`, the first definition of each name winning; a second definition,
    /// or a block named like an op kind, is reported.
    pub fn new(
        blocks: impl IntoIterator<Item = &'a BlockAst<'s>>,
        diags: &mut Vec<Diagnostic>,
    ) -> Self {
        let mut all = Blocks {
            by_name: HashMap::new(),
            import_failed: false,
            broken: Default::default(),
        };
        all.add(blocks, 0, diags);
        all
    }

    /// Adds the blocks of a file whose spans are `shift` bytes after the importing file's (an
    /// imported file's text is placed after it: spans stay plain byte ranges).
    pub fn add(
        &mut self,
        blocks: impl IntoIterator<Item = &'a BlockAst<'s>>,
        shift: usize,
        diags: &mut Vec<Diagnostic>,
    ) {
        let sh = |s: Span| Span::new(s.start + shift, s.end + shift);
        let by_name = &mut self.by_name;
        for b in blocks {
            // A block holds no `parallel` section (issue 25): said once, where it is defined.
            diags.extend(crate::parallel::in_block(&b.stmts, b.name.name, shift));
            if !super::typed::check(b, shift, diags) {
                self.broken.insert(b.name.name);
            }
            if OpKind::from_name(b.name.name).is_some() {
                diags.push(
                    Diagnostic::new(
                        Code::BadBlock,
                        format!("block `{}` is named like an op kind", b.name.name),
                    )
                    .at(sh(b.name.span), "an op kind")
                    .help("op kinds cannot be redefined: give the block another name"),
                );
                continue;
            }
            match by_name.get(b.name.name) {
                Some((first, first_shift)) => diags.push(
                    Diagnostic::new(
                        Code::DuplicateDefinition,
                        format!("block `{}` is defined more than once", b.name.name),
                    )
                    .at(sh(b.name.span), "defined again here")
                    .with(
                        Span::new(
                            first.name.span.start + first_shift,
                            first.name.span.end + first_shift,
                        ),
                        "first defined here",
                    )
                    .help("give each block its own name"),
                ),
                None => {
                    by_name.insert(b.name.name, (b, shift));
                }
            }
            // A block input no statement of the block reads: its declaration is never emitted,
            // so the semantic pass cannot see it unused.
            let reads = |args: &[Arg<'_>], name: &str| {
                args.iter()
                    .any(|a| matches!(a, Arg::Tensor(t) if t.name.name == name))
            };
            let used = |name: &str| {
                b.stmts.iter().any(|st| match &st.kind {
                    StmtKind::Op(op) => reads(&op.args, name),
                    StmtKind::Repeat(r) => reads(&r.args, name),
                    StmtKind::Output(names) => names.iter().any(|n| n.name == name),
                    _ => false,
                })
            };
            for st in b.stmts.iter() {
                if let StmtKind::Decl {
                    external: ExternalKind::Input,
                    name,
                    ..
                } = &st.kind
                    && !used(name.name)
                {
                    diags.push(
                        Diagnostic::new(
                            Code::UnusedTensor,
                            format!(
                                "input `{}` of block `{}` is never used",
                                name.name, b.name.name
                            ),
                        )
                        .at(sh(name.span), "no op of the block reads it")
                        .help("remove the input (and the argument at each instantiation)"),
                    );
                }
            }
            let mut seen: HashMap<&str, Span> = HashMap::new();
            for p in &b.params {
                if let Some(&first) = seen.get(p.name.name) {
                    diags.push(
                        Diagnostic::new(
                            Code::DuplicateDefinition,
                            format!("param `{}` is defined more than once", p.name.name),
                        )
                        .at(sh(p.name.span), "defined again here")
                        .with(sh(first), "first defined here")
                        .help("rename one of them; param names must be unique within a block"),
                    );
                } else {
                    seen.insert(p.name.name, p.name.span);
                }
            }
        }
    }

    /// Says that an import failed: its blocks are unknown, and an instantiation of a name
    /// that may be one of them is not reported again (see [`Blocks::lost`]).
    pub fn set_import_failed(&mut self, failed: bool) {
        self.import_failed = failed;
    }

    /// Whether `name`, instantiated as a block, may be a block of an import that failed: an
    /// import failed, and `name` is no block, no op kind and no misspelling of one by a
    /// single letter (`matmull`, still reported as such). A name further from a kind (`rope`
    /// is two letters from `roll`) is taken for one of the missing blocks: the failed import
    /// is reported, and once it is fixed a name still unknown is reported with its suggestion.
    pub fn lost(&self, name: &str) -> bool {
        self.import_failed
            && self.get(name).is_none()
            && OpKind::from_name(name).is_none()
            && !OpKind::ALL.iter().any(|k| one_edit_apart(name, k.as_str()))
    }

    /// Whether block `name` uses a param as another type (reported): its instantiations are
    /// not expanded, and say nothing more.
    pub fn is_broken(&self, name: &str) -> bool {
        self.broken.contains(name)
    }

    pub fn get(&self, name: &str) -> Option<&'a BlockAst<'s>> {
        self.by_name.get(name).map(|b| b.0)
    }

    /// The shift of a block's spans.
    pub(super) fn shift(&self, name: &str) -> usize {
        self.by_name.get(name).map_or(0, |b| b.1)
    }

    /// A span of `block`'s source, shifted to its file's place.
    pub(super) fn block_span(&self, block: &BlockAst<'_>, s: Span) -> Span {
        let shift = self.shift(block.name.name);
        Span::new(s.start + shift, s.end + shift)
    }

    pub fn is_empty(&self) -> bool {
        self.by_name.is_empty()
    }

    pub fn names(&self) -> impl Iterator<Item = &'s str> + '_ {
        self.by_name.keys().copied()
    }
}

/// Whether `a` and `b` differ by one letter: one replaced, added or removed (ASCII case
/// ignored).
fn one_edit_apart(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    if long.len() - short.len() > 1 {
        return false;
    }
    let eq = |x: u8, y: u8| x.eq_ignore_ascii_case(&y);
    let prefix = short
        .iter()
        .zip(long)
        .take_while(|&(&x, &y)| eq(x, y))
        .count();
    if short.len() == long.len() {
        // One replaced (or none: the same name, which is not a misspelling here).
        prefix < short.len()
            && short[prefix + 1..]
                .iter()
                .zip(&long[prefix + 1..])
                .all(|(&x, &y)| eq(x, y))
    } else {
        short[prefix..]
            .iter()
            .zip(&long[prefix + 1..])
            .all(|(&x, &y)| eq(x, y))
    }
}

#[cfg(test)]
mod tests {
    use super::one_edit_apart;

    #[test]
    fn one_letter_replaced_added_or_removed() {
        assert!(one_edit_apart("matmull", "matmul"));
        assert!(one_edit_apart("matmul", "matmull"));
        assert!(one_edit_apart("matmal", "matmul"));
        assert!(one_edit_apart("Concat", "concot"));
        assert!(!one_edit_apart("rope", "roll"));
        assert!(!one_edit_apart("matmul", "matmul"));
        assert!(!one_edit_apart("mm", "matmul"));
        assert!(!one_edit_apart("", "ab"));
    }
}
