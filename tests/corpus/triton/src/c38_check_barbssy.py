"""Check kernels (helper tbar38, stop 38; written after the rule): block reductions through shared memory followed
by a guarded atomic or store, in another style (custom combine functions, tl.range persistent loops, 2-D tiles
reduced to a scalar, integer counters)."""
import triton
import triton.language as tl


@triton.jit
def _absmax_combine(a, b):
    return tl.maximum(tl.abs(a), tl.abs(b))


@triton.jit
def check_persist_absmax_kernel(x_ptr, out_ptr, n, n_tiles, BLOCK: tl.constexpr, NUM_SMS: tl.constexpr):
    # persistent tiles with tl.range; each tile's |x| max by a custom reduce, published with atomic_max
    start = tl.program_id(0)
    for t in tl.range(start, n_tiles, NUM_SMS):
        offs = t * BLOCK + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
        m = tl.reduce(x, 0, _absmax_combine)
        tl.atomic_max(out_ptr + t % 4, m)


@triton.jit
def check_tile_count_kernel(x_ptr, cnt_ptr, n_rows, n_cols, lo, hi, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    # a 2-D tile: how many values fall in [lo, hi), counted into one integer counter
    pr = tl.program_id(0)
    r = pr * BLOCK_R + tl.arange(0, BLOCK_R)[:, None]
    c = tl.arange(0, BLOCK_C)[None, :]
    inside = (r < n_rows) & (c < n_cols)
    x = tl.load(x_ptr + r * n_cols + c, mask=inside, other=lo - 1.0)
    hit = ((x >= lo) & (x < hi)).to(tl.int32)
    tl.atomic_add(cnt_ptr, tl.sum(tl.sum(hit, axis=1), axis=0), sem="relaxed")


@triton.jit
def check_row_l2_store_kernel(x_ptr, nrm_ptr, n_rows, n_cols, eps, BLOCK: tl.constexpr):
    # rows handled in a while-style loop over the grid; the row norm stored only when it is large enough
    row = tl.program_id(0)
    step = tl.num_programs(0)
    while row < n_rows:
        cols = tl.arange(0, BLOCK)
        v = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
        s = tl.sqrt(tl.sum(v * v, axis=0))
        if s > eps:
            tl.store(nrm_ptr + row, s)
        row += step


@triton.jit
def check_dot_partial_kernel(a_ptr, b_ptr, out_ptr, n, CHUNK: tl.constexpr):
    # a dot product split over programs: each chunk's partial sum added to one float accumulator
    pid = tl.program_id(0)
    offs = pid * CHUNK + tl.arange(0, CHUNK)
    msk = offs < n
    a = tl.load(a_ptr + offs, mask=msk, other=0.0)
    b = tl.load(b_ptr + offs, mask=msk, other=0.0)
    tl.atomic_add(out_ptr, tl.sum(a.to(tl.float32) * b.to(tl.float32), axis=0), sem="acq_rel", scope="gpu")
