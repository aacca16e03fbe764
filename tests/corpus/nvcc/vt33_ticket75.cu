// corpus: -arch=sm_75
// sm_75 versions: warp-uniform vote branches, ticket / bucket insertion (no redux below sm_80).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// 1. all lanes agree -> fast path, else per-lane slow path
extern "C" __global__ void vt33s_uniform_fast(const int* __restrict__ seg, const float* __restrict__ x,
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
extern "C" __global__ void vt33s_match_uniform(const int* __restrict__ keys, int* __restrict__ hist, int n) {
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
extern "C" __global__ void vt33s_any_skip(const float* __restrict__ a, float* __restrict__ out, int n, int m, float t) {
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

// 6. ticket-based bucket insertion with warp aggregation per bucket
extern "C" __global__ void vt33s_bucket_insert(const int* __restrict__ keys, int* __restrict__ bucket_fill,
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
extern "C" __global__ void vt33s_ticket_serve(int* __restrict__ next, volatile int* __restrict__ serving,
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

// 8. open-addressing insertion: CAS claim, warp vote to see whether anybody still probes
extern "C" __global__ void vt33s_hash_insert(const int* __restrict__ keys, int* __restrict__ table,
                                            int* __restrict__ vals, int cap, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool pending = i < n;
    int k = pending ? keys[i] : 0;
    unsigned h = ((unsigned)k * 2654435761u) % (unsigned)cap;
    while (__any_sync(0xffffffffu, pending)) {
        if (pending) {
            int old = atomicCAS(&table[h], -1, k);
            if (old == -1 || old == k) { vals[h] = i; pending = false; }
            else h = (h + 1) % cap;
        }
    }
}

// 9. ticket per element, bucket counters in shared memory, flushed once per block
extern "C" __global__ void vt33s_shared_tickets(const int* __restrict__ keys, int* __restrict__ out,
                                               int* __restrict__ gfill, int n) {
    __shared__ int fill[16];
    if (threadIdx.x < 16) fill[threadIdx.x] = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int b = -1, t = 0;
    if (i < n) {
        b = keys[i] & 15;
        t = atomicAdd(&fill[b], 1);
    }
    __syncthreads();
    if (threadIdx.x < 16) fill[threadIdx.x] = atomicAdd(&gfill[threadIdx.x], fill[threadIdx.x]);
    __syncthreads();
    if (b >= 0) out[b * n + fill[b] + t] = i;
}
