// corpus: -arch=sm_75
// cub::BlockRadixSort: keys-only ascending sort of a tile (int, 4 keys per thread, blocked arrangement),
// descending float keys written out striped (SortDescendingBlockedToStriped), and key/value pairs with
// 64-bit keys sorted on a bit range (begin_bit/end_bit), the building block of a tile sort.
#include <cub/block/block_load.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_store.cuh>

extern "C" __global__ void __launch_bounds__(128) block_radix_sort_keys(int *data)
{
    using Sort = cub::BlockRadixSort<int, 128, 4>;
    __shared__ typename Sort::TempStorage tmp;
    int keys[4];
    cub::LoadDirectBlocked(threadIdx.x, data + blockIdx.x * 512, keys);
    Sort(tmp).Sort(keys);
    cub::StoreDirectBlocked(threadIdx.x, data + blockIdx.x * 512, keys);
}

extern "C" __global__ void __launch_bounds__(256) block_radix_sort_desc_striped(const float *in, float *out)
{
    using Sort = cub::BlockRadixSort<float, 256, 2>;
    __shared__ typename Sort::TempStorage tmp;
    float keys[2];
    cub::LoadDirectStriped<256>(threadIdx.x, in + blockIdx.x * 512, keys);
    Sort(tmp).SortDescendingBlockedToStriped(keys);
    cub::StoreDirectStriped<256>(threadIdx.x, out + blockIdx.x * 512, keys);
}

extern "C" __global__ void __launch_bounds__(64)
block_radix_sort_pairs_bits(const unsigned long long *keys_in, const int *vals_in,
                            unsigned long long *keys_out, int *vals_out, int end_bit)
{
    using Sort = cub::BlockRadixSort<unsigned long long, 64, 8, int, 5>;
    __shared__ typename Sort::TempStorage tmp;
    unsigned long long k[8];
    int v[8];
    size_t base = blockIdx.x * 512;
    cub::LoadDirectBlocked(threadIdx.x, keys_in + base, k);
    cub::LoadDirectBlocked(threadIdx.x, vals_in + base, v);
    Sort(tmp).Sort(k, v, 0, end_bit);
    cub::StoreDirectBlocked(threadIdx.x, keys_out + base, k);
    cub::StoreDirectBlocked(threadIdx.x, vals_out + base, v);
}
