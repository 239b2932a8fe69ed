"""A host's plain-launch figures from two probes, and the cases predicted with them (issue 24,
VALIDATION §29).

    cargo build && python3 validation/gpu/models/host_calib.py DATA [--write DIR]
    cargo build && python3 validation/gpu/models/host_calib.py --probe US|measure --write DIR

--probe: the preset's host figures scaled to your host by its probe alone (US µs per
`torch.add` of two small tensors launched one after another, the probe plain_rounds.py times
beside every round; `measure` times it on this machine, which needs PyTorch and the GPU), over
the probe of the hosts they were fitted on (`model.host.probe_us`): DIR/h100-host-probe.json. Over batches 15-23's held-out steps this put more steps within ±15%
than the preset did on their hosts (VALIDATION §43).

Your own host: on the machine, `python3 validation/gpu/models/plain_rounds.py OUT
validation/gpu/models/host/emitted` (the two probes, about a minute; add your cases' emitted
modules to the folder to have them checked too), then here `host_calib.py OUT --write DIR`:
DIR/h100-host-median.json is the H100 preset with your host's figures, for `--hardware-file`.

DATA holds plain_rounds.py's measured_plain.csv of a folder that had the host probes
(cases.py --emit-probes: `host_decode`, a TinyLlama-shaped decode at hidden 256 whose every
kernel waits on the host, and `host_conv`, a chain of 16 small ungrouped convolutions) among
the cases, all timed in the same interleaved rounds. For the median and for the fastest round,
per runtime:
- the host's time per kernel (`model.host.runtime_eager_us` / `runtime_compile_us`) is what
  makes fgraph's plain-launch step of `host_decode` (its kernels' CUDA-graph times from
  `analyze --launch graph`, the host pipeline of fit_host.py) equal the measured one;
- the time a convolution adds (`runtime_conv_eager_us` / `runtime_conv_compile_us`) is what
  then makes `host_conv`'s step equal.
The H100 preset with those four figures (`fgraph hardware h100 --format json`, `model.host`
changed) prices every other case of DATA (`--hardware-file`), against the same statistic of
its rounds, beside the preset's own figures. The probes are fitted; the cases are not.
"""
import csv, json, os, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import cases as C  # noqa: E402
import fit_conv_host as F  # noqa: E402

PROBES = ("host_decode", "host_conv")
KEYS = {"eager": ("runtime_eager_us", "runtime_conv_eager_us"),
        "compile": ("runtime_compile_us", "runtime_conv_compile_us")}


def solve(f, target, lo=0.0, hi=2000.0):
    """x in [lo, hi] with f(x) = target, f increasing (bisection)."""
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if f(mid) < target else (lo, mid)
    return round((lo + hi) / 2, 2)


def predict(name, runtime, hw_file=None):
    p = C.write_case(name)
    hw = ["--hardware-file", hw_file] if hw_file else ["--hardware", "h100"]
    try:
        r = subprocess.run([C.BIN, "analyze", "--format", "json", "--traffic-model", "hardware", *hw,
                            "--runtime", runtime, "--launch", "eager", p] + C.sets(name), capture_output=True, text=True)
    finally:
        os.unlink(p)
    return json.loads(r.stdout)["cost"]["runtime"]["time_us"]


def measured_probe():
    """This machine's probe (PyTorch and a CUDA GPU needed): the median of five of
    plain_rounds.py's probes, µs."""
    import statistics
    import plain_rounds  # noqa: E402 (imports torch)
    plain_rounds.probe()  # warm-up
    return round(statistics.median(plain_rounds.probe() for _ in range(5)), 2)


def by_probe(probe, out):
    """The H100 preset with its host's figures scaled to a host whose probe (`torch.add` of two
    small tensors, plain launches, as plain_rounds.py times it) takes `probe` µs: each figure
    times probe / `model.host.probe_us` (the probe of the hosts they were fitted on)."""
    hw = json.loads(subprocess.run([C.BIN, "hardware", "h100", "--format", "json"], capture_output=True,
                                   text=True, check=True).stdout)
    host = hw["model"]["host"]
    scale = probe / host["probe_us"]
    for key in ("runtime_eager_us", "runtime_compile_us", "runtime_compile_conv_graph_us", "runtime_conv_eager_us",
                "runtime_conv_compile_us", "runtime_compile_input_us"):
        if key not in host:
            continue
        print(f"{key}: {host[key]} µs -> {round(host[key] * scale, 2)} µs (probe {probe} µs, preset's {host['probe_us']})")
        host[key] = round(host[key] * scale, 2)
    host["probe_us"] = probe
    host["source"] = f"host_calib.py --probe {probe} (the preset's host figures scaled by the probe): " + host["source"]
    path = os.path.join(out, "h100-host-probe.json")
    with open(path, "w") as fh:
        json.dump(hw, fh, indent=2, ensure_ascii=False)
        fh.write("\n")
    print(f"wrote {path}")


def main():
    out = sys.argv[sys.argv.index("--write") + 1] if "--write" in sys.argv else tempfile.mkdtemp()
    os.makedirs(out, exist_ok=True)
    if "--probe" in sys.argv:
        arg = sys.argv[sys.argv.index("--probe") + 1]
        return by_probe(measured_probe() if arg == "measure" else float(arg), out)
    data = sys.argv[1]
    meas = {}
    for r in csv.DictReader(open(os.path.join(data, "measured_plain.csv"))):
        if r["status"] == "ok":
            meas[(r["case"], r["runtime"])] = {"median": float(r["time_us"]), "fastest": float(r["best_us"])}
    preset = json.loads(subprocess.run([C.BIN, "hardware", "h100", "--format", "json"], capture_output=True,
                                       text=True, check=True).stdout)
    cases = sorted({c for c, _ in meas if c not in PROBES})
    for stat in ("median", "fastest"):
        hw = json.loads(json.dumps(preset))
        host = hw["model"]["host"]
        for runtime, (k_kernel, k_conv) in KEYS.items():
            dec, conv = F.kernels("host_decode", runtime), F.kernels("host_conv", runtime)
            h = solve(lambda x: F.pipeline(dec, x, 0.0), meas[("host_decode", runtime)][stat])
            c = solve(lambda x: F.pipeline(conv, h, x), meas[("host_conv", runtime)][stat])
            host[k_kernel], host[k_conv] = h, c
            # The probes measure a figure per kernel and a convolution's more, not the
            # presets' figure per kernel of a graph with a convolution (VALIDATION §51): the
            # calibrated file prices every compiled graph with the former.
            host.pop("runtime_compile_conv_graph_us", None)
            print(f"{stat}: {runtime} host {h} µs a kernel (preset {preset['model']['host'].get(k_kernel)}), "
                  f"{c} µs more a convolution (preset {preset['model']['host'].get(k_conv, 0)})")
        host["source"] = f"host_calib.py on {data} ({stat} round): " + host["source"]
        path = os.path.join(out, f"h100-host-{stat}.json")
        with open(path, "w") as fh:
            json.dump(hw, fh, indent=2, ensure_ascii=False)
            fh.write("\n")
        ok = ok0 = n = 0
        for name in cases:
            for runtime in KEYS:
                if (name, runtime) not in meas:
                    continue
                t = meas[(name, runtime)][stat]
                p, p0 = predict(name, runtime, path), predict(name, runtime)
                n += 1
                ok += abs(p / t - 1) <= 0.15
                ok0 += abs(p0 / t - 1) <= 0.15
                print(f"  {name:34} {runtime:8} {t:10.1f} µs  calibrated {p / t - 1:+7.1%}  preset {p0 / t - 1:+7.1%}")
        print(f" {stat} round within ±15%: {ok} of {n} with the probes' host, {ok0} with the preset's")


if __name__ == "__main__":
    main()
