"""Makes the ONNX fixtures of `fgraph import onnx` (tests/fixtures/onnx/): small models of real
architectures exported by torch.onnx with their weights left out (external data, never
written), and a JSON of what each torch model holds (parameter count, initializer count and
sizes) for the tests to compare with.

    /work/wt/pyenv/bin/python validation/onnx/make_fixtures.py [OUT_DIR]

Needs torch, transformers and onnx (CPU is enough). Weights are random (seeded): only the
structure is kept. Each model is exported with dynamic batch and sequence dimensions where
it has them, so that the files carry named dimensions and shape computations.
"""

import json
import os
import sys
import tempfile

import onnx
import torch
import transformers

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(__file__), "..", "..", "tests", "fixtures", "onnx")


class Hidden(torch.nn.Module):
    """A transformers model returning its last hidden state only (no cache, no dict)."""

    def __init__(self, inner, pooled=False):
        super().__init__()
        self.inner = inner
        self.pooled = pooled

    def forward(self, input_ids):
        if self.pooled:
            out = self.inner(input_ids=input_ids)
            return out.last_hidden_state, out.pooler_output
        return self.inner(input_ids=input_ids, use_cache=False).last_hidden_state


def export(name, model, args, dynamic_shapes, input_names, optimize=True):
    """Exports `model` to OUT/NAME.onnx without its weights; returns the record."""
    model.eval()
    # Random values everywhere: the exporter's optimizer would otherwise merge weights that
    # happen to be equal (LayerNorm's ones) and drop zero biases.
    with torch.no_grad():
        for p in model.parameters():
            p.normal_()
    params = sum(p.numel() for p in model.parameters())
    # Buffers of more than one float element that the graph reads (running statistics,
    # RoPE's inverse frequencies; not Llama's unused `original_inv_freq`) are initializers
    # too, and weights to fgraph.
    float_buffers = {n: b.numel() for n, b in model.named_buffers()
                     if b.is_floating_point() and b.numel() > 1}
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, name + ".onnx")
        torch.onnx.export(
            model, args, path, dynamo=True, external_data=True,
            dynamic_shapes=dynamic_shapes, input_names=input_names, opset_version=20,
            optimize=optimize,
        )
        # Loaded whole here; below, only small integer constants keep their data.
        m = onnx.load(path)
    inits = m.graph.initializer
    sizes = {}
    for t in inits:
        n = 1
        for d in t.dims:
            n *= d
        sizes[t.name] = n
        # Small constants of the exporter (shape values, scalars such as an epsilon) are
        # stored inline and kept; any other tensor is a weight, whose data is not written.
        integer = t.data_type in (onnx.TensorProto.INT64, onnx.TensorProto.INT32)
        if n > 1 and not (integer and n <= 256):
            # The structure only: the tensor keeps its dims and dtype and points at a data
            # file that is not written.
            if True:
                t.ClearField("raw_data")
                for f in ("float_data", "int32_data", "int64_data", "double_data"):
                    t.ClearField(f)
                t.data_location = onnx.TensorProto.EXTERNAL
                del t.external_data[:]
                e = t.external_data.add()
                e.key, e.value = "location", name + ".onnx.data"
    out = os.path.join(OUT, name + ".onnx")
    onnx.save(m, out, save_as_external_data=False)
    ops = {}
    for n in m.graph.node:
        ops[n.op_type] = ops.get(n.op_type, 0) + 1
    # What fgraph declares as weights: every initializer but integers and single elements
    # (shape values and scalar constants, which it folds).
    weights = sum(n for t in inits for n in [sizes[t.name]]
                  if n > 1 and t.data_type not in (onnx.TensorProto.INT64,
                                                   onnx.TensorProto.INT32))
    names = {t.name for t in inits}
    buffers = sum(n for b, n in float_buffers.items() if b in names)
    rec = {
        "torch_parameters": params,
        "torch_float_buffers": buffers,
        "weight_elements": weights,
        "initializers": len(inits),
        "initializer_elements": sum(sizes.values()),
        "nodes": len(m.graph.node),
        "ops": dict(sorted(ops.items())),
        "bytes": os.path.getsize(out),
    }
    print(name, rec, file=sys.stderr)
    return rec


def gpt2():
    cfg = transformers.GPT2Config(n_layer=2, n_embd=64, n_head=4, n_positions=128,
                                  vocab_size=512, attn_implementation="sdpa")
    model = Hidden(transformers.GPT2Model(cfg))
    ids = torch.zeros(2, 16, dtype=torch.long)
    b, s = torch.export.Dim("batch"), torch.export.Dim("seq", max=128)
    return export("gpt2_2l", model, (ids,), {"input_ids": {0: b, 1: s}}, ["input_ids"])


def bert():
    cfg = transformers.BertConfig(num_hidden_layers=2, hidden_size=64, num_attention_heads=4,
                                  intermediate_size=128, vocab_size=512,
                                  max_position_embeddings=128, attn_implementation="sdpa")
    model = Hidden(transformers.BertModel(cfg), pooled=True)  # pooler included
    ids = torch.zeros(2, 16, dtype=torch.long)
    b, s = torch.export.Dim("batch"), torch.export.Dim("seq", max=128)
    return export("bert_2l", model, (ids,), {"input_ids": {0: b, 1: s}}, ["input_ids"])


def llama():
    cfg = transformers.LlamaConfig(num_hidden_layers=2, hidden_size=64, num_attention_heads=4,
                                   num_key_value_heads=2, intermediate_size=128,
                                   vocab_size=512, max_position_embeddings=128,
                                   attn_implementation="sdpa")
    model = Hidden(transformers.LlamaModel(cfg))
    ids = torch.zeros(2, 16, dtype=torch.long)
    b, s = torch.export.Dim("batch"), torch.export.Dim("seq", max=128)
    return export("llama_2l", model, (ids,), {"input_ids": {0: b, 1: s}}, ["input_ids"])


class BasicBlock(torch.nn.Module):
    """torchvision's ResNet BasicBlock with a projection shortcut (stride 2, 32 -> 64)."""

    def __init__(self, cin=32, cout=64, stride=2):
        super().__init__()
        c = torch.nn.Conv2d
        self.conv1 = c(cin, cout, 3, stride, 1, bias=False)
        self.bn1 = torch.nn.BatchNorm2d(cout)
        self.conv2 = c(cout, cout, 3, 1, 1, bias=False)
        self.bn2 = torch.nn.BatchNorm2d(cout)
        self.down = torch.nn.Sequential(c(cin, cout, 1, stride, bias=False),
                                        torch.nn.BatchNorm2d(cout))
        self.pool = torch.nn.AdaptiveAvgPool2d(1)

    def forward(self, x):
        y = torch.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        y = torch.relu(y + self.down(x))
        return self.pool(torch.nn.functional.max_pool2d(y, 3, 2, 1))


def resnet_block():
    x = torch.zeros(2, 32, 32, 32)
    # Not optimized: the optimizer would fold the batch norms into the convolutions.
    return export("resnet_block", BasicBlock(), (x,), {"x": {0: torch.export.Dim("batch")}},
                  ["x"], optimize=False)


class Unmapped(torch.nn.Module):
    """Two operators fgraph has no counterpart for (LeakyRelu, HardSwish) between linears."""

    def __init__(self):
        super().__init__()
        self.a = torch.nn.Linear(16, 32)
        self.b = torch.nn.Linear(32, 16)

    def forward(self, x):
        y = torch.nn.functional.leaky_relu(self.a(x), 0.1)
        return torch.nn.functional.hardswish(self.b(y))


def unmapped():
    x = torch.zeros(4, 16)
    return export("unmapped_ops", Unmapped(), (x,), None, ["x"])


class Norms(torch.nn.Module):
    """A conv1d net with InstanceNorm, ReLU6 (Clip), GroupNorm and a linear head."""

    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv1d(8, 16, 3, padding=1)
        self.inorm = torch.nn.InstanceNorm1d(16, affine=True)
        self.gnorm = torch.nn.GroupNorm(4, 16)
        self.head = torch.nn.Linear(16, 4)

    def forward(self, x):
        y = torch.nn.functional.relu6(self.inorm(self.conv(x)))
        y = self.gnorm(y).mean(dim=-1)
        return self.head(y)


def norms():
    x = torch.zeros(2, 8, 32)
    return export("norms", Norms(), (x,), {"x": {0: torch.export.Dim("batch")}}, ["x"])


def main():
    torch.manual_seed(0)
    os.makedirs(OUT, exist_ok=True)
    which = sys.argv[2:] or ["gpt2", "bert", "resnet_block", "llama", "unmapped", "norms"]
    records = {}
    for w in which:
        records.update({w: globals()[w]()})
    with open(os.path.join(OUT, "models.json"), "w") as f:
        json.dump(records, f, indent=2, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
