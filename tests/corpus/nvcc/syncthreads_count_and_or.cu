// corpus: -arch=sm_75
// __syncthreads_count / __syncthreads_and / __syncthreads_or (bar.red.popc / .and / .or).
extern "C" __global__ void syncthreads_count_and_or(const int *in, int *out, int thr)
{
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    int cnt = __syncthreads_count(v > thr);
    int all = __syncthreads_and(v != 0);
    int any = __syncthreads_or(v < 0);
    if (threadIdx.x == 0) {
        out[blockIdx.x * 3 + 0] = cnt;
        out[blockIdx.x * 3 + 1] = all;
        out[blockIdx.x * 3 + 2] = any;
    }
}
