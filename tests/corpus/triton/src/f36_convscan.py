"""Fresh Triton scans and persistent reduce-then-atomic kernels (helper tscan36, stop 36), written as kernel authors
write them: 2-D cumsums along either axis, a 2-D running max, an exclusive row cumsum, a row cumsum whose total is
added atomically, a gathered 2-D cumsum, persistent tile max / sum with one atomic per tile, per-row tile stats and
an embedding-gradient scatter."""
import triton
import triton.language as tl


@triton.jit
def _max_combine(a, b):
    return tl.maximum(a, b)


@triton.jit
def cumsum_rows_2d_kernel(x_ptr, y_ptr, n_rows, n_cols, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_R + tl.arange(0, BLOCK_R)[:, None]
    cols = tl.arange(0, BLOCK_C)[None, :]
    mask = (rows < n_rows) & (cols < n_cols)
    x = tl.load(x_ptr + rows * n_cols + cols, mask=mask, other=0.0).to(tl.float32)
    y = tl.cumsum(x, 1)
    tl.store(y_ptr + rows * n_cols + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def cumsum_cols_2d_kernel(x_ptr, y_ptr, n_rows, n_cols, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    pid = tl.program_id(0)
    rows = tl.arange(0, BLOCK_R)[:, None]
    cols = pid * BLOCK_C + tl.arange(0, BLOCK_C)[None, :]
    mask = (rows < n_rows) & (cols < n_cols)
    x = tl.load(x_ptr + rows * n_cols + cols, mask=mask, other=0.0)
    y = tl.cumsum(x, 0)
    tl.store(y_ptr + rows * n_cols + cols, y, mask=mask)


@triton.jit
def cummax_2d_kernel(x_ptr, y_ptr, n_rows, n_cols, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_R + tl.arange(0, BLOCK_R)[:, None]
    cols = tl.arange(0, BLOCK_C)[None, :]
    mask = (rows < n_rows) & (cols < n_cols)
    x = tl.load(x_ptr + rows * n_cols + cols, mask=mask, other=float("-inf"))
    y = tl.associative_scan(x, 1, _max_combine)
    tl.store(y_ptr + rows * n_cols + cols, y, mask=mask)


@triton.jit
def exclusive_cumsum_kernel(x_ptr, y_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0)
    y = tl.cumsum(x, 0) - x
    tl.store(y_ptr + row * stride + cols, y, mask=mask)


@triton.jit
def cumsum_total_atomic_kernel(x_ptr, y_ptr, total_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    y = tl.cumsum(x, 0)
    tl.store(y_ptr + row * stride + cols, y, mask=mask)
    tl.atomic_add(total_ptr, tl.sum(x, 0))


@triton.jit
def gather_cumsum_2d_kernel(x_ptr, idx_ptr, y_ptr, n_rows, n_cols, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_R + tl.arange(0, BLOCK_R)[:, None]
    cols = tl.arange(0, BLOCK_C)[None, :]
    mask = (rows < n_rows) & (cols < n_cols)
    idx = tl.load(idx_ptr + rows * n_cols + cols, mask=mask, other=0)
    x = tl.load(x_ptr + rows * n_cols + idx, mask=mask, other=0.0)
    y = tl.cumsum(x, 1)
    tl.store(y_ptr + rows * n_cols + cols, y, mask=mask)


@triton.jit
def persist_tile_max_kernel(x_ptr, out_ptr, n_elem, n_tiles, NUM_SMS: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    for tile in range(pid, n_tiles, NUM_SMS):
        offs = tile * BLOCK + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n_elem, other=float("-inf"))
        tl.atomic_max(out_ptr + tile % 16, tl.max(x, 0))


@triton.jit
def persist_tile_sum_kernel(x_ptr, out_ptr, n_elem, n_tiles, NUM_SMS: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    acc = 0.0
    for tile in range(pid, n_tiles, NUM_SMS):
        offs = tile * BLOCK + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n_elem, other=0.0).to(tl.float32)
        s = tl.sum(x * x, 0)
        acc += s
        tl.atomic_add(out_ptr + tile, s)
    tl.store(out_ptr + n_tiles + pid, acc)


@triton.jit
def tile_row_stats_kernel(x_ptr, mean_ptr, max_ptr, n_rows, n_cols, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_R + tl.arange(0, BLOCK_R)
    cols = tl.arange(0, BLOCK_C)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    x = tl.load(x_ptr + rows[:, None] * n_cols + cols[None, :], mask=mask, other=0.0).to(tl.float32)
    tl.store(mean_ptr + rows, tl.sum(x, 1) / n_cols, mask=rows < n_rows)
    tl.store(max_ptr + rows, tl.max(tl.where(mask, x, float("-inf")), 1), mask=rows < n_rows)


@triton.jit
def embedding_grad_kernel(idx_ptr, grad_ptr, out_ptr, n_tok, dim, BLOCK_D: tl.constexpr):
    tok = tl.program_id(0)
    d = tl.arange(0, BLOCK_D)
    row = tl.load(idx_ptr + tok)
    g = tl.load(grad_ptr + tok * dim + d, mask=d < dim, other=0.0)
    tl.atomic_add(out_ptr + row * dim + d, g, mask=d < dim)
