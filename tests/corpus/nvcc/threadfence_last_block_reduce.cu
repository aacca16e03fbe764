// corpus: -arch=sm_75 -lineinfo
// The CUDA samples' threadFenceReduction shape: each block reduces its slice (shared-memory tree with
// __syncthreads, last warp via __syncwarp), writes a partial, __threadfence(), takes a ticket with atomicInc;
// the last block to arrive (__syncthreads_or of its ticket test) sums all partials and resets the counter.
// A second kernel does the same with a device-scope release/acquire fence pair instead of __threadfence.
#include <cuda/atomic>

template <int THREADS>
__device__ float block_sum(float v, float *s)
{
    s[threadIdx.x] = v;
    __syncthreads();
    for (int o = THREADS / 2; o > 32; o >>= 1) {
        if (threadIdx.x < o) s[threadIdx.x] += s[threadIdx.x + o];
        __syncthreads();
    }
    if (threadIdx.x < 32) {
        float x = s[threadIdx.x] + s[threadIdx.x + 32];
        __syncwarp();
        for (int o = 16; o > 0; o >>= 1) {
            s[threadIdx.x] = x;
            __syncwarp();
            x += s[threadIdx.x ^ o];
            __syncwarp();
        }
        v = x;
    }
    return v;
}

__device__ unsigned retirement_count = 0;

extern "C" __global__ void __launch_bounds__(256)
threadfence_last_block(const float *in, float *partials, float *result, int n)
{
    __shared__ float s[256];
    float acc = 0.f;
    for (int i = blockIdx.x * 256 + threadIdx.x; i < n; i += gridDim.x * 256) acc += in[i];
    float sum = block_sum<256>(acc, s);
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = sum;
        __threadfence();
    }
    bool last = false;
    if (threadIdx.x == 0) last = atomicInc(&retirement_count, gridDim.x) == gridDim.x - 1;
    if (__syncthreads_or(last)) {
        float t = 0.f;
        for (int i = threadIdx.x; i < gridDim.x; i += 256) t += partials[i];
        t = block_sum<256>(t, s);
        if (threadIdx.x == 0) {
            *result = t;
            retirement_count = 0;
        }
    }
}

extern "C" __global__ void __launch_bounds__(128)
fence_pair_last_block(const int *in, int *partials, int *result, unsigned *counter, int n)
{
    __shared__ float s[128];
    __shared__ bool am_last;
    float acc = 0.f;
    for (int i = blockIdx.x * 128 + threadIdx.x; i < n; i += gridDim.x * 128) acc += (float)in[i];
    int sum = (int)block_sum<128>(acc, s);
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = sum;
        cuda::atomic_thread_fence(cuda::memory_order_release, cuda::thread_scope_device);
        cuda::atomic_ref<unsigned, cuda::thread_scope_device> c(*counter);
        am_last = c.fetch_add(1, cuda::memory_order_relaxed) == gridDim.x - 1;
        if (am_last) cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
    }
    __syncthreads();
    if (am_last && threadIdx.x == 0) {
        int t = 0;
        for (unsigned b = 0; b < gridDim.x; ++b) t += partials[b];
        *result = t;
        *counter = 0;
    }
}
