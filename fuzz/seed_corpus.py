#!/usr/bin/env python3
"""Fills fuzz/corpus/<target>/ with the seed inputs docs/ROBUSTNESS.md describes.

parse:           every examples/*.fgraph and tests/fixtures/**/*.fgraph as is.
check, analyze:  the same files behind four 7-byte option headers (fuzz_targets/common/mod.rs:
                 no options; --set S=2; --set M=3 H=1024 + flash bit; three sets + all allows).
structured:      64 random byte strings (64 to 1500 bytes, fixed seed): the derived
                 description turns any bytes into a file, so random ones are a fine start.
imports:         64 random byte strings likewise (another fixed seed): each is a tree of files.
blocks:          the same, from another seed.
framing:         language-server byte streams (a first byte choosing how the reader splits
                 them, then frames): a session (initialize, didOpen of an example, hover,
                 shutdown), and each malformed frame of src/lsp/transport.rs's tests
                 followed by a good one; each whole and in pieces of 1, 7 and 64 bytes.

Usage: python3 fuzz/seed_corpus.py        (from anywhere; existing corpus files are kept)
"""

import glob
import json
import os
import random

FUZZ = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(FUZZ)

# Must match PARAM_NAMES and VALUES in fuzz_targets/common/mod.rs.
NAMES = ["M", "N", "K", "S", "H", "NH", "HD", "D", "T", "B", "SEQ", "HIDDEN", "P0", "P1", "P2", "P3"]
HEADERS = [
    bytes(7),
    bytes([0x01, NAMES.index("S"), 1, 0, 0, 0, 0]),
    bytes([0x22, NAMES.index("M"), 2, NAMES.index("H"), 8, 0, 0]),
    bytes([0x1F, NAMES.index("N"), 13, NAMES.index("K"), 0, NAMES.index("HD"), 0x81]),
]


def main():
    files = sorted(
        glob.glob(os.path.join(ROOT, "examples", "*.fgraph"))
        + glob.glob(os.path.join(ROOT, "tests", "fixtures", "**", "*.fgraph"), recursive=True)
    )
    for target in ("parse", "check", "analyze", "structured", "blocks", "framing"):
        os.makedirs(os.path.join(FUZZ, "corpus", target), exist_ok=True)
    for f in files:
        with open(f, "rb") as fh:
            data = fh.read()
        base = os.path.relpath(f, ROOT).replace(os.sep, "_")
        with open(os.path.join(FUZZ, "corpus", "parse", base), "wb") as out:
            out.write(data)
        for i, h in enumerate(HEADERS):
            for target in ("check", "analyze"):
                with open(os.path.join(FUZZ, "corpus", target, f"{base}.{i}"), "wb") as out:
                    out.write(h + data)
    rng = random.Random(1)
    for i in range(64):
        n = rng.randint(64, 1500)
        with open(os.path.join(FUZZ, "corpus", "structured", f"seed{i:02}"), "wb") as out:
            out.write(bytes(rng.getrandbits(8) for _ in range(n)))
    os.makedirs(os.path.join(FUZZ, "corpus", "imports"), exist_ok=True)
    rng = random.Random(2)
    for i in range(64):
        n = rng.randint(64, 1500)
        with open(os.path.join(FUZZ, "corpus", "imports", f"seed{i:02}"), "wb") as out:
            out.write(bytes(rng.getrandbits(8) for _ in range(n)))
    rng = random.Random(2)
    for i in range(64):
        n = rng.randint(64, 1500)
        with open(os.path.join(FUZZ, "corpus", "blocks", f"seed{i:02}"), "wb") as out:
            out.write(bytes(rng.getrandbits(8) for _ in range(n)))
    example = os.path.join(ROOT, "examples", "seed_mlp.fgraph")
    with open(example, encoding="utf-8") as fh:
        text = fh.read()
    for i, stream in enumerate(framing_streams(text)):
        # Byte 0 below 128: one read; from 128 on, reads of 1 + (byte & 63) bytes.
        for j, sel in enumerate((0, 128, 128 + 6, 128 + 63)):
            with open(os.path.join(FUZZ, "corpus", "framing", f"seed{i:02}.{j}"), "wb") as out:
                out.write(bytes([sel]) + stream)
    print(f"{len(files)} files; corpora in {os.path.join(FUZZ, 'corpus')}")


def frame(body):
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    return b"Content-Length: %d\r\n\r\n" % len(data) + data


def framing_streams(text):
    """A session, and malformed frames each followed by a good one (the framing target then
    appends its own final frame)."""
    uri = "file:///fuzz/seed_mlp.fgraph"
    session = b"".join(
        frame(m)
        for m in [
            {"jsonrpc": "2.0", "id": 0, "method": "initialize",
             "params": {"processId": None, "rootUri": None, "capabilities": {}}},
            {"jsonrpc": "2.0", "method": "initialized", "params": {}},
            {"jsonrpc": "2.0", "method": "textDocument/didOpen",
             "params": {"textDocument": {"uri": uri, "languageId": "fgraph", "version": 1,
                                         "text": text}}},
            {"jsonrpc": "2.0", "id": 1, "method": "textDocument/hover",
             "params": {"textDocument": {"uri": uri}, "position": {"line": 3, "character": 5}}},
            {"jsonrpc": "2.0", "id": 2, "method": "shutdown"},
        ]
    )
    req = b'{"jsonrpc":"2.0","id":4,"method":"m"}'
    good = frame(b'{"jsonrpc":"2.0","id":9,"method":"m"}')
    bad = [
        b"Content-Length: 60\r\n\r\n" + req,
        b"Content-Length: 100000\r\n\r\n" + req,
        b"Content-Length: 10\r\n\r\n" + req,
        b"Content-Length: 0\r\n\r\n" + req,
        b"Content-Type: x\r\n\r\n" + req,
        b"Content-Length: 37\r\nContent-Length: 37\r\n\r\n" + req,
        b"Content-Length: 3x\r\n\r\n" + req,
        b"Content-Length: -38\r\n\r\n" + req,
        b"Content-Length: 99999999999999999999999\r\n\r\n" + req,
        b"Content-Length: 4000000000\r\n\r\n" + req,
        b'Content-Length: 4\r\n\r\n"\xff\xfe"',
        b"Content-Length: 37\r\n" + req,
        b"Content-Length: 37\r\n" + req + b"\r\n",
        b"\x00\x01garbage}}{{ \xff",
        b"hello world\r\n\r\nmore: stuff\r\n\r\n",
        b"Content-Length: 37\n\n" + req + b"\n\n",
        b"content-length:37\r\n\r\n" + req,
        b"Content-Length: 50\r\n\r\n{\"id\"",
        b"Content-Length: 5",
    ]
    return [session] + [b + good for b in bad]


if __name__ == "__main__":
    main()
