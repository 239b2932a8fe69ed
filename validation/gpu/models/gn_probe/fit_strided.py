"""Fits `families.group_norm_strided` (VALIDATION.md §40, §45): Inductor's first kernel of a
group norm over a channels-last input (`triton_per_fused_add_clone_native_group_norm_0` of
gn_probe.py) when its split of each group's `C/G · H·W` elements into `S` chunks (Inductor's
`reduction_split_factor`, `inner_split` here) straddles channels: a chunk that is not a whole
number of channels (`(C/G · H·W / S) mod H·W ≠ 0`). Its loads then step over the channels
(stride C), one 32-byte sector an element, except where the rows of a program start whole
channels apart and share sectors (`sectors_per_element`, §45). The fit: `bytes · sectors per
element / (bandwidth · efficiency) + overhead` on the even-indexed half of those shapes (sorted
by batch, channels, size), minimising the absolute log error; the odd half is held out.

    python3 fit_strided.py [data/gn_kernels.csv]
    python3 fit_strided.py --predict 'B,C,H;B,C,H;...'   # the H100 preset's price of each
                                                         # shape's first kernel (µs)
    python3 fit_strided.py --compare predictions_gn2.csv data/gn2/gn_kernels.csv
"""
import csv
import collections
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BW = 3.35e12


def divisors(n):
    out = set()
    for i in range(1, math.isqrt(n) + 1):
        if n % i == 0:
            out.update((i, n // i))
    return sorted(out)


def inner_split(length, rows, sms=132):
    """torch 2.11 `InductorChoices.reduction_split_factor` for an inner reduction."""
    tps, nt = 2048, 256
    lo, hi = 32 * sms * tps, 512 * sms * tps
    if rows >= 2 * sms or length <= 8192:
        return 1
    if length * rows <= lo:
        size = 32
    elif length * rows < hi:
        bpo = (sms * tps // (2 * nt) + rows - 1) // rows
        tmp = (length + nt * bpo - 1) // (nt * bpo)
        near = min(divisors(length), key=lambda x: abs(x - tmp))
        size = max(near, 32) if abs(near - tmp) < 30 else tmp
    else:
        near = min(divisors(length), key=lambda x: abs(x - 512))
        size = near if abs(near - 512) < 50 else 512
    return (length + size * nt - 1) // (size * nt)


def straddles(b, c, h, groups=32):
    hw = h * h
    length = c // groups * hw
    s = inner_split(length, b * groups)
    return s > 1 and (length % s != 0 or (length // s) % hw != 0)


PROGRAM_ROWS, MIN_PROGRAMS_PER_SM, SHARED_SECTOR_FLOOR, SAMPLED_PROGRAMS = 32, 4, 0.4, 4
MAX_SHARED_CHUNK, SIDE_BY_SIDE_WIDE = 24_576, 0.65


def sectors_per_element(b, c, h, groups=32, sms=132):
    """crate::cost::hwmodel::inductor::sectors_per_element: the sectors the first kernel loads
    an element, where rows of a 32-row program start whole channels apart (§45)."""
    hw, cpg = h * h, c // groups
    length, rows = cpg * hw, b * groups
    split = inner_split(length, rows, sms)
    chunk = -(-length // split)
    pieces = max(-(-chunk // 128), 1)
    row_len = -(-chunk // pieces)
    per_group = split * pieces
    all_rows = rows * per_group
    if chunk > MAX_SHARED_CHUNK:
        return 1.0
    if chunk < hw:  # the groups side by side (§45)
        return SHARED_SECTOR_FLOOR if cpg * 2 <= 32 else SIDE_BY_SIDE_WIDE
    if all_rows // PROGRAM_ROWS < MIN_PROGRAMS_PER_SM * sms:
        return 1.0
    sectors = elements = 0
    for sample in range(SAMPLED_PROGRAMS):
        first = all_rows // PROGRAM_ROWS * sample // SAMPLED_PROGRAMS * PROGRAM_ROWS
        for j in range(row_len):
            column = set()
            for row in range(first, min(first + PROGRAM_ROWS, all_rows)):
                group, rest = divmod(row, per_group)
                s, p = divmod(rest, pieces)
                at = p * row_len + j
                f = s * chunk + at
                if at >= chunk or f >= length:
                    continue
                n, g = divmod(group, groups)
                channel, position = divmod(f, hw)
                column.add(((n * hw + position) * c + g * cpg + channel) // 16)
                elements += 1
            sectors += len(column)
    return max(sectors / elements, SHARED_SECTOR_FLOOR) if elements else 1.0


def cases(path):
    by = collections.defaultdict(list)
    for r in csv.DictReader(open(path)):
        by[(int(r["batch"]), int(r["channels"]), int(r["hw"]), r["layout"])].append(r)
    out = []
    for (b, c, h, layout), ks in sorted(by.items()):
        if layout == "channels_last" and straddles(b, c, h):
            out.append(((b, c, h), b * c * h * h * 2 * sectors_per_element(b, c, h), float(ks[0]["duration_us"])))
    return out


def predict(listed):
    import json
    preset = os.path.join(HERE, "..", "..", "..", "..", "src", "cost", "presets", "h100.json")
    f = json.load(open(preset))["model"]["families"]["group_norm_strided"]
    print("batch,channels,hw,straddles,sectors_per_element,predicted_us")
    for s in listed.split(";"):
        b, c, h = map(int, s.split(","))
        st = straddles(b, c, h)
        n = b * c * h * h * 2 * sectors_per_element(b, c, h)
        p = n / (BW * f["bandwidth_efficiency"]) * 1e6 + f["overhead_us"] if st else float("nan")
        print(f"{b},{c},{h},{int(st)},{sectors_per_element(b, c, h):.4f},{p:.2f}")


def compare(pred_path, measured_path):
    """A pre-registered batch (`--predict`'s file) against its measurement (gn_probe.py's
    gn_kernels.csv): the pre-registered and the current model's price of each first kernel."""
    import json
    preset = os.path.join(HERE, "..", "..", "..", "..", "src", "cost", "presets", "h100.json")
    f = json.load(open(preset))["model"]["families"]["group_norm_strided"]
    meas = {(int(r["batch"]), int(r["channels"]), int(r["hw"])): float(r["duration_us"])
            for r in csv.DictReader(open(measured_path)) if r["index"] == "0"}
    counts = [0, 0, 0]
    for r in csv.DictReader(open(pred_path)):
        b, c, h = int(r["batch"]), int(r["channels"]), int(r["hw"])
        t, pre = meas[(b, c, h)], float(r["predicted_us"])
        if not int(r["straddles"]):
            print(f"  b{b} c{c:4} {h:3}²  {t:7.1f} µs measured  does not straddle: not this family's")
            continue
        now = b * c * h * h * 2 * sectors_per_element(b, c, h) / (BW * f["bandwidth_efficiency"]) * 1e6 + f["overhead_us"]
        if t > 20:
            counts[0] += 1
            counts[1] += abs(pre / t - 1) <= 0.2
            counts[2] += abs(now / t - 1) <= 0.2
        print(f"  b{b} c{c:4} {h:3}²  {t:7.1f} µs measured  pre-registered {pre:7.1f} ({pre / t - 1:+6.1%}, "
              f"{float(r['sectors_per_element']):.2f} sectors)  now {now:7.1f} ({now / t - 1:+6.1%}, "
              f"{sectors_per_element(b, c, h):.2f})")
    print(f"  over 20 µs within ±20%: pre-registered {counts[1]} of {counts[0]}, now {counts[2]} of {counts[0]}")


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "--predict":
        return predict(sys.argv[2])
    if len(sys.argv) > 3 and sys.argv[1] == "--compare":
        return compare(sys.argv[2], sys.argv[3])
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "data", "gn_kernels.csv")
    pts = cases(path)
    fit, held = pts[0::2], pts[1::2]
    best = None
    for e in [x / 1000 for x in range(40, 201)]:
        for o in [x / 4 for x in range(0, 21)]:
            s = sum(abs(math.log((n / (BW * e) * 1e6 + o) / t)) for _, n, t in fit)
            if best is None or s < best[0]:
                best = (s, e, o)
    s, e, o = best
    print(f"bandwidth_efficiency {e} ({e * BW / 1e12:.3f} TB/s), overhead_us {o}: absolute log error {s:.4f} on {len(fit)}")
    for name, part in (("fit", fit), ("held out", held)):
        print(f"-- {name}")
        big = ok = 0
        for (b, c, h), n, t in part:
            p = n / (BW * e) * 1e6 + o
            if t > 20:
                big += 1
                ok += abs(p / t - 1) <= 0.2
            print(f"  b{b} c{c:4} {h:3}²  {b * c * h * h * 2 / 1e6:6.1f} MB  {sectors_per_element(b, c, h):4.2f} sectors/element"
                  f"  {p:7.1f} / {t:7.1f} µs  {p / t - 1:+6.1%}")
        print(f"  over 20 µs within ±20%: {ok} of {big}")


if __name__ == "__main__":
    main()
