// corpus: -arch=sm_75
// Warp shuffles in real control flow: guarded loads feeding scans and reductions, lane-0 stores, tiles, CUB.
#include <cooperative_groups.h>
#include <cub/warp/warp_scan.cuh>
#include <cub/warp/warp_reduce.cuh>
#include <cuda/functional>
namespace cg = cooperative_groups;

// inclusive warp scan of a guarded float load, stored under the same guard
extern "C" __global__ void h38_scan_guarded_f32(const float* __restrict__ x, float* __restrict__ y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    float v = (i < n) ? x[i] : 0.f;
#pragma unroll
    for (int d = 1; d < 32; d *= 2) {
        float t = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d) v += t;
    }
    if (i < n) y[i] = v;
}

// exclusive scan of flags -> compaction offsets, warp total by lane 31
extern "C" __global__ void h38_compact_offsets(const int* __restrict__ keys, int* __restrict__ out,
                                               int* __restrict__ totals, int n, int thr)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32;
    int flag = 0;
    int k = 0;
    if (i < n) { k = keys[i]; flag = k > thr; }
    int s = flag;
    for (int d = 1; d < 32; d <<= 1) {
        int t = __shfl_up_sync(0xffffffffu, s, d);
        if (lane >= d) s += t;
    }
    if (flag) out[blockIdx.x * blockDim.x + s - 1] = k;
    if (lane == 31) totals[i / 32] = s;
}

// two independent butterfly reductions (sum and max) of a guarded load; lane 0 writes both
extern "C" __global__ void h38_sum_max_guarded(const float* __restrict__ x, float* __restrict__ sums,
                                               float* __restrict__ maxs, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? x[i] : 0.f;
    float s = v, m = i < n ? v : -1e30f;
    for (int o = 16; o; o >>= 1) {
        s += __shfl_xor_sync(0xffffffffu, s, o);
        m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
    }
    if ((threadIdx.x & 31) == 0) { sums[i >> 5] = s; maxs[i >> 5] = m; }
}

// segmented warp scan with head flags (int), double-pointer style addressing
extern "C" __global__ void h38_segscan(const int* __restrict__ v, const unsigned char* __restrict__ head,
                                       int* __restrict__ o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x & 31;
    int x = 0, h = 1;
    if (i < n) { x = v[i]; h = head[i]; }
    unsigned hb = __ballot_sync(0xffffffffu, h);
    unsigned below = hb & ((2u << lane) - 1u);
    int seg0 = 31 - __clz(below | 1u);
    for (int d = 1; d < 32; d <<= 1) {
        int t = __shfl_up_sync(0xffffffffu, x, d);
        if ((int)lane - d >= seg0) x += t;
    }
    if (i < n) o[i] = x;
}

// cg tile<16> reduce of a guarded load inside a grid-stride loop
extern "C" __global__ void h38_tile16_rows(const float* __restrict__ x, float* __restrict__ y, int rows)
{
    cg::thread_block_tile<16> t = cg::tiled_partition<16>(cg::this_thread_block());
    int tiles = (gridDim.x * blockDim.x) / 16;
    for (int r = (blockIdx.x * blockDim.x + threadIdx.x) / 16; r < rows; r += tiles) {
        float v = x[r * 16 + t.thread_rank()];
        for (int o = 8; o; o >>= 1) v += t.shfl_xor(v, o);
        if (t.thread_rank() == 0) y[r] = v;
    }
}

// CUB WarpScan on a guarded load, result stored under the guard
extern "C" __global__ void h38_cub_scan_guarded(const int* __restrict__ x, int* __restrict__ y, int n)
{
    using WS = cub::WarpScan<int>;
    __shared__ typename WS::TempStorage tmp[4];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? x[i] : 0;
    int incl;
    WS(tmp[threadIdx.x / 32]).InclusiveSum(v, incl);
    if (i < n) y[i] = incl;
}

// CUB WarpReduce max of a guarded load, lane 0 atomically combines
extern "C" __global__ void h38_cub_reduce_max(const int* __restrict__ x, int* __restrict__ best, int n)
{
    using WR = cub::WarpReduce<int>;
    __shared__ typename WR::TempStorage tmp[8];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? x[i] : INT_MIN;
    int m = WR(tmp[threadIdx.x / 32]).Reduce(v, ::cuda::maximum<>());
    if ((threadIdx.x & 31) == 0) atomicMax(best, m);
}

// shuffle-down reduction of a guarded double load with a count, lane 0 writes mean
extern "C" __global__ void h38_mean_f64(const double* __restrict__ x, double* __restrict__ m, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    double v = 0.0;
    int c = 0;
    if (i < n) { v = x[i]; c = 1; }
    for (int o = 16; o > 0; o /= 2) {
        v += __shfl_down_sync(0xffffffffu, v, o);
        c += __shfl_down_sync(0xffffffffu, c, o);
    }
    if ((threadIdx.x & 31) == 0 && c) m[i / 32] = v / c;
}
