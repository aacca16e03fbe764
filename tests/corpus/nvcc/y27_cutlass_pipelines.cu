// corpus: -arch=sm_90a -std=c++17 --expt-relaxed-constexpr -I{cutlass}
// Hand-written kernels over CUTLASS 3.x's sm90 pipeline classes (cutlass/pipeline/sm90_pipeline.hpp), the way
// custom kernels reuse them outside the collective builders: (1) PipelineTmaAsync<4> on a 1x1x1 cluster, a
// producer warp whose leader issues 1-D bulk copies onto producer_get_barrier() after producer_acquire (which
// arms expect_tx), one consumer warpgroup with consumer_wait / consumer_release and PipelineState ++;
// (2) PipelineAsync<3> (plain arrive counts) where the producer warp fills shared memory with ordinary stores and
// producer_commit, consumers reduce; the epilogue syncs consumers with cutlass::arch::NamedBarrier.
#include <cutlass/cutlass.h>
#include <cutlass/pipeline/sm90_pipeline.hpp>
#include <cutlass/arch/barrier.h>
#include <cute/tensor.hpp>
#include <cuda/ptx>

constexpr int CHUNK = 1024;

extern "C" __global__ void __launch_bounds__(160)
y27_cutlass_tma_pipeline(const float *__restrict__ in, float *__restrict__ out, int chunks)
{
    using Pipeline = cutlass::PipelineTmaAsync<4>;
    __shared__ alignas(128) float ring[4][CHUNK];
    __shared__ alignas(16) unsigned char storage_bytes[sizeof(typename Pipeline::SharedStorage)];
    auto &storage = *reinterpret_cast<typename Pipeline::SharedStorage *>(storage_bytes);
    int warp = cutlass::canonical_warp_idx_sync();
    typename Pipeline::Params params;
    params.transaction_bytes = sizeof(float) * CHUNK;
    params.role = warp == 4 ? Pipeline::ThreadCategory::Producer : Pipeline::ThreadCategory::Consumer;
    params.is_leader = threadIdx.x == 128;
    params.num_consumers = 128;
    Pipeline pipe(storage, params, cute::Shape<cute::_1, cute::_1, cute::_1>{});
    __syncthreads();
    if (warp == 4) {
        auto state = cutlass::make_producer_start_state<Pipeline>();
        int lane_predicate = cute::elect_one_sync();
        for (int c = 0; c < chunks; ++c) {
            pipe.producer_acquire(state);
            if (lane_predicate) {
                uint64_t *bar = pipe.producer_get_barrier(state);
                cuda::ptx::cp_async_bulk(cuda::ptx::space_shared, cuda::ptx::space_global, ring[state.index()],
                                         in + ((size_t)blockIdx.x * chunks + c) * CHUNK, sizeof(float) * CHUNK, bar);
            }
            ++state;
        }
        pipe.producer_tail(state);
    } else {
        cutlass::PipelineState<4> state;
        float acc = 0.f;
        for (int c = 0; c < chunks; ++c) {
            pipe.consumer_wait(state);
            const float *r = ring[state.index()];
            for (int j = 0; j < 8; ++j) acc += r[threadIdx.x * 8 + j];
            pipe.consumer_release(state);
            ++state;
        }
        out[blockIdx.x * 128 + threadIdx.x] = acc;
    }
}

extern "C" __global__ void __launch_bounds__(160)
y27_cutlass_async_pipeline(const int *__restrict__ in, int *__restrict__ out, int chunks)
{
    using Pipeline = cutlass::PipelineAsync<3>;
    __shared__ int ring[3][256];
    __shared__ alignas(16) unsigned char storage_bytes[sizeof(typename Pipeline::SharedStorage)];
    auto &storage = *reinterpret_cast<typename Pipeline::SharedStorage *>(storage_bytes);
    int warp = cutlass::canonical_warp_idx_sync();
    typename Pipeline::Params params;
    params.role = warp == 4 ? Pipeline::ThreadCategory::Producer : Pipeline::ThreadCategory::Consumer;
    params.producer_arv_count = 32;
    params.consumer_arv_count = 128;
    Pipeline pipe(storage, params);
    __syncthreads();
    if (warp == 4) {
        auto state = cutlass::make_producer_start_state<Pipeline>();
        int lane = threadIdx.x & 31;
        for (int c = 0; c < chunks; ++c) {
            pipe.producer_acquire(state);
            for (int j = lane; j < 256; j += 32) ring[state.index()][j] = in[(size_t)c * 256 + j] * 3 + 1;
            pipe.producer_commit(state);
            ++state;
        }
    } else {
        cutlass::PipelineState<3> state;
        int acc = 0;
        for (int c = 0; c < chunks; ++c) {
            pipe.consumer_wait(state);
            acc += ring[state.index()][threadIdx.x] ^ ring[state.index()][255 - threadIdx.x];
            pipe.consumer_release(state);
            ++state;
        }
        cutlass::arch::NamedBarrier::sync(128, 1);
        out[blockIdx.x * 128 + threadIdx.x] = acc;
    }
}
