//! The data-movement operators of the ONNX mapping (`super::ops`): `Reshape`, `Flatten`,
//! `Squeeze` and `Unsqueeze` as `reshape` (or nothing, when the shape stays), `Transpose` as
//! `permute`, `Slice` as one `slice` per cut axis, `Split` as one `slice` per output,
//! `Concat`, `Gather` (a constant index as a `slice` and a `reshape`) and `Expand`.

use super::model::{Arg, Attr, Num};
use super::ops::{Done, Mapper};
use super::shapes;
use super::sym::Poly;

impl Mapper<'_, '_> {
    pub(super) fn reshape(&mut self, ins: &[Option<usize>], op: &str) -> Done {
        let x = ins[0].ok_or(None)?;
        let sx = self.shape(x);
        let second = ins.get(1).copied().flatten();
        let shape = match op {
            "Reshape" => {
                let v = second
                    .and_then(|id| self.imp.vals[id].consts().map(<[Num]>::to_vec))
                    .ok_or(Some("a target shape computed at run time"))?;
                shapes::reshape(&sx, &v, self.ai("allowzero") == Some(1))
            }
            "Flatten" => {
                let a = shapes::axis(self.ai("axis").unwrap_or(1), sx.len() + 1).ok_or(None)?;
                Some(vec![
                    shapes::numel(&sx[..a]).ok_or(None)?,
                    shapes::numel(&sx[a..]).ok_or(None)?,
                ])
            }
            _ => {
                let axes = match self.aints("axes") {
                    Some(a) => Some(a),
                    None => self.const_ints(second)?,
                };
                if op == "Unsqueeze" {
                    shapes::unsqueeze(&sx, &axes.ok_or(None)?)
                } else {
                    shapes::squeeze(&sx, axes.as_deref())
                }
            }
        }
        .ok_or(Some("a shape that cannot be told"))?;
        if shape == sx {
            return self.alias(Some(x));
        }
        let dt = self.dtype(x);
        self.emit("reshape", vec![Arg::T(x)], vec![], dt, shape, false);
        Ok(())
    }

    pub(super) fn transpose(&mut self, x: Option<usize>) -> Done {
        let x = x.ok_or(None)?;
        let sx = self.shape(x);
        let perm = self
            .aints("perm")
            .unwrap_or_else(|| (0..sx.len() as i64).rev().collect());
        if perm.iter().enumerate().all(|(k, &p)| p == k as i64) {
            return self.alias(Some(x));
        }
        let shape: Vec<Poly> = perm
            .iter()
            .map(|&p| sx.get(usize::try_from(p).ok()?).cloned())
            .collect::<Option<_>>()
            .ok_or(None)?;
        let dt = self.dtype(x);
        self.emit(
            "permute",
            vec![Arg::T(x)],
            vec![("dims", Attr::Is(perm))],
            dt,
            shape,
            false,
        );
        Ok(())
    }

    pub(super) fn slice(&mut self, ins: &[Option<usize>]) -> Done {
        let x = ins[0].ok_or(None)?;
        let get = |k: usize| ins.get(k).copied().flatten();
        let starts = self.const_ints(get(1))?.ok_or(None)?;
        let ends = self.const_ints(get(2))?.ok_or(None)?;
        let sx = self.shape(x);
        let axes = self
            .const_ints(get(3))?
            .unwrap_or_else(|| (0..starts.len() as i64).collect());
        let steps = self
            .const_ints(get(4))?
            .unwrap_or_else(|| vec![1; starts.len()]);
        let mut cur = x;
        let mut shape = sx.clone();
        let mut cuts = Vec::new();
        for (k, &start) in starts.iter().enumerate() {
            let a = shapes::axis(*axes.get(k).ok_or(None)?, sx.len()).ok_or(None)?;
            let step = *steps.get(k).ok_or(None)?;
            let (s, e, step) = shapes::slice_bounds(&sx[a], start, *ends.get(k).ok_or(None)?, step)
                .ok_or(Some("a negative step or bounds that cannot be told"))?;
            if s.as_const() == Some(0) && e == sx[a] && step == 1 {
                continue;
            }
            let len = shapes::slice_len(&s, &e, step).ok_or(None)?;
            if len.as_const() == Some(0) {
                return Err(Some("an empty slice"));
            }
            shape[a] = len;
            cuts.push((a, s, e, step, shape.clone()));
        }
        if cuts.is_empty() {
            return self.alias(Some(x));
        }
        let n = cuts.len();
        let dt = self.dtype(x);
        for (j, (a, s, e, step, sh)) in cuts.into_iter().enumerate() {
            let mut attrs = vec![
                ("axis", Attr::I(a as i64)),
                ("start", Attr::P(s)),
                ("end", Attr::P(e)),
            ];
            if step != 1 {
                attrs.push(("step", Attr::I(step)));
            }
            cur = if j + 1 == n {
                self.emit("slice", vec![Arg::T(cur)], attrs, dt, sh, false)
            } else {
                self.emit_tmp(&format!("s{j}"), "slice", vec![Arg::T(cur)], attrs, dt, sh)
            };
        }
        Ok(())
    }

    pub(super) fn split(&mut self, ins: &[Option<usize>]) -> Done {
        let x = ins[0].ok_or(None)?;
        let sx = self.shape(x);
        let a = shapes::axis(self.ai("axis").unwrap_or(0), sx.len()).ok_or(None)?;
        let dim = sx[a].as_const().ok_or(Some("a split of a dynamic size"))?;
        let n = self.node.output.len() as i64;
        let sizes = match self.const_ints(ins.get(1).copied().flatten())? {
            Some(s) => s,
            None => match self.aints("split") {
                Some(s) => s,
                None => {
                    let part = dim.checked_add(n - 1).ok_or(None)? / n;
                    (0..n)
                        .map(|k| part.min(dim.saturating_sub(k.saturating_mul(part))))
                        .collect()
                }
            },
        };
        if sizes.len() as i64 != n
            || sizes.iter().try_fold(0i64, |a, &s| a.checked_add(s)) != Some(dim)
            || sizes.iter().any(|&s| s <= 0)
        {
            return Err(Some("split sizes that do not add up"));
        }
        let dt = self.dtype(x);
        let mut start = 0;
        for (k, &s) in sizes.iter().enumerate() {
            let mut sh = sx.clone();
            sh[a] = Poly::constant(s);
            let attrs = vec![
                ("axis", Attr::I(a as i64)),
                ("start", Attr::I(start)),
                ("end", Attr::I(start + s)),
            ];
            self.emit_k(k, "slice", vec![Arg::T(x)], attrs, dt, sh, false);
            start += s;
        }
        Ok(())
    }

    pub(super) fn concat(&mut self, ins: &[Option<usize>]) -> Done {
        let ids: Vec<usize> = ins.iter().copied().flatten().collect();
        if ids.len() == 1 {
            return self.alias(Some(ids[0]));
        }
        let first = self.shape(*ids.first().ok_or(None)?);
        let a = shapes::axis(self.ai("axis").ok_or(None)?, first.len()).ok_or(None)?;
        let mut total = Poly::constant(0);
        for &id in &ids {
            total = total.add(self.shape(id).get(a).ok_or(None)?).ok_or(None)?;
        }
        let mut shape = first;
        shape[a] = total;
        let dt = self.dtype(ids[0]);
        let args = ids.iter().map(|&id| Arg::T(id)).collect();
        self.emit(
            "concat",
            args,
            vec![("axis", Attr::I(a as i64))],
            dt,
            shape,
            false,
        );
        Ok(())
    }

    pub(super) fn gather(&mut self, ins: &[Option<usize>]) -> Done {
        let (t, ids) = (
            ins[0].ok_or(None)?,
            ins.get(1).copied().flatten().ok_or(None)?,
        );
        let st = self.shape(t);
        let a = shapes::axis(self.ai("axis").unwrap_or(0), st.len()).ok_or(None)?;
        let dt = self.dtype(t);
        // One constant index: a slice of that axis, then the axis dropped.
        if let Some(Num::I(p)) = self.imp.vals[ids].scalar().cloned()
            && self.imp.vals[ids].rank() == Some(0)
        {
            let k = p.as_const().ok_or(None)?;
            let k = if k < 0 {
                k + st[a]
                    .as_const()
                    .ok_or(Some("an index from the end of a dynamic size"))?
            } else {
                k
            };
            let mut sh = st.clone();
            sh[a] = Poly::constant(1);
            let attrs = vec![
                ("axis", Attr::I(a as i64)),
                ("start", Attr::I(k)),
                ("end", Attr::I(k.checked_add(1).ok_or(None)?)),
            ];
            let s = self.emit_tmp("row", "slice", vec![Arg::T(t)], attrs, dt, sh);
            let mut out = st.clone();
            out.remove(a);
            self.emit("reshape", vec![Arg::T(s)], vec![], dt, out, false);
            return Ok(());
        }
        let si = self.shape(ids);
        let mut shape = st[..a].to_vec();
        shape.extend(si);
        shape.extend_from_slice(&st[a + 1..]);
        let mut attrs = vec![];
        if a != 0 {
            attrs.push(("axis", Attr::I(a as i64)));
        }
        self.emit(
            "gather",
            vec![Arg::T(t), Arg::T(ids)],
            attrs,
            dt,
            shape,
            false,
        );
        Ok(())
    }

    pub(super) fn expand(&mut self, ins: &[Option<usize>]) -> Done {
        let x = ins[0].ok_or(None)?;
        let v = ins
            .get(1)
            .copied()
            .flatten()
            .and_then(|id| self.imp.vals[id].consts().map(<[Num]>::to_vec))
            .ok_or(Some("a target shape computed at run time"))?;
        let target: Vec<Poly> = v
            .iter()
            .map(|n| match n {
                Num::I(p) => Some(p.clone()),
                Num::F(_) => None,
            })
            .collect::<Option<_>>()
            .ok_or(None)?;
        let sx = self.shape(x);
        let shape =
            shapes::broadcast(&[&sx, &target]).ok_or(Some("shapes that do not broadcast"))?;
        if shape == sx {
            return self.alias(Some(x));
        }
        let dt = self.dtype(x);
        self.emit("expand", vec![Arg::T(x)], vec![], dt, shape, false);
        Ok(())
    }
}
