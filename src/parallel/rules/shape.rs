//! The rules of the ops that reshape or contract a divided tensor: `reshape` (the divided
//! axis must map to one axis of the new shape in equal parts) and `matmul` (column, row,
//! batched heads, stacked experts).

use super::{Fetch, Layout, Refusal, Walk, refuse};
use crate::graph::{OpId, OpNode};
use crate::parallel::{Kind, Plan};

impl Walk<'_> {
    pub(super) fn reshape(&self, op: &OpNode, l: Layout, is: &[u64]) -> Result<Layout, Refusal> {
        let Layout::Split { axis, g } = l else {
            return Err(self.cannot(op, "cannot take it", ""));
        };
        let n = self.size(g);
        let os = &self.g.tensor(op.output).shape;
        let prefix: u128 = is[..axis].iter().map(|&d| d as u128).product();
        let mut p: u128 = 1;
        for (e, &d) in os.iter().enumerate() {
            if p == prefix && d > 1 && d.is_multiple_of(n) {
                return Ok(Layout::Split { axis: e, g });
            }
            p *= d as u128;
            if p > prefix {
                break;
            }
        }
        Err(refuse(
            format!(
                "reshape `{}` would break the sharding: axis {axis} of {} is divided over `{}` ({n} GPUs), and no axis of {} holds exactly those elements in {n} equal parts",
                op.name,
                crate::units::fmt_shape(is),
                self.group(g),
                crate::units::fmt_shape(os)
            ),
            "cannot be divided this way",
            format!(
                "make the divided axis ({}) a multiple of {n} in the reshaped shape too, or change the group's size",
                is[axis]
            ),
        ))
    }

    pub(super) fn matmul(
        &mut self,
        o: OpId,
        op: &OpNode,
        ins: &mut [Layout],
        shapes: &[Vec<u64>],
    ) -> Result<Layout, Refusal> {
        let out_rank = self.g.tensor(op.output).shape.len();
        // A bias of its own (`matmul(x, w, b)`): divided, the product's partial sums would
        // each add it; kept whole, a column-parallel product's columns would not meet it.
        if ins.len() > 2 && ins.iter().any(|l| *l != Layout::Full) {
            return Err(self.cannot(
                op,
                "adds a bias of its own to a divided product",
                "write the bias as an `add` after the matmul, which the plan divides as it \
                 divides the product: `add(matmul(x, w), b)`",
            ));
        }
        let (ra, rb) = (shapes[0].len(), shapes[1].len());
        let expert = |l: Layout, plan: &Plan| match l {
            Layout::Split { axis: 0, g } if plan.groups[g].kind == Kind::Expert => Some(g),
            _ => None,
        };
        // Experts: stacked weights divided on axis 0 meet token rows per expert.
        if let Some(g) = expert(ins[1], self.plan) {
            if ra != rb || ra < 3 {
                return Err(self.cannot(
                    op,
                    "multiplies stacked expert weights by rows that are not per expert",
                    "give the rows the experts' leading axis, `[E, C, H]`",
                ));
            }
            match ins[0] {
                Layout::Full => {
                    self.fetch.insert((o, 0), Fetch::Dispatch(g));
                    return Ok(Layout::Exchanged { g });
                }
                Layout::Exchanged { g: h } if h == g => return Ok(Layout::Exchanged { g }),
                _ => return Err(self.cannot(op, "cannot take it", "")),
            }
        }
        if let Layout::Exchanged { g } = ins[0] {
            if ins[1] == Layout::Full && rb == 2 {
                return Ok(Layout::Exchanged { g });
            }
            self.combine_all(o, ins);
        }
        // Where each argument's divided axis lands: batch axes on the output's, M, K, N.
        #[derive(Clone, Copy, PartialEq)]
        enum At {
            Batch(usize),
            M,
            K,
            N,
        }
        let at = |l: Layout, r: usize, is_a: bool| match l {
            Layout::Split { axis, g } => Some((
                if axis + 1 == r {
                    if is_a { At::K } else { At::N }
                } else if axis + 2 == r {
                    if is_a { At::M } else { At::K }
                } else {
                    At::Batch(axis + out_rank - r)
                },
                g,
            )),
            _ => None,
        };
        let (a, b) = (at(ins[0], ra, true), at(ins[1], rb, false));
        match (a, b) {
            (None, None) => Ok(Layout::Full),
            (Some((At::K, g)), Some((At::K, h))) if g == h => Ok(Layout::Partial { g }),
            (Some((At::K, _)), _) | (_, Some((At::K, _))) => Err(self.cannot(
                op,
                "divides the contraction axis of one operand only",
                "a row-parallel weight takes the output of a column-parallel one: divide the weight before it under `column`, or this one under `column` too",
            )),
            (Some((At::M, g)), None) => Ok(Layout::Split {
                axis: out_rank - 2,
                g,
            }),
            (None, Some((At::N, g))) => Ok(Layout::Split {
                axis: out_rank - 1,
                g,
            }),
            (Some((At::Batch(x), g)), Some((At::Batch(y), h))) if x == y && g == h => {
                Ok(Layout::Split { axis: x, g })
            }
            (Some((At::Batch(x), g)), None) | (None, Some((At::Batch(x), g))) => {
                // The whole operand must broadcast on that batch axis.
                let (s, r) = if a.is_some() {
                    (&shapes[1], rb)
                } else {
                    (&shapes[0], ra)
                };
                let off = out_rank - r;
                if x < off || s[x - off] == 1 {
                    Ok(Layout::Split { axis: x, g })
                } else {
                    Err(self.cannot(
                        op,
                        "meets a whole operand on the divided batch axis",
                        "divide both operands' batch axis (the heads) alike",
                    ))
                }
            }
            _ => Err(self.cannot(
                op,
                "divides both operands on different axes",
                "divide one output axis only",
            )),
        }
    }
}
