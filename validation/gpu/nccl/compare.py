"""fgraph's predictions (predictions_nccl.json) against the measurement (measured_nccl.csv and
measured_steps.csv, extract.py's), issue 26's targets: collective times within ±15% for
messages over 1 MiB (per collective, on the held-out sizes), the decode step within ±15%.

  python3 compare.py [--predictions FILE] [--measured DIR] [--part heldout|fit|all] [--strict]
  python3 compare.py --template --world 2,4 [--part heldout] > predictions_nccl.json
  python3 compare.py --self-test          # synthetic data through extract.py and compare.py

predictions_nccl.json (written by the lead from fgraph's collective cost model, committed
before the sizes it predicts are measured):

  {"what": "...", "made_by": "...", "commit": "...",
   "collectives": [
     {"collective": "all_reduce", "dtype": "bf16", "size_bytes": 2097152, "world": 2,
      "time_us": 16.4},                           # optional: "mode": "eager" (default) | "graph"
     ...],
   "steps": [
     {"what": "llama3_70b_tp_decode", "world": 2, "batch": 1, "layers": 72, "mode": "graph",
      "time_us": 27400.0},
     ...]}

`collective` is nccl_bench.py's name (all_reduce, all_gather, reduce_scatter, all_to_all,
broadcast, send_recv); `size_bytes` nccl-tests' size (README.md); "cases" is read as
"collectives", "size" as "size_bytes". A prediction with no measured row is listed as
`not measured`. Writes DIR/accuracy_nccl.json. --strict exits 1 when a held-out collective
over 1 MiB or a step misses ±15%.
"""
import argparse
import csv
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
MiB = 1 << 20
TOL = 0.15


def load_predictions(path):
    d = json.load(open(path))
    colls = []
    for c in d.get("collectives", d.get("cases", [])):
        colls.append(dict(collective=c["collective"], dtype=c.get("dtype", "bf16"),
                          size=int(c.get("size_bytes", c.get("size"))), world=int(c["world"]),
                          mode=c.get("mode", "eager"), time_us=c.get("time_us")))
    steps = [dict(what=s["what"], world=int(s["world"]), batch=int(s["batch"]), layers=int(s["layers"]),
                  mode=s.get("mode", "graph"), time_us=s.get("time_us")) for s in d.get("steps", [])]
    return colls, steps


def load_measured(folder):
    m, st = {}, {}
    p = os.path.join(folder, "measured_nccl.csv")
    if os.path.exists(p):
        for r in csv.DictReader(open(p)):
            m[(r["collective"], r["dtype"], int(r["size_bytes"]), int(r["world"]), r["mode"])] = r
    p = os.path.join(folder, "measured_steps.csv")
    if os.path.exists(p):
        for r in csv.DictReader(open(p)):
            st[(r["what"], int(r["world"]), int(r["batch"]), int(r["layers"]), r["mode"])] = r
    return m, st


def ok_time(r):
    try:
        return float(r["time_us"]) if r and r["status"] == "ok" and r["time_us"] != "" else None
    except ValueError:
        return None


def compare(pred_path, folder, part="heldout", out=sys.stdout):
    colls, steps = load_predictions(pred_path)
    meas, smeas = load_measured(folder)
    rows, summary = [], {}
    for p in sorted(colls, key=lambda c: (c["world"], c["collective"], c["dtype"], c["mode"], c["size"])):
        r = meas.get((p["collective"], p["dtype"], p["size"], p["world"], p["mode"]))
        t = ok_time(r)
        if t is None or p["time_us"] is None:
            rows.append(dict(p, status="not measured" if t is None else "no prediction"))
            continue
        if part != "all" and r["part"] != part:
            continue
        err = (float(p["time_us"]) - t) / t
        big = p["size"] > MiB
        row = dict(p, part=r["part"], measured_us=t, err=err, over_1mib=big, within=abs(err) <= TOL, status="ok")
        rows.append(row)
        if big:
            s = summary.setdefault(f"{p['collective']} w{p['world']} {p['dtype']} {p['mode']}", [0, 0])
            s[0] += 1
            s[1] += row["within"]
    print(f"collectives ({part} sizes; target: within ±{TOL:.0%} over 1 MiB)", file=out)
    for r in rows:
        if r["status"] != "ok":
            print(f"  {r['collective']:14} w{r['world']} {r['dtype']} {r['mode']:5} {r['size']:>11} B  {r['status']}",
                  file=out)
            continue
        mark = "" if not r["over_1mib"] else ("" if r["within"] else "  ✗")
        print(f"  {r['collective']:14} w{r['world']} {r['dtype']} {r['mode']:5} {r['size']:>11} B  "
              f"pred {float(r['time_us']):10.2f}  meas {r['measured_us']:10.2f} us  {r['err']:+7.1%}{mark}"
              f"{'' if r['over_1mib'] else '  (<= 1 MiB)'}", file=out)
    print("per collective, messages over 1 MiB:", file=out)
    for k, (n, k_ok) in sorted(summary.items()):
        print(f"  {k:32} {k_ok}/{n} within ±{TOL:.0%}", file=out)
    srows = []
    for p in steps:
        r = smeas.get((p["what"], p["world"], p["batch"], p["layers"], p["mode"]))
        t = ok_time(r)
        if t is None or p["time_us"] is None:
            srows.append(dict(p, status="not measured" if t is None else "no prediction"))
            continue
        err = (float(p["time_us"]) - t) / t
        srows.append(dict(p, measured_us=t, err=err, within=abs(err) <= TOL, status="ok"))
    if srows:
        print(f"steps (target: within ±{TOL:.0%})", file=out)
        for r in srows:
            head = f"  {r['what']:26} w{r['world']} batch {r['batch']:5d} L{r['layers']:3d} {r['mode']:5}"
            if r["status"] != "ok":
                print(f"{head}  {r['status']}", file=out)
            else:
                print(f"{head}  pred {float(r['time_us']):10.1f}  meas {r['measured_us']:10.1f} us  {r['err']:+7.1%}"
                      f"{'' if r['within'] else '  ✗'}", file=out)
    res = dict(part=part, collectives=rows, per_collective=summary, steps=srows)
    json.dump(res, open(os.path.join(folder, "accuracy_nccl.json"), "w"), indent=1)
    return res


def misses(res):
    n = sum(1 for r in res["collectives"] if r.get("status") == "ok" and r["over_1mib"] and not r["within"]
            and r["part"] == "heldout")
    return n + sum(1 for r in res["steps"] if r.get("status") == "ok" and not r["within"])


def template(worlds, part):
    import nccl_bench as B
    cs = []
    for w in worlds:
        for c in B.cases(w, part):
            cs.append(dict(collective=c["collective"], dtype=c["dtype"], size_bytes=c["size"], world=w, time_us=None))
    return dict(what="fgraph's predicted times for nccl_bench.py's cases (fill time_us)", made_by="", commit="",
                collectives=cs, steps=[])


def self_test():
    """Synthetic measurements (t = 10 us + bus bytes at 300 GB/s) through extract.py and
    compare.py; predictions off by +10% (within) and +30% (outside) must be counted so."""
    import extract as X
    import nccl_bench as B
    with tempfile.TemporaryDirectory() as tmp:
        rows = []
        for c in B.cases(4, "all", dtypes=("bf16",)):
            f = B.bus_factor(c["collective"], 4)
            t = 10.0 + c["size"] * f / 300e9 * 1e6
            alg = c["size"] / t / 1e3
            rows.append(dict(collective=c["collective"], torch_op=B.TORCH_OP[c["collective"]], dtype="bf16",
                             size_bytes=c["size"], count=c["size"] // 2, world=4, part=c["part"], mode="eager",
                             iters=20, runs=5, time_us=t, time_min_us=t, time_max_us=t, best_run_us=t,
                             algbw_GBps=alg, busbw_GBps=alg * f, bus_factor=f, status="ok"))
        with open(os.path.join(tmp, "nccl_w4_all.csv"), "w", newline="") as fh:
            w = csv.DictWriter(fh, B.COLUMNS, lineterminator="\n")
            w.writeheader()
            w.writerows(rows)
        with open(os.path.join(tmp, "steps_w4.csv"), "w", newline="") as fh:
            fh.write("what,world,batch,layers,mode,ctx,dtype,time_us,time_min_us,time_max_us,best_run_us,"
                     "per_layer_us,reps,weights_gb,cache_gb,mem_peak_gb,comm,status\n"
                     "llama3_70b_tp_decode,4,1,40,graph,4096,bf16,6000,,,,150,20,,,,,ok\n"
                     "llama3_70b_tp_decode,4,1,80,graph,4096,bf16,11000,,,,137.5,20,,,,,ok\n")
        X.main([tmp])
        preds = []
        for r in rows:
            k = 1.10 if r["collective"] != "broadcast" else 1.30
            preds.append(dict(collective=r["collective"], dtype="bf16", size_bytes=r["size_bytes"], world=4,
                              time_us=r["time_us"] * k))
        preds.append(dict(collective="all_reduce", dtype="f16", size_bytes=4 << 20, world=4, time_us=1.0))
        steps = [dict(what="llama3_70b_tp_decode", world=4, batch=1, layers=80, mode="graph", time_us=12000.0)]
        pp = os.path.join(tmp, "predictions_nccl.json")
        json.dump(dict(collectives=preds, steps=steps), open(pp, "w"))
        res = compare(pp, tmp, "heldout")
        s = res["per_collective"]
        assert s["all_reduce w4 bf16 eager"] == [5, 5], s
        assert s["broadcast w4 bf16 eager"] == [5, 0], s
        assert len(s) == 6, s
        assert res["steps"][0]["within"] and abs(res["steps"][0]["err"] - 1000 / 11000) < 1e-9
        assert any(r["status"] == "not measured" for r in res["collectives"])
        assert misses(res) == 5
    print("self-test: ok")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--predictions", default=os.path.join(HERE, "predictions_nccl.json"))
    ap.add_argument("--measured", default=os.path.join(HERE, "data"))
    ap.add_argument("--part", choices=["heldout", "fit", "all"], default="heldout")
    ap.add_argument("--strict", action="store_true")
    ap.add_argument("--template", action="store_true")
    ap.add_argument("--world", default="2,4,8")
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("--dry-run", action="store_true", help="say what would be read")
    a = ap.parse_args()
    if a.self_test:
        self_test()
        return
    if a.template:
        json.dump(template([int(w) for w in a.world.split(",")], a.part), sys.stdout, indent=1)
        print()
        return
    if a.dry_run:
        print(f"compare plan: predictions {a.predictions} ({'present' if os.path.exists(a.predictions) else 'absent'}), "
              f"measured {a.measured}/measured_nccl.csv and measured_steps.csv, part {a.part}, target ±{TOL:.0%} "
              f"over 1 MiB")
        return
    res = compare(a.predictions, a.measured, a.part)
    if a.strict and misses(res):
        sys.exit(1)


if __name__ == "__main__":
    main()
