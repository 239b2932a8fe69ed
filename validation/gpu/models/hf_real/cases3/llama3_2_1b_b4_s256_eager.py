"""transformers' model of llama3_2_1b_config.json, a prefill of 4 x 256, bf16, attn_implementation="eager" (hf_case.py)."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import hf_case  # noqa: E402
hf_case.setup(globals(), 'llama3_2_1b_config.json', 4, 256, 'bf16', 'eager')
