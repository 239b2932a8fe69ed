"""§57: transformers' SDPA step as it runs while traced — under torch.compile and under a
CUDA-graph capture — against `fgraph import hf --ops transformers --attn sdpa-traced`.

transformers skips the causal mask (and uses SDPA's `enable_gqa`) only when it is not
tracing; a CUDA-graph capture counts as tracing, so the step measure.py captures and replays
builds the mask, repeats K and V to every head and passes the mask (data/gap_h200). The
plain-launch eager step does not. So each mode is predicted from the file of the path it runs:

| runtime, launch | transformers runs | file |
|---|---|---|
| eager, graph | traced | `--attn sdpa-traced` |
| eager, plain | not traced | `--attn sdpa` |
| compile, either | traced | `--attn sdpa-traced` |

`FGRAPH=target/release/fgraph python3 traced.py compare`: the sdpa cases already measured
(data/hf3, data/hf4: §56's prefills and decodes) predicted from the files the importer writes
now (files_traced/: `CASE.fgraph` traced, `CASE_untraced.fgraph` not); the table to standard
output.
`... traced.py --sixth`: held-out cases (MODELS6) written before measuring: cases6/
(transformers' models, sdpa, for measure.py), files6/ (both files of each case), emitted6/
(the traced files' modules) and predictions_6.json, each mode from its file as above.
`... traced.py --sixth-b`: the same cases' files as the importer writes them after §58
(`matmul(x, w, b)`), files6b/, and predictions_6b.json, written before measuring.
`... traced.py --sixth-compare`: once measured (data/hf6, data/em6), the table of the held-out
cases, pre-registered (both) and now.
`... traced.py --gpt2`: §62's held-out GPT-2 cases (MODELS_GPT2: transformers' GPT-2 under
`--ops transformers`, §61), written before measuring as `--sixth` writes its own: cases_gpt2/,
files_gpt2/, emitted_gpt2/ and predictions_gpt2.json; `--gpt2-b`: the same files predicted
again after §62's horizontal-fusion rules, before any H100 measurement (predictions_gpt2b.json);
`--gpt2-compare` once measured (data/hfg, data/emg): both pre-registrations and now."""
import json
import os
import subprocess
import sys

from compare import BIN, HERE, ROOT, measured
from make import MODELS3, MODELS4, fgraph_file, write_case

# §57, held out: sizes and configs no file of §56 had; name: (config, batch, seq or context,
# dtype, decode).
MODELS6 = {
    "qwen2_5_0_5b_decode_b8_t1023": ("qwen2_5_0_5b_config.json", 8, 1023, "bf16", True),
    "tinyllama_decode_b1_t2047": ("tinyllama_1_1b_config.json", 1, 2047, "bf16", True),
    "llama3_2_1b_decode_b16_t511": ("llama3_2_1b_config.json", 16, 511, "bf16", True),
    "qwen2_5_7b_l4_decode_b4_t1535": ("qwen2_5_7b_l4_config.json", 4, 1535, "bf16", True),
    "qwen2_5_0_5b_b2_s768": ("qwen2_5_0_5b_config.json", 2, 768, "bf16", False),
    "llama3_2_1b_b1_s1536": ("llama3_2_1b_config.json", 1, 1536, "bf16", False),
}
# §62, held out: transformers' GPT-2 (§61's writer, never timed on an H100) at depths and
# sizes no GPT-2 step had; the same tuple.
MODELS_GPT2 = {
    "gpt2_medium_b4_s384": ("gpt2_medium_config.json", 4, 384, "bf16", False),
    "gpt2_large_b2_s640": ("gpt2_large_config.json", 2, 640, "bf16", False),
    "gpt2_xl_b1_s896": ("gpt2_xl_config.json", 1, 896, "f16", False),
    "gpt2_medium_decode_b8_t767": ("gpt2_medium_config.json", 8, 767, "bf16", True),
    "gpt2_large_decode_b1_t511": ("gpt2_large_config.json", 1, 511, "bf16", True),
    "gpt2_xl_decode_b16_t383": ("gpt2_xl_config.json", 16, 383, "f16", True),
}
MODES = [("eager", "graph", "traced"), ("eager", "eager", "sdpa"), ("compile", "graph", "traced"),
         ("compile", "eager", "traced")]


def imported(config, batch, seq, dtype, decode, attn):
    context, seq = (seq, 1) if decode else (None, seq)
    return fgraph_file(config, batch, seq, dtype, attn, True, context)


def predict(path, runtime, launch):
    r = subprocess.run([BIN, "analyze", "--format", "json", "--traffic-model", "hardware", "--runtime", runtime,
                        "--launch", launch, os.path.relpath(path, ROOT)], capture_output=True, text=True, cwd=ROOT)
    rt = json.loads(r.stdout)["cost"]["runtime"]
    return round(rt["time_us"], 3), rt["kernels"]


def err(p, m):
    return f"{(p / m - 1) * 100:+6.1f}%"


def compare():
    os.makedirs(os.path.join(HERE, "files_traced"), exist_ok=True)
    within = {"graph": [0, 0], "eager": [0, 0]}
    print(f"{'case':34} {'runtime':8} {'launch':6} {'file':7} {'fgraph µs':>10} {'k':>5} | {'measured':>9} "
          f"{'k':>5} {'error':>7}")
    for tail, models, decode in (("3", MODELS3, False), ("4", MODELS4, True)):
        hf = measured("hf" + tail)
        for name, (config, batch, seq, dtype) in models.items():
            case = f"{name}_sdpa"
            traced = os.path.join(HERE, "files_traced", case + ".fgraph")
            try:
                text = imported(config, batch, seq, dtype, decode, "sdpa-traced")
            except SystemExit as e:
                print(f"{case}: {e}")
                continue
            with open(traced, "w") as fh:
                fh.write(text)
            # The untraced step's file as the importer writes it now (files3/, files4/: as
            # §56 pre-registered it, before `matmul(x, w, b)` took Qwen2's biases, §58).
            untraced = os.path.join(HERE, "files_traced", case + "_untraced.fgraph")
            with open(untraced, "w") as fh:
                fh.write(imported(config, batch, seq, dtype, decode, "sdpa"))
            for runtime, launch, which in MODES:
                m = hf.get((case, runtime, launch))
                if not m:
                    continue
                path = traced if which == "traced" else untraced
                p, k = predict(path, runtime, launch)
                e = p / m[0] - 1
                target = 0.10 if launch == "graph" else 0.15
                within[launch][0] += abs(e) <= target
                within[launch][1] += 1
                print(f"{case:34} {runtime:8} {launch:6} {which:7} {p:10.1f} {k:5d} | {m[0]:9.1f} {m[1]:5d} "
                      f"{err(p, m[0]):>7}")
    print(f"CUDA graphs: {within['graph'][0]} of {within['graph'][1]} within ±10%; plain launches: "
          f"{within['eager'][0]} of {within['eager'][1]} within ±15%")


def sixth(second=False):
    """`--sixth`: cases6/, files6/, emitted6/ and predictions_6.json. `--sixth-b` (§58, after
    `matmul(x, w, b)` took Qwen2's biases, before any of them was measured): the files the
    importer writes now, files6b/, and their predictions, predictions_6b.json; the cases and
    the emitted modules stay (the modules are files6/'s traced files)."""
    if second:
        held_out(MODELS6, None, "files6b", None, "predictions_6b.json")
    else:
        held_out(MODELS6, "cases6", "files6", "emitted6", "predictions_6.json")


def held_out(models, cases, files, emitted, predictions):
    """For each case of `models`: transformers' model (cases/, for measure.py) unless `cases`
    is None, both files the importer writes (files/CASE_traced.fgraph and CASE_sdpa.fgraph),
    the traced file's module (emitted/) unless `emitted` is None, and each mode's prediction
    from the file of the path it runs (predictions, in this folder)."""
    for d in (cases, files, emitted):
        if d:
            os.makedirs(os.path.join(HERE, d), exist_ok=True)
    preds = []
    for name, (config, batch, seq, dtype, decode) in models.items():
        case = f"{name}_sdpa"
        context, step = (seq, 1) if decode else (None, seq)
        if cases:
            write_case(case, config, batch, step, dtype, "sdpa", cases, context)
        paths = {}
        for which, attn in (("traced", "sdpa-traced"), ("sdpa", "sdpa")):
            paths[which] = os.path.join(HERE, files, f"{case}_{which}.fgraph")
            with open(paths[which], "w") as fh:
                fh.write(imported(config, batch, seq, dtype, decode, attn))
        if emitted:
            r = subprocess.run([BIN, "emit", "torch", os.path.relpath(paths["traced"], ROOT), "-o",
                                os.path.join(HERE, emitted, case + ".py")], capture_output=True, text=True,
                               cwd=ROOT)
            if r.returncode != 0:
                sys.exit(f"{case}: emit failed\n{r.stderr[-2000:]}")
        for runtime, launch, which in MODES:
            p, k = predict(paths[which], runtime, launch)
            preds.append(dict(case=case, runtime=runtime, launch=launch, file=which, time_us=p, kernels=k))
            print(preds[-1], flush=True)
    with open(os.path.join(HERE, predictions), "w") as fh:
        json.dump(preds, fh, indent=1)
        fh.write("\n")


def sixth_compare():
    """The held-out cases once measured: transformers' models in data/hf6 (`measure.py
    hf_real/cases6 data/hf6`) and the traced files' modules in data/em6 (`measure.py
    hf_real/emitted6 data/em6`), against both pre-registrations (predictions_6.json, and
    predictions_6b.json from files6b/, §58) and the files6b/ predictions now; the modules
    against their files6/ traced files now."""
    pre = json.load(open(os.path.join(HERE, "predictions_6.json")))
    pre_b = {(p["case"], p["runtime"], p["launch"]): p for p in
             json.load(open(os.path.join(HERE, "predictions_6b.json")))}
    hf, em = measured("hf6"), measured("em6") if os.path.isdir(os.path.join(HERE, "data", "em6")) else {}
    counts = {}
    print(f"{'case':34} {'runtime':8} {'launch':6} {'file':7} {'pre µs':>9} {'pre-b µs':>9} {'now µs':>9} | "
          f"{'HF µs':>9} {'pre':>7} {'pre-b':>7} {'now':>7} | {'module µs':>9} {'now':>7}")
    for p in pre:
        case, runtime, launch, which = p["case"], p["runtime"], p["launch"], p["file"]
        b = pre_b[(case, runtime, launch)]["time_us"]
        now, _ = predict(os.path.join(HERE, "files6b", f"{case}_{which}.fgraph"), runtime, launch)
        h, e = hf.get((case, runtime, launch)), em.get((case, runtime, launch))
        target = 0.10 if launch == "graph" else 0.15
        for key, m in (("pre", h and p["time_us"]), ("pre-b", h and b), ("now", h and now)):
            if m:
                c = counts.setdefault((key, launch), [0, 0])
                c[0] += abs(m / h[0] - 1) <= target
                c[1] += 1
        hs = (f"{h[0]:9.1f} {err(p['time_us'], h[0]):>7} {err(b, h[0]):>7} {err(now, h[0]):>7}" if h
              else f"{'-':>9} {'':7} {'':7} {'':7}")
        es = f"{'':9} {'':7}"
        if e and which == "traced":
            module, _ = predict(os.path.join(HERE, "files6", f"{case}_{which}.fgraph"), runtime, launch)
            es = f"{e[0]:9.1f} {err(module, e[0]):>7}"
        print(f"{case:34} {runtime:8} {launch:6} {which:7} {p['time_us']:9.1f} {b:9.1f} {now:9.1f} | {hs} | {es}")
    for (key, launch), (n, t) in sorted(counts.items()):
        print(f"transformers, {launch}, {key}: {n} of {t} within ±{10 if launch == 'graph' else 15}%")


def gpt2_b():
    """predictions_gpt2b.json: files_gpt2/ as committed, predicted by the binary now (§62's
    horizontal-fusion rules), before any of them was measured on an H100."""
    preds = []
    for p in json.load(open(os.path.join(HERE, "predictions_gpt2.json"))):
        path = os.path.join(HERE, "files_gpt2", f"{p['case']}_{p['file']}.fgraph")
        t, k = predict(path, p["runtime"], p["launch"])
        preds.append(dict(p, time_us=t, kernels=k))
        print(preds[-1], flush=True)
    with open(os.path.join(HERE, "predictions_gpt2b.json"), "w") as fh:
        json.dump(preds, fh, indent=1)
        fh.write("\n")


def gpt2_compare():
    """§62's held-out GPT-2 cases once measured: transformers' models (data/hfg: `measure.py
    hf_real/cases_gpt2 hf_real/data/hfg`) against predictions_gpt2.json and against the files
    the importer writes now, and the traced files' modules (data/emg) against their files."""
    pre = json.load(open(os.path.join(HERE, "predictions_gpt2.json")))
    pre_b = {(p["case"], p["runtime"], p["launch"]): p["time_us"] for p in
             json.load(open(os.path.join(HERE, "predictions_gpt2b.json")))}
    hf = measured("hfg")
    em = measured("emg") if os.path.isdir(os.path.join(HERE, "data", "emg")) else {}
    counts = {}
    print(f"{'case':34} {'runtime':8} {'launch':6} {'file':7} {'pre µs':>9} {'k':>5} {'pre-b µs':>9} {'now µs':>9} | "
          f"{'HF µs':>9} {'k':>5} {'pre':>7} {'pre-b':>7} {'now':>7} | {'module µs':>9} {'now':>7}")
    for p in pre:
        case, runtime, launch, which = p["case"], p["runtime"], p["launch"], p["file"]
        path = os.path.join(HERE, "files_gpt2", f"{case}_{which}.fgraph")
        now, _ = predict(path, runtime, launch)
        h, e = hf.get((case, runtime, launch)), em.get((case, runtime, launch))
        target = 0.10 if launch == "graph" else 0.15
        b = pre_b[(case, runtime, launch)]
        for key, m in (("pre", h and p["time_us"]), ("pre-b", h and b), ("now", h and now)):
            if m:
                c = counts.setdefault((key, launch), [0, 0])
                c[0] += abs(m / h[0] - 1) <= target
                c[1] += 1
        hs = (f"{h[0]:9.1f} {h[1]:5} {err(p['time_us'], h[0]):>7} {err(b, h[0]):>7} {err(now, h[0]):>7}" if h
              else f"{'-':>9} {'':5} {'':7} {'':7} {'':7}")
        es = f"{e[0]:9.1f} {err(now, e[0]):>7}" if e and which == "traced" else f"{'':9} {'':7}"
        print(f"{case:34} {runtime:8} {launch:6} {which:7} {p['time_us']:9.1f} {p['kernels']:5} {b:9.1f} {now:9.1f} | "
              f"{hs} | {es}")
    for (key, launch), (n, t) in sorted(counts.items()):
        print(f"GPT-2, {launch}, {key}: {n} of {t} within ±{10 if launch == 'graph' else 15}%")


if __name__ == "__main__":
    if "--gpt2" in sys.argv:
        held_out(MODELS_GPT2, "cases_gpt2", "files_gpt2", "emitted_gpt2", "predictions_gpt2.json")
    elif "--gpt2-b" in sys.argv:
        gpt2_b()
    elif "--gpt2-compare" in sys.argv:
        gpt2_compare()
    elif "--sixth-b" in sys.argv:
        sixth(second=True)
    elif "--sixth" in sys.argv:
        sixth()
    elif "--sixth-compare" in sys.argv:
        sixth_compare()
    else:
        compare()
