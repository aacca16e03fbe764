// corpus: -arch=sm_80
// cuda::pipeline as people write it: (1) a unified block-scoped 3-stage pipeline (every thread both acquires
// and waits) feeding a 1-D stencil; (2) a partitioned pipeline where warp 0 produces with
// cuda::memcpy_async(thread) into a 4-stage ring and the other warps consume, with the stage count a template
// parameter; (3) a per-thread pipeline (cuda::make_pipeline()) with pipeline_consumer_wait_prior in a 2-deep
// prefetch loop.
#include <cuda/pipeline>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

constexpr int CHUNK = 256;

extern "C" __global__ void __launch_bounds__(256)
y27_unified_stencil(const float *__restrict__ in, float *__restrict__ out, int chunks)
{
    constexpr int STAGES = 3;
    auto block = cg::this_thread_block();
    __shared__ alignas(16) float ring[STAGES][CHUNK + 2];
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, STAGES> state;
    auto pipe = cuda::make_pipeline(block, &state);
    int fetched = 0;
    for (int c = 0; c < chunks; ++c) {
        for (; fetched < chunks && fetched < c + STAGES; ++fetched) {
            pipe.producer_acquire();
            cuda::memcpy_async(block, ring[fetched % STAGES], in + (size_t)fetched * CHUNK,
                               sizeof(float) * (CHUNK + 2), pipe);
            pipe.producer_commit();
        }
        pipe.consumer_wait();
        const float *r = ring[c % STAGES];
        int i = threadIdx.x;
        out[(size_t)c * CHUNK + i] = 0.25f * r[i] + 0.5f * r[i + 1] + 0.25f * r[i + 2];
        pipe.consumer_release();
    }
}

template <int STAGES>
__device__ void partitioned_scale(const float *__restrict__ in, float *__restrict__ out, int chunks, float k)
{
    auto block = cg::this_thread_block();
    __shared__ alignas(16) float ring[STAGES][CHUNK];
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, STAGES> state;
    const bool producer = threadIdx.x < 32;
    auto pipe = cuda::make_pipeline(block, &state, producer ? cuda::pipeline_role::producer : cuda::pipeline_role::consumer);
    if (producer) {
        for (int c = 0; c < chunks; ++c) {
            pipe.producer_acquire();
            for (int j = threadIdx.x; j < CHUNK; j += 32)
                cuda::memcpy_async(&ring[c % STAGES][j], in + (size_t)c * CHUNK + j, sizeof(float), pipe);
            pipe.producer_commit();
        }
    } else {
        int lane = threadIdx.x - 32;
        for (int c = 0; c < chunks; ++c) {
            pipe.consumer_wait();
            for (int j = lane; j < CHUNK; j += blockDim.x - 32)
                out[(size_t)c * CHUNK + j] = ring[c % STAGES][j] * k;
            pipe.consumer_release();
        }
    }
}

extern "C" __global__ void __launch_bounds__(160)
y27_partitioned_scale4(const float *in, float *out, int chunks, float k) { partitioned_scale<4>(in, out, chunks, k); }

extern "C" __global__ void __launch_bounds__(160)
y27_partitioned_scale2(const float *in, float *out, int chunks, float k) { partitioned_scale<2>(in, out, chunks, k); }

extern "C" __global__ void __launch_bounds__(128)
y27_thread_pipeline_prefetch(const int4 *__restrict__ in, int *__restrict__ out, int iters)
{
    __shared__ alignas(16) int4 stage[2][128];
    auto pipe = cuda::make_pipeline();
    int t = threadIdx.x;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t g = (size_t)blockIdx.x * blockDim.x + t;
    pipe.producer_acquire();
    cuda::memcpy_async(&stage[0][t], in + g, sizeof(int4), pipe);
    pipe.producer_commit();
    int acc = 0;
    for (int i = 0; i < iters; ++i) {
        pipe.producer_acquire();
        if (i + 1 < iters) cuda::memcpy_async(&stage[(i + 1) & 1][t], in + g + (i + 1) * stride, sizeof(int4), pipe);
        pipe.producer_commit();
        cuda::pipeline_consumer_wait_prior<1>(pipe);
        int4 v = stage[i & 1][t];
        acc ^= v.x + v.y * 3 + v.z * 5 + v.w * 7;
        pipe.consumer_release();
    }
    out[g] = acc;
}
