"""Fresh Triton programs (helper tsched36, stop 36): integer block reductions that become REDUX (CREDUX for
float max/min on sm_100a) beside Triton's shared-memory exchange: block max/min/sum/xor of int32 stored or
atomically combined, masked counts next to float sums, a per-row int sum + max, a histogram total and a
persistent-grid count."""
import triton
import triton.language as tl


@triton.jit
def block_int_max_store_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # block max of int32, one plain store per program
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=-2147483647)
    tl.store(out_ptr + tl.program_id(0), tl.max(x, 0))


@triton.jit
def block_int_sum_atomic_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # block sum of int32 added into one global counter
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0)
    tl.atomic_add(out_ptr, tl.sum(x, 0), sem="relaxed")


@triton.jit
def block_min_then_max_atomic_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # two block reductions of one loaded vector, each into its own atomic
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0)
    tl.atomic_min(out_ptr, tl.min(tl.where(m, x, 2147483647), 0))
    tl.atomic_max(out_ptr + 1, tl.max(tl.where(m, x, -2147483647), 0))


@triton.jit
def row_int_sum_max_kernel(x_ptr, sum_ptr, max_ptr, n_cols, stride, BLOCK: tl.constexpr):
    # per row: int32 sum and max, both stored
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=m, other=0)
    tl.store(sum_ptr + row, tl.sum(x, 0))
    tl.store(max_ptr + row, tl.max(tl.where(m, x, -2147483647), 0))


@triton.jit
def masked_count_sum_kernel(x_ptr, cnt_ptr, sum_ptr, n, thresh, BLOCK: tl.constexpr):
    # count of values above a threshold (int REDUX) and their float sum
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0).to(tl.float32)
    keep = x > thresh
    tl.atomic_add(cnt_ptr, tl.sum(keep.to(tl.int32), 0), sem="relaxed")
    tl.atomic_add(sum_ptr, tl.sum(tl.where(keep, x, 0.0), 0), sem="relaxed")


@triton.jit
def block_absmax_atomic_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # float abs-max of a block into an int-punned atomic max (CREDUX.MAX.F32 on sm_100a)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0).to(tl.float32)
    amax = tl.max(tl.abs(x), 0)
    tl.atomic_max(out_ptr, amax.to(tl.int32, bitcast=True))


@triton.jit
def block_xor_and_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # xor checksum and and-mask of a block, stored
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0)
    tl.store(out_ptr + 2 * tl.program_id(0), tl.xor_sum(x, 0))
    tl.store(out_ptr + 2 * tl.program_id(0) + 1, tl.reduce_or(tl.where(m, x, 0), 0))


@triton.jit
def persistent_count_kernel(x_ptr, out_ptr, n, n_tiles, NUM_PROGS: tl.constexpr, BLOCK: tl.constexpr):
    # persistent grid: per tile count of non-zeros, atomically added
    for t in range(tl.program_id(0), n_tiles, NUM_PROGS):
        offs = t * BLOCK + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n, other=0)
        tl.atomic_add(out_ptr, tl.sum((x != 0).to(tl.int32), 0), sem="relaxed")
