#!/bin/bash
# Batch j on the GPU machine (one call): ../h100-calib-h/heldout.sh over calib_j.py's cases
# (the environment, the ncu pass, the CUDA-event timing pass). Refuses to run without COMMIT.
#
#   bash validation/gpu/h100-calib-j/calib_j.sh heldout COMMIT   # only once fgraph's predictions
#                                                                # (predictions_j.json) are committed
# $OUT receives env.txt, log.txt, ncu_heldout.csv, time_heldout.csv, cases.json.
here="$(cd "$(dirname "$0")" && pwd)"
exec bash "$here/../h100-calib-h/heldout.sh" "$here/calib_j.py" "$@"
