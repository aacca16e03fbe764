// corpus: -arch=sm_90
// Programmatic dependent launch as written in the CUDA guide's examples: (1) a producer that writes its output
// then calls cudaTriggerProgrammaticLaunchCompletion early in a grid-stride loop's tail; (2) a consumer that does
// its independent prologue (loading weights into shared memory with memcpy_async on a cuda::barrier) before
// cudaGridDependencySynchronize, then reads the producer's data; (3) a middle stage doing both, with the
// trigger guarded by the first thread of each block after __syncthreads.
#include <cuda/barrier>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern "C" __global__ void __launch_bounds__(256)
y27_pdl_producer(const float *__restrict__ x, float *__restrict__ y, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        y[i] = x[i] * x[i] + 1.f;
    cudaTriggerProgrammaticLaunchCompletion();
}

extern "C" __global__ void __launch_bounds__(256)
y27_pdl_consumer(const float *__restrict__ w, const float *__restrict__ y, float *__restrict__ z, int n)
{
    auto block = cg::this_thread_block();
    __shared__ alignas(16) float ws[256];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    if (block.thread_rank() == 0) init(&bar, block.size());
    block.sync();
    cuda::memcpy_async(block, ws, w, cuda::aligned_size_t<16>(sizeof(ws)), bar);
    bar.arrive_and_wait();
    cudaGridDependencySynchronize();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = y[i] * ws[threadIdx.x];
}

extern "C" __global__ void __launch_bounds__(128)
y27_pdl_middle(const float *__restrict__ y, float *__restrict__ u, int n)
{
    __shared__ float s[128];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float bias = 0.5f * threadIdx.x;                  // independent of the previous grid
    cudaGridDependencySynchronize();
    s[threadIdx.x] = i < n ? y[i] : 0.f;
    __syncthreads();
    float v = s[threadIdx.x] + s[(threadIdx.x + 1) & 127] + bias;
    if (i < n) u[i] = v;
    __syncthreads();
    if (threadIdx.x == 0) cudaTriggerProgrammaticLaunchCompletion();
}
