// corpus: -arch=sm_80
// Warp softmax per row (max, exp-sum, write) with an early return for the tail warps, a masked softmax that
// only some rows take (causal length per row), and a warp arg-max with a while loop that runs until no lane
// has candidates left.
#include <cuda_runtime.h>
#include <cfloat>

__device__ __forceinline__ float warp_max(float v) {
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}
__device__ __forceinline__ float warp_sum(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

extern "C" __global__ void w28_warp_softmax(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
    int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    int lane = threadIdx.x % 32;
    if (row >= rows) return;
    const float* r = in + (size_t)row * cols;
    float m = -FLT_MAX;
    for (int c = lane; c < cols; c += 32) m = fmaxf(m, r[c]);
    m = warp_max(m);
    float s = 0.f;
    for (int c = lane; c < cols; c += 32) s += __expf(r[c] - m);
    s = warp_sum(s);
    float inv = 1.f / s;
    for (int c = lane; c < cols; c += 32) out[(size_t)row * cols + c] = __expf(r[c] - m) * inv;
}

extern "C" __global__ void w28_causal_softmax(float* __restrict__ scores, const int* __restrict__ lens, int rows, int cols) {
    int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    int lane = threadIdx.x % 32;
    if (row < rows) {
        int len = min(lens[row], cols);
        float* r = scores + (size_t)row * cols;
        if (len > 0) {
            float m = -FLT_MAX;
            for (int c = lane; c < len; c += 32) m = fmaxf(m, r[c]);
            m = warp_max(m);
            float s = 0.f;
            for (int c = lane; c < len; c += 32) { float e = __expf(r[c] - m); r[c] = e; s += e; }
            s = warp_sum(s);
            for (int c = lane; c < len; c += 32) r[c] /= s;
        }
        for (int c = len + lane; c < cols; c += 32) r[c] = 0.f;
    }
}

extern "C" __global__ void w28_warp_argmax_while(const float* __restrict__ x, const int* __restrict__ cnt,
                                                 int* __restrict__ best, int stride) {
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int lane = threadIdx.x & 31;
    int n = cnt[warp];
    const float* p = x + (size_t)warp * stride;
    float bv = -FLT_MAX;
    int bi = -1;
    int c = lane;
    while (__any_sync(0xffffffffu, c < n)) {
        if (c < n) {
            float v = p[c];
            if (v > bv) { bv = v; bi = c; }
        }
        c += 32;
    }
    for (int o = 16; o > 0; o >>= 1) {
        float ov = __shfl_xor_sync(0xffffffffu, bv, o);
        int oi = __shfl_xor_sync(0xffffffffu, bi, o);
        if (ov > bv || (ov == bv && oi >= 0 && (bi < 0 || oi < bi))) { bv = ov; bi = oi; }
    }
    if (lane == 0) best[warp] = bi;
}
