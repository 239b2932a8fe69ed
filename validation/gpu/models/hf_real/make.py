"""Writes the Hugging Face cases (cases/*.py, each measured by measure.py as an emitted module
is) and fgraph's predictions of them, before measuring (VALIDATION §55):
`FGRAPH=target/release/fgraph python3 validation/gpu/models/hf_real/make.py`.

For each config, step and attention implementation: `fgraph import hf CONFIG --batch B --seq S
--dtype D`; for transformers' `eager` attention the file as imported (scores, scale, softmax,
P·V), for `sdpa` the same file with that chain written as one `attention` op (what
`scaled_dot_product_attention` computes). Each is analysed under `--runtime eager|compile`
and `--launch graph|eager` with the H100 preset (the files in files/); predictions.json holds the figures. The two
fgraph files are also emitted (`fgraph emit torch`, emitted/CASE.py), so one measurement tells
the file's module from transformers' own. `--second`: §55's held-out files; `--third`: §56,
transformers' models against `--ops transformers` files (MODELS3); `--fourth`: the same for decode steps
against a DynamicCache (MODELS4); `--fifth`: decode files at other sizes, emitted only (MODELS5)."""
import json, os, re, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))
BIN = os.environ.get("FGRAPH", os.path.join(ROOT, "target", "release", "fgraph"))
# name: (config, batch, seq, dtype)
MODELS = {
    "llama3_2_1b_s1024": ("llama3_2_1b_config.json", 1, 1024, "bf16"),
    "qwen2_5_0_5b_b2_s512": ("qwen2_5_0_5b_config.json", 2, 512, "bf16"),
    "gpt2_medium_b4_s512": ("gpt2_medium_config.json", 4, 512, "f16"),
    "bert_large_b8_s128": ("bert_large_uncased_config.json", 8, 128, "f16"),
}
ATTNS = ("eager", "sdpa")
# The held-out check of §55's changes (`--second`): the imported files alone (no transformers
# model), at other sizes and configs, predicted before measuring; into files2/, emitted2/ and
# predictions_2.json.
MODELS2 = {
    "llama3_2_1b_b2_s512": ("llama3_2_1b_config.json", 2, 512, "bf16"),
    "qwen2_5_1_5b_s1024": ("qwen2_5_1_5b_config.json", 1, 1024, "bf16"),
    "tinyllama_s768": ("tinyllama_1_1b_config.json", 1, 768, "bf16"),
    "gpt2_medium_b2_s768": ("gpt2_medium_config.json", 2, 768, "f16"),
}
# §56, held out (`--third`): transformers' own models against the files `fgraph import hf --ops
# transformers` writes (transformers' modeling code op by op), at configs and sizes no rule was
# fitted on: cases3/ (hf_case.py), files3/, emitted3/ (the sdpa files' modules) and
# predictions_3.json, predictions committed before measuring.
MODELS3 = {
    "tinyllama_b2_s512": ("tinyllama_1_1b_config.json", 2, 512, "bf16"),
    "qwen2_5_1_5b_s1024": ("qwen2_5_1_5b_config.json", 1, 1024, "bf16"),
    "llama3_2_1b_b4_s256": ("llama3_2_1b_config.json", 4, 256, "bf16"),
    "mistral_7b_l4_s1024": ("mistral_7b_l4_config.json", 1, 1024, "bf16"),
    "qwen2_5_7b_l4_s2048": ("qwen2_5_7b_l4_config.json", 1, 2048, "bf16"),
    "llama2_13b_l2_b2_s512": ("llama2_13b_l2_config.json", 2, 512, "f16"),
}
# §56, decode (`--fourth`): one step against a DynamicCache of `context` positions, the same
# files from `--ops transformers --decode --context N`; cases4/, files4/, emitted4/,
# predictions_4.json. name: (config, batch, context, dtype)
MODELS4 = {
    "llama3_2_1b_decode_b1_t1023": ("llama3_2_1b_config.json", 1, 1023, "bf16"),
    "qwen2_5_1_5b_decode_b4_t2047": ("qwen2_5_1_5b_config.json", 4, 2047, "bf16"),
    "mistral_7b_l4_decode_b16_t1023": ("mistral_7b_l4_config.json", 16, 1023, "bf16"),
    "llama2_13b_l2_decode_b1_t2047": ("llama2_13b_l2_config.json", 1, 2047, "f16"),
}
# §56, the vectorized cat held out (`--fifth`): decode files at other sizes, emitted only (no
# transformers model): files5/, emitted5/, predictions_5.json, after the cat rule and before
# measuring.
MODELS5 = {
    "llama3_2_1b_decode_b8_t511": ("llama3_2_1b_config.json", 8, 511, "bf16"),
    "qwen2_5_0_5b_decode_b2_t4095": ("qwen2_5_0_5b_config.json", 2, 4095, "bf16"),
    "tinyllama_decode_b4_t1535": ("tinyllama_1_1b_config.json", 4, 1535, "bf16"),
    "llama2_13b_l2_decode_b4_t1023": ("llama2_13b_l2_config.json", 4, 1023, "f16"),
}
CHAIN = re.compile(r"  op scores = matmul\((\w+), (\w+)\.T\) -> sc[^\n]*\n(?:  //[^\n]*\n)*"
                   r"  op scale = elementwise\.mul\(sc, [^)]*\) -> scs[^\n]*\n(?:  //[^\n]*\n)*"
                   r"  op softmax = reduction\.softmax\(scs, axis = -1(, causal = true)?\) -> p\n"
                   r"  op attn = matmul\(p, (\w+)\) -> ah\n")


def fgraph_file(config, batch, seq, dtype, attn, transformers=False, context=None):
    extra = ["--ops", "transformers", "--attn", attn] if transformers else []
    step = ["--decode", "--context", str(context)] if context else ["--seq", str(seq)]
    r = subprocess.run([BIN, "import", "hf", os.path.join(HERE, "..", "configs", config), "--batch", str(batch)]
                       + step + ["--dtype", dtype] + extra, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"{config}: import failed\n{r.stderr[-2000:]}")
    text = r.stdout
    if attn == "sdpa" and not transformers:
        text, n = CHAIN.subn(lambda m: f"  op attn = attention({m[1]}, {m[2]}, {m[4]}{m[3] or ''}) -> ah\n", text)
        assert n == 1, (config, n)
    return text


def write_case(case, config, batch, seq, dtype, attn, cases="cases", context=None):
    """cases/CASE.py: transformers' model of `config` as measure.py loads it (hf_case.py)."""
    what = f"a decode step of {batch} against {context} positions" if context else f"a prefill of {batch} x {seq}"
    tail = f", context={context}" if context else ""
    with open(os.path.join(HERE, cases, case + ".py"), "w") as fh:
        fh.write(f'"""transformers\' model of {config}, {what}, {dtype}, '
                 f'attn_implementation="{attn}" (hf_case.py)."""\n'
                 "import os, sys\nsys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))\n"
                 "import hf_case  # noqa: E402\n"
                 f"hf_case.setup(globals(), {config!r}, {batch}, {seq}, {dtype!r}, {attn!r}{tail})\n")


def main():
    second = "--second" in sys.argv
    third = "--third" in sys.argv
    fourth = "--fourth" in sys.argv
    fifth = "--fifth" in sys.argv
    models, tail = ((MODELS2, "2") if second else (MODELS3, "3") if third else (MODELS4, "4") if fourth
                    else (MODELS5, "5") if fifth else (MODELS, ""))
    second = second or fifth
    fourth = fourth or fifth
    emitted, files, cases = "emitted" + tail, "files" + tail, "cases" + (tail if third or fourth else "")
    third = third or fourth
    for d in (cases, emitted, files):
        os.makedirs(os.path.join(HERE, d), exist_ok=True)
    preds = []
    for name, (config, batch, seq, dtype) in models.items():
        # The fourth set's third number is the context; the step is one token.
        context, seq = (seq, 1) if fourth else (None, seq)
        for attn in ATTNS:
            case = f"{name}_{attn}"
            if not second:
                write_case(case, config, batch, seq, dtype, attn, cases, context)
            path = os.path.join(HERE, files, case + ".fgraph")
            with open(path, "w") as f:
                f.write(fgraph_file(config, batch, seq, dtype, attn, third, context))
            rel = os.path.relpath(path, ROOT)
            # The third set emits only the sdpa files (transformers' eager attention is measured
            # under plain launches alone: its mask cannot be captured in a CUDA graph).
            if not third or attn == "sdpa":
                r = subprocess.run([BIN, "emit", "torch", rel, "-o", os.path.join(HERE, emitted, case + ".py")],
                                   capture_output=True, text=True, cwd=ROOT)
                if r.returncode != 0:
                    sys.exit(f"{case}: emit failed\n{r.stderr[-2000:]}")
            for runtime in ("eager", "compile"):
                for launch in ("graph", "eager"):
                    r = subprocess.run([BIN, "analyze", "--format", "json", "--traffic-model", "hardware",
                                        "--runtime", runtime, "--launch", launch, rel], capture_output=True, text=True,
                                       cwd=ROOT)
                    rt = json.loads(r.stdout)["cost"]["runtime"]
                    preds.append(dict(case=case, runtime=runtime, launch=launch, time_us=round(rt["time_us"], 3),
                                      kernels=rt["kernels"]))
                    print(preds[-1], flush=True)
    out = ("predictions_5.json" if fifth else "predictions_2.json" if second else "predictions_4.json" if fourth
           else "predictions_3.json" if third else "predictions.json")
    with open(os.path.join(HERE, out), "w") as fh:
        json.dump(preds, fh, indent=1)
        fh.write("\n")


if __name__ == "__main__":
    main()
