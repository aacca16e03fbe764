"""Check kernels of helper tslot37 (stop 37), written after the variation table: softmax backward (sum of dy*y),
a row mean and L2 norm together, and a masked row min/max scaling; num_warps 2..8."""
import triton
import triton.language as tl


@triton.jit
def softmax_bwd_kernel(y_ptr, dy_ptr, dx_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    y = tl.load(y_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    dy = tl.load(dy_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    dot = tl.sum(y * dy, axis=0)
    tl.store(dx_ptr + row * stride + offs, (y * (dy - dot)).to(dx_ptr.dtype.element_ty), mask=mask)


@triton.jit
def row_mean_l2_kernel(x_ptr, mean_ptr, norm_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(mean_ptr + row, tl.sum(x, axis=0) / n_cols)
    tl.store(norm_ptr + row, tl.sqrt(tl.sum(x * x, axis=0)))


@triton.jit
def minmax_scale_kernel(x_ptr, y_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    lo = tl.min(tl.where(mask, x, float("inf")), axis=0)
    hi = tl.max(tl.where(mask, x, float("-inf")), axis=0)
    y = (x - lo) / (hi - lo + 1e-6)
    tl.store(y_ptr + row * stride + offs, y.to(y_ptr.dtype.element_ty), mask=mask)
