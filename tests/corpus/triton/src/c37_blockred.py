"""Fresh Triton block-reduction kernels (helper tslot37, stop 37): a decode-attention step over one head (q·K
scores, softmax, P·V), softmax with temperature and a stored max/denominator, RMS norm with a residual add,
group norm statistics, a row variance with Welford-free two sums, a column max over a 2-D tile, a masked
log-sum-exp with a scalar bias, and a row cosine similarity; num_warps 2..8, so each block reduction exchanges
through shared memory with a CTA barrier between shuffle chains."""
import triton
import triton.language as tl


@triton.jit
def attn_decode_kernel(q_ptr, k_ptr, v_ptr, o_ptr, seq_len, stride_k, scale,
                       BLOCK_N: tl.constexpr, HEAD: tl.constexpr):
    pid = tl.program_id(0)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD)
    mask_n = offs_n < seq_len
    q = tl.load(q_ptr + pid * HEAD + offs_d).to(tl.float32)
    k = tl.load(k_ptr + pid * seq_len * stride_k + offs_n[:, None] * stride_k + offs_d[None, :],
                mask=mask_n[:, None], other=0.0).to(tl.float32)
    s = tl.sum(k * q[None, :], axis=1) * scale
    s = tl.where(mask_n, s, float("-inf"))
    m = tl.max(s, axis=0)
    p = tl.exp(s - m)
    l = tl.sum(p, axis=0)
    v = tl.load(v_ptr + pid * seq_len * stride_k + offs_n[:, None] * stride_k + offs_d[None, :],
                mask=mask_n[:, None], other=0.0).to(tl.float32)
    o = tl.sum(p[:, None] * v, axis=0) / l
    tl.store(o_ptr + pid * HEAD + offs_d, o.to(o_ptr.dtype.element_ty))


@triton.jit
def softmax_temp_stats_kernel(x_ptr, y_ptr, m_ptr, d_ptr, n_cols, stride, inv_temp, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=float("-inf")).to(tl.float32) * inv_temp
    m = tl.max(x, axis=0)
    e = tl.exp(x - m)
    d = tl.sum(e, axis=0)
    tl.store(m_ptr + row, m)
    tl.store(d_ptr + row, d)
    tl.store(y_ptr + row * stride + offs, (e / d).to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def rms_norm_residual_kernel(x_ptr, r_ptr, w_ptr, y_ptr, n_cols, stride, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    r = tl.load(r_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    h = x + r
    tl.store(r_ptr + row * stride + offs, h.to(r_ptr.dtype.element_ty), mask=mask)
    w = tl.load(w_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    inv = tl.rsqrt(tl.sum(h * h, axis=0) / n_cols + eps)
    tl.store(y_ptr + row * stride + offs, (h * inv * w).to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def group_stats_kernel(x_ptr, mean_ptr, rstd_ptr, group_size, eps, BLOCK: tl.constexpr):
    g = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < group_size
    x = tl.load(x_ptr + g * group_size + offs, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / group_size
    d = tl.where(mask, x - mean, 0.0)
    var = tl.sum(d * d, axis=0) / group_size
    tl.store(mean_ptr + g, mean)
    tl.store(rstd_ptr + g, tl.rsqrt(var + eps))


@triton.jit
def col_max_kernel(x_ptr, y_ptr, n_rows, n_cols, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    pid = tl.program_id(0)
    rows = tl.arange(0, BLOCK_R)
    cols = pid * BLOCK_C + tl.arange(0, BLOCK_C)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    x = tl.load(x_ptr + rows[:, None] * n_cols + cols[None, :], mask=mask, other=float("-inf"))
    tl.store(y_ptr + cols, tl.max(x, axis=0), mask=cols < n_cols)


@triton.jit
def masked_lse_bias_kernel(x_ptr, out_ptr, n_cols, stride, bias, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=float("-inf")).to(tl.float32) + bias
    m = tl.max(x, axis=0)
    s = tl.sum(tl.exp(x - m), axis=0)
    tl.store(out_ptr + row, m + tl.log(s))


@triton.jit
def row_cosine_kernel(a_ptr, b_ptr, out_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    a = tl.load(a_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    ab = tl.sum(a * b, axis=0)
    aa = tl.sum(a * a, axis=0)
    bb = tl.sum(b * b, axis=0)
    tl.store(out_ptr + row, ab / tl.sqrt(aa * bb + 1e-12))
