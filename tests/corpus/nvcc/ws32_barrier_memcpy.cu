// corpus: -arch=sm_90a
// cuda::barrier + cuda::memcpy_async double buffering (the libcu++ way): thread 0 starts the copy of the next tile
// while everyone computes on the current one; a simple mbarrier-guarded bulk copy then compute.
#include <cuda/barrier>
#include <cuda/ptx>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
using barrier_t = cuda::barrier<cuda::thread_scope_block>;

constexpr int TILE = 256;

extern "C" __global__ void barrier_memcpy_double(const float4 *__restrict__ in, float *__restrict__ out, int tiles)
{
    __shared__ alignas(16) float4 buf[2][TILE];
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ barrier_t bar[2];
    auto block = cg::this_thread_block();
    if (block.thread_rank() == 0) {
        init(&bar[0], block.size());
        init(&bar[1], block.size());
    }
    block.sync();
    if (block.thread_rank() == 0)
        cuda::memcpy_async(buf[0], in, cuda::aligned_size_t<16>(sizeof(float4) * TILE), bar[0]);
    float acc = 0.f;
    for (int t = 0; t < tiles; ++t) {
        int cur = t & 1;
        if (t + 1 < tiles && block.thread_rank() == 0)
            cuda::memcpy_async(buf[cur ^ 1], in + (size_t)(t + 1) * TILE,
                               cuda::aligned_size_t<16>(sizeof(float4) * TILE), bar[cur ^ 1]);
        bar[cur].arrive_and_wait();
        float4 v = buf[cur][threadIdx.x % TILE];
        acc += v.x + v.y + v.z + v.w;
        block.sync();
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

extern "C" __global__ void bulk_once_then_compute(const float *__restrict__ in, float *__restrict__ out, int n)
{
    __shared__ alignas(128) float tile[2048];
    __shared__ uint64_t bar;
    namespace ptx = cuda::ptx;
    if (threadIdx.x == 0) {
        ptx::mbarrier_init(&bar, 1);
        ptx::fence_proxy_async(ptx::space_shared);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, sizeof(tile));
        ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, tile, in + (size_t)blockIdx.x * 2048,
                           sizeof(tile), &bar);
    }
    while (!ptx::mbarrier_try_wait_parity(&bar, 0)) {
    }
    float s = 0.f;
    for (int i = threadIdx.x; i < 2048; i += blockDim.x)
        s += tile[i] * tile[i];
    for (int o = 16; o > 0; o >>= 1)
        s += __shfl_xor_sync(0xffffffffu, s, o);
    if ((threadIdx.x & 31) == 0)
        atomicAdd(out + blockIdx.x, s);
}
