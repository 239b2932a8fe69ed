"""transformers' model of gpt2_medium_config.json, a prefill of 4 x 384, bf16, attn_implementation="sdpa" (hf_case.py)."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import hf_case  # noqa: E402
hf_case.setup(globals(), 'gpt2_medium_config.json', 4, 384, 'bf16', 'sdpa')
