// corpus: -arch=sm_75
// Block histograms of uint8 with shared-memory privatised bins.
#include <stdint.h>

template <int BINS, int THREADS>
__device__ void block_hist_u8(const uint8_t *__restrict__ data, unsigned *__restrict__ hist, int n) {
    __shared__ unsigned bins[BINS];
    for (int b = threadIdx.x; b < BINS; b += THREADS) bins[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * THREADS + threadIdx.x; i < n; i += gridDim.x * THREADS)
        atomicAdd(&bins[data[i] % BINS], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += THREADS) {
        unsigned c = bins[b];
        if (c) atomicAdd(&hist[b], c);
    }
}

extern "C" __global__ void jl33_hist256(const uint8_t *d, unsigned *h, int n) { block_hist_u8<256, 256>(d, h, n); }
extern "C" __global__ void jl33_hist64(const uint8_t *d, unsigned *h, int n) { block_hist_u8<64, 128>(d, h, n); }

// Per-block output (no global atomics): bins written to a per-block row, reduced by a second kernel.
extern "C" __global__ void jl33_hist_rows(const uint8_t *__restrict__ d, unsigned *__restrict__ rows, int n) {
    __shared__ unsigned bins[256];
    int t = threadIdx.x;
    bins[t] = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + t;
    if (i < n) atomicAdd(&bins[d[i]], 1u);
    __syncthreads();
    rows[blockIdx.x * 256 + t] = bins[t];
}

// Vectorised loads of 4 bytes, bins per warp, merged then flushed.
extern "C" __global__ void jl33_hist_warp_bins(const uchar4 *__restrict__ d, unsigned *__restrict__ hist, int n4) {
    __shared__ unsigned wb[4][256];
    int t = threadIdx.x, w = t >> 5;
    for (int k = t; k < 4 * 256; k += 128) (&wb[0][0])[k] = 0;
    __syncthreads();
    int i = blockIdx.x * 128 + t;
    if (i < n4) {
        uchar4 v = d[i];
        atomicAdd(&wb[w][v.x], 1u);
        atomicAdd(&wb[w][v.y], 1u);
        atomicAdd(&wb[w][v.z], 1u);
        atomicAdd(&wb[w][v.w], 1u);
    }
    __syncthreads();
    for (int b = t; b < 256; b += 128) {
        unsigned s = wb[0][b] + wb[1][b] + wb[2][b] + wb[3][b];
        if (s > 0) atomicAdd(&hist[b], s);
    }
}
