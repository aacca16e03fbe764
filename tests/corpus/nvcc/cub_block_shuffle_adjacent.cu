// corpus: -arch=sm_75
// cub::BlockShuffle (Offset / Rotate / Up with the block suffix) for a 1-D stencil across thread boundaries,
// and cub::BlockAdjacentDifference SubtractLeft (with the tile predecessor) / SubtractRightPartialTile for
// finite differences of a tiled signal.
#include <cub/block/block_adjacent_difference.cuh>
#include <cub/block/block_load.cuh>
#include <cub/block/block_shuffle.cuh>
#include <cub/block/block_store.cuh>

extern "C" __global__ void __launch_bounds__(128)
block_shuffle_stencil(const float *in, float *out)
{
    using Shuf = cub::BlockShuffle<float, 128>;
    __shared__ typename Shuf::TempStorage tmp;
    int i = blockIdx.x * 128 + threadIdx.x;
    float c = in[i], left = c, right = c, rot;
    Shuf(tmp).Offset(c, left, -1);
    __syncthreads();
    Shuf(tmp).Offset(c, right, 1);
    __syncthreads();
    Shuf(tmp).Rotate(c, rot, 64);
    out[i] = 0.25f * left + 0.5f * c + 0.25f * right + 1e-3f * rot;
    __syncthreads();
    float items[4] = {c, left, right, rot}, prev[4], suffix;
    Shuf(tmp).Up(items, prev, suffix);
    if (threadIdx.x == 0) out[gridDim.x * 128 + blockIdx.x] = suffix + prev[0];
}

extern "C" __global__ void __launch_bounds__(256)
block_adjacent_difference(const int *in, int *dleft, int *dright, int n)
{
    using AD = cub::BlockAdjacentDifference<int, 256>;
    __shared__ typename AD::TempStorage tmp;
    int v[4], l[4], r[4];
    int base = blockIdx.x * 1024;
    int valid = min(1024, n - base);
    cub::LoadDirectBlocked(threadIdx.x, in + base, v, valid, 0);
    if (blockIdx.x == 0) AD(tmp).SubtractLeft(v, l, cuda::std::minus<>{});
    else AD(tmp).SubtractLeft(v, l, cuda::std::minus<>{}, in[base - 1]);
    __syncthreads();
    AD(tmp).SubtractRightPartialTile(v, r, cuda::std::minus<>{}, valid);
    cub::StoreDirectBlocked(threadIdx.x, dleft + base, l, valid);
    cub::StoreDirectBlocked(threadIdx.x, dright + base, r, valid);
}
