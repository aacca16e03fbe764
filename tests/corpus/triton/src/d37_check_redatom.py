"""Check kernels for helper tpers37's rule (stop 37), written after it: a persistent loop of tile L1 norms added to
one slot, a block abs-sum atomic with an int32 count, and a persistent row max of a 2-D tile with a relaxed atomic."""
import triton
import triton.language as tl


@triton.jit
def check_persist_l1_kernel(x_ptr, out_ptr, n, n_tiles, BLOCK: tl.constexpr, NUM_SMS: tl.constexpr):
    pid = tl.program_id(0)
    for t in range(pid, n_tiles, NUM_SMS):
        offs = t * BLOCK + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n, other=0.0).to(tl.float32)
        tl.atomic_add(out_ptr, tl.sum(tl.abs(x), axis=0))


@triton.jit
def check_block_count_kernel(x_ptr, cnt_ptr, n, thresh, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.atomic_add(cnt_ptr, tl.sum((x > thresh).to(tl.int32), axis=0), sem="relaxed")


@triton.jit
def check_persist_tile2d_max_kernel(x_ptr, out_ptr, n_rows, n_cols, n_tiles, BLOCK_R: tl.constexpr,
                                    BLOCK_C: tl.constexpr, NUM_SMS: tl.constexpr):
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK_C)[None, :]
    for t in range(pid, n_tiles, NUM_SMS):
        rows = t * BLOCK_R + tl.arange(0, BLOCK_R)[:, None]
        x = tl.load(x_ptr + rows * n_cols + cols, mask=(rows < n_rows) & (cols < n_cols), other=-1e30)
        tl.atomic_max(out_ptr, tl.max(tl.max(x, axis=1), axis=0))
