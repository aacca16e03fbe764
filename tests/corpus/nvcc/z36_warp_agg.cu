// corpus: -arch=sm_80
// Warp-aggregated atomics, activemask votes and cooperative-groups collectives as kernel authors write them.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

// 1. classic warp-aggregated append (activemask leader)
extern "C" __global__ void z36_agg_append(const int* __restrict__ x, int* __restrict__ out, int* __restrict__ cnt, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = x[i];
    if (v > 0) {
        unsigned act = __activemask();
        int leader = __ffs(act) - 1;
        int lane = threadIdx.x & 31;
        int base;
        if (lane == leader) base = atomicAdd(cnt, __popc(act));
        base = __shfl_sync(act, base, leader);
        out[base + __popc(act & ((1u << lane) - 1))] = v;
    }
}

// 2. cg coalesced_group aggregated increment with float payload
extern "C" __global__ void z36_cg_agg_inc(const float* __restrict__ x, float thr, int* __restrict__ cnt, float* __restrict__ sum, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && x[i] > thr) {
        cg::coalesced_group g = cg::coalesced_threads();
        float s = cg::reduce(g, x[i], cg::plus<float>());
        if (g.thread_rank() == 0) { atomicAdd(cnt, (int)g.size()); atomicAdd(sum, s); }
    }
}

// 3. any-vote skip loop with activemask in a grid-stride loop
extern "C" __global__ void z36_any_count(const float* __restrict__ a, int* __restrict__ hits, int n, float t) {
    int c = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        float v = a[i];
        if (__any_sync(__activemask(), v > t)) c += __popc(__ballot_sync(__activemask(), v > t));
    }
    if ((threadIdx.x & 31) == 0) atomicAdd(hits, c);
}

// 4. tile-32 reduce then one atomic per warp, guarded
extern "C" __global__ void z36_tile_sum(const int* __restrict__ x, unsigned long long* __restrict__ tot, int n) {
    cg::thread_block_tile<32> t = cg::tiled_partition<32>(cg::this_thread_block());
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? x[i] : 0;
    int s = cg::reduce(t, v, cg::plus<int>());
    if (t.thread_rank() == 0 && s) atomicAdd(tot, (unsigned long long)s);
}

// 5. match_any histogram with peers leader
extern "C" __global__ void z36_match_hist(const int* __restrict__ keys, int* __restrict__ hist, int n, int nb) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int k = keys[i] % nb;
    unsigned peers = __match_any_sync(__activemask(), k);
    int lane = threadIdx.x & 31;
    if (lane == __ffs(peers) - 1) atomicAdd(&hist[k], __popc(peers));
}

// 6. ballot compaction with two outputs
extern "C" __global__ void z36_ballot_split(const float* __restrict__ x, float* __restrict__ lo, float* __restrict__ hi,
                                            int* __restrict__ nlo, int* __restrict__ nhi, float piv, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    float v = i < n ? x[i] : 0.f;
    bool ok = i < n;
    unsigned bl = __ballot_sync(0xffffffffu, ok && v < piv);
    unsigned bh = __ballot_sync(0xffffffffu, ok && v >= piv);
    int bl0 = 0, bh0 = 0;
    if (lane == 0) { bl0 = atomicAdd(nlo, __popc(bl)); bh0 = atomicAdd(nhi, __popc(bh)); }
    bl0 = __shfl_sync(0xffffffffu, bl0, 0);
    bh0 = __shfl_sync(0xffffffffu, bh0, 0);
    unsigned below = (1u << lane) - 1;
    if (ok && v < piv) lo[bl0 + __popc(bl & below)] = v;
    if (ok && v >= piv) hi[bh0 + __popc(bh & below)] = v;
}

// 7. all_sync fast path with reduce_add
extern "C" __global__ void z36_all_fast(const int* __restrict__ seg, const int* __restrict__ x, int* __restrict__ y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int s = seg[i];
    int v = x[i];
    unsigned act = __activemask();
    if (__all_sync(act, s == __shfl_sync(act, s, __ffs(act) - 1))) {
        int tot = __reduce_add_sync(act, v);
        if ((threadIdx.x & 31) == __ffs(act) - 1) atomicAdd(&y[s], tot);
    } else {
        atomicAdd(&y[s], v);
    }
}

// 8. warp-aggregated max via redux on unsigned keys, loop
extern "C" __global__ void z36_redux_loop(const unsigned* __restrict__ k, unsigned* __restrict__ mx, int n, int iters) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned m = 0;
    for (int r = 0; r < iters; ++r) {
        unsigned v = i < n ? k[i + r * n] : 0u;
        m = max(m, __reduce_max_sync(0xffffffffu, v));
    }
    if ((threadIdx.x & 31) == 0) atomicMax(mx, m);
}

// 9. shfl_up inclusive scan with activemask count
extern "C" __global__ void z36_scan_count(const int* __restrict__ x, int* __restrict__ y, int* __restrict__ c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int v = i < n ? x[i] : 0;
    for (int o = 1; o < 32; o <<= 1) {
        int u = __shfl_up_sync(0xffffffffu, v, o);
        if (lane >= o) v += u;
    }
    if (i < n) y[i] = v;
    if (i < n && v > 100) {
        unsigned act = __activemask();
        if (lane == __ffs(act) - 1) atomicAdd(c, __popc(act));
    }
}

// 10. cg tile<16> any/all/ballot
extern "C" __global__ void z36_tile16_votes(const int* __restrict__ x, int* __restrict__ o, int n) {
    cg::thread_block_tile<16> t = cg::tiled_partition<16>(cg::this_thread_block());
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? x[i] : 0;
    int a = t.any(v > 5), b = t.all(v > 0);
    unsigned bl = t.ballot(v & 1);
    if (t.thread_rank() == 0) o[i >> 4] = a + 2 * b + (int)__popc(bl) * 4;
}
