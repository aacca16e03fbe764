// corpus: -arch=sm_80
// cooperative_groups::memcpy_async into shared memory with double buffering: the next tile's copy is issued
// before computing on the current one, cg::wait_prior<1> waits for all but the latest batch, cg::wait at the
// end; plus a tile-level (32-thread) memcpy_async with cuda::aligned_size_t for 16-byte cp.async.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/barrier>
namespace cg = cooperative_groups;

constexpr int TILE = 512;

extern "C" __global__ void __launch_bounds__(256)
cg_memcpy_double_buffer(const float *in, float *out, int tiles)
{
    cg::thread_block block = cg::this_thread_block();
    __shared__ alignas(16) float buf[2][TILE];
    float acc = 0.f;
    cg::memcpy_async(block, buf[0], in, sizeof(float) * TILE);
    for (int t = 0; t < tiles; ++t) {
        if (t + 1 < tiles) {
            cg::memcpy_async(block, buf[(t + 1) & 1], in + (size_t)(t + 1) * TILE, sizeof(float) * TILE);
            cg::wait_prior<1>(block);
        } else {
            cg::wait(block);
        }
        const float *b = buf[t & 1];
        acc += b[threadIdx.x] * b[TILE - 1 - threadIdx.x] + b[threadIdx.x + 256];
        block.sync();
    }
    out[blockIdx.x * 256 + threadIdx.x] = acc;
}

extern "C" __global__ void __launch_bounds__(128)
cg_memcpy_tile_aligned(const int4 *in, int4 *out)
{
    auto block = cg::this_thread_block();
    auto tile = cg::tiled_partition<32>(block);
    __shared__ int4 stage[4][64];
    int w = tile.meta_group_rank();
    const int4 *src = in + (blockIdx.x * 4 + w) * 64;
    cg::memcpy_async(tile, stage[w], src, cuda::aligned_size_t<16>(sizeof(int4) * 64));
    cg::wait(tile);
    int4 a = stage[w][tile.thread_rank()], b = stage[w][63 - tile.thread_rank()];
    out[(blockIdx.x * 4 + w) * 32 + tile.thread_rank()] = make_int4(a.x + b.w, a.y + b.z, a.z + b.y, a.w + b.x);
}
