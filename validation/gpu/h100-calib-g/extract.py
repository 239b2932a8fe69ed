"""Splits batch g's ncu CSV into measured.csv, one row per kernel (no GPU needed):

  python3 validation/gpu/h100-calib-g/extract.py

Batch e's extractor (../h100-calib-e/extract.py, whose docstring gives the columns) run on
this folder with calib_g.py's cases.
"""
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from calib_g import CASES  # noqa: E402

spec = importlib.util.spec_from_file_location("extract_e", os.path.join(HERE, "..", "h100-calib-e", "extract.py"))
E = importlib.util.module_from_spec(spec)
spec.loader.exec_module(E)

if __name__ == "__main__":
    E.extract(CASES, HERE)
