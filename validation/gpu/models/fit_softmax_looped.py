"""Fits `model.families.softmax_looped` (VALIDATION.md §50): Inductor's looped online softmax
under a causal mask (`triton_red_fused__softmax_exp_masked_fill_mul_prepare_softmax_online_*`,
rows of more than 1,024 columns) on the compiled steps' profiler traces of the whole-model
batches, and with --write puts it into the H100 presets.

    cargo build --release && FGRAPH=target/release/fgraph \\
        python3 validation/gpu/models/fit_softmax_looped.py [--write]

The model (src/runtime/seam.rs `looped_masked_softmax`, src/cost/hwmodel/memory.rs): the
kernel moves its input and output, each row padded to a multiple of 2,048 columns
(`LOOPED_ROW_BLOCK`), at `bandwidth_efficiency` of the HBM bandwidth, plus `overhead_us`
(held at the `softmax` family's 3.0). fgraph prices every such kernel at efficiency 1 (a
hardware file), so each kernel's time at efficiency e is `overhead + memory_us / e`; e is the
least squares of the log error over the fitted kernels, one row per (case, median kernel).

Fitted: the steps whose rows are 2,048 columns (no padding). Held out: every other row
length (Llama-3.2-1B at 1,536, Mistral-7B at 4,096), and the probe (smx_probe/).
"""
import json, math, os, statistics, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import cases as C  # noqa: E402
import fit_host  # noqa: E402

OVERHEAD_US = 3.0
ELEMENTS_PER_S = 866e9  # the elementwise family's: the kernel stays memory-bound
PRESETS = ("h100", "h100-measured", "h100-2x8")


def unit_file():
    """The H100 preset with `softmax_looped` at efficiency 1 and no start-up."""
    j = json.load(open(os.path.join(fit_host.ROOT, "src", "cost", "presets", "h100.json")))
    j["model"]["families"]["softmax_looped"] = {"bandwidth_efficiency": 1.0,
                                                "elements_per_s": 1e15, "overhead_us": 0.0}
    f = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
    json.dump(j, f)
    f.close()
    return f.name


def softmax_kernels(name, hw_file):
    """fgraph's compiled step of the case under CUDA graphs on `hw_file`: its softmax kernels."""
    p = C.write_case(name)
    try:
        r = subprocess.run([C.BIN, "analyze", "--format", "json", "--traffic-model", "hardware",
                            "--hardware-file", hw_file, "--runtime", "compile", "--launch", "graph", p]
                           + C.sets(name), capture_output=True, text=True)
    finally:
        os.unlink(p)
    return [k for k in json.loads(r.stdout)["cost"]["runtime"]["per_kernel"] if k["family"] == "softmax"]


def rows():
    """(batch, case, fgraph's memory µs at efficiency 1, traced median µs) of each step whose
    trace holds the kernel (prefills: the decodes' few rows are left out)."""
    hw = unit_file()
    out = []
    try:
        for b, case, ks in C.traced_steps("compile", ""):
            traced = [float(k["duration_us"]) for k in ks if k["name"].startswith("triton_red")
                      and "masked_fill" in k["name"] and "prepare_softmax_online" in k["name"]
                      and float(k["duration_us"]) > 20]
            if not traced:
                continue
            pk = softmax_kernels(case, hw)
            big = [k for k in pk if k["memory_us"] > 20]
            if len(big) != len(traced):
                print(f"# {case}: {len(traced)} traced, {len(big)} priced: left out")
                continue
            mem = statistics.median(k["memory_us"] for k in big)
            out.append((b, case, mem, statistics.median(traced)))
    finally:
        os.unlink(hw)
    return out


def predict(mem, e):
    return OVERHEAD_US + mem / e


def main():
    rs = rows()
    # Rows of 2,048: the cases fgraph pads nothing (memory at efficiency 1 equals the bytes'
    # time); told apart by the spec's sequence length.
    fit = [r for r in rs if C.spec(r[1])[1].get("S", 2048) == 2048 and "s4096" not in r[1]
           and "s1536" not in r[1]]
    held = [r for r in rs if r not in fit]
    best = min((sum(math.log(predict(m, e / 1000) / t) ** 2 for _, _, m, t in fit), e / 1000)
               for e in range(200, 1001))
    e = best[1]
    print(f"softmax_looped: bandwidth_efficiency {e} ({e * 3.35:.2f} TB/s), overhead_us {OVERHEAD_US}, "
          f"fitted on {len(fit)} steps' kernels")
    for label, group in (("fitted", fit), ("held out", held)):
        for b, case, m, t in group:
            p = predict(m, e)
            print(f"  {label:8} b{b:3} {case:34} {p:8.1f} / {t:8.1f} µs {p / t - 1:+7.1%}")
    if "--write" in sys.argv:
        for name in PRESETS:
            path = os.path.join(fit_host.ROOT, "src", "cost", "presets", name + ".json")
            j = json.load(open(path))
            fam = j["model"]["families"]
            fam.pop("softmax_looped", None)
            new = {}
            for k, v in fam.items():
                if k == "cat":
                    new["softmax_looped"] = {"bandwidth_efficiency": e, "elements_per_s": ELEMENTS_PER_S,
                                             "overhead_us": OVERHEAD_US}
                new[k] = v
            j["model"]["families"] = new
            clause = ("; (issue 24, validation/gpu/models/fit_softmax_looped.py) families.softmax_looped: "
                      "fitted on the profiler traces of Inductor's looped masked softmax kernels of the "
                      "whole-model batches' compiled steps over rows of 2,048")
            src = j["model"]["source"]
            if "families.softmax_looped" not in src:
                j["model"]["source"] = src + clause
            fit_host.write_json(path, j)
        print("wrote", ", ".join(PRESETS))


if __name__ == "__main__":
    main()
