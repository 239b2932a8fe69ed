//! The fast JSON writer: [`AnalysisJson::write_json`] writes exactly the bytes
//! `serde_json::to_writer` writes for the report (compact), several times faster on large
//! graphs, by writing the long lists (ops, kernels, boundaries, the unfused plan's kernels)
//! directly instead of through `Serializer` calls; small parts go through `serde_json` itself.
//! The test beside it holds it to serde's bytes on every example and fixture.
//!
//! It can write the report in two parts, the head (schema version, graph name and ops, which
//! the cost model does not change) and the tail, so that the ops are written while the cost
//! model runs ([`crate::report::Report::assemble`]).

use crate::cost::{Bound, KernelCost};
use crate::report::render::json::cost::{KernelCostJson, PlanCostJson, r4};
use crate::report::render::json::schema::{
    AnalysisJson, BoundariesJson, GroupsJson, InputsJson, OpJson, OpsJson,
};
use crate::report::same_estimate;
use serde::Serialize;
use std::fmt;

/// Bytes the JSON writer gathers before handing them to its `Write`.
const CHUNK: usize = 1 << 20;

/// A JSON writer for [`AnalysisJson::write_json`]: byte-for-byte what `serde_json` writes
/// (compact), with the long lists written directly instead of through `Serializer` calls.
struct JsonOut<'w> {
    buf: Vec<u8>,
    w: &'w mut dyn std::io::Write,
}

impl<'w> JsonOut<'w> {
    fn new(w: &'w mut dyn std::io::Write) -> Self {
        JsonOut {
            buf: Vec::with_capacity(CHUNK + CHUNK / 2),
            w,
        }
    }

    /// Hands the gathered bytes on once there are enough of them.
    fn spill(&mut self) -> std::io::Result<()> {
        if self.buf.len() >= CHUNK {
            self.w.write_all(&self.buf)?;
            self.buf.clear();
        }
        Ok(())
    }

    fn raw(&mut self, b: &[u8]) {
        self.buf.extend_from_slice(b);
    }

    /// Writes `items` separated by commas (the brackets are the caller's).
    fn list<T>(
        &mut self,
        items: impl IntoIterator<Item = T>,
        mut each: impl FnMut(&mut Self, T) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        for (i, item) in items.into_iter().enumerate() {
            if i > 0 {
                self.buf.push(b',');
            }
            each(self, item)?;
        }
        Ok(())
    }

    /// Anything small, through `serde_json` itself.
    fn serde<T: Serialize + ?Sized>(&mut self, v: &T) -> std::io::Result<()> {
        serde_json::to_writer(&mut self.buf, v).map_err(std::io::Error::other)
    }

    fn u64(&mut self, mut v: u64) {
        const PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
            2021222324252627282930313233343536373839\
            4041424344454647484950515253545556575859\
            6061626364656667686970717273747576777879\
            8081828384858687888990919293949596979899";
        let mut digits = [0u8; 20];
        let mut i = digits.len();
        while v >= 100 {
            let p = (v % 100) as usize * 2;
            v /= 100;
            i -= 2;
            digits[i..i + 2].copy_from_slice(&PAIRS[p..p + 2]);
        }
        if v >= 10 {
            let p = v as usize * 2;
            i -= 2;
            digits[i..i + 2].copy_from_slice(&PAIRS[p..p + 2]);
        } else {
            i -= 1;
            digits[i] = b'0' + v as u8;
        }
        self.buf.extend_from_slice(&digits[i..]);
    }

    /// The contents of a JSON string, escaped as `serde_json` escapes them.
    fn escaped(&mut self, s: &str) {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let bytes = s.as_bytes();
        // Names are identifiers: nearly every string needs no escape at all.
        // A fold, not `any`: without the early exit the test vectorises.
        if !bytes
            .iter()
            .fold(false, |a, &b| a | (b < 0x20) | (b == b'"') | (b == b'\\'))
        {
            self.buf.extend_from_slice(bytes);
            return;
        }
        let mut start = 0;
        for (i, &b) in bytes.iter().enumerate() {
            let esc: &[u8] = match b {
                b'"' => b"\\\"",
                b'\\' => b"\\\\",
                0x08 => b"\\b",
                0x0c => b"\\f",
                b'\n' => b"\\n",
                b'\r' => b"\\r",
                b'\t' => b"\\t",
                0..=0x1f => {
                    self.buf.extend_from_slice(&bytes[start..i]);
                    self.buf.extend_from_slice(b"\\u00");
                    self.buf.push(HEX[(b >> 4) as usize]);
                    self.buf.push(HEX[(b & 0xf) as usize]);
                    start = i + 1;
                    continue;
                }
                _ => continue,
            };
            self.buf.extend_from_slice(&bytes[start..i]);
            self.buf.extend_from_slice(esc);
            start = i + 1;
        }
        self.buf.extend_from_slice(&bytes[start..]);
    }

    fn str(&mut self, s: &str) {
        self.buf.push(b'"');
        self.escaped(s);
        self.buf.push(b'"');
    }

    fn opt_str(&mut self, s: Option<&str>) {
        match s {
            Some(s) => self.str(s),
            None => self.raw(b"null"),
        }
    }

    /// `name`, `name[i]`, `name.T` or `name[i].T` as one string.
    fn view_name(&mut self, name: &str, index: Option<u64>, transpose: bool) {
        self.buf.push(b'"');
        self.escaped(name);
        if let Some(i) = index {
            self.buf.push(b'[');
            self.u64(i);
            self.buf.push(b']');
        }
        if transpose {
            self.raw(b".T");
        }
        self.buf.push(b'"');
    }

    fn op(&mut self, o: &OpJson<'_>) -> std::io::Result<()> {
        self.raw(b"{\"name\":");
        self.str(o.name);
        self.raw(b",\"kind\":");
        self.str(o.kind);
        self.raw(b",\"func\":");
        self.opt_str(o.func);
        self.raw(b",\"inputs\":[");
        match o.inputs {
            InputsJson::Written(v) => self.list(v, |out, s| {
                out.str(s);
                Ok(())
            })?,
            InputsJson::Uses(g, uses) => self.list(uses, |out, u| {
                out.view_name(&g.tensor(u.tensor).name, u.index, u.transpose);
                Ok(())
            })?,
            InputsJson::Owned(ref v) => self.list(v, |out, s| {
                out.str(s);
                Ok(())
            })?,
        }
        self.raw(b"],\"output\":");
        self.str(o.output);
        self.raw(b",\"shape\":");
        match o.shape {
            Some(shape) => {
                self.buf.push(b'[');
                self.list(shape, |out, &d| {
                    out.u64(d);
                    Ok(())
                })?;
                self.buf.push(b']');
            }
            None => self.raw(b"null"),
        }
        self.raw(b",\"dtype\":");
        self.opt_str(o.dtype);
        self.raw(b",\"bytes\":");
        match o.bytes {
            Some(b) => self.u64(b),
            None => self.raw(b"null"),
        }
        if o.opaque {
            self.raw(b",\"opaque\":true");
        }
        self.buf.push(b'}');
        Ok(())
    }

    fn ops(&mut self, ops: &OpsJson<'_>) -> std::io::Result<()> {
        self.buf.push(b'[');
        match *ops {
            OpsJson::None => {}
            OpsJson::Written(ops) => self.list(ops, |out, o| {
                out.op(&OpJson {
                    name: &o.name,
                    kind: &o.kind,
                    func: o.func.as_deref(),
                    inputs: InputsJson::Written(&o.inputs),
                    output: &o.output,
                    shape: o.shape.as_deref(),
                    dtype: o.dtype.map(|d| d.as_str()),
                    bytes: o.bytes,
                    opaque: false,
                })?;
                out.spill()
            })?,
            OpsJson::Graph(g) => self.list(&g.ops, |out, o| {
                let t = g.tensor(o.output);
                out.op(&OpJson {
                    name: &o.name,
                    kind: o.kind.as_str(),
                    func: o.func.as_deref(),
                    inputs: InputsJson::of(g, o),
                    output: &t.name,
                    shape: Some(&t.shape),
                    dtype: Some(t.dtype.as_str()),
                    bytes: Some(t.bytes),
                    opaque: crate::ops::funcs::is_opaque(o),
                })?;
                out.spill()
            })?,
        }
        self.buf.push(b']');
        Ok(())
    }

    fn groups(&mut self, groups: &GroupsJson<'_>) -> std::io::Result<()> {
        let a = groups.analysis;
        let g = &a.graph;
        // Consecutive kernels often have the same estimate: format each distinct one once.
        let mut last_cost: Option<(&KernelCost, Vec<u8>)> = None;
        self.buf.push(b'[');
        let kernels = a.plan.groups.iter().zip(&a.traffic.groups).enumerate();
        self.list(kernels, |out, (k, (grp, tr))| {
            out.raw(b"{\"ops\":[");
            out.list(&grp.ops, |out, &o| {
                out.str(&g.op(o).name);
                out.spill()
            })?;
            out.raw(b"],\"reads\":[");
            out.list(&tr.reads, |out, r| {
                out.raw(b"{\"tensor\":");
                out.view_name(&g.tensor(r.tensor).name, r.index, false);
                out.raw(b",\"bytes\":");
                out.u64(r.bytes);
                out.buf.push(b'}');
                out.spill()
            })?;
            out.raw(b"],\"writes\":[");
            out.list(&tr.writes, |out, w| {
                out.raw(b"{\"tensor\":");
                out.str(&g.tensor(w.tensor).name);
                out.raw(b",\"bytes\":");
                out.u64(w.bytes);
                out.buf.push(b'}');
                out.spill()
            })?;
            out.raw(b"],\"bytes_read\":");
            out.u64(tr.bytes_read);
            out.raw(b",\"bytes_written\":");
            out.u64(tr.bytes_written);
            out.raw(if a.plan.flash_kernel(k).is_some() {
                b",\"flash_attention\":true,\"cost\":"
            } else {
                b",\"flash_attention\":false,\"cost\":"
            });
            match groups.costs.get(k) {
                Some(c) => match &last_cost {
                    Some((prev, text)) if same_estimate(prev, c) => out.buf.extend_from_slice(text),
                    _ => {
                        let text = serde_json::to_vec(&KernelCostJson::from(c))
                            .map_err(std::io::Error::other)?;
                        out.buf.extend_from_slice(&text);
                        last_cost = Some((c, text));
                    }
                },
                None => out.raw(b"null"),
            }
            if !grp.recomputed.is_empty() {
                out.raw(b",\"recomputed\":[");
                out.list(&grp.recomputed, |out, &o| {
                    out.str(&g.op(o).name);
                    out.spill()
                })?;
                out.buf.push(b']');
            }
            out.buf.push(b'}');
            out.spill()
        })?;
        self.buf.push(b']');
        Ok(())
    }

    fn boundaries(&mut self, b: &BoundariesJson<'_>) -> std::io::Result<()> {
        let (g, plan) = (b.graph, b.plan);
        self.buf.push(b'[');
        self.list(b.boundaries.iter().zip(&b.hints), |out, (b, h)| {
            out.raw(b"{\"producer\":");
            out.str(&g.op(b.producer).name);
            out.raw(b",\"consumer\":");
            out.str(&g.op(b.consumer).name);
            out.raw(b",\"tensor\":");
            out.str(&g.tensor(b.tensor).name);
            out.raw(b",\"reason\":");
            out.str(b.reason.as_str());
            out.raw(b",\"rule\":");
            out.u64(b.reason.rule().into());
            out.raw(b",\"explanation\":\"");
            let _ = b.write_explanation(&mut Escaping(out), g);
            out.buf.push(b'"');
            if let Some((p, c)) = b.via {
                out.raw(b",\"via\":[");
                out.str(&g.op(p).name);
                out.buf.push(b',');
                out.str(&g.op(c).name);
                out.buf.push(b']');
            }
            if let Some(hit) = &b.budget {
                out.raw(b",\"budget\":");
                out.serde(hit)?;
            }
            out.raw(b",\"values\":");
            out.serde(&h.values(g, plan, b))?;
            out.raw(b",\"smallest_change\":");
            out.serde(&h.fix)?;
            out.raw(b",\"hint\":");
            out.str(&h.sentence(g, plan, b));
            out.buf.push(b'}');
            out.spill()
        })?;
        self.buf.push(b']');
        Ok(())
    }

    fn plan_cost(&mut self, p: &PlanCostJson<'_>) -> std::io::Result<()> {
        self.raw(b"{\"kernels\":");
        self.u64(p.kernels as u64);
        self.raw(b",\"flops\":");
        self.u64(p.flops);
        self.raw(b",\"bytes\":");
        self.u64(p.bytes);
        self.raw(b",\"time_us\":");
        self.serde(&p.time_us)?;
        if let Some(per) = &p.per_kernel {
            let g = per.graph;
            self.raw(b",\"per_kernel\":[");
            // Consecutive kernels often take the same time: format each distinct one once.
            let mut last: Option<(u64, Vec<u8>)> = None;
            self.list(per.kernels, |out, k| {
                let (bound, time_s) = k.bound_and_time(per.hardware, per.launch);
                out.raw(b"{\"op\":");
                out.str(&g.op(k.op).name);
                out.raw(b",\"flops\":");
                out.u64(k.flops);
                out.raw(b",\"bytes\":");
                out.u64(k.bytes);
                out.raw(match bound {
                    Bound::Memory => b",\"bound\":\"memory\",\"time_us\":",
                    Bound::Compute => b",\"bound\":\"compute\",\"time_us\":",
                    Bound::Communication => b",\"bound\":\"communication\",\"time_us\":",
                });
                let t = r4(time_s * 1e6);
                match &last {
                    Some((bits, text)) if *bits == t.to_bits() => out.buf.extend_from_slice(text),
                    _ => {
                        let text = serde_json::to_vec(&t).map_err(std::io::Error::other)?;
                        out.buf.extend_from_slice(&text);
                        last = Some((t.to_bits(), text));
                    }
                }
                out.buf.push(b'}');
                out.spill()
            })?;
            self.buf.push(b']');
        }
        self.buf.push(b'}');
        Ok(())
    }

    /// `{"schema_version":…,"graph":…,"ops":[…]`: what the cost model does not change.
    fn analysis_head(&mut self, j: &AnalysisJson<'_>) -> std::io::Result<()> {
        self.raw(b"{\"schema_version\":");
        self.u64(j.schema_version.into());
        self.raw(b",\"graph\":");
        self.str(j.graph);
        self.raw(b",\"ops\":");
        self.ops(&j.ops)
    }

    /// The rest of the report, from `,"groups":` to the closing brace.
    fn analysis_tail(&mut self, j: &AnalysisJson<'_>) -> std::io::Result<()> {
        self.raw(b",\"groups\":");
        match &j.groups {
            Some(groups) => self.groups(groups)?,
            None => self.raw(b"null"),
        }
        self.raw(b",\"boundaries\":");
        match &j.boundaries {
            Some(b) => self.boundaries(b)?,
            None => self.raw(b"null"),
        }
        self.raw(b",\"traffic\":");
        self.serde(&j.traffic)?;
        self.raw(b",\"savings_pct\":");
        self.serde(&j.savings_pct)?;
        if let Some(policy) = j.policy {
            self.raw(b",\"policy\":");
            self.str(policy.as_str());
        }
        if let Some(e) = &j.reduction_epilogues {
            self.raw(b",\"reduction_epilogues\":");
            self.serde(e)?;
        }
        if let Some(f) = &j.fusion {
            self.raw(b",\"fusion\":");
            self.serde(f)?;
        }
        if let Some(p) = &j.parallel {
            self.raw(b",\"parallel\":");
            self.serde(p)?;
        }
        self.raw(b",\"diagnostics\":");
        self.serde(&j.diagnostics)?;
        self.spill()?;
        self.raw(b",\"cost\":");
        match &j.cost {
            Some(c) => {
                self.raw(b"{\"hardware\":");
                self.serde(&c.hardware)?;
                self.raw(b",\"launch\":");
                self.serde(&c.launch)?;
                self.raw(b",\"unfused\":");
                self.plan_cost(&c.unfused)?;
                self.raw(b",\"fused\":");
                self.plan_cost(&c.fused)?;
                self.raw(b",\"speedup\":");
                self.serde(&c.speedup)?;
                if let (Some(t), Some(m)) = (c.traffic_model, &c.hardware_model) {
                    self.raw(b",\"traffic_model\":");
                    self.str(t);
                    self.raw(b",\"hardware_model\":");
                    self.serde(m)?;
                }
                if let Some(r) = &c.runtime {
                    self.raw(b",\"runtime\":");
                    self.serde(r)?;
                }
                if let Some(cm) = &c.communication {
                    self.raw(b",\"communication\":");
                    self.serde(cm)?;
                }
                self.buf.push(b'}');
            }
            None => self.raw(b"null"),
        }
        self.raw(b",\"attention\":");
        self.serde(&j.attention)?;
        if let Some(s) = &j.summary {
            self.raw(b",\"summary\":");
            self.serde(s)?;
        }
        if let Some(c) = &j.compare {
            self.raw(b",\"compare\":");
            self.serde(c)?;
        }
        if let Some(l) = &j.ledger {
            self.raw(b",\"ledger\":");
            self.serde(l)?;
        }
        if let Some(m) = &j.memory {
            self.raw(b",\"memory\":");
            self.serde(m)?;
        }
        if let Some(b) = &j.breakdown {
            self.raw(b",\"breakdown\":");
            self.serde(b)?;
        }
        if let Some(b) = &j.baseline {
            self.raw(b",\"baseline\":");
            self.serde(b)?;
        }
        self.buf.push(b'}');
        Ok(())
    }
}

/// Text written into a JSON string, escaped.
struct Escaping<'o, 'w>(&'o mut JsonOut<'w>);

impl fmt::Write for Escaping<'_, '_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0.escaped(s);
        Ok(())
    }
}

impl AnalysisJson<'_> {
    /// Writes the report as compact JSON, exactly the bytes `serde_json::to_writer` writes
    /// for it, but several times faster on large graphs. Buffers internally (no need for a
    /// `BufWriter`); writes no trailing newline.
    pub fn write_json(&self, w: &mut dyn std::io::Write) -> std::io::Result<()> {
        let mut out = JsonOut::new(w);
        out.analysis_head(self)?;
        out.analysis_tail(self)?;
        out.w.write_all(&out.buf)
    }

    /// The first part of [`AnalysisJson::write_json`]'s bytes: the graph's name and its ops,
    /// which the cost model does not change. With [`AnalysisJson::write_json_tail`], written
    /// from the same report or from it [`with_cost`](AnalysisJson::with_cost), it writes
    /// the whole report, so that a caller can run the cost model while the ops are written.
    pub fn write_json_head(&self, w: &mut dyn std::io::Write) -> std::io::Result<()> {
        let mut out = JsonOut::new(w);
        out.analysis_head(self)?;
        out.w.write_all(&out.buf)
    }

    /// The rest of [`AnalysisJson::write_json`]'s bytes after
    /// [`AnalysisJson::write_json_head`]'s.
    pub fn write_json_tail(&self, w: &mut dyn std::io::Write) -> std::io::Result<()> {
        let mut out = JsonOut::new(w);
        out.analysis_tail(self)?;
        out.w.write_all(&out.buf)
    }
}

#[cfg(test)]
mod tests {
    use super::AnalysisJson;
    use crate::analysis::{Options, check_file};
    use crate::cost::{self, Hardware, LaunchMode};
    use crate::diagnostics::render;
    use crate::fusion::Policy;
    use crate::report::render::json::ledger::LedgerJson;
    use std::path::{Path, PathBuf};

    fn fgraph_files(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                fgraph_files(&p, out);
            } else if p.extension().is_some_and(|x| x == "fgraph") {
                out.push(p);
            }
        }
    }

    fn same(json: &AnalysisJson<'_>, what: &str) {
        let slow = serde_json::to_vec(json).expect("serialises");
        let mut fast = Vec::new();
        json.write_json(&mut fast).expect("writes");
        assert!(
            slow == fast,
            "{what}:\nserde: {}\nfast:  {}",
            String::from_utf8_lossy(&slow),
            String::from_utf8_lossy(&fast)
        );
        assert!(
            fast.starts_with(b"{\"schema_version\":1,\"graph\":"),
            "{what}: the schema version is the first key"
        );
        let mut parts = Vec::new();
        json.write_json_head(&mut parts).expect("writes");
        json.write_json_tail(&mut parts).expect("writes");
        assert!(parts == fast, "{what}: head and tail");
    }

    /// `write_json` writes exactly what `serde_json` writes for the report, on every example
    /// and fixture, with and without the cost model and FlashAttention, and with errors.
    #[test]
    fn write_json_matches_serde_json() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = Vec::new();
        fgraph_files(&root.join("examples"), &mut files);
        fgraph_files(&root.join("tests/fixtures"), &mut files);
        assert!(files.len() > 10, "fixtures found: {}", files.len());
        // Names that need escaping, slices, transposes, an unchecked graph.
        let views = "graph h {\n  input q: [2, 8, 8]\n  input k: [2, 8, 8]\n  op s = matmul(q[0], k[1].T) -> y\n  op r = elementwise.add(y, q[0], q[1], q[0], y) -> z\n  op t = reduction.sum(z, axis = -1) -> w: [8]\n}\n";
        let mut sources: Vec<(String, Vec<u8>)> = files
            .iter()
            .map(|p| (p.display().to_string(), std::fs::read(p).expect("reads")))
            .collect();
        sources.push(("views.fgraph".into(), views.as_bytes().to_vec()));
        sources.push(("bad.fgraph".into(), b"graph \"g {\n}\n".to_vec()));
        // `--policy store`: a boundary with `via` (the sibling edge r → c breaks rule 2).
        let sibling = "graph s {\n  input x: [4, 8]\n  op a = elementwise.relu(x) -> t\n  op r = reduction.max(t, axis = -1) -> s: [4, 1]\n  op c = elementwise.sub(t, s) -> y\n}\n";
        sources.push(("sibling.fgraph".into(), sibling.as_bytes().to_vec()));
        let mut analysed = 0;
        let presets = [Hardware::preset("h100"), Hardware::preset("a100")];
        for (name, bytes) in &sources {
            for (flash_attention, policy, reduction_epilogue) in [
                (false, Policy::Boundary, false),
                (true, Policy::Boundary, false),
                (false, Policy::Store, true),
            ] {
                let opts = Options {
                    fusion: crate::fusion::FusionOptions {
                        flash_attention,
                        policy,
                        reduction_epilogue,
                        ..crate::fusion::FusionOptions::default()
                    },
                    ..Options::default()
                };
                let report = check_file(name, bytes, &opts);
                let diags: Vec<_> = report
                    .diagnostics
                    .iter()
                    .map(|d| render::json(d, &report.source))
                    .collect();
                same(&AnalysisJson::new(name, None, diags.clone()), name);
                for g in &report.graphs {
                    same(
                        &AnalysisJson::unchecked(&g.name, &g.written_ops, diags.clone()),
                        name,
                    );
                    let Some(a) = &g.analysis else { continue };
                    same(&AnalysisJson::new(&g.name, Some(a), diags.clone()), name);
                    let mut with_ledger = AnalysisJson::new(&g.name, Some(a), diags.clone());
                    with_ledger.ledger =
                        Some(LedgerJson::new(&a.graph, &crate::report::ledger::ledger(a)));
                    same(&with_ledger, name);
                    // Names that need escaping.
                    same(
                        &AnalysisJson::new("\t\u{1}\"\\é\u{7f}", Some(a), diags.clone()),
                        name,
                    );
                    analysed += 1;
                    for hw in presets.iter().flatten() {
                        for launch in [LaunchMode::Graph, LaunchMode::Eager] {
                            let c = cost::estimate(a, hw, launch).expect("cost");
                            let att = cost::attention(a, hw, launch).expect("attention");
                            let plain = AnalysisJson::new(&g.name, Some(a), diags.clone());
                            let (mut before, mut after) = (Vec::new(), Vec::new());
                            plain.write_json_head(&mut before).expect("writes");
                            let json = plain.with_cost(a, &c, &att);
                            same(&json, name);
                            // The CLI writes the head before the cost model is done.
                            json.write_json_head(&mut after).expect("writes");
                            assert!(before == after, "{name}: head with and without cost");
                        }
                    }
                }
            }
        }
        assert!(analysed > 10, "analysed: {analysed}");
    }
}
