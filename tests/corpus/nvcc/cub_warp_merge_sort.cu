// corpus: -arch=sm_75
// cub::WarpMergeSort: each warp sorts 32x4 float keys (full logical warp) and each 16-thread logical warp
// stable-sorts key/value pairs with a partial tile (valid_items, oob default); cub::BlockMergeSort for a whole
// tile of int keys with a descending comparator.
#include <cub/block/block_load.cuh>
#include <cub/block/block_merge_sort.cuh>
#include <cub/block/block_store.cuh>
#include <cub/warp/warp_merge_sort.cuh>

struct Less { template <class T> __device__ bool operator()(const T &a, const T &b) const { return a < b; } };
struct Greater { __device__ bool operator()(int a, int b) const { return a > b; } };

extern "C" __global__ void __launch_bounds__(128) warp_merge_sort_keys(float *data)
{
    using WS = cub::WarpMergeSort<float, 4>;
    __shared__ typename WS::TempStorage tmp[4];
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    float *p = data + (blockIdx.x * 4 + warp) * 128;
    float k[4];
    cub::LoadDirectBlocked(lane, p, k);
    WS(tmp[warp]).Sort(k, Less());
    cub::StoreDirectBlocked(lane, p, k);
}

extern "C" __global__ void __launch_bounds__(128)
warp_merge_sort_pairs_partial(unsigned *keys, int *vals, const int *count)
{
    using WS = cub::WarpMergeSort<unsigned, 2, 16, int>;
    __shared__ typename WS::TempStorage tmp[8];
    int sub = threadIdx.x / 16, lane = threadIdx.x % 16;
    int seg = blockIdx.x * 8 + sub;
    int valid = count[seg];
    unsigned k[2];
    int v[2];
    cub::LoadDirectBlocked(lane, keys + seg * 32, k, valid, ~0u);
    cub::LoadDirectBlocked(lane, vals + seg * 32, v, valid, -1);
    WS(tmp[sub]).StableSort(k, v, Less(), valid, ~0u);
    cub::StoreDirectBlocked(lane, keys + seg * 32, k, valid);
    cub::StoreDirectBlocked(lane, vals + seg * 32, v, valid);
}

extern "C" __global__ void __launch_bounds__(256) block_merge_sort_desc(int *data)
{
    using BS = cub::BlockMergeSort<int, 256, 4>;
    __shared__ typename BS::TempStorage tmp;
    int k[4];
    cub::LoadDirectBlocked(threadIdx.x, data + blockIdx.x * 1024, k);
    BS(tmp).Sort(k, Greater());
    cub::StoreDirectBlocked(threadIdx.x, data + blockIdx.x * 1024, k);
}
