"""Check kernels (helper tslot39, stop 39; written after the rule, another style): a 2-D tile of rows per program
with the target logit gathered by an index compare after the log-sum-exp (focal-style NLL), label-smoothed
cross-entropy over a looped row with an ignore index, and a log-softmax KL term against a one-hot row built by
`tl.where(cols == t, ...)`; num_warps 2/8, 2-D reductions along axis 1."""
import triton
import triton.language as tl


@triton.jit
def check_tile_nll_kernel(x_ptr, t_ptr, out_ptr, n_rows, n_cols, BM: tl.constexpr, BN: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BM + tl.arange(0, BM)
    cols = tl.arange(0, BN)
    rmask = rows < n_rows
    mask = rmask[:, None] & (cols[None, :] < n_cols)
    x = tl.load(x_ptr + rows[:, None] * n_cols + cols[None, :], mask=mask, other=-float("inf")).to(tl.float32)
    t = tl.load(t_ptr + rows, mask=rmask, other=0)
    m = tl.max(x, axis=1)
    lse = tl.log(tl.sum(tl.exp(x - m[:, None]), axis=1)) + m
    xt = tl.sum(tl.where(cols[None, :] == t[:, None], x, 0.0), axis=1)
    tl.store(out_ptr + rows, lse - xt, mask=rmask)


@triton.jit
def check_smooth_ce_kernel(x_ptr, t_ptr, out_ptr, n_cols, eps, ignore_index, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = x_ptr + row.to(tl.int64) * n_cols
    t = tl.load(t_ptr + row)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(base + cols, mask=mask, other=-float("inf")).to(tl.float32)
    m = tl.max(x, 0)
    z = tl.sum(tl.where(mask, tl.exp(x - m), 0.0), 0)
    lse = m + tl.log(z)
    xt = tl.sum(tl.where(cols == t, x, 0.0), 0)
    xs = tl.sum(tl.where(mask, x, 0.0), 0)
    loss = (1.0 - eps) * (lse - xt) + eps * (lse - xs / n_cols)
    loss = tl.where(t == ignore_index, 0.0, loss)
    tl.store(out_ptr + row, loss)


@triton.jit
def check_onehot_kl_kernel(x_ptr, t_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0).to(tl.float32)
    t = tl.load(t_ptr + row)
    xm = tl.where(mask, x, -float("inf"))
    m = tl.max(xm, 0)
    logz = tl.log(tl.sum(tl.exp(xm - m), 0)) + m
    onehot = tl.where(cols == t, 1.0, 0.0)
    kl = tl.sum(onehot * (logz - x), 0)
    tl.store(out_ptr + row, kl)
