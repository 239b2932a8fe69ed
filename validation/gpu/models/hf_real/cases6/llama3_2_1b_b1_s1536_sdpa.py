"""transformers' model of llama3_2_1b_config.json, a prefill of 1 x 1536, bf16, attn_implementation="sdpa" (hf_case.py)."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import hf_case  # noqa: E402
hf_case.setup(globals(), 'llama3_2_1b_config.json', 1, 1536, 'bf16', 'sdpa')
