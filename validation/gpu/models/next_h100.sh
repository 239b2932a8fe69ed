#!/bin/sh
# The H100 measurements issue 24 waits on, pre-registered before any was taken (VALIDATION
# §57, §58, §60, §62, §63). Run on an `nvidia-h100-x1` only (an H200 never enters the H100 preset), from
# the repository root, one part a call (each under the 10-minute limit):
#
#   sh validation/gpu/models/next_h100.sh batch39   # batch 39's emitted modules: measure.py
#   sh validation/gpu/models/next_h100.sh plain39   # the same modules' plain launches in rounds
#   sh validation/gpu/models/next_h100.sh hf6       # §57's held-out cases: transformers' own models
#   sh validation/gpu/models/next_h100.sh em6       # §57's held-out cases: the traced files' modules
#   sh validation/gpu/models/next_h100.sh hfg       # §62's held-out GPT-2 cases: transformers' GPT-2
#   sh validation/gpu/models/next_h100.sh emg       # §62's held-out GPT-2 cases: the traced files' modules
#
# Each part writes one archive, $OUT/PART.tar.gz, to unpack in validation/gpu/models/
# (batch39: data39/; plain39: data_plain/b39/; hf6, em6, hfg, emg: hf_real/data/PART/).
# Then: `python3 validation/gpu/models/hf_real/traced.py --sixth-compare` (§57-58's table,
# both pre-registrations and now) and `cargo test --release --test whole_models -- --nocapture`
# (batch 39 now; its pre-registrations: predictions_models_39.json and predictions_plain_39.json,
# §60, and predictions_models_39b.json and predictions_plain_39b.json after §63's split-K rule),
# and `python3 validation/gpu/models/hf_real/traced.py --gpt2-compare` (§62's table).
set -e
: "${OUT:?set OUT to a folder that comes back}"
cd "$(dirname "$0")"
W=$(mktemp -d)
case "$1" in
batch39)
    python3 measure.py emitted39 "$W/data39"
    tar -czf "$OUT/batch39.tar.gz" -C "$W" data39
    ;;
plain39)
    mkdir -p "$W/data_plain"
    python3 plain_rounds.py "$W/data_plain/b39" emitted39
    tar -czf "$OUT/plain39.tar.gz" -C "$W" data_plain
    ;;
hf6|em6|hfg|emg)
    mkdir -p "$W/hf_real/data"
    case "$1" in
    hf6) dir=hf_real/cases6 ;;
    em6) dir=hf_real/emitted6 ;;
    hfg) dir=hf_real/cases_gpt2 ;;
    *) dir=hf_real/emitted_gpt2 ;;
    esac
    python3 measure.py "$dir" "$W/hf_real/data/$1"
    tar -czf "$OUT/$1.tar.gz" -C "$W" hf_real
    ;;
*)
    echo "usage: next_h100.sh batch39|plain39|hf6|em6|hfg|emg" >&2
    exit 2
    ;;
esac
