"""cuda.atomic.* on global and shared arrays: a shared-memory histogram flushed with global adds, min/max/
nanmax on floats, inc/dec counters, exch, cas / compare_and_swap spin lock, bitwise and/or/xor, i64 and f64."""
from numba import cuda, int32, uint32, float32

NBINS = 64


@cuda.jit
def histogram(data, bins):
    h = cuda.shared.array(NBINS, dtype=uint32)
    t = cuda.threadIdx.x
    if t < NBINS:
        h[t] = 0
    cuda.syncthreads()
    i = cuda.grid(1)
    stride = cuda.gridsize(1)
    while i < data.size:
        cuda.atomic.add(h, data[i] % NBINS, 1)
        i += stride
    cuda.syncthreads()
    if t < NBINS and h[t] != 0:
        cuda.atomic.add(bins, t, h[t])


@cuda.jit
def float_extrema(x, res):
    smax = cuda.shared.array(1, dtype=float32)
    if cuda.threadIdx.x == 0:
        smax[0] = -1e30
    cuda.syncthreads()
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        cuda.atomic.max(smax, 0, v)
        cuda.atomic.min(res, 1, v)
        cuda.atomic.nanmax(res, 2, v)
        cuda.atomic.nanmin(res, 3, v)
        cuda.atomic.add(res, 4, v)
        cuda.atomic.sub(res, 5, v)
    cuda.syncthreads()
    if cuda.threadIdx.x == 0:
        cuda.atomic.max(res, 0, smax[0])


@cuda.jit
def counters(ctr, out, limit):
    i = cuda.grid(1)
    a = cuda.atomic.inc(ctr, 0, limit)
    b = cuda.atomic.dec(ctr, 1, limit)
    c = cuda.atomic.exch(ctr, 2, i)
    d = cuda.atomic.and_(ctr, 3, i)
    e = cuda.atomic.or_(ctr, 4, i)
    f = cuda.atomic.xor(ctr, 5, i)
    if i < out.size:
        out[i] = a + b + c + d + e + f


@cuda.jit
def wide_atomics(acc64, accf64, vals):
    i = cuda.grid(1)
    if i < vals.size:
        v = vals[i]
        cuda.atomic.add(accf64, 0, v)
        cuda.atomic.max(accf64, 1, v)
        cuda.atomic.add(acc64, 0, 1)
        cuda.atomic.max(acc64, 1, i)
        cuda.atomic.min(acc64, 2, i)


@cuda.jit
def cas_spinlock(lock, total, vals):
    i = cuda.grid(1)
    if cuda.threadIdx.x % 32 == 0 and i < vals.size:
        while cuda.atomic.compare_and_swap(lock, 0, 1) != 0:
            pass
        cuda.threadfence()
        total[0] += vals[i]
        cuda.threadfence()
        cuda.atomic.exch(lock, 0, 0)


@cuda.jit
def cas_max_update(best, keys):
    # lock-free max through cas on a shared slot, then cas into global
    s = cuda.shared.array(1, dtype=int32)
    if cuda.threadIdx.x == 0:
        s[0] = 0
    cuda.syncthreads()
    i = cuda.grid(1)
    if i < keys.size:
        k = keys[i]
        old = s[0]
        while k > old:
            prev = cuda.atomic.cas(s, 0, old, k)
            if prev == old:
                break
            old = prev
    cuda.syncthreads()
    if cuda.threadIdx.x == 0:
        cur = best[0]
        while s[0] > cur:
            prev = cuda.atomic.cas(best, 0, cur, s[0])
            if prev == cur:
                break
            cur = prev


CORPUS = {
    "histogram_shared": (histogram, "void(int32[:], uint32[:])"),
    "float_extrema": (float_extrema, "void(float32[:], float32[:])"),
    "atomic_counters": (counters, "void(uint32[:], uint32[:], uint32)"),
    "wide_atomics": (wide_atomics, "void(int64[:], float64[:], float64[:])"),
    "cas_spinlock": (cas_spinlock, "void(int32[:], float32[:], float32[:])"),
    "cas_max_update": (cas_max_update, "void(int32[:], int32[:])"),
}
