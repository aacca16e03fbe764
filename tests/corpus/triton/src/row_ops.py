"""Row and block operations beyond the tutorials: Welford statistics through tl.reduce with a tuple combine, a
looped log-sum-exp, L2 normalisation, softmax backward, column max and axis-0 cumsum of 2-D tiles, a max scan by
tl.associative_scan, stream compaction (block sum, one atomic_add, cumsum), block max/min atomics, a masked
scatter-add, a descending row sort and a GEMM with a bias epilogue."""
import triton
import triton.language as tl


@triton.jit
def _welford_combine(m1, v1, n1, m2, v2, n2):
    n = n1 + n2
    d = m2 - m1
    w = tl.where(n == 0, 0.0, n2 / tl.where(n == 0, 1.0, n))
    return m1 + d * w, v1 + v2 + d * d * n1 * w, n


@triton.jit
def welford_kernel(x_ptr, mean_ptr, var_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    cnt = tl.where(mask, 1.0, 0.0)
    m, v, n = tl.reduce((x, tl.zeros_like(x), cnt), 0, _welford_combine)
    tl.store(mean_ptr + row, m)
    tl.store(var_ptr + row, v / n)


@triton.jit
def logsumexp_kernel(x_ptr, out_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    m_run = -float("inf")
    s_run = 0.0
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * stride + cols, mask=cols < n_cols, other=-float("inf")).to(tl.float32)
        m_new = tl.maximum(m_run, tl.max(x, 0))
        s_run = s_run * tl.exp(m_run - m_new) + tl.sum(tl.exp(x - m_new), 0)
        m_run = m_new
    tl.store(out_ptr + row, m_run + tl.log(s_run))


@triton.jit
def l2_normalize_kernel(x_ptr, y_ptr, n_cols, stride, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    inv = 1.0 / tl.sqrt(tl.sum(x * x, 0) + eps)
    tl.store(y_ptr + row * stride + cols, (x * inv).to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def softmax_bwd_kernel(dx_ptr, dy_ptr, y_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    dy = tl.load(dy_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    y = tl.load(y_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    dot = tl.sum(dy * y, 0)
    tl.store(dx_ptr + row * stride + cols, y * (dy - dot), mask=mask)


@triton.jit
def col_max_kernel(x_ptr, out_ptr, M, N, stride, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    rows = tl.arange(0, BLOCK_M)
    cols = pid * BLOCK_N + tl.arange(0, BLOCK_N)
    m = (rows[:, None] < M) & (cols[None, :] < N)
    x = tl.load(x_ptr + rows[:, None] * stride + cols[None, :], mask=m, other=-float("inf"))
    tl.store(out_ptr + cols, tl.max(x, axis=0), mask=cols < N)


@triton.jit
def cumsum_axis0_kernel(x_ptr, out_ptr, M, N, stride, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    rows = tl.arange(0, BLOCK_M)
    cols = pid * BLOCK_N + tl.arange(0, BLOCK_N)
    m = (rows[:, None] < M) & (cols[None, :] < N)
    x = tl.load(x_ptr + rows[:, None] * stride + cols[None, :], mask=m, other=0.0)
    tl.store(out_ptr + rows[:, None] * stride + cols[None, :], tl.cumsum(x, axis=0), mask=m)


@triton.jit
def _max_combine(a, b):
    return tl.maximum(a, b)


@triton.jit
def running_max_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + tl.program_id(0) * BLOCK + offs, mask=offs < n, other=0)
    tl.store(out_ptr + tl.program_id(0) * BLOCK + offs, tl.associative_scan(x, 0, _max_combine), mask=offs < n)


@triton.jit
def compact_kernel(x_ptr, out_ptr, counter_ptr, n, thresh, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    keep = mask & (x > thresh)
    k = keep.to(tl.int32)
    total = tl.sum(k, 0)
    base = tl.atomic_add(counter_ptr, total)
    pos = base + tl.cumsum(k, 0) - k
    tl.store(out_ptr + pos, x, mask=keep)


@triton.jit
def block_max_atomic_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=-2147483647)
    tl.atomic_max(out_ptr, tl.max(x, 0))
    tl.atomic_min(out_ptr + 1, tl.min(tl.where(offs < n, x, 2147483647), 0), sem="relaxed", scope="gpu")


@triton.jit
def scatter_add_kernel(src_ptr, idx_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    i = tl.load(idx_ptr + offs, mask=mask, other=0)
    v = tl.load(src_ptr + offs, mask=mask, other=0.0)
    tl.atomic_add(out_ptr + i, v, mask=mask, sem="relaxed")


@triton.jit
def sort_rows_desc_kernel(x_ptr, out_ptr, stride, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    x = tl.load(x_ptr + rows[:, None] * stride + cols[None, :])
    tl.store(out_ptr + rows[:, None] * stride + cols[None, :], tl.sort(x, dim=1, descending=True))


@triton.jit
def gemm_bias_kernel(a_ptr, b_ptr, bias_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                     BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * stride_am + (k + rk)[None, :], mask=(k + rk)[None, :] < K, other=0.0)
        b = tl.load(b_ptr + (k + rk)[:, None] * stride_bk + rn[None, :], mask=(k + rk)[:, None] < K, other=0.0)
        acc += tl.dot(a, b)
    acc += tl.load(bias_ptr + rn, mask=rn < N, other=0.0)[None, :]
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :], acc.to(c_ptr.dtype.element_ty),
             mask=(rm[:, None] < M) & (rn[None, :] < N))
