"""Check kernels for the run-closing barrier rule (helper tredux38, stop 38; written after the rule, not looked at
while writing it): another author's style -- tl.range loops with a step, 2-D tiles reduced with axis=None,
differences of two loaded arrays, a static_range of bucket counts, per-program slots."""
import triton
import triton.language as tl


@triton.jit
def check_persist_mask_count_kernel(a_ptr, b_ptr, slot_ptr, n, n_tiles, BLOCK: tl.constexpr, NUM_SMS: tl.constexpr):
    start = tl.program_id(0)
    for tile in tl.range(start, n_tiles, NUM_SMS):
        idx = tile * BLOCK + tl.arange(0, BLOCK)
        ok = idx < n
        a = tl.load(a_ptr + idx, mask=ok, other=0)
        b = tl.load(b_ptr + idx, mask=ok, other=0)
        agree = ((a == b) & ok).to(tl.int32)
        tl.atomic_add(slot_ptr + start, tl.sum(agree), sem="relaxed")


@triton.jit
def check_tile2d_int_max_kernel(x_ptr, out_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    pid_m = tl.program_id(0)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    msk = (rm[:, None] < M) & (rn[None, :] < N)
    v = tl.load(x_ptr + rm[:, None] * N + rn[None, :], mask=msk, other=-2147483648)
    tl.atomic_max(out_ptr, tl.max(v))


@triton.jit
def check_diff_min_kernel(a_ptr, b_ptr, out_ptr, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    a = tl.load(a_ptr + i, mask=i < n, other=0)
    b = tl.load(b_ptr + i, mask=i < n, other=0)
    d = tl.where(i < n, a - b, 2147483647)
    tl.atomic_min(out_ptr + tl.program_id(0) % 4, tl.min(d, axis=0))


@triton.jit
def check_persist_tile_max_kernel(x_ptr, out_ptr, n, n_tiles, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    t = pid
    while t < n_tiles:
        offs = t * BLOCK + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n, other=0)
        tl.atomic_max(out_ptr, tl.max(tl.abs(x), axis=0))
        t += nprog
