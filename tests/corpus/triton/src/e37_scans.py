"""Fresh Triton scans (helper tscan37, stop 37), written as kernel authors write them: an EMA by a linear-recurrence
associative scan, a reverse cumsum, a cumprod of decays, a 2-D row cumsum with a following row total, a top-p mask
from a sorted-probability cumsum, a stream compaction by a cumsum of flags and an int64 cumsum of counts."""
import triton
import triton.language as tl


@triton.jit
def _lin_combine(a1, b1, a2, b2):
    return a1 * a2, b1 * a2 + b2


@triton.jit
def ema_scan_kernel(x_ptr, y_ptr, n, alpha, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    a = tl.where(mask, 1.0 - alpha, 1.0)
    b = alpha * x
    _, y = tl.associative_scan((a, b), 0, _lin_combine)
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def reverse_cumsum_kernel(x_ptr, y_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0)
    y = tl.cumsum(x, 0, reverse=True)
    tl.store(y_ptr + row * stride + cols, y, mask=mask)


@triton.jit
def decay_cumprod_kernel(g_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    g = tl.load(g_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    d = tl.exp(-tl.abs(g))
    p = tl.cumprod(d, 0)
    tl.store(out_ptr + offs, p, mask=mask)


@triton.jit
def row_cumsum_total_kernel(x_ptr, y_ptr, tot_ptr, n_rows, n_cols, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_R + tl.arange(0, BLOCK_R)
    cols = tl.arange(0, BLOCK_C)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    x = tl.load(x_ptr + rows[:, None] * n_cols + cols[None, :], mask=mask, other=0.0)
    y = tl.cumsum(x, 1)
    tl.store(y_ptr + rows[:, None] * n_cols + cols[None, :], y, mask=mask)
    tl.store(tot_ptr + rows, tl.sum(x, 1), mask=rows < n_rows)


@triton.jit
def top_p_mask_kernel(p_ptr, out_ptr, n_vocab, stride, top_p, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_vocab
    p = tl.load(p_ptr + row * stride + cols, mask=mask, other=0.0)
    c = tl.cumsum(p, 0)
    keep = (c - p) < top_p
    tl.store(out_ptr + row * stride + cols, tl.where(keep, p, 0.0), mask=mask)


@triton.jit
def compact_flags_kernel(x_ptr, out_ptr, cnt_ptr, n, thresh, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    flag = ((x > thresh) & mask).to(tl.int32)
    pos = tl.cumsum(flag, 0) - flag
    total = tl.sum(flag, 0)
    base = tl.atomic_add(cnt_ptr, total)
    tl.store(out_ptr + base + pos, x, mask=flag != 0)


@triton.jit
def count_offsets_i64_kernel(cnt_ptr, off_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    c = tl.load(cnt_ptr + offs, mask=mask, other=0).to(tl.int64)
    o = tl.cumsum(c, 0)
    tl.store(off_ptr + offs, o, mask=mask)
