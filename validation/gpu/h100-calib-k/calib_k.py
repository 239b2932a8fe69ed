"""Calibration batch k for fgraph's hardware model (issue 23 item 7): a held-out check of batch
k's refit (fit_k.py) of top-k, PyTorch's int4 weight-only GEMM (tinygemm) and Inductor's
split scan, on shapes none of the fit saw.

Every case is HELDOUT: the coefficients were fitted on batches h and i (both halves), and
fgraph's predictions for these cases (predict_k.py, predictions_k.json) are committed before
they are measured (calib_k.sh refuses to run without that commit).

Cases (batch i's builders, case records and method; ../h100-calib-i/calib_i.py):
  topk        torch.topk(x, k, dim=-1) over router scores [tokens, experts]: DeepSeek-V2-Lite
              (64 experts, k 6) at 4,096 tokens, Mixtral (8, k 2) at 1,024 and 65,536,
              Qwen3-MoE (128, k 8), DeepSeek-V3 (256, k 8, f32), Qwen1.5-MoE (60, k 4),
              512 experts k 10 (a sort of 16), 40 and 32 experts, k 1 over 16
  w4a16       torch._weight_int4pack_mm (group 128): decode GEMVs of Llama-3-70B
              (8192x8192, 8192->28672, 28672->8192) and Qwen2.5-7B (3584->18944, 18944->3584)
              at M 1 to 16, and prefill-sized M 128 and 512
  assoc_scan  associative_scan under torch.compile: `add` over few long rows (Inductor's split
              scan: 1x1M, 1x4M, 8x2M, 16x256K, 128x65536, 256x16384) and two controls that are
              not split (512x16384: enough rows; the linear recurrence over 4 rows of 1M: two
              tensors)

  python3 calib_k.py --list                 # the cases (no torch)
  python3 calib_k.py --json [--out DIR]     # cases.json
  python3 calib_k.py --profile --part heldout
  python3 calib_k.py --time --part heldout --out DIR
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
    (4096, 64, 6, "bf16"), (1024, 8, 2, "bf16"), (65536, 8, 2, "bf16"), (8192, 128, 8, "bf16"),
    (16384, 256, 8, "f32"), (12288, 60, 4, "bf16"), (4096, 512, 10, "bf16"), (24576, 40, 4, "f32"),
    (49152, 32, 4, "bf16"), (2048, 16, 1, "f32"),
]
W4A16 = [  # (M, N, K)
    (1, 8192, 8192), (1, 28672, 8192), (4, 8192, 28672), (1, 18944, 3584), (2, 3584, 18944),
    (8, 8192, 8192), (16, 28672, 8192), (128, 4096, 4096), (512, 14336, 4096),
]
SCANS = [  # (combine, rows, length)
    ("add", 1, 1 << 20), ("add", 1, 1 << 22), ("add", 8, 1 << 21), ("add", 16, 1 << 18),
    ("add", 128, 1 << 16), ("add", 256, 1 << 14), ("add", 512, 1 << 14), ("linear", 4, 1 << 20),
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
