// corpus: -arch=sm_75
// cooperative_groups tiles of every size: tiled_partition<1>/<2>/<8> (shfl_xor butterflies inside the tile,
// meta_group_rank / meta_group_size indexing, tile.sync), and dynamic tiled_partition(block, n) with a
// run-time tile size (thread_group sync, thread_rank, size) for a per-tile bitonic-style compare-exchange.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern "C" __global__ void __launch_bounds__(128) cg_static_tiles(const int *in, int *out)
{
    cg::thread_block block = cg::this_thread_block();
    int v = in[blockIdx.x * 128 + threadIdx.x];
    auto t1 = cg::tiled_partition<1>(block);
    v += t1.shfl(v, 0) + (int)t1.size();
    auto t2 = cg::tiled_partition<2>(block);
    v += t2.shfl_xor(v, 1);
    t2.sync();
    auto t8 = cg::tiled_partition<8>(block);
    for (int m = 4; m > 0; m >>= 1) v = max(v, t8.shfl_xor(v, m));
    __shared__ int per_tile[16];
    if (t8.thread_rank() == 0) per_tile[t8.meta_group_rank()] = v;
    block.sync();
    if (threadIdx.x < t8.meta_group_size()) out[blockIdx.x * 16 + threadIdx.x] = per_tile[threadIdx.x];
}

extern "C" __global__ void __launch_bounds__(256) cg_dynamic_tiles(float *data, int tile_size)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_group tile = cg::tiled_partition(block, tile_size);
    __shared__ float s[256];
    int i = blockIdx.x * 256 + threadIdx.x;
    s[threadIdx.x] = data[i];
    block.sync();
    unsigned r = tile.thread_rank(), n = tile.size();
    unsigned base = threadIdx.x - r;
    for (unsigned stride = n / 2; stride > 0; stride >>= 1) {
        unsigned partner = r ^ stride;
        float a = s[base + r], b = s[base + partner];
        tile.sync();
        if (partner > r ? a > b : a < b) s[base + r] = b;
        tile.sync();
    }
    data[i] = s[threadIdx.x];
}
