// corpus: -arch=sm_75
// Shared-memory 64-bit atomics that ptxas emulates with CAS loops (double add, signed/unsigned 64-bit max/min),
// followed by __syncthreads() and a guarded loop over the merged values, as block-private accumulators are written.

extern "C" __global__ void inv30_block_double_sum(const double *x, int n, double *out, int nout)
{
    __shared__ double acc[64];
    int t = threadIdx.x;
    if (t < 64) acc[t] = 0.0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + t;
    double v = i < n ? x[i] : 0.0;
    atomicAdd(&acc[t & 63], v);
    __syncthreads();
    if (t < nout) {
        for (int k = t; k < 64; k += nout)
            atomicAdd(&out[k], acc[k]);
    }
}

extern "C" __global__ void inv30_block_max_i64(const long long *x, int n, long long *out)
{
    __shared__ long long best[32];
    int t = threadIdx.x;
    if (t < 32) best[t] = -0x7fffffffffffffffLL;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x)
        atomicMax(&best[i & 31], x[i]);
    __syncthreads();
    if (t < 32) {
        long long m = best[t];
        for (int s = 0; s < 4; ++s)
            out[blockIdx.x * 128 + s * 32 + t] = m + s;
    }
}

extern "C" __global__ void inv30_block_min_u64_keys(const unsigned long long *keys, int n, unsigned long long *out)
{
    __shared__ unsigned long long lo[16];
    int t = threadIdx.x;
    if (t < 16) lo[t] = ~0ULL;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + t;
    if (i < n)
        atomicMin(&lo[keys[i] & 15], keys[i]);
    __syncthreads();
    if (t == 0) {
        unsigned long long m = lo[0];
        for (int k = 1; k < 16; ++k)
            m = lo[k] < m ? lo[k] : m;
        out[blockIdx.x] = m;
    }
}

extern "C" __global__ void inv30_scaled_double_hist(const float *x, int n, float scale, double *hist)
{
    __shared__ double bins[32];
    int t = threadIdx.x;
    if (t < 32) bins[t] = 0.0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x) {
        int b = min(31, max(0, (int)(x[i] * scale)));
        atomicAdd(&bins[b], (double)x[i]);
    }
    __syncthreads();
    if (t < 32 && bins[t] != 0.0)
        atomicAdd(&hist[t], bins[t]);
}
