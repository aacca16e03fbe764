// corpus: -arch=sm_80
// Templated warp top-k over rows: K rounds of a butterfly arg-max (value, index), then the winning lane
// removes its value; template on K and the per-lane width, half input, activemask variant, rows loop.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cfloat>

template <int K, int PER>
__global__ void wr33_topk_regs(const float* __restrict__ x, float* __restrict__ vals, int* __restrict__ idx, int rows)
{
    const int lane = threadIdx.x & 31;
    const int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    if (row >= rows) return;
    float v[PER];
#pragma unroll
    for (int i = 0; i < PER; ++i) v[i] = x[(size_t)row * (PER * 32) + i * 32 + lane];
#pragma unroll
    for (int k = 0; k < K; ++k) {
        float bv = -FLT_MAX; int bi = 0;
#pragma unroll
        for (int i = 0; i < PER; ++i) if (v[i] > bv) { bv = v[i]; bi = i * 32 + lane; }
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) {
            float ov = __shfl_xor_sync(0xffffffffu, bv, o);
            int oi = __shfl_xor_sync(0xffffffffu, bi, o);
            if (ov > bv || (ov == bv && oi < bi)) { bv = ov; bi = oi; }
        }
        if (lane == 0) { vals[row * K + k] = bv; idx[row * K + k] = bi; }
        if ((bi & 31) == lane) {
#pragma unroll
            for (int i = 0; i < PER; ++i) if (i == (bi >> 5)) v[i] = -FLT_MAX;
        }
    }
}
template __global__ void wr33_topk_regs<2, 4>(const float*, float*, int*, int);
template __global__ void wr33_topk_regs<8, 2>(const float*, float*, int*, int);

template <int K>
__global__ void wr33_topk_half_rows(const __half* __restrict__ x, int* __restrict__ idx, int rows, int cols)
{
    const int lane = threadIdx.x & 31;
    const int nw = (gridDim.x * blockDim.x) >> 5;
    for (int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5; row < rows; row += nw) {
        // each lane keeps only its own best; after a round the winner rescans its columns
        float best = -INFINITY; int bc = -1;
        for (int c = lane; c < cols; c += 32) { float v = __half2float(x[(size_t)row * cols + c]); if (v > best) { best = v; bc = c; } }
        float taken = INFINITY;
        for (int k = 0; k < K; ++k) {
            float m = best; int mi = bc;
            for (int o = 16; o > 0; o >>= 1) {
                float om = __shfl_xor_sync(0xffffffffu, m, o);
                int oi = __shfl_xor_sync(0xffffffffu, mi, o);
                if (om > m) { m = om; mi = oi; }
            }
            if (lane == 0) idx[row * K + k] = mi;
            if (mi == bc) {
                taken = best; best = -INFINITY; bc = -1;
                for (int c = lane; c < cols; c += 32) {
                    float v = __half2float(x[(size_t)row * cols + c]);
                    if (v < taken && v > best) { best = v; bc = c; }
                }
            }
        }
    }
}
template __global__ void wr33_topk_half_rows<4>(const __half*, int*, int, int);

__global__ void wr33_topk_active(const float* __restrict__ x, float* __restrict__ out, int rows, int k)
{
    const int lane = threadIdx.x & 31;
    const int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    if (row < rows) {
        const unsigned mask = __activemask();
        float a = x[(size_t)row * 32 + lane];
        for (int j = 0; j < k; ++j) {
            float m = a;
            for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(mask, m, o));
            if (lane == j) out[row * 32 + j] = m;
            if (a == m) a = -FLT_MAX;
        }
    }
}
