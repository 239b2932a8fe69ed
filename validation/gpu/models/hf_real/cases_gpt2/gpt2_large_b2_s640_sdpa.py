"""transformers' model of gpt2_large_config.json, a prefill of 2 x 640, bf16, attn_implementation="sdpa" (hf_case.py)."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import hf_case  # noqa: E402
hf_case.setup(globals(), 'gpt2_large_config.json', 2, 640, 'bf16', 'sdpa')
