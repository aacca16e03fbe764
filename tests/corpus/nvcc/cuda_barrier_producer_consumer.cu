// corpus: -arch=sm_80
// cuda::barrier<thread_scope_block> (mbarrier in shared memory): init, arrive/wait, arrive_and_wait,
// arrive_and_drop, in a double-buffered producer/consumer loop.
#include <cuda/barrier>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
using barrier = cuda::barrier<cuda::thread_scope_block>;

extern "C" __global__ void __launch_bounds__(128) cuda_barrier_producer_consumer(const float *in, float *out, int iters)
{
    __shared__ float buf[2][64];
    __shared__ barrier full[2], empty[2];
    auto block = cg::this_thread_block();
    if (block.thread_rank() == 0) {
        for (int k = 0; k < 2; ++k) { init(&full[k], 128); init(&empty[k], 128); }
    }
    block.sync();
    int tid = threadIdx.x;
    bool producer = tid < 64;
    for (int it = 0; it < iters; ++it) {
        int k = it & 1;
        if (producer) {
            if (it >= 2) empty[k].arrive_and_wait();
            buf[k][tid] = in[it * 64 + tid];
            barrier::arrival_token t = full[k].arrive();
            (void)t;
        } else {
            full[k].arrive_and_wait();
            out[it * 64 + tid - 64] = buf[k][tid - 64] * 3.0f;
            barrier::arrival_token t = empty[k].arrive();
            (void)t;
        }
    }
}

extern "C" __global__ void cuda_barrier_arrive_wait(int *out)
{
    __shared__ barrier bar;
    __shared__ int s[256];
    if (threadIdx.x == 0) init(&bar, blockDim.x);
    __syncthreads();
    s[threadIdx.x] = threadIdx.x * 7;
    auto tok = bar.arrive();
    int local = threadIdx.x * threadIdx.x;       // independent work between arrive and wait
    bar.wait(std::move(tok));
    out[blockIdx.x * blockDim.x + threadIdx.x] = s[blockDim.x - 1 - threadIdx.x] + local;
    if (threadIdx.x >= 128) bar.arrive_and_drop();
    else bar.arrive_and_wait();
}
