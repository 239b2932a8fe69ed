"""transformers' model of gpt2_medium_l2_config.json, a decode step of 2 against 129 positions, bf16, attn_implementation="sdpa" (hf_case.py)."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import hf_case  # noqa: E402
hf_case.setup(globals(), 'gpt2_medium_l2_config.json', 2, 1, 'bf16', 'sdpa', context=129)
