"""transformers' model of mistral_7b_l4_config.json, a decode step of 16 against 1023 positions, bf16, attn_implementation="eager" (hf_case.py)."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import hf_case  # noqa: E402
hf_case.setup(globals(), 'mistral_7b_l4_config.json', 16, 1, 'bf16', 'eager', context=1023)
