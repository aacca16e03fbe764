"""Fresh scan / sort / histogram / gather-scatter Triton programs (helper tscan31, stop 31), written the way
people write them: masked loads with other=, cumsum/associative_scan with custom combine functions, sort,
histogram and atomic scatter."""
import triton
import triton.language as tl


@triton.jit
def _first_order_combine(a1, b1, a2, b2):
    # (a1, b1) then (a2, b2): h = a2 * (a1 * h + b1) + b2
    return a1 * a2, b1 * a2 + b2


@triton.jit
def segmented_cumsum_kernel(x_ptr, flag_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    f = tl.load(flag_ptr + offs, mask=mask, other=1).to(tl.int32)
    # reset at flags: carry (flag, value)
    _, y = tl.associative_scan((f, x), 0, _seg_combine)
    tl.store(out_ptr + offs, y, mask=mask)


@triton.jit
def _seg_combine(f1, v1, f2, v2):
    return f1 | f2, tl.where(f2 != 0, v2, v1 + v2)


@triton.jit
def ema_scan_kernel(x_ptr, out_ptr, alpha, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    a = tl.where(mask, 1.0 - alpha, 1.0)
    b = x * alpha
    _, h = tl.associative_scan((a, b), 0, _first_order_combine)
    tl.store(out_ptr + row * stride + cols, h.to(out_ptr.dtype.element_ty), mask=mask)


@triton.jit
def stream_compact_kernel(x_ptr, out_ptr, count_ptr, n, threshold, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=float("-inf"))
    keep = (x > threshold) & mask
    k = keep.to(tl.int32)
    pos = tl.cumsum(k, 0) - k
    total = tl.sum(k, 0)
    base = tl.atomic_add(count_ptr, total)
    tl.store(out_ptr + base + pos, x, mask=keep)


@triton.jit
def histogram_scatter_kernel(x_ptr, hist_ptr, n, NUM_BINS: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    x = tl.minimum(tl.maximum(x, 0), NUM_BINS - 1)
    h = tl.histogram(x, NUM_BINS)
    bins = tl.arange(0, NUM_BINS)
    tl.atomic_add(hist_ptr + bins, h, mask=h > 0)


@triton.jit
def argsort_rows_kernel(x_ptr, idx_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=float("inf"))
    # pack value bits and index into one key, sort, unpack the index
    xi = x.to(tl.int32, bitcast=True)
    key = tl.where(xi < 0, xi ^ 0x7FFFFFFF, xi).to(tl.int64)
    packed = (key << 32) | cols.to(tl.int64)
    s = tl.sort(packed, 0)
    idx = (s & 0xFFFFFFFF).to(tl.int32)
    tl.store(idx_ptr + row * stride + cols, idx, mask=mask)


@triton.jit
def gather_cumsum_kernel(src_ptr, idx_ptr, out_ptr, total_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    idx = tl.load(idx_ptr + offs, mask=mask, other=0)
    v = tl.load(src_ptr + idx, mask=mask & (idx >= 0), other=0.0)
    c = tl.cumsum(v, 0)
    tl.store(out_ptr + offs, c, mask=mask)
    tl.atomic_add(total_ptr + pid, tl.sum(v, 0))
