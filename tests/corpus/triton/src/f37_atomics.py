"""Fresh Triton programs (helper tconv37, stop 37): tensor atomics after reductions and loads (embedding and
layer-norm backward scatter-adds, masked min/max with results kept, split-K partial sums, histogram counts)."""
import triton
import triton.language as tl


@triton.jit
def emb_bwd_rows_kernel(grad_ptr, idx_ptr, gw_ptr, n_tok, dim, BLOCK_D: tl.constexpr):
    # one token per program: scatter its gradient row into the table row given by its index
    t = tl.program_id(0)
    row = tl.load(idx_ptr + t)
    ds = tl.arange(0, BLOCK_D)
    m = ds < dim
    g = tl.load(grad_ptr + t * dim + ds, mask=m, other=0.0)
    tl.atomic_add(gw_ptr + row * dim + ds, g, mask=m)


@triton.jit
def emb_bwd_scaled_kernel(grad_ptr, idx_ptr, scale_ptr, gw_ptr, n_tok, dim, BLOCK_T: tl.constexpr,
                          BLOCK_D: tl.constexpr):
    # a 2-D tile of tokens, each gradient scaled by a per-token weight; padding index 0 skipped
    pid = tl.program_id(0)
    toks = pid * BLOCK_T + tl.arange(0, BLOCK_T)
    ds = tl.arange(0, BLOCK_D)
    tm = toks < n_tok
    idx = tl.load(idx_ptr + toks, mask=tm, other=0)
    s = tl.load(scale_ptr + toks, mask=tm, other=0.0)
    m = (tm & (idx != 0))[:, None] & (ds < dim)[None, :]
    g = tl.load(grad_ptr + toks[:, None] * dim + ds[None, :], mask=m, other=0.0)
    tl.atomic_add(gw_ptr + idx[:, None] * dim + ds[None, :], g * s[:, None], mask=m, sem="relaxed")


@triton.jit
def layernorm_bwd_dwdb_kernel(dy_ptr, x_ptr, mean_ptr, rstd_ptr, dw_ptr, db_ptr, n_cols, stride,
                              BLOCK: tl.constexpr):
    # per row: dw += dy * xhat, db += dy, both with atomics
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=m, other=0.0).to(tl.float32)
    dy = tl.load(dy_ptr + row * stride + cols, mask=m, other=0.0).to(tl.float32)
    mu = tl.load(mean_ptr + row)
    rs = tl.load(rstd_ptr + row)
    xhat = (x - mu) * rs
    tl.atomic_add(dw_ptr + cols, dy * xhat, mask=m)
    tl.atomic_add(db_ptr + cols, dy, mask=m)


@triton.jit
def rmsnorm_bwd_dw_kernel(dy_ptr, x_ptr, w_ptr, dx_ptr, dw_ptr, n_cols, stride, eps, BLOCK: tl.constexpr):
    # one row: recompute rstd, the dx reduction, dw by atomics after the row store
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=m, other=0.0).to(tl.float32)
    dy = tl.load(dy_ptr + row * stride + cols, mask=m, other=0.0).to(tl.float32)
    w = tl.load(w_ptr + cols, mask=m, other=0.0).to(tl.float32)
    rstd = tl.rsqrt(tl.sum(x * x, axis=0) / n_cols + eps)
    xh = x * rstd
    c = tl.sum(xh * w * dy, axis=0) / n_cols
    tl.store(dx_ptr + row * stride + cols, ((w * dy - xh * c) * rstd).to(dx_ptr.dtype.element_ty), mask=m)
    tl.atomic_add(dw_ptr + cols, dy * xh, mask=m, sem="relaxed", scope="gpu")


@triton.jit
def masked_max_keep_kernel(x_ptr, best_ptr, old_ptr, n, BLOCK: tl.constexpr):
    # per-element max into a table; the old values are written out
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0)
    old = tl.atomic_max(best_ptr + (offs % 64), x, mask=m, sem="acq_rel")
    tl.store(old_ptr + offs, old, mask=m)


@triton.jit
def histogram_kernel(x_ptr, hist_ptr, n, n_bins, BLOCK: tl.constexpr):
    # integer histogram: masked atomic increments at data-dependent bins
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0)
    b = x % n_bins
    tl.atomic_add(hist_ptr + b, 1, mask=m & (b >= 0))


@triton.jit
def splitk_partial_add_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                              BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                              SPLIT_K: tl.constexpr):
    # split-K matmul: each program sums a K slice and adds its tile into C with atomics
    pid = tl.program_id(0)
    pk = tl.program_id(1)
    nb = tl.cdiv(N, BLOCK_N)
    pm = pid // nb
    pn = pid % nb
    rm = pm * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pn * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = pk * BLOCK_K + tl.arange(0, BLOCK_K)
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K * SPLIT_K)):
        kk = k * BLOCK_K * SPLIT_K + rk
        a = tl.load(a_ptr + rm[:, None] * stride_am + kk[None, :], mask=(rm[:, None] < M) & (kk[None, :] < K),
                    other=0.0)
        b = tl.load(b_ptr + kk[:, None] * stride_bk + rn[None, :], mask=(kk[:, None] < K) & (rn[None, :] < N),
                    other=0.0)
        acc += tl.dot(a, b)
    tl.atomic_add(c_ptr + rm[:, None] * stride_cm + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def row_minmax_atomic_kernel(x_ptr, mn_ptr, mx_ptr, n_cols, stride, BLOCK: tl.constexpr):
    # per column min and max over rows with two atomics of different kinds
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=m, other=0.0)
    tl.atomic_min(mn_ptr + cols, x, mask=m, sem="relaxed", scope="cta")
    tl.atomic_max(mx_ptr + cols, x, mask=m, sem="release", scope="gpu")
