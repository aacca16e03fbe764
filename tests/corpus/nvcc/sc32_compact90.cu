// corpus: -arch=sm_90
// Stream compaction on sm_90: warp-aggregated append of indices with an early-return guard and a predicated
// ballot mask, partition into two outputs (select true / false), and a grid-stride loop with __any_sync exit.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern "C" __global__ void sc32_partition_two(const float* in, float* lo_out, float* hi_out, int* counts, int n, float pivot) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int lane = threadIdx.x & 31;
    float v = in[i];
    bool hi = v >= pivot;
    unsigned active = __activemask();
    unsigned mhi = __ballot_sync(active, hi);
    unsigned mlo = active & ~mhi;
    int leader = __ffs(active) - 1;
    int bhi = 0, blo = 0;
    if (lane == leader) {
        if (mhi) bhi = atomicAdd(&counts[1], __popc(mhi));
        if (mlo) blo = atomicAdd(&counts[0], __popc(mlo));
    }
    bhi = __shfl_sync(active, bhi, leader);
    blo = __shfl_sync(active, blo, leader);
    unsigned below = (1u << lane) - 1;
    if (hi) hi_out[bhi + __popc(mhi & below)] = v;
    else lo_out[blo + __popc(mlo & below)] = v;
}

extern "C" __global__ void sc32_gridstride_any(const int* in, int* out, int* count, int n) {
    int lane = threadIdx.x & 31;
    int stride = blockDim.x * gridDim.x;
    int start = blockIdx.x * blockDim.x + (threadIdx.x & ~31);
    for (int w = start; __any_sync(0xffffffffu, w + lane < n); w += stride) {
        int i = w + lane;
        int v = i < n ? in[i] : -1;
        bool keep = v > 0;
        unsigned m = __ballot_sync(0xffffffffu, keep);
        if (m == 0) continue;
        int base = 0;
        if (lane == 0) base = atomicAdd(count, __popc(m));
        base = __shfl_sync(0xffffffffu, base, 0);
        if (keep) out[base + __popc(m & ((1u << lane) - 1))] = v;
    }
}

extern "C" __global__ void sc32_block_compact_idx(const int* flags, int* idx, int* count, int n) {
    __shared__ int wcnt[32];
    __shared__ int bbase;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nw = blockDim.x >> 5;
    bool keep = false;
    if (i < n) keep = flags[i] != 0;
    unsigned m = __ballot_sync(0xffffffffu, keep);
    if (lane == 0) wcnt[warp] = __popc(m);
    __syncthreads();
    if (warp == 0) {
        int c = lane < nw ? wcnt[lane] : 0;
        int s = c;
        #pragma unroll
        for (int d = 1; d < 32; d <<= 1) { int t = __shfl_up_sync(0xffffffffu, s, d); if (lane >= d) s += t; }
        int tot = __shfl_sync(0xffffffffu, s, 31);
        if (lane == 0) bbase = atomicAdd(count, tot);
        if (lane < nw) wcnt[lane] = s - c;
    }
    __syncthreads();
    if (keep) idx[bbase + wcnt[warp] + __popc(m & ((1u << lane) - 1))] = i;
}

extern "C" __global__ void sc32_cg_coalesced_filter(const int* in, int* out, int* count, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = in[i];
    if ((v % 3) == 0) {
        auto g = cg::coalesced_threads();
        int base = 0;
        if (g.thread_rank() == 0) base = atomicAdd(count, g.num_threads());
        out[g.shfl(base, 0) + g.thread_rank()] = v;
    }
}
