"""Check kernels for helper tscan37 (stop 37), written after its rule and not looked at while writing it: a
compaction of nonzero indices with a block counter, a histogram-free bucket offset by cumsum, a cummax of a running
score with an atomic max of the block's last value, and a segmented (restart-at-flag) sum by an associative scan."""
import triton
import triton.language as tl


@triton.jit
def _seg_combine(f1, v1, f2, v2):
    return f1 | f2, tl.where(f2 != 0, v2, v1 + v2)


@triton.jit
def _max_combine(a, b):
    return tl.maximum(a, b)


@triton.jit
def nonzero_index_kernel(x_ptr, idx_ptr, cnt_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    keep = (x != 0).to(tl.int32)
    pos = tl.cumsum(keep, 0) - keep
    base = tl.atomic_add(cnt_ptr, tl.sum(keep, 0))
    tl.store(idx_ptr + base + pos, offs, mask=keep != 0)


@triton.jit
def bucket_offset_kernel(k_ptr, off_ptr, total_ptr, n, n_buckets, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    k = tl.load(k_ptr + offs, mask=mask, other=0)
    hit = (k < n_buckets) & mask
    c = tl.cumsum(hit.to(tl.int32), 0)
    tl.store(off_ptr + offs, c, mask=mask)
    tl.atomic_add(total_ptr, tl.sum(hit.to(tl.int32), 0))


@triton.jit
def running_max_kernel(s_ptr, y_ptr, best_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    s = tl.load(s_ptr + offs, mask=mask, other=float("-inf"))
    m = tl.associative_scan(s, 0, _max_combine)
    tl.store(y_ptr + offs, m, mask=mask)
    tl.atomic_max(best_ptr, tl.max(s, 0))


@triton.jit
def segmented_sum_kernel(f_ptr, v_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    f = tl.load(f_ptr + offs, mask=mask, other=1).to(tl.int32)
    v = tl.load(v_ptr + offs, mask=mask, other=0.0)
    _, y = tl.associative_scan((f, v), 0, _seg_combine)
    tl.store(y_ptr + offs, y, mask=mask)
