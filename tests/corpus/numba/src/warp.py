"""Warp-level primitives: syncwarp with full and partial masks, shfl_sync / shfl_up / shfl_down / shfl_xor
reductions and scans, vote (all_sync / any_sync / eq_sync / ballot_sync), match_any_sync / match_all_sync,
activemask and lanemask_lt for warp-aggregated atomics."""
from numba import cuda, float32, int32

FULL = 0xFFFFFFFF


@cuda.jit
def warp_reduce_down(x, out):
    i = cuda.grid(1)
    v = x[i] if i < x.size else float32(0)
    off = 16
    while off > 0:
        v += cuda.shfl_down_sync(FULL, v, off)
        off //= 2
    if cuda.laneid == 0:
        cuda.atomic.add(out, 0, v)


@cuda.jit
def warp_scan_up(x, out):
    i = cuda.grid(1)
    lane = cuda.laneid
    v = x[i] if i < x.size else 0
    d = 1
    while d < 32:
        n = cuda.shfl_up_sync(FULL, v, d)
        if lane >= d:
            v += n
        d *= 2
    if i < out.size:
        out[i] = v


@cuda.jit
def xor_allreduce_broadcast(x, out):
    i = cuda.grid(1)
    v = x[i]
    m = 1
    while m < 32:
        v = max(v, cuda.shfl_xor_sync(FULL, v, m))
        m *= 2
    head = cuda.shfl_sync(FULL, x[i], 0)
    out[i] = v - head


@cuda.jit
def votes(x, out):
    i = cuda.grid(1)
    p = x[i] > 0
    a = cuda.all_sync(FULL, p)
    b = cuda.any_sync(FULL, p)
    e = cuda.eq_sync(FULL, p)
    bal = cuda.ballot_sync(FULL, p)
    out[i] = (a << 0) | (b << 1) | (e << 2) | (bal & 0xFFFF0000)


@cuda.jit
def match_groups(keys, out):
    i = cuda.grid(1)
    k = keys[i]
    peers = cuda.match_any_sync(FULL, k)
    allm, same = cuda.match_all_sync(FULL, k)
    out[i] = peers ^ allm ^ same


@cuda.jit
def aggregated_append(x, out, count):
    i = cuda.grid(1)
    if i < x.size and x[i] > 0:
        mask = cuda.activemask()
        lane = cuda.laneid
        leader = cuda.ffs(mask) - 1
        rank = cuda.popc(mask & cuda.lanemask_lt())
        base = 0
        if lane == leader:
            base = cuda.atomic.add(count, 0, cuda.popc(mask))
        base = cuda.shfl_sync(mask, base, leader)
        out[base + rank] = x[i]


@cuda.jit
def syncwarp_partial(x, out):
    t = cuda.threadIdx.x
    s = cuda.shared.array(128, dtype=int32)
    s[t] = x[t]
    cuda.syncwarp(FULL)
    lane = t % 32
    if lane < 16:
        s[t] += s[t + 16]
        cuda.syncwarp(0x0000FFFF)
        if lane < 8:
            s[t] += s[t + 8]
        cuda.syncwarp(0x0000FFFF)
    cuda.syncwarp()
    if lane == 0:
        out[t // 32] = s[t]


CORPUS = {
    "warp_reduce_down": (warp_reduce_down, "void(float32[:], float32[:])"),
    "warp_scan_up": (warp_scan_up, "void(int32[:], int32[:])"),
    "xor_allreduce_broadcast": (xor_allreduce_broadcast, "void(int32[:], int32[:])"),
    "votes": (votes, "void(int32[:], uint32[:])"),
    "match_groups": (match_groups, "void(int64[:], uint32[:])"),
    "aggregated_append": (aggregated_append, "void(int32[:], int32[:], int32[:])"),
    "syncwarp_partial": (syncwarp_partial, "void(int32[:], int32[:])"),
}
