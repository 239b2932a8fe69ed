#!/bin/bash
# Batch g on the GPU machine (one call): batch e's device command over calib_g.py's cases.
exec bash "$(dirname "$0")/../h100-calib-e/calib_e.sh" "$(dirname "$0")/calib_g.py"
