"""Fresh 2-D scan / row-reduction Triton programs (helper tshfl38, stop 38): tiles of rows scanned along the
columns (cumsum, cummax, cumprod) with masked loads and stores, written the way people write them; a row argmax
and a row sum beside masked stores."""
import triton
import triton.language as tl


@triton.jit
def _max_combine(a, b):
    return tl.maximum(a, b)


@triton.jit
def tile_cumsum_f32_kernel(x_ptr, y_ptr, n_rows, n_cols, stride, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_R + tl.arange(0, BLOCK_R)
    cols = tl.arange(0, BLOCK_C)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    offs = rows[:, None] * stride + cols[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(y_ptr + offs, tl.cumsum(x, axis=1), mask=mask)


@triton.jit
def tile_cummax_i32_kernel(x_ptr, y_ptr, n_rows, n_cols, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_R + tl.arange(0, BLOCK_R)[:, None]
    cols = tl.arange(0, BLOCK_C)[None, :]
    mask = (rows < n_rows) & (cols < n_cols)
    x = tl.load(x_ptr + rows * n_cols + cols, mask=mask, other=-2147483648)
    y = tl.associative_scan(x, 1, _max_combine)
    tl.store(y_ptr + rows * n_cols + cols, y, mask=mask)


@triton.jit
def tile_cumprod_kernel(x_ptr, y_ptr, n_rows, n_cols, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_R + tl.arange(0, BLOCK_R)[:, None]
    cols = tl.arange(0, BLOCK_C)[None, :]
    mask = (rows < n_rows) & (cols < n_cols)
    x = tl.load(x_ptr + rows * n_cols + cols, mask=mask, other=1.0).to(tl.float32)
    y = tl.cumprod(x, 1)
    tl.store(y_ptr + rows * n_cols + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def tile_cumsum_scaled_kernel(x_ptr, s_ptr, y_ptr, n_rows, n_cols, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_R + tl.arange(0, BLOCK_R)
    cols = tl.arange(0, BLOCK_C)
    rmask = rows < n_rows
    mask = rmask[:, None] & (cols[None, :] < n_cols)
    x = tl.load(x_ptr + rows[:, None] * n_cols + cols[None, :], mask=mask, other=0.0).to(tl.float32)
    s = tl.load(s_ptr + rows, mask=rmask, other=1.0)
    y = tl.cumsum(x, 1) * s[:, None]
    tl.store(y_ptr + rows[:, None] * n_cols + cols[None, :], y, mask=mask)


@triton.jit
def tile_row_argmax_kernel(x_ptr, idx_ptr, n_rows, n_cols, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_R + tl.arange(0, BLOCK_R)
    cols = tl.arange(0, BLOCK_C)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    x = tl.load(x_ptr + rows[:, None] * n_cols + cols[None, :], mask=mask, other=float("-inf"))
    tl.store(idx_ptr + rows, tl.argmax(x, axis=1), mask=rows < n_rows)


@triton.jit
def tile_row_sum_kernel(x_ptr, out_ptr, n_rows, n_cols, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_R + tl.arange(0, BLOCK_R)
    cols = tl.arange(0, BLOCK_C)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    x = tl.load(x_ptr + rows[:, None] * n_cols + cols[None, :], mask=mask, other=0)
    tl.store(out_ptr + rows, tl.sum(x, axis=1), mask=rows < n_rows)
