"""Fresh Triton row/column reduction kernels (helper tslot36, stop 36): scaled softmax, RMS norm with a weight,
two-pass layer norm, row argmin, column sums of a 2-D tile, log-softmax, row L2 normalisation, absmax int8
quantisation, and a row sum + min; num_warps 2..8, so the block exchange of each reduction goes through shared memory
with a CTA barrier between shuffle chains."""
import triton
import triton.language as tl


@triton.jit
def scaled_softmax_kernel(x_ptr, y_ptr, n_cols, stride, scale, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=float("-inf")).to(tl.float32) * scale
    m = tl.max(x, axis=0)
    e = tl.exp(x - m)
    d = tl.sum(e, axis=0)
    tl.store(y_ptr + row * stride + offs, (e / d).to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def rms_norm_w_kernel(x_ptr, w_ptr, y_ptr, n_cols, stride, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(w_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    r = tl.rsqrt(tl.sum(x * x, axis=0) / n_cols + eps)
    tl.store(y_ptr + row * stride + offs, (x * r * w).to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def layer_norm_twopass_kernel(x_ptr, w_ptr, b_ptr, y_ptr, n_cols, stride, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / n_cols
    d = tl.where(mask, x - mean, 0.0)
    var = tl.sum(d * d, axis=0) / n_cols
    w = tl.load(w_ptr + offs, mask=mask, other=1.0).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    y = d * tl.rsqrt(var + eps) * w + b
    tl.store(y_ptr + row * stride + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def row_argmin_kernel(x_ptr, idx_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=float("inf")).to(tl.float32)
    tl.store(idx_ptr + row, tl.argmin(x, axis=0))


@triton.jit
def col_sum_kernel(x_ptr, y_ptr, n_rows, n_cols, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    pid = tl.program_id(0)
    rows = tl.arange(0, BLOCK_R)
    cols = pid * BLOCK_C + tl.arange(0, BLOCK_C)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    x = tl.load(x_ptr + rows[:, None] * n_cols + cols[None, :], mask=mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + cols, tl.sum(x, axis=0), mask=cols < n_cols)


@triton.jit
def log_softmax_kernel(x_ptr, y_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=float("-inf")).to(tl.float32)
    z = x - tl.max(x, axis=0)
    lse = tl.log(tl.sum(tl.exp(z), axis=0))
    tl.store(y_ptr + row * stride + offs, (z - lse).to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def l2_normalize_kernel(x_ptr, y_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    n = tl.sqrt(tl.sum(x * x, axis=0))
    tl.store(y_ptr + row * stride + offs, (x / tl.maximum(n, 1e-12)).to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def absmax_quant_kernel(x_ptr, q_ptr, s_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    s = tl.max(tl.abs(x), axis=0) / 127.0
    q = tl.extra.cuda.libdevice.rint(x / tl.maximum(s, 1e-8))
    tl.store(q_ptr + row * stride + offs, q.to(tl.int8), mask=mask)
    tl.store(s_ptr + row, s)


@triton.jit
def row_sum_min_kernel(x_ptr, s_ptr, m_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(s_ptr + row, tl.sum(x, axis=0))
    tl.store(m_ptr + row, tl.min(tl.where(mask, x, float("inf")), axis=0))
