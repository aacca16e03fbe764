"""Fresh Triton programs (helper tatom35, stop 35): atomics with memory orders and scopes (relaxed / acquire /
release / acq_rel, cta / gpu / sys), 32- and 64-bit, fp16 / bf16 / fp32 / fp64 adds, masked and scalar atomics,
compare-and-swap, and persistent or split loops that end in an atomic."""
import triton
import triton.language as tl


@triton.jit
def hist_release_kernel(x_ptr, hist_ptr, n, N_BINS: tl.constexpr, BLOCK: tl.constexpr):
    # masked histogram: relaxed adds, then one release add of the block's count at gpu scope
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    b = x % N_BINS
    tl.atomic_add(hist_ptr + b, 1, mask=mask, sem="relaxed", scope="gpu")
    cnt = tl.sum(mask.to(tl.int32), axis=0)
    tl.atomic_add(hist_ptr + N_BINS, cnt, sem="release", scope="gpu")


@triton.jit
def minmax_acq_kernel(x_ptr, lo_ptr, hi_ptr, n, BLOCK: tl.constexpr):
    # element-wise masked acquire min then acq_rel max into two arrays, results kept
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    a = tl.atomic_min(lo_ptr + offs, x, mask=mask, sem="acquire", scope="cta")
    b = tl.atomic_max(hi_ptr + offs, x, mask=mask, sem="acq_rel", scope="gpu")
    tl.store(x_ptr + offs, a + b, mask=mask)


@triton.jit
def half_add_kernel(x_ptr, acc_ptr, n, SEM: tl.constexpr, BLOCK: tl.constexpr):
    # fp16 / bf16 / fp64 atomic add under one memory order, masked, then a scalar add of the block's sum
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.atomic_add(acc_ptr + offs, x, mask=mask, sem=SEM)
    s = tl.sum(x.to(tl.float32), axis=0)
    tl.atomic_add(acc_ptr + n + pid, s.to(x.dtype), sem=SEM)


@triton.jit
def bits_xchg_kernel(flags_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # 64-bit or / and / xchg on a flag word per element, masked
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    bit = (offs % 64).to(tl.int64)
    one = tl.full([BLOCK], 1, tl.int64)
    o = tl.atomic_or(flags_ptr + offs // 64, one << bit, mask=mask, sem="relaxed")
    a = tl.atomic_and(flags_ptr + n + offs // 64, ~(one << bit), mask=mask, sem="acq_rel", scope="cta")
    x = tl.atomic_xchg(out_ptr + offs, o ^ a, mask=mask, sem="release")
    tl.store(out_ptr + n + offs, x, mask=mask)


@triton.jit
def cas_claim_kernel(slot_ptr, owner_ptr, n, BLOCK: tl.constexpr):
    # each element claims a slot with a compare-and-swap (0 -> id); the winner count goes out with a release add
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    ids = offs + 1
    old = tl.atomic_cas(slot_ptr + offs % 97, tl.zeros([BLOCK], tl.int32), ids, sem="acq_rel", scope="gpu")
    won = (old == 0) & mask
    tl.store(owner_ptr + offs, old, mask=mask)
    tl.atomic_add(owner_ptr + n, tl.sum(won.to(tl.int32), axis=0), sem="release")


@triton.jit
def persist_rowsum_atomic_kernel(x_ptr, out_ptr, n_rows, n_cols, stride, BLOCK: tl.constexpr, NUM_SMS: tl.constexpr):
    # persistent over rows: row sum added into a per-row slot and the total into out[n_rows]
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    cmask = cols < n_cols
    for row in range(pid, n_rows, NUM_SMS):
        x = tl.load(x_ptr + row * stride + cols, mask=cmask, other=0.0).to(tl.float32)
        s = tl.sum(x, axis=0)
        tl.atomic_add(out_ptr + row, s, sem="relaxed")
        tl.atomic_add(out_ptr + n_rows, s, sem="release", scope="gpu")


@triton.jit
def persist_i64_max_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr, NUM_SMS: tl.constexpr):
    # persistent tiles: 64-bit max of each tile into one slot, then a count of tiles
    pid = tl.program_id(0)
    n_tiles = tl.cdiv(n_elements, BLOCK)
    for tile in range(pid, n_tiles, NUM_SMS):
        offs = tile * BLOCK + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n_elements, other=-(2**62))
        tl.atomic_max(out_ptr, tl.max(x, axis=0), sem="acq_rel", scope="gpu")
        tl.atomic_add(out_ptr + 1, 1, sem="relaxed")


@triton.jit
def work_steal_kernel(counter_ptr, x_ptr, y_ptr, n_items, BLOCK: tl.constexpr):
    # a work queue: take the next item with an atomic add until the queue is empty
    item = tl.atomic_add(counter_ptr, 1)
    while item < n_items:
        offs = item * BLOCK + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs)
        tl.store(y_ptr + offs, x * 2.0)
        item = tl.atomic_add(counter_ptr, 1)


@triton.jit
def splitk_dot_atomic_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm, BLOCK_M: tl.constexpr,
                             BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, SPLIT_K: tl.constexpr):
    # split-K matmul: each program adds its partial tile with a masked atomic add
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
        a = tl.load(a_ptr + rm[:, None] * stride_am + kk[None, :], mask=(rm[:, None] < M) & (kk[None, :] < K),
                    other=0.0)
        b = tl.load(b_ptr + kk[:, None] * stride_bk + rn[None, :], mask=(kk[:, None] < K) & (rn[None, :] < N),
                    other=0.0)
        acc += tl.dot(a, b)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    tl.atomic_add(c_ptr + rm[:, None] * stride_cm + rn[None, :], acc, mask=mask, sem="relaxed")
