// corpus: -arch=sm_80
// Warp-aggregated code sharing one active-mask read: guarded reductions with __activemask as the member
// mask and a leader from __ffs, several aggregated atomics in a row, ballot + activemask stats, and a
// segmented scan (fresh kernels, helper nvsched35).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

// guarded sum/min of floats' bits, leader from __ffs of the active mask
extern "C" __global__ void z35_guard_sum_min(const unsigned *__restrict__ a, unsigned *s, unsigned *mn, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned v = a[i] & 0xffffu;
        unsigned act = __activemask();
        unsigned t = __reduce_add_sync(act, v);
        unsigned m = __reduce_min_sync(act, v);
        if ((threadIdx.x & 31) == (unsigned)(__ffs(act) - 1)) {
            atomicAdd(s, t);
            atomicMin(mn, m);
        }
    }
}

// one guarded reduction, the count of active lanes stored by the leader
extern "C" __global__ void z35_guard_count(const int *__restrict__ a, int *out, int *cnt, int n, int thr)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && a[i] > thr) {
        unsigned act = __activemask();
        int t = __reduce_add_sync(act, a[i]);
        if ((threadIdx.x & 31) == (unsigned)(__ffs(act) - 1)) {
            out[i >> 5] = t;
            cnt[i >> 5] = __popc(act);
        }
    }
}

// two aggregated atomics on different counters in one branch
extern "C" __global__ void z35_two_counters(const float *x, unsigned *pos, unsigned *neg, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    if (v > 0.f)
        atomicAdd(pos, 1u);
    else
        atomicAdd(neg, 1u);
}

// aggregated atomic with a used result plus a second aggregated atomic after it
extern "C" __global__ void z35_reserve_and_count(const int *keys, int *slots, int *counter, int *total, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && keys[i] != 0) {
        int slot = atomicAdd(counter, 1);
        slots[slot] = keys[i];
        atomicAdd(total, keys[i]);
    }
}

// ballot + reduce + activemask in one block, lane 0 writes
extern "C" __global__ void z35_ballot_stats(const int *x, int thr, unsigned *masks, unsigned *sums)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = x[i];
    bool p = v > thr;
    unsigned b = __ballot_sync(0xffffffffu, p);
    unsigned q = p ? (unsigned)v & 0xffu : 0u;
    unsigned s = __reduce_add_sync(0xffffffffu, q);
    unsigned act = __activemask();
    if ((threadIdx.x & 31) == 0) {
        masks[i >> 5] = b ^ act;
        sums[i >> 5] = s + __popc(b);
    }
}

// reduce_or / reduce_and / activemask in one block
extern "C" __global__ void z35_flag_stats(const unsigned *f, unsigned *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = f[i];
    unsigned o = __reduce_or_sync(0xffffffffu, v);
    unsigned a = __reduce_and_sync(0xffffffffu, v);
    unsigned act = __activemask();
    if ((threadIdx.x & 31) == 0)
        out[i >> 5] = (o & ~a) | act;
}

// segmented inclusive scan: head flags by ballot, shfl.up steps bounded by the segment start
extern "C" __global__ void z35_segscan(const int *x, const int *head, int *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int v = i < n ? x[i] : 0;
    int h = i < n ? head[i] : 1;
    unsigned hb = __ballot_sync(0xffffffffu, h != 0);
    unsigned below = hb & ((2u << lane) - 1u);
    int start = 31 - __clz(below);
    for (int d = 1; d < 32; d <<= 1) {
        int u = __shfl_up_sync(0xffffffffu, v, d);
        if (lane - d >= start) v += u;
    }
    if (i < n) y[i] = v;
}

// cooperative-groups coalesced group reduce under a guard, leader writes
extern "C" __global__ void z35_cg_coalesced_sum(const int *x, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && (x[i] & 1)) {
        cg::coalesced_group g = cg::coalesced_threads();
        int s = cg::reduce(g, x[i], cg::plus<int>());
        if (g.thread_rank() == 0) atomicAdd(out, s);
    }
}

// grid-stride count with an aggregated atomic per iteration
extern "C" __global__ void z35_grid_count(const int *x, int n, int key, unsigned *count)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        if (x[i] == key) atomicAdd(count, 1u);
    }
}

// match.any groups: leader per group adds the group's size
extern "C" __global__ void z35_match_hist(const int *keys, int *hist, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int k = keys[i] & 63;
        unsigned peers = __match_any_sync(__activemask(), k);
        int leader = __ffs(peers) - 1;
        if ((threadIdx.x & 31) == leader) atomicAdd(&hist[k], __popc(peers));
    }
}
