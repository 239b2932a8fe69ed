"""Calibration batch j for fgraph's hardware model (issue 23 item 7): a held-out check of the
conv refit of batch j (fit_conv_j.py: cuDNN's CUTLASS align8 kernel for small-channel convs,
the padding copies' fills, the 3-D implicit GEMM), on shapes none of the fit saw.

Every case is HELDOUT: the coefficients were fitted on batches h and i (both halves), and
fgraph's predictions for these cases (predict_j.py, predictions_j.json) are committed before
they are measured (calib_j.sh refuses to run without that commit).

Cases (conv2d/conv3d through F.conv2d/F.conv3d, no bias, f16 or bf16 as listed, the layouts
listed; calib_h.py's builders, case records and method):
  small_c_stem  RGB stems: EfficientNet-B0's 3x3/2 (bf16, batch 64), RegNet's 3x3/2 (f16,
                batch 16), ResNet-50's 7x7/2 at batch 16 (bf16 both layouts, f16 channels-last)
  patchify      ViT-B/32 32x32/32 (bf16, batch 32), ViT-H/14 14x14/14 (f16, batch 8), DiT-XL/2
                2x2/2 on 4-channel 64x64 latents (f16, batch 32), Swin-L 4x4/4 (bf16, batch 32)
  sd_conv_in    SD's conv_in 4->320 3x3 at 96x96 latents (bf16, batch 4) and SDXL's at
                128x128 (f16, batch 2)
  conv3d        3x3x3 p1: 2x320x8x32x32 (bf16), 4x512x4x16x16 (f16), both layouts
  bodies        a ResNet 3x3 at batch 128 (f16), a 1x1 512->256 at 28x28 (bf16), a UNet
                3x3 640 at 48x48 (bf16): nothing there should move

  python3 calib_j.py --list                 # the cases (no torch)
  python3 calib_j.py --json [--out DIR]     # cases.json
  python3 calib_j.py --profile --part heldout
  python3 calib_j.py --time --part heldout --out DIR
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "h100-calib-h"))
import calib_h as H  # noqa: E402
import heldout_cli  # noqa: E402  (calib_h's folder)


BOTH = ("nchw", "channels_last")
BOTH_3D = ("ncdhw", "channels_last")

# (family, stratum, tag, dtype, layouts, N, C, K, spatial, kernel, stride, padding)
SHAPES = [
    ("conv2d", "small_c_stem", "effnet_b0_stem_n64", "bf16", BOTH, 64, 3, 32, [224, 224], 3, 2, 1),
    ("conv2d", "small_c_stem", "regnet_stem_n16", "f16", BOTH, 16, 3, 32, [224, 224], 3, 2, 1),
    ("conv2d", "small_c_stem", "r50_stem_n16", "bf16", BOTH, 16, 3, 64, [224, 224], 7, 2, 3),
    ("conv2d", "small_c_stem", "r50_stem_n16", "f16", ("channels_last",), 16, 3, 64, [224, 224], 7, 2, 3),
    ("conv2d", "patchify", "vit_b32_n32", "bf16", BOTH, 32, 3, 768, [224, 224], 32, 32, 0),
    ("conv2d", "patchify", "vit_h14_n8", "f16", BOTH, 8, 3, 1280, [224, 224], 14, 14, 0),
    ("conv2d", "patchify", "dit_xl2_n32", "f16", ("channels_last",), 32, 4, 1152, [64, 64], 2, 2, 0),
    ("conv2d", "patchify", "swin_l_n32", "bf16", BOTH, 32, 3, 192, [224, 224], 4, 4, 0),
    ("conv2d", "sd_conv_in", "sd_conv_in_96_n4", "bf16", BOTH, 4, 4, 320, [96, 96], 3, 1, 1),
    ("conv2d", "sd_conv_in", "sdxl_conv_in_128_n2", "f16", ("channels_last",), 2, 4, 320, [128, 128], 3, 1, 1),
    ("conv3d", "conv3d", "video_320_n2", "bf16", BOTH_3D, 2, 320, 320, [8, 32, 32], 3, 1, 1),
    ("conv3d", "conv3d", "video_512_n4", "f16", BOTH_3D, 4, 512, 512, [4, 16, 16], 3, 1, 1),
    ("conv2d", "bodies", "r50_l2_3x3_n128", "f16", ("channels_last",), 128, 128, 128, [28, 28], 3, 1, 1),
    ("conv2d", "bodies", "r50_1x1_512to256_n64", "bf16", ("nchw",), 64, 512, 256, [28, 28], 1, 1, 0),
    ("conv2d", "bodies", "sd_640_48_n2", "bf16", ("nchw",), 2, 640, 640, [48, 48], 3, 1, 1),
]


def make_cases():
    out = []
    for family, stratum, tag, dt, layouts, N, C, K, sp, k, s, p in SHAPES:
        for lay in layouts:
            out.append(dict(H.conv_case(family, stratum, dt, lay, N, C, K, sp, k, s, p, tag=tag), stratum=stratum))
    return heldout_cli.number(out)


CASES = make_cases()
H.CASES = CASES  # calib_h's profile_cases/time_cases/part_cases walk this list


if __name__ == "__main__":
    heldout_cli.main(H, CASES, HERE)
