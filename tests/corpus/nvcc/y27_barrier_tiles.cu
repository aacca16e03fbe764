// corpus: -arch=sm_80
// cuda::memcpy_async into shared memory completed on a block-scoped cuda::barrier, as written in the CUDA
// programming guide: (1) a one-shot tile load and arrive_and_wait, then a block-wide row sum; (2) a split
// arrive / wait(token) with independent work between, over a loop of tiles (one barrier reused phase after
// phase); (3) double buffering over two barriers where tile k+1 is in flight while tile k is reduced.
#include <cuda/barrier>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
using block_barrier = cuda::barrier<cuda::thread_scope_block>;

constexpr int TILE = 512;

extern "C" __global__ void __launch_bounds__(256)
y27_tile_rowsum(const float *__restrict__ in, float *__restrict__ out, int n)
{
    auto block = cg::this_thread_block();
    __shared__ alignas(16) float tile[TILE];
    __shared__ block_barrier bar;
    if (block.thread_rank() == 0) init(&bar, block.size());
    block.sync();
    const float *src = in + (size_t)blockIdx.x * TILE;
    cuda::memcpy_async(block, tile, src, sizeof(float) * TILE, bar);
    bar.arrive_and_wait();
    float s = 0.f;
    for (int i = threadIdx.x; i < TILE; i += blockDim.x) s += tile[i] * tile[i];
    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
    if ((threadIdx.x & 31) == 0) atomicAdd(out + blockIdx.x % n, s);
}

extern "C" __global__ void __launch_bounds__(128)
y27_split_arrive_tiles(const float4 *__restrict__ in, float *__restrict__ out, const float *__restrict__ bias,
                       int tiles)
{
    auto block = cg::this_thread_block();
    __shared__ alignas(16) float4 buf[256];
    __shared__ block_barrier bar;
    if (block.thread_rank() == 0) init(&bar, block.size());
    block.sync();
    float acc = 0.f;
    for (int t = 0; t < tiles; ++t) {
        cuda::memcpy_async(block, buf, in + (size_t)t * 256, cuda::aligned_size_t<16>(sizeof(buf)), bar);
        auto token = bar.arrive();
        float b = bias[t * blockDim.x + threadIdx.x];          // independent work while the copy lands
        acc = fmaf(acc, 0.5f, b);
        bar.wait(std::move(token));
        float4 v = buf[threadIdx.x];
        float4 w = buf[255 - threadIdx.x];
        acc += v.x * w.w + v.y * w.z + v.z * w.y + v.w * w.x;
        block.sync();                                           // everyone done reading before the next copy
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

extern "C" __global__ void __launch_bounds__(256)
y27_double_buffer_barriers(const float *__restrict__ in, float *__restrict__ out, int tiles)
{
    auto block = cg::this_thread_block();
    __shared__ alignas(16) float buf[2][TILE];
    __shared__ block_barrier bars[2];
    if (block.thread_rank() < 2) init(&bars[block.thread_rank()], block.size());
    block.sync();
    const float *base = in + (size_t)blockIdx.x * tiles * TILE;
    cuda::memcpy_async(block, buf[0], base, sizeof(float) * TILE, bars[0]);
    float acc = 0.f;
    for (int t = 0; t < tiles; ++t) {
        int cur = t & 1;
        if (t + 1 < tiles)
            cuda::memcpy_async(block, buf[cur ^ 1], base + (size_t)(t + 1) * TILE, sizeof(float) * TILE, bars[cur ^ 1]);
        bars[cur].arrive_and_wait();
        for (int i = threadIdx.x; i < TILE; i += 256) acc = fmaxf(acc, buf[cur][i]);
        block.sync();
    }
    out[blockIdx.x * 256 + threadIdx.x] = acc;
}
