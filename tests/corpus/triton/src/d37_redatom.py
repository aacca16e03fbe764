"""Fresh Triton reduce-then-atomic kernels (helper tpers37, stop 37), written as kernel authors write them: a
persistent loop of tile sums added to one counter, a persistent int max with a relaxed atomic, a 2-D tile's row
sums reduced again and added, a tile min guarded by a store of the scalar, a non-persistent block sum with an
acq_rel atomic whose old value is stored, a persistent count of positives, and a persistent loop whose tile max is
written by a guarded store (no atomic)."""
import triton
import triton.language as tl


@triton.jit
def persist_sum_add_kernel(x_ptr, out_ptr, n, n_tiles, BLOCK: tl.constexpr, NUM_SMS: tl.constexpr):
    pid = tl.program_id(0)
    for t in range(pid, n_tiles, NUM_SMS):
        offs = t * BLOCK + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
        tl.atomic_add(out_ptr, tl.sum(x, axis=0))


@triton.jit
def persist_int_max_relaxed_kernel(x_ptr, out_ptr, n, n_tiles, BLOCK: tl.constexpr, NUM_SMS: tl.constexpr):
    pid = tl.program_id(0)
    for t in range(pid, n_tiles, NUM_SMS):
        offs = t * BLOCK + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n, other=-2147483647)
        tl.atomic_max(out_ptr, tl.max(x, axis=0), sem="relaxed")


@triton.jit
def tile2d_sum_atomic_kernel(x_ptr, out_ptr, n_rows, n_cols, stride, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_R + tl.arange(0, BLOCK_R)[:, None]
    cols = tl.arange(0, BLOCK_C)[None, :]
    x = tl.load(x_ptr + rows * stride + cols, mask=(rows < n_rows) & (cols < n_cols), other=0.0).to(tl.float32)
    tl.atomic_add(out_ptr, tl.sum(tl.sum(x * x, axis=1), axis=0))


@triton.jit
def block_min_store_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=float("inf")).to(tl.float32)
    m = tl.min(x, axis=0)
    tl.store(out_ptr + pid, m)


@triton.jit
def block_sum_ticket_kernel(x_ptr, out_ptr, old_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    old = tl.atomic_add(out_ptr, tl.sum(x, axis=0), sem="acq_rel")
    tl.store(old_ptr + pid, old)


@triton.jit
def persist_count_pos_kernel(x_ptr, cnt_ptr, n, n_tiles, BLOCK: tl.constexpr, NUM_SMS: tl.constexpr):
    pid = tl.program_id(0)
    for t in range(pid, n_tiles, NUM_SMS):
        offs = t * BLOCK + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
        tl.atomic_add(cnt_ptr, tl.sum((x > 0).to(tl.int32), axis=0))


@triton.jit
def persist_tile_max_store_kernel(x_ptr, out_ptr, n, n_tiles, BLOCK: tl.constexpr, NUM_SMS: tl.constexpr):
    pid = tl.program_id(0)
    for t in range(pid, n_tiles, NUM_SMS):
        offs = t * BLOCK + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n, other=float("-inf"))
        tl.store(out_ptr + t, tl.max(x, axis=0))
