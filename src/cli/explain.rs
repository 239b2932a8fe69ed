//! `fgraph explain CODE`: the full text of a diagnostic code, boundary reason or fused-edge
//! label.

use crate::cli::io::{CLEAN, Io, Usage};

pub(super) fn explain(code: &str, io: &mut Io<'_>) -> Result<u8, Usage> {
    match crate::explain::text(code) {
        Some(t) => {
            let _ = write!(io.out, "{t}");
            Ok(CLEAN)
        }
        None => Err(Usage(format!(
            "unknown code `{code}`; known codes: {}",
            crate::explain::codes().join(", ")
        ))),
    }
}
