// corpus: -arch=sm_80
// Cooperative groups at block level: this_thread_block().sync() in a loop, cg::reduce over 32-wide and 8-wide
// tiles feeding a block sum, tile.sync() with a shared staging buffer, and block.thread_rank() loops.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

extern "C" __global__ void __launch_bounds__(256) b27_cg_block_sum(const int *in, int *out, int n)
{
    __shared__ int warp_sums[8];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    int acc = 0;
    for (int i = block.group_index().x * 256 + block.thread_rank(); i < n; i += 256 * gridDim.x) acc += in[i];
    int ws = cg::reduce(warp, acc, cg::plus<int>());
    if (warp.thread_rank() == 0) warp_sums[warp.meta_group_rank()] = ws;
    block.sync();
    if (warp.meta_group_rank() == 0) {
        int v = warp.thread_rank() < 8 ? warp_sums[warp.thread_rank()] : 0;
        v = cg::reduce(warp, v, cg::plus<int>());
        if (warp.thread_rank() == 0) atomicAdd(out, v);
    }
}

extern "C" __global__ void __launch_bounds__(128) b27_cg_tile8_max(const float *in, float *out)
{
    cg::thread_block block = cg::this_thread_block();
    auto t8 = cg::tiled_partition<8>(block);
    __shared__ float tile_max[16];
    float v = in[blockIdx.x * 128 + block.thread_rank()];
    float m = cg::reduce(t8, v, cg::greater<float>());
    if (t8.thread_rank() == 0) tile_max[t8.meta_group_rank()] = m;
    block.sync();
    if (block.thread_rank() < 16) {
        auto t16 = cg::tiled_partition<16>(cg::tiled_partition<32>(block));
        float mm = cg::reduce(t16, tile_max[block.thread_rank()], cg::greater<float>());
        if (block.thread_rank() == 0) out[blockIdx.x] = mm;
    }
}

extern "C" __global__ void __launch_bounds__(256) b27_cg_smooth(float *data, int steps)
{
    __shared__ float buf[2][256];
    cg::thread_block block = cg::this_thread_block();
    unsigned r = block.thread_rank();
    buf[0][r] = data[blockIdx.x * 256 + r];
    int cur = 0;
    block.sync();
    for (int s = 0; s < steps; ++s) {
        float l = buf[cur][(r + 255) & 255], c = buf[cur][r], rr = buf[cur][(r + 1) & 255];
        buf[cur ^ 1][r] = 0.25f * l + 0.5f * c + 0.25f * rr;
        cur ^= 1;
        block.sync();
    }
    data[blockIdx.x * 256 + r] = buf[cur][r];
}

extern "C" __global__ void __launch_bounds__(256) b27_cg_tile_transpose(const int *in, int *out)
{
    __shared__ int stage[8][33];
    cg::thread_block block = cg::this_thread_block();
    auto warp = cg::tiled_partition<32>(block);
    int w = warp.meta_group_rank(), l = warp.thread_rank();
    for (int rep = 0; rep < 4; ++rep) {
        stage[w][l] = in[(blockIdx.x * 4 + rep) * 256 + w * 32 + l];
        warp.sync();
        int v = stage[w][31 - l];
        warp.sync();
        stage[w][l] = v + cg::reduce(warp, v, cg::plus<int>());
        block.sync();
        out[(blockIdx.x * 4 + rep) * 256 + l * 8 + w] = stage[w][l];
        block.sync();
    }
}
