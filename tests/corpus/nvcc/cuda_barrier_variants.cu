// corpus: -arch=sm_80
// cuda::barrier<thread_scope_block> patterns: arrive() token + wait() split around independent work,
// arrive_and_drop() for threads that leave a loop early (the expected count shrinks), arrive_and_wait() per
// iteration, a barrier with a completion function (runs once per phase), and cuda::memcpy_async completing on
// the barrier (cp.async + mbarrier arrive.noinc) for a tile copy.
#include <cuda/barrier>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
using block_barrier = cuda::barrier<cuda::thread_scope_block>;

extern "C" __global__ void __launch_bounds__(128)
barrier_split_and_drop(const int *iters, float *data)
{
    __shared__ block_barrier bar;
    __shared__ float s[128];
    if (threadIdx.x == 0) init(&bar, blockDim.x);
    __syncthreads();
    int mine = iters[blockIdx.x * 128 + threadIdx.x];
    float v = data[blockIdx.x * 128 + threadIdx.x];
    for (int it = 0; it < 64; ++it) {
        if (it >= mine) { (void)bar.arrive_and_drop(); break; }
        s[threadIdx.x] = v;
        block_barrier::arrival_token tok = bar.arrive();
        float local = v * 0.5f + 1.f;
        bar.wait(std::move(tok));
        v = local + s[(threadIdx.x + 1) & 127];
        bar.arrive_and_wait();
    }
    data[blockIdx.x * 128 + threadIdx.x] = v;
}

struct PhaseCounter {
    int *counter;
    __device__ void operator()() noexcept { ++*counter; }
};

extern "C" __global__ void __launch_bounds__(256)
barrier_completion_memcpy(const float4 *in, float4 *out, int *phases, int tiles)
{
    using bar_t = cuda::barrier<cuda::thread_scope_block, PhaseCounter>;
    __shared__ bar_t bar;
    __shared__ int counter;
    __shared__ alignas(16) float4 tile[256];
    auto block = cg::this_thread_block();
    if (block.thread_rank() == 0) {
        counter = 0;
        init(&bar, block.size(), PhaseCounter{&counter});
    }
    block.sync();
    float4 acc = make_float4(0, 0, 0, 0);
    for (int t = 0; t < tiles; ++t) {
        cuda::memcpy_async(block, tile, in + (size_t)t * 256, cuda::aligned_size_t<16>(sizeof(tile)), bar);
        bar.arrive_and_wait();
        float4 a = tile[(threadIdx.x + t) & 255];
        acc.x += a.x; acc.y += a.y; acc.z += a.z; acc.w += a.w;
        bar.arrive_and_wait();
    }
    out[blockIdx.x * 256 + threadIdx.x] = acc;
    if (threadIdx.x == 0) phases[blockIdx.x] = counter;
}
