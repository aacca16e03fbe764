// corpus: -arch=sm_80
// cooperative_groups::memcpy_async: (1) whole-block tile load with cg::wait; (2) two tiles in flight per warp
// tile (tiled_partition<32>) with cg::wait_prior<1> overlapping the next tile's copy and the current tile's
// reduction; (3) a ragged tail copy (size not a multiple of 16) followed by a block scan via shfl.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda/barrier>
namespace cg = cooperative_groups;

extern "C" __global__ void __launch_bounds__(256)
y27_cg_block_tile_max(const float *__restrict__ in, float *__restrict__ out, int n)
{
    auto block = cg::this_thread_block();
    __shared__ alignas(16) float tile[1024];
    size_t base = (size_t)blockIdx.x * 1024;
    cg::memcpy_async(block, tile, in + base, cuda::aligned_size_t<16>(sizeof(tile)));
    cg::wait(block);
    float m = -INFINITY;
    for (int i = block.thread_rank(); i < 1024; i += block.size()) m = fmaxf(m, tile[i]);
    auto warp = cg::tiled_partition<32>(block);
    m = cg::reduce(warp, m, cg::greater<float>());
    if (warp.thread_rank() == 0) out[blockIdx.x * 8 + warp.meta_group_rank()] = m;
}

extern "C" __global__ void __launch_bounds__(128)
y27_cg_warp_wait_prior(const float *__restrict__ in, float *__restrict__ out, int tiles)
{
    auto block = cg::this_thread_block();
    auto warp = cg::tiled_partition<32>(block);
    __shared__ alignas(16) float buf[4][2][128];
    float (*mine)[128] = buf[warp.meta_group_rank()];
    const float *src = in + ((size_t)blockIdx.x * 4 + warp.meta_group_rank()) * tiles * 128;
    cg::memcpy_async(warp, mine[0], src, sizeof(float) * 128);
    float acc = 0.f;
    for (int t = 0; t < tiles; ++t) {
        if (t + 1 < tiles) {
            cg::memcpy_async(warp, mine[(t + 1) & 1], src + (size_t)(t + 1) * 128, sizeof(float) * 128);
            cg::wait_prior<1>(warp);
        } else {
            cg::wait(warp);
        }
        for (int i = warp.thread_rank(); i < 128; i += 32) acc += mine[t & 1][i];
        warp.sync();
    }
    acc = cg::reduce(warp, acc, cg::plus<float>());
    if (warp.thread_rank() == 0) out[blockIdx.x * 4 + warp.meta_group_rank()] = acc;
}

extern "C" __global__ void __launch_bounds__(256)
y27_cg_ragged_copy_scan(const int *__restrict__ in, int *__restrict__ out, int n)
{
    auto block = cg::this_thread_block();
    __shared__ int tile[256];
    __shared__ int warp_sums[8];
    int base = blockIdx.x * 256;
    int count = min(256, n - base);
    cg::memcpy_async(block, tile, in + base, sizeof(int) * count);
    cg::wait(block);
    int t = block.thread_rank();
    int v = t < count ? tile[t] : 0;
    auto warp = cg::tiled_partition<32>(block);
    int incl = cg::inclusive_scan(warp, v);
    if (warp.thread_rank() == 31) warp_sums[warp.meta_group_rank()] = incl;
    block.sync();
    if (warp.meta_group_rank() == 0) {
        int w = warp.thread_rank() < 8 ? warp_sums[warp.thread_rank()] : 0;
        w = cg::exclusive_scan(warp, w);
        if (warp.thread_rank() < 8) warp_sums[warp.thread_rank()] = w;
    }
    block.sync();
    if (t < count) out[base + t] = incl + warp_sums[warp.meta_group_rank()];
}
