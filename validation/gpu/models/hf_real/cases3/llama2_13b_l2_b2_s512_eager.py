"""transformers' model of llama2_13b_l2_config.json, a prefill of 2 x 512, f16, attn_implementation="eager" (hf_case.py)."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import hf_case  # noqa: E402
hf_case.setup(globals(), 'llama2_13b_l2_config.json', 2, 512, 'f16', 'eager')
