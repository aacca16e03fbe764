"""Kernels written the way they appear in training and inference code (stop 27, unseen set): a chunked
cross-entropy forward/backward with an online log-sum-exp, RMSNorm forward and a backward that accumulates
dW under an atomic_cas/atomic_xchg lock, a half-rotation rotary embedding, a GEMM with a fused bias+GELU
epilogue, per-row top-k, a row cumsum/cumprod pair, int8 row quantisation, split-K GEMM with atomic_add, a
persistent GEMM tile loop, a grouped GEMM over a device-side problem table, a causal masked softmax, a
2-D tile statistic reduced over both axes, and atomic max/min with sem/scope variants."""
import triton
import triton.language as tl


@triton.jit
def ce_fwd_bwd_kernel(logits_ptr, labels_ptr, loss_ptr, dlogits_ptr, stride, n_cols, ignore_index, label_smoothing,
                      BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = logits_ptr + row * stride
    label = tl.load(labels_ptr + row)
    # pass 1: online max / sum of exp over column chunks
    m = float("-inf")
    d = 0.0
    s = 0.0
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(base + cols, mask=cols < n_cols, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, 0))
        d = d * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), 0)
        s += tl.sum(tl.where(cols < n_cols, x, 0.0), 0)
        m = m_new
    lse = m + tl.log(d)
    x_label = tl.load(base + label).to(tl.float32)
    eps = label_smoothing / n_cols
    loss = lse - x_label
    if label_smoothing > 0:
        loss = loss * (1.0 - label_smoothing) + label_smoothing * (lse - s / n_cols)
    if label == ignore_index:
        loss = 0.0
    tl.store(loss_ptr + row, loss)
    # pass 2: gradient softmax(x) - onehot, written in place of the logits
    dbase = dlogits_ptr + row * stride
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(base + cols, mask=mask, other=float("-inf")).to(tl.float32)
        p = tl.exp(x - lse) - eps
        p = tl.where(cols == label, p - (1.0 - label_smoothing), p)
        p = tl.where(label == ignore_index, 0.0, p)
        tl.store(dbase + cols, p.to(dlogits_ptr.dtype.element_ty), mask=mask)


@triton.jit
def rmsnorm_fwd_kernel(x_ptr, w_ptr, y_ptr, rstd_ptr, stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    rstd = 1.0 / tl.sqrt(tl.sum(x * x, axis=0) / n_cols + eps)
    tl.store(rstd_ptr + row, rstd)
    w = tl.load(w_ptr + cols, mask=mask)
    y = (x * rstd) * w
    tl.store(y_ptr + row * stride + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def rmsnorm_bwd_kernel(dy_ptr, x_ptr, w_ptr, rstd_ptr, dx_ptr, dw_partial_ptr, lock_ptr, count_ptr, stride, n_rows,
                       n_cols, GROUP: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    dy = tl.load(dy_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(w_ptr + cols, mask=mask).to(tl.float32)
    rstd = tl.load(rstd_ptr + row)
    xhat = x * rstd
    wdy = w * dy
    c = tl.sum(xhat * wdy, axis=0) / n_cols
    dx = (wdy - xhat * c) * rstd
    tl.store(dx_ptr + row * stride + cols, dx.to(dx_ptr.dtype.element_ty), mask=mask)
    # accumulate this row's dW into one of GROUP partial buffers under a spin lock
    g = row % GROUP
    lock = lock_ptr + g
    while tl.atomic_cas(lock, 0, 1, sem="acquire") == 1:
        pass
    count = tl.load(count_ptr + g)
    dw_ptrs = dw_partial_ptr + g * n_cols + cols
    part = dy * xhat
    if count == 0:
        tl.atomic_xchg(count_ptr + g, 1)
    else:
        part += tl.load(dw_ptrs, mask=mask)
    tl.store(dw_ptrs, part, mask=mask)
    tl.debug_barrier()
    tl.atomic_xchg(lock, 0, sem="release")


@triton.jit
def rmsnorm_bwd_atomic_dw_kernel(dy_ptr, x_ptr, w_ptr, rstd_ptr, dx_ptr, dw_ptr, stride, n_rows, n_cols,
                                 ROWS_PER_PROG: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    dw_acc = tl.zeros([BLOCK], dtype=tl.float32)
    for i in range(ROWS_PER_PROG):
        row = pid * ROWS_PER_PROG + i
        if row < n_rows:
            x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
            dy = tl.load(dy_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
            rstd = tl.load(rstd_ptr + row)
            xhat = x * rstd
            wdy = w * dy
            c = tl.sum(xhat * wdy, axis=0) / n_cols
            tl.store(dx_ptr + row * stride + cols, ((wdy - xhat * c) * rstd).to(dx_ptr.dtype.element_ty), mask=mask)
            dw_acc += dy * xhat
    tl.atomic_add(dw_ptr + cols, dw_acc, mask=mask, sem="relaxed")


@triton.jit
def rotary_kernel(x_ptr, cos_ptr, sin_ptr, out_ptr, positions_ptr, stride_tok, stride_head, n_heads,
                  HEAD_DIM: tl.constexpr, ROT_DIM: tl.constexpr, BLOCK_H: tl.constexpr, INTERLEAVED: tl.constexpr):
    tok = tl.program_id(0)
    pos = tl.load(positions_ptr + tok)
    heads = tl.program_id(1) * BLOCK_H + tl.arange(0, BLOCK_H)
    hmask = heads < n_heads
    half = tl.arange(0, ROT_DIM // 2)
    cos = tl.load(cos_ptr + pos * (ROT_DIM // 2) + half)
    sin = tl.load(sin_ptr + pos * (ROT_DIM // 2) + half)
    base = x_ptr + tok * stride_tok + heads[:, None] * stride_head
    obase = out_ptr + tok * stride_tok + heads[:, None] * stride_head
    if INTERLEAVED:
        i0 = 2 * half[None, :]
        i1 = i0 + 1
    else:
        i0 = half[None, :]
        i1 = i0 + ROT_DIM // 2
    x0 = tl.load(base + i0, mask=hmask[:, None], other=0.0).to(tl.float32)
    x1 = tl.load(base + i1, mask=hmask[:, None], other=0.0).to(tl.float32)
    o0 = x0 * cos[None, :] - x1 * sin[None, :]
    o1 = x0 * sin[None, :] + x1 * cos[None, :]
    tl.store(obase + i0, o0.to(out_ptr.dtype.element_ty), mask=hmask[:, None])
    tl.store(obase + i1, o1.to(out_ptr.dtype.element_ty), mask=hmask[:, None])
    if ROT_DIM < HEAD_DIM:
        rest = ROT_DIM + tl.arange(0, HEAD_DIM - ROT_DIM)
        xr = tl.load(base + rest[None, :], mask=hmask[:, None])
        tl.store(obase + rest[None, :], xr, mask=hmask[:, None])


@triton.jit
def _gelu_tanh(x):
    c: tl.constexpr = 0.7978845608028654
    inner = c * (x + 0.044715 * x * x * x)
    e = tl.exp(-2.0 * tl.abs(inner))
    t = (1.0 - e) / (1.0 + e)
    t = tl.where(inner >= 0, t, -t)
    return 0.5 * x * (1.0 + t)


@triton.jit
def linear_bias_gelu_kernel(a_ptr, w_ptr, bias_ptr, c_ptr, M, N, K, stride_am, stride_wn, stride_cm,
                            BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP_M: tl.constexpr,
                            EXACT: tl.constexpr):
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BM)
    num_pid_n = tl.cdiv(N, BN)
    group = pid // (GROUP_M * num_pid_n)
    first_m = group * GROUP_M
    gsize = min(num_pid_m - first_m, GROUP_M)
    pid_m = first_m + (pid % gsize)
    pid_n = (pid % (GROUP_M * num_pid_n)) // gsize
    rm = (pid_m * BM + tl.arange(0, BM)) % M
    rn = (pid_n * BN + tl.arange(0, BN)) % N
    rk = tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :]
    w_ptrs = w_ptr + rn[None, :] * stride_wn + rk[:, None]        # y = x @ W^T, W is [N, K]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=rk[None, :] < K - k * BK, other=0.0)
        w = tl.load(w_ptrs, mask=rk[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(a, w, acc)
        a_ptrs += BK
        w_ptrs += BK
    bias = tl.load(bias_ptr + rn).to(tl.float32)
    acc += bias[None, :]
    if EXACT:
        acc = 0.5 * acc * (1.0 + tl.erf(acc * 0.7071067811865476))
    else:
        acc = _gelu_tanh(acc)
    cm = pid_m * BM + tl.arange(0, BM)
    cn = pid_n * BN + tl.arange(0, BN)
    tl.store(c_ptr + cm[:, None] * stride_cm + cn[None, :], acc.to(c_ptr.dtype.element_ty),
             mask=(cm[:, None] < M) & (cn[None, :] < N))


@triton.jit
def row_topk_kernel(x_ptr, vals_ptr, idx_ptr, n_cols, stride, BLOCK_N: tl.constexpr, K: tl.constexpr,
                    USE_TOPK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    x = tl.load(x_ptr + row * stride + cols, mask=cols < n_cols, other=float("-inf"))
    if USE_TOPK:
        top = tl.topk(x, K)
        tl.store(vals_ptr + row * K + tl.arange(0, K), top)
    else:
        s = tl.sort(x, descending=True)
        k = tl.arange(0, BLOCK_N)
        tl.store(vals_ptr + row * K + k, s, mask=k < K)
    # arg-top-1 with index tie-break, as samplers do
    mx = tl.max(x, 0)
    first = tl.min(tl.where(x == mx, cols, BLOCK_N), 0)
    tl.store(idx_ptr + row, first)


@triton.jit
def _mul_combine(a, b):
    return a * b


@triton.jit
def _seg_combine(v1, f1, v2, f2):
    return tl.where(f2 != 0, v2, v1 + v2), f1 | f2


@triton.jit
def row_scan_kernel(x_ptr, flags_ptr, sum_ptr, prod_ptr, seg_ptr, n_cols, stride, BLOCK: tl.constexpr,
                    REVERSE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0)
    cs = tl.cumsum(x, 0, reverse=REVERSE)
    cp = tl.associative_scan(tl.where(mask, x, 1.0), 0, _mul_combine, reverse=REVERSE)
    f = tl.load(flags_ptr + row * stride + cols, mask=mask, other=0)
    seg, _ = tl.associative_scan((x, f), 0, _seg_combine)
    tl.store(sum_ptr + row * stride + cols, cs, mask=mask)
    tl.store(prod_ptr + row * stride + cols, cp, mask=mask)
    tl.store(seg_ptr + row * stride + cols, seg, mask=mask)


@triton.jit
def quant_int8_row_kernel(x_ptr, q_ptr, scale_ptr, amax_ptr, n_rows, n_cols, stride, BLOCK: tl.constexpr,
                          ROWS: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    x = tl.load(x_ptr + rows[:, None] * stride + cols[None, :], mask=mask, other=0.0).to(tl.float32)
    amax = tl.max(tl.abs(x), axis=1)
    scale = tl.maximum(amax, 1e-8) / 127.0
    q = x / scale[:, None]
    q = tl.extra.cuda.libdevice.rint(q)
    q = tl.clamp(q, -127.0, 127.0).to(tl.int8)
    tl.store(q_ptr + rows[:, None] * stride + cols[None, :], q, mask=mask)
    tl.store(scale_ptr + rows, scale, mask=rows < n_rows)
    # per-tensor amax for the next step's static scale (float as int bits: amax >= 0)
    tl.atomic_max(amax_ptr, tl.max(amax, 0).to(tl.int32, bitcast=True), sem="relaxed", scope="gpu")


@triton.jit
def splitk_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm, BM: tl.constexpr,
                         BN: tl.constexpr, BK: tl.constexpr, SPLIT_K: tl.constexpr):
    pid = tl.program_id(0)
    pid_k = tl.program_id(1)
    num_pid_n = tl.cdiv(N, BN)
    pid_m = pid // num_pid_n
    pid_n = pid % num_pid_n
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = pid_k * BK + tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * stride_bk + rn[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK * SPLIT_K)):
        k_rem = K - k * BK * SPLIT_K
        a = tl.load(a_ptrs, mask=(rm[:, None] < M) & (rk[None, :] < k_rem), other=0.0)
        b = tl.load(b_ptrs, mask=(rk[:, None] < k_rem) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, b)
        a_ptrs += BK * SPLIT_K
        b_ptrs += BK * SPLIT_K * stride_bk
    c_ptrs = c_ptr + rm[:, None] * stride_cm + rn[None, :]
    cmask = (rm[:, None] < M) & (rn[None, :] < N)
    if SPLIT_K == 1:
        tl.store(c_ptrs, acc, mask=cmask)
    else:
        tl.atomic_add(c_ptrs, acc, mask=cmask, sem="relaxed")


@triton.jit
def persistent_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm, BM: tl.constexpr,
                             BN: tl.constexpr, BK: tl.constexpr, GROUP_M: tl.constexpr, NUM_SMS: tl.constexpr):
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BM)
    num_pid_n = tl.cdiv(N, BN)
    num_tiles = num_pid_m * num_pid_n
    k_tiles = tl.cdiv(K, BK)
    for tile in tl.range(pid, num_tiles, NUM_SMS):
        group = tile // (GROUP_M * num_pid_n)
        first_m = group * GROUP_M
        gsize = min(num_pid_m - first_m, GROUP_M)
        pid_m = first_m + (tile % gsize)
        pid_n = (tile % (GROUP_M * num_pid_n)) // gsize
        rm = pid_m * BM + tl.arange(0, BM)
        rn = pid_n * BN + tl.arange(0, BN)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for kt in range(k_tiles):
            rk = kt * BK + tl.arange(0, BK)
            a = tl.load(a_ptr + rm[:, None] * stride_am + rk[None, :], mask=(rm[:, None] < M) & (rk[None, :] < K),
                        other=0.0)
            b = tl.load(b_ptr + rk[:, None] * stride_bk + rn[None, :], mask=(rk[:, None] < K) & (rn[None, :] < N),
                        other=0.0)
            acc = tl.dot(a, b, acc)
        tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :], acc.to(c_ptr.dtype.element_ty),
                 mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def grouped_gemm_kernel(a_ptrs_ptr, b_ptrs_ptr, c_ptrs_ptr, sizes_ptr, lds_ptr, n_groups, BM: tl.constexpr,
                        BN: tl.constexpr, BK: tl.constexpr, NUM_SMS: tl.constexpr):
    tile = tl.program_id(0)
    last = 0
    for g in range(n_groups):
        m = tl.load(sizes_ptr + g * 3)
        n = tl.load(sizes_ptr + g * 3 + 1)
        k = tl.load(sizes_ptr + g * 3 + 2)
        tiles_m = tl.cdiv(m, BM)
        tiles_n = tl.cdiv(n, BN)
        count = tiles_m * tiles_n
        while tile >= last and tile < last + count:
            lda = tl.load(lds_ptr + g * 3)
            ldb = tl.load(lds_ptr + g * 3 + 1)
            ldc = tl.load(lds_ptr + g * 3 + 2)
            a_ptr = tl.load(a_ptrs_ptr + g).to(tl.pointer_type(tl.float16))
            b_ptr = tl.load(b_ptrs_ptr + g).to(tl.pointer_type(tl.float16))
            c_ptr = tl.load(c_ptrs_ptr + g).to(tl.pointer_type(tl.float16))
            local = tile - last
            tm = local // tiles_n
            tn = local % tiles_n
            rm = tm * BM + tl.arange(0, BM)
            rn = tn * BN + tl.arange(0, BN)
            rk = tl.arange(0, BK)
            acc = tl.zeros((BM, BN), dtype=tl.float32)
            for kk in range(0, tl.cdiv(k, BK)):
                a = tl.load(a_ptr + rm[:, None] * lda + (kk * BK + rk)[None, :],
                            mask=(rm[:, None] < m) & ((kk * BK + rk)[None, :] < k), other=0.0)
                b = tl.load(b_ptr + (kk * BK + rk)[:, None] * ldb + rn[None, :],
                            mask=((kk * BK + rk)[:, None] < k) & (rn[None, :] < n), other=0.0)
                acc += tl.dot(a, b)
            tl.store(c_ptr + rm[:, None] * ldc + rn[None, :], acc.to(tl.float16),
                     mask=(rm[:, None] < m) & (rn[None, :] < n))
            tile += NUM_SMS
        last = last + count


@triton.jit
def causal_masked_softmax_kernel(x_ptr, mask_ptr, out_ptr, n_cols, stride, mask_stride, scale, BLOCK: tl.constexpr,
                                 HAS_MASK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    inb = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=inb, other=float("-inf")).to(tl.float32) * scale
    keep = inb & (cols <= row % n_cols)
    if HAS_MASK:
        keep = keep & (tl.load(mask_ptr + row * mask_stride + cols, mask=inb, other=0) != 0)
    x = tl.where(keep, x, float("-inf"))
    mx = tl.max(x, 0)
    mx = tl.where(mx == float("-inf"), 0.0, mx)
    e = tl.exp(x - mx)
    den = tl.sum(e, 0)
    y = tl.where(den > 0, e / den, 0.0)
    tl.store(out_ptr + row * stride + cols, y.to(out_ptr.dtype.element_ty), mask=inb)


@triton.jit
def tile_stats_2d_kernel(x_ptr, sum_ptr, absmax_ptr, rowmax_ptr, colsum_ptr, M, N, stride, BM: tl.constexpr,
                         BN: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(x_ptr + rm[:, None] * stride + rn[None, :], mask=mask, other=0.0).to(tl.float32)
    total = tl.sum(tl.sum(x, axis=1), axis=0)
    amax = tl.max(tl.abs(x))
    tl.atomic_add(sum_ptr, total)
    tl.atomic_max(absmax_ptr, amax)
    rmax = tl.max(tl.where(mask, x, float("-inf")), axis=1)
    tl.atomic_max(rowmax_ptr + rm, rmax, mask=rm < M)
    tl.atomic_add(colsum_ptr + rn, tl.sum(x, axis=0), mask=rn < N)


@triton.jit
def atomic_minmax_kernel(x_ptr, gmax_ptr, gmin_ptr, bucket_max_ptr, out_ptr, n, n_buckets, SEM: tl.constexpr,
                         SCOPE: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    # block-reduced first, one atomic per program
    bmax = tl.max(tl.where(mask, x, -2147483648), 0)
    bmin = tl.min(tl.where(mask, x, 2147483647), 0)
    old = tl.atomic_max(gmax_ptr, bmax, sem=SEM, scope=SCOPE)
    tl.atomic_min(gmin_ptr, bmin, sem=SEM, scope=SCOPE)
    # per-element into buckets, result used
    b = (x & 0x7fffffff) % n_buckets
    prev = tl.atomic_max(bucket_max_ptr + b, x, mask=mask, sem=SEM, scope=SCOPE)
    prev2 = tl.atomic_min(bucket_max_ptr + n_buckets + b, x.to(tl.uint32), mask=mask & (x >= 0), sem="relaxed",
                          scope="cta")
    tl.store(out_ptr + offs, tl.maximum(prev, old) + prev2.to(tl.int32), mask=mask)
