// corpus: -arch=sm_75
// Cooperative-groups and __match_any_sync idioms: a histogram whose lanes with equal bins aggregate with
// __match_any_sync before one atomicAdd per bin, a coalesced_threads() counter in a divergent branch,
// a coalesced group ballot used as a work queue, and a per-tile any() inside a while loop.
#include <cuda_runtime.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void v31_match_hist(const int* __restrict__ data, int* hist, int n, int nbins)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        int bin = data[i] % nbins;
        unsigned peers = __match_any_sync(__activemask(), bin);
        int leader = __ffs(peers) - 1;
        if ((threadIdx.x & 31) == leader)
            atomicAdd(&hist[bin], __popc(peers));
    }
}

__global__ void v31_coalesced_count(const float* __restrict__ in, int* counts, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && in[i] < 0.f) {
        cg::coalesced_group g = cg::coalesced_threads();
        if (g.thread_rank() == 0)
            atomicAdd(&counts[blockIdx.x], (int)g.size());
    }
}

__global__ void v31_coalesced_queue(const int* __restrict__ flags, int* queue, int* tail, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && flags[i]) {
        cg::coalesced_group g = cg::coalesced_threads();
        int base = 0;
        if (g.thread_rank() == 0)
            base = atomicAdd(tail, (int)g.size());
        base = g.shfl(base, 0);
        queue[base + g.thread_rank()] = i;
        g.sync();
    }
}

__global__ void v31_tile_any_loop(const int* __restrict__ work, int* result, int n)
{
    cg::thread_block_tile<32> t = cg::tiled_partition<32>(cg::this_thread_block());
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? work[i] : 0;
    int steps = 0;
    while (t.any(v > 1)) {
        v = (v & 1) ? 3 * v + 1 : v >> 1;
        if (v < 0) v = 0;
        ++steps;
    }
    if (t.thread_rank() == 0)
        atomicMax(result, steps);
}
