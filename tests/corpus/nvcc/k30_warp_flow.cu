// corpus: -arch=sm_80
// Warp collectives in real control flow, written as CUDA code is: a ballot inside a bounds if, a
// __reduce_add_sync after a per-lane strided loop, a search loop that leaves on __any_sync, a
// __match_any_sync histogram after an early return, and a shuffle scan in a loop with a divergent break.

extern "C" __global__ void k30_row_positive_count(const float* __restrict__ x, int* __restrict__ cnt,
                                                  int rows, int cols) {
    int row = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    int lane = threadIdx.x & 31;
    if (row < rows) {
        float v = lane < cols ? x[row * cols + lane] : 0.f;
        unsigned m = __ballot_sync(0xffffffffu, v > 0.f);
        if (lane == 0) cnt[row] = __popc(m);
    }
}

extern "C" __global__ void k30_segment_sum(const int* __restrict__ off, const int* __restrict__ val,
                                           int* __restrict__ out, int nseg) {
    int seg = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    int lane = threadIdx.x & 31;
    if (seg >= nseg) return;
    int b = off[seg], e = off[seg + 1];
    int s = 0;
    for (int j = b + lane; j < e; j += 32) s += val[j];
    s = __reduce_add_sync(0xffffffffu, s);
    if (lane == 0) out[seg] = s;
}

extern "C" __global__ void k30_find_first_negative(const float* __restrict__ x, int* __restrict__ pos, int n) {
    int lane = threadIdx.x & 31;
    int warp = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    int nwarps = gridDim.x * (blockDim.x >> 5);
    for (int base = warp * 32; base < n; base += nwarps * 32) {
        int i = base + lane;
        bool neg = i < n && x[i] < 0.f;
        if (__any_sync(0xffffffffu, neg)) {
            unsigned m = __ballot_sync(0xffffffffu, neg);
            if (lane == 0) atomicMin(pos, base + __ffs(m) - 1);
            break;
        }
    }
}

extern "C" __global__ void k30_key_histogram(const int* __restrict__ keys, int* __restrict__ hist, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int k = keys[i] & 255;
    unsigned act = __activemask();
    unsigned peers = __match_any_sync(act, k);
    int leader = __ffs(peers) - 1;
    if ((int)(threadIdx.x & 31) == leader) atomicAdd(&hist[k], __popc(peers));
}

extern "C" __global__ void k30_capped_scan(const int* __restrict__ in, int* __restrict__ out, int n, int cap) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int v = i < n ? in[i] : 0;
    for (int d = 1; d < 32; d <<= 1) {
        int t = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d) v += t;
        if (__all_sync(0xffffffffu, v > cap)) break;
    }
    if (i < n) out[i] = v;
}
