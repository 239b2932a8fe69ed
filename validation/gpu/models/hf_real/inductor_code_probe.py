"""What Inductor generates for transformers' compiled decode step (mechanism only: the code,
no time kept), VALIDATION §62: `python3 inductor_code_probe.py OUT`. For GPT-2 medium and
Qwen2.5-0.5B at two layers, a decode step of batch 2 against 129 positions as measure.py
compiles it (hf_case.py, torch.compile's default mode), and GPT-2's prefill of 2 x 128:
writes OUT/CASE.py, the code Inductor generated (`run_and_get_code`). `python3 inductor_code_probe.py
OUT MODULE.py...`: emitted modules (`fgraph emit torch`) instead, compiled the same way, each to
OUT/MODULE.py."""
import importlib.util, json, os, sys

import torch
from torch._inductor.utils import run_and_get_code

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import hf_case  # noqa: E402

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
configs = os.path.join(HERE, "..", "configs")
d = json.load(open(os.path.join(configs, "qwen2_5_0_5b_config.json")))
d["num_hidden_layers"] = 2
with open(os.path.join(configs, "_probe_qwen2_l2_config.json"), "w") as fh:
    json.dump(d, fh)
CASES = {
    "gpt2_l2_decode_b2_t129": ("gpt2_medium_l2_config.json", 2, 1, 129),
    "gpt2_l2_b2_s128": ("gpt2_medium_l2_config.json", 2, 128, None),
    "qwen2_l2_decode_b2_t129": ("_probe_qwen2_l2_config.json", 2, 1, 129),
}


def load(path):
    spec = importlib.util.spec_from_file_location(os.path.basename(path)[:-3], path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return {"Graph": m.Graph, "make_inputs": m.make_inputs}


def case(c):
    ns = {}
    hf_case.setup(ns, c[0], c[1], c[2], "bf16", "sdpa", context=c[3])
    return ns


# The transformers cases, or the modules named.
jobs = ([(os.path.basename(p)[:-3], lambda p=p: load(p)) for p in sys.argv[2:]] or
        [(name, lambda c=c: case(c)) for name, c in CASES.items()])
for name, make in jobs:
    ns = make()
    with torch.inference_mode():
        model = ns["Graph"]("cuda")
        inputs = ns["make_inputs"]("cuda")
        compiled = torch.compile(model)
        compiled(*inputs)
        torch._dynamo.reset()
        compiled = torch.compile(model)
        _, code = run_and_get_code(compiled, *inputs)
    with open(os.path.join(out, name + ".py"), "w") as fh:
        fh.write("\n\n# ======== next module ========\n\n".join(code))
    print(name, len(code), "modules", sum(c.count("@triton.jit") for c in code), "triton kernels", flush=True)
