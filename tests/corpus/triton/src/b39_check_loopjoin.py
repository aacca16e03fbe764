"""Check kernels (helper tbssy39, stop 39; written after the rule): persistent / strided tile loops with two or
more guarded atomics or stores one after another, in another style (tl.range and while loops, float atomics
Triton splits into two integer atomics, scalar ifs, mixed sem/scope)."""
import triton
import triton.language as tl


@triton.jit
def check_range_absmax_kernel(x_ptr, out_ptr, n, n_tiles, BLOCK: tl.constexpr):
    # tl.range persistent loop; per tile the max and min merged with float atomics (two integer atomics each)
    pid = tl.program_id(0)
    for t in tl.range(pid, n_tiles, tl.num_programs(0)):
        offs = t * BLOCK + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
        tl.atomic_max(out_ptr, tl.max(x, axis=0), sem="relaxed")
        tl.atomic_min(out_ptr + 1, tl.min(x, axis=0), sem="relaxed")


@triton.jit
def check_while_sum_count_kernel(x_ptr, sum_ptr, cnt_ptr, n, BLOCK: tl.constexpr):
    # a while loop over the block's strided tiles: the sum added, then the positive count added (two atomics)
    start = tl.program_id(0) * BLOCK
    step = tl.num_programs(0) * BLOCK
    while start < n:
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
        tl.atomic_add(sum_ptr, tl.sum(x, axis=0), sem="release", scope="gpu")
        tl.atomic_add(cnt_ptr, tl.sum((x > 0).to(tl.int32), axis=0), sem="relaxed", scope="cta")
        start += step


@triton.jit
def check_rows_store_then_flag_kernel(x_ptr, out_ptr, flag_ptr, n_rows, n_cols, thr, BLOCK: tl.constexpr):
    # rows strided over programs: the row max stored, then a flag raised when it passes a threshold
    for row in range(tl.program_id(0), n_rows, tl.num_programs(0)):
        cols = tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=float("-inf"))
        m = tl.max(x, axis=0)
        tl.store(out_ptr + row, m)
        if m > thr:
            tl.atomic_or(flag_ptr, 1)


@triton.jit
def check_tile_minmax_i32_kernel(x_ptr, lo_ptr, hi_ptr, n, n_tiles, BLOCK: tl.constexpr):
    # int tiles: per tile an atomic min and an atomic max into per-program slots (acq_rel)
    pid = tl.program_id(0)
    for t in range(pid, n_tiles, tl.num_programs(0)):
        offs = t * BLOCK + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n, other=0)
        tl.atomic_min(lo_ptr + pid, tl.min(x, axis=0))
        tl.atomic_max(hi_ptr + pid, tl.max(x, axis=0))
