"""Fits the host's time per CUDA kernel of `--runtime eager|compile --launch eager`
(`model.host.runtime_eager_us`, `runtime_compile_us`) on the median rounds of plain_rounds.py's
folders named by --fit, reports the folders named by --check as held out, and with --write
puts the figures into the H100 presets, with the fitted folders' median probe as
`model.host.probe_us` (issue 24, VALIDATION §43).

    cargo build --release && FGRAPH=target/release/fgraph \\
        python3 validation/gpu/models/fit_host_rounds.py \\
        --fit b6-7,b8-10,b11-13,conv13,hostcal,b14 \\
        --check b15,b16,b17,b18,b19,b20,b21,b22,b23 --input-us 0.93 [--write]

--input-us: a compiled step's host time per tensor it takes (`runtime_compile_input_us`), held
at that figure (0.93: host_parts.py's 0.71 µs at a 5.50 µs probe, scaled to the fitted folders'
7.21; VALIDATION §47) or fitted with the host's time per kernel (`fit`); without it, 0.
--conv-us: likewise the compiled host's time more per kernel that holds an ungrouped
convolution (`runtime_conv_compile_us`; fgraph's per_kernel `host_conv`); without it, 0.
--split-conv: the compiled figure fitted apart for steps with and without an ungrouped
convolution (VALIDATION §51; --write-split puts both into the presets).
--loss probe: fit the figures scaled by each round's probe over the fitted folders' median (as
`--host-probe-us` prices), not as they are. Tried in §47, not adopted: neither moved more
held-out and pre-registered compiled steps within ±15% than the figures in the presets.

The model (src/runtime/mod.rs, crate::cost::hwmodel::step_time): the GPU runs each kernel of
the plan as under a CUDA graph, and cannot start it before the host has issued its CUDA
kernels, `h` µs each (a cuDNN transpose, a split-K reduction, a Triton group norm's passes
count); under compile the host first spends `w` µs on each tensor the step takes (graph inputs
and weights: Dynamo's guards, the parameters handed over, Inductor's size-and-stride assert).
Per runtime, `h` is the least squares of the log error over the fitted steps' median
rounds, each step's predicted kernel times scaled to its measured CUDA-graph time (the host's
share alone, as fit_host.py does); the counts within ±15% are of fgraph's own prediction.

Each round has a probe beside it (`torch.add` of two small tensors, plain launches): the hosts
the folders ran on took 5.3-10 µs a probe. The report also gives the counts with `h` scaled by
the folder's probe over the fitted folders' median probe: what a host file made for the host
(host_calib.py) would give, not what the presets do.
"""
import csv, math, os, statistics, sys
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import cases as C  # noqa: E402
import fit_host  # noqa: E402


def rounds(sub):
    """(case, runtime, median µs, fastest µs, probe µs) of data_plain/SUB/measured_plain.csv."""
    path = os.path.join(HERE, "data_plain", sub, "measured_plain.csv")
    return [(r["case"], r["runtime"], float(r["time_us"]), float(r["best_us"]), float(r["probe_us"]))
            for r in csv.DictReader(open(path)) if r["status"] == "ok"
            and (sub.lstrip("b"), r["case"]) not in C.REPEATED]


def graph_times():
    """(case, runtime) → the measured CUDA-graph step µs (measure.py's single runs)."""
    out = {}
    for batch in C.BATCHES:
        path = os.path.join(HERE, "data" if batch == "1" else "data" + batch, "measured_models.csv")
        if not os.path.exists(path):
            continue
        for r in csv.DictReader(open(path)):
            if r["status"] == "ok" and r["launch"] == "graph" and (batch, r["case"]) not in C.REPEATED:
                out[(r["case"], r["runtime"])] = float(r["time_us"])
    return out


def rows_of(subs):
    """One row per (folder, case, runtime) measured in rounds and by CUDA graph: fgraph's
    kernels, the same scaled to the measured CUDA-graph step, the median, fastest and probe."""
    graph = graph_times()
    known = {n for names, *_ in C.BATCHES.values() for n in names}
    jobs = [(sub, *r) for sub in subs for r in rounds(sub) if r[0] in known and (r[0], r[1]) in graph]
    names = sorted({j[1] for j in jobs})
    with ThreadPoolExecutor(2) as ex:  # one case at a time each: write_case's file is per case
        plans = dict(zip(names, ex.map(lambda n: {rt: fit_host.runtime_json(n, rt) for rt in ("eager", "compile")},
                                       names)))
    rows = []
    for sub, name, runtime, med, best, probe in jobs:
        plan = plans[name][runtime]
        ks = [(k["time_us"], k["launches"]) for k in plan["per_kernel"]]
        f = graph[(name, runtime)] / sum(t for t, _ in ks)
        rows.append(dict(sub=sub, case=name, runtime=runtime, ks=ks, scaled=[(t * f, n) for t, n in ks],
                         convs=[k.get("host_conv", False) for k in plan["per_kernel"]],
                         inputs=plan.get("host_inputs", 0), med=med, best=best, probe=probe))
    return rows


def step(r, h, w, scale=1.0, key="ks", c=0.0):
    """The plain-launch step of row `r`: `h` µs a CUDA kernel, `c` µs more a kernel that holds
    an ungrouped convolution (`runtime_conv_*_us`), `w` µs a tensor the compiled step takes
    before its first kernel (`inputs`: 0 under eager), all times `scale`."""
    host, gpu = w * r["inputs"] * scale, 0.0
    for (t, launches), conv in zip(r[key], r["convs"]):
        host += (h * launches + (c if conv else 0.0)) * scale
        gpu = max(gpu, host) + t
    return gpu


def fit(rows, inputs=None, conv=None, ref=None):
    """(h, w, c) minimising the squared log error of the scaled pipelines: h by golden section
    to 0.01 µs; w `inputs` and c `conv` where each is a figure, over a grid (0.05 µs for w,
    0.25 for c) where it is "fit", else 0."""
    best = None
    ws = [x / 20 for x in range(0, 161)] if inputs == "fit" else [float(inputs or 0.0)]
    cs = [x / 4 for x in range(0, 241)] if conv == "fit" else [float(conv or 0.0)]
    for w in ws:
        for c in cs:
            h = fit_h(rows, w, c, ref)
            loss = sum(math.log(step(r, h, w, scale(r, ref), key="scaled", c=c) / r["med"]) ** 2 for r in rows)
            if best is None or loss < best[0]:
                best = (loss, h, w, c)
    return best[1:]


def scale(r, ref):
    """With `ref` (--loss probe): the host figures of row `r` scaled by its probe over `ref`."""
    return r["probe"] / ref if ref else 1.0


def fit_h(rows, w, conv=0.0, ref=None):
    """h minimising the squared log error of the scaled pipelines at `w` and `conv` (golden
    section)."""
    loss = lambda h: sum(math.log(step(r, h, w, scale(r, ref), key="scaled", c=conv) / r["med"]) ** 2
                         for r in rows)
    a, b, g = 1.0, 60.0, (5 ** 0.5 - 1) / 2
    c, d = b - g * (b - a), a + g * (b - a)
    fc, fd = loss(c), loss(d)
    while b - a > 0.01:
        if fc < fd:
            b, d, fd = d, c, fc
            c = b - g * (b - a)
            fc = loss(c)
        else:
            a, c, fc = c, d, fd
            d = a + g * (b - a)
            fd = loss(d)
    return round((a + b) / 2, 1)


def report(rows, h, w, probe_ref, label, c=0.0):
    fixed = scaled = fixed_best = 0
    for r in rows:
        p = step(r, h, w, c=c)
        q = step(r, h, w, r["probe"] / probe_ref, c=c)
        fixed += abs(p / r["med"] - 1) <= 0.15
        fixed_best += abs(p / r["best"] - 1) <= 0.15
        scaled += abs(q / r["med"] - 1) <= 0.15
        print(f"  {r['sub']:8} {r['case']:34} {r['runtime']:8} {p:9.1f} / {r['med']:9.1f} µs {p / r['med'] - 1:+7.1%}"
              f"  fastest {p / r['best'] - 1:+7.1%}  probe {r['probe']:4.1f} µs, scaled {q / r['med'] - 1:+7.1%}")
    n = len(rows)
    print(f" {label}: within ±15% of the median round {fixed} of {n}, of the fastest {fixed_best}; "
          f"host scaled by the probe {scaled} of {n}")


def split_conv(fit_rows, check_rows, probe_ref, w, fit_subs):
    """--split-conv (VALIDATION §51): the compiled host time per CUDA kernel fitted apart for
    the steps whose graph holds an ungrouped convolution (`runtime_compile_conv_graph_us`) and
    the others (`runtime_compile_us`), each on the figures scaled by its round's probe
    (`--loss probe`), `w` µs a tensor held; with --write-split, into the presets (the eager
    figure and the rest kept)."""
    figs = {}
    for conv, key in ((False, "runtime_compile_us"), (True, "runtime_compile_conv_graph_us")):
        pick = lambda rs: [r for r in rs if r["runtime"] == "compile" and any(r["convs"]) == conv]
        h = figs[key] = fit_h(pick(fit_rows), w, 0.0, probe_ref)
        print(f"compile, {'with' if conv else 'without'} a convolution: host {h} µs a CUDA kernel at a "
              f"{probe_ref:.2f} µs probe, {w} µs a tensor, fitted scaled by the probe on {','.join(fit_subs)}")
        report(pick(fit_rows), h, w, probe_ref, "fitted")
        if check_rows:
            report(pick(check_rows), h, w, probe_ref, "held out")
    if "--write-split" not in sys.argv:
        return
    clause = (f"; runtime_compile_us (steps without an ungrouped convolution) and runtime_compile_conv_graph_us "
              f"(with one): fitted apart, each on the figures scaled by its round's probe, by "
              f"validation/gpu/models/fit_host_rounds.py --split-conv on the median rounds of {','.join(fit_subs)} "
              f"(VALIDATION.md section 51)")
    for name in ("h100", "h100-measured", "h100-2x8"):
        path = os.path.join(fit_host.ROOT, "src", "cost", "presets", name + ".json")
        j = fit_host.json.load(open(path))
        host = {k: v for k, v in j["model"]["host"].items() if k != "runtime_compile_conv_graph_us"}
        out = {}
        for k, v in host.items():
            out[k] = figs[k] if k == "runtime_compile_us" else v
            if k == "runtime_compile_us":
                out["runtime_compile_conv_graph_us"] = figs["runtime_compile_conv_graph_us"]
        cut = out["source"].find("; runtime_compile_us (steps without")
        out["source"] = (out["source"][:cut] if cut >= 0 else out["source"]) + clause
        j["model"]["host"] = out
        fit_host.write_json(path, j)
    print("wrote", figs)


def main():
    arg = dict(zip(sys.argv[1::2], sys.argv[2::2]))
    fit_subs, check_subs = arg["--fit"].split(","), arg["--check"].split(",") if "--check" in arg else []
    fit_rows, check_rows = rows_of(fit_subs), rows_of(check_subs)
    probe_ref = statistics.median(r["probe"] for r in fit_rows)
    print(f"the fitted folders' median probe: {probe_ref:.2f} µs")
    fitted = {}
    for runtime in ("eager", "compile"):
        compiled = runtime == "compile"
        h, w, c = fitted[runtime] = fit([r for r in fit_rows if r["runtime"] == runtime],
                                        arg.get("--input-us") if compiled else None,
                                        arg.get("--conv-us") if compiled else None,
                                        probe_ref if arg.get("--loss") == "probe" else None)
        print(f"{runtime}: host {h} µs a CUDA kernel, {c} µs more a convolution's, {w} µs a tensor the step "
              f"takes, fitted on {','.join(fit_subs)}")
        report([r for r in fit_rows if r["runtime"] == runtime], h, w, probe_ref, "fitted", c)
        if check_rows:
            report([r for r in check_rows if r["runtime"] == runtime], h, w, probe_ref, "held out", c)
    if "--split-conv" in sys.argv:
        split_conv(fit_rows, check_rows, probe_ref, float(arg.get("--input-us", 0.0)), fit_subs)
    if "--write" in sys.argv:
        w = fitted["compile"][1]
        held = (f"runtime_compile_input_us ({w} us per tensor a compiled step takes) fitted with them"
                if arg.get("--input-us") == "fit" else
                f"runtime_compile_input_us held at {w} us per tensor a compiled step takes, measured by "
                "host_parts.py (VALIDATION.md section 47)")
        source = (f"runtime_eager_us and runtime_compile_us: fitted per CUDA kernel ({held}) by "
                  f"validation/gpu/models/fit_host_rounds.py on the median rounds of {','.join(fit_subs)} "
                  "(plain_rounds.py, fgraph emit torch modules, torch 2.11, H100 80GB HBM3; probe_us is "
                  "those rounds' median probe)")
        for name in ("h100", "h100-measured", "h100-2x8"):
            path = os.path.join(fit_host.ROOT, "src", "cost", "presets", name + ".json")
            j = fit_host.json.load(open(path))
            host = j["model"]["host"]
            old = host["source"]
            start = old.find("runtime_eager_us and runtime_compile_us: fitted")
            tail = "those rounds' median probe)"
            end = old.find(tail, start) + len(tail) if old.find(tail, start) >= 0 else old.find(")", start) + 1
            host["source"] = old[:start] + source + old[end:] if start >= 0 else old + "; " + source
            host["runtime_eager_us"], host["runtime_compile_us"] = fitted["eager"][0], fitted["compile"][0]
            if "--conv-us" in arg:
                host["runtime_conv_compile_us"] = fitted["compile"][2]
            host.pop("probe_us", None)
            host.pop("runtime_compile_input_us", None)
            # The keys where fgraph hardware prints them: probe_us after runtime_compile_us,
            # runtime_compile_input_us after runtime_conv_compile_us.
            after = {"runtime_compile_us": [("probe_us", round(probe_ref, 2))],
                     "runtime_conv_compile_us": [("runtime_compile_input_us", fitted["compile"][1])]}
            j["model"]["host"] = {k2: v2 for k, v in host.items() for k2, v2 in [(k, v)] + after.get(k, [])}
            fit_host.write_json(path, j)


if __name__ == "__main__":
    main()
