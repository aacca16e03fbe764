// corpus: -arch=sm_80
// Check kernels (helper nvvote39, written after the rule): guarded values before warp collectives in other
// styles -- cooperative groups tiles, CUB warp primitives, shared staging before a tile reduction, a guard
// loaded from memory, a strided row loop, a 16-wide tile.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cub/warp/warp_scan.cuh>
#include <cub/warp/warp_reduce.cuh>
#include <cuda/functional>
namespace cg = cooperative_groups;

// CUB warp inclusive sum of a guarded long long load; stores under the same guard
__global__ void v39_check_cub_scan64(const long long* __restrict__ in, long long* __restrict__ out, int n)
{
    using WS = cub::WarpScan<long long>;
    __shared__ typename WS::TempStorage tmp[4];
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    long long v = 0;
    if (g < n) v = in[g];
    long long s;
    WS(tmp[threadIdx.x / 32]).InclusiveSum(v, s);
    if (g < n) out[g] = s;
}

// shared staging of a guarded value and a row id, block barrier, 16-wide cg tile reduction per half-warp
__global__ void __launch_bounds__(128) v39_check_stage_tile16(const float* __restrict__ x,
                                                              float* __restrict__ sums, int n)
{
    __shared__ float buf[128];
    __shared__ int row[128];
    auto blk = cg::this_thread_block();
    auto t16 = cg::tiled_partition<16>(blk);
    unsigned r = blk.thread_rank();
    int g = blockIdx.x * 128 + (int)r;
    buf[r] = g < n ? x[g] : 0.f;
    row[r] = g >> 4;
    blk.sync();
    float v = buf[r ^ 1] + buf[r];
    v = cg::reduce(t16, v, cg::plus<float>());
    if (t16.thread_rank() == 0 && g < n) sums[row[r]] = v;
}

// the guard comes from memory (a per-element mask), cg ballot-style count through any/all and a scan
__global__ void v39_check_mask_scan(const unsigned char* __restrict__ mask, const int* __restrict__ val,
                                    int* __restrict__ pos, int n)
{
    auto warp = cg::tiled_partition<32>(cg::this_thread_block());
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int m = g < n ? mask[g] : 0;
    int v = 0;
    if (m) v = val[g];
    int e = cg::exclusive_scan(warp, v);
    if (warp.any(m != 0) && m) pos[g] = e;
}

// a strided row loop: each warp takes rows, guarded loads per lane, CUB warp max, lane 0 writes
__global__ void v39_check_rows_cubmax(const float* __restrict__ a, float* __restrict__ rmax, int rows, int cols)
{
    using WR = cub::WarpReduce<float>;
    __shared__ typename WR::TempStorage tmp[8];
    int w = threadIdx.x >> 5, lane = threadIdx.x & 31;
    for (int r = blockIdx.x * 8 + w; r < rows; r += gridDim.x * 8) {
        float m = -3.0e38f;
        if (lane < cols) m = a[(size_t)r * cols + lane];
        float best = WR(tmp[w]).Reduce(m, ::cuda::maximum<>{});
        if (lane == 0) rmax[r] = best;
        __syncwarp();
    }
}
