// corpus: -arch=sm_80
// Warp-level segmented operations: a head-flag segmented inclusive scan with ballot + shuffle, a warp
// run-length encoder with __match_any_sync, and a privatised histogram that aggregates equal bins with
// __match_any_sync inside a grid-stride loop.
#include <cuda_runtime.h>

extern "C" __global__ void w28_segmented_scan(const int* __restrict__ in, const int* __restrict__ flags,
                                              int* __restrict__ out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    bool valid = i < n;
    int v = valid ? in[i] : 0;
    int f = valid ? flags[i] : 1;
    unsigned heads = __ballot_sync(0xffffffffu, f != 0);
    unsigned below = heads & ((2u << lane) - 1u);
    int seg_start = 31 - __clz(below);
    #pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        int t = __shfl_up_sync(0xffffffffu, v, d);
        if (lane - d >= seg_start) v += t;
    }
    if (valid) out[i] = v;
}

extern "C" __global__ void w28_warp_rle(const int* __restrict__ keys, int* __restrict__ run_keys,
                                        int* __restrict__ run_len, int* __restrict__ nruns, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    if (i >= n) return;
    unsigned active = __activemask();
    int k = keys[i];
    int prev = __shfl_up_sync(active, k, 1);
    bool head = lane == 0 || prev != k || !(active & (1u << (lane - 1)));
    unsigned hb = __ballot_sync(active, head);
    if (head) {
        unsigned peers = __match_any_sync(active, k);
        int slot = atomicAdd(nruns, 1);
        run_keys[slot] = k;
        run_len[slot] = __popc(peers);
    }
    (void)hb;
}

extern "C" __global__ void w28_hist_match(const int* __restrict__ data, unsigned* __restrict__ hist,
                                          int n, int nbins) {
    int lane = threadIdx.x & 31;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        int b = data[i];
        if (b < 0 || b >= nbins) continue;
        unsigned m = __activemask();
        unsigned peers = __match_any_sync(m, b);
        int leader = __ffs(peers) - 1;
        if (lane == leader) atomicAdd(&hist[b], __popc(peers));
    }
}
