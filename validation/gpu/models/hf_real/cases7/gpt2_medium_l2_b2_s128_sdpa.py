"""transformers' model of gpt2_medium_l2_config.json, a prefill of 2 x 128, bf16, attn_implementation="sdpa" (hf_case.py)."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import hf_case  # noqa: E402
hf_case.setup(globals(), 'gpt2_medium_l2_config.json', 2, 128, 'bf16', 'sdpa')
