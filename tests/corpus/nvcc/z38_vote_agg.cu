// corpus: -arch=sm_80
// Warp votes as kernel authors write them: warp-aggregated atomics (activemask, leader election, popc,
// shfl of the base), two aggregated counters sharing one mask, ballot/any/all in divergent code,
// match.any grouping with a leader atomic, redux.sync beside a leader (fresh kernels, helper nvvote38).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// classic warp-aggregated append: each passing lane gets a slot in out[]
extern "C" __global__ void z38_agg_append(const float *__restrict__ x, float *out, unsigned *cnt, int n, float thr)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    if (v > thr) {
        unsigned act = __activemask();
        int lane = threadIdx.x & 31;
        int leader = __ffs(act) - 1;
        unsigned base;
        if (lane == leader) base = atomicAdd(cnt, __popc(act));
        base = __shfl_sync(act, base, leader);
        unsigned rank = __popc(act & ((1u << lane) - 1));
        out[base + rank] = v;
    }
}

// two aggregated counters in one block: positives and negatives counted by the leader
extern "C" __global__ void z38_two_counters(const int *__restrict__ x, unsigned *pos, unsigned *neg, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? x[i] : 0;
    unsigned bp = __ballot_sync(0xffffffffu, v > 0);
    unsigned bn = __ballot_sync(0xffffffffu, v < 0);
    if ((threadIdx.x & 31) == 0) {
        if (bp) atomicAdd(pos, __popc(bp));
        if (bn) atomicAdd(neg, __popc(bn));
    }
}

// ballot in a divergent branch: lanes with even keys vote on a flag
extern "C" __global__ void z38_div_ballot(const int *__restrict__ k, unsigned *masks, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int key = i < n ? k[i] : 1;
    if ((key & 1) == 0) {
        unsigned act = __activemask();
        unsigned b = __ballot_sync(act, key > 100);
        if ((threadIdx.x & 31) == __ffs(act) - 1) masks[i >> 5] = b;
    }
}

// any / all deciding the path of the warp in a grid-stride loop
extern "C" __global__ void z38_any_all_loop(const float *__restrict__ x, float *y, int *flag, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        float v = x[i];
        if (__all_sync(__activemask(), v >= 0.0f)) {
            y[i] = sqrtf(v);
        } else if (__any_sync(__activemask(), v != v)) {
            if ((threadIdx.x & 31) == 0) atomicOr(flag, 1);
            y[i] = 0.0f;
        } else {
            y[i] = v;
        }
    }
}

// match.any grouping: lanes with the same bucket elect a leader that adds the group size
extern "C" __global__ void z38_match_hist(const int *__restrict__ key, unsigned *hist, int n, int nb)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int b = key[i] & (nb - 1);
        unsigned grp = __match_any_sync(__activemask(), b);
        int lane = threadIdx.x & 31;
        if (lane == __ffs(grp) - 1) atomicAdd(&hist[b], __popc(grp));
    }
}

// redux.sync sum and max beside a leader picked from the active mask
extern "C" __global__ void z38_redux_leader(const int *__restrict__ x, int *sum, int *mx, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int v = x[i];
        unsigned act = __activemask();
        int s = __reduce_add_sync(act, v);
        int m = __reduce_max_sync(act, v);
        if ((threadIdx.x & 31) == __ffs(act) - 1) { atomicAdd(sum, s); atomicMax(mx, m); }
    }
}

// coalesced group: aggregated shared-memory counter per block, then one global add
extern "C" __global__ void z38_cg_shared_count(const int *__restrict__ x, int *total, int n, int key)
{
    __shared__ int cnt;
    if (threadIdx.x == 0) cnt = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && x[i] == key) {
        cg::coalesced_group g = cg::coalesced_threads();
        if (g.thread_rank() == 0) atomicAdd(&cnt, (int)g.size());
    }
    __syncthreads();
    if (threadIdx.x == 0 && cnt) atomicAdd(total, cnt);
}

// match.all: does the whole active group hold the same value? count uniform warps
extern "C" __global__ void z38_match_all_uniform(const unsigned *__restrict__ x, unsigned *uni, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int pred;
        unsigned act = __activemask();
        __match_all_sync(act, x[i] >> 4, &pred);
        if (pred && (threadIdx.x & 31) == __ffs(act) - 1) atomicAdd(uni, 1u);
    }
}
