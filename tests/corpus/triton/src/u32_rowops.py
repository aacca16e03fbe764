"""Fresh Triton row programs (helper tbssy32, stop 32), written the way people write them: masked loads feeding
reductions (RMSNorm, layer norm forward with mean/rstd outputs, softmax with a temperature, cross-entropy with a
max/log-sum-exp pass), row ops that store several outputs under a mask, an argmax, a gather + reduce, and a masked
row scan."""
import triton
import triton.language as tl


@triton.jit
def rms_norm_fwd_kernel(x_ptr, w_ptr, y_ptr, rstd_ptr, n_cols, stride, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    ms = tl.sum(x * x, axis=0) / n_cols
    rstd = 1.0 / tl.sqrt(ms + eps)
    tl.store(rstd_ptr + row, rstd)
    y = x * rstd * w
    tl.store(y_ptr + row * stride + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def layer_norm_stats_kernel(x_ptr, w_ptr, b_ptr, y_ptr, mean_ptr, rstd_ptr, n_cols, stride, eps,
                            BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / n_cols
    xc = tl.where(mask, x - mean, 0.0)
    var = tl.sum(xc * xc, axis=0) / n_cols
    rstd = 1.0 / tl.sqrt(var + eps)
    tl.store(mean_ptr + row, mean)
    tl.store(rstd_ptr + row, rstd)
    w = tl.load(w_ptr + cols, mask=mask, other=1.0)
    b = tl.load(b_ptr + cols, mask=mask, other=0.0)
    y = xc * rstd * w + b
    tl.store(y_ptr + row * stride + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def softmax_temp_kernel(x_ptr, y_ptr, lse_ptr, n_cols, stride, inv_temp, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=-float("inf")).to(tl.float32) * inv_temp
    m = tl.max(x, axis=0)
    e = tl.exp(x - m)
    s = tl.sum(e, axis=0)
    tl.store(lse_ptr + row, m + tl.log(s))
    tl.store(y_ptr + row * stride + cols, (e / s).to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def cross_entropy_fwd_kernel(logits_ptr, labels_ptr, loss_ptr, dlogits_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    label = tl.load(labels_ptr + row)
    x = tl.load(logits_ptr + row * stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
    m = tl.max(x, axis=0)
    e = tl.exp(x - m)
    s = tl.sum(e, axis=0)
    x_label = tl.sum(tl.where(cols == label, x, 0.0), axis=0)
    loss = tl.log(s) + m - x_label
    tl.store(loss_ptr + row, loss)
    p = e / s
    grad = tl.where(cols == label, p - 1.0, p)
    tl.store(dlogits_ptr + row * stride + cols, grad.to(dlogits_ptr.dtype.element_ty), mask=mask)


@triton.jit
def row_argmax_kernel(x_ptr, val_ptr, idx_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=-float("inf"))
    v, i = tl.max(x, axis=0, return_indices=True)
    tl.store(val_ptr + row, v)
    tl.store(idx_ptr + row, i)


@triton.jit
def gather_rowsum_kernel(src_ptr, idx_ptr, out_ptr, n_idx, n_src, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_idx
    idx = tl.load(idx_ptr + row * n_idx + offs, mask=mask, other=0)
    ok = mask & (idx >= 0) & (idx < n_src)
    v = tl.load(src_ptr + idx, mask=ok, other=0.0)
    tl.store(out_ptr + row, tl.sum(v, axis=0))


@triton.jit
def split_stats_kernel(x_ptr, sum_ptr, sq_ptr, max_ptr, min_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(sum_ptr + pid, tl.sum(x, axis=0))
    tl.store(sq_ptr + pid, tl.sum(x * x, axis=0))
    tl.store(max_ptr + pid, tl.max(tl.where(mask, x, -float("inf")), axis=0))
    tl.store(min_ptr + pid, tl.min(tl.where(mask, x, float("inf")), axis=0))


@triton.jit
def masked_row_cumsum_kernel(x_ptr, y_ptr, tot_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0)
    c = tl.cumsum(x, axis=0)
    tl.store(y_ptr + row * stride + cols, c, mask=mask)
    tl.store(tot_ptr + row, tl.sum(x, axis=0))
