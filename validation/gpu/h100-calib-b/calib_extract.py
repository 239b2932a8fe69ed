"""Joins calib.sh's outputs into h100-calib.csv: one row per case, the ncu figures summed over
the case's kernels (the rows between one spin_kernel marker and the next, in CASES order).
Usage: python3 calib_extract.py  (in validation/gpu/, reads h100-calib-*.{csv})"""
import csv
from collections import OrderedDict


def kernels(path):
    rows = [l for l in open(path) if l.startswith('"')]
    kern = OrderedDict()
    for r in csv.DictReader(rows):
        k = kern.setdefault(r["ID"], {"name": r["Kernel Name"]})
        k[r["Metric Name"]] = float(r["Metric Value"].replace(",", ""))
    cases, cur = [], None
    for k in kern.values():
        if "spin_kernel" in k["name"]:
            cur = []
            cases.append(cur)
        elif cur is not None:
            cur.append(k)
    return cases


def main():
    meta = list(csv.DictReader(open("h100-calib-cases.csv")))
    times = {r["id"]: r for r in csv.DictReader(open("h100-calib-time.csv"))}
    cold, warm = kernels("h100-calib-ncu-cold.csv"), kernels("h100-calib-ncu-warm.csv")
    assert len(cold) == len(meta) == len(warm), (len(cold), len(meta), len(warm))
    with open("h100-calib.csv", "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["id", "kind", "op", "dtype", "b", "m", "n", "k", "compulsory_read",
                    "compulsory_write", "kernels", "cold_read", "cold_write", "cold_ns",
                    "warm_read", "warm_write", "warm_ns", "event_cold_us", "kernel_names"])
        for m, c, h in zip(meta, cold, warm):
            s = lambda ks, key: int(sum(k.get(key, 0) for k in ks))
            w.writerow([m["id"], m["kind"], m["op"], m["dtype"], m["b"], m["m"], m["n"], m["k"],
                        m["compulsory_read"], m["compulsory_write"], len(c),
                        s(c, "dram__bytes_read.sum"), s(c, "dram__bytes_write.sum"),
                        s(c, "gpu__time_duration.sum"), s(h, "dram__bytes_read.sum"),
                        s(h, "dram__bytes_write.sum"), s(h, "gpu__time_duration.sum"),
                        times[m["id"]]["cold_us_median"], "|".join(k["name"][:60] for k in c)])


main()
