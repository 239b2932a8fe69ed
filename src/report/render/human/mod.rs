//! The report as text for people: what the human and GitHub formats print after the
//! diagnostics, one file per view: the plan itself ([`report`]), the `--summary`,
//! `--compare` and `--ledger` tables ([`summary`], [`compare`], [`ledger`]) and the op of
//! `--explain OP` ([`explain_op`]).

pub mod compare;
pub mod explain_op;
pub mod ledger;
pub mod report;
pub mod summary;

pub use report::{human, human_report, human_summary, human_with_cost};
