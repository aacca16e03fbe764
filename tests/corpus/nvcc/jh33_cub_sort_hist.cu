// corpus: -arch=sm_90
// CUB block collectives as applications write them: key/value radix sorts of different tile shapes and key
// types, block histograms (atomic and sort-based) with guarded tail tiles, a BlockExchange transposition
// followed by a guarded store, and a sort that runs over several tiles in a loop.
#include <cub/cub.cuh>

extern "C" __global__ void __launch_bounds__(128) jh33_sort_pairs_u32(const unsigned *keys, const int *vals,
                                                                      unsigned *okeys, int *ovals, int n)
{
    using Sort = cub::BlockRadixSort<unsigned, 128, 4, int>;
    __shared__ typename Sort::TempStorage tmp;
    unsigned k[4];
    int v[4];
    int base = blockIdx.x * 512;
    for (int i = 0; i < 4; ++i) {
        int idx = base + threadIdx.x * 4 + i;
        k[i] = idx < n ? keys[idx] : 0xffffffffu;
        v[i] = idx < n ? vals[idx] : -1;
    }
    Sort(tmp).Sort(k, v);
    for (int i = 0; i < 4; ++i) {
        int idx = base + threadIdx.x * 4 + i;
        if (idx < n) { okeys[idx] = k[i]; ovals[idx] = v[i]; }
    }
}

extern "C" __global__ void __launch_bounds__(256) jh33_sort_pairs_f32_striped(const float *keys, const unsigned short *vals,
                                                                              float *okeys, unsigned short *ovals)
{
    using Sort = cub::BlockRadixSort<float, 256, 2, unsigned short>;
    __shared__ typename Sort::TempStorage tmp;
    float k[2];
    unsigned short v[2];
    cub::LoadDirectStriped<256>(threadIdx.x, keys + blockIdx.x * 512, k);
    cub::LoadDirectStriped<256>(threadIdx.x, vals + blockIdx.x * 512, v);
    Sort(tmp).SortDescendingBlockedToStriped(k, v, 0, 32);
    cub::StoreDirectStriped<256>(threadIdx.x, okeys + blockIdx.x * 512, k);
    cub::StoreDirectStriped<256>(threadIdx.x, ovals + blockIdx.x * 512, v);
}

extern "C" __global__ void __launch_bounds__(64) jh33_sort_pairs_tiles(const int *keys, const int *vals, int *okeys,
                                                                       int *ovals, int tiles)
{
    using Sort = cub::BlockRadixSort<int, 64, 8, int>;
    __shared__ typename Sort::TempStorage tmp;
    for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
        int k[8], v[8];
        cub::LoadDirectBlocked(threadIdx.x, keys + t * 512, k);
        cub::LoadDirectBlocked(threadIdx.x, vals + t * 512, v);
        Sort(tmp).Sort(k, v, 4, 28);
        __syncthreads();
        cub::StoreDirectBlocked(threadIdx.x, okeys + t * 512, k);
        cub::StoreDirectBlocked(threadIdx.x, ovals + t * 512, v);
    }
}

extern "C" __global__ void __launch_bounds__(128) jh33_hist_atomic(const unsigned char *in, unsigned *hist, int n)
{
    using H = cub::BlockHistogram<unsigned char, 128, 4, 256, cub::BLOCK_HISTO_ATOMIC>;
    __shared__ typename H::TempStorage tmp;
    __shared__ unsigned bins[256];
    unsigned char s[4];
    int base = blockIdx.x * 512 + threadIdx.x * 4;
    for (int i = 0; i < 4; ++i) s[i] = base + i < n ? in[base + i] : 0;
    H(tmp).Histogram(s, bins);
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += 128)
        if (bins[b]) atomicAdd(&hist[b], bins[b]);
}

extern "C" __global__ void __launch_bounds__(256) jh33_hist_sort(const unsigned char *in, unsigned *hist)
{
    using H = cub::BlockHistogram<unsigned char, 256, 8, 256, cub::BLOCK_HISTO_SORT>;
    __shared__ typename H::TempStorage tmp;
    __shared__ unsigned bins[256];
    unsigned char s[8];
    cub::LoadDirectStriped<256>(threadIdx.x, in + blockIdx.x * 2048, s);
    H(tmp).Histogram(s, bins);
    __syncthreads();
    atomicAdd(&hist[threadIdx.x], bins[threadIdx.x]);
}

extern "C" __global__ void __launch_bounds__(128) jh33_hist_composite(const unsigned short *in, unsigned *hist, int tiles)
{
    using H = cub::BlockHistogram<unsigned short, 128, 2, 64, cub::BLOCK_HISTO_SORT>;
    __shared__ typename H::TempStorage tmp;
    __shared__ unsigned bins[64];
    H h(tmp);
    h.InitHistogram(bins);
    for (int t = 0; t < tiles; ++t) {
        unsigned short s[2];
        cub::LoadDirectBlocked(threadIdx.x, in + (blockIdx.x * tiles + t) * 256, s);
        s[0] &= 63; s[1] &= 63;
        __syncthreads();
        h.Composite(s, bins);
    }
    __syncthreads();
    if (threadIdx.x < 64) atomicAdd(&hist[threadIdx.x], bins[threadIdx.x]);
}

extern "C" __global__ void __launch_bounds__(128) jh33_exchange_guarded(const int *in, int *out, int n)
{
    using X = cub::BlockExchange<int, 128, 4>;
    __shared__ typename X::TempStorage tmp;
    int v[4];
    int base = blockIdx.x * 512;
    cub::LoadDirectBlocked(threadIdx.x, in + base, v, n - base, 0);
    X(tmp).BlockedToStriped(v);
    for (int i = 0; i < 4; ++i) {
        int idx = base + i * 128 + threadIdx.x;
        if (idx < n && v[i] > 0) out[idx] = v[i] * 3;
    }
}
