// corpus: -arch=sm_80
// Per-thread cuda::pipeline (make_pipeline() with thread scope, no shared state): each thread streams its own
// rows into shared memory with cuda::memcpy_async and cuda::pipeline_consumer_wait_prior<N> for a 2-deep
// prefetch, and a row-wise softmax denominator computed from the staged rows.
#include <cuda/pipeline>

constexpr int ROW = 8;

extern "C" __global__ void __launch_bounds__(64)
pipeline_thread_rows(const float *in, float *out, int rows_per_thread)
{
    __shared__ alignas(16) float stage[3][64][ROW];
    auto pipe = cuda::make_pipeline();
    const float *base = in + (size_t)(blockIdx.x * 64 + threadIdx.x) * rows_per_thread * ROW;
    for (int r = 0; r < 2 && r < rows_per_thread; ++r) {
        pipe.producer_acquire();
        cuda::memcpy_async(stage[r][threadIdx.x], base + r * ROW, cuda::aligned_size_t<16>(sizeof(float) * ROW), pipe);
        pipe.producer_commit();
    }
    float total = 0.f;
    for (int r = 0; r < rows_per_thread; ++r) {
        if (r + 2 < rows_per_thread) {
            pipe.producer_acquire();
            cuda::memcpy_async(stage[(r + 2) % 3][threadIdx.x], base + (r + 2) * ROW,
                               cuda::aligned_size_t<16>(sizeof(float) * ROW), pipe);
            pipe.producer_commit();
            cuda::pipeline_consumer_wait_prior<2>(pipe);
        } else {
            cuda::pipeline_consumer_wait_prior<0>(pipe);
        }
        const float *row = stage[r % 3][threadIdx.x];
        float m = row[0];
        for (int k = 1; k < ROW; ++k) m = fmaxf(m, row[k]);
        float s = 0.f;
        for (int k = 0; k < ROW; ++k) s += __expf(row[k] - m);
        total += s;
        pipe.consumer_release();
    }
    out[blockIdx.x * 64 + threadIdx.x] = total;
}
