"""Which residual adds TorchInductor turns into `addmm` (VALIDATION.md §53): compiles each
emitted graph of this folder (one subprocess each, TORCH_LOGS=output_code) and counts
`extern_kernels.addmm` and `extern_kernels.mm` in its generated code; writes the post-grad
pass's `should_prefer_unfused_addmm` as installed and the tags of the ops it asks about.
`python3 probe.py OUT`."""
import glob, inspect, os, re, subprocess, sys

import torch
import torch._inductor.fx_passes.post_grad as pg

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from dump import RUN  # noqa: E402  (the compile-and-run snippet both probes share)



def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(out, "source.txt"), "w") as fh:
        fh.write(f"torch {torch.__version__}\n")
        for name in ("should_prefer_unfused_addmm", "is_valid_addmm_fusion", "has_uses_tagged_as", "has_uses",
                     "is_pointwise_use"):
            for mod in (pg, getattr(torch._inductor, "utils", None)):
                f = getattr(mod, name, None) if mod else None
                if f is not None:
                    fh.write(inspect.getsource(f) + "\n")
                    break
        for op in (torch.ops.aten._fused_rms_norm.default, torch.ops.aten.add.Tensor,
                   torch.ops.aten.native_layer_norm.default, torch.ops.aten.addmm.default):
            fh.write(f"{op}: {op.tags}\n")
    env = dict(os.environ, TORCH_LOGS="output_code")
    for path in sorted(glob.glob(os.path.join(here, "*.py"))):
        if path.endswith("probe.py"):
            continue
        name = os.path.basename(path)[:-3]
        r = subprocess.run([sys.executable, "-c", RUN, path], capture_output=True, text=True, env=env, timeout=200)
        code = r.stdout + r.stderr
        open(os.path.join(out, name + ".txt"), "w").write(code)
        print(name, "rc", r.returncode, "addmm", len(re.findall(r"extern_kernels\.addmm\(", code)),
              "mm", len(re.findall(r"extern_kernels\.mm\(", code)), flush=True)


if __name__ == "__main__":
    main()
