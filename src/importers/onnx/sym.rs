//! Symbolic sizes: a dimension or a shape value of an ONNX graph is an integer polynomial of
//! its named dynamic dimensions (`batch * seq`, `seq + 1`, `64`), kept in one normal form so
//! that equal sizes compare equal. Every operation is checked (an overflow, a division that
//! does not come out even, or a polynomial past [`MAX_TERMS`] terms gives `None`: the size is
//! unknown), and [`Poly::render`] writes it as an `.fgraph` integer expression.

use std::collections::BTreeMap;

/// Most terms of one polynomial; more is unknown.
const MAX_TERMS: usize = 16;
/// Highest degree of one term; more is unknown.
const MAX_DEGREE: usize = 8;

/// `Σ coeff · Π vars`: each term's variables sorted, no zero coefficient.
#[derive(Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, Default)]
pub struct Poly {
    terms: BTreeMap<Vec<u32>, i64>,
}

impl Poly {
    pub fn constant(c: i64) -> Poly {
        let mut terms = BTreeMap::new();
        if c != 0 {
            terms.insert(Vec::new(), c);
        }
        Poly { terms }
    }

    pub fn var(id: u32) -> Poly {
        let mut terms = BTreeMap::new();
        terms.insert(vec![id], 1);
        Poly { terms }
    }

    /// The value, when it is a constant.
    pub fn as_const(&self) -> Option<i64> {
        match self.terms.len() {
            0 => Some(0),
            1 => self.terms.get(&Vec::new()).copied(),
            _ => None,
        }
    }

    /// Its value with variable `v` at `vals[v]`; `None` on overflow or a missing value.
    pub fn eval(&self, vals: &[i64]) -> Option<i64> {
        self.terms.iter().try_fold(0i64, |acc, (m, &c)| {
            let t = m
                .iter()
                .try_fold(c, |t, &v| t.checked_mul(*vals.get(v as usize)?))?;
            acc.checked_add(t)
        })
    }

    /// The variables it uses.
    pub fn vars(&self) -> impl Iterator<Item = u32> + '_ {
        self.terms.keys().flatten().copied()
    }

    fn checked(self) -> Option<Poly> {
        (self.terms.len() <= MAX_TERMS && self.terms.keys().all(|m| m.len() <= MAX_DEGREE))
            .then_some(self)
    }

    fn add_term(&mut self, mono: Vec<u32>, c: i64) -> Option<()> {
        let e = self.terms.entry(mono).or_insert(0);
        *e = e.checked_add(c)?;
        self.terms.retain(|_, c| *c != 0);
        Some(())
    }

    pub fn add(&self, o: &Poly) -> Option<Poly> {
        let mut r = self.clone();
        for (m, &c) in &o.terms {
            r.add_term(m.clone(), c)?;
        }
        r.checked()
    }

    pub fn neg(&self) -> Option<Poly> {
        let mut r = Poly::default();
        for (m, &c) in &self.terms {
            r.terms.insert(m.clone(), c.checked_neg()?);
        }
        Some(r)
    }

    pub fn sub(&self, o: &Poly) -> Option<Poly> {
        self.add(&o.neg()?)
    }

    pub fn mul(&self, o: &Poly) -> Option<Poly> {
        let mut r = Poly::default();
        for (a, &ca) in &self.terms {
            for (b, &cb) in &o.terms {
                let mut m: Vec<u32> = a.iter().chain(b).copied().collect();
                if m.len() > MAX_DEGREE {
                    return None;
                }
                m.sort_unstable();
                r.add_term(m, ca.checked_mul(cb)?)?;
            }
        }
        r.checked()
    }

    /// `self / o` when it comes out even term by term: `o` a single term whose variables
    /// every term of `self` holds and whose coefficient divides theirs.
    pub fn div_exact(&self, o: &Poly) -> Option<Poly> {
        if o.terms.len() != 1 {
            return (self == o).then(|| Poly::constant(1));
        }
        let (om, &oc) = o.terms.iter().next()?;
        let mut r = Poly::default();
        for (m, &c) in &self.terms {
            if c.checked_rem(oc)? != 0 {
                return None;
            }
            let mut rest = m.clone();
            for v in om {
                let i = rest.iter().position(|x| x == v)?;
                rest.remove(i);
            }
            r.add_term(rest, c.checked_div(oc)?)?;
        }
        Some(r)
    }

    /// Floor division: constants, or an exact division.
    pub fn div_floor(&self, o: &Poly) -> Option<Poly> {
        match (self.as_const(), o.as_const()) {
            (Some(a), Some(b)) if b != 0 => {
                let q = a.checked_div(b)?;
                let q = if (a.checked_rem(b)? != 0) && ((a < 0) != (b < 0)) {
                    q - 1
                } else {
                    q
                };
                Some(Poly::constant(q))
            }
            _ => self.div_exact(o),
        }
    }

    /// As an `.fgraph` integer expression, each variable by its name in `names`.
    pub fn render(&self, names: &[String]) -> String {
        if self.terms.is_empty() {
            return "0".into();
        }
        // Highest degree first, the constant last.
        let mut terms: Vec<(&Vec<u32>, i64)> = self.terms.iter().map(|(m, &c)| (m, c)).collect();
        terms.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(a.0.cmp(b.0)));
        let mut s = String::new();
        for (i, (m, c)) in terms.into_iter().enumerate() {
            let mag = c.unsigned_abs();
            if i == 0 {
                if c < 0 {
                    s.push('-');
                }
            } else {
                s.push_str(if c < 0 { " - " } else { " + " });
            }
            let mut parts: Vec<String> = Vec::new();
            if mag != 1 || m.is_empty() {
                parts.push(mag.to_string());
            }
            for v in m {
                parts.push(
                    names
                        .get(*v as usize)
                        .cloned()
                        .unwrap_or_else(|| format!("D{v}")),
                );
            }
            s.push_str(&parts.join(" * "));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_form_and_rendering() {
        let names = vec!["batch".to_string(), "seq".to_string()];
        let b = Poly::var(0);
        let s = Poly::var(1);
        let bs = b.mul(&s).unwrap();
        assert_eq!(bs, s.mul(&b).unwrap());
        let x = bs.mul(&Poly::constant(64)).unwrap();
        assert_eq!(x.render(&names), "64 * batch * seq");
        let per = x.div_exact(&b.mul(&s).unwrap().mul(&Poly::constant(4)).unwrap());
        assert_eq!(per, Some(Poly::constant(16)));
        let s1 = s.add(&Poly::constant(1)).unwrap();
        assert_eq!(s1.render(&names), "seq + 1");
        assert_eq!(s1.sub(&s).unwrap().as_const(), Some(1));
        assert_eq!(
            Poly::constant(-7).div_floor(&Poly::constant(2)),
            Some(Poly::constant(-4))
        );
        assert_eq!(x.div_exact(&Poly::constant(3)), None);
        assert_eq!(Poly::constant(i64::MAX).add(&Poly::constant(1)), None);
    }
}
