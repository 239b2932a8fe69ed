//! The report as JSON: [`schema`] holds the serde types of the object `analyze --format json`
//! prints ([`AnalysisJson`]), with its [`cost`], [`fusion`] and [`ledger`] parts beside it and
//! the `--explain OP` object in [`explain_op`]; [`fast`] writes the same bytes as serde, faster,
//! with the test that holds it to them.

pub mod cost;
pub mod explain_op;
pub mod fast;
pub mod fusion;
pub mod ledger;
pub mod schema;

pub use schema::AnalysisJson;
