// corpus: -arch=sm_80
// cp.async through the <cuda_pipeline.h> primitives: __pipeline_memcpy_async (4/8/16 bytes, zero-fill),
// __pipeline_commit, __pipeline_wait_prior, __pipeline_arrive_on (cp.async.mbarrier.arrive).
#include <cuda_pipeline.h>
#include <cuda/barrier>

extern "C" __global__ void __launch_bounds__(256) pipeline_primitives_cp_async(const int4 *g16, const int2 *g8, const int *g4,
                                                                              int *out, int n)
{
    __shared__ int4 s16[256];
    __shared__ int2 s8[256];
    __shared__ int s4[256];
    int i = blockIdx.x * 256 + threadIdx.x;
    __pipeline_memcpy_async(&s16[threadIdx.x], &g16[i], sizeof(int4));
    __pipeline_commit();
    __pipeline_memcpy_async(&s8[threadIdx.x], &g8[i], sizeof(int2));
    __pipeline_memcpy_async(&s4[threadIdx.x], &g4[i], sizeof(int), i < n ? 0 : sizeof(int));  // zero-fill tail
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __syncthreads();
    int a = s16[255 - threadIdx.x].x + s16[threadIdx.x].w;
    __pipeline_wait_prior(0);
    __syncthreads();
    out[i] = a + s8[255 - threadIdx.x].y + s4[255 - threadIdx.x];
}

extern "C" __global__ void pipeline_arrive_on(const int4 *g, int *out)
{
    __shared__ int4 s[128];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    if (threadIdx.x == 0) init(&bar, blockDim.x);
    __syncthreads();
    __pipeline_memcpy_async(&s[threadIdx.x], &g[blockIdx.x * 128 + threadIdx.x], sizeof(int4));
    __pipeline_arrive_on(cuda::device::barrier_native_handle(bar));
    bar.arrive_and_wait();
    out[blockIdx.x * 128 + threadIdx.x] = s[127 - threadIdx.x].x;
}
