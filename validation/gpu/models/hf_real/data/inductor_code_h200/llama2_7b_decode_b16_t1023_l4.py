# AOT ID: ['0_inference']
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


# kernel path: /tmp/torchinductor_root/ns/cnsy6wugla73mjfcqtwicre3yah353433d6vlluaxvuurfvrskio.py
# Topologically Sorted Source Nodes: [x0, layers_0_xn], Original ATen: [aten.index_select, aten._fused_rms_norm]
# Source node to ATen node mapping:
#   layers_0_xn => add, convert_element_type, convert_element_type_1, mean, mul, mul_1, pow_1, rsqrt
#   x0 => index
# Graph fragment:
#   %arg1_1 : Tensor "i32[16][1]cuda:0" = PlaceHolder[target=arg1_1]
#   %arg0_1 : Tensor "f16[32000, 4096][4096, 1]cuda:0" = PlaceHolder[target=arg0_1]
#   %buf0 : Tensor "f32[16, 1][1, 16]cuda:0" = PlaceHolder[target=buf0]
#   %arg2_1 : Tensor "f16[4096][1]cuda:0" = PlaceHolder[target=arg2_1]
#   %index : Tensor "f16[16, 4096][4096, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.index.Tensor](args = (%arg0_1, [%arg1_1]), kwargs = {})
#   %convert_element_type : Tensor "f32[16, 4096][4096, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%index, torch.float32), kwargs = {})
#   %pow_1 : Tensor "f32[16, 4096][4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%convert_element_type, 2), kwargs = {})
#   %mean : Tensor "f32[16, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%pow_1, [1], True), kwargs = {})
#   %add : Tensor "f32[16, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Scalar](args = (%mean, 1e-05), kwargs = {})
#   %rsqrt : Tensor "f32[16, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add,), kwargs = {})
#   %mul : Tensor "f32[16, 4096][4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type, %rsqrt), kwargs = {})
#   %mul_1 : Tensor "f32[16, 4096][4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul, %arg2_1), kwargs = {})
#   %convert_element_type_1 : Tensor "f16[16, 4096][4096, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_1, torch.float16), kwargs = {})
#   return %buf0,%convert_element_type_1
triton_red_fused__fused_rms_norm_index_select_0 = async_compile.triton('triton_red_fused__fused_rms_norm_index_select_0', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.reduction(
    size_hints={'x': 16, 'r0_': 4096},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*i32', 'in_ptr1': '*fp16', 'in_ptr2': '*fp16', 'out_ptr1': '*fp16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused__fused_rms_norm_index_select_0', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'add_persistent_rblock': True, 'tiling_scores': {'x': 64, 'r0_': 270336}}
)
@triton.jit
def triton_red_fused__fused_rms_norm_index_select_0(in_ptr0, in_ptr1, in_ptr2, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 16
    r0_numel = 4096
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
        tmp1 = tl.full([1, 1], 32000, tl.int32)
        tmp2 = tmp0 + tmp1
        tmp3 = tmp0 < 0
        tmp4 = tl.where(tmp3, tmp2, tmp0)
        tl.device_assert(((0 <= tmp4) & (tmp4 < 32000)) | ~(xmask), "index out of bounds: 0 <= tmp4 < 32000")
        tmp6 = tl.load(in_ptr1 + (r0_1 + 4096*tmp4), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
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
        tmp12 = tl.full([1, 1], 32000, tl.int32)
        tmp13 = tmp0 + tmp12
        tmp14 = tmp0 < 0
        tmp15 = tl.where(tmp14, tmp13, tmp0)
        tl.device_assert(((0 <= tmp15) & (tmp15 < 32000)) | ~(xmask), "index out of bounds: 0 <= tmp15 < 32000")
        tmp17 = tl.load(in_ptr1 + (r0_1 + 4096*tmp15), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp18 = tmp17.to(tl.float32)
        tmp19 = tl.full([1, 1], 4096.0, tl.float32)
        tmp20 = (tmp10 / tmp19)
        tmp21 = tl.full([1, 1], 1e-05, tl.float32)
        tmp22 = tmp20 + tmp21
        tmp23 = libdevice.rsqrt(tmp22)
        tmp24 = tmp18 * tmp23
        tmp26 = tmp25.to(tl.float32)
        tmp27 = tmp24 * tmp26
        tmp28 = tmp27.to(tl.float32)
        tl.store(out_ptr1 + (r0_1 + 4096*x0), tmp28, r0_mask & xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/xz/cxzq5g3hdryfsblvr3jvmuin7qxcukkxjeq7rsir2tgfvintrvmc.py
# Topologically Sorted Source Nodes: [setitem, layers_0_kh, layers_0_k_rope_c, layers_0_k_rope_t2, layers_0_k_rope_t2n, layers_0_k_rope_t1, layers_0_k_rope_tr, layers_0_k_rope_s, layers_0_kr], Original ATen: [aten.slice, aten.view, aten.mul, aten.cat, aten.add, aten.copy]
# Source node to ATen node mapping:
#   layers_0_k_rope_c => mul_6
#   layers_0_k_rope_s => mul_7
#   layers_0_k_rope_t1 => slice_3
#   layers_0_k_rope_t2 => slice_4
#   layers_0_k_rope_t2n => mul_5
#   layers_0_k_rope_tr => cat_1
#   layers_0_kh => view_1
#   layers_0_kr => add_2
#   setitem => copy, slice_5
# Graph fragment:
#   %mm_1 : Tensor "f16[16, 4096][4096, 1]cuda:0" = PlaceHolder[target=mm_1]
#   %arg6_1 : Tensor "f16[1, 128][128, 1]cuda:0" = PlaceHolder[target=arg6_1]
#   %arg7_1 : Tensor "f16[1, 128][128, 1]cuda:0" = PlaceHolder[target=arg7_1]
#   %copy : Tensor "f16[16, 32, 1, 1, 128][4096, 128, 65536, 65536, 1]cuda:0" = PlaceHolder[target=copy]
#   %arg8_1 : Tensor "f16[16, 32, 1, 1024, 128][4194304, 131072, 131072, 128, 1]cuda:0" = PlaceHolder[target=arg8_1]
#   %slice_5 : Tensor "f16[16, 32, 1, 1, 128][4194304, 131072, 131072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%arg8_1, 3, 1023, 1024), kwargs = {})
#   %view_1 : Tensor "f16[16, 32, 1, 1, 128][4096, 128, 128, 128, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_1, [16, 32, 1, 1, 128]), kwargs = {})
#   %mul_6 : Tensor "f16[16, 32, 1, 1, 128][4096, 128, 128, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_1, %arg6_1), kwargs = {})
#   %slice_4 : Tensor "f16[16, 32, 1, 1, 64][4096, 128, 128, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%view_1, 4, 64, 128), kwargs = {})
#   %mul_5 : Tensor "f16[16, 32, 1, 1, 64][2048, 64, 64, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%slice_4, -1), kwargs = {})
#   %slice_3 : Tensor "f16[16, 32, 1, 1, 64][4096, 128, 128, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%view_1, 4, 0, 64), kwargs = {})
#   %cat_1 : Tensor "f16[16, 32, 1, 1, 128][4096, 128, 128, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%mul_5, %slice_3], -1), kwargs = {})
#   %mul_7 : Tensor "f16[16, 32, 1, 1, 128][4096, 128, 128, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%cat_1, %arg7_1), kwargs = {})
#   %add_2 : Tensor "f16[16, 32, 1, 1, 128][4096, 128, 128, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_6, %mul_7), kwargs = {})
#   %copy : Tensor "f16[16, 32, 1, 1, 128][4194304, 131072, 131072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.copy.default](args = (%slice_5, %add_2), kwargs = {})
#   %slice_tensor : Tensor "f16[16, 32, 1, 1, 128][4194304, 131072, 131072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%arg8_1, 3, 1023, 1024), kwargs = {})
#   %copy__default : Tensor "f16[16, 32, 1, 1, 128][4194304, 131072, 131072, 128, 1]cuda:0"[num_users=0] = call_function[target=torch.ops.aten.copy_.default](args = (%slice_tensor, %copy), kwargs = {})
#   return %copy,%buf5
triton_poi_fused_add_cat_copy_mul_slice_view_1 = async_compile.triton('triton_poi_fused_add_cat_copy_mul_slice_view_1', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 65536}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp16', 'in_ptr1': '*fp16', 'in_ptr2': '*fp16', 'out_ptr1': '*fp16', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_add_cat_copy_mul_slice_view_1', 'mutated_arg_names': ['out_ptr1'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 5, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 655872}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_add_cat_copy_mul_slice_view_1(in_ptr0, in_ptr1, in_ptr2, out_ptr1, xnumel, XBLOCK : tl.constexpr):
    xnumel = 65536
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x2 = xindex
    x0 = (xindex % 128)
    x1 = xindex // 128
    tmp0 = tl.load(in_ptr0 + (x2), None).to(tl.float32)
    tmp1 = tl.load(in_ptr1 + (x0), None, eviction_policy='evict_last').to(tl.float32)
    tmp18 = tl.load(in_ptr2 + (x0), None, eviction_policy='evict_last').to(tl.float32)
    tmp2 = tmp0 * tmp1
    tmp3 = x0
    tmp4 = tl.full([1], 0, tl.int64)
    tmp5 = tmp3 >= tmp4
    tmp6 = tl.full([1], 64, tl.int64)
    tmp7 = tmp3 < tmp6
    tmp8 = tl.load(in_ptr0 + (64 + 128*x1 + (x0)), tmp7, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp9 = tl.full([1], -1.0, tl.float32)
    tmp10 = tmp8 * tmp9
    tmp11 = tl.full(tmp10.shape, 0.0, tmp10.dtype)
    tmp12 = tl.where(tmp7, tmp10, tmp11)
    tmp13 = tmp3 >= tmp6
    tmp14 = tl.full([1], 128, tl.int64)
    tmp15 = tmp3 < tmp14
    tmp16 = tl.load(in_ptr0 + (128*x1 + ((-64) + x0)), tmp13, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp17 = tl.where(tmp7, tmp12, tmp16)
    tmp19 = tmp17 * tmp18
    tmp20 = tmp2 + tmp19
    tl.store(out_ptr1 + (130944 + x0 + 131072*x1), tmp20, None)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/qw/cqwpyhtjhypatdjb7rc7cfnzphgnznjyzkwx4xdqdpdp2vnxhab4.py
# Topologically Sorted Source Nodes: [setitem_1, layers_0_vh], Original ATen: [aten.slice, aten.view, aten.copy]
# Source node to ATen node mapping:
#   layers_0_vh => view_2
#   setitem_1 => copy_1, slice_7
# Graph fragment:
#   %mm_2 : Tensor "f16[16, 4096][4096, 1]cuda:0" = PlaceHolder[target=mm_2]
#   %arg9_1 : Tensor "f16[16, 32, 1, 1024, 128][4194304, 131072, 131072, 128, 1]cuda:0" = PlaceHolder[target=arg9_1]
#   %slice_7 : Tensor "f16[16, 32, 1, 1, 128][4194304, 131072, 131072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%arg9_1, 3, 1023, 1024), kwargs = {})
#   %view_2 : Tensor "f16[16, 32, 1, 1, 128][4096, 128, 128, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mm_2, [16, 32, 1, 1, 128]), kwargs = {})
#   %copy_1 : Tensor "f16[16, 32, 1, 1, 128][4194304, 131072, 131072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.copy.default](args = (%slice_7, %view_2), kwargs = {})
#   %slice_tensor_1 : Tensor "f16[16, 32, 1, 1, 128][4194304, 131072, 131072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%arg9_1, 3, 1023, 1024), kwargs = {})
#   %copy__default_1 : Tensor "f16[16, 32, 1, 1, 128][4194304, 131072, 131072, 128, 1]cuda:0"[num_users=0] = call_function[target=torch.ops.aten.copy_.default](args = (%slice_tensor_1, %copy_1), kwargs = {})
#   return %buf13
triton_poi_fused_copy_slice_view_2 = async_compile.triton('triton_poi_fused_copy_slice_view_2', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 65536}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp16', 'out_ptr0': '*fp16', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_copy_slice_view_2', 'mutated_arg_names': ['out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 393216}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_copy_slice_view_2(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 65536
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x2 = xindex
    x0 = (xindex % 128)
    x1 = xindex // 128
    tmp0 = tl.load(in_ptr0 + (x2), None).to(tl.float32)
    tl.store(out_ptr0 + (130944 + x0 + 131072*x1), tmp0, None)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/ii/ciitdbzdjhonxkr7mvofhtorvpjuu7hywki6ux4sv3kvrmgq7czt.py
# Topologically Sorted Source Nodes: [layers_0_qh, layers_0_q_rope_c, layers_0_q_rope_t2, layers_0_q_rope_t2n, layers_0_q_rope_t1, layers_0_q_rope_tr, layers_0_q_rope_s, layers_0_qr], Original ATen: [aten.view, aten.mul, aten.slice, aten.cat, aten.add, aten._to_copy]
# Source node to ATen node mapping:
#   layers_0_q_rope_c => mul_3
#   layers_0_q_rope_s => mul_4
#   layers_0_q_rope_t1 => slice_1
#   layers_0_q_rope_t2 => slice_2
#   layers_0_q_rope_t2n => mul_2
#   layers_0_q_rope_tr => cat
#   layers_0_qh => view
#   layers_0_qr => add_1
# Graph fragment:
#   %mm : Tensor "f16[16, 4096][4096, 1]cuda:0" = PlaceHolder[target=mm]
#   %arg6_1 : Tensor "f16[1, 128][128, 1]cuda:0" = PlaceHolder[target=arg6_1]
#   %arg7_1 : Tensor "f16[1, 128][128, 1]cuda:0" = PlaceHolder[target=arg7_1]
#   %view : Tensor "f16[16, 32, 1, 1, 128][4096, 128, 128, 128, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.reshape.default](args = (%mm, [16, 32, 1, 1, 128]), kwargs = {})
#   %mul_3 : Tensor "f16[16, 32, 1, 1, 128][4096, 128, 128, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view, %arg6_1), kwargs = {})
#   %slice_2 : Tensor "f16[16, 32, 1, 1, 64][4096, 128, 128, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%view, 4, 64, 128), kwargs = {})
#   %mul_2 : Tensor "f16[16, 32, 1, 1, 64][2048, 64, 64, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%slice_2, -1), kwargs = {})
#   %slice_1 : Tensor "f16[16, 32, 1, 1, 64][4096, 128, 128, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%view, 4, 0, 64), kwargs = {})
#   %cat : Tensor "f16[16, 32, 1, 1, 128][4096, 128, 128, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%mul_2, %slice_1], -1), kwargs = {})
#   %mul_4 : Tensor "f16[16, 32, 1, 1, 128][4096, 128, 128, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%cat, %arg7_1), kwargs = {})
#   %add_1 : Tensor "f16[16, 32, 1, 1, 128][4096, 128, 128, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_3, %mul_4), kwargs = {})
#   %convert_element_type_default_12 : Tensor "f32[16, 32, 1, 1, 128][4096, 128, 128, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_1, torch.float32), kwargs = {})
#   %mul_scalar_6 : Tensor "f32[16, 32, 1, 1, 128][4096, 128, 128, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Scalar](args = (%convert_element_type_default_12, 0.29730177875068026), kwargs = {})
#   return %expand_default_12
triton_poi_fused__to_copy_add_cat_mul_slice_view_3 = async_compile.triton('triton_poi_fused__to_copy_add_cat_mul_slice_view_3', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 65536}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp16', 'in_ptr1': '*fp16', 'in_ptr2': '*fp16', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__to_copy_add_cat_mul_slice_view_3', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 5, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 918016}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__to_copy_add_cat_mul_slice_view_3(in_ptr0, in_ptr1, in_ptr2, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 65536
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x2 = xindex
    x0 = (xindex % 128)
    x1 = xindex // 128
    tmp0 = tl.load(in_ptr0 + (x2), None).to(tl.float32)
    tmp1 = tl.load(in_ptr1 + (x0), None, eviction_policy='evict_last').to(tl.float32)
    tmp18 = tl.load(in_ptr2 + (x0), None, eviction_policy='evict_last').to(tl.float32)
    tmp2 = tmp0 * tmp1
    tmp3 = x0
    tmp4 = tl.full([1], 0, tl.int64)
    tmp5 = tmp3 >= tmp4
    tmp6 = tl.full([1], 64, tl.int64)
    tmp7 = tmp3 < tmp6
    tmp8 = tl.load(in_ptr0 + (64 + 128*x1 + (x0)), tmp7, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp9 = tl.full([1], -1.0, tl.float32)
    tmp10 = tmp8 * tmp9
    tmp11 = tl.full(tmp10.shape, 0.0, tmp10.dtype)
    tmp12 = tl.where(tmp7, tmp10, tmp11)
    tmp13 = tmp3 >= tmp6
    tmp14 = tl.full([1], 128, tl.int64)
    tmp15 = tmp3 < tmp14
    tmp16 = tl.load(in_ptr0 + (128*x1 + ((-64) + x0)), tmp13, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp17 = tl.where(tmp7, tmp12, tmp16)
    tmp19 = tmp17 * tmp18
    tmp20 = tmp2 + tmp19
    tmp21 = tmp20.to(tl.float32)
    tmp22 = tl.full([1], 0.29730177875068026, tl.float32)
    tmp23 = tmp21 * tmp22
    tl.store(out_ptr0 + (x2), tmp23, None)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/n6/cn6shqo5gbpbbjzd6idv4ijigkkfzdxubncdxmxixvfobrtfers5.py
# Topologically Sorted Source Nodes: [], Original ATen: [aten._to_copy, aten.transpose, aten.mul]
# Source node to ATen node mapping:
# Graph fragment:
#   %buf5 : Tensor "f16[16, 32, 1, 1, 128][4194304, 131072, 131072, 128, 1]cuda:0" = PlaceHolder[target=buf5]
#   %convert_element_type_default_13 : Tensor "f32[16, 32, 1, 1024, 128][4194304, 131072, 131072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%arg8_1, torch.float32), kwargs = {})
#   %permute_default_3 : Tensor "f32[16, 32, 1, 128, 1024][4194304, 131072, 131072, 1, 128]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.permute.default](args = (%convert_element_type_default_13, [0, 1, 2, 4, 3]), kwargs = {})
#   %mul_scalar_7 : Tensor "f32[16, 32, 1, 128, 1024][4194304, 131072, 131072, 1, 128]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Scalar](args = (%permute_default_3, 0.29730177875068026), kwargs = {})
#   return %expand_default_13
triton_poi_fused__to_copy_mul_transpose_4 = async_compile.triton('triton_poi_fused__to_copy_mul_transpose_4', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 67108864}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp16', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__to_copy_mul_transpose_4', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 536870912}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__to_copy_mul_transpose_4(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 67108864
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = (xindex % 1024)
    x1 = ((xindex // 1024) % 128)
    x2 = xindex // 131072
    x3 = xindex
    tmp0 = tl.load(in_ptr0 + (x1 + 128*x0 + 131072*x2), None, eviction_policy='evict_last').to(tl.float32)
    tmp1 = tmp0.to(tl.float32)
    tmp2 = tl.full([1], 0.29730177875068026, tl.float32)
    tmp3 = tmp1 * tmp2
    tl.store(out_ptr0 + (x3), tmp3, None)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/7s/c7sc6gob5sgtr5bvyd4jooz5szuu64zvihgl5puh4plxpupfdczr.py
# Topologically Sorted Source Nodes: [], Original ATen: [aten.view, aten._safe_softmax, prims.prepare_softmax_online, aten.sub, aten.exp]
# Source node to ATen node mapping:
# Graph fragment:
#   %bmm_default_6 : Tensor "f32[512, 1, 1024][1024, 1024, 1]cuda:0" = PlaceHolder[target=bmm_default_6]
#   %any_dim_3 : Tensor "b8[16, 32, 1, 1, 1][32, 1, 512, 512, 512]cuda:0" = PlaceHolder[target=any_dim_3]
#   %getitem_6 : Tensor "f32[16, 32, 1, 1, 1][32, 1, 512, 512, 512]cuda:0" = PlaceHolder[target=getitem_6]
#   %getitem_7 : Tensor "f32[16, 32, 1, 1, 1][32, 1, 512, 512, 512]cuda:0" = PlaceHolder[target=getitem_7]
#   %view_default_20 : Tensor "f32[16, 32, 1, 1, 1024][32768, 1024, 1024, 1024, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.reshape.default](args = (%bmm_default_6, [16, 32, 1, 1, 1024]), kwargs = {})
#   %eq_scalar_3 : Tensor "b8[16, 32, 1, 1, 1024][32768, 1024, 1024, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.eq.Scalar](args = (%view_default_20, -inf), kwargs = {})
#   %logical_not_default_6 : Tensor "b8[16, 32, 1, 1, 1024][32768, 1024, 1024, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.logical_not.default](args = (%eq_scalar_3,), kwargs = {})
#   %any_dim_3 : Tensor "b8[16, 32, 1, 1, 1][32, 1, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.any.dim](args = (%logical_not_default_6, -1, True), kwargs = {})
#   %logical_not_default_7 : Tensor "b8[16, 32, 1, 1, 1][32, 1, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.logical_not.default](args = (%any_dim_3,), kwargs = {})
#   %full_default_3 : Tensor "f32[16, 32, 1, 1, 1024][32768, 1024, 1024, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.full.default](args = ([16, 32, 1, 1, 1024], 0), kwargs = {dtype: torch.float32, layout: torch.strided, device: cuda:0, pin_memory: False})
#   %prepare_softmax_online_default_3 : [num_users=2] = call_function[target=torch.ops.prims.prepare_softmax_online.default](args = (%view_default_20, -1), kwargs = {})
#   %sub_tensor_7 : Tensor "f32[16, 32, 1, 1, 1024][32768, 1024, 1024, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%view_default_20, %getitem_6), kwargs = {})
#   %exp_default_7 : Tensor "f32[16, 32, 1, 1, 1024][32768, 1024, 1024, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%sub_tensor_7,), kwargs = {})
#   %div_tensor_3 : Tensor "f32[16, 32, 1, 1, 1024][32768, 1024, 1024, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%exp_default_7, %getitem_7), kwargs = {})
#   %where_self_3 : Tensor "f32[16, 32, 1, 1, 1024][32768, 1024, 1024, 1024, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.where.self](args = (%logical_not_default_7, %full_default_3, %div_tensor_3), kwargs = {})
#   return %any_dim_3,%getitem_6,%getitem_7,%expand_default_14
triton_per_fused__safe_softmax_exp_prepare_softmax_online_sub_view_5 = async_compile.triton('triton_per_fused__safe_softmax_exp_prepare_softmax_online_sub_view_5', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 512, 'r0_': 1024},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused__safe_softmax_exp_prepare_softmax_online_sub_view_5', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 5, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 0, 'r0_': 6291456}}
)
@triton.jit
def triton_per_fused__safe_softmax_exp_prepare_softmax_online_sub_view_5(in_out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 512
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
    tmp0 = tl.load(in_out_ptr0 + (r0_1 + 1024*x0), xmask, other=0.0)
    tmp1 = tl.full([1, 1], float("-inf"), tl.float32)
    tmp2 = tmp0 == tmp1
    tmp3 = tmp2 == 0
    tmp4 = tmp3.to(tl.int64)
    tmp5 = (tmp4 != 0)
    tmp6 = tl.broadcast_to(tmp5, [XBLOCK, R0_BLOCK])
    tmp8 = tl.where(xmask, tmp6, False)
    tmp9 = triton_helpers.any(tmp8, 1)[:, None].to(tl.int1)
    tmp10 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp12 = tl.broadcast_to(tmp10, [XBLOCK, R0_BLOCK])
    tmp14 = tl.where(xmask, tmp12, float("-inf"))
    tmp15 = triton_helpers.max2(tmp14, 1)[:, None].to(tl.float32)
    tmp16 = tmp10 - tmp15
    tmp17 = libdevice.exp(tmp16)
    tmp18 = tl.broadcast_to(tmp17, [XBLOCK, R0_BLOCK])
    tmp20 = tl.where(xmask, tmp18, 0)
    tmp21 = tl.sum(tmp20, 1)[:, None].to(tl.float32)
    tmp22 = tmp9 == 0
    tmp23 = tmp0 - tmp15
    tmp24 = libdevice.exp(tmp23)
    tmp25 = (tmp24 / tmp21)
    tmp26 = tl.full([1, 1], 0.0, tl.float32)
    tmp27 = tl.where(tmp22, tmp26, tmp25)
    tl.store(in_out_ptr0 + (r0_1 + 1024*x0), tmp27, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/yh/cyhxxp57oqkyjpxc6bau357nddb56wmu2lbbnty655ss7onvbt62.py
# Topologically Sorted Source Nodes: [], Original ATen: [aten._to_copy]
# Source node to ATen node mapping:
# Graph fragment:
#   %buf13 : Tensor "f16[16, 32, 1, 1, 128][4194304, 131072, 131072, 128, 1]cuda:0" = PlaceHolder[target=buf13]
#   %convert_element_type_default_14 : Tensor "f32[16, 32, 1, 1024, 128][4194304, 131072, 131072, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%arg9_1, torch.float32), kwargs = {})
#   return %expand_default_15
triton_poi_fused__to_copy_6 = async_compile.triton('triton_poi_fused__to_copy_6', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 67108864}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp16', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__to_copy_6', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 536870912}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__to_copy_6(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 67108864
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), None).to(tl.float32)
    tmp1 = tmp0.to(tl.float32)
    tl.store(out_ptr0 + (x0), tmp1, None)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/bh/cbhbnidt63gase7uj3jcvvjt4slvv6nvqyr4osmpvkt4uuke7jva.py
# Topologically Sorted Source Nodes: [], Original ATen: [aten.view, aten._to_copy]
# Source node to ATen node mapping:
# Graph fragment:
#   %bmm_default_7 : Tensor "f32[512, 1, 128][128, 128, 1]cuda:0" = PlaceHolder[target=bmm_default_7]
#   %view_default_23 : Tensor "f32[16, 32, 1, 1, 128][4096, 128, 128, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%bmm_default_7, [16, 32, 1, 1, 128]), kwargs = {})
#   %convert_element_type_default_15 : Tensor "f16[16, 32, 1, 1, 128][4096, 128, 128, 128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%view_default_23, torch.float16), kwargs = {})
#   return %convert_element_type_default_15
triton_poi_fused__to_copy_view_7 = async_compile.triton('triton_poi_fused__to_copy_view_7', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 65536}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp16', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__to_copy_view_7', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 524288}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__to_copy_view_7(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 65536
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), None)
    tmp1 = tmp0.to(tl.float32)
    tl.store(out_ptr0 + (x0), tmp1, None)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/3n/c3nptj35vpjoc4vcoclocymaqtdvc4pyaeaxgqo27bqtjbdp7lsl.py
# Topologically Sorted Source Nodes: [x0, layers_0_h, layers_0_mlp_xn], Original ATen: [aten.index_select, aten.add, aten._fused_rms_norm]
# Source node to ATen node mapping:
#   layers_0_h => add_3
#   layers_0_mlp_xn => add_4, convert_element_type_16, convert_element_type_17, mean_1, mul_10, mul_9, pow_2, rsqrt_1
#   x0 => index
# Graph fragment:
#   %mm_3 : Tensor "f16[16, 4096][4096, 1]cuda:0" = PlaceHolder[target=mm_3]
#   %arg1_1 : Tensor "i32[16][1]cuda:0" = PlaceHolder[target=arg1_1]
#   %arg0_1 : Tensor "f16[32000, 4096][4096, 1]cuda:0" = PlaceHolder[target=arg0_1]
#   %buf19 : Tensor "f32[16, 1][1, 16]cuda:0" = PlaceHolder[target=buf19]
#   %arg11_1 : Tensor "f16[4096][1]cuda:0" = PlaceHolder[target=arg11_1]
#   %index : Tensor "f16[16, 4096][4096, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.index.Tensor](args = (%arg0_1, [%arg1_1]), kwargs = {})
#   %add_3 : Tensor "f16[16, 4096][4096, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%mm_3, %index), kwargs = {})
#   %convert_element_type_16 : Tensor "f32[16, 4096][4096, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_3, torch.float32), kwargs = {})
#   %pow_2 : Tensor "f32[16, 4096][4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%convert_element_type_16, 2), kwargs = {})
#   %mean_1 : Tensor "f32[16, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%pow_2, [1], True), kwargs = {})
#   %add_4 : Tensor "f32[16, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Scalar](args = (%mean_1, 1e-05), kwargs = {})
#   %rsqrt_1 : Tensor "f32[16, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_4,), kwargs = {})
#   %mul_9 : Tensor "f32[16, 4096][4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_16, %rsqrt_1), kwargs = {})
#   %mul_10 : Tensor "f32[16, 4096][4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_9, %arg11_1), kwargs = {})
#   %convert_element_type_17 : Tensor "f16[16, 4096][4096, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_10, torch.float16), kwargs = {})
#   return %buf19,%convert_element_type_17
triton_red_fused__fused_rms_norm_add_index_select_8 = async_compile.triton('triton_red_fused__fused_rms_norm_add_index_select_8', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.reduction(
    size_hints={'x': 16, 'r0_': 4096},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp16', 'in_ptr1': '*i32', 'in_ptr2': '*fp16', 'in_ptr3': '*fp16', 'out_ptr1': '*fp16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused__fused_rms_norm_add_index_select_8', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 4, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'add_persistent_rblock': True, 'tiling_scores': {'x': 64, 'r0_': 401408}}
)
@triton.jit
def triton_red_fused__fused_rms_norm_add_index_select_8(in_ptr0, in_ptr1, in_ptr2, in_ptr3, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 16
    r0_numel = 4096
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
        tmp0 = tl.load(in_ptr0 + (r0_1 + 4096*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp2 = tl.full([1, 1], 32000, tl.int32)
        tmp3 = tmp1 + tmp2
        tmp4 = tmp1 < 0
        tmp5 = tl.where(tmp4, tmp3, tmp1)
        tl.device_assert(((0 <= tmp5) & (tmp5 < 32000)) | ~(xmask), "index out of bounds: 0 <= tmp5 < 32000")
        tmp7 = tl.load(in_ptr2 + (r0_1 + 4096*tmp5), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
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
        tmp14 = tl.load(in_ptr0 + (r0_1 + 4096*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp29 = tl.load(in_ptr3 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp15 = tl.full([1, 1], 32000, tl.int32)
        tmp16 = tmp1 + tmp15
        tmp17 = tmp1 < 0
        tmp18 = tl.where(tmp17, tmp16, tmp1)
        tl.device_assert(((0 <= tmp18) & (tmp18 < 32000)) | ~(xmask), "index out of bounds: 0 <= tmp18 < 32000")
        tmp20 = tl.load(in_ptr2 + (r0_1 + 4096*tmp18), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp21 = tmp14 + tmp20
        tmp22 = tmp21.to(tl.float32)
        tmp23 = tl.full([1, 1], 4096.0, tl.float32)
        tmp24 = (tmp12 / tmp23)
        tmp25 = tl.full([1, 1], 1e-05, tl.float32)
        tmp26 = tmp24 + tmp25
        tmp27 = libdevice.rsqrt(tmp26)
        tmp28 = tmp22 * tmp27
        tmp30 = tmp29.to(tl.float32)
        tmp31 = tmp28 * tmp30
        tmp32 = tmp31.to(tl.float32)
        tl.store(out_ptr1 + (r0_1 + 4096*x0), tmp32, r0_mask & xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/zu/czudd3jez7o6zi4imyv66znrcup3xuh5722mbh6a4zfcyk2eyffj.py
# Topologically Sorted Source Nodes: [layers_0_mlp_gs, layers_0_mlp_m], Original ATen: [aten.silu, aten.mul]
# Source node to ATen node mapping:
#   layers_0_mlp_gs => add_5, convert_element_type_22, convert_element_type_23, div_1, exp_1, neg
#   layers_0_mlp_m => mul_11
# Graph fragment:
#   %mm_4 : Tensor "f16[16, 11008][11008, 1]cuda:0" = PlaceHolder[target=mm_4]
#   %mm_5 : Tensor "f16[16, 11008][11008, 1]cuda:0" = PlaceHolder[target=mm_5]
#   %convert_element_type_22 : Tensor "f32[16, 11008][11008, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mm_4, torch.float32), kwargs = {})
#   %neg : Tensor "f32[16, 11008][11008, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%convert_element_type_22,), kwargs = {})
#   %exp_1 : Tensor "f32[16, 11008][11008, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%neg,), kwargs = {})
#   %add_5 : Tensor "f32[16, 11008][11008, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%exp_1, 1), kwargs = {})
#   %div_1 : Tensor "f32[16, 11008][11008, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%convert_element_type_22, %add_5), kwargs = {})
#   %convert_element_type_23 : Tensor "f16[16, 11008][11008, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%div_1, torch.float16), kwargs = {})
#   %mul_11 : Tensor "f16[16, 11008][11008, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_23, %mm_5), kwargs = {})
#   return %mul_11
triton_poi_fused_mul_silu_9 = async_compile.triton('triton_poi_fused_mul_silu_9', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 262144}, 
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp16', 'in_ptr0': '*fp16', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_mul_silu_9', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 1409024}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_mul_silu_9(in_out_ptr0, in_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 176128
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = xindex
    tmp0 = tl.load(in_out_ptr0 + (x0), None).to(tl.float32)
    tmp8 = tl.load(in_ptr0 + (x0), None).to(tl.float32)
    tmp1 = tmp0.to(tl.float32)
    tmp2 = -tmp1
    tmp3 = libdevice.exp(tmp2)
    tmp4 = tl.full([1], 1.0, tl.float32)
    tmp5 = tmp3 + tmp4
    tmp6 = (tmp1 / tmp5)
    tmp7 = tmp6.to(tl.float32)
    tmp9 = tmp7 * tmp8
    tl.store(in_out_ptr0 + (x0), tmp9, None)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/4v/c4vl74zar3yhhmcnhrralemedxb4xkzvrshfhodd4rc2dqt236bu.py
# Topologically Sorted Source Nodes: [x0, layers_0_h, layers_0_y, layers_1_xn], Original ATen: [aten.index_select, aten.add, aten._fused_rms_norm]
# Source node to ATen node mapping:
#   layers_0_h => add_3
#   layers_0_y => add_6
#   layers_1_xn => add_7, convert_element_type_26, convert_element_type_27, mean_2, mul_12, mul_13, pow_3, rsqrt_2
#   x0 => index
# Graph fragment:
#   %mm_6 : Tensor "f16[16, 4096][4096, 1]cuda:0" = PlaceHolder[target=mm_6]
#   %mm_3 : Tensor "f16[16, 4096][4096, 1]cuda:0" = PlaceHolder[target=mm_3]
#   %arg1_1 : Tensor "i32[16][1]cuda:0" = PlaceHolder[target=arg1_1]
#   %arg0_1 : Tensor "f16[32000, 4096][4096, 1]cuda:0" = PlaceHolder[target=arg0_1]
#   %buf25 : Tensor "f32[16, 1][1, 16]cuda:0" = PlaceHolder[target=buf25]
#   %arg15_1 : Tensor "f16[4096][1]cuda:0" = PlaceHolder[target=arg15_1]
#   %index : Tensor "f16[16, 4096][4096, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.index.Tensor](args = (%arg0_1, [%arg1_1]), kwargs = {})
#   %add_3 : Tensor "f16[16, 4096][4096, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%mm_3, %index), kwargs = {})
#   %add_6 : Tensor "f16[16, 4096][4096, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%mm_6, %add_3), kwargs = {})
#   %convert_element_type_26 : Tensor "f32[16, 4096][4096, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_6, torch.float32), kwargs = {})
#   %pow_3 : Tensor "f32[16, 4096][4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%convert_element_type_26, 2), kwargs = {})
#   %mean_2 : Tensor "f32[16, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%pow_3, [1], True), kwargs = {})
#   %add_7 : Tensor "f32[16, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Scalar](args = (%mean_2, 1e-05), kwargs = {})
#   %rsqrt_2 : Tensor "f32[16, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_7,), kwargs = {})
#   %mul_12 : Tensor "f32[16, 4096][4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_26, %rsqrt_2), kwargs = {})
#   %mul_13 : Tensor "f32[16, 4096][4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_12, %arg15_1), kwargs = {})
#   %convert_element_type_27 : Tensor "f16[16, 4096][4096, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_13, torch.float16), kwargs = {})
#   return %buf25,%convert_element_type_27
triton_red_fused__fused_rms_norm_add_index_select_10 = async_compile.triton('triton_red_fused__fused_rms_norm_add_index_select_10', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.reduction(
    size_hints={'x': 16, 'r0_': 4096},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp16', 'in_ptr1': '*fp16', 'in_ptr2': '*i32', 'in_ptr3': '*fp16', 'in_ptr4': '*fp16', 'out_ptr1': '*fp16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused__fused_rms_norm_add_index_select_10', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 6, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'add_persistent_rblock': True, 'tiling_scores': {'x': 64, 'r0_': 532480}}
)
@triton.jit
def triton_red_fused__fused_rms_norm_add_index_select_10(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 16
    r0_numel = 4096
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
        tmp0 = tl.load(in_ptr0 + (r0_1 + 4096*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp1 = tl.load(in_ptr1 + (r0_1 + 4096*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp3 = tl.full([1, 1], 32000, tl.int32)
        tmp4 = tmp2 + tmp3
        tmp5 = tmp2 < 0
        tmp6 = tl.where(tmp5, tmp4, tmp2)
        tl.device_assert(((0 <= tmp6) & (tmp6 < 32000)) | ~(xmask), "index out of bounds: 0 <= tmp6 < 32000")
        tmp8 = tl.load(in_ptr3 + (r0_1 + 4096*tmp6), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
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
        tmp16 = tl.load(in_ptr0 + (r0_1 + 4096*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp17 = tl.load(in_ptr1 + (r0_1 + 4096*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp33 = tl.load(in_ptr4 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp18 = tl.full([1, 1], 32000, tl.int32)
        tmp19 = tmp2 + tmp18
        tmp20 = tmp2 < 0
        tmp21 = tl.where(tmp20, tmp19, tmp2)
        tl.device_assert(((0 <= tmp21) & (tmp21 < 32000)) | ~(xmask), "index out of bounds: 0 <= tmp21 < 32000")
        tmp23 = tl.load(in_ptr3 + (r0_1 + 4096*tmp21), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp24 = tmp17 + tmp23
        tmp25 = tmp16 + tmp24
        tmp26 = tmp25.to(tl.float32)
        tmp27 = tl.full([1, 1], 4096.0, tl.float32)
        tmp28 = (tmp14 / tmp27)
        tmp29 = tl.full([1, 1], 1e-05, tl.float32)
        tmp30 = tmp28 + tmp29
        tmp31 = libdevice.rsqrt(tmp30)
        tmp32 = tmp26 * tmp31
        tmp34 = tmp33.to(tl.float32)
        tmp35 = tmp32 * tmp34
        tmp36 = tmp35.to(tl.float32)
        tl.store(out_ptr1 + (r0_1 + 4096*x0), tmp36, r0_mask & xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/kf/ckfb73gkagtqc6mbqcqx4gloikmvwbrvft4d5ejs77exfqtpdnjm.py
# Topologically Sorted Source Nodes: [x0, layers_0_h, layers_0_y, layers_1_h, layers_1_mlp_xn], Original ATen: [aten.index_select, aten.add, aten._fused_rms_norm]
# Source node to ATen node mapping:
#   layers_0_h => add_3
#   layers_0_y => add_6
#   layers_1_h => add_10
#   layers_1_mlp_xn => add_11, convert_element_type_42, convert_element_type_43, mean_3, mul_21, mul_22, pow_4, rsqrt_3
#   x0 => index
# Graph fragment:
#   %mm_10 : Tensor "f16[16, 4096][4096, 1]cuda:0" = PlaceHolder[target=mm_10]
#   %mm_6 : Tensor "f16[16, 4096][4096, 1]cuda:0" = PlaceHolder[target=mm_6]
#   %mm_3 : Tensor "f16[16, 4096][4096, 1]cuda:0" = PlaceHolder[target=mm_3]
#   %arg1_1 : Tensor "i32[16][1]cuda:0" = PlaceHolder[target=arg1_1]
#   %arg0_1 : Tensor "f16[32000, 4096][4096, 1]cuda:0" = PlaceHolder[target=arg0_1]
#   %add_10 : Tensor "f16[16, 4096][4096, 1]cuda:0" = PlaceHolder[target=add_10]
#   %buf45 : Tensor "f32[16, 1][1, 16]cuda:0" = PlaceHolder[target=buf45]
#   %arg22_1 : Tensor "f16[4096][1]cuda:0" = PlaceHolder[target=arg22_1]
#   %index : Tensor "f16[16, 4096][4096, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.index.Tensor](args = (%arg0_1, [%arg1_1]), kwargs = {})
#   %add_3 : Tensor "f16[16, 4096][4096, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%mm_3, %index), kwargs = {})
#   %add_6 : Tensor "f16[16, 4096][4096, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%mm_6, %add_3), kwargs = {})
#   %add_10 : Tensor "f16[16, 4096][4096, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%mm_10, %add_6), kwargs = {})
#   %convert_element_type_42 : Tensor "f32[16, 4096][4096, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_10, torch.float32), kwargs = {})
#   %pow_4 : Tensor "f32[16, 4096][4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%convert_element_type_42, 2), kwargs = {})
#   %mean_3 : Tensor "f32[16, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%pow_4, [1], True), kwargs = {})
#   %add_11 : Tensor "f32[16, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Scalar](args = (%mean_3, 1e-05), kwargs = {})
#   %rsqrt_3 : Tensor "f32[16, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_11,), kwargs = {})
#   %mul_21 : Tensor "f32[16, 4096][4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_42, %rsqrt_3), kwargs = {})
#   %mul_22 : Tensor "f32[16, 4096][4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_21, %arg22_1), kwargs = {})
#   %convert_element_type_43 : Tensor "f16[16, 4096][4096, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_22, torch.float16), kwargs = {})
#   return %add_10,%buf45,%convert_element_type_43
triton_red_fused__fused_rms_norm_add_index_select_11 = async_compile.triton('triton_red_fused__fused_rms_norm_add_index_select_11', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.reduction(
    size_hints={'x': 16, 'r0_': 4096},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp16', 'in_ptr0': '*fp16', 'in_ptr1': '*fp16', 'in_ptr2': '*i32', 'in_ptr3': '*fp16', 'in_ptr4': '*fp16', 'out_ptr1': '*fp16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused__fused_rms_norm_add_index_select_11', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 6, 'num_store': 2, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 64, 'r0_': 925696}}
)
@triton.jit
def triton_red_fused__fused_rms_norm_add_index_select_11(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 16
    r0_numel = 4096
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
        tmp0 = tl.load(in_out_ptr0 + (r0_1 + 4096*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp1 = tl.load(in_ptr0 + (r0_1 + 4096*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp2 = tl.load(in_ptr1 + (r0_1 + 4096*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp4 = tl.full([1, 1], 32000, tl.int32)
        tmp5 = tmp3 + tmp4
        tmp6 = tmp3 < 0
        tmp7 = tl.where(tmp6, tmp5, tmp3)
        tl.device_assert(((0 <= tmp7) & (tmp7 < 32000)) | ~(xmask), "index out of bounds: 0 <= tmp7 < 32000")
        tmp9 = tl.load(in_ptr3 + (r0_1 + 4096*tmp7), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp10 = tmp2 + tmp9
        tmp11 = tmp1 + tmp10
        tmp12 = tmp0 + tmp11
        tmp13 = tmp12.to(tl.float32)
        tmp14 = tmp13 * tmp13
        tmp15 = tl.broadcast_to(tmp14, [XBLOCK, R0_BLOCK])
        tmp17 = _tmp16 + tmp15
        _tmp16 = tl.where(r0_mask & xmask, tmp17, _tmp16)
        tl.store(in_out_ptr0 + (r0_1 + 4096*x0), tmp12, r0_mask & xmask)
    tmp16 = tl.sum(_tmp16, 1)[:, None]
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp18 = tl.load(in_out_ptr0 + (r0_1 + 4096*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp26 = tl.load(in_ptr4 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp19 = tmp18.to(tl.float32)
        tmp20 = tl.full([1, 1], 4096.0, tl.float32)
        tmp21 = (tmp16 / tmp20)
        tmp22 = tl.full([1, 1], 1e-05, tl.float32)
        tmp23 = tmp21 + tmp22
        tmp24 = libdevice.rsqrt(tmp23)
        tmp25 = tmp19 * tmp24
        tmp27 = tmp26.to(tl.float32)
        tmp28 = tmp25 * tmp27
        tmp29 = tmp28.to(tl.float32)
        tl.store(out_ptr1 + (r0_1 + 4096*x0), tmp29, r0_mask & xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/a3/ca3mrwprxrwvwxhjgrap7jod7sjmyy7nnojb7o4q6kkc6ealqk7q.py
# Topologically Sorted Source Nodes: [layers_1_y, layers_2_xn], Original ATen: [aten.add, aten._fused_rms_norm]
# Source node to ATen node mapping:
#   layers_1_y => add_13
#   layers_2_xn => add_14, convert_element_type_52, convert_element_type_53, mean_4, mul_24, mul_25, pow_5, rsqrt_4
# Graph fragment:
#   %mm_13 : Tensor "f16[16, 4096][4096, 1]cuda:0" = PlaceHolder[target=mm_13]
#   %add_10 : Tensor "f16[16, 4096][4096, 1]cuda:0" = PlaceHolder[target=add_10]
#   %buf51 : Tensor "f32[16, 1][1, 16]cuda:0" = PlaceHolder[target=buf51]
#   %arg26_1 : Tensor "f16[4096][1]cuda:0" = PlaceHolder[target=arg26_1]
#   %add_13 : Tensor "f16[16, 4096][4096, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%mm_13, %add_10), kwargs = {})
#   %convert_element_type_52 : Tensor "f32[16, 4096][4096, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_13, torch.float32), kwargs = {})
#   %pow_5 : Tensor "f32[16, 4096][4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%convert_element_type_52, 2), kwargs = {})
#   %mean_4 : Tensor "f32[16, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%pow_5, [1], True), kwargs = {})
#   %add_14 : Tensor "f32[16, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Scalar](args = (%mean_4, 1e-05), kwargs = {})
#   %rsqrt_4 : Tensor "f32[16, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_14,), kwargs = {})
#   %mul_24 : Tensor "f32[16, 4096][4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_52, %rsqrt_4), kwargs = {})
#   %mul_25 : Tensor "f32[16, 4096][4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_24, %arg26_1), kwargs = {})
#   %convert_element_type_53 : Tensor "f16[16, 4096][4096, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_25, torch.float16), kwargs = {})
#   return %buf51,%convert_element_type_53
triton_red_fused__fused_rms_norm_add_12 = async_compile.triton('triton_red_fused__fused_rms_norm_add_12', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.reduction(
    size_hints={'x': 16, 'r0_': 4096},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp16', 'in_ptr1': '*fp16', 'in_ptr2': '*fp16', 'out_ptr1': '*fp16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused__fused_rms_norm_add_12', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 5, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'add_persistent_rblock': True, 'tiling_scores': {'x': 0, 'r0_': 532480}}
)
@triton.jit
def triton_red_fused__fused_rms_norm_add_12(in_ptr0, in_ptr1, in_ptr2, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 16
    r0_numel = 4096
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
        tmp0 = tl.load(in_ptr0 + (r0_1 + 4096*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp1 = tl.load(in_ptr1 + (r0_1 + 4096*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
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
        tmp8 = tl.load(in_ptr0 + (r0_1 + 4096*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp9 = tl.load(in_ptr1 + (r0_1 + 4096*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp18 = tl.load(in_ptr2 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp10 = tmp8 + tmp9
        tmp11 = tmp10.to(tl.float32)
        tmp12 = tl.full([1, 1], 4096.0, tl.float32)
        tmp13 = (tmp6 / tmp12)
        tmp14 = tl.full([1, 1], 1e-05, tl.float32)
        tmp15 = tmp13 + tmp14
        tmp16 = libdevice.rsqrt(tmp15)
        tmp17 = tmp11 * tmp16
        tmp19 = tmp18.to(tl.float32)
        tmp20 = tmp17 * tmp19
        tmp21 = tmp20.to(tl.float32)
        tl.store(out_ptr1 + (r0_1 + 4096*x0), tmp21, r0_mask & xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/pz/cpz7budiebndh6w5v5llt5wwv7lgco6ljx62zjm74r6fuu7fb5cy.py
# Topologically Sorted Source Nodes: [layers_1_y, layers_2_h, layers_2_mlp_xn], Original ATen: [aten.add, aten._fused_rms_norm]
# Source node to ATen node mapping:
#   layers_1_y => add_13
#   layers_2_h => add_17
#   layers_2_mlp_xn => add_18, convert_element_type_68, convert_element_type_69, mean_5, mul_33, mul_34, pow_6, rsqrt_5
# Graph fragment:
#   %mm_17 : Tensor "f16[16, 4096][4096, 1]cuda:0" = PlaceHolder[target=mm_17]
#   %mm_13 : Tensor "f16[16, 4096][4096, 1]cuda:0" = PlaceHolder[target=mm_13]
#   %add_10 : Tensor "f16[16, 4096][4096, 1]cuda:0" = PlaceHolder[target=add_10]
#   %buf70 : Tensor "f32[16, 1][1, 16]cuda:0" = PlaceHolder[target=buf70]
#   %arg33_1 : Tensor "f16[4096][1]cuda:0" = PlaceHolder[target=arg33_1]
#   %add_13 : Tensor "f16[16, 4096][4096, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%mm_13, %add_10), kwargs = {})
#   %add_17 : Tensor "f16[16, 4096][4096, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%mm_17, %add_13), kwargs = {})
#   %convert_element_type_68 : Tensor "f32[16, 4096][4096, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_17, torch.float32), kwargs = {})
#   %pow_6 : Tensor "f32[16, 4096][4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%convert_element_type_68, 2), kwargs = {})
#   %mean_5 : Tensor "f32[16, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%pow_6, [1], True), kwargs = {})
#   %add_18 : Tensor "f32[16, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Scalar](args = (%mean_5, 1e-05), kwargs = {})
#   %rsqrt_5 : Tensor "f32[16, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_18,), kwargs = {})
#   %mul_33 : Tensor "f32[16, 4096][4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_68, %rsqrt_5), kwargs = {})
#   %mul_34 : Tensor "f32[16, 4096][4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_33, %arg33_1), kwargs = {})
#   %convert_element_type_69 : Tensor "f16[16, 4096][4096, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_34, torch.float16), kwargs = {})
#   return %buf70,%convert_element_type_69
triton_red_fused__fused_rms_norm_add_13 = async_compile.triton('triton_red_fused__fused_rms_norm_add_13', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.reduction(
    size_hints={'x': 16, 'r0_': 4096},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp16', 'in_ptr1': '*fp16', 'in_ptr2': '*fp16', 'in_ptr3': '*fp16', 'out_ptr1': '*fp16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused__fused_rms_norm_add_13', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 7, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'add_persistent_rblock': True, 'tiling_scores': {'x': 0, 'r0_': 663552}}
)
@triton.jit
def triton_red_fused__fused_rms_norm_add_13(in_ptr0, in_ptr1, in_ptr2, in_ptr3, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 16
    r0_numel = 4096
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
        tmp0 = tl.load(in_ptr0 + (r0_1 + 4096*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp1 = tl.load(in_ptr1 + (r0_1 + 4096*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp2 = tl.load(in_ptr2 + (r0_1 + 4096*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
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
        tmp10 = tl.load(in_ptr0 + (r0_1 + 4096*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp11 = tl.load(in_ptr1 + (r0_1 + 4096*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp12 = tl.load(in_ptr2 + (r0_1 + 4096*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp22 = tl.load(in_ptr3 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp13 = tmp11 + tmp12
        tmp14 = tmp10 + tmp13
        tmp15 = tmp14.to(tl.float32)
        tmp16 = tl.full([1, 1], 4096.0, tl.float32)
        tmp17 = (tmp8 / tmp16)
        tmp18 = tl.full([1, 1], 1e-05, tl.float32)
        tmp19 = tmp17 + tmp18
        tmp20 = libdevice.rsqrt(tmp19)
        tmp21 = tmp15 * tmp20
        tmp23 = tmp22.to(tl.float32)
        tmp24 = tmp21 * tmp23
        tmp25 = tmp24.to(tl.float32)
        tl.store(out_ptr1 + (r0_1 + 4096*x0), tmp25, r0_mask & xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/yb/cyby7aqv6akcw3zblgrw6ivt5gftjmzqp3rjoeasj32dnv65dsm2.py
# Topologically Sorted Source Nodes: [layers_1_y, layers_2_h, layers_2_y, layers_3_xn], Original ATen: [aten.add, aten._fused_rms_norm]
# Source node to ATen node mapping:
#   layers_1_y => add_13
#   layers_2_h => add_17
#   layers_2_y => add_20
#   layers_3_xn => add_21, convert_element_type_78, convert_element_type_79, mean_6, mul_36, mul_37, pow_7, rsqrt_6
# Graph fragment:
#   %mm_20 : Tensor "f16[16, 4096][4096, 1]cuda:0" = PlaceHolder[target=mm_20]
#   %mm_17 : Tensor "f16[16, 4096][4096, 1]cuda:0" = PlaceHolder[target=mm_17]
#   %mm_13 : Tensor "f16[16, 4096][4096, 1]cuda:0" = PlaceHolder[target=mm_13]
#   %add_10 : Tensor "f16[16, 4096][4096, 1]cuda:0" = PlaceHolder[target=add_10]
#   %buf76 : Tensor "f32[16, 1][1, 16]cuda:0" = PlaceHolder[target=buf76]
#   %arg37_1 : Tensor "f16[4096][1]cuda:0" = PlaceHolder[target=arg37_1]
#   %add_13 : Tensor "f16[16, 4096][4096, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%mm_13, %add_10), kwargs = {})
#   %add_17 : Tensor "f16[16, 4096][4096, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%mm_17, %add_13), kwargs = {})
#   %add_20 : Tensor "f16[16, 4096][4096, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%mm_20, %add_17), kwargs = {})
#   %convert_element_type_78 : Tensor "f32[16, 4096][4096, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_20, torch.float32), kwargs = {})
#   %pow_7 : Tensor "f32[16, 4096][4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%convert_element_type_78, 2), kwargs = {})
#   %mean_6 : Tensor "f32[16, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%pow_7, [1], True), kwargs = {})
#   %add_21 : Tensor "f32[16, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Scalar](args = (%mean_6, 1e-05), kwargs = {})
#   %rsqrt_6 : Tensor "f32[16, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_21,), kwargs = {})
#   %mul_36 : Tensor "f32[16, 4096][4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_78, %rsqrt_6), kwargs = {})
#   %mul_37 : Tensor "f32[16, 4096][4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_36, %arg37_1), kwargs = {})
#   %convert_element_type_79 : Tensor "f16[16, 4096][4096, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_37, torch.float16), kwargs = {})
#   return %buf76,%convert_element_type_79
triton_red_fused__fused_rms_norm_add_14 = async_compile.triton('triton_red_fused__fused_rms_norm_add_14', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.reduction(
    size_hints={'x': 16, 'r0_': 4096},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp16', 'in_ptr1': '*fp16', 'in_ptr2': '*fp16', 'in_ptr3': '*fp16', 'in_ptr4': '*fp16', 'out_ptr1': '*fp16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused__fused_rms_norm_add_14', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 9, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'add_persistent_rblock': True, 'tiling_scores': {'x': 0, 'r0_': 794624}}
)
@triton.jit
def triton_red_fused__fused_rms_norm_add_14(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 16
    r0_numel = 4096
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
        tmp0 = tl.load(in_ptr0 + (r0_1 + 4096*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp1 = tl.load(in_ptr1 + (r0_1 + 4096*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp2 = tl.load(in_ptr2 + (r0_1 + 4096*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp3 = tl.load(in_ptr3 + (r0_1 + 4096*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
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
        tmp12 = tl.load(in_ptr0 + (r0_1 + 4096*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp13 = tl.load(in_ptr1 + (r0_1 + 4096*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp14 = tl.load(in_ptr2 + (r0_1 + 4096*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp15 = tl.load(in_ptr3 + (r0_1 + 4096*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp26 = tl.load(in_ptr4 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp16 = tmp14 + tmp15
        tmp17 = tmp13 + tmp16
        tmp18 = tmp12 + tmp17
        tmp19 = tmp18.to(tl.float32)
        tmp20 = tl.full([1, 1], 4096.0, tl.float32)
        tmp21 = (tmp10 / tmp20)
        tmp22 = tl.full([1, 1], 1e-05, tl.float32)
        tmp23 = tmp21 + tmp22
        tmp24 = libdevice.rsqrt(tmp23)
        tmp25 = tmp19 * tmp24
        tmp27 = tmp26.to(tl.float32)
        tmp28 = tmp25 * tmp27
        tmp29 = tmp28.to(tl.float32)
        tl.store(out_ptr1 + (r0_1 + 4096*x0), tmp29, r0_mask & xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/va/cva6bvqzibprgk4lrqtpb3dk3edadpfxsl34xsojbskez2iwfr6g.py
# Topologically Sorted Source Nodes: [layers_1_y, layers_2_h, layers_2_y, layers_3_h, layers_3_mlp_xn], Original ATen: [aten.add, aten._fused_rms_norm]
# Source node to ATen node mapping:
#   layers_1_y => add_13
#   layers_2_h => add_17
#   layers_2_y => add_20
#   layers_3_h => add_24
#   layers_3_mlp_xn => add_25, convert_element_type_94, convert_element_type_95, mean_7, mul_45, mul_46, pow_8, rsqrt_7
# Graph fragment:
#   %mm_24 : Tensor "f16[16, 4096][4096, 1]cuda:0" = PlaceHolder[target=mm_24]
#   %mm_20 : Tensor "f16[16, 4096][4096, 1]cuda:0" = PlaceHolder[target=mm_20]
#   %mm_17 : Tensor "f16[16, 4096][4096, 1]cuda:0" = PlaceHolder[target=mm_17]
#   %mm_13 : Tensor "f16[16, 4096][4096, 1]cuda:0" = PlaceHolder[target=mm_13]
#   %add_10 : Tensor "f16[16, 4096][4096, 1]cuda:0" = PlaceHolder[target=add_10]
#   %add_24 : Tensor "f16[16, 4096][4096, 1]cuda:0" = PlaceHolder[target=add_24]
#   %buf96 : Tensor "f32[16, 1][1, 16]cuda:0" = PlaceHolder[target=buf96]
#   %arg44_1 : Tensor "f16[4096][1]cuda:0" = PlaceHolder[target=arg44_1]
#   %add_13 : Tensor "f16[16, 4096][4096, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%mm_13, %add_10), kwargs = {})
#   %add_17 : Tensor "f16[16, 4096][4096, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%mm_17, %add_13), kwargs = {})
#   %add_20 : Tensor "f16[16, 4096][4096, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%mm_20, %add_17), kwargs = {})
#   %add_24 : Tensor "f16[16, 4096][4096, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%mm_24, %add_20), kwargs = {})
#   %convert_element_type_94 : Tensor "f32[16, 4096][4096, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_24, torch.float32), kwargs = {})
#   %pow_8 : Tensor "f32[16, 4096][4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%convert_element_type_94, 2), kwargs = {})
#   %mean_7 : Tensor "f32[16, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%pow_8, [1], True), kwargs = {})
#   %add_25 : Tensor "f32[16, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Scalar](args = (%mean_7, 1e-05), kwargs = {})
#   %rsqrt_7 : Tensor "f32[16, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_25,), kwargs = {})
#   %mul_45 : Tensor "f32[16, 4096][4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_94, %rsqrt_7), kwargs = {})
#   %mul_46 : Tensor "f32[16, 4096][4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_45, %arg44_1), kwargs = {})
#   %convert_element_type_95 : Tensor "f16[16, 4096][4096, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_46, torch.float16), kwargs = {})
#   return %add_24,%buf96,%convert_element_type_95
triton_red_fused__fused_rms_norm_add_15 = async_compile.triton('triton_red_fused__fused_rms_norm_add_15', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.reduction(
    size_hints={'x': 16, 'r0_': 4096},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp16', 'in_ptr0': '*fp16', 'in_ptr1': '*fp16', 'in_ptr2': '*fp16', 'in_ptr3': '*fp16', 'in_ptr4': '*fp16', 'out_ptr1': '*fp16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused__fused_rms_norm_add_15', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 7, 'num_store': 2, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 0, 'r0_': 1187840}}
)
@triton.jit
def triton_red_fused__fused_rms_norm_add_15(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 16
    r0_numel = 4096
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
        tmp0 = tl.load(in_out_ptr0 + (r0_1 + 4096*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp1 = tl.load(in_ptr0 + (r0_1 + 4096*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp2 = tl.load(in_ptr1 + (r0_1 + 4096*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp3 = tl.load(in_ptr2 + (r0_1 + 4096*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp4 = tl.load(in_ptr3 + (r0_1 + 4096*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp5 = tmp3 + tmp4
        tmp6 = tmp2 + tmp5
        tmp7 = tmp1 + tmp6
        tmp8 = tmp0 + tmp7
        tmp9 = tmp8.to(tl.float32)
        tmp10 = tmp9 * tmp9
        tmp11 = tl.broadcast_to(tmp10, [XBLOCK, R0_BLOCK])
        tmp13 = _tmp12 + tmp11
        _tmp12 = tl.where(r0_mask & xmask, tmp13, _tmp12)
        tl.store(in_out_ptr0 + (r0_1 + 4096*x0), tmp8, r0_mask & xmask)
    tmp12 = tl.sum(_tmp12, 1)[:, None]
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp14 = tl.load(in_out_ptr0 + (r0_1 + 4096*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp22 = tl.load(in_ptr4 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp15 = tmp14.to(tl.float32)
        tmp16 = tl.full([1, 1], 4096.0, tl.float32)
        tmp17 = (tmp12 / tmp16)
        tmp18 = tl.full([1, 1], 1e-05, tl.float32)
        tmp19 = tmp17 + tmp18
        tmp20 = libdevice.rsqrt(tmp19)
        tmp21 = tmp15 * tmp20
        tmp23 = tmp22.to(tl.float32)
        tmp24 = tmp21 * tmp23
        tmp25 = tmp24.to(tl.float32)
        tl.store(out_ptr1 + (r0_1 + 4096*x0), tmp25, r0_mask & xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/xd/cxdwrpmnp5z32wy73yxkn5scaenxzrmfstdxxw5dg3vbhiwj3dte.py
# Topologically Sorted Source Nodes: [h, hn], Original ATen: [aten.add, aten._fused_rms_norm]
# Source node to ATen node mapping:
#   h => add_27
#   hn => add_28, convert_element_type_104, convert_element_type_105, mean_8, mul_48, mul_49, pow_9, rsqrt_8
# Graph fragment:
#   %mm_27 : Tensor "f16[16, 4096][4096, 1]cuda:0" = PlaceHolder[target=mm_27]
#   %add_24 : Tensor "f16[16, 4096][4096, 1]cuda:0" = PlaceHolder[target=add_24]
#   %buf102 : Tensor "f32[16, 1][1, 16]cuda:0" = PlaceHolder[target=buf102]
#   %arg48_1 : Tensor "f16[4096][1]cuda:0" = PlaceHolder[target=arg48_1]
#   %add_27 : Tensor "f16[16, 4096][4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mm_27, %add_24), kwargs = {})
#   %convert_element_type_104 : Tensor "f32[16, 4096][4096, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_27, torch.float32), kwargs = {})
#   %pow_9 : Tensor "f32[16, 4096][4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%convert_element_type_104, 2), kwargs = {})
#   %mean_8 : Tensor "f32[16, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%pow_9, [1], True), kwargs = {})
#   %add_28 : Tensor "f32[16, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Scalar](args = (%mean_8, 1e-05), kwargs = {})
#   %rsqrt_8 : Tensor "f32[16, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_28,), kwargs = {})
#   %mul_48 : Tensor "f32[16, 4096][4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_104, %rsqrt_8), kwargs = {})
#   %mul_49 : Tensor "f32[16, 4096][4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_48, %arg48_1), kwargs = {})
#   %convert_element_type_105 : Tensor "f16[16, 4096][4096, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_49, torch.float16), kwargs = {})
#   return %buf102,%convert_element_type_105
triton_red_fused__fused_rms_norm_add_16 = async_compile.triton('triton_red_fused__fused_rms_norm_add_16', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.reduction(
    size_hints={'x': 16, 'r0_': 4096},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp16', 'in_ptr0': '*fp16', 'in_ptr1': '*fp16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused__fused_rms_norm_add_16', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 5, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'add_persistent_rblock': True, 'tiling_scores': {'x': 0, 'r0_': 532480}}
)
@triton.jit
def triton_red_fused__fused_rms_norm_add_16(in_out_ptr0, in_ptr0, in_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 16
    r0_numel = 4096
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
        tmp0 = tl.load(in_out_ptr0 + (r0_1 + 4096*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp1 = tl.load(in_ptr0 + (r0_1 + 4096*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
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
        tmp8 = tl.load(in_out_ptr0 + (r0_1 + 4096*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp9 = tl.load(in_ptr0 + (r0_1 + 4096*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp18 = tl.load(in_ptr1 + (r0_1), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp10 = tmp8 + tmp9
        tmp11 = tmp10.to(tl.float32)
        tmp12 = tl.full([1, 1], 4096.0, tl.float32)
        tmp13 = (tmp6 / tmp12)
        tmp14 = tl.full([1, 1], 1e-05, tl.float32)
        tmp15 = tmp13 + tmp14
        tmp16 = libdevice.rsqrt(tmp15)
        tmp17 = tmp11 * tmp16
        tmp19 = tmp18.to(tl.float32)
        tmp20 = tmp17 * tmp19
        tmp21 = tmp20.to(tl.float32)
        tl.store(in_out_ptr0 + (r0_1 + 4096*x0), tmp21, r0_mask & xmask)
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
        arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1, arg12_1, arg13_1, arg14_1, arg15_1, arg16_1, arg17_1, arg18_1, arg19_1, arg20_1, arg21_1, arg22_1, arg23_1, arg24_1, arg25_1, arg26_1, arg27_1, arg28_1, arg29_1, arg30_1, arg31_1, arg32_1, arg33_1, arg34_1, arg35_1, arg36_1, arg37_1, arg38_1, arg39_1, arg40_1, arg41_1, arg42_1, arg43_1, arg44_1, arg45_1, arg46_1, arg47_1, arg48_1, arg49_1 = args
        args.clear()
        assert_size_stride(arg0_1, (32000, 4096), (4096, 1))
        assert_size_stride(arg1_1, (16, ), (1, ))
        assert_size_stride(arg2_1, (4096, ), (1, ))
        assert_size_stride(arg3_1, (4096, 4096), (4096, 1))
        assert_size_stride(arg4_1, (4096, 4096), (4096, 1))
        assert_size_stride(arg5_1, (4096, 4096), (4096, 1))
        assert_size_stride(arg6_1, (1, 128), (128, 1))
        assert_size_stride(arg7_1, (1, 128), (128, 1))
        assert_size_stride(arg8_1, (16, 32, 1, 1024, 128), (4194304, 131072, 131072, 128, 1))
        assert_size_stride(arg9_1, (16, 32, 1, 1024, 128), (4194304, 131072, 131072, 128, 1))
        assert_size_stride(arg10_1, (4096, 4096), (4096, 1))
        assert_size_stride(arg11_1, (4096, ), (1, ))
        assert_size_stride(arg12_1, (4096, 11008), (11008, 1))
        assert_size_stride(arg13_1, (4096, 11008), (11008, 1))
        assert_size_stride(arg14_1, (11008, 4096), (4096, 1))
        assert_size_stride(arg15_1, (4096, ), (1, ))
        assert_size_stride(arg16_1, (4096, 4096), (4096, 1))
        assert_size_stride(arg17_1, (4096, 4096), (4096, 1))
        assert_size_stride(arg18_1, (4096, 4096), (4096, 1))
        assert_size_stride(arg19_1, (16, 32, 1, 1024, 128), (4194304, 131072, 131072, 128, 1))
        assert_size_stride(arg20_1, (16, 32, 1, 1024, 128), (4194304, 131072, 131072, 128, 1))
        assert_size_stride(arg21_1, (4096, 4096), (4096, 1))
        assert_size_stride(arg22_1, (4096, ), (1, ))
        assert_size_stride(arg23_1, (4096, 11008), (11008, 1))
        assert_size_stride(arg24_1, (4096, 11008), (11008, 1))
        assert_size_stride(arg25_1, (11008, 4096), (4096, 1))
        assert_size_stride(arg26_1, (4096, ), (1, ))
        assert_size_stride(arg27_1, (4096, 4096), (4096, 1))
        assert_size_stride(arg28_1, (4096, 4096), (4096, 1))
        assert_size_stride(arg29_1, (4096, 4096), (4096, 1))
        assert_size_stride(arg30_1, (16, 32, 1, 1024, 128), (4194304, 131072, 131072, 128, 1))
        assert_size_stride(arg31_1, (16, 32, 1, 1024, 128), (4194304, 131072, 131072, 128, 1))
        assert_size_stride(arg32_1, (4096, 4096), (4096, 1))
        assert_size_stride(arg33_1, (4096, ), (1, ))
        assert_size_stride(arg34_1, (4096, 11008), (11008, 1))
        assert_size_stride(arg35_1, (4096, 11008), (11008, 1))
        assert_size_stride(arg36_1, (11008, 4096), (4096, 1))
        assert_size_stride(arg37_1, (4096, ), (1, ))
        assert_size_stride(arg38_1, (4096, 4096), (4096, 1))
        assert_size_stride(arg39_1, (4096, 4096), (4096, 1))
        assert_size_stride(arg40_1, (4096, 4096), (4096, 1))
        assert_size_stride(arg41_1, (16, 32, 1, 1024, 128), (4194304, 131072, 131072, 128, 1))
        assert_size_stride(arg42_1, (16, 32, 1, 1024, 128), (4194304, 131072, 131072, 128, 1))
        assert_size_stride(arg43_1, (4096, 4096), (4096, 1))
        assert_size_stride(arg44_1, (4096, ), (1, ))
        assert_size_stride(arg45_1, (4096, 11008), (11008, 1))
        assert_size_stride(arg46_1, (4096, 11008), (11008, 1))
        assert_size_stride(arg47_1, (11008, 4096), (4096, 1))
        assert_size_stride(arg48_1, (4096, ), (1, ))
        assert_size_stride(arg49_1, (4096, 32000), (32000, 1))
        with torch.cuda._DeviceGuard(0):
            torch.cuda.set_device(0)
            buf1 = empty_strided_cuda((16, 4096), (4096, 1), torch.float16)
            # Topologically Sorted Source Nodes: [x0, layers_0_xn], Original ATen: [aten.index_select, aten._fused_rms_norm]
            stream0 = get_raw_stream(0)
            triton_red_fused__fused_rms_norm_index_select_0.run(arg1_1, arg0_1, arg2_1, buf1, 16, 4096, stream=stream0)
            del arg2_1
            buf2 = empty_strided_cuda((16, 4096), (4096, 1), torch.float16)
            # Topologically Sorted Source Nodes: [layers_0_q], Original ATen: [aten.mm]
            extern_kernels.mm(buf1, arg3_1, out=buf2)
            del arg3_1
            buf3 = empty_strided_cuda((16, 4096), (4096, 1), torch.float16)
            # Topologically Sorted Source Nodes: [layers_0_k], Original ATen: [aten.mm]
            extern_kernels.mm(buf1, arg4_1, out=buf3)
            del arg4_1
            # Topologically Sorted Source Nodes: [setitem, layers_0_kh, layers_0_k_rope_c, layers_0_k_rope_t2, layers_0_k_rope_t2n, layers_0_k_rope_t1, layers_0_k_rope_tr, layers_0_k_rope_s, layers_0_kr], Original ATen: [aten.slice, aten.view, aten.mul, aten.cat, aten.add, aten.copy]
            stream0 = get_raw_stream(0)
            triton_poi_fused_add_cat_copy_mul_slice_view_1.run(buf3, arg6_1, arg7_1, arg8_1, 65536, stream=stream0)
            buf12 = buf3; del buf3  # reuse
            # Topologically Sorted Source Nodes: [layers_0_v], Original ATen: [aten.mm]
            extern_kernels.mm(buf1, arg5_1, out=buf12)
            del arg5_1
            # Topologically Sorted Source Nodes: [setitem_1, layers_0_vh], Original ATen: [aten.slice, aten.view, aten.copy]
            stream0 = get_raw_stream(0)
            triton_poi_fused_copy_slice_view_2.run(buf12, arg9_1, 65536, stream=stream0)
            buf6 = empty_strided_cuda((16, 32, 1, 1, 128), (4096, 128, 128, 128, 1), torch.float32)
            # Topologically Sorted Source Nodes: [layers_0_qh, layers_0_q_rope_c, layers_0_q_rope_t2, layers_0_q_rope_t2n, layers_0_q_rope_t1, layers_0_q_rope_tr, layers_0_q_rope_s, layers_0_qr], Original ATen: [aten.view, aten.mul, aten.slice, aten.cat, aten.add, aten._to_copy]
            stream0 = get_raw_stream(0)
            triton_poi_fused__to_copy_add_cat_mul_slice_view_3.run(buf2, arg6_1, arg7_1, buf6, 65536, stream=stream0)
            buf7 = empty_strided_cuda((16, 32, 1, 128, 1024), (4194304, 131072, 131072, 1024, 1), torch.float32)
            # Topologically Sorted Source Nodes: [], Original ATen: [aten._to_copy, aten.transpose, aten.mul]
            stream0 = get_raw_stream(0)
            triton_poi_fused__to_copy_mul_transpose_4.run(arg8_1, buf7, 67108864, stream=stream0)
            del arg8_1
            buf8 = empty_strided_cuda((512, 1, 1024), (1024, 1024, 1), torch.float32)
            # Topologically Sorted Source Nodes: [layers_0_qh, layers_0_q_rope_c, layers_0_q_rope_t2, layers_0_q_rope_t2n, layers_0_q_rope_t1, layers_0_q_rope_tr, layers_0_q_rope_s, layers_0_qr], Original ATen: [aten.view, aten.mul, aten.slice, aten.cat, aten.add, aten._to_copy, aten.transpose, aten.bmm]
            extern_kernels.bmm(reinterpret_tensor(buf6, (512, 1, 128), (128, 0, 1), 0), reinterpret_tensor(buf7, (512, 128, 1024), (131072, 1024, 1), 0), out=buf8)
            del buf7
            buf14 = reinterpret_tensor(buf8, (16, 32, 1, 1, 1024), (32768, 1024, 1024, 1024, 1), 0); del buf8  # reuse
            # Topologically Sorted Source Nodes: [], Original ATen: [aten.view, aten._safe_softmax, prims.prepare_softmax_online, aten.sub, aten.exp]
            stream0 = get_raw_stream(0)
            triton_per_fused__safe_softmax_exp_prepare_softmax_online_sub_view_5.run(buf14, 512, 1024, stream=stream0)
            buf15 = empty_strided_cuda((16, 32, 1, 1024, 128), (4194304, 131072, 131072, 128, 1), torch.float32)
            # Topologically Sorted Source Nodes: [], Original ATen: [aten._to_copy]
            stream0 = get_raw_stream(0)
            triton_poi_fused__to_copy_6.run(arg9_1, buf15, 67108864, stream=stream0)
            del arg9_1
            buf16 = reinterpret_tensor(buf6, (512, 1, 128), (128, 128, 1), 0); del buf6  # reuse
            # Topologically Sorted Source Nodes: [], Original ATen: [aten.view, aten._safe_softmax, aten.sub, aten.exp, aten._to_copy, aten.bmm]
            extern_kernels.bmm(reinterpret_tensor(buf14, (512, 1, 1024), (1024, 0, 1), 0), reinterpret_tensor(buf15, (512, 1024, 128), (131072, 128, 1), 0), out=buf16)
            del buf14
            buf17 = reinterpret_tensor(buf2, (16, 32, 1, 1, 128), (4096, 128, 128, 128, 1), 0); del buf2  # reuse
            # Topologically Sorted Source Nodes: [], Original ATen: [aten.view, aten._to_copy]
            stream0 = get_raw_stream(0)
            triton_poi_fused__to_copy_view_7.run(buf16, buf17, 65536, stream=stream0)
            buf18 = buf12; del buf12  # reuse
            # Topologically Sorted Source Nodes: [layers_0_am, layers_0_o], Original ATen: [aten.view, aten._to_copy, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf17, (16, 4096), (4096, 1), 0), arg10_1, out=buf18)
            del arg10_1
            buf20 = reinterpret_tensor(buf17, (16, 4096), (4096, 1), 0); del buf17  # reuse
            # Topologically Sorted Source Nodes: [x0, layers_0_h, layers_0_mlp_xn], Original ATen: [aten.index_select, aten.add, aten._fused_rms_norm]
            stream0 = get_raw_stream(0)
            triton_red_fused__fused_rms_norm_add_index_select_8.run(buf18, arg1_1, arg0_1, arg11_1, buf20, 16, 4096, stream=stream0)
            del arg11_1
            buf21 = empty_strided_cuda((16, 11008), (11008, 1), torch.float16)
            # Topologically Sorted Source Nodes: [layers_0_mlp_g], Original ATen: [aten.mm]
            extern_kernels.mm(buf20, arg12_1, out=buf21)
            del arg12_1
            buf22 = empty_strided_cuda((16, 11008), (11008, 1), torch.float16)
            # Topologically Sorted Source Nodes: [layers_0_mlp_u], Original ATen: [aten.mm]
            extern_kernels.mm(buf20, arg13_1, out=buf22)
            del arg13_1
            buf23 = buf21; del buf21  # reuse
            # Topologically Sorted Source Nodes: [layers_0_mlp_gs, layers_0_mlp_m], Original ATen: [aten.silu, aten.mul]
            stream0 = get_raw_stream(0)
            triton_poi_fused_mul_silu_9.run(buf23, buf22, 176128, stream=stream0)
            del buf22
            buf24 = buf20; del buf20  # reuse
            # Topologically Sorted Source Nodes: [layers_0_mlp_gs, layers_0_mlp_m, layers_0_mlp_d], Original ATen: [aten.silu, aten.mul, aten.mm]
            extern_kernels.mm(buf23, arg14_1, out=buf24)
            del arg14_1
            del buf23
            buf26 = buf1; del buf1  # reuse
            # Topologically Sorted Source Nodes: [x0, layers_0_h, layers_0_y, layers_1_xn], Original ATen: [aten.index_select, aten.add, aten._fused_rms_norm]
            stream0 = get_raw_stream(0)
            triton_red_fused__fused_rms_norm_add_index_select_10.run(buf24, buf18, arg1_1, arg0_1, arg15_1, buf26, 16, 4096, stream=stream0)
            del arg15_1
            buf27 = empty_strided_cuda((16, 4096), (4096, 1), torch.float16)
            # Topologically Sorted Source Nodes: [layers_1_q], Original ATen: [aten.mm]
            extern_kernels.mm(buf26, arg16_1, out=buf27)
            del arg16_1
            buf28 = empty_strided_cuda((16, 4096), (4096, 1), torch.float16)
            # Topologically Sorted Source Nodes: [layers_1_k], Original ATen: [aten.mm]
            extern_kernels.mm(buf26, arg17_1, out=buf28)
            del arg17_1
            # Topologically Sorted Source Nodes: [setitem_2, layers_1_kh, layers_1_k_rope_c, layers_1_k_rope_t2, layers_1_k_rope_t2n, layers_1_k_rope_t1, layers_1_k_rope_tr, layers_1_k_rope_s, layers_1_kr], Original ATen: [aten.slice, aten.view, aten.mul, aten.cat, aten.add, aten.copy]
            stream0 = get_raw_stream(0)
            triton_poi_fused_add_cat_copy_mul_slice_view_1.run(buf28, arg6_1, arg7_1, arg19_1, 65536, stream=stream0)
            buf37 = buf28; del buf28  # reuse
            # Topologically Sorted Source Nodes: [layers_1_v], Original ATen: [aten.mm]
            extern_kernels.mm(buf26, arg18_1, out=buf37)
            del arg18_1
            del buf26
            # Topologically Sorted Source Nodes: [setitem_3, layers_1_vh], Original ATen: [aten.slice, aten.view, aten.copy]
            stream0 = get_raw_stream(0)
            triton_poi_fused_copy_slice_view_2.run(buf37, arg20_1, 65536, stream=stream0)
            buf31 = reinterpret_tensor(buf16, (16, 32, 1, 1, 128), (4096, 128, 128, 128, 1), 0); del buf16  # reuse
            # Topologically Sorted Source Nodes: [layers_1_qh, layers_1_q_rope_c, layers_1_q_rope_t2, layers_1_q_rope_t2n, layers_1_q_rope_t1, layers_1_q_rope_tr, layers_1_q_rope_s, layers_1_qr], Original ATen: [aten.view, aten.mul, aten.slice, aten.cat, aten.add, aten._to_copy]
            stream0 = get_raw_stream(0)
            triton_poi_fused__to_copy_add_cat_mul_slice_view_3.run(buf27, arg6_1, arg7_1, buf31, 65536, stream=stream0)
            buf32 = reinterpret_tensor(buf15, (16, 32, 1, 128, 1024), (4194304, 131072, 131072, 1024, 1), 0); del buf15  # reuse
            # Topologically Sorted Source Nodes: [], Original ATen: [aten._to_copy, aten.transpose, aten.mul]
            stream0 = get_raw_stream(0)
            triton_poi_fused__to_copy_mul_transpose_4.run(arg19_1, buf32, 67108864, stream=stream0)
            del arg19_1
            buf33 = empty_strided_cuda((512, 1, 1024), (1024, 1024, 1), torch.float32)
            # Topologically Sorted Source Nodes: [layers_1_qh, layers_1_q_rope_c, layers_1_q_rope_t2, layers_1_q_rope_t2n, layers_1_q_rope_t1, layers_1_q_rope_tr, layers_1_q_rope_s, layers_1_qr], Original ATen: [aten.view, aten.mul, aten.slice, aten.cat, aten.add, aten._to_copy, aten.transpose, aten.bmm]
            extern_kernels.bmm(reinterpret_tensor(buf31, (512, 1, 128), (128, 0, 1), 0), reinterpret_tensor(buf32, (512, 128, 1024), (131072, 1024, 1), 0), out=buf33)
            del buf32
            buf39 = reinterpret_tensor(buf33, (16, 32, 1, 1, 1024), (32768, 1024, 1024, 1024, 1), 0); del buf33  # reuse
            # Topologically Sorted Source Nodes: [], Original ATen: [aten.view, aten._safe_softmax, prims.prepare_softmax_online, aten.sub, aten.exp]
            stream0 = get_raw_stream(0)
            triton_per_fused__safe_softmax_exp_prepare_softmax_online_sub_view_5.run(buf39, 512, 1024, stream=stream0)
            buf40 = empty_strided_cuda((16, 32, 1, 1024, 128), (4194304, 131072, 131072, 128, 1), torch.float32)
            # Topologically Sorted Source Nodes: [], Original ATen: [aten._to_copy]
            stream0 = get_raw_stream(0)
            triton_poi_fused__to_copy_6.run(arg20_1, buf40, 67108864, stream=stream0)
            del arg20_1
            buf41 = reinterpret_tensor(buf31, (512, 1, 128), (128, 128, 1), 0); del buf31  # reuse
            # Topologically Sorted Source Nodes: [], Original ATen: [aten.view, aten._safe_softmax, aten.sub, aten.exp, aten._to_copy, aten.bmm]
            extern_kernels.bmm(reinterpret_tensor(buf39, (512, 1, 1024), (1024, 0, 1), 0), reinterpret_tensor(buf40, (512, 1024, 128), (131072, 128, 1), 0), out=buf41)
            del buf39
            buf42 = reinterpret_tensor(buf27, (16, 32, 1, 1, 128), (4096, 128, 128, 128, 1), 0); del buf27  # reuse
            # Topologically Sorted Source Nodes: [], Original ATen: [aten.view, aten._to_copy]
            stream0 = get_raw_stream(0)
            triton_poi_fused__to_copy_view_7.run(buf41, buf42, 65536, stream=stream0)
            buf43 = buf37; del buf37  # reuse
            # Topologically Sorted Source Nodes: [layers_1_am, layers_1_o], Original ATen: [aten.view, aten._to_copy, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf42, (16, 4096), (4096, 1), 0), arg21_1, out=buf43)
            del arg21_1
            buf44 = buf43; del buf43  # reuse
            buf46 = reinterpret_tensor(buf42, (16, 4096), (4096, 1), 0); del buf42  # reuse
            # Topologically Sorted Source Nodes: [x0, layers_0_h, layers_0_y, layers_1_h, layers_1_mlp_xn], Original ATen: [aten.index_select, aten.add, aten._fused_rms_norm]
            stream0 = get_raw_stream(0)
            triton_red_fused__fused_rms_norm_add_index_select_11.run(buf44, buf24, buf18, arg1_1, arg0_1, arg22_1, buf46, 16, 4096, stream=stream0)
            del arg0_1
            del arg1_1
            del arg22_1
            buf47 = empty_strided_cuda((16, 11008), (11008, 1), torch.float16)
            # Topologically Sorted Source Nodes: [layers_1_mlp_g], Original ATen: [aten.mm]
            extern_kernels.mm(buf46, arg23_1, out=buf47)
            del arg23_1
            buf48 = empty_strided_cuda((16, 11008), (11008, 1), torch.float16)
            # Topologically Sorted Source Nodes: [layers_1_mlp_u], Original ATen: [aten.mm]
            extern_kernels.mm(buf46, arg24_1, out=buf48)
            del arg24_1
            buf49 = buf47; del buf47  # reuse
            # Topologically Sorted Source Nodes: [layers_1_mlp_gs, layers_1_mlp_m], Original ATen: [aten.silu, aten.mul]
            stream0 = get_raw_stream(0)
            triton_poi_fused_mul_silu_9.run(buf49, buf48, 176128, stream=stream0)
            del buf48
            buf50 = buf46; del buf46  # reuse
            # Topologically Sorted Source Nodes: [layers_1_mlp_gs, layers_1_mlp_m, layers_1_mlp_d], Original ATen: [aten.silu, aten.mul, aten.mm]
            extern_kernels.mm(buf49, arg25_1, out=buf50)
            del arg25_1
            del buf49
            buf52 = buf24; del buf24  # reuse
            # Topologically Sorted Source Nodes: [layers_1_y, layers_2_xn], Original ATen: [aten.add, aten._fused_rms_norm]
            stream0 = get_raw_stream(0)
            triton_red_fused__fused_rms_norm_add_12.run(buf50, buf44, arg26_1, buf52, 16, 4096, stream=stream0)
            del arg26_1
            buf53 = buf18; del buf18  # reuse
            # Topologically Sorted Source Nodes: [layers_2_q], Original ATen: [aten.mm]
            extern_kernels.mm(buf52, arg27_1, out=buf53)
            del arg27_1
            buf54 = empty_strided_cuda((16, 4096), (4096, 1), torch.float16)
            # Topologically Sorted Source Nodes: [layers_2_k], Original ATen: [aten.mm]
            extern_kernels.mm(buf52, arg28_1, out=buf54)
            del arg28_1
            # Topologically Sorted Source Nodes: [setitem_4, layers_2_kh, layers_2_k_rope_c, layers_2_k_rope_t2, layers_2_k_rope_t2n, layers_2_k_rope_t1, layers_2_k_rope_tr, layers_2_k_rope_s, layers_2_kr], Original ATen: [aten.slice, aten.view, aten.mul, aten.cat, aten.add, aten.copy]
            stream0 = get_raw_stream(0)
            triton_poi_fused_add_cat_copy_mul_slice_view_1.run(buf54, arg6_1, arg7_1, arg30_1, 65536, stream=stream0)
            buf63 = buf54; del buf54  # reuse
            # Topologically Sorted Source Nodes: [layers_2_v], Original ATen: [aten.mm]
            extern_kernels.mm(buf52, arg29_1, out=buf63)
            del arg29_1
            del buf52
            # Topologically Sorted Source Nodes: [setitem_5, layers_2_vh], Original ATen: [aten.slice, aten.view, aten.copy]
            stream0 = get_raw_stream(0)
            triton_poi_fused_copy_slice_view_2.run(buf63, arg31_1, 65536, stream=stream0)
            buf57 = reinterpret_tensor(buf41, (16, 32, 1, 1, 128), (4096, 128, 128, 128, 1), 0); del buf41  # reuse
            # Topologically Sorted Source Nodes: [layers_2_qh, layers_2_q_rope_c, layers_2_q_rope_t2, layers_2_q_rope_t2n, layers_2_q_rope_t1, layers_2_q_rope_tr, layers_2_q_rope_s, layers_2_qr], Original ATen: [aten.view, aten.mul, aten.slice, aten.cat, aten.add, aten._to_copy]
            stream0 = get_raw_stream(0)
            triton_poi_fused__to_copy_add_cat_mul_slice_view_3.run(buf53, arg6_1, arg7_1, buf57, 65536, stream=stream0)
            buf58 = reinterpret_tensor(buf40, (16, 32, 1, 128, 1024), (4194304, 131072, 131072, 1024, 1), 0); del buf40  # reuse
            # Topologically Sorted Source Nodes: [], Original ATen: [aten._to_copy, aten.transpose, aten.mul]
            stream0 = get_raw_stream(0)
            triton_poi_fused__to_copy_mul_transpose_4.run(arg30_1, buf58, 67108864, stream=stream0)
            del arg30_1
            buf59 = empty_strided_cuda((512, 1, 1024), (1024, 1024, 1), torch.float32)
            # Topologically Sorted Source Nodes: [layers_2_qh, layers_2_q_rope_c, layers_2_q_rope_t2, layers_2_q_rope_t2n, layers_2_q_rope_t1, layers_2_q_rope_tr, layers_2_q_rope_s, layers_2_qr], Original ATen: [aten.view, aten.mul, aten.slice, aten.cat, aten.add, aten._to_copy, aten.transpose, aten.bmm]
            extern_kernels.bmm(reinterpret_tensor(buf57, (512, 1, 128), (128, 0, 1), 0), reinterpret_tensor(buf58, (512, 128, 1024), (131072, 1024, 1), 0), out=buf59)
            del buf58
            buf65 = reinterpret_tensor(buf59, (16, 32, 1, 1, 1024), (32768, 1024, 1024, 1024, 1), 0); del buf59  # reuse
            # Topologically Sorted Source Nodes: [], Original ATen: [aten.view, aten._safe_softmax, prims.prepare_softmax_online, aten.sub, aten.exp]
            stream0 = get_raw_stream(0)
            triton_per_fused__safe_softmax_exp_prepare_softmax_online_sub_view_5.run(buf65, 512, 1024, stream=stream0)
            buf66 = empty_strided_cuda((16, 32, 1, 1024, 128), (4194304, 131072, 131072, 128, 1), torch.float32)
            # Topologically Sorted Source Nodes: [], Original ATen: [aten._to_copy]
            stream0 = get_raw_stream(0)
            triton_poi_fused__to_copy_6.run(arg31_1, buf66, 67108864, stream=stream0)
            del arg31_1
            buf67 = reinterpret_tensor(buf57, (512, 1, 128), (128, 128, 1), 0); del buf57  # reuse
            # Topologically Sorted Source Nodes: [], Original ATen: [aten.view, aten._safe_softmax, aten.sub, aten.exp, aten._to_copy, aten.bmm]
            extern_kernels.bmm(reinterpret_tensor(buf65, (512, 1, 1024), (1024, 0, 1), 0), reinterpret_tensor(buf66, (512, 1024, 128), (131072, 128, 1), 0), out=buf67)
            del buf65
            buf68 = reinterpret_tensor(buf53, (16, 32, 1, 1, 128), (4096, 128, 128, 128, 1), 0); del buf53  # reuse
            # Topologically Sorted Source Nodes: [], Original ATen: [aten.view, aten._to_copy]
            stream0 = get_raw_stream(0)
            triton_poi_fused__to_copy_view_7.run(buf67, buf68, 65536, stream=stream0)
            buf69 = buf63; del buf63  # reuse
            # Topologically Sorted Source Nodes: [layers_2_am, layers_2_o], Original ATen: [aten.view, aten._to_copy, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf68, (16, 4096), (4096, 1), 0), arg32_1, out=buf69)
            del arg32_1
            buf71 = reinterpret_tensor(buf68, (16, 4096), (4096, 1), 0); del buf68  # reuse
            # Topologically Sorted Source Nodes: [layers_1_y, layers_2_h, layers_2_mlp_xn], Original ATen: [aten.add, aten._fused_rms_norm]
            stream0 = get_raw_stream(0)
            triton_red_fused__fused_rms_norm_add_13.run(buf69, buf50, buf44, arg33_1, buf71, 16, 4096, stream=stream0)
            del arg33_1
            buf72 = empty_strided_cuda((16, 11008), (11008, 1), torch.float16)
            # Topologically Sorted Source Nodes: [layers_2_mlp_g], Original ATen: [aten.mm]
            extern_kernels.mm(buf71, arg34_1, out=buf72)
            del arg34_1
            buf73 = empty_strided_cuda((16, 11008), (11008, 1), torch.float16)
            # Topologically Sorted Source Nodes: [layers_2_mlp_u], Original ATen: [aten.mm]
            extern_kernels.mm(buf71, arg35_1, out=buf73)
            del arg35_1
            buf74 = buf72; del buf72  # reuse
            # Topologically Sorted Source Nodes: [layers_2_mlp_gs, layers_2_mlp_m], Original ATen: [aten.silu, aten.mul]
            stream0 = get_raw_stream(0)
            triton_poi_fused_mul_silu_9.run(buf74, buf73, 176128, stream=stream0)
            del buf73
            buf75 = buf71; del buf71  # reuse
            # Topologically Sorted Source Nodes: [layers_2_mlp_gs, layers_2_mlp_m, layers_2_mlp_d], Original ATen: [aten.silu, aten.mul, aten.mm]
            extern_kernels.mm(buf74, arg36_1, out=buf75)
            del arg36_1
            del buf74
            buf77 = empty_strided_cuda((16, 4096), (4096, 1), torch.float16)
            # Topologically Sorted Source Nodes: [layers_1_y, layers_2_h, layers_2_y, layers_3_xn], Original ATen: [aten.add, aten._fused_rms_norm]
            stream0 = get_raw_stream(0)
            triton_red_fused__fused_rms_norm_add_14.run(buf75, buf69, buf50, buf44, arg37_1, buf77, 16, 4096, stream=stream0)
            del arg37_1
            buf78 = empty_strided_cuda((16, 4096), (4096, 1), torch.float16)
            # Topologically Sorted Source Nodes: [layers_3_q], Original ATen: [aten.mm]
            extern_kernels.mm(buf77, arg38_1, out=buf78)
            del arg38_1
            buf79 = empty_strided_cuda((16, 4096), (4096, 1), torch.float16)
            # Topologically Sorted Source Nodes: [layers_3_k], Original ATen: [aten.mm]
            extern_kernels.mm(buf77, arg39_1, out=buf79)
            del arg39_1
            # Topologically Sorted Source Nodes: [setitem_6, layers_3_kh, layers_3_k_rope_c, layers_3_k_rope_t2, layers_3_k_rope_t2n, layers_3_k_rope_t1, layers_3_k_rope_tr, layers_3_k_rope_s, layers_3_kr], Original ATen: [aten.slice, aten.view, aten.mul, aten.cat, aten.add, aten.copy]
            stream0 = get_raw_stream(0)
            triton_poi_fused_add_cat_copy_mul_slice_view_1.run(buf79, arg6_1, arg7_1, arg41_1, 65536, stream=stream0)
            buf88 = buf79; del buf79  # reuse
            # Topologically Sorted Source Nodes: [layers_3_v], Original ATen: [aten.mm]
            extern_kernels.mm(buf77, arg40_1, out=buf88)
            del arg40_1
            del buf77
            # Topologically Sorted Source Nodes: [setitem_7, layers_3_vh], Original ATen: [aten.slice, aten.view, aten.copy]
            stream0 = get_raw_stream(0)
            triton_poi_fused_copy_slice_view_2.run(buf88, arg42_1, 65536, stream=stream0)
            del buf88
            buf82 = reinterpret_tensor(buf67, (16, 32, 1, 1, 128), (4096, 128, 128, 128, 1), 0); del buf67  # reuse
            # Topologically Sorted Source Nodes: [layers_3_qh, layers_3_q_rope_c, layers_3_q_rope_t2, layers_3_q_rope_t2n, layers_3_q_rope_t1, layers_3_q_rope_tr, layers_3_q_rope_s, layers_3_qr], Original ATen: [aten.view, aten.mul, aten.slice, aten.cat, aten.add, aten._to_copy]
            stream0 = get_raw_stream(0)
            triton_poi_fused__to_copy_add_cat_mul_slice_view_3.run(buf78, arg6_1, arg7_1, buf82, 65536, stream=stream0)
            del arg6_1
            del arg7_1
            del buf78
            buf83 = reinterpret_tensor(buf66, (16, 32, 1, 128, 1024), (4194304, 131072, 131072, 1024, 1), 0); del buf66  # reuse
            # Topologically Sorted Source Nodes: [], Original ATen: [aten._to_copy, aten.transpose, aten.mul]
            stream0 = get_raw_stream(0)
            triton_poi_fused__to_copy_mul_transpose_4.run(arg41_1, buf83, 67108864, stream=stream0)
            del arg41_1
            buf84 = empty_strided_cuda((512, 1, 1024), (1024, 1024, 1), torch.float32)
            # Topologically Sorted Source Nodes: [layers_3_qh, layers_3_q_rope_c, layers_3_q_rope_t2, layers_3_q_rope_t2n, layers_3_q_rope_t1, layers_3_q_rope_tr, layers_3_q_rope_s, layers_3_qr], Original ATen: [aten.view, aten.mul, aten.slice, aten.cat, aten.add, aten._to_copy, aten.transpose, aten.bmm]
            extern_kernels.bmm(reinterpret_tensor(buf82, (512, 1, 128), (128, 0, 1), 0), reinterpret_tensor(buf83, (512, 128, 1024), (131072, 1024, 1), 0), out=buf84)
            del buf83
            buf90 = reinterpret_tensor(buf84, (16, 32, 1, 1, 1024), (32768, 1024, 1024, 1024, 1), 0); del buf84  # reuse
            # Topologically Sorted Source Nodes: [], Original ATen: [aten.view, aten._safe_softmax, prims.prepare_softmax_online, aten.sub, aten.exp]
            stream0 = get_raw_stream(0)
            triton_per_fused__safe_softmax_exp_prepare_softmax_online_sub_view_5.run(buf90, 512, 1024, stream=stream0)
            buf91 = empty_strided_cuda((16, 32, 1, 1024, 128), (4194304, 131072, 131072, 128, 1), torch.float32)
            # Topologically Sorted Source Nodes: [], Original ATen: [aten._to_copy]
            stream0 = get_raw_stream(0)
            triton_poi_fused__to_copy_6.run(arg42_1, buf91, 67108864, stream=stream0)
            del arg42_1
            buf92 = reinterpret_tensor(buf82, (512, 1, 128), (128, 128, 1), 0); del buf82  # reuse
            # Topologically Sorted Source Nodes: [], Original ATen: [aten.view, aten._safe_softmax, aten.sub, aten.exp, aten._to_copy, aten.bmm]
            extern_kernels.bmm(reinterpret_tensor(buf90, (512, 1, 1024), (1024, 0, 1), 0), reinterpret_tensor(buf91, (512, 1024, 128), (131072, 128, 1), 0), out=buf92)
            del buf90
            del buf91
            buf93 = empty_strided_cuda((16, 32, 1, 1, 128), (4096, 128, 128, 128, 1), torch.float16)
            # Topologically Sorted Source Nodes: [], Original ATen: [aten.view, aten._to_copy]
            stream0 = get_raw_stream(0)
            triton_poi_fused__to_copy_view_7.run(buf92, buf93, 65536, stream=stream0)
            del buf92
            buf94 = empty_strided_cuda((16, 4096), (4096, 1), torch.float16)
            # Topologically Sorted Source Nodes: [layers_3_am, layers_3_o], Original ATen: [aten.view, aten._to_copy, aten.mm]
            extern_kernels.mm(reinterpret_tensor(buf93, (16, 4096), (4096, 1), 0), arg43_1, out=buf94)
            del arg43_1
            buf95 = buf94; del buf94  # reuse
            buf97 = reinterpret_tensor(buf93, (16, 4096), (4096, 1), 0); del buf93  # reuse
            # Topologically Sorted Source Nodes: [layers_1_y, layers_2_h, layers_2_y, layers_3_h, layers_3_mlp_xn], Original ATen: [aten.add, aten._fused_rms_norm]
            stream0 = get_raw_stream(0)
            triton_red_fused__fused_rms_norm_add_15.run(buf95, buf75, buf69, buf50, buf44, arg44_1, buf97, 16, 4096, stream=stream0)
            del arg44_1
            del buf44
            del buf50
            del buf69
            del buf75
            buf98 = empty_strided_cuda((16, 11008), (11008, 1), torch.float16)
            # Topologically Sorted Source Nodes: [layers_3_mlp_g], Original ATen: [aten.mm]
            extern_kernels.mm(buf97, arg45_1, out=buf98)
            del arg45_1
            buf99 = empty_strided_cuda((16, 11008), (11008, 1), torch.float16)
            # Topologically Sorted Source Nodes: [layers_3_mlp_u], Original ATen: [aten.mm]
            extern_kernels.mm(buf97, arg46_1, out=buf99)
            del arg46_1
            buf100 = buf98; del buf98  # reuse
            # Topologically Sorted Source Nodes: [layers_3_mlp_gs, layers_3_mlp_m], Original ATen: [aten.silu, aten.mul]
            stream0 = get_raw_stream(0)
            triton_poi_fused_mul_silu_9.run(buf100, buf99, 176128, stream=stream0)
            del buf99
            buf101 = buf97; del buf97  # reuse
            # Topologically Sorted Source Nodes: [layers_3_mlp_gs, layers_3_mlp_m, layers_3_mlp_d], Original ATen: [aten.silu, aten.mul, aten.mm]
            extern_kernels.mm(buf100, arg47_1, out=buf101)
            del arg47_1
            del buf100
            buf103 = buf101; del buf101  # reuse
            # Topologically Sorted Source Nodes: [h, hn], Original ATen: [aten.add, aten._fused_rms_norm]
            stream0 = get_raw_stream(0)
            triton_red_fused__fused_rms_norm_add_16.run(buf103, buf95, arg48_1, 16, 4096, stream=stream0)
            del arg48_1
            del buf95
            buf104 = empty_strided_cuda((16, 32000), (32000, 1), torch.float16)
            # Topologically Sorted Source Nodes: [h, hn, logits], Original ATen: [aten.add, aten._fused_rms_norm, aten.mm]
            extern_kernels.mm(buf103, arg49_1, out=buf104)
            del arg49_1
            del buf103
        return (buf104, )

runner = Runner(partitions=[])
call = runner.call
recursively_apply_fns = runner.recursively_apply_fns


def get_args():
    from torch._dynamo.testing import rand_strided
    arg0_1 = rand_strided((32000, 4096), (4096, 1), device='cuda:0', dtype=torch.float16)
    arg1_1 = rand_strided((16, ), (1, ), device='cuda:0', dtype=torch.int32)
    arg2_1 = rand_strided((4096, ), (1, ), device='cuda:0', dtype=torch.float16)
    arg3_1 = rand_strided((4096, 4096), (4096, 1), device='cuda:0', dtype=torch.float16)
    arg4_1 = rand_strided((4096, 4096), (4096, 1), device='cuda:0', dtype=torch.float16)
    arg5_1 = rand_strided((4096, 4096), (4096, 1), device='cuda:0', dtype=torch.float16)
    arg6_1 = rand_strided((1, 128), (128, 1), device='cuda:0', dtype=torch.float16)
    arg7_1 = rand_strided((1, 128), (128, 1), device='cuda:0', dtype=torch.float16)
    arg8_1 = rand_strided((16, 32, 1, 1024, 128), (4194304, 131072, 131072, 128, 1), device='cuda:0', dtype=torch.float16)
    arg9_1 = rand_strided((16, 32, 1, 1024, 128), (4194304, 131072, 131072, 128, 1), device='cuda:0', dtype=torch.float16)
    arg10_1 = rand_strided((4096, 4096), (4096, 1), device='cuda:0', dtype=torch.float16)
    arg11_1 = rand_strided((4096, ), (1, ), device='cuda:0', dtype=torch.float16)
    arg12_1 = rand_strided((4096, 11008), (11008, 1), device='cuda:0', dtype=torch.float16)
    arg13_1 = rand_strided((4096, 11008), (11008, 1), device='cuda:0', dtype=torch.float16)
    arg14_1 = rand_strided((11008, 4096), (4096, 1), device='cuda:0', dtype=torch.float16)
    arg15_1 = rand_strided((4096, ), (1, ), device='cuda:0', dtype=torch.float16)
    arg16_1 = rand_strided((4096, 4096), (4096, 1), device='cuda:0', dtype=torch.float16)
    arg17_1 = rand_strided((4096, 4096), (4096, 1), device='cuda:0', dtype=torch.float16)
    arg18_1 = rand_strided((4096, 4096), (4096, 1), device='cuda:0', dtype=torch.float16)
    arg19_1 = rand_strided((16, 32, 1, 1024, 128), (4194304, 131072, 131072, 128, 1), device='cuda:0', dtype=torch.float16)
    arg20_1 = rand_strided((16, 32, 1, 1024, 128), (4194304, 131072, 131072, 128, 1), device='cuda:0', dtype=torch.float16)
    arg21_1 = rand_strided((4096, 4096), (4096, 1), device='cuda:0', dtype=torch.float16)
    arg22_1 = rand_strided((4096, ), (1, ), device='cuda:0', dtype=torch.float16)
    arg23_1 = rand_strided((4096, 11008), (11008, 1), device='cuda:0', dtype=torch.float16)
    arg24_1 = rand_strided((4096, 11008), (11008, 1), device='cuda:0', dtype=torch.float16)
    arg25_1 = rand_strided((11008, 4096), (4096, 1), device='cuda:0', dtype=torch.float16)
    arg26_1 = rand_strided((4096, ), (1, ), device='cuda:0', dtype=torch.float16)
    arg27_1 = rand_strided((4096, 4096), (4096, 1), device='cuda:0', dtype=torch.float16)
    arg28_1 = rand_strided((4096, 4096), (4096, 1), device='cuda:0', dtype=torch.float16)
    arg29_1 = rand_strided((4096, 4096), (4096, 1), device='cuda:0', dtype=torch.float16)
    arg30_1 = rand_strided((16, 32, 1, 1024, 128), (4194304, 131072, 131072, 128, 1), device='cuda:0', dtype=torch.float16)
    arg31_1 = rand_strided((16, 32, 1, 1024, 128), (4194304, 131072, 131072, 128, 1), device='cuda:0', dtype=torch.float16)
    arg32_1 = rand_strided((4096, 4096), (4096, 1), device='cuda:0', dtype=torch.float16)
    arg33_1 = rand_strided((4096, ), (1, ), device='cuda:0', dtype=torch.float16)
    arg34_1 = rand_strided((4096, 11008), (11008, 1), device='cuda:0', dtype=torch.float16)
    arg35_1 = rand_strided((4096, 11008), (11008, 1), device='cuda:0', dtype=torch.float16)
    arg36_1 = rand_strided((11008, 4096), (4096, 1), device='cuda:0', dtype=torch.float16)
    arg37_1 = rand_strided((4096, ), (1, ), device='cuda:0', dtype=torch.float16)
    arg38_1 = rand_strided((4096, 4096), (4096, 1), device='cuda:0', dtype=torch.float16)
    arg39_1 = rand_strided((4096, 4096), (4096, 1), device='cuda:0', dtype=torch.float16)
    arg40_1 = rand_strided((4096, 4096), (4096, 1), device='cuda:0', dtype=torch.float16)
    arg41_1 = rand_strided((16, 32, 1, 1024, 128), (4194304, 131072, 131072, 128, 1), device='cuda:0', dtype=torch.float16)
    arg42_1 = rand_strided((16, 32, 1, 1024, 128), (4194304, 131072, 131072, 128, 1), device='cuda:0', dtype=torch.float16)
    arg43_1 = rand_strided((4096, 4096), (4096, 1), device='cuda:0', dtype=torch.float16)
    arg44_1 = rand_strided((4096, ), (1, ), device='cuda:0', dtype=torch.float16)
    arg45_1 = rand_strided((4096, 11008), (11008, 1), device='cuda:0', dtype=torch.float16)
    arg46_1 = rand_strided((4096, 11008), (11008, 1), device='cuda:0', dtype=torch.float16)
    arg47_1 = rand_strided((11008, 4096), (4096, 1), device='cuda:0', dtype=torch.float16)
    arg48_1 = rand_strided((4096, ), (1, ), device='cuda:0', dtype=torch.float16)
    arg49_1 = rand_strided((4096, 32000), (32000, 1), device='cuda:0', dtype=torch.float16)
    return [arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, arg5_1, arg6_1, arg7_1, arg8_1, arg9_1, arg10_1, arg11_1, arg12_1, arg13_1, arg14_1, arg15_1, arg16_1, arg17_1, arg18_1, arg19_1, arg20_1, arg21_1, arg22_1, arg23_1, arg24_1, arg25_1, arg26_1, arg27_1, arg28_1, arg29_1, arg30_1, arg31_1, arg32_1, arg33_1, arg34_1, arg35_1, arg36_1, arg37_1, arg38_1, arg39_1, arg40_1, arg41_1, arg42_1, arg43_1, arg44_1, arg45_1, arg46_1, arg47_1, arg48_1, arg49_1]


def benchmark_compiled_module(args, times=10, repeat=10):
    from torch._inductor.utils import print_performance
    fn = lambda: call(list(args))
    return print_performance(fn, times=times, repeat=repeat)


if __name__ == "__main__":
    from torch._inductor.wrapper_benchmark import compiled_module_main
    args = get_args()
    compiled_module_main('None', lambda times, repeat: benchmark_compiled_module(args, times=times, repeat=repeat))
