"""Fresh Triton programs (helper tbssy39, stop 39): guarded regions next to the CTA barrier of a block
reduction or layout exchange (masked stores, guarded atomics, scalar ifs after a reduction, persistent loops)."""
import triton
import triton.language as tl


@triton.jit
def row_l2_store_if_kernel(x_ptr, out_ptr, n_cols, stride, eps, BLOCK: tl.constexpr):
    # row L2 norm; the norm stored only for rows above eps (scalar if after the reduction)
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * stride + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
    nrm = tl.sqrt(tl.sum(x * x, axis=0))
    if nrm > eps:
        tl.store(out_ptr + row, nrm)


@triton.jit
def block_count_atomic_kernel(x_ptr, cnt_ptr, n, thresh, BLOCK: tl.constexpr):
    # count the elements above a threshold; the block count added with one atomic
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    c = tl.sum((x > thresh).to(tl.int32), axis=0)
    tl.atomic_add(cnt_ptr, c, sem="relaxed")


@triton.jit
def persist_rowmax_store_kernel(x_ptr, out_ptr, n_rows, n_cols, stride, BLOCK: tl.constexpr):
    # persistent loop over rows: the row max stored per row (a masked scalar store in the loop)
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    cols = tl.arange(0, BLOCK)
    for row in range(pid, n_rows, nprog):
        x = tl.load(x_ptr + row * stride + cols, mask=cols < n_cols, other=float("-inf"))
        tl.store(out_ptr + row, tl.max(x, axis=0))


@triton.jit
def persist_sum_atomic_kernel(x_ptr, out_ptr, n, n_tiles, BLOCK: tl.constexpr):
    # persistent grid: each tile summed and added into one accumulator per program
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    acc_ptr = out_ptr + pid
    for t in range(pid, n_tiles, nprog):
        offs = t * BLOCK + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
        tl.atomic_add(acc_ptr, tl.sum(x, axis=0))


@triton.jit
def col_max_atomic_kernel(x_ptr, out_ptr, n_rows, n_cols, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    # a 2-D tile reduced along rows, the column maxima merged with a masked atomic max
    pid = tl.program_id(0)
    rows = pid * BLOCK_R + tl.arange(0, BLOCK_R)
    cols = tl.arange(0, BLOCK_C)
    m = (rows < n_rows)[:, None] & (cols < n_cols)[None, :]
    x = tl.load(x_ptr + rows[:, None] * n_cols + cols[None, :], mask=m, other=-2147483647)
    tl.atomic_max(out_ptr + cols, tl.max(x, axis=0), mask=cols < n_cols)


@triton.jit
def mean_var_store_kernel(x_ptr, mean_ptr, rstd_ptr, n_cols, stride, eps, BLOCK: tl.constexpr):
    # two reductions (mean, variance), both statistics stored by one guarded store each
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=m, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / n_cols
    d = tl.where(m, x - mean, 0.0)
    var = tl.sum(d * d, axis=0) / n_cols
    tl.store(mean_ptr + row, mean)
    tl.store(rstd_ptr + row, 1.0 / tl.sqrt(var + eps))


@triton.jit
def argmin_flag_kernel(x_ptr, idx_ptr, flag_ptr, n, BLOCK: tl.constexpr):
    # block argmin; the index stored and a flag raised with an acq_rel atomic exchange
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=float("inf"))
    i = tl.argmin(x, axis=0)
    tl.store(idx_ptr + pid, i + pid * BLOCK)
    tl.atomic_xchg(flag_ptr + pid, 1, sem="acq_rel", scope="gpu")


@triton.jit
def tile_hist_kernel(x_ptr, hist_ptr, n, NBINS: tl.constexpr, BLOCK: tl.constexpr):
    # per-block histogram with tl.histogram, merged with a masked atomic per bin
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0)
    h = tl.histogram(x % NBINS, NBINS)
    bins = tl.arange(0, NBINS)
    tl.atomic_add(hist_ptr + bins, h, mask=h > 0)
