// corpus: -arch=sm_75
// Block reduction with a fixed 256-thread block: unrolled tree, last warp finished with __syncwarp.
extern "C" __global__ void __launch_bounds__(256) reduce_smem_unrolled(const int *in, int *out)
{
    __shared__ int s[256];
    unsigned tid = threadIdx.x;
    s[tid] = in[blockIdx.x * 256 + tid];
    __syncthreads();
    if (tid < 128) s[tid] += s[tid + 128];
    __syncthreads();
    if (tid < 64) s[tid] += s[tid + 64];
    __syncthreads();
    if (tid < 32) {
        int v = s[tid] + s[tid + 32]; __syncwarp();
        s[tid] = v; __syncwarp();
        for (int o = 16; o > 0; o >>= 1) {
            v += s[tid + o]; __syncwarp();
            s[tid] = v; __syncwarp();
        }
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}
