//! `fgraph transformer`: the built-in 14-op transformer block at the given dimensions,
//! emitted as `.fgraph` source (`--emit`) or analysed and reported like `fgraph analyze`.

use crate::analysis::check_file;
use crate::cli::analyze::render_analysis;
use crate::cli::args::{Common, CostArgs};
use crate::cli::io::{CLEAN, FOUND, Io, Keep, USAGE, Usage, sink};
use crate::cli::settings;
use crate::diagnostics::SourceFile;
use crate::report::Report;
use crate::report::render;
use crate::transformer::{self, BlockDims};
use crate::types::Dtype;

/// `fgraph transformer`'s own arguments.
pub(super) struct BlockArgs {
    pub seq_len: u64,
    pub hidden_dim: u64,
    pub num_heads: u64,
    pub dtype: Dtype,
    pub emit: bool,
}

pub(super) fn transformer_cmd(
    block: BlockArgs,
    common: &Common,
    cost: &CostArgs,
    io: &mut Io<'_>,
    keep: &mut Keep,
) -> Result<u8, Usage> {
    let BlockArgs {
        seq_len,
        hidden_dim,
        num_heads,
        dtype,
        emit,
    } = block;
    // The block has no file to look for an `fgraph.toml` from: only `--config` applies.
    let Some(s) = settings::for_cost(None, common, cost, io)? else {
        return Ok(USAGE);
    };
    let dims = match BlockDims::new(seq_len, hidden_dim, num_heads) {
        Ok(d) => d,
        Err(diags) => {
            let src = SourceFile::new("<transformer>", "");
            let options = settings::report_options(&s.cost);
            let report = Report::unbuilt("transformer_block", &src, &diags, &s.hardware, &options);
            render::render(&report, s.common.format, false, &mut sink(io));
            return Ok(FOUND);
        }
    };
    let source = transformer::emit(dims, dtype);
    if emit {
        let _ = write!(io.out, "{source}");
        return Ok(CLEAN);
    }
    let file = check_file("<transformer>", source.as_bytes(), &s.options);
    let code = render_analysis(&file, file.graphs.first(), &s, io, keep);
    keep.push(Box::new(file));
    code
}
