// corpus: -arch=sm_80
// Check kernels for helper nvsched37's rules (written after them, not looked at while writing them): guarded
// warp reductions over the active lanes with a leader, match-based grouping with a broadcast at the join,
// a reduction of a value tested by the guard (fresh kernels, helper nvsched37).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// histogram of small keys: active lanes of a tail, max and count per warp by the first active lane
extern "C" __global__ void z37_check_tail_max(const int *__restrict__ v, int *wmax, int *wcnt, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = v[i] * 3 + 1;
    unsigned act = __activemask();
    int m = __reduce_max_sync(act, x);
    int lane = threadIdx.x & 31;
    if (lane == __ffs(act) - 1) {
        wmax[i >> 5] = m;
        wcnt[i >> 5] = __popc(act);
    }
}

// positive values only: sum of the value the guard tested, first active lane adds it
extern "C" __global__ void z37_check_pos_sum(const unsigned *__restrict__ v, unsigned *total, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned x = v[i];
        if (x > 100u) {
            unsigned act = __activemask();
            unsigned s = __reduce_add_sync(act, x);
            if ((threadIdx.x & 31) == __ffs(act) - 1) atomicAdd(total, s);
        }
    }
}

// group lanes by key with match_any; the group leader reserves slots and broadcasts the base
extern "C" __global__ void z37_check_group_reserve(const int *__restrict__ key, int *fill, int *slot, int n, int cap)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int k = key[i] & 127;
    unsigned grp = __match_any_sync(__activemask(), k);
    int leader = __ffs(grp) - 1;
    int lane = threadIdx.x & 31;
    int base = 0;
    if (lane == leader) base = atomicAdd(&fill[k], __popc(grp));
    base = __shfl_sync(grp, base, leader);
    int r = __popc(grp & ((1u << lane) - 1));
    if (base + r < cap) slot[k * cap + base + r] = i;
}

// two reductions of the active lanes, one of a value tested earlier, one of a value computed here
extern "C" __global__ void z37_check_minmax_flags(const int *__restrict__ v, int *out, int n, int lo)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = v[i];
    if (x < lo) return;
    unsigned act = __activemask();
    int mn = __reduce_min_sync(act, x);
    unsigned fl = __reduce_or_sync(act, 1u << (x & 31));
    if ((threadIdx.x & 31) == __ffs(act) - 1) {
        out[3 * (i >> 5)] = mn;
        out[3 * (i >> 5) + 1] = (int)fl;
        out[3 * (i >> 5) + 2] = __popc(act);
    }
}
