"""Inductor's softmax over long rows, alone (VALIDATION.md §50): for each module of EMIT_DIR
(`fgraph emit torch` of shapes.py's files, in shapes.py's order), `torch.compile`d (default
mode), the generated code, and each CUDA kernel's median duration over REPS calls with L2
flushed before each (profiler), with its grid and block.

    python3 smx_probe.py EMIT_DIR OUT_DIR [SECONDS]   # OUT_DIR/smx_kernels.csv, OUT_DIR/code/
"""
import csv, importlib.util, json, os, statistics, sys, tempfile, time

import torch
from torch.profiler import ProfilerActivity, profile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import shapes as S  # noqa: E402

REPS = 10


def load(path):
    spec = importlib.util.spec_from_file_location(os.path.basename(path)[:-3], path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def main():
    src, out = sys.argv[1], sys.argv[2]
    budget = float(sys.argv[3]) if len(sys.argv) > 3 else 420.0
    os.makedirs(os.path.join(out, "code"), exist_ok=True)
    from torch._inductor.utils import run_and_get_code
    flush = torch.empty(256 * 2**20, dtype=torch.uint8, device="cuda")
    rows, t0, tmp = [], time.time(), tempfile.mkdtemp()
    for shape in S.SHAPES:
        if time.time() - t0 > budget:
            break
        name = S.name(*shape)
        torch._dynamo.reset()
        mod = load(os.path.join(src, name + ".py"))
        with torch.inference_mode():
            model = mod.Graph(device="cuda")
            inputs = mod.make_inputs("cuda")
            cf = torch.compile(model)
            _, code = run_and_get_code(cf, *inputs)
            with open(os.path.join(out, "code", name + ".py"), "w") as f:
                f.write(code[0])
            for _ in range(3):
                cf(*inputs)
            torch.cuda.synchronize()
            with profile(activities=[ProfilerActivity.CUDA]) as prof:
                for _ in range(REPS):
                    flush.zero_()
                    cf(*inputs)
                torch.cuda.synchronize()
        path = os.path.join(tmp, "t.json")
        prof.export_chrome_trace(path)
        ks = [e for e in json.load(open(path))["traceEvents"] if e.get("cat") == "kernel" and "triton" in e["name"]]
        per = len(ks) // REPS
        for i in range(per):
            calls = ks[i::per]
            a = calls[0].get("args", {})
            rows.append({"case": name, "heads": shape[0], "seq": shape[1], "masked": int(shape[2]), "index": i,
                         "name": calls[0]["name"][:120], "grid": "x".join(map(str, a.get("grid", []))),
                         "block": "x".join(map(str, a.get("block", []))),
                         "duration_us": round(statistics.median(k["dur"] for k in calls), 3)})
        print(name, [(r["name"][-40:], r["grid"], r["duration_us"]) for r in rows[-per:]], flush=True)
        with open(os.path.join(out, "smx_kernels.csv"), "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
        del model, inputs, cf
        torch.cuda.empty_cache()
    print(torch.__version__, torch.cuda.get_device_name(), f"{time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
