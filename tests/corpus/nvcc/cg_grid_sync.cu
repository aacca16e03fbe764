// corpus: -arch=sm_75
// cooperative_groups grid.sync() (no -rdc needed with CUDA 13): two-phase reduction in one cooperative launch.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern "C" __global__ void cg_grid_sync(const float *in, float *partial, float *out, int n)
{
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    __shared__ float s[256];
    float v = 0;
    for (int i = grid.thread_rank(); i < n; i += grid.size()) v += in[i];
    s[block.thread_rank()] = v;
    block.sync();
    for (int st = block.size() / 2; st > 0; st >>= 1) {
        if (block.thread_rank() < st) s[block.thread_rank()] += s[block.thread_rank() + st];
        block.sync();
    }
    if (block.thread_rank() == 0) partial[block.group_index().x] = s[0];
    grid.sync();
    if (grid.thread_rank() == 0) {
        float t = 0;
        for (int b = 0; b < gridDim.x; ++b) t += partial[b];
        *out = t;
    }
}
