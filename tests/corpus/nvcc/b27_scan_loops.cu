// corpus: -arch=sm_75
// Hand-written scans: Blelloch up-sweep/down-sweep with __syncthreads in both loops (bank-conflict-free
// padding), a scan loop that only some warps enter (barrier inside a divergent if), and a scan of tiles with a
// carry kept by thread 0 between iterations.

#define LOG_BANKS 5
#define PAD(i) ((i) + ((i) >> LOG_BANKS))

extern "C" __global__ void __launch_bounds__(256) b27_blelloch(const int *in, int *out, int *sums)
{
    __shared__ int t[PAD(512) + 1];
    int tid = threadIdx.x;
    int base = blockIdx.x * 512;
    t[PAD(2 * tid)] = in[base + 2 * tid];
    t[PAD(2 * tid + 1)] = in[base + 2 * tid + 1];
    int off = 1;
    for (int d = 256; d > 0; d >>= 1) {
        __syncthreads();
        if (tid < d) {
            int ai = off * (2 * tid + 1) - 1, bi = off * (2 * tid + 2) - 1;
            t[PAD(bi)] += t[PAD(ai)];
        }
        off <<= 1;
    }
    if (tid == 0) { sums[blockIdx.x] = t[PAD(511)]; t[PAD(511)] = 0; }
    for (int d = 1; d < 512; d <<= 1) {
        off >>= 1;
        __syncthreads();
        if (tid < d) {
            int ai = off * (2 * tid + 1) - 1, bi = off * (2 * tid + 2) - 1;
            int x = t[PAD(ai)];
            t[PAD(ai)] = t[PAD(bi)];
            t[PAD(bi)] += x;
        }
    }
    __syncthreads();
    out[base + 2 * tid] = t[PAD(2 * tid)];
    out[base + 2 * tid + 1] = t[PAD(2 * tid + 1)];
}

extern "C" __global__ void __launch_bounds__(256) b27_tile_carry_scan(const int *in, int *out, int tiles)
{
    __shared__ int s[256];
    __shared__ int carry;
    int tid = threadIdx.x;
    if (tid == 0) carry = 0;
    for (int t = 0; t < tiles; ++t) {
        int idx = (blockIdx.x * tiles + t) * 256 + tid;
        s[tid] = in[idx];
        __syncthreads();
#pragma unroll
        for (int off = 1; off < 256; off <<= 1) {
            int v = tid >= off ? s[tid - off] : 0;
            __syncthreads();
            s[tid] += v;
            __syncthreads();
        }
        out[idx] = s[tid] + carry;
        __syncthreads();
        if (tid == 255) carry += s[255];
        __syncthreads();
    }
}

extern "C" __global__ void b27_guarded_block_scan(int *data, int n, int enabled)
{
    __shared__ int s[1024];
    int tid = threadIdx.x;
    if (enabled) {
        s[tid] = tid < n ? data[tid] : 0;
        __syncthreads();
        for (int off = 1; off < blockDim.x; off <<= 1) {
            int v = tid >= off ? s[tid - off] : 0;
            __syncthreads();
            s[tid] += v;
            __syncthreads();
        }
        if (tid < n) data[tid] = s[tid];
    }
}
