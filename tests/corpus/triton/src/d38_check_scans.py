"""Check kernels for the crowded-chains BSSY rule (helper tshfl38, stop 38), written after the rule in another
style: 64-bit strided rows and a cummin, a reverse scan, a loop over row tiles, a tuple scan, wider tiles."""
import triton
import triton.language as tl


@triton.jit
def _add_pair(a1, b1, a2, b2):
    return a1 + a2, b1 + b2


@triton.jit
def _min_fn(a, b):
    return tl.minimum(a, b)


@triton.jit
def check_strided_cummin_kernel(x_ptr, y_ptr, M, N, stride_xm, stride_ym, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0).to(tl.int64) * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    ok = (rm < M)[:, None] & (rn < N)[None, :]
    v = tl.load(x_ptr + rm[:, None] * stride_xm + rn[None, :], mask=ok, other=float("inf")).to(tl.float32)
    tl.store(y_ptr + rm[:, None] * stride_ym + rn[None, :], tl.associative_scan(v, 1, _min_fn), mask=ok)


@triton.jit
def check_reverse_cumsum_kernel(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    offs_m = tl.program_id(0) * BM + tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    ptrs = offs_m[:, None] * N + offs_n[None, :]
    ok = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    v = tl.load(x_ptr + ptrs, mask=ok, other=0)
    tl.store(y_ptr + ptrs, tl.cumsum(v, axis=1, reverse=True), mask=ok)


@triton.jit
def check_tiled_rows_cumsum_kernel(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    start = tl.program_id(0) * BM * 2
    for t in range(2):
        offs_m = start + t * BM + tl.arange(0, BM)
        offs_n = tl.arange(0, BN)
        ok = (offs_m[:, None] < M) & (offs_n[None, :] < N)
        v = tl.load(x_ptr + offs_m[:, None] * N + offs_n[None, :], mask=ok, other=0.0)
        tl.store(y_ptr + offs_m[:, None] * N + offs_n[None, :], tl.cumsum(v, axis=1), mask=ok)


@triton.jit
def check_pair_scan_kernel(a_ptr, b_ptr, out_a_ptr, out_b_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    offs_m = tl.program_id(0) * BM + tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    ok = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    p = offs_m[:, None] * N + offs_n[None, :]
    a = tl.load(a_ptr + p, mask=ok, other=0)
    b = tl.load(b_ptr + p, mask=ok, other=0)
    sa, sb = tl.associative_scan((a, b), 1, _add_pair)
    tl.store(out_a_ptr + p, sa, mask=ok)
    tl.store(out_b_ptr + p, sb, mask=ok)
