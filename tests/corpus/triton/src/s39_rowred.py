"""Fresh Triton block-reduction kernels (helper tslot39, stop 39): a row sum-of-squares + max, a row mean/variance
in one pass, a looped logsumexp over a long row, a cross-entropy loss with a gathered target logit, a masked row
mean with a count, and a three-statistic row (min, max, sum); num_warps 2..8, fp16/fp32/bf16, so each block
reduction exchanges through shared memory with a CTA barrier between shuffle chains."""
import triton
import triton.language as tl


@triton.jit
def row_sumsq_max_kernel(x_ptr, ss_ptr, mx_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    ss = tl.sum(x * x, axis=0)
    mx = tl.max(tl.abs(x), axis=0)
    tl.store(ss_ptr + row, ss)
    tl.store(mx_ptr + row, mx)


@triton.jit
def row_meanvar_kernel(x_ptr, mean_ptr, var_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    s1 = tl.sum(x, axis=0)
    s2 = tl.sum(x * x, axis=0)
    mean = s1 / n_cols
    tl.store(mean_ptr + row, mean)
    tl.store(var_ptr + row, s2 / n_cols - mean * mean)


@triton.jit
def looped_lse_kernel(x_ptr, out_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    m_run = float("-inf")
    s_run = 0.0
    for start in range(0, n_cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * stride + offs, mask=offs < n_cols, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m_run, tl.max(x, axis=0))
        s_run = s_run * tl.exp(m_run - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m_run = m_new
    tl.store(out_ptr + row, m_run + tl.log(s_run))


@triton.jit
def xent_loss_kernel(logit_ptr, tgt_ptr, loss_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(logit_ptr + row * stride + offs, mask=mask, other=float("-inf")).to(tl.float32)
    t = tl.load(tgt_ptr + row)
    m = tl.max(x, axis=0)
    lse = m + tl.log(tl.sum(tl.exp(x - m), axis=0))
    xt = tl.sum(tl.where(offs == t, x, 0.0), axis=0)
    tl.store(loss_ptr + row, lse - xt)


@triton.jit
def masked_mean_count_kernel(x_ptr, valid_ptr, out_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    v = tl.load(valid_ptr + row * stride + offs, mask=mask, other=0)
    keep = v != 0
    s = tl.sum(tl.where(keep, x, 0.0), axis=0)
    c = tl.sum(keep.to(tl.float32), axis=0)
    tl.store(out_ptr + row, s / tl.maximum(c, 1.0))


@triton.jit
def row_min_max_sum_kernel(x_ptr, out_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    lo = tl.min(tl.where(mask, x, float("inf")), axis=0)
    hi = tl.max(tl.where(mask, x, float("-inf")), axis=0)
    s = tl.sum(x, axis=0)
    tl.store(out_ptr + row * 3, lo)
    tl.store(out_ptr + row * 3 + 1, hi)
    tl.store(out_ptr + row * 3 + 2, s)
