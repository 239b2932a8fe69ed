"""transformers' model of tinyllama_1_1b_config.json, a decode step of 1 against 2047 positions, bf16, attn_implementation="sdpa" (hf_case.py)."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import hf_case  # noqa: E402
hf_case.setup(globals(), 'tinyllama_1_1b_config.json', 1, 1, 'bf16', 'sdpa', context=2047)
