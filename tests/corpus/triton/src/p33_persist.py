"""Fresh Triton programs (helper tpersist33, stop 33): persistent kernels that loop over tiles with a stride of the
grid (`for tile in range(pid, n_tiles, NUM_SMS)`) and reduce each tile (abs-max, max, sum) before a scale or a
store, row cumsum + quantisation kernels, and split-K matmuls that add partial tiles atomically."""
import triton
import triton.language as tl


@triton.jit
def persistent_absmax_kernel(x_ptr, amax_ptr, n_elements, n_tiles, BLOCK: tl.constexpr, NUM_SMS: tl.constexpr):
    pid = tl.program_id(0)
    for tile in range(pid, n_tiles, NUM_SMS):
        offs = tile * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n_elements
        x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        amax = tl.max(tl.abs(x), axis=0)
        tl.store(amax_ptr + tile, amax)


@triton.jit
def persistent_absmax_scale_kernel(x_ptr, y_ptr, scale_ptr, n_tiles, BLOCK: tl.constexpr, NUM_SMS: tl.constexpr):
    # unmasked tiles: n_elements == n_tiles * BLOCK; quantise each tile by its own abs-max
    pid = tl.program_id(0)
    for tile in range(pid, n_tiles, NUM_SMS):
        offs = tile * BLOCK + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs).to(tl.float32)
        amax = tl.maximum(tl.max(tl.abs(x), axis=0), 1e-12)
        scale = amax / 127.0
        q = tl.extra.cuda.libdevice.rint(x / scale)
        tl.store(y_ptr + offs, q.to(tl.int8))
        tl.store(scale_ptr + tile, scale)


@triton.jit
def persistent_global_absmax_kernel(x_ptr, amax_ptr, n_elements, BLOCK: tl.constexpr, NUM_SMS: tl.constexpr):
    # one running abs-max over all this program's tiles, published once with an atomic max
    pid = tl.program_id(0)
    n_tiles = tl.cdiv(n_elements, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for tile in range(pid, n_tiles, NUM_SMS):
        offs = tile * BLOCK + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n_elements, other=0.0)
        acc = tl.maximum(acc, tl.abs(x.to(tl.float32)))
    tl.atomic_max(amax_ptr, tl.max(acc, axis=0))


@triton.jit
def persistent_tile_sum_atomic_kernel(x_ptr, out_ptr, n_elements, n_tiles, BLOCK: tl.constexpr,
                                      NUM_SMS: tl.constexpr):
    pid = tl.program_id(0)
    for tile in range(pid, n_tiles, NUM_SMS):
        offs = tile * BLOCK + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n_elements, other=0.0).to(tl.float32)
        tl.atomic_add(out_ptr, tl.sum(x * x, axis=0))


@triton.jit
def persistent_row_amax_kernel(x_ptr, amax_ptr, n_rows, n_cols, stride, BLOCK: tl.constexpr, NUM_SMS: tl.constexpr):
    # persistent over rows, 2-D tiles of one row each: the per-row abs-max goes out through the row's index
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    cmask = cols < n_cols
    for row in range(pid, n_rows, NUM_SMS):
        x = tl.load(x_ptr + row * stride + cols, mask=cmask, other=0.0)
        m = tl.max(tl.abs(x), axis=0)
        tl.store(amax_ptr + row, m.to(tl.float32))


@triton.jit
def tile_absmax_atomic_kernel(x_ptr, amax_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n_elements, other=0.0).to(tl.float32)
    tl.atomic_max(amax_ptr, tl.max(tl.abs(x), axis=0))


@triton.jit
def row_cumsum_quant_kernel(x_ptr, q_ptr, scale_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    c = tl.cumsum(x, axis=0)
    amax = tl.max(tl.abs(c), axis=0)
    scale = tl.maximum(amax, 1e-8) / 127.0
    q = tl.clamp(c / scale, -127.0, 127.0)
    tl.store(q_ptr + row * stride + cols, q.to(tl.int8), mask=mask)
    tl.store(scale_ptr + row, scale)


@triton.jit
def row_cumsum_fixed_scale_kernel(x_ptr, q_ptr, n_cols, stride, inv_scale, BLOCK: tl.constexpr):
    # cumsum with no reduction after it: quantised by a given scale
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    c = tl.cumsum(x, axis=0)
    q = tl.clamp(c * inv_scale, -127.0, 127.0)
    tl.store(q_ptr + row * stride + cols, q.to(tl.int8), mask=mask)


@triton.jit
def row_cumsum_total_quant_kernel(x_ptr, q_ptr, total_ptr, n_cols, stride, BLOCK: tl.constexpr):
    # cumsum, then the row's total (a sum) and abs-max: two reductions after the scan
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    c = tl.cumsum(x, axis=0)
    total = tl.sum(x, axis=0)
    amax = tl.max(tl.where(mask, tl.abs(c), 0.0), axis=0)
    q = (c * (127.0 / tl.maximum(amax, 1e-6))).to(tl.int8)
    tl.store(q_ptr + row * stride + cols, q, mask=mask)
    tl.store(total_ptr + row, total)


@triton.jit
def matmul_splitk_atomic_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                                stride_cm, stride_cn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                                BLOCK_K: tl.constexpr, SPLIT_K: tl.constexpr):
    pid = tl.program_id(0)
    pid_k = tl.program_id(1)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    pid_m = pid // num_pid_n
    pid_n = pid % num_pid_n
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = pid_k * BLOCK_K + tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K * SPLIT_K)):
        k_remaining = K - k * BLOCK_K * SPLIT_K
        a = tl.load(a_ptrs, mask=offs_k[None, :] < k_remaining - pid_k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < k_remaining - pid_k * BLOCK_K, other=0.0)
        acc += tl.dot(a, b)
        a_ptrs += BLOCK_K * SPLIT_K * stride_ak
        b_ptrs += BLOCK_K * SPLIT_K * stride_bk
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    cmask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    tl.atomic_add(c_ptrs, acc, mask=cmask)


@triton.jit
def matmul_splitk_bias_kernel(a_ptr, b_ptr, bias_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                              BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                              SPLIT_K: tl.constexpr):
    # unmasked K loop (K % (BLOCK_K * SPLIT_K) == 0), the bias added by split 0 only
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    pid_k = tl.program_id(2)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = pid_k * BLOCK_K + tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * stride_bk + rn[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for _ in range(0, K, BLOCK_K * SPLIT_K):
        acc += tl.dot(tl.load(a_ptrs), tl.load(b_ptrs))
        a_ptrs += BLOCK_K * SPLIT_K
        b_ptrs += BLOCK_K * SPLIT_K * stride_bk
    if pid_k == 0:
        acc += tl.load(bias_ptr + rn)[None, :].to(tl.float32)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    tl.atomic_add(c_ptr + rm[:, None] * stride_cm + rn[None, :], acc, mask=mask)
