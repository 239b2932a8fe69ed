//! Sharing the values many tensors and ops of a graph hold alike: shapes, integer attribute
//! lists and the extras (scalar constants, float and list attributes). A model written with
//! `repeat` has a few dozen distinct ones however many layers it has, so each tensor and op
//! holds a shared handle ([`Shape`], [`IntAttrs`], `Arc<OpExtra>`) instead of its own
//! allocation. At most [`MAX_SHARED`] distinct values of each sort are remembered: past
//! that (a graph whose values are all different), a value is kept unshared, so the tables
//! stay small whatever the input.

use super::FastSet;
use crate::graph::{AttrValue, CompactString, IntAttrs, OpExtra, Shape};
use hashbrown::DefaultHashBuilder;
use hashbrown::HashTable;
use std::hash::{BuildHasher, Hash, Hasher};
use std::sync::Arc;

/// Distinct values remembered of each sort.
const MAX_SHARED: usize = 1 << 16;

#[derive(Default)]
pub(super) struct Interner {
    shapes: FastSet<Shape>,
    attrs: FastSet<IntAttrs>,
    extras: HashTable<Arc<OpExtra>>,
    hasher: DefaultHashBuilder,
}

impl Interner {
    pub(super) fn shape(&mut self, dims: Vec<u64>) -> Shape {
        if let Some(s) = self.shapes.get(dims.as_slice()) {
            return s.clone();
        }
        let s = Shape::from(dims);
        if self.shapes.len() < MAX_SHARED {
            self.shapes.insert(s.clone());
        }
        s
    }

    pub(super) fn attrs(&mut self, attrs: Vec<(CompactString, i64)>) -> IntAttrs {
        if let Some(a) = self.attrs.get(attrs.as_slice()) {
            return a.clone();
        }
        let a: IntAttrs = attrs.into();
        if self.attrs.len() < MAX_SHARED {
            self.attrs.insert(a.clone());
        }
        a
    }

    pub(super) fn extra(&mut self, extra: OpExtra) -> Arc<OpExtra> {
        let hash_of = |h: &DefaultHashBuilder, e: &OpExtra| {
            let mut s = h.build_hasher();
            e.scalars.hash(&mut s);
            for (name, v) in &e.attrs {
                name.hash(&mut s);
                match v {
                    AttrValue::Float { value, text } => (0u8, value.to_bits(), text).hash(&mut s),
                    AttrValue::List(l) => (1u8, l).hash(&mut s),
                    AttrValue::Name(n) => (2u8, n).hash(&mut s),
                }
            }
            s.finish()
        };
        let hash = hash_of(&self.hasher, &extra);
        if let Some(e) = self.extras.find(hash, |e| identical(e, &extra)) {
            return e.clone();
        }
        let e = Arc::new(extra);
        if self.extras.len() < MAX_SHARED {
            let h = &self.hasher;
            self.extras
                .insert_unique(hash, e.clone(), |e| hash_of(h, e));
        }
        e
    }
}

/// The same extras, floats compared bit for bit (sharing must not merge `0.0` and `-0.0`).
fn identical(a: &OpExtra, b: &OpExtra) -> bool {
    a.scalars == b.scalars
        && a.attrs.len() == b.attrs.len()
        && a.attrs.iter().zip(&b.attrs).all(|((m, v), (n, w))| {
            m == n
                && match (v, w) {
                    (
                        AttrValue::Float { value: x, text: s },
                        AttrValue::Float { value: y, text: t },
                    ) => x.to_bits() == y.to_bits() && s == t,
                    (AttrValue::List(x), AttrValue::List(y)) => x == y,
                    (AttrValue::Name(x), AttrValue::Name(y)) => x == y,
                    _ => false,
                }
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_values_are_shared_and_different_ones_are_not() {
        let mut i = Interner::default();
        let (a, b, c) = (
            i.shape(vec![2, 3]),
            i.shape(vec![2, 3]),
            i.shape(vec![3, 2]),
        );
        assert!(std::ptr::eq(a.as_slice(), b.as_slice()));
        assert_eq!(a, [2, 3]);
        assert_ne!(a, c);
        let x = i.attrs(vec![("axis".into(), -1)]);
        let y = i.attrs(vec![("axis".into(), -1)]);
        let z = i.attrs(vec![("axis".into(), 1)]);
        assert!(Arc::ptr_eq(&x, &y) && !Arc::ptr_eq(&x, &z));
        let float = |v: f64, t: &str| OpExtra {
            scalars: vec![(1, "0.5".into())],
            attrs: vec![(
                "eps".into(),
                AttrValue::Float {
                    value: v,
                    text: t.into(),
                },
            )],
        };
        let (e, f) = (i.extra(float(1e-5, "1e-5")), i.extra(float(1e-5, "1e-5")));
        assert!(Arc::ptr_eq(&e, &f));
        let g = i.extra(float(1e-5, "0.00001"));
        assert!(!Arc::ptr_eq(&e, &g));
        let (p, n) = (i.extra(float(0.0, "0")), i.extra(float(-0.0, "0")));
        assert!(!Arc::ptr_eq(&p, &n));
    }

    #[test]
    fn past_the_limit_values_are_kept_unshared() {
        let mut i = Interner::default();
        for d in 0..MAX_SHARED as u64 + 10 {
            i.shape(vec![d + 1]);
        }
        assert_eq!(i.shapes.len(), MAX_SHARED);
        let s = i.shape(vec![MAX_SHARED as u64 + 5]);
        assert_eq!(s, [MAX_SHARED as u64 + 5]);
    }
}
