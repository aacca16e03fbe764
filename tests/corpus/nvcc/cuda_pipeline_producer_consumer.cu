// corpus: -arch=sm_80
// cuda::pipeline with a block-scoped shared state partitioned into producer and consumer roles
// (make_pipeline(block, &state, role)): producer warps issue cuda::memcpy_async into a 3-stage ring with
// producer_acquire / producer_commit, consumer warps consumer_wait / consumer_release; a second kernel uses a
// unified 4-stage block pipeline (every thread both produces and consumes) for a dot product.
#include <cuda/pipeline>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

constexpr int STAGES = 3, CHUNK = 256;

extern "C" __global__ void __launch_bounds__(256)
pipeline_roles(const float *in, float *out, int chunks)
{
    auto block = cg::this_thread_block();
    __shared__ alignas(16) float ring[STAGES][CHUNK];
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, STAGES> state;
    bool producer = threadIdx.x < 64;
    auto role = producer ? cuda::pipeline_role::producer : cuda::pipeline_role::consumer;
    auto pipe = cuda::make_pipeline(block, &state, role);
    float acc = 0.f;
    for (int c = 0; c < chunks; ++c) {
        int s = c % STAGES;
        if (producer) {
            pipe.producer_acquire();
            for (int j = threadIdx.x; j < CHUNK / 4; j += 64)
                cuda::memcpy_async(reinterpret_cast<float4 *>(ring[s]) + j,
                                   reinterpret_cast<const float4 *>(in + (size_t)c * CHUNK) + j,
                                   cuda::aligned_size_t<16>(16), pipe);
            pipe.producer_commit();
        } else {
            pipe.consumer_wait();
            int k = threadIdx.x - 64;
            acc += ring[s][k] + ring[s][(k + 64) % CHUNK];
            pipe.consumer_release();
        }
    }
    if (!producer) out[blockIdx.x * 192 + threadIdx.x - 64] = acc;
}

extern "C" __global__ void __launch_bounds__(128)
pipeline_unified_dot(const double *x, const double *y, double *out, int chunks)
{
    constexpr int S = 4, C = 128;
    auto block = cg::this_thread_block();
    __shared__ double xs[S][C], ys[S][C];
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, S> state;
    auto pipe = cuda::make_pipeline(block, &state);
    int fetched = 0;
    double acc = 0.0;
    for (int c = 0; c < chunks; ++c) {
        for (; fetched < chunks && fetched < c + S; ++fetched) {
            pipe.producer_acquire();
            cuda::memcpy_async(block, xs[fetched % S], x + (size_t)fetched * C, sizeof(double) * C, pipe);
            cuda::memcpy_async(block, ys[fetched % S], y + (size_t)fetched * C, sizeof(double) * C, pipe);
            pipe.producer_commit();
        }
        pipe.consumer_wait();
        acc += xs[c % S][threadIdx.x] * ys[c % S][threadIdx.x];
        pipe.consumer_release();
    }
    out[blockIdx.x * C + threadIdx.x] = acc;
}
