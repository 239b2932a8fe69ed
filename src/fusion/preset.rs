//! Compiler presets (`--fuser`): the fusion choices of one compiler's default mode, bundled.
//! Each is an approximation made of the options the other modules define; the table says
//! what it follows.
//!
//! | preset | policy | reduction epilogues | matmul epilogue | horizontal | budgets | follows |
//! |---|---|---|---|---|---|---|
//! | `seed` | boundary | no | elementwise | off | none | SPEC §2 |
//! | `inductor` | inline | yes | addmm | inductor: pointwise, equal sizes, the same elements read, peak memory | 64 ops | `torch/_inductor/graph.py` and `ir.py` (a pointwise value is inlined into every reader unless it loads more than `realize_reads_threshold = 4` tensors, counted through the values it inlines, or an extern kernel reads it), `scheduler.py` (fuses a realized buffer's producer into a reader and still stores it; two independent kernels only when they share reads of the same elements, `codegen/simd.py` accepts their sizes and `can_fusion_increase_peak_memory` does not refuse), `codegen/triton.py` (a whole norm or softmax in one persistent reduction), `fx_passes/post_grad.py` (`mm` + add is `addmm` unless every reader of the sum is pointwise, an add that is itself an `addmm` not counting as one), `config.py` (`max_fusion_size = 64`); checked against `torch.compile` on an H100, `docs/VALIDATION.md` §15 |
//! | `xla` | recompute | no | elementwise | pointwise | 96 tensors (and 64 ops) | `xla/service/instruction_fusion.cc` (duplicates cheap producers into every consumer), `gpu/multi_output_fusion.cc` (sibling fusion), `gpu/gpu_fusible.h` (`kMaxOperandsAndOutputsPerFusion = 96`), `gpu/transforms/gemm_fusion.cc` (elementwise epilogues join a Triton GEMM) |
//! | `tvm` | boundary, with diamonds | no | elementwise | off | 256 ops | `src/relay/transforms/fuse_ops.cc` (a post-dominator-tree fusion of injective ops into `kOutEWiseFusable` ops such as dense, and into reductions: [`super::dominator`]; `max_fuse_depth = 256`) |
//!
//! Where a compiler does something the options cannot express (Inductor decides some fusions
//! by a score of shared bytes rather than in graph order), the preset says so in
//! `docs/language.md` and the validation against real `torch.compile` (`docs/VALIDATION.md`
//! §15) shows where it differs.

use super::{Budgets, FusionOptions, Horizontal, MatmulEpilogue, Policy};
use serde::Serialize;

/// A compiler's default fusion choices (`--fuser`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Fuser {
    /// SPEC §2 exactly.
    Seed,
    /// TorchInductor (`torch.compile`, default mode).
    Inductor,
    /// XLA's GPU fusion passes.
    Xla,
    /// TVM Relay's FuseOps.
    Tvm,
}

impl Fuser {
    pub const ALL: &'static [Fuser] = &[Fuser::Seed, Fuser::Inductor, Fuser::Xla, Fuser::Tvm];

    pub fn as_str(self) -> &'static str {
        match self {
            Fuser::Seed => "seed",
            Fuser::Inductor => "inductor",
            Fuser::Xla => "xla",
            Fuser::Tvm => "tvm",
        }
    }

    /// The options of this preset (FlashAttention off: it is a kernel library's choice, asked
    /// for with `--flash-attention` on top of any preset).
    pub fn options(self) -> FusionOptions {
        match self {
            Fuser::Seed => FusionOptions::default(),
            Fuser::Inductor => FusionOptions {
                policy: Policy::Inline,
                reduction_epilogue: true,
                matmul_epilogue: MatmulEpilogue::Addmm,
                horizontal: Horizontal::Inductor,
                budgets: Budgets {
                    ops: Some(super::budget::DEFAULT_OPS),
                    ..Budgets::default()
                },
                ..FusionOptions::default()
            },
            Fuser::Xla => FusionOptions {
                policy: Policy::Recompute,
                horizontal: Horizontal::Pointwise,
                budgets: Budgets {
                    tensors: Some(super::budget::DEFAULT_TENSORS),
                    ..Budgets::default()
                },
                ..FusionOptions::default()
            },
            Fuser::Tvm => FusionOptions {
                diamonds: true,
                budgets: Budgets {
                    ops: Some(TVM_MAX_FUSE_DEPTH),
                    ..Budgets::default()
                },
                ..FusionOptions::default()
            },
        }
    }

    /// This preset's options with `current`'s FlashAttention choice (and work bound).
    pub fn options_keeping_flash(self, current: &FusionOptions) -> FusionOptions {
        FusionOptions {
            flash_attention: current.flash_attention,
            work_limit: current.work_limit,
            ..self.options()
        }
    }

    /// The preset whose options these are, if any (FlashAttention and the work bound aside).
    pub fn of(opts: &FusionOptions) -> Option<Fuser> {
        let mut o = *opts;
        o.flash_attention = false;
        o.work_limit = None;
        Fuser::ALL.iter().copied().find(|f| f.options() == o)
    }
}

/// TVM's `relay.FuseOps.max_depth` default: ops per fused function.
pub const TVM_MAX_FUSE_DEPTH: u32 = 256;
