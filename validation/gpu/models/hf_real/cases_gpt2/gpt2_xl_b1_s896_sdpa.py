"""transformers' model of gpt2_xl_config.json, a prefill of 1 x 896, f16, attn_implementation="sdpa" (hf_case.py)."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import hf_case  # noqa: E402
hf_case.setup(globals(), 'gpt2_xl_config.json', 1, 896, 'f16', 'sdpa')
