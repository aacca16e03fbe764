// corpus: -arch=sm_80
// Row-wise argmax / top-2 with shuffles, one warp per row.
#include <cuda_runtime.h>
#include <cfloat>

// argmax per row: value and index butterfly, lane 0 writes; guarded row, runtime columns
__global__ void w34_argmax_rows(const float* __restrict__ x, int* __restrict__ idx, int n, int cols)
{
    const int lane = threadIdx.x & 31;
    const int row = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    if (row < n) {
        float best = -FLT_MAX;
        int bi = 0;
        for (int c = lane; c < cols; c += 32) {
            const float v = x[(size_t)row * cols + c];
            if (v > best) { best = v; bi = c; }
        }
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) {
            const float ov = __shfl_xor_sync(0xffffffffu, best, o);
            const int oi = __shfl_xor_sync(0xffffffffu, bi, o);
            if (ov > best || (ov == best && oi < bi)) { best = ov; bi = oi; }
        }
        if (lane == 0) idx[row] = bi;
    }
}

// top-2 of a 64-wide row (two values per lane), grid-stride rows
__global__ void w34_top2_rows(const float* __restrict__ x, float* __restrict__ out, int n)
{
    const int lane = threadIdx.x & 31;
    const int wpb = blockDim.x >> 5;
    for (int row = blockIdx.x * wpb + (threadIdx.x >> 5); row < n; row += gridDim.x * wpb) {
        const float a = x[row * 64 + lane], b = x[row * 64 + 32 + lane];
        float t1 = fmaxf(a, b), t2 = fminf(a, b);
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) {
            const float o1 = __shfl_xor_sync(0xffffffffu, t1, o);
            const float o2 = __shfl_xor_sync(0xffffffffu, t2, o);
            const float n1 = fmaxf(t1, o1);
            t2 = fmaxf(fminf(t1, o1), fmaxf(t2, o2));
            t1 = n1;
        }
        if (lane == 0) { out[2 * row] = t1; out[2 * row + 1] = t2; }
    }
}

// argmax with 4 columns per lane in registers, then a masked softmax probability of the winner
__global__ void w34_argmax_prob(const float* __restrict__ x, int* __restrict__ idx, float* __restrict__ p, int n)
{
    const int lane = threadIdx.x & 31;
    const int row = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    if (row >= n) return;
    float v[4];
    float best = -FLT_MAX;
    int bi = 0;
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        v[i] = x[row * 128 + i * 32 + lane];
        if (v[i] > best) { best = v[i]; bi = i * 32 + lane; }
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        const float ov = __shfl_xor_sync(0xffffffffu, best, o);
        const int oi = __shfl_xor_sync(0xffffffffu, bi, o);
        if (ov > best || (ov == best && oi < bi)) { best = ov; bi = oi; }
    }
    float s = 0.f;
#pragma unroll
    for (int i = 0; i < 4; ++i) s += __expf(v[i] - best);
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
    if (lane == 0) { idx[row] = bi; p[row] = 1.f / s; }
}
