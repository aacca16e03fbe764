// corpus: -arch=sm_90
// Warp argmax/argmin with index (ties to the lower index), and layer norm / RMS norm by block:
// warp shuffles, then shared memory + __syncthreads, then a second warp reduce by warp 0.
#include <cuda_runtime.h>
#include <cfloat>

__global__ void wk32_warp_argmax(const float* __restrict__ x, int* __restrict__ idx, float* __restrict__ val,
                                 int rows, int cols)
{
    int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int lane = threadIdx.x & 31;
    if (row >= rows) return;
    float bv = -FLT_MAX; int bi = 0x7fffffff;
    for (int c = lane; c < cols; c += 32) {
        float v = x[(size_t)row * cols + c];
        if (v > bv) { bv = v; bi = c; }
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        float ov = __shfl_xor_sync(0xffffffffu, bv, o);
        int oi = __shfl_xor_sync(0xffffffffu, bi, o);
        if (ov > bv || (ov == bv && oi < bi)) { bv = ov; bi = oi; }
    }
    if (lane == 0) { idx[row] = bi; val[row] = bv; }
}

__global__ void wk32_warp_argmin_down(const float* __restrict__ x, int* __restrict__ idx, int n)
{
    int lane = threadIdx.x & 31;
    float bv = FLT_MAX; int bi = -1;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        float v = x[i];
        if (v < bv) { bv = v; bi = i; }
    }
    for (int o = 16; o > 0; o >>= 1) {
        float ov = __shfl_down_sync(0xffffffffu, bv, o);
        int oi = __shfl_down_sync(0xffffffffu, bi, o);
        if (oi >= 0 && (ov < bv || bi < 0)) { bv = ov; bi = oi; }
    }
    if (lane == 0 && bi >= 0) idx[(blockIdx.x * blockDim.x + threadIdx.x) >> 5] = bi;
}

__device__ __forceinline__ float warp_sum(float v)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

__device__ __forceinline__ float block_sum(float v, float* sh)
{
    int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
    v = warp_sum(v);
    if (lane == 0) sh[wid] = v;
    __syncthreads();
    v = (threadIdx.x < (blockDim.x >> 5)) ? sh[lane] : 0.f;
    if (wid == 0) v = warp_sum(v);
    if (threadIdx.x == 0) sh[0] = v;
    __syncthreads();
    float r = sh[0];
    __syncthreads();
    return r;
}

__global__ void wk32_layernorm(const float* __restrict__ x, const float* __restrict__ g, const float* __restrict__ b,
                               float* __restrict__ y, int cols, float eps)
{
    __shared__ float sh[32];
    const float* xr = x + (size_t)blockIdx.x * cols;
    float s = 0.f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) s += xr[c];
    float mean = block_sum(s, sh) / cols;
    float q = 0.f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) { float d = xr[c] - mean; q += d * d; }
    float rstd = rsqrtf(block_sum(q, sh) / cols + eps);
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        y[(size_t)blockIdx.x * cols + c] = (xr[c] - mean) * rstd * g[c] + b[c];
}

__global__ void wk32_rmsnorm(const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ y,
                             int cols, float eps)
{
    __shared__ float red[32];
    __shared__ float s_rms;
    int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
    const float* xr = x + (size_t)blockIdx.x * cols;
    float q = 0.f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) { float v = xr[c]; q += v * v; }
    q = warp_sum(q);
    if (lane == 0) red[wid] = q;
    __syncthreads();
    if (wid == 0) {
        q = lane < (blockDim.x >> 5) ? red[lane] : 0.f;
        q = warp_sum(q);
        if (lane == 0) s_rms = rsqrtf(q / cols + eps);
    }
    __syncthreads();
    float r = s_rms;
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        y[(size_t)blockIdx.x * cols + c] = xr[c] * r * w[c];
}
