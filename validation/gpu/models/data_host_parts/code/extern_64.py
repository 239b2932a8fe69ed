# AOT ID: ['5_inference']
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
        arg0_1, arg1_1 = args
        args.clear()
        assert_size_stride(arg0_1, (64, 64), (64, 1))
        assert_size_stride(arg1_1, (64, 64), (64, 1))
        with torch.cuda._DeviceGuard(0):
            torch.cuda.set_device(0)
            buf0 = empty_strided_cuda((64, 64), (64, 1), torch.float16)
            # Topologically Sorted Source Nodes: [x], Original ATen: [aten.mm]
            extern_kernels.mm(arg1_1, arg0_1, out=buf0)
            del arg1_1
            buf1 = empty_strided_cuda((64, 64), (64, 1), torch.float16)
            # Topologically Sorted Source Nodes: [x_1], Original ATen: [aten.mm]
            extern_kernels.mm(buf0, arg0_1, out=buf1)
            buf2 = buf0; del buf0  # reuse
            # Topologically Sorted Source Nodes: [x_2], Original ATen: [aten.mm]
            extern_kernels.mm(buf1, arg0_1, out=buf2)
            buf3 = buf1; del buf1  # reuse
            # Topologically Sorted Source Nodes: [x_3], Original ATen: [aten.mm]
            extern_kernels.mm(buf2, arg0_1, out=buf3)
            buf4 = buf2; del buf2  # reuse
            # Topologically Sorted Source Nodes: [x_4], Original ATen: [aten.mm]
            extern_kernels.mm(buf3, arg0_1, out=buf4)
            buf5 = buf3; del buf3  # reuse
            # Topologically Sorted Source Nodes: [x_5], Original ATen: [aten.mm]
            extern_kernels.mm(buf4, arg0_1, out=buf5)
            buf6 = buf4; del buf4  # reuse
            # Topologically Sorted Source Nodes: [x_6], Original ATen: [aten.mm]
            extern_kernels.mm(buf5, arg0_1, out=buf6)
            buf7 = buf5; del buf5  # reuse
            # Topologically Sorted Source Nodes: [x_7], Original ATen: [aten.mm]
            extern_kernels.mm(buf6, arg0_1, out=buf7)
            buf8 = buf6; del buf6  # reuse
            # Topologically Sorted Source Nodes: [x_8], Original ATen: [aten.mm]
            extern_kernels.mm(buf7, arg0_1, out=buf8)
            buf9 = buf7; del buf7  # reuse
            # Topologically Sorted Source Nodes: [x_9], Original ATen: [aten.mm]
            extern_kernels.mm(buf8, arg0_1, out=buf9)
            buf10 = buf8; del buf8  # reuse
            # Topologically Sorted Source Nodes: [x_10], Original ATen: [aten.mm]
            extern_kernels.mm(buf9, arg0_1, out=buf10)
            buf11 = buf9; del buf9  # reuse
            # Topologically Sorted Source Nodes: [x_11], Original ATen: [aten.mm]
            extern_kernels.mm(buf10, arg0_1, out=buf11)
            buf12 = buf10; del buf10  # reuse
            # Topologically Sorted Source Nodes: [x_12], Original ATen: [aten.mm]
            extern_kernels.mm(buf11, arg0_1, out=buf12)
            buf13 = buf11; del buf11  # reuse
            # Topologically Sorted Source Nodes: [x_13], Original ATen: [aten.mm]
            extern_kernels.mm(buf12, arg0_1, out=buf13)
            buf14 = buf12; del buf12  # reuse
            # Topologically Sorted Source Nodes: [x_14], Original ATen: [aten.mm]
            extern_kernels.mm(buf13, arg0_1, out=buf14)
            buf15 = buf13; del buf13  # reuse
            # Topologically Sorted Source Nodes: [x_15], Original ATen: [aten.mm]
            extern_kernels.mm(buf14, arg0_1, out=buf15)
            buf16 = buf14; del buf14  # reuse
            # Topologically Sorted Source Nodes: [x_16], Original ATen: [aten.mm]
            extern_kernels.mm(buf15, arg0_1, out=buf16)
            buf17 = buf15; del buf15  # reuse
            # Topologically Sorted Source Nodes: [x_17], Original ATen: [aten.mm]
            extern_kernels.mm(buf16, arg0_1, out=buf17)
            buf18 = buf16; del buf16  # reuse
            # Topologically Sorted Source Nodes: [x_18], Original ATen: [aten.mm]
            extern_kernels.mm(buf17, arg0_1, out=buf18)
            buf19 = buf17; del buf17  # reuse
            # Topologically Sorted Source Nodes: [x_19], Original ATen: [aten.mm]
            extern_kernels.mm(buf18, arg0_1, out=buf19)
            buf20 = buf18; del buf18  # reuse
            # Topologically Sorted Source Nodes: [x_20], Original ATen: [aten.mm]
            extern_kernels.mm(buf19, arg0_1, out=buf20)
            buf21 = buf19; del buf19  # reuse
            # Topologically Sorted Source Nodes: [x_21], Original ATen: [aten.mm]
            extern_kernels.mm(buf20, arg0_1, out=buf21)
            buf22 = buf20; del buf20  # reuse
            # Topologically Sorted Source Nodes: [x_22], Original ATen: [aten.mm]
            extern_kernels.mm(buf21, arg0_1, out=buf22)
            buf23 = buf21; del buf21  # reuse
            # Topologically Sorted Source Nodes: [x_23], Original ATen: [aten.mm]
            extern_kernels.mm(buf22, arg0_1, out=buf23)
            buf24 = buf22; del buf22  # reuse
            # Topologically Sorted Source Nodes: [x_24], Original ATen: [aten.mm]
            extern_kernels.mm(buf23, arg0_1, out=buf24)
            buf25 = buf23; del buf23  # reuse
            # Topologically Sorted Source Nodes: [x_25], Original ATen: [aten.mm]
            extern_kernels.mm(buf24, arg0_1, out=buf25)
            buf26 = buf24; del buf24  # reuse
            # Topologically Sorted Source Nodes: [x_26], Original ATen: [aten.mm]
            extern_kernels.mm(buf25, arg0_1, out=buf26)
            buf27 = buf25; del buf25  # reuse
            # Topologically Sorted Source Nodes: [x_27], Original ATen: [aten.mm]
            extern_kernels.mm(buf26, arg0_1, out=buf27)
            buf28 = buf26; del buf26  # reuse
            # Topologically Sorted Source Nodes: [x_28], Original ATen: [aten.mm]
            extern_kernels.mm(buf27, arg0_1, out=buf28)
            buf29 = buf27; del buf27  # reuse
            # Topologically Sorted Source Nodes: [x_29], Original ATen: [aten.mm]
            extern_kernels.mm(buf28, arg0_1, out=buf29)
            buf30 = buf28; del buf28  # reuse
            # Topologically Sorted Source Nodes: [x_30], Original ATen: [aten.mm]
            extern_kernels.mm(buf29, arg0_1, out=buf30)
            buf31 = buf29; del buf29  # reuse
            # Topologically Sorted Source Nodes: [x_31], Original ATen: [aten.mm]
            extern_kernels.mm(buf30, arg0_1, out=buf31)
            buf32 = buf30; del buf30  # reuse
            # Topologically Sorted Source Nodes: [x_32], Original ATen: [aten.mm]
            extern_kernels.mm(buf31, arg0_1, out=buf32)
            buf33 = buf31; del buf31  # reuse
            # Topologically Sorted Source Nodes: [x_33], Original ATen: [aten.mm]
            extern_kernels.mm(buf32, arg0_1, out=buf33)
            buf34 = buf32; del buf32  # reuse
            # Topologically Sorted Source Nodes: [x_34], Original ATen: [aten.mm]
            extern_kernels.mm(buf33, arg0_1, out=buf34)
            buf35 = buf33; del buf33  # reuse
            # Topologically Sorted Source Nodes: [x_35], Original ATen: [aten.mm]
            extern_kernels.mm(buf34, arg0_1, out=buf35)
            buf36 = buf34; del buf34  # reuse
            # Topologically Sorted Source Nodes: [x_36], Original ATen: [aten.mm]
            extern_kernels.mm(buf35, arg0_1, out=buf36)
            buf37 = buf35; del buf35  # reuse
            # Topologically Sorted Source Nodes: [x_37], Original ATen: [aten.mm]
            extern_kernels.mm(buf36, arg0_1, out=buf37)
            buf38 = buf36; del buf36  # reuse
            # Topologically Sorted Source Nodes: [x_38], Original ATen: [aten.mm]
            extern_kernels.mm(buf37, arg0_1, out=buf38)
            buf39 = buf37; del buf37  # reuse
            # Topologically Sorted Source Nodes: [x_39], Original ATen: [aten.mm]
            extern_kernels.mm(buf38, arg0_1, out=buf39)
            buf40 = buf38; del buf38  # reuse
            # Topologically Sorted Source Nodes: [x_40], Original ATen: [aten.mm]
            extern_kernels.mm(buf39, arg0_1, out=buf40)
            buf41 = buf39; del buf39  # reuse
            # Topologically Sorted Source Nodes: [x_41], Original ATen: [aten.mm]
            extern_kernels.mm(buf40, arg0_1, out=buf41)
            buf42 = buf40; del buf40  # reuse
            # Topologically Sorted Source Nodes: [x_42], Original ATen: [aten.mm]
            extern_kernels.mm(buf41, arg0_1, out=buf42)
            buf43 = buf41; del buf41  # reuse
            # Topologically Sorted Source Nodes: [x_43], Original ATen: [aten.mm]
            extern_kernels.mm(buf42, arg0_1, out=buf43)
            buf44 = buf42; del buf42  # reuse
            # Topologically Sorted Source Nodes: [x_44], Original ATen: [aten.mm]
            extern_kernels.mm(buf43, arg0_1, out=buf44)
            buf45 = buf43; del buf43  # reuse
            # Topologically Sorted Source Nodes: [x_45], Original ATen: [aten.mm]
            extern_kernels.mm(buf44, arg0_1, out=buf45)
            buf46 = buf44; del buf44  # reuse
            # Topologically Sorted Source Nodes: [x_46], Original ATen: [aten.mm]
            extern_kernels.mm(buf45, arg0_1, out=buf46)
            buf47 = buf45; del buf45  # reuse
            # Topologically Sorted Source Nodes: [x_47], Original ATen: [aten.mm]
            extern_kernels.mm(buf46, arg0_1, out=buf47)
            buf48 = buf46; del buf46  # reuse
            # Topologically Sorted Source Nodes: [x_48], Original ATen: [aten.mm]
            extern_kernels.mm(buf47, arg0_1, out=buf48)
            buf49 = buf47; del buf47  # reuse
            # Topologically Sorted Source Nodes: [x_49], Original ATen: [aten.mm]
            extern_kernels.mm(buf48, arg0_1, out=buf49)
            buf50 = buf48; del buf48  # reuse
            # Topologically Sorted Source Nodes: [x_50], Original ATen: [aten.mm]
            extern_kernels.mm(buf49, arg0_1, out=buf50)
            buf51 = buf49; del buf49  # reuse
            # Topologically Sorted Source Nodes: [x_51], Original ATen: [aten.mm]
            extern_kernels.mm(buf50, arg0_1, out=buf51)
            buf52 = buf50; del buf50  # reuse
            # Topologically Sorted Source Nodes: [x_52], Original ATen: [aten.mm]
            extern_kernels.mm(buf51, arg0_1, out=buf52)
            buf53 = buf51; del buf51  # reuse
            # Topologically Sorted Source Nodes: [x_53], Original ATen: [aten.mm]
            extern_kernels.mm(buf52, arg0_1, out=buf53)
            buf54 = buf52; del buf52  # reuse
            # Topologically Sorted Source Nodes: [x_54], Original ATen: [aten.mm]
            extern_kernels.mm(buf53, arg0_1, out=buf54)
            buf55 = buf53; del buf53  # reuse
            # Topologically Sorted Source Nodes: [x_55], Original ATen: [aten.mm]
            extern_kernels.mm(buf54, arg0_1, out=buf55)
            buf56 = buf54; del buf54  # reuse
            # Topologically Sorted Source Nodes: [x_56], Original ATen: [aten.mm]
            extern_kernels.mm(buf55, arg0_1, out=buf56)
            buf57 = buf55; del buf55  # reuse
            # Topologically Sorted Source Nodes: [x_57], Original ATen: [aten.mm]
            extern_kernels.mm(buf56, arg0_1, out=buf57)
            buf58 = buf56; del buf56  # reuse
            # Topologically Sorted Source Nodes: [x_58], Original ATen: [aten.mm]
            extern_kernels.mm(buf57, arg0_1, out=buf58)
            buf59 = buf57; del buf57  # reuse
            # Topologically Sorted Source Nodes: [x_59], Original ATen: [aten.mm]
            extern_kernels.mm(buf58, arg0_1, out=buf59)
            buf60 = buf58; del buf58  # reuse
            # Topologically Sorted Source Nodes: [x_60], Original ATen: [aten.mm]
            extern_kernels.mm(buf59, arg0_1, out=buf60)
            buf61 = buf59; del buf59  # reuse
            # Topologically Sorted Source Nodes: [x_61], Original ATen: [aten.mm]
            extern_kernels.mm(buf60, arg0_1, out=buf61)
            buf62 = buf60; del buf60  # reuse
            # Topologically Sorted Source Nodes: [x_62], Original ATen: [aten.mm]
            extern_kernels.mm(buf61, arg0_1, out=buf62)
            buf63 = buf61; del buf61  # reuse
            # Topologically Sorted Source Nodes: [x_63], Original ATen: [aten.mm]
            extern_kernels.mm(buf62, arg0_1, out=buf63)
            del arg0_1
            del buf62
        return (buf63, )

runner = Runner(partitions=[])
call = runner.call
recursively_apply_fns = runner.recursively_apply_fns


def get_args():
    from torch._dynamo.testing import rand_strided
    arg0_1 = rand_strided((64, 64), (64, 1), device='cuda:0', dtype=torch.float16)
    arg1_1 = rand_strided((64, 64), (64, 1), device='cuda:0', dtype=torch.float16)
    return [arg0_1, arg1_1]


def benchmark_compiled_module(args, times=10, repeat=10):
    from torch._inductor.utils import print_performance
    fn = lambda: call(list(args))
    return print_performance(fn, times=times, repeat=repeat)


if __name__ == "__main__":
    from torch._inductor.wrapper_benchmark import compiled_module_main
    args = get_args()
    compiled_module_main('None', lambda times, repeat: benchmark_compiled_module(args, times=times, repeat=repeat))
