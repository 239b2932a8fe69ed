"""What transformers' GPT-2 runs (mechanism only: kernel names in launch order, the source of
the modules it calls), for `--ops transformers` on GPT-2. Writes OUT/gpt2_probe.txt."""
import inspect, os, sys
import torch
import transformers
from transformers import GPT2Config, GPT2LMHeadModel
from transformers.models.gpt2 import modeling_gpt2 as m
from torch.profiler import ProfilerActivity, profile

out = open(os.path.join(sys.argv[1], "gpt2_probe.txt"), "w")
def p(*a):
    print(*a); print(*a, file=out)

p("transformers", transformers.__version__, "torch", torch.__version__)
cfg = GPT2Config.from_json_file(os.path.join(os.path.dirname(__file__), "..", "configs", "gpt2_medium_config.json"))
cfg.n_layer = 2
cfg._attn_implementation = "sdpa"
model = GPT2LMHeadModel(cfg).to("cuda", torch.bfloat16).eval()
p("activation", cfg.activation_function, type(model.transformer.h[0].mlp.act).__name__)
p(inspect.getsource(type(model.transformer.h[0].mlp.act).forward))
p(inspect.getsource(m.GPT2Attention.forward))
p(inspect.getsource(m.Conv1D.forward))
for name, (b, s, past) in {"prefill_b2_s128": (2, 128, 0), "decode_b2_t127": (2, 1, 127)}.items():
    ids = torch.randint(0, 1000, (b, s), device="cuda")
    with torch.inference_mode():
        kw = {}
        if past:
            pre = model(torch.randint(0, 1000, (b, past), device="cuda"), use_cache=True)
            kw = dict(past_key_values=pre.past_key_values, use_cache=True)
        for _ in range(2):
            model(ids, **kw)
        torch.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            model(ids, **kw)
            torch.cuda.synchronize()
    ks = [e.name for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]
    p(f"== {name}: {len(ks)} kernels")
    for i, k in enumerate(ks):
        p(f"{i:4d} {k[:110]}")
out.close()
