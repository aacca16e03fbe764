// corpus: -arch=sm_80
// 2-D 5-point stencil with the <cuda_pipeline.h> primitives: each block streams rows of the grid through a
// 3-row shared ring with __pipeline_memcpy_async (16-byte chunks), __pipeline_commit, __pipeline_wait_prior(0) (two rows in flight ahead of the compute)
// and __syncthreads between the copy and the compute of each row.
#include <cuda_pipeline.h>

constexpr int W = 256;

extern "C" __global__ void __launch_bounds__(64)
stencil_rows_cp_async(const float *in, float *out, int height)
{
    __shared__ alignas(16) float ring[4][W];
    int col0 = threadIdx.x * 4;
    auto issue = [&](int row) {
        __pipeline_memcpy_async(&ring[row & 3][col0], in + (size_t)row * W + col0, 16);
        __pipeline_commit();
    };
    issue(0);
    issue(1);
    for (int row = 1; row + 1 < height; ++row) {
        issue(row + 1);
        __pipeline_wait_prior(0);
        __syncthreads();
        const float *up = ring[(row - 1) & 3], *mid = ring[row & 3], *dn = ring[(row + 1) & 3];
        for (int k = 0; k < 4; ++k) {
            int c = col0 + k;
            float l = c > 0 ? mid[c - 1] : mid[c], r = c + 1 < W ? mid[c + 1] : mid[c];
            out[(size_t)row * W + c] = 0.2f * (up[c] + dn[c] + l + r + mid[c]);
        }
        __syncthreads();
    }
}
