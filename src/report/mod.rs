//! The analysis report of one graph: its parts as data, one file each (the per-block
//! [`summary`], the [`compare`] table of strategies, the tensor [`ledger`], the one-op focus
//! of [`explain_op`], the what-if [`hints`] under each boundary), and its renderers in
//! [`render`].

pub mod compare;
pub mod explain_op;
pub mod ledger;
pub mod render;
pub mod summary;
pub mod whatif;

pub use whatif::{hints, hints_upto};

use crate::cost::KernelCost;

/// Whether two kernels have the same estimate, every figure bit for bit: renderers format
/// each distinct estimate once.
pub fn same_estimate(a: &KernelCost, b: &KernelCost) -> bool {
    a.flops == b.flops
        && a.bytes == b.bytes
        && a.intensity.map(f64::to_bits) == b.intensity.map(f64::to_bits)
        && a.ridge_point.to_bits() == b.ridge_point.to_bits()
        && a.bound == b.bound
        && a.compute_s.to_bits() == b.compute_s.to_bits()
        && a.memory_s.to_bits() == b.memory_s.to_bits()
        && a.launch_s.to_bits() == b.launch_s.to_bits()
        && a.time_s.to_bits() == b.time_s.to_bits()
}
