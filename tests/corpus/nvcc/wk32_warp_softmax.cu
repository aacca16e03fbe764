// corpus: -arch=sm_80
// Warp-per-row softmax as written in inference code: grid-stride loop over rows per warp, or one row per
// warp with `if (row >= rows) return;` before the shuffles; max butterfly, then sum butterfly.
#include <cuda_runtime.h>
#include <cfloat>

__device__ __forceinline__ float warp_max(float v)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}
__device__ __forceinline__ float warp_sum(float v)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

__global__ void wk32_softmax_row_per_warp(const float* __restrict__ x, float* __restrict__ y, int rows, int cols)
{
    int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    int lane = threadIdx.x % 32;
    if (row >= rows) return;
    const float* xr = x + (size_t)row * cols;
    float* yr = y + (size_t)row * cols;
    float m = -FLT_MAX;
    for (int c = lane; c < cols; c += 32) m = fmaxf(m, xr[c]);
    m = warp_max(m);
    float s = 0.f;
    for (int c = lane; c < cols; c += 32) s += __expf(xr[c] - m);
    s = warp_sum(s);
    float inv = 1.f / s;
    for (int c = lane; c < cols; c += 32) yr[c] = __expf(xr[c] - m) * inv;
}

__global__ void wk32_softmax_grid_stride(const float* __restrict__ x, float* __restrict__ y, int rows, int cols)
{
    int lane = threadIdx.x & 31;
    int nw = gridDim.x * (blockDim.x >> 5);
    for (int row = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5); row < rows; row += nw) {
        const float* xr = x + (size_t)row * cols;
        float m = -FLT_MAX;
        for (int c = lane; c < cols; c += 32) m = fmaxf(m, xr[c]);
        m = warp_max(m);
        float s = 0.f;
        for (int c = lane; c < cols; c += 32) s += __expf(xr[c] - m);
        s = warp_sum(s);
        for (int c = lane; c < cols; c += 32) y[(size_t)row * cols + c] = __expf(xr[c] - m) / s;
    }
}

// fixed width 128: four values per lane in registers, masked tail by `c < cols`
__global__ void wk32_softmax_reg128(const float* __restrict__ x, float* __restrict__ y, int rows, int cols)
{
    int row = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    int lane = threadIdx.x & 31;
    if (row >= rows) return;
    float v[4];
    float m = -FLT_MAX;
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        int c = lane + 32 * i;
        v[i] = c < cols ? x[(size_t)row * cols + c] : -FLT_MAX;
        m = fmaxf(m, v[i]);
    }
    m = warp_max(m);
    float s = 0.f;
#pragma unroll
    for (int i = 0; i < 4; ++i) { v[i] = __expf(v[i] - m); s += v[i]; }
    s = warp_sum(s);
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        int c = lane + 32 * i;
        if (c < cols) y[(size_t)row * cols + c] = v[i] / s;
    }
}
