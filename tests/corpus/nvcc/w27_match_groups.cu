// corpus: -arch=sm_80
// __match_any_sync grouping: warp-aggregated histogram (one atomic per distinct bin), a key-dedup
// with a leader per group, and __match_all_sync guarding a uniform fast path.
#include <cuda_runtime.h>

extern "C" __global__ void w27_match_histogram(const int* __restrict__ keys, int* __restrict__ hist, int n, int bins) {
    int lane = threadIdx.x & 31;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        int k = keys[i] % bins;
        unsigned act = __activemask();
        unsigned peers = __match_any_sync(act, k);
        int leader = __ffs(peers) - 1;
        if (lane == leader) atomicAdd(&hist[k], __popc(peers));
    }
}

extern "C" __global__ void w27_match_dedup(const unsigned long long* __restrict__ keys, unsigned long long* __restrict__ out,
                                           int* __restrict__ cnt, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    bool valid = i < n;
    unsigned long long k = valid ? keys[i] : ~0ull;
    unsigned peers = __match_any_sync(0xffffffffu, k);
    bool leader = valid && (__ffs(peers) - 1) == lane;
    unsigned leaders = __ballot_sync(0xffffffffu, leader);
    int base = 0;
    if (lane == 0 && leaders) base = atomicAdd(cnt, __popc(leaders));
    base = __shfl_sync(0xffffffffu, base, 0);
    if (leader) out[base + __popc(leaders & ((1u << lane) - 1))] = k;
}

extern "C" __global__ void w27_match_all_fast(const int* __restrict__ seg, const float* __restrict__ v,
                                              float* __restrict__ sums, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int s = seg[i];
    float x = v[i];
    unsigned act = __activemask();
    int pred;
    __match_all_sync(act, s, &pred);
    if (pred) {
        for (int o = 16; o > 0; o >>= 1) x += __shfl_down_sync(act, x, o);
        if ((threadIdx.x & 31) == __ffs(act) - 1) atomicAdd(&sums[s], x);
    } else {
        atomicAdd(&sums[s], x);
    }
}
