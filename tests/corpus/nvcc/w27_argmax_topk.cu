// corpus: -arch=sm_80
// Argmax and top-k with warp shuffles: (value, index) pair reductions, a per-row loop of k rounds where
// the winning lane drops its candidate, and a divergent refill of the candidate.
#include <cuda_runtime.h>
#include <float.h>

__device__ __forceinline__ void warp_argmax(float& v, int& i) {
    for (int o = 16; o > 0; o >>= 1) {
        float ov = __shfl_down_sync(0xffffffffu, v, o);
        int oi = __shfl_down_sync(0xffffffffu, i, o);
        if (ov > v || (ov == v && oi < i)) { v = ov; i = oi; }
    }
}

extern "C" __global__ void w27_row_argmax(const float* __restrict__ x, int* __restrict__ out, int rows, int cols) {
    int r = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int lane = threadIdx.x & 31;
    if (r >= rows) return;
    float best = -FLT_MAX;
    int bi = 0x7fffffff;
    for (int c = lane; c < cols; c += 32) {
        float v = x[(size_t)r * cols + c];
        if (v > best) { best = v; bi = c; }
    }
    warp_argmax(best, bi);
    if (lane == 0) out[r] = bi;
}

// top-k over a row of <= 32*4 elements: each lane holds 4 candidates in registers.
extern "C" __global__ void w27_warp_topk(const float* __restrict__ x, float* __restrict__ vals,
                                         int* __restrict__ idx, int rows, int cols, int k) {
    int r = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int lane = threadIdx.x & 31;
    if (r >= rows) return;
    float cand[4];
#pragma unroll
    for (int j = 0; j < 4; ++j) {
        int c = lane + 32 * j;
        cand[j] = c < cols ? x[(size_t)r * cols + c] : -FLT_MAX;
    }
    for (int t = 0; t < k; ++t) {
        float lv = cand[0];
        int lj = 0;
#pragma unroll
        for (int j = 1; j < 4; ++j)
            if (cand[j] > lv) { lv = cand[j]; lj = j; }
        float v = lv;
        int i = lane + 32 * lj;
        for (int o = 16; o > 0; o >>= 1) {
            float ov = __shfl_xor_sync(0xffffffffu, v, o);
            int oi = __shfl_xor_sync(0xffffffffu, i, o);
            if (ov > v || (ov == v && oi < i)) { v = ov; i = oi; }
        }
        if (lane == 0) {
            vals[r * k + t] = v;
            idx[r * k + t] = i;
        }
        if ((i & 31) == lane) {
#pragma unroll
            for (int j = 0; j < 4; ++j)
                if (j == (i >> 5)) cand[j] = -FLT_MAX;
        }
    }
}

// argmin with __reduce_min_sync on keys packed as unsigned (sm_80 redux).
extern "C" __global__ void w27_redux_argmin(const unsigned* __restrict__ keys, unsigned* __restrict__ out, int n) {
    int lane = threadIdx.x & 31;
    unsigned best = 0xffffffffu;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        unsigned k = keys[i];
        unsigned m = __reduce_min_sync(0xffffffffu, k);
        if (m < best) best = m;
    }
    unsigned tot = __reduce_add_sync(0xffffffffu, best != 0xffffffffu);
    if (lane == 0 && tot) atomicMin(out, best);
}
