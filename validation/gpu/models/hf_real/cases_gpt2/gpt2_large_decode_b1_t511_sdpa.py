"""transformers' model of gpt2_large_config.json, a decode step of 1 against 511 positions, bf16, attn_implementation="sdpa" (hf_case.py)."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import hf_case  # noqa: E402
hf_case.setup(globals(), 'gpt2_large_config.json', 1, 1, 'bf16', 'sdpa', context=511)
