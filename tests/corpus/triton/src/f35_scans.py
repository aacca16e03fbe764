"""Fresh scan / cumsum / cumprod / compaction / sort Triton programs (helper tscan35, stop 35), written the way
people write them: row cumsums with masks, reverse scans, a two-channel EMA scan, cumprod, per-block
compaction with an atomic base, a gathered cumsum, row sort/argsort, a cumsum in a loop over column tiles."""
import triton
import triton.language as tl


@triton.jit
def _ema_combine(a1, b1, a2, b2):
    return a1 * a2, b1 * a2 + b2


@triton.jit
def _max_combine(a, b):
    return tl.maximum(a, b)


@triton.jit
def row_cumsum_kernel(x_ptr, y_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    y = tl.cumsum(x, 0)
    tl.store(y_ptr + row * stride + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def row_cumsum_reverse_kernel(x_ptr, y_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    y = tl.cumsum(x, 0, reverse=True)
    tl.store(y_ptr + row * stride + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def row_cumprod_kernel(x_ptr, y_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=1.0).to(tl.float32)
    y = tl.cumprod(x, 0)
    tl.store(y_ptr + row * stride + cols, y, mask=mask)


@triton.jit
def running_max_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=float("-inf"))
    y = tl.associative_scan(x, 0, _max_combine)
    tl.store(y_ptr + offs, y, mask=mask)


@triton.jit
def ema_decay_kernel(x_ptr, decay_ptr, y_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    d = tl.load(decay_ptr + row * stride + cols, mask=mask, other=1.0).to(tl.float32)
    _, h = tl.associative_scan((d, (1.0 - d) * x), 0, _ema_combine)
    tl.store(y_ptr + row * stride + cols, h.to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def compact_positive_kernel(x_ptr, out_ptr, idx_ptr, count_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    keep = (x > 0) & mask
    k = keep.to(tl.int32)
    incl = tl.cumsum(k, 0)
    total = tl.sum(k, 0)
    base = tl.atomic_add(count_ptr, total)
    dst = base + incl - 1
    tl.store(out_ptr + dst, x, mask=keep)
    tl.store(idx_ptr + dst, offs, mask=keep)


@triton.jit
def gather_prefix_kernel(src_ptr, idx_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    idx = tl.load(idx_ptr + offs, mask=mask, other=0)
    v = tl.load(src_ptr + idx, mask=mask, other=0.0).to(tl.float32)
    tl.store(out_ptr + offs, tl.cumsum(v, 0), mask=mask)


@triton.jit
def tiled_row_cumsum_kernel(x_ptr, y_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    carry = 0.0
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
        y = tl.cumsum(x, 0) + carry
        tl.store(y_ptr + row * stride + cols, y, mask=mask)
        carry += tl.sum(x, 0)


@triton.jit
def row_sort_kernel(x_ptr, y_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=float("inf"))
    y = tl.sort(x, 0)
    tl.store(y_ptr + row * stride + cols, y, mask=mask)


@triton.jit
def row_argsort_kernel(x_ptr, idx_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=-1)
    key = (x.to(tl.int64) << 32) | cols.to(tl.int64)
    s = tl.sort(key, 0, descending=True)
    tl.store(idx_ptr + row * stride + cols, (s & 0xFFFFFFFF).to(tl.int32), mask=mask)


@triton.jit
def cumsum_normalize_kernel(x_ptr, y_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    c = tl.cumsum(x, 0)
    total = tl.sum(x, 0)
    tl.store(y_ptr + row * stride + cols, c / total, mask=mask)


@triton.jit
def int_cumsum_2d_kernel(x_ptr, y_ptr, n_rows, n_cols, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_R + tl.arange(0, BLOCK_R)[:, None]
    cols = tl.arange(0, BLOCK_C)[None, :]
    mask = (rows < n_rows) & (cols < n_cols)
    x = tl.load(x_ptr + rows * n_cols + cols, mask=mask, other=0)
    y = tl.cumsum(x, 1)
    tl.store(y_ptr + rows * n_cols + cols, y, mask=mask)
