"""Batch l's ncu and timing CSVs into per-case and per-kernel tables: batch h's extract.py
(`../h100-calib-h/extract.py`, its columns and method) over calib_l.py's cases.

  python3 validation/gpu/h100-calib-j/extract.py heldout [FOLDER]
"""
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from calib_l import H  # noqa: E402  (calib_h with calib_l's cases installed)

_spec = importlib.util.spec_from_file_location(
    "extract_h", os.path.join(HERE, "..", "h100-calib-h", "extract.py"))
_h = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_h)
_h.part_cases = H.part_cases  # batch l's cases, in calib_l.py's order
extract = _h.extract

if __name__ == "__main__":
    extract(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else HERE)
