// corpus: -arch=sm_75
// Warp-aggregated atomics as the CUDA programming guide and the CG docs write them: the leader lane
// (lowest active lane) does one atomicAdd for the warp and broadcasts the base with __shfl_sync.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ __forceinline__ int lane_id() { return threadIdx.x & 31; }

// Programming guide: __activemask / __ffs / __popc / one leader atomicAdd.
__device__ int atomicAggInc(int *ctr) {
    unsigned int active = __activemask();
    int leader = __ffs(active) - 1;
    int change = __popc(active);
    unsigned int rank = __popc(active & ((1u << lane_id()) - 1));
    int warp_res;
    if (lane_id() == leader) warp_res = atomicAdd(ctr, change);
    warp_res = __shfl_sync(active, warp_res, leader);
    return warp_res + rank;
}

extern "C" __global__ void a27_filter_guide(int *dst, int *nres, const int *src, int n) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i >= n) return;
    if (src[i] > 0) dst[atomicAggInc(nres)] = src[i];
}

// Ballot variant: the predicate's ballot gives the voting lanes.
extern "C" __global__ void a27_filter_ballot(int *dst, int *nres, const int *src, int n) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    int v = (i < n) ? src[i] : 0;
    bool keep = v > 0;
    unsigned mask = __ballot_sync(0xffffffffu, keep);
    int base = 0;
    int leader = __ffs(mask) - 1;
    if (mask != 0 && lane_id() == leader) base = atomicAdd(nres, __popc(mask));
    base = __shfl_sync(0xffffffffu, base, leader < 0 ? 0 : leader);
    if (keep) dst[base + __popc(mask & ((1u << lane_id()) - 1))] = v;
}

// Cooperative groups: coalesced_threads() inside the divergent branch.
__device__ int cg_agg_inc(int *p) {
    cg::coalesced_group g = cg::coalesced_threads();
    int prev;
    if (g.thread_rank() == 0) prev = atomicAdd(p, g.num_threads());
    return g.shfl(prev, 0) + g.thread_rank();
}

extern "C" __global__ void a27_filter_cg(int *dst, int *nres, const int *src, int n) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n && src[i] > 0) dst[cg_agg_inc(nres)] = src[i];
}

// Two aggregated counters under different predicates (partition into two buckets).
extern "C" __global__ void a27_partition(int *lo, int *hi, int *nlo, int *nhi, const int *src, int pivot, int n) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i >= n) return;
    int v = src[i];
    if (v < pivot) lo[atomicAggInc(nlo)] = v;
    else hi[atomicAggInc(nhi)] = v;
}

// The compiler's own aggregation: plain atomicAdd to one counter from every lane, plus a sum.
extern "C" __global__ void a27_count_and_sum(int *count, int *sum, unsigned *maxv, const int *src, int n) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) {
        int v = src[i];
        atomicAdd(count, 1);
        atomicAdd(sum, v);
        atomicMax(maxv, (unsigned)v);
    }
}

// Grid-stride loop with an aggregated add per iteration and a final aggregated add.
extern "C" __global__ void a27_grid_stride_count(int *count, const float *x, float thr, int n) {
    int local = 0;
    for (int i = threadIdx.x + blockIdx.x * blockDim.x; i < n; i += blockDim.x * gridDim.x) {
        if (x[i] > thr) { local++; atomicAdd(count + 1, 1); }
    }
    atomicAdd(count, local);
}
