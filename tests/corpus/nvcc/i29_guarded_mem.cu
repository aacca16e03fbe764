// corpus: -arch=sm_90
// Guarded loads, stores and atomics as real kernels write them: a bounds-checked saxpy tail, a counter
// bumped by thread 0 after a block reduction, a last-block reduction with a threadfence ticket, a masked
// scatter with an atomic output slot, a shared-memory histogram flushed with guarded atomics, and a
// guarded read-modify-write of a global flag.
#include <cuda_runtime.h>

__global__ void saxpy_tail(const float* __restrict__ x, float* __restrict__ y, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = a * x[i] + y[i];
    }
}

__global__ void count_positive(const int* __restrict__ in, int n, unsigned* counter)
{
    __shared__ unsigned warp_counts[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = (i < n) ? in[i] : 0;
    unsigned ballot = __ballot_sync(0xffffffffu, v > 0);
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) warp_counts[warp] = __popc(ballot);
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned total = 0;
        for (int w = 0; w < (blockDim.x >> 5); ++w) total += warp_counts[w];
        atomicAdd(counter, total);
    }
}

__device__ unsigned int retirement_count = 0;

__global__ void last_block_sum(const float* __restrict__ in, float* partial, float* out, int n)
{
    __shared__ float sdata[256];
    __shared__ bool am_last;
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    sdata[tid] = (i < n) ? in[i] : 0.f;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) {
        partial[blockIdx.x] = sdata[0];
        __threadfence();
        unsigned ticket = atomicInc(&retirement_count, gridDim.x);
        am_last = (ticket == gridDim.x - 1);
    }
    __syncthreads();
    if (am_last) {
        float s = 0.f;
        for (int b = tid; b < gridDim.x; b += blockDim.x) s += partial[b];
        sdata[tid] = s;
        __syncthreads();
        if (tid == 0) {
            float t = 0.f;
            for (int k = 0; k < blockDim.x; ++k) t += sdata[k];
            *out = t;
            retirement_count = 0;
        }
    }
}

__global__ void masked_scatter(const float* __restrict__ vals, const int* __restrict__ mask,
                               float* out, int* out_count, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && mask[i]) {
        int slot = atomicAdd(out_count, 1);
        out[slot] = vals[i];
    }
}

__global__ void shared_histogram(const unsigned char* __restrict__ data, int n, unsigned* hist)
{
    __shared__ unsigned local[256];
    for (int b = threadIdx.x; b < 256; b += blockDim.x) local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += blockDim.x) {
        unsigned c = local[b];
        if (c) atomicAdd(&hist[b], c);
    }
}

__global__ void flag_update(const int* __restrict__ keys, int* flags, float* acc, int n, int key)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int k = keys[i];
    if (k == key) {
        atomicOr(&flags[i >> 5], 1 << (i & 31));
        atomicAdd(acc, 1.0f);
    }
    if (threadIdx.x == 0) {
        int old = atomicExch(&flags[n], k);
        acc[1 + blockIdx.x] = (float)old;
    }
}

__global__ void guarded_copy_rows(const float4* __restrict__ src, float4* dst, int rows, int cols4)
{
    int r = blockIdx.x;
    for (int c = threadIdx.x; c < cols4; c += blockDim.x) {
        float4 v = src[r * cols4 + c];
        if (v.x != 0.f || v.w != 0.f) {
            v.y = v.y * 2.f;
            dst[r * cols4 + c] = v;
        }
    }
}
