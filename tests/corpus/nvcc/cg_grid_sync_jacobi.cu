// corpus: -arch=sm_75
// Persistent cooperative kernel: a 1-D Jacobi iteration with grid.sync() between sweeps (ping-pong buffers,
// grid-stride loops), a grid-wide residual reduced per block with shared memory and atomics, and grid.sync()
// again before every thread reads the residual to decide whether to stop.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern "C" __global__ void __launch_bounds__(256)
jacobi_grid_sync(float *a, float *b, const float *rhs, float *residual, int n, int max_iter, float tol)
{
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    __shared__ float partial[8];
    for (int it = 0; it < max_iter; ++it) {
        float local = 0.f;
        for (int i = grid.thread_rank(); i < n; i += grid.size()) {
            float l = i > 0 ? a[i - 1] : 0.f, r = i + 1 < n ? a[i + 1] : 0.f;
            float v = 0.5f * (l + r + rhs[i]);
            local += fabsf(v - a[i]);
            b[i] = v;
        }
        for (int o = 16; o > 0; o >>= 1) local += __shfl_down_sync(0xffffffff, local, o);
        if ((threadIdx.x & 31) == 0) partial[threadIdx.x >> 5] = local;
        if (grid.thread_rank() == 0) residual[(it + 1) & 1] = 0.f;
        block.sync();
        if (threadIdx.x == 0) {
            float s = 0.f;
            for (int w = 0; w < 8; ++w) s += partial[w];
            atomicAdd(&residual[it & 1], s);
        }
        grid.sync();
        float res = residual[it & 1];
        float *t = a; a = b; b = t;
        if (res < tol) break;
        grid.sync();
    }
}
