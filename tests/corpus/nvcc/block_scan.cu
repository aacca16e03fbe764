// corpus: -arch=sm_75
// Block-wide inclusive scan: Hillis-Steele in double-buffered shared memory (a __syncthreads per step), and a
// work-efficient warp-shuffle scan with per-warp totals.
extern "C" __global__ void __launch_bounds__(256) block_scan_hillis_steele(const int *in, int *out)
{
    __shared__ int buf[2][256];
    int tid = threadIdx.x, cur = 0;
    buf[0][tid] = in[blockIdx.x * 256 + tid];
    __syncthreads();
    for (int off = 1; off < 256; off <<= 1) {
        int v = buf[cur][tid];
        if (tid >= off) v += buf[cur][tid - off];
        buf[cur ^ 1][tid] = v;
        cur ^= 1;
        __syncthreads();
    }
    out[blockIdx.x * 256 + tid] = buf[cur][tid];
}

extern "C" __global__ void __launch_bounds__(1024) block_scan_warp_shuffle(const int *in, int *out, int *block_sums)
{
    __shared__ int warp_tot[32];
    int tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
    int v = in[blockIdx.x * blockDim.x + tid];
    for (int d = 1; d < 32; d <<= 1) { int n = __shfl_up_sync(~0u, v, d); if (lane >= d) v += n; }
    if (lane == 31) warp_tot[w] = v;
    __syncthreads();
    if (w == 0) {
        int t = lane < blockDim.x / 32 ? warp_tot[lane] : 0;
        for (int d = 1; d < 32; d <<= 1) { int n = __shfl_up_sync(~0u, t, d); if (lane >= d) t += n; }
        warp_tot[lane] = t;
    }
    __syncthreads();
    if (w > 0) v += warp_tot[w - 1];
    out[blockIdx.x * blockDim.x + tid] = v;
    if (tid == blockDim.x - 1) block_sums[blockIdx.x] = v;
}
