#!/usr/bin/env python3
"""Fills fuzz/corpus/<target>/ with the seed inputs docs/ROBUSTNESS.md describes.

parse:           every examples/*.fgraph and tests/fixtures/**/*.fgraph as is.
check, analyze:  the same files behind four 7-byte option headers (fuzz_targets/common/mod.rs:
                 no options; --set S=2; --set M=3 H=1024 + flash bit; three sets + all allows).
structured:      64 random byte strings (64 to 1500 bytes, fixed seed): the derived
                 description turns any bytes into a file, so random ones are a fine start.
imports:         64 random byte strings likewise (another fixed seed): each is a tree of files.

Usage: python3 fuzz/seed_corpus.py        (from anywhere; existing corpus files are kept)
"""

import glob
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
    for target in ("parse", "check", "analyze", "structured"):
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
    print(f"{len(files)} files; corpora in {os.path.join(FUZZ, 'corpus')}")


if __name__ == "__main__":
    main()
