#!/bin/bash
# Batch k on the GPU machine (one call): ../h100-calib-h/heldout.sh over calib_k.py's cases
# (the environment, the ncu pass, the CUDA-event timing pass). Refuses to run without COMMIT.
#
#   bash validation/gpu/h100-calib-k/calib_k.sh heldout COMMIT   # only once fgraph's predictions
#                                                                # (predictions_k.json) are committed
# $OUT receives env.txt, log.txt, ncu_heldout.csv, time_heldout.csv, cases.json.
here="$(cd "$(dirname "$0")" && pwd)"
exec bash "$here/../h100-calib-h/heldout.sh" "$here/calib_k.py" "$@"
