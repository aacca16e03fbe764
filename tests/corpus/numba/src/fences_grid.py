"""Memory fences and grid-wide synchronization: threadfence / threadfence_block / threadfence_system around a
flag handoff and the threadfence last-block reduction with atomic.inc. (cuda.cg.this_grid().sync() is not here:
compiling it links libcudadevrt, which makes numba-cuda initialise the CUDA driver, absent on a GPU-less machine.)"""
from numba import cuda, float32, int32

TPB = 128


@cuda.jit
def fence_flags(data, flags, v):
    i = cuda.grid(1)
    data[i] = v
    cuda.threadfence_block()
    flags[0] = 1
    data[i] = v + 1
    cuda.threadfence()
    flags[1] = 1
    data[i] = v + 2
    cuda.threadfence_system()
    flags[2] = 1


@cuda.jit
def last_block_sum(x, partial, ticket, out):
    s = cuda.shared.array(TPB, dtype=float32)
    am_last = cuda.shared.array(1, dtype=int32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    s[t] = x[i] if i < x.size else float32(0)
    cuda.syncthreads()
    step = TPB // 2
    while step > 0:
        if t < step:
            s[t] += s[t + step]
        cuda.syncthreads()
        step //= 2
    if t == 0:
        partial[cuda.blockIdx.x] = s[0]
        cuda.threadfence()
        n = cuda.gridDim.x
        old = cuda.atomic.inc(ticket, 0, n)
        am_last[0] = 1 if old == n - 1 else 0
    cuda.syncthreads()
    if am_last[0] == 1 and t == 0:
        tot = float32(0)
        for b in range(cuda.gridDim.x):
            tot += partial[b]
        out[0] = tot
        ticket[0] = 0


CORPUS = {
    "fence_flags": (fence_flags, "void(int32[:], int32[:], int32)"),
    "last_block_sum": (last_block_sum, "void(float32[:], float32[:], uint32[:], float32[:])"),
}
