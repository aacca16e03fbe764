"""Check kernels (helper tconv37, stop 37), written after the rule and not looked at while writing it: routed
scatter-adds, segment maxima by loaded index, a slot allocator whose old values are kept, a split-K GEMV."""
import triton
import triton.language as tl


@triton.jit
def routed_scatter_add_kernel(x_ptr, route_ptr, keep_ptr, out_ptr, n, dim, BLOCK_T: tl.constexpr,
                              BLOCK_D: tl.constexpr):
    # tokens routed to rows; a token is dropped when its keep flag is 0
    pid = tl.program_id(0)
    toks = pid * BLOCK_T + tl.arange(0, BLOCK_T)
    ds = tl.arange(0, BLOCK_D)
    tm = toks < n
    keep = tl.load(keep_ptr + toks, mask=tm, other=0) != 0
    row = tl.load(route_ptr + toks, mask=tm, other=0)
    m = (tm & keep)[:, None] & (ds < dim)[None, :]
    x = tl.load(x_ptr + toks[:, None] * dim + ds[None, :], mask=m, other=0.0)
    tl.atomic_add(out_ptr + row[:, None] * dim + ds[None, :], x, mask=m)


@triton.jit
def segment_max_kernel(x_ptr, seg_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # out[seg[i]] = max over i of x[i] (integer values)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    s = tl.load(seg_ptr + offs, mask=m, other=0)
    x = tl.load(x_ptr + offs, mask=m, other=0)
    tl.atomic_max(out_ptr + s, x, mask=m, sem="relaxed")


@triton.jit
def slot_alloc_kernel(need_ptr, next_ptr, slot_ptr, n, BLOCK: tl.constexpr):
    # each element that needs a slot takes one from a shared counter; the slot index is written out
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    need = tl.load(need_ptr + offs, mask=m, other=0) > 0
    slot = tl.atomic_add(next_ptr + tl.zeros([BLOCK], dtype=tl.int32), 1, mask=m & need, sem="acq_rel")
    tl.store(slot_ptr + offs, tl.where(need, slot, -1), mask=m)


@triton.jit
def splitk_gemv_kernel(a_ptr, x_ptr, y_ptr, M, K, stride_am, BLOCK_M: tl.constexpr, BLOCK_K: tl.constexpr,
                       SPLIT: tl.constexpr):
    # y += A[:, slice] @ x[slice], one K slice per program along axis 1
    pm = tl.program_id(0)
    ps = tl.program_id(1)
    rm = pm * BLOCK_M + tl.arange(0, BLOCK_M)
    acc = tl.zeros([BLOCK_M], dtype=tl.float32)
    for k0 in range(ps * BLOCK_K, K, BLOCK_K * SPLIT):
        rk = k0 + tl.arange(0, BLOCK_K)
        a = tl.load(a_ptr + rm[:, None] * stride_am + rk[None, :], mask=(rm[:, None] < M) & (rk[None, :] < K),
                    other=0.0)
        xv = tl.load(x_ptr + rk, mask=rk < K, other=0.0)
        acc += tl.sum(a.to(tl.float32) * xv.to(tl.float32)[None, :], axis=1)
    tl.atomic_add(y_ptr + rm, acc, mask=rm < M)
