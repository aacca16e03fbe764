// corpus: -arch=sm_75
// Warp-level ranking and bucketing with __match_any_sync / ballots in control flow: a key's bucket by an
// integer division, a leader per bucket claims slots with one atomic, the slot is broadcast back (helper nvcoll36).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// 1. bucket by unsigned division, leader claims, broadcast with the peers mask
extern "C" __global__ void q36_bucket_div(const unsigned* __restrict__ keys, int* __restrict__ fill,
                                          unsigned* __restrict__ out, unsigned width, int cap, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned k = keys[i];
    unsigned b = k / width;
    unsigned peers = __match_any_sync(__activemask(), b);
    int leader = __ffs(peers) - 1;
    int lane = threadIdx.x & 31;
    int base = 0;
    if (lane == leader) base = atomicAdd(&fill[b], __popc(peers));
    base = __shfl_sync(peers, base, leader);
    int pos = base + __popc(peers & ((1u << lane) - 1));
    if (pos < cap) out[b * cap + pos] = k;
}

// 2. bucket by signed remainder, float payload
extern "C" __global__ void q36_bucket_srem(const int* __restrict__ keys, const float* __restrict__ vals,
                                           float* __restrict__ sums, int nb, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int k = keys[i];
    int b = k % nb;
    if (b < 0) b += nb;
    unsigned peers = __match_any_sync(__activemask(), b);
    float v = vals[i];
    int lane = threadIdx.x & 31;
    int leader = __ffs(peers) - 1;
    // sum of the peers' values through shuffles from each peer (peers is per lane)
    float s = 0.f;
    unsigned m = peers;
    while (m) {
        int src = __ffs(m) - 1;
        s += __shfl_sync(peers, v, src);
        m &= m - 1;
    }
    if (lane == leader) atomicAdd(&sums[b], s);
}

// 3. ballot-based rank in a grid-stride loop with a division for the bucket
extern "C" __global__ void q36_rank_gridstride(const unsigned* __restrict__ keys, unsigned* __restrict__ rank,
                                               int* __restrict__ counts, unsigned div, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        unsigned k = keys[i] / div;
        unsigned am = __activemask();
        unsigned odd = __ballot_sync(am, k & 1);
        int lane = threadIdx.x & 31;
        unsigned mine = (k & 1) ? odd : (am & ~odd);
        int r = __popc(mine & ((1u << lane) - 1));
        int leader = __ffs(mine) - 1;
        int base = 0;
        if (lane == leader) base = atomicAdd(&counts[k & 1], __popc(mine));
        base = __shfl_sync(mine, base, leader);
        rank[i] = base + r;
    }
}

// 4. coalesced group append after a filter, the group's size by a division-free path
extern "C" __global__ void q36_coalesced_append(const int* __restrict__ in, int* __restrict__ out,
                                                int* __restrict__ cnt, int thresh, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = in[i];
    if (v / 3 > thresh) {
        cg::coalesced_group g = cg::coalesced_threads();
        int base = 0;
        if (g.thread_rank() == 0) base = atomicAdd(cnt, (int)g.size());
        base = g.shfl(base, 0);
        out[base + g.thread_rank()] = v;
    }
}

// 5. match_any on a 64-bit key computed by a division, leader increments a histogram
extern "C" __global__ void q36_match64_hist(const unsigned long long* __restrict__ keys, int* __restrict__ hist,
                                            unsigned long long div, int nb, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned long long k = keys[i] / div;
    unsigned peers = __match_any_sync(__activemask(), k);
    int lane = threadIdx.x & 31;
    if (lane == __ffs(peers) - 1) atomicAdd(&hist[(int)(k % nb)], __popc(peers));
}
