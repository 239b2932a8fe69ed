"""Which CUDA kernels `F.linear(x, w, b)` (nn.Linear with a bias) launches in PyTorch eager
and torch.compile, by the input's rank, rows and layout (VALIDATION.md §58).

Mechanism only (kernel names and counts): run on any Hopper GPU; timings it prints are the
machine's, not the H100 preset's. Writes linear_probe.csv to the folder named.
"""

import csv
import sys

import torch
import torch.nn.functional as F
from torch.profiler import ProfilerActivity, profile


def kernels(fn, *args):
    for _ in range(3):
        fn(*args)
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as p:
        fn(*args)
        torch.cuda.synchronize()
    out = []
    for e in p.events():
        if e.device_type == torch.autograd.DeviceType.CUDA:
            out.append((e.name, e.device_time))
    return out


def main(folder):
    dev, dt = "cuda", torch.float16
    rows = []
    shapes = [
        # (label, x shape, K, N, contiguous)
        ("2d_m1", (1, 1536), 1536, 1536, True),
        ("2d_m4", (4, 1536), 1536, 256, True),
        ("3d_b1_s1", (1, 1, 1536), 1536, 1536, True),
        ("3d_b4_s1", (4, 1, 1536), 1536, 256, True),
        ("3d_b2_s512", (2, 512, 896), 896, 896, True),
        ("4d_contig", (2, 4, 64, 896), 896, 896, True),
        ("3d_strided", (2, 512, 896), 896, 896, False),
        ("2d_k1", (64, 1), 1, 256, True),
        ("2d_n1", (64, 896), 896, 1, True),
        ("f32_3d", (2, 128, 512), 512, 512, True),
        ("bf16_3d_b8_s1", (8, 1, 896), 896, 128, True),
    ]
    for label, xs, k, n, contig in shapes:
        for dtype in [dt] if not label.startswith("f32") else [torch.float32]:
            if label.startswith("bf16"):
                dtype = torch.bfloat16
            x = torch.randn(*xs, device=dev, dtype=dtype)
            if not contig:
                x = torch.randn(xs[0], xs[2], xs[1], device=dev, dtype=dtype).transpose(1, 2)
            w = torch.randn(n, k, device=dev, dtype=dtype)
            b = torch.randn(n, device=dev, dtype=dtype)
            modes = [("eager", lambda x, w, b: F.linear(x, w, b))]
            modes.append(("eager_nobias", lambda x, w, b: F.linear(x, w)))
            cf = torch.compile(lambda x, w, b: F.linear(x, w, b))
            modes.append(("compile", cf))
            cg = torch.compile(lambda x, w, b: torch.relu(F.linear(x, w, b)))
            modes.append(("compile_relu", cg))
            for mode, fn in modes:
                ks = kernels(fn, x, w, b)
                for i, (name, us) in enumerate(ks):
                    rows.append([label, mode, i, name[:120], f"{us:.3f}"])
                print(label, mode, len(ks), [n_[:50] for n_, _ in ks])
    with open(f"{folder}/linear_probe.csv", "w", newline="") as f:
        wr = csv.writer(f)
        wr.writerow(["case", "mode", "index", "name", "duration_us"])
        wr.writerows(rows)
    print(torch.__version__)


if __name__ == "__main__":
    main(sys.argv[1])
