// corpus: -arch=sm_75
// Example: block-wide sum. Each warp reduces with __shfl_down_sync, warp leaders meet in shared memory behind
// one __syncthreads, warp 0 reduces the partials and thread 0 adds the block's sum to the result atomically.
// Regenerate block_reduce.ptx with: python -m pylower.tools.make_corpus examples
extern "C" __global__ void block_reduce(const float *in, float *out, int n)
{
    __shared__ float partial[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;

    float v = i < n ? in[i] : 0.0f;
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffff, v, offset);
    if (lane == 0)
        partial[warp] = v;
    __syncthreads();

    if (warp == 0) {
        v = lane < blockDim.x / 32 ? partial[lane] : 0.0f;
        for (int offset = 16; offset > 0; offset /= 2)
            v += __shfl_down_sync(0xffffffff, v, offset);
        if (lane == 0)
            atomicAdd(out, v);
    }
}
