"""What every held-out calibration batch after batch i shares (j, k, l): the names of its cases,
its command line (`--list`, `--json`, `--profile`, `--time`, the `heldout` part only) and its
extraction of the ncu and timing CSVs into per-case and per-kernel tables (extract.py's, over the
batch's own cases). Each batch's calib_X.py builds its cases and calls `main`; its extract.py
calls `extractor`.
"""
import argparse
import importlib.util
import json
import os
import sys

GiB = 1 << 30


def number(records, limit=8 * GiB):
    """`records` (each with `family`, `group` or `stratum`, and `desc`) as held-out cases, named
    `heldout_III_FAMILY_STRATUM_DESC` in order; each under `limit` bytes of footprint."""
    cases = []
    for c in records:
        i = len(cases)
        stratum = c.pop("stratum", None) or c["group"]
        rec = dict(part="heldout", case=f"heldout_{i:03d}_{c['family']}_{stratum}_{c.pop('desc')}", index=i)
        rec.update(c)
        assert rec["footprint"] < limit, rec["case"]
        cases.append(rec)
    return cases


def main(H, cases, here):
    """The batch's command line over calib_h's machinery `H` with `cases` installed."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--time", action="store_true")
    ap.add_argument("--part", choices=["heldout"], default=None)
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    if (a.profile or a.time) and a.part != "heldout":
        ap.error("--profile and --time take --part heldout")
    if a.list:
        for c in H.part_cases(a.part):
            print(c["part"], c["family"], c["case"], c["read"], c["write"], c["flops"])
        k, t = H.est_ncu_seconds(cases)
        print(f"{len(cases)} held-out cases, ~{k} kernels (guessed), ncu pass ~{t:.0f} s, largest footprint "
              f"{max(c['footprint'] for c in cases) / GiB:.2f} GiB", file=sys.stderr)
    if a.json:
        with open(os.path.join(a.out or here, "cases.json"), "w") as fh:
            json.dump(cases, fh, indent=0)
            fh.write("\n")
    if a.profile:
        H.profile_cases(a.part)
    if a.time:
        H.time_cases(a.part, a.out or os.environ.get("OUT", "/tmp/out"))


def extractor(H):
    """Batch h's extract.py (its columns and method) over the cases `H` holds, in order."""
    spec = importlib.util.spec_from_file_location(
        "extract_h", os.path.join(os.path.dirname(os.path.abspath(__file__)), "extract.py"))
    h = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(h)
    h.part_cases = H.part_cases
    return h.extract
