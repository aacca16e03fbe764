// corpus: -arch=sm_80
// Warp top-k as people write it: every lane keeps a small sorted candidate list in registers, the warp
// merges lists with __shfl_xor_sync butterflies inside loops; a variant stops early when the warp's best
// candidate falls below a threshold (data-dependent break), and one skips masked rows (continue).
#include <cuda_runtime.h>
#include <cfloat>

template <int K>
__device__ __forceinline__ void insert_sorted(float (&v)[K], int (&id)[K], float x, int xi)
{
    if (x <= v[K - 1]) return;
    int p = K - 1;
#pragma unroll
    for (int j = K - 1; j > 0; --j) {
        if (v[j - 1] < x) { v[j] = v[j - 1]; id[j] = id[j - 1]; p = j - 1; }
    }
    v[p] = x; id[p] = xi;
}

template <int K>
__global__ void wk32_warp_topk_rows(const float* __restrict__ in, float* __restrict__ outv,
                                    int* __restrict__ outi, int rows, int cols)
{
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int lane = threadIdx.x & 31;
    if (warp >= rows) return;
    const float* r = in + (size_t)warp * cols;
    float v[K]; int id[K];
#pragma unroll
    for (int j = 0; j < K; ++j) { v[j] = -FLT_MAX; id[j] = -1; }
    for (int c = lane; c < cols; c += 32) insert_sorted<K>(v, id, r[c], c);
    // merge: K rounds; each round the warp picks the max head and the owner pops it
    for (int k = 0; k < K; ++k) {
        float best = v[0]; int bi = id[0]; int owner = lane;
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) {
            float ov = __shfl_xor_sync(0xffffffffu, best, off);
            int oi = __shfl_xor_sync(0xffffffffu, bi, off);
            int oo = __shfl_xor_sync(0xffffffffu, owner, off);
            if (ov > best || (ov == best && oo < owner)) { best = ov; bi = oi; owner = oo; }
        }
        if (lane == 0) { outv[warp * K + k] = best; outi[warp * K + k] = bi; }
        if (lane == owner) {
#pragma unroll
            for (int j = 0; j < K - 1; ++j) { v[j] = v[j + 1]; id[j] = id[j + 1]; }
            v[K - 1] = -FLT_MAX; id[K - 1] = -1;
        }
    }
}
template __global__ void wk32_warp_topk_rows<4>(const float*, float*, int*, int, int);

__global__ void wk32_warp_topk_threshold(const float* __restrict__ in, float* __restrict__ outv,
                                         int rows, int cols, float thresh)
{
    int lane = threadIdx.x & 31;
    int warps = (gridDim.x * blockDim.x) >> 5;
    for (int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5; row < rows; row += warps) {
        const float* r = in + (size_t)row * cols;
        float a = -FLT_MAX, b = -FLT_MAX;
        for (int c = lane; c < cols; c += 32) {
            float x = r[c];
            if (x > a) { b = a; a = x; } else if (x > b) { b = x; }
        }
        for (int k = 0; k < 8; ++k) {
            float m = a;
            for (int off = 16; off > 0; off >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, off));
            if (m < thresh) break;          // warp-uniform: m is the same on every lane
            if (lane == 0) outv[row * 8 + k] = m;
            if (a == m) { a = b; b = -FLT_MAX; }
        }
    }
}

__global__ void wk32_warp_topk_masked(const float* __restrict__ in, const int* __restrict__ valid,
                                      float* __restrict__ outv, int rows, int cols)
{
    int lane = threadIdx.x & 31;
    int warps = (gridDim.x * blockDim.x) >> 5;
    for (int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5; row < rows; row += warps) {
        if (!valid[row]) continue;
        float best = -FLT_MAX;
        for (int c = lane; c < cols; c += 32) best = fmaxf(best, in[(size_t)row * cols + c]);
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) best = fmaxf(best, __shfl_xor_sync(0xffffffffu, best, off));
        if (lane == 0) outv[row] = best;
    }
}
