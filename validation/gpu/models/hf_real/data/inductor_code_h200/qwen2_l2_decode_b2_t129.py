# AOT ID: ['4_inference']
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


# kernel path: /tmp/torchinductor_root/cw/ccwdwgrilap66srhsorw6sw2324lugevsbwgeykb5x5myxlv7euc.py
# Topologically Sorted Source Nodes: [inputs_embeds, hidden_states, pow_1, variance, add_3, rsqrt, hidden_states_1, to_4, hidden_states_2], Original ATen: [aten.embedding, aten._to_copy, aten.pow, aten.mean, aten.add, aten.rsqrt, aten.mul]
# Source node to ATen node mapping:
#   add_3 => add_3
#   hidden_states => convert_element_type_4
#   hidden_states_1 => mul_2
#   hidden_states_2 => mul_3
#   inputs_embeds => embedding
#   pow_1 => pow_1
#   rsqrt => rsqrt
#   to_4 => convert_element_type_5
#   variance => mean
# Graph fragment:
#   %arg0_1 : Tensor "i64[2, 1][1, 1]cuda:0" = PlaceHolder[target=arg0_1]
#   %arg1_1 : Tensor "bf16[151936, 896][896, 1]cuda:0" = PlaceHolder[target=arg1_1]
#   %arg4_1 : Tensor "bf16[896][1]cuda:0" = PlaceHolder[target=arg4_1]
#   %buf0 : Tensor "f32[2, 1, 1][1, 2, 2]cuda:0" = PlaceHolder[target=buf0]
#   %embedding : Tensor "bf16[2, 1, 896][896, 896, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.embedding.default](args = (%arg1_1, %arg0_1), kwargs = {})
#   %convert_element_type_4 : Tensor "f32[2, 1, 896][896, 896, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%embedding, torch.float32), kwargs = {})
#   %pow_1 : Tensor "f32[2, 1, 896][896, 896, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%convert_element_type_4, 2), kwargs = {})
#   %mean : Tensor "f32[2, 1, 1][1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%pow_1, [-1], True), kwargs = {})
#   %add_3 : Tensor "f32[2, 1, 1][1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mean, 1e-06), kwargs = {})
#   %rsqrt : Tensor "f32[2, 1, 1][1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_3,), kwargs = {})
#   %mul_2 : Tensor "f32[2, 1, 896][896, 896, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_4, %rsqrt), kwargs = {})
#   %convert_element_type_5 : Tensor "bf16[2, 1, 896][896, 896, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_2, torch.bfloat16), kwargs = {})
#   %mul_3 : Tensor "bf16[2, 1, 896][896, 896, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.mul.Tensor](args = (%arg4_1, %convert_element_type_5), kwargs = {})
#   return %buf0,%mul_3
triton_red_fused__to_copy_add_embedding_mean_mul_pow_rsqrt_0 = async_compile.triton('triton_red_fused__to_copy_add_embedding_mean_mul_pow_rsqrt_0', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.reduction(
    size_hints={'x': 2, 'r0_': 1024},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*i64', 'in_ptr1': '*bf16', 'in_ptr2': '*bf16', 'out_ptr1': '*bf16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused__to_copy_add_embedding_mean_mul_pow_rsqrt_0', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 4, 'r0_': 8960}}
)
@triton.jit
def triton_red_fused__to_copy_add_embedding_mean_mul_pow_rsqrt_0(in_ptr0, in_ptr1, in_ptr2, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 2
    r0_numel = 896
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), xmask, eviction_policy='evict_last')
    _tmp10 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp1 = tl.full([1, 1], 151936, tl.int32)
        tmp2 = tmp0 + tmp1
        tmp3 = tmp0 < 0
        tmp4 = tl.where(tmp3, tmp2, tmp0)
        tl.device_assert(((0 <= tmp4) & (tmp4 < 151936)) | ~(xmask), "index out of bounds: 0 <= tmp4 < 151936")
        tmp6 = tl.load(in_ptr1 + (r0_1 + 896*tmp4), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp7 = tmp6.to(tl.float32)
        tmp8 = tmp7 * tmp7
        tmp9 = tl.broadcast_to(tmp8, [XBLOCK, R0_BLOCK])
        tmp11 = _tmp10 + tmp9
        _tmp10 = tl.where(r0_mask & xmask, tmp11, _tmp10)
    tmp10 = tl.sum(_tmp10, 1)[:, None]
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp12 = tl.load(in_ptr2 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp13 = tl.full([1, 1], 151936, tl.int32)
        tmp14 = tmp0 + tmp13
        tmp15 = tmp0 < 0
        tmp16 = tl.where(tmp15, tmp14, tmp0)
        tl.device_assert(((0 <= tmp16) & (tmp16 < 151936)) | ~(xmask), "index out of bounds: 0 <= tmp16 < 151936")
        tmp18 = tl.load(in_ptr1 + (r0_1 + 896*tmp16), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp19 = tmp18.to(tl.float32)
        tmp20 = tl.full([1, 1], 896.0, tl.float32)
        tmp21 = (tmp10 / tmp20)
        tmp22 = tl.full([1, 1], 1e-06, tl.float32)
        tmp23 = tmp21 + tmp22
        tmp24 = libdevice.rsqrt(tmp23)
        tmp25 = tmp19 * tmp24
        tmp26 = tmp25.to(tl.float32)
        tmp27 = tmp12 * tmp26
        tl.store(out_ptr1 + (r0_1 + 896*x0), tmp27, r0_mask & xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/z2/cz2u3zpn4mdp7krq4qpp3i3jobx3qi3bwuschh7ljdhqzijwbwgg.py
# Topologically Sorted Source Nodes: [getitem_4, float_1], Original ATen: [aten.unsqueeze, aten._to_copy]
# Source node to ATen node mapping:
#   float_1 => convert_element_type
#   getitem_4 => unsqueeze_7, unsqueeze_8
# Graph fragment:
#   %arg3_1 : Tensor "bf16[32][1]cuda:0" = PlaceHolder[target=arg3_1]
#   %unsqueeze_7 : Tensor "bf16[1, 32][32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%arg3_1, 0), kwargs = {})
#   %unsqueeze_8 : Tensor "bf16[1, 32, 1][32, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_7, 2), kwargs = {})
#   %convert_element_type : Tensor "f32[1, 32, 1][32, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%unsqueeze_8, torch.float32), kwargs = {})
#   return %convert_element_type
triton_poi_fused__to_copy_unsqueeze_1 = async_compile.triton('triton_poi_fused__to_copy_unsqueeze_1', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 32}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__to_copy_unsqueeze_1', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 320}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__to_copy_unsqueeze_1(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 32
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), xmask).to(tl.float32)
    tmp1 = tmp0.to(tl.float32)
    tl.store(out_ptr0 + (x0), tmp1, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/y4/cy4lhdexkvdhlitfw4q2hasnmvwcl7j2c32vzrbkysysoqtdlrxg.py
# Topologically Sorted Source Nodes: [getitem_4, float_1, expand_1, matmul, arange, position_ids, position_ids_1, getitem_5, position_ids_expanded], Original ATen: [aten.unsqueeze, aten._to_copy, aten.expand, aten.bmm, aten.arange, aten.add]
# Source node to ATen node mapping:
#   arange => iota
#   expand_1 => expand_1
#   float_1 => convert_element_type
#   getitem_4 => unsqueeze_7, unsqueeze_8
#   getitem_5 => unsqueeze_9
#   matmul => mm_default, squeeze_dim, squeeze_dim_1
#   position_ids => add
#   position_ids_1 => unsqueeze
#   position_ids_expanded => convert_element_type_1
# Graph fragment:
#   %expand_3 : Tensor "f32[1, 1, 1][1, 1, 1]cuda:0" = PlaceHolder[target=expand_3]
#   %unsqueeze_7 : Tensor "bf16[1, 32][32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%arg3_1, 0), kwargs = {})
#   %unsqueeze_8 : Tensor "bf16[1, 32, 1][32, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_7, 2), kwargs = {})
#   %convert_element_type : Tensor "f32[1, 32, 1][32, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%unsqueeze_8, torch.float32), kwargs = {})
#   %expand_1 : Tensor "f32[1, 32, 1][32, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%convert_element_type, [1, -1, 1]), kwargs = {})
#   %squeeze_dim : Tensor "f32[32, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.squeeze.dim](args = (%expand_2, 0), kwargs = {})
#   %iota : Tensor "i64[1][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (1,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %add : Tensor "i64[1][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota, 129), kwargs = {})
#   %unsqueeze : Tensor "i64[1, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add, 0), kwargs = {})
#   %unsqueeze_9 : Tensor "i64[1, 1, 1][1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze, 1), kwargs = {})
#   %convert_element_type_1 : Tensor "f32[1, 1, 1][1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%unsqueeze_9, torch.float32), kwargs = {})
#   %squeeze_dim_1 : Tensor "f32[1, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.squeeze.dim](args = (%expand_3, 0), kwargs = {})
#   %mm_default : Tensor "f32[32, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mm.default](args = (%squeeze_dim, %squeeze_dim_1), kwargs = {})
#   return %expand_3,%buf5
triton_poi_fused__to_copy_add_arange_bmm_expand_unsqueeze_2 = async_compile.triton('triton_poi_fused__to_copy_add_arange_bmm_expand_unsqueeze_2', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 1}, 
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'xnumel': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {'xnumel': 1}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__to_copy_add_arange_bmm_expand_unsqueeze_2', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 0, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__to_copy_add_arange_bmm_expand_unsqueeze_2(in_out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 1
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    tmp0 = tl.full([1], 129.0, tl.float32)
    tl.store(in_out_ptr0 + (tl.full([XBLOCK], 0, tl.int32)), tmp0, None)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/ug/cughsbhby6ylae565evlext4kej7duu45orcnuibvcb6jst5dy2b.py
# Topologically Sorted Source Nodes: [matmul, freqs, emb, cos, cos_1, cos_2, cos_3, sin, sin_1, sin_2, sin_3, linear_1, view_1, key_states, mul_6, x2_1, neg_1, x1_1, cat_2, mul_7, k_embed, keys], Original ATen: [aten.bmm, aten.transpose, aten.cat, aten.cos, aten.mul, aten._to_copy, aten.unsqueeze, aten.sin, aten.view, aten.slice, aten.neg, aten.add]
# Source node to ATen node mapping:
#   cat_2 => cat_1
#   cos => cos
#   cos_1 => mul
#   cos_2 => convert_element_type_2
#   cos_3 => unsqueeze_11
#   emb => clone, expand_4, unsqueeze_10, view_3
#   freqs => permute
#   k_embed => add_5
#   key_states => permute_4
#   keys => cat_2
#   linear_1 => view_8
#   matmul => unsqueeze_default
#   mul_6 => mul_6
#   mul_7 => mul_7
#   neg_1 => neg_1
#   sin => sin
#   sin_1 => mul_1
#   sin_2 => convert_element_type_3
#   sin_3 => unsqueeze_12
#   view_1 => view_9
#   x1_1 => slice_3
#   x2_1 => slice_4
# Graph fragment:
#   %arg2_1 : Tensor "bf16[2, 2, 129, 64][16512, 8256, 64, 1]cuda:0" = PlaceHolder[target=arg2_1]
#   %addmm_1 : Tensor "bf16[2, 128][128, 1]cuda:0" = PlaceHolder[target=addmm_1]
#   %mm_default : Tensor "f32[32, 1][1, 1]cuda:0" = PlaceHolder[target=mm_default]
#   %unsqueeze_default : Tensor "f32[1, 32, 1][32, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%mm_default, 0), kwargs = {})
#   %permute : Tensor "f32[1, 1, 32][32, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%unsqueeze_default, [0, 2, 1]), kwargs = {})
#   %unsqueeze_10 : Tensor "f32[1, 1, 1, 32][32, 1, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%permute, 2), kwargs = {})
#   %expand_4 : Tensor "f32[1, 1, 2, 32][32, 1, 0, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%unsqueeze_10, [1, 1, 2, 32]), kwargs = {})
#   %clone : Tensor "f32[1, 1, 2, 32][64, 64, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%expand_4,), kwargs = {memory_format: torch.contiguous_format})
#   %view_3 : Tensor "f32[1, 1, 64][64, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%clone, [1, 1, 64]), kwargs = {})
#   %cos : Tensor "f32[1, 1, 64][64, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cos.default](args = (%view_3,), kwargs = {})
#   %mul : Tensor "f32[1, 1, 64][64, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%cos, 1.0), kwargs = {})
#   %convert_element_type_2 : Tensor "bf16[1, 1, 64][64, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul, torch.bfloat16), kwargs = {})
#   %unsqueeze_11 : Tensor "bf16[1, 1, 1, 64][64, 64, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%convert_element_type_2, 1), kwargs = {})
#   %sin : Tensor "f32[1, 1, 64][64, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sin.default](args = (%view_3,), kwargs = {})
#   %mul_1 : Tensor "f32[1, 1, 64][64, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sin, 1.0), kwargs = {})
#   %convert_element_type_3 : Tensor "bf16[1, 1, 64][64, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_1, torch.bfloat16), kwargs = {})
#   %unsqueeze_12 : Tensor "bf16[1, 1, 1, 64][64, 64, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%convert_element_type_3, 1), kwargs = {})
#   %view_8 : Tensor "bf16[2, 1, 128][128, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_1, [2, 1, 128]), kwargs = {})
#   %view_9 : Tensor "bf16[2, 1, 2, 64][128, 128, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%view_8, [2, 1, -1, 64]), kwargs = {})
#   %permute_4 : Tensor "bf16[2, 2, 1, 64][128, 64, 128, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.permute.default](args = (%view_9, [0, 2, 1, 3]), kwargs = {})
#   %mul_6 : Tensor "bf16[2, 2, 1, 64][128, 64, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%permute_4, %unsqueeze_11), kwargs = {})
#   %slice_4 : Tensor "bf16[2, 2, 1, 32][128, 64, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%permute_4, 3, 32, 9223372036854775807), kwargs = {})
#   %neg_1 : Tensor "bf16[2, 2, 1, 32][64, 32, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%slice_4,), kwargs = {})
#   %slice_3 : Tensor "bf16[2, 2, 1, 32][128, 64, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%permute_4, 3, 0, 32), kwargs = {})
#   %cat_1 : Tensor "bf16[2, 2, 1, 64][128, 64, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%neg_1, %slice_3], -1), kwargs = {})
#   %mul_7 : Tensor "bf16[2, 2, 1, 64][128, 64, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%cat_1, %unsqueeze_12), kwargs = {})
#   %add_5 : Tensor "bf16[2, 2, 1, 64][128, 64, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_6, %mul_7), kwargs = {})
#   %cat_2 : Tensor "bf16[2, 2, 130, 64][16640, 8320, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%arg2_1, %add_5], -2), kwargs = {})
#   return %cat_2
triton_poi_fused__to_copy_add_bmm_cat_cos_mul_neg_sin_slice_transpose_unsqueeze_view_3 = async_compile.triton('triton_poi_fused__to_copy_add_bmm_cat_cos_mul_neg_sin_slice_transpose_unsqueeze_view_3', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 65536}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'in_ptr2': '*fp32', 'out_ptr0': '*bf16', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__to_copy_add_bmm_cat_cos_mul_neg_sin_slice_transpose_unsqueeze_view_3', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 5, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 200832}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__to_copy_add_bmm_cat_cos_mul_neg_sin_slice_transpose_unsqueeze_view_3(in_ptr0, in_ptr1, in_ptr2, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 33280
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x1 = ((xindex // 64) % 130)
    x0 = (xindex % 64)
    x2 = xindex // 8320
    x4 = xindex
    tmp0 = x1
    tmp1 = tl.full([1], 0, tl.int64)
    tmp2 = tmp0 >= tmp1
    tmp3 = tl.full([1], 129, tl.int64)
    tmp4 = tmp0 < tmp3
    tmp5 = tl.load(in_ptr0 + (x0 + 64*(x1) + 8256*x2), tmp4 & xmask, other=0.0).to(tl.float32)
    tmp6 = tmp0 >= tmp3
    tmp7 = tl.full([1], 130, tl.int64)
    tmp8 = tmp0 < tmp7
    tmp9 = tl.load(in_ptr1 + (x0 + 64*x2), tmp6 & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp10 = tl.load(in_ptr2 + ((x4 % 32)), tmp6 & xmask, eviction_policy='evict_last', other=0.0)
    tmp11 = tl_math.cos(tmp10)
    tmp12 = tl.full([1], 1.0, tl.float32)
    tmp13 = tmp11 * tmp12
    tmp14 = tmp13.to(tl.float32)
    tmp15 = tmp9 * tmp14
    tmp16 = x0
    tmp17 = tl.full([1], 0, tl.int64)
    tmp18 = tmp16 >= tmp17
    tmp19 = tl.full([1], 32, tl.int64)
    tmp20 = tmp16 < tmp19
    tmp21 = tmp20 & tmp6
    tmp22 = tl.load(in_ptr1 + (32 + 64*x2 + (x0)), tmp21 & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp23 = -tmp22
    tmp24 = tl.full(tmp23.shape, 0.0, tmp23.dtype)
    tmp25 = tl.where(tmp21, tmp23, tmp24)
    tmp26 = tmp16 >= tmp19
    tmp27 = tl.full([1], 64, tl.int64)
    tmp28 = tmp16 < tmp27
    tmp29 = tmp26 & tmp6
    tmp30 = tl.load(in_ptr1 + (64*x2 + ((-32) + x0)), tmp29 & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp31 = tl.where(tmp20, tmp25, tmp30)
    tmp32 = tl_math.sin(tmp10)
    tmp33 = tmp32 * tmp12
    tmp34 = tmp33.to(tl.float32)
    tmp35 = tmp31 * tmp34
    tmp36 = tmp15 + tmp35
    tmp37 = tl.full(tmp36.shape, 0.0, tmp36.dtype)
    tmp38 = tl.where(tmp6, tmp36, tmp37)
    tmp39 = tl.where(tmp4, tmp5, tmp38)
    tl.store(out_ptr0 + (x4), tmp39, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/i5/ci5puen7tajnhjl56sknbbt4upbgeq2aid4s7fm5m2qf6dnolkbl.py
# Topologically Sorted Source Nodes: [linear, view, query_states, matmul, freqs, emb, cos, cos_1, cos_2, cos_3, mul_4, x2, neg, x1, cat_1, sin, sin_1, sin_2, sin_3, mul_5, q_embed, getitem_10, hidden_states_3, key, linear_2, view_2, value_states, values, getitem_11, hidden_states_4, value, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, attention_mask, attention_mask_1, attn_output], Original ATen: [aten.view, aten.transpose, aten.bmm, aten.cat, aten.cos, aten.mul, aten._to_copy, aten.unsqueeze, aten.slice, aten.neg, aten.sin, aten.add, aten.expand, aten.clone, aten._unsafe_view, aten.arange, aten.le, aten.scalar_tensor, aten.where, aten._scaled_dot_product_cudnn_attention]
# Source node to ATen node mapping:
#   arange_3 => iota_3
#   arange_4 => iota_4
#   attention_mask => le
#   attention_mask_1 => expand
#   attn_output => _scaled_dot_product_cudnn_attention, full_default, full_default_1, where
#   cat_1 => cat
#   cos => cos
#   cos_1 => mul
#   cos_2 => convert_element_type_2
#   cos_3 => unsqueeze_11
#   emb => clone, expand_4, unsqueeze_10, view_3
#   freqs => permute
#   getitem_10 => unsqueeze_13
#   getitem_11 => unsqueeze_14
#   hidden_states_3 => expand_5
#   hidden_states_4 => expand_6
#   key => clone_2, view_13
#   kv_arange => add_2
#   kv_indices => unsqueeze_4, unsqueeze_5, unsqueeze_6
#   linear => view_5
#   linear_2 => view_11
#   matmul => unsqueeze_default
#   mul_4 => mul_4
#   mul_5 => mul_5
#   neg => neg
#   q_arange => add_1
#   q_embed => add_4
#   q_indices => unsqueeze_1, unsqueeze_2, unsqueeze_3
#   query_states => permute_2
#   sin => sin
#   sin_1 => mul_1
#   sin_2 => convert_element_type_3
#   sin_3 => unsqueeze_12
#   value => clone_3, view_14
#   value_states => permute_6
#   values => cat_3
#   view => view_6
#   view_2 => view_12
#   x1 => slice_1
#   x2 => slice_2
# Graph fragment:
#   %addmm : Tensor "bf16[2, 896][896, 1]cuda:0" = PlaceHolder[target=addmm]
#   %mm_default : Tensor "f32[32, 1][1, 1]cuda:0" = PlaceHolder[target=mm_default]
#   %view_5 : Tensor "bf16[2, 1, 896][896, 896, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm, [2, 1, 896]), kwargs = {})
#   %view_6 : Tensor "bf16[2, 1, 14, 64][896, 896, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%view_5, [2, 1, -1, 64]), kwargs = {})
#   %permute_2 : Tensor "bf16[2, 14, 1, 64][896, 64, 896, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.permute.default](args = (%view_6, [0, 2, 1, 3]), kwargs = {})
#   %unsqueeze_default : Tensor "f32[1, 32, 1][32, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%mm_default, 0), kwargs = {})
#   %permute : Tensor "f32[1, 1, 32][32, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%unsqueeze_default, [0, 2, 1]), kwargs = {})
#   %unsqueeze_10 : Tensor "f32[1, 1, 1, 32][32, 1, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%permute, 2), kwargs = {})
#   %expand_4 : Tensor "f32[1, 1, 2, 32][32, 1, 0, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%unsqueeze_10, [1, 1, 2, 32]), kwargs = {})
#   %clone : Tensor "f32[1, 1, 2, 32][64, 64, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%expand_4,), kwargs = {memory_format: torch.contiguous_format})
#   %view_3 : Tensor "f32[1, 1, 64][64, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%clone, [1, 1, 64]), kwargs = {})
#   %cos : Tensor "f32[1, 1, 64][64, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cos.default](args = (%view_3,), kwargs = {})
#   %mul : Tensor "f32[1, 1, 64][64, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%cos, 1.0), kwargs = {})
#   %convert_element_type_2 : Tensor "bf16[1, 1, 64][64, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul, torch.bfloat16), kwargs = {})
#   %unsqueeze_11 : Tensor "bf16[1, 1, 1, 64][64, 64, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%convert_element_type_2, 1), kwargs = {})
#   %mul_4 : Tensor "bf16[2, 14, 1, 64][896, 64, 896, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%permute_2, %unsqueeze_11), kwargs = {})
#   %slice_2 : Tensor "bf16[2, 14, 1, 32][896, 64, 896, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%permute_2, 3, 32, 9223372036854775807), kwargs = {})
#   %neg : Tensor "bf16[2, 14, 1, 32][448, 32, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%slice_2,), kwargs = {})
#   %slice_1 : Tensor "bf16[2, 14, 1, 32][896, 64, 896, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%permute_2, 3, 0, 32), kwargs = {})
#   %cat : Tensor "bf16[2, 14, 1, 64][896, 64, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%neg, %slice_1], -1), kwargs = {})
#   %sin : Tensor "f32[1, 1, 64][64, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sin.default](args = (%view_3,), kwargs = {})
#   %mul_1 : Tensor "f32[1, 1, 64][64, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sin, 1.0), kwargs = {})
#   %convert_element_type_3 : Tensor "bf16[1, 1, 64][64, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_1, torch.bfloat16), kwargs = {})
#   %unsqueeze_12 : Tensor "bf16[1, 1, 1, 64][64, 64, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%convert_element_type_3, 1), kwargs = {})
#   %mul_5 : Tensor "bf16[2, 14, 1, 64][896, 64, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%cat, %unsqueeze_12), kwargs = {})
#   %add_4 : Tensor "bf16[2, 14, 1, 64][896, 64, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_4, %mul_5), kwargs = {})
#   %unsqueeze_13 : Tensor "bf16[2, 2, 1, 130, 64][16640, 8320, 8320, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%cat_2, 2), kwargs = {})
#   %expand_5 : Tensor "bf16[2, 2, 7, 130, 64][16640, 8320, 0, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%unsqueeze_13, [2, 2, 7, 130, 64]), kwargs = {})
#   %clone_2 : Tensor "bf16[2, 2, 7, 130, 64][116480, 58240, 8320, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%expand_5,), kwargs = {memory_format: torch.contiguous_format})
#   %view_13 : Tensor "bf16[2, 14, 130, 64][116480, 8320, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%clone_2, [2, 14, 130, 64]), kwargs = {})
#   %view_11 : Tensor "bf16[2, 1, 128][128, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_2, [2, 1, 128]), kwargs = {})
#   %view_12 : Tensor "bf16[2, 1, 2, 64][128, 128, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%view_11, [2, 1, -1, 64]), kwargs = {})
#   %permute_6 : Tensor "bf16[2, 2, 1, 64][128, 64, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_12, [0, 2, 1, 3]), kwargs = {})
#   %cat_3 : Tensor "bf16[2, 2, 130, 64][16640, 8320, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%arg11_1, %permute_6], -2), kwargs = {})
#   %unsqueeze_14 : Tensor "bf16[2, 2, 1, 130, 64][16640, 8320, 8320, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%cat_3, 2), kwargs = {})
#   %expand_6 : Tensor "bf16[2, 2, 7, 130, 64][16640, 8320, 0, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%unsqueeze_14, [2, 2, 7, 130, 64]), kwargs = {})
#   %clone_3 : Tensor "bf16[2, 2, 7, 130, 64][116480, 58240, 8320, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%expand_6,), kwargs = {memory_format: torch.contiguous_format})
#   %view_14 : Tensor "bf16[2, 14, 130, 64][116480, 8320, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%clone_3, [2, 14, 130, 64]), kwargs = {})
#   %iota_4 : Tensor "i64[130][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (130,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %add_2 : Tensor "i64[130][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota_4, 0), kwargs = {})
#   %unsqueeze_4 : Tensor "i64[1, 130][130, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add_2, 0), kwargs = {})
#   %unsqueeze_5 : Tensor "i64[1, 1, 130][130, 130, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_4, 1), kwargs = {})
#   %unsqueeze_6 : Tensor "i64[1, 1, 1, 130][130, 130, 130, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_5, 2), kwargs = {})
#   %iota_3 : Tensor "i64[1][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (1,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %add_1 : Tensor "i64[1][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota_3, 129), kwargs = {})
#   %unsqueeze_1 : Tensor "i64[1, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add_1, 0), kwargs = {})
#   %unsqueeze_2 : Tensor "i64[1, 1, 1][1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_1, 1), kwargs = {})
#   %unsqueeze_3 : Tensor "i64[1, 1, 1, 1][1, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_2, 3), kwargs = {})
#   %le : Tensor "b8[1, 1, 1, 130][130, 130, 130, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.le.Tensor](args = (%unsqueeze_6, %unsqueeze_3), kwargs = {})
#   %expand : Tensor "b8[2, 1, 1, 130][0, 130, 130, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.expand.default](args = (%le, [2, -1, 1, 130]), kwargs = {})
#   %full_default_1 : Tensor "bf16[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], 0.0), kwargs = {dtype: torch.bfloat16, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %full_default : Tensor "bf16[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], -65536.0), kwargs = {dtype: torch.bfloat16, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %where : Tensor "bf16[2, 1, 1, 130][130, 130, 130, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.where.self](args = (%expand, %full_default_1, %full_default), kwargs = {})
#   %_scaled_dot_product_cudnn_attention : [num_users=1] = call_function[target=torch.ops.aten._scaled_dot_product_cudnn_attention.default](args = (%add_4, %view_13, %view_14, %where, False), kwargs = {scale: 0.125})
#   return %buf10
triton_poi_fused__scaled_dot_product_cudnn_attention__to_copy__unsafe_view_add_arange_bmm_cat_clone_cos_expand_le_mul_neg_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_4 = async_compile.triton('triton_poi_fused__scaled_dot_product_cudnn_attention__to_copy__unsafe_view_add_arange_bmm_cat_clone_cos_expand_le_mul_neg_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_4', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 2048}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*fp32', 'out_ptr0': '*bf16', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__scaled_dot_product_cudnn_attention__to_copy__unsafe_view_add_arange_bmm_cat_clone_cos_expand_le_mul_neg_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_4', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 4, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 18048}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__scaled_dot_product_cudnn_attention__to_copy__unsafe_view_add_arange_bmm_cat_clone_cos_expand_le_mul_neg_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_4(in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 1792
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x2 = xindex
    x0 = (xindex % 64)
    x1 = xindex // 64
    tmp0 = tl.load(in_ptr0 + (x2), xmask).to(tl.float32)
    tmp1 = tl.load(in_ptr1 + ((x2 % 32)), xmask, eviction_policy='evict_last')
    tmp2 = tl_math.cos(tmp1)
    tmp3 = tl.full([1], 1.0, tl.float32)
    tmp4 = tmp2 * tmp3
    tmp5 = tmp4.to(tl.float32)
    tmp6 = tmp0 * tmp5
    tmp7 = x0
    tmp8 = tl.full([1], 0, tl.int64)
    tmp9 = tmp7 >= tmp8
    tmp10 = tl.full([1], 32, tl.int64)
    tmp11 = tmp7 < tmp10
    tmp12 = tl.load(in_ptr0 + (32 + 64*x1 + (x0)), tmp11 & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp13 = -tmp12
    tmp14 = tl.full(tmp13.shape, 0.0, tmp13.dtype)
    tmp15 = tl.where(tmp11, tmp13, tmp14)
    tmp16 = tmp7 >= tmp10
    tmp17 = tl.full([1], 64, tl.int64)
    tmp18 = tmp7 < tmp17
    tmp19 = tl.load(in_ptr0 + (64*x1 + ((-32) + x0)), tmp16 & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp20 = tl.where(tmp11, tmp15, tmp19)
    tmp21 = tl_math.sin(tmp1)
    tmp22 = tmp21 * tmp3
    tmp23 = tmp22.to(tl.float32)
    tmp24 = tmp20 * tmp23
    tmp25 = tmp6 + tmp24
    tl.store(out_ptr0 + (x2), tmp25, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/dv/cdvkpv6sarhh4btx4tkbmipmaqs6rnly7z2ghezeq7eskcqxuz7q.py
# Topologically Sorted Source Nodes: [linear, view, query_states, matmul, freqs, emb, cos, cos_1, cos_2, cos_3, mul_4, x2, neg, x1, cat_1, sin, sin_1, sin_2, sin_3, mul_5, q_embed, getitem_10, hidden_states_3, key, linear_2, view_2, value_states, values, getitem_11, hidden_states_4, value, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, attention_mask, attention_mask_1, attn_output], Original ATen: [aten.view, aten.transpose, aten.bmm, aten.cat, aten.cos, aten.mul, aten._to_copy, aten.unsqueeze, aten.slice, aten.neg, aten.sin, aten.add, aten.expand, aten.clone, aten._unsafe_view, aten.arange, aten.le, aten.scalar_tensor, aten.where, aten._scaled_dot_product_cudnn_attention]
# Source node to ATen node mapping:
#   arange_3 => iota_3
#   arange_4 => iota_4
#   attention_mask => le
#   attention_mask_1 => expand
#   attn_output => _scaled_dot_product_cudnn_attention, full_default, full_default_1, where
#   cat_1 => cat
#   cos => cos
#   cos_1 => mul
#   cos_2 => convert_element_type_2
#   cos_3 => unsqueeze_11
#   emb => clone, expand_4, unsqueeze_10, view_3
#   freqs => permute
#   getitem_10 => unsqueeze_13
#   getitem_11 => unsqueeze_14
#   hidden_states_3 => expand_5
#   hidden_states_4 => expand_6
#   key => clone_2, view_13
#   kv_arange => add_2
#   kv_indices => unsqueeze_4, unsqueeze_5, unsqueeze_6
#   linear => view_5
#   linear_2 => view_11
#   matmul => unsqueeze_default
#   mul_4 => mul_4
#   mul_5 => mul_5
#   neg => neg
#   q_arange => add_1
#   q_embed => add_4
#   q_indices => unsqueeze_1, unsqueeze_2, unsqueeze_3
#   query_states => permute_2
#   sin => sin
#   sin_1 => mul_1
#   sin_2 => convert_element_type_3
#   sin_3 => unsqueeze_12
#   value => clone_3, view_14
#   value_states => permute_6
#   values => cat_3
#   view => view_6
#   view_2 => view_12
#   x1 => slice_1
#   x2 => slice_2
# Graph fragment:
#   %cat_2 : Tensor "bf16[2, 2, 130, 64][16640, 8320, 64, 1]cuda:0" = PlaceHolder[target=cat_2]
#   %view_5 : Tensor "bf16[2, 1, 896][896, 896, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm, [2, 1, 896]), kwargs = {})
#   %view_6 : Tensor "bf16[2, 1, 14, 64][896, 896, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%view_5, [2, 1, -1, 64]), kwargs = {})
#   %permute_2 : Tensor "bf16[2, 14, 1, 64][896, 64, 896, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.permute.default](args = (%view_6, [0, 2, 1, 3]), kwargs = {})
#   %unsqueeze_default : Tensor "f32[1, 32, 1][32, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%mm_default, 0), kwargs = {})
#   %permute : Tensor "f32[1, 1, 32][32, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%unsqueeze_default, [0, 2, 1]), kwargs = {})
#   %unsqueeze_10 : Tensor "f32[1, 1, 1, 32][32, 1, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%permute, 2), kwargs = {})
#   %expand_4 : Tensor "f32[1, 1, 2, 32][32, 1, 0, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%unsqueeze_10, [1, 1, 2, 32]), kwargs = {})
#   %clone : Tensor "f32[1, 1, 2, 32][64, 64, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%expand_4,), kwargs = {memory_format: torch.contiguous_format})
#   %view_3 : Tensor "f32[1, 1, 64][64, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%clone, [1, 1, 64]), kwargs = {})
#   %cos : Tensor "f32[1, 1, 64][64, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cos.default](args = (%view_3,), kwargs = {})
#   %mul : Tensor "f32[1, 1, 64][64, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%cos, 1.0), kwargs = {})
#   %convert_element_type_2 : Tensor "bf16[1, 1, 64][64, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul, torch.bfloat16), kwargs = {})
#   %unsqueeze_11 : Tensor "bf16[1, 1, 1, 64][64, 64, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%convert_element_type_2, 1), kwargs = {})
#   %mul_4 : Tensor "bf16[2, 14, 1, 64][896, 64, 896, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%permute_2, %unsqueeze_11), kwargs = {})
#   %slice_2 : Tensor "bf16[2, 14, 1, 32][896, 64, 896, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%permute_2, 3, 32, 9223372036854775807), kwargs = {})
#   %neg : Tensor "bf16[2, 14, 1, 32][448, 32, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%slice_2,), kwargs = {})
#   %slice_1 : Tensor "bf16[2, 14, 1, 32][896, 64, 896, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%permute_2, 3, 0, 32), kwargs = {})
#   %cat : Tensor "bf16[2, 14, 1, 64][896, 64, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%neg, %slice_1], -1), kwargs = {})
#   %sin : Tensor "f32[1, 1, 64][64, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sin.default](args = (%view_3,), kwargs = {})
#   %mul_1 : Tensor "f32[1, 1, 64][64, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sin, 1.0), kwargs = {})
#   %convert_element_type_3 : Tensor "bf16[1, 1, 64][64, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_1, torch.bfloat16), kwargs = {})
#   %unsqueeze_12 : Tensor "bf16[1, 1, 1, 64][64, 64, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%convert_element_type_3, 1), kwargs = {})
#   %mul_5 : Tensor "bf16[2, 14, 1, 64][896, 64, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%cat, %unsqueeze_12), kwargs = {})
#   %add_4 : Tensor "bf16[2, 14, 1, 64][896, 64, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_4, %mul_5), kwargs = {})
#   %unsqueeze_13 : Tensor "bf16[2, 2, 1, 130, 64][16640, 8320, 8320, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%cat_2, 2), kwargs = {})
#   %expand_5 : Tensor "bf16[2, 2, 7, 130, 64][16640, 8320, 0, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%unsqueeze_13, [2, 2, 7, 130, 64]), kwargs = {})
#   %clone_2 : Tensor "bf16[2, 2, 7, 130, 64][116480, 58240, 8320, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%expand_5,), kwargs = {memory_format: torch.contiguous_format})
#   %view_13 : Tensor "bf16[2, 14, 130, 64][116480, 8320, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%clone_2, [2, 14, 130, 64]), kwargs = {})
#   %view_11 : Tensor "bf16[2, 1, 128][128, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_2, [2, 1, 128]), kwargs = {})
#   %view_12 : Tensor "bf16[2, 1, 2, 64][128, 128, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%view_11, [2, 1, -1, 64]), kwargs = {})
#   %permute_6 : Tensor "bf16[2, 2, 1, 64][128, 64, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_12, [0, 2, 1, 3]), kwargs = {})
#   %cat_3 : Tensor "bf16[2, 2, 130, 64][16640, 8320, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%arg11_1, %permute_6], -2), kwargs = {})
#   %unsqueeze_14 : Tensor "bf16[2, 2, 1, 130, 64][16640, 8320, 8320, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%cat_3, 2), kwargs = {})
#   %expand_6 : Tensor "bf16[2, 2, 7, 130, 64][16640, 8320, 0, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%unsqueeze_14, [2, 2, 7, 130, 64]), kwargs = {})
#   %clone_3 : Tensor "bf16[2, 2, 7, 130, 64][116480, 58240, 8320, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%expand_6,), kwargs = {memory_format: torch.contiguous_format})
#   %view_14 : Tensor "bf16[2, 14, 130, 64][116480, 8320, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%clone_3, [2, 14, 130, 64]), kwargs = {})
#   %iota_4 : Tensor "i64[130][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (130,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %add_2 : Tensor "i64[130][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota_4, 0), kwargs = {})
#   %unsqueeze_4 : Tensor "i64[1, 130][130, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add_2, 0), kwargs = {})
#   %unsqueeze_5 : Tensor "i64[1, 1, 130][130, 130, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_4, 1), kwargs = {})
#   %unsqueeze_6 : Tensor "i64[1, 1, 1, 130][130, 130, 130, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_5, 2), kwargs = {})
#   %iota_3 : Tensor "i64[1][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (1,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %add_1 : Tensor "i64[1][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota_3, 129), kwargs = {})
#   %unsqueeze_1 : Tensor "i64[1, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add_1, 0), kwargs = {})
#   %unsqueeze_2 : Tensor "i64[1, 1, 1][1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_1, 1), kwargs = {})
#   %unsqueeze_3 : Tensor "i64[1, 1, 1, 1][1, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_2, 3), kwargs = {})
#   %le : Tensor "b8[1, 1, 1, 130][130, 130, 130, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.le.Tensor](args = (%unsqueeze_6, %unsqueeze_3), kwargs = {})
#   %expand : Tensor "b8[2, 1, 1, 130][0, 130, 130, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.expand.default](args = (%le, [2, -1, 1, 130]), kwargs = {})
#   %full_default_1 : Tensor "bf16[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], 0.0), kwargs = {dtype: torch.bfloat16, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %full_default : Tensor "bf16[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], -65536.0), kwargs = {dtype: torch.bfloat16, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %where : Tensor "bf16[2, 1, 1, 130][130, 130, 130, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.where.self](args = (%expand, %full_default_1, %full_default), kwargs = {})
#   %_scaled_dot_product_cudnn_attention : [num_users=1] = call_function[target=torch.ops.aten._scaled_dot_product_cudnn_attention.default](args = (%add_4, %view_13, %view_14, %where, False), kwargs = {scale: 0.125})
#   return %buf11
triton_poi_fused__scaled_dot_product_cudnn_attention__to_copy__unsafe_view_add_arange_bmm_cat_clone_cos_expand_le_mul_neg_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_5 = async_compile.triton('triton_poi_fused__scaled_dot_product_cudnn_attention__to_copy__unsafe_view_add_arange_bmm_cat_clone_cos_expand_le_mul_neg_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_5', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 262144}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'out_ptr0': '*bf16', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__scaled_dot_product_cudnn_attention__to_copy__unsafe_view_add_arange_bmm_cat_clone_cos_expand_le_mul_neg_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_5', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 998400}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__scaled_dot_product_cudnn_attention__to_copy__unsafe_view_add_arange_bmm_cat_clone_cos_expand_le_mul_neg_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_5(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 232960
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = (xindex % 8320)
    x1 = ((xindex // 8320) % 14)
    x2 = xindex // 116480
    x3 = xindex
    tmp0 = tl.load(in_ptr0 + (x0 + 8320*(x1 // 7) + 16640*x2), xmask).to(tl.float32)
    tl.store(out_ptr0 + (x3), tmp0, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/ku/ckuctwat6nnx3ucwpdk3l747joyebrpbelehkw67pdq7czoouhbo.py
# Topologically Sorted Source Nodes: [linear, view, query_states, matmul, freqs, emb, cos, cos_1, cos_2, cos_3, mul_4, x2, neg, x1, cat_1, sin, sin_1, sin_2, sin_3, mul_5, q_embed, getitem_10, hidden_states_3, key, linear_2, view_2, value_states, values, getitem_11, hidden_states_4, value, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, attention_mask, attention_mask_1, attn_output], Original ATen: [aten.view, aten.transpose, aten.bmm, aten.cat, aten.cos, aten.mul, aten._to_copy, aten.unsqueeze, aten.slice, aten.neg, aten.sin, aten.add, aten.expand, aten.clone, aten._unsafe_view, aten.arange, aten.le, aten.scalar_tensor, aten.where, aten._scaled_dot_product_cudnn_attention]
# Source node to ATen node mapping:
#   arange_3 => iota_3
#   arange_4 => iota_4
#   attention_mask => le
#   attention_mask_1 => expand
#   attn_output => _scaled_dot_product_cudnn_attention, full_default, full_default_1, where
#   cat_1 => cat
#   cos => cos
#   cos_1 => mul
#   cos_2 => convert_element_type_2
#   cos_3 => unsqueeze_11
#   emb => clone, expand_4, unsqueeze_10, view_3
#   freqs => permute
#   getitem_10 => unsqueeze_13
#   getitem_11 => unsqueeze_14
#   hidden_states_3 => expand_5
#   hidden_states_4 => expand_6
#   key => clone_2, view_13
#   kv_arange => add_2
#   kv_indices => unsqueeze_4, unsqueeze_5, unsqueeze_6
#   linear => view_5
#   linear_2 => view_11
#   matmul => unsqueeze_default
#   mul_4 => mul_4
#   mul_5 => mul_5
#   neg => neg
#   q_arange => add_1
#   q_embed => add_4
#   q_indices => unsqueeze_1, unsqueeze_2, unsqueeze_3
#   query_states => permute_2
#   sin => sin
#   sin_1 => mul_1
#   sin_2 => convert_element_type_3
#   sin_3 => unsqueeze_12
#   value => clone_3, view_14
#   value_states => permute_6
#   values => cat_3
#   view => view_6
#   view_2 => view_12
#   x1 => slice_1
#   x2 => slice_2
# Graph fragment:
#   %arg11_1 : Tensor "bf16[2, 2, 129, 64][16512, 8256, 64, 1]cuda:0" = PlaceHolder[target=arg11_1]
#   %addmm_2 : Tensor "bf16[2, 128][128, 1]cuda:0" = PlaceHolder[target=addmm_2]
#   %view_5 : Tensor "bf16[2, 1, 896][896, 896, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm, [2, 1, 896]), kwargs = {})
#   %view_6 : Tensor "bf16[2, 1, 14, 64][896, 896, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%view_5, [2, 1, -1, 64]), kwargs = {})
#   %permute_2 : Tensor "bf16[2, 14, 1, 64][896, 64, 896, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.permute.default](args = (%view_6, [0, 2, 1, 3]), kwargs = {})
#   %unsqueeze_default : Tensor "f32[1, 32, 1][32, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%mm_default, 0), kwargs = {})
#   %permute : Tensor "f32[1, 1, 32][32, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%unsqueeze_default, [0, 2, 1]), kwargs = {})
#   %unsqueeze_10 : Tensor "f32[1, 1, 1, 32][32, 1, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%permute, 2), kwargs = {})
#   %expand_4 : Tensor "f32[1, 1, 2, 32][32, 1, 0, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%unsqueeze_10, [1, 1, 2, 32]), kwargs = {})
#   %clone : Tensor "f32[1, 1, 2, 32][64, 64, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%expand_4,), kwargs = {memory_format: torch.contiguous_format})
#   %view_3 : Tensor "f32[1, 1, 64][64, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%clone, [1, 1, 64]), kwargs = {})
#   %cos : Tensor "f32[1, 1, 64][64, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cos.default](args = (%view_3,), kwargs = {})
#   %mul : Tensor "f32[1, 1, 64][64, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%cos, 1.0), kwargs = {})
#   %convert_element_type_2 : Tensor "bf16[1, 1, 64][64, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul, torch.bfloat16), kwargs = {})
#   %unsqueeze_11 : Tensor "bf16[1, 1, 1, 64][64, 64, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%convert_element_type_2, 1), kwargs = {})
#   %mul_4 : Tensor "bf16[2, 14, 1, 64][896, 64, 896, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%permute_2, %unsqueeze_11), kwargs = {})
#   %slice_2 : Tensor "bf16[2, 14, 1, 32][896, 64, 896, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%permute_2, 3, 32, 9223372036854775807), kwargs = {})
#   %neg : Tensor "bf16[2, 14, 1, 32][448, 32, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%slice_2,), kwargs = {})
#   %slice_1 : Tensor "bf16[2, 14, 1, 32][896, 64, 896, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%permute_2, 3, 0, 32), kwargs = {})
#   %cat : Tensor "bf16[2, 14, 1, 64][896, 64, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%neg, %slice_1], -1), kwargs = {})
#   %sin : Tensor "f32[1, 1, 64][64, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sin.default](args = (%view_3,), kwargs = {})
#   %mul_1 : Tensor "f32[1, 1, 64][64, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sin, 1.0), kwargs = {})
#   %convert_element_type_3 : Tensor "bf16[1, 1, 64][64, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_1, torch.bfloat16), kwargs = {})
#   %unsqueeze_12 : Tensor "bf16[1, 1, 1, 64][64, 64, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%convert_element_type_3, 1), kwargs = {})
#   %mul_5 : Tensor "bf16[2, 14, 1, 64][896, 64, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%cat, %unsqueeze_12), kwargs = {})
#   %add_4 : Tensor "bf16[2, 14, 1, 64][896, 64, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_4, %mul_5), kwargs = {})
#   %unsqueeze_13 : Tensor "bf16[2, 2, 1, 130, 64][16640, 8320, 8320, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%cat_2, 2), kwargs = {})
#   %expand_5 : Tensor "bf16[2, 2, 7, 130, 64][16640, 8320, 0, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%unsqueeze_13, [2, 2, 7, 130, 64]), kwargs = {})
#   %clone_2 : Tensor "bf16[2, 2, 7, 130, 64][116480, 58240, 8320, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%expand_5,), kwargs = {memory_format: torch.contiguous_format})
#   %view_13 : Tensor "bf16[2, 14, 130, 64][116480, 8320, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%clone_2, [2, 14, 130, 64]), kwargs = {})
#   %view_11 : Tensor "bf16[2, 1, 128][128, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_2, [2, 1, 128]), kwargs = {})
#   %view_12 : Tensor "bf16[2, 1, 2, 64][128, 128, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%view_11, [2, 1, -1, 64]), kwargs = {})
#   %permute_6 : Tensor "bf16[2, 2, 1, 64][128, 64, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_12, [0, 2, 1, 3]), kwargs = {})
#   %cat_3 : Tensor "bf16[2, 2, 130, 64][16640, 8320, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%arg11_1, %permute_6], -2), kwargs = {})
#   %unsqueeze_14 : Tensor "bf16[2, 2, 1, 130, 64][16640, 8320, 8320, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%cat_3, 2), kwargs = {})
#   %expand_6 : Tensor "bf16[2, 2, 7, 130, 64][16640, 8320, 0, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%unsqueeze_14, [2, 2, 7, 130, 64]), kwargs = {})
#   %clone_3 : Tensor "bf16[2, 2, 7, 130, 64][116480, 58240, 8320, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%expand_6,), kwargs = {memory_format: torch.contiguous_format})
#   %view_14 : Tensor "bf16[2, 14, 130, 64][116480, 8320, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%clone_3, [2, 14, 130, 64]), kwargs = {})
#   %iota_4 : Tensor "i64[130][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (130,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %add_2 : Tensor "i64[130][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota_4, 0), kwargs = {})
#   %unsqueeze_4 : Tensor "i64[1, 130][130, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add_2, 0), kwargs = {})
#   %unsqueeze_5 : Tensor "i64[1, 1, 130][130, 130, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_4, 1), kwargs = {})
#   %unsqueeze_6 : Tensor "i64[1, 1, 1, 130][130, 130, 130, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_5, 2), kwargs = {})
#   %iota_3 : Tensor "i64[1][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (1,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %add_1 : Tensor "i64[1][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota_3, 129), kwargs = {})
#   %unsqueeze_1 : Tensor "i64[1, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add_1, 0), kwargs = {})
#   %unsqueeze_2 : Tensor "i64[1, 1, 1][1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_1, 1), kwargs = {})
#   %unsqueeze_3 : Tensor "i64[1, 1, 1, 1][1, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_2, 3), kwargs = {})
#   %le : Tensor "b8[1, 1, 1, 130][130, 130, 130, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.le.Tensor](args = (%unsqueeze_6, %unsqueeze_3), kwargs = {})
#   %expand : Tensor "b8[2, 1, 1, 130][0, 130, 130, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.expand.default](args = (%le, [2, -1, 1, 130]), kwargs = {})
#   %full_default_1 : Tensor "bf16[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], 0.0), kwargs = {dtype: torch.bfloat16, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %full_default : Tensor "bf16[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], -65536.0), kwargs = {dtype: torch.bfloat16, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %where : Tensor "bf16[2, 1, 1, 130][130, 130, 130, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.where.self](args = (%expand, %full_default_1, %full_default), kwargs = {})
#   %_scaled_dot_product_cudnn_attention : [num_users=1] = call_function[target=torch.ops.aten._scaled_dot_product_cudnn_attention.default](args = (%add_4, %view_13, %view_14, %where, False), kwargs = {scale: 0.125})
#   return %buf12
triton_poi_fused__scaled_dot_product_cudnn_attention__to_copy__unsafe_view_add_arange_bmm_cat_clone_cos_expand_le_mul_neg_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_6 = async_compile.triton('triton_poi_fused__scaled_dot_product_cudnn_attention__to_copy__unsafe_view_add_arange_bmm_cat_clone_cos_expand_le_mul_neg_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_6', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 262144}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'out_ptr0': '*bf16', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__scaled_dot_product_cudnn_attention__to_copy__unsafe_view_add_arange_bmm_cat_clone_cos_expand_le_mul_neg_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_6', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 998400}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__scaled_dot_product_cudnn_attention__to_copy__unsafe_view_add_arange_bmm_cat_clone_cos_expand_le_mul_neg_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_6(in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 232960
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x1 = ((xindex // 64) % 130)
    x0 = (xindex % 64)
    x2 = ((xindex // 8320) % 14)
    x3 = xindex // 116480
    x4 = xindex
    tmp0 = x1
    tmp1 = tl.full([1], 0, tl.int64)
    tmp2 = tmp0 >= tmp1
    tmp3 = tl.full([1], 129, tl.int64)
    tmp4 = tmp0 < tmp3
    tmp5 = tl.load(in_ptr0 + (x0 + 64*(x1) + 8256*(x2 // 7) + 16512*x3), tmp4 & xmask, other=0.0).to(tl.float32)
    tmp6 = tmp0 >= tmp3
    tmp7 = tl.full([1], 130, tl.int64)
    tmp8 = tmp0 < tmp7
    tmp9 = tl.load(in_ptr1 + (x0 + 64*(x2 // 7) + 128*x3), tmp6 & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp10 = tl.where(tmp4, tmp5, tmp9)
    tl.store(out_ptr0 + (x4), tmp10, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/vy/cvy6pqgxro2cahmd3gfae4ntpglc5ftbof6zwdnkiehklhnlbxki.py
# Topologically Sorted Source Nodes: [linear, view, query_states, matmul, freqs, emb, cos, cos_1, cos_2, cos_3, mul_4, x2, neg, x1, cat_1, sin, sin_1, sin_2, sin_3, mul_5, q_embed, getitem_10, hidden_states_3, key, linear_2, view_2, value_states, values, getitem_11, hidden_states_4, value, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, attention_mask, attention_mask_1, attn_output], Original ATen: [aten.view, aten.transpose, aten.bmm, aten.cat, aten.cos, aten.mul, aten._to_copy, aten.unsqueeze, aten.slice, aten.neg, aten.sin, aten.add, aten.expand, aten.clone, aten._unsafe_view, aten.arange, aten.le, aten.scalar_tensor, aten.where, aten._scaled_dot_product_cudnn_attention]
# Source node to ATen node mapping:
#   arange_3 => iota_3
#   arange_4 => iota_4
#   attention_mask => le
#   attention_mask_1 => expand
#   attn_output => _scaled_dot_product_cudnn_attention, full_default, full_default_1, where
#   cat_1 => cat
#   cos => cos
#   cos_1 => mul
#   cos_2 => convert_element_type_2
#   cos_3 => unsqueeze_11
#   emb => clone, expand_4, unsqueeze_10, view_3
#   freqs => permute
#   getitem_10 => unsqueeze_13
#   getitem_11 => unsqueeze_14
#   hidden_states_3 => expand_5
#   hidden_states_4 => expand_6
#   key => clone_2, view_13
#   kv_arange => add_2
#   kv_indices => unsqueeze_4, unsqueeze_5, unsqueeze_6
#   linear => view_5
#   linear_2 => view_11
#   matmul => unsqueeze_default
#   mul_4 => mul_4
#   mul_5 => mul_5
#   neg => neg
#   q_arange => add_1
#   q_embed => add_4
#   q_indices => unsqueeze_1, unsqueeze_2, unsqueeze_3
#   query_states => permute_2
#   sin => sin
#   sin_1 => mul_1
#   sin_2 => convert_element_type_3
#   sin_3 => unsqueeze_12
#   value => clone_3, view_14
#   value_states => permute_6
#   values => cat_3
#   view => view_6
#   view_2 => view_12
#   x1 => slice_1
#   x2 => slice_2
# Graph fragment:
#   %view_5 : Tensor "bf16[2, 1, 896][896, 896, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm, [2, 1, 896]), kwargs = {})
#   %view_6 : Tensor "bf16[2, 1, 14, 64][896, 896, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%view_5, [2, 1, -1, 64]), kwargs = {})
#   %permute_2 : Tensor "bf16[2, 14, 1, 64][896, 64, 896, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.permute.default](args = (%view_6, [0, 2, 1, 3]), kwargs = {})
#   %unsqueeze_default : Tensor "f32[1, 32, 1][32, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%mm_default, 0), kwargs = {})
#   %permute : Tensor "f32[1, 1, 32][32, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%unsqueeze_default, [0, 2, 1]), kwargs = {})
#   %unsqueeze_10 : Tensor "f32[1, 1, 1, 32][32, 1, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%permute, 2), kwargs = {})
#   %expand_4 : Tensor "f32[1, 1, 2, 32][32, 1, 0, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%unsqueeze_10, [1, 1, 2, 32]), kwargs = {})
#   %clone : Tensor "f32[1, 1, 2, 32][64, 64, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%expand_4,), kwargs = {memory_format: torch.contiguous_format})
#   %view_3 : Tensor "f32[1, 1, 64][64, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%clone, [1, 1, 64]), kwargs = {})
#   %cos : Tensor "f32[1, 1, 64][64, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cos.default](args = (%view_3,), kwargs = {})
#   %mul : Tensor "f32[1, 1, 64][64, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%cos, 1.0), kwargs = {})
#   %convert_element_type_2 : Tensor "bf16[1, 1, 64][64, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul, torch.bfloat16), kwargs = {})
#   %unsqueeze_11 : Tensor "bf16[1, 1, 1, 64][64, 64, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%convert_element_type_2, 1), kwargs = {})
#   %mul_4 : Tensor "bf16[2, 14, 1, 64][896, 64, 896, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%permute_2, %unsqueeze_11), kwargs = {})
#   %slice_2 : Tensor "bf16[2, 14, 1, 32][896, 64, 896, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%permute_2, 3, 32, 9223372036854775807), kwargs = {})
#   %neg : Tensor "bf16[2, 14, 1, 32][448, 32, 32, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%slice_2,), kwargs = {})
#   %slice_1 : Tensor "bf16[2, 14, 1, 32][896, 64, 896, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%permute_2, 3, 0, 32), kwargs = {})
#   %cat : Tensor "bf16[2, 14, 1, 64][896, 64, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%neg, %slice_1], -1), kwargs = {})
#   %sin : Tensor "f32[1, 1, 64][64, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sin.default](args = (%view_3,), kwargs = {})
#   %mul_1 : Tensor "f32[1, 1, 64][64, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sin, 1.0), kwargs = {})
#   %convert_element_type_3 : Tensor "bf16[1, 1, 64][64, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_1, torch.bfloat16), kwargs = {})
#   %unsqueeze_12 : Tensor "bf16[1, 1, 1, 64][64, 64, 64, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%convert_element_type_3, 1), kwargs = {})
#   %mul_5 : Tensor "bf16[2, 14, 1, 64][896, 64, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%cat, %unsqueeze_12), kwargs = {})
#   %add_4 : Tensor "bf16[2, 14, 1, 64][896, 64, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_4, %mul_5), kwargs = {})
#   %unsqueeze_13 : Tensor "bf16[2, 2, 1, 130, 64][16640, 8320, 8320, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%cat_2, 2), kwargs = {})
#   %expand_5 : Tensor "bf16[2, 2, 7, 130, 64][16640, 8320, 0, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%unsqueeze_13, [2, 2, 7, 130, 64]), kwargs = {})
#   %clone_2 : Tensor "bf16[2, 2, 7, 130, 64][116480, 58240, 8320, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%expand_5,), kwargs = {memory_format: torch.contiguous_format})
#   %view_13 : Tensor "bf16[2, 14, 130, 64][116480, 8320, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%clone_2, [2, 14, 130, 64]), kwargs = {})
#   %view_11 : Tensor "bf16[2, 1, 128][128, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%addmm_2, [2, 1, 128]), kwargs = {})
#   %view_12 : Tensor "bf16[2, 1, 2, 64][128, 128, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%view_11, [2, 1, -1, 64]), kwargs = {})
#   %permute_6 : Tensor "bf16[2, 2, 1, 64][128, 64, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%view_12, [0, 2, 1, 3]), kwargs = {})
#   %cat_3 : Tensor "bf16[2, 2, 130, 64][16640, 8320, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%arg11_1, %permute_6], -2), kwargs = {})
#   %unsqueeze_14 : Tensor "bf16[2, 2, 1, 130, 64][16640, 8320, 8320, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%cat_3, 2), kwargs = {})
#   %expand_6 : Tensor "bf16[2, 2, 7, 130, 64][16640, 8320, 0, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%unsqueeze_14, [2, 2, 7, 130, 64]), kwargs = {})
#   %clone_3 : Tensor "bf16[2, 2, 7, 130, 64][116480, 58240, 8320, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%expand_6,), kwargs = {memory_format: torch.contiguous_format})
#   %view_14 : Tensor "bf16[2, 14, 130, 64][116480, 8320, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%clone_3, [2, 14, 130, 64]), kwargs = {})
#   %iota_4 : Tensor "i64[130][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (130,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %add_2 : Tensor "i64[130][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota_4, 0), kwargs = {})
#   %unsqueeze_4 : Tensor "i64[1, 130][130, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add_2, 0), kwargs = {})
#   %unsqueeze_5 : Tensor "i64[1, 1, 130][130, 130, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_4, 1), kwargs = {})
#   %unsqueeze_6 : Tensor "i64[1, 1, 1, 130][130, 130, 130, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_5, 2), kwargs = {})
#   %iota_3 : Tensor "i64[1][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.iota.default](args = (1,), kwargs = {start: 0, step: 1, dtype: torch.int64, device: cuda:0, requires_grad: False})
#   %add_1 : Tensor "i64[1][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%iota_3, 129), kwargs = {})
#   %unsqueeze_1 : Tensor "i64[1, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add_1, 0), kwargs = {})
#   %unsqueeze_2 : Tensor "i64[1, 1, 1][1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_1, 1), kwargs = {})
#   %unsqueeze_3 : Tensor "i64[1, 1, 1, 1][1, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_2, 3), kwargs = {})
#   %le : Tensor "b8[1, 1, 1, 130][130, 130, 130, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.le.Tensor](args = (%unsqueeze_6, %unsqueeze_3), kwargs = {})
#   %expand : Tensor "b8[2, 1, 1, 130][0, 130, 130, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.expand.default](args = (%le, [2, -1, 1, 130]), kwargs = {})
#   %full_default_1 : Tensor "bf16[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], 0.0), kwargs = {dtype: torch.bfloat16, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %full_default : Tensor "bf16[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], -65536.0), kwargs = {dtype: torch.bfloat16, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %where : Tensor "bf16[2, 1, 1, 130][130, 130, 130, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.where.self](args = (%expand, %full_default_1, %full_default), kwargs = {})
#   %_scaled_dot_product_cudnn_attention : [num_users=1] = call_function[target=torch.ops.aten._scaled_dot_product_cudnn_attention.default](args = (%add_4, %view_13, %view_14, %where, False), kwargs = {scale: 0.125})
#   return %buf13
triton_poi_fused__scaled_dot_product_cudnn_attention__to_copy__unsafe_view_add_arange_bmm_cat_clone_cos_expand_le_mul_neg_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_7 = async_compile.triton('triton_poi_fused__scaled_dot_product_cudnn_attention__to_copy__unsafe_view_add_arange_bmm_cat_clone_cos_expand_le_mul_neg_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_7', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 512}, 
    filename=__file__,
    triton_meta={'signature': {'out_ptr0': '*bf16', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__scaled_dot_product_cudnn_attention__to_copy__unsafe_view_add_arange_bmm_cat_clone_cos_expand_le_mul_neg_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_7', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 0, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 1040}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__scaled_dot_product_cudnn_attention__to_copy__unsafe_view_add_arange_bmm_cat_clone_cos_expand_le_mul_neg_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_7(out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 260
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = (xindex % 130)
    x2 = xindex
    tmp0 = x0
    tmp1 = tl.full([1], 129, tl.int64)
    tmp2 = tmp0 <= tmp1
    tmp3 = tl.full([1], 0.0, tl.float32)
    tmp4 = tl.full([1], -65536.0, tl.float32)
    tmp5 = tl.where(tmp2, tmp3, tmp4)
    tl.store(out_ptr0 + (x2), tmp5, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/kc/ckch6wqbfftuu3fhbiurx63w5tznihljg6fghfiqt24la4zcpkvl.py
# Topologically Sorted Source Nodes: [inputs_embeds, attn_output_3, hidden_states_5, hidden_states_6, pow_2, variance_1, add_7, rsqrt_1, hidden_states_7, to_6, hidden_states_8], Original ATen: [aten.embedding, aten._unsafe_view, aten.add, aten._to_copy, aten.pow, aten.mean, aten.rsqrt, aten.mul]
# Source node to ATen node mapping:
#   add_7 => add_7
#   attn_output_3 => view_17
#   hidden_states_5 => add_6
#   hidden_states_6 => convert_element_type_17
#   hidden_states_7 => mul_8
#   hidden_states_8 => mul_9
#   inputs_embeds => embedding
#   pow_2 => pow_2
#   rsqrt_1 => rsqrt_1
#   to_6 => convert_element_type_18
#   variance_1 => mean_1
# Graph fragment:
#   %arg0_1 : Tensor "i64[2, 1][1, 1]cuda:0" = PlaceHolder[target=arg0_1]
#   %arg1_1 : Tensor "bf16[151936, 896][896, 1]cuda:0" = PlaceHolder[target=arg1_1]
#   %mm : Tensor "bf16[2, 896][896, 1]cuda:0" = PlaceHolder[target=mm]
#   %arg13_1 : Tensor "bf16[896][1]cuda:0" = PlaceHolder[target=arg13_1]
#   %buf20 : Tensor "f32[2, 1, 1][1, 2, 2]cuda:0" = PlaceHolder[target=buf20]
#   %embedding : Tensor "bf16[2, 1, 896][896, 896, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.embedding.default](args = (%arg1_1, %arg0_1), kwargs = {})
#   %view_17 : Tensor "bf16[2, 1, 896][896, 896, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm, [2, 1, 896]), kwargs = {})
#   %add_6 : Tensor "bf16[2, 1, 896][896, 896, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%embedding, %view_17), kwargs = {})
#   %convert_element_type_17 : Tensor "f32[2, 1, 896][896, 896, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_6, torch.float32), kwargs = {})
#   %pow_2 : Tensor "f32[2, 1, 896][896, 896, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%convert_element_type_17, 2), kwargs = {})
#   %mean_1 : Tensor "f32[2, 1, 1][1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%pow_2, [-1], True), kwargs = {})
#   %add_7 : Tensor "f32[2, 1, 1][1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mean_1, 1e-06), kwargs = {})
#   %rsqrt_1 : Tensor "f32[2, 1, 1][1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_7,), kwargs = {})
#   %mul_8 : Tensor "f32[2, 1, 896][896, 896, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_17, %rsqrt_1), kwargs = {})
#   %convert_element_type_18 : Tensor "bf16[2, 1, 896][896, 896, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_8, torch.bfloat16), kwargs = {})
#   %mul_9 : Tensor "bf16[2, 1, 896][896, 896, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%arg13_1, %convert_element_type_18), kwargs = {})
#   return %buf20,%mul_9
triton_per_fused__to_copy__unsafe_view_add_embedding_mean_mul_pow_rsqrt_8 = async_compile.triton('triton_per_fused__to_copy__unsafe_view_add_embedding_mean_mul_pow_rsqrt_8', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 2, 'r0_': 1024},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*i64', 'in_ptr1': '*bf16', 'in_ptr2': '*bf16', 'in_ptr3': '*bf16', 'out_ptr1': '*bf16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused__to_copy__unsafe_view_add_embedding_mean_mul_pow_rsqrt_8', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 3, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 4, 'r0_': 12544}}
)
@triton.jit
def triton_per_fused__to_copy__unsafe_view_add_embedding_mean_mul_pow_rsqrt_8(in_ptr0, in_ptr1, in_ptr2, in_ptr3, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 2
    r0_numel = 896
    R0_BLOCK: tl.constexpr = 1024
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = r0_index < r0_numel
    roffset = r0_offset
    rindex = r0_index
    x0 = xindex
    r0_1 = r0_index
    tmp0 = tl.load(in_ptr0 + (x0), xmask, eviction_policy='evict_last')
    tmp7 = tl.load(in_ptr2 + (r0_1 + 896*x0), r0_mask & xmask, other=0.0).to(tl.float32)
    tmp15 = tl.load(in_ptr3 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp1 = tl.full([1, 1], 151936, tl.int32)
    tmp2 = tmp0 + tmp1
    tmp3 = tmp0 < 0
    tmp4 = tl.where(tmp3, tmp2, tmp0)
    tl.device_assert(((0 <= tmp4) & (tmp4 < 151936)) | ~(xmask), "index out of bounds: 0 <= tmp4 < 151936")
    tmp6 = tl.load(in_ptr1 + (r0_1 + 896*tmp4), r0_mask & xmask, other=0.0).to(tl.float32)
    tmp8 = tmp6 + tmp7
    tmp9 = tmp8.to(tl.float32)
    tmp10 = tmp9 * tmp9
    tmp11 = tl.broadcast_to(tmp10, [XBLOCK, R0_BLOCK])
    tmp13 = tl.where(r0_mask & xmask, tmp11, 0)
    tmp14 = tl.sum(tmp13, 1)[:, None].to(tl.float32)
    tmp16 = tl.full([1, 1], 896.0, tl.float32)
    tmp17 = (tmp14 / tmp16)
    tmp18 = tl.full([1, 1], 1e-06, tl.float32)
    tmp19 = tmp17 + tmp18
    tmp20 = libdevice.rsqrt(tmp19)
    tmp21 = tmp9 * tmp20
    tmp22 = tmp21.to(tl.float32)
    tmp23 = tmp15 * tmp22
    tl.store(out_ptr1 + (r0_1 + 896*x0), tmp23, r0_mask & xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/tp/ctpzr2t6une7tpfmrb3ehio6dwbvixdbot44s4mwico5vnnnqkuu.py
# Topologically Sorted Source Nodes: [linear_4, silu, linear_5, mul_10], Original ATen: [aten._unsafe_view, aten.silu, aten.mul]
# Source node to ATen node mapping:
#   linear_4 => view_19
#   linear_5 => view_21
#   mul_10 => mul_10
#   silu => add_8, convert_element_type_21, convert_element_type_22, div, exp, neg_2
# Graph fragment:
#   %mm_1 : Tensor "bf16[2, 4864][4864, 1]cuda:0" = PlaceHolder[target=mm_1]
#   %mm_2 : Tensor "bf16[2, 4864][4864, 1]cuda:0" = PlaceHolder[target=mm_2]
#   %view_19 : Tensor "bf16[2, 1, 4864][4864, 4864, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_1, [2, 1, 4864]), kwargs = {})
#   %convert_element_type_21 : Tensor "f32[2, 1, 4864][4864, 4864, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%view_19, torch.float32), kwargs = {})
#   %neg_2 : Tensor "f32[2, 1, 4864][4864, 4864, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%convert_element_type_21,), kwargs = {})
#   %exp : Tensor "f32[2, 1, 4864][4864, 4864, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%neg_2,), kwargs = {})
#   %add_8 : Tensor "f32[2, 1, 4864][4864, 4864, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%exp, 1), kwargs = {})
#   %div : Tensor "f32[2, 1, 4864][4864, 4864, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%convert_element_type_21, %add_8), kwargs = {})
#   %convert_element_type_22 : Tensor "bf16[2, 1, 4864][4864, 4864, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%div, torch.bfloat16), kwargs = {})
#   %view_21 : Tensor "bf16[2, 1, 4864][4864, 4864, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_2, [2, 1, 4864]), kwargs = {})
#   %mul_10 : Tensor "bf16[2, 1, 4864][4864, 4864, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_22, %view_21), kwargs = {})
#   return %mul_10
triton_poi_fused__unsafe_view_mul_silu_9 = async_compile.triton('triton_poi_fused__unsafe_view_mul_silu_9', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 16384}, 
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*bf16', 'in_ptr0': '*bf16', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__unsafe_view_mul_silu_9', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 77824}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__unsafe_view_mul_silu_9(in_out_ptr0, in_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 9728
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_out_ptr0 + (x0), xmask).to(tl.float32)
    tmp8 = tl.load(in_ptr0 + (x0), xmask).to(tl.float32)
    tmp1 = tmp0.to(tl.float32)
    tmp2 = -tmp1
    tmp3 = libdevice.exp(tmp2)
    tmp4 = tl.full([1], 1.0, tl.float32)
    tmp5 = tmp3 + tmp4
    tmp6 = (tmp1 / tmp5)
    tmp7 = tmp6.to(tl.float32)
    tmp9 = tmp7 * tmp8
    tl.store(in_out_ptr0 + (x0), tmp9, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/ou/coufacs3xyhlpsj6lo7jdbiyj5tpqfpz4hentfdsjllr6x2w5b3a.py
# Topologically Sorted Source Nodes: [inputs_embeds, attn_output_3, hidden_states_5, down_proj, hidden_states_9, hidden_states_10, pow_3, variance_2, add_9, rsqrt_2, hidden_states_11, to_8, hidden_states_12], Original ATen: [aten.embedding, aten._unsafe_view, aten.add, aten._to_copy, aten.pow, aten.mean, aten.rsqrt, aten.mul]
# Source node to ATen node mapping:
#   add_9 => add_10
#   attn_output_3 => view_17
#   down_proj => view_23
#   hidden_states_10 => convert_element_type_27
#   hidden_states_11 => mul_11
#   hidden_states_12 => mul_12
#   hidden_states_5 => add_6
#   hidden_states_9 => add_9
#   inputs_embeds => embedding
#   pow_3 => pow_3
#   rsqrt_2 => rsqrt_2
#   to_8 => convert_element_type_28
#   variance_2 => mean_2
# Graph fragment:
#   %arg0_1 : Tensor "i64[2, 1][1, 1]cuda:0" = PlaceHolder[target=arg0_1]
#   %arg1_1 : Tensor "bf16[151936, 896][896, 1]cuda:0" = PlaceHolder[target=arg1_1]
#   %mm : Tensor "bf16[2, 896][896, 1]cuda:0" = PlaceHolder[target=mm]
#   %mm_3 : Tensor "bf16[2, 896][896, 1]cuda:0" = PlaceHolder[target=mm_3]
#   %arg17_1 : Tensor "bf16[896][1]cuda:0" = PlaceHolder[target=arg17_1]
#   %buf26 : Tensor "f32[2, 1, 1][1, 2, 2]cuda:0" = PlaceHolder[target=buf26]
#   %embedding : Tensor "bf16[2, 1, 896][896, 896, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.embedding.default](args = (%arg1_1, %arg0_1), kwargs = {})
#   %view_17 : Tensor "bf16[2, 1, 896][896, 896, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm, [2, 1, 896]), kwargs = {})
#   %add_6 : Tensor "bf16[2, 1, 896][896, 896, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%embedding, %view_17), kwargs = {})
#   %view_23 : Tensor "bf16[2, 1, 896][896, 896, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_3, [2, 1, 896]), kwargs = {})
#   %add_9 : Tensor "bf16[2, 1, 896][896, 896, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_6, %view_23), kwargs = {})
#   %convert_element_type_27 : Tensor "f32[2, 1, 896][896, 896, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_9, torch.float32), kwargs = {})
#   %pow_3 : Tensor "f32[2, 1, 896][896, 896, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%convert_element_type_27, 2), kwargs = {})
#   %mean_2 : Tensor "f32[2, 1, 1][1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%pow_3, [-1], True), kwargs = {})
#   %add_10 : Tensor "f32[2, 1, 1][1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mean_2, 1e-06), kwargs = {})
#   %rsqrt_2 : Tensor "f32[2, 1, 1][1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_10,), kwargs = {})
#   %mul_11 : Tensor "f32[2, 1, 896][896, 896, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_27, %rsqrt_2), kwargs = {})
#   %convert_element_type_28 : Tensor "bf16[2, 1, 896][896, 896, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_11, torch.bfloat16), kwargs = {})
#   %mul_12 : Tensor "bf16[2, 1, 896][896, 896, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.mul.Tensor](args = (%arg17_1, %convert_element_type_28), kwargs = {})
#   return %buf26,%mul_12
triton_per_fused__to_copy__unsafe_view_add_embedding_mean_mul_pow_rsqrt_10 = async_compile.triton('triton_per_fused__to_copy__unsafe_view_add_embedding_mean_mul_pow_rsqrt_10', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 2, 'r0_': 1024},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*i64', 'in_ptr1': '*bf16', 'in_ptr2': '*bf16', 'in_ptr3': '*bf16', 'in_ptr4': '*bf16', 'out_ptr1': '*bf16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused__to_copy__unsafe_view_add_embedding_mean_mul_pow_rsqrt_10', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 4, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 4, 'r0_': 16128}}
)
@triton.jit
def triton_per_fused__to_copy__unsafe_view_add_embedding_mean_mul_pow_rsqrt_10(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 2
    r0_numel = 896
    R0_BLOCK: tl.constexpr = 1024
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = r0_index < r0_numel
    roffset = r0_offset
    rindex = r0_index
    x0 = xindex
    r0_1 = r0_index
    tmp0 = tl.load(in_ptr0 + (x0), xmask, eviction_policy='evict_last')
    tmp7 = tl.load(in_ptr2 + (r0_1 + 896*x0), r0_mask & xmask, other=0.0).to(tl.float32)
    tmp9 = tl.load(in_ptr3 + (r0_1 + 896*x0), r0_mask & xmask, other=0.0).to(tl.float32)
    tmp17 = tl.load(in_ptr4 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp1 = tl.full([1, 1], 151936, tl.int32)
    tmp2 = tmp0 + tmp1
    tmp3 = tmp0 < 0
    tmp4 = tl.where(tmp3, tmp2, tmp0)
    tl.device_assert(((0 <= tmp4) & (tmp4 < 151936)) | ~(xmask), "index out of bounds: 0 <= tmp4 < 151936")
    tmp6 = tl.load(in_ptr1 + (r0_1 + 896*tmp4), r0_mask & xmask, other=0.0).to(tl.float32)
    tmp8 = tmp6 + tmp7
    tmp10 = tmp8 + tmp9
    tmp11 = tmp10.to(tl.float32)
    tmp12 = tmp11 * tmp11
    tmp13 = tl.broadcast_to(tmp12, [XBLOCK, R0_BLOCK])
    tmp15 = tl.where(r0_mask & xmask, tmp13, 0)
    tmp16 = tl.sum(tmp15, 1)[:, None].to(tl.float32)
    tmp18 = tl.full([1, 1], 896.0, tl.float32)
    tmp19 = (tmp16 / tmp18)
    tmp20 = tl.full([1, 1], 1e-06, tl.float32)
    tmp21 = tmp19 + tmp20
    tmp22 = libdevice.rsqrt(tmp21)
    tmp23 = tmp11 * tmp22
    tmp24 = tmp23.to(tl.float32)
    tmp25 = tmp17 * tmp24
    tl.store(out_ptr1 + (r0_1 + 896*x0), tmp25, r0_mask & xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/uk/cukxikohfmv3pf5eq7t62n3o7yi3slc2zxxbtbajru57o7kaquda.py
# Topologically Sorted Source Nodes: [inputs_embeds, attn_output_3, hidden_states_5, down_proj, hidden_states_9, attn_output_7, hidden_states_15, hidden_states_16, pow_4, variance_3, add_13, rsqrt_3, hidden_states_17, to_10, hidden_states_18], Original ATen: [aten.embedding, aten._unsafe_view, aten.add, aten._to_copy, aten.pow, aten.mean, aten.rsqrt, aten.mul]
# Source node to ATen node mapping:
#   add_13 => add_14
#   attn_output_3 => view_17
#   attn_output_7 => view_37
#   down_proj => view_23
#   hidden_states_15 => add_13
#   hidden_states_16 => convert_element_type_40
#   hidden_states_17 => mul_17
#   hidden_states_18 => mul_18
#   hidden_states_5 => add_6
#   hidden_states_9 => add_9
#   inputs_embeds => embedding
#   pow_4 => pow_4
#   rsqrt_3 => rsqrt_3
#   to_10 => convert_element_type_41
#   variance_3 => mean_3
# Graph fragment:
#   %arg0_1 : Tensor "i64[2, 1][1, 1]cuda:0" = PlaceHolder[target=arg0_1]
#   %arg1_1 : Tensor "bf16[151936, 896][896, 1]cuda:0" = PlaceHolder[target=arg1_1]
#   %mm : Tensor "bf16[2, 896][896, 1]cuda:0" = PlaceHolder[target=mm]
#   %mm_3 : Tensor "bf16[2, 896][896, 1]cuda:0" = PlaceHolder[target=mm_3]
#   %mm_4 : Tensor "bf16[2, 896][896, 1]cuda:0" = PlaceHolder[target=mm_4]
#   %add_13 : Tensor "bf16[2, 1, 896][896, 1792, 1]cuda:0" = PlaceHolder[target=add_13]
#   %arg27_1 : Tensor "bf16[896][1]cuda:0" = PlaceHolder[target=arg27_1]
#   %buf43 : Tensor "f32[2, 1, 1][1, 2, 2]cuda:0" = PlaceHolder[target=buf43]
#   %embedding : Tensor "bf16[2, 1, 896][896, 896, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.embedding.default](args = (%arg1_1, %arg0_1), kwargs = {})
#   %view_17 : Tensor "bf16[2, 1, 896][896, 896, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm, [2, 1, 896]), kwargs = {})
#   %add_6 : Tensor "bf16[2, 1, 896][896, 896, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%embedding, %view_17), kwargs = {})
#   %view_23 : Tensor "bf16[2, 1, 896][896, 896, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_3, [2, 1, 896]), kwargs = {})
#   %add_9 : Tensor "bf16[2, 1, 896][896, 896, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_6, %view_23), kwargs = {})
#   %view_37 : Tensor "bf16[2, 1, 896][896, 896, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_4, [2, 1, 896]), kwargs = {})
#   %add_13 : Tensor "bf16[2, 1, 896][896, 896, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_9, %view_37), kwargs = {})
#   %convert_element_type_40 : Tensor "f32[2, 1, 896][896, 896, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_13, torch.float32), kwargs = {})
#   %pow_4 : Tensor "f32[2, 1, 896][896, 896, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%convert_element_type_40, 2), kwargs = {})
#   %mean_3 : Tensor "f32[2, 1, 1][1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%pow_4, [-1], True), kwargs = {})
#   %add_14 : Tensor "f32[2, 1, 1][1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mean_3, 1e-06), kwargs = {})
#   %rsqrt_3 : Tensor "f32[2, 1, 1][1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_14,), kwargs = {})
#   %mul_17 : Tensor "f32[2, 1, 896][896, 896, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_40, %rsqrt_3), kwargs = {})
#   %convert_element_type_41 : Tensor "bf16[2, 1, 896][896, 896, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_17, torch.bfloat16), kwargs = {})
#   %mul_18 : Tensor "bf16[2, 1, 896][896, 896, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%arg27_1, %convert_element_type_41), kwargs = {})
#   return %add_13,%buf43,%mul_18
triton_per_fused__to_copy__unsafe_view_add_embedding_mean_mul_pow_rsqrt_11 = async_compile.triton('triton_per_fused__to_copy__unsafe_view_add_embedding_mean_mul_pow_rsqrt_11', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 2, 'r0_': 1024},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*bf16', 'in_ptr0': '*i64', 'in_ptr1': '*bf16', 'in_ptr2': '*bf16', 'in_ptr3': '*bf16', 'in_ptr4': '*bf16', 'out_ptr1': '*bf16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused__to_copy__unsafe_view_add_embedding_mean_mul_pow_rsqrt_11', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 5, 'num_store': 2, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 4, 'r0_': 26880}}
)
@triton.jit
def triton_per_fused__to_copy__unsafe_view_add_embedding_mean_mul_pow_rsqrt_11(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 2
    r0_numel = 896
    R0_BLOCK: tl.constexpr = 1024
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = r0_index < r0_numel
    roffset = r0_offset
    rindex = r0_index
    x0 = xindex
    r0_1 = r0_index
    tmp0 = tl.load(in_ptr0 + (x0), xmask, eviction_policy='evict_last')
    tmp7 = tl.load(in_out_ptr0 + (r0_1 + 896*x0), r0_mask & xmask, other=0.0).to(tl.float32)
    tmp9 = tl.load(in_ptr2 + (r0_1 + 896*x0), r0_mask & xmask, other=0.0).to(tl.float32)
    tmp11 = tl.load(in_ptr3 + (r0_1 + 896*x0), r0_mask & xmask, other=0.0).to(tl.float32)
    tmp19 = tl.load(in_ptr4 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp1 = tl.full([1, 1], 151936, tl.int32)
    tmp2 = tmp0 + tmp1
    tmp3 = tmp0 < 0
    tmp4 = tl.where(tmp3, tmp2, tmp0)
    tl.device_assert(((0 <= tmp4) & (tmp4 < 151936)) | ~(xmask), "index out of bounds: 0 <= tmp4 < 151936")
    tmp6 = tl.load(in_ptr1 + (r0_1 + 896*tmp4), r0_mask & xmask, other=0.0).to(tl.float32)
    tmp8 = tmp6 + tmp7
    tmp10 = tmp8 + tmp9
    tmp12 = tmp10 + tmp11
    tmp13 = tmp12.to(tl.float32)
    tmp14 = tmp13 * tmp13
    tmp15 = tl.broadcast_to(tmp14, [XBLOCK, R0_BLOCK])
    tmp17 = tl.where(r0_mask & xmask, tmp15, 0)
    tmp18 = tl.sum(tmp17, 1)[:, None].to(tl.float32)
    tmp20 = tl.full([1, 1], 896.0, tl.float32)
    tmp21 = (tmp18 / tmp20)
    tmp22 = tl.full([1, 1], 1e-06, tl.float32)
    tmp23 = tmp21 + tmp22
    tmp24 = libdevice.rsqrt(tmp23)
    tmp25 = tmp13 * tmp24
    tmp26 = tmp25.to(tl.float32)
    tmp27 = tmp19 * tmp26
    tl.store(in_out_ptr0 + (r0_1 + 896*x0), tmp12, r0_mask & xmask)
    tl.store(out_ptr1 + (r0_1 + 896*x0), tmp27, r0_mask & xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/53/c53tq2xgdocud3xwozfbgdlfzfj7z7hri3izuc3tn72ixvo3nmym.py
# Topologically Sorted Source Nodes: [down_proj_1, hidden_states_19, hidden_states_20, pow_5, variance_4, add_15, rsqrt_4, hidden_states_21, to_12, hidden_states_22], Original ATen: [aten._unsafe_view, aten.add, aten._to_copy, aten.pow, aten.mean, aten.rsqrt, aten.mul]
# Source node to ATen node mapping:
#   add_15 => add_17
#   down_proj_1 => view_43
#   hidden_states_19 => add_16
#   hidden_states_20 => convert_element_type_50
#   hidden_states_21 => mul_20
#   hidden_states_22 => mul_21
#   pow_5 => pow_5
#   rsqrt_4 => rsqrt_4
#   to_12 => convert_element_type_51
#   variance_4 => mean_4
# Graph fragment:
#   %add_13 : Tensor "bf16[2, 1, 896][896, 1792, 1]cuda:0" = PlaceHolder[target=add_13]
#   %mm_7 : Tensor "bf16[2, 896][896, 1]cuda:0" = PlaceHolder[target=mm_7]
#   %arg31_1 : Tensor "bf16[896][1]cuda:0" = PlaceHolder[target=arg31_1]
#   %buf49 : Tensor "f32[2, 1, 1][1, 2, 2]cuda:0" = PlaceHolder[target=buf49]
#   %view_43 : Tensor "bf16[2, 1, 896][896, 896, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_7, [2, 1, 896]), kwargs = {})
#   %add_16 : Tensor "bf16[2, 1, 896][896, 896, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_13, %view_43), kwargs = {})
#   %convert_element_type_50 : Tensor "f32[2, 1, 896][896, 896, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_16, torch.float32), kwargs = {})
#   %pow_5 : Tensor "f32[2, 1, 896][896, 896, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%convert_element_type_50, 2), kwargs = {})
#   %mean_4 : Tensor "f32[2, 1, 1][1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%pow_5, [-1], True), kwargs = {})
#   %add_17 : Tensor "f32[2, 1, 1][1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mean_4, 1e-06), kwargs = {})
#   %rsqrt_4 : Tensor "f32[2, 1, 1][1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_17,), kwargs = {})
#   %mul_20 : Tensor "f32[2, 1, 896][896, 896, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_50, %rsqrt_4), kwargs = {})
#   %convert_element_type_51 : Tensor "bf16[2, 1, 896][896, 896, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_20, torch.bfloat16), kwargs = {})
#   %mul_21 : Tensor "bf16[2, 1, 896][896, 896, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%arg31_1, %convert_element_type_51), kwargs = {})
#   return %buf49,%mul_21
triton_per_fused__to_copy__unsafe_view_add_mean_mul_pow_rsqrt_12 = async_compile.triton('triton_per_fused__to_copy__unsafe_view_add_mean_mul_pow_rsqrt_12', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 2, 'r0_': 1024},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*bf16', 'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused__to_copy__unsafe_view_add_mean_mul_pow_rsqrt_12', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 3, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 0, 'r0_': 16128}}
)
@triton.jit
def triton_per_fused__to_copy__unsafe_view_add_mean_mul_pow_rsqrt_12(in_out_ptr0, in_ptr0, in_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 2
    r0_numel = 896
    R0_BLOCK: tl.constexpr = 1024
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = r0_index < r0_numel
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_out_ptr0 + (r0_1 + 896*x0), r0_mask & xmask, other=0.0).to(tl.float32)
    tmp1 = tl.load(in_ptr0 + (r0_1 + 896*x0), r0_mask & xmask, other=0.0).to(tl.float32)
    tmp9 = tl.load(in_ptr1 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp2 = tmp0 + tmp1
    tmp3 = tmp2.to(tl.float32)
    tmp4 = tmp3 * tmp3
    tmp5 = tl.broadcast_to(tmp4, [XBLOCK, R0_BLOCK])
    tmp7 = tl.where(r0_mask & xmask, tmp5, 0)
    tmp8 = tl.sum(tmp7, 1)[:, None].to(tl.float32)
    tmp10 = tl.full([1, 1], 896.0, tl.float32)
    tmp11 = (tmp8 / tmp10)
    tmp12 = tl.full([1, 1], 1e-06, tl.float32)
    tmp13 = tmp11 + tmp12
    tmp14 = libdevice.rsqrt(tmp13)
    tmp15 = tmp3 * tmp14
    tmp16 = tmp15.to(tl.float32)
    tmp17 = tmp9 * tmp16
    tl.store(in_out_ptr0 + (r0_1 + 896*x0), tmp17, r0_mask & xmask)
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
        arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1, arg12_1, arg13_1, arg14_1, arg15_1, arg16_1, arg17_1, arg18_1, arg19_1, arg20_1, arg21_1, arg22_1, arg23_1, arg24_1, arg25_1, arg26_1, arg27_1, arg28_1, arg29_1, arg30_1, arg31_1 = args
        args.clear()
        assert_size_stride(arg0_1, (2, 1), (1, 1))
        assert_size_stride(arg1_1, (151936, 896), (896, 1))
        assert_size_stride(arg2_1, (2, 2, 129, 64), (16512, 8256, 64, 1))
        assert_size_stride(arg3_1, (32, ), (1, ))
        assert_size_stride(arg4_1, (896, ), (1, ))
        assert_size_stride(arg5_1, (896, 896), (896, 1))
        assert_size_stride(arg6_1, (896, ), (1, ))
        assert_size_stride(arg7_1, (128, 896), (896, 1))
        assert_size_stride(arg8_1, (128, ), (1, ))
        assert_size_stride(arg9_1, (128, 896), (896, 1))
        assert_size_stride(arg10_1, (128, ), (1, ))
        assert_size_stride(arg11_1, (2, 2, 129, 64), (16512, 8256, 64, 1))
        assert_size_stride(arg12_1, (896, 896), (896, 1))
        assert_size_stride(arg13_1, (896, ), (1, ))
        assert_size_stride(arg14_1, (4864, 896), (896, 1))
        assert_size_stride(arg15_1, (4864, 896), (896, 1))
        assert_size_stride(arg16_1, (896, 4864), (4864, 1))
        assert_size_stride(arg17_1, (896, ), (1, ))
        assert_size_stride(arg18_1, (896, 896), (896, 1))
        assert_size_stride(arg19_1, (896, ), (1, ))
        assert_size_stride(arg20_1, (128, 896), (896, 1))
        assert_size_stride(arg21_1, (128, ), (1, ))
        assert_size_stride(arg22_1, (128, 896), (896, 1))
        assert_size_stride(arg23_1, (128, ), (1, ))
        assert_size_stride(arg24_1, (2, 2, 129, 64), (16512, 8256, 64, 1))
        assert_size_stride(arg25_1, (2, 2, 129, 64), (16512, 8256, 64, 1))
        assert_size_stride(arg26_1, (896, 896), (896, 1))
        assert_size_stride(arg27_1, (896, ), (1, ))
        assert_size_stride(arg28_1, (4864, 896), (896, 1))
        assert_size_stride(arg29_1, (4864, 896), (896, 1))
        assert_size_stride(arg30_1, (896, 4864), (4864, 1))
        assert_size_stride(arg31_1, (896, ), (1, ))
        with torch.cuda._DeviceGuard(0):
            torch.cuda.set_device(0)
            buf1 = empty_strided_cuda((2, 1, 896), (896, 896, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [inputs_embeds, hidden_states, pow_1, variance, add_3, rsqrt, hidden_states_1, to_4, hidden_states_2], Original ATen: [aten.embedding, aten._to_copy, aten.pow, aten.mean, aten.add, aten.rsqrt, aten.mul]
            stream0 = get_raw_stream(0)
            triton_red_fused__to_copy_add_embedding_mean_mul_pow_rsqrt_0.run(arg0_1, arg1_1, arg4_1, buf1, 2, 896, stream=stream0)
            del arg4_1
            buf2 = empty_strided_cuda((2, 896), (896, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [inputs_embeds, hidden_states, pow_1, variance, add_3, rsqrt, hidden_states_1, to_4, hidden_states_2, linear], Original ATen: [aten.embedding, aten._to_copy, aten.pow, aten.mean, aten.add, aten.rsqrt, aten.mul, aten.view, aten.t, aten.addmm]
            extern_kernels.addmm(arg6_1, reinterpret_tensor(buf1, (2, 896), (896, 1), 0), reinterpret_tensor(arg5_1, (896, 896), (1, 896), 0), alpha=1, beta=1, out=buf2)
            del arg5_1
            del arg6_1
            buf3 = empty_strided_cuda((1, 32, 1), (32, 1, 1), torch.float32)
            # Topologically Sorted Source Nodes: [getitem_4, float_1], Original ATen: [aten.unsqueeze, aten._to_copy]
            stream0 = get_raw_stream(0)
            triton_poi_fused__to_copy_unsqueeze_1.run(arg3_1, buf3, 32, stream=stream0)
            del arg3_1
            buf4 = empty_strided_cuda((1, 1, 1), (1, 1, 1), torch.float32)
            buf5 = reinterpret_tensor(buf4, (1, 1), (1, 1), 0); del buf4  # reuse
            # Topologically Sorted Source Nodes: [getitem_4, float_1, expand_1, matmul, arange, position_ids, position_ids_1, getitem_5, position_ids_expanded], Original ATen: [aten.unsqueeze, aten._to_copy, aten.expand, aten.bmm, aten.arange, aten.add]
            stream0 = get_raw_stream(0)
            triton_poi_fused__to_copy_add_arange_bmm_expand_unsqueeze_2.run(buf5, 1, stream=stream0)
            buf6 = empty_strided_cuda((32, 1), (1, 1), torch.float32)
            # Topologically Sorted Source Nodes: [getitem_4, float_1, expand_1, matmul, arange, position_ids, position_ids_1, getitem_5, position_ids_expanded], Original ATen: [aten.unsqueeze, aten._to_copy, aten.expand, aten.bmm, aten.arange, aten.add]
            extern_kernels.mm(reinterpret_tensor(buf3, (32, 1), (1, 0), 0), buf5, out=buf6)
            del buf3
            del buf5
            buf7 = empty_strided_cuda((2, 128), (128, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [linear_1], Original ATen: [aten.view, aten.t, aten.addmm]
            extern_kernels.addmm(arg8_1, reinterpret_tensor(buf1, (2, 896), (896, 1), 0), reinterpret_tensor(arg7_1, (896, 128), (1, 896), 0), alpha=1, beta=1, out=buf7)
            del arg7_1
            del arg8_1
            buf8 = empty_strided_cuda((2, 2, 130, 64), (16640, 8320, 64, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [matmul, freqs, emb, cos, cos_1, cos_2, cos_3, sin, sin_1, sin_2, sin_3, linear_1, view_1, key_states, mul_6, x2_1, neg_1, x1_1, cat_2, mul_7, k_embed, keys], Original ATen: [aten.bmm, aten.transpose, aten.cat, aten.cos, aten.mul, aten._to_copy, aten.unsqueeze, aten.sin, aten.view, aten.slice, aten.neg, aten.add]
            stream0 = get_raw_stream(0)
            triton_poi_fused__to_copy_add_bmm_cat_cos_mul_neg_sin_slice_transpose_unsqueeze_view_3.run(arg2_1, buf7, buf6, buf8, 33280, stream=stream0)
            del arg2_1
            buf9 = buf7; del buf7  # reuse
            # Topologically Sorted Source Nodes: [linear_2], Original ATen: [aten.view, aten.t, aten.addmm]
            extern_kernels.addmm(arg10_1, reinterpret_tensor(buf1, (2, 896), (896, 1), 0), reinterpret_tensor(arg9_1, (896, 128), (1, 896), 0), alpha=1, beta=1, out=buf9)
            del arg10_1
            del arg9_1
            buf10 = reinterpret_tensor(buf1, (2, 14, 1, 64), (896, 64, 64, 1), 0); del buf1  # reuse
            # Topologically Sorted Source Nodes: [linear, view, query_states, matmul, freqs, emb, cos, cos_1, cos_2, cos_3, mul_4, x2, neg, x1, cat_1, sin, sin_1, sin_2, sin_3, mul_5, q_embed, getitem_10, hidden_states_3, key, linear_2, view_2, value_states, values, getitem_11, hidden_states_4, value, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, attention_mask, attention_mask_1, attn_output], Original ATen: [aten.view, aten.transpose, aten.bmm, aten.cat, aten.cos, aten.mul, aten._to_copy, aten.unsqueeze, aten.slice, aten.neg, aten.sin, aten.add, aten.expand, aten.clone, aten._unsafe_view, aten.arange, aten.le, aten.scalar_tensor, aten.where, aten._scaled_dot_product_cudnn_attention]
            stream0 = get_raw_stream(0)
            triton_poi_fused__scaled_dot_product_cudnn_attention__to_copy__unsafe_view_add_arange_bmm_cat_clone_cos_expand_le_mul_neg_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_4.run(buf2, buf6, buf10, 1792, stream=stream0)
            buf11 = empty_strided_cuda((2, 14, 130, 64), (116480, 8320, 64, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [linear, view, query_states, matmul, freqs, emb, cos, cos_1, cos_2, cos_3, mul_4, x2, neg, x1, cat_1, sin, sin_1, sin_2, sin_3, mul_5, q_embed, getitem_10, hidden_states_3, key, linear_2, view_2, value_states, values, getitem_11, hidden_states_4, value, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, attention_mask, attention_mask_1, attn_output], Original ATen: [aten.view, aten.transpose, aten.bmm, aten.cat, aten.cos, aten.mul, aten._to_copy, aten.unsqueeze, aten.slice, aten.neg, aten.sin, aten.add, aten.expand, aten.clone, aten._unsafe_view, aten.arange, aten.le, aten.scalar_tensor, aten.where, aten._scaled_dot_product_cudnn_attention]
            stream0 = get_raw_stream(0)
            triton_poi_fused__scaled_dot_product_cudnn_attention__to_copy__unsafe_view_add_arange_bmm_cat_clone_cos_expand_le_mul_neg_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_5.run(buf8, buf11, 232960, stream=stream0)
            del buf8
            buf12 = empty_strided_cuda((2, 14, 130, 64), (116480, 8320, 64, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [linear, view, query_states, matmul, freqs, emb, cos, cos_1, cos_2, cos_3, mul_4, x2, neg, x1, cat_1, sin, sin_1, sin_2, sin_3, mul_5, q_embed, getitem_10, hidden_states_3, key, linear_2, view_2, value_states, values, getitem_11, hidden_states_4, value, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, attention_mask, attention_mask_1, attn_output], Original ATen: [aten.view, aten.transpose, aten.bmm, aten.cat, aten.cos, aten.mul, aten._to_copy, aten.unsqueeze, aten.slice, aten.neg, aten.sin, aten.add, aten.expand, aten.clone, aten._unsafe_view, aten.arange, aten.le, aten.scalar_tensor, aten.where, aten._scaled_dot_product_cudnn_attention]
            stream0 = get_raw_stream(0)
            triton_poi_fused__scaled_dot_product_cudnn_attention__to_copy__unsafe_view_add_arange_bmm_cat_clone_cos_expand_le_mul_neg_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_6.run(arg11_1, buf9, buf12, 232960, stream=stream0)
            del arg11_1
            buf13 = empty_strided_cuda((2, 1, 1, 130), (130, 130, 130, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [linear, view, query_states, matmul, freqs, emb, cos, cos_1, cos_2, cos_3, mul_4, x2, neg, x1, cat_1, sin, sin_1, sin_2, sin_3, mul_5, q_embed, getitem_10, hidden_states_3, key, linear_2, view_2, value_states, values, getitem_11, hidden_states_4, value, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, attention_mask, attention_mask_1, attn_output], Original ATen: [aten.view, aten.transpose, aten.bmm, aten.cat, aten.cos, aten.mul, aten._to_copy, aten.unsqueeze, aten.slice, aten.neg, aten.sin, aten.add, aten.expand, aten.clone, aten._unsafe_view, aten.arange, aten.le, aten.scalar_tensor, aten.where, aten._scaled_dot_product_cudnn_attention]
            stream0 = get_raw_stream(0)
            triton_poi_fused__scaled_dot_product_cudnn_attention__to_copy__unsafe_view_add_arange_bmm_cat_clone_cos_expand_le_mul_neg_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_7.run(buf13, 260, stream=stream0)
            # Topologically Sorted Source Nodes: [linear, view, query_states, matmul, freqs, emb, cos, cos_1, cos_2, cos_3, mul_4, x2, neg, x1, cat_1, sin, sin_1, sin_2, sin_3, mul_5, q_embed, getitem_10, hidden_states_3, key, linear_2, view_2, value_states, values, getitem_11, hidden_states_4, value, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, attention_mask, attention_mask_1, attn_output], Original ATen: [aten.view, aten.transpose, aten.bmm, aten.cat, aten.cos, aten.mul, aten._to_copy, aten.unsqueeze, aten.slice, aten.neg, aten.sin, aten.add, aten.expand, aten.clone, aten._unsafe_view, aten.arange, aten.le, aten.scalar_tensor, aten.where, aten._scaled_dot_product_cudnn_attention]
            buf14 = torch.ops.aten._scaled_dot_product_cudnn_attention.default(buf10, buf11, buf12, buf13, False, scale=0.125)
            del buf11
            del buf12
            buf15 = buf14[0]
            assert_size_stride(buf15, (2, 14, 1, 64), (896, 64, 64, 1), 'torch.ops.aten._scaled_dot_product_cudnn_attention.default')
            assert_alignment(buf15, 16, 'torch.ops.aten._scaled_dot_product_cudnn_attention.default')
            del buf14
            buf19 = reinterpret_tensor(buf10, (2, 896), (896, 1), 0); del buf10  # reuse
            # Topologically Sorted Source Nodes: [transpose_4, reshape_2, attn_output_3], Original ATen: [aten.transpose, aten.view, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf15, (2, 896), (896, 1), 0), reinterpret_tensor(arg12_1, (896, 896), (1, 896), 0), out=buf19)
            del arg12_1
            buf21 = reinterpret_tensor(buf15, (2, 1, 896), (896, 896, 1), 0); del buf15  # reuse
            # Topologically Sorted Source Nodes: [inputs_embeds, attn_output_3, hidden_states_5, hidden_states_6, pow_2, variance_1, add_7, rsqrt_1, hidden_states_7, to_6, hidden_states_8], Original ATen: [aten.embedding, aten._unsafe_view, aten.add, aten._to_copy, aten.pow, aten.mean, aten.rsqrt, aten.mul]
            stream0 = get_raw_stream(0)
            triton_per_fused__to_copy__unsafe_view_add_embedding_mean_mul_pow_rsqrt_8.run(arg0_1, arg1_1, buf19, arg13_1, buf21, 2, 896, stream=stream0)
            del arg13_1
            buf22 = empty_strided_cuda((2, 4864), (4864, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [linear_4], Original ATen: [aten.view, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf21, (2, 896), (896, 1), 0), reinterpret_tensor(arg14_1, (896, 4864), (1, 896), 0), out=buf22)
            del arg14_1
            buf23 = empty_strided_cuda((2, 4864), (4864, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [linear_5], Original ATen: [aten.view, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf21, (2, 896), (896, 1), 0), reinterpret_tensor(arg15_1, (896, 4864), (1, 896), 0), out=buf23)
            del arg15_1
            buf24 = reinterpret_tensor(buf22, (2, 1, 4864), (4864, 4864, 1), 0); del buf22  # reuse
            # Topologically Sorted Source Nodes: [linear_4, silu, linear_5, mul_10], Original ATen: [aten._unsafe_view, aten.silu, aten.mul]
            stream0 = get_raw_stream(0)
            triton_poi_fused__unsafe_view_mul_silu_9.run(buf24, buf23, 9728, stream=stream0)
            del buf23
            buf25 = reinterpret_tensor(buf21, (2, 896), (896, 1), 0); del buf21  # reuse
            # Topologically Sorted Source Nodes: [linear_4, silu, linear_5, mul_10, down_proj], Original ATen: [aten._unsafe_view, aten.silu, aten.mul, aten.view, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf24, (2, 4864), (4864, 1), 0), reinterpret_tensor(arg16_1, (4864, 896), (1, 4864), 0), out=buf25)
            del arg16_1
            del buf24
            buf27 = reinterpret_tensor(buf2, (2, 1, 896), (896, 896, 1), 0); del buf2  # reuse
            # Topologically Sorted Source Nodes: [inputs_embeds, attn_output_3, hidden_states_5, down_proj, hidden_states_9, hidden_states_10, pow_3, variance_2, add_9, rsqrt_2, hidden_states_11, to_8, hidden_states_12], Original ATen: [aten.embedding, aten._unsafe_view, aten.add, aten._to_copy, aten.pow, aten.mean, aten.rsqrt, aten.mul]
            stream0 = get_raw_stream(0)
            triton_per_fused__to_copy__unsafe_view_add_embedding_mean_mul_pow_rsqrt_10.run(arg0_1, arg1_1, buf19, buf25, arg17_1, buf27, 2, 896, stream=stream0)
            del arg17_1
            buf28 = empty_strided_cuda((2, 896), (896, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [linear_7], Original ATen: [aten.view, aten.t, aten.addmm]
            extern_kernels.addmm(arg19_1, reinterpret_tensor(buf27, (2, 896), (896, 1), 0), reinterpret_tensor(arg18_1, (896, 896), (1, 896), 0), alpha=1, beta=1, out=buf28)
            del arg18_1
            del arg19_1
            buf29 = buf9; del buf9  # reuse
            # Topologically Sorted Source Nodes: [linear_8], Original ATen: [aten.view, aten.t, aten.addmm]
            extern_kernels.addmm(arg21_1, reinterpret_tensor(buf27, (2, 896), (896, 1), 0), reinterpret_tensor(arg20_1, (896, 128), (1, 896), 0), alpha=1, beta=1, out=buf29)
            del arg20_1
            del arg21_1
            buf30 = empty_strided_cuda((2, 2, 130, 64), (16640, 8320, 64, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [matmul, freqs, emb, cos, cos_1, cos_2, sin, sin_1, sin_2, cos_4, sin_4, linear_8, view_4, key_states_1, mul_15, x2_3, neg_3, x1_3, cat_6, mul_16, k_embed_1, keys_1], Original ATen: [aten.bmm, aten.transpose, aten.cat, aten.cos, aten.mul, aten._to_copy, aten.sin, aten.unsqueeze, aten.view, aten.slice, aten.neg, aten.add]
            stream0 = get_raw_stream(0)
            triton_poi_fused__to_copy_add_bmm_cat_cos_mul_neg_sin_slice_transpose_unsqueeze_view_3.run(arg24_1, buf29, buf6, buf30, 33280, stream=stream0)
            del arg24_1
            buf31 = buf29; del buf29  # reuse
            # Topologically Sorted Source Nodes: [linear_9], Original ATen: [aten.view, aten.t, aten.addmm]
            extern_kernels.addmm(arg23_1, reinterpret_tensor(buf27, (2, 896), (896, 1), 0), reinterpret_tensor(arg22_1, (896, 128), (1, 896), 0), alpha=1, beta=1, out=buf31)
            del arg22_1
            del arg23_1
            buf32 = reinterpret_tensor(buf27, (2, 14, 1, 64), (896, 64, 64, 1), 0); del buf27  # reuse
            # Topologically Sorted Source Nodes: [matmul, freqs, emb, cos, cos_1, cos_2, sin, sin_1, sin_2, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, attention_mask, attention_mask_1, linear_7, view_3, query_states_1, cos_4, mul_13, x2_2, neg_2, x1_2, cat_5, sin_4, mul_14, q_embed_1, getitem_16, hidden_states_13, key_1, linear_9, view_5, value_states_1, values_1, getitem_17, hidden_states_14, value_1, attn_output_4], Original ATen: [aten.bmm, aten.transpose, aten.cat, aten.cos, aten.mul, aten._to_copy, aten.sin, aten.arange, aten.add, aten.unsqueeze, aten.le, aten.expand, aten.view, aten.slice, aten.neg, aten.clone, aten._unsafe_view, aten.scalar_tensor, aten.where, aten._scaled_dot_product_cudnn_attention]
            stream0 = get_raw_stream(0)
            triton_poi_fused__scaled_dot_product_cudnn_attention__to_copy__unsafe_view_add_arange_bmm_cat_clone_cos_expand_le_mul_neg_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_4.run(buf28, buf6, buf32, 1792, stream=stream0)
            del buf28
            del buf6
            buf33 = empty_strided_cuda((2, 14, 130, 64), (116480, 8320, 64, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [matmul, freqs, emb, cos, cos_1, cos_2, sin, sin_1, sin_2, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, attention_mask, attention_mask_1, linear_7, view_3, query_states_1, cos_4, mul_13, x2_2, neg_2, x1_2, cat_5, sin_4, mul_14, q_embed_1, getitem_16, hidden_states_13, key_1, linear_9, view_5, value_states_1, values_1, getitem_17, hidden_states_14, value_1, attn_output_4], Original ATen: [aten.bmm, aten.transpose, aten.cat, aten.cos, aten.mul, aten._to_copy, aten.sin, aten.arange, aten.add, aten.unsqueeze, aten.le, aten.expand, aten.view, aten.slice, aten.neg, aten.clone, aten._unsafe_view, aten.scalar_tensor, aten.where, aten._scaled_dot_product_cudnn_attention]
            stream0 = get_raw_stream(0)
            triton_poi_fused__scaled_dot_product_cudnn_attention__to_copy__unsafe_view_add_arange_bmm_cat_clone_cos_expand_le_mul_neg_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_5.run(buf30, buf33, 232960, stream=stream0)
            del buf30
            buf34 = empty_strided_cuda((2, 14, 130, 64), (116480, 8320, 64, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [matmul, freqs, emb, cos, cos_1, cos_2, sin, sin_1, sin_2, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, attention_mask, attention_mask_1, linear_7, view_3, query_states_1, cos_4, mul_13, x2_2, neg_2, x1_2, cat_5, sin_4, mul_14, q_embed_1, getitem_16, hidden_states_13, key_1, linear_9, view_5, value_states_1, values_1, getitem_17, hidden_states_14, value_1, attn_output_4], Original ATen: [aten.bmm, aten.transpose, aten.cat, aten.cos, aten.mul, aten._to_copy, aten.sin, aten.arange, aten.add, aten.unsqueeze, aten.le, aten.expand, aten.view, aten.slice, aten.neg, aten.clone, aten._unsafe_view, aten.scalar_tensor, aten.where, aten._scaled_dot_product_cudnn_attention]
            stream0 = get_raw_stream(0)
            triton_poi_fused__scaled_dot_product_cudnn_attention__to_copy__unsafe_view_add_arange_bmm_cat_clone_cos_expand_le_mul_neg_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_6.run(arg25_1, buf31, buf34, 232960, stream=stream0)
            del arg25_1
            del buf31
            buf35 = buf13; del buf13  # reuse
            # Topologically Sorted Source Nodes: [matmul, freqs, emb, cos, cos_1, cos_2, sin, sin_1, sin_2, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, attention_mask, attention_mask_1, linear_7, view_3, query_states_1, cos_4, mul_13, x2_2, neg_2, x1_2, cat_5, sin_4, mul_14, q_embed_1, getitem_16, hidden_states_13, key_1, linear_9, view_5, value_states_1, values_1, getitem_17, hidden_states_14, value_1, attn_output_4], Original ATen: [aten.bmm, aten.transpose, aten.cat, aten.cos, aten.mul, aten._to_copy, aten.sin, aten.arange, aten.add, aten.unsqueeze, aten.le, aten.expand, aten.view, aten.slice, aten.neg, aten.clone, aten._unsafe_view, aten.scalar_tensor, aten.where, aten._scaled_dot_product_cudnn_attention]
            stream0 = get_raw_stream(0)
            triton_poi_fused__scaled_dot_product_cudnn_attention__to_copy__unsafe_view_add_arange_bmm_cat_clone_cos_expand_le_mul_neg_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_7.run(buf35, 260, stream=stream0)
            # Topologically Sorted Source Nodes: [matmul, freqs, emb, cos, cos_1, cos_2, sin, sin_1, sin_2, arange_4, kv_arange, kv_indices, arange_3, q_arange, q_indices, attention_mask, attention_mask_1, linear_7, view_3, query_states_1, cos_4, mul_13, x2_2, neg_2, x1_2, cat_5, sin_4, mul_14, q_embed_1, getitem_16, hidden_states_13, key_1, linear_9, view_5, value_states_1, values_1, getitem_17, hidden_states_14, value_1, attn_output_4], Original ATen: [aten.bmm, aten.transpose, aten.cat, aten.cos, aten.mul, aten._to_copy, aten.sin, aten.arange, aten.add, aten.unsqueeze, aten.le, aten.expand, aten.view, aten.slice, aten.neg, aten.clone, aten._unsafe_view, aten.scalar_tensor, aten.where, aten._scaled_dot_product_cudnn_attention]
            buf36 = torch.ops.aten._scaled_dot_product_cudnn_attention.default(buf32, buf33, buf34, buf35, False, scale=0.125)
            del buf33
            del buf34
            del buf35
            buf37 = buf36[0]
            assert_size_stride(buf37, (2, 14, 1, 64), (896, 64, 64, 1), 'torch.ops.aten._scaled_dot_product_cudnn_attention.default')
            assert_alignment(buf37, 16, 'torch.ops.aten._scaled_dot_product_cudnn_attention.default')
            del buf36
            buf41 = reinterpret_tensor(buf32, (2, 896), (896, 1), 0); del buf32  # reuse
            # Topologically Sorted Source Nodes: [transpose_8, reshape_5, attn_output_7], Original ATen: [aten.transpose, aten.view, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf37, (2, 896), (896, 1), 0), reinterpret_tensor(arg26_1, (896, 896), (1, 896), 0), out=buf41)
            del arg26_1
            buf42 = reinterpret_tensor(buf19, (2, 1, 896), (896, 1792, 1), 0); del buf19  # reuse
            buf44 = reinterpret_tensor(buf37, (2, 1, 896), (896, 896, 1), 0); del buf37  # reuse
            # Topologically Sorted Source Nodes: [inputs_embeds, attn_output_3, hidden_states_5, down_proj, hidden_states_9, attn_output_7, hidden_states_15, hidden_states_16, pow_4, variance_3, add_13, rsqrt_3, hidden_states_17, to_10, hidden_states_18], Original ATen: [aten.embedding, aten._unsafe_view, aten.add, aten._to_copy, aten.pow, aten.mean, aten.rsqrt, aten.mul]
            stream0 = get_raw_stream(0)
            triton_per_fused__to_copy__unsafe_view_add_embedding_mean_mul_pow_rsqrt_11.run(buf42, arg0_1, arg1_1, buf25, buf41, arg27_1, buf44, 2, 896, stream=stream0)
            del arg0_1
            del arg27_1
            del buf25
            del buf41
            buf45 = empty_strided_cuda((2, 4864), (4864, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [hidden_states_16, pow_4, variance_3, add_13, rsqrt_3, hidden_states_17, to_10, hidden_states_18, linear_11], Original ATen: [aten._to_copy, aten.pow, aten.mean, aten.add, aten.rsqrt, aten.mul, aten.view, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf44, (2, 896), (896, 1), 0), reinterpret_tensor(arg28_1, (896, 4864), (1, 896), 0), out=buf45)
            del arg28_1
            buf46 = empty_strided_cuda((2, 4864), (4864, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [linear_12], Original ATen: [aten.view, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf44, (2, 896), (896, 1), 0), reinterpret_tensor(arg29_1, (896, 4864), (1, 896), 0), out=buf46)
            del arg29_1
            buf47 = reinterpret_tensor(buf45, (2, 1, 4864), (4864, 4864, 1), 0); del buf45  # reuse
            # Topologically Sorted Source Nodes: [linear_11, silu_1, linear_12, mul_19], Original ATen: [aten._unsafe_view, aten.silu, aten.mul]
            stream0 = get_raw_stream(0)
            triton_poi_fused__unsafe_view_mul_silu_9.run(buf47, buf46, 9728, stream=stream0)
            del buf46
            buf48 = reinterpret_tensor(buf44, (2, 896), (896, 1), 0); del buf44  # reuse
            # Topologically Sorted Source Nodes: [linear_11, silu_1, linear_12, mul_19, down_proj_1], Original ATen: [aten._unsafe_view, aten.silu, aten.mul, aten.view, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf47, (2, 4864), (4864, 1), 0), reinterpret_tensor(arg30_1, (4864, 896), (1, 4864), 0), out=buf48)
            del arg30_1
            del buf47
            buf50 = reinterpret_tensor(buf42, (2, 1, 896), (896, 896, 1), 0); del buf42  # reuse
            # Topologically Sorted Source Nodes: [down_proj_1, hidden_states_19, hidden_states_20, pow_5, variance_4, add_15, rsqrt_4, hidden_states_21, to_12, hidden_states_22], Original ATen: [aten._unsafe_view, aten.add, aten._to_copy, aten.pow, aten.mean, aten.rsqrt, aten.mul]
            stream0 = get_raw_stream(0)
            triton_per_fused__to_copy__unsafe_view_add_mean_mul_pow_rsqrt_12.run(buf50, buf48, arg31_1, 2, 896, stream=stream0)
            del arg31_1
            del buf48
            buf51 = empty_strided_cuda((2, 151936), (151936, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [down_proj_1, hidden_states_19, hidden_states_20, pow_5, variance_4, add_15, rsqrt_4, hidden_states_21, to_12, hidden_states_22, logits], Original ATen: [aten._unsafe_view, aten.add, aten._to_copy, aten.pow, aten.mean, aten.rsqrt, aten.mul, aten.view, aten.t, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf50, (2, 896), (896, 1), 0), reinterpret_tensor(arg1_1, (896, 151936), (1, 896), 0), out=buf51)
            del arg1_1
            del buf50
        return (reinterpret_tensor(buf51, (2, 1, 151936), (151936, 151936, 1), 0), )

runner = Runner(partitions=[])
call = runner.call
recursively_apply_fns = runner.recursively_apply_fns


def get_args():
    from torch._dynamo.testing import rand_strided
    arg0_1 = rand_strided((2, 1), (1, 1), device='cuda:0', dtype=torch.int64)
    arg1_1 = rand_strided((151936, 896), (896, 1), device='cuda:0', dtype=torch.bfloat16)
    arg2_1 = rand_strided((2, 2, 129, 64), (16512, 8256, 64, 1), device='cuda:0', dtype=torch.bfloat16)
    arg3_1 = rand_strided((32, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg4_1 = rand_strided((896, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg5_1 = rand_strided((896, 896), (896, 1), device='cuda:0', dtype=torch.bfloat16)
    arg6_1 = rand_strided((896, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg7_1 = rand_strided((128, 896), (896, 1), device='cuda:0', dtype=torch.bfloat16)
    arg8_1 = rand_strided((128, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg9_1 = rand_strided((128, 896), (896, 1), device='cuda:0', dtype=torch.bfloat16)
    arg10_1 = rand_strided((128, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg11_1 = rand_strided((2, 2, 129, 64), (16512, 8256, 64, 1), device='cuda:0', dtype=torch.bfloat16)
    arg12_1 = rand_strided((896, 896), (896, 1), device='cuda:0', dtype=torch.bfloat16)
    arg13_1 = rand_strided((896, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg14_1 = rand_strided((4864, 896), (896, 1), device='cuda:0', dtype=torch.bfloat16)
    arg15_1 = rand_strided((4864, 896), (896, 1), device='cuda:0', dtype=torch.bfloat16)
    arg16_1 = rand_strided((896, 4864), (4864, 1), device='cuda:0', dtype=torch.bfloat16)
    arg17_1 = rand_strided((896, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg18_1 = rand_strided((896, 896), (896, 1), device='cuda:0', dtype=torch.bfloat16)
    arg19_1 = rand_strided((896, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg20_1 = rand_strided((128, 896), (896, 1), device='cuda:0', dtype=torch.bfloat16)
    arg21_1 = rand_strided((128, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg22_1 = rand_strided((128, 896), (896, 1), device='cuda:0', dtype=torch.bfloat16)
    arg23_1 = rand_strided((128, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg24_1 = rand_strided((2, 2, 129, 64), (16512, 8256, 64, 1), device='cuda:0', dtype=torch.bfloat16)
    arg25_1 = rand_strided((2, 2, 129, 64), (16512, 8256, 64, 1), device='cuda:0', dtype=torch.bfloat16)
    arg26_1 = rand_strided((896, 896), (896, 1), device='cuda:0', dtype=torch.bfloat16)
    arg27_1 = rand_strided((896, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg28_1 = rand_strided((4864, 896), (896, 1), device='cuda:0', dtype=torch.bfloat16)
    arg29_1 = rand_strided((4864, 896), (896, 1), device='cuda:0', dtype=torch.bfloat16)
    arg30_1 = rand_strided((896, 4864), (4864, 1), device='cuda:0', dtype=torch.bfloat16)
    arg31_1 = rand_strided((896, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    return [arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1, arg12_1, arg13_1, arg14_1, arg15_1, arg16_1, arg17_1, arg18_1, arg19_1, arg20_1, arg21_1, arg22_1, arg23_1, arg24_1, arg25_1, arg26_1, arg27_1, arg28_1, arg29_1, arg30_1, arg31_1]


def benchmark_compiled_module(args, times=10, repeat=10):
    from torch._inductor.utils import print_performance
    fn = lambda: call(list(args))
    return print_performance(fn, times=times, repeat=repeat)


if __name__ == "__main__":
    from torch._inductor.wrapper_benchmark import compiled_module_main
    args = get_args()
    compiled_module_main('None', lambda times, repeat: benchmark_compiled_module(args, times=times, repeat=repeat))
