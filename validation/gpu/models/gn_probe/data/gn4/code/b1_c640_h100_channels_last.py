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


# kernel path: /tmp/torchinductor_root/wm/cwm4ckh4zfojb5hlzylvwm2jx6j3dfqcj5zmp3zftonzq62ewlbm.py
# Topologically Sorted Source Nodes: [add, group_norm], Original ATen: [aten.add, aten.clone, aten.native_group_norm]
# Source node to ATen node mapping:
#   add => add
#   group_norm => clone, convert_element_type, var_mean, view
# Graph fragment:
#   %arg0_1 : Tensor "f16[1, 640, 100, 100][6400000, 1, 64000, 640]cuda:0" = PlaceHolder[target=arg0_1]
#   %arg1_1 : Tensor "f16[1, 640, 1, 1][640, 1, 1, 1]cuda:0" = PlaceHolder[target=arg1_1]
#   %add : Tensor "f16[1, 640, 100, 100][6400000, 1, 64000, 640]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%arg0_1, %arg1_1), kwargs = {})
#   %clone : Tensor "f16[1, 640, 100, 100][6400000, 10000, 100, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%add,), kwargs = {memory_format: torch.contiguous_format})
#   %convert_element_type : Tensor "f32[1, 640, 100, 100][6400000, 10000, 100, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%clone, torch.float32), kwargs = {})
#   %view : Tensor "f32[1, 32, 20, 10000][6400000, 200000, 10000, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%convert_element_type, [1, 32, 20, 10000]), kwargs = {})
#   %var_mean : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%view, [2, 3]), kwargs = {correction: 0, keepdim: True})
#   return %buf0,%buf1,%buf2
triton_per_fused_add_clone_native_group_norm_0 = async_compile.triton('triton_per_fused_add_clone_native_group_norm_0', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 65536, 'r0_': 128},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp16', 'in_ptr1': '*fp16', 'out_ptr0': '*fp32', 'out_ptr1': '*fp32', 'out_ptr2': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_add_clone_native_group_norm_0', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 2, 'num_store': 3, 'num_reduction': 3, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 1209600, 'r0_': 0}}
)
@triton.jit
def triton_per_fused_add_clone_native_group_norm_0(in_ptr0, in_ptr1, out_ptr0, out_ptr1, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 50400
    r0_numel = 127
    R0_BLOCK: tl.constexpr = 128
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
    r0_3 = r0_index
    x1 = ((xindex // 32) % 63)
    x0 = (xindex % 32)
    x2 = xindex // 2016
    x4 = xindex
    tmp0 = r0_3 + 127*x1
    tmp1 = tl.full([1, 1], 8000, tl.int32)
    tmp2 = tmp0 < tmp1
    tmp3 = tl.load(in_ptr0 + (20*x0 + 640*(((r0_3 + 127*x1 + 8000*x2) % 10000)) + ((((r0_3 + 127*x1 + 8000*x2) // 10000) % 20))), r0_mask & tmp2 & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp4 = tl.load(in_ptr1 + (20*x0 + ((((r0_3 + 127*x1 + 8000*x2) // 10000) % 20))), r0_mask & tmp2 & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp5 = tmp3 + tmp4
    tmp6 = tmp5.to(tl.float32)
    tmp7 = tl.full(tmp6.shape, 0, tmp6.dtype)
    tmp8 = tl.where(tmp2, tmp6, tmp7)
    tmp9 = tl.full([1, 1], 0.0, tl.float32)
    tmp10 = tl.full(tmp9.shape, 0, tmp9.dtype)
    tmp11 = tl.where(tmp2, tmp9, tmp10)
    tmp12 = tl.full([1, 1], 1.0, tl.float32)
    tmp13 = tl.full(tmp12.shape, 0, tmp12.dtype)
    tmp14 = tl.where(tmp2, tmp12, tmp13)
    tmp15 = tl.broadcast_to(tmp8, [XBLOCK, R0_BLOCK])
    tmp16 = tl.broadcast_to(tmp11, [XBLOCK, R0_BLOCK])
    tmp17 = tl.broadcast_to(tmp14, [XBLOCK, R0_BLOCK])
    tmp19 = tl.where(r0_mask & xmask, tmp15, 0)
    tmp20 = tl.where(r0_mask & xmask, tmp16, 0)
    tmp21 = tl.where(r0_mask & xmask, tmp17, 0)
    tmp22, tmp23, tmp24 = triton_helpers.welford(tmp19, tmp20, tmp21, 1)
    tmp25 = tmp22[:, None]
    tmp26 = tmp23[:, None]
    tmp27 = tmp24[:, None]
    tl.store(out_ptr0 + (x4), tmp25, xmask)
    tl.store(out_ptr1 + (x4), tmp26, xmask)
    tl.store(out_ptr2 + (x4), tmp27, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/yr/cyrmbp45jty7jnvdibnt3lkbbohhvv6drk4musth2ziicgvrtt4y.py
# Topologically Sorted Source Nodes: [add, group_norm], Original ATen: [aten.add, aten.clone, aten.native_group_norm]
# Source node to ATen node mapping:
#   add => add
#   group_norm => clone, convert_element_type, var_mean, view
# Graph fragment:
#   %buf0 : Tensor "f32[1, 32, 1, 1, 25, 63][50400, 1, 50400, 50400, 2016, 32]cuda:0" = PlaceHolder[target=buf0]
#   %buf1 : Tensor "f32[1, 32, 1, 1, 25, 63][50400, 1, 50400, 50400, 2016, 32]cuda:0" = PlaceHolder[target=buf1]
#   %buf2 : Tensor "f32[1, 32, 1, 1, 25, 63][50400, 1, 50400, 50400, 2016, 32]cuda:0" = PlaceHolder[target=buf2]
#   %add : Tensor "f16[1, 640, 100, 100][6400000, 1, 64000, 640]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%arg0_1, %arg1_1), kwargs = {})
#   %clone : Tensor "f16[1, 640, 100, 100][6400000, 10000, 100, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%add,), kwargs = {memory_format: torch.contiguous_format})
#   %convert_element_type : Tensor "f32[1, 640, 100, 100][6400000, 10000, 100, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%clone, torch.float32), kwargs = {})
#   %view : Tensor "f32[1, 32, 20, 10000][6400000, 200000, 10000, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%convert_element_type, [1, 32, 20, 10000]), kwargs = {})
#   %var_mean : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%view, [2, 3]), kwargs = {correction: 0, keepdim: True})
#   return %buf3,%buf4,%buf5
triton_per_fused_add_clone_native_group_norm_1 = async_compile.triton('triton_per_fused_add_clone_native_group_norm_1', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 1024, 'r0_': 64},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'out_ptr0': '*fp32', 'out_ptr1': '*fp32', 'out_ptr2': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_add_clone_native_group_norm_1', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 3, 'num_store': 3, 'num_reduction': 3, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 624000, 'r0_': 0}}
)
@triton.jit
def triton_per_fused_add_clone_native_group_norm_1(in_ptr0, in_ptr1, in_ptr2, out_ptr0, out_ptr1, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 800
    r0_numel = 63
    R0_BLOCK: tl.constexpr = 64
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
    r0_2 = r0_index
    x0 = (xindex % 32)
    x1 = xindex // 32
    x3 = xindex
    tmp0 = tl.load(in_ptr0 + (x0 + 32*r0_2 + 2016*x1), r0_mask & xmask, other=0.0)
    tmp1 = tl.load(in_ptr1 + (x0 + 32*r0_2 + 2016*x1), r0_mask & xmask, other=0.0)
    tmp2 = tl.load(in_ptr2 + (x0 + 32*r0_2 + 2016*x1), r0_mask & xmask, other=0.0)
    tmp3 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp4 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
    tmp5 = tl.broadcast_to(tmp2, [XBLOCK, R0_BLOCK])
    tmp7 = tl.where(r0_mask & xmask, tmp3, 0)
    tmp8 = tl.where(r0_mask & xmask, tmp4, 0)
    tmp9 = tl.where(r0_mask & xmask, tmp5, 0)
    tmp10, tmp11, tmp12 = triton_helpers.welford(tmp7, tmp8, tmp9, 1)
    tmp13 = tmp10[:, None]
    tmp14 = tmp11[:, None]
    tmp15 = tmp12[:, None]
    tl.store(out_ptr0 + (x3), tmp13, xmask)
    tl.store(out_ptr1 + (x3), tmp14, xmask)
    tl.store(out_ptr2 + (x3), tmp15, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/w4/cw4rp3jelrynmkse45oosfsnx57qxrgx7o3ihejsiw7ht3txtrzq.py
# Topologically Sorted Source Nodes: [add, group_norm], Original ATen: [aten.add, aten.clone, aten.native_group_norm]
# Source node to ATen node mapping:
#   add => add
#   group_norm => clone, convert_element_type, var_mean, view
# Graph fragment:
#   %buf3 : Tensor "f32[1, 32, 1, 1, 25][800, 1, 800, 800, 32]cuda:0" = PlaceHolder[target=buf3]
#   %buf4 : Tensor "f32[1, 32, 1, 1, 25][800, 1, 800, 800, 32]cuda:0" = PlaceHolder[target=buf4]
#   %buf5 : Tensor "f32[1, 32, 1, 1, 25][800, 1, 800, 800, 32]cuda:0" = PlaceHolder[target=buf5]
#   %add : Tensor "f16[1, 640, 100, 100][6400000, 1, 64000, 640]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%arg0_1, %arg1_1), kwargs = {})
#   %clone : Tensor "f16[1, 640, 100, 100][6400000, 10000, 100, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%add,), kwargs = {memory_format: torch.contiguous_format})
#   %convert_element_type : Tensor "f32[1, 640, 100, 100][6400000, 10000, 100, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%clone, torch.float32), kwargs = {})
#   %view : Tensor "f32[1, 32, 20, 10000][6400000, 200000, 10000, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%convert_element_type, [1, 32, 20, 10000]), kwargs = {})
#   %var_mean : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%view, [2, 3]), kwargs = {correction: 0, keepdim: True})
#   return %getitem_1,%buf7
triton_per_fused_add_clone_native_group_norm_2 = async_compile.triton('triton_per_fused_add_clone_native_group_norm_2', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 32, 'r0_': 32},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'out_ptr0': '*fp32', 'out_ptr1': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_add_clone_native_group_norm_2', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 3, 'num_store': 2, 'num_reduction': 2, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 10112, 'r0_': 0}}
)
@triton.jit
def triton_per_fused_add_clone_native_group_norm_2(in_ptr0, in_ptr1, in_ptr2, out_ptr0, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 32
    r0_numel = 25
    R0_BLOCK: tl.constexpr = 32
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
    tmp0 = tl.load(in_ptr0 + (x0 + 32*r0_1), r0_mask & xmask, other=0.0)
    tmp1 = tl.load(in_ptr1 + (x0 + 32*r0_1), r0_mask & xmask, other=0.0)
    tmp2 = tl.load(in_ptr2 + (x0 + 32*r0_1), r0_mask & xmask, other=0.0)
    tmp3 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp4 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
    tmp5 = tl.broadcast_to(tmp2, [XBLOCK, R0_BLOCK])
    tmp7 = tl.where(r0_mask & xmask, tmp3, 0)
    tmp8 = tl.where(r0_mask & xmask, tmp4, 0)
    tmp9 = tl.where(r0_mask & xmask, tmp5, 0)
    tmp10, tmp11, tmp12 = triton_helpers.welford(tmp7, tmp8, tmp9, 1)
    tmp13 = tmp10[:, None]
    tmp14 = tmp11[:, None]
    tmp15 = tmp12[:, None]
    tl.store(out_ptr0 + (x0), tmp13, xmask)
    tl.store(out_ptr1 + (x0), tmp14, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/64/c64sjnxlfzwaiclk4eixovwhxhmjl32iokaiabrfshfwpnmrdvjf.py
# Topologically Sorted Source Nodes: [add, group_norm, silu], Original ATen: [aten.add, aten.clone, aten.native_group_norm, aten.silu]
# Source node to ATen node mapping:
#   add => add
#   group_norm => add_1, add_2, clone, convert_element_type, mul, mul_1, rsqrt, sub, unsqueeze, unsqueeze_1, unsqueeze_2, unsqueeze_3, unsqueeze_4, unsqueeze_5, var_mean, view, view_1
#   silu => add_3, convert_element_type_5, div, exp, neg
# Graph fragment:
#   %arg0_1 : Tensor "f16[1, 640, 100, 100][6400000, 1, 64000, 640]cuda:0" = PlaceHolder[target=arg0_1]
#   %arg1_1 : Tensor "f16[1, 640, 1, 1][640, 1, 1, 1]cuda:0" = PlaceHolder[target=arg1_1]
#   %getitem_1 : Tensor "f32[1, 32, 1, 1][32, 1, 32, 32]cuda:0" = PlaceHolder[target=getitem_1]
#   %buf7 : Tensor "f32[1, 32, 1, 1][32, 1, 32, 32]cuda:0" = PlaceHolder[target=buf7]
#   %arg2_1 : Tensor "f16[640][1]cuda:0" = PlaceHolder[target=arg2_1]
#   %arg3_1 : Tensor "f16[640][1]cuda:0" = PlaceHolder[target=arg3_1]
#   %add_2 : Tensor "f32[1, 640, 100, 100][6400000, 1, 64000, 640]cuda:0" = PlaceHolder[target=add_2]
#   %add : Tensor "f16[1, 640, 100, 100][6400000, 1, 64000, 640]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%arg0_1, %arg1_1), kwargs = {})
#   %clone : Tensor "f16[1, 640, 100, 100][6400000, 10000, 100, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%add,), kwargs = {memory_format: torch.contiguous_format})
#   %convert_element_type : Tensor "f32[1, 640, 100, 100][6400000, 10000, 100, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%clone, torch.float32), kwargs = {})
#   %view : Tensor "f32[1, 32, 20, 10000][6400000, 200000, 10000, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.reshape.default](args = (%convert_element_type, [1, 32, 20, 10000]), kwargs = {})
#   %var_mean : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%view, [2, 3]), kwargs = {correction: 0, keepdim: True})
#   %sub : Tensor "f32[1, 32, 20, 10000][6400000, 200000, 10000, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%view, %getitem_1), kwargs = {})
#   %add_1 : Tensor "f32[1, 32, 1, 1][32, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem, 1e-05), kwargs = {})
#   %rsqrt : Tensor "f32[1, 32, 1, 1][32, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_1,), kwargs = {})
#   %mul : Tensor "f32[1, 32, 20, 10000][6400000, 200000, 10000, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub, %rsqrt), kwargs = {})
#   %view_1 : Tensor "f32[1, 640, 100, 100][6400000, 10000, 100, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.reshape.default](args = (%mul, [1, 640, 100, 100]), kwargs = {})
#   %unsqueeze : Tensor "f16[1, 640][640, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%arg2_1, 0), kwargs = {})
#   %unsqueeze_1 : Tensor "f16[1, 640, 1][640, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze, 2), kwargs = {})
#   %unsqueeze_2 : Tensor "f16[1, 640, 1, 1][640, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_1, 3), kwargs = {})
#   %mul_1 : Tensor "f32[1, 640, 100, 100][6400000, 10000, 100, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%view_1, %unsqueeze_2), kwargs = {})
#   %unsqueeze_3 : Tensor "f16[1, 640][640, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%arg3_1, 0), kwargs = {})
#   %unsqueeze_4 : Tensor "f16[1, 640, 1][640, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_3, 2), kwargs = {})
#   %unsqueeze_5 : Tensor "f16[1, 640, 1, 1][640, 1, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_4, 3), kwargs = {})
#   %add_2 : Tensor "f32[1, 640, 100, 100][6400000, 10000, 100, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_1, %unsqueeze_5), kwargs = {})
#   %neg : Tensor "f32[1, 640, 100, 100][6400000, 10000, 100, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%add_2,), kwargs = {})
#   %exp : Tensor "f32[1, 640, 100, 100][6400000, 10000, 100, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%neg,), kwargs = {})
#   %add_3 : Tensor "f32[1, 640, 100, 100][6400000, 10000, 100, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%exp, 1), kwargs = {})
#   %div : Tensor "f32[1, 640, 100, 100][6400000, 10000, 100, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%add_2, %add_3), kwargs = {})
#   %convert_element_type_5 : Tensor "f16[1, 640, 100, 100][6400000, 10000, 100, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%div, torch.float16), kwargs = {})
#   return %add_2,%convert_element_type_5
triton_poi_fused_add_clone_native_group_norm_silu_3 = async_compile.triton('triton_poi_fused_add_clone_native_group_norm_silu_3', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'y': 16384, 'x': 1024}, tile_hint=TileHint.DEFAULT,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp16', 'in_ptr1': '*fp16', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp16', 'in_ptr5': '*fp16', 'out_ptr1': '*fp16', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid2D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_add_clone_native_group_norm_silu_3', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 6, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'y': 25600000, 'x': 12804096}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_add_clone_native_group_norm_silu_3(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, out_ptr1, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 10000
    xnumel = 640
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x1 = xindex
    y0 = yindex
    tmp0 = tl.load(in_ptr0 + (x1 + 640*y0), xmask & ymask, eviction_policy='evict_last').to(tl.float32)
    tmp1 = tl.load(in_ptr1 + (x1), xmask, eviction_policy='evict_last').to(tl.float32)
    tmp4 = tl.load(in_ptr2 + (x1 // 20), xmask, eviction_policy='evict_last')
    tmp6 = tl.load(in_ptr3 + (x1 // 20), xmask, eviction_policy='evict_last')
    tmp13 = tl.load(in_ptr4 + (x1), xmask, eviction_policy='evict_last').to(tl.float32)
    tmp16 = tl.load(in_ptr5 + (x1), xmask, eviction_policy='evict_last').to(tl.float32)
    tmp2 = tmp0 + tmp1
    tmp3 = tmp2.to(tl.float32)
    tmp5 = tmp3 - tmp4
    tmp7 = tl.full([1, 1], 200000.0, tl.float32)
    tmp8 = (tmp6 / tmp7)
    tmp9 = tl.full([1, 1], 1e-05, tl.float32)
    tmp10 = tmp8 + tmp9
    tmp11 = libdevice.rsqrt(tmp10)
    tmp12 = tmp5 * tmp11
    tmp14 = tmp13.to(tl.float32)
    tmp15 = tmp12 * tmp14
    tmp17 = tmp16.to(tl.float32)
    tmp18 = tmp15 + tmp17
    tmp19 = -tmp18
    tmp20 = libdevice.exp(tmp19)
    tmp21 = tl.full([1, 1], 1.0, tl.float32)
    tmp22 = tmp20 + tmp21
    tmp23 = (tmp18 / tmp22)
    tmp24 = tmp23.to(tl.float32)
    tl.store(out_ptr1 + (y0 + 10000*x1), tmp24, xmask & ymask)
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
        arg0_1, arg1_1, arg2_1, arg3_1 = args
        args.clear()
        assert_size_stride(arg0_1, (1, 640, 100, 100), (6400000, 1, 64000, 640))
        assert_size_stride(arg1_1, (1, 640, 1, 1), (640, 1, 1, 1))
        assert_size_stride(arg2_1, (640, ), (1, ))
        assert_size_stride(arg3_1, (640, ), (1, ))
        with torch.cuda._DeviceGuard(0):
            torch.cuda.set_device(0)
            buf0 = empty_strided_cuda((1, 32, 1, 1, 25, 63), (50400, 1, 50400, 50400, 2016, 32), torch.float32)
            buf1 = empty_strided_cuda((1, 32, 1, 1, 25, 63), (50400, 1, 50400, 50400, 2016, 32), torch.float32)
            buf2 = empty_strided_cuda((1, 32, 1, 1, 25, 63), (50400, 1, 50400, 50400, 2016, 32), torch.float32)
            # Topologically Sorted Source Nodes: [add, group_norm], Original ATen: [aten.add, aten.clone, aten.native_group_norm]
            stream0 = get_raw_stream(0)
            triton_per_fused_add_clone_native_group_norm_0.run(arg0_1, arg1_1, buf0, buf1, buf2, 50400, 127, stream=stream0)
            buf3 = empty_strided_cuda((1, 32, 1, 1, 25), (800, 1, 800, 800, 32), torch.float32)
            buf4 = empty_strided_cuda((1, 32, 1, 1, 25), (800, 1, 800, 800, 32), torch.float32)
            buf5 = empty_strided_cuda((1, 32, 1, 1, 25), (800, 1, 800, 800, 32), torch.float32)
            # Topologically Sorted Source Nodes: [add, group_norm], Original ATen: [aten.add, aten.clone, aten.native_group_norm]
            stream0 = get_raw_stream(0)
            triton_per_fused_add_clone_native_group_norm_1.run(buf0, buf1, buf2, buf3, buf4, buf5, 800, 63, stream=stream0)
            del buf0
            del buf1
            del buf2
            buf6 = empty_strided_cuda((1, 32, 1, 1), (32, 1, 32, 32), torch.float32)
            buf7 = empty_strided_cuda((1, 32, 1, 1), (32, 1, 32, 32), torch.float32)
            # Topologically Sorted Source Nodes: [add, group_norm], Original ATen: [aten.add, aten.clone, aten.native_group_norm]
            stream0 = get_raw_stream(0)
            triton_per_fused_add_clone_native_group_norm_2.run(buf3, buf4, buf5, buf6, buf7, 32, 25, stream=stream0)
            del buf3
            del buf4
            del buf5
            buf10 = empty_strided_cuda((1, 640, 100, 100), (6400000, 10000, 100, 1), torch.float16)
            # Topologically Sorted Source Nodes: [add, group_norm, silu], Original ATen: [aten.add, aten.clone, aten.native_group_norm, aten.silu]
            stream0 = get_raw_stream(0)
            triton_poi_fused_add_clone_native_group_norm_silu_3.run(arg0_1, arg1_1, buf6, buf7, arg2_1, arg3_1, buf10, 10000, 640, stream=stream0)
            del arg0_1
            del arg1_1
            del arg2_1
            del arg3_1
            del buf6
            del buf7
        return (buf10, )

runner = Runner(partitions=[])
call = runner.call
recursively_apply_fns = runner.recursively_apply_fns


def get_args():
    from torch._dynamo.testing import rand_strided
    arg0_1 = rand_strided((1, 640, 100, 100), (6400000, 1, 64000, 640), device='cuda:0', dtype=torch.float16)
    arg1_1 = rand_strided((1, 640, 1, 1), (640, 1, 1, 1), device='cuda:0', dtype=torch.float16)
    arg2_1 = rand_strided((640, ), (1, ), device='cuda:0', dtype=torch.float16)
    arg3_1 = rand_strided((640, ), (1, ), device='cuda:0', dtype=torch.float16)
    return [arg0_1, arg1_1, arg2_1, arg3_1]


def benchmark_compiled_module(args, times=10, repeat=10):
    from torch._inductor.utils import print_performance
    fn = lambda: call(list(args))
    return print_performance(fn, times=times, repeat=repeat)


if __name__ == "__main__":
    from torch._inductor.wrapper_benchmark import compiled_module_main
    args = get_args()
    compiled_module_main('None', lambda times, repeat: benchmark_compiled_module(args, times=times, repeat=repeat))
