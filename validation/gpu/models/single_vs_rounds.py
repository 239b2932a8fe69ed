"""Plain-launch single runs against the rounds of the same steps (VALIDATION §57):
`python3 single_vs_rounds.py` from this folder. measure.py's single runs (data*/measured_models.csv,
launch eager) were timed after a profiled step of their case and of the cases before them in
the process; plain_rounds.py's rounds (data_plain/*/measured_plain.csv, the median of five)
before any step with CUDA activity was profiled. For each step both have that is host-bound
(its rounds more than twice its CUDA-graph time), the single run's excess over the rounds per
CUDA kernel; the median, the share of steps the single run is slower on, and by batch."""
import collections
import csv
import glob
import statistics


def rows(pattern, launch):
    out = {}
    for f in sorted(glob.glob(pattern)):
        for r in csv.DictReader(open(f)):
            if r.get("status") == "ok" and r.get("launch") == launch:
                out[(r["case"], r["runtime"])] = r
    return out


def main():
    single = rows("data[0-9]*/measured_models.csv", "eager")
    single.update(rows("data/measured_models.csv", "eager"))
    graph = rows("data[0-9]*/measured_models.csv", "graph")
    graph.update(rows("data/measured_models.csv", "graph"))
    excess, by = [], collections.defaultdict(list)
    for f in sorted(glob.glob("data_plain/*/measured_plain.csv")):
        for r in csv.DictReader(open(f)):
            k = (r["case"], r["runtime"])
            if r["status"] != "ok" or k not in single or k not in graph:
                continue
            rounds, s, g = float(r["time_us"]), float(single[k]["time_us"]), float(graph[k]["time_us"])
            if rounds <= 2 * g:
                continue
            e = (s - rounds) / int(single[k]["kernels"])
            excess.append(e)
            by[f.split("/")[1]].append(e)
    print(f"{len(excess)} host-bound steps; single run minus rounds, median {statistics.median(excess):+.2f} µs "
          f"a kernel; the single run slower on {sum(e > 0 for e in excess)} of {len(excess)}")
    for b, v in sorted(by.items()):
        print(f"  {b:8} {len(v):3d} steps, median {statistics.median(v):+6.2f} µs a kernel")


if __name__ == "__main__":
    main()
