"""Batch k's ncu and timing CSVs into per-case and per-kernel tables: batch h's extract.py
(`../h100-calib-h/extract.py`, its columns and method) over calib_k.py's cases, in order.

  python3 validation/gpu/h100-calib-k/extract.py heldout [FOLDER]
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from calib_k import H  # noqa: E402  (calib_h with calib_k's cases installed)
from heldout_cli import extractor  # noqa: E402  (calib_h's folder, on the path through calib_k)

if __name__ == "__main__":
    extractor(H)(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else HERE)
