"""Fresh Triton programs with two or more independent reductions in one block (helper tslot34, stop 34): cross-entropy
backward (logsumexp recomputed, gradient written, target logit gathered), z-loss cross-entropy (logsumexp, target, and
the lse squared), KL divergence between two rows (two logsumexps), entropy of a softmax (max, sum, weighted sum),
asymmetric int8 quantisation (min and max), LayerNorm forward from sum and sum of squares, RMS + absmax, an online
softmax over column tiles writing max and sum, and a masked mean with a count."""
import triton
import triton.language as tl


@triton.jit
def ce_bwd_kernel(logits_ptr, labels_ptr, dloss_ptr, dlogits_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    label = tl.load(labels_ptr + row).to(tl.int32)
    x = tl.load(logits_ptr + row * stride + offs, mask=mask, other=float("-inf")).to(tl.float32)
    m = tl.max(x, axis=0)
    e = tl.exp(x - m)
    s = tl.sum(e, axis=0)
    g = tl.load(dloss_ptr + row)
    p = e / s
    p = tl.where(offs == label, p - 1.0, p) * g
    tl.store(dlogits_ptr + row * stride + offs, p.to(dlogits_ptr.dtype.element_ty), mask=mask)


@triton.jit
def ce_zloss_kernel(logits_ptr, labels_ptr, loss_ptr, lse_ptr, n_cols, stride, z_coef, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    label = tl.load(labels_ptr + row)
    x = tl.load(logits_ptr + row * stride + offs, mask=mask, other=float("-inf")).to(tl.float32)
    tgt = tl.sum(tl.where(offs == label, x, 0.0), axis=0)
    m = tl.max(x, axis=0)
    lse = m + tl.log(tl.sum(tl.exp(x - m), axis=0))
    loss = lse - tgt + z_coef * lse * lse
    tl.store(loss_ptr + row, loss)
    tl.store(lse_ptr + row, lse)


@triton.jit
def kl_div_rows_kernel(p_ptr, q_ptr, out_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    a = tl.load(p_ptr + row * stride + offs, mask=mask, other=float("-inf")).to(tl.float32)
    b = tl.load(q_ptr + row * stride + offs, mask=mask, other=float("-inf")).to(tl.float32)
    ma = tl.max(a, axis=0)
    mb = tl.max(b, axis=0)
    ea = tl.exp(a - ma)
    sa = tl.sum(ea, axis=0)
    sb = tl.sum(tl.exp(b - mb), axis=0)
    la = a - ma - tl.log(sa)
    lb = b - mb - tl.log(sb)
    kl = tl.sum(tl.where(mask, (ea / sa) * (la - lb), 0.0), axis=0)
    tl.store(out_ptr + row, kl)


@triton.jit
def softmax_entropy_kernel(x_ptr, ent_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=float("-inf")).to(tl.float32)
    m = tl.max(x, axis=0)
    z = tl.where(mask, x - m, 0.0)
    e = tl.where(mask, tl.exp(z), 0.0)
    s = tl.sum(e, axis=0)
    ez = tl.sum(e * z, axis=0)
    tl.store(ent_ptr + row, tl.log(s) - ez / s)


@triton.jit
def quant_asym_kernel(x_ptr, q_ptr, scale_ptr, zp_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    lo = tl.minimum(tl.min(tl.where(mask, x, float("inf")), axis=0), 0.0)
    hi = tl.maximum(tl.max(tl.where(mask, x, float("-inf")), axis=0), 0.0)
    scale = tl.maximum((hi - lo) / 255.0, 1e-8)
    zp = tl.extra.cuda.libdevice.rint(-lo / scale) - 128.0
    q = tl.extra.cuda.libdevice.rint(x / scale) + zp
    q = tl.minimum(tl.maximum(q, -128.0), 127.0)
    tl.store(q_ptr + row * stride + offs, q.to(tl.int8), mask=mask)
    tl.store(scale_ptr + row, scale)
    tl.store(zp_ptr + row, zp)


@triton.jit
def layernorm_onepass_kernel(x_ptr, w_ptr, b_ptr, y_ptr, n_cols, stride, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    s1 = tl.sum(x, axis=0)
    s2 = tl.sum(x * x, axis=0)
    mean = s1 / n_cols
    var = s2 / n_cols - mean * mean
    rstd = 1.0 / tl.sqrt(var + eps)
    w = tl.load(w_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    y = (x - mean) * rstd * w + b
    tl.store(y_ptr + row * stride + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def rms_absmax_kernel(x_ptr, rms_ptr, amax_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    ss = tl.sum(x * x, axis=0)
    am = tl.max(tl.abs(x), axis=0)
    tl.store(rms_ptr + row, tl.sqrt(ss / n_cols))
    tl.store(amax_ptr + row, am)


@triton.jit
def online_softmax_stats_kernel(x_ptr, max_ptr, sum_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = x_ptr + row * stride
    m = float("-inf")
    s = 0.0
    for start in range(0, n_cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(base + offs, mask=offs < n_cols, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, axis=0))
        s = s * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
    tl.store(max_ptr + row, m)
    tl.store(sum_ptr + row, s)


@triton.jit
def masked_mean_count_kernel(x_ptr, valid_ptr, mean_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    v = tl.load(valid_ptr + row * stride + offs, mask=mask, other=0)
    keep = v != 0
    total = tl.sum(tl.where(keep, x, 0.0), axis=0)
    cnt = tl.sum(keep.to(tl.int32), axis=0)
    tl.store(mean_ptr + row, total / tl.maximum(cnt, 1).to(tl.float32))
