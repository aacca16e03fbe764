// corpus: -arch=sm_80
// __reduce_*_sync in divergent code: under guards with the active mask, after a uniform vote, in
// coalesced groups, and as a warp-aggregated atomic; a ballot compaction using __reduce_add_sync for the count.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

// 1. guarded sum/max with the active mask, leader writes
extern "C" __global__ void v34r_guard_sum_max(const int* __restrict__ a, int* __restrict__ s, int* __restrict__ mx, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int v = a[i];
        unsigned act = __activemask();
        int t = __reduce_add_sync(act, v);
        int m = __reduce_max_sync(act, v);
        if ((threadIdx.x & 31) == __ffs(act) - 1) {
            atomicAdd(&s[0], t);
            atomicMax(&mx[0], m);
        }
    }
}

// 2. data-dependent branch, reduce over the lanes that took it
extern "C" __global__ void v34r_branch_count(const unsigned* __restrict__ a, unsigned* __restrict__ out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = i < n ? a[i] : 0u;
    if (v & 0x80000000u) {
        unsigned act = __activemask();
        unsigned c = __reduce_add_sync(act, 1u);
        unsigned o = __reduce_or_sync(act, v);
        if ((threadIdx.x & 31) == __ffs(act) - 1) { atomicAdd(&out[0], c); atomicOr(&out[1], o); }
    }
}

// 3. compaction: ballot, count by __reduce_add_sync, leader atomic, broadcast
extern "C" __global__ void v34r_compact_reduce(const float* __restrict__ in, float* __restrict__ out,
                                               unsigned* __restrict__ count, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = i < n ? in[i] : 0.f;
    unsigned keep = x != 0.f;
    unsigned m = __ballot_sync(0xffffffffu, keep);
    unsigned c = __reduce_add_sync(0xffffffffu, keep);
    int lane = threadIdx.x & 31;
    unsigned base = 0;
    if (lane == 0 && c) base = atomicAdd(count, c);
    base = __shfl_sync(0xffffffffu, base, 0);
    if (keep) out[base + __popc(m & ((1u << lane) - 1))] = x;
}

// 4. all_sync uniform check, then reduce_min on the fast path
extern "C" __global__ void v34r_all_then_min(const int* __restrict__ a, int* __restrict__ out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? a[i] : 0x7fffffff;
    if (__all_sync(0xffffffffu, v >= 0)) {
        int m = __reduce_min_sync(0xffffffffu, v);
        if ((threadIdx.x & 31) == 0) atomicMin(out, m);
    } else if (v < 0 && i < n) {
        atomicAdd(out + 1, 1);
    }
}

// 5. coalesced_threads() reduce in a branch
extern "C" __global__ void v34r_coalesced_reduce(const int* __restrict__ a, int* __restrict__ out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int v = a[i];
        if (v > 0) {
            cg::coalesced_group g = cg::coalesced_threads();
            int s = cg::reduce(g, v, cg::plus<int>());
            if (g.thread_rank() == 0) atomicAdd(out, s);
        }
    }
}

// 6. match_any then reduce within the group of equal keys
extern "C" __global__ void v34r_match_reduce(const int* __restrict__ keys, const unsigned* __restrict__ w,
                                             unsigned* __restrict__ hist, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int k = keys[i];
    unsigned v = w[i];
    unsigned peers = __match_any_sync(__activemask(), k);
    unsigned s = __reduce_add_sync(peers, v);
    if ((threadIdx.x & 31) == __ffs(peers) - 1) atomicAdd(&hist[k], s);
}

// 7. grid-stride loop, per-iteration max with the active mask
extern "C" __global__ void v34r_grid_max(const unsigned* __restrict__ a, unsigned* __restrict__ out, int n) {
    unsigned best = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        unsigned v = a[i];
        unsigned m = __reduce_max_sync(__activemask(), v);
        best = best > m ? best : m;
    }
    if ((threadIdx.x & 31) == 0) atomicMax(out, best);
}
