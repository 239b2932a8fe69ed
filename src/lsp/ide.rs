//! What an editor shows about a file, computed from fgraph's own analysis over the file's
//! [`Index`] (`super::index`): hovers, inlay hints, renames, code actions. Plain data with
//! byte spans; `super::convert` and `super::server` turn it into protocol types.

pub use super::index::{Index, Symbol, SymbolKind};
use crate::analysis::{Analysis, FileReport, GraphReport, Options, fmt_bytes};
use crate::cost::{self, Hardware, LaunchMode};
use crate::diagnostics::{Applicability, Diagnostic, Edit, Fix, Span};
use crate::graph::{Origin, TensorId};

/// Ops above which a tensor's hover leaves out what would fuse its boundaries.
const HOVER_WHAT_IF_OPS: usize = 20_000;

/// A file's report, its index, and the GPU its costs are estimated on.
pub struct FileModel {
    pub report: FileReport,
    pub index: Index,
    pub hardware: Hardware,
    pub options: Options,
    /// When the file's configuration is invalid (defaults apply): where and why.
    pub config_error: Option<ConfigNote>,
    /// Every safe fix of the file at once (`source.fixAll`), checked when the file was
    /// (on the worker, not the message loop): see [`FileModel::fix_all`].
    fix_all: Option<Fix>,
}

/// An invalid configuration file: its URI, its first problem and that problem's range.
#[derive(Clone, Debug)]
pub struct ConfigNote {
    pub uri: String,
    pub message: String,
    pub range: Option<serde_json::Value>,
}

impl FileModel {
    pub fn new(name: &str, text: &str, options: Options, hardware: Hardware) -> FileModel {
        let (report, index, fix_all) =
            Self::check(name, text.as_bytes().to_vec(), &options, &|| true);
        FileModel {
            report,
            index,
            hardware,
            options,
            config_error: None,
            fix_all,
        }
    }

    /// [`FileModel::new`] on the file's bytes, asking `go_on` between the pipeline's stages:
    /// `None` once it answers false (the analysis was stopped, what it found is incomplete).
    pub fn unless_stopped(
        name: &str,
        bytes: Vec<u8>,
        options: Options,
        hardware: Hardware,
        go_on: &dyn Fn() -> bool,
    ) -> Option<FileModel> {
        let stopped = std::cell::Cell::new(false);
        let ask = || {
            let on = !stopped.get() && go_on();
            stopped.set(!on);
            on
        };
        let (report, index, fix_all) = Self::check(name, bytes, &options, &ask);
        (!stopped.get()).then_some(FileModel {
            report,
            index,
            hardware,
            options,
            config_error: None,
            fix_all,
        })
    }

    /// The file's report (its safe fixes verified: `crate::fix::verify`), its index, and
    /// the fix that applies every safe fix at once.
    fn check(
        name: &str,
        bytes: Vec<u8>,
        options: &Options,
        go_on: &dyn Fn() -> bool,
    ) -> (FileReport, Index, Option<Fix>) {
        // One parse for both: the index is built from the tree the check then consumes.
        let mut index = Index::default();
        let mut report = crate::analysis::check_file_inspecting(
            name,
            bytes,
            options,
            &mut |text, file| index = Index::of(text, file, options),
            go_on,
        );
        crate::fix::verify(&mut report, options, go_on);
        let fix_all = crate::fix::apply_safe(&report, options, go_on).map(|a| {
            Fix::replace(
                format!(
                    "apply {} safe fgraph fix{}",
                    a.count,
                    if a.count == 1 { "" } else { "es" }
                ),
                Applicability::Safe,
                Span::new(0, report.source.text.len()),
                a.text,
            )
        });
        (report, index, fix_all)
    }

    fn graph(&self, gi: usize) -> Option<&GraphReport> {
        self.report.graphs.get(gi)
    }

    /// The graph's analysis, when it checked clean.
    fn analysis(&self, gi: usize) -> Option<&Analysis> {
        self.graph(gi)?.analysis.as_ref()
    }

    fn tensor_id(a: &Analysis, name: &str) -> Option<TensorId> {
        a.graph
            .tensors
            .iter()
            .position(|t| t.name == name)
            .map(|i| TensorId(i as u32))
    }

    /// Markdown for the name at byte `at`, and the span it is about.
    pub fn hover(&self, at: usize) -> Option<(Span, String)> {
        if let Some(h) = super::parallel::hover(&self.index.parallel, at, |gi| self.analysis(gi)) {
            return Some(h);
        }
        let s = self.index.at(at)?;
        let sym = self.index.symbol(s);
        let span = *sym
            .occurrences
            .iter()
            .find(|sp| sp.start <= at && at <= sp.end)?;
        if sym.graph >= self.index.graphs {
            return Some((span, self.hover_in_block(sym)));
        }
        let text = match sym.kind {
            SymbolKind::Graph => self.hover_graph(sym),
            SymbolKind::Param => self.hover_param(sym),
            SymbolKind::Tensor => self.hover_tensor(sym),
            SymbolKind::Op => self.hover_op(sym),
        };
        Some((span, text))
    }

    /// The first instance of the block whose scope is `scope`: its graph and its path.
    fn instance_of(&self, scope: usize) -> Option<(usize, &str, &str)> {
        let block = self
            .index
            .blocks
            .get(scope.checked_sub(self.index.graphs)?)?;
        self.report.graphs.iter().enumerate().find_map(|(gi, g)| {
            let i = g.instances.iter().find(|i| &i.block == block)?;
            Some((gi, i.path.as_str(), block.as_str()))
        })
    }

    /// A name inside a block: what it is in the block's first instance (`layers.0.q` for `q`),
    /// or, for a block input (bound to each instance's argument) and a block no graph
    /// instantiates, its declaration.
    fn hover_in_block(&self, sym: &Symbol) -> String {
        let block = self
            .index
            .blocks
            .get(sym.graph - self.index.graphs)
            .map_or("", String::as_str);
        let Some((gi, path, _)) = self.instance_of(sym.graph) else {
            return format!(
                "**{}** `{}` of block `{block}`\n\n(no graph of this file instantiates the block)",
                sym.kind.as_str(),
                sym.name
            );
        };
        let full = format!("{path}.{}", sym.name);
        let in_instance = self.analysis(gi).is_some_and(|a| match sym.kind {
            SymbolKind::Tensor => Self::tensor_id(a, &full).is_some(),
            SymbolKind::Op => {
                a.graph.ops.iter().any(|o| o.name == full)
                    || self.graph(gi).is_some_and(|g| {
                        g.instances
                            .iter()
                            .any(|i| i.path == full || i.path.starts_with(&format!("{full}.")))
                    })
            }
            _ => false,
        });
        if !in_instance {
            let written = self
                .index
                .written_types
                .get(sym.graph)
                .and_then(|m| m.get(&sym.name))
                .map_or(String::new(), |w| format!(": `{w}`"));
            let what = match sym.kind {
                SymbolKind::Param => "a param of the block: each instance has its own value",
                SymbolKind::Tensor => "bound to each instance's argument",
                _ => "",
            };
            return format!(
                "**{}** `{}`{written} of block `{block}`\n\n{what}",
                sym.kind.as_str(),
                sym.name
            );
        }
        let proxy = Symbol {
            graph: gi,
            name: full.clone(),
            ..sym.clone()
        };
        let text = match sym.kind {
            SymbolKind::Tensor => self.hover_tensor(&proxy),
            _ => self.hover_op(&proxy),
        };
        // The block's own name first, then what it is in the first instance.
        text.replacen(&format!("`{full}`"), &format!("`{}`", sym.name), 1)
            + &format!("\n\nas in `{path}`, the first instance of block `{block}`")
    }

    fn hover_graph(&self, sym: &Symbol) -> String {
        match self.analysis(sym.graph) {
            Some(a) => format!(
                "**graph** `{}`\n\n{} ops, {} tensors, {} kernels after fusion{}\n\nHBM traffic: {} fused, {} saved by fusion",
                sym.name,
                a.graph.ops.len(),
                a.graph.tensors.len(),
                a.plan.groups.len(),
                super::parallel::graph_line(a),
                fmt_bytes(a.traffic.fused.total),
                fmt_bytes(a.traffic.fused.saved_by_fusion)
            ),
            None => format!("**graph** `{}`\n\n(has errors: no fusion plan)", sym.name),
        }
    }

    fn hover_param(&self, sym: &Symbol) -> String {
        let overridden = self.options.overrides.contains_key(&sym.name);
        match self.index.param_value(sym.graph, &sym.name) {
            Some(Some(v)) => format!(
                "**param** `{}` = {v}{}",
                sym.name,
                if overridden {
                    " (overridden by `--set` or `fgraph.toml`)"
                } else {
                    ""
                }
            ),
            Some(None) => format!(
                "**param** `{}`: no value (its definition has an error)",
                sym.name
            ),
            None => format!("**param** `{}`: not defined in this graph", sym.name),
        }
    }

    fn hover_tensor(&self, sym: &Symbol) -> String {
        let written = self
            .index
            .written_types
            .get(sym.graph)
            .and_then(|m| m.get(&sym.name));
        let mut out = format!("**tensor** `{}`", sym.name);
        let Some(a) = self.analysis(sym.graph) else {
            if let Some(w) = written {
                out += &format!(": `{w}`");
            }
            out += "\n\n(the graph has errors: shape and fusion unknown)";
            if let Some(op) = self
                .graph(sym.graph)
                .and_then(|g| g.written_ops.iter().find(|o| o.output == sym.name))
                && let (Some(shape), Some(d)) = (&op.shape, op.dtype)
            {
                out += &format!("\n\ninferred `{}{}`", d.as_str(), fmt_dims(shape));
            }
            return out;
        };
        let g = &a.graph;
        let Some(t) = Self::tensor_id(a, &sym.name) else {
            if let Some(s) = a.parallel.as_ref().and_then(|p| p.stage.as_ref()) {
                return out
                    + &format!(
                        "\n\non another pipeline stage: this GPU runs stage {} of {}",
                        s.index, s.of
                    );
            }
            return out + "\n\nnot defined in this graph";
        };
        let tensor = g.tensor(t);
        out += &format!(": `{}{}`", tensor.dtype.as_str(), fmt_dims(&tensor.shape));
        if let Some(w) = written {
            out += &format!(" (written `{w}`)");
        }
        out += &format!("\n\n{}", fmt_bytes(tensor.bytes));
        let cache = matches!(tensor.origin, Origin::Input | Origin::Weight)
            && crate::analysis::state::state(g).0[t.index()];
        match tensor.origin {
            _ if cache => {
                out += "\n\nstate: a cache an `update` writes into, not a parameter \
                        (`why: \"cache\"` in the ledger)"
            }
            Origin::Input => out += "\n\ninput",
            Origin::Weight => out += "\n\nweight",
            Origin::Produced(o) => {
                let op = g.op(o);
                out += &format!("\n\nproduced by `{}` ({})", op.name, op.kind_func());
            }
        }
        let consumers: Vec<String> = g
            .consumers(t)
            .iter()
            .map(|&c| format!("`{}`", g.op(c).name))
            .collect();
        out += &if consumers.is_empty() {
            "; read by no op".to_string()
        } else {
            format!("; read by {}", consumers.join(", "))
        };
        if g.is_output(t) {
            out += "; a graph output";
        }
        // Materialized (written to HBM by its kernel) or fused away, and why.
        let written_by = a
            .traffic
            .groups
            .iter()
            .position(|gt| gt.writes.iter().any(|w| w.tensor == t));
        match (tensor.origin, written_by) {
            (Origin::Produced(_), Some(k)) => {
                out += &format!("\n\n**materialized**: kernel {} writes it to HBM", k + 1);
                let mut why: Vec<String> = Vec::new();
                if g.is_output(t) {
                    why.push("it is a graph output".into());
                }
                if g.consumers(t).len() >= 2 {
                    why.push(format!("it has {} consumers", g.consumers(t).len()));
                }
                for b in a.plan.boundaries.iter().filter(|b| b.tensor == t) {
                    why.push(format!(
                        "{} (rule {}, `{}`)",
                        b.reason
                            .explain(&g.op(b.producer).name, &g.op(b.consumer).name, &sym.name),
                        b.reason.rule(),
                        b.reason.as_str()
                    ));
                }
                if !why.is_empty() {
                    out += &format!(": {}", why.join("; "));
                }
                // What would fuse each boundary on it (the what-if replans the graph: only
                // for graphs small enough to answer a hover at once).
                if g.ops.len() <= HOVER_WHAT_IF_OPS
                    && a.plan.boundaries.iter().any(|b| b.tensor == t)
                {
                    let hints = crate::report::whatif::hints(a).hints;
                    for (b, h) in a.plan.boundaries.iter().zip(&hints) {
                        if b.tensor == t {
                            out += &format!(
                                "\n\n`{}` → `{}`: {}",
                                g.op(b.producer).name,
                                g.op(b.consumer).name,
                                h.sentence(g, &a.plan, b)
                            );
                        }
                    }
                }
            }
            (Origin::Produced(o), None) => {
                let k = a.plan.group_of.get(o.index()).copied().unwrap_or(0);
                out += &format!(
                    "\n\n**fused away**: produced and consumed inside kernel {}, never written to HBM",
                    k + 1
                );
            }
            _ => {}
        }
        out
    }

    /// An instantiation (`op attn = attention(..)` or `repeat 32 layers = ..`): its instances
    /// and the kernels their ops run in.
    fn hover_instances(&self, sym: &Symbol, a: &crate::analysis::Analysis) -> String {
        let Some(report) = self.graph(sym.graph) else {
            return String::new();
        };
        let prefix = format!("{}.", sym.name);
        let top: Vec<&crate::syntax::expand::Instance> = report
            .instances
            .iter()
            .filter(|i| {
                // The instance itself, or each instance of a repeat (`layers.0`, `layers.1`).
                i.path == sym.name
                    || (i.index.is_some()
                        && i.path
                            .strip_prefix(&prefix)
                            .is_some_and(|n| n.bytes().all(|c| c.is_ascii_digit())))
            })
            .collect();
        let Some(first) = top.first() else {
            return String::new();
        };
        let ops: usize = top.iter().map(|i| i.ops.len()).sum();
        let mut kernels: Vec<usize> = top
            .iter()
            .flat_map(|i| i.ops.clone())
            .filter_map(|o| a.plan.group_of.get(o).copied())
            .collect();
        kernels.sort_unstable();
        kernels.dedup();
        // Which kernels, by number (the first few).
        let mut span: Vec<String> = kernels
            .iter()
            .take(8)
            .map(|k| format!("**kernel {}**", k + 1))
            .collect();
        if kernels.len() > 8 {
            span.push(format!("… ({} more)", kernels.len() - 8));
        }
        let span = format!("{} of {}", span.join(", "), a.plan.groups.len());
        let n = top.len();
        format!(
            ": {n} instance{} of block `{}`\n\n{ops} ops in {} kernel{}, {span}",
            if n == 1 { "" } else { "s" },
            first.block,
            kernels.len(),
            if kernels.len() == 1 { "" } else { "s" },
        )
    }

    fn hover_op(&self, sym: &Symbol) -> String {
        let mut out = format!("**op** `{}`", sym.name);
        let Some(a) = self.analysis(sym.graph) else {
            if let Some(op) = self
                .graph(sym.graph)
                .and_then(|g| g.written_ops.iter().find(|o| o.name == sym.name))
            {
                let kf = match &op.func {
                    Some(f) => format!("{}.{f}", op.kind),
                    None => op.kind.clone(),
                };
                out += &format!(": {kf} → `{}`", op.output);
            }
            return out + "\n\n(the graph has errors: no kernels)";
        };
        let g = &a.graph;
        let Some(o) = g.ops.iter().position(|op| op.name == sym.name) else {
            let instances = self.hover_instances(sym, a);
            if let (true, Some(s)) = (
                instances.is_empty(),
                a.parallel.as_ref().and_then(|p| p.stage.as_ref()),
            ) {
                return out
                    + &format!(
                        "\n\non another pipeline stage: this GPU runs stage {} of {}",
                        s.index, s.of
                    );
            }
            return out + &instances;
        };
        let id = crate::graph::OpId(o as u32);
        let op = g.op(id);
        let (flops, _) = cost::flops::op_flops(g, id);
        let opaque = if crate::ops::funcs::is_opaque(op) {
            " (an opaque function: costed by the `flops = N` the file states)"
        } else {
            ""
        };
        out += &format!(
            ": {} → `{}`\n\n{} FLOPs{opaque}",
            op.kind_func(),
            g.tensor(op.output).name,
            crate::units::group_digits(flops)
        );
        let Some(&k) = a.plan.group_of.get(o) else {
            return out;
        };
        let (Some(group), Some(traffic)) = (a.plan.groups.get(k), a.traffic.groups.get(k)) else {
            return out;
        };
        let names: Vec<String> = group
            .ops
            .iter()
            .map(|&o| format!("`{}`", g.op(o).name))
            .collect();
        let kc = cost::plan_kernel_cost(g, &a.plan, k, traffic, &self.hardware, LaunchMode::Graph);
        out += &format!(
            "\n\n**kernel {} of {}**: {}\n\nreads {}, writes {}\n\n{}-bound, estimated {} on {}",
            k + 1,
            a.plan.groups.len(),
            names.join(" → "),
            fmt_bytes(traffic.bytes_read),
            fmt_bytes(traffic.bytes_written),
            kc.bound.as_str(),
            crate::units::fmt_time(kc.time_s),
            self.hardware.name
        );
        // A collective's bytes on the wire and time (issue 25).
        if let Some(c) = &kc.communication {
            out += &format!("\n\n**communication**: {}", c.sentence());
        } else if op.kind.is_collective() {
            out += &format!(
                "\n\n**communication**: not priced: {} describes no interconnect",
                self.hardware.name
            );
        }
        out
    }

    /// Inlay hints: `(byte offset, label)` — the inferred type after each op output written
    /// without one, and the kernel each op lands in at the end of its statement.
    pub fn inlay_hints(&self, range: Span) -> Vec<(usize, String)> {
        let mut out = Vec::new();
        for u in &self.index.untyped {
            if u.end < range.start || u.end > range.end {
                continue;
            }
            let Some(a) = self.analysis(u.graph) else {
                continue;
            };
            if let Some(t) = Self::tensor_id(a, &u.output) {
                let t = a.graph.tensor(t);
                out.push((
                    u.end,
                    format!(": {}{}", t.dtype.as_str(), fmt_dims(&t.shape)),
                ));
            }
        }
        for (gi, ends) in self.index.op_ends.iter().enumerate() {
            let Some(a) = self.analysis(gi) else { continue };
            for (o, op) in a.graph.ops.iter().enumerate() {
                let Some(&end) = ends.get(op.name.as_str()) else {
                    continue;
                };
                if end < range.start || end > range.end {
                    continue;
                }
                if let Some(&k) = a.plan.group_of.get(o) {
                    out.push((end, format!("kernel {}", k + 1)));
                }
            }
        }
        out.sort_by_key(|(at, _)| *at);
        out
    }

    /// The edits that rename the symbol at `at` to `new_name`, or why not.
    pub fn rename(&self, at: usize, new_name: &str) -> Result<Vec<Edit>, String> {
        let s = self
            .index
            .at(at)
            .ok_or_else(|| "no tensor, op, param or graph name here".to_string())?;
        let sym = self.index.symbol(s);
        if !is_identifier(new_name) {
            return Err(format!("`{new_name}` is not a valid name"));
        }
        if KEYWORDS.contains(&new_name) {
            return Err(format!("`{new_name}` is a keyword"));
        }
        if new_name == sym.name {
            return Ok(Vec::new());
        }
        let taken = self.index.symbols.iter().any(|o| {
            o.name == new_name
                && o.kind == sym.kind
                && (sym.kind == SymbolKind::Graph || o.graph == sym.graph)
        });
        if taken {
            let place = if sym.kind == SymbolKind::Graph {
                "this file"
            } else {
                "this graph"
            };
            return Err(format!(
                "cannot rename {} `{}` to `{new_name}`: {} already has a {} of that name",
                sym.kind.as_str(),
                sym.name,
                place,
                sym.kind.as_str()
            ));
        }
        Ok(sym
            .occurrences
            .iter()
            .map(|&span| Edit {
                span,
                replacement: new_name.to_string(),
            })
            .collect())
    }

    /// The fixes offered for the diagnostics touching `range`: each diagnostic's own, then an
    /// allow comment for each warning. With the diagnostic each is for.
    pub fn code_actions(&self, range: Span) -> Vec<(&Diagnostic, Fix)> {
        let text = &self.report.source.text;
        let mut out = Vec::new();
        for d in &self.report.diagnostics {
            let Some(p) = &d.primary else { continue };
            let touches = p.span.start <= range.end && range.start <= p.span.end;
            if !touches {
                continue;
            }
            for f in d.fixes.iter() {
                out.push((d, f.clone()));
            }
            if let Some(f) = crate::fix::allow_comment(d, text) {
                out.push((d, f));
            }
        }
        out
    }

    /// Every safe fix of the file at once (`source.fixAll`), if any: the fixes that leave
    /// the file better together (`crate::fix::apply_safe`), found when the file was checked.
    pub fn fix_all(&self) -> Option<Fix> {
        self.fix_all.clone()
    }
}

const KEYWORDS: &[&str] = &["graph", "param", "dtype", "input", "weight", "output", "op"];

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && s.len() <= crate::limits::MAX_IDENT_LEN
}

use crate::units::fmt_shape as fmt_dims;

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = "graph g {\n  param h = 64\n  input x: f16[4, h]\n  weight w: f16[h, 8]\n  op mm = matmul(x, w) -> y\n  op act = elementwise.relu(y) -> z\n  output z\n}\n";

    /// The pipeline asks whether to go on between its stages: an analysis told to stop at
    /// any of them is `None` (and `go_on` is not asked again).
    #[test]
    fn an_analysis_stops_at_the_stage_it_is_told_to() {
        let hw = || Hardware::preset("h100").expect("h100");
        let two = format!("{SRC}{}", SRC.replace("graph g", "graph h"));
        let asked = std::cell::Cell::new(0);
        let all = FileModel::unless_stopped(
            "g.fgraph",
            two.clone().into_bytes(),
            Options::default(),
            hw(),
            &|| {
                asked.set(asked.get() + 1);
                true
            },
        );
        assert_eq!(all.map(|m| m.report.graphs.len()), Some(2));
        // After the parse, then before each graph is checked, then before each is fused.
        let stages = asked.get();
        assert_eq!(stages, 5);
        for stop_at in 1..=stages {
            asked.set(0);
            let m = FileModel::unless_stopped(
                "g.fgraph",
                two.clone().into_bytes(),
                Options::default(),
                hw(),
                &|| {
                    asked.set(asked.get() + 1);
                    asked.get() < stop_at
                },
            );
            assert!(m.is_none(), "stopped at stage {stop_at}");
            assert_eq!(asked.get(), stop_at, "asked again after stage {stop_at}");
        }
    }

    #[test]
    fn names_inside_a_block_resolve_and_hover_as_in_the_first_instance() {
        let src = "block mlp(S, H = 8) {\n  input x: [S, H]\n  weight w: [H, H]\n  op mm = matmul(x, w) -> y\n  output y\n}\ngraph g {\n  input x: [4, 8]\n  repeat 2 layers = mlp(x, S = 4) -> h\n}\n";
        let hw = Hardware::preset("h100").expect("preset");
        let m = FileModel::new("g.fgraph", src, Options::default(), hw);
        // `y` in `output y` resolves to its definition in the block, not to the graph.
        let use_y = src.find("output y").expect("output") + "output ".len();
        let s = m.index.at(use_y).expect("resolves");
        let def = m.index.symbol(s).def.expect("defined");
        assert_eq!(def.start, src.find("-> y").expect("def") + 3);
        let (_, h) = m.hover(use_y).expect("hover");
        assert!(h.starts_with("**tensor** `y`: `f32[4, 8]`"), "{h}");
        assert!(
            h.contains("128 B") && h.contains("first instance of block `mlp`"),
            "{h}"
        );
        let (_, h) = m.hover(src.find("op mm").expect("op") + 3).expect("hover");
        assert!(
            h.starts_with("**op** `mm`") && h.contains("**kernel 1 of 2**"),
            "{h}"
        );
        // The block's input is bound per instance; the block `x` is not the graph's `x`.
        let block_x = src.find("input x").expect("x") + "input ".len();
        let (_, h) = m.hover(block_x).expect("hover");
        assert!(h.contains("bound to each instance's argument"), "{h}");
        let graph_x = src.rfind("input x").expect("x") + "input ".len();
        assert_ne!(m.index.at(block_x), m.index.at(graph_x));
        // The repeat hovers with its instances and kernels.
        let (_, h) = m.hover(src.find("layers").expect("repeat")).expect("hover");
        assert!(h.contains("2 instances of block `mlp`"), "{h}");
    }

    /// A KV cache (a weight an `update` writes into) hovers as state, not as a weight
    /// (issue 28: never a parameter).
    #[test]
    fn a_cache_hovers_as_state() {
        let src = "graph g {\n  dtype bf16\n  input k: [1, 1, 1, 128]\n  weight cache: [1, 1, 9, 128]\n  weight w: [128, 128]\n  op app = update(cache, k, axis = 2, start = 8) -> kc\n  output kc\n}\n";
        let hw = Hardware::preset("h100").expect("preset");
        let m = FileModel::new("g.fgraph", src, Options::default(), hw);
        let (_, h) = m.hover(src.find("cache:").expect("cache")).expect("hover");
        assert!(h.contains("state: a cache"), "{h}");
        assert!(!h.contains("\n\nweight"), "{h}");
        let (_, h) = m.hover(src.find("w:").expect("w")).expect("hover");
        assert!(h.contains("\n\nweight"), "{h}");
    }

    /// A collective's hover gives its bytes on the wire and its time (issue 25): the
    /// all-reduce of [1, 8192] bf16 over 8 GPUs of docs/cost-model.md §12 (NVLS on the fitted
    /// h100 preset).
    #[test]
    fn a_collective_hovers_with_its_bytes_and_time() {
        let src = "graph g {\n  dtype bf16\n  input x: [1, 8192]\n  op ar = all_reduce(x, group = tp, size = 8) -> y\n}\n";
        let hw = Hardware::preset("h100").expect("preset");
        let m = FileModel::new("g.fgraph", src, Options::default(), hw);
        let (_, h) = m.hover(src.find("op ar").expect("op") + 3).expect("hover");
        assert!(
            h.contains("7,168 FLOPs") && h.contains("communication-bound"),
            "{h}"
        );
        assert!(
            h.contains(
                "**communication**: all_reduce over `tp` (8 GPUs, 1 node), nvls (the fastest \
                 here): 18.4 kB sent and 18.4 kB received per GPU, one NVLS operation; 23.00 µs \
                 latency + 0.06 µs at 333.0 GB/s = 23.06 µs"
            ),
            "{h}"
        );
        // The group is a name, not a param: no hover as one.
        let (_, h) = m.hover(src.find("tp").expect("group")).unwrap_or_default();
        assert!(!h.contains("**param**"), "{h}");
    }

    #[test]
    fn a_tensor_hover_says_what_would_fuse_its_boundaries() {
        let src = "graph d {\n  input x: [64, 64]\n  op a = elementwise.relu(x) -> t\n  op b = elementwise.gelu(t) -> u\n  op c = elementwise.exp(t) -> v\n  op d = elementwise.add(u, v) -> y\n}\n";
        let hw = Hardware::preset("h100").expect("preset");
        let m = FileModel::new("d.fgraph", src, Options::default(), hw);
        let (_, h) = m.hover(src.find("-> t").expect("t") + 3).expect("hover");
        assert!(
            h.contains(
                "`a` → `b`: `t` has 2 consumers (`b` and `c`): with `--policy store` this edge \
                 fuses and saves 32.8 kB"
            ),
            "{h}"
        );
    }

    fn model() -> FileModel {
        let hw = Hardware::preset("h100").expect("preset");
        FileModel::new("g.fgraph", SRC, Options::default(), hw)
    }

    fn at(name: &str, nth: usize) -> usize {
        SRC.match_indices(name)
            .nth(nth)
            .map(|(i, _)| i)
            .expect("in source")
    }

    #[test]
    fn hovers_say_shape_bytes_kernel_and_value() {
        let m = model();
        let (_, h) = m.hover(at("-> y", 0) + 3).expect("hover on y");
        // 4 × 8 f16 = 64 bytes; matmul then relu fuse into one kernel: y never reaches HBM.
        assert!(h.contains("`f16[4, 8]`") && h.contains("64 B"), "{h}");
        assert!(
            h.contains("produced by `mm` (matmul)") && h.contains("read by `act`"),
            "{h}"
        );
        assert!(h.contains("fused away") && h.contains("kernel 1"), "{h}");
        let (_, h) = m.hover(at("h]", 0)).expect("hover on param use");
        assert_eq!(h, "**param** `h` = 64");
        let (_, h) = m.hover(at("mm", 0)).expect("hover on op");
        // 2 × 4 × 64 × 8 FLOPs.
        assert!(
            h.contains("4,096 FLOPs") && h.contains("kernel 1 of 1"),
            "{h}"
        );
        // x is 4 × 64 × 2 = 512 B, w 64 × 8 × 2 = 1,024 B; z is 64 B.
        assert!(
            h.contains("reads 1,536 B") && h.contains("writes 64 B"),
            "{h}"
        );
        let (_, h) = m.hover(at("z\n", 0)).expect("hover on z");
        assert!(
            h.contains("materialized") && h.contains("graph output"),
            "{h}"
        );
    }

    /// An op of an opaque function says so in its hover; one of a known function does not.
    #[test]
    fn an_opaque_function_says_so_in_its_hover() {
        let src = "graph g {\n  input x: [4, 8]\n  op router = elementwise.route(x, flops = 3) -> y\n  \
                   op act = elementwise.relu(y) -> z\n}\n";
        let hw = Hardware::preset("h100").expect("preset");
        let m = FileModel::new("g.fgraph", src, Options::default(), hw);
        let (_, h) = m
            .hover(src.find("router").expect("router"))
            .expect("hover on router");
        assert!(h.contains("96 FLOPs (an opaque function"), "{h}");
        let (_, h) = m
            .hover(src.find("act").expect("act"))
            .expect("hover on act");
        assert!(!h.contains("opaque"), "{h}");
    }

    /// A low-precision GEMM hovers with its kind and its FLOPs: the product and the
    /// dequantisation (issue 23 item 6): 2 · 1 · 64 · 128 + 2 · 128 · 64 = 32,768.
    #[test]
    fn a_quant_mm_hovers_with_its_kind_and_flops() {
        let src = "graph g {\n  input x: bf16[1, 128]\n  weight w: u8[64, 64]\n  \
                   weight s: bf16[1, 64]\n  op q = quant_mm(x, w, s) -> y\n}\n";
        let hw = Hardware::preset("h100").expect("preset");
        let m = FileModel::new("g.fgraph", src, Options::default(), hw);
        let (_, h) = m.hover(src.find("q =").expect("q")).expect("hover on q");
        assert!(h.contains("quant_mm") && h.contains("32,768 FLOPs"), "{h}");
        // x 256 B, w 4,096 B (128 × 64 int4), s 128 B.
        assert!(h.contains("reads 4,480 B"), "{h}");
    }

    /// The hover's kernel estimate is the report's: a causal FlashAttention kernel does only
    /// the pairs its mask keeps (2 heads, 8 queries and keys, head dim 8: 36 of 64 pairs).
    #[test]
    fn a_masked_flash_kernel_hovers_with_its_masked_flops() {
        let src = "graph g {\n  dtype f16\n  input q: [2, 8, 8]\n  input k: [2, 8, 8]\n  \
                   input v: [2, 8, 8]\n  op qk = matmul(q, k.T) -> s: [2, 8, 8]\n  \
                   op sm = reduction.softmax(s, axis = -1, causal = true) -> p: [2, 8, 8]\n  \
                   op pv = matmul(p, v) -> o: [2, 8, 8]\n  output o\n}\n";
        let mut opts = Options::default();
        opts.fusion.flash_attention = true;
        let hw = Hardware::preset("h100").expect("preset");
        let m = FileModel::new("g.fgraph", src, opts, hw.clone());
        let a = m.report.graphs[0].analysis.as_ref().expect("analysis");
        let plan = cost::plan_cost(&a.graph, &a.plan, &a.traffic.groups, &hw, LaunchMode::Graph);
        assert_eq!(plan.kernels.len(), 1);
        let (_, h) = m.hover(src.find("qk").expect("qk")).expect("hover on qk");
        let time = crate::units::fmt_time(plan.kernels[0].time_s);
        assert!(h.contains(&format!("estimated {time}")), "{h} / {time}");
    }

    /// Every name in every shipped example: a hover that says what it is, a definition that
    /// names it, and references that include the place asked about.
    #[test]
    fn every_name_of_the_examples_hovers_and_resolves() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
        let mut names = 0;
        for entry in std::fs::read_dir(dir).expect("examples") {
            let path = entry.expect("entry").path();
            // examples/lib/ holds blocks the examples import, not graphs.
            if !path.is_file() {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("example");
            let hw = Hardware::preset("h100").expect("preset");
            // The real path: the examples import files beside them.
            let name = path.to_string_lossy();
            let m = FileModel::new(&name, &text, Options::default(), hw);
            assert!(m.report.graphs.iter().all(|g| g.analysis.is_some()));
            for sym in &m.index.symbols {
                let def = sym.def.expect("every name of a clean example is defined");
                assert_eq!(&text[def.start..def.end], sym.name);
                for &at in &sym.occurrences {
                    names += 1;
                    let (span, h) = m.hover(at.start).expect("a hover");
                    assert_eq!(span, at);
                    let head = format!("**{}** `{}`", sym.kind.as_str(), sym.name);
                    assert!(h.starts_with(&head), "{}: {h}", path.display());
                    // A block input or param has a value per instance: its hover says so.
                    let per_instance = h.contains("bound to each instance's argument")
                        || h.contains("a param of the block");
                    // A tensor of another pipeline stage (issue 25) is not in this GPU's graph.
                    let elsewhere = h.contains("on another pipeline stage");
                    if sym.kind == SymbolKind::Tensor && !per_instance && !elsewhere {
                        assert!(h.contains(" B"), "bytes in {h}");
                    }
                    if sym.kind == SymbolKind::Op && !elsewhere {
                        assert!(h.contains("**kernel "), "kernel in {h}");
                    }
                    let s = m.index.at(at.start).expect("resolves");
                    assert_eq!(m.index.symbol(s).def, Some(def));
                }
            }
        }
        assert!(names > 100, "{names} names");
    }

    #[test]
    fn inlay_hints_show_types_and_kernels() {
        let m = model();
        let hints = m.inlay_hints(Span::new(0, SRC.len()));
        let labels: Vec<&str> = hints.iter().map(|(_, l)| l.as_str()).collect();
        assert_eq!(
            labels,
            [": f16[4, 8]", "kernel 1", ": f16[4, 8]", "kernel 1"]
        );
        assert_eq!(hints[0].0, at("-> y", 0) + 4);
    }

    #[test]
    fn names_in_assertions_resolve_and_rename_with_their_op_or_tensor() {
        let src = "graph g {\n  input x: [4, 8]\n  op a = elementwise.relu(x) -> y\n  op b = elementwise.exp(y) -> z\n  param K = 2\n  assert fused(a, b)\n  assert not materialized(y)\n  assert kernels <= K\n}\n";
        let hw = Hardware::preset("h100").expect("preset");
        let m = FileModel::new("g.fgraph", src, Options::default(), hw);
        assert!(
            m.report.diagnostics.is_empty(),
            "{:?}",
            m.report.diagnostics
        );
        let in_assert = src.find("fused(a").expect("assert") + "fused(".len();
        let s = m
            .index
            .at(in_assert)
            .expect("the op in the assertion resolves");
        let sym = m.index.symbol(s);
        assert_eq!(sym.kind, SymbolKind::Op);
        assert_eq!(sym.def.map(|d| d.start), src.find("op a").map(|i| i + 3));
        assert_eq!(sym.occurrences.len(), 2);
        let (_, h) = m.hover(in_assert).expect("hover");
        assert!(
            h.starts_with("**op** `a`") && h.contains("**kernel 1"),
            "{h}"
        );
        let edits = m.rename(in_assert, "first").expect("rename");
        assert_eq!(edits.len(), 2);
        // A tensor in `materialized` is the tensor; a bound's param is the param.
        let t = src.find("materialized(y").expect("assert") + "materialized(".len();
        let s = m.index.at(t).expect("resolves");
        assert_eq!(m.index.symbol(s).kind, SymbolKind::Tensor);
        assert_eq!(m.rename(t, "hidden").expect("rename").len(), 3);
        let k = src.find("<= K").expect("assert") + 3;
        let s = m.index.at(k).expect("resolves");
        assert_eq!(m.index.symbol(s).kind, SymbolKind::Param);
    }

    #[test]
    fn rename_edits_every_occurrence_or_refuses() {
        let m = model();
        let edits = m.rename(at("y)", 0), "hidden").expect("rename");
        assert_eq!(edits.len(), 2);
        let err = m.rename(at("y)", 0), "x").expect_err("taken");
        assert!(err.contains("already has a tensor"), "{err}");
        assert!(m.rename(at("y)", 0), "op").is_err());
        assert!(m.rename(at("y)", 0), "1y").is_err());
        let edits = m.rename(at("h]", 0), "hid").expect("param");
        assert_eq!(edits.len(), 3);
    }
}
