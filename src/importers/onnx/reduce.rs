//! The normalisations and reductions of the ONNX mapping (`super::ops`):
//! `InstanceNormalization` and `GroupNormalization` as `reduction.group_norm`, `Clip` as a
//! `max` and a `min`, `BatchNormalization` as `elementwise.batchnorm`, `LayerNormalization`
//! and the RMS norms, `Softmax` and `LogSoftmax`, the `Reduce*` operators, `ArgMax` and
//! `ArgMin`, and `CumSum`.

use super::model::{self, Arg, Attr};
use super::ops::{Done, Mapper};
use super::shapes;
use super::sym::Poly;

impl Mapper<'_, '_> {
    /// `InstanceNormalization` (one group per channel) and `GroupNormalization` (scale and
    /// bias per channel, as from opset 21) as `reduction.group_norm`.
    pub(super) fn group_norm(&mut self, ins: &[Option<usize>], op: &str) -> Done {
        let ids: Vec<usize> = ins
            .iter()
            .take(3)
            .copied()
            .collect::<Option<_>>()
            .ok_or(None)?;
        let [x, scale, bias] = ids[..] else {
            return Err(None);
        };
        let sx = self.shape(x);
        let c = sx
            .get(1)
            .and_then(Poly::as_const)
            .ok_or(Some("a channel count that is not a number"))?;
        let groups = match op {
            "InstanceNormalization" => c,
            _ => self.ai("num_groups").ok_or(None)?,
        };
        for id in [scale, bias] {
            if self.shape(id) != [Poly::constant(c)] {
                return Err(Some(
                    "a scale or bias per group, not per channel (opset 18)",
                ));
            }
        }
        let eps = model::attr_f(self.node, "epsilon").unwrap_or(1e-5);
        let eps = model::float_literal(f64::from(eps), true).ok_or(None)?;
        let dt = self.dtype(x);
        let args = vec![Arg::T(x), Arg::T(scale), Arg::T(bias)];
        let attrs = vec![("groups", Attr::I(groups)), ("eps", Attr::F(eps))];
        self.emit("reduction.group_norm", args, attrs, dt, sx, false);
        Ok(())
    }

    /// `Clip` with constant bounds: a `max` with the lower, a `min` with the upper.
    pub(super) fn clip(&mut self, ins: &[Option<usize>]) -> Done {
        let x = ins[0].ok_or(None)?;
        let bound = |m: &Self, k: usize, attr: &str| -> Result<Option<Arg>, Option<&'static str>> {
            if let Some(id) = ins.get(k).copied().flatten() {
                return match m.operand(id) {
                    Arg::Lit(l) => Ok(Some(Arg::Lit(l))),
                    _ => Err(Some("bounds that are not constants")),
                };
            }
            Ok(model::attr_f(m.node, attr)
                .and_then(|f| model::float_literal(f64::from(f), true))
                .map(Arg::Lit))
        };
        let (lo, hi) = (bound(self, 1, "min")?, bound(self, 2, "max")?);
        let sx = self.shape(x);
        let dt = self.dtype(x);
        match (lo, hi) {
            (None, None) => self.alias(Some(x)),
            (Some(b), None) | (None, Some(b)) => {
                let f = if ins.get(1).copied().flatten().is_some()
                    || model::attr_f(self.node, "min").is_some()
                {
                    "max"
                } else {
                    "min"
                };
                self.emit(
                    &format!("elementwise.{f}"),
                    vec![Arg::T(x), b],
                    vec![],
                    dt,
                    sx,
                    false,
                );
                Ok(())
            }
            (Some(lo), Some(hi)) => {
                let y = self.emit_tmp(
                    "lo",
                    "elementwise.max",
                    vec![Arg::T(x), lo],
                    vec![],
                    dt,
                    sx.clone(),
                );
                self.emit(
                    "elementwise.min",
                    vec![Arg::T(y), hi],
                    vec![],
                    dt,
                    sx,
                    false,
                );
                Ok(())
            }
        }
    }

    pub(super) fn batchnorm(&mut self, ins: &[Option<usize>]) -> Done {
        let ids: Vec<usize> = ins
            .iter()
            .take(5)
            .copied()
            .collect::<Option<_>>()
            .ok_or(None)?;
        let [x, scale, bias, mean, var] = ids[..] else {
            return Err(None);
        };
        let sx = self.shape(x);
        let nsp = sx.len().checked_sub(2).ok_or(None)?;
        let mut args = vec![Arg::T(x)];
        for id in [mean, var, scale, bias] {
            args.push(Arg::T(self.channel(id, nsp)?));
        }
        let eps = model::attr_f(self.node, "epsilon").unwrap_or(1e-5);
        let eps = model::float_literal(f64::from(eps), true).ok_or(None)?;
        let dt = self.dtype(x);
        self.emit(
            "elementwise.batchnorm",
            args,
            vec![("eps", Attr::F(eps))],
            dt,
            sx,
            false,
        );
        Ok(())
    }

    pub(super) fn norm(&mut self, ins: &[Option<usize>], f: &str) -> Done {
        let x = ins[0].ok_or(None)?;
        let sx = self.shape(x);
        let a = shapes::axis(self.ai("axis").unwrap_or(-1), sx.len()).ok_or(None)?;
        let mut args = vec![Arg::T(x)];
        for id in ins.iter().skip(1).flatten() {
            args.push(Arg::T(*id));
        }
        let r = sx.len() as i64;
        let axis = if a + 1 == sx.len() {
            Attr::I(-1)
        } else {
            Attr::Is((a as i64 - r..0).collect())
        };
        let eps = model::attr_f(self.node, "epsilon").unwrap_or(1e-5);
        let eps = model::float_literal(f64::from(eps), true).ok_or(None)?;
        let dt = self.dtype(x);
        self.emit(
            &format!("reduction.{f}"),
            args,
            vec![("axis", axis), ("eps", Attr::F(eps))],
            dt,
            sx,
            false,
        );
        Ok(())
    }

    pub(super) fn softmax(&mut self, x: Option<usize>, log: bool) -> Done {
        let x = x.ok_or(None)?;
        let sx = self.shape(x);
        // Before opset 13, the default axis is 1 and the softmax runs over every axis from
        // it on (the input flattened to 2-D): one axis only when it is the last.
        let old = self.imp.opset < 13;
        let a = self.ai("axis").unwrap_or(if old { 1 } else { -1 });
        let a = shapes::axis(a, sx.len()).ok_or(None)?;
        if old && a + 1 != sx.len() {
            return Err(Some("a softmax of opset 12 or older over several axes"));
        }
        let axis = if a + 1 == sx.len() { -1 } else { a as i64 };
        let f = if log { "log_softmax" } else { "softmax" };
        let dt = self.dtype(x);
        self.emit(
            &format!("reduction.{f}"),
            vec![Arg::T(x)],
            vec![("axis", Attr::I(axis))],
            dt,
            sx,
            false,
        );
        Ok(())
    }

    pub(super) fn reduce(&mut self, ins: &[Option<usize>], f: &str) -> Done {
        let x = ins[0].ok_or(None)?;
        let sx = self.shape(x);
        let axes = match self.aints("axes") {
            Some(a) => Some(a),
            None => self.const_ints(ins.get(1).copied().flatten())?,
        };
        let keep = self.ai("keepdims").unwrap_or(1) != 0;
        let axes: Vec<usize> = match axes {
            Some(a) if !a.is_empty() => a
                .iter()
                .map(|&a| shapes::axis(a, sx.len()))
                .collect::<Option<_>>()
                .ok_or(None)?,
            _ if self.ai("noop_with_empty_axes") == Some(1) => return self.alias(Some(x)),
            _ => (0..sx.len()).collect(),
        };
        let shape: Vec<Poly> = sx
            .iter()
            .enumerate()
            .filter_map(|(k, d)| match (axes.contains(&k), keep) {
                (false, _) => Some(d.clone()),
                (true, true) => Some(Poly::constant(1)),
                (true, false) => None,
            })
            .collect();
        let list: Vec<i64> = axes.iter().map(|&a| a as i64).collect();
        let dt = self.dtype(x);
        self.emit(
            &format!("reduction.{f}"),
            vec![Arg::T(x)],
            vec![("axis", Attr::Is(list)), ("keepdim", Attr::B(keep))],
            dt,
            shape,
            false,
        );
        Ok(())
    }

    pub(super) fn argmax(&mut self, x: Option<usize>, max: bool) -> Done {
        let x = x.ok_or(None)?;
        let sx = self.shape(x);
        let a = shapes::axis(self.ai("axis").unwrap_or(0), sx.len()).ok_or(None)?;
        let keep = self.ai("keepdims").unwrap_or(1) != 0;
        let mut shape = sx.clone();
        if keep {
            shape[a] = Poly::constant(1);
        } else {
            shape.remove(a);
        }
        let f = if max { "argmax" } else { "argmin" };
        self.emit(
            &format!("reduction.{f}"),
            vec![Arg::T(x)],
            vec![("axis", Attr::I(a as i64)), ("keepdim", Attr::B(keep))],
            7,
            shape,
            true,
        );
        Ok(())
    }

    pub(super) fn cumsum(&mut self, ins: &[Option<usize>]) -> Done {
        let x = ins[0].ok_or(None)?;
        let a = self
            .const_ints(ins.get(1).copied().flatten())?
            .and_then(|v| v.first().copied())
            .ok_or(None)?;
        if self.ai("exclusive") == Some(1) || self.ai("reverse") == Some(1) {
            return Err(Some("an exclusive or reverse cumulative sum"));
        }
        let sx = self.shape(x);
        let dt = self.dtype(x);
        self.emit(
            "cumsum",
            vec![Arg::T(x)],
            vec![("axis", Attr::I(a))],
            dt,
            sx,
            false,
        );
        Ok(())
    }
}
