"""transformers' model of llama3_2_1b_config.json, a decode step of 16 against 511 positions, bf16, attn_implementation="sdpa" (hf_case.py)."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import hf_case  # noqa: E402
hf_case.setup(globals(), 'llama3_2_1b_config.json', 16, 1, 'bf16', 'sdpa', context=511)
