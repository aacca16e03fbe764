// corpus: -arch=sm_80
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

// labeled partition by bucket, group reduce, one atomic per label group
__global__ void w38_check_labeled_reduce(const int *__restrict__ bucket, const float *__restrict__ w,
                                         float *acc, int n)
{
    auto block = cg::this_thread_block();
    auto tile = cg::tiled_partition<32>(block);
    int gid = block.group_index().x * block.size() + block.thread_rank();
    if (gid >= n) return;
    int b = bucket[gid];
    auto grp = cg::labeled_partition(tile, b);
    float s = cg::reduce(grp, w[gid], cg::plus<float>());
    if (grp.thread_rank() == 0) atomicAdd(acc + b, s);
}

// warp-aggregated float accumulation in a data branch (no early return), mask from the active lanes
__global__ void w38_check_agg_if(const float *__restrict__ x, float *sum, unsigned *hits, int n)
{
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    float v = gid < n ? x[gid] : -1.0f;
    if (v >= 0.25f) {
        unsigned act = __activemask();
        int lane = threadIdx.x % 32;
        int first = __ffs(act) - 1;
        float part = v;
        for (int off = 16; off > 0; off /= 2) part += __shfl_xor_sync(act, part, off);
        if (lane == first) { atomicAdd(sum, part); atomicAdd(hits, __popc(act)); }
    }
}

// grid-stride loop: per iteration lanes with equal keys combine their counts
__global__ void w38_check_gridstride_match(const unsigned *__restrict__ keys, unsigned *count, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        unsigned k = keys[i] & 1023u;
        unsigned same = __match_any_sync(__activemask(), k);
        unsigned c = __reduce_add_sync(same, 1u);
        if ((int)(threadIdx.x & 31) == __ffs(same) - 1) atomicAdd(count + k, c);
    }
}

// coalesced threads after a uniform parameter test and an early exit: broadcast of the group's ticket
__global__ void w38_check_coalesced_ticket(const int *__restrict__ flags, int *next, int *ticket, int n, int mode)
{
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    if (gid >= n || flags[gid] == 0) return;
    int base = 0;
    if (mode > 0) {
        cg::coalesced_group active = cg::coalesced_threads();
        if (active.thread_rank() == 0) base = atomicAdd(next, (int)active.size());
        base = active.shfl(base, 0) + (int)active.thread_rank();
    } else {
        base = atomicAdd(next, 1);
    }
    ticket[gid] = base;
}

// 64-bit keys through a device helper: peers by key, the leader reserves, everyone gets its slot
template <typename K>
__device__ __forceinline__ int reserve_by_key(K key, int *counter)
{
    unsigned peers = __match_any_sync(0xffffffffu, key);
    int lane = threadIdx.x & 31;
    int leader = 31 - __clz(peers);
    int got = 0;
    if (lane == leader) got = atomicAdd(counter + (int)(key & 63), __popc(peers));
    return __shfl_sync(peers, got, leader) + __popc(peers >> (lane + 1) << (lane + 1) ^ peers) - 1;
}
__global__ void w38_check_key64_reserve(const unsigned long long *__restrict__ keys, int *counter, int *slot)
{
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    slot[gid] = reserve_by_key(keys[gid], counter);
}

// a sum over the full warp, then the lanes above a threshold vote among themselves
__global__ void w38_check_sum_then_vote(const int *__restrict__ a, int *out, int thr)
{
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    int v = a[gid];
    int s = v;
    s += __shfl_xor_sync(0xffffffffu, s, 1);
    s += __shfl_xor_sync(0xffffffffu, s, 2);
    unsigned hi = __ballot_sync(0xffffffffu, v > thr);
    if (v > thr) {
        unsigned top = __ballot_sync(hi, v > 2 * thr);
        out[gid] = s + __popc(top);
    } else {
        out[gid] = s;
    }
}
