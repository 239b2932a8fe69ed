//! The fixed Python of every emitted module (part of [`super`]): the helpers its ops call
//! (random tensors, masks, the scans and the weight-only dequantisation) and `main`.

/// The Python the module's ops use: tensors, masks and constants made on the device, and
/// the ops PyTorch has no single call for (scans, weight-only GEMMs: `families`).
pub(super) const HELPERS: &str = r#"def _random(shape, dtype, device, gen, std=1.0, high=2, channels_last=False, positive=False):
    """A seeded random tensor: normal floats times `std` (their absolute values if
    `positive`), integers in [0, high), bools."""
    if dtype == torch.bool:
        t = torch.rand(shape, device=device, generator=gen) < 0.5
    elif dtype.is_floating_point:
        make = dtype if dtype.itemsize > 1 else torch.float32  # no randn in fp8
        t = torch.randn(shape, dtype=make, device=device, generator=gen)
        if positive:
            t.abs_()
        if std != 1.0:
            t.mul_(std)
        t = t.to(dtype)
    else:
        t = torch.randint(0, high, shape, dtype=dtype, device=device, generator=gen)
    if channels_last:
        fmt = torch.channels_last if t.dim() == 4 else torch.channels_last_3d
        t = t.contiguous(memory_format=fmt)
    return t


def _weight(t):
    """A weight: a parameter that needs no gradient."""
    return torch.nn.Parameter(t, requires_grad=False)


def _hidden(sq, sk, window, device):
    """True where query i may not see key j: j > i + sk - sq (the causal mask aligned to the
    last key, as fgraph and FlashAttention align it), or, with a window, j <= i + sk - sq - window.
    """
    i = torch.arange(sq, device=device)[:, None] + (sk - sq)
    j = torch.arange(sk, device=device)[None, :]
    hidden = j > i
    if window is not None:
        hidden |= j <= i - window
    return hidden


def _selective_scan(u, delta, A, B, C, D=None, z=None, delta_bias=None, softplus=False):
    """Mamba's selective scan: mamba_ssm's fused kernel when it is installed, else its
    reference (selective_scan_ref: a Python loop over L, many kernels)."""
    try:
        from mamba_ssm.ops.selective_scan_interface import selective_scan_fn
        return selective_scan_fn(u, delta, A, B, C, D, z, delta_bias, delta_softplus=softplus)
    except ImportError:
        pass
    dt = delta.float()
    if delta_bias is not None:
        dt = dt + delta_bias[..., None].float()
    if softplus:
        dt = F.softplus(dt)
    Bf, Cf = B.float(), C.float()
    if Bf.dim() == 4:  # [batch, groups, N, L]: each group serves dim / groups channels
        rep = u.shape[1] // Bf.shape[1]
        Bf = Bf.repeat_interleave(rep, dim=1)
        Cf = Cf.repeat_interleave(rep, dim=1)
        dBu = torch.einsum("bdl,bdnl,bdl->bdln", dt, Bf, u.float())
    else:
        dBu = torch.einsum("bdl,bnl,bdl->bdln", dt, Bf, u.float())
    dA = torch.exp(torch.einsum("bdl,dn->bdln", dt, A.float()))
    h = torch.zeros(u.shape[0], u.shape[1], A.shape[1], device=u.device)
    ys = []
    for i in range(u.shape[2]):
        h = dA[:, :, i] * h + dBu[:, :, i]
        c = Cf[:, :, :, i] if Cf.dim() == 4 else Cf[:, None, :, i]
        ys.append((h * c).sum(-1))
    y = torch.stack(ys, dim=2)
    if D is not None:
        y = y + u.float() * D[:, None].float()
    if z is not None:
        y = y * F.silu(z.float())
    return y.to(u.dtype)


def _linear_scan(a, b, dim):
    """h_t = a_t * h_{t-1} + b_t along `dim` (a loop; torch.compile's associative_scan is
    the fused form)."""
    a, b = a.movedim(dim, 0), b.movedim(dim, 0)
    h = torch.empty_like(b)
    h[0] = b[0]
    for t in range(1, b.shape[0]):
        h[t] = a[t] * h[t - 1] + b[t]
    return h.movedim(0, dim)


def _dequant(w, scales, zeros, bits, group, k):
    """Packed integer weights [K / p, N] (p per element of w's dtype, low bits first along K)
    to scales' dtype, [K, N]: (q - zero) * scale per group of rows (zero 2^(bits-1) when
    none is given)."""
    if bits == 8:
        q = w.to(torch.int32)
    else:
        if w.dtype == torch.int32:
            w = w.contiguous().view(torch.uint8).reshape(w.shape[0], w.shape[1], 4)
            w = w.permute(0, 2, 1).reshape(-1, w.shape[1])
        w = w.view(torch.uint8).to(torch.int32)
        q = torch.stack([w & 15, w >> 4], dim=1).reshape(-1, w.shape[-1])
    q = q[:k]
    s = scales.repeat_interleave(group, dim=0)[:k]
    zp = zeros.repeat_interleave(group, dim=0)[:k] if zeros is not None else 2 ** (bits - 1)
    return ((q - zp) * s).to(scales.dtype)


def _collective(kind, x, size, axis, shape, dtype):
    """A collective over `size` GPUs: torch.distributed's call when a process group is up
    (this process one rank of it), else a stand-in of the output's shape (no communication)."""
    import torch.distributed as dist
    if dist.is_available() and dist.is_initialized():
        if kind == "all_reduce":
            y = x.clone()
            dist.all_reduce(y)
            return y
        if kind == "all_gather":
            parts = [torch.empty_like(x) for _ in range(dist.get_world_size())]
            dist.all_gather(parts, x.contiguous())
            return torch.cat(parts, dim=axis)
        if kind == "reduce_scatter":
            parts = list(x.contiguous().chunk(dist.get_world_size(), dim=axis))
            y = torch.empty_like(parts[0])
            dist.reduce_scatter(y, [p.contiguous() for p in parts])
            return y
        if kind == "all_to_all":
            y = torch.empty_like(x)
            dist.all_to_all_single(y, x.contiguous())
            return y
        if kind == "broadcast":
            y = x.clone()
            dist.broadcast(y, src=0)
            return y
    if kind == "all_gather":
        return torch.cat([x] * size, dim=axis)
    if kind == "reduce_scatter":
        return x.chunk(size, dim=axis)[0].contiguous()
    if kind == "recv" or x is None:
        device = x.device if x is not None else "cpu"
        return torch.zeros(shape, dtype=dtype, device=device)
    return x.clone()


def make_inputs(device="cpu", seed=1):
    """Random inputs of the declared shapes and dtypes, in forward()'s order."""
    gen = torch.Generator(device=device).manual_seed(seed)
    return [
        _random(s["shape"], s["dtype"], device, gen, std=s.get("std", 1.0),
                high=s.get("high", 2), channels_last=s.get("channels_last", False),
                positive=s.get("positive", False))
        for s in INPUTS
    ]
"#;

/// `main`: build, run once, print the outputs' shapes.
pub(super) const MAIN: &str = r#"

def main():
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = Graph(device=device)
    inputs = make_inputs(device)
    with torch.inference_mode():
        outputs = model(*inputs)
    if not isinstance(outputs, tuple):
        outputs = (outputs,)
    ok = True
    for spec, out in zip(OUTPUTS, outputs):
        shape = tuple(out.shape)
        same = shape == spec["shape"] and out.dtype == spec["dtype"]
        ok = ok and same
        print(f"{spec['fgraph']}: {list(shape)} {out.dtype}" + ("" if same else "  (declared: "
              f"{list(spec['shape'])} {spec['dtype']})"))
    raise SystemExit(0 if ok else 1)


if __name__ == "__main__":
    main()
"#;
