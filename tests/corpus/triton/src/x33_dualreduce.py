"""Fresh Triton programs with two independent row reductions in one block (helper tslot33, stop 33), written the
way people write them: cross-entropy forward (logsumexp plus the gathered target logit), label-smoothed
cross-entropy (logsumexp plus the row sum), sum+max, min+max, independent mean and mean-of-squares, a dual-output
norm, and looped column-tile versions. Subject: where ptxas puts the exchange barrier of the first reduction among
the second reduction's shuffles."""
import triton
import triton.language as tl


@triton.jit
def ce_fwd_kernel(logits_ptr, labels_ptr, loss_ptr, n_cols, stride, ignore_index, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    label = tl.load(labels_ptr + row).to(tl.int32)
    logits = tl.load(logits_ptr + row * stride + offs, mask=mask, other=float("-inf")).to(tl.float32)
    row_max = tl.max(logits, axis=0)
    lse = row_max + tl.log(tl.sum(tl.exp(logits - row_max), axis=0))
    target = tl.sum(tl.where(offs == label, logits, 0.0), axis=0)
    loss = tl.where(label == ignore_index, 0.0, lse - target)
    tl.store(loss_ptr + row, loss)


@triton.jit
def ce_smooth_kernel(logits_ptr, labels_ptr, loss_ptr, z_ptr, n_cols, stride, smoothing, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(logits_ptr + row * stride + offs, mask=mask, other=float("-inf")).to(tl.float32)
    label = tl.load(labels_ptr + row)
    m = tl.max(x, axis=0)
    e = tl.exp(x - m)
    lse = m + tl.log(tl.sum(e, axis=0))
    xs = tl.where(mask, x, 0.0)
    total = tl.sum(xs, axis=0)
    tgt = tl.load(logits_ptr + row * stride + label).to(tl.float32)
    loss = (1.0 - smoothing) * (lse - tgt) + smoothing * (lse - total / n_cols)
    tl.store(loss_ptr + row, loss)
    tl.store(z_ptr + row, lse)


@triton.jit
def ce_fwd_looped_kernel(logits_ptr, labels_ptr, loss_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    label = tl.load(labels_ptr + row).to(tl.int32)
    base = logits_ptr + row * stride
    m = float("-inf")
    s = 0.0
    tgt = 0.0
    for start in range(0, n_cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < n_cols
        x = tl.load(base + offs, mask=mask, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, axis=0))
        s = s * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        tgt += tl.sum(tl.where(offs == label, x, 0.0), axis=0)
        m = m_new
    tl.store(loss_ptr + row, m + tl.log(s) - tgt)


@triton.jit
def row_min_max_kernel(x_ptr, min_ptr, max_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    lo = tl.min(tl.where(mask, x, float("inf")), axis=0)
    hi = tl.max(tl.where(mask, x, float("-inf")), axis=0)
    tl.store(min_ptr + row, lo)
    tl.store(max_ptr + row, hi)


@triton.jit
def row_sum_absmax_kernel(x_ptr, out_ptr, scale_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    amax = tl.max(tl.abs(x), axis=0)
    total = tl.sum(x, axis=0)
    scale = amax / 127.0
    tl.store(scale_ptr + row, scale)
    tl.store(out_ptr + row, total / tl.maximum(scale, 1e-8))


@triton.jit
def row_moments_kernel(x_ptr, mean_ptr, msq_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    s1 = tl.sum(x, axis=0)
    s2 = tl.sum(x * x, axis=0)
    mean = s1 / n_cols
    tl.store(mean_ptr + row, mean)
    tl.store(msq_ptr + row, s2 / n_cols - mean * mean)


@triton.jit
def dual_norm_kernel(x_ptr, y_ptr, l1_ptr, l2_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    l1 = tl.sum(tl.abs(x), axis=0)
    l2 = tl.sqrt(tl.sum(x * x, axis=0))
    tl.store(l1_ptr + row, l1)
    tl.store(l2_ptr + row, l2)
    tl.store(y_ptr + row * stride + offs, (x / (l2 + 1e-6)).to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def row_moments_looped_kernel(x_ptr, mean_ptr, var_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    acc1 = tl.zeros([BLOCK], dtype=tl.float32)
    acc2 = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * stride + offs, mask=offs < n_cols, other=0.0).to(tl.float32)
        acc1 += x
        acc2 += x * x
    mean = tl.sum(acc1, axis=0) / n_cols
    var = tl.sum(acc2, axis=0) / n_cols - mean * mean
    tl.store(mean_ptr + row, mean)
    tl.store(var_ptr + row, var)


@triton.jit
def row_max_sum_looped_kernel(x_ptr, max_ptr, sum_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    mx = float("-inf")
    total = 0.0
    for start in range(0, n_cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * stride + offs, mask=offs < n_cols, other=0.0).to(tl.float32)
        mx = tl.maximum(mx, tl.max(x, axis=0))
        total += tl.sum(x, axis=0)
    tl.store(max_ptr + row, mx)
    tl.store(sum_ptr + row, total)
