// corpus: -arch=sm_75
// Block all-reduce: butterfly (xor) shuffles, result broadcast to every thread through shared memory.
extern "C" __global__ void reduce_warp_xor_allreduce(const int *in, int *out)
{
    __shared__ int partial[32];
    __shared__ int total;
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int m = 16; m > 0; m >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, m);
    if ((threadIdx.x & 31) == 0) partial[threadIdx.x >> 5] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        int w = threadIdx.x < blockDim.x / 32 ? partial[threadIdx.x] : 0;
        for (int m = 16; m > 0; m >>= 1)
            w += __shfl_xor_sync(0xffffffffu, w, m);
        if (threadIdx.x == 0) total = w;
    }
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = v * 0 + total - in[blockIdx.x * blockDim.x + threadIdx.x];
}
