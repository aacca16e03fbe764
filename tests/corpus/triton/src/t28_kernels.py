"""Kernels written the way they appear in inference and training code (stop 28, unseen set): a fused MoE GEMM
over sorted token ids, a W4A16 (packed int4) GEMM with group scales/zeros, an fp8 GEMM with block-wise scales,
a KV-cache write through a slot mapping, a varlen causal flash-attention forward, the combine step of
split-KV decoding, top-p sampling, an embedding bag, a CSR SpMM row kernel, per-channel batch-norm statistics
(Welford over axis 0), a column argmin, a stream-K GEMM with flag fix-up, a dynamic work-queue kernel fed by
atomic_add, a Mamba selective-state update, a causal depthwise conv1d, and a TMA-descriptor transpose."""
import triton
import triton.language as tl


@triton.jit
def fused_moe_kernel(a_ptr, b_ptr, c_ptr, topk_weights_ptr, sorted_token_ids_ptr, expert_ids_ptr,
                     num_tokens_post_padded_ptr, N, K, EM, num_valid_tokens, stride_am, stride_be, stride_bn,
                     stride_cm, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                     GROUP_M: tl.constexpr, TOP_K: tl.constexpr, MUL_ROUTED_WEIGHT: tl.constexpr):
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(EM, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    width = GROUP_M * num_pid_n
    group = pid // width
    first_m = group * GROUP_M
    gsize = min(num_pid_m - first_m, GROUP_M)
    pid_m = first_m + ((pid % width) % gsize)
    pid_n = (pid % width) // gsize
    num_post_padded = tl.load(num_tokens_post_padded_ptr)
    if pid_m * BLOCK_M >= num_post_padded:
        return
    offs_tok = pid_m * BLOCK_M + tl.arange(0, BLOCK_M).to(tl.int64)
    tok_ids = tl.load(sorted_token_ids_ptr + offs_tok)
    tok_mask = tok_ids < num_valid_tokens
    expert = tl.load(expert_ids_ptr + pid_m).to(tl.int64)
    if expert == -1:
        offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        c_ptrs = c_ptr + stride_cm * tok_ids[:, None] + offs_cn[None, :]
        tl.store(c_ptrs, tl.zeros((BLOCK_M, BLOCK_N), dtype=c_ptr.dtype.element_ty),
                 mask=tok_mask[:, None] & (offs_cn[None, :] < N))
        return
    offs_bn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N).to(tl.int64)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + (tok_ids[:, None] // TOP_K * stride_am + offs_k[None, :])
    b_ptrs = b_ptr + expert * stride_be + (offs_k[:, None] + offs_bn[None, :] * stride_bn)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=tok_mask[:, None] & (offs_k[None, :] < K - k * BLOCK_K), other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)
        acc += tl.dot(a, b)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K
    if MUL_ROUTED_WEIGHT:
        w = tl.load(topk_weights_ptr + tok_ids, mask=tok_mask, other=0)
        acc = acc * w[:, None]
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = c_ptr + stride_cm * tok_ids[:, None] + offs_cn[None, :]
    tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=tok_mask[:, None] & (offs_cn[None, :] < N))


@triton.jit
def w4a16_matmul_kernel(a_ptr, qw_ptr, scales_ptr, zeros_ptr, c_ptr, M, N, K, stride_am, stride_qk, stride_sg,
                        stride_cm, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                        GROUP_SIZE: tl.constexpr, HAS_ZERO: tl.constexpr):
    # B is int4 packed 8 per int32 along K: qw[k // 8, n]
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    shifts = (rk % 8) * 4
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        kk = k0 + rk
        a = tl.load(a_ptr + rm[:, None] * stride_am + kk[None, :], mask=(rm[:, None] < M) & (kk[None, :] < K),
                    other=0.0)
        packed = tl.load(qw_ptr + (kk // 8)[:, None] * stride_qk + rn[None, :],
                         mask=(kk[:, None] < K) & (rn[None, :] < N), other=0)
        q = (packed >> shifts[:, None]) & 0xF
        g = k0 // GROUP_SIZE
        scale = tl.load(scales_ptr + g * stride_sg + rn, mask=rn < N, other=0.0)
        if HAS_ZERO:
            z = tl.load(zeros_ptr + g * stride_sg + rn, mask=rn < N, other=8.0)
        else:
            z = tl.full((BLOCK_N,), 8.0, tl.float16)
        w = ((q.to(tl.float16) - z[None, :]) * scale[None, :]).to(a.dtype)
        acc = tl.dot(a, w, acc)
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :], acc.to(c_ptr.dtype.element_ty),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def fp8_blockwise_matmul_kernel(a_ptr, b_ptr, c_ptr, as_ptr, bs_ptr, M, N, K, stride_am, stride_bn, stride_cm,
                                stride_as_m, stride_bs_n, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                                BLOCK_K: tl.constexpr, GROUP_K: tl.constexpr, GROUP_N: tl.constexpr):
    # A scaled per (row, K group), B scaled per (N block, K group) -- DeepSeek-V3 style
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    rn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    rk = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :]
    b_ptrs = b_ptr + rn[None, :] * stride_bn + rk[:, None]
    as_ptrs = as_ptr + rm * stride_as_m
    bs_ptrs = bs_ptr + (rn // GROUP_N) * stride_bs_n
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=rk[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=rk[:, None] < K - k * BLOCK_K, other=0.0)
        kg = (k * BLOCK_K) // GROUP_K
        a_s = tl.load(as_ptrs + kg)
        b_s = tl.load(bs_ptrs + kg)
        acc += tl.dot(a, b) * a_s[:, None] * b_s[None, :]
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K
    cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    tl.store(c_ptr + cm[:, None] * stride_cm + cn[None, :], acc.to(c_ptr.dtype.element_ty),
             mask=(cm[:, None] < M) & (cn[None, :] < N))


@triton.jit
def reshape_and_cache_kernel(key_ptr, value_ptr, key_cache_ptr, value_cache_ptr, slot_mapping_ptr, k_scale_ptr,
                             stride_kt, stride_vt, stride_cb, stride_cs, num_heads, HEAD_DIM: tl.constexpr,
                             BLOCK_SIZE: tl.constexpr, BLOCK_H: tl.constexpr, QUANT: tl.constexpr):
    tok = tl.program_id(0)
    slot = tl.load(slot_mapping_ptr + tok).to(tl.int64)
    if slot < 0:
        return  # padding token
    blk = slot // BLOCK_SIZE
    off = slot % BLOCK_SIZE
    d = tl.arange(0, HEAD_DIM)
    for h0 in range(0, num_heads, BLOCK_H):
        h = h0 + tl.arange(0, BLOCK_H)
        hm = h < num_heads
        src = h[:, None] * HEAD_DIM + d[None, :]
        k = tl.load(key_ptr + tok * stride_kt + src, mask=hm[:, None])
        v = tl.load(value_ptr + tok * stride_vt + src, mask=hm[:, None])
        dst = blk * stride_cb + off * stride_cs + src
        if QUANT:
            inv = 1.0 / tl.load(k_scale_ptr)
            k = (k.to(tl.float32) * inv).to(key_cache_ptr.dtype.element_ty)
            v = (v.to(tl.float32) * inv).to(value_cache_ptr.dtype.element_ty)
        tl.store(key_cache_ptr + dst, k.to(key_cache_ptr.dtype.element_ty), mask=hm[:, None])
        tl.store(value_cache_ptr + dst, v.to(value_cache_ptr.dtype.element_ty), mask=hm[:, None])


@triton.jit
def varlen_flash_attn_fwd_kernel(q_ptr, k_ptr, v_ptr, o_ptr, lse_ptr, cu_seqlens_ptr, sm_scale, stride_qt, stride_qh,
                                 stride_kt, stride_kh, stride_ot, stride_oh, num_heads, HEAD_DIM: tl.constexpr,
                                 BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, CAUSAL: tl.constexpr):
    start_m = tl.program_id(0)
    bh = tl.program_id(1)
    b = bh // num_heads
    h = bh % num_heads
    seq_start = tl.load(cu_seqlens_ptr + b)
    seq_end = tl.load(cu_seqlens_ptr + b + 1)
    seqlen = seq_end - seq_start
    if start_m * BLOCK_M >= seqlen:
        return
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(q_ptr + (seq_start + offs_m)[:, None] * stride_qt + h * stride_qh + offs_d[None, :],
                mask=offs_m[:, None] < seqlen, other=0.0)
    m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    if CAUSAL:
        hi = tl.minimum((start_m + 1) * BLOCK_M, seqlen)
    else:
        hi = seqlen
    for start_n in range(0, hi, BLOCK_N):
        cols = start_n + offs_n
        kv_off = (seq_start + cols)[:, None] * stride_kt + h * stride_kh + offs_d[None, :]
        k = tl.load(k_ptr + kv_off, mask=cols[:, None] < seqlen, other=0.0)
        qk = tl.dot(q, tl.trans(k)) * qk_scale
        valid = cols[None, :] < seqlen
        if CAUSAL:
            valid = valid & (offs_m[:, None] >= cols[None, :])
        qk = tl.where(valid, qk, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_ptr + kv_off, mask=cols[:, None] < seqlen, other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_new
    acc = acc / l_i[:, None]
    tl.store(lse_ptr + bh * 0 + (seq_start + offs_m) * num_heads + h, m_i + tl.math.log2(l_i), mask=offs_m < seqlen)
    tl.store(o_ptr + (seq_start + offs_m)[:, None] * stride_ot + h * stride_oh + offs_d[None, :],
             acc.to(o_ptr.dtype.element_ty), mask=offs_m[:, None] < seqlen)


@triton.jit
def split_kv_combine_kernel(out_ptr, partial_o_ptr, partial_lse_ptr, seq_lens_ptr, stride_ps, stride_ph,
                            num_heads, NUM_SPLITS: tl.constexpr, SPLIT_SIZE: tl.constexpr, HEAD_DIM: tl.constexpr):
    seq = tl.program_id(0)
    head = tl.program_id(1)
    seq_len = tl.load(seq_lens_ptr + seq)
    n_splits = tl.cdiv(seq_len, SPLIT_SIZE)
    d = tl.arange(0, HEAD_DIM)
    base = (seq * num_heads + head) * stride_ph
    lse_max = float("-inf")
    for s in range(0, n_splits):
        lse_max = tl.maximum(lse_max, tl.load(partial_lse_ptr + base // HEAD_DIM * NUM_SPLITS + s))
    total = 0.0
    acc = tl.zeros([HEAD_DIM], dtype=tl.float32)
    for s in range(0, n_splits):
        lse = tl.load(partial_lse_ptr + base // HEAD_DIM * NUM_SPLITS + s)
        w = tl.exp(lse - lse_max)
        o = tl.load(partial_o_ptr + base * NUM_SPLITS + s * stride_ps + d)
        acc += w * o
        total += w
    tl.store(out_ptr + (seq * num_heads + head) * HEAD_DIM + d, (acc / total).to(out_ptr.dtype.element_ty))


@triton.jit
def top_p_sampling_kernel(probs_ptr, out_ptr, top_p_ptr, seed, stride, vocab, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < vocab
    p = tl.load(probs_ptr + row * stride + offs, mask=mask, other=0.0)
    top_p = tl.load(top_p_ptr + row)
    # sort by probability, keep the nucleus, renormalise, draw one token
    key = (p.to(tl.int32, bitcast=True).to(tl.int64) << 32) | (BLOCK - 1 - offs).to(tl.int64)
    key = tl.sort(key, descending=True)
    sp = (key >> 32).to(tl.int32).to(tl.float32, bitcast=True)
    sidx = BLOCK - 1 - (key & 0xFFFFFFFF).to(tl.int32)
    csum = tl.cumsum(sp, axis=0)
    keep = (csum - sp) < top_p
    sp = tl.where(keep, sp, 0.0)
    total = tl.sum(sp, axis=0)
    u = tl.rand(seed, row) * total
    csum = tl.cumsum(sp, axis=0)
    pick = tl.where((csum >= u) & keep, offs, BLOCK)
    first = tl.min(pick, axis=0)
    token = tl.sum(tl.where(offs == first, sidx, 0), axis=0)
    tl.store(out_ptr + row, token)


@triton.jit
def embedding_bag_kernel(weight_ptr, indices_ptr, offsets_ptr, psw_ptr, out_ptr, dim, num_indices,
                         BLOCK_D: tl.constexpr, MODE: tl.constexpr, HAS_PSW: tl.constexpr):
    bag = tl.program_id(0)
    pid_d = tl.program_id(1)
    start = tl.load(offsets_ptr + bag)
    end = tl.load(offsets_ptr + bag + 1)
    cols = pid_d * BLOCK_D + tl.arange(0, BLOCK_D)
    cmask = cols < dim
    if MODE == "max":
        acc = tl.full([BLOCK_D], float("-inf"), tl.float32)
    else:
        acc = tl.zeros([BLOCK_D], dtype=tl.float32)
    for i in range(start, end):
        idx = tl.load(indices_ptr + i).to(tl.int64)
        row = tl.load(weight_ptr + idx * dim + cols, mask=cmask, other=0.0).to(tl.float32)
        if HAS_PSW:
            row = row * tl.load(psw_ptr + i)
        if MODE == "max":
            acc = tl.maximum(acc, row)
        else:
            acc += row
    if MODE == "mean":
        acc = acc / tl.maximum(end - start, 1).to(tl.float32)
    if MODE == "max":
        acc = tl.where(end > start, acc, 0.0)
    tl.store(out_ptr + bag * dim + cols, acc.to(out_ptr.dtype.element_ty), mask=cmask)


@triton.jit
def csr_spmm_kernel(row_ptr_ptr, col_idx_ptr, val_ptr, b_ptr, c_ptr, N, stride_b, stride_c, BLOCK_NZ: tl.constexpr,
                    BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    pid_n = tl.program_id(1)
    start = tl.load(row_ptr_ptr + row)
    end = tl.load(row_ptr_ptr + row + 1)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    cmask = cols < N
    acc = tl.zeros([BLOCK_N], dtype=tl.float32)
    for j in range(start, end, BLOCK_NZ):
        nz = j + tl.arange(0, BLOCK_NZ)
        nzmask = nz < end
        c = tl.load(col_idx_ptr + nz, mask=nzmask, other=0).to(tl.int64)
        v = tl.load(val_ptr + nz, mask=nzmask, other=0.0)
        bt = tl.load(b_ptr + c[:, None] * stride_b + cols[None, :], mask=nzmask[:, None] & cmask[None, :], other=0.0)
        acc += tl.sum(v[:, None].to(tl.float32) * bt.to(tl.float32), axis=0)
    tl.store(c_ptr + row * stride_c + cols, acc.to(c_ptr.dtype.element_ty), mask=cmask)


@triton.jit
def _welford_merge(m1, v1, n1, m2, v2, n2):
    n = n1 + n2
    delta = m2 - m1
    w2 = tl.where(n == 0, 0.0, n2 / tl.where(n == 0, 1.0, n))
    return m1 + delta * w2, v1 + v2 + delta * delta * n1 * w2, n


@triton.jit
def channel_stats_kernel(x_ptr, mean_ptr, var_ptr, running_mean_ptr, running_var_ptr, rows, C, momentum,
                         BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    # NHWC batch-norm statistics: Welford over axis 0 (rows = N*H*W) for a block of channels
    pid = tl.program_id(0)
    ch = pid * BLOCK_C + tl.arange(0, BLOCK_C)
    cmask = ch < C
    mean = tl.zeros([BLOCK_R, BLOCK_C], dtype=tl.float32)
    m2 = tl.zeros([BLOCK_R, BLOCK_C], dtype=tl.float32)
    cnt = tl.zeros([BLOCK_R, BLOCK_C], dtype=tl.float32)
    for r0 in range(0, rows, BLOCK_R):
        r = r0 + tl.arange(0, BLOCK_R)
        msk = (r[:, None] < rows) & cmask[None, :]
        x = tl.load(x_ptr + r[:, None].to(tl.int64) * C + ch[None, :], mask=msk, other=0.0).to(tl.float32)
        cnt_new = cnt + msk.to(tl.float32)
        delta = x - mean
        mean = tl.where(msk, mean + delta / tl.maximum(cnt_new, 1.0), mean)
        m2 = tl.where(msk, m2 + delta * (x - mean), m2)
        cnt = cnt_new
    mean_c, m2_c, n_c = tl.reduce((mean, m2, cnt), 0, _welford_merge)
    var_c = m2_c / tl.maximum(n_c, 1.0)
    tl.store(mean_ptr + ch, mean_c, mask=cmask)
    tl.store(var_ptr + ch, var_c, mask=cmask)
    rm = tl.load(running_mean_ptr + ch, mask=cmask, other=0.0)
    rv = tl.load(running_var_ptr + ch, mask=cmask, other=0.0)
    unbiased = m2_c / tl.maximum(n_c - 1.0, 1.0)
    tl.store(running_mean_ptr + ch, (1 - momentum) * rm + momentum * mean_c, mask=cmask)
    tl.store(running_var_ptr + ch, (1 - momentum) * rv + momentum * unbiased, mask=cmask)


@triton.jit
def col_argmin_kernel(x_ptr, val_ptr, idx_ptr, M, N, stride, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    cols = pid * BLOCK_N + tl.arange(0, BLOCK_N)
    cmask = cols < N
    best = tl.full([BLOCK_N], float("inf"), tl.float32)
    best_i = tl.zeros([BLOCK_N], dtype=tl.int32)
    for m0 in range(0, M, BLOCK_M):
        r = m0 + tl.arange(0, BLOCK_M)
        x = tl.load(x_ptr + r[:, None] * stride + cols[None, :], mask=(r[:, None] < M) & cmask[None, :],
                    other=float("inf")).to(tl.float32)
        v, i = tl.min(x, axis=0, return_indices=True)
        better = v < best
        best_i = tl.where(better, i + m0, best_i)
        best = tl.where(better, v, best)
    tl.store(val_ptr + cols, best, mask=cmask)
    tl.store(idx_ptr + cols, best_i, mask=cmask)


@triton.jit
def stream_k_matmul_kernel(a_ptr, b_ptr, c_ptr, partial_ptr, flags_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                           iters_per_prog, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # each program runs a contiguous range of (tile, k-iteration) pairs; a tile split between programs is fixed
    # up by the program that owns its first iteration, after waiting on the others' flags
    pid = tl.program_id(0)
    n_tiles_n = tl.cdiv(N, BN)
    k_iters = tl.cdiv(K, BK)
    total = tl.cdiv(M, BM) * n_tiles_n * k_iters
    it = pid * iters_per_prog
    end = tl.minimum(it + iters_per_prog, total)
    while it < end:
        tile = it // k_iters
        k_lo = it % k_iters
        k_hi = tl.minimum(k_iters, k_lo + (end - it))
        rm = (tile // n_tiles_n) * BM + tl.arange(0, BM)
        rn = (tile % n_tiles_n) * BN + tl.arange(0, BN)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for kk in range(k_lo, k_hi):
            rk = kk * BK + tl.arange(0, BK)
            a = tl.load(a_ptr + rm[:, None] * stride_am + rk[None, :], mask=(rm[:, None] < M) & (rk[None, :] < K),
                        other=0.0)
            b = tl.load(b_ptr + rk[:, None] * stride_bk + rn[None, :], mask=(rk[:, None] < K) & (rn[None, :] < N),
                        other=0.0)
            acc = tl.dot(a, b, acc)
        tile_p = partial_ptr + pid * BM * BN + tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :]
        if k_lo != 0:
            tl.store(tile_p, acc)
            tl.atomic_xchg(flags_ptr + pid, 1, sem="release")
        else:
            nxt = pid + 1
            covered = k_hi
            while covered < k_iters:
                while tl.atomic_cas(flags_ptr + nxt, 1, 1, sem="acquire") != 1:
                    pass
                acc += tl.load(partial_ptr + nxt * BM * BN + tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :])
                covered += iters_per_prog
                nxt += 1
            tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :], acc.to(c_ptr.dtype.element_ty),
                     mask=(rm[:, None] < M) & (rn[None, :] < N))
        it += k_hi - k_lo


@triton.jit
def work_queue_kernel(x_ptr, y_ptr, counter_ptr, done_ptr, n_items, item_len, BLOCK: tl.constexpr):
    # persistent programs take work items from a global counter until it runs out; the last one out resets it
    item = tl.atomic_add(counter_ptr, 1, sem="relaxed")
    while item < n_items:
        base = item.to(tl.int64) * item_len
        acc = tl.zeros([BLOCK], dtype=tl.float32)
        for j in range(0, item_len, BLOCK):
            offs = j + tl.arange(0, BLOCK)
            v = tl.load(x_ptr + base + offs, mask=offs < item_len, other=0.0)
            acc += v * v
        tl.store(y_ptr + item, tl.sqrt(tl.sum(acc, axis=0)))
        item = tl.atomic_add(counter_ptr, 1, sem="relaxed")
    finished = tl.atomic_add(done_ptr, 1, sem="acq_rel")
    if finished == tl.num_programs(0) - 1:
        tl.atomic_xchg(counter_ptr, 0)
        tl.atomic_xchg(done_ptr, 0)


@triton.jit
def selective_state_update_kernel(state_ptr, x_ptr, dt_ptr, dt_bias_ptr, A_ptr, B_ptr, C_ptr, D_ptr, z_ptr, out_ptr,
                                  dim, dstate, stride_sb, stride_sd, stride_xb, stride_bb, BLOCK_D: tl.constexpr,
                                  BLOCK_S: tl.constexpr, HAS_Z: tl.constexpr, SOFTPLUS: tl.constexpr):
    pid_d = tl.program_id(0)
    b = tl.program_id(1)
    rd = pid_d * BLOCK_D + tl.arange(0, BLOCK_D)
    rs = tl.arange(0, BLOCK_S)
    dm = rd < dim
    sm = rs < dstate
    s_ptrs = state_ptr + b * stride_sb + rd[:, None] * stride_sd + rs[None, :]
    state = tl.load(s_ptrs, mask=dm[:, None] & sm[None, :], other=0.0)
    x = tl.load(x_ptr + b * stride_xb + rd, mask=dm, other=0.0).to(tl.float32)
    dt = tl.load(dt_ptr + b * stride_xb + rd, mask=dm, other=0.0).to(tl.float32)
    dt = dt + tl.load(dt_bias_ptr + rd, mask=dm, other=0.0).to(tl.float32)
    if SOFTPLUS:
        dt = tl.where(dt <= 20.0, tl.log(1.0 + tl.exp(dt)), dt)
    A = tl.load(A_ptr + rd[:, None] * dstate + rs[None, :], mask=dm[:, None] & sm[None, :], other=0.0)
    Bv = tl.load(B_ptr + b * stride_bb + rs, mask=sm, other=0.0).to(tl.float32)
    Cv = tl.load(C_ptr + b * stride_bb + rs, mask=sm, other=0.0).to(tl.float32)
    dA = tl.exp(A * dt[:, None])
    dB = Bv[None, :] * dt[:, None]
    state = state * dA + dB * x[:, None]
    tl.store(s_ptrs, state, mask=dm[:, None] & sm[None, :])
    out = tl.sum(state * Cv[None, :], axis=1)
    out += x * tl.load(D_ptr + rd, mask=dm, other=0.0).to(tl.float32)
    if HAS_Z:
        z = tl.load(z_ptr + b * stride_xb + rd, mask=dm, other=0.0).to(tl.float32)
        out *= z * tl.sigmoid(z)
    tl.store(out_ptr + b * stride_xb + rd, out.to(out_ptr.dtype.element_ty), mask=dm)


@triton.jit
def causal_conv1d_kernel(x_ptr, w_ptr, bias_ptr, out_ptr, seqlen, dim, stride_xb, stride_xd,
                         BLOCK_L: tl.constexpr, BLOCK_D: tl.constexpr, WIDTH: tl.constexpr, SILU: tl.constexpr):
    pid_l = tl.program_id(0)
    pid_d = tl.program_id(1)
    b = tl.program_id(2)
    rl = pid_l * BLOCK_L + tl.arange(0, BLOCK_L)
    rd = pid_d * BLOCK_D + tl.arange(0, BLOCK_D)
    dm = rd < dim
    acc = tl.zeros([BLOCK_L, BLOCK_D], dtype=tl.float32)
    acc += tl.load(bias_ptr + rd, mask=dm, other=0.0).to(tl.float32)[None, :]
    for w in tl.static_range(WIDTH):
        src = rl - (WIDTH - 1) + w
        ok = (src >= 0) & (src < seqlen)
        xv = tl.load(x_ptr + b * stride_xb + rd[None, :] * stride_xd + src[:, None],
                     mask=ok[:, None] & dm[None, :], other=0.0).to(tl.float32)
        wv = tl.load(w_ptr + rd * WIDTH + w, mask=dm, other=0.0).to(tl.float32)
        acc += xv * wv[None, :]
    if SILU:
        acc = acc * tl.sigmoid(acc)
    tl.store(out_ptr + b * stride_xb + rd[None, :] * stride_xd + rl[:, None], acc.to(out_ptr.dtype.element_ty),
             mask=(rl[:, None] < seqlen) & dm[None, :])


@triton.jit
def tma_transpose_kernel(x_ptr, y_ptr, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    x_desc = tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N])
    y_desc = tl.make_tensor_descriptor(y_ptr, shape=[N, M], strides=[M, 1], block_shape=[BLOCK_N, BLOCK_M])
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    tile = x_desc.load([pid_m * BLOCK_M, pid_n * BLOCK_N])
    y_desc.store([pid_n * BLOCK_N, pid_m * BLOCK_M], tl.trans(tile))
