// corpus: -arch=sm_80
// helper nvcoll35 (stop 35): warp reductions (runs of full-mask shuffles) reached diverged, more than one per kernel
#include <cuda_runtime.h>

__device__ __forceinline__ float q35_sum(float v)
{
    for (int o = 16; o; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

__device__ __forceinline__ float q35_max(float v)
{
    for (int o = 16; o; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}

// softmax over a row per warp: max, then sum, after an early return for rows past the end
__global__ void q35_row_softmax(const float* __restrict__ x, float* __restrict__ y, int rows, int cols)
{
    const int row = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    const int lane = threadIdx.x & 31;
    if (row >= rows) return;
    const float* xr = x + (size_t)row * cols;
    float m = -3.0e38f;
    for (int c = lane; c < cols; c += 32) m = fmaxf(m, xr[c]);
    m = q35_max(m);
    float s = 0.f;
    for (int c = lane; c < cols; c += 32) s += __expf(xr[c] - m);
    s = q35_sum(s);
    for (int c = lane; c < cols; c += 32) y[(size_t)row * cols + c] = __expf(xr[c] - m) / s;
}

// two rows per warp, each under its own bounds check, 64 columns (two per lane)
__global__ void q35_two_row_sum(const float* __restrict__ x, float* __restrict__ out, int rows)
{
    const int lane = threadIdx.x & 31;
    const int warp = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
#pragma unroll
    for (int k = 0; k < 2; ++k) {
        const int row = warp * 2 + k;
        if (row < rows) {
            float v = x[row * 64 + lane] + x[row * 64 + 32 + lane];
            v = q35_sum(v);
            if (lane == 0) out[row] = v;
        }
    }
}

// sum and sum of squares of a guarded value, then a second reduction of the normalized values
__global__ void q35_guarded_stats(const float* __restrict__ x, float* __restrict__ out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = 0.f;
    if (i < n) {
        v = x[i];
        float s = q35_sum(v);
        if ((threadIdx.x & 31) == 0) out[i >> 5] = s;
    }
    if (i >= n) return;
    float q = q35_sum(v * v);
    if ((threadIdx.x & 31) == 0) out[(n >> 5) + (i >> 5)] = q;
}

// argmax of a row: max by value, then the smallest lane holding it (an int shuffle run after a float one)
__global__ void q35_row_argmax(const float* __restrict__ x, int* __restrict__ idx, int rows, int cols)
{
    const int row = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    const int lane = threadIdx.x & 31;
    if (row >= rows) return;
    float best = -3.0e38f;
    int bi = 0x7fffffff;
    for (int c = lane; c < cols; c += 32) {
        float v = x[(size_t)row * cols + c];
        if (v > best) { best = v; bi = c; }
    }
    float m = q35_max(best);
    int cand = best == m ? bi : 0x7fffffff;
    for (int o = 16; o; o >>= 1) cand = min(cand, __shfl_xor_sync(0xffffffffu, cand, o));
    if (lane == 0) idx[row] = cand;
}

// a segmented scan: down-sweep with shfl_up inside a bounds if, then a total with shfl_down
__global__ void q35_scan_then_total(const int* __restrict__ a, int* __restrict__ b, int* __restrict__ tot, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int lane = threadIdx.x & 31;
    int v = i < n ? a[i] : 0;
    if (i < n) {
        for (int o = 1; o < 32; o <<= 1) {
            int t = __shfl_up_sync(0xffffffffu, v, o);
            if (lane >= o) v += t;
        }
        b[i] = v;
    }
    if (i >= n) return;
    int s = a[i];
    for (int o = 16; o; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
    if (lane == 0) atomicAdd(tot, s);
}

// per-warp L2 norm of a row with a ballot count of nonzeros, rows past the end return early
__global__ void q35_row_norm_count(const float* __restrict__ x, float* __restrict__ nrm, int* __restrict__ nnz,
                                   int rows, int cols)
{
    const int row = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    const int lane = threadIdx.x & 31;
    if (row >= rows) return;
    float q = 0.f;
    int cnt = 0;
    for (int c = lane; c < cols; c += 32) {
        float v = x[(size_t)row * cols + c];
        q += v * v;
        cnt += __popc(__ballot_sync(__activemask(), v != 0.f));
    }
    q = q35_sum(q);
    if (lane == 0) { nrm[row] = sqrtf(q); nnz[row] = cnt; }
}

// double-precision warp sum after a guarded first pass that already reduced once
__global__ void q35_two_pass_f64(const double* __restrict__ x, double* __restrict__ out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    double v = 0.0;
    if (i < n) {
        v = x[i];
        for (int o = 16; o; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    }
    if (i >= n) return;
    double d = x[i] - v / 32.0;
    d *= d;
    for (int o = 16; o; o >>= 1) d += __shfl_xor_sync(0xffffffffu, d, o);
    if ((threadIdx.x & 31) == 0) out[i >> 5] = d;
}

// a max reduction inside a divergent if, then a sum over all lanes after the join
__global__ void q35_if_then_all(const float* __restrict__ x, float* __restrict__ out, int n, float t)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = x[i];
    float m = 0.f;
    if (v > t) {
        m = q35_max(v);
        out[i] = m;
    }
    float s = q35_sum(v + m);
    if ((threadIdx.x & 31) == 0) out[n + (i >> 5)] = s;
}
