"""transformers' model of gpt2_medium_config.json, a decode step of 8 against 767 positions, bf16, attn_implementation="sdpa" (hf_case.py)."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import hf_case  # noqa: E402
hf_case.setup(globals(), 'gpt2_medium_config.json', 8, 1, 'bf16', 'sdpa', context=767)
