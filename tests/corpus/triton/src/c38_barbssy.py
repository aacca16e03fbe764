"""Fresh Triton programs (helper tbar38, stop 38): guarded atomics and masked stores next to CTA barriers (layout
exchanges, block reductions stored under a guard, split-K epilogues with atomics, atomics with semantics/scopes)."""
import triton
import triton.language as tl


@triton.jit
def col_sum_atomic_kernel(x_ptr, out_ptr, n_rows, n_cols, stride, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    # a 2-D tile summed over rows (layout conversion), the column sums added with a masked atomic
    pid_r = tl.program_id(0)
    pid_c = tl.program_id(1)
    rows = pid_r * BLOCK_R + tl.arange(0, BLOCK_R)
    cols = pid_c * BLOCK_C + tl.arange(0, BLOCK_C)
    m = (rows < n_rows)[:, None] & (cols < n_cols)[None, :]
    x = tl.load(x_ptr + rows[:, None] * stride + cols[None, :], mask=m, other=0.0).to(tl.float32)
    s = tl.sum(x, axis=0)
    tl.atomic_add(out_ptr + cols, s, mask=cols < n_cols)


@triton.jit
def row_max_guarded_store_kernel(x_ptr, out_ptr, flag_ptr, n_cols, stride, thresh, BLOCK: tl.constexpr):
    # a row max stored only when it passes a threshold; the flag counted with an atomic
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * stride + cols, mask=cols < n_cols, other=float("-inf")).to(tl.float32)
    mx = tl.max(x, axis=0)
    if mx > thresh:
        tl.store(out_ptr + row, mx)
        tl.atomic_add(flag_ptr, 1)


@triton.jit
def transpose_add_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    # y[j, i] += x[i, j] on a square tile: the transposed tile goes through shared memory, masked atomics after
    pid_i = tl.program_id(0)
    pid_j = tl.program_id(1)
    i = pid_i * BLOCK + tl.arange(0, BLOCK)
    j = pid_j * BLOCK + tl.arange(0, BLOCK)
    m = (i < n)[:, None] & (j < n)[None, :]
    x = tl.load(x_ptr + i[:, None] * n + j[None, :], mask=m, other=0.0)
    xt = tl.trans(x)
    mt = (j < n)[:, None] & (i < n)[None, :]
    tl.atomic_add(y_ptr + j[:, None] * n + i[None, :], xt, mask=mt, sem="relaxed")


@triton.jit
def splitk_gemm_add_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                           BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                           SPLIT_K: tl.constexpr):
    # split-K: each program accumulates a K slice and adds its tile into C with masked atomics
    pid = tl.program_id(0)
    pid_k = tl.program_id(1)
    nb_n = tl.cdiv(N, BLOCK_N)
    pm = pid // nb_n
    pn = pid % nb_n
    rm = pm * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pn * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = pid_k * BLOCK_K + tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K * SPLIT_K)):
        kk = k * BLOCK_K * SPLIT_K + rk
        a = tl.load(a_ptr + rm[:, None] * stride_am + kk[None, :], mask=(rm[:, None] < M) & (kk[None, :] < K),
                    other=0.0)
        b = tl.load(b_ptr + kk[:, None] * stride_bk + rn[None, :], mask=(kk[:, None] < K) & (rn[None, :] < N),
                    other=0.0)
        acc += tl.dot(a, b)
    cm = (rm[:, None] < M) & (rn[None, :] < N)
    tl.atomic_add(c_ptr + rm[:, None] * stride_cm + rn[None, :], acc, mask=cm)


@triton.jit
def block_minmax_atomic_kernel(x_ptr, min_ptr, max_ptr, n, BLOCK: tl.constexpr):
    # one block's min and max, each published with a scalar atomic (sem and scope varied)
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0)
    tl.atomic_min(min_ptr, tl.min(x, axis=0), sem="release", scope="gpu")
    tl.atomic_max(max_ptr, tl.max(x, axis=0), sem="acq_rel", scope="cta")


@triton.jit
def softmax_store_masked_kernel(x_ptr, y_ptr, lse_ptr, n_cols, stride, BLOCK: tl.constexpr):
    # row softmax; the row's log-sum-exp stored by a guarded scalar store after the two reductions
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=m, other=float("-inf")).to(tl.float32)
    mx = tl.max(x, axis=0)
    e = tl.exp(x - mx)
    s = tl.sum(e, axis=0)
    tl.store(y_ptr + row * stride + cols, e / s, mask=m)
    tl.store(lse_ptr + row, mx + tl.log(s))


@triton.jit
def gather_scatter_add_kernel(src_ptr, idx_ptr, dst_ptr, n, dim, BLOCK_N: tl.constexpr, BLOCK_D: tl.constexpr):
    # rows gathered by index and reduced over the tile's rows before one masked atomic per column
    pid = tl.program_id(0)
    r = pid * BLOCK_N + tl.arange(0, BLOCK_N)
    d = tl.arange(0, BLOCK_D)
    rm = r < n
    idx = tl.load(idx_ptr + r, mask=rm, other=0)
    v = tl.load(src_ptr + idx[:, None] * dim + d[None, :], mask=rm[:, None] & (d < dim)[None, :], other=0.0)
    tot = tl.sum(v.to(tl.float32), axis=0)
    tl.atomic_add(dst_ptr + d, tot, mask=d < dim, sem="relaxed", scope="gpu")


@triton.jit
def xchg_ticket_kernel(x_ptr, sum_ptr, ticket_ptr, last_ptr, n, BLOCK: tl.constexpr):
    # a block sum added atomically, then a ticket taken; the last block records itself
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.atomic_add(sum_ptr, tl.sum(x, axis=0), sem="release")
    t = tl.atomic_add(ticket_ptr, 1, sem="acq_rel")
    if t == tl.num_programs(0) - 1:
        tl.atomic_xchg(last_ptr, pid)
