"""Fits `model.families.softmax_looped_masked` and `softmax_looped` (VALIDATION.md §50):
Inductor's looped softmax over rows of more than 1,024 columns, under a causal mask
(`triton_red_fused__softmax_exp_masked_fill_mul_prepare_softmax_online_*`) and without one
(`triton_red_fused__softmax__to_copy_amax_*`), and with --write puts them into the H100
presets.

    cargo build --release && FGRAPH=target/release/fgraph \\
        python3 validation/gpu/models/fit_softmax_looped.py [--write]

The model (src/runtime/seam.rs `looped_softmax`, src/cost/hwmodel/memory.rs): the kernel
moves its input and output, each row padded to a multiple of 2,048 columns
(`LOOPED_ROW_BLOCK`), at `bandwidth_efficiency` of the HBM bandwidth, plus `overhead_us`
(held at the `softmax` family's 3.0). fgraph prices every such kernel at efficiency 1 (a
hardware file), so its time at efficiency e is `overhead + memory_us / e`; e is the least
squares of the log error over the fitted kernels.

- masked: fitted on the compiled prefills' profiler traces (whole-model batches, one row per
  step: its median kernel) over rows of 2,048; held out: the other row lengths (Llama-3.2-1B
  at 1,536, Mistral-7B at 4,096) and the probe's 23 masked shapes (smx_probe/, predicted in
  smx_probe/predictions.csv before they were measured);
- unmasked: fitted on the probe's unmasked shapes over rows of 2,048 and 4,096; held out: its
  rows of 1,536 and 3,072 and the whole-model traces (Llama-3-8B's prefills at 4,096 and
  3,072, the decodes' kernels).
"""
import csv, json, math, os, statistics, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import cases as C  # noqa: E402
import fit_host  # noqa: E402

sys.path.insert(0, os.path.join(HERE, "smx_probe"))
import shapes as S  # noqa: E402

ELEMENTS_PER_S = 866e9  # the elementwise family's: the kernel stays memory-bound
PRESETS = ("h100", "h100-measured", "h100-2x8")


PROBE = os.path.join(HERE, "smx_probe")
VARIANTS = {"plain": "softmax_looped", "masked": "softmax_looped_masked"}  # the presets' order


def unit_file(e=1.0):
    """The H100 preset with both looped families at efficiency `e` and no start-up."""
    j = json.load(open(os.path.join(fit_host.ROOT, "src", "cost", "presets", "h100.json")))
    for fam in VARIANTS.values():
        j["model"]["families"][fam] = {"bandwidth_efficiency": e, "elements_per_s": 1e15, "overhead_us": 0.0}
    f = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
    json.dump(j, f)
    f.close()
    return f.name


def discount_us():
    """The presets' `host.stream_discount_us`: what a kernel's price loses in a stream."""
    j = json.load(open(os.path.join(fit_host.ROOT, "src", "cost", "presets", "h100.json")))
    return j["model"]["host"]["stream_discount_us"]


def softmax_kernels(path, hw, sets=()):
    """fgraph's compiled step of the `.fgraph` at `path` under CUDA graphs: the memory µs of
    each softmax kernel it prices as a looped softmax (`hw`: two hardware files, the looped
    families at efficiency 1 and 0.5; a kernel whose time doubles is one)."""
    out = []
    for f in hw:
        r = subprocess.run([C.BIN, "analyze", "--format", "json", "--traffic-model", "hardware",
                            "--hardware-file", f, "--runtime", "compile", "--launch", "graph", path]
                           + list(sets), capture_output=True, text=True)
        out.append([k["memory_us"] for k in json.loads(r.stdout)["cost"]["runtime"]["per_kernel"]
                    if k["family"] == "softmax"])
    return [a for a, b in zip(*out) if a > 0 and abs(b / a - 2.0) < 1e-3]


def variant(kernel_name):
    if not kernel_name.startswith("triton_red") or "softmax" not in kernel_name:
        return None
    return "masked" if "masked_fill" in kernel_name else "plain"


def step_rows(hw):
    """(source, variant, case, fgraph's memory µs at efficiency 1, traced µs) of each compiled
    step whose trace holds looped softmax kernels of one variant, as many as fgraph prices:
    the median kernel of each."""
    out = []
    for b, case, ks in C.traced_steps("compile", ""):
        found = {}
        for k in ks:
            v = variant(k["name"])
            if v:
                found.setdefault(v, []).append(float(k["duration_us"]))
        if len(found) != 1:
            continue
        (v, traced), = found.items()
        p = C.write_case(case)
        try:
            pk = softmax_kernels(p, hw, C.sets(case))
        finally:
            os.unlink(p)
        if len(pk) != len(traced):
            print(f"# b{b} {case}: {len(traced)} traced, {len(pk)} priced: left out")
            continue
        if pk:
            out.append((f"b{b}", v, case, statistics.median(pk), statistics.median(traced)))
    return out


def probe_rows(hw):
    """The same for the probe's shapes (smx_probe/data: one kernel each, L2 flushed)."""
    measured = {r["case"]: float(r["duration_us"])
                for r in csv.DictReader(open(os.path.join(PROBE, "data", "smx", "smx_kernels.csv")))}
    out = []
    for h, s, masked in S.SHAPES:
        name = S.name(h, s, masked)
        if name in measured:
            pk = softmax_kernels(os.path.join(PROBE, "fgraph", name + ".fgraph"), hw)
            out.append(("probe", "masked" if masked else "plain", name, pk[0], measured[name]))
    return out


def predict(source, mem, e, discount, overhead):
    """The kernel's price: alone (the probe), or in a stream (a step's trace), as
    `Pricing::in_stream` discounts it."""
    alone = overhead + mem / e
    return alone if source == "probe" else max(alone - discount, alone / 2)


def fitted(row):
    """Whether `row` is in the fit of its family's efficiency: masked, a whole-model prefill
    over rows of 2,048; unmasked, a probe shape over rows of 2,048 or 4,096."""
    source, v, case = row[:3]
    if v == "masked":
        return source != "probe" and "prefill" in case and C.spec(case)[1].get("S", 2048) == 2048 \
            and not any(t in case for t in ("s1536", "s4096"))
    return source == "probe" and any(case.endswith(f"_s{n}_plain") for n in (2048, 4096))


def start_up(row):
    """Whether `row` is in the fit of the start-up both families share: an unmasked kernel of
    a whole-model decode (a few rows, a few µs in the step)."""
    return row[1] == "plain" and row[0] != "probe" and "decode" in row[2]


def least(rows, f, grid):
    return min((sum(math.log(f(r, x) / r[4]) ** 2 for r in rows), x) for x in grid)[1]


def main():
    hw = (unit_file(1.0), unit_file(0.5))
    try:
        rs = step_rows(hw) + probe_rows(hw)
    finally:
        for f in hw:
            os.unlink(f)
    d = discount_us()
    effs, overhead = {}, 3.0
    for _ in range(3):  # the efficiencies at the start-up, the start-up at the efficiencies
        for v, fam in VARIANTS.items():
            effs[fam] = least([r for r in rs if r[1] == v and fitted(r)],
                              lambda r, x: predict(r[0], r[3], x, d, overhead), [x / 1000 for x in range(200, 1001)])
        overhead = least([r for r in rs if start_up(r)],
                         lambda r, x: predict(r[0], r[3], effs[VARIANTS[r[1]]], d, x), [x / 20 for x in range(20, 161)])
    print(f"start-up {overhead} µs (alone; {overhead - d} in a stream), fitted on "
          f"{sum(map(start_up, rs))} unmasked decode kernels")
    for v, fam in VARIANTS.items():
        e = effs[fam]
        print(f"{fam}: bandwidth_efficiency {e} ({e * 3.35:.2f} TB/s), fitted on "
              f"{sum(1 for r in rs if r[1] == v and fitted(r))} kernels")
        for label, pick in (("fitted", lambda r: fitted(r) or start_up(r)),
                            ("held out", lambda r: not (fitted(r) or start_up(r)))):
            group = [r for r in rs if r[1] == v and pick(r)]
            within = 0
            for source, _, case, m, t in group:
                p = predict(source, m, e, d, overhead)
                within += abs(p / t - 1) <= 0.10
                print(f"  {label:8} {source:5} {case:36} {p:8.1f} / {t:8.1f} µs {p / t - 1:+7.1%}")
            print(f"  {label}: {within} of {len(group)} within ±10%")
    if "--write" in sys.argv:
        for name in PRESETS:
            path = os.path.join(fit_host.ROOT, "src", "cost", "presets", name + ".json")
            j = json.load(open(path))
            fam = {k: v for k, v in j["model"]["families"].items() if k not in effs}
            new = {}
            for k, v in fam.items():
                if k == "cat":
                    for f, e in effs.items():
                        new[f] = {"bandwidth_efficiency": e, "elements_per_s": ELEMENTS_PER_S,
                                  "overhead_us": overhead}
                new[k] = v
            j["model"]["families"] = new
            clause = ("; (issue 24, validation/gpu/models/fit_softmax_looped.py) families.softmax_looped_masked: "
                      "fitted on the profiler traces of Inductor's looped masked softmax kernels of the "
                      "whole-model batches' compiled prefills over rows of 2,048; families.softmax_looped: on "
                      "the unmasked shapes of validation/gpu/models/smx_probe over rows of 2,048 and 4,096")
            src = j["model"]["source"]
            cut = src.find("; (issue 24, validation/gpu/models/fit_softmax_looped.py)")
            j["model"]["source"] = (src[:cut] if cut >= 0 else src) + clause
            fit_host.write_json(path, j)
        print("wrote", ", ".join(PRESETS))


if __name__ == "__main__":
    main()
