// corpus: -arch=sm_75
// Hand-written warp scans and segmented ops in loops on sm_75: Kogge-Stone inclusive scan with
// __shfl_up_sync in a loop over tiles, a run-length encoder using ballots, and a segmented max.
#include <cuda_runtime.h>

__device__ __forceinline__ int warp_incl_scan(int v, int lane) {
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
        int t = __shfl_up_sync(0xffffffffu, v, o);
        if (lane >= o) v += t;
    }
    return v;
}

extern "C" __global__ void w27_tile_scan(const int* __restrict__ x, int* __restrict__ y, int n) {
    int lane = threadIdx.x & 31;
    int carry = 0;
    for (int base = blockIdx.x * 32; base < n; base += gridDim.x * 32) {
        int i = base + lane;
        int v = i < n ? x[i] : 0;
        int s = warp_incl_scan(v, lane) + carry;
        if (i < n) y[i] = s;
        carry = __shfl_sync(0xffffffffu, s, 31);
    }
}

extern "C" __global__ void w27_rle(const int* __restrict__ x, int* __restrict__ vals, int* __restrict__ lens,
                                   int* __restrict__ nruns, int n) {
    int lane = threadIdx.x & 31;
    int i = blockIdx.x * 32 + lane;
    if (blockIdx.x * 32 >= n) return;
    int v = i < n ? x[i] : 0x7fffffff;
    int prev = __shfl_up_sync(0xffffffffu, v, 1);
    bool head = (lane == 0) || (v != prev);
    unsigned heads = __ballot_sync(0xffffffffu, head && i < n);
    int base = 0;
    if (lane == 0) base = atomicAdd(nruns, __popc(heads));
    base = __shfl_sync(0xffffffffu, base, 0);
    if (head && i < n) {
        unsigned after = heads & ~((2u << lane) - 1);
        int end = after ? __ffs(after) - 1 : min(32, n - blockIdx.x * 32);
        int slot = base + __popc(heads & ((1u << lane) - 1));
        vals[slot] = v;
        lens[slot] = end - lane;
    }
}

extern "C" __global__ void w27_segmented_max(const float* __restrict__ x, const int* __restrict__ seg,
                                             float* __restrict__ y, int n) {
    int lane = threadIdx.x & 31;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? x[i] : -1e30f;
    int s = i < n ? seg[i] : -1;
    for (int o = 1; o < 32; o <<= 1) {
        float tv = __shfl_up_sync(0xffffffffu, v, o);
        int ts = __shfl_up_sync(0xffffffffu, s, o);
        if (lane >= o && ts == s) v = fmaxf(v, tv);
    }
    int ns = __shfl_down_sync(0xffffffffu, s, 1);
    if (i < n && (lane == 31 || ns != s)) y[s] = v;
}
