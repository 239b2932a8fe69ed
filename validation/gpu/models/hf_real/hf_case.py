"""A Hugging Face transformers model as measure.py measures an emitted module (VALIDATION §55):
`Graph(device)` builds the model a local config.json describes (random weights,
`from_config`), `make_inputs(device)` its token ids, and `forward` one prefill step, the
cache off. Each case file under cases/ names its config, step and attention implementation and
calls `setup` (measure.py loads the case file by path)."""
import json
import os

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
DTYPES = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32}


def setup(ns, config, batch, seq, dtype, attn, context=None):
    """Fills namespace `ns` (a case module's globals) with `Graph` and `make_inputs`. With
    `context`, one decode step (`seq` = 1 new token per sequence) against a DynamicCache of
    `context` positions, filled by a prefill when the model is built; after every step each
    layer's keys and values are set back to the prefill's tensors (an assignment, no kernel),
    so each step appends to the same contiguous cache, as a step of generation does.
    (`DynamicCache.crop` would leave strided views, which `torch.cat` copies by its slow
    generic kernel: the first decode measurement, data/hf4_crop, did that.)"""
    from transformers import AutoConfig, AutoModel, AutoModelForCausalLM

    path = os.path.join(HERE, "..", "configs", config)
    d = json.load(open(path))
    model_type = d.pop("model_type")
    dt = DTYPES[dtype]

    class Graph(torch.nn.Module):
        def __init__(self, device="cpu", seed=0):
            super().__init__()
            torch.manual_seed(seed)
            cfg = AutoConfig.for_model(model_type, **d)
            auto = AutoModel if model_type == "bert" else AutoModelForCausalLM
            with torch.device(device):
                try:
                    m = auto.from_config(cfg, attn_implementation=attn, dtype=dt)
                except TypeError:
                    m = auto.from_config(cfg, attn_implementation=attn, torch_dtype=dt)
            self.m = m.to(device=device, dtype=dt).eval()
            self.bert = model_type == "bert"
            self.context = context
            if context:
                g = torch.Generator(device=device).manual_seed(2)
                past = torch.randint(0, d["vocab_size"], (batch, context), generator=g, device=device)
                self.cache = self.m(input_ids=past, use_cache=True).past_key_values
                # transformers 5: cache.layers[i].keys/values (DynamicLayer.update's torch.cat).
                self.kept = [(layer.keys, layer.values) for layer in self.cache.layers]
                assert all(k.is_contiguous() for k, _ in self.kept)

        def forward(self, ids):
            if self.context:
                out = self.m(input_ids=ids, past_key_values=self.cache, use_cache=True)
                for layer, (k, v) in zip(self.cache.layers, self.kept):
                    layer.keys, layer.values = k, v
                return out.logits
            out = self.m(input_ids=ids, use_cache=False) if not self.bert else self.m(input_ids=ids)
            return out.logits if not self.bert else (out.last_hidden_state, out.pooler_output)

    def make_inputs(device="cpu", seed=1):
        g = torch.Generator(device=device).manual_seed(seed)
        return [torch.randint(0, d["vocab_size"], (batch, seq), generator=g, device=device)]

    ns["Graph"], ns["make_inputs"] = Graph, make_inputs
