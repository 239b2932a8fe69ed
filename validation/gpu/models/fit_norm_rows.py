"""Fits `model.norm_rows_per_s` (issue 24, VALIDATION.md §38): the rows a second PyTorch's own
norm kernel (`vectorized_layer_norm_kernel`, a block per row) gets through, a floor on its
compute term that many short rows reach.

Every norm kernel of an eager step of batches 1-14 whose profiler trace
(`data*/kernels_models.csv`) pairs one to one, in launch order, with the runtime's norm
kernels is priced by the built binary with the h100 preset and `norm_rows_per_s` from a grid
(none, then 0.3 to 3 G rows/s); the grid's best by the mean squared log error of the traced
times is taken. Batches 15-20's traces are reported, not fitted on (fit_rows.py).

    FGRAPH=target/release/fgraph python3 validation/gpu/models/fit_norm_rows.py [--write]
"""
from fit_rows import fit

if __name__ == "__main__":
    fit("norm_rows_per_s", "rows/s", "norms", lambda name: "layer_norm" in name, "norm",
        (None, 0.3e9, 0.4e9, 0.5e9, 0.6e9, 0.7e9, 0.8e9, 1.0e9, 1.5e9, 3e9), range(1, 15), range(15, 21),
        "; (issue 24, fit_norm_rows.py)",
        "norm_rows_per_s: fitted on the profiler traces of the norm kernels of whole-model batches 1-14's "
        "eager steps")
