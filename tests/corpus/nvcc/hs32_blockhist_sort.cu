// corpus: -arch=sm_75
// Block histograms (shared atomics, flush to global), bitonic sort and radix-sort steps in shared memory.

extern "C" __global__ void hs32_block_hist(const unsigned *keys, unsigned *hist, int n, int shift) {
    __shared__ unsigned bins[64];
    if (threadIdx.x < 64) bins[threadIdx.x] = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&bins[(keys[i] >> shift) & 63], 1u);
    __syncthreads();
    if (threadIdx.x < 64) {
        unsigned c = bins[threadIdx.x];
        if (c) atomicAdd(&hist[threadIdx.x], c);
    }
}

extern "C" __global__ void hs32_bitonic_sort(int *data, int n) {
    __shared__ int s[512];
    int t = threadIdx.x;
    int base = blockIdx.x * 512;
    s[t] = base + t < n ? data[base + t] : 0x7fffffff;
    s[t + 256] = base + t + 256 < n ? data[base + t + 256] : 0x7fffffff;
    __syncthreads();
    for (int k = 2; k <= 512; k <<= 1) {
        for (int j = k >> 1; j > 0; j >>= 1) {
            for (int idx = t; idx < 512; idx += 256) {
                int p = idx ^ j;
                if (p > idx) {
                    int a = s[idx], b = s[p];
                    bool up = (idx & k) == 0;
                    if ((a > b) == up) { s[idx] = b; s[p] = a; }
                }
            }
            __syncthreads();
        }
    }
    if (base + t < n) data[base + t] = s[t];
    if (base + t + 256 < n) data[base + t + 256] = s[t + 256];
}

extern "C" __global__ void hs32_radix_pass(const unsigned *in, unsigned *out, unsigned *block_counts, int n, int shift) {
    __shared__ unsigned counts[16];
    __shared__ unsigned keys[256];
    int t = threadIdx.x;
    int i = blockIdx.x * 256 + t;
    if (t < 16) counts[t] = 0;
    unsigned k = i < n ? in[i] : 0xffffffffu;
    keys[t] = k;
    __syncthreads();
    unsigned d = (k >> shift) & 15;
    if (i < n) atomicAdd(&counts[d], 1u);
    __syncthreads();
    if (t < 16) block_counts[blockIdx.x * 16 + t] = counts[t];
    // stable rank inside the block by counting smaller-digit / earlier keys
    unsigned rank = 0;
    for (int j = 0; j < 256; ++j) {
        unsigned dj = (keys[j] >> shift) & 15;
        rank += (dj < d) || (dj == d && j < t);
    }
    __syncthreads();
    keys[rank] = k;
    __syncthreads();
    if (i < n) out[i] = keys[t];
}

extern "C" __global__ void hs32_warp_private_hist(const unsigned char *in, unsigned *hist, int n) {
    __shared__ unsigned h[8][32];
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    h[warp][lane] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&h[warp][in[i] & 31], 1u);
    __syncthreads();
    if (threadIdx.x < 32) {
        unsigned s = 0;
        for (int w = 0; w < 8; ++w) s += h[w][threadIdx.x];
        if (s) atomicAdd(&hist[threadIdx.x], s);
    }
}
