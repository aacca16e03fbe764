"""Fresh Triton programs (helper tatom36, stop 36): work queues, tickets and locks built from atomic_add /
atomic_cas / atomic_xchg whose results are used later, split-K with a per-tile lock, stream compaction with an
atomic output offset, semaphore-style counters."""
import triton
import triton.language as tl


@triton.jit
def ticket_queue_kernel(ticket_ptr, x_ptr, y_ptr, n_tiles, BLOCK: tl.constexpr):
    # a ticket from a global counter picks the tile (not the program id); done when tickets run out
    t = tl.atomic_add(ticket_ptr, 1, sem="relaxed")
    if t < n_tiles:
        offs = t * BLOCK + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs)
        tl.store(y_ptr + offs, x * x + 1.0)


@triton.jit
def queue_loop_sum_kernel(counter_ptr, x_ptr, out_ptr, n_rows, n_cols, BLOCK: tl.constexpr):
    # a work queue of rows: grab a row, sum it, write the sum, grab the next
    row = tl.atomic_add(counter_ptr, 1, sem="acq_rel", scope="gpu")
    while row < n_rows:
        cols = tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=0.0)
        tl.store(out_ptr + row, tl.sum(x, axis=0))
        row = tl.atomic_add(counter_ptr, 1, sem="acq_rel", scope="gpu")


@triton.jit
def spin_lock_add_kernel(lock_ptr, acc_ptr, x_ptr, n, BLOCK: tl.constexpr):
    # take a lock with atomic_cas, add the block's partial sum under it, release with atomic_xchg
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    s = tl.sum(tl.load(x_ptr + offs, mask=offs < n, other=0.0), axis=0)
    while tl.atomic_cas(lock_ptr, 0, 1) == 1:
        pass
    tl.store(acc_ptr, tl.load(acc_ptr) + s)
    tl.atomic_xchg(lock_ptr, 0)


@triton.jit
def splitk_lock_kernel(a_ptr, b_ptr, c_ptr, lock_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, SPLIT_K: tl.constexpr):
    # split-K GEMM: the tile's partial sums are added under a per-tile lock (cas / xchg)
    pid = tl.program_id(0)
    pid_k = tl.program_id(1)
    grid_n = tl.cdiv(N, BLOCK_N)
    pm = pid // grid_n
    pn = pid % grid_n
    rm = pm * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pn * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = pid_k * BLOCK_K + tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K * SPLIT_K)):
        kk = rk + k * BLOCK_K * SPLIT_K
        a = tl.load(a_ptr + rm[:, None] * stride_am + kk[None, :], mask=kk[None, :] < K, other=0.0)
        b = tl.load(b_ptr + kk[:, None] * stride_bk + rn[None, :], mask=kk[:, None] < K, other=0.0)
        acc += tl.dot(a, b)
    c_ptrs = c_ptr + rm[:, None] * stride_cm + rn[None, :]
    cmask = (rm[:, None] < M) & (rn[None, :] < N)
    lk = lock_ptr + pid
    while tl.atomic_cas(lk, 0, 1) == 1:
        pass
    c = tl.load(c_ptrs, mask=cmask, other=0.0)
    tl.store(c_ptrs, c + acc, mask=cmask)
    tl.atomic_xchg(lk, 0)


@triton.jit
def compact_offset_kernel(x_ptr, out_ptr, count_ptr, n, thresh, BLOCK: tl.constexpr):
    # stream compaction: the block reserves its output range with one atomic add of its count
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    keep = (x > thresh) & (offs < n)
    k = keep.to(tl.int32)
    pos = tl.cumsum(k, axis=0) - k
    base = tl.atomic_add(count_ptr, tl.sum(k, axis=0))
    tl.store(out_ptr + base + pos, x, mask=keep)


@triton.jit
def splitk_gemv_sem_kernel(a_ptr, x_ptr, y_ptr, done_ptr, M, K, stride_am, BLOCK_M: tl.constexpr,
                           BLOCK_K: tl.constexpr, SPLIT_K: tl.constexpr):
    # split-K GEMV: masked fp32 atomic adds, then a counter; the last split (by the counter) scales the rows
    pid_m = tl.program_id(0)
    pid_k = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rk = pid_k * BLOCK_K + tl.arange(0, BLOCK_K)
    a = tl.load(a_ptr + rm[:, None] * stride_am + rk[None, :], mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
    x = tl.load(x_ptr + rk, mask=rk < K, other=0.0)
    part = tl.sum(a.to(tl.float32) * x[None, :].to(tl.float32), axis=1)
    tl.atomic_add(y_ptr + rm, part, mask=rm < M, sem="relaxed")
    prev = tl.atomic_add(done_ptr + pid_m, 1, sem="acq_rel")
    if prev == SPLIT_K - 1:
        y = tl.load(y_ptr + rm, mask=rm < M, other=0.0)
        tl.store(y_ptr + rm, y * 0.5, mask=rm < M)


@triton.jit
def i64_counter_kernel(x_ptr, cnt_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # 64-bit counters: masked max and add returning old values, both used afterwards
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    old_max = tl.atomic_max(cnt_ptr + (offs % 16), x, mask=mask, sem="relaxed", scope="gpu")
    old_add = tl.atomic_add(cnt_ptr + 16 + (offs % 16), x, mask=mask, sem="acq_rel", scope="cta")
    tl.store(out_ptr + offs, old_max + old_add, mask=mask)


@triton.jit
def stream_k_tail_kernel(a_ptr, b_ptr, c_ptr, flag_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                         BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, ITERS: tl.constexpr):
    # stream-K tail: each program does ITERS K steps of one tile, masked atomic adds of the tile, then
    # raises the tile's flag with a release add
    pid = tl.program_id(0)
    tile = pid // 2
    part = pid % 2
    grid_n = tl.cdiv(N, BLOCK_N)
    pm = tile // grid_n
    pn = tile % grid_n
    rm = pm * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pn * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for i in range(0, ITERS):
        rk = (part * ITERS + i) * BLOCK_K + tl.arange(0, BLOCK_K)
        a = tl.load(a_ptr + rm[:, None] * stride_am + rk[None, :], mask=rk[None, :] < K, other=0.0)
        b = tl.load(b_ptr + rk[:, None] * stride_bk + rn[None, :], mask=rk[:, None] < K, other=0.0)
        acc += tl.dot(a, b)
    cmask = (rm[:, None] < M) & (rn[None, :] < N)
    tl.atomic_add(c_ptr + rm[:, None] * stride_cm + rn[None, :], acc, mask=cmask, sem="relaxed")
    tl.atomic_add(flag_ptr + tile, 1, sem="release")


@triton.jit
def semaphore_wait_kernel(sem_ptr, x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    # wait until the previous block has signalled (acquire spin on an atomic read), then do work and signal
    pid = tl.program_id(0)
    if pid > 0:
        while tl.atomic_add(sem_ptr + pid - 1, 0, sem="acquire") == 0:
            pass
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(y_ptr + offs, x + 1.0, mask=offs < n)
    tl.atomic_xchg(sem_ptr + pid, 1, sem="release")
