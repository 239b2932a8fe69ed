"""Calibration batch l for fgraph's hardware model (issue 23 item 7): a held-out check of batch
l's refit (fit_l.py) of top-k (a row read a warp of 32 at a time) and Inductor's split scan
(the blocks that wait on one another), on shapes none of the fit saw.

Every case is HELDOUT: the coefficients were fitted on batches h, i and k, and fgraph's
predictions for these cases (predict_l.py, predictions_l.json) are committed before they are
measured (calib_l.sh refuses to run without that commit).

Cases (batch i's builders, case records and method; ../h100-calib-k/calib_k.py's lists):
  topk        torch.topk(x, k, dim=-1): 48, 96, 24, 200, 384, 72, 33 and 128 experts over 3,072
              to 40,960 tokens, k 1 to 8, bf16 and f32 (none on PyTorch's multi-block path:
              more than 4,000 rows of 400 or more, or 800 to 4,000 rows of 800 or more)
  assoc_scan  `add` under torch.compile, split by Inductor: one row of 2M, 2 of 4M, 4 of 1M, 32
              of 131,072, 64 of 262,144, 200 of 32,768; and 1,024 rows of 8,192 (not split)

  python3 calib_l.py --list                 # the cases (no torch)
  python3 calib_l.py --json [--out DIR]     # cases.json
  python3 calib_l.py --profile --part heldout
  python3 calib_l.py --time --part heldout --out DIR
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "h100-calib-i"))
sys.path.insert(0, os.path.join(HERE, "..", "h100-calib-h"))
import calib_i as I  # noqa: E402  (sets calib_h's build to batch i's)
import calib_h as H  # noqa: E402
import heldout_cli  # noqa: E402  (calib_h's folder)

BYTES = I.BYTES

TOPK = [  # (tokens, experts, k, dtype)
    (6144, 48, 4, "bf16"), (20480, 96, 6, "f32"), (40960, 24, 2, "bf16"), (8192, 200, 8, "bf16"),
    (3072, 384, 8, "f32"), (28672, 72, 6, "bf16"), (12288, 33, 2, "f32"), (16384, 128, 1, "bf16"),
]
W4A16 = []
SCANS = [  # (combine, rows, length)
    ("add", 1, 1 << 21), ("add", 2, 1 << 22), ("add", 4, 1 << 20), ("add", 32, 1 << 17),
    ("add", 64, 1 << 18), ("add", 200, 1 << 15), ("add", 1024, 1 << 13),
]


def make_cases():
    out = []
    for T, Ex, k, dt in TOPK:
        e = BYTES[dt]
        out.append(H.simple_case(
            "topk", "moe", dt, "rows", f"{dt}_{T}x{Ex}_k{k}", dict(x=[T, Ex], values=[T, k], indices=[T, k]),
            dict(k=k, dim=-1, experts=Ex, largest=True, sorted=True), T * Ex * e, T * k * (e + 8), T * Ex))
    for M, N, K in W4A16:
        g = 128
        out.append(H.simple_case(
            "w4a16", "int4", "bf16", "tinygemm", f"bf16_M{M}_N{N}_K{K}_g{g}",
            dict(x=[M, K], w_packed_bytes=[K * N // 2], scales_and_zeros=[K // g, N, 2], y=[M, N]),
            dict(group_size=g, inner_k_tiles=8), M * K * 2 + K * N // 2 + (K // g) * N * 4, M * N * 2, 2 * M * N * K))
    for combine, R, L in SCANS:
        n = R * L * 4
        ins = 1 if combine == "add" else 2
        shapes = dict(x=[R, L], y=[R, L]) if combine == "add" else dict(a=[R, L], b=[R, L], a_out=[R, L], h=[R, L])
        out.append(H.simple_case(
            "assoc_scan", combine, "f32", "rows", f"{combine}_f32_{R}x{L}", shapes, dict(dim=1, combine=combine),
            ins * n, ins * n, R * L * (1 if combine == "add" else 3)))
    return heldout_cli.number(out)


CASES = make_cases()
H.CASES = CASES  # calib_h's profile_cases/time_cases/part_cases walk this list


if __name__ == "__main__":
    heldout_cli.main(H, CASES, HERE)
