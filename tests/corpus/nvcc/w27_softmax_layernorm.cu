// corpus: -arch=sm_80
// Warp-per-row softmax and layernorm written with raw warp shuffles: max/sum reductions inside a
// row loop, a divergent tail for rows shorter than a warp multiple, and an early exit for empty rows.
#include <cuda_runtime.h>
#include <math.h>

__device__ __forceinline__ float warp_max(float v) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}
__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

extern "C" __global__ void w27_warp_softmax(const float* __restrict__ x, float* __restrict__ y,
                                            int rows, int cols) {
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int lane = threadIdx.x & 31;
    int nwarps = (gridDim.x * blockDim.x) >> 5;
    for (int r = warp; r < rows; r += nwarps) {
        const float* xr = x + (size_t)r * cols;
        float m = -INFINITY;
        for (int c = lane; c < cols; c += 32) m = fmaxf(m, xr[c]);
        m = warp_max(m);
        float s = 0.f;
        for (int c = lane; c < cols; c += 32) s += __expf(xr[c] - m);
        s = warp_sum(s);
        float inv = 1.f / s;
        for (int c = lane; c < cols; c += 32) y[(size_t)r * cols + c] = __expf(xr[c] - m) * inv;
    }
}

extern "C" __global__ void w27_warp_layernorm(const float* __restrict__ x, float* __restrict__ y,
                                              const float* __restrict__ g, const float* __restrict__ b,
                                              int rows, int cols, float eps) {
    int r = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int lane = threadIdx.x & 31;
    if (r >= rows) return;
    const float* xr = x + (size_t)r * cols;
    float s = 0.f, ss = 0.f;
    for (int c = lane; c < cols; c += 32) {
        float v = xr[c];
        s += v;
        ss += v * v;
    }
    s = warp_sum(s);
    ss = warp_sum(ss);
    float mean = s / cols;
    float var = ss / cols - mean * mean;
    float rstd = rsqrtf(var + eps);
    for (int c = lane; c < cols; c += 32)
        y[(size_t)r * cols + c] = (xr[c] - mean) * rstd * g[c] + b[c];
}

// Online softmax: one pass, the running max and sum reduced per chunk inside the loop.
extern "C" __global__ void w27_online_softmax_lse(const float* __restrict__ x, float* __restrict__ lse,
                                                  int rows, int cols) {
    int r = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    int lane = threadIdx.x & 31;
    if (r >= rows) return;
    float m = -INFINITY, s = 0.f;
    for (int c0 = 0; c0 < cols; c0 += 32) {
        int c = c0 + lane;
        float v = c < cols ? x[(size_t)r * cols + c] : -INFINITY;
        float cm = warp_max(v);
        float nm = fmaxf(m, cm);
        float e = (c < cols) ? __expf(v - nm) : 0.f;
        float cs = warp_sum(e);
        s = s * __expf(m - nm) + cs;
        m = nm;
    }
    if (lane == 0) lse[r] = m + logf(s);
}
