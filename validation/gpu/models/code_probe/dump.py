"""Dumps TorchInductor's generated code for each emitted case in this folder (one subprocess
each, TORCH_LOGS=output_code): `python3 dump.py OUT`. Used to read which tensors each of
Inductor's kernels loads and stores (VALIDATION.md §53)."""
import os, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
RUN = r"""
import importlib.util, sys, torch
spec = importlib.util.spec_from_file_location("m", sys.argv[1])
m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
with torch.inference_mode():
    model = m.Graph(device="cuda"); x = m.make_inputs("cuda")
    torch.compile(model)(*x); torch.cuda.synchronize()
print("done", flush=True)
"""


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    env = dict(os.environ, TORCH_LOGS="output_code")
    for f in sorted(os.listdir(HERE)):
        if not f.endswith(".py") or f == "dump.py":
            continue
        t0 = time.time()
        with open(os.path.join(out, f[:-3] + ".txt"), "w") as fh:
            r = subprocess.run([sys.executable, "-c", RUN, os.path.join(HERE, f)], stdout=fh, stderr=subprocess.STDOUT, env=env, timeout=240)
        print(f, r.returncode, round(time.time() - t0, 1), flush=True)


if __name__ == "__main__":
    main()
