// corpus: -arch=sm_90
// cg::invoke_one / cg::invoke_one_broadcast (elect.sync on sm_90) for per-warp work claiming from a global queue
// (one atomicAdd per warp, the claimed index broadcast to the tile), on a coalesced group in divergent code,
// and an elected thread that initialises shared state followed by block.sync.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern "C" __global__ void __launch_bounds__(256)
warp_work_queue(const int *work, int *out, int *head, int total)
{
    auto tile = cg::tiled_partition<32>(cg::this_thread_block());
    for (;;) {
        int start = cg::invoke_one_broadcast(tile, [&] { return atomicAdd(head, 32); });
        if (start >= total) break;
        int j = start + tile.thread_rank();
        if (j < total) out[j] = work[j] * 2 + 1;
    }
}

extern "C" __global__ void __launch_bounds__(128)
coalesced_invoke_one(const float *x, float *y, unsigned *hits, int n)
{
    __shared__ unsigned block_hits;
    cg::thread_block block = cg::this_thread_block();
    cg::invoke_one(cg::tiled_partition<32>(block), [&] { if (threadIdx.x == 0) block_hits = 0; });
    block.sync();
    int i = blockIdx.x * 128 + threadIdx.x;
    if (i < n && x[i] > 0.f) {
        cg::coalesced_group g = cg::coalesced_threads();
        unsigned base = cg::invoke_one_broadcast(g, [&] { return atomicAdd(&block_hits, g.num_threads()); });
        y[i] = (float)(base + g.thread_rank());
    }
    block.sync();
    cg::invoke_one(block, [&] { atomicAdd(hits, block_hits); });
}
