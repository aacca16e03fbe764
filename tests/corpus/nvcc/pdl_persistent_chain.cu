// corpus: -arch=sm_90
// Programmatic dependent launch in a producer -> consumer kernel pair: the producer (a layer-norm-like
// per-row pass) triggers its dependents early with cudaTriggerProgrammaticLaunchCompletion once its last
// global read is done, the consumer does independent set-up (shared-memory weights) before
// cudaGridDependencySynchronize and then reads the producer's output; a persistent variant waits once and
// loops over tiles with grid-stride scheduling.
#include <cuda_runtime.h>

extern "C" __global__ void __launch_bounds__(256)
pdl_producer_rownorm(const float *x, float *y, int cols)
{
    cudaGridDependencySynchronize();
    __shared__ float red[8];
    const float *row = x + (size_t)blockIdx.x * cols;
    float s = 0.f;
    for (int c = threadIdx.x; c < cols; c += 256) s += row[c] * row[c];
    for (int o = 16; o; o >>= 1) s += __shfl_xor_sync(0xffffffff, s, o);
    if ((threadIdx.x & 31) == 0) red[threadIdx.x / 32] = s;
    __syncthreads();
    float t = 0.f;
    for (int w = 0; w < 8; ++w) t += red[w];
    cudaTriggerProgrammaticLaunchCompletion();
    float inv = rsqrtf(t / cols + 1e-6f);
    for (int c = threadIdx.x; c < cols; c += 256) y[(size_t)blockIdx.x * cols + c] = row[c] * inv;
}

extern "C" __global__ void __launch_bounds__(128)
pdl_consumer_persistent(const float *y, const float *w, float *out, int rows, int cols)
{
    __shared__ float ws[1024];
    for (int c = threadIdx.x; c < cols && c < 1024; c += 128) ws[c] = w[c];
    __syncthreads();
    cudaGridDependencySynchronize();
    for (int r = blockIdx.x; r < rows; r += gridDim.x) {
        float acc = 0.f;
        for (int c = threadIdx.x; c < cols; c += 128) acc += y[(size_t)r * cols + c] * ws[c & 1023];
        for (int o = 16; o; o >>= 1) acc += __shfl_down_sync(0xffffffff, acc, o);
        if ((threadIdx.x & 31) == 0) atomicAdd(&out[r], acc);
    }
    cudaTriggerProgrammaticLaunchCompletion();
}
