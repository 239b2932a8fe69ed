//! The PyTorch of the later op families: the scans (`selective_scan`, `associative_scan`)
//! and the low-precision GEMMs (`scaled_mm`, `quant_mm`) of issue 23, and the collectives of
//! issue 25 (`_collective`: torch.distributed when a process group is up, else a
//! single-process stand-in of the right shape). PyTorch has no
//! single call for a selective scan, a linear recurrence or a packed int4 GEMM, so these call
//! the module's helpers (`_selective_scan`, `_linear_scan`, `_dequant` in `HELPERS`), each
//! with a note saying what runs instead of the fused kernel fgraph prices.

use super::args::dim_text;
use super::dtypes::torch_name;
use super::{Emitter, Stmt};
use crate::emit::EmitError;
use crate::graph::OpNode;
use crate::types::Dtype;

impl Emitter<'_> {
    /// `selective_scan(u, delta, A, B, C[, D[, z[, delta_bias]]])`: mamba_ssm's
    /// `selective_scan_fn` where it is installed, its reference loop otherwise.
    pub(super) fn selective_scan(
        &mut self,
        op: &OpNode,
        notes: &mut Vec<String>,
    ) -> Result<Stmt, EmitError> {
        let mut args = Vec::with_capacity(op.inputs.len());
        for k in 0..op.inputs.len() {
            args.push(self.input(op, k)?.expr);
        }
        let u = self.input(op, 0)?;
        let softplus = if op.int_attr("delta_softplus") == Some(1) {
            "True"
        } else {
            "False"
        };
        notes.push(
            "one kernel where mamba_ssm is installed (selective_scan_fn); otherwise its reference, \
             a Python loop over the sequence (many kernels; approximate in time, not in values)"
                .into(),
        );
        Ok(Stmt::call(
            format!("_selective_scan({}, softplus={softplus})", args.join(", ")),
            u.dtype,
        ))
    }

    /// `associative_scan.F(x, axis)`: `torch.cumsum`, `cumprod`, `cummax`, `cummin`, and the
    /// linear recurrence by a loop; another combine is a placeholder.
    pub(super) fn associative_scan(
        &mut self,
        op: &OpNode,
        notes: &mut Vec<String>,
    ) -> Result<Stmt, EmitError> {
        let x = self.input(op, 0)?;
        let dim = dim_text(op, -1);
        let call = match op.func.as_deref() {
            Some("add") => format!("torch.cumsum({}, dim={dim})", x.expr),
            Some("mul") => format!("torch.cumprod({}, dim={dim})", x.expr),
            Some("max") => format!("torch.cummax({}, dim={dim}).values", x.expr),
            Some("min") => format!("torch.cummin({}, dim={dim}).values", x.expr),
            Some("linear") => {
                let b = self.input(op, 1)?;
                notes.push(
                    "the linear recurrence h = a·h + b as a Python loop (torch.compile's \
                     associative_scan is the one-kernel form fgraph prices)"
                        .into(),
                );
                format!("_linear_scan({}, {}, {dim})", x.expr, b.expr)
            }
            _ => return self.opaque(op, notes),
        };
        Ok(Stmt::call(call, x.dtype))
    }

    /// `scaled_mm(a, b, scale_a, scale_b[, bias])`: `torch._scaled_mm` for fp8 operands (b
    /// made column-major, as cuBLASLt takes it); `torch._int_mm` and the scales for int8.
    pub(super) fn scaled_mm(
        &mut self,
        op: &OpNode,
        notes: &mut Vec<String>,
    ) -> Result<Stmt, EmitError> {
        let a = self.input(op, 0)?;
        let b = self.input(op, 1)?;
        let sa = self.input(op, 2)?;
        let sb = self.input(op, 3)?;
        let bias = op.inputs.get(4).map(|u| self.arg(u).expr);
        let out = self.g.tensor(op.output).dtype;
        if a.dtype == Dtype::I8 {
            notes.push(
                "int8: torch._int_mm, then the scales (and bias) as separate ops (+2 kernels)"
                    .into(),
            );
            let rows = self
                .g
                .use_shape(&op.inputs[0])
                .first()
                .copied()
                .unwrap_or(0);
            let product = int_mm(&a.expr, &b.expr, rows, notes);
            let mut expr = format!("({product}.float() * {} * {}", sa.expr, sb.expr);
            if let Some(bias) = bias {
                expr.push_str(&format!(" + {bias}"));
            }
            expr.push_str(&format!(").to({})", torch_name(out)));
            return Ok(Stmt::call(expr, out));
        }
        let bias = bias.map_or(String::new(), |b| format!(", bias={b}"));
        Ok(Stmt::call(
            format!(
                "torch._scaled_mm({}, {}.t().contiguous().t(), scale_a={}, scale_b={}{bias}, \
                 out_dtype={})",
                a.expr,
                b.expr,
                sa.expr,
                sb.expr,
                torch_name(out)
            ),
            out,
        ))
    }

    /// `quant_mm(x, w, scales[, zeros], bits, group_size)`: the packed weights dequantised by
    /// PyTorch ops, then a 16-bit matmul (PyTorch's fused int4 kernel,
    /// `torch._weight_int4pack_mm`, takes its own packing).
    pub(super) fn quant_mm(
        &mut self,
        op: &OpNode,
        notes: &mut Vec<String>,
    ) -> Result<Stmt, EmitError> {
        let x = self.input(op, 0)?;
        let w = self.input(op, 1)?;
        let scales = self.input(op, 2)?;
        let zeros = op
            .inputs
            .get(3)
            .map_or("None".to_string(), |u| self.arg(u).expr);
        let k = x.shape.last().copied().unwrap_or(1);
        let bits = op.int_attr("bits").unwrap_or(4);
        let rows = scales.shape.first().copied().unwrap_or(1).max(1);
        let group = op
            .int_attr("group_size")
            .map_or(k.div_ceil(rows), |g| g.max(1) as u64);
        notes.push(format!(
            "w{bits}a16: the weights dequantised by PyTorch ops, then a {} matmul (+3 kernels; \
             fgraph prices one fused weight-only GEMM)",
            torch_name(x.dtype)
        ));
        Ok(Stmt::call(
            format!(
                "torch.matmul({}, _dequant({}, {}, {zeros}, {bits}, {group}, {k}))",
                x.expr, w.expr, scales.expr
            ),
            x.dtype,
        ))
    }

    /// A collective: the module's `_collective` (torch.distributed's call when a process
    /// group is initialised; in one process, a stand-in with the output's shape).
    pub(super) fn collective(
        &mut self,
        op: &OpNode,
        notes: &mut Vec<String>,
    ) -> Result<Stmt, EmitError> {
        let out = self.g.tensor(op.output);
        let x = match op.inputs.first() {
            Some(u) => self.arg(u).expr,
            None => "None".to_string(),
        };
        let size = op.int_attr("size").unwrap_or(1);
        let axis = op.int_attr("axis").unwrap_or(0);
        notes.push(format!(
            "{}: torch.distributed when a process group is initialised (launch with torchrun); \
             in one process a stand-in of the output's shape, no communication",
            op.kind
        ));
        Ok(Stmt::call(
            format!(
                "_collective(\"{}\", {x}, {size}, {axis}, {}, {})",
                op.kind,
                super::py_shape(&out.shape),
                torch_name(out.dtype)
            ),
            out.dtype,
        ))
    }
}

/// `torch._int_mm(a, b)` of an `[rows, K]` int8 matrix: cuBLASLt's int8 GEMM behind it
/// refused every row count but a multiple of 32 on an H200 (16: "self.size(0) needs to be
/// greater than 16"; 17, 24, 33, 40, 48, 100: CUBLAS_STATUS_NOT_SUPPORTED; 32, 64, 128 ran):
/// other counts are padded with zero rows and the product sliced back (one pad kernel more,
/// noted).
pub(super) fn int_mm(a: &str, b: &str, rows: u64, notes: &mut Vec<String>) -> String {
    let padded = rows.div_ceil(32).max(1).saturating_mul(32);
    if padded == rows {
        return format!("torch._int_mm({a}, {b})");
    }
    notes.push(format!(
        "torch._int_mm takes rows by 32: the {rows} rows padded to {padded} and the product \
         sliced back (+1 kernel)"
    ));
    format!(
        "torch._int_mm(torch.nn.functional.pad({a}, (0, 0, 0, {})), {b})[:{rows}]",
        padded - rows
    )
}
