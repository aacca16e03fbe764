// corpus: -arch=sm_80
// Cooperative groups in divergent code: coalesced_threads() after a data-dependent branch for a histogram
// with per-bin aggregation, tiled_partition<8> segmented max inside a loop that only some warps enter,
// and a vote-steered work loop (__all_sync / __any_sync) that drains a per-warp queue.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

extern "C" __global__ void v29_cg_sparse_hist(const int* __restrict__ v, int* __restrict__ hist, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        int b = v[i];
        if (b < 0) continue;
        auto g = cg::coalesced_threads();
        auto same = cg::labeled_partition(g, b & 63);
        if (same.thread_rank() == 0) atomicAdd(&hist[b & 63], (int)same.size());
    }
}

extern "C" __global__ void v29_cg_tile8_rows(const float* __restrict__ a, float* __restrict__ rowmax,
                                             const int* __restrict__ rowlen, int rows) {
    auto block = cg::this_thread_block();
    auto t8 = cg::tiled_partition<8>(block);
    int row = (blockIdx.x * blockDim.x + threadIdx.x) / 8;
    if (row >= rows) return;
    int len = rowlen[row];
    float m = -1e30f;
    for (int j = t8.thread_rank(); j < len; j += 8) m = fmaxf(m, a[row * 256 + j]);
    m = cg::reduce(t8, m, cg::greater<float>());
    if (t8.thread_rank() == 0) rowmax[row] = m;
}

extern "C" __global__ void v29_vote_drain(int* __restrict__ queue, const int* __restrict__ qlen,
                                          float* __restrict__ out, int nq) {
    int w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int lane = threadIdx.x & 31;
    if (w >= nq) return;
    int len = qlen[w];
    int pos = lane;
    float acc = 0.f;
    while (__any_sync(0xffffffffu, pos < len)) {
        if (pos < len) {
            int item = queue[w * 1024 + pos];
            acc += (float)item * 0.5f;
            if (__all_sync(__activemask(), item > 0)) acc += 1.f;
        }
        pos += 32;
    }
    for (int o = 16; o > 0; o >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, o);
    if (lane == 0) out[w] = acc;
}
