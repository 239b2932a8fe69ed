#!/bin/bash
# Batch l on the GPU machine (one call): ../h100-calib-h/heldout.sh over calib_l.py's cases
# (the environment, the ncu pass, the CUDA-event timing pass). Refuses to run without COMMIT.
#
#   bash validation/gpu/h100-calib-l/calib_l.sh heldout COMMIT   # only once fgraph's predictions
#                                                                # (predictions_l.json) are committed
# $OUT receives env.txt, log.txt, ncu_heldout.csv, time_heldout.csv, cases.json.
here="$(cd "$(dirname "$0")" && pwd)"
exec bash "$here/../h100-calib-h/heldout.sh" "$here/calib_l.py" "$@"
