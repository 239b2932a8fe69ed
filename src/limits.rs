//! Hard limits on input, each enforced with a `limit-exceeded` diagnostic (docs/language.md).

/// Largest file fgraph reads.
pub const MAX_FILE_BYTES: usize = 256 * 1024 * 1024;
/// Deepest nesting of `(` and `[`.
pub const MAX_NESTING: usize = 64;
/// Longest identifier, in bytes (identifiers are ASCII).
pub const MAX_IDENT_LEN: usize = 256;
/// Highest tensor rank.
pub const MAX_RANK: usize = 16;
