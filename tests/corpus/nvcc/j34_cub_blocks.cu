// corpus: -arch=sm_75
// CUB block collectives with joins near CTA barriers: radix sorts (keys only, key/value, signed and 64-bit keys),
// block histograms of u8 samples (sort and atomic algorithms, guarded tails), a BlockExchange transposition with
// guarded loads and stores.
#include <cub/cub.cuh>

extern "C" __global__ void __launch_bounds__(128) j34_sort_keys_i32(const int *keys, int *out, int n)
{
    using Sort = cub::BlockRadixSort<int, 128, 4>;
    __shared__ typename Sort::TempStorage tmp;
    int k[4];
    int base = blockIdx.x * 512;
    cub::LoadDirectBlocked(threadIdx.x, keys + base, k, n - base, INT_MAX);
    Sort(tmp).Sort(k);
    cub::StoreDirectBlocked(threadIdx.x, out + base, k, n - base);
}

extern "C" __global__ void __launch_bounds__(256) j34_sort_keys_u64_desc(const unsigned long long *keys,
                                                                         unsigned long long *out)
{
    using Sort = cub::BlockRadixSort<unsigned long long, 256, 2>;
    __shared__ typename Sort::TempStorage tmp;
    unsigned long long k[2];
    cub::LoadDirectStriped<256>(threadIdx.x, keys + blockIdx.x * 512, k);
    Sort(tmp).SortDescending(k);
    cub::StoreDirectStriped<256>(threadIdx.x, out + blockIdx.x * 512, k);
}

extern "C" __global__ void __launch_bounds__(64) j34_sort_pairs_u8_f32(const unsigned char *keys, const float *vals,
                                                                       unsigned char *okeys, float *ovals, int n)
{
    using Sort = cub::BlockRadixSort<unsigned char, 64, 8, float>;
    __shared__ typename Sort::TempStorage tmp;
    unsigned char k[8];
    float v[8];
    int base = blockIdx.x * 512;
    cub::LoadDirectBlocked(threadIdx.x, keys + base, k, n - base, (unsigned char)255);
    cub::LoadDirectBlocked(threadIdx.x, vals + base, v, n - base, 0.0f);
    Sort(tmp).Sort(k, v);
    cub::StoreDirectBlocked(threadIdx.x, okeys + base, k, n - base);
    cub::StoreDirectBlocked(threadIdx.x, ovals + base, v, n - base);
}

extern "C" __global__ void __launch_bounds__(128) j34_sort_pairs_i32_idx(const int *keys, int *okeys, int *oidx)
{
    using Sort = cub::BlockRadixSort<int, 128, 2, int>;
    __shared__ typename Sort::TempStorage tmp;
    int k[2], v[2];
    for (int i = 0; i < 2; ++i) {
        int idx = blockIdx.x * 256 + threadIdx.x * 2 + i;
        k[i] = keys[idx];
        v[i] = idx;
    }
    Sort(tmp).SortBlockedToStriped(k, v, 4, 20);
    cub::StoreDirectStriped<128>(threadIdx.x, okeys + blockIdx.x * 256, k);
    cub::StoreDirectStriped<128>(threadIdx.x, oidx + blockIdx.x * 256, v);
}

extern "C" __global__ void __launch_bounds__(256) j34_hist_atomic_u8(const unsigned char *in, unsigned *hist, int n)
{
    using Hist = cub::BlockHistogram<unsigned char, 256, 4, 256, cub::BLOCK_HISTO_ATOMIC>;
    __shared__ typename Hist::TempStorage tmp;
    __shared__ unsigned bins[256];
    unsigned char s[4];
    int base = blockIdx.x * 1024;
    cub::LoadDirectStriped<256>(threadIdx.x, in + base, s, n - base, (unsigned char)0);
    Hist(tmp).Histogram(s, bins);
    __syncthreads();
    if (bins[threadIdx.x]) atomicAdd(hist + threadIdx.x, bins[threadIdx.x]);
}

extern "C" __global__ void __launch_bounds__(128) j34_hist_sort_u8(const unsigned char *in, unsigned *hist)
{
    using Hist = cub::BlockHistogram<unsigned char, 128, 8, 256, cub::BLOCK_HISTO_SORT>;
    __shared__ typename Hist::TempStorage tmp;
    __shared__ unsigned bins[256];
    unsigned char s[8];
    cub::LoadDirectBlocked(threadIdx.x, in + blockIdx.x * 1024, s);
    Hist(tmp).Histogram(s, bins);
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += 128)
        atomicAdd(hist + b, bins[b]);
}

extern "C" __global__ void __launch_bounds__(256) j34_hist_sort_u8_64bins(const unsigned char *in, unsigned *hist,
                                                                          int n)
{
    using Hist = cub::BlockHistogram<unsigned char, 256, 2, 64, cub::BLOCK_HISTO_SORT>;
    __shared__ typename Hist::TempStorage tmp;
    __shared__ unsigned bins[64];
    unsigned char s[2];
    int base = blockIdx.x * 512;
    for (int i = 0; i < 2; ++i) {
        int idx = base + i * 256 + threadIdx.x;
        s[i] = idx < n ? (in[idx] & 63) : 0;
    }
    Hist(tmp).Histogram(s, bins);
    __syncthreads();
    if (threadIdx.x < 64) hist[blockIdx.x * 64 + threadIdx.x] = bins[threadIdx.x];
}

extern "C" __global__ void __launch_bounds__(128) j34_exchange_guarded(const float *in, float *out, int n)
{
    using Ex = cub::BlockExchange<float, 128, 4>;
    __shared__ typename Ex::TempStorage tmp;
    float v[4];
    int base = blockIdx.x * 512;
    cub::LoadDirectBlocked(threadIdx.x, in + base, v, n - base, 0.0f);
    Ex(tmp).BlockedToStriped(v);
    for (int i = 0; i < 4; ++i) v[i] *= 2.0f;
    cub::StoreDirectStriped<128>(threadIdx.x, out + base, v, n - base);
}

extern "C" __global__ void __launch_bounds__(256) j34_exchange_warp_striped(const int *in, int *out, int n)
{
    using Ex = cub::BlockExchange<int, 256, 2, true>;
    __shared__ typename Ex::TempStorage tmp;
    int v[2];
    int base = blockIdx.x * 512;
    cub::LoadDirectWarpStriped(threadIdx.x, in + base, v, n - base, -1);
    Ex(tmp).WarpStripedToBlocked(v);
    int s = v[0] + v[1];
    __syncthreads();
    Ex(tmp).BlockedToStriped(v);
    cub::StoreDirectStriped<256>(threadIdx.x, out + base, v, n - base);
    if (threadIdx.x == 0 && base < n) out[n + blockIdx.x] = s;
}
