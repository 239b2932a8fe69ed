"""Which CUDA kernels PyTorch's inference `F.batch_norm` launches, by the input's dtype, the
statistics' dtype and the layout (VALIDATION.md §35): the profiler's kernels of one call after
warm-up, with their durations.

    python3 bn_probe.py OUT_DIR [fit|heldout|heldout2]    # writes OUT_DIR/bn_kernels.csv

The shapes of each part are predict_bn.py's (`fit` was measured first, in bn_kernels.csv here;
`heldout` after predictions_heldout.json was committed, `heldout2` after
predictions_heldout2.json).
"""
import csv
import os
import sys

import torch
import torch.nn.functional as F
from torch.profiler import ProfilerActivity, profile

from predict_bn import DTYPES, SHAPES
T = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32}


def main():
    out = sys.argv[1]
    part = sys.argv[2] if len(sys.argv) > 2 else "fit"
    os.makedirs(out, exist_ok=True)
    rows = []
    for shape in SHAPES[part]:
        for xd, pd in DTYPES:
            for layout in ("channels_last", "contiguous"):
                x = torch.randn(shape, device="cuda", dtype=T[xd])
                if layout == "channels_last":
                    x = x.to(memory_format=torch.channels_last)
                c = shape[1]
                m, v, w, b = (torch.rand(c, device="cuda", dtype=T[pd]) + 0.5 for _ in range(4))
                for _ in range(5):
                    F.batch_norm(x, m, v, w, b, training=False, eps=1e-5)
                torch.cuda.synchronize()
                with profile(activities=[ProfilerActivity.CUDA]) as prof:
                    F.batch_norm(x, m, v, w, b, training=False, eps=1e-5)
                    torch.cuda.synchronize()
                kernels = [e for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]
                for i, e in enumerate(kernels):
                    rows.append({"shape": "x".join(map(str, shape)), "x": xd, "stats": pd, "layout": layout,
                                 "index": i, "name": e.name[:160], "duration_us": round(e.device_time, 3)})
                print(shape, xd, pd, layout, len(kernels), [k.name[:50] for k in kernels], flush=True)
    with open(os.path.join(out, "bn_kernels.csv"), "w", newline="") as f:
        wr = csv.DictWriter(f, fieldnames=list(rows[0]))
        wr.writeheader()
        wr.writerows(rows)
    print(torch.__version__, torch.backends.cudnn.version(), torch.cuda.get_device_name())


if __name__ == "__main__":
    main()
