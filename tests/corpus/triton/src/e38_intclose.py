"""Fresh Triton integer block reductions closed by a barrier before a guarded atomic (helper tredux38, stop 38),
written as kernel authors write them: a persistent loop counting values above a threshold into a global counter,
a persistent int max per tile with atomic_max, a block histogram-style count of one bucket, a block int min
with atomic_min, the argmax index of a block (int index part), a row int sum of a 2-D tile added once, and a
persistent xor checksum."""
import triton
import triton.language as tl


@triton.jit
def persist_count_above_kernel(x_ptr, cnt_ptr, thresh, n, n_tiles, BLOCK: tl.constexpr, NUM_SMS: tl.constexpr):
    pid = tl.program_id(0)
    for t in range(pid, n_tiles, NUM_SMS):
        offs = t * BLOCK + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
        c = tl.sum((x > thresh).to(tl.int32), axis=0)
        tl.atomic_add(cnt_ptr, c)


@triton.jit
def persist_int_max_kernel(x_ptr, out_ptr, n, n_tiles, BLOCK: tl.constexpr, NUM_SMS: tl.constexpr):
    pid = tl.program_id(0)
    for t in range(pid, n_tiles, NUM_SMS):
        offs = t * BLOCK + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n, other=-2147483648)
        tl.atomic_max(out_ptr, tl.max(x, axis=0))


@triton.jit
def bucket_count_kernel(k_ptr, hist_ptr, bucket, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    k = tl.load(k_ptr + offs, mask=offs < n, other=-1)
    hit = tl.where(k == bucket, 1, 0)
    tl.atomic_add(hist_ptr + bucket, tl.sum(hit, axis=0))


@triton.jit
def block_int_min_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=2147483647)
    tl.atomic_min(out_ptr, tl.min(x, axis=0), sem="relaxed")


@triton.jit
def block_argmax_idx_kernel(x_ptr, idx_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=-2147483648)
    m = tl.max(x, axis=0)
    first = tl.min(tl.where(x == m, offs, 2147483647), axis=0)
    tl.atomic_min(idx_ptr, first)


@triton.jit
def tile_row_int_sum_kernel(x_ptr, out_ptr, n_rows, n_cols, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_R + tl.arange(0, BLOCK_R)[:, None]
    cols = tl.arange(0, BLOCK_C)[None, :]
    x = tl.load(x_ptr + rows * n_cols + cols, mask=(rows < n_rows) & (cols < n_cols), other=0)
    tl.atomic_add(out_ptr, tl.sum(tl.sum(x, axis=1), axis=0))


@triton.jit
def persist_xor_kernel(x_ptr, out_ptr, n, n_tiles, BLOCK: tl.constexpr, NUM_SMS: tl.constexpr):
    pid = tl.program_id(0)
    for t in range(pid, n_tiles, NUM_SMS):
        offs = t * BLOCK + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n, other=0)
        tl.atomic_xor(out_ptr, tl.reduce(x, 0, _xor), sem="relaxed")


@triton.jit
def _xor(a, b):
    return a ^ b
