"""Dumps TorchInductor's generated code for emitted whole-model steps (one subprocess each,
TORCH_LOGS=output_code): `python3 dump.py OUT`. Used to read which tensors each of Inductor's
kernels loads and stores (VALIDATION.md §53); the steps are the batches' own emitted files
(CASES below), their code in out/."""
import os, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
# The emitted steps whose code out/ holds (paths under validation/gpu/models).
CASES = [
    "emitted5/bert_base_b8_s512.py",
    "emitted3/convnext_block_b8.py",
    "emitted24/gpt2_medium_b8_s256.py",
    "emitted2/llama3_8b_prefill_s1024_l4.py",
    "emitted32/qwen2_5_0_5b_decode_b1_t1535.py",
    "emitted16/sd15_down_c1280_h24_b1.py",
    "emitted16/sd15_down_c640_h24_b4.py",
    "emitted2/vit_b16_block_b32.py",
    "emitted2/whisper_tiny_enc_b16.py",
]
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
    for rel in CASES:
        f = os.path.basename(rel)
        t0 = time.time()
        with open(os.path.join(out, f[:-3] + ".txt"), "w") as fh:
            r = subprocess.run([sys.executable, "-c", RUN, os.path.join(HERE, "..", rel)], stdout=fh, stderr=subprocess.STDOUT, env=env, timeout=240)
        print(f, r.returncode, round(time.time() - t0, 1), flush=True)


if __name__ == "__main__":
    main()
