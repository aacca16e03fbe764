// corpus: -arch=sm_80
// Warp-per-row kernels as written in sparse/ML code: CSR SpMV (vector kernel) with an early return for the
// tail warps, a CSR SpMV whose reduction uses __reduce_add_sync on integer data, and a row-wise L2 normalise
// that skips empty rows.
#include <cuda_runtime.h>

extern "C" __global__ void w28_csr_spmv_vector(int nrows, const int* __restrict__ rowptr,
                                              const int* __restrict__ col, const float* __restrict__ val,
                                              const float* __restrict__ x, float* __restrict__ y) {
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x & 31;
    if (warp >= nrows) return;
    int start = rowptr[warp], end = rowptr[warp + 1];
    float sum = 0.f;
    for (int j = start + lane; j < end; j += 32)
        sum += val[j] * __ldg(&x[col[j]]);
    for (int off = 16; off > 0; off >>= 1)
        sum += __shfl_down_sync(0xffffffffu, sum, off);
    if (lane == 0) y[warp] = sum;
}

extern "C" __global__ void w28_csr_spmv_int(int nrows, const int* __restrict__ rowptr,
                                           const int* __restrict__ col, const int* __restrict__ val,
                                           const int* __restrict__ x, int* __restrict__ y) {
    int lane = threadIdx.x & 31;
    int nwarps = (gridDim.x * blockDim.x) >> 5;
    for (int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5; row < nrows; row += nwarps) {
        int start = rowptr[row], end = rowptr[row + 1];
        int acc = 0;
        for (int j = start + lane; j < end; j += 32) acc += val[j] * x[col[j]];
        acc = __reduce_add_sync(0xffffffffu, acc);
        if (lane == 0) y[row] = acc;
    }
}

extern "C" __global__ void w28_row_l2_normalize(float* __restrict__ m, int rows, int cols, float eps) {
    int row = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    int lane = threadIdx.x & 31;
    if (row >= rows) return;
    float* r = m + (size_t)row * cols;
    float ss = 0.f;
    for (int c = lane; c < cols; c += 32) { float v = r[c]; ss += v * v; }
    #pragma unroll
    for (int off = 16; off; off >>= 1) ss += __shfl_xor_sync(0xffffffffu, ss, off);
    if (ss == 0.f) return;
    float inv = rsqrtf(ss + eps);
    for (int c = lane; c < cols; c += 32) r[c] *= inv;
}
