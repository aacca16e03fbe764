// corpus: -arch=sm_75
// Shared-memory histograms with a global merge; block- and system-scope atomics.

extern "C" __global__ void a27_hist_shared_merge(const unsigned char *in, unsigned *hist, int n) {
    __shared__ unsigned s_hist[256];
    for (int b = threadIdx.x; b < 256; b += blockDim.x) s_hist[b] = 0;
    __syncthreads();
    for (int i = threadIdx.x + blockIdx.x * blockDim.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&s_hist[in[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += blockDim.x) {
        unsigned c = s_hist[b];
        if (c) atomicAdd(&hist[b], c);
    }
}

// Per-warp sub-histograms (less contention), then merged in shared, then global.
extern "C" __global__ void a27_hist_per_warp(const int *in, unsigned *hist, int nbins, int n) {
    extern __shared__ unsigned s_warp_hist[];
    int warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
    for (int b = threadIdx.x; b < nbins * nwarps; b += blockDim.x) s_warp_hist[b] = 0;
    __syncthreads();
    unsigned *mine = s_warp_hist + warp * nbins;
    for (int i = threadIdx.x + blockIdx.x * blockDim.x; i < n; i += blockDim.x * gridDim.x) {
        int v = in[i];
        if (v >= 0 && v < nbins) atomicAdd_block(&mine[v], 1u);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < nbins; b += blockDim.x) {
        unsigned sum = 0;
        for (int w = 0; w < nwarps; ++w) sum += s_warp_hist[w * nbins + b];
        if (sum) atomicAdd(&hist[b], sum);
    }
}

// Weighted float histogram in shared memory (shared float atomicAdd), global merge.
extern "C" __global__ void a27_hist_weighted(const float *x, const float *w, float *hist, float lo, float inv_width,
                                             int nbins, int n) {
    __shared__ float s_hist[128];
    for (int b = threadIdx.x; b < nbins; b += blockDim.x) s_hist[b] = 0.f;
    __syncthreads();
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) {
        int b = (int)((x[i] - lo) * inv_width);
        b = min(max(b, 0), nbins - 1);
        atomicAdd(&s_hist[b], w[i]);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < nbins; b += blockDim.x) atomicAdd(&hist[b], s_hist[b]);
}

// Block-scope and system-scope counters mixed with device-scope ones.
extern "C" __global__ void a27_scoped_counters(int *dev, int *sys, unsigned *flags, const int *x, int n) {
    __shared__ int s_cnt;
    if (threadIdx.x == 0) s_cnt = 0;
    __syncthreads();
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) {
        int v = x[i];
        if (v & 1) atomicAdd_block(&s_cnt, 1);
        atomicMax_system(sys, v);
        atomicOr_block(&flags[blockIdx.x], 1u << (v & 31));
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        atomicAdd(dev, s_cnt);
        atomicAdd_system(sys + 1, s_cnt);
    }
}

// Histogram with a warp-level match: lanes with the same bin add once (__match_any_sync, sm_70+).
extern "C" __global__ void a27_hist_match_any(const int *in, unsigned *hist, int n) {
    __shared__ unsigned s_hist[64];
    if (threadIdx.x < 64) s_hist[threadIdx.x] = 0;
    __syncthreads();
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) {
        int b = in[i] & 63;
        unsigned peers = __match_any_sync(__activemask(), b);
        int leader = __ffs(peers) - 1;
        if ((threadIdx.x & 31) == leader) atomicAdd(&s_hist[b], __popc(peers));
    }
    __syncthreads();
    if (threadIdx.x < 64) atomicAdd(&hist[threadIdx.x], s_hist[threadIdx.x]);
}
