// corpus: -arch=sm_80
// Warp-per-row layer norm and RMS norm (butterfly sums), a block layer norm (warp butterfly, shared memory,
// __syncthreads), float and half.
#include <cuda_runtime.h>
#include <cuda_fp16.h>

__device__ __forceinline__ float w34n_sum(float v)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

// one row per warp, runtime columns, guarded row, two passes (mean, variance)
__global__ void w34_layernorm_warp(const float* __restrict__ x, const float* __restrict__ g,
                                   const float* __restrict__ b, float* __restrict__ y, int n, int cols, float eps)
{
    const int lane = threadIdx.x & 31;
    const int row = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    if (row < n) {
        const float* xr = x + (size_t)row * cols;
        float s = 0.f;
        for (int c = lane; c < cols; c += 32) s += xr[c];
        const float mean = w34n_sum(s) / cols;
        float q = 0.f;
        for (int c = lane; c < cols; c += 32) { const float d = xr[c] - mean; q += d * d; }
        const float rstd = rsqrtf(w34n_sum(q) / cols + eps);
        for (int c = lane; c < cols; c += 32) y[(size_t)row * cols + c] = (xr[c] - mean) * rstd * g[c] + b[c];
    }
}

// RMS norm, 8 columns per lane unrolled, grid-stride rows
__global__ void w34_rmsnorm_regs(const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ y,
                                 int n, float eps)
{
    const int lane = threadIdx.x & 31;
    const int wpb = blockDim.x >> 5;
    for (int row = blockIdx.x * wpb + (threadIdx.x >> 5); row < n; row += gridDim.x * wpb) {
        float v[8];
        float q = 0.f;
#pragma unroll
        for (int i = 0; i < 8; ++i) { v[i] = x[row * 256 + i * 32 + lane]; q += v[i] * v[i]; }
        const float r = rsqrtf(w34n_sum(q) * (1.f / 256.f) + eps);
#pragma unroll
        for (int i = 0; i < 8; ++i) y[row * 256 + i * 32 + lane] = v[i] * r * w[i * 32 + lane];
    }
}

// RMS norm on half rows, one pass, guarded, runtime columns in half2 pairs
__global__ void w34_rmsnorm_half(const __half2* __restrict__ x, const __half2* __restrict__ w,
                                 __half2* __restrict__ y, int n, int cols2, float eps)
{
    const int lane = threadIdx.x & 31;
    const int row = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    if (row < n) {
        float q = 0.f;
        for (int c = lane; c < cols2; c += 32) {
            const float2 f = __half22float2(x[(size_t)row * cols2 + c]);
            q += f.x * f.x + f.y * f.y;
        }
        const float r = rsqrtf(w34n_sum(q) / (2 * cols2) + eps);
        for (int c = lane; c < cols2; c += 32) {
            const float2 f = __half22float2(x[(size_t)row * cols2 + c]);
            const float2 ww = __half22float2(w[c]);
            y[(size_t)row * cols2 + c] = __floats2half2_rn(f.x * r * ww.x, f.y * r * ww.y);
        }
    }
}

// layer norm, two rows per warp, 2 columns per lane unrolled, Welford-free one pass (sum, sum of squares)
__global__ void w34_layernorm_two_rows(const float* __restrict__ x, float* __restrict__ y, int n, float eps)
{
    const int lane = threadIdx.x & 31;
    const int warp = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
#pragma unroll
    for (int k = 0; k < 2; ++k) {
        const int row = warp * 2 + k;
        if (row < n) {
            const float a = x[row * 64 + lane], c = x[row * 64 + 32 + lane];
            const float s = w34n_sum(a + c);
            const float q = w34n_sum(a * a + c * c);
            const float mean = s * (1.f / 64.f);
            const float rstd = rsqrtf(q * (1.f / 64.f) - mean * mean + eps);
            y[row * 64 + lane] = (a - mean) * rstd;
            y[row * 64 + 32 + lane] = (c - mean) * rstd;
        }
    }
}

// block layer norm: each thread sums its columns, warp butterfly, shared per-warp partials, __syncthreads
__global__ void w34_layernorm_block(const float* __restrict__ x, float* __restrict__ y, int cols, float eps)
{
    __shared__ float part[32];
    __shared__ float stat[2];
    const int row = blockIdx.x;
    const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5, nw = blockDim.x >> 5;
    const float* xr = x + (size_t)row * cols;
    float s = 0.f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) s += xr[c];
    s = w34n_sum(s);
    if (lane == 0) part[wid] = s;
    __syncthreads();
    if (wid == 0) {
        float t = lane < nw ? part[lane] : 0.f;
        t = w34n_sum(t);
        if (lane == 0) stat[0] = t / cols;
    }
    __syncthreads();
    const float mean = stat[0];
    float q = 0.f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) { const float d = xr[c] - mean; q += d * d; }
    q = w34n_sum(q);
    __syncthreads();
    if (lane == 0) part[wid] = q;
    __syncthreads();
    if (wid == 0) {
        float t = lane < nw ? part[lane] : 0.f;
        t = w34n_sum(t);
        if (lane == 0) stat[1] = rsqrtf(t / cols + eps);
    }
    __syncthreads();
    const float rstd = stat[1];
    for (int c = threadIdx.x; c < cols; c += blockDim.x) y[(size_t)row * cols + c] = (xr[c] - mean) * rstd;
}
