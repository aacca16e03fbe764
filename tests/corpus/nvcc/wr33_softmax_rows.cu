// corpus: -arch=sm_80
// Warp-per-row softmax variants: compile-time row width held in registers (template on COLS), rows-per-warp
// loops, half input with float accumulation, __activemask vs full mask, with/without early exit on row bounds.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cfloat>

template <int COLS>
__global__ void wr33_softmax_regs(const float* __restrict__ x, float* __restrict__ y, int rows)
{
    constexpr int PER = COLS / 32;
    const int lane = threadIdx.x & 31;
    const int wpb = blockDim.x >> 5;
    for (int row = blockIdx.x * wpb + (threadIdx.x >> 5); row < rows; row += gridDim.x * wpb) {
        float v[PER];
        float m = -FLT_MAX;
#pragma unroll
        for (int i = 0; i < PER; ++i) { v[i] = x[(size_t)row * COLS + i * 32 + lane]; m = fmaxf(m, v[i]); }
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
        float s = 0.f;
#pragma unroll
        for (int i = 0; i < PER; ++i) { v[i] = __expf(v[i] - m); s += v[i]; }
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
        float inv = 1.f / s;
#pragma unroll
        for (int i = 0; i < PER; ++i) y[(size_t)row * COLS + i * 32 + lane] = v[i] * inv;
    }
}
template __global__ void wr33_softmax_regs<64>(const float*, float*, int);
template __global__ void wr33_softmax_regs<256>(const float*, float*, int);

__global__ void wr33_softmax_half_rows(const __half* __restrict__ x, __half* __restrict__ y, int rows, int cols,
                                       int rows_per_warp)
{
    const int lane = threadIdx.x & 31;
    const int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const int r0 = warp * rows_per_warp;
    for (int r = r0; r < r0 + rows_per_warp; ++r) {
        if (r >= rows) break;
        const __half* xr = x + (size_t)r * cols;
        float m = -INFINITY;
        for (int c = lane; c < cols; c += 32) m = fmaxf(m, __half2float(xr[c]));
        for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
        float s = 0.f;
        for (int c = lane; c < cols; c += 32) s += __expf(__half2float(xr[c]) - m);
        for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
        float inv = 1.f / s;
        for (int c = lane; c < cols; c += 32)
            y[(size_t)r * cols + c] = __float2half(__expf(__half2float(xr[c]) - m) * inv);
    }
}

__global__ void wr33_softmax_active(const float* __restrict__ x, float* __restrict__ y, int rows, int cols,
                                    float scale)
{
    const int lane = threadIdx.x % 32;
    const int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    if (row < rows) {
        unsigned mask = __activemask();
        const float* xr = x + (size_t)row * cols;
        float m = -FLT_MAX;
        for (int c = lane; c < cols; c += 32) m = fmaxf(m, xr[c] * scale);
        for (int o = 16; o > 0; o /= 2) m = fmaxf(m, __shfl_xor_sync(mask, m, o));
        float s = 0.f;
        for (int c = lane; c < cols; c += 32) s += __expf(xr[c] * scale - m);
        for (int o = 16; o > 0; o /= 2) s += __shfl_xor_sync(mask, s, o);
        for (int c = lane; c < cols; c += 32) y[(size_t)row * cols + c] = __expf(xr[c] * scale - m) / s;
    }
}

// Online softmax (one pass: running max and rescaled sum), then a combined butterfly of (m, s) pairs.
__global__ void wr33_softmax_online(const float* __restrict__ x, float* __restrict__ lse, int rows, int cols)
{
    const int lane = threadIdx.x & 31;
    const int nw = (gridDim.x * blockDim.x) >> 5;
    for (int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5; row < rows; row += nw) {
        float m = -INFINITY, s = 0.f;
        for (int c = lane; c < cols; c += 32) {
            float v = x[(size_t)row * cols + c];
            float nm = fmaxf(m, v);
            s = s * __expf(m - nm) + __expf(v - nm);
            m = nm;
        }
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) {
            float om = __shfl_xor_sync(0xffffffffu, m, o);
            float os = __shfl_xor_sync(0xffffffffu, s, o);
            float nm = fmaxf(m, om);
            s = s * __expf(m - nm) + os * __expf(om - nm);
            m = nm;
        }
        if (lane == 0) lse[row] = m + __logf(s);
    }
}
