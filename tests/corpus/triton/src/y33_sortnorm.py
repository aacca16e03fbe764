"""Fresh Triton programs (helper tsort33, stop 33) of three held-out kinds, written as people write them:
row sorts / top-k (tl.sort, tl.topk, an argsort packed into one key), RMSNorm backward (dx needs a row reduction of
dy*w*x; dw partial sums stored or accumulated with atomics; one or two reductions), and a row cumsum followed by an
absmax quantisation. Subject: where ptxas puts a CTA barrier among shuffles (first divergence BAR.SYNC / SHFL.BFLY)."""
import triton
import triton.language as tl


@triton.jit
def row_sort_kernel(x_ptr, out_ptr, n_cols, stride, BLOCK: tl.constexpr, DESCENDING: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    pad = float("-inf") if DESCENDING else float("inf")
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=pad)
    y = tl.sort(x, 0, descending=DESCENDING)
    tl.store(out_ptr + row * stride + cols, y, mask=mask)


@triton.jit
def row_topk_vals_kernel(x_ptr, out_ptr, n_cols, stride, BLOCK: tl.constexpr, K: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * stride + cols, mask=cols < n_cols, other=float("-inf")).to(tl.float32)
    top = tl.topk(x, K, dim=0)
    tl.store(out_ptr + row * K + tl.arange(0, K), top)


@triton.jit
def row_argsort_desc_kernel(x_ptr, vals_ptr, idx_ptr, n_cols, stride, BLOCK: tl.constexpr):
    # sort (value, index) pairs by value, descending, through one 64-bit key
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=float("-inf"))
    bits = x.to(tl.int32, bitcast=True)
    ordered = tl.where(bits < 0, bits ^ 0x7FFFFFFF, bits).to(tl.int64)
    key = (ordered << 32) | (BLOCK - 1 - cols).to(tl.int64)
    s = tl.sort(key, 0, descending=True)
    idx = (BLOCK - 1 - (s & 0xFFFFFFFF)).to(tl.int32)
    sb = (s >> 32).to(tl.int32)
    val = tl.where(sb < 0, sb ^ 0x7FFFFFFF, sb).to(tl.float32, bitcast=True)
    tl.store(vals_ptr + row * stride + cols, val, mask=mask)
    tl.store(idx_ptr + row * stride + cols, idx, mask=mask)


@triton.jit
def topk_softmax_kernel(logits_ptr, probs_ptr, n_cols, stride, BLOCK: tl.constexpr, K: tl.constexpr):
    # router-style: top-k of the logits, then a softmax over the k kept values
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(logits_ptr + row * stride + cols, mask=cols < n_cols, other=float("-inf")).to(tl.float32)
    top = tl.topk(x, K, dim=0)
    m = tl.max(top, 0)
    e = tl.exp(top - m)
    p = e / tl.sum(e, 0)
    tl.store(probs_ptr + row * K + tl.arange(0, K), p)


@triton.jit
def rmsnorm_bwd_dx_kernel(dy_ptr, x_ptr, w_ptr, rstd_ptr, dx_ptr, dw_ptr, n_cols, stride, BLOCK: tl.constexpr):
    # dx = rstd * (dy*w - x * rstd^2 * mean(dy*w*x)); dw partial per row written out
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    dy = tl.load(dy_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    rstd = tl.load(rstd_ptr + row)
    xhat = x * rstd
    wdy = w * dy
    c = tl.sum(xhat * wdy, axis=0) / n_cols
    dx = (wdy - xhat * c) * rstd
    tl.store(dx_ptr + row * stride + cols, dx.to(dx_ptr.dtype.element_ty), mask=mask)
    tl.store(dw_ptr + row * stride + cols, (dy * xhat).to(dw_ptr.dtype.element_ty), mask=mask)


@triton.jit
def rmsnorm_bwd_recompute_kernel(dy_ptr, x_ptr, w_ptr, dx_ptr, dw_ptr, n_cols, stride, eps, BLOCK: tl.constexpr):
    # two reductions: recompute rstd from x, then the dx reduction; dw accumulated with atomics
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    dy = tl.load(dy_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    rstd = 1.0 / tl.sqrt(tl.sum(x * x, axis=0) / n_cols + eps)
    xhat = x * rstd
    wdy = w * dy
    c = tl.sum(xhat * wdy, axis=0) / n_cols
    dx = (wdy - xhat * c) * rstd
    tl.store(dx_ptr + row * stride + cols, dx.to(dx_ptr.dtype.element_ty), mask=mask)
    tl.atomic_add(dw_ptr + cols, dy * xhat, mask=mask)


@triton.jit
def rmsnorm_bwd_rows_kernel(dy_ptr, x_ptr, w_ptr, rstd_ptr, dx_ptr, dw_part_ptr, n_rows, n_cols, stride,
                            ROWS_PER_PROG: tl.constexpr, BLOCK: tl.constexpr):
    # a program walks several rows, keeps dw in registers and writes one partial row at the end
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    dw = tl.zeros([BLOCK], dtype=tl.float32)
    row0 = pid * ROWS_PER_PROG
    for r in range(row0, min(row0 + ROWS_PER_PROG, n_rows)):
        dy = tl.load(dy_ptr + r * stride + cols, mask=mask, other=0.0).to(tl.float32)
        x = tl.load(x_ptr + r * stride + cols, mask=mask, other=0.0).to(tl.float32)
        rstd = tl.load(rstd_ptr + r)
        xhat = x * rstd
        wdy = w * dy
        c = tl.sum(xhat * wdy, axis=0) / n_cols
        dx = (wdy - xhat * c) * rstd
        tl.store(dx_ptr + r * stride + cols, dx.to(dx_ptr.dtype.element_ty), mask=mask)
        dw += dy * xhat
    tl.store(dw_part_ptr + pid * n_cols + cols, dw, mask=mask)


@triton.jit
def cumsum_quant_kernel(x_ptr, q_ptr, scale_ptr, n_cols, stride, BLOCK: tl.constexpr):
    # row prefix sum, then an int8 absmax quantisation of the prefix sums
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    c = tl.cumsum(x, 0)
    amax = tl.max(tl.where(mask, tl.abs(c), 0.0), 0)
    scale = tl.maximum(amax, 1e-8) / 127.0
    q = tl.extra.cuda.libdevice.rint(c / scale)
    tl.store(q_ptr + row * stride + cols, q.to(tl.int8), mask=mask)
    tl.store(scale_ptr + row, scale)


@triton.jit
def cumsum_norm_kernel(x_ptr, y_ptr, tot_ptr, n_cols, stride, BLOCK: tl.constexpr):
    # cumulative distribution: prefix sum divided by the row total (a second reduction)
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    c = tl.cumsum(x, 0)
    total = tl.sum(x, 0)
    tl.store(y_ptr + row * stride + cols, (c / total).to(y_ptr.dtype.element_ty), mask=mask)
    tl.store(tot_ptr + row, total)
