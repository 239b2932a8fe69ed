"""Whole models through `fgraph emit torch` -> H100 measurement -> comparison with `--runtime`
(issue 24 items 3 and 4). No torch needed here.

    cargo build
    python3 validation/gpu/models/cases.py --emit DIR     # DIR/CASE.py per case
    python3 validation/gpu/models/cases.py --predict [--batch 2]  # predictions_models[_2].json (commit BEFORE measuring)
    # device (nvidia-h100-x1), one call or several (--only a,b):
    python3 validation/gpu/models/cases.py --emit /tmp/m && python3 validation/gpu/models/measure.py /tmp/m $OUT
    python3 validation/gpu/models/compare.py DATA_DIR     # the table (VALIDATION.md §21)

A case is a shipped example at stated params (`--set`), its repeat count replaced by a depth
where the whole model would take too long to compile (a per-layer slope from two depths); the
`.fgraph` written is what both fgraph and PyTorch see. Each case is measured four ways: eager
and `torch.compile` (default mode), each by CUDA-graph replay and by plain launches, with the
kernels of one step counted by the profiler; fgraph predicts each with `analyze --runtime
eager|compile --launch graph|eager --traffic-model hardware --hardware h100` (`cost.runtime`).

Which models: none of them was used to fit a coefficient of the runtime model (fitted on
Llama-3-8B's layers and the calibration batches of single kernels): GPT-2 small (f16,
1,024 tokens), Whisper-tiny's encoder (f16, batch 8), ResNet-50 (bf16, batch 32,
channels-last), a Mixtral-8x7B MoE layer (bf16, 4,096 tokens, balanced routing), and
Mistral-7B's sizes (Llama-3-8B's architecture with a 32,000-token vocabulary: hidden 4096,
32/8 heads, MLP 14336) at prefill of 2,048 tokens and at decode of batch 1 and 16 against a
4,095-token cache, at 4 and 8 layers.
"""
import argparse, csv, json, os, re, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
BIN = os.environ.get("FGRAPH", os.path.join(ROOT, "target", "debug", "fgraph"))
# The hardware `--predict` prices on: the H100 preset, or a hardware file (a model as it was
# before a change, for a before/after table; VALIDATION.md §48).
HARDWARE = os.environ.get("FGRAPH_HARDWARE", "h100")

# name: (example, {param: value}, (repeat count in the file, depth) or None)
CASES = {
    "gpt2_small_s1024": ("examples/gpt2_small.fgraph", {"S": 1024}, None),
    "whisper_tiny_enc_b8": ("examples/whisper_tiny_encoder.fgraph", {"B": 8}, None),
    "resnet50_b32": ("examples/resnet50.fgraph", {}, None),
    "mixtral_moe_s4096": ("examples/mixtral_moe.fgraph", {"S": 4096}, None),
    "mistral7b_prefill_s2048_l4": ("examples/llama3_8b.fgraph", {"S": 2048, "V": 32000}, (32, 4)),
    "mistral7b_prefill_s2048_l8": ("examples/llama3_8b.fgraph", {"S": 2048, "V": 32000}, (32, 8)),
    "mistral7b_decode_b1_l4": ("examples/llama3_8b_decode.fgraph", {"B": 1, "T": 4095, "V": 32000}, (32, 4)),
    "mistral7b_decode_b1_l8": ("examples/llama3_8b_decode.fgraph", {"B": 1, "T": 4095, "V": 32000}, (32, 8)),
    "mistral7b_decode_b16_l4": ("examples/llama3_8b_decode.fgraph", {"B": 16, "T": 4095, "V": 32000}, (32, 4)),
    "mistral7b_decode_b16_l8": ("examples/llama3_8b_decode.fgraph", {"B": 16, "T": 4095, "V": 32000}, (32, 8)),
}
# Batch 2: the held-out check of the refit on batch 1 (fit_host.py, the Triton transposing copy):
# models and sizes batch 1 did not have. Predictions in predictions_models_2.json.
CASES2 = {
    "vit_b16_block_b32": ("examples/vit_block.fgraph", {"B": 32}, None),
    "convnext_block_b32": ("examples/convnext_block.fgraph", {"B": 32}, None),
    "deepseek_v2_lite_moe_s2048": ("examples/deepseek_v2_lite_moe.fgraph", {"S": 2048}, None),
    "sd15_unet_down_b2": ("examples/sd15_unet_down_block.fgraph", {"B": 2}, None),
    "whisper_tiny_enc_b16": ("examples/whisper_tiny_encoder.fgraph", {"B": 16}, None),
    "mixtral_moe_s1024": ("examples/mixtral_moe.fgraph", {"S": 1024}, None),
    "llama3_8b_decode_b4_t8191_l4": ("examples/llama3_8b_decode.fgraph", {"B": 4, "T": 8191}, (32, 4)),
    "llama3_8b_decode_b4_t8191_l8": ("examples/llama3_8b_decode.fgraph", {"B": 4, "T": 8191}, (32, 8)),
    "llama3_8b_prefill_s1024_l4": ("examples/llama3_8b.fgraph", {"S": 1024}, (32, 4)),
    "llama3_8b_prefill_s1024_l8": ("examples/llama3_8b.fgraph", {"S": 1024}, (32, 8)),
}
# Batch 3: the held-out check of the refit on batches 1 and 2's per-kernel profiles (the
# runtime's copies by copy_eager / copy_generated / copy_transpose, a matmul after a broadcast
# copy reading the copy). Predictions in predictions_models_3.json.
CASES3 = {
    "gpt2_small_s512": ("examples/gpt2_small.fgraph", {"S": 512}, None),
    "whisper_tiny_enc_b4": ("examples/whisper_tiny_encoder.fgraph", {"B": 4}, None),
    "vit_b16_block_b8": ("examples/vit_block.fgraph", {"B": 8}, None),
    "convnext_block_b8": ("examples/convnext_block.fgraph", {"B": 8}, None),
    "mixtral_moe_s2048": ("examples/mixtral_moe.fgraph", {"S": 2048}, None),
    "llama3_8b_decode_b8_t2047_l4": ("examples/llama3_8b_decode.fgraph", {"B": 8, "T": 2047}, (32, 4)),
    "llama3_8b_decode_b8_t2047_l8": ("examples/llama3_8b_decode.fgraph", {"B": 8, "T": 2047}, (32, 8)),
    "llama3_8b_decode_b2_t16383_l4": ("examples/llama3_8b_decode.fgraph", {"B": 2, "T": 16383}, (32, 4)),
    "llama3_8b_decode_b2_t16383_l8": ("examples/llama3_8b_decode.fgraph", {"B": 2, "T": 16383}, (32, 8)),
    "llama3_8b_prefill_s4096_l4": ("examples/llama3_8b.fgraph", {"S": 4096}, (32, 4)),
}
# Batch 4: models as `fgraph import hf` writes them from published configs (imported/, made
# by `fgraph import hf tests/fixtures/hf/CONFIG --seq N | --decode --context N --batch B -o
# ...`), their depth set by the param L: Qwen2.5-7B (QKV biases), Phi-3-mini (fused QKV and
# gate/up), Gemma-2B (GeGLU, head 256, MQA) and Mistral-7B. Same model as batch 3 (no refit
# since). Predictions in predictions_models_4.json.
IMP = "validation/gpu/models/imported/"
CASES4 = {
    "qwen2_5_7b_prefill_s1024_l4": (IMP + "qwen2_5_7b_prefill.fgraph", {"L": 4}, None),
    "qwen2_5_7b_prefill_s1024_l8": (IMP + "qwen2_5_7b_prefill.fgraph", {"L": 8}, None),
    "qwen2_5_7b_decode_b4_t4095_l4": (IMP + "qwen2_5_7b_decode.fgraph", {"L": 4}, None),
    "qwen2_5_7b_decode_b4_t4095_l8": (IMP + "qwen2_5_7b_decode.fgraph", {"L": 8}, None),
    "phi3_mini_prefill_s1024_l4": (IMP + "phi3_mini_prefill.fgraph", {"L": 4}, None),
    "phi3_mini_prefill_s1024_l8": (IMP + "phi3_mini_prefill.fgraph", {"L": 8}, None),
    "gemma_2b_decode_b8_t2047_l4": (IMP + "gemma_2b_decode.fgraph", {"L": 4}, None),
    "gemma_2b_decode_b8_t2047_l8": (IMP + "gemma_2b_decode.fgraph", {"L": 8}, None),
    "mistral_7b_decode_b2_t4095_l4": (IMP + "mistral_7b_decode.fgraph", {"L": 4}, None),
    "mistral_7b_decode_b2_t4095_l8": (IMP + "mistral_7b_decode.fgraph", {"L": 8}, None),
}
# Batch 5: the held-out check of the stream terms (fit_stream.py: each CUDA kernel
# `model.host.stream_discount_us` shorter than the hardware model's time alone, 0.3 µs between
# kernels), fitted on batches 1-4. Models no batch had, as `fgraph import hf` writes them:
# Llama-2-7B (multi-head attention, no GQA copies) at prefill and decode of batch 1 and 16,
# Gemma-2-9B (bf16; sliding-window and global layers in pairs, logit soft-capping, vocabulary
# 256,000) at decode of batch 1 and 16 and prefill, BERT-base (f16 encoder, batch 8 of 512
# tokens, all 12 layers) and Mixtral-8x7B's whole decoder layers (balanced routing) at 2 and 4
# layers. Predictions in predictions_models_5.json.
CASES5 = {
    "llama2_7b_prefill_s2048_l4": (IMP + "llama2_7b_prefill.fgraph", {"L": 4}, None),
    "llama2_7b_prefill_s2048_l8": (IMP + "llama2_7b_prefill.fgraph", {"L": 8}, None),
    "llama2_7b_decode_b1_t2047_l4": (IMP + "llama2_7b_decode_b1.fgraph", {"L": 4}, None),
    "llama2_7b_decode_b1_t2047_l8": (IMP + "llama2_7b_decode_b1.fgraph", {"L": 8}, None),
    "llama2_7b_decode_b16_t1023_l4": (IMP + "llama2_7b_decode_b16.fgraph", {"L": 4}, None),
    "llama2_7b_decode_b16_t1023_l8": (IMP + "llama2_7b_decode_b16.fgraph", {"L": 8}, None),
    "gemma2_9b_decode_b1_t4095_l4": (IMP + "gemma2_9b_decode_b1.fgraph", {"L": 4}, None),
    "gemma2_9b_decode_b1_t4095_l8": (IMP + "gemma2_9b_decode_b1.fgraph", {"L": 8}, None),
    "gemma2_9b_decode_b16_t2047_l4": (IMP + "gemma2_9b_decode_b16.fgraph", {"L": 4}, None),
    "gemma2_9b_prefill_s1024_l4": (IMP + "gemma2_9b_prefill.fgraph", {"L": 4}, None),
    "bert_base_b8_s512": (IMP + "bert_base_b8.fgraph", {}, None),
    "mixtral_8x7b_prefill_s1024_l2": (IMP + "mixtral_8x7b_prefill.fgraph", {"L": 2}, None),
    "mixtral_8x7b_prefill_s1024_l4": (IMP + "mixtral_8x7b_prefill.fgraph", {"L": 4}, None),
}
# Batch 6: the held-out check of the refit on batch 5 (fit_stream.py on batches 1-5 with the
# sustained derate; compile's f32 one-row bmm; Triton transposes within L2; eager's masked_fill
# clone). Models no batch had, from their published configs (configs/, written for this
# batch), as `fgraph import hf` writes them: Llama-3.2-1B (all 16 layers; prefill of 2,048
# tokens, decode of batch 1 against 4,095 positions), Qwen2.5-1.5B (all 28 layers; decode of
# batch 16 against 1,023, prefill of 1,024), GPT-2 medium (f16, batch 4 of 1,024 tokens, all 24
# layers), Llama-2-13B (multi-head; decode of batch 4 against 2,047 at 4 and 8 layers, prefill
# of 1,024 at 4) and BERT-large (f16, batch 16 of 384 tokens, all 24 layers). Predictions in
# predictions_models_6.json.
CASES6 = {
    "llama3_2_1b_prefill_s2048": (IMP + "llama3_2_1b_prefill.fgraph", {}, None),
    "llama3_2_1b_decode_b1_t4095": (IMP + "llama3_2_1b_decode_b1.fgraph", {}, None),
    "qwen2_5_1_5b_decode_b16_t1023": (IMP + "qwen2_5_1_5b_decode_b16.fgraph", {}, None),
    "qwen2_5_1_5b_prefill_s1024": (IMP + "qwen2_5_1_5b_prefill.fgraph", {}, None),
    "gpt2_medium_b4_s1024": (IMP + "gpt2_medium_b4.fgraph", {}, None),
    "llama2_13b_decode_b4_t2047_l4": (IMP + "llama2_13b_decode_b4.fgraph", {"L": 4}, None),
    "llama2_13b_decode_b4_t2047_l8": (IMP + "llama2_13b_decode_b4.fgraph", {"L": 8}, None),
    "llama2_13b_prefill_s1024_l4": (IMP + "llama2_13b_prefill.fgraph", {"L": 4}, None),
    "bert_large_b16_s384": (IMP + "bert_large_b16.fgraph", {}, None),
}
# Batch 7: the held-out check of the rules written after batch 6 (compile's padded GEMMs,
# rule 6; Triton norms and persistent softmaxes at the streaming rate; the stream terms refitted
# on batches 1-5). Models and shapes no batch had: TinyLlama-1.1B (all 22 layers; prefill of
# 2,048, decode of batch 8 against 2,047), GPT-2 large (f16, batch 2 of 1,024, all 36 layers:
# its LM head is unaligned), Phi-3-mini at decode of batch 4 against 4,095 (4 and 8 layers),
# Gemma-2B at prefill of 2,048 (all 18 layers), BERT-base at batch 32 of 128 tokens, and
# Mixtral-8x7B's decode of batch 16 against 1,023 (2 layers, balanced routing). Predictions in
# predictions_models_7.json.
CASES7 = {
    "tinyllama_prefill_s2048": (IMP + "tinyllama_prefill.fgraph", {}, None),
    "tinyllama_decode_b8_t2047": (IMP + "tinyllama_decode_b8.fgraph", {}, None),
    "gpt2_large_b2_s1024": (IMP + "gpt2_large_b2.fgraph", {}, None),
    "phi3_mini_decode_b4_t4095_l4": (IMP + "phi3_mini_decode_b4.fgraph", {"L": 4}, None),
    "phi3_mini_decode_b4_t4095_l8": (IMP + "phi3_mini_decode_b4.fgraph", {"L": 8}, None),
    "gemma_2b_prefill_s2048": (IMP + "gemma_2b_prefill.fgraph", {}, None),
    "bert_base_b32_s128": (IMP + "bert_base_b32_s128.fgraph", {}, None),
    "mixtral_decode_b16_t1023_l2": (IMP + "mixtral_decode_b16.fgraph", {"L": 2}, None),
}
# Batch 8: the held-out check of the rules written after batch 7 (compile's f32 GEMV for f16
# only; small sorts as streaming kernels; the stream refit). Qwen2.5-0.5B (all 24 layers;
# prefill of 1,024, decode of batch 4 against 2,047), Llama-2-7B in bf16 at decode of batch 8
# against 2,047 (4 layers: multi-head in bf16), GPT-2 XL (f16, 1,024 tokens, all 48 layers),
# Qwen2.5-7B at decode of batch 16 against 1,023 (4 layers), Mistral-7B at prefill of 4,096 (4
# layers) and DeepSeek-V2-Lite's decode of batch 4 against 2,047 (its dense layer and 3 MoE
# layers: multi-head latent attention, 64 routed experts). Predictions in
# predictions_models_8.json.
CASES8 = {
    "qwen2_5_0_5b_prefill_s1024": (IMP + "qwen2_5_0_5b_prefill.fgraph", {}, None),
    "qwen2_5_0_5b_decode_b4_t2047": (IMP + "qwen2_5_0_5b_decode_b4.fgraph", {}, None),
    "llama2_7b_bf16_decode_b8_t2047_l4": (IMP + "llama2_7b_bf16_decode_b8.fgraph", {"L": 4}, None),
    "gpt2_xl_s1024": (IMP + "gpt2_xl_s1024.fgraph", {}, None),
    "qwen2_5_7b_decode_b16_t1023_l4": (IMP + "qwen2_5_7b_decode_b16.fgraph", {"L": 4}, None),
    "mistral_7b_prefill_s4096_l4": (IMP + "mistral_7b_prefill_s4096.fgraph", {"L": 4}, None),
    "deepseek_v2_lite_decode_b4_t2047_l4": (IMP + "deepseek_v2_lite_decode_b4.fgraph", {}, (26, 3)),
}
# Batch 9: the held-out check of batch 8's rule 5 (Inductor's f32 GEMV at caches of at most
# 2,048 positions): Llama-2-7B (f16, multi-head) decoding batch 4 against 4,095 and 3,071
# positions (predicted in 16 bits), Phi-3-mini (bf16, multi-head) against 1,023 (predicted
# in f32), and grouped-query and encoder shapes no batch had: Qwen2.5-1.5B decoding batch 1
# against 8,191 (all 28 layers), TinyLlama decoding batch 32 against 511 (all 22 layers),
# BERT-large at batch 4 of 512 (24 layers). Predictions in predictions_models_9.json.
CASES9 = {
    "llama2_7b_decode_b4_t4095_l4": (IMP + "llama2_7b_decode_b4_t4095.fgraph", {"L": 4}, None),
    "llama2_7b_decode_b4_t3071_l4": (IMP + "llama2_7b_decode_b4_t3071.fgraph", {"L": 4}, None),
    "phi3_mini_decode_b8_t1023_l4": (IMP + "phi3_mini_decode_b8_t1023.fgraph", {"L": 4}, None),
    "qwen2_5_1_5b_decode_b1_t8191": (IMP + "qwen2_5_1_5b_decode_b1_t8191.fgraph", {}, None),
    "tinyllama_decode_b32_t511": (IMP + "tinyllama_decode_b32_t511.fgraph", {}, None),
    "bert_large_b4_s512": (IMP + "bert_large_b4_s512.fgraph", {}, None),
}
# Batch 10: the held-out check of batch 9's rule 5 (unmasked one-row decode attention as
# Inductor's math SDPA in f32): Phi-3-mini (bf16) against 2,999 positions (its window masks:
# predicted in 16 bits), Llama-2-13B (f16) decoding batch 1 against 1,023 and Llama-2-7B (f16)
# batch 32 against 511 (predicted in f32), Qwen2.5-0.5B decoding batch 16 against 1,023 (all
# 24 layers, grouped-query), Gemma-2-9B (bf16) decoding batch 2 against 8,191 (4 layers,
# sliding-window layers). Predictions in predictions_models_10.json.
CASES10 = {
    "phi3_mini_decode_b4_t2999_l4": (IMP + "phi3_mini_decode_b4_t2999.fgraph", {"L": 4}, None),
    "llama2_13b_decode_b1_t1023_l4": (IMP + "llama2_13b_decode_b1_t1023.fgraph", {"L": 4}, None),
    "llama2_7b_decode_b32_t511_l4": (IMP + "llama2_7b_decode_b32_t511.fgraph", {"L": 4}, None),
    "qwen2_5_0_5b_decode_b16_t1023": (IMP + "qwen2_5_0_5b_decode_b16_t1023.fgraph", {}, None),
    "gemma2_9b_decode_b2_t8191_l4": (IMP + "gemma2_9b_decode_b2_t8191.fgraph", {"L": 4}, None),
}
# Batch 11: the held-out check of the two changes read off batches 1-10 (VALIDATION §23):
# Inductor's transposing copy of a tile of at most 256 KiB 1.25 times faster than PyTorch's
# (fitted on batches 2-8), and the hosts' time per kernel refitted on batches 1-8 (21.2 µs
# eager, 24.5 compile). Decodes whose Kᵀ tile is small (Mistral-7B b16 at 511, Llama-3-8B b32
# at 1,023, Llama-2-7B b16 at 255 in f32, Gemma-2B b16 at 511 with 256-wide heads, TinyLlama
# b16 at 1,023, Phi-3-mini b16 at 511 in f32) or large (Qwen2.5-0.5B b8 at 4,095), and two
# prefills (GPT-2 medium at batch 8 of 512, Qwen2.5-1.5B at 2,048). Predictions in
# predictions_models_11.json.
CASES11 = {
    "mistral_7b_decode_b16_t511_l4": (IMP + "mistral_7b_decode_b16_t511.fgraph", {"L": 4}, None),
    "llama3_8b_decode_b32_t1023_l4": (IMP + "llama3_8b_decode_b32_t1023.fgraph", {"L": 4}, None),
    "llama2_7b_decode_b16_t255_l4": (IMP + "llama2_7b_decode_b16_t255.fgraph", {"L": 4}, None),
    "qwen2_5_0_5b_decode_b8_t4095": (IMP + "qwen2_5_0_5b_decode_b8_t4095.fgraph", {}, None),
    "gemma_2b_decode_b16_t511": (IMP + "gemma_2b_decode_b16_t511.fgraph", {}, None),
    "tinyllama_decode_b16_t1023": (IMP + "tinyllama_decode_b16_t1023.fgraph", {}, None),
    "phi3_mini_decode_b16_t511_l4": (IMP + "phi3_mini_decode_b16_t511.fgraph", {"L": 4}, None),
    "gpt2_medium_b8_s512": (IMP + "gpt2_medium_b8_s512.fgraph", {}, None),
    "qwen2_5_1_5b_prefill_s2048": (IMP + "qwen2_5_1_5b_prefill_s2048.fgraph", {}, None),
}
# Batch 12: the held-out check of compile's rule 7 (a 2-D convolution stated NCHW runs
# channels-last) and of Triton's group norm at streaming rates, both read off SD 1.5's
# compiled down block at batch 2 (batch 2): the same block at batch 1 and 4 and at 96×96
# latents, ResNet-50 in NCHW (every conv's `channels_last` removed) at batch 32 and 8, and the
# shipped channels-last ResNet-50 at batch 8. Predictions in predictions_models_12.json.
CASES12 = {
    "sd15_unet_down_b1": ("examples/sd15_unet_down_block.fgraph", {"B": 1}, None),
    "sd15_unet_down_b4": ("examples/sd15_unet_down_block.fgraph", {"B": 4}, None),
    "sd15_unet_down_b2_h96": ("examples/sd15_unet_down_block.fgraph", {"B": 2, "H": 96}, None),
    "resnet50_nchw_b32": (IMP + "resnet50_nchw.fgraph", {}, None),
    "resnet50_nchw_b8": (IMP + "resnet50_nchw.fgraph", {"B": 8}, None),
    "resnet50_b8": ("examples/resnet50.fgraph", {"B": 8}, None),
}
# Batch 13: SD-like down blocks at SD 1.5's other widths (imported/sd15_down_width.fgraph:
# the head dim and GEGLU size follow the width), held out from attention's head-dim step of
# 64 (VALIDATION §25: heads of 80 and 160 run cuDNN's 128 and 192 kernels), rule 7 and
# Triton's group norm: 640 channels at 32×32 and 48×48, 1,280 at 16×16 and at 32×32 for
# batch 4, and 320 at batch 8. Predictions in predictions_models_13.json.
CASES13 = {
    "sd15_down_c640_h32_b2": (IMP + "sd15_down_width.fgraph", {"B": 2, "C": 640, "H": 32}, None),
    "sd15_down_c640_h48_b2": (IMP + "sd15_down_width.fgraph", {"B": 2, "C": 640, "H": 48}, None),
    "sd15_down_c1280_h16_b2": (IMP + "sd15_down_width.fgraph", {"B": 2, "C": 1280, "H": 16}, None),
    "sd15_down_c1280_h32_b4": (IMP + "sd15_down_width.fgraph", {"B": 4, "C": 1280, "H": 32}, None),
    "sd15_down_c320_h64_b8": (IMP + "sd15_down_width.fgraph", {"B": 8}, None),
}
# Batch 14: a fresh held-out batch for the model at the end of VALIDATION §29 (cuDNN's
# transposes counted, plain launches measured in rounds as well as once): models at sizes no
# batch had. Qwen2.5-7B decoding batch 8 against 2,047 (4 layers), GPT-2 large at batch 4 of
# 512, Llama-3.2-1B decoding batch 8 against 2,047 (all 16 layers), Phi-3-mini prefilling
# 2,048 (4 layers), Mistral-7B decoding batch 8 against 1,023 (4 layers), Whisper-tiny's
# encoder at batch 32, a ViT-B/16 block at batch 16 and SD 1.5's down block at 48×48 latents.
# Predictions in predictions_models_14.json and predictions_plain_14.json.
CASES14 = {
    "qwen2_5_7b_decode_b8_t2047_l4": (IMP + "qwen2_5_7b_decode.fgraph", {"B": 8, "P": 2047, "L": 4}, None),
    "gpt2_large_b4_s512": (IMP + "gpt2_large_b2.fgraph", {"B": 4, "S": 512}, None),
    "llama3_2_1b_decode_b8_t2047": (IMP + "llama3_2_1b_decode_b1.fgraph", {"B": 8, "P": 2047}, None),
    "phi3_mini_prefill_s2048_l4": (IMP + "phi3_mini_prefill.fgraph", {"S": 2048, "L": 4}, None),
    "mistral_7b_decode_b8_t1023_l4": (IMP + "mistral_7b_decode.fgraph", {"B": 8, "P": 1023, "L": 4}, None),
    "whisper_tiny_enc_b32": ("examples/whisper_tiny_encoder.fgraph", {"B": 32}, None),
    "vit_b16_block_b16": ("examples/vit_block.fgraph", {"B": 16}, None),
    "sd15_unet_down_b2_h48": ("examples/sd15_unet_down_block.fgraph", {"B": 2, "H": 48}, None),
}
# Batch 15: held out from fit_derate.py's sustained derate by share and from the Triton pools
# (VALIDATION §32): BERT, GPT-2 medium, ResNet-50 and ConvNeXt at batch sizes no batch had, and
# two prefills of long GEMMs. Predictions in predictions_models_15.json.
CASES15 = {
    "bert_base_b16_s256": (IMP + "bert_base_b8.fgraph", {"B": 16, "S": 256}, None),
    "bert_large_b8_s256": (IMP + "bert_large_b16.fgraph", {"B": 8, "S": 256}, None),
    "gpt2_medium_b16_s256": (IMP + "gpt2_medium_b4.fgraph", {"B": 16, "S": 256}, None),
    "resnet50_b16": ("examples/resnet50.fgraph", {"B": 16}, None),
    "resnet50_nchw_b16": (IMP + "resnet50_nchw.fgraph", {"B": 16}, None),
    "convnext_block_b16": ("examples/convnext_block.fgraph", {"B": 16}, None),
    "qwen2_5_7b_prefill_s2048_l4": (IMP + "qwen2_5_7b_prefill.fgraph", {"S": 2048, "L": 4}, None),
    "mistral_7b_prefill_s2048_l4": (IMP + "mistral_7b_prefill_s4096.fgraph", {"S": 2048, "L": 4}, None),
}
# Batch 16: held out from Inductor's weight copy before a contiguous 3×3 conv and from the
# query-block rule of attention (VALIDATION §33-34): SD 1.5's down blocks at sizes no batch had,
# ResNet-50 stated NCHW at batches 4 and 24, BERT-base at 4 × 384 and Llama-3-8B's prefill of
# 3,072 tokens (4 layers). Predictions in predictions_models_16.json.
CASES16 = {
    "sd15_unet_down_b1_h80": ("examples/sd15_unet_down_block.fgraph", {"B": 1, "H": 80}, None),
    "sd15_unet_down_b3": ("examples/sd15_unet_down_block.fgraph", {"B": 3}, None),
    "sd15_down_c640_h24_b4": (IMP + "sd15_down_width.fgraph", {"B": 4, "C": 640, "H": 24}, None),
    "sd15_down_c1280_h24_b1": (IMP + "sd15_down_width.fgraph", {"B": 1, "C": 1280, "H": 24}, None),
    "resnet50_nchw_b4": (IMP + "resnet50_nchw.fgraph", {"B": 4}, None),
    "resnet50_nchw_b24": (IMP + "resnet50_nchw.fgraph", {"B": 24}, None),
    "bert_base_b4_s384": (IMP + "bert_base_b8.fgraph", {"B": 4, "S": 384}, None),
    "llama3_8b_prefill_s3072_l4": ("examples/llama3_8b.fgraph", {"S": 3072}, (32, 4)),
}
# Batch 17: held out from the batch norm's statistics kernels and its channels-last kernel's
# family (VALIDATION §35): ResNet-50 channels-last at batches 4, 12 and 24 and stated NCHW at
# 12, and ResNet-101 (layer3 of 23 bottlenecks) at batch 8 in both layouts and 16
# channels-last. Predictions in predictions_models_17.json.
CASES17 = {
    "resnet50_b4": ("examples/resnet50.fgraph", {"B": 4}, None),
    "resnet50_b12": ("examples/resnet50.fgraph", {"B": 12}, None),
    "resnet50_b24": ("examples/resnet50.fgraph", {"B": 24}, None),
    "resnet50_nchw_b12": (IMP + "resnet50_nchw.fgraph", {"B": 12}, None),
    "resnet101_b8": ("examples/resnet50.fgraph", {"B": 8}, (5, 22)),
    "resnet101_nchw_b8": (IMP + "resnet50_nchw.fgraph", {"B": 8}, (5, 22)),
    "resnet101_b16": ("examples/resnet50.fgraph", {"B": 16}, (5, 22)),
}
# Batch 18: held out from everything of VALIDATION §35 (the batch norm's kernels, its DRAM
# bytes, the refits): ResNet-101 at batch 32 channels-last and 16 stated NCHW, a ResNet with a
# layer3 of 36 bottlenecks (ResNet-152's) at batch 16, ResNet-50 at batch 48, and four
# transformers at sizes no batch had: BERT-base 8 × 384, GPT-2 medium 32 × 128, a ViT-B/16
# block at batch 64, Whisper-tiny's encoder at batch 24. Predictions in
# predictions_models_18.json.
CASES18 = {
    "resnet101_b32": ("examples/resnet50.fgraph", {"B": 32}, (5, 22)),
    "resnet101_nchw_b16": (IMP + "resnet50_nchw.fgraph", {"B": 16}, (5, 22)),
    "resnet_l3x36_b16": ("examples/resnet50.fgraph", {"B": 16}, (5, 35)),
    "resnet50_b48": ("examples/resnet50.fgraph", {"B": 48}, None),
    "bert_base_b8_s384": (IMP + "bert_base_b8.fgraph", {"B": 8, "S": 384}, None),
    "gpt2_medium_b32_s128": (IMP + "gpt2_medium_b8_s512.fgraph", {"B": 32, "S": 128}, None),
    "vit_b16_block_b64": ("examples/vit_block.fgraph", {"B": 64}, None),
    "whisper_tiny_enc_b24": ("examples/whisper_tiny_encoder.fgraph", {"B": 24}, None),
}
# Batch 19: held out from eager elementwise kernels' reads from L2 (VALIDATION §36, fitted on
# batches 1-14): ResNet-50 at batch 20 channels-last and 40 stated NCHW, ResNet-101 at batch 24,
# a ConvNeXt block at batch 24, BERT-base at 24 × 128, BERT-large at 4 × 384, GPT-2 medium at
# 2 × 768, Whisper-tiny's encoder at batch 12 and Llama-3-8B's decode at batch 16 against
# 1,023 cached positions (4 layers). Predictions in predictions_models_19.json.
CASES19 = {
    "resnet50_b20": ("examples/resnet50.fgraph", {"B": 20}, None),
    "resnet50_nchw_b40": (IMP + "resnet50_nchw.fgraph", {"B": 40}, None),
    "resnet101_b24": ("examples/resnet50.fgraph", {"B": 24}, (5, 22)),
    "convnext_block_b24": ("examples/convnext_block.fgraph", {"B": 24}, None),
    "bert_base_b24_s128": (IMP + "bert_base_b8.fgraph", {"B": 24, "S": 128}, None),
    "bert_large_b4_s384": (IMP + "bert_large_b16.fgraph", {"B": 4, "S": 384}, None),
    "gpt2_medium_b2_s768": (IMP + "gpt2_medium_b8_s512.fgraph", {"B": 2, "S": 768}, None),
    "whisper_tiny_enc_b12": ("examples/whisper_tiny_encoder.fgraph", {"B": 12}, None),
    "llama3_8b_decode_b16_t1023_l4": ("examples/llama3_8b_decode.fgraph", {"B": 16, "T": 1023}, (32, 4)),
}
# Batch 20: held out from the matmul overlap and L2-resident bytes (VALIDATION §37, fitted on
# batches 1-14's profiler traces): BERT-base at 12 × 256, BERT-large at 2 × 512 and 12 × 128,
# GPT-2 medium at 4 × 384, a ViT-B/16 block at batch 48, Whisper-tiny's encoder at batch 20,
# Qwen2.5-0.5B's prefill at 2 × 512, Llama-3.2-1B's at 1,024 tokens and ResNet-50 at batch 28
# channels-last. Predictions in predictions_models_20.json.
CASES20 = {
    "bert_base_b12_s256": (IMP + "bert_base_b8.fgraph", {"B": 12, "S": 256}, None),
    "bert_large_b2_s512": (IMP + "bert_large_b16.fgraph", {"B": 2, "S": 512}, None),
    "bert_large_b12_s128": (IMP + "bert_large_b16.fgraph", {"B": 12, "S": 128}, None),
    "gpt2_medium_b4_s384": (IMP + "gpt2_medium_b8_s512.fgraph", {"B": 4, "S": 384}, None),
    "vit_b16_block_b48": ("examples/vit_block.fgraph", {"B": 48}, None),
    "whisper_tiny_enc_b20": ("examples/whisper_tiny_encoder.fgraph", {"B": 20}, None),
    "qwen2_5_0_5b_prefill_b2_s512": (IMP + "qwen2_5_0_5b_prefill.fgraph", {"B": 2, "S": 512}, None),
    "llama3_2_1b_prefill_s1024": (IMP + "llama3_2_1b_prefill.fgraph", {"S": 1024}, None),
    "resnet50_b28": ("examples/resnet50.fgraph", {"B": 28}, None),
}
# Batch 21: held out from the eager channels-last conv layout and PyTorch's norm row rate
# (VALIDATION §38, fitted on batches 1-14's profiler traces): Whisper-tiny's encoder at batches
# 10 and 28, two ViT-B/16 blocks at batch 24, ConvNeXt blocks at batches 12 and 20, SD 1.5's
# down block at 2 × 56² latents and at width 640 on 4 × 40², ResNet-50 at batch 36
# channels-last and BERT-base at 16 × 192. Predictions in predictions_models_21.json.
CASES21 = {
    "whisper_tiny_enc_b10": ("examples/whisper_tiny_encoder.fgraph", {"B": 10}, None),
    "whisper_tiny_enc_b28": ("examples/whisper_tiny_encoder.fgraph", {"B": 28}, None),
    "vit_b16_l2_b24": ("examples/vit_block.fgraph", {"B": 24, "L": 2}, None),
    "convnext_block_b12": ("examples/convnext_block.fgraph", {"B": 12}, None),
    "convnext_block_b20": ("examples/convnext_block.fgraph", {"B": 20}, None),
    "sd15_unet_down_b2_h56": ("examples/sd15_unet_down_block.fgraph", {"B": 2, "H": 56}, None),
    "sd15_down_c640_h40_b4": (IMP + "sd15_down_width.fgraph", {"B": 4, "C": 640, "H": 40}, None),
    "resnet50_b36": ("examples/resnet50.fgraph", {"B": 36}, None),
    "bert_base_b16_s192": (IMP + "bert_base_b8.fgraph", {"B": 16, "S": 192}, None),
}
# Batch 22: held out from a convolution's overhead overlapping its compute (VALIDATION §39,
# the exponent carried over from §37's matmuls): ResNet-50 at batch 40 channels-last and 20
# stated NCHW, ResNet-101 at batch 20, SD 1.5's down block at 2 × 72² latents and at width
# 1,280 on 2 × 20², a ConvNeXt block at batch 28, Whisper-tiny's encoder at batch 6, a ViT-B/16
# block at batch 40 and BERT-large at 6 × 256. Predictions in predictions_models_22.json.
CASES22 = {
    "resnet50_b40": ("examples/resnet50.fgraph", {"B": 40}, None),
    "resnet50_nchw_b20": (IMP + "resnet50_nchw.fgraph", {"B": 20}, None),
    "resnet101_b20": ("examples/resnet50.fgraph", {"B": 20}, (5, 22)),
    "sd15_unet_down_b2_h72": ("examples/sd15_unet_down_block.fgraph", {"B": 2, "H": 72}, None),
    "sd15_down_c1280_h20_b2": (IMP + "sd15_down_width.fgraph", {"B": 2, "C": 1280, "H": 20}, None),
    "convnext_block_b28": ("examples/convnext_block.fgraph", {"B": 28}, None),
    "whisper_tiny_enc_b6": ("examples/whisper_tiny_encoder.fgraph", {"B": 6}, None),
    "vit_b16_block_b40": ("examples/vit_block.fgraph", {"B": 40}, None),
    "bert_large_b6_s256": (IMP + "bert_large_b16.fgraph", {"B": 6, "S": 256}, None),
}
# Batch 23 (VALIDATION §40): SD 1.5's down blocks at shapes not measured before, held out from
# Inductor's straddling group-norm split (`group_norm_strided`): four whose split straddles
# channels (320 at 2 × 80², 1 × 72², 4 × 56²; 640 at 2 × 56²) and three whose chunks are whole
# channels (320 at 2 × 40², 1,280 at 2 × 32², 640 at 1 × 64²).
CASES23 = {
    "sd15_unet_down_b2_h40": ("examples/sd15_unet_down_block.fgraph", {"B": 2, "H": 40}, None),
    "sd15_unet_down_b2_h80": ("examples/sd15_unet_down_block.fgraph", {"B": 2, "H": 80}, None),
    "sd15_unet_down_b1_h72": ("examples/sd15_unet_down_block.fgraph", {"B": 1, "H": 72}, None),
    "sd15_unet_down_b4_h56": ("examples/sd15_unet_down_block.fgraph", {"B": 4, "H": 56}, None),
    "sd15_down_c640_h56_b2": (IMP + "sd15_down_width.fgraph", {"B": 2, "C": 640, "H": 56}, None),
    "sd15_down_c1280_h32_b2": (IMP + "sd15_down_width.fgraph", {"B": 2, "C": 1280, "H": 32}, None),
    "sd15_down_c640_h64_b1": (IMP + "sd15_down_width.fgraph", {"B": 1, "C": 640, "H": 64}, None),
}
# Batch 24 (VALIDATION §43): held out from the host's time per CUDA kernel (fit_host_rounds.py,
# fitted on the rounds of b6-7 to b14): eleven steps at sizes no batch had, most of them
# waiting on the host under plain launches: Qwen2.5-0.5B decoding batch 2 against 1,023
# positions and TinyLlama batch 4 against 511 (all layers), BERT-base at 4 × 256, BERT-large at
# 8 × 128, GPT-2 medium at 8 × 256, ResNet-50 at batch 10 channels-last and 6 stated NCHW, SD
# 1.5's down block at 2 × 32², a ViT-B/16 block at batch 12, Whisper-tiny's encoder at batch 14
# and a ConvNeXt block at batch 6. Predictions in predictions_models_24.json and
# predictions_plain_24.json.
CASES24 = {
    "qwen2_5_0_5b_decode_b2_t1023": (IMP + "qwen2_5_0_5b_decode_b4.fgraph", {"B": 2, "P": 1023}, None),
    "tinyllama_decode_b4_t511": (IMP + "tinyllama_decode_b8.fgraph", {"B": 4, "P": 511}, None),
    "bert_base_b4_s256": (IMP + "bert_base_b8.fgraph", {"B": 4, "S": 256}, None),
    "bert_large_b8_s128": (IMP + "bert_large_b16.fgraph", {"B": 8, "S": 128}, None),
    "gpt2_medium_b8_s256": (IMP + "gpt2_medium_b8_s512.fgraph", {"B": 8, "S": 256}, None),
    "resnet50_b10": ("examples/resnet50.fgraph", {"B": 10}, None),
    "resnet50_nchw_b6": (IMP + "resnet50_nchw.fgraph", {"B": 6}, None),
    "sd15_unet_down_b2_h32": ("examples/sd15_unet_down_block.fgraph", {"B": 2, "H": 32}, None),
    "vit_b16_block_b12": ("examples/vit_block.fgraph", {"B": 12}, None),
    "whisper_tiny_enc_b14": ("examples/whisper_tiny_encoder.fgraph", {"B": 14}, None),
    "convnext_block_b6": ("examples/convnext_block.fgraph", {"B": 6}, None),
}
# Batch 25 (VALIDATION §43): a third pre-registered check of the host per CUDA kernel and of
# the probe-scaled figures (`--host-probe-us`), on steps that wait on the host: Llama-3.2-1B
# decoding batch 4 against 1,023 positions, Qwen2.5-1.5B batch 2 against 2,047, Phi-3-mini
# batch 2 against 511 (4 layers), Gemma-2B batch 2 against 1,023 (all layers), TinyLlama batch
# 16 against 255, BERT-base at 2 × 128, Whisper-tiny's encoder at batch 2 and ResNet-50 at
# batch 2. Predictions in predictions_models_25.json and predictions_plain_25.json.
CASES25 = {
    "llama3_2_1b_decode_b4_t1023": (IMP + "llama3_2_1b_decode_b1.fgraph", {"B": 4, "P": 1023}, None),
    "qwen2_5_1_5b_decode_b2_t2047": (IMP + "qwen2_5_1_5b_decode_b16.fgraph", {"B": 2, "P": 2047}, None),
    "phi3_mini_decode_b2_t511_l4": (IMP + "phi3_mini_decode_b4.fgraph", {"B": 2, "P": 511, "L": 4}, None),
    "gemma_2b_decode_b2_t1023": (IMP + "gemma_2b_decode.fgraph", {"B": 2, "P": 1023}, None),
    "tinyllama_decode_b16_t255": (IMP + "tinyllama_decode_b8.fgraph", {"B": 16, "P": 255}, None),
    "bert_base_b2_s128": (IMP + "bert_base_b8.fgraph", {"B": 2, "S": 128}, None),
    "whisper_tiny_enc_b2": ("examples/whisper_tiny_encoder.fgraph", {"B": 2}, None),
    "resnet50_b2": ("examples/resnet50.fgraph", {"B": 2}, None),
}
# Batch 26 (VALIDATION §45): SD 1.5's down blocks at five new shapes whose compiled group
# norms straddle channels with rows that share sectors (hwmodel::inductor::sectors_per_element):
# 320 channels at 4 and 6 × 48², 640 at 4 × 48², 1,280 at 2 × 48² (rows 18 apart, 0.5625
# sectors an element) and 1,280 at 4 × 24² (chains of rows 9 apart, the 0.4 floor).
# Predictions in predictions_models_26.json and predictions_plain_26.json.
CASES26 = {
    "sd15_unet_down_b4_h48": ("examples/sd15_unet_down_block.fgraph", {"B": 4, "H": 48}, None),
    "sd15_unet_down_b6_h48": ("examples/sd15_unet_down_block.fgraph", {"B": 6, "H": 48}, None),
    "sd15_down_c640_h48_b4": (IMP + "sd15_down_width.fgraph", {"B": 4, "C": 640, "H": 48}, None),
    "sd15_down_c1280_h48_b2": (IMP + "sd15_down_width.fgraph", {"B": 2, "C": 1280, "H": 48}, None),
    "sd15_down_c1280_h24_b4": (IMP + "sd15_down_width.fgraph", {"B": 4, "C": 1280, "H": 24}, None),
}
# Batch 27 (VALIDATION §47): a fresh held-out batch after a compiled step's host time per
# tensor it takes (runtime_compile_input_us, measured) and per CUDA kernel (refitted), at sizes
# no batch had: ResNets of many tensors a kernel (ResNet-50 channels-last at batch 6, NCHW at 2,
# ResNet-101 at 12), decoders of few (Llama-3.2-1B batch 2 against 2,047 positions, Qwen2.5-0.5B
# batch 1 against 511, TinyLlama batch 2 against 2,047), BERT-large 4 × 128, a ViT-B/16 block
# at batch 8, SD 1.5's down block at 1 × 40² and a ConvNeXt block at batch 4. Predictions in
# predictions_models_27.json and predictions_plain_27.json. The ViT block at batch 8 was batch
# 3's case under the same name, not a new size: measured again (data27, data_plain/b27), it is
# not one of batch 27's cases, and --manifest now refuses a name two batches share.
# (batch, case) measured in a batch's folder that is not that batch's case (a name an earlier
# batch had): readers of the folders skip these rows (tests/whole_models.rs `REPEATED` too).
REPEATED = {("27", "vit_b16_block_b8")}
CASES27 = {
    "resnet50_b6": ("examples/resnet50.fgraph", {"B": 6}, None),
    "resnet50_nchw_b2": (IMP + "resnet50_nchw.fgraph", {"B": 2}, None),
    "resnet101_b12": ("examples/resnet50.fgraph", {"B": 12}, (5, 22)),
    "llama3_2_1b_decode_b2_t2047": (IMP + "llama3_2_1b_decode_b1.fgraph", {"B": 2, "P": 2047}, None),
    "qwen2_5_0_5b_decode_b1_t511": (IMP + "qwen2_5_0_5b_decode_b4.fgraph", {"B": 1, "P": 511}, None),
    "tinyllama_decode_b2_t2047": (IMP + "tinyllama_decode_b8.fgraph", {"B": 2, "P": 2047}, None),
    "bert_large_b4_s128": (IMP + "bert_large_b16.fgraph", {"B": 4, "S": 128}, None),
    "sd15_unet_down_b1_h40": ("examples/sd15_unet_down_block.fgraph", {"B": 1, "H": 40}, None),
    "convnext_block_b4": ("examples/convnext_block.fgraph", {"B": 4}, None),
}
# Batch 28 (VALIDATION §48): attention at key counts that are not a multiple of the kernel's key
# block of 128 (SD's cross-attention over 77 text tokens, BERT at 320 and 200 tokens, ViT's 197,
# Whisper's 1,500) and causal prefill, after the attention refit (`key_block`, sdpa_probe/
# refit.py); predicted before it is measured.
CASES28 = {
    "sd15_unet_down_b3_h56": ("examples/sd15_unet_down_block.fgraph", {"B": 3, "H": 56}, None),
    "sd15_unet_down_b1_h96": ("examples/sd15_unet_down_block.fgraph", {"B": 1, "H": 96}, None),
    "sd15_down_c640_h36_b2": (IMP + "sd15_down_width.fgraph", {"B": 2, "C": 640, "H": 36}, None),
    "sd15_down_c1280_h16_b6": (IMP + "sd15_down_width.fgraph", {"B": 6, "C": 1280, "H": 16}, None),
    "sd15_down_c1280_h24_b2": (IMP + "sd15_down_width.fgraph", {"B": 2, "C": 1280, "H": 24}, None),
    "bert_base_b8_s320": (IMP + "bert_base_b8.fgraph", {"B": 8, "S": 320}, None),
    "bert_large_b6_s200": (IMP + "bert_large_b16.fgraph", {"B": 6, "S": 200}, None),
    "vit_b16_block_b20": ("examples/vit_block.fgraph", {"B": 20}, None),
    "whisper_tiny_enc_b3": ("examples/whisper_tiny_encoder.fgraph", {"B": 3}, None),
    "llama3_2_1b_prefill_s1536": (IMP + "llama3_2_1b_prefill.fgraph", {"S": 1536}, None),
}
# Batch 29 (VALIDATION §49): SD 1.5's compiled blocks at small sizes, where Inductor's group
# norms are four short kernels each, after §49's start-ups and strided walk; predicted before it
# is measured.
CASES29 = {
    "sd15_unet_down_b1_h48": ("examples/sd15_unet_down_block.fgraph", {"B": 1, "H": 48}, None),
    "sd15_unet_down_b1_h56": ("examples/sd15_unet_down_block.fgraph", {"B": 1, "H": 56}, None),
    "sd15_unet_down_b3_h40": ("examples/sd15_unet_down_block.fgraph", {"B": 3, "H": 40}, None),
    "sd15_down_c1280_h20_b4": (IMP + "sd15_down_width.fgraph", {"B": 4, "C": 1280, "H": 20}, None),
    "sd15_down_c1280_h28_b2": (IMP + "sd15_down_width.fgraph", {"B": 2, "C": 1280, "H": 28}, None),
    "sd15_down_c640_h28_b2": (IMP + "sd15_down_width.fgraph", {"B": 2, "C": 640, "H": 28}, None),
    "sd15_down_c640_h44_b2": (IMP + "sd15_down_width.fgraph", {"B": 2, "C": 640, "H": 44}, None),
    "sd15_down_c320_h40_b4": (IMP + "sd15_down_width.fgraph", {"B": 4, "C": 320, "H": 40}, None),
}
# Batch 30 (VALIDATION §50): compiled prefills whose softmax rows are no multiple of 2,048
# (Inductor's looped softmax moves them in blocks of 2,048), masked (Hugging Face's causal
# form) and unmasked (the hand-written Llama-3-8B), at sequence lengths no batch had.
CASES30 = {
    "llama3_2_1b_prefill_s2560": (IMP + "llama3_2_1b_prefill.fgraph", {"S": 2560}, None),
    "qwen2_5_7b_prefill_s2304_l4": (IMP + "qwen2_5_7b_prefill.fgraph", {"S": 2304, "L": 4}, None),
    "mistral_7b_prefill_s3072_l4": (IMP + "mistral_7b_prefill_s4096.fgraph", {"S": 3072, "L": 4}, None),
    "phi3_mini_prefill_s1280_l4": (IMP + "phi3_mini_prefill.fgraph", {"S": 1280, "L": 4}, None),
    "llama3_8b_prefill_s2304_l4": ("examples/llama3_8b.fgraph", {"S": 2304}, (32, 4)),
}
# Batch 31 (VALIDATION §50): decodes at batch 1 and 16 against caches whose key count is no
# multiple of 2,048 (the looped softmax's blocks), one of them past Mistral's sliding window
# (a masked decode), at sizes no batch had.
CASES31 = {
    "llama3_2_1b_decode_b1_t3071": (IMP + "llama3_2_1b_decode_b1.fgraph", {"B": 1, "P": 3071}, None),
    "llama3_2_1b_decode_b16_t2303": (IMP + "llama3_2_1b_decode_b1.fgraph", {"B": 16, "P": 2303}, None),
    "qwen2_5_1_5b_decode_b16_t1535": (IMP + "qwen2_5_1_5b_decode_b16.fgraph", {"B": 16, "P": 1535}, None),
    "mistral_7b_decode_b1_t6143_l4": (IMP + "mistral_7b_decode.fgraph", {"B": 1, "P": 6143, "L": 4}, None),
    "tinyllama_decode_b1_t3071": (IMP + "tinyllama_decode_b8.fgraph", {"B": 1, "P": 3071}, None),
}
# Batch 32 (VALIDATION §51): host-bound steps at sizes no batch had, compiled graphs with and
# without a convolution, for the compiled host figures fitted apart.
CASES32 = {
    "qwen2_5_0_5b_decode_b1_t1535": (IMP + "qwen2_5_0_5b_decode_b4.fgraph", {"B": 1, "P": 1535}, None),
    "gemma_2b_decode_b1_t767": (IMP + "gemma_2b_decode.fgraph", {"B": 1, "P": 767}, None),
    "tinyllama_decode_b4_t1535": (IMP + "tinyllama_decode_b8.fgraph", {"B": 4, "P": 1535}, None),
    "bert_base_b3_s128": (IMP + "bert_base_b8.fgraph", {"B": 3, "S": 128}, None),
    "resnet50_b3": ("examples/resnet50.fgraph", {"B": 3}, None),
    "whisper_tiny_enc_b1": ("examples/whisper_tiny_encoder.fgraph", {"B": 1}, None),
    "sd15_unet_down_b1_h36": ("examples/sd15_unet_down_block.fgraph", {"B": 1, "H": 36}, None),
    "convnext_block_b3": ("examples/convnext_block.fgraph", {"B": 3}, None),
}
# Batch 33 (VALIDATION §52): eager steps whose elementwise kernels read tensors written a few
# kernels before (ResNet's channels-last ReLUs and adds, small models' RMSNorm and rotary), at
# new sizes, pre-registered with the L2 reuse window.
CASES33 = {
    "resnet50_b14": ("examples/resnet50.fgraph", {"B": 14}, None),
    "resnet101_b28": ("examples/resnet50.fgraph", {"B": 28}, (5, 22)),
    "resnet50_nchw_b10": (IMP + "resnet50_nchw.fgraph", {"B": 10}, None),
    "qwen2_5_0_5b_prefill_b3_s384": (IMP + "qwen2_5_0_5b_prefill.fgraph", {"B": 3, "S": 384}, None),
    "qwen2_5_1_5b_prefill_s768": (IMP + "qwen2_5_1_5b_prefill.fgraph", {"S": 768}, None),
    "tinyllama_prefill_b2_s640": (IMP + "tinyllama_prefill.fgraph", {"B": 2, "S": 640}, None),
    "llama3_2_1b_prefill_b2_s384": (IMP + "llama3_2_1b_prefill.fgraph", {"B": 2, "S": 384}, None),
}
# Batch 34 (VALIDATION §52): eager and compiled steps at new sizes, pre-registered with the
# kept model of §52 (warm_read_factor 0.4, a batch norm's kernel reading nothing warm).
CASES34 = {
    "resnet50_b18": ("examples/resnet50.fgraph", {"B": 18}, None),
    "resnet50_nchw_b14": (IMP + "resnet50_nchw.fgraph", {"B": 14}, None),
    "qwen2_5_0_5b_prefill_b2_s768": (IMP + "qwen2_5_0_5b_prefill.fgraph", {"B": 2, "S": 768}, None),
    "llama3_2_1b_prefill_s640": (IMP + "llama3_2_1b_prefill.fgraph", {"S": 640}, None),
    "gpt2_medium_b6_s384": (IMP + "gpt2_medium_b8_s512.fgraph", {"B": 6, "S": 384}, None),
    "bert_large_b6_s320": (IMP + "bert_large_b16.fgraph", {"B": 6, "S": 320}, None),
    "vit_b16_block_b28": ("examples/vit_block.fgraph", {"B": 28}, None),
    "convnext_block_b10": ("examples/convnext_block.fgraph", {"B": 10}, None),
}
# Batch 35 (VALIDATION §52): decodes at new sizes, eager and compiled, pre-registered with the
# kept model of §52.
CASES35 = {
    "llama3_2_1b_decode_b4_t1279": (IMP + "llama3_2_1b_decode_b1.fgraph", {"B": 4, "P": 1279}, None),
    "qwen2_5_1_5b_decode_b4_t767": (IMP + "qwen2_5_1_5b_decode_b16.fgraph", {"B": 4, "P": 767}, None),
    "mistral_7b_decode_b8_t1535_l4": (IMP + "mistral_7b_decode.fgraph", {"B": 8, "P": 1535, "L": 4}, None),
    "phi3_mini_decode_b1_t2047_l4": (IMP + "phi3_mini_decode_b4.fgraph", {"B": 1, "P": 2047, "L": 4}, None),
    "gemma_2b_decode_b4_t1279": (IMP + "gemma_2b_decode.fgraph", {"B": 4, "P": 1279}, None),
    "tinyllama_decode_b12_t767": (IMP + "tinyllama_decode_b8.fgraph", {"B": 12, "P": 767}, None),
}
# Batch 36 (VALIDATION §53): pre-norm residual streams with biases at new sizes, predicted with
# the residual stream stored once its inlined loads pass four (a5d767e) before measuring.
CASES36 = {
    "gpt2_medium_b12_s256": (IMP + "gpt2_medium_b8_s512.fgraph", {"B": 12, "S": 256}, None),
    "gpt2_medium_b2_s640": (IMP + "gpt2_medium_b8_s512.fgraph", {"B": 2, "S": 640}, None),
    "gpt2_large_b3_s384": (IMP + "gpt2_large_b2.fgraph", {"B": 3, "S": 384}, None),
    "gpt2_small_s768": ("examples/gpt2_small.fgraph", {"S": 768}, None),
    "whisper_tiny_enc_b9": ("examples/whisper_tiny_encoder.fgraph", {"B": 9}, None),
    "whisper_tiny_enc_b18": ("examples/whisper_tiny_encoder.fgraph", {"B": 18}, None),
}
# Batch 37 (VALIDATION §53): Llama-family compiled prefills of [S, H] activations at new sizes,
# predicted with the residual adds kept out of addmm where a norm reads them (bd169ba) before
# measuring.
CASES37 = {
    "llama3_2_1b_prefill_s1280": (IMP + "llama3_2_1b_prefill.fgraph", {"S": 1280}, None),
    "qwen2_5_0_5b_prefill_s1536": (IMP + "qwen2_5_0_5b_prefill.fgraph", {"S": 1536}, None),
    "qwen2_5_1_5b_prefill_s1280": (IMP + "qwen2_5_1_5b_prefill.fgraph", {"S": 1280}, None),
    "mistral_7b_prefill_s1536_l4": (IMP + "mistral_7b_prefill_s4096.fgraph", {"S": 1536, "L": 4}, None),
    "phi3_mini_prefill_s1792_l4": (IMP + "phi3_mini_prefill.fgraph", {"S": 1792, "L": 4}, None),
    "qwen2_5_7b_prefill_s1280_l4": (IMP + "qwen2_5_7b_prefill.fgraph", {"S": 1280, "L": 4}, None),
}
# Batch 38 (VALIDATION §54): the families issue 24 names (Mixtral-style MoE, Qwen2.5-7B,
# Mistral-7B, GPT-2 medium) and DeepSeek-V2-Lite, prefill and decode at batch 1 and 16, at sizes
# no batch had, pre-registered with the model as it stands after §53 before measuring.
CASES38 = {
    "mixtral_8x7b_prefill_s1536_l2": (IMP + "mixtral_8x7b_prefill.fgraph", {"S": 1536, "L": 2}, None),
    "mixtral_decode_b1_t2047_l2": (IMP + "mixtral_decode_b16.fgraph", {"B": 1, "P": 2047, "L": 2, "EA": 2}, None),
    "qwen2_5_7b_decode_b1_t3071_l4": (IMP + "qwen2_5_7b_decode.fgraph", {"B": 1, "P": 3071, "L": 4}, None),
    "qwen2_5_7b_decode_b16_t767_l4": (IMP + "qwen2_5_7b_decode.fgraph", {"B": 16, "P": 767, "L": 4}, None),
    "mistral_7b_decode_b16_t2047_l4": (IMP + "mistral_7b_decode.fgraph", {"B": 16, "P": 2047, "L": 4}, None),
    "mistral_7b_prefill_s2560_l4": (IMP + "mistral_7b_prefill_s4096.fgraph", {"S": 2560, "L": 4}, None),
    "gpt2_medium_b1_s1024": (IMP + "gpt2_medium_b8_s512.fgraph", {"B": 1, "S": 1024}, None),
    "deepseek_v2_lite_decode_b2_t1023_l4": (IMP + "deepseek_v2_lite_decode_b4.fgraph", {"B": 2, "P": 1023, "EA": 12}, (26, 3)),
}
# Batch 39 (VALIDATION §60): the families issue 24 names once more, at sizes no batch had, with
# the model as §58-59 left it; predictions committed before any is measured.
CASES39 = {
    "qwen2_5_7b_prefill_s1792_l4": (IMP + "qwen2_5_7b_prefill.fgraph", {"S": 1792, "L": 4}, None),
    "qwen2_5_7b_decode_b1_t1791_l4": (IMP + "qwen2_5_7b_decode.fgraph", {"B": 1, "P": 1791, "L": 4}, None),
    "qwen2_5_7b_decode_b16_t1279_l4": (IMP + "qwen2_5_7b_decode.fgraph", {"B": 16, "P": 1279, "L": 4}, None),
    "mistral_7b_decode_b1_t1535_l4": (IMP + "mistral_7b_decode.fgraph", {"B": 1, "P": 1535, "L": 4}, None),
    "mistral_7b_prefill_s1280_l4": (IMP + "mistral_7b_prefill_s4096.fgraph", {"S": 1280, "L": 4}, None),
    "gpt2_medium_b3_s448": (IMP + "gpt2_medium_b4.fgraph", {"B": 3, "S": 448}, None),
    "mixtral_8x7b_prefill_s768_l2": (IMP + "mixtral_8x7b_prefill.fgraph", {"S": 768, "L": 2}, None),
    "mixtral_decode_b16_t767_l2": (IMP + "mixtral_decode_b16.fgraph", {"B": 16, "P": 767, "L": 2}, None),
    "llama3_8b_decode_b16_t3071_l4": ("examples/llama3_8b_decode.fgraph", {"B": 16, "T": 3071}, (32, 4)),
}
# Host probes (VALIDATION §29): two small graphs whose every kernel waits on the host, timed in
# the same rounds as the cases; host_calib.py reads a host's time per kernel and per
# convolution off them. A TinyLlama-shaped decode at hidden 256 (8 layers, 1,024-token vocab,
# 64 cached positions) and a chain of 16 small convolutions. Not in BATCHES: never a case.
HOST_PROBES = {
    "host_decode": (IMP + "tinyllama_decode_b8.fgraph",
                    {"B": 1, "P": 63, "V": 1024, "H": 256, "L": 8, "NH": 4, "NKV": 2, "HD": 64, "F": 512}, None),
    "host_conv": ("validation/gpu/models/host/host_conv.fgraph", {}, None),
}
BATCHES = {"1": (CASES, "predictions_models.json"), "2": (CASES2, "predictions_models_2.json"),
           "3": (CASES3, "predictions_models_3.json"), "4": (CASES4, "predictions_models_4.json"),
           "5": (CASES5, "predictions_models_5.json"), "6": (CASES6, "predictions_models_6.json"),
           "7": (CASES7, "predictions_models_7.json"), "8": (CASES8, "predictions_models_8.json"),
           "9": (CASES9, "predictions_models_9.json"), "10": (CASES10, "predictions_models_10.json"),
           "11": (CASES11, "predictions_models_11.json"), "12": (CASES12, "predictions_models_12.json"),
           "13": (CASES13, "predictions_models_13.json"), "14": (CASES14, "predictions_models_14.json"),
           "15": (CASES15, "predictions_models_15.json"), "16": (CASES16, "predictions_models_16.json"),
           "17": (CASES17, "predictions_models_17.json"),
           "18": (CASES18, "predictions_models_18.json"),
           "19": (CASES19, "predictions_models_19.json"),
           "20": (CASES20, "predictions_models_20.json"),
           "21": (CASES21, "predictions_models_21.json"),
           "22": (CASES22, "predictions_models_22.json"),
           "23": (CASES23, "predictions_models_23.json"),
           "24": (CASES24, "predictions_models_24.json"),
           "25": (CASES25, "predictions_models_25.json"),
           "26": (CASES26, "predictions_models_26.json"),
           "27": (CASES27, "predictions_models_27.json"),
           "28": (CASES28, "predictions_models_28.json"),
           "29": (CASES29, "predictions_models_29.json"),
           "30": (CASES30, "predictions_models_30.json"),
           "31": (CASES31, "predictions_models_31.json"),
           "32": (CASES32, "predictions_models_32.json"),
           "33": (CASES33, "predictions_models_33.json"),
           "34": (CASES34, "predictions_models_34.json"),
           "35": (CASES35, "predictions_models_35.json"),
           "36": (CASES36, "predictions_models_36.json"),
           "37": (CASES37, "predictions_models_37.json"),
           "38": (CASES38, "predictions_models_38.json"),
           "39": (CASES39, "predictions_models_39.json")}
MODES = [("eager", "graph"), ("eager", "eager"), ("compile", "graph"), ("compile", "eager")]



def traced_steps(runtime, prefix):
    """(batch, case, kernels) of every measured step under `runtime` whose name starts with
    `prefix`, from the batches' profiler traces (dataN/kernels_models.csv), the kernels in
    launch order; the cases of REPEATED left out."""
    for b in BATCHES:
        path = os.path.join(HERE, "data" if b == "1" else "data" + b, "kernels_models.csv")
        if not os.path.exists(path):
            continue
        rows = [r for r in csv.DictReader(open(path)) if r["runtime"] == runtime
                and r["case"].startswith(prefix) and (b, r["case"]) not in REPEATED]
        for case in sorted({r["case"] for r in rows}):
            yield b, case, sorted((r for r in rows if r["case"] == case), key=lambda r: int(r["index"]))

def spec(name):
    for c in (CASES, CASES2, CASES3, CASES4, CASES5, CASES6, CASES7, CASES8, CASES9, CASES10, CASES11, CASES12, CASES13,
              CASES14, CASES15, CASES16, CASES17, CASES18, CASES19, CASES20, CASES21, CASES22, CASES23, CASES24,
              CASES25, CASES26, CASES27, CASES28, CASES29, CASES30, CASES31, CASES32, CASES33,
              CASES34, CASES35, CASES36, CASES37, CASES38, CASES39, HOST_PROBES):
        if name in c:
            return c[name]
    raise KeyError(name)


def source(name):
    """The case's `.fgraph`: the example with its imports resolvable from examples/ and its
    depth replaced; written next to the example's folder so `import "lib/..."` resolves."""
    ex, _, depth = spec(name)
    text = open(os.path.join(ROOT, ex)).read()
    if depth:
        old, new = depth
        text, n = re.subn(rf"\brepeat {old} ", f"repeat {new} ", text)
        assert n == 1, (name, n)
    return text


def case_path(name, folder=None):
    """Where the case's `.fgraph` lives: beside the examples (imports of lib/ resolve)."""
    return os.path.join(folder or os.path.join(ROOT, "examples"), f".case_{name}.fgraph")


def sets(name):
    out = []
    for k, v in spec(name)[1].items():
        out += ["--set", f"{k}={v}"]
    return out


def write_case(name):
    p = case_path(name)
    with open(p, "w") as fh:
        fh.write(source(name))
    return p


def emit(folder, only):
    os.makedirs(folder, exist_ok=True)
    for name in only:
        p = write_case(name)
        try:
            r = subprocess.run([BIN, "emit", "torch", p, "-o", os.path.join(folder, name + ".py")] + sets(name),
                               capture_output=True, text=True)
            if r.returncode != 0:
                sys.exit(f"{name}: emit failed\n{r.stdout[-2000:]}{r.stderr[-2000:]}")
        finally:
            os.unlink(p)
        print("emitted", name)


def predict(only, modes=MODES):
    out = []
    for name in only:
        p = write_case(name)
        try:
            for runtime, launch in modes:
                r = subprocess.run([BIN, "analyze", "--format", "json", "--traffic-model", "hardware"]
                                   + (["--hardware-file", HARDWARE] if HARDWARE.endswith(".json") else ["--hardware", HARDWARE])
                                   + ["--runtime", runtime, "--launch", launch, p] + sets(name),
                                   capture_output=True, text=True)
                if r.returncode not in (0, 1):
                    sys.exit(f"{name}: analyze failed\n{r.stdout[-2000:]}{r.stderr[-2000:]}")
                rt = json.loads(r.stdout)["cost"]["runtime"]
                out.append(dict(case=name, runtime=runtime, launch=launch, time_us=round(rt["time_us"], 3),
                                kernels=rt["kernels"]))
                print(out[-1])
        finally:
            os.unlink(p)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--emit", metavar="DIR")
    ap.add_argument("--predict", action="store_true")
    ap.add_argument("--only", default="")
    ap.add_argument("--batch", default="1", choices=sorted(BATCHES))
    ap.add_argument("--manifest", action="store_true", help="write cases.json (every batch's cases, for tests/whole_models.rs)")
    ap.add_argument("--predict-plain", metavar="BATCHES",
                    help="predictions_plain.json: the plain-launch predictions of the batches named (e.g. 6-13), "
                         "made before plain_rounds.py measures them")
    ap.add_argument("--plain-out", default="predictions_plain.json", help="where --predict-plain writes")
    ap.add_argument("--predict-out", help="where --predict writes (the batch's predictions file if not given)")
    ap.add_argument("--emit-probes", metavar="DIR", help="emit the host probes (HOST_PROBES) into DIR")
    a = ap.parse_args()
    if a.emit_probes:
        emit(a.emit_probes, list(HOST_PROBES))
        return
    if a.predict_plain:
        lo, _, hi = a.predict_plain.partition("-")
        names = [(b, n) for b in map(str, range(int(lo), int(hi or lo) + 1)) for n in BATCHES[b][0]
                 if not a.only or n in a.only.split(",")]
        preds = []
        for b, n in names:
            preds += [dict(p, batch=b) for p in predict([n], [m for m in MODES if m[1] == "eager"])]
        with open(os.path.join(HERE, a.plain_out), "w") as fh:
            json.dump(dict(what="fgraph's --runtime predictions with plain launches (traffic model hardware, h100 "
                                "preset) for the cases of batches " + a.predict_plain + ", made before plain_rounds.py "
                                "measured them in interleaved rounds", made_by="validation/gpu/models/cases.py "
                                "--predict-plain " + a.predict_plain + (" --only " + a.only if a.only else ""), predictions=preds), fh, indent=1)
            fh.write("\n")
        return
    if a.manifest:
        names = [n for cases, _ in BATCHES.values() for n in cases]
        shared = sorted({n for n in names if names.count(n) > 1})
        if shared:
            sys.exit(f"cases in two batches under one name: {', '.join(shared)}")
        rows = [dict(batch=b, case=n, file=spec(n)[0], params=spec(n)[1],
                     depth=list(spec(n)[2]) if spec(n)[2] else None)
                for b, (cases, _) in sorted(BATCHES.items()) for n in cases]
        with open(os.path.join(HERE, "cases.json"), "w") as fh:
            json.dump(dict(what="every case of cases.py: the .fgraph, its params and its repeat count replaced (from, to)",
                           made_by="validation/gpu/models/cases.py --manifest", cases=rows), fh, indent=1)
            fh.write("\n")
        return
    cases, out = BATCHES[a.batch]
    only = [c for c in cases if not a.only or c in a.only.split(",")]
    if a.emit:
        emit(a.emit, only)
    if a.predict:
        preds = predict(only)
        with open(os.path.join(HERE, a.predict_out or out), "w") as fh:
            json.dump(dict(what="fgraph's --runtime predictions (traffic model hardware, h100 preset) for the cases of "
                                "cases.py, made before they are measured", made_by="validation/gpu/models/cases.py "
                                "--predict", predictions=preds), fh, indent=1)
            fh.write("\n")


if __name__ == "__main__":
    main()
