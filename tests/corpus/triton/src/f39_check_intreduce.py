"""Check kernels for the REDUX-first-stage BSSY rule (helper tshfl39, stop 39), written after the rule in another
style: custom tl.reduce combines on integers, a 2-D tile reduced with axis=None, a grid-stride while loop,
int16 inputs widened, a count of flags from two masks, a column cumsum along axis 0 and a reverse scan."""
import triton
import triton.language as tl


@triton.jit
def _imax_where(a, b):
    return tl.where(a > b, a, b)


@triton.jit
def _ior(a, b):
    return a | b


@triton.jit
def check_custom_imax_kernel(src, dst, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(src + i, mask=i < n, other=-1)
    best = tl.reduce(v, 0, _imax_where)
    tl.atomic_max(dst, best, sem="relaxed")


@triton.jit
def check_tile_or_kernel(src, dst, rows, cols, BR: tl.constexpr, BC: tl.constexpr):
    r = tl.program_id(0) * BR + tl.arange(0, BR)[:, None]
    c = tl.arange(0, BC)[None, :]
    bits = tl.load(src + r * cols + c, mask=(r < rows) & (c < cols), other=0)
    tl.atomic_or(dst + tl.program_id(0) % 8, tl.reduce(bits, None, _ior))


@triton.jit
def check_stride_min_kernel(src, dst, n, BLOCK: tl.constexpr):
    start = tl.program_id(0) * BLOCK
    step = tl.num_programs(0) * BLOCK
    lo = tl.full([BLOCK], 2147483647, tl.int32)
    while start < n:
        i = start + tl.arange(0, BLOCK)
        lo = tl.minimum(lo, tl.load(src + i, mask=i < n, other=2147483647))
        start += step
    tl.atomic_min(dst, tl.min(lo, axis=0))


@triton.jit
def check_i16_sum_kernel(src, dst, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(src + i, mask=i < n, other=0).to(tl.int32)
    tl.store(dst + tl.program_id(0), tl.sum(v, axis=0))


@triton.jit
def check_two_mask_count_kernel(a, b, cnt, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(a + i, mask=i < n, other=0.0)
    y = tl.load(b + i, mask=i < n, other=0.0)
    hit = (x > y) & (i % 2 == 0)
    tl.atomic_add(cnt, tl.sum(hit.to(tl.int32), axis=0), sem="release")


@triton.jit
def check_col_cumsum_kernel(x, y, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.arange(0, BM)[:, None]
    rn = tl.program_id(0) * BN + tl.arange(0, BN)[None, :]
    ok = (rm < M) & (rn < N)
    v = tl.load(x + rm * N + rn, mask=ok, other=0)
    tl.store(y + rm * N + rn, tl.cumsum(v, axis=0), mask=ok)


@triton.jit
def check_rev_scan_kernel(x, y, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x + i, mask=i < n, other=0)
    tl.store(y + i, tl.associative_scan(v, 0, _ior, reverse=True), mask=i < n)
