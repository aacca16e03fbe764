// corpus: -arch=sm_80
// Warp collectives around guarded code (helper nvvote39): guarded loads into scans, shared staging then a
// shuffle reduction, ballots of loaded flags, redux of a guarded value, lane-0 ifs after a collective.

// inclusive int scan of a guarded load; the lane index is computed before the guard, the store after
extern "C" __global__ void v39_scan_i32(const int* __restrict__ x, int* __restrict__ y, int n)
{
    int lane = threadIdx.x & 31;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = 0;
    if (i < n) v = x[i];
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        int t = __shfl_up_sync(0xffffffffu, v, d);
        v += lane >= d ? t : 0;
    }
    if (i < n) y[i] = v;
}

// stage a guarded value in shared memory with its index, barrier, warp 0 reduces with shuffles
extern "C" __global__ void __launch_bounds__(256) v39_stage_reduce(const float* __restrict__ x,
                                                                   float* __restrict__ out, int n)
{
    __shared__ float s[256];
    __shared__ int k[256];
    int t = threadIdx.x, i = blockIdx.x * 256 + t;
    s[t] = i < n ? x[i] : 0.f;
    k[t] = i;
    __syncthreads();
    if (t < 32) {
        float a = 0.f;
        for (int j = t; j < 256; j += 32) a += s[j];
        for (int o = 16; o > 0; o >>= 1) a += __shfl_xor_sync(0xffffffffu, a, o);
        if (t == 0) out[blockIdx.x] = a + (float)k[255];
    }
}

// ballot of a loaded predicate, popc offset, compacted store
extern "C" __global__ void v39_ballot_compact(const int* __restrict__ in, int* __restrict__ out,
                                              int* __restrict__ counts, int n, int thr)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int v = i < n ? in[i] : thr - 1;
    bool keep = v >= thr;
    unsigned m = __ballot_sync(0xffffffffu, keep);
    int off = __popc(m & ((1u << lane) - 1));
    if (keep) out[blockIdx.x * blockDim.x + (threadIdx.x & ~31) + off] = v;
    if (lane == 0) counts[i >> 5] = __popc(m);
}

// redux max of a guarded unsigned load, one atomic per warp
extern "C" __global__ void v39_redux_max(const unsigned* __restrict__ x, unsigned* __restrict__ out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = 0;
    if (i < n) v = x[i] * 3u + 1u;
    unsigned m = __reduce_max_sync(0xffffffffu, v);
    if ((threadIdx.x & 31) == 0) atomicMax(out, m);
}

// double sum with shfl_down of a guarded two-value load, lane 0 stores
extern "C" __global__ void v39_down_f64(const double* __restrict__ a, const double* __restrict__ b,
                                        double* __restrict__ out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    double v = 0.0;
    if (i < n) v = a[i] * b[i];
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
    if ((threadIdx.x & 31) == 0) out[i / 32] = v;
}

// argmax over a warp: value and index shuffled together, guarded load
extern "C" __global__ void v39_warp_argmax(const float* __restrict__ x, int* __restrict__ idx, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? x[i] : -1e30f;
    int k = i;
    for (int o = 16; o > 0; o >>= 1) {
        float w = __shfl_xor_sync(0xffffffffu, v, o);
        int q = __shfl_xor_sync(0xffffffffu, k, o);
        if (w > v || (w == v && q < k)) { v = w; k = q; }
    }
    if ((threadIdx.x & 31) == 0) idx[i >> 5] = k;
}

// vote.any over a guarded load inside a grid-stride loop: the warp leaves when no lane found the key
extern "C" __global__ void v39_vote_search(const int* __restrict__ x, int* __restrict__ hit, int n, int key)
{
    for (int base = blockIdx.x * blockDim.x; base < n; base += gridDim.x * blockDim.x) {
        int i = base + threadIdx.x;
        bool f = i < n && x[i] == key;
        if (__any_sync(0xffffffffu, f)) {
            if (f) atomicMin(hit, i);
            return;
        }
    }
}

// scan with the lane from a shifted thread index, two guarded loads summed, total by the last lane
extern "C" __global__ void v39_scan_pair(const short* __restrict__ a, const short* __restrict__ b,
                                         int* __restrict__ y, int* __restrict__ tot, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32;
    int v = i < n ? a[i] + b[i] : 0;
    for (int d = 1; d <= 16; d *= 2) {
        int t = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d) v += t;
    }
    if (i < n) y[i] = v;
    if (lane == 31) tot[i / 32] = v;
}
