"""transformers' model of mistral_7b_l4_config.json, a prefill of 1 x 1024, bf16, attn_implementation="sdpa" (hf_case.py)."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import hf_case  # noqa: E402
hf_case.setup(globals(), 'mistral_7b_l4_config.json', 1, 1024, 'bf16', 'sdpa')
