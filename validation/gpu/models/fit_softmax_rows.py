"""Fits `model.softmax_row_cols_per_s` (issue 24, VALIDATION.md §41): the columns a second one
warp of PyTorch's own softmax (`softmax_warp_forward`, a warp per row of at most 2,048 columns)
gets through on its row, a floor on the kernel's compute term (a row's latency) that a short
grid reaches: decode's few hundred rows.

Every softmax kernel of an eager step of batches 1-14 whose profiler trace
(`data*/kernels_models.csv`) pairs one to one, in launch order, with the runtime's softmax
kernels is priced by the built binary with the h100 preset and `softmax_row_cols_per_s` from a
grid (none, then 0.1 to 1 G columns/s); the grid's best by the mean squared log error of the
traced times is taken. Batches 15-23's traces are reported, not fitted on (fit_rows.py).

    FGRAPH=target/release/fgraph python3 validation/gpu/models/fit_softmax_rows.py [--write]
"""
from fit_rows import fit

if __name__ == "__main__":
    fit("softmax_row_cols_per_s", "columns/s", "softmaxes",
        lambda name: "softmax_warp_forward" in name or "SoftMaxForward" in name, "softmax",
        (None, 0.1e9, 0.15e9, 0.2e9, 0.22e9, 0.24e9, 0.26e9, 0.28e9, 0.3e9, 0.35e9, 0.4e9, 0.5e9, 0.7e9, 1e9),
        range(1, 15), range(15, 24), "; (issue 24, fit_softmax_rows.py)",
        "softmax_row_cols_per_s: fitted on the profiler traces of the softmax kernels of whole-model "
        "batches 1-14's eager steps")
