"""Fits `model.conv.depthwise_channels_last_generic` (issue 23, VALIDATION §44): cuDNN's
`conv2d_c1_k1_nhwc`, which runs a channels-last depthwise convolution below batch 8 (dw_probe:
`conv2d_c1_k1_nhwc_specialized` from batch 8, whatever the stage). Each case's kernel alone
under Nsight Compute, L2 flushed (data/ncu/). Time = overhead + bytes / (bandwidth · eff) +
outputs · taps / taps_per_s, the depthwise families' form; least squares of the log error on
a grid, over the 7×7 generic cases (ConvNeXt's) of even index; those of odd index are held out.
The 3×3 cases are reported: the generic kernel runs them at about half the fitted time.

    python3 validation/gpu/models/dw_probe/fit_generic.py
"""
import csv
import itertools
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))
BW = 3.35e12  # the H100 preset's bandwidth


def cases():
    rows = list(csv.reader(open(os.path.join(HERE, "data", "ncu", "ncu.csv"))))
    hdr, recs = None, {}
    for r in rows:
        if r and r[0] == "ID":
            hdr = r
            continue
        if hdr and len(r) == len(hdr):
            d = dict(zip(hdr, r))
            rec = recs.setdefault(int(d["ID"]), {"name": d["Kernel Name"]})
            rec[d["Metric Name"]] = float(d["Metric Value"].replace(",", ""))
    out = []
    for c, (_, r) in zip(csv.DictReader(open(os.path.join(HERE, "data", "ncu", "cases.csv"))), sorted(recs.items())):
        n, ch, s, k = (int(c[x]) for x in ("batch", "channels", "side", "kernel"))
        x = n * ch * s * s * 2
        out.append(dict(case=int(c["case"]), n=n, c=ch, s=s, k=k, name=r["name"],
                        bytes=2 * x + ch * k * k * 2, taps=n * ch * s * s * k * k,
                        us=r["gpu__time_duration.sum"] / 1000))
    return out


def predict(c, eff, rate, over):
    return over + c["bytes"] / (BW * eff) * 1e6 + c["taps"] / rate * 1e6


def main():
    generic = [c for c in cases() if c["name"] == "conv2d_c1_k1_nhwc" and c["k"] == 7]
    small = [c for c in cases() if c["name"] == "conv2d_c1_k1_nhwc" and c["k"] == 3]
    fit = [c for c in generic if c["case"] % 2 == 0]
    held = [c for c in generic if c["case"] % 2 == 1]
    effs = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]
    rates = [r * 1e11 for r in range(15, 41)]
    overs = [o / 4 for o in range(20, 60)]
    best = min(((sum(math.log(c["us"] / predict(c, e, r, o)) ** 2 for c in fit), e, r, o)
                for e, r, o in itertools.product(effs, rates, overs)))
    _, e, r, o = best
    print(f"bandwidth_efficiency {e}, taps_per_s {r:.3g}, overhead_us {o}")
    for label, part in (("fitted (even)", fit), ("held out (odd)", held), ("3×3, not fitted (cuDNN's generic kernel is faster per tap there)", small)):
        ok = big = 0
        for c in part:
            p = predict(c, e, r, o)
            err = p / c["us"] - 1
            if c["us"] > 20:
                big += 1
                ok += abs(err) <= 0.2
            print(f"  {c['case']:3} {c['c']:4}x{c['s']:2}² b{c['n']} {c['k']}x{c['k']} {c['us']:7.2f} µs, predicted {p:7.2f} {err:+7.1%}")
        msle = sum(math.log(c["us"] / predict(c, e, r, o)) ** 2 for c in part) / len(part)
        print(f" {label}: mean squared log error {msle:.4f}; kernels over 20 µs within ±20%: {ok} of {big}")


if __name__ == "__main__":
    main()
