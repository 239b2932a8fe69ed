"""A fused selective scan (Mamba-1's `selective_scan_fn`) in Triton, for calibration batch i.

mamba_ssm's CUDA kernel cannot be installed on the device (no network, no wheel for this
torch), so batch i measures this kernel instead: the same contract and the same DRAM traffic
as mamba_ssm's `selective_scan_fwd` (every input read once, the output written once, the
state kept on chip), one launch per call.

    y = selective_scan(u, delta, A, B, C, D, z, delta_bias, delta_softplus=True)

u, delta, z: [batch, dim, L] (f16/bf16); A: [dim, N] f32; B, C: [batch, N, L] (one group,
"variable B/C"); D, delta_bias: [dim] f32. y: [batch, dim, L] in u's dtype.

Per (b, d, l):  dt = softplus(delta + delta_bias);  for each n:
    dA = exp(dt * A[d, n]);  h[n] = dA * h[n] + dt * B[b, n, l] * u;  y += C[b, n, l] * h[n]
y = (y + D[d] * u) * silu(z).

The program of a (batch, block of BD channels) walks L in chunks of CL: it loads tiles
[BD, CL] of u, delta, z and [N, CL] of B and C (coalesced along L), forms the per-step
coefficients (a, b) = (dA, dt*B*u) as [BD, N, CL], scans them along L with
`tl.associative_scan` ((a1, b1) then (a2, b2) = (a1*a2, a2*b1 + b2)), adds the carried state
(h = a_cum * h_prev + b_cum), reduces over N with C and stores y; the chunk's last state is
carried to the next chunk.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def _combine(a1, b1, a2, b2):
    return a1 * a2, a2 * b1 + b2


@triton.jit
def _selective_scan_fwd(u_ptr, dl_ptr, A_ptr, B_ptr, C_ptr, D_ptr, z_ptr, db_ptr, y_ptr,
                        DIM, L,
                        N: tl.constexpr, BD: tl.constexpr, CL: tl.constexpr, SOFTPLUS: tl.constexpr):
    pid_b = tl.program_id(0)
    pid_d = tl.program_id(1)
    offs_d = pid_d * BD + tl.arange(0, BD)
    offs_n = tl.arange(0, N)
    offs_l = tl.arange(0, CL)
    mask_d = offs_d < DIM
    A = tl.load(A_ptr + offs_d[:, None] * N + offs_n[None, :], mask=mask_d[:, None], other=0.0)  # [BD, N]
    Dv = tl.load(D_ptr + offs_d, mask=mask_d, other=0.0)
    db = tl.load(db_ptr + offs_d, mask=mask_d, other=0.0)
    h = tl.zeros((BD, N), dtype=tl.float32)
    row = pid_b * DIM * L + offs_d[:, None] * L  # [BD, 1]
    brow = pid_b * N * L + offs_n[:, None] * L  # [N, 1]
    last = (offs_l == CL - 1)[None, None, :]
    for l0 in range(0, L, CL):
        cols = l0 + offs_l
        m2 = mask_d[:, None] & (cols[None, :] < L)
        mb = cols[None, :] < L
        u = tl.load(u_ptr + row + cols[None, :], mask=m2, other=0.0).to(tl.float32)
        dl = tl.load(dl_ptr + row + cols[None, :], mask=m2, other=0.0).to(tl.float32)
        z = tl.load(z_ptr + row + cols[None, :], mask=m2, other=0.0).to(tl.float32)
        Bt = tl.load(B_ptr + brow + cols[None, :], mask=mb, other=0.0).to(tl.float32)  # [N, CL]
        Ct = tl.load(C_ptr + brow + cols[None, :], mask=mb, other=0.0).to(tl.float32)
        dt = dl + db[:, None]
        if SOFTPLUS:
            dt = tl.where(dt <= 20.0, tl.log(1.0 + tl.exp(dt)), dt)
        a = tl.exp(dt[:, None, :] * A[:, :, None])  # [BD, N, CL]
        b = (dt * u)[:, None, :] * Bt[None, :, :]
        a_cum, b_cum = tl.associative_scan((a, b), axis=2, combine_fn=_combine)
        hs = a_cum * h[:, :, None] + b_cum  # [BD, N, CL]
        y = tl.sum(hs * Ct[None, :, :], axis=1)  # [BD, CL]
        y = (y + Dv[:, None] * u) * (z / (1.0 + tl.exp(-z)))
        tl.store(y_ptr + row + cols[None, :], y.to(y_ptr.dtype.element_ty), mask=m2)
        h = tl.sum(tl.where(last, hs, 0.0), axis=2)


def selective_scan(u, delta, A, B, C, D, z, delta_bias, delta_softplus=True, BD=8, CL=32, num_warps=4):
    batch, dim, L = u.shape
    N = A.shape[1]
    y = torch.empty_like(u)
    grid = (batch, triton.cdiv(dim, BD))
    _selective_scan_fwd[grid](u, delta, A, B, C, D, z, delta_bias, y, dim, L,
                              N=N, BD=BD, CL=CL, SOFTPLUS=delta_softplus, num_warps=num_warps)
    return y


def reference(u, delta, A, B, C, D, z, delta_bias, delta_softplus=True):
    """mamba_ssm's selective_scan_ref, one group of B/C, in f32."""
    u, delta, z = u.float(), delta.float(), z.float()
    B, C = B.float(), C.float()
    dt = delta + delta_bias[None, :, None]
    if delta_softplus:
        dt = torch.nn.functional.softplus(dt)
    batch, dim, L = u.shape
    h = torch.zeros(batch, dim, A.shape[1], device=u.device)
    ys = []
    dA = torch.exp(torch.einsum("bdl,dn->bdln", dt, A))
    dBu = torch.einsum("bdl,bnl,bdl->bdln", dt, B, u)
    for i in range(L):
        h = dA[:, :, i] * h + dBu[:, :, i]
        ys.append(torch.einsum("bdn,bn->bd", h, C[:, :, i]))
    y = torch.stack(ys, dim=2)
    y = y + u * D[None, :, None]
    return y * torch.nn.functional.silu(z)


def make_inputs(batch, dim, L, N, dtype, device="cuda", seed=0):
    g = torch.Generator(device=device).manual_seed(seed)
    r = lambda *s, dt=dtype: torch.randn(*s, device=device, dtype=torch.float32, generator=g).to(dt)
    u = r(batch, dim, L)
    delta = (r(batch, dim, L, dt=torch.float32) * 0.5 - 1.0).to(dtype)
    A = -torch.exp(r(dim, N, dt=torch.float32) * 0.5)
    B = r(batch, N, L)
    C = r(batch, N, L)
    D = r(dim, dt=torch.float32)
    z = r(batch, dim, L)
    db = r(dim, dt=torch.float32) * 0.1
    return u, delta, A, B, C, D, z, db
