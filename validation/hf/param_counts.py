"""Published parameter counts of the configs in tests/fixtures/hf (issue 27 item 1).

For each `*_config.json` there: the model transformers builds from it, on the meta device (no
memory, no weights, no download), and `sum(p.numel())` over its parameters, tied parameters
counted once (`model.parameters()` yields a shared tensor once). `AutoModelForCausalLM` for
decoders, `AutoModel` for BERT (the encoder with its pooler). Writes param_counts.json beside
this script; tests/import_hf.rs compares the generated files' weights with it.

    /work/wt/pyenv/bin/python validation/hf/param_counts.py
"""

import json
import pathlib

import torch
import transformers
from transformers import AutoConfig, AutoModel, AutoModelForCausalLM

HERE = pathlib.Path(__file__).resolve().parent
FIXTURES = HERE.parent.parent / "tests" / "fixtures" / "hf"
ENCODERS = {"bert"}


def count(path: pathlib.Path) -> dict:
    raw = json.loads(path.read_text())
    raw.pop("auto_map", None)  # the hub's own modeling code is never run: transformers' is
    config = AutoConfig.for_model(**raw)
    auto = AutoModel if config.model_type in ENCODERS else AutoModelForCausalLM
    with torch.device("meta"):
        model = auto.from_config(config)
    params = sum(p.numel() for p in model.parameters())
    return {
        "model_type": config.model_type,
        "class": type(model).__name__,
        "params": params,
        "tie_word_embeddings": bool(getattr(config, "tie_word_embeddings", False)),
    }


def main() -> None:
    out = {
        "transformers": transformers.__version__,
        "torch": torch.__version__,
        "configs": {},
    }
    for path in sorted(FIXTURES.glob("*_config.json")):
        out["configs"][path.name] = count(path)
        print(path.name, out["configs"][path.name])
    (HERE / "param_counts.json").write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
