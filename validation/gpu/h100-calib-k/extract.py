"""Batch k's ncu and timing CSVs into per-case and per-kernel tables: batch h's extract.py
(`../h100-calib-h/extract.py`, its columns and method) over calib_k.py's cases.

  python3 validation/gpu/h100-calib-j/extract.py heldout [FOLDER]
"""
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from calib_k import H  # noqa: E402  (calib_h with calib_k's cases installed)

_spec = importlib.util.spec_from_file_location(
    "extract_h", os.path.join(HERE, "..", "h100-calib-h", "extract.py"))
_h = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_h)
_h.part_cases = H.part_cases  # batch k's cases, in calib_k.py's order
extract = _h.extract

if __name__ == "__main__":
    extract(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else HERE)
