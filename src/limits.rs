//! Hard limits on input, each enforced with a `limit-exceeded` diagnostic (docs/language.md).

/// Largest file fgraph reads.
pub const MAX_FILE_BYTES: usize = 256 * 1024 * 1024;
/// Deepest nesting of `(` and `[`.
pub const MAX_NESTING: usize = 64;
/// Longest identifier, in bytes (identifiers are ASCII).
pub const MAX_IDENT_LEN: usize = 256;
/// Highest tensor rank.
pub const MAX_RANK: usize = 16;
/// Most statements in one graph. Keeps op and tensor indices within `u32`.
pub const MAX_STATEMENTS: usize = 1 << 24;
/// Largest value of one dimension (2^48): far above any real tensor, and low enough that
/// FLOP counts such as `2·M·N·K` stay exact in the cost model's arithmetic.
pub const MAX_DIM: u64 = 1 << 48;
/// Most files one file's imports may bring in, transitively.
pub const MAX_IMPORT_FILES: usize = 4096;
/// Most bytes one file's imports may add up to, transitively.
pub const MAX_IMPORT_BYTES: usize = MAX_FILE_BYTES;
/// Most ops one graph may have once its blocks are expanded (2^21): counted from the block
/// tree before anything is expanded, so a million-op model checks and nothing larger is built.
pub const MAX_EXPANDED_OPS: u64 = 1 << 21;
/// Most diagnostics one file reports. Past it the rest are counted in one `limit-exceeded`
/// (a garbage file of a million undefined names would otherwise take gigabytes to report),
/// and an op's undefined arguments stop being recorded once a graph has this many.
pub const MAX_DIAGNOSTICS: usize = 10_000;
