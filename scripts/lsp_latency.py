#!/usr/bin/env python3
"""End-to-end latency of `fgraph lsp` as an editor sees it, over its stdin/stdout pipes:
one-character edits in the middle of a generated file (full-document sync), each timed from
writing the didChange to reading its publishDiagnostics, then a hover round trip.

    python3 scripts/lsp_latency.py [FGRAPH] [LINES] [EDITS]
    (defaults: target/release/fgraph 2000 100)

The file is the one benches/lsp.rs generates. Figures go into docs/PERFORMANCE.md.
"""
import json, statistics, subprocess, sys, time

binary = sys.argv[1] if len(sys.argv) > 1 else "target/release/fgraph"
lines = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
edits = int(sys.argv[3]) if len(sys.argv) > 3 else 100

def generate(n):
    s = "graph bench {\n  param N = 1024\n  dtype f16\n  input t0: [N, N]\n  weight w: [N, N]\n"
    for i in range(1, max(n - 6, 1) + 1):
        ty = ": f16[N, N]" if i % 10 == 0 else ""
        if i % 4 == 0:
            s += f"  op o{i} = matmul(t{i-1}, w) -> t{i}{ty}\n"
        else:
            s += f"  op o{i} = elementwise.relu(t{i-1}) -> t{i}{ty}\n"
    return s + "}\n"

p = subprocess.Popen([binary, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)

def send(msg):
    body = json.dumps(msg).encode()
    p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    p.stdin.flush()

def read():
    length = None
    while True:
        line = p.stdout.readline()
        if line in (b"\r\n", b"\n"):
            break
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return json.loads(p.stdout.read(length))

def until(pred):
    while True:
        m = read()
        if pred(m):
            return m

uri = "file:///nonexistent-bench-dir/bench.fgraph"
text = generate(lines)
send({"jsonrpc": "2.0", "id": 0, "method": "initialize",
      "params": {"processId": None, "rootUri": None, "capabilities": {}}})
until(lambda m: m.get("id") == 0)
send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument":
      {"uri": uri, "languageId": "fgraph", "version": 1, "text": text}}})
until(lambda m: m.get("method") == "textDocument/publishDiagnostics")

mid = lines // 2
line = f"  op o{mid} = elementwise.relu(t{mid-1}) -> t{mid}"
publish, hover = [], []
for i in range(edits):
    new = text.replace(line, line.replace("relu", "gelu"), 1) if i % 2 == 0 else text
    t = time.perf_counter()
    send({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
          "textDocument": {"uri": uri, "version": i + 2}, "contentChanges": [{"text": new}]}})
    until(lambda m: m.get("method") == "textDocument/publishDiagnostics"
          and m["params"].get("version") == i + 2)
    publish.append(time.perf_counter() - t)
    t = time.perf_counter()
    send({"jsonrpc": "2.0", "id": i + 1, "method": "textDocument/hover", "params": {
          "textDocument": {"uri": uri}, "position": {"line": mid + 4, "character": 34}}})
    r = until(lambda m: m.get("id") == i + 1)
    hover.append(time.perf_counter() - t)
    assert "kernel" in r["result"]["contents"]["value"]
send({"jsonrpc": "2.0", "id": 10**6, "method": "shutdown"})
until(lambda m: m.get("id") == 10**6)
send({"jsonrpc": "2.0", "method": "exit"})
p.wait()

def fmt(v):
    v = sorted(v)
    q = lambda x: v[int((len(v) - 1) * x)] * 1e3
    return f"median {q(0.5):.2f} ms, p95 {q(0.95):.2f} ms, max {v[-1]*1e3:.2f} ms (n = {len(v)})"

print(f"{lines}-line file ({len(text)} bytes) over stdio, {edits} one-character edits")
print(f"didChange → publishDiagnostics: {fmt(publish)}")
print(f"hover round trip:               {fmt(hover)}")
