// corpus: -arch=sm_75
// Cooperative groups in real control flow: a coalesced_threads append inside a data if, a tile<16>
// row max in a grid-stride loop over rows, and a warp-tile reduce after a guarded accumulation loop.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

extern "C" __global__ void k30_cg_append_if(const int* __restrict__ in, int* __restrict__ out,
                                            int* __restrict__ cnt, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int v = in[i];
        if (v > 0) {
            cg::coalesced_group g = cg::coalesced_threads();
            int base = 0;
            if (g.thread_rank() == 0) base = atomicAdd(cnt, (int)g.size());
            base = g.shfl(base, 0);
            out[base + g.thread_rank()] = v;
        }
    }
}

extern "C" __global__ void k30_cg_tile16_rowmax(const float* __restrict__ x, float* __restrict__ y,
                                                int rows, int cols) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<16> t = cg::tiled_partition<16>(block);
    int tiles = gridDim.x * (blockDim.x / 16);
    for (int r = blockIdx.x * (blockDim.x / 16) + t.meta_group_rank(); r < rows; r += tiles) {
        float m = -1e30f;
        for (int c = t.thread_rank(); c < cols; c += 16) m = fmaxf(m, x[r * cols + c]);
        m = cg::reduce(t, m, cg::greater<float>());
        if (t.thread_rank() == 0) y[r] = m;
    }
}

extern "C" __global__ void k30_cg_warp_dot(const float* __restrict__ a, const float* __restrict__ b,
                                           float* __restrict__ out, int n) {
    cg::thread_block_tile<32> w = cg::tiled_partition<32>(cg::this_thread_block());
    float s = 0.f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        float av = a[i];
        if (av != 0.f) s += av * b[i];
    }
    s = cg::reduce(w, s, cg::plus<float>());
    if (w.thread_rank() == 0) atomicAdd(out, s);
}
