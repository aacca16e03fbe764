// corpus: -arch=sm_75
// cub::BlockRadixSort of key/value pairs and keys only: where the values come from decides where ptxas opens
// the region of the sort's block scan (the warp aggregates' `if (warp == 0)`) on sm_90+: values loaded from
// global memory and read only after the sort stay in flight across the scan's barriers (`LDG.. BAR SHFL.. BAR
// BSSY`); values made from the index, or loads read before the sort, let the BSSY go above the barriers
// (helper nvbar39, stop 39).
#include <cub/block/block_load.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_store.cuh>

extern "C" __global__ void __launch_bounds__(128) n39_pairs_loaded(unsigned *keys, int *vals)
{
    using Sort = cub::BlockRadixSort<unsigned, 128, 2, int>;
    __shared__ typename Sort::TempStorage tmp;
    unsigned k[2];
    int v[2];
    cub::LoadDirectStriped<128>(threadIdx.x, keys + blockIdx.x * 256, k);
    cub::LoadDirectStriped<128>(threadIdx.x, vals + blockIdx.x * 256, v);
    Sort(tmp).SortDescendingBlockedToStriped(k, v);
    cub::StoreDirectStriped<128>(threadIdx.x, keys + blockIdx.x * 256, k);
    cub::StoreDirectStriped<128>(threadIdx.x, vals + blockIdx.x * 256, v);
}

extern "C" __global__ void __launch_bounds__(128) n39_pairs_loaded4(const unsigned *keys, const float *vals,
                                                                    unsigned *okeys, float *ovals)
{
    using Sort = cub::BlockRadixSort<unsigned, 128, 4, float>;
    __shared__ typename Sort::TempStorage tmp;
    unsigned k[4];
    float v[4];
    cub::LoadDirectBlocked(threadIdx.x, keys + blockIdx.x * 512, k);
    cub::LoadDirectBlocked(threadIdx.x, vals + blockIdx.x * 512, v);
    Sort(tmp).Sort(k, v);
    cub::StoreDirectBlocked(threadIdx.x, okeys + blockIdx.x * 512, k);
    cub::StoreDirectBlocked(threadIdx.x, ovals + blockIdx.x * 512, v);
}

extern "C" __global__ void __launch_bounds__(128) n39_pairs_iota(unsigned *keys, int *perm)
{
    using Sort = cub::BlockRadixSort<unsigned, 128, 2, int>;
    __shared__ typename Sort::TempStorage tmp;
    unsigned k[2];
    int v[2];
    cub::LoadDirectStriped<128>(threadIdx.x, keys + blockIdx.x * 256, k);
    for (int i = 0; i < 2; i++) v[i] = threadIdx.x * 2 + i;
    Sort(tmp).SortDescendingBlockedToStriped(k, v);
    cub::StoreDirectStriped<128>(threadIdx.x, keys + blockIdx.x * 256, k);
    cub::StoreDirectStriped<128>(threadIdx.x, perm + blockIdx.x * 256, v);
}

extern "C" __global__ void __launch_bounds__(128) n39_pairs_tagged(unsigned *keys, int *vals)
{
    using Sort = cub::BlockRadixSort<unsigned, 128, 4, int>;
    __shared__ typename Sort::TempStorage tmp;
    unsigned k[4];
    int v[4];
    cub::LoadDirectStriped<128>(threadIdx.x, keys + blockIdx.x * 512, k);
    cub::LoadDirectStriped<128>(threadIdx.x, vals + blockIdx.x * 512, v);
    for (int i = 0; i < 4; i++) k[i] ^= v[i] & 1;      // the values are read before the sort
    Sort(tmp).SortDescendingBlockedToStriped(k, v);
    cub::StoreDirectStriped<128>(threadIdx.x, keys + blockIdx.x * 512, k);
    cub::StoreDirectStriped<128>(threadIdx.x, vals + blockIdx.x * 512, v);
}

extern "C" __global__ void __launch_bounds__(256) n39_pairs_f32_u16(const float *keys, const unsigned short *vals,
                                                                    float *okeys, unsigned short *ovals)
{
    using Sort = cub::BlockRadixSort<float, 256, 2, unsigned short>;
    __shared__ typename Sort::TempStorage tmp;
    float k[2];
    unsigned short v[2];
    cub::LoadDirectBlocked(threadIdx.x, keys + blockIdx.x * 512, k);
    cub::LoadDirectBlocked(threadIdx.x, vals + blockIdx.x * 512, v);
    Sort(tmp).Sort(k, v);
    cub::StoreDirectBlocked(threadIdx.x, okeys + blockIdx.x * 512, k);
    cub::StoreDirectBlocked(threadIdx.x, ovals + blockIdx.x * 512, v);
}
