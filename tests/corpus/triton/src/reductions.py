"""Reductions, scans, sorting and histograms: tl.sum / tl.max / tl.argmax, tl.cumsum / tl.cumprod,
tl.associative_scan (custom combine functions, tuples, reverse), tl.sort / tl.topk, tl.histogram and an
atomic-add histogram."""
import triton
import triton.language as tl


@triton.jit
def row_stats_kernel(x_ptr, sum_ptr, max_ptr, min_ptr, n_cols, stride, BLOCK: tl.constexpr):
    # several reductions of one row: sum, max, min, and the sum of squares through tl.reduce
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    tl.store(sum_ptr + row, tl.sum(x, axis=0))
    tl.store(max_ptr + row, tl.max(tl.where(mask, x, -float("inf")), axis=0))
    tl.store(min_ptr + row, tl.min(tl.where(mask, x, float("inf")), axis=0))


@triton.jit
def col_sum_2d_kernel(x_ptr, out_ptr, M, N, stride_m, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # reduction along axis 0 of a 2-D tile, accumulated over a loop (cross-warp reduction through shared memory)
    pid = tl.program_id(0)
    cols = pid * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for start in range(0, M, BLOCK_M):
        rows = start + tl.arange(0, BLOCK_M)
        m = (rows[:, None] < M) & (cols[None, :] < N)
        acc += tl.load(x_ptr + rows[:, None] * stride_m + cols[None, :], mask=m, other=0.0)
    tl.store(out_ptr + cols, tl.sum(acc, axis=0), mask=cols < N)


@triton.jit
def argmax_kernel(x_ptr, idx_ptr, val_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * stride + cols, mask=cols < n_cols, other=-float("inf"))
    v, i = tl.max(x, axis=0, return_indices=True)
    tl.store(val_ptr + row, v)
    tl.store(idx_ptr + row, i)
    tl.store(idx_ptr + tl.num_programs(0) + row, tl.argmin(x, axis=0))


@triton.jit
def cumsum_kernel(x_ptr, out_ptr, n_cols, stride, BLOCK: tl.constexpr, REVERSE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0)
    y = tl.cumsum(x, axis=0, reverse=REVERSE)
    tl.store(out_ptr + row * stride + cols, y, mask=mask)


@triton.jit
def cumsum_carry_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # a long inclusive scan by one program: block scans with a running carry
    carry = tl.zeros([1], dtype=tl.float32)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < n
        x = tl.load(x_ptr + offs, mask=mask, other=0.0)
        s = tl.cumsum(x, axis=0) + carry
        tl.store(out_ptr + offs, s, mask=mask)
        carry = tl.sum(x, axis=0, keep_dims=True) + carry


@triton.jit
def cumprod_2d_kernel(x_ptr, out_ptr, stride, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    x = tl.load(x_ptr + rows[:, None] * stride + cols[None, :])
    tl.store(out_ptr + rows[:, None] * stride + cols[None, :], tl.cumprod(x, axis=1))


@triton.jit
def _linear_recurrence_combine(a1, b1, a2, b2):
    # h_t = a_t * h_{t-1} + b_t composed as affine maps
    return a1 * a2, b1 * a2 + b2


@triton.jit
def linear_scan_kernel(a_ptr, b_ptr, h_ptr, seq_len, stride, BLOCK: tl.constexpr, REVERSE: tl.constexpr):
    # an RNN/SSM-style first-order recurrence with a tuple associative scan
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < seq_len
    a = tl.load(a_ptr + row * stride + offs, mask=mask, other=1.0).to(tl.float32)
    b = tl.load(b_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    _, h = tl.associative_scan((a, b), axis=0, combine_fn=_linear_recurrence_combine, reverse=REVERSE)
    tl.store(h_ptr + row * stride + offs, h, mask=mask)


@triton.jit
def _max_with_index(v1, i1, v2, i2):
    keep = (v1 > v2) | ((v1 == v2) & (i1 < i2))
    return tl.where(keep, v1, v2), tl.where(keep, i1, i2)


@triton.jit
def running_argmax_kernel(x_ptr, v_ptr, i_ptr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # scan along axis 1 of a 2-D tile with a (value, index) combine function
    rows = tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    offs = rows[:, None] * BLOCK_N + cols[None, :]
    x = tl.load(x_ptr + offs)
    idx = tl.broadcast_to(cols[None, :], (BLOCK_M, BLOCK_N))
    v, i = tl.associative_scan((x, idx), axis=1, combine_fn=_max_with_index)
    tl.store(v_ptr + offs, v)
    tl.store(i_ptr + offs, i)


@triton.jit
def sort_kernel(x_ptr, out_ptr, stride, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, DESCENDING: tl.constexpr):
    # bitonic sort of every row of a tile
    pid = tl.program_id(0)
    rows = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    x = tl.load(x_ptr + rows[:, None] * stride + cols[None, :])
    y = tl.sort(x, dim=1, descending=DESCENDING)
    tl.store(out_ptr + rows[:, None] * stride + cols[None, :], y)


@triton.jit
def topk_kernel(x_ptr, out_ptr, stride, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, K: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    x = tl.load(x_ptr + rows[:, None] * stride + cols[None, :])
    y = tl.topk(x, K, dim=1)
    tl.store(out_ptr + rows[:, None] * K + tl.arange(0, K)[None, :], y)


@triton.jit
def histogram_kernel(x_ptr, hist_ptr, n, NUM_BINS: tl.constexpr, BLOCK: tl.constexpr):
    # per-program histogram with tl.histogram, merged into the global one with atomic adds
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    h = tl.histogram(x, NUM_BINS, mask=mask)
    tl.atomic_add(hist_ptr + tl.arange(0, NUM_BINS), h, sem="relaxed")


@triton.jit
def atomic_histogram_kernel(x_ptr, hist_ptr, n, lo, hi, NUM_BINS: tl.constexpr, BLOCK: tl.constexpr):
    # classic scatter histogram of float data: one atomic add per element
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    b = ((x - lo) / (hi - lo) * NUM_BINS).to(tl.int32)
    b = tl.minimum(tl.maximum(b, 0), NUM_BINS - 1)
    tl.atomic_add(hist_ptr + b, 1, mask=mask)


@triton.jit
def xor_sum_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # integer reductions: xor-sum and or-reduce
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0)
    tl.store(out_ptr + tl.program_id(0) * 2, tl.xor_sum(x, axis=0))
    tl.store(out_ptr + tl.program_id(0) * 2 + 1, tl.reduce_or(x, axis=0))
