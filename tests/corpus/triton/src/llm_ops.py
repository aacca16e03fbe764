"""Kernels of the kind found in LLM training/inference code built on Triton: rotary embedding, fused cross
entropy over a large vocabulary, per-token int8 quantisation, MoE token alignment (atomics + scan), a paged
decode-attention step and tl.gather."""
import triton
import triton.language as tl


@triton.jit
def rope_kernel(q_ptr, cos_ptr, sin_ptr, seq_len, stride_tok, stride_head, n_heads, HALF_DIM: tl.constexpr,
                BLOCK_H: tl.constexpr):
    # rotate the two halves of every head of one token
    tok = tl.program_id(0)
    pos = tok % seq_len
    d = tl.arange(0, HALF_DIM)
    h = tl.arange(0, BLOCK_H)
    hmask = h < n_heads
    cos = tl.load(cos_ptr + pos * HALF_DIM + d).to(tl.float32)
    sin = tl.load(sin_ptr + pos * HALF_DIM + d).to(tl.float32)
    base = q_ptr + tok * stride_tok + h[:, None] * stride_head
    x1 = tl.load(base + d[None, :], mask=hmask[:, None], other=0.0).to(tl.float32)
    x2 = tl.load(base + HALF_DIM + d[None, :], mask=hmask[:, None], other=0.0).to(tl.float32)
    y1 = x1 * cos[None, :] - x2 * sin[None, :]
    y2 = x2 * cos[None, :] + x1 * sin[None, :]
    tl.store(base + d[None, :], y1.to(q_ptr.dtype.element_ty), mask=hmask[:, None])
    tl.store(base + HALF_DIM + d[None, :], y2.to(q_ptr.dtype.element_ty), mask=hmask[:, None])


@triton.jit
def cross_entropy_fwd_bwd_kernel(logits_ptr, labels_ptr, loss_ptr, stride, n_cols, ignore_index,
                                 BLOCK_SIZE: tl.constexpr):
    # online logsumexp over the vocabulary, loss per row, gradient written in place of the logits
    row = tl.program_id(0).to(tl.int64)
    logits_ptr += row * stride
    label = tl.load(labels_ptr + row)
    if label == ignore_index:
        for off in range(0, n_cols, BLOCK_SIZE):
            cols = off + tl.arange(0, BLOCK_SIZE)
            tl.store(logits_ptr + cols, 0.0, mask=cols < n_cols)
        return
    m = float("-inf")
    d = 0.0
    for off in range(0, n_cols, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(logits_ptr + cols, mask=cols < n_cols, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, axis=0))
        d = d * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
    lse = m + tl.log(d)
    x_label = tl.load(logits_ptr + label).to(tl.float32)
    for off in range(0, n_cols, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < n_cols
        x = tl.load(logits_ptr + cols, mask=mask, other=float("-inf")).to(tl.float32)
        g = tl.exp(x - lse) - tl.where(cols == label, 1.0, 0.0)
        tl.store(logits_ptr + cols, g.to(logits_ptr.dtype.element_ty), mask=mask)
    tl.store(loss_ptr + row, lse - x_label)


@triton.jit
def quant_int8_rowwise_kernel(x_ptr, q_ptr, scale_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    absmax = tl.maximum(tl.max(tl.abs(x), axis=0), 1e-10)
    scale = absmax / 127.0
    q = tl.extra.cuda.libdevice.round(x / scale)
    tl.store(q_ptr + row * stride + cols, q.to(tl.int8), mask=mask)
    tl.store(scale_ptr + row, scale)


@triton.jit
def moe_align_count_kernel(topk_ids_ptr, counts_ptr, numel, NUM_EXPERTS: tl.constexpr, BLOCK: tl.constexpr):
    # stage 1: count tokens per expert with relaxed atomics
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < numel
    e = tl.load(topk_ids_ptr + offs, mask=mask, other=0)
    tl.atomic_add(counts_ptr + e, 1, mask=mask, sem="relaxed")


@triton.jit
def moe_align_scatter_kernel(topk_ids_ptr, counts_ptr, cursor_ptr, sorted_ids_ptr, expert_ids_ptr, numel,
                             NUM_EXPERTS: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK: tl.constexpr):
    # stage 2: padded exclusive scan of the counts, then each token claims a slot with an atomic add
    experts = tl.arange(0, NUM_EXPERTS)
    counts = tl.load(counts_ptr + experts)
    padded = tl.cdiv(counts, BLOCK_M) * BLOCK_M
    starts = tl.cumsum(padded, axis=0) - padded
    if tl.program_id(0) == 0:
        tl.store(expert_ids_ptr + experts, starts // BLOCK_M)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < numel
    e = tl.load(topk_ids_ptr + offs, mask=mask, other=0)
    slot = tl.atomic_add(cursor_ptr + e, 1, mask=mask, sem="relaxed")
    start = tl.gather(starts, e, axis=0)
    tl.store(sorted_ids_ptr + start + slot, offs, mask=mask)


@triton.jit
def paged_decode_attention_kernel(out_ptr, q_ptr, k_cache_ptr, v_cache_ptr, block_tables_ptr, seq_lens_ptr,
                                  scale, stride_bt, stride_kb, stride_kt, max_blocks, HEAD_DIM: tl.constexpr,
                                  PAGE: tl.constexpr):
    # one query token of one head against a paged KV cache (block table indirection, data-dependent trip count)
    seq = tl.program_id(0)
    head = tl.program_id(1)
    n_heads = tl.num_programs(1)
    seq_len = tl.load(seq_lens_ptr + seq)
    d = tl.arange(0, HEAD_DIM)
    t = tl.arange(0, PAGE)
    q = tl.load(q_ptr + (seq * n_heads + head) * HEAD_DIM + d).to(tl.float32)
    m = float("-inf")
    l = 0.0
    acc = tl.zeros([HEAD_DIM], dtype=tl.float32)
    n_pages = tl.cdiv(seq_len, PAGE)
    for p in range(0, n_pages):
        blk = tl.load(block_tables_ptr + seq * stride_bt + p)
        tmask = p * PAGE + t < seq_len
        kv_off = blk.to(tl.int64) * stride_kb + head * HEAD_DIM + t[:, None] * stride_kt + d[None, :]
        k = tl.load(k_cache_ptr + kv_off, mask=tmask[:, None], other=0.0).to(tl.float32)
        s = tl.sum(k * q[None, :], axis=1) * scale
        s = tl.where(tmask, s, float("-inf"))
        m_new = tl.maximum(m, tl.max(s, axis=0))
        pexp = tl.exp(s - m_new)
        alpha = tl.exp(m - m_new)
        v = tl.load(v_cache_ptr + kv_off, mask=tmask[:, None], other=0.0).to(tl.float32)
        acc = acc * alpha + tl.sum(pexp[:, None] * v, axis=0)
        l = l * alpha + tl.sum(pexp, axis=0)
        m = m_new
    tl.store(out_ptr + (seq * n_heads + head) * HEAD_DIM + d, (acc / l).to(out_ptr.dtype.element_ty))
