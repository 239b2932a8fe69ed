# AOT ID: ['3_inference']
from ctypes import c_void_p, c_long, c_int
import torch
import math
import random
import os
import tempfile
from math import inf, nan
from cmath import nanj
from torch._inductor.hooks import run_intermediate_hooks
from torch._inductor.utils import maybe_profile
from torch._inductor.codegen.memory_planning import _align as align
from torch import device, empty_strided
from torch._inductor.async_compile import AsyncCompile
from torch._inductor.select_algorithm import extern_kernels
import triton
import triton.language as tl
from torch._inductor.runtime.triton_heuristics import start_graph, end_graph
from torch._C import _cuda_getCurrentRawStream as get_raw_stream

aten = torch.ops.aten
inductor_ops = torch.ops.inductor
_quantized = torch.ops._quantized
assert_size_stride = torch._C._dynamo.guards.assert_size_stride
assert_alignment = torch._C._dynamo.guards.assert_alignment
empty_strided_cpu = torch._C._dynamo.guards._empty_strided_cpu
empty_strided_cpu_pinned = torch._C._dynamo.guards._empty_strided_cpu_pinned
empty_strided_cuda = torch._C._dynamo.guards._empty_strided_cuda
empty_strided_xpu = torch._C._dynamo.guards._empty_strided_xpu
empty_strided_mtia = torch._C._dynamo.guards._empty_strided_mtia
reinterpret_tensor = torch._C._dynamo.guards._reinterpret_tensor
alloc_from_pool = torch.ops.inductor._alloc_from_pool
async_compile = AsyncCompile()
empty_strided_p2p = torch._C._distributed_c10d._SymmetricMemory.empty_strided_p2p


# kernel path: /tmp/torchinductor_root/3a/c3a44lz57pziwykrdspexr3ugbvlceryvycvp57zhqulf4vaafkr.py
# Topologically Sorted Source Nodes: [inputs_embeds, arange, position_ids, position_ids_1, position_embeds, hidden_states, hidden_states_2], Original ATen: [aten.embedding, aten.arange, aten.add, aten.unsqueeze, aten.native_layer_norm]
# Source node to ATen node mapping:
#   arange => iota
#   hidden_states => add_1
#   hidden_states_2 => add_4, add_5, convert_element_type, convert_element_type_1, mul, mul_1, rsqrt, sub_2, var_mean
#   inputs_embeds => embedding
#   position_embeds => embedding_1
#   position_ids => add
#   position_ids_1 => unsqueeze
# Graph fragment:
#   %arg0_1 : Tensor "i64[2, 128][128, 1]cuda:0" = PlaceHolder[target=arg0_1]
#   %arg1_1 : Tensor "bf16[50257, 1024][1024, 1]cuda:0" = PlaceHolder[target=arg1_1]
#   %arg2_1 : Tensor "bf16[1024, 1024][1024, 1]cuda:0" = PlaceHolder[target=arg2_1]
#   %getitem_1 : Tensor "f32[2, 128, 1][128, 1, 256]cuda:0" = PlaceHolder[target=getitem_1]
#   %buf1 : Tensor "f32[2, 128, 1][128, 1, 256]cuda:0" = PlaceHolder[target=buf1]
#   %arg3_1 : Tensor "bf16[1024][1]cuda:0" = PlaceHolder[target=arg3_1]
#   %arg4_1 : Tensor "bf16[1024][1]cuda:0" = PlaceHolder[target=arg4_1]
#   %embedding : Tensor "bf16[2, 128, 1024][131072, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.embedding.default](args = (%arg1_1, %arg0_1), kwargs = {})
#   %iota : Tensor "i64[128][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (128,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %add : Tensor "i64[128][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota, 0), kwargs = {})
#   %unsqueeze : Tensor "i64[1, 128][128, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add, 0), kwargs = {})
#   %embedding_1 : Tensor "bf16[1, 128, 1024][131072, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.embedding.default](args = (%arg2_1, %unsqueeze), kwargs = {})
#   %add_1 : Tensor "bf16[2, 128, 1024][131072, 1024, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%embedding, %embedding_1), kwargs = {})
#   %convert_element_type : Tensor "f32[2, 128, 1024][131072, 1024, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_1, torch.float32), kwargs = {})
#   %var_mean : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%convert_element_type, [2]), kwargs = {correction: 0, keepdim: True})
#   %sub_2 : Tensor "f32[2, 128, 1024][131072, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%convert_element_type, %getitem_1), kwargs = {})
#   %add_4 : Tensor "f32[2, 128, 1][128, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem, 1e-05), kwargs = {})
#   %rsqrt : Tensor "f32[2, 128, 1][128, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_4,), kwargs = {})
#   %mul : Tensor "f32[2, 128, 1024][131072, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_2, %rsqrt), kwargs = {})
#   %mul_1 : Tensor "f32[2, 128, 1024][131072, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul, %arg3_1), kwargs = {})
#   %add_5 : Tensor "f32[2, 128, 1024][131072, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_1, %arg4_1), kwargs = {})
#   %convert_element_type_1 : Tensor "bf16[2, 128, 1024][131072, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_5, torch.bfloat16), kwargs = {})
#   return %getitem_1,%buf1,%convert_element_type_1
triton_red_fused_add_arange_embedding_native_layer_norm_unsqueeze_0 = async_compile.triton('triton_red_fused_add_arange_embedding_native_layer_norm_unsqueeze_0', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.reduction(
    size_hints={'x': 256, 'r0_': 1024},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*i64', 'in_ptr1': '*bf16', 'in_ptr2': '*bf16', 'in_ptr3': '*bf16', 'in_ptr4': '*bf16', 'out_ptr2': '*bf16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused_add_arange_embedding_native_layer_norm_unsqueeze_0', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 5, 'num_store': 1, 'num_reduction': 2, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 2048, 'r0_': 1314816}}
)
@triton.jit
def triton_red_fused_add_arange_embedding_native_layer_norm_unsqueeze_0(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 256
    r0_numel = 1024
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x3 = xindex
    tmp0 = tl.load(in_ptr0 + (x3), xmask, eviction_policy='evict_last')
    x0 = (xindex % 128)
    tmp11_mean = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp11_m2 = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp11_weight = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_2 = r0_index
        tmp7 = tl.load(in_ptr2 + (r0_2 + 1024*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp1 = tl.full([1, 1], 50257, tl.int32)
        tmp2 = tmp0 + tmp1
        tmp3 = tmp0 < 0
        tmp4 = tl.where(tmp3, tmp2, tmp0)
        tl.device_assert(((0 <= tmp4) & (tmp4 < 50257)) | ~(xmask), "index out of bounds: 0 <= tmp4 < 50257")
        tmp6 = tl.load(in_ptr1 + (r0_2 + 1024*tmp4), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp8 = tmp6 + tmp7
        tmp9 = tmp8.to(tl.float32)
        tmp10 = tl.broadcast_to(tmp9, [XBLOCK, R0_BLOCK])
        tmp11_mean_next, tmp11_m2_next, tmp11_weight_next = triton_helpers.welford_reduce(
            tmp10, tmp11_mean, tmp11_m2, tmp11_weight, roffset == 0
        )
        tmp11_mean = tl.where(r0_mask & xmask, tmp11_mean_next, tmp11_mean)
        tmp11_m2 = tl.where(r0_mask & xmask, tmp11_m2_next, tmp11_m2)
        tmp11_weight = tl.where(r0_mask & xmask, tmp11_weight_next, tmp11_weight)
    tmp12, tmp13, tmp14 = triton_helpers.welford(tmp11_mean, tmp11_m2, tmp11_weight, 1)
    tmp11 = tmp12[:, None]
    tmp15 = tmp13[:, None]
    tmp16 = tmp14[:, None]
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_2 = r0_index
        tmp23 = tl.load(in_ptr2 + (r0_2 + 1024*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp33 = tl.load(in_ptr3 + (r0_2), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp36 = tl.load(in_ptr4 + (r0_2), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp17 = tl.full([1, 1], 50257, tl.int32)
        tmp18 = tmp0 + tmp17
        tmp19 = tmp0 < 0
        tmp20 = tl.where(tmp19, tmp18, tmp0)
        tl.device_assert(((0 <= tmp20) & (tmp20 < 50257)) | ~(xmask), "index out of bounds: 0 <= tmp20 < 50257")
        tmp22 = tl.load(in_ptr1 + (r0_2 + 1024*tmp20), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp24 = tmp22 + tmp23
        tmp25 = tmp24.to(tl.float32)
        tmp26 = tmp25 - tmp11
        tmp27 = tl.full([1, 1], 1024.0, tl.float32)
        tmp28 = (tmp15 / tmp27)
        tmp29 = tl.full([1, 1], 1e-05, tl.float32)
        tmp30 = tmp28 + tmp29
        tmp31 = libdevice.rsqrt(tmp30)
        tmp32 = tmp26 * tmp31
        tmp34 = tmp33.to(tl.float32)
        tmp35 = tmp32 * tmp34
        tmp37 = tmp36.to(tl.float32)
        tmp38 = tmp35 + tmp37
        tmp39 = tmp38.to(tl.float32)
        tl.store(out_ptr2 + (r0_2 + 1024*x3), tmp39, r0_mask & xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/b5/cb57lu5gzfnsdms63i4k4t7wkpe5i4w6dakqzrvb2l5ynhlkyxjs.py
# Topologically Sorted Source Nodes: [arange, position_ids, position_ids_1, position_ids_2, getitem, first_dummy_value, position_diff, ne, packed_sequence_mask], Original ATen: [aten.arange, aten.add, aten.unsqueeze, aten.expand, aten.slice, aten.sub, aten.cat, aten.ne, aten.cumsum]
# Source node to ATen node mapping:
#   arange => iota
#   first_dummy_value => sub
#   getitem => slice_1
#   ne => ne
#   packed_sequence_mask => cumsum
#   position_diff => cat, slice_2, slice_3, sub_1
#   position_ids => add
#   position_ids_1 => unsqueeze
#   position_ids_2 => expand
# Graph fragment:
#   %iota : Tensor "i64[128][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (128,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %add : Tensor "i64[128][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota, 0), kwargs = {})
#   %unsqueeze : Tensor "i64[1, 128][128, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add, 0), kwargs = {})
#   %expand : Tensor "i64[2, 128][0, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.expand.default](args = (%unsqueeze, [2, -1]), kwargs = {})
#   %slice_1 : Tensor "i64[2, 1][0, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%expand, 1, 0, 1), kwargs = {})
#   %sub : Tensor "i64[2, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%slice_1, 1), kwargs = {})
#   %cat : Tensor "i64[2, 129][129, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.cat.default](args = ([%sub, %expand], -1), kwargs = {})
#   %slice_3 : Tensor "i64[2, 128][129, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%cat, -1, 1, 129), kwargs = {})
#   %slice_2 : Tensor "i64[2, 128][129, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%cat, -1, 0, 128), kwargs = {})
#   %sub_1 : Tensor "i64[2, 128][128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%slice_3, %slice_2), kwargs = {})
#   %ne : Tensor "b8[2, 128][128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.ne.Scalar](args = (%sub_1, 1), kwargs = {})
#   %cumsum : Tensor "i64[2, 128][128, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.cumsum.default](args = (%ne, -1), kwargs = {})
#   return %cumsum
triton_per_fused_add_arange_cat_cumsum_expand_ne_slice_sub_unsqueeze_1 = async_compile.triton('triton_per_fused_add_arange_cat_cumsum_expand_ne_slice_sub_unsqueeze_1', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton.jit
def _triton_helper_fn_add0(arg0_0, arg1_0):
    tmp0 = arg0_0 + arg1_0
    return tmp0

@triton_heuristics.persistent_reduction(
    size_hints={'x': 2, 'r0_': 128},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'out_ptr0': '*i64', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_add_arange_cat_cumsum_expand_ne_slice_sub_unsqueeze_1', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 0, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 0, 'r0_': 4096}}
)
@triton.jit
def triton_per_fused_add_arange_cat_cumsum_expand_ne_slice_sub_unsqueeze_1(out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 2
    r0_numel = 128
    R0_BLOCK: tl.constexpr = 128
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = 1 + r0_1
    tmp1 = tl.full([1, 1], 0, tl.int64)
    tmp2 = tmp0 >= tmp1
    tmp3 = tl.full([1, 1], 1, tl.int64)
    tmp4 = tmp0 < tmp3
    tmp5 = tl.broadcast_to((-1) + (1 + r0_1), [XBLOCK, R0_BLOCK])
    tmp6 = tl.full(tmp5.shape, 0.0, tmp5.dtype)
    tmp7 = tl.where(tmp4, tmp5, tmp6)
    tmp8 = tmp0 >= tmp3
    tmp9 = tl.full([1, 1], 129, tl.int64)
    tmp10 = tmp0 < tmp9
    tmp11 = tl.broadcast_to(r0_1, [XBLOCK, R0_BLOCK])
    tmp12 = tl.full(tmp11.shape, 0.0, tmp11.dtype)
    tmp13 = tl.where(tmp8, tmp11, tmp12)
    tmp14 = tl.where(tmp4, tmp7, tmp13)
    tmp15 = r0_1
    tmp16 = tmp15 >= tmp1
    tmp17 = tmp15 < tmp3
    tmp18 = tl.broadcast_to((-1) + (r0_1), [XBLOCK, R0_BLOCK])
    tmp19 = tl.full(tmp18.shape, 0.0, tmp18.dtype)
    tmp20 = tl.where(tmp17, tmp18, tmp19)
    tmp21 = tmp15 >= tmp3
    tmp22 = tmp15 < tmp9
    tmp23 = tl.broadcast_to((-1) + r0_1, [XBLOCK, R0_BLOCK])
    tmp24 = tl.full(tmp23.shape, 0.0, tmp23.dtype)
    tmp25 = tl.where(tmp21, tmp23, tmp24)
    tmp26 = tl.where(tmp17, tmp20, tmp25)
    tmp27 = tmp14 - tmp26
    tmp28 = tmp27 != tmp3
    tmp29 = tmp28.to(tl.int64)
    tmp30 = tmp29.to(tl.int64)
    tmp31 = tl.broadcast_to(tmp30, [XBLOCK, R0_BLOCK])
    tmp32, = tl.associative_scan((tmp31,), 1, _triton_helper_fn_add0)
    tl.store(out_ptr0 + (r0_1 + 128*x0), tmp32, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/mu/cmuqsi4cg75v5k736z523zwnff2vw64n3fa4fkgdq4yxnmyhwfhq.py
# Topologically Sorted Source Nodes: [x_1, split, view_5, query_states_1, view_3, key_states_1, view_4, value_states_1, result, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, le, result_1, batch_arange, batch_indices, getitem_5, getitem_6, eq, result_2, attention_mask, attn_output, x_9, split_1, view_16, query_states_3, view_14, key_states_3, view_15, value_states_3, attn_output_4], Original ATen: [aten.view, aten.split, aten.transpose, aten.new_ones, aten.arange, aten.add, aten.unsqueeze, aten.le, aten.bitwise_and, aten.index, aten.eq, aten.expand, aten.scalar_tensor, aten.where, aten._scaled_dot_product_cudnn_attention]
# Source node to ATen node mapping:
#   arange_3 => iota_3
#   arange_4 => iota_4
#   attention_mask => expand_1
#   attn_output => _scaled_dot_product_cudnn_attention, full_default_1, full_default_2, where
#   attn_output_4 => _scaled_dot_product_cudnn_attention_1, full_default_3, full_default_4, where_1
#   batch_arange => iota_1
#   batch_indices => unsqueeze_1, unsqueeze_2, unsqueeze_3
#   eq => eq
#   getitem_5 => index
#   getitem_6 => index_1
#   key_states_1 => permute
#   key_states_3 => permute_4
#   kv_arange => add_3
#   kv_indices => unsqueeze_7, unsqueeze_8, unsqueeze_9
#   le => le
#   q_arange => add_2
#   q_indices => unsqueeze_4, unsqueeze_5, unsqueeze_6
#   query_states_1 => permute_2
#   query_states_3 => permute_6
#   result => full_default
#   result_1 => bitwise_and
#   result_2 => bitwise_and_1
#   split => split
#   split_1 => split_1
#   value_states_1 => permute_1
#   value_states_3 => permute_5
#   view_14 => view_15
#   view_15 => view_16
#   view_16 => view_17
#   view_3 => view_3
#   view_4 => view_4
#   view_5 => view_5
#   x_1 => view_2
#   x_9 => view_14
# Graph fragment:
#   %cumsum : Tensor "i64[2, 128][128, 1]cuda:0" = PlaceHolder[target=cumsum]
#   %view_2 : Tensor "bf16[2, 128, 3072][393216, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm, [2, 128, 3072]), kwargs = {})
#   %split : [num_users=3] = call_function[target=torch.ops.aten.split.Tensor](args = (%view_2, 1024, 2), kwargs = {})
#   %view_5 : Tensor "bf16[2, 128, 16, 64][393216, 3072, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_2, [2, 128, -1, 64]), kwargs = {})
#   %permute_2 : Tensor "bf16[2, 16, 128, 64][393216, 64, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_5, [0, 2, 1, 3]), kwargs = {})
#   %view_3 : Tensor "bf16[2, 128, 16, 64][393216, 3072, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_3, [2, 128, -1, 64]), kwargs = {})
#   %permute : Tensor "bf16[2, 16, 128, 64][393216, 64, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_3, [0, 2, 1, 3]), kwargs = {})
#   %view_4 : Tensor "bf16[2, 128, 16, 64][393216, 3072, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_4, [2, 128, -1, 64]), kwargs = {})
#   %permute_1 : Tensor "bf16[2, 16, 128, 64][393216, 64, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_4, [0, 2, 1, 3]), kwargs = {})
#   %full_default : Tensor "b8[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], True), kwargs = {dtype: torch.bool, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %iota_4 : Tensor "i64[128][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (128,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %add_3 : Tensor "i64[128][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota_4, 0), kwargs = {})
#   %unsqueeze_7 : Tensor "i64[1, 128][128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add_3, 0), kwargs = {})
#   %unsqueeze_8 : Tensor "i64[1, 1, 128][128, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_7, 1), kwargs = {})
#   %unsqueeze_9 : Tensor "i64[1, 1, 1, 128][128, 128, 128, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_8, 2), kwargs = {})
#   %iota_3 : Tensor "i64[128][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (128,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %add_2 : Tensor "i64[128][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota_3, 0), kwargs = {})
#   %unsqueeze_4 : Tensor "i64[1, 128][128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add_2, 0), kwargs = {})
#   %unsqueeze_5 : Tensor "i64[1, 1, 128][128, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_4, 1), kwargs = {})
#   %unsqueeze_6 : Tensor "i64[1, 1, 128, 1][128, 128, 1, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_5, 3), kwargs = {})
#   %le : Tensor "b8[1, 1, 128, 128][16384, 16384, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.le.Tensor](args = (%unsqueeze_9, %unsqueeze_6), kwargs = {})
#   %bitwise_and : Tensor "b8[1, 1, 128, 128][16384, 16384, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.bitwise_and.Tensor](args = (%full_default, %le), kwargs = {})
#   %iota_1 : Tensor "i64[2][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (2,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %unsqueeze_1 : Tensor "i64[2, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%iota_1, 1), kwargs = {})
#   %unsqueeze_2 : Tensor "i64[2, 1, 1][1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_1, 2), kwargs = {})
#   %unsqueeze_3 : Tensor "i64[2, 1, 1, 1][1, 1, 1, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_2, 3), kwargs = {})
#   %index : Tensor "i64[2, 1, 128, 1][128, 128, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.index.Tensor](args = (%cumsum, [%unsqueeze_3, %unsqueeze_6]), kwargs = {})
#   %index_1 : Tensor "i64[2, 1, 1, 128][128, 128, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.index.Tensor](args = (%cumsum, [%unsqueeze_3, %unsqueeze_9]), kwargs = {})
#   %eq : Tensor "b8[2, 1, 128, 128][16384, 16384, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.eq.Tensor](args = (%index, %index_1), kwargs = {})
#   %bitwise_and_1 : Tensor "b8[2, 1, 128, 128][16384, 16384, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.bitwise_and.Tensor](args = (%bitwise_and, %eq), kwargs = {})
#   %expand_1 : Tensor "b8[2, 1, 128, 128][16384, 16384, 128, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.expand.default](args = (%bitwise_and_1, [2, -1, 128, 128]), kwargs = {})
#   %full_default_2 : Tensor "bf16[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], 0.0), kwargs = {dtype: torch.bfloat16, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %full_default_1 : Tensor "bf16[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], -65536.0), kwargs = {dtype: torch.bfloat16, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %where : Tensor "bf16[2, 1, 128, 128][16384, 16384, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.where.self](args = (%expand_1, %full_default_2, %full_default_1), kwargs = {})
#   %_scaled_dot_product_cudnn_attention : [num_users=1] = call_function[target=torch.ops.aten._scaled_dot_product_cudnn_attention.default](args = (%permute_2, %permute, %permute_1, %where, False), kwargs = {scale: 0.125})
#   %view_14 : Tensor "bf16[2, 128, 3072][393216, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_4, [2, 128, 3072]), kwargs = {})
#   %split_1 : [num_users=3] = call_function[target=torch.ops.aten.split.Tensor](args = (%view_14, 1024, 2), kwargs = {})
#   %view_17 : Tensor "bf16[2, 128, 16, 64][393216, 3072, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_18, [2, 128, -1, 64]), kwargs = {})
#   %permute_6 : Tensor "bf16[2, 16, 128, 64][393216, 64, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_17, [0, 2, 1, 3]), kwargs = {})
#   %view_15 : Tensor "bf16[2, 128, 16, 64][393216, 3072, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_19, [2, 128, -1, 64]), kwargs = {})
#   %permute_4 : Tensor "bf16[2, 16, 128, 64][393216, 64, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_15, [0, 2, 1, 3]), kwargs = {})
#   %view_16 : Tensor "bf16[2, 128, 16, 64][393216, 3072, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%getitem_20, [2, 128, -1, 64]), kwargs = {})
#   %permute_5 : Tensor "bf16[2, 16, 128, 64][393216, 64, 3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_16, [0, 2, 1, 3]), kwargs = {})
#   %full_default_4 : Tensor "bf16[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], 0.0), kwargs = {dtype: torch.bfloat16, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %full_default_3 : Tensor "bf16[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], -65536.0), kwargs = {dtype: torch.bfloat16, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %where_1 : Tensor "bf16[2, 1, 128, 128][16384, 16384, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.where.self](args = (%expand_1, %full_default_4, %full_default_3), kwargs = {})
#   %_scaled_dot_product_cudnn_attention_1 : [num_users=1] = call_function[target=torch.ops.aten._scaled_dot_product_cudnn_attention.default](args = (%permute_6, %permute_4, %permute_5, %where_1, False), kwargs = {scale: 0.125})
#   return %buf6,%buf26
triton_poi_fused__scaled_dot_product_cudnn_attention_add_arange_bitwise_and_eq_expand_index_le_new_ones_scalar_tensor_split_transpose_unsqueeze_view_where_2 = async_compile.triton('triton_poi_fused__scaled_dot_product_cudnn_attention_add_arange_bitwise_and_eq_expand_index_le_new_ones_scalar_tensor_split_transpose_unsqueeze_view_where_2', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'y': 256, 'x': 128}, tile_hint=TileHint.DEFAULT,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*i64', 'out_ptr0': '*bf16', 'out_ptr1': '*bf16', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid2D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__scaled_dot_product_cudnn_attention_add_arange_bitwise_and_eq_expand_index_le_new_ones_scalar_tensor_split_transpose_unsqueeze_view_where_2', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 2, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'y': 2048, 'x': 264192}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__scaled_dot_product_cudnn_attention_add_arange_bitwise_and_eq_expand_index_le_new_ones_scalar_tensor_split_transpose_unsqueeze_view_where_2(in_ptr0, out_ptr0, out_ptr1, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 256
    xnumel = 128
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x2 = xindex
    y0 = (yindex % 128)
    y3 = yindex
    y1 = yindex // 128
    tmp5 = tl.load(in_ptr0 + (y3), ymask, eviction_policy='evict_last')
    tmp6 = tl.load(in_ptr0 + (x2 + 128*y1), xmask & ymask, eviction_policy='evict_last')
    tmp0 = x2
    tmp1 = y0
    tmp2 = tmp0 <= tmp1
    tmp3 = tl.full([1, 1], True, tl.int1)
    tmp4 = tmp3 & tmp2
    tmp7 = tmp5 == tmp6
    tmp8 = tmp4 & tmp7
    tmp9 = tl.full([1, 1], 0.0, tl.float32)
    tmp10 = tl.full([1, 1], -65536.0, tl.float32)
    tmp11 = tl.where(tmp8, tmp9, tmp10)
    tl.store(out_ptr0 + (x2 + 128*y3), tmp11, xmask & ymask)
    tl.store(out_ptr1 + (x2 + 128*y3), tmp11, xmask & ymask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/ii/cii5a4lqsudves6ry5wrtpbpxik2vken55rx63xhei5r5cm7hbem.py
# Topologically Sorted Source Nodes: [inputs_embeds, arange, position_ids, position_ids_1, position_embeds, hidden_states, x_3, hidden_states_3, hidden_states_4], Original ATen: [aten.embedding, aten.arange, aten.add, aten.unsqueeze, aten.view, aten.native_layer_norm]
# Source node to ATen node mapping:
#   arange => iota
#   hidden_states => add_1
#   hidden_states_3 => add_6
#   hidden_states_4 => add_7, add_8, convert_element_type_8, convert_element_type_9, mul_2, mul_3, rsqrt_1, sub_3, var_mean_1
#   inputs_embeds => embedding
#   position_embeds => embedding_1
#   position_ids => add
#   position_ids_1 => unsqueeze
#   x_3 => view_8
# Graph fragment:
#   %addmm_1 : Tensor "bf16[256, 1024][1024, 1]cuda:0" = PlaceHolder[target=addmm_1]
#   %arg0_1 : Tensor "i64[2, 128][128, 1]cuda:0" = PlaceHolder[target=arg0_1]
#   %arg1_1 : Tensor "bf16[50257, 1024][1024, 1]cuda:0" = PlaceHolder[target=arg1_1]
#   %arg2_1 : Tensor "bf16[1024, 1024][1024, 1]cuda:0" = PlaceHolder[target=arg2_1]
#   %getitem_15 : Tensor "f32[2, 128, 1][128, 1, 256]cuda:0" = PlaceHolder[target=getitem_15]
#   %buf14 : Tensor "f32[2, 128, 1][128, 1, 256]cuda:0" = PlaceHolder[target=buf14]
#   %arg9_1 : Tensor "bf16[1024][1]cuda:0" = PlaceHolder[target=arg9_1]
#   %arg10_1 : Tensor "bf16[1024][1]cuda:0" = PlaceHolder[target=arg10_1]
#   %embedding : Tensor "bf16[2, 128, 1024][131072, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.embedding.default](args = (%arg1_1, %arg0_1), kwargs = {})
#   %iota : Tensor "i64[128][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (128,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %add : Tensor "i64[128][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota, 0), kwargs = {})
#   %unsqueeze : Tensor "i64[1, 128][128, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add, 0), kwargs = {})
#   %embedding_1 : Tensor "bf16[1, 128, 1024][131072, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.embedding.default](args = (%arg2_1, %unsqueeze), kwargs = {})
#   %add_1 : Tensor "bf16[2, 128, 1024][131072, 1024, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%embedding, %embedding_1), kwargs = {})
#   %view_8 : Tensor "bf16[2, 128, 1024][131072, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_1, [2, 128, 1024]), kwargs = {})
#   %add_6 : Tensor "bf16[2, 128, 1024][131072, 1024, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%view_8, %add_1), kwargs = {})
#   %convert_element_type_8 : Tensor "f32[2, 128, 1024][131072, 1024, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_6, torch.float32), kwargs = {})
#   %var_mean_1 : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%convert_element_type_8, [2]), kwargs = {correction: 0, keepdim: True})
#   %sub_3 : Tensor "f32[2, 128, 1024][131072, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%convert_element_type_8, %getitem_15), kwargs = {})
#   %add_7 : Tensor "f32[2, 128, 1][128, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem_14, 1e-05), kwargs = {})
#   %rsqrt_1 : Tensor "f32[2, 128, 1][128, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_7,), kwargs = {})
#   %mul_2 : Tensor "f32[2, 128, 1024][131072, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_3, %rsqrt_1), kwargs = {})
#   %mul_3 : Tensor "f32[2, 128, 1024][131072, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_2, %arg9_1), kwargs = {})
#   %add_8 : Tensor "f32[2, 128, 1024][131072, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_3, %arg10_1), kwargs = {})
#   %convert_element_type_9 : Tensor "bf16[2, 128, 1024][131072, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_8, torch.bfloat16), kwargs = {})
#   return %getitem_15,%buf14,%convert_element_type_9
triton_per_fused_add_arange_embedding_native_layer_norm_unsqueeze_view_3 = async_compile.triton('triton_per_fused_add_arange_embedding_native_layer_norm_unsqueeze_view_3', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 256, 'r0_': 1024},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*i64', 'in_ptr2': '*bf16', 'in_ptr3': '*bf16', 'in_ptr4': '*bf16', 'in_ptr5': '*bf16', 'out_ptr2': '*bf16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_add_arange_embedding_native_layer_norm_unsqueeze_view_3', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 5, 'num_store': 1, 'num_reduction': 4, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 2048, 'r0_': 1839104}}
)
@triton.jit
def triton_per_fused_add_arange_embedding_native_layer_norm_unsqueeze_view_3(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 256
    r0_numel = 1024
    R0_BLOCK: tl.constexpr = 1024
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_2 = r0_index
    x3 = xindex
    x0 = (xindex % 128)
    tmp0 = tl.load(in_ptr0 + (r0_2 + 1024*x3), xmask, other=0.0).to(tl.float32)
    tmp1 = tl.load(in_ptr1 + (x3), xmask, eviction_policy='evict_last')
    tmp8 = tl.load(in_ptr3 + (r0_2 + 1024*x0), xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp35 = tl.load(in_ptr4 + (r0_2), None, eviction_policy='evict_last').to(tl.float32)
    tmp38 = tl.load(in_ptr5 + (r0_2), None, eviction_policy='evict_last').to(tl.float32)
    tmp2 = tl.full([1, 1], 50257, tl.int32)
    tmp3 = tmp1 + tmp2
    tmp4 = tmp1 < 0
    tmp5 = tl.where(tmp4, tmp3, tmp1)
    tl.device_assert(((0 <= tmp5) & (tmp5 < 50257)) | ~(xmask), "index out of bounds: 0 <= tmp5 < 50257")
    tmp7 = tl.load(in_ptr2 + (r0_2 + 1024*tmp5), xmask, other=0.0).to(tl.float32)
    tmp9 = tmp7 + tmp8
    tmp10 = tmp0 + tmp9
    tmp11 = tmp10.to(tl.float32)
    tmp12 = tl.broadcast_to(tmp11, [XBLOCK, R0_BLOCK])
    tmp14 = tl.where(xmask, tmp12, 0)
    tmp15 = tl.broadcast_to(tmp12, [XBLOCK, R0_BLOCK])
    tmp17 = tl.where(xmask, tmp15, 0)
    tmp18 = tl.sum(tmp17, 1)[:, None].to(tl.float32)
    tmp19 = tl.full([1, 1], 1024, tl.int32)
    tmp20 = tmp19.to(tl.float32)
    tmp21 = (tmp18 / tmp20)
    tmp22 = tmp12 - tmp21
    tmp23 = tmp22 * tmp22
    tmp24 = tl.broadcast_to(tmp23, [XBLOCK, R0_BLOCK])
    tmp26 = tl.where(xmask, tmp24, 0)
    tmp27 = tl.sum(tmp26, 1)[:, None].to(tl.float32)
    tmp28 = tmp11 - tmp21
    tmp29 = tl.full([1, 1], 1024.0, tl.float32)
    tmp30 = (tmp27 / tmp29)
    tmp31 = tl.full([1, 1], 1e-05, tl.float32)
    tmp32 = tmp30 + tmp31
    tmp33 = libdevice.rsqrt(tmp32)
    tmp34 = tmp28 * tmp33
    tmp36 = tmp35.to(tl.float32)
    tmp37 = tmp34 * tmp36
    tmp39 = tmp38.to(tl.float32)
    tmp40 = tmp37 + tmp39
    tmp41 = tmp40.to(tl.float32)
    tl.store(out_ptr2 + (r0_2 + 1024*x3), tmp41, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/pd/cpdzlpei4cll42whs5uetjxnkflzy6gg3bvjv2ydvhmgojgvbqg6.py
# Topologically Sorted Source Nodes: [x_5, mul, pow_1, mul_1, add_5, mul_2, tanh, add_6, hidden_states_5], Original ATen: [aten.view, aten.mul, aten.pow, aten.add, aten.tanh]
# Source node to ATen node mapping:
#   add_5 => add_9
#   add_6 => add_10
#   hidden_states_5 => mul_7
#   mul => mul_4
#   mul_1 => mul_5
#   mul_2 => mul_6
#   pow_1 => pow_1
#   tanh => tanh
#   x_5 => view_10
# Graph fragment:
#   %addmm_2 : Tensor "bf16[256, 4096][4096, 1]cuda:0" = PlaceHolder[target=addmm_2]
#   %view_10 : Tensor "bf16[2, 128, 4096][524288, 4096, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_2, [2, 128, 4096]), kwargs = {})
#   %mul_4 : Tensor "bf16[2, 128, 4096][524288, 4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_10, 0.5), kwargs = {})
#   %pow_1 : Tensor "bf16[2, 128, 4096][524288, 4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%view_10, 3.0), kwargs = {})
#   %mul_5 : Tensor "bf16[2, 128, 4096][524288, 4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%pow_1, 0.044715), kwargs = {})
#   %add_9 : Tensor "bf16[2, 128, 4096][524288, 4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%view_10, %mul_5), kwargs = {})
#   %mul_6 : Tensor "bf16[2, 128, 4096][524288, 4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_9, 0.7978845608028654), kwargs = {})
#   %tanh : Tensor "bf16[2, 128, 4096][524288, 4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.tanh.default](args = (%mul_6,), kwargs = {})
#   %add_10 : Tensor "bf16[2, 128, 4096][524288, 4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%tanh, 1.0), kwargs = {})
#   %mul_7 : Tensor "bf16[2, 128, 4096][524288, 4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_4, %add_10), kwargs = {})
#   return %mul_7
triton_poi_fused_add_mul_pow_tanh_view_4 = async_compile.triton('triton_poi_fused_add_mul_pow_tanh_view_4', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 1048576}, 
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*bf16', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_add_mul_pow_tanh_view_4', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 6291456}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_add_mul_pow_tanh_view_4(in_out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 1048576
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = xindex
    tmp0 = tl.load(in_out_ptr0 + (x0), None).to(tl.float32)
    tmp1 = tl.full([1], 0.5, tl.float32)
    tmp2 = tmp0 * tmp1
    tmp3 = tmp0 * tmp0
    tmp4 = tmp3 * tmp0
    tmp5 = tl.full([1], 0.044715, tl.float32)
    tmp6 = tmp4 * tmp5
    tmp7 = tmp0 + tmp6
    tmp8 = tl.full([1], 0.7978845608028654, tl.float32)
    tmp9 = tmp7 * tmp8
    tmp10 = libdevice.tanh(tmp9)
    tmp11 = tl.full([1], 1.0, tl.float32)
    tmp12 = tmp10 + tmp11
    tmp13 = tmp2 * tmp12
    tl.store(in_out_ptr0 + (x0), tmp13, None)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/du/cdu6oxfobquzonlaxtu5tpvdo6kkdavfdg5ohgng5e3uqnywqjs3.py
# Topologically Sorted Source Nodes: [inputs_embeds, arange, position_ids, position_ids_1, position_embeds, hidden_states, x_3, hidden_states_3, x_7, hidden_states_7, hidden_states_8], Original ATen: [aten.embedding, aten.arange, aten.add, aten.unsqueeze, aten.view, aten.native_layer_norm]
# Source node to ATen node mapping:
#   arange => iota
#   hidden_states => add_1
#   hidden_states_3 => add_6
#   hidden_states_7 => add_11
#   hidden_states_8 => add_12, add_13, convert_element_type_16, convert_element_type_17, mul_8, mul_9, rsqrt_2, sub_4, var_mean_2
#   inputs_embeds => embedding
#   position_embeds => embedding_1
#   position_ids => add
#   position_ids_1 => unsqueeze
#   x_3 => view_8
#   x_7 => view_12
# Graph fragment:
#   %addmm_1 : Tensor "bf16[256, 1024][1024, 1]cuda:0" = PlaceHolder[target=addmm_1]
#   %arg0_1 : Tensor "i64[2, 128][128, 1]cuda:0" = PlaceHolder[target=arg0_1]
#   %arg1_1 : Tensor "bf16[50257, 1024][1024, 1]cuda:0" = PlaceHolder[target=arg1_1]
#   %arg2_1 : Tensor "bf16[1024, 1024][1024, 1]cuda:0" = PlaceHolder[target=arg2_1]
#   %addmm_3 : Tensor "bf16[256, 1024][1024, 1]cuda:0" = PlaceHolder[target=addmm_3]
#   %add_11 : Tensor "bf16[2, 128, 1024][131072, 1024, 1]cuda:0" = PlaceHolder[target=add_11]
#   %getitem_17 : Tensor "f32[2, 128, 1][128, 1, 256]cuda:0" = PlaceHolder[target=getitem_17]
#   %buf22 : Tensor "f32[2, 128, 1][128, 1, 256]cuda:0" = PlaceHolder[target=buf22]
#   %arg15_1 : Tensor "bf16[1024][1]cuda:0" = PlaceHolder[target=arg15_1]
#   %arg16_1 : Tensor "bf16[1024][1]cuda:0" = PlaceHolder[target=arg16_1]
#   %embedding : Tensor "bf16[2, 128, 1024][131072, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.embedding.default](args = (%arg1_1, %arg0_1), kwargs = {})
#   %iota : Tensor "i64[128][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (128,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %add : Tensor "i64[128][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota, 0), kwargs = {})
#   %unsqueeze : Tensor "i64[1, 128][128, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add, 0), kwargs = {})
#   %embedding_1 : Tensor "bf16[1, 128, 1024][131072, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.embedding.default](args = (%arg2_1, %unsqueeze), kwargs = {})
#   %add_1 : Tensor "bf16[2, 128, 1024][131072, 1024, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%embedding, %embedding_1), kwargs = {})
#   %view_8 : Tensor "bf16[2, 128, 1024][131072, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_1, [2, 128, 1024]), kwargs = {})
#   %add_6 : Tensor "bf16[2, 128, 1024][131072, 1024, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%view_8, %add_1), kwargs = {})
#   %view_12 : Tensor "bf16[2, 128, 1024][131072, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_3, [2, 128, 1024]), kwargs = {})
#   %add_11 : Tensor "bf16[2, 128, 1024][131072, 1024, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_6, %view_12), kwargs = {})
#   %convert_element_type_16 : Tensor "f32[2, 128, 1024][131072, 1024, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_11, torch.float32), kwargs = {})
#   %var_mean_2 : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%convert_element_type_16, [2]), kwargs = {correction: 0, keepdim: True})
#   %sub_4 : Tensor "f32[2, 128, 1024][131072, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%convert_element_type_16, %getitem_17), kwargs = {})
#   %add_12 : Tensor "f32[2, 128, 1][128, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem_16, 1e-05), kwargs = {})
#   %rsqrt_2 : Tensor "f32[2, 128, 1][128, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_12,), kwargs = {})
#   %mul_8 : Tensor "f32[2, 128, 1024][131072, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_4, %rsqrt_2), kwargs = {})
#   %mul_9 : Tensor "f32[2, 128, 1024][131072, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_8, %arg15_1), kwargs = {})
#   %add_13 : Tensor "f32[2, 128, 1024][131072, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_9, %arg16_1), kwargs = {})
#   %convert_element_type_17 : Tensor "bf16[2, 128, 1024][131072, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_13, torch.bfloat16), kwargs = {})
#   return %add_11,%getitem_17,%buf22,%convert_element_type_17
triton_per_fused_add_arange_embedding_native_layer_norm_unsqueeze_view_5 = async_compile.triton('triton_per_fused_add_arange_embedding_native_layer_norm_unsqueeze_view_5', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 256, 'r0_': 1024},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*bf16', 'in_ptr0': '*i64', 'in_ptr1': '*bf16', 'in_ptr2': '*bf16', 'in_ptr3': '*bf16', 'in_ptr4': '*bf16', 'in_ptr5': '*bf16', 'out_ptr2': '*bf16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_add_arange_embedding_native_layer_norm_unsqueeze_view_5', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 6, 'num_store': 2, 'num_reduction': 4, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 2048, 'r0_': 3411968}}
)
@triton.jit
def triton_per_fused_add_arange_embedding_native_layer_norm_unsqueeze_view_5(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 256
    r0_numel = 1024
    R0_BLOCK: tl.constexpr = 1024
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_2 = r0_index
    x3 = xindex
    x0 = (xindex % 128)
    tmp0 = tl.load(in_out_ptr0 + (r0_2 + 1024*x3), xmask, other=0.0).to(tl.float32)
    tmp1 = tl.load(in_ptr0 + (x3), xmask, eviction_policy='evict_last')
    tmp8 = tl.load(in_ptr2 + (r0_2 + 1024*x0), xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp11 = tl.load(in_ptr3 + (r0_2 + 1024*x3), xmask, other=0.0).to(tl.float32)
    tmp37 = tl.load(in_ptr4 + (r0_2), None, eviction_policy='evict_last').to(tl.float32)
    tmp40 = tl.load(in_ptr5 + (r0_2), None, eviction_policy='evict_last').to(tl.float32)
    tmp2 = tl.full([1, 1], 50257, tl.int32)
    tmp3 = tmp1 + tmp2
    tmp4 = tmp1 < 0
    tmp5 = tl.where(tmp4, tmp3, tmp1)
    tl.device_assert(((0 <= tmp5) & (tmp5 < 50257)) | ~(xmask), "index out of bounds: 0 <= tmp5 < 50257")
    tmp7 = tl.load(in_ptr1 + (r0_2 + 1024*tmp5), xmask, other=0.0).to(tl.float32)
    tmp9 = tmp7 + tmp8
    tmp10 = tmp0 + tmp9
    tmp12 = tmp10 + tmp11
    tmp13 = tmp12.to(tl.float32)
    tmp14 = tl.broadcast_to(tmp13, [XBLOCK, R0_BLOCK])
    tmp16 = tl.where(xmask, tmp14, 0)
    tmp17 = tl.broadcast_to(tmp14, [XBLOCK, R0_BLOCK])
    tmp19 = tl.where(xmask, tmp17, 0)
    tmp20 = tl.sum(tmp19, 1)[:, None].to(tl.float32)
    tmp21 = tl.full([1, 1], 1024, tl.int32)
    tmp22 = tmp21.to(tl.float32)
    tmp23 = (tmp20 / tmp22)
    tmp24 = tmp14 - tmp23
    tmp25 = tmp24 * tmp24
    tmp26 = tl.broadcast_to(tmp25, [XBLOCK, R0_BLOCK])
    tmp28 = tl.where(xmask, tmp26, 0)
    tmp29 = tl.sum(tmp28, 1)[:, None].to(tl.float32)
    tmp30 = tmp13 - tmp23
    tmp31 = tl.full([1, 1], 1024.0, tl.float32)
    tmp32 = (tmp29 / tmp31)
    tmp33 = tl.full([1, 1], 1e-05, tl.float32)
    tmp34 = tmp32 + tmp33
    tmp35 = libdevice.rsqrt(tmp34)
    tmp36 = tmp30 * tmp35
    tmp38 = tmp37.to(tl.float32)
    tmp39 = tmp36 * tmp38
    tmp41 = tmp40.to(tl.float32)
    tmp42 = tmp39 + tmp41
    tmp43 = tmp42.to(tl.float32)
    tl.store(in_out_ptr0 + (r0_2 + 1024*x3), tmp12, xmask)
    tl.store(out_ptr2 + (r0_2 + 1024*x3), tmp43, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/3r/c3rpnxx6dc2oa3xjptz6c5blrxx5yxk6jrn7tntwzvuo2cwxb7ca.py
# Topologically Sorted Source Nodes: [x_11, hidden_states_9, hidden_states_10], Original ATen: [aten.view, aten.add, aten.native_layer_norm]
# Source node to ATen node mapping:
#   hidden_states_10 => add_15, add_16, convert_element_type_24, convert_element_type_25, mul_10, mul_11, rsqrt_3, sub_5, var_mean_3
#   hidden_states_9 => add_14
#   x_11 => view_20
# Graph fragment:
#   %addmm_5 : Tensor "bf16[256, 1024][1024, 1]cuda:0" = PlaceHolder[target=addmm_5]
#   %add_11 : Tensor "bf16[2, 128, 1024][131072, 1024, 1]cuda:0" = PlaceHolder[target=add_11]
#   %getitem_31 : Tensor "f32[2, 128, 1][128, 1, 256]cuda:0" = PlaceHolder[target=getitem_31]
#   %buf34 : Tensor "f32[2, 128, 1][128, 1, 256]cuda:0" = PlaceHolder[target=buf34]
#   %arg21_1 : Tensor "bf16[1024][1]cuda:0" = PlaceHolder[target=arg21_1]
#   %arg22_1 : Tensor "bf16[1024][1]cuda:0" = PlaceHolder[target=arg22_1]
#   %view_20 : Tensor "bf16[2, 128, 1024][131072, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_5, [2, 128, 1024]), kwargs = {})
#   %add_14 : Tensor "bf16[2, 128, 1024][131072, 1024, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%view_20, %add_11), kwargs = {})
#   %convert_element_type_24 : Tensor "f32[2, 128, 1024][131072, 1024, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_14, torch.float32), kwargs = {})
#   %var_mean_3 : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%convert_element_type_24, [2]), kwargs = {correction: 0, keepdim: True})
#   %sub_5 : Tensor "f32[2, 128, 1024][131072, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%convert_element_type_24, %getitem_31), kwargs = {})
#   %add_15 : Tensor "f32[2, 128, 1][128, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem_30, 1e-05), kwargs = {})
#   %rsqrt_3 : Tensor "f32[2, 128, 1][128, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_15,), kwargs = {})
#   %mul_10 : Tensor "f32[2, 128, 1024][131072, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_5, %rsqrt_3), kwargs = {})
#   %mul_11 : Tensor "f32[2, 128, 1024][131072, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_10, %arg21_1), kwargs = {})
#   %add_16 : Tensor "f32[2, 128, 1024][131072, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_11, %arg22_1), kwargs = {})
#   %convert_element_type_25 : Tensor "bf16[2, 128, 1024][131072, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_16, torch.bfloat16), kwargs = {})
#   return %getitem_31,%buf34,%convert_element_type_25
triton_per_fused_add_native_layer_norm_view_6 = async_compile.triton('triton_per_fused_add_native_layer_norm_view_6', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 256, 'r0_': 1024},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'in_ptr2': '*bf16', 'in_ptr3': '*bf16', 'out_ptr2': '*bf16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_add_native_layer_norm_view_6', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 4, 'num_store': 1, 'num_reduction': 4, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 0, 'r0_': 2101248}}
)
@triton.jit
def triton_per_fused_add_native_layer_norm_view_6(in_ptr0, in_ptr1, in_ptr2, in_ptr3, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 256
    r0_numel = 1024
    R0_BLOCK: tl.constexpr = 1024
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1 + 1024*x0), xmask, other=0.0).to(tl.float32)
    tmp1 = tl.load(in_ptr1 + (r0_1 + 1024*x0), xmask, other=0.0).to(tl.float32)
    tmp27 = tl.load(in_ptr2 + (r0_1), None, eviction_policy='evict_last').to(tl.float32)
    tmp30 = tl.load(in_ptr3 + (r0_1), None, eviction_policy='evict_last').to(tl.float32)
    tmp2 = tmp0 + tmp1
    tmp3 = tmp2.to(tl.float32)
    tmp4 = tl.broadcast_to(tmp3, [XBLOCK, R0_BLOCK])
    tmp6 = tl.where(xmask, tmp4, 0)
    tmp7 = tl.broadcast_to(tmp4, [XBLOCK, R0_BLOCK])
    tmp9 = tl.where(xmask, tmp7, 0)
    tmp10 = tl.sum(tmp9, 1)[:, None].to(tl.float32)
    tmp11 = tl.full([1, 1], 1024, tl.int32)
    tmp12 = tmp11.to(tl.float32)
    tmp13 = (tmp10 / tmp12)
    tmp14 = tmp4 - tmp13
    tmp15 = tmp14 * tmp14
    tmp16 = tl.broadcast_to(tmp15, [XBLOCK, R0_BLOCK])
    tmp18 = tl.where(xmask, tmp16, 0)
    tmp19 = tl.sum(tmp18, 1)[:, None].to(tl.float32)
    tmp20 = tmp3 - tmp13
    tmp21 = tl.full([1, 1], 1024.0, tl.float32)
    tmp22 = (tmp19 / tmp21)
    tmp23 = tl.full([1, 1], 1e-05, tl.float32)
    tmp24 = tmp22 + tmp23
    tmp25 = libdevice.rsqrt(tmp24)
    tmp26 = tmp20 * tmp25
    tmp28 = tmp27.to(tl.float32)
    tmp29 = tmp26 * tmp28
    tmp31 = tmp30.to(tl.float32)
    tmp32 = tmp29 + tmp31
    tmp33 = tmp32.to(tl.float32)
    tl.store(out_ptr2 + (r0_1 + 1024*x0), tmp33, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/bj/cbjstce4ur2f5yxjyzf2rndt576bdfby7kzi3mj6jqfcrxedi7kd.py
# Topologically Sorted Source Nodes: [x_11, hidden_states_9, x_15, hidden_states_13, hidden_states_14], Original ATen: [aten.view, aten.add, aten.native_layer_norm]
# Source node to ATen node mapping:
#   hidden_states_13 => add_19
#   hidden_states_14 => add_20, add_21, convert_element_type_32, convert_element_type_33, mul_16, mul_17, rsqrt_4, sub_6, var_mean_4
#   hidden_states_9 => add_14
#   x_11 => view_20
#   x_15 => view_24
# Graph fragment:
#   %addmm_5 : Tensor "bf16[256, 1024][1024, 1]cuda:0" = PlaceHolder[target=addmm_5]
#   %add_11 : Tensor "bf16[2, 128, 1024][131072, 1024, 1]cuda:0" = PlaceHolder[target=add_11]
#   %addmm_7 : Tensor "bf16[256, 1024][1024, 1]cuda:0" = PlaceHolder[target=addmm_7]
#   %getitem_33 : Tensor "f32[2, 128, 1][128, 1, 256]cuda:0" = PlaceHolder[target=getitem_33]
#   %buf41 : Tensor "f32[2, 128, 1][128, 1, 256]cuda:0" = PlaceHolder[target=buf41]
#   %arg27_1 : Tensor "bf16[1024][1]cuda:0" = PlaceHolder[target=arg27_1]
#   %arg28_1 : Tensor "bf16[1024][1]cuda:0" = PlaceHolder[target=arg28_1]
#   %view_20 : Tensor "bf16[2, 128, 1024][131072, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_5, [2, 128, 1024]), kwargs = {})
#   %add_14 : Tensor "bf16[2, 128, 1024][131072, 1024, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%view_20, %add_11), kwargs = {})
#   %view_24 : Tensor "bf16[2, 128, 1024][131072, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_7, [2, 128, 1024]), kwargs = {})
#   %add_19 : Tensor "bf16[2, 128, 1024][131072, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_14, %view_24), kwargs = {})
#   %convert_element_type_32 : Tensor "f32[2, 128, 1024][131072, 1024, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_19, torch.float32), kwargs = {})
#   %var_mean_4 : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%convert_element_type_32, [2]), kwargs = {correction: 0, keepdim: True})
#   %sub_6 : Tensor "f32[2, 128, 1024][131072, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%convert_element_type_32, %getitem_33), kwargs = {})
#   %add_20 : Tensor "f32[2, 128, 1][128, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem_32, 1e-05), kwargs = {})
#   %rsqrt_4 : Tensor "f32[2, 128, 1][128, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_20,), kwargs = {})
#   %mul_16 : Tensor "f32[2, 128, 1024][131072, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_6, %rsqrt_4), kwargs = {})
#   %mul_17 : Tensor "f32[2, 128, 1024][131072, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_16, %arg27_1), kwargs = {})
#   %add_21 : Tensor "f32[2, 128, 1024][131072, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_17, %arg28_1), kwargs = {})
#   %convert_element_type_33 : Tensor "bf16[2, 128, 1024][131072, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_21, torch.bfloat16), kwargs = {})
#   return %getitem_33,%buf41,%convert_element_type_33
triton_per_fused_add_native_layer_norm_view_7 = async_compile.triton('triton_per_fused_add_native_layer_norm_view_7', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 256, 'r0_': 1024},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*bf16', 'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'in_ptr2': '*bf16', 'in_ptr3': '*bf16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_add_native_layer_norm_view_7', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 5, 'num_store': 1, 'num_reduction': 4, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 0, 'r0_': 2625536}}
)
@triton.jit
def triton_per_fused_add_native_layer_norm_view_7(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 256
    r0_numel = 1024
    R0_BLOCK: tl.constexpr = 1024
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_out_ptr0 + (r0_1 + 1024*x0), xmask, other=0.0).to(tl.float32)
    tmp1 = tl.load(in_ptr0 + (r0_1 + 1024*x0), xmask, other=0.0).to(tl.float32)
    tmp3 = tl.load(in_ptr1 + (r0_1 + 1024*x0), xmask, other=0.0).to(tl.float32)
    tmp29 = tl.load(in_ptr2 + (r0_1), None, eviction_policy='evict_last').to(tl.float32)
    tmp32 = tl.load(in_ptr3 + (r0_1), None, eviction_policy='evict_last').to(tl.float32)
    tmp2 = tmp0 + tmp1
    tmp4 = tmp2 + tmp3
    tmp5 = tmp4.to(tl.float32)
    tmp6 = tl.broadcast_to(tmp5, [XBLOCK, R0_BLOCK])
    tmp8 = tl.where(xmask, tmp6, 0)
    tmp9 = tl.broadcast_to(tmp6, [XBLOCK, R0_BLOCK])
    tmp11 = tl.where(xmask, tmp9, 0)
    tmp12 = tl.sum(tmp11, 1)[:, None].to(tl.float32)
    tmp13 = tl.full([1, 1], 1024, tl.int32)
    tmp14 = tmp13.to(tl.float32)
    tmp15 = (tmp12 / tmp14)
    tmp16 = tmp6 - tmp15
    tmp17 = tmp16 * tmp16
    tmp18 = tl.broadcast_to(tmp17, [XBLOCK, R0_BLOCK])
    tmp20 = tl.where(xmask, tmp18, 0)
    tmp21 = tl.sum(tmp20, 1)[:, None].to(tl.float32)
    tmp22 = tmp5 - tmp15
    tmp23 = tl.full([1, 1], 1024.0, tl.float32)
    tmp24 = (tmp21 / tmp23)
    tmp25 = tl.full([1, 1], 1e-05, tl.float32)
    tmp26 = tmp24 + tmp25
    tmp27 = libdevice.rsqrt(tmp26)
    tmp28 = tmp22 * tmp27
    tmp30 = tmp29.to(tl.float32)
    tmp31 = tmp28 * tmp30
    tmp33 = tmp32.to(tl.float32)
    tmp34 = tmp31 + tmp33
    tmp35 = tmp34.to(tl.float32)
    tl.store(in_out_ptr0 + (r0_1 + 1024*x0), tmp35, xmask)
''', device_str='cuda')


async_compile.wait(globals())
del async_compile

class Runner:
    def __init__(self, partitions):
        self.partitions = partitions

    def recursively_apply_fns(self, fns):
        new_callables = []
        for fn, c in zip(fns, self.partitions):
            new_callables.append(fn(c))
        self.partitions = new_callables

    def call(self, args):
        arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1, arg12_1, arg13_1, arg14_1, arg15_1, arg16_1, arg17_1, arg18_1, arg19_1, arg20_1, arg21_1, arg22_1, arg23_1, arg24_1, arg25_1, arg26_1, arg27_1, arg28_1 = args
        args.clear()
        assert_size_stride(arg0_1, (2, 128), (128, 1))
        assert_size_stride(arg1_1, (50257, 1024), (1024, 1))
        assert_size_stride(arg2_1, (1024, 1024), (1024, 1))
        assert_size_stride(arg3_1, (1024, ), (1, ))
        assert_size_stride(arg4_1, (1024, ), (1, ))
        assert_size_stride(arg5_1, (3072, ), (1, ))
        assert_size_stride(arg6_1, (1024, 3072), (3072, 1))
        assert_size_stride(arg7_1, (1024, ), (1, ))
        assert_size_stride(arg8_1, (1024, 1024), (1024, 1))
        assert_size_stride(arg9_1, (1024, ), (1, ))
        assert_size_stride(arg10_1, (1024, ), (1, ))
        assert_size_stride(arg11_1, (4096, ), (1, ))
        assert_size_stride(arg12_1, (1024, 4096), (4096, 1))
        assert_size_stride(arg13_1, (1024, ), (1, ))
        assert_size_stride(arg14_1, (4096, 1024), (1024, 1))
        assert_size_stride(arg15_1, (1024, ), (1, ))
        assert_size_stride(arg16_1, (1024, ), (1, ))
        assert_size_stride(arg17_1, (3072, ), (1, ))
        assert_size_stride(arg18_1, (1024, 3072), (3072, 1))
        assert_size_stride(arg19_1, (1024, ), (1, ))
        assert_size_stride(arg20_1, (1024, 1024), (1024, 1))
        assert_size_stride(arg21_1, (1024, ), (1, ))
        assert_size_stride(arg22_1, (1024, ), (1, ))
        assert_size_stride(arg23_1, (4096, ), (1, ))
        assert_size_stride(arg24_1, (1024, 4096), (4096, 1))
        assert_size_stride(arg25_1, (1024, ), (1, ))
        assert_size_stride(arg26_1, (4096, 1024), (1024, 1))
        assert_size_stride(arg27_1, (1024, ), (1, ))
        assert_size_stride(arg28_1, (1024, ), (1, ))
        with torch.cuda._DeviceGuard(0):
            torch.cuda.set_device(0)
            buf3 = empty_strided_cuda((2, 128, 1024), (131072, 1024, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [inputs_embeds, arange, position_ids, position_ids_1, position_embeds, hidden_states, hidden_states_2], Original ATen: [aten.embedding, aten.arange, aten.add, aten.unsqueeze, aten.native_layer_norm]
            stream0 = get_raw_stream(0)
            triton_red_fused_add_arange_embedding_native_layer_norm_unsqueeze_0.run(arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, buf3, 256, 1024, stream=stream0)
            del arg3_1
            del arg4_1
            buf4 = empty_strided_cuda((256, 3072), (3072, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [inputs_embeds, arange, position_ids, position_ids_1, position_embeds, hidden_states, hidden_states_2, view_1, x], Original ATen: [aten.embedding, aten.arange, aten.add, aten.unsqueeze, aten.native_layer_norm, aten.view, aten.addmm]
            extern_kernels.addmm(arg5_1, reinterpret_tensor(buf3, (256, 1024), (1024, 1), 0), arg6_1, alpha=1, beta=1, out=buf4)
            del arg5_1
            del arg6_1
            buf5 = empty_strided_cuda((2, 128), (128, 1), torch.int64)
            # Topologically Sorted Source Nodes: [arange, position_ids, position_ids_1, position_ids_2, getitem, first_dummy_value, position_diff, ne, packed_sequence_mask], Original ATen: [aten.arange, aten.add, aten.unsqueeze, aten.expand, aten.slice, aten.sub, aten.cat, aten.ne, aten.cumsum]
            stream0 = get_raw_stream(0)
            triton_per_fused_add_arange_cat_cumsum_expand_ne_slice_sub_unsqueeze_1.run(buf5, 2, 128, stream=stream0)
            buf6 = empty_strided_cuda((2, 1, 128, 128), (16384, 16384, 128, 1), torch.bfloat16)
            buf26 = empty_strided_cuda((2, 1, 128, 128), (16384, 16384, 128, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [x_1, split, view_5, query_states_1, view_3, key_states_1, view_4, value_states_1, result, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, le, result_1, batch_arange, batch_indices, getitem_5, getitem_6, eq, result_2, attention_mask, attn_output, x_9, split_1, view_16, query_states_3, view_14, key_states_3, view_15, value_states_3, attn_output_4], Original ATen: [aten.view, aten.split, aten.transpose, aten.new_ones, aten.arange, aten.add, aten.unsqueeze, aten.le, aten.bitwise_and, aten.index, aten.eq, aten.expand, aten.scalar_tensor, aten.where, aten._scaled_dot_product_cudnn_attention]
            stream0 = get_raw_stream(0)
            triton_poi_fused__scaled_dot_product_cudnn_attention_add_arange_bitwise_and_eq_expand_index_le_new_ones_scalar_tensor_split_transpose_unsqueeze_view_where_2.run(buf5, buf6, buf26, 256, 128, stream=stream0)
            del buf5
            # Topologically Sorted Source Nodes: [x_1, split, view_5, query_states_1, view_3, key_states_1, view_4, value_states_1, result, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, le, result_1, batch_arange, batch_indices, getitem_5, getitem_6, eq, result_2, attention_mask, attn_output], Original ATen: [aten.view, aten.split, aten.transpose, aten.new_ones, aten.arange, aten.add, aten.unsqueeze, aten.le, aten.bitwise_and, aten.index, aten.eq, aten.expand, aten.scalar_tensor, aten.where, aten._scaled_dot_product_cudnn_attention]
            buf7 = torch.ops.aten._scaled_dot_product_cudnn_attention.default(reinterpret_tensor(buf4, (2, 16, 128, 64), (393216, 64, 3072, 1), 0), reinterpret_tensor(buf4, (2, 16, 128, 64), (393216, 64, 3072, 1), 1024), reinterpret_tensor(buf4, (2, 16, 128, 64), (393216, 64, 3072, 1), 2048), buf6, False, scale=0.125)
            del buf4
            del buf6
            buf8 = buf7[0]
            assert_size_stride(buf8, (2, 16, 128, 64), (131072, 64, 1024, 1), 'torch.ops.aten._scaled_dot_product_cudnn_attention.default')
            assert_alignment(buf8, 16, 'torch.ops.aten._scaled_dot_product_cudnn_attention.default')
            del buf7
            buf12 = reinterpret_tensor(buf3, (256, 1024), (1024, 1), 0); del buf3  # reuse
            # Topologically Sorted Source Nodes: [transpose_3, reshape, view_6, x_2], Original ATen: [aten.transpose, aten.view, aten.addmm]
            extern_kernels.addmm(arg7_1, reinterpret_tensor(buf8, (256, 1024), (1024, 1), 0), arg8_1, alpha=1, beta=1, out=buf12)
            del arg7_1
            del arg8_1
            buf16 = reinterpret_tensor(buf8, (2, 128, 1024), (131072, 1024, 1), 0); del buf8  # reuse
            # Topologically Sorted Source Nodes: [inputs_embeds, arange, position_ids, position_ids_1, position_embeds, hidden_states, x_3, hidden_states_3, hidden_states_4], Original ATen: [aten.embedding, aten.arange, aten.add, aten.unsqueeze, aten.view, aten.native_layer_norm]
            stream0 = get_raw_stream(0)
            triton_per_fused_add_arange_embedding_native_layer_norm_unsqueeze_view_3.run(buf12, arg0_1, arg1_1, arg2_1, arg9_1, arg10_1, buf16, 256, 1024, stream=stream0)
            del arg10_1
            del arg9_1
            buf17 = empty_strided_cuda((256, 4096), (4096, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [inputs_embeds, arange, position_ids, position_ids_1, position_embeds, hidden_states, x_3, hidden_states_3, hidden_states_4, view_8, x_4], Original ATen: [aten.embedding, aten.arange, aten.add, aten.unsqueeze, aten.view, aten.native_layer_norm, aten.addmm]
            extern_kernels.addmm(arg11_1, reinterpret_tensor(buf16, (256, 1024), (1024, 1), 0), arg12_1, alpha=1, beta=1, out=buf17)
            del arg11_1
            del arg12_1
            buf18 = reinterpret_tensor(buf17, (2, 128, 4096), (524288, 4096, 1), 0); del buf17  # reuse
            # Topologically Sorted Source Nodes: [x_5, mul, pow_1, mul_1, add_5, mul_2, tanh, add_6, hidden_states_5], Original ATen: [aten.view, aten.mul, aten.pow, aten.add, aten.tanh]
            stream0 = get_raw_stream(0)
            triton_poi_fused_add_mul_pow_tanh_view_4.run(buf18, 1048576, stream=stream0)
            buf19 = reinterpret_tensor(buf16, (256, 1024), (1024, 1), 0); del buf16  # reuse
            # Topologically Sorted Source Nodes: [x_5, mul, pow_1, mul_1, add_5, mul_2, tanh, add_6, hidden_states_5, view_10, x_6], Original ATen: [aten.view, aten.mul, aten.pow, aten.add, aten.tanh, aten.addmm]
            extern_kernels.addmm(arg13_1, reinterpret_tensor(buf18, (256, 4096), (4096, 1), 0), arg14_1, alpha=1, beta=1, out=buf19)
            del arg13_1
            del arg14_1
            del buf18
            buf20 = reinterpret_tensor(buf12, (2, 128, 1024), (131072, 1024, 1), 0); del buf12  # reuse
            buf24 = empty_strided_cuda((2, 128, 1024), (131072, 1024, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [inputs_embeds, arange, position_ids, position_ids_1, position_embeds, hidden_states, x_3, hidden_states_3, x_7, hidden_states_7, hidden_states_8], Original ATen: [aten.embedding, aten.arange, aten.add, aten.unsqueeze, aten.view, aten.native_layer_norm]
            stream0 = get_raw_stream(0)
            triton_per_fused_add_arange_embedding_native_layer_norm_unsqueeze_view_5.run(buf20, arg0_1, arg1_1, arg2_1, buf19, arg15_1, arg16_1, buf24, 256, 1024, stream=stream0)
            del arg0_1
            del arg15_1
            del arg16_1
            del arg2_1
            del buf19
            buf25 = empty_strided_cuda((256, 3072), (3072, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [hidden_states_8, view_12, x_8], Original ATen: [aten.native_layer_norm, aten.view, aten.addmm]
            extern_kernels.addmm(arg17_1, reinterpret_tensor(buf24, (256, 1024), (1024, 1), 0), arg18_1, alpha=1, beta=1, out=buf25)
            del arg17_1
            del arg18_1
            # Topologically Sorted Source Nodes: [result, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, le, result_1, batch_arange, batch_indices, getitem_5, getitem_6, eq, result_2, attention_mask, x_9, split_1, view_16, query_states_3, view_14, key_states_3, view_15, value_states_3, attn_output_4], Original ATen: [aten.new_ones, aten.arange, aten.add, aten.unsqueeze, aten.le, aten.bitwise_and, aten.index, aten.eq, aten.expand, aten.view, aten.split, aten.transpose, aten.scalar_tensor, aten.where, aten._scaled_dot_product_cudnn_attention]
            buf27 = torch.ops.aten._scaled_dot_product_cudnn_attention.default(reinterpret_tensor(buf25, (2, 16, 128, 64), (393216, 64, 3072, 1), 0), reinterpret_tensor(buf25, (2, 16, 128, 64), (393216, 64, 3072, 1), 1024), reinterpret_tensor(buf25, (2, 16, 128, 64), (393216, 64, 3072, 1), 2048), buf26, False, scale=0.125)
            del buf25
            del buf26
            buf28 = buf27[0]
            assert_size_stride(buf28, (2, 16, 128, 64), (131072, 64, 1024, 1), 'torch.ops.aten._scaled_dot_product_cudnn_attention.default')
            assert_alignment(buf28, 16, 'torch.ops.aten._scaled_dot_product_cudnn_attention.default')
            del buf27
            buf32 = reinterpret_tensor(buf24, (256, 1024), (1024, 1), 0); del buf24  # reuse
            # Topologically Sorted Source Nodes: [transpose_7, reshape_1, view_17, x_10], Original ATen: [aten.transpose, aten.view, aten.addmm]
            extern_kernels.addmm(arg19_1, reinterpret_tensor(buf28, (256, 1024), (1024, 1), 0), arg20_1, alpha=1, beta=1, out=buf32)
            del arg19_1
            del arg20_1
            buf36 = reinterpret_tensor(buf28, (2, 128, 1024), (131072, 1024, 1), 0); del buf28  # reuse
            # Topologically Sorted Source Nodes: [x_11, hidden_states_9, hidden_states_10], Original ATen: [aten.view, aten.add, aten.native_layer_norm]
            stream0 = get_raw_stream(0)
            triton_per_fused_add_native_layer_norm_view_6.run(buf32, buf20, arg21_1, arg22_1, buf36, 256, 1024, stream=stream0)
            del arg21_1
            del arg22_1
            buf37 = empty_strided_cuda((256, 4096), (4096, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [x_11, hidden_states_9, hidden_states_10, view_19, x_12], Original ATen: [aten.view, aten.add, aten.native_layer_norm, aten.addmm]
            extern_kernels.addmm(arg23_1, reinterpret_tensor(buf36, (256, 1024), (1024, 1), 0), arg24_1, alpha=1, beta=1, out=buf37)
            del arg23_1
            del arg24_1
            buf38 = reinterpret_tensor(buf37, (2, 128, 4096), (524288, 4096, 1), 0); del buf37  # reuse
            # Topologically Sorted Source Nodes: [x_13, mul_4, pow_2, mul_5, add_9, mul_6, tanh_1, add_10, hidden_states_11], Original ATen: [aten.view, aten.mul, aten.pow, aten.add, aten.tanh]
            stream0 = get_raw_stream(0)
            triton_poi_fused_add_mul_pow_tanh_view_4.run(buf38, 1048576, stream=stream0)
            buf39 = reinterpret_tensor(buf36, (256, 1024), (1024, 1), 0); del buf36  # reuse
            # Topologically Sorted Source Nodes: [x_13, mul_4, pow_2, mul_5, add_9, mul_6, tanh_1, add_10, hidden_states_11, view_21, x_14], Original ATen: [aten.view, aten.mul, aten.pow, aten.add, aten.tanh, aten.addmm]
            extern_kernels.addmm(arg25_1, reinterpret_tensor(buf38, (256, 4096), (4096, 1), 0), arg26_1, alpha=1, beta=1, out=buf39)
            del arg25_1
            del arg26_1
            del buf38
            buf43 = reinterpret_tensor(buf32, (2, 128, 1024), (131072, 1024, 1), 0); del buf32  # reuse
            # Topologically Sorted Source Nodes: [x_11, hidden_states_9, x_15, hidden_states_13, hidden_states_14], Original ATen: [aten.view, aten.add, aten.native_layer_norm]
            stream0 = get_raw_stream(0)
            triton_per_fused_add_native_layer_norm_view_7.run(buf43, buf20, buf39, arg27_1, arg28_1, 256, 1024, stream=stream0)
            del arg27_1
            del arg28_1
            del buf20
            del buf39
            buf44 = empty_strided_cuda((256, 50257), (50257, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [x_11, hidden_states_9, x_15, hidden_states_13, hidden_states_14, logits], Original ATen: [aten.view, aten.add, aten.native_layer_norm, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf43, (256, 1024), (1024, 1), 0), reinterpret_tensor(arg1_1, (1024, 50257), (1, 1024), 0), out=buf44)
            del arg1_1
            del buf43
        return (reinterpret_tensor(buf44, (2, 128, 50257), (6432896, 50257, 1), 0), )

runner = Runner(partitions=[])
call = runner.call
recursively_apply_fns = runner.recursively_apply_fns


def get_args():
    from torch._dynamo.testing import rand_strided
    arg0_1 = rand_strided((2, 128), (128, 1), device='cuda:0', dtype=torch.int64)
    arg1_1 = rand_strided((50257, 1024), (1024, 1), device='cuda:0', dtype=torch.bfloat16)
    arg2_1 = rand_strided((1024, 1024), (1024, 1), device='cuda:0', dtype=torch.bfloat16)
    arg3_1 = rand_strided((1024, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg4_1 = rand_strided((1024, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg5_1 = rand_strided((3072, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg6_1 = rand_strided((1024, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg7_1 = rand_strided((1024, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg8_1 = rand_strided((1024, 1024), (1024, 1), device='cuda:0', dtype=torch.bfloat16)
    arg9_1 = rand_strided((1024, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg10_1 = rand_strided((1024, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg11_1 = rand_strided((4096, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg12_1 = rand_strided((1024, 4096), (4096, 1), device='cuda:0', dtype=torch.bfloat16)
    arg13_1 = rand_strided((1024, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg14_1 = rand_strided((4096, 1024), (1024, 1), device='cuda:0', dtype=torch.bfloat16)
    arg15_1 = rand_strided((1024, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg16_1 = rand_strided((1024, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg17_1 = rand_strided((3072, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg18_1 = rand_strided((1024, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg19_1 = rand_strided((1024, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg20_1 = rand_strided((1024, 1024), (1024, 1), device='cuda:0', dtype=torch.bfloat16)
    arg21_1 = rand_strided((1024, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg22_1 = rand_strided((1024, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg23_1 = rand_strided((4096, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg24_1 = rand_strided((1024, 4096), (4096, 1), device='cuda:0', dtype=torch.bfloat16)
    arg25_1 = rand_strided((1024, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg26_1 = rand_strided((4096, 1024), (1024, 1), device='cuda:0', dtype=torch.bfloat16)
    arg27_1 = rand_strided((1024, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg28_1 = rand_strided((1024, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    return [arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1, arg12_1, arg13_1, arg14_1, arg15_1, arg16_1, arg17_1, arg18_1, arg19_1, arg20_1, arg21_1, arg22_1, arg23_1, arg24_1, arg25_1, arg26_1, arg27_1, arg28_1]


def benchmark_compiled_module(args, times=10, repeat=10):
    from torch._inductor.utils import print_performance
    fn = lambda: call(list(args))
    return print_performance(fn, times=times, repeat=repeat)


if __name__ == "__main__":
    from torch._inductor.wrapper_benchmark import compiled_module_main
    args = get_args()
    compiled_module_main('None', lambda times, repeat: benchmark_compiled_module(args, times=times, repeat=repeat))
