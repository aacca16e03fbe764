// corpus: -arch=sm_90
// Cooperative groups and CUB warp primitives inside real control flow: a 16-wide tile reduce in the first
// warp only, coalesced_threads() aggregation of a filtered append, CUB WarpReduce with valid_items on the
// last partial tile, and a CUB WarpScan in a loop over tiles that only some warps run.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cub/cub.cuh>
namespace cg = cooperative_groups;

extern "C" __global__ void w28_cg_first_warp_tiles(const float* __restrict__ partial, float* __restrict__ out, int n) {
    __shared__ float sm[32];
    auto block = cg::this_thread_block();
    int t = threadIdx.x;
    float v = 0.f;
    for (int i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x) v += partial[i];
    auto warp = cg::tiled_partition<32>(block);
    v = cg::reduce(warp, v, cg::plus<float>());
    if (warp.thread_rank() == 0) sm[warp.meta_group_rank()] = v;
    block.sync();
    if (warp.meta_group_rank() == 0) {
        auto half = cg::tiled_partition<16>(warp);
        float w = warp.thread_rank() < warp.meta_group_size() ? sm[warp.thread_rank()] : 0.f;
        w = cg::reduce(half, w, cg::plus<float>());
        if (half.thread_rank() == 0) atomicAdd(&out[half.meta_group_rank()], w);
    }
}

extern "C" __global__ void w28_cg_filtered_append(const int* __restrict__ in, int* __restrict__ out,
                                                  int* __restrict__ count, int n, int threshold) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = in[i];
    if (v > threshold) {
        auto g = cg::coalesced_threads();
        int base = 0;
        if (g.thread_rank() == 0) base = atomicAdd(count, (int)g.size());
        base = g.shfl(base, 0);
        out[base + g.thread_rank()] = v;
    }
}

extern "C" __global__ void w28_cub_tail_reduce(const float* __restrict__ in, float* __restrict__ out, int n) {
    using WR = cub::WarpReduce<float>;
    __shared__ typename WR::TempStorage tmp[4];
    int warp = threadIdx.x / 32;
    int lane = threadIdx.x % 32;
    int base = (blockIdx.x * 4 + warp) * 32;
    if (base >= n) return;
    int valid = min(32, n - base);
    float v = lane < valid ? in[base + lane] : 0.f;
    float s;
    if (valid == 32) s = WR(tmp[warp]).Sum(v);
    else s = WR(tmp[warp]).Sum(v, valid);
    if (lane == 0) out[base / 32] = s;
}

extern "C" __global__ void w28_cub_scan_tiles(const int* __restrict__ in, int* __restrict__ out,
                                              const int* __restrict__ tiles_per_warp, int tile_stride) {
    using WS = cub::WarpScan<int>;
    __shared__ typename WS::TempStorage tmp[8];
    int warp = threadIdx.x / 32;
    int lane = threadIdx.x % 32;
    int gw = blockIdx.x * 8 + warp;
    int ntiles = tiles_per_warp[gw];
    int carry = 0;
    for (int t = 0; t < ntiles; ++t) {
        int idx = (gw * tile_stride + t) * 32 + lane;
        int v = in[idx];
        int incl, total;
        WS(tmp[warp]).InclusiveSum(v, incl, total);
        out[idx] = incl + carry;
        carry += total;
    }
}
