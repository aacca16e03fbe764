// corpus: -arch=sm_80
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// 1. key histogram: match the active lanes, reduce the peers' weights with shuffles inside the group
extern "C" __global__ void w38_match_weight_hist(const int *__restrict__ keys, const float *__restrict__ wt,
                                                  float *hist, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int k = keys[i];
    float w = wt[i];
    unsigned peers = __match_any_sync(__activemask(), k);
    int lane = threadIdx.x & 31;
    int leader = __ffs(peers) - 1;
    float s = 0.f;
    unsigned rest = peers;
    while (rest) {
        int src = __ffs(rest) - 1;
        s += __shfl_sync(peers, w, src);
        rest &= rest - 1;
    }
    if (lane == leader) atomicAdd(&hist[k], s);
}

// 2. ballot-made group: lanes with a positive value compact their indices through one atomic per warp
extern "C" __global__ void w38_ballot_compact(const float *__restrict__ x, int *out, int *count, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? x[i] : 0.f;
    unsigned grp = __ballot_sync(0xffffffffu, v > 0.f);
    if (v > 0.f) {
        int lane = threadIdx.x & 31;
        int leader = __ffs(grp) - 1;
        int base = 0;
        if (lane == leader) base = atomicAdd(count, __popc(grp));
        base = __shfl_sync(grp, base, leader);
        out[base + __popc(grp & ((1u << lane) - 1))] = i;
    }
}

// 3. coalesced group inside a guard: an aggregated atomic per bucket of 4
extern "C" __global__ void w38_coalesced_bucket(const unsigned *__restrict__ v, unsigned *bins, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned x = v[i];
    if (x & 1u) {
        cg::coalesced_group g = cg::coalesced_threads();
        unsigned b = (x >> 1) & 3u;
        unsigned prev = 0;
        if (g.thread_rank() == 0) prev = atomicAdd(&bins[b], g.size());
        prev = g.shfl(prev, 0);
        bins[4 + (i & 63)] = prev + g.thread_rank();
    }
}

// 4. labeled partition (sm_70 match) of a computed key, reduce with the group
extern "C" __global__ void w38_labeled_sum(const int *__restrict__ key, const int *__restrict__ val, int *sum, int n)
{
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int k = i < n ? key[i] % 7 : 7;
    int x = i < n ? val[i] : 0;
    unsigned peers = __match_any_sync(0xffffffffu, k);
    int total = __reduce_add_sync(peers, x);
    if (warp.thread_rank() == __ffs(peers) - 1 && k < 7) atomicAdd(&sum[k], total);
}

// 5. per-key maximum with a match over a loaded mask of valid lanes
extern "C" __global__ void w38_match_masked_max(const int *__restrict__ key, const int *__restrict__ val,
                                                 const unsigned *__restrict__ valid, int *best, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned m = valid[i >> 5];
    if (!((m >> (threadIdx.x & 31)) & 1u)) return;
    int k = key[i] & 255;
    unsigned peers = __match_any_sync(m, k);
    int mx = __reduce_max_sync(peers, val[i]);
    if ((threadIdx.x & 31) == 31 - __clz(peers)) atomicMax(&best[k], mx);
}

// 6. tiles of 8 after an early exit: rank inside the tile with a ballot, the tile leader writes
extern "C" __global__ void w38_tile8_rank(const float *__restrict__ x, int *rank, int *flags, int n)
{
    cg::thread_block_tile<8> t8 = cg::tiled_partition<8>(cg::this_thread_block());
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    unsigned b = t8.ballot(v > 0.5f);
    rank[i] = __popc(b & ((1u << t8.thread_rank()) - 1));
    if (t8.thread_rank() == 0) flags[i >> 3] = b;
}

// 7. active-lane group: the lanes that hold the same row share one atomic, the result broadcast back
extern "C" __global__ void w38_row_ticket(const int *__restrict__ row, int *fill, int *pos, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int r = row[i];
    if (r < 0) return;
    unsigned act = __activemask();
    unsigned same = __match_any_sync(act, r);
    int lane = threadIdx.x & 31;
    int first = __ffs(same) - 1;
    int t = 0;
    if (lane == first) t = atomicAdd(&fill[r], __popc(same));
    t = __shfl_sync(same, t, first) + __popc(same & ((1u << lane) - 1));
    pos[i] = t;
}

// 8. syncwarp over a ballot group after a data-dependent write to shared memory
extern "C" __global__ void w38_group_syncwarp(const int *__restrict__ a, int *out, int n)
{
    __shared__ int buf[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? a[i] : 0;
    unsigned g = __ballot_sync(0xffffffffu, v != 0);
    if (v != 0) {
        buf[threadIdx.x] = v * 3;
        __syncwarp(g);
        int nb = buf[threadIdx.x ^ 1];
        out[i] = nb + __popc(g);
    }
}
