"""Block-level synchronization in ordinary Numba CUDA kernels: cuda.syncthreads around shared-memory tiles,
syncthreads_count / syncthreads_and / syncthreads_or, a shared-memory tree reduction and a Hillis-Steele scan."""
from numba import cuda, float32, int32

TPB = 256


@cuda.jit
def reverse_block(a, out):
    tile = cuda.shared.array(TPB, dtype=float32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    if i < a.size:
        tile[t] = a[i]
    cuda.syncthreads()
    j = cuda.blockIdx.x * cuda.blockDim.x + (TPB - 1 - t)
    if j < out.size:
        out[j] = tile[t]


@cuda.jit
def predicate_counts(x, thresh, out):
    i = cuda.grid(1)
    v = x[i] if i < x.size else 0.0
    above = 1 if v > thresh else 0
    n = cuda.syncthreads_count(above)
    every = cuda.syncthreads_and(above)
    some = cuda.syncthreads_or(1 if v < 0 else 0)
    if cuda.threadIdx.x == 0:
        b = cuda.blockIdx.x
        out[b, 0] = n
        out[b, 1] = every
        out[b, 2] = some


@cuda.jit
def tree_reduce(x, partial):
    s = cuda.shared.array(TPB, dtype=float32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    acc = float32(0)
    stride = cuda.gridsize(1)
    while i < x.size:
        acc += x[i]
        i += stride
    s[t] = acc
    cuda.syncthreads()
    step = TPB // 2
    while step > 0:
        if t < step:
            s[t] += s[t + step]
        cuda.syncthreads()
        step //= 2
    if t == 0:
        partial[cuda.blockIdx.x] = s[0]


@cuda.jit
def block_scan(x, out):
    buf = cuda.shared.array(TPB, dtype=int32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    buf[t] = x[i] if i < x.size else 0
    cuda.syncthreads()
    d = 1
    while d < TPB:
        v = 0
        if t >= d:
            v = buf[t - d]
        cuda.syncthreads()
        buf[t] += v
        cuda.syncthreads()
        d *= 2
    if i < out.size:
        out[i] = buf[t]


CORPUS = {
    "reverse_block": (reverse_block, "void(float32[:], float32[:])"),
    "predicate_counts": (predicate_counts, "void(float32[:], float32, int32[:, :])"),
    "tree_reduce": (tree_reduce, "void(float32[:], float32[:])"),
    "block_scan": (block_scan, "void(int32[:], int32[:])"),
}
