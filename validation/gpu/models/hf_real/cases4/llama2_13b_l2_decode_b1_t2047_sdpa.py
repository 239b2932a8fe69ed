"""transformers' model of llama2_13b_l2_config.json, a decode step of 1 against 2047 positions, f16, attn_implementation="sdpa" (hf_case.py)."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import hf_case  # noqa: E402
hf_case.setup(globals(), 'llama2_13b_l2_config.json', 1, 1, 'f16', 'sdpa', context=2047)
