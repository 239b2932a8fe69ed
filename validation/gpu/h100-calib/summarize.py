import csv, sys, collections
def parse(path):
    rows = list(csv.reader(l for l in open(path) if l.startswith('"')))
    hdr = rows[0]; idx = {h: i for i, h in enumerate(hdr)}
    kernels = collections.OrderedDict()
    for r in rows[1:]:
        if r[0] == "ID": continue
        k = kernels.setdefault(r[idx["ID"]], {"name": r[idx["Kernel Name"]], "grid": r[idx["Grid Size"]], "block": r[idx["Block Size"]]})
        k[r[idx["Metric Name"]]] = (r[idx["Metric Value"]].replace(",", ""), r[idx["Metric Unit"]])
    cases = []; cur = None
    for k in kernels.values():
        if "spin_kernel" in k["name"]:
            cur = []; cases.append(cur)
        else:
            cur.append(k)
    return cases
def val(k, m):
    v, u = k[m]; v = float(v)
    return v * {"byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9, "nsecond": 1e-3, "ns": 1e-3, "us": 1, "ms": 1e3, "B": 1, "KB": 1e3, "MB": 1e6, "GB": 1e9, "usecond": 1, "msecond": 1e3, "%": 1, "": 1}[u]
if __name__ == "__main__":
    cs = list(csv.DictReader(open("cases.csv")))
    fl = parse("ncu_flushed.csv"); wm = parse("ncu_warm.csv")
    print(len(cs), len(fl), len(wm))
    for c, f, w in zip(cs, fl, wm):
        rd = sum(val(k, "dram__bytes_read.sum") for k in f); t = sum(val(k, "gpu__time_duration.sum") for k in f)
        print(f'{c["case"]:42s} n={len(f)} read/comp={rd/int(c["read"]):6.2f} t={t:9.1f}us ev={c["warm_us_median"]:>9s} ' + "|".join(k["name"][:30] for k in f))
