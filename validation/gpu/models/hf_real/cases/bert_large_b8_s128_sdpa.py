"""transformers' model of bert_large_uncased_config.json, a prefill of 8 x 128, f16, attn_implementation="sdpa" (hf_case.py)."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import hf_case  # noqa: E402
hf_case.setup(globals(), 'bert_large_uncased_config.json', 8, 128, 'f16', 'sdpa')
