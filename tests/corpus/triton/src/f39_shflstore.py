"""Warp shuffles / REDUX of a scan or reduction feeding a guarded store or atomic (helper tshfl39, stop 39)."""
import triton
import triton.language as tl


@triton.jit
def block_sum_store_kernel(x_ptr, part_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(part_ptr + pid, tl.sum(x, axis=0))


@triton.jit
def block_max_atomic_i32_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=-2147483647)
    tl.atomic_max(out_ptr, tl.max(x, axis=0))


@triton.jit
def count_above_atomic_kernel(x_ptr, cnt_ptr, n, thr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.atomic_add(cnt_ptr, tl.sum((x > thr).to(tl.int32), axis=0))


@triton.jit
def row_cumsum_kernel(x_ptr, y_ptr, n_rows, n_cols, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    r = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)
    c = tl.arange(0, BLOCK_C)
    ok = (r[:, None] < n_rows) & (c[None, :] < n_cols)
    p = r[:, None] * n_cols + c[None, :]
    v = tl.load(x_ptr + p, mask=ok, other=0.0).to(tl.float32)
    tl.store(y_ptr + p, tl.cumsum(v, axis=1).to(y_ptr.dtype.element_ty), mask=ok)


@triton.jit
def row_sum_store_kernel(x_ptr, s_ptr, n_rows, n_cols, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    r = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)
    c = tl.arange(0, BLOCK_C)
    ok = (r[:, None] < n_rows) & (c[None, :] < n_cols)
    v = tl.load(x_ptr + r[:, None] * n_cols + c[None, :], mask=ok, other=0.0).to(tl.float32)
    tl.store(s_ptr + r, tl.sum(v, axis=1), mask=r < n_rows)


@triton.jit
def cumsum_total_kernel(x_ptr, y_ptr, tot_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0)
    s = tl.cumsum(x, axis=0)
    tl.store(y_ptr + offs, s, mask=m)
    tl.atomic_add(tot_ptr, tl.sum(x, axis=0))


@triton.jit
def block_absmax_atomic_f32_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.atomic_max(out_ptr, tl.max(tl.abs(x), axis=0))
