"""Fresh Triton row kernels with two independent statistics of masked loads in one straight-line block (helper
tslotA35, stop 35): min+max range, mean + absmax, sum + sum of squares variance, cross-entropy forward with a gathered
target, softmax with a row sum of the input, logsumexp + argmax, and a masked mean with a count; many guards (BLOCK per
thread 4..16), so the predicate count ptxas must hold is near or above its seven P registers."""
import triton
import triton.language as tl


@triton.jit
def row_range_kernel(x_ptr, lo_ptr, hi_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    lo = tl.min(tl.where(mask, x, float("inf")), axis=0)
    hi = tl.max(tl.where(mask, x, float("-inf")), axis=0)
    tl.store(lo_ptr + row, lo)
    tl.store(hi_ptr + row, hi)


@triton.jit
def mean_absmax_kernel(x_ptr, mean_ptr, amax_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    s = tl.sum(x, axis=0)
    a = tl.max(tl.abs(x), axis=0)
    tl.store(mean_ptr + row, s / n_cols)
    tl.store(amax_ptr + row, a)


@triton.jit
def var_onepass_kernel(x_ptr, var_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    s = tl.sum(x, axis=0)
    q = tl.sum(x * x, axis=0)
    mean = s / n_cols
    tl.store(var_ptr + row, q / n_cols - mean * mean)


@triton.jit
def ce_fwd_gather_kernel(logits_ptr, labels_ptr, loss_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    label = tl.load(labels_ptr + row).to(tl.int32)
    x = tl.load(logits_ptr + row * stride + offs, mask=mask, other=float("-inf")).to(tl.float32)
    m = tl.max(x, axis=0)
    tgt = tl.sum(tl.where(offs == label, x, 0.0), axis=0)
    lse = m + tl.log(tl.sum(tl.exp(x - m), axis=0))
    tl.store(loss_ptr + row, lse - tgt)


@triton.jit
def argmax_logsumexp_kernel(x_ptr, idx_ptr, lse_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=float("-inf")).to(tl.float32)
    i = tl.argmax(x, axis=0)
    m = tl.max(x, axis=0)
    lse = m + tl.log(tl.sum(tl.exp(x - m), axis=0))
    tl.store(idx_ptr + row, i)
    tl.store(lse_ptr + row, lse)


@triton.jit
def masked_mean_count_kernel(x_ptr, out_ptr, n_cols, stride, thresh, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    keep = mask & (x > thresh)
    s = tl.sum(tl.where(keep, x, 0.0), axis=0)
    c = tl.sum(keep.to(tl.float32), axis=0)
    tl.store(out_ptr + row, s / tl.maximum(c, 1.0))


@triton.jit
def two_row_max_kernel(a_ptr, b_ptr, out_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    a = tl.load(a_ptr + row * stride + offs, mask=mask, other=float("-inf")).to(tl.float32)
    b = tl.load(b_ptr + row * stride + offs, mask=mask, other=float("-inf")).to(tl.float32)
    tl.store(out_ptr + row, tl.max(a, axis=0) - tl.max(b, axis=0))
