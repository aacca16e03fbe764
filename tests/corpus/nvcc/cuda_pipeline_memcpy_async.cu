// corpus: -arch=sm_80
// cuda::pipeline (thread scope) + cuda::memcpy_async: multi-stage global->shared copies (cp.async +
// cp.async.commit_group / wait_group) and a block-scoped memcpy_async with cuda::barrier (cp.async.mbarrier.arrive).
#include <cuda/pipeline>
#include <cuda/barrier>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern "C" __global__ void __launch_bounds__(128) cuda_pipeline_memcpy_async(const float4 *in, float4 *out, int tiles)
{
    constexpr int stages = 2;
    __shared__ float4 buf[stages][128];
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    int tid = threadIdx.x;
    for (int s = 0; s < stages && s < tiles; ++s) {
        pipe.producer_acquire();
        cuda::memcpy_async(&buf[s][tid], &in[s * 128 + tid], sizeof(float4), pipe);
        pipe.producer_commit();
    }
    for (int t = 0; t < tiles; ++t) {
        cuda::pipeline_consumer_wait_prior<stages - 1>(pipe);
        __syncthreads();
        float4 v = buf[t % stages][127 - tid];
        out[t * 128 + tid] = make_float4(v.w, v.z, v.y, v.x);
        __syncthreads();
        pipe.consumer_release();
        if (t + stages < tiles) {
            pipe.producer_acquire();
            cuda::memcpy_async(&buf[t % stages][tid], &in[(t + stages) * 128 + tid], sizeof(float4), pipe);
        }
        pipe.producer_commit();
    }
}

extern "C" __global__ void cuda_memcpy_async_barrier(const int *in, int *out)
{
    __shared__ int tile[256];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    auto block = cg::this_thread_block();
    if (block.thread_rank() == 0) init(&bar, block.size());
    block.sync();
    cuda::memcpy_async(block, tile, in + blockIdx.x * 256, sizeof(tile), bar);
    bar.arrive_and_wait();
    out[blockIdx.x * 256 + threadIdx.x] = tile[255 - threadIdx.x];
}
