// corpus: -arch=sm_75
// Hand-written shared-memory tree reductions: a classic loop with __syncthreads per step (not unrolled, blockDim
// at run time), a templated fully unrolled version with a warp-synchronous tail, a two-value (sum and max)
// reduction in one pass, and a reduction whose last block finishes the grid (threadfence + atomic ticket).
#include <cuda_runtime.h>

extern "C" __global__ void b27_reduce_dynamic(const float *in, float *out, int n)
{
    extern __shared__ float sdata[];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x * 2 + threadIdx.x;
    float v = 0.f;
    if (i < n) v = in[i];
    if (i + blockDim.x < n) v += in[i + blockDim.x];
    sdata[tid] = v;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}

template <unsigned BS>
__device__ __forceinline__ void warp_tail(volatile float *s, unsigned tid)
{
    if (BS >= 64) s[tid] += s[tid + 32];
    __syncwarp();
    if (BS >= 32) s[tid] += s[tid + 16];
    __syncwarp();
    if (BS >= 16) s[tid] += s[tid + 8];
    __syncwarp();
    if (BS >= 8) s[tid] += s[tid + 4];
    __syncwarp();
    if (BS >= 4) s[tid] += s[tid + 2];
    __syncwarp();
    if (BS >= 2) s[tid] += s[tid + 1];
}

template <unsigned BS>
__device__ void reduce_unrolled(const float *in, float *out, unsigned n)
{
    __shared__ float s[BS];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * (BS * 2) + tid;
    unsigned grid = BS * 2 * gridDim.x;
    float acc = 0.f;
    while (i < n) {
        acc += in[i];
        if (i + BS < n) acc += in[i + BS];
        i += grid;
    }
    s[tid] = acc;
    __syncthreads();
#pragma unroll
    for (unsigned k = BS / 2; k > 32; k >>= 1) {
        if (tid < k) s[tid] = acc = acc + s[tid + k];
        __syncthreads();
    }
    if (tid < 32) warp_tail<BS>(s, tid);
    if (tid == 0) out[blockIdx.x] = s[0];
}

extern "C" __global__ void __launch_bounds__(512) b27_reduce_unrolled512(const float *in, float *out, unsigned n)
{
    reduce_unrolled<512>(in, out, n);
}

extern "C" __global__ void __launch_bounds__(128) b27_reduce_unrolled128(const float *in, float *out, unsigned n)
{
    reduce_unrolled<128>(in, out, n);
}

extern "C" __global__ void __launch_bounds__(256) b27_reduce_sum_max(const float *in, float2 *out, int n)
{
    __shared__ float ssum[256];
    __shared__ float smax[256];
    int tid = threadIdx.x;
    int i = blockIdx.x * 256 + tid;
    float v = i < n ? in[i] : 0.f;
    ssum[tid] = v;
    smax[tid] = i < n ? v : -INFINITY;
    __syncthreads();
    for (int s = 128; s > 0; s >>= 1) {
        if (tid < s) {
            ssum[tid] += ssum[tid + s];
            smax[tid] = fmaxf(smax[tid], smax[tid + s]);
        }
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = make_float2(ssum[0], smax[0]);
}

__device__ unsigned int b27_retirement = 0;

extern "C" __global__ void __launch_bounds__(256) b27_reduce_last_block(const float *in, float *partial, float *result, int n)
{
    __shared__ float s[256];
    __shared__ bool am_last;
    int tid = threadIdx.x;
    float acc = 0.f;
    for (int i = blockIdx.x * 256 + tid; i < n; i += 256 * gridDim.x) acc += in[i];
    s[tid] = acc;
    __syncthreads();
    for (int k = 128; k > 0; k >>= 1) {
        if (tid < k) s[tid] += s[tid + k];
        __syncthreads();
    }
    if (tid == 0) {
        partial[blockIdx.x] = s[0];
        __threadfence();
        unsigned ticket = atomicInc(&b27_retirement, gridDim.x);
        am_last = (ticket == gridDim.x - 1);
    }
    __syncthreads();
    if (am_last) {
        float t = 0.f;
        for (int i = tid; i < gridDim.x; i += 256) t += partial[i];
        s[tid] = t;
        __syncthreads();
        for (int k = 128; k > 0; k >>= 1) {
            if (tid < k) s[tid] += s[tid + k];
            __syncthreads();
        }
        if (tid == 0) { *result = s[0]; b27_retirement = 0; }
    }
}
