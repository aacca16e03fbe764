// corpus: -arch=sm_75
// thread_block_tile collectives: tile.any / all / ballot for early exit of a per-tile search, tile.match_any /
// match_all to group equal keys (sm_70+), shfl_up / shfl_down on 16-thread tiles, and tile.num_threads.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern "C" __global__ void __launch_bounds__(128)
cg_tile_search(const int *keys, const int *queries, int *found, int n)
{
    auto tile = cg::tiled_partition<32>(cg::this_thread_block());
    int q = queries[blockIdx.x * 4 + tile.meta_group_rank()];
    int pos = -1;
    for (int base = 0; base < n; base += 32) {
        int i = base + tile.thread_rank();
        bool hit = i < n && keys[i] == q;
        unsigned m = tile.ballot(hit);
        if (m) { pos = base + __ffs(m) - 1; break; }
        if (tile.all(i >= n)) break;
    }
    if (tile.thread_rank() == 0) found[blockIdx.x * 4 + tile.meta_group_rank()] = pos;
    if (tile.any(pos < 0) && tile.thread_rank() == 1) atomicAdd(found + gridDim.x * 4, 1);
}

extern "C" __global__ void __launch_bounds__(256)
cg_tile_match_groups(const unsigned *key, const float *val, float *out, int *uniform)
{
    auto block = cg::this_thread_block();
    auto t32 = cg::tiled_partition<32>(block);
    auto t16 = cg::tiled_partition<16>(block);
    int i = blockIdx.x * 256 + threadIdx.x;
    unsigned k = key[i];
    float v = val[i];
    unsigned peers = t32.match_any(k);
    int pred;
    t32.match_all(k & ~15u, pred);
    int leader = __ffs(peers) - 1;
    float s = v;
    for (int d = 1; d < 16; d <<= 1) {
        float up = t16.shfl_up(s, d);
        if (t16.thread_rank() >= (unsigned)d) s += up;
    }
    float nxt = t16.shfl_down(s, 1);
    out[i] = (t32.thread_rank() == (unsigned)leader ? s : nxt) + (float)t16.num_threads();
    if (t32.thread_rank() == 0) uniform[blockIdx.x * 8 + t32.meta_group_rank()] = pred;
}
