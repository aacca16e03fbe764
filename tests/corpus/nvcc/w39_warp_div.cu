// corpus: -arch=sm_80
// Warp collectives and __syncthreads in divergent control flow: a ballot in a lane-guarded loop, a
// __syncwarp in a divergent if before a CTA barrier, an arm that ends in a barrier, a shuffle after the join.
extern "C" __global__ void w39_guarded_ballot_loop(const int *in, int *out, int n)
{
    int t = threadIdx.x;
    int cnt = 0;
    if (t < n) {
        for (int i = t; i < 4096; i += blockDim.x) {
            unsigned m = __ballot_sync(__activemask(), in[i] > 0);
            cnt += __popc(m);
        }
    }
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = cnt;
}

extern "C" __global__ void w39_syncwarp_then_bar(float *data, int n)
{
    __shared__ float s[256];
    int t = threadIdx.x;
    s[t] = data[blockIdx.x * 256 + t];
    if ((t & 31) < 16) {
        s[t] += s[t ^ 16];
        __syncwarp(0xffff);
        s[t] *= 2.f;
    }
    __syncthreads();
    float v = s[255 - t];
    v += __shfl_xor_sync(0xffffffff, v, 1);
    data[blockIdx.x * 256 + t] = v + (float)n;
}

extern "C" __global__ void w39_arm_bar_loop(int *data, int iters)
{
    __shared__ int s[128];
    int t = threadIdx.x;
    s[t] = t;
    __syncthreads();
    for (int k = 0; k < iters; ++k) {
        if (t < 64) {
            s[t] += s[t + 64];
        } else {
            s[t] -= k;
        }
        __syncthreads();
        int v = __shfl_down_sync(0xffffffff, s[t], 2);
        if (t == 0) data[k] = v;
        __syncthreads();
    }
    data[iters + t] = s[t];
}
