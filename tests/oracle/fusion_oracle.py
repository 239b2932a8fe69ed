#!/usr/bin/env python3
"""Independent reference model of SPEC §2 (fusion grouping) and §3 (traffic accounting).

This is a cross-check for the hand-computed expectations in tests/fixtures/fusion/, written
separately from the Rust implementation and sharing no code with it. It understands only
well-formed graphs (no diagnostics): it raises on anything it does not expect.

Usage:
    python3 tests/oracle/fusion_oracle.py FILE.fgraph        # print the expected JSON
    python3 tests/oracle/fusion_oracle.py FILE.json          # same, from a JSON description
    python3 tests/oracle/fusion_oracle.py --check DIR        # compare DIR/*.fgraph with
                                                             # DIR/*.expected.json

JSON description (the seed's data model plus external tensors):
    {"tensors": {"x": {"shape": [4, 8], "bytes": 2}, ...},      # inputs and weights
     "ops": [{"name": "mm", "kind": "matmul",
              "inputs": ["x", "w", "q[1]", "k.T"],             # views as written
              "output": "y", "shape": [4, 4], "bytes": 2}, ...],
     "outputs": ["y"]}                                          # optional

Output shape (the fixture format):
    {"groups": [[op, ...], ...],
     "boundaries": [{"producer", "consumer", "tensor", "reason"}, ...],
     "unfused": {"bytes_read", "bytes_written"},
     "fused": {"bytes_read", "bytes_written"}}
"""

import heapq
import json
import re
import sys
from pathlib import Path

DTYPE_BYTES = {
    "f64": 8, "f32": 4, "tf32": 4, "i32": 4, "bf16": 2, "f16": 2, "i16": 2,
    "fp8": 1, "f8e4m3": 1, "f8e5m2": 1, "i8": 1, "u8": 1, "bool": 1, "i64": 8,
}
U64_MAX = (1 << 64) - 1


def checked(v):
    if v < 0 or v > U64_MAX:
        raise ValueError("u64 overflow")
    return v


# ---------------------------------------------------------------------------------------------
# A small parser for the .fgraph subset used by the fixtures (one graph per file).

TOKEN = re.compile(r"\s*(?:(//[^\n]*)|(->)|([A-Za-z_][A-Za-z0-9_]*)|(\d+)|(.))", re.S)


def tokenize(src):
    toks = []
    pos = 0
    while pos < len(src):
        m = TOKEN.match(src, pos)
        if not m:
            break
        pos = m.end()
        comment, arrow, ident, num, ch = m.groups()
        if comment is not None:
            continue
        if arrow:
            toks.append(("->", "->"))
        elif ident:
            toks.append(("id", ident))
        elif num:
            toks.append(("int", int(num)))
        elif ch is not None and not ch.isspace():
            toks.append((ch, ch))
    toks.append(("eof", None))
    return toks


class Parser:
    def __init__(self, src):
        self.t = tokenize(src)
        self.i = 0
        self.params = {}

    def peek(self, k=0):
        return self.t[self.i + k]

    def next(self):
        tok = self.t[self.i]
        self.i += 1
        return tok

    def expect(self, kind, value=None):
        tok = self.next()
        if tok[0] != kind or (value is not None and tok[1] != value):
            raise SyntaxError(f"expected {kind} {value!r}, got {tok!r}")
        return tok[1]

    # expr = term (("+"|"-") term)* ; term = unary (("*"|"/") unary)* ; unary = "-"* atom
    def expr(self, env):
        v = self.term(env)
        while self.peek()[0] in "+-" and self.peek()[0] != "->":
            op = self.next()[0]
            r = self.term(env)
            v = v + r if op == "+" else v - r
        return v

    def term(self, env):
        v = self.unary(env)
        while self.peek()[0] in ("*", "/"):
            op = self.next()[0]
            r = self.unary(env)
            if op == "*":
                v = v * r
            else:
                if r == 0 or v % r != 0:
                    raise ValueError("inexact division")
                v = v // r
        return v

    def unary(self, env):
        neg = 0
        while self.peek()[0] == "-":
            self.next()
            neg += 1
        kind, val = self.next()
        if kind == "int":
            v = val
        elif kind == "id":
            v = env[val]
        elif kind == "(":
            v = self.expr(env)
            self.expect(")")
        else:
            raise SyntaxError(f"bad atom {val!r}")
        return -v if neg % 2 else v

    def parse_type(self, env):
        dtype = None
        if self.peek()[0] == "id":
            dtype = self.next()[1]
        self.expect("[")
        dims = []
        if self.peek()[0] != "]":
            dims.append(self.expr(env))
            while self.peek()[0] == ",":
                self.next()
                dims.append(self.expr(env))
        self.expect("]")
        return dtype, dims

    def parse(self):
        # Pass 1: collect params (shapes may use any param of the graph).
        self.expect("id", "graph")
        name = self.expect("id")
        self.expect("{")
        body_start = self.i
        # Params are evaluated in order, each may use earlier ones only.
        while self.peek()[0] != "}":
            tok = self.peek()
            if tok == ("id", "param"):
                self.next()
                pname = self.expect("id")
                self.expect("=")
                self.params[pname] = self.expr(self.params)
            else:
                self.next()
        self.i = body_start
        default_dtype = "f32"
        tensors = {}  # name -> (dtype, shape)
        externals = []
        ops = []
        outputs = None
        while self.peek()[0] != "}":
            kw = self.expect("id")
            if kw == "param":
                self.expect("id")
                self.expect("=")
                self.expr(self.params)
            elif kw == "dtype":
                default_dtype = self.expect("id")
            elif kw in ("input", "weight"):
                tname = self.expect("id")
                self.expect(":")
                dt, dims = self.parse_type(self.params)
                tensors[tname] = (dt or default_dtype, dims)
                externals.append(tname)
            elif kw == "output":
                outputs = [self.expect("id")]
                while self.peek()[0] == ",":
                    self.next()
                    outputs.append(self.expect("id"))
            elif kw == "op":
                oname = self.expect("id")
                self.expect("=")
                kind = self.expect("id")
                func = None
                if self.peek()[0] == ".":
                    self.next()
                    func = self.expect("id")
                self.expect("(")
                args = []
                while self.peek()[0] != ")":
                    ident = self.expect("id")
                    if self.peek()[0] == "=":
                        self.next()
                        self.expr(self.params)  # attribute: recorded, not used
                    else:
                        view = None
                        if self.peek()[0] == "[":
                            self.next()
                            view = self.expr(self.params)
                            self.expect("]")
                        transposed = False
                        if self.peek()[0] == "." and self.peek(1) == ("id", "T"):
                            self.next()
                            self.next()
                            transposed = True
                        args.append((ident, view, transposed))
                    if self.peek()[0] == ",":
                        self.next()
                self.expect(")")
                self.expect("->")
                out = self.expect("id")
                decl = None
                if self.peek()[0] == ":":
                    self.next()
                    decl = self.parse_type(self.params)
                ops.append(dict(name=oname, kind=kind, func=func, args=args, output=out,
                                decl=decl))
            else:
                raise SyntaxError(f"unexpected {kw}")
        self.expect("}")
        return name, tensors, externals, ops, outputs


def broadcast(shapes):
    rank = max(len(s) for s in shapes)
    out = []
    for i in range(rank):
        dims = {s[len(s) - rank + i] for s in shapes if len(s) - rank + i >= 0} - {1}
        if len(dims) > 1:
            raise ValueError(f"broadcast mismatch {shapes}")
        out.append(dims.pop() if dims else 1)
    return out


def view_shape(shape, view, transposed):
    if view is not None:
        if not (len(shape) >= 1 and 0 <= view < shape[0]):
            raise ValueError("bad view")
        shape = shape[1:]
    if transposed:
        if len(shape) < 2:
            raise ValueError("bad .T")
        shape = shape[:-2] + [shape[-1], shape[-2]]
    return shape


def from_fgraph(src):
    """Lower a .fgraph source to the JSON description, inferring shapes and dtypes."""
    _name, tensors, externals, ops, outputs = Parser(src).parse()
    produced = {op["output"]: op for op in ops}
    # Infer shapes in dependency order (ops may be written out of order).
    pending = list(ops)
    while pending:
        progressed = False
        for op in list(pending):
            if any(a[0] not in tensors for a in op["args"]):
                continue
            shapes = [view_shape(tensors[a][1], v, t) for a, v, t in op["args"]]
            kind = op["kind"]
            if kind == "elementwise":
                inferred = broadcast(shapes)
            elif kind == "matmul":
                assert len(shapes) == 2 and all(len(s) >= 2 for s in shapes)
                a, b = shapes
                assert a[-1] == b[-2], f"{op['name']}: inner dims {a} x {b}"
                inferred = broadcast([a[:-2], b[:-2]]) + [a[-2], b[-1]]
            else:
                inferred = None
            first_dtype = tensors[op["args"][0][0]][0]
            if op["decl"] is not None:
                dt, dims = op["decl"]
                if inferred is not None:
                    assert dims == inferred, f"{op['name']}: declared {dims} != {inferred}"
                if kind == "reshape":
                    src_shape = shapes[0]
                    assert prod(dims) == prod(src_shape), f"{op['name']}: element count"
                tensors[op["output"]] = (dt or first_dtype, dims)
            else:
                assert inferred is not None, f"{op['name']}: missing shape"
                tensors[op["output"]] = (first_dtype, inferred)
            pending.remove(op)
            progressed = True
        if not progressed:
            raise ValueError("cycle or undefined tensor")
    desc = {
        "tensors": {n: {"shape": tensors[n][1], "bytes": DTYPE_BYTES[tensors[n][0]]}
                    for n in externals},
        "ops": [],
    }
    for op in ops:
        dt, shape = tensors[op["output"]]
        desc["ops"].append({
            "name": op["name"], "kind": op["kind"],
            "inputs": [a + (f"[{v}]" if v is not None else "") + (".T" if t else "")
                       for a, v, t in op["args"]],
            "output": op["output"], "shape": shape, "bytes": DTYPE_BYTES[dt],
        })
    if outputs is not None:
        desc["outputs"] = outputs
    assert set(produced) | set(externals) >= set(outputs or [])
    return desc


def prod(xs):
    p = 1
    for x in xs:
        p = checked(p * x)
    return p


# ---------------------------------------------------------------------------------------------
# The model proper: works on the JSON description only.

VIEW = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)(?:\[(\d+)\])?(\.T)?$")


def analyse(desc):
    ops = desc["ops"]
    n = len(ops)
    shape = {}
    bpe = {}
    for t, info in desc["tensors"].items():
        shape[t] = info["shape"]
        bpe[t] = info["bytes"]
    producer = {}
    for i, op in enumerate(ops):
        shape[op["output"]] = op["shape"]
        bpe[op["output"]] = op["bytes"]
        producer[op["output"]] = i

    def size(t):
        return checked(prod(shape[t]) * bpe[t])

    def slice_size(t):
        return size(t) // shape[t][0]

    # Inputs of each op as (tensor, view index or None); .T is ignored for accounting.
    reads = []
    for op in ops:
        lst = []
        for a in op["inputs"]:
            m = VIEW.match(a)
            lst.append((m.group(1), int(m.group(2)) if m.group(2) is not None else None))
        reads.append(lst)

    consumers = {}
    for i in range(n):
        for t in dict.fromkeys(t for t, _ in reads[i]):
            consumers.setdefault(t, []).append(i)
    if "outputs" in desc:
        graph_outputs = set(desc["outputs"])
    else:
        graph_outputs = {op["output"] for op in ops if not consumers.get(op["output"])}

    # Kahn's algorithm: among ready ops, always take the one written first.
    indeg = [0] * n
    succ = [[] for _ in range(n)]
    for i in range(n):
        for p in dict.fromkeys(producer[t] for t, _ in reads[i] if t in producer):
            indeg[i] += 1
            succ[p].append(i)
    ready = [i for i in range(n) if indeg[i] == 0]
    heapq.heapify(ready)
    order = []
    while ready:
        i = heapq.heappop(ready)
        order.append(i)
        for s in succ[i]:
            indeg[s] -= 1
            if indeg[s] == 0:
                heapq.heappush(ready, s)
    assert len(order) == n, "cycle"
    rank = {op: k for k, op in enumerate(order)}

    # Greedy grouping (SPEC §2).
    group_of = {}
    members = {}  # group id -> set of ops
    boundaries = []

    def kind(i):
        return ops[i]["kind"]

    def has_path_out_and_back(group):
        # Rule 6: is there a path that leaves `group` and re-enters it?
        outside_reached = set()
        stack = [s for g in group for s in succ[g] if s not in group]
        while stack:
            x = stack.pop()
            if x in outside_reached:
                continue
            outside_reached.add(x)
            for s in succ[x]:
                if s in group:
                    return True
                stack.append(s)
        return False

    for c in order:
        group_of[c] = c
        members[c] = {c}
        producers = list(dict.fromkeys(producer[t] for t, _ in reads[c] if t in producer))
        for p in producers:
            if group_of[p] == group_of[c]:
                continue
            merged = members[group_of[p]] | members[group_of[c]]
            t = ops[p]["output"]
            reason = None
            if kind(c) == "matmul":
                reason = "matmul-starts-group"
            elif kind(p) == "reduction":
                reason = "after-reduction"
            elif kind(c) == "reduction" and any(kind(m) == "matmul" for m in merged):
                reason = "reduction-after-matmul"
            elif len(consumers.get(t, [])) != 1 or t in graph_outputs:
                reason = "materialized"
            elif sum(kind(m) == "matmul" for m in merged) > 1:
                reason = "second-matmul"
            elif has_path_out_and_back(merged):
                reason = "would-create-cycle"
            if reason:
                boundaries.append((rank[c], producers.index(p),
                                   {"producer": ops[p]["name"], "consumer": ops[c]["name"],
                                    "tensor": t, "reason": reason}))
                continue
            gp, gc = group_of[p], group_of[c]
            for m in members[gc]:
                group_of[m] = gp
            members[gp] = merged
            del members[gc]

    groups = sorted((sorted(ms, key=rank.get) for ms in members.values()),
                    key=lambda ms: rank[ms[-1]])
    boundaries.sort(key=lambda b: (b[0], b[1]))

    def dedup(pairs):
        """Distinct reads: a whole-tensor read covers that tensor's slices."""
        pairs = set(pairs)
        whole = {t for t, v in pairs if v is None}
        return {(t, v) for t, v in pairs if v is None or t not in whole}

    def cost(pairs):
        return sum(size(t) if v is None else slice_size(t) for t, v in dedup(pairs))

    unfused_read = sum(cost(reads[i]) for i in range(n))
    unfused_written = sum(size(ops[i]["output"]) for i in range(n))

    fused_read = fused_written = 0
    for g in groups:
        gs = set(g)
        inner = {ops[m]["output"] for m in g}
        fused_read += cost([(t, v) for m in g for t, v in reads[m] if t not in inner])
        for m in g:
            t = ops[m]["output"]
            cons = consumers.get(t, [])
            if t in graph_outputs or not cons or any(x not in gs for x in cons):
                fused_written += size(t)

    return {
        "groups": [[ops[i]["name"] for i in g] for g in groups],
        "boundaries": [b[2] for b in boundaries],
        "unfused": {"bytes_read": checked(unfused_read),
                    "bytes_written": checked(unfused_written)},
        "fused": {"bytes_read": checked(fused_read), "bytes_written": checked(fused_written)},
    }


def load(path):
    path = Path(path)
    if path.suffix == ".json":
        return json.loads(path.read_text())
    return from_fgraph(path.read_text())


def main(argv):
    if len(argv) == 3 and argv[1] == "--check":
        failures = 0
        cases = sorted(Path(argv[2]).glob("*.fgraph"))
        for f in cases:
            exp_path = f.with_suffix(".expected.json")
            got = analyse(load(f))
            exp = json.loads(exp_path.read_text())
            ok = got == exp
            failures += not ok
            print(("ok   " if ok else "FAIL ") + f.name)
            if not ok:
                print("  expected:", json.dumps(exp))
                print("  oracle:  ", json.dumps(got))
        print(f"{len(cases) - failures}/{len(cases)} agree")
        return 1 if failures else 0
    if len(argv) == 2:
        print(json.dumps(analyse(load(argv[1])), indent=2))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
