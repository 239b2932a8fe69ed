"""Batch l's ncu and timing CSVs into per-case and per-kernel tables: batch h's extract.py
(`../h100-calib-h/extract.py`, its columns and method) over calib_l.py's cases, in order.

  python3 validation/gpu/h100-calib-l/extract.py heldout [FOLDER]
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from calib_l import H  # noqa: E402  (calib_h with calib_l's cases installed)
from heldout_cli import extractor  # noqa: E402  (calib_h's folder, on the path through calib_l)

if __name__ == "__main__":
    extractor(H)(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else HERE)
