// corpus: -arch=sm_75
// Block-wide reductions whose __syncthreads() sits next to guarded code (helper nvbar38, stop 38): unrolled
// shared-memory trees after a grid-stride loop or a guarded load, a warp-shuffle tail, last-block patterns,
// a shared histogram and CUB's BlockReduce.
#include <cub/block/block_reduce.cuh>
#include <climits>

// reduce5 shape: grid-stride sum, unrolled tree of three steps, warp tail with __syncwarp
extern "C" __global__ void __launch_bounds__(512) g38_sum_tree512(const float *x, float *out, int n)
{
    __shared__ float s[512];
    unsigned t = threadIdx.x;
    float v = 0.f;
    for (int i = blockIdx.x * 512 + t; i < n; i += 512 * gridDim.x) v += x[i];
    s[t] = v;
    __syncthreads();
    if (t < 256) s[t] = v = v + s[t + 256];
    __syncthreads();
    if (t < 128) s[t] = v = v + s[t + 128];
    __syncthreads();
    if (t < 64) s[t] = v = v + s[t + 64];
    __syncthreads();
    if (t < 32) {
        volatile float *w = s;
        w[t] = v = v + w[t + 32];
        __syncwarp();
        w[t] = v = v + w[t + 16];
        __syncwarp();
        w[t] = v = v + w[t + 8];
        __syncwarp();
        if (t == 0) out[blockIdx.x] = v + w[1] + w[2] + w[3] + w[4] + w[5] + w[6] + w[7];
    }
}

// guarded 2D tile load, then a max tree over 256 threads, shuffle tail, atomic into the result
extern "C" __global__ void __launch_bounds__(256) g38_tile_absmax(const float *a, int rows, int cols, int ld,
                                                                 unsigned *result)
{
    __shared__ float s[256];
    int tx = threadIdx.x & 15, ty = threadIdx.x >> 4, t = threadIdx.x;
    int r = blockIdx.y * 16 + ty, c = blockIdx.x * 16 + tx;
    float v = (r < rows && c < cols) ? fabsf(a[(size_t)r * ld + c]) : 0.f;
    s[t] = v;
    __syncthreads();
    if (t < 128) s[t] = v = fmaxf(v, s[t + 128]);
    __syncthreads();
    if (t < 64) s[t] = v = fmaxf(v, s[t + 64]);
    __syncthreads();
    if (t < 32) {
        v = fmaxf(v, s[t + 32]);
        for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
        if (t == 0) atomicMax(result, __float_as_uint(v));
    }
}

// double-precision sum of squares, 1024 threads, five unrolled steps, then a shuffle tail storing per block
extern "C" __global__ void __launch_bounds__(1024) g38_sumsq_f64(const double *x, double *out, long n)
{
    __shared__ double s[1024];
    unsigned t = threadIdx.x;
    double acc = 0.0;
    for (long i = blockIdx.x * 1024L + t; i < n; i += 1024L * gridDim.x) acc = fma(x[i], x[i], acc);
    s[t] = acc;
    __syncthreads();
#pragma unroll
    for (int o = 512; o >= 32; o >>= 1) {
        if (t < o) s[t] = acc = acc + s[t + o];
        __syncthreads();
    }
    if (t < 32) {
        for (int o = 16; o > 0; o >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, o);
        if (t == 0) out[blockIdx.x] = acc;
    }
}

// int min with index (argmin) over 128 threads: one tree step, then warp tail
extern "C" __global__ void __launch_bounds__(128) g38_argmin128(const int *x, int n, int *best, int *where)
{
    __shared__ int sv[128], si[128];
    int t = threadIdx.x, g = blockIdx.x * 128 + t;
    int v = g < n ? x[g] : INT_MAX, id = g;
    sv[t] = v; si[t] = id;
    __syncthreads();
    if (t < 64 && sv[t + 64] < v) { sv[t] = v = sv[t + 64]; si[t] = id = si[t + 64]; }
    __syncthreads();
    if (t < 32) {
        if (sv[t + 32] < v) { v = sv[t + 32]; id = si[t + 32]; }
        for (int o = 16; o > 0; o >>= 1) {
            int ov = __shfl_down_sync(0xffffffffu, v, o), oi = __shfl_down_sync(0xffffffffu, id, o);
            if (ov < v) { v = ov; id = oi; }
        }
        if (t == 0) { best[blockIdx.x] = v; where[blockIdx.x] = id; }
    }
}

// last-block pattern: per-block partial via a tree, a ticket, the last block reduces the partials the same way
__device__ unsigned g38_ticket;
extern "C" __global__ void __launch_bounds__(256) g38_last_block_sum(const float *x, float *part, float *total, int n)
{
    __shared__ float s[256];
    __shared__ bool last;
    unsigned t = threadIdx.x;
    float v = 0.f;
    for (int i = blockIdx.x * 256 + t; i < n; i += 256 * gridDim.x) v += x[i];
    s[t] = v;
    __syncthreads();
    for (int o = 128; o > 0; o >>= 1) {
        if (t < o) s[t] += s[t + o];
        __syncthreads();
    }
    if (t == 0) {
        part[blockIdx.x] = s[0];
        __threadfence();
        last = atomicAdd(&g38_ticket, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!last) return;
    v = 0.f;
    for (unsigned i = t; i < gridDim.x; i += 256) v += ((volatile float *)part)[i];
    s[t] = v;
    __syncthreads();
    if (t < 128) s[t] = v = v + s[t + 128];
    __syncthreads();
    if (t < 64) s[t] = v = v + s[t + 64];
    __syncthreads();
    if (t < 32) {
        v += s[t + 32];
        for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
        if (t == 0) { *total = v; g38_ticket = 0; }
    }
}

// CUB BlockReduce (raking) over a guarded tile, 256 threads x 2 items
extern "C" __global__ void __launch_bounds__(256) g38_cub_tile_sum(const float *x, float *out, int n)
{
    using BR = cub::BlockReduce<float, 256, cub::BLOCK_REDUCE_RAKING>;
    __shared__ typename BR::TempStorage tmp;
    int base = blockIdx.x * 512 + threadIdx.x;
    float a = base < n ? x[base] : 0.f, b = base + 256 < n ? x[base + 256] : 0.f;
    float s = BR(tmp).Sum(a + b);
    if (threadIdx.x == 0) out[blockIdx.x] = s;
}

// shared histogram with a guarded element loop, then a merge whose loop body ends in a barrier-free atomic
extern "C" __global__ void __launch_bounds__(128) g38_hist32_u16(const unsigned short *v, int n, unsigned *hist)
{
    __shared__ unsigned bins[32];
    int t = threadIdx.x;
    if (t < 32) bins[t] = 0;
    __syncthreads();
    for (int i = blockIdx.x * 128 + t; i < n; i += 128 * gridDim.x) atomicAdd(&bins[v[i] >> 11], 1u);
    __syncthreads();
    if (t < 32 && bins[t]) atomicAdd(&hist[t], bins[t]);
}

// two-value (sum, count) tree over 256 threads after a guarded load with a filter
extern "C" __global__ void __launch_bounds__(256) g38_mean_positive(const float *x, int n, float *sum, int *cnt)
{
    __shared__ float ss[256];
    __shared__ int sc[256];
    int t = threadIdx.x, g = blockIdx.x * 256 + t;
    float v = g < n ? x[g] : 0.f;
    int c = v > 0.f;
    v = c ? v : 0.f;
    ss[t] = v; sc[t] = c;
    __syncthreads();
    if (t < 128) { ss[t] = v = v + ss[t + 128]; sc[t] = c = c + sc[t + 128]; }
    __syncthreads();
    if (t < 64) { ss[t] = v = v + ss[t + 64]; sc[t] = c = c + sc[t + 64]; }
    __syncthreads();
    if (t < 32) {
        v += ss[t + 32]; c += sc[t + 32];
        for (int o = 16; o > 0; o >>= 1) { v += __shfl_down_sync(0xffffffffu, v, o); c += __shfl_down_sync(0xffffffffu, c, o); }
        if (t == 0) { atomicAdd(sum, v); atomicAdd(cnt, c); }
    }
}
