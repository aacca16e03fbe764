// corpus: -arch=sm_80
// Warp-per-row softmax / log-softmax: rows per warp (1, 2, runtime), columns per lane (unrolled registers or a
// runtime strided loop), guarded tails `if (row < n)`, float and half rows.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cfloat>

__device__ __forceinline__ float w34_warp_max(float v)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}
__device__ __forceinline__ float w34_warp_sum(float v)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

// one row per warp, 4 columns per lane held in registers, guarded row
__global__ void w34_softmax_guard4(const float* __restrict__ x, float* __restrict__ y, int n)
{
    const int lane = threadIdx.x & 31;
    const int row = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    if (row < n) {
        float v[4];
        float m = -FLT_MAX;
#pragma unroll
        for (int i = 0; i < 4; ++i) { v[i] = x[row * 128 + i * 32 + lane]; m = fmaxf(m, v[i]); }
        m = w34_warp_max(m);
        float s = 0.f;
#pragma unroll
        for (int i = 0; i < 4; ++i) { v[i] = __expf(v[i] - m); s += v[i]; }
        s = w34_warp_sum(s);
        const float inv = 1.f / s;
#pragma unroll
        for (int i = 0; i < 4; ++i) y[row * 128 + i * 32 + lane] = v[i] * inv;
    }
}

// two rows per warp, unrolled over the rows; each row guarded
__global__ void w34_softmax_two_rows(const float* __restrict__ x, float* __restrict__ y, int n, int cols)
{
    const int lane = threadIdx.x & 31;
    const int warp = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
#pragma unroll
    for (int k = 0; k < 2; ++k) {
        const int row = warp * 2 + k;
        if (row < n) {
            float m = -FLT_MAX;
            for (int c = lane; c < cols; c += 32) m = fmaxf(m, x[(size_t)row * cols + c]);
            m = w34_warp_max(m);
            float s = 0.f;
            for (int c = lane; c < cols; c += 32) s += __expf(x[(size_t)row * cols + c] - m);
            s = w34_warp_sum(s);
            const float inv = __fdividef(1.f, s);
            for (int c = lane; c < cols; c += 32) y[(size_t)row * cols + c] = __expf(x[(size_t)row * cols + c] - m) * inv;
        }
    }
}

// grid-stride rows, log-softmax, 2 columns per lane
__global__ void w34_logsoftmax_stride(const float* __restrict__ x, float* __restrict__ y, int n)
{
    const int lane = threadIdx.x & 31;
    const int wpb = blockDim.x >> 5;
    for (int row = blockIdx.x * wpb + (threadIdx.x >> 5); row < n; row += gridDim.x * wpb) {
        const float a = x[row * 64 + lane];
        const float b = x[row * 64 + 32 + lane];
        float m = w34_warp_max(fmaxf(a, b));
        float s = w34_warp_sum(__expf(a - m) + __expf(b - m));
        const float ls = __logf(s) + m;
        y[row * 64 + lane] = a - ls;
        y[row * 64 + 32 + lane] = b - ls;
    }
}

// half rows, 8 halves per lane (4 half2), unrolled, guarded with an early return
__global__ void w34_softmax_half8(const __half2* __restrict__ x, __half2* __restrict__ y, int n)
{
    const int lane = threadIdx.x & 31;
    const int row = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    if (row >= n) return;
    float2 v[4];
    float m = -INFINITY;
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        v[i] = __half22float2(x[row * 128 + i * 32 + lane]);
        m = fmaxf(m, fmaxf(v[i].x, v[i].y));
    }
    m = w34_warp_max(m);
    float s = 0.f;
#pragma unroll
    for (int i = 0; i < 4; ++i) { v[i].x = __expf(v[i].x - m); v[i].y = __expf(v[i].y - m); s += v[i].x + v[i].y; }
    s = w34_warp_sum(s);
    const float inv = 1.f / s;
#pragma unroll
    for (int i = 0; i < 4; ++i) y[row * 128 + i * 32 + lane] = __floats2half2_rn(v[i].x * inv, v[i].y * inv);
}

// four rows per warp in a runtime loop, columns guarded per lane (cols <= 64)
__global__ void w34_softmax_rows4_tail(const float* __restrict__ x, float* __restrict__ y, int n, int cols)
{
    const int lane = threadIdx.x & 31;
    const int warp = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    for (int k = 0; k < 4; ++k) {
        const int row = warp * 4 + k;
        if (row >= n) break;
        const float a = lane < cols ? x[row * cols + lane] : -INFINITY;
        const float b = lane + 32 < cols ? x[row * cols + lane + 32] : -INFINITY;
        const float m = w34_warp_max(fmaxf(a, b));
        const float ea = lane < cols ? __expf(a - m) : 0.f;
        const float eb = lane + 32 < cols ? __expf(b - m) : 0.f;
        const float s = w34_warp_sum(ea + eb);
        if (lane < cols) y[row * cols + lane] = ea / s;
        if (lane + 32 < cols) y[row * cols + lane + 32] = eb / s;
    }
}
