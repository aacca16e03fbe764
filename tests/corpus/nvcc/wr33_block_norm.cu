// corpus: -arch=sm_90
// Block layer norm / RMS norm: warp butterflies, shared-memory partials of each warp, __syncthreads, the
// first warp reduces the partials; template on block size, half I/O, two-pass and Welford-pair variants.
#include <cuda_runtime.h>
#include <cuda_fp16.h>

template <int BLOCK>
__global__ void wr33_layernorm_tpl(const float* __restrict__ x, const float* __restrict__ g, const float* __restrict__ b,
                                   float* __restrict__ y, int n, float eps)
{
    __shared__ float s_sum[BLOCK / 32], s_sq[BLOCK / 32];
    __shared__ float s_mean, s_rstd;
    const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
    const float* xr = x + (size_t)blockIdx.x * n;
    float a = 0.f, q = 0.f;
    for (int i = threadIdx.x; i < n; i += BLOCK) { float v = xr[i]; a += v; q += v * v; }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        a += __shfl_xor_sync(0xffffffffu, a, o);
        q += __shfl_xor_sync(0xffffffffu, q, o);
    }
    if (lane == 0) { s_sum[wid] = a; s_sq[wid] = q; }
    __syncthreads();
    if (wid == 0) {
        a = lane < BLOCK / 32 ? s_sum[lane] : 0.f;
        q = lane < BLOCK / 32 ? s_sq[lane] : 0.f;
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) {
            a += __shfl_xor_sync(0xffffffffu, a, o);
            q += __shfl_xor_sync(0xffffffffu, q, o);
        }
        if (lane == 0) {
            float mean = a / n;
            s_mean = mean;
            s_rstd = rsqrtf(q / n - mean * mean + eps);
        }
    }
    __syncthreads();
    const float mean = s_mean, rstd = s_rstd;
    for (int i = threadIdx.x; i < n; i += BLOCK) y[(size_t)blockIdx.x * n + i] = (xr[i] - mean) * rstd * g[i] + b[i];
}
template __global__ void wr33_layernorm_tpl<128>(const float*, const float*, const float*, float*, int, float);
template __global__ void wr33_layernorm_tpl<512>(const float*, const float*, const float*, float*, int, float);

__device__ __forceinline__ float wr33_wsum(float v)
{
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

// Two-pass layer norm, half I/O, rows guarded by an early exit; mean and variance reduced separately.
__global__ void wr33_layernorm_half_2pass(const __half* __restrict__ x, __half* __restrict__ y, int rows, int n,
                                          float eps)
{
    __shared__ float part[32];
    __shared__ float bc;
    const int row = blockIdx.x;
    if (row >= rows) return;
    const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5, nw = blockDim.x >> 5;
    const __half* xr = x + (size_t)row * n;
    float s = 0.f;
    for (int i = threadIdx.x; i < n; i += blockDim.x) s += __half2float(xr[i]);
    s = wr33_wsum(s);
    if (lane == 0) part[wid] = s;
    __syncthreads();
    if (threadIdx.x < 32) {
        s = threadIdx.x < nw ? part[threadIdx.x] : 0.f;
        s = wr33_wsum(s);
        if (threadIdx.x == 0) bc = s / n;
    }
    __syncthreads();
    const float mean = bc;
    float q = 0.f;
    for (int i = threadIdx.x; i < n; i += blockDim.x) { float d = __half2float(xr[i]) - mean; q += d * d; }
    q = wr33_wsum(q);
    __syncthreads();
    if (lane == 0) part[wid] = q;
    __syncthreads();
    if (threadIdx.x < 32) {
        q = threadIdx.x < nw ? part[threadIdx.x] : 0.f;
        q = wr33_wsum(q);
        if (threadIdx.x == 0) bc = rsqrtf(q / n + eps);
    }
    __syncthreads();
    const float rstd = bc;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        y[(size_t)row * n + i] = __float2half((__half2float(xr[i]) - mean) * rstd);
}

// RMS norm over several rows per block (a row loop around the block reduction), guarded weight.
__global__ void wr33_rmsnorm_rows(const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ y,
                                  int rows, int n, float eps)
{
    __shared__ float part[32];
    const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5, nw = blockDim.x >> 5;
    for (int row = blockIdx.x; row < rows; row += gridDim.x) {
        const float* xr = x + (size_t)row * n;
        float q = 0.f;
        for (int i = threadIdx.x; i < n; i += blockDim.x) { float v = xr[i]; q += v * v; }
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) q += __shfl_xor_sync(0xffffffffu, q, o);
        if (lane == 0) part[wid] = q;
        __syncthreads();
        q = lane < nw ? part[lane] : 0.f;
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) q += __shfl_xor_sync(0xffffffffu, q, o);
        const float r = rsqrtf(q / n + eps);
        for (int i = threadIdx.x; i < n; i += blockDim.x) y[(size_t)row * n + i] = xr[i] * r * (w ? w[i] : 1.f);
        __syncthreads();
    }
}
