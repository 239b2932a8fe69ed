"""Batch 2 of measured ground truth for docs/VALIDATION.md: cases fgraph predicts but
../shared/gpu/h100-batch1 lacks. Same method as ../shared/gpu/measure_example.py (three
warm-up calls, then one call between cudaProfilerStart/Stop, profiled by Nsight Compute);
run through measure_batch2.sh, which records the DRAM bytes and time of every kernel.

Cases (shapes are those of the matching validation/*.fgraph):
  swiglu          examples/swiglu_mlp.fgraph: (silu(x Wg) * (x Wu)) Wd, T=2048 H=4096 F=11008 bf16
  res_ln_gelu     gelu(layer_norm(x + r)), [16384, 4096] f16: a LayerNorm with a prologue and
                  an epilogue
  attention_flash scaled_dot_product_attention on [1, 32, 4096, 128] f16 (4-D, so the fused
                  backends are eligible; batch 1's attention_sdpa used 3-D tensors and got
                  the math fallback). Modes: eager (PyTorch's choice), flash (FlashAttention-2
                  forced), cudnn (cuDNN forced)

  python3 measure_batch2.py --case NAME --mode MODE --profile   # one region under ncu
  python3 measure_batch2.py --warm                              # compile every compiled mode
"""
import argparse
import torch
import torch.nn.functional as F

torch.manual_seed(0)
dev = "cuda"
H = torch.float16


def r(*shape, dtype=H):
    return torch.randn(*shape, device=dev, dtype=dtype) * 0.05


CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


@case
def swiglu():
    T, Hd, Fd = 2048, 4096, 11008
    B = torch.bfloat16
    x, wg, wu, wd = r(T, Hd, dtype=B), r(Hd, Fd, dtype=B), r(Hd, Fd, dtype=B), r(Fd, Hd, dtype=B)

    def f(x, wg, wu, wd):
        gate = x @ wg
        up = x @ wu
        return (F.silu(gate) * up) @ wd

    return f, (x, wg, wu, wd)


@case
def res_ln_gelu():
    R, C = 16384, 4096
    x, res, w, b = r(R, C), r(R, C), r(C), r(C)

    def f(x, res, w, b):
        return F.gelu(F.layer_norm(x + res, (C,), w, b), approximate="tanh")

    return f, (x, res, w, b)


@case
def attention_flash():
    q, k, v = r(1, 32, 4096, 128), r(1, 32, 4096, 128), r(1, 32, 4096, 128)

    def f(q, k, v):
        return F.scaled_dot_product_attention(q, k, v, scale=1.0)

    return f, (q, k, v)


def build(name, mode):
    f, args = CASES[name]()
    if mode == "compiled":
        f = torch.compile(f)
    elif mode == "compiled_max":
        f = torch.compile(f, mode="max-autotune-no-cudagraphs")
    elif mode in ("flash", "cudnn"):
        from torch.nn.attention import SDPBackend, sdpa_kernel
        backend = SDPBackend.FLASH_ATTENTION if mode == "flash" else SDPBackend.CUDNN_ATTENTION
        g = f

        def f(*a):
            with sdpa_kernel(backend):
                return g(*a)
    return f, args


PLAN = [("swiglu", "eager"), ("swiglu", "compiled"), ("swiglu", "compiled_max"),
        ("res_ln_gelu", "eager"), ("res_ln_gelu", "compiled"),
        ("attention_flash", "eager"), ("attention_flash", "flash"), ("attention_flash", "cudnn")]


def check(name, mode):
    """The compiled function must compute what eager does (fp16/bf16 tolerance)."""
    f, args = build(name, mode)
    g, _ = build(name, "eager")
    with torch.no_grad():
        out, ref = f(*args).float(), g(*args).float()
    rel = ((out - ref).norm() / ref.norm()).item()
    assert rel < 2e-2, (name, mode, rel)
    return rel


def profile_once(name, mode):
    f, args = build(name, mode)
    with torch.no_grad():
        for _ in range(3):
            f(*args)
        torch.cuda.synchronize()
        torch.cuda.profiler.start()
        f(*args)
        torch.cuda.synchronize()
        torch.cuda.profiler.stop()


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--case")
    ap.add_argument("--mode", default="eager")
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--warm", action="store_true")
    a = ap.parse_args()
    if a.warm:
        print(torch.__version__, torch.cuda.get_device_name(), flush=True)
        for c, m in PLAN:
            try:
                print("check", c, m, "rel err %.2e" % check(c, m), flush=True)
            except Exception as e:  # keep going; the ncu step records what ran
                print("check", c, m, "FAILED", repr(e)[:300], flush=True)
    elif a.profile:
        profile_once(a.case, a.mode)
