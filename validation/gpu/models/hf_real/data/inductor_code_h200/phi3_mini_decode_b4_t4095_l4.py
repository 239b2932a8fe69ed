# AOT ID: ['2_inference']
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


# kernel path: /tmp/torchinductor_root/fu/cfudt64tz2yd6y32r2rn6zga63ctf6nepugt7zqd34t3mihgso6v.py
# Topologically Sorted Source Nodes: [x0, layers_0_xn], Original ATen: [aten.index_select, aten._fused_rms_norm]
# Source node to ATen node mapping:
#   layers_0_xn => add, convert_element_type, convert_element_type_1, mean, mul, mul_1, pow_1, rsqrt
#   x0 => index
# Graph fragment:
#   %arg1_1 : Tensor "i32[4][1]cuda:0" = PlaceHolder[target=arg1_1]
#   %arg0_1 : Tensor "bf16[32064, 3072][3072, 1]cuda:0" = PlaceHolder[target=arg0_1]
#   %buf0 : Tensor "f32[4, 1][1, 4]cuda:0" = PlaceHolder[target=buf0]
#   %arg2_1 : Tensor "bf16[3072][1]cuda:0" = PlaceHolder[target=arg2_1]
#   %index : Tensor "bf16[4, 3072][3072, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.index.Tensor](args = (%arg0_1, [%arg1_1]), kwargs = {})
#   %convert_element_type : Tensor "f32[4, 3072][3072, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%index, torch.float32), kwargs = {})
#   %pow_1 : Tensor "f32[4, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%convert_element_type, 2), kwargs = {})
#   %mean : Tensor "f32[4, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%pow_1, [1], True), kwargs = {})
#   %add : Tensor "f32[4, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Scalar](args = (%mean, 1e-05), kwargs = {})
#   %rsqrt : Tensor "f32[4, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add,), kwargs = {})
#   %mul : Tensor "f32[4, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type, %rsqrt), kwargs = {})
#   %mul_1 : Tensor "f32[4, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul, %arg2_1), kwargs = {})
#   %convert_element_type_1 : Tensor "bf16[4, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_1, torch.bfloat16), kwargs = {})
#   return %buf0,%convert_element_type_1
triton_red_fused__fused_rms_norm_index_select_0 = async_compile.triton('triton_red_fused__fused_rms_norm_index_select_0', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.reduction(
    size_hints={'x': 4, 'r0_': 4096},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*i32', 'in_ptr1': '*bf16', 'in_ptr2': '*bf16', 'out_ptr1': '*bf16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused__fused_rms_norm_index_select_0', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'add_persistent_rblock': True, 'tiling_scores': {'x': 8, 'r0_': 55296}}
)
@triton.jit
def triton_red_fused__fused_rms_norm_index_select_0(in_ptr0, in_ptr1, in_ptr2, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 4
    r0_numel = 3072
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
        tmp1 = tl.full([1, 1], 32064, tl.int32)
        tmp2 = tmp0 + tmp1
        tmp3 = tmp0 < 0
        tmp4 = tl.where(tmp3, tmp2, tmp0)
        tl.device_assert(((0 <= tmp4) & (tmp4 < 32064)) | ~(xmask), "index out of bounds: 0 <= tmp4 < 32064")
        tmp6 = tl.load(in_ptr1 + (r0_1 + 3072*tmp4), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
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
        tmp25 = tl.load(in_ptr2 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp12 = tl.full([1, 1], 32064, tl.int32)
        tmp13 = tmp0 + tmp12
        tmp14 = tmp0 < 0
        tmp15 = tl.where(tmp14, tmp13, tmp0)
        tl.device_assert(((0 <= tmp15) & (tmp15 < 32064)) | ~(xmask), "index out of bounds: 0 <= tmp15 < 32064")
        tmp17 = tl.load(in_ptr1 + (r0_1 + 3072*tmp15), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp18 = tmp17.to(tl.float32)
        tmp19 = tl.full([1, 1], 3072.0, tl.float32)
        tmp20 = (tmp10 / tmp19)
        tmp21 = tl.full([1, 1], 1e-05, tl.float32)
        tmp22 = tmp20 + tmp21
        tmp23 = libdevice.rsqrt(tmp22)
        tmp24 = tmp18 * tmp23
        tmp26 = tmp25.to(tl.float32)
        tmp27 = tmp24 * tmp26
        tmp28 = tmp27.to(tl.float32)
        tl.store(out_ptr1 + (r0_1 + 3072*x0), tmp28, r0_mask & xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/65/c652axgals4vjbql5rbl36kjs6zbt3hpclc7nfj5qlfj5wo66bph.py
# Topologically Sorted Source Nodes: [setitem_1, layers_0_v, layers_0_vh], Original ATen: [aten.slice, aten.view, aten.copy]
# Source node to ATen node mapping:
#   layers_0_v => slice_3
#   layers_0_vh => view_2
#   setitem_1 => copy_1, slice_10
# Graph fragment:
#   %mm : Tensor "bf16[4, 9216][9216, 1]cuda:0" = PlaceHolder[target=mm]
#   %expand_7 : Tensor "bf16[4, 32, 1, 4096, 96][12582912, 393216, 393216, 96, 1]cuda:0" = PlaceHolder[target=expand_7]
#   %slice_10 : Tensor "bf16[4, 32, 1, 1, 96][12582912, 393216, 393216, 96, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%arg7_1, 3, 4095, 4096), kwargs = {})
#   %slice_3 : Tensor "bf16[4, 3072][9216, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%mm, 1, 6144, 9216), kwargs = {})
#   %view_2 : Tensor "bf16[4, 32, 1, 1, 96][9216, 96, 96, 96, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%slice_3, [4, 32, 1, 1, 96]), kwargs = {})
#   %copy_1 : Tensor "bf16[4, 32, 1, 1, 96][12582912, 393216, 393216, 96, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.copy.default](args = (%slice_10, %view_2), kwargs = {})
#   %slice_tensor_1 : Tensor "bf16[4, 32, 1, 1, 96][12582912, 393216, 393216, 96, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%arg7_1, 3, 4095, 4096), kwargs = {})
#   %copy__default_1 : Tensor "bf16[4, 32, 1, 1, 96][12582912, 393216, 393216, 96, 1]cuda:0"[num_users=0] = call_function[target=torch.ops.aten.copy_.default](args = (%slice_tensor_1, %copy_1), kwargs = {})
#   return %buf9
triton_poi_fused_copy_slice_view_1 = async_compile.triton('triton_poi_fused_copy_slice_view_1', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 16384}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'out_ptr0': '*bf16', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_copy_slice_view_1', 'mutated_arg_names': ['out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 73728}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_copy_slice_view_1(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 12288
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x2 = xindex // 3072
    x3 = (xindex % 3072)
    x0 = (xindex % 96)
    x4 = xindex // 96
    tmp0 = tl.load(in_ptr0 + (6144 + x3 + 9216*x2), None).to(tl.float32)
    tl.store(out_ptr0 + (393120 + x0 + 393216*x4), tmp0, None)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/xp/cxpug3vo34jeqopbaauk4ev27zztesvpiq5agi7s5kwloebpxhxd.py
# Topologically Sorted Source Nodes: [layers_0_q, layers_0_qh, layers_0_q_rope_c, layers_0_q_rope_t2, layers_0_q_rope_t2n, layers_0_q_rope_t1, layers_0_q_rope_tr, layers_0_q_rope_s, layers_0_qr, setitem, layers_0_k, layers_0_kh, layers_0_k_rope_c, layers_0_k_rope_t2, layers_0_k_rope_t2n, layers_0_k_rope_t1, layers_0_k_rope_tr, layers_0_k_rope_s, layers_0_kr], Original ATen: [aten.slice, aten.view, aten.mul, aten.cat, aten.add, aten.copy]
# Source node to ATen node mapping:
#   layers_0_k => slice_2
#   layers_0_k_rope_c => mul_6
#   layers_0_k_rope_s => mul_7
#   layers_0_k_rope_t1 => slice_6
#   layers_0_k_rope_t2 => slice_7
#   layers_0_k_rope_t2n => mul_5
#   layers_0_k_rope_tr => cat_1
#   layers_0_kh => view_1
#   layers_0_kr => add_2
#   layers_0_q => slice_1
#   layers_0_q_rope_c => mul_3
#   layers_0_q_rope_s => mul_4
#   layers_0_q_rope_t1 => slice_4
#   layers_0_q_rope_t2 => slice_5
#   layers_0_q_rope_t2n => mul_2
#   layers_0_q_rope_tr => cat
#   layers_0_qh => view
#   layers_0_qr => add_1
#   setitem => copy, slice_8
# Graph fragment:
#   %mm : Tensor "bf16[4, 9216][9216, 1]cuda:0" = PlaceHolder[target=mm]
#   %arg4_1 : Tensor "bf16[1, 96][96, 1]cuda:0" = PlaceHolder[target=arg4_1]
#   %arg5_1 : Tensor "bf16[1, 96][96, 1]cuda:0" = PlaceHolder[target=arg5_1]
#   %copy : Tensor "bf16[4, 32, 1, 1, 96][3072, 96, 12288, 12288, 1]cuda:0" = PlaceHolder[target=copy]
#   %arg6_1 : Tensor "bf16[4, 32, 1, 4096, 96][12582912, 393216, 393216, 96, 1]cuda:0" = PlaceHolder[target=arg6_1]
#   %slice_1 : Tensor "bf16[4, 3072][9216, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%mm, 1, 0, 3072), kwargs = {})
#   %view : Tensor "bf16[4, 32, 1, 1, 96][9216, 96, 96, 96, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.reshape.default](args = (%slice_1, [4, 32, 1, 1, 96]), kwargs = {})
#   %mul_3 : Tensor "bf16[4, 32, 1, 1, 96][3072, 96, 96, 96, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view, %arg4_1), kwargs = {})
#   %slice_5 : Tensor "bf16[4, 32, 1, 1, 48][9216, 96, 96, 96, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%view, 4, 48, 96), kwargs = {})
#   %mul_2 : Tensor "bf16[4, 32, 1, 1, 48][1536, 48, 48, 48, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%slice_5, -1), kwargs = {})
#   %slice_4 : Tensor "bf16[4, 32, 1, 1, 48][9216, 96, 96, 96, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%view, 4, 0, 48), kwargs = {})
#   %cat : Tensor "bf16[4, 32, 1, 1, 96][3072, 96, 96, 96, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%mul_2, %slice_4], -1), kwargs = {})
#   %mul_4 : Tensor "bf16[4, 32, 1, 1, 96][3072, 96, 96, 96, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%cat, %arg5_1), kwargs = {})
#   %add_1 : Tensor "bf16[4, 32, 1, 1, 96][3072, 96, 96, 96, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_3, %mul_4), kwargs = {})
#   %slice_8 : Tensor "bf16[4, 32, 1, 1, 96][12582912, 393216, 393216, 96, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%arg6_1, 3, 4095, 4096), kwargs = {})
#   %slice_2 : Tensor "bf16[4, 3072][9216, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%mm, 1, 3072, 6144), kwargs = {})
#   %view_1 : Tensor "bf16[4, 32, 1, 1, 96][9216, 96, 96, 96, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.reshape.default](args = (%slice_2, [4, 32, 1, 1, 96]), kwargs = {})
#   %mul_6 : Tensor "bf16[4, 32, 1, 1, 96][3072, 96, 96, 96, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_1, %arg4_1), kwargs = {})
#   %slice_7 : Tensor "bf16[4, 32, 1, 1, 48][9216, 96, 96, 96, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%view_1, 4, 48, 96), kwargs = {})
#   %mul_5 : Tensor "bf16[4, 32, 1, 1, 48][1536, 48, 48, 48, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%slice_7, -1), kwargs = {})
#   %slice_6 : Tensor "bf16[4, 32, 1, 1, 48][9216, 96, 96, 96, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%view_1, 4, 0, 48), kwargs = {})
#   %cat_1 : Tensor "bf16[4, 32, 1, 1, 96][3072, 96, 96, 96, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%mul_5, %slice_6], -1), kwargs = {})
#   %mul_7 : Tensor "bf16[4, 32, 1, 1, 96][3072, 96, 96, 96, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%cat_1, %arg5_1), kwargs = {})
#   %add_2 : Tensor "bf16[4, 32, 1, 1, 96][3072, 96, 96, 96, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_6, %mul_7), kwargs = {})
#   %copy : Tensor "bf16[4, 32, 1, 1, 96][12582912, 393216, 393216, 96, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.copy.default](args = (%slice_8, %add_2), kwargs = {})
#   %slice_tensor : Tensor "bf16[4, 32, 1, 1, 96][12582912, 393216, 393216, 96, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%arg6_1, 3, 4095, 4096), kwargs = {})
#   %copy__default : Tensor "bf16[4, 32, 1, 1, 96][12582912, 393216, 393216, 96, 1]cuda:0"[num_users=0] = call_function[target=torch.ops.aten.copy_.default](args = (%slice_tensor, %copy), kwargs = {})
#   return %copy,%buf4,%expand
triton_poi_fused_add_cat_copy_mul_slice_view_2 = async_compile.triton('triton_poi_fused_add_cat_copy_mul_slice_view_2', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 16384}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'in_ptr2': '*bf16', 'out_ptr1': '*bf16', 'out_ptr2': '*bf16', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_add_cat_copy_mul_slice_view_2', 'mutated_arg_names': ['out_ptr1'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 8, 'num_store': 2, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 246144}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_add_cat_copy_mul_slice_view_2(in_ptr0, in_ptr1, in_ptr2, out_ptr1, out_ptr2, xnumel, XBLOCK : tl.constexpr):
    xnumel = 12288
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x2 = xindex // 3072
    x4 = (xindex % 3072)
    x0 = (xindex % 96)
    x1 = ((xindex // 96) % 32)
    x5 = xindex
    x3 = xindex // 96
    tmp0 = tl.load(in_ptr0 + (3072 + x4 + 9216*x2), None).to(tl.float32)
    tmp1 = tl.load(in_ptr1 + (x0), None, eviction_policy='evict_last').to(tl.float32)
    tmp18 = tl.load(in_ptr2 + (x0), None, eviction_policy='evict_last').to(tl.float32)
    tmp21 = tl.load(in_ptr0 + (x4 + 9216*x2), None).to(tl.float32)
    tmp2 = tmp0 * tmp1
    tmp3 = x0
    tmp4 = tl.full([1], 0, tl.int64)
    tmp5 = tmp3 >= tmp4
    tmp6 = tl.full([1], 48, tl.int64)
    tmp7 = tmp3 < tmp6
    tmp8 = tl.load(in_ptr0 + (3120 + 96*x1 + 9216*x2 + (x0)), tmp7, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp9 = tl.full([1], -1.0, tl.float32)
    tmp10 = tmp8 * tmp9
    tmp11 = tl.full(tmp10.shape, 0.0, tmp10.dtype)
    tmp12 = tl.where(tmp7, tmp10, tmp11)
    tmp13 = tmp3 >= tmp6
    tmp14 = tl.full([1], 96, tl.int64)
    tmp15 = tmp3 < tmp14
    tmp16 = tl.load(in_ptr0 + (3072 + 96*x1 + 9216*x2 + ((-48) + x0)), tmp13, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp17 = tl.where(tmp7, tmp12, tmp16)
    tmp19 = tmp17 * tmp18
    tmp20 = tmp2 + tmp19
    tmp22 = tmp21 * tmp1
    tmp23 = tl.load(in_ptr0 + (48 + 96*x1 + 9216*x2 + (x0)), tmp7, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp24 = tmp23 * tmp9
    tmp25 = tl.full(tmp24.shape, 0.0, tmp24.dtype)
    tmp26 = tl.where(tmp7, tmp24, tmp25)
    tmp27 = tl.load(in_ptr0 + (96*x1 + 9216*x2 + ((-48) + x0)), tmp13, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp28 = tl.where(tmp7, tmp26, tmp27)
    tmp29 = tmp28 * tmp18
    tmp30 = tmp22 + tmp29
    tl.store(out_ptr1 + (393120 + x0 + 393216*x3), tmp20, None)
    tl.store(out_ptr2 + (x5), tmp30, None)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/k3/ck35k56yjo7cmdtzojmoviuxyzycxb5sspiccbbejd5y2u23vbdr.py
# Topologically Sorted Source Nodes: [masked_fill, layers_0_sc, layers_0_scs, layers_0_p], Original ATen: [aten.masked_fill, aten.view, aten.mul, aten._softmax, prims.prepare_softmax_online, aten.sub, aten.exp]
# Source node to ATen node mapping:
#   layers_0_p => convert_element_type_6, convert_element_type_7, div
#   layers_0_sc => view_6
#   layers_0_scs => mul_8
#   masked_fill => full_default, where
# Graph fragment:
#   %arg8_1 : Tensor "b8[1, 4096][4096, 1]cuda:0" = PlaceHolder[target=arg8_1]
#   %bmm : Tensor "bf16[128, 1, 4096][4096, 4096, 1]cuda:0" = PlaceHolder[target=bmm]
#   %getitem_6 : Tensor "f32[4, 32, 1, 1, 1][32, 1, 128, 128, 128]cuda:0" = PlaceHolder[target=getitem_6]
#   %getitem_7 : Tensor "f32[4, 32, 1, 1, 1][32, 1, 128, 128, 128]cuda:0" = PlaceHolder[target=getitem_7]
#   %full_default : Tensor "bf16[][]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([], -inf), kwargs = {dtype: torch.bfloat16, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %view_6 : Tensor "bf16[4, 32, 1, 1, 4096][131072, 4096, 4096, 4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%bmm, [4, 32, 1, 1, 4096]), kwargs = {})
#   %mul_8 : Tensor "bf16[4, 32, 1, 1, 4096][131072, 4096, 4096, 4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_6, 0.10206207261596575), kwargs = {})
#   %where : Tensor "bf16[4, 32, 1, 1, 4096][131072, 4096, 4096, 4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.where.self](args = (%arg8_1, %full_default, %mul_8), kwargs = {})
#   %convert_element_type_6 : Tensor "f32[4, 32, 1, 1, 4096][131072, 4096, 4096, 4096, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%where, torch.float32), kwargs = {})
#   %prepare_softmax_online_default_3 : [num_users=2] = call_function[target=torch.ops.prims.prepare_softmax_online.default](args = (%convert_element_type_6, -1), kwargs = {})
#   %sub_tensor_3 : Tensor "f32[4, 32, 1, 1, 4096][131072, 4096, 4096, 4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%convert_element_type_6, %getitem_6), kwargs = {})
#   %exp_default_3 : Tensor "f32[4, 32, 1, 1, 4096][131072, 4096, 4096, 4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%sub_tensor_3,), kwargs = {})
#   %div : Tensor "f32[4, 32, 1, 1, 4096][131072, 4096, 4096, 4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%exp_default_3, %getitem_7), kwargs = {})
#   %convert_element_type_7 : Tensor "bf16[4, 32, 1, 1, 4096][131072, 4096, 4096, 4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%div, torch.bfloat16), kwargs = {})
#   return %getitem_6,%getitem_7,%expand_4
triton_red_fused__softmax_exp_masked_fill_mul_prepare_softmax_online_sub_view_3 = async_compile.triton('triton_red_fused__softmax_exp_masked_fill_mul_prepare_softmax_online_sub_view_3', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.reduction(
    size_hints={'x': 128, 'r0_': 4096},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*bf16', 'in_ptr0': '*i1', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused__softmax_exp_masked_fill_mul_prepare_softmax_online_sub_view_3', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 4, 'num_store': 1, 'num_reduction': 2, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'add_persistent_rblock': True, 'tiling_scores': {'x': 0, 'r0_': 3149824}}
)
@triton.jit
def triton_red_fused__softmax_exp_masked_fill_mul_prepare_softmax_online_sub_view_3(in_out_ptr0, in_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 128
    r0_numel = 4096
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    _tmp8_max = tl.full([XBLOCK, R0_BLOCK], float('-inf'), tl.float32)
    _tmp8_sum = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.int1)
        tmp1 = tl.load(in_out_ptr0 + (r0_1 + 4096*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp2 = tl.full([1, 1], 0.10206207261596575, tl.float32)
        tmp3 = tmp1 * tmp2
        tmp4 = tl.full([1, 1], float("-inf"), tl.float32)
        tmp5 = tl.where(tmp0, tmp4, tmp3)
        tmp6 = tmp5.to(tl.float32)
        tmp7 = tl.broadcast_to(tmp6, [XBLOCK, R0_BLOCK])

        _tmp8_max_next, _tmp8_sum_next = triton_helpers.online_softmax_combine(
            _tmp8_max, _tmp8_sum, tmp7, False
        )

        _tmp8_max = tl.where(r0_mask & xmask, _tmp8_max_next, _tmp8_max)
        _tmp8_sum = tl.where(r0_mask & xmask, _tmp8_sum_next, _tmp8_sum)

    tmp8, tmp9 = triton_helpers.online_softmax_reduce(
        _tmp8_max, _tmp8_sum, 1, False)
    tmp8 = tmp8[:, None]
    tmp9 = tmp9[:, None]
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp10 = tl.load(in_ptr0 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.int1)
        tmp11 = tl.load(in_out_ptr0 + (r0_1 + 4096*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp12 = tl.full([1, 1], 0.10206207261596575, tl.float32)
        tmp13 = tmp11 * tmp12
        tmp14 = tl.full([1, 1], float("-inf"), tl.float32)
        tmp15 = tl.where(tmp10, tmp14, tmp13)
        tmp16 = tmp15.to(tl.float32)
        tmp17 = tmp16 - tmp8
        tmp18 = libdevice.exp(tmp17)
        tmp19 = (tmp18 / tmp9)
        tmp20 = tmp19.to(tl.float32)
        tl.store(in_out_ptr0 + (r0_1 + 4096*x0), tmp20, r0_mask & xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/7d/c7ddwmvetovxtkcnzxl6dtsarmldg2rz7krwbpnnxkxx4alox4lg.py
# Topologically Sorted Source Nodes: [x0, layers_0_h, layers_0_mlp_xn], Original ATen: [aten.index_select, aten.add, aten._fused_rms_norm]
# Source node to ATen node mapping:
#   layers_0_h => add_3
#   layers_0_mlp_xn => add_4, convert_element_type_12, convert_element_type_13, mean_1, mul_10, mul_9, pow_2, rsqrt_1
#   x0 => index
# Graph fragment:
#   %mm_1 : Tensor "bf16[4, 3072][3072, 1]cuda:0" = PlaceHolder[target=mm_1]
#   %arg1_1 : Tensor "i32[4][1]cuda:0" = PlaceHolder[target=arg1_1]
#   %arg0_1 : Tensor "bf16[32064, 3072][3072, 1]cuda:0" = PlaceHolder[target=arg0_1]
#   %buf13 : Tensor "f32[4, 1][1, 4]cuda:0" = PlaceHolder[target=buf13]
#   %arg10_1 : Tensor "bf16[3072][1]cuda:0" = PlaceHolder[target=arg10_1]
#   %index : Tensor "bf16[4, 3072][3072, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.index.Tensor](args = (%arg0_1, [%arg1_1]), kwargs = {})
#   %add_3 : Tensor "bf16[4, 3072][3072, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%mm_1, %index), kwargs = {})
#   %convert_element_type_12 : Tensor "f32[4, 3072][3072, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_3, torch.float32), kwargs = {})
#   %pow_2 : Tensor "f32[4, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%convert_element_type_12, 2), kwargs = {})
#   %mean_1 : Tensor "f32[4, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%pow_2, [1], True), kwargs = {})
#   %add_4 : Tensor "f32[4, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Scalar](args = (%mean_1, 1e-05), kwargs = {})
#   %rsqrt_1 : Tensor "f32[4, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_4,), kwargs = {})
#   %mul_9 : Tensor "f32[4, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_12, %rsqrt_1), kwargs = {})
#   %mul_10 : Tensor "f32[4, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_9, %arg10_1), kwargs = {})
#   %convert_element_type_13 : Tensor "bf16[4, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_10, torch.bfloat16), kwargs = {})
#   return %buf13,%convert_element_type_13
triton_red_fused__fused_rms_norm_add_index_select_4 = async_compile.triton('triton_red_fused__fused_rms_norm_add_index_select_4', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.reduction(
    size_hints={'x': 4, 'r0_': 4096},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*i32', 'in_ptr2': '*bf16', 'in_ptr3': '*bf16', 'out_ptr1': '*bf16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused__fused_rms_norm_add_index_select_4', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 4, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'add_persistent_rblock': True, 'tiling_scores': {'x': 8, 'r0_': 79872}}
)
@triton.jit
def triton_red_fused__fused_rms_norm_add_index_select_4(in_ptr0, in_ptr1, in_ptr2, in_ptr3, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 4
    r0_numel = 3072
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    tmp1 = tl.load(in_ptr1 + (x0), xmask, eviction_policy='evict_last')
    _tmp12 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_1 + 3072*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp2 = tl.full([1, 1], 32064, tl.int32)
        tmp3 = tmp1 + tmp2
        tmp4 = tmp1 < 0
        tmp5 = tl.where(tmp4, tmp3, tmp1)
        tl.device_assert(((0 <= tmp5) & (tmp5 < 32064)) | ~(xmask), "index out of bounds: 0 <= tmp5 < 32064")
        tmp7 = tl.load(in_ptr2 + (r0_1 + 3072*tmp5), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp8 = tmp0 + tmp7
        tmp9 = tmp8.to(tl.float32)
        tmp10 = tmp9 * tmp9
        tmp11 = tl.broadcast_to(tmp10, [XBLOCK, R0_BLOCK])
        tmp13 = _tmp12 + tmp11
        _tmp12 = tl.where(r0_mask & xmask, tmp13, _tmp12)
    tmp12 = tl.sum(_tmp12, 1)[:, None]
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp14 = tl.load(in_ptr0 + (r0_1 + 3072*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp29 = tl.load(in_ptr3 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp15 = tl.full([1, 1], 32064, tl.int32)
        tmp16 = tmp1 + tmp15
        tmp17 = tmp1 < 0
        tmp18 = tl.where(tmp17, tmp16, tmp1)
        tl.device_assert(((0 <= tmp18) & (tmp18 < 32064)) | ~(xmask), "index out of bounds: 0 <= tmp18 < 32064")
        tmp20 = tl.load(in_ptr2 + (r0_1 + 3072*tmp18), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp21 = tmp14 + tmp20
        tmp22 = tmp21.to(tl.float32)
        tmp23 = tl.full([1, 1], 3072.0, tl.float32)
        tmp24 = (tmp12 / tmp23)
        tmp25 = tl.full([1, 1], 1e-05, tl.float32)
        tmp26 = tmp24 + tmp25
        tmp27 = libdevice.rsqrt(tmp26)
        tmp28 = tmp22 * tmp27
        tmp30 = tmp29.to(tl.float32)
        tmp31 = tmp28 * tmp30
        tmp32 = tmp31.to(tl.float32)
        tl.store(out_ptr1 + (r0_1 + 3072*x0), tmp32, r0_mask & xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/kj/ckjccbq3xktzezabjaoh3uobw6xoby7ododcjbtgg4xlzxyp4mzv.py
# Topologically Sorted Source Nodes: [layers_0_mlp_g, layers_0_mlp_gs, layers_0_mlp_u, layers_0_mlp_m], Original ATen: [aten.slice, aten.silu, aten.mul]
# Source node to ATen node mapping:
#   layers_0_mlp_g => slice_12
#   layers_0_mlp_gs => add_5, convert_element_type_16, convert_element_type_17, div_1, exp_1, neg
#   layers_0_mlp_m => mul_11
#   layers_0_mlp_u => slice_13
# Graph fragment:
#   %mm_2 : Tensor "bf16[4, 16384][16384, 1]cuda:0" = PlaceHolder[target=mm_2]
#   %slice_12 : Tensor "bf16[4, 8192][16384, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%mm_2, 1, 0, 8192), kwargs = {})
#   %convert_element_type_16 : Tensor "f32[4, 8192][8192, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%slice_12, torch.float32), kwargs = {})
#   %neg : Tensor "f32[4, 8192][8192, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%convert_element_type_16,), kwargs = {})
#   %exp_1 : Tensor "f32[4, 8192][8192, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%neg,), kwargs = {})
#   %add_5 : Tensor "f32[4, 8192][8192, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%exp_1, 1), kwargs = {})
#   %div_1 : Tensor "f32[4, 8192][8192, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%convert_element_type_16, %add_5), kwargs = {})
#   %convert_element_type_17 : Tensor "bf16[4, 8192][8192, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%div_1, torch.bfloat16), kwargs = {})
#   %slice_13 : Tensor "bf16[4, 8192][16384, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%mm_2, 1, 8192, 16384), kwargs = {})
#   %mul_11 : Tensor "bf16[4, 8192][8192, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_17, %slice_13), kwargs = {})
#   return %mul_11
triton_poi_fused_mul_silu_slice_5 = async_compile.triton('triton_poi_fused_mul_silu_slice_5', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 32768}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'out_ptr0': '*bf16', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_mul_silu_slice_5', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 262144}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_mul_silu_slice_5(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 32768
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = (xindex % 8192)
    x1 = xindex // 8192
    x2 = xindex
    tmp0 = tl.load(in_ptr0 + (x0 + 16384*x1), None).to(tl.float32)
    tmp8 = tl.load(in_ptr0 + (8192 + x0 + 16384*x1), None).to(tl.float32)
    tmp1 = tmp0.to(tl.float32)
    tmp2 = -tmp1
    tmp3 = libdevice.exp(tmp2)
    tmp4 = tl.full([1], 1.0, tl.float32)
    tmp5 = tmp3 + tmp4
    tmp6 = (tmp1 / tmp5)
    tmp7 = tmp6.to(tl.float32)
    tmp9 = tmp7 * tmp8
    tl.store(out_ptr0 + (x2), tmp9, None)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/si/csiwe5mqc7izq7hvso6lwgeqmqwtn37vq6m3yfnzwycfc3ochw5e.py
# Topologically Sorted Source Nodes: [x0, layers_0_h, layers_0_y, layers_1_xn], Original ATen: [aten.index_select, aten.add, aten._fused_rms_norm]
# Source node to ATen node mapping:
#   layers_0_h => add_3
#   layers_0_y => add_6
#   layers_1_xn => add_7, convert_element_type_20, convert_element_type_21, mean_2, mul_12, mul_13, pow_3, rsqrt_2
#   x0 => index
# Graph fragment:
#   %mm_3 : Tensor "bf16[4, 3072][3072, 1]cuda:0" = PlaceHolder[target=mm_3]
#   %mm_1 : Tensor "bf16[4, 3072][3072, 1]cuda:0" = PlaceHolder[target=mm_1]
#   %arg1_1 : Tensor "i32[4][1]cuda:0" = PlaceHolder[target=arg1_1]
#   %arg0_1 : Tensor "bf16[32064, 3072][3072, 1]cuda:0" = PlaceHolder[target=arg0_1]
#   %buf18 : Tensor "f32[4, 1][1, 4]cuda:0" = PlaceHolder[target=buf18]
#   %arg13_1 : Tensor "bf16[3072][1]cuda:0" = PlaceHolder[target=arg13_1]
#   %index : Tensor "bf16[4, 3072][3072, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.index.Tensor](args = (%arg0_1, [%arg1_1]), kwargs = {})
#   %add_3 : Tensor "bf16[4, 3072][3072, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%mm_1, %index), kwargs = {})
#   %add_6 : Tensor "bf16[4, 3072][3072, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%mm_3, %add_3), kwargs = {})
#   %convert_element_type_20 : Tensor "f32[4, 3072][3072, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_6, torch.float32), kwargs = {})
#   %pow_3 : Tensor "f32[4, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%convert_element_type_20, 2), kwargs = {})
#   %mean_2 : Tensor "f32[4, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%pow_3, [1], True), kwargs = {})
#   %add_7 : Tensor "f32[4, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Scalar](args = (%mean_2, 1e-05), kwargs = {})
#   %rsqrt_2 : Tensor "f32[4, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_7,), kwargs = {})
#   %mul_12 : Tensor "f32[4, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_20, %rsqrt_2), kwargs = {})
#   %mul_13 : Tensor "f32[4, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_12, %arg13_1), kwargs = {})
#   %convert_element_type_21 : Tensor "bf16[4, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_13, torch.bfloat16), kwargs = {})
#   return %buf18,%convert_element_type_21
triton_red_fused__fused_rms_norm_add_index_select_6 = async_compile.triton('triton_red_fused__fused_rms_norm_add_index_select_6', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.reduction(
    size_hints={'x': 4, 'r0_': 4096},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'in_ptr2': '*i32', 'in_ptr3': '*bf16', 'in_ptr4': '*bf16', 'out_ptr1': '*bf16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused__fused_rms_norm_add_index_select_6', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 6, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'add_persistent_rblock': True, 'tiling_scores': {'x': 8, 'r0_': 104448}}
)
@triton.jit
def triton_red_fused__fused_rms_norm_add_index_select_6(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 4
    r0_numel = 3072
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    tmp2 = tl.load(in_ptr2 + (x0), xmask, eviction_policy='evict_last')
    _tmp14 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_1 + 3072*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp1 = tl.load(in_ptr1 + (r0_1 + 3072*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp3 = tl.full([1, 1], 32064, tl.int32)
        tmp4 = tmp2 + tmp3
        tmp5 = tmp2 < 0
        tmp6 = tl.where(tmp5, tmp4, tmp2)
        tl.device_assert(((0 <= tmp6) & (tmp6 < 32064)) | ~(xmask), "index out of bounds: 0 <= tmp6 < 32064")
        tmp8 = tl.load(in_ptr3 + (r0_1 + 3072*tmp6), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp9 = tmp1 + tmp8
        tmp10 = tmp0 + tmp9
        tmp11 = tmp10.to(tl.float32)
        tmp12 = tmp11 * tmp11
        tmp13 = tl.broadcast_to(tmp12, [XBLOCK, R0_BLOCK])
        tmp15 = _tmp14 + tmp13
        _tmp14 = tl.where(r0_mask & xmask, tmp15, _tmp14)
    tmp14 = tl.sum(_tmp14, 1)[:, None]
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp16 = tl.load(in_ptr0 + (r0_1 + 3072*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp17 = tl.load(in_ptr1 + (r0_1 + 3072*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp33 = tl.load(in_ptr4 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp18 = tl.full([1, 1], 32064, tl.int32)
        tmp19 = tmp2 + tmp18
        tmp20 = tmp2 < 0
        tmp21 = tl.where(tmp20, tmp19, tmp2)
        tl.device_assert(((0 <= tmp21) & (tmp21 < 32064)) | ~(xmask), "index out of bounds: 0 <= tmp21 < 32064")
        tmp23 = tl.load(in_ptr3 + (r0_1 + 3072*tmp21), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp24 = tmp17 + tmp23
        tmp25 = tmp16 + tmp24
        tmp26 = tmp25.to(tl.float32)
        tmp27 = tl.full([1, 1], 3072.0, tl.float32)
        tmp28 = (tmp14 / tmp27)
        tmp29 = tl.full([1, 1], 1e-05, tl.float32)
        tmp30 = tmp28 + tmp29
        tmp31 = libdevice.rsqrt(tmp30)
        tmp32 = tmp26 * tmp31
        tmp34 = tmp33.to(tl.float32)
        tmp35 = tmp32 * tmp34
        tmp36 = tmp35.to(tl.float32)
        tl.store(out_ptr1 + (r0_1 + 3072*x0), tmp36, r0_mask & xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/57/c57c2cwhrc7chgsca3jtprywdf2d6bi2uahzllrtthzkkccwac2g.py
# Topologically Sorted Source Nodes: [x0, layers_0_h, layers_0_y, layers_1_h, layers_1_mlp_xn], Original ATen: [aten.index_select, aten.add, aten._fused_rms_norm]
# Source node to ATen node mapping:
#   layers_0_h => add_3
#   layers_0_y => add_6
#   layers_1_h => add_10
#   layers_1_mlp_xn => add_11, convert_element_type_32, convert_element_type_33, mean_3, mul_21, mul_22, pow_4, rsqrt_3
#   x0 => index
# Graph fragment:
#   %mm_5 : Tensor "bf16[4, 3072][3072, 1]cuda:0" = PlaceHolder[target=mm_5]
#   %mm_3 : Tensor "bf16[4, 3072][3072, 1]cuda:0" = PlaceHolder[target=mm_3]
#   %mm_1 : Tensor "bf16[4, 3072][3072, 1]cuda:0" = PlaceHolder[target=mm_1]
#   %arg1_1 : Tensor "i32[4][1]cuda:0" = PlaceHolder[target=arg1_1]
#   %arg0_1 : Tensor "bf16[32064, 3072][3072, 1]cuda:0" = PlaceHolder[target=arg0_1]
#   %add_10 : Tensor "bf16[4, 3072][3072, 1]cuda:0" = PlaceHolder[target=add_10]
#   %buf32 : Tensor "f32[4, 1][1, 4]cuda:0" = PlaceHolder[target=buf32]
#   %arg19_1 : Tensor "bf16[3072][1]cuda:0" = PlaceHolder[target=arg19_1]
#   %index : Tensor "bf16[4, 3072][3072, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.index.Tensor](args = (%arg0_1, [%arg1_1]), kwargs = {})
#   %add_3 : Tensor "bf16[4, 3072][3072, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%mm_1, %index), kwargs = {})
#   %add_6 : Tensor "bf16[4, 3072][3072, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%mm_3, %add_3), kwargs = {})
#   %add_10 : Tensor "bf16[4, 3072][3072, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%mm_5, %add_6), kwargs = {})
#   %convert_element_type_32 : Tensor "f32[4, 3072][3072, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_10, torch.float32), kwargs = {})
#   %pow_4 : Tensor "f32[4, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%convert_element_type_32, 2), kwargs = {})
#   %mean_3 : Tensor "f32[4, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%pow_4, [1], True), kwargs = {})
#   %add_11 : Tensor "f32[4, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Scalar](args = (%mean_3, 1e-05), kwargs = {})
#   %rsqrt_3 : Tensor "f32[4, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_11,), kwargs = {})
#   %mul_21 : Tensor "f32[4, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_32, %rsqrt_3), kwargs = {})
#   %mul_22 : Tensor "f32[4, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_21, %arg19_1), kwargs = {})
#   %convert_element_type_33 : Tensor "bf16[4, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_22, torch.bfloat16), kwargs = {})
#   return %add_10,%buf32,%convert_element_type_33
triton_red_fused__fused_rms_norm_add_index_select_7 = async_compile.triton('triton_red_fused__fused_rms_norm_add_index_select_7', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.reduction(
    size_hints={'x': 4, 'r0_': 4096},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*bf16', 'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'in_ptr2': '*i32', 'in_ptr3': '*bf16', 'in_ptr4': '*bf16', 'out_ptr1': '*bf16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused__fused_rms_norm_add_index_select_7', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 6, 'num_store': 2, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 8, 'r0_': 178176}}
)
@triton.jit
def triton_red_fused__fused_rms_norm_add_index_select_7(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 4
    r0_numel = 3072
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    tmp3 = tl.load(in_ptr2 + (x0), xmask, eviction_policy='evict_last')
    _tmp16 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = tl.load(in_out_ptr0 + (r0_1 + 3072*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp1 = tl.load(in_ptr0 + (r0_1 + 3072*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp2 = tl.load(in_ptr1 + (r0_1 + 3072*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp4 = tl.full([1, 1], 32064, tl.int32)
        tmp5 = tmp3 + tmp4
        tmp6 = tmp3 < 0
        tmp7 = tl.where(tmp6, tmp5, tmp3)
        tl.device_assert(((0 <= tmp7) & (tmp7 < 32064)) | ~(xmask), "index out of bounds: 0 <= tmp7 < 32064")
        tmp9 = tl.load(in_ptr3 + (r0_1 + 3072*tmp7), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp10 = tmp2 + tmp9
        tmp11 = tmp1 + tmp10
        tmp12 = tmp0 + tmp11
        tmp13 = tmp12.to(tl.float32)
        tmp14 = tmp13 * tmp13
        tmp15 = tl.broadcast_to(tmp14, [XBLOCK, R0_BLOCK])
        tmp17 = _tmp16 + tmp15
        _tmp16 = tl.where(r0_mask & xmask, tmp17, _tmp16)
        tl.store(in_out_ptr0 + (r0_1 + 3072*x0), tmp12, r0_mask & xmask)
    tmp16 = tl.sum(_tmp16, 1)[:, None]
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp18 = tl.load(in_out_ptr0 + (r0_1 + 3072*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp26 = tl.load(in_ptr4 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp19 = tmp18.to(tl.float32)
        tmp20 = tl.full([1, 1], 3072.0, tl.float32)
        tmp21 = (tmp16 / tmp20)
        tmp22 = tl.full([1, 1], 1e-05, tl.float32)
        tmp23 = tmp21 + tmp22
        tmp24 = libdevice.rsqrt(tmp23)
        tmp25 = tmp19 * tmp24
        tmp27 = tmp26.to(tl.float32)
        tmp28 = tmp25 * tmp27
        tmp29 = tmp28.to(tl.float32)
        tl.store(out_ptr1 + (r0_1 + 3072*x0), tmp29, r0_mask & xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/3o/c3oxcng7nxrcrwd63r574pqczifl4w2homjhf5rcwhnc4cbwll5j.py
# Topologically Sorted Source Nodes: [layers_1_y, layers_2_xn], Original ATen: [aten.add, aten._fused_rms_norm]
# Source node to ATen node mapping:
#   layers_1_y => add_13
#   layers_2_xn => add_14, convert_element_type_40, convert_element_type_41, mean_4, mul_24, mul_25, pow_5, rsqrt_4
# Graph fragment:
#   %mm_7 : Tensor "bf16[4, 3072][3072, 1]cuda:0" = PlaceHolder[target=mm_7]
#   %add_10 : Tensor "bf16[4, 3072][3072, 1]cuda:0" = PlaceHolder[target=add_10]
#   %buf37 : Tensor "f32[4, 1][1, 4]cuda:0" = PlaceHolder[target=buf37]
#   %arg22_1 : Tensor "bf16[3072][1]cuda:0" = PlaceHolder[target=arg22_1]
#   %add_13 : Tensor "bf16[4, 3072][3072, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%mm_7, %add_10), kwargs = {})
#   %convert_element_type_40 : Tensor "f32[4, 3072][3072, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_13, torch.float32), kwargs = {})
#   %pow_5 : Tensor "f32[4, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%convert_element_type_40, 2), kwargs = {})
#   %mean_4 : Tensor "f32[4, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%pow_5, [1], True), kwargs = {})
#   %add_14 : Tensor "f32[4, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Scalar](args = (%mean_4, 1e-05), kwargs = {})
#   %rsqrt_4 : Tensor "f32[4, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_14,), kwargs = {})
#   %mul_24 : Tensor "f32[4, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_40, %rsqrt_4), kwargs = {})
#   %mul_25 : Tensor "f32[4, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_24, %arg22_1), kwargs = {})
#   %convert_element_type_41 : Tensor "bf16[4, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_25, torch.bfloat16), kwargs = {})
#   return %buf37,%convert_element_type_41
triton_red_fused__fused_rms_norm_add_8 = async_compile.triton('triton_red_fused__fused_rms_norm_add_8', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.reduction(
    size_hints={'x': 4, 'r0_': 4096},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'in_ptr2': '*bf16', 'out_ptr1': '*bf16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused__fused_rms_norm_add_8', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 5, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'add_persistent_rblock': True, 'tiling_scores': {'x': 0, 'r0_': 104448}}
)
@triton.jit
def triton_red_fused__fused_rms_norm_add_8(in_ptr0, in_ptr1, in_ptr2, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 4
    r0_numel = 3072
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    _tmp6 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_1 + 3072*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp1 = tl.load(in_ptr1 + (r0_1 + 3072*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp2 = tmp0 + tmp1
        tmp3 = tmp2.to(tl.float32)
        tmp4 = tmp3 * tmp3
        tmp5 = tl.broadcast_to(tmp4, [XBLOCK, R0_BLOCK])
        tmp7 = _tmp6 + tmp5
        _tmp6 = tl.where(r0_mask & xmask, tmp7, _tmp6)
    tmp6 = tl.sum(_tmp6, 1)[:, None]
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp8 = tl.load(in_ptr0 + (r0_1 + 3072*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp9 = tl.load(in_ptr1 + (r0_1 + 3072*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp18 = tl.load(in_ptr2 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp10 = tmp8 + tmp9
        tmp11 = tmp10.to(tl.float32)
        tmp12 = tl.full([1, 1], 3072.0, tl.float32)
        tmp13 = (tmp6 / tmp12)
        tmp14 = tl.full([1, 1], 1e-05, tl.float32)
        tmp15 = tmp13 + tmp14
        tmp16 = libdevice.rsqrt(tmp15)
        tmp17 = tmp11 * tmp16
        tmp19 = tmp18.to(tl.float32)
        tmp20 = tmp17 * tmp19
        tmp21 = tmp20.to(tl.float32)
        tl.store(out_ptr1 + (r0_1 + 3072*x0), tmp21, r0_mask & xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/fd/cfdicui2ygw64mcvza5u5euxj3bgzeas5pzy7cfvhtwizevawjig.py
# Topologically Sorted Source Nodes: [layers_1_y, layers_2_h, layers_2_mlp_xn], Original ATen: [aten.add, aten._fused_rms_norm]
# Source node to ATen node mapping:
#   layers_1_y => add_13
#   layers_2_h => add_17
#   layers_2_mlp_xn => add_18, convert_element_type_52, convert_element_type_53, mean_5, mul_33, mul_34, pow_6, rsqrt_5
# Graph fragment:
#   %mm_9 : Tensor "bf16[4, 3072][3072, 1]cuda:0" = PlaceHolder[target=mm_9]
#   %mm_7 : Tensor "bf16[4, 3072][3072, 1]cuda:0" = PlaceHolder[target=mm_7]
#   %add_10 : Tensor "bf16[4, 3072][3072, 1]cuda:0" = PlaceHolder[target=add_10]
#   %buf50 : Tensor "f32[4, 1][1, 4]cuda:0" = PlaceHolder[target=buf50]
#   %arg28_1 : Tensor "bf16[3072][1]cuda:0" = PlaceHolder[target=arg28_1]
#   %add_13 : Tensor "bf16[4, 3072][3072, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%mm_7, %add_10), kwargs = {})
#   %add_17 : Tensor "bf16[4, 3072][3072, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%mm_9, %add_13), kwargs = {})
#   %convert_element_type_52 : Tensor "f32[4, 3072][3072, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_17, torch.float32), kwargs = {})
#   %pow_6 : Tensor "f32[4, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%convert_element_type_52, 2), kwargs = {})
#   %mean_5 : Tensor "f32[4, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%pow_6, [1], True), kwargs = {})
#   %add_18 : Tensor "f32[4, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Scalar](args = (%mean_5, 1e-05), kwargs = {})
#   %rsqrt_5 : Tensor "f32[4, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_18,), kwargs = {})
#   %mul_33 : Tensor "f32[4, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_52, %rsqrt_5), kwargs = {})
#   %mul_34 : Tensor "f32[4, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_33, %arg28_1), kwargs = {})
#   %convert_element_type_53 : Tensor "bf16[4, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_34, torch.bfloat16), kwargs = {})
#   return %buf50,%convert_element_type_53
triton_red_fused__fused_rms_norm_add_9 = async_compile.triton('triton_red_fused__fused_rms_norm_add_9', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.reduction(
    size_hints={'x': 4, 'r0_': 4096},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'in_ptr2': '*bf16', 'in_ptr3': '*bf16', 'out_ptr1': '*bf16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused__fused_rms_norm_add_9', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 7, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'add_persistent_rblock': True, 'tiling_scores': {'x': 0, 'r0_': 129024}}
)
@triton.jit
def triton_red_fused__fused_rms_norm_add_9(in_ptr0, in_ptr1, in_ptr2, in_ptr3, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 4
    r0_numel = 3072
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    _tmp8 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_1 + 3072*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp1 = tl.load(in_ptr1 + (r0_1 + 3072*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp2 = tl.load(in_ptr2 + (r0_1 + 3072*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp3 = tmp1 + tmp2
        tmp4 = tmp0 + tmp3
        tmp5 = tmp4.to(tl.float32)
        tmp6 = tmp5 * tmp5
        tmp7 = tl.broadcast_to(tmp6, [XBLOCK, R0_BLOCK])
        tmp9 = _tmp8 + tmp7
        _tmp8 = tl.where(r0_mask & xmask, tmp9, _tmp8)
    tmp8 = tl.sum(_tmp8, 1)[:, None]
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp10 = tl.load(in_ptr0 + (r0_1 + 3072*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp11 = tl.load(in_ptr1 + (r0_1 + 3072*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp12 = tl.load(in_ptr2 + (r0_1 + 3072*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp22 = tl.load(in_ptr3 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp13 = tmp11 + tmp12
        tmp14 = tmp10 + tmp13
        tmp15 = tmp14.to(tl.float32)
        tmp16 = tl.full([1, 1], 3072.0, tl.float32)
        tmp17 = (tmp8 / tmp16)
        tmp18 = tl.full([1, 1], 1e-05, tl.float32)
        tmp19 = tmp17 + tmp18
        tmp20 = libdevice.rsqrt(tmp19)
        tmp21 = tmp15 * tmp20
        tmp23 = tmp22.to(tl.float32)
        tmp24 = tmp21 * tmp23
        tmp25 = tmp24.to(tl.float32)
        tl.store(out_ptr1 + (r0_1 + 3072*x0), tmp25, r0_mask & xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/7y/c7yanyxpvdbhfcnujx7abu4qs4no3pcq2pzqjddz5lv4zzuie45i.py
# Topologically Sorted Source Nodes: [layers_1_y, layers_2_h, layers_2_y, layers_3_xn], Original ATen: [aten.add, aten._fused_rms_norm]
# Source node to ATen node mapping:
#   layers_1_y => add_13
#   layers_2_h => add_17
#   layers_2_y => add_20
#   layers_3_xn => add_21, convert_element_type_60, convert_element_type_61, mean_6, mul_36, mul_37, pow_7, rsqrt_6
# Graph fragment:
#   %mm_11 : Tensor "bf16[4, 3072][3072, 1]cuda:0" = PlaceHolder[target=mm_11]
#   %mm_9 : Tensor "bf16[4, 3072][3072, 1]cuda:0" = PlaceHolder[target=mm_9]
#   %mm_7 : Tensor "bf16[4, 3072][3072, 1]cuda:0" = PlaceHolder[target=mm_7]
#   %add_10 : Tensor "bf16[4, 3072][3072, 1]cuda:0" = PlaceHolder[target=add_10]
#   %buf55 : Tensor "f32[4, 1][1, 4]cuda:0" = PlaceHolder[target=buf55]
#   %arg31_1 : Tensor "bf16[3072][1]cuda:0" = PlaceHolder[target=arg31_1]
#   %add_13 : Tensor "bf16[4, 3072][3072, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%mm_7, %add_10), kwargs = {})
#   %add_17 : Tensor "bf16[4, 3072][3072, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%mm_9, %add_13), kwargs = {})
#   %add_20 : Tensor "bf16[4, 3072][3072, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%mm_11, %add_17), kwargs = {})
#   %convert_element_type_60 : Tensor "f32[4, 3072][3072, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_20, torch.float32), kwargs = {})
#   %pow_7 : Tensor "f32[4, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%convert_element_type_60, 2), kwargs = {})
#   %mean_6 : Tensor "f32[4, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%pow_7, [1], True), kwargs = {})
#   %add_21 : Tensor "f32[4, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Scalar](args = (%mean_6, 1e-05), kwargs = {})
#   %rsqrt_6 : Tensor "f32[4, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_21,), kwargs = {})
#   %mul_36 : Tensor "f32[4, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_60, %rsqrt_6), kwargs = {})
#   %mul_37 : Tensor "f32[4, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_36, %arg31_1), kwargs = {})
#   %convert_element_type_61 : Tensor "bf16[4, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_37, torch.bfloat16), kwargs = {})
#   return %buf55,%convert_element_type_61
triton_red_fused__fused_rms_norm_add_10 = async_compile.triton('triton_red_fused__fused_rms_norm_add_10', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.reduction(
    size_hints={'x': 4, 'r0_': 4096},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'in_ptr2': '*bf16', 'in_ptr3': '*bf16', 'in_ptr4': '*bf16', 'out_ptr1': '*bf16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused__fused_rms_norm_add_10', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 9, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'add_persistent_rblock': True, 'tiling_scores': {'x': 0, 'r0_': 153600}}
)
@triton.jit
def triton_red_fused__fused_rms_norm_add_10(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 4
    r0_numel = 3072
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    _tmp10 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_1 + 3072*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp1 = tl.load(in_ptr1 + (r0_1 + 3072*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp2 = tl.load(in_ptr2 + (r0_1 + 3072*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp3 = tl.load(in_ptr3 + (r0_1 + 3072*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp4 = tmp2 + tmp3
        tmp5 = tmp1 + tmp4
        tmp6 = tmp0 + tmp5
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
        tmp12 = tl.load(in_ptr0 + (r0_1 + 3072*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp13 = tl.load(in_ptr1 + (r0_1 + 3072*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp14 = tl.load(in_ptr2 + (r0_1 + 3072*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp15 = tl.load(in_ptr3 + (r0_1 + 3072*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp26 = tl.load(in_ptr4 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp16 = tmp14 + tmp15
        tmp17 = tmp13 + tmp16
        tmp18 = tmp12 + tmp17
        tmp19 = tmp18.to(tl.float32)
        tmp20 = tl.full([1, 1], 3072.0, tl.float32)
        tmp21 = (tmp10 / tmp20)
        tmp22 = tl.full([1, 1], 1e-05, tl.float32)
        tmp23 = tmp21 + tmp22
        tmp24 = libdevice.rsqrt(tmp23)
        tmp25 = tmp19 * tmp24
        tmp27 = tmp26.to(tl.float32)
        tmp28 = tmp25 * tmp27
        tmp29 = tmp28.to(tl.float32)
        tl.store(out_ptr1 + (r0_1 + 3072*x0), tmp29, r0_mask & xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/cx/ccxzm2sicva2rgpy7auym25cfkbtal54fjxywzviwjlgv2exvvhm.py
# Topologically Sorted Source Nodes: [layers_1_y, layers_2_h, layers_2_y, layers_3_h, layers_3_mlp_xn], Original ATen: [aten.add, aten._fused_rms_norm]
# Source node to ATen node mapping:
#   layers_1_y => add_13
#   layers_2_h => add_17
#   layers_2_y => add_20
#   layers_3_h => add_24
#   layers_3_mlp_xn => add_25, convert_element_type_72, convert_element_type_73, mean_7, mul_45, mul_46, pow_8, rsqrt_7
# Graph fragment:
#   %mm_13 : Tensor "bf16[4, 3072][3072, 1]cuda:0" = PlaceHolder[target=mm_13]
#   %mm_11 : Tensor "bf16[4, 3072][3072, 1]cuda:0" = PlaceHolder[target=mm_11]
#   %mm_9 : Tensor "bf16[4, 3072][3072, 1]cuda:0" = PlaceHolder[target=mm_9]
#   %mm_7 : Tensor "bf16[4, 3072][3072, 1]cuda:0" = PlaceHolder[target=mm_7]
#   %add_10 : Tensor "bf16[4, 3072][3072, 1]cuda:0" = PlaceHolder[target=add_10]
#   %add_24 : Tensor "bf16[4, 3072][3072, 1]cuda:0" = PlaceHolder[target=add_24]
#   %buf69 : Tensor "f32[4, 1][1, 4]cuda:0" = PlaceHolder[target=buf69]
#   %arg37_1 : Tensor "bf16[3072][1]cuda:0" = PlaceHolder[target=arg37_1]
#   %add_13 : Tensor "bf16[4, 3072][3072, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%mm_7, %add_10), kwargs = {})
#   %add_17 : Tensor "bf16[4, 3072][3072, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%mm_9, %add_13), kwargs = {})
#   %add_20 : Tensor "bf16[4, 3072][3072, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%mm_11, %add_17), kwargs = {})
#   %add_24 : Tensor "bf16[4, 3072][3072, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%mm_13, %add_20), kwargs = {})
#   %convert_element_type_72 : Tensor "f32[4, 3072][3072, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_24, torch.float32), kwargs = {})
#   %pow_8 : Tensor "f32[4, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%convert_element_type_72, 2), kwargs = {})
#   %mean_7 : Tensor "f32[4, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%pow_8, [1], True), kwargs = {})
#   %add_25 : Tensor "f32[4, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Scalar](args = (%mean_7, 1e-05), kwargs = {})
#   %rsqrt_7 : Tensor "f32[4, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_25,), kwargs = {})
#   %mul_45 : Tensor "f32[4, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_72, %rsqrt_7), kwargs = {})
#   %mul_46 : Tensor "f32[4, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_45, %arg37_1), kwargs = {})
#   %convert_element_type_73 : Tensor "bf16[4, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_46, torch.bfloat16), kwargs = {})
#   return %add_24,%buf69,%convert_element_type_73
triton_red_fused__fused_rms_norm_add_11 = async_compile.triton('triton_red_fused__fused_rms_norm_add_11', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.reduction(
    size_hints={'x': 4, 'r0_': 4096},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*bf16', 'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'in_ptr2': '*bf16', 'in_ptr3': '*bf16', 'in_ptr4': '*bf16', 'out_ptr1': '*bf16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused__fused_rms_norm_add_11', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 7, 'num_store': 2, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 0, 'r0_': 227328}}
)
@triton.jit
def triton_red_fused__fused_rms_norm_add_11(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 4
    r0_numel = 3072
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    _tmp12 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = tl.load(in_out_ptr0 + (r0_1 + 3072*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp1 = tl.load(in_ptr0 + (r0_1 + 3072*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp2 = tl.load(in_ptr1 + (r0_1 + 3072*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp3 = tl.load(in_ptr2 + (r0_1 + 3072*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp4 = tl.load(in_ptr3 + (r0_1 + 3072*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp5 = tmp3 + tmp4
        tmp6 = tmp2 + tmp5
        tmp7 = tmp1 + tmp6
        tmp8 = tmp0 + tmp7
        tmp9 = tmp8.to(tl.float32)
        tmp10 = tmp9 * tmp9
        tmp11 = tl.broadcast_to(tmp10, [XBLOCK, R0_BLOCK])
        tmp13 = _tmp12 + tmp11
        _tmp12 = tl.where(r0_mask & xmask, tmp13, _tmp12)
        tl.store(in_out_ptr0 + (r0_1 + 3072*x0), tmp8, r0_mask & xmask)
    tmp12 = tl.sum(_tmp12, 1)[:, None]
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp14 = tl.load(in_out_ptr0 + (r0_1 + 3072*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp22 = tl.load(in_ptr4 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp15 = tmp14.to(tl.float32)
        tmp16 = tl.full([1, 1], 3072.0, tl.float32)
        tmp17 = (tmp12 / tmp16)
        tmp18 = tl.full([1, 1], 1e-05, tl.float32)
        tmp19 = tmp17 + tmp18
        tmp20 = libdevice.rsqrt(tmp19)
        tmp21 = tmp15 * tmp20
        tmp23 = tmp22.to(tl.float32)
        tmp24 = tmp21 * tmp23
        tmp25 = tmp24.to(tl.float32)
        tl.store(out_ptr1 + (r0_1 + 3072*x0), tmp25, r0_mask & xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/x2/cx2icns6xqar66sudtlvvgavnwkieor3lposiyueywagnv6ojcxo.py
# Topologically Sorted Source Nodes: [h, hn], Original ATen: [aten.add, aten._fused_rms_norm]
# Source node to ATen node mapping:
#   h => add_27
#   hn => add_28, convert_element_type_80, convert_element_type_81, mean_8, mul_48, mul_49, pow_9, rsqrt_8
# Graph fragment:
#   %mm_15 : Tensor "bf16[4, 3072][3072, 1]cuda:0" = PlaceHolder[target=mm_15]
#   %add_24 : Tensor "bf16[4, 3072][3072, 1]cuda:0" = PlaceHolder[target=add_24]
#   %buf74 : Tensor "f32[4, 1][1, 4]cuda:0" = PlaceHolder[target=buf74]
#   %arg40_1 : Tensor "bf16[3072][1]cuda:0" = PlaceHolder[target=arg40_1]
#   %add_27 : Tensor "bf16[4, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mm_15, %add_24), kwargs = {})
#   %convert_element_type_80 : Tensor "f32[4, 3072][3072, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_27, torch.float32), kwargs = {})
#   %pow_9 : Tensor "f32[4, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%convert_element_type_80, 2), kwargs = {})
#   %mean_8 : Tensor "f32[4, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%pow_9, [1], True), kwargs = {})
#   %add_28 : Tensor "f32[4, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Scalar](args = (%mean_8, 1e-05), kwargs = {})
#   %rsqrt_8 : Tensor "f32[4, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_28,), kwargs = {})
#   %mul_48 : Tensor "f32[4, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_80, %rsqrt_8), kwargs = {})
#   %mul_49 : Tensor "f32[4, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_48, %arg40_1), kwargs = {})
#   %convert_element_type_81 : Tensor "bf16[4, 3072][3072, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_49, torch.bfloat16), kwargs = {})
#   return %buf74,%convert_element_type_81
triton_red_fused__fused_rms_norm_add_12 = async_compile.triton('triton_red_fused__fused_rms_norm_add_12', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.reduction(
    size_hints={'x': 4, 'r0_': 4096},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*bf16', 'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused__fused_rms_norm_add_12', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 5, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'add_persistent_rblock': True, 'tiling_scores': {'x': 0, 'r0_': 104448}}
)
@triton.jit
def triton_red_fused__fused_rms_norm_add_12(in_out_ptr0, in_ptr0, in_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 4
    r0_numel = 3072
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    _tmp6 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = tl.load(in_out_ptr0 + (r0_1 + 3072*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp1 = tl.load(in_ptr0 + (r0_1 + 3072*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp2 = tmp0 + tmp1
        tmp3 = tmp2.to(tl.float32)
        tmp4 = tmp3 * tmp3
        tmp5 = tl.broadcast_to(tmp4, [XBLOCK, R0_BLOCK])
        tmp7 = _tmp6 + tmp5
        _tmp6 = tl.where(r0_mask & xmask, tmp7, _tmp6)
    tmp6 = tl.sum(_tmp6, 1)[:, None]
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp8 = tl.load(in_out_ptr0 + (r0_1 + 3072*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp9 = tl.load(in_ptr0 + (r0_1 + 3072*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp18 = tl.load(in_ptr1 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp10 = tmp8 + tmp9
        tmp11 = tmp10.to(tl.float32)
        tmp12 = tl.full([1, 1], 3072.0, tl.float32)
        tmp13 = (tmp6 / tmp12)
        tmp14 = tl.full([1, 1], 1e-05, tl.float32)
        tmp15 = tmp13 + tmp14
        tmp16 = libdevice.rsqrt(tmp15)
        tmp17 = tmp11 * tmp16
        tmp19 = tmp18.to(tl.float32)
        tmp20 = tmp17 * tmp19
        tmp21 = tmp20.to(tl.float32)
        tl.store(in_out_ptr0 + (r0_1 + 3072*x0), tmp21, r0_mask & xmask)
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
        arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1, arg12_1, arg13_1, arg14_1, arg15_1, arg16_1, arg17_1, arg18_1, arg19_1, arg20_1, arg21_1, arg22_1, arg23_1, arg24_1, arg25_1, arg26_1, arg27_1, arg28_1, arg29_1, arg30_1, arg31_1, arg32_1, arg33_1, arg34_1, arg35_1, arg36_1, arg37_1, arg38_1, arg39_1, arg40_1, arg41_1 = args
        args.clear()
        assert_size_stride(arg0_1, (32064, 3072), (3072, 1))
        assert_size_stride(arg1_1, (4, ), (1, ))
        assert_size_stride(arg2_1, (3072, ), (1, ))
        assert_size_stride(arg3_1, (3072, 9216), (9216, 1))
        assert_size_stride(arg4_1, (1, 96), (96, 1))
        assert_size_stride(arg5_1, (1, 96), (96, 1))
        assert_size_stride(arg6_1, (4, 32, 1, 4096, 96), (12582912, 393216, 393216, 96, 1))
        assert_size_stride(arg7_1, (4, 32, 1, 4096, 96), (12582912, 393216, 393216, 96, 1))
        assert_size_stride(arg8_1, (1, 4096), (4096, 1))
        assert_size_stride(arg9_1, (3072, 3072), (3072, 1))
        assert_size_stride(arg10_1, (3072, ), (1, ))
        assert_size_stride(arg11_1, (3072, 16384), (16384, 1))
        assert_size_stride(arg12_1, (8192, 3072), (3072, 1))
        assert_size_stride(arg13_1, (3072, ), (1, ))
        assert_size_stride(arg14_1, (3072, 9216), (9216, 1))
        assert_size_stride(arg15_1, (4, 32, 1, 4096, 96), (12582912, 393216, 393216, 96, 1))
        assert_size_stride(arg16_1, (4, 32, 1, 4096, 96), (12582912, 393216, 393216, 96, 1))
        assert_size_stride(arg17_1, (1, 4096), (4096, 1))
        assert_size_stride(arg18_1, (3072, 3072), (3072, 1))
        assert_size_stride(arg19_1, (3072, ), (1, ))
        assert_size_stride(arg20_1, (3072, 16384), (16384, 1))
        assert_size_stride(arg21_1, (8192, 3072), (3072, 1))
        assert_size_stride(arg22_1, (3072, ), (1, ))
        assert_size_stride(arg23_1, (3072, 9216), (9216, 1))
        assert_size_stride(arg24_1, (4, 32, 1, 4096, 96), (12582912, 393216, 393216, 96, 1))
        assert_size_stride(arg25_1, (4, 32, 1, 4096, 96), (12582912, 393216, 393216, 96, 1))
        assert_size_stride(arg26_1, (1, 4096), (4096, 1))
        assert_size_stride(arg27_1, (3072, 3072), (3072, 1))
        assert_size_stride(arg28_1, (3072, ), (1, ))
        assert_size_stride(arg29_1, (3072, 16384), (16384, 1))
        assert_size_stride(arg30_1, (8192, 3072), (3072, 1))
        assert_size_stride(arg31_1, (3072, ), (1, ))
        assert_size_stride(arg32_1, (3072, 9216), (9216, 1))
        assert_size_stride(arg33_1, (4, 32, 1, 4096, 96), (12582912, 393216, 393216, 96, 1))
        assert_size_stride(arg34_1, (4, 32, 1, 4096, 96), (12582912, 393216, 393216, 96, 1))
        assert_size_stride(arg35_1, (1, 4096), (4096, 1))
        assert_size_stride(arg36_1, (3072, 3072), (3072, 1))
        assert_size_stride(arg37_1, (3072, ), (1, ))
        assert_size_stride(arg38_1, (3072, 16384), (16384, 1))
        assert_size_stride(arg39_1, (8192, 3072), (3072, 1))
        assert_size_stride(arg40_1, (3072, ), (1, ))
        assert_size_stride(arg41_1, (3072, 32064), (32064, 1))
        with torch.cuda._DeviceGuard(0):
            torch.cuda.set_device(0)
            buf1 = empty_strided_cuda((4, 3072), (3072, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [x0, layers_0_xn], Original ATen: [aten.index_select, aten._fused_rms_norm]
            stream0 = get_raw_stream(0)
            triton_red_fused__fused_rms_norm_index_select_0.run(arg1_1, arg0_1, arg2_1, buf1, 4, 3072, stream=stream0)
            del arg2_1
            buf2 = empty_strided_cuda((4, 9216), (9216, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [x0, layers_0_xn, layers_0_qkv], Original ATen: [aten.index_select, aten._fused_rms_norm, aten.mm]
            extern_kernels.mm(buf1, arg3_1, out=buf2)
            del arg3_1
            # Topologically Sorted Source Nodes: [setitem_1, layers_0_v, layers_0_vh], Original ATen: [aten.slice, aten.view, aten.copy]
            stream0 = get_raw_stream(0)
            triton_poi_fused_copy_slice_view_1.run(buf2, arg7_1, 12288, stream=stream0)
            buf5 = reinterpret_tensor(buf1, (4, 32, 1, 1, 96), (3072, 96, 96, 96, 1), 0); del buf1  # reuse
            # Topologically Sorted Source Nodes: [layers_0_q, layers_0_qh, layers_0_q_rope_c, layers_0_q_rope_t2, layers_0_q_rope_t2n, layers_0_q_rope_t1, layers_0_q_rope_tr, layers_0_q_rope_s, layers_0_qr, setitem, layers_0_k, layers_0_kh, layers_0_k_rope_c, layers_0_k_rope_t2, layers_0_k_rope_t2n, layers_0_k_rope_t1, layers_0_k_rope_tr, layers_0_k_rope_s, layers_0_kr], Original ATen: [aten.slice, aten.view, aten.mul, aten.cat, aten.add, aten.copy]
            stream0 = get_raw_stream(0)
            triton_poi_fused_add_cat_copy_mul_slice_view_2.run(buf2, arg4_1, arg5_1, arg6_1, buf5, 12288, stream=stream0)
            buf6 = empty_strided_cuda((128, 1, 4096), (4096, 4096, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [layers_0_q, layers_0_qh, layers_0_q_rope_c, layers_0_q_rope_t2, layers_0_q_rope_t2n, layers_0_q_rope_t1, layers_0_q_rope_tr, layers_0_q_rope_s, layers_0_qr, layers_0_sc], Original ATen: [aten.slice, aten.view, aten.mul, aten.cat, aten.add, aten.transpose, aten.bmm]
            extern_kernels.bmm(reinterpret_tensor(buf5, (128, 1, 96), (96, 0, 1), 0), reinterpret_tensor(arg6_1, (128, 96, 4096), (393216, 1, 96), 0), out=buf6)
            del arg6_1
            buf10 = reinterpret_tensor(buf6, (4, 32, 1, 1, 4096), (131072, 4096, 4096, 4096, 1), 0); del buf6  # reuse
            # Topologically Sorted Source Nodes: [masked_fill, layers_0_sc, layers_0_scs, layers_0_p], Original ATen: [aten.masked_fill, aten.view, aten.mul, aten._softmax, prims.prepare_softmax_online, aten.sub, aten.exp]
            stream0 = get_raw_stream(0)
            triton_red_fused__softmax_exp_masked_fill_mul_prepare_softmax_online_sub_view_3.run(buf10, arg8_1, 128, 4096, stream=stream0)
            del arg8_1
            buf11 = reinterpret_tensor(buf5, (128, 1, 96), (96, 96, 1), 0); del buf5  # reuse
            # Topologically Sorted Source Nodes: [masked_fill, layers_0_sc, layers_0_scs, layers_0_p, layers_0_ah], Original ATen: [aten.masked_fill, aten.view, aten.mul, aten._softmax, aten.sub, aten.exp, aten.bmm]
            extern_kernels.bmm(reinterpret_tensor(buf10, (128, 1, 4096), (4096, 0, 1), 0), reinterpret_tensor(arg7_1, (128, 4096, 96), (393216, 96, 1), 0), out=buf11)
            del arg7_1
            buf12 = empty_strided_cuda((4, 3072), (3072, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [layers_0_ah, layers_0_am, layers_0_o], Original ATen: [aten.view, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf11, (4, 3072), (3072, 1), 0), arg9_1, out=buf12)
            del arg9_1
            buf14 = reinterpret_tensor(buf11, (4, 3072), (3072, 1), 0); del buf11  # reuse
            # Topologically Sorted Source Nodes: [x0, layers_0_h, layers_0_mlp_xn], Original ATen: [aten.index_select, aten.add, aten._fused_rms_norm]
            stream0 = get_raw_stream(0)
            triton_red_fused__fused_rms_norm_add_index_select_4.run(buf12, arg1_1, arg0_1, arg10_1, buf14, 4, 3072, stream=stream0)
            del arg10_1
            buf15 = empty_strided_cuda((4, 16384), (16384, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [x0, layers_0_h, layers_0_mlp_xn, layers_0_mlp_gu], Original ATen: [aten.index_select, aten.add, aten._fused_rms_norm, aten.mm]
            extern_kernels.mm(buf14, arg11_1, out=buf15)
            del arg11_1
            buf16 = empty_strided_cuda((4, 8192), (8192, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [layers_0_mlp_g, layers_0_mlp_gs, layers_0_mlp_u, layers_0_mlp_m], Original ATen: [aten.slice, aten.silu, aten.mul]
            stream0 = get_raw_stream(0)
            triton_poi_fused_mul_silu_slice_5.run(buf15, buf16, 32768, stream=stream0)
            del buf15
            buf17 = buf14; del buf14  # reuse
            # Topologically Sorted Source Nodes: [layers_0_mlp_g, layers_0_mlp_gs, layers_0_mlp_u, layers_0_mlp_m, layers_0_mlp_d], Original ATen: [aten.slice, aten.silu, aten.mul, aten.mm]
            extern_kernels.mm(buf16, arg12_1, out=buf17)
            del arg12_1
            del buf16
            buf19 = empty_strided_cuda((4, 3072), (3072, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [x0, layers_0_h, layers_0_y, layers_1_xn], Original ATen: [aten.index_select, aten.add, aten._fused_rms_norm]
            stream0 = get_raw_stream(0)
            triton_red_fused__fused_rms_norm_add_index_select_6.run(buf17, buf12, arg1_1, arg0_1, arg13_1, buf19, 4, 3072, stream=stream0)
            del arg13_1
            buf20 = buf2; del buf2  # reuse
            # Topologically Sorted Source Nodes: [x0, layers_0_h, layers_0_y, layers_1_xn, layers_1_qkv], Original ATen: [aten.index_select, aten.add, aten._fused_rms_norm, aten.mm]
            extern_kernels.mm(buf19, arg14_1, out=buf20)
            del arg14_1
            # Topologically Sorted Source Nodes: [setitem_3, layers_1_v, layers_1_vh], Original ATen: [aten.slice, aten.view, aten.copy]
            stream0 = get_raw_stream(0)
            triton_poi_fused_copy_slice_view_1.run(buf20, arg16_1, 12288, stream=stream0)
            buf23 = reinterpret_tensor(buf19, (4, 32, 1, 1, 96), (3072, 96, 96, 96, 1), 0); del buf19  # reuse
            # Topologically Sorted Source Nodes: [layers_1_q, layers_1_qh, layers_1_q_rope_c, layers_1_q_rope_t2, layers_1_q_rope_t2n, layers_1_q_rope_t1, layers_1_q_rope_tr, layers_1_q_rope_s, layers_1_qr, setitem_2, layers_1_k, layers_1_kh, layers_1_k_rope_c, layers_1_k_rope_t2, layers_1_k_rope_t2n, layers_1_k_rope_t1, layers_1_k_rope_tr, layers_1_k_rope_s, layers_1_kr], Original ATen: [aten.slice, aten.view, aten.mul, aten.cat, aten.add, aten.copy]
            stream0 = get_raw_stream(0)
            triton_poi_fused_add_cat_copy_mul_slice_view_2.run(buf20, arg4_1, arg5_1, arg15_1, buf23, 12288, stream=stream0)
            del buf20
            buf24 = reinterpret_tensor(buf10, (128, 1, 4096), (4096, 4096, 1), 0); del buf10  # reuse
            # Topologically Sorted Source Nodes: [layers_1_q, layers_1_qh, layers_1_q_rope_c, layers_1_q_rope_t2, layers_1_q_rope_t2n, layers_1_q_rope_t1, layers_1_q_rope_tr, layers_1_q_rope_s, layers_1_qr, layers_1_sc], Original ATen: [aten.slice, aten.view, aten.mul, aten.cat, aten.add, aten.transpose, aten.bmm]
            extern_kernels.bmm(reinterpret_tensor(buf23, (128, 1, 96), (96, 0, 1), 0), reinterpret_tensor(arg15_1, (128, 96, 4096), (393216, 1, 96), 0), out=buf24)
            del arg15_1
            buf28 = reinterpret_tensor(buf24, (4, 32, 1, 1, 4096), (131072, 4096, 4096, 4096, 1), 0); del buf24  # reuse
            # Topologically Sorted Source Nodes: [masked_fill_1, layers_1_sc, layers_1_scs, layers_1_p], Original ATen: [aten.masked_fill, aten.view, aten.mul, aten._softmax, prims.prepare_softmax_online, aten.sub, aten.exp]
            stream0 = get_raw_stream(0)
            triton_red_fused__softmax_exp_masked_fill_mul_prepare_softmax_online_sub_view_3.run(buf28, arg17_1, 128, 4096, stream=stream0)
            del arg17_1
            buf29 = reinterpret_tensor(buf23, (128, 1, 96), (96, 96, 1), 0); del buf23  # reuse
            # Topologically Sorted Source Nodes: [masked_fill_1, layers_1_sc, layers_1_scs, layers_1_p, layers_1_ah], Original ATen: [aten.masked_fill, aten.view, aten.mul, aten._softmax, aten.sub, aten.exp, aten.bmm]
            extern_kernels.bmm(reinterpret_tensor(buf28, (128, 1, 4096), (4096, 0, 1), 0), reinterpret_tensor(arg16_1, (128, 4096, 96), (393216, 96, 1), 0), out=buf29)
            del arg16_1
            buf30 = empty_strided_cuda((4, 3072), (3072, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [layers_1_ah, layers_1_am, layers_1_o], Original ATen: [aten.view, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf29, (4, 3072), (3072, 1), 0), arg18_1, out=buf30)
            del arg18_1
            buf31 = buf30; del buf30  # reuse
            buf33 = reinterpret_tensor(buf29, (4, 3072), (3072, 1), 0); del buf29  # reuse
            # Topologically Sorted Source Nodes: [x0, layers_0_h, layers_0_y, layers_1_h, layers_1_mlp_xn], Original ATen: [aten.index_select, aten.add, aten._fused_rms_norm]
            stream0 = get_raw_stream(0)
            triton_red_fused__fused_rms_norm_add_index_select_7.run(buf31, buf17, buf12, arg1_1, arg0_1, arg19_1, buf33, 4, 3072, stream=stream0)
            del arg0_1
            del arg19_1
            del arg1_1
            buf34 = empty_strided_cuda((4, 16384), (16384, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [layers_1_mlp_xn, layers_1_mlp_gu], Original ATen: [aten._fused_rms_norm, aten.mm]
            extern_kernels.mm(buf33, arg20_1, out=buf34)
            del arg20_1
            buf35 = empty_strided_cuda((4, 8192), (8192, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [layers_1_mlp_g, layers_1_mlp_gs, layers_1_mlp_u, layers_1_mlp_m], Original ATen: [aten.slice, aten.silu, aten.mul]
            stream0 = get_raw_stream(0)
            triton_poi_fused_mul_silu_slice_5.run(buf34, buf35, 32768, stream=stream0)
            del buf34
            buf36 = buf33; del buf33  # reuse
            # Topologically Sorted Source Nodes: [layers_1_mlp_g, layers_1_mlp_gs, layers_1_mlp_u, layers_1_mlp_m, layers_1_mlp_d], Original ATen: [aten.slice, aten.silu, aten.mul, aten.mm]
            extern_kernels.mm(buf35, arg21_1, out=buf36)
            del arg21_1
            del buf35
            buf38 = buf17; del buf17  # reuse
            # Topologically Sorted Source Nodes: [layers_1_y, layers_2_xn], Original ATen: [aten.add, aten._fused_rms_norm]
            stream0 = get_raw_stream(0)
            triton_red_fused__fused_rms_norm_add_8.run(buf36, buf31, arg22_1, buf38, 4, 3072, stream=stream0)
            del arg22_1
            buf39 = empty_strided_cuda((4, 9216), (9216, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [layers_1_y, layers_2_xn, layers_2_qkv], Original ATen: [aten.add, aten._fused_rms_norm, aten.mm]
            extern_kernels.mm(buf38, arg23_1, out=buf39)
            del arg23_1
            # Topologically Sorted Source Nodes: [setitem_5, layers_2_v, layers_2_vh], Original ATen: [aten.slice, aten.view, aten.copy]
            stream0 = get_raw_stream(0)
            triton_poi_fused_copy_slice_view_1.run(buf39, arg25_1, 12288, stream=stream0)
            buf42 = reinterpret_tensor(buf38, (4, 32, 1, 1, 96), (3072, 96, 96, 96, 1), 0); del buf38  # reuse
            # Topologically Sorted Source Nodes: [layers_2_q, layers_2_qh, layers_2_q_rope_c, layers_2_q_rope_t2, layers_2_q_rope_t2n, layers_2_q_rope_t1, layers_2_q_rope_tr, layers_2_q_rope_s, layers_2_qr, setitem_4, layers_2_k, layers_2_kh, layers_2_k_rope_c, layers_2_k_rope_t2, layers_2_k_rope_t2n, layers_2_k_rope_t1, layers_2_k_rope_tr, layers_2_k_rope_s, layers_2_kr], Original ATen: [aten.slice, aten.view, aten.mul, aten.cat, aten.add, aten.copy]
            stream0 = get_raw_stream(0)
            triton_poi_fused_add_cat_copy_mul_slice_view_2.run(buf39, arg4_1, arg5_1, arg24_1, buf42, 12288, stream=stream0)
            del buf39
            buf43 = reinterpret_tensor(buf28, (128, 1, 4096), (4096, 4096, 1), 0); del buf28  # reuse
            # Topologically Sorted Source Nodes: [layers_2_q, layers_2_qh, layers_2_q_rope_c, layers_2_q_rope_t2, layers_2_q_rope_t2n, layers_2_q_rope_t1, layers_2_q_rope_tr, layers_2_q_rope_s, layers_2_qr, layers_2_sc], Original ATen: [aten.slice, aten.view, aten.mul, aten.cat, aten.add, aten.transpose, aten.bmm]
            extern_kernels.bmm(reinterpret_tensor(buf42, (128, 1, 96), (96, 0, 1), 0), reinterpret_tensor(arg24_1, (128, 96, 4096), (393216, 1, 96), 0), out=buf43)
            del arg24_1
            buf47 = reinterpret_tensor(buf43, (4, 32, 1, 1, 4096), (131072, 4096, 4096, 4096, 1), 0); del buf43  # reuse
            # Topologically Sorted Source Nodes: [masked_fill_2, layers_2_sc, layers_2_scs, layers_2_p], Original ATen: [aten.masked_fill, aten.view, aten.mul, aten._softmax, prims.prepare_softmax_online, aten.sub, aten.exp]
            stream0 = get_raw_stream(0)
            triton_red_fused__softmax_exp_masked_fill_mul_prepare_softmax_online_sub_view_3.run(buf47, arg26_1, 128, 4096, stream=stream0)
            del arg26_1
            buf48 = reinterpret_tensor(buf42, (128, 1, 96), (96, 96, 1), 0); del buf42  # reuse
            # Topologically Sorted Source Nodes: [masked_fill_2, layers_2_sc, layers_2_scs, layers_2_p, layers_2_ah], Original ATen: [aten.masked_fill, aten.view, aten.mul, aten._softmax, aten.sub, aten.exp, aten.bmm]
            extern_kernels.bmm(reinterpret_tensor(buf47, (128, 1, 4096), (4096, 0, 1), 0), reinterpret_tensor(arg25_1, (128, 4096, 96), (393216, 96, 1), 0), out=buf48)
            del arg25_1
            buf49 = buf12; del buf12  # reuse
            # Topologically Sorted Source Nodes: [layers_2_ah, layers_2_am, layers_2_o], Original ATen: [aten.view, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf48, (4, 3072), (3072, 1), 0), arg27_1, out=buf49)
            del arg27_1
            buf51 = reinterpret_tensor(buf48, (4, 3072), (3072, 1), 0); del buf48  # reuse
            # Topologically Sorted Source Nodes: [layers_1_y, layers_2_h, layers_2_mlp_xn], Original ATen: [aten.add, aten._fused_rms_norm]
            stream0 = get_raw_stream(0)
            triton_red_fused__fused_rms_norm_add_9.run(buf49, buf36, buf31, arg28_1, buf51, 4, 3072, stream=stream0)
            del arg28_1
            buf52 = empty_strided_cuda((4, 16384), (16384, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [layers_1_y, layers_2_h, layers_2_mlp_xn, layers_2_mlp_gu], Original ATen: [aten.add, aten._fused_rms_norm, aten.mm]
            extern_kernels.mm(buf51, arg29_1, out=buf52)
            del arg29_1
            buf53 = empty_strided_cuda((4, 8192), (8192, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [layers_2_mlp_g, layers_2_mlp_gs, layers_2_mlp_u, layers_2_mlp_m], Original ATen: [aten.slice, aten.silu, aten.mul]
            stream0 = get_raw_stream(0)
            triton_poi_fused_mul_silu_slice_5.run(buf52, buf53, 32768, stream=stream0)
            del buf52
            buf54 = buf51; del buf51  # reuse
            # Topologically Sorted Source Nodes: [layers_2_mlp_g, layers_2_mlp_gs, layers_2_mlp_u, layers_2_mlp_m, layers_2_mlp_d], Original ATen: [aten.slice, aten.silu, aten.mul, aten.mm]
            extern_kernels.mm(buf53, arg30_1, out=buf54)
            del arg30_1
            del buf53
            buf56 = empty_strided_cuda((4, 3072), (3072, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [layers_1_y, layers_2_h, layers_2_y, layers_3_xn], Original ATen: [aten.add, aten._fused_rms_norm]
            stream0 = get_raw_stream(0)
            triton_red_fused__fused_rms_norm_add_10.run(buf54, buf49, buf36, buf31, arg31_1, buf56, 4, 3072, stream=stream0)
            del arg31_1
            buf57 = empty_strided_cuda((4, 9216), (9216, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [layers_1_y, layers_2_h, layers_2_y, layers_3_xn, layers_3_qkv], Original ATen: [aten.add, aten._fused_rms_norm, aten.mm]
            extern_kernels.mm(buf56, arg32_1, out=buf57)
            del arg32_1
            # Topologically Sorted Source Nodes: [setitem_7, layers_3_v, layers_3_vh], Original ATen: [aten.slice, aten.view, aten.copy]
            stream0 = get_raw_stream(0)
            triton_poi_fused_copy_slice_view_1.run(buf57, arg34_1, 12288, stream=stream0)
            buf60 = reinterpret_tensor(buf56, (4, 32, 1, 1, 96), (3072, 96, 96, 96, 1), 0); del buf56  # reuse
            # Topologically Sorted Source Nodes: [layers_3_q, layers_3_qh, layers_3_q_rope_c, layers_3_q_rope_t2, layers_3_q_rope_t2n, layers_3_q_rope_t1, layers_3_q_rope_tr, layers_3_q_rope_s, layers_3_qr, setitem_6, layers_3_k, layers_3_kh, layers_3_k_rope_c, layers_3_k_rope_t2, layers_3_k_rope_t2n, layers_3_k_rope_t1, layers_3_k_rope_tr, layers_3_k_rope_s, layers_3_kr], Original ATen: [aten.slice, aten.view, aten.mul, aten.cat, aten.add, aten.copy]
            stream0 = get_raw_stream(0)
            triton_poi_fused_add_cat_copy_mul_slice_view_2.run(buf57, arg4_1, arg5_1, arg33_1, buf60, 12288, stream=stream0)
            del arg4_1
            del arg5_1
            del buf57
            buf61 = reinterpret_tensor(buf47, (128, 1, 4096), (4096, 4096, 1), 0); del buf47  # reuse
            # Topologically Sorted Source Nodes: [layers_3_q, layers_3_qh, layers_3_q_rope_c, layers_3_q_rope_t2, layers_3_q_rope_t2n, layers_3_q_rope_t1, layers_3_q_rope_tr, layers_3_q_rope_s, layers_3_qr, layers_3_sc], Original ATen: [aten.slice, aten.view, aten.mul, aten.cat, aten.add, aten.transpose, aten.bmm]
            extern_kernels.bmm(reinterpret_tensor(buf60, (128, 1, 96), (96, 0, 1), 0), reinterpret_tensor(arg33_1, (128, 96, 4096), (393216, 1, 96), 0), out=buf61)
            del arg33_1
            del buf60
            buf65 = reinterpret_tensor(buf61, (4, 32, 1, 1, 4096), (131072, 4096, 4096, 4096, 1), 0); del buf61  # reuse
            # Topologically Sorted Source Nodes: [masked_fill_3, layers_3_sc, layers_3_scs, layers_3_p], Original ATen: [aten.masked_fill, aten.view, aten.mul, aten._softmax, prims.prepare_softmax_online, aten.sub, aten.exp]
            stream0 = get_raw_stream(0)
            triton_red_fused__softmax_exp_masked_fill_mul_prepare_softmax_online_sub_view_3.run(buf65, arg35_1, 128, 4096, stream=stream0)
            del arg35_1
            buf66 = empty_strided_cuda((128, 1, 96), (96, 96, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [masked_fill_3, layers_3_sc, layers_3_scs, layers_3_p, layers_3_ah], Original ATen: [aten.masked_fill, aten.view, aten.mul, aten._softmax, aten.sub, aten.exp, aten.bmm]
            extern_kernels.bmm(reinterpret_tensor(buf65, (128, 1, 4096), (4096, 0, 1), 0), reinterpret_tensor(arg34_1, (128, 4096, 96), (393216, 96, 1), 0), out=buf66)
            del arg34_1
            del buf65
            buf67 = empty_strided_cuda((4, 3072), (3072, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [layers_3_ah, layers_3_am, layers_3_o], Original ATen: [aten.view, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf66, (4, 3072), (3072, 1), 0), arg36_1, out=buf67)
            del arg36_1
            buf68 = buf67; del buf67  # reuse
            buf70 = reinterpret_tensor(buf66, (4, 3072), (3072, 1), 0); del buf66  # reuse
            # Topologically Sorted Source Nodes: [layers_1_y, layers_2_h, layers_2_y, layers_3_h, layers_3_mlp_xn], Original ATen: [aten.add, aten._fused_rms_norm]
            stream0 = get_raw_stream(0)
            triton_red_fused__fused_rms_norm_add_11.run(buf68, buf54, buf49, buf36, buf31, arg37_1, buf70, 4, 3072, stream=stream0)
            del arg37_1
            del buf31
            del buf36
            del buf49
            del buf54
            buf71 = empty_strided_cuda((4, 16384), (16384, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [layers_3_mlp_xn, layers_3_mlp_gu], Original ATen: [aten._fused_rms_norm, aten.mm]
            extern_kernels.mm(buf70, arg38_1, out=buf71)
            del arg38_1
            buf72 = empty_strided_cuda((4, 8192), (8192, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [layers_3_mlp_g, layers_3_mlp_gs, layers_3_mlp_u, layers_3_mlp_m], Original ATen: [aten.slice, aten.silu, aten.mul]
            stream0 = get_raw_stream(0)
            triton_poi_fused_mul_silu_slice_5.run(buf71, buf72, 32768, stream=stream0)
            del buf71
            buf73 = buf70; del buf70  # reuse
            # Topologically Sorted Source Nodes: [layers_3_mlp_g, layers_3_mlp_gs, layers_3_mlp_u, layers_3_mlp_m, layers_3_mlp_d], Original ATen: [aten.slice, aten.silu, aten.mul, aten.mm]
            extern_kernels.mm(buf72, arg39_1, out=buf73)
            del arg39_1
            del buf72
            buf75 = buf73; del buf73  # reuse
            # Topologically Sorted Source Nodes: [h, hn], Original ATen: [aten.add, aten._fused_rms_norm]
            stream0 = get_raw_stream(0)
            triton_red_fused__fused_rms_norm_add_12.run(buf75, buf68, arg40_1, 4, 3072, stream=stream0)
            del arg40_1
            del buf68
            buf76 = empty_strided_cuda((4, 32064), (32064, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [h, hn, logits], Original ATen: [aten.add, aten._fused_rms_norm, aten.mm]
            extern_kernels.mm(buf75, arg41_1, out=buf76)
            del arg41_1
            del buf75
        return (buf76, )

runner = Runner(partitions=[])
call = runner.call
recursively_apply_fns = runner.recursively_apply_fns


def get_args():
    from torch._dynamo.testing import rand_strided
    arg0_1 = rand_strided((32064, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg1_1 = rand_strided((4, ), (1, ), device='cuda:0', dtype=torch.int32)
    arg2_1 = rand_strided((3072, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg3_1 = rand_strided((3072, 9216), (9216, 1), device='cuda:0', dtype=torch.bfloat16)
    arg4_1 = rand_strided((1, 96), (96, 1), device='cuda:0', dtype=torch.bfloat16)
    arg5_1 = rand_strided((1, 96), (96, 1), device='cuda:0', dtype=torch.bfloat16)
    arg6_1 = rand_strided((4, 32, 1, 4096, 96), (12582912, 393216, 393216, 96, 1), device='cuda:0', dtype=torch.bfloat16)
    arg7_1 = rand_strided((4, 32, 1, 4096, 96), (12582912, 393216, 393216, 96, 1), device='cuda:0', dtype=torch.bfloat16)
    arg8_1 = rand_strided((1, 4096), (4096, 1), device='cuda:0', dtype=torch.bool)
    arg9_1 = rand_strided((3072, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg10_1 = rand_strided((3072, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg11_1 = rand_strided((3072, 16384), (16384, 1), device='cuda:0', dtype=torch.bfloat16)
    arg12_1 = rand_strided((8192, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg13_1 = rand_strided((3072, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg14_1 = rand_strided((3072, 9216), (9216, 1), device='cuda:0', dtype=torch.bfloat16)
    arg15_1 = rand_strided((4, 32, 1, 4096, 96), (12582912, 393216, 393216, 96, 1), device='cuda:0', dtype=torch.bfloat16)
    arg16_1 = rand_strided((4, 32, 1, 4096, 96), (12582912, 393216, 393216, 96, 1), device='cuda:0', dtype=torch.bfloat16)
    arg17_1 = rand_strided((1, 4096), (4096, 1), device='cuda:0', dtype=torch.bool)
    arg18_1 = rand_strided((3072, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg19_1 = rand_strided((3072, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg20_1 = rand_strided((3072, 16384), (16384, 1), device='cuda:0', dtype=torch.bfloat16)
    arg21_1 = rand_strided((8192, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg22_1 = rand_strided((3072, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg23_1 = rand_strided((3072, 9216), (9216, 1), device='cuda:0', dtype=torch.bfloat16)
    arg24_1 = rand_strided((4, 32, 1, 4096, 96), (12582912, 393216, 393216, 96, 1), device='cuda:0', dtype=torch.bfloat16)
    arg25_1 = rand_strided((4, 32, 1, 4096, 96), (12582912, 393216, 393216, 96, 1), device='cuda:0', dtype=torch.bfloat16)
    arg26_1 = rand_strided((1, 4096), (4096, 1), device='cuda:0', dtype=torch.bool)
    arg27_1 = rand_strided((3072, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg28_1 = rand_strided((3072, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg29_1 = rand_strided((3072, 16384), (16384, 1), device='cuda:0', dtype=torch.bfloat16)
    arg30_1 = rand_strided((8192, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg31_1 = rand_strided((3072, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg32_1 = rand_strided((3072, 9216), (9216, 1), device='cuda:0', dtype=torch.bfloat16)
    arg33_1 = rand_strided((4, 32, 1, 4096, 96), (12582912, 393216, 393216, 96, 1), device='cuda:0', dtype=torch.bfloat16)
    arg34_1 = rand_strided((4, 32, 1, 4096, 96), (12582912, 393216, 393216, 96, 1), device='cuda:0', dtype=torch.bfloat16)
    arg35_1 = rand_strided((1, 4096), (4096, 1), device='cuda:0', dtype=torch.bool)
    arg36_1 = rand_strided((3072, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg37_1 = rand_strided((3072, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg38_1 = rand_strided((3072, 16384), (16384, 1), device='cuda:0', dtype=torch.bfloat16)
    arg39_1 = rand_strided((8192, 3072), (3072, 1), device='cuda:0', dtype=torch.bfloat16)
    arg40_1 = rand_strided((3072, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    arg41_1 = rand_strided((3072, 32064), (32064, 1), device='cuda:0', dtype=torch.bfloat16)
    return [arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1, arg12_1, arg13_1, arg14_1, arg15_1, arg16_1, arg17_1, arg18_1, arg19_1, arg20_1, arg21_1, arg22_1, arg23_1, arg24_1, arg25_1, arg26_1, arg27_1, arg28_1, arg29_1, arg30_1, arg31_1, arg32_1, arg33_1, arg34_1, arg35_1, arg36_1, arg37_1, arg38_1, arg39_1, arg40_1, arg41_1]


def benchmark_compiled_module(args, times=10, repeat=10):
    from torch._inductor.utils import print_performance
    fn = lambda: call(list(args))
    return print_performance(fn, times=times, repeat=repeat)


if __name__ == "__main__":
    from torch._inductor.wrapper_benchmark import compiled_module_main
    args = get_args()
    compiled_module_main('None', lambda times, repeat: benchmark_compiled_module(args, times=times, repeat=repeat))
