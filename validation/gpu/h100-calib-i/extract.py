"""Batch i's ncu (batch h's extract.py over calib_i.py's cases) and timing CSVs into per-case and per-kernel tables (no GPU needed):

  python3 validation/gpu/h100-calib-i/extract.py fit [FOLDER]       # or heldout

FOLDER (default: this folder) holds ncu_<part>.csv and time_<part>.csv as calib_h.sh wrote them;
../h100-calib/summarize.py's `parse` splits the ncu CSV at the `spin_kernel` markers, one region
per case of calib_h.py's part in order (a case that failed before its region has an empty one).
Writes, into FOLDER:

measured_<part>.csv, one row per case: part, case, family, group, dtype, layout, n_kernels,
  kernels (short kernel names joined by `|`), dram_read, dram_write (bytes, summed over the
  case's kernels), gpu_time_ns (ncu's gpu__time_duration summed: kernels serialised, L2 flushed
  before each), max_kernel_ns (the longest kernel), wall_us (the median CUDA-event time of the
  whole call, L2 flushed before each repeat), warm_us (the same without the flush), read_c,
  write_c, flops (the case's compulsory bytes and FLOPs, cases.json's read, write, flops),
  status (`ok`, `no kernels` or the timing pass's FAILED text).
kernels_<part>.csv, one row per kernel, batch e's columns (../h100-calib-e/extract.py: part,
  case, mode `kernel`, kernel index in its region, plan_kernel empty, ops = the family,
  dram_read, dram_write, duration_ns, name with ',' as ';') plus grid, l2_hit_pct and short.
"""
import csv
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "h100-calib"))
from calib_i import H  # noqa: E402
part_cases = H.part_cases  # over calib_i.py's cases  # noqa: E402
from summarize import parse, val  # noqa: E402  (../h100-calib/summarize.py)

GENERIC = {"Kernel", "Kernel2", "device_kernel", "kernel", "cutlass_kernel"}


def _split_top(s):
    """(text before the parameter list, with the return type; the function's template
    arguments or '') of a demangled name: the first '(' outside <...>."""
    depth = 0
    for i, ch in enumerate(s):
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif ch == "(" and depth == 0:
            s = s[:i]
            break
    targs = ""
    if s.endswith(">"):  # the function's own template arguments, matched from the end
        depth = 0
        for i in range(len(s) - 1, -1, -1):
            depth += {">": 1, "<": -1}.get(s[i], 0)
            if depth == 0:
                s, targs = s[:i], s[i + 1:-1]
                break
    return s, targs


def short_name(name):
    """`void at::native::(anonymous namespace)::foo<...>(...)` -> `foo`; a generic wrapper
    (cutlass::Kernel2<X>, device_kernel<X>) -> `Kernel2<X>` with X's own short name; an
    extern "C" name (cuDNN's, nvjet's) as it is."""
    s = name.strip().replace("(anonymous namespace)", "anon").replace("<unnamed>", "anon")
    head, targs = _split_top(s)
    depth, cut = 0, 0
    for i, ch in enumerate(head):  # drop the return type: the last space outside <...>
        depth += {"<": 1, ">": -1}.get(ch, 0)
        if ch == " " and depth == 0:
            cut = i + 1
    parts = head[cut:].strip().split("::")
    base = parts[-1].strip() or head.strip()
    if base in GENERIC and targs:
        if len(parts) > 1:
            base = parts[-2] + "::" + base
        first, depth = targs, 0
        for i, ch in enumerate(targs):
            depth += {"<": 1, ">": -1}.get(ch, 0)
            if ch == "," and depth == 0:
                first = targs[:i]
                break
        inner, _ = _split_top(first.strip())
        return f"{base}<{inner.split('::')[-1].strip()}>"
    return base


def read_times(path):
    if not os.path.exists(path):
        return {}
    with open(path) as fh:
        return {row["case"]: row for row in csv.DictReader(fh)}


def extract(part, folder):
    cases = part_cases(part)
    regions = parse(os.path.join(folder, f"ncu_{part}.csv"))
    assert len(regions) <= len(cases), f"{len(regions)} regions for {len(cases)} {part} cases"
    if len(regions) < len(cases):  # ncu stopped early (its timeout): the rest are not profiled
        print(f"warning: {len(regions)} regions for {len(cases)} cases; the last "
              f"{len(cases) - len(regions)} are marked 'not profiled'", file=sys.stderr)
        regions = regions + [None] * (len(cases) - len(regions))
    times = read_times(os.path.join(folder, f"time_{part}.csv"))
    nk = 0
    with open(os.path.join(folder, f"measured_{part}.csv"), "w", newline="") as fm, \
            open(os.path.join(folder, f"kernels_{part}.csv"), "w", newline="") as fk:
        wm = csv.writer(fm, lineterminator="\n")
        wk = csv.writer(fk, lineterminator="\n")
        wm.writerow(["part", "case", "family", "group", "dtype", "layout", "n_kernels", "kernels", "dram_read",
                     "dram_write", "gpu_time_ns", "max_kernel_ns", "wall_us", "warm_us", "read_c", "write_c",
                     "flops", "status"])
        wk.writerow(["part", "case", "mode", "kernel", "plan_kernel", "ops", "dram_read", "dram_write",
                     "duration_ns", "name", "grid", "l2_hit_pct", "short"])
        for c, ks in zip(cases, regions):
            rd = wr = t = tmax = 0
            names = []
            for i, k in enumerate(ks or []):
                r = int(round(val(k, "dram__bytes_read.sum")))
                w = int(round(val(k, "dram__bytes_write.sum")))
                d = int(round(val(k, "gpu__time_duration.sum") * 1e3))
                hit = val(k, "lts__t_sector_hit_rate.pct") if "lts__t_sector_hit_rate.pct" in k else ""
                sn = short_name(k["name"])
                rd, wr, t, tmax = rd + r, wr + w, t + d, max(tmax, d)
                names.append(sn)
                wk.writerow([part, c["case"], "kernel", i, "", c["family"], r, w, d, k["name"].replace(",", ";"),
                             k["grid"].replace(",", ";"), hit, sn])
                nk += 1
            tm = times.get(c["case"], {})
            status = tm.get("status", "not timed")
            if ks is None:
                status = "not profiled" + ("" if status == "ok" else f"; {status}")
            elif not ks:
                status = "no kernels" + ("" if status == "ok" else f"; {status}")
            wm.writerow([part, c["case"], c["family"], c["group"], c["dtype"], c["layout"], len(ks or []), "|".join(names),
                         rd, wr, t, tmax, tm.get("wall_us", ""), tm.get("warm_us", ""), c["read"], c["write"],
                         c["flops"], status])
    print(len(cases), "cases,", nk, "kernels ->", f"measured_{part}.csv, kernels_{part}.csv")


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in ("fit", "heldout"):
        sys.exit("usage: extract.py fit|heldout [FOLDER]")
    extract(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else HERE)


if __name__ == "__main__":
    main()
