"""Fresh Triton programs (helper tconv34, stop 34): kernels whose sync view has a convergence region next to a
reduction's barriers and shuffles: persistent loops over tiles with a per-tile reduction published by an atomic
(max / add / min), row cumsum + quantisation, split-K matmuls adding partial tiles atomically, and masked loops."""
import triton
import triton.language as tl


@triton.jit
def persist_tile_max_atomic_kernel(x_ptr, out_ptr, n_elements, n_tiles, BLOCK: tl.constexpr, NUM_SMS: tl.constexpr):
    # every tile's max goes to one global slot with an atomic max
    pid = tl.program_id(0)
    for tile in range(pid, n_tiles, NUM_SMS):
        offs = tile * BLOCK + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n_elements, other=float("-inf")).to(tl.float32)
        tl.atomic_max(out_ptr, tl.max(x, axis=0))


@triton.jit
def persist_tile_sum_slot_kernel(x_ptr, out_ptr, n_elements, n_tiles, N_SLOTS: tl.constexpr, BLOCK: tl.constexpr,
                                 NUM_SMS: tl.constexpr):
    # per-tile sum added into one of N_SLOTS bins (tile % N_SLOTS)
    pid = tl.program_id(0)
    for tile in range(pid, n_tiles, NUM_SMS):
        offs = tile * BLOCK + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n_elements, other=0.0).to(tl.float32)
        tl.atomic_add(out_ptr + tile % N_SLOTS, tl.sum(x, axis=0))


@triton.jit
def persist_rows_minmax_atomic_kernel(x_ptr, min_ptr, max_ptr, n_rows, n_cols, stride, BLOCK: tl.constexpr,
                                      NUM_SMS: tl.constexpr):
    # persistent over rows; two reductions per row, two atomics per row (min and max of a global range)
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    cmask = cols < n_cols
    for row in range(pid, n_rows, NUM_SMS):
        x = tl.load(x_ptr + row * stride + cols, mask=cmask, other=0.0).to(tl.float32)
        tl.atomic_min(min_ptr, tl.min(tl.where(cmask, x, float("inf")), axis=0))
        tl.atomic_max(max_ptr, tl.max(tl.where(cmask, x, float("-inf")), axis=0))


@triton.jit
def persist_absmax_count_kernel(x_ptr, amax_ptr, cnt_ptr, n_elements, thresh, BLOCK: tl.constexpr,
                                NUM_SMS: tl.constexpr):
    # per-tile abs-max (atomic max) and count above a threshold (integer atomic add)
    pid = tl.program_id(0)
    n_tiles = tl.cdiv(n_elements, BLOCK)
    for tile in range(pid, n_tiles, NUM_SMS):
        offs = tile * BLOCK + tl.arange(0, BLOCK)
        x = tl.abs(tl.load(x_ptr + offs, mask=offs < n_elements, other=0.0).to(tl.float32))
        tl.atomic_max(amax_ptr, tl.max(x, axis=0))
        tl.atomic_add(cnt_ptr, tl.sum((x > thresh).to(tl.int32), axis=0))


@triton.jit
def cumsum_absmax_quant_kernel(x_ptr, q_ptr, scale_ptr, n_cols, stride, BLOCK: tl.constexpr):
    # inclusive scan, then a per-row scale from the scan's last element
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    c = tl.cumsum(x, axis=0)
    tot = tl.sum(tl.abs(x), axis=0)
    scale = tl.maximum(tot, 1e-6) / 127.0
    tl.store(q_ptr + row * stride + cols, tl.clamp(c / scale, -127.0, 127.0).to(tl.int8), mask=mask)
    tl.store(scale_ptr + row, scale)


@triton.jit
def cumsum_scale_fp16_kernel(x_ptr, y_ptr, n_cols, stride, scale, BLOCK: tl.constexpr):
    # cumsum times a scalar, stored back in the input type
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0)
    c = tl.cumsum(x.to(tl.float32), axis=0) * scale
    tl.store(y_ptr + row * stride + cols, c.to(x.dtype), mask=mask)


@triton.jit
def cumsum_exclusive_quant_kernel(x_ptr, q_ptr, n_cols, stride, BLOCK: tl.constexpr):
    # exclusive prefix sum (cumsum - x) quantised by the row maximum of the scan
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    c = tl.cumsum(x, axis=0) - x
    m = tl.max(tl.abs(c), axis=0)
    q = tl.extra.cuda.libdevice.rint(c * (127.0 / tl.maximum(m, 1e-8)))
    tl.store(q_ptr + row * stride + cols, q.to(tl.int8), mask=mask)


@triton.jit
def splitk_gemm_atomic_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                              BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                              SPLIT_K: tl.constexpr):
    # masked K loop, contiguous inner dimensions, partial tile added atomically
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    pid_k = tl.program_id(2)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = pid_k * BLOCK_K + tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * stride_bk + rn[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K * SPLIT_K)):
        kk = k * BLOCK_K * SPLIT_K + rk
        a = tl.load(a_ptrs, mask=(rm[:, None] < M) & (kk[None, :] < K), other=0.0)
        b = tl.load(b_ptrs, mask=(kk[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * SPLIT_K
        b_ptrs += BLOCK_K * SPLIT_K * stride_bk
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    tl.atomic_add(c_ptr + rm[:, None] * stride_cm + rn[None, :], acc, mask=mask)


@triton.jit
def splitk_gemv_atomic_kernel(a_ptr, x_ptr, y_ptr, M, K, stride_am, BLOCK_M: tl.constexpr, BLOCK_K: tl.constexpr,
                              SPLIT_K: tl.constexpr):
    # split-K matrix-vector product: a row reduction per tile, the partial sums added atomically
    pid_m = tl.program_id(0)
    pid_k = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    acc = tl.zeros((BLOCK_M,), dtype=tl.float32)
    for k0 in range(pid_k * BLOCK_K, K, BLOCK_K * SPLIT_K):
        rk = k0 + tl.arange(0, BLOCK_K)
        a = tl.load(a_ptr + rm[:, None] * stride_am + rk[None, :], mask=(rm[:, None] < M) & (rk[None, :] < K),
                    other=0.0)
        x = tl.load(x_ptr + rk, mask=rk < K, other=0.0)
        acc += tl.sum(a.to(tl.float32) * x.to(tl.float32)[None, :], axis=1)
    tl.atomic_add(y_ptr + rm, acc, mask=rm < M)


@triton.jit
def masked_loop_sumsq_kernel(x_ptr, out_ptr, n_cols, stride, BLOCK: tl.constexpr):
    # a masked loop over a row's columns, the row's sum of squares stored once
    row = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for c0 in range(0, n_cols, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * stride + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
        acc += x * x
    tl.store(out_ptr + row, tl.sum(acc, axis=0))


@triton.jit
def masked_loop_scale_store_kernel(x_ptr, y_ptr, amax_ptr, n_cols, stride, BLOCK: tl.constexpr):
    # first loop: row abs-max; second loop: masked scaled copy; the abs-max also goes out by atomic max
    row = tl.program_id(0)
    m = tl.zeros([BLOCK], dtype=tl.float32)
    for c0 in range(0, n_cols, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * stride + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
        m = tl.maximum(m, tl.abs(x))
    amax = tl.max(m, axis=0)
    tl.atomic_max(amax_ptr, amax)
    inv = 1.0 / tl.maximum(amax, 1e-12)
    for c0 in range(0, n_cols, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * stride + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
        tl.store(y_ptr + row * stride + cols, (x * inv).to(y_ptr.dtype.element_ty), mask=cols < n_cols)
