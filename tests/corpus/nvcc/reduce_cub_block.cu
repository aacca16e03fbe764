// corpus: -arch=sm_75
// Block reduction through cub::BlockReduce (warp-reductions algorithm) and cub::BlockReduce RAKING.
#include <cub/block/block_reduce.cuh>

extern "C" __global__ void __launch_bounds__(128) reduce_cub_block(const int *in, int *out)
{
    using BR = cub::BlockReduce<int, 128, cub::BLOCK_REDUCE_WARP_REDUCTIONS>;
    __shared__ typename BR::TempStorage tmp;
    int v = in[blockIdx.x * 128 + threadIdx.x];
    int s = BR(tmp).Sum(v);
    if (threadIdx.x == 0) out[blockIdx.x] = s;
}

extern "C" __global__ void __launch_bounds__(128) reduce_cub_block_raking(const float *in, float *out)
{
    using BR = cub::BlockReduce<float, 128, cub::BLOCK_REDUCE_RAKING>;
    __shared__ typename BR::TempStorage tmp;
    float v = in[blockIdx.x * 128 + threadIdx.x];
    float m = BR(tmp).Reduce(v, cuda::maximum<>{});
    if (threadIdx.x == 0) out[blockIdx.x] = m;
}
