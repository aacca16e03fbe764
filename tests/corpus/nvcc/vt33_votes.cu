// corpus: -arch=sm_90
// Warp votes deciding warp-uniform branches, sequences of __reduce_*_sync, and ticket / bucket insertion.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// 1. all lanes agree -> fast path, else per-lane slow path
extern "C" __global__ void vt33_uniform_fast(const int* __restrict__ seg, const float* __restrict__ x,
                                            float* __restrict__ y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int s = i < n ? seg[i] : -1;
    float v = i < n ? x[i] : 0.f;
    if (__all_sync(0xffffffffu, s == seg[0])) {
        v = v * 2.0f;
        for (int o = 16; o; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
        if ((threadIdx.x & 31) == 0) y[i >> 5] = v;
    } else if (i < n) {
        atomicAdd(&y[s], v);
    }
}

// 2. match_all decides: one atomic per warp when every lane has the same key
extern "C" __global__ void vt33_match_uniform(const int* __restrict__ keys, int* __restrict__ hist, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int k = keys[i];
    unsigned act = __activemask();
    int pred;
    __match_all_sync(act, k, &pred);
    if (pred) {
        if ((threadIdx.x & 31) == __ffs(act) - 1) atomicAdd(&hist[k], __popc(act));
    } else {
        unsigned peers = __match_any_sync(act, k);
        if ((threadIdx.x & 31) == __ffs(peers) - 1) atomicAdd(&hist[k], __popc(peers));
    }
}

// 3. any_sync early exit of a search loop
extern "C" __global__ void vt33_any_skip(const float* __restrict__ a, float* __restrict__ out, int n, int m, float t) {
    int row = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    int lane = threadIdx.x & 31;
    if (row >= n) return;
    float best = -1.f;
    for (int j = lane; j < m; j += 32) {
        float v = a[row * m + j];
        if (!__any_sync(__activemask(), v > t)) continue;
        best = fmaxf(best, v);
    }
    for (int o = 16; o; o >>= 1) best = fmaxf(best, __shfl_down_sync(0xffffffffu, best, o));
    if (lane == 0) out[row] = best;
}

// 4. mixed reductions in an order people write: stats of ints and unsigneds
extern "C" __global__ void vt33_redux_mix(const int* __restrict__ a, const unsigned* __restrict__ b,
                                         int* __restrict__ oi, unsigned* __restrict__ ou) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int x = a[i];
    unsigned y = b[i];
    int mn = __reduce_min_sync(0xffffffffu, x);
    unsigned uor = __reduce_or_sync(0xffffffffu, y);
    int sm = __reduce_add_sync(0xffffffffu, x);
    unsigned umx = __reduce_max_sync(0xffffffffu, y);
    unsigned uand = __reduce_and_sync(0xffffffffu, y);
    int mx = __reduce_max_sync(0xffffffffu, x);
    int w = i >> 5;
    if ((threadIdx.x & 31) == 0) {
        oi[3 * w] = mn; oi[3 * w + 1] = sm; oi[3 * w + 2] = mx;
        ou[3 * w] = uor; ou[3 * w + 1] = umx; ou[3 * w + 2] = uand;
    }
}

// 5. reductions under a guard with the active mask, every lane stores
extern "C" __global__ void vt33_redux_guarded(const unsigned* __restrict__ a, unsigned* __restrict__ o, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned act = __activemask();
        unsigned v = a[i];
        unsigned s = __reduce_add_sync(act, v);
        unsigned hi = __reduce_max_sync(act, v);
        unsigned lo = __reduce_min_sync(act, v);
        unsigned bits = __reduce_or_sync(act, v);
        o[4 * i] = s; o[4 * i + 1] = hi; o[4 * i + 2] = lo; o[4 * i + 3] = bits;
    }
}

// 6. ticket-based bucket insertion with warp aggregation per bucket
extern "C" __global__ void vt33_bucket_insert(const int* __restrict__ keys, int* __restrict__ bucket_fill,
                                             int* __restrict__ slots, int nb, int cap, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int k = keys[i];
    int b = (unsigned)k % (unsigned)nb;
    unsigned peers = __match_any_sync(__activemask(), b);
    int leader = __ffs(peers) - 1;
    int lane = threadIdx.x & 31;
    int ticket;
    if (lane == leader) ticket = atomicAdd(&bucket_fill[b], __popc(peers));
    ticket = __shfl_sync(peers, ticket, leader);
    int pos = ticket + __popc(peers & ((1u << lane) - 1));
    if (pos < cap) slots[b * cap + pos] = k;
}

// 7. ticket counter with a spin until served
extern "C" __global__ void vt33_ticket_serve(int* __restrict__ next, volatile int* __restrict__ serving,
                                            int* __restrict__ data) {
    if ((threadIdx.x & 31) == 0) {
        int t = atomicAdd(next, 1);
        while (*serving != t) { }
        data[t] += 1;
        __threadfence();
        *serving = t + 1;
    }
    __syncwarp();
}
