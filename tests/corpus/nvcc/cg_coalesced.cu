// corpus: -arch=sm_75
// coalesced_threads(): warp-aggregated atomics in divergent code (activemask, popc, shfl from the leader).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ int aggregated_inc(int *ctr)
{
    cg::coalesced_group g = cg::coalesced_threads();
    int prev;
    if (g.thread_rank() == 0) prev = atomicAdd(ctr, g.size());
    prev = g.thread_rank() + g.shfl(prev, 0);
    return prev;
}

extern "C" __global__ void cg_coalesced(const int *in, int *dst, int *nres)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    if (v > 0) {
        dst[aggregated_inc(nres)] = v;
    }
    if (v & 4) {
        cg::coalesced_group g = cg::coalesced_threads();
        int s = v;
        for (int o = 1; o < 32; o <<= 1) {
            int n = g.shfl_down(s, o);
            if (g.thread_rank() + o < g.size()) s += n;
        }
        g.sync();
        if (g.thread_rank() == 0) atomicAdd(nres + 1, s);
    }
}
