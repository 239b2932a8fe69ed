"""The calibration's CSVs into two tables, with a summary (no GPU, no torch):

  python3 validation/gpu/nccl/extract.py [FOLDER ...]     # default: ./data beside this file

Each FOLDER holds what run.sh wrote to $OUT (nccl_wW_PART.csv, steps_wW.csv; env.txt, log.txt).
Writes into the first FOLDER:
  measured_nccl.csv   every nccl_w*.csv row (nccl_bench.py's columns), one per (collective,
                      dtype, size_bytes, world, mode): a later file's row replaces an earlier one
  measured_steps.csv  every steps_w*.csv row (tp_decode.py's columns), one per (what, world,
                      batch, layers, mode)
and prints, per (collective, world, dtype), the eager bus bandwidth at the largest size and the
time at the smallest; a plain latency-bandwidth line t = a + S / B fitted on the fit half's
eager rows over 1 MiB (least squares on the relative error) and its error on the held-out
half over 1 MiB (a reference point for fgraph's model, not the model); and for each step the
per-layer slope between its two depths, (t(L2) - t(L1)) / (L2 - L1).
"""
import csv
import glob
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MiB = 1 << 20
NKEY = ("collective", "dtype", "size_bytes", "world", "mode")
SKEY = ("what", "world", "batch", "layers", "mode")


def read_rows(folders, pattern, key):
    rows, cols = {}, None
    for folder in folders:
        for path in sorted(glob.glob(os.path.join(folder, pattern))):
            with open(path) as fh:
                r = csv.DictReader(fh)
                cols = cols or r.fieldnames
                for row in r:
                    rows[tuple(row[k] for k in key)] = row
    return cols, list(rows.values())


def num(x):
    try:
        return float(x)
    except (TypeError, ValueError):
        return None


def fit_line(points):
    """(a_us, B_bytes_per_s) of t = a + S/B minimising sum((a + S b - t)/t)^2; None if < 2 points."""
    if len(points) < 2:
        return None
    # weighted least squares, weights 1/t^2: normal equations for (a, b)
    s11 = s12 = s22 = r1 = r2 = 0.0
    for s, t in points:
        w = 1.0 / (t * t)
        s11 += w; s12 += w * s; s22 += w * s * s; r1 += w * t; r2 += w * s * t
    det = s11 * s22 - s12 * s12
    if det == 0:
        return None
    a = (r1 * s22 - r2 * s12) / det
    b = (s11 * r2 - s12 * r1) / det
    return a, (1e6 / b if b > 0 else float("inf"))


def summarize_nccl(rows):
    groups = {}
    for r in rows:
        if r["mode"] != "eager" or r["status"] != "ok" or num(r["time_us"]) is None:
            continue
        groups.setdefault((r["collective"], int(r["world"]), r["dtype"]), []).append(r)
    print(f"{'collective':14} {'world':>5} {'dtype':5} {'t(min size) us':>14} {'busbw(max) GB/s':>16} "
          f"{'fit: a us':>9} {'B GB/s':>8} {'held-out >1MiB err (max |.|)':>28}")
    out = []
    for (coll, w, dt), rs in sorted(groups.items()):
        rs.sort(key=lambda r: int(r["size_bytes"]))
        small, big = rs[0], rs[-1]
        fit = fit_line([(int(r["size_bytes"]), float(r["time_us"])) for r in rs
                        if r["part"] == "fit" and int(r["size_bytes"]) > MiB])
        errs = []
        if fit:
            a, B = fit
            for r in rs:
                if r["part"] == "heldout" and int(r["size_bytes"]) > MiB:
                    p = a + int(r["size_bytes"]) / B * 1e6
                    errs.append((p - float(r["time_us"])) / float(r["time_us"]))
        err = f"{max(errs, key=abs):+.1%} over {len(errs)}" if errs else "-"
        print(f"{coll:14} {w:5d} {dt:5} {float(small['time_us']):14.2f} {big['busbw_GBps'] or '-':>16} "
              f"{fit[0] if fit else float('nan'):9.2f} {fit[1] / 1e9 if fit else float('nan'):8.1f} {err:>28}")
        out.append(dict(collective=coll, world=w, dtype=dt, fit=fit, heldout_errors=errs))
    return out


def summarize_steps(rows):
    groups = {}
    for r in rows:
        if r["status"] != "ok" or num(r["time_us"]) is None:
            continue
        groups.setdefault((r["what"], int(r["world"]), int(r["batch"]), r["mode"]), []).append(r)
    for (what, w, b, mode), rs in sorted(groups.items()):
        rs.sort(key=lambda r: int(r["layers"]))
        txt = ", ".join(f"L={r['layers']}: {float(r['time_us']):.1f} us" for r in rs)
        if len(rs) >= 2:
            l1, l2 = int(rs[0]["layers"]), int(rs[-1]["layers"])
            slope = (float(rs[-1]["time_us"]) - float(rs[0]["time_us"])) / (l2 - l1)
            txt += f"; per layer (slope) {slope:.1f} us, rest {float(rs[-1]['time_us']) - slope * l2:.1f} us"
        print(f"{what:26} world {w} batch {b:5d} {mode:5}: {txt}")


def write(path, cols, rows):
    with open(path, "w", newline="") as fh:
        wr = csv.DictWriter(fh, cols, lineterminator="\n")
        wr.writeheader()
        for r in rows:
            wr.writerow(r)


def sort_nccl(r):
    return (int(r["world"]), r["collective"], r["dtype"], r["mode"], int(r["size_bytes"]))


def main(argv):
    folders = argv or [os.path.join(HERE, "data")]
    ncols, nrows = read_rows(folders, "nccl_w*.csv", NKEY)
    scols, srows = read_rows(folders, "steps_w*.csv", SKEY)
    if not nrows and not srows:
        sys.exit(f"no nccl_w*.csv or steps_w*.csv in {', '.join(folders)}")
    if nrows:
        nrows.sort(key=sort_nccl)
        write(os.path.join(folders[0], "measured_nccl.csv"), ncols, nrows)
        print(f"{len(nrows)} collective rows -> {os.path.join(folders[0], 'measured_nccl.csv')}")
        summarize_nccl(nrows)
    if srows:
        srows.sort(key=lambda r: (r["what"], int(r["world"]), int(r["batch"]), r["mode"], int(r["layers"])))
        write(os.path.join(folders[0], "measured_steps.csv"), scols, srows)
        print(f"{len(srows)} step rows -> {os.path.join(folders[0], 'measured_steps.csv')}")
        summarize_steps(srows)


if __name__ == "__main__":
    main(sys.argv[1:])
