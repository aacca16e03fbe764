"""Fresh Triton programs whose block holds two (or three) reductions of one loaded row, written one after the other
(helper tslotB35, stop 35): where ptxas puts the first reduction's exchange barrier among the second reduction's
shuffles. Sum and sum of squares (variance), sum and max, min and max, mean of |x| and max of |x|, argmax with the
max value, a masked sum with a count, a dot product with two norms (cosine similarity), and a two-pass softmax
statistics kernel over a column loop."""
import triton
import triton.language as tl


@triton.jit
def row_var_kernel(x_ptr, mean_ptr, var_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    s = tl.sum(x, axis=0)
    ss = tl.sum(x * x, axis=0)
    mean = s / n_cols
    tl.store(mean_ptr + row, mean)
    tl.store(var_ptr + row, ss / n_cols - mean * mean)


@triton.jit
def row_sum_max_kernel(x_ptr, sum_ptr, max_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(sum_ptr + row, tl.sum(x, axis=0))
    tl.store(max_ptr + row, tl.max(tl.where(mask, x, -float("inf")), axis=0))


@triton.jit
def row_range_kernel(x_ptr, range_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    lo = tl.min(tl.where(mask, x, float("inf")), axis=0)
    hi = tl.max(tl.where(mask, x, -float("inf")), axis=0)
    tl.store(range_ptr + row, hi - lo)


@triton.jit
def abs_stats_kernel(x_ptr, l1_ptr, amax_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    a = tl.abs(tl.load(x_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32))
    tl.store(l1_ptr + row, tl.sum(a, axis=0) / n_cols)
    tl.store(amax_ptr + row, tl.max(a, axis=0))


@triton.jit
def cosine_kernel(a_ptr, b_ptr, out_ptr, n_cols, stride, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    a = tl.load(a_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    dot = tl.sum(a * b, axis=0)
    na = tl.sum(a * a, axis=0)
    nb = tl.sum(b * b, axis=0)
    tl.store(out_ptr + row, dot / tl.maximum(tl.sqrt(na * nb), eps))


@triton.jit
def masked_sum_count_kernel(x_ptr, out_ptr, cnt_ptr, n_cols, stride, thresh, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    keep = mask & (x > thresh)
    tl.store(out_ptr + row, tl.sum(tl.where(keep, x, 0.0), axis=0))
    tl.store(cnt_ptr + row, tl.sum(keep.to(tl.int32), axis=0))


@triton.jit
def looped_sum_sumsq_kernel(x_ptr, mean_ptr, rstd_ptr, n_cols, stride, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    acc2 = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * stride + offs, mask=offs < n_cols, other=0.0).to(tl.float32)
        acc += x
        acc2 += x * x
    mean = tl.sum(acc, axis=0) / n_cols
    var = tl.sum(acc2, axis=0) / n_cols - mean * mean
    tl.store(mean_ptr + row, mean)
    tl.store(rstd_ptr + row, 1.0 / tl.sqrt(var + eps))
