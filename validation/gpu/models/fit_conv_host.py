"""Fits what a convolution's kernel costs the host beyond any other kernel of a plain-launch
step (`model.host.runtime_conv_eager_us`, `runtime_conv_compile_us`; VALIDATION §28) on the
fastest of plain_rounds.py's five rounds of the batches named by --fit, and reports the
batches named by --check (their median and fastest rounds) as held out.

    cargo build && python3 validation/gpu/models/fit_conv_host.py --fit 12 --check 13 [--data b11-13]

(--data: the data_plain/ folder, one host's call; b11-13 is the host the fit was made on.)

The fit (110 µs eager, 53.5 compile) was written into the presets (35dabb5), then held out on another
host and failed there (9 of 14 within ±15% against 11 without it); a third host's probe ran
its convolutions as fast as its ReLUs (host_calib.py). The presets set the convolution term to 0
now; state the fit in a hardware file for a host like batch 12's (VALIDATION §28-29).

Why: measured in rounds (data_plain/), the plain-launch steps of ResNet-50 and SD 1.5's block
ran 2-3 times the host model of 14.1 / 15.5 µs a kernel even in their fastest round, where
the transformers' steps of batches 6-9 were within 15%; under the profiler (host_ops.csv)
`aten::cudnn_convolution` alone took the host 34-311 µs a call.

The model (src/runtime/mod.rs, crate::cost::hwmodel::step_time): as fit_host.py's, with
`conv_us` more host time before each kernel whose family is `conv` (the runtime adds it to
ungrouped convolutions only; batch 12 has no grouped one). Least squares of the log
error over the fitted steps, per runtime, the kernels' times fgraph's own (`--launch graph`)
and the host's time per kernel the presets' (fit_host.py), a grid of 0.5 µs.
"""
import csv, json, math, os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, HERE)
import cases as C  # noqa: E402
import fit_host  # noqa: E402



def host_us():
    return json.load(open(os.path.join(ROOT, "src", "cost", "presets", "h100.json")))["model"]["host"]


def kernels(name, runtime):
    """(time_us, is a convolution, CUDA kernels launched) of each kernel of the case's step
    under CUDA graphs."""
    return [(k["time_us"], k["family"] == "conv", k["launches"]) for k in fit_host.per_kernel(name, runtime)]


def pipeline(ks, h, conv):
    host = gpu = 0.0
    for t, is_conv, launches in ks:
        host += h * launches + (conv if is_conv else 0.0)
        gpu = max(gpu, host) + t
    return gpu


def rounds(sub):
    """(case, runtime) → (median, fastest) µs, from data_plain/SUB/measured_plain.csv."""
    out = {}
    for r in csv.DictReader(open(os.path.join(HERE, "data_plain", sub, "measured_plain.csv"))):
        if r["status"] == "ok":
            out[(r["case"], r["runtime"])] = (float(r["time_us"]), float(r["best_us"]))
    return out


def rows_of(batch, runtime, meas):
    return [(n, kernels(n, runtime), meas[(n, runtime)]) for n in C.BATCHES[batch][0] if (n, runtime) in meas]


def report(rows, h, conv, which):
    ok = 0
    for n, ks, (med, best) in rows:
        p = pipeline(ks, h, conv)
        t = best if which == "best" else med
        ok += abs(p / t - 1) <= 0.15
        print(f"  {n:34} {p:9.1f} / {t:9.1f} µs ({which}) {p / t - 1:+7.1%}   "
              f"(kernels {len(ks)}, convolutions {sum(c for _, c, _ in ks)})")
    print(f"  within ±15%: {ok} of {len(rows)}")


def main():
    arg = dict(zip(sys.argv[1::2], sys.argv[2::2]))
    fit = arg.get("--fit", "12").split(",")
    check = arg["--check"].split(",") if "--check" in arg else []
    meas = rounds(arg.get("--data", "b11-13"))
    host = host_us()
    fitted = {}
    for runtime in ("eager", "compile"):
        h = host["runtime_eager_us" if runtime == "eager" else "runtime_compile_us"]
        rows = [r for b in fit for r in rows_of(b, runtime, meas)]
        err = lambda c: sum(math.log(pipeline(ks, h, c) / best) ** 2 for _, ks, (_, best) in rows)
        conv = min((err(c / 2), c / 2) for c in range(0, 1000))[1]
        fitted[runtime] = conv
        print(f"{runtime}: {conv} µs more a convolution (host {h} µs a kernel), fitted on batches {','.join(fit)}")
        report(rows, h, conv, "best")
        print("  without it:")
        report(rows, h, 0.0, "best")
        for b in check:
            held = rows_of(b, runtime, meas)
            for which in ("best", "median"):
                print(f" held out, batch {b}, {which} round:")
                report(held, h, conv, which)


if __name__ == "__main__":
    main()
