// corpus: -arch=sm_75
// Warp votes in divergent code: ballot + popc stream compaction, uniform-branch checks with __all_sync /
// __any_sync, warp-aggregated atomics (__activemask + __ffs leader + __shfl_sync broadcast), coalesced_threads()
// reductions, __match_any_sync grouping, a ballot top-k.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// 1. stream compaction of positive floats, one warp-wide atomic for the base
extern "C" __global__ void v34_compact_pos(const float* __restrict__ in, float* __restrict__ out,
                                           int* __restrict__ count, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    float x = 0.f;
    if (i < n) x = in[i];
    bool keep = x > 0.f;
    unsigned m = __ballot_sync(0xffffffffu, keep);
    int base = 0;
    if (lane == 0) base = atomicAdd(count, __popc(m));
    base = __shfl_sync(0xffffffffu, base, 0);
    if (keep) out[base + __popc(m & ((1u << lane) - 1))] = x;
}

// 2. compaction of indices under an early return, with the active mask as member mask
extern "C" __global__ void v34_compact_idx_active(const int* __restrict__ flags, int* __restrict__ idx,
                                                  unsigned* __restrict__ count, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned act = __activemask();
    bool keep = flags[i] != 0;
    unsigned m = __ballot_sync(act, keep);
    int lane = threadIdx.x & 31;
    int leader = __ffs(act) - 1;
    unsigned base = 0;
    if (lane == leader) base = atomicAdd(count, (unsigned)__popc(m));
    base = __shfl_sync(act, base, leader);
    if (keep) idx[base + __popc(m & ((1u << lane) - 1))] = i;
}

// 3. uniform check: all lanes in range and same segment -> shuffle reduction, else per-lane atomics
extern "C" __global__ void v34_all_uniform_seg(const int* __restrict__ seg, const float* __restrict__ v,
                                               float* __restrict__ acc, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int s = i < n ? seg[i] : -1;
    float x = i < n ? v[i] : 0.f;
    int s0 = __shfl_sync(0xffffffffu, s, 0);
    if (__all_sync(0xffffffffu, s == s0 && s >= 0)) {
        for (int o = 16; o > 0; o >>= 1) x += __shfl_down_sync(0xffffffffu, x, o);
        if ((threadIdx.x & 31) == 0) atomicAdd(&acc[s], x);
    } else if (s >= 0) {
        atomicAdd(&acc[s], x);
    }
}

// 4. any check before a divergent path: skip the expensive part when no lane needs it
extern "C" __global__ void v34_any_then_work(const float* __restrict__ a, float* __restrict__ b, int n, float thr) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = i < n ? a[i] : 0.f;
    if (__any_sync(0xffffffffu, x > thr)) {
        if (x > thr) x = sqrtf(x) * 0.5f;
        float s = x;
        for (int o = 1; o < 32; o <<= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
        if (i < n) b[i] = x / s;
    } else if (i < n) {
        b[i] = 0.f;
    }
}

// 5. warp-aggregated atomic increment inside a data-dependent if
extern "C" __global__ void v34_agg_inc(const int* __restrict__ in, int* __restrict__ out,
                                       int* __restrict__ ctr, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int x = in[i];
        if (x & 1) {
            unsigned act = __activemask();
            int leader = __ffs(act) - 1;
            int lane = threadIdx.x & 31;
            int res = 0;
            if (lane == leader) res = atomicAdd(ctr, __popc(act));
            res = __shfl_sync(act, res, leader);
            out[res + __popc(act & ((1u << lane) - 1))] = x;
        }
    }
}

// 6. coalesced_threads() reduction in a divergent branch
extern "C" __global__ void v34_coalesced_sum(const int* __restrict__ in, int* __restrict__ total, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && in[i] > 0) {
        cg::coalesced_group g = cg::coalesced_threads();
        int v = in[i];
        for (int o = 1; o < 32; o <<= 1) {
            int t = g.shfl_down(v, o);
            if (g.thread_rank() + o < g.size()) v += t;
        }
        if (g.thread_rank() == 0) atomicAdd(total, v);
    }
}

// 7. coalesced_threads() aggregated increment returning a slot
extern "C" __global__ void v34_coalesced_slot(const float* __restrict__ in, int* __restrict__ slots,
                                              int* __restrict__ ctr, int n, float lo) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = in[i];
    if (x >= lo) {
        cg::coalesced_group g = cg::coalesced_threads();
        int prev = 0;
        if (g.thread_rank() == 0) prev = atomicAdd(ctr, (int)g.size());
        prev = g.shfl(prev, 0);
        slots[prev + g.thread_rank()] = i;
    }
}

// 8. match_any grouping: one atomic per distinct key in the warp
extern "C" __global__ void v34_match_hist(const int* __restrict__ keys, unsigned* __restrict__ hist, int n, int nb) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int k = keys[i] & (nb - 1);
        unsigned act = __activemask();
        unsigned peers = __match_any_sync(act, k);
        int lane = threadIdx.x & 31;
        if (lane == __ffs(peers) - 1) atomicAdd(&hist[k], (unsigned)__popc(peers));
    }
}

// 9. match_any grouping then the group's leader writes the group's max value
extern "C" __global__ void v34_match_groupmax(const int* __restrict__ keys, const float* __restrict__ v,
                                              float* __restrict__ out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int k = i < n ? keys[i] : -1;
    float x = i < n ? v[i] : -1e30f;
    unsigned peers = __match_any_sync(0xffffffffu, k);
    int lane = threadIdx.x & 31;
    int leader = __ffs(peers) - 1;
    unsigned rest = peers;
    float best = x;
    while (rest) {
        int src = __ffs(rest) - 1;
        rest &= rest - 1;
        float o = __shfl_sync(0xffffffffu, x, src);
        if ((peers >> src) & 1) best = fmaxf(best, o);
    }
    if (k >= 0 && lane == leader) out[k] = best;
}

// 10. top-k by ballots: k rounds of warp max, the owner lane found by ballot drops its value
extern "C" __global__ void v34_topk_ballot(const float* __restrict__ in, float* __restrict__ out, int n, int k) {
    int w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int lane = threadIdx.x & 31;
    int i = w * 32 + lane;
    float x = i < n ? in[i] : -1e30f;
    for (int r = 0; r < k; r++) {
        float m = x;
        for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
        unsigned owner = __ballot_sync(0xffffffffu, x == m);
        int src = __ffs(owner) - 1;
        if (lane == src) x = -1e30f;
        if (lane == 0) out[w * k + r] = m;
    }
}

// 11. grid-stride compaction of nonzero ints with a per-warp running count in shared memory
extern "C" __global__ void v34_compact_grid(const int* __restrict__ in, int* __restrict__ out,
                                            int* __restrict__ count, int n) {
    int lane = threadIdx.x & 31;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i - lane < n; i += gridDim.x * blockDim.x) {
        int x = i < n ? in[i] : 0;
        unsigned m = __ballot_sync(0xffffffffu, x != 0);
        if (m == 0) continue;
        int base = 0;
        if (lane == 0) base = atomicAdd(count, __popc(m));
        base = __shfl_sync(0xffffffffu, base, 0);
        if (x != 0) out[base + __popc(m & ((1u << lane) - 1))] = x;
    }
}

// 12. any_sync break out of a probing loop, then a vote on the result
extern "C" __global__ void v34_any_probe(const int* __restrict__ table, const int* __restrict__ q,
                                         int* __restrict__ found, int n, int cap) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int key = q[i];
    int h = (key * 2654435761u) & (cap - 1);
    int pos = -1;
    for (int p = 0; p < 8; p++) {
        int t = table[(h + p) & (cap - 1)];
        if (t == key) pos = (h + p) & (cap - 1);
        if (!__any_sync(__activemask(), pos < 0)) break;
    }
    unsigned hit = __ballot_sync(__activemask(), pos >= 0);
    if ((threadIdx.x & 31) == 0) found[i >> 5] = __popc(hit);
    if (pos >= 0) found[n + i] = pos;
}
